//! The varisat backend: the pure-Rust solver, its proof turned into LRAT by varisat's own
//! checker and renumbered by [`LratWriter`].
//!
//! Varisat's checker, which turns the solver's native proof into LRAT steps (and which
//! `varisat-lrat` prints, adding 1), numbers clauses from 0 on its own: one id per input
//! clause in load order (a duplicate or a tautology gets an id of its own too, though the id is
//! never used), then one per derived clause. Two quirks break a plain `k + 1` rule: once the
//! formula is trivially unsatisfiable (an empty clause, or a unit clause opposite an earlier
//! one) it stops numbering the remaining input clauses and derives the empty clause under the
//! next free id, which an input clause of ours may already have; and an empty input clause
//! never leads to an added empty clause at all, so the proof would have no empty clause (the
//! unit-propagation shortcut of [`super::solve`] answers those formulas before varisat runs).
//!
//! So the numbers are not trusted to line up: a [`ProofProcessor`] learns, while each input
//! clause is being loaded, which varisat id stands for which input clause; literals go through
//! varisat's proof-to-user variable map.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use gamecert_certificates::sat::cnf::Cnf;
use varisat::{ExtendFormula, Lit, Solver, Var};
use varisat_checker::{CheckedProofStep, CheckerData, ProofProcessor};

use std::io::Write;

use super::lrat_writer::{Hint, LratWriter, ProofStats};
use super::{panic_message, Backend, Found, SatError};

/// The most variables varisat supports.
pub(super) fn max_vars() -> usize {
    Var::max_count()
}

/// Runs varisat on the clauses in order; with a `proof` sink, writes its proof there as binary
/// LRAT of at most `max_bytes` bytes (the sink is given back).
pub(super) fn solve<W: Write>(
    cnf: &Cnf,
    proof: Option<W>,
    max_bytes: u64,
) -> Result<(Found, Option<W>), SatError> {
    let loading = Rc::new(Cell::new(0u64));
    let asked = proof.is_some();
    let mut processor = proof.map(|sink| Processor {
        writer: LratWriter::new(cnf.clauses.len() as u64, max_bytes, sink),
        loading: Rc::clone(&loading),
        lits: Vec::new(),
    });
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut solver = Solver::new();
        if let Some(processor) = processor.as_mut() {
            solver.add_proof_processor(processor);
        }
        let mut lits: Vec<Lit> = Vec::new();
        for (k, clause) in cnf.clauses.iter().enumerate() {
            loading.set(k as u64 + 1);
            lits.clear();
            lits.extend(clause.iter().map(|&l| Lit::from_dimacs(l as isize)));
            solver.add_clause(&lits);
        }
        loading.set(0);
        let answer = solver.solve();
        let model = solver.model();
        let closed = solver.close_proof();
        (answer, model, closed)
    }));
    let (answer, model, closed) = run.map_err(|payload| SatError::SolverPanicked {
        backend: Backend::Varisat,
        message: panic_message(payload.as_ref()),
    })?;
    let writer = processor.map(|p| p.writer);
    // The writer's failure stops varisat with an error; the writer knows the cause.
    if let Some(error) = writer.as_ref().and_then(LratWriter::error) {
        return Err(error);
    }
    let failed = |e: varisat::solver::SolverError| SatError::Solver {
        backend: Backend::Varisat,
        message: e.to_string(),
    };
    let satisfiable = answer.map_err(failed)?;
    closed.map_err(failed)?;
    if satisfiable {
        let mut assignment = vec![false; cnf.num_vars as usize];
        for lit in model.unwrap_or_default() {
            if let Some(slot) = assignment.get_mut(lit.index()) {
                *slot = lit.is_positive();
            }
        }
        return Ok((Found::Model(assignment), writer.map(LratWriter::into_sink)));
    }
    match writer {
        Some(writer) if asked => {
            let (stats, sink) = writer.finish("varisat")?;
            Ok((Found::Refuted(stats), Some(sink)))
        }
        _ => Ok((Found::Refuted(ProofStats::default()), None)),
    }
}

/// Feeds varisat's checked proof steps to the writer.
struct Processor<W: Write> {
    writer: LratWriter<W>,
    /// 1-based index of the input clause being loaded, 0 once loading is over.
    loading: Rc<Cell<u64>>,
    /// The literals of the current step, in the user's numbering.
    lits: Vec<i32>,
}

impl<W: Write> Processor<W> {
    fn step(&mut self, step: &CheckedProofStep, data: CheckerData) -> Result<(), String> {
        match *step {
            CheckedProofStep::AddClause { id, .. }
            | CheckedProofStep::DuplicatedClause { id, .. }
            | CheckedProofStep::TautologicalClause { id, .. } => {
                let input = self.loading.get();
                if input == 0 {
                    return Err(format!("varisat added input clause {id} outside of loading"));
                }
                self.writer.input(id, input);
            }
            CheckedProofStep::AtClause { id, clause, propagations, .. } => {
                self.lits.clear();
                for &lit in clause {
                    let user = data.user_from_proof_var(lit.var()).ok_or_else(|| {
                        format!("proof variable {} has no user variable", lit.var())
                    })?;
                    self.lits.push(user.lit(lit.is_positive()).to_dimacs() as i32);
                }
                self.writer.add(id, 0, &self.lits, propagations.iter().map(|&h| Hint::rup(h)));
            }
            CheckedProofStep::DeleteClause { id, .. } => self.writer.delete(id),
            CheckedProofStep::DeleteAtClause { id, keep_as_redundant, .. }
            | CheckedProofStep::DeleteRatClause { id, keep_as_redundant, .. } => {
                if !keep_as_redundant {
                    self.writer.delete(id);
                }
            }
            CheckedProofStep::UserVar { .. }
            | CheckedProofStep::MakeIrredundant { .. }
            | CheckedProofStep::Model { .. }
            | CheckedProofStep::Assumptions { .. }
            | CheckedProofStep::FailedAssumptions { .. } => {}
        }
        Ok(())
    }
}

impl<W: Write> ProofProcessor for Processor<W> {
    fn process_step(
        &mut self,
        step: &CheckedProofStep,
        data: CheckerData,
    ) -> Result<(), anyhow::Error> {
        if self.writer.finished() {
            return Ok(());
        }
        if let Err(message) = self.step(step, data) {
            self.writer.fail(message);
        }
        // Stop varisat at the writer's first failure (or once the proof is too large).
        match self.writer.error() {
            Some(error) => Err(anyhow::anyhow!(error.to_string())),
            None => Ok(()),
        }
    }
}

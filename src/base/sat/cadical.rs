//! The CaDiCaL backend: CaDiCaL 3.0.1 (compiled from the sources the `cadical-sys` crate
//! bundles), its proof taken from a proof tracer and renumbered by [`LratWriter`].
//!
//! A tracer connected with antecedents makes CaDiCaL keep LRAT chains for every step. It calls
//! `add_original_clause` once for each input clause, inside the `add(0)` that ends it (a
//! duplicate, a tautology, a clause with a repeated or a root-falsified literal included: CaDiCaL
//! then derives the simplified clause, or deletes the original, as further steps), so the id it
//! reports there is learned as the clause being added. Derived clauses, with their chains, and
//! deletions follow; the first derived empty clause ends the proof. An empty input clause never
//! leads to a derived empty clause: the unit-propagation shortcut of [`super::solve`] answers
//! such formulas before CaDiCaL runs.
//!
//! Options: [`FACTOR`] (bounded variable addition) is on, for the reason given there. CaDiCaL
//! prints nothing (the crate builds it with `QUIET`).
//!
//! The tracer's callbacks run inside CaDiCaL's C++ code, where a Rust panic would abort the
//! process, so they never panic: a failure is recorded in the writer, and a terminator stops
//! the search at its next check. The `cadical-sys` API itself panics (instead of letting CaDiCaL
//! abort) when it is misused; [`solve`] turns such a panic into [`SatError::SolverPanicked`].

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use cadical_sys::{CaDiCal, Learner, ProofTracer, Status, Terminator};
use gamecert_certificates::sat::cnf::Cnf;

use std::io::Write;

use super::lrat_writer::{Hint, LratWriter, ProofStats};
use super::{panic_message, Backend, Found, Mode, SatError};

/// CaDiCaL's `factor` option (bounded variable addition), set explicitly: on. Its steps are RAT
/// steps (a fresh variable as the pivot, negative hints), which the checker checks. On
/// pigeonhole with 10 pigeons it takes CaDiCaL from 6.4 s to 0.06 s (and the proof from 61 MB
/// to 0.6 MB); on random 3-CNF it finds nothing to factor and costs nothing measurable.
/// CaDiCaL 3.0.0 turned it on by default and 3.0.1 off again: setting it here keeps the
/// behaviour whatever the bundled version's default.
pub(super) const FACTOR: bool = true;

/// The most variables CaDiCaL takes: its variable indices are `int`s below `INT_MAX`.
pub(super) fn max_vars() -> usize {
    i32::MAX as usize - 1
}

/// Runs CaDiCaL on the clauses in order, with `factor` as given, searching in `mode`; with a
/// `proof` sink, writes its proof there as binary LRAT of at most `max_bytes` bytes (the sink
/// is given back).
pub(super) fn solve<W: Write + 'static>(
    cnf: &Cnf,
    proof: Option<W>,
    max_bytes: u64,
    factor: bool,
    mode: Mode,
) -> Result<(Found, Option<W>), SatError> {
    let max_var = cnf.clauses.iter().flatten().map(|lit| lit.unsigned_abs()).max().unwrap_or(0);
    let inputs = cnf.clauses.len() as u64;
    let tracing = proof.map(|sink| {
        Rc::new(RefCell::new(Tracing {
            writer: LratWriter::new(inputs, max_bytes, sink),
            loading: 0,
        }))
    });
    let stop = Rc::new(Cell::new(false));
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut solver = CaDiCal::new();
        if mode == Mode::Focused && !solver.configure("unsat") {
            return Err("CaDiCaL has no configuration `unsat`".to_string());
        }
        if !solver.set("factor", i32::from(factor)) {
            return Err("CaDiCaL has no option `factor`".to_string());
        }
        if let Some(tracing) = &tracing {
            let tracer = Tracer { tracing: Rc::clone(tracing), stop: Rc::clone(&stop) };
            solver.connect_proof_tracer1(tracer, true, false);
            solver.connect_terminator(StopFlag(Rc::clone(&stop)));
        }
        solver.connect_learner(ConflictCounter);
        if factor {
            // With `factor`, CaDiCaL takes only declared variables (its extension variables
            // come after them).
            solver.declare_more_variables(max_var as i32);
        }
        for (k, clause) in cnf.clauses.iter().enumerate() {
            if let Some(tracing) = &tracing {
                tracing.borrow_mut().loading = k as u64 + 1;
            }
            for &lit in clause {
                solver.add(lit);
            }
            solver.add(0);
        }
        if let Some(tracing) = &tracing {
            tracing.borrow_mut().loading = 0;
        }
        let status = solver.solve();
        let model: Vec<bool> = if status == Status::SATISFIABLE {
            (1..=max_var as i32).map(|v| solver.val(v) > 0).collect()
        } else {
            Vec::new()
        };
        Ok((status, model))
    }));
    let failed = |message: String| SatError::Solver { backend: Backend::Cadical, message };
    let (status, model) = run
        .map_err(|payload| SatError::SolverPanicked {
            backend: Backend::Cadical,
            message: panic_message(payload.as_ref()),
        })?
        .map_err(failed)?;
    // The solver (and with it the tracer's handle) is gone: the writer is ours alone.
    let writer = match tracing.map(Rc::try_unwrap) {
        None => None,
        Some(Ok(tracing)) => Some(tracing.into_inner().writer),
        Some(Err(_)) => return Err(failed("the proof tracer outlived the solver".into())),
    };
    if let Some(error) = writer.as_ref().and_then(LratWriter::error) {
        return Err(error);
    }
    match (status, writer) {
        (Status::SATISFIABLE, writer) => {
            let mut assignment = model;
            assignment.resize(cnf.num_vars as usize, false);
            Ok((Found::Model(assignment), writer.map(LratWriter::into_sink)))
        }
        (Status::UNSATISFIABLE, None) => Ok((Found::Refuted(ProofStats::default()), None)),
        (Status::UNSATISFIABLE, Some(writer)) => {
            let (stats, sink) = writer.finish("CaDiCaL")?;
            Ok((Found::Refuted(stats), Some(sink)))
        }
        (Status::UNKNOWN, _) => Err(failed("CaDiCaL stopped without an answer".into())),
    }
}

/// What the tracer shares with [`solve`].
struct Tracing<W: Write> {
    writer: LratWriter<W>,
    /// 1-based index of the input clause being added, 0 outside of loading.
    loading: u64,
}

/// The proof tracer: hands CaDiCaL's steps to the writer. It must not panic (see the module
/// docs).
struct Tracer<W: Write> {
    tracing: Rc<RefCell<Tracing<W>>>,
    /// Raised when the writer has failed, so that the terminator stops CaDiCaL.
    stop: Rc<Cell<bool>>,
}

impl<W: Write> Tracer<W> {
    /// Runs `step` on the writer unless it has finished, then raises the stop flag if it failed.
    fn with_writer(&mut self, step: impl FnOnce(&mut Tracing<W>)) {
        let Ok(mut tracing) = self.tracing.try_borrow_mut() else {
            self.stop.set(true);
            return;
        };
        if tracing.writer.finished() {
            return;
        }
        step(&mut tracing);
        if tracing.writer.failed() {
            self.stop.set(true);
        }
    }
}

/// CaDiCaL's clause id as the writer's (ids are positive).
fn solver_id(id: i64) -> Result<u64, String> {
    u64::try_from(id).map_err(|_| format!("CaDiCaL gave the clause id {id}"))
}

impl<W: Write> ProofTracer for Tracer<W> {
    fn add_original_clause(&mut self, id: i64, _redundant: bool, _clause: &[i32], restored: bool) {
        self.with_writer(|tracing| match (solver_id(id), tracing.loading) {
            (Ok(id), input) if input > 0 && !restored => tracing.writer.input(id, input),
            (Err(message), _) => tracing.writer.fail(message),
            _ => tracing
                .writer
                .fail(format!("CaDiCaL added original clause {id} outside of loading")),
        });
    }

    fn add_derived_clause(
        &mut self,
        id: i64,
        _redundant: bool,
        witness: i32,
        clause: &[i32],
        antecedents: &[i64],
    ) {
        self.with_writer(|tracing| match solver_id(id) {
            Ok(id) => {
                let hints = antecedents.iter().map(|&h| Hint { id: h.unsigned_abs(), rat: h < 0 });
                tracing.writer.add(id, witness, clause, hints);
            }
            Err(message) => tracing.writer.fail(message),
        });
    }

    fn delete_clause(&mut self, id: i64, _redundant: bool, _clause: &[i32]) {
        self.with_writer(|tracing| match solver_id(id) {
            Ok(id) => tracing.writer.delete(id),
            Err(message) => tracing.writer.fail(message),
        });
    }

    // The clause will be deleted (`delete_clause` follows) or kept; LRAT needs neither note.
    fn weaken_minus(&mut self, _id: i64, _clause: &[i32]) {}
    fn strengthen(&mut self, _id: i64) {}
    // Only called with `finalize_clauses`, which is off.
    fn finalize_clause(&mut self, _id: i64, _clause: &[i32]) {}
    // Incremental solving only (assumptions, constraints, `conclude`): not used here.
    fn add_assumption(&mut self, _lit: i32) {}
    fn add_constraint(&mut self, _clause: &[i32]) {}
    fn reset_assumptions(&mut self) {}
    fn add_assumption_clause(&mut self, _id: i64, _clause: &[i32], _antecedents: &[i64]) {}
    fn conclude_sat(&mut self, _conclusion_type: i32, _model: &[i32]) {}
    fn conclude_unsat(&mut self, _conclusion_type: i32, _clause_ids: &[i64]) {}
    fn conclude_unknown(&mut self, _trail: &[i32]) {}
}

/// Counts CaDiCaL's conflicts (each learned clause is announced to a connected learner) into
/// [`super::conflicts_so_far`], for the progress line; it asks for no literals.
struct ConflictCounter;

impl Learner for ConflictCounter {
    fn learning(&mut self, _size: i32) -> bool {
        super::count_conflict();
        false
    }
    fn learn(&mut self, _lit: i32) {}
}

/// CaDiCaL with a proof tracer that keeps nothing (antecedent chains computed by CaDiCaL, no
/// translation), with `factor` as [`solve`] sets it: `gamecert bench sat` separates CaDiCaL's
/// own cost of proof tracing from [`LratWriter`]'s. Returns whether the formula is
/// unsatisfiable.
pub(super) fn unsat_with_idle_tracer(cnf: &Cnf) -> Result<bool, SatError> {
    let max_var = cnf.clauses.iter().flatten().map(|lit| lit.unsigned_abs()).max().unwrap_or(0);
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut solver = CaDiCal::new();
        solver.set("factor", i32::from(FACTOR));
        solver.connect_proof_tracer1(IdleTracer, true, false);
        solver.declare_more_variables(max_var as i32);
        for clause in &cnf.clauses {
            for &lit in clause {
                solver.add(lit);
            }
            solver.add(0);
        }
        solver.solve()
    }));
    match run {
        Ok(status) => Ok(status == Status::UNSATISFIABLE),
        Err(payload) => Err(SatError::SolverPanicked {
            backend: Backend::Cadical,
            message: panic_message(payload.as_ref()),
        }),
    }
}

/// A proof tracer that ignores every step ([`unsat_with_idle_tracer`]).
struct IdleTracer;

impl ProofTracer for IdleTracer {
    fn add_original_clause(&mut self, _: i64, _: bool, _: &[i32], _: bool) {}
    fn add_derived_clause(&mut self, _: i64, _: bool, _: i32, _: &[i32], _: &[i64]) {}
    fn delete_clause(&mut self, _: i64, _: bool, _: &[i32]) {}
    fn weaken_minus(&mut self, _: i64, _: &[i32]) {}
    fn strengthen(&mut self, _: i64) {}
    fn finalize_clause(&mut self, _: i64, _: &[i32]) {}
    fn add_assumption(&mut self, _: i32) {}
    fn add_constraint(&mut self, _: &[i32]) {}
    fn reset_assumptions(&mut self) {}
    fn add_assumption_clause(&mut self, _: i64, _: &[i32], _: &[i64]) {}
    fn conclude_sat(&mut self, _: i32, _: &[i32]) {}
    fn conclude_unsat(&mut self, _: i32, _: &[i64]) {}
    fn conclude_unknown(&mut self, _: &[i32]) {}
}

/// Stops CaDiCaL once the writer has failed (there is no proof to finish).
struct StopFlag(Rc<Cell<bool>>);

impl Terminator for StopFlag {
    fn terminated(&mut self) -> bool {
        self.0.get()
    }
}

//! Solving CNF formulas with varisat, and refuting the unsatisfiable ones with LRAT proofs that
//! the trusted checker ([`gamecert_certificates::base::lrat::check_lrat`]) accepts.
//!
//! # Clause ids
//!
//! The checker numbers input clause `k` (0-based) as LRAT id `k + 1` and wants added ids above
//! every input id. Varisat's own checker, which turns the solver's native proof into LRAT steps
//! (and which `varisat-lrat` prints, adding 1), numbers clauses from 0 on its own: one id per
//! input clause in load order (a duplicate or a tautology gets an id of its own too, though the
//! id is never used), then one per derived clause. Two quirks break the plain `k + 1` rule: once
//! the formula is trivially unsatisfiable (an empty clause, or a unit clause opposite an earlier
//! one) it stops numbering the remaining input clauses and derives the empty clause under the
//! next free id, which an input clause of ours may already have; and an empty input clause never
//! leads to an added empty clause at all, so the proof would have no empty clause.
//!
//! So this module does not rely on those numbers lining up. It
//!
//! * refutes, by itself, every formula that unit propagation alone refutes (this covers the
//!   empty input clause and opposite units): one LRAT line;
//! * otherwise runs varisat with a [`ProofProcessor`] of its own ([`LratWriter`]) that learns,
//!   while each input clause is being loaded, which varisat id stands for which input clause,
//!   and gives every derived clause a fresh id above the inputs; hints and deletions are
//!   translated through that table, and literals through varisat's proof-to-user variable map.

use std::cell::Cell;
use std::fmt::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;

use gamecert_certificates::base::cnf::Cnf;
use varisat::{ExtendFormula, Lit, Solver, Var};
use varisat_checker::{CheckedProofStep, CheckerData, ProofProcessor};

use crate::base::rng::Rng;

/// The answer of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatOutcome {
    /// A model: index 0 is variable 1; it has `num_vars` entries and satisfies every clause.
    Satisfiable(Vec<bool>),
    /// No model. `lrat` is a text LRAT refutation (empty when no proof was asked for).
    Unsatisfiable {
        /// The proof; the input clauses are ids `1..=m` in the order of `cnf.clauses`.
        lrat: String,
    },
}

/// Why [`solve`] gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum SatError {
    /// A literal is 0 or names a variable beyond `num_vars`.
    #[error("clause {clause} (0-based) has literal {literal}, outside variables 1..={num_vars}")]
    BadLiteral {
        /// Index of the clause in `cnf.clauses`.
        clause: usize,
        /// The offending literal.
        literal: i32,
        /// The formula's variable count.
        num_vars: u32,
    },
    /// More variables than varisat supports.
    #[error("{num_vars} variables exceed varisat's limit of {max}")]
    TooManyVariables {
        /// The formula's variable count.
        num_vars: u32,
        /// Varisat's limit.
        max: usize,
    },
    /// Varisat returned an error.
    #[error("varisat failed: {0}")]
    Solver(String),
    /// Varisat panicked (for instance its on-the-fly proof self-check failed).
    #[error("varisat panicked: {0}")]
    SolverPanicked(String),
    /// The solver's model does not satisfy the formula (a solver or translation bug).
    #[error("the solver's model falsifies clause {clause} (0-based)")]
    BadModel {
        /// Index of the falsified clause.
        clause: usize,
    },
    /// The LRAT translation could not be completed (a bug, reported instead of a bad proof).
    #[error("LRAT translation failed: {0}")]
    Proof(String),
    /// The proof grew past [`max_proof_bytes`]: the checker would refuse it, so solving stops
    /// instead of growing the proof without bound.
    #[error("the LRAT proof grew past {limit} bytes, the checker's limit on proofs")]
    ProofTooLarge {
        /// The limit in bytes.
        limit: usize,
    },
}

/// The longest LRAT proof [`solve`] writes, 2 GiB: it bounds the memory the proof takes while
/// the solver runs (the checker charges a proof's lines and hints to its work budget, which
/// grows with the file's size, so a proof this long needs a raised `--max-work` to check).
pub fn max_proof_bytes() -> usize {
    2 * 1024 * 1024 * 1024
}

/// Solves `cnf`. With `proof`, an unsatisfiable formula comes with an LRAT refutation; without,
/// no proof is recorded (faster) and `lrat` is empty. A model is checked against `cnf` before
/// it is returned.
pub fn solve(cnf: &Cnf, proof: bool) -> Result<SatOutcome, SatError> {
    validate(cnf)?;
    if proof {
        if let Some(lrat) = unit_refutation(cnf) {
            return Ok(SatOutcome::Unsatisfiable { lrat });
        }
    }
    solve_with_varisat(cnf, proof, max_proof_bytes())
}

/// The pigeonhole formula with `holes + 1` pigeons and `holes` holes (unsatisfiable). Variable
/// `p * holes + h + 1` says pigeon `p` sits in hole `h`.
pub fn pigeonhole(holes: u32) -> Cnf {
    let pigeons = holes + 1;
    let var = |p: u32, h: u32| (p * holes + h + 1) as i32;
    let mut cnf = Cnf::new(pigeons * holes);
    for p in 0..pigeons {
        cnf.add_clause((0..holes).map(|h| var(p, h)).collect());
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                cnf.add_clause(vec![-var(p, h), -var(q, h)]);
            }
        }
    }
    cnf
}

/// A uniform random k-CNF: each clause has `k` distinct variables (at most `num_vars`) with
/// random signs.
pub fn random_k_cnf(num_vars: u32, num_clauses: usize, k: usize, rng: &mut Rng) -> Cnf {
    let width = k.min(num_vars as usize);
    let mut cnf = Cnf::new(num_vars);
    for _ in 0..num_clauses {
        let mut clause: Vec<i32> = Vec::with_capacity(width);
        while clause.len() < width {
            let v = rng.range(1, u64::from(num_vars)) as i32;
            if clause.iter().all(|lit| lit.abs() != v) {
                clause.push(if rng.coin() { v } else { -v });
            }
        }
        cnf.add_clause(clause);
    }
    cnf
}

fn validate(cnf: &Cnf) -> Result<(), SatError> {
    if let Some((clause, literal)) = cnf.first_bad_literal() {
        return Err(SatError::BadLiteral { clause, literal, num_vars: cnf.num_vars });
    }
    if cnf.num_vars as usize > Var::max_count() {
        return Err(SatError::TooManyVariables { num_vars: cnf.num_vars, max: Var::max_count() });
    }
    Ok(())
}

/// If unit propagation on the input clauses alone reaches a conflict, a one-line LRAT proof:
/// the empty clause with the propagating clauses (in order, only those needed) and the
/// falsified clause as hints.
fn unit_refutation(cnf: &Cnf) -> Option<String> {
    // Only the variables that occur matter (num_vars may be far larger).
    let n = cnf.clauses.iter().flatten().map(|lit| lit.unsigned_abs() as usize).max().unwrap_or(0);
    // value[v]: 0 unassigned, 1 true, -1 false; reason[v]: index of the clause that forced v.
    let mut value = vec![0i8; n + 1];
    let mut reason = vec![usize::MAX; n + 1];
    let mut trail: Vec<usize> = Vec::new();
    // occurs[code]: clauses containing the literal with this code (2v + (lit < 0)).
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); 2 * n + 2];
    let code = |lit: i32| 2 * lit.unsigned_abs() as usize + usize::from(lit < 0);
    for (k, clause) in cnf.clauses.iter().enumerate() {
        for &lit in clause {
            occurs[code(lit)].push(k);
        }
    }
    let lit_value = |value: &[i8], lit: i32| {
        let v = value[lit.unsigned_abs() as usize];
        if lit > 0 {
            v
        } else {
            -v
        }
    };
    // Examine a clause: Err(()) when falsified, Ok(Some(lit)) when unit, Ok(None) otherwise.
    let examine = |value: &[i8], clause: &[i32]| -> Result<Option<i32>, ()> {
        let mut open: Option<i32> = None;
        for &lit in clause {
            match lit_value(value, lit) {
                1 => return Ok(None),
                0 => match open {
                    None => open = Some(lit),
                    Some(prev) if prev == lit => {}
                    Some(_) => return Ok(None),
                },
                _ => {}
            }
        }
        open.map(Some).ok_or(())
    };

    let mut conflict: Option<usize> = None;
    let mut head = 0;
    // First every clause once, then the clauses of each newly falsified literal.
    let mut pending: Vec<usize> = (0..cnf.clauses.len()).rev().collect();
    'propagate: loop {
        while let Some(k) = pending.pop() {
            match examine(&value, &cnf.clauses[k]) {
                Err(()) => {
                    conflict = Some(k);
                    break 'propagate;
                }
                Ok(Some(lit)) => {
                    let v = lit.unsigned_abs() as usize;
                    value[v] = if lit > 0 { 1 } else { -1 };
                    reason[v] = k;
                    trail.push(v);
                }
                Ok(None) => {}
            }
        }
        if head == trail.len() {
            break;
        }
        let v = trail[head];
        head += 1;
        let falsified = if value[v] > 0 { -(v as i32) } else { v as i32 };
        pending.extend(occurs[code(falsified)].iter().rev());
    }
    let conflict = conflict?;

    // Keep only the propagations the conflict depends on, in trail order.
    let mut needed = vec![false; n + 1];
    for &lit in &cnf.clauses[conflict] {
        needed[lit.unsigned_abs() as usize] = true;
    }
    for &v in trail.iter().rev() {
        if needed[v] {
            for &lit in &cnf.clauses[reason[v]] {
                needed[lit.unsigned_abs() as usize] = true;
            }
        }
    }
    let mut line = format!("{} 0", cnf.clauses.len() + 1);
    for &v in &trail {
        if needed[v] {
            let _ = write!(line, " {}", reason[v] + 1);
        }
    }
    let _ = writeln!(line, " {} 0", conflict + 1);
    Some(line)
}

/// Runs varisat on the clauses in order; with `proof`, translates its proof into LRAT of at
/// most `max_bytes` bytes.
fn solve_with_varisat(cnf: &Cnf, proof: bool, max_bytes: usize) -> Result<SatOutcome, SatError> {
    let loading = Rc::new(Cell::new(0u64));
    let mut writer = LratWriter::new(cnf.clauses.len() as u64, Rc::clone(&loading));
    writer.max_bytes = max_bytes;
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut solver = Solver::new();
        if proof {
            solver.add_proof_processor(&mut writer);
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
    let (answer, model, closed) = match run {
        Ok(parts) => parts,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            return Err(SatError::SolverPanicked(what));
        }
    };
    if writer.out.len() > writer.max_bytes {
        return Err(SatError::ProofTooLarge { limit: writer.max_bytes });
    }
    let satisfiable = answer.map_err(|e| SatError::Solver(e.to_string()))?;
    closed.map_err(|e| SatError::Solver(e.to_string()))?;
    if satisfiable {
        let mut assignment = vec![false; cnf.num_vars as usize];
        for lit in model.unwrap_or_default() {
            if let Some(slot) = assignment.get_mut(lit.index()) {
                *slot = lit.is_positive();
            }
        }
        if let Some(clause) = cnf.first_falsified_clause(&assignment) {
            return Err(SatError::BadModel { clause });
        }
        return Ok(SatOutcome::Satisfiable(assignment));
    }
    if !proof {
        return Ok(SatOutcome::Unsatisfiable { lrat: String::new() });
    }
    if let Some(message) = writer.failure.take() {
        return Err(SatError::Proof(message));
    }
    if writer.empty_clause.is_none() {
        return Err(SatError::Proof(
            "varisat reported unsatisfiability without deriving the empty clause".to_string(),
        ));
    }
    Ok(SatOutcome::Unsatisfiable { lrat: writer.out })
}

/// A varisat proof processor writing text LRAT in the checker's clause numbering.
struct LratWriter {
    /// The proof so far.
    out: String,
    /// 1-based index of the input clause being loaded, 0 once loading is over.
    loading: Rc<Cell<u64>>,
    /// Our id for each varisat clause id (0: none, or deleted).
    ids: Vec<u64>,
    /// The next id for a derived clause.
    next_id: u64,
    /// Deletions not yet written.
    pending_deletions: Vec<u64>,
    /// Our id of the empty clause, once derived; later steps are ignored.
    empty_clause: Option<u64>,
    /// The first inconsistency met (also returned to varisat as an error).
    failure: Option<String>,
    /// The proof may not grow past this many bytes ([`max_proof_bytes`]); past it the writer
    /// returns an error, which stops varisat.
    max_bytes: usize,
}

impl LratWriter {
    fn new(inputs: u64, loading: Rc<Cell<u64>>) -> Self {
        LratWriter {
            out: String::new(),
            loading,
            ids: Vec::new(),
            next_id: inputs + 1,
            pending_deletions: Vec::new(),
            empty_clause: None,
            failure: None,
            max_bytes: usize::MAX,
        }
    }

    fn set_id(&mut self, varisat_id: u64, ours: u64) -> Result<(), String> {
        let index = usize::try_from(varisat_id).map_err(|_| "varisat id too large".to_string())?;
        if self.ids.len() <= index {
            self.ids.resize(index + 1, 0);
        }
        if self.ids[index] != 0 {
            return Err(format!("varisat clause id {varisat_id} was assigned twice"));
        }
        self.ids[index] = ours;
        Ok(())
    }

    fn id(&self, varisat_id: u64) -> Result<u64, String> {
        match usize::try_from(varisat_id).ok().and_then(|i| self.ids.get(i)) {
            Some(&ours) if ours != 0 => Ok(ours),
            _ => Err(format!("varisat clause id {varisat_id} is not known")),
        }
    }

    fn delete(&mut self, varisat_id: u64) -> Result<(), String> {
        let ours = self.id(varisat_id)?;
        self.ids[varisat_id as usize] = 0;
        self.pending_deletions.push(ours);
        Ok(())
    }

    fn flush_deletions(&mut self) {
        if self.pending_deletions.is_empty() {
            return;
        }
        // The id in front of a deletion is not used by the checker; write the last added id.
        let _ = write!(self.out, "{} d", (self.next_id - 1).max(1));
        for id in self.pending_deletions.drain(..) {
            let _ = write!(self.out, " {id}");
        }
        self.out.push_str(" 0\n");
    }

    fn step(&mut self, step: &CheckedProofStep, data: CheckerData) -> Result<(), String> {
        if self.empty_clause.is_some() {
            return Ok(());
        }
        match *step {
            CheckedProofStep::AddClause { id, .. }
            | CheckedProofStep::DuplicatedClause { id, .. }
            | CheckedProofStep::TautologicalClause { id, .. } => {
                let input = self.loading.get();
                if input == 0 {
                    return Err(format!("varisat added input clause {id} outside of loading"));
                }
                self.set_id(id, input)?;
            }
            CheckedProofStep::AtClause { id, clause, propagations, .. } => {
                self.flush_deletions();
                let ours = self.next_id;
                self.next_id += 1;
                let _ = write!(self.out, "{ours}");
                for &lit in clause {
                    let user = data.user_from_proof_var(lit.var()).ok_or_else(|| {
                        format!("proof variable {} has no user variable", lit.var())
                    })?;
                    let dimacs = user.lit(lit.is_positive()).to_dimacs();
                    let _ = write!(self.out, " {dimacs}");
                }
                self.out.push_str(" 0");
                for &hint in propagations {
                    let hint = self.id(hint)?;
                    let _ = write!(self.out, " {hint}");
                }
                self.out.push_str(" 0\n");
                if self.out.len() > self.max_bytes {
                    return Err(format!("the LRAT proof grew past {} bytes", self.max_bytes));
                }
                self.set_id(id, ours)?;
                if clause.is_empty() {
                    self.empty_clause = Some(ours);
                }
            }
            CheckedProofStep::DeleteClause { id, .. } => self.delete(id)?,
            CheckedProofStep::DeleteAtClause { id, keep_as_redundant, .. }
            | CheckedProofStep::DeleteRatClause { id, keep_as_redundant, .. } => {
                if !keep_as_redundant {
                    self.delete(id)?;
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

impl ProofProcessor for LratWriter {
    fn process_step(
        &mut self,
        step: &CheckedProofStep,
        data: CheckerData,
    ) -> Result<(), anyhow::Error> {
        self.step(step, data).map_err(|message| {
            self.failure.get_or_insert_with(|| message.clone());
            anyhow::anyhow!(message)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::base::lrat::check_lrat;
    use std::collections::BTreeSet;

    fn check(cnf: &Cnf, lrat: &str) -> Result<(), String> {
        check_lrat(cnf, lrat, &mut Budget::unlimited()).map(|_| ()).map_err(|e| e.to_string())
    }

    fn brute_force_sat(cnf: &Cnf) -> bool {
        let n = cnf.num_vars as usize;
        (0u64..1 << n).any(|bits| {
            let assignment: Vec<bool> = (0..n).map(|i| bits >> i & 1 == 1).collect();
            cnf.is_satisfied_by(&assignment)
        })
    }

    /// A small random formula with the awkward shapes: repeated literals, tautologies, units,
    /// repeated clauses, now and then an empty clause.
    fn awkward_cnf(rng: &mut Rng) -> Cnf {
        let n = rng.range(3, 8) as u32;
        let m = rng.range(1, 7 * u64::from(n)) as usize;
        let mut cnf = Cnf::new(n);
        for _ in 0..m {
            if !cnf.clauses.is_empty() && rng.below(8) == 0 {
                let k = rng.below(cnf.clauses.len() as u64) as usize;
                let copy = cnf.clauses[k].clone();
                cnf.add_clause(copy);
                continue;
            }
            let width = match rng.below(200) {
                0 => 0,
                1..=5 => 1,
                6..=60 => 2,
                _ => 3,
            };
            let clause = (0..width)
                .map(|_| {
                    let v = rng.range(1, u64::from(n)) as i32;
                    if rng.coin() {
                        v
                    } else {
                        -v
                    }
                })
                .collect();
            cnf.add_clause(clause);
        }
        cnf
    }

    fn assert_answer(cnf: &Cnf, outcome: &SatOutcome, expect_sat: bool) {
        match outcome {
            SatOutcome::Satisfiable(model) => {
                assert!(expect_sat, "model for an unsatisfiable formula {cnf:?}");
                assert_eq!(model.len(), cnf.num_vars as usize);
                assert!(cnf.is_satisfied_by(model));
            }
            SatOutcome::Unsatisfiable { lrat } => {
                assert!(!expect_sat, "refutation of a satisfiable formula {cnf:?}");
                if let Err(e) = check(cnf, lrat) {
                    panic!("{e}\nformula {cnf:?}\nproof:\n{lrat}");
                }
            }
        }
    }

    #[test]
    fn random_small_formulas_agree_with_truth_tables() {
        let mut rng = Rng::new(2024);
        let (mut sat, mut unsat, mut by_varisat) = (0, 0, 0);
        for _ in 0..800 {
            let cnf = awkward_cnf(&mut rng);
            let expect = brute_force_sat(&cnf);
            let with_proof = solve(&cnf, true).unwrap();
            assert_answer(&cnf, &with_proof, expect);
            let without = solve(&cnf, false).unwrap();
            match &without {
                SatOutcome::Satisfiable(model) => {
                    assert!(expect);
                    assert!(cnf.is_satisfied_by(model));
                }
                SatOutcome::Unsatisfiable { lrat } => {
                    assert!(!expect);
                    assert!(lrat.is_empty());
                }
            }
            if expect {
                sat += 1;
            } else {
                unsat += 1;
                if unit_refutation(&cnf).is_none() {
                    by_varisat += 1;
                }
            }
        }
        // The sample must exercise both answers and varisat's own proofs.
        assert!(sat > 100 && unsat > 100 && by_varisat > 40, "{sat} {unsat} {by_varisat}");
    }

    /// Without the unit-propagation shortcut, varisat's proof still translates correctly, or
    /// the translation says plainly that it has no empty clause (only for formulas that unit
    /// propagation refutes, where `solve` never asks varisat).
    #[test]
    fn varisat_translation_without_the_shortcut() {
        let mut rng = Rng::new(99);
        for _ in 0..400 {
            let cnf = awkward_cnf(&mut rng);
            let expect = brute_force_sat(&cnf);
            match solve_with_varisat(&cnf, true, usize::MAX) {
                Ok(outcome) => assert_answer(&cnf, &outcome, expect),
                Err(SatError::Proof(message)) => {
                    assert!(message.contains("without deriving the empty clause"));
                    assert!(unit_refutation(&cnf).is_some(), "{cnf:?}");
                }
                Err(e) => panic!("{e} on {cnf:?}"),
            }
        }
    }

    #[test]
    fn translation_handles_varisat_numbering_quirks() {
        // Opposite units, then more clauses that varisat leaves unnumbered: its empty clause
        // takes the id of the third input clause; ours must come after all four.
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![1], vec![-1], vec![2, 3], vec![2, 3]] };
        let outcome = solve_with_varisat(&cnf, true, usize::MAX).unwrap();
        assert_eq!(outcome, SatOutcome::Unsatisfiable { lrat: "5 0 1 2 0\n".to_string() });
        assert_answer(&cnf, &outcome, false);
        // A unit falsifies a later binary clause at load time: varisat still searches.
        let cnf = Cnf { num_vars: 2, clauses: vec![vec![1], vec![2], vec![-1, -2]] };
        assert_answer(&cnf, &solve_with_varisat(&cnf, true, usize::MAX).unwrap(), false);
        // Duplicates, repeated literals and tautologies ahead of a formula that needs search.
        let cnf = Cnf {
            num_vars: 4,
            clauses: vec![
                vec![3, -3, 4],
                vec![1, 2],
                vec![2, 1, 1],
                vec![-1, 2],
                vec![-1, 2],
                vec![1, -2, -2],
                vec![4, -4],
                vec![-1, -2],
            ],
        };
        assert!(unit_refutation(&cnf).is_none());
        assert_answer(&cnf, &solve(&cnf, true).unwrap(), false);
        // The empty input clause: varisat derives nothing, which is reported, not hidden.
        let cnf = Cnf { num_vars: 1, clauses: vec![vec![1], vec![]] };
        assert!(matches!(solve_with_varisat(&cnf, true, usize::MAX), Err(SatError::Proof(_))));
        assert_answer(&cnf, &solve(&cnf, true).unwrap(), false);
    }

    #[test]
    fn corner_cases() {
        let cases: Vec<(Cnf, bool)> = vec![
            (Cnf::new(0), true),
            (Cnf::new(5), true),
            (Cnf { num_vars: 3, clauses: vec![vec![]] }, false),
            (Cnf { num_vars: 3, clauses: vec![vec![1, 2], vec![], vec![3]] }, false),
            (Cnf { num_vars: 4, clauses: vec![vec![2], vec![-2]] }, false),
            (Cnf { num_vars: 4, clauses: vec![vec![1, -1], vec![4, 4, 4], vec![4]] }, true),
            (
                Cnf { num_vars: 3, clauses: vec![vec![1], vec![2], vec![-1, -2, 3], vec![-3, -3]] },
                false,
            ),
            (
                Cnf {
                    num_vars: 9,
                    clauses: vec![vec![7, 8], vec![7, 8], vec![-7, 8], vec![7, -8], vec![-7, -8]],
                },
                false,
            ),
        ];
        for (cnf, expect) in cases {
            let outcome = solve(&cnf, true).unwrap();
            assert_answer(&cnf, &outcome, expect);
        }
        let bad = Cnf { num_vars: 2, clauses: vec![vec![1], vec![3]] };
        assert!(matches!(
            solve(&bad, true),
            Err(SatError::BadLiteral { clause: 1, literal: 3, .. })
        ));
    }

    /// A proof that outgrows its byte limit stops the solver with `ProofTooLarge`.
    #[test]
    fn proof_size_is_capped() {
        let cnf = pigeonhole(5);
        let full = match solve_with_varisat(&cnf, true, usize::MAX).unwrap() {
            SatOutcome::Unsatisfiable { lrat } => lrat.len(),
            other => panic!("{other:?}"),
        };
        assert!(full > 1000);
        assert!(matches!(
            solve_with_varisat(&cnf, true, full / 2),
            Err(SatError::ProofTooLarge { limit }) if limit == full / 2
        ));
    }

    #[test]
    fn pigeonhole_refutations_check() {
        assert_eq!(pigeonhole(3).clauses.len(), 4 + 3 * 6);
        for holes in 0..=5 {
            let cnf = pigeonhole(holes);
            let outcome = solve(&cnf, true).unwrap();
            assert_answer(&cnf, &outcome, false);
        }
    }

    #[test]
    fn random_k_cnf_shape() {
        let mut rng = Rng::new(5);
        let cnf = random_k_cnf(10, 50, 3, &mut rng);
        assert_eq!(cnf.clauses.len(), 50);
        for clause in &cnf.clauses {
            let vars: BTreeSet<u32> = clause.iter().map(|l| l.unsigned_abs()).collect();
            assert_eq!(vars.len(), 3);
            assert!(vars.iter().all(|&v| (1..=10).contains(&v)));
        }
        let capped = random_k_cnf(2, 3, 5, &mut rng);
        assert!(capped.clauses.iter().all(|c| c.len() == 2));
    }
}

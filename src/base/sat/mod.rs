//! Solving CNF formulas, and refuting the unsatisfiable ones with LRAT proofs that the trusted
//! checker ([`gamecert_certificates::sat::lrat::check_lrat`]) accepts.
//!
//! Two backends ([`Backend`]): CaDiCaL ([`cadical`], the default: about ten times faster on
//! hard formulas), compiled from source with the `cadical-sys` crate, and varisat ([`varisat`],
//! pure Rust). Both give models, checked against the formula before they are returned, and
//! refutations in the same LRAT numbering.
//!
//! # Clause ids
//!
//! The checker numbers input clause `k` (0-based) as LRAT id `k + 1` and wants added ids above
//! every input id. Neither solver numbers clauses that way (varisat counts from 0 and has
//! quirks, CaDiCaL keeps ids of its own), so neither is trusted to: [`lrat_writer`] learns,
//! while each input clause is being loaded, which solver id stands for it, gives every derived
//! clause a fresh id above the inputs, and translates hints and deletions through that table.
//!
//! Before either solver runs, [`solve`] refutes by itself every formula that unit propagation
//! alone refutes (this covers the empty input clause and opposite units, where the solvers
//! derive no empty clause or number it oddly): one LRAT line.
//!
//! # Streamed proofs
//!
//! [`solve_streamed`] writes the refutation as binary LRAT
//! ([`gamecert_certificates::sat::lrat_binary`]) into a sink as the solver produces it: the
//! proof is never held, and the writer's id table holds the live clauses only. `gamecert
//! solve` gives it a file the checker reads on the other core as it grows
//! (`crate::base::growing_file`). [`solve`] keeps the text of a small proof in memory (tests,
//! the demo's cases), made from the same binary stream.
//!
//! A proof is capped at [`max_proof_bytes`]; past it solving stops with
//! [`SatError::ProofTooLarge`].

pub mod backend;
mod cadical;
pub mod lrat_writer;
mod varisat;

use std::any::Any;

pub use backend::{Backend, SatError};
pub use lrat_writer::ProofStats;

use gamecert_certificates::sat::cnf::Cnf;

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

/// The most variables `backend` takes.
fn max_vars(backend: Backend) -> usize {
    match backend {
        Backend::Cadical => cadical::max_vars(),
        Backend::Varisat => varisat::max_vars(),
    }
}

/// The longest binary LRAT proof the solvers write, 8 GiB (about 24 GiB of text): the proof
/// goes to disk as it is made, so this bounds the disk it takes, not memory. The default work
/// budget of `gamecert verify` grows with the file (docs/checker-limits.md), so a proof of any
/// size up to it is checked without `--max-work`.
pub fn max_proof_bytes() -> u64 {
    8 << 30
}

/// Solves `cnf` with `backend`. With `proof`, an unsatisfiable formula comes with an LRAT
/// refutation as text, held in memory (for small formulas: `gamecert solve` streams the proof
/// with [`solve_streamed`]); without, no proof is recorded (faster) and `lrat` is empty. A
/// model is checked against `cnf` before it is returned.
pub fn solve(cnf: &Cnf, proof: bool, backend: Backend) -> Result<SatOutcome, SatError> {
    solve_in(cnf, proof, backend, Mode::Default)
}

/// What [`solve_streamed`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Streamed {
    /// A model (as [`SatOutcome::Satisfiable`]); the sink holds a partial proof to be dropped.
    Satisfiable(Vec<bool>),
    /// No model: the sink holds the whole binary refutation, flushed.
    Refuted(ProofStats),
}

/// [`solve_in`] with the refutation written to `sink` as binary LRAT while the solver runs
/// (see the module docs), the sink given back. `ProofStats::conflicts` counts CaDiCaL's.
pub fn solve_streamed<W: std::io::Write + 'static>(
    cnf: &Cnf,
    backend: Backend,
    mode: Mode,
    mut sink: W,
) -> Result<(Streamed, W), SatError> {
    validate(cnf, backend)?;
    if let Some(hints) = unit_refutation(cnf) {
        let m = cnf.clauses.len() as u64;
        let mut step = vec![gamecert_certificates::sat::lrat_binary::ADDITION, 1, 0];
        for &h in &hints {
            lrat_writer::push_varint(&mut step, 2 * (m + 1 - h));
        }
        step.push(0);
        let written = sink.write_all(&step).and_then(|()| sink.flush());
        written.map_err(|e| SatError::Proof(format!("the proof cannot be written: {e}")))?;
        let hints = hints.len() as u64;
        let stats =
            ProofStats { bytes: step.len() as u64, additions: 1, hints, ..ProofStats::default() };
        return Ok((Streamed::Refuted(stats), sink));
    }
    let conflicts = conflicts_so_far();
    let (found, sink) = match backend {
        Backend::Cadical => {
            cadical::solve(cnf, Some(sink), max_proof_bytes(), cadical::FACTOR, mode)?
        }
        Backend::Varisat => varisat::solve(cnf, Some(sink), max_proof_bytes())?,
    };
    let sink = sink.ok_or_else(|| SatError::Proof("the proof's sink was lost".into()))?;
    match found {
        Found::Model(model) => {
            if let Some(clause) = cnf.first_falsified_clause(&model) {
                return Err(SatError::BadModel { clause });
            }
            Ok((Streamed::Satisfiable(model), sink))
        }
        Found::Refuted(mut stats) => {
            stats.conflicts = conflicts_so_far() - conflicts;
            Ok((Streamed::Refuted(stats), sink))
        }
    }
}

/// What a backend found: a model, or a refutation (its proof's counts; all 0 without one).
enum Found {
    Model(Vec<bool>),
    Refuted(ProofStats),
}

/// How CaDiCaL searches (varisat has one way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// CaDiCaL's defaults: it alternates focused and stable search, and tries local search.
    #[default]
    Default,
    /// CaDiCaL's `unsat` configuration: focused search only (`stabilize=0`) and no local
    /// search (`walk=0`). On the checker's direct encodings (counting trees over a graph's
    /// regions) it needs about 30% less CPU, on the refuted and the satisfiable ones alike:
    /// the `chain` family of size 28 (337 vertices, 135,092 clauses), 5.3-5.6 s against
    /// 7.4-7.9 s for `solve --method direct` whole, its satisfiable variant (the formula
    /// without its last clause) 5.2 s against 6.6 s (2026-11-27, the 2-core machine, loaded).
    /// On random 3-CNF it is slower (CaDiCaL 1.5.3's binary: 0.65 s against 0.55 s at 225
    /// variables), so the reduction method keeps the defaults.
    Focused,
}

/// [`solve`] with CaDiCaL searching in `mode`.
pub fn solve_in(
    cnf: &Cnf,
    proof: bool,
    backend: Backend,
    mode: Mode,
) -> Result<SatOutcome, SatError> {
    if proof {
        return match solve_streamed(cnf, backend, mode, Vec::new())? {
            (Streamed::Satisfiable(model), _) => Ok(SatOutcome::Satisfiable(model)),
            (Streamed::Refuted(_), bytes) => {
                Ok(SatOutcome::Unsatisfiable { lrat: text(cnf, &bytes)? })
            }
        };
    }
    validate(cnf, backend)?;
    let found = match backend {
        Backend::Cadical => cadical::solve::<Vec<u8>>(cnf, None, 0, cadical::FACTOR, mode)?.0,
        Backend::Varisat => varisat::solve::<Vec<u8>>(cnf, None, 0)?.0,
    };
    match found {
        Found::Model(model) => match cnf.first_falsified_clause(&model) {
            Some(clause) => Err(SatError::BadModel { clause }),
            None => Ok(SatOutcome::Satisfiable(model)),
        },
        Found::Refuted(_) => Ok(SatOutcome::Unsatisfiable { lrat: String::new() }),
    }
}

/// The text LRAT of a binary proof of `cnf` held in memory.
fn text(cnf: &Cnf, bytes: &[u8]) -> Result<String, SatError> {
    let mut out = Vec::new();
    lrat_writer::to_text(bytes, cnf.clauses.len() as u64, 0, &mut out).map_err(SatError::Proof)?;
    String::from_utf8(out).map_err(|_| SatError::Proof("the proof is not ASCII".into()))
}

/// CaDiCaL's conflicts in this process so far, counted as they happen (a learner callback),
/// for a progress line: a SAT solve has no search nodes, and its conflicts are the work it
/// does (nothing depends on the count).
static CONFLICTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn count_conflict() {
    CONFLICTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The CaDiCaL conflicts counted so far in this process (all solves together).
pub fn conflicts_so_far() -> u64 {
    CONFLICTS.load(std::sync::atomic::Ordering::Relaxed)
}

/// What the next SAT solve is and what it may cost, published by its caller for a progress
/// display ([`take_plan`]); only the latest is kept.
static PLAN: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Publishes what the SAT solve about to start is (its formula's size, an estimate of its time)
/// for a progress display to print; replaces a plan not yet taken.
pub fn announce(plan: String) {
    *PLAN.lock().unwrap_or_else(|e| e.into_inner()) = Some(plan);
}

/// The plan published by [`announce`] since the last call, if any.
pub fn take_plan() -> Option<String> {
    PLAN.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// For `gamecert bench sat`: CaDiCaL on `cnf` with a proof tracer connected that keeps nothing
/// (CaDiCaL builds its antecedent chains; no LRAT is written). `Ok(true)` when unsatisfiable.
pub fn cadical_with_idle_tracer(cnf: &Cnf) -> Result<bool, SatError> {
    validate(cnf, Backend::Cadical)?;
    cadical::unsat_with_idle_tracer(cnf)
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

fn validate(cnf: &Cnf, backend: Backend) -> Result<(), SatError> {
    if let Some((clause, literal)) = cnf.first_bad_literal() {
        return Err(SatError::BadLiteral { clause, literal, num_vars: cnf.num_vars });
    }
    if cnf.num_vars as usize > max_vars(backend) {
        return Err(SatError::TooManyVariables {
            num_vars: cnf.num_vars,
            max: max_vars(backend),
            backend,
        });
    }
    Ok(())
}

/// The message of a caught panic.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// If unit propagation on the input clauses alone reaches a conflict, the hints of a one-step
/// LRAT proof: the empty clause with the propagating clauses (in order, only those needed) and
/// the falsified clause as hints (1-based ids).
fn unit_refutation(cnf: &Cnf) -> Option<Vec<u64>> {
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
    let mut hints: Vec<u64> =
        trail.iter().filter(|&&v| needed[v]).map(|&v| reason[v] as u64 + 1).collect();
    hints.push(conflict as u64 + 1);
    Some(hints)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::sat::lrat::check_lrat;
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

    /// A backend without the unit-propagation shortcut of [`solve`], its proof capped at
    /// `max_bytes`, with `factor` as given (CaDiCaL).
    fn solve_factored(
        cnf: &Cnf,
        proof: bool,
        backend: Backend,
        max_bytes: u64,
        factor: bool,
    ) -> Result<SatOutcome, SatError> {
        let sink = proof.then(Vec::new);
        let (found, sink) = match backend {
            Backend::Cadical => cadical::solve(cnf, sink, max_bytes, factor, Mode::Default)?,
            Backend::Varisat => varisat::solve(cnf, sink, max_bytes)?,
        };
        Ok(match found {
            Found::Model(model) => SatOutcome::Satisfiable(model),
            Found::Refuted(_) => {
                let lrat = sink.map(|bytes| text(cnf, &bytes)).transpose()?;
                SatOutcome::Unsatisfiable { lrat: lrat.unwrap_or_default() }
            }
        })
    }

    fn solve_directly(
        cnf: &Cnf,
        proof: bool,
        backend: Backend,
        max_bytes: u64,
    ) -> Result<SatOutcome, SatError> {
        solve_factored(cnf, proof, backend, max_bytes, cadical::FACTOR)
    }

    #[test]
    fn backend_names_round_trip() {
        assert_eq!(Backend::default(), Backend::ALL[0]);
        for backend in Backend::ALL {
            assert_eq!(backend.name().parse::<Backend>(), Ok(backend));
            assert_eq!(backend.to_string(), backend.name());
        }
        let unknown = "minisat".parse::<Backend>().unwrap_err();
        assert!(unknown.contains("cadical, varisat"), "{unknown}");
    }

    #[test]
    fn random_small_formulas_agree_with_truth_tables() {
        for backend in Backend::ALL {
            let mut rng = Rng::new(2024);
            let (mut sat, mut unsat, mut by_solver) = (0, 0, 0);
            for _ in 0..800 {
                let cnf = awkward_cnf(&mut rng);
                let expect = brute_force_sat(&cnf);
                let with_proof = solve(&cnf, true, backend).unwrap();
                assert_answer(&cnf, &with_proof, expect);
                let without = solve(&cnf, false, backend).unwrap();
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
                        by_solver += 1;
                    }
                }
            }
            // The sample must exercise both answers and the solver's own proofs.
            assert!(
                sat > 100 && unsat > 100 && by_solver > 40,
                "{backend}: {sat} {unsat} {by_solver}"
            );
        }
    }

    /// CaDiCaL in focused mode ([`Mode::Focused`], the direct method's) answers as truly, its
    /// proofs checked.
    #[test]
    fn focused_mode_agrees_with_truth_tables() {
        let mut rng = Rng::new(77);
        for _ in 0..300 {
            let cnf = awkward_cnf(&mut rng);
            let outcome = solve_in(&cnf, true, Backend::Cadical, Mode::Focused).unwrap();
            assert_answer(&cnf, &outcome, brute_force_sat(&cnf));
        }
        let cnf = pigeonhole(6);
        let outcome = solve_in(&cnf, true, Backend::Cadical, Mode::Focused).unwrap();
        assert_answer(&cnf, &outcome, false);
    }

    /// Without the unit-propagation shortcut, a backend's proof still translates correctly, or
    /// the translation says plainly that it has no empty clause (only for formulas that unit
    /// propagation refutes, where `solve` never runs the backend).
    #[test]
    fn translation_without_the_shortcut() {
        for backend in Backend::ALL {
            let mut rng = Rng::new(99);
            for _ in 0..400 {
                let cnf = awkward_cnf(&mut rng);
                let expect = brute_force_sat(&cnf);
                match solve_directly(&cnf, true, backend, u64::MAX) {
                    Ok(outcome) => assert_answer(&cnf, &outcome, expect),
                    Err(SatError::Proof(message)) => {
                        assert!(message.contains("without deriving the empty clause"));
                        assert!(unit_refutation(&cnf).is_some(), "{backend}: {cnf:?}");
                    }
                    Err(e) => panic!("{backend}: {e} on {cnf:?}"),
                }
            }
        }
    }

    #[test]
    fn translation_handles_varisat_numbering_quirks() {
        // Opposite units, then more clauses that varisat leaves unnumbered: its empty clause
        // takes the id of the third input clause; ours must come after all four.
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![1], vec![-1], vec![2, 3], vec![2, 3]] };
        let outcome = solve_directly(&cnf, true, Backend::Varisat, u64::MAX).unwrap();
        assert_eq!(outcome, SatOutcome::Unsatisfiable { lrat: "5 0 1 2 0\n".to_string() });
        assert_answer(&cnf, &outcome, false);
        // The empty input clause: varisat derives nothing, which is reported, not hidden.
        let cnf = Cnf { num_vars: 1, clauses: vec![vec![1], vec![]] };
        let outcome = solve_directly(&cnf, true, Backend::Varisat, u64::MAX);
        assert!(matches!(outcome, Err(SatError::Proof(_))));
    }

    /// The input shapes a solver simplifies while loading (repeated literals, tautologies,
    /// duplicates, units, root-falsified literals, clauses after an inconsistency, the empty
    /// clause), each backend without the shortcut and `solve` with it.
    #[test]
    fn awkward_inputs_are_mapped_right() {
        let formulas = [
            // A unit falsifies a later binary clause at load time: the solver still searches.
            Cnf { num_vars: 2, clauses: vec![vec![1], vec![2], vec![-1, -2]] },
            // Duplicates, repeated literals and tautologies ahead of a formula that needs
            // search.
            Cnf {
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
            },
            // Units shorten later clauses (CaDiCaL derives the shortened clause while loading).
            Cnf {
                num_vars: 4,
                clauses: vec![
                    vec![3],
                    vec![-3, 1, 2],
                    vec![-3, -1, 2],
                    vec![-2, -3, 4],
                    vec![-4, -2],
                ],
            },
            // Opposite units, then more clauses added to an inconsistent solver.
            Cnf { num_vars: 3, clauses: vec![vec![1], vec![-1], vec![2, 3], vec![2, 3], vec![]] },
        ];
        for cnf in &formulas {
            assert!(!brute_force_sat(cnf));
            for backend in Backend::ALL {
                assert_answer(cnf, &solve(cnf, true, backend).unwrap(), false);
                if unit_refutation(cnf).is_none() {
                    let outcome = solve_directly(cnf, true, backend, u64::MAX).unwrap();
                    assert_answer(cnf, &outcome, false);
                }
            }
        }
        // CaDiCaL refutes opposite units by itself too, in our numbering.
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![1], vec![-1], vec![2, 3], vec![2, 3]] };
        let outcome = solve_directly(&cnf, true, Backend::Cadical, u64::MAX).unwrap();
        assert_answer(&cnf, &outcome, false);
        // The empty input clause: CaDiCaL derives nothing, which is reported, not hidden.
        let cnf = Cnf { num_vars: 1, clauses: vec![vec![1], vec![]] };
        assert!(matches!(
            solve_directly(&cnf, true, Backend::Cadical, u64::MAX),
            Err(SatError::Proof(_))
        ));
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
        for backend in Backend::ALL {
            for (cnf, expect) in &cases {
                let outcome = solve(cnf, true, backend).unwrap();
                assert_answer(cnf, &outcome, *expect);
            }
            let bad = Cnf { num_vars: 2, clauses: vec![vec![1], vec![3]] };
            assert!(matches!(
                solve(&bad, true, backend),
                Err(SatError::BadLiteral { clause: 1, literal: 3, .. })
            ));
        }
    }

    /// A proof that outgrows its byte limit stops the solver with `ProofTooLarge`.
    #[test]
    fn proof_size_is_capped() {
        let cnf = pigeonhole(5);
        for backend in Backend::ALL {
            let full = match solve_directly(&cnf, true, backend, u64::MAX).unwrap() {
                SatOutcome::Unsatisfiable { lrat } => {
                    lrat_writer::from_text(&lrat, cnf.clauses.len() as u64).unwrap().len()
                }
                other => panic!("{other:?}"),
            };
            assert!(full > 1000);
            assert!(matches!(
                solve_directly(&cnf, true, backend, full as u64 / 2),
                Err(SatError::ProofTooLarge { limit }) if limit == full / 2
            ));
        }
    }

    #[test]
    fn pigeonhole_refutations_check() {
        assert_eq!(pigeonhole(3).clauses.len(), 4 + 3 * 6);
        for backend in Backend::ALL {
            for holes in 0..=5 {
                let cnf = pigeonhole(holes);
                let outcome = solve(&cnf, true, backend).unwrap();
                assert_answer(&cnf, &outcome, false);
            }
        }
    }

    /// A random 3-CNF near the threshold, large enough for CaDiCaL's inprocessing (probing,
    /// vivification, elimination, subsumption) to show up in its proof.
    #[test]
    fn cadical_refutes_random_3_cnf_near_the_threshold() {
        let mut rng = Rng::new(11);
        let mut refuted = 0;
        while refuted < 2 {
            let cnf = random_k_cnf(90, 384, 3, &mut rng);
            if let SatOutcome::Unsatisfiable { lrat } = solve(&cnf, true, Backend::Cadical).unwrap()
            {
                check(&cnf, &lrat).unwrap();
                assert!(lrat.contains(" d "), "CaDiCaL's proof deletes clauses");
                refuted += 1;
            }
        }
    }

    /// With `factor` (bounded variable addition) CaDiCaL writes RAT steps: a fresh variable
    /// beyond the formula's as the pivot, first, and negative hints. Pigeonhole formulas are
    /// where it factors.
    #[test]
    fn cadical_with_factor_is_checked() {
        let cnf = pigeonhole(8);
        let SatOutcome::Unsatisfiable { lrat } =
            solve_factored(&cnf, true, Backend::Cadical, u64::MAX, true).unwrap()
        else {
            panic!("pigeonhole is unsatisfiable");
        };
        let rat_steps = lrat
            .lines()
            .filter(|line| line.split_ascii_whitespace().any(|word| word.starts_with('-')))
            .filter(|line| {
                let first = line.split_ascii_whitespace().nth(1).unwrap_or("0");
                first.parse::<i64>().is_ok_and(|lit| lit.unsigned_abs() > u64::from(cnf.num_vars))
            })
            .count();
        assert!(rat_steps > 0, "no RAT step with a fresh pivot");
        check(&cnf, &lrat).unwrap();
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

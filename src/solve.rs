//! Solving `voronoi-one-round` instances and certifying the answer.
//!
//! Two methods, both ending in a certificate that [`gamecert_certificates::check`] accepts
//! before anything is returned (a rejection here is a bug, reported as an error, never a
//! silent wrong answer):
//!
//! - **direct**, for any instance: the checker's own encoding of "B places exactly n vertices
//!   and wins" ([`gamecert_certificates::encode::black_wins_cnf`]) is solved with varisat. A
//!   model is read back as B's placement (a witness); unsatisfiability yields an LRAT proof of
//!   that very formula (a direct refutation). Nothing is trusted but the rules.
//! - **reduction**, for instances built by `reduce sat-voronoi1|2`: the recorded normalised
//!   formula is solved. A model becomes B's placement by the forward map; unsatisfiability
//!   yields an LRAT proof of the formula, and the checker appeals to Theorem 3 / Corollary 1
//!   after rebuilding the instance from the formula.

use crate::sat::{self, SatError, SatOutcome};
use gamecert_certificates::budget::Budget;
use gamecert_certificates::encode::black_wins_cnf;
use gamecert_certificates::format::{
    Certificate, FormatError, Instance, OneRound, OneRoundSpec, Refutation, RefutationMethod,
    Witness, CLAIM_BLACK_CANNOT_WIN, CLAIM_BLACK_WINS,
};
use gamecert_certificates::{check_one_round, Limits, Verdict};
use gamecert_reductions::sat_voronoi::forward;
use std::time::Instant;

/// Which refutation method to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// `reduction` when the instance records its source formula, `direct` otherwise.
    Auto,
    /// Solve the checker's own CNF encoding of the instance.
    Direct,
    /// Solve the recorded source formula and appeal to the paper's theorem.
    Reduction,
    /// Multi-round games, one round on a tree: the linear-time median rule.
    Median,
    /// Multi-round games on complete k-ary trees: seed 001's strategies (Algorithm 1, the
    /// key-level Algorithm 2, B's symmetric strategy).
    Kary,
    /// Multi-round games: the exact solver (at most 128 vertices).
    Exact,
    /// `bichromatic-coloring`: Lemma 4's balanced colouring with no monochromatic face (a
    /// `balanced-colouring` witness, not the game's value).
    Lemma4,
    /// Marking games in convex position: seed 000's Theorems 1 and 2 as sums of Kayles or
    /// Dawson's Kayles heaps (a `marking-kayles` certificate), at any size.
    Heaps,
}

/// A certified answer.
#[derive(Clone, Debug)]
pub struct Solved {
    pub certificate: Certificate,
    /// The checker's verdict on `certificate` (always accepted).
    pub verdict: Verdict,
    /// `direct` or `reduction`.
    pub method: &'static str,
    pub cnf_variables: u32,
    pub cnf_clauses: usize,
    /// Size of the LRAT proof in bytes (0 for a witness).
    pub lrat_bytes: usize,
    /// Encoding plus SAT solving (with proof logging), in seconds.
    pub solve_seconds: f64,
    /// The self-check by the checker, in seconds.
    pub check_seconds: f64,
}

/// Why no certificate was produced.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("the direct encoding cannot be built: {0}")]
    Encoding(String),
    #[error("the instance is not valid: {0}")]
    Invalid(#[from] FormatError),
    #[error("--method reduction needs an instance built by `gamecert reduce` (it has no recorded source formula)")]
    NoSource,
    #[error("--method {0} applies to multi-round `voronoi` instances, not to one-round ones")]
    WrongMethod(&'static str),
    #[error("solving {0} instances is not implemented yet")]
    Unsupported(&'static str),
    #[error("SAT solver: {0}")]
    Sat(#[from] SatError),
    #[error("internal error: the checker rejected gamecert's own certificate: {0}")]
    Rejected(String),
}

/// Solves the instance and returns a certificate the checker has accepted.
pub fn solve(instance: &Instance, method: Method) -> Result<Solved, SolveError> {
    let spec = instance
        .one_round()
        .ok_or(SolveError::Unsupported(instance.kind()))?;
    solve_one_round(spec, &spec.validate()?, method)
}

/// [`solve`] for an instance the caller has already validated into `game`.
pub fn solve_one_round(
    spec: &OneRoundSpec,
    game: &OneRound,
    method: Method,
) -> Result<Solved, SolveError> {
    let use_reduction = match method {
        Method::Auto => spec.source.is_some(),
        Method::Direct => false,
        Method::Reduction => true,
        Method::Median => return Err(SolveError::WrongMethod("median")),
        Method::Kary => return Err(SolveError::WrongMethod("kary")),
        Method::Exact => return Err(SolveError::WrongMethod("exact")),
        Method::Lemma4 => return Err(SolveError::WrongMethod("lemma4")),
        Method::Heaps => return Err(SolveError::WrongMethod("heaps")),
    };
    let started = Instant::now();
    let (certificate, cnf_variables, cnf_clauses, method_name) = if use_reduction {
        let source = spec.source.as_ref().ok_or(SolveError::NoSource)?;
        let formula = &source.formula;
        let certificate = match sat::solve(formula, true)? {
            SatOutcome::Satisfiable(model) => Certificate::Witness(Witness {
                claim: CLAIM_BLACK_WINS.into(),
                placement: forward(formula, &model),
            }),
            SatOutcome::Unsatisfiable { lrat } => Certificate::Refutation(Refutation {
                claim: CLAIM_BLACK_CANNOT_WIN.into(),
                method: RefutationMethod::Reduction {
                    reduction: source.reduction,
                    formula: formula.clone(),
                },
                lrat,
            }),
        };
        (
            certificate,
            formula.num_vars,
            formula.clauses.len(),
            "reduction",
        )
    } else {
        let encoding = black_wins_cnf(
            &game.graph,
            &game.white,
            game.black_count,
            &mut Budget::unlimited(),
        )
        .map_err(SolveError::Encoding)?;
        let certificate = match sat::solve(&encoding.cnf, true)? {
            SatOutcome::Satisfiable(model) => Certificate::Witness(Witness {
                claim: CLAIM_BLACK_WINS.into(),
                placement: encoding
                    .placement(&model)
                    .into_iter()
                    .map(|v| game.graph.name(v).to_string())
                    .collect(),
            }),
            SatOutcome::Unsatisfiable { lrat } => Certificate::Refutation(Refutation {
                claim: CLAIM_BLACK_CANNOT_WIN.into(),
                method: RefutationMethod::Direct,
                lrat,
            }),
        };
        (
            certificate,
            encoding.cnf.num_vars,
            encoding.cnf.clauses.len(),
            "direct",
        )
    };
    let solve_seconds = started.elapsed().as_secs_f64();
    let lrat_bytes = match &certificate {
        Certificate::Refutation(r) => r.lrat.len(),
        _ => 0,
    };
    let started = Instant::now();
    // The budget `verify` will give the written certificate by default: the instance's size is
    // not known here, so only the certificate's (a proof's length dominates it) counts, which
    // is the smaller budget; what passes here passes there.
    let certificate_bytes = match &certificate {
        Certificate::Refutation(r) => r.lrat.len(),
        Certificate::Witness(w) => w.placement.iter().map(|v| v.len() + 4).sum(),
        _ => 0,
    };
    let verdict = check_one_round(
        game,
        &certificate,
        &Limits::for_input(certificate_bytes as u64),
    );
    let check_seconds = started.elapsed().as_secs_f64();
    if !verdict.accepted {
        return Err(SolveError::Rejected(verdict.reason));
    }
    Ok(Solved {
        certificate,
        verdict,
        method: method_name,
        cnf_variables,
        cnf_clauses,
        lrat_bytes,
        solve_seconds,
        check_seconds,
    })
}

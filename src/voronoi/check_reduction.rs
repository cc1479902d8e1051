//! `gamecert check-reduction sat-voronoi1|sat-voronoi2`: Karp-style random testing of the
//! reduction against an exhaustive solver, independent of the paper's proof.
//!
//! For each random formula (1 to 6 variables, 1 to 8 clauses of 1 to 3 distinct variables with
//! random signs):
//! 1. a truth table decides the formula;
//! 2. the exhaustive search of [`crate::voronoi::one_round_exact`] lists every winning placement of B on the
//!    reduced graph, and "some placement wins" must equal "satisfiable";
//! 3. the forward map of every satisfying assignment must be a winning placement, and the
//!    checker must accept it as a witness;
//! 4. the backward map of every winning placement must satisfy the original formula.
//!
//! A search that hits its node limit counts as a failure, never as a pass.
//!
//! Size bound (a decision, measured): the exhaustive search is exponential in the number n of
//! normalised variables on unsatisfiable formulas (the bound cannot see that both literal
//! vertices of a variable claim the same Y vertices, so it prunes like DPLL without
//! propagation). A formula whose normalised form has more than [`MAX_NORMALISED_VARS`]
//! variables is therefore redrawn, and the report counts the redraws. With 6 variables and 8
//! clauses the normalised n can reach 24; at n = 19 a single unsatisfiable instance took more
//! than 5 * 10^7 search nodes (minutes), and the direct SAT encoding did no better.

use crate::base::rng::Rng;
use crate::voronoi::one_round_exact::{search, Goal};
use gamecert_certificates::format::{Certificate, Instance, Witness, CLAIM_BLACK_WINS};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::rules::{score, Outcome};
use gamecert_certificates::voronoi::sat_reduction::{names, SatVoronoi};
use gamecert_certificates::{check, Limits};
use gamecert_reductions::normalise::normalise;
use gamecert_reductions::sat_voronoi::{backward_to_original, forward_from_original, reduce};
use serde::Serialize;

/// Search nodes allowed per trial.
pub const NODE_LIMIT: u64 = 50_000_000;

/// Formulas whose normalised form has more variables than this are redrawn.
pub const MAX_NORMALISED_VARS: u32 = 12;

/// The outcome of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    pub reduction: String,
    pub seed: u64,
    pub trials: usize,
    /// Formulas redrawn because their normalised form exceeded [`MAX_NORMALISED_VARS`].
    pub redrawn: usize,
    pub satisfiable: usize,
    pub unsatisfiable: usize,
    /// Trials where the exhaustive search agreed with the truth table.
    pub agreed: usize,
    /// Satisfying assignments mapped forward and checked.
    pub forward_checked: usize,
    /// Winning placements mapped backward and checked.
    pub backward_checked: usize,
    /// Winning placements that do not hold exactly one literal vertex of every variable (the
    /// proof of Theorem 3 asserts that such placements never win; this counts exceptions).
    pub noncanonical_winning: usize,
    pub largest_graph: usize,
    pub search_nodes: u64,
    /// One line per failed trial, with the formula in DIMACS.
    pub failures: Vec<String>,
}

/// A random formula in the range the issue asks for.
pub fn random_formula(rng: &mut Rng) -> Cnf {
    let num_vars = rng.range(1, 6) as u32;
    let num_clauses = rng.range(1, 8) as usize;
    let mut cnf = Cnf::new(num_vars);
    for _ in 0..num_clauses {
        let width = rng.range(1, 3.min(num_vars as u64)) as usize;
        let mut vars: Vec<i32> = Vec::with_capacity(width);
        while vars.len() < width {
            let v = rng.range(1, num_vars as u64) as i32;
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        cnf.add_clause(vars.into_iter().map(|v| if rng.coin() { v } else { -v }).collect());
    }
    cnf
}

/// All satisfying assignments of a small formula, by truth table.
pub fn satisfying_assignments(cnf: &Cnf) -> Vec<Vec<bool>> {
    let n = cnf.num_vars;
    (0u64..1 << n)
        .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
        .filter(|a| cnf.is_satisfied_by(a))
        .collect()
}

/// Runs `trials` random trials of `problem` from `seed`.
pub fn run(problem: SatVoronoi, trials: usize, seed: u64) -> Report {
    run_with_progress(problem, trials, seed, &|_| {})
}

/// [`run`], calling `progress` with the number of trials done as each one ends (from the
/// worker threads). The formulas are drawn in order from `seed` first, so the sample does not
/// depend on the threads; the trials then run in parallel (rayon), and their counts are added
/// in trial order.
pub fn run_with_progress(
    problem: SatVoronoi,
    trials: usize,
    seed: u64,
    progress: &(dyn Fn(usize) + Sync),
) -> Report {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let mut rng = Rng::new(seed);
    let mut report = Report { reduction: problem.name().into(), seed, trials, ..Report::default() };
    let mut formulas = Vec::with_capacity(trials);
    while formulas.len() < trials {
        let formula = random_formula(&mut rng);
        if normalise(&formula).formula.num_vars <= MAX_NORMALISED_VARS {
            formulas.push(formula);
        } else {
            report.redrawn += 1;
        }
    }
    // Each trial is counted as it ends (a trial can take seconds: the count, not a batch's
    // end, is what the progress line shows).
    let finished = AtomicUsize::new(0);
    let done: Vec<(Report, Result<(), String>)> = formulas
        .par_iter()
        .map(|formula| {
            let mut own = Report::default();
            let outcome = run_trial(problem, formula, &mut own);
            progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
            (own, outcome)
        })
        .collect();
    for (k, (own, outcome)) in done.into_iter().enumerate() {
        report.add(&own);
        if let Err(why) = outcome {
            report.failures.push(format!(
                "trial {k}: {why}; formula: {}",
                formulas[k].to_dimacs().replace('\n', " ")
            ));
        }
    }
    report
}

impl Report {
    /// Adds one trial's counts (its own report) to these.
    fn add(&mut self, trial: &Report) {
        self.satisfiable += trial.satisfiable;
        self.unsatisfiable += trial.unsatisfiable;
        self.agreed += trial.agreed;
        self.forward_checked += trial.forward_checked;
        self.backward_checked += trial.backward_checked;
        self.noncanonical_winning += trial.noncanonical_winning;
        self.largest_graph = self.largest_graph.max(trial.largest_graph);
        self.search_nodes += trial.search_nodes;
    }
}

fn run_trial(problem: SatVoronoi, formula: &Cnf, report: &mut Report) -> Result<(), String> {
    let models = satisfying_assignments(formula);
    if models.is_empty() {
        report.unsatisfiable += 1;
    } else {
        report.satisfiable += 1;
    }
    let reduced = reduce(formula, problem)?;
    let spec = &reduced.instance;
    let game = spec.validate().map_err(|e| e.to_string())?;
    report.largest_graph = report.largest_graph.max(game.graph.len());
    let found = search(&game, Goal::AllWinning { max_results: 1_000_000 }, NODE_LIMIT);
    report.search_nodes += found.nodes;
    if !found.complete {
        return Err(format!("exhaustive search incomplete after {} nodes", found.nodes));
    }
    if found.placements.is_empty() != models.is_empty() {
        return Err(format!(
            "the truth table says {}, the exhaustive search found {} winning placements",
            if models.is_empty() { "unsatisfiable" } else { "satisfiable" },
            found.placements.len()
        ));
    }
    report.agreed += 1;
    let instance = Instance::VoronoiOneRound(spec.clone());
    for model in &models {
        let placement = forward_from_original(&reduced.normalised, formula, model);
        let black: Vec<usize> = placement
            .iter()
            .map(|name| game.graph.vertex(name).ok_or(format!("no vertex {name}")))
            .collect::<Result<_, _>>()?;
        let s = score(&game.graph, &game.white, &black);
        if s.outcome() != Outcome::BlackWins {
            return Err(format!(
                "forward map of {model:?} gives {placement:?}, which does not win ({} to {})",
                s.black, s.white
            ));
        }
        let witness = Certificate::Witness(Witness { claim: CLAIM_BLACK_WINS.into(), placement });
        let verdict = check(&instance, &witness, &Limits::default());
        if !verdict.accepted() {
            return Err(format!("the checker rejects a forward witness: {}", verdict.reason));
        }
        report.forward_checked += 1;
    }
    for placement in &found.placements {
        let names: Vec<String> =
            placement.iter().map(|&v| game.graph.name(v).to_string()).collect();
        if !is_canonical(&reduced.normalised.formula, &names) {
            report.noncanonical_winning += 1;
        }
        let assignment = backward_to_original(&reduced.normalised, &names);
        if !formula.is_satisfied_by(&assignment) {
            return Err(format!(
                "the winning placement {names:?} maps back to {assignment:?}, which does not satisfy the formula"
            ));
        }
        report.backward_checked += 1;
    }
    Ok(())
}

/// Whether a placement holds exactly one of `x_i+`, `x_i-` for every variable i (and so
/// nothing else, having n vertices).
fn is_canonical(formula: &Cnf, placement: &[String]) -> bool {
    (1..=formula.num_vars as usize).all(|i| {
        let plus = placement.contains(&names::positive(i));
        let minus = placement.contains(&names::negative(i));
        plus != minus
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generator_respects_the_bounds() {
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            let f = random_formula(&mut rng);
            assert!((1..=6).contains(&f.num_vars));
            assert!((1..=8).contains(&f.clauses.len()));
            for c in &f.clauses {
                assert!((1..=3).contains(&c.len()));
            }
        }
    }
}

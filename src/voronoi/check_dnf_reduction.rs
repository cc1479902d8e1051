//! `gamecert check-reduction posdnf-voronoi`: the paper's Theorem 4 construction tested
//! against the exact solvers, independently of any strategy map.
//!
//! For each positive DNF: the exact DNF game solver ([`crate::voronoi::dnf`]) names the winner; the
//! exact multi-round solver ([`crate::voronoi::exact`]) computes the value of the Voronoi game on
//! the reduced graph and certifies it (both players' strategies, replayed by the checker). The
//! paper's argument predicts: the first player wins the DNF game iff W wins the Voronoi game,
//! and otherwise the Voronoi game is a tie. Both are checked.
//!
//! Coverage: every positive DNF over at most 4 variables with 1 to 3 distinct terms (all of
//! them, exhaustively), then `trials` random ones with 5 or 6 variables and up to 4 terms (the
//! reduced graphs have up to 2 * 36 + 42 + 2 + 4 = 120 vertices, the solver's limit being 128).

use crate::base::rng::Rng;
use crate::voronoi::dnf::solve_dnf_game;
use crate::voronoi::exact::ExactSolver;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{GraphSpec, MultiRoundSpec};
use gamecert_certificates::posdnf::dnf::{DnfPlayer, PosDnf};
use gamecert_certificates::voronoi::multi_round::check_value;
use gamecert_reductions::posdnf_voronoi::build;
use serde::Serialize;

/// The outcome of a run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PosDnfReport {
    pub seed: u64,
    /// Formulas tested (the exhaustive ones plus the random ones).
    pub formulas: usize,
    pub first_player_wins: usize,
    pub second_player_wins: usize,
    /// Formulas where the Voronoi value matched the paper's prediction.
    pub agreed: usize,
    /// Value certificates the checker accepted.
    pub certified: usize,
    pub largest_graph: usize,
    pub search_nodes: u64,
    /// How often each Voronoi value occurred, as (value, count).
    pub values: Vec<(i64, usize)>,
    pub failures: Vec<String>,
}

/// Every set of 1 to `max_terms` distinct non-empty terms over `n` variables.
pub fn all_dnfs(n: u32, max_terms: usize) -> Vec<PosDnf> {
    let terms: Vec<Vec<u32>> =
        (1u32..1 << n).map(|mask| (1..=n).filter(|v| mask >> (v - 1) & 1 == 1).collect()).collect();
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    fn extend(
        terms: &[Vec<u32>],
        from: usize,
        left: usize,
        chosen: &mut Vec<usize>,
        n: u32,
        out: &mut Vec<PosDnf>,
    ) {
        if !chosen.is_empty() {
            out.push(PosDnf {
                num_vars: n,
                terms: chosen.iter().map(|&k| terms[k].clone()).collect(),
            });
        }
        if left == 0 {
            return;
        }
        for k in from..terms.len() {
            chosen.push(k);
            extend(terms, k + 1, left - 1, chosen, n, out);
            chosen.pop();
        }
    }
    extend(&terms, 0, max_terms, &mut chosen, n, &mut out);
    out
}

/// A random positive DNF with 5 or 6 variables and 1 to 4 terms of 1 to 4 variables.
pub fn random_dnf(rng: &mut Rng) -> PosDnf {
    let n = rng.range(5, 6) as u32;
    let m = rng.range(1, 4) as usize;
    let terms = (0..m)
        .map(|_| {
            let width = rng.range(1, 4) as usize;
            let mut term: Vec<u32> = Vec::new();
            while term.len() < width {
                let v = rng.range(1, n as u64) as u32;
                if !term.contains(&v) {
                    term.push(v);
                }
            }
            term.sort_unstable();
            term
        })
        .collect();
    PosDnf { num_vars: n, terms }
}

/// Runs the exhaustive part (up to `max_vars` variables, at most 4) and `trials` random formulas,
/// calling `progress(done, total)` after each formula.
pub fn run(
    max_vars: u32,
    trials: usize,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> PosDnfReport {
    let mut report = PosDnfReport { seed, ..PosDnfReport::default() };
    let mut formulas: Vec<PosDnf> = (1..=max_vars.min(4)).flat_map(|n| all_dnfs(n, 3)).collect();
    let mut rng = Rng::new(seed);
    formulas.extend((0..trials).map(|_| random_dnf(&mut rng)));
    for (k, dnf) in formulas.iter().enumerate() {
        report.formulas += 1;
        if let Err(why) = check_one(dnf, &mut report) {
            report
                .failures
                .push(format!("terms {:?} over {} variables: {why}", dnf.terms, dnf.num_vars));
        }
        progress(k + 1, formulas.len());
    }
    report.values.sort_unstable();
    report
}

fn check_one(dnf: &PosDnf, report: &mut PosDnfReport) -> Result<(), String> {
    let winner = solve_dnf_game(dnf)?.winner;
    match winner {
        DnfPlayer::First => report.first_player_wins += 1,
        DnfPlayer::Second => report.second_player_wins += 1,
    }
    let built = build(dnf)?;
    let spec = MultiRoundSpec {
        graph: GraphSpec { vertices: built.graph.vertices, edges: built.graph.edges },
        rounds: built.rounds,
        start: None,
        source: None,
    };
    let game = spec.validate().map_err(|e| e.to_string())?;
    report.largest_graph = report.largest_graph.max(game.graph.len());
    let solution = ExactSolver::new(&game)?.solve();
    report.search_nodes += solution.nodes;
    check_value(
        &game.graph,
        game.rounds,
        &game.start,
        &solution.certificate(),
        &mut Budget::unlimited(),
    )
    .map_err(|e| format!("the checker rejects the value certificate: {e}"))?;
    report.certified += 1;
    match report.values.iter_mut().find(|(v, _)| *v == solution.value) {
        Some((_, count)) => *count += 1,
        None => report.values.push((solution.value, 1)),
    }
    let predicted_ok = match winner {
        DnfPlayer::First => solution.value > 0,
        DnfPlayer::Second => solution.value == 0,
    };
    if !predicted_ok {
        return Err(format!(
            "the {} player wins the DNF game but the Voronoi value is {}",
            winner, solution.value
        ));
    }
    report.agreed += 1;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerates_all_small_dnfs() {
        // 3 non-empty terms over 2 variables: 3 + 3 + 1 sets of 1, 2, 3 terms.
        assert_eq!(all_dnfs(2, 3).len(), 7);
        assert_eq!(all_dnfs(4, 3).len(), 15 + 105 + 455);
    }
}

//! 3-SAT to the one-round Voronoi game (seed 001, Theorem 3 and Corollary 1), with its three
//! Karp maps.
//!
//! - [`reduce`]: any CNF formula -> normalised formula ([`crate::normalise`]) -> the paper's
//!   graph, built by the checker's own construction
//!   ([`gamecert_certificates::voronoi::sat_reduction::build`]) so that the instance a refutation is
//!   checked against is made by exactly one piece of code. The size 10n + 2m - 1 is asserted on
//!   every output.
//! - [`forward`]: an assignment of the normalised formula -> B's placement (x_i+ when x_i is
//!   true, x_i- when false); [`forward_from_original`] first extends an assignment of the
//!   user's formula through the normalisation.
//! - [`backward`]: any placement of B -> an assignment of the normalised formula: x_i is true iff
//!   B holds x_i+ (so a placement holding neither literal vertex of x_i, or both, still maps to
//!   something definite); [`backward_to_original`] then restricts it to the user's variables.
//!   Theorem 3 says every winning placement maps to a satisfying assignment; `check-reduction`
//!   tests exactly that on every winning placement an exhaustive search finds.

use crate::normalise::{normalise, Normalisation, Normalised};
use gamecert_certificates::format::{GraphSpec, OneRoundSpec, ReductionSource};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::sat_reduction::{build, names, paper_size, SatVoronoi};
use std::collections::HashSet;

/// A reduced instance and what it was made from.
#[derive(Clone, Debug)]
pub struct Reduced {
    pub instance: OneRoundSpec,
    pub normalised: Normalised,
}

/// Normalises `original` and builds the paper's instance for `problem`.
pub fn reduce(original: &Cnf, problem: SatVoronoi) -> Result<Reduced, String> {
    let normalised = normalise(original);
    let formula = &normalised.formula;
    let built = build(formula, problem)?;
    let expected = paper_size(formula.num_vars as usize, formula.clauses.len());
    assert_eq!(built.vertices.len(), expected, "the construction must have 10n + 2m - 1 vertices");
    let normalisation = serde_json::to_value(&normalised.map).map_err(|e| e.to_string())?;
    let instance = OneRoundSpec {
        graph: GraphSpec { vertices: built.vertices, edges: built.edges },
        white: built.white,
        black_count: built.black_count,
        source: Some(ReductionSource {
            reduction: problem,
            formula: formula.clone(),
            original: Some(original.clone()),
            normalisation: Some(normalisation),
        }),
    };
    Ok(Reduced { instance, normalised })
}

/// Reads the normalisation map recorded in an instance's source.
pub fn recorded_normalisation(source: &ReductionSource) -> Result<Option<Normalisation>, String> {
    match &source.normalisation {
        None => Ok(None),
        Some(value) => serde_json::from_value(value.clone())
            .map(Some)
            .map_err(|e| format!("the recorded normalisation map does not parse: {e}")),
    }
}

/// B's placement for an assignment of the normalised formula (index 0 is variable 1).
pub fn forward(formula: &Cnf, assignment: &[bool]) -> Vec<String> {
    (1..=formula.num_vars as usize)
        .map(|i| {
            if assignment.get(i - 1).copied().unwrap_or(false) {
                names::positive(i)
            } else {
                names::negative(i)
            }
        })
        .collect()
}

/// B's placement for an assignment of the user's formula.
pub fn forward_from_original(
    normalised: &Normalised,
    original: &Cnf,
    assignment: &[bool],
) -> Vec<String> {
    let extended = normalised.map.extend(original, assignment);
    forward(&normalised.formula, &extended)
}

/// The assignment of the normalised formula that a placement of B stands for.
pub fn backward(formula: &Cnf, placement: &[String]) -> Vec<bool> {
    let held: HashSet<&str> = placement.iter().map(String::as_str).collect();
    (1..=formula.num_vars as usize).map(|i| held.contains(names::positive(i).as_str())).collect()
}

/// The assignment of the user's formula that a placement of B stands for.
pub fn backward_to_original(normalised: &Normalised, placement: &[String]) -> Vec<bool> {
    normalised.map.restrict(&backward(&normalised.formula, placement))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure3_round_trip() {
        let f = Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] };
        let reduced = reduce(&f, SatVoronoi::Problem1).unwrap();
        assert_eq!(reduced.instance.graph.vertices.len(), 43);
        assert_eq!(reduced.instance.black_count, 4);
        // The formula is already restricted, so normalisation keeps it.
        assert_eq!(reduced.normalised.formula, f);
        let assignment = [false, true, false, false];
        let placement = forward_from_original(&reduced.normalised, &f, &assignment);
        assert_eq!(placement, vec!["x1-", "x2+", "x3-", "x4-"]);
        let back = backward_to_original(&reduced.normalised, &placement);
        assert_eq!(back, assignment);
    }

    #[test]
    fn long_clauses_and_frequent_variables_are_normalised() {
        let f = Cnf {
            num_vars: 5,
            clauses: vec![vec![1, 2, 3, 4, 5], vec![-1, 2], vec![1, -2], vec![-1, -2], vec![1, 3]],
        };
        let reduced = reduce(&f, SatVoronoi::Problem2).unwrap();
        let g = &reduced.normalised.formula;
        let n = g.num_vars as usize;
        assert_eq!(reduced.instance.graph.vertices.len(), 10 * n + 2 * g.clauses.len() - 1);
        assert_eq!(reduced.instance.white.len(), n);
    }
}

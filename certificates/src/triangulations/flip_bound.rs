//! Certificate kind `flip-bound`: no flip sequence of a solitaire flipping game (seed 000,
//! 2.2.4 All-Green and 2.2.5 Green-Wins) colours more than `at_most` edges green.
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "flip-bound", "at_most": 5}
//! ```
//!
//! The upper bound a `flip-sequence` cannot give (it proves only what one sequence reaches):
//! the checker visits every position reachable from the start by legal flips, by the rules of
//! [`super::flipping`] alone (each position once, keyed by its edges and colours), and rejects
//! at the first one with more than `at_most` green edges, naming the flips that reach it. With
//! a Green-Wins instance and 2 * at_most <= the number of edges, the verdict says that no
//! sequence ends with more green than black edges: a counterexample to the question of 7.2.
//! Nothing is taken on faith (in particular not the independence lemma the solver uses).
//!
//! Cost: at most [`super::flipping::MAX_STRATEGY_POINTS`] points; each position visited is
//! charged its edges (a board clone and its key) before it is built.

use super::flipping::{setup, Board, FlipGame, FlipSpec, MAX_STRATEGY_POINTS};
use crate::base::budget::Budget;
use crate::verdict::{Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Certificate kind `flip-bound`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlipBound {
    /// No flip sequence colours more edges than this green.
    pub at_most: usize,
}

impl Claim for FlipBound {
    fn claim(&self) -> String {
        format!(
            "no flip sequence colours more than {} green",
            crate::base::text::counted(self.at_most, "edge")
        )
    }
}

/// Visits every reachable position; returns (the most green edges seen, the edges, positions).
pub fn check_flip_bound(
    spec: &FlipSpec,
    cert: &FlipBound,
    budget: &mut Budget,
) -> Result<(usize, usize, u64), String> {
    ensure!(
        spec.game.solitaire(),
        "{} is a two-player game: a flip-bound fits the solitaire games only",
        spec.game
    );
    let (shape, start) = setup(spec, budget)?;
    let n = shape.len();
    ensure!(
        n <= MAX_STRATEGY_POINTS,
        "{n} points: a flip-bound visits every position, at most {MAX_STRATEGY_POINTS} points"
    );
    let total = start.edges.len();
    // Per position: the board cloned, its key, its moves (each a hash lookup and a test).
    let cost = 64 + 48 * total as u64;
    let mut seen = HashSet::new();
    let mut most = 0;
    // (position, the flips that reached it)
    let mut stack: Vec<(Board, Vec<[usize; 2]>)> = vec![(start, Vec::new())];
    let mut positions = 0u64;
    while let Some((board, path)) = stack.pop() {
        budget.charge(cost.saturating_add(path.len() as u64 * 16), "visiting positions")?;
        if !seen.insert(board.wide_masks(n)) {
            continue;
        }
        positions += 1;
        let green = board.count(1);
        if green > cert.at_most {
            let flips: Vec<String> = path.iter().map(|e| format!("{}-{}", e[0], e[1])).collect();
            fail!(
                "the flips {} colour {green} edges green, more than the claimed {}",
                if flips.is_empty() { "(none)".to_string() } else { flips.join(", ") },
                cert.at_most
            );
        }
        most = most.max(green);
        for e in board.moves(&shape) {
            // Each child held on the stack: a board and its path, charged before they exist.
            budget.charge(cost.saturating_add(path.len() as u64 * 16), "holding positions")?;
            let mut next = board.clone();
            next.play(&shape, spec.game, e, 1)?;
            let mut reached = path.clone();
            reached.push(e);
            stack.push((next, reached));
        }
    }
    Ok((most, total, positions))
}

/// Registry entry for `flip-bound`.
pub fn bound_verdict(spec: &FlipSpec, cert: &FlipBound, budget: &mut Budget) -> Verdict {
    Verdict::decide(
        cert.claim(),
        check_flip_bound(spec, cert, budget),
        |(most, total, positions)| {
            let loses = if spec.game == FlipGame::GreenWins && cert.at_most <= total / 2 {
                format!(
                    "; at most {} of {total} edges green: Green-Wins cannot end with more green \
                     than black",
                    cert.at_most
                )
            } else {
                String::new()
            };
            let reason = format!(
                "every position reachable by legal flips visited ({}): at most {most} green{loses}",
                crate::base::text::counted(positions, "position")
            );
            (reason, Work { positions: Some(positions), ..Work::default() })
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_is_the_maximum_and_one_less_is_rejected() {
        let quad = FlipSpec {
            game: FlipGame::GreenWins,
            convex_polygon: Some(4),
            points: vec![],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            edges: vec![],
        };
        let v = bound_verdict(&quad, &FlipBound { at_most: 5 }, &mut Budget::unlimited());
        assert!(v.accepted(), "{}", v.reason);
        assert!(v.reason.contains("2 positions"), "{}", v.reason);
        let v = bound_verdict(&quad, &FlipBound { at_most: 4 }, &mut Budget::unlimited());
        assert!(!v.accepted() && v.reason.contains("the flips 0-2 colour 5 edges"), "{}", v.reason);
        // A bound far above the edges is true (and no arithmetic on it wraps).
        let v = bound_verdict(&quad, &FlipBound { at_most: usize::MAX }, &mut Budget::unlimited());
        assert!(v.accepted() && !v.reason.contains("cannot end"), "{}", v.reason);
        let v = bound_verdict(&quad, &FlipBound { at_most: 5 }, &mut Budget::new(10));
        assert!(!v.accepted() && v.reason.contains("work"), "{}", v.reason);
        let mut two = quad.clone();
        two.game = FlipGame::BichromaticFlipping;
        let v = bound_verdict(&two, &FlipBound { at_most: 5 }, &mut Budget::unlimited());
        assert!(!v.accepted() && v.reason.contains("two-player"), "{}", v.reason);
    }
}

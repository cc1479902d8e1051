//! The discrete Voronoi game's reference rules (seed 001, Section 2), written to be obviously
//! right rather than fast.
//!
//! A vertex belongs to the player with the strictly nearer occupied vertex (graph distance,
//! multi-source BFS from each player's set); equal distances, including "unreachable from both",
//! make it neutral. The scores are the sizes of the two dominance sets; the larger wins.

use crate::base::graph::Graph;
use crate::base::text::counted;
use serde::{Deserialize, Serialize};

/// The two players. W (white) moves first in every round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    White,
    Black,
}

/// The sizes of the dominance sets, and the neutral vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// |V_W|: vertices strictly nearer to W.
    pub white: usize,
    /// |V_B|: vertices strictly nearer to B.
    pub black: usize,
    /// Vertices at equal distance from both (or unreachable from both).
    pub neutral: usize,
}

/// Who wins a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Tie,
}

impl Score {
    /// The outcome these scores give.
    pub fn outcome(&self) -> Outcome {
        match self.white.cmp(&self.black) {
            std::cmp::Ordering::Greater => Outcome::WhiteWins,
            std::cmp::Ordering::Less => Outcome::BlackWins,
            std::cmp::Ordering::Equal => Outcome::Tie,
        }
    }
}

/// The work units of one [`score`]: two breadth-first searches (a distance and a queue entry
/// for every vertex, every adjacency entry looked at) and the comparison.
pub fn score_cost(graph: &Graph) -> u64 {
    let n = graph.len() as u64;
    let m = graph.edge_count() as u64;
    n.saturating_mul(40).saturating_add(m.saturating_mul(4))
}

/// Scores a position in which W occupies `white` and B occupies `black` (disjoint vertex sets).
pub fn score(graph: &Graph, white: &[usize], black: &[usize]) -> Score {
    let to_white = graph.distances_from(white);
    let to_black = graph.distances_from(black);
    let mut score = Score { white: 0, black: 0, neutral: 0 };
    for (dw, db) in to_white.iter().zip(&to_black) {
        match dw.cmp(db) {
            std::cmp::Ordering::Less => score.white += 1,
            std::cmp::Ordering::Greater => score.black += 1,
            std::cmp::Ordering::Equal => score.neutral += 1,
        }
    }
    score
}

/// Whose turn it is in `position`, or `None` when the game is over; an impossible count of
/// occupied vertices is an error.
pub fn to_move(position: &[u8], rounds: usize) -> Result<Option<Player>, String> {
    let w = position.iter().filter(|&&c| c == b'W').count();
    let b = position.iter().filter(|&&c| c == b'B').count();
    to_move_counted(w, b, rounds)
}

/// [`to_move`] from the numbers of W's and B's stones.
pub(crate) fn to_move_counted(w: usize, b: usize, rounds: usize) -> Result<Option<Player>, String> {
    if w == rounds && b == rounds {
        Ok(None)
    } else if w == b && w < rounds {
        Ok(Some(Player::White))
    } else if w == b + 1 && b < rounds {
        Ok(Some(Player::Black))
    } else {
        Err(format!(
            "W holds {} and B holds {}, which no play of {} reaches",
            counted(w, "vertex"),
            counted(b, "vertex"),
            counted(rounds, "round")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(n: usize) -> Graph {
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        let spec = crate::format::GraphSpec::numbered(n, &edges);
        Graph::new(&spec.vertices, &spec.edges).unwrap()
    }

    #[test]
    fn path_of_five() {
        let g = path(5);
        // W in the middle, B at an end: v1 is at distance 1 from both, so neutral.
        let s = score(&g, &[2], &[0]);
        assert_eq!(s, Score { white: 3, black: 1, neutral: 1 });
        assert_eq!(s.outcome(), Outcome::WhiteWins);
        let s = score(&g, &[0], &[1]);
        assert_eq!((s.white, s.black, s.neutral), (1, 4, 0));
        assert_eq!(s.outcome(), Outcome::BlackWins);
    }

    #[test]
    fn unreachable_vertices_are_neutral() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let g = Graph::new(&names, &[("a".into(), "b".into())]).unwrap();
        let s = score(&g, &[0], &[1]);
        assert_eq!((s.white, s.black, s.neutral), (1, 1, 1));
        assert_eq!(s.outcome(), Outcome::Tie);
    }
}

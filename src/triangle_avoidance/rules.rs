//! The games of seed 002 on the digraph of triangle-free (or bipartite, or any) graphs: which
//! edges a player may add, and what ends the game.

use crate::triangle_avoidance::canon::SmallGraph;
use serde::Serialize;

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rules {
    /// One-colour triangle avoidance (the paper's main game).
    TriangleAvoidance,
    /// One-colour triangle achievement.
    TriangleAchievement,
    /// Odd-cycle avoidance (the paper's Theorem 1).
    OddCycleAvoidance,
    /// Connected triangle avoidance (Seress).
    ConnectedAvoidance,
}

impl Rules {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Rules::TriangleAvoidance => "triangle-avoidance",
            Rules::TriangleAchievement => "triangle-achievement",
            Rules::OddCycleAvoidance => "odd-cycle-avoidance",
            Rules::ConnectedAvoidance => "connected-avoidance",
        }
    }

    /// Whether adding a-b is a legal move in `g` (a-b is not an edge).
    pub(crate) fn legal(self, g: &SmallGraph, a: usize, b: usize) -> bool {
        match self {
            Rules::TriangleAvoidance | Rules::TriangleAchievement => g.adj[a] & g.adj[b] == 0,
            Rules::OddCycleAvoidance => !same_side_of_component(g, a, b),
            Rules::ConnectedAvoidance => {
                g.adj[a] & g.adj[b] == 0 && (g.edge_count() == 0 || g.adj[a] | g.adj[b] != 0)
            }
        }
    }

    /// Whether the player to move wins at once (achievement: an edge closes a triangle).
    pub(crate) fn immediate_win(self, g: &SmallGraph) -> bool {
        self == Rules::TriangleAchievement
            && (0..g.n).any(|a| (a + 1..g.n).any(|b| !g.has_edge(a, b) && g.adj[a] & g.adj[b] != 0))
    }

    /// The legal moves (a, b), a < b, of `g` (none after an immediate win).
    pub fn moves(self, g: &SmallGraph) -> Vec<(usize, usize)> {
        if self.immediate_win(g) {
            return Vec::new();
        }
        (0..g.n)
            .flat_map(|a| (a + 1..g.n).map(move |b| (a, b)))
            .filter(|&(a, b)| !g.has_edge(a, b) && self.legal(g, a, b))
            .collect()
    }

    /// The canonical codes of the children of `g`, sorted and distinct: one canonical form per
    /// orbit of moves under the automorphisms of `g` found by its own canonical search (moves
    /// in one orbit give isomorphic children).
    pub fn distinct_children(self, g: &SmallGraph) -> Vec<u128> {
        use crate::triangle_avoidance::canon::{
            automorphisms, canonical, pair_orbit_representatives,
        };
        let moves = self.moves(g);
        if moves.is_empty() {
            return Vec::new();
        }
        let generators = if moves.len() > 1 { automorphisms(g) } else { Vec::new() };
        let mut kids: Vec<u128> = pair_orbit_representatives(g.n, &moves, &generators)
            .into_iter()
            .map(|(a, b)| {
                let mut h = *g;
                h.add_edge(a, b);
                canonical(&h).code
            })
            .collect();
        kids.sort_unstable();
        kids.dedup();
        kids
    }

    /// Every legal move's resulting graph (one per edge; isomorphic results repeat).
    pub fn children(self, g: &SmallGraph) -> Vec<SmallGraph> {
        let mut out = Vec::new();
        if self.immediate_win(g) {
            return out;
        }
        for a in 0..g.n {
            for b in a + 1..g.n {
                if !g.has_edge(a, b) && self.legal(g, a, b) {
                    let mut h = *g;
                    h.add_edge(a, b);
                    out.push(h);
                }
            }
        }
        out
    }
}

/// Whether a and b lie in one connected component at even distance (joining them would close
/// an odd cycle), for a bipartite `g`.
pub(crate) fn same_side_of_component(g: &SmallGraph, a: usize, b: usize) -> bool {
    // Two-colour a's component by BFS on bitmasks.
    let (mut even, mut odd) = (1u16 << a, 0u16);
    let mut frontier = 1u16 << a;
    let mut parity_even = true;
    while frontier != 0 {
        let mut next = 0u16;
        let mut rest = frontier;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            next |= g.adj[v];
        }
        next &= !(even | odd);
        parity_even = !parity_even;
        if parity_even {
            even |= next;
        } else {
            odd |= next;
        }
        frontier = next;
    }
    even >> b & 1 == 1
}

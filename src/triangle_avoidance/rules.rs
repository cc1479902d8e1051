//! The games of seed 002 on the digraph of triangle-free (or bipartite, or any) graphs: which
//! edges a player may add, and what ends the game.

use crate::triangle_avoidance::canon::{SmallGraph, MAX_VERTICES};
use serde::{Deserialize, Serialize};

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
        // Bit loops into a vector sized once: this runs for every position the engines
        // expand or label, and a growing `collect` spent a tenth of a table in reallocation.
        let mut moves = Vec::with_capacity(g.n * g.n.saturating_sub(1) / 2);
        for a in 0..g.n {
            let mut rest = !g.adj[a] & crate::triangle_avoidance::canon::above(g.n, a);
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if self.legal(g, a, b) {
                    moves.push((a, b));
                }
            }
        }
        moves
    }

    /// Whether `g` has a legal move (and no immediate win), without listing the moves.
    pub fn has_move(self, g: &SmallGraph) -> bool {
        if self.immediate_win(g) {
            return false;
        }
        (0..g.n).any(|a| {
            let mut rest = !g.adj[a] & crate::triangle_avoidance::canon::above(g.n, a);
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if self.legal(g, a, b) {
                    return true;
                }
            }
            false
        })
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

    /// Whether every graph of the game's family is a position, and deleting an edge keeps
    /// it in the family (triangle-free, bipartite): then [`Rules::augmented_children`]
    /// finds every position of the next level.
    pub fn is_hereditary(self) -> bool {
        matches!(self, Rules::TriangleAvoidance | Rules::OddCycleAvoidance)
    }

    /// The canonical codes of the children of `g` whose added edge has the largest edge
    /// invariant ([`has_largest_edge_invariant`]) among the child's edges, sorted and
    /// distinct. For a hereditary game the union over a level's positions is the whole next
    /// level (each child H is kept from the representative of H - e, e an edge of largest
    /// invariant), with far fewer canonical forms than [`Rules::distinct_children`]; it says
    /// nothing about one position's arcs.
    pub fn augmented_children(self, g: &SmallGraph) -> Vec<u128> {
        debug_assert!(self.is_hereditary());
        // No orbits of moves here: the filter is cheaper than the automorphism search, and a
        // child kept twice from one orbit is removed by the sort like any duplicate.
        //
        // A cheap necessary condition first, on degrees alone: the invariant orders degrees
        // before anything else, so the added edge can have the largest one only if one of its
        // ends has the child's largest degree, that is, degree at least the parent's largest
        // minus one. Most moves fail it, and the full test (O(n + edges)) then never runs.
        let mut kids: Vec<u128> = Vec::new();
        if self.immediate_win(g) {
            return kids;
        }
        let degree = g.adj.map(|m| m.count_ones());
        let largest = degree[..g.n].iter().copied().max().unwrap_or(0);
        let invariants = vertex_invariants(g);
        // The vertices that may carry the child's largest degree.
        let wide = (0..g.n).filter(|&v| degree[v] + 1 >= largest).fold(0u16, |m, v| m | 1 << v);
        for a in 0..g.n {
            // Partners of a: non-neighbours above a (legality tested below), and only wide
            // ones when a is not wide itself.
            let mut rest = !g.adj[a] & crate::triangle_avoidance::canon::above(g.n, a);
            if wide >> a & 1 == 0 {
                rest &= wide;
            }
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if !self.legal(g, a, b) {
                    continue;
                }
                if largest_after_adding(g, &invariants, a, b) {
                    let mut h = *g;
                    h.add_edge(a, b);
                    kids.push(crate::triangle_avoidance::canon::canonical(&h).code);
                }
            }
        }
        kids.sort_unstable();
        kids.dedup();
        kids
    }

    /// The canonical codes of the parents of `g` in a hereditary game: `g` minus one edge,
    /// one per orbit of its edges under `g`'s automorphisms (so a code may still repeat when
    /// two orbits give isomorphic graphs). Both out-of-core and timely engines label a level
    /// by marking these parents of the next level's lost positions won.
    pub fn parent_codes(self, g: &SmallGraph) -> Vec<u128> {
        use crate::triangle_avoidance::canon::{
            automorphisms, canonical, pair_orbit_representatives,
        };
        debug_assert!(self.is_hereditary());
        let edges = g.edges();
        let generators = if edges.len() > 1 { automorphisms(g) } else { Vec::new() };
        pair_orbit_representatives(g.n, &edges, &generators)
            .into_iter()
            .map(|(a, b)| {
                let mut p = *g;
                p.remove_edge(a, b);
                canonical(&p).code
            })
            .collect()
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

/// Each vertex's degree and the sum of its neighbours' degrees, packed (degree in the high
/// byte; the sum is at most 15 * 15, so it fits the low one): an isomorphism invariant of
/// vertices.
fn vertex_invariants(g: &SmallGraph) -> [u16; MAX_VERTICES] {
    let degree = g.adj.map(|m| m.count_ones() as u16);
    let mut out = [0u16; MAX_VERTICES];
    for (v, slot) in out.iter_mut().enumerate().take(g.n) {
        let mut rest = g.adj[v];
        let mut sum = 0u16;
        while rest != 0 {
            sum += degree[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        *slot = degree[v] << 8 | sum;
    }
    out
}

/// Whether the edge a-b of `g` has the largest edge invariant (its ends' vertex invariants,
/// larger first) among the edges of `g`: an isomorphism-invariant test, so isomorphic pairs
/// (graph, edge) answer alike. The definition of the forward filter, kept for the tests:
/// the engine computes it incrementally ([`largest_after_adding`], tested equal to this).
#[cfg(test)]
fn has_largest_edge_invariant(g: &SmallGraph, a: usize, b: usize) -> bool {
    let inv = vertex_invariants(g);
    let key = |x: usize, y: usize| {
        let (p, q) = (inv[x].max(inv[y]), inv[x].min(inv[y]));
        u32::from(p) << 16 | u32::from(q)
    };
    let mine = key(a, b);
    (0..g.n).all(|x| {
        let mut rest = g.adj[x] & !(((2u32 << x) - 1) as u16);
        while rest != 0 {
            let y = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if key(x, y) > mine {
                return false;
            }
        }
        true
    })
}

/// The number of legal moves of triangle avoidance at `g`, counted by bit loops without
/// listing them (the Winner's choice counts the replies to every move it considers).
pub(crate) fn triangle_avoidance_replies(g: &SmallGraph) -> usize {
    let mut count = 0;
    for a in 0..g.n {
        let mut rest = !g.adj[a] & crate::triangle_avoidance::canon::above(g.n, a);
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            count += usize::from(g.adj[a] & g.adj[b] == 0);
        }
    }
    count
}

/// [`has_largest_edge_invariant`] of `g` + a-b at the edge a-b, from the vertex invariants
/// of `g` (`invariants`), without building the child's: adding a-b raises the degrees of a
/// and b by one, so each neighbour of a (of b) gains one in its neighbour-degree sum, and a
/// (b) gains b's (a's) new degree. The edge has the largest invariant iff no vertex has a
/// larger one than its larger end (every such vertex has an edge, which would beat it) and
/// every edge at a vertex of that invariant has its other end no larger than a-b's smaller
/// end; only those vertices' edges are visited, not all of them.
fn largest_after_adding(
    g: &SmallGraph,
    invariants: &[u16; MAX_VERTICES],
    a: usize,
    b: usize,
) -> bool {
    let mut inv = [0u16; MAX_VERTICES];
    for (v, slot) in inv.iter_mut().enumerate().take(g.n) {
        *slot = invariants[v] + (g.adj[a] >> v & 1) + (g.adj[b] >> v & 1);
    }
    let (da, db) = (g.adj[a].count_ones() as u16 + 1, g.adj[b].count_ones() as u16 + 1);
    inv[a] += 1 << 8 | db;
    inv[b] += 1 << 8 | da;
    let (top, low) = (inv[a].max(inv[b]), inv[a].min(inv[b]));
    (0..g.n).all(|x| {
        if inv[x] != top {
            return inv[x] < top;
        }
        let mut rest = g.adj[x]; // plus a-b itself, whose other end is at most `low`
        while rest != 0 {
            let y = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if inv[y] > low {
                return false;
            }
        }
        true
    })
}

/// A winning move considered: ((the other player's replies, the child's code), the edge, the
/// permutation onto the child) — the least rank is kept.
pub(crate) type Choice<P> = ((usize, u128), (usize, usize), P);

/// The Winner's move at `g`: among the winning moves, the one leaving the fewest replies (the
/// certificate lists every reply, so it stays small), ties to the smaller child code (so that
/// parents meet on the same children). `winning` canonicalises a child and gives its code and
/// permutation if it is lost for the other player, `None` otherwise. Moves are tried by
/// increasing replies and the search stops after the first group of equal replies that holds
/// a winning move: the choice is the same as ranking every move, with far fewer canonical
/// forms (both certificate writers use it, so both engines certify the same strategy).
pub(crate) fn winners_choice<P>(
    g: &SmallGraph,
    mut winning: impl FnMut(&SmallGraph) -> Option<(u128, P)>,
) -> Option<Choice<P>> {
    let mut by_replies: Vec<(usize, (usize, usize), SmallGraph)> = Rules::TriangleAvoidance
        .moves(g)
        .into_iter()
        .map(|(a, b)| {
            let mut child = *g;
            child.add_edge(a, b);
            (triangle_avoidance_replies(&child), (a, b), child)
        })
        .collect();
    by_replies.sort_by_key(|&(replies, edge, _)| (replies, edge));
    let mut best: Option<Choice<P>> = None;
    for (k, (replies, edge, child)) in by_replies.iter().enumerate() {
        if let Some((code, perm)) = winning(child) {
            if best.as_ref().is_none_or(|(rank, _, _)| (*replies, code) < *rank) {
                best = Some(((*replies, code), *edge, perm));
            }
        }
        let group_ends = by_replies.get(k + 1).is_none_or(|next| next.0 != *replies);
        if group_ends && best.is_some() {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;

    /// The forward filter is sound only if its test is an isomorphism invariant of (graph,
    /// edge): relabelling both must not change the answer. Random graphs on up to 16
    /// vertices (the last vertex's bit included), every edge, a random relabelling each.
    #[test]
    fn the_largest_edge_test_is_an_isomorphism_invariant() {
        let mut rng = Rng::new(5);
        let (mut kept, mut dropped) = (0, 0);
        for round in 0..2000 {
            let n = 2 + round % 15;
            let mut g = SmallGraph::empty(n);
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(100) < 30 {
                        g.add_edge(a, b);
                    }
                }
            }
            let mut perm: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let h = g.permuted(&perm);
            for (a, b) in g.edges() {
                let here = has_largest_edge_invariant(&g, a, b);
                let there = has_largest_edge_invariant(&h, perm[a] as usize, perm[b] as usize);
                assert_eq!(here, there, "round {round}, edge {a}-{b}");
                if here {
                    kept += 1;
                } else {
                    dropped += 1;
                }
            }
        }
        // The filter must actually filter, or it saves nothing.
        assert!(kept > 1000 && dropped > 2 * kept, "{kept} kept, {dropped} dropped");
    }

    /// The forward filter's incremental test agrees with the test on the built child, for
    /// every non-edge of random graphs of every size and density (odd-cycle avoidance's
    /// moves may join two vertices with common neighbours, so those are included).
    #[test]
    fn the_incremental_largest_edge_test_agrees_with_the_direct_one() {
        let mut rng = Rng::new(29);
        let (mut kept, mut dropped) = (0, 0);
        for round in 0..3000 {
            let n = 2 + round % 15;
            let percent = rng.below(60);
            let mut g = SmallGraph::empty(n);
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(100) < percent {
                        g.add_edge(a, b);
                    }
                }
            }
            let invariants = vertex_invariants(&g);
            for a in 0..n {
                for b in a + 1..n {
                    if g.has_edge(a, b) {
                        continue;
                    }
                    let mut h = g;
                    h.add_edge(a, b);
                    let direct = has_largest_edge_invariant(&h, a, b);
                    assert_eq!(
                        largest_after_adding(&g, &invariants, a, b),
                        direct,
                        "round {round}, {a}-{b}"
                    );
                    if direct {
                        kept += 1;
                    } else {
                        dropped += 1;
                    }
                }
            }
        }
        assert!(kept > 1000 && dropped > 1000, "{kept} kept, {dropped} dropped");
    }

    /// The counting shortcuts agree with the listed moves: `has_move` with a non-empty list
    /// for every game, the reply count with the list's length for triangle avoidance, on
    /// random graphs of every density (terminal and triangle-free ones included).
    #[test]
    fn move_counts_agree_with_the_listed_moves() {
        let mut rng = Rng::new(11);
        let (mut terminal, mut open) = (0, 0);
        for round in 0..3000 {
            let n = 1 + round % 16;
            let percent = rng.below(100);
            let mut g = SmallGraph::empty(n);
            for a in 0..n {
                for b in a + 1..n {
                    // Triangle-free half of the time, so that triangle avoidance has moves.
                    if rng.below(100) < percent && (round % 2 == 0 || g.adj[a] & g.adj[b] == 0) {
                        g.add_edge(a, b);
                    }
                }
            }
            for rules in [
                Rules::TriangleAvoidance,
                Rules::TriangleAchievement,
                Rules::OddCycleAvoidance,
                Rules::ConnectedAvoidance,
            ] {
                let moves = rules.moves(&g);
                assert_eq!(rules.has_move(&g), !moves.is_empty(), "round {round} {rules:?}");
                if moves.is_empty() {
                    terminal += 1;
                } else {
                    open += 1;
                }
            }
            let listed = Rules::TriangleAvoidance.moves(&g).len();
            assert_eq!(triangle_avoidance_replies(&g), listed, "round {round}");
        }
        assert!(terminal > 500 && open > 500, "{terminal} terminal, {open} with moves");
    }

    /// Over a whole level the filtered children are the distinct children: the
    /// completeness argument of the out-of-core forward pass, checked directly for every
    /// level of triangle and odd-cycle avoidance on 8 vertices.
    #[test]
    fn filtered_children_cover_every_next_level() {
        use std::collections::BTreeSet;
        for rules in [Rules::TriangleAvoidance, Rules::OddCycleAvoidance] {
            let n = 8;
            let mut level: BTreeSet<u128> =
                [crate::triangle_avoidance::canon::canonical(&SmallGraph::empty(n)).code].into();
            let mut levels = 0;
            while !level.is_empty() {
                let mut all = BTreeSet::new();
                let mut filtered = BTreeSet::new();
                for &code in &level {
                    let g = SmallGraph::from_code(n, code);
                    all.extend(rules.distinct_children(&g));
                    filtered.extend(rules.augmented_children(&g));
                }
                assert_eq!(filtered, all, "{} level {levels}", rules.name());
                level = all;
                levels += 1;
            }
            assert!(levels > 10, "{}: {levels} levels", rules.name());
        }
    }
}

//! One-colour triangle avoidance (seed 002) and the replay of a winning strategy over
//! unlabelled positions, checked without ever computing a canonical form.
//!
//! Rules: A and B alternately add an edge to n isolated nodes, A first; whoever completes a
//! triangle loses. A position is a triangle-free graph; a legal move adds an edge whose ends
//! have no common neighbour; a player with no legal move loses (every move would close a
//! triangle).
//!
//! # Certificates
//!
//! ```json
//! {"kind": "triangle-strategy", "n": 4, "winner": "B",
//!  "positions": ["0", "20", ...],
//!  "moves": [[0, [[0, 1, 1, "0123"]]], [1, [[0, 2, 3, "0132"], [2, 3, 2, "0123"]]], ...]}
//! ```
//!
//! `positions` lists graphs by adjacency code in hexadecimal: the upper triangle of the
//! adjacency matrix, row by row (pairs (0,1), (0,2), ..., (0,n-1), (1,2), ...), the first pair
//! the most significant bit. Position 0 must be the empty graph. `moves` gives, for a position
//! (by index), its moves as `[a, b, target, permutation]`: adding edge a-b and relabelling
//! vertex v as `permutation[v]` (one hexadecimal digit per vertex) gives exactly the graph
//! `positions[target]`. At the Winner's positions exactly one move is listed; at the other
//! player's positions every legal move must be listed. The checker replays from position 0
//! (A to move, then alternately), each position once: it verifies each listed graph is
//! triangle-free, each move legal, each permutation a permutation that maps the resulting graph
//! onto its target edge for edge, that the Winner always has a move and that every legal move
//! of the other player is covered. Relabelling preserves the game (an isomorphism maps legal
//! moves to legal moves), so a strategy for the listed representatives is one for every
//! position it stands for. Nothing is trusted beyond the rules.

use crate::base::budget::Budget;
use crate::replay::{replay, Node, Rules};
use crate::verdict::{reject, Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Largest n a certificate may use (one hexadecimal digit per vertex in a permutation).
pub const MAX_N: usize = 16;

/// A move: edge a-b, then the target position and the relabelling onto it.
pub type TriangleMove = (usize, usize, usize, String);

/// Certificate kind `triangle-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangleStrategy {
    pub n: usize,
    /// "A" (the first player) or "B".
    pub winner: String,
    /// Adjacency codes in hexadecimal.
    pub positions: Vec<String>,
    /// (position index, its moves).
    pub moves: Vec<(usize, Vec<TriangleMove>)>,
}

/// What the replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TriangleReport {
    pub positions: u64,
    pub moves_checked: u64,
    /// Positions where the loser had no legal move.
    pub final_positions: u64,
}

/// A graph as one adjacency bitmask per vertex.
pub type Adjacency = [u16; MAX_N];

fn decode(n: usize, hex: &str, at: &str) -> Result<Adjacency, String> {
    let code = u128::from_str_radix(hex, 16)
        .map_err(|_| format!("{at}: '{hex}' is not a hexadecimal adjacency code"))?;
    adjacency(n, code).map_err(|why| format!("{at}: '{hex}' {why}"))
}

/// The graph of adjacency code `code` on `n <= 16` vertices; the error (a code with bits
/// beyond the pairs of `n` vertices) is a phrase to follow the code's name.
pub(crate) fn adjacency(n: usize, code: u128) -> Result<Adjacency, String> {
    let pairs = n * n.saturating_sub(1) / 2;
    ensure!(
        pairs >= 128 || code >> pairs == 0,
        "has bits beyond the {pairs} pairs of {n} vertices"
    );
    let mut adj = [0u16; MAX_N];
    let mut bit = pairs;
    for i in 0..n {
        for j in i + 1..n {
            bit -= 1;
            if code >> bit & 1 == 1 {
                adj[i] |= 1 << j;
                adj[j] |= 1 << i;
            }
        }
    }
    Ok(adj)
}

pub(crate) fn edges(adj: &Adjacency) -> usize {
    adj.iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2
}

/// A triangle of the graph `adj` on `n` vertices, if it has one.
pub fn triangle(n: usize, adj: &Adjacency) -> Option<(usize, usize, usize)> {
    for a in 0..n {
        for b in a + 1..n {
            if adj[a] >> b & 1 == 1 && adj[a] & adj[b] != 0 {
                return Some((a, b, (adj[a] & adj[b]).trailing_zeros() as usize));
            }
        }
    }
    None
}

/// Replays `strategy`, charging `budget` for every position decoded and move verified.
pub fn check_triangle_strategy(
    strategy: &TriangleStrategy,
    budget: &mut Budget,
) -> Result<TriangleReport, String> {
    let n = strategy.n;
    if !(1..=MAX_N).contains(&n) {
        fail!("n = {n} is outside 1..={MAX_N}");
    }
    let winner_is_a = match strategy.winner.as_str() {
        "A" => true,
        "B" => false,
        other => fail!("winner '{other}' is neither \"A\" nor \"B\""),
    };
    // Decoding a position and looking for a triangle: about n^2 steps, and 32 bytes held.
    let square = (n * n) as u64;
    budget.charge_each(strategy.positions.len() as u64, square + 64, "decoding the positions")?;
    budget.charge_each(strategy.moves.len() as u64, 64, "reading the moves")?;
    let mut graphs = Vec::with_capacity(strategy.positions.len());
    for (k, hex) in strategy.positions.iter().enumerate() {
        let adj = decode(n, hex, &format!("positions[{k}]"))?;
        if let Some((a, b, c)) = triangle(n, &adj) {
            fail!("positions[{k}] has the triangle {a}-{b}-{c}: not a position of the game");
        }
        graphs.push(adj);
    }
    if graphs.first().map(edges) != Some(0) {
        return Err("positions[0] must be the empty graph (the start)".into());
    }
    let mut moves: HashMap<usize, &[TriangleMove]> = HashMap::new();
    for (k, (p, list)) in strategy.moves.iter().enumerate() {
        ensure!(*p < graphs.len(), "moves[{k}]: position {p} does not exist");
        if moves.insert(*p, list).is_some() {
            fail!("moves[{k}]: position {p} is given twice");
        }
    }
    let mut walk =
        Walk { strategy, graphs: &graphs, moves, winner_is_a, path: vec![0], followed: 0 };
    let walked = replay(&mut walk, budget)?;
    Ok(TriangleReport {
        positions: walked.positions,
        moves_checked: walk.followed,
        final_positions: walked.leaves,
    })
}

/// The replay over listed positions: the current one is the last of `path`.
struct Walk<'s> {
    strategy: &'s TriangleStrategy,
    graphs: &'s [Adjacency],
    moves: HashMap<usize, &'s [TriangleMove]>,
    winner_is_a: bool,
    path: Vec<usize>,
    followed: u64,
}

impl<'s> Rules for Walk<'s> {
    /// A listed move, by its index in the position's list.
    type Move = usize;

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1] as u128
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<usize>, String> {
        let (n, p) = (self.strategy.n, self.path[self.path.len() - 1]);
        let square = (n * n) as u64;
        let listed = self.moves.get(&p).copied().unwrap_or(&[]);
        // The legal moves, and each listed move verified (a relabelling is n^2 steps).
        budget.charge(square + 16 + listed.len() as u64 * (square + 64), "replaying positions")?;
        let g = &self.graphs[p];
        let winner_to_move = edges(g).is_multiple_of(2) == self.winner_is_a;
        let legal: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|&(a, b)| g[a] >> b & 1 == 0 && g[a] & g[b] == 0)
            .collect();
        let shown = &self.strategy.positions[p];
        if winner_to_move {
            ensure!(
                !(listed.is_empty() && legal.is_empty()),
                "position {p} ('{shown}'): the Winner is to move and every move closes a triangle"
            );
            ensure!(
                listed.len() == 1,
                "position {p}: the Winner is to move, so exactly one move must be listed (found {})",
                listed.len()
            );
            return Ok(Node::Moves(vec![0]));
        }
        if legal.is_empty() {
            return Ok(Node::Leaf);
        }
        // Every listed move is one of the loser's legal moves, listed once: nothing in the
        // certificate is ignored.
        let mut by_edge: HashMap<(usize, usize), usize> = HashMap::new();
        for (k, m) in listed.iter().enumerate() {
            let edge = (m.0.min(m.1), m.0.max(m.1));
            let is_legal = edge.1 < n
                && edge.0 != edge.1
                && g[edge.0] >> edge.1 & 1 == 0
                && g[edge.0] & g[edge.1] == 0;
            ensure!(
                is_legal,
                "position {p}: the listed move {}-{} is not a legal move of the loser",
                m.0,
                m.1
            );
            ensure!(
                by_edge.insert(edge, k).is_none(),
                "position {p}: the move {}-{} is listed twice",
                edge.0,
                edge.1
            );
        }
        let mut replies = Vec::with_capacity(legal.len());
        for (a, b) in legal {
            let Some(&k) = by_edge.get(&(a, b)) else {
                fail!("position {p} ('{shown}'): the loser's move {a}-{b} is not answered");
            };
            replies.push(k);
        }
        // Explored last first, as the replay before the engine did (the first failure found
        // is the one reported).
        replies.reverse();
        Ok(Node::Moves(replies))
    }

    fn play(&mut self, k: usize, _: &mut Budget) -> Result<(), String> {
        let p = self.path[self.path.len() - 1];
        let m = &self.moves[&p][k];
        let target = follow(self.strategy.n, self.graphs, &self.graphs[p], m, p)?;
        self.followed += 1;
        self.path.push(target);
        Ok(())
    }

    fn undo(&mut self, _: usize) {
        self.path.pop();
    }
}
/// Verifies one move from position `p` (graph `g`) and returns its target.
fn follow(
    n: usize,
    graphs: &[Adjacency],
    g: &Adjacency,
    (a, b, target, perm): &TriangleMove,
    p: usize,
) -> Result<usize, String> {
    let (a, b, target) = (*a, *b, *target);
    // Built only for a message: this runs once per move of a strategy of millions.
    let at = || format!("position {p}, move {a}-{b}");
    if a >= n || b >= n || a == b {
        fail!("{}: not an edge of {n} nodes", at());
    }
    if g[a] >> b & 1 == 1 {
        fail!("{}: the edge is already there", at());
    }
    ensure!(g[a] & g[b] == 0, "{}: closes a triangle", at());
    let Some(goal) = graphs.get(target) else {
        fail!("{}: target {target} does not exist", at());
    };
    let not_a_permutation = || format!("{}: '{perm}' is not a permutation of 0..{n}", at());
    ensure!(perm.len() == n, "{}: '{perm}' has {} digits, not {n}", at(), perm.chars().count());
    let mut digits = [0usize; MAX_N];
    let mut hit = 0u32;
    for (k, c) in perm.bytes().enumerate() {
        let d = char::from(c)
            .to_digit(16)
            .ok_or_else(|| format!("{}: permutation '{perm}' is not hexadecimal digits", at()))?
            as usize;
        if d >= n || hit >> d & 1 == 1 {
            return Err(not_a_permutation());
        }
        hit |= 1 << d;
        digits[k] = d;
    }
    let image = moved_and_relabelled(n, g, (a, b), &digits);
    ensure!(
        image == *goal,
            "{}: the permutation '{perm}' maps the resulting graph to a different graph than position {target}",
            at()
    );
    Ok(target)
}

/// `g` with the edge a-b added, relabelled by `digits` (vertex v becomes `digits[v]`; every
/// digit below n <= 16, checked by the caller).
pub(crate) fn moved_and_relabelled(
    n: usize,
    g: &Adjacency,
    (a, b): (usize, usize),
    digits: &[usize; MAX_N],
) -> Adjacency {
    let mut after = *g;
    after[a] |= 1 << b;
    after[b] |= 1 << a;
    // The image of each edge: walk the set bits of each row.
    let mut image = [0u16; MAX_N];
    for v in 0..n {
        let mut row = after[v];
        while row != 0 {
            let w = row.trailing_zeros() as usize;
            row &= row - 1;
            image[digits[v]] |= 1 << digits[w];
        }
    }
    image
}

/// The adjacency code of `adj` on `n` vertices (the inverse of [`adjacency`]).
pub(crate) fn code_of(n: usize, adj: &Adjacency) -> u128 {
    let mut code = 0u128;
    for (i, row) in adj.iter().enumerate().take(n) {
        for j in i + 1..n {
            code = code << 1 | u128::from(row >> j & 1);
        }
    }
    code
}

/// Instance kind `triangle-avoidance`: one-colour triangle avoidance on `n` isolated nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangleSpec {
    pub n: usize,
}

impl TriangleSpec {
    /// Checks that `n` is in the supported range.
    pub fn validate(&self) -> Result<(), String> {
        ensure!(
            (1..=MAX_N).contains(&self.n),
            "n = {} is outside the supported range 1..={MAX_N}",
            self.n
        );
        Ok(())
    }
}

impl Claim for TriangleStrategy {
    fn claim(&self) -> String {
        format!("{} wins", self.winner)
    }
}

/// Registry entry for `triangle-strategy`.
pub fn strategy_verdict(
    spec: &TriangleSpec,
    strategy: &TriangleStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim =
        format!("{} wins one-colour triangle avoidance on {} nodes", strategy.winner, strategy.n);
    if strategy.n != spec.n {
        let why =
            format!("the certificate is for n = {}, the instance for n = {}", strategy.n, spec.n);
        return reject(claim, why, Work::default());
    }
    Verdict::decide(
        claim,
        check_triangle_strategy(strategy, budget),
        |report| {
            let reason = format!(
                "the Winner's strategy replayed against every move of the other player: {}, {} \
                 mapped onto stored positions by verified permutations, {}",
                crate::base::text::counted(report.positions, "position"),
                crate::base::text::counted(report.moves_checked, "move"),
                crate::base::text::counted(report.final_positions, "final position")
            );
            let work = Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                ..Work::default()
            };
            (reason, work)
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;

    /// B's winning strategy for n = 4 (the paper's Figure 2): A1 = 01; B1 = 23 (two disjoint
    /// edges); A2 joins them into a path; B2 closes the 4-cycle; A has no move.
    fn four() -> TriangleStrategy {
        // Codes over pairs 01 02 03 12 13 23 (bits 5..0).
        let empty = "0";
        let k2 = "20"; // 01
        let two_k2 = "21"; // 01, 23
        let p4 = "25"; // 01, 12, 23: 0b100101
        let c4 = "2d"; // 01, 03, 12, 23: 0b101101
        let s = |x: &str| x.to_string();
        TriangleStrategy {
            n: 4,
            winner: "B".into(),
            positions: vec![s(empty), s(k2), s(two_k2), s(p4), s(c4)],
            moves: vec![
                // Every first move of A is an edge: map it to 01.
                (
                    0,
                    vec![
                        (0, 1, 1, s("0123")),
                        (0, 2, 1, s("0213")),
                        (0, 3, 1, s("0231")),
                        (1, 2, 1, s("2013")),
                        (1, 3, 1, s("2031")),
                        (2, 3, 1, s("2301")),
                    ],
                ),
                (1, vec![(2, 3, 2, s("0123"))]),
                // From 01, 23 every A move joins the two edges into a path: relabel to 0-1-2-3.
                (
                    2,
                    vec![
                        (0, 2, 3, s("1023")),
                        (0, 3, 3, s("1032")),
                        (1, 2, 3, s("0123")),
                        (1, 3, 3, s("0132")),
                    ],
                ),
                (3, vec![(0, 3, 4, s("0123"))]),
            ],
        }
    }

    #[test]
    fn figure_2_strategy_checks() {
        let r = check_triangle_strategy(&four(), &mut Budget::new(100_000)).unwrap();
        assert_eq!(r.final_positions, 1);
        assert_eq!(r.positions, 5);
    }

    #[test]
    fn mutations_are_rejected() {
        let mut missing = four();
        missing.moves[2].1.pop();
        let err = check_triangle_strategy(&missing, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("the loser's move 1-3 is not answered"), "{err}");
        let mut bad_perm = four();
        bad_perm.moves[0].1[1].3 = "0113".into();
        let err = check_triangle_strategy(&bad_perm, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("not a permutation"), "{err}");
        let mut wrong_map = four();
        wrong_map.moves[0].1[1].3 = "0123".into();
        let err = check_triangle_strategy(&wrong_map, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("different graph"), "{err}");
        let mut triangle_move = four();
        triangle_move.moves[3].1[0] = (0, 2, 4, "0123".into());
        let err = check_triangle_strategy(&triangle_move, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("closes a triangle"), "{err}");
        let mut wrong_winner = four();
        wrong_winner.winner = "A".into();
        assert!(check_triangle_strategy(&wrong_winner, &mut Budget::new(100_000)).is_err());
        let mut bad_code = four();
        bad_code.positions[4] = "zz".into();
        let err = check_triangle_strategy(&bad_code, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("not a hexadecimal"), "{err}");
    }
}

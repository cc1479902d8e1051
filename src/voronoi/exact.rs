//! Exact solver for the multi-round Voronoi game on small graphs (at most 128 vertices), with
//! strategy certificates for both players.
//!
//! Negamax-style alpha-beta on W's margin (|V_W| - |V_B| at the end; W maximises, B minimises)
//! with a transposition table keyed by the two players' vertex sets (bitmasks), storing exact
//! values and bounds. Final positions are scored with bitset BFS layers. The value `v` is then
//! certified twice: W's strategy with the claim "margin at least v" and B's with "margin at
//! least -v" (B holds W to v); the checker replays both, which together fix the value.
//!
//! Symmetry: twins. Two vertices with the same neighbours (false twins, e.g. pendants of one
//! vertex) or the same closed neighbourhoods (true twins) can be swapped by an automorphism, and
//! when both are empty the swap fixes the position. So among the empty members of a twin class
//! only the first (in move order) is searched, and the certificates declare the classes (listed
//! in move order), which the checker verifies once and then uses the same way.
//!
//! Symmetry on trees ([`ExactSolver::with_tree_symmetry`]): swaps of sibling subtrees with
//! identical contents ([`crate::voronoi::tree_symmetry::SiblingSwaps`]). At every position only one move per orbit
//! of the swaps fixing it is searched (the orbit's smallest vertex), and the certificates
//! declare the swaps as generators with an `orbits` entry at each opponent position, which the
//! checker verifies and folds the same way. Twin classes are used at the positions without
//! such an entry: the last move of the game, where scoring a leaf costs less than computing
//! the orbits. Other automorphisms are not searched for.
//!
//! Size limits (see [`crate::base::limits`]): the positions the search can store are bounded by
//! [`position_bound`], the (W set, B set) pairs reachable from the start; `solve` runs the
//! search under [`node_cap`] search nodes (each stores at most one transposition-table entry
//! of at most [`BYTES_PER_NODE`] bytes, and certificate extraction gets the same budget again),
//! and refuses the instance, naming the bound and the cap, when the search passes it. The
//! bound is an upper bound on the table, not on the work: pruning, twins and tree symmetry
//! usually keep the search far below it, so an instance is only refused when the search
//! really passes the cap.

use gamecert_certificates::format::MultiRound;
use gamecert_certificates::voronoi::multi_round::{StrategyClaim, VoronoiStrategy, VoronoiValue};
use gamecert_certificates::voronoi::rules::Player;
use std::collections::{HashMap, HashSet};

/// Largest graph the bitmask representation allows.
pub const MAX_VERTICES: usize = 128;

/// Memory per search node at worst: one transposition-table entry (a 32-byte key and a 16-byte
/// value in a hash table at its lowest load, about 110 bytes) and one strategy position (a
/// position string of up to 128 characters and a vertex name).
pub const BYTES_PER_NODE: u64 = 256;

/// The search nodes `solve` allows each of its two phases (the value, then the strategies):
/// half the memory allowance at [`BYTES_PER_NODE`] each, about 16.8 million (a 60-vertex
/// random graph with 5 rounds reaches it and is refused after 5 s, at 0.15 GB: most nodes
/// store nothing new, so the bound per node is far from tight).
pub fn node_cap() -> u64 {
    crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_NODE / 2
}

/// An upper bound on the positions the search can store: the (W set, B set) pairs reachable
/// from the start, `sum C(F, a) C(F - a, b)` over the stone counts (a, b) the players add in
/// turn (F the empty vertices at the start). Saturates at `u128::MAX`.
pub fn position_bound(game: &MultiRound) -> u128 {
    let count = |c: u8| game.start.iter().filter(|&&x| x == c).count();
    let (w0, b0) = (count(b'W'), count(b'B'));
    let free = (game.start.len() - w0 - b0) as u128;
    let rounds = game.rounds;
    let (mut cw, mut cb) = (w0, b0);
    let mut total: u128 = 0;
    loop {
        let (a, b) = ((cw - w0) as u128, (cb - b0) as u128);
        if a + b > free {
            break;
        }
        let here = crate::base::limits::binomial(free, a)
            .saturating_mul(crate::base::limits::binomial(free - a, b));
        total = total.saturating_add(here);
        // The solver's own turn rule ([`ExactSolver::to_move`]).
        if cw >= rounds && cb >= rounds {
            break;
        } else if cw == cb {
            cw += 1;
        } else {
            cb += 1;
        }
    }
    total
}

/// A set of vertices.
type Set = u128;

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The solver's state: the game, adjacency bitmasks and the transposition table.
pub struct ExactSolver<'a> {
    game: &'a MultiRound,
    adjacency: Vec<Set>,
    all: Set,
    table: HashMap<(Set, Set), (i64, Bound)>,
    /// Search nodes visited so far.
    pub nodes: u64,
    order: Vec<usize>,
    /// Search nodes allowed; past it the search unwinds and the result is discarded.
    node_limit: u64,
    /// Twin class of each vertex (vertices alone in their class have a class of their own).
    class: Vec<usize>,
    classes: usize,
    /// Sibling-subtree swaps of a rooted tree, when enabled.
    symmetry: Option<(
        crate::voronoi::tree_symmetry::RootedTree,
        crate::voronoi::tree_symmetry::SiblingSwaps,
    )>,
}

/// The value of a game and certificates for both sides.
pub struct Solution {
    /// W's margin under optimal play.
    pub value: i64,
    pub white: VoronoiStrategy,
    pub black: VoronoiStrategy,
    pub nodes: u64,
}

impl Solution {
    /// The two strategies as one `voronoi-value` certificate.
    pub fn certificate(&self) -> VoronoiValue {
        VoronoiValue { value: self.value, white: self.white.clone(), black: self.black.clone() }
    }
}

impl<'a> ExactSolver<'a> {
    /// A solver for `game`; refuses graphs over [`MAX_VERTICES`].
    pub fn new(game: &'a MultiRound) -> Result<Self, String> {
        let n = game.graph.len();
        if n > MAX_VERTICES {
            return Err(format!(
                "the exact solver handles at most {MAX_VERTICES} vertices, the graph has {n}"
            ));
        }
        let adjacency: Vec<Set> = (0..n)
            .map(|v| game.graph.neighbours(v).iter().fold(0, |m: Set, &w| m | 1 << w))
            .collect();
        // Busy vertices first: they tend to be the good moves, which makes cut-offs early.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(game.graph.neighbours(v).len()));
        // Class ids: one per twin class, then one for each vertex outside every class.
        let mut class = vec![usize::MAX; n];
        let mut classes = 0;
        for members in twin_classes(&game.graph) {
            for v in members {
                class[v] = classes;
            }
            classes += 1;
        }
        for c in class.iter_mut().filter(|c| **c == usize::MAX) {
            *c = classes;
            classes += 1;
        }
        Ok(ExactSolver {
            game,
            adjacency,
            all: if n == 128 { Set::MAX } else { (1 << n) - 1 },
            table: HashMap::new(),
            nodes: 0,
            order,
            class,
            classes,
            node_limit: u64::MAX,
            symmetry: None,
        })
    }

    /// Folds moves by swaps of sibling subtrees of the tree rooted at `root` (see the module
    /// docs); fails if the graph is not a tree.
    pub fn with_tree_symmetry(mut self, root: usize) -> Result<Self, String> {
        let tree = crate::voronoi::tree_symmetry::RootedTree::new(&self.game.graph, root)?;
        self.symmetry = Some((tree, crate::voronoi::tree_symmetry::SiblingSwaps::default()));
        Ok(self)
    }

    /// The empty vertices worth trying, in move order, and the symmetry generators fixing the
    /// position (tree symmetry before the last move): the smallest vertex of each orbit, or
    /// else the first empty member of each twin class.
    fn candidates(&mut self, w: Set, b: Set) -> (Vec<usize>, Vec<usize>) {
        let free = self.all & !(w | b);
        // Before the last move only: there a leaf costs less to score than the orbits do.
        let moves_left = 2 * self.game.rounds - (w | b).count_ones() as usize;
        let position = if self.symmetry.is_some() && moves_left >= 2 {
            Some(self.position(w, b).into_bytes())
        } else {
            None
        };
        if let (Some(position), Some((tree, swaps))) = (position, self.symmetry.as_mut()) {
            let fixing = swaps.fixing(tree, &position);
            let representative = swaps.representatives(position.len(), &fixing);
            let reps = self
                .order
                .iter()
                .copied()
                .filter(|&v| free >> v & 1 == 1 && representative[v] == v)
                .collect();
            return (reps, fixing);
        }
        let mut first: Vec<bool> = vec![false; self.classes];
        let reps = self
            .order
            .iter()
            .copied()
            .filter(|&v| free >> v & 1 == 1 && !std::mem::replace(&mut first[self.class[v]], true))
            .collect();
        (reps, Vec::new())
    }

    fn start(&self) -> (Set, Set) {
        let mut w: Set = 0;
        let mut b: Set = 0;
        for (v, &c) in self.game.start.iter().enumerate() {
            match c {
                b'W' => w |= 1 << v,
                b'B' => b |= 1 << v,
                _ => {}
            }
        }
        (w, b)
    }

    fn to_move(&self, w: Set, b: Set) -> Option<Player> {
        let (cw, cb) = (w.count_ones() as usize, b.count_ones() as usize);
        let rounds = self.game.rounds;
        if cw == rounds && cb == rounds {
            None
        } else if cw == cb {
            Some(Player::White)
        } else {
            Some(Player::Black)
        }
    }

    fn expand(&self, set: Set) -> Set {
        let mut out = set;
        let mut rest = set;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= self.adjacency[v];
        }
        out
    }

    /// W's margin in a final position, by BFS layers on bitsets.
    pub fn margin(&self, w: Set, b: Set) -> i64 {
        let (mut ball_w, mut ball_b) = (w, b);
        let mut open = self.all;
        let mut margin = 0i64;
        loop {
            let (new_w, new_b) = (ball_w & open, ball_b & open);
            if new_w | new_b == 0 {
                return margin;
            }
            margin += (new_w & !new_b).count_ones() as i64;
            margin -= (new_b & !new_w).count_ones() as i64;
            open &= !(new_w | new_b);
            ball_w = self.expand(ball_w);
            ball_b = self.expand(ball_b);
        }
    }

    /// W's margin under optimal play from (w, b), within the window (alpha, beta).
    fn search(&mut self, w: Set, b: Set, mut alpha: i64, mut beta: i64) -> i64 {
        self.nodes += 1;
        crate::base::solved::searched(self.nodes);
        if self.nodes > self.node_limit {
            return 0; // Unwinding: the caller sees the limit passed and discards everything.
        }
        let Some(player) = self.to_move(w, b) else {
            return self.margin(w, b);
        };
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&(value, bound)) = self.table.get(&(w, b)) {
            match bound {
                Bound::Exact => return value,
                Bound::Lower => alpha = alpha.max(value),
                Bound::Upper => beta = beta.min(value),
            }
            if alpha >= beta {
                return value;
            }
        }
        let mut best = match player {
            Player::White => i64::MIN,
            Player::Black => i64::MAX,
        };
        let (candidates, _) = self.candidates(w, b);
        for v in candidates {
            match player {
                Player::White => {
                    let value = self.search(w | 1 << v, b, alpha, beta);
                    best = best.max(value);
                    alpha = alpha.max(value);
                }
                Player::Black => {
                    let value = self.search(w, b | 1 << v, alpha, beta);
                    best = best.min(value);
                    beta = beta.min(value);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert((w, b), (best, bound));
        best
    }

    /// The exact value (W's margin) from (w, b).
    fn value(&mut self, w: Set, b: Set) -> i64 {
        self.search(w, b, i64::MIN + 1, i64::MAX - 1)
    }

    /// Whether W's margin from (w, b) is at least `t` (a null-window search).
    fn at_least(&mut self, w: Set, b: Set, t: i64) -> bool {
        self.search(w, b, t - 1, t) >= t
    }

    fn position(&self, w: Set, b: Set) -> String {
        (0..self.game.graph.len())
            .map(|v| {
                if w >> v & 1 == 1 {
                    'W'
                } else if b >> v & 1 == 1 {
                    'B'
                } else {
                    '.'
                }
            })
            .collect()
    }

    /// `player`'s strategy guaranteeing W's margin >= `target` (White) or <= `target` (Black).
    fn strategy(&mut self, player: Player, target: i64) -> VoronoiStrategy {
        let mut moves = Vec::new();
        let mut orbits = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![self.start()];
        while let Some((w, b)) = stack.pop() {
            if !seen.insert((w, b)) {
                continue;
            }
            let Some(mover) = self.to_move(w, b) else {
                continue;
            };
            let (candidates, fixing) = self.candidates(w, b);
            if mover == player {
                let chosen = candidates.iter().copied().find(|&v| match player {
                    Player::White => self.at_least(w | 1 << v, b, target),
                    Player::Black => !self.at_least(w, b | 1 << v, target + 1),
                });
                let Some(v) = chosen else {
                    // Only a search cut short by the node limit can miss the move; the caller
                    // then discards the strategy.
                    assert!(
                        self.nodes > self.node_limit,
                        "a position of value `target` has a move keeping it"
                    );
                    break;
                };
                moves.push((self.position(w, b), self.game.graph.name(v).to_string()));
                stack.push(match player {
                    Player::White => (w | 1 << v, b),
                    Player::Black => (w, b | 1 << v),
                });
            } else {
                if !fixing.is_empty() {
                    orbits.push((self.position(w, b), fixing));
                }
                for v in candidates {
                    stack.push(match mover {
                        Player::White => (w | 1 << v, b),
                        Player::Black => (w, b | 1 << v),
                    });
                }
            }
        }
        VoronoiStrategy {
            player,
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(match player {
                Player::White => target,
                Player::Black => -target,
            }),
            moves,
            symmetries: Vec::new(),
            twin_classes: self.declared_twin_classes(),
            generators: self
                .symmetry
                .as_ref()
                .map_or(Vec::new(), |(_, swaps)| swaps.named(&self.game.graph)),
            orbits,
            canonical_root: None,
        }
    }

    /// The twin classes with two or more members, each listed in move order (the order in
    /// which the checker picks a class's representative must be the solver's).
    fn declared_twin_classes(&self) -> Vec<Vec<String>> {
        let mut classes: Vec<Vec<String>> = vec![Vec::new(); self.classes];
        for &v in &self.order {
            classes[self.class[v]].push(self.game.graph.name(v).to_string());
        }
        classes.retain(|c| c.len() > 1);
        classes
    }

    /// The value from the start, searching the first move's alternatives in parallel (rayon),
    /// each with its own transposition table; returns the value and the nodes of all searches.
    pub fn parallel_value(game: &MultiRound) -> Result<(i64, u64), String> {
        use rayon::prelude::*;
        let mut root = ExactSolver::new(game)?;
        let (w, b) = root.start();
        let Some(player) = root.to_move(w, b) else {
            return Ok((root.margin(w, b), 1));
        };
        let (candidates, _) = root.candidates(w, b);
        let results: Vec<(i64, u64)> = candidates
            .par_iter()
            .map(|&v| {
                let mut solver = ExactSolver::new(game).expect("checked above");
                let value = match player {
                    Player::White => solver.value(w | 1 << v, b),
                    Player::Black => solver.value(w, b | 1 << v),
                };
                (value, solver.nodes)
            })
            .collect();
        let nodes = results.iter().map(|r| r.1).sum::<u64>() + 1;
        let values = results.iter().map(|r| r.0);
        let value = match player {
            Player::White => values.max(),
            Player::Black => values.min(),
        };
        Ok((value.expect("a position with a move has a candidate"), nodes))
    }

    /// The value from the start on this thread; returns the value and the nodes searched.
    pub fn sequential_value(mut self) -> (i64, u64) {
        let (w, b) = self.start();
        let value = self.value(w, b);
        (value, self.nodes)
    }

    /// [`ExactSolver::solve`] within `node_limit` search nodes, or `None` past it.
    pub fn solve_within(mut self, node_limit: u64) -> Option<Solution> {
        self.node_limit = node_limit;
        let (w, b) = self.start();
        let value = self.value(w, b);
        if self.nodes > node_limit {
            return None;
        }
        // Certificate extraction re-searches below the root; give it the same budget again.
        self.node_limit = self.nodes.saturating_add(node_limit);
        let white = self.strategy(Player::White, value);
        let black = self.strategy(Player::Black, value);
        (self.nodes <= self.node_limit).then_some(Solution {
            value,
            white,
            black,
            nodes: self.nodes,
        })
    }

    /// Solves the game and certifies the value for both players.
    pub fn solve(mut self) -> Solution {
        let (w, b) = self.start();
        let value = self.value(w, b);
        let white = self.strategy(Player::White, value);
        let black = self.strategy(Player::Black, value);
        Solution { value, white, black, nodes: self.nodes }
    }
}

/// The twin classes of a graph with two or more members, each in vertex order: vertices with
/// equal neighbourhoods, or equal closed neighbourhoods.
pub fn twin_classes(graph: &gamecert_certificates::base::graph::Graph) -> Vec<Vec<usize>> {
    let mut by_open: HashMap<Vec<usize>, Vec<usize>> = HashMap::new();
    let mut by_closed: HashMap<Vec<usize>, Vec<usize>> = HashMap::new();
    for v in 0..graph.len() {
        by_open.entry(graph.neighbours(v).to_vec()).or_default().push(v);
    }
    for v in 0..graph.len() {
        let mut closed = graph.neighbours(v).to_vec();
        closed.push(v);
        closed.sort_unstable();
        by_closed.entry(closed).or_default().push(v);
    }
    let mut classes: Vec<Vec<usize>> =
        by_open.into_values().chain(by_closed.into_values()).filter(|c| c.len() > 1).collect();
    classes.sort();
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;
    use gamecert_certificates::format::{GraphSpec, MultiRoundSpec};
    use gamecert_certificates::voronoi::multi_round::{
        check_strategy, check_value, margin, to_move,
    };

    fn plain_minimax(game: &MultiRound, position: &mut Vec<u8>) -> i64 {
        match to_move(position, game.rounds).unwrap() {
            None => margin(&game.graph, position, Player::White),
            Some(p) => {
                let mark = if p == Player::White { b'W' } else { b'B' };
                let mut values = Vec::new();
                for v in 0..position.len() {
                    if position[v] == b'.' {
                        position[v] = mark;
                        values.push(plain_minimax(game, position));
                        position[v] = b'.';
                    }
                }
                if p == Player::White {
                    *values.iter().max().unwrap()
                } else {
                    *values.iter().min().unwrap()
                }
            }
        }
    }

    #[test]
    fn agrees_with_plain_minimax_and_certificates_check() {
        let mut rng = Rng::new(99);
        for _ in 0..120 {
            let n = rng.range(2, 8) as usize;
            let rounds = rng.range(1, (n / 2).min(3) as u64) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(3) == 0 {
                        edges.push((a, b));
                    }
                }
            }
            let spec = MultiRoundSpec {
                graph: GraphSpec::numbered(n, &edges),
                rounds,
                start: None,
                source: None,
            };
            let game = spec.validate().unwrap();
            let expected = plain_minimax(&game, &mut vec![b'.'; n]);
            assert_eq!(ExactSolver::parallel_value(&game).unwrap().0, expected);
            let solution = ExactSolver::new(&game).unwrap().solve();
            assert_eq!(solution.value, expected, "{spec:?}");
            check_value(
                &game.graph,
                rounds,
                &game.start,
                &solution.certificate(),
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap();
            let mut greedy = solution.certificate();
            greedy.value += 1;
            assert!(check_value(
                &game.graph,
                rounds,
                &game.start,
                &greedy,
                &mut gamecert_certificates::base::budget::Budget::unlimited()
            )
            .is_err());
            for s in [&solution.white, &solution.black] {
                let r = check_strategy(
                    &game.graph,
                    rounds,
                    &game.start,
                    s,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap_or_else(|e| panic!("{e}: {spec:?}"));
                // Optimal play by the opponent reaches exactly the value.
                let worst = r.worst_margin.unwrap();
                match s.player {
                    Player::White => assert_eq!(worst, expected),
                    Player::Black => assert_eq!(worst, -expected),
                }
            }
        }
    }

    /// The position bound bounds the transposition table, from empty and non-empty starts.
    #[test]
    fn position_bound_bounds_the_table() {
        let mut rng = Rng::new(5);
        for _ in 0..60 {
            let n = rng.range(2, 9) as usize;
            let rounds = rng.range(1, (n / 2) as u64) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(3) == 0 {
                        edges.push((a, b));
                    }
                }
            }
            let start =
                (rounds >= 2 && rng.coin()).then(|| gamecert_certificates::format::StartSpec {
                    white: vec!["v0".into()],
                    black: if rng.coin() { vec!["v1".into()] } else { Vec::new() },
                });
            let spec = MultiRoundSpec {
                graph: GraphSpec::numbered(n, &edges),
                rounds,
                start,
                source: None,
            };
            let game = spec.validate().unwrap();
            let mut solver = ExactSolver::new(&game).unwrap();
            let (w, b) = solver.start();
            solver.value(w, b);
            let bound = position_bound(&game);
            assert!(solver.table.len() as u128 <= bound, "{spec:?}");
        }
        // Four isolated vertices, two rounds: 1 + 4 + 4 * 3 + 6 * 2 + 6 * 1 positions (the
        // final ones are scored, not stored).
        let spec = MultiRoundSpec {
            graph: GraphSpec::numbered(4, &[]),
            rounds: 2,
            start: None,
            source: None,
        };
        assert_eq!(position_bound(&spec.validate().unwrap()), 35);
    }

    /// Past the node cap the search gives up instead of growing.
    #[test]
    fn solve_within_gives_up() {
        let edges: Vec<(usize, usize)> = (0..11).map(|i| (i, i + 1)).collect();
        let spec = MultiRoundSpec {
            graph: GraphSpec::numbered(12, &edges),
            rounds: 3,
            start: None,
            source: None,
        };
        let game = spec.validate().unwrap();
        assert!(ExactSolver::new(&game).unwrap().solve_within(50).is_none());
        assert!(ExactSolver::new(&game).unwrap().solve_within(1 << 30).is_some());
    }

    /// Tree symmetry changes the work, never the value: every tree with 2 to 9 vertices, one
    /// and two rounds, rooted at a median, against the plain search; the folded certificates
    /// check.
    #[test]
    fn tree_symmetry_agrees_and_its_certificates_check() {
        for (spec, game, root) in crate::voronoi::trees::small_tree_games(9, 2) {
            let rounds = spec.rounds;
            let plain = ExactSolver::new(&game).unwrap().solve();
            let folded = ExactSolver::new(&game).unwrap().with_tree_symmetry(root).unwrap().solve();
            assert_eq!(plain.value, folded.value, "{spec:?}");
            check_value(
                &game.graph,
                rounds,
                &game.start,
                &folded.certificate(),
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap_or_else(|e| panic!("{e}: {spec:?}"));
        }
    }
}

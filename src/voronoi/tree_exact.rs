//! Exact solver for the multi-round Voronoi game on trees (at most 128 vertices), identifying
//! positions by their canonical form under the automorphisms fixing a root, with certificates
//! the checker replays the same way (`canonical_root`, see the checker's `multi_round` docs).
//!
//! Positions are (W set, B set) bitmasks plus the interned AHU ids of
//! [`gamecert_certificates::base::tree_canon`], updated along the path to the root at every
//! move. The transposition table is keyed by the class of the whole position, so a position
//! reached in another order, or an image of one under any root-fixing automorphism (on a
//! complete binary tree of height 4, 2^15 of them), is searched once; at each position the
//! moves are deduplicated by the class they lead to (which folds every symmetric move, not only
//! the sibling swaps). The last move of the game is scored directly (bitset BFS), without
//! classes. Search: alpha-beta with a transposition table of bounds, the best move found
//! earlier tried first, and null-window tests (MTD(f)) from a guess.
//!
//! The value `v` is certified by W's strategy ("margin at least v") and B's ("margin at least
//! -v"), each extracted by a walk over classes that mirrors the checker's replay: one position
//! per class in `moves`, and the checker follows every opponent move.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::tree_canon::{Canon, Rooted};
use gamecert_certificates::format::MultiRound;
use gamecert_certificates::voronoi::multi_round::{StrategyClaim, VoronoiStrategy, VoronoiValue};
use gamecert_certificates::voronoi::rules::Player;
use std::collections::{HashMap, HashSet};

type Set = u128;
type Fx = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// A table entry: the value or bound, and the class of the best child found (tried first).
#[derive(Clone, Copy)]
struct Entry {
    value: i32,
    bound: Bound,
    best: u32,
}

/// The solver's state.
pub struct TreeSolver<'a> {
    game: &'a MultiRound,
    root: String,
    adjacency: Vec<Set>,
    all: Set,
    /// Busy vertices first.
    order: Vec<usize>,
    position: Vec<u8>,
    canon: Canon<Fx>,
    table: HashMap<u32, Entry, Fx>,
    /// Work so far, in subtree classes computed (about 0.1 microsecond each): a search node,
    /// a final position scored, a move classified (twice the height), a position loaded (its
    /// vertices).
    pub nodes: u64,
    /// The tree's height plus one: the classes a move recomputes.
    depth: u64,
    /// Of `nodes`, those published to [`crate::base::solved::searched_so_far`].
    published: u64,
    node_limit: u64,
}

/// The value and both strategies.
pub struct TreeSolution {
    pub value: i64,
    pub white: VoronoiStrategy,
    pub black: VoronoiStrategy,
    pub nodes: u64,
}

impl TreeSolution {
    /// The two strategies as one `voronoi-value` certificate.
    pub fn certificate(&self) -> VoronoiValue {
        VoronoiValue { value: self.value, white: self.white.clone(), black: self.black.clone() }
    }
}

impl<'a> TreeSolver<'a> {
    /// A solver for `game` on a tree rooted at `root` (a vertex name).
    pub fn new(game: &'a MultiRound, root: &str) -> Result<Self, String> {
        let n = game.graph.len();
        if n > crate::voronoi::exact::MAX_VERTICES {
            return Err(format!("the tree solver handles at most 128 vertices, not {n}"));
        }
        let mut budget = Budget::unlimited();
        let tree = Rooted::new(&game.graph, root, &mut budget)?;
        let root_vertex = game.graph.vertex(root).ok_or("unknown root")?;
        let canon = Canon::new(tree, &game.start, &mut budget)?;
        let adjacency: Vec<Set> = (0..n)
            .map(|v| game.graph.neighbours(v).iter().fold(0, |m: Set, &w| m | 1 << w))
            .collect();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(game.graph.neighbours(v).len()));
        Ok(TreeSolver {
            game,
            root: root.to_string(),
            adjacency,
            all: if n == 128 { Set::MAX } else { (1 << n) - 1 },
            order,
            position: game.start.clone(),
            canon,
            table: HashMap::default(),
            nodes: 0,
            published: 0,
            depth: 1 + game.graph.distances_from(&[root_vertex]).iter().max().copied().unwrap_or(0)
                as u64,
            node_limit: u64::MAX,
        })
    }

    fn start(&self) -> (Set, Set) {
        let (mut w, mut b) = (0, 0);
        for (v, &c) in self.game.start.iter().enumerate() {
            match c {
                b'W' => w |= 1 << v,
                b'B' => b |= 1 << v,
                _ => {}
            }
        }
        (w, b)
    }

    /// Stones each player still places.
    fn left(&self, w: Set, b: Set) -> (usize, usize) {
        let r = self.game.rounds;
        (r - w.count_ones() as usize, r - b.count_ones() as usize)
    }

    fn to_move(&self, w: Set, b: Set) -> Option<Player> {
        match self.left(w, b) {
            (0, 0) => None,
            (a, c) if a == c => Some(Player::White),
            _ => Some(Player::Black),
        }
    }

    fn margin(&self, w: Set, b: Set) -> i32 {
        final_margin(&self.adjacency, self.all, w, b)
    }

    /// Bounds on W's final margin from (w, b): both players end with `rounds` stones, so the
    /// margin is what the vertices still empty at the end give, each -1, 0 or 1; of the
    /// empty vertices now, those surrounded by W (by B) give 1 (-1) if they stay empty.
    fn margin_bounds(&self, w: Set, b: Set) -> (i32, i32) {
        let left_empty = (self.position.len() - 2 * self.game.rounds) as i32;
        let free = self.all & !(w | b);
        let (mut white_locked, mut black_locked) = (0i32, 0i32);
        let mut rest = free;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.adjacency[v] == 0 {
                continue;
            } else if self.adjacency[v] & !w == 0 {
                white_locked += 1;
            } else if self.adjacency[v] & !b == 0 {
                black_locked += 1;
            }
        }
        let free = free.count_ones() as i32;
        let worst = left_empty.min(free - white_locked);
        let best = left_empty.min(free - black_locked);
        (left_empty - 2 * worst, 2 * best - left_empty)
    }

    fn set(&mut self, v: usize, owner: u8) {
        self.position[v] = owner;
        // The solver's own tables: no budget (its memory is bounded by the node limit).
        let _ = self.canon.changed(&self.position, v, None);
    }

    /// Syncs the canonical ids with (w, b), from scratch.
    fn load(&mut self, w: Set, b: Set) {
        // Work: a class per vertex.
        self.nodes += self.position.len() as u64;
        for v in 0..self.position.len() {
            self.position[v] = if w >> v & 1 == 1 {
                b'W'
            } else if b >> v & 1 == 1 {
                b'B'
            } else {
                b'.'
            };
        }
        let _ = self.canon.reset(&self.position, &mut Budget::unlimited());
    }

    /// The moves from (w, b) (the canon loaded there), one per class of the position they
    /// lead to, the table's best move first: (vertex, class).
    fn children(&mut self, w: Set, b: Set, mark: u8, best: Option<u32>) -> Vec<(usize, u32)> {
        let free = self.all & !(w | b);
        let mut out: Vec<(usize, u32)> = Vec::new();
        for i in 0..self.order.len() {
            let v = self.order[i];
            if free >> v & 1 == 0 {
                continue;
            }
            // Work: the classes on the path to the root, twice.
            self.nodes += 2 * self.depth;
            self.set(v, mark);
            let class = self.canon.key();
            self.set(v, b'.');
            if out.iter().all(|&(_, c)| c != class) {
                out.push((v, class));
            }
        }
        if let Some(best) = best {
            if let Some(i) = out.iter().position(|&(_, c)| c == best) {
                let first = out.remove(i);
                out.insert(0, first);
            }
        }
        out
    }

    /// W's margin from (w, b) within (alpha, beta); the canon is loaded at (w, b).
    fn search(&mut self, w: Set, b: Set, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        // Published for the progress display, a batch at a time.
        while self.nodes >= self.published + crate::base::solved::SEARCH_BATCH {
            self.published += crate::base::solved::SEARCH_BATCH;
            crate::base::solved::searched(crate::base::solved::SEARCH_BATCH);
        }
        if self.nodes > self.node_limit {
            return 0; // Unwinding: the caller discards everything.
        }
        let Some(player) = self.to_move(w, b) else {
            return self.margin(w, b);
        };
        let free = self.all & !(w | b);
        if self.left(w, b) == (0, 1) {
            // The last move: score each reply directly.
            let mut best = i32::MAX;
            let mut rest = free;
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                // Each final position scored counts as a node (the limit bounds the time).
                self.nodes += 1;
                best = best.min(self.margin(w, b | 1 << v));
                if best <= alpha {
                    break;
                }
            }
            return best;
        }
        // Bounds: every vertex left empty at the end is worth -1..1, and an empty vertex whose
        // neighbours are all one player's stones goes to that player if it stays empty.
        let (lower, upper) = self.margin_bounds(w, b);
        if upper <= alpha {
            return upper;
        }
        if lower >= beta {
            return lower;
        }
        let key = self.canon.key();
        let (alpha0, beta0) = (alpha, beta);
        let mut hint = None;
        if let Some(e) = self.table.get(&key).copied() {
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower => alpha = alpha.max(e.value),
                Bound::Upper => beta = beta.min(e.value),
            }
            if alpha >= beta {
                return e.value;
            }
            hint = Some(e.best);
        }
        let mark = if player == Player::White { b'W' } else { b'B' };
        let children = self.children(w, b, mark, hint);
        let mut best = if player == Player::White { i32::MIN } else { i32::MAX };
        let mut best_class = children[0].1;
        for (v, class) in children {
            self.set(v, mark);
            let value = match player {
                Player::White => self.search(w | 1 << v, b, alpha, beta),
                Player::Black => self.search(w, b | 1 << v, alpha, beta),
            };
            self.set(v, b'.');
            let better = match player {
                Player::White => value > best,
                Player::Black => value < best,
            };
            if better {
                best = value;
                best_class = class;
            }
            match player {
                Player::White => alpha = alpha.max(value),
                Player::Black => beta = beta.min(value),
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
        self.table.insert(key, Entry { value: best, bound, best: best_class });
        best
    }

    /// Whether W's margin from (w, b) is at least `t` (a null-window search).
    fn at_least(&mut self, w: Set, b: Set, t: i32) -> bool {
        self.load(w, b);
        self.search(w, b, t - 1, t) >= t
    }

    /// The value from (w, b) by null-window tests from `guess` (MTD(f)).
    fn value_from(&mut self, w: Set, b: Set, guess: i32) -> i32 {
        let (mut lower, mut upper) = (i32::MIN, i32::MAX);
        let mut g = guess;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            self.load(w, b);
            g = self.search(w, b, beta - 1, beta);
            if self.nodes > self.node_limit {
                return 0;
            }
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        g
    }

    fn text(&self, w: Set, b: Set) -> String {
        (0..self.game.graph.len())
            .map(|v| match (w >> v & 1, b >> v & 1) {
                (1, _) => 'W',
                (_, 1) => 'B',
                _ => '.',
            })
            .collect()
    }

    /// `player`'s strategy holding W's margin >= `target` (White) or <= `target` (Black): one
    /// position per class, walked as the checker walks it.
    fn strategy(&mut self, player: Player, target: i32) -> Option<VoronoiStrategy> {
        let mut moves = Vec::new();
        let mut seen = HashSet::new();
        let mut stack = vec![self.start()];
        while let Some((w, b)) = stack.pop() {
            let Some(mover) = self.to_move(w, b) else {
                continue;
            };
            // The walk is work too: each position counts as a node against the limit.
            self.nodes += 1;
            if self.nodes > self.node_limit {
                return None;
            }
            self.load(w, b);
            if !seen.insert(self.canon.key()) {
                continue;
            }
            let mark = if mover == Player::White { b'W' } else { b'B' };
            let children = self.children(w, b, mark, None);
            if mover == player {
                let chosen = children.iter().map(|&(v, _)| v).find(|&v| match player {
                    Player::White => self.at_least(w | 1 << v, b, target),
                    Player::Black => !self.at_least(w, b | 1 << v, target + 1),
                })?;
                if self.nodes > self.node_limit {
                    return None;
                }
                moves.push((self.text(w, b), self.game.graph.name(chosen).to_string()));
                stack.push(match player {
                    Player::White => (w | 1 << chosen, b),
                    Player::Black => (w, b | 1 << chosen),
                });
            } else {
                for (v, _) in children {
                    stack.push(match mover {
                        Player::White => (w | 1 << v, b),
                        Player::Black => (w, b | 1 << v),
                    });
                }
            }
        }
        Some(VoronoiStrategy {
            player,
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(match player {
                Player::White => target as i64,
                Player::Black => -(target as i64),
            }),
            moves,
            symmetries: Vec::new(),
            twin_classes: Vec::new(),
            generators: Vec::new(),
            orbits: Vec::new(),
            canonical_root: Some(self.root.clone()),
        })
    }

    /// The value (starting the null-window tests at `guess`) and both strategies, within
    /// `node_limit` search nodes for the value and as many again for the strategies; `None`
    /// past them.
    pub fn solve_within(mut self, node_limit: u64, guess: i64) -> Option<TreeSolution> {
        self.node_limit = node_limit;
        let (w, b) = self.start();
        let guess = guess.clamp(-(self.position.len() as i64), self.position.len() as i64);
        let value = self.value_from(w, b, guess as i32);
        if self.nodes > self.node_limit {
            return None;
        }
        self.node_limit = self.nodes.saturating_add(node_limit);
        let white = self.strategy(Player::White, value)?;
        let black = self.strategy(Player::Black, value)?;
        Some(TreeSolution { value: value as i64, white, black, nodes: self.nodes })
    }
}

/// W's margin in a final position (stones `w` and `b`, vertices `all`), by BFS layers on
/// bitsets; shared with the proof search (`tree_prove.rs`).
pub(crate) fn final_margin(adjacency: &[Set], all: Set, w: Set, b: Set) -> i32 {
    let expand = |set: Set| {
        let (mut out, mut rest) = (set, set);
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= adjacency[v];
        }
        out
    };
    let (mut ball_w, mut ball_b, mut open, mut margin) = (w, b, all, 0i32);
    loop {
        let (new_w, new_b) = (ball_w & open, ball_b & open);
        if new_w | new_b == 0 {
            return margin;
        }
        margin += (new_w & !new_b).count_ones() as i32 - (new_b & !new_w).count_ones() as i32;
        open &= !(new_w | new_b);
        ball_w = expand(ball_w);
        ball_b = expand(ball_b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::exact::ExactSolver;
    use gamecert_certificates::voronoi::multi_round::check_value;

    /// Every tree with 2 to 9 vertices, 1 to 3 rounds, rooted at a median: the value agrees
    /// with the plain exact search, and the canonical certificates check.
    #[test]
    fn agrees_with_the_plain_search_and_certificates_check() {
        for (spec, game, root) in crate::voronoi::trees::small_tree_games(9, 3) {
            let rounds = spec.rounds;
            let plain = ExactSolver::new(&game).unwrap().solve();
            let name = game.graph.name(root).to_string();
            let solved = TreeSolver::new(&game, &name).unwrap().solve_within(u64::MAX, 0).unwrap();
            assert_eq!(plain.value, solved.value, "{spec:?}");
            check_value(
                &game.graph,
                rounds,
                &game.start,
                &solved.certificate(),
                &mut Budget::unlimited(),
            )
            .unwrap_or_else(|e| panic!("{e}: {spec:?}"));
        }
    }
}

#[cfg(test)]
mod tampering {
    use super::*;
    use gamecert_certificates::format::{GraphSpec, MultiRoundSpec};
    use gamecert_certificates::voronoi::multi_round::check_value;

    fn check(game: &MultiRound, certificate: &VoronoiValue) -> Result<(), String> {
        check_value(&game.graph, game.rounds, &game.start, certificate, &mut Budget::unlimited())
            .map(|_| ())
    }

    /// A certificate changed in what it certifies is rejected: the value, a move, the root, a
    /// class listed twice, a graph that is not a tree.
    #[test]
    fn tampered_canonical_certificates_are_rejected() {
        let game = crate::voronoi::gen::kary_tree(3, 2, 2).unwrap().validate().unwrap();
        let solved = TreeSolver::new(&game, "r").unwrap().solve_within(u64::MAX, 0).unwrap();
        assert_eq!(solved.value, 1);
        let good = solved.certificate();
        check(&game, &good).unwrap();
        // A value one higher (W's claim) or one lower (B's claim).
        for delta in [1, -1] {
            let mut bad = good.clone();
            bad.value += delta;
            bad.white.margin = Some(bad.value);
            bad.black.margin = Some(-bad.value);
            let err = check(&game, &bad).unwrap_err();
            assert!(err.contains("below"), "{err}");
        }
        // W's first move (the root) replaced by a leaf: B then wins the root's subtree fights.
        let mut bad = good.clone();
        let leaf = game
            .graph
            .names()
            .find(|n| game.graph.vertex(n).is_some_and(|v| game.graph.neighbours(v).len() == 1))
            .unwrap()
            .to_string();
        let first = bad.white.moves.iter_mut().find(|(p, _)| p.bytes().all(|c| c == b'.')).unwrap();
        first.1 = leaf;
        assert!(check(&game, &bad).is_err());
        // Without the canonical root the positions are looked up exactly: some are missing.
        let mut bad = good.clone();
        bad.black.canonical_root = None;
        let err = check(&game, &bad).unwrap_err();
        assert!(err.contains("no move for position"), "{err}");
        // An unknown root; a class listed twice (an isomorphic copy of a listed position).
        let mut bad = good.clone();
        bad.white.canonical_root = Some("nowhere".into());
        assert!(check(&game, &bad).unwrap_err().contains("unknown canonical root"));
        let mut bad = good.clone();
        let (position, _) = bad
            .black
            .moves
            .iter()
            .find(|(p, _)| p.contains('W') && !p.starts_with('W'))
            .unwrap()
            .clone();
        // The same position with the root's children's subtrees rotated is isomorphic.
        let tree = crate::voronoi::tree_symmetry::RootedTree::new(&game.graph, 0).unwrap();
        let children = &tree.children[tree.root];
        let mut image: Vec<usize> = (0..game.graph.len()).collect();
        for (i, &c) in children.iter().enumerate() {
            let d = children[(i + 1) % children.len()];
            image[c] = d;
            for (&x, &y) in tree.children[c].iter().zip(&tree.children[d]) {
                image[x] = y;
            }
        }
        let mut rotated = vec![b'.'; game.graph.len()];
        for (v, c) in position.bytes().enumerate() {
            rotated[image[v]] = c;
        }
        let rotated = String::from_utf8(rotated).unwrap();
        assert_ne!(rotated, position);
        let answer = bad.black.moves[0].1.clone();
        bad.black.moves.push((rotated, answer));
        assert!(check(&game, &bad).unwrap_err().contains("isomorphic to an earlier one"));
        // A cycle is not a tree.
        let spec = MultiRoundSpec {
            graph: GraphSpec::numbered(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]),
            rounds: 1,
            start: None,
            source: None,
        };
        let cycle = spec.validate().unwrap();
        let plain = ExactSolverForTests::solve(&cycle);
        let mut bad = plain.certificate();
        bad.white.canonical_root = Some("v0".into());
        assert!(check(&cycle, &bad).unwrap_err().contains("need a tree"));
    }

    struct ExactSolverForTests;
    impl ExactSolverForTests {
        fn solve(game: &MultiRound) -> crate::voronoi::exact::Solution {
            crate::voronoi::exact::ExactSolver::new(game).unwrap().solve()
        }
    }
}

#[cfg(test)]
mod probe {
    use super::*;
    use gamecert_certificates::voronoi::multi_round::check_value;

    /// `KARY=k,h,n0,n1,budget cargo test --release --lib probe -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn probe_kary() {
        let spec: Vec<u64> =
            std::env::var("KARY").unwrap().split(',').map(|x| x.parse().unwrap()).collect();
        let (k, h, n0, n1, budget) = (spec[0], spec[1] as u32, spec[2], spec[3], spec[4]);
        for n in n0..=n1 {
            let game =
                crate::voronoi::gen::kary_tree(k, h, n as usize).unwrap().validate().unwrap();
            let t = std::time::Instant::now();
            let solved = TreeSolver::new(&game, "r").unwrap().solve_within(budget, 0);
            let solve = t.elapsed().as_secs_f64();
            match solved {
                None => println!("k {k} h {h} n {n}: over budget after {solve:.1} s"),
                Some(s) => {
                    let t = std::time::Instant::now();
                    let (a, b) = check_value(
                        &game.graph,
                        n as usize,
                        &game.start,
                        &s.certificate(),
                        &mut Budget::unlimited(),
                    )
                    .unwrap();
                    println!(
                        "k {k} h {h} n {n}: value {} nodes {} moves {}+{} checked {}+{} solve {solve:.1} s check {:.1} s",
                        s.value,
                        s.nodes,
                        s.white.moves.len(),
                        s.black.moves.len(),
                        a.positions,
                        b.positions,
                        t.elapsed().as_secs_f64()
                    );
                }
            }
        }
    }
}

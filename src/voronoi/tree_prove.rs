//! The multi-round Voronoi game on trees by proof (issue 41, item 2): threshold tests "can W
//! reach a margin of at least t?" answered by the proof search of [`crate::base::proof`], and
//! their proofs written as the existing `voronoi-strategy` / `voronoi-value` certificates with
//! a `canonical_root`, which the checker replays against every opponent move.
//!
//! Positions are W's and B's vertex sets on a tree rooted at `root`, identified up to the
//! automorphisms fixing the root by a 128-bit hash of the AHU canonical form (each subtree's
//! hash from its owner and the sorted hashes of its children), updated along the path to the
//! root at every move. No table of classes is kept, so memory is the transposition table's
//! alone. A hash collision could only merge two classes in the search, whose proof the checker
//! (which compares exact AHU forms) would then reject; it cannot make a wrong claim pass.
//!
//! Moves: one per orbit of empty vertices under the automorphisms fixing the root and the
//! position, found top-down without any search: descending from the root into one child of
//! each group of siblings with equal subtree hashes (isomorphic sibling subtrees with their
//! stones are swapped by an automorphism), every empty vertex reached is one orbit's
//! representative. Ordered by depth (central vertices first).
//!
//! Settled without search: a final position (its margin against t); margin bounds (every vertex
//! still empty at the end is worth -1..1; an empty vertex whose neighbours are all one player's
//! goes to that player if it stays empty); B's last stone, every reply scored directly. The
//! proof is still written down to the final positions, as the checker replays them.

use crate::base::proof::{value_by_tests, Engine, Outcome, Prover, Search, Stats, Table};
use gamecert_certificates::format::{Certificate, MultiRound};
use gamecert_certificates::voronoi::multi_round::{StrategyClaim, VoronoiStrategy, VoronoiValue};
use gamecert_certificates::voronoi::rules::Player;

type Set = u128;

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The game on a rooted tree, for the test "W's margin >= target".
pub struct TreeGame {
    n: usize,
    rounds: usize,
    adjacency: Vec<Set>,
    all: Set,
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    depth: Vec<u32>,
    root: usize,
    /// 0 empty, 1 W, 2 B.
    color: Vec<u8>,
    w: Set,
    b: Set,
    hash: Vec<u128>,
    /// The test's threshold.
    pub target: i32,
    /// Final positions scored (directly or as B's last replies).
    pub scored: u64,
}

impl TreeGame {
    /// The game of `game` (a tree) rooted at vertex `root`, from its start, testing `target`.
    pub fn new(game: &MultiRound, root: usize, target: i32) -> Result<TreeGame, String> {
        let n = game.graph.len();
        if n > 128 {
            return Err(format!("the tree prover handles at most 128 vertices, not {n}"));
        }
        let tree = crate::voronoi::tree_symmetry::RootedTree::new(&game.graph, root)?;
        let mut depth = vec![0u32; n];
        let mut parent = vec![usize::MAX; n];
        for &v in &tree.order {
            if let Some(p) = tree.parent[v] {
                depth[v] = depth[p] + 1;
                parent[v] = p;
            }
        }
        let adjacency: Vec<Set> = (0..n)
            .map(|v| game.graph.neighbours(v).iter().fold(0, |m: Set, &w| m | 1 << w))
            .collect();
        let mut g = TreeGame {
            n,
            rounds: game.rounds,
            adjacency,
            all: if n == 128 { Set::MAX } else { (1 << n) - 1 },
            parent,
            children: tree.children.clone(),
            depth,
            root,
            color: vec![0; n],
            w: 0,
            b: 0,
            hash: vec![0; n],
            target,
            scored: 0,
        };
        for (v, &c) in game.start.iter().enumerate() {
            match c {
                b'W' => {
                    g.color[v] = 1;
                    g.w |= 1 << v;
                }
                b'B' => {
                    g.color[v] = 2;
                    g.b |= 1 << v;
                }
                _ => {}
            }
        }
        for &v in tree.order.iter().rev() {
            g.hash[v] = g.node_hash(v);
        }
        Ok(g)
    }

    /// The hash of v's subtree from its owner and its children's hashes.
    fn node_hash(&self, v: usize) -> u128 {
        let kids = &self.children[v];
        let mut small = [0u128; 8];
        let mut large;
        let hashes: &mut [u128] = if kids.len() <= 8 {
            for (s, &c) in small.iter_mut().zip(kids) {
                *s = self.hash[c];
            }
            &mut small[..kids.len()]
        } else {
            large = kids.iter().map(|&c| self.hash[c]).collect::<Vec<_>>();
            &mut large
        };
        hashes.sort_unstable();
        let seed = u64::from(self.color[v]) + 1;
        let (mut a, mut b) =
            (mix64(seed ^ 0x1234_5678_9abc_def1), mix64(seed ^ 0x0fed_cba9_8765_4321));
        for &h in hashes.iter() {
            a = mix64(a.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ h as u64);
            b = mix64(b.wrapping_add(0xd1b5_4a32_d192_ed03) ^ (h >> 64) as u64);
        }
        let len = hashes.len() as u64;
        (u128::from(mix64(a ^ len)) << 64) | u128::from(mix64(b ^ len.rotate_left(17)))
    }

    fn set(&mut self, v: usize, color: u8) {
        self.color[v] = color;
        let mut x = v;
        loop {
            self.hash[x] = self.node_hash(x);
            if x == self.root {
                break;
            }
            x = self.parent[x];
        }
    }

    fn counts(&self) -> (usize, usize) {
        (self.w.count_ones() as usize, self.b.count_ones() as usize)
    }

    /// The player to move, `None` at the end.
    pub fn to_move(&self) -> Option<Player> {
        match self.counts() {
            (w, b) if w == self.rounds && b == self.rounds => None,
            (w, b) if w == b => Some(Player::White),
            _ => Some(Player::Black),
        }
    }

    fn margin(&self, w: Set, b: Set) -> i32 {
        crate::voronoi::tree_exact::final_margin(&self.adjacency, self.all, w, b)
    }

    /// Bounds on W's final margin (see [`crate::voronoi::tree_exact`]).
    fn margin_bounds(&self) -> (i32, i32) {
        let left_empty = (self.n - 2 * self.rounds) as i32;
        let free = self.all & !(self.w | self.b);
        let (mut white_locked, mut black_locked) = (0i32, 0i32);
        let mut rest = free;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if self.adjacency[v] == 0 {
                continue;
            } else if self.adjacency[v] & !self.w == 0 {
                white_locked += 1;
            } else if self.adjacency[v] & !self.b == 0 {
                black_locked += 1;
            }
        }
        let free = free.count_ones() as i32;
        let worst = left_empty.min(free - white_locked);
        let best = left_empty.min(free - black_locked);
        (left_empty - 2 * worst, 2 * best - left_empty)
    }

    /// The current position as the certificate writes it.
    pub fn text(&self) -> String {
        self.color.iter().map(|&c| ['.', 'W', 'B'][usize::from(c)]).collect()
    }

    /// The exact class key of the current position (the hash of the root's subtree).
    fn class(&self) -> u128 {
        self.hash[self.root]
    }
}

impl Prover for TreeGame {
    /// The vertex the player to move occupies.
    type Move = usize;

    fn key(&mut self) -> u128 {
        // Tests of different thresholds share the table.
        self.class() ^ u128::from(mix64(self.target as i64 as u64 ^ 0x5bd1_e995))
    }

    fn prover_to_move(&self) -> bool {
        self.to_move() == Some(Player::White)
    }

    fn settled(&mut self) -> Option<bool> {
        let t = self.target;
        let (w, b) = self.counts();
        if w == self.rounds && b == self.rounds {
            self.scored += 1;
            return Some(self.margin(self.w, self.b) >= t);
        }
        let (lower, upper) = self.margin_bounds();
        if lower >= t {
            return Some(true);
        }
        if upper < t {
            return Some(false);
        }
        if w == self.rounds && b + 1 == self.rounds {
            // B's last stone: every reply scored, B taking the least.
            let mut rest = self.all & !(self.w | self.b);
            while rest != 0 {
                let v = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.scored += 1;
                if self.margin(self.w, self.b | 1 << v) < t {
                    return Some(false);
                }
            }
            return Some(true);
        }
        None
    }

    fn is_over(&mut self) -> bool {
        self.to_move().is_none()
    }

    fn moves(&mut self, out: &mut Vec<usize>) {
        // Top-down, into one child of each group of isomorphic sibling subtrees.
        let start = out.len();
        let mut stack = vec![self.root];
        while let Some(v) = stack.pop() {
            if self.color[v] == 0 {
                out.push(v);
            }
            let kids = &self.children[v];
            for (i, &c) in kids.iter().enumerate() {
                if kids[..i].iter().all(|&d| self.hash[d] != self.hash[c]) {
                    stack.push(c);
                }
            }
        }
        out[start..].sort_unstable_by_key(|&v| (self.depth[v], v));
    }

    fn play(&mut self, v: usize) {
        match self.to_move() {
            Some(Player::White) => {
                self.w |= 1 << v;
                self.set(v, 1);
            }
            _ => {
                self.b |= 1 << v;
                self.set(v, 2);
            }
        }
    }

    fn undo(&mut self, v: usize) {
        self.w &= !(1 << v);
        self.b &= !(1 << v);
        self.set(v, 0);
    }
}

/// The tree prover of one game: a table shared by all its tests.
pub struct TreeProver<'a> {
    game: &'a MultiRound,
    root: usize,
    pub table: Table,
    /// Work over all tests so far.
    pub stats: Stats,
    pub scored: u64,
    /// How the tests are searched.
    pub engine: Engine,
}

/// A test's answer with its proof.
pub struct Tested {
    /// Whether W reaches the threshold.
    pub holds: bool,
    /// The winner's strategy: W's claiming margin >= t, or B's claiming W's margin <= t - 1.
    pub strategy: VoronoiStrategy,
}

impl<'a> TreeProver<'a> {
    /// A prover for `game` (a tree) rooted at `root` with a table of `memory` bytes.
    pub fn new(game: &'a MultiRound, root: usize, memory: u64) -> Result<Self, String> {
        TreeGame::new(game, root, 0)?;
        Ok(TreeProver {
            game,
            root,
            table: Table::new(memory),
            stats: Stats::default(),
            scored: 0,
            engine: Engine::default(),
        })
    }

    /// Bounds on the value (every vertex is worth -1..1).
    pub fn value_range(&self) -> (i64, i64) {
        let n = self.game.graph.len() as i64;
        (-n, n)
    }

    /// Whether W reaches a margin of at least `t`, within `limit` expansions; `None` past it.
    pub fn test(&mut self, t: i64, limit: u64) -> Result<Option<bool>, String> {
        crate::base::solved::search_stage(format!(
            "{}: can W reach a margin of at least {t}?",
            self.engine.words()
        ));
        let game = TreeGame::new(self.game, self.root, t as i32)?;
        let mut search = Search::new(game, &mut self.table);
        search.limit = limit;
        let outcome = search.solve_by(self.engine);
        self.stats.expansions += search.stats.expansions;
        self.stats.evaluations += search.stats.evaluations;
        self.scored += search.game.scored;
        Ok(match outcome {
            Outcome::Proven => Some(true),
            Outcome::Disproven => Some(false),
            Outcome::Unknown => None,
        })
    }

    /// The test of `t` answered and its winner's strategy walked out of the table (parts the
    /// table lost searched again, within `limit` expansions); `None` past the limit.
    pub fn proved(&mut self, t: i64, limit: u64) -> Result<Option<Tested>, String> {
        let Some(holds) = self.test(t, limit)? else {
            return Ok(None);
        };
        let who = if holds { "W's" } else { "B's" };
        crate::base::solved::search_stage(format!(
            "walking {who} proof (W's margin at least {t}: {}) out of the table",
            if holds { "yes" } else { "no" }
        ));
        let game = TreeGame::new(self.game, self.root, t as i32)?;
        let mut search = Search::new(game, &mut self.table);
        search.limit = limit;
        let graph = &self.game.graph;
        let mut moves = Vec::new();
        let walked = search.extract(holds, &mut |g, chosen| {
            if let Some(v) = chosen {
                moves.push((g.text(), graph.name(v).to_string()));
            }
        });
        self.stats.expansions += search.stats.expansions;
        self.stats.evaluations += search.stats.evaluations;
        self.scored += search.game.scored;
        match walked {
            Ok(_) => {}
            Err(e) if e.contains("limit") => return Ok(None),
            Err(e) => return Err(e),
        }
        let (player, margin) = if holds { (Player::White, t) } else { (Player::Black, 1 - t) };
        Ok(Some(Tested {
            holds,
            strategy: VoronoiStrategy {
                player,
                claim: StrategyClaim::MarginAtLeast,
                margin: Some(margin),
                moves,
                symmetries: Vec::new(),
                twin_classes: Vec::new(),
                generators: Vec::new(),
                orbits: Vec::new(),
                canonical_root: Some(graph.name(self.root).to_string()),
            },
        }))
    }

    /// The value, by tests from `guess`, each within `limit` expansions; `None` past it.
    pub fn value(&mut self, guess: i64, limit: u64) -> Result<Option<i64>, String> {
        let (low, high) = self.value_range();
        let mut failed: Option<String> = None;
        let value = value_by_tests(guess, low, high, &mut |t| match self.test(t, limit) {
            Ok(answer) => answer,
            Err(e) => {
                failed = Some(e);
                None
            }
        });
        match failed {
            Some(e) => Err(e),
            None => Ok(value),
        }
    }

    /// The outcome by two tests, "W's margin >= 1" and (when that fails) "W's margin >= 0",
    /// and its certificate: W's strategy that wins, B's that wins, or for a tie both
    /// strategies as a `voronoi-value` of 0. Each test and each proof walk within `limit`
    /// expansions; `None` past it.
    pub fn outcome(&mut self, limit: u64) -> Result<Option<(TreeOutcome, Certificate)>, String> {
        let Some(wins) = self.test(1, limit)? else {
            return Ok(None);
        };
        let (outcome, certificate) = if wins {
            let Some(white) = self.proved(1, limit)? else {
                return Ok(None);
            };
            (TreeOutcome::WhiteWins, Certificate::VoronoiStrategy(plain_claim(white.strategy)))
        } else {
            let Some(black) = self.proved(0, limit)? else {
                return Ok(None);
            };
            if !black.holds {
                (TreeOutcome::BlackWins, Certificate::VoronoiStrategy(plain_claim(black.strategy)))
            } else {
                let Some(at_most_zero) = self.proved(1, limit)? else {
                    return Ok(None);
                };
                let value =
                    VoronoiValue { value: 0, white: black.strategy, black: at_most_zero.strategy };
                (TreeOutcome::Tie, Certificate::VoronoiValue(value))
            }
        };
        Ok(Some((outcome, certificate)))
    }

    /// The value and both strategies (a `voronoi-value`), within `limit` expansions per test
    /// and per proof walk; `None` past it.
    pub fn solve(&mut self, guess: i64, limit: u64) -> Result<Option<VoronoiValue>, String> {
        let Some(value) = self.value(guess, limit)? else {
            return Ok(None);
        };
        let Some(white) = self.proved(value, limit)? else {
            return Ok(None);
        };
        let Some(black) = self.proved(value + 1, limit)? else {
            return Ok(None);
        };
        debug_assert!(white.holds && !black.holds);
        Ok(Some(VoronoiValue { value, white: white.strategy, black: black.strategy }))
    }
}

/// The outcome of a game under optimal play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TreeOutcome {
    WhiteWins,
    Tie,
    BlackWins,
}

impl TreeOutcome {
    /// The outcome of a game of value `value`.
    pub fn of_value(value: i64) -> TreeOutcome {
        match value.signum() {
            1 => TreeOutcome::WhiteWins,
            0 => TreeOutcome::Tie,
            _ => TreeOutcome::BlackWins,
        }
    }

    /// In words: "W wins", "a tie", "B wins".
    pub fn words(self) -> &'static str {
        match self {
            TreeOutcome::WhiteWins => "W wins",
            TreeOutcome::Tie => "a tie",
            TreeOutcome::BlackWins => "B wins",
        }
    }
}

/// A strategy claiming a margin of at least 1 as the claim "wins" (the certificate reads as
/// the outcome).
fn plain_claim(mut strategy: VoronoiStrategy) -> VoronoiStrategy {
    if strategy.margin == Some(1) {
        strategy.claim = StrategyClaim::Wins;
        strategy.margin = None;
    }
    strategy
}

/// The checker's verdict on an outcome's certificate for `game`: the positions it replayed.
pub fn check_outcome(game: &MultiRound, certificate: &Certificate) -> Result<u64, String> {
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi::multi_round::{check_strategy, check_value};
    let (graph, rounds, start) = (&game.graph, game.rounds, &game.start);
    match certificate {
        Certificate::VoronoiStrategy(s) => {
            Ok(check_strategy(graph, rounds, start, s, &mut Budget::unlimited())?.positions)
        }
        Certificate::VoronoiValue(v) => {
            let (w, b) = check_value(graph, rounds, start, v, &mut Budget::unlimited())?;
            Ok(w.positions + b.positions)
        }
        other => Err(format!("an outcome is not certified by a {}", other.kind())),
    }
}

/// `solve --method prove` on a multi-round Voronoi game: on a tree (at most 128 vertices) from
/// an empty start, the outcome by [`TreeProver::outcome`], rooted at a median.
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    options: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    use crate::base::io::BadInput;
    use gamecert_certificates::format::Instance;
    let Instance::Voronoi(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "the tree prover"));
    };
    let game = spec.validate()?;
    if !crate::voronoi::trees::is_tree(&game.graph) {
        return Err(BadInput(
            "--method prove solves multi-round Voronoi games on trees only (this graph is not a \
             tree); --method exact solves any graph up to 128 vertices"
                .into(),
        )
        .into());
    }
    if game.start.iter().any(|&c| c != b'.') {
        return Err(BadInput(
            "--method prove starts from an empty board (this instance has stones at the start); \
             --method exact takes any start"
                .into(),
        )
        .into());
    }
    let root = crate::voronoi::trees::medians(&game.graph)[0];
    let memory = options.memory.unwrap_or(crate::base::proof::DEFAULT_MEMORY);
    let mut prover = TreeProver::new(&game, root, memory).map_err(BadInput)?;
    prover.engine = Engine::of_method(options.method).unwrap_or_default();
    let (_, certificate) =
        prover.outcome(u64::MAX).map_err(anyhow::Error::msg)?.ok_or_else(|| {
            anyhow::anyhow!("internal error: the proof search stopped without a limit")
        })?;
    Ok(Some(crate::base::solved::SolvedGame::new(
        certificate,
        prover.stats.expansions,
        &format!("{}, two threshold tests", prover.engine.words()),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::exact::ExactSolver;
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi::multi_round::{check_strategy, check_value};

    /// Every tree with 2 to 9 vertices, 1 to 3 rounds, rooted at a median: the proof search's
    /// value agrees with the plain exact search, and its certificates check; with a table of
    /// 512 entries too (entries replaced: the walk re-proves what it lost). The outcome by two
    /// tests is the value's sign, its certificate W's or B's winning strategy or a value of 0.
    /// Both engines, on alternate cases.
    #[test]
    fn agrees_with_the_plain_search_and_certificates_check() {
        let mut checked = 0;
        for (spec, game, root) in crate::voronoi::trees::small_tree_games(9, 3) {
            let rounds = spec.rounds;
            let plain = ExactSolver::new(&game).unwrap().solve();
            let memory = if checked % 5 == 0 { 16 << 10 } else { 1 << 20 };
            let engine = if checked % 2 == 0 { Engine::DepthFirst } else { Engine::Dfpn };
            let mut prover = TreeProver::new(&game, root, memory).unwrap();
            prover.engine = engine;
            let solved = prover.solve(0, u64::MAX).unwrap().unwrap();
            assert_eq!(plain.value, solved.value, "{spec:?}");
            check_value(&game.graph, rounds, &game.start, &solved, &mut Budget::unlimited())
                .unwrap_or_else(|e| panic!("{e}: {spec:?}"));
            // The outcome by two tests, on a fresh table: the value's sign, and its
            // certificate checks.
            let mut prover = TreeProver::new(&game, root, memory).unwrap();
            prover.engine = engine;
            let (outcome, certificate) = prover.outcome(u64::MAX).unwrap().unwrap();
            assert_eq!(outcome, TreeOutcome::of_value(plain.value), "{spec:?}");
            let (start, budget) = (&game.start, &mut Budget::unlimited());
            match (&certificate, outcome) {
                (Certificate::VoronoiStrategy(s), TreeOutcome::WhiteWins) => {
                    assert_eq!(s.player, Player::White);
                    check_strategy(&game.graph, rounds, start, s, budget)
                }
                (Certificate::VoronoiStrategy(s), TreeOutcome::BlackWins) => {
                    assert_eq!(s.player, Player::Black);
                    check_strategy(&game.graph, rounds, start, s, budget)
                }
                (Certificate::VoronoiValue(v), TreeOutcome::Tie) => {
                    assert_eq!(v.value, 0);
                    check_value(&game.graph, rounds, start, v, budget).map(|r| r.0)
                }
                _ => panic!("{outcome:?} with a {}", certificate.kind()),
            }
            .unwrap_or_else(|e| panic!("{e}: {spec:?}"));
            checked += 1;
        }
        assert!(checked > 250, "{checked}");
    }
}

#[cfg(test)]
mod probe {
    use super::*;
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi::multi_round::check_value;

    /// `KARY=k,h,n0,n1,limit,memory_mb cargo test --release --lib tree_prove::probe -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn probe_kary() {
        let spec: Vec<u64> =
            std::env::var("KARY").unwrap().split(',').map(|x| x.parse().unwrap()).collect();
        let (k, h, n0, n1, limit, memory) =
            (spec[0], spec[1] as u32, spec[2], spec[3], spec[4], spec[5] << 20);
        let mut guess = 0;
        for n in n0..=n1 {
            let game =
                crate::voronoi::gen::kary_tree(k, h, n as usize).unwrap().validate().unwrap();
            let t = std::time::Instant::now();
            let mut prover = TreeProver::new(&game, 0, memory).unwrap();
            if std::env::var("ENGINE").is_ok_and(|e| e == "depth-first") {
                prover.engine = Engine::DepthFirst;
            }
            let value = prover.value(guess, limit).unwrap();
            let search = t.elapsed().as_secs_f64();
            let Some(value) = value else {
                println!("k {k} h {h} n {n}: over the limit after {search:.1} s");
                continue;
            };
            guess = value;
            let solved = prover.solve(value, limit).unwrap().unwrap();
            let total = t.elapsed().as_secs_f64();
            let t = std::time::Instant::now();
            let (a, b) = check_value(
                &game.graph,
                n as usize,
                &game.start,
                &solved,
                &mut Budget::unlimited(),
            )
            .unwrap();
            println!(
                "k {k} h {h} n {n}: value {value} expansions {} evaluations {} scored {} moves {}+{} checked {}+{} search {search:.1} s with proofs {total:.1} s check {:.1} s used {} replaced {}",
                prover.stats.expansions,
                prover.stats.evaluations,
                prover.scored,
                solved.white.moves.len(),
                solved.black.moves.len(),
                a.positions,
                b.positions,
                t.elapsed().as_secs_f64(),
                prover.table.used,
                prover.table.replaced,
            );
        }
    }
}

//! Strategies on complete k-ary trees (seed 001, Section 3), as strategy programs (code that
//! picks a move from a position) whose certificates fold symmetric replies into orbits.
//!
//! - Algorithm 1 (Proposition 1, 2n <= k): W occupies the root, then a child of the root whose
//!   subtree is entirely empty. When 2n <= k such a child always exists, and W wins.
//! - Algorithm 2 (the key-level strategy, Lemma 2 and Theorem 1, odd k): W computes the key
//!   level h (k^(h-1) < n <= k^h) and the magic number alpha = 2n / k^h, then plays case (A)
//!   when alpha > (k^2 - 2) / (k (k - 1)), else case (B), step by step as [`Step`] lists.
//! - B's symmetric strategy (Theorem 2, even k): B answers W's vertex j of level i by vertex
//!   k^i - j + 1, the mirror image under reversing every vertex's children. The mirror fixes
//!   only the root; when W takes the root (or the mirror of a stone B placed on its own) there
//!   is nothing to mirror and B plays its own key-level move instead, as the proof of Theorem 2
//!   suggests ("B proceeds to his own key-level strategy").
//!
//! Decisions where the paper is loose (each is only a choice of move; the checker judges the
//! result against every opponent move):
//! - "any" vertex and ties are broken by the smallest vertex index (leftmost, then upper);
//! - step (A)-1 picks among key-vertex sets with no W vertex *and an empty vertex* (a set full
//!   of B's stones has nothing to occupy), the one with the most B stones;
//! - when no step applies (B played where the proofs assume it would not), W takes the first
//!   empty vertex at the smallest level at least h, else the first empty vertex: a fallback the
//!   certificate covers like any other move, counted in [`StepCounts`];
//! - the key level for n = 1 is h = 0, whose only key-vertex set is {root}.
//!
//! Symmetry: swapping two sibling subtrees with identical contents (children matched in order)
//! is an automorphism that fixes the position. At each position where the opponent moves, the
//! generator list holds such swaps: grouping the children of a vertex by content, the first
//! of each group is swapped with the others, and the search continues inside the first ones.
//! The certificate declares every swap once (`generators`) and names, per position, the ones
//! that fix it (`orbits`); the checker verifies both and explores one reply per orbit.

use crate::voronoi::tree_symmetry::RootedTree;
pub use crate::voronoi::tree_symmetry::SiblingSwaps;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::format::MultiRound;
use gamecert_certificates::voronoi::multi_round::{check_strategy, VoronoiValue};
use gamecert_certificates::voronoi::multi_round::{
    orbit_representatives, to_move, StrategyClaim, VoronoiStrategy,
};
use gamecert_certificates::voronoi::rules::Player;
use std::collections::HashSet;

/// The most positions a certificate built here may hold (its strategy positions and the
/// opponent's, each once); the checker's own default limit is larger.
pub const MAX_POSITIONS: usize = 5_000_000;

/// A complete k-ary tree: every internal vertex has k children, every leaf has depth `height`.
pub struct CompleteTree {
    pub tree: RootedTree,
    pub k: usize,
    pub height: u32,
    pub level: Vec<u32>,
    /// The vertices of each level, left to right.
    pub levels: Vec<Vec<usize>>,
    /// The mirror image of each vertex (children reversed at every vertex).
    pub mirror: Vec<usize>,
}

impl CompleteTree {
    /// Roots the graph at `root` and checks it is a complete k-ary tree.
    pub fn new(game: &MultiRound, root: usize) -> Result<CompleteTree, String> {
        let tree = RootedTree::new(&game.graph, root)?;
        let n = game.graph.len();
        let k = tree.children[root].len();
        let mut level = vec![0u32; n];
        let mut levels: Vec<Vec<usize>> = vec![vec![root]];
        for &v in &tree.order {
            if let Some(p) = tree.parent[v] {
                level[v] = level[p] + 1;
                let l = level[v] as usize;
                if levels.len() <= l {
                    levels.push(Vec::new());
                }
                levels[l].push(v);
            }
        }
        let height = (levels.len() - 1) as u32;
        for (v, &depth) in level.iter().enumerate() {
            let c = tree.children[v].len();
            if (depth < height && c != k) || (depth == height && c != 0) || k < 2 {
                return Err(format!(
                    "not a complete k-ary tree: vertex '{}' at level {} has {c} children",
                    game.graph.name(v),
                    depth
                ));
            }
        }
        let mut mirror = vec![root; n];
        for &v in &tree.order {
            let (own, image) = (&tree.children[v], &tree.children[mirror[v]]);
            for (i, &c) in own.iter().enumerate() {
                mirror[c] = image[k - 1 - i];
            }
        }
        Ok(CompleteTree { tree, k, height, level, levels, mirror })
    }
}

/// Plays `policy` for `player` against every opponent move, one reply per orbit of the
/// sibling-swap group fixing the position, and records the certificate.
pub fn expand_on_tree(
    game: &MultiRound,
    tree: &RootedTree,
    player: Player,
    claim: StrategyClaim,
    margin: Option<i64>,
    max_positions: usize,
    policy: &mut dyn FnMut(&[u8]) -> usize,
) -> Result<VoronoiStrategy, String> {
    let graph = &game.graph;
    let n = graph.len();
    let (mine, theirs) = match player {
        Player::White => (b'W', b'B'),
        Player::Black => (b'B', b'W'),
    };
    let name = |v: usize| graph.name(v).to_string();
    let mut swaps = SiblingSwaps::default();
    let mut moves = Vec::new();
    let mut orbits = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut stack = vec![game.start.clone()];
    while let Some(p) = stack.pop() {
        if seen.contains(&p) {
            continue;
        }
        if seen.len() >= max_positions {
            return Err(format!("the strategy reaches more than {max_positions} positions"));
        }
        let text = String::from_utf8_lossy(&p).into_owned();
        match to_move(&p, game.rounds) {
            Ok(Some(mover)) if mover == player => {
                let v = policy(&p);
                moves.push((text, name(v)));
                let mut q = p.clone();
                q[v] = mine;
                stack.push(q);
            }
            Ok(Some(_)) => {
                let fixing = swaps.fixing(tree, &p);
                let chosen: Vec<&[(usize, usize)]> =
                    fixing.iter().map(|&g| swaps.generators[g].as_slice()).collect();
                let representative = orbit_representatives(n, &chosen);
                for m in (0..n).filter(|&m| p[m] == b'.' && representative[m] == m) {
                    let mut q = p.clone();
                    q[m] = theirs;
                    stack.push(q);
                }
                if !fixing.is_empty() {
                    orbits.push((text, fixing));
                }
            }
            _ => {}
        }
        seen.insert(p);
    }
    Ok(VoronoiStrategy {
        player,
        claim,
        margin,
        moves,
        symmetries: Vec::new(),
        twin_classes: Vec::new(),
        generators: swaps.named(graph),
        orbits,
        canonical_root: None,
    })
}

/// Algorithm 1: W's certificate (claim: W wins) on a tree rooted at `root`, for 2n <= k.
pub fn algorithm1(game: &MultiRound, root: usize) -> Result<VoronoiStrategy, String> {
    algorithm1_within(game, root, MAX_POSITIONS)
}

/// [`algorithm1`] with at most `max_positions` positions in the certificate (an error past
/// it).
pub fn algorithm1_within(
    game: &MultiRound,
    root: usize,
    max_positions: usize,
) -> Result<VoronoiStrategy, String> {
    let tree = RootedTree::new(&game.graph, root)?;
    let mut policy = |p: &[u8]| -> usize {
        if p[tree.root] == b'.' {
            return tree.root;
        }
        let empty = tree.empty_subtrees(p);
        tree.children[tree.root]
            .iter()
            .copied()
            .find(|&c| empty[c])
            .or_else(|| (0..p.len()).find(|&v| p[v] == b'.'))
            .expect("a position with a move has an empty vertex")
    };
    expand_on_tree(
        game,
        &tree,
        Player::White,
        StrategyClaim::Wins,
        None,
        max_positions,
        &mut policy,
    )
}

/// The key level h (k^(h-1) < n <= k^h) and whether Algorithm 2 plays case (A): alpha = 2n/k^h
/// > (k^2 - 2)/(k (k - 1)), compared exactly as 2n k (k - 1) > (k^2 - 2) k^h.
pub fn key_level(k: u64, n: u64) -> (u32, bool) {
    let mut h = 0u32;
    let mut power = 1u128;
    while power < n as u128 {
        power *= k as u128;
        h += 1;
    }
    let (k, n) = (k as u128, n as u128);
    (h, 2 * n * k * (k - 1) > (k * k - 2) * power)
}

/// The steps of Algorithm 2, and the fallback when none applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// (A)-1: a key vertex in a key-vertex set without a stone of ours, most opposing stones.
    A1,
    /// (A)-2: any empty key vertex.
    A2,
    /// (A)-3: a child of an opposing stone, at the smallest level at least h.
    A3,
    /// (B)-1: a vertex of level h - 1.
    B1,
    /// (B)-2: a key vertex whose parent holds an opposing stone.
    B2,
    /// (B)-3: a vertex of level h + 1 whose parent holds an opposing stone, else one of ours.
    B3,
    /// No step applies: the first empty vertex at the smallest level at least h, else any.
    Fallback,
}

/// How often each step was played while a certificate was built.
pub type StepCounts = std::collections::BTreeMap<Step, u64>;

/// Algorithm 2's move for the player whose stones are `mine` in `position`: the first of the
/// moves the step that applies allows.
pub fn algorithm2_move(t: &CompleteTree, n: usize, position: &[u8], mine: u8) -> (usize, Step) {
    let (options, step) = algorithm2_options(t, n, position, mine);
    (options[0], step)
}

/// Every move Algorithm 2 allows the player whose stones are `mine` (the paper's "any" and
/// "a"), in vertex order, and the step that applies. Never empty while a vertex is empty.
pub fn algorithm2_options(
    t: &CompleteTree,
    n: usize,
    position: &[u8],
    mine: u8,
) -> (Vec<usize>, Step) {
    let theirs = if mine == b'W' { b'B' } else { b'W' };
    let (h, case_a) = key_level(t.k as u64, n as u64);
    let empty = |v: usize| position[v] == b'.';
    let parent_is = |v: usize, c: u8| t.tree.parent[v].is_some_and(|p| position[p] == c);
    let all = |l: u32, ok: &dyn Fn(usize) -> bool| -> Vec<usize> {
        t.levels
            .get(l as usize)
            .map_or(Vec::new(), |l| l.iter().copied().filter(|&v| ok(v)).collect())
    };
    let found = |options: Vec<usize>, step: Step| (!options.is_empty()).then_some((options, step));
    let chosen = if case_a {
        // Key-vertex sets: the children of each vertex of level h - 1 ({root} when h = 0).
        let sets: Vec<Vec<usize>> = if h == 0 {
            vec![vec![t.tree.root]]
        } else {
            all(h - 1, &|_| true).iter().map(|&u| t.tree.children[u].clone()).collect()
        };
        let count = |set: &[usize], c: u8| set.iter().filter(|&&v| position[v] == c).count();
        let open: Vec<&Vec<usize>> = sets
            .iter()
            .filter(|set| count(set, mine) == 0 && set.iter().any(|&v| empty(v)))
            .collect();
        let most = open.iter().map(|set| count(set, theirs)).max();
        let a1: Vec<usize> = open
            .iter()
            .filter(|set| Some(count(set, theirs)) == most)
            .flat_map(|set| set.iter().copied().filter(|&v| empty(v)))
            .collect();
        found(a1, Step::A1).or_else(|| found(all(h, &|v| empty(v)), Step::A2)).or_else(|| {
            (h..=t.height)
                .find_map(|l| found(all(l, &|v| empty(v) && parent_is(v, theirs)), Step::A3))
        })
    } else {
        h.checked_sub(1)
            .and_then(|l| found(all(l, &|v| empty(v)), Step::B1))
            .or_else(|| found(all(h, &|v| empty(v) && parent_is(v, theirs)), Step::B2))
            .or_else(|| found(all(h + 1, &|v| empty(v) && parent_is(v, theirs)), Step::B3))
            .or_else(|| found(all(h + 1, &|v| empty(v) && parent_is(v, mine)), Step::B3))
    };
    chosen.unwrap_or_else(|| {
        let v = (h..=t.height)
            .find_map(|l| all(l, &|v| empty(v)).first().copied())
            .or_else(|| (0..position.len()).find(|&v| empty(v)))
            .expect("a position with a move has an empty vertex");
        (vec![v], Step::Fallback)
    })
}

/// Algorithm 2 for W as a certificate with `claim`, and how often each step was played.
pub fn algorithm2(
    game: &MultiRound,
    root: usize,
    claim: StrategyClaim,
    margin: Option<i64>,
    max_positions: usize,
) -> Result<(VoronoiStrategy, StepCounts), String> {
    let t = CompleteTree::new(game, root)?;
    let mut steps = StepCounts::new();
    let mut policy = |p: &[u8]| {
        let (v, step) = algorithm2_move(&t, game.rounds, p, b'W');
        *steps.entry(step).or_default() += 1;
        v
    };
    let strategy =
        expand_on_tree(game, &t.tree, Player::White, claim, margin, max_positions, &mut policy)?;
    Ok((strategy, steps))
}

/// B's symmetric strategy (Theorem 2) as a certificate with `claim`, following the proof: as
/// long as W plays the key-level strategy, B mirrors (the position before W's move is
/// symmetric up to colours, W's move is one Algorithm 2 allows there, and its mirror is
/// empty); otherwise B plays its own key-level move. The counts are (mirror moves, key-level
/// moves).
pub fn symmetric_strategy(
    game: &MultiRound,
    root: usize,
    claim: StrategyClaim,
    margin: Option<i64>,
    max_positions: usize,
) -> Result<(VoronoiStrategy, (u64, u64)), String> {
    let t = CompleteTree::new(game, root)?;
    let mut counts = (0u64, 0u64);
    let mut policy = |p: &[u8]| {
        let unanswered: Vec<usize> =
            (0..p.len()).filter(|&v| p[v] == b'W' && p[t.mirror[v]] != b'B').collect();
        let mirrored = match unanswered[..] {
            [v] if p[t.mirror[v]] == b'.' => {
                let mut before = p.to_vec();
                before[v] = b'.';
                let (options, _) = algorithm2_options(&t, game.rounds, &before, b'W');
                options.contains(&v).then_some(t.mirror[v])
            }
            _ => None,
        };
        match mirrored {
            Some(m) => {
                counts.0 += 1;
                m
            }
            None => {
                counts.1 += 1;
                algorithm2_move(&t, game.rounds, p, b'B').0
            }
        }
    };
    let strategy =
        expand_on_tree(game, &t.tree, Player::Black, claim, margin, max_positions, &mut policy)?;
    Ok((strategy, counts))
}

/// The paper's strategies on a complete k-ary tree (arity `k`, root `r`), each certificate
/// replayed by the checker here: Algorithm 1 when 2n <= k (W wins); otherwise the key-level
/// strategy, for odd k claiming a W win (Theorem 1), for even k a value of 0 from W's
/// key-level and B's symmetric strategies (Theorem 2). `Ok(None)` when the claim fails on
/// this tree (below the paper's size bound it may) or the certificate would be too large.
pub fn kary_certificate(
    game: &MultiRound,
    k: u64,
) -> Result<Option<(Certificate, &'static str)>, String> {
    kary_certificate_within(game, k, kary_position_limit(game))
}

/// The positions [`kary_certificate`] allows each certificate: [`MAX_POSITIONS`],
/// and at most a gigabyte of position strings (one byte per vertex each).
pub fn kary_position_limit(game: &MultiRound) -> usize {
    MAX_POSITIONS.min(1_000_000_000 / game.graph.len().max(1))
}

/// [`kary_certificate`] with at most `limit` positions per certificate.
pub fn kary_certificate_within(
    game: &MultiRound,
    k: u64,
    limit: usize,
) -> Result<Option<(Certificate, &'static str)>, String> {
    let root = game.graph.vertex("r").ok_or("gen names the root r")?;
    let n = game.rounds;
    let replay = |s: &VoronoiStrategy| {
        // About a position's fingerprint and its move list per position of the limit.
        let units = (limit as u64).saturating_mul(64 + 16 * game.graph.len() as u64);
        check_strategy(&game.graph, n, &game.start, s, &mut Budget::new(units)).is_ok()
    };
    if 2 * n as u64 <= k {
        let Ok(strategy) = algorithm1_within(game, root, limit) else {
            return Ok(None);
        };
        return Ok(Some((Certificate::VoronoiStrategy(strategy), "Algorithm 1 (Proposition 1)")));
    }
    if k % 2 == 1 {
        let Ok((strategy, _)) = algorithm2(game, root, StrategyClaim::Wins, None, limit) else {
            return Ok(None);
        };
        return Ok(replay(&strategy).then_some((
            Certificate::VoronoiStrategy(strategy),
            "Algorithm 2, the key-level strategy (Theorem 1)",
        )));
    }
    let white = algorithm2(game, root, StrategyClaim::MarginAtLeast, Some(0), limit)
        .ok()
        .map(|(s, _)| s)
        .filter(|s| replay(s));
    let black = white.as_ref().and_then(|_| {
        symmetric_strategy(game, root, StrategyClaim::MarginAtLeast, Some(0), limit)
            .ok()
            .map(|(s, _)| s)
            .filter(|s| replay(s))
    });
    Ok(white.zip(black).map(|(white, black)| {
        (
            Certificate::VoronoiValue(VoronoiValue { value: 0, white, black }),
            "W's key-level and B's symmetric strategy (Theorem 2)",
        )
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::gen::kary_tree;
    use gamecert_certificates::voronoi::multi_round::{check_strategy, ReplayReport};

    #[test]
    fn proposition1_for_every_k_up_to_6() {
        // Every (k, n) with 2n <= k, k <= 6, on trees of height 2 and 3: W wins by Algorithm 1.
        for k in 2..=6u64 {
            for height in 2..=3u32 {
                for n in 1..=(k as usize / 2) {
                    let spec = kary_tree(k, height, n).unwrap();
                    let game = spec.validate().unwrap();
                    let root = game.graph.vertex("r").unwrap();
                    let cert = algorithm1(&game, root).unwrap();
                    let report = check_strategy(
                        &game.graph,
                        n,
                        &game.start,
                        &cert,
                        &mut gamecert_certificates::base::budget::Budget::unlimited(),
                    )
                    .unwrap_or_else(|e| panic!("k {k}, height {height}, n {n}: {e}"));
                    assert!(report.worst_margin.unwrap() >= 1);
                }
            }
        }
    }

    /// Seed 001's Theorem 2 reads "k > 2n, k even, N >= (k^3 n^2 - 1)/(k - 1): a tie". On
    /// instances meeting that hypothesis W wins, certified by Algorithm 1, so the theorem
    /// cannot mean k > 2n; it must mean 2n > k, as the paper's introduction states.
    #[test]
    fn theorem2_cannot_mean_k_greater_than_2n() {
        for (k, n, height) in [(4u64, 1usize, 2u32), (6, 2, 3)] {
            let spec = kary_tree(k, height, n).unwrap();
            let size = spec.graph.vertices.len() as u64;
            let bound = (k.pow(3) * (n * n) as u64 - 1).div_ceil(k - 1);
            assert!(k % 2 == 0 && k > 2 * n as u64 && size >= bound, "k {k}, n {n}");
            let game = spec.validate().unwrap();
            let cert = algorithm1(&game, game.graph.vertex("r").unwrap()).unwrap();
            let report = check_strategy(
                &game.graph,
                n,
                &game.start,
                &cert,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap();
            assert!(report.worst_margin.unwrap() >= 1, "not a tie: W wins");
        }
    }

    /// Seed 001, Proposition 2 and the facts about the magic number alpha = 2n / k^h that
    /// Algorithm 2 relies on, checked for k = 2..9 and n = 1..40 on the smallest complete tree
    /// with N >= (k^3 n^2 - 1)/(k - 1): the key level h (k^(h-1) < n <= k^h) exists, H >= 2h + 1,
    /// a subtree rooted at level h + 1 is larger than levels 0..h-1 together, 2/k < alpha <= 2,
    /// and alpha != 1 when k is odd.
    #[test]
    fn proposition2_and_the_magic_number() {
        for k in 2..=9u128 {
            for n in 1..=40u128 {
                let bound = (k.pow(3) * n * n - 1).div_ceil(k - 1);
                let size = |h: u32| (k.pow(h + 1) - 1) / (k - 1);
                let height = (1..).find(|&h| size(h) >= bound).unwrap();
                let key = (0..).find(|&h| k.pow(h) >= n).unwrap();
                assert!(key == 0 || k.pow(key - 1) < n, "k {k}, n {n}");
                // H >= 2h + 1.
                assert!(height > 2 * key, "k {k}, n {n}: H {height}, h {key}");
                let below = size(height - key - 1);
                let top = if key == 0 { 0 } else { size(key - 1) };
                assert!(below > top, "k {k}, n {n}");
                // alpha = 2n / k^h, compared as fractions.
                let (num, den) = (2 * n, k.pow(key));
                assert!(2 * den < num * k && num <= 2 * den, "k {k}, n {n}");
                if k % 2 == 1 {
                    assert_ne!(num, den, "k {k}, n {n}");
                }
            }
        }
    }

    #[test]
    fn orbits_fold_symmetric_replies() {
        let game = kary_tree(3, 2, 1).unwrap().validate().unwrap();
        let cert = algorithm1(&game, game.graph.vertex("r").unwrap()).unwrap();
        let report = check_strategy(
            &game.graph,
            1,
            &game.start,
            &cert,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .unwrap();
        // B's 12 replies fold to one child and one grandchild.
        assert_eq!(report.leaves, 2);
        assert_eq!(report.symmetries_used, 10);
    }

    /// Builds `which` ("algorithm2" with `claim`, or "symmetric") on the complete k-ary tree of
    /// `height` with n rounds and replays it; returns the checker's report and step counts.
    fn replay(
        k: u64,
        height: u32,
        n: usize,
        symmetric: bool,
        claim: StrategyClaim,
        margin: Option<i64>,
    ) -> (ReplayReport, StepCounts) {
        let game = kary_tree(k, height, n).unwrap().validate().unwrap();
        let root = game.graph.vertex("r").unwrap();
        let (cert, steps) = if symmetric {
            (
                symmetric_strategy(&game, root, claim, margin, MAX_POSITIONS).unwrap().0,
                StepCounts::new(),
            )
        } else {
            algorithm2(&game, root, claim, margin, MAX_POSITIONS).unwrap()
        };
        let report = check_strategy(
            &game.graph,
            n,
            &game.start,
            &cert,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .unwrap_or_else(|e| panic!("k {k}, height {height}, n {n}: {e}"));
        (report, steps)
    }

    /// The smallest complete k-ary tree with N >= (k^3 n^2 - 1)/(k - 1) (Theorems 1 and 2).
    fn smallest_height(k: u64, n: u64) -> u32 {
        let bound = (k.pow(3) * n * n - 1).div_ceil(k - 1);
        (1..).find(|&h| crate::voronoi::gen::kary_size(k, h).unwrap() >= bound).unwrap()
    }

    /// Theorem 1 (Lemma 2): on the smallest odd complete tree meeting the bound, Algorithm 2
    /// wins for W, for k in {3, 5} and n in {2, 3}; both of its cases occur.
    #[test]
    fn theorem1_algorithm2_wins_on_the_smallest_trees() {
        let mut steps = StepCounts::new();
        for (k, n) in [(3u64, 2usize), (3, 3), (5, 2), (5, 3)] {
            let height = smallest_height(k, n as u64);
            let (report, used) = replay(k, height, n, false, StrategyClaim::Wins, None);
            assert!(report.worst_margin.unwrap() >= 1);
            let (_, case_a) = key_level(k, n as u64);
            assert_eq!(case_a, (k, n) != (5, 2), "k {k}, n {n}: alpha = 2n/k^h");
            for (step, count) in used {
                *steps.entry(step).or_default() += count;
            }
        }
        for step in [Step::A1, Step::A2, Step::A3, Step::B1, Step::B3] {
            assert!(steps.contains_key(&step), "{step:?} never played: {steps:?}");
        }
        // B's moves off the key levels leave case (B) without a step: the fallback.
        assert!(steps.contains_key(&Step::Fallback));
    }

    /// Case (B) with h >= 2, where B can take a vertex of level h - 1 and step (B)-2 occurs:
    /// k = 3, n = 4 (alpha = 8/9) on the smallest tree meeting the bound (364 vertices).
    #[test]
    fn algorithm2_case_b_plays_every_step() {
        assert_eq!(key_level(3, 4), (2, false));
        assert_eq!(smallest_height(3, 4), 5);
        let (report, steps) = replay(3, 5, 4, false, StrategyClaim::Wins, None);
        assert!(report.worst_margin.unwrap() >= 1);
        for step in [Step::B1, Step::B2, Step::B3] {
            assert!(steps[&step] > 0, "{step:?}: {steps:?}");
        }
    }

    /// Theorem 2 (read as 2n > k): on the smallest even complete tree meeting the bound, W's
    /// key-level strategy guarantees at least a tie and so does B's symmetric strategy: the
    /// value is 0. k = 4 with n = 3, 4 (341 vertices) and k = 6 with n = 4 (1555 vertices).
    #[test]
    fn theorem2_tie_on_the_smallest_even_trees() {
        for (k, n) in [(4u64, 3usize), (4, 4), (6, 4)] {
            let height = smallest_height(k, n as u64);
            assert_eq!(height, 4);
            for symmetric in [false, true] {
                let (report, _) = replay(k, height, n, symmetric, StrategyClaim::AtLeastTies, None);
                assert_eq!(report.worst_margin, Some(0), "k {k}, n {n}");
            }
        }
    }

    #[test]
    fn a_mutated_key_level_certificate_is_rejected() {
        let game = kary_tree(3, 4, 2).unwrap().validate().unwrap();
        let root = game.graph.vertex("r").unwrap();
        let (cert, _) = algorithm2(&game, root, StrategyClaim::Wins, None, MAX_POSITIONS).unwrap();
        let check = |c: &VoronoiStrategy| {
            check_strategy(
                &game.graph,
                2,
                &game.start,
                c,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
        };
        assert!(check(&cert).is_ok());
        // W's first move to a leaf instead of a key vertex: B takes the root and wins.
        let mut bad = cert.clone();
        let leaf = game.graph.vertex("r.1.1.1.1").unwrap();
        bad.moves[0].1 = game.graph.name(leaf).to_string();
        assert!(check(&bad).is_err());
        // An orbit entry naming a swap that does not fix its position.
        let mut bad = cert.clone();
        let (position, _) = bad.orbits[1].clone();
        let unfixed = (0..bad.generators.len())
            .find(|&g| {
                bad.generators[g].iter().any(|(a, b)| {
                    let at = |v: &str| position.as_bytes()[game.graph.vertex(v).unwrap()];
                    at(a) != at(b)
                })
            })
            .unwrap();
        bad.orbits[1].1.push(unfixed);
        let err = check(&bad).unwrap_err();
        assert!(err.contains("does not fix the position"), "{err}");
        // A generator that is not an automorphism: swap a leaf with an inner vertex.
        let mut bad = cert;
        bad.generators[0] = vec![
            ("r.1".to_string(), "r.1.1.1.1".to_string()),
            ("r.1.1.1.1".to_string(), "r.1".to_string()),
        ];
        let err = check(&bad).unwrap_err();
        assert!(err.contains("not an automorphism"), "{err}");
    }
}

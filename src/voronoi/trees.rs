//! Trees: the one-round game on any tree by the median rule (seed 001, conclusion), and the
//! enumeration of all trees up to isomorphism for the cross-check against the exact solver.
//!
//! With one round, W's best move is a median: a vertex whose removal leaves no component with
//! more than N/2 vertices. A tree has one median or two adjacent ones. With one median W
//! takes it and wins (every reply of B gets at most the component it lands in, fewer than N/2
//! vertices, and W keeps the rest). With two medians every component is at most N/2 and the
//! game is a tie: W takes a median (B's best reply, the other median, splits the tree N/2 to
//! N/2), and B answers any W move with a best reply (found by trying every vertex; the checker
//! replays both strategies). Finding the medians is linear; the certificates are checked by
//! the checker like any other.
//!
//! Size limits: with two medians the certificate lists B's reply to each of the N first moves
//! (N position strings of N characters, [`median_certificate_cost`]), each reply found by
//! scoring all N - 1 answers, N^3 steps in all (12 s at N = 1,000 and 119 s at N = 2,000,
//! release). `solve` refuses a tree whose certificate would take more than
//! [`MAX_MEDIAN_WORK`] steps (N over about 2,700: several minutes) or more memory than the
//! 8 GiB allowance of [`crate::base::limits`]. One median needs a single move at any size.

use crate::voronoi::exact::ExactSolver;
pub use crate::voronoi::tree_symmetry::{is_tree, RootedTree};
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::format::{Certificate, MultiRound};
use gamecert_certificates::voronoi::multi_round::{
    margin, StrategyClaim, VoronoiStrategy, VoronoiValue,
};
use gamecert_certificates::voronoi::rules::Player;
use std::collections::BTreeSet;

/// The medians of a tree, in vertex order: one or two vertices. Linear time.
pub fn medians(graph: &Graph) -> Vec<usize> {
    let n = graph.len();
    let Ok(tree) = RootedTree::new(graph, 0) else {
        return Vec::new();
    };
    let mut size = vec![1usize; n];
    for &v in tree.order.iter().rev() {
        if let Some(p) = tree.parent[v] {
            size[p] += size[v];
        }
    }
    (0..n)
        .filter(|&v| {
            let largest_child = tree.children[v].iter().map(|&w| size[w]).max().unwrap_or(0);
            largest_child.max(n - size[v]) * 2 <= n
        })
        .collect()
}

/// Why `graph` is not a tree, for an error message: its vertex and edge counts, or a vertex
/// it cannot reach.
pub fn not_a_tree(graph: &Graph) -> String {
    let (n, m) = (graph.len(), graph.edge_count());
    if n > 0 && m + 1 != n {
        return format!(
            "the graph is not a tree: {n} vertices and {m} edges (a tree has {})",
            n - 1
        );
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    while let Some(v) = stack.pop() {
        if n > 0 && !std::mem::replace(&mut seen[v], true) {
            stack.extend(graph.neighbours(v).iter().copied());
        }
    }
    match (0..n).find(|&v| !seen[v]) {
        Some(v) => format!(
            "the graph is not a tree: '{}' cannot be reached from '{}' (and so it has a cycle)",
            graph.name(v),
            graph.name(0)
        ),
        None => "the graph is a tree".to_string(),
    }
}

fn position_with(n: usize, occupied: &[(usize, u8)]) -> Vec<u8> {
    let mut p = vec![b'.'; n];
    for &(v, c) in occupied {
        p[v] = c;
    }
    p
}

/// B's best reply to W's move `w` (the first in vertex order among the best).
fn best_reply(graph: &Graph, w: usize) -> usize {
    let n = graph.len();
    (0..n)
        .filter(|&b| b != w)
        .min_by_key(|&b| margin(graph, &position_with(n, &[(w, b'W'), (b, b'B')]), Player::White))
        .expect("a game of one round has at least two vertices")
}

/// The most steps (vertex visits of the margin BFSs) `solve` spends on a two-median
/// certificate: 2 * 10^10, about five minutes.
pub const MAX_MEDIAN_WORK: u128 = 20_000_000_000;

/// The cost of [`median_certificate`] on a tree of `n` vertices with `medians` medians: (bytes
/// of the certificate, steps). One median: one position string. Two: N positions of N
/// characters and a vertex name (about 64 bytes with the vector overhead), and N best
/// replies, each scoring N - 1 answers by an N-vertex BFS.
pub fn median_certificate_cost(n: usize, medians: usize) -> (u128, u128) {
    let n = n as u128;
    if medians < 2 {
        (n + 64, n)
    } else {
        (n * (n + 64), n * n.saturating_sub(1) * n)
    }
}

/// Refuses a median-rule certificate over [`MAX_MEDIAN_WORK`] steps or the memory allowance.
pub fn check_median_size(graph: &Graph) -> Result<(), crate::base::limits::TooLarge> {
    use crate::base::limits::{grouped, human_bytes, TooLarge, MEMORY_ALLOWANCE};
    let (bytes, work) = median_certificate_cost(graph.len(), medians(graph).len());
    if work <= MAX_MEDIAN_WORK && bytes <= u128::from(MEMORY_ALLOWANCE) {
        return Ok(());
    }
    Err(TooLarge {
        what: "the median rule's certificate (two medians: B's best reply to every first move)"
            .into(),
        estimate: format!(
            "{} steps and {} for {} vertices",
            grouped(work),
            human_bytes(bytes),
            grouped(graph.len() as u128)
        ),
        limit: format!(
            "{} steps and {}",
            grouped(MAX_MEDIAN_WORK),
            human_bytes(u128::from(MEMORY_ALLOWANCE))
        ),
        suggestion: "the tree is too large for a certified solve (its value is 0 by the \
                     median rule: two medians)"
            .into(),
    })
}

/// The median rule's certificate for the one-round game on a tree: W's winning strategy (one
/// median) or the value 0 (two medians).
pub fn median_certificate(game: &MultiRound) -> Result<Certificate, String> {
    let graph = &game.graph;
    if game.rounds != 1 || game.start.iter().any(|&c| c != b'.') {
        return Err("the median rule is for one round from the empty position".into());
    }
    if !is_tree(graph) {
        return Err("the median rule needs a tree".into());
    }
    let n = graph.len();
    let empty = String::from_utf8(vec![b'.'; n]).expect("ASCII");
    let m = medians(graph);
    let white_move = |claim, margin| VoronoiStrategy {
        player: Player::White,
        claim,
        margin,
        moves: vec![(empty.clone(), graph.name(m[0]).to_string())],
        symmetries: Vec::new(),
        twin_classes: Vec::new(),
        generators: Vec::new(),
        orbits: Vec::new(),
        canonical_root: None,
    };
    if m.len() == 1 {
        return Ok(Certificate::VoronoiStrategy(white_move(StrategyClaim::Wins, None)));
    }
    let moves = (0..n)
        .map(|w| {
            let p = position_with(n, &[(w, b'W')]);
            (String::from_utf8(p).expect("ASCII"), graph.name(best_reply(graph, w)).to_string())
        })
        .collect();
    Ok(Certificate::VoronoiValue(VoronoiValue {
        value: 0,
        white: white_move(StrategyClaim::MarginAtLeast, Some(0)),
        black: VoronoiStrategy {
            player: Player::Black,
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(0),
            moves,
            symmetries: Vec::new(),
            twin_classes: Vec::new(),
            generators: Vec::new(),
            orbits: Vec::new(),
            canonical_root: None,
        },
    }))
}

/// The small cases the tree solvers are cross-checked on: every tree with 2 to `max_n`
/// vertices (`all_trees`) and 1 to `max_rounds` rounds (at most n / 2), from an empty start,
/// as its spec, the validated game and a median to root it at.
#[cfg(test)]
pub fn small_tree_games(
    max_n: usize,
    max_rounds: usize,
) -> Vec<(gamecert_certificates::format::MultiRoundSpec, MultiRound, usize)> {
    use gamecert_certificates::format::{GraphSpec, MultiRoundSpec};
    let mut games = Vec::new();
    for n in 2..=max_n {
        for edges in all_trees(n) {
            for rounds in 1..=max_rounds.min(n / 2) {
                let spec = MultiRoundSpec {
                    graph: GraphSpec::numbered(n, &edges),
                    rounds,
                    start: None,
                    source: None,
                };
                let game = spec.validate().expect("a tree is a valid graph");
                let root = medians(&game.graph)[0];
                games.push((spec, game, root));
            }
        }
    }
    games
}

/// All trees with `n` vertices up to isomorphism, as edge lists over 0..n.
pub fn all_trees(n: usize) -> Vec<Vec<(usize, usize)>> {
    if n == 0 {
        return Vec::new();
    }
    let mut layer: Vec<Vec<(usize, usize)>> = vec![Vec::new()];
    for size in 1..n {
        let mut seen = BTreeSet::new();
        let mut next = Vec::new();
        for tree in &layer {
            for v in 0..size {
                let mut grown = tree.clone();
                grown.push((v, size));
                if seen.insert(canonical(size + 1, &grown)) {
                    next.push(grown);
                }
            }
        }
        layer = next;
    }
    layer
}

/// A canonical string of a free tree: the smallest AHU encoding over its centres.
fn canonical(n: usize, edges: &[(usize, usize)]) -> String {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    // Centres: peel leaves.
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut leaves: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    let mut left = n;
    while left > 2 {
        left -= leaves.len();
        let mut next = Vec::new();
        for &v in &leaves {
            for &w in &adj[v] {
                degree[w] -= 1;
                if degree[w] == 1 {
                    next.push(w);
                }
            }
        }
        leaves = next;
    }
    fn encode(v: usize, parent: usize, adj: &[Vec<usize>]) -> String {
        let mut children: Vec<String> =
            adj[v].iter().filter(|&&w| w != parent).map(|&w| encode(w, v, adj)).collect();
        children.sort();
        format!("({})", children.concat())
    }
    leaves.iter().map(|&c| encode(c, usize::MAX, &adj)).min().unwrap_or_default()
}

/// The exact value of the one-round game on a tree, for the cross-check.
pub fn exact_value(game: &MultiRound) -> Result<i64, String> {
    Ok(ExactSolver::new(game)?.sequential_value().0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::check;
    use gamecert_certificates::format::{GraphSpec, Instance, MultiRoundSpec};
    use gamecert_certificates::Limits;

    /// The cost bounds the certificate's text on paths (two medians for even N, one for odd),
    /// and a long even path is refused while a long odd one is not.
    #[test]
    fn median_cost_bounds_the_certificate() {
        for n in 2..=12usize {
            let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
            let game = spec(n, &edges).validate().unwrap();
            let (bytes, _) = median_certificate_cost(n, medians(&game.graph).len());
            let text: u128 = match median_certificate(&game).unwrap() {
                Certificate::VoronoiValue(v) => v
                    .black
                    .moves
                    .iter()
                    .chain(&v.white.moves)
                    .map(|(p, m)| (p.len() + m.len()) as u128)
                    .sum(),
                Certificate::VoronoiStrategy(w) => {
                    w.moves.iter().map(|(p, m)| (p.len() + m.len()) as u128).sum()
                }
                other => panic!("{other:?}"),
            };
            assert!(text <= bytes, "n = {n}");
        }
        let long = |n: usize| {
            let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
            spec(n, &edges).validate().unwrap().graph
        };
        assert!(check_median_size(&long(4000)).is_err());
        assert!(check_median_size(&long(4001)).is_ok());
        assert!(check_median_size(&long(1000)).is_ok());
    }

    #[test]
    fn not_a_tree_says_why() {
        let graph = |n: usize, edges: &[(usize, usize)]| spec(n, edges).validate().unwrap().graph;
        let triangle_and_point = graph(4, &[(0, 1), (1, 2), (2, 0)]);
        assert!(!is_tree(&triangle_and_point));
        assert!(not_a_tree(&triangle_and_point).contains("'v3' cannot be reached from 'v0'"));
        let cycle = graph(3, &[(0, 1), (1, 2), (2, 0)]);
        assert!(not_a_tree(&cycle).contains("3 vertices and 3 edges"));
        assert_eq!(not_a_tree(&graph(2, &[(0, 1)])), "the graph is a tree");
    }

    fn spec(n: usize, edges: &[(usize, usize)]) -> MultiRoundSpec {
        MultiRoundSpec {
            graph: GraphSpec::numbered(n, edges),
            rounds: 1,
            start: None,
            source: None,
        }
    }

    #[test]
    fn counts_trees_up_to_isomorphism() {
        // OEIS A000055: 1, 1, 1, 2, 3, 6, 11, 23, 47, 106.
        let counts: Vec<usize> = (1..=10).map(|n| all_trees(n).len()).collect();
        assert_eq!(counts, vec![1, 1, 1, 2, 3, 6, 11, 23, 47, 106]);
    }

    #[test]
    fn median_rule_matches_the_exact_solver_on_all_trees_up_to_10_vertices() {
        let mut checked = 0;
        for n in 2..=10 {
            for edges in all_trees(n) {
                let spec = spec(n, &edges);
                let game = spec.validate().unwrap();
                let m = medians(&game.graph);
                let value = exact_value(&game).unwrap();
                assert_eq!(m.len() == 1, value > 0, "{edges:?}: medians {m:?}, value {value}");
                assert_eq!(m.len() == 2, value == 0, "{edges:?}: medians {m:?}, value {value}");
                let cert = median_certificate(&game).unwrap();
                let verdict = check(&Instance::Voronoi(spec), &cert, &Limits::default());
                assert!(verdict.accepted(), "{edges:?}: {}", verdict.reason);
                checked += 1;
            }
        }
        assert_eq!(checked, 1 + 1 + 2 + 3 + 6 + 11 + 23 + 47 + 106);
    }
}

//! Strategies on complete k-ary trees (seed 001, Section 3), as strategy programs whose
//! certificates fold symmetric replies with verified automorphism witnesses.
//!
//! Algorithm 1 (Proposition 1, 2n <= k): W occupies the root, then a child of the root whose
//! subtree is entirely empty. When 2n <= k such a child always exists, and W wins.
//!
//! The rooted-tree machinery (subtree emptiness, subtree swaps, canonical replies) is
//! [`crate::trees::RootedTree`].
//!
//! Symmetry: sibling subtrees of a complete tree have the same shape, and swapping two of them
//! (matching children in order) is an automorphism; when both are entirely empty it fixes the
//! position. An opponent's move is mapped to a canonical representative by such swaps, level by
//! level from the root (at each level, into the first empty sibling subtree); the composed
//! permutation goes into the certificate as the witness, and the checker verifies it.

use crate::trees::RootedTree;
use gamecert_certificates::format::MultiRound;
use gamecert_certificates::voronoi::Player;
use gamecert_certificates::voronoi_game::{to_move, StrategyClaim, Symmetry, VoronoiStrategy};
use std::collections::HashSet;

/// Plays `policy` for `player` against every opponent move, folding symmetric replies with
/// witnesses from the rooted tree, and records the certificate.
pub fn expand_on_tree(
    game: &MultiRound,
    tree: &RootedTree,
    player: Player,
    claim: StrategyClaim,
    margin: Option<i64>,
    policy: &dyn Fn(&[u8]) -> usize,
) -> VoronoiStrategy {
    let graph = &game.graph;
    let n = graph.len();
    let (mine, theirs) = match player {
        Player::White => (b'W', b'B'),
        Player::Black => (b'B', b'W'),
    };
    let name = |v: usize| graph.name(v).to_string();
    let mut moves = Vec::new();
    let mut symmetries: Vec<Symmetry> = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut stack = vec![game.start.clone()];
    while let Some(p) = stack.pop() {
        if !seen.insert(p.clone()) {
            continue;
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
                let empty = tree.empty_subtrees(&p);
                for m in 0..n {
                    if p[m] != b'.' {
                        continue;
                    }
                    let reply = match tree.canonical(&empty, m) {
                        Some((rep, pairs)) => {
                            symmetries.push((
                                text.clone(),
                                name(m),
                                name(rep),
                                pairs.into_iter().map(|(a, b)| (name(a), name(b))).collect(),
                            ));
                            rep
                        }
                        None => m,
                    };
                    let mut q = p.clone();
                    q[reply] = theirs;
                    stack.push(q);
                }
            }
            _ => {}
        }
    }
    VoronoiStrategy {
        player,
        claim,
        margin,
        moves,
        symmetries,
        twin_classes: Vec::new(),
    }
}

/// Algorithm 1: W's certificate (claim: W wins) on a tree rooted at `root`, for 2n <= k.
pub fn algorithm1(game: &MultiRound, root: usize) -> Result<VoronoiStrategy, String> {
    let tree = RootedTree::new(&game.graph, root)?;
    let policy = |p: &[u8]| -> usize {
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
    Ok(expand_on_tree(
        game,
        &tree,
        Player::White,
        StrategyClaim::Wins,
        None,
        &policy,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::kary_tree;
    use gamecert_certificates::voronoi_game::check_strategy;

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
                    let report = check_strategy(&game.graph, n, &game.start, &cert, 10_000_000)
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
            assert!(
                k % 2 == 0 && k > 2 * n as u64 && size >= bound,
                "k {k}, n {n}"
            );
            let game = spec.validate().unwrap();
            let cert = algorithm1(&game, game.graph.vertex("r").unwrap()).unwrap();
            let report = check_strategy(&game.graph, n, &game.start, &cert, 10_000_000).unwrap();
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
    fn witnesses_fold_symmetric_replies() {
        let game = kary_tree(3, 2, 1).unwrap().validate().unwrap();
        let cert = algorithm1(&game, game.graph.vertex("r").unwrap()).unwrap();
        let report = check_strategy(&game.graph, 1, &game.start, &cert, 1000).unwrap();
        // B's 12 replies fold to one child and one grandchild.
        assert_eq!(report.leaves, 2);
        assert_eq!(report.symmetries_used, 10);
    }
}

//! Rooted trees and the swaps of sibling subtrees: the symmetry the exact solver, the tree
//! strategies and the k-ary strategies share (a swap of isomorphic sibling subtrees is an
//! automorphism the checker verifies as a generator).

use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::voronoi::multi_round::orbit_representatives;
use std::collections::HashMap;

/// Whether the graph is a tree (connected, N - 1 edges).
pub fn is_tree(graph: &Graph) -> bool {
    let n = graph.len();
    n > 0
        && graph.edge_count() == n - 1
        && graph.distances_from(&[0]).iter().all(|&d| d != u32::MAX)
}

/// A tree rooted at a vertex, children in vertex order.
pub struct RootedTree {
    pub root: usize,
    pub parent: Vec<Option<usize>>,
    pub children: Vec<Vec<usize>>,
    /// Vertices in an order where each comes after its parent.
    pub order: Vec<usize>,
}

impl RootedTree {
    /// Roots the tree `graph` at `root`; fails if the graph is not a tree.
    pub fn new(graph: &Graph, root: usize) -> Result<RootedTree, String> {
        if !is_tree(graph) {
            return Err("the graph is not a tree".into());
        }
        let n = graph.len();
        let mut parent = vec![None; n];
        let mut children = vec![Vec::new(); n];
        let mut order = vec![root];
        let mut seen = vec![false; n];
        seen[root] = true;
        let mut k = 0;
        while k < order.len() {
            let v = order[k];
            k += 1;
            for &w in graph.neighbours(v) {
                if !seen[w] {
                    seen[w] = true;
                    parent[w] = Some(v);
                    children[v].push(w);
                    order.push(w);
                }
            }
        }
        Ok(RootedTree { root, parent, children, order })
    }

    /// For each vertex, whether its whole subtree is empty in `position`.
    pub fn empty_subtrees(&self, position: &[u8]) -> Vec<bool> {
        let mut empty: Vec<bool> = position.iter().map(|&c| c == b'.').collect();
        for &v in self.order.iter().rev() {
            if let Some(p) = self.parent[v] {
                if !empty[v] {
                    empty[p] = false;
                }
            }
        }
        empty
    }
}

/// Swaps of sibling subtrees as certificate generators, created when first needed.
#[derive(Default)]
pub struct SiblingSwaps {
    index: HashMap<(usize, usize), usize>,
    /// Each generator as (vertex, image) pairs for the vertices it moves.
    pub generators: Vec<Vec<(usize, usize)>>,
}

impl SiblingSwaps {
    /// The swap of the subtrees at `a` and `b`, children matched in order, or `None` if their
    /// shapes differ.
    fn generator(&mut self, tree: &RootedTree, a: usize, b: usize) -> Option<usize> {
        if let Some(&g) = self.index.get(&(a, b)) {
            return Some(g);
        }
        let mut pairs = Vec::new();
        let mut stack = vec![(a, b)];
        while let Some((x, y)) = stack.pop() {
            if tree.children[x].len() != tree.children[y].len() {
                return None;
            }
            pairs.push((x, y));
            pairs.push((y, x));
            stack.extend(tree.children[x].iter().copied().zip(tree.children[y].iter().copied()));
        }
        self.generators.push(pairs);
        self.index.insert((a, b), self.generators.len() - 1);
        Some(self.generators.len() - 1)
    }

    /// For every vertex, the smallest vertex of its orbit under the generators `fixing` gives.
    pub fn representatives(&self, n: usize, fixing: &[usize]) -> Vec<usize> {
        let chosen: Vec<&[(usize, usize)]> =
            fixing.iter().map(|&g| self.generators[g].as_slice()).collect();
        orbit_representatives(n, &chosen)
    }

    /// The generators with vertex names, for a certificate.
    pub fn named(
        &self,
        graph: &gamecert_certificates::base::graph::Graph,
    ) -> Vec<Vec<(String, String)>> {
        self.generators
            .iter()
            .map(|pairs| {
                pairs
                    .iter()
                    .map(|&(a, b)| (graph.name(a).to_string(), graph.name(b).to_string()))
                    .collect()
            })
            .collect()
    }

    /// Generators fixing `position`: at each vertex, children grouped by subtree content
    /// (hashed bottom-up, then verified), the first of a group swapped with each other member.
    pub fn fixing(&mut self, tree: &RootedTree, position: &[u8]) -> Vec<usize> {
        let mut content = vec![0u64; position.len()];
        for &v in tree.order.iter().rev() {
            let mut h = 0x9e37_79b9_7f4a_7c15u64 ^ position[v] as u64;
            for &c in &tree.children[v] {
                h = (h.rotate_left(17) ^ content[c]).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            }
            content[v] = h;
        }
        let mut chosen = Vec::new();
        let mut stack = vec![tree.root];
        while let Some(u) = stack.pop() {
            let children = &tree.children[u];
            let mut grouped = vec![false; children.len()];
            for i in 0..children.len() {
                if grouped[i] {
                    continue;
                }
                stack.push(children[i]);
                for j in i + 1..children.len() {
                    if grouped[j] || content[children[j]] != content[children[i]] {
                        continue;
                    }
                    let Some(g) = self.generator(tree, children[i], children[j]) else {
                        continue;
                    };
                    // A hash collision must not produce a generator the checker rejects.
                    if self.generators[g].iter().all(|&(x, y)| position[x] == position[y]) {
                        grouped[j] = true;
                        chosen.push(g);
                    }
                }
            }
        }
        chosen
    }
}

//! `gamecert gen FAMILY`: instances of the multi-round game on graph families.
//!
//! - `path --vertices N --rounds R`: the path `p1 - p2 - ... - pN`;
//! - `kary-tree --k K --height H --rounds R`: the complete K-ary tree of height H, with
//!   (K^(H+1) - 1) / (K - 1) vertices named by their path from the root: `r`, `r.1`, `r.1.3`, ...
//!   (children numbered from 1);
//! - `tree --vertices N --rounds R --seed S`: a random recursive tree (vertex i > 1 hangs from a
//!   uniformly chosen earlier vertex), vertices `t1..tN`.
//!
//! - `graph --graph6 FILE [--index K] --rounds R` or `graph --dimacs FILE --rounds R`: any
//!   graph of a nauty stream or a DIMACS graph file, vertices `v0..v{N-1}` ([`from_graph`]).
//!
//! Every family is built as a petgraph graph ([`gamecert_reductions::graphs`]) and written
//! through its conversion to the instance format. Sizes are computed with checked arithmetic and
//! refused, before anything is allocated, beyond [`MAX_VERTICES`]; `2R > N` is refused (each
//! player needs R empty vertices).

use crate::base::rng::Rng;
use gamecert_certificates::format::MultiRoundSpec;
use gamecert_reductions::graphs::{to_spec, NamedGraph};
use petgraph::graph::NodeIndex;

/// The largest instance `gen` builds.
pub const MAX_VERTICES: u64 = gamecert_reductions::graphs::MAX_VERTICES as u64;

/// Why a family cannot be generated.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct GenError(pub String);

fn check_size(vertices: u64, rounds: usize, what: &str) -> Result<usize, GenError> {
    if vertices > MAX_VERTICES {
        return Err(GenError(format!(
            "{what} would have {vertices} vertices, more than the {MAX_VERTICES} gen builds"
        )));
    }
    if rounds == 0 {
        return Err(GenError("--rounds must be at least 1".into()));
    }
    if 2 * rounds as u64 > vertices {
        return Err(GenError(format!(
            "{rounds} rounds need {} vertices (2n), {what} has {vertices}",
            2 * rounds
        )));
    }
    Ok(vertices as usize)
}

fn instance(graph: &NamedGraph, rounds: usize, source: serde_json::Value) -> MultiRoundSpec {
    MultiRoundSpec { graph: to_spec(graph), rounds, start: None, source: Some(source) }
}

/// A graph with `n` vertices named by `name`, and the edges `edges` gives by index.
fn build(
    n: usize,
    name: impl Fn(usize) -> String,
    edges: impl IntoIterator<Item = (usize, usize)>,
) -> NamedGraph {
    let mut graph = NamedGraph::with_capacity(n, n.saturating_sub(1));
    for i in 0..n {
        graph.add_node(name(i));
    }
    for (a, b) in edges {
        graph.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
    }
    graph
}

/// The path on `n` vertices.
pub fn path(n: u64, rounds: usize) -> Result<MultiRoundSpec, GenError> {
    let n = check_size(n, rounds, "the path")?;
    let graph = build(n, |i| format!("p{}", i + 1), (1..n).map(|i| (i - 1, i)));
    Ok(instance(&graph, rounds, serde_json::json!({"family": "path", "vertices": n})))
}

/// The multi-round game on a graph read from a file (`source` says from where).
pub fn from_graph(
    graph: &NamedGraph,
    rounds: usize,
    source: serde_json::Value,
) -> Result<MultiRoundSpec, GenError> {
    check_size(graph.node_count() as u64, rounds, "the graph")?;
    Ok(instance(graph, rounds, source))
}

/// The number of vertices of the complete k-ary tree of height h, if it fits in a u64.
pub fn kary_size(k: u64, height: u32) -> Option<u64> {
    let mut total: u64 = 0;
    let mut level: u64 = 1;
    for _ in 0..=height {
        total = total.checked_add(level)?;
        level = level.checked_mul(k)?;
    }
    Some(total)
}

/// The complete k-ary tree of the given height.
pub fn kary_tree(k: u64, height: u32, rounds: usize) -> Result<MultiRoundSpec, GenError> {
    if k < 2 {
        return Err(GenError(format!("--k must be at least 2 (got {k})")));
    }
    let size = kary_size(k, height).ok_or_else(|| {
        GenError(format!(
            "the complete {k}-ary tree of height {height} has more than 2^64 vertices"
        ))
    })?;
    check_size(size, rounds, &format!("the complete {k}-ary tree of height {height}"))?;
    // Breadth-first numbering: vertex i > 0 hangs from (i - 1) / k, and is child (i - 1) % k + 1.
    let n = size as usize;
    let k = k as usize;
    let mut names = vec!["r".to_string()];
    for i in 1..n {
        let name = format!("{}.{}", names[(i - 1) / k], (i - 1) % k + 1);
        names.push(name);
    }
    let graph = build(n, |i| names[i].clone(), (1..n).map(|i| ((i - 1) / k, i)));
    Ok(instance(
        &graph,
        rounds,
        serde_json::json!({"family": "kary-tree", "k": k, "height": height}),
    ))
}

/// A random recursive tree on `n` vertices.
pub fn random_tree(n: u64, rounds: usize, seed: u64) -> Result<MultiRoundSpec, GenError> {
    let n = check_size(n, rounds, "the tree")?;
    let mut rng = Rng::new(seed);
    let parents: Vec<usize> = (1..n).map(|i| rng.below(i as u64) as usize).collect();
    let graph = build(n, |i| format!("t{}", i + 1), parents.into_iter().zip(1..n));
    Ok(instance(&graph, rounds, serde_json::json!({"family": "tree", "seed": seed})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_refusals() {
        assert_eq!(kary_size(3, 2), Some(13));
        assert_eq!(kary_tree(3, 2, 2).unwrap().graph.vertices.len(), 13);
        assert!(kary_tree(3, 2, 2).unwrap().validate().is_ok());
        assert!(kary_tree(1, 2, 1).unwrap_err().0.contains("at least 2"));
        let huge = kary_tree(10, 40, 1).unwrap_err().0;
        assert!(huge.contains("more than 2^64"), "{huge}");
        let big = kary_tree(10, 9, 1).unwrap_err().0;
        assert!(big.contains("1111111111 vertices"), "{big}");
        assert!(path(5, 3).unwrap_err().0.contains("6 vertices (2n)"));
        let t = random_tree(12, 2, 5).unwrap();
        let g = t.validate().unwrap();
        assert!(crate::voronoi::trees::is_tree(&g.graph));
    }
}

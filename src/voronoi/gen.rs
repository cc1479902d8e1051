//! `gamecert gen FAMILY`: instances of the multi-round game on graph families.
//!
//! - `path --vertices N --rounds R`: the path `p1 - p2 - ... - pN`;
//! - `kary-tree --k K --height H --rounds R`: the complete K-ary tree of height H, with
//!   (K^(H+1) - 1) / (K - 1) vertices named by their path from the root: `r`, `r.1`, `r.1.3`, ...
//!   (children numbered from 1);
//! - `tree --vertices N --rounds R --seed S`: a random recursive tree (vertex i > 1 hangs from a
//!   uniformly chosen earlier vertex), vertices `t1..tN`.
//!
//! Sizes are computed with checked arithmetic and refused, before anything is allocated, beyond
//! [`MAX_VERTICES`]; `2R > N` is refused (each player needs R empty vertices).

use crate::base::rng::Rng;
use gamecert_certificates::format::{GraphSpec, MultiRoundSpec};

/// The largest instance `gen` builds.
pub const MAX_VERTICES: u64 = 10_000_000;

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

fn instance(
    vertices: Vec<String>,
    edges: Vec<(String, String)>,
    rounds: usize,
    source: serde_json::Value,
) -> MultiRoundSpec {
    MultiRoundSpec {
        graph: GraphSpec { vertices, edges },
        rounds,
        start: None,
        source: Some(source),
    }
}

/// The path on `n` vertices.
pub fn path(n: u64, rounds: usize) -> Result<MultiRoundSpec, GenError> {
    let n = check_size(n, rounds, "the path")?;
    let names: Vec<String> = (1..=n).map(|i| format!("p{i}")).collect();
    let edges = names.windows(2).map(|w| (w[0].clone(), w[1].clone())).collect();
    Ok(instance(names, edges, rounds, serde_json::json!({"family": "path", "vertices": n})))
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
    let mut names = vec!["r".to_string()];
    let mut edges = Vec::new();
    let mut frontier = vec!["r".to_string()];
    for _ in 0..height {
        let mut next = Vec::new();
        for parent in &frontier {
            for c in 1..=k {
                let child = format!("{parent}.{c}");
                edges.push((parent.clone(), child.clone()));
                names.push(child.clone());
                next.push(child);
            }
        }
        frontier = next;
    }
    Ok(instance(
        names,
        edges,
        rounds,
        serde_json::json!({"family": "kary-tree", "k": k, "height": height}),
    ))
}

/// A random recursive tree on `n` vertices.
pub fn random_tree(n: u64, rounds: usize, seed: u64) -> Result<MultiRoundSpec, GenError> {
    let n = check_size(n, rounds, "the tree")?;
    let mut rng = Rng::new(seed);
    let names: Vec<String> = (1..=n).map(|i| format!("t{i}")).collect();
    let edges =
        (1..n).map(|i| (names[rng.below(i as u64) as usize].clone(), names[i].clone())).collect();
    Ok(instance(names, edges, rounds, serde_json::json!({"family": "tree", "seed": seed})))
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

//! The positive-DNF game to the multi-round Voronoi game (seed 001, Section 5, Theorem 4): the
//! instance map.
//!
//! For a positive DNF A with an even number n of variables and m terms, the graph has
//! - `x{i}` for each variable, the X vertices, forming a clique;
//! - `d{j}` for each term, joined to the X vertices of its variables and to `u2`;
//! - `u1`, `u2`, joined to each other;
//! - pendants: `x{i}.p{k}` for k = 1..2n on each `x{i}`, and `u{i}.p{k}` for k = 1..3n on each
//!   `u{i}`;
//!
//! so n + m + 2 + 2n * n + 2 * 3n = 2n^2 + 7n + m + 2 vertices (asserted), and each player
//! places n/2 + 1 vertices. An odd n is padded with one fresh variable that occurs in no term
//! (the paper assumes n even "without loss of generality"): the DNF game's winner does not change
//! (the extra variable is a move that decides nothing; tested by the DNF solver's tests).
//!
//! The strategy maps and the exact check of the theorem are the next steps of this reduction.

use crate::graphs::{to_spec, NamedGraph};
use gamecert_certificates::format::GraphSpec;
use gamecert_certificates::posdnf::dnf::PosDnf;
use petgraph::graph::NodeIndex;

/// A built instance of the multi-round game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PosDnfVoronoi {
    pub graph: GraphSpec,
    /// Rounds each player plays: n/2 + 1.
    pub rounds: usize,
    /// The formula after padding to an even number of variables.
    pub padded: PosDnf,
}

/// The paper's vertex count for n variables (n even) and m terms: 2n^2 + 7n + m + 2.
pub fn paper_size(num_vars: usize, num_terms: usize) -> usize {
    2 * num_vars * num_vars + 7 * num_vars + num_terms + 2
}

/// Pads to an even number of variables with a fresh variable in no term (`None` for
/// `u32::MAX` variables, which have no fresh one).
pub fn pad(dnf: &PosDnf) -> Option<PosDnf> {
    let mut padded = dnf.clone();
    if padded.num_vars % 2 == 1 {
        padded.num_vars = padded.num_vars.checked_add(1)?;
    }
    Some(padded)
}

/// The most vertices and edges the construction builds: petgraph's 32-bit indices.
const MAX_ITEMS: u128 = u32::MAX as u128;

/// Builds the paper's instance.
pub fn build(dnf: &PosDnf) -> Result<PosDnfVoronoi, String> {
    if let Some(why) = dnf.violation() {
        return Err(format!("not a positive DNF: {why}"));
    }
    let padded = pad(dnf).ok_or("too many variables to pad to an even count")?;
    let n = padded.num_vars as usize;
    if n == 0 {
        return Err("the formula has no variable: the game has no move".into());
    }
    let m = padded.terms.len();
    // The callers estimate the memory first (`gamecert::api::reduce_within`); this keeps a
    // count past what a graph can index from a panic (no allocation is sized before it).
    let (wide_n, wide_m) = (n as u128, m as u128);
    let items = 2 * wide_n * wide_n + 7 * wide_n + wide_m + 2 + wide_n * wide_n;
    if items > MAX_ITEMS {
        return Err(format!(
            "{n} variables make a graph of more than {MAX_ITEMS} vertices and edges, the most \
             gamecert builds"
        ));
    }
    // Nodes by index: x_i is i - 1, d_j is n + j - 1, u1 and u2 follow; pendants are added
    // after, each just before its edge.
    let mut graph = NamedGraph::with_capacity(paper_size(n, m), paper_size(n, m) + n * n);
    let x: Vec<NodeIndex> = (1..=n).map(|i| graph.add_node(format!("x{i}"))).collect();
    let d: Vec<NodeIndex> = (1..=m).map(|j| graph.add_node(format!("d{j}"))).collect();
    let u = [graph.add_node("u1".into()), graph.add_node("u2".into())];
    for i in 0..n {
        for j in i + 1..n {
            graph.add_edge(x[i], x[j], ());
        }
    }
    for (j, term) in padded.terms.iter().enumerate() {
        for &v in term {
            graph.add_edge(x[v as usize - 1], d[j], ());
        }
        graph.add_edge(d[j], u[1], ());
    }
    graph.add_edge(u[0], u[1], ());
    for (i, &xi) in x.iter().enumerate() {
        for k in 1..=2 * n {
            let p = graph.add_node(format!("x{}.p{k}", i + 1));
            graph.add_edge(xi, p, ());
        }
    }
    for (name, &ui) in ["u1", "u2"].iter().zip(&u) {
        for k in 1..=3 * n {
            let p = graph.add_node(format!("{name}.p{k}"));
            graph.add_edge(ui, p, ());
        }
    }
    assert_eq!(
        graph.node_count(),
        paper_size(n, m),
        "the construction must have 2n^2 + 7n + m + 2 vertices"
    );
    Ok(PosDnfVoronoi { graph: to_spec(&graph), rounds: n / 2 + 1, padded })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::base::graph::Graph;

    #[test]
    fn figure4_has_189_vertices_and_5_rounds() {
        let a = PosDnf { num_vars: 8, terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]] };
        let built = build(&a).unwrap();
        assert_eq!(built.graph.vertices.len(), 189);
        assert_eq!(built.rounds, 5);
        let g = Graph::new(&built.graph.vertices, &built.graph.edges).unwrap();
        // X is a clique: x1 has 7 clique neighbours, 1 term, 16 pendants.
        assert_eq!(g.neighbours(g.vertex("x1").unwrap()).len(), 7 + 1 + 16);
        assert_eq!(g.neighbours(g.vertex("u2").unwrap()).len(), 3 + 1 + 24);
    }

    #[test]
    fn odd_variable_counts_are_padded() {
        let a = PosDnf { num_vars: 3, terms: vec![vec![1, 2], vec![3]] };
        let built = build(&a).unwrap();
        assert_eq!(built.padded.num_vars, 4);
        assert_eq!(built.graph.vertices.len(), paper_size(4, 2));
        assert_eq!(built.rounds, 3);
        assert!(build(&PosDnf { num_vars: 2, terms: vec![vec![]] }).is_err());
    }

    /// A declared count past what a graph can index is an error, never a panic (it was a
    /// "capacity overflow" for 2,000,000,000 variables), and u32::MAX is not padded to 0.
    #[test]
    fn counts_past_the_graphs_indices_are_errors() {
        for num_vars in [2_000_000_000, u32::MAX, 50_000] {
            let err = build(&PosDnf { num_vars, terms: vec![vec![1]] }).unwrap_err();
            assert!(err.contains("variables"), "{err}");
        }
    }
}

//! A census of the multi-round Voronoi game over whole graph classes: for every graph of a
//! graph6 stream (nauty's `geng -c N`, or [`connected_graphs`] when nauty is absent) and every
//! number of rounds asked for, the exact value (W's margin) with both players' strategies as a
//! `voronoi-value` certificate that the checker replays. A value counts only when the checker
//! accepted it; a rejection stops the census with the graph named.
//!
//! The table groups the graphs by vertex count and rounds: how many W wins (margin > 0), ties
//! and loses, and the largest and smallest margins with one graph6 example each (the first
//! met in stream order).

use crate::triangle_avoidance::canon::{canonical, SmallGraph};
use crate::voronoi::exact::ExactSolver;
use gamecert_certificates::base::budget::Limits;
use gamecert_certificates::check::check;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_reductions::graphs::{is_connected, numbered, to_graph6, Graph6Entry};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};

/// The largest vertex count [`connected_graphs`] builds (12,005,168 graphs at 10 would not fit
/// the time anyone waits for a table).
pub const MAX_GENERATED_VERTICES: usize = 9;

/// One row of the census: the graphs on `vertices` vertices, `rounds` rounds each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CensusRow {
    pub vertices: usize,
    pub rounds: usize,
    pub graphs: u64,
    pub white_wins: u64,
    pub ties: u64,
    pub black_wins: u64,
    /// The largest margin of W and a graph (graph6) where it is reached.
    pub max_margin: i64,
    pub max_example: String,
    /// The smallest margin of W (most negative: B's best) and a graph where it is reached.
    pub min_margin: i64,
    pub min_example: String,
    /// Positions the checker replayed over the row's certificates.
    pub positions_checked: u64,
}

/// The value of one graph, certified: (margin, positions the checker replayed).
fn certified_value(entry: &Graph6Entry, rounds: usize) -> Result<(i64, u64), String> {
    let source = serde_json::json!({"family": "graph6", "graph6": entry.text});
    let spec = crate::voronoi::gen::from_graph(&entry.graph, rounds, source).map_err(|e| e.0)?;
    let game = spec.validate().map_err(|e| e.to_string())?;
    let solution = ExactSolver::new(&game)?.solve();
    let value = solution.value;
    let certificate = Certificate::VoronoiValue(solution.certificate());
    let verdict = check(&Instance::Voronoi(spec), &certificate, &Limits::default());
    if !verdict.accepted {
        return Err(format!(
            "line {} ({}), {rounds} rounds: the checker rejected the certificate: {}",
            entry.line, entry.text, verdict.reason
        ));
    }
    Ok((value, verdict.work.positions.unwrap_or(0)))
}

/// The census of `graphs` for each number of rounds in `rounds` (graphs with fewer than
/// 2 * rounds vertices are left out of that row: the game needs room for both players).
/// `done(k)` is called as graphs finish, with the count so far, for progress.
pub fn census(
    graphs: &[Graph6Entry],
    rounds: &[usize],
    done: &(dyn Fn(u64) + Sync),
) -> Result<Vec<CensusRow>, String> {
    let finished = std::sync::atomic::AtomicU64::new(0);
    let values: Vec<Vec<Option<(i64, u64)>>> = graphs
        .par_iter()
        .map(|entry| {
            let row = rounds
                .iter()
                .map(|&r| {
                    (entry.graph.node_count() >= 2 * r)
                        .then(|| certified_value(entry, r))
                        .transpose()
                })
                .collect::<Result<Vec<_>, String>>();
            done(finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
            row
        })
        .collect::<Result<_, String>>()?;
    let mut rows: BTreeMap<(usize, usize), CensusRow> = BTreeMap::new();
    for (entry, values) in graphs.iter().zip(&values) {
        for (&r, value) in rounds.iter().zip(values) {
            let Some((margin, positions)) = *value else { continue };
            let n = entry.graph.node_count();
            let row = rows.entry((r, n)).or_insert_with(|| CensusRow {
                vertices: n,
                rounds: r,
                graphs: 0,
                white_wins: 0,
                ties: 0,
                black_wins: 0,
                max_margin: margin,
                max_example: entry.text.clone(),
                min_margin: margin,
                min_example: entry.text.clone(),
                positions_checked: 0,
            });
            row.graphs += 1;
            row.positions_checked += positions;
            match margin.signum() {
                1 => row.white_wins += 1,
                0 => row.ties += 1,
                _ => row.black_wins += 1,
            }
            if margin > row.max_margin {
                (row.max_margin, row.max_example) = (margin, entry.text.clone());
            }
            if margin < row.min_margin {
                (row.min_margin, row.min_example) = (margin, entry.text.clone());
            }
        }
    }
    Ok(rows.into_values().collect())
}

/// Every connected graph on 1..=`max_n` vertices up to isomorphism, as graph6 entries in order
/// of vertex count (our own generator, for machines without nauty): graphs on k + 1 vertices
/// are the graphs on k vertices with a new vertex joined to every subset, kept once per
/// canonical form ([`crate::triangle_avoidance::canon`]). Counts are OEIS A001349 (1, 1, 2, 6,
/// 21, 112, 853, 11117, 261080), tested against nauty when it is installed.
pub fn connected_graphs(max_n: usize) -> Result<Vec<Graph6Entry>, String> {
    if max_n > MAX_GENERATED_VERTICES {
        return Err(format!(
            "the generator stops at {MAX_GENERATED_VERTICES} vertices; pipe `nauty-geng -c N` into \
             --graph6 - for more"
        ));
    }
    let mut level: Vec<SmallGraph> = vec![SmallGraph::empty(1)];
    let mut out = Vec::new();
    for n in 1..=max_n {
        if n > 1 {
            let mut seen = HashSet::new();
            let mut next = Vec::new();
            for g in &level {
                for subset in 0u32..1 << (n - 1) {
                    let mut h = SmallGraph::empty(n);
                    h.adj[..n - 1].copy_from_slice(&g.adj[..n - 1]);
                    for v in (0..n - 1).filter(|v| subset >> v & 1 == 1) {
                        h.add_edge(v, n - 1);
                    }
                    let code = canonical(&h).code;
                    if seen.insert(code) {
                        next.push(SmallGraph::from_code(n, code));
                    }
                }
            }
            next.sort_by_key(|g| std::cmp::Reverse(g.code()));
            level = next;
        }
        for g in &level {
            let edges = (0..n).flat_map(|b| (0..b).map(move |a| (a, b)));
            let graph = numbered(n, edges.filter(|&(a, b)| g.has_edge(a, b)));
            if !is_connected(&graph) {
                continue;
            }
            let text = to_graph6(&graph);
            out.push(Graph6Entry { line: out.len() + 1, text, graph });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generator_counts_connected_graphs() {
        let graphs = connected_graphs(7).unwrap();
        let mut counts = [0usize; 8];
        for g in &graphs {
            counts[g.graph.node_count()] += 1;
        }
        assert_eq!(counts[1..], [1, 1, 2, 6, 21, 112, 853]);
        assert!(connected_graphs(10).is_err());
    }

    #[test]
    fn small_rows_match_hand_values() {
        // On 2 vertices (one edge), one round: each player takes one vertex, a tie. On the
        // triangle and the 3-path, 1 round: W takes the centre/any vertex; B takes one; the
        // last vertex is equidistant on the triangle (tie), W's on the path (W's centre).
        let graphs = connected_graphs(3).unwrap();
        let rows = census(&graphs, &[1], &|_| {}).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].vertices, rows[0].graphs, rows[0].ties), (2, 1, 1));
        let three = &rows[1];
        assert_eq!((three.graphs, three.white_wins, three.ties), (2, 1, 1));
        assert_eq!(three.max_margin, 1);
    }
}

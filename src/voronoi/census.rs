//! A census of the multi-round Voronoi game over whole graph classes: for every graph of a
//! graph6 stream (nauty's `geng -c N`, or [`connected_graphs`] when nauty is absent) and every
//! number of rounds asked for, the exact value (W's margin) with both players' strategies as a
//! `voronoi-value` certificate that the checker replays. A value counts only when the checker
//! accepted it; a rejection stops the census with the graph named.
//!
//! [`census_values`] gives each graph's values ([`GraphValue`]) in input order, solving a batch
//! of graphs at a time on every thread, so that a stream of millions of graphs is never held
//! whole. [`Tally`] groups them by vertex count and rounds: how many W wins (margin > 0), ties
//! and loses, and the largest and smallest margins with one graph6 example each (the first met
//! in stream order).

use crate::base::oeis::Oeis;
use crate::triangle_avoidance::canon::{canonical, SmallGraph};
use crate::voronoi::exact::ExactSolver;
use gamecert_certificates::base::budget::Limits;
use gamecert_certificates::check::check;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_reductions::graphs::{is_connected, numbered, to_graph6, Graph6Entry};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};

/// The largest vertex count [`connected_graphs`] builds (12,005,168 graphs at 10 would not fit
/// the time anyone waits for a table).
pub const MAX_GENERATED_VERTICES: usize = 9;

/// The OEIS sequence in the table of [`connected_graphs`]: its `graphs` column counts every
/// connected graph on n vertices (tested below). A graph6 stream may hold any graphs, so its
/// table names none.
pub const GENERATOR_OEIS: &[Oeis] = &[Oeis {
    field: "graphs",
    column: "graphs",
    id: "A001349",
    name: "connected graphs on n vertices",
}];

/// How many graphs [`census_values`] solves together on the command line: enough to keep every
/// thread busy, and all that a stream holds in memory at a time.
pub const BATCH: usize = 4096;

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

/// The certified value of one graph for one number of rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GraphValue {
    /// The graph as its graph6 line.
    pub graph6: String,
    /// Its line in the graph6 stream (for the generator: its place in the generated list).
    pub line: usize,
    pub vertices: usize,
    pub rounds: usize,
    /// W's margin under optimal play: W's vertices minus B's.
    pub margin: i64,
    /// [`winner`] of the margin: `W`, `B`, or `T` for a tie.
    pub winner: &'static str,
    /// Positions the checker replayed over this value's certificate.
    pub positions_checked: u64,
}

/// Who wins with W's margin `margin`: `W` (positive), `B` (negative) or `T` (a tie).
pub fn winner(margin: i64) -> &'static str {
    match margin.signum() {
        1 => "W",
        0 => "T",
        _ => "B",
    }
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
    if !verdict.accepted() {
        return Err(format!(
            "line {} ({}), {rounds} rounds: the checker rejected the certificate: {}",
            entry.line, entry.text, verdict.reason
        ));
    }
    Ok((value, verdict.work.positions.unwrap_or(0)))
}

/// The values of `graphs` for each number of rounds in `rounds`, in input order (graph by
/// graph, rounds in the order given), solved on every thread. A graph with fewer than
/// 2 * rounds vertices has no value for that many rounds: the game needs room for both players.
/// `finished` counts graphs as they finish and `done` hears the count, for progress.
fn values_of(
    graphs: &[Graph6Entry],
    rounds: &[usize],
    finished: &AtomicU64,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Vec<GraphValue>, String> {
    let values: Vec<Vec<GraphValue>> = graphs
        .par_iter()
        .map(|entry| {
            let n = entry.graph.node_count();
            let values = rounds
                .iter()
                .filter(|&&r| n >= 2 * r)
                .map(|&rounds| {
                    let (margin, positions_checked) = certified_value(entry, rounds)?;
                    Ok(GraphValue {
                        graph6: entry.text.clone(),
                        line: entry.line,
                        vertices: n,
                        rounds,
                        margin,
                        winner: winner(margin),
                        positions_checked,
                    })
                })
                .collect::<Result<Vec<_>, String>>();
            done(finished.fetch_add(1, Ordering::Relaxed) + 1);
            values
        })
        .collect::<Result<_, String>>()?;
    Ok(values.into_iter().flatten().collect())
}

/// The census rows of `graphs` for each number of rounds in `rounds` (the graphs held in
/// memory; a stream goes through [`census_values`]). `done(k)` is called as graphs finish,
/// with the count so far, for progress.
pub fn census(
    graphs: &[Graph6Entry],
    rounds: &[usize],
    done: &(dyn Fn(u64) + Sync),
) -> Result<Vec<CensusRow>, String> {
    let mut tally = Tally::default();
    for value in values_of(graphs, rounds, &AtomicU64::new(0), done)? {
        tally.add(&value);
    }
    Ok(tally.rows())
}

/// The values of every graph of `graphs` (a stream: an error ends it) for each number of rounds
/// in `rounds`, in input order, certified; see [`census_values`].
pub struct CensusValues<'a, I> {
    graphs: I,
    rounds: &'a [usize],
    batch: usize,
    done: &'a (dyn Fn(u64) + Sync),
    finished: AtomicU64,
    /// Graphs taken from the stream so far.
    read: u64,
    /// The current batch's values not yet handed out.
    ready: std::vec::IntoIter<GraphValue>,
    /// An error of the stream, handed out after the values of the graphs before it.
    stream_error: Option<String>,
    over: bool,
}

/// The certified values of the graphs of `graphs` for each number of rounds in `rounds`, in
/// input order: `batch` graphs at a time ([`BATCH`] on the command line) are taken from the
/// stream and solved on every thread, their values handed out in order, then the next batch. `done(k)` hears the count of graphs
/// finished so far. The first error (a bad line of the stream, or a certificate the checker
/// rejects) is the last item.
pub fn census_values<'a, I>(
    graphs: I,
    rounds: &'a [usize],
    batch: usize,
    done: &'a (dyn Fn(u64) + Sync),
) -> CensusValues<'a, I>
where
    I: Iterator<Item = Result<Graph6Entry, String>>,
{
    CensusValues {
        graphs,
        rounds,
        batch: batch.max(1),
        done,
        finished: AtomicU64::new(0),
        read: 0,
        ready: Vec::new().into_iter(),
        stream_error: None,
        over: false,
    }
}

impl<I> CensusValues<'_, I> {
    /// How many graphs have been taken from the stream so far (all of them, once the values
    /// are exhausted).
    pub fn graphs_read(&self) -> u64 {
        self.read
    }
}

impl<I: Iterator<Item = Result<Graph6Entry, String>>> Iterator for CensusValues<'_, I> {
    type Item = Result<GraphValue, String>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(value) = self.ready.next() {
                return Some(Ok(value));
            }
            if let Some(why) = self.stream_error.take() {
                self.over = true;
                return Some(Err(why));
            }
            if self.over {
                return None;
            }
            let mut batch = Vec::with_capacity(self.batch);
            while batch.len() < self.batch {
                match self.graphs.next() {
                    Some(Ok(entry)) => batch.push(entry),
                    Some(Err(why)) => {
                        self.stream_error = Some(why);
                        break;
                    }
                    None => {
                        self.over = true;
                        break;
                    }
                }
            }
            self.read += batch.len() as u64;
            match values_of(&batch, self.rounds, &self.finished, self.done) {
                Ok(values) => self.ready = values.into_iter(),
                Err(why) => {
                    self.over = true;
                    self.stream_error = None;
                    return Some(Err(why));
                }
            }
        }
    }
}

/// The census rows being counted from [`GraphValue`]s.
#[derive(Default)]
pub struct Tally {
    rows: BTreeMap<(usize, usize), CensusRow>,
}

impl Tally {
    /// Counts one value into its row (rounds, vertices).
    pub fn add(&mut self, value: &GraphValue) {
        let margin = value.margin;
        let row = self.rows.entry((value.rounds, value.vertices)).or_insert_with(|| CensusRow {
            vertices: value.vertices,
            rounds: value.rounds,
            graphs: 0,
            white_wins: 0,
            ties: 0,
            black_wins: 0,
            max_margin: margin,
            max_example: value.graph6.clone(),
            min_margin: margin,
            min_example: value.graph6.clone(),
            positions_checked: 0,
        });
        row.graphs += 1;
        row.positions_checked += value.positions_checked;
        match margin.signum() {
            1 => row.white_wins += 1,
            0 => row.ties += 1,
            _ => row.black_wins += 1,
        }
        if margin > row.max_margin {
            (row.max_margin, row.max_example) = (margin, value.graph6.clone());
        }
        if margin < row.min_margin {
            (row.min_margin, row.min_example) = (margin, value.graph6.clone());
        }
    }

    /// The rows, by rounds and then vertex count.
    pub fn rows(self) -> Vec<CensusRow> {
        self.rows.into_values().collect()
    }
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

    /// Its counts are the terms of [`GENERATOR_OEIS`]'s A001349.
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

    /// Values come in input order across batches (a reversed stream, batches of 7), and tally
    /// to the rows of the whole list; a bad line ends the stream after the values before it.
    #[test]
    fn values_keep_input_order_and_tally_to_the_census() {
        let graphs = connected_graphs(5).unwrap();
        let reversed: Vec<_> = graphs.iter().rev().cloned().map(Ok).collect();
        let mut stream = census_values(reversed.into_iter(), &[2, 1], 7, &|_| {});
        let values: Vec<GraphValue> = stream.by_ref().collect::<Result<_, _>>().unwrap();
        assert_eq!(stream.graphs_read(), graphs.len() as u64);
        let order: Vec<(usize, usize)> = values.iter().map(|v| (v.line, v.rounds)).collect();
        let mut expected = Vec::new();
        for g in graphs.iter().rev() {
            for r in [2, 1].into_iter().filter(|&r| g.graph.node_count() >= 2 * r) {
                expected.push((g.line, r));
            }
        }
        assert_eq!(order, expected);
        assert_eq!([winner(2), winner(0), winner(-1)], ["W", "T", "B"]);
        let mut tally = Tally::default();
        values.iter().for_each(|v| tally.add(v));
        let counts = |rows: Vec<CensusRow>| -> Vec<_> {
            rows.iter()
                .map(|r| (r.rounds, r.vertices, r.white_wins, r.ties, r.black_wins))
                .collect()
        };
        assert_eq!(counts(tally.rows()), counts(census(&graphs, &[1, 2], &|_| {}).unwrap()));

        let stream = graphs[..3].iter().cloned().map(Ok).chain([Err("s:4:1: bad".to_string())]);
        let items: Vec<Result<usize, String>> =
            census_values(stream, &[1], 2, &|_| {}).map(|v| v.map(|v| v.line)).collect();
        // The single vertex (line 1) has no one-round game.
        assert_eq!(items, [Ok(2), Ok(3), Err("s:4:1: bad".to_string())]);
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

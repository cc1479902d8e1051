//! The solver side's graph layer: petgraph graphs, and the field's graph formats.
//!
//! - [`NamedGraph`] (a petgraph `UnGraph` whose nodes carry the vertex names) is how the
//!   solver crate and `reductions` build graphs; [`to_spec`] and [`from_spec`] convert to and
//!   from the instance format's [`GraphSpec`]. The checker keeps its own graph type
//!   (`gamecert_certificates::base::graph`), so that it depends on serde only.
//! - [`read_graph6`]: nauty's graph6 (one graph a line, as `geng` writes them; an optional
//!   `>>graph6<<` header). Each line is validated here — printable characters 63..=126, the
//!   exact length its vertex count implies, zero padding bits — before petgraph's decoder, which
//!   assumes a well-formed line, sees it. [`to_graph6`] is petgraph's encoder.
//! - [`read_dimacs_graph`]: the DIMACS graph format (`c` comments, `p edge N M`, `e U V` with
//!   1-based vertices), as the colouring and clique benchmarks use it.
//!
//! Vertices of a read graph are named `v0 .. v{n-1}` in file order (0-based, as nauty's tools
//! number them); every error names the file, line and column.

use gamecert_certificates::format::GraphSpec;
use petgraph::graph::{NodeIndex, UnGraph};
use std::collections::HashMap;

/// An undirected graph whose nodes are named.
pub type NamedGraph = UnGraph<String, ()>;

/// The most vertices a graph read or built here may have (`gen` refuses more).
pub const MAX_VERTICES: usize = 10_000_000;

/// The largest vertex count read from graph6 (its 4-byte size form; the 8-byte form is refused).
pub const MAX_GRAPH6_VERTICES: usize = 258_047;

/// The instance format's graph of `graph`: vertices in node order, edges in edge order.
pub fn to_spec(graph: &NamedGraph) -> GraphSpec {
    let name = |v: NodeIndex| graph[v].clone();
    GraphSpec {
        vertices: graph.node_weights().cloned().collect(),
        edges: graph
            .edge_indices()
            .filter_map(|e| graph.edge_endpoints(e))
            .map(|(a, b)| (name(a), name(b)))
            .collect(),
    }
}

/// The petgraph graph of `spec` (names must be distinct and edges between known names; the
/// checker validates instances, this only needs them readable).
pub fn from_spec(spec: &GraphSpec) -> Result<NamedGraph, String> {
    let mut graph = NamedGraph::with_capacity(spec.vertices.len(), spec.edges.len());
    let mut index = HashMap::with_capacity(spec.vertices.len());
    for name in &spec.vertices {
        if index.insert(name.as_str(), graph.add_node(name.clone())).is_some() {
            return Err(format!("vertex '{name}' is listed twice"));
        }
    }
    for (a, b) in &spec.edges {
        let find = |n: &str| {
            index.get(n).copied().ok_or_else(|| format!("edge {a} - {b}: unknown vertex '{n}'"))
        };
        graph.add_edge(find(a)?, find(b)?, ());
    }
    Ok(graph)
}

/// The graph on `n` vertices `v0 .. v{n-1}` with the given 0-based edges.
pub fn numbered(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> NamedGraph {
    let mut graph = NamedGraph::default();
    let nodes: Vec<NodeIndex> = (0..n).map(|i| graph.add_node(format!("v{i}"))).collect();
    for (a, b) in edges {
        graph.add_edge(nodes[a], nodes[b], ());
    }
    graph
}

/// Whether `graph` is connected (the empty graph is).
pub fn is_connected(graph: &NamedGraph) -> bool {
    petgraph::algo::connected_components(graph) <= 1
}

/// One graph of a graph6 stream, with the line it came from.
#[derive(Clone, Debug)]
pub struct Graph6Entry {
    /// 1-based line number in the stream.
    pub line: usize,
    /// The line itself (without its end), as nauty wrote it.
    pub text: String,
    pub graph: NamedGraph,
}

/// Every graph of a graph6 stream (blank lines skipped). `file` names the stream in errors.
pub fn read_graph6(text: &str, file: &str) -> Result<Vec<Graph6Entry>, String> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let mut line = line.trim_end_matches('\r');
        let mut column = 1;
        if k == 0 {
            if let Some(rest) = line.strip_prefix(">>graph6<<") {
                line = rest;
                column += ">>graph6<<".len();
            }
        }
        if line.is_empty() {
            continue;
        }
        let (n, edges) = parse_graph6_line(line)
            .map_err(|(col, why)| format!("{file}:{}:{}: {why}", k + 1, column + col))?;
        out.push(Graph6Entry { line: k + 1, text: line.to_string(), graph: numbered(n, edges) });
    }
    Ok(out)
}

/// A decoded graph6 line: the vertex count and the edges (0-based).
pub type Graph6 = (usize, Vec<(usize, usize)>);

/// Validates one graph6 line and decodes it with petgraph; the error is a 0-based column
/// offset and the reason.
pub fn parse_graph6_line(line: &str) -> Result<Graph6, (usize, String)> {
    let bytes = line.as_bytes();
    if let Some(at) = bytes.iter().position(|&b| !(63..=126).contains(&b)) {
        let shown = line[at..].chars().next().unwrap_or('?');
        let why = if line.starts_with(':') || line.starts_with('&') {
            "this is sparse6 or digraph6, not graph6 (use `nauty-copyg -g` to convert)".to_string()
        } else {
            format!("'{shown}' is not a graph6 character (63..=126)")
        };
        return Err((at, why));
    }
    let (n, header) = match bytes {
        [126, 126, ..] => {
            return Err((
                0,
                format!("graphs of more than {MAX_GRAPH6_VERTICES} vertices are not read"),
            ));
        }
        [126, a, b, c, ..] => {
            (((*a as usize - 63) << 12) | ((*b as usize - 63) << 6) | (*c as usize - 63), 4)
        }
        [126, ..] => return Err((0, "the vertex count is cut short".into())),
        [first, ..] => (*first as usize - 63, 1),
        [] => return Err((0, "an empty line".into())),
    };
    let bits = n * n.saturating_sub(1) / 2;
    let expected = header + bits.div_ceil(6);
    if bytes.len() != expected {
        return Err((
            bytes.len().min(expected),
            format!(
                "a graph on {n} vertices takes {expected} characters, the line has {}",
                bytes.len()
            ),
        ));
    }
    let padding = bits.div_ceil(6) * 6 - bits;
    if padding > 0 && (bytes[expected - 1] - 63) & ((1 << padding) - 1) != 0 {
        return Err((expected - 1, "the padding bits after the last edge are not zero".into()));
    }
    let (order, edges) = petgraph::graph6::from_graph6_representation::<u32>(line.to_string());
    debug_assert_eq!(order, n);
    Ok((n, edges.into_iter().map(|(a, b)| (a as usize, b as usize)).collect()))
}

/// The graph6 line of `graph` (petgraph's encoder).
pub fn to_graph6(graph: &NamedGraph) -> String {
    petgraph::graph6::ToGraph6::graph6_string(graph)
}

/// A graph in the DIMACS graph format. `file` names it in errors.
pub fn read_dimacs_graph(text: &str, file: &str) -> Result<NamedGraph, String> {
    let mut graph: Option<(NamedGraph, usize, usize)> = None;
    let mut seen = std::collections::HashSet::new();
    for (k, raw) in text.lines().enumerate() {
        let at = |col: usize, why: String| format!("{file}:{}:{col}: {why}", k + 1);
        let words: Vec<(usize, &str)> = raw
            .split_whitespace()
            .map(|w| (w.as_ptr() as usize - raw.as_ptr() as usize + 1, w))
            .collect();
        match words.first().map(|w| w.1) {
            None | Some("c") => continue,
            Some("p") => {
                if graph.is_some() {
                    return Err(at(1, "a second `p` line".into()));
                }
                let number = |i: usize, what: &str| -> Result<usize, String> {
                    let (col, w) = words.get(i).copied().ok_or_else(|| {
                        at(raw.len() + 1, format!("`p edge N M`: the {what} is missing"))
                    })?;
                    w.parse::<usize>()
                        .map_err(|_| at(col, format!("the {what} '{w}' is not a number")))
                };
                match words.get(1) {
                    Some((_, "edge" | "col")) => {}
                    Some(&(col, w)) => {
                        return Err(at(col, format!("expected `p edge`, found `p {w}`")))
                    }
                    None => return Err(at(raw.len() + 1, "expected `p edge N M`".into())),
                }
                let (n, m) = (number(2, "vertex count")?, number(3, "edge count")?);
                if n > MAX_VERTICES {
                    return Err(at(
                        words[2].0,
                        format!("{n} vertices is more than gamecert builds"),
                    ));
                }
                if let Some(&(col, w)) = words.get(4) {
                    return Err(at(col, format!("unexpected `{w}` after `p edge {n} {m}`")));
                }
                graph = Some((numbered(n, []), n, m));
            }
            Some("e") => {
                let Some((g, n, _)) = graph.as_mut() else {
                    return Err(at(1, "an edge before the `p edge N M` line".into()));
                };
                let mut ends = [0usize; 2];
                for (i, end) in ends.iter_mut().enumerate() {
                    let (col, w) = words
                        .get(i + 1)
                        .copied()
                        .ok_or_else(|| at(raw.len() + 1, "`e U V`: a vertex is missing".into()))?;
                    *end = w
                        .parse::<usize>()
                        .ok()
                        .filter(|v| (1..=*n).contains(v))
                        .ok_or_else(|| at(col, format!("vertex '{w}' is not in 1..={n}")))?;
                }
                if let Some(&(col, w)) = words.get(3) {
                    return Err(at(col, format!("unexpected `{w}` after the edge")));
                }
                let [a, b] = ends;
                if a == b {
                    return Err(at(
                        words[1].0,
                        format!("a loop at vertex {a} (the games have none)"),
                    ));
                }
                // Listed twice (in either order) is one edge in most DIMACS files; but an
                // instance is exactly what its file says, so it is refused, naming the line.
                if !seen.insert((a.min(b), a.max(b))) {
                    return Err(at(words[1].0, format!("the edge {a} - {b} is listed twice")));
                }
                g.add_edge(NodeIndex::new(a - 1), NodeIndex::new(b - 1), ());
            }
            Some(w) => {
                return Err(at(
                    words[0].0,
                    format!("unexpected line starting `{w}` (expected c, p or e)"),
                ))
            }
        }
    }
    let (graph, _, m) = graph.ok_or_else(|| format!("{file}: no `p edge N M` line"))?;
    if graph.edge_count() != m {
        return Err(format!(
            "{file}: the `p` line announces {m} edges, the file lists {}",
            graph.edge_count()
        ));
    }
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph6_round_trips_through_petgraph() {
        // nauty's own examples: the path on 3 vertices and the 5-cycle.
        let entries = read_graph6(">>graph6<<Bg\nDhc\n", "t").unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].graph.edge_count(), 2);
        assert_eq!(entries[1].graph.edge_count(), 5);
        for e in &entries {
            assert_eq!(to_graph6(&e.graph), e.text);
        }
        // Every graph on up to 6 vertices with a few edge patterns survives the round trip.
        for n in 0..=6usize {
            let pairs: Vec<(usize, usize)> =
                (0..n).flat_map(|b| (0..b).map(move |a| (a, b))).collect();
            for mask in [0u32, 1, 0b1011, u32::MAX] {
                let edges: Vec<(usize, usize)> = pairs
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask >> (i % 32) & 1 == 1)
                    .map(|(_, &p)| p)
                    .collect();
                let g = numbered(n, edges.clone());
                let line = to_graph6(&g);
                let (m, back) = parse_graph6_line(&line).unwrap();
                assert_eq!((m, back.len()), (n, edges.len()), "{line}");
            }
        }
    }

    #[test]
    fn bad_graph6_lines_are_refused_with_their_column() {
        for (line, column, why) in [
            ("Dh", 3, "takes 3 characters"),
            ("Dhcc", 4, "takes 3 characters"),
            ("D c", 2, "not a graph6 character"),
            (":Fa@x^", 1, "sparse6"),
            ("~~??????", 1, "more than"),
            ("~?", 1, "cut short"),
            ("Bh", 2, "padding"),
        ] {
            let err = read_graph6(line, "g.g6").unwrap_err();
            assert!(err.starts_with(&format!("g.g6:1:{column}: ")), "{line}: {err}");
            assert!(err.contains(why), "{line}: {err}");
        }
    }

    #[test]
    fn dimacs_graphs_are_read_and_bad_ones_named_by_line() {
        let g =
            read_dimacs_graph("c triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1\n", "t.col").unwrap();
        assert_eq!((g.node_count(), g.edge_count()), (3, 3));
        assert!(is_connected(&g));
        for (text, expected) in [
            ("e 1 2\n", "t:1:1: an edge before"),
            ("p edge 2 1\ne 1 3\n", "t:2:5: vertex '3' is not in 1..=2"),
            ("p edge 2 1\ne 1 1\n", "t:2:3: a loop"),
            ("p edge 2 2\ne 1 2\ne 2 1\n", "t:3:3: the edge 2 - 1 is listed twice"),
            ("p edge 2 2\ne 1 2\n", "announces 2 edges"),
            ("p cnf 2 2\n", "t:1:3: expected `p edge`"),
            ("p edge x 2\n", "t:1:8: the vertex count 'x'"),
        ] {
            let err = read_dimacs_graph(text, "t").unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn specs_convert_both_ways() {
        let g = numbered(4, [(0, 1), (1, 2), (2, 3)]);
        let spec = to_spec(&g);
        assert_eq!(spec, GraphSpec::numbered(4, &[(0, 1), (1, 2), (2, 3)]));
        assert_eq!(to_spec(&from_spec(&spec).unwrap()), spec);
        assert!(!is_connected(&numbered(3, [(0, 1)])));
    }
}

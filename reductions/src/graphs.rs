//! The solver side's graph layer: petgraph graphs, and the field's graph formats.
//!
//! - [`NamedGraph`] (a petgraph `UnGraph` whose nodes carry the vertex names) is how the
//!   solver crate and `reductions` build graphs; [`to_spec`] and [`from_spec`] convert to and
//!   from the instance format's [`GraphSpec`]. The checker keeps its own graph type
//!   (`gamecert_certificates::base::graph`), so that it depends on serde only.
//! - [`read_graph6`]: nauty's graph6 (one graph a line, as `geng` writes them; an optional
//!   `>>graph6<<` header). Each line is validated here — printable characters 63..=126, the
//!   exact length its vertex count implies, zero padding bits — before petgraph's decoder, which
//!   assumes a well-formed line, sees it. [`Graph6Reader`] reads the same from a stream, one line
//!   at a time. [`to_graph6`] is petgraph's encoder.
//! - [`read_dimacs_graph`]: the DIMACS graph format (`c` comments, `p edge N M`, `e U V` with
//!   1-based vertices), as the colouring and clique benchmarks use it, each edge listed once or
//!   every edge in both directions.
//!
//! Vertices of a read graph are named `v0 .. v{n-1}` in file order (0-based, as nauty's tools
//! number them); every error names the file, line and column.

use gamecert_certificates::base::text::{foreign_space, foreign_space_message, is_separator};
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

/// Every graph of a graph6 text (blank lines skipped). `file` names the stream in errors.
pub fn read_graph6(text: &str, file: &str) -> Result<Vec<Graph6Entry>, String> {
    Graph6Reader::new(text.as_bytes(), file).collect()
}

/// The longest line [`Graph6Reader`] reads: a graph of [`MAX_GRAPH6_VERTICES`] vertices with
/// the `>>graph6<<` header and a `\r\n` end.
const MAX_GRAPH6_LINE_BYTES: u64 = {
    let n = MAX_GRAPH6_VERTICES as u64;
    ">>graph6<<".len() as u64 + 4 + (n * (n - 1) / 2).div_ceil(6) + 2
};

/// The graphs of a graph6 stream, read one line at a time (blank lines skipped), so that a
/// stream of millions of graphs (`nauty-geng -c 10`) is never held whole. Yields each graph or
/// the first error (file, line and column), then stops.
pub struct Graph6Reader<R> {
    reader: R,
    file: String,
    /// Lines read so far.
    line: usize,
    buffer: Vec<u8>,
    failed: bool,
    /// Asked, before a line is decoded, whether its graph may be built: its line number, vertex
    /// count and edge count (counted from its bits).
    admit: Option<Admission>,
}

/// A check of a graph6 line before it is decoded ([`Graph6Reader::with_admission`]).
pub type Admission = Box<dyn Fn(usize, usize, usize) -> Result<(), String>>;

impl<R: std::io::BufRead> Graph6Reader<R> {
    /// A reader of `reader`; `file` names it in errors.
    pub fn new(reader: R, file: &str) -> Graph6Reader<R> {
        Graph6Reader {
            reader,
            file: file.to_string(),
            line: 0,
            buffer: Vec::new(),
            failed: false,
            admit: None,
        }
    }

    /// The same reader, asking `admit` (line, vertices, edges) before it decodes a line: an
    /// error stops it as a bad line does. The edges are counted from the line's bits, so a
    /// graph too large to build is refused before its edges are held.
    pub fn with_admission(mut self, admit: Admission) -> Graph6Reader<R> {
        self.admit = Some(admit);
        self
    }

    /// Reads the next graph's line and checks it as [`Iterator::next`] does, without decoding
    /// its edges: `None` at the end, else its line number or the error. For a stream's graphs
    /// before and after the one wanted: a line of many edges costs only its bytes.
    pub fn check_next(&mut self) -> Option<Result<usize, String>> {
        while !self.failed {
            match self.next_line(false)? {
                Ok(None) => continue,
                Ok(Some(entry)) => return Some(Ok(entry.line)),
                Err(why) => {
                    self.failed = true;
                    return Some(Err(why));
                }
            }
        }
        None
    }

    /// The next line's entry: `None` at the end, or for a blank line `Some(Ok(None))`. Without
    /// `decode` the line is checked and its entry has no edges and no text.
    fn next_line(&mut self, decode: bool) -> Option<Result<Option<Graph6Entry>, String>> {
        use std::io::{BufRead, Read};
        self.buffer.clear();
        let number = self.line + 1;
        let at = |column: usize, why: &str| format!("{}:{number}:{column}: {why}", self.file);
        match (&mut self.reader).take(MAX_GRAPH6_LINE_BYTES).read_until(b'\n', &mut self.buffer) {
            Ok(0) => return None,
            Ok(_) => self.line = number,
            Err(e) => return Some(Err(at(1, &e.to_string()))),
        }
        if !self.buffer.ends_with(b"\n") && self.buffer.len() as u64 == MAX_GRAPH6_LINE_BYTES {
            return Some(Err(at(1, "the line is longer than any graph6 line gamecert reads")));
        }
        let mut bytes = self.buffer.strip_suffix(b"\n").unwrap_or(&self.buffer);
        while let Some(rest) = bytes.strip_suffix(b"\r") {
            bytes = rest;
        }
        let mut column = 1;
        if number == 1 {
            if let Some(rest) = bytes.strip_prefix(b">>graph6<<") {
                bytes = rest;
                column += ">>graph6<<".len();
            }
        }
        if bytes.is_empty() {
            return Some(Ok(None));
        }
        // graph6 is printable ASCII: a byte past it is named here, as the text is not UTF-8.
        if let Some(i) = bytes.iter().position(|&b| b >= 128) {
            let why = format!("the byte 0x{:02x} is not a graph6 character (63..=126)", bytes[i]);
            if !bytes[..i].iter().any(|b| !(63..=126).contains(b)) {
                return Some(Err(at(column + i, &why)));
            }
        }
        let text = String::from_utf8_lossy(bytes);
        if !decode {
            return Some(match check_graph6_line(&text) {
                Ok(_) => Ok(Some(Graph6Entry {
                    line: number,
                    text: String::new(),
                    graph: NamedGraph::default(),
                })),
                Err((col, why)) => Err(at(column + col, &why)),
            });
        }
        if let Some(admit) = &self.admit {
            let admitted = check_graph6_line(&text).map(|n| (n, graph6_edges(&text)));
            if let Ok((n, edges)) = admitted {
                if let Err(why) = admit(number, n, edges) {
                    return Some(Err(why));
                }
            }
        }
        Some(match parse_graph6_line(&text) {
            Ok((n, edges)) => {
                let graph = numbered(n, edges);
                Ok(Some(Graph6Entry { line: number, text: text.into_owned(), graph }))
            }
            Err((col, why)) => Err(at(column + col, &why)),
        })
    }
}

impl<R: std::io::BufRead> Iterator for Graph6Reader<R> {
    type Item = Result<Graph6Entry, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.failed {
            match self.next_line(true)? {
                Ok(None) => continue,
                Ok(Some(entry)) => return Some(Ok(entry)),
                Err(why) => {
                    self.failed = true;
                    return Some(Err(why));
                }
            }
        }
        None
    }
}

/// A decoded graph6 line: the vertex count and the edges (0-based).
pub type Graph6 = (usize, Vec<(usize, usize)>);

/// Validates one graph6 line and decodes it with petgraph; the error is a 0-based column
/// offset and the reason.
pub fn parse_graph6_line(line: &str) -> Result<Graph6, (usize, String)> {
    let n = check_graph6_line(line)?;
    let (order, edges) = petgraph::graph6::from_graph6_representation::<u32>(line.to_string());
    debug_assert_eq!(order, n);
    Ok((n, edges.into_iter().map(|(a, b)| (a as usize, b as usize)).collect()))
}

/// The edges of a valid graph6 line, counted from its bits (the vertex count's bytes skipped).
fn graph6_edges(line: &str) -> usize {
    let data = match line.as_bytes() {
        [126, _, _, _, rest @ ..] => rest,
        [_, rest @ ..] => rest,
        [] => &[],
    };
    data.iter().map(|&b| (b - 63).count_ones() as usize).sum()
}

/// Validates one graph6 line (characters, length, padding) without decoding it: its vertex
/// count, or a 0-based column offset and the reason.
pub fn check_graph6_line(line: &str) -> Result<usize, (usize, String)> {
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
    Ok(n)
}

/// The graph6 line of `graph` (petgraph's encoder).
pub fn to_graph6(graph: &NamedGraph) -> String {
    petgraph::graph6::ToGraph6::graph6_string(graph)
}

/// A DIMACS graph as read: the vertex count its header declares, the edges its lines list (each
/// once), where the header is, and the notes for the user. The reader holds only what the
/// lines hold; [`DimacsGraph::build`] makes the graph with every declared vertex, isolated ones
/// included, which the caller sizes first (`N` is the header's word, not content).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DimacsGraph {
    /// The header's `N`.
    pub vertices: usize,
    /// The edges, 0-based, each undirected edge once, in the order first listed.
    pub edges: Vec<(usize, usize)>,
    /// The 1-based line and column of the header's `p`.
    pub header: (usize, usize),
    /// At most one: that every edge was listed in both directions.
    pub notes: Vec<String>,
}

impl DimacsGraph {
    /// The graph: vertices `v0 .. v{N-1}`, the edges in file order.
    pub fn build(&self) -> NamedGraph {
        numbered(self.vertices, self.edges.iter().copied())
    }
}

/// A graph in the DIMACS graph format (see [`DimacsGraph`]). `file` names it in errors and
/// notes.
///
/// Each edge may be listed once, in either direction, or — as many benchmark files do, e.g.
/// the queen graphs — every edge twice, once in each direction (`e 1 2` and `e 2 1`); the
/// latter is read as one undirected edge per pair, with the note. Anything else is an error
/// naming the line: the same edge twice in one direction, three times, or a file where some
/// edges come in both directions and others in one. The `p edge N M` count M is the number of
/// `e` lines, or, for a file listing both directions, also the number of undirected edges.
pub fn read_dimacs_graph(text: &str, file: &str) -> Result<DimacsGraph, String> {
    /// An `e U V` line: its line and first vertex's column, and U and V.
    struct Listed {
        line: usize,
        column: usize,
        ends: (usize, usize),
    }
    let mut header: Option<(usize, usize)> = None;
    let mut header_at = (1, 1);
    let mut listed: Vec<Listed> = Vec::new();
    for (k, raw) in gamecert_certificates::base::text::lines(text).enumerate() {
        let at = |col: usize, why: String| format!("{file}:{}:{col}: {why}", k + 1);
        let words: Vec<(usize, &str)> = raw
            .split(is_separator)
            .filter(|w| !w.is_empty())
            .map(|w| (w.as_ptr() as usize - raw.as_ptr() as usize + 1, w))
            .collect();
        if let Some((col, ch)) =
            foreign_space(raw).filter(|_| words.first().map(|w| w.1) != Some("c"))
        {
            // The checker's separators (ASCII space and tab), as in every text format.
            return Err(at(col, foreign_space_message(ch)));
        }
        match words.first().map(|w| w.1) {
            None | Some("c") => continue,
            Some("p") => {
                if header.is_some() {
                    return Err(at(1, "a second `p` line".into()));
                }
                let number = |i: usize, what: &str| -> Result<usize, String> {
                    let (col, w) = words.get(i).copied().ok_or_else(|| {
                        at(raw.len() + 1, format!("`p edge N M`: the {what} is missing"))
                    })?;
                    gamecert_certificates::base::text::number::<usize>(w, false)
                        .ok_or_else(|| at(col, format!("the {what} '{w}' is not a number")))
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
                header = Some((n, m));
                header_at = (k + 1, words[0].0);
            }
            Some("e") => {
                let Some((n, _)) = header else {
                    return Err(at(1, "an edge before the `p edge N M` line".into()));
                };
                let mut ends = [0usize; 2];
                for (i, end) in ends.iter_mut().enumerate() {
                    let (col, w) = words
                        .get(i + 1)
                        .copied()
                        .ok_or_else(|| at(raw.len() + 1, "`e U V`: a vertex is missing".into()))?;
                    *end = gamecert_certificates::base::text::number::<usize>(w, false)
                        .filter(|v| (1..=n).contains(v))
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
                listed.push(Listed { line: k + 1, column: words[1].0, ends: (a, b) });
            }
            Some(w) => {
                return Err(at(
                    words[0].0,
                    format!("unexpected line starting `{w}` (expected c, p or e)"),
                ))
            }
        }
    }
    let (n, m) = header.ok_or_else(|| format!("{file}: no `p edge N M` line"))?;
    let at = |e: &Listed, why: String| format!("{file}:{}:{}: {why}", e.line, e.column);
    // Per undirected edge: its first listing, and the listing in the other direction if any.
    let mut seen: HashMap<(usize, usize), (usize, Option<usize>)> = HashMap::new();
    let mut first_reverse: Option<usize> = None;
    for (i, e) in listed.iter().enumerate() {
        let (a, b) = e.ends;
        match seen.entry((a.min(b), a.max(b))) {
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert((i, None));
            }
            std::collections::hash_map::Entry::Occupied(mut slot) => {
                let (first, reverse) = slot.get_mut();
                let earlier = &listed[*first];
                if let Some(second) = reverse {
                    let why = format!(
                        "the edge {a} - {b} is listed a third time (after lines {} and {})",
                        earlier.line, listed[*second].line
                    );
                    return Err(at(e, why));
                }
                if earlier.ends == e.ends {
                    let why = format!(
                        "the edge {a} - {b} is listed twice in the same direction (first on line {})",
                        earlier.line
                    );
                    return Err(at(e, why));
                }
                *reverse = Some(i);
                first_reverse.get_or_insert(i);
            }
        }
    }
    let edges = seen.len();
    let mut notes = Vec::new();
    if let Some(r) = first_reverse {
        // Both directions: every edge must come in both.
        if let Some(single) = listed.iter().enumerate().find_map(|(i, e)| {
            let (a, b) = e.ends;
            (seen[&(a.min(b), a.max(b))] == (i, None)).then_some(e)
        }) {
            let (a, b) = listed[r].ends;
            let (c, d) = single.ends;
            return Err(at(
                &listed[r],
                format!(
                    "the edge {a} - {b} repeats line {} in the other direction, but the edge \
                     {c} - {d} on line {} is listed in one direction only: list every edge \
                     once, or every edge in both directions",
                    listed[seen[&(a.min(b), a.max(b))].0].line,
                    single.line
                ),
            ));
        }
        if m != listed.len() && m != edges {
            return Err(format!(
                "{file}: the `p` line announces {m} edges, the file lists {edges} edges, each \
                 in both directions ({} lines)",
                listed.len()
            ));
        }
        notes.push(format!(
            "{file}: every edge is listed in both directions (`e U V` and `e V U`): read as \
             {edges} undirected edges"
        ));
    } else if m != listed.len() {
        return Err(format!("{file}: the `p` line announces {m} edges, the file lists {edges}"));
    }
    let edges = listed
        .iter()
        .enumerate()
        .filter(|&(i, e)| seen[&(e.ends.0.min(e.ends.1), e.ends.0.max(e.ends.1))].0 == i)
        .map(|(_, e)| (e.ends.0 - 1, e.ends.1 - 1))
        .collect();
    Ok(DimacsGraph { vertices: n, edges, header: header_at, notes })
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
        let read =
            read_dimacs_graph("c triangle\np edge 3 3\ne 1 2\ne 2 3\ne 3 1\n", "t.col").unwrap();
        assert_eq!(read.header, (2, 1));
        let (g, notes) = (read.build(), read.notes);
        assert_eq!((g.node_count(), g.edge_count()), (3, 3));
        assert!(notes.is_empty());
        assert!(is_connected(&g));
        for (text, expected) in [
            ("e 1 2\n", "t:1:1: an edge before"),
            ("p edge 2 1\ne 1 3\n", "t:2:5: vertex '3' is not in 1..=2"),
            ("p edge 2 1\ne 1 1\n", "t:2:3: a loop"),
            ("p edge 2 2\ne 1 2\n", "announces 2 edges"),
            ("p cnf 2 2\n", "t:1:3: expected `p edge`"),
            ("p edge x 2\n", "t:1:8: the vertex count 'x'"),
            ("p edge 2 1\ne 1\u{a0}2\n", "t:2:4: '\\u{a0}' (U+00A0) is not a separator"),
        ] {
            let err = read_dimacs_graph(text, "t").unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    /// Every edge in both directions is one edge each, with one note, whether M counts lines
    /// or edges; a true repetition, or a mix of both listings, is an error naming the line.
    #[test]
    fn dimacs_edges_in_both_directions_are_one_edge_and_repeats_are_errors() {
        let both = "e 1 2\ne 2 1\ne 2 3\ne 3 2\n";
        for m in [4, 2] {
            let read = read_dimacs_graph(&format!("p edge 3 {m}\n{both}"), "q.col").unwrap();
            let (g, notes) = (read.build(), read.notes);
            assert_eq!(g.edge_count(), 2);
            assert_eq!(to_spec(&g), GraphSpec::numbered(3, &[(0, 1), (1, 2)]));
            assert_eq!(notes.len(), 1, "{notes:?}");
            assert!(notes[0].starts_with("q.col: every edge is listed in both directions"));
            assert!(notes[0].contains("2 undirected edges"), "{notes:?}");
        }
        for (text, expected) in [
            ("p edge 3 3\n{both}", "the `p` line announces 3 edges, the file lists 2 edges"),
            // A true repetition in a file that lists each edge once.
            (
                "p edge 3 3\ne 1 2\ne 2 3\ne 1 2\n",
                "t:4:3: the edge 1 - 2 is listed twice in the same direction (first on line 2)",
            ),
            // The same, in the other direction: one repeat among single listings.
            (
                "p edge 3 3\ne 1 2\ne 2 3\ne 2 1\n",
                "t:4:3: the edge 2 - 1 repeats line 2 in the other direction, but the edge 2 - 3 \
                 on line 3 is listed in one direction only",
            ),
            // Both directions, but one edge in one direction only.
            (
                "p edge 4 5\ne 1 2\ne 2 1\ne 2 3\ne 3 2\ne 3 4\n",
                "t:3:3: the edge 2 - 1 repeats line 2 in the other direction, but the edge 3 - 4 \
                 on line 6 is listed in one direction only",
            ),
            // Both directions, and one of them twice.
            (
                "p edge 3 5\ne 1 2\ne 2 1\ne 2 3\ne 3 2\ne 1 2\n",
                "t:6:3: the edge 1 - 2 is listed a third time (after lines 2 and 3)",
            ),
            (
                "p edge 3 4\ne 1 2\ne 2 1\ne 2 1\n",
                "t:4:3: the edge 2 - 1 is listed a third time (after lines 2 and 3)",
            ),
        ] {
            let text = text.replace("{both}", both);
            let err = read_dimacs_graph(&text, "t").unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }

    /// The stream reader gives what the whole-text reader gives, one line at a time, and names
    /// a read error, a byte past ASCII and an over-long line by their line.
    #[test]
    fn graph6_streams_are_read_line_by_line() {
        let text = ">>graph6<<Bg\r\n\nDhc\nC~";
        let streamed: Vec<String> = Graph6Reader::new(std::io::Cursor::new(text), "s")
            .map(|e| e.map(|e| format!("{}:{}", e.line, e.text)))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(streamed, ["1:Bg", "3:Dhc", "4:C~"]);
        let mut bad = Graph6Reader::new(&b"Bg\nD\xffc\nBg\n"[..], "s");
        assert!(bad.next().unwrap().is_ok());
        let err = bad.next().unwrap().unwrap_err();
        assert_eq!(err, "s:2:2: the byte 0xff is not a graph6 character (63..=126)");
        assert!(bad.next().is_none(), "the reader stops at the first error");
        let err = read_graph6("Bg\nD cé", "s").unwrap_err();
        assert!(err.starts_with("s:2:2: ' ' is not a graph6 character"), "{err}");
    }

    /// `check_next` checks a line as `next` does, without its edges.
    #[test]
    fn graph6_lines_are_skipped_checked() {
        let mut reader = Graph6Reader::new(&b"Bg\n\nDhc\nBh\n"[..], "s");
        assert_eq!(reader.check_next(), Some(Ok(1)));
        assert_eq!(reader.next().unwrap().unwrap().line, 3);
        assert_eq!(
            reader.check_next(),
            Some(Err("s:4:2: the padding bits after the last edge are not zero".into()))
        );
        assert_eq!(reader.check_next(), None);
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

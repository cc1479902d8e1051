//! The edge-list text format for a hand-written `voronoi-one-round` instance.
//!
//! ```text
//! # a path a - b - c - d with W on b; B places one vertex
//! white b
//! black 1
//! a b
//! b c
//! c d
//! vertex e        # an isolated vertex
//! ```
//!
//! One item a line; `#` starts a comment. `white V...` names W's vertices (may repeat over
//! several lines), `black N` gives B's count (once), `vertex V` declares a vertex (needed only for
//! isolated ones), and any other line `A B` is an edge. Vertices are numbered in order of first
//! appearance. Names are any text without separators or `#` except the three keywords, which are
//! refused wherever a name stands (`vertex white`, `white black`, `a vertex`). Separators are
//! [the checker's](crate::base::text): ASCII spaces and tabs; any other white space (a
//! non-breaking space) is refused. Errors give the line and column.

use crate::base::text::{foreign_space, foreign_space_message, tokenize};

/// The words that begin an item line, never vertex names.
const KEYWORDS: [&str; 3] = ["white", "black", "vertex"];
use crate::voronoi::instance::{GraphSpec, OneRoundSpec};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// A line-and-column error in an edge-list file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeListError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for EdgeListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for EdgeListError {}

/// Parses an edge-list instance.
pub fn parse_edge_list(text: &str) -> Result<OneRoundSpec, EdgeListError> {
    let mut vertices: Vec<String> = Vec::new();
    let mut known: HashMap<String, usize> = HashMap::new();
    let mut edges = Vec::new();
    let mut seen_edges: HashSet<(usize, usize)> = HashSet::new();
    let mut white: Vec<(String, usize, usize)> = Vec::new();
    let mut black: Option<usize> = None;
    let mut add_vertex = |name: &str, vertices: &mut Vec<String>| -> usize {
        if let Some(&i) = known.get(name) {
            return i;
        }
        known.insert(name.to_string(), vertices.len());
        vertices.push(name.to_string());
        vertices.len() - 1
    };
    for (k, raw) in crate::base::text::lines(text).enumerate() {
        let line = k + 1;
        let content = raw.split('#').next().unwrap_or("");
        if let Some((column, ch)) = foreign_space(content) {
            let message = foreign_space_message(ch);
            return Err(EdgeListError { line, column, message });
        }
        let tokens: Vec<(usize, &str)> =
            tokenize(content).0.into_iter().map(|t| (t.column, t.text)).collect();
        let err = |column: usize, message: String| EdgeListError { line, column, message };
        let Some(&(col0, first)) = tokens.first() else {
            continue;
        };
        if let Some(&(col, name)) = tokens[1..].iter().find(|(_, name)| KEYWORDS.contains(name)) {
            return Err(err(col, format!("`{name}` is a keyword, not a vertex name")));
        }
        match first {
            "white" => {
                if tokens.len() < 2 {
                    return Err(err(col0, "`white` needs at least one vertex".into()));
                }
                for &(col, name) in &tokens[1..] {
                    white.push((name.to_string(), line, col));
                }
            }
            "black" => {
                if black.is_some() {
                    return Err(err(col0, "`black` is given twice".into()));
                }
                let [_, (col, count)] = tokens[..] else {
                    return Err(err(col0, "`black` needs exactly one number".into()));
                };
                // B places at least one stone (as the JSON form's `black_count` must be).
                let stones = crate::base::text::number(count, false).filter(|&n: &usize| n > 0);
                black = Some(stones.ok_or_else(|| {
                    err(
                        col,
                        format!("`{count}` is not a number of stones from 1 to {}", usize::MAX),
                    )
                })?);
            }
            "vertex" => {
                if tokens.len() < 2 {
                    return Err(err(col0, "`vertex` needs at least one name".into()));
                }
                for &(_, name) in &tokens[1..] {
                    add_vertex(name, &mut vertices);
                }
            }
            _ => {
                if tokens.len() != 2 {
                    return Err(err(
                        col0,
                        format!(
                            "expected an edge `A B`, or `white`, `black`, `vertex`; found {} items",
                            tokens.len()
                        ),
                    ));
                }
                let (a, b) = (tokens[0].1, tokens[1].1);
                if a == b {
                    return Err(err(tokens[1].0, format!("self-loop on '{a}'")));
                }
                let i = add_vertex(a, &mut vertices);
                let j = add_vertex(b, &mut vertices);
                if !seen_edges.insert((i.min(j), i.max(j))) {
                    return Err(err(col0, format!("duplicate edge between '{a}' and '{b}'")));
                }
                edges.push((a.to_string(), b.to_string()));
            }
        }
    }
    let end = text.lines().count().max(1);
    let Some(black_count) = black else {
        return Err(EdgeListError {
            line: end,
            column: 1,
            message: "missing `black N` (B's number of vertices)".into(),
        });
    };
    if white.is_empty() {
        return Err(EdgeListError {
            line: end,
            column: 1,
            message: "missing `white V...`: W's set S is empty".into(),
        });
    }
    let mut white_names = Vec::new();
    let mut taken = HashSet::new();
    for (name, line, column) in white {
        if !known.contains_key(&name) {
            return Err(EdgeListError {
                line,
                column,
                message: format!("unknown vertex '{name}' (not in any edge or `vertex` line)"),
            });
        }
        if !taken.insert(name.clone()) {
            return Err(EdgeListError {
                line,
                column,
                message: format!("vertex '{name}' is given to W twice"),
            });
        }
        white_names.push(name);
    }
    Ok(OneRoundSpec {
        graph: GraphSpec { vertices, edges },
        white: white_names,
        black_count,
        source: None,
    })
}

/// Writes an instance in the edge-list format (the inverse of [`parse_edge_list`] up to
/// comments and vertex order).
pub fn write_edge_list(spec: &OneRoundSpec) -> String {
    let mut out = format!("white {}\nblack {}\n", spec.white.join(" "), spec.black_count);
    let mut touched = HashSet::new();
    for (a, b) in &spec.graph.edges {
        touched.insert(a.as_str());
        touched.insert(b.as_str());
        out.push_str(&format!("{a} {b}\n"));
    }
    for v in &spec.graph.vertices {
        if !touched.contains(v.as_str()) {
            out.push_str(&format!("vertex {v}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        let text = "# path\nwhite b\nblack 1\na b\nb c   # edge\nc d\nvertex e\n";
        let spec = parse_edge_list(text).unwrap();
        assert_eq!(spec.graph.vertices, vec!["a", "b", "c", "d", "e"]);
        assert_eq!(spec.white, vec!["b"]);
        assert_eq!(spec.black_count, 1);
        let again = parse_edge_list(&write_edge_list(&spec)).unwrap();
        assert_eq!(again.graph.edges, spec.graph.edges);
        assert!(spec.validate().is_ok());
    }

    #[test]
    fn errors_give_line_and_column() {
        let e = parse_edge_list("white a\nblack 1\na a\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 3));
        assert!(e.message.contains("self-loop"));
        let e = parse_edge_list("white a\nblack 1\na b\n  b a\n").unwrap_err();
        assert_eq!((e.line, e.column), (4, 3));
        assert!(e.message.contains("duplicate edge"));
        let e = parse_edge_list("white a q\nblack 1\na b\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 9));
        assert!(e.message.contains("unknown vertex 'q'"));
        let e = parse_edge_list("white a\nblack x\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 7));
        for count in ["0", "+1", "-1", "99999999999999999999999"] {
            let e = parse_edge_list(&format!("white a\nblack {count}\na b\n")).unwrap_err();
            assert_eq!((e.line, e.column), (2, 7), "{count}");
            assert!(e.message.contains("is not a number of stones from 1 to"), "{e:?}");
        }
        let e = parse_edge_list("black 1\na b\n").unwrap_err();
        assert!(e.message.contains("S is empty"));
        let e = parse_edge_list("white a\na b c\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
    }

    /// The keywords are never names (wherever a name stands), and only ASCII spaces and tabs
    /// separate.
    #[test]
    fn keywords_and_foreign_spaces_are_refused() {
        for (text, at) in [
            ("white a\nblack 1\na b\nvertex white\n", (4, 8)),
            ("white a\nblack 1\na b\nvertex c black\n", (4, 10)),
            ("white a vertex\nblack 1\na b\n", (1, 9)),
            ("white a\nblack 1\na white\n", (3, 3)),
        ] {
            let e = parse_edge_list(text).unwrap_err();
            assert_eq!((e.line, e.column), at, "{text:?}: {e}");
            assert!(e.message.contains("is a keyword, not a vertex name"), "{e}");
        }
        let e = parse_edge_list("white a\nblack 1\na\u{a0}b\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 2));
        assert!(e.message.contains("U+00A0"), "{e}");
        let spec = parse_edge_list("white a\t# W\r\nblack 1\r\na\tb\r\n").unwrap();
        assert_eq!(spec.graph.vertices, ["a", "b"]);
    }
}

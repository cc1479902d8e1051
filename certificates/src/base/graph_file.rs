//! A graph as a file gives it, by vertex names: [`GraphSpec`] (a `String` a name, for solvers,
//! generators and tests) and [`GraphFile`], the same JSON object read compactly (every name in
//! one buffer), which `verify` reads a `voronoi-one-round` instance's graph into: a graph of
//! millions of vertices is held in a few hundred megabytes instead of gigabytes, and validated
//! from there by [`Graph::from_source`] with the same checks and messages.
//!
//! Both read exactly the same files and refuse the same ones with the same messages: the
//! compact form's fields, its names and its container names are `GraphSpec`'s, and each element
//! is read as serde reads a `String` and a pair (`tests` below compares the two on faults).

use crate::base::graph::GraphSource;
use serde::de::{DeserializeSeed, Deserializer, Error, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A graph by vertex names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphSpec {
    pub vertices: Vec<String>,
    pub edges: Vec<(String, String)>,
}

impl GraphSpec {
    /// The graph on vertices `v0 .. v{n-1}` with `edges` given by index (tests, generators).
    pub fn numbered(n: usize, edges: &[(usize, usize)]) -> GraphSpec {
        let vertices: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let edges =
            edges.iter().map(|&(a, b)| (vertices[a].clone(), vertices[b].clone())).collect();
        GraphSpec { vertices, edges }
    }
}

/// [`GraphSpec`] read compactly: the vertex names in one buffer, the edges' names in another
/// (edge `k` is names `2k` and `2k + 1`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename = "GraphSpec", expecting = "struct GraphSpec")]
pub struct GraphFile {
    vertices: NameList,
    edges: NamePairs,
}

impl GraphSource for GraphFile {
    fn vertex_count(&self) -> usize {
        self.vertices.len()
    }
    fn vertex_name(&self, i: usize) -> &str {
        self.vertices.get(i)
    }
    fn edge_count(&self) -> usize {
        self.edges.0.len() / 2
    }
    fn edge(&self, k: usize) -> (&str, &str) {
        (self.edges.0.get(2 * k), self.edges.0.get(2 * k + 1))
    }
}

/// Names in one buffer: name `i` is `buf[ends[i - 1]..ends[i]]` (from 0 for the first).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameList {
    buf: String,
    ends: Vec<usize>,
}

impl NameList {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    pub fn get(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.buf[start..self.ends[i]]
    }

    /// Returns what growing by doubling left unused (up to half of a large list).
    fn shrink(mut self) -> NameList {
        self.buf.shrink_to_fit();
        self.ends.shrink_to_fit();
        self
    }

    fn push(&mut self, name: &str) {
        self.buf.push_str(name);
        self.ends.push(self.buf.len());
    }
}

/// Appends one JSON string to a [`NameList`], refusing anything else as a `String` does.
struct Name<'a>(&'a mut NameList);

impl<'de> DeserializeSeed<'de> for Name<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_string(self)
    }
}

impl<'de> Visitor<'de> for Name<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_str<E: Error>(self, name: &str) -> Result<(), E> {
        self.0.push(name);
        Ok(())
    }
}

/// Reads a JSON array of strings, as `Vec<String>` does.
struct Names<'a>(&'a mut NameList);

impl<'de> Visitor<'de> for Names<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Name(self.0))?.is_some() {}
        Ok(())
    }
}

impl<'de> Deserialize<'de> for NameList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NameList, D::Error> {
        let mut list = NameList::default();
        d.deserialize_seq(Names(&mut list))?;
        Ok(list.shrink())
    }
}

/// Pairs of names in a [`NameList`], pair `k` at `2k` and `2k + 1`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NamePairs(NameList);

/// Reads one `[a, b]` as `(String, String)` does.
struct Pair<'a>(&'a mut NameList);

impl<'de> DeserializeSeed<'de> for Pair<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_tuple(2, self)
    }
}

impl<'de> Visitor<'de> for Pair<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a tuple of size 2")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let before = self.0.len();
        for k in 0..2 {
            if seq.next_element_seed(Name(self.0))?.is_none() {
                // Nothing half-read is kept: the error ends the reading anyway.
                self.0.ends.truncate(before);
                return Err(A::Error::invalid_length(k, &self));
            }
        }
        Ok(())
    }
}

/// Reads a JSON array of pairs, as `Vec<(String, String)>` does.
struct Pairs<'a>(&'a mut NameList);

impl<'de> Visitor<'de> for Pairs<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Pair(&mut *self.0))?.is_some() {}
        Ok(())
    }
}

impl<'de> Deserialize<'de> for NamePairs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NamePairs, D::Error> {
        let mut list = NameList::default();
        d.deserialize_seq(Pairs(&mut list))?;
        Ok(NamePairs(list.shrink()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::budget::Budget;
    use crate::base::graph::Graph;

    /// Both readings of `text`: equal graphs, or the same message.
    fn both(text: &str) -> Result<GraphFile, String> {
        let spec = serde_json::from_str::<GraphSpec>(text).map_err(|e| e.to_string());
        let file = serde_json::from_str::<GraphFile>(text).map_err(|e| e.to_string());
        match (&spec, &file) {
            (Ok(spec), Ok(file)) => {
                assert_eq!(file.vertex_count(), spec.vertices.len());
                for (i, name) in spec.vertices.iter().enumerate() {
                    assert_eq!(file.vertex_name(i), name);
                }
                assert_eq!(file.edge_count(), spec.edges.len());
                for (k, (a, b)) in spec.edges.iter().enumerate() {
                    assert_eq!(file.edge(k), (a.as_str(), b.as_str()));
                }
            }
            (Err(a), Err(b)) => assert_eq!(a, b, "{text}"),
            _ => panic!("{text}: one reading accepts, the other refuses: {spec:?} / {file:?}"),
        }
        file
    }

    #[test]
    fn reads_what_graph_spec_reads() {
        let file = both(r#"{"vertices": ["a", "b\"c", ""], "edges": [["a", "b\"c"], ["", "a"]]}"#)
            .unwrap();
        assert_eq!(file.edge(1), ("", "a"));
        both(r#"{"edges": [], "vertices": []}"#).unwrap();
        let spec = GraphSpec::numbered(40, &[(0, 1), (1, 2), (39, 0)]);
        both(&serde_json::to_string(&spec).unwrap()).unwrap();
    }

    #[test]
    fn refuses_what_graph_spec_refuses_with_its_message() {
        let faults = [
            r#"{"vertices": ["a"], "edges": [["a"]]}"#,
            r#"{"vertices": ["a"], "edges": [[]]}"#,
            r#"{"vertices": ["a"], "edges": [["a", "b", "c"]]}"#,
            r#"{"vertices": ["a"], "edges": [["a", 1]]}"#,
            r#"{"vertices": ["a"], "edges": ["a"]}"#,
            r#"{"vertices": ["a"], "edges": {"a": "b"}}"#,
            r#"{"vertices": ["a"], "edges": null}"#,
            r#"{"vertices": [1], "edges": []}"#,
            r#"{"vertices": [null], "edges": []}"#,
            r#"{"vertices": "a", "edges": []}"#,
            r#"{"vertices": ["a"]}"#,
            r#"{"edges": []}"#,
            r#"{"vertices": [], "edges": [], "edgez": []}"#,
            r#"{"vertices": [], "vertices": [], "edges": []}"#,
            r#"{"vertices": ["a\q"], "edges": []}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "b"],]}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a" "b"]]}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "b"]"#,
            r#"["a", "b"]"#,
            r#"7"#,
        ];
        for text in faults {
            assert!(both(text).is_err(), "{text}");
        }
    }

    #[test]
    fn validates_as_the_spec_does() {
        for text in [
            r#"{"vertices": ["a", "a"], "edges": []}"#,
            r#"{"vertices": ["a", ""], "edges": []}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "c"]]}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "a"]]}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "b"], ["b", "a"]]}"#,
            r#"{"vertices": ["a", "b"], "edges": [["a", "b"]]}"#,
        ] {
            let spec: GraphSpec = serde_json::from_str(text).unwrap();
            let file = both(text).unwrap();
            let from_spec = Graph::new(&spec.vertices, &spec.edges).map(|g| g.edges());
            let from_file = Graph::from_source(&file, &mut Budget::unlimited()).map(|g| g.edges());
            assert_eq!(from_spec, from_file, "{text}");
        }
        let file = both(r#"{"vertices": ["a", "b"], "edges": [["a", "b"]]}"#).unwrap();
        let err = Graph::from_source(&file, &mut Budget::new(10)).unwrap_err();
        assert!(err.message.contains("work limit"), "{err}");
    }
}

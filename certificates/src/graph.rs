//! Simple undirected graphs with named vertices, validated on construction, and BFS distances.
//!
//! This is the checker's own graph type: vertex `i` is `names[i]`, adjacency lists are sorted.
//! Validation rejects what a game arena may not have: an empty or repeated name, a self-loop, a
//! repeated edge (in either orientation) and an edge naming an unknown vertex.

use std::collections::{HashMap, VecDeque};
use std::fmt;

/// Distance value for "unreachable".
pub const UNREACHABLE: u32 = u32::MAX;

/// A validated simple undirected graph, adjacency in compressed rows: the neighbours of `v` are
/// `targets[offsets[v]..offsets[v + 1]]`, sorted.
#[derive(Clone, Debug)]
pub struct Graph {
    names: Vec<String>,
    index: HashMap<String, usize>,
    offsets: Vec<usize>,
    targets: Vec<usize>,
}

/// Why a graph description is not a simple graph. `at` says where in the description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphError {
    /// Where the problem is, e.g. `edges[17]` or `vertices[3]`.
    pub at: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for GraphError {}

impl Graph {
    /// Builds a graph from vertex names and edges given by name.
    pub fn new(vertices: &[String], edges: &[(String, String)]) -> Result<Graph, GraphError> {
        let mut index = HashMap::with_capacity(vertices.len());
        for (i, name) in vertices.iter().enumerate() {
            if name.is_empty() {
                return Err(GraphError {
                    at: format!("vertices[{i}]"),
                    message: "empty vertex name".into(),
                });
            }
            if index.insert(name.clone(), i).is_some() {
                return Err(GraphError {
                    at: format!("vertices[{i}]"),
                    message: format!("vertex '{name}' is listed twice"),
                });
            }
        }
        let edge_error = |k: usize, message: String| {
            let (a, b) = &edges[k];
            GraphError {
                at: format!("edges[{k}] ({a}, {b})"),
                message,
            }
        };
        let mut pairs = Vec::with_capacity(edges.len());
        let mut degree = vec![0usize; vertices.len()];
        for (k, (a, b)) in edges.iter().enumerate() {
            let lookup = |name: &String| {
                index
                    .get(name)
                    .copied()
                    .ok_or_else(|| edge_error(k, format!("unknown vertex '{name}'")))
            };
            let (i, j) = (lookup(a)?, lookup(b)?);
            if i == j {
                return Err(edge_error(k, format!("self-loop on '{a}'")));
            }
            degree[i] += 1;
            degree[j] += 1;
            pairs.push((i, j));
        }
        let mut offsets = Vec::with_capacity(vertices.len() + 1);
        offsets.push(0);
        for d in &degree {
            offsets.push(offsets.last().copied().unwrap_or(0) + d);
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0usize; 2 * pairs.len()];
        for &(i, j) in &pairs {
            targets[fill[i]] = j;
            fill[i] += 1;
            targets[fill[j]] = i;
            fill[j] += 1;
        }
        for v in 0..vertices.len() {
            let row = &mut targets[offsets[v]..offsets[v + 1]];
            row.sort_unstable();
            if let Some(w) = row.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]) {
                // Rare path: name the second listing of the repeated edge.
                let key = (v.min(w), v.max(w));
                let k = pairs
                    .iter()
                    .enumerate()
                    .filter(|(_, &(i, j))| (i.min(j), i.max(j)) == key)
                    .nth(1)
                    .map_or(0, |(k, _)| k);
                let (a, b) = &edges[k];
                return Err(edge_error(
                    k,
                    format!("duplicate edge between '{a}' and '{b}'"),
                ));
            }
        }
        Ok(Graph {
            names: vertices.to_vec(),
            index,
            offsets,
            targets,
        })
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: usize) -> &str {
        &self.names[v]
    }

    /// All names, in vertex order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The vertex called `name`.
    pub fn vertex(&self, name: &str) -> Option<usize> {
        self.index.get(name).copied()
    }

    /// The neighbours of `v`, sorted.
    pub fn neighbours(&self, v: usize) -> &[usize] {
        &self.targets[self.offsets[v]..self.offsets[v + 1]]
    }

    /// Every edge once, as `(i, j)` with `i < j`, sorted.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.edge_count());
        for i in 0..self.len() {
            out.extend(
                self.neighbours(i)
                    .iter()
                    .filter(|&&j| i < j)
                    .map(|&j| (i, j)),
            );
        }
        out
    }

    /// Distance from the nearest source to every vertex (multi-source BFS), [`UNREACHABLE`] where
    /// no source reaches. With no source every vertex is unreachable.
    pub fn distances_from(&self, sources: &[usize]) -> Vec<u32> {
        self.distances_within(sources, UNREACHABLE)
    }

    /// As [`Graph::distances_from`], but the search stops at `radius`: vertices farther away
    /// are reported [`UNREACHABLE`].
    pub fn distances_within(&self, sources: &[usize], radius: u32) -> Vec<u32> {
        let mut dist = vec![UNREACHABLE; self.len()];
        let mut queue = VecDeque::new();
        for &s in sources {
            if dist[s] != 0 {
                dist[s] = 0;
                queue.push_back(s);
            }
        }
        while let Some(v) = queue.pop_front() {
            let next = dist[v] + 1;
            if next > radius {
                continue;
            }
            for &w in self.neighbours(v) {
                if dist[w] == UNREACHABLE {
                    dist[w] = next;
                    queue.push_back(w);
                }
            }
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn edges(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn path_distances() {
        let g = Graph::new(
            &names(&["a", "b", "c", "d"]),
            &edges(&[("a", "b"), ("b", "c")]),
        )
        .unwrap();
        assert_eq!(g.distances_from(&[0]), vec![0, 1, 2, UNREACHABLE]);
        assert_eq!(g.distances_from(&[0, 2]), vec![0, 1, 0, UNREACHABLE]);
        assert_eq!(
            g.distances_within(&[0], 1),
            vec![0, 1, UNREACHABLE, UNREACHABLE]
        );
        assert_eq!(g.edges(), vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn rejects_bad_graphs() {
        let v = names(&["a", "b"]);
        let err = Graph::new(&v, &edges(&[("a", "a")])).unwrap_err();
        assert!(err.message.contains("self-loop"), "{err}");
        let err = Graph::new(&v, &edges(&[("a", "b"), ("b", "a")])).unwrap_err();
        assert!(err.message.contains("duplicate edge"), "{err}");
        assert_eq!(err.at, "edges[1] (b, a)");
        let err = Graph::new(&v, &edges(&[("a", "q")])).unwrap_err();
        assert!(err.message.contains("unknown vertex 'q'"), "{err}");
        let err = Graph::new(&names(&["a", "a"]), &[]).unwrap_err();
        assert!(err.message.contains("listed twice"), "{err}");
    }
}

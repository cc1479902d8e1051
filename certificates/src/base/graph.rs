//! Simple undirected graphs with named vertices, validated on construction, and BFS distances.
//!
//! This is the checker's own graph type: vertex `i` is `names[i]`, adjacency lists are sorted.
//! Validation rejects what a game arena may not have: an empty or repeated name, a self-loop, a
//! repeated edge (in either orientation) and an edge naming an unknown vertex.

use crate::base::budget::Budget;
use crate::base::fingerprint::Secret;
use std::collections::VecDeque;
use std::fmt;
use std::hash::BuildHasher;

/// Distance value for "unreachable".
pub const UNREACHABLE: u32 = u32::MAX;

/// A validated simple undirected graph, adjacency in compressed rows: the neighbours of `v` are
/// `targets[offsets[v]..offsets[v + 1]]`, sorted.
///
/// Names live in one buffer (`name_buf[name_starts[v]..name_starts[v + 1]]`), and the name
/// index is an open-addressing table of vertex numbers keyed by the standard library's
/// SipHash with a random key per graph: a file cannot be crafted to make its names collide
/// (each slot keeps 32 bits of the hash, so most probes never touch the names).
#[derive(Clone, Debug)]
pub struct Graph {
    name_buf: String,
    name_starts: Vec<usize>,
    index: NameIndex,
    offsets: Vec<usize>,
    targets: Vec<usize>,
}

/// Work units per vertex besides its name's bytes: its name start, its index slots, its
/// degree and offset, its distance entries in a BFS.
const VERTEX_COST: u64 = 64;

/// Work units per edge: two name look-ups, the pair, both adjacency entries and the row sort.
const EDGE_COST: u64 = 64;

/// Vertex numbers by name: linear probing over slots `(hash >> 32) << 32 | vertex`.
#[derive(Clone, Debug)]
struct NameIndex {
    hasher: Secret,
    slots: Vec<u64>,
}

const EMPTY_SLOT: u64 = u64::MAX;

impl NameIndex {
    fn with_vertices(n: usize) -> NameIndex {
        let size = (2 * n).next_power_of_two().max(16);
        NameIndex { hasher: Secret::default(), slots: vec![EMPTY_SLOT; size] }
    }

    fn hash(&self, name: &str) -> u64 {
        self.hasher.hash_one(name)
    }

    /// The slot of `name`: where it is, or the empty slot where it would go.
    fn find<'n>(&self, name: &str, name_of: impl Fn(usize) -> &'n str) -> (usize, Option<usize>) {
        self.find_hashed(name, self.hash(name), name_of)
    }

    /// [`Self::find`] with the name's hash already computed.
    fn find_hashed<'n>(
        &self,
        name: &str,
        hash: u64,
        name_of: impl Fn(usize) -> &'n str,
    ) -> (usize, Option<usize>) {
        let tag = hash >> 32;
        let mask = self.slots.len() - 1;
        // A hash: its low bits choose the slot (on a 32-bit target too; nothing is lost that
        // the mask keeps).
        let mut at = hash as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == EMPTY_SLOT {
                return (at, None);
            }
            let vertex = (slot & 0xffff_ffff) as usize;
            if slot >> 32 == tag && name_of(vertex) == name {
                return (at, Some(vertex));
            }
            at = (at + 1) & mask;
        }
    }

    /// Loads the first slot of each hash, and the start of the name a slot holds: independent
    /// loads the processor overlaps, so that the look-ups that follow find them in the cache (a
    /// large graph's index is far bigger than the cache, and one miss at a time is most of the
    /// time of building it).
    fn preload(&self, hashes: &[u64], name_starts: &[usize]) {
        let mask = self.slots.len() - 1;
        let mut seen = 0u64;
        for &hash in hashes {
            let slot = self.slots[hash as usize & mask];
            seen ^= slot;
            if let Some(&start) = name_starts.get((slot & 0xffff_ffff) as usize) {
                seen ^= start as u64;
            }
        }
        std::hint::black_box(seen);
    }
}

/// How many names are hashed and preloaded together.
const BATCH: usize = 32;

/// A graph as a file gives it: vertex names, and edges as pairs of names.
pub trait GraphSource {
    fn vertex_count(&self) -> usize;
    fn vertex_name(&self, i: usize) -> &str;
    fn edge_count(&self) -> usize;
    fn edge(&self, k: usize) -> (&str, &str);
}

impl GraphSource for (&[String], &[(String, String)]) {
    fn vertex_count(&self) -> usize {
        self.0.len()
    }
    fn vertex_name(&self, i: usize) -> &str {
        &self.0[i]
    }
    fn edge_count(&self) -> usize {
        self.1.len()
    }
    fn edge(&self, k: usize) -> (&str, &str) {
        let (a, b) = &self.1[k];
        (a, b)
    }
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
    /// Builds a graph from vertex names and edges given by name (no work limit: for solvers
    /// and tests, whose graphs are their own).
    pub fn new(vertices: &[String], edges: &[(String, String)]) -> Result<Graph, GraphError> {
        Graph::new_within(vertices, edges, &mut Budget::new(u64::MAX))
    }

    /// Builds a graph from vertex names and edges given by name, charging `budget` first.
    pub fn new_within(
        vertices: &[String],
        edges: &[(String, String)],
        budget: &mut Budget,
    ) -> Result<Graph, GraphError> {
        Graph::from_source(&(vertices, edges), budget)
    }

    /// Builds a graph from any [`GraphSource`], charging `budget` first: the names are indexed
    /// once, each edge's names looked up once, each adjacency row sorted once.
    pub fn from_source(
        source: &impl GraphSource,
        budget: &mut Budget,
    ) -> Result<Graph, GraphError> {
        let whole = |message: String| GraphError { at: "graph".into(), message };
        let n = source.vertex_count();
        let m = source.edge_count();
        // Vertex numbers are stored in 32 bits in the index.
        if n >= u32::MAX as usize {
            return Err(whole(format!("{n} vertices: at most {} are supported", u32::MAX - 1)));
        }
        let name_bytes: u64 = (0..n).map(|i| source.vertex_name(i).len() as u64).sum();
        budget
            .charge(
                name_bytes
                    .saturating_add((n as u64).saturating_mul(VERTEX_COST))
                    .saturating_add((m as u64).saturating_mul(EDGE_COST)),
                "building the graph",
            )
            .map_err(whole)?;
        let name_bytes =
            crate::base::budget::to_usize(name_bytes, "the names' bytes").map_err(whole)?;
        let mut name_buf = String::with_capacity(name_bytes);
        let mut name_starts = Vec::with_capacity(n + 1);
        name_starts.push(0);
        for i in 0..n {
            name_buf.push_str(source.vertex_name(i));
            name_starts.push(name_buf.len());
        }
        let name_of = |v: usize| &name_buf[name_starts[v]..name_starts[v + 1]];
        let mut index = NameIndex::with_vertices(n);
        let mut hashes = [0u64; BATCH];
        for first in (0..n).step_by(BATCH) {
            let batch = first..n.min(first + BATCH);
            for i in batch.clone() {
                hashes[i - first] = index.hash(source.vertex_name(i));
            }
            index.preload(&hashes[..batch.len()], &[]);
            for i in batch {
                let name = source.vertex_name(i);
                if name.is_empty() {
                    return Err(GraphError {
                        at: format!("vertices[{i}]"),
                        message: "empty vertex name".into(),
                    });
                }
                let hash = hashes[i - first];
                match index.find_hashed(name, hash, name_of) {
                    (_, Some(first)) => {
                        return Err(GraphError {
                            at: format!("vertices[{i}]"),
                            message: format!(
                                "vertex '{name}' is listed twice (first as vertices[{first}])"
                            ),
                        })
                    }
                    (slot, None) => index.slots[slot] = (hash >> 32) << 32 | i as u64,
                }
            }
        }
        let edge_error = |k: usize, message: String| {
            let (a, b) = source.edge(k);
            GraphError { at: format!("edges[{k}] ({a}, {b})"), message }
        };
        // Vertex numbers fit in 32 bits (checked above).
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(m);
        let mut degree = vec![0usize; n];
        for first in (0..m).step_by(BATCH / 2) {
            let batch = first..m.min(first + BATCH / 2);
            for k in batch.clone() {
                let (a, b) = source.edge(k);
                hashes[2 * (k - first)] = index.hash(a);
                hashes[2 * (k - first) + 1] = index.hash(b);
            }
            index.preload(&hashes[..2 * batch.len()], &name_starts);
            for k in batch {
                let (a, b) = source.edge(k);
                let lookup = |name: &str, hash: u64| {
                    index
                        .find_hashed(name, hash, name_of)
                        .1
                        .ok_or_else(|| edge_error(k, format!("unknown vertex '{name}'")))
                };
                let i = lookup(a, hashes[2 * (k - first)])?;
                let j = lookup(b, hashes[2 * (k - first) + 1])?;
                if i == j {
                    return Err(edge_error(k, format!("self-loop on '{a}'")));
                }
                degree[i] += 1;
                degree[j] += 1;
                pairs.push((i as u32, j as u32));
            }
        }
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        for d in &degree {
            offsets.push(offsets.last().copied().unwrap_or(0) + d);
        }
        drop(degree);
        let mut fill = offsets.clone();
        let mut targets = vec![0usize; 2 * pairs.len()];
        for &(i, j) in &pairs {
            let (i, j) = (i as usize, j as usize);
            targets[fill[i]] = j;
            fill[i] += 1;
            targets[fill[j]] = i;
            fill[j] += 1;
        }
        drop(fill);
        for v in 0..n {
            let row = &mut targets[offsets[v]..offsets[v + 1]];
            row.sort_unstable();
            if let Some(w) = row.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]) {
                // Rare path: name the second listing of the repeated edge.
                let key = (v.min(w) as u32, v.max(w) as u32);
                let k = pairs
                    .iter()
                    .enumerate()
                    .filter(|(_, &(i, j))| (i.min(j), i.max(j)) == key)
                    .nth(1)
                    .map_or(0, |(k, _)| k);
                let (a, b) = source.edge(k);
                return Err(edge_error(k, format!("duplicate edge between '{a}' and '{b}'")));
            }
        }
        Ok(Graph { name_buf, name_starts, index, offsets, targets })
    }

    /// Number of vertices.
    pub fn len(&self) -> usize {
        self.name_starts.len() - 1
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.targets.len() / 2
    }

    /// The name of vertex `v`.
    pub fn name(&self, v: usize) -> &str {
        &self.name_buf[self.name_starts[v]..self.name_starts[v + 1]]
    }

    /// All names, in vertex order.
    pub fn names(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|v| self.name(v))
    }

    /// The vertex called `name`.
    pub fn vertex(&self, name: &str) -> Option<usize> {
        self.index.find(name, |v| self.name(v)).1
    }

    /// The neighbours of `v`, sorted.
    pub fn neighbours(&self, v: usize) -> &[usize] {
        &self.targets[self.offsets[v]..self.offsets[v + 1]]
    }

    /// Every edge once, as `(i, j)` with `i < j`, sorted.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::with_capacity(self.edge_count());
        for i in 0..self.len() {
            out.extend(self.neighbours(i).iter().filter(|&&j| i < j).map(|&j| (i, j)));
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

/// For every vertex, the smallest vertex of its orbit under the group generated by
/// `generators` (each as moved (vertex, image) pairs): union-find over the pairs, the smaller
/// index always the root. The producer of a Voronoi strategy calls this too, to know which
/// replies the checker will explore.
pub fn orbit_representatives(n: usize, generators: &[&[(usize, usize)]]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        let mut root = x;
        while parent[root] != root {
            root = parent[root];
        }
        while parent[x] != root {
            let next = parent[x];
            parent[x] = root;
            x = next;
        }
        root
    }
    for generator in generators {
        for &(v, w) in generator.iter() {
            let (a, b) = (find(&mut parent, v), find(&mut parent, w));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|v| find(&mut parent, v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    fn edges(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn path_distances() {
        let g =
            Graph::new(&names(&["a", "b", "c", "d"]), &edges(&[("a", "b"), ("b", "c")])).unwrap();
        assert_eq!(g.distances_from(&[0]), vec![0, 1, 2, UNREACHABLE]);
        assert_eq!(g.distances_from(&[0, 2]), vec![0, 1, 0, UNREACHABLE]);
        assert_eq!(g.distances_within(&[0], 1), vec![0, 1, UNREACHABLE, UNREACHABLE]);
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
        let err = Graph::new(&names(&["a", ""]), &[]).unwrap_err();
        assert_eq!(err.at, "vertices[1]");
        let err = Graph::new_within(&v, &edges(&[("a", "b")]), &mut Budget::new(100)).unwrap_err();
        assert!(err.message.contains("work limit"), "{err}");
    }

    #[test]
    fn the_name_index_finds_every_name_and_no_other() {
        let list: Vec<String> = (0..5000).map(|i| format!("v{i}")).collect();
        let g = Graph::new(&list, &[]).unwrap();
        for (i, name) in list.iter().enumerate() {
            assert_eq!(g.vertex(name), Some(i));
            assert_eq!(g.name(i), name);
        }
        assert_eq!(g.vertex("v5000"), None);
        assert_eq!(g.vertex("v"), None);
        assert_eq!(g.names().count(), 5000);
    }

    /// The look-ups run in batches: the first fault is still the one named, wherever it falls
    /// in a batch, and each edge still finds its own vertices.
    #[test]
    fn batched_look_ups_name_the_first_fault_in_file_order() {
        let list: Vec<String> = (0..100).map(|i| format!("v{i}")).collect();
        let path: Vec<(String, String)> =
            (0..99).map(|i| (list[i].clone(), list[i + 1].clone())).collect();
        let g = Graph::new(&list, &path).unwrap();
        for v in 1..99 {
            assert_eq!(g.neighbours(v), &[v - 1, v + 1]);
        }
        let mut twice = list.clone();
        twice[70] = "v3".into();
        twice[90] = "v5".into();
        let err = Graph::new(&twice, &[]).unwrap_err();
        assert_eq!(
            (err.at.as_str(), err.message.as_str()),
            ("vertices[70]", "vertex 'v3' is listed twice (first as vertices[3])")
        );
        let mut bad = path.clone();
        bad[40].1 = "w".into();
        bad[45].0 = "x".into();
        bad[20] = ("v7".into(), "v7".into());
        let err = Graph::new(&list, &bad).unwrap_err();
        assert_eq!(err.to_string(), "edges[20] (v7, v7): self-loop on 'v7'");
        bad[20] = path[20].clone();
        let err = Graph::new(&list, &bad).unwrap_err();
        assert_eq!(err.to_string(), "edges[40] (v40, w): unknown vertex 'w'");
        let mut again = path.clone();
        again.push(("v51".into(), "v50".into()));
        let err = Graph::new(&list, &again).unwrap_err();
        assert_eq!(err.to_string(), "edges[99] (v51, v50): duplicate edge between 'v51' and 'v50'");
    }
}

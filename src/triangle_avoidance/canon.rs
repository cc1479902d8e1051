//! Canonical forms of small graphs (at most 16 vertices), in pure Rust: the groundwork of the
//! triangle-avoidance solver (seed 002), which stores positions up to isomorphism.
//!
//! The method is individualisation-refinement, the idea behind nauty, kept small:
//!
//! - a graph is an array of adjacency bitmasks (`u16` per vertex);
//! - an ordered partition of the vertices is refined to the coarsest equitable partition
//!   finer than it (every vertex of a cell has the same number of neighbours in every cell);
//!   cells split by that count, in increasing order, so the result does not depend on the
//!   vertex names;
//! - while the partition is not discrete, the first smallest non-singleton cell is the target:
//!   each of its vertices is individualised in turn (made a cell of its own, in front) and the
//!   partition refined again;
//! - every discrete partition (a leaf) orders the vertices and so relabels the graph; the
//!   canonical form is the largest relabelled adjacency code over all leaves.
//!
//! Pruning: two leaves with equal codes give an automorphism. At a search node, automorphisms
//! found so far that fix every individualised vertex of the node's path map the node's
//! children onto each other, so a target vertex in the orbit of one already searched is
//! skipped. This keeps highly symmetric graphs (the empty graph, complete bipartite graphs)
//! cheap. The code of a graph is its upper triangle, row by row, as bits of a `u128`
//! (16 * 15 / 2 = 120 bits).
//!
//! Correctness is tested against the brute-force form (the best code over all n! labellings)
//! on random graphs, and by counting triangle-free graphs up to isomorphism (OEIS A006785).

/// Largest graph handled.
pub const MAX_VERTICES: usize = 16;

/// A graph on `n <= 16` vertices as adjacency bitmasks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SmallGraph {
    pub n: usize,
    pub adj: [u16; MAX_VERTICES],
}

impl SmallGraph {
    /// The graph on `n` vertices with no edges.
    pub fn empty(n: usize) -> SmallGraph {
        assert!(n <= MAX_VERTICES, "at most {MAX_VERTICES} vertices");
        SmallGraph { n, adj: [0; MAX_VERTICES] }
    }

    /// The graph with `edges` on `n` vertices.
    pub fn from_edges(n: usize, edges: &[(usize, usize)]) -> SmallGraph {
        let mut g = SmallGraph::empty(n);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    pub fn add_edge(&mut self, a: usize, b: usize) {
        debug_assert!(a != b && a < self.n && b < self.n);
        self.adj[a] |= 1 << b;
        self.adj[b] |= 1 << a;
    }

    pub fn remove_edge(&mut self, a: usize, b: usize) {
        self.adj[a] &= !(1 << b);
        self.adj[b] &= !(1 << a);
    }

    /// The edges (a, b), a < b, in order.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut edges = Vec::with_capacity(self.edge_count());
        for a in 0..self.n {
            let mut rest = self.adj[a] & above(self.n, a);
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                edges.push((a, b));
            }
        }
        edges
    }

    pub fn has_edge(&self, a: usize, b: usize) -> bool {
        self.adj[a] >> b & 1 == 1
    }

    pub fn edge_count(&self) -> usize {
        self.adj[..self.n].iter().map(|m| m.count_ones() as usize).sum::<usize>() / 2
    }

    /// The graph relabelled by `perm` (vertex v becomes `perm[v]`).
    pub fn permuted(&self, perm: &[u8]) -> SmallGraph {
        let mut g = SmallGraph::empty(self.n);
        for v in 0..self.n {
            let mut rest = self.adj[v];
            while rest != 0 {
                let w = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                g.adj[perm[v] as usize] |= 1 << perm[w];
            }
        }
        g
    }

    /// The adjacency code: bit k of the upper triangle, row by row, is set iff that pair is an
    /// edge; the first pair is the most significant bit, so comparing codes compares rows.
    ///
    /// A row at a time: row i's pairs (i, i+1), (i, i+2), ... are bits i+1, i+2, ... of
    /// `adj[i]`, written most significant first, so the row is those bits reversed (the proof
    /// search decodes and encodes a position at every move: bit by bit was 12% of its time).
    pub fn code(&self) -> u128 {
        let mut code = 0u128;
        for i in 0..self.n {
            let len = self.n - 1 - i;
            if len == 0 {
                continue;
            }
            let row = (self.adj[i] >> (i + 1)).reverse_bits() >> (16 - len);
            code = code << len | u128::from(row);
        }
        code
    }

    /// The graph with adjacency code `code` on `n` vertices (inverse of [`SmallGraph::code`]).
    pub fn from_code(n: usize, code: u128) -> SmallGraph {
        let mut g = SmallGraph::empty(n);
        let mut bit = n * n.saturating_sub(1) / 2;
        for i in 0..n {
            let len = n - 1 - i;
            if len == 0 {
                continue;
            }
            bit -= len;
            let row = (code >> bit) as u16 & (((1u32 << len) - 1) as u16);
            // Row i's bits back in vertex order: vertex i+1 was the most significant.
            let mut above_i = (row.reverse_bits() >> (16 - len)) << (i + 1);
            g.adj[i] |= above_i;
            while above_i != 0 {
                let j = above_i.trailing_zeros() as usize;
                above_i &= above_i - 1;
                g.adj[j] |= 1 << i;
            }
        }
        g
    }
}

/// The vertices b with a < b < n, as a mask.
pub(crate) fn above(n: usize, a: usize) -> u16 {
    (((1u32 << n) - 1) & !((2u32 << a) - 1)) as u16
}

/// The canonical form: the canonical code and a labelling `label` (vertex v gets canonical
/// label `label[v]`) with `graph.permuted(&label).code() == code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Canonical {
    pub code: u128,
    pub label: [u8; MAX_VERTICES],
}

/// An ordered partition: `lab` lists the vertices, `starts` has bit i set iff a cell starts at
/// position i of `lab`.
#[derive(Clone, Copy)]
struct Partition {
    lab: [u8; MAX_VERTICES],
    starts: u32,
    n: usize,
}

impl Partition {
    fn unit(n: usize) -> Partition {
        let mut lab = [0u8; MAX_VERTICES];
        for (i, l) in lab.iter_mut().enumerate().take(n) {
            *l = i as u8;
        }
        Partition { lab, starts: 1, n }
    }

    /// The end (exclusive) of the cell starting at `s`.
    fn end(&self, s: usize) -> usize {
        let later = self.starts >> (s + 1);
        if later == 0 {
            self.n
        } else {
            s + 1 + later.trailing_zeros() as usize
        }
    }

    fn is_discrete(&self) -> bool {
        self.starts.count_ones() as usize == self.n
    }

    fn cell_mask(&self, s: usize) -> u16 {
        self.lab[s..self.end(s)].iter().fold(0u16, |m, &v| m | 1 << v)
    }

    /// Refines to the coarsest equitable partition finer than this one, using the cells in
    /// `pending` (by start position) as the first splitters.
    ///
    /// Hopcroft's rule: a split cell that was not pending (the partition was already stable
    /// with respect to it) adds all of its fragments but the first largest as splitters, since
    /// counts into that one follow from the others. Both choices depend only on the ordered
    /// partition, not on vertex names, so the result stays a canonical function of the input.
    fn refine(&mut self, g: &SmallGraph, mut pending: u32) {
        while pending != 0 {
            if self.is_discrete() {
                return; // no cell can split any more
            }
            let s = pending.trailing_zeros() as usize;
            pending &= pending - 1;
            let splitter = self.cell_mask(s);
            // Only cells of two or more vertices can split: a start whose next position is
            // not a start (and is not past the end).
            let last = self.n.checked_sub(1).map_or(0, |l| 1 << l);
            let mut cells = self.starts & !(self.starts >> 1) & !last;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let e = self.end(c);
                // One vertex splits a cell into its non-neighbours, then its neighbours.
                let split = if splitter.count_ones() == 1 {
                    self.split_by_vertex(c, e, g.adj[splitter.trailing_zeros() as usize])
                } else {
                    self.split_by_counts(c, e, g, splitter)
                };
                let Some((mut fragments, largest)) = split else {
                    continue;
                };
                self.starts |= fragments;
                if pending >> c & 1 == 0 {
                    fragments &= !(1 << largest);
                }
                pending |= fragments;
            }
        }
    }

    /// Splits the cell `c..e` into the vertices outside `neighbours`, then those in it (each
    /// side in its current order). Returns the fragments' starts and the first largest one's,
    /// or `None` when the cell does not split.
    fn split_by_vertex(&mut self, c: usize, e: usize, neighbours: u16) -> Option<(u32, usize)> {
        // Most cells do not split: count first, and copy the order (the whole array, a fixed
        // size, not a slice of the cell's length, which compiled to a call to memmove) only
        // when they do.
        let hits = self.lab[c..e].iter().filter(|&&v| neighbours >> v & 1 == 1).count();
        if hits == 0 || hits == e - c {
            return None;
        }
        let cell = self.lab;
        let zeros = e - c - hits;
        let (mut low, mut high) = (c, c + zeros);
        for &v in &cell[c..e] {
            if neighbours >> v & 1 == 1 {
                self.lab[high] = v;
                high += 1;
            } else {
                self.lab[low] = v;
                low += 1;
            }
        }
        let largest = if zeros >= hits { c } else { c + zeros };
        Some((1 << c | 1 << (c + zeros), largest))
    }

    /// Splits the cell `c..e` by the number of neighbours in `splitter`, in increasing order.
    /// Returns the fragments' starts and the first largest one's, or `None` when the cell does
    /// not split.
    fn split_by_counts(
        &mut self,
        c: usize,
        e: usize,
        g: &SmallGraph,
        splitter: u16,
    ) -> Option<(u32, usize)> {
        let mut counted: [(u8, u8); MAX_VERTICES] = [(0, 0); MAX_VERTICES];
        for (k, &v) in self.lab[c..e].iter().enumerate() {
            counted[k] = ((g.adj[v as usize] & splitter).count_ones() as u8, v);
        }
        let slice = &mut counted[..e - c];
        if slice.iter().all(|x| x.0 == slice[0].0) {
            return None;
        }
        slice.sort_unstable_by_key(|x| x.0);
        let mut fragments = 1u32 << c;
        let (mut largest, mut largest_len, mut run_start) = (c, 0, c);
        for (k, &(count, v)) in slice.iter().enumerate() {
            self.lab[c + k] = v;
            if k > 0 && count != slice[k - 1].0 {
                fragments |= 1 << (c + k);
                if c + k - run_start > largest_len {
                    (largest, largest_len) = (run_start, c + k - run_start);
                }
                run_start = c + k;
            }
        }
        if e - run_start > largest_len {
            largest = run_start;
        }
        Some((fragments, largest))
    }

    /// The first smallest non-singleton cell's start.
    fn target(&self) -> usize {
        let mut best = (usize::MAX, 0);
        let mut cells = self.starts;
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let size = self.end(c) - c;
            if size > 1 && size < best.0 {
                best = (size, c);
            }
        }
        best.1
    }

    /// Individualises `v` (in the cell starting at `s`): it becomes a cell of its own in front.
    fn individualise(&self, s: usize, v: u8) -> Partition {
        let mut p = *self;
        let at = (s..p.end(s)).find(|&i| p.lab[i] == v).expect("v is in the cell");
        p.lab.swap(s, at);
        p.starts |= 1 << (s + 1);
        p
    }
}

struct Search<'g> {
    g: &'g SmallGraph,
    best: Option<(u128, [u8; MAX_VERTICES])>,
    /// Automorphisms found, as vertex maps.
    automorphisms: Vec<[u8; MAX_VERTICES]>,
    leaves: u64,
}

impl Search<'_> {
    fn leaf(&mut self, p: &Partition) {
        self.leaves += 1;
        // The relabelled graph's code, read off the leaf's order of the vertices: each row
        // is relabelled by visiting its edges only (bit 15 - j for the vertex at position j,
        // so that the row's pairs come out most significant first) and its part above the
        // diagonal appended whole, instead of n^2 / 2 one-bit shifts of the u128.
        let n = p.n;
        let mut label = [0u8; MAX_VERTICES];
        for (i, &v) in p.lab[..n].iter().enumerate() {
            label[v as usize] = i as u8;
        }
        let mut code = 0u128;
        for i in 0..n.saturating_sub(1) {
            let mut rest = self.g.adj[p.lab[i] as usize];
            let mut row = 0u16;
            while rest != 0 {
                let w = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                row |= 0x8000 >> label[w];
            }
            let width = n - 1 - i; // the pairs (i, j), i < j < n
            let above = (u32::from(row) >> (16 - n)) & ((1u32 << width) - 1);
            code = code << width | u128::from(above);
        }
        if self.best.is_some_and(|(best, _)| best > code) {
            return;
        }
        match self.best {
            Some((best, best_label)) if best == code => {
                // Both labellings give the same graph: v -> (best's vertex with v's label).
                let mut by_label = [0u8; MAX_VERTICES];
                for v in 0..p.n {
                    by_label[best_label[v] as usize] = v as u8;
                }
                let mut map = [0u8; MAX_VERTICES];
                for v in 0..p.n {
                    map[v] = by_label[label[v] as usize];
                }
                if map[..p.n].iter().enumerate().any(|(v, &w)| v as u8 != w) {
                    self.automorphisms.push(map);
                }
            }
            _ => self.best = Some((code, label)),
        }
    }

    /// `path[..depth]`: the vertices individualised on the way here (an array, not a vector:
    /// a canonical form is taken millions of times a table, and the allocation showed).
    fn node(&mut self, p: Partition, path: &mut [u8; MAX_VERTICES], depth: usize) {
        if p.is_discrete() {
            self.leaf(&p);
            return;
        }
        let s = p.target();
        let (cell, len) = (p.lab, p.end(s) - s); // the target cell is cell[s..s + len]
        let mut searched: u16 = 0;
        for &v in &cell[s..s + len] {
            if searched != 0 && self.in_orbit_of(searched, v, &path[..depth]) {
                continue;
            }
            let mut child = p.individualise(s, v);
            child.refine(self.g, 1 << s);
            path[depth] = v;
            self.node(child, path, depth + 1);
            searched |= 1 << v;
        }
    }

    /// Whether `v` is in the orbit of a vertex of `set` under the automorphisms found so far
    /// that fix every vertex of `path`.
    fn in_orbit_of(&self, set: u16, v: u8, path: &[u8]) -> bool {
        let fixes = |a: &&[u8; MAX_VERTICES]| path.iter().all(|&x| a[x as usize] == x);
        let mut reach = set;
        loop {
            let mut next = reach;
            for a in self.automorphisms.iter().filter(fixes) {
                let mut rest = reach;
                while rest != 0 {
                    let x = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    next |= 1 << a[x];
                }
            }
            if next >> v & 1 == 1 {
                return true;
            }
            if next == reach {
                return false;
            }
            reach = next;
        }
    }
}

/// The canonical form of `g`.
pub fn canonical(g: &SmallGraph) -> Canonical {
    canonical_counting(g).0
}

/// Automorphisms of `g` found by the canonical search (vertex maps, identity left out). They
/// generate a subgroup of Aut(g), usually all of it; every one is an automorphism, because
/// it maps one leaf onto another with the same relabelled graph.
pub fn automorphisms(g: &SmallGraph) -> Vec<[u8; MAX_VERTICES]> {
    if g.n == 0 {
        return Vec::new();
    }
    let mut p = Partition::unit(g.n);
    p.refine(g, 1);
    let mut search = Search { g, best: None, automorphisms: Vec::new(), leaves: 0 };
    search.node(p, &mut [0; MAX_VERTICES], 0);
    search.automorphisms
}

/// One representative (a, b), a < b, of each orbit of the vertex pairs `pairs` under the
/// group generated by `generators`: moves in one orbit give isomorphic graphs, so only the
/// representatives need a canonical form. `pairs` must be closed under the generators (the
/// legal moves of a position are).
pub fn pair_orbit_representatives(
    n: usize,
    pairs: &[(usize, usize)],
    generators: &[[u8; MAX_VERTICES]],
) -> Vec<(usize, usize)> {
    if generators.is_empty() {
        return pairs.to_vec();
    }
    let index = |a: usize, b: usize| if a < b { a * n + b } else { b * n + a };
    let mut parent = [0u16; MAX_VERTICES * MAX_VERTICES];
    for (i, p) in parent.iter_mut().enumerate() {
        *p = i as u16;
    }
    fn find(parent: &mut [u16], mut x: usize) -> usize {
        while parent[x] as usize != x {
            parent[x] = parent[parent[x] as usize];
            x = parent[x] as usize;
        }
        x
    }
    for g in generators {
        for &(a, b) in pairs {
            let (x, y) = (
                find(&mut parent, index(a, b)),
                find(&mut parent, index(g[a] as usize, g[b] as usize)),
            );
            if x != y {
                parent[x.max(y)] = x.min(y) as u16;
            }
        }
    }
    pairs.iter().copied().filter(|&(a, b)| find(&mut parent, index(a, b)) == index(a, b)).collect()
}

/// [`canonical`] and the number of leaves the search visited.
pub fn canonical_counting(g: &SmallGraph) -> (Canonical, u64) {
    let mut p = Partition::unit(g.n);
    if g.n == 0 {
        return (Canonical { code: 0, label: [0; MAX_VERTICES] }, 1);
    }
    p.refine(g, 1);
    let mut search = Search { g, best: None, automorphisms: Vec::new(), leaves: 0 };
    search.node(p, &mut [0; MAX_VERTICES], 0);
    let (code, label) = search.best.expect("the search reaches a leaf");
    (Canonical { code, label }, search.leaves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;

    fn to_petgraph(g: &SmallGraph) -> petgraph::graph::UnGraph<(), ()> {
        let edges = (0..g.n).flat_map(|b| (0..b).map(move |a| (a, b)));
        petgraph::graph::UnGraph::from_edges(
            edges.filter(|&(a, b)| g.has_edge(a, b)).map(|(a, b)| (a as u32, b as u32)),
        )
    }

    /// The row-at-a-time code and its inverse agree with the definition, one pair at a
    /// time, on random graphs of every size 1 to 16 (the empty and complete graphs included).
    #[test]
    fn codes_by_rows_agree_with_codes_by_pairs() {
        let by_pairs = |g: &SmallGraph| {
            let mut code = 0u128;
            for i in 0..g.n {
                for j in i + 1..g.n {
                    code = code << 1 | u128::from(g.has_edge(i, j));
                }
            }
            code
        };
        let mut rng = Rng::new(5);
        for n in 1..=MAX_VERTICES {
            for percent in [0, 10, 50, 90, 100] {
                for _ in 0..20 {
                    let g = random_graph(&mut rng, n, percent);
                    assert_eq!(g.code(), by_pairs(&g), "n = {n}");
                    assert_eq!(SmallGraph::from_code(n, g.code()), g, "n = {n}");
                }
            }
        }
    }

    /// petgraph's isomorphism test (VF2) as an outside oracle: two graphs get the same
    /// canonical code exactly when petgraph finds them isomorphic. Each pair is a random graph
    /// and either a random relabelling of it (isomorphic) or the same with one edge toggled.
    #[test]
    fn canonical_codes_agree_with_petgraph_isomorphism() {
        let mut rng = Rng::new(17);
        let (mut same, mut different) = (0, 0);
        for round in 0..3000 {
            let n = 2 + round % 10;
            let percent = 20 + rng.below(60);
            let g = random_graph(&mut rng, n, percent);
            let mut perm: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut h = g.permuted(&perm);
            if round % 2 == 1 {
                let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                if a != b {
                    if h.has_edge(a, b) {
                        h.adj[a] &= !(1 << b);
                        h.adj[b] &= !(1 << a);
                    } else {
                        h.add_edge(a, b);
                    }
                }
            }
            let mut pg = to_petgraph(&g);
            let mut ph = to_petgraph(&h);
            // from_edges makes only as many nodes as the largest endpoint; pad to n.
            while pg.node_count() < n {
                pg.add_node(());
            }
            while ph.node_count() < n {
                ph.add_node(());
            }
            let iso = petgraph::algo::is_isomorphic(&pg, &ph);
            assert_eq!(canonical(&g).code == canonical(&h).code, iso, "round {round}");
            if iso {
                same += 1;
            } else {
                different += 1;
            }
        }
        assert!(same > 1000 && different > 1000, "{same} isomorphic pairs, {different} not");
    }

    fn random_graph(rng: &mut Rng, n: usize, percent: u64) -> SmallGraph {
        let mut g = SmallGraph::empty(n);
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(100) < percent {
                    g.add_edge(a, b);
                }
            }
        }
        g
    }

    fn random_permutation(rng: &mut Rng, n: usize) -> Vec<u8> {
        let mut p: Vec<u8> = (0..n as u8).collect();
        for i in (1..n).rev() {
            p.swap(i, rng.below(i as u64 + 1) as usize);
        }
        p
    }

    /// The largest code over all labellings, by brute force.
    fn brute_force(g: &SmallGraph) -> u128 {
        fn go(g: &SmallGraph, perm: &mut Vec<u8>, used: u16, best: &mut u128) {
            if perm.len() == g.n {
                let mut label = [0u8; MAX_VERTICES];
                for (v, &l) in perm.iter().enumerate() {
                    label[v] = l;
                }
                *best = (*best).max(g.permuted(&label).code());
                return;
            }
            for l in 0..g.n as u8 {
                if used >> l & 1 == 0 {
                    perm.push(l);
                    go(g, perm, used | 1 << l, best);
                    perm.pop();
                }
            }
        }
        let mut best = 0;
        go(g, &mut Vec::new(), 0, &mut best);
        best
    }

    #[test]
    fn codes_round_trip() {
        let mut rng = Rng::new(3);
        for n in 0..=16 {
            let g = random_graph(&mut rng, n, 40);
            assert_eq!(SmallGraph::from_code(n, g.code()), g);
        }
    }

    /// The leaf reads the relabelled code off its rows: on every size up to 16 (where the
    /// row shifts reach their ends), the labelling must reproduce the code, and a random
    /// relabelling of the graph must get the same code.
    #[test]
    fn canonical_labels_reproduce_the_code_on_every_size() {
        let mut rng = Rng::new(23);
        for round in 0..600 {
            let n = 1 + round % 16;
            let percent = rng.range(5, 95);
            let g = random_graph(&mut rng, n, percent);
            let c = canonical(&g);
            assert_eq!(g.permuted(&c.label).code(), c.code, "round {round}");
            let mut perm: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                perm.swap(i, rng.below(i as u64 + 1) as usize);
            }
            assert_eq!(canonical(&g.permuted(&perm)).code, c.code, "round {round}");
        }
    }

    #[test]
    fn canonical_forms_separate_isomorphism_classes() {
        let mut rng = Rng::new(11);
        for _ in 0..400 {
            let n = rng.range(1, 7) as usize;
            let percent = rng.range(10, 90);
            let g = random_graph(&mut rng, n, percent);
            let c = canonical(&g);
            assert_eq!(g.permuted(&c.label).code(), c.code);
            // Isomorphic graphs get the same code.
            let h = g.permuted(&random_permutation(&mut rng, n));
            assert_eq!(canonical(&h).code, c.code, "{g:?}");
        }
        // Non-isomorphic graphs get different codes: the graphs on 5 vertices fall into 34
        // classes and those on 6 into 156 (OEIS A000088), as the brute-force form says too.
        for (n, expected) in [(5usize, 34usize), (6, 156)] {
            let mut classes = std::collections::HashSet::new();
            let mut brute = std::collections::HashSet::new();
            for code in 0..1u128 << (n * (n - 1) / 2) {
                let g = SmallGraph::from_code(n, code);
                classes.insert(canonical(&g).code);
                if n == 5 {
                    brute.insert(brute_force(&g));
                }
            }
            assert_eq!(classes.len(), expected, "n = {n}");
            if n == 5 {
                assert_eq!(brute.len(), expected);
            }
        }
    }

    #[test]
    fn symmetric_graphs_stay_cheap() {
        for n in [8, 12, 16] {
            let (_, leaves) = canonical_counting(&SmallGraph::empty(n));
            assert!(leaves <= (n * n) as u64, "empty graph on {n}: {leaves} leaves");
            let half = n / 2;
            let mut kb = SmallGraph::empty(n);
            for a in 0..half {
                for b in half..n {
                    kb.add_edge(a, b);
                }
            }
            let (_, leaves) = canonical_counting(&kb);
            assert!(leaves <= (n * n) as u64, "K_{{{half},{half}}}: {leaves} leaves");
        }
    }

    /// Triangle-free graphs up to isomorphism on n = 1..9 vertices, by adding edges level by
    /// level from the empty graph: OEIS A006785.
    #[test]
    fn counts_triangle_free_graphs() {
        let expected = [1usize, 2, 3, 7, 14, 38, 107, 410, 1897];
        for (n, &count) in (1..=9).zip(&expected) {
            let mut seen = std::collections::HashSet::new();
            let start = SmallGraph::empty(n);
            seen.insert(canonical(&start).code);
            let mut level = vec![start];
            while !level.is_empty() {
                let mut next = Vec::new();
                for g in &level {
                    for a in 0..n {
                        for b in a + 1..n {
                            if g.has_edge(a, b) || g.adj[a] & g.adj[b] != 0 {
                                continue;
                            }
                            let mut h = *g;
                            h.add_edge(a, b);
                            if seen.insert(canonical(&h).code) {
                                next.push(h);
                            }
                        }
                    }
                }
                level = next;
            }
            assert_eq!(seen.len(), count, "n = {n}");
        }
    }

    /// One canonical form per orbit of moves gives exactly the distinct children that every
    /// move's canonical form gives, for every game, on random graphs and on the highly
    /// symmetric empty graphs (where the orbits do the most).
    #[test]
    fn orbit_representatives_give_every_distinct_child() {
        use crate::triangle_avoidance::rules::Rules;
        let mut rng = Rng::new(29);
        let mut graphs: Vec<SmallGraph> = (1..=12).map(SmallGraph::empty).collect();
        for _ in 0..300 {
            let n = 4 + rng.below(9) as usize;
            let percent = 8 + rng.below(30);
            graphs.push(random_graph(&mut rng, n, percent));
        }
        let mut folded = 0;
        for g in &graphs {
            for rules in [
                Rules::TriangleAvoidance,
                Rules::TriangleAchievement,
                Rules::OddCycleAvoidance,
                Rules::ConnectedAvoidance,
            ] {
                let mut every: Vec<u128> =
                    rules.children(g).iter().map(|h| canonical(h).code).collect();
                every.sort_unstable();
                every.dedup();
                assert_eq!(rules.distinct_children(g), every, "{g:?} {}", rules.name());
                let moves = rules.moves(g);
                folded +=
                    moves.len() - pair_orbit_representatives(g.n, &moves, &automorphisms(g)).len();
            }
        }
        assert!(folded > 1000, "the orbits should fold many moves ({folded})");
        // On the empty graph every pair is in one orbit.
        let empty = SmallGraph::empty(9);
        let moves = Rules::TriangleAvoidance.moves(&empty);
        assert_eq!(pair_orbit_representatives(9, &moves, &automorphisms(&empty)).len(), 1);
    }
}

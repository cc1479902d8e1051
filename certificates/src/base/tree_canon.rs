//! Canonical forms of positions on a tree: two positions (one owner byte per vertex) get the
//! same canonical id exactly when an automorphism of the tree fixing a chosen root maps one
//! onto the other, owners included. A strategy replay keyed by these ids visits each class of
//! isomorphic positions once, which is sound because an automorphism maps plays to plays and
//! keeps every final margin.
//!
//! The ids are the classical AHU encoding (Aho, Hopcroft and Ullman), interned instead of
//! spelled out: a vertex's id is the index, in one table shared by every position of a check,
//! of the tuple (its owner, the sorted ids of its children). By induction on height, two
//! vertices get equal ids exactly when their subtrees with owners are isomorphic as rooted
//! trees; at the root that is an automorphism of the whole tree, since the root is fixed. No
//! hashing decides equality: the table compares the tuples themselves.
//!
//! The tuples are stored end to end in one vector ([`Interned`]), not one allocation each: a
//! solver's table reaches tens of millions of classes, and freeing them one by one took longer
//! than building them (and was work no budget counted).
//!
//! A move at one position is carried to an isomorphic one through the canonical preorder
//! (children in increasing id order): the i-th vertices of the two preorders correspond under
//! an isomorphism, whichever way equal siblings are ordered.

use crate::base::budget::Budget;
use crate::base::fingerprint::Secret;
use crate::base::graph::Graph;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// A tree rooted at a vertex, checked to be a tree.
pub struct Rooted {
    parent: Vec<usize>,
    children: Vec<Vec<usize>>,
    /// Vertices in breadth-first order from the root.
    order: Vec<usize>,
}

impl Rooted {
    /// Roots `graph` at `root` (a vertex name); fails unless the graph is a tree (connected,
    /// one edge fewer than vertices).
    pub fn new(graph: &Graph, root: &str, budget: &mut Budget) -> Result<Rooted, String> {
        let n = graph.len();
        let root = graph.vertex(root).ok_or_else(|| format!("unknown canonical root '{root}'"))?;
        budget.charge((n as u64).saturating_mul(48), "rooting the tree")?;
        if graph.edge_count() + 1 != n {
            return Err(format!(
                "canonical forms need a tree: {n} vertices and {} edges",
                graph.edge_count()
            ));
        }
        let mut parent = vec![usize::MAX; n];
        let mut children = vec![Vec::new(); n];
        let mut order = vec![root];
        let mut seen = vec![false; n];
        seen[root] = true;
        let mut head = 0;
        while head < order.len() {
            let v = order[head];
            head += 1;
            for &w in graph.neighbours(v) {
                if !seen[w] {
                    seen[w] = true;
                    parent[w] = v;
                    children[v].push(w);
                    order.push(w);
                }
            }
        }
        if order.len() != n {
            return Err("canonical forms need a tree: the graph is not connected".into());
        }
        Ok(Rooted { parent, children, order })
    }
}

/// Interned tuples of `u32`: each distinct tuple gets the next id. Exact: a hash only finds
/// the candidates, whose tuples are compared in full (ids with one hash are chained).
struct Interned<S> {
    /// Hash of a tuple -> the last id entered with that hash.
    index: HashMap<u64, u32, S>,
    hasher: S,
    /// The tuples end to end: id `i`'s is `data[start[i]..start[i + 1]]`.
    data: Vec<u32>,
    start: Vec<usize>,
    /// The id entered before `i` with the same hash, or `NONE`.
    previous: Vec<u32>,
}

const NONE: u32 = u32::MAX;

/// A bijection of 64-bit hashes (splitmix64's finaliser) that carries every input bit to the
/// low bits, where the index picks its bucket. A fast solver-side hasher (FxHash) leaves the
/// low bits of a hash depending on the low bits of the input only; tuples of small ids then
/// crowded into a few buckets and one entry of `table voronoi-kary` probed for hours within
/// its work budget. Being a bijection, it changes no collision.
fn spread(hash: u64) -> u64 {
    let hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

impl<S: BuildHasher + Default> Interned<S> {
    fn new() -> Self {
        let index = HashMap::with_hasher(S::default());
        Interned {
            index,
            hasher: S::default(),
            data: Vec::new(),
            start: vec![0],
            previous: Vec::new(),
        }
    }

    fn len(&self) -> usize {
        self.previous.len()
    }

    /// The id of `tuple`, if entered, and its hash.
    fn find(&self, tuple: &[u32]) -> (Option<u32>, u64) {
        let hash = spread(self.hasher.hash_one(tuple));
        let mut id = self.index.get(&hash).copied().unwrap_or(NONE);
        while id != NONE {
            let i = id as usize;
            if &self.data[self.start[i]..self.start[i + 1]] == tuple {
                return (Some(id), hash);
            }
            id = self.previous[i];
        }
        (None, hash)
    }

    /// Enters `tuple` (not yet entered, with `hash` from [`Interned::find`]) as the next id.
    fn insert(&mut self, tuple: &[u32], hash: u64) -> Result<u32, String> {
        let id = u32::try_from(self.len())
            .ok()
            .filter(|&id| id != NONE)
            .ok_or("too many subtree classes")?;
        self.data.extend_from_slice(tuple);
        self.start.push(self.data.len());
        self.previous.push(self.index.insert(hash, id).unwrap_or(NONE));
        Ok(id)
    }
}

/// The shared table of subtree classes and the ids of the current position's vertices (the
/// table's hasher a parameter: a solver may trade the default's resistance to crafted keys
/// for speed).
pub struct Canon<S = Secret> {
    tree: Rooted,
    table: Interned<S>,
    id: Vec<u32>,
    scratch: Vec<u32>,
}

impl<S: BuildHasher + Default> Canon<S> {
    /// The canonical ids of `position` on `tree`.
    pub fn new(tree: Rooted, position: &[u8], budget: &mut Budget) -> Result<Canon<S>, String> {
        let n = tree.order.len();
        let mut canon = Canon { tree, table: Interned::new(), id: vec![0; n], scratch: Vec::new() };
        canon.reset(position, budget)?;
        Ok(canon)
    }

    /// Recomputes every id for a new `position`.
    pub fn reset(&mut self, position: &[u8], budget: &mut Budget) -> Result<(), String> {
        for k in (0..self.tree.order.len()).rev() {
            let v = self.tree.order[k];
            self.id[v] = self.class_of(v, position, Some(budget))?;
        }
        Ok(())
    }

    /// The id of `v` from its owner and its children's ids, entered in the table if new (and
    /// then charged; without a budget only known classes are expected, as after an undo).
    fn class_of(
        &mut self,
        v: usize,
        position: &[u8],
        mut budget: Option<&mut Budget>,
    ) -> Result<u32, String> {
        let children = &self.tree.children[v];
        if let Some(budget) = budget.as_deref_mut() {
            // A step: the scratch tuple is one vertex's children, reused.
            budget.step(children.len() as u64 * 8 + 8, "computing canonical forms")?;
        }
        self.scratch.clear();
        self.scratch.push(u32::from(position[v]));
        self.scratch.extend(children.iter().map(|&c| self.id[c]));
        self.scratch[1..].sort_unstable();
        let (found, hash) = self.table.find(&self.scratch);
        if let Some(id) = found {
            return Ok(id);
        }
        if let Some(budget) = budget {
            budget.charge(children.len() as u64 * 8 + 96, "storing canonical forms")?;
        }
        self.table.insert(&self.scratch, hash)
    }

    /// Updates the ids after `position[v]` changed: `v` and its ancestors.
    pub fn changed(
        &mut self,
        position: &[u8],
        mut v: usize,
        mut budget: Option<&mut Budget>,
    ) -> Result<(), String> {
        loop {
            self.id[v] = self.class_of(v, position, budget.as_deref_mut())?;
            match self.tree.parent[v] {
                usize::MAX => return Ok(()),
                p => v = p,
            }
        }
    }

    /// The class of the whole position.
    pub fn key(&self) -> u32 {
        self.id[self.tree.order[0]]
    }

    /// The vertices in canonical preorder (children by increasing id).
    pub fn preorder(&self, budget: &mut Budget) -> Result<Vec<usize>, String> {
        let n = self.tree.order.len();
        // A step: the order (n vertices) is used for one move and dropped.
        budget.step(n as u64 * 24, "ordering a canonical form")?;
        let mut out = Vec::with_capacity(n);
        let mut stack = vec![self.tree.order[0]];
        while let Some(v) = stack.pop() {
            out.push(v);
            let mut children = self.tree.children[v].clone();
            // Reversed, so that the smallest id is popped first.
            children.sort_unstable_by_key(|&c| std::cmp::Reverse(self.id[c]));
            stack.extend(children);
        }
        Ok(out)
    }
}

/// A strategy's moves keyed by canonical class, with the current position's ids: what a
/// replay needs to visit one position per class and find the strategy's move at any member.
pub struct ClassMoves {
    canon: Canon,
    /// Class -> the move's index in the listed position's canonical preorder.
    moves: HashMap<u32, usize>,
}

impl ClassMoves {
    /// Reads `moves` ((position, vertex) pairs; the positions already checked to be strings of
    /// one owner byte per vertex) for the tree `graph` rooted at `root`, and starts at `start`.
    pub fn new(
        graph: &Graph,
        root: &str,
        start: &[u8],
        moves: &[(String, String)],
        budget: &mut Budget,
    ) -> Result<ClassMoves, String> {
        let tree = Rooted::new(graph, root, budget)?;
        let mut canon: Canon = Canon::new(tree, start, budget)?;
        let mut by_class = HashMap::new();
        for (k, (position, name)) in moves.iter().enumerate() {
            let v =
                graph.vertex(name).ok_or_else(|| format!("moves[{k}]: unknown vertex '{name}'"))?;
            canon.reset(position.as_bytes(), budget)?;
            let index = canon.preorder(budget)?.iter().position(|&u| u == v);
            let index = index.ok_or("internal: a preorder misses a vertex")?;
            budget.charge(64, "reading the strategy's tables")?;
            if by_class.insert(canon.key(), index).is_some() {
                return Err(format!(
                    "moves[{k}]: position '{position}' is isomorphic to an earlier one (one move per class)"
                ));
            }
        }
        canon.reset(start, budget)?;
        Ok(ClassMoves { canon, moves: by_class })
    }

    /// The current position's class.
    pub fn key(&self) -> u32 {
        self.canon.key()
    }

    /// Follows a change of `position[v]` (a stone placed or taken back).
    pub fn changed(
        &mut self,
        position: &[u8],
        v: usize,
        budget: Option<&mut Budget>,
    ) -> Result<(), String> {
        self.canon.changed(position, v, budget)
    }

    /// The strategy's move at the current position: its class's move carried over.
    pub fn move_here(&self, budget: &mut Budget) -> Result<Option<usize>, String> {
        match self.moves.get(&self.canon.key()) {
            Some(&index) => Ok(self.canon.preorder(budget)?.get(index).copied()),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn star_path() -> Graph {
        // r - a - a1, r - b - b1, r - c: a and b are swappable subtrees, c is not.
        let names: Vec<String> = ["r", "a", "a1", "b", "b1", "c"].map(String::from).to_vec();
        let edges: Vec<(String, String)> =
            [("r", "a"), ("a", "a1"), ("r", "b"), ("b", "b1"), ("r", "c")]
                .map(|(x, y)| (x.to_string(), y.to_string()))
                .to_vec();
        Graph::new(&names, &edges).unwrap()
    }

    #[test]
    fn isomorphic_positions_share_a_key_and_others_do_not() {
        let g = star_path();
        let mut budget = Budget::unlimited();
        let tree = Rooted::new(&g, "r", &mut budget).unwrap();
        let mut canon: Canon = Canon::new(tree, b"......", &mut budget).unwrap();
        fn key(canon: &mut Canon, p: &[u8]) -> u32 {
            canon.reset(p, &mut Budget::unlimited()).unwrap();
            canon.key()
        }
        let c = &mut canon;
        assert_eq!(key(c, b".W...."), key(c, b"...W.."));
        assert_eq!(key(c, b".WB..."), key(c, b"...WB."));
        assert_ne!(key(c, b".W...."), key(c, b"..W..."));
        assert_ne!(key(c, b".W...."), key(c, b".....W"));
        assert_ne!(key(c, b".W..B."), key(c, b".WB..."));
        // Incremental updates agree with a full recomputation.
        key(c, b"......");
        let mut p = *b"......";
        p[4] = b'B';
        c.changed(&p, 4, Some(&mut budget)).unwrap();
        let incremental = c.key();
        assert_eq!(incremental, key(c, b"..B..."));
        // The canonical preorder carries a move across isomorphic positions.
        key(c, b".W....");
        let first = c.preorder(&mut budget).unwrap();
        key(c, b"...W..");
        let second = c.preorder(&mut budget).unwrap();
        let i = first.iter().position(|&v| v == 2).unwrap();
        assert_eq!(second[i], 4);
    }

    /// Tuples whose hashes collide are still told apart: equality is decided by comparing
    /// them (here every hash is 0).
    #[test]
    fn colliding_hashes_keep_tuples_apart() {
        #[derive(Default)]
        struct Zero;
        impl std::hash::Hasher for Zero {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, _: &[u8]) {}
        }
        type Collide = std::hash::BuildHasherDefault<Zero>;
        let mut table: Interned<Collide> = Interned::new();
        let tuples: [&[u32]; 4] = [&[1], &[1, 2], &[2, 1], &[]];
        for (i, tuple) in tuples.iter().enumerate() {
            let (found, hash) = table.find(tuple);
            assert_eq!(found, None);
            assert_eq!(table.insert(tuple, hash).unwrap(), i as u32);
        }
        for (i, tuple) in tuples.iter().enumerate() {
            assert_eq!(table.find(tuple).0, Some(i as u32));
        }
        assert_eq!(table.find(&[1, 2, 3]).0, None);
    }

    #[test]
    fn a_graph_that_is_not_a_tree_is_refused() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let edges: Vec<(String, String)> = [("a", "b"), ("b", "c"), ("a", "c")]
            .map(|(x, y)| (x.to_string(), y.to_string()))
            .to_vec();
        let g = Graph::new(&names, &edges).unwrap();
        assert!(Rooted::new(&g, "a", &mut Budget::unlimited()).is_err());
        assert!(Rooted::new(&star_path(), "zz", &mut Budget::unlimited()).is_err());
    }
}

//! The multi-round discrete Voronoi game (seed 001, Section 2) and the replay of a strategy
//! certificate against every opponent move, with symmetry only through verified witnesses.
//!
//! Rules: W and B alternately occupy an empty vertex, W first in every round, for `rounds`
//! rounds each (optionally from a given start position). The final position is scored by the
//! one-round reference rules ([`crate::voronoi::rules::score`]). A player's margin is its dominance set's
//! size minus the other's.
//!
//! # Strategy certificates
//!
//! A position is a string with one character per vertex, in the instance's vertex order: `.`
//! empty, `W`, `B`. The certificate names its player, a claim, the player's move at each position
//! where it is to move, and optionally symmetry witnesses at positions where the opponent is to
//! move:
//!
//! ```json
//! {"player": "white", "claim": "at-least-ties",
//!  "moves": [["....", "b"], ["BW..", "c"]],
//!  "symmetries": [["W...", "c", "a", [["c", "a"], ["a", "c"]]]]}
//! ```
//!
//! A symmetry `[position, move, as, permutation]` says: the opponent's `move` at `position` is
//! answered as its `as` is, because `permutation` maps the one onto the other. The permutation
//! lists `[vertex, image]` for the vertices it moves; every other vertex is fixed. The checker accepts it only after verifying that the
//! permutation is a bijection of the vertices, maps every edge to an edge (an automorphism),
//! maps W's vertices to W's and B's to B's (it fixes the position, owners included) and maps
//! `move` to `as`; then the position after `move` is the image of the position after `as`, has
//! the same value, and only the latter is explored. A witness that fails verification rejects
//! the certificate.
//!
//! A certificate may also declare `twin_classes`: lists of vertices that are pairwise twins
//! (the same neighbours, or the same closed neighbourhoods). The checker verifies each class
//! once; then, at every position where the opponent is to move, a move to an empty member of a
//! class is answered as the move to the class's first empty member (in the listed order) is:
//! swapping two twins is an automorphism, and with both empty it fixes the position. This is
//! how pendant vertices (twins of each other) cost one branch instead of one per pendant.
//!
//! # Orbits
//!
//! On large symmetric graphs (complete k-ary trees with hundreds of vertices) one witness per
//! folded move costs too much. A certificate may instead declare `generators`: automorphisms,
//! each as `[vertex, image]` pairs for the vertices it moves, verified once (a bijection of the
//! listed vertices onto themselves that maps every edge at a moved vertex to an edge). Then an
//! entry of `orbits`, `[position, [generator indices]]`, at a position where the opponent is to
//! move says: these generators fix the position (the checker verifies it, owner by owner, on the
//! moved vertices). Every element of the group they generate is then an automorphism fixing the
//! position, so two opponent moves in one orbit of that group lead to positions that are images
//! of each other and have the same value. The checker computes the orbits (union-find over the
//! generators' pairs) and explores, in each orbit, only the move to its smallest vertex (in the
//! instance's vertex order). At a position with an `orbits` entry, twin classes and per-move
//! witnesses are not consulted (mixing the three rules could skip a whole class).
//!
//! # Canonical forms
//!
//! On a tree, a certificate may instead name a `canonical_root`. The checker verifies the graph
//! is a tree and identifies positions by their canonical form under the automorphisms fixing
//! that root ([`crate::base::tree_canon`]: interned AHU ids, exact, no hashing): each class of
//! isomorphic positions is visited once, whatever order the plays reach it in, and every
//! opponent move is followed (moves into a class already visited end there). `moves` then
//! holds one position per class; at any member the checker plays the listed move carried over
//! by the canonical preorder. Sound because an automorphism maps the plays from one member
//! onto the plays from the other and keeps every final margin.
//!
//! Claims: `wins` (margin at least 1), `at-least-ties` (at least 0), `margin-at-least` with
//! `margin: k`. The replay is an explicit stack over the game DAG, each position expanded once.

use crate::base::budget::Budget;
use crate::base::fingerprint::{Fold, Zobrist};
pub use crate::base::graph::orbit_representatives;
use crate::base::graph::{Graph, UNREACHABLE};
use crate::replay::{replay, Node, Rules};
use crate::verdict::{reject, Claim, Verdict, Work};
use crate::voronoi::instance::{MultiRound, MultiRoundSpec};
use crate::voronoi::rules::{score, Player};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a strategy certificate claims for its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrategyClaim {
    Wins,
    AtLeastTies,
    MarginAtLeast,
}

/// Certificate kind `voronoi-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoronoiStrategy {
    pub player: Player,
    pub claim: StrategyClaim,
    /// For `margin-at-least`: the margin k.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// (position, vertex to occupy).
    pub moves: Vec<(String, String)>,
    /// (position, opponent's move, equivalent move, permutation as `[vertex, image]` pairs for
    /// the vertices it moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symmetries: Vec<Symmetry>,
    /// Classes of pairwise twin vertices, verified once (see the module docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub twin_classes: Vec<Vec<String>>,
    /// Automorphisms declared once, as `[vertex, image]` pairs for the vertices each moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<Vec<(String, String)>>,
    /// (position, indices into `generators` that fix it), at positions where the opponent is
    /// to move: the opponent's moves are explored once per orbit (see the module docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orbits: Vec<(String, Vec<usize>)>,
    /// On a tree: the root of the canonical forms by which positions are identified (see the
    /// module docs); `moves` then holds one position per class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub canonical_root: Option<String>,
}

/// Certificate kind `voronoi-value`: the game's value (W's margin under optimal play), fixed by
/// two strategies: W's with the claim "margin at least `value`" and B's with "margin at least
/// `-value`". Both are replayed; together they show neither player can do better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoronoiValue {
    pub value: i64,
    pub white: VoronoiStrategy,
    pub black: VoronoiStrategy,
}

/// A symmetry witness: (position, opponent's move, equivalent move, moved vertices).
pub type Symmetry = (String, String, String, Vec<(String, String)>);

/// Work units per entry of a certificate table besides its position text.
const ENTRY_COST: u64 = 64;

/// The fingerprint key of `owner` (`W` or `B`) on `v`; 0 for an empty vertex.
fn key(zobrist: &Zobrist, v: usize, owner: u8) -> u128 {
    match owner {
        b'W' => zobrist.key(v, 0),
        b'B' => zobrist.key(v, 1),
        _ => 0,
    }
}

/// The fingerprint of a whole position.
fn fingerprint(zobrist: &Zobrist, position: &[u8]) -> u128 {
    position.iter().enumerate().fold(0, |fp, (v, &c)| fp ^ key(zobrist, v, c))
}

/// Verifies declared twin classes; returns, for each vertex, its class and position in it.
fn verify_twin_classes(
    graph: &Graph,
    classes: &[Vec<String>],
    budget: &mut Budget,
) -> Result<Vec<Option<(usize, usize)>>, String> {
    let mut member = vec![None; graph.len()];
    for (c, class) in classes.iter().enumerate() {
        let mut first: Option<usize> = None;
        for (k, name) in class.iter().enumerate() {
            let v = graph
                .vertex(name)
                .ok_or_else(|| format!("twin_classes[{c}]: unknown vertex '{name}'"))?;
            if member[v].is_some() {
                fail!("twin_classes[{c}]: vertex '{name}' is in a class already");
            }
            member[v] = Some((c, k));
            let Some(f) = first else {
                first = Some(v);
                continue;
            };
            let (nv, nf) = (graph.neighbours(v), graph.neighbours(f));
            budget.charge((nv.len() + nf.len()) as u64 + 8, "verifying twin classes")?;
            // Open twins: the same neighbours. Closed twins: adjacent, and the same neighbours
            // besides each other (both lists sorted).
            let open = nv == nf;
            let closed = nv.len() == nf.len()
                && nv.binary_search(&f).is_ok()
                && nv.iter().filter(|&&x| x != f).eq(nf.iter().filter(|&&x| x != v));
            if !open && !closed {
                fail!(
                    "twin_classes[{c}]: '{name}' and '{}' are not twins (their neighbourhoods differ)",
                    graph.name(f)
                );
            }
        }
    }
    Ok(member)
}

/// What the replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    /// Positions expanded (each once).
    pub positions: u64,
    /// Final positions scored.
    pub leaves: u64,
    /// Symmetry witnesses verified and used.
    pub symmetries_used: u64,
    /// The smallest margin of the player over all final positions reached.
    pub worst_margin: Option<i64>,
}

const EMPTY: u8 = b'.';

fn mark(p: Player) -> u8 {
    match p {
        Player::White => b'W',
        Player::Black => b'B',
    }
}

use crate::base::text::counted;
pub use crate::voronoi::rules::to_move;
use crate::voronoi::rules::to_move_counted;

/// The player's margin in a final position, by the reference rules.
pub fn margin(graph: &Graph, position: &[u8], player: Player) -> i64 {
    let owned =
        |c: u8| -> Vec<usize> { (0..position.len()).filter(|&v| position[v] == c).collect() };
    let s = score(graph, &owned(b'W'), &owned(b'B'));
    let (mine, theirs) = match player {
        Player::White => (s.white, s.black),
        Player::Black => (s.black, s.white),
    };
    mine as i64 - theirs as i64
}

/// Scores every final position one B stone away from a position P, each in time proportional
/// to the part of the graph the new stone changes, instead of two full searches each.
///
/// With D(v) the distance from v to P's nearest stone, a new B stone at y changes the owner of
/// v only if d(y, v) <= D(v): otherwise y is strictly farther than some stone that already
/// decides v. That region is closed under shortest paths from y (D is 1-Lipschitz), so a
/// breadth-first search from y that never enters a vertex outside it finds it with the right
/// distances. The margin is P's margin (with B's new distances) corrected over the region.
/// The tests compare it with [`margin`] on every final position of small graphs.
struct LeafScorer {
    to_white: Vec<u32>,
    to_black: Vec<u32>,
    /// W's margin in P with the stones as they are (B one short).
    base: i64,
    /// Scratch: distance from the new stone (UNREACHABLE where unset), and what was set.
    from_new: Vec<u32>,
    touched: Vec<usize>,
}

/// W's share minus B's share of a vertex at distances `w` and `b` from them.
fn owner_sign(w: u32, b: u32) -> i64 {
    match w.cmp(&b) {
        std::cmp::Ordering::Less => 1,
        std::cmp::Ordering::Greater => -1,
        std::cmp::Ordering::Equal => 0,
    }
}

impl LeafScorer {
    /// Work units of [`LeafScorer::new`] (and the memory it holds).
    fn cost(graph: &Graph) -> u64 {
        crate::voronoi::rules::score_cost(graph).saturating_add(graph.len() as u64 * 16)
    }

    fn new(graph: &Graph, position: &[u8]) -> LeafScorer {
        let owned =
            |c: u8| -> Vec<usize> { (0..position.len()).filter(|&v| position[v] == c).collect() };
        let to_white = graph.distances_from(&owned(b'W'));
        let to_black = graph.distances_from(&owned(b'B'));
        let base = to_white.iter().zip(&to_black).map(|(&w, &b)| owner_sign(w, b)).sum();
        LeafScorer {
            from_new: vec![UNREACHABLE; graph.len()],
            touched: Vec::new(),
            to_white,
            to_black,
            base,
        }
    }

    /// W's margin once B also holds `y` (empty in P), the search charged to `budget`.
    fn white_margin_with(
        &mut self,
        graph: &Graph,
        y: usize,
        budget: &mut Budget,
    ) -> Result<i64, String> {
        let nearest = |v: usize, s: &LeafScorer| s.to_white[v].min(s.to_black[v]);
        let mut delta = 0i64;
        self.from_new[y] = 0;
        self.touched.push(y);
        let mut head = 0;
        while head < self.touched.len() {
            let v = self.touched[head];
            head += 1;
            let d = self.from_new[v];
            let (w, b) = (self.to_white[v], self.to_black[v]);
            delta += owner_sign(w, b.min(d)) - owner_sign(w, b);
            let row = graph.neighbours(v);
            // Pure computation over the scorer's scratch arrays, held since it was built.
            budget.step(row.len() as u64 + 4, "scoring final positions")?;
            for &u in row {
                if self.from_new[u] == UNREACHABLE && d < nearest(u, self) {
                    self.from_new[u] = d + 1;
                    self.touched.push(u);
                }
            }
        }
        for &v in &self.touched {
            self.from_new[v] = UNREACHABLE;
        }
        self.touched.clear();
        Ok(self.base + delta)
    }
}

/// An automorphism as the (vertex, image) pairs of the vertices it moves.
type Moved = Vec<(usize, usize)>;

/// Scratch space for verifying automorphisms in time proportional to what they move: an image
/// per vertex (`usize::MAX` when fixed) and whether a vertex is an image, left as found.
pub(crate) struct Scratch {
    image: Vec<usize>,
    hit: Vec<bool>,
}

impl Scratch {
    fn new(n: usize) -> Scratch {
        Scratch { image: vec![usize::MAX; n], hit: vec![false; n] }
    }
}

/// Verifies that `pairs`, (vertex, image) by name, is an automorphism of `graph` (the vertices
/// it does not list stay fixed): the images are the listed vertices, each once, and every edge
/// at a moved vertex goes to an edge (edges at fixed vertices only cannot change). Returns the
/// moved pairs by index. With a `position`, every vertex must also keep its owner. The one
/// check behind every symmetry the replay folds by; `what` names the witness in errors. The
/// caller charges its work.
fn verify_automorphism(
    graph: &Graph,
    pairs: &[(String, String)],
    what: &str,
    position: Option<&[u8]>,
    scratch: &mut Scratch,
) -> Result<Moved, String> {
    let mut moved = Vec::with_capacity(pairs.len());
    let verdict = automorphism_into(graph, pairs, what, position, scratch, &mut moved);
    // Reset only what this witness touched.
    for &(v, w) in &moved {
        scratch.image[v] = usize::MAX;
        scratch.hit[w] = false;
    }
    verdict.map(|()| moved)
}

fn automorphism_into(
    graph: &Graph,
    pairs: &[(String, String)],
    what: &str,
    position: Option<&[u8]>,
    scratch: &mut Scratch,
    moved: &mut Moved,
) -> Result<(), String> {
    let lookup = |name: &str| {
        graph.vertex(name).ok_or_else(|| format!("{what} names an unknown vertex '{name}'"))
    };
    for (a, b) in pairs {
        let (v, w) = (lookup(a)?, lookup(b)?);
        ensure!(scratch.image[v] == usize::MAX, "{what} gives '{a}' two images");
        scratch.image[v] = w;
        moved.push((v, w));
    }
    for &(_, w) in moved.iter() {
        ensure!(
            scratch.image[w] != usize::MAX && !scratch.hit[w],
            "{what} is not a bijection of the vertices it lists (at '{}')",
            graph.name(w)
        );
        scratch.hit[w] = true;
    }
    if let Some(position) = position {
        for &(v, w) in moved.iter() {
            ensure!(
                position[v] == position[w],
                "{what} maps '{}' ({}) to '{}' ({}): it does not fix the position",
                graph.name(v),
                owner_word(position[v]),
                graph.name(w),
                owner_word(position[w])
            );
        }
    }
    let image = &scratch.image;
    let pi = |x: usize| if image[x] == usize::MAX { x } else { image[x] };
    for &(v, _) in moved.iter() {
        for &w in graph.neighbours(v) {
            ensure!(
                graph.neighbours(pi(v)).binary_search(&pi(w)).is_ok(),
                "{what} is not an automorphism: edge {} - {} goes to {} - {}, which is not an edge",
                graph.name(v),
                graph.name(w),
                graph.name(pi(v)),
                graph.name(pi(w))
            );
        }
    }
    Ok(())
}

/// Verifies a symmetry witness at `position`: an automorphism ([`verify_automorphism`]) that
/// keeps every vertex's owner and maps the opponent's move `from` to `to`.
fn verify_permutation(
    graph: &Graph,
    pairs: &[(String, String)],
    position: &[u8],
    (from, to): (usize, usize),
    scratch: &mut Scratch,
) -> Result<(), String> {
    let moved = verify_automorphism(graph, pairs, "the permutation", Some(position), scratch)?;
    let image = moved.iter().find(|&&(v, _)| v == from).map_or(from, |&(_, w)| w);
    ensure!(
        image == to,
        "the permutation maps '{}' to '{}', not to '{}'",
        graph.name(from),
        graph.name(image),
        graph.name(to)
    );
    Ok(())
}

/// The work of verifying a symmetry witness: the vertices twice, the pairs, and a binary search
/// per adjacency entry of each moved vertex.
fn permutation_cost(graph: &Graph, pairs: &[(String, String)]) -> u64 {
    let adjacency: u64 = pairs
        .iter()
        .filter_map(|(a, _)| graph.vertex(a))
        .map(|v| graph.neighbours(v).len() as u64 * 8)
        .sum();
    (graph.len() as u64 * 4).saturating_add(pairs.len() as u64 * 16).saturating_add(adjacency)
}

/// Verifies the declared generators once ([`verify_automorphism`]); returns each as (vertex,
/// image) index pairs, and the scratch space for the witnesses met later.
fn verify_generators(
    graph: &Graph,
    generators: &[Vec<(String, String)>],
    budget: &mut Budget,
) -> Result<(Vec<Moved>, Scratch), String> {
    budget.charge(graph.len() as u64 * 16, "verifying generators")?;
    let mut scratch = Scratch::new(graph.len());
    let mut verified = Vec::with_capacity(generators.len());
    for (g, pairs) in generators.iter().enumerate() {
        for (a, _) in pairs {
            let degree = graph.vertex(a).map_or(0, |v| graph.neighbours(v).len() as u64);
            budget.charge(degree * 8 + 32, "verifying generators")?;
        }
        verified.push(verify_automorphism(
            graph,
            pairs,
            &format!("generators[{g}]"),
            None,
            &mut scratch,
        )?);
    }
    Ok((verified, scratch))
}

fn owner_word(c: u8) -> &'static str {
    match c {
        b'W' => "W's",
        b'B' => "B's",
        _ => "empty",
    }
}

/// A position string of the certificate: `n` characters `.`, `W`, `B`; returns its fingerprint.
fn read_position(zobrist: &Zobrist, p: &str, n: usize, at: &str) -> Result<u128, String> {
    if p.len() != n || !p.bytes().all(|c| matches!(c, EMPTY | b'W' | b'B')) {
        let shown: String = p.chars().take(80).collect();
        fail!(
            "{at}: '{shown}{}' is not a position of {n} characters '.', 'W', 'B'",
            if p.chars().count() > 80 { "..." } else { "" }
        );
    }
    Ok(fingerprint(zobrist, p.as_bytes()))
}

/// A symmetry witness as read: (equivalent move, moved vertices, entry index).
type Witness<'s> = (usize, &'s [(String, String)], usize);

/// The certificate's tables, keyed by position fingerprints.
struct Tables<'s> {
    /// (position) -> (vertex to occupy, entry index).
    moves: HashMap<u128, usize, Fold>,
    /// (position, opponent's move) -> (equivalent move, moved vertices, entry index).
    symmetries: HashMap<(u128, usize), Witness<'s>, Fold>,
    /// (position) -> (entry index, generator indices).
    orbits: HashMap<u128, (usize, &'s [usize]), Fold>,
}

fn read_tables<'s>(
    graph: &Graph,
    zobrist: &Zobrist,
    strategy: &'s VoronoiStrategy,
    generators: usize,
    budget: &mut Budget,
) -> Result<Tables<'s>, String> {
    let n = graph.len();
    let vertex = |name: &str, at: &str| {
        graph.vertex(name).ok_or_else(|| format!("{at}: unknown vertex '{name}'"))
    };
    let entries = strategy.moves.len() + strategy.symmetries.len() + strategy.orbits.len();
    budget.charge_each(
        entries as u64,
        ENTRY_COST + 2 * n as u64,
        "reading the strategy's tables",
    )?;
    let mut moves = HashMap::with_capacity_and_hasher(strategy.moves.len(), Fold::default());
    for (k, (p, v)) in strategy.moves.iter().enumerate() {
        let at = format!("moves[{k}]");
        let fp = read_position(zobrist, p, n, &at)?;
        if moves.insert(fp, vertex(v, &at)?).is_some() {
            fail!("{at}: position '{p}' is given twice");
        }
    }
    let mut symmetries =
        HashMap::with_capacity_and_hasher(strategy.symmetries.len(), Fold::default());
    for (k, (p, m, as_, perm)) in strategy.symmetries.iter().enumerate() {
        let at = format!("symmetries[{k}]");
        let fp = read_position(zobrist, p, n, &at)?;
        budget.charge(perm.len() as u64 * 2, "reading the strategy's tables")?;
        let key = (fp, vertex(m, &at)?);
        if symmetries.insert(key, (vertex(as_, &at)?, perm.as_slice(), k)).is_some() {
            fail!("{at}: a second witness for the same move");
        }
    }
    let mut orbits = HashMap::with_capacity_and_hasher(strategy.orbits.len(), Fold::default());
    for (k, (p, list)) in strategy.orbits.iter().enumerate() {
        let at = format!("orbits[{k}]");
        let fp = read_position(zobrist, p, n, &at)?;
        if let Some(&g) = list.iter().find(|&&g| g >= generators) {
            fail!("{at}: generator {g} is not declared ({generators} generators)");
        }
        if orbits.insert(fp, (k, list.as_slice())).is_some() {
            fail!("{at}: position '{p}' is given twice");
        }
    }
    Ok(Tables { moves, symmetries, orbits })
}

/// The replay's state: the current position, kept up to date move by move.
struct Walk<'g> {
    graph: &'g Graph,
    zobrist: &'g Zobrist,
    rounds: usize,
    position: Vec<u8>,
    fingerprint: u128,
    white: usize,
    black: usize,
    strategy: &'g VoronoiStrategy,
    /// The margin every final position must give the strategy's player.
    needed: i64,
    tables: Tables<'g>,
    generators: Vec<Moved>,
    /// Scratch space for verifying the symmetry witnesses met on the way.
    scratch: Scratch,
    twins: Vec<Option<(usize, usize)>>,
    /// Members of each twin class in listed order, for finding a class's first empty member.
    class_members: Vec<Vec<usize>>,
    class_sizes: u64,
    /// The move that led to the current position.
    last: Option<usize>,
    /// With `canonical_root`: positions identified by class, and the moves by class.
    classes: Option<crate::base::tree_canon::ClassMoves>,
    /// The scorer of the last non-final position expanded, when its children are final: in a
    /// depth-first walk that position is the parent of every final position met next.
    scorer: Option<LeafScorer>,
    report: ReplayReport,
}

impl Walk<'_> {
    fn place(&mut self, v: usize, owner: u8, budget: &mut Budget) -> Result<(), String> {
        self.position[v] = owner;
        if let Some(classes) = self.classes.as_mut() {
            classes.changed(&self.position, v, Some(budget))?;
        }
        self.fingerprint ^= key(self.zobrist, v, owner);
        if owner == b'W' {
            self.white += 1;
        } else {
            self.black += 1;
        }
        Ok(())
    }

    fn remove(&mut self, v: usize) {
        let owner = std::mem::replace(&mut self.position[v], EMPTY);
        if let Some(classes) = self.classes.as_mut() {
            // The classes of a position met before are known: nothing new to charge.
            let _ = classes.changed(&self.position, v, None);
        }
        self.fingerprint ^= key(self.zobrist, v, owner);
        if owner == b'W' {
            self.white -= 1;
        } else {
            self.black -= 1;
        }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.position).into_owned()
    }

    fn to_move(&self) -> Result<Option<Player>, String> {
        to_move_counted(self.white, self.black, self.rounds)
    }
}

/// Replays `strategy` from `start` (a position string) for `rounds` rounds against every
/// opponent move, charging `budget` for every position, move list, search and table.
///
/// The walk is depth first over one position that is updated move by move (so a position is
/// never copied), with a visited set of fingerprints (see [`Zobrist`]); final positions one B
/// stone away from a common position are scored incrementally ([`LeafScorer`]).
pub fn check_strategy(
    graph: &Graph,
    rounds: usize,
    start: &[u8],
    strategy: &VoronoiStrategy,
    budget: &mut Budget,
) -> Result<ReplayReport, String> {
    let n = graph.len();
    let needed = match (strategy.claim, strategy.margin) {
        (StrategyClaim::Wins, None) => 1,
        (StrategyClaim::AtLeastTies, None) => 0,
        (StrategyClaim::MarginAtLeast, Some(k)) => k,
        (StrategyClaim::MarginAtLeast, None) => {
            return Err("claim 'margin-at-least' needs a `margin`".into())
        }
        (_, Some(_)) => return Err("only claim 'margin-at-least' takes a `margin`".into()),
    };
    ensure!(start.len() == n, "the start position has {} characters, not {n}", start.len());
    if rounds == 0 || rounds > n / 2 {
        fail!("{rounds} rounds do not fit a graph of {n} vertices (need 1 <= 2 rounds <= {n})");
    }
    budget.charge(Zobrist::cost(n).saturating_add(n as u64 * 8), "preparing the replay")?;
    let zobrist = Zobrist::new(n);
    let (generators, scratch) = verify_generators(graph, &strategy.generators, budget)?;
    let tables = read_tables(graph, &zobrist, strategy, generators.len(), budget)?;
    let twins = verify_twin_classes(graph, &strategy.twin_classes, budget)?;
    // Members of each class in listed order, for finding a class's first empty member.
    let mut class_members: Vec<Vec<usize>> = vec![Vec::new(); strategy.twin_classes.len()];
    for (v, m) in twins.iter().enumerate() {
        if let Some((c, k)) = *m {
            if class_members[c].len() <= k {
                class_members[c].resize(k + 1, usize::MAX);
            }
            class_members[c][k] = v;
        }
    }
    let class_sizes: u64 = class_members.iter().map(|c| c.len() as u64).sum();
    let classes = match &strategy.canonical_root {
        Some(root) => Some(crate::base::tree_canon::ClassMoves::new(
            graph,
            root,
            start,
            &strategy.moves,
            budget,
        )?),
        None => None,
    };
    let mut walk = Walk {
        graph,
        zobrist: &zobrist,
        rounds,
        position: start.to_vec(),
        fingerprint: fingerprint(&zobrist, start),
        white: start.iter().filter(|&&c| c == b'W').count(),
        black: start.iter().filter(|&&c| c == b'B').count(),
        strategy,
        needed,
        tables,
        generators,
        scratch,
        twins,
        class_members,
        class_sizes,
        classes,
        last: None,
        scorer: None,
        report: ReplayReport::default(),
    };
    let walked = replay(&mut walk, budget)?;
    Ok(ReplayReport { positions: walked.positions, leaves: walked.leaves, ..walk.report })
}

impl Rules for Walk<'_> {
    /// The vertex the player to move occupies.
    type Move = usize;

    fn key(&self) -> u128 {
        self.classes.as_ref().map_or(self.fingerprint, |c| u128::from(c.key()))
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<usize>, String> {
        let (graph, n) = (self.graph, self.graph.len());
        let Some(p) = self.to_move()? else {
            let white_margin = match (self.scorer.as_mut(), self.last) {
                (Some(scorer), Some(y)) => scorer.white_margin_with(graph, y, budget)?,
                _ => {
                    budget.charge(
                        crate::voronoi::rules::score_cost(graph),
                        "scoring final positions",
                    )?;
                    margin(graph, &self.position, Player::White)
                }
            };
            let (m, needed) = (self.signed(white_margin), self.needed);
            self.report.worst_margin = Some(self.report.worst_margin.map_or(m, |w| w.min(m)));
            ensure!(
                m >= needed,
                "the play ending in '{}' leaves the {} player a margin of {m}, below {needed}",
                self.text(),
                player_word(self.strategy.player)
            );
            return Ok(Node::Leaf);
        };
        // A non-final position: the next leaves below it are its children, scored against it.
        self.scorer = None;
        if p == self.strategy.player {
            let found = match &self.classes {
                Some(classes) => classes.move_here(budget)?,
                None => self.tables.moves.get(&self.fingerprint).copied(),
            };
            let Some(v) = found else {
                fail!("no move for position '{}'", self.text());
            };
            ensure!(
                self.position[v] == EMPTY,
                "at position '{}' the strategy occupies '{}', which is taken",
                self.text(),
                graph.name(v)
            );
            return Ok(Node::Moves(vec![v]));
        }
        // The opponent: every empty vertex, but one per orbit, per twin class, or per
        // verified witness.
        // The replies are at most the empty vertices, 8 bytes each: counted before the list is
        // built, with the scan of every vertex and class. Steps, not units held: the list lives
        // while its position is on the replay's stack, at most one list a ply (2 * rounds
        // lists of at most n replies, a bound the instance sets).
        let empty = (n - self.white - self.black) as u64;
        budget.step(n as u64 * 2 + self.class_sizes + empty * 8, "listing the opponent's moves")?;
        let replies = self.opponent_replies(budget)?;
        // Every child is final when this is B's last stone: score them against this position.
        if p == Player::Black && self.black + 1 == self.rounds && !replies.is_empty() {
            budget.charge(LeafScorer::cost(graph), "preparing to score final positions")?;
            self.scorer = Some(LeafScorer::new(graph, &self.position));
        }
        Ok(Node::Moves(replies))
    }

    fn play(&mut self, v: usize, budget: &mut Budget) -> Result<(), String> {
        let Some(mover) = self.to_move()? else { fail!("internal: a move at a final position") };
        self.place(v, mark(mover), budget)?;
        self.last = Some(v);
        Ok(())
    }

    fn undo(&mut self, v: usize) {
        self.remove(v);
    }
}

impl Walk<'_> {
    /// The player's margin from W's margin.
    fn signed(&self, white_margin: i64) -> i64 {
        match self.strategy.player {
            Player::White => white_margin,
            Player::Black => -white_margin,
        }
    }

    /// The opponent's moves at the current position that need an answer, in increasing vertex
    /// order: the others are folded onto them by an orbit of verified generators, a verified
    /// twin class, or a verified permutation.
    fn opponent_replies(&mut self, budget: &mut Budget) -> Result<Vec<usize>, String> {
        let (graph, n, position) = (self.graph, self.graph.len(), &self.position);
        let mut replies = Vec::new();
        if let Some(&(k, list)) = self.tables.orbits.get(&self.fingerprint) {
            budget.charge(list.len() as u64 * 16, "checking orbit generators")?;
            let mut chosen: Vec<&[(usize, usize)]> = Vec::with_capacity(list.len());
            for &g in list {
                let generator = &self.generators[g];
                budget.charge(generator.len() as u64 + 1, "checking orbit generators")?;
                if let Some(&(v, w)) = generator.iter().find(|&&(v, w)| position[v] != position[w])
                {
                    fail!(
                        "orbits[{k}] at '{}': generator {g} maps '{}' ({}) to '{}' ({}): it does not fix the position",
                        self.text(),
                        graph.name(v),
                        owner_word(position[v]),
                        graph.name(w),
                        owner_word(position[w])
                    );
                }
                chosen.push(generator);
            }
            budget.charge(n as u64 * 16, "computing orbits")?;
            let representative = orbit_representatives(n, &chosen);
            for m in (0..n).filter(|&m| position[m] == EMPTY) {
                if representative[m] != m {
                    self.report.symmetries_used += 1;
                } else {
                    replies.push(m);
                }
            }
            return Ok(replies);
        }
        // The first empty member of each class stands for every empty member.
        let first_empty: Vec<Option<usize>> = self
            .class_members
            .iter()
            .map(|c| c.iter().copied().find(|&r| position[r] == EMPTY))
            .collect();
        for m in (0..n).filter(|&m| position[m] == EMPTY) {
            if let Some((c, _)) = self.twins[m] {
                if first_empty[c] != Some(m) {
                    self.report.symmetries_used += 1;
                    continue;
                }
            }
            let reply = match self.tables.symmetries.get(&(self.fingerprint, m)) {
                Some(&(as_, perm, k)) => {
                    ensure!(
                        position[as_] == EMPTY,
                        "symmetries[{k}]: '{}' is not free at '{}'",
                        graph.name(as_),
                        self.text()
                    );
                    budget.charge(permutation_cost(graph, perm), "verifying symmetries")?;
                    verify_permutation(graph, perm, position, (m, as_), &mut self.scratch)
                        .map_err(|why| format!("symmetries[{k}] at '{}': {why}", self.text()))?;
                    self.report.symmetries_used += 1;
                    as_
                }
                None => m,
            };
            replies.push(reply);
        }
        Ok(replies)
    }
}

fn player_word(p: Player) -> &'static str {
    match p {
        Player::White => "white",
        Player::Black => "black",
    }
}

/// Checks a value certificate: both strategies, with exactly the claims that fix `value`.
pub fn check_value(
    graph: &Graph,
    rounds: usize,
    start: &[u8],
    certificate: &VoronoiValue,
    budget: &mut Budget,
) -> Result<(ReplayReport, ReplayReport), String> {
    let v = certificate.value;
    let expect =
        |s: &VoronoiStrategy, player: Player, margin: i64, which: &str| -> Result<(), String> {
            if s.player != player
                || s.claim != StrategyClaim::MarginAtLeast
                || s.margin != Some(margin)
            {
                fail!(
                    "{which}: a value certificate for {v} needs this strategy to claim \
                 'margin-at-least' {margin} for its player"
                );
            }
            Ok(())
        };
    // The value comes from the file: i64::MIN has no negation.
    let minus_v = v.checked_neg().ok_or_else(|| format!("the value {v} is out of range"))?;
    expect(&certificate.white, Player::White, v, "white")?;
    expect(&certificate.black, Player::Black, minus_v, "black")?;
    let white = check_strategy(graph, rounds, start, &certificate.white, budget)
        .map_err(|e| format!("white's strategy: {e}"))?;
    let black = check_strategy(graph, rounds, start, &certificate.black, budget)
        .map_err(|e| format!("black's strategy: {e}"))?;
    Ok((white, black))
}

/// Validates a `voronoi` instance, with the work record a verdict starts from.
pub(crate) fn validated(
    spec: &MultiRoundSpec,
    budget: &mut Budget,
) -> Result<(MultiRound, Work), crate::base::error::FormatError> {
    let game = spec.validate_within(budget)?;
    let work = Work {
        vertices: Some(game.graph.len()),
        edges: Some(game.graph.edge_count()),
        ..Work::default()
    };
    Ok((game, work))
}

impl Claim for VoronoiStrategy {
    fn claim(&self) -> String {
        // The paper's names for the players, W (white, first) and B (black).
        let who = match self.player {
            Player::White => "W",
            Player::Black => "B",
        };
        match (self.claim, self.margin) {
            (StrategyClaim::Wins, _) => format!("{who} wins"),
            (StrategyClaim::AtLeastTies, _) => format!("{who} at least ties"),
            (StrategyClaim::MarginAtLeast, Some(k)) => format!("{who}'s margin is at least {k}"),
            (StrategyClaim::MarginAtLeast, None) => format!("{who}'s margin is at least ?"),
        }
    }
}

impl Claim for VoronoiValue {
    fn claim(&self) -> String {
        format!("the game's value (W's margin) is {}", self.value)
    }
}

/// Registry entry for `voronoi-strategy`.
pub fn strategy_verdict(
    spec: &MultiRoundSpec,
    strategy: &VoronoiStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = strategy.claim();
    let (game, mut work) = match validated(spec, budget) {
        Ok(found) => found,
        Err(err) => return Verdict::invalid(claim, err),
    };
    match check_strategy(&game.graph, game.rounds, &game.start, strategy, budget) {
        Ok(report) => {
            work.positions = Some(report.positions);
            work.leaves = Some(report.leaves);
            work.symmetries = Some(report.symmetries_used);
            let reason = format!(
                "replayed against every opponent move: {}, {} (worst margin {}), {} folded by \
                 verified symmetries",
                counted(report.positions, "position"),
                counted(report.leaves, "final position"),
                report.worst_margin.map_or("none".to_string(), |m| m.to_string()),
                counted(report.symmetries_used, "opponent move")
            );
            Verdict::accept(claim, reason, work, &[])
        }
        Err(why) => reject(claim, why, work),
    }
}

/// Registry entry for `voronoi-value`.
pub fn value_verdict(spec: &MultiRoundSpec, value: &VoronoiValue, budget: &mut Budget) -> Verdict {
    let claim = value.claim();
    let (game, mut work) = match validated(spec, budget) {
        Ok(found) => found,
        Err(err) => return Verdict::invalid(claim, err),
    };
    match check_value(&game.graph, game.rounds, &game.start, value, budget) {
        Ok((white, black)) => {
            work.positions = Some(white.positions + black.positions);
            work.leaves = Some(white.leaves + black.leaves);
            work.symmetries = Some(white.symmetries_used + black.symmetries_used);
            let reason = format!(
                "W's strategy guarantees a margin of at least {v} ({}) and B's holds W to at \
                 most {v} ({}), each replayed against every opponent move",
                counted(white.positions, "position"),
                counted(black.positions, "position"),
                v = value.value
            );
            Verdict::accept(claim, reason, work, &[])
        }
        Err(why) => reject(claim, why, work),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;
    use std::collections::HashSet;

    fn graph(names: &[&str], edges: &[(&str, &str)]) -> Graph {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let edges: Vec<(String, String)> =
            edges.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        Graph::new(&names, &edges).unwrap()
    }

    /// The value (W's best guaranteed margin) by plain minimax, for the tests.
    fn minimax(g: &Graph, position: &mut Vec<u8>, rounds: usize) -> i64 {
        match to_move(position, rounds).unwrap() {
            None => margin(g, position, Player::White),
            Some(p) => {
                let mut best: Option<i64> = None;
                for v in 0..g.len() {
                    if position[v] == EMPTY {
                        position[v] = mark(p);
                        let value = minimax(g, position, rounds);
                        position[v] = EMPTY;
                        best = Some(match (best, p) {
                            (None, _) => value,
                            (Some(b), Player::White) => b.max(value),
                            (Some(b), Player::Black) => b.min(value),
                        });
                    }
                }
                best.unwrap()
            }
        }
    }

    /// W's optimal strategy as a certificate, by minimax, for the tests.
    fn optimal_white(g: &Graph, rounds: usize) -> VoronoiStrategy {
        let mut moves = Vec::new();
        let mut stack = vec![vec![EMPTY; g.len()]];
        let mut seen = HashSet::new();
        while let Some(mut p) = stack.pop() {
            if !seen.insert(p.clone()) {
                continue;
            }
            match to_move(&p, rounds).unwrap() {
                None => {}
                Some(Player::White) => {
                    let target = minimax(g, &mut p.clone(), rounds);
                    let v = (0..g.len())
                        .find(|&v| {
                            p[v] == EMPTY && {
                                p[v] = b'W';
                                let ok = minimax(g, &mut p.clone(), rounds) == target;
                                p[v] = EMPTY;
                                ok
                            }
                        })
                        .unwrap();
                    moves.push((String::from_utf8(p.clone()).unwrap(), g.name(v).to_string()));
                    p[v] = b'W';
                    stack.push(p);
                }
                Some(Player::Black) => {
                    for v in 0..g.len() {
                        if p[v] == EMPTY {
                            let mut q = p.clone();
                            q[v] = b'B';
                            stack.push(q);
                        }
                    }
                }
            }
        }
        VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(minimax(g, &mut vec![EMPTY; g.len()], rounds)),
            moves,
            symmetries: Vec::new(),
            twin_classes: Vec::new(),
            generators: Vec::new(),
            orbits: Vec::new(),
            canonical_root: None,
        }
    }

    #[test]
    fn optimal_strategies_check_and_cannot_claim_more() {
        let path =
            graph(&["a", "b", "c", "d", "e"], &[("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")]);
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        for (g, rounds) in [(&path, 1), (&path, 2), (&star, 1), (&star, 2)] {
            let s = optimal_white(g, rounds);
            let start = vec![EMPTY; g.len()];
            let r = check_strategy(g, rounds, &start, &s, &mut Budget::new(1_000_000_000)).unwrap();
            assert_eq!(r.worst_margin, s.margin);
            let greedy = VoronoiStrategy { margin: s.margin.map(|m| m + 1), ..s.clone() };
            let err = check_strategy(g, rounds, &start, &greedy, &mut Budget::new(1_000_000_000))
                .unwrap_err();
            assert!(err.contains("below"), "{err}");
        }
        // W takes the centre of the path and wins one round 3 to 2... by a margin of 1.
        assert_eq!(optimal_white(&path, 1).margin, Some(1));
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn symmetry_witnesses_are_verified() {
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        // One round: W takes the centre; B's three replies are equivalent.
        let witness = |m: &str, perm: &[(&str, &str)]| {
            ("W...".to_string(), m.to_string(), "x".to_string(), pairs(perm))
        };
        let base = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("....".into(), "c".into())],
            symmetries: vec![
                witness("y", &[("y", "x"), ("x", "y")]),
                witness("z", &[("z", "x"), ("x", "y"), ("y", "z")]),
            ],
            twin_classes: vec![],
            generators: Vec::new(),
            orbits: Vec::new(),
            canonical_root: None,
        };
        let start = b"....".to_vec();
        let r = check_strategy(&star, 1, &start, &base, &mut Budget::new(100_000)).unwrap();
        assert_eq!(r.symmetries_used, 2);
        assert_eq!(r.leaves, 1);
        // The leaves are twins: declaring the class does the same work without witnesses.
        let classes = VoronoiStrategy {
            symmetries: vec![],
            twin_classes: vec![vec!["x".into(), "y".into(), "z".into()]],
            ..base.clone()
        };
        let r = check_strategy(&star, 1, &start, &classes, &mut Budget::new(100_000)).unwrap();
        assert_eq!((r.symmetries_used, r.leaves), (2, 1));
        let not_twins =
            VoronoiStrategy { twin_classes: vec![vec!["x".into(), "c".into()]], ..classes.clone() };
        let err =
            check_strategy(&star, 1, &start, &not_twins, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("are not twins"), "{err}");
        let twice = VoronoiStrategy {
            twin_classes: vec![vec!["x".into(), "y".into()], vec!["y".into(), "z".into()]],
            ..classes
        };
        let err = check_strategy(&star, 1, &start, &twice, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("in a class already"), "{err}");
        let with = |perm: &[(&str, &str)]| VoronoiStrategy {
            symmetries: vec![witness("y", perm)],
            ..base.clone()
        };
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(&[("y", "c"), ("c", "y")]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("does not fix the position"), "{err}");
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(&[("y", "z"), ("z", "y")]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("not to 'x'"), "{err}");
        let err = check_strategy(&star, 1, &start, &with(&[("y", "x")]), &mut Budget::new(100_000))
            .unwrap_err();
        assert!(err.contains("not a bijection"), "{err}");
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(&[("y", "x"), ("y", "z")]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("two images"), "{err}");
        // A path is not symmetric under swapping an end with an inner vertex.
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            moves: vec![("...".into(), "a".into())],
            symmetries: vec![(
                "W..".into(),
                "c".into(),
                "b".into(),
                pairs(&[("c", "b"), ("b", "c")]),
            )],
            ..base
        };
        let err = check_strategy(&path, 1, b"...", &s, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("not an automorphism"), "{err}");
    }

    #[test]
    fn orbits_are_verified() {
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        let base = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("....".into(), "c".into())],
            symmetries: vec![],
            twin_classes: vec![],
            generators: vec![pairs(&[("x", "y"), ("y", "x")]), pairs(&[("y", "z"), ("z", "y")])],
            orbits: vec![("W...".into(), vec![0, 1])],
            canonical_root: None,
        };
        let start = b"....".to_vec();
        let r = check_strategy(&star, 1, &start, &base, &mut Budget::new(100_000)).unwrap();
        assert_eq!((r.symmetries_used, r.leaves), (2, 1));
        let with = |generators: Vec<Vec<(String, String)>>, orbit: Vec<usize>| VoronoiStrategy {
            generators,
            orbits: vec![("W...".into(), orbit)],
            ..base.clone()
        };
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(base.generators.clone(), vec![2]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("not declared"), "{err}");
        let swap_centre = pairs(&[("c", "x"), ("x", "c")]);
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(vec![swap_centre], vec![0]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("not an automorphism"), "{err}");
        let cycle_part = pairs(&[("x", "y"), ("y", "z")]);
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(vec![cycle_part], vec![0]),
            &mut Budget::new(100_000),
        )
        .unwrap_err();
        assert!(err.contains("not a bijection"), "{err}");
        // The path's reflection does not fix a position with W at one end.
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(-1),
            moves: vec![("...".into(), "a".into())],
            generators: vec![pairs(&[("a", "c"), ("c", "a")])],
            orbits: vec![("W..".into(), vec![0])],
            ..base
        };
        let err = check_strategy(&path, 1, b"...", &s, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("does not fix the position"), "{err}");
    }

    /// The incremental leaf scorer agrees with the reference rules on every final position one
    /// B stone away from every position of random graphs (connected or not) with 1 to 3 stones
    /// each.
    #[test]
    fn incremental_scores_are_the_reference_scores() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        let mut compared = 0;
        for _ in 0..300 {
            let n = 4 + next(9) as usize;
            let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if next(100) < 30 {
                        edges.push((names[a].clone(), names[b].clone()));
                    }
                }
            }
            let g = Graph::new(&names, &edges).unwrap();
            let stones = 1 + next(3) as usize;
            let mut position = vec![EMPTY; n];
            let mut placed = 0;
            while placed < 2 * stones - 1 && placed < n - 1 {
                let v = next(n as u64) as usize;
                if position[v] == EMPTY {
                    position[v] = if placed % 2 == 0 { b'W' } else { b'B' };
                    placed += 1;
                }
            }
            let mut scorer = LeafScorer::new(&g, &position);
            let mut budget = Budget::new(u64::MAX);
            for y in (0..n).filter(|&y| position[y] == EMPTY) {
                let fast = scorer.white_margin_with(&g, y, &mut budget).unwrap();
                let mut leaf = position.clone();
                leaf[y] = b'B';
                assert_eq!(
                    fast,
                    margin(&g, &leaf, Player::White),
                    "{} + B at {y} on {edges:?}",
                    String::from_utf8_lossy(&position)
                );
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// A long path, one round: W in the middle, every B reply a final position. The replay
    /// holds one position and fingerprints, never a copy per leaf.
    #[test]
    fn a_long_path_replays_in_near_linear_memory() {
        let n = 20_001;
        let names: Vec<String> = (0..n).map(|i| format!("p{i}")).collect();
        let edges: Vec<(String, String)> =
            (1..n).map(|i| (names[i - 1].clone(), names[i].clone())).collect();
        let g = Graph::new(&names, &edges).unwrap();
        let start = vec![EMPTY; n];
        let s = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::AtLeastTies,
            margin: None,
            moves: vec![(String::from_utf8(start.clone()).unwrap(), "p10000".into())],
            symmetries: vec![],
            twin_classes: vec![],
            generators: vec![],
            orbits: vec![],
            canonical_root: None,
        };
        let mut budget = Budget::new(u64::MAX);
        let r = check_strategy(&g, 1, &start, &s, &mut budget).unwrap();
        assert_eq!((r.positions, r.leaves), (n as u64 + 1, n as u64 - 1));
        // An odd path: W keeps the middle and the longer side.
        assert_eq!(r.worst_margin, Some(1));
        // The work is the regions of the replies, not n searches of the whole path: about
        // 3 n^2 / 8 region vertices here (6 units each) against 48 n^2 units for scoring each
        // leaf from scratch.
        let n2 = (n * n) as u64;
        assert!(budget.used() < 3 * n2, "{}", budget.used());
    }

    #[test]
    fn bad_strategies_are_rejected() {
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("...".into(), "b".into())],
            symmetries: vec![],
            twin_classes: vec![],
            generators: Vec::new(),
            orbits: Vec::new(),
            canonical_root: None,
        };
        assert!(check_strategy(&path, 1, b"...", &s, &mut Budget::new(100_000)).is_ok());
        let missing = VoronoiStrategy { moves: vec![], ..s.clone() };
        assert!(check_strategy(&path, 1, b"...", &missing, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("no move"));
        let taken = VoronoiStrategy { moves: vec![("B..".into(), "a".into())], ..s.clone() };
        assert!(check_strategy(&path, 1, b"B..", &taken, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("no play"));
        let limit = check_strategy(&path, 1, b"...", &s, &mut Budget::new(1)).unwrap_err();
        assert!(limit.contains("limit"), "{limit}");
    }
}

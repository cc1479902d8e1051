//! Triangle avoidance by proof (issue 41, item 3): the proof search of
//! [`crate::base::proof`] over unlabelled positions, and the Winner's proof written as the
//! existing certificate kinds (`triangle-strategy` JSON, or the binary `triangle-stream`).
//!
//! Either engine of [`crate::base::proof`] runs it (`solve --method prove`: depth-first;
//! `--method dfpn`). A position is a triangle-free graph in canonical form
//! ([`crate::triangle_avoidance::canon`]), its key the canonical code. The prover is A: a proven start is A's win, a disproven one
//! B's, and the proof of whichever wins is walked out of the table. Moves are one per orbit of
//! edges under the position's automorphisms, one per distinct canonical child, ordered by the
//! other player's replies (fewest first: the certificate lists every reply, and a child with few
//! replies is quick to prove); for depth-first search the children stay edges until they are
//! tried, since a search that stops at the first decisive child need not label the others. A fresh position gets df-pn+'s mobility numbers: where the
//! prover moves, proof number 1 and disproof number its legal moves; where the other player
//! moves, the other way round.
//!
//! Unlike the game digraph's engines, which label all t_n positions, the search visits those it
//! needs, and the certificate lists only the proof: the Winner's one move at its positions,
//! every legal move (with the permutation onto its canonical child) at the other player's.

use crate::base::proof::{Engine, Numbers, Outcome, Prover, Search, Stats, Table};
use crate::triangle_avoidance::canon::{
    automorphisms, canonical, pair_orbit_representatives, SmallGraph,
};
use crate::triangle_avoidance::rules::Rules;
use gamecert_certificates::triangle_avoidance::strategy::TriangleStrategy;
use gamecert_certificates::triangle_avoidance::stream::{header, pack_permutation};
use std::collections::HashMap;
use std::io::Write;

/// The game as the proof search sees it: a stack of canonical positions.
pub struct TriangleGame {
    n: usize,
    /// The positions from the start to the current one, each in canonical form, with its edge
    /// count.
    stack: Vec<(SmallGraph, usize)>,
    /// Canonical forms computed (children of expanded positions).
    pub canonical_forms: u64,
    /// The ordered canonical children of positions expanded before: df-pn expands a position
    /// again each time its thresholds grow, and each expansion computed a canonical form per
    /// orbit of children (18.7 M forms for 1.1 M expansions at n = 12). Bounded: see
    /// [`CHILD_ENTRY_BYTES`]; when full it is emptied and fills again.
    children: HashMap<u128, Box<[u128]>, crate::base::proof::FxBuild>,
    children_bytes: u64,
    children_limit: u64,
    /// Expansions whose children came from the cache.
    pub children_reused: u64,
    /// Children as edges, each put in canonical form only when played (for the depth-first
    /// engine, which plays children one by one and stops at the first decisive one; df-pn
    /// looks at every child at each expansion, so it gets them canonical, from the cache).
    lazy: bool,
}

/// A move of the proof search: onto a canonical child, or an edge of the current position
/// whose child is put in canonical form when it is played ([`TriangleGame`]'s `lazy` mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriangleMove {
    Child(u128),
    Edge(u8, u8),
}

/// What the children cache counts for one position, besides 16 bytes a child: its key, the
/// boxed slice's pointer and length, the hash table's slack and the allocation's header.
pub const CHILD_ENTRY_BYTES: u64 = 64;

/// The number of legal moves at `g` (the mobility the search starts a position's numbers at).
fn legal_moves(g: &SmallGraph) -> u32 {
    crate::triangle_avoidance::rules::triangle_avoidance_replies(g) as u32
}

impl TriangleGame {
    /// The game on `n` nodes, keeping at most `children_limit` bytes of expanded positions'
    /// children (0: none), or with `lazy` children (no cache).
    pub fn new(n: usize, children_limit: u64, lazy: bool) -> TriangleGame {
        let start = SmallGraph::from_code(n, canonical(&SmallGraph::empty(n)).code);
        TriangleGame {
            n,
            stack: vec![(start, 0)],
            canonical_forms: 0,
            children: HashMap::default(),
            children_bytes: 0,
            children_limit,
            children_reused: 0,
            lazy,
        }
    }

    /// The canonical code of the child `m` leads to.
    pub fn child_code(&mut self, m: TriangleMove) -> u128 {
        match m {
            TriangleMove::Child(code) => code,
            TriangleMove::Edge(a, b) => {
                let mut h = *self.position();
                h.add_edge(usize::from(a), usize::from(b));
                self.canonical_forms += 1;
                canonical(&h).code
            }
        }
    }

    /// The current position (canonical).
    pub fn position(&self) -> &SmallGraph {
        &self.stack[self.stack.len() - 1].0
    }

    fn edges(&self) -> usize {
        self.stack[self.stack.len() - 1].1
    }
}

impl Prover for TriangleGame {
    type Move = TriangleMove;

    fn key(&mut self) -> u128 {
        self.position().code()
    }

    fn prover_to_move(&self) -> bool {
        // The prover is A, who moves at even edge counts.
        self.edges().is_multiple_of(2)
    }

    fn settled(&mut self) -> Option<bool> {
        // A player with no legal move loses.
        (!Rules::TriangleAvoidance.has_move(self.position())).then(|| !self.prover_to_move())
    }

    fn moves(&mut self, out: &mut Vec<TriangleMove>) {
        let g = *self.position();
        if let Some(kids) = self.children.get(&g.code()) {
            self.children_reused += 1;
            out.extend(kids.iter().map(|&code| TriangleMove::Child(code)));
            return;
        }
        let moves = Rules::TriangleAvoidance.moves(&g);
        let generators = if moves.len() > 1 { automorphisms(&g) } else { Vec::new() };
        // One edge per orbit, in the search's order: the other player's replies, fewest first.
        let mut edges: Vec<(u32, u8, u8)> = pair_orbit_representatives(g.n, &moves, &generators)
            .into_iter()
            .map(|(a, b)| {
                let mut h = g;
                h.add_edge(a, b);
                (legal_moves(&h), a as u8, b as u8)
            })
            .collect();
        edges.sort_unstable();
        if self.lazy {
            // Unlabelled children left to `play`; two edges onto one canonical child both
            // stay (the second is then found in the table).
            out.extend(edges.into_iter().map(|(_, a, b)| TriangleMove::Edge(a, b)));
            return;
        }
        // Labelled: one per canonical child, ties in the order broken by the code.
        let mut kids: Vec<(u32, u128)> = edges
            .into_iter()
            .map(|(r, a, b)| (r, self.child_code(TriangleMove::Edge(a, b))))
            .collect();
        kids.sort_unstable();
        kids.dedup_by_key(|k| k.1);
        let cost = CHILD_ENTRY_BYTES + 16 * kids.len() as u64;
        out.extend(kids.iter().map(|&(_, code)| TriangleMove::Child(code)));
        if cost > self.children_limit {
            return;
        }
        if self.children_bytes + cost > self.children_limit {
            self.children.clear();
            self.children_bytes = 0;
        }
        self.children.insert(g.code(), kids.iter().map(|&(_, code)| code).collect());
        self.children_bytes += cost;
    }

    fn play(&mut self, m: TriangleMove) {
        let code = self.child_code(m);
        let edges = self.edges() + 1;
        self.stack.push((SmallGraph::from_code(self.n, code), edges));
    }

    fn undo(&mut self, _: TriangleMove) {
        self.stack.pop();
    }

    fn initial(&mut self) -> Numbers {
        let mobility = legal_moves(self.position()).max(1);
        if self.prover_to_move() {
            Numbers { pn: 1, dn: mobility }
        } else {
            Numbers { pn: mobility, dn: 1 }
        }
    }
}

/// A solved game and the Winner's proof.
pub struct Proof {
    pub n: usize,
    pub first_wins: bool,
    /// The proof's positions (canonical codes) with the Winner's chosen child at its own.
    pub positions: Vec<(u128, Option<u128>)>,
    pub stats: Stats,
    /// Canonical forms the search computed.
    pub canonical_forms: u64,
    /// Expansions whose children came from the cache of expanded positions.
    pub children_reused: u64,
    /// The table's size and how full it ended.
    pub table_bytes: u64,
    pub table_used: u64,
    pub table_replaced: u64,
}

/// Solves triangle avoidance on `n` nodes by proof search with a table of `memory` bytes and
/// walks the Winner's proof; `None` past `limit` expansions.
pub fn prove(n: usize, memory: u64, limit: u64, engine: Engine) -> Result<Option<Proof>, String> {
    if !(1..=crate::triangle_avoidance::canon::MAX_VERTICES).contains(&n) {
        return Err(format!("n = {n} is outside 1..=16"));
    }
    // df-pn: a third of the memory for the children of expanded positions, the rest for the
    // table (a power of two of clusters, so often less: 1 GB gives a 512 MiB table either
    // way). Depth-first: all of it for the table.
    let lazy = engine == Engine::DepthFirst;
    let children = if lazy { 0 } else { memory / 3 };
    let mut table = Table::new(memory - children);
    let mut search = Search::new(TriangleGame::new(n, children, lazy), &mut table);
    search.limit = limit;
    crate::base::solved::search_stage(format!(
        "{}: does A, the first player, win one-colour triangle avoidance on {n} nodes?",
        engine.words()
    ));
    let first_wins = match search.solve_by(engine) {
        Outcome::Proven => true,
        Outcome::Disproven => false,
        Outcome::Unknown => return Ok(None),
    };
    let mut positions = Vec::new();
    search.limit = u64::MAX;
    let winner = if first_wins { "A" } else { "B" };
    crate::base::solved::search_stage(format!("walking {winner}'s proof out of the table"));
    search.extract(first_wins, &mut |game, chosen| {
        let child = chosen.map(|m| game.child_code(m));
        positions.push((game.key(), child));
    })?;
    let (stats, canonical_forms) = (search.stats, search.game.canonical_forms);
    let children_reused = search.game.children_reused;
    Ok(Some(Proof {
        n,
        first_wins,
        positions,
        stats,
        canonical_forms,
        children_reused,
        table_bytes: table.bytes(),
        table_used: table.used,
        table_replaced: table.replaced,
    }))
}

/// The Winner's move at `g` onto the canonical child `child`: the edge and the canonical
/// labelling of the result.
fn move_onto(g: &SmallGraph, child: u128) -> Result<((usize, usize), [u8; 16]), String> {
    for (a, b) in Rules::TriangleAvoidance.moves(g) {
        let mut h = *g;
        h.add_edge(a, b);
        let c = canonical(&h);
        if c.code == child {
            return Ok(((a, b), c.label));
        }
    }
    Err(format!("no move of {:x} leads to {child:x}", g.code()))
}

impl Proof {
    /// Positions in the proof.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The proof as a `triangle-strategy` certificate (JSON): every listed position with the
    /// Winner's move, or every legal move of the other player, each with its permutation.
    pub fn strategy(&self) -> Result<TriangleStrategy, String> {
        let n = self.n;
        let mut index: HashMap<u128, usize> = HashMap::with_capacity(self.positions.len());
        // The start first, as the format requires; it is the walk's first position.
        for (i, &(code, _)) in self.positions.iter().enumerate() {
            index.insert(code, i);
        }
        let hex = |label: &[u8; 16]| label[..n].iter().map(|&l| format!("{l:x}")).collect();
        let target = |code: u128| {
            index.get(&code).copied().ok_or_else(|| format!("{code:x} is not in the proof"))
        };
        let mut moves = Vec::with_capacity(self.positions.len());
        for (i, &(code, chosen)) in self.positions.iter().enumerate() {
            let g = SmallGraph::from_code(n, code);
            let list = match chosen {
                Some(child) => {
                    let ((a, b), label) = move_onto(&g, child)?;
                    vec![(a, b, target(child)?, hex(&label))]
                }
                None => {
                    let mut list = Vec::new();
                    for (a, b) in Rules::TriangleAvoidance.moves(&g) {
                        let mut h = g;
                        h.add_edge(a, b);
                        let c = canonical(&h);
                        list.push((a, b, target(c.code)?, hex(&c.label)));
                    }
                    list
                }
            };
            if !list.is_empty() {
                moves.push((i, list));
            }
        }
        Ok(TriangleStrategy {
            n,
            winner: if self.first_wins { "A" } else { "B" }.into(),
            positions: self.positions.iter().map(|(code, _)| format!("{code:x}")).collect(),
            moves,
        })
    }

    /// Writes the proof as a `triangle-stream` certificate: levels of sorted codes, each
    /// level's moves after the next level. Returns the bytes written.
    pub fn write_stream(&self, out: &mut dyn Write) -> Result<u64, String> {
        let n = self.n;
        let mut levels: Vec<Vec<(u128, Option<u128>)>> = Vec::new();
        for &(code, chosen) in &self.positions {
            let t = SmallGraph::from_code(n, code).edge_count();
            if levels.len() <= t {
                levels.resize(t + 1, Vec::new());
            }
            levels[t].push((code, chosen));
        }
        for level in &mut levels {
            level.sort_unstable_by_key(|p| p.0);
        }
        let mut out = Counted { out, bytes: 0 };
        out.put(&header(n, self.first_wins))?;
        out.level(0, &levels[0])?;
        for t in 0..levels.len() {
            if t + 1 == levels.len() || levels[t + 1].is_empty() {
                out.put(b"E")?;
                break;
            }
            out.level(t + 1, &levels[t + 1])?;
            out.put(b"M")?;
            out.put(&(t as u16).to_le_bytes())?;
            for &(code, chosen) in &levels[t] {
                let g = SmallGraph::from_code(n, code);
                match chosen {
                    Some(child) => {
                        let ((a, b), label) = move_onto(&g, child)?;
                        out.put(&[a as u8, b as u8])?;
                        out.put(&pack_permutation(&label[..n]).to_le_bytes())?;
                    }
                    None => {
                        for (a, b) in Rules::TriangleAvoidance.moves(&g) {
                            let mut h = g;
                            h.add_edge(a, b);
                            let c = canonical(&h);
                            out.put(&pack_permutation(&c.label[..n]).to_le_bytes())?;
                        }
                    }
                }
            }
        }
        Ok(out.bytes)
    }
}

/// A writer that counts the bytes it writes.
struct Counted<'a> {
    out: &'a mut dyn Write,
    bytes: u64,
}

impl Counted<'_> {
    fn put(&mut self, b: &[u8]) -> Result<(), String> {
        self.bytes += b.len() as u64;
        self.out.write_all(b).map_err(|e| e.to_string())
    }

    /// A level section: `L`, t, the count, the codes.
    fn level(&mut self, t: usize, codes: &[(u128, Option<u128>)]) -> Result<(), String> {
        self.put(b"L")?;
        self.put(&(t as u16).to_le_bytes())?;
        self.put(&(codes.len() as u64).to_le_bytes())?;
        for (code, _) in codes {
            self.put(&code.to_le_bytes())?;
        }
        Ok(())
    }
}

/// `solve --method prove` on a triangle-avoidance instance (n <= 12: a `triangle-strategy`;
/// the stream for larger n is written by the command line with [`Proof::write_stream`]).
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    options: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    use gamecert_certificates::format::{Certificate, Instance};
    let Instance::TriangleAvoidance(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "triangle avoidance by proof"));
    };
    let memory = options.memory.unwrap_or(crate::base::proof::DEFAULT_MEMORY);
    let engine = Engine::of_method(options.method).unwrap_or_default();
    let proof =
        prove(spec.n, memory, u64::MAX, engine).map_err(crate::base::io::BadInput)?.ok_or_else(
            || anyhow::anyhow!("internal error: the proof search stopped without a limit"),
        )?;
    let strategy = proof.strategy().map_err(anyhow::Error::msg)?;
    Ok(Some(crate::base::solved::SolvedGame::new(
        Certificate::TriangleStrategy(strategy),
        proof.stats.expansions,
        &format!("{} over unlabelled graphs", engine.words()),
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangle_avoidance::solver::{solve, PAPER_TABLE};
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::triangle_avoidance::strategy::check_triangle_strategy;
    use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;

    /// For n = 1..=10 the proof search (by either engine) finds the game digraph's Winner, its proof is smaller
    /// than the positions of the game, and both certificates are accepted by the checker; a
    /// small table (8,192 entries, most replaced) gives the same Winner and a proof that checks.
    #[test]
    fn proofs_agree_with_the_game_digraph_and_check() {
        for n in 1..=10usize {
            let full = solve(n, Rules::TriangleAvoidance, &mut |_, _| {});
            let engines = [Engine::Dfpn, Engine::DepthFirst];
            for (memory, engine) in
                [1u64 << 24, 1 << 18].into_iter().flat_map(|m| engines.map(|e| (m, e)))
            {
                let proof = prove(n, memory, u64::MAX, engine).unwrap().expect("no limit");
                let winner = if proof.first_wins { "A" } else { "B" };
                assert_eq!(winner, full.winner, "n = {n}");
                assert!(proof.len() <= full.positions, "n = {n}");
                let strategy = proof.strategy().unwrap();
                check_triangle_strategy(&strategy, &mut Budget::unlimited())
                    .unwrap_or_else(|e| panic!("n = {n}: {e}"));
                let mut bytes = Vec::new();
                proof.write_stream(&mut bytes).unwrap();
                let (checked, report) =
                    check_triangle_stream(n, &mut bytes.as_slice(), &mut Budget::unlimited())
                        .unwrap_or_else(|e| panic!("n = {n}: {e}"));
                assert_eq!(checked, winner);
                assert_eq!(report.positions, proof.len() as u64, "n = {n}");
            }
        }
        assert!(PAPER_TABLE.iter().any(|p| p.0 == 10));
    }
}

#[cfg(test)]
mod probe {
    /// `TA_PROVE=n0,n1,memory_mb cargo test --release --lib prove::probe -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn probe_prove() {
        let spec: Vec<u64> =
            std::env::var("TA_PROVE").unwrap().split(',').map(|x| x.parse().unwrap()).collect();
        let engine = match std::env::var("ENGINE").as_deref() {
            Ok("depth-first") => super::Engine::DepthFirst,
            _ => super::Engine::Dfpn,
        };
        for n in spec[0]..=spec[1] {
            let t = std::time::Instant::now();
            let proof = super::prove(n as usize, spec[2] << 20, u64::MAX, engine).unwrap().unwrap();
            println!(
                "n {n}: A wins {} proof {} expansions {} evaluations {} canon {} reused {} used {} replaced {} {:.2} s",
                proof.first_wins,
                proof.len(),
                proof.stats.expansions,
                proof.stats.evaluations,
                proof.canonical_forms,
                proof.children_reused,
                proof.table_used,
                proof.table_replaced,
                t.elapsed().as_secs_f64()
            );
        }
    }
}

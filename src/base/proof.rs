//! One proof search for every game (issue 41): two engines over a small game trait sharing a
//! transposition table bounded in memory, depth-first proof-number search (df-pn, Nagai 2002)
//! and plain depth-first search ([`Engine`]), and threshold tests for scored games on top.
//!
//! A family plugs in by implementing [`Prover`] over one current position changed move by move
//! (as the checker's replay does): the position's key (a canonical form, or a 128-bit hash of
//! one), whether the *prover* (the side whose win is sought) moves there, whether the position
//! is settled without search (the game is over, or a bound decides it), its moves (one per
//! symmetry class, in the family's order: the best first), and `play`/`undo`. Scored games ask
//! "can W reach margin >= t?" by a prover whose settled positions compare with t; the value is
//! found by repeated tests ([`value_by_tests`]).
//!
//! # The search
//!
//! Every position has a proof number (how many positions at least must still be proven for the
//! prover to win) and a disproof number (the same for the other side). At a position where the
//! prover moves (an OR node) the proof number is the least of its children's and the disproof
//! number their sum; where the other side moves (an AND node), the other way round. A proven
//! position has (0, INF), a disproven one (INF, 0). `mid` searches a position until one of its
//! numbers reaches its thresholds, always descending into the most proving child with
//! thresholds that send it back up as soon as another child becomes more proving (Nagai's
//! multiple iterative deepening), with the 1+epsilon trick of Pawlewicz and Lew (the threshold
//! of the child is the second best child's number times 1 + 1/4, not plus one, which cuts the
//! back-and-forth between two close children). Fresh children get the family's initial numbers
//! ([`Prover::initial`], e.g. the mobility of df-pn+).
//!
//! Our games are acyclic (every move adds a stone or an edge), so the graph history
//! interaction does not arise; on a DAG the sums double-count shared descendants, which only
//! misleads the choice of child (the classical overestimation), never the result.
//!
//! # The depth-first engine
//!
//! [`Search::solve_depth_first`]: at the prover's positions the moves in the family's order until
//! one wins, at the other side's until one refutes, each child solved before the next (a
//! threshold test's null-window alpha-beta), every solved position stored with its work. It
//! expands each position once while the table keeps it and looks at a child only when it is
//! its turn, where df-pn re-expands a position each time its thresholds grow and evaluates
//! every child at each expansion. With good move orders (the families' orders put the
//! Winner's move first often) that is 2 to 5 times faster (see [`Engine`]).
//!
//! # The table
//!
//! [`Table`]: a fixed array of clusters of four entries (a 128-bit key, the two numbers, the
//! work spent below the entry), sized once from a memory budget, so the search never grows.
//! A new entry takes a free slot of its cluster, else replaces the one with the least work
//! (small-tree replacement: what took little work to find is cheap to find again). Proven and
//! disproven entries are kept the same way; a proof whose parts were replaced is re-searched
//! when it is written out ([`Search::extract`]), never assumed.
//!
//! # The proof
//!
//! [`Search::extract`] walks the proof from the current position: at the prover's positions one
//! move to a proven child (found in the table, or re-proven), at the other side's every move
//! (each proven, or re-proven), each position once by key, and hands each position to the
//! family, which writes it in its existing certificate kind. The search is never trusted:
//! the certificate is what the checker replays.

/// "Infinite" proof and disproof numbers; sums saturate here.
pub const INF: u32 = u32::MAX;

/// Proof and disproof numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Numbers {
    pub pn: u32,
    pub dn: u32,
}

impl Numbers {
    pub const PROVEN: Numbers = Numbers { pn: 0, dn: INF };
    pub const DISPROVEN: Numbers = Numbers { pn: INF, dn: 0 };
    pub const UNIT: Numbers = Numbers { pn: 1, dn: 1 };

    pub fn proven(self) -> bool {
        self.pn == 0
    }
    pub fn disproven(self) -> bool {
        self.dn == 0
    }
    pub fn solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
    fn settled(win: bool) -> Numbers {
        if win {
            Numbers::PROVEN
        } else {
            Numbers::DISPROVEN
        }
    }
}

/// A game as the proof search sees it: one current position, changed move by move.
pub trait Prover {
    /// A move from the current position (e.g. a vertex, an edge with its child's code).
    type Move: Copy;

    /// The current position's key: equal keys must mean positions of equal value for the
    /// question asked (a canonical form, or a 128-bit hash of one; a hash collision could only
    /// give a certificate the checker rejects, never one it accepts wrongly).
    fn key(&mut self) -> u128;

    /// Whether the prover moves at the current position (an OR node).
    fn prover_to_move(&self) -> bool;

    /// The current position's result when it is known without search: `Some(true)` the
    /// prover wins, `Some(false)` it does not. The game's end must be settled; a bound may
    /// settle more (the proof is still written down to the game's end, see
    /// [`Prover::is_over`]).
    fn settled(&mut self) -> Option<bool>;

    /// Whether the game is over at the current position (no moves: [`Prover::settled`] must
    /// answer). The proof is written down to these positions, since the checker replays every
    /// play to its end; by default, a settled position is over.
    fn is_over(&mut self) -> bool {
        self.settled().is_some()
    }

    /// The moves from the current position, one per class of equivalent moves, best first.
    fn moves(&mut self, out: &mut Vec<Self::Move>);

    fn play(&mut self, m: Self::Move);
    fn undo(&mut self, m: Self::Move);

    /// Proof and disproof numbers of the current position before it is searched (it is
    /// neither settled nor in the table); (1, 1) by default.
    fn initial(&mut self) -> Numbers {
        Numbers::UNIT
    }
}

/// One table entry, as four words (so that a table is allocated zeroed, which the system
/// gives without touching the pages): the key's two halves, the proof number and disproof
/// number, the work spent below the position (0: a free slot).
type Entry = [u64; 4];

fn entry(key: u128, numbers: Numbers, work: u32) -> Entry {
    [
        key as u64,
        (key >> 64) as u64,
        u64::from(numbers.pn) | u64::from(numbers.dn) << 32,
        u64::from(work),
    ]
}
fn entry_key(e: &Entry) -> u128 {
    u128::from(e[0]) | u128::from(e[1]) << 64
}
fn entry_numbers(e: &Entry) -> Numbers {
    Numbers { pn: e[2] as u32, dn: (e[2] >> 32) as u32 }
}
fn entry_work(e: &Entry) -> u32 {
    e[3] as u32
}

/// Entries per cluster (a cluster is one index of the table).
const WAYS: usize = 4;

/// The transposition table: a fixed array of clusters, sized once (see the module docs).
pub struct Table {
    entries: Vec<Entry>,
    /// Clusters - 1 (a power of two minus one).
    mask: usize,
    /// Stores that replaced a live entry.
    pub replaced: u64,
    /// Live entries.
    pub used: u64,
}

/// Bytes of one entry.
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// The default table memory of `--memory`, in bytes (1 GiB).
pub const DEFAULT_MEMORY: u64 = 1 << 30;

fn mix(key: u128) -> u64 {
    // splitmix64's finaliser over both halves: the families' keys may be small integers.
    let mut z = (key as u64) ^ ((key >> 64) as u64).rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Table {
    /// A table of at most `bytes` bytes (at least one cluster).
    pub fn new(bytes: u64) -> Table {
        let clusters = (bytes / (ENTRY_BYTES * WAYS) as u64).max(1);
        // The largest power of two that fits.
        let clusters = 1usize << (63 - clusters.leading_zeros());
        Table {
            entries: vec![[0u64; 4]; clusters * WAYS],
            mask: clusters - 1,
            replaced: 0,
            used: 0,
        }
    }

    /// The table's bytes.
    pub fn bytes(&self) -> u64 {
        (self.entries.len() * ENTRY_BYTES) as u64
    }

    fn cluster(&self, key: u128) -> usize {
        (mix(key) as usize & self.mask) * WAYS
    }

    /// The numbers stored for `key`.
    pub fn get(&self, key: u128) -> Option<(Numbers, u32)> {
        let c = self.cluster(key);
        self.entries[c..c + WAYS]
            .iter()
            .find(|e| entry_work(e) != 0 && entry_key(e) == key)
            .map(|e| (entry_numbers(e), entry_work(e)))
    }

    /// Stores `numbers` for `key` with the work spent so far below it.
    pub fn put(&mut self, key: u128, numbers: Numbers, work: u64) {
        let work = work.clamp(1, u64::from(u32::MAX)) as u32;
        let c = self.cluster(key);
        let cluster = &mut self.entries[c..c + WAYS];
        let slot = match cluster.iter().position(|e| entry_work(e) != 0 && entry_key(e) == key) {
            Some(i) => i,
            None => {
                let (i, least) = cluster
                    .iter()
                    .enumerate()
                    .min_by_key(|&(_, e)| entry_work(e))
                    .map(|(i, e)| (i, entry_work(e)))
                    .expect("a cluster has entries");
                if least == 0 {
                    self.used += 1;
                } else {
                    self.replaced += 1;
                }
                i
            }
        };
        let e = &mut cluster[slot];
        let work =
            if entry_work(e) != 0 && entry_key(e) == key { work.max(entry_work(e)) } else { work };
        *e = entry(key, numbers, work);
    }

    /// Entries the table holds in all.
    pub fn capacity(&self) -> u64 {
        self.entries.len() as u64
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = [0; 4]);
        self.used = 0;
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Positions expanded (their moves generated), counting re-expansions.
    pub expansions: u64,
    /// Positions evaluated as children (settled, looked up, or given initial numbers).
    pub evaluations: u64,
}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Proven,
    Disproven,
    /// The node limit was reached first.
    Unknown,
}

/// How a test is searched. Both engines fill the same table with solved positions, from which
/// [`Search::extract`] walks the proof (re-proving lost parts by df-pn).
///
/// Measured (docs/benchmarks.md, `gamecert bench prove`): depth-first is the faster on every
/// family, 2 to 5 times on triangle avoidance from n = 10 (n = 12: 4.1 s against 21 s) and 3 to
/// 18 times on the k-ary trees (k = 2, height 4, n = 8: 27 s against 119 s); df-pn finds smaller proofs on the trees
/// (a fifth of the positions at n = 8), the depth-first ones on triangle avoidance. So
/// depth-first is the default (`solve --method prove`) and df-pn stays as `--method dfpn`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// df-pn: proof and disproof numbers steer the search to the least work; pays for it with
    /// re-expansions and a table look-up per child per iteration.
    Dfpn,
    /// Plain depth-first search in the family's move order, each position solved once while
    /// the table keeps it (the null-window alpha-beta of a threshold test): cheaper per
    /// position, and better where the family's order finds the decisive move early.
    #[default]
    DepthFirst,
}

impl Engine {
    /// The engine of `solve --method prove` and `dfpn`; `None` for the other methods.
    pub fn of_method(method: crate::base::method::Method) -> Option<Engine> {
        use crate::base::method::Method;
        match method {
            Method::Prove => Some(Engine::DepthFirst),
            Method::Dfpn => Some(Engine::Dfpn),
            _ => None,
        }
    }

    /// In words, for reports: "df-pn proof search", "depth-first proof search".
    pub fn words(self) -> &'static str {
        match self {
            Engine::Dfpn => "df-pn proof search",
            Engine::DepthFirst => "depth-first proof search",
        }
    }
}

/// The proof search over a game `G`, by either engine.
pub struct Search<'t, G: Prover> {
    pub game: G,
    pub table: &'t mut Table,
    pub stats: Stats,
    /// Stop (with [`Outcome::Unknown`]) after this many expansions.
    pub limit: u64,
    aborted: bool,
    /// Set by [`Search::solve_depth_first`]: the proof walk takes the first child the table has
    /// won (the one the depth-first search proved, in move order) instead of looking at every
    /// child for the least work, which costs a move played per child.
    first_won: bool,
}

/// A child as its parent's loop keeps it.
#[derive(Clone, Copy)]
struct Child<M> {
    m: M,
    key: u128,
    numbers: Numbers,
    /// Settled without search: its numbers are final and never looked up.
    fixed: bool,
}

fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b)
}

/// The threshold a child gets from the second best sibling's number `second` (1 + epsilon,
/// epsilon = 1/4), capped by the parent's threshold.
fn epsilon_threshold(parent: u32, second: u32) -> u32 {
    let grown = if second == INF { INF } else { add(second, (second / 4).max(1)) };
    parent.min(grown)
}

impl<'t, G: Prover> Search<'t, G> {
    pub fn new(game: G, table: &'t mut Table) -> Self {
        Search {
            game,
            table,
            stats: Stats::default(),
            limit: u64::MAX,
            aborted: false,
            first_won: false,
        }
    }

    /// Publishes the expansion (for the progress display) and, every 2^16 expansions, how
    /// full the table is.
    #[inline]
    fn published(&self) {
        crate::base::solved::searched(self.stats.expansions);
        if self.stats.expansions.is_multiple_of(1 << 16) {
            crate::base::solved::table_fill(self.table.used, self.table.capacity());
        }
    }

    /// Searches the current position by `engine` until it is proven or disproven (or the
    /// limit).
    pub fn solve_by(&mut self, engine: Engine) -> Outcome {
        match engine {
            Engine::Dfpn => self.solve(),
            Engine::DepthFirst => self.solve_depth_first(),
        }
    }

    /// Searches the current position by df-pn until it is proven or disproven (or the limit).
    pub fn solve(&mut self) -> Outcome {
        let numbers = self.search_root();
        if numbers.proven() {
            Outcome::Proven
        } else if numbers.disproven() {
            Outcome::Disproven
        } else {
            Outcome::Unknown
        }
    }

    fn search_root(&mut self) -> Numbers {
        if let Some(win) = self.game.settled() {
            return Numbers::settled(win);
        }
        let key = self.game.key();
        if let Some((n, _)) = self.table.get(key) {
            if n.solved() {
                return n;
            }
        }
        self.aborted = false;
        self.mid(key, INF, INF)
    }

    /// The child's numbers: settled, stored, or initial.
    fn evaluate(&mut self, m: G::Move) -> Child<G::Move> {
        self.stats.evaluations += 1;
        self.game.play(m);
        let child = match self.game.settled() {
            Some(win) => Child { m, key: 0, numbers: Numbers::settled(win), fixed: true },
            None => {
                let key = self.game.key();
                let numbers = match self.table.get(key) {
                    Some((n, _)) => n,
                    None => self.game.initial(),
                };
                Child { m, key, numbers, fixed: false }
            }
        };
        self.game.undo(m);
        child
    }

    /// Nagai's MID at the current position (key `key`, not settled): searches until its
    /// proof number reaches `th_pn` or its disproof number `th_dn`; stores and returns them.
    fn mid(&mut self, key: u128, th_pn: u32, th_dn: u32) -> Numbers {
        self.stats.expansions += 1;
        self.published();
        let work_before = self.stats.expansions;
        let prior_work = self.table.get(key).map_or(0, |(_, w)| u64::from(w));
        if self.stats.expansions > self.limit {
            self.aborted = true;
        }
        let or = self.game.prover_to_move();
        let mut moves = Vec::new();
        self.game.moves(&mut moves);
        let mut children: Vec<Child<G::Move>> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let child = self.evaluate(m);
            // A child that decides the node ends the evaluation early.
            let decisive = if or { child.numbers.proven() } else { child.numbers.disproven() };
            children.push(child);
            if decisive {
                break;
            }
        }
        let mut numbers;
        loop {
            // The node's numbers from its children's, and the best child with the second best
            // number.
            let (mut best, mut first, mut second) = (0usize, INF, INF);
            let mut sum = 0u32;
            for (i, c) in children.iter_mut().enumerate() {
                if !c.fixed {
                    if let Some((n, _)) = self.table.get(c.key) {
                        c.numbers = n;
                    }
                }
                // The number minimised at this node, and the one summed.
                let (least, summed) =
                    if or { (c.numbers.pn, c.numbers.dn) } else { (c.numbers.dn, c.numbers.pn) };
                sum = add(sum, summed);
                if least < first {
                    (second, first, best) = (first, least, i);
                } else if least < second {
                    second = least;
                }
            }
            if children.is_empty() {
                // No moves but not settled: the family's settled() must have answered.
                first = INF;
                sum = 0;
            }
            numbers =
                if or { Numbers { pn: first, dn: sum } } else { Numbers { pn: sum, dn: first } };
            if numbers.pn >= th_pn || numbers.dn >= th_dn || self.aborted {
                break;
            }
            // The child's thresholds: the number minimised here may grow to the second best
            // child's (times 1 + epsilon), the number summed here as far as the parent's
            // threshold allows.
            let child = children[best];
            let (th_min, th_sum) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let child_summed = if or { child.numbers.dn } else { child.numbers.pn };
            let child_th_min = epsilon_threshold(th_min, second);
            let child_th_sum =
                if th_sum == INF { INF } else { add(th_sum - sum.min(th_sum), child_summed) };
            let (cth_pn, cth_dn) =
                if or { (child_th_min, child_th_sum) } else { (child_th_sum, child_th_min) };
            self.game.play(child.m);
            let found = self.mid(child.key, cth_pn, cth_dn);
            self.game.undo(child.m);
            children[best].numbers = found;
        }
        let work = prior_work + (self.stats.expansions - work_before) + 1;
        self.table.put(key, numbers, work);
        numbers
    }

    /// Searches the current position to the end by plain depth-first search (the boolean
    /// alpha-beta of a threshold test) with the same table, or to the limit: see
    /// [`Engine::DepthFirst`]. The table then holds the solved positions, so
    /// [`Search::extract`] walks the proof as after [`Search::solve`].
    pub fn solve_depth_first(&mut self) -> Outcome {
        self.aborted = false;
        self.first_won = true;
        match self.depth_first() {
            _ if self.aborted => Outcome::Unknown,
            true => Outcome::Proven,
            false => Outcome::Disproven,
        }
    }

    /// Whether the prover wins the current position; meaningless once `aborted` is set.
    fn depth_first(&mut self) -> bool {
        if let Some(win) = self.game.settled() {
            return win;
        }
        let key = self.game.key();
        if let Some((n, _)) = self.table.get(key) {
            if n.solved() {
                return n.proven();
            }
        }
        self.stats.expansions += 1;
        self.published();
        if self.stats.expansions > self.limit {
            self.aborted = true;
            return false;
        }
        let work_before = self.stats.expansions;
        let or = self.game.prover_to_move();
        let mut moves = Vec::new();
        self.game.moves(&mut moves);
        // At the prover's positions one winning move decides, at the other side's one
        // refutation; with no decisive move the position goes to the side not moving.
        let mut won = !or;
        for m in moves {
            self.stats.evaluations += 1;
            self.game.play(m);
            let child = self.depth_first();
            self.game.undo(m);
            if self.aborted {
                return false;
            }
            if child == or {
                won = or;
                break;
            }
        }
        let work = self.stats.expansions - work_before + 1;
        self.table.put(key, Numbers::settled(won), work);
        won
    }

    /// The current position's numbers, searched to the end (proven or disproven) if the table
    /// does not have them solved; `None` past the limit.
    fn solved_numbers(&mut self) -> Option<Numbers> {
        if let Some(win) = self.game.settled() {
            return Some(Numbers::settled(win));
        }
        let key = self.game.key();
        if let Some((n, _)) = self.table.get(key) {
            if n.solved() {
                return Some(n);
            }
        }
        let n = self.mid(key, INF, INF);
        if self.aborted || !n.solved() {
            return None;
        }
        Some(n)
    }

    /// Walks the proof that `winner` wins from the current position (`true`: the prover, whose
    /// win must be proven; `false`: the other side, the position disproven), handing each
    /// position of it to `visit` once (by key), with the winner's chosen move at its positions
    /// (`Some`) or `None` where the loser moves (every move is followed) or the game is over.
    /// Parts of the proof the table lost are searched again. `Err` past the limit, or if a
    /// position the proof needs turns out not solved for the winner (a key collision: the
    /// family's keys are not canonical). Returns the positions visited.
    pub fn extract(
        &mut self,
        winner: bool,
        visit: &mut dyn FnMut(&mut G, Option<G::Move>),
    ) -> Result<u64, String> {
        let mut seen: std::collections::HashSet<u128, FxBuild> = Default::default();
        let mut visited = 0u64;
        self.aborted = false;
        self.extract_at(winner, &mut seen, &mut visited, visit)?;
        Ok(visited)
    }

    /// Whether `numbers` are a win for `winner`.
    fn won(numbers: Numbers, winner: bool) -> bool {
        if winner {
            numbers.proven()
        } else {
            numbers.disproven()
        }
    }

    fn extract_at(
        &mut self,
        winner: bool,
        seen: &mut std::collections::HashSet<u128, FxBuild>,
        visited: &mut u64,
        visit: &mut dyn FnMut(&mut G, Option<G::Move>),
    ) -> Result<(), String> {
        if self.game.is_over() {
            if self.game.settled() != Some(winner) {
                return Err("the proof reaches a final position its winner does not win".into());
            }
            if seen.insert(self.game.key()) {
                *visited += 1;
                visit(&mut self.game, None);
            }
            return Ok(());
        }
        if !seen.insert(self.game.key()) {
            return Ok(());
        }
        *visited += 1;
        let mut moves = Vec::new();
        self.game.moves(&mut moves);
        if self.game.prover_to_move() == winner {
            // The winning child with the least work in the table (a small proof; after a
            // depth-first search the first), else the first the search wins.
            let mut best: Option<(u32, G::Move)> = None;
            for &m in &moves {
                self.game.play(m);
                let found = match self.game.settled() {
                    Some(w) if w == winner => Some(0),
                    Some(_) => None,
                    None => {
                        let key = self.game.key();
                        self.table.get(key).filter(|&(n, _)| Self::won(n, winner)).map(|(_, w)| w)
                    }
                };
                self.game.undo(m);
                if let Some(w) = found {
                    if best.is_none_or(|(b, _)| w < b) {
                        best = Some((w, m));
                    }
                    if self.first_won {
                        break;
                    }
                }
            }
            let chosen = match best {
                Some((_, m)) => m,
                None => {
                    let mut chosen = None;
                    for &m in &moves {
                        self.game.play(m);
                        let n = self.solved_numbers();
                        self.game.undo(m);
                        match n {
                            None => return Err("the search limit was reached".into()),
                            Some(n) if Self::won(n, winner) => {
                                chosen = Some(m);
                                break;
                            }
                            Some(_) => {}
                        }
                    }
                    chosen.ok_or("a position of the proof has no winning move (key collision?)")?
                }
            };
            visit(&mut self.game, Some(chosen));
            self.game.play(chosen);
            let below = self.extract_at(winner, seen, visited, visit);
            self.game.undo(chosen);
            below
        } else {
            visit(&mut self.game, None);
            for m in moves {
                self.game.play(m);
                let below = match self.solved_numbers() {
                    None => Err("the search limit was reached".to_string()),
                    Some(n) if !Self::won(n, winner) => {
                        Err("a reply of the proof's loser is not refuted (key collision?)".into())
                    }
                    Some(_) => self.extract_at(winner, seen, visited, visit),
                };
                self.game.undo(m);
                below?;
            }
            Ok(())
        }
    }
}

/// The hasher of the extraction's visited set.
pub type FxBuild = std::hash::BuildHasherDefault<rustc_hash::FxHasher>;

/// A scored game's value by threshold tests: `test(t)` answers whether W can reach a margin
/// of at least t (`None`: it could not tell within its limit). Starting from `guess`, moves up
/// while the test holds and down while it fails, within `low..=high` (the value is known to
/// lie there). Returns the value, or `None` when a test could not tell.
pub fn value_by_tests(
    guess: i64,
    low: i64,
    high: i64,
    test: &mut dyn FnMut(i64) -> Option<bool>,
) -> Option<i64> {
    let mut t = guess.clamp(low, high);
    if test(t)? {
        // value >= t: raise until a test fails.
        while t < high {
            if !test(t + 1)? {
                return Some(t);
            }
            t += 1;
        }
        Some(high)
    } else {
        // value < t: lower until a test holds.
        while t > low {
            t -= 1;
            if test(t)? {
                return Some(t);
            }
        }
        Some(low)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A take-away game as a [`Prover`]: a heap of `n` tokens, a move takes 1 to 3 (or 1 and 4
    /// in `odd` mode), whoever cannot move loses. The prover is the first player.
    struct Subtraction {
        heap: u32,
        take: &'static [u32],
        moved: u32,
    }

    impl Prover for Subtraction {
        type Move = u32;
        fn key(&mut self) -> u128 {
            u128::from(self.heap) << 1 | u128::from(self.moved % 2)
        }
        fn prover_to_move(&self) -> bool {
            self.moved.is_multiple_of(2)
        }
        fn settled(&mut self) -> Option<bool> {
            (self.heap < self.take[0]).then(|| !self.prover_to_move())
        }
        fn moves(&mut self, out: &mut Vec<u32>) {
            out.extend(self.take.iter().copied().filter(|&t| t <= self.heap));
        }
        fn play(&mut self, m: u32) {
            self.heap -= m;
            self.moved += 1;
        }
        fn undo(&mut self, m: u32) {
            self.heap += m;
            self.moved -= 1;
        }
    }

    /// The first player of subtraction games wins exactly on the heaps the recurrence gives,
    /// by either engine; the extracted proof follows winning moves only and answers every
    /// reply; a small table (32 clusters) gives the same answers.
    #[test]
    fn df_pn_agrees_with_the_recurrence_on_subtraction_games() {
        for take in [&[1u32, 2, 3][..], &[1, 4], &[2, 3, 7]] {
            let mut wins = [false; 60];
            for h in 0..60usize {
                wins[h] = take.iter().any(|&t| t as usize <= h && !wins[h - t as usize]);
            }
            for (bytes, engine) in [(1u64 << 20, Engine::Dfpn), (4096, Engine::Dfpn)]
                .into_iter()
                .chain([(1 << 20, Engine::DepthFirst), (4096, Engine::DepthFirst)])
            {
                let mut table = Table::new(bytes);
                for h in 0..60u32 {
                    let game = Subtraction { heap: h, take, moved: 0 };
                    let mut search = Search::new(game, &mut table);
                    let outcome = search.solve_by(engine);
                    let want = if wins[h as usize] { Outcome::Proven } else { Outcome::Disproven };
                    assert_eq!(outcome, want, "take {take:?}, heap {h}");
                    // The proof of whoever wins: the winner's chosen moves leave a lost
                    // heap, the loser's positions are lost heaps.
                    let winner = outcome == Outcome::Proven;
                    {
                        let mut ok = true;
                        search
                            .extract(winner, &mut |g, chosen| {
                                let winner_moves = g.prover_to_move() == winner;
                                if let Some(m) = chosen {
                                    ok &= winner_moves && !wins[(g.heap - m) as usize];
                                } else if g.heap >= take[0] {
                                    ok &= !winner_moves && !wins[g.heap as usize];
                                }
                            })
                            .unwrap();
                        assert!(ok, "take {take:?}, heap {h}");
                    }
                }
            }
        }
    }

    /// Threshold tests find the value from any guess.
    #[test]
    fn value_by_tests_finds_the_value_from_any_guess() {
        for value in -5..=5i64 {
            for guess in -7..=7 {
                let mut tests = 0;
                let found = value_by_tests(guess, -6, 6, &mut |t| {
                    tests += 1;
                    Some(value >= t)
                });
                assert_eq!(found, Some(value));
                assert!(tests <= 2 + (guess - value).unsigned_abs() as usize);
            }
        }
        assert_eq!(value_by_tests(0, -3, 3, &mut |_| None), None);
    }

    /// The table never grows: a million stores into a small table keep its size, and the
    /// most worked entries survive.
    #[test]
    fn the_table_is_bounded_and_keeps_the_most_worked_entries() {
        let mut table = Table::new(64 * 1024);
        let bytes = table.bytes();
        assert!(bytes <= 64 * 1024);
        table.put(7, Numbers::PROVEN, 1_000_000);
        for k in 100..1_000_100u128 {
            table.put(k, Numbers::UNIT, 1);
        }
        assert_eq!(table.bytes(), bytes);
        assert_eq!(table.get(7).map(|(n, _)| n), Some(Numbers::PROVEN));
        assert!(table.replaced > 900_000);
    }
}

//! The multi-round Voronoi game on a path, abstracted to typed gaps, and the replay of a
//! `voronoi-path-value` certificate.
//!
//! # The gap abstraction (the lemma "path gaps")
//!
//! On the path P_N a position is cut by its stones into gaps: maximal runs of empty vertices.
//! Each gap is typed by what bounds it:
//!
//! - `F`: the whole empty path (only before the first move);
//! - `EW`, `EB`: between a path end and a W (B) stone;
//! - `WW`, `BB`, `WB`: between two stones (W and W, B and B, W and B in either order).
//!
//! Scores and all future play depend only on the multiset of typed gaps (length-0 gaps
//! dropped), which is therefore the abstract state; N and the number of rounds n are fixed per
//! game, and the player to move follows from the number of stones placed, N minus the empty
//! vertices (W moves when that number is even; the game ends at 2n).
//!
//! - Score: every vertex of an `EW` or `WW` gap is W's, of an `EB` or `BB` gap B's, a `WB` gap
//!   splits in two equal halves (its odd middle vertex is neutral), an `F` gap is neutral (no
//!   stone reaches it). Every stone is its owner's vertex. W's margin is therefore the sum of
//!   the `EW` and `WW` lengths minus the `EB` and `BB` lengths, plus (W's stones - B's stones),
//!   which is 0 when the game ends.
//! - Moves: a stone at offset i (0-based) of a gap of length g splits it into a gap of length
//!   i and one of length g - 1 - i. Offsets count from the path end in `EW`/`EB`, from the W
//!   side in `WB`, and from either side in `F`, `WW`, `BB` (reflection maps one onto the other).
//!
//! The checker relies on this lemma ([`crate::TRUSTED_PATH_GAPS`]); the tests below compare
//! the abstract score with the reference rules ([`crate::voronoi::rules::score`]) on every position
//! of every path with at most 9 vertices, and the abstract successors with the canonical forms
//! of the concrete ones.
//!
//! # Text forms
//!
//! A state is its gaps, each as type and length (`EW3`), separated by single spaces, in
//! canonical order: by type (`F`, `EW`, `EB`, `WW`, `BB`, `WB`), then by length. `EW3 WB5 BB2`
//! is refused with a hint that it should read `EW3 BB2 WB5`. A move is a gap of the state and
//! an offset: `WB5@2`.
//!
//! # Certificates
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "voronoi-path-value",
//!  "vertices": 4, "rounds": 1, "value": 0,
//!  "white": [["F4", "F4@1"]],
//!  "black": [["EW1 EW2", "EW2@0"], ...]}
//! ```
//!
//! `white` is W's strategy (its move at each state where it is to move), `black` B's. The
//! checker replays each over the abstract game DAG with an explicit stack, each state expanded
//! once: at the owner's states it plays the listed move (which must be legal), at the
//! opponent's states it tries every move (every gap, every offset), at final states it scores.
//! W's strategy must give W a margin of at least `value` in every final state it reaches, B's
//! at most `value`: together they fix the game's value.

use crate::base::budget::Budget;
use crate::base::fingerprint::Fingerprints;
use crate::replay::{replay, Node, Rules};
use crate::verdict::{reject, Claim, Theorem, Verdict};
use crate::voronoi::instance::MultiRoundSpec;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// Work units per state held or built besides its gaps (its vector and table entry).
const STATE_COST: u64 = 64;

/// Work units per gap of a state held or built.
const GAP_COST: u64 = 24;

/// What bounds a gap. The order is the canonical order of the text form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GapKind {
    /// The whole empty path.
    Free,
    /// A path end and a W stone.
    EndW,
    /// A path end and a B stone.
    EndB,
    /// Two W stones.
    WW,
    /// Two B stones.
    BB,
    /// A W stone and a B stone.
    WB,
}

impl GapKind {
    /// All kinds, in canonical order.
    pub const ALL: [GapKind; 6] =
        [GapKind::Free, GapKind::EndW, GapKind::EndB, GapKind::WW, GapKind::BB, GapKind::WB];

    /// The kind's name in the text form.
    pub fn name(self) -> &'static str {
        match self {
            GapKind::Free => "F",
            GapKind::EndW => "EW",
            GapKind::EndB => "EB",
            GapKind::WW => "WW",
            GapKind::BB => "BB",
            GapKind::WB => "WB",
        }
    }

    /// W's share minus B's share of one vertex of a gap of this kind in a final position
    /// (`WB` counts 0: its halves cancel).
    pub fn sign(self) -> i64 {
        match self {
            GapKind::EndW | GapKind::WW => 1,
            GapKind::EndB | GapKind::BB => -1,
            GapKind::Free | GapKind::WB => 0,
        }
    }
}

/// A stone's owner, as a gap side: true for W.
fn between(a_white: bool, b_white: bool) -> GapKind {
    match (a_white, b_white) {
        (true, true) => GapKind::WW,
        (false, false) => GapKind::BB,
        _ => GapKind::WB,
    }
}

/// A typed gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Gap {
    pub kind: GapKind,
    pub len: usize,
}

impl fmt::Display for Gap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.name(), self.len)
    }
}

impl Gap {
    /// Parses `EW3` (a kind, then a length >= 1 without leading zeros).
    pub fn parse(token: &str) -> Result<Gap, String> {
        let kind = GapKind::ALL
            .iter()
            .copied()
            // "F" is a prefix of nothing else, and the two-letter names are distinct.
            .find(|k| {
                token.starts_with(k.name())
                    && token[k.name().len()..].chars().next().is_some_and(|c| c.is_ascii_digit())
            })
            .ok_or_else(|| {
                format!("'{token}' is not a gap (a type F, EW, EB, WW, BB or WB, then a length)")
            })?;
        let digits = &token[kind.name().len()..];
        if !digits.chars().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            fail!("'{token}': the length must be a positive number without leading zeros");
        }
        let len =
            digits.parse::<usize>().map_err(|_| format!("'{token}': the length is too large"))?;
        Ok(Gap { kind, len })
    }

    /// The two gaps left when `white` (or B) places a stone at `offset` (see the module docs
    /// for the side offsets count from). Either may have length 0.
    pub fn split(self, offset: usize, white: bool) -> (Gap, Gap) {
        debug_assert!(offset < self.len);
        let (left, right) = match self.kind {
            GapKind::Free => {
                let end = if white { GapKind::EndW } else { GapKind::EndB };
                (end, end)
            }
            GapKind::EndW | GapKind::EndB => (
                if white { GapKind::EndW } else { GapKind::EndB },
                between(white, self.kind == GapKind::EndW),
            ),
            GapKind::WW => (between(true, white), between(white, true)),
            GapKind::BB => (between(false, white), between(white, false)),
            GapKind::WB => (between(true, white), between(white, false)),
        };
        (Gap { kind: left, len: offset }, Gap { kind: right, len: self.len - 1 - offset })
    }
}

/// An abstract state: the sorted multiset of gaps of positive length.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PathState {
    gaps: Vec<Gap>,
}

impl fmt::Display for PathState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, g) in self.gaps.iter().enumerate() {
            if k > 0 {
                write!(f, " ")?;
            }
            write!(f, "{g}")?;
        }
        Ok(())
    }
}

impl PathState {
    /// The canonical state of these gaps (drops length 0, sorts).
    pub fn new(mut gaps: Vec<Gap>) -> PathState {
        gaps.retain(|g| g.len > 0);
        gaps.sort_unstable();
        PathState { gaps }
    }

    /// The empty path of `vertices` vertices.
    pub fn start(vertices: usize) -> PathState {
        PathState::new(vec![Gap { kind: GapKind::Free, len: vertices }])
    }

    /// The state of a concrete position on a path (`.` empty, `W`, `B`, one byte per vertex
    /// in path order).
    pub fn of_line(position: &[u8]) -> PathState {
        let mut gaps = Vec::new();
        // The stone before the current run: None at the path's start.
        let mut before: Option<bool> = None;
        let mut run = 0;
        for &c in position {
            if c == b'.' {
                run += 1;
                continue;
            }
            let white = c == b'W';
            let kind = match before {
                None if white => GapKind::EndW,
                None => GapKind::EndB,
                Some(b) => between(b, white),
            };
            gaps.push(Gap { kind, len: run });
            run = 0;
            before = Some(white);
        }
        let kind = match before {
            None => GapKind::Free,
            Some(true) => GapKind::EndW,
            Some(false) => GapKind::EndB,
        };
        gaps.push(Gap { kind, len: run });
        PathState::new(gaps)
    }

    /// Parses the canonical text form (see the module docs); anything else is an error.
    pub fn parse(text: &str) -> Result<PathState, String> {
        let gaps = if text.is_empty() {
            Vec::new()
        } else {
            text.split(' ')
                .map(Gap::parse)
                .collect::<Result<Vec<_>, _>>()
                .map_err(|why| format!("state '{text}': {why}"))?
        };
        let state = PathState::new(gaps);
        let canonical = state.to_string();
        ensure!(
            canonical == text,
            "state '{text}' is not in canonical form (gaps sorted by type F, EW, EB, WW, BB, \
                 WB, then length, single spaces): write '{canonical}'"
        );
        Ok(state)
    }

    /// The gaps, sorted.
    pub fn gaps(&self) -> &[Gap] {
        &self.gaps
    }

    /// The number of empty vertices.
    pub fn empty(&self) -> usize {
        self.gaps.iter().map(|g| g.len).sum()
    }

    /// W's margin from the gaps alone: W's gap vertices minus B's. In a final position the
    /// stones cancel (n each), so this is W's margin.
    pub fn gap_margin(&self) -> i64 {
        self.gaps.iter().map(|g| g.kind.sign() * g.len as i64).sum()
    }

    /// The state after `white` (or B) places a stone at `offset` of `gap`, which must be a gap
    /// of this state with `offset < gap.len`.
    pub fn play(&self, gap: Gap, offset: usize, white: bool) -> Result<PathState, String> {
        let at = self
            .gaps
            .iter()
            .position(|&g| g == gap)
            .ok_or_else(|| format!("there is no gap {gap} in '{self}'"))?;
        ensure!(
            offset < gap.len,
            "offset {offset} is outside gap {gap} (offsets 0 to {})",
            gap.len - 1
        );
        let (a, b) = gap.split(offset, white);
        let mut gaps = self.gaps.clone();
        gaps.swap_remove(at);
        gaps.push(a);
        gaps.push(b);
        Ok(PathState::new(gaps))
    }

    /// The number of moves [`PathState::moves`] lists, without listing them.
    pub fn move_count(&self) -> u64 {
        self.gaps
            .iter()
            .enumerate()
            .filter(|&(k, g)| k == 0 || self.gaps[k - 1] != *g)
            .map(|(_, g)| g.len as u64)
            .sum()
    }

    /// Every move, as (gap, offset): each distinct gap once, every offset in it.
    pub fn moves(&self) -> impl Iterator<Item = (Gap, usize)> + '_ {
        self.gaps
            .iter()
            .enumerate()
            .filter(|&(k, g)| k == 0 || self.gaps[k - 1] != *g)
            .flat_map(|(_, &g)| (0..g.len).map(move |i| (g, i)))
    }
}

/// A move's text form: `WB5@2`.
pub fn move_text(gap: Gap, offset: usize) -> String {
    format!("{gap}@{offset}")
}

/// Parses `WB5@2`.
pub fn parse_move(text: &str) -> Result<(Gap, usize), String> {
    let (gap, offset) = text
        .split_once('@')
        .ok_or_else(|| format!("move '{text}' is not of the form GAP@OFFSET (e.g. WB5@2)"))?;
    let gap = Gap::parse(gap).map_err(|why| format!("move '{text}': {why}"))?;
    if offset.is_empty()
        || !offset.chars().all(|c| c.is_ascii_digit())
        || (offset.len() > 1 && offset.starts_with('0'))
    {
        fail!("move '{text}': the offset must be a number without leading zeros");
    }
    let offset =
        offset.parse::<usize>().map_err(|_| format!("move '{text}': the offset is too large"))?;
    Ok((gap, offset))
}

/// Certificate kind `voronoi-path-value`: the value of VG(P_N, n), fixed by W's and B's
/// strategies over abstract states.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathValue {
    /// N, the path's vertex count.
    pub vertices: usize,
    /// n, the rounds.
    pub rounds: usize,
    /// W's margin under optimal play.
    pub value: i64,
    /// W's strategy: (state, move) for states where W is to move.
    pub white: Vec<(String, String)>,
    /// B's strategy: (state, move) for states where B is to move.
    pub black: Vec<(String, String)>,
}

/// What one strategy's replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PathReport {
    /// States expanded (each once), final states included.
    pub states: u64,
    /// Final states scored.
    pub leaves: u64,
    /// W's smallest (W's strategy) or largest (B's) margin over the final states reached.
    pub extreme_margin: Option<i64>,
}

/// Replays one strategy of VG(P_`vertices`, `rounds`): W's (`white`) must guarantee W a margin
/// of at least `value`, B's at most `value`. Errors name the state that failed.
pub fn check_path_strategy(
    vertices: usize,
    rounds: usize,
    white: bool,
    moves: &[(String, String)],
    value: i64,
    budget: &mut Budget,
) -> Result<PathReport, String> {
    // `rounds` comes from the file: compare without computing 2 * rounds, which could wrap.
    if rounds == 0 || rounds > vertices / 2 {
        fail!("{rounds} rounds do not fit a path of {vertices} vertices (need 1 <= 2n <= N)");
    }
    // The table's room first, then each entry's gaps as they are parsed.
    budget.charge_each(moves.len() as u64, STATE_COST, "reading the strategy")?;
    let mut table: HashMap<PathState, (Gap, usize)> = HashMap::with_capacity(moves.len());
    for (k, (state, m)) in moves.iter().enumerate() {
        let at = format!("entry {k}");
        budget.charge(4 * (state.len() + m.len()) as u64, "reading the strategy")?;
        let s = PathState::parse(state).map_err(|why| format!("{at}: {why}"))?;
        let m = parse_move(m).map_err(|why| format!("{at} (state '{state}'): {why}"))?;
        if table.insert(s, m).is_some() {
            fail!("{at}: state '{state}' is listed twice");
        }
    }
    let mut walk = Walk {
        vertices,
        rounds,
        white,
        value,
        table,
        prints: Fingerprints::new(),
        path: Vec::new(),
        extreme: None,
    };
    walk.enter(PathState::start(vertices));
    let walked = replay(&mut walk, budget)?;
    Ok(PathReport { states: walked.positions, leaves: walked.leaves, extreme_margin: walk.extreme })
}

/// The replay of one side's strategy over gap states: the current one is the last of `path`.
struct Walk {
    vertices: usize,
    rounds: usize,
    /// Whether the strategy is W's.
    white: bool,
    value: i64,
    table: HashMap<PathState, (Gap, usize)>,
    prints: Fingerprints,
    path: Vec<(PathState, u128)>,
    extreme: Option<i64>,
}

impl Walk {
    fn enter(&mut self, state: PathState) {
        let key = self.prints.of(&state);
        self.path.push((state, key));
    }

    fn state(&self) -> &PathState {
        &self.path[self.path.len() - 1].0
    }
}

impl Rules for Walk {
    type Move = (Gap, usize);

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1].1
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<(Gap, usize)>, String> {
        let (white, value) = (self.white, self.value);
        let state = self.state();
        let state_cost = STATE_COST + GAP_COST * state.gaps.len() as u64;
        budget.charge(state_cost, "replaying gap states")?;
        let stones = self.vertices - state.empty();
        if stones == 2 * self.rounds {
            let m = state.gap_margin();
            ensure!(
                !white || m >= value,
                "the final state '{state}' gives W a margin of {m}, below {value}"
            );
            ensure!(
                white || m <= value,
                "the final state '{state}' gives W a margin of {m}, above {value}"
            );
            self.extreme = Some(match self.extreme {
                None => m,
                Some(e) if white => e.min(m),
                Some(e) => e.max(m),
            });
            return Ok(Node::Leaf);
        }
        if stones.is_multiple_of(2) == white {
            let Some(&(gap, offset)) = self.table.get(state) else {
                fail!("no move for state '{state}'");
            };
            return Ok(Node::Moves(vec![(gap, offset)]));
        }
        // Every offset of every distinct gap: each child is built and hashed.
        budget.charge_each(state.move_count(), state_cost + 8, "listing the opponent's moves")?;
        // Explored last first, as the replay before the engine did (the first failure found
        // is the one reported).
        let mut moves: Vec<(Gap, usize)> = state.moves().collect();
        moves.reverse();
        Ok(Node::Moves(moves))
    }

    fn play(&mut self, (gap, offset): (Gap, usize), _: &mut Budget) -> Result<(), String> {
        let state = self.state();
        let mover_white = (self.vertices - state.empty()).is_multiple_of(2);
        let next = state.play(gap, offset, mover_white).map_err(|why| {
            format!("at state '{state}' the move {} is illegal: {why}", move_text(gap, offset))
        })?;
        self.enter(next);
        Ok(())
    }

    fn undo(&mut self, _: (Gap, usize)) {
        self.path.pop();
    }
}

/// Checks a value certificate for VG(P_`vertices`, `rounds`): the sizes must match, then both
/// strategies are replayed. Returns W's and B's reports.
pub fn check_path_value(
    vertices: usize,
    rounds: usize,
    certificate: &PathValue,
    budget: &mut Budget,
) -> Result<(PathReport, PathReport), String> {
    if certificate.vertices != vertices || certificate.rounds != rounds {
        fail!(
            "the certificate is for N = {}, n = {}, the instance is a path of {vertices} \
             vertices with {rounds} rounds",
            certificate.vertices,
            certificate.rounds
        );
    }
    let v = certificate.value;
    let white = check_path_strategy(vertices, rounds, true, &certificate.white, v, budget)
        .map_err(|e| format!("W's strategy: {e}"))?;
    let black = check_path_strategy(vertices, rounds, false, &certificate.black, v, budget)
        .map_err(|e| format!("B's strategy: {e}"))?;
    Ok((white, black))
}

/// The path's vertices in order, if `graph` is a path (connected, N - 1 edges, degrees <= 2,
/// N >= 1); otherwise why not.
pub fn path_order(graph: &crate::base::graph::Graph) -> Result<Vec<usize>, String> {
    let n = graph.len();
    if n == 0 {
        return Err("the graph has no vertex".into());
    }
    ensure!(
        graph.edge_count() == n - 1,
        "the graph is not a path: {} edges on {n} vertices (a path has {})",
        graph.edge_count(),
        n - 1
    );
    if let Some(v) = (0..n).find(|&v| graph.neighbours(v).len() > 2) {
        fail!(
            "the graph is not a path: vertex '{}' has {} neighbours",
            graph.name(v),
            graph.neighbours(v).len()
        );
    }
    // N - 1 edges and connected: a tree; with degrees <= 2, a path. Walk it from an end.
    let start = (0..n).find(|&v| graph.neighbours(v).len() <= 1).unwrap_or(0);
    let mut order = vec![start];
    let mut seen = vec![false; n];
    seen[start] = true;
    while let Some(&next) =
        graph.neighbours(*order.last().unwrap_or(&start)).iter().find(|&&w| !seen[w])
    {
        seen[next] = true;
        order.push(next);
    }
    ensure!(
        order.len() == n,
        "the graph is not a path: it is not connected ('{}' is not reached from '{}')",
        graph.name((0..n).find(|&v| !seen[v]).unwrap_or(0)),
        graph.name(start)
    );
    Ok(order)
}

impl Claim for PathValue {
    fn claim(&self) -> String {
        format!(
            "the value of VG(P_{}, {}) (W's margin) is {}",
            self.vertices, self.rounds, self.value
        )
    }
}

/// Registry entry for `voronoi-path-value`: the instance must be a path with no start stones.
pub fn value_verdict(spec: &MultiRoundSpec, value: &PathValue, budget: &mut Budget) -> Verdict {
    let claim = value.claim();
    let (game, mut work) = match crate::voronoi::multi_round::validated(spec, budget) {
        Ok(found) => found,
        Err(err) => return Verdict::invalid(claim, err),
    };
    if let Err(why) = path_order(&game.graph) {
        return reject(
            claim,
            format!("a voronoi-path-value certificate needs a path: {why}"),
            work,
        );
    }
    if game.start.iter().any(|&c| c != b'.') {
        let why = "a voronoi-path-value certificate needs a game without start stones";
        return reject(claim, why.into(), work);
    }
    match check_path_value(game.graph.len(), game.rounds, value, budget) {
        Ok((white, black)) => {
            work.positions = Some(white.states + black.states);
            work.leaves = Some(white.leaves + black.leaves);
            let reason = format!(
                "W's strategy guarantees a margin of at least {v} ({} gap states) and B's \
                 holds W to at most {v} ({} gap states), each replayed against every \
                 opponent move",
                white.states,
                black.states,
                v = value.value
            );
            Verdict::accept(claim, reason, work, &[Theorem::PathGaps])
        }
        Err(why) => reject(claim, why, work),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;
    use crate::base::graph::Graph;
    use crate::voronoi::rules::score;
    use std::collections::BTreeSet;
    use std::collections::HashSet;

    /// The path P_n as a graph (vertices numbered from 1), for this folder's tests.
    pub(crate) fn path(n: usize) -> Graph {
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        let spec = crate::format::GraphSpec::numbered(n, &edges);
        Graph::new(&spec.vertices, &spec.edges).unwrap()
    }

    /// Every assignment of `.`, `W`, `B` to `n` vertices.
    pub(crate) fn all_positions(n: usize) -> Vec<Vec<u8>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|p| {
                    [b'.', b'W', b'B'].map(|c| {
                        let mut q = p.clone();
                        q.push(c);
                        q
                    })
                })
                .collect();
        }
        out
    }

    /// The lemma, part 1: on every position of every path with N <= 9, the reference rules'
    /// margin is the gap margin plus W's stones minus B's.
    #[test]
    fn gap_score_is_the_reference_score() {
        for n in 1..=9 {
            let g = path(n);
            for p in all_positions(n) {
                let of = |c: u8| -> Vec<usize> { (0..n).filter(|&v| p[v] == c).collect() };
                let (w, b) = (of(b'W'), of(b'B'));
                let s = score(&g, &w, &b);
                let reference = s.white as i64 - s.black as i64;
                let state = PathState::of_line(&p);
                let abstract_margin = state.gap_margin() + w.len() as i64 - b.len() as i64;
                assert_eq!(
                    reference,
                    abstract_margin,
                    "{} -> '{state}'",
                    String::from_utf8_lossy(&p)
                );
                assert_eq!(state.empty(), n - w.len() - b.len());
                // The text form round-trips.
                assert_eq!(PathState::parse(&state.to_string()).unwrap(), state);
            }
        }
    }

    /// The lemma, part 2: the abstract successors of a position's state are exactly the states
    /// of its concrete successors, for either player moving.
    #[test]
    fn abstract_moves_are_the_concrete_moves() {
        for n in 1..=9 {
            for p in all_positions(n) {
                let state = PathState::of_line(&p);
                for (mark, white) in [(b'W', true), (b'B', false)] {
                    let concrete: BTreeSet<PathState> = (0..n)
                        .filter(|&v| p[v] == b'.')
                        .map(|v| {
                            let mut q = p.clone();
                            q[v] = mark;
                            PathState::of_line(&q)
                        })
                        .collect();
                    let abstract_: BTreeSet<PathState> =
                        state.moves().map(|(g, i)| state.play(g, i, white).unwrap()).collect();
                    assert_eq!(concrete, abstract_, "{}", String::from_utf8_lossy(&p));
                }
            }
        }
    }

    #[test]
    fn text_forms_are_strict() {
        let s = PathState::parse("EW3 BB2 WB5").unwrap();
        assert_eq!(s.empty(), 10);
        assert_eq!(s.gap_margin(), 1);
        assert_eq!(PathState::parse("").unwrap().gaps().len(), 0);
        for (bad, says) in [
            ("EW3 WB5 BB2", "write 'EW3 BB2 WB5'"),
            ("EW3  BB2", "not a gap"),
            ("EW03", "leading zeros"),
            ("EW0", "leading zeros"),
            ("XX3", "not a gap"),
            ("EW", "not a gap"),
            ("EW3x", "positive number"),
            (" EW3", "not a gap"),
            ("EW99999999999999999999999", "too large"),
        ] {
            let err = PathState::parse(bad).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
        assert_eq!(parse_move("WB5@2").unwrap(), (Gap { kind: GapKind::WB, len: 5 }, 2));
        for bad in ["WB5", "WB5@", "WB5@02", "WB5@x", "Q@1"] {
            assert!(parse_move(bad).is_err(), "{bad}");
        }
        let err = s.play(Gap { kind: GapKind::WB, len: 5 }, 5, true).unwrap_err();
        assert!(err.contains("outside gap WB5"), "{err}");
    }

    /// The value by plain minimax over abstract states, for the tests.
    fn value(state: &PathState, vertices: usize, rounds: usize) -> i64 {
        let stones = vertices - state.empty();
        if stones == 2 * rounds {
            return state.gap_margin();
        }
        let white = stones.is_multiple_of(2);
        let values =
            state.moves().map(|(g, i)| value(&state.play(g, i, white).unwrap(), vertices, rounds));
        if white {
            values.max().unwrap()
        } else {
            values.min().unwrap()
        }
    }

    /// An optimal strategy for one player, by minimax.
    fn optimal(vertices: usize, rounds: usize, white: bool) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let mut stack = vec![PathState::start(vertices)];
        let mut seen = HashSet::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            let stones = vertices - s.empty();
            if stones == 2 * rounds {
                continue;
            }
            let to_move_white = stones.is_multiple_of(2);
            if to_move_white == white {
                let target = value(&s, vertices, rounds);
                let (g, i) = s
                    .moves()
                    .find(|&(g, i)| {
                        value(&s.play(g, i, white).unwrap(), vertices, rounds) == target
                    })
                    .unwrap();
                out.push((s.to_string(), move_text(g, i)));
                stack.push(s.play(g, i, white).unwrap());
            } else {
                stack.extend(s.moves().map(|(g, i)| s.play(g, i, !white).unwrap()));
            }
        }
        out
    }

    fn certificate(vertices: usize, rounds: usize) -> PathValue {
        PathValue {
            vertices,
            rounds,
            value: value(&PathState::start(vertices), vertices, rounds),
            white: optimal(vertices, rounds, true),
            black: optimal(vertices, rounds, false),
        }
    }

    #[test]
    fn optimal_certificates_check() {
        for n in 2..=9 {
            for rounds in 1..=n / 2 {
                let c = certificate(n, rounds);
                let (w, b) =
                    check_path_value(n, rounds, &c, &mut Budget::new(1_000_000_000)).unwrap();
                assert_eq!(w.extreme_margin, Some(c.value));
                assert_eq!(b.extreme_margin, Some(c.value));
            }
        }
    }

    #[test]
    fn mutated_certificates_are_rejected_naming_the_state() {
        let c = certificate(7, 2);
        assert_eq!(c.value, 0);
        for delta in [1, -1] {
            let wrong = PathValue { value: c.value + delta, ..c.clone() };
            let err = check_path_value(7, 2, &wrong, &mut Budget::new(1_000_000_000)).unwrap_err();
            let who = if delta > 0 { "W's" } else { "B's" };
            assert!(err.starts_with(who) && err.contains("final state '"), "{err}");
        }
        // A missing state.
        let mut missing = c.clone();
        let (gone, _) = missing.black.remove(missing.black.len() / 2);
        let err = check_path_value(7, 2, &missing, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains(&format!("no move for state '{gone}'")), "{err}");
        // An illegal move.
        let mut illegal = c.clone();
        illegal.white[0].1 = "F7@7".into();
        let err = check_path_value(7, 2, &illegal, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("at state 'F7' the move F7@7 is illegal"), "{err}");
        illegal.white[0].1 = "EW3@0".into();
        let err = check_path_value(7, 2, &illegal, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("no gap EW3 in 'F7'"), "{err}");
        // A legal but bad first move: W at the end of P7 loses.
        let mut bad = c.clone();
        bad.white[0].1 = "F7@0".into();
        let err = check_path_value(7, 2, &bad, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("no move for state") || err.contains("below 0"), "{err}");
        // Unparseable and repeated entries.
        let mut twice = c.clone();
        twice.white.push(twice.white[0].clone());
        let err = check_path_value(7, 2, &twice, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("listed twice"), "{err}");
        let mut garbled = c.clone();
        garbled.black[0].0 = "WB1 EW2".into();
        let err = check_path_value(7, 2, &garbled, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("not in canonical form"), "{err}");
        // Sizes and limits.
        let err = check_path_value(8, 2, &c, &mut Budget::new(1_000_000_000)).unwrap_err();
        assert!(err.contains("N = 7"), "{err}");
        let err = check_path_value(7, 2, &c, &mut Budget::new(3)).unwrap_err();
        assert!(err.contains("limit"), "{err}");
        let err =
            check_path_strategy(3, 2, true, &c.white, 0, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("do not fit"), "{err}");
    }

    #[test]
    fn small_values() {
        // One round on P_N: W takes a median; odd N W wins by 1, even N a tie.
        for n in 2..=9 {
            let v = value(&PathState::start(n), n, 1);
            assert_eq!(v, if n % 2 == 1 { 1 } else { 0 }, "N = {n}");
        }
        // The paper's experiment, for small N and n >= 2.
        for n in 4..=9 {
            for rounds in 2..=n / 2 {
                assert_eq!(value(&PathState::start(n), n, rounds), 0, "N = {n}, n = {rounds}");
            }
        }
    }

    #[test]
    fn paths_are_recognised() {
        let g = path(5);
        assert_eq!(path_order(&g).unwrap().len(), 5);
        assert!(path_order(&path(1)).is_ok());
        let names: Vec<String> = ["c", "x", "y", "z"].iter().map(|s| s.to_string()).collect();
        let e = |a: &str, b: &str| (a.to_string(), b.to_string());
        let star = Graph::new(&names, &[e("c", "x"), e("c", "y"), e("c", "z")]).unwrap();
        assert!(path_order(&star).unwrap_err().contains("3 neighbours"));
        let cycle_plus = Graph::new(&names, &[e("c", "x"), e("x", "y"), e("y", "c")]).unwrap();
        assert!(path_order(&cycle_plus).unwrap_err().contains("not connected"));
        let short = Graph::new(&names, &[e("c", "x")]).unwrap();
        assert!(path_order(&short).unwrap_err().contains("1 edges"));
    }
}

//! The multi-round Voronoi game VG(P_N, n) on a path, solved over typed gap states, with a
//! `voronoi-path-value` certificate (both players' strategies) for the checker.
//!
//! The abstraction is the checker's ([`gamecert_certificates::voronoi_paths::paths`]): a position is the
//! multiset of its gaps (maximal runs of empty vertices) typed by what bounds them (`F`, `EW`,
//! `EB`, `WW`, `BB`, `WB`). It already quotients by the path's reflection and by every
//! rearrangement of the gaps, so no concrete position is ever searched.
//!
//! The search: a state is a sorted `Vec<u16>` of gap codes (`kind << 8 | length`) behind the
//! number of stones still to be placed, r (W moves when r is even). Its value depends on
//! nothing else, so one transposition table serves every (N, n) of a table: VG(P_N, n) and
//! VG(P_{N+2}, n + 1) share all states after the first moves. The table holds proven bounds
//! (lo <= value <= hi). Null-window probes ask "does W guarantee at least v?" ([`at_least`]),
//! first for v = 0 and v = 1, then stepping towards the value. Move ordering: children the table
//! already decides first, then by the margin the gaps would give if the game stopped there.
//! Offsets of symmetric gaps (`F`, `WW`, `BB`) are tried on one side only.
//!
//! The strategies are proof DAGs: from the start, the owner's states get one move that keeps
//! the bound (preferring a successor already in the DAG), the opponent's states every
//! successor. The checker replays exactly these states.
//!
//! Measured (release, `gamecert bench paths`, two cores shared with another job): the table to
//! N = 30 in 130 s, N = 34 reached in 645 s; per N, solve time, checker states (2.5 million
//! at N = 30, 9.4 million at N = 34) and table states all grow about 1.4-fold per vertex; the
//! largest single strategy at N = 34 has a million states. Peak memory 4.6 GB at N = 34.
//!
//! Size limits: the states of one game are at most [`state_bound`] (multisets of typed gaps, a
//! loose bound: 2.3 * 10^13 for N = 60 with 30 rounds). `solve` runs
//! [`PathSolver::solve_within`] under [`state_cap`] states for the table and for each strategy
//! (half the 8 GiB allowance of [`crate::base::limits`] at [`BYTES_PER_STATE`] each) and refuses the
//! instance, naming the bound and the cap, when the search passes it. Measured (release, one
//! game per run): N = 44 with 22 rounds is solved in 43 s at 0.8 GB; N = 60 with 30 rounds
//! reaches the cap and is refused after 143 s at 2.1 GB (about 125 bytes per state).
//!
//! [`at_least`]: PathSolver::at_least

use gamecert_certificates::voronoi_paths::paths::{move_text, Gap, GapKind, PathState, PathValue};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The largest path the solver takes (gap lengths are stored in 8 bits).
pub const MAX_VERTICES: usize = 200;

/// A fast non-cryptographic hasher (FxHash) for the transposition table's short keys.
#[derive(Default, Clone, Copy)]
struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u16(&mut self, v: u16) {
        self.add(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl FxHasher {
    #[inline]
    fn add(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Fx = BuildHasherDefault<FxHasher>;

/// A state: `[r, gap codes sorted ascending...]`.
type Key = Vec<u16>;

const KINDS: [GapKind; 6] = GapKind::ALL;

fn code(g: Gap) -> u16 {
    let kind = KINDS.iter().position(|&k| k == g.kind).unwrap_or(0) as u16;
    (kind << 8) | g.len as u16
}

fn gap(c: u16) -> Gap {
    Gap { kind: KINDS[usize::from(c >> 8)], len: usize::from(c & 0xff) }
}

/// W's margin from the gaps (the stones cancel at the end).
fn gap_margin(key: &[u16]) -> i64 {
    key[1..]
        .iter()
        .map(|&c| {
            let g = gap(c);
            g.kind.sign() * g.len as i64
        })
        .sum()
}

/// The state after the player to move places a stone at `offset` of the gap at `index`.
fn child(key: &[u16], index: usize, offset: usize) -> Key {
    let white = key[0].is_multiple_of(2);
    let (a, b) = gap(key[index]).split(offset, white);
    let mut next = Vec::with_capacity(key.len() + 1);
    next.push(key[0] - 1);
    next.extend(key[1..].iter().enumerate().filter(|&(k, _)| k + 1 != index).map(|(_, &c)| c));
    for g in [a, b] {
        if g.len > 0 {
            next.push(code(g));
        }
    }
    next[1..].sort_unstable();
    next
}

/// Every move of the player to move, as (gap index in the key, offset): each distinct gap once,
/// one side of a symmetric gap.
fn moves(key: &[u16]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for index in 1..key.len() {
        if index > 1 && key[index - 1] == key[index] {
            continue;
        }
        let g = gap(key[index]);
        let symmetric = matches!(g.kind, GapKind::Free | GapKind::WW | GapKind::BB);
        let last = if symmetric { (g.len - 1) / 2 } else { g.len - 1 };
        out.extend((0..=last).map(|i| (index, i)));
    }
    out
}

/// Proven bounds on a state's value.
#[derive(Clone, Copy)]
struct Bounds {
    lo: i16,
    hi: i16,
}

/// The solver with its transposition table; reuse one across games to share states.
#[derive(Default)]
pub struct PathSolver {
    table: HashMap<Key, Bounds, Fx>,
    /// States expanded by the search.
    pub nodes: u64,
    /// At most this many table states, and as many states per strategy ([`Self::solve_within`]);
    /// past it `exhausted` is set and the search unwinds with answers that are discarded.
    cap: Option<usize>,
    exhausted: bool,
}

/// Bytes per state at worst: a table entry (a vector key of up to a few dozen gap codes, its
/// heap block and the bounds, in a hash table at its lowest load), or a strategy state (the
/// walk's copy of the key and the state and move as text).
pub const BYTES_PER_STATE: u64 = 256;

/// The states `solve` allows the table and each strategy: half the 8 GiB allowance of
/// [`crate::base::limits`] at [`BYTES_PER_STATE`] each, about 16.8 million.
pub fn state_cap() -> usize {
    (crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_STATE / 2) as usize
}

/// An upper bound on the states of VG(P_`vertices`, `rounds`): after t stones, a state is a
/// multiset of at most t + 1 typed gaps (6 kinds) with lengths summing to N - t, so the bound
/// sums, over t = 0..=2n, the multisets of at most t + 1 parts of 6 colours with that sum (by
/// a knapsack over (parts, sum), O(N^3)). It ignores which kinds can occur together, so it is
/// loose, but it is a bound on the table and on each strategy. Saturates at `u128::MAX`.
pub fn state_bound(vertices: usize, rounds: usize) -> u128 {
    let n = vertices;
    let stones = (2 * rounds).min(n);
    let parts = stones + 1;
    // ways[c][s]: multisets of c parts (6 kinds, lengths >= 1) with lengths summing to s.
    let mut ways = vec![vec![0u128; n + 1]; parts + 1];
    ways[0][0] = 1;
    for len in 1..=n {
        for _kind in 0..KINDS.len() {
            for c in 1..=parts {
                for total in len..=n {
                    let add = ways[c - 1][total - len];
                    ways[c][total] = ways[c][total].saturating_add(add);
                }
            }
        }
    }
    let mut bound: u128 = 0;
    for t in 0..=stones {
        for row in ways.iter().take((t + 1).min(parts) + 1) {
            bound = bound.saturating_add(row[n - t]);
        }
    }
    bound
}

/// One solved game.
#[derive(Clone, Debug)]
pub struct PathSolution {
    pub value: i64,
    pub certificate: PathValue,
    /// States the search expanded for this game (probes and strategy extraction).
    pub nodes: u64,
}

impl PathSolver {
    pub fn new() -> Self {
        Self::default()
    }

    /// States in the transposition table.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    fn start(vertices: usize, rounds: usize) -> Key {
        vec![(2 * rounds) as u16, code(Gap { kind: GapKind::Free, len: vertices })]
    }

    fn bounds(&self, key: &Key) -> Bounds {
        self.table.get(key).copied().unwrap_or(Bounds { lo: -256, hi: 256 })
    }

    /// Does W guarantee a margin of at least `v` from `key`?
    pub fn at_least(&mut self, key: &Key, v: i64) -> bool {
        if self.exhausted {
            return false;
        }
        if key[0] == 0 {
            return gap_margin(key) >= v;
        }
        let b = self.bounds(key);
        if i64::from(b.lo) >= v {
            return true;
        }
        if i64::from(b.hi) < v {
            return false;
        }
        self.nodes += 1;
        crate::base::solved::searched(self.nodes);
        let white = key[0].is_multiple_of(2);
        let mut children: Vec<(i64, Key)> = moves(key)
            .into_iter()
            .map(|(index, offset)| {
                let c = child(key, index, offset);
                (gap_margin(&c), c)
            })
            .collect();
        // A child the table already decides settles this state at once.
        for (_, c) in &children {
            let cb = if c[0] == 0 {
                let m = gap_margin(c) as i16;
                Bounds { lo: m, hi: m }
            } else {
                self.bounds(c)
            };
            if white && i64::from(cb.lo) >= v {
                self.raise(key, v);
                return true;
            }
            if !white && i64::from(cb.hi) < v {
                self.lower(key, v - 1);
                return false;
            }
        }
        if white {
            children.sort_by_key(|c| std::cmp::Reverse(c.0));
        } else {
            children.sort_by_key(|c| c.0);
        }
        for (_, c) in &children {
            let ok = self.at_least(c, v);
            if white && ok {
                self.raise(key, v);
                return true;
            }
            if !white && !ok {
                self.lower(key, v - 1);
                return false;
            }
        }
        if white {
            self.lower(key, v - 1);
            false
        } else {
            self.raise(key, v);
            true
        }
    }

    fn raise(&mut self, key: &Key, lo: i64) {
        let e = self.table.entry(key.clone()).or_insert(Bounds { lo: -256, hi: 256 });
        e.lo = e.lo.max(lo as i16);
        self.note_size();
    }

    /// Marks the search exhausted once the table passes the cap.
    fn note_size(&mut self) {
        if self.cap.is_some_and(|cap| self.table.len() > cap) {
            self.exhausted = true;
        }
    }

    fn lower(&mut self, key: &Key, hi: i64) {
        let e = self.table.entry(key.clone()).or_insert(Bounds { lo: -256, hi: 256 });
        e.hi = e.hi.min(hi as i16);
        self.note_size();
    }

    /// The value of VG(P_`vertices`, `rounds`) by null-window probes.
    pub fn value(&mut self, vertices: usize, rounds: usize) -> Result<i64, String> {
        check_size(vertices, rounds)?;
        let start = Self::start(vertices, rounds);
        let mut v = 0;
        if self.at_least(&start, 0) {
            while self.at_least(&start, v + 1) {
                v += 1;
            }
        } else {
            v = -1;
            // (An exhausted search answers false to everything: stop, the caller discards v.)
            while !self.at_least(&start, v) && !self.exhausted {
                v -= 1;
            }
        }
        Ok(v)
    }

    /// The strategy of W (keeping the margin >= `v`) or B (keeping it <= `v`), as the states
    /// where it moves with its move, over the proof DAG.
    fn strategy(
        &mut self,
        vertices: usize,
        rounds: usize,
        white: bool,
        v: i64,
    ) -> Vec<(String, String)> {
        // W's strategy keeps "at least v"; B's keeps "not at least v + 1".
        let (target, want) = if white { (v, true) } else { (v + 1, false) };
        let start = Self::start(vertices, rounds);
        let mut seen: HashSet<Key, Fx> = HashSet::default();
        let mut out = Vec::new();
        let mut stack = vec![start];
        while let Some(key) = stack.pop() {
            if self.exhausted || self.cap.is_some_and(|cap| seen.len() > cap) {
                self.exhausted = true;
                return out;
            }
            if key[0] == 0 || !seen.insert(key.clone()) {
                continue;
            }
            let owner = (key[0].is_multiple_of(2)) == white;
            let options = moves(&key);
            if owner {
                let candidates: Vec<(usize, usize, Key)> = options
                    .into_iter()
                    .map(|(i, o)| {
                        let c = child(&key, i, o);
                        (i, o, c)
                    })
                    .collect();
                // Prefer a successor already in the DAG, then one the table proves.
                let mut pick = candidates.iter().position(|(_, _, c)| {
                    seen.contains(c) && self.decided(c, target) == Some(want)
                });
                if pick.is_none() {
                    pick = candidates
                        .iter()
                        .position(|(_, _, c)| self.decided(c, target) == Some(want));
                }
                if pick.is_none() {
                    pick = (0..candidates.len())
                        .find(|&k| self.at_least(&candidates[k].2, target) == want);
                }
                let Some(k) = pick else {
                    // Only a search cut short by the cap can miss the move; the caller then
                    // discards the strategy.
                    assert!(self.exhausted, "a state where the bound holds has a move keeping it");
                    return out;
                };
                let (i, o, c) = &candidates[k];
                out.push((state_text(&key), move_text(gap(key[*i]), *o)));
                stack.push(c.clone());
            } else {
                for (i, o) in options {
                    let c = child(&key, i, o);
                    if !seen.contains(&c) {
                        stack.push(c);
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Whether the table (or the final score) decides "at least `v`" for `key`.
    fn decided(&self, key: &Key, v: i64) -> Option<bool> {
        if key[0] == 0 {
            return Some(gap_margin(key) >= v);
        }
        let b = self.table.get(key)?;
        if i64::from(b.lo) >= v {
            Some(true)
        } else if i64::from(b.hi) < v {
            Some(false)
        } else {
            None
        }
    }

    /// [`PathSolver::solve`] with at most `cap` table states and `cap` states per strategy:
    /// `Ok(None)` once past it (the table is then cleared: its bounds may be wrong).
    pub fn solve_within(
        &mut self,
        vertices: usize,
        rounds: usize,
        cap: usize,
    ) -> Result<Option<PathSolution>, String> {
        self.cap = Some(cap);
        self.exhausted = false;
        let solution = self.solve(vertices, rounds);
        self.cap = None;
        if std::mem::take(&mut self.exhausted) {
            self.table.clear();
            return Ok(None);
        }
        solution.map(Some)
    }

    /// Even N only: B's mirror (docs/trusted.md, "B's mirror on even paths") holds W to at
    /// most 0, so one probe settles the entry. If W can hold a margin of 0, the value is 0 and
    /// W's strategy is the whole certificate to check (its `black` is empty: B's side is the
    /// lemma's); `Ok(None)` if W cannot (the value is then below 0 and only [`Self::solve`]
    /// fixes it). The probe "at least 1", which must refute every move of W's, is never run.
    pub fn solve_by_mirror(
        &mut self,
        vertices: usize,
        rounds: usize,
    ) -> Result<Option<PathSolution>, String> {
        check_size(vertices, rounds)?;
        if !vertices.is_multiple_of(2) {
            return Err(format!("B's mirror needs an even path (got {vertices} vertices)"));
        }
        let before = self.nodes;
        if !self.at_least(&Self::start(vertices, rounds), 0) {
            return Ok(None);
        }
        let white = self.strategy(vertices, rounds, true, 0);
        Ok(Some(PathSolution {
            value: 0,
            certificate: PathValue { vertices, rounds, value: 0, white, black: Vec::new() },
            nodes: self.nodes - before,
        }))
    }

    /// Solves VG(P_`vertices`, `rounds`) and builds its certificate.
    pub fn solve(&mut self, vertices: usize, rounds: usize) -> Result<PathSolution, String> {
        let before = self.nodes;
        let value = self.value(vertices, rounds)?;
        let white = self.strategy(vertices, rounds, true, value);
        let black = self.strategy(vertices, rounds, false, value);
        Ok(PathSolution {
            value,
            certificate: PathValue { vertices, rounds, value, white, black },
            nodes: self.nodes - before,
        })
    }
}

fn check_size(vertices: usize, rounds: usize) -> Result<(), String> {
    if vertices > MAX_VERTICES {
        return Err(format!(
            "the path solver takes at most {MAX_VERTICES} vertices (got {vertices})"
        ));
    }
    if rounds == 0 || 2 * rounds > vertices {
        return Err(format!(
            "{rounds} rounds do not fit a path of {vertices} vertices (need 1 <= 2n <= N)"
        ));
    }
    Ok(())
}

/// The checker's text form of a state.
fn state_text(key: &[u16]) -> String {
    PathState::new(key[1..].iter().map(|&c| gap(c)).collect()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::voronoi_paths::paths::check_path_value;

    /// B's mirror on an even path (docs/trusted.md, "B's mirror on even paths"), on every
    /// even path of 2 to 20 vertices: (1) every position B's mirror leaves is symmetric and
    /// scores a margin of exactly 0 by the checker's rules (all 3^(N/2) of them: each mirror
    /// pair empty, or W on one end and B on the other); (2) B's reply, the image of W's
    /// vertex, is always empty in a symmetric position (the involution has no fixed vertex);
    /// (3) the exact values agree: W's value is at most 0 for every number of rounds.
    #[test]
    fn bs_mirror_holds_every_even_path_to_at_most_a_tie() {
        use gamecert_certificates::base::graph::Graph;
        use gamecert_certificates::format::GraphSpec;
        use gamecert_certificates::voronoi::rules::score;
        let build = |spec: GraphSpec| Graph::new(&spec.vertices, &spec.edges).unwrap();
        let mut solver = PathSolver::new();
        for n in (2..=20usize).step_by(2) {
            let edges: Vec<(usize, usize)> = (1..n).map(|v| (v - 1, v)).collect();
            let graph = build(GraphSpec::numbered(n, &edges));
            let image = |v: usize| n - 1 - v;
            let pairs = n / 2;
            let mut symmetric = 0;
            for code in 0..3usize.pow(pairs as u32) {
                // Pair i is {i, n-1-i}: 0 empty, 1 W on i, 2 W on n-1-i (B on the image).
                let (mut white, mut black) = (Vec::new(), Vec::new());
                let mut c = code;
                for i in 0..pairs {
                    match c % 3 {
                        1 => (white.push(i), black.push(image(i))),
                        2 => (white.push(image(i)), black.push(i)),
                        _ => ((), ()),
                    };
                    c /= 3;
                }
                let s = score(&graph, &white, &black);
                assert_eq!(s.white, s.black, "n = {n}, W {white:?}, B {black:?}");
                // W's next move v (empty) leaves image(v) empty and distinct from v.
                for v in (0..n).filter(|v| !white.contains(v) && !black.contains(v)) {
                    assert_ne!(image(v), v);
                    assert!(!white.contains(&image(v)) && !black.contains(&image(v)));
                }
                symmetric += 1;
            }
            assert_eq!(symmetric, 3usize.pow(pairs as u32));
            for rounds in 1..=n / 2 {
                let value = solver.solve(n, rounds).unwrap().value;
                assert!(value <= 0, "n = {n}, {rounds} rounds: value {value}");
            }
        }
    }

    #[test]
    fn certificates_check_and_values_are_small() {
        let mut solver = PathSolver::new();
        for n in 1..=14 {
            for rounds in 1..=n / 2 {
                let s = solver.solve(n, rounds).unwrap();
                check_path_value(
                    n,
                    rounds,
                    &s.certificate,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
                let expect = if rounds == 1 && n % 2 == 1 { 1 } else { 0 };
                assert_eq!(s.value, expect, "N = {n}, n = {rounds}");
            }
        }
    }

    /// The abstract solver agrees with the exact solver over concrete positions.
    #[test]
    fn values_agree_with_the_exact_solver() {
        let mut solver = PathSolver::new();
        for n in 2..=10u64 {
            for rounds in 1..=(n as usize) / 2 {
                let game = crate::voronoi::gen::path(n, rounds).unwrap().validate().unwrap();
                let exact = crate::voronoi::exact::ExactSolver::new(&game).unwrap().solve();
                let ours = solver.solve(n as usize, rounds).unwrap();
                assert_eq!(ours.value, exact.value, "N = {n}, n = {rounds}");
            }
        }
    }

    /// The state bound covers the table and both strategies of every game to N = 12 (one
    /// solver per game, so the table holds that game's states only); a small cap stops the
    /// search, and the solver still answers correctly afterwards.
    #[test]
    fn state_bound_holds_and_the_cap_stops() {
        for n in 1..=12 {
            for rounds in 1..=n / 2 {
                let mut solver = PathSolver::new();
                let s = solver.solve(n, rounds).unwrap();
                let bound = state_bound(n, rounds);
                assert!(solver.table_len() as u128 <= bound, "N = {n}, n = {rounds}");
                assert!(s.certificate.white.len() as u128 <= bound);
                assert!(s.certificate.black.len() as u128 <= bound);
            }
        }
        let mut solver = PathSolver::new();
        assert!(solver.solve_within(14, 4, 10).unwrap().is_none());
        let again = solver.solve_within(14, 4, 1 << 24).unwrap().unwrap();
        assert_eq!(again.value, 0);
        check_path_value(
            14,
            4,
            &again.certificate,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .unwrap();
    }

    #[test]
    fn bad_sizes_are_refused() {
        let mut solver = PathSolver::new();
        assert!(solver.solve(5, 3).unwrap_err().contains("do not fit"));
        assert!(solver.solve(5, 0).is_err());
        assert!(solver.solve(201, 1).unwrap_err().contains("at most 200"));
    }
}

//! A strategy that is a rule: `voronoi-path-rule` (issue 49). The certificate names a rule and
//! the side that plays it; the checker computes the rule's moves itself and replays every
//! opponent move, as for a listed strategy ([`crate::voronoi_paths::paths`]).
//!
//! # The rules (trusted code: docs/trusted.md)
//!
//! Vertex j (1-based) of P_N covers the segment [j - 1, j] of [0, N]. The *ideal vertices* of n
//! rounds: q_i (i = 1..n) is the vertex whose segment holds the point x_i = (2i - 1)N / (2n); a
//! point on a boundary (x_i an integer k) goes to the vertex nearer the centre N/2 (k + 1 when
//! 2k < N, k when 2k > N, and k, the left one, when 2k = N). The points are N/n >= 2 apart, so
//! the n vertices are distinct.
//!
//! - **U**: while some ideal vertex is empty, take the first empty one in the order q_1, q_n,
//!   q_2, q_(n-1), ... (the two ends first, then inwards); once all are occupied (by either
//!   player), take the move of largest immediate gain: the largest increase of the mover's own
//!   margin one stone makes, ties going to the first move in the canonical move order of the
//!   gap state (gaps in canonical order, offsets ascending).
//! - **centre-out**: the same, the ideal vertices taken from the centre outwards (q_i by
//!   |2i - 1 - n|, the smaller i first on a tie).
//! - **left-to-right**: the same, in the order q_1, q_2, ..., q_n.
//!
//! The gain of a stone is computed from the gap it splits: a gap's vertices count for W (EW,
//! WW), for B (EB, BB) or for neither (F, WB, whose halves cancel), and the stone itself counts
//! one for its owner whatever it does; so the gain is the stone's 1 plus the change of the
//! signed gap lengths, and only the change decides.
//!
//! # The replay
//!
//! While some ideal vertex is empty the position is kept concretely (the rule needs to know
//! where the ideal vertices are), as a line of N bytes, and every opponent move is every empty
//! vertex. Once every ideal vertex is occupied it stays so, the rule is the greedy move, a
//! function of the gap state, and the position becomes its gap state (the lemma "path gaps",
//! [`crate::TRUSTED_PATH_GAPS`]); every opponent move is then every offset of every distinct
//! gap. Positions are visited once (fingerprints of the line or the state, tagged). At the
//! opponent's last move of the game the final margins are computed from the gap each move
//! splits, without building the final states. W's rule must give W a margin of at least 0 in
//! every final position, B's at most 0.
//!
//! Work: 64 units per position plus N per line byte or 24 per gap, and the same per opponent
//! move (its child built), charged before the moves are listed.

use crate::base::budget::Budget;
use crate::base::fingerprint::Fingerprints;
use crate::replay::{replay, Node, Rules};
use crate::verdict::{reject, Claim, Theorem, Verdict};
use crate::voronoi::instance::MultiRoundSpec;
use crate::voronoi_paths::paths::{path_order, Gap, PathReport, PathState};
use serde::{Deserialize, Serialize};

/// Work units per position held or built besides its bytes or gaps.
const STATE_COST: u64 = 64;

/// Work units per gap of a gap state held or built.
const GAP_COST: u64 = 24;

/// A rule's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PathRuleName {
    /// Ends first, then greedy.
    #[serde(rename = "U")]
    U,
    /// Centre outwards, then greedy.
    #[serde(rename = "centre-out")]
    CentreOut,
    /// Left to right, then greedy.
    #[serde(rename = "left-to-right")]
    LeftToRight,
}

impl PathRuleName {
    pub fn name(self) -> &'static str {
        match self {
            PathRuleName::U => "U",
            PathRuleName::CentreOut => "centre-out",
            PathRuleName::LeftToRight => "left-to-right",
        }
    }
}

/// The side that plays the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    #[serde(rename = "W")]
    W,
    #[serde(rename = "B")]
    B,
}

/// Certificate kind `voronoi-path-rule`: `side` playing `rule` at least ties VG(P_N, n).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathRule {
    /// N, the path's vertex count.
    pub vertices: usize,
    /// n, the rounds.
    pub rounds: usize,
    pub rule: PathRuleName,
    pub side: Side,
}

impl Claim for PathRule {
    fn claim(&self) -> String {
        let who = match self.side {
            Side::W => "W",
            Side::B => "B",
        };
        format!(
            "{who} at least ties VG(P_{}, {}) playing rule {}",
            self.vertices,
            self.rounds,
            self.rule.name()
        )
    }
}

/// The ideal vertices q_1..q_n of P_`vertices` for `rounds` rounds, 0-based, in order of i.
/// Checked arithmetic: the sizes may come from a file.
pub fn ideal_vertices(vertices: usize, rounds: usize) -> Result<Vec<usize>, String> {
    let too_large = || format!("N = {vertices} with n = {rounds} is too large");
    ensure!(rounds >= 1 && rounds <= vertices / 2, "{rounds} rounds do not fit P_{vertices}");
    let d = rounds.checked_mul(2).ok_or_else(too_large)?;
    let mut out = Vec::with_capacity(rounds);
    for i in 1..=rounds {
        // x_i * 2n = (2i - 1) N.
        let a = (2 * i - 1).checked_mul(vertices).ok_or_else(too_large)?;
        let (k, r) = (a / d, a % d);
        // 1-based vertex j: ceil(x) off the boundaries (r != 0); on one (x = k), the vertex
        // nearer the centre: k + 1 when 2k < N, k when 2k >= N (the left one on a tie).
        let on_right_half = r == 0 && k.checked_mul(2).ok_or_else(too_large)? >= vertices;
        let j = if on_right_half { k } else { k + 1 };
        out.push(j - 1);
    }
    Ok(out)
}

/// The order in which `rule` takes the ideal vertices: indices i - 1 into
/// [`ideal_vertices`].
pub fn ideal_order(rule: PathRuleName, rounds: usize) -> Vec<usize> {
    match rule {
        PathRuleName::U => {
            let (mut lo, mut hi) = (0, rounds);
            let mut out = Vec::with_capacity(rounds);
            while lo < hi {
                out.push(lo);
                lo += 1;
                if lo < hi {
                    hi -= 1;
                    out.push(hi);
                }
            }
            out
        }
        PathRuleName::LeftToRight => (0..rounds).collect(),
        PathRuleName::CentreOut => {
            let mut out: Vec<usize> = (0..rounds).collect();
            // |2i - 1 - n| for i = k + 1: |2k + 1 - n|; the sort is stable, smaller i first.
            out.sort_by_key(|&k| (2 * k + 1).abs_diff(rounds));
            out
        }
    }
}

/// The change of W's gap margin when `white` (or B) places a stone at `offset` of `gap`.
pub fn gap_gain(gap: Gap, offset: usize, white: bool) -> i64 {
    let (a, b) = gap.split(offset, white);
    let signed = |g: Gap| g.kind.sign() * g.len as i64;
    signed(a) + signed(b) - signed(gap)
}

/// The greedy move at `state` for `white` (or B): the largest gain of the mover's own margin,
/// the first such move in [`PathState::moves`] order. `None` when there is no empty vertex.
pub fn greedy_move(state: &PathState, white: bool) -> Option<(Gap, usize)> {
    let own = |g: Gap, i: usize| {
        let gain = gap_gain(g, i, white);
        if white {
            gain
        } else {
            -gain
        }
    };
    let mut best: Option<((Gap, usize), i64)> = None;
    for (g, i) in state.moves() {
        let gain = own(g, i);
        if best.is_none_or(|(_, b)| gain > b) {
            best = Some(((g, i), gain));
        }
    }
    best.map(|(m, _)| m)
}

/// A position of the replay.
#[derive(Clone, Debug)]
enum Pos {
    /// Some ideal vertex is empty: the line, `.`, `W`, `B` per vertex in path order.
    Line(Vec<u8>),
    /// Every ideal vertex is occupied: the gap state.
    Gaps(PathState),
}

/// A move: a vertex of the line, or a gap and offset of the state.
#[derive(Clone, Copy, Debug)]
enum Step {
    Vertex(usize),
    Gap(Gap, usize),
}

struct Walk {
    vertices: usize,
    rounds: usize,
    /// Whether the rule plays W.
    white: bool,
    /// The ideal vertices in the order the rule takes them.
    ideals: Vec<usize>,
    prints: Fingerprints,
    /// The positions from the start, each with its key and its stone count.
    path: Vec<(Pos, u128, usize)>,
    /// The moves played to reach the current position.
    played: Vec<Step>,
    extreme: Option<i64>,
    /// Final positions scored.
    finals: u64,
}

impl Walk {
    fn enter(&mut self, pos: Pos, stones: usize) {
        let pos = match pos {
            Pos::Line(line) if self.ideals.iter().all(|&v| line[v] != b'.') => {
                Pos::Gaps(PathState::of_line(&line))
            }
            other => other,
        };
        let key = match &pos {
            Pos::Line(line) => self.prints.of(&(0u8, line)),
            Pos::Gaps(state) => self.prints.of(&(1u8, state)),
        };
        self.path.push((pos, key, stones));
    }

    /// The play so far, for messages: `W 4, B 9, W 2, ...`, vertices numbered 1 to N from the
    /// path's first end. A gap move is shown as a vertex that makes it (any such vertex gives
    /// the same gap state): found by a scan, only when a message is written.
    fn line_text(&self, last: Option<Step>) -> String {
        let mut line = vec![b'.'; self.vertices];
        let mut out = Vec::new();
        for (k, step) in self.played.iter().chain(last.iter()).enumerate() {
            let white = k % 2 == 0;
            let v = match *step {
                Step::Vertex(v) => v,
                Step::Gap(g, i) => concrete(&line, g, i),
            };
            line[v] = if white { b'W' } else { b'B' };
            out.push(format!("{} {}", if white { "W" } else { "B" }, v + 1));
        }
        format!("{} (final line {})", out.join(", "), String::from_utf8_lossy(&line))
    }

    /// Checks a final margin against the claim.
    fn score(
        &mut self,
        m: i64,
        state: &dyn std::fmt::Display,
        last: Option<Step>,
        budget: &mut Budget,
    ) -> Result<(), String> {
        self.finals += 1;
        let bad = if self.white { m < 0 } else { m > 0 };
        if bad {
            // Writing the play: a scan of the line per move (see `concrete`).
            let steps = (self.played.len() as u64).saturating_add(1);
            budget.charge_each(
                steps,
                (self.vertices as u64).saturating_add(16),
                "writing the play",
            )?;
            fail!(
                "the rule fails: the play {} ends in the final state '{state}' with W's margin \
                 {m} ({} the rule's side)",
                self.line_text(last),
                if m < 0 { "B wins, against" } else { "W wins, against" }
            );
        }
        self.extreme = Some(match self.extreme {
            None => m,
            Some(e) if self.white => e.min(m),
            Some(e) => e.max(m),
        });
        Ok(())
    }
}

impl Rules for Walk {
    type Move = Step;

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1].1
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<Step>, String> {
        let (pos, _, stones) = &self.path[self.path.len() - 1];
        let cost = match pos {
            Pos::Line(_) => STATE_COST.saturating_add(self.vertices as u64),
            Pos::Gaps(s) => {
                STATE_COST.saturating_add(GAP_COST.saturating_mul(s.gaps().len() as u64))
            }
        };
        // Charged before the copy below (N bytes or a few gaps): the checks borrow the walk.
        budget.charge(cost, "replaying the rule's positions")?;
        let (pos, stones) = (pos.clone(), *stones);
        let total = 2 * self.rounds;
        let mover_white = stones.is_multiple_of(2);
        if stones == total {
            let state = match pos {
                Pos::Line(line) => PathState::of_line(&line),
                Pos::Gaps(s) => s,
            };
            self.score(state.gap_margin(), &state, None, budget)?;
            return Ok(Node::Leaf);
        }
        if mover_white == self.white {
            let step = match &pos {
                Pos::Line(line) => {
                    let Some(&v) = self.ideals.iter().find(|&&v| line[v] == b'.') else {
                        fail!("internal: a line with every ideal vertex occupied");
                    };
                    Step::Vertex(v)
                }
                Pos::Gaps(s) => {
                    budget.charge_each(s.move_count(), 4, "computing the rule's move")?;
                    let Some((g, i)) = greedy_move(s, mover_white) else {
                        fail!("the rule has no move at '{s}'");
                    };
                    Step::Gap(g, i)
                }
            };
            return Ok(Node::Moves(vec![step]));
        }
        // The opponent: every move, its cost charged before the list is built.
        let gaps = match &pos {
            Pos::Gaps(s) => s.clone(),
            Pos::Line(line) if stones + 1 < total => {
                let empty = line.iter().filter(|&&c| c == b'.').count();
                budget.charge_each(empty as u64, cost, "listing the opponent's moves")?;
                let moves =
                    (0..self.vertices).filter(|&v| line[v] == b'.').map(Step::Vertex).collect();
                return Ok(Node::Moves(moves));
            }
            Pos::Line(line) => PathState::of_line(line),
        };
        if stones + 1 < total {
            budget.charge_each(gaps.move_count(), cost, "listing the opponent's moves")?;
            return Ok(Node::Moves(gaps.moves().map(|(g, i)| Step::Gap(g, i)).collect()));
        }
        // The opponent's last move ends the game: each final margin from the gap it splits.
        budget.charge_each(gaps.move_count(), 8, "scoring the opponent's last moves")?;
        let base = gaps.gap_margin();
        for (g, i) in gaps.moves() {
            let m = base + gap_gain(g, i, mover_white);
            if (self.white && m < 0) || (!self.white && m > 0) {
                let last = gaps.play(g, i, mover_white)?;
                return self.score(m, &last, Some(Step::Gap(g, i)), budget).map(|_| Node::Leaf);
            }
            self.score(m, &"", None, budget)?;
        }
        Ok(Node::Leaf)
    }

    fn play(&mut self, step: Step, budget: &mut Budget) -> Result<(), String> {
        let (pos, _, stones) = &self.path[self.path.len() - 1];
        let white = stones.is_multiple_of(2);
        let next = match (pos, step) {
            (Pos::Line(line), Step::Vertex(v)) => {
                budget.charge(self.vertices as u64, "building a line")?;
                ensure!(line.get(v) == Some(&b'.'), "internal: vertex {} is not empty", v + 1);
                let mut next = line.clone();
                next[v] = if white { b'W' } else { b'B' };
                Pos::Line(next)
            }
            (Pos::Gaps(s), Step::Gap(g, i)) => Pos::Gaps(s.play(g, i, white)?),
            _ => fail!("internal: a move of the wrong form"),
        };
        let stones = stones + 1;
        self.played.push(step);
        self.enter(next, stones);
        Ok(())
    }

    fn undo(&mut self, _: Step) {
        self.path.pop();
        self.played.pop();
    }
}

/// A vertex of `line` whose stone makes the gap move (`g`, `i`), for messages: one scan of the
/// line for a run of empty vertices of `g`'s type and length, then the offset counted from the
/// side the gap's offsets count from (the path's end for `EW`/`EB`, W's stone for `WB`, the
/// left for `F`, `WW`, `BB`, whose offsets are symmetric).
fn concrete(line: &[u8], g: Gap, i: usize) -> usize {
    use crate::voronoi_paths::paths::GapKind;
    let n = line.len();
    let mut start = 0;
    while start < n {
        if line[start] != b'.' {
            start += 1;
            continue;
        }
        let mut end = start;
        while end + 1 < n && line[end + 1] == b'.' {
            end += 1;
        }
        let (left, right) = (start.checked_sub(1).map(|v| line[v]), line.get(end + 1).copied());
        // The run with the stones that bound it, as a line of its own: its one gap.
        let mut piece = Vec::with_capacity(end - start + 3);
        piece.extend(left);
        piece.extend_from_slice(&line[start..=end]);
        piece.extend(right);
        let run = PathState::of_line(&piece);
        if run.gaps() == [g] && i <= end - start {
            // Count from the path's end, or from W's stone, where the type says so.
            let from_right = match g.kind {
                GapKind::EndW | GapKind::EndB => left.is_some(),
                GapKind::WB => left != Some(b'W'),
                _ => false,
            };
            return if from_right { end - i } else { start + i };
        }
        start = end + 1;
    }
    0
}

/// Replays `rule` played by `side` on VG(P_`vertices`, `rounds`) from the empty path against
/// every opponent move: W's rule must keep W's margin at least 0, B's at most 0. Errors name
/// the play that fails.
pub fn check_path_rule(
    vertices: usize,
    rounds: usize,
    rule: PathRuleName,
    side: Side,
    budget: &mut Budget,
) -> Result<PathReport, String> {
    if rounds == 0 || rounds > vertices / 2 {
        fail!("{rounds} rounds do not fit a path of {vertices} vertices (need 1 <= 2n <= N)");
    }
    budget.charge_each(rounds as u64, 16, "placing the ideal vertices")?;
    let ideals = ideal_vertices(vertices, rounds)?;
    let ideals = ideal_order(rule, rounds).into_iter().map(|k| ideals[k]).collect();
    budget.charge(vertices as u64, "building the empty line")?;
    let mut walk = Walk {
        vertices,
        rounds,
        white: side == Side::W,
        ideals,
        prints: Fingerprints::new(),
        path: Vec::new(),
        played: Vec::new(),
        extreme: None,
        finals: 0,
    };
    walk.enter(Pos::Line(vec![b'.'; vertices]), 0);
    let walked = replay(&mut walk, budget)?;
    Ok(PathReport { states: walked.positions, leaves: walk.finals, extreme_margin: walk.extreme })
}

/// Registry entry for `voronoi-path-rule`: the instance must be a path with no start stones of
/// the certificate's N and n.
pub fn rule_verdict(spec: &MultiRoundSpec, cert: &PathRule, budget: &mut Budget) -> Verdict {
    let claim = cert.claim();
    let (game, mut work) = match crate::voronoi::multi_round::validated(spec, budget) {
        Ok(found) => found,
        Err(err) => return Verdict::invalid(claim, err),
    };
    let order = match path_order(&game.graph) {
        Ok(order) => order,
        Err(why) => {
            let why = format!("a voronoi-path-rule certificate needs a path: {why}");
            return reject(claim, why, work);
        }
    };
    if game.start.iter().any(|&c| c != b'.') {
        let why = "a voronoi-path-rule certificate needs a game without start stones";
        return reject(claim, why.into(), work);
    }
    if cert.vertices != game.graph.len() || cert.rounds != game.rounds {
        let why = format!(
            "the certificate is for N = {}, n = {}, the instance is a path of {} vertices with \
             {} rounds",
            cert.vertices,
            cert.rounds,
            game.graph.len(),
            game.rounds
        );
        return reject(claim, why, work);
    }
    let first = game.graph.name(order[0]).to_string();
    match check_path_rule(cert.vertices, cert.rounds, cert.rule, cert.side, budget) {
        Ok(report) => {
            work.positions = Some(report.states);
            work.leaves = Some(report.leaves);
            let reason = format!(
                "the checker computed rule {}'s moves for {} and replayed them against every \
                 opponent move ({} positions, {} final positions; W's margin {} {} in every \
                 one)",
                cert.rule.name(),
                if cert.side == Side::W { "W" } else { "B" },
                report.states,
                report.leaves,
                if cert.side == Side::W { "at least" } else { "at most" },
                report.extreme_margin.unwrap_or(0)
            );
            Verdict::accept(claim, reason, work, &[Theorem::PathGaps])
        }
        Err(why) => reject(claim, format!("{why} (vertices numbered 1 to N from '{first}')"), work),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::graph::Graph;
    use crate::voronoi::rules::score;
    use crate::voronoi_paths::paths::tests::{all_positions as all_lines, path};
    use std::collections::HashMap;

    /// W's margin by the reference rules.
    fn margin(g: &Graph, line: &[u8]) -> i64 {
        let of = |c: u8| -> Vec<usize> { (0..line.len()).filter(|&v| line[v] == c).collect() };
        let s = score(g, &of(b'W'), &of(b'B'));
        s.white as i64 - s.black as i64
    }

    /// W's margin, stones counted: by the reference rules on `g` when given, else by gap
    /// states (the lemma "path gaps") for paths too long to score by search in every test.
    fn margin_by(g: Option<&Graph>, line: &[u8]) -> i64 {
        let count = |c: u8| line.iter().filter(|&&x| x == c).count() as i64;
        match g {
            Some(g) => margin(g, line),
            None => PathState::of_line(line).gap_margin() + count(b'W') - count(b'B'),
        }
    }

    /// The ideal vertices by the definition, in floating point (exact for these sizes).
    fn ideals_by_definition(n: usize, rounds: usize) -> Vec<usize> {
        (1..=rounds)
            .map(|i| {
                let x = (2 * i - 1) as f64 * n as f64 / (2 * rounds) as f64;
                let holders: Vec<usize> =
                    (1..=n).filter(|&j| (j - 1) as f64 <= x && x <= j as f64).collect();
                let centre = n as f64 / 2.0;
                let dist = |j: usize| ((j as f64 - 0.5) - centre).abs();
                // Nearer the centre; on a tie (the middle of an even path) the left one.
                let best = holders.iter().map(|&j| dist(j)).fold(f64::MAX, f64::min);
                holders.into_iter().find(|&j| dist(j) == best).unwrap() - 1
            })
            .collect()
    }

    #[test]
    fn ideal_vertices_follow_the_definition() {
        for n in 2..=120 {
            for rounds in 1..=n / 2 {
                let q = ideal_vertices(n, rounds).unwrap();
                assert_eq!(q, ideals_by_definition(n, rounds), "N = {n}, n = {rounds}");
                assert!(q.windows(2).all(|w| w[0] < w[1]), "distinct and increasing");
            }
        }
        assert_eq!(ideal_vertices(7, 1).unwrap(), [3]);
        // N = 8, n = 2: points 2 and 6, on boundaries: vertices 3 and 6 (nearer the centre).
        assert_eq!(ideal_vertices(8, 2).unwrap(), [2, 5]);
        // N = 6, n = 3: points 1, 3, 5; 1 -> vertex 2, 3 = N/2 -> vertex 3 (left), 5 -> vertex 5.
        assert_eq!(ideal_vertices(6, 3).unwrap(), [1, 2, 4]);
        assert!(ideal_vertices(usize::MAX, 3).unwrap_err().contains("too large"));
        assert!(ideal_vertices(3, 2).is_err());
        assert_eq!(ideal_order(PathRuleName::U, 5), [0, 4, 1, 3, 2]);
        assert_eq!(ideal_order(PathRuleName::U, 4), [0, 3, 1, 2]);
        assert_eq!(ideal_order(PathRuleName::CentreOut, 4), [1, 2, 0, 3]);
        assert_eq!(ideal_order(PathRuleName::CentreOut, 5), [2, 1, 3, 0, 4]);
        assert_eq!(ideal_order(PathRuleName::LeftToRight, 3), [0, 1, 2]);
    }

    /// The greedy move's gain is the largest gain of the mover's margin by the reference
    /// rules, on every position with a stone of every path of at most 8 vertices.
    #[test]
    fn the_greedy_move_has_the_largest_gain_by_the_reference_rules() {
        for n in 1..=8 {
            let g = path(n);
            for line in all_lines(n) {
                if line.iter().all(|&c| c == b'.') || line.iter().all(|&c| c != b'.') {
                    continue;
                }
                let before = margin(&g, &line);
                let state = PathState::of_line(&line);
                for white in [true, false] {
                    let sign = if white { 1 } else { -1 };
                    let mark = if white { b'W' } else { b'B' };
                    let gains: Vec<(PathState, i64)> = (0..n)
                        .filter(|&v| line[v] == b'.')
                        .map(|v| {
                            let mut next = line.clone();
                            next[v] = mark;
                            (PathState::of_line(&next), sign * (margin(&g, &next) - before))
                        })
                        .collect();
                    let best = gains.iter().map(|&(_, x)| x).max().unwrap();
                    let (gap, i) = greedy_move(&state, white).unwrap();
                    let chosen = state.play(gap, i, white).unwrap();
                    let gain = gains.iter().find(|(s, _)| *s == chosen).unwrap().1;
                    assert_eq!(gain, best, "{}", String::from_utf8_lossy(&line));
                    assert_eq!(gain, 1 + sign * gap_gain(gap, i, white));
                }
            }
        }
    }

    /// `concrete` realises every gap move: the vertex it names gives the gap move's state.
    #[test]
    fn gap_moves_are_realised_by_vertices() {
        for n in 1..=8 {
            for line in all_lines(n) {
                let state = PathState::of_line(&line);
                for white in [true, false] {
                    for (g, i) in state.moves() {
                        let v = concrete(&line, g, i);
                        assert_eq!(line[v], b'.', "{}", String::from_utf8_lossy(&line));
                        let mut next = line.clone();
                        next[v] = if white { b'W' } else { b'B' };
                        let want = state.play(g, i, white).unwrap();
                        assert_eq!(PathState::of_line(&next), want, "{g}@{i}");
                    }
                }
            }
        }
    }

    /// The rule's move on a concrete line, computed from the definition: the first empty
    /// ideal vertex, else a vertex realising the greedy move.
    fn rule_move(line: &[u8], ideals: &[usize], white: bool) -> usize {
        if let Some(&v) = ideals.iter().find(|&&v| line[v] == b'.') {
            return v;
        }
        let state = PathState::of_line(line);
        let (g, i) = greedy_move(&state, white).unwrap();
        concrete(line, g, i)
    }

    /// The worst final margin (for the rule's side) against every opponent, by plain minimax
    /// over concrete lines scored by the reference rules: no gap states, no memo.
    fn worst(g: &Graph, line: &mut Vec<u8>, rounds: usize, ideals: &[usize], white: bool) -> i64 {
        let stones = line.iter().filter(|&&c| c != b'.').count();
        if stones == 2 * rounds {
            return margin(g, line);
        }
        let mover_white = stones.is_multiple_of(2);
        let mark = if mover_white { b'W' } else { b'B' };
        if mover_white == white {
            let v = rule_move(line, ideals, white);
            line[v] = mark;
            let m = worst(g, line, rounds, ideals, white);
            line[v] = b'.';
            return m;
        }
        let mut out: Option<i64> = None;
        for v in 0..line.len() {
            if line[v] != b'.' {
                continue;
            }
            line[v] = mark;
            let m = worst(g, line, rounds, ideals, white);
            line[v] = b'.';
            out = Some(match out {
                None => m,
                Some(o) if white => o.min(m),
                Some(o) => o.max(m),
            });
        }
        out.unwrap()
    }

    /// The checker's replay agrees with plain minimax on every path of at most 12 vertices,
    /// every n <= 4, every rule and side: it accepts exactly when the rule holds its side to
    /// a tie, and then reports the worst margin.
    #[test]
    fn the_replay_agrees_with_a_plain_search() {
        let rules = [PathRuleName::U, PathRuleName::CentreOut, PathRuleName::LeftToRight];
        for n in 2..=12 {
            let g = path(n);
            for rounds in 1..=(n / 2).min(4) {
                if n >= 11 && rounds == 4 {
                    continue; // 11^7 plays: the exact-solver test covers these.
                }
                for rule in rules {
                    let q = ideal_vertices(n, rounds).unwrap();
                    let ideals: Vec<usize> =
                        ideal_order(rule, rounds).into_iter().map(|k| q[k]).collect();
                    for side in [Side::W, Side::B] {
                        let white = side == Side::W;
                        let w = worst(&g, &mut vec![b'.'; n], rounds, &ideals, white);
                        let got = check_path_rule(n, rounds, rule, side, &mut Budget::new(1 << 40));
                        let holds = if white { w >= 0 } else { w <= 0 };
                        let at = format!("N {n} n {rounds} {rule:?} {side:?}: worst {w}");
                        match got {
                            Ok(report) => {
                                assert!(holds, "{at}: accepted");
                                assert_eq!(report.extreme_margin, Some(w), "{at}");
                            }
                            Err(e) => assert!(!holds && e.contains("the rule fails"), "{at}: {e}"),
                        }
                    }
                }
            }
        }
    }

    /// The game's value by minimax over gap states (memoised), for the cross-check.
    fn value(s: &PathState, n: usize, rounds: usize, memo: &mut HashMap<PathState, i64>) -> i64 {
        let stones = n - s.empty();
        if stones == 2 * rounds {
            return s.gap_margin();
        }
        if let Some(&v) = memo.get(s) {
            return v;
        }
        let white = stones.is_multiple_of(2);
        let vals = s.moves().map(|(g, i)| value(&s.play(g, i, white).unwrap(), n, rounds, memo));
        let v = if white { vals.max().unwrap() } else { vals.min().unwrap() };
        memo.insert(s.clone(), v);
        v
    }

    /// U against the exact solver on every path of at most 14 vertices with n <= 4: U as W
    /// holds a tie whenever the value is at least 0 (always, for n >= 2), U as B on odd N
    /// whenever the value is at most 0 (n >= 2).
    #[test]
    fn rule_u_against_the_exact_values() {
        for n in 2..=14 {
            for rounds in 1..=(n / 2).min(4) {
                let v = value(&PathState::start(n), n, rounds, &mut HashMap::new());
                let budget = &mut Budget::new(1 << 40);
                let w = check_path_rule(n, rounds, PathRuleName::U, Side::W, budget);
                assert_eq!(w.is_ok(), v >= 0, "N {n} n {rounds} value {v}: {w:?}");
                if let Ok(r) = w {
                    assert!(r.extreme_margin.unwrap() <= v, "U cannot beat the value");
                }
                if n % 2 == 1 {
                    let b = check_path_rule(n, rounds, PathRuleName::U, Side::B, budget);
                    assert_eq!(b.is_ok(), v <= 0, "N {n} n {rounds} value {v}: {b:?}");
                }
            }
        }
    }

    /// The issue's variants fail where it says, and the rejection names the play.
    #[test]
    fn the_variants_fail_naming_the_play() {
        let big = || Budget::new(1 << 40);
        let err = check_path_rule(11, 4, PathRuleName::CentreOut, Side::W, &mut big()).unwrap_err();
        assert!(err.contains("the rule fails: the play W "), "{err}");
        let err =
            check_path_rule(9, 3, PathRuleName::LeftToRight, Side::B, &mut big()).unwrap_err();
        assert!(err.contains("the rule fails: the play W "), "{err}");
        assert!(check_path_rule(11, 4, PathRuleName::U, Side::W, &mut big()).is_ok());
        assert!(check_path_rule(9, 3, PathRuleName::U, Side::B, &mut big()).is_ok());
    }

    fn spec(n: usize, rounds: usize) -> MultiRoundSpec {
        use crate::voronoi::instance::GraphSpec;
        MultiRoundSpec {
            graph: GraphSpec {
                vertices: (1..=n).map(|i| format!("p{i}")).collect(),
                edges: (1..n).map(|i| (format!("p{i}"), format!("p{}", i + 1))).collect(),
            },
            rounds,
            start: None,
            source: None,
        }
    }

    #[test]
    fn certificates_are_checked_against_their_instance() {
        let cert = PathRule { vertices: 9, rounds: 3, rule: PathRuleName::U, side: Side::B };
        let v = rule_verdict(&spec(9, 3), &cert, &mut Budget::new(1 << 30));
        assert!(v.accepted(), "{}", v.reason);
        assert_eq!(v.claim, "B at least ties VG(P_9, 3) playing rule U");
        let rejected = |s: &MultiRoundSpec, c: &PathRule, needle: &str| {
            let v = rule_verdict(s, c, &mut Budget::new(1 << 30));
            assert!(!v.accepted(), "accepted {c:?}");
            assert!(v.reason.contains(needle), "{needle:?} not in {:?}", v.reason);
        };
        rejected(&spec(10, 3), &cert, "the certificate is for N = 9, n = 3");
        rejected(&spec(9, 2), &cert, "the certificate is for N = 9, n = 3");
        // The wrong side: W on P_9 with one round wins, so B's rule cannot hold a tie.
        let one = PathRule { rounds: 1, ..cert.clone() };
        rejected(&spec(9, 1), &one, "the rule fails: the play W 5, B ");
        let left = PathRule { rule: PathRuleName::LeftToRight, ..cert.clone() };
        rejected(&spec(9, 3), &left, "(vertices numbered 1 to N from 'p1')");
        let mut star = spec(4, 1);
        star.graph.edges = vec![
            ("p1".into(), "p2".into()),
            ("p1".into(), "p3".into()),
            ("p1".into(), "p4".into()),
        ];
        let four = PathRule { vertices: 4, rounds: 1, ..cert.clone() };
        rejected(&star, &four, "needs a path");
        // The file's form: an unknown rule or side, an unknown field.
        let json = r#"{"vertices": 9, "rounds": 3, "rule": "U", "side": "B"}"#;
        assert_eq!(serde_json::from_str::<PathRule>(json).unwrap(), cert);
        for bad in [
            json.replace("\"U\"", "\"V\""),
            json.replace("\"B\"", "\"black\""),
            json.replace("}", ", \"x\": 1}"),
            json.replace("9", "-9"),
        ] {
            assert!(serde_json::from_str::<PathRule>(&bad).is_err(), "{bad}");
        }
        // Sizes no path of the instance could have are refused before any work.
        let huge = PathRule { vertices: usize::MAX, rounds: usize::MAX / 2, ..cert.clone() };
        rejected(&spec(9, 3), &huge, "the certificate is for N =");
        let err = check_path_rule(
            usize::MAX,
            usize::MAX / 2,
            PathRuleName::U,
            Side::W,
            &mut Budget::new(1 << 20),
        )
        .unwrap_err();
        assert!(err.contains("work limit") || err.contains("too large"), "{err}");
    }

    /// The static fact (docs/trusted.md, "ideal vertices"), part 1: the gaps the ideal
    /// vertices leave. With L = N/n, every interior gap has between L - 2 and L vertices and
    /// each end gap between L/2 - 1 and L/2 (in integers: n(g) and 2n(e) between N - 2n and N),
    /// for every N <= 300 and every n with 2n <= N. The proof shows it for every N; this is the
    /// same inequality computed.
    #[test]
    fn ideal_gaps_are_within_the_bounds() {
        for n in 2..=300usize {
            for rounds in 1..=n / 2 {
                let q = ideal_vertices(n, rounds).unwrap();
                let (lo, hi) = (n - 2 * rounds, n);
                let ends = [q[0], n - 1 - q[rounds - 1]];
                for e in ends {
                    assert!((lo..=hi).contains(&(2 * rounds * e)), "N {n} n {rounds} end {e}");
                }
                for w in q.windows(2) {
                    let g = w[1] - w[0] - 1;
                    assert!((lo..=hi).contains(&(rounds * g)), "N {n} n {rounds} gap {g}");
                }
            }
        }
    }

    /// W's margin gained in one gap (its vertices, not its bounding stones) when the holder X
    /// of the bounding stones is W and Y (B) has `k` stones in it, at best for Y: by the
    /// formula of the proof (interior: s with no stone, 0 with one, -(s - k) with k >= 2; end:
    /// s with none, -(s - k) with k >= 1).
    fn best_for_y(s: usize, k: usize, end: bool) -> i64 {
        let (s, k) = (s as i64, k as i64);
        match (k, end) {
            (0, _) => s,
            (1, false) => 0,
            _ => -(s - k),
        }
    }

    /// Part 2: the formula is the minimum over every placement of k stones in a gap of at
    /// most 11 vertices, scored by the reference rules.
    #[test]
    fn the_gap_formula_is_the_best_placement() {
        for s in 0..=11usize {
            for end in [false, true] {
                // X's stones bound the gap: at both ends, or (an end gap) at the right only.
                let n = if end { s + 1 } else { s + 2 };
                let g = path(n);
                let first = usize::from(!end);
                for k in 0..=s {
                    let mut best = i64::MAX;
                    for mask in 0u32..1 << s {
                        if mask.count_ones() as usize != k {
                            continue;
                        }
                        let mut line = vec![b'.'; n];
                        line[n - 1] = b'W';
                        if !end {
                            line[0] = b'W';
                        }
                        for b in 0..s {
                            if mask >> b & 1 == 1 {
                                line[first + b] = b'B';
                            }
                        }
                        // W's vertices minus B's, without the stones (W's bounding ones, B's k).
                        let stones = (n - s) as i64 - k as i64;
                        best = best.min(margin(&g, &line) - stones);
                    }
                    assert_eq!(best, best_for_y(s, k, end), "s {s} k {k} end {end}");
                }
            }
        }
    }

    /// The least margin of the holder of every ideal vertex over every placement of the
    /// other's n stones, by the gap formula and a knapsack over the gaps.
    fn least_margin(n: usize, rounds: usize) -> i64 {
        let q = ideal_vertices(n, rounds).unwrap();
        let mut gaps = vec![(q[0], true), (n - 1 - q[rounds - 1], true)];
        gaps.extend(q.windows(2).map(|w| (w[1] - w[0] - 1, false)));
        // least[k]: the least margin over the gaps so far with k of Y's stones in them.
        let mut least = vec![i64::MAX; rounds + 1];
        least[0] = 0;
        for (s, end) in gaps {
            let mut next = vec![i64::MAX; rounds + 1];
            for (had, &m) in least.iter().enumerate().filter(|&(_, &m)| m != i64::MAX) {
                for k in 0..=s.min(rounds - had) {
                    let v = m + best_for_y(s, k, end);
                    next[had + k] = next[had + k].min(v);
                }
            }
            least = next;
        }
        least[rounds]
    }

    /// Part 3, the static fact: holding every ideal vertex, a player at least ties wherever
    /// the other's n stones stand. Exhaustively by the reference rules for N <= 14, by the gap
    /// formula for N <= 300 (every n); the proof covers every N.
    #[test]
    fn holding_the_ideal_vertices_at_least_ties() {
        for n in 2..=14usize {
            let g = path(n);
            for rounds in 1..=n / 2 {
                let q = ideal_vertices(n, rounds).unwrap();
                let free: Vec<usize> = (0..n).filter(|v| !q.contains(v)).collect();
                let mut least = i64::MAX;
                for mask in 0u32..1 << free.len() {
                    if mask.count_ones() as usize != rounds {
                        continue;
                    }
                    let mut line = vec![b'.'; n];
                    for &v in &q {
                        line[v] = b'W';
                    }
                    for (b, &v) in free.iter().enumerate() {
                        if mask >> b & 1 == 1 {
                            line[v] = b'B';
                        }
                    }
                    least = least.min(margin(&g, &line));
                }
                assert!(least >= 0, "N {n} n {rounds}: {least}");
                assert_eq!(least, least_margin(n, rounds), "N {n} n {rounds}");
            }
        }
        for n in 15..=300usize {
            for rounds in 1..=n / 2 {
                assert!(least_margin(n, rounds) >= 0, "N {n} n {rounds}");
            }
        }
    }

    /// docs/trusted.md, "For all N", n = 2 (W's side): the one line the static fact leaves
    /// (W q_1, B q_2) by the formulas, for every N from 4 to 2,000, and the replay for N <= 200.
    #[test]
    fn n2_white_side_by_the_formulas() {
        use crate::voronoi_paths::paths::GapKind::{EndB, EndW, WB, WW};
        let gap = |kind, len| Gap { kind, len };
        for n in 4..=2000usize {
            let (m, r) = (n / 4, n % 4);
            let q = ideal_vertices(n, 2).unwrap();
            assert_eq!(q, [m, 3 * m + r - 1], "N {n}"); // 0-based: q_1 = m + 1, q_2 = 3m + r
            let mut line = vec![b'.'; n];
            line[q[0]] = b'W';
            line[q[1]] = b'B';
            let state = PathState::of_line(&line);
            let g = 2 * m + r - 2;
            assert_eq!(state, PathState::new(vec![gap(EndW, m), gap(WB, g), gap(EndB, m)]));
            let (mv, i) = greedy_move(&state, true).unwrap();
            let after = state.play(mv, i, true).unwrap();
            let expected = if r < 3 {
                assert_eq!((mv, i), (gap(EndB, m), m - 1), "N {n}");
                PathState::new(vec![gap(EndW, m), gap(EndW, m - 1), gap(WB, g)])
            } else {
                assert_eq!((mv, i), (gap(WB, g), g - 1), "N {n}");
                PathState::new(vec![gap(EndW, m), gap(WW, 2 * m), gap(EndB, m)])
            };
            assert_eq!(after, expected, "N {n}");
            let least = after
                .moves()
                .map(|(g, i)| after.gap_margin() + gap_gain(g, i, false))
                .min()
                .unwrap();
            assert_eq!(least, 0, "N {n}");
        }
        for n in 4..=200 {
            check_path_rule(n, 2, PathRuleName::U, Side::W, &mut Budget::new(1 << 40)).unwrap();
        }
    }

    /// docs/trusted.md, "For all N", n = 2 (B's side): every position U as B leaves to W
    /// without the static fact (W on one ideal vertex and any w, B on the other), by the proof's
    /// formulas: W's margin before B's last stone and B's named reply, by the reference rules for
    /// N <= 40 and by gap states to N = 400; the checker's greedy reply is at most 0 in both
    /// arrangements; and the replay of U as B accepts for every N <= 200, even and odd.
    #[test]
    fn n2_black_side_by_the_formulas() {
        for n in 4..=400usize {
            let g_path = (n <= 40).then(|| path(n));
            let m = n / 4;
            let q = ideal_vertices(n, 2).unwrap();
            assert_eq!(q, [m, n - 1 - m], "N {n}"); // q_2 = N + 1 - q_1 (1-based)
            let margin_of = |line: &[u8]| margin_by(g_path.as_ref(), line);
            for w in (0..n).filter(|w| !q.contains(w)) {
                // (margin before B's last stone, B's named reply, the margin after it)
                let (before, reply, after) = if w < m {
                    (0, n - 1, 0) // B's own end: nothing changes
                } else if w < n - 1 - m {
                    let k = (w - m) as i64;
                    if k >= 2 {
                        (k, m + 1, 0)
                    } else {
                        (1, m - 1, 1 - 2 * m as i64)
                    }
                } else {
                    let t = (w - (n - 1 - m)) as i64;
                    (2 * m as i64 - t + 1, m - 1, 1 - t)
                };
                let mut line = vec![b'.'; n];
                line[q[0]] = b'W';
                line[q[1]] = b'B';
                line[w] = b'W';
                assert_eq!(margin_of(&line), before, "N {n} w {w}");
                let mut replied = line.clone();
                assert_eq!(replied[reply], b'.', "N {n} w {w}");
                replied[reply] = b'B';
                assert_eq!(margin_by(g_path.as_ref(), &replied), after, "N {n} w {w}");
                assert!(after <= 0, "N {n} w {w}");
                // The checker's greedy reply, here and in the mirrored arrangement.
                for line in [line.clone(), line.iter().rev().copied().collect()] {
                    let state = PathState::of_line(&line);
                    let (mv, i) = greedy_move(&state, false).unwrap();
                    assert!(state.gap_margin() + gap_gain(mv, i, false) <= 0, "N {n} w {w}");
                }
            }
        }
        for n in 4..=200 {
            check_path_rule(n, 2, PathRuleName::U, Side::B, &mut Budget::new(1 << 40)).unwrap();
        }
    }

    /// docs/trusted.md, "n = 3, W's side": W's third stone in the two positions the static
    /// fact leaves (0-based vertices; `q` the ideal vertices): family B (W on q_1, q_2, B on
    /// q_3 and `b`) and family C (W on q_1, q_3, B on q_2 and `b`).
    fn n3_third_move(line: &[u8], q: &[usize], b: usize) -> usize {
        let (e, g2) = (q[0], q[2] - q[1] - 1);
        if line[q[1]] == b'W' {
            // Family B.
            let inside_right = b > q[2] || (b > q[0] && g2 > 2 * e && b != q[2] - 1);
            if inside_right {
                q[2] - 1
            } else {
                q[2] + 1
            }
        } else if q[1] < b && b < q[2] {
            q[1] - 1 // family C, b between q_2 and q_3
        } else {
            q[1] + 1
        }
    }

    /// The whole strategy of the proof for n = 3: q_1; q_2 if B took q_3, else q_3; q_2 if it
    /// is still empty, else [`n3_third_move`].
    fn n3_move(line: &[u8], q: &[usize]) -> usize {
        let whites = line.iter().filter(|&&c| c == b'W').count();
        let other_black = || (0..line.len()).find(|&v| line[v] == b'B' && !q.contains(&v));
        match whites {
            0 => q[0],
            1 if line[q[2]] == b'B' => q[1],
            1 => q[2],
            _ if line[q[1]] == b'.' => q[1],
            _ => n3_third_move(line, q, other_black().unwrap()),
        }
    }

    /// docs/trusted.md, "n = 3, W's side": for every N from 7 to 200, the ideal vertices and
    /// the inequalities (I)-(IV) of the proof, and for every b of both families the gap sum
    /// after W's named stone is the proof's formula and B's best last stone leaves W at least 0
    /// (by the reference rules for N <= 40, by gap states past it).
    #[test]
    fn n3_white_side_by_the_formulas() {
        for n in 7..=200usize {
            let m = n / 6;
            let q = ideal_vertices(n, 3).unwrap();
            assert_eq!(q, [m, n.div_ceil(2) - 1, n - 1 - m], "N {n}");
            let (e, g1, g2) = (m as i64, (q[1] - q[0] - 1) as i64, (q[2] - q[1] - 1) as i64);
            assert!(g1 <= g2 && g2 <= g1 + 1, "(I) N {n}");
            assert!(2 * e - 1 <= g2 && g2 <= 2 * e + 1, "(II) N {n}");
            assert!(2 * e - 2 <= g1 && g1 <= 2 * e + 1 && g1 >= 1, "(III, IV) N {n}");
            let g_path = (n <= 40).then(|| path(n));
            for family_b in [true, false] {
                let mut base = vec![b'.'; n];
                base[q[0]] = b'W';
                let (white, black) = if family_b { (q[1], q[2]) } else { (q[2], q[1]) };
                base[white] = b'W';
                base[black] = b'B';
                for b in (0..n).filter(|&v| base[v] == b'.') {
                    let mut line = base.clone();
                    line[b] = b'B';
                    let w = n3_third_move(&line, &q, b);
                    assert_eq!(line[w], b'.', "N {n} b {b}");
                    line[w] = b'W';
                    let (j_left, j_right) = ((b + 1) as i64, (n - b) as i64);
                    let (i1, i2) = ((b as i64) - q[0] as i64, (b as i64) - q[1] as i64);
                    let formula = match (family_b, b) {
                        (false, b) if b < q[0] => e - j_left + g2,
                        (false, b) if b > q[2] => e - j_right + g2,
                        (false, b) if b < q[1] => 2 * e - g1 + i1 + g2 - 1,
                        (false, _) => 2 * e - i2 + g1,
                        (true, b) if b < q[0] => g1 + e - j_left,
                        (true, b) if b > q[2] => g1 + g2,
                        (true, b) if g2 <= 2 * e && b < q[1] => 2 * e - 1,
                        (true, _) if g2 <= 2 * e => g1 - g2 + i2 + 2 * e - 1,
                        (true, b) if b < q[1] => 2 * e,
                        (true, _) if i2 < g2 => g1,
                        (true, _) => g1 + 2 * e - 1,
                    };
                    let state = PathState::of_line(&line);
                    assert_eq!(state.gap_margin(), formula, "N {n} b {b} family B {family_b}");
                    let least = match &g_path {
                        Some(g) => (0..n)
                            .filter(|&v| line[v] == b'.')
                            .map(|v| {
                                let mut last = line.clone();
                                last[v] = b'B';
                                margin(g, &last)
                            })
                            .min(),
                        None => state.moves().map(|(g, i)| formula + gap_gain(g, i, false)).min(),
                    };
                    assert!(least.unwrap() >= 0, "N {n} b {b} family B {family_b}");
                }
            }
        }
    }

    /// The proof's whole strategy for n = 3 against every play of B, by the reference rules
    /// for every N from 7 to 30 and by gap states to N = 60: W never loses.
    #[test]
    fn n3_white_strategy_never_loses() {
        fn worst(line: &mut Vec<u8>, q: &[usize], g: Option<&Graph>) -> i64 {
            let whites = line.iter().filter(|&&c| c == b'W').count();
            if whites == 3 && line.iter().filter(|&&c| c == b'B').count() == 3 {
                return margin_by(g, line);
            }
            let w = n3_move(line, q);
            assert_eq!(line[w], b'.');
            line[w] = b'W';
            let mut least = i64::MAX;
            for v in 0..line.len() {
                if line[v] == b'.' {
                    line[v] = b'B';
                    least = least.min(worst(line, q, g));
                    line[v] = b'.';
                }
            }
            line[w] = b'.';
            least
        }
        for n in 7..=60usize {
            let q = ideal_vertices(n, 3).unwrap();
            let g = (n <= 30).then(|| path(n));
            assert!(worst(&mut vec![b'.'; n], &q, g.as_ref()) >= 0, "N {n}");
        }
    }

    /// docs/trusted.md, "n = 3, B's side" (odd N): where a stone lies, 0-based, against the
    /// ideal vertices `q`: (run, distance), the run 0 = left end, 1 = between q_1 and q_2,
    /// 2 = between q_2 and q_3, 3 = right end; the distance from the path's end in an end run,
    /// and in middle run k + 1 from the ideal vertex at its left end if `from_left[k]`, else
    /// from the one at its right end.
    fn n3_place(v: usize, n: usize, q: &[usize], from_left: [bool; 2]) -> (usize, i64) {
        let d = |a: usize, b: usize| a.abs_diff(b) as i64;
        if v < q[0] {
            (0, (v + 1) as i64)
        } else if v < q[1] {
            (1, if from_left[0] { d(v, q[0]) } else { d(v, q[1]) })
        } else if v < q[2] {
            (2, if from_left[1] { d(v, q[1]) } else { d(v, q[2]) })
        } else {
            (3, (n - v) as i64)
        }
    }

    /// The proof's gap sum S and B's named last stone (`None`: S <= -1, any stone will do)
    /// for W on q[`held`] and x < y, B on the other two ideal vertices (`held` 0 or 1; 2 is
    /// the reflection of 0).
    fn n3_family_x(n: usize, q: &[usize], held: usize, x: usize, y: usize) -> (i64, Option<usize>) {
        let (e, g) = (q[0] as i64, (q[1] - q[0] - 1) as i64);
        if held == 1 {
            let (rx, dx) = n3_place(x, n, q, [false, true]);
            let (ry, dy) = n3_place(y, n, q, [false, true]);
            match (rx, ry) {
                (0, 0) => (dy - e - 2, None),
                (3, 3) => (dx - e - 2, None),
                (0, 3) => (dx + dy - 2, Some(q[1] - 1)),
                (0, 1) | (1, 3) => (dx + dy - e - 2, Some(q[1] + 1)),
                (0, 2) | (2, 3) => (dx + dy - e - 2, Some(q[1] - 1)),
                (1, 2) if dx.max(dy) == 1 => (-2 * e, None),
                (1, 2) => (-2 * e + dx + dy - 2, Some(if dx >= dy { q[1] - 1 } else { q[1] + 1 })),
                (1, 1) => (-2 * e + dx - 2, None),
                _ => (-2 * e + dy - 2, None), // (2, 2)
            }
        } else {
            let (rx, dx) = n3_place(x, n, q, [true, false]);
            let (ry, dy) = n3_place(y, n, q, [true, false]);
            match (rx, ry) {
                (0, 0) => (-g - 2, None),
                (0, 1) => (dy - g - 2, None),
                (0, 2) => (-1, None),
                (0, 3) => (e + dy - g - 2, None),
                (1, 1) => (-g + dy - 2, None),
                (1, 2) => (dx - 1, Some(if dx >= 2 { q[0] + 1 } else { q[0] - 1 })),
                (1, 3) => (dx + e + dy - g - 2, Some(q[0] - 1)),
                (2, 2) => (dx - dy - 1, Some(q[0] - 1)), // from q_3: the proof's i_y - i_x
                (2, 3) => (e + dy - 1, Some(q[0] - 1)),
                _ => (e - g + dx - 2, None), // (3, 3)
            }
        }
    }

    /// Family Y of the proof: W on q_1 and q_2, B on q_3 and q_1 + 1, W's third stone on `z`:
    /// the gap sum and B's named last stone.
    fn n3_family_y(n: usize, q: &[usize], z: usize) -> (i64, Option<usize>) {
        let e = q[0] as i64;
        let d = |a: usize, b: usize| a.abs_diff(b) as i64;
        if z < q[0] {
            (-1, None)
        } else if z < q[2] {
            let dz = d(z, q[1]);
            let inside = if z < q[1] { q[1] - 1 } else { q[1] + 1 };
            (dz - 1, Some(if dz >= 2 { inside } else { q[0] - 1 }))
        } else {
            (e + (n - z) as i64 - 1, Some(q[0] - 1))
        }
    }

    /// docs/trusted.md, "n = 3, B's side": for every odd N from 7 to 151, the lengths, and in
    /// every position of the families X (W on one ideal vertex and two free stones, B on the
    /// other two; both reflections) and Y (W on two ideal vertices, B on the third and its
    /// named second stone, W's third anywhere) the gap sum is the proof's formula, B's named
    /// stone leaves W at most 0 (or S <= -1, where any stone does), and so does the checker's
    /// greedy stone; by the reference rules to N = 31, by gap states past it.
    #[test]
    fn n3_black_side_by_the_formulas() {
        for n in (7..=151usize).step_by(2) {
            let m = n / 6;
            let q = ideal_vertices(n, 3).unwrap();
            assert_eq!(q, [m, (n - 1) / 2, n - 1 - m], "N {n}");
            let (e, g) = (m as i64, (q[1] - q[0] - 1) as i64);
            assert!(q[2] - q[1] - 1 == q[1] - q[0] - 1 && 2 * e - 1 <= g && g <= 2 * e + 1);
            let g_path = (n <= 31).then(|| path(n));
            // W has one stone more than B here.
            let gap_sum = |line: &[u8]| margin_by(g_path.as_ref(), line) - 1;
            let check = |line: &[u8], (sum, reply): (i64, Option<usize>), what: &str| {
                assert_eq!(gap_sum(line), sum, "N {n} {what}: {}", String::from_utf8_lossy(line));
                match reply {
                    None => assert!(sum <= -1, "N {n} {what}"),
                    Some(v) => {
                        let mut last = line.to_vec();
                        assert_eq!(last[v], b'.', "N {n} {what}");
                        last[v] = b'B';
                        assert!(margin_by(g_path.as_ref(), &last) <= 0, "N {n} {what}");
                    }
                }
                let state = PathState::of_line(line);
                let (mv, i) = greedy_move(&state, false).unwrap();
                assert!(state.gap_margin() + gap_gain(mv, i, false) <= 0, "N {n} {what}");
            };
            for held in [0, 1, 2] {
                let mut base = vec![b'.'; n];
                for (k, &v) in q.iter().enumerate() {
                    base[v] = if k == held { b'W' } else { b'B' };
                }
                for x in 0..n {
                    for y in x + 1..n {
                        if base[x] != b'.' || base[y] != b'.' {
                            continue;
                        }
                        let mut line = base.clone();
                        line[x] = b'W';
                        line[y] = b'W';
                        let what = format!("X held q{} x {x} y {y}", held + 1);
                        if held < 2 {
                            check(&line, n3_family_x(n, &q, held, x, y), &what);
                        } else {
                            line.reverse(); // the reflection of held = 0
                            check(&line, n3_family_x(n, &q, 0, n - 1 - y, n - 1 - x), &what);
                        }
                    }
                }
            }
            for z in 0..n {
                let mut line = vec![b'.'; n];
                (line[q[0]], line[q[1]], line[q[2]], line[q[0] + 1]) = (b'W', b'W', b'B', b'B');
                if line[z] != b'.' {
                    continue;
                }
                line[z] = b'W';
                check(&line, n3_family_y(n, &q, z), &format!("Y z {z}"));
                // Y's reflection: W on q_2, q_3 and N - 1 - z, B on q_1 and q_3 - 1.
                line.reverse();
                let (sum, reply) = n3_family_y(n, &q, z);
                check(&line, (sum, reply.map(|v| n - 1 - v)), &format!("Y' z {}", n - 1 - z));
            }
        }
    }

    /// The proof's B strategy for n = 3 on odd N: the first empty ideal vertex in the order
    /// q_1, q_3, q_2; at B's second stone with none empty (W holds two), the vertex beside the
    /// outer one W holds, towards the centre; at the last stone the best one.
    fn n3_black_move(line: &[u8], q: &[usize], g: Option<&Graph>) -> usize {
        if let Some(&v) = [q[0], q[2], q[1]].iter().find(|&&v| line[v] == b'.') {
            return v;
        }
        let blacks = line.iter().filter(|&&c| c == b'B').count();
        if blacks == 1 {
            return if line[q[0]] == b'W' { q[0] + 1 } else { q[2] - 1 };
        }
        let empty = (0..line.len()).filter(|&v| line[v] == b'.');
        let after = |v: usize| {
            let mut last = line.to_vec();
            last[v] = b'B';
            margin_by(g, &last)
        };
        empty.min_by_key(|&v| after(v)).unwrap()
    }

    /// The proof's B strategy against every play of W, every odd N from 7 to 41 (the
    /// reference rules to N = 21, gap states past it): W never wins.
    #[test]
    fn n3_black_strategy_never_loses() {
        fn best(line: &mut Vec<u8>, q: &[usize], g: Option<&Graph>) -> i64 {
            let mut most = i64::MIN;
            for v in 0..line.len() {
                if line[v] != b'.' {
                    continue;
                }
                line[v] = b'W';
                let b = n3_black_move(line, q, g);
                line[b] = b'B';
                let score = if line.iter().filter(|&&c| c == b'B').count() == 3 {
                    margin_by(g, line)
                } else {
                    best(line, q, g)
                };
                most = most.max(score);
                line[b] = b'.';
                line[v] = b'.';
            }
            most
        }
        for n in (7..=41usize).step_by(2) {
            let q = ideal_vertices(n, 3).unwrap();
            let g = (n <= 21).then(|| path(n));
            assert!(best(&mut vec![b'.'; n], &q, g.as_ref()) <= 0, "N {n}");
        }
    }

    /// The budget stops the replay (a work-limit message, never an acceptance).
    #[test]
    fn the_work_is_charged() {
        let mut used = Budget::new(1 << 40);
        check_path_rule(20, 4, PathRuleName::U, Side::W, &mut used).unwrap();
        let mut small = Budget::new(used.used() / 2);
        let err = check_path_rule(20, 4, PathRuleName::U, Side::W, &mut small).unwrap_err();
        assert!(err.contains("work limit") && small.exhausted(), "{err}");
    }
}

//! The games of seed 000 with scores or ties (2.1.1, 2.1.3, 2.1.4, 2.3.2): their reference
//! rules on top of [`crate::triangulations::marking::Rules`] (edges, crossings, empty triangles), and the
//! replay of certificates that bound the outcome.
//!
//! # Rules (as this checker reads the paper)
//!
//! Players R (first) and B (second) alternate. In the constructing games the instance has
//! points only and a move draws a segment between two points that crosses no segment drawn
//! before; edge k is the k-th pair of points in sorted order. An empty triangle is three
//! drawn segments with no point strictly inside. In 2.3.2 the instance is a triangulation, a
//! move colours one of its black edges, and the empty triangles are its faces. In the
//! bichromatic games R's segments are red and B's are blue ("R and B ... red respectively
//! blue", 2.3.2; the same assignment is taken for 2.1.3 and 2.1.4). A game ends when the
//! player to move has no legal move (the triangulation is complete, or every edge coloured)
//! unless it ended earlier as below.
//!
//! - `monochromatic-complete-triangulation` (2.1.1): completing k >= 1 empty triangles
//!   scores k for the mover and she moves again. The value is R's triangles minus B's.
//! - `bichromatic-complete-triangulation` (2.1.3): as 2.1.1, but only empty triangles whose
//!   three segments have the mover's colour count (a completed triangle is monochromatic only
//!   in the colour of its last segment, so it is always the mover's); they score and give the
//!   extra move. An empty triangle with both colours scores nothing and gives no extra move.
//! - `bichromatic-triangle` (2.1.4): as 2.1.2, the game stops at the first empty triangle
//!   completed; "the first empty triangle must be monochromatic" is read as the condition
//!   for a win: if the move completes a monochromatic empty triangle (of the mover's colour)
//!   the mover wins (value +1 for R, -1 for B); if it completes only bichromatic empty
//!   triangles the game stops with no winner (value 0). A move completing one of each wins.
//! - `bichromatic-triangle-play-on` (2.1.4 read the other way, for comparison): bichromatic
//!   empty triangles are ignored and play goes on; the first monochromatic empty triangle
//!   wins for its completer; a complete triangulation without one is a tie.
//! - `bichromatic-coloring` (2.3.2): whoever completes a face of her own colour wins (+1/-1);
//!   bichromatic faces do nothing; every edge coloured without that is a tie (0).
//!
//! # Certificates
//!
//! `construct-strategy` bounds the value v (from R's side): `first` is R's strategy with a
//! claimed `at_least`, `second` is B's with a claimed `at_most`; either may be absent, and
//! both with equal bounds prove v exactly. A strategy lists the player's segment at each
//! position where she is to move, the position written as its segments: for the
//! monochromatic game the hexadecimal mask of drawn segments (bit k = edge k), for the
//! bichromatic games `red/blue`, two masks. The checker replays each strategy from the empty
//! position: at the player's turns it plays the listed (legal) segment, at the opponent's it
//! tries every legal segment; it computes the worst value over all plays by the rules above
//! (positions in a DAG, each evaluated once, iteratively) and compares it with the claim. A
//! failure names the position: a missing or illegal move, or a final position of a play that
//! breaks the bound.
//!
//! `balanced-colouring` (Lemma 4, for `bichromatic-coloring` instances) is one letter `r` or
//! `b` per edge of the triangulation; the checker verifies that the red and blue counts
//! differ by at most one and that no face has three edges of one colour.
//!
//! Nothing is trusted beyond these rules.

use crate::base::budget::Budget;
use crate::base::fingerprint::Fingerprints;
use crate::replay::{replay, Node, Rules as Replayed};
use crate::triangulations::marking::{MarkingGame, MarkingSpec, Rules};
use crate::verdict::{reject, Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A position: red (or, in the monochromatic game, all drawn) and blue segments, and who moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub red: u64,
    pub blue: u64,
    pub first_to_move: bool,
}

impl Pos {
    pub const START: Pos = Pos { red: 0, blue: 0, first_to_move: true };

    pub fn drawn(&self) -> u64 {
        self.red | self.blue
    }
}

/// Whether the game has two colours.
pub fn bichromatic(game: MarkingGame) -> bool {
    matches!(
        game,
        MarkingGame::BichromaticCompleteTriangulation
            | MarkingGame::BichromaticTriangle
            | MarkingGame::BichromaticTrianglePlayOn
            | MarkingGame::BichromaticColoring
    )
}

/// Whether the game is scored by triangles (otherwise its value is +1, 0 or -1).
pub fn scored(game: MarkingGame) -> bool {
    matches!(
        game,
        MarkingGame::MonochromaticCompleteTriangulation
            | MarkingGame::BichromaticCompleteTriangulation
    )
}

/// What one move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Play goes on at `next`; the mover scored `gain`.
    Go { gain: i64, next: Pos },
    /// The game is over; `gain` is the mover's (+1 a win, 0 no winner).
    End { gain: i64 },
}

/// The legal segments at `pos`.
pub fn legal(rules: &Rules, pos: Pos) -> Vec<usize> {
    rules.legal(pos.drawn())
}

/// The mover draws (colours) `e` at `pos`; `e` must be legal. (2.1.2, `monochromatic-triangle`,
/// is played here too, for the solver's benchmark: the first empty triangle wins.)
pub fn step(rules: &Rules, pos: Pos, e: usize) -> Step {
    let two = bichromatic(rules.game);
    let blue_moves = two && !pos.first_to_move;
    let own = if blue_moves { pos.blue } else { pos.red };
    let mono = rules.completed(own, e) as i64;
    let mut next = pos;
    if blue_moves {
        next.blue |= 1 << e;
    } else {
        next.red |= 1 << e;
    }
    next.first_to_move = pos.first_to_move == (mono > 0 && scored(rules.game));
    match rules.game {
        MarkingGame::BichromaticTriangle if mono > 0 => Step::End { gain: 1 },
        MarkingGame::BichromaticTriangle if rules.completed(pos.drawn(), e) > 0 => {
            Step::End { gain: 0 }
        }
        MarkingGame::BichromaticColoring
        | MarkingGame::BichromaticTrianglePlayOn
        | MarkingGame::MonochromaticTriangle
            if mono > 0 =>
        {
            Step::End { gain: 1 }
        }
        MarkingGame::MonochromaticCompleteTriangulation
        | MarkingGame::BichromaticCompleteTriangulation => Step::Go { gain: mono, next },
        _ => Step::Go { gain: 0, next },
    }
}

/// The position key of a certificate: `hex` (monochromatic) or `red/blue`.
pub fn key(game: MarkingGame, pos: Pos) -> String {
    if bichromatic(game) {
        format!("{:x}/{:x}", pos.red, pos.blue)
    } else {
        format!("{:x}", pos.red)
    }
}

fn parse_key(game: MarkingGame, text: &str) -> Option<(u64, u64)> {
    let hex = |t: &str| u64::from_str_radix(t, 16).ok();
    if bichromatic(game) {
        let (r, b) = text.split_once('/')?;
        Some((hex(r)?, hex(b)?))
    } else {
        Some((hex(text)?, 0))
    }
}

/// R's strategy and its claimed lower bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstSide {
    pub at_least: i64,
    pub moves: Vec<(String, usize)>,
}

/// B's strategy and its claimed upper bound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondSide {
    pub at_most: i64,
    pub moves: Vec<(String, usize)>,
}

/// Certificate kind `construct-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstructStrategy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<FirstSide>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<SecondSide>,
}

/// Certificate kind `balanced-colouring` (Lemma 4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BalancedColouring {
    /// `r` or `b` per edge, in sorted edge order.
    pub colours: String,
}

/// What the value `v` means, in words.
pub fn describe(game: MarkingGame, v: i64) -> String {
    match (scored(game), v.signum()) {
        (true, _) => format!("R's triangles minus B's is {v}"),
        (false, 1) => "the first player (R) wins".into(),
        (false, -1) => "the second player (B) wins".into(),
        _ => "a tie".into(),
    }
}

/// The claim of a certificate, in words.
pub fn claim(game: MarkingGame, cert: &ConstructStrategy) -> String {
    match (&cert.first, &cert.second) {
        (Some(f), Some(s)) if f.at_least == s.at_most => {
            format!("{}: {}", game, describe(game, f.at_least))
        }
        (f, s) => {
            let mut parts = Vec::new();
            if let Some(f) = f {
                parts.push(format!("value >= {}", f.at_least));
            }
            if let Some(s) = s {
                parts.push(format!("value <= {}", s.at_most));
            }
            let bounds = parts.join(" and ");
            let words = match (f.as_ref().map(|f| f.at_least), s.as_ref().map(|s| s.at_most)) {
                (Some(l), _) if l >= 1 => " (the first player wins)",
                (_, Some(u)) if u <= -1 => " (the second player wins)",
                (Some(0), _) => " (the first player does not lose)",
                (_, Some(0)) => " (the second player does not lose)",
                _ => "",
            };
            format!("{game}: {bounds}{words} (value: R's margin)")
        }
    }
}

/// One replayed side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideReport {
    pub positions: u64,
    pub finals: u64,
    /// The worst value over all plays.
    pub worst: i64,
}

/// What the check did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ConstructReport {
    pub first: Option<SideReport>,
    pub second: Option<SideReport>,
}

/// The rules of a construct-game instance, the validation charged to `budget`.
pub fn rules(spec: &MarkingSpec, budget: &mut Budget) -> Result<Rules, String> {
    ensure!(
        spec.game.is_construct_game(),
        "{} is a win/lose marking game: it takes a marking-strategy certificate",
        spec.game
    );
    Rules::from_spec(spec, budget)
}

/// Replays one side's strategy: the worst value (R's margin) over every play in which the
/// player `first` (R if true) follows `moves`, with the final position reaching it.
fn replay_side(
    rules: &Rules,
    first: bool,
    bound: i64,
    moves: &[(String, usize)],
    budget: &mut Budget,
) -> Result<SideReport, String> {
    let who = if first { "R's strategy" } else { "B's strategy" };
    let game = rules.game;
    budget.charge_each(moves.len() as u64, 64, "reading the strategy")?;
    // Listing the legal moves scans the edges and their crossings; a move scans the shapes.
    let per_position = 96 + rules.edges as u64 * 4;
    let per_move = 32 + rules.targets().len() as u64 * 2;
    let mut table: HashMap<(u64, u64), usize> = HashMap::new();
    for (k, (text, e)) in moves.iter().enumerate() {
        let Some((red, blue)) = parse_key(game, text) else {
            fail!(
                "{who}: moves[{k}]: '{text}' is not a position ({})",
                if bichromatic(game) { "red/blue hexadecimal masks" } else { "a hexadecimal mask" }
            );
        };
        if (red | blue) & !rules.full() != 0 || red & blue != 0 || *e >= rules.edges {
            fail!("{who}: moves[{k}]: beyond the {} edges or overlapping colours", rules.edges);
        }
        if table.insert((red, blue), *e).is_some() {
            fail!("{who}: moves[{k}]: position {text} is given twice");
        }
    }
    let mut walk = Walk {
        rules,
        first,
        bound,
        table,
        per_position,
        per_move,
        prints: Fingerprints::new(),
        path: Vec::new(),
        worst: None,
        finals: 0,
    };
    walk.enter(Pos::START, 0);
    let walked = replay(&mut walk, budget)?;
    let Some((worst, _)) = walk.worst else {
        fail!("{who}: no play reaches the end of the game");
    };
    Ok(SideReport { positions: walked.positions, finals: walk.finals, worst })
}

/// The replay of one side's strategy: a position is the segments drawn with the score so far
/// (R's margin), since a scored game's position includes its score; the current position is
/// the last of `path`.
struct Walk<'r> {
    rules: &'r Rules,
    /// Whether the strategy is R's (the first player's).
    first: bool,
    /// The value the strategy must guarantee: at least it (R's) or at most it (B's).
    bound: i64,
    table: HashMap<(u64, u64), usize>,
    per_position: u64,
    per_move: u64,
    prints: Fingerprints,
    path: Vec<(Pos, i64, u128)>,
    /// The worst final value met, and the final position reaching it.
    worst: Option<(i64, Pos)>,
    finals: u64,
}

impl Walk<'_> {
    fn enter(&mut self, pos: Pos, score: i64) {
        let key = self.prints.of(&(pos, score));
        self.path.push((pos, score, key));
    }

    /// A play ends at `last` with value `value`: it must keep the strategy's promise.
    fn end(&mut self, value: i64, last: Pos) -> Result<(), String> {
        self.finals += 1;
        let (first, bound, game) = (self.first, self.bound, self.rules.game);
        if self.worst.is_none_or(|(w, _)| (first && value < w) || (!first && value > w)) {
            self.worst = Some((value, last));
        }
        ensure!(
            !first || value >= bound,
            "R's strategy guarantees only {value} < {bound}: B reaches final position {} with \
             that value",
            key(game, last)
        );
        ensure!(
            first || value <= bound,
            "B's strategy holds R only to {value} > {bound}: R reaches final position {} with \
             that value",
            key(game, last)
        );
        Ok(())
    }
}

impl Replayed for Walk<'_> {
    /// The position a move leads to, and the change of R's margin.
    type Move = (Pos, i64);

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1].2
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<(Pos, i64)>, String> {
        let (pos, score, _) = self.path[self.path.len() - 1];
        let (rules, game) = (self.rules, self.rules.game);
        budget.charge(self.per_position, "replaying positions")?;
        let options = legal(rules, pos);
        if options.is_empty() {
            self.end(score, pos)?;
            return Ok(Node::Leaf);
        }
        let who = if self.first { "R's strategy" } else { "B's strategy" };
        let options = if pos.first_to_move == self.first {
            let Some(&e) = self.table.get(&(pos.red, pos.blue)) else {
                fail!("{who}: no move at position {}", key(game, pos));
            };
            ensure!(
                options.contains(&e),
                "{who}: at position {}: edge {e} is not a legal move (drawn or crossing)",
                key(game, pos)
            );
            vec![e]
        } else {
            options
        };
        budget
            .charge_each(options.len() as u64, self.per_move, "replaying moves")
            .map_err(|why| format!("{who}: {why}"))?;
        let sign = if pos.first_to_move { 1 } else { -1 };
        let mut follow = Vec::with_capacity(options.len());
        for e in options {
            match step(rules, pos, e) {
                Step::End { gain } => {
                    let mut last = pos;
                    if bichromatic(game) && !pos.first_to_move {
                        last.blue |= 1 << e;
                    } else {
                        last.red |= 1 << e;
                    }
                    self.end(score + sign * gain, last)?;
                }
                Step::Go { gain, next } => follow.push((next, sign * gain)),
            }
        }
        Ok(Node::Moves(follow))
    }

    fn play(&mut self, (next, change): (Pos, i64), _: &mut Budget) -> Result<(), String> {
        let score = self.path[self.path.len() - 1].1;
        self.enter(next, score + change);
        Ok(())
    }

    fn undo(&mut self, _: (Pos, i64)) {
        self.path.pop();
    }
}

/// Checks a `construct-strategy` certificate on the instance.
pub fn check_construct_strategy(
    spec: &MarkingSpec,
    cert: &ConstructStrategy,
    budget: &mut Budget,
) -> Result<ConstructReport, String> {
    let rules = rules(spec, budget)?;
    if cert.first.is_none() && cert.second.is_none() {
        return Err("the certificate has neither R's (first) nor B's (second) strategy".into());
    }
    let mut report = ConstructReport::default();
    if let Some(f) = &cert.first {
        report.first = Some(replay_side(&rules, true, f.at_least, &f.moves, budget)?);
    }
    if let Some(s) = &cert.second {
        report.second = Some(replay_side(&rules, false, s.at_most, &s.moves, budget)?);
    }
    Ok(report)
}

/// Checks a `balanced-colouring` certificate (Lemma 4) on a `bichromatic-coloring` instance.
pub fn check_balanced_colouring(
    spec: &MarkingSpec,
    cert: &BalancedColouring,
    budget: &mut Budget,
) -> Result<(usize, usize), String> {
    ensure!(
        spec.game == MarkingGame::BichromaticColoring,
        "a balanced colouring is a witness for bichromatic-coloring instances, not {}",
        spec.game
    );
    let rules = Rules::from_spec(spec, budget)?;
    budget.charge(
        cert.colours.len() as u64 * 4 + rules.targets().len() as u64,
        "checking the colouring",
    )?;
    let letters: Vec<char> = cert.colours.chars().collect();
    ensure!(
        letters.len() == rules.edges,
        "colours: {} letters for {} edges",
        letters.len(),
        rules.edges
    );
    let (mut red, mut blue) = (0u64, 0u64);
    for (k, c) in letters.iter().enumerate() {
        match c {
            'r' => red |= 1 << k,
            'b' => blue |= 1 << k,
            other => fail!("colours[{k}]: '{other}' is neither 'r' nor 'b'"),
        }
    }
    let (r, b) = (red.count_ones() as usize, blue.count_ones() as usize);
    ensure!(r.abs_diff(b) <= 1, "{r} red and {b} blue edges: not balanced");
    if let Some(t) = rules.targets().iter().find(|&&t| red & t == t || blue & t == t) {
        let edges: Vec<usize> = (0..rules.edges).filter(|k| t >> k & 1 == 1).collect();
        fail!("the face with edges {edges:?} is monochromatic");
    }
    Ok((r, b))
}

/// The claim of a `balanced-colouring` certificate.
pub const LEMMA_4_CLAIM: &str = "a colouring of every edge, red and blue counts differing by \
at most one, with no monochromatic face (Lemma 4)";

impl Claim for ConstructStrategy {
    fn claim(&self) -> String {
        "bounds on the value of a game on points".into()
    }
}

impl Claim for BalancedColouring {
    fn claim(&self) -> String {
        LEMMA_4_CLAIM.into()
    }
}

/// Registry entry for `construct-strategy`.
pub fn strategy_verdict(
    spec: &MarkingSpec,
    cert: &ConstructStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = claim(spec.game, cert);
    match check_construct_strategy(spec, cert, budget) {
        Ok(report) => {
            let sides: Vec<String> = [("R", &report.first), ("B", &report.second)]
                .iter()
                .filter_map(|(who, side)| {
                    side.as_ref().map(|s| {
                        format!(
                            "{who}'s strategy: {}, {}, worst value {}",
                            crate::base::text::counted(s.positions, "position"),
                            crate::base::text::counted(s.finals, "final position"),
                            s.worst
                        )
                    })
                })
                .collect();
            let sum = |f: fn(&SideReport) -> u64| {
                [&report.first, &report.second]
                    .iter()
                    .filter_map(|s| s.as_ref().map(f))
                    .sum::<u64>()
            };
            Verdict {
                outcome: crate::verdict::Decision::Accepted,
                claim,
                reason: format!("replayed against every opponent move: {}", sides.join("; ")),
                work: Work {
                    positions: Some(sum(|s| s.positions)),
                    leaves: Some(sum(|s| s.finals)),
                    ..Work::default()
                },
                trusted: Vec::new(),
            }
        }
        Err(why) => reject(claim, why, Work::default()),
    }
}

/// The checker's verdict on a `balanced-colouring` certificate.
pub fn colouring_verdict(
    spec: &MarkingSpec,
    cert: &BalancedColouring,
    budget: &mut Budget,
) -> Verdict {
    match check_balanced_colouring(spec, cert, budget) {
        Ok((r, b)) => Verdict {
            outcome: crate::verdict::Decision::Accepted,
            claim: LEMMA_4_CLAIM.into(),
            reason: format!("{r} red and {b} blue edges, every face has both colours"),
            work: Work { edges: Some(r + b), ..Work::default() },
            trusted: Vec::new(),
        },
        Err(why) => reject(LEMMA_4_CLAIM.into(), why, Work::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;
    use crate::base::budget::DEFAULT_MAX_WORK;
    use crate::triangulations::geometry::TriangulationSpec;

    fn spec(game: MarkingGame, points: Vec<[i64; 2]>, triangles: Vec<[usize; 3]>) -> MarkingSpec {
        MarkingSpec { game, triangulation: TriangulationSpec { points, triangles, edges: vec![] } }
    }

    fn triangle() -> Vec<[i64; 2]> {
        vec![[0, 0], [1, 1], [2, 4]]
    }

    /// On three points 2.1.1 is decided by parity: three segments, the third completes the
    /// one triangle, R draws segments 1 and 3, so R wins by 1. Any strategy of R's works.
    #[test]
    fn three_points_monochromatic() {
        let s = spec(MarkingGame::MonochromaticCompleteTriangulation, triangle(), vec![]);
        // Edges 01, 02, 12 = bits 0, 1, 2. R draws 0, then whatever is left.
        let moves = vec![("0".into(), 0), ("3".into(), 2), ("5".into(), 1)];
        let cert =
            ConstructStrategy { first: Some(FirstSide { at_least: 1, moves }), second: None };
        let r = check_construct_strategy(&s, &cert, &mut Budget::new(100_000)).unwrap();
        assert_eq!(r.first.unwrap().worst, 1);
        let mut greedy = cert.clone();
        greedy.first.as_mut().unwrap().at_least = 2;
        let err = check_construct_strategy(&s, &greedy, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("guarantees only 1 < 2"), "{err}");
        let mut missing = cert;
        missing.first.as_mut().unwrap().moves.pop();
        let err = check_construct_strategy(&s, &missing, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("no move at position 5"), "{err}");
    }

    /// On three points 2.1.4: R draws 0, B draws one, R's last segment completes the only
    /// triangle, which has both colours: no winner. 2.1.3: nobody scores.
    #[test]
    fn three_points_bichromatic_is_a_tie() {
        for game in
            [MarkingGame::BichromaticTriangle, MarkingGame::BichromaticCompleteTriangulation]
        {
            let s = spec(game, triangle(), vec![]);
            let rules = rules(&s, &mut Budget::new(DEFAULT_MAX_WORK)).unwrap();
            let after = |pos: Pos, e| match step(&rules, pos, e) {
                Step::Go { next, .. } => next,
                Step::End { .. } => panic!("over"),
            };
            let p = after(after(Pos::START, 0), 1);
            assert_eq!((p.red, p.blue, p.first_to_move), (1, 2, true));
            assert_eq!(step(&rules, p, 2), {
                if game == MarkingGame::BichromaticTriangle {
                    Step::End { gain: 0 }
                } else {
                    Step::Go { gain: 0, next: Pos { red: 5, blue: 2, first_to_move: false } }
                }
            });
            let cert = ConstructStrategy {
                first: Some(FirstSide {
                    at_least: 0,
                    moves: vec![("0/0".into(), 0), ("1/2".into(), 2), ("1/4".into(), 1)],
                }),
                second: Some(SecondSide {
                    at_most: 0,
                    moves: vec![("1/0".into(), 1), ("2/0".into(), 0), ("4/0".into(), 0)],
                }),
            };
            check_construct_strategy(&s, &cert, &mut Budget::new(100_000)).unwrap();
            assert!(claim(game, &cert).contains(&describe(game, 0)));
            let mut wrong = cert.clone();
            wrong.second.as_mut().unwrap().moves[0].1 = 0;
            let err = check_construct_strategy(&s, &wrong, &mut Budget::new(100_000)).unwrap_err();
            assert!(err.contains("at position 1/0: edge 0 is not a legal"), "{err}");
        }
    }

    /// A red triangle on four points in convex position scores in 2.1.3 and keeps the turn,
    /// wins 2.1.4 and its play-on reading; a triangle with a blue side does nothing in 2.1.3,
    /// ends 2.1.4 without a winner, and lets play go on in the play-on reading.
    #[test]
    fn monochromatic_and_bichromatic_completions() {
        let points = vec![[0, 0], [1, 1], [2, 4], [3, 9]];
        // pairs 01 02 03 12 13 23 = bits 0..6; triangle 012 = bits 0, 1, 3
        let at = |red, blue, first_to_move| Pos { red, blue, first_to_move };
        let (red_two, blue_side) = (at(0b1001, 0b100000, true), at(0b1000, 0b100001, true));
        let play_on = Step::Go { gain: 0, next: at(0b1010, 0b100001, false) };
        for (game, red_done, blue_done) in [
            (
                MarkingGame::BichromaticCompleteTriangulation,
                Step::Go { gain: 1, next: at(0b1011, 0b100000, true) },
                play_on,
            ),
            (MarkingGame::BichromaticTriangle, Step::End { gain: 1 }, Step::End { gain: 0 }),
            (MarkingGame::BichromaticTrianglePlayOn, Step::End { gain: 1 }, play_on),
        ] {
            let rules =
                rules(&spec(game, points.clone(), vec![]), &mut Budget::new(DEFAULT_MAX_WORK))
                    .unwrap();
            assert_eq!(step(&rules, red_two, 1), red_done, "{game:?}");
            assert_eq!(step(&rules, blue_side, 1), blue_done, "{game:?}");
        }
    }

    /// Malformed moves are refused with the move's index, never a panic.
    #[test]
    fn malformed_moves_are_refused() {
        let s = spec(MarkingGame::BichromaticTriangle, triangle(), vec![]);
        for (text, e, expected) in [
            ("zz", 0, "is not a position"),
            ("0", 0, "is not a position"),
            ("1/1", 0, "overlapping"),
            ("0/0", 99, "beyond the 3 edges"),
            ("fffffffffffffffffff/0", 0, "is not a position"),
            ("8/0", 0, "beyond the 3 edges"),
        ] {
            let cert = ConstructStrategy {
                first: Some(FirstSide { at_least: 0, moves: vec![(text.into(), e)] }),
                second: None,
            };
            let err = check_construct_strategy(&s, &cert, &mut Budget::new(100_000)).unwrap_err();
            assert!(err.contains("moves[0]") && err.contains(expected), "{err}");
        }
        let empty = ConstructStrategy { first: None, second: None };
        assert!(check_construct_strategy(&s, &empty, &mut Budget::new(100_000)).is_err());
        let mono = spec(MarkingGame::Coloring, triangle(), vec![[0, 1, 2]]);
        assert!(check_construct_strategy(&mono, &empty, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("marking-strategy"));
    }

    /// 2.3.2 on two faces: a tie is reachable, a balanced colouring exists, and a colouring
    /// with a monochromatic face or out of balance is refused.
    #[test]
    fn balanced_colourings() {
        let s = spec(
            MarkingGame::BichromaticColoring,
            vec![[0, 0], [1, 1], [2, 4], [3, 9]],
            vec![[0, 1, 2], [0, 2, 3]],
        );
        // edges 01, 02, 03, 12, 23; faces {01, 02, 12} and {02, 03, 23}
        assert_eq!(
            check_balanced_colouring(
                &s,
                &BalancedColouring { colours: "rbrrb".into() },
                &mut Budget::new(u64::MAX)
            ),
            Ok((3, 2))
        );
        let err = check_balanced_colouring(
            &s,
            &BalancedColouring { colours: "rrbrb".into() },
            &mut Budget::new(u64::MAX),
        )
        .unwrap_err();
        assert!(err.contains("monochromatic"), "{err}");
        let err = check_balanced_colouring(
            &s,
            &BalancedColouring { colours: "rbrrr".into() },
            &mut Budget::new(u64::MAX),
        )
        .unwrap_err();
        assert!(err.contains("not balanced"), "{err}");
        assert!(check_balanced_colouring(
            &s,
            &BalancedColouring { colours: "rb".into() },
            &mut Budget::new(u64::MAX)
        )
        .is_err());
    }
}

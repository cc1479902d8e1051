//! The monochromatic marking games on a triangulation (seed 000, 2.3.1, 2.3.3, 2.3.4): the
//! reference rules and the replay of a winning strategy.
//!
//! Players alternately colour a black edge of the triangulation green.
//! - `coloring` (2.3.1): whoever completes an empty green triangle (a face) wins.
//! - `four-cycle` (2.3.3): whoever completes an empty green quadrilateral wins. A 4-cycle with
//!   no point inside is the union of two faces sharing an edge (its diagonal, of any colour),
//!   so it is complete when its four boundary edges are green.
//! - `nimstring` (2.3.4): whoever completes one or more triangles must move again; a player
//!   who cannot move loses (so colouring the last edge loses). `nimstring-misere`: a player who
//!   cannot move wins.
//! - The games with scores or ties (2.1.1, 2.1.3, 2.1.4, 2.3.2) are listed here too, so that
//!   their instances share this format and these rules' edges, crossings and empty triangles;
//!   their rules and certificates are [`crate::triangulations::constructing`].
//! - `monochromatic-triangle` (2.1.2, a constructing game): the instance has points only; the
//!   players draw segments between points that cross no segment drawn before, and whoever
//!   completes an empty triangle (three drawn segments, no point strictly inside) wins. Here
//!   "edge k" is the k-th pair of points in sorted order.
//!
//! The instance (kind `marking-game`) gives the points, the triangles and the game; the
//! triangulation is validated by [`crate::triangulations::geometry`]. Edges are numbered in sorted order
//! (pairs (i, j), i < j, lexicographically), and a position is the set of green edges as a
//! hexadecimal bit mask (bit k = edge k).
//!
//! A certificate (kind `marking-strategy`) names the winner ("first" or "second") and the
//! winner's edge at each position where the winner is to move. The checker replays from the
//! empty colouring, edge by edge, with the player to move tracked by the rules above (a
//! Nimstring completion keeps the turn): at the winner's turns it plays the listed edge, at the
//! opponent's it tries every black edge; every play must end in the winner's win. Positions
//! are (green set, player to move) pairs, each expanded once; nothing is trusted beyond the
//! rules.

use crate::base::budget::Budget;
use crate::replay::{replay, Node};
use crate::triangulations::geometry::{Point, Triangulation, TriangulationSpec};
use crate::verdict::{Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Largest number of edges (one bit each in a `u64`).
pub const MAX_EDGES: usize = 64;

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MarkingGame {
    Coloring,
    FourCycle,
    Nimstring,
    NimstringMisere,
    MonochromaticTriangle,
    /// 2.1.1, scored: see [`crate::triangulations::constructing`].
    MonochromaticCompleteTriangulation,
    /// 2.1.3, scored, red and blue segments: see [`crate::triangulations::constructing`].
    BichromaticCompleteTriangulation,
    /// 2.1.4, red and blue segments, first empty triangle: see [`crate::triangulations::constructing`].
    BichromaticTriangle,
    /// 2.1.4 read the other way: bichromatic empty triangles are ignored and play goes on.
    BichromaticTrianglePlayOn,
    /// 2.3.2 on a given triangulation: see [`crate::triangulations::constructing`].
    BichromaticColoring,
}

impl std::fmt::Display for MarkingGame {
    /// The game's name in words, as in seed 000 ("the first player wins Nimstring").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MarkingGame::Coloring => "Coloring",
            MarkingGame::FourCycle => "Four-Cycle",
            MarkingGame::Nimstring => "Nimstring",
            MarkingGame::NimstringMisere => "misere Nimstring",
            MarkingGame::MonochromaticTriangle => "Monochromatic Triangle",
            MarkingGame::MonochromaticCompleteTriangulation => {
                "Monochromatic Complete Triangulation"
            }
            MarkingGame::BichromaticCompleteTriangulation => "Bichromatic Complete Triangulation",
            MarkingGame::BichromaticTriangle => "Bichromatic Triangle",
            MarkingGame::BichromaticTrianglePlayOn => "Bichromatic Triangle (play on)",
            MarkingGame::BichromaticColoring => "Bichromatic Coloring",
        })
    }
}

impl MarkingGame {
    /// Whether the game starts from the points alone (drawing non-crossing segments).
    pub fn is_constructing(self) -> bool {
        matches!(
            self,
            MarkingGame::MonochromaticTriangle
                | MarkingGame::MonochromaticCompleteTriangulation
                | MarkingGame::BichromaticCompleteTriangulation
                | MarkingGame::BichromaticTriangle
                | MarkingGame::BichromaticTrianglePlayOn
        )
    }

    /// Whether the game is one of [`crate::triangulations::constructing`] (scores or ties; certificate kinds
    /// `construct-strategy` and `balanced-colouring`) rather than a plain win.
    pub fn is_construct_game(self) -> bool {
        matches!(
            self,
            MarkingGame::MonochromaticCompleteTriangulation
                | MarkingGame::BichromaticCompleteTriangulation
                | MarkingGame::BichromaticTriangle
                | MarkingGame::BichromaticTrianglePlayOn
                | MarkingGame::BichromaticColoring
        )
    }
}

/// Largest point set of a constructing game (its pairs must fit in 64 bits).
pub const MAX_CONSTRUCTING_POINTS: usize = 11;

/// Instance kind `marking-game`. Read through `MarkingFields` (serde refuses no unknown
/// field through `flatten`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "MarkingFields")]
pub struct MarkingSpec {
    pub game: MarkingGame,
    #[serde(flatten)]
    pub triangulation: TriangulationSpec,
}

/// A `marking-game` instance as written: the game and the fields of its triangulation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkingFields {
    game: MarkingGame,
    points: Vec<Point>,
    #[serde(default)]
    triangles: Vec<[usize; 3]>,
    #[serde(default)]
    edges: Vec<[usize; 2]>,
}

impl From<MarkingFields> for MarkingSpec {
    fn from(fields: MarkingFields) -> MarkingSpec {
        let MarkingFields { game, points, triangles, edges } = fields;
        MarkingSpec { game, triangulation: TriangulationSpec { points, triangles, edges } }
    }
}

/// Certificate kind `marking-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkingStrategy {
    /// "first" or "second".
    pub winner: String,
    /// (green edges as a hexadecimal mask, the winner's edge index).
    pub moves: Vec<(String, usize)>,
}

/// The rules on a validated triangulation.
pub struct Rules {
    pub game: MarkingGame,
    pub edges: usize,
    /// The completable shapes as edge masks: faces, or the boundaries of two adjacent faces,
    /// or (constructing) every empty triangle of the points.
    targets: Vec<u64>,
    /// For each edge, the edges crossing it (constructing games; zero otherwise).
    crossing: Vec<u64>,
}

/// What colouring an edge does.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The mover wins at once.
    MoverWins,
    /// Play goes on; `true` if the same player moves again.
    Continue(bool),
}

impl Rules {
    /// The rules of an instance: its triangulation validated, or for a constructing game its
    /// points checked (general position); the work charged to `budget`.
    pub fn from_spec(spec: &MarkingSpec, budget: &mut Budget) -> Result<Rules, String> {
        let points = &spec.triangulation.points;
        let n = points.len();
        if !spec.game.is_constructing() {
            // Every triangulation of n >= 3 points has at least 2n - 3 edges: a larger point
            // set is refused before it is validated.
            let least = n.saturating_mul(2).saturating_sub(3);
            ensure!(
                least <= MAX_EDGES,
                "{n} points: every triangulation of them has at least 2n - 3 = {least} \
                     edges, and the marking rules take at most {MAX_EDGES}"
            );
            return Rules::new(spec.game, &spec.triangulation.validate(budget)?, budget);
        }
        // The size first: the loops below are cubic and quartic in the points.
        ensure!(
            n <= MAX_CONSTRUCTING_POINTS,
            "{n} points: a constructing game takes at most {MAX_CONSTRUCTING_POINTS}"
        );
        if !spec.triangulation.triangles.is_empty() || !spec.triangulation.edges.is_empty() {
            return Err(
                "a constructing game starts from the points alone: give no triangles or edges"
                    .into(),
            );
        }
        crate::triangulations::geometry::check_points(points, budget)?;
        // n <= 11: none of these products comes near overflowing.
        let (nn, pair_count) = (n as u64, (n * n.saturating_sub(1) / 2) as u64);
        budget.charge(
            pair_count * pair_count * 8 + nn * nn * nn * (nn * 6 + 3 * pair_count),
            "listing the crossings and empty triangles of the points",
        )?;
        let pairs: Vec<[usize; 2]> = (0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b])).collect();
        let index = |a: usize, b: usize| {
            pairs.iter().position(|&e| e == [a.min(b), a.max(b)]).expect("a pair")
        };
        let crossing = pairs
            .iter()
            .map(|e| {
                pairs.iter().enumerate().fold(0u64, |m, (k, f)| {
                    let p = |i: usize| points[i];
                    if crate::triangulations::geometry::segments_cross(
                        p(e[0]),
                        p(e[1]),
                        p(f[0]),
                        p(f[1]),
                    ) {
                        m | 1 << k
                    } else {
                        m
                    }
                })
            })
            .collect();
        let mut targets = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in b + 1..n {
                    let empty = (0..n).all(|q| {
                        !crate::triangulations::geometry::strictly_inside(
                            points[q], points[a], points[b], points[c],
                        )
                    });
                    if empty {
                        targets.push(1u64 << index(a, b) | 1 << index(b, c) | 1 << index(a, c));
                    }
                }
            }
        }
        Ok(Rules { game: spec.game, edges: pairs.len(), targets, crossing })
    }

    /// The rules on a validated triangulation (at most [`MAX_EDGES`] edges), the work charged
    /// to `budget`.
    pub fn new(game: MarkingGame, t: &Triangulation, budget: &mut Budget) -> Result<Rules, String> {
        let edges = t.edges.len();
        ensure!(edges <= MAX_EDGES, "{edges} edges: at most {MAX_EDGES}");
        // A triangulation of at most 64 edges has at most 43 faces: their pairs are few.
        let faces_count = u64::try_from(t.triangles.len()).unwrap_or(u64::MAX);
        budget.charge(
            faces_count
                .saturating_mul(faces_count)
                .saturating_mul(4)
                .saturating_add(faces_count.saturating_mul(16))
                .saturating_add(64 * 64),
            "listing the faces and their pairs",
        )?;
        let index: HashMap<[usize; 2], usize> =
            t.edges.iter().enumerate().map(|(k, &e)| (e, k)).collect();
        let bit = |a: usize, b: usize| 1u64 << index[&[a.min(b), a.max(b)]];
        let faces: Vec<u64> = t
            .triangles
            .iter()
            .map(|f| bit(f[0], f[1]) | bit(f[1], f[2]) | bit(f[2], f[0]))
            .collect();
        let targets = match game {
            MarkingGame::FourCycle => {
                let mut quads = Vec::new();
                for (i, &a) in faces.iter().enumerate() {
                    for &b in &faces[i + 1..] {
                        if a & b != 0 {
                            quads.push((a | b) & !(a & b));
                        }
                    }
                }
                quads
            }
            _ => faces,
        };
        Ok(Rules { game, edges, targets, crossing: vec![0; edges] })
    }

    /// The legal moves at `green`: black edges crossing no green edge.
    pub fn legal(&self, green: u64) -> Vec<usize> {
        (0..self.edges).filter(|&e| green >> e & 1 == 0 && green & self.crossing[e] == 0).collect()
    }

    /// The number of completable shapes that colouring `e` completes when `own` is the set of
    /// edges that count (the green edges, or the mover's colour in a bichromatic game).
    pub fn completed(&self, own: u64, e: usize) -> usize {
        let after = own | 1 << e;
        self.targets.iter().filter(|&&t| t >> e & 1 == 1 && after & t == t).count()
    }

    /// The completable shapes (faces, quadrilaterals, or empty triangles) as edge masks.
    pub fn targets(&self) -> &[u64] {
        &self.targets
    }

    /// Colours black edge `e` in `green` (the games of [`crate::triangulations::constructing`] are played by
    /// its own step function; here they behave as if every edge were the mover's).
    pub fn colour(&self, green: u64, e: usize) -> Outcome {
        let after = green | 1 << e;
        let completes = self.targets.iter().any(|&t| t >> e & 1 == 1 && after & t == t);
        match self.game {
            MarkingGame::Nimstring
            | MarkingGame::NimstringMisere
            | MarkingGame::MonochromaticCompleteTriangulation
            | MarkingGame::BichromaticCompleteTriangulation => Outcome::Continue(completes),
            _ if completes => Outcome::MoverWins,
            _ => Outcome::Continue(false),
        }
    }

    /// Whether the player to move with no legal move left wins.
    pub fn stuck_player_wins(&self) -> bool {
        self.game == MarkingGame::NimstringMisere
    }

    pub fn full(&self) -> u64 {
        if self.edges == 64 {
            u64::MAX
        } else {
            (1u64 << self.edges) - 1
        }
    }
}

/// What the replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MarkingReport {
    pub positions: u64,
    pub wins: u64,
}

/// Replays `strategy` on the instance, charging `budget` for every position and move.
pub fn check_marking_strategy(
    spec: &MarkingSpec,
    strategy: &MarkingStrategy,
    budget: &mut Budget,
) -> Result<MarkingReport, String> {
    if spec.game.is_construct_game() {
        fail!(
            "{} has scores or ties: it takes a construct-strategy certificate, not a \
             marking-strategy",
            spec.game
        );
    }
    let rules = Rules::from_spec(spec, budget)?;
    let winner_first = crate::base::winner_is_first(&strategy.winner)?;
    budget.charge_each(strategy.moves.len() as u64, 64, "reading the strategy")?;
    // Listing the legal moves scans the edges; colouring one scans the shapes.
    let (edges, shapes) = (rules.edges as u64, rules.targets.len() as u64);
    let per_position = 48 + edges * 4;
    let per_move = 16 + shapes;
    let mut moves: HashMap<u64, usize> = HashMap::new();
    for (k, (hex, e)) in strategy.moves.iter().enumerate() {
        let mask = u64::from_str_radix(hex, 16)
            .map_err(|_| format!("moves[{k}]: '{hex}' is not a hexadecimal edge mask"))?;
        if mask & !rules.full() != 0 || *e >= rules.edges {
            fail!("moves[{k}]: beyond the {} edges", rules.edges);
        }
        if moves.insert(mask, *e).is_some() {
            fail!("moves[{k}]: position {hex} is given twice");
        }
    }
    let mut walk = Walk {
        rules: &rules,
        moves,
        per_position,
        per_move,
        path: vec![(0, winner_first)],
        wins: 0,
    };
    let walked = replay(&mut walk, budget)?;
    Ok(MarkingReport { positions: walked.positions, wins: walk.wins })
}

/// The replay: the current position is the last of `path`, (green edges, whether the winner
/// is to move); a move that completes a shape ends the play at once.
struct Walk<'r> {
    rules: &'r Rules,
    moves: HashMap<u64, usize>,
    per_position: u64,
    per_move: u64,
    path: Vec<(u64, bool)>,
    /// Final positions reached, and moves that won at once.
    wins: u64,
}

impl crate::replay::Rules for Walk<'_> {
    /// An edge, and whether its mover moves again.
    type Move = (usize, bool);

    fn key(&self) -> u128 {
        let (green, winner_moves) = self.path[self.path.len() - 1];
        u128::from(green) | u128::from(winner_moves) << 64
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<(usize, bool)>, String> {
        let (green, winner_moves) = self.path[self.path.len() - 1];
        budget.charge(self.per_position, "replaying positions")?;
        let legal = self.rules.legal(green);
        if legal.is_empty() {
            // The player to move is stuck.
            ensure!(
                self.rules.stuck_player_wins() == winner_moves,
                "position {green:x}: no legal move is left and the {} cannot move, which \
                 the rules make a loss for the winner",
                if winner_moves { "winner" } else { "opponent" }
            );
            self.wins += 1;
            return Ok(Node::Leaf);
        }
        let options: Vec<usize> = if winner_moves {
            let Some(&e) = self.moves.get(&green) else {
                fail!("no move for the winner at position {green:x}");
            };
            ensure!(
                legal.contains(&e),
                "position {green:x}: edge {e} is not a legal move (already drawn or crossing)"
            );
            vec![e]
        } else {
            legal
        };
        budget.charge_each(options.len() as u64, self.per_move, "replaying moves")?;
        let mut follow = Vec::with_capacity(options.len());
        for e in options {
            match self.rules.colour(green, e) {
                Outcome::MoverWins if winner_moves => self.wins += 1,
                Outcome::MoverWins => {
                    fail!("position {green:x}: the opponent colours edge {e} and completes a shape")
                }
                Outcome::Continue(again) => follow.push((e, again)),
            }
        }
        // Explored last first, as the replay before the engine did (the first failure found
        // is the one reported).
        follow.reverse();
        Ok(Node::Moves(follow))
    }

    fn play(&mut self, (e, again): (usize, bool), _: &mut Budget) -> Result<(), String> {
        let (green, winner_moves) = self.path[self.path.len() - 1];
        self.path.push((green | 1 << e, if again { winner_moves } else { !winner_moves }));
        Ok(())
    }

    fn undo(&mut self, _: (usize, bool)) {
        self.path.pop();
    }
}

impl Claim for MarkingStrategy {
    fn claim(&self) -> String {
        format!("the {} player wins", self.winner)
    }
}

/// Registry entry for `marking-strategy`.
pub fn strategy_verdict(
    spec: &MarkingSpec,
    strategy: &MarkingStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = format!("the {} player wins {}", strategy.winner, spec.game);
    Verdict::decide(
        claim,
        check_marking_strategy(spec, strategy, budget),
        |report| {
            let reason = format!(
                "replayed against every opponent move: {}, {}, all won by the winner",
                crate::base::text::counted(report.positions, "position"),
                crate::base::text::counted(report.wins, "final position")
            );
            (
                reason,
                Work {
                    positions: Some(report.positions),
                    leaves: Some(report.wins),
                    ..Work::default()
                },
            )
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::budget::DEFAULT_MAX_WORK;

    fn quad(game: MarkingGame) -> MarkingSpec {
        MarkingSpec {
            game,
            triangulation: TriangulationSpec {
                points: vec![[0, 0], [1, 1], [2, 4], [3, 9]],
                triangles: vec![[0, 1, 2], [0, 2, 3]],
                edges: vec![],
            },
        }
    }

    /// Two faces sharing the diagonal 0-2 (edges sorted: 01, 02, 03, 12, 23; the diagonal is
    /// edge 1). In the coloring game the first player colours the diagonal; every reply leaves
    /// a face with two green edges, which the first player completes.
    #[test]
    fn coloring_the_diagonal_wins() {
        let spec = quad(MarkingGame::Coloring);
        let mut moves = vec![("0".to_string(), 1)];
        // After the diagonal (mask 2) and a reply on edge r, complete that face.
        for (reply, third) in [(0, 3), (3, 0), (2, 4), (4, 2)] {
            moves.push((format!("{:x}", 2u64 | 1 << reply), third));
        }
        let strategy = MarkingStrategy { winner: "first".into(), moves };
        let r = check_marking_strategy(&spec, &strategy, &mut Budget::new(100_000)).unwrap();
        assert_eq!(r.wins, 4);
        // A wrong completion is not a win: the opponent goes on.
        let mut bad = strategy.clone();
        bad.moves[1].1 = 4;
        assert!(check_marking_strategy(&spec, &bad, &mut Budget::new(100_000)).is_err());
        let mut missing = strategy;
        missing.moves.pop();
        let err = check_marking_strategy(&spec, &missing, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("no move for the winner"), "{err}");
    }

    /// Sizes are refused before validation: a triangulation of 40 points has at least 77
    /// edges, beyond the 64 of the rules (no work is spent: the budget is zero).
    #[test]
    fn sizes_are_refused_before_any_work() {
        let mut big = quad(MarkingGame::Coloring);
        big.triangulation.points = (0..40).map(|i| [i, i * i]).collect();
        let err = Rules::from_spec(&big, &mut Budget::new(0)).err().expect("refused");
        assert_eq!(
            err,
            "40 points: every triangulation of them has at least 2n - 3 = 77 edges, and the \
             marking rules take at most 64"
        );
        let mut constructing = quad(MarkingGame::MonochromaticTriangle);
        constructing.triangulation.points = (0..12).map(|i| [i, i * i]).collect();
        constructing.triangulation.triangles.clear();
        let err = Rules::from_spec(&constructing, &mut Budget::new(0)).err().expect("refused");
        assert!(err.contains("at most 11"), "{err}");
        let with_triangles = quad(MarkingGame::MonochromaticTriangle);
        let err = Rules::from_spec(&with_triangles, &mut Budget::new(0)).err().expect("refused");
        assert!(err.contains("give no triangles or edges"), "{err}");
    }

    /// The constructing game's quartic loops and the triangulation's validation are charged:
    /// a budget too small is an error naming the work limit, a large one suffices.
    #[test]
    fn the_rules_are_charged_to_the_budget() {
        let mut constructing = quad(MarkingGame::MonochromaticTriangle);
        constructing.triangulation.points = (0..11).map(|i| [i, i * i]).collect();
        constructing.triangulation.triangles.clear();
        let mut b = Budget::new(DEFAULT_MAX_WORK);
        let rules = Rules::from_spec(&constructing, &mut b).unwrap();
        assert_eq!(rules.edges, 55);
        assert!(b.used() > 55 * 55, "{}", b.used());
        let err =
            Rules::from_spec(&constructing, &mut Budget::new(55 * 55)).err().expect("refused");
        assert!(err.contains("work limit reached while"), "{err}");
        let err = Rules::from_spec(&quad(MarkingGame::Coloring), &mut Budget::new(10))
            .err()
            .expect("refused");
        assert!(err.contains("work limit reached while"), "{err}");
    }

    /// An edge list with an extra edge crossing others is refused, not dropped (the strategy
    /// of `coloring_the_diagonal_wins` is for the four-point board without the edge 1-3).
    #[test]
    fn an_extra_crossing_edge_is_refused() {
        let mut spec = quad(MarkingGame::Coloring);
        spec.triangulation.triangles.clear();
        spec.triangulation.edges = vec![[0, 1], [1, 2], [2, 3], [0, 3], [0, 2]];
        assert_eq!(Rules::from_spec(&spec, &mut Budget::new(DEFAULT_MAX_WORK)).unwrap().edges, 5);
        spec.triangulation.edges.push([1, 3]);
        let err =
            Rules::from_spec(&spec, &mut Budget::new(DEFAULT_MAX_WORK)).err().expect("refused");
        assert!(err.starts_with("6 edges given"), "{err}");
        let strategy = MarkingStrategy { winner: "first".into(), moves: vec![("0".into(), 1)] };
        let err = check_marking_strategy(&spec, &strategy, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.starts_with("6 edges given"), "{err}");
    }
}

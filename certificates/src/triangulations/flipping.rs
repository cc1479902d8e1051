//! The transforming games on a triangulation (seed 000, 2.2.1 to 2.2.5): flips with exact
//! predicates, the recolouring rules, and the replay of two-player strategies and of solitaire
//! flip sequences.
//!
//! A flip replaces an edge by the other diagonal of the quadrilateral formed by its two
//! triangles; it is legal iff that quadrilateral is strictly convex, i.e. the edge ab (with
//! apexes c and d) and the segment cd cross ([`crate::triangulations::geometry::segments_cross`] on `i64`
//! coordinates; a hull edge has one triangle and never flips). Every move flips a *black*
//! edge. Decisions taken on the text (the paper leaves them implicit):
//! - Every edge starts black. Colours are never removed; a coloured edge is never flipped (only
//!   black edges are), so coloured edges stay in the triangulation for good. "Black" after
//!   flips means "never coloured": an edge created by a flip is coloured at once.
//! - `monochromatic-flipping` (2.2.1), `flipping-to-triangle` (2.2.2): only the new edge turns
//!   green. Normal play for 2.2.1. In 2.2.2 the mover wins when the new edge completes a face
//!   whose three edges are green (in a triangulation an empty triangle of its edges is a face);
//!   when no black edge can be flipped and no green face was made, the game is a tie. Hull
//!   edges are never coloured in these two games.
//! - `bichromatic-flipping` (2.2.3): the first player is R (red), the second B (blue); the new
//!   edge and the still-black edges of the quadrilateral's boundary (hull edges included) take
//!   the mover's colour. The game ends when no black edge can be flipped; the score is red
//!   edges minus blue edges.
//! - `all-green` (2.2.4) and `green-wins` (2.2.5), one player: the new edge and the four
//!   boundary edges of the quadrilateral turn green (hull edges included: Theorem 13 counts all
//!   2n - 3 edges). The two differ only in the claim the checker reports (green-wins: more
//!   green than black edges).
//!
//! The instance (kind `flip-game`) carries the game and either points and triangles (or
//! edges), validated by [`crate::triangulations::geometry`], or `convex_polygon: n` and triangles: the vertices
//! 0..n-1 of an abstract convex polygon in counter-clockwise order. There the orientation of
//! three vertices is their cyclic order, so every diagonal is flippable (a flip in convex
//! position is always legal geometrically); this form is checked in O(n log n) (n - 2 distinct
//! triangles, every side present, n - 3 pairwise non-crossing diagonals) and lets a witness on
//! 10^6 vertices be replayed without coordinates.
//!
//! Positions: points are fixed, so a position is (edge set, colours). Canonically it is written
//! `E/C1/C2`: three hexadecimal masks over the pairs of points numbered in sorted order (pair
//! (i, j), i < j, lexicographically: (0,1), (0,2), ..., (1,2), ...): the edges present, the
//! green (or red) edges, the blue edges. Strategies need at most [`MAX_STRATEGY_POINTS`] points.
//!
//! Certificates: `flip-value` (two-player games) gives the value (first player's payoff: +1 win,
//! -1 loss, 0 tie; red minus blue in 2.2.3) with the first player's strategy guaranteeing at
//! least it and the second's holding the first to at most it (a side may be omitted when its
//! bound is the trivial one, e.g. a win needs no loser's strategy); each strategy maps a
//! position to the edge its owner flips, and is replayed against every opponent move.
//! `flip-sequence` (solitaire) lists the flips and the number of green edges at the end; the
//! checker replays it move by move and names the first illegal move.

use crate::base::budget::Budget;
use crate::base::fingerprint::Fingerprints;
use crate::replay::{replay, Node, Rules};
use crate::triangulations::geometry::{segments_cross, validate_triangulation, Point};
use crate::verdict::{Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Largest point set of a two-player strategy (its pairs must fit a 256-bit mask).
pub const MAX_STRATEGY_POINTS: usize = 22;
/// Largest point set whose positions fit [`Board::masks`] (pairs in a `u128`).
pub const MAX_MASK_POINTS: usize = 16;
/// Largest abstract convex polygon.
pub const MAX_CONVEX_VERTICES: usize = 20_000_000;

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlipGame {
    MonochromaticFlipping,
    FlippingToTriangle,
    BichromaticFlipping,
    AllGreen,
    GreenWins,
}

impl std::fmt::Display for FlipGame {
    /// The game's name in words, as in seed 000 ("the value of Bichromatic Flipping is 5").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FlipGame::MonochromaticFlipping => "Monochromatic Flipping",
            FlipGame::FlippingToTriangle => "Monochromatic Flipping to Triangle",
            FlipGame::BichromaticFlipping => "Bichromatic Flipping",
            FlipGame::AllGreen => "All-Green Solitaire",
            FlipGame::GreenWins => "Green-Wins Solitaire",
        })
    }
}

impl FlipGame {
    /// Whether the game has one player (a flip-sequence certificate) rather than two.
    pub fn solitaire(self) -> bool {
        matches!(self, FlipGame::AllGreen | FlipGame::GreenWins)
    }
}

/// Instance kind `flip-game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlipSpec {
    pub game: FlipGame,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub convex_polygon: Option<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<Point>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triangles: Vec<[usize; 3]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<[usize; 2]>,
}

/// A strategy: (position `E/C1/C2`, the edge its owner flips).
pub type FlipStrategy = Vec<(String, [usize; 2])>;

/// Certificate kind `flip-value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlipValue {
    pub value: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<FlipStrategy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second: Option<FlipStrategy>,
}

/// Certificate kind `flip-sequence`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlipSequence {
    pub flips: Vec<[usize; 2]>,
    pub green: usize,
}

/// The shape the points have: coordinates, or an abstract convex polygon.
#[derive(Clone, Debug)]
pub enum Shape {
    Points(Vec<Point>),
    Convex(usize),
}

impl Shape {
    pub fn len(&self) -> usize {
        match self {
            Shape::Points(p) => p.len(),
            Shape::Convex(n) => *n,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Positive iff a, b, c turn counter-clockwise (for the convex polygon: cyclic order).
    pub fn orient(&self, a: usize, b: usize, c: usize) -> i128 {
        match self {
            Shape::Points(p) => crate::triangulations::geometry::orient(p[a], p[b], p[c]),
            Shape::Convex(_) => {
                // Distinct a, b, c turn counter-clockwise iff exactly two of the three steps
                // go up (a < b < c and its rotations).
                if u8::from(a < b) + u8::from(b < c) + u8::from(c < a) == 2 {
                    1
                } else {
                    -1
                }
            }
        }
    }

    fn cross(&self, a: usize, b: usize, c: usize, d: usize) -> bool {
        match self {
            Shape::Points(p) => segments_cross(p[a], p[b], p[c], p[d]),
            Shape::Convex(_) => {
                let s = |x: i128| x.signum();
                s(self.orient(a, b, c)) * s(self.orient(a, b, d)) < 0
                    && s(self.orient(c, d, a)) * s(self.orient(c, d, b)) < 0
            }
        }
    }
}

const NONE: u32 = u32::MAX;

/// An edge of the current triangulation: the apex of its triangle on each side (index 0: to
/// the left of min -> max) and its colour (0 black, 1 green or red, 2 blue).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgeState {
    pub apex: [u32; 2],
    pub colour: u8,
}

/// A position: the current triangulation with its colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub edges: HashMap<[u32; 2], EdgeState>,
}

fn key(a: usize, b: usize) -> [u32; 2] {
    [a.min(b) as u32, a.max(b) as u32]
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flipped {
    /// The new edge.
    pub new: [usize; 2],
    /// It completed a face with three green edges (2.2.2).
    pub green_face: bool,
}

impl Board {
    fn set_triangle(&mut self, shape: &Shape, t: [usize; 3], present: bool) -> Result<(), String> {
        let [a, b, c] = if shape.orient(t[0], t[1], t[2]) > 0 { t } else { [t[0], t[2], t[1]] };
        for (x, y, z) in [(a, b, c), (b, c, a), (c, a, b)] {
            let side = usize::from(x > y);
            let entry =
                self.edges.entry(key(x, y)).or_insert(EdgeState { apex: [NONE; 2], colour: 0 });
            if present {
                ensure!(
                    entry.apex[side] == NONE,
                    "edge {}-{} has two triangles on one side",
                    x.min(y),
                    x.max(y)
                );
                entry.apex[side] = z as u32;
            } else {
                entry.apex[side] = NONE;
                if entry.apex == [NONE; 2] {
                    self.edges.remove(&key(x, y));
                }
            }
        }
        Ok(())
    }

    /// The board of a list of (already validated) triangles, all edges black.
    pub fn new(shape: &Shape, triangles: &[[usize; 3]]) -> Result<Board, String> {
        let mut board = Board { edges: HashMap::with_capacity(triangles.len() * 2 + 3) };
        for &t in triangles {
            board.set_triangle(shape, t, true)?;
        }
        Ok(board)
    }

    /// The two apexes of an interior edge whose quadrilateral is strictly convex.
    pub fn flippable(&self, shape: &Shape, e: [usize; 2]) -> Option<(usize, usize)> {
        let s = self.edges.get(&key(e[0], e[1]))?;
        if s.apex.contains(&NONE) {
            return None;
        }
        let (c, d) = (s.apex[0] as usize, s.apex[1] as usize);
        shape.cross(e[0], e[1], c, d).then_some((c, d))
    }

    /// The legal moves (black flippable edges), sorted.
    pub fn moves(&self, shape: &Shape) -> Vec<[usize; 2]> {
        let mut out: Vec<[usize; 2]> = self
            .edges
            .iter()
            .filter(|(_, s)| s.colour == 0)
            .map(|(k, _)| [k[0] as usize, k[1] as usize])
            .filter(|&e| self.flippable(shape, e).is_some())
            .collect();
        out.sort_unstable();
        out
    }

    pub fn colour(&self, a: usize, b: usize) -> u8 {
        self.edges.get(&key(a, b)).map_or(0, |s| s.colour)
    }

    fn paint(&mut self, a: usize, b: usize, colour: u8, only_black: bool) {
        if let Some(s) = self.edges.get_mut(&key(a, b)) {
            if !only_black || s.colour == 0 {
                s.colour = colour;
            }
        }
    }

    /// Plays `e` for the mover (`colour` 1 or 2) under `game`'s rules; the error says why the
    /// move is illegal.
    pub fn play(
        &mut self,
        shape: &Shape,
        game: FlipGame,
        e: [usize; 2],
        colour: u8,
    ) -> Result<Flipped, String> {
        let [a, b] = e;
        if a >= shape.len() || b >= shape.len() || a == b {
            fail!("{a}-{b} is not a pair of distinct points");
        }
        let Some(state) = self.edges.get(&key(a, b)).copied() else {
            fail!("{a}-{b} is not an edge of the current triangulation");
        };
        ensure!(state.colour == 0, "edge {a}-{b} is already coloured");
        let Some((c, d)) = self.flippable(shape, e) else {
            fail!(
                "edge {a}-{b} is not flippable (a hull edge, or its quadrilateral is not convex)"
            );
        };
        self.set_triangle(shape, [a, b, c], false)?;
        self.set_triangle(shape, [a, b, d], false)?;
        self.set_triangle(shape, [c, d, a], true)?;
        self.set_triangle(shape, [c, d, b], true)?;
        self.paint(c, d, colour, false);
        let sides = [(a, c), (c, b), (b, d), (d, a)];
        match game {
            FlipGame::BichromaticFlipping => {
                for (x, y) in sides {
                    self.paint(x, y, colour, true);
                }
            }
            FlipGame::AllGreen | FlipGame::GreenWins => {
                for (x, y) in sides {
                    self.paint(x, y, 1, false);
                }
            }
            FlipGame::MonochromaticFlipping | FlipGame::FlippingToTriangle => {}
        }
        let green = |x: usize, y: usize| self.colour(x, y) == 1;
        let green_face =
            green(c, d) && ((green(a, c) && green(a, d)) || (green(b, c) && green(b, d)));
        Ok(Flipped { new: [c.min(d), c.max(d)], green_face })
    }

    /// Edges of colour `colour`.
    pub fn count(&self, colour: u8) -> usize {
        self.edges.values().filter(|s| s.colour == colour).count()
    }

    /// The position as masks (edges, colour 1, colour 2) over the pairs of `n` points (at most
    /// [`MAX_MASK_POINTS`]; [`Board::wide_masks`] beyond).
    pub fn masks(&self, n: usize) -> [u128; 3] {
        let mut m = [0u128; 3];
        for (k, s) in &self.edges {
            let bit = 1u128 << pair_index(n, k[0] as usize, k[1] as usize);
            m[0] |= bit;
            if s.colour > 0 {
                m[s.colour as usize] |= bit;
            }
        }
        m
    }

    /// The masks of [`Board::masks`] as 256 bits each (low `u128` first), for at most
    /// [`MAX_STRATEGY_POINTS`] points.
    pub fn wide_masks(&self, n: usize) -> [[u128; 2]; 3] {
        let mut m = [[0u128; 2]; 3];
        for (k, s) in &self.edges {
            let i = pair_index(n, k[0] as usize, k[1] as usize);
            let (word, bit) = (i / 128, 1u128 << (i % 128));
            m[0][word] |= bit;
            if s.colour > 0 {
                m[s.colour as usize][word] |= bit;
            }
        }
        m
    }

    /// The canonical position `E/C1/C2` (at most [`MAX_STRATEGY_POINTS`] points): each mask in
    /// hexadecimal without leading zeros.
    pub fn position(&self, n: usize) -> String {
        let hex = |[low, high]: [u128; 2]| {
            if high == 0 {
                format!("{low:x}")
            } else {
                format!("{high:x}{low:032x}")
            }
        };
        let [e, c1, c2] = self.wide_masks(n);
        format!("{}/{}/{}", hex(e), hex(c1), hex(c2))
    }
}

/// Index of pair (a, b), a < b, among the pairs of n points in sorted order.
pub fn pair_index(n: usize, a: usize, b: usize) -> usize {
    a * (2 * n - a - 1) / 2 + (b - a - 1)
}

/// The validated shape and initial board of an instance, charging `budget` for the
/// validation and the board.
pub fn setup(spec: &FlipSpec, budget: &mut Budget) -> Result<(Shape, Board), String> {
    let (shape, triangles) = match spec.convex_polygon {
        None => {
            // Boards index points as `u32`.
            ensure!(
                spec.points.len() <= MAX_CONVEX_VERTICES,
                "{} points: a flip game takes at most {MAX_CONVEX_VERTICES}",
                spec.points.len()
            );
            let t = validate_triangulation(&spec.points, &spec.triangles, &spec.edges, budget)?;
            (Shape::Points(t.points), t.triangles)
        }
        Some(n) => {
            if !spec.points.is_empty() || !spec.edges.is_empty() {
                return Err(
                    "a convex_polygon instance gives triangles only (no points, no edges)".into()
                );
            }
            check_convex(n, &spec.triangles, budget)?;
            (Shape::Convex(n), spec.triangles.clone())
        }
    };
    // The board: a hash map of about two entries per triangle (20 bytes each, with the
    // table's slack), three updates per triangle.
    budget.charge_each(
        u64::try_from(triangles.len()).unwrap_or(u64::MAX),
        2 * 64 + 3,
        "building the board",
    )?;
    let board = Board::new(&shape, &triangles)?;
    Ok((shape, board))
}

/// Checks that `triangles` triangulate the convex polygon 0..n (see the module docs): n - 2
/// distinct triangles of distinct vertices, every side present, n - 3 pairwise non-crossing
/// diagonals. O(n log n), charged to `budget` before each step.
fn check_convex(n: usize, triangles: &[[usize; 3]], budget: &mut Budget) -> Result<(), String> {
    const WHAT: &str = "checking the triangulated convex polygon";
    if !(3..=MAX_CONVEX_VERTICES).contains(&n) {
        fail!("convex_polygon {n}: must be 3 to {MAX_CONVEX_VERTICES}");
    }
    // n >= 3 from here, so n - 2 and n - 3 do not wrap.
    ensure!(
        triangles.len() == n - 2,
        "{} triangles given: a triangulated {n}-gon has exactly {}",
        triangles.len(),
        n - 2
    );
    let t = u64::try_from(triangles.len()).unwrap_or(u64::MAX);
    // Sorted triangles with their index (32 bytes), sides (16 bytes, three per triangle), and
    // sorting both.
    budget.charge_each(t, 32 + 3 * 16 + 4 * 30, WHAT)?;
    let mut keyed: Vec<([usize; 3], usize)> = Vec::with_capacity(triangles.len());
    for (k, t) in triangles.iter().enumerate() {
        let mut s = *t;
        s.sort_unstable();
        if s[2] >= n || s[0] == s[1] || s[1] == s[2] {
            fail!("triangles[{k}] {t:?} is not three distinct vertices of 0..{n}");
        }
        keyed.push((s, k));
    }
    keyed.sort_unstable();
    if let Some(w) = keyed.windows(2).find(|w| w[0].0 == w[1].0) {
        let (i, j) = (w[0].1, w[1].1);
        fail!(
            "triangles[{i}] {:?} and triangles[{j}] {:?} are the same triangle: a triangle may \
             be given only once",
            triangles[i],
            triangles[j]
        );
    }
    let mut edges: Vec<[usize; 2]> =
        keyed.iter().flat_map(|&(s, _)| [[s[0], s[1]], [s[1], s[2]], [s[0], s[2]]]).collect();
    drop(keyed);
    edges.sort_unstable();
    edges.dedup();
    let side = |e: &[usize; 2]| e[1] - e[0] == 1 || (e[0] == 0 && e[1] == n - 1);
    let mut diagonals: Vec<[usize; 2]> = edges.iter().filter(|e| !side(e)).copied().collect();
    let sides = edges.len() - diagonals.len();
    if sides != n {
        // A side missing (every side of the triangles is one of the n sides).
        let missing = (0..n)
            .map(|i| [i.min((i + 1) % n), i.max((i + 1) % n)])
            .find(|e| edges.binary_search(e).is_err());
        fail!(
            "the triangles have {sides} of the {n} sides of the polygon{}",
            missing.map_or(String::new(), |e| format!(
                ": the side {}-{} is in no triangle",
                e[0], e[1]
            ))
        );
    }
    ensure!(
        diagonals.len() == n - 3,
        "the triangles have {} diagonals; a triangulated {n}-gon has {}",
        diagonals.len(),
        n - 3
    );
    drop(edges);
    // Laminar intervals: sorted by (start, -end), an open interval ending after the current
    // start must contain it.
    diagonals.sort_unstable_by_key(|e| (e[0], std::cmp::Reverse(e[1])));
    let mut open: Vec<[usize; 2]> = Vec::new();
    for d in diagonals {
        while open.last().is_some_and(|o| o[1] <= d[0]) {
            open.pop();
        }
        if let Some(o) = open.last().filter(|o| o[1] < d[1]) {
            fail!("diagonals {}-{} and {}-{} cross", o[0], o[1], d[0], d[1]);
        }
        open.push(d);
    }
    Ok(())
}

/// The first player's payoff at a position with no move (`first_to_move`: whose turn it is).
pub fn final_payoff(game: FlipGame, board: &Board, first_to_move: bool) -> i64 {
    match game {
        FlipGame::MonochromaticFlipping => {
            if first_to_move {
                -1
            } else {
                1
            }
        }
        FlipGame::BichromaticFlipping => board.count(1) as i64 - board.count(2) as i64,
        _ => 0,
    }
}

/// The first player's payoff if the mover's flip ended the game at once (a green face in
/// 2.2.2), else `None`.
pub fn immediate_payoff(game: FlipGame, flipped: &Flipped, first_moved: bool) -> Option<i64> {
    (game == FlipGame::FlippingToTriangle && flipped.green_face).then_some(if first_moved {
        1
    } else {
        -1
    })
}

/// The payoffs' range (the trivial bounds), for deciding whether a side may be omitted.
fn payoff_range(game: FlipGame, board: &Board) -> (i64, i64) {
    match game {
        FlipGame::BichromaticFlipping => {
            // Coloured edges never leave, and the triangulation's edge count is fixed.
            let m = board.edges.len() as i64;
            (-m, m)
        }
        _ => (-1, 1),
    }
}

/// What a replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FlipReport {
    pub positions: u64,
    pub leaves: u64,
}

/// Replays a `flip-value` certificate.
pub fn check_flip_value(
    spec: &FlipSpec,
    cert: &FlipValue,
    budget: &mut Budget,
) -> Result<FlipReport, String> {
    if spec.game.solitaire() {
        fail!("{} is a solitaire game: its certificate is a flip-sequence", spec.game);
    }
    let (shape, board) = setup(spec, budget)?;
    let n = shape.len();
    ensure!(n <= MAX_STRATEGY_POINTS, "{n} points: strategies take at most {MAX_STRATEGY_POINTS}");
    let (low, high) = payoff_range(spec.game, &board);
    let mut report = FlipReport::default();
    for (first, strategy) in [(true, &cert.first), (false, &cert.second)] {
        let trivial = if first { cert.value <= low } else { cert.value >= high };
        let name = if first { "first" } else { "second" };
        match strategy {
            None if trivial => {}
            None => fail!("the {name} player's strategy is missing"),
            Some(moves) => {
                let r = replay_side(spec.game, &shape, &board, moves, first, cert.value, budget)
                    .map_err(|e| format!("{name} player's strategy: {e}"))?;
                report.positions += r.positions;
                report.leaves += r.leaves;
            }
        }
    }
    Ok(report)
}

/// Replays `owner`'s strategy against every opponent move: the first player's payoff must be
/// at least `value` (owner first) or at most it (owner second) at every end.
fn replay_side(
    game: FlipGame,
    shape: &Shape,
    start: &Board,
    moves: &FlipStrategy,
    owner_first: bool,
    value: i64,
    budget: &mut Budget,
) -> Result<FlipReport, String> {
    // A position: its board (an entry per edge), its text and its copy in the visited set;
    // listing its moves tests every edge.
    let edges = start.edges.len() as u64;
    let per_position = 256 + edges * 96;
    budget.charge_each(moves.len() as u64, 128, "reading the strategy")?;
    let mut table: HashMap<&str, [usize; 2]> = HashMap::new();
    for (k, (pos, e)) in moves.iter().enumerate() {
        if table.insert(pos.as_str(), *e).is_some() {
            fail!("moves[{k}]: position {pos} is given twice");
        }
    }
    let mut walk = Walk {
        game,
        shape,
        table,
        owner_first,
        value,
        per_position,
        prints: Fingerprints::new(),
        path: Vec::new(),
        immediate: 0,
    };
    walk.enter(start.clone(), true);
    let walked = replay(&mut walk, budget)?;
    Ok(FlipReport { positions: walked.positions, leaves: walked.leaves + walk.immediate })
}

/// A position of the replay: the board, whether the first player moves, its text and key.
type Visit = (Board, bool, String, u128);

/// The replay of one side's strategy: the current position is the last of `path`.
struct Walk<'a> {
    game: FlipGame,
    shape: &'a Shape,
    table: HashMap<&'a str, [usize; 2]>,
    owner_first: bool,
    value: i64,
    per_position: u64,
    prints: Fingerprints,
    path: Vec<Visit>,
    /// Plays that ended at once (a move completing a green triangle).
    immediate: u64,
}

impl Walk<'_> {
    fn holds(&self, payoff: i64) -> bool {
        if self.owner_first {
            payoff >= self.value
        } else {
            payoff <= self.value
        }
    }

    fn enter(&mut self, board: Board, first_to_move: bool) {
        let text = board.position(self.shape.len());
        let key = self.prints.of(&(text.as_str(), first_to_move));
        self.path.push((board, first_to_move, text, key));
    }

    /// The board after `e` at the current position, and the payoff if that ends the game.
    fn after(&self, e: [usize; 2]) -> Result<(Board, Option<i64>), String> {
        let (board, first_to_move, pos, _) = &self.path[self.path.len() - 1];
        let mut next = board.clone();
        let colour =
            if *first_to_move || self.game != FlipGame::BichromaticFlipping { 1 } else { 2 };
        let flipped = next
            .play(self.shape, self.game, e, colour)
            .map_err(|why| format!("position {pos}: flipping {}-{}: {why}", e[0], e[1]))?;
        Ok((next, immediate_payoff(self.game, &flipped, *first_to_move)))
    }
}

impl Rules for Walk<'_> {
    type Move = [usize; 2];

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1].3
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<[usize; 2]>, String> {
        let (board, first_to_move, pos, _) = &self.path[self.path.len() - 1];
        let (first_to_move, value) = (*first_to_move, self.value);
        budget.charge(self.per_position, "replaying positions")?;
        let legal = board.moves(self.shape);
        if legal.is_empty() {
            let payoff = final_payoff(self.game, board, first_to_move);
            ensure!(
                self.holds(payoff),
                "position {pos}: the game ends with payoff {payoff}, beyond the claimed {value}"
            );
            return Ok(Node::Leaf);
        }
        let options = if first_to_move == self.owner_first {
            let Some(&e) = self.table.get(pos.as_str()) else {
                fail!("no move at position {pos}");
            };
            vec![e]
        } else {
            legal
        };
        // Each option copies the board.
        budget.charge_each(options.len() as u64, self.per_position, "replaying moves")?;
        let mut follow = Vec::with_capacity(options.len());
        for e in options {
            match self.after(e)?.1 {
                Some(payoff) => {
                    let pos = &self.path[self.path.len() - 1].2;
                    ensure!(
                        self.holds(payoff),
                        "position {pos}: flipping {}-{} completes a green triangle for the opponent",
                        e[0],
                        e[1]
                    );
                    self.immediate += 1;
                }
                None => follow.push(e),
            }
        }
        // Explored last first, as the replay before the engine did (the first failure found
        // is the one reported).
        follow.reverse();
        Ok(Node::Moves(follow))
    }

    fn play(&mut self, e: [usize; 2], budget: &mut Budget) -> Result<(), String> {
        // The board is copied again, and the new position's text built.
        budget.charge(self.per_position, "replaying moves")?;
        let first_to_move = self.path[self.path.len() - 1].1;
        let (next, _) = self.after(e)?;
        self.enter(next, !first_to_move);
        Ok(())
    }

    fn undo(&mut self, _: [usize; 2]) {
        self.path.pop();
    }
}

/// Replays a solitaire flip sequence; returns (green edges, all edges).
pub fn check_flip_sequence(
    spec: &FlipSpec,
    cert: &FlipSequence,
    budget: &mut Budget,
) -> Result<(usize, usize), String> {
    ensure!(
        spec.game.solitaire(),
        "{} is a two-player game: its certificate is a flip-value",
        spec.game
    );
    let (shape, mut board) = setup(spec, budget)?;
    let total = board.edges.len();
    ensure!(
        cert.flips.len() <= total,
        "{} flips: every flip colours an edge for good, so at most {total}",
        cert.flips.len()
    );
    budget.charge_each(cert.flips.len() as u64, 64, "replaying the flips")?;
    for (k, &e) in cert.flips.iter().enumerate() {
        board
            .play(&shape, spec.game, e, 1)
            .map_err(|why| format!("move {} (flips[{k}]): {why}", k + 1))?;
    }
    let green = board.count(1);
    ensure!(
        green == cert.green,
        "the flips colour {green} edges green, not the claimed {}",
        cert.green
    );
    Ok((green, total))
}

impl Claim for FlipValue {
    fn claim(&self) -> String {
        format!("the game's value is {}", self.value)
    }
}

impl Claim for FlipSequence {
    fn claim(&self) -> String {
        format!("{} edges green", self.green)
    }
}

/// Registry entry for `flip-value`.
pub fn value_verdict(spec: &FlipSpec, v: &FlipValue, budget: &mut Budget) -> Verdict {
    let claim = format!(
        "the value of {} is {} (first player's payoff{})",
        spec.game,
        v.value,
        if spec.game == FlipGame::BichromaticFlipping {
            ": red minus blue edges"
        } else {
            ": 1 win, 0 tie, -1 loss"
        }
    );
    Verdict::decide(
        claim,
        check_flip_value(spec, v, budget),
        |r| {
            let reason = format!(
                "each strategy replayed against every opponent move: {}, {}",
                crate::base::text::counted(r.positions, "position"),
                crate::base::text::counted(r.leaves, "end")
            );
            (
                reason,
                Work { positions: Some(r.positions), leaves: Some(r.leaves), ..Work::default() },
            )
        },
        &[],
    )
}

/// Registry entry for `flip-sequence`.
pub fn sequence_verdict(spec: &FlipSpec, f: &FlipSequence, budget: &mut Budget) -> Verdict {
    let claim = format!(
        "{} {} {} green",
        crate::base::text::counted(f.flips.len(), "flip"),
        if f.flips.len() == 1 { "colours" } else { "colour" },
        crate::base::text::counted(f.green, "edge")
    );
    Verdict::decide(
        claim,
        check_flip_sequence(spec, f, budget),
        |(green, total)| {
            let wins = if spec.game == FlipGame::GreenWins {
                if 2 * green > total {
                    "; more green than black: the player wins"
                } else {
                    "; not more green than black"
                }
            } else if green == total {
                "; every edge is green"
            } else {
                ""
            };
            let reason = format!("replayed move by move: {green} of {total} edges green{wins}");
            (reason, Work { positions: Some(f.flips.len() as u64), ..Work::default() })
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;
    use crate::base::budget::DEFAULT_MAX_WORK;

    fn run_setup(spec: &FlipSpec) -> Result<(Shape, Board), String> {
        setup(spec, &mut Budget::new(DEFAULT_MAX_WORK))
    }

    fn quad(game: FlipGame) -> FlipSpec {
        FlipSpec {
            game,
            convex_polygon: None,
            points: vec![[0, 0], [1, 1], [2, 4], [3, 9]],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            edges: vec![],
        }
    }

    #[test]
    fn a_flip_replaces_the_diagonal_and_colours() {
        let spec = quad(FlipGame::AllGreen);
        let (shape, mut board) = run_setup(&spec).unwrap();
        assert_eq!(board.moves(&shape), vec![[0, 2]]);
        let f = board.play(&shape, FlipGame::AllGreen, [0, 2], 1).unwrap();
        assert_eq!(f.new, [1, 3]);
        assert_eq!(board.count(1), 5);
        assert!(board.moves(&shape).is_empty());
        let err = board.play(&shape, FlipGame::AllGreen, [1, 3], 1).unwrap_err();
        assert!(err.contains("already coloured"), "{err}");
        let seq = FlipSequence { flips: vec![[0, 2], [1, 3]], green: 5 };
        let err = check_flip_sequence(&spec, &seq, &mut Budget::new(u64::MAX)).unwrap_err();
        assert!(err.starts_with("move 2 (flips[1])"), "{err}");
    }

    /// A reflex quadrilateral: point 3 inside triangle 0 1 2 seen from the edge 0-3... the
    /// edge 1-3 with apexes 0 and 2 is not flippable when 3 is a reflex corner.
    #[test]
    fn a_non_convex_quadrilateral_does_not_flip() {
        let spec = FlipSpec {
            game: FlipGame::MonochromaticFlipping,
            convex_polygon: None,
            points: vec![[0, 0], [10, 0], [5, 10], [5, 3]],
            triangles: vec![[0, 1, 3], [1, 2, 3], [2, 0, 3]],
            edges: vec![],
        };
        let (shape, board) = run_setup(&spec).unwrap();
        assert!(board.moves(&shape).is_empty());
        // Monochromatic flipping with no move: the second player wins.
        let cert = FlipValue { value: -1, first: None, second: Some(vec![]) };
        assert!(check_flip_value(&spec, &cert, &mut Budget::new(100_000)).is_ok());
        let cert = FlipValue { value: 1, first: Some(vec![]), second: None };
        assert!(check_flip_value(&spec, &cert, &mut Budget::new(100_000)).is_err());
    }

    #[test]
    fn convex_polygons_are_checked_combinatorially() {
        let spec = |n, triangles: Vec<[usize; 3]>| FlipSpec {
            game: FlipGame::AllGreen,
            convex_polygon: Some(n),
            points: vec![],
            triangles,
            edges: vec![],
        };
        assert!(run_setup(&spec(5, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]])).is_ok());
        let err = run_setup(&spec(5, vec![[0, 1, 3], [0, 2, 4], [0, 3, 4]])).unwrap_err();
        assert!(err.contains("sides") || err.contains("cross"), "{err}");
        let err =
            run_setup(&spec(6, vec![[0, 1, 3], [1, 2, 4], [0, 3, 5], [2, 3, 4]])).unwrap_err();
        assert!(err.contains("cross") || err.contains("sides"), "{err}");
        // Pentagon: one flip colours 5 of 7 edges.
        let s = spec(5, vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]]);
        assert_eq!(
            check_flip_sequence(
                &s,
                &FlipSequence { flips: vec![[0, 2]], green: 5 },
                &mut Budget::new(u64::MAX)
            ),
            Ok((5, 7))
        );
    }

    /// The convex_polygon form is exactly its triangles: nonsense combinations, sizes and
    /// counts are refused before any work (no `n - 2` wrap, no allocation sized by `n`), and
    /// each error names the item.
    #[test]
    fn convex_polygon_instances_are_exactly_their_triangles() {
        let spec = |n, triangles: Vec<[usize; 3]>| FlipSpec {
            game: FlipGame::AllGreen,
            convex_polygon: Some(n),
            points: vec![],
            triangles,
            edges: vec![],
        };
        let fan = vec![[0, 1, 2], [0, 2, 3], [0, 3, 4]];
        let mut with_points = spec(5, fan.clone());
        with_points.points = (0..5).map(|i| [i, i * i]).collect();
        assert!(run_setup(&with_points).unwrap_err().contains("gives triangles only"));
        let mut with_edges = spec(5, fan.clone());
        with_edges.edges = vec![[0, 2]];
        assert!(run_setup(&with_edges).unwrap_err().contains("gives triangles only"));
        for n in [0, 1, 2, MAX_CONVEX_VERTICES + 1, usize::MAX] {
            let err = setup(&spec(n, fan.clone()), &mut Budget::new(0)).unwrap_err();
            assert!(err.contains("must be 3 to 20000000"), "{err}");
        }
        assert_eq!(
            run_setup(&spec(5, vec![[0, 1, 2]])).unwrap_err(),
            "1 triangles given: a triangulated 5-gon has exactly 3"
        );
        assert_eq!(
            run_setup(&spec(5, vec![[0, 1, 2], [0, 2, 7], [0, 3, 4]])).unwrap_err(),
            "triangles[1] [0, 2, 7] is not three distinct vertices of 0..5"
        );
        assert_eq!(
            run_setup(&spec(5, vec![[0, 1, 2], [0, 3, 3], [0, 3, 4]])).unwrap_err(),
            "triangles[1] [0, 3, 3] is not three distinct vertices of 0..5"
        );
        assert!(run_setup(&spec(5, vec![[0, 1, 2], [0, 3, 4], [2, 0, 1]]))
            .unwrap_err()
            .starts_with("triangles[0] [0, 1, 2] and triangles[2] [2, 0, 1] are the same"));
        assert_eq!(
            run_setup(&spec(5, vec![[0, 1, 2], [0, 2, 3], [0, 2, 4]])).unwrap_err(),
            "the triangles have 4 of the 5 sides of the polygon: the side 3-4 is in no triangle"
        );
        let err = setup(&spec(5, fan), &mut Budget::new(100)).unwrap_err();
        assert!(err.contains("work limit reached while"), "{err}");
    }

    /// The points form is validated exactly: an edge list with an extra crossing edge is
    /// refused (it used to be dropped), and a budget too small is an error.
    #[test]
    fn point_instances_are_exactly_their_edges() {
        let hexagon: Vec<Point> = (0..6).map(|i| [i, i * i]).collect();
        let zigzag = vec![[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 2], [0, 3], [3, 5]];
        let spec = |edges: Vec<[usize; 2]>| FlipSpec {
            game: FlipGame::AllGreen,
            convex_polygon: None,
            points: hexagon.clone(),
            triangles: vec![],
            edges,
        };
        let (_, board) = run_setup(&spec(zigzag.clone())).unwrap();
        assert_eq!(board.edges.len(), 9);
        let mut extra = zigzag.clone();
        extra.push([4, 1]);
        let err = run_setup(&spec(extra)).unwrap_err();
        assert!(err.starts_with("10 edges given"), "{err}");
        let mut crossing = zigzag.clone();
        crossing[8] = [4, 1];
        let err = run_setup(&spec(crossing)).unwrap_err();
        assert_eq!(err, "edges[6] [0, 2] and edges[8] [4, 1] cross");
        let err = setup(&spec(zigzag), &mut Budget::new(50)).unwrap_err();
        assert!(err.contains("work limit reached while"), "{err}");
        let err = run_setup(&spec(vec![])).unwrap_err();
        assert_eq!(err, "no triangles and no edges");
    }

    /// Positions up to 16 points read as before the 256-bit masks (one `u128` each); beyond,
    /// the high word is written first, the low one padded to 32 digits.
    #[test]
    fn positions_are_wide_but_unchanged_up_to_16_points() {
        let fan = |n: usize| (1..n - 1).map(|i| [0, i, i + 1]).collect::<Vec<_>>();
        let b = Board::new(&Shape::Convex(16), &fan(16)).unwrap();
        let [e, c1, c2] = b.masks(16);
        assert_eq!(b.position(16), format!("{e:x}/{c1:x}/{c2:x}"));
        let b = Board::new(&Shape::Convex(18), &fan(18)).unwrap();
        let [e, _, _] = b.wide_masks(18);
        // The side 16-17 is pair 152 of 153: the high word holds it.
        assert_eq!(e[1] >> (pair_index(18, 16, 17) - 128) & 1, 1);
        let edges = b.position(18);
        let first = edges.split('/').next().unwrap();
        assert_eq!(first.len(), format!("{:x}", e[1]).len() + 32);
    }

    #[test]
    fn pair_indices_are_sorted_order() {
        let n = 5;
        let mut k = 0;
        for a in 0..n {
            for b in a + 1..n {
                assert_eq!(pair_index(n, a, b), k);
                k += 1;
            }
        }
    }
}

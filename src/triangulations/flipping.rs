//! The two-player flipping games of seed 000 (2.2.1 Monochromatic Flipping, 2.2.2 Flipping to
//! Triangle, 2.2.3 Bichromatic Flipping) solved on the checker's own rules
//! ([`gamecert_certificates::triangulations::flipping`]), and `gamecert solve` for `flip-game` instances.
//!
//! - [`Solver`]: exact minimax over positions (edge set, colours, player to move), memoised on
//!   the canonical masks; the first player's payoff (+1 win, 0 tie, -1 loss; red minus blue in
//!   2.2.3). [`Solver::certificate`] writes a `flip-value` certificate: each side's strategy
//!   over the positions it reaches, one optimal move per position.
//! - Theorem 9 ([`theorem_9`]): on points in convex position every diagonal is flippable and
//!   stays so, the game lasts n - 3 moves, so any move wins for the parity winner; its
//!   certificate plays the first legal edge everywhere.
//! - The solitaire games are [`crate::triangulations::solitaire`]; MFT on serpentine triangulations (Proposition
//!   1, Lemma 5, Theorem 10) is [`crate::triangulations::serpentine`].
//!
//! Size limits: the exact solvers take at most 16 points ([`MAX_EXACT_POINTS`]) and the reduced
//! MFT solver 21 vertices; within those limits the largest measured searches store about a
//! million positions (0.25 GB; 24 s and 0.24 GB for the reduced solver at 21 vertices). No
//! useful closed-form bound on the positions is known (it would count the triangulations of
//! the point set), so `solve` runs both under a position cap from the 8 GiB allowance of
//! [`crate::base::limits`] ([`position_cap`], [`crate::triangulations::mft_convex::position_cap`]) and refuses the
//! instance if a search passes it.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{
    final_payoff, immediate_payoff, setup, Board, FlipGame, FlipSpec, FlipStrategy, FlipValue,
    Shape, MAX_MASK_POINTS,
};
use std::collections::{HashMap, HashSet};

/// Largest point set the exact solvers take (`solve` refuses more).
pub const MAX_EXACT_POINTS: usize = MAX_MASK_POINTS;

/// The colour the mover paints with.
pub fn mover_colour(game: FlipGame, first: bool) -> u8 {
    if game == FlipGame::BichromaticFlipping && !first {
        2
    } else {
        1
    }
}

/// Largest abstract convex polygon `gen` writes.
pub const MAX_ABSTRACT_VERTICES: usize = 10_000_000;

/// A `flip-game` instance of a generated triangulation. With `abstract_convex` (kinds convex,
/// fan and serpentine only) the polygon is written without coordinates (`convex_polygon: n`,
/// vertices in counter-clockwise order), up to [`MAX_ABSTRACT_VERTICES`] vertices.
pub fn gen_instance(
    kind: crate::triangulations::generate::Kind,
    n: usize,
    inner: usize,
    seed: u64,
    game: FlipGame,
    abstract_convex: bool,
) -> Result<FlipSpec, String> {
    use crate::triangulations::generate::Kind;
    if !abstract_convex {
        let t = crate::triangulations::generate::generate(kind, n, inner, seed)?;
        return Ok(FlipSpec {
            game,
            convex_polygon: None,
            points: t.points,
            triangles: t.triangles,
            edges: t.edges,
        });
    }
    if !(3..=MAX_ABSTRACT_VERTICES).contains(&n) {
        return Err(format!("--points must be between 3 and {MAX_ABSTRACT_VERTICES} (got {n})"));
    }
    let triangles = match kind {
        Kind::Convex => {
            crate::triangulations::generate::random_convex(n, &mut crate::base::rng::Rng::new(seed))
        }
        Kind::Fan => (1..n - 1).map(|i| [0, i, i + 1]).collect(),
        // Its points lie on a parabola in index order: the same cyclic order.
        Kind::Serpentine => {
            crate::triangulations::generate::generate(kind, n, inner, seed)?.triangles
        }
        other => {
            return Err(format!(
                "--abstract-convex takes --kind convex, fan or serpentine, not {other}"
            ))
        }
    };
    Ok(FlipSpec { game, convex_polygon: Some(n), points: vec![], triangles, edges: vec![] })
}

/// An exact solver for one two-player instance.
pub struct Solver {
    pub game: FlipGame,
    pub shape: Shape,
    pub start: Board,
    memo: HashMap<([u128; 3], bool), i64>,
    pub nodes: u64,
    /// Stop (and set `aborted`) once past this instant.
    pub deadline: Option<std::time::Instant>,
    /// Stop (and set `aborted`) once the memo holds more positions than this.
    pub max_positions: Option<usize>,
    pub aborted: bool,
}

/// Bytes per memoised position at worst, with the strategies' share: measured at about 250
/// (1.06 million nodes, 254 MB, 16 points with 2 inner points), doubled.
pub const BYTES_PER_POSITION: u64 = 512;

/// The positions `solve` lets the exact solver memoise: the 8 GiB allowance of
/// [`crate::base::limits`] at [`BYTES_PER_POSITION`] each, about 16.8 million. The solvers'
/// point limits keep real instances far below it (the largest measured: about a million
/// positions); the cap guards the rest.
pub fn position_cap() -> usize {
    (crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_POSITION) as usize
}

impl Solver {
    pub fn new(spec: &FlipSpec) -> Result<Solver, String> {
        if spec.game.solitaire() {
            return Err("a solitaire game has no two-player value".into());
        }
        let (shape, start) = setup(spec, &mut Budget::new(u64::MAX))?;
        if shape.len() > MAX_EXACT_POINTS {
            return Err(format!(
                "{} points: the exact solver takes at most {MAX_EXACT_POINTS}",
                shape.len()
            ));
        }
        Ok(Solver {
            game: spec.game,
            shape,
            start,
            memo: HashMap::new(),
            nodes: 0,
            deadline: None,
            max_positions: None,
            aborted: false,
        })
    }

    /// The first player's payoff after `first_to_move` plays `e` at `board`, under optimal play.
    pub fn after(&mut self, board: &Board, first_to_move: bool, e: [usize; 2]) -> i64 {
        let mut next = board.clone();
        let flipped = next
            .play(&self.shape, self.game, e, mover_colour(self.game, first_to_move))
            .expect("a legal move");
        match immediate_payoff(self.game, &flipped, first_to_move) {
            Some(p) => p,
            None => self.value(&next, !first_to_move),
        }
    }

    /// The first player's payoff under optimal play from `board`.
    pub fn value(&mut self, board: &Board, first_to_move: bool) -> i64 {
        let key = (board.masks(self.shape.len()), first_to_move);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        crate::base::solved::searched(self.nodes);
        if self.nodes.is_multiple_of(1024)
            && self.deadline.is_some_and(|d| std::time::Instant::now() > d)
        {
            self.aborted = true;
        }
        if self.max_positions.is_some_and(|cap| self.memo.len() > cap) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = board.moves(&self.shape);
        let v = if moves.is_empty() {
            final_payoff(self.game, board, first_to_move)
        } else {
            let values = moves.into_iter().map(|e| self.after(board, first_to_move, e));
            if first_to_move {
                values.max().expect("a move")
            } else {
                values.min().expect("a move")
            }
        };
        self.memo.insert(key, v);
        v
    }

    /// The game's value from the start.
    pub fn solve(&mut self) -> i64 {
        let start = self.start.clone();
        self.value(&start, true)
    }

    /// An optimal move for the player to move.
    fn best(&mut self, board: &Board, first_to_move: bool) -> [usize; 2] {
        let target = self.value(board, first_to_move);
        let moves = board.moves(&self.shape);
        let first = moves[0];
        moves.into_iter().find(|&e| self.after(board, first_to_move, e) == target).unwrap_or_else(
            || {
                // Only an aborted search (its values discarded) can miss the move.
                assert!(self.aborted, "an optimal move");
                first
            },
        )
    }

    /// [`Solver::certificate`] with at most `max_positions` memoised positions: `None` past it.
    pub fn certificate_within(&mut self, max_positions: usize) -> Option<FlipValue> {
        self.max_positions = Some(max_positions);
        let value = self.certificate();
        self.max_positions = None;
        (!self.aborted).then_some(value)
    }

    /// The `flip-value` certificate: the first player's strategy unless the value is the
    /// lowest payoff, the second's unless it is the highest (the checker needs no strategy
    /// for a trivial bound).
    pub fn certificate(&mut self) -> FlipValue {
        let value = self.solve();
        if self.aborted {
            return FlipValue { value, first: None, second: None };
        }
        let (shape, start, game) = (self.shape.clone(), self.start.clone(), self.game);
        let top = if game == FlipGame::BichromaticFlipping { start.edges.len() as i64 } else { 1 };
        let mut side = |first: bool| {
            strategy_from(game, &shape, &start, first, &mut |b: &Board, f: bool| self.best(b, f))
        };
        FlipValue {
            value,
            first: (value > -top).then(|| side(true)),
            second: (value < top).then(|| side(false)),
        }
    }
}

/// The strategy of `owner_first`'s side that plays `choose` at its positions, over every
/// position reached against every opponent move.
pub fn strategy_from(
    game: FlipGame,
    shape: &Shape,
    start: &Board,
    owner_first: bool,
    choose: &mut dyn FnMut(&Board, bool) -> [usize; 2],
) -> FlipStrategy {
    let n = shape.len();
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![(start.clone(), true)];
    while let Some((board, first_to_move)) = stack.pop() {
        let masks = board.wide_masks(n);
        let moves = board.moves(shape);
        if moves.is_empty() || !seen.insert((masks, first_to_move)) {
            continue;
        }
        let options = if first_to_move == owner_first {
            let e = choose(&board, first_to_move);
            out.push((board.position(n), e));
            vec![e]
        } else {
            moves
        };
        for e in options {
            let mut next = board.clone();
            let flipped =
                next.play(shape, game, e, mover_colour(game, first_to_move)).expect("a legal move");
            if immediate_payoff(game, &flipped, first_to_move).is_none() {
                stack.push((next, !first_to_move));
            }
        }
    }
    out
}

/// Every triangulation of the convex n-gon 0..n (as triangles; Catalan(n - 2) of them), by the
/// apex on the side (0, n - 1).
pub fn all_convex(n: usize) -> Vec<Vec<[usize; 3]>> {
    fn rec(a: usize, b: usize) -> Vec<Vec<[usize; 3]>> {
        if b - a < 2 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for c in a + 1..b {
            for l in rec(a, c) {
                for r in rec(c, b) {
                    let mut t = vec![[a, c, b]];
                    t.extend(l.iter().copied());
                    t.extend(r.iter().copied());
                    out.push(t);
                }
            }
        }
        out
    }
    rec(0, n - 1)
}

/// A `flip-game` instance on the abstract convex polygon 0..n.
pub fn convex_spec(game: FlipGame, n: usize, triangles: Vec<[usize; 3]>) -> FlipSpec {
    FlipSpec { game, convex_polygon: Some(n), points: vec![], triangles, edges: vec![] }
}

/// Whether the instance's points are in convex position.
pub fn convex_position(shape: &Shape) -> bool {
    match shape {
        Shape::Convex(_) => true,
        Shape::Points(p) => {
            gamecert_certificates::triangulations::geometry::convex_hull(p).len() == p.len()
        }
    }
}

/// Theorem 9: Monochromatic Flipping in convex position is won by the first player iff n is
/// even; the winner's strategy flips the first legal edge at every position. `None` if the
/// instance is not that game in convex position.
pub fn theorem_9(spec: &FlipSpec) -> Result<Option<FlipValue>, String> {
    let (shape, start) = setup(spec, &mut Budget::new(u64::MAX))?;
    if spec.game != FlipGame::MonochromaticFlipping || !convex_position(&shape) {
        return Ok(None);
    }
    if shape.len() > MAX_EXACT_POINTS {
        return Err(format!(
            "{} points: Theorem 9's strategies are written for at most {MAX_EXACT_POINTS}",
            shape.len()
        ));
    }
    let first_wins = shape.len().is_multiple_of(2);
    let strategy = strategy_from(spec.game, &shape, &start, first_wins, &mut |b: &Board, _| {
        b.moves(&shape)[0]
    });
    Ok(Some(if first_wins {
        FlipValue { value: 1, first: Some(strategy), second: None }
    } else {
        FlipValue { value: -1, first: None, second: Some(strategy) }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::triangulations::flipping::check_flip_value;

    /// Theorem 9 on every triangulation of the convex n-gon, n = 4..=8: the exact solver's
    /// value is the parity's, and both certificates are accepted.
    #[test]
    fn theorem_9_every_convex_triangulation() {
        for n in 4..=8 {
            for t in all_convex(n) {
                let spec = convex_spec(FlipGame::MonochromaticFlipping, n, t);
                let mut solver = Solver::new(&spec).unwrap();
                let expected = if n % 2 == 0 { 1 } else { -1 };
                assert_eq!(solver.solve(), expected, "n = {n}");
                let cert = theorem_9(&spec).unwrap().unwrap();
                assert_eq!(cert.value, expected);
                check_flip_value(
                    &spec,
                    &cert,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
                check_flip_value(
                    &spec,
                    &solver.certificate(),
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
            }
        }
    }

    /// A position cap stops the exact and the reduced MFT solvers cleanly (no strategy is
    /// built from a cut search); a cap above the search changes nothing.
    #[test]
    fn position_caps_stop_the_searches() {
        let spec = convex_spec(FlipGame::FlippingToTriangle, 9, all_convex(9).remove(3));
        let full = Solver::new(&spec).unwrap().certificate();
        assert!(Solver::new(&spec).unwrap().certificate_within(5).is_none());
        let within = Solver::new(&spec).unwrap().certificate_within(1 << 24).unwrap();
        assert_eq!(within.value, full.value);
        let mut mft = crate::triangulations::mft_convex::MftSolver::new();
        mft.max_positions = Some(2);
        mft.certificate(&spec).unwrap();
        assert!(mft.aborted);
        let mut mft = crate::triangulations::mft_convex::MftSolver::new();
        mft.max_positions = Some(crate::triangulations::mft_convex::position_cap());
        assert_eq!(mft.certificate(&spec).unwrap().value, full.value);
        assert!(!mft.aborted);
    }

    /// A wrong value is rejected: claiming the parity loser wins.
    #[test]
    fn a_wrong_value_is_rejected() {
        let spec = convex_spec(FlipGame::MonochromaticFlipping, 6, all_convex(6).remove(0));
        let mut cert = theorem_9(&spec).unwrap().unwrap();
        cert.value = -1;
        cert.second = cert.first.take();
        assert!(check_flip_value(
            &spec,
            &cert,
            &mut gamecert_certificates::base::budget::Budget::unlimited()
        )
        .is_err());
    }

    /// Bichromatic flipping and MFT on small random point sets with inner points: the exact
    /// solver's certificate is accepted, and a perturbed value is rejected.
    #[test]
    fn exact_certificates_on_point_sets() {
        for seed in 0..3 {
            for game in [
                FlipGame::BichromaticFlipping,
                FlipGame::FlippingToTriangle,
                FlipGame::MonochromaticFlipping,
            ] {
                let spec = gen_instance(
                    crate::triangulations::generate::Kind::Points,
                    7,
                    2,
                    seed,
                    game,
                    false,
                )
                .unwrap();
                let mut solver = Solver::new(&spec).unwrap();
                let cert = solver.certificate();
                check_flip_value(
                    &spec,
                    &cert,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
                let mut wrong = cert.clone();
                wrong.value += 1;
                if wrong.first.is_some() {
                    assert!(check_flip_value(
                        &spec,
                        &wrong,
                        &mut gamecert_certificates::base::budget::Budget::unlimited()
                    )
                    .is_err());
                }
            }
        }
    }
}

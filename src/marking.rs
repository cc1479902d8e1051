//! The monochromatic marking games of seed 000 where the first player to complete a shape
//! wins: the Triangulation Coloring Game (2.3.1: an empty green triangle) and the Four-Cycle
//! Game (2.3.3: an empty green quadrilateral), solved exactly over sets of green edges.
//!
//! Players colour black edges green in turn; whoever completes a target wins. In a
//! triangulation the empty triangles are its faces, and an empty quadrilateral is the union of
//! two faces sharing an edge (a 4-cycle with no point inside is triangulated by one diagonal
//! and no inner vertex), so a quadrilateral is complete when its four boundary edges are green
//! (its diagonal may be either colour). When every edge is green every target is complete, so
//! the game always ends with a winner.

use crate::nimstring::Board;
use std::collections::HashMap;

/// Which shape wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Triangle,
    Quadrilateral,
}

/// The targets of `board` as edge masks.
pub fn targets(board: &Board, target: Target) -> Vec<u64> {
    match target {
        Target::Triangle => board.triangles.clone(),
        Target::Quadrilateral => {
            let mut out = Vec::new();
            for (i, &a) in board.triangles.iter().enumerate() {
                for &b in &board.triangles[i + 1..] {
                    let shared = a & b;
                    if shared != 0 {
                        out.push((a | b) & !shared);
                    }
                }
            }
            out
        }
    }
}

/// Whether the player to move at `green` wins ("first to complete a target wins").
pub fn first_to_complete_wins(
    edges: usize,
    targets: &[u64],
    green: u64,
    memo: &mut HashMap<u64, bool>,
) -> bool {
    if let Some(&w) = memo.get(&green) {
        return w;
    }
    let free: Vec<usize> = (0..edges).filter(|&e| green >> e & 1 == 0).collect();
    let completes = |e: usize| {
        let after = green | 1 << e;
        targets.iter().any(|&t| t >> e & 1 == 1 && after & t == t)
    };
    let w = free.iter().any(|&e| completes(e))
        || free
            .iter()
            .any(|&e| !first_to_complete_wins(edges, targets, green | 1 << e, memo));
    memo.insert(green, w);
    w
}

/// Whether the first player wins the game of `target` on the triangulation.
pub fn first_player_wins(board: &Board, target: Target) -> bool {
    let targets = targets(board, target);
    first_to_complete_wins(board.edges.len(), &targets, 0, &mut HashMap::new())
}

/// Largest board `solve` takes for a marking game on a triangulation (states are subsets of
/// edges); the constructing game is limited by its point count instead.
pub const MAX_SOLVED_EDGES: usize = 26;

/// Solves a `marking-game` instance with the checker's own rules and returns the winner's
/// strategy as a certificate: at every position where the winner is to move (the replay's
/// positions), one edge keeping the win.
pub fn solve_instance(
    spec: &gamecert_certificates::marking_game::MarkingSpec,
) -> Result<gamecert_certificates::marking_game::MarkingStrategy, String> {
    use gamecert_certificates::marking_game::{MarkingGame, MarkingStrategy, Outcome, Rules};
    let rules = Rules::from_spec(spec)?;
    if rules.edges > MAX_SOLVED_EDGES && spec.game != MarkingGame::MonochromaticTriangle {
        return Err(format!(
            "{} edges: `solve` handles marking games with at most {MAX_SOLVED_EDGES}",
            rules.edges
        ));
    }
    // Whether the player to move wins (memoised on the green edges; the rules are symmetric).
    fn wins(rules: &Rules, green: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = memo.get(&green) {
            return w;
        }
        let legal = rules.legal(green);
        let w = if legal.is_empty() {
            rules.stuck_player_wins()
        } else {
            legal.into_iter().any(|e| good(rules, green, e, memo))
        };
        memo.insert(green, w);
        w
    }
    // Whether colouring e keeps the mover winning.
    fn good(rules: &Rules, green: u64, e: usize, memo: &mut HashMap<u64, bool>) -> bool {
        match rules.colour(green, e) {
            Outcome::MoverWins => true,
            Outcome::Continue(true) => wins(rules, green | 1 << e, memo),
            Outcome::Continue(false) => !wins(rules, green | 1 << e, memo),
        }
    }
    let mut memo = HashMap::new();
    let first = wins(&rules, 0, &mut memo);
    let mut moves = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(0u64, first)];
    while let Some((green, winner_moves)) = stack.pop() {
        let legal = rules.legal(green);
        if legal.is_empty() || !seen.insert((green, winner_moves)) {
            continue;
        }
        let options: Vec<usize> = if winner_moves {
            let e = legal
                .into_iter()
                .find(|&e| good(&rules, green, e, &mut memo))
                .expect("a winning position has a winning edge");
            moves.push((format!("{green:x}"), e));
            vec![e]
        } else {
            legal
        };
        for e in options {
            if let Outcome::Continue(again) = rules.colour(green, e) {
                stack.push((green | 1 << e, winner_moves == again));
            }
        }
    }
    Ok(MarkingStrategy {
        winner: if first { "first" } else { "second" }.into(),
        moves,
    })
}

/// Theorem 1 (seed 000): on a simple-branching triangulation of points in convex position, the
/// Triangulation Coloring Game is Kayles on the arrays of the dual that remain when the inner
/// triangles are removed (one heap per array, its number of triangles). Returns the heap sizes.
pub fn kayles_heaps(t: &gamecert_certificates::geometry::Triangulation) -> Vec<usize> {
    let dual = t.dual();
    let inner = t.inner_triangles();
    let mut seen = vec![false; dual.len()];
    for &k in &inner {
        seen[k] = true;
    }
    let mut heaps = Vec::new();
    for start in 0..dual.len() {
        if seen[start] {
            continue;
        }
        let mut size = 0;
        let mut stack = vec![start];
        seen[start] = true;
        while let Some(k) = stack.pop() {
            size += 1;
            for &j in &dual[k] {
                if !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        heaps.push(size);
    }
    heaps.sort_unstable();
    heaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangulations::{generate, Kind};

    fn board(kind: Kind, n: usize, seed: u64) -> Board {
        Board::new(&generate(kind, n, 0, seed).unwrap().validate().unwrap()).unwrap()
    }

    /// Theorem 7: the Four-Cycle Game on a serpentine triangulation with at least two triangles
    /// is a first-player win (random serpentine triangulations, 4 to 10 points, 3 each).
    #[test]
    fn theorem_7_serpentine_four_cycle() {
        for n in 4..=10 {
            for seed in 0..3 {
                assert!(
                    first_player_wins(&board(Kind::Serpentine, n, seed), Target::Quadrilateral),
                    "serpentine, {n} points, seed {seed}"
                );
            }
        }
    }

    /// Theorem 8: the Four-Cycle Game on a wheel with at least four vertices is a
    /// second-player win (4 to 9 vertices).
    #[test]
    fn theorem_8_wheel_four_cycle() {
        for n in 4..=9 {
            assert!(
                !first_player_wins(&board(Kind::Wheel, n, 1), Target::Quadrilateral),
                "wheel with {n} vertices"
            );
        }
    }

    /// The Triangulation Coloring Game by hand: on one triangle the first player colours the
    /// third edge; on two triangles sharing a diagonal the first player colours the diagonal,
    /// after which any edge the second player colours leaves a triangle with two green edges
    /// for the first player to complete. Both are first-player wins.
    #[test]
    fn coloring_small_cases_by_hand() {
        assert!(first_player_wins(&board(Kind::Fan, 3, 1), Target::Triangle));
        assert!(first_player_wins(&board(Kind::Fan, 4, 1), Target::Triangle));
    }

    /// Certificates for every game on small fans, wheels and random triangulations with inner
    /// points, replayed by the checker; the winner agrees with this module's solvers.
    #[test]
    fn certificates_check_for_every_game() {
        use gamecert_certificates::marking_game::{
            check_marking_strategy, MarkingGame, MarkingSpec,
        };
        for (kind, n) in [
            (Kind::Fan, 6),
            (Kind::Wheel, 6),
            (Kind::Points, 7),
            (Kind::Serpentine, 7),
        ] {
            for game in [
                MarkingGame::Coloring,
                MarkingGame::FourCycle,
                MarkingGame::Nimstring,
                MarkingGame::NimstringMisere,
            ] {
                let spec = MarkingSpec {
                    game,
                    triangulation: generate(kind, n, 2, 3).unwrap(),
                };
                let cert = solve_instance(&spec).unwrap();
                check_marking_strategy(&spec, &cert, 10_000_000)
                    .unwrap_or_else(|e| panic!("{kind:?} {n} {game:?}: {e}"));
                let t = spec.triangulation.validate().unwrap();
                let board = Board::new(&t).unwrap();
                let first = match game {
                    MarkingGame::Coloring => first_player_wins(&board, Target::Triangle),
                    MarkingGame::FourCycle => first_player_wins(&board, Target::Quadrilateral),
                    MarkingGame::Nimstring => {
                        crate::nimstring::Solver::new(&board, crate::nimstring::Play::Normal)
                            .wins(0)
                    }
                    MarkingGame::NimstringMisere => {
                        crate::nimstring::Solver::new(&board, crate::nimstring::Play::Misere)
                            .wins(0)
                    }
                    MarkingGame::MonochromaticTriangle => continue, // not in this list
                };
                assert_eq!(cert.winner == "first", first, "{kind:?} {n} {game:?}");
            }
        }
    }

    /// Theorem 2 of seed 000 with the checker's geometric rules: Monochromatic Triangle on n
    /// points in convex position is Dawson's Kayles on a heap of n (the second player wins iff
    /// G(n) = 0), n = 3..8; and the certificates check, also with inner points.
    #[test]
    fn theorem_2_monochromatic_triangle() {
        use gamecert_certificates::geometry::TriangulationSpec;
        use gamecert_certificates::marking_game::{
            check_marking_strategy, MarkingGame, MarkingSpec,
        };
        let dawson = gamecert_certificates::heaps::Rules::parse("dawson-kayles").unwrap();
        let (g, _) = crate::octal::nim_sequence(&dawson, 20);
        let game = |points: Vec<[i64; 2]>| MarkingSpec {
            game: MarkingGame::MonochromaticTriangle,
            triangulation: TriangulationSpec {
                points,
                triangles: vec![],
                edges: vec![],
            },
        };
        for n in 3..=8i64 {
            let spec = game((0..n).map(|i| [i, i * i]).collect());
            let cert = solve_instance(&spec).unwrap();
            check_marking_strategy(&spec, &cert, 10_000_000).unwrap();
            assert_eq!(cert.winner == "first", g[n as usize] != 0, "n = {n}");
        }
        let with_inner = generate(Kind::Points, 7, 2, 5).unwrap().points;
        let spec = game(with_inner);
        let cert = solve_instance(&spec).unwrap();
        check_marking_strategy(&spec, &cert, 10_000_000).unwrap();
    }

    /// Theorem 1 against the exact solver: on random simple-branching triangulations of 5 to 12
    /// points in convex position, the first player wins the coloring game iff the nim sum of
    /// the Kayles values of the heaps is not 0.
    #[test]
    fn theorem_1_coloring_is_kayles() {
        let kayles = gamecert_certificates::heaps::Rules::parse("kayles").unwrap();
        let (g, _) = crate::octal::nim_sequence(&kayles, 64);
        let mut with_inner = 0;
        for n in 5..=12 {
            for seed in 0..4 {
                let spec = generate(Kind::SimpleBranching, n, 0, seed).unwrap();
                let t = spec.validate().unwrap();
                with_inner += usize::from(!t.inner_triangles().is_empty());
                let heaps = kayles_heaps(&t);
                let value = heaps.iter().fold(0, |x, &h| x ^ g[h]);
                let board = Board::new(&t).unwrap();
                assert_eq!(
                    first_player_wins(&board, Target::Triangle),
                    value != 0,
                    "{n} points, seed {seed}, heaps {heaps:?}"
                );
            }
        }
        assert!(with_inner >= 5, "the sample must include inner triangles");
    }
}

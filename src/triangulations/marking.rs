//! The marking games of seed 000 on a triangulation (Triangulation Coloring, Four-Cycle,
//! Nimstring normal and misère) and the constructing game Monochromatic Triangle, solved exactly
//! over sets of green edges with the checker's own rules
//! ([`gamecert_certificates::triangulations::marking`]), and the winner's strategy as a certificate.
//!
//! Also Theorem 1's reduction of the coloring game to Kayles ([`kayles_heaps`]). Nimstring's
//! Grundy values and winning moves on fans (Tables 4 and 5) are [`crate::triangulations::nimstring`].
//!
//! Size limits: a position is a set of green edges, so the search stores at most
//! [`position_bound`] = 2^edges positions; `solve` takes at most [`MAX_SOLVED_EDGES`] = 26
//! edges, and stores at most [`position_cap`] positions (the 8 GiB allowance of
//! [`crate::base::limits`] at [`BYTES_PER_POSITION`] each, which is 2^26), so every board it takes
//! fits, and the cap only guards the estimate.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::marking::{
    MarkingGame, MarkingSpec, MarkingStrategy, Outcome, Rules,
};
use std::collections::HashMap;

/// Whether the player to move at `green` wins (memoised on the green edges; the rules do not
/// depend on who moves).
pub(crate) fn wins(rules: &Rules, green: u64, memo: &mut HashMap<u64, bool>) -> bool {
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

/// Whether colouring `e` at `green` keeps the mover winning.
fn good(rules: &Rules, green: u64, e: usize, memo: &mut HashMap<u64, bool>) -> bool {
    match rules.colour(green, e) {
        Outcome::MoverWins => true,
        Outcome::Continue(true) => wins(rules, green | 1 << e, memo),
        Outcome::Continue(false) => !wins(rules, green | 1 << e, memo),
    }
}

fn checked_rules(spec: &MarkingSpec) -> Result<Rules, String> {
    let rules = Rules::from_spec(spec, &mut Budget::new(u64::MAX))?;
    if rules.edges > MAX_SOLVED_EDGES && spec.game != MarkingGame::MonochromaticTriangle {
        return Err(format!(
            "{} edges: `solve` handles marking games with at most {MAX_SOLVED_EDGES}",
            rules.edges
        ));
    }
    Ok(rules)
}

/// Whether the first player wins the instance.
pub fn first_player_wins(spec: &MarkingSpec) -> Result<bool, String> {
    Ok(wins(&checked_rules(spec)?, 0, &mut HashMap::new()))
}

/// [`first_player_wins`] without `solve`'s edge limit (the rules still take at most 64 edges)
/// but with a bound on the memoised positions: `Ok(None)` once more than `max_positions` are
/// stored. For measuring how far the search goes.
pub fn first_player_wins_within(
    spec: &MarkingSpec,
    max_positions: usize,
) -> Result<Option<bool>, String> {
    let rules = Rules::from_spec(spec, &mut Budget::new(u64::MAX))?;
    Ok(wins_within(&rules, 0, &mut HashMap::new(), max_positions))
}

/// [`wins`] storing at most `max` positions: `None` once the memo is full.
fn wins_within(
    rules: &Rules,
    green: u64,
    memo: &mut HashMap<u64, bool>,
    max: usize,
) -> Option<bool> {
    if let Some(&w) = memo.get(&green) {
        return Some(w);
    }
    if memo.len() >= max {
        return None;
    }
    let legal = rules.legal(green);
    let mut w = legal.is_empty() && rules.stuck_player_wins();
    for e in legal {
        let good = match rules.colour(green, e) {
            Outcome::MoverWins => true,
            Outcome::Continue(again) => wins_within(rules, green | 1 << e, memo, max)? == again,
        };
        if good {
            w = true;
            break;
        }
    }
    memo.insert(green, w);
    Some(w)
}

/// Largest board `solve` takes for a marking game on a triangulation (states are subsets of
/// edges); the constructing game is limited by its point count instead.
pub const MAX_SOLVED_EDGES: usize = 26;

/// Bytes per position at worst: a memo entry (8-byte key and a flag in a hash table at its
/// lowest load), the strategy walk's entry and a recorded move (the position as hexadecimal
/// text and the edge).
pub const BYTES_PER_POSITION: u64 = 128;

/// The positions `solve` lets the search store: the 8 GiB allowance of [`crate::base::limits`] at
/// [`BYTES_PER_POSITION`] each, about 67 million, which is 2^26: every board within
/// [`MAX_SOLVED_EDGES`] fits, since its positions are sets of green edges.
pub fn position_cap() -> usize {
    (crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_POSITION) as usize
}

/// An upper bound on the positions of a marking game with `edges` edges: its sets of green
/// edges, 2^edges.
pub fn position_bound(edges: usize) -> u128 {
    1u128.checked_shl(edges as u32).unwrap_or(u128::MAX)
}

/// Solves a `marking-game` instance with the checker's own rules and returns the winner's
/// strategy as a certificate: at every position where the winner is to move (the replay's
/// positions), one edge keeping the win.
pub fn solve_instance(spec: &MarkingSpec) -> Result<MarkingStrategy, String> {
    let rules = checked_rules(spec)?;
    let mut memo = HashMap::new();
    // The search stores at most `position_cap()` positions; the strategy walk below then only
    // reads positions the search has stored (it follows the search's own first good edge).
    let cap = position_cap();
    let first = wins_within(&rules, 0, &mut memo, cap).ok_or_else(|| {
        use crate::base::limits::{grouped, TooLarge};
        TooLarge {
            what: "the exact search over sets of green edges".into(),
            estimate: format!(
                "up to {} positions (2^{} edge sets; the search stopped at its cap)",
                grouped(position_bound(rules.edges)),
                rules.edges
            ),
            limit: format!("{} positions ({BYTES_PER_POSITION} bytes each)", grouped(cap as u128)),
            suggestion: "the board is too large for an exact solve (--method heaps applies to \
                         the coloring game on simple-branching convex triangulations and \
                         Monochromatic Triangle in convex position)"
                .into(),
        }
        .to_string()
    })?;
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
    Ok(MarkingStrategy { winner: if first { "first" } else { "second" }.into(), moves })
}

/// Theorem 1 (seed 000): on a simple-branching triangulation of points in convex position, the
/// Triangulation Coloring Game is Kayles on the arrays of the dual that remain when the inner
/// triangles are removed (one heap per array, its number of triangles). Returns the heap sizes.
pub fn kayles_heaps(
    t: &gamecert_certificates::triangulations::geometry::Triangulation,
) -> Vec<usize> {
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
    use crate::triangulations::generate::{generate, Kind};

    /// `game` on a generated triangulation.
    fn first(game: MarkingGame, kind: Kind, n: usize, seed: u64) -> bool {
        let spec = MarkingSpec { game, triangulation: generate(kind, n, 0, seed).unwrap() };
        first_player_wins(&spec).unwrap()
    }

    /// The search stores at most 2^edges positions and the strategy lists fewer; a small cap
    /// stops the search and `solve_instance` still answers within the real cap.
    #[test]
    fn position_bound_holds_and_the_cap_stops() {
        for game in [MarkingGame::Coloring, MarkingGame::FourCycle, MarkingGame::Nimstring] {
            for n in 4..=7 {
                let spec =
                    MarkingSpec { game, triangulation: generate(Kind::Wheel, n, 0, 1).unwrap() };
                let rules = Rules::from_spec(&spec, &mut Budget::unlimited()).unwrap();
                let mut memo = HashMap::new();
                wins(&rules, 0, &mut memo);
                assert!(memo.len() as u128 <= position_bound(rules.edges));
                let strategy = solve_instance(&spec).unwrap();
                assert!(strategy.moves.len() as u128 <= position_bound(rules.edges));
                if memo.len() > 1 {
                    assert_eq!(first_player_wins_within(&spec, 1).unwrap(), None);
                }
            }
        }
        assert_eq!(position_bound(MAX_SOLVED_EDGES) as usize, position_cap());
    }

    /// Theorem 7: the Four-Cycle Game on a serpentine triangulation with at least two triangles
    /// is a first-player win (random serpentine triangulations, 4 to 10 points, 3 each).
    #[test]
    fn theorem_7_serpentine_four_cycle() {
        for n in 4..=10 {
            for seed in 0..3 {
                assert!(
                    first(MarkingGame::FourCycle, Kind::Serpentine, n, seed),
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
            assert!(!first(MarkingGame::FourCycle, Kind::Wheel, n, 1), "wheel with {n} vertices");
        }
    }

    /// The Triangulation Coloring Game by hand: on one triangle the first player colours the
    /// third edge; on two triangles sharing a diagonal the first player colours the diagonal,
    /// after which any edge the second player colours leaves a triangle with two green edges
    /// for the first player to complete. Both are first-player wins.
    #[test]
    fn coloring_small_cases_by_hand() {
        assert!(first(MarkingGame::Coloring, Kind::Fan, 3, 1));
        assert!(first(MarkingGame::Coloring, Kind::Fan, 4, 1));
    }

    /// Certificates for every game on small fans, wheels and random triangulations with inner
    /// points, replayed by the checker; for Nimstring the winner agrees with the independent
    /// compound-move solver of [`crate::triangulations::nimstring`].
    #[test]
    fn certificates_check_for_every_game() {
        use crate::triangulations::nimstring::{Board, Play, Solver};
        use gamecert_certificates::triangulations::marking::check_marking_strategy;
        for (kind, n) in
            [(Kind::Fan, 6), (Kind::Wheel, 6), (Kind::Points, 7), (Kind::Serpentine, 7)]
        {
            for game in [
                MarkingGame::Coloring,
                MarkingGame::FourCycle,
                MarkingGame::Nimstring,
                MarkingGame::NimstringMisere,
            ] {
                let spec = MarkingSpec { game, triangulation: generate(kind, n, 2, 3).unwrap() };
                let cert = solve_instance(&spec).unwrap();
                check_marking_strategy(
                    &spec,
                    &cert,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap_or_else(|e| panic!("{kind:?} {n} {game:?}: {e}"));
                let board =
                    Board::new(&spec.triangulation.validate(&mut Budget::new(u64::MAX)).unwrap())
                        .unwrap();
                let play = match game {
                    MarkingGame::Nimstring => Play::Normal,
                    MarkingGame::NimstringMisere => Play::Misere,
                    _ => continue,
                };
                let first = Solver::new(&board, play).wins(0);
                assert_eq!(cert.winner == "first", first, "{kind:?} {n} {game:?}");
            }
        }
    }

    /// Theorem 2 of seed 000 with the checker's geometric rules: Monochromatic Triangle on n
    /// points in convex position is Dawson's Kayles on a heap of n (the second player wins iff
    /// G(n) = 0), n = 3..8; and the certificates check, also with inner points.
    #[test]
    fn theorem_2_monochromatic_triangle() {
        use gamecert_certificates::triangulations::geometry::TriangulationSpec;
        use gamecert_certificates::triangulations::marking::check_marking_strategy;
        let dawson =
            gamecert_certificates::impartial::heaps::Rules::parse("dawson-kayles").unwrap();
        let (g, _) = crate::impartial::octal::nim_sequence(&dawson, 20);
        let game = |points: Vec<[i64; 2]>| MarkingSpec {
            game: MarkingGame::MonochromaticTriangle,
            triangulation: TriangulationSpec { points, triangles: vec![], edges: vec![] },
        };
        for (n, &value) in g.iter().enumerate().take(9).skip(3) {
            let spec = game(crate::triangulations::generate::parabola(n));
            let cert = solve_instance(&spec).unwrap();
            check_marking_strategy(
                &spec,
                &cert,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap();
            assert_eq!(cert.winner == "first", value != 0, "n = {n}");
        }
        let with_inner = generate(Kind::Points, 7, 2, 5).unwrap().points;
        let spec = game(with_inner);
        let cert = solve_instance(&spec).unwrap();
        check_marking_strategy(
            &spec,
            &cert,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .unwrap();
    }

    /// Theorem 1 against the exact solver: on random simple-branching triangulations of 5 to 12
    /// points in convex position, the first player wins the coloring game iff the nim sum of
    /// the Kayles values of the heaps is not 0.
    #[test]
    fn theorem_1_coloring_is_kayles() {
        let kayles = gamecert_certificates::impartial::heaps::Rules::parse("kayles").unwrap();
        let (g, _) = crate::impartial::octal::nim_sequence(&kayles, 64);
        let mut with_inner = 0;
        for n in 5..=12 {
            for seed in 0..4 {
                let spec = generate(Kind::SimpleBranching, n, 0, seed).unwrap();
                let t = spec.validate(&mut Budget::new(u64::MAX)).unwrap();
                with_inner += usize::from(!t.inner_triangles().is_empty());
                let heaps = kayles_heaps(&t);
                let value = heaps.iter().fold(0, |x, &h| x ^ g[h]);
                let game = MarkingSpec { game: MarkingGame::Coloring, triangulation: spec };
                assert_eq!(
                    first_player_wins(&game).unwrap(),
                    value != 0,
                    "{n} points, seed {seed}, heaps {heaps:?}"
                );
            }
        }
        assert!(with_inner >= 5, "the sample must include inner triangles");
    }
}

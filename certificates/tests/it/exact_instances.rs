//! An instance is exactly what its file says. A triangulation given by its edges used to be
//! turned into triangles by listing the empty 3-cycles, silently dropping every edge in no
//! 3-cycle: an edge list with an extra edge crossing others was "repaired" into the
//! triangulation inside it, and a certificate for that smaller board was accepted for the
//! instance as written. Here such certificates are built, shown to be accepted on the exact
//! instance, and rejected, through `check`, on the instance with the extra edge.

use gamecert_certificates::base::budget::{Budget, DEFAULT_MAX_WORK};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::triangulations::flipping::{FlipGame, FlipSequence, FlipSpec};
use gamecert_certificates::triangulations::geometry::{Point, TriangulationSpec};
use gamecert_certificates::triangulations::marking::{
    MarkingGame, MarkingSpec, MarkingStrategy, Outcome, Rules,
};
use gamecert_certificates::{check, Limits};
use std::collections::HashMap;

/// A convex hexagon, (i, i^2).
fn hexagon() -> Vec<Point> {
    (0..6).map(|i| [i, i * i]).collect()
}

/// The hexagon cut by the diagonals 0-2, 0-3 and 3-5 (four triangles, nine edges).
fn zigzag() -> Vec<[usize; 2]> {
    vec![[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 2], [0, 3], [3, 5]]
}

/// The same edges and the diagonal 1-4, which crosses 0-2, 0-3 and 3-5 and whose endpoints
/// have no common neighbour (so it lies in no 3-cycle: the old reading dropped it).
fn zigzag_and_a_crossing_edge() -> Vec<[usize; 2]> {
    let mut edges = zigzag();
    edges.push([1, 4]);
    edges
}

fn flip_instance(edges: Vec<[usize; 2]>) -> Instance {
    Instance::FlipGame(FlipSpec {
        game: FlipGame::AllGreen,
        convex_polygon: None,
        points: hexagon(),
        triangles: vec![],
        edges,
    })
}

#[test]
fn a_flip_sequence_for_the_smaller_board_is_rejected_on_the_instance_with_the_extra_edge() {
    // Flipping 0-3 (apexes 2 and 5) makes 2-5 and colours it and the four sides of 0-2-3-5.
    let cert = Certificate::FlipSequence(FlipSequence { flips: vec![[0, 3]], green: 5 });
    let exact = check(&flip_instance(zigzag()), &cert, &Limits::default());
    assert!(exact.accepted(), "{}", exact.reason);
    let extra = check(&flip_instance(zigzag_and_a_crossing_edge()), &cert, &Limits::default());
    assert!(!extra.accepted());
    assert!(
        extra.reason.contains("10 edges given") && extra.reason.contains("3n - 3 - h = 9"),
        "{}",
        extra.reason
    );
    // Nor may the crossing edge stand in for a diagonal (right count, named edges), nor an
    // edge be given twice.
    let mut swapped = zigzag();
    swapped[7] = [1, 4];
    let err = check(&flip_instance(swapped), &cert, &Limits::default()).reason;
    assert!(err.contains("edges[6] [0, 2] and edges[7] [1, 4] cross"), "{err}");
    let mut twice = zigzag();
    twice[8] = [3, 0];
    let err = check(&flip_instance(twice), &cert, &Limits::default()).reason;
    assert!(err.contains("edges[7] [0, 3] and edges[8] [3, 0] are the same edge"), "{err}");
}

fn marking_spec(edges: Vec<[usize; 2]>) -> MarkingSpec {
    MarkingSpec {
        game: MarkingGame::Coloring,
        triangulation: TriangulationSpec { points: hexagon(), triangles: vec![], edges },
    }
}

/// Whether the player to move wins at `green` (plain minimax over the checker's rules).
fn wins(rules: &Rules, green: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&green) {
        return w;
    }
    let legal = rules.legal(green);
    let w = if legal.is_empty() {
        rules.stuck_player_wins()
    } else {
        legal.iter().any(|&e| match rules.colour(green, e) {
            Outcome::MoverWins => true,
            Outcome::Continue(again) => wins(rules, green | 1 << e, memo) == again,
        })
    };
    memo.insert(green, w);
    w
}

/// A winning strategy for whoever wins the coloring game on `spec` (the game has no extra
/// turns, so the players alternate).
fn solve(spec: &MarkingSpec) -> MarkingStrategy {
    let rules = Rules::from_spec(spec, &mut Budget::new(DEFAULT_MAX_WORK)).unwrap();
    let mut memo = HashMap::new();
    let first = wins(&rules, 0, &mut memo);
    let mut moves = Vec::new();
    let mut stack = vec![(0u64, first)];
    let mut seen = std::collections::HashSet::new();
    while let Some((green, winner_moves)) = stack.pop() {
        if !seen.insert((green, winner_moves)) || rules.legal(green).is_empty() {
            continue;
        }
        if winner_moves {
            let e = *rules
                .legal(green)
                .iter()
                .find(|&&e| match rules.colour(green, e) {
                    Outcome::MoverWins => true,
                    Outcome::Continue(_) => !wins(&rules, green | 1 << e, &mut memo),
                })
                .expect("a winning move");
            moves.push((format!("{green:x}"), e));
            if let Outcome::Continue(_) = rules.colour(green, e) {
                stack.push((green | 1 << e, false));
            }
        } else {
            for e in rules.legal(green) {
                if let Outcome::Continue(_) = rules.colour(green, e) {
                    stack.push((green | 1 << e, true));
                }
            }
        }
    }
    MarkingStrategy { winner: if first { "first" } else { "second" }.into(), moves }
}

#[test]
fn a_marking_strategy_for_the_smaller_board_is_rejected_on_the_instance_with_the_extra_edge() {
    let exact = marking_spec(zigzag());
    let cert = Certificate::MarkingStrategy(solve(&exact));
    let verdict = check(&Instance::MarkingGame(exact), &cert, &Limits::default());
    assert!(verdict.accepted(), "{}", verdict.reason);
    let extra = Instance::MarkingGame(marking_spec(zigzag_and_a_crossing_edge()));
    let verdict = check(&extra, &cert, &Limits::default());
    assert!(!verdict.accepted());
    assert!(verdict.reason.contains("10 edges given"), "{}", verdict.reason);
}

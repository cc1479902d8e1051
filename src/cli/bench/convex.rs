//! `gamecert bench convex-heaps`: the linear-time strategies of seed 000's Theorems 1 and 2
//! ([`gamecert::triangulations::convex_heaps`]) on convex triangulations of 10^3 to 10^5 points: the time per
//! strategy move while the strategy plays a random opponent, and the time to write and check
//! the start's `marking-kayles` certificate.
//!
//! The strategy plays the side the certificate says wins; the opponent plays a random safe
//! move (one that does not hand over a triangle: for coloring, found in 64 draws; for
//! Monochromatic Triangle, two points of a random face), else the strategy's own fallback. Up to 10^4 points the game is played to the end and the
//! strategy's side must win; at 10^5 the first `PLIES_AT_SCALE` plies are timed (a full game
//! is O(n) moves of O(n) each).

use gamecert::base::rng::Rng;
use gamecert::triangulations::convex_heaps::{
    Advice, ColoringBoard, GrundyTable, HeapGame, TriangleBoard,
};
use gamecert::triangulations::generate::parabola;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::check::{check, Limits};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::triangulations::geometry::TriangulationSpec;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use serde::Serialize;
use std::time::Instant;

/// Plies played at the largest size.
const PLIES_AT_SCALE: usize = 2_000;
/// Sizes up to this are played to the end.
const FULL_GAME_POINTS: usize = 10_000;

/// One board.
#[derive(Clone, Debug, Serialize)]
pub struct ConvexRow {
    pub board: String,
    pub points: usize,
    /// Heaps at the start (arrays or faces).
    pub heaps: usize,
    /// Validation, certificate and checker verdict for the start.
    pub certificate_seconds: f64,
    pub check_seconds: f64,
    pub first_player_wins: bool,
    pub strategy_moves: usize,
    pub microseconds_per_move: f64,
    /// Whether the game was played to the end (then the strategy's side won: checked).
    pub full_game: bool,
}

/// The certificate of `spec` written and checked, timed; (first wins, heaps, seconds).
fn certify(spec: &MarkingSpec) -> anyhow::Result<(bool, f64, f64)> {
    let started = Instant::now();
    let cert =
        gamecert::triangulations::convex_heaps::certificate(spec).map_err(anyhow::Error::msg)?;
    let certificate_seconds = started.elapsed().as_secs_f64();
    let first = cert.winner == "first";
    let started = Instant::now();
    let verdict = check(
        &Instance::MarkingGame(spec.clone()),
        &Certificate::MarkingKayles(cert),
        &Limits::default(),
    );
    anyhow::ensure!(verdict.accepted(), "rejected: {}", verdict.reason);
    Ok((first, certificate_seconds, started.elapsed().as_secs_f64()))
}

/// Plays the coloring game; (strategy moves, seconds spent advising, finished).
fn play_coloring(
    board: &ColoringBoard,
    table: &GrundyTable,
    strategy_first: bool,
    max_plies: usize,
    rng: &mut Rng,
) -> anyhow::Result<(usize, f64, bool)> {
    let mut green = vec![false; board.edges.len()];
    let (mut moves, mut seconds) = (0, 0.0);
    let mut strategy_to_move = strategy_first;
    for _ in 0..max_plies {
        let started = Instant::now();
        let advice = board.advise(&green, table);
        let elapsed = started.elapsed().as_secs_f64();
        let edge = if strategy_to_move {
            moves += 1;
            seconds += elapsed;
            advice.edge()
        } else {
            // A random black edge that leaves no triangle with two green edges, if one is found.
            let safe = (0..64).find_map(|_| {
                let e = rng.below(board.edges.len() as u64) as usize;
                board.is_safe(&green, e).then_some(board.edges[e])
            });
            safe.or(advice.edge())
        };
        let Some(edge) = edge else {
            anyhow::bail!("no move left before a triangle was completed");
        };
        let e = board.edge(edge).expect("an edge of the board");
        anyhow::ensure!(!green[e], "the edge {edge:?} is already green");
        if board.colour(&mut green, e) {
            anyhow::ensure!(strategy_to_move, "the strategy's opponent completed a triangle");
            return Ok((moves, seconds, true));
        }
        strategy_to_move = !strategy_to_move;
    }
    Ok((moves, seconds, false))
}

/// Plays Monochromatic Triangle; (strategy moves, seconds spent advising, finished).
fn play_triangle(
    n: usize,
    table: &GrundyTable,
    strategy_first: bool,
    max_plies: usize,
    rng: &mut Rng,
) -> anyhow::Result<(usize, f64, bool)> {
    let mut board = TriangleBoard::new(n);
    let (mut moves, mut seconds) = (0, 0.0);
    let mut strategy_to_move = strategy_first;
    for _ in 0..max_plies {
        let started = Instant::now();
        let advice = board.advise(table);
        let elapsed = started.elapsed().as_secs_f64();
        let edge = if strategy_to_move {
            moves += 1;
            seconds += elapsed;
            advice.edge()
        } else {
            // Two free points of one face (a safe move) while the segments are a matching.
            let faces: Vec<Vec<usize>> = if matches!(advice, Advice::Completes(_)) {
                Vec::new()
            } else {
                board.faces().into_iter().filter(|f| f.len() >= 2).collect()
            };
            if faces.is_empty() {
                advice.edge()
            } else {
                let face = &faces[rng.below(faces.len() as u64) as usize];
                let a = rng.below(face.len() as u64) as usize;
                let b = (a + 1 + rng.below(face.len() as u64 - 1) as usize) % face.len();
                Some([face[a], face[b]])
            }
        };
        let Some([a, b]) = edge else {
            anyhow::bail!("no move left before a triangle was completed");
        };
        anyhow::ensure!(!board.crosses(a, b), "the segment {a}-{b} crosses a drawn one");
        if board.draw(a, b) {
            anyhow::ensure!(strategy_to_move, "the strategy's opponent completed a triangle");
            return Ok((moves, seconds, true));
        }
        strategy_to_move = !strategy_to_move;
    }
    Ok((moves, seconds, false))
}

/// Points 10^3, 10^4 and (unless quick) 10^5, for three boards: a serpentine strip and a
/// random simple-branching triangulation (coloring, Kayles), and Monochromatic Triangle
/// (Dawson's Kayles).
pub fn convex_heaps(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<ConvexRow>> {
    let sizes: &[usize] = if quick { &[1_000, 10_000] } else { &[1_000, 10_000, 100_000] };
    let kayles = GrundyTable::new(HeapGame::Kayles);
    let dawson = GrundyTable::new(HeapGame::Dawson);
    let mut rows = Vec::new();
    let mut rng = Rng::new(17);
    for &n in sizes {
        let plies = if n <= FULL_GAME_POINTS { usize::MAX } else { PLIES_AT_SCALE };
        for board_name in ["serpentine", "simple-branching"] {
            note(&format!("convex-heaps: coloring on a {board_name} of {n} points"));
            let kind = if board_name == "serpentine" {
                gamecert::triangulations::generate::Kind::Serpentine
            } else {
                gamecert::triangulations::generate::Kind::SimpleBranching
            };
            let spec = MarkingSpec {
                game: MarkingGame::Coloring,
                triangulation: gamecert::triangulations::generate::generate(kind, n, 0, 5)
                    .map_err(anyhow::Error::msg)?,
            };
            let (first, certificate_seconds, check_seconds) = certify(&spec)?;
            let t = spec
                .triangulation
                .validate(&mut Budget::new(u64::MAX))
                .map_err(anyhow::Error::msg)?;
            let board = ColoringBoard::new(&t).map_err(anyhow::Error::msg)?;
            let heaps = gamecert_certificates::triangulations::convex_heaps::Reduction::new(
                &spec,
                &mut Budget::new(u64::MAX),
            )
            .map_err(anyhow::Error::msg)?
            .heaps
            .len();
            let (moves, seconds, full) = play_coloring(&board, &kayles, first, plies, &mut rng)?;
            rows.push(ConvexRow {
                board: format!("coloring, {board_name}"),
                points: n,
                heaps,
                certificate_seconds,
                check_seconds,
                first_player_wins: first,
                strategy_moves: moves,
                microseconds_per_move: seconds * 1e6 / moves.max(1) as f64,
                full_game: full,
            });
        }
        note(&format!("convex-heaps: Monochromatic Triangle on {n} points"));
        let spec = MarkingSpec {
            game: MarkingGame::MonochromaticTriangle,
            triangulation: TriangulationSpec {
                points: parabola(n),
                triangles: vec![],
                edges: vec![],
            },
        };
        let (first, certificate_seconds, check_seconds) = certify(&spec)?;
        let (moves, seconds, full) = play_triangle(n, &dawson, first, plies, &mut rng)?;
        rows.push(ConvexRow {
            board: "Monochromatic Triangle".into(),
            points: n,
            heaps: 1,
            certificate_seconds,
            check_seconds,
            first_player_wins: first,
            strategy_moves: moves,
            microseconds_per_move: seconds * 1e6 / moves.max(1) as f64,
            full_game: full,
        });
    }
    Ok(rows)
}

/// Markdown for [`convex_heaps`].
pub fn convex_heaps_table(rows: &[ConvexRow]) -> String {
    let mut out = String::from(
        "| board | points | heaps | winner | certificate s | check s | strategy moves | us/move | played |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {} | {:.1} | {} |\n",
            r.board,
            r.points,
            r.heaps,
            if r.first_player_wins { "first" } else { "second" },
            r.certificate_seconds,
            r.check_seconds,
            r.strategy_moves,
            r.microseconds_per_move,
            if r.full_game { "to the end, won" } else { "first plies" }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Full games on small boards: the strategy's side wins against the random opponent, from
    /// either side, on every board.
    #[test]
    fn the_strategy_wins_full_games_against_a_random_opponent() {
        let kayles = GrundyTable::new(HeapGame::Kayles);
        let dawson = GrundyTable::new(HeapGame::Dawson);
        let mut rng = Rng::new(3);
        for n in [7, 12, 40, 300] {
            for seed in 0..3 {
                for kind in [
                    gamecert::triangulations::generate::Kind::Serpentine,
                    gamecert::triangulations::generate::Kind::SimpleBranching,
                ] {
                    let spec = MarkingSpec {
                        game: MarkingGame::Coloring,
                        triangulation: gamecert::triangulations::generate::generate(
                            kind, n, 0, seed,
                        )
                        .unwrap(),
                    };
                    let (first, _, _) = certify(&spec).unwrap();
                    let t = spec.triangulation.validate(&mut Budget::new(u64::MAX)).unwrap();
                    let board = ColoringBoard::new(&t).unwrap();
                    let (_, _, full) =
                        play_coloring(&board, &kayles, first, usize::MAX, &mut rng).unwrap();
                    assert!(full);
                }
            }
            let spec = MarkingSpec {
                game: MarkingGame::MonochromaticTriangle,
                triangulation: TriangulationSpec {
                    points: parabola(n),
                    triangles: vec![],
                    edges: vec![],
                },
            };
            let (first, _, _) = certify(&spec).unwrap();
            for _ in 0..3 {
                let (_, _, full) = play_triangle(n, &dawson, first, usize::MAX, &mut rng).unwrap();
                assert!(full);
            }
        }
    }
}

/// One exact solve of a marking game.
#[derive(Clone, Debug, Serialize)]
pub struct ReachRow {
    pub game: String,
    pub points: usize,
    pub edges: usize,
    pub seconds: f64,
    pub first_player_wins: bool,
}

/// Memoised positions allowed per solve in [`marking_reach`] (about 2 GB of hash map).
const MAX_REACH_POSITIONS: usize = 50_000_000;

/// The exact marking-game solver ([`gamecert::triangulations::marking::first_player_wins_within`], beyond
/// `solve`'s limit of 26 edges) on random convex triangulations of growing size, per game,
/// until a solve takes more than a quarter of `seconds` (the next size would not finish in
/// `seconds`: each point adds two edges, which multiplies the states by about four) or needs
/// more than [`MAX_REACH_POSITIONS`] memoised positions.
pub fn marking_reach(seconds: f64, note: &dyn Fn(&str)) -> anyhow::Result<Vec<ReachRow>> {
    use gamecert_certificates::triangulations::marking::MarkingGame::*;
    let mut rows = Vec::new();
    for game in [Coloring, FourCycle, Nimstring, NimstringMisere] {
        for n in 5.. {
            if 2 * n - 3 > gamecert_certificates::triangulations::marking::MAX_EDGES {
                break;
            }
            note(&format!("marking reach: {} on {n} points", gamecert::base::token(&game)));
            let spec = MarkingSpec {
                game,
                triangulation: gamecert::triangulations::generate::generate(
                    gamecert::triangulations::generate::Kind::Convex,
                    n,
                    0,
                    n as u64,
                )
                .map_err(anyhow::Error::msg)?,
            };
            let started = Instant::now();
            let Some(first) = gamecert::triangulations::marking::first_player_wins_within(
                &spec,
                MAX_REACH_POSITIONS,
            )
            .map_err(anyhow::Error::msg)?
            else {
                note(&format!(
                    "marking reach: {game} on {n} points needs over {MAX_REACH_POSITIONS} \
                     positions; stopped"
                ));
                break;
            };
            let elapsed = started.elapsed().as_secs_f64();
            rows.push(ReachRow {
                game: gamecert::base::token(&game),
                points: n,
                edges: 2 * n - 3,
                seconds: elapsed,
                first_player_wins: first,
            });
            if elapsed > seconds / 4.0 {
                break;
            }
        }
    }
    Ok(rows)
}

/// Markdown for [`marking_reach`]: the last row of each game is the largest board solved.
pub fn marking_reach_table(rows: &[ReachRow]) -> String {
    let mut out =
        String::from("| game | points | edges | seconds | winner |\n|---|---:|---:|---:|---|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {:.3} | {} |\n",
            r.game,
            r.points,
            r.edges,
            r.seconds,
            if r.first_player_wins { "first" } else { "second" }
        ));
    }
    out
}

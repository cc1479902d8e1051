//! `gamecert bench construct`: how far the exact solver of [`gamecert::triangulations::constructing`]
//! reaches within a time limit for 2.1.1 to 2.1.4 in convex position and 2.3.2 on random convex
//! triangulations.

use gamecert::triangulations::construct_table::convex_points;
use gamecert::triangulations::constructing::{Solver, Stop};
use gamecert::triangulations::generate::{generate, Kind};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::constructing::Pos;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec, Rules};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// One measurement of `bench construct`.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    pub game: &'static str,
    pub points: usize,
    pub edges: usize,
    /// `None` when the solver stopped (time or memory cap).
    pub value: Option<i64>,
    pub positions: usize,
    pub seconds: f64,
    pub stopped: Option<String>,
}

/// Cap on stored positions in the benchmark (about 1 GB).
pub const BENCH_MAX_STATES: usize = 25_000_000;

fn bench_game(
    name: &'static str,
    make: &dyn Fn(usize) -> MarkingSpec,
    from: usize,
    to: usize,
    limit: Duration,
    note: &dyn Fn(&str),
) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    for n in from..=to {
        let spec = make(n);
        let Ok(rules) = Rules::from_spec(&spec, &mut Budget::new(u64::MAX)) else {
            break;
        };
        let started = Instant::now();
        let mut solver =
            Solver::new(&rules).with_deadline(started + limit).with_max_states(BENCH_MAX_STATES);
        let result = solver.value(Pos::START);
        let seconds = started.elapsed().as_secs_f64();
        let stopped = match &result {
            Ok(_) => None,
            Err(Stop::Time) => Some(format!("over {} s", limit.as_secs_f64())),
            Err(Stop::Positions(cap)) => Some(format!("over {cap} positions")),
        };
        note(&format!("{name}, {n} points: {seconds:.2} s {}", stopped.as_deref().unwrap_or("")));
        rows.push(BenchRow {
            game: name,
            points: n,
            edges: rules.edges,
            value: result.ok(),
            positions: solver.states(),
            seconds,
            stopped: stopped.clone(),
        });
        if stopped.is_some() {
            break;
        }
    }
    rows
}

/// All games, each n upward until the solver stops.
pub fn bench(seconds: f64, note: &dyn Fn(&str)) -> Vec<BenchRow> {
    let limit = Duration::from_secs_f64(seconds);
    let mut rows = Vec::new();
    for (name, game) in [
        ("2.1.1", MarkingGame::MonochromaticCompleteTriangulation),
        ("2.1.2", MarkingGame::MonochromaticTriangle),
        ("2.1.3", MarkingGame::BichromaticCompleteTriangulation),
        ("2.1.4", MarkingGame::BichromaticTriangle),
        ("2.1.4'", MarkingGame::BichromaticTrianglePlayOn),
    ] {
        rows.extend(bench_game(name, &|n| convex_points(game, n), 3, 11, limit, note));
    }
    rows.extend(bench_game(
        "2.3.2",
        &|n| MarkingSpec {
            game: MarkingGame::BichromaticColoring,
            triangulation: generate(Kind::Convex, n, 0, 1).expect("a convex triangulation"),
        },
        3,
        32,
        limit,
        note,
    ));
    rows
}

/// The benchmark's table: every measurement, then the largest n finished per game.
pub fn bench_text(rows: &[BenchRow], seconds: f64) -> String {
    let mut out =
        String::from("game    points  edges  value  positions stored  seconds  stopped\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{:6}  {:>6}  {:>5}  {:>5}  {:>16}  {:>7.2}  {}",
            r.game,
            r.points,
            r.edges,
            r.value.map_or("-".to_string(), |v| v.to_string()),
            r.positions,
            r.seconds,
            r.stopped.as_deref().unwrap_or("")
        );
    }
    let _ = writeln!(out, "\nlargest n solved within {seconds} s:");
    for game in ["2.1.1", "2.1.2", "2.1.3", "2.1.4", "2.1.4'", "2.3.2"] {
        let best = rows.iter().rfind(|r| r.game == game && r.stopped.is_none());
        let stopped = rows.iter().any(|r| r.game == game && r.stopped.is_some());
        let _ = writeln!(
            out,
            "{game}: {}",
            best.map_or("none".to_string(), |r| format!(
                "n = {} ({:.2} s){}",
                r.points,
                r.seconds,
                if stopped { "" } else { ", the largest instance the format takes" }
            ))
        );
    }
    out
}

/// `gamecert bench construct [--seconds S] [--json]`.
/// `seconds` is in 0.1..=3600 (its parser in `bench::Args`).
pub fn run(seconds: f64, json: bool, quiet: bool) -> anyhow::Result<()> {
    let note = |t: &str| {
        if !quiet {
            eprintln!("{t}");
        }
    };
    let rows = bench(seconds, &note);
    if json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    } else {
        print!("{}", bench_text(&rows, seconds));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2.1.2 through the construct solver agrees with the marking-game solver (Theorem 2's
    /// tests cover that one), n = 3..=8.
    #[test]
    fn monochromatic_triangle_agrees_with_the_marking_solver() {
        for n in 3..=8 {
            let spec = convex_points(MarkingGame::MonochromaticTriangle, n);
            let rules = Rules::from_spec(&spec, &mut Budget::new(u64::MAX)).unwrap();
            let v = Solver::new(&rules).value(Pos::START).unwrap();
            let first = gamecert::triangulations::marking::first_player_wins(&spec).unwrap();
            assert_eq!(v == 1, first, "n = {n}");
            assert_ne!(v, 0, "2.1.2 has no tie in convex position, n = {n}");
        }
    }

    #[test]
    fn the_bench_stops_at_the_limit() {
        let rows = bench_game(
            "2.1.3",
            &|n| convex_points(MarkingGame::BichromaticCompleteTriangulation, n),
            3,
            11,
            Duration::from_millis(300),
            &|_| {},
        );
        let last = rows.last().unwrap();
        assert!(last.stopped.is_some(), "{rows:?}");
        assert!(rows.len() >= 3, "{rows:?}");
    }
}

//! `gamecert table bichromatic-construct` (beyond seed 000's Table 1): the outcomes of 2.1.3
//! and 2.1.4 on convex point sets, each certified and checked; the convex point sets.

use crate::triangulations::constructing::exact_certificate;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::check::{check, Limits};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::triangulations::constructing::describe;
use gamecert_certificates::triangulations::geometry::TriangulationSpec;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec, Rules};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Instant;

/// `n` points in convex position (i, i^2), no segments.
pub fn convex_points(game: MarkingGame, n: usize) -> MarkingSpec {
    MarkingSpec {
        game,
        triangulation: TriangulationSpec {
            points: crate::triangulations::generate::parabola(n),
            triangles: vec![],
            edges: vec![],
        },
    }
}

/// One row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct BichromaticRow {
    pub points: usize,
    pub game: &'static str,
    /// R's margin under optimal play (2.1.3: triangles; 2.1.4: +1 R wins, 0 tie, -1 B wins).
    /// `2.1.4'` is 2.1.4 read the other way (bichromatic triangles ignored, play goes on).
    pub value: i64,
    pub outcome: String,
    /// Positions the checker replayed (both strategies).
    pub checked_positions: u64,
    pub solve_seconds: f64,
    pub check_seconds: f64,
}

/// The largest point set the table takes.
pub const MAX_TABLE_POINTS: usize = 8;

/// The rows for n = 3..=max_points, each certificate checked by the checker.
pub fn bichromatic_table(
    max_points: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<BichromaticRow>, String> {
    if !(3..=MAX_TABLE_POINTS).contains(&max_points) {
        return Err(format!(
            "--max-points must be between 3 and {MAX_TABLE_POINTS} (got {max_points}); \
             n = 8 takes about five minutes, n = 9 is out of reach"
        ));
    }
    let mut rows = Vec::new();
    for n in 3..=max_points {
        for (game, name) in [
            (MarkingGame::BichromaticCompleteTriangulation, "2.1.3"),
            (MarkingGame::BichromaticTriangle, "2.1.4"),
            (MarkingGame::BichromaticTrianglePlayOn, "2.1.4'"),
        ] {
            progress(&format!("{name}, {n} points"));
            rows.push(row(game, name, n)?);
        }
    }
    Ok(rows)
}

fn row(game: MarkingGame, name: &'static str, n: usize) -> Result<BichromaticRow, String> {
    let spec = convex_points(game, n);
    let rules = Rules::from_spec(&spec, &mut Budget::new(u64::MAX))?;
    let started = Instant::now();
    let (cert, value, _) =
        exact_certificate(&rules, None).map_err(|s| format!("{name}, n = {n}: {s}"))?;
    let solve_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let verdict = check(
        &Instance::MarkingGame(spec),
        &Certificate::ConstructStrategy(cert),
        &Limits::default(),
    );
    if !verdict.accepted() {
        return Err(format!(
            "internal error: the checker rejected the certificate of {name}, n = {n}: {}",
            verdict.reason
        ));
    }
    Ok(BichromaticRow {
        points: n,
        game: name,
        value,
        outcome: describe(game, value),
        checked_positions: verdict.work.positions.unwrap_or(0),
        solve_seconds,
        check_seconds: started.elapsed().as_secs_f64(),
    })
}

/// The table as text (`times`: with the time columns).
pub fn bichromatic_text_with(rows: &[BichromaticRow], times: bool) -> String {
    let mut out =
        String::from("points  game    value  outcome                            checked positions");
    if times {
        out.push_str("  solve s  check s");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(
            out,
            "{:>6}  {:6}  {:>5}  {:33}  {:>17}",
            r.points, r.game, r.value, r.outcome, r.checked_positions
        );
        if times {
            let _ = write!(out, "  {:>7.2}  {:>7.2}", r.solve_seconds, r.check_seconds);
        }
        out.push('\n');
    }
    out
}

/// The table as text with times.
pub fn bichromatic_text(rows: &[BichromaticRow]) -> String {
    bichromatic_text_with(rows, true)
}

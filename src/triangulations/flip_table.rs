//! `gamecert table flipping`: beyond the paper (its Table 1 leaves 2.2.3 open and solves 2.2.1
//! only in convex position), Monochromatic Flipping and Bichromatic Flipping on small random
//! point sets with inner points (`gen triangulation --kind points`), each value solved exactly
//! and certified: the `flip-value` certificate is replayed by the checker before the row is
//! printed.

use crate::triangulations::flipping::{gen_instance, Solver};
use crate::triangulations::generate::Kind;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{check_flip_value, setup, FlipGame};
use serde::Serialize;
use std::fmt::Write as _;

/// Seeds per (n, inner).
pub const SEEDS: u64 = 2;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Row {
    pub points: usize,
    pub inner: usize,
    pub seed: u64,
    /// Flippable edges at the start.
    pub flippable: usize,
    /// Monochromatic Flipping: "first" or "second" wins.
    pub monochromatic: String,
    pub monochromatic_positions: u64,
    /// Bichromatic Flipping: red minus blue under optimal play, R moving first.
    pub bichromatic: i64,
    pub bichromatic_positions: u64,
}

/// Rows for 6 <= n <= max_n points, 1 to 3 inner points, [`SEEDS`] seeds each.
pub fn rows(max_n: usize, progress: &mut dyn FnMut(&str)) -> Result<Vec<Row>, String> {
    let mut out = Vec::new();
    for n in 6..=max_n {
        for inner in 1..=3.min(n - 3) {
            for seed in 1..=SEEDS {
                progress(&format!("n {n}, inner {inner}, seed {seed}"));
                let certified = |game| -> Result<(i64, u64, usize), String> {
                    let spec = gen_instance(Kind::Points, n, inner, seed, game, false)?;
                    let (shape, board) = setup(&spec, &mut Budget::new(u64::MAX))?;
                    let mut solver = Solver::new(&spec)?;
                    let cert = solver.certificate();
                    let report = check_flip_value(&spec, &cert, &mut Budget::unlimited())
                        .map_err(|e| format!("n {n}, seed {seed}: rejected: {e}"))?;
                    Ok((cert.value, report.positions, board.moves(&shape).len()))
                };
                let (mono, mono_positions, flippable) = certified(FlipGame::MonochromaticFlipping)?;
                let (bi, bi_positions, _) = certified(FlipGame::BichromaticFlipping)?;
                out.push(Row {
                    points: n,
                    inner,
                    seed,
                    flippable,
                    monochromatic: if mono > 0 { "first" } else { "second" }.into(),
                    monochromatic_positions: mono_positions,
                    bichromatic: bi,
                    bichromatic_positions: bi_positions,
                });
            }
        }
    }
    Ok(out)
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::from(
        "Flipping games on random point sets with inner points (exact, certified)\n\
         monochromatic: 2.2.1, normal play; bichromatic: 2.2.3, red (first) minus blue\n\n\
         | n | inner | seed | flippable | monochromatic | positions | bichromatic | positions |\n\
         |---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:+} | {} |",
            r.points,
            r.inner,
            r.seed,
            r.flippable,
            r.monochromatic,
            r.monochromatic_positions,
            r.bichromatic,
            r.bichromatic_positions
        );
    }
    let first = rows.iter().filter(|r| r.monochromatic == "first").count();
    let (red, tie) = (
        rows.iter().filter(|r| r.bichromatic > 0).count(),
        rows.iter().filter(|r| r.bichromatic == 0).count(),
    );
    let _ = writeln!(
        out,
        "\n{} instances: monochromatic first-player wins {first}; bichromatic red wins {red}, \
         ties {tie}, blue wins {}; every value certified",
        rows.len(),
        rows.len() - red - tie
    );
    out
}

//! `gamecert bench flipping`: Theorem 11's dynamic programme on random triangulated convex
//! polygons of 10^3 to 10^6 vertices (time, growth exponent, the checker's replay of the
//! witness), and how far each exact solver reaches within a time cap (60 s, `--quick` 5 s).

use crate::cli::bench::Progress;
use gamecert::triangulations::flipping::{gen_instance, Solver};
use gamecert::triangulations::generate::Kind;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{
    check_flip_sequence, setup, FlipGame, FlipSequence,
};
use serde::Serialize;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// One size of the DP benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct DpRow {
    pub vertices: usize,
    pub edges: usize,
    pub green: usize,
    pub flips: usize,
    pub dp_seconds: f64,
    /// log(t2 / t1) / log(n2 / n1) against the previous row.
    pub growth: Option<f64>,
    pub check_seconds: f64,
}

/// One game's reach.
#[derive(Clone, Debug, Serialize)]
pub struct ReachRow {
    pub game: String,
    pub family: String,
    /// Largest number of points solved within the cap, and its time.
    pub largest_n: usize,
    pub seconds: f64,
    pub nodes: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub dp: Vec<DpRow>,
    pub cap_seconds: u64,
    pub reach: Vec<ReachRow>,
}

pub fn flipping(quick: bool, note: Progress) -> anyhow::Result<Report> {
    let sizes: &[usize] =
        if quick { &[1_000, 10_000, 100_000] } else { &[1_000, 10_000, 100_000, 1_000_000] };
    let mut dp: Vec<DpRow> = Vec::new();
    for &n in sizes {
        let spec = gen_instance(Kind::Convex, n, 0, 1, FlipGame::AllGreen, true)
            .map_err(anyhow::Error::msg)?;
        let started = Instant::now();
        let (green, flips) = gamecert::triangulations::solitaire::all_green_dp(n, &spec.triangles);
        let dp_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let sequence = FlipSequence { flips: flips.clone(), green };
        let (checked, edges) = check_flip_sequence(&spec, &sequence, &mut Budget::unlimited())
            .map_err(anyhow::Error::msg)?;
        anyhow::ensure!(checked == green, "the checker counted {checked}, not {green}");
        let check_seconds = started.elapsed().as_secs_f64();
        let growth = dp.last().map(|p: &DpRow| {
            (dp_seconds / p.dp_seconds).ln() / (n as f64 / p.vertices as f64).ln()
        });
        note(&format!("all-green DP: n = {n}: {dp_seconds:.3} s"));
        dp.push(DpRow {
            vertices: n,
            edges,
            green,
            flips: flips.len(),
            dp_seconds,
            growth,
            check_seconds,
        });
    }
    let cap = Duration::from_secs(if quick { 5 } else { 60 });
    let mut reach = Vec::new();
    for (game, kind, family) in [
        (FlipGame::MonochromaticFlipping, Kind::Convex, "random convex triangulation"),
        (FlipGame::FlippingToTriangle, Kind::Serpentine, "random serpentine triangulation"),
        (FlipGame::BichromaticFlipping, Kind::Convex, "random convex triangulation"),
        (FlipGame::BichromaticFlipping, Kind::Points, "random points, n/3 inner"),
        (FlipGame::AllGreen, Kind::Convex, "random convex triangulation"),
    ] {
        let mut row = ReachRow {
            game: gamecert::base::token(&game),
            family: family.into(),
            largest_n: 0,
            seconds: 0.0,
            nodes: 0,
        };
        for n in 5..=gamecert::triangulations::flipping::MAX_EXACT_POINTS {
            let spec = gen_instance(kind, n, n / 3, 1, game, false).map_err(anyhow::Error::msg)?;
            let started = Instant::now();
            let deadline = started + cap;
            let (done, nodes) = if game.solitaire() {
                let (shape, board) =
                    setup(&spec, &mut Budget::new(u64::MAX)).map_err(anyhow::Error::msg)?;
                gamecert::triangulations::solitaire::exhaustive(&shape, &board);
                (started.elapsed() <= cap, 0)
            } else {
                let mut solver = Solver::new(&spec).map_err(anyhow::Error::msg)?;
                solver.deadline = Some(deadline);
                solver.solve();
                (!solver.aborted, solver.nodes)
            };
            if !done {
                break;
            }
            row.largest_n = n;
            row.seconds = started.elapsed().as_secs_f64();
            row.nodes = nodes;
            note(&format!("{}: n = {n} in {:.2} s", gamecert::base::token(&game), row.seconds));
            // The solitaire search cannot stop half-way: do not start a size that would
            // need 20 times the last one's time beyond the cap.
            if game.solitaire() && row.seconds * 20.0 > cap.as_secs_f64() {
                break;
            }
        }
        reach.push(row);
    }
    reach.extend(reduced_mft_reach(cap, &note)?);
    Ok(Report { dp, cap_seconds: cap.as_secs(), reach })
}

/// The reduced MFT solver ([`gamecert::triangulations::mft_convex`]): one random serpentine triangulation per n,
/// and every serpentine triangulation of each n on one memo (Theorem 10's table), up to
/// [`gamecert::triangulations::mft_convex::MAX_VERTICES`].
fn reduced_mft_reach(cap: Duration, note: &Progress) -> anyhow::Result<Vec<ReachRow>> {
    use gamecert::triangulations::mft_convex::{MftSolver, MAX_VERTICES};
    let mut out = Vec::new();
    for whole_rows in [false, true] {
        let mut row = ReachRow {
            game: "FlippingToTriangle (reduced solver)".into(),
            family: if whole_rows {
                "every serpentine triangulation, n = 4.. on one memo"
            } else {
                "random serpentine triangulation"
            }
            .into(),
            largest_n: 0,
            seconds: 0.0,
            nodes: 0,
        };
        let started = Instant::now();
        let mut solver = MftSolver::new();
        solver.deadline = Some(started + cap);
        for n in 5..=MAX_VERTICES {
            let one = Instant::now();
            if whole_rows {
                for t in gamecert::triangulations::serpentine::all_serpentine(n) {
                    solver.solve(n, &t).map_err(anyhow::Error::msg)?;
                }
            } else {
                let spec =
                    gen_instance(Kind::Serpentine, n, 0, 1, FlipGame::FlippingToTriangle, true)
                        .map_err(anyhow::Error::msg)?;
                solver = MftSolver::new();
                solver.deadline = Some(one + cap);
                solver.solve(n, &spec.triangles).map_err(anyhow::Error::msg)?;
            }
            if solver.aborted {
                break;
            }
            row.largest_n = n;
            row.seconds = if whole_rows { started.elapsed() } else { one.elapsed() }.as_secs_f64();
            row.nodes = solver.nodes;
            note(&format!("reduced MFT: n = {n} in {:.2} s", row.seconds));
        }
        out.push(row);
    }
    Ok(out)
}

pub fn flipping_table(r: &Report) -> String {
    let mut out = String::from(
        "All-Green DP (Theorem 11) on random triangulated convex polygons\n\n\
         | vertices | edges | green | flips | DP s | growth exponent | checker replay s |\n\
         |---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for d in &r.dp {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.4} | {} | {:.3} |",
            d.vertices,
            d.edges,
            d.green,
            d.flips,
            d.dp_seconds,
            d.growth.map_or("-".into(), |g| format!("{g:.2}")),
            d.check_seconds
        );
    }
    let _ = write!(
        out,
        "\nExact solvers: the largest n solved within {} s (one instance per n, seed 1; 16 is the \
         limit of the general solver's position masks, 21 of the reduced MFT solver's keys; the \
         whole-row line counts the time from n = 5 on)\n\n\
         | game | family | largest n | s | nodes |\n|---|---|---:|---:|---:|\n",
        r.cap_seconds
    );
    for x in &r.reach {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.2} | {} |",
            x.game, x.family, x.largest_n, x.seconds, x.nodes
        );
    }
    out
}

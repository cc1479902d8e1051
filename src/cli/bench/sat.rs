//! `gamecert bench sat`: the SAT backends in `gamecert solve`'s pipeline, beside the `cadical`
//! binary on the same formula.
//!
//! Each formula is unsatisfiable: random 3-CNF at ratio 4.26 (seeded draws, redrawn until one
//! is unsatisfiable) and a pigeonhole formula. It is reduced as `gamecert reduce sat-voronoi1`
//! does, and the one-round instance solved as `gamecert solve --method reduction --sat B` does
//! it, for each backend B: SAT with the LRAT proof, then the checker on the certificate. Beside
//! that, in the same process: the backend without proof logging (the SAT part alone), the
//! trusted checker on the LRAT alone; as processes, on the normalised formula written as
//! `gamecert export-proof --formula refuted` writes it ([`Cnf::to_dimacs`]): the `cadical` binary (no
//! proof) and drat-trim's `lrat-check` on the proof. A program not on `PATH` leaves its column
//! empty. A backend refused for size, or slower than [`SKIP_AFTER_SECONDS`], on a random formula
//! is skipped on the larger ones (a row says so).

use super::{best_of, outside, timed, Progress};
use anyhow::{bail, Context};
use gamecert::base::rng::Rng;
use gamecert::base::sat::{self, pigeonhole, random_k_cnf, Backend, SatOutcome};
use gamecert::voronoi::one_round::{solve_one_round, Method, SolveError};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::cnf::Cnf;
use gamecert_certificates::base::lrat::check_lrat;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_reductions::sat_voronoi::reduce;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// One formula solved by one backend.
#[derive(Clone, Debug, Serialize)]
pub struct SatRow {
    pub formula: String,
    /// The normalised formula the reduction records (what is solved).
    pub vars: u32,
    pub clauses: usize,
    /// The `cadical` binary on the formula, no proof (best of 3; `None` when not installed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary_seconds: Option<f64>,
    pub backend: &'static str,
    /// `refuted`, or why there is no measurement (a refusal for size, a skipped backend).
    pub status: String,
    /// The measurements, when refuted.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub measured: Option<Measured>,
}

/// What [`SatRow`] measures of a refutation.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// The backend without proof logging.
    pub sat_seconds: f64,
    /// `solve`'s SAT step: the backend with the LRAT proof, translated.
    pub solve_seconds: f64,
    /// `solve`'s self-check: the checker on the certificate (rebuilding the instance from the
    /// formula, then the LRAT).
    pub check_seconds: f64,
    /// `solve_seconds + check_seconds`.
    pub pipeline_seconds: f64,
    /// `pipeline_seconds / binary_seconds`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over_binary: Option<f64>,
    pub lrat_bytes: usize,
    /// The trusted checker on the LRAT alone.
    pub lrat_check_ours_seconds: f64,
    /// drat-trim's `lrat-check` on the same files (best of 3; `None` when not installed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_check_seconds: Option<f64>,
}

/// A backend whose pipeline takes longer than this on one random formula (or is refused for
/// size) is skipped on the larger ones: varisat needs minutes from about 275 variables.
const SKIP_AFTER_SECONDS: f64 = 120.0;

/// The formulas of the benchmark: the first unsatisfiable draw of a random 3-CNF for each
/// size in `sizes` (ratio 4.26), then pigeonhole with `holes` holes; each named, and marked
/// when it is one of the growing random formulas.
fn formulas(sizes: &[u32], holes: u32) -> anyhow::Result<Vec<(String, Cnf, bool)>> {
    let mut out = Vec::new();
    for &n in sizes {
        let m = (4.26 * f64::from(n)).round() as usize;
        let mut rng = Rng::new(u64::from(n));
        let mut draw = 0;
        loop {
            draw += 1;
            if draw > 100 {
                bail!("no unsatisfiable 3-CNF with {n} variables in 100 draws");
            }
            let cnf = random_k_cnf(n, m, 3, &mut rng);
            if matches!(
                sat::solve(&cnf, false, Backend::Cadical)?,
                SatOutcome::Unsatisfiable { .. }
            ) {
                out.push((format!("3-CNF n={n} (draw {draw})"), cnf, true));
                break;
            }
        }
    }
    out.push((format!("PHP {} pigeons, {holes} holes", holes + 1), pigeonhole(holes), false));
    Ok(out)
}

/// The `cadical` binary on `cnf_path`, best of 3, if it is on `PATH`; it must answer
/// UNSATISFIABLE.
fn cadical_binary(cnf_path: &Path) -> Option<anyhow::Result<f64>> {
    Command::new("cadical").arg("--version").output().ok()?;
    let run = || -> anyhow::Result<f64> {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let (out, seconds) = timed(|| Command::new("cadical").arg("-q").arg(cnf_path).output());
            let out = out?;
            if out.status.code() != Some(20) {
                bail!("the cadical binary did not answer UNSATISFIABLE on {}", cnf_path.display());
            }
            best = best.min(seconds);
        }
        Ok(best)
    };
    Some(run())
}

/// Measures one formula with every backend but those in `skipped` (with the reason), which
/// gains the backends that took too long here when `random`.
fn measure(
    name: &str,
    original: &Cnf,
    random: bool,
    skipped: &mut Vec<(Backend, String)>,
    dir: &Path,
    progress: Progress,
) -> anyhow::Result<Vec<SatRow>> {
    let reduced = reduce(original, SatVoronoi::Problem1)
        .map_err(|e| anyhow::anyhow!("{name}: reduce failed: {e}"))?;
    let spec = reduced.instance;
    let game = spec.validate().with_context(|| format!("{name}: the reduced instance"))?;
    let formula = &spec.source.as_ref().context("the reduction records its formula")?.formula;
    let cnf_path = dir.join("formula.cnf");
    std::fs::write(&cnf_path, formula.to_dimacs())?;
    let binary = cadical_binary(&cnf_path).transpose()?;
    let mut rows = Vec::new();
    for backend in Backend::ALL {
        let row = |status: String, measured: Option<Measured>| SatRow {
            formula: name.to_string(),
            vars: formula.num_vars,
            clauses: formula.clauses.len(),
            binary_seconds: binary,
            backend: backend.name(),
            status,
            measured,
        };
        let skip = skipped.iter().find(|(b, _)| *b == backend).filter(|_| random);
        if let Some((_, reason)) = skip {
            rows.push(row(format!("skipped ({reason})"), None));
            continue;
        }
        progress(&format!("sat: {name}, {backend}"));
        let (plain, sat_seconds) = best_of(|| sat::solve(formula, false, backend));
        if !matches!(plain?, SatOutcome::Unsatisfiable { .. }) {
            bail!("{name}: {backend} finds the normalised formula satisfiable");
        }
        let solved = match solve_one_round(&spec, &game, Method::Reduction, backend, None) {
            Ok(solved) => solved,
            Err(SolveError::TooLarge(refusal)) => {
                progress(&format!("sat: {name}, {backend}: {refusal}"));
                skipped.push((backend, format!("refused for size at {name}")));
                rows.push(row(format!("refused: {}", refusal.what), None));
                continue;
            }
            Err(e) => return Err(e).with_context(|| format!("{name}: solve with {backend}")),
        };
        let Certificate::Refutation(refutation) = &solved.certificate else {
            bail!("{name}: {backend} gave a {} certificate", solved.certificate.kind());
        };
        let (report, lrat_check_ours_seconds) =
            timed(|| check_lrat(formula, &refutation.lrat, &mut Budget::unlimited()));
        report.map_err(|e| anyhow::anyhow!("{name}: the checker rejects the LRAT: {e}"))?;
        let lrat_path = dir.join(format!("{backend}.lrat"));
        std::fs::write(&lrat_path, &refutation.lrat)?;
        let lrat_check =
            outside(name, "lrat-check", "c VERIFIED", &cnf_path, &lrat_path).transpose()?;
        let _ = std::fs::remove_file(&lrat_path);
        let pipeline_seconds = solved.solve_seconds + solved.check_seconds;
        progress(&format!(
            "sat: {name}, {backend}: SAT + proof {:.2} s, self-check {:.2} s, cadical binary {}",
            solved.solve_seconds,
            solved.check_seconds,
            binary.map_or("absent".to_string(), |b| format!("{b:.2} s"))
        ));
        if random && pipeline_seconds > SKIP_AFTER_SECONDS {
            skipped.push((backend, format!("{pipeline_seconds:.0} s at {name}")));
        }
        let measured = Measured {
            sat_seconds,
            solve_seconds: solved.solve_seconds,
            check_seconds: solved.check_seconds,
            pipeline_seconds,
            over_binary: binary.map(|b| pipeline_seconds / b),
            lrat_bytes: solved.lrat_bytes,
            lrat_check_ours_seconds,
            lrat_check_seconds: lrat_check,
        };
        rows.push(row("refuted".into(), Some(measured)));
    }
    Ok(rows)
}

/// Runs the benchmark: random 3-CNF with `sizes` variables, then pigeonhole with `holes`.
pub fn sat_bench(sizes: &[u32], holes: u32, progress: Progress) -> anyhow::Result<Vec<SatRow>> {
    let dir = std::env::temp_dir().join(format!("gamecert-bench-sat-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    let result = (|| {
        for (name, cnf, random) in formulas(sizes, holes)? {
            rows.extend(measure(&name, &cnf, random, &mut skipped, &dir, progress)?);
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result.map(|()| rows)
}

/// The rows as Markdown (seconds to 3 decimals).
pub fn sat_table(rows: &[SatRow]) -> String {
    let mut out = String::from(
        "| formula | vars / clauses | cadical binary s | backend | SAT s (no proof) \
         | SAT + proof s | self-check s | solve total s | total / binary | LRAT bytes \
         | our LRAT check s | lrat-check s |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let shown = |s: Option<f64>| s.map_or("(absent)".to_string(), |s| format!("{s:.3}"));
    for r in rows {
        let head = format!(
            "| {} | {} / {} | {} | {} |",
            r.formula,
            r.vars,
            r.clauses,
            shown(r.binary_seconds),
            r.backend
        );
        let Some(m) = &r.measured else {
            let _ = writeln!(out, "{head} {} | | | | | | | |", r.status);
            continue;
        };
        let _ = writeln!(
            out,
            "{head} {:.3} | {:.3} | {:.3} | {:.3} | {} | {} | {:.3} | {} |",
            m.sat_seconds,
            m.solve_seconds,
            m.check_seconds,
            m.pipeline_seconds,
            m.over_binary.map_or("".to_string(), |x| format!("{x:.2}")),
            m.lrat_bytes,
            m.lrat_check_ours_seconds,
            shown(m.lrat_check_seconds)
        );
    }
    out
}

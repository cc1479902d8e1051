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
//!
//! Every stage is measured as CPU time (user plus system, all threads: getrusage) and wall
//! time, the least CPU of three runs where a run takes under 20 s: CaDiCaL as a library without
//! proof, with an idle proof tracer (its own cost of antecedent chains), with our LRAT writer;
//! the self-check; reading the instance; writing the certificate; then the whole pipeline as
//! `solve` runs it, whose CPU is divided by the binary's. The binary is Debian's CaDiCaL (1.5.3
//! here) and the library 3.0.1: the no-proof column against the binary's is the difference of
//! versions and builds, the rest is ours.
//!
//! Two environment variables narrow a run: `GAMECERT_BENCH_SAT_SIZES` (comma-separated
//! variable counts, for the random formulas) and `GAMECERT_BENCH_SAT_BACKENDS` (`cadical`,
//! `varisat` or both, comma-separated).

use super::{outside, timed, Progress};
use anyhow::{bail, Context};
use gamecert::base::rng::Rng;
use gamecert::base::sat::lrat_writer::to_text;
use gamecert::base::sat::{self, pigeonhole, random_k_cnf, Backend, SatError, SatOutcome};
use gamecert::voronoi::one_round::{solve_one_round, Method, ProofOutput, SolveError, Solved};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::check::check_binary_refutation;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::lrat::check_lrat_reader;
use gamecert_certificates::sat::lrat_binary::{proof_offset, read_header};
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
    /// The `cadical` binary on the formula, no proof (the least CPU of 3 runs; `None` when not
    /// installed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub binary: Option<Cost>,
    pub backend: &'static str,
    /// `refuted`, or why there is no measurement (a refusal for size, a skipped backend).
    pub status: String,
    /// The measurements, when refuted.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub measured: Option<Measured>,
}

/// CPU seconds (user and system, every thread of this process, or of the child processes
/// waited for) and wall seconds of one stage.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Cost {
    pub cpu: f64,
    pub wall: f64,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, other: Cost) -> Cost {
        Cost { cpu: self.cpu + other.cpu, wall: self.wall + other.wall }
    }
}

/// User plus system seconds of this process (`RUSAGE_SELF`) or of its waited-for children
/// (`RUSAGE_CHILDREN`).
fn cpu_seconds(who: libc::c_int) -> f64 {
    // SAFETY: `getrusage` writes only into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `f` and returns its value with its [`Cost`] (this process's CPU, all threads).
fn costed<T>(f: impl FnOnce() -> T) -> (T, Cost) {
    let cpu = cpu_seconds(libc::RUSAGE_SELF);
    let (value, wall) = timed(f);
    (value, Cost { cpu: cpu_seconds(libc::RUSAGE_SELF) - cpu, wall })
}

/// Runs `f` three times (once when a run takes over [`ONCE_ABOVE`] s) and keeps the run of
/// least CPU time: on a loaded machine the least disturbed one.
fn least_of<T>(mut f: impl FnMut() -> T) -> (T, Cost) {
    let (mut value, mut best) = costed(&mut f);
    if best.wall < ONCE_ABOVE {
        for _ in 0..2 {
            let (again, cost) = costed(&mut f);
            if cost.cpu < best.cpu {
                (value, best) = (again, cost);
            }
        }
    }
    (value, best)
}

/// Stages slower than this are run once.
const ONCE_ABOVE: f64 = 20.0;

/// What [`SatRow`] measures of a refutation: each stage of `solve`'s pipeline on its own, then
/// the pipeline as `solve` runs it, each as CPU and wall time.
#[derive(Clone, Debug, Serialize)]
pub struct Measured {
    /// The backend without proof logging (CaDiCaL 3.0.1 as a library: against the binary, the
    /// difference of versions and builds, no overhead of ours).
    pub sat: Cost,
    /// CaDiCaL with a proof tracer that keeps nothing: CaDiCaL's own cost of building its
    /// antecedent chains (CaDiCaL only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sat_traced: Option<Cost>,
    /// `solve`'s SAT step: the backend with the LRAT proof translated by our writer.
    pub sat_proof: Cost,
    /// `solve`'s self-check: the checker on the certificate (rebuilding the instance from the
    /// formula, then the LRAT).
    pub check: Cost,
    /// Reading the instance as `solve` does: parse the JSON and validate it.
    pub load: Cost,
    /// Storing the certificate: the binary file renamed to its place.
    pub write: Cost,
    /// The pipeline in one go, as `solve` runs it: load, `solve_one_round` (SAT with the
    /// proof, the self-check), write.
    pub pipeline: Cost,
    /// `pipeline.cpu / binary.cpu`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_over_binary: Option<f64>,
    /// The binary certificate's bytes.
    pub lrat_bytes: usize,
    /// The trusted checker on the proof as text LRAT alone.
    pub lrat_check_ours: Cost,
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

/// The `cadical` binary on `cnf_path`, the least CPU time of 3 runs, if it is on `PATH`; it
/// must answer UNSATISFIABLE.
fn cadical_binary(cnf_path: &Path) -> Option<anyhow::Result<Cost>> {
    Command::new("cadical").arg("--version").output().ok()?;
    let run = || -> anyhow::Result<Cost> {
        let mut best: Option<Cost> = None;
        for _ in 0..3 {
            let children = cpu_seconds(libc::RUSAGE_CHILDREN);
            let (out, wall) = timed(|| Command::new("cadical").arg("-q").arg(cnf_path).output());
            let cpu = cpu_seconds(libc::RUSAGE_CHILDREN) - children;
            let out = out?;
            if out.status.code() != Some(20) {
                bail!("the cadical binary did not answer UNSATISFIABLE on {}", cnf_path.display());
            }
            if best.is_none_or(|b| cpu < b.cpu) {
                best = Some(Cost { cpu, wall });
            }
        }
        best.context("three runs")
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
    backends: &[Backend],
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
    let instance_json = Instance::VoronoiOneRound(spec.clone()).to_json();
    let cert_path = dir.join("certificate.json");
    let mut rows = Vec::new();
    for &backend in backends {
        let row = |status: String, measured: Option<Measured>| SatRow {
            formula: name.to_string(),
            vars: formula.num_vars,
            clauses: formula.clauses.len(),
            binary,
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
        let (plain, sat) = least_of(|| sat::solve(formula, false, backend));
        if !matches!(plain?, SatOutcome::Unsatisfiable { .. }) {
            bail!("{name}: {backend} finds the normalised formula satisfiable");
        }
        let sat_traced = match backend {
            Backend::Cadical => {
                let (unsat, cost) = least_of(|| sat::cadical_with_idle_tracer(formula));
                if !unsat? {
                    bail!("{name}: CaDiCaL with an idle tracer finds the formula satisfiable");
                }
                Some(cost)
            }
            Backend::Varisat => None,
        };
        let (traced, sat_proof) = least_of(|| sat::solve(formula, true, backend));
        if let Err(SatError::ProofTooLarge { .. }) = traced {
            progress(&format!("sat: {name}, {backend}: the proof is too large"));
            skipped.push((backend, format!("proof too large at {name}")));
            rows.push(row("refused: the proof is too large".into(), None));
            continue;
        }
        drop(traced?);
        // The pipeline as `solve` runs it: read the instance, solve and self-check, write.
        let solve_once = || -> anyhow::Result<(Result<Solved, SolveError>, Cost, Cost, Cost)> {
            let (game, load) = costed(|| -> anyhow::Result<_> {
                let instance = Instance::from_json(&instance_json)?;
                let spec = instance.one_round().context("a one-round instance")?;
                Ok(spec.validate()?)
            });
            let game = game?;
            let output = ProofOutput::File(dir.to_path_buf());
            let (solved, solve) =
                costed(|| solve_one_round(&spec, &game, Method::Reduction, backend, None, &output));
            let (written, write) = costed(|| match &solved {
                Ok(Solved { proof_file: Some(file), .. }) => file.persist(&cert_path),
                Ok(solved) => std::fs::write(&cert_path, solved.certificate.to_json()),
                Err(_) => Ok(()),
            });
            written?;
            Ok((solved, load, solve, write))
        };
        let mut least: Option<(Solved, Cost, Cost, Cost)> = None;
        for _ in 0..3 {
            let (solved, load, solve, write) = solve_once()?;
            let solved = match solved {
                Ok(solved) => solved,
                Err(SolveError::TooLarge(refusal)) => {
                    progress(&format!("sat: {name}, {backend}: {refusal}"));
                    skipped.push((backend, format!("refused for size at {name}")));
                    rows.push(row(format!("refused: {}", refusal.what), None));
                    least = None;
                    break;
                }
                Err(e) => return Err(e).with_context(|| format!("{name}: solve with {backend}")),
            };
            let total = load + solve + write;
            let slow = total.wall > ONCE_ABOVE;
            if least.as_ref().is_none_or(|l| total.cpu < (l.1 + l.2 + l.3).cpu) {
                least = Some((solved, load, solve, write));
            }
            if slow {
                break;
            }
        }
        let Some((solved, load, solve, write)) = least else { continue };
        if !matches!(solved.certificate, Certificate::Refutation(_)) {
            bail!("{name}: {backend} gave a {} certificate", solved.certificate.kind());
        }
        // The certificate as `verify` checks it: the binary file, read as it is checked.
        let (verdict, check) = least_of(|| -> anyhow::Result<_> {
            let file = std::fs::File::open(&cert_path)?;
            let limits = gamecert_certificates::Limits::for_input(file.metadata()?.len());
            let mut read = std::io::BufReader::with_capacity(1 << 20, file);
            let mut budget = limits.budget();
            Ok(check_binary_refutation(&game, &mut read, &mut budget))
        });
        let verdict = verdict?;
        if !verdict.accepted() {
            bail!("{name}: the checker rejects the certificate: {}", verdict.reason);
        }
        // Its proof as text LRAT, for our checker on the text and for `lrat-check`.
        let lrat_path = dir.join(format!("{backend}.lrat"));
        let mut read = std::io::BufReader::new(std::fs::File::open(&cert_path)?);
        let header =
            read_header(&mut read, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
        let mut text = std::io::BufWriter::new(std::fs::File::create(&lrat_path)?);
        to_text(read, formula.clauses.len() as u64, proof_offset(&header), &mut text)
            .map_err(anyhow::Error::msg)?;
        std::io::Write::flush(&mut text)?;
        drop(text);
        let _ = std::fs::remove_file(&cert_path);
        let (report, lrat_check_ours) = least_of(|| -> anyhow::Result<_> {
            let read = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&lrat_path)?);
            Ok(check_lrat_reader(formula, read, &mut Budget::unlimited()))
        });
        report?.map_err(|e| anyhow::anyhow!("{name}: the checker rejects the LRAT: {e}"))?;
        let lrat_check =
            outside(name, "lrat-check", "c VERIFIED", &cnf_path, &lrat_path).transpose()?;
        let _ = std::fs::remove_file(&lrat_path);
        let pipeline = load + solve + write;
        progress(&format!(
            "sat: {name}, {backend}: pipeline {:.2} s CPU ({:.2} s wall), cadical binary {}",
            pipeline.cpu,
            pipeline.wall,
            binary.map_or("absent".to_string(), |b| format!("{:.2} s CPU", b.cpu))
        ));
        if random && pipeline.wall > SKIP_AFTER_SECONDS {
            skipped.push((backend, format!("{:.0} s at {name}", pipeline.wall)));
        }
        let measured = Measured {
            sat,
            sat_traced,
            sat_proof,
            check,
            load,
            write,
            pipeline,
            cpu_over_binary: binary.map(|b| pipeline.cpu / b.cpu),
            lrat_bytes: solved.lrat_bytes,
            lrat_check_ours,
            lrat_check_seconds: lrat_check,
        };
        rows.push(row("refuted".into(), Some(measured)));
    }
    Ok(rows)
}

/// Runs the benchmark with `backends`: random 3-CNF with `sizes` variables, then pigeonhole
/// with `holes`.
pub fn sat_bench(
    sizes: &[u32],
    holes: u32,
    backends: &[Backend],
    progress: Progress,
) -> anyhow::Result<Vec<SatRow>> {
    let scratch = crate::cli::scratch_dir("bench-sat")?;
    let dir = scratch.path();
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    let result = (|| {
        for (name, cnf, random) in formulas(sizes, holes)? {
            rows.extend(measure(&name, &cnf, random, &mut skipped, backends, dir, progress)?);
        }
        Ok(())
    })();
    result.map(|()| rows)
}

/// The rows as Markdown: CPU seconds per stage (wall in the pipeline column too), to 3
/// decimals.
pub fn sat_table(rows: &[SatRow]) -> String {
    let mut out = String::from(
        "| formula | vars / clauses | backend | binary CPU s | SAT CPU s (no proof) \
         | SAT + idle tracer CPU s | SAT + LRAT CPU s | self-check CPU s | load CPU s \
         | write CPU s | pipeline CPU s (wall) | pipeline / binary CPU | LRAT bytes \
         | our LRAT check s | lrat-check s |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let shown = |s: Option<f64>| s.map_or("(absent)".to_string(), |s| format!("{s:.3}"));
    for r in rows {
        let head = format!(
            "| {} | {} / {} | {} | {} |",
            r.formula,
            r.vars,
            r.clauses,
            r.backend,
            shown(r.binary.map(|b| b.cpu)),
        );
        let Some(m) = &r.measured else {
            let _ = writeln!(out, "{head} {} | | | | | | | | | |", r.status);
            continue;
        };
        let _ = writeln!(
            out,
            "{head} {:.3} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} ({:.3}) | {} | {} | {:.3} \
             | {} |",
            m.sat.cpu,
            m.sat_traced.map_or("-".to_string(), |c| format!("{:.3}", c.cpu)),
            m.sat_proof.cpu,
            m.check.cpu,
            m.load.cpu,
            m.write.cpu,
            m.pipeline.cpu,
            m.pipeline.wall,
            m.cpu_over_binary.map_or("".to_string(), |x| format!("{x:.2}")),
            m.lrat_bytes,
            m.lrat_check_ours.wall,
            shown(m.lrat_check_seconds)
        );
    }
    out
}

//! Measurements behind `gamecert bench NAME`: how the pipeline scales, what proofs cost to
//! check, and how far the direct refutation method reaches.
//!
//! - [`linear`]: one large random 3-CNF taken through what a user runs: `gamecert reduce`,
//!   `solve` and `verify` on the files as child processes (wall, CPU, peak resident memory;
//!   the verify/solve ratio divides whole by whole), then each stage timed in this process.
//! - [`lrat`]: unsatisfiable formulas of growing size, solved with and without proof logging,
//!   the LRAT proof checked by the trusted checker; the check/solve ratio per formula.
//! - [`sat::sat_bench`]: the SAT backends in `solve`'s pipeline beside the `cadical` binary.
//! - [`direct`]: families of instances on which B cannot win, grown until solving one with
//!   [`Method::Direct`] exceeds a time cap; the sat-voronoi1 images are also solved through the
//!   reduction for contrast.
//!
//! Every function returns rows that serialise to JSON; the `*_table` functions render them as
//! Markdown. Times are wall-clock seconds on one thread.

use anyhow::{bail, Context};
use gamecert::base::rng::Rng;
use gamecert::base::sat::{pigeonhole, random_k_cnf, solve as sat_solve, Backend, SatOutcome};
use gamecert::voronoi::families::{family_instance, Family, LINEAR_SEED};
use gamecert::voronoi::one_round::{solve, solve_one_round, Method, ProofOutput::Text};
use gamecert_certificates::base::budget::{Budget, Limits};
use gamecert_certificates::check::check_one_round_with;
use gamecert_certificates::format::{read_instance_json, Certificate, Instance, ReadInstance};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::lrat::check_lrat;
use gamecert_certificates::voronoi::encode::layout;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_reductions::normalise::normalise;
use gamecert_reductions::sat_voronoi::reduce;
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The benchmarks of `gamecert bench`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchName {
    /// One random 3-CNF (10^5 variables, ratio 1.3) through reduce, solve and verify.
    Linear,
    /// Check/solve time ratios of LRAT refutations (random 3-CNF, pigeonhole).
    Lrat,
    /// Growing instances refuted by the direct method, until one exceeds the time cap.
    Direct,
    /// The exact multi-round solver's positions per second on a 30-vertex graph, on one thread
    /// and with rayon.
    Exact,
    /// The Figure 4 certificates of the positive-DNF reduction: generation and check times,
    /// positions the checker visits, and the plays of the unreduced game tree.
    Posdnf,
    /// Seed 001's strategies on complete k-ary trees (Algorithm 2, B's symmetric strategy):
    /// certificate sizes, build and check times, on the smallest trees of Theorems 1 and 2.
    Kary,
    /// The path table (`table voronoi-paths`) N by N: solve and check times, checker states,
    /// until a 10-minute cap (--quick: N <= 16).
    Paths,
    /// Rule U on paths replayed by the checker (issue 49): single checks where the cost grows
    /// (to N = 200 for n <= 3, B's side dominating), then the rule table to N = 60, n <= 5
    /// (--quick: N <= 60 for single checks, the table to N = 30, n <= 3).
    PathRule,
    /// Nim-sequences of Kayles, Dawson's Kayles, Dawson's chess and Grundy's game to 2^20
    /// (Grundy's game further), rare/common method against the plain mex.
    Octal,
    /// Triangle avoidance (seed 002) for n = 8..12: solve time beside `nauty-geng -tu n` in the
    /// same run, and the size and check time of the Winner's certificate.
    Triangle,
    /// Canonical labelling of triangle-free graphs on 12 to 14 vertices: gamecert's beside
    /// `nauty-labelg` on the same sample of `nauty-geng -t n` (needs nauty).
    Canon,
    /// Nim products (and inverses) per second on random u64 pairs, beside the reference
    /// recursion (the `nimber` crate's side by side: `cargo bench --bench nim`).
    Nim,
    /// Vertex nim (seed 004): Theorem 10's labelling on 10^3 to 3*10^4 vertices, the paper's
    /// quadratic rounds beside the sorted version, with the growth exponent.
    Vertexnim,
    /// The Voronoi-game census over every connected graph (`table voronoi-graphs`), n = 5..=8.
    Census,
    /// Flipping games (seed 000): Theorem 11's DP on convex polygons of 10^3 to 10^6 vertices,
    /// and the exact solvers' reach within 60 s per game.
    Flipping,
    /// Seed 000's Theorems 1 and 2 in convex position (Kayles, Dawson's Kayles): time per
    /// strategy move against a random opponent, and the start's certificate, for 10^3 to 10^5
    /// points.
    ConvexHeaps,
    /// The exact solver of the marking games of seed 000 (coloring, four-cycle, Nimstring
    /// normal and misere) on random convex triangulations of growing size: how far one minute
    /// goes (--quick: ten seconds).
    MarkingReach,
    /// Seed 000's games with scores or ties (2.1.1-2.1.4, 2.3.2): the largest n the exact
    /// solver finishes within --seconds (default 60), with times.
    Construct,
    /// The SAT backends (CaDiCaL, varisat) in `solve`'s pipeline on reduced unsatisfiable
    /// random 3-CNF (150 to 300 variables) and pigeonhole, beside the `cadical` binary and
    /// drat-trim's `lrat-check` where installed.
    Sat,
    /// The proof search (`solve --method prove`): triangle avoidance n = 6..12 (the proof beside
    /// the strategy read off the full game digraph) and k-ary tree games, each proof checked.
    Prove,
    /// Research scale (issue 47): random 3-CNF at ratio 4.26 from 250 to 310 variables
    /// (--quick: 150 to 200) through `reduce`, `solve -o` and `verify` as processes beside the
    /// `cadical` binary (time, peak memory, certificate bytes per conflict), and the large
    /// strategy certificates' bytes as JSON and binary with their checks' memory.
    Scale,
    /// The checker built for WebAssembly (issue 48): the demo's cases by `gamecert verify` and
    /// by `node wasm/run.mjs`, and the largest certificate the module checks in its memory
    /// (--quick: up to 16 MB). Needs scripts/build-wasm and node.
    Wasm,
}

/// Where progress notes go (standard error from the command line, nowhere when quiet).
pub type Progress<'a> = &'a dyn Fn(&str);

/// Runs `f` and returns its value with the elapsed seconds.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let value = f();
    (value, started.elapsed().as_secs_f64())
}

/// Runs `f` once, and four more times when a run takes under 0.2 s; keeps the fastest time.
fn best_of<T>(mut f: impl FnMut() -> T) -> (T, f64) {
    let (mut value, mut best) = timed(&mut f);
    if best < 0.2 {
        for _ in 0..4 {
            let (again, seconds) = timed(&mut f);
            value = again;
            best = best.min(seconds);
        }
    }
    (value, best)
}

// ---------------------------------------------------------------------------------------------
// linear
// ---------------------------------------------------------------------------------------------

/// One timed stage of the `linear` pipeline.
#[derive(Clone, Debug, Serialize)]
pub struct Stage {
    pub stage: &'static str,
    pub seconds: f64,
}

/// One command run as a child process of the bench on the files: what a user's run costs.
#[derive(Clone, Debug, Serialize)]
pub struct ProcessCost {
    /// The command line after the executable.
    pub command: String,
    pub wall_seconds: f64,
    /// User plus system CPU time of the process.
    pub cpu_seconds: f64,
    /// Its peak resident memory.
    pub max_rss_bytes: u64,
}

/// The result of [`linear`].
#[derive(Clone, Debug, Serialize)]
pub struct LinearReport {
    pub seed: u64,
    pub original_vars: u32,
    pub original_clauses: usize,
    pub normalised_vars: u32,
    pub normalised_clauses: usize,
    pub vertices: usize,
    pub edges: usize,
    pub instance_json_bytes: u64,
    /// `witness` or `refutation`.
    pub certificate: String,
    pub certificate_json_bytes: u64,
    /// `gamecert reduce sat-voronoi1 FORMULA -o INSTANCE` as a process.
    pub reduce: ProcessCost,
    /// `gamecert solve INSTANCE -o CERTIFICATE` as a process.
    pub solve: ProcessCost,
    /// `gamecert verify INSTANCE CERTIFICATE` as a process.
    pub verify: ProcessCost,
    /// `verify.wall_seconds / solve.wall_seconds`: the whole of each, from the files.
    pub verify_over_solve_wall: f64,
    /// `verify.cpu_seconds / solve.cpu_seconds`.
    pub verify_over_solve_cpu: f64,
    /// The same stages in this process, each timed on its own (the breakdown).
    pub stages: Vec<Stage>,
}

/// Runs this executable with `args` as a child process and measures it: wall time, and CPU
/// time and peak resident memory from `wait4`'s resource usage of that child alone. A
/// non-zero exit is an error carrying the child's standard error.
fn measure_child(args: &[&std::ffi::OsStr]) -> anyhow::Result<ProcessCost> {
    let exe = std::env::current_exe()?;
    Ok(measure_process(exe.as_os_str(), args, &[0])?.0)
}

/// Runs `program` with `args` as a child process and measures it as [`measure_child`] does;
/// an exit code outside `ok` is an error carrying its standard error. Returns the cost, the
/// exit code and what it printed on standard output.
fn measure_process(
    program: &std::ffi::OsStr,
    args: &[&std::ffi::OsStr],
    ok: &[i32],
) -> anyhow::Result<(ProcessCost, i32, String)> {
    let command = args.iter().map(|a| a.to_string_lossy()).collect::<Vec<_>>().join(" ");
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", program.to_string_lossy()))?;
    let pid = libc::pid_t::try_from(child.id())?;
    let mut stdout = child.stdout.context("the child's standard output")?;
    let mut stderr = child.stderr.context("the child's standard error")?;
    // Standard error on a thread of its own, so that neither pipe fills while the other is read.
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let mut output = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut output)?;
    let errors = errors.join().unwrap_or_default();
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped (`child` is never waited on); `status`
    // and `usage` are valid for writes.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall_seconds = started.elapsed().as_secs_f64();
    if reaped != pid {
        bail!("{command}: waiting for the process failed: {}", std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    if !ok.contains(&code) {
        bail!(
            "`{} {command}` failed (wait status {status}): {}",
            program.to_string_lossy(),
            errors.trim()
        );
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    let cost = ProcessCost {
        command,
        wall_seconds,
        cpu_seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
        // Linux reports kilobytes.
        max_rss_bytes: u64::try_from(usage.ru_maxrss).unwrap_or(0).saturating_mul(1024),
    };
    Ok((cost, code, output))
}

/// A temporary folder removed when dropped.
/// Random 3-CNF with `num_vars` variables and `1.3 * num_vars` clauses (satisfiable with high
/// probability), reduced with sat-voronoi1 and written to a file; then `gamecert solve` and
/// `gamecert verify` run on the files as processes, as a user runs them (the headline), and
/// the same stages in this process, each timed (the breakdown).
pub fn linear(num_vars: u32, seed: u64, progress: Progress) -> anyhow::Result<LinearReport> {
    let mut stages = Vec::new();
    let num_clauses = (f64::from(num_vars) * 1.3).round() as usize;
    let (cnf, seconds) = timed(|| random_k_cnf(num_vars, num_clauses, 3, &mut Rng::new(seed)));
    stages.push(Stage { stage: "generate the formula (not part of the pipeline)", seconds });
    progress(&format!("linear: {num_vars} variables, {num_clauses} clauses generated"));

    let scratch = crate::cli::scratch_dir("bench-linear")?;
    let dir = scratch.path();
    let formula_path = dir.join("formula.cnf");
    let instance_path = dir.join("instance.json");
    let certificate_path = dir.join("certificate.json");
    std::fs::write(&formula_path, cnf.to_dimacs())?;

    // The headline: each command whole, from the files, as a process of its own. They run
    // before this process holds anything large: a child's peak resident memory as the kernel
    // reports it starts from its parent's at the spawn.
    progress("linear: `gamecert reduce`, `solve` and `verify` on the files");
    let reduce_process = measure_child(&[
        "-q".as_ref(),
        "reduce".as_ref(),
        "sat-voronoi1".as_ref(),
        formula_path.as_os_str(),
        "-o".as_ref(),
        instance_path.as_os_str(),
    ])?;
    let solve = measure_child(&[
        "-q".as_ref(),
        "solve".as_ref(),
        instance_path.as_os_str(),
        "-o".as_ref(),
        certificate_path.as_os_str(),
    ])?;
    let verify = measure_child(&[
        "-q".as_ref(),
        "verify".as_ref(),
        instance_path.as_os_str(),
        certificate_path.as_os_str(),
    ])?;
    let instance_json_bytes = std::fs::metadata(&instance_path)?.len();
    let certificate_json_bytes = std::fs::metadata(&certificate_path)?.len();

    progress("linear: the stages in this process");
    let (normalised, seconds) = timed(|| normalise(&cnf));
    stages.push(Stage { stage: "normalise alone (included in reduce)", seconds });
    drop(normalised);
    let (reduced, seconds) = timed(|| reduce(&cnf, SatVoronoi::Problem1));
    let reduced = reduced.map_err(|e| anyhow::anyhow!("reduce failed: {e}"))?;
    stages.push(Stage { stage: "reduce (normalise + build the graph)", seconds });
    let normalised_vars = reduced.normalised.formula.num_vars;
    let normalised_clauses = reduced.normalised.formula.clauses.len();
    let vertices = reduced.instance.graph.vertices.len();
    let edges = reduced.instance.graph.edges.len();
    let instance = Instance::VoronoiOneRound(reduced.instance);
    drop(reduced.normalised);
    let copy_path = dir.join("instance-copy.json");
    let (written, seconds) = timed(|| std::fs::write(&copy_path, instance.to_json()));
    written?;
    stages.push(Stage { stage: "write the instance file", seconds });
    drop(instance);
    std::fs::remove_file(&copy_path)?;

    // The breakdown, in this process.
    let (text, seconds) = timed(|| std::fs::read_to_string(&instance_path));
    let text = text?;
    stages.push(Stage { stage: "read the instance file", seconds });
    let (parsed, seconds) = timed(|| Instance::from_json(&text));
    let parsed = parsed.context("the instance does not parse back")?;
    drop(text);
    stages.push(Stage { stage: "solve: parse the instance", seconds });
    let spec = parsed.one_round().context("not a one-round instance")?;
    let (game, seconds) = timed(|| spec.validate());
    let game = game.context("the instance is not valid")?;
    stages.push(Stage { stage: "solve: validate the instance", seconds });
    let (solved, solve_wall) =
        timed(|| solve_one_round(spec, &game, Method::Auto, Backend::default(), None, &Text));
    let solved = solved?;
    drop((parsed, game));
    stages.push(Stage {
        stage: "solve: SAT + forward map (Solved.solve_seconds)",
        seconds: solved.solve_seconds,
    });
    stages.push(Stage {
        stage: "solve: self-check (Solved.check_seconds)",
        seconds: solved.check_seconds,
    });
    stages.push(Stage {
        stage: "solve: the rest (the source formula's image compared with the graph)",
        seconds: (solve_wall - solved.solve_seconds - solved.check_seconds).max(0.0),
    });
    let (certificate_json, seconds) = timed(|| solved.certificate.to_json());
    stages.push(Stage { stage: "solve: serialise the certificate", seconds });
    drop(certificate_json);

    let request = gamecert_certificates::verify::Request {
        instance: &instance_path,
        certificate: &certificate_path,
        json: false,
        max_work: None,
        read: gamecert_certificates::verify::read_file,
        open: gamecert_certificates::verify::open_file,
        command: "verify",
        started: Some(Instant::now()),
    };
    let (outcome, seconds) = timed(|| gamecert_certificates::verify::run(&request));
    if outcome.code != 0 {
        bail!("verify rejected the certificate: {}{}", outcome.stdout, outcome.stderr);
    }
    stages.push(Stage { stage: "verify: the checker's pipeline on the files, whole", seconds });
    // Its stages, as `verify::run` takes them.
    let (text, seconds) = timed(|| std::fs::read_to_string(&instance_path));
    let text = text?;
    stages.push(Stage { stage: "verify: read the instance file", seconds });
    let (read, seconds) = timed(|| read_instance_json(&text));
    let ReadInstance::OneRound(file) = read? else { bail!("not read as a one-round instance") };
    drop(text);
    stages.push(Stage { stage: "verify: parse the instance (compact)", seconds });
    let stored = instance_json_bytes.saturating_add(certificate_json_bytes);
    let mut budget = Limits::for_input(stored).budget();
    let (game, seconds) = timed(|| file.validate_within(&mut budget));
    let game = game?;
    drop(file);
    stages.push(Stage { stage: "verify: validate the instance (build the graph)", seconds });
    let (certificate, seconds) = timed(|| -> anyhow::Result<Certificate> {
        Ok(Certificate::from_json(&std::fs::read_to_string(&certificate_path)?)?)
    });
    let certificate = certificate?;
    stages.push(Stage { stage: "verify: read and parse the certificate", seconds });
    let (verdict, seconds) = timed(|| check_one_round_with(&game, &certificate, &mut budget));
    if !verdict.accepted() {
        bail!("verify rejected the certificate: {}", verdict.reason);
    }
    stages.push(Stage { stage: "verify: check the certificate", seconds });
    Ok(LinearReport {
        seed,
        original_vars: cnf.num_vars,
        original_clauses: cnf.clauses.len(),
        normalised_vars,
        normalised_clauses,
        vertices,
        edges,
        instance_json_bytes,
        certificate: solved.certificate.kind().to_string(),
        certificate_json_bytes,
        verify_over_solve_wall: verify.wall_seconds / solve.wall_seconds,
        verify_over_solve_cpu: verify.cpu_seconds / solve.cpu_seconds,
        reduce: reduce_process,
        solve,
        verify,
        stages,
    })
}

/// The `linear` report as Markdown.
pub fn linear_table(report: &LinearReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "| quantity | value |\n|---|---:|");
    let sizes: [(&str, String); 10] = [
        ("seed", report.seed.to_string()),
        ("original variables", report.original_vars.to_string()),
        ("original clauses", report.original_clauses.to_string()),
        ("normalised variables", report.normalised_vars.to_string()),
        ("normalised clauses", report.normalised_clauses.to_string()),
        ("vertices", report.vertices.to_string()),
        ("edges", report.edges.to_string()),
        ("instance JSON bytes", report.instance_json_bytes.to_string()),
        (
            "certificate",
            format!("{} ({} JSON bytes)", report.certificate, report.certificate_json_bytes),
        ),
        (
            "verify / solve, whole processes",
            format!(
                "{:.2} wall ({:.2} s / {:.2} s), {:.2} CPU ({:.2} s / {:.2} s)",
                report.verify_over_solve_wall,
                report.verify.wall_seconds,
                report.solve.wall_seconds,
                report.verify_over_solve_cpu,
                report.verify.cpu_seconds,
                report.solve.cpu_seconds
            ),
        ),
    ];
    for (name, value) in sizes {
        let _ = writeln!(out, "| {name} | {value} |");
    }
    let _ = writeln!(
        out,
        "\n| process (on the files) | wall s | CPU s | peak resident MB |\n|---|---:|---:|---:|"
    );
    let processes = [
        ("gamecert reduce (writes the instance)", &report.reduce),
        ("gamecert solve", &report.solve),
        ("gamecert verify", &report.verify),
    ];
    for (name, cost) in processes {
        let _ = writeln!(
            out,
            "| {name} | {:.2} | {:.2} | {:.0} |",
            cost.wall_seconds,
            cost.cpu_seconds,
            cost.max_rss_bytes as f64 / 1e6
        );
    }
    let _ = writeln!(out, "\n| stage (in the bench's process) | seconds |\n|---|---:|");
    for stage in &report.stages {
        let _ = writeln!(out, "| {} | {:.3} |", stage.stage, stage.seconds);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// lrat
// ---------------------------------------------------------------------------------------------

/// One unsatisfiable formula of [`lrat`].
#[derive(Clone, Debug, Serialize)]
pub struct LratRow {
    pub instance: String,
    pub vars: u32,
    pub clauses: usize,
    /// Solving without proof logging.
    pub solve_seconds: f64,
    /// Solving with LRAT proof logging and translation.
    pub solve_proof_seconds: f64,
    pub lrat_bytes: usize,
    pub additions: u64,
    pub hints: u64,
    /// The trusted checker on the proof.
    pub check_seconds: f64,
    /// `check_seconds / solve_proof_seconds`.
    pub check_over_solve: f64,
    /// `gamecert lrat` on the files, as a process (best of 3): reading and checking.
    pub file_check_seconds: f64,
    /// drat-trim's `lrat-check` on the same files, as a process (best of 3), when installed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_check_seconds: Option<f64>,
    /// CakeML's `cake_lpr` on the same files, likewise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cake_lpr_seconds: Option<f64>,
}

/// Runs `program ARGS CNF LRAT` three times and returns the fastest wall time; an output
/// `verified` does not accept is an error.
fn time_checker(
    name: &str,
    program: &std::path::Path,
    args: &[&str],
    cnf_path: &std::path::Path,
    lrat_path: &std::path::Path,
    verified: &dyn Fn(&std::process::Output) -> bool,
) -> anyhow::Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..3 {
        let started = Instant::now();
        let out = Command::new(program).args(args).arg(cnf_path).arg(lrat_path).output()?;
        best = best.min(started.elapsed().as_secs_f64());
        if !verified(&out) {
            bail!("{name}: {} does not verify the proof", program.display());
        }
    }
    Ok(best)
}

/// An outside LRAT checker (`lrat-check`, `cake_lpr`) on the files, best of 3: `None` when
/// `program` is not on `PATH`; an error when it does not print the line `verified`.
fn outside(
    name: &str,
    program: &str,
    verified: &str,
    cnf_path: &std::path::Path,
    lrat_path: &std::path::Path,
) -> Option<anyhow::Result<f64>> {
    Command::new(program).output().is_ok().then(|| {
        time_checker(name, std::path::Path::new(program), &[], cnf_path, lrat_path, &|out| {
            String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == verified)
        })
    })
}

/// The checkers as processes on `cnf` and `lrat` written to temporary files, best of 3 each:
/// `gamecert lrat` (this executable), drat-trim's `lrat-check` and CakeML's verified
/// `cake_lpr` (each `None` when it is not installed). A proof one does not verify is an error.
fn process_checks(
    name: &str,
    cnf: &str,
    lrat: &str,
) -> anyhow::Result<(f64, Option<f64>, Option<f64>)> {
    let scratch = crate::cli::scratch_dir("bench-lrat")?;
    let dir = scratch.path();
    let (cnf_path, lrat_path) = (dir.join("f.cnf"), dir.join("f.lrat"));
    std::fs::write(&cnf_path, cnf)?;
    std::fs::write(&lrat_path, lrat)?;
    let ours =
        time_checker(name, &std::env::current_exe()?, &["lrat"], &cnf_path, &lrat_path, &|out| {
            out.status.success()
        });
    let lrat_check = outside(name, "lrat-check", "c VERIFIED", &cnf_path, &lrat_path);
    let cake_lpr = outside(name, "cake_lpr", "s VERIFIED UNSAT", &cnf_path, &lrat_path);
    Ok((ours?, lrat_check.transpose()?, cake_lpr.transpose()?))
}

/// Measures one unsatisfiable formula.
pub fn lrat_row(name: &str, cnf: &Cnf) -> anyhow::Result<LratRow> {
    let (plain, solve_plain) = best_of(|| sat_solve(cnf, false, Backend::default()));
    if !matches!(plain?, SatOutcome::Unsatisfiable { .. }) {
        bail!("{name} is satisfiable");
    }
    let (outcome, solve_proof) = best_of(|| sat_solve(cnf, true, Backend::default()));
    let SatOutcome::Unsatisfiable { lrat } = outcome? else {
        bail!("{name}: satisfiable with proof logging, unsatisfiable without");
    };
    let (report, check_seconds) = best_of(|| check_lrat(cnf, &lrat, &mut Budget::unlimited()));
    let report = report.map_err(|e| anyhow::anyhow!("{name}: proof rejected: {e}"))?;
    let (file_check_seconds, outside, cake) = process_checks(name, &cnf.to_dimacs(), &lrat)?;
    Ok(LratRow {
        instance: name.to_string(),
        vars: cnf.num_vars,
        clauses: cnf.clauses.len(),
        solve_seconds: solve_plain,
        solve_proof_seconds: solve_proof,
        lrat_bytes: lrat.len(),
        additions: report.additions,
        hints: report.hints,
        check_seconds,
        check_over_solve: check_seconds / solve_proof,
        file_check_seconds,
        lrat_check_seconds: outside,
        cake_lpr_seconds: cake,
    })
}

/// Unsatisfiable random 3-CNF at ratio 4.26, `per_size` of each size in `random_sizes` (the
/// first unsatisfiable ones among seeds 1..=60), then the pigeonhole formulas with `holes`
/// holes.
pub fn lrat(
    random_sizes: &[u32],
    per_size: usize,
    holes: &[u32],
    progress: Progress,
) -> anyhow::Result<Vec<LratRow>> {
    let mut rows = Vec::new();
    for &n in random_sizes {
        let m = (4.26 * f64::from(n)).round() as usize;
        let mut found = 0;
        for seed in 1..=60u64 {
            let cnf = random_k_cnf(n, m, 3, &mut Rng::new(seed * 1000 + u64::from(n)));
            if matches!(
                sat_solve(&cnf, false, Backend::default())?,
                SatOutcome::Unsatisfiable { .. }
            ) {
                progress(&format!("lrat: 3-CNF n={n} seed={seed}"));
                rows.push(lrat_row(&format!("3-CNF n={n} seed={seed}"), &cnf)?);
                found += 1;
                if found == per_size {
                    break;
                }
            }
        }
    }
    for &h in holes {
        progress(&format!("lrat: pigeonhole {h}"));
        rows.push(lrat_row(&format!("PHP {} pigeons {h} holes", h + 1), &pigeonhole(h))?);
    }
    Ok(rows)
}

/// The `lrat` rows as Markdown.
pub fn lrat_table(rows: &[LratRow]) -> String {
    let mut out = String::from(
        "| instance | vars | clauses | solve ms (no proof) | solve+proof ms | LRAT bytes \
         | check ms | check/solve | gamecert lrat ms | lrat-check ms | cake_lpr ms |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let shown =
            |ms: Option<f64>| ms.map_or("(absent)".to_string(), |s| format!("{:.3}", s * 1000.0));
        let (outside, cake) = (shown(r.lrat_check_seconds), shown(r.cake_lpr_seconds));
        let _ = writeln!(
            out,
            "| {} | {} | {} | {:.3} | {:.3} | {} | {:.3} | {:.2} | {:.3} | {outside} | {cake} |",
            r.instance,
            r.vars,
            r.clauses,
            r.solve_seconds * 1000.0,
            r.solve_proof_seconds * 1000.0,
            r.lrat_bytes,
            r.check_seconds * 1000.0,
            r.check_over_solve,
            r.file_check_seconds * 1000.0
        );
    }
    out
}

// ---------------------------------------------------------------------------------------------
// direct
// ---------------------------------------------------------------------------------------------

/// One solve of [`direct`]: a family member with one method.
#[derive(Clone, Debug, Serialize)]
pub struct DirectRow {
    pub family: &'static str,
    pub size: usize,
    /// `direct` or `reduction`.
    pub method: &'static str,
    pub vertices: usize,
    pub edges: usize,
    pub white: usize,
    pub black_count: usize,
    /// The formula the method solves (the direct encoding, or the reduction's formula).
    pub cnf_vars: u32,
    pub cnf_clauses: usize,
    /// `refuted`, `witness` (B wins: would be a bug in the family), `timeout` or `error: ...`.
    pub status: String,
    pub solve_seconds: Option<f64>,
    pub lrat_bytes: Option<usize>,
    pub check_seconds: Option<f64>,
    /// Wall time of the whole case (building the instance, solving, the self-check).
    pub wall_seconds: f64,
}

/// What one solve produced; sent back from the child process as JSON.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct CaseResult {
    status: String,
    solve_seconds: Option<f64>,
    lrat_bytes: Option<usize>,
    check_seconds: Option<f64>,
}

impl CaseResult {
    fn failed(status: String) -> CaseResult {
        CaseResult { status, solve_seconds: None, lrat_bytes: None, check_seconds: None }
    }
}

fn method_name(method: Method) -> &'static str {
    method.name()
}

/// Builds and solves one case (in whichever process or thread runs it).
fn run_case(family: Family, size: usize, method: Method) -> CaseResult {
    let instance = match family_instance(family, size) {
        Ok(instance) => instance,
        Err(e) => return CaseResult::failed(format!("error: {e}")),
    };
    match solve(&instance, method) {
        Ok(solved) => CaseResult {
            status: match solved.certificate {
                Certificate::Refutation(_) => "refuted".into(),
                Certificate::Witness(_) => "witness".into(),
                other => other.kind().into(),
            },
            solve_seconds: Some(solved.solve_seconds),
            lrat_bytes: Some(solved.lrat_bytes),
            check_seconds: Some(solved.check_seconds),
        },
        Err(e) => CaseResult::failed(format!("error: {e}")),
    }
}

/// The environment variable through which `gamecert bench direct` hands a child process the
/// one case to run (`family:size:method`).
pub const CASE_ENV: &str = "GAMECERT_BENCH_CASE";

/// Settings of [`direct`].
#[derive(Clone, Debug)]
pub struct DirectOptions {
    /// Give up on a case after this long, and stop its family.
    pub cap: Duration,
    /// Stop a family before an instance whose direct encoding has more clauses than this.
    pub max_clauses: usize,
    /// Stop a family before an instance with more vertices than this (families the encoding
    /// refutes without search would otherwise grow until building the instance takes a minute).
    pub max_vertices: usize,
    pub families: Vec<Family>,
}

fn run_capped(
    family: Family,
    size: usize,
    method: Method,
    options: &DirectOptions,
) -> anyhow::Result<(CaseResult, f64)> {
    let started = Instant::now();
    // Each case runs in a child `gamecert` process, killed at the cap.
    let result = {
        let exe = std::env::current_exe().context("locating the gamecert executable")?;
        let mut child = Command::new(exe)
            .args(["bench", "direct"])
            .env(CASE_ENV, format!("{}:{size}:{}", family.name(), method_name(method)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .context("starting a child gamecert")?;
        loop {
            if child.try_wait()?.is_some() {
                let output = child.wait_with_output()?;
                let text = String::from_utf8_lossy(&output.stdout);
                break match serde_json::from_str::<CaseResult>(text.trim()) {
                    Ok(result) => result,
                    Err(_) => CaseResult::failed(format!(
                        "error: the child exited with {} and printed {:?}",
                        output.status,
                        text.trim()
                    )),
                };
            }
            if started.elapsed() >= options.cap {
                child.kill()?;
                child.wait()?;
                break CaseResult::failed("timeout".into());
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    Ok((result, started.elapsed().as_secs_f64()))
}

/// The size after `size` in a family's growth: +1 up to 8, then about x1.25.
fn next_size(size: usize) -> usize {
    if size < 8 {
        size + 1
    } else {
        size + size.div_ceil(4)
    }
}

/// Grows each family until a direct solve fails, times out, the encoding passes `max_clauses`
/// or the instance `max_vertices`; sat-voronoi1 families are also solved by the reduction at every size tried.
pub fn direct(options: &DirectOptions, progress: Progress) -> anyhow::Result<Vec<DirectRow>> {
    let mut rows = Vec::new();
    for &family in &options.families {
        let mut size = family.first_size();
        loop {
            let instance = family_instance(family, size)?;
            let spec = instance
                .one_round()
                .context("the direct benchmark's instances are one-round games")?;
            let game = spec.validate()?;
            if game.graph.len() > options.max_vertices {
                progress(&format!(
                    "direct: {} size {size}: {} vertices, past the cap of {}, stopping",
                    family.name(),
                    game.graph.len(),
                    options.max_vertices
                ));
                break;
            }
            // The encoding's exact size, counted without building it.
            let counted =
                layout(&game.graph, &game.white, game.black_count, &mut Budget::unlimited())
                    .map_err(anyhow::Error::msg)?
                    .size();
            let enc_vars = u32::try_from(counted.variables).unwrap_or(u32::MAX);
            let enc_clauses = usize::try_from(counted.clauses).unwrap_or(usize::MAX);
            if enc_clauses > options.max_clauses {
                progress(&format!(
                    "direct: {} size {size}: encoding has {enc_clauses} clauses, stopping",
                    family.name()
                ));
                break;
            }
            let mut methods = vec![Method::Direct];
            if family.reduced() {
                methods.push(Method::Reduction);
            }
            let mut stop = false;
            for method in methods {
                let (cnf_vars, cnf_clauses) = match (&spec.source, method) {
                    (Some(source), Method::Reduction) => {
                        (source.formula.num_vars, source.formula.clauses.len())
                    }
                    _ => (enc_vars, enc_clauses),
                };
                let (result, wall) = run_capped(family, size, method, options)?;
                progress(&format!(
                    "direct: {} size {size} {}: {} in {wall:.2} s",
                    family.name(),
                    method_name(method),
                    result.status
                ));
                if method == Method::Direct && result.status != "refuted" {
                    stop = true;
                }
                rows.push(DirectRow {
                    family: family.name(),
                    size,
                    method: method_name(method),
                    vertices: game.graph.len(),
                    edges: game.graph.edge_count(),
                    white: game.white.len(),
                    black_count: game.black_count,
                    cnf_vars,
                    cnf_clauses,
                    status: result.status,
                    solve_seconds: result.solve_seconds,
                    lrat_bytes: result.lrat_bytes,
                    check_seconds: result.check_seconds,
                    wall_seconds: wall,
                });
            }
            if stop {
                break;
            }
            size = next_size(size);
        }
    }
    Ok(rows)
}

/// The `direct` rows as Markdown.
pub fn direct_table(rows: &[DirectRow]) -> String {
    let mut out = String::from(
        "| family | size | method | vertices | edges | W | B places | CNF vars | CNF clauses \
         | result | solve s | LRAT bytes | check s |\n\
         |---|---:|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|\n",
    );
    let opt_s = |x: Option<f64>| x.map_or("-".to_string(), |s| format!("{s:.3}"));
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.family,
            r.size,
            r.method,
            r.vertices,
            r.edges,
            r.white,
            r.black_count,
            r.cnf_vars,
            r.cnf_clauses,
            r.status,
            opt_s(r.solve_seconds),
            r.lrat_bytes.map_or("-".to_string(), |b| b.to_string()),
            opt_s(r.check_seconds),
        );
    }
    out
}

/// Runs the one case named in [`CASE_ENV`] and prints its result as JSON (the child side of
/// the child process of each case).
fn run_child_case(spec: &str) -> anyhow::Result<()> {
    let parts: Vec<&str> = spec.split(':').collect();
    let [family, size, method] = parts[..] else {
        bail!("{CASE_ENV}: expected family:size:method, got '{spec}'");
    };
    let family =
        Family::from_name(family).with_context(|| format!("{CASE_ENV}: unknown family"))?;
    let size: usize = size.parse().with_context(|| format!("{CASE_ENV}: bad size"))?;
    let method = match method {
        "direct" => Method::Direct,
        "reduction" => Method::Reduction,
        other => bail!("{CASE_ENV}: unknown method '{other}'"),
    };
    println!("{}", serde_json::to_string(&run_case(family, size, method))?);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// the command
// ---------------------------------------------------------------------------------------------

/// `gamecert bench NAME [--json] [--quick]`: runs one benchmark and prints its table (or JSON)
/// on standard output; progress notes go to standard error unless `quiet`.
pub fn run(
    name: BenchName,
    json: bool,
    quick: bool,
    examples: Option<&std::path::Path>,
    quiet: bool,
) -> anyhow::Result<()> {
    let note = |text: &str| {
        if !quiet {
            eprintln!("{text}");
        }
    };
    let started = Instant::now();
    let print = |value: serde_json::Value, table: String| -> anyhow::Result<()> {
        if json {
            let command = crate::cli::command_name(&["bench"], Some(&name));
            let fields = serde_json::json!({ "rows": value });
            crate::cli::print_json(
                &command,
                "measured",
                &format!("{command}: measurements"),
                started,
                fields,
            )?;
        } else {
            print!("{table}");
        }
        Ok(())
    };
    match name {
        BenchName::Linear => {
            let num_vars = if quick { 10_000 } else { 100_000 };
            let report = linear(num_vars, LINEAR_SEED, &note)?;
            print(serde_json::to_value(&report)?, linear_table(&report))
        }
        BenchName::Lrat => {
            let (sizes, holes): (&[u32], &[u32]) = if quick {
                (&[20, 30, 40], &[5, 6, 7])
            } else {
                (&[20, 30, 40, 50, 60], &[5, 6, 7, 8])
            };
            let rows = lrat(sizes, 3, holes, &note)?;
            // CaDiCaL's pigeonhole proofs with RAT steps: 11 pigeons give one of hundreds of MB.
            let rat_holes: &[u32] = if quick { &[8] } else { &[8, 9, 10] };
            let files = lrat_files::proof_files(rat_holes, examples, &note)?;
            let table = format!(
                "{}\nAs files, side by side (best of 3 each):\n\n{}",
                lrat_table(&rows),
                lrat_files::proof_files_table(&files)
            );
            print(serde_json::json!({ "formulas": rows, "proof_files": files }), table)
        }
        BenchName::Flipping => {
            let report = crate::cli::bench::flipping::flipping(quick, &note)?;
            print(
                serde_json::to_value(&report)?,
                crate::cli::bench::flipping::flipping_table(&report),
            )
        }
        BenchName::Vertexnim => {
            let rows = crate::cli::bench::vertexnim::vertexnim(quick, &note)?;
            print(
                serde_json::to_value(&rows)?,
                crate::cli::bench::vertexnim::vertexnim_table(&rows),
            )
        }
        BenchName::Census => {
            let rows = crate::cli::bench::census::census_bench(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::census::census_table(&rows))
        }
        BenchName::ConvexHeaps => {
            let rows = crate::cli::bench::convex::convex_heaps(quick, &note)?;
            print(
                serde_json::to_value(&rows)?,
                crate::cli::bench::convex::convex_heaps_table(&rows),
            )
        }
        BenchName::MarkingReach => {
            let rows =
                crate::cli::bench::convex::marking_reach(if quick { 10.0 } else { 60.0 }, &note)?;
            print(
                serde_json::to_value(&rows)?,
                crate::cli::bench::convex::marking_reach_table(&rows),
            )
        }
        BenchName::Exact => {
            let rows = crate::cli::bench::games::exact(if quick { 3 } else { 4 }, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::games::exact_table(&rows))
        }
        BenchName::Posdnf => {
            let report = crate::cli::bench::games::figure4(&note)?;
            print(serde_json::to_value(&report)?, crate::cli::bench::games::figure4_table(&report))
        }
        BenchName::Octal => {
            let rows = crate::cli::bench::octal::octal(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::octal::octal_table(&rows))
        }
        BenchName::Triangle => {
            let rows = crate::cli::bench::triangle::triangle(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::triangle::triangle_table(&rows))
        }
        BenchName::Scale => {
            let report = crate::cli::bench::scale::scale(quick, &note)?;
            print(serde_json::to_value(&report)?, crate::cli::bench::scale::scale_table(&report))
        }
        BenchName::Wasm => {
            let report = crate::cli::bench::wasm::wasm(quick, &note)?;
            print(serde_json::to_value(&report)?, crate::cli::bench::wasm::wasm_table(&report))
        }
        BenchName::Prove => {
            let report = crate::cli::bench::prove::prove_bench(quick, &note)?;
            print(serde_json::to_value(&report)?, crate::cli::bench::prove::prove_table(&report))
        }
        BenchName::Canon => {
            let rows = crate::cli::bench::triangle::canon(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::triangle::canon_table(&rows))
        }
        BenchName::Nim => {
            let (count, rounds) = if quick { (100_000, 5) } else { (1_000_000, 10) };
            let rows = crate::cli::bench::nim::nim_bench(count, rounds, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::nim::nim_table(&rows))
        }
        BenchName::Kary => {
            let rows = crate::cli::bench::games::kary(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::games::kary_table(&rows))
        }
        BenchName::Paths => {
            let (max, cap) = if quick { (16, 10.0) } else { (200, 600.0) };
            let rows = crate::cli::bench::games::paths(max, cap, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::games::paths_table(&rows))
        }
        BenchName::PathRule => {
            let rows = crate::cli::bench::games::path_rule(quick, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::games::path_rule_table(&rows))
        }
        BenchName::Construct => crate::cli::bench::construct::run(60.0, json, quiet),
        BenchName::Sat => {
            let (sizes, holes): (&[u32], u32) =
                if quick { (&[50, 75, 100], 6) } else { (&[150, 175, 200, 225, 250, 275, 300], 8) };
            let env_sizes: Option<Vec<u32>> = std::env::var("GAMECERT_BENCH_SAT_SIZES")
                .ok()
                .map(|v| v.split(',').map(str::parse).collect())
                .transpose()
                .context("GAMECERT_BENCH_SAT_SIZES: comma-separated variable counts")?;
            let backends: Vec<Backend> = match std::env::var("GAMECERT_BENCH_SAT_BACKENDS") {
                Ok(v) => v
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|e: String| anyhow::anyhow!("GAMECERT_BENCH_SAT_BACKENDS: {e}"))?,
                Err(_) => Backend::ALL.to_vec(),
            };
            let sizes = env_sizes.as_deref().unwrap_or(sizes);
            let rows = crate::cli::bench::sat::sat_bench(sizes, holes, &backends, &note)?;
            print(serde_json::to_value(&rows)?, crate::cli::bench::sat::sat_table(&rows))
        }
        BenchName::Direct => {
            if let Ok(spec) = std::env::var(CASE_ENV) {
                return run_child_case(&spec);
            }
            let options = DirectOptions {
                cap: Duration::from_secs(if quick { 10 } else { 60 }),
                max_clauses: 20_000_000,
                max_vertices: if quick { 10_000 } else { 100_000 },
                families: Family::ALL.to_vec(),
            };
            note(&format!("direct: time cap {} s per case", options.cap.as_secs()));
            let rows = direct(&options, &note)?;
            print(serde_json::to_value(&rows)?, direct_table(&rows))
        }
    }
}

/// Run one benchmark of the solvers and the checker, named below, and print its table.
#[derive(clap::Args)]
pub struct Args {
    /// Which benchmark (each is described under `--help`).
    #[arg(value_enum)]
    name: BenchName,
    /// Print the rows as JSON.
    #[arg(long)]
    json: bool,
    /// Smaller sizes and a 10 s time cap.
    #[arg(long)]
    quick: bool,
    /// construct: the time limit per game and size, in seconds (0.1 to 3600).
    #[arg(long, default_value_t = 60.0, value_parser = crate::cli::args::ranged::<f64>(0.1, 3600.0))]
    seconds: f64,
    /// lrat: also check every NAME.cnf beside a NAME.lrat in this folder (drat-trim's
    /// examples/), beside lrat-check and cake_lpr.
    #[arg(long, value_name = "DIR")]
    examples: Option<std::path::PathBuf>,
    #[command(flatten)]
    time: crate::cli::args::MaxMinutes,
}

/// What `bench construct --seconds S` takes: its six games each grow n until one solve passes
/// S, so each takes about twice S (the sizes before it cost a geometric series) and the whole
/// about 12 S, holding up to 1.2 GB (measured with S = 3600, stopped at 120 s).
fn construct_cost(seconds: f64) -> gamecert::base::limits::Cost {
    gamecert::base::limits::Cost { seconds: 12.0 * seconds + 1.0, bytes: 1_200_000_000 }
}

/// `gamecert bench NAME`.
pub fn command(args: Args, quiet: bool) -> anyhow::Result<std::process::ExitCode> {
    let Args { name, json, quick, seconds, examples, time } = args;
    if examples.is_some() && name != BenchName::Lrat {
        anyhow::bail!("--examples is for `bench lrat` only");
    }
    match name {
        BenchName::Construct => {
            time.allowance().admit(&crate::cli::command_line(), construct_cost(seconds))?;
            crate::cli::bench::construct::run(seconds, json, quiet)?;
            Ok(std::process::ExitCode::SUCCESS)
        }
        name => {
            crate::cli::bench::run(name, json, quick, examples.as_deref(), quiet)?;
            Ok(std::process::ExitCode::SUCCESS)
        }
    }
}

pub mod census;
pub mod construct;
pub mod convex;
pub mod flipping;
pub mod games;
pub mod lrat_files;
pub mod nim;
pub mod octal;
pub mod prove;
pub mod sat;
pub mod scale;
pub mod triangle;
pub mod vertexnim;
pub mod wasm;

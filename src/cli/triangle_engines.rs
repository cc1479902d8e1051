//! `table triangle-avoidance`'s engines: the in-memory solver
//! ([`gamecert::triangle_avoidance::solver`]), the out-of-core engine (level files on disk,
//! [`gamecert::triangle_avoidance::external`]) and the timely engine (threads, processes,
//! hosts, [`gamecert::triangle_avoidance::distributed`]); the automatic choice between the first
//! two ([`auto_engine`]), and the certificate of the out-of-core rows; `table.rs` prints the
//! rows, which name their engine.

use gamecert::base::io::BadInput;
use gamecert::triangle_avoidance::rules::Rules;
use gamecert::triangle_avoidance::solver::{Outcome, MAX_CERTIFIED_N, MAX_STREAM_TABLE_N};
use std::path::{Path, PathBuf};

/// `--engine`: which engine solves each n of `table triangle-avoidance`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Per n, the faster of the other two for that size and this machine (measured here).
    Auto,
    /// Every position and arc in memory (about 145 bytes a position).
    InMemory,
    /// Sorted level files on disk (a temporary folder unless --out-of-core DIR).
    OutOfCore,
}

/// Bytes a position takes in the in-memory solver (measured at n = 13).
const IN_MEMORY_BYTES_PER_POSITION: u64 = 145;

/// The memory this machine has free (Linux: `MemAvailable`; elsewhere 16 GB is assumed).
fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
        })
        .unwrap_or(16_000_000_000)
}

/// The engine `--engine auto` picks for n. The out-of-core engine's forward filter (triangle
/// and odd-cycle avoidance) makes it the faster from n = 11 on (table to n = 12: 18.2 s
/// against 30.8 s in memory, side by side; docs/benchmarks.md) while its files cost more than
/// they save below (n = 8: 0.06 s against under 0.01 s). The other games have no filter: they
/// stay in memory unless their positions would not fit in half the memory free. Both engines
/// use every core through rayon; timely is chosen only by --workers (on one machine it is the
/// slower of the three).
pub fn auto_engine(n: usize, rules: Rules, memory_free: u64) -> Engine {
    let known = gamecert::triangle_avoidance::external::known_positions(n, rules);
    let in_memory_bytes = known.map(|t| t.saturating_mul(IN_MEMORY_BYTES_PER_POSITION));
    let fits = in_memory_bytes.is_none_or(|bytes| bytes <= memory_free / 2);
    match (rules.is_hereditary(), n) {
        (true, n) if n >= 11 => Engine::OutOfCore,
        _ if fits => Engine::InMemory,
        _ => Engine::OutOfCore,
    }
}

/// Where `table triangle-avoidance` keeps its state and how it may use memory.
pub struct Storage {
    /// --checkpoint DIR (in-memory engine).
    pub checkpoint: Option<PathBuf>,
    /// --out-of-core DIR (level files kept there; a temporary folder otherwise).
    pub out_of_core: Option<PathBuf>,
    /// --memory GB for the out-of-core engine (default: 8, or half the memory free if less).
    pub memory_gb: Option<f64>,
}

/// `table triangle-avoidance` on one machine: every n in 2..=max_n by the engine `engine`
/// names (per n under `auto`). Triangle avoidance with n <= [`MAX_CERTIFIED_N`] is certified
/// whichever engine runs: the in-memory engine replays a `triangle-strategy`, the out-of-core
/// engine a `triangle-stream` written from its level files, the same strategy either way; the
/// out-of-core engine certifies up to [`MAX_STREAM_TABLE_N`].
pub fn engine_rows(
    max_n: usize,
    rules: Rules,
    engine: Engine,
    storage: Storage,
    quiet: bool,
) -> anyhow::Result<Vec<Outcome>> {
    let free = available_memory();
    let engines: Vec<Engine> = (2..=max_n)
        .map(|n| match engine {
            Engine::Auto => auto_engine(n, rules, free),
            chosen => chosen,
        })
        .collect();
    let limit = if engines.contains(&Engine::OutOfCore) && storage.out_of_core.is_some() {
        gamecert::triangle_avoidance::canon::MAX_VERTICES
    } else {
        gamecert::triangle_avoidance::solver::MAX_N
    };
    if !(2..=limit).contains(&max_n) {
        return Err(BadInput(format!(
            "--max-n must be between 2 and {limit} (got {max_n}): n = 13 takes minutes and 3 GB \
             in memory; n = 14 has 467,871,369 positions (--out-of-core DIR takes it to disk)"
        ))
        .into());
    }
    // --memory is in 0.01..=4096 (its parser, `crate::cli::args::memory_gb`).
    let memory_gb = storage.memory_gb.unwrap_or_else(|| (free as f64 / 2e9).clamp(0.5, 8.0));
    if let Some(dir) = &storage.checkpoint {
        std::fs::create_dir_all(dir)
            .map_err(|e| BadInput(format!("--checkpoint {}: {e}", dir.display())))?;
    }
    let (mut scratch, mut disk_stated) = (None, false);
    let mut rows = Vec::new();
    for (n, engine) in (2..=max_n).zip(engines) {
        let row = if engine == Engine::OutOfCore {
            let dir = match &storage.out_of_core {
                Some(dir) => dir.clone(),
                None => match &scratch {
                    Some(dir) => tempfile::TempDir::path(dir).to_path_buf(),
                    None => scratch.insert(crate::cli::scratch_dir("table")?).path().to_path_buf(),
                },
            };
            if !std::mem::replace(&mut disk_stated, true) {
                // The disk need is stated even under -q, before anything is written.
                let estimate =
                    gamecert::triangle_avoidance::external::disk_estimate(max_n, rules, &dir);
                eprintln!("{estimate}");
            }
            let budget = gamecert::triangle_avoidance::external::Budget {
                memory: (memory_gb * 1e9) as u64,
                dir,
            };
            out_of_core_row(n, rules, &budget, quiet)?
        } else {
            in_memory_row(n, rules, storage.checkpoint.as_deref(), quiet)?
        };
        rows.push(row);
    }
    Ok(rows)
}

/// One n by the in-memory solver, with a bar over its positions (t_n, where known).
fn in_memory_row(
    n: usize,
    rules: Rules,
    checkpoint: Option<&Path>,
    quiet: bool,
) -> anyhow::Result<Outcome> {
    let total = gamecert::triangle_avoidance::external::known_positions(n, rules);
    let mut bar = crate::cli::progress::Progress::new(&format!("n = {n} positions"), total, quiet);
    let file = checkpoint.map(|dir| dir.join(format!("{}-n{n}.ckpt", rules.name())));
    let mut done = 0u64;
    let row = gamecert::triangle_avoidance::solver::solve_resumable(
        n,
        rules,
        file.as_deref(),
        &mut |level, count| {
            bar.set(done);
            bar.message(&format!("expanding level {level}, {count} positions"));
            done += count as u64;
        },
    )
    .map_err(BadInput)?;
    bar.finish();
    Ok(row)
}

/// One n by the out-of-core solver (its state under `budget`), certified as
/// [`engine_rows`] says.
fn out_of_core_row(
    n: usize,
    rules: Rules,
    budget: &gamecert::triangle_avoidance::external::Budget,
    quiet: bool,
) -> anyhow::Result<Outcome> {
    use gamecert::triangle_avoidance::{external, stream_certificate};
    let started = std::time::Instant::now();
    let mut bar = steps_bar(n, rules, "", quiet);
    let found = external::solve(n, rules, budget, &mut |done, what| {
        bar.set(done);
        bar.message(what);
    })
    .map_err(BadInput)?;
    bar.finish();
    let mut row = found.counts.outcome(n, rules, "out-of-core", 0.0);
    if rules == Rules::TriangleAvoidance && n <= MAX_STREAM_TABLE_N {
        let out = budget.dir.join(format!("certificate-n{n}.tastream"));
        let mut bar = crate::cli::progress::Progress::new(
            &format!("n = {n} strategy positions written"),
            None,
            quiet,
        );
        let written = stream_certificate::write(n, budget, &out, &mut |done, what| {
            bar.set(done);
            bar.message(what);
        })
        .map_err(anyhow::Error::msg)?;
        bar.finish();
        let file = std::fs::File::open(&out)?;
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        let checked = gamecert_certificates::triangle_avoidance::stream::check_triangle_stream(
            n,
            &mut reader,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        );
        let _ = std::fs::remove_file(&out);
        let (_, report) = checked.map_err(|why| {
            anyhow::anyhow!("internal error: the checker rejected the n = {n} strategy: {why}")
        })?;
        anyhow::ensure!(
            report.positions == written.level_sizes.iter().sum::<u64>(),
            "internal error: the n = {n} certificate lists other positions than were written"
        );
        row.certified = Some(report.positions);
    }
    row.seconds = started.elapsed().as_secs_f64();
    Ok(row)
}

/// Both engines' display for one n: a bar (or status lines) over 2 t_n steps, each position
/// expanded and then labelled, with a total and an ETA where t_n is known.
fn steps_bar(n: usize, rules: Rules, note: &str, quiet: bool) -> crate::cli::progress::Progress {
    let total = gamecert::triangle_avoidance::external::known_positions(n, rules).map(|t| 2 * t);
    crate::cli::progress::Progress::new(&format!("n = {n} steps{note}"), total, quiet)
}

/// While alive, whatever is written to file descriptor 1 goes to standard error (Unix; a no-op
/// elsewhere); dropping it puts standard output back.
struct StdoutToStderr {
    #[cfg(unix)]
    saved: Option<i32>,
}

impl StdoutToStderr {
    fn new() -> StdoutToStderr {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        {
            // SAFETY: dup and dup2 on the process's own standard descriptors; a failure leaves
            // standard output as it was (saved is then None).
            let saved = unsafe {
                let saved = libc::dup(1);
                (saved >= 0 && libc::dup2(2, 1) >= 0).then_some(saved)
            };
            StdoutToStderr { saved }
        }
        #[cfg(not(unix))]
        StdoutToStderr {}
    }
}

impl Drop for StdoutToStderr {
    fn drop(&mut self) {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        if let Some(saved) = self.saved.take() {
            // SAFETY: `saved` is the descriptor dup'ed from standard output in `new`.
            unsafe {
                libc::dup2(saved, 1);
                libc::close(saved);
            }
        }
    }
}

/// Where the timely workers run.
pub struct Cluster {
    pub workers: Option<usize>,
    pub processes: Option<usize>,
    pub process: Option<usize>,
    pub hostfile: Option<PathBuf>,
    /// --shards DIR: where every worker writes its shard of the certificate, and where
    /// process 0 merges them (so a folder every process can write and process 0 read).
    pub shards: Option<PathBuf>,
}

/// `table triangle-avoidance --workers W [--processes P --process I [--hostfile F]]`: every n
/// in 2..=max_n on timely ([`gamecert::triangle_avoidance::distributed`]); `None` in a process
/// other than 0.
pub fn distributed_rows(
    max_n: usize,
    rules: Rules,
    cluster: Cluster,
    allowance: gamecert::base::limits::TimeAllowance,
    quiet: bool,
) -> anyhow::Result<Option<Vec<Outcome>>> {
    use gamecert::triangle_avoidance::external::known_positions;
    let limit = gamecert::triangle_avoidance::canon::MAX_VERTICES;
    if !(2..=limit).contains(&max_n) {
        return Err(BadInput(format!(
            "--max-n must be between 2 and {limit} with timely (got {max_n})"
        ))
        .into());
    }
    let workers = cluster.workers.unwrap_or(1);
    let processes = cluster.processes.unwrap_or(1);
    let process = cluster.process.unwrap_or(0);
    // Each in its range (`crate::cli::table`'s parsers); --process also below --processes.
    if process >= processes {
        return Err(BadInput(format!(
            "--process {process} is not below --processes {processes} (processes are numbered \
             from 0)"
        ))
        .into());
    }
    // Shards live in memory: every level's codes (16 bytes a position), the children received
    // for the level being built and one backward round's messages. Measured with two workers
    // (2026-11-25): triangle avoidance 23 bytes a position at n = 13 (488 MB resident) and 33
    // at n = 12 (42 MB); connected avoidance, whose backward pass joins requests with labels,
    // 117 at n = 12 (147 MB). Hence 32 for the hereditary games and 120 for the others.
    // A position's index within its shard of a level is a u32.
    if let Some(t) = known_positions(max_n, rules) {
        let all = (workers * processes) as f64;
        let per_position = if rules.is_hereditary() { 32.0 } else { 120.0 };
        let bytes = per_position * t as f64;
        if max_n >= 13 {
            eprintln!(
                "timely: n = {max_n} has {t} positions; shards in memory take about {:.1} GB per \
                 worker ({} workers in all)",
                bytes / all / 1e9,
                workers * processes
            );
        }
        if 0.16 * t as f64 / all > f64::from(u32::MAX) {
            return Err(BadInput(format!(
                "n = {max_n} needs more workers: a shard of its largest level would pass 2^32 \
                 positions with {} workers",
                workers * processes
            ))
            .into());
        }
    }
    let mut args = vec![
        "-w".to_string(),
        workers.to_string(),
        "-n".into(),
        processes.to_string(),
        "-p".into(),
        process.to_string(),
    ];
    if let Some(file) = &cluster.hostfile {
        args.extend(["-h".into(), file.display().to_string()]);
    }
    let config = timely::Config::from_args(args.into_iter()).map_err(BadInput)?;
    if processes > 1 {
        // A process waits for its peers as long as they take to start: the run, waiting
        // included, is bounded by the time allowance (its estimate assumed every peer).
        let minutes = allowance.minutes;
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs_f64(minutes * 60.0));
            eprintln!(
                "error: the run passed the {minutes} minutes it was allowed (--max-minutes) with \
                 {processes} processes: were the others started (each with its own --process)?"
            );
            std::process::exit(2);
        });
    }
    // Timely's networking prints its connection attempts on standard output, which carries
    // only results here: they go to standard error while the processes connect and run.
    let redirect = StdoutToStderr::new();
    // Progress, in the process that hosts worker 0: a bar (or status lines) per n over its
    // 2 t_n steps, estimated from worker 0's share (distributed.rs, `Steps`).
    type Bar = Option<(usize, crate::cli::progress::Progress)>;
    let bars: std::sync::Arc<std::sync::Mutex<Bar>> = Default::default();
    let report = {
        let bars = bars.clone();
        std::sync::Arc::new(move |n: usize, done: u64| {
            let mut slot = bars.lock().unwrap_or_else(|e| e.into_inner());
            if slot.as_ref().map(|(m, _)| *m) != Some(n) {
                if let Some((_, mut old)) = slot.take() {
                    old.finish();
                }
                *slot = Some((n, steps_bar(n, rules, " (estimated from worker 0)", quiet)));
            }
            if let Some((_, bar)) = slot.as_ref() {
                bar.set(done);
            }
        })
    };
    // Triangle avoidance is certified from the workers' shards: under --shards DIR (kept,
    // with the merged certificates), or in one process without it, for n <= MAX_CERTIFIED_N,
    // under a temporary folder.
    let mut scratch = None;
    let shards = match (&cluster.shards, rules == Rules::TriangleAvoidance) {
        (Some(dir), true) => Some(dir.clone()),
        (None, true) if processes == 1 && max_n <= MAX_CERTIFIED_N => {
            Some(scratch.insert(crate::cli::scratch_dir("shards")?).path().to_path_buf())
        }
        (None, true) => {
            eprintln!(
                "timely: the rows are not certified (give --shards DIR, a folder every process \
                 can write and process 0 read, for the certificate)"
            );
            None
        }
        (Some(_), false) => {
            return Err(BadInput(format!(
                "--shards: only triangle avoidance has a stream certificate (not {})",
                rules.name()
            ))
            .into())
        }
        (None, false) => None,
    };
    let found = gamecert::triangle_avoidance::distributed::solve(
        config,
        2..=max_n,
        rules,
        shards.clone(),
        report,
    );
    if let Some((_, mut bar)) = bars.lock().unwrap_or_else(|e| e.into_inner()).take() {
        bar.finish();
    }
    drop(redirect);
    let Some(outcomes) = found.map_err(anyhow::Error::msg)? else {
        return Ok(None);
    };
    let mut rows = Vec::new();
    for (n, (outcome, seconds)) in (2..=max_n).zip(outcomes) {
        let mut row = outcome.outcome(n, rules, "timely", seconds);
        if let Some(dir) = &shards {
            let started = std::time::Instant::now();
            row.certified = merge_and_check(dir, n, &row.winner, quiet)?;
            row.seconds += started.elapsed().as_secs_f64();
        }
        rows.push(row);
    }
    drop(scratch);
    Ok(Some(rows))
}

/// Merges the timely workers' shards for `n` under `dir` into `dir/certificate-nN.tastream`
/// and checks it with the checker's `triangle-stream` check: the positions it replayed, or
/// `None` (said on standard error, the row then uncertified) when the shards cannot be merged
/// here, e.g. some were written on another host's disk. A certificate the checker rejects,
/// or one for another Winner than the row's, is an error.
fn merge_and_check(dir: &Path, n: usize, winner: &str, quiet: bool) -> anyhow::Result<Option<u64>> {
    use gamecert::triangle_avoidance::stream_certificate::merge_shards;
    let out = dir.join(format!("certificate-n{n}.tastream"));
    let mut bar = crate::cli::progress::Progress::new(
        &format!("n = {n}: merging the shards and checking the certificate"),
        None,
        quiet,
    );
    let merged = match merge_shards(dir, n, &out) {
        Ok(merged) => merged,
        Err(why) => {
            bar.finish();
            eprintln!(
                "n = {n} is not certified: its shards cannot be merged ({why}); --shards must \
                 name one folder that every process writes"
            );
            return Ok(None);
        }
    };
    let file = std::fs::File::open(&out)?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let checked = gamecert_certificates::triangle_avoidance::stream::check_triangle_stream(
        n,
        &mut reader,
        &mut gamecert_certificates::base::budget::Budget::unlimited(),
    );
    let (checked_winner, report) = checked.map_err(|why| {
        anyhow::anyhow!("the checker rejected the merged n = {n} certificate: {why}")
    })?;
    // The folder is the user's (--shards): files of another run there are theirs to hear about.
    anyhow::ensure!(
        checked_winner == winner,
        "{}: the merged n = {n} certificate is for {checked_winner} but this run's solver says \
         {winner}: the folder holds shards of another run",
        dir.display()
    );
    anyhow::ensure!(
        report.positions == merged.level_sizes.iter().sum::<u64>(),
        "{}: the n = {n} certificate lists other positions than were merged (a file changed \
         while it was read?)",
        dir.display()
    );
    bar.finish();
    Ok(Some(report.positions))
}

//! `table triangle-avoidance` past the in-memory solver: the out-of-core engine (level files
//! on disk, [`gamecert::triangle_avoidance::external`]) and the timely engine (threads,
//! processes, hosts, [`gamecert::triangle_avoidance::distributed`]); `table.rs` prints their
//! rows.

use gamecert::base::io::BadInput;
use gamecert::triangle_avoidance::rules::Rules;
use gamecert::triangle_avoidance::solver::Outcome;
use std::path::PathBuf;

/// `table triangle-avoidance --out-of-core DIR`: every n in 2..=max_n by the out-of-core
/// solver ([`gamecert::triangle_avoidance::external`]), its disk need stated first.
pub fn out_of_core_rows(
    max_n: usize,
    rules: Rules,
    dir: PathBuf,
    memory_gb: f64,
    quiet: bool,
) -> anyhow::Result<Vec<Outcome>> {
    use gamecert::triangle_avoidance::external;
    let limit = gamecert::triangle_avoidance::canon::MAX_VERTICES;
    if !(2..=limit).contains(&max_n) {
        return Err(BadInput(format!("--max-n must be between 2 and {limit} (got {max_n})")).into());
    }
    if !(0.01..=4096.0).contains(&memory_gb) {
        return Err(BadInput(format!(
            "--memory must be between 0.01 and 4096 GB (got {memory_gb})"
        ))
        .into());
    }
    let budget = external::Budget { memory: (memory_gb * 1e9) as u64, dir };
    eprintln!("{}", external::disk_estimate(max_n, rules, &budget.dir));
    let mut rows = Vec::new();
    for n in 2..=max_n {
        let started = std::time::Instant::now();
        let mut bar = steps_bar(n, rules, "", quiet);
        let found = external::solve(n, rules, &budget, &mut |done, what| {
            bar.set(done);
            bar.message(what);
        })
        .map_err(BadInput)?;
        bar.finish();
        rows.push(found.counts.outcome(n, rules, started.elapsed().as_secs_f64()));
    }
    Ok(rows)
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
}

/// `table triangle-avoidance --workers W [--processes P --process I [--hostfile F]]`: every n
/// in 2..=max_n on timely ([`gamecert::triangle_avoidance::distributed`]); `None` in a process
/// other than 0.
pub fn distributed_rows(
    max_n: usize,
    rules: Rules,
    cluster: Cluster,
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
    if !(1..=256).contains(&workers) || !(1..=4096).contains(&processes) || process >= processes {
        return Err(BadInput(format!(
            "--workers must be 1..=256 and --processes 1..=4096 with --process below it (got \
             {workers}, {processes}, {process})"
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
    let found = gamecert::triangle_avoidance::distributed::solve(config, 2..=max_n, rules, report);
    if let Some((_, mut bar)) = bars.lock().unwrap_or_else(|e| e.into_inner()).take() {
        bar.finish();
    }
    drop(redirect);
    let found = found.map_err(anyhow::Error::msg)?;
    Ok(found.map(|outcomes| {
        (2..=max_n)
            .zip(outcomes)
            .map(|(n, (outcome, seconds))| outcome.outcome(n, rules, seconds))
            .collect()
    }))
}

//! The parent side: makes the mutants, writes them in batches, runs each batch in a child
//! process (this test binary again) under an address-space limit and a clock, reads the
//! child's lines, names the culprit of a crash or a hang by re-running cases alone, writes
//! failing cases out and tallies the summary.

use super::child::{CaseInput, CaseResult, BATCH_ENV, PROBE_ENV};
use super::mutate::mutant;
use super::rng::Rng;
use super::seeds::{Seed, KINDS};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The name of the child entry test, run with `--exact`.
pub const CHILD_TEST: &str = "fuzz_checker::fuzz_child";

/// How a run is set up (see the module docs of `tests/fuzz_checker.rs` for the variables).
#[derive(Clone, Debug)]
pub struct Config {
    pub name: &'static str,
    pub mutants_per_kind: usize,
    pub batch: usize,
    pub jobs: usize,
    /// A case slower than this fails.
    pub case_bound: Duration,
    /// A case still running after this is killed (and fails).
    pub kill_after: Duration,
    /// The truth check of one accepted case is given up after this (a harness limit).
    pub truth_kill_after: Duration,
    /// The children's address-space limit (`ulimit -v`), in KiB.
    pub memory_kib: u64,
    pub run_seed: u64,
    pub kinds: Vec<&'static str>,
    pub findings: PathBuf,
    pub work: PathBuf,
    /// Appends one line per case (kind, case seed, outcome, time, reason, mutation) here.
    pub log: Option<PathBuf>,
    /// Lets `@@PROBE-...` instances misbehave in the child (the harness's own test).
    pub probes: bool,
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(v) => v.parse().unwrap_or_else(|_| panic!("{name}={v:?} does not parse")),
        Err(_) => default,
    }
}

impl Config {
    /// The configuration of a run, from the defaults and the `GAMECERT_FUZZ_*` variables.
    pub fn from_env(name: &'static str, mutants: usize, batch: usize, case_bound_s: u64) -> Config {
        let kinds: Vec<&'static str> = match std::env::var("GAMECERT_FUZZ_KINDS") {
            Ok(list) => {
                let wanted: Vec<String> = list.split(',').map(|s| s.trim().to_string()).collect();
                for w in &wanted {
                    assert!(KINDS.contains(&w.as_str()), "GAMECERT_FUZZ_KINDS: unknown kind {w}");
                }
                KINDS.iter().copied().filter(|k| wanted.iter().any(|w| w == k)).collect()
            }
            Err(_) => KINDS.to_vec(),
        };
        let case_bound =
            Duration::from_millis(env_or("GAMECERT_FUZZ_CASE_MS", case_bound_s * 1000));
        let run_seed = match std::env::var("GAMECERT_FUZZ_SEED") {
            Ok(s) => {
                let s = s.trim_start_matches("0x");
                u64::from_str_radix(s, 16).expect("GAMECERT_FUZZ_SEED is hexadecimal")
            }
            Err(_) => 0x6761_6d65_6365_7274, // "gamecert"
        };
        let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        Config {
            name,
            mutants_per_kind: env_or("GAMECERT_FUZZ_MUTANTS", mutants),
            batch: env_or("GAMECERT_FUZZ_BATCH", batch).max(1),
            jobs: env_or("GAMECERT_FUZZ_JOBS", 2usize).max(1),
            case_bound,
            kill_after: case_bound * 3,
            truth_kill_after: Duration::from_secs(120),
            memory_kib: env_or("GAMECERT_FUZZ_MEMORY_MIB", 4096u64) * 1024,
            run_seed,
            kinds,
            findings: std::env::var("GAMECERT_FUZZ_FINDINGS")
                .map(PathBuf::from)
                .unwrap_or_else(|_| manifest.join("fuzz-findings")),
            log: std::env::var("GAMECERT_FUZZ_LOG").ok().map(PathBuf::from),
            probes: false,
            work: std::env::temp_dir().join(format!(
                "gamecert-fuzz-{}-{}",
                name,
                std::process::id()
            )),
        }
    }
}

/// One generated case.
#[derive(Clone, Debug)]
pub struct Case {
    pub id: u64,
    pub kind: &'static str,
    pub seed_name: String,
    pub case_seed: u64,
    pub description: String,
    pub instance: String,
    pub certificate: String,
}

/// The tallies of one kind.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub mutants: u64,
    pub parsed: u64,
    pub accepted: u64,
    pub rejected: u64,
    pub bad_input: u64,
    pub max_ms: f64,
    pub total_ms: f64,
    pub verified: u64,
    pub skipped: u64,
    pub failures: u64,
    pub peak_rss_kib: u64,
    /// Mutants in the binary form (`GCVALUE1`), and those of them the decoder read.
    pub binary: u64,
    pub binary_parsed: u64,
}

/// A failing case.
#[derive(Clone, Debug)]
pub struct Failure {
    /// `panic`, `internal-error`, `slow`, `false-acceptance`, `crash`, `timeout`, `harness`.
    pub class: &'static str,
    pub kind: &'static str,
    pub case_seed: u64,
    pub seed_name: String,
    pub description: String,
    pub detail: String,
    pub ms: Option<f64>,
    /// Where the case was written.
    pub files: Option<PathBuf>,
}

impl Failure {
    /// What groups repeats of one bug: the class and the detail without its numbers (the
    /// same bug is usually reached from several kinds).
    pub fn signature(&self) -> String {
        let detail: String = self
            .detail
            .chars()
            .take(100)
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect();
        format!("{} {}", self.class, detail)
    }
}

/// Everything a run found.
#[derive(Default)]
pub struct Report {
    pub stats: BTreeMap<&'static str, Stats>,
    pub failures: Vec<Failure>,
    /// Distinct failure signatures: how often each was seen, and in which kinds.
    pub signatures: BTreeMap<String, (u64, BTreeSet<&'static str>)>,
    pub notes: Vec<String>,
    pub batches: u64,
    pub children: u64,
}

/// How a child ended.
#[derive(Debug)]
enum End {
    Done,
    /// The case `id` ran past its time (or its truth check past the harness limit).
    Killed {
        id: Option<u64>,
        truth: bool,
    },
    /// The process died (signal, abort, non-zero exit) while `id` was running.
    Died {
        id: Option<u64>,
        how: String,
    },
}

/// What one child run returned.
struct ChildRun {
    results: Vec<CaseResult>,
    end: End,
    peak_rss_kib: u64,
}

fn stderr_tail(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("running ") && !l.starts_with("test "))
        .collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    tail.chars().take(400).collect()
}

/// What the parent has read from a child so far.
#[derive(Default)]
struct Watch {
    results: Vec<CaseResult>,
    /// The case running, since when, and whether in its truth check.
    current: Option<(u64, Instant, bool)>,
    peak: u64,
    done: bool,
    panics: HashMap<u64, String>,
}

impl Watch {
    fn handle(&mut self, line: &str) {
        // libtest's `test fuzz_child ... ` has no newline: the first marker follows it.
        let Some(at) = line.find("@@FUZZ-") else {
            return;
        };
        let line = &line[at..];
        let id = |s: &str| s.trim().parse().unwrap_or(0);
        if let Some(rest) = line.strip_prefix("@@FUZZ-START ") {
            self.current = Some((id(rest), Instant::now(), false));
        } else if let Some(rest) = line.strip_prefix("@@FUZZ-TRUTH ") {
            self.current = Some((id(rest), Instant::now(), true));
        } else if let Some(rest) = line.strip_prefix("@@FUZZ-RESULT ") {
            let r: CaseResult = serde_json::from_str(rest).expect("the child prints valid results");
            self.results.push(r);
            self.current = None;
        } else if let Some(rest) = line.strip_prefix("@@FUZZ-PANIC ") {
            let mut parts = rest.splitn(3, ' ');
            let phase = parts.next().unwrap_or("");
            let case = parts.next().map_or(0, id);
            let msg = parts.next().unwrap_or("");
            self.panics.insert(case, format!("{phase}: {msg}"));
        } else if let Some(rest) = line.strip_prefix("@@FUZZ-DONE ") {
            self.peak = rest.split_whitespace().next().map_or(0, id);
            self.done = true;
        }
    }
}

/// Runs `cases` in one child process and watches it.
fn run_child(cfg: &Config, cases: &[Case], tag: &str) -> ChildRun {
    std::fs::create_dir_all(&cfg.work).expect("the work directory");
    let path = cfg.work.join(format!("batch-{tag}.jsonl"));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("a batch file"));
        for c in cases {
            let input = CaseInput {
                id: c.id,
                instance: c.instance.clone(),
                certificate: c.certificate.clone(),
            };
            serde_json::to_writer(&mut f, &input).expect("a case serialises");
            f.write_all(b"\n").expect("the batch file writes");
        }
    }
    let exe = std::env::current_exe().expect("the test binary");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} || exit 97; exec \"$0\" \"$@\"", cfg.memory_kib))
        .arg(&exe)
        .args(["--exact", CHILD_TEST, "--nocapture", "--include-ignored", "--test-threads=1"])
        .env(BATCH_ENV, &path)
        .envs(cfg.probes.then_some((PROBE_ENV, "1")))
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts the child");
    let stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let (tx, rx) = mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = stderr.read_to_end(&mut buf);
        buf
    });
    let mut watch = Watch::default();
    let mut killed: Option<(Option<u64>, bool)> = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(line) => watch.handle(&line),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if let Some((id, since, truth)) = watch.current {
            let limit = if truth { cfg.truth_kill_after } else { cfg.kill_after };
            if since.elapsed() > limit {
                let _ = child.kill();
                killed = Some((Some(id), truth));
                break;
            }
        }
        if let Ok(Some(_)) = child.try_wait() {
            // Drain what is left in the pipe, then stop.
            while let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                watch.handle(&line);
            }
            break;
        }
    }
    let Watch { mut results, current, peak, done, panics } = watch;
    let status = child.wait().expect("the child is reaped");
    let _ = reader.join();
    let err = err_reader.join().unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    // A panic the child caught is in its result; one it did not catch is a death.
    for r in &mut results {
        if r.outcome == "panic" {
            if let Some(p) = panics.get(&r.id) {
                r.reason = p.chars().take(300).collect();
            }
        }
    }
    let running = current.map(|(id, _, _)| id);
    let end = if let Some((id, truth)) = killed {
        End::Killed { id, truth }
    } else if done && status.success() {
        End::Done
    } else {
        let how = match (status.code(), status.signal()) {
            (Some(97), _) => format!("`ulimit -v {}` failed in sh", cfg.memory_kib),
            (Some(c), _) => format!("exit code {c}"),
            (None, Some(s)) => format!(
                "killed by signal {s}{}",
                match s {
                    6 => " (SIGABRT: abort, e.g. an allocation failure under the memory limit or a stack overflow)",
                    9 => " (SIGKILL)",
                    11 => " (SIGSEGV: e.g. a stack overflow)",
                    _ => "",
                }
            ),
            _ => "unknown".into(),
        };
        let tail = stderr_tail(&err);
        let panic = running.and_then(|id| panics.get(&id).cloned());
        End::Died {
            id: running,
            how: format!(
                "{how}{}{}",
                panic.map(|p| format!("; panic {p}")).unwrap_or_default(),
                if tail.is_empty() { String::new() } else { format!("; stderr: {tail}") }
            ),
        }
    };
    ChildRun { results, end, peak_rss_kib: peak }
}

/// The cases `first .. first + count` of `kind`.
fn make_cases(
    cfg: &Config,
    seeds: &[Seed],
    kind: &'static str,
    first: u64,
    count: u64,
    kind_no: u64,
) -> Vec<Case> {
    let mine: Vec<&Seed> = seeds.iter().filter(|s| s.kind == kind).collect();
    (first..first + count)
        .map(|i| {
            let case_seed = Rng::case_seed(cfg.run_seed, kind, i);
            let seed = mine[(case_seed % mine.len() as u64) as usize];
            let m = mutant(seed, seeds, case_seed);
            Case {
                id: kind_no << 40 | i,
                kind,
                seed_name: seed.name.clone(),
                case_seed,
                description: m.description,
                instance: m.instance,
                certificate: m.certificate,
            }
        })
        .collect()
}

/// Writes a failing case for reproduction (`gamecert verify instance.json certificate.json`).
fn write_out(
    cfg: &Config,
    case: &Case,
    class: &str,
    detail: &str,
    ms: Option<f64>,
) -> Option<PathBuf> {
    let dir = cfg.findings.join(format!("{}-{}-{:016x}", case.kind, class, case.case_seed));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join("instance.json"), &case.instance).ok()?;
    match super::mutate::binary_bytes(&case.certificate) {
        Some(bytes) => std::fs::write(dir.join("certificate.json"), bytes).ok()?,
        None => std::fs::write(dir.join("certificate.json"), &case.certificate).ok()?,
    }
    let info = format!(
        "class: {class}\nkind: {}\nseed instance: {}\nrun seed: {:016x}\ncase seed: {:016x}\n\
         mutation: {}\ntime: {}\ndetail: {detail}\n\nreproduce: gamecert verify instance.json \
         certificate.json\n  or GAMECERT_FUZZ_SEED={:x} GAMECERT_FUZZ_KINDS={} cargo test --test \
         fuzz_checker (the case is generated again from its seeds)\n",
        case.kind,
        case.seed_name,
        cfg.run_seed,
        case.case_seed,
        case.description,
        ms.map_or("-".into(), |m| format!("{m:.1} ms")),
        cfg.run_seed,
        case.kind,
    );
    std::fs::write(dir.join("info.txt"), info).ok()?;
    Some(dir)
}

struct Shared {
    report: Mutex<Report>,
    queue: Mutex<VecDeque<(usize, u64, u64)>>,
    /// Stops the run (a harness failure such as a child that cannot start).
    abort: std::sync::atomic::AtomicBool,
}

fn record(
    cfg: &Config,
    shared: &Shared,
    case: &Case,
    class: &'static str,
    detail: String,
    ms: Option<f64>,
) {
    let mut failure = Failure {
        class,
        kind: case.kind,
        case_seed: case.case_seed,
        seed_name: case.seed_name.clone(),
        description: case.description.clone(),
        detail,
        ms,
        files: None,
    };
    let sig = failure.signature();
    let mut report = shared.report.lock().expect("the report");
    let entry = report.signatures.entry(sig).or_default();
    entry.0 += 1;
    // The first case of each failure in each kind is written out and listed.
    let first = entry.1.insert(case.kind);
    report.stats.entry(case.kind).or_default().failures += 1;
    if first {
        drop(report);
        failure.files = write_out(cfg, case, class, &failure.detail, ms);
        eprintln!(
            "[fuzz {}] FAILURE {class} kind={} case={:016x} ({}): {} | mutation: {} | files: {}",
            cfg.name,
            case.kind,
            case.case_seed,
            ms.map_or("-".into(), |m| format!("{m:.1} ms")),
            failure.detail,
            failure.description,
            failure.files.as_ref().map_or("-".into(), |p| p.display().to_string())
        );
        shared.report.lock().expect("the report").failures.push(failure);
    }
}

/// Tallies the results of a child and records the failing ones.
fn tally(cfg: &Config, shared: &Shared, cases: &HashMap<u64, &Case>, run: &ChildRun) {
    if let Some(path) = &cfg.log {
        let mut lines = String::new();
        for r in &run.results {
            if let Some(case) = cases.get(&r.id) {
                lines.push_str(&format!(
                    "{}\t{:016x}\t{}\t{:.3}\t{}\t{}\t{}\n",
                    case.kind,
                    case.case_seed,
                    r.outcome,
                    r.ms,
                    r.reason.replace('\n', " "),
                    r.truth,
                    case.description
                ));
            }
        }
        let _ = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(lines.as_bytes()));
    }
    for r in &run.results {
        let Some(case) = cases.get(&r.id) else {
            continue;
        };
        {
            let mut report = shared.report.lock().expect("the report");
            let s = report.stats.entry(case.kind).or_default();
            s.mutants += 1;
            s.max_ms = s.max_ms.max(r.ms);
            s.total_ms += r.ms;
            s.peak_rss_kib = s.peak_rss_kib.max(run.peak_rss_kib);
            match r.outcome.as_str() {
                "accepted" => {
                    s.parsed += 1;
                    s.accepted += 1;
                }
                "rejected" => {
                    s.parsed += 1;
                    s.rejected += 1;
                }
                "bad-instance" | "bad-certificate" => s.bad_input += 1,
                _ => {}
            }
            if case.certificate.starts_with(super::mutate::BINARY) {
                s.binary += 1;
                if matches!(r.outcome.as_str(), "accepted" | "rejected") {
                    s.binary_parsed += 1;
                }
            }
            if r.truth == "verified" {
                s.verified += 1;
            } else if r.truth.starts_with("skipped") {
                s.skipped += 1;
            }
        }
        if r.outcome == "panic" {
            record(cfg, shared, case, "panic", r.reason.clone(), Some(r.ms));
        }
        if r.reason.starts_with("internal error") {
            record(cfg, shared, case, "internal-error", r.reason.clone(), Some(r.ms));
        }
        // Slow is a finding about an answer; a panic or internal error is already the finding
        // for its case (and its time, up to the panic hook, is noise under load).
        let failed = r.outcome == "panic" || r.reason.starts_with("internal error");
        if r.ms > cfg.case_bound.as_secs_f64() * 1e3 && !failed {
            record(
                cfg,
                shared,
                case,
                "slow",
                format!(
                    "{:.0} ms > {} ms ({}: {})",
                    r.ms,
                    cfg.case_bound.as_millis(),
                    r.outcome,
                    r.reason
                ),
                Some(r.ms),
            );
        }
        if let Some(why) = r.truth.strip_prefix("false: ") {
            record(
                cfg,
                shared,
                case,
                "false-acceptance",
                format!("{why} (checker: {})", r.reason),
                Some(r.ms),
            );
        }
    }
}

/// Runs `cases` (one kind) and everything that follows from a death: the culprit alone, the
/// rest again.
fn run_cases(cfg: &Config, shared: &Shared, cases: Vec<Case>, tag: &str) {
    let mut pending = cases;
    let mut round = 0;
    while !pending.is_empty() && !shared.abort.load(std::sync::atomic::Ordering::SeqCst) {
        round += 1;
        let run = run_child(cfg, &pending, &format!("{tag}-{round}"));
        {
            let mut report = shared.report.lock().expect("the report");
            report.children += 1;
        }
        let by_id: HashMap<u64, &Case> = pending.iter().map(|c| (c.id, c)).collect();
        tally(cfg, shared, &by_id, &run);
        let finished: std::collections::HashSet<u64> = run.results.iter().map(|r| r.id).collect();
        let (culprit, class, detail) = match &run.end {
            End::Done => return,
            End::Killed { id, truth: true } => {
                // A truth check too slow for the harness: not the checker's fault, noted.
                let id = id.expect("a truth check has a case");
                let case = by_id[&id];
                shared.report.lock().expect("the report").notes.push(format!(
                    "truth check of {} case {:016x} took over {} s: killed, counted as skipped",
                    case.kind,
                    case.case_seed,
                    cfg.truth_kill_after.as_secs()
                ));
                shared
                    .report
                    .lock()
                    .expect("the report")
                    .stats
                    .entry(case.kind)
                    .or_default()
                    .skipped += 1;
                let mut rest: Vec<Case> = pending
                    .iter()
                    .filter(|c| !finished.contains(&c.id) && c.id != id)
                    .cloned()
                    .collect();
                // The killed case was checked (and accepted) but its result never printed.
                {
                    let mut report = shared.report.lock().expect("the report");
                    let s = report.stats.entry(case.kind).or_default();
                    s.mutants += 1;
                    s.parsed += 1;
                    s.accepted += 1;
                    if case.certificate.starts_with(super::mutate::BINARY) {
                        s.binary += 1;
                        s.binary_parsed += 1;
                    }
                }
                pending = std::mem::take(&mut rest);
                continue;
            }
            End::Killed { id, truth: false } => (
                *id,
                "timeout",
                format!("still running after {} s: killed", cfg.kill_after.as_secs()),
            ),
            End::Died { id, how } => (*id, "crash", how.clone()),
        };
        let Some(id) = culprit else {
            // Died before its first case or between two (reading the batch): the harness's
            // own fault. Noted; the cases not run go to a new child unless nothing ran.
            let next = pending.iter().find(|c| !finished.contains(&c.id));
            let failure = Failure {
                class: "harness",
                kind: pending[0].kind,
                case_seed: next.map_or(0, |c| c.case_seed),
                seed_name: next.map_or(String::new(), |c| c.seed_name.clone()),
                description: next.map_or(String::new(), |c| c.description.clone()),
                detail: format!(
                    "the child died outside any case, {} of {} cases done: {detail}",
                    finished.len(),
                    pending.len()
                ),
                ms: None,
                files: None,
            };
            let mut report = shared.report.lock().expect("the report");
            let entry = report.signatures.entry(failure.signature()).or_default();
            entry.0 += 1;
            entry.1.insert(failure.kind);
            report.failures.push(failure);
            drop(report);
            if finished.is_empty() {
                shared.abort.store(true, std::sync::atomic::Ordering::SeqCst);
                return;
            }
            pending.retain(|c| !finished.contains(&c.id));
            continue;
        };
        let case = by_id[&id].clone();
        // Confirm the culprit alone in a fresh child, unless this run already was alone.
        let alone = if pending.len() == 1 {
            Some(detail.clone())
        } else {
            let again =
                run_child(cfg, std::slice::from_ref(&case), &format!("{tag}-{round}-alone"));
            shared.report.lock().expect("the report").children += 1;
            match again.end {
                End::Done => {
                    // Not reproduced alone: the case's own result is what it did alone.
                    let one: HashMap<u64, &Case> = [(case.id, &case)].into_iter().collect();
                    tally(cfg, shared, &one, &again);
                    None
                }
                End::Killed { .. } => Some(format!(
                    "alone too: still running after {} s: killed",
                    cfg.kill_after.as_secs()
                )),
                End::Died { how, .. } => Some(format!("alone too: {how}")),
            }
        };
        match alone {
            Some(d) => {
                let mut report = shared.report.lock().expect("the report");
                let s = report.stats.entry(case.kind).or_default();
                s.mutants += 1;
                if class == "timeout" {
                    s.max_ms = s.max_ms.max(cfg.kill_after.as_secs_f64() * 1e3);
                }
                drop(report);
                record(cfg, shared, &case, class, d, None);
            }
            None => {
                // The batch died but its case alone does not: re-run the finished cases of
                // the batch one per child to find the one that does.
                let mut found = false;
                for (k, c) in pending.iter().filter(|c| finished.contains(&c.id)).enumerate() {
                    let r =
                        run_child(cfg, std::slice::from_ref(c), &format!("{tag}-{round}-one{k}"));
                    shared.report.lock().expect("the report").children += 1;
                    if !matches!(r.end, End::Done) {
                        record(
                            cfg,
                            shared,
                            c,
                            class,
                            format!(
                                "{detail} (found by re-running the batch's cases alone: {:?})",
                                r.end
                            ),
                            None,
                        );
                        found = true;
                        break;
                    }
                }
                if !found {
                    shared.report.lock().expect("the report").notes.push(format!(
                        "a {} batch {class} ({detail}) while case {:016x} ran, not reproduced by any of its cases alone",
                        case.kind, case.case_seed
                    ));
                }
            }
        }
        pending =
            pending.iter().filter(|c| !finished.contains(&c.id) && c.id != id).cloned().collect();
    }
}

/// Runs the given cases (one batch, then whatever a death leaves) and returns the report.
pub fn run_given(cfg: &Config, cases: Vec<Case>) -> Report {
    let shared = Shared {
        report: Mutex::new(Report::default()),
        queue: Mutex::new(VecDeque::new()),
        abort: std::sync::atomic::AtomicBool::new(false),
    };
    run_cases(cfg, &shared, cases, "given");
    let _ = std::fs::remove_dir_all(&cfg.work);
    shared.report.into_inner().expect("the report")
}

/// Runs the whole fuzz campaign of `cfg` and returns its report.
pub fn run(cfg: &Config) -> Report {
    let seeds = super::seeds::all();
    let shared = Shared {
        report: Mutex::new(Report::default()),
        queue: Mutex::new(VecDeque::new()),
        abort: std::sync::atomic::AtomicBool::new(false),
    };
    {
        let mut q = shared.queue.lock().expect("the queue");
        // Interleave the kinds so that every kind gets going early.
        let per = cfg.mutants_per_kind as u64;
        let batch = cfg.batch as u64;
        let mut first = 0;
        while first < per {
            for (k, _) in cfg.kinds.iter().enumerate() {
                q.push_back((k, first, batch.min(per - first)));
            }
            first += batch;
        }
        let mut report = shared.report.lock().expect("the report");
        for k in &cfg.kinds {
            report.stats.insert(k, Stats::default());
        }
    }
    std::thread::scope(|scope| {
        for worker in 0..cfg.jobs {
            let shared = &shared;
            let seeds = &seeds;
            scope.spawn(move || loop {
                if shared.abort.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let Some((k, first, count)) = shared.queue.lock().expect("the queue").pop_front()
                else {
                    return;
                };
                let kind = cfg.kinds[k];
                let kind_no = KINDS.iter().position(|x| *x == kind).expect("a kind") as u64;
                let cases = make_cases(cfg, seeds, kind, first, count, kind_no);
                run_cases(cfg, shared, cases, &format!("w{worker}-{kind}-{first}"));
                shared.report.lock().expect("the report").batches += 1;
            });
        }
    });
    let _ = std::fs::remove_dir_all(&cfg.work);
    shared.report.into_inner().expect("the report")
}

/// The summary table (with notes) and the failures, as text.
pub fn summary(cfg: &Config, report: &Report, elapsed: Duration) -> (String, String) {
    let mut out = String::new();
    out.push_str(&format!(
        "fuzz_checker {}: run seed {:016x}, {} mutants per kind, batches of {}, {} jobs, \
         case bound {} ms (killed after {} s), memory limit {} MiB; {} children, {:.1} s\n",
        cfg.name,
        cfg.run_seed,
        cfg.mutants_per_kind,
        cfg.batch,
        cfg.jobs,
        cfg.case_bound.as_millis(),
        cfg.kill_after.as_secs(),
        cfg.memory_kib / 1024,
        report.children,
        elapsed.as_secs_f64()
    ));
    out.push_str(&format!(
        "{:<22} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
        "kind",
        "mutants",
        "binary",
        "bin-read",
        "parsed",
        "accepted",
        "rejected",
        "bad-in",
        "max ms",
        "mean ms",
        "verified",
        "skipped",
        "FAILED",
        "peak MiB"
    ));
    for (kind, s) in &report.stats {
        out.push_str(&format!(
            "{:<22} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9.1} {:>8.3} {:>8} {:>8} {:>8} {:>8}\n",
            kind,
            s.mutants,
            s.binary,
            s.binary_parsed,
            s.parsed,
            s.accepted,
            s.rejected,
            s.bad_input,
            s.max_ms,
            if s.mutants > 0 { s.total_ms / s.mutants as f64 } else { 0.0 },
            s.verified,
            s.skipped,
            s.failures,
            s.peak_rss_kib / 1024
        ));
    }
    if !report.notes.is_empty() {
        out.push_str("notes:\n");
        for n in &report.notes {
            out.push_str(&format!("  {n}\n"));
        }
    }
    let table = std::mem::take(&mut out);
    if !report.signatures.is_empty() {
        out.push_str(&format!(
            "{} distinct failures ({} failing cases):\n",
            report.signatures.len(),
            report.signatures.values().map(|s| s.0).sum::<u64>()
        ));
        for (sig, (n, kinds)) in &report.signatures {
            let kinds: Vec<&str> = kinds.iter().copied().collect();
            out.push_str(&format!("  {n:>6} x {sig}\n           in {}\n", kinds.join(", ")));
        }
        out.push_str("one example of each (the first case in every kind is written out):\n");
        let mut shown = std::collections::HashSet::new();
        for f in &report.failures {
            if !shown.insert(f.signature()) {
                continue;
            }
            out.push_str(&format!(
                "  [{}] kind {} (seed {}), case {:016x}, {}\n      mutation: {}\n      {}\n      files: {}\n",
                f.class,
                f.kind,
                f.seed_name,
                f.case_seed,
                f.ms.map_or("time -".into(), |m| format!("{m:.1} ms")),
                f.description,
                f.detail,
                f.files
                    .as_ref()
                    .map_or("-".into(), |p| p.display().to_string())
            ));
        }
    }
    (table, out)
}

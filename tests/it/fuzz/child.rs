//! The child side: reads a batch of cases, runs the checker on each in this process and prints
//! one line per case for the parent. The parent started this process under an address-space
//! limit and watches the clock; a crash, an abort or a hang here is seen there.
//!
//! Protocol (stdout, one line each, flushed):
//! - `@@FUZZ-START <id>` before a case (so the parent knows which case was running if the
//!   process dies or hangs);
//! - `@@FUZZ-PANIC <phase> <id> <message>` from the panic hook (phase `check` or `truth`);
//! - `@@FUZZ-TRUTH <id>` before the truth check of an accepted case (outside the measured time);
//! - `@@FUZZ-RESULT <json>` after a case ([`CaseResult`]);
//! - `@@FUZZ-DONE <peak resident set in kB>` at the end.

use super::truth::{decide, Cache, Truth};
use gamecert_certificates::format::Certificate;
use gamecert_certificates::{check, Limits};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The environment variable naming the batch file of a child.
pub const BATCH_ENV: &str = "GAMECERT_FUZZ_CHILD_BATCH";

/// With this variable set, an instance text `@@PROBE-<what>` makes the child misbehave on
/// purpose (the harness's own test): `panic`, `abort`, `hang`, `alloc` (8 GiB), `stack`,
/// `slow` (sleeps 0.9 s in the timed part), `internal`.
pub const PROBE_ENV: &str = "GAMECERT_FUZZ_PROBES";

fn probe(what: &str) -> Option<String> {
    match what {
        "panic" => panic!("probe panic"),
        "abort" => std::process::abort(),
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        "alloc" => {
            // black_box: an allocation nothing reads may be optimised away.
            let v: Vec<u8> = std::hint::black_box(Vec::with_capacity(8 << 30));
            Some(format!("allocated {}", v.capacity()))
        }
        "stack" => {
            #[allow(unconditional_recursion)]
            fn down(n: u64) -> u64 {
                let pad = std::hint::black_box([n; 64]);
                std::hint::black_box(down(std::hint::black_box(n + 1))) + pad[3]
            }
            Some(down(0).to_string())
        }
        "slow" => {
            std::thread::sleep(std::time::Duration::from_millis(900));
            Some("slept".into())
        }
        "internal" => Some("internal error: probe".into()),
        _ => None,
    }
}

/// One case as the parent writes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseInput {
    pub id: u64,
    pub instance: String,
    pub certificate: String,
}

/// One case's result as the child prints it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CaseResult {
    pub id: u64,
    /// `accepted`, `rejected`, `bad-instance`, `bad-certificate` or `panic`.
    pub outcome: String,
    /// Wall time of parsing both files, `Instance::validate` and `check`, in milliseconds.
    pub ms: f64,
    /// The verdict's reason, the parse error or the panic message (first 200 characters).
    pub reason: String,
    /// `verified`, `skipped: ...`, `false: ...`, or `-` when not accepted.
    pub truth: String,
}

const PHASE_CHECK: u8 = 1;
const PHASE_TRUTH: u8 = 2;

static PHASE: AtomicU8 = AtomicU8::new(0);
static CASE: AtomicU64 = AtomicU64::new(0);
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());
/// When the last panic began: a case's time stops there (the hook's backtrace is slow).
static PANIC_AT: Mutex<Option<Instant>> = Mutex::new(None);

/// Prints a line for the parent; a parent gone (its pipe closed) ends the child.
fn emit(line: &str) {
    let out = std::io::stdout();
    let mut out = out.lock();
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        std::process::exit(3);
    }
}

fn first_chars(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

fn install_hook() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut at) = PANIC_AT.lock() {
            *at = Some(Instant::now());
        }
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".into());
        let at = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        // Where in the checker (or the solver): the first frame in this workspace's crates
        // below the panic, since overflow and slice panics point into core.
        let trace = std::backtrace::Backtrace::force_capture().to_string();
        let origin = trace
            .lines()
            .filter_map(|l| l.trim().strip_prefix("at "))
            .find(|l| {
                l.contains("certificates/src/")
                    || l.contains("/src/")
                        && !l.contains("/rustc/")
                        && !l.contains("/.cargo/")
                        && !l.contains("tests/fuzz")
            })
            .map(|l| l.find("certificates/src/").map_or(l, |i| &l[i..]).to_string())
            .unwrap_or(at);
        let text = first_chars(&format!("{msg} [at {origin}]"), 400).replace('\n', " ");
        let phase = match PHASE.load(Ordering::SeqCst) {
            PHASE_CHECK => "check",
            PHASE_TRUTH => "truth",
            _ => "harness",
        };
        emit(&format!("@@FUZZ-PANIC {phase} {} {text}", CASE.load(Ordering::SeqCst)));
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = text;
        }
    }));
}

fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// Runs one case: parse, validate, check (timed), then the truth of an acceptance (untimed).
fn run_case(case: &CaseInput, cache: &mut Cache) -> CaseResult {
    CASE.store(case.id, Ordering::SeqCst);
    PHASE.store(PHASE_CHECK, Ordering::SeqCst);
    emit(&format!("@@FUZZ-START {}", case.id));
    let limits = Limits::default();
    if let Ok(mut at) = PANIC_AT.lock() {
        *at = None;
    }
    let started = Instant::now();
    if std::env::var_os(PROBE_ENV).is_some() {
        if let Some(what) = case.instance.strip_prefix("@@PROBE-") {
            let r = catch_unwind(AssertUnwindSafe(|| probe(what)));
            let ms = started.elapsed().as_secs_f64() * 1e3;
            PHASE.store(0, Ordering::SeqCst);
            return CaseResult {
                id: case.id,
                outcome: if r.is_ok() { "rejected" } else { "panic" }.into(),
                ms,
                reason: match r {
                    Ok(reason) => reason.unwrap_or_default(),
                    Err(_) => LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default(),
                },
                truth: "-".into(),
            };
        }
    }
    let run = catch_unwind(AssertUnwindSafe(|| {
        // Read as `gamecert-check` reads a file: JSON, or the text formats (an edge list, a
        // positive DNF) through the checker's text readers.
        let instance = gamecert_certificates::verify::parse_instance(
            std::path::Path::new("instance"),
            &case.instance,
        );
        if let Ok(i) = &instance {
            let _ = i.validate();
        }
        // A certificate in the binary form is read by the checker's decoder, charging the
        // budget the check then has the rest of (as `verify` does).
        let mut budget = limits.budget();
        let certificate = match super::mutate::binary_bytes(&case.certificate) {
            Some(bytes) => Certificate::from_binary(&bytes[..], &mut budget),
            None => Certificate::from_json(&case.certificate),
        };
        let left = limits.less(budget.used());
        let verdict = match (&instance, &certificate) {
            (Ok(i), Ok(c)) => Some(check(i, c, &left)),
            _ => None,
        };
        (instance, certificate, verdict)
    }));
    let ended = PANIC_AT.lock().ok().and_then(|at| *at).unwrap_or_else(Instant::now);
    let ms = ended.duration_since(started).as_secs_f64() * 1e3;
    PHASE.store(0, Ordering::SeqCst);
    let (instance, certificate, verdict) = match run {
        Ok(r) => r,
        Err(_) => {
            let msg = LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default();
            return CaseResult {
                id: case.id,
                outcome: "panic".into(),
                ms,
                reason: first_chars(&msg, 200),
                truth: "-".into(),
            };
        }
    };
    let (outcome, reason) = match (&instance, &certificate, &verdict) {
        (Err(e), _, _) => ("bad-instance", e.to_string()),
        (_, Err(e), _) => ("bad-certificate", e.to_string()),
        (_, _, Some(v)) if v.accepted() => ("accepted", v.reason.clone()),
        (_, _, Some(v)) => ("rejected", v.reason.clone()),
        _ => unreachable!("both parsed means a verdict"),
    };
    let mut truth = "-".to_string();
    if outcome == "accepted" {
        let (Ok(i), Ok(c)) = (&instance, &certificate) else {
            unreachable!("accepted means both parsed")
        };
        emit(&format!("@@FUZZ-TRUTH {}", case.id));
        PHASE.store(PHASE_TRUTH, Ordering::SeqCst);
        let t = catch_unwind(AssertUnwindSafe(|| match unfaithful_text(&case.instance) {
            Some(why) => Truth::False(why),
            None => decide(i, c, cache),
        }));
        PHASE.store(0, Ordering::SeqCst);
        truth = match t {
            Ok(Truth::Verified) => "verified".into(),
            Ok(Truth::Skipped(why)) => format!("skipped: {}", first_chars(&why, 200)),
            Ok(Truth::False(why)) => format!("false: {}", first_chars(&why, 300)),
            Err(_) => {
                let msg = LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default();
                format!("skipped: the solver panicked: {}", first_chars(&msg, 200))
            }
        };
    }
    CaseResult {
        id: case.id,
        outcome: outcome.into(),
        ms,
        reason: first_chars(&reason, 200),
        truth,
    }
}

/// The child's entry: does nothing unless [`BATCH_ENV`] names a batch file.
pub fn main() {
    let Ok(path) = std::env::var(BATCH_ENV) else {
        return;
    };
    install_hook();
    let file = std::fs::File::open(&path).expect("the batch file exists");
    let mut cache = Cache::new();
    let mut count = 0;
    for line in std::io::BufReader::new(file).lines() {
        let line = line.expect("the batch file reads");
        if line.is_empty() {
            continue;
        }
        let case: CaseInput = serde_json::from_str(&line).expect("the parent writes valid cases");
        let result = run_case(&case, &mut cache);
        emit(&format!(
            "@@FUZZ-RESULT {}",
            serde_json::to_string(&result).expect("a result serialises")
        ));
        count += 1;
    }
    emit(&format!("@@FUZZ-DONE {} {count}", peak_rss_kb()));
}

/// Why a text instance (not JSON) cannot have been read exactly as written, decided without the
/// checker's readers: a `\r` that ends no line, or a character outside comments that is white
/// space but not a space or tab, or prints as nothing (control characters, a byte-order mark,
/// zero-width and direction marks, a soft hyphen). Accepting such a file means some reader
/// dropped, repaired or misread it (issue 31: `x1 a\r` read as the vertex `a\r`,
/// `\u{feff}white` as a vertex name).
fn unfaithful_text(text: &str) -> Option<String> {
    if text.trim_start().starts_with('{') {
        return None;
    }
    let count = text.split('\n').count();
    for (k, line) in text.split('\n').enumerate() {
        let line = if k + 1 < count {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line // the last piece has no `\n` after it: a `\r` there ends no line
        };
        let content = line.split('#').next().unwrap_or("");
        if content.trim_start_matches([' ', '\t']).starts_with('c') {
            continue; // a DNF comment (or an edge-list name starting with c: not judged)
        }
        let odd = content.chars().filter(|&ch| ch != ' ' && ch != '\t').find(|&ch| {
            ch.is_whitespace()
                || ch.is_control()
                || matches!(ch, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
                    | '\u{2060}'..='\u{2064}' | '\u{feff}')
        });
        if let Some(ch) = odd {
            return Some(format!("accepted a text instance whose line {} holds {ch:?}", k + 1));
        }
    }
    None
}

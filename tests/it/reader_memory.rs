//! Issue 40, item 1: every reader of the checker holds a fixed multiple of the bytes it read
//! and was charged for. Each reader (the LRAT proof, the DIMACS formula, a JSON instance, a
//! JSON certificate, the edge-list and positive-DNF texts) is given a crafted file whose tokens
//! each grow a buffer (a token repeated on one endless line, a name or a term a line, an
//! empty clause a line), and `gamecert-check` runs on it under a work budget `W` and an
//! address-space limit (`ulimit -v`, so that an allocation past it is an abort this test sees).
//! Its peak resident memory (the kernel's `ru_maxrss`) must stay within a small base, the file
//! it holds, and `W`: every byte it holds was charged first. With a small `W` the reader is
//! refused before it holds anything much (exit 3, not checked: "work limit reached while
//! reading ...");
//! with a `W` large enough to parse, what it holds is still within `W`.
//!
//! The LRAT reader is held tighter: it holds no line, so a proof line of any length costs a
//! few megabytes (it used to hold the line and then 8 bytes a hint: five times the line).

use super::common::gamecert_check_binary;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The address-space limit of the child: far above what any run here may hold, so that the
/// memory measured, not the limit, decides; an abort under it still fails the test.
const ADDRESS_SPACE_KIB: u64 = 3 << 20;

/// What `gamecert-check` holds before it reads anything, with room for the allocator.
const BASE_BYTES: u64 = 24 << 20;

/// One run: the exit code, its output, and its peak resident memory in bytes.
struct Run {
    code: Option<i32>,
    output: String,
    peak: u64,
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamecert-reader-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The variable that makes this test binary the measuring child: the output file and the
/// arguments of `gamecert-check`, separated by U+001F.
const MEASURE_ENV: &str = "GAMECERT_READER_MEMORY_RUN";

/// Runs `gamecert-check args`; the peak memory is measured by a fresh copy of this test binary
/// ([`measuring_child`]), because a process started from this one inherits its peak: Linux
/// keeps a process's largest resident set across `exec`, and this process holds the crafted
/// files.
fn run(args: &[&str]) -> Run {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = dir().join(format!("out-{k}"));
    let mut fields = vec![out.to_str().unwrap()];
    fields.extend_from_slice(args);
    let child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "reader_memory::measuring_child", "--include-ignored", "--nocapture"])
        .args(["--test-threads=1", "--quiet"])
        .env(MEASURE_ENV, fields.join("\u{1f}"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&child.stdout);
    let output = std::fs::read_to_string(&out).unwrap_or_default();
    let Some(line) = text.lines().find_map(|l| l.strip_prefix("@@MEASURED ")) else {
        panic!(
            "the measuring child printed no result: {text} {}",
            String::from_utf8_lossy(&child.stderr)
        )
    };
    let numbers: Vec<i64> = line.split(' ').map(|w| w.parse().unwrap()).collect();
    let (code, signal, peak) = (numbers[0], numbers[1], numbers[2]);
    assert_ne!(code, 97, "ulimit -v failed");
    assert_eq!(signal, 0, "gamecert-check {args:?} ended by signal {signal}: {output}");
    Run { code: (code >= 0).then_some(code as i32), output, peak: peak as u64 }
}

/// The measuring child of [`run`] (only with [`MEASURE_ENV`] set): starts `gamecert-check`
/// under the address-space limit, waits for it with `wait4` and prints its exit code, its
/// signal (0 for none) and its peak resident memory in bytes.
#[test]
#[ignore = "the measuring child of the reader_memory tests, started by them"]
// The child is reaped by wait4 below (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn measuring_child() {
    let fields = std::env::var(MEASURE_ENV).expect("started by reader_memory::run");
    let mut fields = fields.split('\u{1f}');
    let out = fields.next().unwrap();
    let file = std::fs::File::create(out).unwrap();
    // Reaped by `wait4` below (std's `wait` cannot report the child's rusage).
    #[allow(clippy::zombie_processes)]
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} || exit 97; exec \"$0\" \"$@\""))
        .arg(gamecert_check_binary())
        .args(fields)
        .stdin(Stdio::null())
        .stdout(file.try_clone().unwrap())
        .stderr(file)
        .spawn()
        .expect("sh runs");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for the kernel to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child's, not yet waited for; both pointers are valid.
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as libc::pid_t, "wait4 failed");
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    let signal = if libc::WIFSIGNALED(status) { libc::WTERMSIG(status) } else { 0 };
    println!("@@MEASURED {code} {signal} {}", usage.ru_maxrss as u64 * 1024);
}

/// Runs the checker on `instance` and `certificate` (`lrat` first for a formula and a proof)
/// with budgets of `low` and `high` units: the first is refused while reading with little
/// memory; the second may read, and holds no more than it was charged.
fn holds_what_it_paid_for(lrat: bool, files: (&Path, &Path), low: u64, high: u64, what: &str) {
    let (a, b) = (files.0.to_str().unwrap(), files.1.to_str().unwrap());
    let file_bytes =
        std::fs::metadata(files.0).unwrap().len() + std::fs::metadata(files.1).unwrap().len();
    for (budget, refused) in [(low, true), (high, false)] {
        let work = budget.to_string();
        let mut args = vec!["--max-work", &work, a, b];
        if lrat {
            args.insert(0, "lrat");
        }
        let run = run(&args);
        let bound = BASE_BYTES + file_bytes + budget;
        assert!(
            run.peak <= bound,
            "{what}, --max-work {budget}: {} MB held, more than {} MB (base, files, budget): {}",
            run.peak >> 20,
            bound >> 20,
            run.output
        );
        assert!(matches!(run.code, Some(1..=3)), "{what}: {:?} {}", run.code, run.output);
        if refused {
            // Not checked (exit 3): the budget, not a fault found, stopped it.
            assert_eq!(run.code, Some(3), "{what}: {}", run.output);
            assert!(
                run.output.contains("work limit reached while reading"),
                "{what}: {}",
                run.output
            );
            assert!(run.peak <= BASE_BYTES + 2 * file_bytes, "{what}: {} MB", run.peak >> 20);
        }
    }
}

fn write(name: &str, text: &str) -> PathBuf {
    let path = dir().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Megabytes of each crafted file.
const SIZE: usize = 8 << 20;

#[test]
fn text_instances_hold_what_they_paid_for() {
    let small_certificate = write("small.json", "{}");
    // One line of W's stones, the same name over and over.
    let white = write("white.txt", &format!("a b\nblack 1\nwhite{}\n", " a".repeat(SIZE / 2)));
    holds_what_it_paid_for(
        false,
        (&white, &small_certificate),
        30_000_000,
        800_000_000,
        "W's line",
    );
    // A vertex a line, each a new name.
    let names: String = (0..SIZE / 10).map(|k| format!("vertex v{k:x}\n")).collect();
    let vertices = write("vertices.txt", &format!("a b\nblack 1\nwhite a\n{names}"));
    holds_what_it_paid_for(
        false,
        (&vertices, &small_certificate),
        30_000_000,
        600_000_000,
        "names",
    );
    // An edge a line.
    let edges: String = (0..SIZE / 12).map(|k| format!("v{k:x} w{k:x}\n")).collect();
    let edges = write("edges.txt", &format!("black 1\nwhite v0\n{edges}"));
    holds_what_it_paid_for(false, (&edges, &small_certificate), 30_000_000, 800_000_000, "edges");
    // A positive DNF of one-variable terms, and one long term.
    let terms = write("terms.dnf", &"1\n".repeat(SIZE / 2));
    holds_what_it_paid_for(false, (&terms, &small_certificate), 30_000_000, 800_000_000, "terms");
    let long: String = (1..SIZE / 8).map(|v| format!("{v} ")).collect();
    let long = write("long.dnf", &format!("{long}\n"));
    holds_what_it_paid_for(false, (&long, &small_certificate), 30_000_000, 800_000_000, "a term");
}

#[test]
fn json_files_hold_what_they_paid_for() {
    let names: Vec<String> = (0..SIZE / 10).map(|k| format!("\"v{k:x}\"")).collect();
    let instance = write(
        "one-round.json",
        &format!(
            r#"{{"format":"gamecert-instance","version":1,"kind":"voronoi-one-round","graph":{{"vertices":[{}],"edges":[]}},"white":["v0"],"black_count":1}}"#,
            names.join(",")
        ),
    );
    let small_certificate = write("small2.json", "{}");
    holds_what_it_paid_for(
        false,
        (&instance, &small_certificate),
        30_000_000,
        600_000_000,
        "JSON names",
    );
    let dnf = write("dnf4.dnf", "p dnf 4 3\n1 2\n2 3\n3 4\n");
    let moves = vec![r#"["....",2]"#; SIZE / 11].join(",");
    let certificate = write(
        "moves.json",
        &format!(
            r#"{{"format":"gamecert-certificate","version":1,"kind":"dnf-strategy","player":"first","claim":"wins","moves":[{moves}]}}"#
        ),
    );
    holds_what_it_paid_for(false, (&dnf, &certificate), 30_000_000, 600_000_000, "JSON moves");
}

#[test]
fn dimacs_and_lrat_hold_what_they_paid_for() {
    let proof = write("small.lrat", "3 0 1 2 0\n");
    let empty = write("empty.cnf", &format!("p cnf 1 {}\n{}", SIZE / 2, "0\n".repeat(SIZE / 2)));
    holds_what_it_paid_for(true, (&empty, &proof), 30_000_000, 800_000_000, "empty clauses");
    // 6,500 unit clauses (26 KB) and a proof of one line of 4 million hints: nothing of the
    // line is held.
    let units: String = (1..=6500).map(|v| format!("{v} 0\n")).collect();
    let units = write("units.cnf", &format!("p cnf 6500 6500\n{units}"));
    let line = write("line.lrat", &format!("6501 -1 0{} 0\n", " 2".repeat(SIZE / 2)));
    let run = run(&["lrat", units.to_str().unwrap(), line.to_str().unwrap()]);
    assert_eq!(run.code, Some(1), "{}", run.output);
    assert!(run.output.contains("RUP check failed after 4194304 hints"), "{}", run.output);
    assert!(run.peak <= BASE_BYTES, "a proof line held: {} MB", run.peak >> 20);
}

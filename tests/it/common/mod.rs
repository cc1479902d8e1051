//! Helpers shared by the command-line tests: run the binary, read its output, write input
//! files, expect bad input.
#![allow(dead_code)] // not every helper is used by every test module

pub mod pictures;
pub mod server;
pub mod webdriver;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn gamecert(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(args)
        .output()
        .expect("the gamecert binary runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The `gamecert-check` binary, built beside `gamecert` by `cargo test --workspace`.
pub fn gamecert_check_binary() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_BIN_EXE_gamecert")).with_file_name("gamecert-check");
    assert!(path.exists(), "{} is missing: run the tests with --workspace", path.display());
    path
}

/// `cnf` written to `dir/name.cnf` and reduced by `reduce sat-voronoi1` to `dir/name.json`,
/// whose path is returned.
pub fn reduced_cnf(dir: &Path, name: &str, cnf: &str) -> PathBuf {
    let formula = write(dir, &format!("{name}.cnf"), cnf);
    let instance = dir.join(format!("{name}.json"));
    let (f, i) = (formula.to_str().unwrap(), instance.to_str().unwrap());
    let out = gamecert(&["reduce", "sat-voronoi1", f, "-o", i]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    instance
}

/// Runs a command that must fail with exit code 2 and a message containing `expected`.
pub fn bad_input(args: &[&str], expected: &str) {
    let out = gamecert(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert!(
        stderr(&out).contains(expected),
        "{args:?}: expected {expected:?} in {:?}",
        stderr(&out)
    );
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
}

/// Runs gamecert with `input` on standard input, written from a thread of its own so that a
/// command streaming its output while it reads cannot block on a full pipe.
pub fn gamecert_with_stdin(args: &[&str], input: Vec<u8>) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the gamecert binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, &input));
    let out = child.wait_with_output().expect("the gamecert binary runs");
    // A command that refuses its arguments exits without reading: the pipe may close first.
    if let Err(e) = writer.join().expect("the writer thread") {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    out
}

/// `text` compressed by each format, with the format's name.
pub fn compressed(text: &[u8]) -> [(&'static str, Vec<u8>); 3] {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    std::io::Write::write_all(&mut gz, text).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    std::io::Write::write_all(&mut bz, text).unwrap();
    let mut xz =
        lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
    std::io::Write::write_all(&mut xz, text).unwrap();
    [("gzip", gz.finish().unwrap()), ("bzip2", bz.finish().unwrap()), ("xz", xz.finish().unwrap())]
}

/// One run of a binary measured by [`measured`]: its exit code (`None` when a signal ended
/// it), the signal (0 for none), its peak resident memory in bytes, its standard error and
/// the seconds it took.
#[derive(Debug)]
pub struct Measured {
    pub code: Option<i32>,
    pub signal: i32,
    pub peak: u64,
    pub stderr: String,
    pub seconds: f64,
    /// Killed at the time limit.
    pub timed_out: bool,
}

/// The variable that makes this test binary the measuring child of [`measured`]: the fields
/// (the error file, the address-space limit in KiB, the time limit in seconds, the folder, the
/// binary and its arguments), separated by U+001F.
const MEASURE_ENV: &str = "GAMECERT_MEASURED_RUN";

/// Runs `binary args` in `dir` (standard input empty, standard output discarded) under an
/// address-space limit of `address_space_kib` (`ulimit -v`: an allocation past it is an abort
/// the result shows), killed after `limit`; its peak resident memory (the kernel's
/// `ru_maxrss`) is read by a fresh copy of this test binary that starts it and waits for it
/// with `wait4` ([`measuring_child`]): a process started from this one directly would inherit
/// this one's peak, which Linux keeps across `exec`.
pub fn measured(
    binary: &Path,
    args: &[&str],
    dir: &Path,
    address_space_kib: u64,
    limit: std::time::Duration,
) -> Measured {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let errors = dir.join(format!("measured-{}-{k}.err", std::process::id()));
    let (space, seconds) = (address_space_kib.to_string(), limit.as_secs().max(1).to_string());
    let mut fields = vec![
        errors.to_str().unwrap(),
        &space,
        &seconds,
        dir.to_str().unwrap(),
        binary.to_str().unwrap(),
    ];
    fields.extend_from_slice(args);
    let started = std::time::Instant::now();
    let child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "common::measuring_child", "--include-ignored", "--nocapture"])
        .args(["--test-threads=1", "--quiet"])
        .env(MEASURE_ENV, fields.join("\u{1f}"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&child.stdout);
    let stderr = std::fs::read_to_string(&errors).unwrap_or_default();
    let _ = std::fs::remove_file(&errors);
    let Some(line) = text.lines().find_map(|l| l.strip_prefix("@@MEASURED ")) else {
        panic!(
            "the measuring child printed no result: {text} {}",
            String::from_utf8_lossy(&child.stderr)
        )
    };
    let numbers: Vec<i64> = line.split(' ').map(|w| w.parse().unwrap()).collect();
    assert_ne!(numbers[0], 97, "ulimit -v failed");
    Measured {
        code: (numbers[0] >= 0).then_some(numbers[0] as i32),
        signal: numbers[1] as i32,
        peak: numbers[2] as u64,
        timed_out: numbers[3] == 1,
        stderr,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The measuring child of [`measured`] (only with its variable set): starts the binary under
/// the address-space limit, waits for it with `wait4` (killing it at the time limit) and
/// prints its exit code, its signal, its peak resident memory in bytes and whether it was
/// killed.
#[test]
#[ignore = "the measuring child of common::measured, started by it"]
// The child is reaped by wait4 below (for its rusage), which clippy cannot see.
#[allow(clippy::zombie_processes)]
fn measuring_child() {
    use std::process::Stdio;
    let fields = std::env::var(MEASURE_ENV).expect("started by common::measured");
    let mut fields = fields.split('\u{1f}');
    let errors = std::fs::File::create(fields.next().unwrap()).unwrap();
    let space = fields.next().unwrap();
    let seconds: u64 = fields.next().unwrap().parse().unwrap();
    let dir = fields.next().unwrap();
    let binary = fields.next().unwrap();
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {space} || exit 97; exec \"$0\" \"$@\""))
        .arg(binary)
        .args(fields)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(errors)
        .spawn()
        .expect("sh runs");
    let pid = child.id() as libc::pid_t;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    let (mut status, mut killed) = (0, false);
    // SAFETY: an all-zero rusage is a valid value for the kernel to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: the pid is our own child's, not yet waited for; both pointers are valid.
        let waited = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if waited == pid {
            break;
        }
        assert_eq!(waited, 0, "wait4 failed");
        if !killed && std::time::Instant::now() > deadline {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    let signal = if libc::WIFSIGNALED(status) { libc::WTERMSIG(status) } else { 0 };
    println!("@@MEASURED {code} {signal} {} {}", usage.ru_maxrss as u64 * 1024, u8::from(killed));
}

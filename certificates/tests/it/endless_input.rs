//! Issue 31, item 1: every reader of `gamecert-check` caps and charges as it reads. Each reader
//! (the LRAT proof, the formula, a JSON instance, a JSON certificate, a triangle-avoidance
//! certificate, a text instance) is given an endless stream — `/dev/zero` (newline-free
//! bytes), an endless run of `c` comment lines, an endless newline-free run of text — under an
//! address-space limit (`ulimit -v`, 1 GiB): it must end with exit 1 (rejected) or 2 (bad
//! input) and a message naming the limit it met, within a bounded time, never by a signal (an
//! allocation failure under the limit is SIGABRT).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address-space limit of the child, in KiB (1 GiB).
const MEMORY_KIB: u64 = 1 << 20;

/// What the child's standard input is.
#[derive(Clone, Copy, Debug)]
enum Feed {
    /// Nothing (the endless file is a path).
    None,
    /// `c\n` for ever.
    Comments,
    /// `1 2 3 ` for ever, no newline.
    NoNewline,
    /// Zero bytes for ever.
    Zeros,
}

fn dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gamecert-endless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gamecert-check args` under the memory limit with `feed` on standard input (written
/// from a thread until the child stops reading); the exit code and both outputs.
fn run(args: &[&str], feed: Feed) -> (Option<i32>, String) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KIB} || exit 97; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_gamecert-check"))
        .args(args)
        .stdin(if matches!(feed, Feed::None) { Stdio::null() } else { Stdio::piped() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let writer = child.stdin.take().map(|mut stdin| {
        std::thread::spawn(move || {
            let chunk: Vec<u8> = match feed {
                Feed::Comments => b"c\n".repeat(1 << 15),
                Feed::NoNewline => b"1 2 3 ".repeat(1 << 14),
                _ => vec![0; 1 << 16],
            };
            // Ends when the child closes its end (a broken pipe): the stream is bounded by the
            // child, not by this loop.
            while stdin.write_all(&chunk).is_ok() {}
        })
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("gamecert-check {args:?} with {feed:?} still runs after 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if let Some(writer) = writer {
        writer.join().unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_ne!(status.code(), Some(97), "ulimit -v failed");
    (status.code(), text)
}

/// Asserts an exit with `code` and a message holding `needle`.
fn ends(args: &[&str], feed: Feed, code: i32, needle: &str) {
    let (got, text) = run(args, feed);
    assert_eq!(got, Some(code), "gamecert-check {args:?} with {feed:?}: {text}");
    assert!(text.contains(needle), "gamecert-check {args:?} with {feed:?}: {text}");
}

#[test]
fn endless_proofs_are_refused_within_memory() {
    let dir = dir();
    // No line of the proof is held: an endless run of zeros is one token, refused at once; an
    // endless line of numbers is read a token at a time (here refused at its first id).
    let mut text = "c a comment line of the formula, padded to some length\n".repeat(55_000);
    text.push_str("p cnf 2 2\n1 0\n-1 0\n");
    let formula = dir.join("comments.cnf");
    std::fs::write(&formula, text).unwrap();
    let f = formula.to_str().unwrap();
    let long_token = "a token longer than 24 bytes";
    ends(&["lrat", f, "/dev/zero"], Feed::None, 1, long_token);
    ends(&["lrat", f, "-"], Feed::Zeros, 1, long_token);
    ends(&["lrat", f, "-"], Feed::NoNewline, 1, "is not greater than the largest earlier id 2");
    // Comment lines are charged: an endless run of them ends at the budget (not checked, exit
    // 3: nothing wrong was found, nothing established).
    ends(
        &["lrat", "--max-work", "100000000", f, "-"],
        Feed::Comments,
        3,
        "work limit reached while reading the LRAT proof",
    );
    // The formula itself from an endless stream: capped as it is read (bad input).
    let proof = dir.join("p.lrat");
    std::fs::write(&proof, "3 0 1 2 0\n").unwrap();
    let p = proof.to_str().unwrap();
    let capped = "holds more than 31250000 bytes";
    ends(&["lrat", "/dev/zero", p], Feed::None, 2, capped);
    ends(&["lrat", "-", p], Feed::Comments, 2, capped);
    ends(&["lrat", "-", p], Feed::NoNewline, 2, capped);
}

#[test]
fn endless_instances_and_certificates_are_refused_within_memory() {
    let dir = dir();
    let heaps = dir.join("heaps.json");
    std::fs::write(
        &heaps,
        r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles", "heaps": [1]}"#,
    )
    .unwrap();
    let triangle = dir.join("triangle.json");
    std::fs::write(
        &triangle,
        r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 3}"#,
    )
    .unwrap();
    let (h, t) = (heaps.to_str().unwrap(), triangle.to_str().unwrap());
    let capped = "holds more than 31250000 bytes";
    for feed in [Feed::Comments, Feed::NoNewline, Feed::Zeros] {
        // The instance (JSON, edge list or DNF text: all read whole, capped) and the
        // certificate (JSON, or a triangle-avoidance certificate, whose first bytes decide).
        ends(&["-", h], feed, 2, capped);
        ends(&[h, "-"], feed, 2, capped);
        ends(&[t, "-"], feed, 2, capped);
    }
    ends(&["/dev/zero", h], Feed::None, 2, capped);
    ends(&[h, "/dev/zero"], Feed::None, 2, capped);
    ends(&[t, "/dev/zero"], Feed::None, 2, capped);
    // A larger --max-work raises the cap with it; the bytes are still charged.
    ends(&["--max-work", "6400000", h, "-"], Feed::Zeros, 2, "holds more than 100000 bytes");
}

/// A sparse file (100 GB long, almost nothing on disk) is paid for by what it takes on disk, not
/// by its length: it is refused at once, never read to its end or reserved whole (a reservation
/// of its length used to abort the process).
#[test]
fn sparse_files_are_refused_by_what_they_hold_on_disk() {
    use std::os::unix::fs::MetadataExt;
    let dir = dir();
    let sparse = dir.join("sparse.json");
    let file = std::fs::File::create(&sparse).unwrap();
    file.set_len(100 << 30).unwrap();
    if file.metadata().unwrap().blocks() > 1 << 12 {
        eprintln!("skipped: this file system does not keep {} sparse", sparse.display());
        return;
    }
    let s = sparse.to_str().unwrap();
    let small = dir.join("small.cnf");
    std::fs::write(&small, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    let f = small.to_str().unwrap();
    let heaps = dir.join("sparse-heaps.json");
    std::fs::write(
        &heaps,
        r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles", "heaps": [1]}"#,
    )
    .unwrap();
    let h = heaps.to_str().unwrap();
    let started = Instant::now();
    for args in [[h, s], [s, h]] {
        ends(&args, Feed::None, 2, "holds more than");
    }
    ends(&["lrat", s, f], Feed::None, 2, "holds more than");
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    std::fs::remove_file(&sparse).unwrap();
}

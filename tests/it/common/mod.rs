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

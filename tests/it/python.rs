//! The Python package's tests, run from the Rust suite so that the README's one test command
//! covers them: a fresh virtual environment, `pip install ./python` (maturin, pytest, networkx
//! and the notebook runner from PyPI), then pytest on `python/tests` (which also executes
//! `examples/tour.ipynb`). The extension is compiled into this workspace's own target folder,
//! so what the release build compiled is reused (python/ is a workspace member; its features
//! are the release build's, tests/it/build_once.rs). Without python3 or its venv module the
//! test says why and passes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The target folder this test binary was built in (`target/release/deps/it-...` is three
/// levels below it).
fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.ancestors().nth(3).expect("the binary lies in TARGET/PROFILE/deps").to_path_buf()
}

/// Runs `command`, panicking with its output if it fails.
fn run(command: &mut Command, what: &str) -> String {
    let out = command.output().unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} failed ({}):\n{text}", out.status);
    text
}

#[test]
fn the_python_package_installs_and_its_tests_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let usable = Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .output()
        .is_ok_and(|out| out.status.success());
    if !usable {
        eprintln!("skipped: python3 with its venv and ensurepip modules is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    run(Command::new("python3").arg("-m").arg("venv").arg(&venv), "python3 -m venv");
    let started = std::time::Instant::now();
    run(
        Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .arg(root.join("python"))
            .args(["pytest", "networkx", "nbclient", "nbformat", "ipykernel"])
            .env("CARGO_TARGET_DIR", target_dir()),
        "pip install ./python",
    );
    eprintln!("pip install ./python: {:.0} s", started.elapsed().as_secs_f64());
    // From the repository root: `python/tests` imports the installed package, not the sources.
    let report = run(
        Command::new(venv.join("bin/pytest"))
            .args(["-q", "-p", "no:cacheprovider"])
            .arg(root.join("python/tests"))
            .current_dir(root),
        "pytest python/tests",
    );
    eprintln!("{report}");
    assert!(report.contains(" passed"), "{report}");
    assert!(!report.contains("skipped"), "every Python test runs here:\n{report}");
}

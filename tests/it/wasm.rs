//! The checker built for WebAssembly (issue 48) gives the native verdicts: `node wasm/run.mjs`
//! on target/wasm/gamecert-checker.wasm (scripts/build-wasm) prints what `gamecert verify`
//! prints and exits with its code, on the demo's cases and on tampered, bad, binary
//! (`GCVALUE1`, `GCREFUT1`) and budget-limited pairs.
//!
//! `.ci/run` installs the toolchain and node and builds the module, so CI always runs this
//! test (with `CI` set, a missing module or node fails it); a local run without them says
//! that the test was skipped and why.

use crate::common::{gamecert, stderr, stdout, write};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The module and node, or why the test cannot run.
fn tools() -> Result<PathBuf, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = root.join("target/wasm/gamecert-checker.wasm");
    if !module.exists() {
        return Err(format!("{} is missing (scripts/build-wasm builds it)", module.display()));
    }
    match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(module),
        _ => Err("node is not on PATH (apt-get install nodejs)".into()),
    }
}

/// A run's exit code, standard output (JSON's `seconds` left out) and standard error.
type Run = (Option<i32>, String, String);

fn shown(out: &std::process::Output) -> Run {
    let mut text = stdout(out);
    if text.starts_with('{') {
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json.as_object_mut().unwrap().remove("seconds");
        text = json.to_string();
    }
    (out.status.code(), text, stderr(out))
}

/// `gamecert verify` and the module through node on the same arguments.
fn both(module: &Path, args: &[&str]) -> (Run, Run) {
    let mut verify = vec!["verify", "-q"];
    verify.extend(args);
    let native = shown(&gamecert(&verify));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let node = Command::new("node")
        .arg(root.join("wasm/run.mjs"))
        .args(args)
        .env("GAMECERT_WASM", module)
        .output()
        .expect("node runs");
    (native, shown(&node))
}

fn same(module: &Path, args: &[&str]) -> Run {
    let (native, wasm) = both(module, args);
    assert_eq!(wasm, native, "{args:?}: the WebAssembly checker differs from gamecert verify");
    native
}

/// The demo's pairs (instance, certificate), as `gamecert demo --out` writes them.
fn demo_pairs(dir: &Path) -> Vec<(String, String)> {
    let out = gamecert(&["demo", "-q", "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Some(stem) = name.strip_suffix(".cert.json") else { continue };
        let instance = ["instance.json", "dnf"]
            .iter()
            .map(|ext| dir.join(format!("{stem}.{ext}")))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("no instance for {name}"));
        pairs.push((instance.display().to_string(), path.display().to_string()));
    }
    pairs.sort();
    pairs
}

#[test]
fn the_webassembly_checker_gives_the_native_verdicts() {
    let module = match tools() {
        Ok(module) => module,
        Err(why) if std::env::var_os("CI").is_some() => {
            panic!("CI runs the WebAssembly test, and {why}: .ci/run builds it")
        }
        Err(why) => {
            eprintln!("WebAssembly test skipped: {why}");
            return;
        }
    };
    let dir = tempfile::tempdir().unwrap();
    let pairs = demo_pairs(dir.path());
    assert!(pairs.len() >= 20, "{pairs:?}");
    for (instance, certificate) in &pairs {
        let (code, ..) = same(&module, &[instance, certificate]);
        assert_eq!(code, Some(0), "{certificate}");
    }
    // JSON output, and a budget too small to decide (not checked, exit 3).
    let (instance, certificate) = &pairs[0];
    same(&module, &["--json", instance, certificate]);
    let (code, ..) = same(&module, &["--max-work", "50", instance, certificate]);
    assert_eq!(code, Some(3));
    same(&module, &["--json", "--max-work", "50", instance, certificate]);

    // A tampered certificate: a claim changed (rejected, or bad input where the claim is
    // checked as it is read), every pair of the demo.
    let mut rejected = 0;
    for (k, (instance, certificate)) in pairs.iter().enumerate() {
        let text = std::fs::read_to_string(certificate).unwrap();
        let tampered = text
            .replacen("first-player-wins", "second-player-wins", 1)
            .replacen("black-wins", "black-cannot-win", 1)
            .replacen("\"first\"", "\"second\"", 1);
        if tampered == text {
            continue;
        }
        let path = write(dir.path(), &format!("tampered{k}.json"), &tampered);
        let (code, ..) = same(&module, &[instance, path.to_str().unwrap()]);
        rejected += usize::from(code == Some(1));
    }
    assert!(rejected >= 3, "{rejected} tampered certificates rejected");

    // Bad input: garbage, an empty file, a certificate of another game.
    let garbage = write(dir.path(), "garbage.json", "\u{0}\u{1}not json at all");
    let empty = write(dir.path(), "empty.json", "");
    for bad in [&garbage, &empty] {
        let (code, ..) = same(&module, &[instance, bad.to_str().unwrap()]);
        assert_eq!(code, Some(2));
        same(&module, &["--json", instance, bad.to_str().unwrap()]);
        let (code, ..) = same(&module, &[bad.to_str().unwrap(), certificate]);
        assert_eq!(code, Some(2));
    }
    let (other_instance, other_certificate) = &pairs[pairs.len() - 1];
    same(&module, &[instance, other_certificate]);
    same(&module, &[other_instance, certificate]);

    // GCVALUE1: every demo certificate that has a binary form, converted.
    let mut binary = 0;
    for (k, (instance, certificate)) in pairs.iter().enumerate() {
        let path = dir.path().join(format!("binary{k}.gcv"));
        let out =
            gamecert(&["convert", certificate, "-o", path.to_str().unwrap(), "--to", "binary"]);
        if out.status.code() != Some(0) {
            continue;
        }
        assert!(std::fs::read(&path).unwrap().starts_with(b"GCVALUE1"));
        let (code, ..) = same(&module, &[instance, path.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{certificate} in binary");
        // One byte changed near the end: refused or still true, as natively.
        let mut bytes = std::fs::read(&path).unwrap();
        let at = bytes.len() - 2;
        bytes[at] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        same(&module, &[instance, path.to_str().unwrap()]);
        binary += 1;
    }
    assert!(binary >= 5, "{binary} binary certificates");

    // GCREFUT1: a one-round refutation, as `solve` writes it; and cut short.
    let cnf = write(dir.path(), "f.cnf", "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n");
    let (inst, cert) = (dir.path().join("f.json"), dir.path().join("f.refutation"));
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&["reduce", "sat-voronoi2", cnf.to_str().unwrap(), "-o", i]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let bytes = std::fs::read(&cert).unwrap();
    assert!(bytes.starts_with(b"GCREFUT1"));
    let (code, ..) = same(&module, &[i, c]);
    assert_eq!(code, Some(0));
    same(&module, &["--json", i, c]);
    let cut = dir.path().join("cut.refutation");
    std::fs::write(&cut, &bytes[..bytes.len() * 3 / 4]).unwrap();
    let (code, ..) = same(&module, &[i, cut.to_str().unwrap()]);
    assert_ne!(code, Some(0));
}

//! Every example of the README runs (issue 17, item 8): each `sh` block, line by line, in one
//! scratch directory with `gamecert` on the PATH, must exit 0; every `verify` must accept. The
//! set-up block (the cargo commands) is the one block left out: it is what runs this test.

use std::process::Command;

/// The README's `sh` blocks, each as its command lines (comments and blank lines dropped).
fn examples() -> Vec<Vec<String>> {
    let readme = include_str!("../../README.md");
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in readme.lines() {
        match (&mut current, line.trim_end()) {
            (None, "```sh") => current = Some(Vec::new()),
            (Some(_), "```") => blocks.extend(current.take()),
            (Some(block), text) if !text.trim().is_empty() && !text.starts_with('#') => {
                block.push(text.to_string())
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn every_readme_example_runs() {
    let blocks = examples();
    assert!(blocks.len() >= 6, "the README lost its examples: {blocks:?}");
    let dir = tempfile::tempdir().unwrap();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_gamecert")).parent().unwrap().to_owned();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for block in blocks.iter().filter(|b| !b[0].starts_with("cargo ")) {
        for line in block {
            let out = Command::new("bash")
                .args(["-o", "pipefail", "-c", line])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            let (stdout, stderr) =
                (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(out.status.success(), "README: `{line}` failed: {stderr}");
            if line.contains("gamecert verify") {
                assert!(stdout.contains("ACCEPTED"), "README: `{line}`: {stdout}");
            }
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran} commands");
    assert!(dir.path().join("k3.svg").exists() && dir.path().join("fan.svg").exists());
}

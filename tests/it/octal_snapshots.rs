//! Snapshot of `gamecert table kayles --n 84` (seed 000, Table 2), without its timing line.

use std::process::Command;

#[test]
fn kayles_table() {
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["table", "kayles", "--n", "84"])
        .output()
        .expect("the gamecert binary runs");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    let shown: Vec<&str> = text.lines().filter(|l| !l.starts_with("time:")).collect();
    insta::assert_snapshot!(shown.join("\n"));
}

//! `gamecert verify` and the stand-alone `gamecert-check` are one pipeline
//! (`gamecert_certificates::verify`): the same formats (JSON, DNF text, edge list), the same
//! messages, the same flags and the same exit codes. Each case here runs both binaries and
//! compares everything they print.

use crate::common;

use common::write;
use std::process::{Command, Output};

fn both(args: &[&str]) -> (Output, Output) {
    let verify =
        Command::new(env!("CARGO_BIN_EXE_gamecert")).arg("verify").args(args).output().unwrap();
    let check = Command::new(crate::common::gamecert_check_binary()).args(args).output().unwrap();
    (verify, check)
}

/// Runs both, checks they agree, returns (exit code, stdout, stderr).
fn agree(args: &[&str]) -> (i32, String, String) {
    let (a, b) = both(args);
    // Everything but the wall time must agree.
    let text = |o: &Output| {
        let stdout = String::from_utf8_lossy(&o.stdout);
        let timeless: Vec<&str> =
            stdout.lines().filter(|l| !l.trim_start().starts_with("\"seconds\"")).collect();
        (
            o.status.code().unwrap_or(-1),
            timeless.join("\n"),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (a, b) = (text(&a), text(&b));
    assert_eq!(a, b, "gamecert verify and gamecert-check differ on {args:?}");
    assert!(!a.2.contains("panicked"), "{}", a.2);
    a
}

const INSTANCE: &str = r#""format": "gamecert-instance", "version": 1"#;
const CERTIFICATE: &str = r#""format": "gamecert-certificate", "version": 1"#;

#[test]
fn both_binaries_read_the_same_formats_and_answer_alike() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An edge list: W on b of the path a - b - c - d - e; B's c wins 3 to 2.
    let edges = write(d, "path.txt", "white b\nblack 1\na b\nb c\nc d\nd e\n");
    let wins = write(
        d,
        "wins.json",
        &format!(
            r#"{{{CERTIFICATE}, "kind": "witness", "claim": "black-wins", "placement": ["c"]}}"#
        ),
    );
    let loses = write(
        d,
        "loses.json",
        &format!(
            r#"{{{CERTIFICATE}, "kind": "witness", "claim": "black-wins", "placement": ["a"]}}"#
        ),
    );
    let (code, out, _) = agree(&[edges.to_str().unwrap(), wins.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("ACCEPTED (claim: B wins the one-round game): "), "{out}");
    let (code, out, _) = agree(&[edges.to_str().unwrap(), loses.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    assert!(out.contains("\"verdict\": \"rejected\""), "{out}");
    // A positive DNF in text: the first player takes 1 and wins the term x1.
    let dnf = write(d, "one.dnf", "p dnf 2 1\n1\n");
    let first = write(
        d,
        "first.json",
        &format!(
            r#"{{{CERTIFICATE}, "kind": "dnf-strategy", "player": "first", "claim": "wins", "moves": [["..", 1]]}}"#
        ),
    );
    let (code, out, _) = agree(&[dnf.to_str().unwrap(), first.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    // The budget: too small a one is not checked (exit 3), naming the limit.
    let (code, out, _) =
        agree(&[dnf.to_str().unwrap(), first.to_str().unwrap(), "--max-work", "10"]);
    assert_eq!(code, 3);
    assert!(out.starts_with("NOT CHECKED (claim: "), "{out}");
    assert!(out.contains("work limit reached"), "{out}");
    // Bad input: exit 2, the file and the line named.
    let broken = write(d, "broken.dnf", "p dnf 2 1\n1 -2\n");
    let (code, _, err) = agree(&[broken.to_str().unwrap(), first.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("broken.dnf:2:3"), "{err}");
    let bad = write(
        d,
        "bad.json",
        &format!(
            r#"{{{INSTANCE}, "kind": "voronoi", "graph": {{"vertices": ["a"], "edges": []}}, "rounds": 9223372036854775808}}"#
        ),
    );
    let (code, _, err) = agree(&[bad.to_str().unwrap(), first.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.json: ") && err.contains("rounds"), "{err}");
    let (code, _, err) = agree(&[edges.to_str().unwrap(), "missing.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.json"), "{err}");
}

/// An instance is exactly its file: `solve`, `verify` and `gamecert-check` refuse a field the
/// kind does not know alike (bad input, exit 2, the field and the known ones named), and a
/// certificate with one is bad input too, also with `--json` (the error on standard error).
#[test]
fn an_unknown_field_is_bad_input_for_solve_verify_and_gamecert_check() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let path = |rounds: &str| {
        format!(
            r#"{{{INSTANCE}, "kind": "voronoi", "graph": {{"vertices": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"], ["a", "c"]]}}, {rounds}}}"#
        )
    };
    let good = write(d, "good.json", &path(r#""rounds": 1"#));
    let cert = d.join("good.cert.json");
    let out =
        common::gamecert(&["solve", "-q", good.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let roundz = write(d, "roundz.json", &path(r#""rounds": 1, "roundz": 5"#));
    let named = "roundz.json:1:173: the instance does not parse: unknown field `roundz`, expected one of `graph`, `rounds`, \
                 `start`, `source`";
    common::bad_input(&["solve", roundz.to_str().unwrap()], named);
    let (code, out, err) = agree(&[roundz.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains(named), "{err}");
    // A nested object: the start position.
    let strat = write(
        d,
        "start.json",
        &path(r#""rounds": 1, "start": {"white": ["a"], "black": [], "blak": ["c"]}"#),
    );
    let (code, _, err) = agree(&[strat.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown field `blak`, expected `white` or `black`"), "{err}");
    // The certificate: bad input, not a rejection, with or without --json.
    let text = std::fs::read_to_string(&cert).unwrap();
    let misspelt = write(d, "misspelt.json", &text.replacen("\"moves\"", "\"move\"", 1));
    for json in [&[][..], &["--json"]] {
        let args = [&[good.to_str().unwrap(), misspelt.to_str().unwrap()][..], json].concat();
        let (code, out, err) = agree(&args);
        assert_eq!(code, 2, "{err}");
        // With --json the same message is a `bad-input` output on standard output too.
        assert_eq!(out.is_empty(), json.is_empty(), "{out}");
        assert!(err.contains("misspelt.json:"), "{err}");
        assert!(err.contains("unknown field `move`, expected one of `player`, `claim`"), "{err}");
    }
}

#[test]
fn gamecert_check_answers_help_and_version() {
    for flag in ["--help", "-h"] {
        let out = Command::new(crate::common::gamecert_check_binary()).arg(flag).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("usage: gamecert-check"));
    }
    let out =
        Command::new(crate::common::gamecert_check_binary()).arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("gamecert-check 0."));
    for args in [&["one.json"][..], &["--frob", "a", "b"], &["a", "b", "--max-work", "x"]] {
        let out = Command::new(crate::common::gamecert_check_binary()).args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage: gamecert-check"));
    }
}

/// Issue 25: `gamecert-check verify I C` is `gamecert verify I C`, and both report bad input
/// under `--json` as the one JSON shape (verdict `bad-input`) besides the message on stderr.
#[test]
fn gamecert_check_takes_verify_and_reports_bad_input_as_json() {
    let dir = tempfile::tempdir().unwrap();
    let edges = write(dir.path(), "path.txt", "white b\nblack 1\na b\nb c\nc d\nd e\n");
    let wins = write(
        dir.path(),
        "wins.json",
        &format!(
            r#"{{{CERTIFICATE}, "kind": "witness", "claim": "black-wins", "placement": ["c"]}}"#
        ),
    );
    let (edges, wins) = (edges.to_str().unwrap(), wins.to_str().unwrap());
    let check = Command::new(crate::common::gamecert_check_binary())
        .args(["verify", edges, wins])
        .output()
        .unwrap();
    let verify = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["verify", edges, wins])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", String::from_utf8_lossy(&check.stderr));
    assert_eq!(check.stdout, verify.stdout);
    let truncated = write(dir.path(), "cut.json", &format!("{{{CERTIFICATE}, \"kind\""));
    let (code, out, err) = agree(&[edges, truncated.to_str().unwrap(), "--json"]);
    assert_eq!(code, 2, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["verdict"], "bad-input");
    assert!(err.contains("cut.json:1:") && err.contains("the certificate does not parse"), "{err}");
}

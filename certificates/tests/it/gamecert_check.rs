//! The stand-alone `gamecert-check` binary: exit codes 0 accepted, 1 rejected, 2 bad input.
//!
//! The files are built here with the checker's own construction, so this test needs nothing
//! but the checker crate.

use gamecert_certificates::format::{
    Certificate, GraphSpec, Instance, OneRoundSpec, Refutation, RefutationMethod, Witness,
};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::sat_reduction::{build, SatVoronoi};
use std::process::Command;

fn run(instance: &str, certificate: &str) -> (Option<i32>, String) {
    // A folder per call: the tests of this binary run in parallel in one process.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("gamecert-check-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (i, c) = (dir.join("i.json"), dir.join("c.json"));
    std::fs::write(&i, instance).unwrap();
    std::fs::write(&c, certificate).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert-check"))
        .args([i.to_str().unwrap(), c.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.code(), text)
}

fn instance_of(formula: &Cnf, problem: SatVoronoi) -> Instance {
    let built = build(formula, problem).unwrap();
    Instance::VoronoiOneRound(OneRoundSpec {
        graph: GraphSpec { vertices: built.vertices, edges: built.edges },
        white: built.white,
        black_count: built.black_count,
        source: None,
    })
}

/// x1 and not x1 (unsatisfiable) as a sat-voronoi1 instance, and its refutation certificates by
/// LRAT text (`3 0 1 2 0` resolves the two unit clauses).
fn contradiction() -> (String, impl Fn(&str) -> String) {
    let formula = Cnf { num_vars: 1, clauses: vec![vec![1], vec![-1]] };
    let inst = instance_of(&formula, SatVoronoi::Problem1).to_json();
    let refutation = move |lrat: &str| {
        Certificate::Refutation(Refutation {
            claim: "black-cannot-win".into(),
            method: RefutationMethod::Reduction {
                reduction: SatVoronoi::Problem1,
                formula: formula.clone(),
            },
            lrat: lrat.into(),
        })
        .to_json()
    };
    (inst, refutation)
}

#[test]
fn accepts_and_rejects_with_the_right_exit_codes() {
    let (inst, refutation) = contradiction();
    let (code, text) = run(&inst, &refutation("3 0 1 2 0\n"));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("ACCEPTED") && text.contains("Theorem 3"), "{text}");
    let (code, text) = run(&inst, &refutation("3 0 1 0\n"));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("LRAT line 1"), "{text}");
    // A certificate that does not parse is bad input, with its file, line and column.
    let (code, text) = run(&inst, "{\"format\": ");
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("c.json:1:11: the certificate does not parse: EOF while"), "{text}");
    let misspelt = refutation("3 0 1 2 0\n").replace("\"lrat\"", "\"lrta\"");
    let (code, text) = run(&inst, &misspelt);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("unknown field `lrta` for method `reduction`"), "{text}");
    assert!(text.contains("expected one of `claim`, `method`, `reduction`, `formula`, `lrat`"));
    let (code, text) = run("not json", &refutation("3 0 1 2 0\n"));
    assert_eq!(code, Some(2), "{text}");

    // A satisfiable formula and its witness.
    let formula = Cnf { num_vars: 2, clauses: vec![vec![1, 2], vec![-1]] };
    let inst = instance_of(&formula, SatVoronoi::Problem2).to_json();
    let witness = |placement: &[&str]| {
        Certificate::Witness(Witness {
            claim: "black-wins".into(),
            placement: placement.iter().map(|s| s.to_string()).collect(),
        })
        .to_json()
    };
    let (code, text) = run(&inst, &witness(&["x1-", "x2+"]));
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&inst, &witness(&["x1-", "x2-"]));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("does not win"), "{text}");
}

/// Issue 31, item 6: the verdict and the claim apart, so that a rejected claim never reads as a
/// statement; the SAT world's status line under `lrat`; the flags `gamecert verify` takes.
#[test]
fn verdicts_keep_the_claim_apart() {
    let (inst, refutation) = contradiction();
    let (code, text) = run(&inst, &refutation("3 0 1 2 0\n"));
    assert_eq!(code, Some(0), "{text}");
    let claim = "(claim: B cannot win the one-round game)";
    assert!(text.starts_with(&format!("ACCEPTED {claim}: the instance is")), "{text}");
    let (code, text) = run(&inst, &refutation("3 0 1 0\n"));
    assert_eq!(code, Some(1), "{text}");
    assert!(text.starts_with(&format!("REJECTED {claim}: the LRAT proof fails")), "{text}");

    let dir = std::env::temp_dir().join(format!("gamecert-check-lrat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cnf = dir.join("f.cnf");
    std::fs::write(&cnf, "p cnf 1 2\n1 0\n-1 0\n").unwrap();
    for (proof, code, first, last) in [
        ("3 0 1 2 0\n", 0, "ACCEPTED (claim: the formula is unsatisfiable): ", "s VERIFIED"),
        ("3 0 1 0\n", 1, "REJECTED (claim: the formula is unsatisfiable): ", "s NOT VERIFIED"),
    ] {
        let lrat = dir.join("f.lrat");
        std::fs::write(&lrat, proof).unwrap();
        for quiet in ["-q", "--quiet"] {
            let out = Command::new(env!("CARGO_BIN_EXE_gamecert-check"))
                .args(["lrat", quiet, cnf.to_str().unwrap(), lrat.to_str().unwrap()])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            assert_eq!(out.status.code(), Some(code), "{text}");
            assert!(text.starts_with(first), "{text}");
            assert_eq!(text.lines().last(), Some(last), "{text}");
            assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A name from a file never reaches the terminal raw: a `\r` or an escape sequence in it could
/// overwrite `REJECTED` with a forged `ACCEPTED` on the screen. Verdicts and bad-input messages
/// print control characters as escapes, one line each.
#[test]
fn control_characters_from_files_are_printed_as_escapes() {
    let (inst, _) = contradiction();
    let forged = "\rACCEPTED (claim: black-wins): B wins\u{1b}[K\nACCEPTED";
    let witness = Certificate::Witness(Witness {
        claim: "black-wins".into(),
        placement: vec![forged.to_string()],
    })
    .to_json();
    let (code, text) = run(&inst, &witness);
    assert_eq!(code, Some(1), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("REJECTED (claim: B wins the one-round game): "), "{text}");
    assert!(text.contains("\\rACCEPTED"), "{text}");
    assert!(text.contains("\\u{1b}[K\\nACCEPTED"), "{text}");
    assert!(!text.contains(['\r', '\u{1b}']), "{text:?}");
    // Bad input quoting a name: the message is escaped too.
    let bad = r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
        "graph": {"vertices": ["a", "b"], "edges": [["a", "b"]]},
        "white": ["\r\u001b[2JACCEPTED"], "black_count": 1}"#;
    let (code, text) = run(bad, &witness);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("\\r\\u{1b}[2JACCEPTED"), "{text}");
    assert!(!text.contains(['\r', '\u{1b}']), "{text:?}");
}

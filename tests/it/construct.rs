//! The games of seed 000 with scores or ties on the command line: 2.1.1 (Theorem 3), 2.1.3,
//! 2.1.4, 2.3.2 (Theorem 6, Lemma 4): solve and verify round trips, bad input, mutated
//! certificates, and the `table bichromatic-construct` snapshot.

use crate::common;

use common::{bad_input, gamecert, stderr, stdout, write};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance};
use serde_json::Value;
use std::path::Path;

/// `gen triangulation` with `--game`, then `solve --json`: the summary.
fn gen_and_solve(dir: &Path, name: &str, gen: &[&str], solve: &[&str]) -> (String, String, Value) {
    let inst = dir.join(format!("{name}.json"));
    let cert = dir.join(format!("{name}.cert.json"));
    let (i, c) = (inst.to_str().unwrap().to_string(), cert.to_str().unwrap().to_string());
    let mut args = vec!["gen", "triangulation"];
    args.extend_from_slice(gen);
    args.extend_from_slice(&["-o", &i]);
    let out = gamecert(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut args = vec!["solve", &i, "-o", &c, "--json"];
    args.extend_from_slice(solve);
    let out = gamecert(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let out = gamecert(&["verify", &i, &c]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    (i, c, summary)
}

fn read_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Writes `json` to `cert` and expects `verify` to reject it (exit 1) saying `expected`.
fn rejected(i: &str, cert: &str, json: &Value, expected: &str) {
    std::fs::write(cert, json.to_string()).unwrap();
    let out = gamecert(&["verify", i, cert]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains(expected), "expected {expected:?} in {}", stdout(&out));
}

/// Theorem 3 on 6 points in convex position: `solve` takes Lemmas 2 and 3 (a tie, both
/// strategies); a move changed to a drawn segment, a missing move and an overclaimed bound
/// are each rejected, naming the position.
#[test]
fn theorem_3_round_trip_and_mutations() {
    let dir = tempfile::tempdir().unwrap();
    let (i, c, summary) = gen_and_solve(
        dir.path(),
        "m6",
        &["--kind", "convex", "--points", "6", "--game", "monochromatic-complete-triangulation"],
        &[],
    );
    assert!(summary["method"].as_str().unwrap().contains("Theorem 3"), "{summary}");
    assert!(summary["claim"].as_str().unwrap().contains("is 0"), "{summary}");
    assert_eq!(read_json(&i).get("triangles"), None, "points only");
    let cert = read_json(&c);
    // R's first move is the halving diagonal; answer B's reply with that diagonal again.
    let mut wrong = cert.clone();
    let moves = wrong["first"]["moves"].as_array_mut().unwrap();
    let first_edge = moves[0][1].clone();
    let later = moves.iter_mut().find(|m| m[0] != "0").expect("a later move");
    let position = later[0].as_str().unwrap().to_string();
    later[1] = first_edge;
    rejected(&i, &c, &wrong, &format!("at position {position}: edge"));
    let mut missing = cert.clone();
    let gone = missing["second"]["moves"].as_array_mut().unwrap().remove(0);
    rejected(&i, &c, &missing, &format!("no move at position {}", gone[0].as_str().unwrap()));
    let mut over = cert;
    over["first"]["at_least"] = 1.into();
    rejected(&i, &c, &over, "guarantees only 0 < 1: B reaches final position");
}

/// 2.3.2 with two inner points: Theorem 6's certificate (B does not lose), the exact one,
/// and Lemma 4's colouring, which the checker accepts; one letter flipped is rejected.
#[test]
fn bichromatic_coloring_theorem_6_and_lemma_4() {
    let dir = tempfile::tempdir().unwrap();
    let gen = [
        "--kind",
        "points",
        "--points",
        "7",
        "--inner",
        "2",
        "--seed",
        "3",
        "--game",
        "bichromatic-coloring",
    ];
    let (i, _, summary) = gen_and_solve(dir.path(), "c", &gen, &[]);
    assert!(summary["method"].as_str().unwrap().contains("Theorem 6"), "{summary}");
    assert!(
        summary["claim"].as_str().unwrap().contains("the second player does not lose"),
        "{summary}"
    );
    let (_, _, exact) = gen_and_solve(dir.path(), "c", &gen, &["--method", "exact"]);
    assert!(exact["method"].as_str().unwrap().contains("exact"), "{exact}");
    let Instance::MarkingGame(spec) =
        Instance::from_json(&std::fs::read_to_string(&i).unwrap()).unwrap()
    else {
        panic!("a marking-game instance")
    };
    let cert = dir.path().join("lemma4.json");
    let c = cert.to_str().unwrap();
    let out = gamecert(&["solve", &i, "--method", "lemma4", "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("Lemma 4"), "{}", stderr(&out));
    let Ok(Certificate::BalancedColouring(colouring)) =
        Certificate::from_json(&std::fs::read_to_string(&cert).unwrap())
    else {
        panic!("a balanced-colouring certificate")
    };
    let out = gamecert(&["verify", &i, c]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("Lemma 4"), "{}", stdout(&out));
    // Colour the first face's three edges red: the face is monochromatic (and the counts may
    // be off balance, which the checker tests first).
    let rules = gamecert_certificates::triangulations::marking::Rules::from_spec(
        &spec,
        &mut Budget::new(u64::MAX),
    )
    .unwrap();
    let face = rules.targets()[0];
    let mutated: String = colouring
        .colours
        .chars()
        .enumerate()
        .map(|(k, ch)| if face >> k & 1 == 1 { 'r' } else { ch })
        .collect();
    let r = mutated.chars().filter(|&ch| ch == 'r').count();
    let mut bad = read_json(c);
    bad["colours"] = Value::String(mutated.clone());
    rejected(
        &i,
        c,
        &bad,
        if r.abs_diff(mutated.len() - r) > 1 { "not balanced" } else { "monochromatic" },
    );
}

/// 2.1.3, 2.1.4 and the play-on reading on 5 convex points: solved exactly, certified.
#[test]
fn bichromatic_constructing_games_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for game in [
        "bichromatic-complete-triangulation",
        "bichromatic-triangle",
        "bichromatic-triangle-play-on",
    ] {
        let (_, c, summary) = gen_and_solve(
            dir.path(),
            game,
            &["--kind", "convex", "--points", "5", "--game", game],
            &[],
        );
        assert!(summary["method"].as_str().unwrap().contains("exact"), "{summary}");
        assert_eq!(read_json(&c)["kind"], "construct-strategy");
    }
}

/// Bad input: collinear points, broken JSON (line and column), a construct certificate for
/// a win/lose game, a table size out of range: exit 2 (or 1 for the mismatched certificate)
/// with the file named.
#[test]
fn bad_input_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let collinear = write(
        dir.path(),
        "collinear.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "marking-game",
  "game": "bichromatic-triangle", "points": [[0, 0], [1, 1], [2, 2], [0, 5]]}"#,
    );
    bad_input(&["solve", collinear.to_str().unwrap()], "collinear.json");
    bad_input(&["solve", collinear.to_str().unwrap()], "collinear");
    let broken = write(
        dir.path(),
        "broken.json",
        "{\"format\": \"gamecert-instance\", \"version\": 1, \"kind\": \"marking-game\",\n  \"game\": \"bichromatic-coloring\", \"points\": [[0, 0]\n",
    );
    bad_input(&["solve", broken.to_str().unwrap()], "broken.json:3:");
    let triangles = write(
        dir.path(),
        "with-triangles.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "marking-game",
  "game": "bichromatic-complete-triangulation", "points": [[0, 0], [1, 1], [2, 4]],
  "triangles": [[0, 1, 2]]}"#,
    );
    bad_input(&["verify", triangles.to_str().unwrap(), "nothing.json"], "with-triangles.json");
    bad_input(
        &["table", "bichromatic-construct", "--max-points", "12"],
        "'--max-points <MAX_POINTS>': expected a whole number from 3 to 8",
    );
    bad_input(&["bench", "construct", "--seconds", "0"], "--seconds");
    // A construct-strategy certificate on a win/lose game is rejected with the reason.
    let inst = write(
        dir.path(),
        "mono.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "marking-game",
  "game": "monochromatic-triangle", "points": [[0, 0], [1, 1], [2, 4]]}"#,
    );
    let cert = write(
        dir.path(),
        "c.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "construct-strategy",
  "first": {"at_least": 1, "moves": [["0", 0]]}}"#,
    );
    let out = gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("marking-strategy certificate"), "{}", stdout(&out));
}

/// The outcomes of 2.1.3 and 2.1.4 (both readings) on 3 to 7 convex points, every row's
/// certificate accepted by the checker (beyond seed 000's Table 1).
#[test]
fn bichromatic_construct_table() {
    let rows =
        gamecert::triangulations::construct_table::bichromatic_table(7, &mut |_| {}).unwrap();
    assert_eq!(rows.len(), 15);
    insta::assert_snapshot!(gamecert::triangulations::construct_table::bichromatic_text_with(
        &rows, false
    ));
}

/// n = 8 as well (minutes): `cargo test --release --test it construct -- --ignored`.
#[test]
#[ignore]
fn bichromatic_construct_table_to_8() {
    let out = gamecert(&["table", "bichromatic-construct", "--max-points", "8"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    println!("{}", stdout(&out));
    assert_eq!(stdout(&out).lines().count(), 1 + 18);
}

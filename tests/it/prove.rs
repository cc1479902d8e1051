//! `solve --method prove` and `--method dfpn` (issue 41): the proof search's answers by either
//! engine agree with the exact solvers, its certificates (the existing kinds) are accepted by
//! `verify`, a damaged one is rejected, and instances it does not take are refused as bad
//! input.

use crate::common::{bad_input, gamecert, stderr, write};
use serde_json::Value;
use std::path::Path;

/// `solve ARGS --json` (with -o `cert`): the command output, after asserting success.
fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = gamecert(&all);
    assert!(out.status.success(), "{all:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("solve --json is JSON")
}

/// `verify`'s exit code on the two files.
fn verify(instance: &Path, certificate: &Path) -> Option<i32> {
    gamecert(&["verify", instance.to_str().unwrap(), certificate.to_str().unwrap()]).status.code()
}

/// Triangle avoidance, n = 3..=9: the proof's Winner is the game digraph's, `verify` accepts
/// the JSON certificate and the stream, and a certificate missing one of the loser's moves (or
/// a stream with one permutation damaged) is rejected.
#[test]
fn triangle_avoidance_by_proof_agrees_with_the_game_digraph_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    for n in 3..=9usize {
        let text = format!(
            "{{\"format\":\"gamecert-instance\",\"version\":1,\"kind\":\"triangle-avoidance\",\"n\":{n}}}"
        );
        let instance = write(dir.path(), &format!("t{n}.json"), &text);
        let i = instance.to_str().unwrap();
        let exact = solve_json(&[i]);
        let by_dfpn = solve_json(&[i, "--method", "dfpn"]);
        assert_eq!(by_dfpn["claim"], exact["claim"], "n = {n}");
        assert_eq!(by_dfpn["method"], "df-pn proof search over unlabelled graphs");
        let proved = solve_json(&[i, "--method", "prove"]);
        assert_eq!(proved["claim"], exact["claim"], "n = {n}");
        assert_eq!(proved["method"], "depth-first proof search over unlabelled graphs");
        // The proof lists no more positions than the strategy read off the whole digraph.
        let positions = |v: &Value| v["certificate"]["positions"].as_array().unwrap().len();
        assert!(positions(&proved) <= positions(&exact) + 2, "n = {n}");
        let mut certificate = proved["certificate"].clone();
        let cert = write(dir.path(), &format!("t{n}.cert"), &certificate.to_string());
        assert_eq!(verify(&instance, &cert), Some(0), "n = {n}");
        // Drop one reply of the loser at a position where it has several.
        let moves = certificate["moves"].as_array_mut().unwrap();
        let listed = moves
            .iter_mut()
            .map(|m| m[1].as_array_mut().unwrap())
            .find(|list| list.len() > 1)
            .expect("the loser has a choice somewhere");
        listed.pop();
        let damaged = write(dir.path(), &format!("t{n}-damaged.cert"), &certificate.to_string());
        assert_eq!(verify(&instance, &damaged), Some(1), "n = {n}");
        // The stream written from the proof.
        let stream = dir.path().join(format!("t{n}.tastream"));
        let s = stream.to_str().unwrap();
        let streamed = solve_json(&[i, "--method", "prove", "--stream", "-o", s]);
        assert_eq!(streamed["claim"], exact["claim"], "n = {n}");
        assert_eq!(verify(&instance, &stream), Some(0), "n = {n}");
        let mut bytes = std::fs::read(&stream).unwrap();
        // The last permutation's first byte (before the end mark): vertex 0's image changed
        // to vertex 0's image + 1 mod n is no longer a permutation or maps elsewhere.
        let at = bytes.len() - 9;
        bytes[at] = (bytes[at] & 0xf0) | (((bytes[at] & 0x0f) + 1) % n as u8);
        let damaged = dir.path().join(format!("t{n}-damaged.tastream"));
        std::fs::write(&damaged, &bytes).unwrap();
        assert_eq!(verify(&instance, &damaged), Some(1), "n = {n}");
    }
}

/// Multi-round games on complete k-ary trees: the outcome by two threshold tests is the sign
/// of the exact solver's value; the certificate (W's or B's winning strategy, or a value of 0)
/// is accepted, and without its last listed move rejected.
#[test]
fn kary_tree_outcomes_by_proof_agree_with_the_exact_value() {
    let dir = tempfile::tempdir().unwrap();
    let mut outcomes = std::collections::BTreeSet::new();
    for (k, height, rounds) in [(2, 2, 1), (2, 2, 2), (2, 2, 3), (2, 3, 2), (2, 3, 3), (3, 2, 2)] {
        let name = format!("k{k}h{height}r{rounds}.json");
        let instance = dir.path().join(&name);
        let (ks, hs, rs) = (k.to_string(), height.to_string(), rounds.to_string());
        let out = gamecert(&[
            "gen",
            "kary-tree",
            "--k",
            &ks,
            "--height",
            &hs,
            "--rounds",
            &rs,
            "-q",
            "-o",
            instance.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let i = instance.to_str().unwrap();
        let value = solve_json(&[i, "--method", "exact"])["certificate"]["value"].as_i64().unwrap();
        let by_dfpn = solve_json(&[i, "--method", "dfpn"]);
        assert_eq!(by_dfpn["claim"], solve_json(&[i, "--method", "prove"])["claim"], "{name}");
        // Each engine's certificate is verified and damaged on half the cases.
        let proved = if rounds % 2 == 0 { by_dfpn } else { solve_json(&[i, "--method", "prove"]) };
        let mut certificate = proved["certificate"].clone();
        let outcome = match (certificate["kind"].as_str().unwrap(), &certificate["player"]) {
            ("voronoi-strategy", p) if p == "white" => 1,
            ("voronoi-strategy", p) if p == "black" => -1,
            ("voronoi-value", _) => {
                assert_eq!(certificate["value"], 0);
                0
            }
            (kind, _) => panic!("{name}: a {kind}"),
        };
        assert_eq!(outcome, value.signum(), "{name}");
        outcomes.insert(outcome);
        let cert = write(dir.path(), &format!("{name}.cert"), &certificate.to_string());
        assert_eq!(verify(&instance, &cert), Some(0), "{name}");
        let moves = match certificate.get_mut("white") {
            Some(white) => white["moves"].as_array_mut().unwrap(),
            None => certificate["moves"].as_array_mut().unwrap(),
        };
        moves.pop();
        let damaged = write(dir.path(), &format!("{name}-damaged.cert"), &certificate.to_string());
        assert_eq!(verify(&instance, &damaged), Some(1), "{name}");
    }
    assert!(outcomes.len() >= 2, "the cases cover more than one outcome: {outcomes:?}");
    // Not a tree, and a start with stones: refused with the method that takes them.
    let cycle = write(
        dir.path(),
        "cycle.json",
        r#"{"format":"gamecert-instance","version":1,"kind":"voronoi","graph":{"vertices":["a","b","c"],"edges":[["a","b"],["b","c"],["c","a"]]},"rounds":1}"#,
    );
    bad_input(&["solve", cycle.to_str().unwrap(), "--method", "prove"], "trees only");
}

/// `bench prove --quick`: every row's proof was checked (the bench fails otherwise), the search
/// touches fewer triangle-avoidance positions than the game has, and the tree outcomes are the
/// ones the exact solver gives (ties on the binary tree of 15 vertices, W wins on the ternary
/// tree of 13: docs/families/voronoi.md), by both engines.
#[test]
fn the_prove_bench_reports_checked_proofs() {
    let out = gamecert(&["bench", "prove", "--quick", "--json", "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["verdict"], "measured");
    let triangle = report["rows"]["triangle"].as_array().expect("triangle rows");
    assert_eq!(triangle.len(), 10, "{report}");
    for row in triangle {
        let proof = row["proof_positions"].as_u64().unwrap();
        assert!(proof > 0 && proof < row["positions"].as_u64().unwrap(), "{row}");
    }
    let trees = report["rows"]["trees"].as_array().expect("tree rows");
    for engine in ["depth-first proof search", "df-pn proof search"] {
        let outcome = |k: u64, n: u64| {
            let row =
                trees.iter().find(|r| r["k"] == k && r["rounds"] == n && r["engine"] == engine);
            row.map(|r| r["outcome"].clone())
        };
        assert_eq!(outcome(2, 3), Some("a tie".into()), "{engine}: {report}");
        assert_eq!(outcome(3, 4), Some("W wins".into()), "{engine}: {report}");
    }
}

//! `gamecert gen/solve/verify` on vertex nim instances (seed 004), and the bad-input cases.
use crate::common;
use common::{bad_input, gamecert, stderr, stdout, write};

fn instance(directed: bool, vertices: &str, edges: &str, token: &str) -> String {
    format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "vertexnim",
  "directed": {directed}, "variant": "vertexnim", "play": "normal",
  "vertices": [{vertices}],
  "edges": [{edges}], "token": "{token}"}}"#
    )
}

#[test]
fn gen_solve_verify_and_a_tampered_certificate() {
    let dir = tempfile::tempdir().unwrap();
    for extra in [&[][..], &["--directed"][..], &["--variant", "nimg"][..], &["--misere"][..]] {
        let inst = dir.path().join("g.json");
        let cert = dir.path().join("c.json");
        let mut args = vec![
            "gen",
            "vertexnim",
            "--vertices",
            "4",
            "--max-weight",
            "3",
            "--seed",
            "5",
            "-o",
            inst.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = gamecert(&args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let out =
            gamecert(&["solve", inst.to_str().unwrap(), "-o", cert.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        assert!(stdout(&out).contains("vertexnim-strategy"), "{}", stdout(&out));
        let out = gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        assert!(stdout(&out).starts_with("ACCEPTED"));
        // Flip the claimed winner: the replay must fail (exit 1).
        let text = std::fs::read_to_string(&cert).unwrap();
        let flipped = if text.contains("\"winner\": \"first\"") {
            text.replace("\"winner\": \"first\"", "\"winner\": \"second\"")
        } else {
            text.replace("\"winner\": \"second\"", "\"winner\": \"first\"")
        };
        let bad = write(dir.path(), "bad.json", &flipped);
        let out = gamecert(&["verify", inst.to_str().unwrap(), bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
        assert!(stdout(&out).starts_with("REJECTED"));
    }
}

#[test]
fn a_large_instance_is_decided_by_theorem_10() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("big.json");
    let out = gamecert(&[
        "gen",
        "vertexnim",
        "--vertices",
        "500",
        "--max-weight",
        "20",
        "--loops",
        "0",
        "-o",
        inst.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = gamecert(&["solve", inst.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["method"], "Theorem 10");
    assert_eq!(summary["kind"], "vertexnim-labelling");
    assert_eq!(
        summary["certificate"]["kind"], "vertexnim-labelling",
        "without -o, the certificate itself"
    );
    let cert = dir.path().join("big-cert.json");
    let out = gamecert(&["solve", inst.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("trusted: Duchene-Renault Theorem 10"));
    // One label changed: rejected.
    let text = std::fs::read_to_string(&cert).unwrap();
    let at = text.find("\"labels\": \"").unwrap() + 11;
    let mut bytes = text.into_bytes();
    bytes[at] = match bytes[at] {
        b'P' => b'N',
        b'N' => b'P',
        _ => b'P',
    };
    let bad = write(dir.path(), "bad.json", &String::from_utf8(bytes).unwrap());
    let out = gamecert(&["verify", inst.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // Directed with a loop on every vertex: Theorem 6's peeling as the certificate.
    let lin = dir.path().join("loops.json");
    let out = gamecert(&[
        "gen",
        "vertexnim",
        "--vertices",
        "300",
        "--directed",
        "--loops",
        "1",
        "--max-weight",
        "2",
        "--density",
        "0.5",
        "-o",
        lin.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let lcert = dir.path().join("loops-cert.json");
    let out = gamecert(&["solve", lin.to_str().unwrap(), "-o", lcert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("by Theorem 6"), "{}", stderr(&out));
    let out = gamecert(&["verify", lin.to_str().unwrap(), lcert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("trusted: Duchene-Renault Theorem 6"));
    // Directed instances without loops everywhere have no polynomial answer and are too large
    // for the exact solver: solve says so.
    let dinst = dir.path().join("dbig.json");
    let out = gamecert(&[
        "gen",
        "vertexnim",
        "--vertices",
        "40",
        "--directed",
        "--loops",
        "0",
        "-o",
        dinst.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = gamecert(&["solve", dinst.to_str().unwrap()]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("no polynomial characterisation"), "{}", stderr(&out));
}

#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (instance(false, r#"{"name": "a", "weight": 0}"#, "", "a"), "weight 0 is below 1"),
        (
            instance(
                false,
                r#"{"name": "a", "weight": 2}, {"name": "b", "weight": -1}"#,
                r#"["a", "b"]"#,
                "a",
            ),
            "weight -1 is below 1",
        ),
        (
            instance(false, r#"{"name": "a", "weight": 2}"#, "", "x"),
            "token: the token is on 'x', which is not a vertex",
        ),
        (
            instance(
                true,
                r#"{"name": "a", "weight": 2}, {"name": "b", "weight": 1}"#,
                r#"["a", "b"]"#,
                "a",
            ),
            "not strongly connected",
        ),
        (
            instance(false, r#"{"name": "a", "weight": 2}, {"name": "b", "weight": 1}"#, "", "a"),
            "not connected",
        ),
        (
            instance(false, r#"{"name": "a", "weight": 2}"#, r#"["a", "z"]"#, "a"),
            "unknown vertex 'z'",
        ),
    ];
    for (k, (text, expected)) in cases.iter().enumerate() {
        let path = write(dir.path(), &format!("bad{k}.json"), text);
        bad_input(&["solve", path.to_str().unwrap()], expected);
        bad_input(&["verify", path.to_str().unwrap(), path.to_str().unwrap()], expected);
    }
    // A syntax error names the line and column.
    let broken =
        instance(false, r#"{"name": "a", "weight": 2}"#, "", "a").replace("\"play\"", "play");
    let path = write(dir.path(), "broken.json", &broken);
    bad_input(&["solve", path.to_str().unwrap()], "broken.json:2:");
    bad_input(&["gen", "vertexnim", "--vertices", "0"], "from 1 to 10^7");
    bad_input(
        &["gen", "vertexnim", "--vertices", "5", "--loops", "2"],
        "'--loops <LOOPS>': expected a number from 0 to 1",
    );
    bad_input(&["gen", "vertexnim", "--vertices", "100000000"], "from 1 to 10^7");
}

/// A directed circuit of `n` vertices with weights 2 + i % 3 (all at least 2), as Adjacent Nim.
fn circuit(n: usize, variant: &str) -> String {
    let vertices: Vec<String> =
        (0..n).map(|i| format!(r#"{{"name": "v{i}", "weight": {}}}"#, 2 + i % 3)).collect();
    let arcs: Vec<String> = (0..n).map(|i| format!(r#"["v{i}", "v{}"]"#, (i + 1) % n)).collect();
    format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "vertexnim", "directed": true,
  "vertices": [{}], "edges": [{}], "token": "v0", "variant": "{variant}", "play": "normal"}}"#,
        vertices.join(", "),
        arcs.join(", ")
    )
}

/// A circuit too large for a strategy certificate gets Theorem 3's labelling: the checker walks
/// the circuit, checks the mark on the first minimum and names the trusted theorem; a moved mark
/// is rejected.
#[test]
fn a_large_circuit_gets_a_theorem_3_labelling() {
    let dir = tempfile::tempdir().unwrap();
    // Weights 2,3,4,2,3,4,...: the first minimum is the token's vertex (offset 0), so with an
    // even length the second player wins; 21 vertices (odd) give the first player the win.
    for (n, winner) in [(20, "second"), (21, "first")] {
        let path = write(dir.path(), "circuit.json", &circuit(n, "vertexnim"));
        let cert = dir.path().join("circuit.cert.json");
        let out = gamecert(&["solve", path.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stderr(&out).contains("Theorem 3"), "{}", stderr(&out));
        let out = gamecert(&["verify", path.to_str().unwrap(), cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains(&format!("the {winner} player wins")), "{text}");
        assert!(text.contains("Adjacent Nim"), "{text}");
        if n % 2 == 0 {
            // Move the mark to the next minimum (offset 3): the checker names the real first one.
            let marked = format!("\"M{}\"", ".".repeat(n - 1));
            let moved = format!("\"...M{}\"", ".".repeat(n - 4));
            let text = std::fs::read_to_string(&cert).unwrap();
            assert!(text.contains(&marked), "{text}");
            let moved = text.replace(&marked, &moved);
            std::fs::write(&cert, moved).unwrap();
            let out = gamecert(&["verify", path.to_str().unwrap(), cert.to_str().unwrap()]);
            assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
            assert!(
                stdout(&out).contains("is not the first vertex of minimum weight"),
                "{}",
                stdout(&out)
            );
        }
    }
}

/// The same circuit under Vertex NimG: Remark 5 is only a conjecture, so there is no labelling
/// certificate; `solve` writes nothing and says why, with the uncertified answer (exit 2).
#[test]
fn an_uncertifiable_circuit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "circuit.json", &circuit(20, "nimg"));
    let cert = dir.path().join("circuit.cert.json");
    bad_input(
        &["solve", path.to_str().unwrap(), "-o", cert.to_str().unwrap()],
        "circuit.json: no certificate: a strategy certificate needs at most 16 vertices",
    );
    assert!(!cert.exists());
}

/// NimG may start with empty vertices; `--method outcomes` labels every position below the
/// start, the checker relabels them all, and one changed letter is named by its position.
#[test]
fn nimg_with_zeros_gets_every_outcome_certified() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"{"format": "gamecert-instance", "version": 1, "kind": "vertexnim",
  "directed": false, "variant": "nimg", "play": "normal",
  "vertices": [{"name": "a", "weight": 2}, {"name": "b", "weight": 0}, {"name": "c", "weight": 3}],
  "edges": [["a", "c"], ["c", "b"]], "token": "a"}"#;
    let path = write(dir.path(), "zeros.json", text);
    let cert = dir.path().join("zeros.cert.json");
    let (p, c) = (path.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&["solve", "--method", "outcomes", p, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["verify", p, c]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // a (2) must move to c (3), which moves to the empty b and wins: the second player wins.
    assert!(stdout(&out).contains("the second player wins"), "{}", stdout(&out));
    assert!(stdout(&out).contains("(36 positions)"), "{}", stdout(&out));
    let body = std::fs::read_to_string(&cert).unwrap();
    let letters = body.split("\"outcomes\": \"").nth(1).unwrap().split('"').next().unwrap();
    let mut flipped = letters.as_bytes().to_vec();
    flipped[20] = if flipped[20] == b'N' { b'P' } else { b'N' };
    let tampered = body.replace(letters, std::str::from_utf8(&flipped).unwrap());
    std::fs::write(&cert, tampered).unwrap();
    let out = gamecert(&["verify", p, c]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("position 20 (weights 0,0,2, token on 'c')"), "{}", stdout(&out));
    let removal = write(dir.path(), "removal.json", &text.replace("nimg", "vertexnim"));
    bad_input(
        &["solve", "--method", "outcomes", removal.to_str().unwrap()],
        "weight 0 is below 1 (every vertex starts with weight at least 1 under vertexnim)",
    );
}

/// `table vertex-nimg`: every row certified, Corollary 12 (zeros allowed) and the circuit rule
/// agree with every certified outcome, and the counts add up.
#[test]
fn the_nimg_table_certifies_every_position_and_tests_the_rules() {
    let out = gamecert(&["table", "vertex-nimg", "--max-n", "5", "--max-weight", "2", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["verdict"], "accepted");
    let rows = json["rows"].as_array().unwrap();
    let graphs: Vec<u64> = rows.iter().map(|r| r["graphs"].as_u64().unwrap()).collect();
    // OEIS A001349 (connected graphs), then one circuit per length 2..=5.
    assert_eq!(graphs, [1, 1, 2, 6, 21, 1, 1, 1, 1]);
    for r in rows {
        let n = r["vertices"].as_u64().unwrap();
        assert_eq!(r["positions"], r["graphs"].as_u64().unwrap() * 3u64.pow(n as u32) * n);
        assert_eq!(r["rule_disagrees"], 0, "{r}");
        assert_eq!(r["rule_agrees"], r["positions"]);
    }
    bad_input(
        &["table", "vertex-nimg", "--max-n", "8"],
        "'--max-n <MAX_N>': expected a whole number from 1 to 7",
    );
}

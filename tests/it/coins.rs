//! Nim arithmetic and coin-turning games on the command line: `gamecert nim`, solving and
//! verifying `coin-game` instances (seed 003's worked example among them), bad input.

use gamecert_certificates::format::Certificate;
use gamecert_certificates::impartial::coins::{CoinLabelling, Labels};
use std::path::Path;

use crate::common;
use common::{bad_input, gamecert, stderr, stdout, write};

fn ok(args: &[&str]) -> String {
    let out = gamecert(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn nim_subcommand() {
    assert_eq!(ok(&["nim", "sum", "5", "3"]), "6\n");
    assert_eq!(ok(&["nim", "mul", "4", "4"]), "6\n");
    assert_eq!(ok(&["nim", "mul", "15", "15"]), "9\n");
    assert_eq!(ok(&["nim", "mul", "32768", "16384"]), format!("{}\n", 0xb9c5));
    assert_eq!(ok(&["nim", "inv", "6"]), "9\n");
    assert_eq!(ok(&["nim", "mul", "4294967296", "4294967296"]), "6442450944\n");
    // Beyond u64: 2^64 (x) 2^64 = 3 * 2^63.
    let f = (1u128 << 64).to_string();
    assert_eq!(ok(&["nim", "mul", &f, &f]), format!("{}\n", 3u128 << 63));
    let inv = ok(&["nim", "inv", "18446744073709551615"]);
    let back = ok(&["nim", "mul", inv.trim(), "18446744073709551615"]);
    assert_eq!(back, "1\n");
    bad_input(&["nim", "inv", "0"], "0 has no inverse");
    bad_input(&["nim", "mul", "3"], "take two numbers");
    bad_input(&["nim", "sum", "3", "x7"], "B: 'x7' is not a decimal number");
    bad_input(&["nim", "inv", "3", "4"], "one number");
    bad_input(&["nim", "mul", "1e5", "2"], "A: '1e5'");
    bad_input(&["nim", "pow", "2", "3"], "invalid value");
}

const WORKED_EXAMPLE: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
 "rule": {"game": "product",
          "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4, "base": 1},
          "y": {"game": "ruler"}},
 "board": [100, 100], "heads": [[100, 100], [4, 1]]}"#;

fn read_labelling(path: &Path) -> CoinLabelling {
    match Certificate::from_json(&std::fs::read_to_string(path).unwrap()).unwrap() {
        Certificate::CoinLabelling(c) => c,
        other => panic!("a {} certificate", other.kind()),
    }
}

#[test]
fn the_worked_example_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let inst = write(dir.path(), "example.json", WORKED_EXAMPLE);
    let cert = dir.path().join("example.cert.json");
    ok(&["solve", inst.to_str().unwrap(), "-o", cert.to_str().unwrap(), "--quiet"]);
    let labelling = read_labelling(&cert);
    assert_eq!(labelling.value, 5, "6 (+) 3");
    assert_eq!(labelling.claim, "first-player-wins");
    let mut mv = labelling.winning_move.clone().unwrap();
    mv.sort();
    let mut slides: Vec<Vec<i64>> =
        [98, 100].iter().flat_map(|&x| (97..=100).map(move |y| vec![x, y])).collect();
    slides.sort();
    assert_eq!(mv, slides, "{{98, 100}} x {{97, 98, 99, 100}}");
    let out = gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let verdict: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(verdict["verdict"], "accepted");
    assert!(verdict["trusted"][0].as_str().unwrap().starts_with("Coin-turning decomposition"));

    // A label changed: rejected (exit 1), naming the coin.
    let mut bad = labelling.clone();
    if let Labels::Plane(l) = &mut bad.values {
        l[3][0] = 2;
    }
    let bad_path = write(dir.path(), "bad.json", &Certificate::CoinLabelling(bad).to_json());
    let out = gamecert(&["verify", inst.to_str().unwrap(), bad_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("coin (4, 1)"), "{}", stdout(&out));

    // The slides' move with one coin fewer is not a product of moves.
    let mut bad = labelling.clone();
    bad.winning_move.as_mut().unwrap().retain(|c| c != &vec![98, 97]);
    let bad_path = write(dir.path(), "bad2.json", &Certificate::CoinLabelling(bad).to_json());
    let out = gamecert(&["verify", inst.to_str().unwrap(), bad_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("not a legal move"), "{}", stdout(&out));

    // A legal move that does not win: {99, 100} x {100}.
    let mut bad = labelling;
    bad.winning_move = Some(vec![vec![99, 100], vec![100, 100]]);
    let bad_path = write(dir.path(), "bad3.json", &Certificate::CoinLabelling(bad).to_json());
    let out = gamecert(&["verify", inst.to_str().unwrap(), bad_path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("not 0"), "{}", stdout(&out));
}

#[test]
fn one_dimensional_solve_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    for (rule, heads, value) in [
        (r#"{"game": "mock-turtles"}"#, "[[0], [1], [2], [3]]", 1 ^ 2 ^ 4 ^ 7),
        (r#"{"game": "ruler"}"#, "[[4], [8], [12]]", 4 ^ 8 ^ 4),
        (r#"{"game": "grunt"}"#, "[[5], [18]]", 2 ^ 4),
        (r#"{"game": "turning-turtles"}"#, "[[3], [5], [6]]", 3 ^ 5 ^ 6),
    ] {
        let inst = write(
            dir.path(),
            "strip.json",
            &format!(
                r#"{{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
                  "rule": {rule}, "board": [20], "heads": {heads}}}"#
            ),
        );
        let cert = dir.path().join("strip.cert.json");
        ok(&["solve", inst.to_str().unwrap(), "-o", cert.to_str().unwrap(), "--quiet"]);
        let labelling = read_labelling(&cert);
        assert_eq!(labelling.value, value, "{rule}");
        assert_eq!(labelling.winning_move.is_some(), value != 0, "{rule}");
        ok(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()]);
    }
}

#[test]
fn bad_coin_instances_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let instance = |rule: &str, board: &str, heads: &str| {
        write(
            dir.path(),
            "bad.json",
            &format!(
                r#"{{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
                  "rule": {rule}, "board": {board}, "heads": {heads}}}"#
            ),
        )
    };
    // A board too large to label is refused before any allocation.
    let p = instance(r#"{"game": "turning-turtles"}"#, "[10000000000000]", "[[5]]");
    bad_input(
        &["solve", p.to_str().unwrap()],
        "bad.json: a board of 10000000000000 coins: `solve` labels at most 50000000 coins",
    );
    let p = instance(r#"{"game": "rugs"}"#, "[8, 8]", "[[9, 2]]");
    bad_input(
        &["solve", p.to_str().unwrap()],
        "heads[0]: coin (9, 2) is outside the board (x from 1 to 8)",
    );
    let p = instance(r#"{"game": "offsets", "sets": [[1], [0, 2]]}"#, "[8]", "[[3]]");
    bad_input(&["solve", p.to_str().unwrap()], "rule.sets[1][0]: offset 0 is not a valid game");
    let p = instance(r#"{"game": "offsets", "sets": [[-1]]}"#, "[8]", "[[3]]");
    bad_input(&["verify", p.to_str().unwrap(), "nonexistent"], "offset -1");
    let p = instance(r#"{"game": "subsets", "min_others": 2, "max_others": 1}"#, "[8]", "[[3]]");
    bad_input(&["solve", p.to_str().unwrap()], "min_others 2 is larger");
    let p = instance(r#"{"game": "snakes"}"#, "[8]", "[[3]]");
    bad_input(&["solve", p.to_str().unwrap()], "snakes");
}

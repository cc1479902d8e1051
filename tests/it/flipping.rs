//! The flipping games (seed 000, 2.2) through the command line: gen, solve, verify round trips;
//! bad input (exit 2, the file named); mutated certificates rejected (exit 1, the move or
//! position named); the quick part of `table flipping` as a snapshot.

use crate::common;
use common::{bad_input, gamecert, stderr, stdout, write};
use std::path::Path;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn path(dir: &std::path::Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

/// gen -> solve -> verify for each game, and the method named.
#[test]
fn round_trips() {
    let dir = tmp();
    let d = dir.path();
    for (kind, n, game, method) in [
        ("convex", "9", "monochromatic-flipping", "Theorem 9"),
        ("points", "8", "monochromatic-flipping", "exact solver"),
        ("serpentine", "9", "flipping-to-triangle", "exact solver"),
        ("points", "8", "bichromatic-flipping", "exact solver"),
        ("convex", "14", "all-green", "Theorem 11"),
        ("points", "9", "green-wins", "exhaustive"),
        ("points", "30", "green-wins", "Theorem 12"),
    ] {
        let inst = path(d, &format!("{kind}-{game}.json"));
        let cert = path(d, &format!("{kind}-{game}.cert.json"));
        let out = gamecert(&[
            "gen",
            "triangulation",
            "--kind",
            kind,
            "--points",
            n,
            "--inner",
            "3",
            "--flip",
            game,
            "-o",
            &inst,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = gamecert(&["solve", &inst, "-o", &cert]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).contains(method), "{game}: {}", stderr(&out));
        let out = gamecert(&["verify", &inst, &cert]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        assert!(stdout(&out).starts_with("ACCEPTED"));
    }
}

/// An abstract convex polygon (no coordinates) round trip.
#[test]
fn abstract_convex_round_trip() {
    let dir = tmp();
    let inst = path(dir.path(), "big.json");
    let cert = path(dir.path(), "big.cert.json");
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "convex",
        "--points",
        "5000",
        "--flip",
        "all-green",
        "--abstract-convex",
        "-o",
        &inst,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&inst).unwrap().contains("\"convex_polygon\": 5000"));
    assert!(gamecert(&["solve", &inst, "-o", &cert]).status.success());
    let out = gamecert(&["verify", &inst, &cert]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// MFT beyond the general solver's 16 points: a serpentine 18-gon (abstract convex) is solved
/// by the reduced solver and its certificate replayed by the checker (strategies up to 22
/// points); the wrong winner, and a strategy move on a hull edge, are rejected.
#[test]
fn mft_beyond_16_points() {
    let dir = tmp();
    let d = dir.path();
    let inst = path(d, "s18.json");
    let cert = path(d, "s18.cert.json");
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "serpentine",
        "--points",
        "18",
        "--flip",
        "flipping-to-triangle",
        "--abstract-convex",
        "--seed",
        "3",
        "-o",
        &inst,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gamecert(&["solve", &inst, "-o", &cert]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("reduced MFT solver"), "{}", stderr(&out));
    let out = gamecert(&["verify", &inst, &cert]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = std::fs::read_to_string(&cert).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    // Theorem 10 on the data: n = 18 even, the first player wins.
    assert_eq!(json["value"], 1);
    let mut wrong = json.clone();
    wrong["value"] = serde_json::json!(-1);
    let bad = write(d, "wrong.json", &wrong.to_string());
    let out = gamecert(&["verify", &inst, &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    // A strategy move on a hull edge (positions here use pairs beyond a u128 mask).
    let first = json["first"].as_array().unwrap();
    let mut hull = json.clone();
    hull["first"][first.len() - 1][1] = serde_json::json!([0, 17]);
    let bad = write(d, "hull.json", &hull.to_string());
    let out = gamecert(&["verify", &inst, &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("flipping 0-17: edge 0-17 is not flippable"), "{}", stdout(&out));
}

const PENTAGON: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "flip-game",
 "game": "all-green", "convex_polygon": 5, "triangles": [[0, 1, 2], [0, 2, 3], [0, 3, 4]]}"#;

fn sequence(flips: &str, green: usize) -> String {
    format!(
        r#"{{"format": "gamecert-certificate", "version": 1, "kind": "flip-sequence",
 "flips": {flips}, "green": {green}}}"#
    )
}

/// Bad flips are rejected with exit 1, naming the move.
#[test]
fn bad_flips_are_rejected_naming_the_move() {
    let dir = tmp();
    let d = dir.path();
    let inst = write(d, "pentagon.json", PENTAGON).display().to_string();
    let ok = write(d, "ok.json", &sequence("[[0, 2]]", 5));
    let out = gamecert(&["verify", &inst, &ok.display().to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    for (flips, green, expected) in [
        ("[[0, 2], [1, 3]]", 5, "move 2 (flips[1]): edge 1-3 is already coloured"),
        ("[[0, 2], [0, 3]]", 5, "move 2 (flips[1]): edge 0-3 is already coloured"),
        ("[[0, 1]]", 5, "move 1 (flips[0]): edge 0-1 is not flippable"),
        ("[[1, 3]]", 5, "move 1 (flips[0]): 1-3 is not an edge"),
        ("[[0, 2]]", 7, "colour 5 edges green, not the claimed 7"),
    ] {
        let cert = write(d, "bad.json", &sequence(flips, green));
        let out = gamecert(&["verify", &inst, &cert.display().to_string()]);
        assert_eq!(out.status.code(), Some(1), "{flips}: {}", stdout(&out));
        assert!(stdout(&out).contains(expected), "{flips}: {}", stdout(&out));
    }
    // A geometric non-convex quadrilateral: the inner point 3 makes 1-3 unflippable.
    let inst = write(
        d,
        "reflex.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "flip-game",
 "game": "green-wins", "points": [[0, 0], [10, 0], [5, 10], [5, 3]],
 "triangles": [[0, 1, 3], [1, 2, 3], [2, 0, 3]]}"#,
    );
    let cert = write(d, "reflex.cert.json", &sequence("[[1, 3]]", 5));
    let out = gamecert(&["verify", &inst.display().to_string(), &cert.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("move 1 (flips[0]): edge 1-3 is not flippable"));
}

/// A mutated strategy is rejected naming the position.
#[test]
fn mutated_strategies_are_rejected_naming_the_position() {
    let dir = tmp();
    let d = dir.path();
    let inst = path(d, "m.json");
    let cert = path(d, "m.cert.json");
    assert!(gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "convex",
        "--points",
        "8",
        "--flip",
        "monochromatic-flipping",
        "-o",
        &inst
    ])
    .status
    .success());
    assert!(gamecert(&["solve", &inst, "-o", &cert]).status.success());
    let text = std::fs::read_to_string(&cert).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    // n = 8: the first player wins; drop one of its positions.
    let moves = json["first"].as_array_mut().unwrap();
    let dropped = moves.pop().unwrap()[0].as_str().unwrap().to_string();
    let bad = write(d, "dropped.json", &json.to_string());
    let out = gamecert(&["verify", &inst, &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(&format!("no move at position {dropped}")), "{}", stdout(&out));
    // A move on a hull edge.
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["first"][0][1] = serde_json::json!([0, 1]);
    let bad = write(d, "hull.json", &json.to_string());
    let out = gamecert(&["verify", &inst, &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("flipping 0-1: edge 0-1 is not flippable"), "{}", stdout(&out));
    // The wrong winner.
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["value"] = serde_json::json!(-1);
    let bad = write(d, "wrong.json", &json.to_string());
    let out = gamecert(&["verify", &inst, &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("strategy is missing"), "{}", stdout(&out));
}

/// Bad instances: exit 2, the file named, no panic.
#[test]
fn bad_instances_exit_2() {
    let dir = tmp();
    let d = dir.path();
    let crossing = write(
        d,
        "crossing.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "flip-game",
 "game": "all-green", "convex_polygon": 6, "triangles": [[0, 1, 3], [1, 2, 4], [0, 3, 5], [2, 3, 4]]}"#,
    );
    let name = crossing.display().to_string();
    bad_input(&["solve", &name], "crossing.json");
    bad_input(&["verify", &name, &name], "crossing.json");
    let syntax = write(d, "syntax.json", "{\"format\": \"gamecert-instance\",\n  \"kind\": ");
    bad_input(&["solve", &syntax.display().to_string()], "syntax.json:2:");
    let game = write(
        d,
        "game.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "flip-game",
 "game": "flip-everything", "convex_polygon": 4, "triangles": [[0, 1, 2], [0, 2, 3]]}"#,
    );
    bad_input(&["solve", &game.display().to_string()], "game.json");
    bad_input(
        &[
            "gen",
            "triangulation",
            "--kind",
            "wheel",
            "--points",
            "8",
            "--flip",
            "all-green",
            "--abstract-convex",
        ],
        "--abstract-convex takes --kind convex, fan or serpentine",
    );
    let big = write(
        d,
        "big.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "flip-game",
 "game": "bichromatic-flipping", "convex_polygon": 20,
 "triangles": [[0,1,2],[0,2,3],[0,3,4],[0,4,5],[0,5,6],[0,6,7],[0,7,8],[0,8,9],[0,9,10],[0,10,11],[0,11,12],[0,12,13],[0,13,14],[0,14,15],[0,15,16],[0,16,17],[0,17,18],[0,18,19]]}"#,
    );
    bad_input(&["solve", &big.display().to_string()], "at most 16");
}

/// The quick part of `table flipping`.
#[test]
fn table_flipping_quick() {
    let out = gamecert(&["table", "flipping", "--max-n", "8"]);
    assert!(out.status.success(), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
}

/// A flip sequence drawn as numbered SVG frames: the start and one frame per flip.
#[test]
fn render_frames_of_a_flip_sequence() {
    let dir = tmp();
    let d = dir.path();
    let inst = path(d, "r.json");
    let cert = path(d, "r.cert.json");
    let frames = path(d, "frames");
    assert!(gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "convex",
        "--points",
        "10",
        "--flip",
        "all-green",
        "-o",
        &inst
    ])
    .status
    .success());
    assert!(gamecert(&["solve", &inst, "-o", &cert]).status.success());
    let flips = serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(&cert).unwrap())
        .unwrap()["flips"]
        .as_array()
        .unwrap()
        .len();
    let out = gamecert(&[
        "render",
        &inst,
        "--format",
        "svg",
        "--certificate",
        &cert,
        "--frames",
        &frames,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names.len(), flips + 1);
    assert_eq!(names[0], "flip-000.svg");
    let last = std::fs::read_to_string(d.join("frames").join(&names[flips])).unwrap();
    assert!(last.starts_with("<svg") && last.contains(&format!("move {flips}")));
}

/// `table serpentine-mft` to n = 11: every value certified, the ties of n <= 11 and no
/// Proposition 1 violation; --max-n beyond the reduced solver's 21 is bad input.
#[test]
fn table_serpentine_mft_quick() {
    let out = gamecert(&["table", "serpentine-mft", "--max-n", "11"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("| 11 | 36 | 28 | 8 | 0 | -1 | 36 |"), "{text}");
    assert!(text.contains("The last row, n = 11, has a tie"), "{text}");
    assert!(text.contains("Proposition 1 (never the other winner): holds on every row"), "{text}");
    let out = gamecert(&["table", "serpentine-mft", "--max-n", "22"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'--max-n <MAX_N>': expected a whole number from 4 to 21"));
}

/// `table green-wins` (seed 000, 7.2): convex polygons always end with more green than black;
/// small point sets with inner points do not always, and each such maximum is certified by a
/// flip-bound the checker accepts from the command line too.
#[test]
fn green_wins_has_certified_counterexamples_with_inner_points() {
    let out = common::gamecert(&[
        "table",
        "green-wins",
        "--max-convex",
        "8",
        "--point-sets",
        "40",
        "--max-points",
        "7",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let convex: Vec<u64> = rows
        .iter()
        .filter(|r| r["family"] == "convex")
        .map(|r| r["triangulations"].as_u64().unwrap())
        .collect();
    assert_eq!(convex, [2, 5, 14, 42, 132], "Catalan numbers");
    for r in rows {
        assert_eq!(r["won"].as_u64().unwrap() + r["lost"].as_u64().unwrap(), r["triangulations"]);
        if r["family"] == "convex" {
            assert_eq!(r["lost"], 0, "{r}");
        }
    }
    assert!(rows.iter().any(|r| r["lost"].as_u64().unwrap() > 0), "no counterexample in {rows:?}");

    let dir = tempfile::tempdir().unwrap();
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/tests/fixtures/flip-bound");
    let instance = fixture.join("instance.json");
    let bound = common::write(
        dir.path(),
        "bound.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "flip-bound", "at_most": 5}"#,
    );
    let out = common::gamecert(&["verify", instance.to_str().unwrap(), bound.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stdout(&out));
    assert!(common::stdout(&out).contains("Green-Wins cannot end with more green than black"));
    // The best sequence reaches 5: a flip-sequence for 5 is accepted, its claim of a win is not made.
    let out = common::gamecert(&["solve", instance.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("5 of 12 edges green; not more green than black"),
        "{}",
        common::stderr(&out)
    );
}

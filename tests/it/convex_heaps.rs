//! `gamecert solve/verify` on marking games too large for a strategy, certified by seed 000's
//! Theorems 1 and 2 as sums of heaps (`marking-kayles`), and the rejections of tampered
//! certificates.
use crate::common;
use common::{bad_input, gamecert, stderr, stdout};

/// Generates a `--kind` board of `points` with `--game game`, solves and verifies it; returns
/// the instance and certificate paths.
fn solved(
    dir: &std::path::Path,
    kind: &str,
    points: &str,
    game: &str,
) -> (std::path::PathBuf, std::path::PathBuf) {
    let inst = dir.join(format!("{kind}-{game}.json"));
    let cert = dir.join(format!("{kind}-{game}.cert.json"));
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        kind,
        "--points",
        points,
        "--game",
        game,
        "-o",
        i,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (inst, cert)
}

fn verify(inst: &std::path::Path, cert: &std::path::Path) -> std::process::Output {
    gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()])
}

#[test]
fn a_long_serpentine_is_certified_as_one_kayles_heap() {
    let dir = tempfile::tempdir().unwrap();
    // 2,002 points: one array of 2,000 triangles, Kayles value G(2000) = K[2000 mod 12] = 1.
    let (inst, cert) = solved(dir.path(), "serpentine", "2002", "coloring");
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("ACCEPTED (claim: the first player wins Coloring"), "{text}");
    assert!(text.contains("by Theorem 1 the game is a sum of 1 heap (largest 2000)"), "{text}");
    assert!(text.contains("octal periodicity theorem"), "{text}");

    // Tampering: the winning edge replaced by a hull edge at the end of the strip (a Kayles
    // move that leaves a non-zero value), and the claim turned around.
    let original = std::fs::read_to_string(&cert).unwrap();
    let json: serde_json::Value = serde_json::from_str(&original).unwrap();
    let edge = json["edge"].clone();
    assert!(edge.is_array(), "{original}");
    let mut losing = json.clone();
    losing["edge"] = serde_json::json!([0, 1]);
    std::fs::write(&cert, serde_json::to_string(&losing).unwrap()).unwrap();
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("winning move: it leaves a position of value"),
        "{}",
        stdout(&out)
    );
    let mut second = json.clone();
    second["winner"] = "second".into();
    second.as_object_mut().unwrap().remove("edge");
    std::fs::write(&cert, serde_json::to_string(&second).unwrap()).unwrap();
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("not 0: the first player wins"), "{}", stdout(&out));
    let mut label = json.clone();
    label["values"][100] = 9.into();
    std::fs::write(&cert, serde_json::to_string(&label).unwrap()).unwrap();
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("heap 100: the labelling says 9"), "{}", stdout(&out));
}

#[test]
fn a_large_simple_branching_board_and_a_large_point_set() {
    let dir = tempfile::tempdir().unwrap();
    let (inst, cert) = solved(dir.path(), "simple-branching", "3000", "coloring");
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("by Theorem 1"), "{}", stdout(&out));
    // Monochromatic Triangle on 1,000 points in convex position: 1000 = 14 (mod 34), a
    // first-player win by Theorem 2.
    let (inst, cert) = solved(dir.path(), "convex", "1000", "monochromatic-triangle");
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("the first player wins Monochromatic Triangle"), "{text}");
    assert!(text.contains("by Theorem 2"), "{text}");
}

/// A board too large for a strategy where no heap reduction applies (a large wheel would need
/// inner points; the four-cycle game has none): `solve` says why, exit 2.
#[test]
fn no_reduction_no_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("fan.json");
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "fan",
        "--points",
        "40",
        "--game",
        "four-cycle",
        "-o",
        inst.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    bad_input(&["solve", inst.to_str().unwrap()], "no heap reduction applies");
}

/// Bad geometry is bad input (exit 2, the file named): a point given twice, a coordinate past
/// 2^40, a crossing edge in convex position, a triangle missing.
#[test]
fn bad_geometry_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "twice.json",
            r#"[[0, 0], [1, 1], [2, 4], [1, 1]]"#,
            r#"[[0, 1, 2], [0, 2, 3]]"#,
            "points[1] and points[3] are the same point",
        ),
        (
            "far.json",
            r#"[[0, 0], [1, 1], [2, 2000000000000]]"#,
            r#"[[0, 1, 2]]"#,
            "beyond the coordinate limit 2^40",
        ),
        (
            "crossing.json",
            r#"[[0, 0], [1, 1], [2, 4], [3, 9], [4, 16]]"#,
            r#"[[0, 1, 2], [0, 2, 3], [1, 3, 4]]"#,
            "cross",
        ),
        (
            "missing.json",
            r#"[[0, 0], [1, 1], [2, 4], [3, 9], [4, 16]]"#,
            r#"[[0, 1, 2], [0, 2, 3]]"#,
            "overlap or leave a gap",
        ),
    ];
    for (name, points, triangles, expected) in cases {
        let path = common::write(
            dir.path(),
            name,
            &format!(
                r#"{{"format": "gamecert-instance", "version": 1, "kind": "marking-game",
  "game": "coloring", "points": {points}, "triangles": {triangles}}}"#
            ),
        );
        bad_input(&["solve", path.to_str().unwrap()], name);
        bad_input(&["solve", path.to_str().unwrap()], expected);
    }
}

/// `--method heaps` asks for Theorem 1's certificate on a board small enough for a strategy;
/// `--method exact` refuses a board too large for one; a game without a reduction is refused.
#[test]
fn the_method_can_be_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("fan.json");
    let cert = dir.path().join("fan.cert.json");
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let gen = |points: &str, game: &str| {
        let args =
            ["gen", "triangulation", "--kind", "fan", "--points", points, "--game", game, "-o", i];
        assert!(gamecert(&args).status.success());
    };
    gen("8", "coloring");
    let out = gamecert(&["solve", i, "--method", "heaps", "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&cert).unwrap().contains("marking-kayles"));
    let out = verify(&inst, &cert);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    bad_input(
        &["solve", i, "--method", "kary"],
        "does not apply to a marking-game instance; it takes auto, exact, strips, heaps, lemma4",
    );
    gen("40", "coloring");
    bad_input(&["solve", i, "--method", "exact"], "asks for the exact solver");
    gen("8", "four-cycle");
    bad_input(&["solve", i, "--method", "heaps"], "no heap reduction for four-cycle");
}

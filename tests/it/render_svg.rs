//! `gamecert render` on games on point sets (seed 000): SVG of a board, and a certificate's play
//! as numbered frames.
use crate::common;
use common::{bad_input, gamecert, stderr};

#[test]
fn a_nimstring_play_is_drawn_frame_by_frame() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("fan.json");
    let cert = dir.path().join("fan.cert.json");
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let gen =
        ["gen", "triangulation", "--kind", "fan", "--points", "8", "--game", "nimstring", "-o", i];
    assert!(gamecert(&gen).status.success());
    assert!(gamecert(&["solve", i, "-o", c]).status.success());
    // The board alone: 13 black edges, 8 points.
    let out = gamecert(&["render", i]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = String::from_utf8(out.stdout).unwrap();
    assert_eq!(svg.matches("<line").count(), 13);
    assert_eq!(svg.matches("<circle").count(), 8);
    assert!(svg.starts_with("<svg"));
    // The play: Nimstring ends when every edge is coloured, so the frames run from the empty
    // board to all 13 edges green.
    let frames = dir.path().join("frames");
    let out = gamecert(&["render", i, "--certificate", c, "--frames", frames.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("the first player wins"), "{}", stderr(&out));
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    assert_eq!(names.len(), 14, "{names:?}");
    assert_eq!(names[0], "play-000.svg");
    let first = std::fs::read_to_string(frames.join("play-000.svg")).unwrap();
    let last = std::fs::read_to_string(frames.join("play-013.svg")).unwrap();
    assert!(!first.contains("#1a9641"), "no green edge at the start");
    assert_eq!(last.matches("#1a9641\" stroke-width").count(), 13);
    assert!(last.contains(">1R<") && last.contains("move 13 of 13"));
}

#[test]
fn render_refuses_what_it_cannot_draw() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("w.json");
    let i = inst.to_str().unwrap();
    let gen =
        ["gen", "triangulation", "--kind", "wheel", "--points", "6", "--game", "coloring", "-o", i];
    assert!(gamecert(&gen).status.success());
    bad_input(&["render", i, "--format", "dot"], "use --format svg");
    // A certificate of another kind has no play.
    let heap = common::write(
        dir.path(),
        "h.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "heap-labelling",
            "claim": "second-player-wins", "values": [0]}"#,
    );
    bad_input(&["render", i, "--certificate", heap.to_str().unwrap()], "has no play to draw");
    // A strategy whose first move is no edge of the board: named, not a crash.
    let bogus = common::write(
        dir.path(),
        "bogus.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "marking-strategy",
            "winner": "first", "moves": [["0", 999]]}"#,
    );
    let out = gamecert(&["render", i, "--certificate", bogus.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(common::stdout(&out).contains("REJECTED"), "{}", common::stdout(&out));
    // A broken triangulation is bad input even without a certificate.
    let broken = common::write(
        dir.path(),
        "broken.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "marking-game",
            "game": "coloring", "points": [[0, 0], [1, 1], [2, 4], [3, 9]],
            "triangles": [[0, 1, 2]]}"#,
    );
    bad_input(&["render", broken.to_str().unwrap()], "broken.json");
    let path = dir.path().join("p.json");
    assert!(gamecert(&[
        "gen",
        "path",
        "--vertices",
        "5",
        "--rounds",
        "1",
        "-o",
        path.to_str().unwrap()
    ])
    .status
    .success());
    bad_input(&["render", path.to_str().unwrap(), "--frames", "x"], "marking game only");
}

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
    let p = path.to_str().unwrap();
    bad_input(&["render", p, "--frames", "x", "--format", "dot"], "--frames writes SVG");
    // A one-round witness is a placement, not a play; a refutation has no placement.
    let one = common::write(dir.path(), "one.txt", "white b\nblack 1\na b\nb c\n");
    let o = one.to_str().unwrap();
    bad_input(&["render", o, "--frames", "x"], "one placement");
    let refuted = dir.path().join("r.json").display().to_string();
    assert!(gamecert(&["solve", o, "-o", &refuted, "-q"]).status.success());
    bad_input(&["render", o, "--certificate", &refuted], "only a witness");
    // On the path game it is a certificate of another game: the checker's rejection.
    let out = gamecert(&["render", p, "--certificate", &refuted]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// The Voronoi game drawn natively (issue 17, item 7): a value certificate's principal line,
/// frame by frame, ending at the certified value; -o FILE.svg picks SVG; a rejected
/// certificate is reported, not drawn.
#[test]
fn a_voronoi_value_is_drawn_along_its_principal_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let g8 = common::write(dir.path(), "g8.g6", "GCpbQs\n");
    let gen =
        ["gen", "graph", "--graph6", g8.to_str().unwrap(), "--rounds", "2", "-o", &p("g.json")];
    assert!(gamecert(&gen).status.success());
    assert!(gamecert(&["solve", &p("g.json"), "-o", &p("g.cert"), "-q"]).status.success());
    let cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("g.cert")).unwrap()).unwrap();
    assert_eq!(cert["value"], -1, "the census's one graph B wins at n = 8, R = 2");
    let args = ["render", &p("g.json"), "--certificate", &p("g.cert"), "--frames", &p("f")];
    let out = gamecert(&[&args[..], &["-o", &p("g.svg")]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("4 moves; W's margin at the end is -1"), "{}", stderr(&out));
    let frames: Vec<String> = (0..5)
        .map(|k| std::fs::read_to_string(dir.path().join(format!("f/play-{k:03}.svg"))).unwrap())
        .collect();
    assert!(!dir.path().join("f/play-005.svg").exists());
    assert!(frames[0].contains("W: 0 stones") && frames[0].contains("the start"));
    let last = std::fs::read_to_string(p("g.svg")).unwrap();
    assert_eq!(last, frames[4]);
    // Final margin -1: B owns one vertex more than W.
    let owns = |who: &str| -> i64 {
        let label = format!("{who}: 2 stones, owns ");
        let at = last.find(&label).unwrap() + label.len();
        last[at..].split(|c: char| !c.is_ascii_digit()).next().unwrap().parse().unwrap()
    };
    assert_eq!(owns("W") - owns("B"), -1, "{last}");
    assert_eq!(last.matches("<circle").count(), 8);
    // DOT has no frames; a tampered certificate is not drawn.
    let tampered =
        std::fs::read_to_string(p("g.cert")).unwrap().replacen("\"value\": -1", "\"value\": 0", 1);
    let bad = common::write(dir.path(), "bad.cert", &tampered);
    let out = gamecert(&["render", &p("g.json"), "--certificate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(common::stdout(&out).contains("REJECTED"));
}

/// A path's gap-state certificate is placed on the concrete path, and a k-ary tree is laid out
/// in layers.
#[test]
fn paths_and_trees_are_drawn_with_their_own_layouts() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let gen = ["gen", "path", "--vertices", "9", "--rounds", "2", "-o", &p("p.json"), "-q"];
    assert!(gamecert(&gen).status.success());
    assert!(gamecert(&["solve", &p("p.json"), "-o", &p("p.cert"), "-q"]).status.success());
    let out = gamecert(&["render", &p("p.json"), "--certificate", &p("p.cert"), "-o", &p("p.svg")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = std::fs::read_to_string(p("p.svg")).unwrap();
    let heights: std::collections::HashSet<&str> =
        svg.match_indices("cy=\"").map(|(at, _)| &svg[at..at + 10]).collect();
    assert_eq!(heights.len(), 1, "a path on one line");
    assert!(svg.contains("W: 2 stones") && svg.contains("B: 2 stones"));
    let gen =
        ["gen", "kary-tree", "--k", "3", "--height", "2", "--rounds", "1", "-o", &p("k.json")];
    assert!(gamecert(&gen).status.success());
    let out = gamecert(&["render", &p("k.json"), "--format", "svg"]);
    let svg = common::stdout(&out);
    let heights: std::collections::HashSet<&str> =
        svg.match_indices("cy=\"").map(|(at, _)| &svg[at..at + 10]).collect();
    assert_eq!(heights.len(), 3, "three layers");
}

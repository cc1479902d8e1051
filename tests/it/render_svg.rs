//! `gamecert render`: games on point sets (seed 000) as SVG of a board and a certificate's play
//! as numbered frames, drawn with the point set's order type and labels that cover nothing;
//! Voronoi games along a certificate's principal line, with what was certified beside it.
use crate::common;
use common::pictures::words;
use common::{bad_input, gamecert, stderr};
use gamecert::base::svg::{boxes_meet, Colour, Frame, Page, Sheet, Stroke, DOT};
use gamecert::triangulations::generate::{generate, Kind};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::geometry::{orient, Point};

/// Every point's centre as the SVG draws it (`<circle cx=".." cy=".."`).
fn drawn_centres(svg: &str) -> Vec<[f64; 2]> {
    let number = |line: &str, key: &str| -> f64 {
        let from = line.find(key).unwrap() + key.len();
        line[from..].split('"').next().unwrap().parse().unwrap()
    };
    svg.lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| [number(l, " cx=\""), number(l, " cy=\"")])
        .collect()
}

/// The least height a drawn triple may have, in pixels: well above the SVG's rounding to 0.1.
const MIN_DRAWN_HEIGHT: f64 = 1.0;

/// Every triple of `points` turns the same way in the drawing `svg` as in the exact integer
/// coordinates (the page's y axis points down, so a counter-clockwise triple is drawn
/// clockwise), and none is drawn closer to collinear than [`MIN_DRAWN_HEIGHT`].
fn assert_same_order_type(points: &[Point], svg: &str, what: &str) {
    let at = drawn_centres(svg);
    assert_eq!(at.len(), points.len(), "{what}");
    let n = points.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                let exact = orient(points[a], points[b], points[c]);
                let [p, q, r] = [at[a], at[b], at[c]];
                let drawn = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
                let side = |u: [f64; 2], v: [f64; 2]| (u[0] - v[0]).hypot(u[1] - v[1]);
                let height = drawn.abs() / side(p, q).max(side(q, r)).max(side(p, r));
                assert!(
                    exact != 0 && (drawn < 0.0) == (exact > 0),
                    "{what}: ({a}, {b}, {c}) turns the other way"
                );
                assert!(
                    height >= MIN_DRAWN_HEIGHT,
                    "{what}: ({a}, {b}, {c}) drawn {height:.2} px from flat"
                );
            }
        }
    }
}

/// No label covers a point or another label, and every label is on the page below the
/// caption; a label that found no place is listed under the picture, and with `all_placed`
/// there is none.
fn assert_labels_apart(page: &Page, all_placed: bool, what: &str) {
    assert!(!all_placed || page.unplaced.is_empty(), "{what}: no room for {:?}", page.unplaced);
    let listed = words(&page.to_svg());
    for label in &page.unplaced {
        assert!(listed.contains(label.as_str()), "{what}: {label} is neither drawn nor listed");
    }
    let caption = 8.0 + 18.0 * page.title.len() as f64 + 14.0 * page.notes.len() as f64;
    for (k, label) in page.labels.iter().enumerate() {
        let (left, top, right, bottom) = label.area;
        assert!(
            left >= 0.0 && top >= caption && right <= page.width && bottom <= page.height,
            "{what}: {label:?} off the page"
        );
        for other in &page.labels[k + 1..] {
            assert!(!boxes_meet(label.area, other.area), "{what}: {label:?} covers {other:?}");
        }
        for c in &page.centres {
            let dot = (c[0] - DOT, c[1] - DOT, c[0] + DOT, c[1] + DOT);
            assert!(!boxes_meet(label.area, dot), "{what}: {label:?} covers the point at {c:?}");
        }
    }
}

/// The least angle of any triangle of `triangles` as drawn at `centres`, in degrees.
fn least_angle(centres: &[[f64; 2]], triangles: &[[usize; 3]]) -> f64 {
    let mut least = 180.0_f64;
    for t in triangles {
        for k in 0..3 {
            let [a, b, c] = [centres[t[k]], centres[t[(k + 1) % 3]], centres[t[(k + 2) % 3]]];
            let (u, v) = ([b[0] - a[0], b[1] - a[1]], [c[0] - a[0], c[1] - a[1]]);
            let cross = (u[0] * v[1] - u[1] * v[0]).abs();
            least = least.min(cross.atan2(u[0] * v[0] + u[1] * v[1]).to_degrees());
        }
    }
    least
}

/// Issue 25, item 5: every generator family at several sizes, with a play's worth of labels
/// (every edge numbered as a move), is drawn with the order type of its points, its labels
/// covering nothing, on a square-ish page that grows with the points; a drawing that is not the
/// true coordinates says so. The convex families are drawn on a circle, whose least angle is
/// 180/n degrees, and the wheel's triangles keep an angle of 4 degrees; every label finds a place on them. Random inner
/// points (`points`) can force near-collinear triples in every drawing with their order type:
/// there, from 22 points on, a label may find no place and is listed under the picture. With
/// GAMECERT_PICTURES=DIR the pictures are written there, to be looked at.
#[test]
fn every_family_keeps_its_order_type_and_labels_apart() {
    let keep = std::env::var_os("GAMECERT_PICTURES").map(std::path::PathBuf::from);
    let kinds = [
        (Kind::Convex, "convex"),
        (Kind::Fan, "fan"),
        (Kind::Serpentine, "serpentine"),
        (Kind::SimpleBranching, "simple-branching"),
        (Kind::Wheel, "wheel"),
        (Kind::Points, "points"),
    ];
    for (kind, name) in kinds {
        let mut widths = Vec::new();
        // Random inner points are drawn up to 22 of them: beyond, a triple may be drawn closer
        // to collinear than the 1 pixel asked here (its orientation still right).
        let sizes: &[usize] =
            if kind == Kind::Points { &[5, 9, 14, 22] } else { &[5, 9, 14, 22, 40] };
        for &n in sizes {
            let what = format!("{name} with {n} points");
            let spec = generate(kind, n, n / 3, 7).unwrap();
            let edges = spec.validate(&mut Budget::new(u64::MAX)).unwrap().edges;
            let start = Frame {
                strokes: edges.iter().map(|&e| Stroke::new(e, Colour::Black)).collect(),
                title: format!("{what}: start"),
            };
            let played = Frame {
                strokes: edges
                    .iter()
                    .enumerate()
                    .map(|(k, &e)| Stroke {
                        edge: e,
                        colour: Colour::Green,
                        label: Some(format!("{}{}", k + 1, if k % 2 == 0 { "R" } else { "B" })),
                    })
                    .collect(),
                title: format!("{what}: every edge played"),
            };
            let mut sheet = Sheet::of_points(&spec.points);
            let redrawn = sheet.layout().drawn != gamecert::base::point_layout::Drawn::TrueShape;
            let pages = sheet.pages(&[start, played]);
            for page in &pages {
                let svg = page.to_svg();
                if let Some(dir) = &keep {
                    std::fs::create_dir_all(dir).unwrap();
                    let frame = if page.labels.len() > n { "played" } else { "start" };
                    std::fs::write(dir.join(format!("{name}-{n}-{frame}.svg")), &svg).unwrap();
                }
                assert_same_order_type(&spec.points, &svg, &what);
                assert_labels_apart(page, kind != Kind::Points || n < 22, &what);
                let angle = least_angle(&page.centres, &spec.triangles);
                let least = match kind {
                    Kind::Points => 0.0,
                    Kind::Wheel => 4.0,
                    _ => 170.0 / n as f64,
                };
                assert!(angle >= least, "{what}: a triangle's angle is {angle:.2} degrees");
                assert_eq!(
                    page.labels.len() + page.unplaced.len(),
                    n + page.strokes.iter().filter(|s| s.label.is_some()).count(),
                    "{what}"
                );
                let ratio = page.width / page.height;
                assert!((0.7..=1.4).contains(&ratio), "{what}: {} x {}", page.width, page.height);
                assert_eq!(
                    redrawn,
                    words(&svg).contains("order type"),
                    "{what}: the caption on the coordinates"
                );
            }
            widths.push(pages[1].width);
        }
        assert!(
            widths.windows(2).all(|w| w[0] <= w[1]),
            "{name}: pages grow with the points: {widths:?}"
        );
    }
}

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
    // The drawn play is the winner's strategy against one reply, and says so.
    let note = stderr(&out);
    assert!(note.contains("this play ends with the first player winning"), "{note}");
    // One-colour Nimstring has a first and a second player, no red R and blue B (issue 48).
    assert!(note.contains("certified: the first player (F) wins against every reply"), "{note}");
    assert!(!note.contains("R (") && !note.contains("B ("), "{note}");
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
    assert!(last.contains(">1F<") && last.contains("move 13 of 13"));
    assert!(!last.contains("R<") && !last.contains("B<"), "no red or blue player's moves");
    let caption = words(&last);
    assert!(caption.contains("the first player (F) follows the certificate's winning strategy"));
    assert!(caption.contains("the second (S) colours the lowest-numbered legal edge"));
    assert!(caption.contains("same cyclic order"), "a fan on the parabola is redrawn on a circle");
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
    // Both strategies play, so the line ends at the certified value, and says both.
    let note = stderr(&out);
    assert!(note.contains("4 moves; this play ends with W's margin -1"), "{note}");
    assert!(note.contains("Certified value (W's margin under best play): -1"), "{note}");
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
    assert_eq!(last.matches("<circle data-vertex").count(), 8);
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

/// Issue 25: a one-sided strategy's line is one reply of many, not the value. The picture and
/// the note say whose line it is, and give the least margin over every reply beside the
/// certificate's claim; that margin is the checker's own (its replay's worst margin).
#[test]
fn a_strategy_line_is_not_reported_as_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let gen =
        ["gen", "kary-tree", "--k", "3", "--height", "3", "--rounds", "2", "-o", &p("k.json")];
    assert!(gamecert(&gen).status.success());
    let solve = ["solve", &p("k.json"), "-o", &p("k.cert"), "--method", "kary", "-q"];
    assert!(gamecert(&solve).status.success());
    let cert = std::fs::read_to_string(p("k.cert")).unwrap();
    assert!(cert.contains("\"voronoi-strategy\""), "{cert}");
    let verify = common::stdout(&gamecert(&["verify", &p("k.json"), &p("k.cert")]));
    let worst = verify.split("worst margin ").nth(1).unwrap().split(')').next().unwrap();
    let out = gamecert(&["render", &p("k.json"), "--certificate", &p("k.cert"), "-o", &p("k.svg")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = stderr(&out);
    assert!(
        note.contains(
            "B takes its lowest-numbered empty vertex (one reply of many, not best play)"
        ),
        "{note}"
    );
    assert!(note.contains(&format!("W's least margin over all replies is {worst}.")), "{note}");
    let svg = std::fs::read_to_string(p("k.svg")).unwrap();
    let caption = words(&svg);
    assert!(
        caption.contains("not best play") && caption.contains(&format!("all replies is {worst}"))
    );
}

/// A flip-value is checked before it is drawn; its frames say who plays and the certified
/// value, which the drawn play reaches when both sides have strategies.
#[test]
fn a_flip_value_is_checked_and_its_value_stated() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let b = p("b.json");
    let gen = ["gen", "triangulation", "--kind", "points", "--points", "8", "--inner", "2"];
    let gen = [&gen[..], &["--flip", "bichromatic-flipping", "-o", &b]].concat();
    assert!(gamecert(&gen).status.success());
    assert!(gamecert(&["solve", &p("b.json"), "-o", &p("b.cert"), "-q"]).status.success());
    let cert: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p("b.cert")).unwrap()).unwrap();
    let value = cert["value"].as_i64().unwrap();
    let out = gamecert(&["render", &p("b.json"), "--certificate", &p("b.cert"), "-o", &p("b.svg")]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = stderr(&out);
    if cert.get("first").is_some() && cert.get("second").is_some() {
        assert!(note.contains(&format!("ends at {value} (red minus blue edges)")), "{note}");
    }
    assert!(
        note.contains(&format!("the certified value is {value} (red minus blue edges)")),
        "{note}"
    );
    let svg = std::fs::read_to_string(p("b.svg")).unwrap();
    assert!(
        words(&svg).contains(&format!("Certified value: {value} (red minus blue edges).")),
        "{svg}"
    );
    // A tampered value is the checker's rejection, not a picture.
    let tampered = std::fs::read_to_string(p("b.cert")).unwrap().replacen(
        &format!("\"value\": {value}"),
        &format!("\"value\": {}", value + 1),
        1,
    );
    let bad = common::write(dir.path(), "bad.cert", &tampered);
    let out = gamecert(&["render", &p("b.json"), "--certificate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(common::stdout(&out).contains("REJECTED"));
}

/// The last frame of a small Nimstring play, drawn: a reviewed picture (fan on a circle, move
/// labels on their edges, the caption on whose play and on the coordinates).
#[test]
fn a_fan_play_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let gen = ["gen", "triangulation", "--kind", "fan", "--points", "6", "--game", "nimstring"];
    assert!(gamecert(&[&gen[..], &["-o", &p("fan6.json")]].concat()).status.success());
    assert!(gamecert(&["solve", &p("fan6.json"), "-o", &p("fan6.cert"), "-q"]).status.success());
    let out = gamecert(&["render", &p("fan6.json"), "--certificate", &p("fan6.cert"), "-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    insta::assert_snapshot!("fan6_nimstring_play", common::stdout(&out));
}

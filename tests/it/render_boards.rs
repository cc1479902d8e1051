//! Pictures of heap games, coin-turning boards and the games on point sets (issue 34, item 1):
//! `gamecert render` draws them with and without a certificate, every clickable element of a
//! position's picture (`data-move`) is a legal move in the game's notation, captions count in
//! the right number, labels on point sets are never struck through by an edge, and a tampered
//! certificate is refused. With GAMECERT_PICTURES=DIR the pictures are written there, to be
//! looked at.
use crate::common::pictures::{clicks, fixture, words};
use crate::common::{self, gamecert, stderr, stdout};
use gamecert::base::io::{parse_instance, read_certificate};
use gamecert::play::{Position, Strategy};
use gamecert_certificates::Limits;
use std::path::{Path, PathBuf};

fn keep(name: &str, svg: &str) {
    if let Some(dir) = std::env::var_os("GAMECERT_PICTURES") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.svg")), svg).unwrap();
    }
}

/// The value of attribute `key` in one SVG element's text.
fn attribute(element: &str, key: &str) -> Option<f64> {
    let key = format!(" {key}=\"");
    let from = element.find(&key)? + key.len();
    element[from..].split('"').next()?.parse().ok()
}

type Area = (f64, f64, f64, f64);

/// The boxes of a point-set picture's labels (centred text: point and move numbers), as
/// `crate::base::svg` measures them, and the segments it draws (its `<line>`s but the click
/// targets, the dotted hints and the marked highlight, which lie under the labels' halos or are
/// invisible).
fn labels_and_edges(svg: &str) -> (Vec<(String, Area)>, Vec<[f64; 4]>) {
    let mut labels = Vec::new();
    let mut edges = Vec::new();
    for line in svg.lines() {
        if line.starts_with("<text") && line.contains("text-anchor=\"middle\"") {
            let (x, y, font) = (
                attribute(line, "x").unwrap(),
                attribute(line, "y").unwrap(),
                attribute(line, "font-size").unwrap(),
            );
            let text = line.split_once('>').unwrap().1.trim_end_matches("</text>").to_string();
            let half = text.chars().count() as f64 * font * 0.35 + 2.0;
            labels.push((text, (x - half, y - font * 0.8 - 1.5, x + half, y + font * 0.2 + 1.5)));
        }
        let overlay = ["class=\"move\"", "class=\"hint\"", "class=\"marked\""];
        if line.starts_with("<line") && !overlay.iter().any(|c| line.contains(c)) {
            let at = |k: &str| attribute(line, k).unwrap();
            edges.push([at("x1"), at("y1"), at("x2"), at("y2")]);
        }
    }
    (labels, edges)
}

/// Whether the segment meets the box (Liang-Barsky clipping).
fn meets(area: Area, [x1, y1, x2, y2]: [f64; 4]) -> bool {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (p, q) in [(-dx, x1 - area.0), (dx, area.2 - x1), (-dy, y1 - area.1), (dy, area.3 - y1)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    t0 <= t1
}

/// No label of a point-set picture is struck through by a drawn segment.
fn assert_no_label_struck(svg: &str, what: &str) {
    let (labels, edges) = labels_and_edges(svg);
    assert!(!labels.is_empty(), "{what}: no label found");
    for (text, area) in &labels {
        for e in &edges {
            assert!(!meets(*area, *e), "{what}: label {text} at {area:?} is struck by {e:?}");
        }
    }
}

/// Plays a game from the start (the certified side replying, the other its first legal move)
/// for at most `most` moves, drawing each position with the move about to be played marked,
/// and checks every picture: every click is a legal move whose notation reads back to itself,
/// each click target is a `class="move"`, and the caption is there. Returns the pictures.
fn play_and_draw(strategy: &Strategy, name: &str, most: usize) -> Vec<String> {
    let mut position: Position = strategy.start();
    let mut pictures = Vec::new();
    for step in 0..most {
        let legal = position.legal_moves();
        let chosen = strategy.reply(&position).or_else(|| legal.first().cloned());
        let caption = format!("{name}: move {}", step + 1);
        let svg = position.svg(chosen.as_ref(), &caption);
        assert!(svg.starts_with("<svg") && svg.contains(&caption), "{name}: {svg}");
        let found = clicks(&svg);
        assert_eq!(found.len(), svg.matches("class=\"move\"").count(), "{name}");
        for notation in &found {
            let mv = position
                .parse_move(notation)
                .unwrap_or_else(|e| panic!("{name}, move {}: '{notation}': {e}", step + 1));
            assert_eq!(mv.notation(), notation, "{name}: a click's notation reads back");
            assert!(legal.contains(&mv), "{name}: {notation} is a legal move");
        }
        if legal.is_empty() {
            assert!(!words(&svg).contains("lick "), "{name}: the end asks for no click");
        } else {
            assert!(!found.is_empty(), "{name}, move {}: nothing to click", step + 1);
        }
        keep(&format!("{name}-{step:03}"), &svg);
        pictures.push(svg);
        let Some(chosen) = chosen else { break };
        position = position.apply(&chosen);
    }
    pictures
}

fn checked(instance: &Path, certificate: &Path) -> Strategy {
    Strategy::checked(
        &parse_instance(instance).unwrap(),
        &read_certificate(certificate).unwrap(),
        &Limits::default(),
    )
    .unwrap()
}

/// A 1-D coin game (turning turtles on 12 coins), solved.
fn turtles(dir: &Path) -> (PathBuf, PathBuf) {
    let instance = common::write(
        dir,
        "turtles.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
            "rule": {"game": "turning-turtles"}, "board": [12], "heads": [[3], [8], [12]]}"#,
    );
    let certificate = dir.join("turtles.cert.json");
    let solve =
        gamecert(&["solve", instance.to_str().unwrap(), "-o", certificate.to_str().unwrap()]);
    assert!(solve.status.success(), "{}", stderr(&solve));
    (instance, certificate)
}

#[test]
fn every_click_of_every_position_is_a_legal_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut games: Vec<(String, PathBuf, PathBuf)> = [
        "heap-labelling",
        "coin-labelling",
        "marking-strategy",
        "construct-strategy",
        "flip-value",
    ]
    .iter()
    .map(|k| (k.to_string(), fixture(k, "instance.json"), fixture(k, "accept.json")))
    .collect();
    let (i, c) = turtles(dir.path());
    games.push(("turtles".into(), i, c));
    // A marking game on a triangulation and a two-colour flip game, from the generator.
    let generated = [
        ("nimstring", &["--kind", "fan", "--points", "7", "--game", "nimstring"][..]),
        (
            "bichromatic",
            &["--kind", "convex", "--points", "7", "--flip", "bichromatic-flipping"][..],
        ),
    ];
    for (name, args) in generated {
        let i = dir.path().join(format!("{name}.json"));
        let c = dir.path().join(format!("{name}.cert.json"));
        let (si, sc) = (i.to_str().unwrap(), c.to_str().unwrap());
        let gen = [&["gen", "triangulation"][..], args, &["-o", si, "-q"]].concat();
        assert!(gamecert(&gen).status.success(), "{gen:?}");
        let solved = gamecert(&["solve", si, "-o", sc, "-q"]);
        assert!(solved.status.success(), "{name}: {}", stderr(&solved));
        games.push((name.into(), i, c));
    }
    for (name, instance, certificate) in games {
        // The fixture's 100 x 100 board plays long: its first moves are enough.
        let most = if name == "coin-labelling" { 3 } else { 400 };
        let pictures = play_and_draw(&checked(&instance, &certificate), &name, most);
        let first = &pictures[0];
        match name.as_str() {
            "heap-labelling" => {
                assert!(words(first).contains("3 heaps, 21 tokens"), "{first}");
                assert!(first.contains("crossed out in red"));
                assert!(words(first).contains("Certified (heap-labelling)"));
            }
            "coin-labelling" | "turtles" => {
                assert!(words(first).contains("2 heads") || words(first).contains("3 heads"));
                assert!(first.contains("outlined in red"));
            }
            _ => {
                assert!(first.contains("class=\"marked\""), "{name}: the marked move");
                for (k, svg) in pictures.iter().enumerate() {
                    assert_no_label_struck(svg, &format!("{name}, position {k}"));
                }
            }
        }
    }
}

/// `render` without a certificate draws a heap or coin game's start; with one, its play; the
/// captions count in the right number.
#[test]
fn heaps_and_coins_are_drawn_with_and_without_a_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let one = common::write(
        dir.path(),
        "one.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
            "game": "kayles", "heaps": [1]}"#,
    );
    let out = gamecert(&["render", one.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = stdout(&out);
    keep("heap-one-start", &svg);
    assert!(words(&svg).contains("1 heap, 1 token (the game 0.77)"), "{svg}");
    assert_eq!(svg.matches("<circle").count(), 1);
    assert_eq!(clicks(&svg), ["1:0"], "the start is clickable by the rules alone");
    // A long heap is capped, its size said.
    let long = common::write(
        dir.path(),
        "long.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
            "game": "kayles", "heaps": [500, 2]}"#,
    );
    let svg = stdout(&gamecert(&["render", long.to_str().unwrap()]));
    keep("heap-long-start", &svg);
    assert!(words(&svg).contains("2 heaps, 502 tokens") && words(&svg).contains("(500)"));
    assert!(svg.contains("…") && svg.matches("<circle").count() < 60);
    // The fixture's 100 x 100 board plays 200 moves: its play is drawn from a 1-D game here.
    let (turtles, turtles_cert) = turtles(dir.path());
    let games = [
        ("heap-labelling", "3 heaps, 21 tokens", fixture("heap-labelling", "instance.json")),
        ("coin-labelling", "2 heads", fixture("coin-labelling", "instance.json")),
        ("turtles", "3 heads", turtles.clone()),
    ];
    for (kind, expect, instance) in games {
        let out = gamecert(&["render", instance.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stderr(&out));
        let svg = stdout(&out);
        keep(&format!("{kind}-start"), &svg);
        assert!(words(&svg).contains(expect) && words(&svg).contains("the start"), "{svg}");
        assert!(words(&svg).contains("No certificate"));
    }
    let plays = [
        (
            "heap-labelling",
            fixture("heap-labelling", "instance.json"),
            fixture("heap-labelling", "accept.json"),
        ),
        ("turtles", turtles, turtles_cert),
    ];
    for (kind, instance, certificate) in plays {
        let frames = p(&format!("{kind}-frames"));
        let args = ["render", instance.to_str().unwrap(), "--certificate"];
        let out =
            gamecert(&[&args[..], &[certificate.to_str().unwrap(), "--frames", &frames]].concat());
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stderr(&out));
        let first = std::fs::read_to_string(Path::new(&frames).join("play-000.svg")).unwrap();
        assert!(words(&first).contains("(the certificate's move)"), "{first}");
        assert!(first.contains("data-move"));
    }
    // One head, in the singular.
    let coin = common::write(
        dir.path(),
        "coin.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
            "rule": {"game": "ruler"}, "board": [1], "heads": [[1]]}"#,
    );
    let svg = stdout(&gamecert(&["render", coin.to_str().unwrap()]));
    assert!(words(&svg).contains("A row of 1 coin, 1 head (gold H)"), "{svg}");
}

/// A tampered heap or coin certificate is the checker's rejection, not a picture.
#[test]
fn a_tampered_certificate_is_not_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let heap = fixture("heap-labelling", "instance.json");
    let wrong = fixture("heap-labelling", "reject-wrong-label.json");
    let out =
        gamecert(&["render", heap.to_str().unwrap(), "--certificate", wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("REJECTED"), "{}", stdout(&out));
    let coins = fixture("coin-labelling", "instance.json");
    let good = std::fs::read_to_string(fixture("coin-labelling", "accept.json")).unwrap();
    let value = good.split("\"value\": ").nth(1).unwrap().split([',', '\n']).next().unwrap();
    let tampered = good.replacen(
        &format!("\"value\": {value}"),
        &format!("\"value\": {}", value.trim().parse::<u64>().unwrap() + 1),
        1,
    );
    let bad = common::write(dir.path(), "bad.json", &tampered);
    let out =
        gamecert(&["render", coins.to_str().unwrap(), "--certificate", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stdout(&out).contains("REJECTED"), "{}", stdout(&out));
}

/// `render`'s frames of a marking and a flip play: move labels sit beside their edges, and no
/// label is struck through by any edge drawn.
#[test]
fn render_labels_are_never_struck_through() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let games = [
        ("fan", &["--kind", "fan", "--points", "9", "--game", "nimstring"][..]),
        ("wheel", &["--kind", "wheel", "--points", "8", "--game", "coloring"][..]),
        ("flip", &["--kind", "points", "--points", "8", "--inner", "2", "--flip", "all-green"][..]),
    ];
    for (name, args) in games {
        let (i, c) = (p(&format!("{name}.json")), p(&format!("{name}.cert")));
        let gen = [&["gen", "triangulation"][..], args, &["-o", &i, "-q"]].concat();
        assert!(gamecert(&gen).status.success(), "{gen:?}");
        let solved = gamecert(&["solve", &i, "-o", &c, "-q"]);
        assert!(solved.status.success(), "{name}: {}", stderr(&solved));
        let frames = p(&format!("{name}-frames"));
        let out = gamecert(&["render", &i, "--certificate", &c, "--frames", &frames]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
        let mut names: Vec<PathBuf> =
            std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().path()).collect();
        names.sort();
        assert!(names.len() > 1, "{name}");
        for frame in names {
            let svg = std::fs::read_to_string(&frame).unwrap();
            keep(&format!("render-{name}-{}", frame.file_stem().unwrap().to_string_lossy()), &svg);
            assert_no_label_struck(&svg, &frame.display().to_string());
        }
    }
}

/// Every generator family with a play's worth of move labels (every edge numbered): no label is
/// struck through by an edge, at any size the pictures are drawn at.
#[test]
fn no_label_of_any_family_is_struck_through() {
    use gamecert::base::svg::{Colour, Frame, Sheet, Stroke};
    use gamecert::triangulations::generate::{generate, Kind};
    use gamecert_certificates::base::budget::Budget;
    let kinds = [Kind::Convex, Kind::Fan, Kind::Serpentine, Kind::Wheel, Kind::Points];
    for kind in kinds {
        for n in [6, 12, 22] {
            let what = format!("{kind:?} with {n} points");
            let spec = generate(kind, n, n / 3, 7).unwrap();
            let edges = spec.validate(&mut Budget::new(u64::MAX)).unwrap().edges;
            let played = Frame {
                strokes: edges
                    .iter()
                    .enumerate()
                    .map(|(k, &e)| Stroke {
                        edge: e,
                        colour: if k % 2 == 0 { Colour::Red } else { Colour::Blue },
                        label: Some(format!("{}", k + 1)),
                    })
                    .collect(),
                title: what.clone(),
            };
            let svg = Sheet::of_points(&spec.points).draw(&[played]).remove(0);
            keep(&format!("family-{kind:?}-{n}"), &svg);
            assert_no_label_struck(&svg, &what);
        }
    }
}

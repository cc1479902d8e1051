//! Pictures at size (issue 42, items 2 and 8): wide trees in rings (no crossing, at most three
//! times as wide as high), long paths and cycles in rows, the papers' reductions laid out by
//! their gadgets (their only crossings the ones the constructions force), the words legible at
//! the size the picture is shown, the claim stated once, vertex nim's picture its start with
//! the certified first move, and `table green-wins --out` writing counterexamples that
//! `render` draws and `verify` accepts.

use crate::common::pictures::{fixture, words};
use crate::common::{gamecert, stderr, stdout};
use gamecert::base::gadget_layout::layout_graph;
use gamecert::base::graph_layout::{crossings, layout_edges, Layout, Point};
use gamecert::base::graph_svg::{VoronoiPicture, MARK};
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;

type Edges = Vec<(usize, usize)>;

/// Width over height or height over width, whichever is larger.
fn aspect(points: &[Point]) -> f64 {
    let (x0, x1) = points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (y0, y1) = points.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let (w, h) = ((x1 - x0).max(1e-9), (y1 - y0).max(1e-9));
    w.max(h) / w.min(h)
}

/// The complete `k`-ary tree of `height` levels below the root (vertex 0), and each vertex's
/// depth.
fn kary(k: usize, height: u32) -> (usize, Edges, Vec<usize>) {
    let mut edges = Vec::new();
    let mut depth = vec![0];
    let mut level = vec![0];
    for d in 1..=height as usize {
        let mut next = Vec::new();
        for &parent in &level {
            for _ in 0..k {
                depth.push(d);
                edges.push((parent, depth.len() - 1));
                next.push(depth.len() - 1);
            }
        }
        level = next;
    }
    (depth.len(), edges, depth)
}

/// The demo's k-ary trees (and wider and deeper ones): drawn without a crossing, no more than
/// three times as wide as high (the layered drawing of the 6-ary tree of height 3 was 11
/// times), in rings: every vertex of one depth at one distance from the root.
#[test]
fn wide_trees_are_drawn_in_rings_without_crossings() {
    for (k, height) in [(6, 3), (5, 4), (4, 4), (3, 5), (12, 2), (2, 7)] {
        let (n, edges, depth) = kary(k, height);
        let at = layout_edges(n, &edges);
        assert_eq!(crossings(&at, &edges), 0, "the {k}-ary tree of height {height} crosses");
        assert!(aspect(&at) <= 3.0, "the {k}-ary tree of height {height}: {}", aspect(&at));
        if k > 2 {
            let radius = |v: usize| (at[v].0 - at[0].0).hypot(at[v].1 - at[0].1);
            for v in 1..n {
                let first = (1..n).find(|&u| depth[u] == depth[v]).unwrap();
                assert!((radius(v) - radius(first)).abs() < 1e-9, "{k}-ary: not on its ring");
            }
        }
    }
    // A broom: a long handle and many bristles, drawn without a crossing either way. Its
    // handle of 8 edges sticks out of the bristles' ring, so it is held to 4:1, not 3:1
    // (measured 3.4 on 2026-11-28; the 3:1 goal is the complete trees').
    let mut edges: Edges = (0..8).map(|v| (v, v + 1)).collect();
    edges.extend((9..60).map(|v| (8, v)));
    let at = layout_edges(60, &edges);
    assert_eq!(crossings(&at, &edges), 0);
    assert!(aspect(&at) <= 4.0, "the broom: {}", aspect(&at));
}

/// Paths beyond a line's length and cycles beyond a circle's are snakes in rows: no crossing,
/// no long edge (a step, a row's turn, the spine's odd double step), a picture at most twice as
/// wide as high.
#[test]
fn long_paths_and_cycles_are_drawn_in_rows() {
    let check = |what: &str, n: usize, edges: &Edges| {
        let at = layout_edges(n, edges);
        assert_eq!(crossings(&at, edges), 0, "{what} crosses");
        assert!(aspect(&at) <= 3.0, "{what}: {}", aspect(&at));
        let length = |&(a, b): &(usize, usize)| (at[a].0 - at[b].0).hypot(at[a].1 - at[b].1);
        let shortest = edges.iter().map(length).fold(f64::MAX, f64::min);
        let longest = edges.iter().map(length).fold(0.0, f64::max);
        assert!(longest <= 2.6 * shortest, "{what}: an edge {longest} against {shortest}");
    };
    for n in [31, 100, 1000] {
        let edges: Edges = (0..n - 1).map(|v| (v, v + 1)).collect();
        check(&format!("the path of {n}"), n, &edges);
    }
    for n in [41, 42, 57, 101, 1000] {
        let edges: Edges = (0..n).map(|v| (v, (v + 1) % n)).collect();
        check(&format!("the cycle of {n}"), n, &edges);
    }
    // A short path stays on its line.
    let edges: Edges = (0..11).map(|v| (v, v + 1)).collect();
    assert!(layout_edges(12, &edges).iter().all(|p| p.1 == 0.0));
}

/// A graph's names and edges by index.
fn named(vertices: &[String], edges: &[(String, String)]) -> (Vec<String>, Edges) {
    let graph = Graph::new(vertices, edges).unwrap();
    (graph.names().map(str::to_string).collect(), graph.edges())
}

/// Theorem 3's graph of a DIMACS formula (normalised as `reduce` does).
fn sat_graph(dimacs: &str, problem: SatVoronoi) -> (Vec<String>, Edges) {
    let cnf = gamecert_reductions::dimacs::parse_dimacs(dimacs, "test").unwrap().cnf;
    let spec = gamecert_reductions::sat_voronoi::reduce(&cnf, problem).unwrap().instance;
    named(&spec.graph.vertices, &spec.graph.edges)
}

/// Theorem 4's graph of a positive DNF.
fn dnf_graph(text: &str) -> (Vec<String>, Edges) {
    let dnf = gamecert_certificates::posdnf::dnf_text::parse_posdnf(text, "test").unwrap().dnf;
    let built = gamecert_reductions::posdnf_voronoi::build(&dnf).unwrap();
    named(&built.graph.vertices, &built.graph.edges)
}

/// The crossings between the pieces `a` and the pieces `b` of a drawing.
fn crossings_between(points: &[Point], a: &Edges, b: &Edges) -> usize {
    let both: Edges = a.iter().chain(b).copied().collect();
    crossings(points, &both) - crossings(points, a) - crossings(points, b)
}

/// An edge of the graph and the segment (two point indices) that draws it.
type DrawnEdge = ((usize, usize), (usize, usize));

/// The layout's pieces, each with the edge it draws (every edge of these layouts one piece).
fn pieces(layout: &Layout, edges: &Edges) -> (Vec<Point>, Vec<DrawnEdge>) {
    let (points, segments) = layout.drawn(edges);
    assert_eq!(segments.len(), edges.len(), "a route with a bend");
    (points, edges.iter().copied().zip(segments).collect())
}

/// No two vertices (nor a copy) closer than two stones: nothing drawn on anything.
fn assert_apart(what: &str, points: &[Point], least: f64) {
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d = (p.0 - q.0).hypot(p.1 - q.1);
            assert!(d >= least, "{what}: two vertices {d:.1} px apart at {p:?}");
        }
    }
}

const FIGURE3: &str = "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n";
const WIDE: &str = "p cnf 5 5\n1 2 3 4 5 0\n-1 2 0\n-1 -2 0\n-1 3 0\n1 -4 0\n";
const ALL_EIGHT: &str = "p cnf 3 8\n1 2 3 0\n1 2 -3 0\n1 -2 3 0\n1 -2 -3 0\n-1 2 3 0\n\
                         -1 2 -3 0\n-1 -2 3 0\n-1 -2 -3 0\n";

/// Theorem 3's graphs by their gadgets: the variable gadgets in a row, the clauses below, `u`
/// above and drawn again below. The clause edges cross nothing but each other; the rest
/// crosses only inside each variable's K(2,3) (three crossings a gadget: with `u` and the z's
/// it is a subdivided K(3,3)); the drawing at most three times as wide as high.
#[test]
fn theorem_3_graphs_are_drawn_by_their_gadgets() {
    for (what, formula, problem) in [
        ("figure 3", FIGURE3, SatVoronoi::Problem1),
        ("figure 3, problem 2", FIGURE3, SatVoronoi::Problem2),
        ("a wide clause", WIDE, SatVoronoi::Problem1),
        ("all eight clauses", ALL_EIGHT, SatVoronoi::Problem1),
    ] {
        let (names, edges) = sat_graph(formula, problem);
        let layout = layout_graph(&names, &edges);
        assert!(layout.kind.starts_with("gadgets: sat-voronoi"), "{what}: {}", layout.kind);
        let variables = names.iter().filter(|n| n.ends_with('+')).count();
        let (points, pieces) = pieces(&layout, &edges);
        let clause_edge = |&(a, b): &(usize, usize)| {
            let (a, b) = (&names[a], &names[b]);
            let literal = |s: &str| s.starts_with('x');
            let clause = |s: &str| s.starts_with('c') && !s.ends_with('\'');
            (literal(a) && clause(b)) || (literal(b) && clause(a))
        };
        let (clauses, rest): (Vec<_>, Vec<_>) = pieces.iter().partition(|(e, _)| clause_edge(e));
        let clauses: Edges = clauses.iter().map(|(_, s)| *s).collect();
        let rest: Edges = rest.iter().map(|(_, s)| *s).collect();
        assert_eq!(crossings_between(&points, &clauses, &rest), 0, "{what}");
        let gadgets = crossings(&points, &rest);
        assert!(gadgets <= 3 * variables, "{what}: {gadgets} crossings outside the clauses");
        assert!(aspect(&points) <= 3.0, "{what}: {}", aspect(&points));
        assert_apart(what, &points, 24.0);
        // u is drawn twice, as the paper draws it; every edge at u is drawn light.
        assert_eq!(layout.copies.len(), 1, "{what}");
        let u = names.iter().position(|n| n == "u").unwrap();
        for (k, &(a, b)) in edges.iter().enumerate() {
            assert_eq!(layout.is_light(k), a == u || b == u, "{what}: {}-{}", names[a], names[b]);
        }
    }
}

/// Theorem 4's graphs by their gadgets: the clique on an arc, the pendants fanned out small,
/// the terms below, u1 and u2 under them. Pendant edges and u's edges cross nothing; the term
/// edges cross only the clique's chords and each other.
#[test]
fn theorem_4_graphs_are_drawn_by_their_gadgets() {
    for (what, formula) in [
        ("figure 4", "1 2 4 5\n3 5 7 8\n6 8\n"),
        ("first wins", "1 2\n3 4\n3\n"),
        ("one term", "1 2 3\n"),
    ] {
        let (names, edges) = dnf_graph(formula);
        let layout = layout_graph(&names, &edges);
        assert!(layout.kind.starts_with("gadgets: posdnf-voronoi"), "{what}: {}", layout.kind);
        let pendants = names.iter().filter(|n| n.contains(".p")).count();
        assert_eq!((0..names.len()).filter(|&v| layout.is_small(v)).count(), pendants, "{what}");
        let (points, pieces) = pieces(&layout, &edges);
        let class = |&(a, b): &(usize, usize)| {
            let (a, b) = (&names[a], &names[b]);
            let x = |s: &str| s.starts_with('x') && !s.contains('.');
            if a.contains(".p") || b.contains(".p") {
                0 // a pendant's
            } else if x(a) && x(b) {
                1 // the clique's
            } else if x(a) || x(b) {
                2 // a term's variable
            } else {
                3 // a term's edge to u2, and u1-u2
            }
        };
        let of = |c: usize| -> Edges {
            pieces.iter().filter(|(e, _)| class(e) == c).map(|(_, s)| *s).collect()
        };
        let (pendant, clique, term, u) = (of(0), of(1), of(2), of(3));
        let all_but = |c: usize| -> Edges {
            pieces.iter().filter(|(e, _)| class(e) != c).map(|(_, s)| *s).collect()
        };
        assert_eq!(crossings_between(&points, &pendant, &all_but(0)), 0, "{what}: pendants");
        assert_eq!(crossings(&points, &pendant), 0, "{what}: pendants");
        assert_eq!(crossings_between(&points, &u, &all_but(3)), 0, "{what}: u's edges");
        let others: Edges = pendant.iter().chain(&u).copied().collect();
        assert_eq!(crossings_between(&points, &term, &others), 0, "{what}: term edges");
        assert!(aspect(&points) <= 3.0, "{what}: {}", aspect(&points));
        let big: Vec<Point> =
            (0..names.len()).filter(|&v| !layout.is_small(v)).map(|v| layout.at[v]).collect();
        assert_apart(what, &big, 24.0);
        assert_apart(what, &points, 8.0);
        assert!(!clique.is_empty());
    }
}

/// A graph that only uses some of a reduction's names is drawn by the generic layout.
#[test]
fn a_graph_named_like_a_reduction_but_not_one_is_drawn_generically() {
    let (mut names, edges) = sat_graph(FIGURE3, SatVoronoi::Problem1);
    assert!(layout_graph(&names, &edges).kind.starts_with("gadgets"));
    names[0] = "w".into();
    assert_eq!(layout_graph(&names, &edges).kind, "generic");
}

/// The `font-size` of every `<text>` of `svg` with its class, and the picture's width.
fn fonts(svg: &str) -> (f64, Vec<(String, f64)>) {
    let attribute = |tag: &str, key: &str| -> Option<String> {
        let at = tag.find(&format!(" {key}=\""))? + key.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    let head = &svg[..svg.find('>').unwrap()];
    let width = attribute(head, "width").unwrap().parse().unwrap();
    let texts = svg
        .match_indices("<text ")
        .map(|(at, _)| {
            let tag = &svg[at..at + svg[at..].find('>').unwrap()];
            let class = attribute(tag, "class").unwrap_or_default();
            (class, attribute(tag, "font-size").unwrap().parse().unwrap())
        })
        .collect();
    (width, texts)
}

/// Every Voronoi picture of the demo's graphs: every vertex name written at 10 px at least at
/// the picture's own size (a page zooms to it), the title at 13 px at least when the picture
/// is fitted to a 900-pixel page (a wide picture's words grow with it), and the gadget drawings
/// name every vertex but the pendants.
#[test]
fn words_are_legible_at_the_size_shown() {
    let trees = [kary(6, 3), kary(5, 4), kary(4, 4)];
    let mut graphs: Vec<(String, Vec<String>, Edges)> = trees
        .into_iter()
        .map(|(n, edges, _)| {
            ("a k-ary tree".to_string(), (0..n).map(|v| format!("v{v}")).collect(), edges)
        })
        .collect();
    for (what, formula) in [("figure 3", FIGURE3), ("wide", WIDE), ("all eight", ALL_EIGHT)] {
        let (names, edges) = sat_graph(formula, SatVoronoi::Problem1);
        graphs.push((what.to_string(), names, edges));
    }
    let (names, edges) = dnf_graph("1 2 4 5\n3 5 7 8\n6 8\n");
    graphs.push(("figure 4".to_string(), names, edges));
    for (what, names, edges) in graphs {
        let pairs: Vec<(String, String)> =
            edges.iter().map(|&(a, b)| (names[a].clone(), names[b].clone())).collect();
        let graph = Graph::new(&names, &pairs).unwrap();
        let svg = VoronoiPicture::new(&graph).unwrap().draw(&[0], &[1, 2], &what);
        let (width, texts) = fonts(&svg);
        let (title_class, title) = &texts[0];
        assert_eq!(title_class, "caption", "{what}: the first text is not the title");
        assert!(title * (900.0 / width).min(1.0) >= 13.0, "{what}: title {title} px at {width}");
        let labels: Vec<f64> =
            texts.iter().filter(|(c, _)| c == "label").map(|(_, f)| *f).collect();
        assert!(labels.iter().all(|&f| f >= 10.0), "{what}: {labels:?}");
        // The stones are named even in a graph too large to name every vertex.
        assert!(labels.len() >= 3, "{what}: {} names", labels.len());
        if what != "a k-ary tree" {
            let named = names.iter().filter(|n| !n.contains(".p")).count();
            // The copy of u is named too.
            assert!(labels.len() >= named * 95 / 100, "{what}: {} of {named}", labels.len());
        }
    }
}

/// The fixtures of the families `render` draws a play of, and each frame's claim: the
/// certificate's claim is stated once (captions said it two or three times).
#[test]
fn every_frame_states_the_claim_once() {
    let dir = tempfile::tempdir().unwrap();
    for kind in [
        "heap-labelling",
        "coin-labelling",
        "vertexnim-strategy",
        "triangle-strategy",
        "dnf-strategy",
        "marking-strategy",
        "flip-value",
        "voronoi-strategy",
        "voronoi-value",
    ] {
        let json = fixture(kind, "instance.json");
        let instance = if json.exists() { json } else { fixture(kind, "instance.txt") };
        let frames = dir.path().join(kind);
        let out = gamecert(&[
            "render",
            instance.to_str().unwrap(),
            "--certificate",
            fixture(kind, "accept.json").to_str().unwrap(),
            "--frames",
            frames.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stderr(&out));
        let mut seen = 0;
        for entry in std::fs::read_dir(&frames).unwrap() {
            let svg = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            let said = words(&svg).to_lowercase();
            assert_eq!(said.matches("certified").count(), 1, "{kind}: {said}");
            seen += 1;
        }
        assert!(seen >= 2, "{kind}: {seen} frames");
    }
}

/// `render -o` without `--frames` for vertex nim (and heaps and coins, whose plays also end on
/// an empty board): the start with the certified first move marked, not the all-zero end.
#[test]
fn vertex_nim_is_drawn_at_its_start_with_the_certified_move() {
    let dir = tempfile::tempdir().unwrap();
    for kind in ["vertexnim-strategy", "heap-labelling"] {
        let picture = dir.path().join(format!("{kind}.svg"));
        let out = gamecert(&[
            "render",
            fixture(kind, "instance.json").to_str().unwrap(),
            "--certificate",
            fixture(kind, "accept.json").to_str().unwrap(),
            "-o",
            picture.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stderr(&out));
        let svg = std::fs::read_to_string(&picture).unwrap();
        assert!(svg.contains(MARK), "{kind}: no move marked");
        let said = words(&svg);
        assert!(said.contains("move 1,") && !said.contains("the end"), "{kind}: {said}");
    }
}

/// `table green-wins --out DIR` writes each row's counterexample: a flip-game instance, its
/// best flip sequence (which `render` draws, flip by flip) and its flip-bound (which `verify`
/// accepts); the text names the files instead of a nested list of triangles.
#[test]
fn green_wins_counterexamples_are_written_and_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("counterexamples");
    let out = gamecert(&[
        "table",
        "green-wins",
        "--max-convex",
        "5",
        "--point-sets",
        "12",
        "--max-points",
        "6",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let instances: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(".instance.json"))
        .collect();
    // S(3), S(4), S(5) lose always; every written file is named in the text.
    assert!(instances.len() >= 3, "{text}");
    assert!(!text.contains("triangles [["), "{text}");
    for instance in &instances {
        let path = instance.to_str().unwrap();
        assert!(text.contains(path), "{path} not named in {text}");
        let stem = path.strip_suffix(".instance.json").unwrap();
        let (cert, bound) = (format!("{stem}.cert.json"), format!("{stem}.bound.json"));
        let out = gamecert(&["verify", path, &bound]);
        assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
        let frames = dir.path().join(stem.rsplit('/').next().unwrap());
        let picture = format!("{stem}.svg");
        let out = gamecert(&[
            "render",
            path,
            "--certificate",
            &cert,
            "--frames",
            frames.to_str().unwrap(),
            "-o",
            &picture,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let svg = std::fs::read_to_string(&picture).unwrap();
        assert!(svg.starts_with("<svg") && words(&svg).contains("Green-Wins"), "{svg}");
        assert!(std::fs::read_dir(&frames).unwrap().count() >= 2);
    }
    // Without --out the triangles are listed, and the flag is named.
    let out = gamecert(&["table", "green-wins", "--max-convex", "4", "--point-sets", "0"]);
    assert!(stdout(&out).contains("triangles [[") && stdout(&out).contains("--out DIR"));
}

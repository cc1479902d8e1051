//! Valid (instance, certificate) pairs of every certificate kind, made at test time by the
//! solvers of the `gamecert` crate on small instances (a few vertices or points), each checked
//! by the checker before it is used as a seed.

use gamecert::registry::solve_game;
use gamecert::triangulations::generate::{generate, Kind};
use gamecert::voronoi::one_round::{solve, Method};
use gamecert_certificates::format::{
    Certificate, GraphSpec, Instance, MultiRoundSpec, StartSpec, TriangleSpec,
};
use gamecert_certificates::posdnf::dnf::PosDnf;
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::triangulations::flipping::FlipGame;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use gamecert_certificates::vertexnim::strategy::Variant;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits};
use gamecert_reductions::sat_voronoi::reduce;
use std::path::Path;

/// The fuzzed kinds: the certificate kinds, with `refutation` split by method.
pub const KINDS: &[&str] = &[
    "witness",
    "refutation-direct",
    "refutation-reduction",
    "voronoi-strategy",
    "voronoi-value",
    "dnf-strategy",
    "voronoi-path-value",
    "voronoi-mirror",
    "voronoi-path-rule",
    "triangle-strategy",
    "marking-strategy",
    "flip-value",
    "flip-sequence",
    "flip-bound",
    "marking-kayles",
    "heap-labelling",
    "coin-labelling",
    "vertexnim-strategy",
    "vertexnim-labelling",
    "vertexnim-outcomes",
    "construct-strategy",
    "balanced-colouring",
    "nimstring-strips",
];

/// One valid pair, as the JSON texts the checker reads.
#[derive(Clone, Debug)]
pub struct Seed {
    /// One of [`KINDS`].
    pub kind: &'static str,
    /// What the instance is, for messages.
    pub name: String,
    pub instance: String,
    pub certificate: String,
}

/// The fuzz kind of a certificate: its `kind`, and for a refutation its method.
pub fn fuzz_kind(certificate: &Certificate) -> &'static str {
    match certificate {
        Certificate::Refutation(r) => match r.method {
            gamecert_certificates::format::RefutationMethod::Direct => "refutation-direct",
            gamecert_certificates::format::RefutationMethod::Reduction { .. } => {
                "refutation-reduction"
            }
        },
        other => KINDS
            .iter()
            .copied()
            .find(|&k| k == other.kind())
            .expect("every certificate kind is fuzzed"),
    }
}

fn figure3() -> Cnf {
    Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] }
}

fn contradiction() -> Cnf {
    Cnf { num_vars: 2, clauses: vec![vec![1], vec![-1, 2], vec![-2]] }
}

const STAR: &str = "white c\nblack 2\nc l1\nc l2\nc l3\nc l4\nc l5\n";
const PATH6: &str = "white a\nblack 1\na b\nb c\nc d\nd e\ne f\n";

fn one_round(formula: &Cnf, problem: SatVoronoi) -> Instance {
    Instance::VoronoiOneRound(reduce(formula, problem).expect("a formula").instance)
}

fn edge_list(text: &str) -> Instance {
    Instance::VoronoiOneRound(
        gamecert_certificates::voronoi::edgelist::parse_edge_list(text).expect("an edge list"),
    )
}

fn multi(spec: MultiRoundSpec) -> Instance {
    Instance::Voronoi(spec)
}

/// A small multi-round instance on numbered vertices.
fn graph(n: usize, edges: &[(usize, usize)], rounds: usize, start: Option<StartSpec>) -> Instance {
    Instance::Voronoi(MultiRoundSpec {
        graph: GraphSpec::numbered(n, edges),
        rounds,
        start,
        source: None,
    })
}

fn marking(kind: Kind, points: usize, inner: usize, seed: u64, game: MarkingGame) -> Instance {
    let mut triangulation = generate(kind, points, inner, seed).expect("a valid family");
    if game.is_constructing() {
        triangulation.triangles.clear();
        triangulation.edges.clear();
    }
    Instance::MarkingGame(MarkingSpec { game, triangulation })
}

fn flip(
    kind: Kind,
    points: usize,
    inner: usize,
    game: FlipGame,
    abstract_convex: bool,
) -> Instance {
    Instance::FlipGame(
        gamecert::triangulations::flipping::gen_instance(
            kind,
            points,
            inner,
            2,
            game,
            abstract_convex,
        )
        .expect("a valid family"),
    )
}

fn parsed(text: &str) -> Instance {
    Instance::from_json(text).expect("a seed instance parses")
}

fn heap(game: &str, heaps: &str) -> Instance {
    parsed(&format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
            "game": "{game}", "heaps": {heaps}}}"#
    ))
}

fn coins(rule: &str, board: &str, heads: &str) -> Instance {
    parsed(&format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
            "rule": {rule}, "board": {board}, "heads": {heads}}}"#
    ))
}

fn vertexnim(
    vertices: usize,
    max_weight: u64,
    seed: u64,
    directed: bool,
    variant: Variant,
    misere: bool,
    loops: f64,
) -> Instance {
    Instance::VertexNim(
        gamecert::vertexnim::solver::generate(&gamecert::vertexnim::solver::GenOptions {
            vertices,
            max_weight,
            seed,
            directed,
            variant,
            misere,
            density: 0.7,
            loops,
        })
        .expect("a valid family"),
    )
}

/// Every seed, each accepted by the checker (a panic here names the seed the solver or the
/// checker got wrong: the harness cannot run without its seeds).
pub fn all() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut add = |name: &str, instance: Instance, certificate: Certificate| {
        let verdict = check(&instance, &certificate, &Limits::default());
        assert!(
            verdict.accepted(),
            "seed {name}: the checker rejects the solver's {} certificate: {}",
            certificate.kind(),
            verdict.reason
        );
        seeds.push(Seed {
            kind: fuzz_kind(&certificate),
            name: name.to_string(),
            instance: instance.to_json(),
            certificate: certificate.to_json(),
        });
    };
    let one = |instance: Instance, method: Method| {
        let c = solve(&instance, method).expect("one-round solve").certificate;
        (instance, c)
    };
    let game = |instance: Instance, method: Method| {
        let c = solve_game(&instance, method).expect("the solver handles the seed").certificate;
        (instance, c)
    };

    // voronoi-one-round: witnesses and refutations, direct and by the reduction.
    for (name, (i, c)) in [
        ("figure3-p1", one(one_round(&figure3(), SatVoronoi::Problem1), Method::Auto)),
        ("figure3-p2", one(one_round(&figure3(), SatVoronoi::Problem2), Method::Auto)),
        ("path6-direct", one(edge_list(PATH6), Method::Direct)),
        (
            "contradiction-p1-direct",
            one(one_round(&contradiction(), SatVoronoi::Problem1), Method::Direct),
        ),
        ("star-direct", one(edge_list(STAR), Method::Direct)),
        ("contradiction-p1", one(one_round(&contradiction(), SatVoronoi::Problem1), Method::Auto)),
        ("contradiction-p2", one(one_round(&contradiction(), SatVoronoi::Problem2), Method::Auto)),
    ] {
        add(name, i, c);
    }

    // voronoi-value with `canonical_root`: the tree solver's certificates (positions identified
    // by canonical form on a tree), a binary and a ternary tree.
    for (name, (k, height, rounds)) in
        [("kary-canonical-2-3-n2", (2, 3, 2)), ("kary-canonical-3-2-n3", (3, 2, 3))]
    {
        let spec = gamecert::voronoi::gen::kary_tree(k, height, rounds).expect("a tree");
        let game = spec.validate().expect("a valid tree game");
        let solution = gamecert::voronoi::tree_exact::TreeSolver::new(&game, "r")
            .expect("a tree")
            .solve_within(u64::MAX, 0)
            .expect("small enough");
        add(name, multi(spec), Certificate::VoronoiValue(solution.certificate()));
    }

    // voronoi: strategies, values, paths.
    let cycle6: Vec<(usize, usize)> = (0..6).map(|i| (i, (i + 1) % 6)).collect();
    let house = [(0, 1), (1, 2), (2, 3), (3, 0), (2, 4), (3, 4), (4, 5), (5, 6)];
    for (name, (i, c)) in [
        (
            "kary-4-2-n2",
            game(multi(gamecert::voronoi::gen::kary_tree(4, 2, 2).expect("a tree")), Method::Auto),
        ),
        (
            "kary-3-2-n2",
            game(multi(gamecert::voronoi::gen::kary_tree(3, 2, 2).expect("a tree")), Method::Auto),
        ),
        ("cycle6-n2", game(graph(6, &cycle6, 2, None), Method::Exact)),
        (
            "house7-n2-start",
            game(
                graph(
                    7,
                    &house,
                    2,
                    Some(StartSpec { white: vec!["v0".into()], black: vec!["v5".into()] }),
                ),
                Method::Exact,
            ),
        ),
        ("house7-n1", game(graph(7, &house, 1, None), Method::Exact)),
        (
            "path8-n2",
            game(multi(gamecert::voronoi::gen::path(8, 2).expect("a path")), Method::Auto),
        ),
        (
            "path7-n3",
            game(multi(gamecert::voronoi::gen::path(7, 3).expect("a path")), Method::Auto),
        ),
        // Rule U (issue 49): W's side on an even path, B's on an odd one.
        (
            "path10-rule",
            game(multi(gamecert::voronoi::gen::path(10, 3).expect("a path")), Method::Rule),
        ),
        (
            "path9-rule-black",
            game(multi(gamecert::voronoi::gen::path(9, 3).expect("a path")), Method::RuleBlack),
        ),
        // B's mirror: the reflection of a path, the half-turn of a cycle with a symmetric
        // start (W on one vertex, B on its image).
        (
            "path10-mirror",
            game(multi(gamecert::voronoi::gen::path(10, 3).expect("a path")), Method::Mirror),
        ),
        (
            "cycle8-mirror",
            game(
                graph(
                    8,
                    &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 0)],
                    3,
                    Some(StartSpec { white: vec!["v0".into()], black: vec!["v4".into()] }),
                ),
                Method::Mirror,
            ),
        ),
    ] {
        add(name, i, c);
    }
    // One round on small random trees: the median rule (a strategy or a value).
    for seed in 1..=2 {
        let (i, c) = game(
            multi(gamecert::voronoi::gen::random_tree(9, 1, seed).expect("a tree")),
            Method::Auto,
        );
        add(&format!("tree9-seed{seed}"), i, c);
    }

    // posdnf-game.
    for (name, num_vars, terms) in [
        ("dnf-first", 4u32, vec![vec![1u32, 2], vec![3, 4], vec![3]]),
        ("dnf-pairs", 4, vec![vec![1, 2], vec![3, 4]]),
        ("dnf-figure4", 8, vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]]),
    ] {
        let (i, c) = game(Instance::PosDnfGame(PosDnf { num_vars, terms }), Method::Auto);
        add(name, i, c);
    }

    // triangle-avoidance.
    for n in [5, 6] {
        let (i, c) = game(Instance::TriangleAvoidance(TriangleSpec { n }), Method::Auto);
        add(&format!("triangle-{n}"), i, c);
    }

    // marking-game: exact strategies, and Theorems 1 and 2 as heaps.
    for (name, (i, c)) in [
        ("fan7-nimstring", game(marking(Kind::Fan, 7, 0, 1, MarkingGame::Nimstring), Method::Auto)),
        (
            "convex6-coloring",
            game(marking(Kind::Convex, 6, 0, 1, MarkingGame::Coloring), Method::Exact),
        ),
        (
            "points6-mono-triangle",
            game(marking(Kind::Points, 6, 1, 1, MarkingGame::MonochromaticTriangle), Method::Auto),
        ),
        (
            "fan7-nimstring-strips",
            game(marking(Kind::Fan, 7, 0, 1, MarkingGame::Nimstring), Method::Strips),
        ),
        (
            "fan7-coloring-heaps",
            game(marking(Kind::Fan, 7, 0, 1, MarkingGame::Coloring), Method::Heaps),
        ),
        (
            "convex7-mono-triangle-heaps",
            game(marking(Kind::Convex, 7, 0, 1, MarkingGame::MonochromaticTriangle), Method::Heaps),
        ),
    ] {
        add(name, i, c);
    }

    // flip-game.
    for (name, (i, c)) in [
        (
            "convex7-mono-flipping",
            game(flip(Kind::Convex, 7, 0, FlipGame::MonochromaticFlipping, false), Method::Auto),
        ),
        (
            "points6-bichromatic-flipping",
            game(flip(Kind::Points, 6, 1, FlipGame::BichromaticFlipping, false), Method::Exact),
        ),
        (
            "convex7-mft-abstract",
            game(flip(Kind::Convex, 7, 0, FlipGame::FlippingToTriangle, true), Method::Auto),
        ),
        (
            "convex8-all-green",
            game(flip(Kind::Convex, 8, 0, FlipGame::AllGreen, false), Method::Auto),
        ),
        (
            "points7-green-wins",
            game(flip(Kind::Points, 7, 2, FlipGame::GreenWins, false), Method::Exact),
        ),
    ] {
        add(name, i, c);
    }
    // flip-bound: the maximum of a solitaire (every position visited by the checker).
    for (name, game) in
        [("points7-green-wins-bound", FlipGame::GreenWins), ("convex8-bound", FlipGame::AllGreen)]
    {
        let i = if game == FlipGame::GreenWins {
            flip(Kind::Points, 7, 2, game, false)
        } else {
            flip(Kind::Convex, 8, 0, game, false)
        };
        let Instance::FlipGame(spec) = &i else { unreachable!() };
        let (shape, board) = gamecert_certificates::triangulations::flipping::setup(
            spec,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .expect("a valid flip game");
        let (at_most, _) = gamecert::triangulations::solitaire::exhaustive(&shape, &board);
        let bound = gamecert_certificates::triangulations::flip_bound::FlipBound { at_most };
        add(name, i, Certificate::FlipBound(bound));
    }

    // heap-game.
    for (name, g, heaps) in [
        ("kayles-5-7-9", "kayles", "[5, 7, 9]"),
        ("dawson-4-6", "0.07", "[4, 6]"),
        ("grundy-7-9", "grundy", "[7, 9]"),
        ("octal-4.07-3-3", "4.07", "[3, 3]"),
    ] {
        let (i, c) = game(heap(g, heaps), Method::Auto);
        add(name, i, c);
    }

    // coin-game.
    for (name, rule, board, heads) in [
        ("mock-turtles", r#"{"game": "mock-turtles"}"#, "[20]", "[[0], [1], [2], [3]]"),
        ("ruler", r#"{"game": "ruler"}"#, "[20]", "[[4], [8], [12]]"),
        (
            "subsets-x-ruler",
            r#"{"game": "product",
                "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4, "base": 1},
                "y": {"game": "ruler"}}"#,
            "[12, 12]",
            "[[12, 12], [4, 1]]",
        ),
        ("offsets", r#"{"game": "offsets", "sets": [[1], [1, 2]]}"#, "[16]", "[[5], [9]]"),
    ] {
        let (i, c) = game(coins(rule, board, heads), Method::Auto);
        add(name, i, c);
    }

    // vertexnim: strategies from the exact solver, labellings of Theorems 10, 6 and 3 on
    // instances small enough for the exact solver to decide the truth.
    for (name, i) in [
        ("vn-undirected", vertexnim(4, 3, 5, false, Variant::Vertexnim, false, 0.3)),
        ("vn-directed", vertexnim(4, 3, 5, true, Variant::Vertexnim, false, 0.3)),
        ("vn-nimg", vertexnim(4, 3, 5, false, Variant::Nimg, false, 0.3)),
        ("vn-misere", vertexnim(4, 3, 5, false, Variant::Vertexnim, true, 0.3)),
    ] {
        let (i, c) = game(i, Method::Auto);
        add(name, i, c);
    }
    for (name, i) in [
        ("vn-theorem10", vertexnim(7, 4, 3, false, Variant::Vertexnim, false, 0.0)),
        ("vn-theorem6", vertexnim(6, 2, 3, true, Variant::Vertexnim, false, 1.0)),
        (
            "vn-theorem3",
            Instance::VertexNim(gamecert::vertexnim::solver::circuit_spec(
                &[2, 3, 4, 2, 5, 3],
                Variant::Vertexnim,
            )),
        ),
        ("vn-nimg-labelling", vertexnim(6, 3, 4, false, Variant::Nimg, false, 0.0)),
    ] {
        let Instance::VertexNim(spec) = &i else { unreachable!() };
        let g = spec.validate().expect("a valid vertexnim instance");
        let labelling = gamecert::vertexnim::solver::labelling_certificate(&g)
            .unwrap_or_else(|| panic!("seed {name}: no labelling theorem applies"));
        add(name, i, Certificate::VertexNimLabelling(labelling));
    }

    // Vertex NimG's whole weight box, undirected and directed, normal and misere.
    for (name, i) in [
        ("vn-outcomes", vertexnim(4, 2, 5, false, Variant::Nimg, false, 0.3)),
        ("vn-outcomes-directed-misere", vertexnim(3, 3, 7, true, Variant::Nimg, true, 0.5)),
    ] {
        let (i, c) = game(i, Method::Outcomes);
        add(name, i, c);
    }

    // Games with scores or ties: construct-strategy, balanced-colouring.
    for (name, (i, c)) in [
        (
            "convex6-mct-theorem3",
            game(
                marking(Kind::Convex, 6, 0, 1, MarkingGame::MonochromaticCompleteTriangulation),
                Method::Auto,
            ),
        ),
        (
            "points7-bicoloring-theorem6",
            game(marking(Kind::Points, 7, 2, 3, MarkingGame::BichromaticColoring), Method::Auto),
        ),
        (
            "convex5-bitriangle-exact",
            game(marking(Kind::Convex, 5, 0, 1, MarkingGame::BichromaticTriangle), Method::Auto),
        ),
        (
            "convex6-bicoloring-exact",
            game(marking(Kind::Convex, 6, 0, 1, MarkingGame::BichromaticColoring), Method::Exact),
        ),
        (
            "points7-bicoloring-lemma4",
            game(marking(Kind::Points, 7, 2, 3, MarkingGame::BichromaticColoring), Method::Lemma4),
        ),
        (
            "convex6-bicoloring-lemma4",
            game(marking(Kind::Convex, 6, 0, 1, MarkingGame::BichromaticColoring), Method::Lemma4),
        ),
    ] {
        add(name, i, c);
    }

    for kind in KINDS {
        assert!(seeds.iter().any(|s| s.kind == *kind), "no seed of kind {kind}");
    }
    // Three instances as text, so that mutations reach the checker's text readers (edge lists
    // and positive DNFs): the same instances, as their files would hold them.
    for seed in &mut seeds {
        let text = match seed.name.as_str() {
            "path6-direct" => PATH6.to_string(),
            "star-direct" => STAR.to_string(),
            "dnf-pairs" => gamecert_certificates::posdnf::dnf_text::write_posdnf(&PosDnf {
                num_vars: 4,
                terms: vec![vec![1, 2], vec![3, 4]],
            }),
            _ => continue,
        };
        let read = gamecert_certificates::verify::parse_instance(Path::new("i"), &text);
        assert_eq!(read.expect("the text reads").to_json(), seed.instance, "{}", seed.name);
        seed.instance = text;
    }
    seeds
}

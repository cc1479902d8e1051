//! The checker's direct encoding ("B places exactly n vertices and wins"), solved by the default SAT backend,
//! agrees with the exhaustive search on every graph of up to 6 vertices and on random ones up to
//! 12; its models are winning placements and its refutations check.

use gamecert::base::rng::Rng;
use gamecert::base::sat::{solve, Backend, SatOutcome};
use gamecert::voronoi::census::connected_graphs;
use gamecert::voronoi::one_round_exact::{search, Goal};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{GraphSpec, OneRoundSpec};
use gamecert_certificates::sat::lrat::check_lrat;
use gamecert_certificates::voronoi::encode::black_wins_cnf;
use gamecert_certificates::voronoi::rules::{score, Outcome};
use gamecert_reductions::graphs::to_spec;

/// Solves the direct encoding of `spec` with the default SAT backend and compares with the exhaustive search:
/// a model must be a winning placement of n vertices, a refutation must check. Returns whether
/// B wins.
fn agrees(spec: &OneRoundSpec) -> bool {
    let game = spec.validate().unwrap();
    let exhaustive = search(&game, Goal::AllWinning { max_results: 1 }, u64::MAX);
    assert!(exhaustive.complete || !exhaustive.placements.is_empty());
    let encoding =
        black_wins_cnf(&game.graph, &game.white, game.black_count, &mut Budget::unlimited())
            .unwrap();
    match solve(&encoding.cnf, true, Backend::default()).unwrap() {
        SatOutcome::Satisfiable(model) => {
            let black = encoding.placement(&model);
            assert_eq!(black.len(), game.black_count, "{spec:?}");
            let s = score(&game.graph, &game.white, &black);
            assert_eq!(s.outcome(), Outcome::BlackWins, "{spec:?}");
            assert!(!exhaustive.placements.is_empty(), "{spec:?}");
            true
        }
        SatOutcome::Unsatisfiable { lrat } => {
            check_lrat(&encoding.cnf, &lrat, &mut Budget::unlimited()).unwrap();
            assert!(exhaustive.placements.is_empty(), "{spec:?}");
            false
        }
    }
}

/// Every subset of `0..n` with `1..=max` members.
fn subsets(n: usize, max: usize) -> impl Iterator<Item = Vec<usize>> {
    (1u32..1 << n)
        .filter(move |bits| (bits.count_ones() as usize) <= max)
        .map(move |bits| (0..n).filter(|i| bits >> i & 1 == 1).collect())
}

/// Every graph on up to 5 labelled vertices (W on the first one, two or three: with all
/// labellings that is every W set), and every connected graph on 6 vertices up to isomorphism
/// with every W set of one to three vertices; every n.
#[test]
fn direct_encoding_agrees_on_every_small_graph() {
    let mut cases: Vec<GraphSpec> = Vec::new();
    for n in 1..=5usize {
        let pairs: Vec<(usize, usize)> =
            (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
        for mask in 0u32..1 << pairs.len() {
            let edges: Vec<(usize, usize)> =
                (0..pairs.len()).filter(|i| mask >> i & 1 == 1).map(|i| pairs[i]).collect();
            cases.push(GraphSpec::numbered(n, &edges));
        }
    }
    let (mut wins, mut losses) = (0, 0);
    let mut count = |spec: OneRoundSpec| {
        if agrees(&spec) {
            wins += 1;
        } else {
            losses += 1;
        }
    };
    for graph in &cases {
        let n = graph.vertices.len();
        for whites in 1..n.min(4) {
            for black_count in 1..=n - whites {
                count(OneRoundSpec {
                    graph: graph.clone(),
                    white: graph.vertices[..whites].to_vec(),
                    black_count,
                    source: None,
                });
            }
        }
    }
    for entry in connected_graphs(6).unwrap().into_iter().filter(|e| e.graph.node_count() == 6) {
        let graph = to_spec(&entry.graph);
        for white in subsets(6, 3) {
            for black_count in 1..=6 - white.len() {
                count(OneRoundSpec {
                    graph: graph.clone(),
                    white: white.iter().map(|&w| graph.vertices[w].clone()).collect(),
                    black_count,
                    source: None,
                });
            }
        }
    }
    assert!(wins > 5_000 && losses > 5_000, "wins {wins}, losses {losses}");
}

/// Random graphs on 2 to 12 vertices.
#[test]
fn direct_encoding_agrees_with_exhaustive_search() {
    let mut rng = Rng::new(2026);
    let (mut wins, mut refuted) = (0, 0);
    for _ in 0..400 {
        let n = rng.range(2, 12) as usize;
        let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let density = rng.range(2, 6);
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(density) == 0 {
                    edges.push((names[a].clone(), names[b].clone()));
                }
            }
        }
        let white_count = rng.range(1, (n as u64 - 1).min(3)) as usize;
        let black_count = rng.range(1, (n - white_count) as u64) as usize;
        let spec = OneRoundSpec {
            graph: GraphSpec { vertices: names.clone(), edges },
            white: names[..white_count].to_vec(),
            black_count,
            source: None,
        };
        if agrees(&spec) {
            wins += 1;
        } else {
            refuted += 1;
        }
    }
    assert!(wins > 50 && refuted > 50, "wins {wins}, refuted {refuted}");
}

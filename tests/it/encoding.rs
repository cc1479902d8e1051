//! The checker's direct encoding ("B places exactly n vertices and wins"), solved by the
//! default SAT backend, agrees with the exhaustive search on random small graphs; its models are winning placements
//! and its refutations check.

use gamecert::base::rng::Rng;
use gamecert::base::sat::{solve, Backend, SatOutcome};
use gamecert::voronoi::one_round_exact::{search, Goal};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::lrat::check_lrat;
use gamecert_certificates::format::{GraphSpec, OneRoundSpec};
use gamecert_certificates::voronoi::encode::black_wins_cnf;
use gamecert_certificates::voronoi::rules::{score, Outcome};

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
        let game = spec.validate().unwrap();
        let exhaustive = search(&game, Goal::AllWinning { max_results: 1 }, u64::MAX);
        let encoding =
            black_wins_cnf(&game.graph, &game.white, game.black_count, &mut Budget::unlimited())
                .unwrap();
        match solve(&encoding.cnf, true, Backend::default()).unwrap() {
            SatOutcome::Satisfiable(model) => {
                let black = encoding.placement(&model);
                assert_eq!(black.len(), black_count);
                let s = score(&game.graph, &game.white, &black);
                assert_eq!(s.outcome(), Outcome::BlackWins, "{spec:?}");
                assert!(!exhaustive.placements.is_empty(), "{spec:?}");
                wins += 1;
            }
            SatOutcome::Unsatisfiable { lrat } => {
                check_lrat(&encoding.cnf, &lrat, &mut Budget::unlimited()).unwrap();
                assert!(exhaustive.placements.is_empty(), "{spec:?}");
                refuted += 1;
            }
        }
    }
    assert!(wins > 50 && refuted > 50, "wins {wins}, refuted {refuted}");
}

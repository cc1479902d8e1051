//! Criterion benchmarks of the hot paths, small enough for `cargo bench` to finish in minutes:
//!
//! - `reduce_and_check`: sat-voronoi1 on a random 3-CNF with 10^4 variables (ratio 1.3), and
//!   the checker scoring a winning placement on the resulting graph;
//! - `direct_encoding`: the checker's CNF encoding of a 100-vertex instance (a 10 x 10 grid);
//! - `lrat_check`: the trusted checker on a refutation (default backend) of pigeonhole with 6
//!   holes.
//!
//! The heavier `gamecert bench linear|lrat|direct` commands measure the same stages at scale.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gamecert::base::rng::Rng;
use gamecert::base::sat::{self, pigeonhole, random_k_cnf, SatOutcome};
use gamecert::voronoi::families::{family_instance, Family, LINEAR_SEED};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance, Witness, CLAIM_BLACK_WINS};
use gamecert_certificates::sat::lrat::check_lrat;
use gamecert_certificates::voronoi::encode::black_wins_cnf;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits};
use gamecert_reductions::sat_voronoi::{forward, reduce};
use std::time::Duration;

fn reduce_and_check(c: &mut Criterion) {
    let cnf = random_k_cnf(10_000, 13_000, 3, &mut Rng::new(LINEAR_SEED));
    let reduced = reduce(&cnf, SatVoronoi::Problem1).expect("reduce");
    let formula = &reduced.normalised.formula;
    let SatOutcome::Satisfiable(model) =
        sat::solve(formula, false, sat::Backend::default()).expect("solve")
    else {
        panic!("the ratio-1.3 formula should be satisfiable");
    };
    let witness = Certificate::Witness(Witness {
        claim: CLAIM_BLACK_WINS.into(),
        placement: forward(formula, &model),
    });
    let instance = Instance::VoronoiOneRound(reduced.instance);
    let limits = Limits::default();
    assert!(check(&instance, &witness, &limits).accepted());

    let mut group = c.benchmark_group("reduce_and_check");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    group.bench_function("reduce 10^4 vars", |b| {
        b.iter(|| reduce(black_box(&cnf), SatVoronoi::Problem1).expect("reduce"))
    });
    group.bench_function("check witness 10^4 vars", |b| {
        b.iter(|| check(black_box(&instance), black_box(&witness), &limits))
    });
    group.finish();
}

fn direct_encoding(c: &mut Criterion) {
    let instance = family_instance(Family::Grid, 10).expect("grid");
    let game = instance.one_round().expect("a one-round instance").validate().expect("valid");
    assert_eq!(game.graph.len(), 100);
    c.bench_function("direct_encoding/grid 10x10", |b| {
        b.iter(|| {
            black_wins_cnf(
                black_box(&game.graph),
                &game.white,
                game.black_count,
                &mut Budget::unlimited(),
            )
        })
    });
}

fn lrat_check(c: &mut Criterion) {
    let cnf = pigeonhole(6);
    let SatOutcome::Unsatisfiable { lrat } =
        sat::solve(&cnf, true, sat::Backend::default()).expect("solve")
    else {
        panic!("pigeonhole is unsatisfiable");
    };
    c.bench_function("lrat_check/pigeonhole 6", |b| {
        b.iter(|| {
            check_lrat(black_box(&cnf), black_box(&lrat), &mut Budget::unlimited()).expect("valid")
        })
    });
}

criterion_group!(benches, reduce_and_check, direct_encoding, lrat_check);
criterion_main!(benches);

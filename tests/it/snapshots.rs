//! Snapshots of what users read: the Figure 3 instance (JSON and DOT), its certificate, the
//! checker's report on it, and a refutation's summary (its proof shortened to a line count).

use gamecert::base::render::to_dot;
use gamecert::voronoi::one_round::{solve, Method};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_reductions::sat_voronoi::reduce;

fn figure3_instance() -> Instance {
    let f = Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] };
    Instance::VoronoiOneRound(reduce(&f, SatVoronoi::Problem1).unwrap().instance)
}

#[test]
fn figure3_instance_json() {
    insta::assert_snapshot!(figure3_instance().to_json());
}

#[test]
fn figure3_instance_dot() {
    let instance = figure3_instance();
    let game = instance.one_round().unwrap().validate().unwrap();
    insta::assert_snapshot!(to_dot(&game.graph, &game.white, &[], "Figure 3 (seed 001)"));
}

#[test]
fn figure3_certificate_and_verify_report() {
    let solved = solve(&figure3_instance(), Method::Auto).unwrap();
    insta::assert_snapshot!("figure3_certificate", solved.certificate.to_json());
    insta::assert_json_snapshot!("figure3_verify_report", solved.verdict);
}

#[test]
fn refutation_summaries() {
    let f = Cnf { num_vars: 2, clauses: vec![vec![1], vec![-1, 2], vec![-2]] };
    let inst = Instance::VoronoiOneRound(reduce(&f, SatVoronoi::Problem1).unwrap().instance);
    for (name, method) in [
        ("refutation_reduction_summary", Method::Reduction),
        ("refutation_direct_summary", Method::Direct),
    ] {
        let solved = solve(&inst, method).unwrap();
        let Certificate::Refutation(mut r) = solved.certificate else {
            panic!("expected a refutation");
        };
        r.lrat = format!("<{} lines of LRAT>", r.lrat.lines().count());
        let summary = serde_json::json!({
            "certificate": serde_json::from_str::<serde_json::Value>(
                &Certificate::Refutation(r).to_json()
            ).unwrap(),
            "verdict": solved.verdict,
        });
        insta::assert_json_snapshot!(name, summary);
    }
}

fn figure4() -> gamecert_reductions::posdnf_voronoi::PosDnfVoronoi {
    let a = gamecert_certificates::posdnf::dnf::PosDnf {
        num_vars: 8,
        terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]],
    };
    gamecert_reductions::posdnf_voronoi::build(&a).unwrap()
}

#[test]
fn figure4_instance_dot() {
    let built = figure4();
    let graph =
        gamecert_certificates::base::graph::Graph::new(&built.graph.vertices, &built.graph.edges)
            .unwrap();
    insta::assert_snapshot!(to_dot(&graph, &[], &[], "Figure 4 (seed 001), 5 rounds each"));
}

#[test]
fn figure4_verify_report() {
    use gamecert_certificates::format::MultiRoundSpec;
    let built = figure4();
    let instance = Instance::Voronoi(MultiRoundSpec {
        graph: built.graph.clone(),
        rounds: built.rounds,
        start: None,
        source: None,
    });
    let certificate = gamecert::voronoi::dnf_maps::certificate_for(&built).unwrap();
    let verdict = gamecert_certificates::check(
        &instance,
        &certificate,
        &gamecert_certificates::Limits::default(),
    );
    assert!(verdict.accepted(), "{}", verdict.reason);
    insta::assert_json_snapshot!(verdict);
}

/// `gamecert table voronoi-paths --max-vertices 20` without its time columns (the full run to
/// 30 takes over a minute; see `voronoi_paths_table_30`).
#[test]
fn voronoi_paths_table() {
    let rows = gamecert::voronoi::tables::voronoi_paths(1, 20, &mut |_| {}).unwrap();
    insta::assert_snapshot!(gamecert::voronoi::tables::voronoi_paths_table(&rows, false, 0.0));
}

/// The table to 30, as the paper's conclusion reports it (over a minute in release): every
/// entry is a tie except n = 1 on an odd path, where W wins by one (W takes the unique median).
#[test]
#[ignore = "over a minute; run with --ignored"]
fn voronoi_paths_table_30() {
    let rows = gamecert::voronoi::tables::voronoi_paths(1, 30, &mut |_| {}).unwrap();
    assert_eq!(rows.len(), 225);
    for r in &rows {
        let expect = i64::from(r.rounds == 1 && r.vertices % 2 == 1);
        assert_eq!(r.value, expect, "N = {}, n = {}", r.vertices, r.rounds);
    }
}

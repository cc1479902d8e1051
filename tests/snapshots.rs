//! Snapshots of what users read: the Figure 3 instance (JSON and DOT), its certificate, the
//! checker's report on it, and a refutation's summary (its proof shortened to a line count).

use gamecert::render::to_dot;
use gamecert::solve::{solve, Method};
use gamecert_certificates::cnf::Cnf;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::sat_voronoi::SatVoronoi;
use gamecert_reductions::sat_voronoi::reduce;

fn figure3_instance() -> Instance {
    let f = Cnf {
        num_vars: 4,
        clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]],
    };
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
    insta::assert_snapshot!(to_dot(&game, &[], "Figure 3 (seed 001)"));
}

#[test]
fn figure3_certificate_and_verify_report() {
    let solved = solve(&figure3_instance(), Method::Auto).unwrap();
    insta::assert_snapshot!("figure3_certificate", solved.certificate.to_json());
    insta::assert_json_snapshot!("figure3_verify_report", solved.verdict);
}

#[test]
fn refutation_summaries() {
    let f = Cnf {
        num_vars: 2,
        clauses: vec![vec![1], vec![-1, 2], vec![-2]],
    };
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

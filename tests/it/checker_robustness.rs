//! The checker never panics: corrupted certificates and instances give an error or a rejection.
//! A corrupted certificate that is still accepted must still be right: its placement must win
//! (for a witness), which the reference rules decide independently here.

use gamecert::voronoi::one_round::{solve, Method};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::rules::{score, Outcome};
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits};
use gamecert_reductions::sat_voronoi::reduce;
use proptest::prelude::*;
use std::sync::OnceLock;

/// The Figure 3 instance with its witness, and the contradiction instance with its refutation.
fn fixtures() -> &'static Vec<(Instance, String)> {
    static FIXTURES: OnceLock<Vec<(Instance, String)>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let figure3 = Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] };
        let contradiction =
            Cnf { num_vars: 3, clauses: vec![vec![1, 2], vec![-1, 3], vec![-2, 3], vec![-3]] };
        let mut out = Vec::new();
        for (f, method) in [
            (figure3, Method::Auto),
            (contradiction.clone(), Method::Auto),
            (contradiction, Method::Direct),
        ] {
            let inst =
                Instance::VoronoiOneRound(reduce(&f, SatVoronoi::Problem1).unwrap().instance);
            let cert = solve(&inst, method).unwrap().certificate.to_json();
            out.push((inst, cert));
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn corrupted_certificates_never_panic(which in 0usize..3, edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        let (inst, text) = &fixtures()[which];
        let mut bytes = text.clone().into_bytes();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        let corrupted = String::from_utf8_lossy(&bytes);
        if let Ok(cert) = Certificate::from_json(&corrupted) {
            let verdict = check(inst, &cert, &Limits::default());
            if verdict.accepted() {
                if let Certificate::Witness(w) = &cert {
                    let spec = inst.one_round().unwrap();
                    let game = spec.validate().unwrap();
                    let black: Vec<usize> = w.placement.iter().map(|n| game.graph.vertex(n).unwrap()).collect();
                    prop_assert_eq!(score(&game.graph, &game.white, &black).outcome(), Outcome::BlackWins);
                }
            }
        }
    }

    #[test]
    fn corrupted_instances_never_panic(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4)) {
        let (inst, cert) = &fixtures()[0];
        let mut bytes = inst.to_json().into_bytes();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        if let Ok(corrupted) = Instance::from_json(&String::from_utf8_lossy(&bytes)) {
            let cert = Certificate::from_json(cert).unwrap();
            let _ = check(&corrupted, &cert, &Limits::default());
        }
    }
}

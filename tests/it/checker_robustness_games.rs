//! The checker never panics on the games on point sets (seed 000): digit-corrupted certificates
//! and instances of every kind there (marking-strategy, marking-kayles, construct-strategy,
//! flip-value, flip-sequence) give an error or a verdict, never a crash.

use gamecert::registry::solve_game;
use gamecert::triangulations::generate::{generate, Kind};
use gamecert::voronoi::one_round::Method;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::triangulations::flipping::FlipGame;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use gamecert_certificates::{check, Limits};
use proptest::prelude::*;
use std::sync::OnceLock;

/// One instance per certificate kind, each with the certificate `solve` writes for it.
fn fixtures() -> &'static Vec<(String, String)> {
    static FIXTURES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let marking = |kind, points, game| {
            let mut triangulation = generate(kind, points, 0, 1).unwrap();
            if game == MarkingGame::MonochromaticCompleteTriangulation {
                triangulation.triangles.clear();
            }
            Instance::MarkingGame(MarkingSpec { game, triangulation })
        };
        let flip = |points, game| {
            Instance::FlipGame(
                gamecert::triangulations::flipping::gen_instance(
                    Kind::Convex,
                    points,
                    0,
                    2,
                    game,
                    false,
                )
                .unwrap(),
            )
        };
        let cases = [
            (marking(Kind::Fan, 7, MarkingGame::Nimstring), Method::Auto),
            (marking(Kind::Fan, 7, MarkingGame::Coloring), Method::Heaps),
            (
                marking(Kind::Convex, 5, MarkingGame::MonochromaticCompleteTriangulation),
                Method::Auto,
            ),
            (flip(7, FlipGame::MonochromaticFlipping), Method::Auto),
            (flip(8, FlipGame::AllGreen), Method::Auto),
        ];
        cases
            .into_iter()
            .map(|(inst, method)| {
                let cert = solve_game(&inst, method).unwrap().certificate;
                let v = check(&inst, &cert, &Limits::default());
                assert!(v.accepted(), "{}: {}", inst.kind(), v.reason);
                (inst.to_json(), cert.to_json())
            })
            .collect()
    })
}

/// Replaces, at each edit, the first ASCII digit at or after a random place by another digit,
/// so that most corrupted texts still parse and reach the checker (positions, edges, values,
/// bounds and coordinates all change).
fn corrupt(text: &str, edits: &[(prop::sample::Index, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (at, byte) in edits {
        let start = at.index(bytes.len());
        if let Some(i) = (start..bytes.len()).find(|&i| bytes[i].is_ascii_digit()) {
            bytes[i] = b'0' + byte % 10;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn corrupted_game_certificates_never_panic(
        which in 0usize..5,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let (inst, cert) = &fixtures()[which];
        let inst = Instance::from_json(inst).unwrap();
        if let Ok(cert) = Certificate::from_json(&corrupt(cert, &edits)) {
            let _ = check(&inst, &cert, &Limits::default());
        }
    }

    #[test]
    fn corrupted_game_instances_never_panic(
        which in 0usize..5,
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let (inst, cert) = &fixtures()[which];
        if let Ok(inst) = Instance::from_json(&corrupt(inst, &edits)) {
            let cert = Certificate::from_json(cert).unwrap();
            let _ = check(&inst, &cert, &Limits::default());
        }
    }
}

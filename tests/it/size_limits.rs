//! `gamecert solve` never aborts: instances too large for a solver are refused quickly, with
//! exit code 2, the estimate, the limit and a suggestion (src/limits.rs). One case per solver
//! family whose refusal a small file triggers at once; the capped searches (exact Voronoi,
//! paths, DNF game, marking and flipping games) are tested at their caps in the unit tests.
use crate::common;
use common::{gamecert, stderr, write};
use std::time::{Duration, Instant};

const HEADER: &str = r#""format": "gamecert-instance", "version": 1"#;

/// Runs `solve` on `instance` with `extra` arguments; it must exit 2 within `seconds`, print
/// every one of `expected` and not panic. Returns standard error.
fn refused(instance: &std::path::Path, extra: &[&str], seconds: u64, expected: &[&str]) -> String {
    let mut args = vec!["solve", instance.to_str().unwrap()];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = gamecert(&args);
    let took = started.elapsed();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(took < Duration::from_secs(seconds), "{args:?} took {took:?}: {err}");
    for e in expected {
        assert!(err.contains(e), "{args:?}: expected {e:?} in {err:?}");
    }
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// A uniform random 3-CNF in DIMACS (a fixed linear congruential generator, so the file is
/// the same on every run).
fn random_3cnf(vars: u32, clauses: usize, seed: u64) -> String {
    let mut state = seed;
    let mut next = |bound: u32| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) % u64::from(bound)) as u32
    };
    let mut text = format!("p cnf {vars} {clauses}\n");
    for _ in 0..clauses {
        let mut picked: Vec<u32> = Vec::new();
        while picked.len() < 3 {
            let v = next(vars) + 1;
            if !picked.contains(&v) {
                picked.push(v);
            }
        }
        for v in picked {
            let lit = if next(2) == 0 { -(v as i64) } else { v as i64 };
            text.push_str(&format!("{lit} "));
        }
        text.push_str("0\n");
    }
    text
}

/// A random formula with 60 variables reduced by `sat-voronoi1` (about 10,000 vertices): its
/// direct encoding (about 10^8 clauses) is counted first and refused in well under a second.
/// (The original case, a uf20-sized formula, used to grow past 5 GB and abort; since the
/// encoding of 2026-11-26 it fits, and it is the search that takes long.)
#[test]
fn direct_method_refuses_a_large_image_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let instance = crate::common::reduced_cnf(dir.path(), "r60", &random_3cnf(60, 258, 2024));
    let err = refused(
        &instance,
        &["--method", "direct"],
        5,
        &[
            "r60.json: too large to solve: the direct encoding is estimated at",
            "clauses and",
            "literals",
            "GiB of memory",
            "over the limit of 6.00 GiB",
            "use --method reduction",
        ],
    );
    assert!(!err.contains("internal error"), "{err}");
}

/// A hand-written instance has no formula to fall back on: the refusal says so.
#[test]
fn direct_method_refuses_a_large_hand_written_instance() {
    let dir = tempfile::tempdir().unwrap();
    // A star with W on a leaf: every other leaf is within distance 2 of every vertex, so the
    // counters and disjunctions are quadratic; 9,000 leaves is far over the allowance.
    let mut text = String::from("white l0\nblack 4000\n");
    for i in 0..9000 {
        text.push_str(&format!("c l{i}\n"));
    }
    let instance = write(dir.path(), "star.txt", &text);
    refused(
        &instance,
        &[],
        10,
        &[
            "the direct encoding is estimated at",
            "the instance is too large for an exact solve by the direct encoding",
        ],
    );
}

/// The exact Voronoi solver's bitmasks stop at 128 vertices; a larger graph that no other
/// method covers is refused with the alternatives.
#[test]
fn exact_voronoi_refuses_more_than_128_vertices() {
    let dir = tempfile::tempdir().unwrap();
    let vertices: Vec<String> = (0..130).map(|i| format!("\"v{i}\"")).collect();
    let edges: Vec<String> =
        (0..130).map(|i| format!("[\"v{i}\", \"v{}\"]", (i + 1) % 130)).collect();
    let instance = write(
        dir.path(),
        "cycle.json",
        &format!(
            r#"{{{HEADER}, "kind": "voronoi", "graph": {{"vertices": [{}], "edges": [{}]}},
 "rounds": 2}}"#,
            vertices.join(", "),
            edges.join(", ")
        ),
    );
    refused(
        &instance,
        &[],
        10,
        &[
            "cycle.json: the exact solver handles at most 128 vertices",
            "too large for an exact solve",
        ],
    );
}

/// Two medians: the certificate lists B's reply to every first move, N^3 steps; a path of
/// 4,000 vertices (one round) is refused at once.
#[test]
fn median_rule_refuses_a_long_even_path() {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("p4000.json");
    let out = gamecert(&[
        "gen",
        "path",
        "--vertices",
        "4000",
        "--rounds",
        "1",
        "-o",
        instance.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    refused(
        &instance,
        &[],
        10,
        &[
            "the median rule's certificate",
            "over the limit of 20,000,000,000 steps",
            "its value is 0",
        ],
    );
}

/// A heap game whose labelling the checker would refuse (too many moves to enumerate) is
/// refused before solving, not reported as a rejected certificate.
#[test]
fn heap_game_refuses_a_labelling_the_checker_would_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let instance = write(
        dir.path(),
        "heaps.json",
        &format!(r#"{{{HEADER}, "kind": "heap-game", "game": "0.7777", "heaps": [65536]}}"#),
    );
    let err = refused(
        &instance,
        &[],
        5,
        &[
            "checking the heap labelling is estimated at 4,294,901,761 single-heap moves",
            "1,000,000,000 moves, the checker's limit",
        ],
    );
    assert!(!err.contains("internal error"), "{err}");
}

/// Labels by mex over a rule with many moves per head: the count stops as soon as it passes
/// the limit.
#[test]
fn coin_game_refuses_labels_by_mex_over_too_many_moves() {
    let dir = tempfile::tempdir().unwrap();
    let instance = write(
        dir.path(),
        "coins.json",
        &format!(
            r#"{{{HEADER}, "kind": "coin-game",
 "rule": {{"game": "subsets", "min_others": 0, "max_others": 30, "max_distance": 1000000, "base": 0}},
 "board": [40000000], "heads": [[39999999]]}}"#
        ),
    );
    refused(&instance, &[], 5, &["too large to solve: the mex over all moves", "500,000,000"]);
}

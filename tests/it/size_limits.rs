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

// Issue 46, item 6: no size a file declares is believed before the file pays for it. A count
// that decides what is built (posdnf-voronoi's 2n^2 + 7n + m + 2 vertices, a DIMACS graph's
// isolated vertices, the SAT answer's model, a DNF game's picture) is estimated first and
// refused past the file's allowance, 1 GiB plus 64 bytes a stored byte, or --max-memory-gb
// (src/base/limits.rs); what runs is held to its peak memory, read from the kernel.

/// The address space every run here gets: far above what any may hold, so that an abort under
/// it (the findings' symptom) fails the test instead of eating the machine.
const ADDRESS_SPACE_KIB: u64 = 6 << 20;

/// Runs gamecert in `dir` with `args`, measured (peak memory, exit, time), within 60 s.
fn measure(dir: &std::path::Path, args: &[&str]) -> common::Measured {
    let binary = std::path::Path::new(env!("CARGO_BIN_EXE_gamecert"));
    let run = common::measured(binary, args, dir, ADDRESS_SPACE_KIB, Duration::from_secs(60));
    assert_eq!(run.signal, 0, "{args:?} ended by a signal: {}", run.stderr);
    assert!(!run.timed_out, "{args:?} did not end within 60 s: {}", run.stderr);
    assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
    run
}

/// `args` refused with exit 2 in under 2 s, holding under 64 MB, its message holding every
/// one of `expected`.
fn refused_at_once(dir: &std::path::Path, args: &[&str], expected: &[&str]) {
    let run = measure(dir, args);
    assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
    assert!(run.seconds < 2.0, "{args:?} took {:.1} s", run.seconds);
    assert!(run.peak < 64 << 20, "{args:?} held {} MB", run.peak >> 20);
    for e in expected {
        assert!(run.stderr.contains(e), "{args:?}: expected {e:?} in {:?}", run.stderr);
    }
}

/// The 17-byte DNF files of the finding: `p dnf 3000 1` grew to 3.6 GB and aborted under 4 GB
/// (8.2 GB without a limit), `p dnf 10000 1` aborted at once, `p dnf 2000000000 1` panicked
/// with "capacity overflow". Each is refused at once naming the header and the memory; 1,000
/// variables fit the 1 GiB a small file buys and run within it; --max-memory-gb lowers or
/// raises the allowance.
#[test]
fn declared_dnf_variables_are_sized_before_the_reduction_builds_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (n, estimate) in [(3000, "7.9 GiB,"), (10000, "87.2 GiB,"), (2_000_000_000, "TiB,")] {
        let name = format!("d{n}.txt");
        write(d, &name, &format!("p dnf {n} 1\n1 0\n"));
        let grouped = match n {
            3000 => "3,000",
            10000 => "10,000",
            _ => "2,000,000,000",
        };
        refused_at_once(
            d,
            &["reduce", "posdnf-voronoi", &name, "-o", "out.json"],
            &[
                &format!("{name}:1:1: the header declares {grouped} variables: the reduction's"),
                "would hold about ",
                estimate,
                "more than the 1.0 GiB this",
                "-byte file allows (--max-memory-gb to allow more)",
            ],
        );
    }
    // The header after a comment is named at its own line and column.
    write(d, "late.txt", "c a comment\n  p dnf 3000 1\n1 0\n");
    refused_at_once(
        d,
        &["reduce", "posdnf-voronoi", "late.txt", "-o", "out.json"],
        &["late.txt:2:3: the header declares 3,000 variables"],
    );
    // 1,000 variables (about 0.87 GiB by the estimate) fit, and hold less than 1 GiB.
    write(d, "d1000.txt", "p dnf 1000 1\n1 0\n");
    let run = measure(d, &["-q", "reduce", "posdnf-voronoi", "d1000.txt", "-o", "/dev/null"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 1 << 30, "p dnf 1000 1 held {} MB", run.peak >> 20);
    // The flag lowers the allowance (and says so)...
    refused_at_once(
        d,
        &["reduce", "posdnf-voronoi", "d1000.txt", "-o", "out.json", "--max-memory-gb", "0.1"],
        &["more than the 102.4 MiB --max-memory-gb 0.1 allows (raise it to allow more)"],
    );
    // ...and the posdnf-game instance is the formula itself: no graph, nothing to refuse.
    let run = measure(d, &["-q", "reduce", "posdnf-game", "d2000000000.txt", "-o", "g.json"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 64 << 20, "held {} MB", run.peak >> 20);
}

/// `gen graph --dimacs` on the 24-byte `p edge 10000000 1` took 1.41 GB: its 10^7 isolated
/// vertices are the header's word. Refused at once; 10^6 declared vertices fit and run within
/// their estimate; the reader itself holds only the edges it read (the refusal comes before
/// any vertex is built).
#[test]
fn declared_dimacs_vertices_are_sized_before_the_graph_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "e.col", "p edge 10000000 1\ne 1 2\n");
    refused_at_once(
        d,
        &["gen", "graph", "--dimacs", "e.col", "--rounds", "1", "-o", "out.json"],
        &["e.col:1:1: the header declares 10,000,000 vertices: the instance's 10,000,000 \
             vertices and 1 edge would hold about 1.4 GiB, more than the 1.0 GiB this 24-byte \
             file allows (--max-memory-gb to allow more)"],
    );
    write(d, "m.col", "c a million\np edge 1000000 1\ne 1 2\n");
    let run = measure(
        d,
        &["-q", "gen", "graph", "--dimacs", "m.col", "--rounds", "1", "-o", "/dev/null"],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 200 << 20, "10^6 vertices held {} MB", run.peak >> 20);
    // A count past what gamecert builds at all is refused by the reader, naming its column.
    write(d, "big.col", "p edge 10000001 0\n");
    refused_at_once(
        d,
        &["gen", "graph", "--dimacs", "big.col", "--rounds", "1"],
        &["big.col:1:8: 10000001 vertices is more than gamecert builds"],
    );
}

/// A graph6 line pays for its edges at six a byte; a dense one of 750 kB (the complete graph on
/// 3,000 vertices, 4.5 million edges) holds more than its allowance and is refused, naming the
/// line; with --max-memory-gb it runs. A stream is decoded a line at a time: a thousand graphs
/// before the one asked for hold nothing.
#[test]
fn graph6_lines_pay_for_their_edges() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let n: usize = 3000;
    let bits = n * (n - 1) / 2;
    let mut line = vec![126u8, 63 + ((n >> 12) & 63) as u8, 63 + ((n >> 6) & 63) as u8];
    line.push(63 + (n & 63) as u8);
    line.extend(std::iter::repeat_n(126u8, bits.div_ceil(6) - 1));
    let padding = bits.div_ceil(6) * 6 - bits;
    line.push(63 + (63 & !((1u8 << padding) - 1)));
    line.push(b'\n');
    let mut stream = b"Bg\n".repeat(1000);
    stream.extend_from_slice(&line);
    std::fs::write(d.join("k.g6"), &stream).unwrap();
    refused_at_once(
        d,
        &["gen", "graph", "--graph6", "k.g6", "--index", "1000", "--rounds", "1"],
        &["k.g6:1001:1: the graph6 line declares 3,000 vertices and holds 4,498,500 edges"],
    );
    let run = measure(
        d,
        &["-q", "gen", "graph", "--graph6", "k.g6", "--index", "1000", "--rounds", "1"]
            .iter()
            .chain(&["-o", "/dev/null", "--max-memory-gb", "2"])
            .copied()
            .collect::<Vec<_>>(),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 3 << 29, "K_3000 held {} MB", run.peak >> 20);
    let run =
        measure(d, &["-q", "gen", "graph", "--graph6", "k.g6", "--index", "999", "--rounds", "1"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 64 << 20, "one small graph of the stream held {} MB", run.peak >> 20);
}

/// A JSON instance made by `reduce sat-voronoi1` records the user's formula; edited to declare
/// 2^31 - 2 variables (a few digits), its SAT answer's model (one value a variable, used or
/// not) aborted `solve` at 2 GB. Refused (exit 2, nothing written) naming the field; an
/// unsatisfiable formula declaring as many needs no model and is answered.
#[test]
fn a_recorded_formulas_declared_variables_are_sized_before_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let instance = common::reduced_cnf(d, "s", "p cnf 3 2\n1 2 0\n-1 3 0\n");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&instance).unwrap()).unwrap();
    json["source"]["original"]["num_vars"] = 2_147_483_646u32.into();
    write(d, "big.json", &json.to_string());
    let run = measure(d, &["solve", "big.json", "-o", "big.cert.json"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    for e in [
        "big.json: the user's formula it records (`source.original`) declares 2,147,483,646 \
         variables: the SAT answer's model would hold about 112.0 GiB, more than the 1.0 GiB",
        "(--max-memory-gb to allow more)",
    ] {
        assert!(run.stderr.contains(e), "{}", run.stderr);
    }
    assert!(run.peak < 64 << 20, "held {} MB", run.peak >> 20);
    assert!(!d.join("big.cert.json").exists(), "nothing is written");
    let unsat = common::reduced_cnf(d, "u", "p cnf 2147483646 2\n1 0\n-1 0\n");
    let out = gamecert(&["solve", unsat.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(common::stdout(&out).contains("s UNSATISFIABLE"), "{}", common::stdout(&out));
}

/// Pictures sized by a declared count: a DNF game's start draws a cell a variable (4*10^9 in a
/// 100-byte file aborted); a vertex nim position with a weight of 2^63 - 1 listed as many moves
/// (aborted at 3 GB) and now lists the few it shows.
#[test]
fn pictures_are_sized_before_they_are_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "g.dnf", "p dnf 2000000000 1\n1 0\n");
    refused_at_once(
        d,
        &["render", "g.dnf", "-o", "g.svg"],
        &["g.dnf: the formula declares 2,000,000,000 variables", "the picture", "GiB"],
    );
    write(
        d,
        "vn.json",
        &format!(
            r#"{{{HEADER}, "kind": "vertexnim", "directed": false, "variant": "vertexnim",
 "play": "normal", "vertices": [{{"name": "a", "weight": 9223372036854775807}},
 {{"name": "b", "weight": 9223372036854775807}}], "edges": [["a", "b"]], "token": "a"}}"#
        ),
    );
    let run = measure(d, &["-q", "render", "vn.json", "-o", "vn.svg"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.peak < 64 << 20, "held {} MB", run.peak >> 20);
    let svg = std::fs::read_to_string(d.join("vn.svg")).unwrap();
    assert!(svg.contains("9,223,372,036,854,775,807 legal moves; the first 60 shown"), "{svg}");
}

/// The DNF game's size estimate summed 2^31 binomials for a header of 2^31 variables before
/// the solver refused more than 64 (minutes); it stops once saturated.
#[test]
fn a_dnf_game_of_declared_billions_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "g.dnf", "p dnf 2000000000 1\n1 0\n");
    refused_at_once(
        d,
        &["solve", "g.dnf", "-o", "g.cert.json"],
        &["the DNF game solver handles at most 64"],
    );
}

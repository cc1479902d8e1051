//! A mutation fuzzer for the checker (`gamecert_certificates::check`).
//!
//! **Seeds.** For every certificate kind (witness, refutation by `direct` and by `reduction`,
//! voronoi-strategy, voronoi-value, dnf-strategy, voronoi-path-value, triangle-strategy,
//! marking-strategy, flip-value, flip-sequence, flip-bound, marking-kayles, heap-labelling,
//! coin-labelling, vertexnim-strategy, vertexnim-labelling, vertexnim-outcomes, construct-strategy,
//! balanced-colouring) the solvers of the `gamecert` crate make one or more valid
//! (instance, certificate) pairs on small instances at test time; each is checked accepted
//! first ([`fuzz::seeds`]). The binary `triangle-stream` certificate is not JSON: its own
//! byte-level fuzzer is in `triangle_stream.rs`.
//!
//! **Mutants.** Each mutant changes the certificate (13 in 20), the instance (4 in 20) or both
//! (3 in 20) by 1 to 4 operations ([`fuzz::mutate`]): on the JSON value tree (numbers to +-1,
//! 0, -1, 2^31, 2^32, 2^63 - 1, 2^63, 2^64 - 1, i64::MIN, 1e300, -0, 3.5, ...; a value replaced
//! by another type or by a node grafted from this or another seed of the kind; arrays
//! truncated, extended up to about 1 MB, shuffled, reversed, with elements duplicated, deleted,
//! swapped or wrapped; fields removed, added, renamed, swapped, or their key given twice in the
//! text; strings edited by characters, truncated, repeated up to about 1 MB or replaced by
//! names and claims; NaN, Infinity, 1e999 and other non-JSON literals; nesting 10^4 (up to
//! 10^5) deep spliced in), or on the text (truncation, bytes, invalid UTF-8 read lossily, lone
//! surrogates, BOMs, junk). Sometimes the certificate of another seed of the kind, or an
//! instance of another kind, is used instead. A quarter of the mutants then go in the binary
//! form of issue 47 (`GCVALUE1`, written by gamecert's writer from the mutated JSON) and are
//! mutated 0 to 3 times more on their bytes: bits flipped, bytes set to tags and edge values,
//! truncation, ranges deleted or repeated up to about 1 MB, varints inflated past their minimal
//! length or past 2^64, huge string lengths, counts and table indices, nesting 10^4 deep
//! ([`fuzz::mutate`]); the child reads them with the checker's binary decoder under the same
//! budget. A mutant is a function of (run seed, kind, number): a small SplitMix64, no
//! dependency.
//!
//! **Isolation.** Mutants go in batches (JSON lines of {id, instance, certificate}) to a child
//! process: this test binary again, started as `sh -c 'ulimit -v <KiB>; exec "$0" "$@"' <exe>
//! --exact fuzz_child --nocapture --include-ignored` with `GAMECERT_FUZZ_CHILD_BATCH` naming
//! the batch file ([`fuzz::child`]). The child parses both files, runs
//! `Instance::validate()` and `check(..., &Limits::default())` on each case, times that, and
//! prints one line per case (outcome, reason, milliseconds); a panic hook prints a marker. The
//! parent ([`fuzz::parent`]) watches the clock of each case and kills the child when one runs
//! too long. A batch whose child dies (signal, abort, allocation failure under the limit,
//! stack overflow) or is killed is narrowed down: the running case is re-run alone to confirm
//! it, and if it does not fail alone every finished case of the batch is re-run one per
//! child; the cases not yet run go to a new child.
//!
//! **Failures.** A case fails when it panics (in parsing, `validate` or `check`), when its
//! reason starts with "internal error", when it takes longer than the per-case bound, when its
//! child dies or is killed while it runs, or when it is accepted and the claim is false.
//! Parse errors are fine (bad input). Each failing case is written (at most 3 per distinct
//! failure) to `fuzz-findings/<kind>-<class>-<case seed>/` (instance.json, certificate.json,
//! info.txt with the seeds and the mutation; not committed) and the test fails with a summary
//! naming the kind, the mutation, the reason and the time.
//!
//! **Truth.** An accepted mutant of a small instance is checked against the exact solvers of
//! the `gamecert` crate on the mutated instance, in the child after the timed part
//! ([`fuzz::truth`]): a witness must score as a win by breadth-first search here and B must be
//! able to win; a refutation needs B unable to win (exhaustive placement search); voronoi
//! values, path values and strategy margins against the exact multi-round solver; winners of
//! DNF, triangle, marking and vertex nim games against their exact solvers; heap and coin
//! values against the nim-sequences and labels the solver computes; construct bounds against
//! the exact construct solver; a flip value against the exact flip solver, a flip sequence's
//! green count against the most any sequence reaches; a balanced colouring by testing its
//! property. Instances beyond the solvers' bounds are skipped and counted.
//!
//! **Bounds.** Per case: 2 s in the short run, 10 s in the long run (`GAMECERT_FUZZ_CASE_MS`),
//! measured in the child around parsing, `validate` and `check` (not the truth check); a case
//! is killed at 3 times the bound. Memory: each child runs under `ulimit -v` of 4 GiB
//! (`GAMECERT_FUZZ_MEMORY_MIB`). The test binary starts under as little as 64 MiB of address
//! space, so the limit is all the checker's: an allocation it refuses aborts the child, and
//! that is a failure of the case that ran (the child's peak resident set is reported per
//! kind). The truth check of one case is given up after 120 s (counted as skipped).
//!
//! **Runs.**
//! - `fuzz_checker_short` (in the normal suite): 300 mutants per kind (5,400 cases), batches
//!   of 600, 2 children at once: about 10 s on 2 cores in the dev profile.
//! - `fuzz_checker_long` (ignored): 100,000 mutants per kind, batches of 2,000:
//!   `cargo test --release --test it -- --ignored fuzz_checker_long --nocapture`
//!   (`--release` optional: the dev profile has opt-level 2).
//!
//! Variables: `GAMECERT_FUZZ_MUTANTS` (per kind), `GAMECERT_FUZZ_SEED` (run seed, hex),
//! `GAMECERT_FUZZ_KINDS` (comma-separated subset), `GAMECERT_FUZZ_BATCH`,
//! `GAMECERT_FUZZ_JOBS` (children at once, default 2), `GAMECERT_FUZZ_CASE_MS`,
//! `GAMECERT_FUZZ_MEMORY_MIB`, `GAMECERT_FUZZ_FINDINGS` (directory for failing cases).

use crate::fuzz;

use fuzz::parent::{run, summary, Config};
use std::time::Instant;

fn campaign(cfg: Config) -> fuzz::parent::Report {
    let started = Instant::now();
    let report = run(&cfg);
    let (table, failures) = summary(&cfg, &report, started.elapsed());
    println!("{table}");
    assert!(
        report.failures.is_empty() && report.signatures.is_empty(),
        "the checker failed on {} mutants ({} distinct failures); failing cases are in {}\n{failures}",
        report.signatures.values().map(|s| s.0).sum::<u64>(),
        report.signatures.len(),
        cfg.findings.display()
    );
    report
}

/// The short run of the normal suite: 300 mutants per kind, 2 s per case.
#[test]
fn fuzz_checker_short() {
    let report = campaign(Config::from_env("short", 300, 600, 2));
    // The binary form is fuzzed for every kind, and its mutants reach the checker (not all
    // refused by the decoder): a quarter are binary, less those the writer does not take.
    for (kind, s) in &report.stats {
        assert!(s.binary * 10 >= s.mutants, "{kind}: {} binary mutants of {}", s.binary, s.mutants);
        assert!(s.binary_parsed > 0, "{kind}: no binary mutant was read");
    }
}

/// The long run: 10^5 mutants per kind, batches of 2,000, 10 s per case.
#[test]
#[ignore = "long: cargo test --release --test it -- --ignored fuzz_checker_long --nocapture"]
fn fuzz_checker_long() {
    let _ = campaign(Config::from_env("long", 100_000, 2_000, 10));
}

/// The child entry: runs the batch named by `GAMECERT_FUZZ_CHILD_BATCH`; without it (a plain
/// `--ignored` run) it does nothing.
#[test]
#[ignore = "the fuzzer's child process; does nothing when run by hand"]
fn fuzz_child() {
    fuzz::child::main();
}

/// Mutants are a function of their seed, and every kind has a seed the checker accepts.
#[test]
fn mutants_are_reproducible() {
    let seeds = fuzz::seeds::all();
    let mut binary = 0;
    for kind in fuzz::seeds::KINDS {
        let seed = seeds.iter().find(|s| s.kind == *kind).expect("a seed");
        for i in 0..20 {
            let s = fuzz::rng::Rng::case_seed(1, kind, i);
            let a = fuzz::mutate::mutant(seed, &seeds, s);
            let b = fuzz::mutate::mutant(seed, &seeds, s);
            assert_eq!(a.instance, b.instance);
            assert_eq!(a.certificate, b.certificate);
            assert_eq!(a.description, b.description);
            assert!(!a.description.is_empty());
            assert!(a.instance.len() <= 4 * fuzz::mutate::MAX_FILE);
            assert!(a.certificate.len() <= 4 * fuzz::mutate::MAX_FILE);
            // A binary mutant keeps its magic (its bytes are mutated past it) and says so.
            if let Some(bytes) = fuzz::mutate::binary_bytes(&a.certificate) {
                assert!(bytes.starts_with(b"GCVALUE1"), "{}", a.description);
                assert!(a.description.contains("cert: in the binary form"), "{}", a.description);
                binary += 1;
            }
        }
    }
    assert!(binary >= 20, "{binary} binary mutants of {}", 20 * fuzz::seeds::KINDS.len());
}

/// The harness itself: a panic, an "internal error", a slow case, an abort, an allocation the
/// memory limit refuses, a stack overflow and a hang are each pinned on their own case, and
/// the cases after a death still run.
#[test]
fn harness_names_every_kind_of_failure() {
    let mut cfg = Config::from_env("selftest", 0, 100, 1);
    cfg.case_bound = std::time::Duration::from_millis(600);
    cfg.kill_after = std::time::Duration::from_millis(1200);
    cfg.probes = true;
    cfg.log = None;
    cfg.findings = cfg.work.join("findings");
    let seeds = fuzz::seeds::all();
    let good = seeds.iter().find(|s| s.kind == "witness").expect("a seed");
    let probes =
        ["ok", "panic", "ok", "internal", "slow", "abort", "ok", "alloc", "stack", "hang", "ok"];
    let cases: Vec<fuzz::parent::Case> = probes
        .iter()
        .enumerate()
        .map(|(i, p)| fuzz::parent::Case {
            id: i as u64,
            kind: "witness",
            seed_name: format!("probe-{p}"),
            case_seed: i as u64,
            description: format!("probe {p}"),
            instance: if *p == "ok" { good.instance.clone() } else { format!("@@PROBE-{p}") },
            certificate: good.certificate.clone(),
        })
        .collect();
    let report = fuzz::parent::run_given(&cfg, cases);
    let _ = std::fs::remove_dir_all(&cfg.work);
    let found: Vec<(String, &str)> =
        report.failures.iter().map(|f| (f.seed_name.clone(), f.class)).collect();
    // The abort, the refused allocation and the stack overflow all end in SIGABRT: one bug
    // signature, recorded once (the harness groups failures by signature) and counted three
    // times.
    let expect = [
        ("probe-panic", "panic"),
        ("probe-internal", "internal-error"),
        ("probe-slow", "slow"),
        ("probe-abort", "crash"),
        ("probe-hang", "timeout"),
    ];
    for (name, class) in expect {
        assert!(
            found.iter().any(|(n, c)| n == name && *c == class),
            "{name} not reported as {class}: {:?}",
            report.failures
        );
    }
    assert_eq!(found.len(), expect.len(), "{:?}", report.failures);
    assert_eq!(report.stats["witness"].failures, 7, "every probe but the good ones failed");
    let stats = &report.stats["witness"];
    assert_eq!(stats.mutants, probes.len() as u64, "every case counted once");
    assert_eq!(stats.accepted, 4, "the four good cases ran and were accepted");
}

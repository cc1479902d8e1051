//! Crafted attacks on the checker, one per family of bug found by review (issue 15): each small
//! file once made the checker accept a false claim, wrap an untrusted number, or run out of
//! memory or time. Each must now end in a rejection or bad input that names the cause, within
//! the default budget. (The geometric families, edge lists that drop edges and coordinates that
//! wrap, are tested beside the geometry code; the mutation fuzzer, tests/fuzz_checker.rs,
//! looks for the classes at random.)

use gamecert_certificates::check::Decision;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::{check, Limits, Verdict};

const INSTANCE: &str = r#""format": "gamecert-instance", "version": 1"#;
const CERTIFICATE: &str = r#""format": "gamecert-certificate", "version": 1"#;

fn run(instance: &str, certificate: &str) -> Verdict {
    let instance = Instance::from_json(instance).expect("the instance parses");
    let certificate = Certificate::from_json(certificate).expect("the certificate parses");
    check(&instance, &certificate, &Limits::default())
}

fn rejected_for(verdict: &Verdict, needle: &str) {
    assert!(!verdict.accepted(), "accepted: {}", verdict.reason);
    assert!(verdict.reason.contains(needle), "expected {needle:?} in {:?}", verdict.reason);
    assert!(!verdict.reason.contains("internal error"), "{}", verdict.reason);
    // A check stopped by its budget is not checked (issue 47), every other refusal a rejection.
    let out_of_budget = needle.starts_with("work limit reached");
    let expected = if out_of_budget { Decision::NotChecked } else { Decision::Rejected };
    assert_eq!(verdict.outcome, expected, "{}", verdict.reason);
}

/// A path of `n` vertices `p0 .. p{n-1}` as a JSON graph.
fn path_graph(n: usize) -> String {
    let vertices: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let edges: Vec<String> = (1..n).map(|i| format!("[\"p{}\", \"p{i}\"]", i - 1)).collect();
    format!(r#"{{"vertices": [{}], "edges": [{}]}}"#, vertices.join(", "), edges.join(", "))
}

/// Rounds near 2^63 once passed validation (`2 * rounds > vertices` wrapped) and let any margin
/// claim through, as no final position was ever reached.
#[test]
fn rounds_that_would_wrap_are_bad_input() {
    let instance = format!(
        r#"{{{INSTANCE}, "kind": "voronoi", "graph": {}, "rounds": 9223372036854775808}}"#,
        path_graph(4)
    );
    let parsed = Instance::from_json(&instance).unwrap();
    let err = parsed.validate().unwrap_err();
    assert!(err.message.contains("rounds"), "{err}");
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "voronoi-strategy", "player": "white", "claim": "margin-at-least", "margin": 1000, "moves": []}}"#
    );
    let verdict = run(&instance, &certificate);
    rejected_for(&verdict, "rounds");
}

/// A value of i64::MIN has no negation: the B side's claimed margin is refused, not wrapped.
#[test]
fn a_value_without_a_negation_is_refused() {
    let instance =
        format!(r#"{{{INSTANCE}, "kind": "voronoi", "graph": {}, "rounds": 1}}"#, path_graph(3));
    let strategy = |player: &str, margin: &str| {
        format!(
            r#"{{"player": "{player}", "claim": "margin-at-least", "margin": {margin}, "moves": []}}"#
        )
    };
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "voronoi-value", "value": -9223372036854775808, "white": {}, "black": {}}}"#,
        strategy("white", "-9223372036854775808"),
        strategy("black", "0")
    );
    rejected_for(&run(&instance, &certificate), "out of range");
}

/// A positive-DNF game declaring four billion variables: its position is charged before it is
/// allocated.
#[test]
fn a_huge_declared_variable_count_costs_its_bytes_first() {
    let instance =
        format!(r#"{{{INSTANCE}, "kind": "posdnf-game", "num_vars": 4000000000, "terms": [[1]]}}"#);
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "dnf-strategy", "player": "first", "claim": "wins", "moves": []}}"#
    );
    rejected_for(&run(&instance, &certificate), "work limit reached");
}

/// A product coin game whose moves are all listed before anything is checked: 2^30 subsets on
/// a 30-coin axis. The listing is charged by its bytes first.
#[test]
fn a_coin_product_is_charged_before_its_moves_are_listed() {
    let width = 30;
    let labels: Vec<String> = (0..width).map(|_| "[0]".to_string()).collect();
    let instance = format!(
        r#"{{{INSTANCE}, "kind": "coin-game", "rule": {{"game": "product", "x": {{"game": "subsets", "min_others": 0, "max_others": 30}}, "y": {{"game": "twins"}}}}, "board": [{width}, 1], "heads": [[0, 0]]}}"#
    );
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "coin-labelling", "claim": "second-player-wins", "value": 0, "values": [{}]}}"#,
        labels.join(", ")
    );
    rejected_for(&run(&instance, &certificate), "work limit reached");
}

/// Vertex nim with a weight of 10^12: the other player's moves at the start are counted and
/// charged before any is listed.
#[test]
fn an_opponent_with_a_trillion_moves_is_refused_before_listing() {
    let instance = format!(
        r#"{{{INSTANCE}, "kind": "vertexnim", "directed": false, "variant": "vertexnim", "play": "normal", "vertices": [{{"name": "a", "weight": 1000000000000}}, {{"name": "b", "weight": 1}}], "edges": [["a", "b"]], "token": "a"}}"#
    );
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "vertexnim-strategy", "winner": "second", "moves": []}}"#
    );
    rejected_for(&run(&instance, &certificate), "work limit reached while listing moves");
}

/// A direct refutation of a 30,000-vertex path whose encoding could not fit the budget (B's
/// 10,000 vertices make the count tree's top merges about 10^8 clauses): refused before the
/// encoding (or the proof) is touched.
#[test]
fn a_direct_refutation_too_large_to_encode_is_refused_at_once() {
    let n = 30_000;
    let instance = format!(
        r#"{{{INSTANCE}, "kind": "voronoi-one-round", "graph": {}, "white": ["p15000"], "black_count": 10000}}"#,
        path_graph(n)
    );
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "refutation", "claim": "black-cannot-win", "method": "direct", "lrat": "1 0 0"}}"#
    );
    let verdict = run(&instance, &certificate);
    rejected_for(&verdict, "work limit reached while building the direct encoding");
    // Nothing but the graph and the layout was paid for.
    assert!(verdict.work.work_units < 100_000_000, "{}", verdict.work.work_units);
}

/// Two hubs joined to the same 2,000 leaves, and the generator swapping them listed 75,000
/// times (a 2 MB file): verifying it once took a linear adjacency scan per edge, 8 * 10^6
/// steps, so 6 * 10^11 in all. Each copy is now charged for its binary searches first.
#[test]
fn repeated_generators_are_charged_each_time() {
    let leaves = 2000;
    let mut vertices = vec!["\"a\"".to_string(), "\"b\"".to_string()];
    let mut edges = Vec::new();
    for i in 0..leaves {
        vertices.push(format!("\"l{i}\""));
        edges.push(format!("[\"a\", \"l{i}\"]"));
        edges.push(format!("[\"b\", \"l{i}\"]"));
    }
    let instance = format!(
        r#"{{{INSTANCE}, "kind": "voronoi", "graph": {{"vertices": [{}], "edges": [{}]}}, "rounds": 1}}"#,
        vertices.join(", "),
        edges.join(", ")
    );
    let generators = vec![r#"[["a", "b"], ["b", "a"]]"#; 75_000].join(", ");
    let empty = ".".repeat(leaves + 2);
    let certificate = format!(
        r#"{{{CERTIFICATE}, "kind": "voronoi-strategy", "player": "white", "claim": "wins", "moves": [["{empty}", "a"]], "generators": [{generators}]}}"#
    );
    assert!(certificate.len() < 2_000_000);
    let verdict = run(&instance, &certificate);
    rejected_for(&verdict, "work limit reached while verifying generators");
}

/// One round on a long path: every reply of B is a final position. The replay keeps
/// fingerprints, scores each final position on the region its stone changes, and is within
/// the budget; the claim is the truth (W keeps the middle and the longer side of an odd path).
#[test]
fn a_one_round_strategy_on_a_long_path_is_checked_in_bounded_work() {
    let n = 4001;
    let instance =
        format!(r#"{{{INSTANCE}, "kind": "voronoi", "graph": {}, "rounds": 1}}"#, path_graph(n));
    let empty = ".".repeat(n);
    let certificate = |claim: &str| {
        format!(
            r#"{{{CERTIFICATE}, "kind": "voronoi-strategy", "player": "white", "claim": "margin-at-least", "margin": {claim}, "moves": [["{empty}", "p2000"]]}}"#
        )
    };
    let verdict = run(&instance, &certificate("1"));
    assert!(verdict.accepted(), "{}", verdict.reason);
    assert_eq!(verdict.work.positions, Some(n as u64 + 1));
    rejected_for(&run(&instance, &certificate("2")), "below 2");
}

//! The command line's contract: exit codes and messages for good and bad input.

use std::path::Path;

use crate::common;
use common::{bad_input, gamecert, stderr, stdout, write};

#[test]
fn malformed_dimacs_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("header.cnf", "p cnf x 2\n1 0\n", "header.cnf:1:7:"),
        ("beyond.cnf", "p cnf 2 1\n1 3 0\n", "beyond.cnf:2:3:"),
        ("missing0.cnf", "p cnf 2 1\n1 2\n", "missing0.cnf:2:"),
        ("nonnumber.cnf", "p cnf 2 1\n1 two 0\n", "nonnumber.cnf:2:3:"),
        ("noheader.cnf", "1 2 0\n", "noheader.cnf:1:1:"),
    ];
    for (name, text, expected) in cases {
        let path = write(dir.path(), name, text);
        bad_input(&["reduce", "sat-voronoi1", path.to_str().unwrap()], expected);
    }
}

#[test]
fn clause_count_mismatch_is_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "count.cnf", "p cnf 2 3\n1 2 0\n-1 0\n");
    let out = gamecert(&["reduce", "sat-voronoi1", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("warning"), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"kind\": \"voronoi-one-round\""));
}

#[test]
fn empty_formula_and_empty_clause_get_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.cnf", "p cnf 0 0\n");
    let out = gamecert(&["reduce", "sat-voronoi1", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("satisfiable"), "{}", stderr(&out));
    let clause = write(dir.path(), "clause.cnf", "p cnf 2 2\n1 2 0\n0\n");
    let out = gamecert(&["reduce", "sat-voronoi1", clause.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("unsatisfiable"), "{}", stderr(&out));
}

#[test]
fn bad_graphs_are_rejected_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("loop.txt", "white a\nblack 1\na b\nb b\n", "loop.txt:4:3: self-loop"),
        ("dup.txt", "white a\nblack 1\na b\nb a\n", "dup.txt:4:1: duplicate edge"),
        ("unknown.txt", "white q\nblack 1\na b\n", "unknown.txt:1:7: unknown vertex 'q'"),
        ("big.txt", "white a\nblack 2\na b\n", "larger than the 1 free"),
        ("nowhite.txt", "black 1\na b\n", "S is empty"),
        (
            "loop.json",
            r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
  "graph": {"vertices": ["a", "b"], "edges": [["a", "a"]]}, "white": ["a"], "black_count": 1}"#,
            "loop.json: graph.edges[0] (a, a): self-loop",
        ),
        (
            "unknown.json",
            r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
  "graph": {"vertices": ["a", "b"], "edges": [["a", "c"]]}, "white": ["a"], "black_count": 1}"#,
            "unknown vertex 'c'",
        ),
        (
            "emptyS.json",
            r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
  "graph": {"vertices": ["a", "b"], "edges": [["a", "b"]]}, "white": [], "black_count": 1}"#,
            "S is empty",
        ),
        ("syntax.json", "{\n  \"format\": \"gamecert-instance\",\n  oops\n}", "syntax.json:3:3:"),
    ];
    for (name, text, expected) in cases {
        let path = write(dir.path(), name, text);
        bad_input(&["solve", path.to_str().unwrap()], expected);
    }
    bad_input(&["solve", "/nonexistent/instance.json"], "/nonexistent/instance.json");
}

#[test]
fn reduce_solve_verify_round_trip_with_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(dir.path(), "f.cnf", "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n");
    let inst = dir.path().join("f.json");
    let cert = dir.path().join("f.cert.json");
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&["reduce", "sat-voronoi2", cnf.to_str().unwrap(), "-o", i]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["solve", i, "-o", c, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(summary["verdict"], "accepted");
    assert_eq!(summary["claim"], "black-cannot-win");
    assert_eq!(summary["format"], "gamecert-output");
    assert_eq!(summary["method"], "reduction");
    let out = gamecert(&["verify", i, c, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let verdict: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(verdict["verdict"], "accepted");
    assert!(verdict["trusted"][0].as_str().unwrap().contains("Corollary 1"));

    // A truncated certificate and a garbage one are bad input (exit 2) naming the file, line
    // and column, not crashes and not verdicts.
    // The refutation is binary (GCREFUT1): cut inside its header, it is bad input too.
    let bytes = std::fs::read(&cert).unwrap();
    assert!(bytes.starts_with(b"GCREFUT1"));
    let truncated = dir.path().join("trunc.json");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let garbage = write(dir.path(), "garbage.json", "\u{0}\u{1}not json at all");
    for (bad, place) in [(&truncated, "trunc.json:"), (&garbage, "garbage.json:1:1:")] {
        let out = gamecert(&["verify", i, bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert_eq!(stdout(&out), "");
        assert!(stderr(&out).contains(place), "{}", stderr(&out));
    }
    // The direct method on the same instance gives a different, equally valid certificate.
    let direct = dir.path().join("direct.json");
    let out = gamecert(&["solve", i, "--method", "direct", "-o", direct.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["verify", i, direct.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(!stdout(&out).contains("trusted:"));
}

/// `--sat` picks the SAT backend of both one-round methods; each certificate verifies. Both
/// formulas need search, not just unit propagation: pigeonhole (4 pigeons in 3 holes) through
/// the reduction, and the direct encoding of a small reduced instance.
#[test]
fn solve_sat_flag_picks_the_backend() {
    let dir = tempfile::tempdir().unwrap();
    let reduced = |name: &str, reduction: &str, dimacs: &str| {
        let cnf = write(dir.path(), &format!("{name}.cnf"), dimacs);
        let inst = dir.path().join(format!("{name}.json"));
        let out =
            gamecert(&["reduce", reduction, cnf.to_str().unwrap(), "-o", inst.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        inst
    };
    let php = reduced("php", "sat-voronoi1", &gamecert::base::sat::pigeonhole(3).to_dimacs());
    let small = reduced("small", "sat-voronoi2", "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n");
    let solve = |instance: &Path, extra: &[&str], name: &str| {
        let (i, cert) = (instance.to_str().unwrap(), dir.path().join(name));
        let mut args = vec!["solve", i, "-o", cert.to_str().unwrap(), "--json"];
        args.extend_from_slice(extra);
        let out = gamecert(&args);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stderr(&out));
        let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(summary["claim"], "black-cannot-win");
        let out = gamecert(&["verify", i, cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {}", stdout(&out));
        summary["sat"].as_str().unwrap().to_string()
    };
    let default = gamecert::base::sat::Backend::default().name();
    assert_eq!(solve(&php, &[], "default.json"), default);
    for backend in ["cadical", "varisat"] {
        assert_eq!(solve(&php, &["--sat", backend], &format!("{backend}.json")), backend);
        let direct = ["--sat", backend, "--method", "direct"];
        assert_eq!(solve(&small, &direct, &format!("{backend}-direct.json")), backend);
    }
    let i = php.to_str().unwrap();
    // An unknown backend is a usage error naming the known ones; other kinds take no --sat.
    let out = gamecert(&["solve", i, "--sat", "minisat"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cadical") && stderr(&out).contains("varisat"),
        "{}",
        stderr(&out)
    );
    let multi = write(
        dir.path(),
        "multi.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]}, "rounds": 1}"#,
    );
    bad_input(
        &["solve", multi.to_str().unwrap(), "--sat", "varisat"],
        "--sat applies to one-round",
    );
}

#[test]
fn method_reduction_needs_a_source() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "p.txt", "white a\nblack 1\na b\nb c\n");
    bad_input(
        &["solve", path.to_str().unwrap(), "--method", "reduction"],
        "needs an instance built by `gamecert reduce`",
    );
    let out = gamecert(&["solve", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\"kind\": \"witness\""));
}

/// The demo writes and checks every case; its table fits 100 columns with every answer whole
/// (issue 25: the answers the `--json` rows give all appear, wrapped between words, never cut),
/// and the table is a snapshot.
#[test]
fn demo_writes_and_checks_everything() {
    let dir = tempfile::tempdir().unwrap();
    let out = gamecert(&["demo", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(!table.contains("REJECTED"), "{table}");
    assert!(dir.path().join("figure3-p1.cert.json").exists());
    assert!(dir.path().join("all-eight-p1.instance.json").exists());
    for line in table.lines() {
        assert!(line.chars().count() <= 100, "{} columns: {line}", line.chars().count());
    }
    assert!(!table.contains('…'), "{table}");
    let out = gamecert(&["demo", "--out", dir.path().to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["command"], "demo");
    assert_eq!(json["verdict"], "accepted");
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let flowing = words(&table);
    let rows = json["rows"].as_array().unwrap();
    assert!(rows.len() >= 28, "{}", rows.len());
    for row in rows {
        for key in ["case", "claim", "description", "certificate"] {
            let cell = words(row[key].as_str().unwrap());
            assert!(flowing.contains(&cell), "{key} {cell:?} is not whole in\n{table}");
        }
        // No game named by its Rust type, `MonochromaticFlipping` (issue 25): no word mixes
        // case after its first letter.
        let claim = row["claim"].as_str().unwrap();
        let camel = |w: &str| {
            w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase)
        };
        assert!(!claim.split(|c: char| !c.is_alphanumeric()).any(camel), "{claim}");
    }
    let shown = table.replace(dir.path().to_str().unwrap(), "DIR");
    insta::assert_snapshot!("demo_table", shown);
}

#[test]
fn render_draws_figure3_with_a_placement() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(dir.path(), "fig3.cnf", "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n");
    let inst = dir.path().join("fig3.json");
    let cert = dir.path().join("fig3.cert.json");
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    assert!(gamecert(&["reduce", "sat-voronoi1", cnf.to_str().unwrap(), "-o", i]).status.success());
    assert!(gamecert(&["solve", i, "-o", c]).status.success());
    let out = gamecert(&["render", i, "--certificate", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dot = stdout(&out);
    assert!(dot.starts_with("graph gamecert {"));
    assert_eq!(dot.matches(" -- ").count(), 3 * 4 * 4 + 6 + 2 * 2 + 6);
    assert_eq!(dot.matches("fillcolor=black").count(), 4, "{dot}");
    // The same natively in SVG: every vertex a circle, B's four stones in B's colour.
    let out = gamecert(&["render", i, "--certificate", c, "--format", "svg"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let svg = stdout(&out);
    // (Each vertex's circle names it; the owners' shaded cells are circles too.)
    assert_eq!(
        svg.matches("<circle data-vertex").count(),
        dot.matches("[ label=").count(),
        "{svg}"
    );
    assert!(svg.contains("B: 4 stones"), "{svg}");
}

#[test]
fn strategy_certificates_verify_from_files() {
    let dir = tempfile::tempdir().unwrap();
    let star = write(
        dir.path(),
        "star.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["c", "x", "y", "z"], "edges": [["c", "x"], ["c", "y"], ["c", "z"]]},
  "rounds": 1}"#,
    );
    let strategy = write(
        dir.path(),
        "centre.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "voronoi-strategy",
  "player": "white", "claim": "wins", "moves": [["....", "c"]],
  "symmetries": [["W...", "y", "x", [["y", "x"], ["x", "y"]]], ["W...", "z", "x", [["z", "x"], ["x", "z"]]]]}"#,
    );
    let out = gamecert(&["verify", star.to_str().unwrap(), strategy.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let verdict: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(verdict["claim"], "W wins");
    assert_eq!(verdict["work"]["symmetries"], 2);

    let leaf = write(
        dir.path(),
        "leaf.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "voronoi-strategy",
  "player": "white", "claim": "wins", "moves": [["....", "x"]]}"#,
    );
    let out = gamecert(&["verify", star.to_str().unwrap(), leaf.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("margin of"), "{}", stdout(&out));

    let dnf = write(
        dir.path(),
        "dnf.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "posdnf-game",
  "num_vars": 2, "terms": [[1, 2]]}"#,
    );
    let block = write(
        dir.path(),
        "block.json",
        r#"{"format": "gamecert-certificate", "version": 1, "kind": "dnf-strategy",
  "player": "second", "claim": "wins", "moves": [["1.", 2], [".1", 1]]}"#,
    );
    let out = gamecert(&["verify", dnf.to_str().unwrap(), block.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // A certificate of one game for an instance of another is a rejection, with the reason.
    let out = gamecert(&["verify", star.to_str().unwrap(), block.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("does not fit a voronoi instance"), "{}", stdout(&out));
    // Bad multi-round instances are bad input.
    let bad = write(
        dir.path(),
        "bad.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["a", "b"], "edges": [["a", "b"]]}, "rounds": 2}"#,
    );
    bad_input(
        &["verify", bad.to_str().unwrap(), block.to_str().unwrap()],
        "2 rounds need 4 vertices",
    );
    // The exact solver certifies the star's value: W takes the centre and keeps two leaves.
    let value = dir.path().join("value.json");
    let out = gamecert(&["solve", star.to_str().unwrap(), "-o", value.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // One round on a tree: the median rule (the centre is the one median, so W wins).
    assert_eq!(summary["kind"], "voronoi-strategy");
    let out = gamecert(&["verify", star.to_str().unwrap(), value.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("W wins"), "{}", stdout(&out));
    // A graph that is not a tree goes to the exact solver, which certifies the value.
    let triangle = write(
        dir.path(),
        "triangle.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["a", "b", "c", "d"], "edges": [["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"]]},
  "rounds": 1}"#,
    );
    let out = gamecert(&["solve", triangle.to_str().unwrap(), "-o", value.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["verify", triangle.to_str().unwrap(), value.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("value (W's margin) is 1"), "{}", stdout(&out));
    let out = gamecert(&["render", star.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Nodes are numbered by petgraph's DOT writer and labelled by name.
    assert!(stdout(&out).contains("0 [ label=\"c\""), "{}", stdout(&out));
    assert!(stdout(&out).contains("0 -- 1"), "{}", stdout(&out));
}

#[test]
fn malformed_dnf_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("neg.dnf", "1 2\n3 -4\n", "neg.dnf:2:3:"),
        ("zero.dnf", "1 0 2\n", "zero.dnf:1:3:"),
        ("empty.dnf", "1 2\n0\n", "empty.dnf:2:1:"),
        ("twice.dnf", "1 2 1\n", "twice.dnf:1:5:"),
        ("word.dnf", "1 x\n", "word.dnf:1:3:"),
    ];
    for (name, text, expected) in cases {
        let path = write(dir.path(), name, text);
        bad_input(&["reduce", "posdnf-voronoi", path.to_str().unwrap()], expected);
    }
    // A well-formed DNF reduces to a graph of 2n^2 + 7n + m + 2 vertices.
    let ok = write(dir.path(), "ok.dnf", "c odd: padded to 4 variables\n1 2\n3\n");
    let out = gamecert(&["reduce", "posdnf-voronoi", ok.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("64 vertices"), "{}", stderr(&out));
    assert!(stderr(&out).contains("padded"), "{}", stderr(&out));
}

#[test]
fn gen_families_and_their_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree.json");
    let t = tree.to_str().unwrap();
    let out =
        gamecert(&["gen", "tree", "--vertices", "25", "--rounds", "1", "--seed", "4", "-o", t]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // One round on a tree is solved by the median rule, certified and checked.
    let cert = dir.path().join("tree.cert.json");
    let out = gamecert(&["solve", t, "-o", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["verify", t, cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let kary = dir.path().join("k.json");
    let out = gamecert(&[
        "gen",
        "kary-tree",
        "--k",
        "3",
        "--height",
        "3",
        "--rounds",
        "2",
        "-o",
        kary.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("40 vertices"), "{}", stderr(&out));
    bad_input(
        &["gen", "kary-tree", "--k", "1", "--height", "3", "--rounds", "1"],
        "'--k <K>': expected a whole number from 2 to 10^7",
    );
    bad_input(
        &["gen", "kary-tree", "--k", "7", "--height", "12", "--rounds", "1"],
        "would have 16148168401 vertices",
    );
    bad_input(&["gen", "path", "--vertices", "7", "--rounds", "4"], "8 vertices (2n)");
    bad_input(&["gen", "path", "--vertices", "7", "--rounds", "0"], "from 1 to 5000000");
}

#[test]
fn solve_errors_name_the_instance_file() {
    let dir = tempfile::tempdir().unwrap();
    // A multi-round instance whose recorded source formula does not parse.
    let bad = write(
        dir.path(),
        "bad-source.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["a", "b"], "edges": [["a", "b"]]}, "rounds": 1,
  "source": {"reduction": "posdnf-voronoi", "formula": {"num_vars": "two"}}}"#,
    );
    bad_input(&["solve", bad.to_str().unwrap()], "bad-source.json: no certificate");
}

/// Generates a complete k-ary tree, solves it and verifies the certificate from its file;
/// returns what `solve` printed.
fn solve_kary_tree(dir: &Path, k: &str, height: &str, rounds: &str) -> String {
    let instance = dir.join(format!("k{k}h{height}n{rounds}.json"));
    let cert = dir.join(format!("k{k}h{height}n{rounds}.cert.json"));
    let (i, c) = (instance.to_str().unwrap(), cert.to_str().unwrap());
    let args = ["gen", "kary-tree", "--k", k, "--height", height, "--rounds", rounds, "-o", i];
    let out = gamecert(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let verify = gamecert(&["verify", i, c]);
    assert_eq!(verify.status.code(), Some(0), "{}", stdout(&verify));
    stderr(&out)
}

#[test]
fn kary_trees_are_solved_by_the_papers_strategies() {
    let dir = tempfile::tempdir().unwrap();
    // Theorem 1: odd k = 5, n = 3 on the smallest tree meeting the bound (781 vertices).
    let said = solve_kary_tree(dir.path(), "5", "4", "3");
    assert!(said.contains("W wins") && said.contains("Algorithm 2"), "{said}");
    // Theorem 2: even k = 4, n = 3 (2n > k) on the smallest such tree (341 vertices): a tie.
    let said = solve_kary_tree(dir.path(), "4", "4", "3");
    assert!(said.contains("value (W's margin) is 0"), "{said}");
    assert!(said.contains("symmetric"), "{said}");
    // Proposition 1: 2n <= k.
    let said = solve_kary_tree(dir.path(), "4", "2", "2");
    assert!(said.contains("Algorithm 1"), "{said}");
}

#[test]
fn solve_methods_that_do_not_apply_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let cycle = write(
        dir.path(),
        "cycle.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["a", "b", "c", "d"], "edges": [["a", "b"], ["b", "c"], ["c", "a"], ["c", "d"]]},
  "rounds": 1}"#,
    );
    let c = cycle.to_str().unwrap();
    bad_input(
        &["solve", c, "--method", "median"],
        "cycle.json: --method median needs one round on a tree from an empty start: the graph is not a tree: 4 vertices and 4 edges",
    );
    bad_input(
        &["solve", c, "--method", "kary"],
        "cycle.json: --method kary needs a complete k-ary tree",
    );
    bad_input(
        &["solve", c, "--method", "direct"],
        "--method direct does not apply to a voronoi instance; it takes auto, kary, median, exact",
    );
    // Without a method the exact solver settles it.
    let out = gamecert(&["solve", c, "-o", dir.path().join("c.cert").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn path_values_solve_verify_and_reject() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("p9.json");
    let i = inst.to_str().unwrap();
    let out = gamecert(&["gen", "path", "--vertices", "9", "--rounds", "3", "-o", i]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let cert = dir.path().join("p9.cert.json");
    let c = cert.to_str().unwrap();
    let out = gamecert(&["solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.contains("\"kind\": \"voronoi-path-value\""), "{text}");
    let out = gamecert(&["verify", i, c]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("trusted: path gaps"), "{}", stdout(&out));
    // A wrong value names the final state that breaks it.
    let wrong = write(dir.path(), "wrong.json", &text.replace("\"value\": 0", "\"value\": 1"));
    let out = gamecert(&["verify", i, wrong.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("final state '"), "{}", stdout(&out));
    // The same certificate for a graph that is not a path, or another size.
    let star = write(
        dir.path(),
        "star.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
  "graph": {"vertices": ["c", "a", "b", "d", "e", "f", "g", "h", "i"],
            "edges": [["c", "a"], ["c", "b"], ["c", "d"], ["d", "e"], ["e", "f"], ["f", "g"],
                      ["g", "h"], ["h", "i"]]},
  "rounds": 3}"#,
    );
    let out = gamecert(&["verify", star.to_str().unwrap(), c]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("needs a path"), "{}", stdout(&out));
    let p11 = dir.path().join("p11.json");
    let out = gamecert(&[
        "gen",
        "path",
        "--vertices",
        "11",
        "--rounds",
        "3",
        "-o",
        p11.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let out = gamecert(&["verify", p11.to_str().unwrap(), c]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("N = 9"), "{}", stdout(&out));
}

#[test]
fn voronoi_paths_table_and_its_bad_input() {
    let out = gamecert(&["table", "voronoi-paths", "--max-vertices", "8"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("| 8 | 4 | 0 (tie) |"), "{text}");
    assert!(text.contains("16 entries, 13 ties, 3 not ties"), "{text}");
    let out = gamecert(&[
        "table",
        "voronoi-paths",
        "--min-vertices",
        "6",
        "--max-vertices",
        "6",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let output: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(output["command"], "table voronoi-paths");
    assert_eq!(output["rows"].as_array().unwrap().len(), 3);
    // --each: a line per entry (N n VALUE W_STATES B_STATES), B's states "mirror" on even
    // paths with --mirror; with --json a JSON object a line.
    let out = gamecert(&["table", "voronoi-paths", "--max-vertices", "6", "--each", "--mirror"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 1 + 2 + 2 + 3, "{text}");
    assert_eq!(lines[0], "2 1 0 3 mirror", "{text}");
    assert!(lines[1].starts_with("3 1 1 ") && !lines[1].ends_with("mirror"), "{text}");
    assert!(stderr(&out).contains("B's side of 6 even-path entries is B's mirror"));
    let out = gamecert(&["table", "voronoi-paths", "--max-vertices", "5", "--each", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<serde_json::Value> =
        stdout(&out).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r["black_side"] == "B's strategy" && r["black_states"].is_u64()));
    bad_input(&["table", "voronoi-paths", "--max-vertices", "0"], "from 1 to 200");
    bad_input(&["table", "voronoi-paths", "--max-vertices", "1000"], "from 1 to 200");
    // The search alone stops at 36; the rule certificates go to 200.
    bad_input(
        &["table", "voronoi-paths", "--max-vertices", "37"],
        "between 1 and 36 by the search",
    );
    bad_input(
        &["table", "voronoi-paths", "--min-vertices", "9", "--max-vertices", "8"],
        "--min-vertices",
    );
}

/// `--max-vertices` keeps the small trees: up to 7 vertices, k = 2 of heights 1 and 2 and the
/// stars of k = 3, 4, 5, every n with 2n <= N: 1 + 3 + 2 + 2 + 3 entries, all exact.
#[test]
fn voronoi_kary_table_of_the_small_trees_and_its_bad_input() {
    let out = gamecert(&["table", "voronoi-kary", "--max-vertices", "7", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let output: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rows = output["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 11, "{output}");
    assert!(rows.iter().all(|r| r["vertices"].as_u64() <= Some(7) && r["method"] == "exact"));
    // --prove-limit reaches the proof search: with the exact solver held to one class, the
    // trees up to 15 vertices get every outcome by proof at the default limit, not at 1.
    let without_outcome = |limit: &str| {
        let out = gamecert(&[
            "table",
            "voronoi-kary",
            "--max-vertices",
            "15",
            "--budget",
            "1",
            "--prove-limit",
            limit,
            "--json",
            "-q",
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let output: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        output["rows"].as_array().unwrap().iter().filter(|r| r["outcome"].is_null()).count()
    };
    assert_eq!(without_outcome("200000"), 0);
    assert!(without_outcome("1") > 0);
    bad_input(&["table", "voronoi-kary", "--max-vertices", "129"], "from 1 to 128");
    bad_input(&["table", "voronoi-kary", "--prove-limit", "0"], "from 1 to 10^9");
}

#[test]
fn gen_triangulation_families_and_bad_input() {
    for kind in ["convex", "fan", "serpentine", "simple-branching", "wheel", "points"] {
        let out =
            gamecert(&["gen", "triangulation", "--kind", kind, "--points", "9", "--inner", "2"]);
        assert_eq!(out.status.code(), Some(0), "{kind}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json["points"].as_array().unwrap().len(), 9, "{kind}");
    }
    bad_input(
        &["gen", "triangulation", "--kind", "fan", "--points", "2"],
        "'--points <POINTS>': expected a whole number from 3 to 10^7",
    );
    bad_input(
        &["gen", "triangulation", "--kind", "points", "--points", "5", "--inner", "3"],
        "leaves fewer than 3 hull points",
    );
}

#[test]
fn marking_games_solve_verify_and_reject() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("wheel.json");
    let cert = dir.path().join("wheel.cert.json");
    let (i, c) = (inst.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "wheel",
        "--points",
        "7",
        "--game",
        "four-cycle",
        "-o",
        i,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // Theorem 8: the Four-Cycle Game on a wheel is a second-player win.
    assert!(stderr(&out).contains("the second player wins"), "{}", stderr(&out));
    assert_eq!(gamecert(&["verify", i, c]).status.code(), Some(0));
    // Drop the winner's answer at one position: rejected with exit 1.
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    json["moves"].as_array_mut().unwrap().pop();
    std::fs::write(&cert, json.to_string()).unwrap();
    let out = gamecert(&["verify", i, c]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("no move for the winner"), "{}", stdout(&out));
    // Collinear points: bad input.
    let bad = write(
        dir.path(),
        "collinear.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "marking-game", "game": "coloring",
  "points": [[0, 0], [1, 1], [2, 2], [0, 5]], "triangles": [[0, 2, 3]]}"#,
    );
    bad_input(&["solve", bad.to_str().unwrap()], "collinear");
}

/// A SAT solve says what it is before it starts (the encoding's size and what `bench direct`
/// measured near it) and its status line counts CaDiCaL's conflicts, not search nodes; `-q`
/// silences both.
#[test]
fn a_sat_solve_prints_its_size_and_counts_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    // The chain family's formula with 8 variables: x1, x1 -> x2, ..., not x8.
    let mut cnf = String::from("p cnf 8 9\n1 0\n");
    for i in 1..8 {
        cnf.push_str(&format!("-{i} {} 0\n", i + 1));
    }
    cnf.push_str("-8 0\n");
    let formula = write(dir.path(), "chain.cnf", &cnf);
    let instance = dir.path().join("chain.json");
    let i = instance.to_str().unwrap();
    let reduce = ["reduce", "sat-voronoi1", formula.to_str().unwrap(), "-o", i];
    assert_eq!(gamecert(&reduce).status.code(), Some(0));
    let cert = dir.path().join("chain.cert.json");
    let run = |quiet: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gamecert"));
        command.args(["solve", "--method", "direct", i, "-o", cert.to_str().unwrap()]);
        if quiet {
            command.arg("-q");
        }
        command.env("GAMECERT_STATUS_EVERY_MS", "2").output().unwrap()
    };
    let out = run(false);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.lines().any(|l| l.starts_with(
            "... SAT (cadical, with an LRAT proof) on the direct \
             encoding: "
        ) && l.contains(" variables, ")
            && l.contains(" clauses, ")
            && l.contains("gamecert bench direct")),
        "no plan line in {err}"
    );
    assert!(err.contains(" CaDiCaL conflicts after "), "no conflicts counted in {err}");
    assert!(!err.contains("search nodes"), "{err}");
    let quiet = stderr(&run(true));
    assert!(!quiet.contains("SAT (") && !quiet.contains("conflicts"), "{quiet}");
}

/// `solve` on a search that reports nothing else still counts: its status line (stderr not a
/// terminal, made frequent by the hidden GAMECERT_STATUS_EVERY_MS) gives the search nodes the
/// solvers publish and the instance's size from the registry; `-q` silences it.
#[test]
fn solve_counts_search_nodes_on_its_status_line() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("tree.json");
    let t = tree.to_str().unwrap();
    let args = ["gen", "tree", "--vertices", "60", "--rounds", "3", "--seed", "2", "-o", t];
    assert_eq!(gamecert(&args).status.code(), Some(0));
    let cert = dir.path().join("tree.cert.json");
    let run = |quiet: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gamecert"));
        command.args(["solve", t, "-o", cert.to_str().unwrap()]);
        if quiet {
            command.arg("-q");
        }
        command.env("GAMECERT_STATUS_EVERY_MS", "2").output().unwrap()
    };
    let out = run(false);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let counted = stderr(&out)
        .lines()
        .filter(|l| l.contains(" search nodes after ") && l.contains("a voronoi instance, at most"))
        .count();
    assert!(counted > 0, "no counted status line in {}", stderr(&out));
    assert!(!stderr(&run(true)).contains("search nodes"));
}

/// Issue 47, item 6: the proof search's status line says where it is: the engine and the
/// threshold test it is on, then the walk of the proof, a rate, and (from the first 2^16
/// expansions) the table's fill; never the exact solver's estimate, which is not what runs.
#[test]
fn the_proof_search_says_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let tree = dir.path().join("k2h4.json");
    let t = tree.to_str().unwrap();
    let args = ["gen", "kary-tree", "--k", "2", "--height", "4", "--rounds", "5", "-o", t];
    assert_eq!(gamecert(&args).status.code(), Some(0));
    let cert = dir.path().join("k2h4.cert.json");
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_gamecert"));
    command.args(["solve", t, "--method", "prove", "-o", cert.to_str().unwrap()]);
    let out = command.env("GAMECERT_STATUS_EVERY_MS", "5").output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("depth-first proof search: can W reach a margin of at least 1?"), "{err}");
    assert!(err.contains(" a second"), "no rate in {err}");
    assert!(
        err.contains("proof (W's margin at least ") && err.contains("out of the table"),
        "{err}"
    );
    assert!(!err.contains("exact solver"), "{err}");
}

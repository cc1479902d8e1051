//! The SAT user's own answer (issue 42, item 4): `solve` on an instance made by `reduce
//! sat-voronoi1|2` prints `s SATISFIABLE` and `v` lines of a model of the user's variables (or
//! `s UNSATISFIABLE`), `--json` gives it as `sat_answer`, and `export-proof` writes the model of
//! a witness. Every model here is checked against the user's clauses by this test's own reading
//! of the formula, independently of gamecert.

use crate::common::{bad_input, gamecert, stderr, stdout, write};
use std::path::Path;

/// The clauses of a DIMACS text as written (comments, the header and a `%` trailer skipped).
fn clauses_of(text: &str) -> (usize, Vec<Vec<i64>>) {
    let mut vars = 0;
    let mut numbers = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix("p cnf") {
            vars = header.split_whitespace().next().unwrap().parse().unwrap();
        } else if line.starts_with('%') {
            break;
        } else if !line.starts_with('c') {
            numbers.extend(line.split_whitespace().map(|t| t.parse::<i64>().unwrap()));
        }
    }
    let mut clauses = vec![];
    let mut clause = vec![];
    for n in numbers {
        if n == 0 {
            clauses.push(std::mem::take(&mut clause));
        } else {
            clause.push(n);
        }
    }
    (vars, clauses)
}

/// The model of SAT-competition lines: `s SATISFIABLE`, then `v` lines of at most 80 characters
/// ending in `0`, one literal per variable `1..=vars` in order.
fn model_of(lines: &str, vars: usize) -> Vec<i64> {
    let mut lines = lines.lines();
    assert_eq!(lines.next(), Some("s SATISFIABLE"), "{lines:?}");
    let v: Vec<&str> = lines.collect();
    assert!(!v.is_empty() && v.iter().all(|l| l.starts_with("v ") && l.len() <= 80), "{v:?}");
    assert!(v.last().unwrap().ends_with(" 0"), "{v:?}");
    let literals: Vec<i64> =
        v.iter().flat_map(|l| l[2..].split(' ').map(|t| t.parse().unwrap())).collect();
    assert_eq!(literals.last(), Some(&0));
    let model = literals[..literals.len() - 1].to_vec();
    let order: Vec<usize> = model.iter().map(|l| l.unsigned_abs() as usize).collect();
    assert_eq!(order, (1..=vars).collect::<Vec<_>>());
    model
}

fn satisfies(model: &[i64], clauses: &[Vec<i64>]) -> bool {
    clauses.iter().all(|clause| clause.iter().any(|l| model.contains(l)))
}

/// Reduces `cnf` with `reduction`, solves it with `-o` and returns what standard output held.
fn solved(dir: &Path, name: &str, cnf: &str, reduction: &str, method: &str) -> String {
    let p = |ext: &str| dir.join(format!("{name}.{ext}")).display().to_string();
    write(dir, &format!("{name}.cnf"), cnf);
    let out = gamecert(&["reduce", reduction, &p("cnf"), "-o", &p("json"), "-q"]);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    let out = gamecert(&["solve", &p("json"), "--method", method, "-o", &p("cert"), "-q"]);
    assert!(out.status.success(), "{name}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn solve_prints_a_model_of_the_users_own_formula() {
    let dir = tempfile::tempdir().unwrap();
    let formulas = [
        // Figure 3, already restricted.
        ("fig3", "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n"),
        // Variable 1 occurs six times: split into copies; a long clause split by links.
        ("copies", "p cnf 5 6\n1 2 0\n1 -2 0\n-1 3 0\n1 4 0\n1 -4 5 0\n-5 -3 1 2 4 0\n"),
        // Tautologies, duplicate clauses, repeated literals.
        ("tautologies", "p cnf 3 6\n1 -1 2 0\n2 2 -3 0\n2 2 -3 0\n-2 3 0\n3 -3 0\n-1 -1 0\n"),
        // Unused variables (4 and 6), one only in a tautology (5).
        ("unused", "p cnf 7 4\n1 2 0\n-2 3 0\n5 -5 7 0\n-1 -7 0\n"),
        // Only tautologies, and no clause at all: any model.
        ("trivial", "p cnf 3 2\n1 -1 0\n2 3 -2 0\n"),
        ("empty", "p cnf 2 0\n"),
        // SATLIB's habits: a `%` trailer (the lenient reader's warning).
        ("satlib", "c a comment\np cnf 3 2\n 1 -2 0\n2 3 0\n%\n0\n"),
    ];
    for (name, cnf) in formulas {
        let (vars, clauses) = clauses_of(cnf);
        for (reduction, method) in
            [("sat-voronoi1", "auto"), ("sat-voronoi2", "reduction"), ("sat-voronoi1", "direct")]
        {
            if method == "direct" && !matches!(name, "fig3" | "unused" | "empty") {
                continue; // the direct encoding of larger images is slow; these cover it
            }
            let lines = solved(dir.path(), name, cnf, reduction, method);
            let model = model_of(&lines, vars);
            assert!(satisfies(&model, &clauses), "{name} ({reduction}, {method}): {model:?}");
        }
    }
    // Random satisfiable formulas with long clauses, repeats and frequent variables.
    let mut rng = gamecert::base::rng::Rng::new(42);
    let mut answered = 0;
    for trial in 0..40 {
        let vars = rng.range(3, 8);
        let mut text = String::new();
        let count = rng.range(vars, 3 * vars);
        for _ in 0..count {
            let width = [1, 2, 3, 3, 4, 6][rng.range(0, 5) as usize];
            for _ in 0..width {
                let var = rng.range(1, vars) as i64;
                text += &format!("{} ", if rng.range(0, 1) == 0 { var } else { -var });
            }
            text += "0\n";
        }
        let cnf = format!("p cnf {vars} {count}\n{text}");
        let (vars, clauses) = clauses_of(&cnf);
        let lines = solved(dir.path(), "random", &cnf, "sat-voronoi1", "auto");
        if lines == "s UNSATISFIABLE\n" {
            continue;
        }
        let model = model_of(&lines, vars);
        assert!(satisfies(&model, &clauses), "trial {trial}: {cnf}\n{model:?}");
        answered += 1;
    }
    assert!(answered >= 10, "only {answered} satisfiable formulas");
}

#[test]
fn every_output_says_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let cnf = "p cnf 4 5\n1 2 0\n1 -2 0\n1 3 0\n1 -3 4 0\n2 2 -4 0\n";
    let (vars, clauses) = clauses_of(cnf);
    let lines = solved(dir.path(), "f", cnf, "sat-voronoi1", "auto");
    let model = model_of(&lines, vars);
    assert!(satisfies(&model, &clauses));
    // Without -o the certificate fills standard output: the lines go to standard error.
    let out = gamecert(&["solve", &p("f.json")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let certificate: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(certificate["kind"], "witness");
    assert!(stderr(&out).ends_with(&lines), "{}", stderr(&out));
    let quiet = gamecert(&["solve", &p("f.json"), "-q"]);
    assert!(stderr(&quiet).is_empty(), "{}", stderr(&quiet));
    // --json: the field `sat_answer`.
    let out = gamecert(&["solve", &p("f.json"), "--json", "-o", &p("f.cert")]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["sat_answer"]["status"], "SATISFIABLE");
    let from_json: Vec<i64> = json["sat_answer"]["model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_i64().unwrap())
        .collect();
    assert_eq!(from_json, model);
    // export-proof: the witness's model, on standard output or to --model, the formula to --cnf.
    let out = gamecert(&["export-proof", &p("f.json"), &p("f.cert")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), lines);
    let out = gamecert(&[
        "export-proof",
        &p("f.json"),
        &p("f.cert"),
        "--model",
        &p("f.model"),
        "--cnf",
        &p("f.out.cnf"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    assert_eq!(std::fs::read_to_string(p("f.model")).unwrap(), lines);
    assert_eq!(clauses_of(&std::fs::read_to_string(p("f.out.cnf")).unwrap()), (vars, clauses));
    let out = gamecert(&["export-proof", &p("f.json"), &p("f.cert"), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["sat_answer"]["model"].as_array().unwrap().len(), vars);
    let (f_json, f_cert, x_lrat) = (p("f.json"), p("f.cert"), p("x.lrat"));
    bad_input(&["export-proof", &f_json, &f_cert, "--lrat", &x_lrat], "a witness carries no proof");
    // Unsatisfiable: the status line alone, and export-proof refuses a model.
    let lines = solved(
        dir.path(),
        "u",
        "p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 -2 0\n",
        "sat-voronoi1",
        "auto",
    );
    assert_eq!(lines, "s UNSATISFIABLE\n");
    let out = gamecert(&["solve", &p("u.json"), "--json", "-q"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["sat_answer"], serde_json::json!({"status": "UNSATISFIABLE"}));
    let (u_json, u_cert, x_model) = (p("u.json"), p("u.cert"), p("x.model"));
    bad_input(
        &["export-proof", &u_json, &u_cert, "--model", &x_model],
        "a refutation has no model",
    );
    bad_input(&["export-proof", &p("u.json"), &p("u.cert")], "give --cnf FILE and --lrat FILE");
    // A direct refutation proves the game's encoding: no answer, and why.
    let lines = solved(dir.path(), "u", "p cnf 1 2\n1 0\n-1 0\n", "sat-voronoi1", "direct");
    assert!(
        lines.starts_with("c a direct refutation") && lines.ends_with("s UNKNOWN\n"),
        "{lines}"
    );
    // A hand-written instance is no SAT user's: nothing on standard output.
    write(dir.path(), "g.txt", "white a\nblack 1\na b\nb c\nc d\n");
    let out = gamecert(&["solve", &p("g.txt"), "-o", &p("g.cert"), "-q"]);
    assert!(out.status.success() && stdout(&out).is_empty(), "{}", stdout(&out));
    let out = gamecert(&["solve", &p("g.txt"), "--json", "-q"]);
    assert!(!stdout(&out).contains("sat_answer"));
    bad_input(&["export-proof", &p("g.txt"), &p("g.cert")], "records no formula of the user's");
}

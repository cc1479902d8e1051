//! Standard proof files (issue 17, item 3): `export-proof` writes a refutation's formula and
//! proof as DIMACS and LRAT; `gamecert lrat` and `gamecert-check lrat` check any LRAT proof of
//! any DIMACS formula; outside tools (drat-trim's `lrat-check`, CakeML's `cake_lpr`, CaDiCaL +
//! `drat-trim -L`) are
//! used as oracles when they are installed, and those parts are skipped otherwise.

use crate::common::{bad_input, gamecert, stderr, stdout, write};
use std::path::Path;
use std::process::Command;

/// Runs `gamecert-check` with `args`.
fn gamecert_check(args: &[&str]) -> std::process::Output {
    let path = crate::common::gamecert_check_binary();
    Command::new(path).args(args).output().expect("gamecert-check runs")
}

/// Whether the outside checkers verify the pair: drat-trim's `lrat-check` and CakeML's
/// formally verified `cake_lpr`, each `None` when it is not installed.
fn outside_lrat_check(cnf: &Path, lrat: &Path) -> [Option<bool>; 2] {
    [("lrat-check", "c VERIFIED"), ("cake_lpr", "s VERIFIED UNSAT")].map(|(program, verified)| {
        let out = Command::new(program).arg(cnf).arg(lrat).output().ok()?;
        Some(String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == verified))
    })
}

fn pigeonhole(pigeons: usize, holes: usize) -> String {
    let var = |p: usize, h: usize| (p * holes + h + 1) as i64;
    let mut clauses: Vec<Vec<i64>> =
        (0..pigeons).map(|p| (0..holes).map(|h| var(p, h)).collect()).collect();
    for h in 0..holes {
        for a in 0..pigeons {
            for b in a + 1..pigeons {
                clauses.push(vec![-var(a, h), -var(b, h)]);
            }
        }
    }
    let mut text = format!("p cnf {} {}\n", pigeons * holes, clauses.len());
    for c in clauses {
        text += &format!("{} 0\n", c.iter().map(i64::to_string).collect::<Vec<_>>().join(" "));
    }
    text
}

#[test]
fn exported_refutations_check_here_and_outside() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    write(dir.path(), "php.cnf", &pigeonhole(4, 3));
    // The reduction method: the proof refutes the formula the certificate carries.
    assert!(gamecert(&["reduce", "sat-voronoi1", &p("php.cnf"), "-o", &p("php.json"), "-q"])
        .status
        .success());
    assert!(gamecert(&["solve", &p("php.json"), "-o", &p("php.cert"), "-q"]).status.success());
    // The direct method: the proof refutes the checker's own encoding of the instance.
    write(dir.path(), "tiny.txt", "white b\nblack 1\na b\nb c\n");
    let out =
        gamecert(&["solve", &p("tiny.txt"), "--method", "direct", "-o", &p("tiny.cert"), "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (instance, cert, stem) in
        [("php.json", "php.cert", "php"), ("tiny.txt", "tiny.cert", "tiny")]
    {
        let (cnf, lrat) = (p(&format!("{stem}.out.cnf")), p(&format!("{stem}.out.lrat")));
        let out =
            gamecert(&["export-proof", &p(instance), &p(cert), "--cnf", &cnf, "--lrat", &lrat]);
        assert!(out.status.success(), "{}", stderr(&out));
        let out = gamecert(&["lrat", &cnf, &lrat]);
        assert_eq!(out.status.code(), Some(0), "{stem}: {}", stdout(&out));
        let out = gamecert_check(&["lrat", "--json", &cnf, &lrat]);
        assert_eq!(out.status.code(), Some(0), "{stem}: {}", stdout(&out));
        assert!(stdout(&out).contains("\"verdict\": \"accepted\""));
        for (verified, program) in outside_lrat_check(Path::new(&cnf), Path::new(&lrat))
            .iter()
            .zip(["lrat-check", "cake_lpr"])
        {
            match verified {
                Some(verified) => assert!(verified, "{stem}: {program} does not verify the export"),
                None => eprintln!("{program} is not installed; outside check skipped"),
            }
        }
        // The proof without its last line (the empty clause) is rejected here and outside.
        let text = std::fs::read_to_string(&lrat).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let cut = write(
            dir.path(),
            &format!("{stem}.cut.lrat"),
            &(lines[..lines.len() - 1].join("\n") + "\n"),
        );
        let out = gamecert(&["lrat", &cnf, cut.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{stem}: {}", stdout(&out));
        assert!(stdout(&out).contains("before the empty clause"), "{}", stdout(&out));
        for verified in outside_lrat_check(Path::new(&cnf), &cut).into_iter().flatten() {
            assert!(!verified, "{stem}: an outside checker verifies a cut proof");
        }
    }
    // Only refutations carry proofs, and only of one-round instances.
    write(dir.path(), "win.txt", "white a\nblack 1\na b\nb c\nc d\n");
    assert!(gamecert(&["solve", &p("win.txt"), "-o", &p("win.cert"), "-q"]).status.success());
    bad_input(
        &[
            "export-proof",
            &p("win.txt"),
            &p("win.cert"),
            "--cnf",
            &p("x.cnf"),
            "--lrat",
            &p("x.lrat"),
        ],
        "carries no proof",
    );
}

#[test]
fn the_lrat_command_reads_outside_proofs_and_refuses_bad_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let cnf = write(dir.path(), "php.cnf", &pigeonhole(5, 4));
    let cnf = cnf.to_str().unwrap();
    // A hand-written RUP proof of (x)(-x): one addition.
    let unit = write(dir.path(), "u.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let proof = write(dir.path(), "u.lrat", "3 0 1 2 0\n");
    let out = gamecert(&["lrat", unit.to_str().unwrap(), proof.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let bad = write(dir.path(), "bad.cnf", "p cnf 1 2\n1 0\n-2 0\n");
    bad_input(
        &["lrat", bad.to_str().unwrap(), proof.to_str().unwrap()],
        "bad.cnf:3:1: literal -2 names a variable beyond",
    );
    let out = gamecert_check(&["lrat", bad.to_str().unwrap(), proof.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    // CaDiCaL's DRAT proof turned into LRAT by drat-trim: an outside proof our checker accepts.
    let drat = dir.path().join("php.drat");
    let lrat = dir.path().join("php.lrat");
    let solved =
        Command::new("cadical").args(["-q", "--no-binary", cnf, drat.to_str().unwrap()]).status();
    let Ok(status) = solved else {
        eprintln!("cadical is not installed; outside proofs skipped");
        return;
    };
    assert_eq!(status.code(), Some(20), "cadical says UNSAT");
    let Ok(out) = Command::new("drat-trim")
        .args([cnf, drat.to_str().unwrap(), "-L", lrat.to_str().unwrap()])
        .output()
    else {
        eprintln!("drat-trim is not installed; outside proofs skipped");
        return;
    };
    assert!(String::from_utf8_lossy(&out.stdout).contains("s VERIFIED"));
    let out = gamecert(&["lrat", cnf, lrat.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

/// Runs all three checkers on the pair: ours (`gamecert-check lrat`) must give `expected`, and
/// so must `lrat-check` and `cake_lpr` where they are installed.
fn all_checkers_say(cnf: &Path, lrat: &Path, expected: bool, what: &str) {
    let out = gamecert_check(&["lrat", cnf.to_str().unwrap(), lrat.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(if expected { 0 } else { 1 }), "{what}: {}", stdout(&out));
    for (verified, program) in outside_lrat_check(cnf, lrat).iter().zip(["lrat-check", "cake_lpr"])
    {
        match verified {
            Some(verified) => assert_eq!(*verified, expected, "{what}: {program}"),
            None => eprintln!("{program} is not installed; outside check skipped"),
        }
    }
}

/// The clauses of a DIMACS text, in order (comments and the header skipped).
fn clauses_of(text: &str) -> Vec<Vec<i32>> {
    let numbers: Vec<i32> = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .flat_map(|l| l.split_whitespace().map(|t| t.parse::<i32>().unwrap()))
        .collect();
    let count = numbers.iter().filter(|&&n| n == 0).count();
    numbers.split(|&n| n == 0).map(<[i32]>::to_vec).take(count).collect()
}

/// Variants of a proof of the user's formula that must be refused: cut before the empty
/// clause, a RAT step without its candidate, a derived clause with a literal dropped.
fn broken_proofs(lrat: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = lrat.lines().collect();
    let mut broken = vec![("cut".to_string(), lines[..lines.len() - 1].join("\n") + "\n")];
    let rat = lines.iter().position(|l| l.split(" 0 ").nth(1).is_some_and(|h| h.starts_with('-')));
    if let Some(k) = rat {
        let (clause, _) = lines[k].split_once(" 0 ").unwrap();
        let mut copy = lines.clone();
        let stripped = format!("{clause} 0 0");
        copy[k] = &stripped;
        broken.push(("RAT step without its candidate".to_string(), copy.join("\n") + "\n"));
    }
    // The first RUP derivation with three literals loses its last one.
    let rup = lines.iter().position(|l| {
        let (clause, hints) = l.split_once(" 0 ").unwrap_or(("", "-"));
        clause.split(' ').count() == 4 && !hints.starts_with('-') && !hints.starts_with('0')
    });
    if let Some(k) = rup {
        let (clause, hints) = lines[k].split_once(" 0 ").unwrap();
        let shorter: Vec<&str> = clause.split(' ').take(3).collect();
        let text = format!("{} 0 {hints}", shorter.join(" "));
        let mut copy = lines.clone();
        copy[k] = &text;
        broken.push(("a derived clause weakened".to_string(), copy.join("\n") + "\n"));
    }
    broken
}

/// Issue 31, item 5: `export-proof` writes a proof of the SAT user's own formula by default.
#[test]
fn the_users_own_formula_is_proved() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    // Unsatisfiable: x1..x4 all false is forced by units, the long clause needs one of them;
    // a repeated literal, a tautology, a frequent variable (x1), unused variables (x7, x8).
    let user = "c the user's comment\np cnf 8 9\n1 2 3 4 5 6 0\n-1 -1 0\n-2 0\n-3 0\n\
                -4 0\n5 -5 1 0\n-5 1 0\n-6 1 0\n-6 -1 5 0\n";
    let cases = [
        ("mixed", user.to_string()),
        ("php", pigeonhole(4, 3)),
        ("empty", "p cnf 3 3\n1 2 0\n0\n-1 3 0\n".to_string()),
    ];
    for (stem, text) in cases {
        let input = write(dir.path(), &format!("{stem}.cnf"), &text);
        let (instance, cert) = (p(&format!("{stem}.json")), p(&format!("{stem}.cert")));
        let out = gamecert(&["reduce", "sat-voronoi1", input.to_str().unwrap(), "-o", &instance]);
        assert!(out.status.success(), "{stem}: {}", stderr(&out));
        let out = gamecert(&["solve", &instance, "-o", &cert, "-q"]);
        assert!(out.status.success(), "{stem}: {}", stderr(&out));
        let (cnf, lrat) = (p(&format!("{stem}.out.cnf")), p(&format!("{stem}.out.lrat")));
        let out = gamecert(&["export-proof", &instance, &cert, "--cnf", &cnf, "--lrat", &lrat]);
        assert!(out.status.success(), "{stem}: {}", stderr(&out));
        assert!(stderr(&out).contains("(the user's formula: "), "{}", stderr(&out));
        // The formula written is the user's, clause for clause; the proof checks against the
        // user's own file too.
        let written = std::fs::read_to_string(&cnf).unwrap();
        assert_eq!(clauses_of(&written), clauses_of(&text), "{stem}");
        assert!(written.contains(text[text.find("p cnf").unwrap()..].lines().next().unwrap()));
        all_checkers_say(Path::new(&cnf), Path::new(&lrat), true, stem);
        all_checkers_say(&input, Path::new(&lrat), true, stem);
        let proof = std::fs::read_to_string(&lrat).unwrap();
        let broken = broken_proofs(&proof);
        assert_eq!(broken.len(), if stem == "empty" { 1 } else { 3 }, "{stem}: {proof}");
        for (what, text) in broken {
            let bad = write(dir.path(), &format!("{stem}.bad.lrat"), &text);
            all_checkers_say(Path::new(&cnf), &bad, false, &format!("{stem}: {what}"));
        }
        // `--formula refuted`: the normalised formula the certificate carries, and its proof.
        let out = gamecert(&[
            "export-proof",
            &instance,
            &cert,
            "--cnf",
            &cnf,
            "--lrat",
            &lrat,
            "--formula",
            "refuted",
        ]);
        assert!(out.status.success(), "{stem}: {}", stderr(&out));
        assert!(stderr(&out).contains("(the refuted formula: "), "{}", stderr(&out));
        all_checkers_say(Path::new(&cnf), Path::new(&lrat), true, stem);
    }
    // A direct refutation proves the checker's encoding: there is no user's formula.
    write(dir.path(), "tiny.txt", "white b\nblack 1\na b\nb c\n");
    let out =
        gamecert(&["solve", &p("tiny.txt"), "--method", "direct", "-o", &p("tiny.cert"), "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let (x_cnf, x_lrat) = (p("x.cnf"), p("x.lrat"));
    let (tiny_txt, tiny_cert, php_json, php_cert) =
        (p("tiny.txt"), p("tiny.cert"), p("php.json"), p("php.cert"));
    let args = ["--cnf", &x_cnf, "--lrat", &x_lrat];
    let original = ["--formula", "original"];
    let tiny = [&["export-proof", &tiny_txt, &tiny_cert][..], &args[..], &original[..]].concat();
    bad_input(&tiny, "not a formula of the user's");
    let php = [&["export-proof", &php_json, &php_cert][..], &args[..]].concat();
    // An instance that does not record the user's formula.
    let recorded = std::fs::read_to_string(p("php.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&recorded).unwrap();
    value["source"].as_object_mut().unwrap().remove("original");
    std::fs::write(p("php.json"), value.to_string()).unwrap();
    bad_input(&[&php[..], &original[..]].concat(), "does not record the user's formula");
    let default = gamecert(&php);
    assert!(stderr(&default).contains("(the refuted formula: "), "{}", stderr(&default));
}

/// Random formulas with long clauses, repeats, tautologies and frequent variables: the proof of
/// each unsatisfiable one from the SAT backend's refutation of its normalisation passes all
/// three checkers.
#[test]
fn random_formulas_proved_as_given() {
    use gamecert::base::rng::Rng;
    use gamecert::base::sat::{solve, Backend, SatOutcome};
    use gamecert_certificates::sat::cnf::Cnf;
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(31);
    let (mut proved, mut outside) = (0, 0);
    for trial in 0..200 {
        let num_vars = rng.range(3, 9) as u32;
        let mut f = Cnf::new(num_vars + 1);
        for _ in 0..rng.range(num_vars as u64 * 2, num_vars as u64 * 6) {
            let width = [1, 2, 2, 3, 3, 3, 4, 5, 7][rng.range(0, 8) as usize];
            let clause = (0..width)
                .map(|_| {
                    let var = rng.range(1, u64::from(num_vars)) as i32;
                    if rng.range(0, 1) == 0 {
                        var
                    } else {
                        -var
                    }
                })
                .collect();
            f.add_clause(clause);
        }
        let normalised = gamecert_reductions::normalise::normalise(&f).formula;
        let Ok(SatOutcome::Unsatisfiable { lrat }) = solve(&normalised, true, Backend::Cadical)
        else {
            continue;
        };
        let proof = gamecert_reductions::normalise_proof::refute_original(&f, &normalised, &lrat)
            .unwrap_or_else(|e| panic!("trial {trial}: {e}"));
        proved += 1;
        if proved % 5 == 0 {
            let cnf = write(dir.path(), "f.cnf", &f.to_dimacs());
            let lrat = write(dir.path(), "f.lrat", &proof.lrat);
            all_checkers_say(&cnf, &lrat, true, &format!("trial {trial}"));
            outside += 1;
        }
    }
    assert!(proved >= 50 && outside >= 10, "only {proved} unsatisfiable formulas");
}

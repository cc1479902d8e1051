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
    let path = Path::new(env!("CARGO_BIN_EXE_gamecert")).with_file_name("gamecert-check");
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

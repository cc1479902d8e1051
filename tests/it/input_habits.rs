//! The shell's habits (issue 17, item 4): `-` for standard input, compressed inputs, hints for a
//! file of the wrong kind, `-o -`, and a reader that goes away early.

use crate::common::{bad_input, compressed, gamecert, gamecert_with_stdin, stderr, stdout, write};
use std::io::Write;
use std::process::{Command, Stdio};

/// A solved path instance: (dir, instance path, certificate path).
fn solved() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let instance = dir.path().join("p.json").display().to_string();
    let cert = dir.path().join("c.json").display().to_string();
    let out = gamecert(&["gen", "path", "--vertices", "7", "--rounds", "1", "-o", &instance]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gamecert(&["solve", &instance, "-o", &cert, "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    (dir, instance, cert)
}

#[test]
fn standard_input_is_read_for_either_file_but_not_both() {
    let (_dir, instance, cert) = solved();
    let instance_text = std::fs::read(&instance).unwrap();
    let cert_text = std::fs::read(&cert).unwrap();
    let out = gamecert_with_stdin(&["verify", "-", &cert], instance_text.clone());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert_with_stdin(&["verify", &instance, "-"], cert_text.clone());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert_with_stdin(&["verify", "-", "-"], instance_text.clone());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("only one of the two files"), "{}", stderr(&out));
    // The stand-alone checker too.
    let out = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["solve", "-", "-q"])
        .stdin(Stdio::from(std::fs::File::open(&instance).unwrap()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("gamecert-certificate"), "solve - writes the certificate");
}

#[test]
fn compressed_files_are_read_by_their_first_bytes() {
    let (dir, instance, cert) = solved();
    let text = std::fs::read(&instance).unwrap();
    for ((_, bytes), name) in compressed(&text).into_iter().zip(["i.json.gz", "i.bz2", "i.xz"]) {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = gamecert(&["verify", path.to_str().unwrap(), &cert]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
    }
    let cnf = b"p cnf 3 2\n1 2 3 0\n-1 -2 0\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(cnf).unwrap();
    let path = dir.path().join("f.cnf.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let out = gamecert(&["reduce", "sat-voronoi1", path.to_str().unwrap(), "-q"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // A torn archive is bad input naming the file.
    let torn = dir.path().join("torn.gz");
    std::fs::write(&torn, [0x1f, 0x8b, 8, 0, 0]).unwrap();
    bad_input(&["verify", torn.to_str().unwrap(), &cert], "torn.gz: cannot decompress");
}

#[test]
fn a_file_of_the_wrong_kind_names_the_command_that_takes_it() {
    let (dir, instance, cert) = solved();
    let cnf = write(dir.path(), "f.cnf", "c a formula\np cnf 2 1\n1 2 0\n");
    bad_input(&["solve", cnf.to_str().unwrap()], "gamecert reduce sat-voronoi1");
    bad_input(
        &["verify", &cert, &instance],
        "this file is a certificate: the instance comes first",
    );
    let graph = write(dir.path(), "g.col", "p edge 2 1\ne 1 2\n");
    bad_input(&["render", graph.to_str().unwrap()], "DIMACS graph");
    let t = dir.path().join("t.json");
    let out = gamecert(&[
        "gen",
        "triangulation",
        "--kind",
        "convex",
        "--points",
        "6",
        "-q",
        "-o",
        t.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    bad_input(&["solve", t.to_str().unwrap()], "--game or --flip");
}

#[test]
fn output_dash_is_standard_output_and_a_closed_pipe_ends_quietly() {
    let out = gamecert(&["gen", "path", "--vertices", "4", "--rounds", "1", "-o", "-"]);
    assert!(out.status.success());
    assert!(stdout(&out).contains("gamecert-instance"));
    // The reader closes after one line; the writer must not panic.
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
        .args(["gen", "path", "--vertices", "300000", "--rounds", "1", "-q"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert_ne!(out.status.code(), Some(101), "a panic's exit code");
}

/// Issue 31, item 4: one DIMACS reader, the checker's. A SATLIB file (`%` end marker, a wrong
/// clause count) is read by the solver side with a warning on standard error naming each thing
/// forgiven; `gamecert-check lrat` reads exactly what the file holds and refuses it, naming line
/// and column; a non-breaking space is refused by both.
#[test]
fn satlib_files_are_forgiven_aloud_by_the_solver_and_refused_by_the_checker() {
    let dir = tempfile::tempdir().unwrap();
    let satlib = write(dir.path(), "s.cnf", "c SATLIB\np cnf 2 3\n1 -2 0\n-1 0\n%\n0\n\n");
    let s = satlib.to_str().unwrap();
    let out = gamecert(&["reduce", "sat-voronoi1", s]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("s.cnf:5: `%` ends the formula (SATLIB's end marker)"), "{err}");
    assert!(err.contains("s.cnf:2: the header declares 3 clauses, the formula has 2"), "{err}");
    let proof = write(dir.path(), "s.lrat", "4 -2 0 1 2 0\n5 0 2 4 3 0\n");
    let check = crate::common::gamecert_check_binary();
    let out = Command::new(&check).args(["lrat", s, proof.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("s.cnf:5:1: `%` is not a literal"), "{}", stderr(&out));
    // The same formula written as DIMACS says is read, and the proof checked against it (this
    // one refutes nothing: the formula is satisfiable, a rejection, not bad input).
    let honest = write(dir.path(), "h.cnf", "p cnf 2 2\n1 -2 0\n-1 0\n");
    let out = Command::new(&check)
        .args(["lrat", honest.to_str().unwrap(), proof.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    // A non-breaking space is no separator, for the solver and the checker alike.
    let nbsp = write(dir.path(), "n.cnf", "p cnf 2 1\n1\u{a0}-2 0\n");
    bad_input(&["reduce", "sat-voronoi1", nbsp.to_str().unwrap()], "n.cnf:2:2: '\\u{a0}' (U+00A0)");
    let out = Command::new(&check)
        .args(["lrat", nbsp.to_str().unwrap(), proof.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("n.cnf:2:2: '\\u{a0}' (U+00A0) is not a separator"));
}

/// The same rule for a positive DNF text: `reduce` forgives a term count other than the
/// header's aloud and writes the terms it read; where the text is itself the instance (`solve`,
/// `verify`, `gamecert-check`) the count is refused at the header's `T`.
#[test]
fn a_dnf_term_count_is_forgiven_by_reduce_and_refused_where_the_text_is_the_instance() {
    let dir = tempfile::tempdir().unwrap();
    let dnf = write(dir.path(), "a.dnf", "p dnf 3 3\n1 2\n2 3\n");
    let d = dnf.to_str().unwrap();
    let out = gamecert(&["reduce", "posdnf-game", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("a.dnf:1: header declares 3 terms but the formula has 2"));
    bad_input(&["solve", d], "a.dnf:1:9: header declares 3 terms but the formula has 2");
    let honest = write(dir.path(), "h.dnf", "p dnf 3 2\n1 2\n2 3\n");
    let cert = dir.path().join("h.cert.json");
    let out = gamecert(&["-q", "solve", honest.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let check = crate::common::gamecert_check_binary();
    let out = Command::new(&check).args([d, cert.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(stderr(&out).contains("a.dnf:1:9: header declares 3 terms"), "{}", stderr(&out));
}

/// Issue 31, item 1, on the solver side: `gamecert lrat F -` streams a plain proof from standard
/// input line by line (a proof past the cap of a whole stream still checks), while a whole
/// file from standard input (`gamecert verify`) and a device are capped as they are read.
#[test]
fn standard_input_is_streamed_or_capped_as_it_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let formula = write(dir.path(), "u.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let f = formula.to_str().unwrap();
    // --max-work 6400000: a whole stream may hold 100,000 bytes; this proof holds 200,000.
    let proof = format!("{}3 0 1 2 0\n", "c padding, a comment line of the proof\n".repeat(6000));
    assert!(proof.len() > 200_000);
    let out = gamecert_with_stdin(&["lrat", "--max-work", "6400000", f, "-"], proof.into_bytes());
    assert_eq!(out.status.code(), Some(0), "{}{}", stdout(&out), stderr(&out));
    let (_dir, instance, _cert) = solved();
    let out = gamecert_with_stdin(&["verify", "--max-work", "6400000", &instance, "-"], {
        vec![b' '; 200_000]
    });
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("holds more than 100000 bytes"), "{}", stderr(&out));
    let out = gamecert(&["verify", "--max-work", "6400000", &instance, "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("/dev/zero: holds more than 100000 bytes"), "{}", stderr(&out));
    let out = gamecert(&["lrat", f, "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stdout(&out).contains("a token longer than 24 bytes"), "{}", stdout(&out));
}

/// A named pipe (`<(cat proof)`) is a stream: read once from its start, plain or compressed,
/// never rewound ("Illegal seek"); a folder is bad input for both programs.
#[test]
fn named_pipes_are_streams_and_folders_are_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let formula = write(dir.path(), "u.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    let proof = write(dir.path(), "u.lrat", "3 0 1 2 0\n");
    let gamecert_bin = env!("CARGO_BIN_EXE_gamecert");
    let check = crate::common::gamecert_check_binary();
    for program in [std::path::Path::new(gamecert_bin), check.as_path()] {
        for feed in ["cat", "gzip -c"] {
            if feed != "cat" && program == check.as_path() {
                continue; // gamecert-check reads no compressed files
            }
            let script = format!(
                "'{}' lrat '{}' <({feed} '{}')",
                program.display(),
                formula.display(),
                proof.display()
            );
            let out = Command::new("bash").args(["-c", &script]).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{script}: {}", stderr(&out));
            assert!(stdout(&out).ends_with("s VERIFIED\n"), "{script}: {}", stdout(&out));
        }
        let out = Command::new(program)
            .args(["lrat", formula.to_str().unwrap(), dir.path().to_str().unwrap()])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}: {}", program.display(), stdout(&out));
    }
}

//! Issue 31, item 7: small things the command line says that must be true — help texts without
//! rustdoc markup and with the ranges the commands enforce, listings a person can read.

use crate::common::{gamecert, stderr, stdout};

/// The subcommands a help text lists under `Commands:` (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| line.trim() != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every command's and subcommand's `--help`, depth first, with the words that reach it.
fn every_help() -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack: Vec<Vec<String>> = vec![Vec::new()];
    while let Some(path) = stack.pop() {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = gamecert(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let help = stdout(&out);
        for sub in subcommands(&help) {
            let mut deeper = path.clone();
            deeper.push(sub);
            stack.push(deeper);
        }
        found.push((path.join(" "), help));
    }
    found
}

#[test]
fn help_texts_have_no_rustdoc_markup_and_say_what_is_enforced() {
    let helps = every_help();
    assert!(helps.len() > 30, "only {} help texts found", helps.len());
    for (command, help) in &helps {
        // Intra-doc links (`[`name`]`) and Markdown links mean nothing on a terminal.
        assert!(!help.contains("[`"), "gamecert {command} --help: {help}");
        assert!(!help.contains("]("), "gamecert {command} --help: {help}");
    }
    let kary = &helps.iter().find(|(c, _)| c == "gen kary-tree").unwrap().1;
    assert!(kary.contains("k >= 2"), "{kary}");
    let out = gamecert(&["gen", "kary-tree", "--k", "1", "--height", "2", "--rounds", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'--k <K>': expected a whole number from 2"), "{}", stderr(&out));
}

/// `hint` reads a position by the game's rules: an unknown vertex is named as such, a side
/// holding nothing may be left out, and the side a certificate proves cannot win is told so in
/// one sentence.
#[test]
fn hint_names_what_is_wrong_with_a_position() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::common::write(dir.path(), "p.json", &voronoi_path(5, 2));
    let cert = dir.path().join("p.cert.json");
    let (p, c) = (path.to_str().unwrap(), cert.to_str().unwrap());
    assert_eq!(gamecert(&["-q", "solve", p, "-o", c]).status.code(), Some(0));
    let out = gamecert(&["hint", p, c, "--position", "W: zz"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--position 'W: zz': there is no vertex 'zz'"),
        "{}",
        stderr(&out)
    );
    let out = gamecert(&["hint", p, c, "--position", "W: p0"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("B to move"), "{}", stdout(&out));
    let out = gamecert(&["hint", p, c, "--position", "B: p0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("W holds 0 vertices and B holds 1 vertex, which no play of 2 rounds"),
        "{}",
        stderr(&out)
    );

    // A vertex nim game the second player wins: the first player, to move, has no moves in it.
    let nim = crate::common::write(
        dir.path(),
        "nim.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "vertexnim", "directed": false,
 "variant": "vertexnim", "play": "normal",
 "vertices": [{"name": "v0", "weight": 1}, {"name": "v1", "weight": 2},
              {"name": "v2", "weight": 3}, {"name": "v3", "weight": 3}],
 "edges": [["v0", "v0"], ["v0", "v3"], ["v1", "v1"], ["v1", "v3"], ["v2", "v2"], ["v2", "v3"]],
 "token": "v0"}"#,
    );
    let nim_cert = dir.path().join("nim.cert.json");
    let (n, nc) = (nim.to_str().unwrap(), nim_cert.to_str().unwrap());
    assert_eq!(gamecert(&["-q", "solve", n, "-o", nc]).status.code(), Some(0));
    let out = gamecert(&["hint", n, nc]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim_end(),
        "error: this certificate holds a strategy for the second player only (it proves that \
         the second player wins); it cannot advise the first player, who is to move here. Hints \
         come at positions where the second player is to move (--position); `gamecert play` \
         with `--as first` plays the first player against the strategy"
    );
}

/// A path of `n` vertices p0 - p1 - ... played for `rounds` rounds.
fn voronoi_path(n: usize, rounds: usize) -> String {
    let names: Vec<String> = (0..n).map(|i| format!("\"p{i}\"")).collect();
    let edges: Vec<String> = (1..n).map(|i| format!("[\"p{}\", \"p{i}\"]", i - 1)).collect();
    format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
 "graph": {{"vertices": [{}], "edges": [{}]}}, "rounds": {rounds}}}"#,
        names.join(", "),
        edges.join(", ")
    )
}

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
    assert!(stderr(&out).contains("--k must be at least 2"), "{}", stderr(&out));
}

//! The solver registry (`gamecert::registry`, issue 26) against what it claims to cover: every
//! instance kind of the checker, every `gen` family and `table` of the command line, every
//! certificate kind `hint` and `play` follow, and the refusal of a method a kind does not have.

use crate::common::{bad_input, gamecert, stdout, write};
use gamecert::registry::{kind, KINDS};
use gamecert_certificates::format::{CERTIFICATE_KINDS, INSTANCE_KINDS};

/// The subcommands `gamecert SUB --help` lists under "Commands:" (clap's layout).
fn subcommands(command: &str) -> Vec<String> {
    let help = stdout(&gamecert(&[command, "--help"]));
    let section = help.split("Commands:").nth(1).expect("a Commands: section");
    section
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect()
}

#[test]
fn every_checker_kind_is_registered_once_in_the_checkers_order() {
    let registered: Vec<&str> = KINDS.iter().map(|k| k.instance).collect();
    assert_eq!(registered, INSTANCE_KINDS, "the registry follows the checker's registry");
    for k in KINDS {
        assert!(!k.methods.is_empty(), "{} has no solve method", k.instance);
        assert!(k.methods.iter().any(|m| m.auto), "{}: auto tries nothing", k.instance);
        for m in k.methods {
            assert!(m.applies.len() > 20, "{}: say when {:?} applies", k.instance, m.method);
        }
        for certificate in k.strategies {
            assert!(CERTIFICATE_KINDS.contains(certificate), "{}: {certificate}", k.instance);
        }
    }
}

#[test]
fn every_generator_and_table_of_the_command_line_belongs_to_a_kind() {
    for (command, listed) in [
        ("gen", KINDS.iter().flat_map(|k| k.generators.iter()).collect::<Vec<_>>()),
        ("table", KINDS.iter().flat_map(|k| k.tables.iter()).collect::<Vec<_>>()),
    ] {
        let offered = subcommands(command);
        assert!(offered.len() >= 5, "{command}: {offered:?}");
        for name in &offered {
            assert!(listed.iter().any(|l| *l == name), "{command} {name} is in no kind");
        }
        for name in &listed {
            assert!(offered.iter().any(|o| o == *name), "{command} {name} does not exist");
        }
    }
    // A table is computed over one kind.
    let tables: Vec<&&str> = KINDS.iter().flat_map(|k| k.tables.iter()).collect();
    for t in &tables {
        assert_eq!(tables.iter().filter(|u| u == &t).count(), 1, "table {t} twice");
    }
}

#[test]
fn a_method_the_kind_does_not_have_is_refused_with_the_ones_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let heaps = write(
        dir.path(),
        "heaps.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "0.77", "heaps": [3, 5]}"#,
    );
    let path = heaps.to_str().unwrap();
    bad_input(
        &["solve", path, "--method", "median"],
        "--method median does not apply to a heap-game instance; it takes auto",
    );
    let methods = kind("voronoi").unwrap().method_names();
    assert_eq!(
        methods,
        ["auto", "kary", "median", "exact", "prove", "dfpn", "mirror", "rule", "rule-black"]
    );
    // The registry's listing names the methods in the order auto tries them.
    let listed = stdout(&gamecert(&["kinds"]));
    let voronoi = listed.split("\nposdnf-game").next().unwrap();
    let kary = voronoi.find("solve kary").unwrap();
    assert!(kary < voronoi.find("solve median").unwrap());
    assert!(voronoi.find("solve median").unwrap() < voronoi.find("solve exact").unwrap());
    let json: serde_json::Value = serde_json::from_str(&stdout(&gamecert(&["kinds", "--json"])))
        .expect("kinds --json is JSON");
    assert_eq!(json["kinds"].as_array().map(Vec::len), Some(KINDS.len()));
}

//! One JSON shape for every `--json` output (issue 17, item 5; docs/formats.md, "Command
//! output"): each command's output is snapshot-tested, with wall times set to 0 and temporary
//! paths shortened to their file names.

use crate::common::{gamecert, stderr, write};
use serde_json::Value;

/// The output with times zeroed and temporary paths cut to file names.
fn stable(mut value: Value) -> Value {
    fn walk(key: &str, value: &mut Value) {
        match value {
            Value::Object(map) => map.iter_mut().for_each(|(k, v)| walk(k, v)),
            Value::Array(items) => items.iter_mut().for_each(|v| walk(key, v)),
            Value::Number(_) if key.ends_with("seconds") || key == "graphs_per_second" => {
                *value = 0.into()
            }
            Value::String(s) if s.contains("/tmp") || s.contains(".tmp") => {
                let temporary = |w: &str| w.contains("/tmp") || w.contains(".tmp");
                let words: Vec<&str> = s
                    .split(' ')
                    .map(
                        |w| if temporary(w) { w.rsplit('/').next().unwrap_or_default() } else { w },
                    )
                    .collect();
                *s = without_decimals(&words.join(" "));
            }
            Value::String(s) => *s = without_decimals(s),
            _ => {}
        }
    }
    walk("", &mut value);
    value
}

/// Decimal numbers (the wall times inside human summaries) replaced by `#.#`.
fn without_decimals(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let whole = start + digits(&rest[start..]);
        out.push_str(&rest[..start]);
        match rest[whole..]
            .strip_prefix('.')
            .filter(|s| s.starts_with(|c: char| c.is_ascii_digit()))
        {
            Some(fraction) => {
                out.push_str("#.#");
                rest = &fraction[digits(fraction)..];
            }
            None => {
                out.push_str(&rest[start..whole]);
                rest = &rest[whole..];
            }
        }
    }
    out + rest
}

fn json_of(args: &[&str]) -> Value {
    let out = gamecert(args);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", stderr(&out));
    let value: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    for key in ["format", "version", "command", "verdict", "summary", "seconds"] {
        assert!(value.get(key).is_some(), "{args:?}: no `{key}` in {value}");
    }
    assert_eq!(value["format"], "gamecert-output");
    let token = value["verdict"].as_str().unwrap();
    assert!(
        ["accepted", "rejected", "not-checked", "unchecked", "measured"].contains(&token),
        "{token}"
    );
    stable(value)
}

#[test]
fn every_command_prints_the_one_shape() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    write(dir.path(), "tiny.txt", "white b\nblack 1\na b\nb c\n");
    write(dir.path(), "u.cnf", "p cnf 1 2\n1 0\n-1 0\n");
    write(dir.path(), "u.lrat", "3 0 1 2 0\n");
    let solve = json_of(&["solve", &p("tiny.txt"), "--method", "direct", "--json"]);
    assert_eq!(
        solve["certificate"]["kind"], "refutation",
        "without -o the certificate is included"
    );
    insta::assert_json_snapshot!("solve", solve);
    let out =
        gamecert(&["solve", &p("tiny.txt"), "--method", "direct", "-o", &p("tiny.cert"), "-q"]);
    assert!(out.status.success());
    insta::assert_json_snapshot!(
        "verify",
        json_of(&["verify", &p("tiny.txt"), &p("tiny.cert"), "--json"])
    );
    insta::assert_json_snapshot!("lrat", json_of(&["lrat", &p("u.cnf"), &p("u.lrat"), "--json"]));
    // A triangle-stream certificate: solve writes it to -o, verify reads it as a stream.
    let t6 = r#"{"format":"gamecert-instance","version":1,"kind":"triangle-avoidance","n":6}"#;
    write(dir.path(), "t6.json", t6);
    insta::assert_json_snapshot!(
        "solve_stream",
        json_of(&["solve", &p("t6.json"), "--stream", "-o", &p("t6.tastream"), "--json", "-q"])
    );
    insta::assert_json_snapshot!(
        "verify_stream",
        json_of(&["verify", &p("t6.json"), &p("t6.tastream"), "--json"])
    );
    insta::assert_json_snapshot!(
        "table_kayles",
        json_of(&["table", "kayles", "--n", "12", "--json"])
    );
    insta::assert_json_snapshot!(
        "table_voronoi_graphs",
        json_of(&["table", "voronoi-graphs", "--max-n", "4", "--json"])
    );
    insta::assert_json_snapshot!(
        "table_nimstring_fans",
        json_of(&["table", "nimstring-fans", "--json"])
    );
    let reduction = json_of(&["check-reduction", "sat-voronoi1", "--trials", "3", "--json"]);
    assert_eq!(reduction["verdict"], "accepted");
    let bench = json_of(&["bench", "census", "--quick", "--json", "-q"]);
    assert_eq!(bench["verdict"], "measured");
    assert_eq!(bench["rows"].as_array().unwrap().len(), 3);
    // Issue 49: five single replays of rule U and the rule table N = 2..30, n <= 3 (81 entries).
    let rule = json_of(&["bench", "path-rule", "--quick", "--json", "-q"]);
    assert_eq!(rule["verdict"], "measured");
    let rows = rule["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert_eq!((rows[5]["what"].as_str(), rows[5]["entries"].as_u64()), (Some("table"), Some(81)));
    assert!(rows.iter().all(|r| r["positions"].as_u64().unwrap() > 0));
}

/// Issue 25: the commands whose main output is a file report in the same shape with `--json`
/// (what was written where, its size and counts; without `-o` the file itself as a field), and
/// `nim` gives its result as a field.
#[test]
fn file_commands_report_in_the_one_shape() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    write(dir.path(), "fig3.cnf", "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n");
    write(dir.path(), "fig4.dnf", "1 2 4 5\n3 5 7 8\n6 8\n");
    write(dir.path(), "php.cnf", "p cnf 2 3\n1 0\n-1 2 0\n-2 0\n");
    insta::assert_json_snapshot!("nim", json_of(&["nim", "mul", "4", "4", "--json"]));
    insta::assert_json_snapshot!(
        "reduce",
        json_of(&["reduce", "sat-voronoi1", &p("fig3.cnf"), "-o", &p("fig3.json"), "--json", "-q"])
    );
    let dnf = json_of(&["reduce", "posdnf-game", &p("fig4.dnf"), "--json"]);
    assert_eq!(dnf["instance"]["kind"], "posdnf-game", "without -o the instance is included");
    assert_eq!(dnf["terms"], 3);
    insta::assert_json_snapshot!(
        "gen",
        json_of(&[
            "gen",
            "path",
            "--vertices",
            "6",
            "--rounds",
            "2",
            "-o",
            &p("p6.json"),
            "--json"
        ])
    );
    let triangulation =
        json_of(&["gen", "triangulation", "--kind", "fan", "--points", "5", "--json", "-q"]);
    assert_eq!(triangulation["command"], "gen triangulation");
    assert_eq!(triangulation["triangulation"]["format"], "gamecert-triangulation");
    assert_eq!(triangulation["triangles"], 3);
    let solved = gamecert(&["solve", &p("p6.json"), "-o", &p("p6.cert.json"), "-q"]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    insta::assert_json_snapshot!(
        "render",
        json_of(&[
            "render",
            &p("p6.json"),
            "--certificate",
            &p("p6.cert.json"),
            "-o",
            &p("p6.svg"),
            "--json",
            "-q"
        ])
    );
    // A refutation of a reduced contradiction, exported.
    json_of(&["reduce", "sat-voronoi1", &p("php.cnf"), "-o", &p("php.json"), "--json", "-q"]);
    let solved = gamecert(&["solve", &p("php.json"), "-o", &p("php.cert.json"), "-q"]);
    assert!(solved.status.success(), "{}", stderr(&solved));
    insta::assert_json_snapshot!(
        "export_proof",
        json_of(&[
            "export-proof",
            &p("php.json"),
            &p("php.cert.json"),
            "--cnf",
            &p("out.cnf"),
            "--lrat",
            &p("out.lrat"),
            "--json"
        ])
    );
}

/// Issue 25: bad input under `--json` (exit 2) is the same shape on standard output, verdict
/// `bad-input`, as well as the message on standard error (`gamecert-check`: verify_parity.rs).
#[test]
fn bad_input_under_json_is_json_too() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", r#"{"format": "gamecert-certificate", "version": 1"#);
    let bad = bad.to_str().unwrap();
    let tiny = write(dir.path(), "tiny.txt", "white b\nblack 1\na b\nb c\n");
    let tiny = tiny.to_str().unwrap();
    for args in [
        vec!["nim", "inv", "0", "--json"],
        vec!["verify", tiny, bad, "--json"],
        vec!["solve", bad, "--json"],
        vec!["reduce", "sat-voronoi1", bad, "--json"],
    ] {
        let out = gamecert(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let value: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stdout)));
        assert_eq!(value["verdict"], "bad-input", "{args:?}");
        let message = stderr(&out);
        let message = message.trim_end().trim_start_matches("error: ");
        assert_eq!(value["error"], message, "{args:?}");
        assert_eq!(value["summary"], message, "{args:?}");
    }
    let out = gamecert(&["verify", tiny, bad, "--json"]);
    insta::assert_json_snapshot!("bad_input", stable(serde_json::from_slice(&out.stdout).unwrap()));
}

//! `table voronoi-graphs --each` (issue 25, item 4): one certified value per graph and number of
//! rounds, in input order, as text for nauty pipelines or as JSON Lines; it tallies to the
//! aggregate table, and keeps a shuffled (and gzipped) stream's order.

use crate::common::{gamecert, gamecert_with_stdin, stderr, stdout};
use serde_json::Value;
use std::collections::BTreeMap;
use std::process::Command;

/// The JSON Lines of a `--each --json` run, each parsed (every line must be one object).
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(value.is_object(), "{line}");
            value
        })
        .collect()
}

/// The per-graph values of every connected graph on n <= 6, rounds 1, 2 and 3, tally to the
/// aggregate table's rows, field for field (the examples too: both take the first graph met).
#[test]
fn each_line_tallies_to_the_aggregate_table() {
    let args = ["table", "voronoi-graphs", "--max-n", "6", "--rounds", "1,2,3", "--json", "-q"];
    let out = gamecert(&[&args[..], &["--each"]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "-q: nothing on standard error");
    let values = json_lines(&stdout(&out));
    let out = gamecert(&args);
    let table: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(table["oeis"], serde_json::json!({"graphs": "A001349"}));
    let mut rows: BTreeMap<(u64, u64), Value> = BTreeMap::new();
    for v in &values {
        let margin = v["margin"].as_i64().unwrap();
        let winner = match margin.signum() {
            1 => "W",
            0 => "T",
            _ => "B",
        };
        assert_eq!(v["winner"], winner, "{v}");
        let key = (v["rounds"].as_u64().unwrap(), v["vertices"].as_u64().unwrap());
        let graph6 = v["graph6"].clone();
        let row = rows.entry(key).or_insert_with(|| {
            serde_json::json!({
                "rounds": key.0, "vertices": key.1, "graphs": 0, "white_wins": 0, "ties": 0,
                "black_wins": 0, "positions_checked": 0, "max_margin": margin,
                "max_example": graph6, "min_margin": margin, "min_example": graph6,
            })
        });
        let add = |row: &mut Value, key: &str, by: u64| {
            row[key] = (row[key].as_u64().unwrap() + by).into();
        };
        add(row, "graphs", 1);
        add(row, ["white_wins", "ties", "black_wins"][(1 - margin.signum()) as usize], 1);
        add(row, "positions_checked", v["positions_checked"].as_u64().unwrap());
        if margin > row["max_margin"].as_i64().unwrap() {
            (row["max_margin"], row["max_example"]) = (margin.into(), v["graph6"].clone());
        }
        if margin < row["min_margin"].as_i64().unwrap() {
            (row["min_margin"], row["min_example"]) = (margin.into(), v["graph6"].clone());
        }
    }
    let tallied: Vec<Value> = rows.into_values().collect();
    assert_eq!(Value::Array(tallied), table["rows"]);
    // Graphs by line number: 143 connected graphs on 1..=6 vertices, the first (one vertex)
    // with no game at all.
    let lines: std::collections::BTreeSet<u64> =
        values.iter().map(|v| v["line"].as_u64().unwrap()).collect();
    assert_eq!((lines.len(), lines.first(), lines.last()), (142, Some(&2), Some(&143)));
}

/// A shuffled graph6 stream, gzipped in a file or plain on standard input, comes back in its
/// own order (graph by graph, rounds as asked), with the same value for every graph as in
/// generator order; the text columns are `graph6 rounds margin winner positions`.
#[test]
fn each_keeps_a_shuffled_streams_order() {
    let out = gamecert(&["table", "voronoi-graphs", "--max-n", "6", "--rounds", "2,1", "--each"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("143 graphs, every value certified"), "{}", stderr(&out));
    let text = stdout(&out);
    let mut by_graph: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut graphs: Vec<String> = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 5, "{line}");
        assert!(["W", "T", "B"].contains(&fields[3]), "{line}");
        by_graph.insert((fields[0].into(), fields[1].into()), fields[2..].join(" "));
        if graphs.last().map(String::as_str) != Some(fields[0]) {
            graphs.push(fields[0].into());
        }
    }
    // A fixed shuffle: multiply the index by a unit modulo the count.
    let count = graphs.len();
    assert_eq!(count, 142);
    let shuffled: Vec<&String> = (0..count).map(|i| &graphs[i * 37 % count]).collect();
    let stream = shuffled.iter().map(|g| format!("{g}\n")).collect::<String>();
    let mut gzipped = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gzipped, stream.as_bytes()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shuffled.g6.gz");
    std::fs::write(&file, gzipped.finish().unwrap()).unwrap();
    let each = ["table", "voronoi-graphs", "--rounds", "2,1", "--each", "-q", "--graph6"];
    let from_file = gamecert(&[&each[..], &[file.to_str().unwrap()]].concat());
    let from_stdin = gamecert_with_stdin(&[&each[..], &["-"]].concat(), stream.into_bytes());
    for out in [from_file, from_stdin] {
        assert!(out.status.success(), "{}", stderr(&out));
        let mut expected = Vec::new();
        for g in &shuffled {
            for r in ["2", "1"] {
                if let Some(rest) = by_graph.get(&(g.to_string(), r.to_string())) {
                    expected.push(format!("{g} {r} {rest}"));
                }
            }
        }
        assert_eq!(stdout(&out).lines().collect::<Vec<_>>(), expected);
    }
}

/// The nauty pipeline of docs/census.md: `geng | gamecert --each | grep ' B ' | cut | shortg`.
/// On n = 8 with two rounds (11,117 graphs, three batches) the output keeps geng's order, and
/// the one graph B wins is the aggregate table's smallest-margin example. Skipped without nauty.
#[test]
fn each_feeds_a_nauty_pipeline() {
    let Ok(geng) = Command::new("nauty-geng").args(["-cq", "8"]).output() else {
        eprintln!("nauty-geng is not installed; skipped");
        return;
    };
    let args = ["table", "voronoi-graphs", "--graph6", "-", "--rounds", "2", "-q"];
    let each = gamecert_with_stdin(&[&args[..], &["--each"]].concat(), geng.stdout.clone());
    assert!(each.status.success(), "{}", stderr(&each));
    let text = stdout(&each);
    let firsts: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(firsts, String::from_utf8(geng.stdout.clone()).unwrap().lines().collect::<Vec<_>>());
    let table = gamecert_with_stdin(&[&args[..], &["--json"]].concat(), geng.stdout);
    let table: Value = serde_json::from_slice(&table.stdout).unwrap();
    assert!(table.get("oeis").is_none(), "a stream may hold any graphs: no sequence claimed");
    let row = &table["rows"][0];
    assert_eq!(row["black_wins"], 1);

    let pipeline = format!(
        "nauty-geng -cq 8 | '{}' {} --each | grep ' B ' | cut -d' ' -f1 | nauty-shortg -q",
        env!("CARGO_BIN_EXE_gamecert"),
        args.join(" ")
    );
    let out = Command::new("sh").args(["-c", &pipeline]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let mut shortg = Command::new("nauty-shortg")
        .arg("-q")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let example = format!("{}\n", row["min_example"].as_str().unwrap());
    std::io::Write::write_all(&mut shortg.stdin.take().unwrap(), example.as_bytes()).unwrap();
    let canonical = shortg.wait_with_output().unwrap();
    assert_eq!(stdout(&out), stdout(&canonical));
    assert_eq!(stdout(&out).lines().count(), 1);
}

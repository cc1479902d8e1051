//! Octal games and Grundy's game: seed 000's Tables 2 and 3 and Theorem 2 from the computed
//! nim-sequences, a brute-force check of Theorem 2's reduction on small point sets, and the
//! command line (tables, solve and verify of heap games, malformed codes).

use gamecert::impartial::octal::{
    nim_sequence, periodicity, powers_of_two_first, sequence_table, Rules,
};
use std::collections::HashMap;

use crate::common;
use common::{gamecert, write};

fn table(code: &str) -> gamecert::impartial::octal::SequenceTable {
    let allowance = gamecert::base::limits::TimeAllowance::default();
    sequence_table(code, &Rules::parse(code).unwrap(), 200, allowance, code).unwrap()
}

#[test]
fn table_2_kayles() {
    let t = table("0.77");
    let p = t.periodicity.as_ref().unwrap();
    assert_eq!((p.period, p.saltus), (12, 0));
    assert!(p.proven, "the Guy-Smith theorem applies");
    assert_eq!(t.periodic_part.as_deref().unwrap(), [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]);
    assert_eq!(
        t.exceptions,
        [
            (0, 0),
            (3, 3),
            (6, 3),
            (9, 4),
            (11, 6),
            (15, 7),
            (18, 3),
            (21, 4),
            (22, 6),
            (28, 5),
            (34, 6),
            (39, 3),
            (57, 4),
            (70, 6)
        ]
    );
    assert_eq!(p.preperiod, 71, "the last exception is at 70");
    // The paper's "magic" heap sizes 1, 2, 5 and 27.
    assert_eq!(t.powers_of_two, [(1, 1), (2, 2), (4, 5), (8, 27)]);
    // Its example: a heap of 42 is worth 7 = 1 ^ 2 ^ 4, the heaps 1, 2 and 5.
    assert_eq!(t.values[42], 7);
    assert_eq!(t.values[1] ^ t.values[2] ^ t.values[5], 7);
    // No zero after heap 0: a single heap is always a first-player win.
    assert!(t.values[1..].iter().all(|&v| v != 0));
}

#[test]
fn table_3_dawsons_kayles() {
    let t = table("0.07");
    let p = t.periodicity.as_ref().unwrap();
    assert_eq!((p.period, p.saltus), (34, 0));
    assert!(p.proven);
    assert_eq!(
        t.periodic_part.as_deref().unwrap(),
        [
            4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
            0, 4, 5, 3, 7
        ]
    );
    assert_eq!(
        t.exceptions,
        [(0, 0), (1, 0), (15, 0), (17, 2), (18, 2), (32, 2), (35, 0), (52, 2)]
    );
    assert_eq!(p.preperiod, 53, "the last exception is at 52");
    // The paper's heap sizes 2, 4, 14 and 69.
    assert_eq!(t.powers_of_two, [(1, 2), (2, 4), (4, 14), (8, 69)]);
}

#[test]
fn dawsons_chess_is_dawsons_kayles_shifted() {
    let (chess, _) = nim_sequence(&Rules::parse("0.137").unwrap(), 3000);
    let (kayles, _) = nim_sequence(&Rules::parse("0.07").unwrap(), 3001);
    assert_eq!(chess[..], kayles[1..]);
}

/// Theorem 2: the second player wins the Monochromatic Triangle game on n points in convex
/// position iff n = 5, 9, 21, 25, 29 (mod 34) or n is 15 or 35. By the paper's reduction (an
/// edge takes its two endpoints and splits the other n - 2 points into two independent
/// groups) the game is Dawson's Kayles on a heap of n, so the second player wins iff G(n) = 0.
#[test]
fn theorem_2_from_the_sequence() {
    let (g, _) = nim_sequence(&Rules::parse("0.07").unwrap(), 5000);
    for (n, &value) in g.iter().enumerate().skip(2) {
        let statement = [5, 9, 21, 25, 29].contains(&(n % 34)) || n == 15 || n == 35;
        assert_eq!(value == 0, statement, "n = {n}");
    }
    // Below 2 points there is no move at all (G = 0), and no triangle: the theorem is silent.
    assert_eq!((g[0], g[1]), (0, 0));
}

/// Whether the player to move wins the Monochromatic Triangle game on `n` points in convex
/// position, by brute force over the drawn edges (non-crossing; the first to complete a
/// triangle wins). Independent of the reduction.
fn triangle_game_first_wins(n: usize) -> bool {
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            edges.push((i, j));
        }
    }
    let index = |i: usize, j: usize| edges.iter().position(|&e| e == (i.min(j), i.max(j)));
    let crosses = |(a, b): (usize, usize), (c, d): (usize, usize)| {
        (a < c && c < b && b < d) || (c < a && a < d && d < b)
    };
    fn wins(
        drawn: u64,
        edges: &[(usize, usize)],
        n: usize,
        index: &dyn Fn(usize, usize) -> Option<usize>,
        crosses: &dyn Fn((usize, usize), (usize, usize)) -> bool,
        memo: &mut HashMap<u64, bool>,
    ) -> bool {
        if let Some(&w) = memo.get(&drawn) {
            return w;
        }
        let has = |i: usize, j: usize| drawn >> index(i, j).unwrap() & 1 == 1;
        let legal: Vec<usize> = (0..edges.len())
            .filter(|&e| drawn >> e & 1 == 0)
            .filter(|&e| {
                (0..edges.len()).all(|f| drawn >> f & 1 == 0 || !crosses(edges[e], edges[f]))
            })
            .collect();
        let completes = |e: usize| {
            let (i, j) = edges[e];
            (0..n).any(|k| k != i && k != j && has(i, k) && has(j, k))
        };
        let w = legal.iter().any(|&e| completes(e))
            || legal.iter().any(|&e| !wins(drawn | 1 << e, edges, n, index, crosses, memo));
        memo.insert(drawn, w);
        w
    }
    wins(0, &edges, n, &index, &crosses, &mut HashMap::new())
}

#[test]
fn theorem_2_reduction_by_brute_force() {
    let (g, _) = nim_sequence(&Rules::parse("0.07").unwrap(), 20);
    for (n, &value) in g.iter().enumerate().take(12).skip(3) {
        assert_eq!(triangle_game_first_wins(n), value != 0, "n = {n}");
    }
}

#[test]
fn guy_smith_shortcut_and_grundy() {
    let kayles = Rules::parse("kayles").unwrap();
    let (g, report) = nim_sequence(&kayles, 1 << 15);
    assert!(report.extended.is_some() && report.computed < 1 << 15);
    assert_eq!(periodicity(&kayles, &g).unwrap().period, 12);
    let (g, report) = nim_sequence(&Rules::Grundy, 5000);
    assert!(report.extended.is_none());
    assert!(periodicity(&Rules::Grundy, &g).is_none());
    assert_eq!(powers_of_two_first(&g)[..3], [(1, 3), (2, 5), (4, 18)]);
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn heap_instance(game: &str, heaps: &str) -> String {
    format!(
        r#"{{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "{game}", "heaps": {heaps}}}"#
    )
}

#[test]
fn cli_tables() {
    for (name, expected) in [
        ("kayles", "period 12, preperiod 71, saltus 0"),
        ("dawson-kayles", "period 34, preperiod 53, saltus 0"),
        ("grundy", "not known to be ultimately periodic"),
    ] {
        let out = gamecert(&["table", name, "--n", "100"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains(expected), "{}", text(&out.stdout));
    }
    let out = gamecert(&["table", "octal", "--code", "0.137", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["periodicity"]["period"], 34);
}

#[test]
fn cli_malformed_codes_are_bad_input() {
    for code in ["0.8", "0.", "abc", "1.07", "0.7-"] {
        let out = gamecert(&["table", "octal", "--code", code]);
        assert_eq!(out.status.code(), Some(2), "{code}");
        let err = text(&out.stderr);
        assert!(err.contains(&format!("malformed octal code '{code}'")), "{code}: {err}");
        assert!(!err.contains("panicked"));
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = write(dir.path(), "bad.json", &heap_instance("0.9", "[3]"));
    let out = gamecert(&["solve", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("malformed octal code '0.9'"));
    let huge = write(dir.path(), "huge.json", &heap_instance("0.77", "[3, 100000000]"));
    let out = gamecert(&["verify", huge.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("over the limit"), "{}", text(&out.stderr));
}

#[test]
fn cli_solve_and_verify_heap_games() {
    let dir = tempfile::tempdir().unwrap();
    for (game, heaps, claim) in [
        ("0.77", "[3, 5, 8]", "first player wins"),
        ("dawson-kayles", "[5, 9]", "second player wins"),
        ("grundy", "[10, 20, 30, 1000]", "player wins"),
    ] {
        let inst = write(dir.path(), "i.json", &heap_instance(game, heaps));
        let cert = dir.path().join("c.json");
        let out = gamecert(&["solve", inst.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let out = gamecert(&["verify", inst.to_str().unwrap(), cert.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
        let report = text(&out.stdout);
        assert!(report.contains(claim), "{report}");
        assert!(report.contains("Sprague-Grundy"), "{report}");
        // A label changed at heap 3 is rejected there.
        let mut json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
        json["values"][3] = serde_json::json!(json["values"][3].as_u64().unwrap() + 1);
        let bad = write(dir.path(), "bad.json", &json.to_string());
        let out = gamecert(&["verify", inst.to_str().unwrap(), bad.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stdout).contains("heap 3:"), "{}", text(&out.stdout));
    }
}

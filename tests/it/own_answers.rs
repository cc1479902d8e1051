//! Issue 31, item 2: an internal error is never a user's answer. `solve`'s own choices (auto's
//! method, the checker's budget on its own certificate) end in an answer or in a refusal that
//! says why, never in "internal error".

use crate::common::{gamecert, stderr, stdout, write};
use std::path::Path;

/// The one-round instance of docs/formats.md, read from the doc itself (its `source` records a
/// formula whose image is another graph).
fn formats_one_round_example() -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/formats.md"))
            .unwrap();
    let start = doc.find("kind `voronoi-one-round`): W holds").expect("the example's heading");
    let fence = doc[start..].find("```json\n").unwrap() + start + "```json\n".len();
    let end = doc[fence..].find("```").unwrap() + fence;
    doc[fence..end].to_string()
}

#[test]
fn auto_skips_a_recorded_formula_that_does_not_rebuild_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let instance = write(dir.path(), "i.json", &formats_one_round_example());
    let cert = dir.path().join("c.json");
    let out = gamecert(&["solve", instance.to_str().unwrap(), "-o", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = format!("{}{}", stdout(&out), stderr(&out));
    assert!(!said.contains("internal error"), "{said}");
    assert!(said.contains("direct method"), "{said}");
    assert!(said.contains("does not rebuild this instance"), "{said}");
    assert!(said.contains("10n + 2m - 1 = 11 vertices, the instance 3"), "{said}");
    let verified = gamecert(&["verify", instance.to_str().unwrap(), cert.to_str().unwrap()]);
    assert_eq!(verified.status.code(), Some(0), "{}", stdout(&verified));

    // Named, the reduction method refuses before solving, with the same reason.
    let out = gamecert(&["solve", instance.to_str().unwrap(), "--method", "reduction", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("needs the instance its recorded source formula builds"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}

#[test]
fn auto_takes_the_reduction_on_its_own_image() {
    let dir = tempfile::tempdir().unwrap();
    let instance = crate::common::reduced_cnf(dir.path(), "f", "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n");
    let out = gamecert(&["solve", instance.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["method"], "reduction", "{report}");
    assert!(report.get("note").is_none(), "{report}");
}

/// Every kind's fixture instance, solved with a budget too small for any check: either the
/// solver's own refusal before it searches (exit code 2, nothing written) or the answer found
/// and written NOT CHECKED (exit code 3, issue 47), naming --max-work each time, never an
/// internal error.
#[test]
fn a_budget_too_small_is_a_refusal_or_not_checked_for_every_kind() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/tests/fixtures");
    let dir = tempfile::tempdir().unwrap();
    let (mut seen, mut refused, mut kept) = (0, 0, 0);
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let folder = entry.unwrap().path();
        let Some(instance) = ["instance.json", "instance.txt"]
            .iter()
            .map(|name| folder.join(name))
            .find(|path| path.exists())
        else {
            continue;
        };
        let cert = dir.path().join(format!("{seen}.cert"));
        let args = [instance.to_str().unwrap(), "-o", cert.to_str().unwrap(), "--max-work", "1"];
        let out = gamecert(&[&["-q", "solve"], &args[..]].concat());
        let err = stderr(&out);
        let at = folder.display();
        assert!(!err.contains("internal error"), "{at}: {err}");
        assert!(err.contains("--max-work"), "{at}: {err}");
        match out.status.code() {
            Some(2) => {
                assert!(err.contains("no certificate was written"), "{at}: {err}");
                assert!(!cert.exists(), "{at}");
                refused += 1;
            }
            Some(3) => {
                assert!(err.contains("NOT CHECKED"), "{at}: {err}");
                assert!(cert.exists(), "{at}: {err}");
                // The kept answer is what verify would say with the same budget, and checks
                // with the default one.
                let c = cert.to_str().unwrap();
                let i = instance.to_str().unwrap();
                let out = gamecert(&["-q", "verify", i, c, "--max-work", "1"]);
                assert_eq!(out.status.code(), Some(3), "{at}: {}", stdout(&out));
                let out = gamecert(&["-q", "verify", i, c]);
                assert_eq!(out.status.code(), Some(0), "{at}: {}", stdout(&out));
                kept += 1;
            }
            other => panic!("{at}: exit {other:?}: {err}"),
        }
        seen += 1;
    }
    assert!(seen >= 15, "only {seen} fixture instances found");
    assert!(kept >= 10, "{kept} answers kept, {refused} refused");
}

/// Issue 47: every certificate gamecert writes checks with no flag. Two coins at distance at
/// most 4 times Ruler, on 250 x 250 coins: labelled in a moment, and its check (3.4 * 10^9
/// steps of computation for a 196 KB certificate) once needed --max-work; a budget too small
/// for it keeps the answer, NOT CHECKED.
#[test]
fn a_coin_board_heavy_to_check_checks_with_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    let instance = write(
        dir.path(),
        "coins.json",
        r#"{"format": "gamecert-instance", "version": 1, "kind": "coin-game",
 "rule": {"game": "product",
          "x": {"game": "subsets", "min_others": 1, "max_others": 1, "max_distance": 4, "base": 1},
          "y": {"game": "ruler"}},
 "board": [250, 250], "heads": [[1, 1]]}"#,
    );
    let cert = dir.path().join("c.json");
    let (i, c) = (instance.to_str().unwrap(), cert.to_str().unwrap());
    let out = gamecert(&["-q", "solve", i, "-o", c, "--max-work", "2000000000"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("NOT CHECKED"), "{err}");
    assert!(err.contains("while checking the labels"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
    assert!(cert.exists());
    let out = gamecert(&["-q", "verify", i, c, "--max-work", "2000000000"]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let out = gamecert(&["-q", "verify", i, c]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let out = gamecert(&["-q", "solve", i, "-o", c]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

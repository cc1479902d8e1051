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

/// Every kind's fixture instance, solved with a budget too small for any check: a size refusal
/// naming --max-work each time (exit code 2), never an internal error.
#[test]
fn a_budget_too_small_is_a_refusal_for_every_kind() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/tests/fixtures");
    let mut seen = 0;
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let folder = entry.unwrap().path();
        let Some(instance) = ["instance.json", "instance.txt"]
            .iter()
            .map(|name| folder.join(name))
            .find(|path| path.exists())
        else {
            continue;
        };
        let out = gamecert(&["-q", "solve", instance.to_str().unwrap(), "--max-work", "1"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", folder.display());
        assert!(!err.contains("internal error"), "{}: {err}", folder.display());
        assert!(err.contains("--max-work N"), "{}: {err}", folder.display());
        assert!(err.contains("no certificate was written"), "{}: {err}", folder.display());
        seen += 1;
    }
    assert!(seen >= 15, "only {seen} fixture instances found");
}

#[test]
fn a_coin_board_past_the_default_budget_is_refused_and_max_work_certifies_it() {
    let dir = tempfile::tempdir().unwrap();
    // Two coins at distance at most 4 times Ruler, on 250 x 250 coins: labelled in a moment,
    // but its check needs more than the default budget for files of its size.
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
    let out = gamecert(&["-q", "solve", i, "-o", c]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("too large to solve: checking the certificate"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
    assert!(!cert.exists());
    let out = gamecert(&["-q", "solve", i, "-o", c, "--max-work", "3500000000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = gamecert(&["-q", "verify", i, c, "--max-work", "3500000000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
}

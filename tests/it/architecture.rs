//! ARCHITECTURE.md's rules that a script can measure, checked on every test run: no import
//! cycles between the modules of any crate (`scripts/import-cycles.py`), and the checker's size
//! rule (`scripts/code-lines.py`). The scripts need only python3; without it the tests say so
//! and pass (CI has it).

use std::path::Path;
use std::process::Command;

fn script(args: &[&str]) -> Option<std::process::Output> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match Command::new("python3").args(args).current_dir(root).output() {
        Ok(out) => Some(out),
        Err(e) => {
            eprintln!("python3 is not available ({e}): the architecture checks are skipped");
            None
        }
    }
}

#[test]
fn no_import_cycles_in_either_crate() {
    for src in ["src", "certificates/src", "reductions/src"] {
        let Some(out) = script(&["scripts/import-cycles.py", src]) else { return };
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{src}: {text}{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("no cycles between modules"), "{src}: {text}");
    }
}

/// The code lines of `paths` together, by `scripts/code-lines.py`.
fn code_lines(paths: &[&str]) -> Option<usize> {
    let mut args = vec!["scripts/code-lines.py", "--total"];
    args.extend(paths);
    let out = script(&args)?;
    let text = String::from_utf8_lossy(&out.stdout);
    Some(text.trim().parse().unwrap_or_else(|_| panic!("not a count: {text}")))
}

/// ARCHITECTURE.md's size rule for the checker: its shared core (the top-level files and the
/// binary) under 1,000 code lines, each family folder at most 3,000.
#[test]
fn the_checker_keeps_its_size_rule() {
    let core = [
        "certificates/src/lib.rs",
        "certificates/src/format.rs",
        "certificates/src/check.rs",
        "certificates/src/verdict.rs",
        "certificates/src/replay.rs",
        "certificates/src/verify.rs",
        "certificates/src/bin/gamecert-check.rs",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/src");
    let top_level: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    // A new top-level file is core too: the list above must name it.
    for name in &top_level {
        let path = format!("certificates/src/{name}");
        assert!(core.contains(&path.as_str()), "{path} is not in the core list");
    }
    let Some(lines) = code_lines(&core) else { return };
    assert!(
        lines < 1000,
        "the checker's shared core has {lines} code lines (the rule: under 1,000)"
    );
    // base/ (the shared pieces) is held to a family's limit too.
    for family in [
        "base",
        "voronoi",
        "voronoi_paths",
        "posdnf",
        "triangulations",
        "impartial",
        "vertexnim",
        "triangle_avoidance",
    ] {
        let path = format!("certificates/src/{family}");
        let Some(lines) = code_lines(&[&path]) else { return };
        assert!(lines <= 3000, "{path} has {lines} code lines (the rule: at most 3,000)");
    }
}

//! ARCHITECTURE.md's rules that a script can measure, checked on every test run: no import
//! cycles between the modules of any crate (`scripts/import-cycles.py`). The script needs only
//! python3; without it the test says so and passes (CI has it).

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

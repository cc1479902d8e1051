//! The `gamecert` command line, in the binary (the library has no clap types and prints
//! nothing): one file per command, each with its `Args` and `run`; [`args`] holds the
//! command-line names of the library's choices.

pub mod args;
pub mod bench;
pub mod check_reduction;
pub mod demo;
pub mod demo_cases;
pub mod export_proof;
pub mod gen;
pub mod hint;
pub mod lrat;
pub mod nim;
pub mod play;
pub mod progress;
pub mod reduce;
pub mod render;
pub mod solve;
pub mod table;
pub mod triangle_engines;
pub mod verify;

use gamecert_certificates::Verdict;
use std::path::Path;

/// A note on standard error, unless `--quiet`.
pub fn note(quiet: bool, text: &str) {
    if !quiet {
        eprintln!("{text}");
    }
}

/// Prints a verdict as the checker's commands do (always text: JSON goes through [`print_json`]).
pub fn print_verdict(verdict: &Verdict) -> anyhow::Result<()> {
    {
        println!("{}: {}", if verdict.accepted { "ACCEPTED" } else { "REJECTED" }, verdict.claim);
        println!("{}", verdict.reason);
        for theorem in &verdict.trusted {
            println!("trusted: {theorem}");
        }
    }
    Ok(())
}

/// Prints the one JSON shape of every `--json` output
/// ([`gamecert_certificates::verify::output_json`]: `format`, `version`, `command`, `verdict`,
/// `summary`, `seconds`, then `fields`; an array goes under `rows`).
pub fn print_json(
    command: &str,
    verdict: &str,
    summary: &str,
    started: std::time::Instant,
    fields: serde_json::Value,
) -> anyhow::Result<()> {
    let seconds = started.elapsed().as_secs_f64();
    print!(
        "{}",
        gamecert_certificates::verify::output_json(command, verdict, summary, seconds, fields)
    );
    Ok(())
}

/// Writes `text` to `path`, or to standard output when `path` is `None` or `-`.
pub fn write_output(path: Option<&Path>, text: &str) -> anyhow::Result<()> {
    match path.filter(|p| *p != Path::new("-")) {
        Some(path) => {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(path, text)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

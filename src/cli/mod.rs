//! The `gamecert` command line, in the binary (the library has no clap types and prints
//! nothing): one file per command, each with its `Args` and `run`; [`args`] holds the
//! command-line names of the library's choices.

pub mod args;
pub mod bench;
pub mod check_reduction;
pub mod convert;
pub mod demo;
pub mod demo_cases;
pub mod export_proof;
pub mod gen;
pub mod hint;
pub mod kinds;
pub mod lrat;
pub mod nim;
#[cfg(feature = "serve")]
pub mod page;
pub mod play;
pub mod progress;
pub mod reduce;
pub mod render;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod table;
pub mod triangle_engines;
pub mod verify;

use gamecert_certificates::Verdict;
use std::path::Path;

/// A private temporary folder for `purpose` (`gamecert-PURPOSE-XXXXXX` under the system's
/// temporary folder), removed with everything in it when dropped: tempfile's, so two runs never
/// share one (a name from the process id alone could be another run's).
pub fn scratch_dir(purpose: &str) -> anyhow::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix(&format!("gamecert-{purpose}-")).tempdir().map_err(|e| {
        anyhow::anyhow!(
            "cannot make a temporary folder for {purpose} in {}: {e}",
            std::env::temp_dir().display()
        )
    })
}

/// A note on standard error, unless `--quiet`.
pub fn note(quiet: bool, text: &str) {
    if !quiet {
        eprintln!("{text}");
    }
}

/// Prints a verdict as the checker's commands do (always text: JSON goes through [`print_json`]).
pub fn print_verdict(verdict: &Verdict) -> anyhow::Result<()> {
    let (decision, claim, reason) = (verdict.outcome, &verdict.claim, &verdict.reason);
    print!("{}", gamecert_certificates::verify::verdict_line(decision, claim, reason));
    for theorem in &verdict.trusted {
        println!("trusted: {theorem}");
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

/// The name a `--json` output gives its command: the command, its subcommand, and its NAME or
/// OP argument, as typed (`solve`, `table kayles`, `gen path`, `reduce sat-voronoi1`, `nim
/// mul`, `bench lrat`).
pub fn command_name(words: &[&str], value: Option<&impl clap::ValueEnum>) -> String {
    let value = value.and_then(clap::ValueEnum::to_possible_value);
    let mut name = words.join(" ");
    if let Some(value) = value {
        name = format!("{name} {}", value.get_name());
    }
    name
}

/// The command line as typed (`gamecert table grundy --n 67108864`, without `-q`), for a
/// refusal that names the request.
pub fn command_line() -> String {
    let words: Vec<String> =
        std::env::args().skip(1).filter(|w| w != "-q" && w != "--quiet").collect();
    format!("gamecert {}", words.join(" "))
}

/// With `--json`, bad input (exit 2) is the one JSON shape on standard output too: verdict
/// `bad-input`, the message as `summary` and `error` (docs/formats.md, "Command output").
pub fn print_error_json(command: &str, message: &str, started: std::time::Instant) {
    let seconds = started.elapsed().as_secs_f64();
    print!("{}", gamecert_certificates::verify::error_json(command, message, seconds));
}

/// `text` as a file's content: written to `path` when there is one (not `-`), or else, with
/// `--json`, put into the command's JSON fields under `key` (parsed as JSON when it is JSON), or
/// printed; `fields` also gets `KEY_bytes`, its size, and `output`, the file's name.
pub fn write_report(
    path: Option<&Path>,
    text: &str,
    json: bool,
    fields: &mut serde_json::Value,
    key: &str,
) -> anyhow::Result<()> {
    let to_file = path.filter(|p| *p != Path::new("-"));
    if json && to_file.is_none() {
        fields[key] = serde_json::from_str(text).unwrap_or_else(|_| text.into());
    } else {
        write_output(path, text)?;
    }
    fields[format!("{key}_bytes")] = text.len().into();
    if let Some(path) = to_file {
        fields["output"] = gamecert_certificates::verify::shown(path).into();
    }
    Ok(())
}

/// The `summary` of a command whose output is a file: `what` and where [`write_report`] put it
/// ("a heap-game instance written to h.json (61 bytes)", or "... in the field `instance`").
pub fn written_summary(what: &str, fields: &serde_json::Value, key: &str) -> String {
    let bytes = fields[format!("{key}_bytes")].as_u64().unwrap_or(0);
    let size = gamecert_certificates::base::text::counted(bytes, "byte");
    match fields["output"].as_str() {
        Some(path) => format!("{what} written to {path} ({size})"),
        None => format!("{what} in the field `{key}` ({size})"),
    }
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

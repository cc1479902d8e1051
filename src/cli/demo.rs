//! `gamecert demo`: the papers' examples end to end (the work is in [`crate::cli::demo_cases`]).

use clap::Args as ClapArgs;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the papers' examples end to end: reduce, solve, certify, check; print a table.
#[derive(ClapArgs)]
pub struct Args {
    /// Directory for the instances and certificates.
    #[arg(long, default_value = "gamecert-out/demo")]
    out: PathBuf,
    /// Print the table one line a case at full width (by default it fits 100 columns, each
    /// case's formula or graph and answer on a line of their own).
    #[arg(long)]
    wide: bool,
    /// Print the rows as JSON instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { out, wide, json } = args;
    let started = std::time::Instant::now();
    let total = crate::cli::demo_cases::case_count() as u64;
    let mut working = crate::cli::progress::Progress::new("demo cases", Some(total), quiet);
    let rows = crate::cli::demo_cases::run(&out, &working)?;
    working.finish();
    let accepted = rows.iter().filter(|r| r.accepted).count();
    let all = accepted == rows.len();
    if json {
        let summary = format!(
            "{accepted} of {} certificates accepted by the checker; files in {}",
            rows.len(),
            out.display()
        );
        let fields = serde_json::json!({ "rows": rows, "directory": out.display().to_string() });
        let verdict = if all { "accepted" } else { "rejected" };
        crate::cli::print_json("demo", verdict, &summary, started, fields)?;
    } else if !quiet {
        print!("{}", crate::cli::demo_cases::table(&rows, &out, wide));
    }
    Ok(if all { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

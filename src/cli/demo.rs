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
    /// Print the table at full width (by default it fits 100 columns, long cells cut with …).
    #[arg(long)]
    wide: bool,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { out, wide } = args;
    {
        let total = crate::cli::demo_cases::case_count() as u64;
        let mut working = crate::cli::progress::Progress::new("demo cases", Some(total), quiet);
        let all = crate::cli::demo_cases::run(&out, quiet, wide, &working)?;
        working.finish();
        Ok(if all { ExitCode::SUCCESS } else { ExitCode::from(1) })
    }
}

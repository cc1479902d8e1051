//! `gamecert kinds`: what gamecert can do with each instance kind, read from the solver
//! registry ([`gamecert::registry`]): its solve methods (in the order `--method auto` tries
//! them), the `gen` families that make it, the tables over it, its pictures and the
//! certificates `hint` and `play` follow.

use clap::Args as ClapArgs;
use std::process::ExitCode;

/// List every instance kind with its solve methods, generators, tables, pictures and playable
/// certificates (the solver registry).
#[derive(ClapArgs)]
pub struct Args {
    /// Report as JSON on standard output (`kinds`: one object per kind).
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args, _quiet: bool) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    if args.json {
        let fields = gamecert::registry::to_json();
        let count = gamecert::registry::KINDS.len();
        let summary = format!("{count} instance kinds");
        crate::cli::print_json("kinds", "unchecked", &summary, started, fields)?;
    } else {
        print!("{}", gamecert::registry::describe());
    }
    Ok(ExitCode::SUCCESS)
}

//! The `gamecert` command line: parses the arguments and dispatches to the command's file in
//! [`cli`]. Exit codes: 0 success (for `verify`: accepted), 1 a rejected certificate or a
//! failed `check-reduction`, 2 bad input (the message names the file, line and column).

mod cli;

use clap::{Parser, Subcommand};
use gamecert::base::io::BadInput;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gamecert",
    version,
    about = "Certified reductions and solvers for combinatorial games"
)]
struct Cli {
    /// Print nothing but results (no notes on standard error).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

/// Every command, registered once: its name, its help (the doc comment of its `Args`) and its
/// file in `cli/`.
#[derive(Subcommand)]
enum Command {
    Demo(cli::demo::Args),
    Reduce(cli::reduce::Args),
    Gen(cli::gen::Args),
    Solve(cli::solve::Args),
    Verify(cli::verify::Args),
    Hint(cli::hint::Args),
    Play(cli::play::Args),
    Lrat(cli::lrat::Args),
    ExportProof(cli::export_proof::Args),
    Render(cli::render::Args),
    Table(cli::table::Args),
    CheckReduction(cli::check_reduction::Args),
    Nim(cli::nim::Args),
    Bench(cli::bench::Args),
}

fn main() -> ExitCode {
    // As every Unix filter: a reader that goes away (`gamecert table ... | head`) ends the
    // process quietly instead of making `print!` panic on a broken pipe.
    #[cfg(unix)]
    // SAFETY: called first thing, before any thread exists; SIG_DFL is always a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let quiet = cli.quiet;
    let outcome = match cli.command {
        Command::Demo(args) => cli::demo::run(args, quiet),
        Command::Reduce(args) => cli::reduce::run(args, quiet),
        Command::Gen(args) => cli::gen::run(args, quiet),
        Command::Solve(args) => cli::solve::run(args, quiet),
        Command::Verify(args) => cli::verify::run(args, quiet),
        Command::Hint(args) => cli::hint::run(args, quiet),
        Command::Play(args) => cli::play::run(args, quiet),
        Command::Lrat(args) => cli::lrat::run(args, quiet),
        Command::ExportProof(args) => cli::export_proof::run(args, quiet),
        Command::Render(args) => cli::render::run(args, quiet),
        Command::Table(args) => cli::table::run(args, quiet),
        Command::CheckReduction(args) => cli::check_reduction::run(args, quiet),
        Command::Nim(args) => cli::nim::run(args, quiet),
        Command::Bench(args) => cli::bench::command(args, quiet),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            if err.downcast_ref::<BadInput>().is_some() {
                eprintln!("error: {err}");
            } else {
                eprintln!("error: {err:#}");
            }
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every option and argument of every (sub)command has a help line (issue 17, item 8).
    #[test]
    fn every_option_is_described() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            let path = format!("{path} {}", command.get_name());
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if arg.get_help().is_none() && !["help", "version"].contains(&id) {
                    missing.push(format!("{path} --{id}"));
                }
            }
            if command.get_about().is_none() && command.get_name() != "help" {
                missing.push(format!("{path} (no description)"));
            }
            for sub in command.get_subcommands() {
                walk(sub, &path, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "", &mut missing);
        assert!(missing.is_empty(), "{} without help:\n{}", missing.len(), missing.join("\n"));
    }
}

//! The `gamecert` command line: parses the arguments and dispatches to the command's file in
//! [`cli`]. Exit codes: 0 success (for `verify`: accepted), 1 a rejected certificate or a
//! failed `check-reduction`, 2 bad input (the message names the file, line and column).

mod cli;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
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
    Convert(cli::convert::Args),
    Hint(cli::hint::Args),
    Play(cli::play::Args),
    Lrat(cli::lrat::Args),
    ExportProof(cli::export_proof::Args),
    Render(cli::render::Args),
    Table(cli::table::Args),
    CheckReduction(cli::check_reduction::Args),
    Nim(cli::nim::Args),
    #[cfg(feature = "serve")]
    Serve(cli::serve::Args),
    #[cfg(feature = "serve")]
    Page(cli::page::Args),
    Kinds(cli::kinds::Args),
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
    let matches = Cli::command().get_matches();
    // With `--json`, bad input is reported as JSON too: the command's name is taken now.
    let json_command = json_command(&matches);
    let started = std::time::Instant::now();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let quiet = cli.quiet;
    let outcome = match cli.command {
        Command::Demo(args) => cli::demo::run(args, quiet),
        Command::Reduce(args) => cli::reduce::run(args, quiet),
        Command::Gen(args) => cli::gen::run(args, quiet),
        Command::Solve(args) => cli::solve::run(args, quiet),
        Command::Verify(args) => cli::verify::run(args, quiet),
        Command::Convert(args) => cli::convert::run(args, quiet),
        Command::Hint(args) => cli::hint::run(args, quiet),
        Command::Play(args) => cli::play::run(args, quiet),
        Command::Lrat(args) => cli::lrat::run(args, quiet),
        Command::ExportProof(args) => cli::export_proof::run(args, quiet),
        Command::Render(args) => cli::render::run(args, quiet),
        Command::Table(args) => cli::table::run(args, quiet),
        Command::CheckReduction(args) => cli::check_reduction::run(args, quiet),
        Command::Nim(args) => cli::nim::run(args, quiet),
        #[cfg(feature = "serve")]
        Command::Serve(args) => cli::serve::run(args, quiet),
        #[cfg(feature = "serve")]
        Command::Page(args) => cli::page::run(args, quiet),
        Command::Kinds(args) => cli::kinds::run(args, quiet),
        Command::Bench(args) => cli::bench::command(args, quiet),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            let message = match err.downcast_ref::<BadInput>() {
                Some(_) => format!("{err}"),
                None => format!("{err:#}"),
            };
            // One line, whatever it quotes from a file (no control character reaches a terminal).
            eprintln!("error: {}", gamecert_certificates::base::text::printable(&message));
            if let Some(command) = json_command {
                cli::print_error_json(&command, &message, started);
            }
            ExitCode::from(2)
        }
    }
}

/// The command's name in JSON output when `--json` was given ([`cli::command_name`]'s rule:
/// the command, its subcommand, and its NAME or OP argument), `None` without `--json`.
fn json_command(matches: &clap::ArgMatches) -> Option<String> {
    let mut words = Vec::new();
    let mut current = matches;
    while let Some((name, sub)) = current.subcommand() {
        words.push(name.to_string());
        current = sub;
    }
    for id in ["name", "op"] {
        if let Ok(Some(mut values)) = current.try_get_raw(id) {
            words.extend(values.next().map(|v| v.to_string_lossy().into_owned()));
        }
    }
    let json = current.try_get_one::<bool>("json").ok().flatten().copied().unwrap_or(false);
    json.then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// `bench --help` lists every benchmark with its line, from the same enum the command
    /// runs (issue 25): a benchmark added without a description fails here.
    #[test]
    fn bench_help_lists_every_benchmark() {
        use clap::ValueEnum;
        let mut command = Cli::command();
        let help = command
            .find_subcommand_mut("bench")
            .expect("the bench command")
            .render_long_help()
            .to_string();
        let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
        for bench in cli::bench::BenchName::value_variants() {
            let value = bench.to_possible_value().expect("every benchmark is listed");
            let line = value.get_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(!line.is_empty(), "bench {} has no description", value.get_name());
            let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            let listed = format!("- {}: {line}", value.get_name());
            assert!(help.contains(&listed), "bench --help does not list {listed:?}:\n{help}");
        }
    }

    /// `solve --help` describes every method (issue 25: it once said "see the README").
    #[test]
    fn solve_help_describes_every_method() {
        use clap::ValueEnum;
        let help = Cli::command()
            .find_subcommand_mut("solve")
            .expect("the solve command")
            .render_long_help()
            .to_string();
        assert!(!help.contains("README"), "{help}");
        for method in cli::args::Method::value_variants() {
            let value = method.to_possible_value().expect("every method is listed");
            assert!(value.get_help().is_some(), "--method {} has no description", value.get_name());
            assert!(help.contains(&format!("- {}:", value.get_name())), "{help}");
        }
    }
}

//! `gamecert lrat FORMULA.cnf PROOF.lrat`: the trusted LRAT checker on any DIMACS formula and
//! any (RUP) LRAT proof, the pipeline of `gamecert-check lrat`
//! ([`gamecert_certificates::verify::run_lrat`]) with gamecert's readers (`-`, compressed files).

use clap::Args as ClapArgs;
use std::path::PathBuf;
use std::process::ExitCode;

/// Check that an LRAT proof refutes a DIMACS CNF formula (exit 0 accepted, 1 rejected, 2 bad input).
#[derive(ClapArgs)]
pub struct Args {
    /// The formula (DIMACS CNF; `-` for standard input; gzip, xz, bzip2 read as they are).
    formula: PathBuf,
    /// The proof (text LRAT: additions justified by reverse unit propagation or as RAT steps;
    /// `-` and compressed files as for the formula).
    proof: PathBuf,
    /// Print the verdict as JSON.
    #[arg(long)]
    json: bool,
    /// The checker's work budget, 1 to 10^15 units (default: 2*10^9 units plus 64 per input
    /// byte).
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let files = (args.formula.as_path(), args.proof.as_path());
    let lrat = gamecert_certificates::verify::run_lrat;
    Ok(crate::cli::verify::run_checker(files, args.json, args.max_work, "lrat", quiet, lrat))
}

//! `gamecert reduce NAME INPUT`: an instance from a formula by one of the papers' reductions.

use crate::cli::note;
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::api::Reduction;
use std::path::PathBuf;
use std::process::ExitCode;

/// Build an instance from a formula by one of the papers' reductions.
#[derive(ClapArgs)]
pub struct Args {
    /// Which reduction.
    #[arg(value_enum)]
    name: ReductionName,
    /// The input formula: DIMACS CNF (`p cnf V C`) for sat-voronoi1|2, positive DNF text (one
    /// term a line, `c` comments, an optional `p dnf V T` header) for posdnf-voronoi and
    /// posdnf-game; `-` for standard input; gzip, xz and bzip2 files are read as they are.
    input: PathBuf,
    /// Output file (standard output if omitted).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Report as JSON on standard output (what was written where, its size and counts); without
    /// -o the instance is included.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: crate::cli::args::MaxMemory,
}

#[derive(Clone, Copy, ValueEnum)]
enum ReductionName {
    /// 3-SAT to Problem 1 (W holds u): seed 001, Theorem 3.
    SatVoronoi1,
    /// 3-SAT to Problem 2 (W holds u and n-1 pendants): seed 001, Corollary 1.
    SatVoronoi2,
    /// The positive-DNF game to the multi-round game: seed 001, Theorem 4 (input: DNF text).
    PosdnfVoronoi,
    /// No reduction: the positive-DNF game itself as a `posdnf-game` instance (input: DNF text).
    PosdnfGame,
}

impl From<ReductionName> for Reduction {
    fn from(name: ReductionName) -> Reduction {
        match name {
            ReductionName::SatVoronoi1 => Reduction::SatVoronoi1,
            ReductionName::SatVoronoi2 => Reduction::SatVoronoi2,
            ReductionName::PosdnfVoronoi => Reduction::PosdnfVoronoi,
            ReductionName::PosdnfGame => Reduction::PosdnfGame,
        }
    }
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { name, input, output, json, memory } = args;
    let started = std::time::Instant::now();
    let (text, sizes) = gamecert::base::io::read_sized_text(&input)?;
    let allowance = memory.allowance(sizes.stored);
    let reduced = gamecert::api::reduce_within(name.into(), &text, &input, allowance)?;
    for line in &reduced.notes {
        note(quiet, line);
    }
    let (instance, mut fields) = (reduced.instance, reduced.fields);
    let kind = instance.kind();
    fields["kind"] = kind.into();
    fields["input"] = gamecert_certificates::verify::shown(&input).into();
    crate::cli::write_report(
        output.as_deref(),
        &instance.to_json(),
        json,
        &mut fields,
        "instance",
    )?;
    if json {
        let command = crate::cli::command_name(&["reduce"], Some(&name));
        let summary =
            crate::cli::written_summary(&format!("a {kind} instance"), &fields, "instance");
        crate::cli::print_json(&command, "unchecked", &summary, started, fields)?;
    }
    Ok(ExitCode::SUCCESS)
}

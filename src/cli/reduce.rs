//! `gamecert reduce NAME INPUT`: an instance from a formula by one of the papers' reductions.

use crate::cli::note;
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::{read_cnf, BadInput};
use gamecert_certificates::format::{Instance, MultiRoundSpec};
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_reductions::sat_voronoi::reduce;
use std::path::{Path, PathBuf};
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

impl ReductionName {
    /// The 3-SAT reductions' problem; `None` for the DNF ones.
    fn sat_problem(self) -> Option<SatVoronoi> {
        match self {
            ReductionName::SatVoronoi1 => Some(SatVoronoi::Problem1),
            ReductionName::SatVoronoi2 => Some(SatVoronoi::Problem2),
            _ => None,
        }
    }
}

/// `reduce posdnf-voronoi|posdnf-game A.dnf`: the instance and its counts for `--json`.
fn reduce_posdnf(
    name: ReductionName,
    input: &Path,
    quiet: bool,
) -> anyhow::Result<(Instance, serde_json::Value)> {
    let text = gamecert::base::io::read_text(input)?;
    let shown = gamecert_certificates::verify::shown(input);
    let parsed = gamecert_certificates::voronoi::dnf_text::parse_posdnf(&text, &shown)
        .map_err(|e| BadInput(e.to_string()))?;
    for w in &parsed.warnings {
        note(quiet, &format!("warning: {w}"));
    }
    let mut fields = serde_json::json!({
        "warnings": parsed.warnings,
        "variables": parsed.dnf.num_vars,
        "terms": parsed.dnf.terms.len(),
    });
    let instance = match name {
        ReductionName::PosdnfGame => Instance::PosDnfGame(parsed.dnf),
        _ => {
            let built = gamecert_reductions::posdnf_voronoi::build(&parsed.dnf)
                .map_err(|e| BadInput(format!("{}: {e}", input.display())))?;
            let n = built.padded.num_vars as usize;
            note(
                quiet,
                &format!(
                    "posdnf-voronoi: {} vertices (2n^2 + 7n + m + 2 with n = {n}{}, m = {}), {} rounds each",
                    built.graph.vertices.len(),
                    if n as u32 != parsed.dnf.num_vars { ", padded from an odd count" } else { "" },
                    built.padded.terms.len(),
                    built.rounds
                ),
            );
            fields["vertices"] = built.graph.vertices.len().into();
            fields["edges"] = built.graph.edges.len().into();
            fields["rounds"] = built.rounds.into();
            Instance::Voronoi(MultiRoundSpec {
                graph: built.graph,
                rounds: built.rounds,
                start: None,
                source: Some(serde_json::json!({
                    "reduction": "posdnf-voronoi",
                    "formula": built.padded,
                })),
            })
        }
    };
    Ok((instance, fields))
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { name, input, output, json } = args;
    let started = std::time::Instant::now();
    let (instance, mut fields) = match name.sat_problem() {
        None => reduce_posdnf(name, &input, quiet)?,
        Some(problem) => reduce_sat(problem, &input, quiet)?,
    };
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

/// `reduce sat-voronoi1|sat-voronoi2 F.cnf`: the instance and its counts for `--json`.
fn reduce_sat(
    problem: SatVoronoi,
    input: &Path,
    quiet: bool,
) -> anyhow::Result<(Instance, serde_json::Value)> {
    {
        let (cnf, warnings) = read_cnf(input)?;
        for w in &warnings {
            note(quiet, &format!("warning: {w}"));
        }
        let reduced =
            reduce(&cnf, problem).map_err(|e| BadInput(format!("{}: {e}", input.display())))?;
        let normalisation = reduced.normalised.map.report();
        for line in &normalisation {
            note(quiet, &format!("normalisation: {line}"));
        }
        let spec = &reduced.instance;
        note(
            quiet,
            &format!(
                "{}: {} vertices (10n + 2m - 1 with n = {}, m = {}), W holds {}, B places {}",
                problem.name(),
                spec.graph.vertices.len(),
                reduced.normalised.formula.num_vars,
                reduced.normalised.formula.clauses.len(),
                spec.white.len(),
                spec.black_count
            ),
        );
        let fields = serde_json::json!({
            "warnings": warnings,
            "normalisation": normalisation,
            "variables": reduced.normalised.formula.num_vars,
            "clauses": reduced.normalised.formula.clauses.len(),
            "vertices": spec.graph.vertices.len(),
            "edges": spec.graph.edges.len(),
            "white": spec.white.len(),
            "black_count": spec.black_count,
        });
        Ok((Instance::VoronoiOneRound(reduced.instance), fields))
    }
}

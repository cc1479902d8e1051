//! `gamecert solve INSTANCE`: solve, check with the checker, write only what it accepted.

use crate::cli::args::Method;
use crate::cli::note;
use crate::cli::write_output;
use clap::Args as ClapArgs;
use gamecert::base::io::{parse_instance, validate_instance, validate_one_round, BadInput};
use gamecert::voronoi::one_round::{solve_one_round, SolveError};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::{check, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Solve an instance and write a certificate the checker has accepted.
#[derive(ClapArgs)]
pub struct Args {
    /// The instance (JSON, a positive DNF text, or the edge-list text format).
    instance: PathBuf,
    /// Certificate file (standard output if omitted).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// One-round games: refute through the reduction's formula (reduction) or the checker's
    /// direct encoding (direct). Multi-round games: median, kary or exact (see the README).
    #[arg(long, value_enum, default_value = "auto")]
    method: Method,
    /// Print the command output as JSON on standard output; without -o it includes the
    /// certificate.
    #[arg(long)]
    json: bool,
}

/// Writes a solved certificate and reports: with `--json` the command output on standard output
/// (with the certificate itself under `certificate` when there is no `-o`), otherwise the
/// certificate to `-o` or standard output and a note on standard error.
fn finish_solve(
    certificate: &Certificate,
    mut fields: serde_json::Value,
    note_text: &str,
    output: Option<&Path>,
    json: bool,
    quiet: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    let text = certificate.to_json();
    if json {
        match output.filter(|p| *p != Path::new("-")) {
            Some(path) => {
                write_output(Some(path), &text)?;
                fields["output"] = path.display().to_string().into();
            }
            None => fields["certificate"] = serde_json::from_str(&text)?,
        }
        crate::cli::print_json("solve", "accepted", note_text, started, fields)?;
    } else {
        write_output(output, &text)?;
        note(quiet, note_text);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { instance, output, method, json } = args;
    let started = std::time::Instant::now();
    let mut working = crate::cli::progress::Progress::alive("solving", quiet);
    let method: gamecert::base::method::Method = method.into();
    match parse_instance(&instance)? {
        Instance::VoronoiOneRound(spec) => {
            let game = validate_one_round(&instance, &spec)?;
            let solved = solve_one_round(&spec, &game, method).map_err(|e| match e {
                SolveError::TooLarge(t) => BadInput(format!("{}: {t}", instance.display())).into(),
                other => anyhow::Error::from(other),
            })?;
            anyhow::ensure!(
                solved.verdict.accepted,
                "internal error: the checker rejected gamecert's own certificate: {}",
                solved.verdict.reason
            );
            let summary = serde_json::json!({
                "claim": solved.verdict.claim,
                "kind": solved.certificate.kind(),
                "method": solved.method,
                "solve_seconds": solved.solve_seconds,
                "check_seconds": solved.check_seconds,
                "work": solved.verdict.work,
                "lrat_bytes": solved.lrat_bytes,
            });
            let text = format!(
                    "{}: {} certificate ({} method, {} variables, {} clauses{}), solved in {:.3} s, accepted by the checker in {:.3} s",
                    solved.verdict.claim,
                    solved.certificate.kind(),
                    solved.method,
                    solved.cnf_variables,
                    solved.cnf_clauses,
                    if solved.lrat_bytes > 0 { format!(", {} bytes of LRAT", solved.lrat_bytes) } else { String::new() },
                    solved.solve_seconds,
                    solved.check_seconds
                );
            working.finish();
            finish_solve(
                &solved.certificate,
                summary,
                &text,
                output.as_deref(),
                json,
                quiet,
                started,
            )
        }
        other => {
            validate_instance(&instance, &other)?;
            let started = std::time::Instant::now();
            let solved = gamecert::solve::solve_game(&other, method).map_err(|e| match e
                .downcast_ref::<BadInput>()
            {
                Some(bad) => BadInput(format!("{}: {bad}", instance.display())).into(),
                None => e.context(format!("{}: no certificate", instance.display())),
            })?;
            let (certificate, nodes) = (solved.certificate, solved.nodes);
            let solve_seconds = started.elapsed().as_secs_f64();
            // Checked with the budget `verify` gives the two files by default, so that what
            // solve writes, verify accepts without --max-work.
            let certificate_json = certificate.to_json();
            let instance_bytes = std::fs::metadata(&instance).map_or(0, |m| m.len());
            let limits = Limits::for_input(instance_bytes + certificate_json.len() as u64);
            let verdict = check(&other, &certificate, &limits);
            if !verdict.accepted {
                anyhow::bail!(
                    "internal error: the checker rejected gamecert's own certificate: {}",
                    verdict.reason
                );
            }
            let summary = serde_json::json!({
                "claim": verdict.claim,
                "kind": certificate.kind(),
                "method": solved.method,
                "search_nodes": nodes,
                "solve_seconds": solve_seconds,
                "work": verdict.work,
            });
            let text = format!(
                    "{}: {} certificate by {}, {nodes} search nodes in {solve_seconds:.3} s; accepted by the checker: {}",
                    verdict.claim,
                    certificate.kind(),
                    solved.method,
                    verdict.reason
                );
            working.finish();
            finish_solve(&certificate, summary, &text, output.as_deref(), json, quiet, started)
        }
    }
}

//! `gamecert check-reduction NAME`: Karp-style random testing of a reduction against the
//! exhaustive solvers.

use clap::{Args as ClapArgs, ValueEnum};
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use std::process::ExitCode;

/// Random-test a reduction against an exhaustive solver.
#[derive(ClapArgs)]
pub struct Args {
    /// Which reduction.
    #[arg(value_enum)]
    name: TestedReduction,
    /// Random formulas, 1 to 10^5: each decided by a truth table and, on the reduced graph,
    /// by an exhaustive search of B's placements; the two must agree (about 0.4 s each,
    /// posdnf-voronoi 0.5 s: past --max-minutes, refused before any work).
    #[arg(long, default_value_t = 200, value_parser = crate::cli::args::ranged::<usize>(1, 100_000))]
    trials: usize,
    /// Random seed (0 to 2^64 - 1): the same seed draws the same formulas.
    #[arg(long, default_value_t = 1, value_parser = crate::cli::args::seed())]
    seed: u64,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    time: crate::cli::args::MaxMinutes,
}

/// Seconds a trial takes, by reduction, and the seconds of posdnf-voronoi's exhaustive part
/// (every formula over at most 4 variables): measured on the 2-core machine beside other work
/// (2026-12-07): sat-voronoi2, 1,000 trials in 376 s (sat-voronoi1 the same or more);
/// posdnf-voronoi, 5 trials 1.8 s with its exhaustive part.
fn trial_seconds(name: TestedReduction) -> (f64, f64) {
    match name {
        TestedReduction::SatVoronoi1 => (SAT1_TRIAL, 0.0),
        TestedReduction::SatVoronoi2 => (SAT2_TRIAL, 0.0),
        TestedReduction::PosdnfVoronoi => (DNF_TRIAL, DNF_EXHAUSTIVE),
    }
}

const SAT1_TRIAL: f64 = 0.4;
const SAT2_TRIAL: f64 = 0.4;
const DNF_TRIAL: f64 = 0.5;
const DNF_EXHAUSTIVE: f64 = 1.0;

/// The reductions that `check-reduction` tests.
#[derive(Clone, Copy, ValueEnum)]
enum TestedReduction {
    /// Random 3-CNFs: satisfiable iff B wins the reduced game (Theorem 3).
    SatVoronoi1,
    /// The same for Problem 2 (Corollary 1).
    SatVoronoi2,
    /// Against the exact DNF and Voronoi solvers; --trials counts the random formulas added to
    /// the exhaustive part (about a second each).
    PosdnfVoronoi,
}

impl TestedReduction {
    /// The 3-SAT problem, or `None` for posdnf-voronoi.
    fn problem(self) -> Option<SatVoronoi> {
        match self {
            TestedReduction::SatVoronoi1 => Some(SatVoronoi::Problem1),
            TestedReduction::SatVoronoi2 => Some(SatVoronoi::Problem2),
            TestedReduction::PosdnfVoronoi => None,
        }
    }
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { name, trials, seed, json, time } = args;
    let started = std::time::Instant::now();
    let (per_trial, fixed) = trial_seconds(name);
    let cost = gamecert::base::limits::Cost {
        seconds: fixed + per_trial * trials as f64,
        bytes: 200_000_000,
    };
    time.allowance().admit(&crate::cli::command_line(), cost)?;
    {
        // A bar on a terminal, a status line every 10 s otherwise, nothing with --quiet.
        let mut bar = crate::cli::progress::Progress::new("trials", Some(trials as u64), quiet);
        let (report, summary, failures) = match name.problem() {
            None => {
                let report = gamecert::voronoi::check_dnf_reduction::run(
                    4,
                    trials,
                    seed,
                    &mut |done, total| {
                        bar.set_total(total as u64);
                        bar.set(done as u64)
                    },
                );
                let summary = format!(
                        "posdnf-voronoi: {} formulas (every one over at most 4 variables with at most 3 terms, \
                         then {trials} random ones with 5 or 6 variables, seed {seed}): first player wins {}, \
                         second {}; Voronoi value as predicted (W wins iff the first player does, a tie otherwise) \
                         on {}; value certificates accepted {}; values {}; largest graph {} vertices, {} search nodes",
                        report.formulas,
                        report.first_player_wins,
                        report.second_player_wins,
                        report.agreed,
                        report.certified,
                        report
                            .values
                            .iter()
                            .map(|(value, count)| format!("{count} of value {value}"))
                            .collect::<Vec<_>>()
                            .join(", "),
                        report.largest_graph,
                        report.search_nodes
                    );
                (serde_json::to_value(&report)?, summary, report.failures)
            }
            Some(problem) => {
                let report = gamecert::voronoi::check_reduction::run_with_progress(
                    problem,
                    trials,
                    seed,
                    &|done| bar.set(done as u64),
                );
                let summary = format!(
                        "{}: {} trials (seed {}, {} formulas redrawn as too large): {} satisfiable, {} unsatisfiable; \
                         exhaustive search agreed on {}; {} forward placements won and were accepted; \
                         {} winning placements mapped back to models ({} not of the one-literal-per-variable form); \
                         largest graph {} vertices, {} search nodes",
                        report.reduction,
                        report.trials,
                        report.seed,
                        report.redrawn,
                        report.satisfiable,
                        report.unsatisfiable,
                        report.agreed,
                        report.forward_checked,
                        report.backward_checked,
                        report.noncanonical_winning,
                        report.largest_graph,
                        report.search_nodes
                    );
                (serde_json::to_value(&report)?, summary, report.failures)
            }
        };
        bar.finish();
        if json {
            let verdict = if failures.is_empty() { "accepted" } else { "rejected" };
            let fields = serde_json::json!({ "report": report });
            let command = crate::cli::command_name(&["check-reduction"], Some(&name));
            crate::cli::print_json(&command, verdict, &summary, started, fields)?;
        } else {
            println!("{summary}");
            for failure in &failures {
                println!("FAILED {failure}");
            }
        }
        Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
    }
}

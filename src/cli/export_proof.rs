//! `gamecert export-proof INSTANCE CERTIFICATE --cnf F.cnf --lrat F.lrat`: a refutation's
//! formula and proof as standard DIMACS and LRAT files, for outside checkers (cake_lpr, whose
//! checker is formally verified; drat-trim's lrat-check).
//!
//! Which formula (`--formula`): `original`, the SAT user's formula as the instance records it
//! (`gamecert reduce` keeps it), with a proof that first derives the normalised formula from it
//! ([`gamecert_reductions::normalise_proof`]) and then refutes that; or `refuted`, the formula
//! the certificate's proof refutes: the normalised formula the certificate carries (`--method
//! reduction`), or, for `--method direct`, the checker's own encoding of "B wins" on the
//! instance ([`gamecert_certificates::voronoi::encode`]), built by the same code the checker
//! runs. The default is `original` when the instance records the user's formula and the
//! certificate refutes its reduction, `refuted` otherwise. The certificate is verified first; a
//! rejected one is not exported (exit 1); a proof of the original formula is also checked by
//! the trusted LRAT checker before it is written.

use clap::Args as ClapArgs;
use gamecert::base::io::{parse_instance, read_certificate, validate_one_round, BadInput};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance, Refutation, RefutationMethod};
use std::path::PathBuf;
use std::process::ExitCode;

/// Write a refutation's formula and proof as DIMACS CNF and LRAT files for outside checkers.
#[derive(ClapArgs)]
pub struct Args {
    /// A one-round Voronoi instance (JSON or the edge-list text; `-` for standard input; gzip,
    /// xz and bzip2 files are read as they are).
    instance: PathBuf,
    /// A refutation certificate of it (JSON, from `gamecert solve` on an instance B cannot win;
    /// `-` and compressed files as for the instance).
    certificate: PathBuf,
    /// Where to write the formula (DIMACS CNF): the user's own formula with `--formula
    /// original` (its clauses in the order read, duplicates and tautologies kept, so the proof
    /// also checks against the user's own file), the formula the certificate refutes with
    /// `--formula refuted`.
    #[arg(long, value_name = "FILE")]
    cnf: PathBuf,
    /// Where to write the proof: an LRAT refutation of the formula written to --cnf (input clause
    /// k is id k). For `original`, it derives the normalised clauses first (RUP, and RAT steps
    /// defining the normalisation's fresh variables, numbered above the user's), deletes the
    /// rest, then replays the certificate's refutation.
    #[arg(long, value_name = "FILE")]
    lrat: PathBuf,
    /// Which formula the two files hold: `original`, the user's CNF as `gamecert reduce` read it
    /// (the default when the instance records it and the certificate refutes its reduction), or
    /// `refuted`, the formula the certificate's proof refutes (the normalised formula for
    /// `--method reduction`, the checker's encoding of "B wins" for `--method direct`).
    #[arg(long, value_enum, value_name = "WHICH")]
    formula: Option<Which>,
    /// Report as JSON on standard output: the two files written, their sizes and counts (or the
    /// checker's rejection).
    #[arg(long)]
    json: bool,
}

/// The formula `export-proof` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Which {
    /// The SAT user's formula, as the reduced instance records it.
    Original,
    /// The formula the certificate's proof refutes.
    Refuted,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let instance = parse_instance(&args.instance)?;
    let Instance::VoronoiOneRound(spec) = &instance else {
        return Err(BadInput(format!(
            "{}: a {} instance; proofs come with refutations of one-round Voronoi instances",
            args.instance.display(),
            instance.kind()
        ))
        .into());
    };
    let game = validate_one_round(&args.instance, spec)?;
    let certificate = read_certificate(&args.certificate)?;
    let Certificate::Refutation(Refutation { method, lrat, .. }) = &certificate else {
        return Err(BadInput(format!(
            "{}: a {} certificate carries no proof; only refutations do",
            args.certificate.display(),
            certificate.kind()
        ))
        .into());
    };
    let verdict = gamecert_certificates::check::check_one_round(
        &game,
        &certificate,
        &gamecert_certificates::Limits::default(),
    );
    if !verdict.accepted {
        if args.json {
            let fields = serde_json::json!({
                "claim": verdict.claim, "reason": verdict.reason, "work": verdict.work,
                "instance": args.instance.display().to_string(),
                "certificate": args.certificate.display().to_string(),
            });
            let summary = format!(
                "{}; nothing exported",
                gamecert_certificates::verify::verdict_heading(false, &verdict.claim)
            );
            crate::cli::print_json("export-proof", "rejected", &summary, started, fields)?;
        } else {
            crate::cli::print_verdict(&verdict)?;
        }
        return Ok(ExitCode::from(1));
    }
    let original = match (method, spec.source.as_ref().and_then(|s| s.original.as_ref())) {
        (RefutationMethod::Reduction { .. }, Some(original)) => Some(original),
        _ => None,
    };
    let which = match (args.formula, original) {
        (Some(which), _) => which,
        (None, Some(_)) => Which::Original,
        (None, None) => Which::Refuted,
    };
    let (cnf, comment, proof) = match (which, method) {
        (Which::Original, RefutationMethod::Reduction { reduction, formula }) => {
            let Some(original) = original else {
                return Err(BadInput(format!(
                    "{}: the instance does not record the user's formula (its `source` has no \
                     `original`); `--formula refuted` exports the formula the certificate refutes",
                    args.instance.display()
                ))
                .into());
            };
            let proof =
                gamecert_reductions::normalise_proof::refute_original(original, formula, lrat)
                    .map_err(|why| {
                        BadInput(format!(
                    "{}: no proof of the user's formula: {why}; `--formula refuted` exports the \
                     formula the certificate refutes",
                    args.instance.display()
                ))
                    })?;
            let comment = format!(
                "the user's formula, as the {} reduction recorded it",
                gamecert::base::token(reduction)
            );
            (original.clone(), comment, proof.lrat)
        }
        (Which::Original, RefutationMethod::Direct) => {
            return Err(BadInput(format!(
                "{}: a `--method direct` refutation proves the checker's encoding of the game, \
                 not a formula of the user's; `--formula refuted` exports it",
                args.certificate.display()
            ))
            .into());
        }
        (Which::Refuted, RefutationMethod::Reduction { reduction, formula }) => (
            formula.clone(),
            format!(
                "the formula of the {} reduction the certificate carries",
                gamecert::base::token(reduction)
            ),
            lrat.clone(),
        ),
        (Which::Refuted, RefutationMethod::Direct) => {
            let encoding = gamecert_certificates::voronoi::encode::black_wins_cnf(
                &game.graph,
                &game.white,
                game.black_count,
                &mut Budget::new(u64::MAX),
            )
            .map_err(anyhow::Error::msg)?;
            (
                encoding.cnf,
                "the checker's encoding of \"B has a winning placement\"".to_string(),
                lrat.clone(),
            )
        }
    };
    let header =
        format!("c gamecert export-proof: {comment}\nc instance {}\n", args.instance.display());
    let formula = header + &cnf.to_dimacs();
    crate::cli::write_output(Some(&args.cnf), &formula)?;
    let mut proof = proof;
    if !proof.ends_with('\n') {
        proof.push('\n');
    }
    crate::cli::write_output(Some(&args.lrat), &proof)?;
    let counted = gamecert_certificates::base::text::counted;
    let summary = format!(
        "wrote {} ({}: {}, {}) and {} ({}); check them with `gamecert lrat`, `lrat-check` \
         (drat-trim) or `cake_lpr`",
        args.cnf.display(),
        match which {
            Which::Original => "the user's formula",
            Which::Refuted => "the refuted formula",
        },
        counted(u64::from(cnf.num_vars), "variable"),
        counted(cnf.clauses.len() as u64, "clause"),
        args.lrat.display(),
        counted(proof.lines().count() as u64, "line"),
    );
    if args.json {
        let fields = serde_json::json!({
            "claim": verdict.claim, "work": verdict.work, "formula": comment,
            "which": match which { Which::Original => "original", Which::Refuted => "refuted" },
            "instance": args.instance.display().to_string(),
            "certificate": args.certificate.display().to_string(),
            "cnf": args.cnf.display().to_string(), "cnf_bytes": formula.len(),
            "variables": cnf.num_vars, "clauses": cnf.clauses.len(),
            "lrat": args.lrat.display().to_string(), "lrat_bytes": proof.len(),
            "lrat_lines": proof.lines().count(),
        });
        crate::cli::print_json("export-proof", "accepted", &summary, started, fields)?;
    } else {
        crate::cli::note(quiet, &summary);
    }
    Ok(ExitCode::SUCCESS)
}

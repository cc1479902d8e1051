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
//!
//! A witness of an instance made by `reduce sat-voronoi1|2` exports the model of the user's
//! formula it gives ([`gamecert_reductions::sat_answer`], checked against the user's clauses):
//! `s SATISFIABLE` and `v` lines to `--model FILE` (standard output without it), and with
//! `--cnf FILE` the user's formula beside it.

use clap::Args as ClapArgs;
use gamecert::base::io::{read_certificate, validate_one_round, BadInput};
use gamecert::base::solved::ProofFile;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::check::check_binary_refutation;
use gamecert_certificates::format::{Certificate, Instance, Refutation, RefutationMethod};
use gamecert_certificates::sat::lrat::check_lrat_reader;
use gamecert_certificates::sat::lrat_binary::MAGIC;
use gamecert_certificates::voronoi::one_round::binary_header;
use gamecert_reductions::lrat_steps::{text_steps, Decoded, Decoder};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Write a refutation's formula and proof as DIMACS CNF and LRAT files for outside checkers, or
/// a witness's model of the user's formula.
#[derive(ClapArgs)]
pub struct Args {
    /// A one-round Voronoi instance (JSON or the edge-list text; `-` for standard input; gzip,
    /// xz and bzip2 files are read as they are).
    instance: PathBuf,
    /// A refutation certificate of it (JSON, from `gamecert solve` on an instance B cannot win;
    /// `-` and compressed files as for the instance), or a witness of an instance made by
    /// `gamecert reduce sat-voronoi1|2`.
    certificate: PathBuf,
    /// Where to write the formula (DIMACS CNF): the user's own formula with `--formula
    /// original` (its clauses in the order read, duplicates and tautologies kept, so the proof
    /// also checks against the user's own file), the formula the certificate refutes with
    /// `--formula refuted`. Needed for a refutation; for a witness, the user's formula beside
    /// its model.
    #[arg(long, value_name = "FILE")]
    cnf: Option<PathBuf>,
    /// Where to write the proof: an LRAT refutation of the formula written to --cnf (input clause
    /// k is id k). For `original`, it derives the normalised clauses first (RUP, and RAT steps
    /// defining the normalisation's fresh variables, numbered above the user's), deletes the
    /// rest, then replays the certificate's refutation. Needed for a refutation.
    #[arg(long, value_name = "FILE")]
    lrat: Option<PathBuf>,
    /// A witness: where to write the model of the user's formula it gives, checked against the
    /// user's clauses, as SAT-competition lines (`s SATISFIABLE`, then `v` lines); standard
    /// output without it.
    #[arg(long, value_name = "FILE")]
    model: Option<PathBuf>,
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
    #[command(flatten)]
    memory: crate::cli::args::MaxMemory,
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
    let (instance, sizes) = gamecert::base::io::parse_sized_instance(&args.instance)?;
    let Instance::VoronoiOneRound(spec) = &instance else {
        return Err(BadInput(format!(
            "{}: a {} instance; proofs come with refutations of one-round Voronoi instances",
            args.instance.display(),
            instance.kind()
        ))
        .into());
    };
    let game = validate_one_round(&args.instance, spec)?;
    // A binary refutation stays on disk: checked as it is read, then its proof turned into text
    // as it is read again (a stream or a compressed file is first copied out to a temporary file).
    let (certificate, binary) = match read_any_certificate(&args.certificate)? {
        Read::Binary(file) => {
            let mut read = std::io::BufReader::new(std::fs::File::open(file.path())?);
            let (header, _) = binary_header(&mut read, &mut Budget::unlimited())
                .map_err(|why| BadInput(format!("{}: {why}", args.certificate.display())))?;
            (Certificate::Refutation(header), Some(file))
        }
        Read::Json(certificate) => (*certificate, None),
    };
    if !matches!(certificate, Certificate::Refutation(_) | Certificate::Witness(_)) {
        return Err(BadInput(format!(
            "{}: a {} certificate carries no proof; only refutations do (and witnesses give \
             models)",
            args.certificate.display(),
            certificate.kind()
        ))
        .into());
    }
    // The budget `verify` gives the two files.
    let instance_stored = std::fs::metadata(&args.instance).map(|m| m.len()).unwrap_or(0);
    let verdict = match &binary {
        Some(file) => {
            let stored = std::fs::metadata(file.path()).map(|m| m.len()).unwrap_or(0);
            let limits = gamecert_certificates::Limits::for_input(instance_stored + stored);
            let mut read =
                std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(file.path())?);
            check_binary_refutation(&game, &mut read, &mut limits.budget())
        }
        None => {
            let stored = std::fs::metadata(&args.certificate).map(|m| m.len()).unwrap_or(0);
            let limits = gamecert_certificates::Limits::for_input(instance_stored + stored);
            gamecert_certificates::check::check_one_round(&game, &certificate, &limits)
        }
    };
    if !verdict.accepted() {
        if args.json {
            let fields = serde_json::json!({
                "claim": verdict.claim, "reason": verdict.reason, "work": verdict.work,
                "instance": args.instance.display().to_string(),
                "certificate": args.certificate.display().to_string(),
            });
            let summary = format!(
                "{}; nothing exported",
                gamecert_certificates::verify::verdict_heading(verdict.outcome, &verdict.claim)
            );
            let token = verdict.outcome.token();
            crate::cli::print_json("export-proof", token, &summary, started, fields)?;
        } else {
            crate::cli::print_verdict(&verdict)?;
        }
        return Ok(ExitCode::from(verdict.outcome.exit_code()));
    }
    let Certificate::Refutation(Refutation { method, lrat, .. }) = &certificate else {
        // The model holds a value per variable of the user's header: sized first.
        let allowance = args.memory.allowance(sizes.stored);
        let shown = gamecert_certificates::verify::shown(&args.instance);
        gamecert::api::admit_sat_answer(&instance, &shown, allowance)?;
        return export_model(&args, spec, &certificate, &verdict, quiet, started);
    };
    if args.model.is_some() {
        return Err(BadInput(format!(
            "{}: a refutation has no model; --cnf FILE and --lrat FILE write its proof",
            args.certificate.display()
        ))
        .into());
    }
    let (Some(cnf_path), Some(lrat_path)) = (&args.cnf, &args.lrat) else {
        return Err(BadInput(format!(
            "{}: a refutation exports a formula and its proof: give --cnf FILE and --lrat FILE",
            args.certificate.display()
        ))
        .into());
    };
    let original = match (method, spec.source.as_ref().and_then(|s| s.original.as_ref())) {
        (RefutationMethod::Reduction { .. }, Some(original)) => Some(original),
        _ => None,
    };
    let which = match (args.formula, original) {
        (Some(which), _) => which,
        (None, Some(_)) => Which::Original,
        (None, None) => Which::Refuted,
    };
    // Where the refutation's steps come from: the binary file, or the JSON's text.
    let steps = || -> anyhow::Result<Box<dyn Iterator<Item = Result<Decoded, String>>>> {
        let inputs = match method {
            RefutationMethod::Reduction { formula, .. } => formula.clauses.len() as u64,
            RefutationMethod::Direct => verdict.work.cnf_clauses.unwrap_or(0) as u64,
        };
        Ok(match &binary {
            Some(file) => {
                let mut read =
                    std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(file.path())?);
                let (_, offset) = binary_header(&mut read, &mut Budget::unlimited())
                    .map_err(anyhow::Error::msg)?;
                let mut decoder = Decoder::new(read, inputs, offset);
                Box::new(std::iter::from_fn(move || decoder.next_step().transpose()))
            }
            None => Box::new(text_steps(lrat).collect::<Vec<_>>().into_iter()),
        })
    };
    if let Some(dir) = lrat_path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let create = |path: &std::path::Path| {
        std::fs::File::create(path)
            .map(|file| Counted::new(std::io::BufWriter::with_capacity(1 << 20, file)))
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
    };
    let (cnf, comment, counted_out) = match (which, method) {
        (Which::Original, RefutationMethod::Reduction { reduction, formula }) => {
            let Some(original) = original else {
                return Err(BadInput(format!(
                    "{}: the instance does not record the user's formula (its `source` has no \
                     `original`); `--formula refuted` exports the formula the certificate refutes",
                    args.instance.display()
                ))
                .into());
            };
            let mut out = create(lrat_path)?;
            let written = gamecert_reductions::normalise_proof::write_original_proof(
                original,
                formula,
                steps()?,
                &mut out,
            );
            let no_proof = |why: String| {
                let _ = std::fs::remove_file(lrat_path);
                BadInput(format!(
                    "{}: no proof of the user's formula: {why}; `--formula refuted` exports the \
                     formula the certificate refutes",
                    args.instance.display()
                ))
            };
            written.map_err(no_proof)?;
            out.flush()?;
            // Checked by the trusted checker as `gamecert lrat` reads it: from the file.
            let read = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(lrat_path)?);
            check_lrat_reader(original, read, &mut Budget::unlimited()).map_err(|e| {
                no_proof(format!("the proof of the original formula is rejected: {e}"))
            })?;
            let comment = format!(
                "the user's formula, as the {} reduction recorded it",
                gamecert::base::token(reduction)
            );
            (original.clone(), comment, out)
        }
        (Which::Original, RefutationMethod::Direct) => {
            return Err(BadInput(format!(
                "{}: a `--method direct` refutation proves the checker's encoding of the game, \
                 not a formula of the user's; `--formula refuted` exports it",
                args.certificate.display()
            ))
            .into());
        }
        (Which::Refuted, method) => {
            let (cnf, comment) = match method {
                RefutationMethod::Reduction { reduction, formula } => (
                    formula.clone(),
                    format!(
                        "the formula of the {} reduction the certificate carries",
                        gamecert::base::token(reduction)
                    ),
                ),
                RefutationMethod::Direct => {
                    let encoding = gamecert_certificates::voronoi::encode::black_wins_cnf(
                        &game.graph,
                        &game.white,
                        game.black_count,
                        &mut Budget::new(u64::MAX),
                    )
                    .map_err(anyhow::Error::msg)?;
                    let comment = "the checker's encoding of \"B has a winning placement\"";
                    (encoding.cnf, comment.to_string())
                }
            };
            let mut out = create(lrat_path)?;
            write_text(steps()?, &mut out)?;
            (cnf, comment, out)
        }
    };
    let mut counted_out = counted_out;
    counted_out.flush()?;
    let (proof_bytes, proof_lines) = (counted_out.bytes, counted_out.lines);
    drop(counted_out);
    let header =
        format!("c gamecert export-proof: {comment}\nc instance {}\n", args.instance.display());
    let formula = header + &cnf.to_dimacs();
    crate::cli::write_output(Some(cnf_path), &formula)?;
    let counted = gamecert_certificates::base::text::counted;
    let summary = format!(
        "wrote {} ({}: {}, {}) and {} ({}); check them with `gamecert lrat`, `lrat-check` \
         (drat-trim) or `cake_lpr`",
        cnf_path.display(),
        match which {
            Which::Original => "the user's formula",
            Which::Refuted => "the refuted formula",
        },
        counted(u64::from(cnf.num_vars), "variable"),
        counted(cnf.clauses.len() as u64, "clause"),
        lrat_path.display(),
        counted(proof_lines, "line"),
    );
    if args.json {
        let fields = serde_json::json!({
            "claim": verdict.claim, "work": verdict.work, "formula": comment,
            "which": match which { Which::Original => "original", Which::Refuted => "refuted" },
            "instance": args.instance.display().to_string(),
            "certificate": args.certificate.display().to_string(),
            "cnf": cnf_path.display().to_string(), "cnf_bytes": formula.len(),
            "variables": cnf.num_vars, "clauses": cnf.clauses.len(),
            "lrat": lrat_path.display().to_string(), "lrat_bytes": proof_bytes,
            "lrat_lines": proof_lines,
        });
        crate::cli::print_json("export-proof", "accepted", &summary, started, fields)?;
    } else {
        crate::cli::note(quiet, &summary);
    }
    Ok(ExitCode::SUCCESS)
}

/// The text LRAT of `steps`, a line a step, to `out`, up to the empty clause.
fn write_text(
    steps: impl Iterator<Item = Result<Decoded, String>>,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    for step in steps {
        let step = step.map_err(anyhow::Error::msg)?;
        let empty = matches!(&step, Decoded::Addition { literals, .. } if literals.is_empty());
        out.write_all(step.to_text().as_bytes())?;
        if empty {
            break;
        }
    }
    Ok(())
}

/// A writer that counts the bytes and lines it passes on.
struct Counted<W: Write> {
    inner: W,
    bytes: u64,
    lines: u64,
}

impl<W: Write> Counted<W> {
    fn new(inner: W) -> Self {
        Counted { inner, bytes: 0, lines: 0 }
    }
}

impl<W: Write> Write for Counted<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(bytes)?;
        self.bytes += n as u64;
        self.lines += bytes[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A certificate as read: a binary refutation stays a file (the user's own when it is a plain
/// file, else a temporary copy of what standard input or a compressed file holds); any other
/// is JSON, read whole as the checker reads it.
enum Read {
    Binary(ProofFile),
    Json(Box<Certificate>),
}

fn read_any_certificate(path: &std::path::Path) -> anyhow::Result<Read> {
    use std::io::Read as _;
    let stdin = path == std::path::Path::new("-");
    let mut head = Vec::new();
    if !stdin {
        std::fs::File::open(path)
            .and_then(|file| file.take(8).read_to_end(&mut head))
            .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
        if head == MAGIC {
            return Ok(Read::Binary(ProofFile::existing(path, 0, 0)));
        }
    }
    let mut stream = gamecert::base::io::open_stream(path)?;
    head.clear();
    (&mut stream).take(8).read_to_end(&mut head)?;
    if head == MAGIC {
        let file = ProofFile::new_in(&std::env::temp_dir())?;
        let mut out = std::fs::File::create(file.path())?;
        out.write_all(&head)?;
        std::io::copy(&mut stream, &mut out)?;
        return Ok(Read::Binary(file));
    }
    if !stdin {
        return Ok(Read::Json(Box::new(read_certificate(path)?)));
    }
    // Standard input is read once: the rest of it, after the bytes looked at.
    stream.read_to_end(&mut head)?;
    let text = String::from_utf8(head)
        .map_err(|_| BadInput("-: the certificate is neither UTF-8 JSON nor binary".into()))?;
    let certificate = gamecert_certificates::verify::read_certificate(path, &text);
    Ok(Read::Json(Box::new(certificate.map_err(BadInput)?)))
}

/// `export-proof` on a witness the checker accepted: the model of the user's formula it gives
/// (checked against the user's clauses), as SAT-competition lines to `--model` (standard output
/// without it), and with `--cnf` the user's formula beside it.
fn export_model(
    args: &Args,
    spec: &gamecert_certificates::format::OneRoundSpec,
    certificate: &Certificate,
    verdict: &gamecert_certificates::Verdict,
    quiet: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    let shown = args.certificate.display();
    if args.lrat.is_some() {
        return Err(BadInput(format!(
            "{shown}: a witness carries no proof (--lrat is for refutations); --model FILE \
             writes the model of the user's formula it gives"
        ))
        .into());
    }
    if args.formula == Some(Which::Refuted) {
        return Err(BadInput(format!(
            "{shown}: a witness refutes nothing; it gives a model of the user's formula \
             (--formula original)"
        ))
        .into());
    }
    let answer = gamecert_reductions::sat_answer::answer(spec, certificate);
    let original = spec.source.as_ref().and_then(|s| s.original.as_ref());
    // A witness gives a checked model, or `s UNKNOWN` with the reason (never an error: the
    // files are the user's); only an instance without the user's formula has nothing to give.
    let (Some(answer), Some(original)) = (answer, original) else {
        return Err(BadInput(format!(
            "{shown}: a witness carries no proof, and {} records no formula of the user's (it \
             was not made by `gamecert reduce sat-voronoi1|2`): B's placement is all there is, \
             and `gamecert verify` checks it",
            args.instance.display()
        ))
        .into());
    };
    let lines = answer.lines();
    let counted = gamecert_certificates::base::text::counted;
    let mut fields = serde_json::json!({
        "claim": verdict.claim, "work": verdict.work, "which": "original",
        "formula": "the user's formula, as the instance records it",
        "instance": args.instance.display().to_string(),
        "certificate": shown.to_string(),
        "variables": original.num_vars, "clauses": original.clauses.len(),
        "sat_answer": answer.to_json(),
    });
    let mut written = Vec::new();
    if let Some(path) = &args.model {
        crate::cli::write_output(Some(path), &lines)?;
        fields["model"] = path.display().to_string().into();
        fields["model_bytes"] = lines.len().into();
        written.push(format!("the model to {}", path.display()));
    }
    if let Some(path) = &args.cnf {
        let header = format!(
            "c gamecert export-proof: the user's formula, as the instance records it\nc \
             instance {}\n",
            args.instance.display()
        );
        let formula = header + &original.to_dimacs();
        crate::cli::write_output(Some(path), &formula)?;
        fields["cnf"] = path.display().to_string().into();
        fields["cnf_bytes"] = formula.len().into();
        written.push(format!("the formula to {}", path.display()));
    }
    let summary = format!(
        "{} ({}, {}){}",
        match &answer {
            gamecert::api::SatAnswer::Satisfiable(_) => {
                "a model of the user's formula, checked against every clause as read".to_string()
            }
            other => format!("no model of the user's formula: s {}", other.status()),
        },
        counted(u64::from(original.num_vars), "variable"),
        counted(original.clauses.len() as u64, "clause"),
        if written.is_empty() {
            String::new()
        } else {
            format!("; wrote {}", written.join(" and "))
        }
    );
    if args.json {
        crate::cli::print_json("export-proof", "accepted", &summary, started, fields)?;
    } else {
        if args.model.is_none() {
            print!("{lines}");
        }
        crate::cli::note(quiet, &summary);
    }
    Ok(ExitCode::SUCCESS)
}

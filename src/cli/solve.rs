//! `gamecert solve INSTANCE`: solve, check with the checker, write what it accepted (exit 0),
//! or what it found and could not check within the budget (NOT CHECKED, exit 3: a finished
//! search is never thrown away); a certificate the checker rejects is never written.

use crate::cli::args::Method;
use crate::cli::note;
use crate::cli::write_output;
use clap::Args as ClapArgs;
use gamecert::base::io::{BadInput, Sizes};
use gamecert::base::sat::Backend;
use gamecert::base::solved::{ProofFile, ProofOutput};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Decision;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Solve an instance and write a certificate the checker has accepted.
#[derive(ClapArgs)]
pub struct Args {
    /// The instance: JSON, a positive DNF text (*.dnf or a `p dnf` header), or the edge-list
    /// text of a one-round Voronoi game; `-` for standard input; gzip, xz and bzip2 files are
    /// read as they are.
    instance: PathBuf,
    /// Certificate file (standard output if omitted).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// How to solve: every method is described below (`--help`); a method that does not apply
    /// to the instance's kind is refused (exit code 2).
    #[arg(long, value_enum, default_value = "auto")]
    method: Method,
    // The help names the library's default backend.
    #[arg(
        long,
        value_name = "SOLVER",
        value_parser = crate::cli::args::sat_backend(),
        help = format!("One-round games: the SAT solver of either method [default: {}]", Backend::default())
    )]
    sat: Option<Backend>,
    /// Print the command output as JSON on standard output; without -o it includes the
    /// certificate.
    #[arg(long)]
    json: bool,
    /// Triangle avoidance: write the binary `triangle-stream` certificate (checked two levels
    /// at a time) even for n <= 12; it is the only format from n = 13. Needs -o.
    #[arg(long)]
    stream: bool,
    /// With a stream certificate: the folder for the out-of-core level files (kept, so a run
    /// resumes and `table triangle-avoidance --out-of-core` reuses them); default a temporary
    /// folder, removed afterwards.
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,
    /// Triangle avoidance: instead of solving, merge the shards of the timely engine's run
    /// `table triangle-avoidance --shards DIR` (every worker's files gathered in DIR) into the
    /// stream certificate, checked as below. Needs -o.
    #[arg(long, value_name = "DIR", conflicts_with = "work_dir")]
    shards: Option<PathBuf>,
    /// Memory in GB, 0.01 to 4096 (a limit, not an allocation): with a stream certificate, the
    /// out-of-core solver's buffers (default 8); with --method prove or dfpn, the proof search's
    /// transposition table and (triangle avoidance) its cache of children (default 1).
    #[arg(long, value_name = "GB", value_parser = crate::cli::args::memory_gb())]
    memory: Option<f64>,
    /// The certificate's form: `json`, `binary` (GCVALUE1, docs/formats.md: 3 to 6 times
    /// smaller, needs -o FILE), or `auto`: binary when written to a file and its JSON would pass
    /// 4 MB (4,000,000 bytes), JSON otherwise. The check uses the budget `verify` gives the form
    /// written. `gamecert convert` turns either form into the other.
    #[arg(long, value_enum, default_value = "auto")]
    format: FormArg,
    /// Check the certificate with this many work units, 1 to 10^15, instead of the budget
    /// `gamecert verify` gives the files by default (verify then needs the same --max-work);
    /// for answers too large for the default.
    #[arg(long, value_name = "UNITS", value_parser = crate::cli::args::max_work())]
    max_work: Option<u64>,
    #[command(flatten)]
    max_memory: crate::cli::args::MaxMemory,
}

/// `--format`.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormArg {
    /// JSON.
    Json,
    /// The binary form (needs -o FILE).
    Binary,
    /// Binary for a file when the JSON would pass 4 MB.
    Auto,
}

/// Which triangle-avoidance games get a `triangle-stream` certificate: from n = 13, or any n
/// with --stream.
fn streamed(instance: &Instance, stream: bool) -> Option<usize> {
    match instance {
        Instance::TriangleAvoidance(spec)
            if stream || spec.n > gamecert::triangle_avoidance::solver::MAX_CERTIFIED_N =>
        {
            Some(spec.n)
        }
        _ => None,
    }
}

/// `solve` for a streamed triangle-avoidance certificate: the out-of-core solver, the
/// certificate written from its level files to `OUTPUT.part`, checked by the checker's stream
/// check with the budget `verify` gives, and renamed to OUTPUT only when accepted.
#[allow(clippy::too_many_arguments)]
fn solve_stream(
    (instance, sizes): (&Path, Sizes),
    n: usize,
    output: Option<&Path>,
    (work_dir, shards): (Option<PathBuf>, Option<PathBuf>),
    (engine, memory_gb): (Option<gamecert::base::proof::Engine>, Option<f64>),
    max_work: Option<u64>,
    json: bool,
    quiet: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    use gamecert::triangle_avoidance::stream_certificate;
    let Some(output) = output.filter(|p| *p != Path::new("-")) else {
        return Err(BadInput(format!(
            "{}: a triangle-avoidance certificate for n = {n} is a binary stream \
             (triangle-stream): give -o FILE",
            instance.display()
        ))
        .into());
    };
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    // Written beside the output and renamed at the end; beside a special file (`/dev/null`),
    // in the temporary folder instead.
    let part = match std::fs::metadata(output).map_or(true, |m| m.is_file()) {
        true => PathBuf::from(format!("{}.part", output.display())),
        false => std::env::temp_dir().join(format!("gamecert-{}.part", std::process::id())),
    };
    let from_shards = shards.is_some();
    let (written, solve_seconds, source, method) = match shards {
        Some(dir) => {
            let mut working = crate::cli::progress::Progress::alive("merging the shards", quiet);
            let written = stream_certificate::merge_shards(&dir, n, &part).map_err(BadInput)?;
            working.finish();
            let seconds = started.elapsed().as_secs_f64();
            let source =
                format!("merged from the timely shards in {} in {seconds:.1} s", dir.display());
            (written, seconds, source, "the timely engine's shards, merged")
        }
        None if engine.is_some() => {
            let engine = engine.unwrap_or_default();
            let memory = memory_bytes(memory_gb, gamecert::base::proof::DEFAULT_MEMORY)?;
            let mut working = crate::cli::progress::Progress::searching(quiet);
            let proof = gamecert::triangle_avoidance::prove::prove(n, memory, u64::MAX, engine)
                .map_err(BadInput)?
                .ok_or_else(|| anyhow::anyhow!("internal error: the search stopped unlimited"))?;
            let mut file = std::io::BufWriter::new(std::fs::File::create(&part)?);
            let bytes = proof.write_stream(&mut file).map_err(anyhow::Error::msg)?;
            std::io::Write::flush(&mut file)?;
            working.finish();
            let seconds = started.elapsed().as_secs_f64();
            let source = format!(
                "from a proof of {} found by {} in {seconds:.1} s ({}, a table of {})",
                counted(proof.len() as u64, "position"),
                engine.words(),
                counted(proof.stats.expansions, "expansion"),
                counted(proof.table_bytes, "byte")
            );
            let written = stream_certificate::Written {
                first_wins: proof.first_wins,
                level_sizes: Vec::new(),
                moves: 0,
                bytes,
            };
            (written, seconds, source, "df-pn proof search over unlabelled graphs")
        }
        None => {
            let memory_gb = memory_gb.unwrap_or(8.0);
            let (written, seconds, positions) =
                solve_out_of_core(n, &part, work_dir, memory_gb, quiet, started)?;
            let source = format!(
                "from {} solved out of core in {seconds:.1} s",
                counted(positions, "position")
            );
            (written, seconds, source, "the out-of-core game digraph over unlabelled graphs")
        }
    };
    // The checker's verdict on the written file, with the budget `verify` gives it.
    let checking = std::time::Instant::now();
    let mut working = crate::cli::progress::Progress::alive("checking", quiet);
    let mut work = match max_work {
        Some(max_work) => gamecert_certificates::Limits::work(max_work),
        None => sizes.verify_limits(written.bytes),
    }
    .budget();
    let file = std::fs::File::open(&part)?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let checked = gamecert_certificates::triangle_avoidance::stream::check_triangle_stream(
        n,
        &mut reader,
        &mut work,
    );
    working.finish();
    let (winner, report) = match checked {
        Ok(found) => found,
        Err(why) if work.exhausted() => {
            // Found, not checked: written all the same, and said so (exit 3).
            gamecert::base::io::put_in_place(&part, output)?;
            let winner = if written.first_wins { "A" } else { "B" };
            let text = format!(
                "found, NOT CHECKED: {winner} wins one-colour triangle avoidance on {n} nodes \
                 (a triangle-stream certificate of {}, written to {} {source}; its check ran \
                 out of budget: {why}; `gamecert verify --max-work N` with a larger N checks it)",
                counted(written.bytes, "byte"),
                output.display()
            );
            if json {
                let fields = serde_json::json!({
                    "claim": format!("{winner} wins one-colour triangle avoidance on {n} nodes"),
                    "kind": "triangle-stream", "method": method,
                    "output": output.display().to_string(), "certificate_bytes": written.bytes,
                    "solve_seconds": solve_seconds,
                });
                crate::cli::print_json("solve", "not-checked", &text, started, fields)?;
            } else {
                eprintln!("{text}");
            }
            return Ok(ExitCode::from(3));
        }
        // Merged shards are the user's files: a rejection is theirs to hear about.
        Err(why) if from_shards => {
            return Err(BadInput(format!(
                "{}: the shards merge into a certificate the checker rejects ({} is kept): {why}",
                instance.display(),
                part.display()
            ))
            .into());
        }
        Err(why) => {
            anyhow::bail!(
                "internal error: the checker rejected gamecert's own certificate ({} kept): {why}",
                part.display()
            )
        }
    };
    gamecert::base::io::put_in_place(&part, output)?;
    let check_seconds = checking.elapsed().as_secs_f64();
    let claim = format!("{winner} wins one-colour triangle avoidance on {n} nodes");
    let text = format!(
        "{claim}: triangle-stream certificate of {} ({}, {}) {source}; accepted by the \
         checker in {check_seconds:.1} s, at most {} held at once",
        counted(written.bytes, "byte"),
        counted(report.positions, "position"),
        counted(report.moves, "move"),
        counted(report.held, "position")
    );
    if json {
        let fields = serde_json::json!({
            "claim": claim,
            "kind": "triangle-stream",
            "method": method,
            "output": output.display().to_string(),
            "certificate_bytes": written.bytes,
            "solve_seconds": solve_seconds,
            "check_seconds": check_seconds,
            "work": gamecert_certificates::check::Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                work_units: work.used(),
                ..Default::default()
            },
        });
        crate::cli::print_json("solve", "accepted", &text, started, fields)?;
    } else {
        note(quiet, &text);
    }
    Ok(ExitCode::SUCCESS)
}

/// `--memory` in bytes (`default` bytes when not given), refused outside 0.01..=4096 GB.
fn memory_bytes(memory_gb: Option<f64>, default: u64) -> anyhow::Result<u64> {
    match memory_gb {
        None => Ok(default),
        Some(gb) if (0.01..=4096.0).contains(&gb) => Ok((gb * 1e9) as u64),
        Some(gb) => {
            Err(BadInput(format!("--memory must be between 0.01 and 4096 GB (got {gb})")).into())
        }
    }
}

/// The out-of-core solver's run for a stream certificate and the certificate written from its
/// level files to `part`: what was written, the seconds since `started`, the positions solved.
fn solve_out_of_core(
    n: usize,
    part: &Path,
    work_dir: Option<PathBuf>,
    memory_gb: f64,
    quiet: bool,
    started: std::time::Instant,
) -> anyhow::Result<(gamecert::triangle_avoidance::stream_certificate::Written, f64, u64)> {
    use gamecert::triangle_avoidance::{external, rules::Rules, stream_certificate};
    // --memory is in 0.01..=4096 (its parser, `crate::cli::args::memory_gb`).
    let (dir, scratch) = match work_dir {
        Some(dir) => (dir, None),
        None => {
            let scratch = crate::cli::scratch_dir("solve")?;
            (scratch.path().to_path_buf(), Some(scratch))
        }
    };
    let budget = external::Budget { memory: (memory_gb * 1e9) as u64, dir };
    note(quiet, &external::disk_estimate(n, Rules::TriangleAvoidance, &budget.dir));
    let total = external::known_positions(n, Rules::TriangleAvoidance).map(|t| 2 * t);
    let mut bar = crate::cli::progress::Progress::new("solving, steps", total, quiet);
    let found = external::solve(n, Rules::TriangleAvoidance, &budget, &mut |done, what| {
        bar.set(done);
        bar.message(what);
    })
    .map_err(BadInput)?;
    bar.finish();
    let solve_seconds = started.elapsed().as_secs_f64();
    let mut bar = crate::cli::progress::Progress::new("writing the certificate", None, quiet);
    let written = stream_certificate::write(n, &budget, part, &mut |done, what| {
        bar.set(done);
        bar.message(what);
    })
    .map_err(anyhow::Error::msg)?;
    bar.finish();
    drop(scratch); // the level files go as soon as the certificate is written
    Ok((written, solve_seconds, found.counts.positions()))
}

/// Writes a solved certificate and reports: with `--json` the command output on standard output
/// (with the certificate itself under `certificate` when there is no `-o`), otherwise the
/// certificate to `-o` or standard output and a note on standard error. The SAT user's answer
/// (an instance made by `reduce sat-voronoi1|2`) is the field `sat_answer` with `--json`;
/// otherwise its SAT-competition lines go to standard output when `-o` names a file, and to
/// standard error (unless `--quiet`) when the certificate fills standard output.
///
/// A refutation whose proof is in a binary certificate file (`proof`) is that file renamed to
/// `-o`; on standard output it is the JSON certificate, its proof turned into text as it is
/// written (never held).
#[allow(clippy::too_many_arguments)]
fn finish_solve(
    (certificate, proof, decision, binary): (
        &Certificate,
        Option<&ProofFile>,
        Decision,
        Option<&[u8]>,
    ),
    mut fields: serde_json::Value,
    note_text: &str,
    answer: Option<&gamecert::api::SatAnswer>,
    output: Option<&Path>,
    json: bool,
    quiet: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    if let Some(bytes) = binary {
        // The binary form, as checked; -o names a file (`solve` refuses it otherwise).
        let path = output.filter(|p| *p != Path::new("-"));
        let path =
            path.ok_or_else(|| anyhow::anyhow!("internal error: a binary form without -o"))?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, bytes)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        fields["output"] = path.display().to_string().into();
        fields["certificate_form"] = "binary".into();
        fields["certificate_bytes"] = bytes.len().into();
        let note_text = format!("{note_text} (written in the binary form, {} bytes)", bytes.len());
        if json {
            crate::cli::print_json("solve", decision.token(), &note_text, started, fields)?;
        } else if decision == Decision::Accepted {
            note(quiet, &note_text);
        } else {
            eprintln!("{note_text}");
        }
        return Ok(ExitCode::from(decision.exit_code()));
    }
    if let (Some(answer), true) = (answer, json) {
        fields["sat_answer"] = answer.to_json();
    }
    let file_output = output.filter(|p| *p != Path::new("-"));
    let write = |path: Option<&Path>| -> anyhow::Result<()> {
        match (proof, path) {
            (None, path) => write_output(path, &certificate.to_json()),
            (Some(proof), Some(path)) => proof
                .persist(path)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display())),
            (Some(proof), None) => {
                let mut out = std::io::BufWriter::new(std::io::stdout().lock());
                proof.write_json(certificate, &mut out).map_err(anyhow::Error::msg)?;
                Ok(std::io::Write::flush(&mut out)?)
            }
        }
    };
    if json {
        match file_output {
            Some(path) => {
                write(Some(path))?;
                fields["output"] = path.display().to_string().into();
            }
            None if proof.is_some() => {
                // The JSON output with the certificate streamed in at its place.
                fields["certificate"] = CERTIFICATE_PLACE.into();
                let seconds = started.elapsed().as_secs_f64();
                let text = gamecert_certificates::verify::output_json(
                    "solve",
                    decision.token(),
                    note_text,
                    seconds,
                    fields,
                );
                let place = format!("\"{CERTIFICATE_PLACE}\"");
                let (before, after) = text.split_once(&place).unwrap_or((&text, ""));
                print!("{before}");
                write(None)?;
                print!("{after}");
                return Ok(ExitCode::from(decision.exit_code()));
            }
            None => fields["certificate"] = serde_json::from_str(&certificate.to_json())?,
        }
        crate::cli::print_json("solve", decision.token(), note_text, started, fields)?;
    } else {
        write(file_output)?;
        if decision == Decision::Accepted {
            note(quiet, note_text);
        } else {
            // Not checked: said even with --quiet, the answer is not established.
            eprintln!("{note_text}");
        }
        match (answer, output.filter(|p| *p != Path::new("-"))) {
            (Some(answer), Some(_)) => print!("{}", answer.lines()),
            (Some(answer), None) if !quiet => eprint!("{}", answer.lines()),
            _ => {}
        }
    }
    Ok(ExitCode::from(decision.exit_code()))
}

/// What stands for the certificate in `solve --json`'s output until it is written there.
const CERTIFICATE_PLACE: &str = "gamecert: the certificate goes here";

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args {
        instance,
        output,
        method,
        sat,
        json,
        stream,
        work_dir,
        shards,
        memory,
        format,
        max_work,
        max_memory,
    } = args;
    // The binary form goes to a file only; auto writes JSON to standard output.
    let to_file = output.as_deref().is_some_and(|p| p != Path::new("-"));
    let form = match format {
        FormArg::Binary if !to_file => {
            return Err(BadInput(
                "--format binary needs -o FILE (a file, not standard output)".into(),
            )
            .into())
        }
        FormArg::Binary => gamecert::base::binary::Choice::Binary,
        FormArg::Auto if to_file => gamecert::base::binary::Choice::Auto,
        FormArg::Auto | FormArg::Json => gamecert::base::binary::Choice::Json,
    };
    let started = std::time::Instant::now();
    let mut working = crate::cli::progress::Progress::searching(quiet);
    let loaded = gamecert::api::load(&instance)?;
    // The SAT answer's model holds a value per variable the user's header declares: a witness
    // whose model would hold more than the file allows is refused before anything is written.
    let allowance = max_memory.allowance(loaded.sizes.stored);
    let one_round = matches!(loaded.instance, Instance::VoronoiOneRound(_));
    if !one_round {
        if (stream || work_dir.is_some() || shards.is_some())
            && !matches!(loaded.instance, Instance::TriangleAvoidance(_))
        {
            return Err(BadInput(format!(
                "{}: --stream, --work-dir and --shards apply to triangle-avoidance instances only",
                instance.display()
            ))
            .into());
        }
        let engine = gamecert::base::proof::Engine::of_method(method.into());
        if let (Some(n), None) = (streamed(&loaded.instance, stream || shards.is_some()), sat) {
            working.finish();
            let output = output.as_deref();
            let instance = (instance.as_path(), loaded.sizes);
            return solve_stream(
                instance,
                n,
                output,
                (work_dir, shards),
                (engine, memory),
                max_work,
                json,
                quiet,
                started,
            );
        }
    }
    // The status line names the instance's size where the registry can estimate it (the
    // estimates are the exact solvers'; a proof search names its engine and, as it runs, its
    // test and table instead).
    let kind = loaded.instance.kind();
    let engine = gamecert::base::proof::Engine::of_method(method.into());
    let estimate = match engine {
        Some(_) => None,
        None => gamecert::registry::kind(kind).and_then(|k| k.estimate?(&loaded.instance)),
    };
    working.message(&match (estimate, engine) {
        (Some(size), _) => format!("a {kind} instance, {size}"),
        (None, Some(engine)) => format!("a {kind} instance, by {}", engine.words()),
        (None, None) => format!("a {kind} instance"),
    });
    let memory = match memory {
        Some(_) => Some(memory_bytes(memory, 0)?),
        None => None,
    };
    // A refutation's proof goes to a binary certificate beside the output (renamed to it at the
    // end), or to the temporary folder when the certificate goes to standard output.
    // Beside a regular file only: `-o /dev/null` must not put files in /dev.
    let regular = |p: &&Path| std::fs::metadata(p).map_or(true, |m| m.is_file());
    let beside = output.as_deref().filter(|p| *p != Path::new("-")).filter(regular).map(|path| {
        path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
    });
    let proof = ProofOutput::File(beside.unwrap_or_else(std::env::temp_dir));
    let options = gamecert::base::solved::Options {
        method: method.into(),
        sat,
        max_work,
        memory,
        proof,
        form,
    };
    let solved = gamecert::api::solve_with(&loaded, options)?;
    // A model is checked against the user's clauses before it is printed; one that fails is
    // `s UNKNOWN` with the clause it falsifies.
    // Only a checked answer is the SAT user's answer.
    let answer = match solved.verdict.outcome {
        Decision::Accepted => {
            gamecert::api::sat_answer_within(&loaded, &solved.certificate, allowance)?
        }
        _ => None,
    };
    working.finish();
    finish_solve(
        (
            &solved.certificate,
            solved.proof_file.as_deref(),
            solved.verdict.outcome,
            solved.binary.as_deref(),
        ),
        solved.fields,
        &solved.summary,
        answer.as_ref(),
        output.as_deref(),
        json,
        quiet,
        started,
    )
}

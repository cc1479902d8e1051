//! Verifying an instance file and a certificate file: the one pipeline behind both
//! `gamecert verify` and the stand-alone `gamecert-check`, so that the two read the same
//! formats, give the same messages and exit with the same codes.
//!
//! - The instance is read first. A file whose first non-blank character is `{` is JSON
//!   ([`crate::format`]); a file named `*.dnf`, or whose first line that is neither blank nor a
//!   `c` comment is a `p dnf` header, is a positive DNF in text ([`crate::posdnf::dnf_text`]); anything
//!   else is the edge-list text of a one-round Voronoi instance ([`crate::voronoi::edgelist`]). An
//!   instance that cannot be read, does not parse (an unknown field in any object included) or
//!   is not a valid instance of its kind is bad input: exit 2, with the file, and the line and
//!   column where known.
//! - The certificate is read next, once the instance is found valid. A certificate that cannot
//!   be read or does not parse (not JSON, an unknown kind, an unknown field in any object, a
//!   wrong type) is bad input too: exit 2, with the file, line and column; nothing was checked.
//!   For a triangle-avoidance instance, a certificate that starts with the `triangle-stream`
//!   magic is not read whole: it is checked as it is read ([`crate::triangle_avoidance::stream`]),
//!   with the budget of the two files' sizes (a certificate streamed from standard input has no
//!   size before it is read: it adds nothing to the default). Likewise a one-round instance's
//!   certificate that starts with the binary refutation's magic
//!   ([`crate::sat::lrat_binary`]): its proof is checked as it is read, never held.
//! - One budget ([`Limits`], by default [`Limits::for_input`] of the two files' sizes, or
//!   `--max-work`) covers validating the instance and checking the certificate. When it runs
//!   out the verdict is NOT CHECKED (exit 3, issue 47), never a rejection: the reason names the
//!   limit and what it was doing, even if it ran out while the instance was being validated:
//!   nothing was found wrong with the input, but nothing was established either.
//! - **Sizes are as stored.** The budget grows with the files' sizes on disk (a stream has
//!   none: see below), never with what a compressed file decompresses to: a few hundred
//!   bytes of bzip2 must not buy billions of work units. A plain file's bytes are prepaid by
//!   [`Limits::for_input`]; the bytes decompression adds beyond the stored ones are charged
//!   [`crate::base::budget::WORK_PER_INPUT_BYTE`] each ([`decompression_work`]) as soon as the
//!   budget exists, before the certificate is parsed, so compression buys nothing. A reader that
//!   decompresses stops at [`decompression_cap`] while decompressing (bad input, exit 2): past
//!   it that charge alone would exceed the budget. The instance is parsed before the budget can
//!   be sized (the certificate's size is needed first), under that cap. A `triangle-stream` is
//!   charged item by item as it is read (at least one unit a byte), so its decompressed bytes
//!   are not charged again.
//! - **A stream has no stored size.** Standard input, a pipe or a device (`/dev/zero`) counts as
//!   stored in 0 bytes: its bytes are read and charged as a decompressed file's are, up to the
//!   same cap ([`read_capped`]), so an endless stream ends in bad input (exit 2) once it passes
//!   it, before anything is parsed. An LRAT proof is read a token at a time, each byte charged
//!   as it is read and no line held ([`crate::sat::lrat`]).
//! - **Parsing is paid before it runs.** A JSON instance or certificate, an edge list and a DNF
//!   text are charged, before they are parsed, a bound on what their readers hold
//!   ([`crate::base::prepay`]); the instance from a budget of its own file's size (the check's
//!   budget needs the certificate's size too, and takes over what the instance spent).
//! - Exit 0 when the certificate is accepted.
//!
//! - A file named `-` is standard input (at most one of the two). `gamecert verify` passes its
//!   own [`Reader`], which also opens compressed files; the checker's own reads plain files.
//!
//! Nothing here prints: the caller writes [`Outcome::stdout`] and [`Outcome::stderr`].

use crate::base::binary::BINARY_BYTE_WEIGHT;
use crate::base::budget::{Budget, Limits, WORK_PER_INPUT_BYTE};
pub use crate::base::command_line::{parse_args, Args, USAGE};
pub use crate::base::input::{
    decompression_cap, decompression_work, open_file, read_capped, read_file, shown, utf8, Content,
    Opener, Reader, Stream,
};
use crate::base::input::{foreign_text, is_dnf_text, open_certificate, Opened};
pub use crate::base::output::{
    error_json, output_json, verdict_heading, verdict_line, OUTPUT_FORMAT, OUTPUT_VERSION,
};
use crate::base::prepay::{prepay, Reader::Json, Reader::Words};
use crate::base::text::counted;
use crate::check::{check_one_round_with, check_with, guarded, reject, Verdict, Work};
use crate::format::{read_instance_json, Certificate, Instance, ReadInstance};
use crate::triangle_avoidance::stream::stream_verdict;
use std::path::Path;

/// What to verify and how.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    pub instance: &'a Path,
    pub certificate: &'a Path,
    /// Print the verdict as JSON.
    pub json: bool,
    /// The work budget; `None` for [`Limits::for_input`] of the two files' sizes.
    pub max_work: Option<u64>,
    /// How a file's bytes are read ([`read_file`] in `gamecert-check`), with their stored size.
    pub read: Reader,
    /// How a certificate is opened as a stream ([`open_file`] in `gamecert-check`): a
    /// `triangle-stream` certificate is read through it, never whole.
    pub open: Opener,
    /// The command's name in JSON output (`verify` or `lrat`).
    pub command: &'static str,
    /// When the command started (for `seconds` in JSON output); `None` where there is no
    /// clock (the checker built for WebAssembly: `seconds` is then 0).
    pub started: Option<std::time::Instant>,
}

/// The limits of `request` for input files of `stored` bytes together.
fn limits(request: &Request, stored: u64) -> Limits {
    request.max_work.map_or_else(|| Limits::for_input(stored), Limits::work)
}

/// Checks a `triangle-stream` certificate (after the instance, `spec`, was read from
/// `instance_stored` bytes, which spent `spent` units): its own budget of the two files'
/// stored sizes, the stream read once.
fn run_stream(
    request: &Request,
    spec: &crate::format::TriangleSpec,
    (stream, certificate_stored): (Box<dyn std::io::Read>, Option<u64>),
    (instance_stored, spent): (u64, u64),
) -> Outcome {
    if let Err(why) = spec.validate() {
        return Outcome::bad_input(format!("{}: {why}", shown(request.instance)));
    }
    // A stream from standard input has no size yet: the instance's alone sizes the budget.
    let stored = instance_stored.saturating_add(certificate_stored.unwrap_or(0));
    let mut budget = limits(request, stored).budget();
    if let Err(why) = budget.charge(spent, "reading the instance") {
        return unpaid(request, why, &budget);
    }
    let mut reader = std::io::BufReader::with_capacity(1 << 20, stream);
    let claim = format!("the Winner wins one-colour triangle avoidance on {} nodes", spec.n);
    let name = shown(request.certificate);
    let verdict =
        guarded(claim, &mut budget, |budget| stream_verdict(spec.n, &mut reader, &name, budget));
    finish(request, verdict)
}

/// Checks a binary refutation of the one-round `instance` (read from `instance_stored` bytes,
/// which spent `spent` units): the instance validated with the budget of the two files' stored
/// sizes, then the certificate read once as it is checked.
fn run_binary(
    request: &Request,
    instance: ReadInstance,
    (stream, certificate_stored): (Box<dyn std::io::Read>, Option<u64>),
    (instance_stored, spent): (u64, u64),
) -> Outcome {
    let stored = instance_stored.saturating_add(certificate_stored.unwrap_or(0));
    let mut budget = limits(request, stored).budget();
    if let Err(why) = budget.charge(spent, "reading the instance") {
        return unpaid(request, why, &budget);
    }
    let game = match instance {
        ReadInstance::OneRound(file) => file.validate_within(&mut budget),
        ReadInstance::Other(Instance::VoronoiOneRound(spec)) => spec.validate_within(&mut budget),
        _ => return Outcome::bad_input("a binary refutation is of a one-round instance".into()),
    };
    let game = match game {
        Ok(game) => game,
        Err(e) => return invalid(request, e.to_string(), &budget),
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 20, stream);
    let header = match crate::voronoi::one_round::binary_header(&mut reader, &mut budget) {
        Ok(header) => header,
        Err(why) if budget.exhausted() => return unpaid(request, why, &budget),
        Err(why) => return Outcome::bad_input(format!("{}: {why}", shown(request.certificate))),
    };
    let claim = crate::voronoi::one_round::claim_sentence(
        crate::voronoi::one_round::CLAIM_BLACK_CANNOT_WIN,
    );
    let verdict = guarded(claim, &mut budget, |budget| {
        crate::voronoi::one_round::check_binary_proof(&game, header, &mut reader, budget)
    });
    finish(request, verdict)
}

/// The result of [`run`]: the exit code (0 accepted, 1 rejected, 2 bad input, 3 not checked)
/// and the text for standard output and standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub code: u8,
    pub stdout: String,
    pub stderr: String,
    /// The verdict, when a certificate was checked (or rejected unread).
    pub verdict: Option<Verdict>,
}

impl Outcome {
    fn bad_input(message: String) -> Outcome {
        Outcome {
            code: 2,
            stdout: String::new(),
            stderr: format!("error: {}\n", crate::base::text::printable(&message)),
            verdict: None,
        }
    }
}

/// Reads an instance file (without validating it): JSON, DNF text or edge list. The error is
/// the message for the user, naming the file, line and column.
pub fn read_instance(path: &Path) -> Result<Instance, String> {
    let text = utf8(path, read_file(path, None)?.bytes)?;
    parse_instance(path, &text)
}

/// [`read_instance`] on text already read from `path`.
pub fn parse_instance(path: &Path, text: &str) -> Result<Instance, String> {
    let shown = shown(path);
    if let Some(hint) = foreign_text(text) {
        return Err(format!("{shown}: {hint}"));
    }
    if text.trim_start().starts_with('{') {
        Instance::from_json(text).map_err(|e| e.in_file(&shown, "the instance"))
    } else if is_dnf_text(path, text) {
        crate::posdnf::dnf_text::read_posdnf(text, &shown)
            .map(Instance::PosDnfGame)
            .map_err(|e| e.to_string())
    } else {
        crate::voronoi::edgelist::parse_edge_list(text).map(Instance::VoronoiOneRound).map_err(
            |e| {
                format!(
                    "{shown}:{e} (read as the edge list of a one-round Voronoi instance; a \
                     positive DNF needs a .dnf name or a `p dnf` header, other instances are JSON; \
                     a DIMACS formula becomes an instance with `gamecert reduce`)"
                )
            },
        )
    }
}

/// A validated instance: a one-round Voronoi game's graph built, any other kind as read.
enum Valid {
    OneRound(crate::format::OneRound),
    Other(Instance),
}

/// [`parse_instance`] for [`run`]: a JSON `voronoi-one-round` instance compactly.
fn parse_for_check(path: &Path, text: &str) -> Result<ReadInstance, String> {
    if foreign_text(text).is_none() && text.trim_start().starts_with('{') {
        return read_instance_json(text).map_err(|e| e.in_file(&shown(path), "the instance"));
    }
    parse_instance(path, text).map(ReadInstance::Other)
}

/// Reads a JSON certificate from `text` (from `path`); the error is the message for the user,
/// naming the file, line and column.
pub fn read_certificate(path: &Path, text: &str) -> Result<Certificate, String> {
    Certificate::from_json(text).map_err(|e| e.in_file(&shown(path), "the certificate"))
}

/// Reads a certificate in either form from its `bytes` (read from `path`): JSON text, or the
/// binary form (told by its magic), decoded charging `budget`. The error is the message for
/// the user, naming the file (with line and column, or the byte).
pub fn read_certificate_bytes(
    path: &Path,
    bytes: Vec<u8>,
    budget: &mut Budget,
) -> Result<Certificate, String> {
    if bytes.starts_with(crate::base::binary::MAGIC) {
        let read = Certificate::from_binary(std::io::Cursor::new(bytes), budget);
        return read.map_err(|e| e.in_file(&shown(path), "the certificate"));
    }
    read_certificate(path, &utf8(path, bytes)?)
}

/// Verifies the request's files; see the module docs.
pub fn run(request: &Request) -> Outcome {
    if request.instance == Path::new("-") && request.certificate == Path::new("-") {
        return Outcome::bad_input("only one of the two files can be standard input (-)".into());
    }
    let (instance_text, instance_stored) = match (request.read)(request.instance, request.max_work)
        .and_then(|c| Ok((utf8(request.instance, c.bytes)?, c.stored)))
    {
        Ok(read) => read,
        Err(message) => return Outcome::bad_input(message),
    };
    let instance_content = instance_text.len() as u64;
    // The instance is paid for before it is parsed ([`prepay`]), from a budget of its own size
    // (the check's budget needs the certificate's size too); the check's budget then takes
    // over what it spent.
    let mut parse_budget = limits(request, instance_stored).budget();
    let unpacked = decompression_work(instance_content, instance_stored);
    if let Err(why) = parse_budget.charge(unpacked, "reading the decompressed input") {
        return unpaid(request, why, &parse_budget);
    }
    let reader = if instance_text.trim_start().starts_with('{') { Json } else { Words };
    if let Err(why) = prepay(&instance_text, reader, "reading the instance", &mut parse_budget) {
        return invalid(request, why, &parse_budget);
    }
    let instance = match parse_for_check(request.instance, &instance_text) {
        Ok(instance) => instance,
        Err(message) => return Outcome::bad_input(message),
    };
    // The budget counts both files, so the certificate is read now; a certificate that cannot
    // be read is reported only once the instance is found valid. A triangle-avoidance
    // certificate may be a stream, read as it is checked; a certificate of any kind in the
    // binary form is read as it is decoded, never whole.
    // A stream read as it is checked: a triangle-avoidance certificate in the
    // `triangle-stream` form, a one-round refutation in the binary form (GCREFUT1).
    let magic = match &instance {
        ReadInstance::Other(Instance::TriangleAvoidance(_)) => {
            Some(crate::triangle_avoidance::stream::MAGIC)
        }
        ReadInstance::OneRound(_) | ReadInstance::Other(Instance::VoronoiOneRound(_)) => {
            Some(crate::sat::lrat_binary::MAGIC)
        }
        _ => None,
    };
    let opened = open_certificate(request.open, request.certificate, request.max_work, magic);
    let (certificate_read, binary) = match opened {
        Ok(Opened::Stream(stream, stored)) => {
            let (opened, spent) = ((stream, stored), (instance_stored, parse_budget.used()));
            return match instance {
                ReadInstance::Other(Instance::TriangleAvoidance(spec)) => {
                    run_stream(request, &spec, opened, spent)
                }
                one_round => run_binary(request, one_round, opened, spent),
            };
        }
        Ok(Opened::Binary(stream, stored, unpacked)) => {
            (Ok(Content { bytes: Vec::new(), stored }), Some((stream, unpacked)))
        }
        Ok(Opened::Whole(content)) => (Ok(content), None),
        Err(message) => (Err(message), None),
    };
    // What decompression added (not prepaid); a binary certificate's stored bytes weigh
    // BINARY_BYTE_WEIGHT JSON bytes each in the budget.
    let certificate_stored = certificate_read.as_ref().map_or(0, |c| c.stored);
    let (added, weighed) = match &binary {
        Some((_, unpacked)) => (*unpacked, certificate_stored.saturating_mul(BINARY_BYTE_WEIGHT)),
        None => {
            let content = certificate_read.as_ref().map_or(0, |c| c.bytes.len() as u64);
            (content.saturating_sub(certificate_stored), certificate_stored)
        }
    };
    // The parsed instance is all that is needed from here on (a large instance's text is
    // hundreds of megabytes).
    drop(instance_text);
    let mut budget = limits(request, instance_stored.saturating_add(weighed)).budget();
    // What reading the instance spent, and what decompression added to the certificate (not
    // prepaid): charged before the certificate is parsed.
    let unpacked = added.saturating_mul(WORK_PER_INPUT_BYTE);
    if let Err(why) = budget.charge(parse_budget.used(), "reading the instance") {
        return unpaid(request, why, &budget);
    }
    if let Err(why) = budget.charge(unpacked, "reading the decompressed input") {
        return unpaid(request, why, &budget);
    }
    // The instance first: a bad one is bad input (exit 2) whatever the certificate.
    let valid = match instance {
        // The compact form is dropped once the graph is built from it.
        ReadInstance::OneRound(file) => file.validate_within(&mut budget).map(Valid::OneRound),
        ReadInstance::Other(Instance::VoronoiOneRound(spec)) => {
            spec.validate_within(&mut budget).map(Valid::OneRound)
        }
        ReadInstance::Other(other) => {
            other.validate_within(&mut budget).map(|()| Valid::Other(other))
        }
    };
    let valid = match valid {
        Ok(valid) => valid,
        Err(e) => return invalid(request, e.to_string(), &budget),
    };
    // A certificate that does not parse (not JSON, an unknown kind or field, a wrong type) is
    // bad input like an instance that does not: nothing was checked.
    if let Some((stream, _)) = binary {
        let read = Certificate::from_binary(stream, &mut budget);
        return match read {
            Ok(certificate) => finish(request, check_valid(&valid, &certificate, &mut budget)),
            Err(e) if budget.exhausted() => {
                let mut verdict = reject("unknown".into(), e.message, Work::default());
                verdict.work.work_units = budget.used();
                finish(request, verdict.unless_out_of_budget(&budget))
            }
            Err(e) => Outcome::bad_input(e.in_file(&shown(request.certificate), "the certificate")),
        };
    }
    let certificate_text = match certificate_read
        .map(|content| content.bytes)
        .and_then(|bytes| utf8(request.certificate, bytes))
    {
        Ok(text) => text,
        Err(message) => return Outcome::bad_input(message),
    };
    if let Err(why) = prepay(&certificate_text, Json, "reading the certificate", &mut budget) {
        let mut verdict = reject("unknown".into(), why, Work::default());
        verdict.work.work_units = budget.used();
        return finish(request, verdict.unless_out_of_budget(&budget));
    }
    let certificate = match read_certificate(request.certificate, &certificate_text) {
        Ok(certificate) => certificate,
        Err(message) => return Outcome::bad_input(message),
    };
    drop(certificate_text);
    finish(request, check_valid(&valid, &certificate, &mut budget))
}

/// Checks `certificate` against the validated instance.
fn check_valid(valid: &Valid, certificate: &Certificate, budget: &mut Budget) -> Verdict {
    match valid {
        Valid::OneRound(game) => check_one_round_with(game, certificate, budget),
        Valid::Other(instance) => check_with(instance, certificate, budget),
    }
}

/// `gamecert-check lrat`: `request.instance` is a DIMACS CNF and `request.certificate` a text
/// or a binary LRAT proof; accepted when the proof refutes the formula ([`crate::sat::lrat`]). A formula
/// that cannot be read is bad input (exit 2); a proof that does not check is rejected (exit 1)
/// with its line.
pub fn run_lrat(request: &Request) -> Outcome {
    if request.instance == Path::new("-") && request.certificate == Path::new("-") {
        return Outcome::bad_input("only one of the two files can be standard input (-)".into());
    }
    // The formula is read whole; the proof is read line by line as it is checked (a proof of
    // gigabytes is never held whole), its stored size known up front where it has one.
    let formula = match (request.read)(request.instance, request.max_work) {
        Ok(content) => content,
        Err(message) => return Outcome::bad_input(message),
    };
    let proof = match (request.open)(request.certificate, request.max_work) {
        Ok(stream) => stream,
        Err(message) => return Outcome::bad_input(message),
    };
    let formula_stored = formula.stored;
    let formula_unpacked = decompression_work(formula.bytes.len() as u64, formula_stored);
    let formula = match utf8(request.instance, formula.bytes) {
        Ok(text) => text,
        Err(message) => return Outcome::bad_input(message),
    };
    let stored = formula_stored.saturating_add(proof.stored.unwrap_or(0));
    let mut budget = limits(request, stored).budget();
    // What decompression added was not prepaid: charged before either file is parsed.
    let unpacked =
        formula_unpacked.saturating_add(proof.unpacked.saturating_mul(WORK_PER_INPUT_BYTE));
    if let Err(why) = budget.charge(unpacked, "reading the decompressed input") {
        return unpaid(request, why, &budget);
    }
    let claim = "the formula is unsatisfiable".to_string();
    let cnf = match crate::sat::dimacs::parse_cnf(&formula, &mut budget) {
        Ok(cnf) => cnf,
        Err(message) => return invalid(request, message, &budget),
    };
    let mut work = Work {
        cnf_variables: Some(cnf.num_vars),
        cnf_clauses: Some(cnf.clauses.len()),
        ..Work::default()
    };
    let lines = std::io::BufReader::with_capacity(1 << 20, proof.read);
    let verdict = match crate::sat::lrat_binary::check_any_lrat(&cnf, lines, &mut budget) {
        Ok(report) => {
            work.lrat_additions = Some(report.additions);
            work.lrat_deletions = Some(report.deletions);
            work.lrat_hints = Some(report.hints);
            work.lrat_rat_additions = (report.rat_additions > 0).then_some(report.rat_additions);
            work.work_units = budget.used();
            Verdict {
                outcome: crate::verdict::Decision::Accepted,
                claim,
                reason: format!(
                    "{} refutes {} ({}, {}): {} checked ({} by reverse unit propagation, {} as \
                     RAT steps), the empty clause at id {}",
                    shown(request.certificate),
                    shown(request.instance),
                    counted(u64::from(cnf.num_vars), "variable"),
                    counted(cnf.clauses.len() as u64, "clause"),
                    counted(report.additions, "addition"),
                    report.additions - report.rat_additions,
                    report.rat_additions,
                    report.empty_clause_id
                ),
                work,
                trusted: Vec::new(),
            }
        }
        Err(err) => {
            work.work_units = budget.used();
            reject(claim, format!("{}: {err}", shown(request.certificate)), work)
                .unless_out_of_budget(&budget)
        }
    };
    finish(request, verdict)
}

/// The budget cannot pay for the bytes decompression added: not checked, naming the limit.
fn unpaid(request: &Request, why: String, budget: &Budget) -> Outcome {
    let reason = format!(
        "{why} (a compressed file's bytes beyond its stored size, and the bytes of a stream with \
         no stored size (standard input, a pipe), cost {WORK_PER_INPUT_BYTE} units each: \
         decompress or save it to a file first, a plain file's bytes are prepaid)"
    );
    let mut verdict = reject("unknown".into(), reason, Work::default());
    verdict.work.work_units = budget.used();
    finish(request, verdict.unless_out_of_budget(budget))
}

/// An instance that failed validation: bad input, or "not checked" when the budget ran out.
fn invalid(request: &Request, message: String, budget: &Budget) -> Outcome {
    // A parser's message starts with its line and column; a validation's with a field.
    let sep = if message.starts_with(|c: char| c.is_ascii_digit()) { ":" } else { ": " };
    let located = format!("{}{sep}{message}", shown(request.instance));
    if !budget.exhausted() {
        return Outcome::bad_input(located);
    }
    let mut verdict =
        reject("unknown".into(), format!("{located} (validating the instance)"), Work::default());
    verdict.work.work_units = budget.used();
    finish(request, verdict.unless_out_of_budget(budget))
}

/// The outcome of `verdict` as `request` asks it printed (text or JSON), with its exit code.
pub fn finish(request: &Request, verdict: Verdict) -> Outcome {
    let outcome = verdict.outcome;
    let stdout = if request.json {
        let token = outcome.token();
        let summary = verdict_heading(outcome, &verdict.claim);
        let mut fields = serde_json::json!({
            "claim": verdict.claim, "reason": verdict.reason, "work": verdict.work,
            "trusted": verdict.trusted,
        });
        let (first, second) = if request.command == "lrat" {
            ("formula", "proof")
        } else {
            ("instance", "certificate")
        };
        fields[first] = shown(request.instance).into();
        fields[second] = shown(request.certificate).into();
        output_json(
            request.command,
            token,
            &summary,
            request.started.map_or(0.0, |started| started.elapsed().as_secs_f64()),
            fields,
        )
    } else {
        let mut text = verdict_line(outcome, &verdict.claim, &verdict.reason);
        for theorem in &verdict.trusted {
            text.push_str(&format!("trusted: {theorem}\n"));
        }
        if request.command == "lrat" {
            // The SAT world's status line, as drat-trim and cake_lpr end theirs.
            text.push_str(match outcome {
                crate::verdict::Decision::Accepted => "s VERIFIED\n",
                crate::verdict::Decision::Rejected => "s NOT VERIFIED\n",
                crate::verdict::Decision::NotChecked => "s UNKNOWN\n",
            });
        }
        text
    };
    Outcome { code: outcome.exit_code(), stdout, stderr: String::new(), verdict: Some(verdict) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_told_apart() {
        let dnf = Path::new("f.txt");
        assert!(is_dnf_text(dnf, "c a comment\n\np dnf 3 1\n1 2\n"));
        assert!(is_dnf_text(Path::new("f.dnf"), "1 2\n"));
        assert!(!is_dnf_text(dnf, "c d\nwhite c\nblack 1\n"));
        assert!(matches!(parse_instance(dnf, "p dnf 2 1\n1 2\n"), Ok(Instance::PosDnfGame(_))));
        assert!(matches!(
            parse_instance(dnf, "white a\nblack 1\na b\n"),
            Ok(Instance::VoronoiOneRound(_))
        ));
        let err = parse_instance(dnf, "1 2 3\n").unwrap_err();
        assert!(err.starts_with("f.txt:1:1:"), "{err}");
        assert!(err.contains("`p dnf` header"), "{err}");
    }

    /// A reader standing for a compressed file: the file's bytes, said to be stored in 100.
    fn stored_in_100(path: &Path, _: Option<u64>) -> Result<Content, String> {
        read_file(path, None).map(|content| Content { bytes: content.bytes, stored: 100 })
    }

    /// An opener standing for a compressed file stored in 100 bytes.
    fn opened_from_100(path: &Path, _: Option<u64>) -> Result<Stream, String> {
        open_file(path, None).map(|stream| Stream { stored: Some(100), ..stream })
    }

    /// Issue 24: the budget comes from the stored sizes on every path (whole certificates,
    /// LRAT, a `triangle-stream`), and the bytes decompression adds are charged: an instance
    /// of 32 MB stored in 100 bytes exhausts the budget of 2 * 10^9 + 64 * 100 units (its own,
    /// before the certificate is read; with the proof's 100 bytes for a formula) before
    /// anything else is done (sized from its 32 MB, the budget once grew by 2 * 10^9).
    #[test]
    fn the_budget_is_sized_from_stored_bytes_on_every_path() {
        let dir = std::env::temp_dir().join(format!("gamecert-stored-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let padded = |name: &str, text: &str| {
            let path = dir.join(name);
            std::fs::write(&path, format!("{text}{}", " ".repeat(32_000_000))).unwrap();
            path
        };
        let heaps = padded(
            "heaps.json",
            r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game", "game": "kayles", "heaps": [1]}"#,
        );
        let triangle = padded(
            "triangle.json",
            r#"{"format": "gamecert-instance", "version": 1, "kind": "triangle-avoidance", "n": 3}"#,
        );
        let formula = padded("f.cnf", "p cnf 1 2\n1 0\n-1 0\n");
        let certificate = dir.join("c");
        std::fs::write(&certificate, b"GCTASTR1 and anything").unwrap();
        fn request<'a>(instance: &'a Path, certificate: &'a Path, lrat: bool) -> Request<'a> {
            Request {
                instance,
                certificate,
                json: false,
                max_work: None,
                read: stored_in_100,
                open: opened_from_100,
                command: if lrat { "lrat" } else { "verify" },
                started: Some(std::time::Instant::now()),
            }
        }
        let outcomes = [
            run(&request(&heaps, &certificate, false)),
            run(&request(&triangle, &certificate, false)),
            run_lrat(&request(&formula, &certificate, true)),
        ];
        // A JSON instance is paid for from a budget of its own stored size (2 * 10^9 + 64 *
        // 100), before the certificate is read; the formula of `lrat` with its proof's.
        for (outcome, budget) in
            outcomes.into_iter().zip([2_000_006_400u64, 2_000_006_400, 2_000_012_800])
        {
            assert_eq!(outcome.code, 3, "not checked: {outcome:?}");
            let reason = &outcome.verdict.expect("a verdict").reason;
            let expected = format!(
                "work limit reached while reading the decompressed input: the check needs more \
                 than the {budget} work units"
            );
            assert!(reason.starts_with(&expected), "{reason}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

//! The library's one facade for callers other than the command line's own plumbing: the
//! Python package (`python/`) and `gamecert solve`/`reduce` call these, so that an instance is
//! read, solved, checked and drawn the same way everywhere. Each function is a thin call of the
//! family code: reading through [`crate::base::io`] (positioned [`BadInput`] errors,
//! compressed files), solving through the registry ([`crate::registry`]), checking with
//! [`gamecert_certificates::check`], tables through [`crate::table`], pictures through
//! [`crate::render`].

use crate::base::io::{parse_sized_instance, validate_instance, validate_one_round};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{Certificate, Instance, MultiRoundSpec};
use gamecert_certificates::voronoi::instance::GraphSpec;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Decision, Limits, Verdict};
use std::path::Path;

pub use crate::base::io::{BadInput, Sizes};
pub use crate::base::method::Method;
pub use crate::base::sat::Backend;
pub use crate::base::solved::{ProofFile, ProofOutput};
pub use crate::render::{Drawing, Format, RenderError};
pub use crate::table::{Request as TableRequest, Table};
pub use gamecert_reductions::sat_answer::SatAnswer;
use std::sync::Arc;

/// An instance as read and validated, with what it was read from.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub instance: Instance,
    /// Its size as stored and as read: the budget `verify` would give it depends on them.
    pub sizes: Sizes,
    /// What error messages call it: the file, or the name given with the text.
    pub name: String,
}

impl Loaded {
    /// Validates `instance` read from `name`.
    fn new(instance: Instance, sizes: Sizes, name: &Path) -> Result<Loaded, BadInput> {
        match &instance {
            Instance::VoronoiOneRound(spec) => {
                validate_one_round(name, spec)?;
            }
            other => validate_instance(name, other)?,
        }
        let name = gamecert_certificates::verify::shown(name);
        Ok(Loaded { instance, sizes, name })
    }

    /// `instance`, validated, as if read from its JSON text under `name`.
    pub fn from_instance(instance: Instance, name: &str) -> Result<Loaded, BadInput> {
        let size = instance.to_json().len() as u64;
        Loaded::new(instance, Sizes { stored: size, content: size }, Path::new(name))
    }
}

/// Reads and validates an instance file as every command does: JSON, a positive DNF text, or
/// the edge-list text; `-` is standard input; gzip, xz and bzip2 are decompressed.
pub fn load(path: &Path) -> Result<Loaded, BadInput> {
    let (instance, sizes) = parse_sized_instance(path)?;
    Loaded::new(instance, sizes, path)
}

/// [`load`] of a file's text; `name` stands for the file in messages (and a name ending in
/// `.dnf` reads a DNF text without its `p dnf` header, as a file of that name would).
pub fn loads(text: &str, name: &str) -> Result<Loaded, BadInput> {
    let instance =
        gamecert_certificates::verify::parse_instance(Path::new(name), text).map_err(BadInput)?;
    let size = text.len() as u64;
    Loaded::new(instance, Sizes { stored: size, content: size }, Path::new(name))
}

/// Reads a certificate's JSON text (`name` stands for its file in messages).
pub fn certificate_from_text(text: &str, name: &str) -> Result<Certificate, BadInput> {
    gamecert_certificates::verify::read_certificate(Path::new(name), text).map_err(BadInput)
}

/// The reductions of `gamecert reduce`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// 3-SAT to Problem 1 (W holds u): seed 001, Theorem 3.
    SatVoronoi1,
    /// 3-SAT to Problem 2 (W holds u and n-1 pendants): seed 001, Corollary 1.
    SatVoronoi2,
    /// The positive-DNF game to the multi-round game: seed 001, Theorem 4.
    PosdnfVoronoi,
    /// No reduction: the positive-DNF game itself as a `posdnf-game` instance.
    PosdnfGame,
}

impl Reduction {
    /// Every reduction, in the command line's order.
    pub const ALL: [Reduction; 4] = [
        Reduction::SatVoronoi1,
        Reduction::SatVoronoi2,
        Reduction::PosdnfVoronoi,
        Reduction::PosdnfGame,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Reduction::SatVoronoi1 => "sat-voronoi1",
            Reduction::SatVoronoi2 => "sat-voronoi2",
            Reduction::PosdnfVoronoi => "posdnf-voronoi",
            Reduction::PosdnfGame => "posdnf-game",
        }
    }
}

impl std::str::FromStr for Reduction {
    type Err = BadInput;

    fn from_str(name: &str) -> Result<Reduction, BadInput> {
        crate::base::by_name(&Reduction::ALL, Reduction::name, "reduction", name).map_err(BadInput)
    }
}

/// A reduced instance, the notes `gamecert reduce` prints (warnings, normalisation, sizes) and
/// the counts its `--json` output gives (`warnings`, `variables`, `vertices`, ...).
#[derive(Clone, Debug)]
pub struct Reduced {
    pub instance: Instance,
    pub notes: Vec<String>,
    pub fields: serde_json::Value,
}

/// Builds an instance from a formula's text (DIMACS CNF for the 3-SAT reductions, the DNF text
/// for the others) read from `name`, within the allowance of a file of the text's length
/// ([`reduce_within`]).
pub fn reduce(reduction: Reduction, text: &str, name: &Path) -> Result<Reduced, BadInput> {
    let allowance = crate::base::limits::Allowance::of_file(text.len() as u64);
    reduce_within(reduction, text, name, allowance)
}

/// Bytes posdnf-voronoi holds per vertex or edge of its graph: the built graph, its instance
/// and the instance's JSON text. Measured: 206 (peak resident memory of `gamecert reduce
/// posdnf-voronoi` with `-o /dev/null` over the graph's vertices and edges, n = 1000 and 2000,
/// 2026-12-07).
pub const POSDNF_VORONOI_BYTES_PER_ITEM: u128 = 208;

/// [`reduce`] within `allowance`: what the text's header declares may make the reduction
/// build at most that much (posdnf-voronoi's 2n^2 + 7n + m + 2 vertices grow with the declared
/// n, used or not; the 3-SAT reductions keep only the variables the clauses use, so they grow
/// with the text), or the refusal names the header ([`crate::base::limits`]).
pub fn reduce_within(
    reduction: Reduction,
    text: &str,
    name: &Path,
    allowance: crate::base::limits::Allowance,
) -> Result<Reduced, BadInput> {
    let shown = gamecert_certificates::verify::shown(name);
    let mut notes = Vec::new();
    let problem = match reduction {
        Reduction::SatVoronoi1 => SatVoronoi::Problem1,
        Reduction::SatVoronoi2 => SatVoronoi::Problem2,
        Reduction::PosdnfVoronoi | Reduction::PosdnfGame => {
            let parsed = gamecert_certificates::posdnf::dnf_text::parse_posdnf(text, &shown)
                .map_err(|e| BadInput(e.to_string()))?;
            notes.extend(parsed.warnings.iter().map(|w| format!("warning: {w}")));
            let mut fields = serde_json::json!({
                "warnings": parsed.warnings,
                "variables": parsed.dnf.num_vars,
                "terms": parsed.dnf.terms.len(),
            });
            if reduction == Reduction::PosdnfGame {
                let instance = Instance::PosDnfGame(parsed.dnf);
                return Ok(Reduced { instance, notes, fields });
            }
            admit_posdnf_voronoi(&parsed.dnf, text, &shown, allowance)?;
            let built = gamecert_reductions::posdnf_voronoi::build(&parsed.dnf)
                .map_err(|e| BadInput(format!("{shown}: {e}")))?;
            let n = built.padded.num_vars as usize;
            notes.push(format!(
                "posdnf-voronoi: {} vertices (2n^2 + 7n + m + 2 with n = {n}{}, m = {}), {} rounds each",
                built.graph.vertices.len(),
                if n as u32 != parsed.dnf.num_vars { ", padded from an odd count" } else { "" },
                built.padded.terms.len(),
                built.rounds
            ));
            fields["vertices"] = built.graph.vertices.len().into();
            fields["edges"] = built.graph.edges.len().into();
            fields["rounds"] = built.rounds.into();
            let instance = Instance::Voronoi(MultiRoundSpec {
                graph: built.graph,
                rounds: built.rounds,
                start: None,
                source: Some(serde_json::json!({
                    "reduction": "posdnf-voronoi",
                    "formula": built.padded,
                })),
            });
            return Ok(Reduced { instance, notes, fields });
        }
    };
    let parsed = gamecert_reductions::dimacs::parse_dimacs(text, &shown)
        .map_err(|e| BadInput(e.to_string()))?;
    notes.extend(parsed.warnings.iter().map(|w| format!("warning: {w}")));
    let reduced = gamecert_reductions::sat_voronoi::reduce(&parsed.cnf, problem)
        .map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let normalisation = reduced.normalised.map.report();
    notes.extend(normalisation.iter().map(|l| format!("normalisation: {l}")));
    let spec = &reduced.instance;
    notes.push(format!(
        "{}: {} vertices (10n + 2m - 1 with n = {}, m = {}), W holds {}, B places {}",
        problem.name(),
        spec.graph.vertices.len(),
        reduced.normalised.formula.num_vars,
        reduced.normalised.formula.clauses.len(),
        spec.white.len(),
        spec.black_count
    ));
    let fields = serde_json::json!({
        "warnings": parsed.warnings,
        "normalisation": normalisation,
        "variables": reduced.normalised.formula.num_vars,
        "clauses": reduced.normalised.formula.clauses.len(),
        "vertices": spec.graph.vertices.len(),
        "edges": spec.graph.edges.len(),
        "white": spec.white.len(),
        "black_count": spec.black_count,
    });
    Ok(Reduced { instance: Instance::VoronoiOneRound(reduced.instance), notes, fields })
}

/// Refuses a DNF whose posdnf-voronoi image would hold more than `allowance`: 2n^2 + 7n + m + 2
/// vertices and n(n - 1)/2 + 2n^2 + 6n + m + 1 + (the terms' variables) edges, for n declared
/// variables (padded to even) and m terms, [`POSDNF_VORONOI_BYTES_PER_ITEM`] bytes each. The
/// refusal names the header (`p dnf V T`), or the file when it has none (then n is the
/// largest variable used, which the text pays for).
fn admit_posdnf_voronoi(
    dnf: &gamecert_certificates::posdnf::dnf::PosDnf,
    text: &str,
    shown: &str,
    allowance: crate::base::limits::Allowance,
) -> Result<(), BadInput> {
    let n = u128::from(dnf.num_vars) + u128::from(dnf.num_vars % 2);
    let m = dnf.terms.len() as u128;
    let literals: u128 = dnf.terms.iter().map(|t| t.len() as u128).sum();
    let vertices = 2 * n * n + 7 * n + m + 2;
    let edges = n * n.saturating_sub(1) / 2 + 2 * n * n + 6 * n + m + 1 + literals;
    let bytes = (vertices + edges).saturating_mul(POSDNF_VORONOI_BYTES_PER_ITEM);
    let variables = crate::base::limits::grouped_count(dnf.num_vars, "variable");
    let (at, declares) = match header_position(text) {
        Some((line, column)) => {
            (format!("{shown}:{line}:{column}"), format!("the header declares {variables}"))
        }
        None => (shown.to_string(), format!("the formula uses {variables}")),
    };
    let builds = format!(
        "the reduction's {} vertices and {} edges",
        crate::base::limits::grouped(vertices),
        crate::base::limits::grouped(edges)
    );
    allowance.admit(&at, &declares, &builds, bytes)
}

/// The 1-based line and column of a DNF text's `p` header, if it has one: the first line that
/// is neither blank nor a comment and starts with the word `p` (the reader has accepted the
/// text, so that line is its header).
fn header_position(text: &str) -> Option<(usize, usize)> {
    use gamecert_certificates::base::text::{lines, tokenize};
    for (index, line) in lines(text).enumerate() {
        let (tokens, _) = tokenize(line);
        match tokens.first() {
            None => continue,
            Some(first) if first.text.starts_with('c') => continue,
            Some(first) if first.text == "p" => return Some((index + 1, first.column)),
            Some(_) => return None,
        }
    }
    None
}

/// A certificate the checker accepted, its verdict, and what `gamecert solve` reports of it:
/// the fields of its `--json` output and its one-line note.
#[derive(Clone, Debug)]
pub struct Solved {
    pub certificate: Certificate,
    pub verdict: Verdict,
    pub fields: serde_json::Value,
    pub summary: String,
    /// A one-round refutation solved with [`ProofOutput::File`]: the certificate is this binary
    /// file, and `certificate` holds its header's fields (an empty `lrat`).
    pub proof_file: Option<Arc<ProofFile>>,
    /// The binary form the certificate was checked in, to be written as it is (`None`: JSON).
    pub binary: Option<Vec<u8>>,
}

/// Solves `loaded` with `method` (and, for one-round games, the SAT backend `sat`, by default
/// CaDiCaL), then checks the certificate with the checker under the budget `verify` gives the
/// instance and certificate files; only an accepted certificate is returned (a rejection is an
/// internal error). A one-round refutation's proof goes to a binary certificate in the
/// system's temporary folder ([`Solved::proof_file`], removed when the last handle on it goes),
/// never into memory. A triangle-avoidance game past n = 12 needs the binary stream
/// certificate, which only `gamecert solve -o FILE` writes.
pub fn solve(loaded: &Loaded, method: Method, sat: Option<Backend>) -> anyhow::Result<Solved> {
    solve_within(loaded, method, sat, None)
}

/// [`solve`], checking the certificate with `max_work` work units (as `gamecert verify
/// --max-work` would) when given, in place of the default budget. A one-round refutation's
/// proof goes to a binary certificate in the system's temporary folder.
pub fn solve_within(
    loaded: &Loaded,
    method: Method,
    sat: Option<Backend>,
    max_work: Option<u64>,
) -> anyhow::Result<Solved> {
    let proof = ProofOutput::File(std::env::temp_dir());
    let options =
        crate::base::solved::Options { method, sat, max_work, proof, ..Default::default() };
    solve_with(loaded, options)
}

/// [`solve_within`] with every option of a solve method (also the proof search's table size).
pub fn solve_with(
    loaded: &Loaded,
    options: crate::base::solved::Options,
) -> anyhow::Result<Solved> {
    let (sat, max_work, form) = (options.sat, options.max_work, options.form);
    let name = &loaded.name;
    let instance = &loaded.instance;
    if sat.is_some() && !matches!(instance, Instance::VoronoiOneRound(_)) {
        return Err(BadInput(format!(
            "{name}: --sat applies to one-round Voronoi instances only (a {} instance)",
            instance.kind()
        ))
        .into());
    }
    if let Instance::TriangleAvoidance(spec) = instance {
        let most = crate::triangle_avoidance::solver::MAX_CERTIFIED_N;
        if spec.n > most {
            return Err(BadInput(format!(
                "{name}: a triangle-avoidance certificate for n = {} > {most} is a binary stream \
                 (triangle-stream): `gamecert solve FILE -o CERT` writes it",
                spec.n
            ))
            .into());
        }
    }
    let started = std::time::Instant::now();
    let solved = crate::registry::solve(instance, &options).map_err(|e| {
        match e.downcast_ref::<BadInput>() {
            Some(bad) => BadInput(format!("{name}: {bad}")).into(),
            None => e.context(format!("{name}: no certificate")),
        }
    })?;
    let (certificate, nodes, proof_file) = (solved.certificate, solved.nodes, solved.proof_file);
    if solved.checked.is_some() && form == crate::base::binary::Choice::Binary {
        return Err(BadInput(format!(
            "{name}: a {} certificate is written as JSON: the one-round pipeline checks it as \
             JSON (--format binary applies to the other kinds)",
            certificate.kind()
        ))
        .into());
    }
    if let Some(checked) = solved.checked {
        if checked.verdict.outcome == Decision::Rejected {
            return Err(own_certificate_rejected(&checked.verdict));
        }
        if checked.verdict.outcome == Decision::NotChecked {
            let summary = not_checked_summary(&checked.verdict, &certificate, &solved.method);
            let (verdict, fields) = (checked.verdict, checked.fields);
            return Ok(Solved { certificate, verdict, fields, summary, proof_file, binary: None });
        }
        let (verdict, fields, summary) = (checked.verdict, checked.fields, checked.summary);
        return Ok(Solved { certificate, verdict, fields, summary, proof_file, binary: None });
    }
    let solve_seconds = started.elapsed().as_secs_f64();
    // Checked with the budget `verify` gives the two files by default, so that what solve
    // writes, verify accepts without --max-work; the binary form as `verify` reads it, decoded
    // by the checker's reader under that budget.
    let encoded = crate::base::binary::encode(&certificate, form)?;
    let weighed = match encoded.form {
        crate::base::binary::Form::Binary => {
            encoded.bytes.saturating_mul(gamecert_certificates::base::binary::BINARY_BYTE_WEIGHT)
        }
        crate::base::binary::Form::Json => encoded.bytes,
    };
    let limits = match max_work {
        Some(max_work) => Limits::work(max_work),
        None => loaded.sizes.verify_limits(weighed),
    };
    let verdict = match &encoded.binary {
        Some(bytes) => check_binary(instance, &certificate, bytes, &limits)?,
        None => check(instance, &certificate, &limits),
    };
    if verdict.outcome == Decision::Rejected {
        return Err(own_certificate_rejected(&verdict));
    }
    let fields = serde_json::json!({
        "claim": verdict.claim,
        "kind": certificate.kind(),
        "method": solved.method,
        "search_nodes": nodes,
        "solve_seconds": solve_seconds,
        "work": verdict.work,
    });
    let summary = match verdict.outcome {
        Decision::NotChecked => not_checked_summary(&verdict, &certificate, &solved.method),
        _ => format!(
            "{}: {} certificate by {}, {} in {solve_seconds:.3} s; accepted by the checker: {}",
            verdict.claim,
            certificate.kind(),
            solved.method,
            counted(nodes, "search node"),
            verdict.reason
        ),
    };
    Ok(Solved { certificate, verdict, fields, summary, proof_file, binary: encoded.binary })
}

/// The checker's verdict on `certificate` written in the binary form as `bytes`: read back by
/// the checker's reader under `limits`, which must give `certificate` again, then checked with
/// what is left (as `verify` does).
fn check_binary(
    instance: &Instance,
    certificate: &Certificate,
    bytes: &[u8],
    limits: &Limits,
) -> anyhow::Result<Verdict> {
    let mut budget = limits.budget();
    let reader = std::io::Cursor::new(bytes);
    match Certificate::from_binary(reader, &mut budget) {
        Ok(read) if read == *certificate => {
            Ok(gamecert_certificates::check::check_with(instance, &read, &mut budget))
        }
        Ok(_) => Err(anyhow::anyhow!("internal error: the binary form reads back otherwise")),
        Err(e) if budget.exhausted() => {
            let mut verdict = Verdict {
                outcome: Decision::NotChecked,
                claim: certificate.claim(),
                reason: e.message,
                work: Default::default(),
                trusted: Vec::new(),
            };
            verdict.work.work_units = budget.used();
            Ok(verdict)
        }
        Err(e) => Err(anyhow::anyhow!("internal error: the binary form does not read back: {e}")),
    }
}

/// What `solve` says of an answer it found but could not check within the budget (issue 47: a
/// finished search is never thrown away): the certificate is written, the answer stated as
/// found and not checked, with the budget that would check it.
fn not_checked_summary(verdict: &Verdict, certificate: &Certificate, method: &str) -> String {
    format!(
        "found by {method}, NOT CHECKED: {} (a {} certificate, written; its check ran out of \
         budget: {}; `gamecert verify --max-work N` with a larger N checks it)",
        verdict.claim,
        certificate.kind(),
        verdict.reason
    )
}

/// The error for a certificate of gamecert's own that the checker rejected: a fault of the
/// solver or the checker, reported as an internal error (a certificate whose check ran out of
/// budget is no error: it is written, not checked).
pub fn own_certificate_rejected(verdict: &Verdict) -> anyhow::Error {
    anyhow::anyhow!(
        "internal error: the checker rejected gamecert's own certificate: {}",
        verdict.reason
    )
}

/// What `certificate`, which the checker has accepted for `loaded`, says of the SAT user's own
/// formula, for an instance made by `gamecert reduce sat-voronoi1|2` (`None` for any other):
/// a model of the user's variables, checked against the user's clauses as read, or
/// unsatisfiable ([`gamecert_reductions::sat_answer`]). A model that fails that check is no
/// answer: `Unknown`, with the clause it falsifies.
///
/// The model holds one value per variable the user's header declares, used or not: past the
/// allowance of the instance's file ([`admit_sat_answer`]) the answer is `Unknown`, saying so.
pub fn sat_answer(loaded: &Loaded, certificate: &Certificate) -> Option<SatAnswer> {
    let allowance = crate::base::limits::Allowance::of_file(loaded.sizes.stored);
    match sat_answer_within(loaded, certificate, allowance) {
        Ok(answer) => answer,
        Err(refused) => Some(SatAnswer::Unknown(refused.0)),
    }
}

/// [`sat_answer`] within `allowance`: refused (bad input) past it ([`admit_sat_answer`]).
pub fn sat_answer_within(
    loaded: &Loaded,
    certificate: &Certificate,
    allowance: crate::base::limits::Allowance,
) -> Result<Option<SatAnswer>, BadInput> {
    let Instance::VoronoiOneRound(spec) = &loaded.instance else { return Ok(None) };
    if matches!(certificate, Certificate::Witness(_)) {
        // Only a witness gives a model (a refutation's answer is one line).
        admit_sat_answer(&loaded.instance, &loaded.name, allowance)?;
    }
    Ok(gamecert_reductions::sat_answer::answer(spec, certificate))
}

/// Bytes the SAT user's answer holds per variable the user's formula declares: the model, its
/// `v` lines and its JSON. Measured: 52 (`gamecert solve --json` on an instance whose recorded
/// formula declares 10^7 variables, peak resident memory, 2026-12-07).
pub const SAT_ANSWER_BYTES_PER_VARIABLE: u128 = 56;

/// Refuses an instance made by `reduce sat-voronoi1|2` whose recorded formula
/// (`source.original`, the user's own) declares more variables than `allowance` lets the SAT
/// answer's model hold: the `v` lines name every variable of the user's header, used or not
/// ([`crate::base::limits`]). Any other instance passes. Checked once a witness is found (a
/// refutation needs no model), before anything is written.
pub fn admit_sat_answer(
    instance: &Instance,
    name: &str,
    allowance: crate::base::limits::Allowance,
) -> Result<(), BadInput> {
    let Instance::VoronoiOneRound(spec) = instance else { return Ok(()) };
    let Some(original) = spec.source.as_ref().and_then(|s| s.original.as_ref()) else {
        return Ok(());
    };
    allowance.admit(
        name,
        &format!(
            "the user's formula it records (`source.original`) declares {}",
            crate::base::limits::grouped_count(original.num_vars, "variable")
        ),
        "the SAT answer's model",
        u128::from(original.num_vars) * SAT_ANSWER_BYTES_PER_VARIABLE,
    )
}

/// The checker's verdict on `certificate` for `loaded`, with the budget `gamecert verify`
/// gives the two files (`max_work` in its place when given). A rejection is a verdict, not an
/// error.
pub fn verify(loaded: &Loaded, certificate: &Certificate, max_work: Option<u64>) -> Verdict {
    let limits = match max_work {
        Some(max_work) => Limits::work(max_work),
        None => loaded.sizes.verify_limits(crate::base::binary::certificate_size(
            certificate,
            crate::base::binary::Form::Json,
        )),
    };
    check(&loaded.instance, certificate, &limits)
}

/// A binary refutation certificate in the file `path` (told by its magic), as `solve` returns
/// one: the header's fields and the file; `None` for any other file. The header is read under
/// the budget `verify` gives a file of its size.
pub fn binary_refutation(
    path: &Path,
) -> Result<Option<(Certificate, Arc<crate::base::solved::ProofFile>)>, BadInput> {
    use std::io::Read;
    let shown = gamecert_certificates::verify::shown(path);
    let io = |e: std::io::Error| BadInput(format!("{shown}: {e}"));
    let mut file = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut head = Vec::new();
    (&mut file).take(8).read_to_end(&mut head).map_err(io)?;
    if head != gamecert_certificates::sat::lrat_binary::MAGIC {
        return Ok(None);
    }
    let bytes = std::fs::metadata(path).map_err(io)?.len();
    let mut file = std::io::BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut budget = Limits::for_input(bytes).budget();
    let (header, _) =
        gamecert_certificates::voronoi::one_round::binary_header(&mut file, &mut budget)
            .map_err(|why| BadInput(format!("{shown}: {why}")))?;
    let proof = crate::base::solved::ProofFile::existing(path, bytes, 0);
    Ok(Some((Certificate::Refutation(header), Arc::new(proof))))
}

/// The checker's verdict on the binary refutation certificate in the file `path` for
/// `loaded` (a one-round instance), read as it is checked, with the budget `gamecert verify`
/// gives the two files (`max_work` in its place when given).
pub fn verify_file(
    loaded: &Loaded,
    path: &Path,
    max_work: Option<u64>,
) -> Result<Verdict, BadInput> {
    let Instance::VoronoiOneRound(spec) = &loaded.instance else {
        return Err(BadInput(format!(
            "{}: a binary refutation is of a one-round Voronoi instance, not of a {} instance",
            gamecert_certificates::verify::shown(path),
            loaded.instance.kind()
        )));
    };
    let game = validate_one_round(Path::new(&loaded.name), spec)?;
    let shown = gamecert_certificates::verify::shown(path);
    let file = std::fs::File::open(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let stored = file.metadata().map(|m| m.len()).unwrap_or(0);
    let limits = match max_work {
        Some(max_work) => Limits::work(max_work),
        None => loaded.sizes.verify_limits(stored),
    };
    let mut read = std::io::BufReader::with_capacity(1 << 20, file);
    let mut budget = limits.budget();
    Ok(gamecert_certificates::check::check_binary_refutation(&game, &mut read, &mut budget))
}

/// Table `name` (`voronoi-paths`, `kayles`, ...) with `options` named as the command line's,
/// `_` for `-` (`{"max_vertices": 16}`); see [`crate::table::Request`].
pub fn table(
    name: &str,
    options: serde_json::Map<String, serde_json::Value>,
) -> anyhow::Result<Table> {
    let request = TableRequest::from_options(name, options)?;
    crate::table::compute(&request, &mut |_| {})
}

/// The graph of the first graph6 line of `text`, with the vertex names `gen graph` gives.
pub fn graph6(text: &str) -> Result<GraphSpec, BadInput> {
    let mut graphs = gamecert_reductions::graphs::read_graph6(text, "graph6").map_err(BadInput)?;
    match graphs.len() {
        1 => Ok(gamecert_reductions::graphs::to_spec(&graphs.swap_remove(0).graph)),
        count => Err(BadInput(format!("graph6: one graph expected, {count} given"))),
    }
}

/// The SVG picture `gamecert render INSTANCE -o FILE.svg` writes (with `--certificate`, the
/// picture of the certificate's play, [`crate::render::Drawing::picture`]: its end, or its
/// start with the first move marked where the end is an empty board; drawn only once the
/// checker accepted it);
/// `title` heads it as the file name does on the command line.
pub fn svg(
    loaded: &Loaded,
    certificate: Option<&Certificate>,
    title: &str,
) -> Result<String, RenderError> {
    let named = certificate.map(|c| (c, "certificate"));
    let allowance = crate::base::limits::Allowance::of_file(loaded.sizes.stored);
    let drawing =
        crate::render::draw(&loaded.instance, &loaded.name, named, Format::Svg, title, allowance)?;
    Ok(drawing.picture().to_string())
}

/// The title [`svg`] heads a picture of `loaded` with: its file name, as `gamecert render` gives
/// it; for an instance that comes from no file (read from text, or built from a graph in Python,
/// named `<string>` or `<graph>`), what it is: its kind and, on a graph, the graph's size
/// ("voronoi on a graph of 5 vertices and 4 edges").
pub fn picture_title(loaded: &Loaded) -> String {
    let name = loaded.name.as_str();
    if !(name.starts_with('<') && name.ends_with('>')) {
        return Path::new(name)
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_else(|| name.to_string());
    }
    let graph = |vertices: usize, edges: usize| {
        format!(" on a graph of {} and {}", counted(vertices, "vertex"), counted(edges, "edge"))
    };
    let size = match &loaded.instance {
        Instance::Voronoi(spec) => graph(spec.graph.vertices.len(), spec.graph.edges.len()),
        Instance::VoronoiOneRound(spec) => graph(spec.graph.vertices.len(), spec.graph.edges.len()),
        Instance::VertexNim(spec) => graph(spec.vertices.len(), spec.edges.len()),
        _ => String::new(),
    };
    format!("{}{size}", loaded.instance.kind())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture's title names the file, or, for an instance from no file, the graph.
    #[test]
    fn a_picture_is_titled_by_its_file_or_its_graph() {
        let text = r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi",
            "graph": {"vertices": ["a", "b", "c"], "edges": [["a", "b"], ["b", "c"]]},
            "rounds": 1}"#;
        let title = |name: &str| picture_title(&loads(text, name).unwrap());
        assert_eq!(title("<graph>"), "voronoi on a graph of 3 vertices and 2 edges");
        assert_eq!(title("<string>"), "voronoi on a graph of 3 vertices and 2 edges");
        assert_eq!(title("games/path3.json"), "path3.json");
        assert_eq!(title("Petersen Graph"), "Petersen Graph");
        let picture = svg(&loads(text, "<graph>").unwrap(), None, &title("<graph>")).unwrap();
        assert!(picture.contains("voronoi on a graph of 3 vertices and 2 edges"), "{picture}");
        assert!(!picture.contains("&lt;graph&gt;"), "{picture}");
    }

    const FIGURE_3: &str = "p cnf 4 2\n-1 2 3 0\n-2 -3 -4 0\n";

    #[test]
    fn a_reduced_formula_is_solved_checked_and_verified() {
        let reduced = reduce(Reduction::SatVoronoi1, FIGURE_3, Path::new("fig3.cnf")).unwrap();
        assert!(
            reduced.notes.iter().any(|n| n.starts_with("sat-voronoi1: ")),
            "{:?}",
            reduced.notes
        );
        let loaded = Loaded::from_instance(reduced.instance, "fig3.json").unwrap();
        let solved = solve(&loaded, Method::Auto, None).unwrap();
        assert!(solved.verdict.accepted());
        assert_eq!(solved.certificate.kind(), "witness");
        assert!(verify(&loaded, &solved.certificate, None).accepted());
        // The SAT user's own answer: a model of the four variables of Figure 3's formula.
        let Some(SatAnswer::Satisfiable(model)) = sat_answer(&loaded, &solved.certificate) else {
            panic!("no model")
        };
        assert_eq!(model.iter().map(|l| l.unsigned_abs()).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert!(
            (model[0] < 0 || model[1] > 0 || model[2] > 0)
                && (model[1] < 0 || model[2] < 0 || model[3] < 0)
        );
        // One work unit is too few: a rejection is a verdict.
        let starved = verify(&loaded, &solved.certificate, Some(1));
        assert!(!starved.accepted(), "{}", starved.reason);
        assert!(svg(&loaded, Some(&solved.certificate), "fig3").unwrap().starts_with("<svg"));
    }

    #[test]
    fn bad_text_is_bad_input_naming_its_place() {
        let err = loads("{\"format\": 3}", "x.json").unwrap_err();
        assert!(err.0.starts_with("x.json:") && err.0.contains("format"), "{err}");
        let err =
            reduce(Reduction::SatVoronoi1, "p cnf 1 1\n2 0\n", Path::new("f.cnf")).unwrap_err();
        assert!(err.0.contains("f.cnf"), "{err}");
        assert!("sat-voronoi3".parse::<Reduction>().is_err());
        assert!(graph6("A_\nA_\n").is_err());
        assert_eq!(graph6("Bg\n").unwrap().edges.len(), 2);
    }
}

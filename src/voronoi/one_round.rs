//! Solving `voronoi-one-round` instances and certifying the answer.
//!
//! Two methods, both ending in a certificate that [`gamecert_certificates::check`] accepts
//! before anything is returned (a rejection here is a bug, reported as an error, never a
//! silent wrong answer):
//!
//! - **direct**, for any instance: the checker's own encoding of "B places exactly n vertices
//!   and wins" ([`gamecert_certificates::voronoi::encode::black_wins_cnf`]) is solved with the
//!   SAT backend the caller picks ([`sat::Backend`], CaDiCaL by default). A model is read back
//!   as B's placement (a witness); unsatisfiability yields an LRAT proof of that very formula
//!   (a direct refutation). Nothing is trusted but the rules.
//! - **reduction**, for instances built by `reduce sat-voronoi1|2`: the recorded normalised
//!   formula is solved. A model becomes B's placement by the forward map; unsatisfiability
//!   yields an LRAT proof of the formula, and the checker appeals to Theorem 3 / Corollary 1
//!   after rebuilding the instance from the formula.
//!
//! # Size limits
//!
//! `solve` never aborts: before building anything, the direct method counts its encoding
//! exactly ([`direct_encoding_size`]: the checker's layout gives the counters and the clause
//! count, one bounded BFS per free vertex the disjunctions' members; it stops counting once the
//! count is certainly too large) and
//! refuses it when the estimated peak memory, [`DIRECT_BYTES_PER_CLAUSE`] per clause plus
//! [`DIRECT_BYTES_PER_LITERAL`] per literal, is over [`formula_allowance`]: the 8 GiB allowance
//! of [`crate::base::limits`] less the 2 GiB kept for the check that runs beside the solver
//! ([`CHECK_RESERVE`]; the proof itself goes to disk as it is made, never into memory, issue
//! 47). The reduction method checks its recorded
//! formula the same way. A refusal is [`SolveError::TooLarge`] (exit code 2) and names the
//! estimate, the limit and `--method reduction` where the instance records its formula.
//!
//! The bytes per clause and literal were measured (release build, peak RSS sampled each
//! second while varisat loads and solves with proof logging): `reduce sat-voronoi1` images of
//! random 3-CNFs (clauses of about three literals), 5.5 million clauses and 16.4 million
//! literals peaked at 2.33 GB, 12.4 million and 36.9 million at 5.23 GB; a long path beside W
//! (102,000 clauses, 36.3 million literals in long disjunctions) at 0.68 GB. That is about 365
//! bytes per clause and 19 per literal. The uf20-sized image (20 variables, 91 clauses, 3,457
//! vertices) has 39.5 million clauses and 117.6 million literals, about 17.3 GiB: refused in
//! milliseconds (it used to abort with an allocation failure past 5 GB). CaDiCaL, the default
//! backend since, was not measured again: its formulas are refused by varisat's numbers.
//!
//! The certificate is then checked with the budget `gamecert verify` will give the written file
//! by default; a correct certificate that needs more is a [`SolveError::TooLarge`] too (the
//! user can still check it with a larger `--max-work`).

use crate::base::growing_file;
use crate::base::limits::{grouped, human_bytes, TooLarge, MEMORY_ALLOWANCE};
use crate::base::sat::{self, SatError, SatOutcome, Streamed};
pub use crate::base::solved::{ProofFile, ProofOutput};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::budget::WORK_LIMIT_REACHED;
use gamecert_certificates::base::graph::{Graph, UNREACHABLE};
use gamecert_certificates::check::check_binary_refutation;
use gamecert_certificates::format::{
    Certificate, FormatError, Instance, OneRound, OneRoundSpec, Refutation, RefutationMethod,
    Witness, CLAIM_BLACK_CANNOT_WIN, CLAIM_BLACK_WINS,
};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::lrat_binary;
use gamecert_certificates::voronoi::encode::{black_wins_cnf, layout, Goal};
use gamecert_certificates::voronoi::one_round::image_of;
use gamecert_certificates::{check_one_round, Limits, Verdict};
use gamecert_reductions::sat_voronoi::forward;
use std::io::Write as _;
use std::time::Instant;

/// The size of the checker's direct encoding ([`black_wins_cnf`]) of an instance, counted
/// without building it (see [`direct_encoding_size`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodingSize {
    pub variables: u128,
    pub clauses: u128,
    pub literals: u128,
    /// False when counting stopped early because the literals already passed the caller's
    /// `give_up_above`: the three numbers are then lower bounds.
    pub exact: bool,
}

/// Bytes of memory the direct method needs per clause of the encoding at its peak (our copy of
/// the formula, varisat's clause database and watches, and the copy its proof checker keeps
/// for the LRAT translation): see the module docs for the measurements; about 10% above them.
pub const DIRECT_BYTES_PER_CLAUSE: u128 = 400;
/// Bytes per literal, on top of [`DIRECT_BYTES_PER_CLAUSE`].
pub const DIRECT_BYTES_PER_LITERAL: u128 = 24;

impl EncodingSize {
    /// The memory the direct method is estimated to need.
    pub fn bytes(&self) -> u128 {
        self.clauses * DIRECT_BYTES_PER_CLAUSE + self.literals * DIRECT_BYTES_PER_LITERAL
    }
}

/// The exact number of variables, clauses and literals of [`black_wins_cnf`]`(graph, white,
/// black_count)`, without building it: the checker's own [`layout`] counts everything but the
/// members of the gain disjunctions (in time linear in the graph and the counters' outputs),
/// then one BFS per free vertex, bounded by its distance to W, counts those members.
///
/// Memory: a few vectors of the graph's size. Time: the BFSs visit the vertices each
/// disjunction lists, so it is proportional to the literals counted; counting stops once they
/// pass `give_up_above` (then `exact` is false and the result is a lower bound).
pub fn direct_encoding_size(
    graph: &Graph,
    white: &[usize],
    black_count: usize,
    give_up_above: u128,
) -> EncodingSize {
    let Ok(layout) = layout(graph, white, black_count, &mut Budget::unlimited()) else {
        unreachable!("an unlimited budget never runs out")
    };
    let fixed = layout.size();
    let mut size = EncodingSize {
        variables: fixed.variables,
        clauses: fixed.clauses,
        literals: fixed.literals,
        exact: true,
    };
    if !matches!(layout.goal, Goal::AtLeast(_)) {
        return size; // no disjunctions
    }
    let n = graph.len();
    let mut is_white = vec![false; n];
    for &w in white {
        is_white[w] = true;
    }
    let mut dist = vec![UNREACHABLE; n];
    let mut visited: Vec<usize> = Vec::new();
    for v in layout.counter_order() {
        if size.literals > give_up_above {
            size.exact = false;
            return size;
        }
        // The BFS of `distances_within(&[v], limit)`, counting the free vertices it reaches
        // strictly nearer than W (d < limit, besides v) and as near (d <= limit, v included).
        let limit = layout.to_white[v];
        let (mut strictly, mut as_near) = (0u128, 0u128);
        for &u in &visited {
            dist[u] = UNREACHABLE;
        }
        visited.clear();
        dist[v] = 0;
        visited.push(v);
        let mut head = 0;
        while head < visited.len() {
            let u = visited[head];
            head += 1;
            let d = dist[u];
            if !is_white[u] {
                as_near += 1;
                if d < limit && u != v {
                    strictly += 1;
                }
            }
            if d + 1 > limit {
                continue;
            }
            for &x in graph.neighbours(u) {
                if dist[x] == UNREACHABLE {
                    dist[x] = d + 1;
                    visited.push(x);
                }
            }
        }
        // `e_v -> OR` lists the strictly nearer vertices; a fresh `t_v -> OR` (v in R with a
        // free neighbour, so two or more as near) lists the as near ones.
        size.literals += strictly;
        if limit != UNREACHABLE && as_near > 1 {
            size.literals += as_near;
        }
    }
    size
}

/// Measured points of the direct method for the estimate printed before it starts
/// ([`direct_estimate`]): (family and size, vertices, clauses of the encoding, wall seconds to
/// solve and self-check, `None` past `bench direct`'s 60 s cap). From `gamecert bench direct`
/// on 2026-11-27 with CaDiCaL in focused mode ([`sat::Mode::Focused`]), the 2-core AMD EPYC
/// machine (24 GiB) with other builds running; only the families that need search (paths,
/// cycles and grids of any size are refuted in milliseconds).
pub const DIRECT_MEASURED: &[(&str, usize, u64, Option<f64>)] = &[
    ("chain size 10", 121, 18_732, Some(0.79)),
    ("chain size 13", 157, 30_839, Some(1.04)),
    ("chain size 17", 205, 51_529, Some(3.15)),
    ("chain size 22", 265, 84_759, Some(6.89)),
    ("chain size 28", 337, 135_092, Some(13.2)),
    ("chain size 35", 421, 208_719, Some(18.8)),
    ("star size 215", 430, 218_333, Some(0.48)),
    ("chain size 44", 529, 326_685, Some(40.9)),
    ("chain size 55", 661, 505_965, None),
    ("star size 337", 674, 528_620, Some(3.82)),
    ("random3 size 3", 949, 1_027_680, None),
    ("star size 528", 1_056, 1_285_019, Some(8.61)),
    ("star size 825", 1_650, 3_112_238, Some(29.1)),
    ("star size 1032", 2_064, 4_858_874, None),
];

/// What `bench direct` measured for encodings near `clauses` clauses ([`DIRECT_MEASURED`]):
/// the nearest measured point below and above, or the largest when none is above.
pub fn direct_estimate(clauses: u128) -> String {
    let shown = |&(name, vertices, clauses, seconds): &(&str, usize, u64, Option<f64>)| {
        let took =
            seconds.map_or("was not refuted in 60 s".to_string(), |s| format!("took {s:.1} s"));
        format!(
            "{name} ({} vertices, {} clauses) {took}",
            grouped(vertices as u128),
            grouped(u128::from(clauses))
        )
    };
    let below = DIRECT_MEASURED.iter().filter(|p| u128::from(p.2) <= clauses).max_by_key(|p| p.2);
    let above = DIRECT_MEASURED.iter().filter(|p| u128::from(p.2) > clauses).min_by_key(|p| p.2);
    let said = match (below, above) {
        (Some(b), Some(a)) => format!("{}; {}", shown(b), shown(a)),
        (Some(b), None) => format!("larger than any measured: {}", shown(b)),
        (None, Some(a)) => shown(a),
        (None, None) => return "no time measured for the direct method".into(),
    };
    format!(
        "in `gamecert bench direct` (2026-11-27, a loaded 2-core machine; the time depends on \
         the graph more than on the size): {said}"
    )
}

pub use crate::base::method::Method;

/// A certified answer.
#[derive(Clone, Debug)]
pub struct Solved {
    pub certificate: Certificate,
    /// The checker's verdict on `certificate` (always accepted).
    pub verdict: Verdict,
    /// `direct` or `reduction`.
    pub method: &'static str,
    pub cnf_variables: u32,
    pub cnf_clauses: usize,
    /// Size of the LRAT proof in bytes (0 for a witness).
    pub lrat_bytes: usize,
    /// Encoding plus SAT solving (with proof logging), in seconds.
    pub solve_seconds: f64,
    /// The self-check by the checker, in seconds.
    pub check_seconds: f64,
    /// Why auto did not take the method the instance seemed to ask for, if it did not.
    pub note: Option<String>,
    /// The certificate as a file, for a refutation solved with [`ProofOutput::File`] (the
    /// `certificate` then holds the header's fields with an empty `lrat`).
    pub proof_file: Option<std::sync::Arc<ProofFile>>,
}

/// Why no certificate was produced.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("the direct encoding cannot be built: {0}")]
    Encoding(String),
    #[error("the instance is not valid: {0}")]
    Invalid(#[from] FormatError),
    #[error("--method reduction needs an instance built by `gamecert reduce` (it has no recorded source formula)")]
    NoSource,
    #[error("--method reduction needs the instance its recorded source formula builds: {0}")]
    NotTheImage(String),
    #[error("--method {0} applies to multi-round `voronoi` instances, not to one-round ones")]
    WrongMethod(&'static str),
    #[error("solving {0} instances is not implemented yet")]
    Unsupported(&'static str),
    #[error("SAT solver: {0}")]
    Sat(#[from] SatError),
    #[error("internal error: the checker rejected gamecert's own certificate: {0}")]
    Rejected(String),
    /// Refused for its size before solving (or stopped at a cap): bad input, exit code 2.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
}

/// The memory kept for the check that runs beside the solver on the other core (its own copy
/// of the formula or the encoding, and the live clauses of the proof): 2 GiB.
pub const CHECK_RESERVE: u64 = 2 << 30;

/// The memory the direct and reduction methods may give the formula and the SAT solver: the
/// allowance less [`CHECK_RESERVE`], so 6 GiB.
pub fn formula_allowance() -> u128 {
    u128::from(MEMORY_ALLOWANCE).saturating_sub(u128::from(CHECK_RESERVE))
}

/// What to suggest instead of `--method direct` on an instance that is too large for it.
fn direct_suggestion(spec: &OneRoundSpec) -> String {
    if spec.source.is_some() {
        "use --method reduction (the instance records the formula it was built from, which is \
         far smaller)"
            .into()
    } else {
        "the instance is too large for an exact solve by the direct encoding (--method \
         reduction solves instances built by `gamecert reduce` through their formula)"
            .into()
    }
}

/// The direct method's size check: counts the encoding ([`direct_encoding_size`], giving up
/// once it is certainly too large) and refuses it when its estimated peak memory
/// ([`EncodingSize::bytes`]) is over [`formula_allowance`].
pub fn check_direct_size(spec: &OneRoundSpec, game: &OneRound) -> Result<EncodingSize, TooLarge> {
    let allowance = formula_allowance();
    let size = direct_encoding_size(
        &game.graph,
        &game.white,
        game.black_count,
        allowance / DIRECT_BYTES_PER_LITERAL,
    );
    if size.bytes() <= allowance {
        return Ok(size);
    }
    Err(TooLarge {
        what: "the direct encoding".into(),
        estimate: format!(
            "{}{} clauses and {} literals over {} variables, about {} of memory while SAT \
             solving",
            if size.exact { "" } else { "at least " },
            grouped(size.clauses),
            grouped(size.literals),
            grouped(size.variables),
            human_bytes(size.bytes())
        ),
        limit: format!(
            "{} ({} bytes per clause and {} per literal; the check beside the solver may take \
             {} more)",
            human_bytes(allowance),
            DIRECT_BYTES_PER_CLAUSE,
            DIRECT_BYTES_PER_LITERAL,
            human_bytes(u128::from(CHECK_RESERVE))
        ),
        suggestion: direct_suggestion(spec),
    })
}

/// The reduction method's size check: the recorded formula under the same memory model as the
/// direct encoding.
pub fn check_formula_size(formula: &Cnf) -> Result<(), TooLarge> {
    let size = EncodingSize {
        variables: u128::from(formula.num_vars),
        clauses: formula.clauses.len() as u128,
        literals: formula.clauses.iter().map(|c| c.len() as u128).sum(),
        exact: true,
    };
    if size.bytes() <= formula_allowance() {
        return Ok(());
    }
    Err(TooLarge {
        what: "the recorded formula".into(),
        estimate: format!(
            "{} clauses and {} literals, about {} of memory while SAT solving",
            grouped(size.clauses),
            grouped(size.literals),
            human_bytes(size.bytes())
        ),
        limit: human_bytes(formula_allowance()),
        suggestion: "the formula is too large for an exact solve".into(),
    })
}

/// A SAT failure as a solve error: a proof past the checker's size limit is a refusal.
fn sat_failed(err: SatError, suggestion: String) -> SolveError {
    match err {
        SatError::ProofTooLarge { limit } => SolveError::TooLarge(TooLarge {
            what: "the LRAT refutation".into(),
            estimate: format!("more than {} bytes (solving stopped there)", grouped(limit as u128)),
            limit: format!("{} bytes, the most a proof may take on disk", grouped(limit as u128)),
            suggestion,
        }),
        other => SolveError::Sat(other),
    }
}

/// Solves the instance with the default SAT backend and returns a certificate the checker has
/// accepted (a refutation with its text proof).
pub fn solve(instance: &Instance, method: Method) -> Result<Solved, SolveError> {
    let spec = instance.one_round().ok_or(SolveError::Unsupported(instance.kind()))?;
    let text = &ProofOutput::Text;
    solve_one_round(spec, &spec.validate()?, method, sat::Backend::default(), None, text)
}

/// [`solve`] for an instance the caller has already validated into `game`, with the SAT
/// backend `backend` (both methods solve a formula), a refutation's proof going where `output`
/// says; the certificate is checked with `max_work` units when given, else with the budget
/// `verify` gives it by default.
pub fn solve_one_round(
    spec: &OneRoundSpec,
    game: &OneRound,
    method: Method,
    backend: sat::Backend,
    max_work: Option<u64>,
    output: &ProofOutput,
) -> Result<Solved, SolveError> {
    // The recorded formula is used only when it rebuilds exactly this instance: a `source` is
    // provenance the checker never trusts, and an edited graph keeps its old `source`.
    let not_the_image = || -> Option<String> {
        let source = spec.source.as_ref()?;
        image_of(game, &source.formula, source.reduction, &mut Budget::unlimited()).err()
    };
    let mut note = None;
    let use_reduction = match method {
        Method::Auto => match (&spec.source, not_the_image()) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(_), Some(why)) => {
                note = Some(format!(
                    "the recorded source formula does not rebuild this instance ({why}), so \
                     the direct encoding was used"
                ));
                false
            }
        },
        Method::Direct => false,
        Method::Reduction => {
            if spec.source.is_none() {
                return Err(SolveError::NoSource);
            }
            if let Some(why) = not_the_image() {
                return Err(SolveError::NotTheImage(why));
            }
            true
        }
        other => return Err(SolveError::WrongMethod(other.name())),
    };
    let started = Instant::now();
    let header =
        |method| Refutation { claim: CLAIM_BLACK_CANNOT_WIN.into(), method, lrat: String::new() };
    let (found, cnf_variables, cnf_clauses, method_name) = if use_reduction {
        let source = spec.source.as_ref().ok_or(SolveError::NoSource)?;
        let formula = &source.formula;
        check_formula_size(formula)?;
        sat::announce(format!(
            "SAT ({backend}, with an LRAT proof) on the recorded formula: {} variables, {} \
             clauses",
            grouped(u128::from(formula.num_vars)),
            grouped(formula.clauses.len() as u128)
        ));
        let method =
            RefutationMethod::Reduction { reduction: source.reduction, formula: formula.clone() };
        let sat = Sat { formula, backend, mode: sat::Mode::Default, game, max_work };
        let found = sat.run(header(method), output).map_err(|e| {
            sat_failed(e, "the formula is too hard for a certified refutation".into())
        })?;
        let found = match found {
            Found::Model(model) => Found::Witness(Witness {
                claim: CLAIM_BLACK_WINS.into(),
                placement: forward(formula, &model),
            }),
            other => other,
        };
        (found, formula.num_vars, formula.clauses.len(), "reduction")
    } else {
        let size = check_direct_size(spec, game)?;
        sat::announce(format!(
            "SAT ({backend}, with an LRAT proof) on the direct encoding: {} variables, {} \
             clauses, {} literals; {}",
            grouped(size.variables),
            grouped(size.clauses),
            grouped(size.literals),
            direct_estimate(size.clauses)
        ));
        let encoding =
            black_wins_cnf(&game.graph, &game.white, game.black_count, &mut Budget::unlimited())
                .map_err(SolveError::Encoding)?;
        let sat = Sat { formula: &encoding.cnf, backend, mode: sat::Mode::Focused, game, max_work };
        let found = sat
            .run(header(RefutationMethod::Direct), output)
            .map_err(|e| sat_failed(e, direct_suggestion(spec)))?;
        let found = match found {
            Found::Model(model) => Found::Witness(Witness {
                claim: CLAIM_BLACK_WINS.into(),
                placement: encoding
                    .placement(&model)
                    .into_iter()
                    .map(|v| game.graph.name(v).to_string())
                    .collect(),
            }),
            other => other,
        };
        (found, encoding.cnf.num_vars, encoding.cnf.clauses.len(), "direct")
    };
    let solve_seconds = started.elapsed().as_secs_f64();
    let (certificate, proof_file, checked, lrat_bytes) = match found {
        Found::Model(_) => unreachable!("a model is read back as a witness above"),
        Found::Witness(witness) => (Certificate::Witness(witness), None, None, 0),
        Found::Text(refutation) => {
            let bytes = refutation.lrat.len();
            (Certificate::Refutation(refutation), None, None, bytes)
        }
        Found::File { header, file, verdict, waited } => {
            let bytes = file.bytes as usize;
            let file = Some(std::sync::Arc::new(file));
            (Certificate::Refutation(header), file, Some((*verdict, waited)), bytes)
        }
    };
    let (verdict, check_seconds) = match checked {
        Some(checked) => checked,
        None => {
            let started = Instant::now();
            // The budget `verify` will give the written certificate by default: the instance's
            // size is not known here, so only the certificate's (a proof's length dominates it)
            // counts, which is the smaller budget; what passes here passes there.
            let certificate_bytes = match &certificate {
                Certificate::Refutation(r) => r.lrat.len(),
                Certificate::Witness(w) => w.placement.iter().map(|v| v.len() + 4).sum(),
                _ => 0,
            };
            let limits = match max_work {
                Some(max_work) => Limits::work(max_work),
                None => Limits::for_input(certificate_bytes as u64),
            };
            let verdict = check_one_round(game, &certificate, &limits);
            (verdict, started.elapsed().as_secs_f64())
        }
    };
    // Not checked (the budget ran out) is an answer found: the caller writes it and says so.
    if verdict.outcome == gamecert_certificates::Decision::Rejected {
        return Err(SolveError::Rejected(verdict.reason));
    }
    Ok(Solved {
        certificate,
        verdict,
        method: method_name,
        cnf_variables,
        cnf_clauses,
        lrat_bytes,
        solve_seconds,
        check_seconds,
        note,
        proof_file,
    })
}

/// What the SAT step found.
enum Found {
    /// A model of the formula (read back as B's placement by the caller).
    Model(Vec<bool>),
    /// B's placement.
    Witness(Witness),
    /// A refutation with its text proof ([`ProofOutput::Text`]), not yet checked.
    Text(Refutation),
    /// A binary refutation in `file` ([`ProofOutput::File`]), checked as it was written: the
    /// header's fields (`lrat` empty), the verdict, and the seconds the check went on after the
    /// solver finished.
    File { header: Refutation, file: ProofFile, verdict: Box<Verdict>, waited: f64 },
}

/// The SAT step of both methods: `formula` solved with `backend` in `mode`, a refutation's
/// proof checked on `game`.
struct Sat<'a> {
    formula: &'a Cnf,
    backend: sat::Backend,
    mode: sat::Mode,
    game: &'a OneRound,
    max_work: Option<u64>,
}

impl Sat<'_> {
    /// Solves; a refutation is `header` (its fields without the proof) with its proof, as
    /// `output` says.
    fn run(&self, header: Refutation, output: &ProofOutput) -> Result<Found, SatError> {
        let ProofOutput::File(dir) = output else {
            return Ok(match sat::solve_in(self.formula, true, self.backend, self.mode)? {
                SatOutcome::Satisfiable(model) => Found::Model(model),
                SatOutcome::Unsatisfiable { lrat } => Found::Text(Refutation { lrat, ..header }),
            });
        };
        let io = |e: std::io::Error| SatError::Proof(format!("{}: {e}", dir.display()));
        let mut file = ProofFile::new_in(dir).map_err(io)?;
        let (mut writer, reader) = growing_file::create(&file.path()).map_err(io)?;
        writer.write_all(&binary_head(&header)).map_err(io)?;
        // Checked on the other core as it is written. The budget `verify` gives the file is
        // known at its end: the check runs unlimited (or with --max-work), and what it spent
        // is compared with that budget then.
        let mut budget = self.max_work.map_or_else(Budget::unlimited, Budget::new);
        let game = self.game;
        let (solved, checked) = std::thread::scope(|scope| {
            let checker = scope.spawn(move || {
                let mut read = std::io::BufReader::with_capacity(1 << 20, reader);
                check_binary_refutation(game, &mut read, &mut budget)
            });
            let solved = sat::solve_streamed(self.formula, self.backend, self.mode, writer)
                .and_then(|(streamed, writer)| match streamed {
                    Streamed::Refuted(stats) => Ok((Ok(stats), writer.finish().map_err(io)?)),
                    Streamed::Satisfiable(model) => Ok((Err(model), 0)),
                });
            let finished = Instant::now();
            let verdict = checker.join();
            (solved, (verdict, finished.elapsed().as_secs_f64()))
        });
        let (stats, bytes) = match solved? {
            (Err(model), _) => return Ok(Found::Model(model)),
            (Ok(stats), bytes) => (stats, bytes),
        };
        (file.bytes, file.stats, file.inputs) = (bytes, stats, self.formula.clauses.len() as u64);
        let (verdict, waited) = checked;
        let mut verdict =
            verdict.map_err(|_| SatError::Proof("the checker's thread failed".into()))?;
        let limit = Limits::for_input(bytes).max_work;
        if self.max_work.is_none()
            && verdict.outcome == gamecert_certificates::Decision::Accepted
            && verdict.work.work_units > limit
        {
            verdict.outcome = gamecert_certificates::Decision::NotChecked;
            verdict.reason = format!(
                "{WORK_LIMIT_REACHED} while checking the LRAT proof: the check needs {} work \
                 units, more than the {limit} the default budget gives the certificate ({} \
                 bytes); nothing was found wrong and nothing established: --max-work {} checks \
                 it",
                verdict.work.work_units,
                grouped(u128::from(bytes)),
                verdict.work.work_units
            );
        }
        Ok(Found::File { header, file, verdict: Box::new(verdict), waited })
    }
}

/// The bytes a binary refutation certificate starts with: the magic, the header's length and
/// the header, `refutation`'s fields but `lrat` as JSON
/// ([`gamecert_certificates::sat::lrat_binary`]).
pub fn binary_head(refutation: &Refutation) -> Vec<u8> {
    let mut fields = serde_json::to_value(refutation).expect("a refutation serialises");
    if let Some(map) = fields.as_object_mut() {
        map.remove("lrat");
    }
    let header = fields.to_string();
    let mut head = lrat_binary::MAGIC.to_vec();
    head.extend_from_slice(&(header.len() as u32).to_le_bytes());
    head.extend_from_slice(header.as_bytes());
    head
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;
    use gamecert_certificates::format::GraphSpec;

    fn actual(graph: &Graph, white: &[usize], k: usize) -> EncodingSize {
        let cnf = black_wins_cnf(graph, white, k, &mut Budget::unlimited()).unwrap().cnf;
        EncodingSize {
            variables: u128::from(cnf.num_vars),
            clauses: cnf.clauses.len() as u128,
            literals: cnf.clauses.iter().map(|c| c.len() as u128).sum(),
            exact: true,
        }
    }

    fn random_graph(n: usize, percent: u64, rng: &mut Rng) -> Graph {
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if rng.below(100) < percent {
                    edges.push((a, b));
                }
            }
        }
        let spec = GraphSpec::numbered(n, &edges);
        Graph::new(&spec.vertices, &spec.edges).unwrap()
    }

    /// The count is exact on random graphs (isolated vertices, several components, W's set of
    /// one to three vertices, every black count from 0 to all free vertices).
    #[test]
    fn direct_encoding_size_is_exact() {
        let mut rng = Rng::new(7);
        for round in 0..60 {
            let n = 1 + round % 13;
            let p = [0, 10, 25, 50, 90][round % 5];
            let g = random_graph(n, p, &mut rng);
            let whites = (round % 3 + 1).min(n);
            let white: Vec<usize> = (0..whites).collect();
            for k in 0..=n - whites {
                let counted = direct_encoding_size(&g, &white, k, u128::MAX);
                assert_eq!(counted, actual(&g, &white, k), "n {n}, p {p}, k {k}");
            }
        }
    }

    /// The estimate names the measured points nearest below and above, or the largest.
    #[test]
    fn the_direct_estimate_names_the_nearest_measured_points() {
        let between = direct_estimate(100_000);
        assert!(
            between.contains("chain size 22") && between.contains("chain size 28"),
            "{between}"
        );
        let larger = direct_estimate(u128::MAX);
        assert!(larger.contains("larger than any measured: star size 1032"), "{larger}");
        let smaller = direct_estimate(10);
        assert!(smaller.contains("chain size 10") && !smaller.contains("size 13"), "{smaller}");
        assert!(DIRECT_MEASURED.windows(2).all(|w| w[0].2 < w[1].2), "sorted by clauses");
    }

    /// Counting that gives up early returns lower bounds.
    #[test]
    fn direct_encoding_size_gives_up_with_lower_bounds() {
        let mut rng = Rng::new(3);
        let g = random_graph(40, 10, &mut rng);
        let full = actual(&g, &[0], 12);
        for limit in [0, 100, 1_000, 10_000] {
            let partial = direct_encoding_size(&g, &[0], 12, limit);
            assert!(!partial.exact || partial == full);
            assert!(partial.clauses <= full.clauses && partial.literals <= full.literals);
            assert!(partial.exact || partial.literals > limit);
        }
    }
}

//! The file formats the checker reads: instances and certificates, as JSON.
//!
//! Every file is an object with `format` (`gamecert-instance` or `gamecert-certificate`),
//! `version` (1) and `kind`, then the fields of its kind:
//!
//! ```json
//! {"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
//!  "graph": {"vertices": ["u", "a", "b"], "edges": [["u", "a"], ["a", "b"]]},
//!  "white": ["u"], "black_count": 1}
//!
//! {"format": "gamecert-certificate", "version": 1, "kind": "witness",
//!  "claim": "black-wins", "placement": ["a"]}
//!
//! {"format": "gamecert-certificate", "version": 1, "kind": "refutation",
//!  "claim": "black-cannot-win", "method": "direct", "lrat": "..."}
//!
//! {"format": "gamecert-certificate", "version": 1, "kind": "refutation",
//!  "claim": "black-cannot-win", "method": "reduction", "reduction": "sat-voronoi1",
//!  "formula": {"num_vars": 4, "clauses": [[-1, 2, 3]]}, "lrat": "..."}
//! ```
//!
//! An instance built by a reduction also records its `source` (the reduction, the normalised
//! formula, and for the user's benefit the original formula and the normalisation map); the
//! checker reads none of it: a refutation through the reduction carries its own formula and the
//! checker rebuilds the graph from that.

use crate::base::budget::Budget;
use crate::base::cnf::Cnf;
use crate::base::graph::{Graph, GraphError};
use crate::impartial::coins::{CoinGameSpec, CoinLabelling};
use crate::impartial::heaps::{HeapGame, HeapLabelling};
use crate::triangle_avoidance::strategy::TriangleStrategy;
use crate::triangulations::constructing::{BalancedColouring, ConstructStrategy};
use crate::triangulations::convex_heaps::MarkingKayles;
use crate::triangulations::flipping::{FlipSequence, FlipSpec, FlipValue};
use crate::triangulations::marking::{MarkingSpec, MarkingStrategy};
use crate::vertexnim::strategy::{VertexNimLabelling, VertexNimSpec, VertexNimStrategy};
use crate::voronoi::dnf::{DnfStrategy, PosDnf};
use crate::voronoi::multi_round::{VoronoiStrategy, VoronoiValue};
use crate::voronoi::paths::PathValue;
use crate::voronoi::sat_reduction::SatVoronoi;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// `format` of an instance file.
pub const INSTANCE_FORMAT: &str = "gamecert-instance";
/// `format` of a certificate file.
pub const CERTIFICATE_FORMAT: &str = "gamecert-certificate";
/// The version this checker reads and writes.
pub const VERSION: u64 = 1;

/// The claim of a witness: B has a winning placement.
pub const CLAIM_BLACK_WINS: &str = "black-wins";
/// The claim of a refutation: B has no winning placement (W wins or ties).
pub const CLAIM_BLACK_CANNOT_WIN: &str = "black-cannot-win";

/// A file that does not parse or does not fit the schema. Line and column where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl FormatError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        FormatError { line: None, column: None, message: message.into() }
    }

    fn from_json(err: serde_json::Error) -> Self {
        let known = err.line() > 0;
        FormatError {
            line: known.then(|| err.line()),
            column: known.then(|| err.column()),
            message: strip_position(&err.to_string()),
        }
    }
}

/// serde_json appends " at line L column C"; we report those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}: {}", self.message),
            (Some(l), None) => write!(f, "{l}: {}", self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for FormatError {}

impl From<GraphError> for FormatError {
    fn from(err: GraphError) -> Self {
        FormatError::new(format!("graph.{err}"))
    }
}

/// A graph by vertex names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphSpec {
    pub vertices: Vec<String>,
    pub edges: Vec<(String, String)>,
}

impl GraphSpec {
    /// The graph on vertices `v0 .. v{n-1}` with `edges` given by index (tests, generators).
    pub fn numbered(n: usize, edges: &[(usize, usize)]) -> GraphSpec {
        let vertices: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let edges =
            edges.iter().map(|&(a, b)| (vertices[a].clone(), vertices[b].clone())).collect();
        GraphSpec { vertices, edges }
    }
}

/// Where an instance came from, when a reduction built it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReductionSource {
    /// `sat-voronoi1` or `sat-voronoi2`.
    pub reduction: SatVoronoi,
    /// The normalised formula the graph was built from.
    pub formula: Cnf,
    /// The formula as the user gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<Cnf>,
    /// How normalised variables map back to the original ones (reductions crate format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normalisation: Option<serde_json::Value>,
}

/// Instance kind `voronoi-one-round`: W holds `white`, then B places `black_count` vertices.
/// The question: can B win?
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OneRoundSpec {
    pub graph: GraphSpec,
    pub white: Vec<String>,
    pub black_count: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<ReductionSource>,
}

/// A validated `voronoi-one-round` instance.
#[derive(Clone, Debug)]
pub struct OneRound {
    pub graph: Graph,
    pub white: Vec<usize>,
    pub black_count: usize,
}

impl OneRound {
    /// The vertices B may occupy.
    pub fn free_vertices(&self) -> Vec<usize> {
        let mut is_white = vec![false; self.graph.len()];
        for &w in &self.white {
            is_white[w] = true;
        }
        (0..self.graph.len()).filter(|&v| !is_white[v]).collect()
    }
}

impl OneRoundSpec {
    /// Checks the instance: a simple graph, a non-empty W set of distinct known vertices, and
    /// 1 <= n <= the number of free vertices (no work limit; see [`Self::validate_within`]).
    pub fn validate(&self) -> Result<OneRound, FormatError> {
        self.validate_within(&mut Budget::new(u64::MAX))
    }

    /// [`Self::validate`], charging `budget` for building the graph.
    pub fn validate_within(&self, budget: &mut Budget) -> Result<OneRound, FormatError> {
        let graph = Graph::new_within(&self.graph.vertices, &self.graph.edges, budget)?;
        if self.white.is_empty() {
            return Err(FormatError::new("white: W's set S is empty"));
        }
        let mut white = Vec::with_capacity(self.white.len());
        let mut taken = vec![false; graph.len()];
        for (k, name) in self.white.iter().enumerate() {
            let v = graph
                .vertex(name)
                .ok_or_else(|| FormatError::new(format!("white[{k}]: unknown vertex '{name}'")))?;
            if taken[v] {
                return Err(FormatError::new(format!(
                    "white[{k}]: vertex '{name}' is listed twice"
                )));
            }
            taken[v] = true;
            white.push(v);
        }
        let free = graph.len() - white.len();
        if self.black_count == 0 {
            return Err(FormatError::new("black_count: B must place at least one vertex"));
        }
        if self.black_count > free {
            return Err(FormatError::new(format!(
                "black_count: n = {} is larger than the {free} free vertices",
                self.black_count
            )));
        }
        Ok(OneRound { graph, white, black_count: self.black_count })
    }
}

/// W's and B's vertices at the start of a multi-round game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartSpec {
    pub white: Vec<String>,
    pub black: Vec<String>,
}

/// Instance kind `voronoi`: the multi-round game, `rounds` moves each, W first in every round,
/// optionally from a start position. The question: the game's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MultiRoundSpec {
    pub graph: GraphSpec,
    pub rounds: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartSpec>,
    /// Where the instance came from (for the user; the checker ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<serde_json::Value>,
}

/// A validated `voronoi` instance; `start` is a position string (see [`crate::voronoi::multi_round`]).
#[derive(Clone, Debug)]
pub struct MultiRound {
    pub graph: Graph,
    pub rounds: usize,
    pub start: Vec<u8>,
}

impl MultiRoundSpec {
    /// Checks the instance: a simple graph, `rounds >= 1` with room for both players' moves, and
    /// a start position of known, distinct vertices that some play reaches (no work limit; see
    /// [`Self::validate_within`]).
    pub fn validate(&self) -> Result<MultiRound, FormatError> {
        self.validate_within(&mut Budget::new(u64::MAX))
    }

    /// [`Self::validate`], charging `budget` for building the graph.
    pub fn validate_within(&self, budget: &mut Budget) -> Result<MultiRound, FormatError> {
        let graph = Graph::new_within(&self.graph.vertices, &self.graph.edges, budget)?;
        if self.rounds == 0 {
            return Err(FormatError::new("rounds: the game needs at least one round"));
        }
        // `rounds` comes from the file: compare without computing 2 * rounds, which could wrap.
        if self.rounds > graph.len() / 2 {
            return Err(FormatError::new(format!(
                "rounds: {} rounds need {} vertices, the graph has {}",
                self.rounds,
                2 * self.rounds as u128,
                graph.len()
            )));
        }
        let mut start = vec![b'.'; graph.len()];
        if let Some(s) = &self.start {
            for (field, names, mark) in [("white", &s.white, b'W'), ("black", &s.black, b'B')] {
                for (k, name) in names.iter().enumerate() {
                    let v = graph.vertex(name).ok_or_else(|| {
                        FormatError::new(format!("start.{field}[{k}]: unknown vertex '{name}'"))
                    })?;
                    if start[v] != b'.' {
                        return Err(FormatError::new(format!(
                            "start.{field}[{k}]: vertex '{name}' is occupied twice"
                        )));
                    }
                    start[v] = mark;
                }
            }
            crate::voronoi::multi_round::to_move(&start, self.rounds)
                .map_err(|why| FormatError::new(format!("start: {why}")))?;
        }
        Ok(MultiRound { graph, rounds: self.rounds, start })
    }
}

/// Any instance the checker knows.
#[derive(Clone, Debug, PartialEq)]
pub enum Instance {
    VoronoiOneRound(OneRoundSpec),
    Voronoi(MultiRoundSpec),
    PosDnfGame(PosDnf),
    /// A coin-turning game position ([`crate::impartial::coins`]).
    CoinGame(CoinGameSpec),
    HeapGame(HeapGame),
    TriangleAvoidance(TriangleSpec),
    MarkingGame(MarkingSpec),
    /// A flipping game or solitaire on a triangulation ([`crate::triangulations::flipping`]).
    FlipGame(FlipSpec),
    /// Vertex nim or Vertex NimG on a graph ([`crate::vertexnim::strategy`]).
    VertexNim(VertexNimSpec),
}

/// Instance kind `triangle-avoidance`: one-colour triangle avoidance on `n` isolated nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriangleSpec {
    pub n: usize,
}

impl Instance {
    /// The `kind` field of this instance.
    pub fn kind(&self) -> &'static str {
        match self {
            Instance::VoronoiOneRound(_) => "voronoi-one-round",
            Instance::Voronoi(_) => "voronoi",
            Instance::PosDnfGame(_) => "posdnf-game",
            Instance::TriangleAvoidance(_) => "triangle-avoidance",
            Instance::MarkingGame(_) => "marking-game",
            Instance::FlipGame(_) => "flip-game",
            Instance::HeapGame(_) => "heap-game",
            Instance::CoinGame(_) => "coin-game",
            Instance::VertexNim(_) => "vertexnim",
        }
    }

    /// The one-round instance, if this is one.
    pub fn one_round(&self) -> Option<&OneRoundSpec> {
        match self {
            Instance::VoronoiOneRound(spec) => Some(spec),
            _ => None,
        }
    }

    /// Validates any kind (a graph is built and dropped; use the kind's own `validate` to keep it).
    pub fn validate(&self) -> Result<(), FormatError> {
        self.validate_within(&mut Budget::new(u64::MAX))
    }

    /// [`Self::validate`] charging `budget`; a fault of the checker (a panic) is an error whose
    /// message starts with [`crate::check::INTERNAL_ERROR`], never a crash. When the budget runs
    /// out, [`Budget::exhausted`] tells the caller that the limit, not the instance, failed.
    pub fn validate_within(&self, budget: &mut Budget) -> Result<(), FormatError> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.validate_unguarded(budget)))
            .unwrap_or_else(|payload| {
                Err(FormatError::new(format!(
                    "{}: the checker stopped on a fault ({}) while validating the instance",
                    crate::check::INTERNAL_ERROR,
                    crate::check::panic_message(payload.as_ref())
                )))
            })
    }

    fn validate_unguarded(&self, budget: &mut Budget) -> Result<(), FormatError> {
        match self {
            Instance::VoronoiOneRound(spec) => spec.validate_within(budget).map(|_| ()),
            Instance::Voronoi(spec) => spec.validate_within(budget).map(|_| ()),
            Instance::PosDnfGame(dnf) => match dnf.violation() {
                Some(why) => Err(FormatError::new(why)),
                None => Ok(()),
            },
            Instance::TriangleAvoidance(spec) => {
                let max = crate::triangle_avoidance::strategy::MAX_N;
                if (1..=max).contains(&spec.n) {
                    Ok(())
                } else {
                    Err(FormatError::new(format!(
                        "n = {} is outside the supported range 1..={max}",
                        spec.n
                    )))
                }
            }
            Instance::MarkingGame(spec) => {
                crate::triangulations::convex_heaps::validate_instance(spec, budget)
                    .map_err(FormatError::new)
            }
            Instance::FlipGame(spec) => crate::triangulations::flipping::setup(spec, budget)
                .map(|_| ())
                .map_err(FormatError::new),
            Instance::HeapGame(game) => match game.violation() {
                Some(why) => Err(FormatError::new(why)),
                None => Ok(()),
            },
            Instance::CoinGame(spec) => spec.validate().map(|_| ()).map_err(FormatError::new),
            Instance::VertexNim(spec) => spec.validate().map(|_| ()).map_err(FormatError::new),
        }
    }

    /// Reads an instance from JSON text.
    pub fn from_json(text: &str) -> Result<Instance, FormatError> {
        let kind = envelope(text, INSTANCE_FORMAT)?;
        match kind.as_str() {
            "voronoi-one-round" => Ok(Instance::VoronoiOneRound(body(text)?)),
            "voronoi" => Ok(Instance::Voronoi(body(text)?)),
            "posdnf-game" => Ok(Instance::PosDnfGame(body(text)?)),
            "heap-game" => Ok(Instance::HeapGame(body(text)?)),
            "triangle-avoidance" => Ok(Instance::TriangleAvoidance(body(text)?)),
            "marking-game" => Ok(Instance::MarkingGame(body(text)?)),
            "flip-game" => Ok(Instance::FlipGame(body(text)?)),
            "coin-game" => Ok(Instance::CoinGame(body(text)?)),
            "vertexnim" => Ok(Instance::VertexNim(body(text)?)),
            other => Err(FormatError::new(format!(
                "unknown instance kind '{other}' (known: voronoi-one-round, voronoi, posdnf-game, \
                 heap-game, triangle-avoidance, coin-game, marking-game, vertexnim, flip-game)"
            ))),
        }
    }

    /// The instance as pretty JSON.
    pub fn to_json(&self) -> String {
        match self {
            Instance::VoronoiOneRound(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::Voronoi(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::PosDnfGame(dnf) => write_envelope(INSTANCE_FORMAT, self.kind(), dnf),
            Instance::TriangleAvoidance(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::MarkingGame(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::FlipGame(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::HeapGame(game) => write_envelope(INSTANCE_FORMAT, self.kind(), game),
            Instance::CoinGame(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
            Instance::VertexNim(spec) => write_envelope(INSTANCE_FORMAT, self.kind(), spec),
        }
    }
}

/// How a refutation proves that B cannot win.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "kebab-case")]
pub enum RefutationMethod {
    /// The LRAT refutes the checker's own encoding of the instance ([`crate::voronoi::encode`]).
    Direct,
    /// The LRAT refutes `formula`; the instance must be the named reduction's image of it, and
    /// the paper's theorem carries unsatisfiability over to the game.
    Reduction { reduction: SatVoronoi, formula: Cnf },
}

/// A witness: B's placement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Witness {
    pub claim: String,
    pub placement: Vec<String>,
}

/// A refutation: an LRAT proof, of the direct encoding or of a reduction's formula.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Refutation {
    pub claim: String,
    #[serde(flatten)]
    pub method: RefutationMethod,
    pub lrat: String,
}

/// Any certificate the checker knows.
#[derive(Clone, Debug, PartialEq)]
pub enum Certificate {
    Witness(Witness),
    Refutation(Refutation),
    VoronoiStrategy(VoronoiStrategy),
    VoronoiValue(VoronoiValue),
    DnfStrategy(DnfStrategy),
    PathValue(PathValue),
    TriangleStrategy(TriangleStrategy),
    MarkingStrategy(MarkingStrategy),
    FlipValue(FlipValue),
    FlipSequence(FlipSequence),
    MarkingKayles(MarkingKayles),
    HeapLabelling(HeapLabelling),
    CoinLabelling(CoinLabelling),
    VertexNimStrategy(VertexNimStrategy),
    VertexNimLabelling(VertexNimLabelling),
    /// Bounds on the value of a game with scores or ties ([`crate::triangulations::constructing`]).
    ConstructStrategy(ConstructStrategy),
    /// Lemma 4's colouring ([`crate::triangulations::constructing`]).
    BalancedColouring(BalancedColouring),
}

impl Certificate {
    /// The `kind` field of this certificate.
    pub fn kind(&self) -> &'static str {
        match self {
            Certificate::Witness(_) => "witness",
            Certificate::Refutation(_) => "refutation",
            Certificate::VoronoiStrategy(_) => "voronoi-strategy",
            Certificate::VoronoiValue(_) => "voronoi-value",
            Certificate::DnfStrategy(_) => "dnf-strategy",
            Certificate::PathValue(_) => "voronoi-path-value",
            Certificate::TriangleStrategy(_) => "triangle-strategy",
            Certificate::MarkingStrategy(_) => "marking-strategy",
            Certificate::FlipValue(_) => "flip-value",
            Certificate::FlipSequence(_) => "flip-sequence",
            Certificate::MarkingKayles(_) => "marking-kayles",
            Certificate::HeapLabelling(_) => "heap-labelling",
            Certificate::CoinLabelling(_) => "coin-labelling",
            Certificate::VertexNimStrategy(_) => "vertexnim-strategy",
            Certificate::VertexNimLabelling(_) => "vertexnim-labelling",
            Certificate::ConstructStrategy(_) => "construct-strategy",
            Certificate::BalancedColouring(_) => "balanced-colouring",
        }
    }

    /// Reads a certificate from JSON text.
    pub fn from_json(text: &str) -> Result<Certificate, FormatError> {
        let kind = envelope(text, CERTIFICATE_FORMAT)?;
        match kind.as_str() {
            "witness" => Ok(Certificate::Witness(body(text)?)),
            "refutation" => Ok(Certificate::Refutation(body(text)?)),
            "voronoi-strategy" => Ok(Certificate::VoronoiStrategy(body(text)?)),
            "voronoi-value" => Ok(Certificate::VoronoiValue(body(text)?)),
            "dnf-strategy" => Ok(Certificate::DnfStrategy(body(text)?)),
            "voronoi-path-value" => Ok(Certificate::PathValue(body(text)?)),
            "triangle-strategy" => Ok(Certificate::TriangleStrategy(body(text)?)),
            "marking-strategy" => Ok(Certificate::MarkingStrategy(body(text)?)),
            "flip-value" => Ok(Certificate::FlipValue(body(text)?)),
            "flip-sequence" => Ok(Certificate::FlipSequence(body(text)?)),
            "marking-kayles" => Ok(Certificate::MarkingKayles(body(text)?)),
            "heap-labelling" => Ok(Certificate::HeapLabelling(body(text)?)),
            "coin-labelling" => Ok(Certificate::CoinLabelling(body(text)?)),
            "vertexnim-strategy" => Ok(Certificate::VertexNimStrategy(body(text)?)),
            "vertexnim-labelling" => Ok(Certificate::VertexNimLabelling(body(text)?)),
            "construct-strategy" => Ok(Certificate::ConstructStrategy(body(text)?)),
            "balanced-colouring" => Ok(Certificate::BalancedColouring(body(text)?)),
            other => Err(FormatError::new(format!(
                "unknown certificate kind '{other}' (known: witness, refutation, \
                 voronoi-strategy, voronoi-value, dnf-strategy, voronoi-path-value, \
                 triangle-strategy, heap-labelling, coin-labelling, marking-strategy, \
                 vertexnim-strategy, vertexnim-labelling, construct-strategy, \
                 balanced-colouring, flip-value, flip-sequence, marking-kayles)"
            ))),
        }
    }

    /// The certificate as pretty JSON.
    pub fn to_json(&self) -> String {
        match self {
            Certificate::Witness(w) => write_envelope(CERTIFICATE_FORMAT, self.kind(), w),
            Certificate::Refutation(r) => write_envelope(CERTIFICATE_FORMAT, self.kind(), r),
            Certificate::VoronoiStrategy(s) => write_envelope(CERTIFICATE_FORMAT, self.kind(), s),
            Certificate::VoronoiValue(v) => write_envelope(CERTIFICATE_FORMAT, self.kind(), v),
            Certificate::DnfStrategy(s) => write_envelope(CERTIFICATE_FORMAT, self.kind(), s),
            Certificate::PathValue(v) => write_envelope(CERTIFICATE_FORMAT, self.kind(), v),
            Certificate::TriangleStrategy(t) => write_envelope(CERTIFICATE_FORMAT, self.kind(), t),
            Certificate::MarkingStrategy(m) => write_envelope(CERTIFICATE_FORMAT, self.kind(), m),
            Certificate::FlipValue(v) => write_envelope(CERTIFICATE_FORMAT, self.kind(), v),
            Certificate::FlipSequence(f) => write_envelope(CERTIFICATE_FORMAT, self.kind(), f),
            Certificate::MarkingKayles(m) => write_envelope(CERTIFICATE_FORMAT, self.kind(), m),
            Certificate::HeapLabelling(h) => write_envelope(CERTIFICATE_FORMAT, self.kind(), h),
            Certificate::CoinLabelling(c) => write_envelope(CERTIFICATE_FORMAT, self.kind(), c),
            Certificate::VertexNimStrategy(v) => write_envelope(CERTIFICATE_FORMAT, self.kind(), v),
            Certificate::VertexNimLabelling(v) => {
                write_envelope(CERTIFICATE_FORMAT, self.kind(), v)
            }
            Certificate::ConstructStrategy(c) => write_envelope(CERTIFICATE_FORMAT, self.kind(), c),
            Certificate::BalancedColouring(c) => write_envelope(CERTIFICATE_FORMAT, self.kind(), c),
        }
    }
}

/// The three fields every file starts with; serde skips the rest without building it.
#[derive(Deserialize)]
struct Header {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
    kind: Option<serde_json::Value>,
}

/// Checks `format` and `version` and returns `kind`. The body is then parsed straight into its
/// typed form by [`body`]: one pass over the text each, no intermediate JSON tree (instances of
/// millions of vertices are read this way in seconds).
fn envelope(text: &str, format: &str) -> Result<String, FormatError> {
    let header: Header = serde_json::from_str(text).map_err(|err| {
        if err.is_data() {
            FormatError::new("expected a JSON object with `format`, `version` and `kind`")
        } else {
            FormatError::from_json(err)
        }
    })?;
    match header.format.as_ref().and_then(|f| f.as_str()) {
        Some(f) if f == format => {}
        Some(f) => return Err(FormatError::new(format!("format is '{f}', expected '{format}'"))),
        None => return Err(FormatError::new(format!("missing field `format` ('{format}')"))),
    }
    match header.version.as_ref().and_then(|v| v.as_u64()) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(FormatError::new(format!(
                "version {v} is not supported (this checker reads version {VERSION})"
            )))
        }
        None => return Err(FormatError::new("missing or non-numeric field `version`")),
    }
    header
        .kind
        .as_ref()
        .and_then(|k| k.as_str())
        .map(str::to_string)
        .ok_or_else(|| FormatError::new("missing field `kind`"))
}

fn body<T: DeserializeOwned>(text: &str) -> Result<T, FormatError> {
    serde_json::from_str(text).map_err(FormatError::from_json)
}

#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    format: &'a str,
    version: u64,
    kind: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

fn write_envelope<T: Serialize>(format: &str, kind: &str, body: &T) -> String {
    let envelope = Envelope { format, version: VERSION, kind, body };
    let pretty = serde_json::to_string_pretty(&envelope).expect("plain data always serialises");
    inline_scalar_arrays(&pretty)
}

/// Puts every array that holds only scalars on one line (an edge, a clause, a vertex list), so
/// that files stay readable: serde_json's pretty printer gives every element its own line.
/// Works on serde_json's pretty output, where an element that opens no container is a scalar
/// and lines that open a container end in `[` or `{`.
fn inline_scalar_arrays(pretty: &str) -> String {
    let lines: Vec<&str> = pretty.lines().collect();
    let mut out = String::with_capacity(pretty.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.ends_with('[') {
            let indent = line.len() - line.trim_start().len();
            let mut j = i + 1;
            let mut scalars = Vec::new();
            while j < lines.len() {
                let inner = lines[j];
                let inner_indent = inner.len() - inner.trim_start().len();
                if inner_indent == indent && inner.trim_start().starts_with(']') {
                    break;
                }
                if inner_indent != indent + 2 || inner.ends_with('[') || inner.ends_with('{') {
                    scalars.clear();
                    j = lines.len();
                    break;
                }
                scalars.push(inner.trim().trim_end_matches(','));
                j += 1;
            }
            if j < lines.len() && !scalars.is_empty() {
                out.push_str(line);
                out.push_str(&scalars.join(", "));
                out.push_str(lines[j].trim_start());
                out.push('\n');
                i = j + 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"{"format": "gamecert-instance", "version": 1, "kind": "voronoi-one-round",
        "graph": {"vertices": ["u", "a", "b"], "edges": [["u", "a"], ["a", "b"]]},
        "white": ["u"], "black_count": 1}"#;

    #[test]
    fn round_trips() {
        let inst = Instance::from_json(SMALL).unwrap();
        assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
        let spec = inst.one_round().unwrap();
        let valid = spec.validate().unwrap();
        assert_eq!(valid.free_vertices(), vec![1, 2]);
        let cert = Certificate::Refutation(Refutation {
            claim: CLAIM_BLACK_CANNOT_WIN.into(),
            method: RefutationMethod::Reduction {
                reduction: SatVoronoi::Problem1,
                formula: Cnf { num_vars: 1, clauses: vec![vec![1], vec![-1]] },
            },
            lrat: "3 0 1 2 0\n".into(),
        });
        let text = cert.to_json();
        assert!(text.contains("\"method\": \"reduction\""), "{text}");
        assert!(text.contains("\"clauses\": [\n"), "{text}");
        assert!(text.contains("      [-1]\n"), "{text}");
        let inst_text = inst.to_json();
        assert!(inst_text.contains("\"vertices\": [\"u\", \"a\", \"b\"],"), "{inst_text}");
        assert!(inst_text.contains("[\"u\", \"a\"],"), "{inst_text}");
        assert_eq!(Certificate::from_json(&text).unwrap(), cert);
    }

    #[test]
    fn errors_name_the_place() {
        let err = Instance::from_json("{\n  \"format\": 1,\n").unwrap_err();
        assert_eq!(err.line, Some(3));
        let err =
            Instance::from_json(&SMALL.replace("\"white\": [\"u\"]", "\"white\": []")).unwrap();
        let spec = err.one_round().unwrap();
        assert!(spec.validate().unwrap_err().message.contains("empty"));
        let bad = SMALL.replace("\"black_count\": 1", "\"black_count\": 3");
        let inst = Instance::from_json(&bad).unwrap();
        let spec = inst.one_round().unwrap();
        assert!(spec.validate().unwrap_err().message.contains("larger than the 2 free"));
        let err = Instance::from_json(&SMALL.replace("voronoi-one-round", "chess")).unwrap_err();
        assert!(err.message.contains("unknown instance kind 'chess'"));
        let err = Certificate::from_json(SMALL).unwrap_err();
        assert!(err.message.contains("expected 'gamecert-certificate'"));
    }
}

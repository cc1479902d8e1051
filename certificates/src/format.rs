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
use crate::verdict::{reject, Claim, Verdict, Work};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

pub use crate::base::error::FormatError;
pub use crate::impartial::coins::{CoinGameSpec, CoinLabelling};
pub use crate::impartial::heaps::{HeapGame, HeapLabelling};
pub use crate::triangle_avoidance::strategy::{TriangleSpec, TriangleStrategy};
pub use crate::triangulations::constructing::{BalancedColouring, ConstructStrategy};
pub use crate::triangulations::convex_heaps::MarkingKayles;
pub use crate::triangulations::flipping::{FlipSequence, FlipSpec, FlipValue};
pub use crate::triangulations::marking::{MarkingSpec, MarkingStrategy};
pub use crate::vertexnim::strategy::{VertexNimLabelling, VertexNimSpec, VertexNimStrategy};
pub use crate::voronoi::dnf::{DnfStrategy, PosDnf};
pub use crate::voronoi::instance::{
    GraphSpec, MultiRound, MultiRoundSpec, OneRound, OneRoundSpec, ReductionSource, StartSpec,
};
pub use crate::voronoi::multi_round::{VoronoiStrategy, VoronoiValue};
pub use crate::voronoi::one_round::{
    Refutation, RefutationMethod, Witness, CLAIM_BLACK_CANNOT_WIN, CLAIM_BLACK_WINS,
};
pub use crate::voronoi::paths::PathValue;

/// `format` of an instance file.
pub const INSTANCE_FORMAT: &str = "gamecert-instance";
/// `format` of a certificate file.
pub const CERTIFICATE_FORMAT: &str = "gamecert-certificate";
/// The version this checker reads and writes.
pub const VERSION: u64 = 1;

/// The registry: every instance kind and every certificate kind, each listed once. From the one
/// table come the [`Instance`] and [`Certificate`] enums, their `kind` strings, reading and
/// writing, the known kinds named in errors, instance validation, and the dispatch of
/// [`crate::check`] to the family check that fits a certificate to its instance kind.
macro_rules! registry {
    (
        instances { $($ikind:literal => $ivariant:ident($itype:ty), valid $ivalid:expr;)* }
        certificates { $($ckind:literal => $cvariant:ident($ctype:ty), on $on:ident, $check:path;)* }
    ) => {
        /// Any instance the checker knows.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Instance { $($ivariant($itype),)* }

        /// Any certificate the checker knows.
        #[derive(Clone, Debug, PartialEq)]
        pub enum Certificate { $($cvariant($ctype),)* }

        /// Every instance kind, in registry order.
        pub const INSTANCE_KINDS: &[&str] = &[$($ikind),*];
        /// Every certificate kind, in registry order.
        pub const CERTIFICATE_KINDS: &[&str] = &[$($ckind),*];

        impl Instance {
            /// The `kind` field of this instance.
            pub fn kind(&self) -> &'static str {
                match self { $(Instance::$ivariant(_) => $ikind,)* }
            }

            /// Reads an instance from JSON text.
            pub fn from_json(text: &str) -> Result<Instance, FormatError> {
                match envelope(text, INSTANCE_FORMAT)?.as_str() {
                    $($ikind => Ok(Instance::$ivariant(body(text)?)),)*
                    other => Err(unknown("instance", other, INSTANCE_KINDS)),
                }
            }

            /// The instance as pretty JSON.
            pub fn to_json(&self) -> String {
                match self { $(Instance::$ivariant(x) => write_envelope(INSTANCE_FORMAT, $ikind, x),)* }
            }

            fn validate_unguarded(&self, budget: &mut Budget) -> Result<(), FormatError> {
                match self { $(Instance::$ivariant(x) => ($ivalid)(x, budget),)* }
            }
        }

        impl Certificate {
            /// The `kind` field of this certificate.
            pub fn kind(&self) -> &'static str {
                match self { $(Certificate::$cvariant(_) => $ckind,)* }
            }

            /// Reads a certificate from JSON text.
            pub fn from_json(text: &str) -> Result<Certificate, FormatError> {
                match envelope(text, CERTIFICATE_FORMAT)?.as_str() {
                    $($ckind => Ok(Certificate::$cvariant(body(text)?)),)*
                    other => Err(unknown("certificate", other, CERTIFICATE_KINDS)),
                }
            }

            /// The certificate as pretty JSON.
            pub fn to_json(&self) -> String {
                match self {
                    $(Certificate::$cvariant(x) => write_envelope(CERTIFICATE_FORMAT, $ckind, x),)*
                }
            }

            /// What the certificate claims, in words.
            pub fn claim(&self) -> String {
                match self { $(Certificate::$cvariant(x) => x.claim(),)* }
            }
        }

        /// Checks `certificate` with the family check registered for its kind, or rejects it
        /// when it does not fit the instance's kind.
        pub(crate) fn dispatch(instance: &Instance, certificate: &Certificate, budget: &mut Budget) -> Verdict {
            match (instance, certificate) {
                $((Instance::$on(spec), Certificate::$cvariant(cert)) => $check(spec, cert, budget),)*
                _ => reject(
                    certificate.claim(),
                    format!("a {} certificate does not fit a {} instance", certificate.kind(), instance.kind()),
                    Work::default(),
                ),
            }
        }
    };
}

use crate::impartial::{coins, heaps};
use crate::triangulations::{constructing, convex_heaps, flipping, marking};
use crate::voronoi::{dnf, multi_round, one_round, paths};

/// A validator that cannot fail beyond what a `violation` names.
fn no_violation(violation: Option<String>) -> Result<(), FormatError> {
    violation.map_or(Ok(()), |why| Err(FormatError::new(why)))
}

registry! {
    instances {
        "voronoi-one-round" => VoronoiOneRound(OneRoundSpec),
            valid |s: &OneRoundSpec, b: &mut Budget| s.validate_within(b).map(drop);
        "voronoi" => Voronoi(MultiRoundSpec),
            valid |s: &MultiRoundSpec, b: &mut Budget| s.validate_within(b).map(drop);
        "posdnf-game" => PosDnfGame(PosDnf), valid |d: &PosDnf, _: &mut Budget| no_violation(d.violation());
        "coin-game" => CoinGame(CoinGameSpec),
            valid |s: &CoinGameSpec, _: &mut Budget| s.validate().map(drop).map_err(FormatError::new);
        "heap-game" => HeapGame(HeapGame), valid |g: &HeapGame, _: &mut Budget| no_violation(g.violation());
        "triangle-avoidance" => TriangleAvoidance(TriangleSpec),
            valid |s: &TriangleSpec, _: &mut Budget| s.validate().map_err(FormatError::new);
        "marking-game" => MarkingGame(MarkingSpec),
            valid |s: &MarkingSpec, b: &mut Budget| convex_heaps::validate_instance(s, b).map_err(FormatError::new);
        "flip-game" => FlipGame(FlipSpec),
            valid |s: &FlipSpec, b: &mut Budget| flipping::setup(s, b).map(drop).map_err(FormatError::new);
        "vertexnim" => VertexNim(VertexNimSpec),
            valid |s: &VertexNimSpec, _: &mut Budget| s.validate().map(drop).map_err(FormatError::new);
    }
    certificates {
        "witness" => Witness(Witness), on VoronoiOneRound, one_round::witness;
        "refutation" => Refutation(Refutation), on VoronoiOneRound, one_round::refutation;
        "voronoi-strategy" => VoronoiStrategy(VoronoiStrategy), on Voronoi, multi_round::strategy_verdict;
        "voronoi-value" => VoronoiValue(VoronoiValue), on Voronoi, multi_round::value_verdict;
        "dnf-strategy" => DnfStrategy(DnfStrategy), on PosDnfGame, dnf::strategy_verdict;
        "voronoi-path-value" => PathValue(PathValue), on Voronoi, paths::value_verdict;
        "triangle-strategy" => TriangleStrategy(TriangleStrategy), on TriangleAvoidance,
            crate::triangle_avoidance::strategy::strategy_verdict;
        "marking-strategy" => MarkingStrategy(MarkingStrategy), on MarkingGame, marking::strategy_verdict;
        "flip-value" => FlipValue(FlipValue), on FlipGame, flipping::value_verdict;
        "flip-sequence" => FlipSequence(FlipSequence), on FlipGame, flipping::sequence_verdict;
        "marking-kayles" => MarkingKayles(MarkingKayles), on MarkingGame, convex_heaps::kayles_verdict;
        "heap-labelling" => HeapLabelling(HeapLabelling), on HeapGame, heaps::labelling_verdict;
        "coin-labelling" => CoinLabelling(CoinLabelling), on CoinGame, coins::labelling_verdict;
        "vertexnim-strategy" => VertexNimStrategy(VertexNimStrategy), on VertexNim,
            crate::vertexnim::strategy::strategy_verdict;
        "vertexnim-labelling" => VertexNimLabelling(VertexNimLabelling), on VertexNim,
            crate::vertexnim::strategy::labelling_verdict;
        "construct-strategy" => ConstructStrategy(ConstructStrategy), on MarkingGame,
            constructing::strategy_verdict;
        "balanced-colouring" => BalancedColouring(BalancedColouring), on MarkingGame,
            constructing::colouring_verdict;
    }
}

/// The error for a `kind` this checker does not know, naming the ones it does.
fn unknown(what: &str, kind: &str, known: &[&str]) -> FormatError {
    FormatError::new(format!("unknown {what} kind '{kind}' (known: {})", known.join(", ")))
}

impl Instance {
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
    /// message starts with [`crate::verdict::INTERNAL_ERROR`], never a crash. When the budget
    /// runs out, [`Budget::exhausted`] tells the caller that the limit, not the instance, failed.
    pub fn validate_within(&self, budget: &mut Budget) -> Result<(), FormatError> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.validate_unguarded(budget)))
            .unwrap_or_else(|payload| {
                Err(FormatError::new(format!(
                    "{}: the checker stopped on a fault ({}) while validating the instance",
                    crate::verdict::INTERNAL_ERROR,
                    crate::verdict::panic_message(payload.as_ref())
                )))
            })
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
        Some(f) => {
            let hint = match f {
                "gamecert-certificate" => " (this file is a certificate: the instance comes first)",
                "gamecert-instance" => " (this file is an instance: the certificate comes second)",
                "gamecert-triangulation" => {
                    " (a bare triangulation: `gamecert gen triangulation` with --game or --flip \
                     writes an instance of a game on it)"
                }
                _ => "",
            };
            return Err(FormatError::new(format!("format is '{f}', expected '{format}'{hint}")));
        }
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
    use crate::base::cnf::Cnf;
    use crate::voronoi::sat_reduction::SatVoronoi;

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

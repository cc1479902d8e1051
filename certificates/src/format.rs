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
//!
//! A file holds exactly the fields of its kind: an unknown key, at the top level or in any
//! nested object, is an error naming it and the fields that object knows (see `body`).
//! Free-form are only the provenance the checker never reads: `source` in `voronoi` and
//! `vertexnim` instances, and `normalisation` in a one-round `source`.

use crate::base::binary;
use crate::base::budget::Budget;
use crate::verdict::{reject, Claim, Verdict, Work};
use serde::de::value::{MapAccessDeserializer, StringDeserializer};
use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use std::marker::PhantomData;

pub use crate::base::error::FormatError;
pub use crate::impartial::coins::{CoinGameSpec, CoinLabelling};
pub use crate::impartial::heaps::{HeapGame, HeapLabelling};
pub use crate::posdnf::dnf::{DnfStrategy, PosDnf};
pub use crate::triangle_avoidance::strategy::{TriangleSpec, TriangleStrategy};
pub use crate::triangulations::constructing::{BalancedColouring, ConstructStrategy};
pub use crate::triangulations::convex_heaps::MarkingKayles;
pub use crate::triangulations::flipping::{FlipSequence, FlipSpec, FlipValue};
pub use crate::triangulations::marking::{MarkingSpec, MarkingStrategy};
pub use crate::triangulations::nimstring_strips::NimstringStrips;
pub use crate::vertexnim::strategy::{VertexNimLabelling, VertexNimSpec, VertexNimStrategy};
pub use crate::voronoi::instance::{
    GraphSpec, MultiRound, MultiRoundSpec, OneRound, OneRoundFile, OneRoundSpec, ReductionSource,
    StartSpec,
};
pub use crate::voronoi::mirror::VoronoiMirror;
pub use crate::voronoi::multi_round::{VoronoiStrategy, VoronoiValue};
pub use crate::voronoi::one_round::{
    Refutation, RefutationMethod, Witness, CLAIM_BLACK_CANNOT_WIN, CLAIM_BLACK_WINS,
};
pub use crate::voronoi_paths::path_rule::PathRule;
pub use crate::voronoi_paths::paths::PathValue;

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
                Instance::of_kind(&envelope(text, INSTANCE_FORMAT)?, text)
            }

            fn of_kind(kind: &str, text: &str) -> Result<Instance, FormatError> {
                match kind {
                    $($ikind => Ok(Instance::$ivariant(body(text)?)),)*
                    other => Err(unknown("instance", other, INSTANCE_KINDS)),
                }
            }

            /// The instance as pretty JSON.
            pub fn to_json(&self) -> String {
                match self { $(Instance::$ivariant(x) => crate::base::pretty::write_envelope(INSTANCE_FORMAT, VERSION, $ikind, x),)* }
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

            /// Reads a certificate in the binary form ([`crate::base::binary`]) as it arrives,
            /// charging `budget` (the same types, fields and envelope rules as JSON).
            pub fn from_binary(r: impl std::io::BufRead, budget: &mut Budget) -> Result<Certificate, FormatError> {
                binary::read(r, budget, |[format, version, kind]| {
                    kind_of(Header { format: Some(format), version: Some(version), kind: Some(kind) }, CERTIFICATE_FORMAT)
                }, |kind, de| match kind {
                    $($ckind => Ok(Certificate::$cvariant(binary::body(de)?)),)*
                    other => Err(unknown("certificate", other, CERTIFICATE_KINDS)),
                })
            }

            /// The certificate as pretty JSON.
            pub fn to_json(&self) -> String {
                match self {
                    $(Certificate::$cvariant(x) => crate::base::pretty::write_envelope(CERTIFICATE_FORMAT, VERSION, $ckind, x),)*
                }
            }

            /// What the certificate claims, in words.
            pub fn claim(&self) -> String {
                match self { $(Certificate::$cvariant(x) => x.claim(),)* }
            }
        }

        /// A certificate serialises as its file: the envelope, then the kind's fields.
        impl serde::Serialize for Certificate {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self { $(Certificate::$cvariant(x) => serde::Serialize::serialize(&crate::base::pretty::envelope(CERTIFICATE_FORMAT, VERSION, $ckind, x), s),)* }
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
use crate::posdnf::dnf;
use crate::triangulations::{constructing, convex_heaps, flipping, marking, nimstring_strips};
use crate::voronoi::{mirror, multi_round, one_round};
use crate::voronoi_paths::{path_rule, paths};

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
        "voronoi-mirror" => VoronoiMirror(VoronoiMirror), on Voronoi, mirror::mirror_verdict;
        "voronoi-path-rule" => PathRule(PathRule), on Voronoi, path_rule::rule_verdict;
        "triangle-strategy" => TriangleStrategy(TriangleStrategy), on TriangleAvoidance,
            crate::triangle_avoidance::strategy::strategy_verdict;
        "marking-strategy" => MarkingStrategy(MarkingStrategy), on MarkingGame, marking::strategy_verdict;
        "flip-value" => FlipValue(FlipValue), on FlipGame, flipping::value_verdict;
        "flip-sequence" => FlipSequence(FlipSequence), on FlipGame, flipping::sequence_verdict;
        "flip-bound" => FlipBound(crate::triangulations::flip_bound::FlipBound), on FlipGame, crate::triangulations::flip_bound::bound_verdict;
        "marking-kayles" => MarkingKayles(MarkingKayles), on MarkingGame, convex_heaps::kayles_verdict;
        "heap-labelling" => HeapLabelling(HeapLabelling), on HeapGame, heaps::labelling_verdict;
        "coin-labelling" => CoinLabelling(CoinLabelling), on CoinGame, coins::labelling_verdict;
        "vertexnim-strategy" => VertexNimStrategy(VertexNimStrategy), on VertexNim,
            crate::vertexnim::strategy::strategy_verdict;
        "vertexnim-labelling" => VertexNimLabelling(VertexNimLabelling), on VertexNim,
            crate::vertexnim::strategy::labelling_verdict;
        "vertexnim-outcomes" => VertexNimOutcomes(crate::vertexnim::outcomes::VertexNimOutcomes), on VertexNim, crate::vertexnim::outcomes::outcomes_verdict;
        "construct-strategy" => ConstructStrategy(ConstructStrategy), on MarkingGame,
            constructing::strategy_verdict;
        "balanced-colouring" => BalancedColouring(BalancedColouring), on MarkingGame,
            constructing::colouring_verdict;
        "nimstring-strips" => NimstringStrips(NimstringStrips), on MarkingGame, nimstring_strips::strips_verdict;
    }
}

/// An instance as `verify` reads it: a `voronoi-one-round` one compactly, any other whole.
pub enum ReadInstance {
    OneRound(OneRoundFile),
    Other(Instance),
}

/// Reads an instance from JSON text as [`Instance::from_json`] does (the same faults, the same
/// messages), a `voronoi-one-round` one into its compact form.
pub fn read_instance_json(text: &str) -> Result<ReadInstance, FormatError> {
    match envelope(text, INSTANCE_FORMAT)?.as_str() {
        "voronoi-one-round" => body(text).map(ReadInstance::OneRound),
        kind => Instance::of_kind(kind, text).map(ReadInstance::Other),
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
        if err.is_data() && !err.to_string().starts_with("duplicate field") {
            FormatError::new("expected a JSON object with `format`, `version` and `kind`")
        } else {
            FormatError::from_json(err)
        }
    })?;
    kind_of(header, format)
}

/// The envelope's rules on its three fields (JSON and binary files alike): `format` and
/// `version` as expected, `kind` a string, returned.
fn kind_of(header: Header, format: &str) -> Result<String, FormatError> {
    match header.format.as_ref().map(|f| f.as_str().ok_or(f)) {
        Some(Ok(f)) if f == format => {}
        Some(Ok(f)) => {
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
        Some(Err(other)) => {
            return Err(FormatError::new(format!(
                "field `format` is {}, expected the string '{format}'",
                crate::base::error::short_value(other)
            )))
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
    match header.kind {
        Some(serde_json::Value::String(kind)) => Ok(kind),
        Some(other) => Err(FormatError::new(format!(
            "field `kind` is {}, expected a kind's name (a string)",
            crate::base::error::short_value(&other)
        ))),
        None => Err(FormatError::new("missing field `kind`")),
    }
}

/// The keys of the envelope, which [`envelope`] reads and [`body`] skips.
const ENVELOPE_FIELDS: [&str; 3] = ["format", "version", "kind"];

/// Reads the fields of a file's kind straight into `T` (the envelope's keys skipped, their
/// values never built), in one streaming pass. An instance is exactly its file: every kind's
/// type and every object nested in it refuses a field it does not know (`deny_unknown_fields`,
/// or a strict form of its own where the fields depend on a tag), with serde's message naming
/// the fields it knows, at the line and column of the key. The kind's own field list is serde's
/// (its `FIELDS`): nothing here repeats it, so nothing can drift from it.
fn body<T: DeserializeOwned>(text: &str) -> Result<T, FormatError> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let read = reader.deserialize_map(BodyVisitor(PhantomData)).and_then(|body| {
        reader.end()?;
        Ok(body)
    });
    read.map_err(FormatError::from_json)
}

/// Hands the top-level object, without the envelope, to `T`.
struct BodyVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for BodyVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::deserialize(MapAccessDeserializer::new(WithoutEnvelope(map)))
    }
}

/// A top-level object's entries but the envelope's.
struct WithoutEnvelope<A>(A);

impl<'de, A: MapAccess<'de>> MapAccess<'de> for WithoutEnvelope<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        while let Some(key) = self.0.next_key::<String>()? {
            if !ENVELOPE_FIELDS.contains(&key.as_str()) {
                return seed.deserialize(StringDeserializer::new(key)).map(Some);
            }
            self.0.next_value::<IgnoredAny>()?;
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.0.next_value_seed(seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::cnf::Cnf;
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

    #[test]
    fn a_repeated_envelope_field_is_named_with_its_place() {
        let text = "{\"format\": \"gamecert-instance\", \"version\": 1,\n \"format\": \"x\"}";
        let err = Instance::from_json(text).unwrap_err();
        assert!(err.to_string().contains("duplicate field `format`"), "{err}");
        assert!(err.to_string().contains("2:"), "{err}");
    }

    #[test]
    fn an_envelope_field_of_the_wrong_type_is_not_called_missing() {
        let err = Instance::from_json(r#"{"format": 1}"#).unwrap_err();
        assert_eq!(err.message, "field `format` is 1, expected the string 'gamecert-instance'");
        let err = Instance::from_json(r#"{"version": 1}"#).unwrap_err();
        assert_eq!(err.message, "missing field `format` ('gamecert-instance')");
        let err = Certificate::from_json(r#"{"format": true, "version": 1}"#).unwrap_err();
        assert!(err.message.starts_with("field `format` is true, expected the string"), "{err}");
        let err = Instance::from_json(
            r#"{"format": "gamecert-instance", "version": 1, "kind": ["heap-game"]}"#,
        )
        .unwrap_err();
        assert_eq!(
            err.message,
            "field `kind` is [\"heap-game\"], expected a kind's name (a string)"
        );
        let err =
            Instance::from_json(r#"{"format": "gamecert-instance", "version": 1}"#).unwrap_err();
        assert_eq!(err.message, "missing field `kind`");
        let long = format!(r#"{{"format": [{}0]}}"#, "0, ".repeat(1000));
        let err = Instance::from_json(&long).unwrap_err();
        assert_eq!(
            err.message,
            "field `format` is an array, expected the string 'gamecert-instance'"
        );
    }

    /// The message of reading `text` as an instance (`Err` expected).
    fn instance_error(text: &str) -> String {
        Instance::from_json(text).map(|i| format!("read as {i:?}")).unwrap_err().to_string()
    }

    fn certificate_error(text: &str) -> String {
        Certificate::from_json(text).map(|c| format!("read as {c:?}")).unwrap_err().to_string()
    }

    const HEADER: &str = r#""format": "gamecert-instance", "version": 1"#;

    #[test]
    fn an_unknown_field_is_refused_at_every_level_naming_the_known_ones() {
        let top = instance_error(
            &SMALL.replace("\"black_count\": 1", "\"black_count\": 1, \"roundz\": 5"),
        );
        assert_eq!(
            top,
            "3:50: unknown field `roundz`, expected one of `graph`, `white`, `black_count`, `source`"
        );
        let graph = instance_error(&SMALL.replace("\"edges\"", "\"edgez\": [], \"edges\""));
        assert_eq!(graph, "2:54: unknown field `edgez`, expected `vertices` or `edges`");
        let voronoi = format!(
            r#"{{{HEADER}, "kind": "voronoi", "graph": {{"vertices": ["a", "b"], "edges": []}},
            "rounds": 1, "start": {{"white": [], "black": [], "blacks": []}}}}"#
        );
        assert!(instance_error(&voronoi)
            .contains("unknown field `blacks`, expected `white` or `black`"));
        let source = SMALL.replace(
            "\"black_count\": 1",
            r#""black_count": 1, "source": {"reduction": "sat-voronoi1",
               "formula": {"num_vars": 1, "clauses": [], "num_clauses": 0}}"#,
        );
        let err = instance_error(&source);
        assert!(
            err.contains("unknown field `num_clauses`, expected `num_vars` or `clauses`"),
            "{err}"
        );
        // A coin product's components are rules of their own, with their own fields.
        let coins = |x: &str| {
            format!(
                r#"{{{HEADER}, "kind": "coin-game", "board": [4, 4], "heads": [[1, 1]],
                "rule": {{"game": "product", "x": {x}, "y": {{"game": "ruler"}}}}}}"#
            )
        };
        Instance::from_json(&coins(r#"{"game": "ruler", "base": 2}"#)).unwrap();
        let err = instance_error(&coins(r#"{"game": "ruler", "max_distance": 2}"#));
        assert!(
            err.ends_with(
                "unknown field `max_distance` for game `ruler`, expected one of `game`, `base`"
            ),
            "{err}"
        );
        let err = instance_error(&coins(r#"{"game": "subsets", "min_others": 1, "max_other": 2}"#));
        assert!(err.contains("unknown field `max_other` for game `subsets`"), "{err}");
        // Documented optional fields stay optional.
        let direct = r#"{"format": "gamecert-certificate", "version": 1, "kind": "refutation",
            "claim": "black-cannot-win", "method": "direct", "lrat": "1 0 0\n""#;
        Certificate::from_json(&format!("{direct}}}")).unwrap();
        // A direct refutation has no formula: one given would be silently ignored.
        let err = certificate_error(&format!(
            r#"{direct}, "formula": {{"num_vars": 1, "clauses": []}}}}"#
        ));
        assert!(
            err.ends_with("unknown field `formula` for method `direct`, expected one of `claim`, `method`, `lrat`"),
            "{err}"
        );
        let err = certificate_error(&format!(r#"{direct}, "reduction": "sat-voronoi1"}}"#));
        assert!(err.contains("unknown field `reduction` for method `direct`"), "{err}");
        let reduction = direct.replace("\"direct\"", "\"reduction\"");
        let err = certificate_error(&format!("{reduction}}}"));
        assert!(err.contains("missing field `reduction` (method `reduction`)"), "{err}");
        // A misspelt tag is named as unknown, not reported missing.
        let err = certificate_error(&format!("{}}}", direct.replace("\"method\"", "\"methd\"")));
        assert!(err.contains("unknown field `methd` for a refutation, expected one of"), "{err}");
        let err = instance_error(&coins(r#"{"gam": "ruler"}"#));
        assert!(err.contains("unknown field `gam` for a rule, expected one of `game`"), "{err}");
        assert!(instance_error(&coins("{}")).contains("missing field `game`"));
        // The top level is an object, its envelope read once.
        let err = instance_error(r#"["gamecert-instance", 1, "voronoi"]"#);
        assert!(err.contains("expected a JSON object"), "{err}");
    }

    /// The objects read through a strict form of their own (their fields depend on a tag) read
    /// back every variant as written: the strict forms have not drifted from the types.
    #[test]
    fn every_tagged_variant_reads_back_what_it_writes() {
        use crate::impartial::coins::{GameSpec, RuleSpec};
        let strip = |game| Box::new(RuleSpec { game, base: None });
        let games = [
            GameSpec::TurningTurtles,
            GameSpec::MockTurtles,
            GameSpec::Twins,
            GameSpec::Ruler,
            GameSpec::Grunt,
            GameSpec::Subsets { min_others: 1, max_others: 2, max_distance: Some(3) },
            GameSpec::Subsets { min_others: 0, max_others: 1, max_distance: None },
            GameSpec::Offsets { sets: vec![vec![1], vec![2, 3]] },
            GameSpec::Product { x: strip(GameSpec::Ruler), y: strip(GameSpec::Twins) },
            GameSpec::TurningCorners,
            GameSpec::Rugs,
            GameSpec::AcrosticTwins,
        ];
        for game in games {
            // A new variant fails to compile here until it is listed above.
            match game {
                GameSpec::TurningTurtles
                | GameSpec::MockTurtles
                | GameSpec::Twins
                | GameSpec::Ruler
                | GameSpec::Grunt
                | GameSpec::Subsets { .. }
                | GameSpec::Offsets { .. }
                | GameSpec::Product { .. }
                | GameSpec::TurningCorners
                | GameSpec::Rugs
                | GameSpec::AcrosticTwins => {}
            }
            for base in [None, Some(-2)] {
                let rule = RuleSpec { game: game.clone(), base };
                let text = serde_json::to_string(&rule).unwrap();
                assert_eq!(serde_json::from_str::<RuleSpec>(&text).unwrap(), rule, "{text}");
            }
        }
        let formula = Cnf { num_vars: 1, clauses: vec![vec![1]] };
        let methods = [
            RefutationMethod::Direct,
            RefutationMethod::Reduction { reduction: SatVoronoi::Problem2, formula },
        ];
        for method in methods {
            match method {
                RefutationMethod::Direct | RefutationMethod::Reduction { .. } => {}
            }
            let cert = Certificate::Refutation(Refutation {
                claim: CLAIM_BLACK_CANNOT_WIN.into(),
                method,
                lrat: "1 0 0\n".into(),
            });
            assert_eq!(Certificate::from_json(&cert.to_json()).unwrap(), cert);
        }
        let marking = Instance::MarkingGame(MarkingSpec {
            game: crate::triangulations::marking::MarkingGame::Coloring,
            triangulation: crate::triangulations::geometry::TriangulationSpec {
                points: vec![[0, 0], [1, 0], [0, 1]],
                triangles: vec![[0, 1, 2]],
                edges: vec![[0, 1]],
            },
        });
        assert_eq!(Instance::from_json(&marking.to_json()).unwrap(), marking);
    }

    /// `verify` reads a one-round instance compactly: the same files read, the same faults
    /// refused with the same messages, the same instance validated.
    #[test]
    fn the_compact_one_round_reading_reads_and_refuses_what_the_whole_one_does() {
        let variants = [
            SMALL.to_string(),
            SMALL.replace("\"black_count\": 1", "\"black_count\": 1, \"roundz\": 5"),
            SMALL.replace("\"black_count\": 1", "\"black_count\": -1"),
            SMALL.replace("\"black_count\": 1", "\"black_count\": \"1\""),
            SMALL.replace("\"black_count\": 1", "\"black_count\": 1, \"black_count\": 1"),
            SMALL.replace(", \"black_count\": 1", ""),
            SMALL.replace("\"white\": [\"u\"]", "\"white\": \"u\""),
            SMALL.replace("\"white\": [\"u\"]", "\"white\": []"),
            SMALL.replace("\"white\": [\"u\"]", "\"white\": [\"u\", \"u\"]"),
            SMALL.replace("\"white\": [\"u\"]", "\"white\": [\"q\"]"),
            SMALL.replace("\"black_count\": 1", "\"black_count\": 3"),
            SMALL.replace("\"edges\"", "\"edgez\": [], \"edges\""),
            SMALL.replace("[\"a\", \"b\"]]", "[\"a\", \"b\", \"u\"]]"),
            SMALL.replace("[\"a\", \"b\"]]", "[\"a\", 2]]"),
            SMALL.replace("[\"a\", \"b\"]]", "[\"a\", \"b\"], [\"b\", \"a\"]]"),
            SMALL.replace("[\"a\", \"b\"]]", "[\"a\", \"z\"]]"),
            SMALL.replace("\"b\"],", "\"a\"],"),
            SMALL.replace("\"graph\": {", "\"graph\": 7, \"x\": {"),
            SMALL.replace(
                "\"black_count\": 1",
                r#""black_count": 1, "source": {"reduction": "sat-voronoi1",
                   "formula": {"num_vars": 1, "clauses": [], "num_clauses": 0}}"#,
            ),
            SMALL.replace(
                "\"black_count\": 1",
                r#""black_count": 1, "source": {"reduction": "sat-voronoi1",
                   "formula": {"num_vars": 1, "clauses": [[1]]}, "normalisation": {"a": [1]}}"#,
            ),
            SMALL.replace("}", ""),
            SMALL.replace("voronoi-one-round", "voronoi"),
            SMALL.replace("\"version\": 1", "\"version\": 2"),
        ];
        for text in &variants {
            let whole = Instance::from_json(text).and_then(|i| match i {
                Instance::VoronoiOneRound(spec) => {
                    spec.validate().map(|g| (g.graph.edges(), g.white))
                }
                other => Err(FormatError::new(format!("kind {}", other.kind()))),
            });
            let compact = read_instance_json(text).and_then(|read| match read {
                ReadInstance::OneRound(file) => file
                    .validate_within(&mut Budget::unlimited())
                    .map(|g| (g.graph.edges(), g.white)),
                ReadInstance::Other(other) => {
                    Err(FormatError::new(format!("kind {}", other.kind())))
                }
            });
            assert_eq!(whole, compact, "{text}");
        }
    }
}

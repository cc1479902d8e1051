//! The Voronoi game's instance kinds: `voronoi-one-round` ([`OneRoundSpec`]) and the
//! multi-round `voronoi` ([`MultiRoundSpec`]), as read from a file and as validated.

use crate::base::budget::Budget;
use crate::base::error::FormatError;
use crate::base::graph::Graph;
pub use crate::base::graph_file::{GraphFile, GraphSpec};
use crate::sat::cnf::Cnf;
use crate::voronoi::sat_reduction::SatVoronoi;
use serde::{Deserialize, Serialize};

/// Where an instance came from, when a reduction built it.
/// `verify` reads `normalisation` as a [`crate::base::free_form::FreeForm`], checked and dropped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReductionSource<N = serde_json::Value> {
    /// `sat-voronoi1` or `sat-voronoi2`.
    pub reduction: SatVoronoi,
    /// The normalised formula the graph was built from.
    pub formula: Cnf,
    /// The formula as the user gave it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<Cnf>,
    /// How normalised variables map back to the original ones (reductions crate format).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub normalisation: Option<N>,
}

/// Instance kind `voronoi-one-round`: W holds `white`, then B places `black_count` vertices.
/// The question: can B win?
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
        one_round(graph, &self.white, self.black_count)
    }
}

/// A `voronoi-one-round` instance as `verify` reads it: the same fields and checks as
/// [`OneRoundSpec`], the graph held compactly ([`GraphFile`]); `source` is read (an unknown
/// field in it is refused) and never used.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "OneRoundSpec", expecting = "struct OneRoundSpec")]
pub struct OneRoundFile {
    graph: GraphFile,
    white: Vec<String>,
    black_count: usize,
    #[serde(default, rename = "source")]
    _source: Option<ReductionSource<crate::base::free_form::FreeForm>>,
}

impl OneRoundFile {
    /// As [`OneRoundSpec::validate_within`].
    pub fn validate_within(&self, budget: &mut Budget) -> Result<OneRound, FormatError> {
        let graph = Graph::from_source(&self.graph, budget)?;
        one_round(graph, &self.white, self.black_count)
    }
}

/// The checks of a one-round instance beyond its graph: a non-empty W set of distinct known
/// vertices, and 1 <= n <= the number of free vertices.
fn one_round(
    graph: Graph,
    white_names: &[String],
    black_count: usize,
) -> Result<OneRound, FormatError> {
    if white_names.is_empty() {
        return Err(FormatError::new("white: W's set S is empty"));
    }
    let mut white = Vec::with_capacity(white_names.len());
    let mut taken = vec![false; graph.len()];
    for (k, name) in white_names.iter().enumerate() {
        let v = graph
            .vertex(name)
            .ok_or_else(|| FormatError::new(format!("white[{k}]: unknown vertex '{name}'")))?;
        if taken[v] {
            return Err(FormatError::new(format!("white[{k}]: vertex '{name}' is listed twice")));
        }
        taken[v] = true;
        white.push(v);
    }
    let free = graph.len() - white.len();
    if black_count == 0 {
        return Err(FormatError::new("black_count: B must place at least one vertex"));
    }
    if black_count > free {
        return Err(FormatError::new(format!(
            "black_count: n = {black_count} is larger than the {free} free vertices"
        )));
    }
    Ok(OneRound { graph, white, black_count })
}

/// W's and B's vertices at the start of a multi-round game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSpec {
    pub white: Vec<String>,
    pub black: Vec<String>,
}

/// Instance kind `voronoi`: the multi-round game, `rounds` moves each, W first in every round,
/// optionally from a start position. The question: the game's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
            crate::voronoi::rules::to_move(&start, self.rounds)
                .map_err(|why| FormatError::new(format!("start: {why}")))?;
        }
        Ok(MultiRound { graph, rounds: self.rounds, start })
    }
}

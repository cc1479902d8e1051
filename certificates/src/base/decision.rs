//! The record of a check's work ([`Work`]) and its three answers ([`Decision`]), kept out of the
//! shared core; [`crate::verdict`] re-exports both.

#[cfg(doc)]
use crate::base::budget::Limits;
use serde::Serialize;

/// What the checker did, for the report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Work {
    /// The graph's vertices and edges, for the kinds played on a graph (absent for the
    /// others: a heap game or a bare formula has no graph, not an empty one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertices: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_score: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_score: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cnf_variables: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cnf_clauses: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_additions: Option<u64>,
    /// Of the additions, those justified as RAT steps (absent when there were none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_rat_additions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_deletions: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lrat_hints: Option<u64>,
    /// Positions a strategy replay expanded (each once).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions: Option<u64>,
    /// Final (or settled) positions a replay reached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leaves: Option<u64>,
    /// Symmetry witnesses verified and used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symmetries: Option<u64>,
    /// Work units spent against the budget ([`Limits::max_work`]).
    pub work_units: u64,
    /// Steps of pure computation taken besides ([`Limits::max_steps`]; absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
}

/// The three answers a check can give (issue 47): a check whose budget ran out before it could
/// decide is not a rejection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Decision {
    /// The certificate proves its claim (exit 0).
    Accepted,
    /// The certificate is wrong: the reason names the position or proof step that fails
    /// (exit 1).
    Rejected,
    /// The work budget ran out before the check could decide (exit 3): nothing was found
    /// wrong, and nothing was established.
    NotChecked,
}

impl Decision {
    /// The exit code of `verify` and `gamecert-check`: 0, 1, or 3 (2 is bad input).
    pub fn exit_code(self) -> u8 {
        match self {
            Decision::Accepted => 0,
            Decision::Rejected => 1,
            Decision::NotChecked => 3,
        }
    }

    /// How a text verdict begins: `ACCEPTED`, `REJECTED`, `NOT CHECKED`.
    pub fn word(self) -> &'static str {
        match self {
            Decision::Accepted => "ACCEPTED",
            Decision::Rejected => "REJECTED",
            Decision::NotChecked => "NOT CHECKED",
        }
    }

    /// The `verdict` token of `--json` output: `accepted`, `rejected`, `not-checked`.
    pub fn token(self) -> &'static str {
        match self {
            Decision::Accepted => "accepted",
            Decision::Rejected => "rejected",
            Decision::NotChecked => "not-checked",
        }
    }
}

//! The checker's answer ([`Verdict`]), the record of its work ([`Work`]), and the one list of
//! theorems it may take on faith ([`Theorem`], [`TRUSTED_THEOREMS`]).

pub use crate::base::theorems::{TRUSTED_NIMSTRING_VALUES, TRUSTED_TRIANGULATION_HEAPS};
use serde::Serialize;

/// The start of the reason of a verdict that ended in an internal fault (a panic the checker
/// caught, such as an arithmetic overflow that range checks should have prevented): the
/// certificate is rejected, and the fault is a bug to report.
pub const INTERNAL_ERROR: &str = "internal error";

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

/// The checker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub outcome: Decision,
    /// What the certificate claims (and, if accepted, what is now established).
    pub claim: String,
    /// Why it was accepted, or the first thing that failed.
    pub reason: String,
    pub work: Work,
    /// The theorems taken on faith for this verdict (empty when nothing but the rules is).
    pub trusted: Vec<String>,
}

impl Verdict {
    /// An acceptance of `claim`, resting on the rules and on `trusted`.
    pub fn accept(claim: String, reason: String, work: Work, trusted: &[Theorem]) -> Verdict {
        let trusted = trusted.iter().map(|t| t.statement().to_string()).collect();
        Verdict { outcome: Decision::Accepted, claim, reason, work, trusted }
    }

    /// Whether the certificate was accepted.
    pub fn accepted(&self) -> bool {
        self.outcome == Decision::Accepted
    }

    /// This verdict, told as not checked when it is a rejection and `budget` ran out: the
    /// check stopped for want of work, not on a fault it found. The reason then says what was
    /// spent and what a larger `--max-work` would do.
    pub fn unless_out_of_budget(mut self, budget: &crate::base::budget::Budget) -> Verdict {
        if self.outcome == Decision::Rejected && budget.exhausted() {
            self.outcome = Decision::NotChecked;
            self.reason = format!(
                "{}; nothing was found wrong and nothing established: --max-work {} (ten times \
                 this budget) lets the check go further",
                self.reason,
                budget.limit().saturating_mul(10),
            );
        }
        self
    }

    /// Accepts `claim` with the reason `found` gives for `Ok`, rejects it with the error.
    pub fn decide<T>(
        claim: String,
        outcome: Result<T, String>,
        found: impl FnOnce(T) -> (String, Work),
        trusted: &[Theorem],
    ) -> Verdict {
        match outcome {
            Ok(report) => {
                let (reason, work) = found(report);
                Verdict::accept(claim, reason, work, trusted)
            }
            Err(why) => reject(claim, why, Work::default()),
        }
    }

    /// The rejection of a certificate whose instance is not valid.
    pub fn invalid(claim: String, err: impl std::fmt::Display) -> Verdict {
        reject(claim, format!("the instance is not valid: {err}"), Work::default())
    }
}

/// What a certificate claims, in words: the `claim` of its verdict when the check cannot get
/// as far as the family's own wording (a mismatched instance, a fault).
pub trait Claim {
    fn claim(&self) -> String;
}

/// A rejection: `claim` is what the certificate claimed, `reason` the first thing that failed.
pub fn reject(claim: String, reason: String, work: Work) -> Verdict {
    Verdict { outcome: Decision::Rejected, claim, reason, work, trusted: Vec::new() }
}

/// The text of a panic's payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// A theorem the checker takes on faith, named; its statement is [`Theorem::statement`], an
/// entry of [`TRUSTED_THEOREMS`]. A verdict lists the statements of the ones it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theorem {
    SatVoronoiTheorem3 = 0,
    SatVoronoiCorollary1,
    PathGaps,
    SpragueGrundy,
    OctalPeriodicity,
    TriangulationHeaps,
    CoinDecomposition,
    VertexNimTheorem10,
    VertexNimTheorem6,
    VertexNimTheorem3,
    NimstringValues,
}

impl Theorem {
    /// Every theorem, in the order of [`TRUSTED_THEOREMS`].
    pub const ALL: [Theorem; 11] = [
        Theorem::SatVoronoiTheorem3,
        Theorem::SatVoronoiCorollary1,
        Theorem::PathGaps,
        Theorem::SpragueGrundy,
        Theorem::OctalPeriodicity,
        Theorem::TriangulationHeaps,
        Theorem::CoinDecomposition,
        Theorem::VertexNimTheorem10,
        Theorem::VertexNimTheorem6,
        Theorem::VertexNimTheorem3,
        Theorem::NimstringValues,
    ];

    /// The statement taken on faith.
    pub fn statement(self) -> &'static str {
        TRUSTED_THEOREMS[self as usize]
    }
}

/// Seed 001 (Teramoto, Demaine, Uehara), Theorem 3.
pub const TRUSTED_THEOREM_3: &str = "Teramoto-Demaine-Uehara Theorem 3: for a CNF formula with \
clauses of 1 to 3 literals in which each variable occurs at most three times, B wins the \
one-round game on the sat-voronoi1 graph (W holds u, B places n vertices) iff the formula is \
satisfiable";

/// Seed 001, Corollary 1.
pub const TRUSTED_COROLLARY_1: &str = "Teramoto-Demaine-Uehara Corollary 1: the same for the \
sat-voronoi2 graph (W holds u and n - 1 pendant vertices of P)";

/// The Sprague-Grundy theorem, for impartial games under normal play.
pub const TRUSTED_SPRAGUE_GRUNDY: &str = "Sprague-Grundy theorem: under normal play, the Grundy \
value of a disjunctive sum of impartial games is the nim sum (XOR) of the components' values, \
and a position is a second-player win iff its value is 0";

/// The periodicity theorem for octal games (Guy and Smith 1956; Winning Ways, chapter 4), used
/// when a heap labelling claims a period.
pub const TRUSTED_OCTAL_PERIODICITY: &str = "octal periodicity theorem (Guy-Smith): for an \
octal game whose code has first digit 0 and last non-zero digit in position t, if G(n + p) = \
G(n) for all n with n0 <= n < 2 n0 + p + t, then G(n + p) = G(n) for every n >= n0";

/// The gap abstraction of the game on a path ([`path_game`]); tested against the reference
/// rules on every position of every path with at most 9 vertices.
pub const TRUSTED_PATH_GAPS: &str = "path gaps: scores and moves of the Voronoi game on a path \
depend only on the multiset of typed gaps (maximal runs of empty vertices, typed by the path \
end or stones that bound them)";

/// The coin-turning decomposition (seed 003; Winning Ways, chapter 14).
pub const TRUSTED_COIN_DECOMPOSITION: &str = "Coin-turning decomposition: in a coin-turning game \
(a move turns over a set of coins whose last coin, the rightmost or in a product game the \
south-east corner, goes from heads to tails, and the sets allowed depend only on that last coin), \
a position is equivalent to the disjunctive sum of the positions with a single head, one for \
each of its heads (a tail turned to heads adds a component, a head turned to tails removes one, \
as G + G = 0); so the Grundy value of a single head is the mex over its moves of the nim sum of \
the values of the other coins turned, and a position's value is the nim sum of its heads' values";

/// Seed 004 (Duchene and Renault), Theorem 10, Theorem 13 and Corollary 12 as this project
/// reconstructs them (the seed lost its symbols); compared with an exact solver on every
/// undirected graph with at most 5 vertices and weights at most 3, and more (see the README).
pub const TRUSTED_VERTEXNIM_THEOREM_10: &str = "Duchene-Renault Theorem 10 / 13 / Corollary 12 \
(as reconstructed by gamecert): in undirected vertexnim, if every weight is 1 the first player \
wins iff the number of vertices is odd (even under misere play); a single vertex of weight at \
least 2 is a first-player win (under misere play iff it has a loop); otherwise the first player \
wins iff the token's vertex has weight 1 and its component among the weight-1 vertices has even \
order, or has weight at least 2 and a loop or a weight-1 neighbour, or is labelled N in the \
minimum-weight labelling of G* (vertices of weight >= 2 without loop or weight-1 neighbour: \
a vertex is P iff no neighbour in G* of strictly smaller weight is P); the same holds for \
undirected Vertex NimG under normal play with 0 in place of 1 and a loop deciding for the first \
player";

/// Seed 004, Theorems 6 and 14 with the labelling of Definition 7, as this project reconstructs
/// them; compared with an exact solver on every strongly connected digraph with a loop on each
/// vertex, up to 4 vertices with weights up to 4 and 5 vertices with weights up to 2.
pub const TRUSTED_VERTEXNIM_THEOREM_6: &str = "Duchene-Renault Theorem 6 / 14 (as reconstructed \
by gamecert): in directed vertexnim on a strongly connected digraph with a loop on every vertex, \
if every weight is 1 the first player wins iff the number of vertices is odd (even under misere \
play); otherwise the first player wins iff the token's vertex has weight at least 2 or is \
labelled N by the peeling of Definition 7 (repeatedly, a sink strongly connected component C of \
the unlabelled weight-1 vertices: if |C| is odd, C is P and its unlabelled in-neighbours N; if \
|C| is even, C is N)";

/// Seed 004, Theorem 3 (Adjacent Nim), as this project reconstructs it; compared with an exact
/// solver on every circuit with 2 to 6 vertices and weights from 2 up to 5 (up to 4 vertices) or
/// 4 (1,308 positions).
pub const TRUSTED_VERTEXNIM_THEOREM_3: &str = "Duchene-Renault Theorem 3, Adjacent Nim (as \
reconstructed by gamecert): in directed vertexnim under normal play on a circuit of n >= 2 \
vertices without loops, every weight at least 2, the first player wins if n is odd; if n is even \
she wins iff the first vertex of minimum weight met from the token in play order sits at an odd \
offset (the token's vertex is offset 0)";

/// The one list of theorems the checker may take on faith.
pub const TRUSTED_THEOREMS: &[&str] = &[
    TRUSTED_THEOREM_3,
    TRUSTED_COROLLARY_1,
    TRUSTED_PATH_GAPS,
    TRUSTED_SPRAGUE_GRUNDY,
    TRUSTED_OCTAL_PERIODICITY,
    TRUSTED_TRIANGULATION_HEAPS,
    TRUSTED_COIN_DECOMPOSITION,
    TRUSTED_VERTEXNIM_THEOREM_10,
    TRUSTED_VERTEXNIM_THEOREM_6,
    TRUSTED_VERTEXNIM_THEOREM_3,
    TRUSTED_NIMSTRING_VALUES,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_theorem_names_its_own_statement() {
        assert_eq!(Theorem::ALL.len(), TRUSTED_THEOREMS.len());
        for (k, theorem) in Theorem::ALL.iter().enumerate() {
            assert_eq!(*theorem as usize, k);
            assert_eq!(theorem.statement(), TRUSTED_THEOREMS[k]);
        }
    }
}

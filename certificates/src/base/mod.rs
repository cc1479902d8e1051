//! Pieces every family shares: the work budget, position fingerprints, CNF and the LRAT
//! checker, graphs, exact geometry, and the tokenizer of the text formats.

pub mod budget;
pub mod cnf;
pub mod dimacs;
pub mod error;
pub(crate) mod fingerprint;
pub mod geometry;
pub mod graph;
pub mod lrat;
pub mod text;

/// Whether a certificate's `winner` field names the first player ("first") or the second
/// ("second"); anything else is an error naming the value.
pub(crate) fn winner_is_first(winner: &str) -> Result<bool, String> {
    match winner {
        "first" => Ok(true),
        "second" => Ok(false),
        other => Err(format!("winner '{other}' is neither \"first\" nor \"second\"")),
    }
}

//! Pieces every family shares: the work budget, position fingerprints, CNF and the LRAT
//! checker, graphs, exact geometry, the tokenizer of the text formats; and the pieces of the
//! command-line pipeline that are not verification: reading input files, the JSON output
//! envelope, `gamecert-check`'s arguments.

pub mod binary;
pub mod budget;
pub mod command_line;
pub mod decision;
pub mod error;
pub mod fault;
pub mod fingerprint;
pub mod free_form;
pub mod graph;
pub mod graph_file;
pub mod input;
pub mod output;
pub mod prepay;
pub(crate) mod pretty;
pub mod text;
pub mod theorems;
pub mod tree_canon;

/// Whether a certificate's `winner` field names the first player ("first") or the second
/// ("second"); anything else is an error naming the value.
pub(crate) fn winner_is_first(winner: &str) -> Result<bool, String> {
    match winner {
        "first" => Ok(true),
        "second" => Ok(false),
        other => Err(format!("winner '{other}' is neither \"first\" nor \"second\"")),
    }
}

//! Pieces every family shares: the work budget, position fingerprints, CNF and the LRAT
//! checker, graphs, exact geometry, and the tokenizer of the text formats.

pub mod budget;
pub mod cnf;
pub mod error;
pub(crate) mod fingerprint;
pub mod geometry;
pub mod graph;
pub mod lrat;
pub mod text;

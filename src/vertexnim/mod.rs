//! Vertex nim on graphs (seed 004) and Stockman's Vertex NimG.

pub mod generate;
pub mod outcomes;
pub mod solver;
pub mod table;

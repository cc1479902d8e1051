//! Vertex nim on graphs (seed 004) and Stockman's Vertex NimG.

pub mod generate;
pub mod solver;

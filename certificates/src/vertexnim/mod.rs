//! Vertex nim on graphs (seed 004) and Stockman's Vertex NimG.

pub mod outcomes;
pub mod strategy;

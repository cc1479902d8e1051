//! Pieces the families share: reading files, a seeded random generator, size limits, SAT solving with LRAT proofs, pictures.

pub mod io;
pub mod limits;
pub mod method;
pub mod render;
pub mod rng;
pub mod sat;
pub mod svg;

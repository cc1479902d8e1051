//! Pieces the families share: reading files, a seeded random generator, size limits, SAT solving
//! with LRAT proofs, pictures, OEIS references for tables.

pub mod graph_svg;
pub mod io;
pub mod limits;
pub mod method;
pub mod oeis;
pub mod point_layout;
pub mod render;
pub mod rng;
pub mod sat;
pub mod solved;
pub mod svg;

/// The name a value has in the file formats (its serde string: `four-cycle`, `sat-voronoi1`),
/// for messages; Rust's `Debug` names never reach a user.
pub fn token<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".into(),
    }
}

//! Pieces the families share: reading files, a seeded random generator, size limits, SAT solving
//! with LRAT proofs, pictures, OEIS references for tables.

pub mod binary;
pub mod gadget_layout;
pub mod game_pictures;
pub mod graph_layout;
pub mod graph_svg;
pub mod growing_file;
pub mod held;
pub mod hull;
pub mod io;
pub mod large_pictures;
pub mod limits;
pub mod method;
pub mod oeis;
pub mod point_layout;
pub mod proof;
pub mod render;
pub mod rng;
pub mod sat;
pub mod solved;
pub mod svg;
pub mod tree_overview;

/// The name a value has in the file formats (its serde string: `four-cycle`, `sat-voronoi1`),
/// for messages; Rust's `Debug` names never reach a user.
pub fn token<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => "?".into(),
    }
}

/// The value of `all` whose command-line name (`name`) is `text`, or a message naming the
/// `what` and every known name: the one parser behind the `FromStr` of the library's named
/// choices (methods, SAT backends, reductions).
pub fn by_name<T: Copy>(
    all: &[T],
    name: impl Fn(T) -> &'static str,
    what: &str,
    text: &str,
) -> Result<T, String> {
    all.iter().copied().find(|&v| name(v) == text).ok_or_else(|| {
        let known: Vec<&str> = all.iter().map(|&v| name(v)).collect();
        format!("unknown {what} '{text}' (known: {})", known.join(", "))
    })
}

//! Vertex nim on graphs (seed 004) and Stockman's Vertex NimG.

pub mod generate;
pub mod outcomes;
pub mod solver;
pub mod table;

/// The validated game of a `vertexnim` instance, for the registry's methods.
pub fn game_of(
    instance: &gamecert_certificates::format::Instance,
) -> anyhow::Result<gamecert_certificates::vertexnim::strategy::VertexNim> {
    let gamecert_certificates::format::Instance::VertexNim(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "vertex nim"));
    };
    Ok(spec.validate().map_err(crate::base::io::BadInput)?)
}

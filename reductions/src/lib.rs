//! gamecert-reductions: formulas, parsers and the papers' reductions.
//!
//! Each reduction has the three maps of a Karp reduction: the instance map, the forward
//! certificate map (a witness of the source problem to one of the target) and the backward map
//! (any witness of the target back to the source). The constructions themselves live in the
//! checker crate (for reductions whose certificates appeal to them) or here (when the checker
//! replays certificates on the built instance itself).
pub mod dimacs;
pub mod edgelist;
pub mod normalise;
pub mod posdnf;
pub mod posdnf_voronoi;
pub mod sat_voronoi;
mod text;

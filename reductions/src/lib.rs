//! gamecert-reductions: formulas, parsers and the papers' reductions.
//!
//! Each reduction has the three maps of a Karp reduction: the instance map, the forward
//! certificate map (a witness of the source problem to one of the target) and the backward map
//! (any witness of the target back to the source). The constructions themselves live in the
//! checker crate, once, and are called from here.
pub mod dimacs;
pub mod edgelist;
pub mod normalise;
pub mod sat_voronoi;

//! gamecert-reductions: formulas, the DIMACS parser and the papers' reductions. (The parsers of
//! instance files, the edge list and the positive-DNF text, live in the checker crate: what an
//! instance is must be decided by code the user trusts.)
//!
//! Each reduction has the three maps of a Karp reduction: the instance map, the forward
//! certificate map (a witness of the source problem to one of the target) and the backward map
//! (any witness of the target back to the source). The constructions themselves live in the
//! checker crate (for reductions whose certificates appeal to them) or here (when the checker
//! replays certificates on the built instance itself).
//!
//! [`graphs`] is the solver side's graph layer (petgraph, graph6, DIMACS graphs), here so that
//! both the reductions and the solver crate build their graphs through it.
pub mod dimacs;
pub mod graphs;
pub mod lrat_steps;
pub mod normalise;
pub mod normalise_proof;
pub mod posdnf_voronoi;
pub mod sat_answer;
pub mod sat_voronoi;

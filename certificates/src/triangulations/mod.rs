//! The games on triangulations of seed 000: marking, constructing, flipping, and the convex
//! positions where the paper reduces a game to heaps.

pub mod constructing;
pub mod convex_heaps;
pub mod flip_bound;
pub mod flipping;
pub mod geometry;
pub mod marking;
pub mod nimstring_strips;

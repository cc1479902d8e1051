//! The multi-round Voronoi game on a path (seed 001's conjecture): the gap-state abstraction
//! and the replay of listed path strategies ([`paths`]), and rule certificates whose moves the
//! checker computes itself ([`path_rule`], issue 49). Apart from `voronoi/` (on which it
//! builds) since the two passed a family's line limit together (2026-12-07).

pub mod path_rule;
pub mod paths;

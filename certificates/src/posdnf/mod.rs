//! Schaefer's positive-DNF game G_pos(POS DNF) (seed 001, Section 5), the source of the
//! PSPACE-hardness reduction to the multi-round Voronoi game: the reference rules and the
//! replay of a strategy certificate ([`dnf`]), and the text format of a formula ([`dnf_text`]).

pub mod dnf;
pub mod dnf_text;

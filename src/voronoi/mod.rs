//! The Voronoi game on graphs (seed 001): the one-round game and its 3SAT reduction, the multi-round game (exact, trees, k-ary trees, paths, B's mirror), Schaefer's positive-DNF game and its reduction, generators and tables.

pub mod census;
pub mod check_dnf_reduction;
pub mod check_reduction;
pub mod dnf;
pub mod dnf_maps;
pub mod exact;
pub mod families;
pub mod gen;
pub mod kary;
pub mod mirror;
pub mod one_round;
pub mod one_round_exact;
pub mod paths;
pub mod principal_line;
pub mod solve;
pub mod tables;
pub mod tree_exact;
pub mod tree_prove;
pub mod tree_symmetry;
pub mod trees;

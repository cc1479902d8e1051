//! The Voronoi game on graphs (seed 001): the reference rules, the one-round game's encoding,
//! the 3SAT reduction, the multi-round game (graphs and paths, and B's mirror strategy);
//! Schaefer's positive-DNF game is its own folder, [`crate::posdnf`].

pub mod edgelist;
pub mod encode;
pub mod instance;
pub mod mirror;
pub mod multi_round;
pub mod one_round;
pub mod rules;
pub mod sat_reduction;

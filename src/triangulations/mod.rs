//! The games on triangulations of seed 000: marking, constructing and flipping games, their generators, tables and pictures.

pub mod construct_table;
pub mod constructing;
pub mod convex_heaps;
pub mod flip_render;
pub mod flip_solve;
pub mod flip_table;
pub mod flipping;
pub mod generate;
pub mod green_wins;
pub mod marking;
pub mod mft_convex;
pub mod nimstring;
pub mod nimstring_strips;
pub mod play_pictures;
pub mod serpentine;
pub mod serpentine_string;
pub mod solitaire;
pub mod solve;
pub mod theorem_10;

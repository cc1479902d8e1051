//! Impartial games checked by Grundy labellings: heap (octal) games and coin-turning games.

pub mod coins;
pub mod heaps;

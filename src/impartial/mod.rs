//! Impartial games: octal games and Grundy's game, nim arithmetic, coin-turning games (seeds 000 and 003).

pub mod coins;
pub mod nim;
pub mod octal;
pub mod pictures;

//! One-colour triangle avoidance (seed 002): the Winner's strategy over unlabelled positions.

pub mod strategy;

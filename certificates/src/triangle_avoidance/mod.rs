//! One-colour triangle avoidance (seed 002): the Winner's strategy over unlabelled positions,
//! as one JSON document ([`strategy`]) or as a stream checked two levels at a time ([`stream`]).

pub mod strategy;
pub mod stream;

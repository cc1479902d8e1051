//! One-colour triangle avoidance (seed 002): canonical forms, the game digraph solver and its checkpoints.

pub mod canon;
pub mod checkpoint;
pub mod distributed;
pub mod external;
pub mod prove;
pub mod rules;
pub mod solver;
pub mod stream_certificate;

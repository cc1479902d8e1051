//! The mutation fuzzer of the checker; see `tests/fuzz_checker.rs`.
pub mod child;
pub mod mutate;
pub mod parent;
pub mod rng;
pub mod seeds;
pub mod truth;

//! gamecert: solvers, strategy programs and the command line (being laid out).
pub mod rng;

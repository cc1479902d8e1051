//! The checker crate's integration tests, one test binary: the golden fixtures (every kind,
//! accepted and rejected), exact instances, and the stand-alone `gamecert-check` (also on
//! endless streams under a memory limit).

mod endless_input;
mod exact_instances;
mod fixtures;
mod gamecert_check;

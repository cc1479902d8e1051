//! The `gamecert` command line: one file per command (in the binary, not the library).

pub mod bench;
pub mod demo;

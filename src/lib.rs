//! gamecert: solvers, strategy programs and the command line.
//!
//! The library half of the `gamecert` binary, so that integration tests and benchmarks call the
//! same code the command line does. Nothing here is trusted: every answer is turned into a
//! certificate and handed to `gamecert_certificates::check`.
pub mod base;
pub mod bench;
pub mod bench_construct;
pub mod bench_convex;
pub mod bench_flipping;
pub mod bench_games;
pub mod bench_nim;
pub mod bench_octal;
pub mod bench_triangle;
pub mod bench_vertexnim;
pub mod demo;
pub mod impartial;
pub mod solve;
pub mod triangle_avoidance;
pub mod triangulations;
pub mod vertexnim;
pub mod voronoi;

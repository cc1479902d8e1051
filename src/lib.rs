//! gamecert: solvers, strategy programs and the command line.
//!
//! The library half of the `gamecert` binary, so that integration tests and benchmarks call the
//! same code the command line does. Nothing here is trusted: every answer is turned into a
//! certificate and handed to `gamecert_certificates::check`.
pub mod bench;
pub mod bench_construct;
pub mod bench_convex;
pub mod bench_flipping;
pub mod bench_games;
pub mod bench_nim;
pub mod bench_octal;
pub mod bench_triangle;
pub mod bench_vertexnim;
pub mod canon;
pub mod check_posdnf;
pub mod check_reduction;
pub mod coins;
pub mod construct;
pub mod convex_heaps;
pub mod demo;
pub mod flip_render;
pub mod flip_table;
pub mod flipping;
pub mod games;
pub mod gen;
pub mod io;
pub mod kary;
pub mod limits;
pub mod marking;
pub mod mft_convex;
pub mod nim;
pub mod nimstring;
pub mod octal;
pub mod paths;
pub mod posdnf;
pub mod posdnf_maps;
pub mod render;
pub mod rng;
pub mod sat;
pub mod serpentine;
pub mod serpentine_string;
pub mod solitaire;
pub mod solve;
pub mod svg;
pub mod tables;
pub mod theorem_10;
pub mod trees;
pub mod triangle;
pub mod triangle_checkpoint;
pub mod triangulations;
pub mod vertexnim;
pub mod voronoi1;
pub mod voronoi_exact;

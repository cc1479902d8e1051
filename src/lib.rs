//! gamecert: solvers, strategy programs and the command line.
//!
//! The library half of the `gamecert` binary, so that integration tests and benchmarks call the
//! same code the command line does. Nothing here is trusted: every answer is turned into a
//! certificate and handed to `gamecert_certificates::check`.

/// The process's allocator, counting what each thread holds ([`base::held`]): every binary
/// that links the library measures what `serve` keeps instead of estimating it.
#[global_allocator]
static ALLOCATOR: base::held::Counting = base::held::Counting;

pub mod api;
pub mod base;
pub mod impartial;
pub mod play;
pub mod registry;
pub mod render;
#[cfg(feature = "serve")]
pub mod serve;
pub mod table;
pub mod triangle_avoidance;
pub mod triangulations;
pub mod vertexnim;
pub mod voronoi;

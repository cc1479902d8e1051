//! The gamecert crate's integration tests, one test binary (`cargo test --test it`): the
//! command line, the papers' tables and snapshots, the checker under attack (crafted files and
//! the mutation fuzzer), and each family's end-to-end checks. Shared helpers in `common`.

mod common;
mod fuzz;

mod architecture;
mod binary_certificates;
mod browser;
mod build_once;
mod census_each;
mod certificates;
mod check_posdnf;
mod check_reduction;
mod checker_attacks;
mod checker_robustness;
mod checker_robustness_games;
mod cli;
mod coins;
mod compressed_inputs;
mod construct;
mod convex_heaps;
mod encoding;
mod flags;
mod flipping;
mod fuzz_checker;
mod graph_formats;
mod input_habits;
mod json_output;
mod lrat_rat;
mod octal;
mod octal_snapshots;
mod own_answers;
mod play;
mod proofs;
mod prove;
mod python;
mod reader_memory;
mod readme;
mod registry;
mod render_boards;
mod render_graphs;
mod render_layouts;
mod render_svg;
mod sat_answers;
mod serve;
mod size_limits;
mod small_truths;
mod snapshots;
mod triangle;
mod triangle_stream;
mod verify_parity;
mod vertexnim;
mod wasm;

//! gamecert-reductions: formulas, parsers and reductions (being laid out).
pub mod dimacs;
pub mod normalise;

//! gamecert-certificates: the trusted checker of gamecert.
//!
//! This crate is the only code a user of gamecert must trust. It depends on serde and
//! serde_json and on nothing of the solvers; the compiler enforces that boundary. It holds the
//! file formats ([`format`]), the reference rules of each game ([`voronoi`]), the CNF
//! encodings it derives itself ([`encode`]), the one copy of each reduction a certificate may
//! appeal to ([`sat_voronoi`]), an LRAT checker ([`lrat`]) and [`check::check`].
//!
//! # What the checker trusts
//!
//! Beyond its own code, the Rust compiler and serde_json's parser, the checker takes on faith
//! exactly the theorems in [`TRUSTED_THEOREMS`], and only when a certificate appeals to one
//! (the verdict lists the ones it used). Everything else it recomputes: scores from the rules,
//! every LRAT step from its hints, every reduction image from its formula.

// Counts read from files are `u64`; the checker converts them to `usize` losslessly on any
// target: `usize::try_from`, refusing what does not fit (a 32-bit target such as wasm32), or
// `as usize` only of a value already checked against a small bound (each such cast says so).

/// `ensure!(condition, "format", args..)`: unless the condition holds, return
/// `Err(format!(..).into())`. The checker's rejections are built this way, one line each.
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err(format!($($message)+).into());
        }
    };
}

/// `fail!("format", args..)`: return `Err(format!(..).into())`.
macro_rules! fail {
    ($($message:tt)+) => {
        return Err(format!($($message)+).into())
    };
}

pub mod base;
pub mod check;
pub mod format;
pub mod impartial;
pub mod posdnf;
pub mod replay;
pub mod sat;
pub mod triangle_avoidance;
pub mod triangulations;
pub mod verdict;
pub mod verify;
pub mod vertexnim;
pub mod voronoi;
pub mod voronoi_paths;

pub use check::{check, check_one_round, Limits};
pub use verdict::{Decision, Theorem, Verdict, TRUSTED_THEOREMS};
#[doc(inline)]
pub use verdict::{
    TRUSTED_COIN_DECOMPOSITION, TRUSTED_COROLLARY_1, TRUSTED_OCTAL_PERIODICITY, TRUSTED_PATH_GAPS,
    TRUSTED_SPRAGUE_GRUNDY, TRUSTED_THEOREM_3, TRUSTED_TRIANGULATION_HEAPS,
    TRUSTED_VERTEXNIM_THEOREM_10, TRUSTED_VERTEXNIM_THEOREM_3, TRUSTED_VERTEXNIM_THEOREM_6,
};

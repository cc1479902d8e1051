//! The types a solve method deals in (the registry's side of it: [`crate::registry`] lists
//! the methods; each family's solve functions take [`Options`] and return [`SolvedGame`]). They
//! live in `base` so that the families do not import the registry that imports them.

use crate::base::method::Method;
use crate::base::sat::Backend;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Verdict;

/// What a solve method is asked: the method named (`Method::Auto` when the method is tried by
/// `--method auto`) and, for one-round games, the SAT backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub method: Method,
    pub sat: Option<Backend>,
    /// The budget to check the certificate with, when not the one `verify` gives by default.
    pub max_work: Option<u64>,
    /// The proof search's table, in bytes (`--memory`; default
    /// [`crate::base::proof::DEFAULT_MEMORY`]).
    pub memory: Option<u64>,
    /// The form the certificate is to be written in (issue 47); it is checked with the budget
    /// `verify` gives that form. Default JSON.
    pub form: crate::base::binary::Choice,
}

/// The error of a solve method handed an instance of another kind: the registry
/// ([`crate::registry`]) dispatches by kind, so this is a bug of ours, never a user's answer.
pub fn wrong_kind(instance: &Instance, method: &str) -> anyhow::Error {
    anyhow::anyhow!("internal error: a {} instance given to {method}", instance.kind())
}

/// A solved game: the certificate, the search nodes spent and the method that produced it.
pub struct SolvedGame {
    pub certificate: Certificate,
    pub nodes: u64,
    pub method: String,
    /// Set when the method ran the checker itself, as the one-round pipeline does on its LRAT
    /// proof before anything is written: that verdict and what `solve` reports of the run.
    pub checked: Option<Checked>,
}

/// A verdict a solve method obtained itself, with its report (the `--json` fields and the
/// one-line note of `gamecert solve`).
pub struct Checked {
    pub verdict: Verdict,
    pub fields: serde_json::Value,
    pub summary: String,
}

impl SolvedGame {
    /// A certificate not yet checked (the caller checks it).
    pub fn new(certificate: Certificate, nodes: u64, method: &str) -> SolvedGame {
        SolvedGame { certificate, nodes, method: method.to_string(), checked: None }
    }
}

/// A solve method: `Ok(None)` when it does not apply to the instance (auto then tries the
/// next; a method named on the command line says why instead of returning `None`).
pub type Solver = fn(&Instance, &Options) -> anyhow::Result<Option<SolvedGame>>;

/// Search nodes all solvers of this process have visited, published in batches of
/// [`SEARCH_BATCH`] so that a progress display can count a search that reports nothing else
/// (the command line's "solving" status line reads it; nothing depends on it being exact).
static SEARCHED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many nodes a search visits between two publications ([`searched`]).
pub const SEARCH_BATCH: u64 = 1 << 12;

/// Called by a search at every node with its own node count: publishes a batch when the
/// count passes a multiple of [`SEARCH_BATCH`] (one relaxed add per batch).
#[inline]
pub fn searched(nodes: u64) {
    if nodes.is_multiple_of(SEARCH_BATCH) {
        SEARCHED.fetch_add(SEARCH_BATCH, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The search nodes a long computation expects to have published when it ends, in
/// [`searched_so_far`]'s count (0: no forecast). A table whose entries differ in work by
/// factors of 10^4 (`table voronoi-kary`) sets it as entries end, so that a progress display
/// gives an ETA from work rather than from entries.
static EXPECTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the forecast: `total` nodes published by the end (see [`expected_searched`]).
pub fn expect_searched(total: u64) {
    EXPECTED.store(total, std::sync::atomic::Ordering::Relaxed);
}

/// The forecast of [`expect_searched`], if any.
pub fn expected_searched() -> Option<u64> {
    Some(EXPECTED.load(std::sync::atomic::Ordering::Relaxed)).filter(|&t| t > 0)
}

/// The search nodes published so far in this process.
pub fn searched_so_far() -> u64 {
    SEARCHED.load(std::sync::atomic::Ordering::Relaxed)
}

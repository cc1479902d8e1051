//! Size limits of `gamecert solve`: every solver estimates its size before it starts and
//! refuses what will not fit, instead of growing until the allocator aborts.
//!
//! # The allowance
//!
//! [`MEMORY_ALLOWANCE`] is 8 GiB: a third of the 24 GiB machine the project is measured on,
//! leaving room for the checker's own replay of the certificate (which runs in the same
//! process after the solver), for the certificate's JSON text, and for other jobs. Each solver
//! turns it into a cap on its own unit (clauses and literals, positions, labels) with a
//! documented number of bytes per unit, measured or counted from its data structures.
//!
//! # Two kinds of estimate
//!
//! - **Polynomial sizes** (the direct CNF encoding, the median rule's certificate, heap
//!   labellings, coin labellings) are computed exactly or as a tight upper bound from the
//!   instance without building anything, and an instance over the cap is refused before any
//!   work.
//! - **Exponential searches** (the exact Voronoi solver, the gap-state path solver, the DNF
//!   game, the marking, constructing and flipping games, vertex nim) get an upper bound on the
//!   positions they can store (a count of the reachable combinations). When the bound fits
//!   the search runs as before; when it does not, the bound is usually very loose (pruning,
//!   transpositions and symmetry cut most of it), so the search runs under a position cap
//!   derived from the allowance and stops cleanly at the cap. Either way the refusal names
//!   the estimate, the cap and what to try instead.
//!
//! A refusal is a [`TooLarge`], which the command line reports as bad input (exit code 2).

use crate::base::io::BadInput;

/// The memory a solve may use: 8 GiB (of the 24 GiB machine; see the module docs).
pub const MEMORY_ALLOWANCE: u64 = 8 << 30;

/// `bytes` in GiB with two decimals, or MiB below one GiB, for messages.
pub fn human_bytes(bytes: u128) -> String {
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b >= GIB {
        format!("{:.2} GiB", b / GIB)
    } else {
        format!("{:.1} MiB", b / MIB)
    }
}

/// `bytes` in the decimal unit that shows it (`512 bytes`, `3.4 kB`, `12.0 MB`, `1.9 GB`), for
/// sizes on disk: a small size is never `0.0 GB`.
pub fn decimal_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    match bytes {
        0..1_000 => gamecert_certificates::base::text::counted(bytes, "byte"),
        1_000..1_000_000 => format!("{:.1} kB", b / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", b / 1e6),
        _ => format!("{:.1} GB", b / 1e9),
    }
}

/// A number with thousands separators (`12,345,678`), for messages (the checker's own).
pub fn grouped(n: u128) -> String {
    gamecert_certificates::base::text::grouped(n)
}

/// A solve refused for its size: what was estimated, the estimate, the limit it exceeds and
/// what to try instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("too large to solve: {what} is estimated at {estimate}, over the limit of {limit}; {suggestion}")]
pub struct TooLarge {
    /// The thing measured ("the direct encoding", "the exact search").
    pub what: String,
    /// The estimate with its unit ("41,234,567 clauses and 118,234,567 literals, about 9.1 GiB").
    pub estimate: String,
    /// The limit with its unit.
    pub limit: String,
    /// What to do instead (`--method reduction`, a smaller instance, ...).
    pub suggestion: String,
}

impl From<TooLarge> for BadInput {
    fn from(t: TooLarge) -> BadInput {
        BadInput(t.to_string())
    }
}

/// Binomial coefficient C(n, k), saturating at `u128::MAX`.
pub fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // C(n, i + 1) = C(n, i) (n - i) / (i + 1), exactly: with g = gcd(C(n, i), i + 1), the
        // quotient (i + 1) / g divides n - i.
        let g = gcd(c, i + 1);
        let d = (i + 1) / g;
        match (c / g).checked_mul((n - i) / d) {
            Some(x) => c = x,
            None => return u128::MAX,
        }
    }
    c
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The number of positions of a two-player placement game with `free` empty cells in which
/// the first player places `first` stones and the second `second` more, alternating from the
/// first player (the players' stones distinguished): the sum over every prefix of the play of
/// C(free, a) C(free - a, b). An upper bound on the positions any search over such a game
/// stores. Saturates at `u128::MAX`.
pub fn placement_positions(free: u128, first: u128, second: u128) -> u128 {
    let mut total: u128 = 0;
    let moves = first + second;
    for t in 0..=moves {
        // After t moves of the alternation: a = ceil(t / 2) by the first player (capped by
        // their stones), the rest by the second.
        let a = t.div_ceil(2).min(first);
        let b = t - a;
        if b > second || a + b > free {
            continue;
        }
        let here = binomial(free, a).saturating_mul(binomial(free - a, b));
        total = total.saturating_add(here);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(5, 6), 0);
        assert_eq!(binomial(64, 32), 1_832_624_140_942_590_534);
        assert_eq!(binomial(128, 64), 23_951_146_041_928_082_866_135_587_776_380_551_750);
        assert_eq!(binomial(1000, 500), u128::MAX);
    }

    #[test]
    fn placement_positions_counts_small_games() {
        // Three cells, one stone each: the empty board, 3 after W, 3 * 2 after B.
        assert_eq!(placement_positions(3, 1, 1), 1 + 3 + 6);
        // Brute force over sequences for 5 cells, 2 + 2 stones.
        let mut seen = std::collections::HashSet::new();
        fn walk(w: u32, b: u32, left: u32, seen: &mut std::collections::HashSet<(u32, u32)>) {
            seen.insert((w, b));
            if left == 0 {
                return;
            }
            let white_moves = left.is_multiple_of(2);
            for v in 0..5 {
                if (w | b) >> v & 1 == 0 {
                    if white_moves {
                        walk(w | 1 << v, b, left - 1, seen);
                    } else {
                        walk(w, b | 1 << v, left - 1, seen);
                    }
                }
            }
        }
        walk(0, 0, 4, &mut seen);
        assert_eq!(placement_positions(5, 2, 2), seen.len() as u128);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(human_bytes(3 << 30), "3.00 GiB");
        assert_eq!(decimal_bytes(1), "1 byte");
        assert_eq!(decimal_bytes(640), "640 bytes");
        assert_eq!(decimal_bytes(46_208), "46.2 kB");
        assert_eq!(decimal_bytes(999_999_999), "1000.0 MB");
        assert_eq!(decimal_bytes(7_560_000_000), "7.6 GB");
        assert_eq!(human_bytes(5 << 20), "5.0 MiB");
    }
}

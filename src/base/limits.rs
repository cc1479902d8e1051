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
//!
//! # What a file's declared sizes may make gamecert build (issue 46)
//!
//! A header declares sizes (`p dnf V T`, `p cnf V C`, `p edge N M`) and a JSON instance
//! declares some too (the variables of a recorded formula, `num_vars`). None is believed
//! before the file pays for it:
//!
//! - **Readers never size an allocation from a declared count** (no `with_capacity(declared)`,
//!   no `vec![x; declared]`): they grow as the content is read, and compare the declared
//!   count with what was read at the end. A count that disagrees with the content is bad input
//!   where it was before (the instance is exactly what its file says; nothing is repaired).
//!   Numbers read from files are range-checked, and no input makes a reader panic (a
//!   capacity overflow is a panic: it is refused as bad input instead).
//! - **Where a declared count legitimately decides the size of what is built** (the
//!   posdnf-voronoi reduction has 2n^2 + 7n + m + 2 vertices for n declared variables, used
//!   or not; a DIMACS graph's declared isolated vertices; the SAT answer's model, one value per
//!   variable of the user's header; a DNF game's picture, one cell a variable), the memory is
//!   estimated first, from a figure in bytes per unit measured as peak resident memory
//!   (`/usr/bin/time -f %M`, recorded beside each figure), and the request is refused past
//!   the file's [`Allowance`]: **1 GiB plus 64 bytes per byte of the file as stored** (the
//!   checker's rate, [`WORK_PER_INPUT_BYTE`]: a file buys memory as it buys work), or what
//!   `--max-memory-gb` says instead. The refusal is bad input (exit 2) naming the header
//!   (`file:line:column`), the count, the estimate and the allowance:
//!
//!   ```text
//!   d.txt:1:1: the header declares 3,000 variables: the reduction would hold about 7.6 GiB,
//!   more than the 1.0 GiB this 17-byte file allows (--max-memory-gb to allow more)
//!   ```
//!
//! # How long a command may run (issue 46, item 7)
//!
//! Every numeric flag's range is one the command can run; where its top takes longer than a
//! short run (a table to its largest n, triangle avoidance to 16 vertices, a million random
//! trials), the command estimates the time and memory from figures measured on the 2-core
//! machine before it starts, and refuses a request past its [`TimeAllowance`] with both:
//! 60 minutes ([`DEFAULT_MAX_MINUTES`]), or what `--max-minutes` says. So a run that will take
//! days is asked for knowingly, and `tests/it/flags.rs` holds every flag's top to a short run
//! or a refusal before any work (it gives the commands a quarter of a minute).
//!
//! The 1 GiB base lets every small honest file through (a formula of a few hundred bytes
//! reduces to a graph of a few million vertices); the per-byte rate lets a large file build in
//! proportion; the flag is for a user who knows the machine. Content the file holds (terms,
//! clauses, edges, names) is not refused here: what is built from it grows with what was read.

use crate::base::io::BadInput;
use gamecert_certificates::base::budget::WORK_PER_INPUT_BYTE;

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

/// The memory every file may make gamecert build from its declared sizes, however small the
/// file: 1 GiB (see the module docs).
pub const FILE_ALLOWANCE_BASE: u64 = 1 << 30;

/// The memory each byte of a file (as stored) adds to its allowance: the checker's work per
/// input byte, 64.
pub const FILE_ALLOWANCE_PER_BYTE: u64 = WORK_PER_INPUT_BYTE;

/// What a file's declared sizes may make gamecert build, in bytes: the file's own allowance
/// ([`FILE_ALLOWANCE_BASE`] plus [`FILE_ALLOWANCE_PER_BYTE`] a stored byte) or the one
/// `--max-memory-gb` gives instead (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Allowance {
    /// The bytes allowed.
    pub bytes: u64,
    /// The file's size as stored (for the message).
    pub stored: u64,
    /// `--max-memory-gb`, when it set the allowance.
    pub flag_gib: Option<f64>,
}

impl Allowance {
    /// The allowance of a file of `stored` bytes (as stored: a compressed file buys what its
    /// compressed bytes buy; a stream, what was read of it).
    pub fn of_file(stored: u64) -> Allowance {
        let bytes =
            FILE_ALLOWANCE_BASE.saturating_add(stored.saturating_mul(FILE_ALLOWANCE_PER_BYTE));
        Allowance { bytes, stored, flag_gib: None }
    }

    /// The same file's allowance with `--max-memory-gb` (in GiB, when given) in its place.
    pub fn with_flag(self, gib: Option<f64>) -> Allowance {
        match gib {
            Some(gib) => {
                Allowance { bytes: (gib * (1u64 << 30) as f64) as u64, flag_gib: Some(gib), ..self }
            }
            None => self,
        }
    }

    /// Whether `bytes` fit.
    pub fn fits(&self, bytes: u128) -> bool {
        bytes <= u128::from(self.bytes)
    }

    /// `Ok` when building `bytes` fits; otherwise the refusal (bad input): `at` is where the
    /// count is declared (`d.txt:1:1`), `declares` what it declares (`the header declares 3,000
    /// variables`), `builds` what would hold the memory (`the reduction`).
    pub fn admit(
        &self,
        at: &str,
        declares: &str,
        builds: &str,
        bytes: u128,
    ) -> Result<(), BadInput> {
        if self.fits(bytes) {
            return Ok(());
        }
        let limit = short_bytes(u128::from(self.bytes));
        let source = match self.flag_gib {
            Some(gib) => {
                format!("the {limit} --max-memory-gb {gib} allows (raise it to allow more)")
            }
            None => format!(
                "the {limit} this {} file allows (--max-memory-gb to allow more)",
                sized(self.stored)
            ),
        };
        Err(BadInput(format!(
            "{at}: {declares}: {builds} would hold about {}, more than {source}",
            short_bytes(bytes)
        )))
    }
}

/// `bytes` with one decimal in MiB below one GiB, GiB below one TiB, TiB above (`12.3 MiB`,
/// `7.6 GiB`, `1.5 TiB`; past 1,000 TiB a whole number, `3,325,339 TiB`).
pub fn short_bytes(bytes: u128) -> String {
    const TIB: f64 = (1u64 << 40) as f64;
    const GIB: f64 = (1u64 << 30) as f64;
    const MIB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b >= 1000.0 * TIB {
        format!("{} TiB", grouped(bytes >> 40))
    } else if b >= TIB {
        format!("{:.1} TiB", b / TIB)
    } else if b >= GIB {
        format!("{:.1} GiB", b / GIB)
    } else {
        format!("{:.1} MiB", b / MIB)
    }
}

/// `count` and its noun in the right number, the count grouped by thousands (`3,000
/// variables`, `1 vertex`, `10,000,000 vertices`).
pub fn grouped_count(count: impl TryInto<u64>, noun: &str) -> String {
    let count = count.try_into().unwrap_or(u64::MAX);
    let words = gamecert_certificates::base::text::counted(count, noun);
    let number = count.to_string();
    format!("{}{}", grouped(count.into()), &words[number.len()..])
}

/// A file's size as an adjective: `17-byte`, `46.2 kB`.
fn sized(stored: u64) -> String {
    match stored {
        1 => "1-byte".into(),
        0..1_000 => format!("{stored}-byte"),
        _ => decimal_bytes(stored),
    }
}

/// The time a command may take unless `--max-minutes` says otherwise: 60 minutes.
pub const DEFAULT_MAX_MINUTES: f64 = 60.0;

/// How long a command may run before it is refused (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAllowance {
    /// Minutes allowed.
    pub minutes: f64,
    /// Whether `--max-minutes` gave them.
    pub given: bool,
}

impl Default for TimeAllowance {
    fn default() -> TimeAllowance {
        TimeAllowance { minutes: DEFAULT_MAX_MINUTES, given: false }
    }
}

/// What a run would take, estimated before it starts from figures measured on the 2-core
/// machine: its wall time and its peak resident memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost {
    pub seconds: f64,
    pub bytes: u128,
}

impl TimeAllowance {
    /// The allowance `--max-minutes` gives (the default without it).
    pub fn of_flag(minutes: Option<f64>) -> TimeAllowance {
        match minutes {
            Some(minutes) => TimeAllowance { minutes, given: true },
            None => TimeAllowance::default(),
        }
    }

    /// `Ok` when `cost` fits; otherwise the refusal (bad input), before any work: `what` is the
    /// request (`table grundy --n 67108864`).
    pub fn admit(&self, what: &str, cost: Cost) -> Result<(), BadInput> {
        if cost.seconds <= self.minutes * 60.0 {
            return Ok(());
        }
        let allowed = match self.given {
            true => format!(
                "the {} --max-minutes allows (raise it to allow more)",
                minutes(self.minutes)
            ),
            false => format!(
                "the {} allowed by default (--max-minutes to allow more)",
                minutes(self.minutes)
            ),
        };
        Err(BadInput(format!(
            "{what} would take about {} and hold about {} (measured on a 2-core machine), more \
             than {allowed}",
            duration(cost.seconds),
            short_bytes(cost.bytes)
        )))
    }
}

/// `m` minutes in words: `60 minutes`, `0.25 minutes`.
fn minutes(m: f64) -> String {
    if m == 1.0 {
        "1 minute".into()
    } else {
        format!("{m} minutes")
    }
}

/// A duration in the unit that reads: `45 s`, `12 min`, `3.2 hours`, `9.1 days`, `4.0 years`.
pub fn duration(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5400.0 => format!("{:.0} min", s / 60.0),
        s if s < 2.0 * 86400.0 => format!("{:.1} hours", s / 3600.0),
        s if s < 730.0 * 86400.0 => format!("{:.1} days", s / 86400.0),
        s if s < 1000.0 * 365.25 * 86400.0 => format!("{:.1} years", s / (365.25 * 86400.0)),
        _ => "more than 1,000 years".into(),
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
        if total == u128::MAX {
            // Saturated: the rest cannot change it (and a declared count of 2^31 moves would
            // otherwise cost 2^31 binomials).
            break;
        }
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
    fn a_saturated_bound_stops_at_once() {
        let started = std::time::Instant::now();
        assert_eq!(placement_positions(4_000_000_000, 2_000_000_000, 2_000_000_000), u128::MAX);
        assert!(started.elapsed().as_secs() < 1, "{:?}", started.elapsed());
    }

    #[test]
    fn a_file_buys_one_gib_and_64_bytes_a_byte() {
        let file = Allowance::of_file(17);
        assert_eq!(file.bytes, (1 << 30) + 17 * 64);
        assert!(file.admit("d.txt:1:1", "x", "y", u128::from(file.bytes)).is_ok());
        let refused = file
            .admit("d.txt:1:1", "the header declares 3,000 variables", "the reduction", 8 << 30)
            .unwrap_err();
        assert_eq!(
            refused.0,
            "d.txt:1:1: the header declares 3,000 variables: the reduction would hold about 8.0 \
             GiB, more than the 1.0 GiB this 17-byte file allows (--max-memory-gb to allow more)"
        );
        let raised = file.with_flag(Some(16.0));
        assert_eq!(raised.bytes, 16 << 30);
        assert!(raised.admit("d.txt:1:1", "x", "y", 8 << 30).is_ok());
        let lowered = file.with_flag(Some(0.5)).admit("f:2:1", "x", "y", 1 << 30).unwrap_err();
        assert!(
            lowered.0.ends_with(
                "more than the 512.0 MiB --max-memory-gb 0.5 allows (raise it to allow more)"
            ),
            "{lowered}"
        );
        assert_eq!(Allowance::of_file(u64::MAX).bytes, u64::MAX);
        assert_eq!(sized(46_208), "46.2 kB");
        assert_eq!(grouped_count(3000u32, "variable"), "3,000 variables");
        assert_eq!(grouped_count(1usize, "vertex"), "1 vertex");
        assert_eq!(grouped_count(10_000_000u64, "vertex"), "10,000,000 vertices");
        assert_eq!(short_bytes(3 << 40), "3.0 TiB");
        assert_eq!(short_bytes(3_000_000 << 40), "3,000,000 TiB");
    }

    #[test]
    fn a_run_past_its_time_is_refused_with_time_and_memory() {
        let cost = Cost { seconds: 7200.0, bytes: 3 << 30 };
        let refused =
            TimeAllowance::default().admit("table grundy --n 67108864", cost).unwrap_err();
        assert_eq!(
            refused.0,
            "table grundy --n 67108864 would take about 2.0 hours and hold about 3.0 GiB \
             (measured on a 2-core machine), more than the 60 minutes allowed by default \
             (--max-minutes to allow more)"
        );
        assert!(TimeAllowance::of_flag(Some(120.0)).admit("x", cost).is_ok());
        let small = TimeAllowance::of_flag(Some(0.25)).admit("x", Cost { seconds: 16.0, bytes: 0 });
        assert!(small
            .unwrap_err()
            .0
            .ends_with("more than the 0.25 minutes --max-minutes allows (raise it to allow more)"));
        assert_eq!(duration(45.2), "45 s");
        assert_eq!(duration(720.0), "12 min");
        assert_eq!(duration(9.1 * 86400.0), "9.1 days");
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

//! The checker's one work budget: every loop whose length an input decides, and every
//! allocation whose size an input decides, is charged here *before* it runs.
//!
//! A unit is about one elementary step (a BFS edge, a literal visited, a move listed, a
//! position expanded counts several) or one byte about to be held (a position stored, a clause
//! built). Charging bytes and steps to the same counter keeps one knob: with the default of
//! [`DEFAULT_MAX_WORK`] units the checker holds at most about 2 GB and runs for at most about
//! 10 s on a 2-core machine, whatever the input; a larger honest certificate needs a larger
//! budget ([`Limits::for_input`] grows it with the input's size, `--max-work` sets it).
//!
//! **Steps of pure computation** (issue 47: every honest certificate checks with no flag) are
//! counted apart, by [`Budget::step`]: scoring a final position, recomputing a canonical form,
//! work that holds nothing beyond a bounded scratch space. They have a limit of their own,
//! [`Limits::max_steps`], which [`Limits::for_input`] grows faster with the input's size
//! ([`STEPS_PER_INPUT_BYTE`] a byte against [`WORK_PER_INPUT_BYTE`]): a large strategy's
//! replay is mostly such steps (a 17 MB tree proof: 1.85 * 10^9 units, 209 MB held), and the
//! memory bound must not grow with them. So a crafted input of B bytes costs at most
//! 2 * 10^9 + 64 B work units, the bound on what it holds (about one byte a unit), and
//! 4 * 10^9 + 1,024 B steps of computation besides ([`DEFAULT_MAX_STEPS`]): about 2 GB and
//! 20 s for a small file, and 64 bytes and a few microseconds more per byte of a large one
//! (docs/checker-limits.md).
//! `--max-work N` sets both limits to N.
//!
//! A check that runs out ends "not checked" (exit 3), naming what it was doing and the limit;
//! it never claims anything, and it is never a rejection. Charging is saturating arithmetic on
//! `u64`, so no input can make the counter wrap.
//!
//! **Input sizes are as stored.** [`Limits::for_input`] is given the files' sizes on disk (a
//! stream, standard input or a pipe, has none: its bytes are charged like decompressed ones,
//! `crate::base::input::read_file`), never what a compressed file decompresses to; the bytes
//! decompression adds are charged [`WORK_PER_INPUT_BYTE`] each before they are parsed
//! (`crate::verify::decompression_work`), so compression buys nothing.
//!
//! **Charge before building.** A vector, map or string whose size an input decides is charged
//! (or [`Budget::require`]d) at its full size before it is built: count first, then charge,
//! then build, never build and charge per item afterwards. Counting itself is work: a count
//! that could take long (one per coin of a board, one per subset size) either costs no more
//! than the units it leads to charging and stops once they pass what is left, or is charged
//! first. The replay engine's rules follow the same order ([`crate::replay`]).

/// The budget of a check whose input size is unknown: about 10 s and 2 GB on the development
/// machine (2 cores), measured by the fuzzer's long run (see the README).
pub const DEFAULT_MAX_WORK: u64 = 2_000_000_000;

/// Work allowed per byte of input on top of [`DEFAULT_MAX_WORK`] (see [`Limits::for_input`]):
/// parsing a file already costs time and memory in proportion to its size, so a large honest
/// certificate (a 100 MB strategy table) gets a proportionally larger budget without a flag.
pub const WORK_PER_INPUT_BYTE: u64 = 64;

/// Steps of pure computation allowed per byte of input on top of [`DEFAULT_MAX_WORK`] (see
/// the module docs): measured, the replay of a tree proof takes about 100 steps a byte of its
/// JSON, 300 of its binary form.
pub const STEPS_PER_INPUT_BYTE: u64 = 1024;

/// Steps of pure computation every check may take, whatever its size: twice
/// [`DEFAULT_MAX_WORK`], since a step holds nothing (a board of coins labelled under a product
/// rule: 3.4 * 10^9 steps for a 196 KB certificate, 2.3 s).
pub const DEFAULT_MAX_STEPS: u64 = 2 * DEFAULT_MAX_WORK;

/// The limits of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Work units the whole check may spend (see the module docs): every byte it holds and
    /// every step that is not pure computation.
    pub max_work: u64,
    /// Steps of pure computation ([`Budget::step`]) it may take besides.
    pub max_steps: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::for_input(0)
    }
}

impl Limits {
    /// `max_work` units and as many steps (`--max-work`).
    pub fn work(max_work: u64) -> Limits {
        Limits { max_work, max_steps: max_work }
    }

    /// The default limits for an instance and a certificate of `input_bytes` bytes together:
    /// [`DEFAULT_MAX_WORK`] plus [`WORK_PER_INPUT_BYTE`] per byte, and as many steps plus
    /// [`STEPS_PER_INPUT_BYTE`] per byte.
    pub fn for_input(input_bytes: u64) -> Limits {
        let grown =
            |base: u64, per_byte: u64| base.saturating_add(input_bytes.saturating_mul(per_byte));
        Limits {
            max_work: grown(DEFAULT_MAX_WORK, WORK_PER_INPUT_BYTE),
            max_steps: grown(DEFAULT_MAX_STEPS, STEPS_PER_INPUT_BYTE),
        }
    }

    /// These limits less `units` of work already spent (what reading a compressed input cost
    /// before the check): the steps are left as they are.
    pub fn less(&self, units: u64) -> Limits {
        Limits { max_work: self.max_work.saturating_sub(units), max_steps: self.max_steps }
    }

    /// A fresh budget with these limits.
    pub fn budget(&self) -> Budget {
        Budget { steps_limit: self.max_steps, ..Budget::new(self.max_work) }
    }
}

/// How every rejection for want of work begins (after the position or step it names), so that
/// a caller checking its own certificate can tell a budget too small from a fault found.
pub const WORK_LIMIT_REACHED: &str = "work limit reached";

/// Work spent so far against a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    used: u64,
    limit: u64,
    /// Steps of pure computation taken, and allowed ([`Budget::step`]).
    steps: u64,
    steps_limit: u64,
    /// Whether a charge has failed: the check stopped for want of work, not for a fault it
    /// found (the command line tells the two apart this way).
    exhausted: bool,
}

impl Budget {
    /// A budget of `limit` units.
    pub fn new(limit: u64) -> Budget {
        Budget { used: 0, limit, steps: 0, steps_limit: limit, exhausted: false }
    }

    /// A budget without a limit, for callers that bound their own work (a solver checking
    /// the certificate it has just built) and for tests.
    pub fn unlimited() -> Budget {
        Budget::new(u64::MAX)
    }

    /// Charges `units` for `what` (a short phrase: "listing the opponent's moves"). Fails,
    /// naming `what` and the limit, when the total would pass the limit; the units are then
    /// not spent, and the caller must not do the work.
    pub fn charge(&mut self, units: u64, what: &str) -> Result<(), String> {
        let total = self.used.saturating_add(units);
        if total > self.limit {
            self.exhausted = true;
            fail!(
                "{WORK_LIMIT_REACHED} while {what}: the check needs more than the {} work units \
                 it may spend (about one per step or byte held; {} spent so far)",
                self.limit,
                self.used
            );
        }
        self.used = total;
        Ok(())
    }

    /// Fails, as [`Budget::charge`] would, when `units` are more than what is left, without
    /// spending anything: for refusing at once a task whose cost is known to be at least
    /// `units` before any of it is done (the task then charges its steps as it goes).
    pub fn require(&mut self, units: u64, what: &str) -> Result<(), String> {
        let used = self.used;
        self.charge(units, what)?;
        self.used = used;
        Ok(())
    }

    /// Counts `units` steps of pure computation for `what`: work that holds nothing beyond a
    /// scratch space bounded by the instance (scoring a final position, recomputing a
    /// canonical form). Fails as [`Budget::charge`] does when they would pass the steps'
    /// limit. A step that allocates what it keeps is a [`Budget::charge`], never a step.
    pub fn step(&mut self, units: u64, what: &str) -> Result<(), String> {
        let total = self.steps.saturating_add(units);
        if total > self.steps_limit {
            self.exhausted = true;
            fail!(
                "{WORK_LIMIT_REACHED} while {what}: the check needs more than the {} steps of \
                 computation it may take ({} taken so far)",
                self.steps_limit,
                self.steps
            );
        }
        self.steps = total;
        Ok(())
    }

    /// Steps of pure computation still to take.
    pub fn steps_remaining(&self) -> u64 {
        self.steps_limit.saturating_sub(self.steps)
    }

    /// Steps of pure computation taken so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Units still to spend.
    pub fn remaining(&self) -> u64 {
        self.limit - self.used
    }

    /// Charges `count` items of `each` units (saturating).
    pub fn charge_each(&mut self, count: u64, each: u64, what: &str) -> Result<(), String> {
        self.charge(count.saturating_mul(each), what)
    }

    /// Units spent so far.
    pub fn used(&self) -> u64 {
        self.used
    }

    /// The limit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Whether some charge was refused (the work limit, not the input, stopped the check).
    pub fn exhausted(&self) -> bool {
        self.exhausted
    }
}

/// Converts a count or an index an input decides (a `u64`, a `u128`) to `usize`, or names it
/// as too large: on a 32-bit target (the checker built for WebAssembly) a `u64` past 2^32 - 1
/// does not fit, and `as usize` would cut it silently to another number. `as usize` is left
/// only where the value is below a bound that fits (a slice's length), and says so.
pub fn to_usize<T: TryInto<usize> + Copy + std::fmt::Display>(
    value: T,
    what: &str,
) -> Result<usize, String> {
    value.try_into().map_err(|_| format!("{what}: {value} is too large"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charges_up_to_the_limit_and_not_past_it() {
        let mut b = Budget::new(10);
        b.charge(4, "a").unwrap();
        b.charge_each(3, 2, "b").unwrap();
        assert_eq!(b.used(), 10);
        assert!(!b.exhausted());
        let err = b.charge(1, "listing moves").unwrap_err();
        assert!(err.contains("while listing moves"), "{err}");
        assert!(err.contains("10 work units"), "{err}");
        // A refused charge is not spent.
        assert_eq!(b.used(), 10);
        assert!(b.exhausted());
    }

    #[test]
    fn requiring_spends_nothing() {
        let mut b = Budget::new(10);
        b.require(10, "a").unwrap();
        assert_eq!((b.used(), b.remaining()), (0, 10));
        assert!(b.require(11, "b").unwrap_err().contains("while b"));
        assert!(b.exhausted());
        assert_eq!(b.used(), 0);
    }

    #[test]
    fn huge_charges_saturate_instead_of_wrapping() {
        let mut b = Budget::new(u64::MAX - 1);
        b.charge(u64::MAX - 2, "a").unwrap();
        assert!(b.charge(u64::MAX, "b").is_err());
        assert!(b.charge_each(u64::MAX, u64::MAX, "c").is_err());
        assert_eq!(b.used(), u64::MAX - 2);
        assert_eq!(Limits::for_input(u64::MAX).max_work, u64::MAX);
    }
}

//! Position fingerprints for the replays: 128-bit Zobrist hashing with secret random keys.
//!
//! A position that gives each of `n` items (vertices, variables) an owner (or none) is
//! fingerprinted as the XOR of one random 128-bit key per (item, owner); a move updates the
//! fingerprint in O(1). The keys are drawn for each check from the standard library's keyed
//! SipHash (a random key per process and per table), so no file can be crafted to make two
//! positions collide: two distinct positions share a fingerprint with probability 2^-128, and
//! over 10^10 positions the chance that any two collide is below 10^-18. The replays keep
//! fingerprints instead of whole positions in their visited sets and tables, so a stored
//! position costs 16 bytes however large the board.
//!
//! **Where the standard library has no entropy** (wasm32-unknown-unknown: its `RandomState` is
//! keyed by two memory addresses, which a file's author can predict, and Zobrist keys known in
//! advance let a crafted file make positions collide), the keys come from a secret the embedder
//! installs first ([`install_seed`]: the WebAssembly entry's `gc_seed`, from the browser's
//! `crypto.getRandomValues`); every table is keyed apart from it, as `RandomState` keys each
//! apart. On such a target a check that needs keys before a seed is installed stops on a fault
//! (a rejection), never runs with predictable keys. Native builds never install one.

use std::collections::hash_map::{DefaultHasher, RandomState};
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// The installed seed ([`install_seed`]), and how many tables it has keyed.
static SEEDED: AtomicBool = AtomicBool::new(false);
static SEED: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];
static TABLES: AtomicU64 = AtomicU64::new(0);

/// Installs 128 secret random bits as the source of every key from now on (see the module
/// docs); for targets whose standard library has no entropy.
pub fn install_seed(k0: u64, k1: u64) {
    SEED[0].store(k0, Relaxed);
    SEED[1].store(k1, Relaxed);
    SEEDED.store(true, Relaxed);
}

/// Whether a seed was installed.
pub fn seeded() -> bool {
    SEEDED.load(Relaxed)
}

/// Whether the standard library's `RandomState` has real entropy on this target.
const STD_HAS_ENTROPY: bool = !cfg!(all(target_family = "wasm", target_os = "unknown"));

/// A secret hasher builder, fresh per table: the standard library's `RandomState`, or keyed
/// from the installed seed ([`install_seed`]).
#[derive(Clone, Debug)]
pub enum Secret {
    Std(RandomState),
    Seeded(u64, u64),
}

impl Default for Secret {
    fn default() -> Secret {
        if !seeded() {
            if !STD_HAS_ENTROPY {
                panic!("no secret seed installed: this target has no entropy");
            }
            return Secret::Std(RandomState::new());
        }
        // Each table's keys apart, as RandomState steps its first key for each.
        let table = TABLES.fetch_add(1, Relaxed);
        Secret::Seeded(SEED[0].load(Relaxed).wrapping_add(table), SEED[1].load(Relaxed))
    }
}

/// The hasher of a [`Secret`].
pub enum SecretHasher {
    Std(DefaultHasher),
    #[allow(deprecated)]
    Seeded(std::hash::SipHasher),
}

impl BuildHasher for Secret {
    type Hasher = SecretHasher;
    #[allow(deprecated)]
    fn build_hasher(&self) -> SecretHasher {
        match self {
            Secret::Std(state) => SecretHasher::Std(state.build_hasher()),
            Secret::Seeded(k0, k1) => {
                SecretHasher::Seeded(std::hash::SipHasher::new_with_keys(*k0, *k1))
            }
        }
    }
}

impl Hasher for SecretHasher {
    fn finish(&self) -> u64 {
        match self {
            SecretHasher::Std(h) => h.finish(),
            SecretHasher::Seeded(h) => h.finish(),
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        match self {
            SecretHasher::Std(h) => h.write(bytes),
            SecretHasher::Seeded(h) => h.write(bytes),
        }
    }
}

/// Work units per fingerprint kept in a visited set or table (the key and the table's room).
pub(crate) const FINGERPRINT_COST: u64 = 48;

/// Random keys for `n` items with two owners each.
pub(crate) struct Zobrist {
    keys: Vec<[u128; 2]>,
}

impl Zobrist {
    /// The work units of [`Zobrist::new`] for `n` items (the keys it holds and draws).
    pub(crate) fn cost(n: usize) -> u64 {
        (n as u64).saturating_mul(64)
    }

    /// Fresh secret keys for `n` items.
    pub(crate) fn new(n: usize) -> Zobrist {
        let state = Secret::default();
        let half = |v: usize, t: u64| u128::from(state.hash_one((v as u64, t)));
        Zobrist {
            keys: (0..n)
                .map(|v| [half(v, 0) << 64 | half(v, 1), half(v, 2) << 64 | half(v, 3)])
                .collect(),
        }
    }

    /// The key of owner 0 or 1 on item `v`.
    pub(crate) fn key(&self, v: usize, owner: usize) -> u128 {
        self.keys[v][owner]
    }
}

/// Fingerprints of whole values (a position's text, a state with its side to move): two
/// independently keyed SipHash values side by side, 128 bits with the same secret-key argument
/// as [`Zobrist`]. For positions that change in ways a per-item key cannot follow (vertex nim
/// rewires the graph; a flip changes two edges).
pub(crate) struct Fingerprints([Secret; 2]);

impl Fingerprints {
    pub(crate) fn new() -> Fingerprints {
        Fingerprints([Secret::default(), Secret::default()])
    }

    /// The fingerprint of `value`.
    pub(crate) fn of<T: std::hash::Hash + ?Sized>(&self, value: &T) -> u128 {
        u128::from(self.0[0].hash_one(value)) << 64 | u128::from(self.0[1].hash_one(value))
    }
}

/// A hasher for fingerprints, which are already uniformly random and secret: it folds them
/// and mixes in small integers, nothing more.
#[derive(Default)]
pub(crate) struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u128(&mut self, n: u128) {
        self.0 ^= (n as u64) ^ (n >> 64) as u64;
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = self.0.rotate_left(17) ^ n;
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// The hasher builder of maps and sets keyed by fingerprints.
pub(crate) type Fold = BuildHasherDefault<FoldHasher>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_fresh_per_table() {
        let a = Zobrist::new(1000);
        let b = Zobrist::new(1000);
        let mut all: Vec<u128> = (0..1000).flat_map(|v| [a.key(v, 0), a.key(v, 1)]).collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 2000);
        assert!((0..1000).all(|v| a.key(v, 0) != b.key(v, 0)));
    }

    /// A seeded key source gives each table keys of its own (the seed itself is installed by
    /// the WebAssembly entry only; here its builder is made directly).
    #[test]
    fn seeded_tables_differ() {
        let (a, b) = (Secret::Seeded(1, 2), Secret::Seeded(2, 2));
        assert_ne!(a.hash_one(7u64), b.hash_one(7u64));
        assert_eq!(a.hash_one(7u64), Secret::Seeded(1, 2).hash_one(7u64));
    }
}

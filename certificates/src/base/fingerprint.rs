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

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

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
        let state = RandomState::new();
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
pub(crate) struct Fingerprints([RandomState; 2]);

impl Fingerprints {
    pub(crate) fn new() -> Fingerprints {
        Fingerprints([RandomState::new(), RandomState::new()])
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
}

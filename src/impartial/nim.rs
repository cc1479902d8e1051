//! Nim arithmetic: Conway's field on the non-negative integers, for `u64` and `u128`.
//!
//! - The nim sum is XOR.
//! - The nim product is defined by `a (x) b = mex { a' (x) b (+) a (x) b' (+) a' (x) b' : a' < a,
//!   b' < b }` (the Turning Corners game of seed 003). The numbers below `2^(2^k)` form a
//!   subfield, and for a Fermat 2-power `F = 2^(2^k)`: `F (x) F = 3F/2` and `F (x) x = F * x`
//!   for `x < F`. Splitting `a = a1 F + a0`, `b = b1 F + b0` gives, with `h = F/2`,
//!   `a (x) b = ((a0 + a1)(b0 + b1) + a0 b0) F + (a0 b0 + (a1 b1) h)` (all operations nim):
//!   three half-size products and one product by the constant `h`.
//! - [`mul_reference`] is that recursion down to single bits (4096 bit operations for 64 bits):
//!   plain, and the oracle of the tests. [`mul`] is the same recursion stopped at 16 bits, where
//!   the nimbers below 2^16 (the field GF(2^16)) multiply by log/exp tables built once from
//!   [`mul_reference`]: 9 table products and 5 products by a constant per 64-bit product.
//! - [`inverse`] is `a^(2^64 - 2)` in the field of nimbers below 2^64 (for `u128`,
//!   `a^(2^128 - 2)`).
//! - [`mul_mex`] is the definition itself, for tiny arguments (the slides' table).

use std::sync::OnceLock;

/// The nim sum.
pub fn add(a: u64, b: u64) -> u64 {
    a ^ b
}

/// The nim product by the Fermat-power recursion down to single bits (slow, plain).
pub fn mul_reference(a: u64, b: u64) -> u64 {
    mul_reference_128(a as u128, b as u128) as u64
}

/// [`mul_reference`] for `u128`.
pub fn mul_reference_128(a: u128, b: u128) -> u128 {
    mul_level(a, b, 128)
}

/// Nim product of `a, b < 2^bits` (`bits` a power of two).
fn mul_level(a: u128, b: u128, bits: u32) -> u128 {
    if bits == 1 {
        return a & b;
    }
    if a == 0 || b == 0 {
        return 0;
    }
    let half = bits / 2;
    let mask = (1u128 << half) - 1;
    let (a1, a0, b1, b0) = (a >> half, a & mask, b >> half, b & mask);
    let low = mul_level(a0, b0, half);
    let top = mul_level(a1, b1, half);
    let cross = mul_level(a0 ^ a1, b0 ^ b1, half);
    let h = 1u128 << (half - 1);
    ((cross ^ low) << half) | (low ^ mul_level(top, h, half))
}

/// The nim product by its definition (a mex over all smaller pairs). Only for small arguments:
/// it is quartic.
pub fn mul_mex(a: u64, b: u64) -> u64 {
    let n = (a.max(b) + 1) as usize;
    let mut t = vec![vec![0u64; n]; n];
    for x in 0..n {
        for y in 0..n {
            let mut seen = vec![false; x * y + 2];
            for a2 in 0..x {
                for b2 in 0..y {
                    let v = (t[a2][y] ^ t[x][b2] ^ t[a2][b2]) as usize;
                    if v < seen.len() {
                        seen[v] = true;
                    }
                }
            }
            t[x][y] = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u64;
        }
    }
    t[a as usize][b as usize]
}

/// Log and exp tables of the field of nimbers below 2^16.
struct Tables {
    log: Vec<u32>,
    /// `exp[i] = g^i` for `i < 2 * 65535`, so that a sum of two logs needs no reduction.
    exp: Vec<u16>,
}

const ORDER: u32 = 65535;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let m = |a: u16, b: u16| mul_level(a as u128, b as u128, 16) as u16;
        let pow = |g: u16, mut e: u32| {
            let (mut acc, mut base) = (1u16, g);
            while e > 0 {
                if e & 1 == 1 {
                    acc = m(acc, base);
                }
                base = m(base, base);
                e >>= 1;
            }
            acc
        };
        // 65535 = 3 * 5 * 17 * 257: a generator has none of these cofactors as its order.
        let g = (2u16..)
            .find(|&g| [3, 5, 17, 257].iter().all(|&p| pow(g, ORDER / p) != 1))
            .expect("GF(2^16) has a generator");
        let mut exp = vec![0u16; 2 * ORDER as usize];
        let mut log = vec![0u32; 1 << 16];
        let mut x = 1u16;
        for i in 0..ORDER {
            exp[i as usize] = x;
            exp[(i + ORDER) as usize] = x;
            log[x as usize] = i;
            x = m(x, g);
        }
        Tables { log, exp }
    })
}

#[inline]
fn mul16(t: &Tables, a: u32, b: u32) -> u32 {
    if a == 0 || b == 0 {
        return 0;
    }
    t.exp[(t.log[a as usize] + t.log[b as usize]) as usize] as u32
}

/// `a (x) c` for a constant `c` given by its log.
#[inline]
fn mul16_log(t: &Tables, a: u32, log_c: u32) -> u32 {
    if a == 0 {
        return 0;
    }
    t.exp[(t.log[a as usize] + log_c) as usize] as u32
}

/// Logs of the constants 2^15 and 2^15 (x) 2^15.
fn logs(t: &Tables) -> (u32, u32) {
    let h = t.log[1 << 15];
    (h, t.log[mul16(t, 1 << 15, 1 << 15) as usize])
}

#[inline]
fn mul32(t: &Tables, log_h: u32, a: u32, b: u32) -> u32 {
    let (a1, a0, b1, b0) = (a >> 16, a & 0xffff, b >> 16, b & 0xffff);
    let low = mul16(t, a0, b0);
    let top = mul16(t, a1, b1);
    let cross = mul16(t, a0 ^ a1, b0 ^ b1);
    ((cross ^ low) << 16) | (low ^ mul16_log(t, top, log_h))
}

/// The nim product (fast: 16-bit log tables and the Fermat-power recursion above them).
pub fn mul(a: u64, b: u64) -> u64 {
    let t = tables();
    let (log_h, log_hh) = logs(t);
    let (a1, a0, b1, b0) = ((a >> 32) as u32, a as u32, (b >> 32) as u32, b as u32);
    let low = mul32(t, log_h, a0, b0);
    let top = mul32(t, log_h, a1, b1);
    let cross = mul32(t, log_h, a0 ^ a1, b0 ^ b1);
    // top (x) 2^31, where 2^31 = 2^16 (x) 2^15: with top = c1 2^16 + c0, that is
    // ((c0 + c1) (x) 2^15) 2^16 + c1 (x) 2^15 (x) 2^15.
    let (c1, c0) = (top >> 16, top & 0xffff);
    let top_h = (mul16_log(t, c0 ^ c1, log_h) << 16) | mul16_log(t, c1, log_hh);
    (((cross ^ low) as u64) << 32) | (low ^ top_h) as u64
}

/// The nim product for `u128` (three fast 64-bit products and one by 2^63).
pub fn mul_128(a: u128, b: u128) -> u128 {
    let (a1, a0, b1, b0) = ((a >> 64) as u64, a as u64, (b >> 64) as u64, b as u64);
    let low = mul(a0, b0);
    let top = mul(a1, b1);
    let cross = mul(a0 ^ a1, b0 ^ b1);
    (((cross ^ low) as u128) << 64) | (low ^ mul(top, 1 << 63)) as u128
}

/// `a^e` in nim arithmetic.
pub fn pow(a: u64, mut e: u64) -> u64 {
    let (mut acc, mut base) = (1u64, a);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul(acc, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    acc
}

/// The nim inverse of a non-zero `a` (`None` for 0): `a^(2^64 - 2)`.
pub fn inverse(a: u64) -> Option<u64> {
    (a != 0).then(|| pow(a, u64::MAX - 1))
}

/// The nim inverse in the field of nimbers below 2^128.
pub fn inverse_128(a: u128) -> Option<u128> {
    if a == 0 {
        return None;
    }
    let (mut acc, mut base, mut e) = (1u128, a, u128::MAX - 1);
    while e > 0 {
        if e & 1 == 1 {
            acc = mul_128(acc, base);
        }
        base = mul_128(base, base);
        e >>= 1;
    }
    Some(acc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;

    /// An outside implementation agrees: the crates.io `nimber` crate (a dev-dependency) on
    /// random u64 pairs, products and inverses.
    #[test]
    fn agrees_with_the_nimber_crate() {
        use nimber::FiniteNimber;
        let low = |x: FiniteNimber| x.as_slice().first().copied().unwrap_or(0);
        let mut rng = Rng::new(17);
        for _ in 0..2_000 {
            let (a, b) = (rng.next_u64(), rng.next_u64());
            assert_eq!(mul(a, b), low(FiniteNimber::from(a) * FiniteNimber::from(b)), "{a} {b}");
        }
        for _ in 0..50 {
            let a = rng.next_u64() | 1;
            let theirs = FiniteNimber::from(a).inverse().map(low);
            assert_eq!(inverse(a), theirs, "{a}");
        }
    }

    /// Seed 003's table of nim products (Turning Corners), 0..16 by 0..16.
    pub const SLIDES_TABLE: [[u64; 16]; 16] = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
        [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5],
        [0, 3, 1, 2, 12, 15, 13, 14, 4, 7, 5, 6, 8, 11, 9, 10],
        [0, 4, 8, 12, 6, 2, 14, 10, 11, 15, 3, 7, 13, 9, 5, 1],
        [0, 5, 10, 15, 2, 7, 8, 13, 3, 6, 9, 12, 1, 4, 11, 14],
        [0, 6, 11, 13, 14, 8, 5, 3, 7, 1, 12, 10, 9, 15, 2, 4],
        [0, 7, 9, 14, 10, 13, 3, 4, 15, 8, 6, 1, 5, 2, 12, 11],
        [0, 8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2],
        [0, 9, 14, 7, 15, 6, 1, 8, 5, 12, 11, 2, 10, 3, 4, 13],
        [0, 10, 15, 5, 3, 9, 12, 6, 1, 11, 14, 4, 2, 8, 13, 7],
        [0, 11, 13, 6, 7, 12, 10, 1, 9, 2, 4, 15, 14, 5, 3, 8],
        [0, 12, 4, 8, 13, 1, 9, 5, 6, 10, 2, 14, 11, 7, 15, 3],
        [0, 13, 6, 11, 9, 4, 15, 2, 14, 3, 8, 5, 7, 10, 1, 12],
        [0, 14, 7, 9, 5, 11, 2, 12, 10, 4, 13, 3, 15, 1, 8, 6],
        [0, 15, 5, 10, 1, 14, 4, 11, 2, 13, 7, 8, 3, 12, 6, 9],
    ];

    #[test]
    fn the_slides_table() {
        for (a, row) in SLIDES_TABLE.iter().enumerate() {
            for (b, &v) in row.iter().enumerate() {
                assert_eq!(mul(a as u64, b as u64), v, "{a} (x) {b}");
                assert_eq!(mul_reference(a as u64, b as u64), v, "{a} (x) {b}");
            }
        }
        assert_eq!(mul_mex(15, 15), 9);
        assert_eq!(mul_mex(6, 9), 1);
        assert_eq!(mul(6, 9), 1, "the slides' inverse pair");
        assert_eq!(inverse(6), Some(9));
    }

    #[test]
    fn mex_definition_matches_on_32() {
        let n = 32usize;
        let mut t = vec![vec![0u64; n]; n];
        for x in 0..n {
            for y in 0..n {
                let mut seen = vec![false; x * y + 2];
                for a in 0..x {
                    for b in 0..y {
                        let v = (t[a][y] ^ t[x][b] ^ t[a][b]) as usize;
                        if v < seen.len() {
                            seen[v] = true;
                        }
                    }
                }
                t[x][y] = seen.iter().position(|&s| !s).unwrap() as u64;
                assert_eq!(mul(x as u64, y as u64), t[x][y], "{x} (x) {y}");
            }
        }
    }

    #[test]
    fn fast_equals_reference_and_field_axioms() {
        let mut rng = Rng::new(7);
        for round in 0..3000 {
            // Mix full-width values with small ones and single bits.
            let pick = |rng: &mut Rng| match rng.next_u64() % 4 {
                0 => rng.next_u64() % 300,
                1 => 1u64 << (rng.next_u64() % 64),
                _ => rng.next_u64(),
            };
            let (a, b, c) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
            assert_eq!(mul(a, b), mul_reference(a, b), "round {round}: {a} (x) {b}");
            assert_eq!(mul(a, b), mul(b, a));
            assert_eq!(mul(a, mul(b, c)), mul(mul(a, b), c));
            assert_eq!(mul(a, b ^ c), mul(a, b) ^ mul(a, c));
            assert_eq!(mul(a, 1), a);
            assert_eq!(mul(a, 0), 0);
            if a != 0 {
                assert_eq!(mul(a, inverse(a).unwrap()), 1, "inverse of {a}");
            }
            let (x, y) = (((a as u128) << 64) | b as u128, ((c as u128) << 64) | a as u128);
            assert_eq!(mul_128(x, y), mul_reference_128(x, y));
            if round % 100 == 0 && x != 0 {
                assert_eq!(mul_128(x, inverse_128(x).unwrap()), 1);
            }
        }
        assert_eq!(inverse(0), None);
        // Fermat 2-powers: F (x) F = 3F/2; distinct ones multiply as integers.
        for k in 0..6 {
            let f = 1u64 << (1 << k);
            if k < 5 {
                assert_eq!(mul(f, f), 3 * f / 2);
            }
            assert_eq!(mul(f, f - 1), f * (f - 1));
        }
        assert_eq!(mul(1 << 32, 1 << 32), 3 << 31);
        assert_eq!(mul(0x8000, 0x4000), 0xb9c5, "nimber crate's doc example");
    }
}

//! The Winner's strategy for one-colour triangle avoidance as a binary stream, checked level
//! by level in bounded memory (`triangle-stream`, issue 18 item 3).
//!
//! The JSON `triangle-strategy` ([`super::strategy`]) holds every position and move in memory
//! at once; at n = 13 that is gigabytes. This format lists the strategy's positions one level
//! (edge count) at a time, in increasing code order, and the checker holds at most two levels:
//! it never computes a canonical form, it only applies the permutations the file gives and
//! looks the result up, by binary search, in the next level.
//!
//! # Format (all integers little-endian)
//!
//! - Header, 16 bytes: the magic `GCTASTR1` ([`MAGIC`]), n (one byte, 1..=16), the Winner (one
//!   byte, `A` or `B`), six zero bytes.
//! - Sections, in this order: `L0`, then `L1 M0`, `L2 M1`, ..., `Lk M(k-1)`, then the end mark.
//!   - `Lt`: the byte `L`, t (u16), a count c (u64), then c codes of 16 bytes: the positions of
//!     the strategy with t edges, strictly increasing. A code is the adjacency code of
//!     `triangle-strategy` (upper triangle row by row, the first pair the most significant
//!     bit). Level 0 is exactly the empty graph.
//!   - `Mt`: the byte `M`, t (u16), then the moves of every position of level t, in the order
//!     of the level. At a position where the Winner is to move (t even iff the Winner is A):
//!     the edge a, b (one byte each, a < b) and a permutation. At the other player's positions:
//!     one permutation for each legal move, the legal moves in increasing order of (a, b)
//!     (a < b); a position with no legal move has none (the other player has lost).
//!   - The end mark: the byte `E`, then the end of the file. Every position of the last level
//!     must then be a loss of the other player (no legal move, the Winner having just moved).
//! - A permutation is a u64 with the image of vertex v in bits 4v..4v+3: adding the move's
//!   edge and relabelling vertex v as its image gives exactly a listed position of the next
//!   level. Bits for vertices at or beyond n must be zero.
//!
//! # What is checked
//!
//! Every listed code has t edges at level t and no triangle; levels are strictly increasing;
//! every move is legal; every permutation is one; every image is listed in the next level; the
//! Winner has a move wherever it is to move; every legal move of the other player is answered.
//! By induction from the last level back, the Winner wins from every listed position, so from
//! the start: relabelling preserves the game. Positions the strategy never reaches may be
//! listed; they are checked all the same. Nothing beyond the rules is trusted.
//!
//! Work: reading a code costs n^2 + 16 units (its decoding, the bytes held), each position
//! n^2 + 16 more, each move n^2 + 32; memory is the two levels held (16 bytes a code), charged
//! as the codes are read, so a count in a header allocates nothing by itself.

use super::strategy::{
    adjacency, code_of, edges, moved_and_relabelled, triangle, Adjacency, MAX_N,
};
use crate::base::budget::Budget;
use crate::base::text::counted;
use crate::verdict::{reject, Verdict, Work};
use std::io::Read;

/// The first eight bytes of a `triangle-stream` certificate.
pub const MAGIC: &[u8; 8] = b"GCTASTR1";

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamReport {
    /// Positions listed over all levels.
    pub positions: u64,
    /// Moves verified (mapped onto a listed position).
    pub moves: u64,
    /// Positions where the other player has no legal move.
    pub final_positions: u64,
    /// The most positions held at once (two levels).
    pub held: u64,
    /// Bytes read.
    pub bytes: u64,
}

/// The certificate as read: a buffered reader that knows its offset, for messages.
struct Input<'r> {
    r: &'r mut dyn Read,
    offset: u64,
}

impl Input<'_> {
    fn bytes<const K: usize>(&mut self, what: &str) -> Result<[u8; K], String> {
        let mut b = [0u8; K];
        self.r.read_exact(&mut b).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                format!("byte {}: the file ends inside {what}", self.offset)
            } else {
                format!("byte {}: {e}", self.offset)
            }
        })?;
        self.offset += K as u64;
        Ok(b)
    }

    fn byte(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.bytes::<1>(what)?[0])
    }

    fn u16(&mut self, what: &str) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.bytes(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.bytes(what)?))
    }

    /// Whether the file ends here.
    fn at_end(&mut self) -> Result<bool, String> {
        let mut b = [0u8; 1];
        loop {
            match self.r.read(&mut b) {
                Ok(0) => return Ok(true),
                Ok(_) => return Ok(false),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(format!("byte {}: {e}", self.offset)),
            }
        }
    }
}

/// A level as read: its codes and their graphs.
struct Level {
    t: usize,
    codes: Vec<u128>,
}

/// Checks a `triangle-stream` certificate for the game on `n` nodes read from `r` (which must
/// start at the magic). Errors name the byte offset, the level and the position.
pub fn check_triangle_stream(
    n: usize,
    r: &mut dyn Read,
    budget: &mut Budget,
) -> Result<(String, StreamReport), String> {
    let mut input = Input { r, offset: 0 };
    let head = input.bytes::<16>("the header")?;
    ensure!(&head[..8] == MAGIC, "byte 0: not a triangle-stream certificate (no GCTASTR1 magic)");
    let file_n = usize::from(head[8]);
    ensure!(file_n == n, "byte 8: the certificate is for n = {file_n}, the instance for n = {n}");
    ensure!((1..=MAX_N).contains(&n), "byte 8: n = {n} is outside 1..={MAX_N}");
    let winner_is_a = match head[9] {
        b'A' => true,
        b'B' => false,
        other => fail!("byte 9: the Winner is byte {other}, neither 'A' nor 'B'"),
    };
    ensure!(head[10..].iter().all(|&b| b == 0), "bytes 10..16: the reserved bytes must be zero");
    let winner = if winner_is_a { "A" } else { "B" }.to_string();
    let mut report = StreamReport { bytes: 16, ..StreamReport::default() };
    let mut current = read_level(&mut input, n, 0, budget)?;
    ensure!(
        current.codes == [0],
        "level 0 must list exactly the empty graph (the start), found {} positions",
        current.codes.len()
    );
    report.positions = 1;
    loop {
        let tag_at = input.offset;
        let tag = input.byte("a section tag")?;
        let t = current.t;
        let winner_to_move = t.is_multiple_of(2) == winner_is_a;
        match tag {
            b'E' => {
                // Nothing follows the last level: its positions must all be final.
                for (i, &code) in current.codes.iter().enumerate() {
                    let g = adjacency(n, code).map_err(|why| format!("code {why}"))?;
                    budget.charge(square(n) + 16, "checking the last level")?;
                    let at = || format!("level {t}, position {i} ({code:x})");
                    ensure!(
                        !winner_to_move,
                        "byte {tag_at}: {}: the Winner is to move but the certificate ends",
                        at()
                    );
                    if let Some((a, b)) = legal_moves(n, &g).next() {
                        fail!(
                            "byte {tag_at}: {}: the other player's move {a}-{b} is not answered \
                             (the certificate ends)",
                            at()
                        );
                    }
                    report.final_positions += 1;
                }
                ensure!(
                    input.at_end()?,
                    "byte {}: bytes after the end mark (nothing in a certificate is ignored)",
                    input.offset
                );
                report.bytes = input.offset;
                return Ok((winner, report));
            }
            b'L' => {}
            other => fail!(
                "byte {tag_at}: section tag {other}, not 'L' (the next level) or 'E' (the end)"
            ),
        }
        let t_next = usize::from(input.u16("a level number")?);
        ensure!(
            t_next == t + 1,
            "byte {}: level {t_next} where level {} was due",
            input.offset - 2,
            t + 1
        );
        let next = read_level(&mut input, n, t + 1, budget)?;
        report.positions += next.codes.len() as u64;
        report.held = report.held.max((current.codes.len() + next.codes.len()) as u64);
        let tag_at = input.offset;
        ensure!(
            input.byte("a section tag")? == b'M',
            "byte {tag_at}: the moves of level {t} (tag 'M') must follow level {}",
            t + 1
        );
        let t_moves = usize::from(input.u16("a level number")?);
        ensure!(
            t_moves == t,
            "byte {}: the moves of level {t_moves} where those of level {t} were due",
            input.offset - 2
        );
        check_moves(&mut input, n, &current, &next.codes, winner_to_move, budget, &mut report)?;
        current = next;
    }
}

fn square(n: usize) -> u64 {
    (n * n) as u64
}

/// Reads section `Lt` after its tag and level number (level 0: the whole section).
fn read_level(input: &mut Input, n: usize, t: usize, budget: &mut Budget) -> Result<Level, String> {
    if t == 0 {
        let at = input.offset;
        ensure!(
            input.byte("a section tag")? == b'L',
            "byte {at}: level 0 (tag 'L') must come first"
        );
        let level = input.u16("a level number")?;
        ensure!(level == 0, "byte {}: level {level} where level 0 was due", input.offset - 2);
    }
    let count = input.u64("a level's count")?;
    let mut codes = Vec::new();
    let mut previous: Option<u128> = None;
    for i in 0..count {
        // Charged before the code is held: a count alone allocates nothing.
        budget.charge(square(n) + 16, "reading the positions")?;
        let at = input.offset;
        let code = u128::from_le_bytes(input.bytes::<16>("a position's code")?);
        let here = || format!("byte {at}: level {t}, position {i} ({code:x})");
        let g = adjacency(n, code).map_err(|why| format!("{}: the code {why}", here()))?;
        ensure!(edges(&g) == t, "{}: {} edges, not {t}", here(), edges(&g));
        if let Some((a, b, c)) = triangle(n, &g) {
            fail!("{}: has the triangle {a}-{b}-{c}: not a position of the game", here());
        }
        ensure!(
            previous.is_none_or(|p| p < code),
            "{}: the codes of a level must be strictly increasing",
            here()
        );
        previous = Some(code);
        codes.push(code);
    }
    Ok(Level { t, codes })
}

/// The legal moves of `g`: edges a < b that are absent and close no triangle, in order.
fn legal_moves(n: usize, g: &Adjacency) -> impl Iterator<Item = (usize, usize)> + '_ {
    (0..n)
        .flat_map(move |a| (a + 1..n).map(move |b| (a, b)))
        .filter(|&(a, b)| g[a] >> b & 1 == 0 && g[a] & g[b] == 0)
}

/// Reads a permutation of 0..n packed four bits a vertex.
fn permutation(input: &mut Input, n: usize) -> Result<[usize; MAX_N], String> {
    let at = input.offset;
    let packed = input.u64("a permutation")?;
    let mut digits = [0usize; MAX_N];
    let mut hit = 0u32;
    for (v, digit) in digits.iter_mut().enumerate() {
        let d = (packed >> (4 * v) & 0xf) as usize;
        if v >= n {
            ensure!(
                d == 0,
                "byte {at}: the permutation {packed:016x} has bits beyond {n} vertices"
            );
            continue;
        }
        ensure!(
            d < n && hit >> d & 1 == 0,
            "byte {at}: {packed:016x} is not a permutation of 0..{n}"
        );
        hit |= 1 << d;
        *digit = d;
    }
    Ok(digits)
}

/// Reads and verifies section `Mt` (after its tag and level number).
fn check_moves(
    input: &mut Input,
    n: usize,
    level: &Level,
    next: &[u128],
    winner_to_move: bool,
    budget: &mut Budget,
    report: &mut StreamReport,
) -> Result<(), String> {
    let t = level.t;
    for (i, &code) in level.codes.iter().enumerate() {
        budget.charge(square(n) + 16, "replaying positions")?;
        let g = adjacency(n, code).map_err(|why| format!("code {why}"))?;
        let at = || format!("level {t}, position {i} ({code:x})");
        // Follows one move: its image must be listed in the next level.
        let mut follow = |input: &mut Input, (a, b): (usize, usize)| -> Result<(), String> {
            budget.charge(square(n) + 32, "verifying moves")?;
            let perm_at = input.offset;
            let digits = permutation(input, n)?;
            let image = code_of(n, &moved_and_relabelled(n, &g, (a, b), &digits));
            ensure!(
                next.binary_search(&image).is_ok(),
                "byte {perm_at}: {}, move {a}-{b}: the permutation maps the result to {image:x}, \
                 which level {} does not list",
                at(),
                t + 1
            );
            report.moves += 1;
            Ok(())
        };
        if winner_to_move {
            let edge_at = input.offset;
            let [a, b] = input.bytes::<2>("the Winner's move")?.map(usize::from);
            ensure!(a < b && b < n, "byte {edge_at}: {}: {a}-{b} is not an edge a < b < {n}", at());
            ensure!(
                g[a] >> b & 1 == 0,
                "byte {edge_at}: {}: the edge {a}-{b} is already there",
                at()
            );
            ensure!(
                g[a] & g[b] == 0,
                "byte {edge_at}: {}: the Winner's move {a}-{b} closes a triangle",
                at()
            );
            follow(input, (a, b))?;
        } else {
            let mut any = false;
            for (a, b) in legal_moves(n, &g) {
                any = true;
                follow(input, (a, b))?;
            }
            report.final_positions += u64::from(!any);
        }
    }
    Ok(())
}

/// Writes the 16-byte header (for writers and tests).
pub fn header(n: usize, winner_is_a: bool) -> [u8; 16] {
    let mut h = [0u8; 16];
    h[..8].copy_from_slice(MAGIC);
    h[8] = n as u8;
    h[9] = if winner_is_a { b'A' } else { b'B' };
    h
}

/// Packs a permutation (vertex v becomes `perm[v]`) as the format's u64.
pub fn pack_permutation(perm: &[u8]) -> u64 {
    perm.iter().enumerate().fold(0, |p, (v, &d)| p | u64::from(d & 0xf) << (4 * v))
}

/// The verdict on a `triangle-stream` certificate for `n` nodes read from `read` (named `name`
/// in messages), under `budget`: accepted with the Winner's strategy's counts, or rejected with
/// the reason [`check_triangle_stream`] gives.
pub fn stream_verdict(n: usize, read: &mut impl Read, name: &str, budget: &mut Budget) -> Verdict {
    match check_triangle_stream(n, read, budget) {
        Ok((winner, report)) => Verdict {
            outcome: crate::verdict::Decision::Accepted,
            claim: format!("{winner} wins one-colour triangle avoidance on {n} nodes"),
            reason: format!(
                "the Winner's strategy checked level by level: {}, {} mapped onto listed \
                 positions by verified permutations, {}; at most {} held at once, {} read",
                counted(report.positions, "position"),
                counted(report.moves, "move"),
                counted(report.final_positions, "final position"),
                counted(report.held, "position"),
                counted(report.bytes, "byte")
            ),
            work: Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                ..Work::default()
            },
            trusted: Vec::new(),
        },
        Err(why) => reject(
            format!("the Winner wins one-colour triangle avoidance on {n} nodes"),
            format!("{name}: {why}"),
            Work::default(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Figure 2 strategy for n = 4 (B wins), as a stream: see `strategy.rs`'s `four`.
    /// Codes over pairs 01 02 03 12 13 23 (bits 5..0).
    fn four() -> Vec<u8> {
        let mut out = header(4, false).to_vec();
        let level = |out: &mut Vec<u8>, t: u16, codes: &[u128]| {
            out.push(b'L');
            out.extend(t.to_le_bytes());
            out.extend((codes.len() as u64).to_le_bytes());
            for c in codes {
                out.extend(c.to_le_bytes());
            }
        };
        let moves = |out: &mut Vec<u8>, t: u16| {
            out.push(b'M');
            out.extend(t.to_le_bytes());
        };
        let perm = |out: &mut Vec<u8>, p: &str| {
            let digits: Vec<u8> = p.bytes().map(|c| c - b'0').collect();
            out.extend(pack_permutation(&digits).to_le_bytes());
        };
        level(&mut out, 0, &[0]);
        level(&mut out, 1, &[0x20]);
        // A's six first moves, in order 01 02 03 12 13 23, each mapped to 01.
        moves(&mut out, 0);
        for p in ["0123", "0213", "0231", "2013", "2031", "2301"] {
            perm(&mut out, p);
        }
        level(&mut out, 2, &[0x21]);
        moves(&mut out, 1);
        out.extend([2, 3]);
        perm(&mut out, "0123");
        // From 01, 23: A's moves 02 03 12 13 join them into the path 0-1-2-3 (code 25).
        level(&mut out, 3, &[0x25]);
        moves(&mut out, 2);
        for p in ["1023", "1032", "0123", "0132"] {
            perm(&mut out, p);
        }
        level(&mut out, 4, &[0x2d]);
        moves(&mut out, 3);
        out.extend([0, 3]);
        perm(&mut out, "0123");
        out.push(b'E');
        out
    }

    fn check(bytes: &[u8]) -> Result<(String, StreamReport), String> {
        check_triangle_stream(4, &mut &bytes[..], &mut Budget::new(1_000_000))
    }

    #[test]
    fn figure_2_strategy_checks_as_a_stream() {
        let (winner, report) = check(&four()).unwrap();
        assert_eq!(winner, "B");
        assert_eq!((report.positions, report.moves, report.final_positions), (5, 12, 1));
        assert_eq!(report.bytes, four().len() as u64);
    }

    #[test]
    fn each_damage_is_rejected_with_its_place() {
        let good = four();
        type Damage = Box<dyn Fn(&mut Vec<u8>)>;
        let cases: Vec<(Damage, &str)> = vec![
            (Box::new(|b| b[0] = b'X'), "no GCTASTR1 magic"),
            (Box::new(|b| b[8] = 5), "for n = 5"),
            (Box::new(|b| b[9] = b'A'), "16-50 is not an edge"),
            (Box::new(|b| b[12] = 1), "reserved bytes"),
            (Box::new(|b| b.push(0)), "bytes after the end mark"),
            (Box::new(|b| b.truncate(b.len() - 1)), "ends inside a section tag"),
            (Box::new(|b| b.truncate(60)), "the file ends inside"),
        ];
        for (damage, expected) in cases {
            let mut bytes = good.clone();
            damage(&mut bytes);
            let err = check(&bytes).unwrap_err();
            assert!(err.contains(expected), "{expected}: {err}");
        }
    }

    #[test]
    fn every_flipped_byte_is_rejected_or_harmless() {
        // Flipping any one byte must never panic; an accepted result must still be B's win
        // (only a different valid permutation can survive, and none exists here but the
        // written ones).
        let good = four();
        for i in 0..good.len() {
            for bit in 0..8 {
                let mut bytes = good.clone();
                bytes[i] ^= 1 << bit;
                if let Ok((winner, _)) = check(&bytes) {
                    assert_eq!(winner, "B", "byte {i} bit {bit}");
                }
            }
        }
    }

    #[test]
    fn a_huge_count_costs_only_what_is_read() {
        let mut bytes = header(4, false).to_vec();
        bytes.push(b'L');
        bytes.extend(0u16.to_le_bytes());
        bytes.extend(u64::MAX.to_le_bytes());
        bytes.extend(0u128.to_le_bytes());
        let err = check(&bytes).unwrap_err();
        assert!(err.contains("the file ends inside a position's code"), "{err}");
        let err = check_triangle_stream(4, &mut &bytes[..], &mut Budget::new(10)).unwrap_err();
        assert!(err.contains("work limit"), "{err}");
    }

    #[test]
    fn wrong_levels_and_moves_are_named() {
        // A permutation that is not one.
        let mut bytes = four();
        // The header, levels 0 and 1 (27 bytes each), the tag of M0.
        let first_perm = 16 + 27 + 27 + 3;
        bytes[first_perm] = 0x11;
        let err = check(&bytes).unwrap_err();
        assert!(err.contains("not a permutation"), "{err}");
        // The identity where a relabelling was needed: the image is not listed.
        let mut bytes = four();
        bytes[first_perm + 8..first_perm + 16]
            .copy_from_slice(&pack_permutation(&[0, 1, 2, 3]).to_le_bytes());
        let err = check(&bytes).unwrap_err();
        assert!(
            err.contains("level 0, position 0 (0), move 0-2") && err.contains("does not list"),
            "{err}"
        );
    }
}

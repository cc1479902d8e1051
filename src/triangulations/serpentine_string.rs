//! The b/g string of Proposition 1's proof (seed 000, 6.2) for MFT on a serpentine
//! triangulation of the convex polygon 0..n, computed on positions of the real game (reached
//! by real flips from the start, [`gamecert_certificates::triangulations::flipping::Board::play`]), and
//! [`survey`], which tests the proof's claims about the string on every such position.
//!
//! Decisions (the proof leaves them open):
//! - Sides. The initial dual path pi runs between the two ears; their tips u < w are the two
//!   vertices in one initial triangle only. The boundary minus {u, w} is two chains; each tip
//!   joins the chain that follows it counter-clockwise: side A = u, u+1, ..., w-1 and side
//!   B = w, w+1, ..., u-1 (indices mod n). The sides never change. Every initial diagonal
//!   separates the two ears, so it joins A \ {u} to B \ {w}: every black edge crosses pi.
//! - Crossing edges and their order. An edge crosses pi iff its endpoints are on different
//!   sides. The string lists the *diagonals* of the current triangulation that cross pi (the
//!   two polygon sides u-1..u and w-1..w also join A and B; they are black hull edges and not
//!   encoded). Two non-crossing A-B diagonals are ordered along pi from u's ear to w's ear:
//!   by (distance of the A end from u along A, distance of the B end from u-1 along B).
//! - The reduced T. The proof removes the part cut off by each flip to a non-crossing edge.
//!   In the real game that part stays, but it holds no black edge (black edges cross pi); the
//!   reduced T is the polygon minus the pockets cut off by the green non-crossing diagonals,
//!   and its hull edges are polygon sides (black, not encoded) and the outermost green
//!   non-crossing diagonals.
//! - Extra g's. Consecutive crossing diagonals share an endpoint and bound one face of the
//!   current triangulation; its third side does not cross pi and is a hull edge of the
//!   reduced T. Before the first crossing diagonal (and after the last) the face on the far
//!   side of it toward the ear has likewise one side not crossing pi. Each such side that is
//!   green gives one g, placed in that gap. So each gap carries at most one extra g (the
//!   proof's i, j in {0, 1}), and a hull g is told from a crossing g by [`Token`].

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{setup, Board, FlipSpec};
use serde::Serialize;
use std::collections::HashSet;

/// One letter of the string, with the edge it encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token {
    /// A diagonal crossing pi: `b` when black, `g` when green.
    Cross { edge: [usize; 2], green: bool },
    /// A green hull edge of the reduced T (not crossing pi): `g`.
    Hull { edge: [usize; 2] },
}

impl Token {
    pub fn letter(self) -> char {
        match self {
            Token::Cross { green: false, .. } => 'b',
            _ => 'g',
        }
    }
}

/// The string of a token list.
pub fn word(tokens: &[Token]) -> String {
    tokens.iter().map(|t| t.letter()).collect()
}

/// The fixed side assignment of an initial serpentine triangulation.
#[derive(Clone, Debug)]
pub struct Sides {
    pub n: usize,
    /// The ear tips, u < w.
    pub tips: [usize; 2],
}

impl Sides {
    /// From the initial triangles (a serpentine triangulation of the convex n-gon, n >= 4).
    pub fn new(n: usize, triangles: &[[usize; 3]]) -> Result<Sides, String> {
        let mut count = vec![0usize; n];
        for t in triangles {
            for &v in t {
                count[v] += 1;
            }
        }
        let tips: Vec<usize> = (0..n).filter(|&v| count[v] == 1).collect();
        if tips.len() != 2 {
            return Err(format!("{} ears: not serpentine", tips.len()));
        }
        Ok(Sides { n, tips: [tips[0], tips[1]] })
    }

    /// Side A (u..w-1)?
    pub fn in_a(&self, v: usize) -> bool {
        (self.tips[0]..self.tips[1]).contains(&v)
    }

    pub fn crosses(&self, e: [usize; 2]) -> bool {
        self.in_a(e[0]) != self.in_a(e[1])
    }

    /// Distance along v's own side from the end at u's ear.
    fn along(&self, v: usize) -> usize {
        let (n, u) = (self.n, self.tips[0]);
        if self.in_a(v) {
            v - u
        } else {
            (u + 2 * n - 1 - v) % n
        }
    }

    fn polygon_side(&self, e: [usize; 2]) -> bool {
        let d = e[0].abs_diff(e[1]);
        d == 1 || d == self.n - 1
    }

    /// The string's tokens at `board`.
    pub fn encode(&self, board: &Board) -> Result<Vec<Token>, String> {
        // (A end, B end) of each crossing diagonal.
        let mut cross: Vec<([usize; 2], bool)> = board
            .edges
            .iter()
            .map(|(k, s)| ([k[0] as usize, k[1] as usize], s.colour == 1))
            .filter(|&(e, _)| self.crosses(e) && !self.polygon_side(e))
            .map(|(e, g)| (if self.in_a(e[0]) { e } else { [e[1], e[0]] }, g))
            .collect();
        cross.sort_unstable_by_key(|&(e, _)| (self.along(e[0]), self.along(e[1])));
        let green = |a: usize, b: usize| board.colour(a, b) == 1;
        let key = |a: usize, b: usize| [a.min(b), a.max(b)];
        let mut out = Vec::with_capacity(2 * cross.len() + 1);
        for (k, &(e, g)) in cross.iter().enumerate() {
            // The gap before e: the face between the previous crossing diagonal and e, or
            // the face on u's side of e for the first.
            let third = if k > 0 {
                let p = cross[k - 1].0;
                if p[0] == e[0] {
                    key(p[1], e[1])
                } else if p[1] == e[1] {
                    key(p[0], e[0])
                } else {
                    return Err(format!(
                        "consecutive crossing diagonals {p:?}, {e:?} share no endpoint"
                    ));
                }
            } else {
                self.toward(board, e, true)?
            };
            if green(third[0], third[1]) {
                out.push(Token::Hull { edge: third });
            }
            out.push(Token::Cross { edge: key(e[0], e[1]), green: g });
            if k + 1 == cross.len() {
                let last = self.toward(board, e, false)?;
                if green(last[0], last[1]) {
                    out.push(Token::Hull { edge: last });
                }
            }
        }
        Ok(out)
    }

    /// The side not crossing pi of the face next to the crossing diagonal e (A end, B end)
    /// toward u's ear (`to_u`) or w's.
    fn toward(&self, board: &Board, e: [usize; 2], to_u: bool) -> Result<[usize; 2], String> {
        let s = board
            .edges
            .get(&[e[0].min(e[1]) as u32, e[0].max(e[1]) as u32])
            .ok_or("not an edge")?;
        for &p in &s.apex {
            let p = p as usize;
            let end = if self.in_a(p) { e[0] } else { e[1] };
            if (self.along(p) < self.along(end)) == to_u {
                return Ok([p.min(end), p.max(end)]);
            }
        }
        Err(format!("no face of {e:?} toward the ear"))
    }
}

/// The counts of [`survey`] for one n (all serpentine triangulations up to symmetry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Survey {
    #[serde(rename = "points")]
    pub n: usize,
    pub triangulations: usize,
    /// Positions reached by moves that do not end the game (start included).
    pub positions: u64,
    /// (a): non-winning moves to a crossing edge / to a non-crossing edge, and those whose
    /// string change is not the proof's.
    pub crossing_moves: u64,
    pub noncrossing_moves: u64,
    pub a_failures: u64,
    /// (b): winning moves, and those whose b is not between two g's.
    pub winning_moves: u64,
    pub b_failures: u64,
    /// The converse of (b), which the parity step leans on, fails: non-winning moves whose
    /// b sits between two g's.
    pub gbg_not_winning: u64,
    /// (c): positions where the number of b's differs from the number of legal moves, or a
    /// legal move does not cross pi.
    pub c_failures: u64,
    /// (d): forced positions (moves left, none wins, each hands the opponent a winning
    /// move), those with an odd number of b's, and those where every b is in a gbbg.
    pub forced: u64,
    pub forced_odd: u64,
    pub forced_twins: u64,
    /// (d) on positions reached under the proof's assumption (no earlier move offered a win).
    pub forced_assumed: u64,
    pub forced_assumed_odd: u64,
}

/// Every maximal run of b's has length 2 and is bounded by g's on both sides.
pub fn all_twins(w: &str) -> bool {
    let bytes = w.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'b' {
            let mut j = i;
            while j < bytes.len() && bytes[j] == b'b' {
                j += 1;
            }
            if j - i != 2 || i == 0 || j == bytes.len() {
                return false;
            }
            i = j;
        } else {
            i += 1;
        }
    }
    true
}

/// A forced position found by [`survey_one`] with an odd number of b's.
#[derive(Clone, Debug)]
pub struct OddForced {
    pub position: String,
    pub word: String,
    pub tokens: Vec<Token>,
    pub black: Vec<[usize; 2]>,
    /// Reached under the proof's assumption.
    pub assumed: bool,
}

/// Tests claims (a)-(d) on every position of MFT on `spec` (serpentine, convex) reached by
/// moves that do not end the game; adds to `s` and returns the odd forced positions.
pub fn survey_one(spec: &FlipSpec, s: &mut Survey) -> Result<Vec<OddForced>, String> {
    let n = spec.convex_polygon.ok_or("a convex polygon")?;
    let sides = Sides::new(n, &spec.triangles)?;
    let (shape, start) = setup(spec, &mut Budget::new(u64::MAX))?;
    let play = |b: &Board, e: [usize; 2]| {
        let mut next = b.clone();
        let f = next.play(&shape, spec.game, e, 1).expect("a legal move");
        (next, f)
    };
    let wins = |b: &Board, e: [usize; 2]| play(b, e).1.green_face;
    // Positions reached under the proof's assumption.
    let mut assumed = HashSet::new();
    let mut stack = vec![start.clone()];
    while let Some(b) = stack.pop() {
        if !assumed.insert(b.masks(n)) {
            continue;
        }
        let moves = b.moves(&shape);
        if moves.iter().any(|&e| wins(&b, e)) {
            continue;
        }
        for &e in &moves {
            let (next, _) = play(&b, e);
            if !next.moves(&shape).iter().any(|&f| wins(&next, f)) {
                stack.push(next);
            }
        }
    }
    let mut odd = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    while let Some(b) = stack.pop() {
        if !seen.insert(b.masks(n)) {
            continue;
        }
        s.positions += 1;
        let tokens = sides.encode(&b)?;
        let w = word(&tokens);
        let moves = b.moves(&shape);
        let bs = w.bytes().filter(|&c| c == b'b').count();
        if bs != moves.len() || moves.iter().any(|&e| !sides.crosses(e)) {
            s.c_failures += 1;
        }
        let mut any_win = false;
        let mut all_offer = !moves.is_empty();
        for &e in &moves {
            let (next, f) = play(&b, e);
            let k = tokens.iter().position(|t| *t == Token::Cross { edge: e, green: false });
            let Some(k) = k else {
                // Counted by (c).
                continue;
            };
            let is_g =
                |i: Option<usize>| i.and_then(|i| tokens.get(i)).is_some_and(|t| t.letter() == 'g');
            if f.green_face {
                any_win = true;
                s.winning_moves += 1;
                if !(is_g(k.checked_sub(1)) && is_g(Some(k + 1))) {
                    s.b_failures += 1;
                }
                continue;
            }
            if is_g(k.checked_sub(1)) && is_g(Some(k + 1)) {
                s.gbg_not_winning += 1;
            }
            let hull = |i: usize| matches!(tokens.get(i), Some(Token::Hull { .. }));
            let lo = if k > 0 && hull(k - 1) { k - 1 } else { k };
            let hi = if hull(k + 1) { k + 1 } else { k };
            let crossing = sides.crosses(f.new);
            let middle = if crossing { hi - lo + 1 } else { 1 };
            let expected =
                format!("{}{}{}", word(&tokens[..lo]), "g".repeat(middle), word(&tokens[hi + 1..]));
            if crossing {
                s.crossing_moves += 1;
            } else {
                s.noncrossing_moves += 1;
            }
            if word(&sides.encode(&next)?) != expected {
                s.a_failures += 1;
            }
            let offers = next.moves(&shape).iter().any(|&g| wins(&next, g));
            all_offer &= offers;
            stack.push(next);
        }
        if all_offer && !any_win {
            let is_assumed = assumed.contains(&b.masks(n));
            s.forced += 1;
            s.forced_twins += u64::from(all_twins(&w));
            s.forced_assumed += u64::from(is_assumed);
            if bs % 2 == 1 {
                s.forced_odd += 1;
                s.forced_assumed_odd += u64::from(is_assumed);
                odd.push(OddForced {
                    position: b.position(n),
                    word: w.clone(),
                    tokens: tokens.clone(),
                    black: moves.clone(),
                    assumed: is_assumed,
                });
            }
        }
    }
    Ok(odd)
}

/// [`survey_one`] over every serpentine triangulation of the n-gon up to symmetry.
pub fn survey(n: usize) -> Result<Survey, String> {
    let mut s = Survey { n, ..Survey::default() };
    for t in crate::triangulations::serpentine::all_serpentine(n) {
        s.triangulations += 1;
        survey_one(&crate::triangulations::serpentine::mft(n, t), &mut s)?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Claims (a)-(d) on every position reached by non-ending moves, every serpentine
    /// triangulation up to symmetry, 4 <= n <= 12 (about 3 s at opt-level 2). (a), (b), (c)
    /// hold everywhere; (d) fails at n >= 10 (forced positions with an odd number of b's),
    /// and every forced position is also reached under the proof's assumption.
    /// Rows: n, positions, non-winning moves to a crossing / non-crossing edge, winning
    /// moves, non-winning moves whose b sits between two g's (the converse of (b) fails),
    /// forced positions, forced with an odd number of b's, forced with every b in a gbbg.
    #[test]
    fn proposition_1_string_claims() {
        let expected: [[u64; 9]; 9] = [
            [4, 2, 1, 0, 0, 0, 0, 0, 0],
            [5, 5, 3, 1, 0, 0, 0, 0, 0],
            [6, 26, 16, 11, 1, 1, 0, 0, 0],
            [7, 100, 69, 58, 11, 7, 2, 0, 2],
            [8, 511, 424, 343, 97, 53, 16, 0, 15],
            [9, 2139, 2016, 1706, 617, 273, 95, 0, 90],
            [10, 10769, 11732, 9591, 4148, 1657, 523, 1, 494],
            [11, 48497, 58710, 49187, 23648, 8607, 2380, 5, 2264],
            [12, 243412, 327901, 272955, 142820, 49356, 11029, 38, 10493],
        ];
        for row in expected {
            let s = survey(row[0] as usize).unwrap();
            println!("{s:?}");
            assert_eq!((s.a_failures, s.b_failures, s.c_failures), (0, 0, 0), "{s:?}");
            assert_eq!(
                [
                    s.n as u64,
                    s.positions,
                    s.crossing_moves,
                    s.noncrossing_moves,
                    s.winning_moves,
                    s.gbg_not_winning,
                    s.forced,
                    s.forced_odd,
                    s.forced_twins
                ],
                row,
                "{s:?}"
            );
            assert_eq!((s.forced_assumed, s.forced_assumed_odd), (s.forced, s.forced_odd));
        }
    }

    /// The first counterexample to (d): n = 10, diagonals 1-9, 1-8, 2-8, 3-8, 3-7, 3-6, 4-6.
    #[test]
    fn proposition_1_parity_counterexample_n10() {
        let t = vec![
            [0, 1, 9],
            [1, 8, 9],
            [1, 2, 8],
            [2, 3, 8],
            [3, 7, 8],
            [3, 6, 7],
            [3, 4, 6],
            [4, 5, 6],
        ];
        let spec = crate::triangulations::serpentine::mft(10, t.clone());
        let sides = Sides::new(10, &t).unwrap();
        assert_eq!(sides.tips, [0, 5]);
        let mut s = Survey::default();
        let odd = survey_one(&spec, &mut s).unwrap();
        println!("{odd:?}");
        assert_eq!(odd.len(), 1);
        let o = &odd[0];
        assert!(o.assumed);
        assert_eq!(o.black, vec![[1, 8], [3, 6], [3, 8]]);
        assert_eq!(o.word, "gbgbgbg");
        assert_eq!(o.position, "158857028781/10002000480/0");
        // Every b sits between two g's, yet no move wins (the forced test checked that each
        // hands the opponent a win): a gbg need not be a winning move.
        let cross = |a: usize, b: usize, green: bool| Token::Cross { edge: [a, b], green };
        let hull = |a: usize, b: usize| Token::Hull { edge: [a, b] };
        assert_eq!(
            o.tokens,
            vec![
                cross(0, 8, true),
                cross(1, 8, false),
                hull(1, 3),
                cross(3, 8, false),
                hull(6, 8),
                cross(3, 6, false),
                cross(3, 5, true),
            ]
        );
        let (shape, mut board) = gamecert_certificates::triangulations::flipping::setup(
            &spec,
            &mut Budget::new(u64::MAX),
        )
        .unwrap();
        for e in [[1, 9], [2, 8], [3, 7], [4, 6]] {
            assert!(!board.play(&shape, spec.game, e, 1).unwrap().green_face);
        }
        assert_eq!(board.position(10), o.position);
        for &e in &o.black {
            let mut next = board.clone();
            assert!(!next.play(&shape, spec.game, e, 1).unwrap().green_face);
        }
        assert_eq!((s.forced, s.forced_odd), (s.forced_assumed, 1));
    }
}

//! Monochromatic Flipping to Triangle (MFT, seed 000, 2.2.2) on triangulations of convex
//! polygons, solved exactly on *reduced* positions. It reaches past the 16 points of the general
//! solver ([`crate::triangulations::flipping::Solver`]) and shares its work across every starting triangulation
//! of every size, which is what Theorem 10's search for the smallest N needs
//! ([`crate::triangulations::serpentine`]).
//!
//! Why a reduced position is the same game (the rules are the checker's,
//! `gamecert_certificates::triangulations::flipping`):
//! - In convex position every diagonal is flippable and only the cyclic order of the points
//!   matters, so a position is a coloured triangulation of a k-gon, and its value is invariant
//!   under rotation and reflection.
//! - Coloured edges and hull sides never flip. An ear (a vertex of degree 2) whose diagonal is
//!   green is therefore frozen: its triangle never changes and is not green (else the game would
//!   be over). Deleting the ear's tip leaves a (k-1)-gon whose new side is that green diagonal,
//!   still able to close a green triangle on its other side. Repeating this deletes every region
//!   cut off by a green diagonal with no black diagonal inside: Proposition 1's "Δ \ e' is
//!   irrelevant", for any triangulation.
//! - So a reduced position is a triangulation of a k-gon, each side black (an original hull
//!   side, never coloured in MFT) or green (an old diagonal), each diagonal black or green. Its
//!   value to the player to move (+1 win, 0 tie, -1 loss) is stored once, under a canonical key.
//!
//! Canonical key: a triangulation of a convex polygon is determined by its vertex degrees read
//! around the polygon (an ear is a vertex of degree 2; delete it and recurse: the
//! Conway-Coxeter quiddity argument). The key is, minimised over the 2k rotations and
//! reflections, the degrees with each side's colour (6 bits a vertex, a `u128`), then the
//! colours of the diagonals in lexicographic order of their relabelled ends (a `u32`).
//!
//! Trust: this solver is not trusted. Its values are cross-checked against the general solver
//! (tests below), and its strategies become `flip-value` certificates that the checker replays
//! on the real game (up to the checker's strategy limit,
//! `gamecert_certificates::triangulations::flipping::MAX_STRATEGY_POINTS`).

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{
    setup, Board, FlipGame, FlipSpec, FlipValue,
};
use rustc_hash::FxHashMap;

/// Largest polygon (the key packs 6 bits per vertex into a `u128`).
pub const MAX_VERTICES: usize = 21;

/// A reduced position: vertices 0..k in polygon order, adjacency and green adjacency as bit
/// masks over positions, and each position's vertex in the original instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Poly {
    k: usize,
    nbr: [u32; MAX_VERTICES],
    green: [u32; MAX_VERTICES],
    label: [u8; MAX_VERTICES],
}

impl Poly {
    /// The start of MFT on the triangulation `triangles` of the convex n-gon 0..n, all black.
    pub fn new(n: usize, triangles: &[[usize; 3]]) -> Result<Poly, String> {
        let mut edges = Vec::new();
        for t in triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
                edges.push(([a, b], false));
            }
        }
        Poly::from_edges(n, &edges)
    }

    /// The reduced position of a board of the checker (an abstract convex n-gon), MFT rules.
    pub fn from_board(n: usize, board: &Board) -> Result<Poly, String> {
        let edges: Vec<([usize; 2], bool)> = board
            .edges
            .iter()
            .map(|(e, s)| ([e[0] as usize, e[1] as usize], s.colour == 1))
            .collect();
        let mut p = Poly::from_edges(n, &edges)?;
        p.reduce();
        Ok(p)
    }

    fn from_edges(n: usize, edges: &[([usize; 2], bool)]) -> Result<Poly, String> {
        if !(3..=MAX_VERTICES).contains(&n) {
            return Err(format!("{n} vertices: the reduced MFT solver takes 3 to {MAX_VERTICES}"));
        }
        let mut p = Poly {
            k: n,
            nbr: [0; MAX_VERTICES],
            green: [0; MAX_VERTICES],
            label: [0; MAX_VERTICES],
        };
        for (i, l) in p.label.iter_mut().enumerate().take(n) {
            *l = i as u8;
        }
        for &([a, b], green) in edges {
            if a >= n || b >= n || a == b {
                return Err(format!("edge {a}-{b} is not a pair of vertices of the {n}-gon"));
            }
            p.nbr[a] |= 1 << b;
            p.nbr[b] |= 1 << a;
            if green {
                p.green[a] |= 1 << b;
                p.green[b] |= 1 << a;
            }
        }
        let edge_count: u32 = p.nbr[..n].iter().map(|m| m.count_ones()).sum::<u32>() / 2;
        if edge_count as usize != 2 * n - 3 {
            return Err(format!(
                "{edge_count} edges: a triangulation of the {n}-gon has {}",
                2 * n - 3
            ));
        }
        // Every side and n - 3 pairwise non-crossing diagonals: a triangulation (what `flip`
        // relies on).
        if let Some(v) = (0..n).find(|&v| p.nbr[v] >> ((v + 1) % n) & 1 == 0) {
            return Err(format!("the side {v}-{} is missing", (v + 1) % n));
        }
        let diagonals: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 2..n).map(move |b| (a, b)))
            .filter(|&(a, b)| p.nbr[a] >> b & 1 == 1 && !p.is_side(a, b))
            .collect();
        for (i, &(a, b)) in diagonals.iter().enumerate() {
            if let Some(&(c, d)) = diagonals[i + 1..].iter().find(|&&(c, d)| {
                (a < c && c < b) != (a < d && d < b) && c != a && c != b && d != a && d != b
            }) {
                return Err(format!("the diagonals {a}-{b} and {c}-{d} cross"));
            }
        }
        Ok(p)
    }

    pub fn vertices(&self) -> usize {
        self.k
    }

    fn is_side(&self, a: usize, b: usize) -> bool {
        let d = a.abs_diff(b);
        d == 1 || d == self.k - 1
    }

    /// The black diagonals (the legal moves) as position pairs (a < c).
    pub fn moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 0..self.k {
            let mut m = self.nbr[a] & !self.green[a] & !((2u32 << a) - 1);
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                if !self.is_side(a, c) {
                    out.push((a, c));
                }
            }
        }
        out
    }

    /// The move's edge in the original instance.
    pub fn original(&self, (a, c): (usize, usize)) -> [usize; 2] {
        let (x, y) = (self.label[a] as usize, self.label[c] as usize);
        [x.min(y), x.max(y)]
    }

    /// Flips the black diagonal a-c; true when the new green edge completes a green triangle.
    /// The position is not reduced.
    pub fn flip(&mut self, (a, c): (usize, usize)) -> bool {
        // In a maximal outerplanar graph every 3-cycle is a face: the common neighbours of a
        // diagonal's ends are its two apexes.
        let apexes = self.nbr[a] & self.nbr[c];
        debug_assert_eq!(apexes.count_ones(), 2);
        let b = apexes.trailing_zeros() as usize;
        let d = 31 - apexes.leading_zeros() as usize;
        self.nbr[a] &= !(1 << c);
        self.nbr[c] &= !(1 << a);
        self.nbr[b] |= 1 << d;
        self.nbr[d] |= 1 << b;
        self.green[b] |= 1 << d;
        self.green[d] |= 1 << b;
        let g = |x: usize, y: usize| self.green[x] >> y & 1 == 1;
        (g(a, b) && g(a, d)) || (g(c, b) && g(c, d))
    }

    /// The reduced position after the move, or `None` when the move completes a green
    /// triangle (the mover wins).
    pub fn after(&self, mv: (usize, usize)) -> Option<Poly> {
        let mut next = self.clone();
        if next.flip(mv) {
            return None;
        }
        next.reduce();
        Some(next)
    }

    /// Deletes frozen ears (degree 2, green diagonal) until none is left.
    pub fn reduce(&mut self) {
        let mut v = 0;
        let mut since_removal = 0;
        while self.k > 3 && since_removal < self.k {
            let k = self.k;
            let (u, w) = ((v + k - 1) % k, (v + 1) % k);
            if self.nbr[v].count_ones() == 2 && self.green[u] >> w & 1 == 1 {
                self.delete(v);
                since_removal = 0;
                v = if v == 0 { 0 } else { v - 1 };
                v %= self.k;
            } else {
                since_removal += 1;
                v = (v + 1) % k;
            }
        }
    }

    /// Removes position v, renumbering the later positions down by one.
    fn delete(&mut self, v: usize) {
        let low = (1u32 << v) - 1;
        let squeeze = |m: u32| (m & low) | ((m >> 1) & !low);
        for i in v..self.k - 1 {
            self.nbr[i] = self.nbr[i + 1];
            self.green[i] = self.green[i + 1];
            self.label[i] = self.label[i + 1];
        }
        self.k -= 1;
        self.nbr[self.k] = 0;
        self.green[self.k] = 0;
        for i in 0..self.k {
            self.nbr[i] = squeeze(self.nbr[i]);
            self.green[i] = squeeze(self.green[i]);
        }
    }

    /// The degree of position v in the current triangulation (hull sides included).
    pub fn degree(&self, v: usize) -> u32 {
        self.nbr[v].count_ones()
    }

    /// Whether a-b is a green edge.
    pub fn is_green(&self, a: usize, b: usize) -> bool {
        self.green[a] >> b & 1 == 1
    }

    /// The diagonals in the order the dual path crosses them, from the ear at the smallest
    /// position of degree 2; `None` when the dual is not a path (an inner triangle).
    pub fn dual_order(&self) -> Option<Vec<(usize, usize)>> {
        let k = self.k;
        let tip = (0..k).find(|&v| self.degree(v) == 2)?;
        let (mut a, mut c) = ((tip + k - 1) % k, (tip + 1) % k);
        let mut behind = tip;
        let mut out = Vec::with_capacity(k - 3);
        while !self.is_side(a, c) {
            out.push((a.min(c), a.max(c)));
            let ahead = (self.nbr[a] & self.nbr[c] & !(1 << behind)).trailing_zeros() as usize;
            let (ad, cd) = (!self.is_side(a, ahead), !self.is_side(c, ahead));
            match (ad, cd) {
                (true, true) => return None,
                (true, false) => (behind, c) = (c, ahead),
                (false, true) => (behind, a) = (a, ahead),
                (false, false) => break,
            }
        }
        (out.len() == k - 3).then_some(out)
    }

    /// The canonical key (see the module docs).
    pub fn key(&self) -> (u128, u32) {
        let k = self.k;
        let full = (1u32 << k) - 1;
        let side_green = |p: usize, q: usize| u128::from(self.green[p] >> q & 1);
        let deg = |p: usize| u128::from(self.nbr[p].count_ones());
        // Map m < k: new i is old (i + m) % k; map m >= k: new i is old (m - k - i) mod k.
        let old = |m: usize, i: usize| {
            if m < k {
                (i + m) % k
            } else {
                (m - k + k - i % k) % k
            }
        };
        let primary = |m: usize| {
            let mut x = 0u128;
            for i in 0..k {
                let (p, q) = (old(m, i), old(m, (i + 1) % k));
                x |= (deg(p) << 1 | side_green(p, q)) << (6 * i);
            }
            x
        };
        let rotl = |y: u32, s: usize| {
            let s = s % k;
            ((y << s) | (y.checked_shr((k - s) as u32).unwrap_or(0))) & full
        };
        // The mask of old positions relabelled to new ones under map m.
        let relabel = |m: usize, x: u32| {
            if m < k {
                rotl(x, k - m)
            } else {
                let rev = x.reverse_bits() >> (32 - k);
                rotl(rev, m - k + 1)
            }
        };
        let secondary = |m: usize| {
            let mut bits = 0u32;
            let mut at = 0;
            for i in 0..k {
                let p = old(m, i);
                let sides = (1u32 << ((p + 1) % k)) | (1u32 << ((p + k - 1) % k));
                let diag = relabel(m, self.nbr[p] & !sides);
                let green = relabel(m, self.green[p]);
                let mut above = diag & !((2u32 << i) - 1);
                while above != 0 {
                    let j = above.trailing_zeros();
                    above &= above - 1;
                    bits |= (green >> j & 1) << at;
                    at += 1;
                }
            }
            bits
        };
        let mut best = (u128::MAX, u32::MAX);
        let primaries: Vec<u128> = (0..2 * k).map(primary).collect();
        let least = *primaries.iter().min().expect("2k maps");
        for (m, &x) in primaries.iter().enumerate() {
            if x == least {
                best = best.min((x, secondary(m)));
            }
        }
        best
    }
}

/// The exact solver over reduced positions, with one memo for every instance it is asked.
#[derive(Default)]
pub struct MftSolver {
    memo: FxHashMap<(u128, u32), i8>,
    /// Positions solved (memo entries made).
    pub nodes: u64,
    /// Give up once past this instant (benchmarks): values are then meaningless, `aborted` is
    /// set, and the solver must be dropped.
    pub deadline: Option<std::time::Instant>,
    /// Give up (setting `aborted`) once the memo holds more positions than this.
    pub max_positions: Option<usize>,
    pub aborted: bool,
}

/// Bytes per reduced position at worst (a 20-byte key and a value in a hash table at its
/// lowest load, and the strategies' share): measured at about 80 at 21 vertices, tripled.
pub const BYTES_PER_POSITION: u64 = 256;

/// The reduced positions `solve` lets the solver memoise: the 8 GiB allowance of
/// [`crate::base::limits`] at [`BYTES_PER_POSITION`] each, about 33.5 million.
pub fn position_cap() -> usize {
    (crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_POSITION) as usize
}

impl MftSolver {
    pub fn new() -> MftSolver {
        MftSolver::default()
    }

    /// Distinct reduced positions in the memo.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The value to the player to move at a reduced position: +1 win, 0 tie, -1 loss.
    pub fn value(&mut self, pos: &Poly) -> i8 {
        let key = pos.key();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096)
            && self.deadline.is_some_and(|d| std::time::Instant::now() > d)
        {
            self.aborted = true;
        }
        if self.max_positions.is_some_and(|cap| self.memo.len() > cap) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let moves = pos.moves();
        let mut children = Vec::with_capacity(moves.len());
        let mut v = if moves.is_empty() { 0 } else { -1 };
        for &mv in &moves {
            // Look for a green triangle first: it needs no search.
            match pos.after(mv) {
                None => {
                    v = 1;
                    break;
                }
                Some(next) => children.push(next),
            }
        }
        if v < 1 {
            for next in &children {
                v = v.max(-self.value(next));
                if v == 1 {
                    break;
                }
            }
        }
        self.memo.insert(key, v);
        v
    }

    /// The value of one move at a reduced position, to the player making it.
    pub fn move_value(&mut self, pos: &Poly, mv: (usize, usize)) -> i8 {
        pos.after(mv).map_or(1, |next| -self.value(&next))
    }

    /// An optimal move at a reduced position with a move.
    pub fn best(&mut self, pos: &Poly) -> Option<(usize, usize)> {
        let target = self.value(pos);
        pos.moves().into_iter().find(|&mv| self.move_value(pos, mv) == target)
    }

    /// The first player's value of MFT on a triangulation of the convex n-gon.
    pub fn solve(&mut self, n: usize, triangles: &[[usize; 3]]) -> Result<i8, String> {
        Ok(self.value(&Poly::new(n, triangles)?))
    }

    /// The `flip-value` certificate of an MFT instance on an abstract convex polygon: both
    /// strategies come from this solver's values, played on the checker's boards.
    pub fn certificate(&mut self, spec: &FlipSpec) -> Result<FlipValue, String> {
        let Some(n) = spec.convex_polygon else {
            return Err("the reduced MFT solver needs `convex_polygon`".into());
        };
        if spec.game != FlipGame::FlippingToTriangle {
            return Err(format!(
                "{}: the reduced solver plays only MFT",
                crate::base::token(&spec.game)
            ));
        }
        if n > MAX_VERTICES {
            return Err(format!(
                "{n} vertices: the reduced MFT solver takes at most {MAX_VERTICES}"
            ));
        }
        let (shape, start) = setup(spec, &mut Budget::new(u64::MAX))?;
        let value = i64::from(self.solve(n, &spec.triangles)?);
        if self.aborted {
            return Ok(FlipValue { value, first: None, second: None });
        }
        let mut side = |first: bool| {
            crate::triangulations::flipping::strategy_from(
                spec.game,
                &shape,
                &start,
                first,
                &mut |b: &Board, _first_to_move: bool| {
                    let pos = Poly::from_board(n, b).expect("a board of the instance");
                    // An aborted search (its answer discarded) may miss the best move.
                    let mv = self.best(&pos).unwrap_or_else(|| {
                        assert!(self.aborted, "a position with a move has a best move");
                        pos.moves()[0]
                    });
                    pos.original(mv)
                },
            )
        };
        Ok(FlipValue {
            value,
            first: (value > -1).then(|| side(true)),
            second: (value < 1).then(|| side(false)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangulations::flipping::{all_convex, Solver};
    use crate::triangulations::serpentine::{all_serpentine, mft};
    use gamecert_certificates::triangulations::flipping::check_flip_value;
    use std::collections::HashSet;

    /// The degree sequence determines the triangulation: distinct triangulations of the
    /// n-gon have distinct keys (n <= 10, all Catalan(n - 2) of them, as labelled objects:
    /// keys differ unless a rotation or reflection maps one onto the other).
    #[test]
    fn keys_separate_triangulations_up_to_symmetry() {
        for n in 4..=10 {
            let all = all_convex(n);
            let keys: HashSet<_> = all.iter().map(|t| Poly::new(n, t).unwrap().key()).collect();
            // Up to symmetry: the classes of the canonical triangle lists.
            let classes: HashSet<Vec<[usize; 3]>> =
                all.iter().map(|t| crate::triangulations::serpentine::canonical(n, t)).collect();
            assert_eq!(keys.len(), classes.len(), "n = {n}");
        }
    }

    /// Triangles that are not a triangulation of the polygon are refused with the reason, not
    /// played (a flip relies on each diagonal having two apexes).
    #[test]
    fn bad_triangulations_are_refused() {
        let err = Poly::new(6, &[[0, 1, 3], [1, 2, 4], [0, 3, 5], [2, 3, 4]]).unwrap_err();
        assert!(err.contains("edges") || err.contains("cross"), "{err}");
        // Sides 0-1 missing: the right number of edges, but not a polygon's triangulation.
        let err = Poly::new(5, &[[0, 2, 3], [0, 3, 4], [1, 2, 4]]).unwrap_err();
        assert!(err.contains("side 0-1 is missing") || err.contains("edges"), "{err}");
        let err = Poly::new(22, &[]).unwrap_err();
        assert!(err.contains("3 to 21"), "{err}");
        let edges =
            [([0, 1], false), ([1, 2], false), ([2, 3], false), ([3, 0], false), ([0, 2], false)];
        assert!(Poly::from_edges(4, &edges).is_ok());
        let crossing = [
            ([0, 1], false),
            ([1, 2], false),
            ([2, 3], false),
            ([3, 4], false),
            ([4, 0], false),
            ([0, 2], false),
            ([1, 3], false),
        ];
        let err = Poly::from_edges(5, &crossing).unwrap_err();
        assert_eq!(err, "the diagonals 0-2 and 1-3 cross");
    }

    /// Keys are invariant under relabelling the polygon, with colours.
    #[test]
    fn keys_are_invariant_under_symmetry() {
        let n = 9;
        for t in all_convex(n).into_iter().step_by(37) {
            let mut p = Poly::new(n, &t).unwrap();
            let moves = p.moves();
            p.flip(moves[moves.len() / 2]);
            let key = p.key();
            for g in 0..2 * n {
                let map = |v: usize| if g < n { (v + g) % n } else { (g - v) % n };
                let mut edges = Vec::new();
                for a in 0..n {
                    for b in a + 1..n {
                        if p.nbr[a] >> b & 1 == 1 {
                            edges.push(([map(a), map(b)], p.green[a] >> b & 1 == 1));
                        }
                    }
                }
                assert_eq!(Poly::from_edges(n, &edges).unwrap().key(), key, "map {g}");
            }
        }
    }

    /// The reduced solver agrees with the general solver on every triangulation of the convex
    /// n-gon for n <= 9 (624), and on every serpentine one (up to symmetry) for n <= 13.
    #[test]
    fn agrees_with_the_general_solver() {
        let mut fast = MftSolver::new();
        let mut checked = 0;
        for n in 4..=13 {
            let instances = if n <= 9 { all_convex(n) } else { all_serpentine(n) };
            for t in instances {
                let v = fast.solve(n, &t).unwrap();
                let spec = mft(n, t);
                let exact = Solver::new(&spec).unwrap().solve();
                assert_eq!(i64::from(v), exact, "n = {n}: {:?}", spec.triangles);
                checked += 1;
            }
        }
        let serpentine: usize = (10..=13).map(|n| all_serpentine(n).len()).sum();
        assert_eq!(checked, 624 + serpentine);
    }

    /// Its certificates are accepted by the checker, and a wrong value is rejected.
    #[test]
    fn certificates_replay() {
        let mut fast = MftSolver::new();
        for n in [8, 10, 13] {
            for t in all_serpentine(n).into_iter().step_by(5) {
                let spec = mft(n, t);
                let cert = fast.certificate(&spec).unwrap();
                check_flip_value(
                    &spec,
                    &cert,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
                let mut wrong = cert.clone();
                wrong.value = if cert.value == 1 { 0 } else { cert.value + 1 };
                assert!(check_flip_value(
                    &spec,
                    &wrong,
                    &mut gamecert_certificates::base::budget::Budget::unlimited()
                )
                .is_err());
            }
        }
    }
}

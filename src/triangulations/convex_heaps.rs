//! Theorems 1 and 2 of seed 000 as playing strategies that scale: the Triangulation Coloring
//! Game on a simple-branching triangulation of points in convex position played as Kayles, and
//! Monochromatic Triangle on points in convex position played as Dawson's Kayles; each finds a
//! winning move from any position in time linear in the board, and writes the
//! `marking-kayles` certificate of the start position
//! ([`gamecert_certificates::triangulations::convex_heaps`]).
//!
//! How a position becomes heaps (the paper's argument, Section 5.1 and 5.2):
//! - Coloring: a triangle with one green edge is *taken*; colouring a second edge of it hands
//!   the opponent the triangle. So if some triangle has two green edges the player to move
//!   completes it and wins; otherwise the untaken triangles that are not inner form paths in
//!   the dual (the arrays), and a safe move takes one of them (a hull edge) or two neighbours
//!   (their diagonal): Kayles on the arrays' lengths, where the last safe move wins.
//! - Monochromatic Triangle: a point with two segments lets the opponent close a triangle (two
//!   angularly consecutive segments at a point can always be closed in convex position). So
//!   while the segments form a matching, the free points fall into faces of the non-crossing
//!   chords (grouped by the innermost chord around them, in hull order), a safe segment joins
//!   two free points of one face and splits it: Dawson's Kayles on the faces' sizes.
//!
//! Grundy values come from the plain mex up to a few hundred heaps plus the period the
//! sequence settles into (Kayles: 12 from heap 71, Dawson's Kayles: 34 from heap 53), which
//! [`GrundyTable::new`] confirms with the Guy-Smith bound before using it; the certificate
//! carries the labels and the period and the checker verifies both.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::impartial::heaps::{Period, Rules};
use gamecert_certificates::triangulations::convex_heaps::MarkingKayles;
use gamecert_certificates::triangulations::geometry::Triangulation;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use std::collections::HashMap;

/// Which heap game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapGame {
    /// Kayles, `0.77`: take 1 or 2 adjacent, possibly splitting.
    Kayles,
    /// Dawson's Kayles, `0.07`: take 2, possibly splitting.
    Dawson,
}

impl HeapGame {
    fn code(self) -> &'static str {
        match self {
            HeapGame::Kayles => "0.77",
            HeapGame::Dawson => "0.07",
        }
    }
    fn takes(self) -> &'static [usize] {
        match self {
            HeapGame::Kayles => &[1, 2],
            HeapGame::Dawson => &[2],
        }
    }
}

/// Grundy values of one heap game, for heaps of any size.
pub struct GrundyTable {
    game: HeapGame,
    values: Vec<u32>,
    from: usize,
    length: usize,
}

/// Heaps computed by the plain mex before the period takes over.
const MEX_HEAPS: usize = 600;

impl GrundyTable {
    pub fn new(game: HeapGame) -> GrundyTable {
        let rules = Rules::parse(game.code()).expect("a valid code");
        let values = crate::impartial::octal::plain(&rules, MEX_HEAPS);
        let p = crate::impartial::octal::periodicity(&rules, &values)
            .filter(|p| p.proven && p.saltus == 0)
            .expect("Kayles and Dawson's Kayles are periodic well within 600 heaps");
        GrundyTable { game, values, from: p.preperiod, length: p.period }
    }

    pub fn value(&self, n: usize) -> u32 {
        if n < self.values.len() {
            self.values[n]
        } else {
            self.values[self.from + (n - self.from) % self.length]
        }
    }

    /// A move in one heap of `n` to the value `target`: (tokens taken, tokens left before
    /// them); the rest of the heap is left after them.
    pub fn move_to(&self, n: usize, target: u32) -> Option<(usize, usize)> {
        self.game.takes().iter().find_map(|&take| {
            (0..=n.checked_sub(take)?)
                .find(|&before| self.value(before) ^ self.value(n - take - before) == target)
                .map(|before| (take, before))
        })
    }

    /// The labels and period a certificate carries: up to the heap the Guy-Smith bound needs.
    pub fn certificate_labels(&self) -> (Vec<u64>, Period) {
        let t = 2; // both games take at most 2
        let needed = 2 * self.from + 2 * self.length + t;
        (
            (0..needed).map(|n| self.value(n) as u64).collect(),
            Period { from: self.from as u64, length: self.length as u64 },
        )
    }
}

/// What a strategy found at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advice {
    /// This edge completes a triangle: the mover wins now.
    Completes([usize; 2]),
    /// This edge leaves heaps of value 0: the mover wins with best play.
    Wins([usize; 2]),
    /// The heaps have value 0: every move loses against best play; this one keeps the game
    /// going longest that the strategy knows of (a safe move if there is one).
    Loses(Option<[usize; 2]>),
}

impl Advice {
    pub fn edge(&self) -> Option<[usize; 2]> {
        match *self {
            Advice::Completes(e) | Advice::Wins(e) => Some(e),
            Advice::Loses(e) => e,
        }
    }
}

/// Picks a heap move to value 0 over `heaps` (sizes), or reports the total is 0.
fn heap_move(table: &GrundyTable, heaps: &[usize]) -> Option<(usize, usize, usize)> {
    let total = heaps.iter().fold(0, |x, &h| x ^ table.value(h));
    if total == 0 {
        return None;
    }
    heaps.iter().enumerate().find_map(|(i, &h)| {
        let target = table.value(h) ^ total;
        table.move_to(h, target).map(|(take, before)| (i, take, before))
    })
}

/// The Triangulation Coloring Game on a simple-branching convex triangulation (Theorem 1).
pub struct ColoringBoard {
    pub edges: Vec<[usize; 2]>,
    edge_index: HashMap<[usize; 2], usize>,
    /// Each triangle's three edges (indices).
    triangle_edges: Vec<[usize; 3]>,
    /// For each edge, its one or two triangles.
    edge_triangles: Vec<Vec<usize>>,
    inner: Vec<bool>,
    /// A hull edge of each non-inner triangle.
    hull_edge: Vec<Option<usize>>,
}

impl ColoringBoard {
    /// The board of a validated triangulation; an error if Theorem 1 does not apply.
    pub fn new(t: &Triangulation) -> Result<ColoringBoard, String> {
        if !t.is_convex() {
            return Err("Theorem 1 needs points in convex position".into());
        }
        let edge_index: HashMap<[usize; 2], usize> =
            t.edges.iter().enumerate().map(|(k, &e)| (e, k)).collect();
        let mut edge_triangles = vec![Vec::new(); t.edges.len()];
        let mut triangle_edges = Vec::with_capacity(t.triangles.len());
        let mut hull_edge = Vec::with_capacity(t.triangles.len());
        for (k, tri) in t.triangles.iter().enumerate() {
            let ids = [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])]
                .map(|(a, b)| edge_index[&[a.min(b), a.max(b)]]);
            for &e in &ids {
                edge_triangles[e].push(k);
            }
            hull_edge.push(ids.iter().copied().find(|&e| t.is_hull_edge(t.edges[e])));
            triangle_edges.push(ids);
        }
        let inner: Vec<bool> = hull_edge.iter().map(Option::is_none).collect();
        if let Some(e) = (0..t.edges.len())
            .find(|&e| edge_triangles[e].len() == 2 && edge_triangles[e].iter().all(|&k| inner[k]))
        {
            return Err(format!(
                "Theorem 1 needs a simple-branching triangulation; two inner triangles share the \
                 edge {:?}",
                t.edges[e]
            ));
        }
        Ok(ColoringBoard {
            edges: t.edges.clone(),
            edge_index,
            triangle_edges,
            edge_triangles,
            inner,
            hull_edge,
        })
    }

    pub fn edge(&self, e: [usize; 2]) -> Option<usize> {
        self.edge_index.get(&[e[0].min(e[1]), e[0].max(e[1])]).copied()
    }

    /// The arrays of untaken non-inner triangles at `green`, each in path order.
    fn arrays(&self, taken: &[bool]) -> Vec<Vec<usize>> {
        let free = |k: usize| !self.inner[k] && !taken[k];
        let neighbours = |k: usize| {
            self.triangle_edges[k]
                .iter()
                .flat_map(|&e| self.edge_triangles[e].iter().copied())
                .filter(move |&j| j != k && free(j))
        };
        let mut seen = vec![false; self.inner.len()];
        let mut arrays = Vec::new();
        for start in 0..self.inner.len() {
            if !free(start) || seen[start] || neighbours(start).count() > 1 {
                continue;
            }
            let mut path = vec![start];
            seen[start] = true;
            while let Some(next) = neighbours(*path.last().unwrap()).find(|&j| !seen[j]) {
                seen[next] = true;
                path.push(next);
            }
            arrays.push(path);
        }
        arrays
    }

    /// The strategy's advice at `green` (one flag per edge), the mover to play.
    pub fn advise(&self, green: &[bool], table: &GrundyTable) -> Advice {
        let mut taken = vec![false; self.inner.len()];
        for (k, ids) in self.triangle_edges.iter().enumerate() {
            let count = ids.iter().filter(|&&e| green[e]).count();
            if count == 2 {
                let e = ids.iter().copied().find(|&e| !green[e]).expect("a black edge");
                return Advice::Completes(self.edges[e]);
            }
            taken[k] = count > 0;
        }
        let arrays = self.arrays(&taken);
        let sizes: Vec<usize> = arrays.iter().map(Vec::len).collect();
        let take = |array: &[usize], take: usize, before: usize| {
            let k = array[before];
            if take == 1 {
                self.hull_edge[k].expect("array triangles have a hull edge")
            } else {
                let j = array[before + 1];
                self.triangle_edges[k]
                    .iter()
                    .copied()
                    .find(|e| self.edge_triangles[*e].contains(&j))
                    .expect("neighbours in an array share a diagonal")
            }
        };
        match heap_move(table, &sizes) {
            Some((i, k, before)) => Advice::Wins(self.edges[take(&arrays[i], k, before)]),
            None => Advice::Loses(match arrays.iter().max_by_key(|a| a.len()) {
                Some(a) => Some(self.edges[take(a, 1, 0)]),
                None => (0..self.edges.len()).find(|&e| !green[e]).map(|e| self.edges[e]),
            }),
        }
    }

    /// Whether colouring `e` at `green` is safe: none of its triangles has a green edge yet.
    pub fn is_safe(&self, green: &[bool], e: usize) -> bool {
        !green[e]
            && self.edge_triangles[e]
                .iter()
                .all(|&k| self.triangle_edges[k].iter().all(|&f| !green[f]))
    }

    /// Colours `e` at `green`; whether it completed a triangle.
    pub fn colour(&self, green: &mut [bool], e: usize) -> bool {
        green[e] = true;
        self.edge_triangles[e].iter().any(|&k| self.triangle_edges[k].iter().all(|&f| green[f]))
    }
}

/// Monochromatic Triangle on points in convex position (Theorem 2): positions are the drawn
/// segments, points named by their place on the hull (0..n in counter-clockwise order).
pub struct TriangleBoard {
    pub n: usize,
    /// Neighbours of each hull place.
    adjacent: Vec<Vec<usize>>,
}

impl TriangleBoard {
    pub fn new(n: usize) -> TriangleBoard {
        TriangleBoard { n, adjacent: vec![Vec::new(); n] }
    }

    fn drawn(&self, a: usize, b: usize) -> bool {
        self.adjacent[a].contains(&b)
    }

    /// Whether segment a-b crosses a drawn segment (chords of a convex polygon cross iff their
    /// endpoints interleave). Linear in the drawn segments.
    pub fn crosses(&self, a: usize, b: usize) -> bool {
        let (a, b) = (a.min(b), a.max(b));
        let inside = |x: usize| a < x && x < b;
        (0..self.n).any(|x| {
            self.adjacent[x]
                .iter()
                .any(|&y| x < y && x != a && x != b && y != a && y != b && inside(x) != inside(y))
        })
    }

    /// Draws a-b (legal: not drawn, crossing nothing); whether it completed a triangle.
    pub fn draw(&mut self, a: usize, b: usize) -> bool {
        let closes = self.adjacent[a].iter().any(|c| self.adjacent[b].contains(c));
        self.adjacent[a].push(b);
        self.adjacent[b].push(a);
        closes
    }

    /// While the segments form a matching: the free points grouped by the innermost chord
    /// around them (the faces of the chords), each in hull order.
    pub fn faces(&self) -> Vec<Vec<usize>> {
        let mut faces: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
        let mut open: Vec<usize> = Vec::new();
        for x in 0..self.n {
            match self.adjacent[x].first() {
                Some(&y) if y > x => open.push(x),
                Some(_) => {
                    open.pop();
                }
                None => faces.entry(open.last().copied()).or_default().push(x),
            }
        }
        let mut faces: Vec<Vec<usize>> = faces.into_values().collect();
        faces.sort();
        faces
    }

    /// The strategy's advice, the mover to play.
    pub fn advise(&self, table: &GrundyTable) -> Advice {
        let n = self.n;
        // A point with two segments: close two angularly consecutive ones.
        for p in 0..n {
            if self.adjacent[p].len() >= 2 {
                let mut around: Vec<usize> = self.adjacent[p].clone();
                around.sort_by_key(|&q| (q + n - p) % n);
                let (q, r) = (around[0], around[1]);
                debug_assert!(!self.drawn(q, r) && !self.crosses(q, r));
                return Advice::Completes([q.min(r), q.max(r)]);
            }
        }
        let faces = self.faces();
        let sizes: Vec<usize> = faces.iter().map(Vec::len).collect();
        match heap_move(table, &sizes) {
            Some((i, _, before)) => {
                let f = &faces[i];
                Advice::Wins([f[0], f[before + 1]])
            }
            None => Advice::Loses(match faces.iter().find(|f| f.len() >= 2) {
                Some(f) => Some([f[0], f[1]]),
                None => (0..n)
                    .map(|x| [x.min((x + 1) % n), x.max((x + 1) % n)])
                    .find(|e| !self.drawn(e[0], e[1])),
            }),
        }
    }
}

/// The `marking-kayles` certificate of a `marking-game` instance's start, when Theorem 1 or 2
/// applies; an error saying why not otherwise.
pub fn certificate(spec: &MarkingSpec) -> Result<MarkingKayles, String> {
    let (game, edge) = match spec.game {
        MarkingGame::Coloring => {
            let board =
                ColoringBoard::new(&spec.triangulation.validate(&mut Budget::new(u64::MAX))?)?;
            let table = GrundyTable::new(HeapGame::Kayles);
            let advice = board.advise(&vec![false; board.edges.len()], &table);
            (HeapGame::Kayles, advice)
        }
        MarkingGame::MonochromaticTriangle => {
            let points = &spec.triangulation.points;
            let (hull, convex) =
                gamecert_certificates::triangulations::geometry::check_points_hull(
                    points,
                    &mut Budget::new(u64::MAX),
                )?;
            if !convex {
                return Err("Theorem 2 needs points in convex position".into());
            }
            let table = GrundyTable::new(HeapGame::Dawson);
            let advice = TriangleBoard::new(points.len()).advise(&table);
            let name = |e: [usize; 2]| [hull[e[0]], hull[e[1]]];
            let advice = match advice {
                Advice::Wins(e) => Advice::Wins(name(e)),
                other => other,
            };
            (HeapGame::Dawson, advice)
        }
        other => {
            return Err(format!(
                "no heap reduction for {}: Theorem 1 covers the coloring game, Theorem 2 \
                 Monochromatic Triangle",
                crate::base::token(&other)
            ))
        }
    };
    let (values, period) = GrundyTable::new(game).certificate_labels();
    let (winner, edge) = match edge {
        Advice::Wins(e) => ("first", Some(e)),
        Advice::Loses(_) => ("second", None),
        Advice::Completes(_) => unreachable!("nothing is coloured at the start"),
    };
    Ok(MarkingKayles { winner: winner.into(), edge, values, period: Some(period) })
}

/// A simple-branching triangulation of the convex polygon 0..n (vertices in order), drawn
/// directly for any n: each triangle on a base picks a random apex, except that a triangle
/// under an inner triangle is forced to be an ear of its sub-polygon (apex next to an end of
/// its base), so no two inner triangles share an edge. `inner_percent` biases towards inner
/// triangles (0: a serpentine-like strip, 100: as many as allowed).
pub fn simple_branching_triangles(n: usize, inner_percent: u64, seed: u64) -> Vec<[usize; 3]> {
    let mut rng = crate::base::rng::Rng::new(seed);
    let mut out = Vec::with_capacity(n.saturating_sub(2));
    // (a, b, whether the triangle on the other side of a-b is inner)
    let mut stack = vec![(0usize, n - 1, false)];
    while let Some((a, b, below_inner)) = stack.pop() {
        if b - a < 2 {
            continue;
        }
        let base_is_side = b - a == 1 || (a == 0 && b == n - 1);
        let can_be_inner = !below_inner && !base_is_side && b - a >= 4;
        let apex = if can_be_inner && rng.below(100) < inner_percent {
            rng.range(a as u64 + 2, b as u64 - 2) as usize
        } else if rng.below(2) == 0 {
            a + 1
        } else {
            b - 1
        };
        let inner = apex - a >= 2 && b - apex >= 2 && !base_is_side;
        out.push([a, apex, b]);
        stack.push((a, apex, inner));
        stack.push((apex, b, inner));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    // Whether the mover wins at a position under the checker's rules: the exact marking solver.
    use crate::triangulations::generate::{generate, parabola, Kind};
    use crate::triangulations::marking::wins as exact;
    use gamecert_certificates::check::{check, Limits};
    use gamecert_certificates::format::{Certificate, Instance};
    use gamecert_certificates::triangulations::geometry::TriangulationSpec;
    use gamecert_certificates::triangulations::marking::{Outcome, Rules as MarkingRules};

    #[test]
    fn the_tables_match_the_papers_tables_2_and_3() {
        let kayles = GrundyTable::new(HeapGame::Kayles);
        assert_eq!((kayles.from, kayles.length), (71, 12));
        let k = [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7];
        for n in [71, 100, 1_000, 99_999, 1_000_000] {
            assert_eq!(kayles.value(n), k[n % 12], "{n}");
        }
        let dawson = GrundyTable::new(HeapGame::Dawson);
        assert_eq!(dawson.length, 34);
        assert_eq!(dawson.value(15), 0);
        assert_eq!(dawson.value(35), 0);
        assert_eq!(dawson.value(52), 2);
        assert_eq!(dawson.value(1_000_000 + 53), dawson.value(53 + 1_000_000 % 34));
    }

    /// Every simple-branching triangulation of the convex polygons with 4 to 9 points, every
    /// position reachable without handing over a triangle: the strategy's verdict equals the
    /// exact solver's, and each move it calls winning is one.
    #[test]
    fn the_kayles_strategy_matches_the_exact_solver_on_every_reachable_position() {
        let table = GrundyTable::new(HeapGame::Kayles);
        let (mut positions, mut boards) = (0, 0);
        for n in 4..=9 {
            for (index, triangles) in
                crate::triangulations::flipping::all_convex(n).into_iter().enumerate()
            {
                let spec = TriangulationSpec { points: parabola(n), triangles, edges: vec![] };
                let t = spec.validate(&mut Budget::new(u64::MAX)).unwrap();
                let Ok(board) = ColoringBoard::new(&t) else {
                    continue;
                };
                boards += 1;
                let rules =
                    MarkingRules::new(MarkingGame::Coloring, &t, &mut Budget::new(u64::MAX))
                        .unwrap();
                let mut memo = HashMap::new();
                let mut stack = vec![0u64];
                let mut seen = std::collections::HashSet::new();
                while let Some(green) = stack.pop() {
                    if !seen.insert(green) {
                        continue;
                    }
                    positions += 1;
                    let flags: Vec<bool> =
                        (0..t.edges.len()).map(|e| green >> e & 1 == 1).collect();
                    let advice = board.advise(&flags, &table);
                    let wins = exact(&rules, green, &mut memo);
                    let edge = advice.edge().map(|e| board.edge(e).unwrap());
                    match advice {
                        Advice::Completes(_) => {
                            assert_eq!(rules.colour(green, edge.unwrap()), Outcome::MoverWins)
                        }
                        Advice::Wins(_) => {
                            let e = edge.unwrap();
                            assert!(wins, "n={n} board {index} green={green:x}");
                            assert_eq!(rules.colour(green, e), Outcome::Continue(false));
                            assert!(!exact(&rules, green | 1 << e, &mut memo));
                        }
                        Advice::Loses(_) => assert!(!wins, "n={n} board {index} green={green:x}"),
                    }
                    for e in rules.legal(green) {
                        if rules.colour(green, e) == Outcome::Continue(false) {
                            stack.push(green | 1 << e);
                        }
                    }
                }
            }
        }
        // Catalan numbers 2, 5, 14, 42, 132, 429 for n = 4..9, less those with two inner
        // triangles sharing an edge: 584 boards, 6,185,589 positions (about 5 s).
        assert!(boards > 400 && positions > 100_000, "{boards} {positions}");
    }

    /// Monochromatic Triangle on 3..=10 points in convex position: at every reachable position
    /// the strategy agrees with the exact solver (the checker's constructing-game rules).
    #[test]
    fn the_dawson_strategy_matches_the_exact_solver_on_every_reachable_position() {
        let table = GrundyTable::new(HeapGame::Dawson);
        let mut positions = 0;
        for n in 3..=9usize {
            let points = parabola(n);
            let spec = MarkingSpec {
                game: MarkingGame::MonochromaticTriangle,
                triangulation: TriangulationSpec { points, triangles: vec![], edges: vec![] },
            };
            let rules = MarkingRules::from_spec(&spec, &mut Budget::new(u64::MAX)).unwrap();
            // Points (i, i^2) are already in hull order; pair k is the k-th (i < j).
            let pairs: Vec<[usize; 2]> =
                (0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b])).collect();
            let mut memo = HashMap::new();
            let mut stack = vec![0u64];
            let mut seen = std::collections::HashSet::new();
            while let Some(drawn) = stack.pop() {
                if !seen.insert(drawn) || rules.legal(drawn).is_empty() {
                    continue;
                }
                positions += 1;
                let mut board = TriangleBoard::new(n);
                for (k, e) in pairs.iter().enumerate() {
                    if drawn >> k & 1 == 1 {
                        board.draw(e[0], e[1]);
                    }
                }
                let advice = board.advise(&table);
                let wins = exact(&rules, drawn, &mut memo);
                let index = |e: [usize; 2]| pairs.iter().position(|&p| p == e).unwrap();
                match advice {
                    Advice::Completes(e) => {
                        assert_eq!(rules.colour(drawn, index(e)), Outcome::MoverWins, "{drawn:x}")
                    }
                    Advice::Wins(e) => {
                        assert!(wins, "n={n} drawn={drawn:x}");
                        assert!(rules.legal(drawn).contains(&index(e)));
                        assert!(!exact(&rules, drawn | 1 << index(e), &mut memo));
                    }
                    Advice::Loses(_) => assert!(!wins, "n={n} drawn={drawn:x}"),
                }
                for e in rules.legal(drawn) {
                    if rules.colour(drawn, e) == Outcome::Continue(false) {
                        stack.push(drawn | 1 << e);
                    }
                }
            }
        }
        assert!(positions > 5_000, "{positions}");
    }

    fn accepted(spec: MarkingSpec) -> gamecert_certificates::check::Verdict {
        let cert = certificate(&spec).unwrap();
        check(&Instance::MarkingGame(spec), &Certificate::MarkingKayles(cert), &Limits::default())
    }

    /// Large instances: a serpentine strip of 100,001 points (one heap of 99,999), a random
    /// simple-branching triangulation of 20,000 points, and Monochromatic Triangle on 5,000
    /// points; the checker accepts each certificate, naming the periodicity theorem where a
    /// heap is beyond the labels.
    #[test]
    fn large_certificates_are_accepted() {
        let serpentine = MarkingSpec {
            game: MarkingGame::Coloring,
            triangulation: generate(Kind::Serpentine, 100_001, 0, 1).unwrap(),
        };
        let v = accepted(serpentine);
        assert!(v.accepted(), "{}", v.reason);
        assert_eq!(v.claim, "the first player wins Coloring");
        assert!(v.trusted.iter().any(|t| t.contains("periodicity")));
        let branching = MarkingSpec {
            game: MarkingGame::Coloring,
            triangulation: TriangulationSpec {
                points: parabola(20_000),
                triangles: simple_branching_triangles(20_000, 60, 3),
                edges: vec![],
            },
        };
        let v = accepted(branching);
        assert!(v.accepted(), "{}", v.reason);
        let triangle = MarkingSpec {
            game: MarkingGame::MonochromaticTriangle,
            triangulation: TriangulationSpec {
                points: parabola(5_000),
                triangles: vec![],
                edges: vec![],
            },
        };
        let v = accepted(triangle);
        assert!(v.accepted(), "{}", v.reason);
    }

    /// Theorem 2's list: second-player wins exactly for n = 5, 9, 21, 25, 29 (mod 34) and
    /// n = 15, 35, checked by certificates for every n from 3 to 300.
    #[test]
    fn theorem_2_second_player_wins_are_the_papers() {
        for n in 3..=300usize {
            let spec = MarkingSpec {
                game: MarkingGame::MonochromaticTriangle,
                triangulation: TriangulationSpec {
                    points: parabola(n),
                    triangles: vec![],
                    edges: vec![],
                },
            };
            let cert = certificate(&spec).unwrap();
            let paper_second = [5, 9, 21, 25, 29].contains(&(n % 34)) || n == 15 || n == 35;
            assert_eq!(cert.winner == "second", paper_second, "n = {n}");
            let v = check(
                &Instance::MarkingGame(spec),
                &Certificate::MarkingKayles(cert),
                &Limits::default(),
            );
            assert!(v.accepted(), "n = {n}: {}", v.reason);
        }
    }

    #[test]
    fn the_direct_generator_is_simple_branching_at_every_bias() {
        for (n, bias) in [(7, 100), (30, 100), (200, 50), (1000, 0), (1000, 100)] {
            let spec = TriangulationSpec {
                points: parabola(n),
                triangles: simple_branching_triangles(n, bias, 9),
                edges: vec![],
            };
            let t = spec.validate(&mut Budget::new(u64::MAX)).unwrap();
            assert!(ColoringBoard::new(&t).is_ok(), "n = {n}, bias {bias}");
            if bias == 100 && n >= 30 {
                assert!(!t.inner_triangles().is_empty());
            }
        }
    }
}

//! The solitaire flipping games of seed 000 (2.2.4 All-Green, 2.2.5 Green-Wins): Theorem 11's
//! dynamic programme, Theorem 13's strategy, Theorem 12's independent flips, the family S(t),
//! and exhaustive searches to test them. Every answer is a `flip-sequence` the checker replays.
//!
//! The fact everything here rests on (the *independence lemma*, proved here, tested against
//! the state-space search): only black edges flip and every new edge is green, so only edges
//! of the initial triangulation are ever flipped. If e is flipped, every edge of its two
//! triangles turns green, so no two flipped edges share an initial triangle; hence no flip
//! touches another flipped edge's quadrilateral, the flips commute, each is legal iff it is in
//! the initial triangulation, and the green edges at the end are the flipped edges' new
//! diagonals plus the edges of the flipped edges' initial triangles. So the best play is a set
//! F of flippable initial edges, no two in one triangle, maximising |F| + |edges of triangles
//! touching F, minus F|.
//!
//! Theorem 11 ([`all_green_dp`]): the paper's recursion adds 5 per flip, which counts twice an
//! edge lying on two flipped edges' quadrilaterals (the recursion is [`paper_recursion`]; its
//! values are compared with exhaustive search in the tests). Ours is a linear DP on the dual
//! tree with three states per edge g between a triangle T and its parent: g flipped; g not
//! flipped and T *hot* (T holds a flipped edge); g not flipped and T cold. An unflipped edge is
//! green iff one of its triangles is hot.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flipping::{
    setup, Board, FlipGame, FlipSequence, FlipSpec, Shape,
};
use std::collections::HashMap;

const NEG: i64 = i64::MIN / 4;

/// (n, triangles on 0..n, polygon vertex -> point index).
pub type ConvexPolygon = (usize, Vec<[usize; 3]>, Vec<usize>);

/// The convex polygon of an instance in convex position: (n, triangles on 0..n in
/// counter-clockwise order, the map from polygon vertex to point index). `None` otherwise.
pub fn as_convex(spec: &FlipSpec) -> Result<Option<ConvexPolygon>, String> {
    let (shape, board) = setup(spec, &mut Budget::new(u64::MAX))?;
    match &shape {
        Shape::Convex(n) => Ok(Some((*n, spec.triangles.clone(), (0..*n).collect()))),
        Shape::Points(p) => {
            let hull = gamecert_certificates::triangulations::geometry::convex_hull(p);
            if hull.len() != p.len() {
                return Ok(None);
            }
            let mut at = vec![0; p.len()];
            for (k, &v) in hull.iter().enumerate() {
                at[v] = k;
            }
            Ok(Some((p.len(), triangles_of(&board, &at), hull)))
        }
    }
}

/// The triangles of a board (each found once, from its two smallest vertices), renumbered by
/// `at`.
pub fn triangles_of(board: &Board, at: &[usize]) -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for (k, s) in &board.edges {
        for c in s.apex {
            if c != u32::MAX && c > k[1] {
                out.push([at[k[0] as usize], at[k[1] as usize], at[c as usize]]);
            }
        }
    }
    out
}

/// The dual tree of a convex triangulation rooted at the triangle on side (0, 1): triangles in
/// pre-order, with each triangle's parent edge and child edges, and for each child edge the
/// triangle beyond it (`None` for a polygon side).
struct Dual {
    order: Vec<usize>,
    tri: Vec<[usize; 3]>,
    /// (child edge, triangle beyond or u32::MAX), two per triangle.
    children: Vec<[([usize; 2], u32); 2]>,
}

fn ek(a: usize, b: usize) -> u64 {
    (a.min(b) as u64) << 32 | a.max(b) as u64
}

impl Dual {
    fn new(n: usize, triangles: &[[usize; 3]]) -> Dual {
        let mut by_edge: HashMap<u64, [u32; 2]> = HashMap::with_capacity(3 * n);
        for (k, t) in triangles.iter().enumerate() {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
                let e = by_edge.entry(ek(a, b)).or_insert([u32::MAX; 2]);
                e[usize::from(e[0] != u32::MAX)] = k as u32;
            }
        }
        let root = by_edge[&ek(0, 1)][0] as usize;
        let mut children = vec![[([0usize; 2], u32::MAX); 2]; triangles.len()];
        let mut order = Vec::with_capacity(triangles.len());
        let mut stack = vec![(root, [0usize, 1])];
        while let Some((k, parent)) = stack.pop() {
            order.push(k);
            let t = triangles[k];
            let mut slot = 0;
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
                let e = [a.min(b), a.max(b)];
                if e == parent {
                    continue;
                }
                let pair = by_edge[&ek(a, b)];
                let other = if pair[0] as usize == k { pair[1] } else { pair[0] };
                children[k][slot] = (e, other);
                slot += 1;
                if other != u32::MAX {
                    stack.push((other as usize, e));
                }
            }
        }
        Dual { order, tri: triangles.to_vec(), children }
    }
}

/// Theorem 11: the most green edges All-Green Solitaire reaches on the triangulated convex
/// polygon 0..n, and flips reaching it (O(n)).
pub fn all_green_dp(n: usize, triangles: &[[usize; 3]]) -> (usize, Vec<[usize; 2]>) {
    let dual = Dual::new(n, triangles);
    let m = dual.tri.len();
    // [flipped, hot, cold] for each triangle's parent edge; `pick`: the hot child.
    let mut val = vec![[NEG, NEG, 0i64]; m];
    let mut pick = vec![0u8; m];
    let side = [NEG, NEG, 0];
    let get = |val: &Vec<[i64; 3]>, c: u32| if c == u32::MAX { side } else { val[c as usize] };
    for &k in dual.order.iter().rev() {
        let ch = dual.children[k].map(|(_, c)| get(&val, c));
        let warm = |v: [i64; 3]| v[1].max(v[2]) + 1;
        let a = warm(ch[0]) + warm(ch[1]);
        let h0 = ch[0][0] + 1 + warm(ch[1]);
        let h1 = ch[1][0] + 1 + warm(ch[0]);
        let c = (ch[0][1] + 1).max(ch[0][2]) + (ch[1][1] + 1).max(ch[1][2]);
        val[k] = [a, h0.max(h1), c];
        pick[k] = u8::from(h1 > h0);
    }
    // The root's parent edge is the side (0, 1): never flipped, green iff the root is hot.
    let root = dual.order[0];
    let (state, best) =
        if val[root][1] + 1 >= val[root][2] { (1, val[root][1] + 1) } else { (2, val[root][2]) };
    let mut flips = Vec::new();
    let mut stack = vec![(root, state)];
    while let Some((k, state)) = stack.pop() {
        for (i, &(e, c)) in dual.children[k].iter().enumerate() {
            if c == u32::MAX {
                continue;
            }
            let v = val[c as usize];
            let hot_here = state == 0 || state == 1;
            let child_state = if state == 1 && pick[k] as usize == i {
                flips.push(e);
                0
            } else if hot_here {
                if v[1] >= v[2] {
                    1
                } else {
                    2
                }
            } else if v[1] + 1 >= v[2] {
                1
            } else {
                2
            };
            stack.push((c as usize, child_state));
        }
    }
    (best as usize, flips)
}

/// The paper's recursion for Theorem 11 taken literally (5 per flip), rooted at side (0, 1).
pub fn paper_recursion(n: usize, triangles: &[[usize; 3]]) -> i64 {
    let dual = Dual::new(n, triangles);
    let m = dual.tri.len();
    // N(S) beyond each triangle's parent edge, and G = sum of N over its child edges.
    let mut big_n = vec![0i64; m];
    let mut grand = vec![0i64; m];
    for &k in dual.order.iter().rev() {
        let ch = dual.children[k].map(|(_, c)| c);
        let nv = |c: u32| if c == u32::MAX { 0 } else { big_n[c as usize] };
        let mut best = nv(ch[0]) + nv(ch[1]);
        for i in 0..2 {
            if ch[i] != u32::MAX {
                best = best.max(grand[ch[i] as usize] + nv(ch[1 - i]) + 5);
            }
        }
        let g = nv(ch[0]) + nv(ch[1]);
        big_n[k] = best;
        grand[k] = g;
    }
    big_n[dual.order[0]]
}

/// Theorem 13's strategy on the triangulated convex polygon 0..n: take an ear (sides a, b,
/// diagonal d), flip d, and recurse into the two polygons beyond the other triangle's edges;
/// a polygon of 4 to 6 vertices flips one diagonal. Returns the flips.
pub fn theorem_13(n: usize, triangles: &[[usize; 3]]) -> Vec<[usize; 2]> {
    let mut edges = std::collections::HashSet::new();
    for t in triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])] {
            edges.insert([a.min(b), a.max(b)]);
        }
    }
    let has = |a: usize, b: usize| edges.contains(&[a.min(b), a.max(b)]);
    let mut flips = Vec::new();
    let mut stack: Vec<Vec<usize>> = vec![(0..n).collect()];
    while let Some(poly) = stack.pop() {
        let k = poly.len();
        if k < 4 {
            continue;
        }
        let at = |i: usize| poly[i % k];
        if k <= 6 {
            // Any diagonal: one flip colours 5 >= k - 1 edges.
            let d = (0..k)
                .flat_map(|i| (i + 2..k).map(move |j| (i, j)))
                .find(|&(i, j)| !(i == 0 && j == k - 1) && has(poly[i], poly[j]))
                .expect("a polygon of 4+ vertices has a diagonal");
            flips.push([poly[d.0].min(poly[d.1]), poly[d.0].max(poly[d.1])]);
            continue;
        }
        // An ear: consecutive x, y, z with the diagonal x-z.
        let i = (0..k).find(|&i| has(at(i), at(i + 2))).expect("a triangulated polygon has an ear");
        let (x, z) = (at(i), at(i + 2));
        flips.push([x.min(z), x.max(z)]);
        // The apex w of the other triangle on x-z, then P1 = z..w and P2 = w..x.
        let j = (3..k)
            .find(|&j| has(x, at(i + j)) && has(z, at(i + j)))
            .expect("the other triangle on the ear's diagonal");
        stack.push((2..=j).map(|s| at(i + s)).collect());
        stack.push((j..=k).map(|s| at(i + s)).collect());
    }
    flips
}

/// Theorem 12's lower bound: a maximal set of flippable edges no two of which share a triangle
/// (greedy in sorted order), all flipped.
pub fn independent_flips(shape: &Shape, board: &Board) -> Vec<[usize; 2]> {
    let mut used = std::collections::HashSet::new();
    let mut out = Vec::new();
    for e in board.moves(shape) {
        let s = board.edges[&[e[0] as u32, e[1] as u32]];
        let tri = |c: u32| {
            let mut t = [e[0], e[1], c as usize];
            t.sort_unstable();
            t
        };
        let (t0, t1) = (tri(s.apex[0]), tri(s.apex[1]));
        if !used.contains(&t0) && !used.contains(&t1) {
            used.insert(t0);
            used.insert(t1);
            out.push(e);
        }
    }
    out
}

/// The most green edges over every flip sequence, by search over positions (memoised on the
/// masks; at most 16 points), with a sequence reaching it.
pub fn exhaustive(shape: &Shape, board: &Board) -> (usize, Vec<[usize; 2]>) {
    fn best(
        shape: &Shape,
        board: &Board,
        memo: &mut HashMap<[u128; 3], (usize, Option<[usize; 2]>)>,
    ) -> usize {
        let key = board.masks(shape.len());
        if let Some(&(g, _)) = memo.get(&key) {
            return g;
        }
        let mut top = (board.count(1), None);
        for e in board.moves(shape) {
            let mut next = board.clone();
            next.play(shape, FlipGame::AllGreen, e, 1).expect("legal");
            let g = best(shape, &next, memo);
            if g > top.0 {
                top = (g, Some(e));
            }
        }
        memo.insert(key, top);
        top.0
    }
    let mut memo = HashMap::new();
    let g = best(shape, board, &mut memo);
    let mut flips = Vec::new();
    let mut b = board.clone();
    while let Some(&(_, Some(e))) = memo.get(&b.masks(shape.len())) {
        b.play(shape, FlipGame::AllGreen, e, 1).expect("legal");
        flips.push(e);
    }
    (g, flips)
}

/// The most green edges over independent sets of flippable edges (the independence lemma), by
/// branch and bound; any size, exponential in the worst case.
pub fn independent_search(shape: &Shape, board: &Board) -> (usize, Vec<[usize; 2]>) {
    let cand = board.moves(shape);
    let tris: Vec<[[usize; 3]; 2]> = cand
        .iter()
        .map(|e| {
            let s = board.edges[&[e[0] as u32, e[1] as u32]];
            s.apex.map(|c| {
                let mut t = [e[0], e[1], c as usize];
                t.sort_unstable();
                t
            })
        })
        .collect();
    let quad = |i: usize| -> Vec<[usize; 2]> {
        let [a, b] = cand[i];
        tris[i]
            .iter()
            .flat_map(|t| [[t[0], t[1]], [t[1], t[2]], [t[0], t[2]]])
            .filter(|&x| x != [a, b])
            .collect()
    };
    struct S<'a> {
        tris: &'a [[[usize; 3]; 2]],
        quads: Vec<Vec<[usize; 2]>>,
        best: usize,
        best_set: Vec<usize>,
    }
    fn go(
        s: &mut S,
        i: usize,
        chosen: &mut Vec<usize>,
        used: &mut HashMap<[usize; 3], u32>,
        green: &mut HashMap<[usize; 2], u32>,
    ) {
        let score = chosen.len() + green.len();
        if score > s.best {
            s.best = score;
            s.best_set = chosen.clone();
        }
        if i == s.tris.len() || score + 5 * (s.tris.len() - i) <= s.best {
            return;
        }
        if s.tris[i].iter().all(|t| !used.contains_key(t)) {
            for t in s.tris[i] {
                *used.entry(t).or_default() += 1;
            }
            for &q in &s.quads[i] {
                *green.entry(q).or_default() += 1;
            }
            chosen.push(i);
            go(s, i + 1, chosen, used, green);
            chosen.pop();
            for &q in &s.quads[i] {
                let c = green.get_mut(&q).expect("counted");
                *c -= 1;
                if *c == 0 {
                    green.remove(&q);
                }
            }
            for t in s.tris[i] {
                used.remove(&t);
            }
        }
        go(s, i + 1, chosen, used, green);
    }
    let mut s = S {
        tris: &tris,
        quads: (0..cand.len()).map(quad).collect(),
        best: board.count(1),
        best_set: vec![],
    };
    go(&mut s, 0, &mut vec![], &mut HashMap::new(), &mut HashMap::new());
    (s.best, s.best_set.iter().map(|&i| cand[i]).collect())
}

/// The point set S(t) of Theorem 12 with its triangulation: the arc vertices c_0..c_m (m =
/// 2^(t-1)) on the concave parabola y = i (m - i) at x = 2i, the convex polygon C(t) split
/// recursively at the middle vertex, and v high above joined to every c_i.
pub fn s_of_t(t: u32) -> Result<FlipSpec, String> {
    if !(1..=11).contains(&t) {
        return Err(format!("t = {t}: S(t) is built for 1 <= t <= 11"));
    }
    let m = 1usize << (t - 1);
    let points: Vec<[i64; 2]> = (0..=m as i64).map(|i| [2 * i, i * (m as i64 - i)]).collect();
    let mut triangles = Vec::new();
    let mut stack = vec![(0, m)];
    while let Some((lo, hi)) = stack.pop() {
        if hi - lo >= 2 {
            let mid = (lo + hi) / 2;
            triangles.push([lo, mid, hi]);
            stack.push((lo, mid));
            stack.push((mid, hi));
        }
    }
    let v = m + 1;
    triangles.extend((0..m).map(|i| [i, i + 1, v]));
    let height = (m * m) as i64 * 1000 + 7;
    let spec = (0..1000)
        .map(|k| {
            let mut p = points.clone();
            p.push([m as i64 + 1, height + k]);
            FlipSpec {
                game: FlipGame::AllGreen,
                convex_polygon: None,
                points: p,
                triangles: triangles.clone(),
                edges: vec![],
            }
        })
        .find(|s| setup(s, &mut Budget::new(u64::MAX)).is_ok())
        .ok_or("no placement of v in general position")?;
    Ok(spec)
}

/// The paper's upper bound on g(t): 5/6 (2^t - (-1)^t - 3).
pub fn g_bound(t: u32) -> i64 {
    let sign = if t.is_multiple_of(2) { 1 } else { -1 };
    5 * ((1i64 << t) - sign - 3) / 6
}

/// `solve` on a solitaire instance: Theorem 11's DP in convex position (unless `exact`), else
/// the exhaustive search (at most 16 points), else Theorem 12's independent flips.
pub fn solve(spec: &FlipSpec, exact: bool) -> Result<(FlipSequence, String), String> {
    let (shape, board) = setup(spec, &mut Budget::new(u64::MAX))?;
    let run = |flips: Vec<[usize; 2]>, method: &str| -> Result<(FlipSequence, String), String> {
        let mut b = board.clone();
        for &e in &flips {
            b.play(&shape, spec.game, e, 1)?;
        }
        Ok((FlipSequence { green: b.count(1), flips }, method.to_string()))
    };
    if !exact {
        if let Some((n, triangles, label)) = as_convex(spec)? {
            let (_, flips) = all_green_dp(n, &triangles);
            let flips = flips
                .into_iter()
                .map(|[a, b]| [label[a].min(label[b]), label[a].max(label[b])])
                .collect();
            return run(flips, "Theorem 11 (linear dynamic programme, convex position)");
        }
    }
    if shape.len() <= crate::triangulations::flipping::MAX_EXACT_POINTS {
        let (_, flips) = exhaustive(&shape, &board);
        return run(flips, "exhaustive search over positions");
    }
    if exact {
        return Err(format!(
            "{} points: the exhaustive search takes at most {}",
            shape.len(),
            crate::triangulations::flipping::MAX_EXACT_POINTS
        ));
    }
    run(
        independent_flips(&shape, &board),
        "Theorem 12 (independent flippable edges; a lower bound, not the maximum)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangulations::flipping::{convex_spec, gen_instance};
    use gamecert_certificates::triangulations::flipping::check_flip_sequence;

    /// Theorem 11 against exhaustive search on every triangulation of the convex n-gon, n <= 9;
    /// the DP's flips replayed by the checker reach its value. Theorem 13 (>= n - 1) on each.
    /// The paper's literal recursion is recorded where it differs.
    #[test]
    fn theorem_11_and_13_on_every_small_convex_polygon() {
        let mut paper_off = 0;
        let mut total = 0;
        for n in 4..=9 {
            for t in crate::triangulations::flipping::all_convex(n) {
                let spec = convex_spec(FlipGame::AllGreen, n, t.clone());
                let (shape, board) = setup(&spec, &mut Budget::new(u64::MAX)).unwrap();
                let (best, _) = exhaustive(&shape, &board);
                let (dp, flips) = all_green_dp(n, &t);
                assert_eq!(dp, best, "n = {n}, {t:?}");
                let seq = FlipSequence { flips, green: dp };
                assert_eq!(
                    check_flip_sequence(
                        &spec,
                        &seq,
                        &mut gamecert_certificates::base::budget::Budget::unlimited()
                    )
                    .unwrap()
                    .0,
                    dp
                );
                assert_eq!(independent_search(&shape, &board).0, best);
                let flips13 = theorem_13(n, &t);
                let mut b = board.clone();
                for e in flips13 {
                    b.play(&shape, FlipGame::GreenWins, e, 1).unwrap();
                }
                assert!(b.count(1) >= n - 1, "Theorem 13, n = {n}: {}", b.count(1));
                total += 1;
                if paper_recursion(n, &t) != best as i64 {
                    paper_off += 1;
                }
            }
        }
        assert_eq!(total, 2 + 5 + 14 + 42 + 132 + 429);
        // The literal recursion double counts: it is wrong on some of these (the count is in
        // the README).
        assert!(paper_off > 0);
    }

    /// The independence lemma on point sets with inner points: the search over independent
    /// sets equals the search over positions.
    #[test]
    fn independence_lemma_on_point_sets() {
        for seed in 0..12 {
            for (n, inner) in [(7, 2), (8, 3), (9, 2)] {
                let spec = gen_instance(
                    crate::triangulations::generate::Kind::Points,
                    n,
                    inner,
                    seed,
                    FlipGame::AllGreen,
                    false,
                )
                .unwrap();
                let (shape, board) = setup(&spec, &mut Budget::new(u64::MAX)).unwrap();
                assert_eq!(independent_search(&shape, &board).0, exhaustive(&shape, &board).0);
            }
        }
    }

    /// Theorem 12's family: g(t) for t = 1..=6 by independent-set search equals the DP on
    /// C(t), the witness is accepted, g(1..3) = 0, 0, 5 as the paper says, and g(t) <= the
    /// bound 5/6 (2^t - (-1)^t - 3). From t = 5 on, g(t) = 3 * 2^(t-2) - 1 (by the DP up to
    /// t = 9): g(t) / e(t) tends to 1/2, not to the paper's 5/9, which is only an upper bound.
    #[test]
    fn s_of_t_values() {
        let mut values = Vec::new();
        for t in 1..=9 {
            let spec = s_of_t(t).unwrap();
            let (shape, board) = setup(&spec, &mut Budget::new(u64::MAX)).unwrap();
            assert_eq!(board.edges.len(), 3 << (t - 1), "e(t)");
            let m = 1usize << (t - 1);
            let c: Vec<[usize; 3]> = spec.triangles.iter().copied().filter(|x| x[2] <= m).collect();
            let (g, flips) = if m >= 2 { all_green_dp(m + 1, &c) } else { (0, vec![]) };
            if t <= 6 {
                assert_eq!(independent_search(&shape, &board).0, g, "t = {t}");
            }
            let seq = FlipSequence { flips, green: g };
            assert_eq!(
                check_flip_sequence(
                    &spec,
                    &seq,
                    &mut gamecert_certificates::base::budget::Budget::unlimited()
                )
                .unwrap()
                .0,
                g
            );
            assert!(g as i64 <= g_bound(t), "t = {t}: {g} > {}", g_bound(t));
            if t >= 5 {
                assert_eq!(g, 3 * (1 << (t - 2)) - 1, "t = {t}");
            }
            values.push(g);
        }
        assert_eq!(&values[..4], &[0, 0, 5, 10]);
    }

    /// Theorem 12's lower bound on random point sets: at least (n - 4) / 6 independent
    /// flippable edges, and at least (n - 4) / 2 green edges after flipping them.
    #[test]
    fn theorem_12_lower_bound() {
        for seed in 0..10 {
            for (n, inner) in [(10, 3), (20, 8), (40, 15)] {
                let spec = gen_instance(
                    crate::triangulations::generate::Kind::Points,
                    n,
                    inner,
                    seed,
                    FlipGame::GreenWins,
                    false,
                )
                .unwrap();
                let (shape, board) = setup(&spec, &mut Budget::new(u64::MAX)).unwrap();
                let flips = independent_flips(&shape, &board);
                assert!(6 * flips.len() + 4 >= n, "n = {n}: {}", flips.len());
                let (seq, _) = solve(&spec, false).unwrap();
                assert!(2 * seq.green + 4 >= n);
                check_flip_sequence(
                    &spec,
                    &seq,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap();
            }
        }
    }
}

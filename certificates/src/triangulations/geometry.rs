//! Planar geometry on integer coordinates with exact predicates, for the games on
//! triangulations (seed 000, Aichholzer et al.). No floating point decides anything: every
//! predicate is the sign of a cross product computed in `i128` (coordinates are `i64` limited
//! to |x|, |y| <= 2^40, so products fit).
//!
//! A point set must be in general position (no three points collinear): the paper assumes it,
//! and it makes "crossing" unambiguous (two segments either share an endpoint or cross
//! properly or are disjoint). A triangulation is given by its triangles or by its edges, and
//! the instance is exactly what the file says: nothing is dropped, merged or repaired.
//!
//! # Validation, in this order
//!
//! `n` points, `h` of them on the convex hull, `m` items (triangles or edges) in the file.
//! Every step is charged to the [`Budget`] before it runs (one unit about one step or one
//! byte held), so no input makes validation run past the work limit; each error names the
//! offending item (`points[2]`, `triangles[4] [0, 3, 5]`, `edges[17] [3, 9]`).
//!
//! 1. The shape of the input: triangles or edges, not both and not neither.
//! 2. Coordinates within 2^40 (`unsigned_abs`, so `i64::MIN` is refused too) and no point
//!    given twice: O(n log n).
//! 3. The convex hull (Andrew's monotone chain): O(n log n). Point sets not in convex
//!    position are limited to [`MAX_GENERAL_POINTS`].
//! 4. The count: every triangulation of n points in general position with h on the hull has
//!    exactly 3n - 3 - h edges and 2n - 2 - h triangles. A list of another length is refused
//!    here, in O(1), before anything quadratic: a complete graph given as edges costs no more
//!    than reading it.
//! 5. General position, unless every point is a hull vertex (the hull then shows it): for
//!    each point, the later points sorted by direction with an exact comparator (half-plane,
//!    then the sign of a cross product), O(n^2 log n) ([`collinear_triple`]).
//! 6. Each item: indices in range; a triangle's corners distinct and not collinear, an
//!    edge's ends distinct; no item given twice, in any order or orientation (both indices
//!    named): O(m log m).
//! 7. No two edges cross (the edges given, or the triangles' sides). In convex position two
//!    edges cross iff their endpoints interleave along the hull, so a bracket-matching sweep
//!    decides it in O(m log m); otherwise every pair is tested, O(m^2) with m <= 3n <= 6000.
//!    (Triangles given first pass the oriented-side test of step 9, which is O(m log m).)
//! 8. Edges only: the faces are traced from the angular order of the neighbours at each
//!    vertex (the same exact comparator), O(m log m); the counter-clockwise 3-cycles of faces
//!    are the triangles, and there must again be 2n - 2 - h of them.
//! 9. The triangles (given, or traced in step 8): none given twice, no oriented side shared
//!    by two of them (they would overlap), exactly 3n - 3 - h distinct sides, each triangle
//!    empty of points (skipped in convex position, where no point can lie inside; O(n m)
//!    otherwise), their total area equal to the hull's, every point a corner. Non-crossing
//!    empty triangles covering exactly the hull's area triangulate the whole hull (an
//!    overlap would need a crossing or a point inside a triangle, a gap would lose area).
//! 10. Edges only: the sides of those triangles must be exactly the edges given; an edge in
//!     no triangle is named and refused, never dropped.
//!
//! So large convex triangulations (10^5 points and more) validate in O(n log n) from either
//! form; other point sets take O(n^2 log n) for general position and O(n^2) for crossings and
//! emptiness, with n <= [`MAX_GENERAL_POINTS`].
//!
//! Derived structure: the edges (hull edges and inner diagonals), the dual graph (triangles
//! sharing an edge), inner triangles (no hull edge) and ears (two hull edges).

use crate::base::budget::Budget;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::HashMap;

/// Largest absolute coordinate.
pub const MAX_COORDINATE: i64 = 1 << 40;

/// A point with integer coordinates.
pub type Point = [i64; 2];

/// Twice the signed area of triangle abc: positive iff a, b, c turn counter-clockwise. Exact
/// for coordinates within [`MAX_COORDINATE`] (the products stay below 2^84).
pub fn orient(a: Point, b: Point, c: Point) -> i128 {
    let (ax, ay) = (i128::from(a[0]), i128::from(a[1]));
    (i128::from(b[0]) - ax) * (i128::from(c[1]) - ay)
        - (i128::from(b[1]) - ay) * (i128::from(c[0]) - ax)
}

/// A count as `u64` (lossless: `usize` has at most 64 bits on every target Rust supports).
fn units(x: usize) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// The work of sorting `m` items: about log2(m) + 1 steps each.
fn sort_units(m: usize) -> u64 {
    let m = units(m);
    m.saturating_mul(u64::from(u64::BITS - m.leading_zeros()) + 1)
}

/// Charges holding `len` values of type `T` (one unit a byte), before they are allocated.
fn charge_bytes<T>(budget: &mut Budget, len: usize, what: &str) -> Result<(), String> {
    budget.charge_each(units(len), units(std::mem::size_of::<T>()), what)
}

/// `b - a` for points within the coordinate limit.
fn direction(a: Point, b: Point) -> [i128; 2] {
    [i128::from(b[0]) - i128::from(a[0]), i128::from(b[1]) - i128::from(a[1])]
}

fn cross(u: [i128; 2], v: [i128; 2]) -> i128 {
    u[0] * v[1] - u[1] * v[0]
}

/// Whether a non-zero direction lies in the half-open half-plane of angles [0, pi).
fn upper(d: [i128; 2]) -> bool {
    d[1] > 0 || (d[1] == 0 && d[0] > 0)
}

/// The first collinear triple (indices i < j < k, lexicographically first), if any, in
/// O(n^2 log n): for each point i, the later points sorted by their direction from i taken
/// modulo a half turn (exact: the direction is turned into the upper half-plane, then two are
/// ordered by the sign of their cross product). Points collinear with i have equal
/// directions, so they are adjacent in that order; a point equal to i is collinear with any
/// other. Returns the same triple as trying every triple in order (the tests compare both).
/// Coordinates must be within [`MAX_COORDINATE`].
pub fn collinear_triple(
    points: &[Point],
    budget: &mut Budget,
) -> Result<Option<(usize, usize, usize)>, String> {
    const WHAT: &str = "checking that no three points are collinear";
    let n = points.len();
    charge_bytes::<([i128; 2], usize)>(budget, n, WHAT)?;
    let mut around: Vec<([i128; 2], usize)> = Vec::with_capacity(n);
    for i in 0..n {
        let later = n - i - 1;
        if later < 2 {
            break;
        }
        budget.charge(sort_units(later).saturating_mul(2), WHAT)?;
        around.clear();
        // The smallest later point equal to point i, if any.
        let mut coincident = None;
        for j in i + 1..n {
            let d = direction(points[i], points[j]);
            if d == [0, 0] {
                coincident = coincident.or(Some(j));
            } else if upper(d) {
                around.push((d, j));
            } else {
                around.push(([-d[0], -d[1]], j));
            }
        }
        // Within the half-plane, a cross product > 0 means a smaller angle; equal directions
        // are ordered by index, so the order is total.
        around.sort_unstable_by(|a, b| 0.cmp(&cross(a.0, b.0)).then(a.1.cmp(&b.1)));
        let mut best: Option<(usize, usize)> = around
            .windows(2)
            .filter(|w| cross(w[0].0, w[1].0) == 0)
            .map(|w| (w[0].1, w[1].1))
            .min();
        if let Some(c) = coincident {
            // The smallest pair holding a point equal to i: i + 1 with the next one, or
            // i + 1 with c.
            let pair = if c == i + 1 { (i + 1, i + 2) } else { (i + 1, c) };
            best = Some(best.map_or(pair, |b| b.min(pair)));
        }
        if let Some((j, k)) = best {
            return Ok(Some((i, j, k)));
        }
    }
    Ok(None)
}

/// Checks coordinates and general position; the error names the points.
pub fn check_points(points: &[Point], budget: &mut Budget) -> Result<(), String> {
    check_coordinates(points, budget)?;
    check_general_position(points, budget)
}

fn check_general_position(points: &[Point], budget: &mut Budget) -> Result<(), String> {
    if let Some((i, j, k)) = collinear_triple(points, budget)? {
        fail!(
            "points[{i}], points[{j}] and points[{k}] are collinear: the games need points in \
             general position"
        );
    }
    Ok(())
}

/// At least three points, every coordinate within the limit, no point twice.
fn check_coordinates(points: &[Point], budget: &mut Budget) -> Result<(), String> {
    let n = points.len();
    ensure!(n >= 3, "{n} points: a triangulation needs at least 3");
    budget.charge(units(n), "checking the coordinates")?;
    // `unsigned_abs`, not `abs`: i64::MIN has no absolute value in i64.
    let limit = MAX_COORDINATE.unsigned_abs();
    if let Some(i) =
        points.iter().position(|p| p[0].unsigned_abs() > limit || p[1].unsigned_abs() > limit)
    {
        fail!(
            "points[{i}] ({}, {}) is beyond the coordinate limit 2^40",
            points[i][0],
            points[i][1]
        );
    }
    charge_bytes::<usize>(budget, n, "looking for a point given twice")?;
    budget.charge(sort_units(n), "looking for a point given twice")?;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by_key(|&i| (points[i], i));
    if let Some(w) = order.windows(2).find(|w| points[w[0]] == points[w[1]]) {
        let (i, j) = (w[0], w[1]);
        fail!(
            "points[{i}] and points[{j}] are the same point ({}, {}): a point may be given only \
             once",
            points[i][0],
            points[i][1]
        );
    }
    Ok(())
}

/// Largest point set not in convex position that is validated: checking general position
/// takes O(n^2 log n) and the crossing and emptiness tests O(n^2). Sets in convex position
/// have no limit (beyond the work budget): there the hull alone shows general position and
/// the crossing test is a sweep.
pub const MAX_GENERAL_POINTS: usize = 2_000;

/// Coordinates, the convex hull, whether every point is on it, and the size limit for sets
/// that are not: steps 2 and 3 of the module docs.
fn checked_hull(points: &[Point], budget: &mut Budget) -> Result<(Vec<usize>, bool), String> {
    check_coordinates(points, budget)?;
    let n = points.len();
    charge_bytes::<usize>(budget, n.saturating_mul(3), "computing the convex hull")?;
    budget.charge(sort_units(n), "computing the convex hull")?;
    let hull = convex_hull(points);
    let convex = hull.len() == n;
    if !convex && n > MAX_GENERAL_POINTS {
        fail!(
            "{n} points not in convex position: checking general position, crossings and empty \
             triangles is quadratic there, so at most {MAX_GENERAL_POINTS} are taken (sets in \
             convex position have no limit)"
        );
    }
    Ok((hull, convex))
}

/// Checks coordinates and general position and returns the convex hull and whether every
/// point is on it. When every point is a vertex of the hull (which drops collinear and repeated
/// points), the points are in strictly convex position, so no three are collinear, and the
/// general-position check is skipped.
pub fn check_points_hull(
    points: &[Point],
    budget: &mut Budget,
) -> Result<(Vec<usize>, bool), String> {
    let (hull, convex) = checked_hull(points, budget)?;
    if !convex {
        check_general_position(points, budget)?;
    }
    Ok((hull, convex))
}

/// The number of edges and of triangles of every triangulation of `n` points in general
/// position with `h` of them on the convex hull: 3n - 3 - h and 2n - 2 - h (Euler's formula).
/// In `u128`, so nothing overflows; `h <= n`.
fn triangulation_counts(n: usize, h: usize) -> (u128, u128) {
    let (n, h) = (n as u128, h as u128);
    ((3 * n).saturating_sub(3 + h), (2 * n).saturating_sub(2 + h))
}

/// Two edges that cross, if any, as indices into `edges` (the smaller first). In convex
/// position (`hull` lists every point) edges cross iff their endpoints interleave along the
/// hull, so the edges must nest like brackets: a sweep over the edges sorted by their first
/// hull position finds a violation in O(m log m). Otherwise every pair is tested.
fn crossing_pair(
    points: &[Point],
    hull: &[usize],
    convex: bool,
    edges: &[[usize; 2]],
    budget: &mut Budget,
) -> Result<Option<(usize, usize)>, String> {
    const WHAT: &str = "testing the edges for crossings";
    let m = edges.len();
    if !convex {
        budget.charge_each(units(m).saturating_mul(units(m)) / 2, 4, WHAT)?;
        for (i, e) in edges.iter().enumerate() {
            for (j, f) in edges.iter().enumerate().skip(i + 1) {
                if segments_cross(points[e[0]], points[e[1]], points[f[0]], points[f[1]]) {
                    return Ok(Some((i, j)));
                }
            }
        }
        return Ok(None);
    }
    charge_bytes::<usize>(budget, hull.len(), WHAT)?;
    charge_bytes::<(usize, usize, usize)>(budget, m.saturating_mul(2), WHAT)?;
    budget.charge(sort_units(m).saturating_mul(2), WHAT)?;
    let mut rank = vec![0; hull.len()];
    for (i, &v) in hull.iter().enumerate() {
        rank[v] = i;
    }
    let mut spans: Vec<(usize, usize, usize)> = edges
        .iter()
        .enumerate()
        .map(|(k, &e)| {
            let (a, b) = (rank[e[0]], rank[e[1]]);
            (a.min(b), a.max(b), k)
        })
        .collect();
    spans.sort_unstable_by_key(|&(a, b, k)| (a, std::cmp::Reverse(b), k));
    let mut open: Vec<(usize, usize, usize)> = Vec::new();
    for span in spans {
        while open.last().is_some_and(|top| top.1 <= span.0) {
            open.pop();
        }
        if let Some(top) = open.last() {
            if top.1 < span.1 {
                return Ok(Some((top.2.min(span.2), top.2.max(span.2))));
            }
        }
        open.push(span);
    }
    Ok(None)
}

/// The convex hull's vertices in counter-clockwise order, starting from the lowest-leftmost
/// point (Andrew's monotone chain); collinear points on the boundary are left out.
pub fn convex_hull(points: &[Point]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| (points[i][0], points[i][1]));
    let mut hull: Vec<usize> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let sequence: Box<dyn Iterator<Item = &usize>> =
            if pass == 0 { Box::new(order.iter()) } else { Box::new(order.iter().rev()) };
        for &i in sequence {
            while hull.len() >= start + 2
                && orient(points[hull[hull.len() - 2]], points[hull[hull.len() - 1]], points[i])
                    <= 0
            {
                hull.pop();
            }
            hull.push(i);
        }
        hull.pop();
    }
    hull
}

/// Whether segments ab and cd cross at a point interior to both (for points in general
/// position; segments sharing an endpoint do not cross).
pub fn segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool {
    if a == c || a == d || b == c || b == d {
        return false;
    }
    let s = |x: i128| x.signum();
    s(orient(a, b, c)) * s(orient(a, b, d)) < 0 && s(orient(c, d, a)) * s(orient(c, d, b)) < 0
}

/// Whether p lies strictly inside triangle abc (either orientation).
pub fn strictly_inside(p: Point, a: Point, b: Point, c: Point) -> bool {
    let (x, y, z) = (orient(a, b, p), orient(b, c, p), orient(c, a, p));
    (x > 0 && y > 0 && z > 0) || (x < 0 && y < 0 && z < 0)
}

/// A triangulation as given in a file: points, and triangles or edges.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TriangulationSpec {
    pub points: Vec<Point>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub triangles: Vec<[usize; 3]>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<[usize; 2]>,
}

/// A validated triangulation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Triangulation {
    pub points: Vec<Point>,
    /// Triangles, each counter-clockwise, sorted.
    pub triangles: Vec<[usize; 3]>,
    /// Edges (i < j), sorted.
    pub edges: Vec<[usize; 2]>,
    /// The convex hull, counter-clockwise.
    pub hull: Vec<usize>,
    /// Each point's place on the hull (`None` for inner points).
    pub hull_rank: Vec<Option<usize>>,
}

fn edge(a: usize, b: usize) -> [usize; 2] {
    [a.min(b), a.max(b)]
}

impl TriangulationSpec {
    /// Validates the spec (see the module docs) into a [`Triangulation`], charging `budget`.
    pub fn validate(&self, budget: &mut Budget) -> Result<Triangulation, String> {
        validate_triangulation(&self.points, &self.triangles, &self.edges, budget)
    }
}

/// Validates a triangulation given by `points` and either `triangles` or `edges` (the other
/// empty), in the order of the module docs, charging `budget` before each step.
pub fn validate_triangulation(
    points: &[Point],
    triangles: &[[usize; 3]],
    edges: &[[usize; 2]],
    budget: &mut Budget,
) -> Result<Triangulation, String> {
    let by_edges = match (triangles.is_empty(), edges.is_empty()) {
        (false, true) => false,
        (true, false) => true,
        (false, false) => return Err("give triangles or edges, not both".into()),
        (true, true) => return Err("no triangles and no edges".into()),
    };
    let (hull, convex) = checked_hull(points, budget)?;
    let (n, h) = (points.len(), hull.len());
    let (want_edges, want_triangles) = triangulation_counts(n, h);
    let (given, want) =
        if by_edges { (edges.len(), want_edges) } else { (triangles.len(), want_triangles) };
    if given as u128 != want {
        let (items, formula, consequence) = if by_edges {
            ("edges", "3n - 3 - h", "an edge list must be exactly the edges of one triangulation")
        } else {
            ("triangles", "2n - 2 - h", "the triangles overlap or leave a gap")
        };
        fail!(
            "{given} {items} given, but every triangulation of these {n} points in general \
             position ({h} of them on the convex hull) has exactly {formula} = {want} \
             {items}: {consequence}"
        );
    }
    if !convex {
        check_general_position(points, budget)?;
    }
    if !by_edges {
        let oriented = oriented_triangles(points, triangles, budget)?;
        let name = |k: usize, _: [usize; 3]| format!("triangles[{k}] {:?}", triangles[k]);
        return finish(points, hull, convex, oriented, &name, true, budget);
    }
    // Each edge, then no edge twice: (normalized edge, index in the file), sorted.
    let keyed = checked_edges(n, edges, budget)?;
    let keys: Vec<[usize; 2]> = keyed.iter().map(|&(e, _)| e).collect();
    if let Some((i, j)) = crossing_pair(points, &hull, convex, &keys, budget)? {
        let (i, j) = (keyed[i].1.min(keyed[j].1), keyed[i].1.max(keyed[j].1));
        fail!("edges[{i}] {:?} and edges[{j}] {:?} cross", edges[i], edges[j]);
    }
    let faces = triangular_faces(points, &keys, budget)?;
    ensure!(
        faces.len() as u128 == want_triangles,
        "the edges bound {} triangles, but every triangulation of these {n} points has \
             exactly {want_triangles}: some face is not a triangle",
        faces.len()
    );
    let name = |_: usize, t: [usize; 3]| format!("the face {t:?} of the edges");
    // The faces' sides are edges given, which were just tested for crossings.
    let t = finish(points, hull, convex, faces, &name, false, budget)?;
    // The triangulation's edges must be exactly the edges given: the same number, so one
    // given edge missing from the triangulation is named.
    let mut derived = t.edges.iter().peekable();
    for &(e, k) in &keyed {
        match derived.peek() {
            Some(&&d) if d == e => {
                derived.next();
            }
            Some(&&d) if d < e => {
                fail!(
                    "the side {d:?} of a face is not an edge given (internal: faces use only \
                     edges given)"
                )
            }
            _ => {
                fail!(
                    "edges[{k}] {:?} is a side of no triangle of the triangulation: the edges \
                     must be exactly those of a triangulation",
                    edges[k]
                )
            }
        }
    }
    if let Some(d) = derived.next() {
        fail!(
            "the side {d:?} of a face is not an edge given (internal: faces use only edges given)"
        );
    }
    Ok(t)
}

/// Step 6 for triangles: indices in range and distinct, not degenerate; each turned
/// counter-clockwise (the given rotation kept).
fn oriented_triangles(
    points: &[Point],
    triangles: &[[usize; 3]],
    budget: &mut Budget,
) -> Result<Vec<[usize; 3]>, String> {
    let n = points.len();
    charge_bytes::<[usize; 3]>(budget, triangles.len(), "reading the triangles")?;
    budget.charge_each(units(triangles.len()), 8, "reading the triangles")?;
    let mut out = Vec::with_capacity(triangles.len());
    for (k, &t) in triangles.iter().enumerate() {
        if let Some(&v) = t.iter().find(|&&v| v >= n) {
            fail!("triangles[{k}] {t:?} names point {v}, but there are {n} points");
        }
        if t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
            fail!("triangles[{k}] {t:?} does not have three distinct corners");
        }
        let o = orient(points[t[0]], points[t[1]], points[t[2]]);
        ensure!(o != 0, "triangles[{k}] {t:?} is degenerate (its corners are collinear)");
        out.push(if o < 0 { [t[0], t[2], t[1]] } else { t });
    }
    Ok(out)
}

/// Step 6 for edges: indices in range, no self-loop, no edge given twice (in either
/// orientation). Returns (the edge as [min, max], its index in the file), sorted.
fn checked_edges(
    n: usize,
    edges: &[[usize; 2]],
    budget: &mut Budget,
) -> Result<Vec<([usize; 2], usize)>, String> {
    const WHAT: &str = "reading the edges";
    charge_bytes::<([usize; 2], usize)>(budget, edges.len(), WHAT)?;
    budget.charge(sort_units(edges.len()), WHAT)?;
    let mut keyed = Vec::with_capacity(edges.len());
    for (k, &e) in edges.iter().enumerate() {
        if let Some(&v) = e.iter().find(|&&v| v >= n) {
            fail!("edges[{k}] {e:?} names point {v}, but there are {n} points");
        }
        ensure!(e[0] != e[1], "edges[{k}] {e:?} joins a point to itself");
        keyed.push((edge(e[0], e[1]), k));
    }
    keyed.sort_unstable();
    if let Some(w) = keyed.windows(2).find(|w| w[0].0 == w[1].0) {
        let (i, j) = (w[0].1, w[1].1);
        fail!(
            "edges[{i}] {:?} and edges[{j}] {:?} are the same edge: an edge may be given only \
             once",
            edges[i],
            edges[j]
        );
    }
    Ok(keyed)
}

/// Orders the points `a` and `b` by their direction from `c`, counter-clockwise from the
/// positive x axis (exact: the half-plane, then the sign of the cross product); ties (only
/// possible for collinear points, refused before) by index.
fn by_angle(points: &[Point], c: usize, a: usize, b: usize) -> Ordering {
    let (da, db) = (direction(points[c], points[a]), direction(points[c], points[b]));
    (!upper(da)).cmp(&!upper(db)).then_with(|| 0.cmp(&cross(da, db))).then(a.cmp(&b))
}

/// Step 8: the bounded triangular faces of the straight-line graph `edges` (distinct, without
/// crossings, endpoints in range), each counter-clockwise with its smallest corner first. The
/// face to the left of the half-edge u -> v goes on with v -> w, where w is the neighbour of v
/// just before u in counter-clockwise order around v; a face is a triangle when that walk
/// comes back to u -> v in three steps, turning counter-clockwise (the outer face of a
/// triangle turns clockwise). O(m log m).
fn triangular_faces(
    points: &[Point],
    edges: &[[usize; 2]],
    budget: &mut Budget,
) -> Result<Vec<[usize; 3]>, String> {
    const WHAT: &str = "tracing the faces of the edges";
    let n = points.len();
    let halves = edges.len().saturating_mul(2);
    // start, fill (n + 1 each); to, from, twin, order (one per half-edge); the faces.
    charge_bytes::<usize>(budget, n.saturating_add(1).saturating_mul(2), WHAT)?;
    charge_bytes::<usize>(budget, halves.saturating_mul(4), WHAT)?;
    charge_bytes::<[usize; 3]>(budget, halves / 3 + 1, WHAT)?;
    budget.charge(sort_units(halves).saturating_mul(4), WHAT)?;
    let mut start = vec![0usize; n + 1];
    for e in edges {
        start[e[0] + 1] += 1;
        start[e[1] + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut to = vec![0usize; halves];
    for e in edges {
        for (a, b) in [(e[0], e[1]), (e[1], e[0])] {
            to[fill[a]] = b;
            fill[a] += 1;
        }
    }
    drop(fill);
    let mut from = vec![0usize; halves];
    for v in 0..n {
        to[start[v]..start[v + 1]].sort_unstable_by(|&a, &b| by_angle(points, v, a, b));
        from[start[v]..start[v + 1]].fill(v);
    }
    // Each edge is two half-edges; pair them.
    let mut order: Vec<usize> = (0..halves).collect();
    order.sort_unstable_by_key(|&i| (from[i].min(to[i]), from[i].max(to[i]), from[i]));
    let mut twin = vec![0usize; halves];
    for pair in order.chunks_exact(2) {
        let (i, j) = (pair[0], pair[1]);
        if from[i] != to[j] || to[i] != from[j] {
            return Err("internal: an edge without its reverse half-edge".into());
        }
        twin[i] = j;
        twin[j] = i;
    }
    drop(order);
    let next = |i: usize| {
        let j = twin[i];
        let v = from[j];
        if j == start[v] {
            start[v + 1] - 1
        } else {
            j - 1
        }
    };
    let mut faces = Vec::new();
    for i in 0..halves {
        let i2 = next(i);
        let i3 = next(i2);
        if next(i3) != i || i2 < i || i3 < i {
            continue;
        }
        let [a, b, c] = [from[i], from[i2], from[i3]];
        if orient(points[a], points[b], points[c]) > 0 {
            faces.push(if a < b && a < c {
                [a, b, c]
            } else if b < c {
                [b, c, a]
            } else {
                [c, a, b]
            });
        }
    }
    Ok(faces)
}

/// The first triangle (by index) with a point strictly inside, and that point. O(n t).
fn point_inside(points: &[Point], triangles: &[[usize; 3]]) -> Option<(usize, usize)> {
    triangles.iter().enumerate().find_map(|(k, tri)| {
        let [a, b, c] = tri.map(|v| points[v]);
        (0..points.len())
            .find(|&p| !tri.contains(&p) && strictly_inside(points[p], a, b, c))
            .map(|p| (k, p))
    })
}

/// Step 9 on counter-clockwise triangles (`name` names the k-th for an error). With
/// `check_crossings` false the caller has already tested a superset of their sides.
fn finish(
    points: &[Point],
    hull: Vec<usize>,
    convex: bool,
    mut triangles: Vec<[usize; 3]>,
    name: &dyn Fn(usize, [usize; 3]) -> String,
    check_crossings: bool,
    budget: &mut Budget,
) -> Result<Triangulation, String> {
    const WHAT: &str = "validating the triangles";
    let n = points.len();
    let t = triangles.len();
    // A triangle given twice overlaps itself without a crossing or a point inside, and can
    // stand in for a missing face of the same area: refuse it, naming both.
    charge_bytes::<([usize; 3], usize)>(budget, t, WHAT)?;
    budget.charge(sort_units(t), WHAT)?;
    let mut keys: Vec<([usize; 3], usize)> = triangles
        .iter()
        .enumerate()
        .map(|(k, tri)| {
            let mut key = *tri;
            key.sort_unstable();
            (key, k)
        })
        .collect();
    keys.sort_unstable();
    if let Some(w) = keys.windows(2).find(|w| w[0].0 == w[1].0) {
        let (i, j) = (w[0].1, w[1].1);
        fail!(
            "{} and {} are the same triangle {:?}: a triangle may be given only once",
            name(i, triangles[i]),
            name(j, triangles[j]),
            w[0].0
        );
    }
    drop(keys);
    // Oriented sides: each lies to the left of at most one triangle.
    let sides = t.saturating_mul(3);
    charge_bytes::<([usize; 2], usize)>(budget, sides.saturating_mul(2), WHAT)?;
    budget.charge(sort_units(sides).saturating_mul(2), WHAT)?;
    let mut oriented: Vec<([usize; 2], usize)> = triangles
        .iter()
        .enumerate()
        .flat_map(|(k, tri)| [([tri[0], tri[1]], k), ([tri[1], tri[2]], k), ([tri[2], tri[0]], k)])
        .collect();
    oriented.sort_unstable();
    if let Some(w) = oriented.windows(2).find(|w| w[0].0 == w[1].0) {
        let (i, j) = (w[0].1, w[1].1);
        fail!(
            "{} and {} both lie to the left of the side {}-{}: they overlap",
            name(i, triangles[i]),
            name(j, triangles[j]),
            w[0].0[0],
            w[0].0[1]
        );
    }
    // The distinct sides, each with a triangle it bounds.
    let mut sides: Vec<([usize; 2], usize)> =
        oriented.into_iter().map(|(e, k)| (edge(e[0], e[1]), k)).collect();
    sides.sort_unstable();
    sides.dedup_by_key(|s| s.0);
    let edges: Vec<[usize; 2]> = sides.iter().map(|s| s.0).collect();
    if check_crossings {
        if let Some((i, j)) = crossing_pair(points, &hull, convex, &edges, budget)? {
            let (e, f) = (edges[i], edges[j]);
            let (ti, tj) = (sides[i].1, sides[j].1);
            fail!(
                "the side {}-{} of {} and the side {}-{} of {} cross",
                e[0],
                e[1],
                name(ti, triangles[ti]),
                f[0],
                f[1],
                name(tj, triangles[tj])
            );
        }
    }
    let (want_edges, _) = triangulation_counts(n, hull.len());
    ensure!(
        sides.len() as u128 == want_edges,
        "the triangles have {} distinct sides, but every triangulation of these {n} points \
             ({} on the convex hull) has exactly {want_edges} edges: they overlap or leave a gap",
        sides.len(),
        hull.len()
    );
    drop(sides);
    // In convex position no point lies inside a triangle of points. (A backstop: with the
    // checks above a point inside a triangle shows up as a crossing or a shared side too.)
    if !convex {
        budget.charge_each(units(t).saturating_mul(units(n)), 6, WHAT)?;
        if let Some((k, p)) = point_inside(points, &triangles) {
            fail!("{} contains points[{p}]: not empty", name(k, triangles[k]));
        }
    }
    budget.charge_each(units(t).saturating_add(units(hull.len())), 4, WHAT)?;
    let area = |tri: &[usize; 3]| orient(points[tri[0]], points[tri[1]], points[tri[2]]);
    let hull_area = (1..hull.len().saturating_sub(1))
        .map(|i| area(&[hull[0], hull[i], hull[i + 1]]))
        .try_fold(0i128, i128::checked_add);
    let covered = triangles.iter().map(area).try_fold(0i128, i128::checked_add);
    let (Some(hull_area), Some(covered)) = (hull_area, covered) else {
        return Err("the area overflows".into());
    };
    ensure!(
        covered == hull_area,
        "the triangles cover an area of {covered} but the convex hull has {hull_area} (in \
             half units): they overlap or leave a gap"
    );
    charge_bytes::<Option<usize>>(budget, n.saturating_mul(2), WHAT)?;
    charge_bytes::<Point>(budget, n, WHAT)?;
    budget.charge(sort_units(t), WHAT)?;
    let mut used = vec![false; n];
    for &v in triangles.iter().flatten() {
        used[v] = true;
    }
    if let Some(p) = used.iter().position(|&u| !u) {
        fail!("points[{p}] is in no triangle");
    }
    triangles.sort_unstable();
    let mut hull_rank = vec![None; n];
    for (i, &v) in hull.iter().enumerate() {
        hull_rank[v] = Some(i);
    }
    Ok(Triangulation { points: points.to_vec(), triangles, edges, hull, hull_rank })
}

impl Triangulation {
    /// Whether edge e lies on the convex hull.
    pub fn is_hull_edge(&self, e: [usize; 2]) -> bool {
        match (self.hull_rank[e[0]], self.hull_rank[e[1]]) {
            (Some(a), Some(b)) => {
                let d = a.abs_diff(b);
                d == 1 || d + 1 == self.hull.len()
            }
            _ => false,
        }
    }

    /// Whether every point is on the convex hull.
    pub fn is_convex(&self) -> bool {
        self.hull.len() == self.points.len()
    }

    /// For each triangle, the triangles sharing an edge with it (the dual graph).
    pub fn dual(&self) -> Vec<Vec<usize>> {
        let mut by_edge: HashMap<[usize; 2], Vec<usize>> = HashMap::new();
        for (k, t) in self.triangles.iter().enumerate() {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                by_edge.entry(edge(a, b)).or_default().push(k);
            }
        }
        let mut dual = vec![Vec::new(); self.triangles.len()];
        for pair in by_edge.values().filter(|p| p.len() == 2) {
            dual[pair[0]].push(pair[1]);
            dual[pair[1]].push(pair[0]);
        }
        for d in &mut dual {
            d.sort_unstable();
        }
        dual
    }

    /// Number of hull edges of each triangle.
    fn hull_edges(&self, t: &[usize; 3]) -> usize {
        [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])]
            .iter()
            .filter(|&&(a, b)| self.is_hull_edge(edge(a, b)))
            .count()
    }

    /// Triangles with no hull edge.
    pub fn inner_triangles(&self) -> Vec<usize> {
        (0..self.triangles.len()).filter(|&k| self.hull_edges(&self.triangles[k]) == 0).collect()
    }

    /// Triangles with two hull edges.
    pub fn ears(&self) -> Vec<usize> {
        (0..self.triangles.len()).filter(|&k| self.hull_edges(&self.triangles[k]) == 2).collect()
    }

    /// Points not on the convex hull.
    pub fn inner_points(&self) -> Vec<usize> {
        (0..self.points.len()).filter(|&p| self.hull_rank[p].is_none()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget large enough for every test here.
    fn budget() -> Budget {
        Budget::new(crate::base::budget::DEFAULT_MAX_WORK)
    }

    fn validate(spec: &TriangulationSpec) -> Result<Triangulation, String> {
        spec.validate(&mut budget())
    }

    /// The oracle: every triple in order, O(n^3).
    fn collinear_triple_cubic(points: &[Point]) -> Option<(usize, usize, usize)> {
        let n = points.len();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    if orient(points[i], points[j], points[k]) == 0 {
                        return Some((i, j, k));
                    }
                }
            }
        }
        None
    }

    /// A small deterministic generator (an LCG's high bits).
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, bound: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % bound
        }

        fn coordinate(&mut self, range: i64) -> i64 {
            self.below(2 * range as u64 + 1) as i64 - range
        }
    }

    /// A convex hexagon: (i, i^2) for i = 0..6 is in convex position with no three collinear.
    fn hexagon() -> Vec<Point> {
        (0..6).map(|i| [i, i * i]).collect()
    }

    fn parabola(n: usize) -> Vec<Point> {
        (0..n as i64).map(|i| [i, i * i]).collect()
    }

    fn by_edges(points: Vec<Point>, edges: Vec<[usize; 2]>) -> TriangulationSpec {
        TriangulationSpec { points, triangles: vec![], edges }
    }

    fn by_triangles(points: Vec<Point>, triangles: Vec<[usize; 3]>) -> TriangulationSpec {
        TriangulationSpec { points, triangles, edges: vec![] }
    }

    /// A random triangulation of the convex polygon 0..n (hull order): each polygon a..b is cut
    /// by a triangle a, c, b with c random in between.
    fn random_polygon_triangulation(n: usize, rng: &mut Lcg) -> Vec<[usize; 3]> {
        let mut triangles = Vec::new();
        let mut stack = vec![(0, n - 1)];
        while let Some((a, b)) = stack.pop() {
            if b - a < 2 {
                continue;
            }
            let c = a + 1 + rng.below((b - a - 1) as u64) as usize;
            triangles.push([a, c, b]);
            stack.push((a, c));
            stack.push((c, b));
        }
        triangles
    }

    /// A triangulation of a big triangle and `inner` random points inside, each point splitting
    /// the triangle it falls in; points collinear with two others are drawn again.
    fn split_triangulation(inner: usize, rng: &mut Lcg) -> (Vec<Point>, Vec<[usize; 3]>) {
        let big = 1 << 30;
        let mut points: Vec<Point> = vec![[-big, -big], [big, -big], [0, big]];
        let mut triangles = vec![[0, 1, 2]];
        while points.len() < inner + 3 {
            let p = [rng.coordinate(big / 2), rng.coordinate(big / 2)];
            let Some(k) = triangles
                .iter()
                .position(|t| strictly_inside(p, points[t[0]], points[t[1]], points[t[2]]))
            else {
                continue;
            };
            // Reject a point on a line through two others (rare at this range).
            let collinear = (0..points.len())
                .any(|a| (a + 1..points.len()).any(|b| orient(points[a], points[b], p) == 0));
            if collinear {
                continue;
            }
            let v = points.len();
            points.push(p);
            let [a, b, c] = triangles.swap_remove(k);
            triangles.extend([[a, b, v], [b, c, v], [c, a, v]]);
        }
        (points, triangles)
    }

    /// The O(n^2 log n) general-position check agrees with the cubic oracle, triple for
    /// triple, on random small sets (many collinear triples on a small grid, forced ones, and
    /// repeated points).
    #[test]
    fn the_fast_collinearity_check_matches_the_cubic_oracle() {
        let mut rng = Lcg(7);
        let (mut found, mut clean) = (0, 0);
        for round in 0..3000 {
            let n = 3 + rng.below(9) as usize;
            let range = [2, 4, 30, 1 << 40][round % 4];
            let mut points: Vec<Point> =
                (0..n).map(|_| [rng.coordinate(range), rng.coordinate(range)]).collect();
            match round % 5 {
                // Force a collinear triple: c = a + 2 (b - a) (within range for small ones).
                0 if range < 1 << 20 => {
                    let (a, b, c) = (
                        rng.below(n as u64) as usize,
                        rng.below(n as u64) as usize,
                        rng.below(n as u64) as usize,
                    );
                    if a != b && b != c && a != c {
                        let (pa, pb) = (points[a], points[b]);
                        points[c] = [2 * pb[0] - pa[0], 2 * pb[1] - pa[1]];
                    }
                }
                // A repeated point.
                1 => {
                    let (a, b) = (rng.below(n as u64) as usize, rng.below(n as u64) as usize);
                    points[b] = points[a];
                }
                _ => {}
            }
            let fast = collinear_triple(&points, &mut budget()).unwrap();
            assert_eq!(fast, collinear_triple_cubic(&points), "{points:?}");
            if fast.is_some() {
                found += 1;
            } else {
                clean += 1;
            }
        }
        assert!(found > 500 && clean > 500, "{found} {clean}");
    }

    /// The convex fast path's bracket sweep agrees with the pairwise test on random chord sets.
    #[test]
    fn the_convex_crossing_sweep_matches_the_pairwise_test() {
        let points = parabola(9);
        let hull = convex_hull(&points);
        assert_eq!(hull.len(), 9);
        let pairs: Vec<[usize; 2]> = (0..9).flat_map(|a| (a + 1..9).map(move |b| [a, b])).collect();
        let mut rng = Lcg(12345);
        let (mut crossing, mut clean) = (0, 0);
        for _ in 0..3000 {
            let edges: Vec<[usize; 2]> =
                pairs.iter().copied().filter(|_| rng.below(8) == 0).collect();
            let pairwise = crossing_pair(&points, &hull, false, &edges, &mut budget()).unwrap();
            let sweep = crossing_pair(&points, &hull, true, &edges, &mut budget()).unwrap();
            assert_eq!(sweep.is_some(), pairwise.is_some(), "{edges:?}");
            if let Some((i, j)) = sweep {
                let (e, f) = (edges[i], edges[j]);
                assert!(i < j);
                assert!(segments_cross(points[e[0]], points[e[1]], points[f[0]], points[f[1]]));
                crossing += 1;
            } else {
                clean += 1;
            }
        }
        assert!(crossing > 100 && clean > 100, "{crossing} {clean}");
    }

    #[test]
    fn a_large_non_convex_set_is_refused_with_the_bound() {
        let mut points = parabola(MAX_GENERAL_POINTS + 1);
        points.push([1, 100]);
        let err = check_points_hull(&points, &mut budget()).unwrap_err();
        assert!(err.contains("at most 2000"), "{err}");
        // The same points in convex position pass without the general-position check.
        points.pop();
        assert!(check_points_hull(&points, &mut budget()).unwrap().1);
    }

    fn fan(n: usize) -> TriangulationSpec {
        by_triangles(parabola(n), (1..n - 1).map(|i| [0, i, i + 1]).collect())
    }

    #[test]
    fn predicates() {
        assert!(orient([0, 0], [1, 0], [0, 1]) > 0);
        assert!(segments_cross([0, 0], [2, 2], [0, 2], [2, 0]));
        assert!(!segments_cross([0, 0], [2, 2], [0, 0], [2, 0]));
        assert!(strictly_inside([1, 1], [0, 0], [4, 0], [0, 4]));
        assert!(!strictly_inside([5, 5], [0, 0], [4, 0], [0, 4]));
        assert_eq!(collinear_triple(&[[0, 0], [1, 1], [2, 2]], &mut budget()), Ok(Some((0, 1, 2))));
        assert_eq!(convex_hull(&hexagon()).len(), 6);
        let with_inner = vec![[0, 0], [10, 0], [0, 10], [3, 3]];
        assert_eq!(convex_hull(&with_inner), vec![0, 1, 2]);
    }

    #[test]
    fn fans_validate_and_have_the_expected_structure() {
        let t = validate(&fan(7)).unwrap();
        assert_eq!(t.triangles.len(), 5);
        assert_eq!(t.edges.len(), 2 * 7 - 3);
        assert_eq!(t.ears().len(), 2);
        assert!(t.inner_triangles().is_empty());
        let dual = t.dual();
        assert_eq!(dual.iter().filter(|d| d.len() == 1).count(), 2);
        // The same triangulation from its edges.
        assert_eq!(validate(&by_edges(t.points.clone(), t.edges.clone())).unwrap(), t);
    }

    /// Triangles and edges give the same triangulation, convex or not, whatever the order or
    /// orientation of the edges.
    #[test]
    fn edges_and_triangles_give_the_same_triangulation() {
        let mut rng = Lcg(99);
        for round in 0..60 {
            let (points, triangles) = if round % 2 == 0 {
                let n = 3 + rng.below(40) as usize;
                (parabola(n), random_polygon_triangulation(n, &mut rng))
            } else {
                split_triangulation(rng.below(30) as usize, &mut rng)
            };
            let from_triangles = validate(&by_triangles(points.clone(), triangles)).unwrap();
            // Rotate each triangle so its smallest corner comes first, as the edges path does.
            let mut expected = from_triangles.clone();
            for t in &mut expected.triangles {
                let m = (0..3).min_by_key(|&i| t[i]).unwrap();
                t.rotate_left(m);
            }
            expected.triangles.sort();
            let mut edges = from_triangles.edges.clone();
            for e in &mut edges {
                if rng.below(2) == 0 {
                    e.swap(0, 1);
                }
            }
            // Shuffle.
            for i in (1..edges.len()).rev() {
                edges.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let from_edges = validate(&by_edges(points, edges)).unwrap();
            assert_eq!(from_edges, expected);
        }
    }

    #[test]
    fn a_wheel_has_one_inner_point() {
        let points = vec![[0, 0], [10, 1], [11, 9], [1, 10], [5, 4]];
        let spec = by_triangles(points.clone(), vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]]);
        let t = validate(&spec).unwrap();
        assert_eq!(t.inner_points(), vec![4]);
        assert!(t.ears().is_empty());
        let from_edges = validate(&by_edges(points, t.edges.clone())).unwrap();
        assert_eq!(from_edges.edges, t.edges);
        assert_eq!(from_edges.triangles, vec![[0, 1, 4], [0, 4, 3], [1, 2, 4], [2, 3, 4]]);
    }

    /// The hexagon 0..5 cut by the diagonals 0-2, 0-3 and 3-5: the diagonal 1-4 crosses 0-2
    /// and 0-3 (and 3-5), and its endpoints have no common neighbour, so it lies in no 3-cycle.
    fn zigzag_hexagon_edges() -> Vec<[usize; 2]> {
        vec![[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0], [0, 2], [0, 3], [3, 5]]
    }

    /// False acceptance, fixed: an edge list with an extra edge crossing others used to be
    /// "repaired" into the triangulation inside it (the edge lay in no empty 3-cycle and was
    /// dropped). It is refused now, by the count (3n - 3 - h), and a crossing edge standing in
    /// for a diagonal is refused by name.
    #[test]
    fn an_extra_crossing_edge_is_refused_not_dropped() {
        let good = by_edges(hexagon(), zigzag_hexagon_edges());
        assert_eq!(validate(&good).unwrap().triangles.len(), 4);
        let mut extra = good.clone();
        extra.edges.push([1, 4]);
        let err = validate(&extra).unwrap_err();
        assert!(err.contains("10 edges given") && err.contains("3n - 3 - h = 9"), "{err}");
        // The convex pentagon: the fan from 0 with the crossing diagonal 1-3 added.
        let mut pentagon =
            by_edges(parabola(5), vec![[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 2], [0, 3]]);
        assert!(validate(&pentagon).is_ok());
        pentagon.edges.push([1, 3]);
        let err = validate(&pentagon).unwrap_err();
        assert!(err.contains("8 edges given"), "{err}");
        // The right count, one diagonal replaced by a crossing one: named.
        pentagon.edges.remove(6);
        let err = validate(&pentagon).unwrap_err();
        assert_eq!(err, "edges[5] [0, 2] and edges[6] [1, 3] cross");
        // The same on a non-convex set (the wheel): the spoke 0-4 replaced by the crossing 0-2.
        let wheel = vec![[0, 0], [10, 1], [11, 9], [1, 10], [5, 4]];
        let mut spokes =
            by_edges(wheel, vec![[0, 1], [1, 2], [2, 3], [3, 0], [1, 4], [2, 4], [3, 4], [0, 2]]);
        let err = validate(&spokes).unwrap_err();
        assert_eq!(err, "edges[6] [3, 4] and edges[7] [0, 2] cross");
        spokes.edges[7] = [4, 0];
        assert!(validate(&spokes).is_ok());
    }

    #[test]
    fn bad_edge_lists_are_refused_naming_the_edge() {
        let mut twice = by_edges(hexagon(), zigzag_hexagon_edges());
        twice.edges[8] = [2, 0];
        let err = validate(&twice).unwrap_err();
        assert_eq!(
            err,
            "edges[6] [0, 2] and edges[8] [2, 0] are the same edge: an edge may be given only \
             once"
        );
        let mut same_way = by_edges(hexagon(), zigzag_hexagon_edges());
        same_way.edges[8] = [1, 2];
        let err = validate(&same_way).unwrap_err();
        assert!(err.starts_with("edges[1] [1, 2] and edges[8] [1, 2] are the same edge"));
        let mut loop_edge = by_edges(hexagon(), zigzag_hexagon_edges());
        loop_edge.edges[4] = [4, 4];
        assert_eq!(validate(&loop_edge).unwrap_err(), "edges[4] [4, 4] joins a point to itself");
        let mut far = by_edges(hexagon(), zigzag_hexagon_edges());
        far.edges[3] = [3, usize::MAX];
        assert!(validate(&far)
            .unwrap_err()
            .starts_with(&format!("edges[3] [3, {}] names point", usize::MAX)));
        let both = TriangulationSpec {
            triangles: vec![[0, 1, 2]],
            ..by_edges(hexagon(), zigzag_hexagon_edges())
        };
        assert!(validate(&both).unwrap_err().contains("not both"));
        assert!(validate(&by_edges(hexagon(), vec![]))
            .unwrap_err()
            .contains("no triangles and no edges"));
    }

    /// A complete graph is refused by the count, in O(1) after the hull: a budget far below
    /// the square of its edge count suffices (the old 3-cycle enumeration was cubic).
    #[test]
    fn a_complete_graph_is_refused_by_its_count() {
        let n = 300;
        let complete: Vec<[usize; 2]> =
            (0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b])).collect();
        let mut points = parabola(n);
        let spec = by_edges(points.clone(), complete.clone());
        let err = spec.validate(&mut Budget::new(1_000_000)).unwrap_err();
        assert_eq!(
            err,
            "44850 edges given, but every triangulation of these 300 points in general position \
             (300 of them on the convex hull) has exactly 3n - 3 - h = 597 edges: an edge list \
             must be exactly the edges of one triangulation"
        );
        // Not in convex position either (one point pulled inside).
        points[150] = [150, 150 * 150 + 1];
        let err = by_edges(points, complete).validate(&mut Budget::new(1_000_000)).unwrap_err();
        assert!(err.starts_with("44850 edges given"), "{err}");
        assert!(err.contains("(299 of them on the convex hull)"), "{err}");
    }

    /// A triangle list of the wrong length is refused before the quadratic crossing and
    /// emptiness tests: with a budget far below their cost the error is still the count.
    #[test]
    fn a_wrong_triangle_count_is_refused_before_the_crossing_test() {
        let (points, mut triangles) = split_triangulation(200, &mut Lcg(5));
        let extra = triangles.clone();
        for _ in 0..100 {
            triangles.extend_from_slice(&extra);
        }
        let t = triangles.len();
        let err =
            by_triangles(points, triangles).validate(&mut Budget::new(10_000_000)).unwrap_err();
        assert_eq!(
            err,
            format!(
                "{t} triangles given, but every triangulation of these 203 points in general \
                 position (3 of them on the convex hull) has exactly 2n - 2 - h = 401 \
                 triangles: the triangles overlap or leave a gap"
            )
        );
    }

    #[test]
    fn coordinates_are_range_checked_without_overflow() {
        for bad in [i64::MIN, i64::MIN + 1, i64::MAX, MAX_COORDINATE + 1, -MAX_COORDINATE - 1] {
            let mut spec = fan(5);
            spec.points[2] = [3, bad];
            assert_eq!(
                validate(&spec).unwrap_err(),
                format!("points[2] (3, {bad}) is beyond the coordinate limit 2^40")
            );
            spec.points[2] = [bad, 3];
            assert!(validate(&spec).unwrap_err().starts_with("points[2]"));
        }
        // The extreme coordinates themselves are fine, and exact.
        let m = MAX_COORDINATE;
        let corners = by_triangles(
            vec![[-m, -m], [m, -m], [m, m], [-m, m], [1, 2]],
            vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]],
        );
        let t = validate(&corners).unwrap();
        assert_eq!(validate(&by_edges(t.points.clone(), t.edges)).unwrap().triangles.len(), 4);
    }

    #[test]
    fn a_small_budget_is_an_error_naming_the_work_limit() {
        let spec = by_edges(hexagon(), zigzag_hexagon_edges());
        for limit in [0, 10, 100] {
            let err = spec.validate(&mut Budget::new(limit)).unwrap_err();
            assert!(err.contains("work limit reached while"), "{err}");
            assert!(err.contains(&format!("the {limit} work units")), "{err}");
        }
        let mut b = budget();
        spec.validate(&mut b).unwrap();
        let used = b.used();
        assert!(used > 100, "{used}");
        assert!(spec.validate(&mut Budget::new(used)).is_ok());
        assert!(spec.validate(&mut Budget::new(used - 1)).is_err());
    }

    #[test]
    fn bad_triangulations_are_refused_with_a_reason() {
        let mut missing = fan(6);
        missing.triangles.pop();
        let err = validate(&missing).unwrap_err();
        assert!(
            err.contains("3 triangles given") && err.contains("overlap or leave a gap"),
            "{err}"
        );
        // The right count, a side crossing another.
        let mut crossing = fan(5);
        crossing.triangles = vec![[0, 1, 2], [0, 2, 3], [1, 3, 4]];
        assert_eq!(
            validate(&crossing).unwrap_err(),
            "the side 0-2 of triangles[0] [0, 1, 2] and the side 1-4 of triangles[2] [1, 3, 4] \
             cross"
        );
        // Collinear points (3 hull vertices, so 3 triangles pass the count).
        let collinear = by_triangles(
            vec![[0, 0], [1, 1], [2, 2], [0, 5]],
            vec![[0, 1, 3], [1, 2, 3], [0, 2, 3]],
        );
        assert!(validate(&collinear)
            .unwrap_err()
            .contains("points[0], points[1] and points[2] are collinear"));
        let mut twice = fan(5);
        twice.points[3] = twice.points[1];
        assert!(validate(&twice)
            .unwrap_err()
            .contains("points[1] and points[3] are the same point"));
        // The same triangle twice, standing in for a missing face of the same area (found by
        // review: it passed the crossing, emptiness and area checks).
        let twice_triangle = by_triangles(
            vec![[0, 0], [5, -10], [10, 0], [9, 6], [5, 10], [1, 6]],
            vec![[0, 1, 2], [1, 2, 0], [2, 3, 4], [4, 5, 0]],
        );
        assert!(validate(&twice_triangle).unwrap_err().contains(
            "triangles[0] [0, 1, 2] and triangles[1] [1, 2, 0] are the same triangle [0, 1, 2]"
        ));
        // Two triangles on the same side of an edge.
        let mut overlap = fan(5);
        overlap.triangles[2] = [0, 2, 4];
        assert_eq!(
            validate(&overlap).unwrap_err(),
            "triangles[1] [0, 2, 3] and triangles[2] [0, 2, 4] both lie to the left of the side \
             0-2: they overlap"
        );
        let mut degenerate = fan(5);
        degenerate.triangles[0] = [0, 1, 1];
        assert!(validate(&degenerate)
            .unwrap_err()
            .contains("triangles[0] [0, 1, 1] does not have three distinct corners"));
        let mut out_of_range = fan(5);
        out_of_range.triangles[0] = [0, 1, 9];
        assert!(validate(&out_of_range)
            .unwrap_err()
            .contains("triangles[0] [0, 1, 9] names point 9"));
        // A triangle with a point inside: refused (by the shared side 0-1 first), and the
        // emptiness test, a backstop behind the crossing and side tests, finds the point.
        let not_empty = by_triangles(
            vec![[0, 0], [10, 0], [0, 10], [2, 3], [20, 20]],
            vec![[0, 1, 2], [1, 4, 2], [0, 1, 3], [0, 3, 2]],
        );
        assert!(validate(&not_empty).unwrap_err().contains("overlap"));
        assert_eq!(point_inside(&not_empty.points, &not_empty.triangles), Some((0, 3)));
        assert_eq!(point_inside(&not_empty.points, &not_empty.triangles[1..]), None);
    }

    /// Not a test of correctness: the times of the large cases of the module docs, in a
    /// release build (`cargo test --release -p gamecert-certificates large_validation --
    /// --ignored --nocapture`).
    #[test]
    #[ignore]
    fn large_validation_times() {
        let mut rng = Lcg(1);
        let n = 100_000;
        let points = parabola(n);
        let triangles = random_polygon_triangulation(n, &mut rng);
        let t = validate(&by_triangles(points.clone(), triangles)).unwrap();
        let spec = by_edges(points, t.edges.clone());
        let mut b = Budget::new(u64::MAX);
        let start = std::time::Instant::now();
        spec.validate(&mut b).unwrap();
        println!(
            "{n} points in convex position, by edges: {:?}, {} work units",
            start.elapsed(),
            b.used()
        );
        let (points, triangles) = split_triangulation(MAX_GENERAL_POINTS - 3, &mut rng);
        let t = validate(&by_triangles(points.clone(), triangles.clone())).unwrap();
        for (what, spec) in [
            ("triangles", by_triangles(points.clone(), triangles)),
            ("edges", by_edges(points, t.edges.clone())),
        ] {
            let mut b = Budget::new(u64::MAX);
            let start = std::time::Instant::now();
            spec.validate(&mut b).unwrap();
            println!(
                "{} points not in convex position, by {what}: {:?}, {} work units",
                MAX_GENERAL_POINTS,
                start.elapsed(),
                b.used()
            );
        }
    }
}

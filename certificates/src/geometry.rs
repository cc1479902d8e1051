//! Planar geometry on integer coordinates with exact predicates, for the games on
//! triangulations (seed 000, Aichholzer et al.). No floating point decides anything: every
//! predicate is the sign of a cross product computed in `i128` (coordinates are `i64` limited
//! to |x|, |y| <= 2^40, so products fit).
//!
//! A point set must be in general position (no three points collinear): the paper assumes it,
//! and it makes "crossing" unambiguous (two segments either share an endpoint or cross
//! properly or are disjoint). A triangulation is given by its triangles (or by its edges, from
//! which the triangles are recovered as the empty 3-cycles) and validated: every triangle
//! non-degenerate and empty of points, no two edges crossing, and the triangles' total area
//! equal to the convex hull's. Those three facts make it a triangulation of the whole hull
//! (an overlap would need a crossing or a point inside a triangle, a gap would lose area), and
//! then every point is a vertex (it lies in the hull, in no triangle's interior, and not on an
//! edge by general position); that is checked too, for a clear message.
//!
//! Points in convex position (every point a vertex of the hull) take a fast path with the same
//! conclusions: the hull shows general position, no point can lie inside a triangle, and two
//! edges cross iff their endpoints interleave along the hull, which a bracket-matching sweep
//! checks in O(m log m). So large convex triangulations (10^5 points and more) validate in
//! near-linear time; other point sets are limited to [`MAX_GENERAL_POINTS`] (the general-
//! position check tries every triple) and their validation is quadratic in the edges.
//!
//! Derived structure: the edges (hull edges and inner diagonals), the dual graph (triangles
//! sharing an edge), inner triangles (no hull edge) and ears (two hull edges).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Largest absolute coordinate.
pub const MAX_COORDINATE: i64 = 1 << 40;

/// A point with integer coordinates.
pub type Point = [i64; 2];

/// Twice the signed area of triangle abc: positive iff a, b, c turn counter-clockwise.
pub fn orient(a: Point, b: Point, c: Point) -> i128 {
    let (ax, ay) = (a[0] as i128, a[1] as i128);
    (b[0] as i128 - ax) * (c[1] as i128 - ay) - (b[1] as i128 - ay) * (c[0] as i128 - ax)
}

/// The first collinear triple (by indices), if any: O(n^3), meant for the small sets the
/// games are played on.
pub fn collinear_triple(points: &[Point]) -> Option<(usize, usize, usize)> {
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

/// Checks coordinates and general position; the error names the points.
pub fn check_points(points: &[Point]) -> Result<(), String> {
    check_coordinates(points)?;
    if let Some((i, j, k)) = collinear_triple(points) {
        return Err(format!(
            "points {i}, {j} and {k} are collinear: the games need points in general position"
        ));
    }
    Ok(())
}

/// At least three points, every coordinate within the limit.
fn check_coordinates(points: &[Point]) -> Result<(), String> {
    if points.len() < 3 {
        return Err(format!(
            "{} points: a triangulation needs at least 3",
            points.len()
        ));
    }
    if let Some(i) = points
        .iter()
        .position(|p| p[0].abs() > MAX_COORDINATE || p[1].abs() > MAX_COORDINATE)
    {
        return Err(format!(
            "point {i} ({}, {}) is beyond the coordinate limit 2^40",
            points[i][0], points[i][1]
        ));
    }
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| points[i]);
    if let Some(w) = order.windows(2).find(|w| points[w[0]] == points[w[1]]) {
        let (i, j) = (w[0].min(w[1]), w[0].max(w[1]));
        return Err(format!(
            "points {i} and {j} are the same point ({}, {}): a point may be given only once",
            points[i][0], points[i][1]
        ));
    }
    Ok(())
}

/// Largest point set not in convex position that is checked for general position (the check
/// tries every triple). Sets in convex position have no limit: there the hull alone shows
/// general position.
pub const MAX_GENERAL_POINTS: usize = 2_000;

/// Checks coordinates and general position and returns the convex hull and whether every
/// point is on it. When every point is a vertex of the hull (which drops collinear and repeated
/// points), the points are in strictly convex position, so no three are collinear, and the
/// cubic check is skipped.
pub fn check_points_hull(points: &[Point]) -> Result<(Vec<usize>, bool), String> {
    check_coordinates(points)?;
    let hull = convex_hull(points);
    let convex = hull.len() == points.len();
    if !convex {
        if points.len() > MAX_GENERAL_POINTS {
            return Err(format!(
                "{} points not in convex position: checking general position tries every triple, \
                 so at most {MAX_GENERAL_POINTS} are taken (sets in convex position have no limit)",
                points.len()
            ));
        }
        check_points(points)?;
    }
    Ok((hull, convex))
}

/// For points in convex position (`hull` lists them all): two edges that cross, if any. Edges
/// cross iff their endpoints interleave along the hull, so the edges must nest like brackets;
/// a sweep over the edges sorted by their first hull position finds a violation in
/// O(m log m).
fn crossing_chords(hull: &[usize], edges: &[[usize; 2]]) -> Option<([usize; 2], [usize; 2])> {
    let mut rank = vec![0; hull.len()];
    for (i, &v) in hull.iter().enumerate() {
        rank[v] = i;
    }
    let mut spans: Vec<(usize, usize, [usize; 2])> = edges
        .iter()
        .map(|&e| {
            let (a, b) = (rank[e[0]], rank[e[1]]);
            (a.min(b), a.max(b), e)
        })
        .collect();
    spans.sort_by_key(|&(a, b, _)| (a, std::cmp::Reverse(b)));
    let mut open: Vec<(usize, usize, [usize; 2])> = Vec::new();
    for span in spans {
        while open.last().is_some_and(|top| top.1 <= span.0) {
            open.pop();
        }
        if let Some(top) = open.last() {
            if top.1 < span.1 {
                return Some((top.2, span.2));
            }
        }
        open.push(span);
    }
    None
}

/// The convex hull's vertices in counter-clockwise order, starting from the lowest-leftmost
/// point (Andrew's monotone chain); assumes general position.
pub fn convex_hull(points: &[Point]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| (points[i][0], points[i][1]));
    let mut hull: Vec<usize> = Vec::new();
    for pass in 0..2 {
        let start = hull.len();
        let sequence: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(order.iter())
        } else {
            Box::new(order.iter().rev())
        };
        for &i in sequence {
            while hull.len() >= start + 2
                && orient(
                    points[hull[hull.len() - 2]],
                    points[hull[hull.len() - 1]],
                    points[i],
                ) <= 0
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
    /// Validates the spec (see the module docs) into a [`Triangulation`].
    pub fn validate(&self) -> Result<Triangulation, String> {
        let points = &self.points;
        let (hull, convex) = check_points_hull(points)?;
        let n = points.len();
        let in_range = |i: usize, what: &str| {
            if i < n {
                Ok(i)
            } else {
                Err(format!("{what} names point {i}, but there are {n} points"))
            }
        };
        let mut triangles: Vec<[usize; 3]> =
            match (self.triangles.is_empty(), self.edges.is_empty()) {
                (false, true) => self.triangles.clone(),
                (true, false) => triangles_from_edges(points, &self.edges, convex)?,
                (false, false) => return Err("give triangles or edges, not both".into()),
                (true, true) => return Err("no triangles and no edges".into()),
            };
        for (k, t) in triangles.iter_mut().enumerate() {
            for &v in t.iter() {
                in_range(v, &format!("triangle {k}"))?;
            }
            let o = orient(points[t[0]], points[t[1]], points[t[2]]);
            if o == 0 {
                return Err(format!("triangle {k} {t:?} is degenerate"));
            }
            if o < 0 {
                t.swap(1, 2);
            }
            // In convex position no point lies inside a triangle of points.
            if let Some(p) = (0..n).filter(|_| !convex).find(|&p| {
                !t.contains(&p)
                    && strictly_inside(points[p], points[t[0]], points[t[1]], points[t[2]])
            }) {
                return Err(format!("triangle {k} {t:?} contains point {p}: not empty"));
            }
        }
        // A triangle given twice overlaps itself without a crossing or a point inside, and can
        // stand in for a missing face of the same area: refuse it here, naming both.
        let mut seen: HashMap<[usize; 3], usize> = HashMap::new();
        for (k, t) in triangles.iter().enumerate() {
            let mut key = *t;
            key.sort_unstable();
            if let Some(first) = seen.insert(key, k) {
                return Err(format!(
                    "triangles {first} and {k} are the same triangle {key:?}: a triangle may be \
                     given only once"
                ));
            }
        }
        let mut edges: BTreeSet<[usize; 2]> = BTreeSet::new();
        for t in &triangles {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                edges.insert(edge(a, b));
            }
        }
        let edges: Vec<[usize; 2]> = edges.into_iter().collect();
        if convex {
            if let Some((e, f)) = crossing_chords(&hull, &edges) {
                return Err(format!(
                    "edges {}-{} and {}-{} cross",
                    e[0], e[1], f[0], f[1]
                ));
            }
        }
        for (i, e) in edges.iter().enumerate().filter(|_| !convex) {
            for f in &edges[i + 1..] {
                if segments_cross(points[e[0]], points[e[1]], points[f[0]], points[f[1]]) {
                    return Err(format!(
                        "edges {}-{} and {}-{} cross",
                        e[0], e[1], f[0], f[1]
                    ));
                }
            }
        }
        let hull_area: i128 = (1..hull.len() - 1)
            .map(|i| orient(points[hull[0]], points[hull[i]], points[hull[i + 1]]))
            .sum();
        let area: i128 = triangles
            .iter()
            .map(|t| orient(points[t[0]], points[t[1]], points[t[2]]))
            .sum();
        if area != hull_area {
            return Err(format!(
                "the triangles cover an area of {} but the convex hull has {} (in half units): \
                 they overlap or leave a gap",
                area, hull_area
            ));
        }
        let mut used = vec![false; n];
        for &v in triangles.iter().flatten() {
            used[v] = true;
        }
        if let Some(p) = used.iter().position(|&u| !u) {
            return Err(format!("point {p} is in no triangle"));
        }
        triangles.sort();
        let mut hull_rank = vec![None; n];
        for (i, &v) in hull.iter().enumerate() {
            hull_rank[v] = Some(i);
        }
        Ok(Triangulation {
            points: points.clone(),
            triangles,
            edges,
            hull,
            hull_rank,
        })
    }
}

/// The empty 3-cycles of an edge set (the faces of a triangulation given by its edges).
fn triangles_from_edges(
    points: &[Point],
    edges: &[[usize; 2]],
    convex: bool,
) -> Result<Vec<[usize; 3]>, String> {
    let n = points.len();
    let mut adjacent = vec![BTreeSet::new(); n];
    for (k, e) in edges.iter().enumerate() {
        if e[0] >= n || e[1] >= n || e[0] == e[1] {
            return Err(format!(
                "edge {k} {e:?} is not a pair of distinct points of 0..{n}"
            ));
        }
        adjacent[e[0]].insert(e[1]);
        adjacent[e[1]].insert(e[0]);
    }
    let mut out = Vec::new();
    for a in 0..n {
        for &b in adjacent[a].range(a + 1..) {
            for &c in adjacent[b].range(b + 1..) {
                if adjacent[a].contains(&c)
                    && (convex
                        || !(0..n)
                            .any(|p| strictly_inside(points[p], points[a], points[b], points[c])))
                {
                    out.push([a, b, c]);
                }
            }
        }
    }
    Ok(out)
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
        (0..self.triangles.len())
            .filter(|&k| self.hull_edges(&self.triangles[k]) == 0)
            .collect()
    }

    /// Triangles with two hull edges.
    pub fn ears(&self) -> Vec<usize> {
        (0..self.triangles.len())
            .filter(|&k| self.hull_edges(&self.triangles[k]) == 2)
            .collect()
    }

    /// Points not on the convex hull.
    pub fn inner_points(&self) -> Vec<usize> {
        (0..self.points.len())
            .filter(|&p| self.hull_rank[p].is_none())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A convex hexagon: (i, i^2) for i = 0..6 is in convex position with no three collinear.
    fn hexagon() -> Vec<Point> {
        (0..6).map(|i| [i, i * i]).collect()
    }

    /// The convex fast path's bracket sweep agrees with the pairwise test on random chord sets.
    #[test]
    fn the_convex_crossing_sweep_matches_the_pairwise_test() {
        let points: Vec<Point> = (0..9).map(|i| [i, i * i]).collect();
        let hull = convex_hull(&points);
        assert_eq!(hull.len(), 9);
        let pairs: Vec<[usize; 2]> = (0..9)
            .flat_map(|a| (a + 1..9).map(move |b| [a, b]))
            .collect();
        let mut state = 12345u64;
        let (mut crossing, mut clean) = (0, 0);
        for _ in 0..3000 {
            let edges: Vec<[usize; 2]> = pairs
                .iter()
                .copied()
                .filter(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    state >> 61 == 0
                })
                .collect();
            let pairwise = edges.iter().enumerate().any(|(i, e)| {
                edges[i + 1..]
                    .iter()
                    .any(|f| segments_cross(points[e[0]], points[e[1]], points[f[0]], points[f[1]]))
            });
            let sweep = crossing_chords(&hull, &edges);
            assert_eq!(sweep.is_some(), pairwise, "{edges:?}");
            if let Some((e, f)) = sweep {
                assert!(segments_cross(
                    points[e[0]],
                    points[e[1]],
                    points[f[0]],
                    points[f[1]]
                ));
                crossing += 1;
            } else {
                clean += 1;
            }
        }
        assert!(crossing > 100 && clean > 100, "{crossing} {clean}");
    }

    #[test]
    fn a_large_non_convex_set_is_refused_with_the_bound() {
        let mut points: Vec<Point> = (0..MAX_GENERAL_POINTS as i64 + 1)
            .map(|i| [i, i * i])
            .collect();
        points.push([1, 100]);
        let err = check_points_hull(&points).unwrap_err();
        assert!(err.contains("at most 2000"), "{err}");
        // The same points in convex position pass without the cubic check.
        points.pop();
        assert!(check_points_hull(&points).unwrap().1);
    }

    fn fan(n: usize) -> TriangulationSpec {
        let points: Vec<Point> = (0..n as i64).map(|i| [i, i * i]).collect();
        TriangulationSpec {
            points,
            triangles: (1..n - 1).map(|i| [0, i, i + 1]).collect(),
            edges: vec![],
        }
    }

    #[test]
    fn predicates() {
        assert!(orient([0, 0], [1, 0], [0, 1]) > 0);
        assert!(segments_cross([0, 0], [2, 2], [0, 2], [2, 0]));
        assert!(!segments_cross([0, 0], [2, 2], [0, 0], [2, 0]));
        assert!(strictly_inside([1, 1], [0, 0], [4, 0], [0, 4]));
        assert!(!strictly_inside([5, 5], [0, 0], [4, 0], [0, 4]));
        assert_eq!(collinear_triple(&[[0, 0], [1, 1], [2, 2]]), Some((0, 1, 2)));
        assert_eq!(convex_hull(&hexagon()).len(), 6);
        let with_inner = vec![[0, 0], [10, 0], [0, 10], [3, 3]];
        assert_eq!(convex_hull(&with_inner), vec![0, 1, 2]);
    }

    #[test]
    fn fans_validate_and_have_the_expected_structure() {
        let t = fan(7).validate().unwrap();
        assert_eq!(t.triangles.len(), 5);
        assert_eq!(t.edges.len(), 2 * 7 - 3);
        assert_eq!(t.ears().len(), 2);
        assert!(t.inner_triangles().is_empty());
        let dual = t.dual();
        assert_eq!(dual.iter().filter(|d| d.len() == 1).count(), 2);
        // The same triangulation from its edges.
        let by_edges = TriangulationSpec {
            points: t.points.clone(),
            triangles: vec![],
            edges: t.edges.clone(),
        };
        assert_eq!(by_edges.validate().unwrap(), t);
    }

    #[test]
    fn a_wheel_has_one_inner_point() {
        let points = vec![[0, 0], [10, 1], [11, 9], [1, 10], [5, 4]];
        let spec = TriangulationSpec {
            points,
            triangles: vec![[0, 1, 4], [1, 2, 4], [2, 3, 4], [3, 0, 4]],
            edges: vec![],
        };
        let t = spec.validate().unwrap();
        assert_eq!(t.inner_points(), vec![4]);
        assert!(t.ears().is_empty());
    }

    #[test]
    fn bad_triangulations_are_refused_with_a_reason() {
        let mut missing = fan(6);
        missing.triangles.pop();
        assert!(missing.validate().unwrap_err().contains("area"));
        let mut crossing = fan(5);
        crossing.triangles = vec![[0, 1, 2], [0, 2, 3], [1, 3, 4], [0, 3, 4]];
        assert!(crossing.validate().is_err());
        let collinear = TriangulationSpec {
            points: vec![[0, 0], [1, 1], [2, 2], [0, 5]],
            triangles: vec![[0, 2, 3]],
            edges: vec![],
        };
        assert!(collinear.validate().unwrap_err().contains("collinear"));
        let mut twice = fan(5);
        twice.points[3] = twice.points[1];
        assert!(twice
            .validate()
            .unwrap_err()
            .contains("points 1 and 3 are the same point"));
        // The convex fast path: a crossing diagonal given as an extra edge, an extra triangle.
        let mut extra_edge = TriangulationSpec {
            edges: vec![
                [0, 1],
                [1, 2],
                [2, 3],
                [3, 4],
                [0, 4],
                [0, 2],
                [0, 3],
                [1, 3],
            ],
            triangles: vec![],
            ..fan(5)
        };
        assert!(extra_edge.validate().unwrap_err().contains("cross"));
        extra_edge.edges.pop();
        assert!(extra_edge.validate().is_ok());
        // The same triangle twice, standing in for a missing face of the same area (found by
        // review: it passed the crossing, emptiness and area checks).
        let twice_triangle = TriangulationSpec {
            points: vec![[0, 0], [5, -10], [10, 0], [9, 6], [5, 10], [1, 6]],
            triangles: vec![[0, 1, 2], [1, 2, 0], [2, 3, 4], [4, 5, 0]],
            edges: vec![],
        };
        assert!(twice_triangle
            .validate()
            .unwrap_err()
            .contains("triangles 0 and 1 are the same triangle"));
        let mut overlap = fan(5);
        overlap.triangles.push([1, 2, 3]);
        assert!(overlap.validate().is_err());
        let mut far = fan(5);
        far.points[2] = [3, MAX_COORDINATE + 1];
        assert!(far.validate().unwrap_err().contains("limit 2^40"));
        let mut out_of_range = fan(5);
        out_of_range.triangles[0] = [0, 1, 9];
        assert!(out_of_range
            .validate()
            .unwrap_err()
            .contains("names point 9"));
        let not_empty = TriangulationSpec {
            points: vec![[0, 0], [10, 0], [0, 10], [2, 3]],
            triangles: vec![[0, 1, 2]],
            edges: vec![],
        };
        assert!(not_empty
            .validate()
            .unwrap_err()
            .contains("contains point 3"));
    }
}

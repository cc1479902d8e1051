//! Where a picture puts the points of a point set (seed 000's games): coordinates that keep the
//! point set's ORDER TYPE, the orientation of every triple of points, so that the picture shows
//! the same game (which segments cross, which triangles are empty, which quadrilaterals are
//! convex: every predicate the rules use is an orientation) while triangles and labels stay
//! readable. The generators put convex position on the parabola (i, i^2), whose true picture is
//! a needle of slivers.
//!
//! The choice, first that applies ([`layout`]):
//! 1. The true coordinates, when they are readable already ([`Drawn::TrueShape`]): every triple
//!    at least [`Readability::min_height`] from collinear and every two points
//!    [`Readability::min_distance`] apart. A set whose bounding box is flat is scaled to a
//!    square first, an affine map with positive determinant ([`Drawn::Stretched`]), which keeps
//!    every orientation.
//! 2. Convex position (every point a vertex of the hull): the points evenly on a circle in the
//!    hull's counter-clockwise order ([`Drawn::OnCircle`]). Three points of a convex polygon,
//!    taken in its cyclic order, always turn counter-clockwise, so the cyclic order alone
//!    decides the order type and any convex placement in that order has it.
//! 3. One point inside the hull (the wheel): it at the centre of a circle, the hull on the
//!    circle at angles that keep the cyclic order of the directions from the centre to the hull
//!    points and their opposites, which decides the order type ([`Drawn::Relaxed`]; see
//!    `one_inside`).
//! 4. Otherwise, up to [`MAX_RELAXED_POINTS`] points, a relaxation ([`Drawn::Relaxed`]): from
//!    the stretched true coordinates, or from a projective map of them that rounds the hull
//!    (which keeps every orientation when no point crosses the line it sends to infinity),
//!    each point in turn moves a bounded step inside its *cell*, the region where every triple
//!    it forms with two other points keeps its orientation and a height of at least the
//!    current least height of any triple; hull points move towards evenly spaced places on a
//!    circle, inner points towards the place farthest from flat. Each move keeps every
//!    orientation, so the result has the order type by construction, and the least height
//!    never falls; the result is still checked triple by triple ([`check_order_type`]), and
//!    kept only if it passes and is less flat than the true coordinates.
//! 5. Otherwise the (stretched) true coordinates.
//!
//! The orientation of the original points is computed exactly
//! ([`gamecert_certificates::triangulations::geometry::orient`]); floating point only places points on the
//! page. Drawing only: nothing here decides anything about a game.

use gamecert_certificates::triangulations::geometry::{convex_hull, orient, Point};

/// Larger sets are not relaxed (each sweep is cubic in the points).
pub const MAX_RELAXED_POINTS: usize = 64;

/// How a layout relates to the true coordinates; [`Drawn::caption`] says it in a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The true coordinates, one scale for both axes.
    TrueShape,
    /// The true coordinates with x and y scaled to a square (an affine map).
    Stretched,
    /// Convex position: evenly on a circle in the same cyclic order.
    OnCircle,
    /// Moved point by point, each move keeping every orientation.
    Relaxed,
}

impl Drawn {
    /// The note a picture carries about its coordinates (empty for the true shape).
    pub fn caption(self) -> &'static str {
        match self {
            Drawn::TrueShape => "",
            Drawn::Stretched => {
                "True coordinates with x and y scaled to a square (an affine map: the same \
                 order type)."
            }
            Drawn::OnCircle => {
                "Drawn on a circle in the same cyclic order: the same order type, not the true \
                 coordinates."
            }
            Drawn::Relaxed => "Drawn with the same order type, not the true coordinates.",
        }
    }
}

/// A placement: each point's (x, y) in [-1, 1]^2, y up.
#[derive(Clone, Debug)]
pub struct Layout {
    pub at: Vec<[f64; 2]>,
    pub drawn: Drawn,
}

/// What "readable" asks of a layout, in its [-1, 1]^2 units.
#[derive(Clone, Copy, Debug)]
pub struct Readability {
    /// Every point at least this far from the line through any two others.
    pub min_height: f64,
    /// Every two points at least this far apart.
    pub min_distance: f64,
}

/// The least distance from a point to the line through two others, over every triple, and the
/// least distance between two points. Cubic in the points.
pub fn spread(at: &[[f64; 2]]) -> (f64, f64) {
    let n = at.len();
    let (mut height, mut distance) = (f64::INFINITY, f64::INFINITY);
    for a in 0..n {
        for b in a + 1..n {
            distance = distance.min(dist(at[a], at[b]));
            for c in b + 1..n {
                height = height.min(least_height(at[a], at[b], at[c]));
            }
        }
    }
    (height, distance)
}

fn dist(a: [f64; 2], b: [f64; 2]) -> f64 {
    (a[0] - b[0]).hypot(a[1] - b[1])
}

/// Twice the signed area of abc (positive: counter-clockwise).
pub fn orient_f(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
}

/// The smallest height of triangle abc: twice its area over its longest side.
pub fn least_height(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let longest = dist(a, b).max(dist(b, c)).max(dist(a, c));
    if longest == 0.0 {
        return 0.0;
    }
    orient_f(a, b, c).abs() / longest
}

/// Whether `at` has the order type of `points`: every triple turns the same way, and no drawn
/// triple is closer to collinear than `min_height` (so that rounding the picture cannot flip
/// one). The first offending triple is named. Cubic in the points.
pub fn check_order_type(points: &[Point], at: &[[f64; 2]], min_height: f64) -> Result<(), String> {
    if points.len() != at.len() {
        return Err(format!("{} points but {} places", points.len(), at.len()));
    }
    let n = points.len();
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                let exact = orient(points[a], points[b], points[c]).signum();
                let drawn = orient_f(at[a], at[b], at[c]);
                let height = least_height(at[a], at[b], at[c]);
                if exact == 0 || (drawn > 0.0) != (exact > 0) || height < min_height {
                    return Err(format!(
                        "triple ({a}, {b}, {c}): orientation {exact} in the points, drawn \
                         {drawn:.3e} with height {height:.3e}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The true coordinates mapped into [-1, 1]^2, centred: one scale for both axes when the
/// bounding box is at most 1.5 times longer one way than the other, else each axis scaled to
/// the square. Both maps are affine with positive determinant.
fn true_coordinates(points: &[Point]) -> Layout {
    let fold = |k: usize| {
        points
            .iter()
            .fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p[k] as f64), hi.max(p[k] as f64)))
    };
    let ((x0, x1), (y0, y1)) = (fold(0), fold(1));
    let (sx, sy) = ((x1 - x0).max(1.0), (y1 - y0).max(1.0));
    let stretched = sx > 1.5 * sy || sy > 1.5 * sx;
    let (kx, ky) =
        if stretched { (2.0 / sx, 2.0 / sy) } else { (2.0 / sx.max(sy), 2.0 / sx.max(sy)) };
    let at = points
        .iter()
        .map(|p| [(p[0] as f64 - (x0 + x1) / 2.0) * kx, (p[1] as f64 - (y0 + y1) / 2.0) * ky])
        .collect();
    Layout { at, drawn: if stretched { Drawn::Stretched } else { Drawn::TrueShape } }
}

/// `n` points evenly on the unit circle, counter-clockwise from angle `start`.
fn circle(n: usize, start: f64) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let angle = start + std::f64::consts::TAU * k as f64 / n as f64;
            [angle.cos(), angle.sin()]
        })
        .collect()
}

/// The vertices 0..n of a convex polygon in counter-clockwise order (an abstract convex
/// polygon, or any set in convex position once its hull order is known), evenly on a circle
/// with vertex 0 at the bottom.
pub fn convex_polygon(n: usize) -> Layout {
    Layout { at: circle(n, -std::f64::consts::FRAC_PI_2), drawn: Drawn::OnCircle }
}

/// The layout of `points` (in general position, as every validated instance is) under the
/// rules in the module docs.
pub fn layout(points: &[Point], want: Readability) -> Layout {
    let n = points.len();
    let plain = true_coordinates(points);
    if n < 3 {
        return plain;
    }
    if n <= MAX_RELAXED_POINTS {
        let (height, distance) = spread(&plain.at);
        if height >= want.min_height && distance >= want.min_distance {
            return plain;
        }
    }
    let hull = convex_hull(points);
    if hull.len() == n {
        // Start the circle at hull vertex 0's own direction, so the picture keeps its bearings.
        let centre = mean(&plain.at);
        let first = plain.at[hull[0]];
        let start = (first[1] - centre[1]).atan2(first[0] - centre[0]);
        let mut at = vec![[0.0; 2]; n];
        for (slot, place) in hull.iter().zip(circle(n, start)) {
            at[*slot] = place;
        }
        return Layout { at, drawn: Drawn::OnCircle };
    }
    if hull.len() + 1 == n {
        if let Some(wheel) = one_inside(points, &hull) {
            return wheel;
        }
    }
    if n > MAX_RELAXED_POINTS {
        return plain;
    }
    // Hull points aim at evenly spaced places on the circle in hull order, starting where hull
    // vertex 0 points; inner points at their cell's centre.
    let centre = mean(&plain.at);
    let first = plain.at[hull[0]];
    let circle_places = circle(hull.len(), (first[1] - centre[1]).atan2(first[0] - centre[0]));
    let mut places = vec![None; n];
    for (&p, &place) in hull.iter().zip(&circle_places) {
        places[p] = Some(place);
    }
    // Three starts, the one whose worst triple is least flat goes on: the hull on the circle
    // with the inner points put in one by one when each has room, the true coordinates, and
    // their projective rounding when there is one.
    let mut start = plain.at.clone();
    let rounded =
        projective_start(&plain.at, &hull, (first[1] - centre[1]).atan2(first[0] - centre[0]));
    let mut candidates: Vec<Vec<[f64; 2]>> = Vec::new();
    // The hull's angles around its centre, from evenly spaced towards the rounded (or true)
    // ones: the first at which every inner point has room.
    let shape = rounded.as_ref().unwrap_or(&plain.at);
    let middle = mean(&hull.iter().map(|&p| shape[p]).collect::<Vec<_>>());
    let mut own: Vec<f64> =
        hull.iter().map(|&p| (shape[p][1] - middle[1]).atan2(shape[p][0] - middle[0])).collect();
    let even: Vec<f64> = circle_places.iter().map(|q| q[1].atan2(q[0])).collect();
    // Unwrapped so that both run counter-clockwise from the first hull point's angle.
    let tau = std::f64::consts::TAU;
    for k in 1..own.len() {
        while own[k] <= own[k - 1] {
            own[k] += tau;
        }
    }
    let mut even_up = even.clone();
    for k in 1..even_up.len() {
        while even_up[k] <= even_up[k - 1] {
            even_up[k] += tau;
        }
    }
    for t in [1.0, 0.75, 0.5, 0.25, 0.0] {
        let ring: Vec<[f64; 2]> = (0..hull.len())
            .map(|k| {
                let angle = t * even_up[k] + (1.0 - t) * (own[k] - own[0] + even_up[0]);
                [angle.cos(), angle.sin()]
            })
            .collect();
        let tried = insert_inside(points, &hull, &ring);
        if let Some(inserted) = tried {
            candidates.push(inserted);
            break;
        }
    }
    candidates.extend(rounded.clone());
    for candidate in candidates {
        if check_order_type(points, &candidate, 0.0).is_ok()
            && spread(&candidate).0 > spread(&start).0
        {
            start = candidate;
        }
    }
    let relaxed = relax(points, &start, &places, want.min_height);
    let height = spread(&relaxed).0;
    // Kept only if it checks, and is more readable than the true coordinates.
    if height > spread(&plain.at).0 && check_order_type(points, &relaxed, height * 0.5).is_ok() {
        return Layout { at: relaxed, drawn: Drawn::Relaxed };
    }
    plain
}

/// The hull on the circle at `places` (in hull order) and each inner point in turn, in index
/// order, at the centre of its cell among the points placed before it: the place farthest
/// from every line through two of them, on the side of each that the point's orientations
/// ask. `None` when a cell is empty (this hull cannot hold the order type). Each point's cell
/// holds every triple it forms with earlier points, so all triples have their orientation.
fn insert_inside(points: &[Point], hull: &[usize], places: &[[f64; 2]]) -> Option<Vec<[f64; 2]>> {
    let n = points.len();
    let mut at = vec![[0.0; 2]; n];
    let mut placed = hull.to_vec();
    for (&p, &place) in hull.iter().zip(places) {
        at[p] = place;
    }
    let disc = circle(128, 0.0);
    for p in (0..n).filter(|p| !hull.contains(p)) {
        let mut planes = Vec::new();
        for (k, &a) in placed.iter().enumerate() {
            for &b in &placed[k + 1..] {
                let side = orient(points[a], points[b], points[p]).signum() as f64;
                let d = [at[b][0] - at[a][0], at[b][1] - at[a][1]];
                let length = dist(at[a], at[b]);
                let normal = [-d[1] * side / length, d[0] * side / length];
                let offset = normal[0] * at[a][0] + normal[1] * at[a][1];
                planes.push(HalfPlane { normal, offset, weight: 1.0 });
            }
        }
        let cell = clip_all(&disc, &planes, 0.0);
        if cell.is_empty() {
            return None;
        }
        let (mut lo, mut up) = (0.0, 1.0);
        for _ in 0..30 {
            let mid = (lo + up) / 2.0;
            if clip_all(&cell, &planes, mid).is_empty() {
                up = mid;
            } else {
                lo = mid;
            }
        }
        at[p] = mean(&clip_all(&cell, &planes, lo * 0.95));
        placed.push(p);
    }
    Some(at)
}

/// A convex polygon around one inner point c (the wheel): c at the centre of the unit circle
/// and the hull on it. Seen from c, the 2h directions to the hull points and their opposites
/// come in some cyclic order, which decides the order type: (i, j, c) turns counter-clockwise
/// iff the direction to j comes less than a half turn after the direction to i, i.e. before
/// the opposite of i; three hull points keep their cyclic order on any circle around c. So
/// the hull points are put on the circle at new angles that keep that cyclic order and keep
/// every direction a half turn from its opposite. `None` if two directions coincide (three
/// points on a line: not in general position).
fn one_inside(points: &[Point], hull: &[usize]) -> Option<Layout> {
    let n = points.len();
    let mut inside = vec![true; n];
    hull.iter().for_each(|&p| inside[p] = false);
    let c = points[inside.iter().position(|&x| x).unwrap_or(0)];
    // (direction from c, the hull point, or usize::MAX for the opposite of its direction)
    let mut events: Vec<([i128; 2], usize)> = Vec::with_capacity(2 * hull.len());
    for &p in hull {
        let d = [i128::from(points[p][0] - c[0]), i128::from(points[p][1] - c[1])];
        events.push((d, p));
        events.push(([-d[0], -d[1]], usize::MAX));
    }
    let half = |d: [i128; 2]| usize::from(!(d[1] > 0 || (d[1] == 0 && d[0] > 0)));
    let by_angle = |u: &[i128; 2], v: &[i128; 2]| {
        half(*u).cmp(&half(*v)).then_with(|| (v[0] * u[1]).cmp(&(u[0] * v[1])))
    };
    events.sort_by(|(u, _), (v, _)| by_angle(u, v));
    if events.windows(2).any(|w| by_angle(&w[0].0, &w[1].0).is_eq()) {
        return None;
    }
    // The gap after each direction: 2 between two of one kind (two hull points, or two
    // opposites), 1 between a hull point and an opposite. The gap opposite a gap is between
    // the opposite kinds, so it is as wide, and every direction stays a half turn from its
    // opposite; two hull points with k opposites between them end up k + 1 apart (k >= 1)
    // instead of k + 1 times one even step, which spreads the hull out.
    let kinds: Vec<bool> = events.iter().map(|&(_, p)| p != usize::MAX).collect();
    let gaps: Vec<f64> = (0..kinds.len())
        .map(|r| if kinds[r] == kinds[(r + 1) % kinds.len()] { 2.0 } else { 1.0 })
        .collect();
    let unit = std::f64::consts::TAU / gaps.iter().sum::<f64>();
    let mut at = vec![[0.0; 2]; n];
    let mut angle = 0.0_f64;
    for (r, &(_, p)) in events.iter().enumerate() {
        if p != usize::MAX {
            at[p] = [angle.cos(), angle.sin()];
        }
        angle += gaps[r] * unit;
    }
    Some(Layout { at, drawn: Drawn::Relaxed })
}

fn mean(at: &[[f64; 2]]) -> [f64; 2] {
    let n = at.len().max(1) as f64;
    let (x, y) = at.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
    [x / n, y / n]
}

/// Solves the square system `a x = b` by Gaussian elimination with partial pivoting; `None`
/// when it is singular.
fn solve_linear<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in 0..N {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (entry, &by) in a[row].iter_mut().zip(&pivot_row).skip(col) {
                    *entry -= f * by;
                }
                b[row] -= f * b[col];
            }
        }
    }
    Some(std::array::from_fn(|i| b[i] / a[i][i]))
}

/// The projective map of `at` that sends the points `from` to `to`, when it keeps every
/// orientation: a projective map (x, y) -> (h1 x + h2 y + h3, h4 x + h5 y + h6) / w with
/// w = h7 x + h8 y + 1 multiplies the orientation of every triple by det(H) / (w_a w_b w_c), so
/// it keeps them all exactly when w has one sign on every point (the line it sends to infinity
/// misses the set) and det(H) has that sign too.
fn projective(at: &[[f64; 2]], from: [usize; 4], to: [[f64; 2]; 4]) -> Option<Vec<[f64; 2]>> {
    let mut a = [[0.0; 8]; 8];
    let mut b = [0.0; 8];
    for r in 0..4 {
        let ([x, y], [u, v]) = (at[from[r]], to[r]);
        a[2 * r] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y];
        b[2 * r] = u;
        a[2 * r + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y];
        b[2 * r + 1] = v;
    }
    let m = solve_linear(a, b)?;
    let det = m[0] * (m[4] - m[5] * m[7]) - m[1] * (m[3] - m[5] * m[6])
        + m[2] * (m[3] * m[7] - m[4] * m[6]);
    let w: Vec<f64> = at.iter().map(|p| m[6] * p[0] + m[7] * p[1] + 1.0).collect();
    let positive = w.iter().all(|&x| x > 1e-9) && det > 0.0;
    let negative = w.iter().all(|&x| x < -1e-9) && det < 0.0;
    if !(positive || negative) {
        return None;
    }
    Some(
        at.iter()
            .zip(&w)
            .map(|(p, w)| {
                [(m[0] * p[0] + m[1] * p[1] + m[2]) / w, (m[3] * p[0] + m[4] * p[1] + m[5]) / w]
            })
            .collect(),
    )
}

/// A projective map of `at` that rounds its hull (a start for the relaxation). When the hull
/// lies on a conic (the generators' hulls lie on parabolas), the map that sends it onto the
/// unit circle with three hull points a third of the hull apart evenly spaced: a projective
/// map takes a conic to the conic through the images of four of its points that has their
/// cross-ratio (as seen from a fifth point of it), so the fourth image is chosen on the circle
/// with the cross-ratio the four points have on the hull's conic. Otherwise, the map that
/// sends four hull points a quarter of the hull apart to evenly spaced places on the circle.
fn projective_start(at: &[[f64; 2]], hull: &[usize], start: f64) -> Option<Vec<[f64; 2]>> {
    let h = hull.len();
    let on_circle = |angle: f64| [angle.cos(), angle.sin()];
    let third = std::f64::consts::TAU / 3.0;
    if h >= 5 {
        let (a, b, c, e) = (0, h / 3, 2 * h / 3, h - 1);
        let d = (1..h).find(|k| ![b, c, e].contains(k)).unwrap_or(1);
        let cross = |i: usize, j: usize| {
            let (p, q, r) = (at[hull[e]], at[hull[i]], at[hull[j]]);
            orient_f(p, q, r)
        };
        // The cross-ratio of a, b; c, d seen from e, and the point of the circle that has it
        // with the images of a, b and c (Moebius arithmetic on unit complex numbers).
        let ratio = (cross(a, c) * cross(b, d)) / (cross(b, c) * cross(a, d));
        let z = [start, start + third, start + 2.0 * third].map(on_circle);
        let mul = |p: [f64; 2], q: [f64; 2]| [p[0] * q[0] - p[1] * q[1], p[0] * q[1] + p[1] * q[0]];
        let sub = |p: [f64; 2], q: [f64; 2]| [p[0] - q[0], p[1] - q[1]];
        let scale = |k: f64, p: [f64; 2]| [k * p[0], k * p[1]];
        let (z31, z32) = (sub(z[2], z[0]), sub(z[2], z[1]));
        let top = sub(mul(scale(ratio, z32), z[0]), mul(z31, z[1]));
        let bottom = sub(scale(ratio, z32), z31);
        let norm = bottom[0] * bottom[0] + bottom[1] * bottom[1];
        if norm > 1e-18 {
            let fourth = scale(1.0 / norm, mul(top, [bottom[0], -bottom[1]]));
            let from = [hull[a], hull[b], hull[c], hull[d]];
            if let Some(image) = projective(at, from, [z[0], z[1], z[2], fourth]) {
                let round =
                    hull.iter().all(|&p| (image[p][0].hypot(image[p][1]) - 1.0).abs() < 1e-6);
                if round {
                    return Some(image);
                }
            }
        }
    }
    if h < 4 {
        return None;
    }
    let from = [hull[0], hull[h / 4], hull[h / 2], hull[3 * h / 4]];
    let to = [0, h / 4, h / 2, 3 * h / 4]
        .map(|k| on_circle(start + std::f64::consts::TAU * k as f64 / h as f64));
    projective(at, from, to)
}

/// A half-plane { x : normal . x >= offset } with a unit normal; cut with a margin m it is
/// { x : normal . x >= offset + m * weight }.
#[derive(Clone, Copy)]
struct HalfPlane {
    normal: [f64; 2],
    offset: f64,
    weight: f64,
}

impl HalfPlane {
    /// How far `x` is inside (negative: outside).
    fn depth(&self, x: [f64; 2]) -> f64 {
        self.normal[0] * x[0] + self.normal[1] * x[1] - self.offset
    }
}

/// The convex polygon `polygon` cut to `{ x : plane.depth(x) >= margin }`.
fn clip(polygon: &[[f64; 2]], plane: &HalfPlane, margin: f64) -> Vec<[f64; 2]> {
    let depth = |x: [f64; 2]| plane.depth(x) - margin * plane.weight;
    if polygon.iter().all(|&x| depth(x) >= 0.0) {
        return polygon.to_vec();
    }
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (k, &a) in polygon.iter().enumerate() {
        let b = polygon[(k + 1) % polygon.len()];
        let (da, db) = (depth(a), depth(b));
        if da >= 0.0 {
            out.push(a);
        }
        if (da >= 0.0) != (db >= 0.0) {
            let t = da / (da - db);
            out.push([a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t]);
        }
    }
    out
}

fn clip_all(polygon: &[[f64; 2]], planes: &[HalfPlane], margin: f64) -> Vec<[f64; 2]> {
    let mut cell = polygon.to_vec();
    for plane in planes {
        cell = clip(&cell, plane, margin);
        if cell.len() < 3 {
            return Vec::new();
        }
    }
    cell
}

/// The point of the convex polygon `cell` nearest to `target`.
fn nearest(cell: &[[f64; 2]], target: [f64; 2]) -> [f64; 2] {
    let inside =
        (0..cell.len()).all(|k| orient_f(cell[k], cell[(k + 1) % cell.len()], target) >= 0.0);
    if inside {
        return target;
    }
    let mut best = (f64::INFINITY, cell[0]);
    for k in 0..cell.len() {
        let (a, b) = (cell[k], cell[(k + 1) % cell.len()]);
        let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
        let length = dx * dx + dy * dy;
        let t = if length > 0.0 {
            (((target[0] - a[0]) * dx + (target[1] - a[1]) * dy) / length).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let x = [a[0] + dx * t, a[1] + dy * t];
        let d = dist(x, target);
        if d < best.0 {
            best = (d, x);
        }
    }
    best.1
}

/// The relaxation of the module docs, from `start` (which must have the order type); `margin`
/// is the height wanted of every triple. Each sweep first measures the least height of any
/// triple, H; then each point in turn moves at most a step, to a place where every triple it is
/// in keeps its orientation and a height of at least H (more, up to `margin`, where its cell
/// has room), as near as it can to its aim. So H never shrinks from sweep to sweep.
///
/// The height bound is linear in the point's place: for p within `step` of its place p0, every
/// side of triangle (a, b, p) is at most L = max(|ab|, |p0 a| + step, |p0 b| + step), so p at
/// least m L / |ab| from the line ab gives the triangle height at least m (twice its area over
/// its longest side).
fn relax(
    points: &[Point],
    start: &[[f64; 2]],
    places: &[Option<[f64; 2]>],
    margin: f64,
) -> Vec<[f64; 2]> {
    let n = points.len();
    // The region points may use: a disc a quarter larger than the circle the hull aims at, so
    // that no hull point is pushed onto a straight side of it next to another.
    let disc: Vec<HalfPlane> = circle(128, 0.0)
        .iter()
        .map(|u| HalfPlane { normal: [-u[0], -u[1]], offset: -1.25, weight: 0.0 })
        .collect();
    // Inside the unit circle, so that every point starts inside the region.
    let square = into_square(start);
    let reach = square.iter().map(|p| p[0].hypot(p[1])).fold(0.0, f64::max).max(1e-12);
    let mut at: Vec<[f64; 2]> = square.iter().map(|p| [p[0] / reach, p[1] / reach]).collect();
    // About 40 sweeps for small sets, fewer for large (each sweep is cubic).
    let sweeps = (2_000_000 / (n * n * n).max(1)).clamp(4, 40);
    let mut planes = Vec::with_capacity(n * n / 2);
    for _ in 0..sweeps {
        let least = spread(&at).0;
        for p in 0..n {
            let p0 = at[p];
            for step in [0.3, 0.08, 0.02] {
                planes.clear();
                for a in 0..n {
                    for b in a + 1..n {
                        if a == p || b == p {
                            continue;
                        }
                        let side = orient(points[a], points[b], points[p]).signum() as f64;
                        let d = [at[b][0] - at[a][0], at[b][1] - at[a][1]];
                        let length = dist(at[a], at[b]);
                        if length == 0.0 {
                            continue;
                        }
                        let normal = [-d[1] * side / length, d[0] * side / length];
                        let offset = normal[0] * at[a][0] + normal[1] * at[a][1];
                        let longest =
                            length.max(dist(p0, at[a]) + step).max(dist(p0, at[b]) + step);
                        planes.push(HalfPlane { normal, offset, weight: longest / length });
                    }
                }
                let trust: Vec<[f64; 2]> = circle(16, 0.0)
                    .iter()
                    .map(|u| [p0[0] + u[0] * step, p0[1] + u[1] * step])
                    .collect();
                let cell = clip_all(&clip_all(&trust, &disc, 0.0), &planes, 0.0);
                if cell.is_empty() {
                    continue;
                }
                // Only lines near the cell can bind once it is shrunk by at most 2 step.
                let hi = 2.0 * step;
                let near: Vec<HalfPlane> = planes
                    .iter()
                    .copied()
                    .filter(|h| {
                        cell.iter().map(|&x| h.depth(x)).fold(f64::INFINITY, f64::min)
                            < hi * h.weight
                    })
                    .collect();
                // The largest height the cell allows, by bisection.
                let (mut lo, mut up) = (0.0, hi);
                for _ in 0..30 {
                    let mid = (lo + up) / 2.0;
                    if clip_all(&cell, &near, mid).is_empty() {
                        up = mid;
                    } else {
                        lo = mid;
                    }
                }
                if lo < least {
                    continue;
                }
                let room = clip_all(&cell, &near, (lo * 0.5).min(margin).max(least));
                if room.is_empty() {
                    continue;
                }
                let aim = places[p].unwrap_or_else(|| mean(&clip_all(&cell, &near, lo * 0.95)));
                at[p] = nearest(&room, aim);
                break;
            }
        }
    }
    into_square(&at)
}

/// `at` moved and scaled (one scale for both axes: orientations kept) to fill [-1, 1]^2 in its
/// longer direction, centred.
fn into_square(at: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let fold =
        |k: usize| at.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p[k]), hi.max(p[k])));
    let ((x0, x1), (y0, y1)) = (fold(0), fold(1));
    let scale = 2.0 / (x1 - x0).max(y1 - y0).max(1e-12);
    at.iter()
        .map(|p| [(p[0] - (x0 + x1) / 2.0) * scale, (p[1] - (y0 + y1) / 2.0) * scale])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_keeps_the_inside_of_a_half_plane() {
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        let right = HalfPlane { normal: [1.0, 0.0], offset: 0.5, weight: 1.0 };
        let cut = clip(&square, &right, 0.0);
        assert_eq!(cut.len(), 4);
        assert!(cut.iter().all(|x| x[0] >= 0.5 - 1e-12));
        assert!(clip(&square, &right, 0.6).len() < 3);
        assert_eq!(nearest(&square, [2.0, 0.5]), [1.0, 0.5]);
        assert_eq!(nearest(&square, [0.25, 0.5]), [0.25, 0.5]);
    }
}

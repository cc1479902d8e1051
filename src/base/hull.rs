//! Convex hulls for the overviews of pictures too large to draw whole: exact on integer points
//! (a point set's hull, [`crate::base::large_pictures`]), in floating point on a drawing's
//! places (the wedge a collapsed subtree fills, [`crate::base::tree_overview`]). Drawing only:
//! the checker computes its own hulls.

/// The extreme points of `points` (those that are no convex combination of the others), as
/// indices in counter-clockwise order from the lowest-leftmost; points on a hull edge between
/// two corners are left out, and a repeated point is taken once. Andrew's monotone chain, with
/// exact orientations (128-bit products).
pub fn hull_exact(points: &[[i64; 2]]) -> Vec<usize> {
    let cross = |o: [i64; 2], a: [i64; 2], b: [i64; 2]| -> i128 {
        let (ax, ay) = (a[0] as i128 - o[0] as i128, a[1] as i128 - o[1] as i128);
        let (bx, by) = (b[0] as i128 - o[0] as i128, b[1] as i128 - o[1] as i128);
        ax * by - ay * bx
    };
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by_key(|&i| (points[i][0], points[i][1]));
    order.dedup_by_key(|&mut i| points[i]);
    chain(&order, &|o, a, b| cross(points[o], points[a], points[b]) > 0)
}

/// [`hull_exact`] on floating-point places (a drawing's), turns of less than `1e-9` of the
/// squared extent counted as straight.
pub fn hull(points: &[(f64, f64)]) -> Vec<usize> {
    let extent = points.iter().fold(0.0_f64, |m, p| m.max(p.0.abs()).max(p.1.abs())).max(1e-12);
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&i, &j| {
        points[i].0.total_cmp(&points[j].0).then(points[i].1.total_cmp(&points[j].1))
    });
    order.dedup_by(|i, j| points[*i] == points[*j]);
    chain(&order, &|o, a, b| cross(points[o], points[a], points[b]) > 1e-9 * extent * extent)
}

/// The monotone chain over `order` (sorted by x, then y, without repeats); `left(o, a, b)`:
/// whether o, a, b turn strictly counter-clockwise.
fn chain(order: &[usize], left: &dyn Fn(usize, usize, usize) -> bool) -> Vec<usize> {
    if order.len() < 3 {
        return order.to_vec();
    }
    let mut lower: Vec<usize> = Vec::new();
    for &p in order {
        while lower.len() >= 2 && !left(lower[lower.len() - 2], lower[lower.len() - 1], p) {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<usize> = Vec::new();
    for &p in order.iter().rev() {
        while upper.len() >= 2 && !left(upper[upper.len() - 2], upper[upper.len() - 1], p) {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    // All on one line: its two ends.
    if lower.len() < 3 {
        lower.truncate(2);
    }
    lower
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `p` is a convex combination of the others (inside or on their hull): by brute
    /// force over every triangle and segment of them, exactly.
    fn covered(points: &[[i64; 2]], p: usize) -> bool {
        let o = |a: [i64; 2], b: [i64; 2], c: [i64; 2]| {
            (b[0] - a[0]) as i128 * (c[1] - a[1]) as i128
                - (b[1] - a[1]) as i128 * (c[0] - a[0]) as i128
        };
        let q = points[p];
        let others: Vec<[i64; 2]> =
            (0..points.len()).filter(|&i| i != p).map(|i| points[i]).collect();
        if others.contains(&q) {
            return true;
        }
        for (i, &a) in others.iter().enumerate() {
            for (j, &b) in others.iter().enumerate().skip(i + 1) {
                let on_segment = o(a, b, q) == 0
                    && q[0] >= a[0].min(b[0])
                    && q[0] <= a[0].max(b[0])
                    && q[1] >= a[1].min(b[1])
                    && q[1] <= a[1].max(b[1]);
                if on_segment {
                    return true;
                }
                for &c in &others[j + 1..] {
                    let (s, t, u) = (o(a, b, q), o(b, c, q), o(c, a, q));
                    let inside = (s >= 0 && t >= 0 && u >= 0) || (s <= 0 && t <= 0 && u <= 0);
                    if inside && o(a, b, c) != 0 {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The hull's points are exactly the extreme points (those no convex combination of the
    /// others covers), in counter-clockwise order, on random sets with repeats and collinear
    /// runs.
    #[test]
    fn hull_points_are_the_extreme_points() {
        let mut rng = crate::base::rng::Rng::new(7);
        for round in 0..200 {
            let n = 1 + round % 14;
            let span = if round % 3 == 0 { 3 } else { 40 };
            let points: Vec<[i64; 2]> =
                (0..n).map(|_| [rng.below(span) as i64 - 5, rng.below(span) as i64 - 5]).collect();
            let found = hull_exact(&points);
            let mut distinct = points.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let mut extreme: Vec<[i64; 2]> = (0..distinct.len())
                .filter(|&p| !covered(&distinct, p))
                .map(|p| distinct[p])
                .collect();
            let mut got: Vec<[i64; 2]> = found.iter().map(|&i| points[i]).collect();
            if found.len() >= 3 {
                for k in 0..found.len() {
                    let (a, b, c) = (got[k], got[(k + 1) % got.len()], got[(k + 2) % got.len()]);
                    let turn = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
                    assert!(turn > 0, "{points:?}: {got:?} turns clockwise or goes straight");
                }
            }
            extreme.sort_unstable();
            got.sort_unstable();
            // A set on one line has its two ends as extreme points; a single point itself.
            assert_eq!(got, extreme, "{points:?}");
        }
    }

    #[test]
    fn float_hull_matches_the_exact_one() {
        let points: Vec<[i64; 2]> =
            vec![[0, 0], [4, 0], [4, 4], [0, 4], [2, 2], [2, 0], [1, 3], [4, 2]];
        let places: Vec<(f64, f64)> = points.iter().map(|p| (p[0] as f64, p[1] as f64)).collect();
        assert_eq!(hull_exact(&points), vec![0, 1, 2, 3]);
        assert_eq!(hull(&places), vec![0, 1, 2, 3]);
        // Huge coordinates stay exact.
        let big = [[0, 0], [i64::MAX / 2, 1], [i64::MAX / 2 + 1, 2], [1, 1]];
        assert_eq!(hull_exact(&big).len(), 4);
    }
}

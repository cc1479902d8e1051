//! Generators of point sets and triangulations for the games on triangulations (seed 000):
//! `gamecert gen triangulation --kind ...`. Every result is validated by the checker's
//! geometry ([`gamecert_certificates::triangulations::geometry`]) before it is returned.
//!
//! Convex position uses the points (i, i^2) (a parabola: convex, no three collinear). Kinds:
//! - `convex`: a random triangulation of the convex polygon (random apex on a base, recursively);
//! - `fan`: every triangle at point 0;
//! - `serpentine`: dual a path, grown from the ear (0, 1, n - 1) by a random side each step;
//! - `simple-branching`: no two inner triangles share an edge; up to 16 points, random convex
//!   triangulations drawn until one is, beyond that drawn directly (inner triangles only where
//!   the parent triangle is not inner);
//! - `wheel`: n - 1 points in convex position around one inner centre, every triangle at it;
//! - `points`: n - k points in convex position and k random inner points, triangulated by
//!   splitting the triangle that contains each inner point in turn.

use crate::base::rng::Rng;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::geometry::{
    check_points, strictly_inside, Point, TriangulationSpec,
};

/// Which family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Convex,
    Fan,
    Serpentine,
    SimpleBranching,
    Wheel,
    Points,
}

impl std::fmt::Display for Kind {
    /// The name `--kind` takes (`simple-branching`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Convex => "convex",
            Kind::Fan => "fan",
            Kind::Serpentine => "serpentine",
            Kind::SimpleBranching => "simple-branching",
            Kind::Wheel => "wheel",
            Kind::Points => "points",
        })
    }
}

/// Largest number of points generated with inner points (`wheel`, `points`: the general
/// validation is cubic).
pub const MAX_POINTS: usize = 400;

/// Largest number of points in convex position generated (validation is near-linear there;
/// the parabola's coordinates stay within the 2^40 limit).
pub const MAX_CONVEX_POINTS: usize = 1_000_000;

/// Above this many points `simple-branching` is drawn directly
/// ([`crate::triangulations::convex_heaps::simple_branching_triangles`]) instead of by rejection.
const REJECTION_POINTS: usize = 16;

/// n points in convex position, (i, i^2) for i = 0..n, already in counter-clockwise hull order.
pub fn parabola(n: usize) -> Vec<Point> {
    (0..n as i64).map(|i| [i, i * i]).collect()
}

/// A random triangulation of the convex polygon with vertices 0..n in order.
pub fn random_convex(n: usize, rng: &mut Rng) -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    let mut stack = vec![(0usize, n - 1)];
    while let Some((a, b)) = stack.pop() {
        if b - a < 2 {
            continue;
        }
        let apex = rng.range(a as u64 + 1, b as u64 - 1) as usize;
        out.push([a, apex, b]);
        stack.push((a, apex));
        stack.push((apex, b));
    }
    out
}

/// Whether a triangulation of the convex polygon 0..n (vertices in order) is simple-branching,
/// from its triangles alone: a triangle is inner iff none of its sides is a polygon side, and
/// two inner triangles may not share a side. Linear in the triangles, so that drawing many
/// candidates costs no geometry.
fn convex_simple_branching(n: usize, triangles: &[[usize; 3]]) -> bool {
    let side = |a: usize, b: usize| a.abs_diff(b) == 1 || a.abs_diff(b) == n - 1;
    let sides = |t: &[usize; 3]| [(t[0], t[1]), (t[1], t[2]), (t[0], t[2])];
    let mut inner_sides = std::collections::HashSet::new();
    for t in triangles {
        if sides(t).iter().any(|&(a, b)| side(a, b)) {
            continue;
        }
        for (a, b) in sides(t) {
            if !inner_sides.insert((a.min(b), a.max(b))) {
                return false;
            }
        }
    }
    true
}

/// Generates `n` points of `kind` (`inner` inner points for `points`).
pub fn generate(
    kind: Kind,
    n: usize,
    inner: usize,
    seed: u64,
) -> Result<TriangulationSpec, String> {
    let max = match kind {
        Kind::Wheel | Kind::Points => MAX_POINTS,
        _ => MAX_CONVEX_POINTS,
    };
    if !(3..=max).contains(&n) {
        return Err(format!("--points must be between 3 and {max} for this kind (got {n})"));
    }
    let mut rng = Rng::new(seed);
    let spec = match kind {
        Kind::Convex => TriangulationSpec {
            points: parabola(n),
            triangles: random_convex(n, &mut rng),
            edges: vec![],
        },
        Kind::Fan => TriangulationSpec {
            points: parabola(n),
            triangles: (1..n - 1).map(|i| [0, i, i + 1]).collect(),
            edges: vec![],
        },
        Kind::Serpentine => {
            let mut triangles = vec![[0, 1, n - 1]];
            let (mut low, mut high) = (1, n - 1);
            while high - low > 1 {
                if rng.below(2) == 0 {
                    triangles.push([low, low + 1, high]);
                    low += 1;
                } else {
                    triangles.push([low, high - 1, high]);
                    high -= 1;
                }
            }
            TriangulationSpec { points: parabola(n), triangles, edges: vec![] }
        }
        Kind::SimpleBranching if n > REJECTION_POINTS => TriangulationSpec {
            points: parabola(n),
            triangles: crate::triangulations::convex_heaps::simple_branching_triangles(n, 50, seed),
            edges: vec![],
        },
        Kind::SimpleBranching => {
            let triangles = (0..10_000)
                .map(|_| random_convex(n, &mut rng))
                .find(|t| convex_simple_branching(n, t))
                .ok_or(
                    "no simple-branching triangulation in 10,000 random draws; try fewer points",
                )?;
            TriangulationSpec { points: parabola(n), triangles, edges: vec![] }
        }
        Kind::Wheel => {
            if n < 4 {
                return Err("a wheel needs at least 4 points".into());
            }
            let m = n - 1;
            // Scaled by 30 so that the centroid of three hull points is a lattice point well
            // inside; small offsets around it until no three points are collinear.
            let mut points: Vec<Point> =
                parabola(m).into_iter().map(|p| [p[0] * 30, p[1] * 30]).collect();
            let (a, b, c) = (points[0], points[m / 2], points[m - 1]);
            let centroid = [(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3];
            let centre = (0..400i64)
                .map(|k| [centroid[0] + k % 20 - 10, centroid[1] + k / 20 - 10])
                .find(|&p| {
                    strictly_inside(p, a, b, c) && {
                        let mut all = points.clone();
                        all.push(p);
                        check_points(&all, &mut Budget::new(u64::MAX)).is_ok()
                    }
                })
                .ok_or("could not place the wheel's centre in general position")?;
            points.push(centre);
            TriangulationSpec {
                points,
                triangles: (0..m).map(|i| [i, (i + 1) % m, m]).collect(),
                edges: vec![],
            }
        }
        Kind::Points => {
            if inner + 3 > n {
                return Err(format!("--inner {inner} leaves fewer than 3 hull points of {n}"));
            }
            let m = n - inner;
            // Hull points on a wide parabola, inner points drawn inside and kept in general
            // position.
            let scale = 64i64;
            let mut points: Vec<Point> =
                (0..m as i64).map(|i| [i * scale, i * i * scale]).collect();
            let mut triangles = (1..m - 1).map(|i| [0, i, i + 1]).collect::<Vec<_>>();
            let top = ((m - 1) * (m - 1)) as i64 * scale;
            let mut tries = 0;
            while points.len() < n {
                tries += 1;
                if tries > 100_000 {
                    return Err("could not place the inner points in general position".into());
                }
                let p =
                    [rng.below((m as u64 - 1) * scale as u64) as i64, rng.below(top as u64) as i64];
                let Some(k) = triangles
                    .iter()
                    .position(|t| strictly_inside(p, points[t[0]], points[t[1]], points[t[2]]))
                else {
                    continue;
                };
                points.push(p);
                if check_points(&points, &mut Budget::new(u64::MAX)).is_err() {
                    points.pop();
                    continue;
                }
                let v = points.len() - 1;
                let [a, b, c] = triangles.swap_remove(k);
                triangles.extend([[a, b, v], [b, c, v], [c, a, v]]);
            }
            TriangulationSpec { points, triangles, edges: vec![] }
        }
    };
    spec.validate(&mut Budget::new(u64::MAX))?;
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::triangulations::geometry::Triangulation;

    /// Simple-branching by the definition, on the validated triangulation's dual.
    fn simple_branching(t: &Triangulation) -> bool {
        let inner = t.inner_triangles();
        let dual = t.dual();
        inner.iter().all(|&k| dual[k].iter().all(|j| !inner.contains(j)))
    }

    /// The generator's combinatorial test agrees with the definition on random convex
    /// triangulations, both ways.
    #[test]
    fn the_quick_simple_branching_test_is_the_definition() {
        let mut rng = Rng::new(5);
        let (mut yes, mut no) = (0, 0);
        for n in 4..=14 {
            for _ in 0..40 {
                let triangles = random_convex(n, &mut rng);
                let spec = TriangulationSpec { points: parabola(n), triangles, edges: vec![] };
                let quick = convex_simple_branching(n, &spec.triangles);
                assert_eq!(
                    quick,
                    simple_branching(&spec.validate(&mut Budget::new(u64::MAX)).unwrap())
                );
                if quick {
                    yes += 1
                } else {
                    no += 1
                }
            }
        }
        assert!(yes > 20 && no > 20, "{yes} {no}");
    }

    #[test]
    fn every_kind_validates_with_its_shape() {
        for seed in 0..5 {
            for n in [5usize, 8, 13] {
                for kind in [
                    Kind::Convex,
                    Kind::Fan,
                    Kind::Serpentine,
                    Kind::SimpleBranching,
                    Kind::Wheel,
                    Kind::Points,
                ] {
                    let spec = generate(kind, n, 2, seed).unwrap();
                    let t = spec.validate(&mut Budget::new(u64::MAX)).unwrap();
                    assert_eq!(t.points.len(), n);
                    let dual = t.dual();
                    match kind {
                        Kind::Fan | Kind::Serpentine => {
                            assert!(t.inner_triangles().is_empty(), "{kind:?}");
                            assert!(dual.iter().all(|d| d.len() <= 2), "{kind:?}: dual a path");
                        }
                        Kind::SimpleBranching => {
                            assert!(simple_branching(&t));
                            assert!(convex_simple_branching(n, &t.triangles));
                        }
                        Kind::Wheel => {
                            assert_eq!(t.inner_points().len(), 1);
                            assert!(dual.iter().all(|d| d.len() == 2), "dual a cycle");
                        }
                        Kind::Points => assert_eq!(t.inner_points().len(), 2),
                        Kind::Convex => assert_eq!(t.triangles.len(), n - 2),
                    }
                }
            }
        }
        assert!(generate(Kind::Fan, 2, 0, 1).is_err());
        assert!(generate(Kind::Points, 5, 3, 1).is_err());
    }
}

//! Sum-of-components certificates for two games of seed 000 in convex position, where the paper
//! reduces the game to a heap game (certificate kind `marking-kayles`):
//!
//! - **Theorem 1**: the Triangulation Coloring Game (`coloring`) on a simple-branching
//!   triangulation of points in convex position (no two inner triangles share an edge) is
//!   Kayles (`0.77`) on the arrays of the dual graph left when the inner triangles are removed:
//!   one heap per array, its number of triangles. Colouring a hull edge takes its triangle, a
//!   diagonal between two array triangles takes both (consecutive in the array), a diagonal
//!   between an array triangle and an inner one takes the array triangle only.
//! - **Theorem 2**: Monochromatic Triangle (`monochromatic-triangle`) on n points in convex
//!   position is Dawson's Kayles (`0.07`) on one heap of n: a segment with i points on one
//!   side and n - 2 - i on the other takes 2 and leaves heaps of i and n - 2 - i.
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "marking-kayles",
//!  "winner": "first", "edge": [0, 5], "values": [0, 1, 2, 3, ...],
//!  "period": {"from": 71, "length": 12}}
//! ```
//!
//! The checker validates the instance (convex position; for Theorem 1 a simple-branching
//! triangulation), computes the heaps itself from the geometry, maps the first player's
//! `edge` (required for a first-player win, absent otherwise) to the heap move it stands for,
//! and hands heaps, labels, move and optional period to the heap-labelling check
//! ([`crate::impartial::heaps::check_labelling_of`]): every label is the mex of its moves, the position's
//! value is the XOR, and the move leaves value 0. Trusted: the reduction of Theorem 1 or 2
//! ([`crate::TRUSTED_TRIANGULATION_HEAPS`]), the Sprague-Grundy theorem, and the periodicity
//! theorem when a heap is beyond the checked labels.

use crate::base::budget::Budget;
use crate::impartial::heaps::{
    check_labelling_of, HeapLabelling, HeapMove, LabellingReport, Period, Rules,
    CLAIM_FIRST_PLAYER_WINS, CLAIM_SECOND_PLAYER_WINS,
};
use crate::triangulations::geometry::{check_points_hull, Triangulation};
use crate::triangulations::marking::{
    MarkingGame, MarkingSpec, MAX_CONSTRUCTING_POINTS, MAX_EDGES,
};
use crate::verdict::{reject, Claim, Theorem, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Certificate kind `marking-kayles`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarkingKayles {
    /// "first" or "second".
    pub winner: String,
    /// The first player's winning first move (a first-player win only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub edge: Option<[usize; 2]>,
    /// Grundy values of single heaps, from heap 0 on.
    pub values: Vec<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
}

/// What the check found.
pub struct KaylesReport {
    pub theorem: &'static str,
    /// The heap sizes of the start.
    pub heaps: Vec<u64>,
    pub labelling: LabellingReport,
}

/// The heap game a `marking-game` instance reduces to: its rules (by name), its heaps, and for
/// each first move the heap move it stands for.
pub struct Reduction {
    pub theorem: &'static str,
    pub game: &'static str,
    pub heaps: Vec<u64>,
    moves: MoveMap,
}

enum MoveMap {
    /// Theorem 1: for each edge, the triangles of the arrays it takes, as (heap, place).
    Arrays(HashMap<[usize; 2], Vec<(usize, u64)>>),
    /// Theorem 2: each point's place on the hull of n points.
    Hull(Vec<usize>),
}

impl Reduction {
    /// Reduces the instance, charging the validation to `budget`; an error says why the
    /// theorem does not apply.
    pub fn new(spec: &MarkingSpec, budget: &mut Budget) -> Result<Reduction, String> {
        match spec.game {
            MarkingGame::Coloring => {
                let t = spec.triangulation.validate(budget)?;
                // The dual, the arrays and the move map: a few hash-map entries per triangle.
                budget.charge_each(
                    u64::try_from(t.triangles.len()).unwrap_or(u64::MAX),
                    512,
                    "reducing the triangulation to heaps",
                )?;
                Reduction::coloring(&t)
            }
            MarkingGame::MonochromaticTriangle => {
                let tri = &spec.triangulation;
                if !tri.triangles.is_empty() || !tri.edges.is_empty() {
                    return Err(
                        "a constructing game starts from the points alone: give no triangles or \
                         edges"
                            .into(),
                    );
                }
                let points = &tri.points;
                let (hull, convex) = check_points_hull(points, budget)?;
                if !convex {
                    return Err("Theorem 2 needs points in convex position".into());
                }
                budget.charge_each(
                    u64::try_from(points.len()).unwrap_or(u64::MAX),
                    16,
                    "ranking the hull",
                )?;
                let mut rank = vec![0; points.len()];
                for (i, &v) in hull.iter().enumerate() {
                    rank[v] = i;
                }
                Ok(Reduction {
                    theorem: "Theorem 2",
                    game: "0.07",
                    heaps: vec![points.len() as u64],
                    moves: MoveMap::Hull(rank),
                })
            }
            other => Err(format!(
                "a marking-kayles certificate fits the coloring game (Theorem 1) and \
                 Monochromatic Triangle (Theorem 2), not {other}"
            )),
        }
    }

    fn coloring(t: &Triangulation) -> Result<Reduction, String> {
        if !t.is_convex() {
            return Err("Theorem 1 needs points in convex position".into());
        }
        let dual = t.dual();
        let mut inner = vec![false; t.triangles.len()];
        for k in t.inner_triangles() {
            inner[k] = true;
        }
        for (k, next) in dual.iter().enumerate() {
            if let Some(&j) = next.iter().find(|&&j| inner[k] && inner[j]) {
                fail!(
                    "Theorem 1 needs a simple-branching triangulation, but the inner triangles \
                     {:?} and {:?} share an edge",
                    t.triangles[k],
                    t.triangles[j]
                );
            }
        }
        // Each array is a path of non-inner triangles in the dual (at most two diagonals
        // each, and the dual is a tree): walk it from an end, numbering its places.
        let mut place: Vec<Option<(usize, u64)>> = vec![None; t.triangles.len()];
        let mut heaps = Vec::new();
        let array_degree = |k: usize| dual[k].iter().filter(|&&j| !inner[j]).count();
        for start in 0..t.triangles.len() {
            if inner[start] || place[start].is_some() || array_degree(start) > 1 {
                continue;
            }
            let heap = heaps.len();
            let (mut at, mut size) = (Some(start), 0u64);
            while let Some(k) = at {
                place[k] = Some((heap, size));
                size += 1;
                at = dual[k].iter().copied().find(|&j| !inner[j] && place[j].is_none());
            }
            heaps.push(size);
        }
        let mut moves: HashMap<[usize; 2], Vec<(usize, u64)>> = HashMap::new();
        for (k, tri) in t.triangles.iter().enumerate() {
            let Some(p) = place[k] else { continue };
            for (a, b) in [(tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])] {
                let taken = moves.entry([a.min(b), a.max(b)]).or_default();
                taken.push(p);
                taken.sort_unstable();
            }
        }
        Ok(Reduction { theorem: "Theorem 1", game: "kayles", heaps, moves: MoveMap::Arrays(moves) })
    }

    /// The heap move a first move stands for.
    pub fn heap_move(&self, edge: [usize; 2]) -> Result<HeapMove, String> {
        let e = [edge[0].min(edge[1]), edge[0].max(edge[1])];
        let split = |heap: usize, take: u64, before: u64| {
            let after = self.heaps[heap] - take - before;
            HeapMove { heap, take, leave: [before, after].into_iter().filter(|&h| h > 0).collect() }
        };
        match &self.moves {
            MoveMap::Hull(rank) => {
                if e[0] == e[1] || e[1] >= rank.len() {
                    fail!("{e:?} is not a segment between two of the points");
                }
                let (a, b) = (rank[e[0]].min(rank[e[1]]), rank[e[0]].max(rank[e[1]]));
                Ok(split(0, 2, (b - a - 1) as u64))
            }
            MoveMap::Arrays(moves) => match moves.get(&e).map(Vec::as_slice) {
                None => Err(format!("{e:?} is not an edge of the triangulation")),
                Some([(heap, place)]) => Ok(split(*heap, 1, *place)),
                Some([(h1, p1), (h2, p2)]) if h1 == h2 && p1 + 1 == *p2 => Ok(split(*h1, 2, *p1)),
                Some(other) => Err(format!(
                    "{e:?} joins triangles at array places {other:?}, which is not a Kayles move"
                )),
            },
        }
    }
}

/// Validates a `marking-game` instance. Small ones get the full rules of
/// [`crate::triangulations::marking`] (at most [`MAX_EDGES`] edges, or [`MAX_CONSTRUCTING_POINTS`] points
/// for the constructing games); larger ones only their geometry (a valid triangulation, or
/// points in general position without triangles or edges): they can be decided by a
/// `marking-kayles` certificate but not by a strategy.
pub fn validate_instance(spec: &MarkingSpec, budget: &mut Budget) -> Result<(), String> {
    let tri = &spec.triangulation;
    if spec.game.is_constructing() {
        if tri.points.len() > MAX_CONSTRUCTING_POINTS
            && tri.triangles.is_empty()
            && tri.edges.is_empty()
        {
            return check_points_hull(&tri.points, budget).map(|_| ());
        }
    } else if tri.validate(budget)?.edges.len() > MAX_EDGES {
        return Ok(());
    }
    crate::triangulations::marking::Rules::from_spec(spec, budget).map(|_| ())
}

/// Checks a `marking-kayles` certificate against a `marking-game` instance.
pub fn check_marking_kayles(
    spec: &MarkingSpec,
    cert: &MarkingKayles,
    budget: &mut Budget,
) -> Result<KaylesReport, String> {
    let first = crate::base::winner_is_first(&cert.winner)?;
    let reduction = Reduction::new(spec, budget)?;
    let winning_move = match (first, cert.edge) {
        (true, Some(edge)) => {
            Some(reduction.heap_move(edge).map_err(|why| format!("the winning edge: {why}"))?)
        }
        (true, None) => return Err("a first-player win needs a winning edge".into()),
        (false, Some(_)) => return Err("a second-player win has no winning edge".into()),
        (false, None) => None,
    };
    let labelling = HeapLabelling {
        claim: if first { CLAIM_FIRST_PLAYER_WINS } else { CLAIM_SECOND_PLAYER_WINS }.into(),
        values: cert.values.clone(),
        winning_move,
        period: cert.period,
    };
    let rules = Rules::parse(reduction.game)?;
    let report =
        check_labelling_of(&rules, &reduction.heaps, &labelling, budget).map_err(|why| {
            format!("{} ({} on heaps {:?}): {why}", reduction.theorem, rules.code(), {
                let mut h = reduction.heaps.clone();
                h.truncate(12);
                h
            })
        })?;
    Ok(KaylesReport { theorem: reduction.theorem, heaps: reduction.heaps, labelling: report })
}

impl Claim for MarkingKayles {
    fn claim(&self) -> String {
        format!("the {} player wins", self.winner)
    }
}

/// Registry entry for `marking-kayles`.
pub fn kayles_verdict(spec: &MarkingSpec, cert: &MarkingKayles, budget: &mut Budget) -> Verdict {
    let claim = format!("the {} player wins {}", cert.winner, spec.game);
    match check_marking_kayles(spec, cert, budget) {
        Ok(report) => {
            let reason = format!(
                "by {} the game is a sum of {} (largest {}); every label up to heap {} is \
                 the mex over its moves ({}); the value is {}{}",
                report.theorem,
                crate::base::text::counted(report.heaps.len(), "heap"),
                report.heaps.iter().max().unwrap_or(&0),
                report.labelling.bound,
                crate::base::text::counted(report.labelling.moves, "move"),
                report.labelling.value,
                if report.labelling.value == 0 { "" } else { "; the winning edge leaves value 0" }
            );
            let work = Work { positions: Some(report.labelling.bound + 1), ..Work::default() };
            let mut trusted = vec![Theorem::TriangulationHeaps];
            trusted.extend(crate::impartial::heaps::theorems(&report.labelling));
            Verdict::accept(claim, reason, work, &trusted)
        }
        Err(why) => reject(claim, why, Work::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;
    use crate::base::budget::DEFAULT_MAX_WORK;
    use crate::triangulations::geometry::{Point, TriangulationSpec};

    fn parabola(n: usize) -> Vec<Point> {
        (0..n as i64).map(|i| [i, i * i]).collect()
    }

    fn kayles(bound: u64) -> Vec<u64> {
        crate::impartial::heaps::tests::values(&Rules::parse("kayles").unwrap(), bound)
    }

    /// Hexagon 0..6 with the inner triangle (0, 2, 4) and three ears: three heaps of 1 (value
    /// 1 ^ 1 ^ 1 = 1), so the first player wins by taking one ear (a hull edge).
    #[test]
    fn theorem_1_maps_edges_to_kayles_moves() {
        let spec = MarkingSpec {
            game: MarkingGame::Coloring,
            triangulation: TriangulationSpec {
                points: parabola(6),
                triangles: vec![[0, 2, 4], [0, 1, 2], [2, 3, 4], [4, 5, 0]],
                edges: vec![],
            },
        };
        let r = Reduction::new(&spec, &mut Budget::new(DEFAULT_MAX_WORK)).unwrap();
        assert_eq!(r.heaps, vec![1, 1, 1]);
        let ear = r.heap_move([0, 1]).unwrap();
        assert_eq!((ear.take, ear.leave.len()), (1, 0));
        // The diagonal 0-2 takes the ear (0, 1, 2) only: the inner triangle is ignored.
        assert_eq!(r.heap_move([0, 2]).unwrap().take, 1);
        assert!(r.heap_move([1, 3]).is_err());
        let cert = |winner: &str, edge: Option<[usize; 2]>| MarkingKayles {
            winner: winner.into(),
            edge,
            values: kayles(1),
            period: None,
        };
        let report =
            check_marking_kayles(&spec, &cert("first", Some([0, 1])), &mut Budget::new(1_000_000))
                .unwrap();
        assert_eq!((report.theorem, report.labelling.value), ("Theorem 1", 1));
        assert!(check_marking_kayles(&spec, &cert("second", None), &mut Budget::new(1_000_000))
            .is_err());
        assert!(
            check_marking_kayles(&spec, &cert("first", None), &mut Budget::new(1_000_000)).is_err()
        );
    }

    /// A fan of 6 points is one array of 4 triangles: Kayles heap 4 (value 1); taking the
    /// middle two (diagonal 0-3) leaves 1 + 1, value 0.
    #[test]
    fn a_fan_is_one_heap_and_a_symmetric_move_wins() {
        let spec = MarkingSpec {
            game: MarkingGame::Coloring,
            triangulation: TriangulationSpec {
                points: parabola(6),
                triangles: (1..5).map(|i| [0, i, i + 1]).collect(),
                edges: vec![],
            },
        };
        let cert = |edge: [usize; 2]| MarkingKayles {
            winner: "first".into(),
            edge: Some(edge),
            values: kayles(4),
            period: None,
        };
        assert!(check_marking_kayles(&spec, &cert([0, 3]), &mut Budget::new(1_000_000)).is_ok());
        let err =
            check_marking_kayles(&spec, &cert([0, 2]), &mut Budget::new(1_000_000)).err().unwrap();
        assert!(err.contains("not 0"), "{err}");
    }

    #[test]
    fn theorem_2_needs_convex_position_and_maps_sides() {
        let mut spec = MarkingSpec {
            game: MarkingGame::MonochromaticTriangle,
            triangulation: TriangulationSpec {
                points: parabola(8),
                triangles: vec![],
                edges: vec![],
            },
        };
        let r = Reduction::new(&spec, &mut Budget::new(DEFAULT_MAX_WORK)).unwrap();
        assert_eq!(r.heaps, vec![8]);
        let m = r.heap_move([1, 5]).unwrap();
        assert_eq!((m.take, m.leave), (2, vec![3, 3]));
        assert_eq!(r.heap_move([0, 7]).unwrap().leave, vec![6]);
        spec.triangulation.triangles.push([0, 1, 2]);
        assert!(Reduction::new(&spec, &mut Budget::new(DEFAULT_MAX_WORK))
            .err()
            .unwrap()
            .contains("points alone"));
        spec.triangulation.triangles.clear();
        spec.triangulation.points.push([3, 20]);
        assert!(Reduction::new(&spec, &mut Budget::new(DEFAULT_MAX_WORK))
            .err()
            .unwrap()
            .contains("convex position"));
    }
}

//! B's mirror strategy as a certificate the checker verifies in time linear in the graph
//! (`voronoi-mirror`, issue 47 item 7).
//!
//! # The rule
//!
//! Let σ be an automorphism of the graph of order 2 without fixed points (an involution pairing
//! every vertex with another), and let the start position be symmetric with colours swapped:
//! σ maps W's stones onto B's (and so B's onto W's). B answers every W stone `v` with σ(v).
//!
//! **Lemma (the mirror).** In the multi-round Voronoi game (W first in every round), B's mirror
//! strategy is always legal and ends every play with W's margin exactly 0; so B at least ties.
//!
//! *Proof.* Suppose the position is symmetric and W to move (true at the start: a symmetric
//! position has as many W stones as B stones). W occupies an empty `v`. σ(v) ≠ v (no fixed
//! point), and σ(v) was empty: were it W's (B's), v = σ(σ(v)) would have been B's (W's).
//! After B occupies σ(v) the position is symmetric again. So B always has its answer, and
//! the final position is symmetric. σ preserves distances (an automorphism), so for every
//! vertex u, d(u, W's stones) = d(σ(u), B's stones) and d(u, B's) = d(σ(u), W's): u is W's
//! exactly when σ(u) is B's, and σ, a bijection, maps W's dominance set onto B's. The scores
//! are equal. ∎
//!
//! The lemma is elementary and its hypotheses are all the checker needs: it is stated here and
//! in docs/trusted.md, and the certificate is checked, not trusted.
//!
//! # The certificate
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "voronoi-mirror",
//!  "player": "black", "claim": "at-least-ties",
//!  "pairs": [["p1", "p4"], ["p2", "p3"]]}
//! ```
//!
//! `pairs` lists σ as its 2-cycles, each once. The checker verifies: every vertex is in exactly
//! one pair (so σ is an involution without fixed points, defined everywhere); σ maps the
//! neighbours of every vertex onto the neighbours of its image (an automorphism: a bijection
//! mapping every edge to an edge, on a finite graph, maps the edges onto the edges); the start
//! position is symmetric with colours swapped. Only B can mirror (W moves first), so `player`
//! must be `black` and `claim` `at-least-ties`.
//!
//! Work: the instance's graph is built as for every Voronoi certificate; then 64 units a pair
//! (its names looked up), and 8 a vertex and 8 an adjacency entry for the automorphism test, all
//! charged before the loops: linear in the graph.

use crate::base::budget::Budget;
use crate::base::graph::Graph;
use crate::base::text::counted;
use crate::verdict::{reject, Claim, Verdict, Work};
use crate::voronoi::instance::MultiRoundSpec;
use crate::voronoi::multi_round::{validated, StrategyClaim};
use crate::voronoi::rules::Player;
use serde::{Deserialize, Serialize};

/// Certificate kind `voronoi-mirror`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoronoiMirror {
    /// The player who mirrors: `black`.
    pub player: Player,
    /// What the mirror gives it: `at-least-ties`.
    pub claim: StrategyClaim,
    /// The involution σ as its 2-cycles, each once.
    pub pairs: Vec<(String, String)>,
}

impl Claim for VoronoiMirror {
    fn claim(&self) -> String {
        let who = match self.player {
            Player::White => "W",
            Player::Black => "B",
        };
        match self.claim {
            StrategyClaim::AtLeastTies => format!("{who} at least ties"),
            StrategyClaim::Wins => format!("{who} wins"),
            StrategyClaim::MarginAtLeast => format!("{who}'s margin is at least a given margin"),
        }
    }
}

/// Work units a pair costs: its two names looked up and its entries stored.
const PAIR_COST: u64 = 64;

/// σ as an array (`image[v]`), checked to be an involution without fixed points on every
/// vertex of `graph`.
fn involution(
    graph: &Graph,
    pairs: &[(String, String)],
    budget: &mut Budget,
) -> Result<Vec<usize>, String> {
    let n = graph.len();
    // Counted before anything is looked up: exactly one pair for every two vertices.
    if n % 2 == 1 {
        return Err(format!(
            "the graph has {}: an involution without fixed points pairs every vertex, so it \
             needs an even number",
            counted(n as u64, "vertex")
        ));
    }
    if pairs.len() != n / 2 {
        return Err(format!(
            "pairs: {} for {}; an involution without fixed points has one pair for every two \
             vertices ({})",
            counted(pairs.len() as u64, "pair"),
            counted(n as u64, "vertex"),
            n / 2
        ));
    }
    budget.charge_each(n as u64, PAIR_COST, "reading the mirror's pairs")?;
    let mut image = vec![usize::MAX; n];
    for (k, (a, b)) in pairs.iter().enumerate() {
        let find = |name: &str| {
            graph.vertex(name).ok_or_else(|| format!("pairs[{k}]: unknown vertex '{name}'"))
        };
        let (u, v) = (find(a)?, find(b)?);
        if u == v {
            return Err(format!("pairs[{k}]: '{a}' is paired with itself (a fixed point)"));
        }
        for (w, name) in [(u, a), (v, b)] {
            if image[w] != usize::MAX {
                return Err(format!("pairs[{k}]: vertex '{name}' is in two pairs"));
            }
        }
        image[u] = v;
        image[v] = u;
    }
    // n / 2 pairs of distinct vertices, none in two pairs: every vertex is paired.
    Ok(image)
}

/// Whether `image` is an automorphism: it maps the neighbours of every vertex onto the
/// neighbours of the vertex's image. Linear: a stamp per vertex, each adjacency entry looked at
/// once.
fn automorphism(graph: &Graph, image: &[usize], budget: &mut Budget) -> Result<(), String> {
    let n = graph.len() as u64;
    let adjacency = (graph.edge_count() as u64).saturating_mul(2);
    budget.charge(
        n.saturating_add(adjacency).saturating_mul(8),
        "testing the mirror for an automorphism",
    )?;
    let mut stamp = vec![usize::MAX; graph.len()];
    for u in 0..graph.len() {
        let (neighbours, images) = (graph.neighbours(u), graph.neighbours(image[u]));
        if neighbours.len() != images.len() {
            return Err(format!(
                "not an automorphism: '{}' has {} and its image '{}' has {}",
                graph.name(u),
                counted(neighbours.len() as u64, "neighbour"),
                graph.name(image[u]),
                images.len()
            ));
        }
        for &w in images {
            stamp[w] = u;
        }
        if let Some(&v) = neighbours.iter().find(|&&v| stamp[image[v]] != u) {
            return Err(format!(
                "not an automorphism: the edge '{}' - '{}' maps to '{}' - '{}', which is not \
                 an edge",
                graph.name(u),
                graph.name(v),
                graph.name(image[u]),
                graph.name(image[v])
            ));
        }
    }
    Ok(())
}

/// Checks the mirror on `spec` (see the module docs): the reason to accept, and the work.
fn check_mirror(
    spec: &MultiRoundSpec,
    mirror: &VoronoiMirror,
    budget: &mut Budget,
) -> Result<(String, Work), String> {
    if mirror.player != Player::Black || mirror.claim != StrategyClaim::AtLeastTies {
        return Err(
            "only B can mirror (W moves first), and the mirror gives B a tie: a voronoi-mirror \
             certificate has player `black` and claim `at-least-ties`"
                .into(),
        );
    }
    let (game, work) =
        validated(spec, budget).map_err(|e| format!("the instance is not valid: {e}"))?;
    let image = involution(&game.graph, &mirror.pairs, budget)?;
    automorphism(&game.graph, &image, budget)?;
    for (v, &stone) in game.start.iter().enumerate() {
        let swapped = match stone {
            b'W' => b'B',
            b'B' => b'W',
            other => other,
        };
        if game.start[image[v]] != swapped {
            let owner = |c: u8| match c {
                b'W' => "W's",
                b'B' => "B's",
                _ => "empty",
            };
            return Err(format!(
                "the start is not symmetric with colours swapped: '{}' is {} and its image '{}' \
                 is {}",
                game.graph.name(v),
                owner(stone),
                game.graph.name(image[v]),
                owner(game.start[image[v]])
            ));
        }
    }
    let reason = format!(
        "B answers every W stone with its image under an automorphism of order 2 without fixed \
         points ({} checked on {} and {}), from a start symmetric with colours swapped: every \
         play ends in a symmetric position, a tie (the mirror lemma)",
        counted(mirror.pairs.len() as u64, "pair"),
        counted(game.graph.len() as u64, "vertex"),
        counted(game.graph.edge_count() as u64, "edge")
    );
    Ok((reason, work))
}

/// Registry entry for `voronoi-mirror`.
pub fn mirror_verdict(
    spec: &MultiRoundSpec,
    mirror: &VoronoiMirror,
    budget: &mut Budget,
) -> Verdict {
    let claim = mirror.claim();
    match check_mirror(spec, mirror, budget) {
        Ok((reason, work)) => Verdict::accept(claim, reason, work, &[]),
        Err(why) => reject(claim, why, Work::default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::instance::{GraphSpec, StartSpec};

    /// The path p1 - ... - pN, `rounds` rounds, from `start`.
    fn path(n: usize, rounds: usize, start: Option<(&[&str], &[&str])>) -> MultiRoundSpec {
        let names = |k: &[&str]| k.iter().map(|s| s.to_string()).collect();
        MultiRoundSpec {
            graph: GraphSpec {
                vertices: (1..=n).map(|i| format!("p{i}")).collect(),
                edges: (1..n).map(|i| (format!("p{i}"), format!("p{}", i + 1))).collect(),
            },
            rounds,
            start: start.map(|(w, b)| StartSpec { white: names(w), black: names(b) }),
            source: None,
        }
    }

    fn mirror(pairs: &[(&str, &str)]) -> VoronoiMirror {
        VoronoiMirror {
            player: Player::Black,
            claim: StrategyClaim::AtLeastTies,
            pairs: pairs.iter().map(|&(a, b)| (a.to_string(), b.to_string())).collect(),
        }
    }

    fn verdict(spec: &MultiRoundSpec, m: &VoronoiMirror) -> Verdict {
        mirror_verdict(spec, m, &mut Budget::new(1 << 30))
    }

    fn rejected(spec: &MultiRoundSpec, m: &VoronoiMirror, needle: &str) {
        let v = verdict(spec, m);
        assert!(!v.accepted(), "accepted: {}", v.reason);
        assert!(v.reason.contains(needle), "{needle:?} not in {:?}", v.reason);
    }

    const P4: [(&str, &str); 2] = [("p1", "p4"), ("p2", "p3")];

    #[test]
    fn accepts_the_reflection_of_an_even_path() {
        let v = verdict(&path(4, 2, None), &mirror(&P4));
        assert!(v.accepted(), "{}", v.reason);
        assert_eq!(v.claim, "B at least ties");
        // From a symmetric start too (W on p1, B on p4).
        let start = path(4, 2, Some((&["p1"], &["p4"])));
        assert!(verdict(&start, &mirror(&P4)).accepted());
    }

    #[test]
    fn rejects_every_broken_hypothesis() {
        let p4 = path(4, 1, None);
        rejected(&path(5, 1, None), &mirror(&P4), "an even number");
        rejected(&p4, &mirror(&P4[..1]), "1 pair for 4 vertices");
        rejected(&p4, &mirror(&[("p1", "p4"), ("p2", "p9")]), "pairs[1]: unknown vertex 'p9'");
        rejected(&p4, &mirror(&[("p1", "p1"), ("p2", "p3")]), "paired with itself");
        rejected(&p4, &mirror(&[("p1", "p4"), ("p4", "p2")]), "'p4' is in two pairs");
        // p1 <-> p2, p3 <-> p4: degrees match at p1 (1) and p2 (2)? No: degree 1 and 2.
        rejected(&p4, &mirror(&[("p1", "p2"), ("p3", "p4")]), "not an automorphism");
        // p1 <-> p3, p2 <-> p4 on the cycle-free path: p1 (degree 1) maps to p3 (degree 2).
        rejected(&p4, &mirror(&[("p1", "p3"), ("p2", "p4")]), "not an automorphism");
        // Degrees kept but an edge broken: on the 6-cycle (every degree 2), p1 <-> p2,
        // p3 <-> p5, p4 <-> p6 maps the edge p2 - p3 to p1 - p5, which is not an edge.
        let mut cycle = path(6, 1, None);
        cycle.graph.edges.push(("p6".into(), "p1".into()));
        let broken = mirror(&[("p1", "p2"), ("p3", "p5"), ("p4", "p6")]);
        rejected(&cycle, &broken, "is not an edge");
        assert!(verdict(&cycle, &mirror(&[("p1", "p4"), ("p2", "p5"), ("p3", "p6")])).accepted());
        let asymmetric = path(4, 2, Some((&["p1"], &["p3"])));
        rejected(&asymmetric, &mirror(&P4), "not symmetric with colours swapped");
        let white_twice = path(4, 2, Some((&["p1", "p4"], &["p2"])));
        rejected(&white_twice, &mirror(&P4), "not symmetric");
        let mut wrong = mirror(&P4);
        wrong.player = Player::White;
        rejected(&p4, &wrong, "only B can mirror");
        let mut greedy = mirror(&P4);
        greedy.claim = StrategyClaim::Wins;
        rejected(&p4, &greedy, "only B can mirror");
    }

    /// The work is linear: a budget of a few units per vertex and edge beyond the graph's own
    /// suffices, and a smaller one stops the check (not checked, never accepted).
    #[test]
    fn the_work_is_linear_and_charged() {
        let n = 10_000;
        let spec = path(n, 1, None);
        let names: Vec<(String, String)> =
            (1..=n / 2).map(|i| (format!("p{i}"), format!("p{}", n + 1 - i))).collect();
        let m = VoronoiMirror { pairs: names, ..mirror(&[]) };
        let mut budget = Budget::new(u64::MAX);
        assert!(mirror_verdict(&spec, &m, &mut budget).accepted());
        assert!(budget.used() < 400 * n as u64, "{} units", budget.used());
        let mut small = Budget::new(budget.used() - 1);
        let v = mirror_verdict(&spec, &m, &mut small);
        assert!(!v.accepted() && small.exhausted(), "{}", v.reason);
    }
}

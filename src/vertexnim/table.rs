//! `gamecert table vertex-nimg` (issue 32 item 5): Vertex NimG on every connected graph up to
//! a size and on directed circuits, weights 0..=W, the token on every vertex, normal and misère
//! play; each graph's whole weight box certified by a `vertexnim-outcomes` certificate
//! ([`super::outcomes`]) that the checker relabels, and the rules below tested on every
//! position.
//!
//! - undirected, normal play: Corollary 12 as [`super::solver::nimg_undirected`] implements it,
//!   with weight-0 vertices present at the start (the seed's note after Corollary 12: "the
//!   proof is still working if there exist vertices of null weight at the beginning");
//! - directed circuit v0 -> v1 -> ... -> v0, normal play: with a vertex of weight 0, the player
//!   to move wins iff the first such vertex met from the token (the token's own included, at
//!   distance 0) is an odd number of arcs ahead (the token can never pass it: the first player
//!   to land on it leaves the other stuck, and every vertex before it is left once); with
//!   none, Remark 5's rule ([`super::solver::nimg_circuit`]).
//!
//! Misère NimG has no rule in the seed (Remark 15); the table counts the positions whose
//! misère outcome differs from the normal one.

use super::outcomes::certificate;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::vertexnim::outcomes::check_outcomes;
use gamecert_certificates::vertexnim::strategy::{
    Play, State, Variant, VertexNim, VertexNimSpec, VertexSpec,
};
use rayon::prelude::*;
use serde::Serialize;

/// One row of `table vertex-nimg`: a family of graphs on one vertex count.
#[derive(Clone, Debug, Serialize)]
pub struct NimgRow {
    /// "connected graphs" (undirected) or "directed circuit".
    pub family: &'static str,
    pub vertices: usize,
    pub graphs: usize,
    /// Positions per play: every weight vector in 0..=max_weight, the token on every vertex.
    pub positions: u64,
    /// P positions (the player to move loses) under normal play.
    pub p_normal: u64,
    /// P positions under misère play.
    pub p_misere: u64,
    /// Positions whose misère outcome differs from the normal one.
    pub misere_differs: u64,
    /// The rule tested under normal play.
    pub rule: &'static str,
    /// Positions where the rule gives the certified outcome, and where it does not.
    pub rule_agrees: u64,
    pub rule_disagrees: u64,
    /// The first disagreement: the graph (graph6 or "circuit"), weights and token.
    pub first_disagreement: Option<String>,
}

/// Corollary 12 with weight-0 vertices allowed at the start.
const UNDIRECTED_RULE: &str = "Corollary 12, weight-0 vertices at the start";
/// The circuit rule of the module docs.
const CIRCUIT_RULE: &str = "first weight-0 vertex at odd distance; none: Remark 5";

/// A NimG instance on `n` vertices named v0.. with these arcs (edges when undirected), every
/// weight `max_weight`, the token on v0, under `play`.
fn instance(
    n: usize,
    arcs: &[(usize, usize)],
    directed: bool,
    max_weight: u64,
    play: Play,
) -> VertexNim {
    let spec = VertexNimSpec {
        directed,
        variant: Variant::Nimg,
        play,
        vertices: (0..n)
            .map(|v| VertexSpec { name: format!("v{v}"), weight: max_weight as i64 })
            .collect(),
        edges: arcs.iter().map(|&(a, b)| (format!("v{a}"), format!("v{b}"))).collect(),
        token: "v0".into(),
        source: None,
    };
    spec.validate().expect("generated graphs are valid")
}

/// Labels `game`'s box and has the checker relabel it; the letters once accepted.
fn certified_letters(game: &VertexNim) -> anyhow::Result<Vec<u8>> {
    let cert = certificate(game).ok_or_else(|| anyhow::anyhow!("the weight box is too large"))?;
    check_outcomes(game, &cert, &mut Budget::unlimited()).map_err(|why| {
        anyhow::anyhow!("internal error: the checker rejected a vertexnim-outcomes table: {why}")
    })?;
    Ok(cert.outcomes.into_bytes())
}

/// The weights and token of position `index` of a box with every weight at most `max_weight`.
fn position(index: usize, n: usize, max_weight: u64) -> (Vec<u64>, usize) {
    let mut rest = index / n;
    let digits = max_weight as usize + 1;
    let weights = (0..n)
        .map(|_| {
            let d = rest % digits;
            rest /= digits;
            d as u64
        })
        .collect();
    (weights, index % n)
}

/// What one graph contributes to its row.
#[derive(Default)]
struct Tally {
    p_normal: u64,
    p_misere: u64,
    misere_differs: u64,
    agrees: u64,
    disagrees: u64,
    first: Option<String>,
}

/// Solves and certifies one graph's box under both plays and tests `rule` on every position.
fn tally(
    name: &str,
    n: usize,
    arcs: &[(usize, usize)],
    directed: bool,
    max_weight: u64,
    rule: &(dyn Fn(&State) -> bool + Sync),
) -> anyhow::Result<Tally> {
    let normal_game = instance(n, arcs, directed, max_weight, Play::Normal);
    let normal = certified_letters(&normal_game)?;
    let misere = certified_letters(&instance(n, arcs, directed, max_weight, Play::Misere))?;
    let mut t = Tally::default();
    let mut state = normal_game.start.clone();
    for (i, (&a, &b)) in normal.iter().zip(&misere).enumerate() {
        t.p_normal += u64::from(a == b'P');
        t.p_misere += u64::from(b == b'P');
        t.misere_differs += u64::from(a != b);
        let (weights, token) = position(i, n, max_weight);
        state.weights = weights;
        state.token = Some(token);
        if rule(&state) == (a == b'N') {
            t.agrees += 1;
        } else {
            t.disagrees += 1;
            t.first.get_or_insert_with(|| {
                format!("{name} weights {:?} token v{token}: {}", state.weights, a as char)
            });
        }
    }
    Ok(t)
}

/// The rule for a directed circuit (see the module docs): `None` when the graph is not one
/// (every vertex with exactly one out-arc, no loop, one cycle through all).
pub fn circuit_rule(s: &State) -> Option<bool> {
    let n = s.weights.len();
    let mut at = s.token?;
    let mut weights = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for _ in 0..n {
        if std::mem::replace(&mut seen[at], true) {
            return None;
        }
        weights.push(s.weights[at]);
        let [next] = s.adj[at].iter().copied().collect::<Vec<_>>()[..] else { return None };
        at = next;
    }
    if at != s.token? || s.adj.iter().enumerate().any(|(v, out)| out.contains(&v)) {
        return None;
    }
    Some(match weights.iter().position(|&w| w == 0) {
        Some(distance) => distance % 2 == 1,
        None => super::solver::nimg_circuit(&weights),
    })
}

/// `table vertex-nimg`: every connected graph on 1..=`max_n` vertices and every directed
/// circuit on 2..=`max_n`, weights 0..=`max_weight`. `progress` hears each row as it starts.
pub fn nimg_table(
    max_n: usize,
    max_weight: u64,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<NimgRow>> {
    let graphs = crate::voronoi::census::connected_graphs(max_n).map_err(anyhow::Error::msg)?;
    let mut rows = Vec::new();
    let undirected_rule =
        |s: &State| super::solver::nimg_undirected(s).expect("the token is on a vertex");
    for n in 1..=max_n {
        progress(&format!("connected graphs on {n} vertices"));
        let on_n: Vec<_> = graphs.iter().filter(|g| g.graph.node_count() == n).collect();
        let tallies: Vec<Tally> = on_n
            .par_iter()
            .map(|g| {
                let arcs: Vec<(usize, usize)> = g
                    .graph
                    .edge_indices()
                    .map(|e| g.graph.edge_endpoints(e).unwrap())
                    .map(|(a, b)| (a.index(), b.index()))
                    .collect();
                tally(&g.text, n, &arcs, false, max_weight, &undirected_rule)
            })
            .collect::<anyhow::Result<_>>()?;
        rows.push(row("connected graphs", n, max_weight, UNDIRECTED_RULE, tallies));
    }
    let circuit = |s: &State| circuit_rule(s).expect("a circuit");
    for n in 2..=max_n {
        progress(&format!("directed circuit on {n} vertices"));
        let arcs: Vec<(usize, usize)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let t = tally("circuit", n, &arcs, true, max_weight, &circuit)?;
        rows.push(row("directed circuit", n, max_weight, CIRCUIT_RULE, vec![t]));
    }
    Ok(rows)
}

/// Sums the graphs' tallies into a row.
fn row(
    family: &'static str,
    n: usize,
    max_weight: u64,
    rule: &'static str,
    tallies: Vec<Tally>,
) -> NimgRow {
    let per_graph = (max_weight + 1).pow(n as u32) * n as u64;
    let mut r = NimgRow {
        family,
        vertices: n,
        graphs: tallies.len(),
        positions: per_graph * tallies.len() as u64,
        p_normal: 0,
        p_misere: 0,
        misere_differs: 0,
        rule,
        rule_agrees: 0,
        rule_disagrees: 0,
        first_disagreement: None,
    };
    for t in tallies {
        r.p_normal += t.p_normal;
        r.p_misere += t.p_misere;
        r.misere_differs += t.misere_differs;
        r.rule_agrees += t.agrees;
        r.rule_disagrees += t.disagrees;
        if r.first_disagreement.is_none() {
            r.first_disagreement = t.first;
        }
    }
    r
}

/// The table as Markdown, with the line that sums it up.
pub fn nimg_table_text(rows: &[NimgRow], max_weight: u64) -> String {
    let mut out = format!(
        "Vertex NimG, weights 0..={max_weight}, the token on every vertex; every position's \
         outcome certified (vertexnim-outcomes)\n\n| family | n | graphs | positions | P normal | \
         P misere | misere differs | rule (normal play) | rule agrees | disagrees |\n\
         |---|---:|---:|---:|---:|---:|---:|---|---:|---:|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.family,
            r.vertices,
            r.graphs,
            r.positions,
            r.p_normal,
            r.p_misere,
            r.misere_differs,
            r.rule,
            r.rule_agrees,
            r.rule_disagrees
        ));
    }
    let disagreements: u64 = rows.iter().map(|r| r.rule_disagrees).sum();
    let positions: u64 = rows.iter().map(|r| r.positions).sum();
    if disagreements == 0 {
        out.push_str(&format!(
            "\nBoth rules agree with the certified outcome on all {positions} positions.\n"
        ));
    } else {
        for r in rows.iter().filter(|r| r.rule_disagrees > 0) {
            out.push_str(&format!(
                "\n{} on {} vertices: the rule fails {} times, first {}\n",
                r.family,
                r.vertices,
                r.rule_disagrees,
                r.first_disagreement.as_deref().unwrap_or("?")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vertexnim::outcomes::outcome_letters;
    use crate::vertexnim::solver::Exact;

    /// The box labels agree with the exact solver (memoised negamax over the same rules) on
    /// every position of small graphs, both plays, directed and not.
    #[test]
    fn box_labels_match_the_exact_solver() {
        type Case<'a> = (usize, &'a [(usize, usize)], bool);
        let cases: [Case; 3] = [
            (3, &[(0, 1), (1, 2)], false),
            (3, &[(0, 1), (1, 2), (2, 0)], true),
            (4, &[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)], false),
        ];
        for (n, arcs, directed) in cases {
            for play in [Play::Normal, Play::Misere] {
                let game = instance(n, arcs, directed, 2, play);
                let letters = outcome_letters(&game).unwrap();
                let mut exact = Exact::new(&game).unwrap();
                for (i, &l) in letters.iter().enumerate() {
                    let (weights, token) = position(i, n, 2);
                    let mut s = game.start.clone();
                    s.weights = weights;
                    s.token = Some(token);
                    assert_eq!(exact.wins(&s).unwrap(), l == b'N', "{}", s.text(directed));
                }
            }
        }
    }

    #[test]
    fn the_table_on_small_graphs_is_certified_and_the_rules_hold() {
        let rows = nimg_table(4, 2, &mut |_| {}).unwrap();
        // 1 + 1 + 2 + 6 connected graphs, circuits on 2..4 vertices.
        assert_eq!(rows.iter().filter(|r| r.family == "connected graphs").count(), 4);
        assert_eq!(rows.iter().map(|r| r.graphs).sum::<usize>(), 1 + 1 + 2 + 6 + 3);
        assert_eq!(rows[3].positions, 6 * 81 * 4);
        for r in &rows {
            assert_eq!(r.rule_agrees + r.rule_disagrees, r.positions);
            assert_eq!(r.rule_disagrees, 0, "{r:?}");
        }
    }
}

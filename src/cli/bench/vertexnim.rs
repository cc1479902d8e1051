//! `gamecert bench vertexnim`: Theorem 10's labelling (seed 004) on random loopless connected
//! graphs whose every vertex is in case (4), so the whole graph is labelled: the paper's
//! quadratic rounds beside the sorted version, and the whole `solve` decision (validation
//! plus Theorem 10) from a parsed instance.

use gamecert::vertexnim::generate::instance;
use gamecert::vertexnim::solver::{case4_vertices, fast_outcome, labels_quadratic, labels_sorted};
use serde::Serialize;
use std::time::Instant;

/// One size.
#[derive(Clone, Debug, Serialize)]
pub struct VertexNimRow {
    pub vertices: usize,
    pub edges: usize,
    pub quadratic_seconds: f64,
    pub sorted_seconds: f64,
    /// Validation (graph, connectivity) plus Theorem 10 at the token.
    pub decide_seconds: f64,
    pub p_labels: usize,
    pub first_player_wins: bool,
}

/// n = 10^3, 3*10^3, 10^4, 3*10^4 (quick: the first three).
pub fn vertexnim(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<VertexNimRow>> {
    let sizes: &[usize] =
        if quick { &[1_000, 3_000, 10_000] } else { &[1_000, 3_000, 10_000, 30_000] };
    let mut rows = Vec::new();
    for &n in sizes {
        note(&format!("vertexnim: n = {n}"));
        let spec = instance(n, 7);
        let started = Instant::now();
        let game = spec.validate().map_err(anyhow::Error::msg)?;
        let (first, _) = fast_outcome(&game, &game.start)
            .ok_or_else(|| anyhow::anyhow!("Theorem 10 applies to every undirected instance"))?;
        let decide_seconds = started.elapsed().as_secs_f64();
        let inside = case4_vertices(&game.start);
        anyhow::ensure!(inside.iter().all(|&b| b), "every vertex is in case (4)");
        let started = Instant::now();
        let quadratic = labels_quadratic(&game.start, &inside);
        let quadratic_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let sorted = labels_sorted(&game.start, &inside);
        let sorted_seconds = started.elapsed().as_secs_f64();
        anyhow::ensure!(quadratic == sorted, "the two labellings differ");
        rows.push(VertexNimRow {
            vertices: n,
            edges: spec.edges.len(),
            quadratic_seconds,
            sorted_seconds,
            decide_seconds,
            p_labels: sorted.iter().filter(|&&l| l == 1).count(),
            first_player_wins: first,
        });
    }
    Ok(rows)
}

/// Markdown for [`vertexnim`], with the growth exponent between consecutive sizes.
pub fn vertexnim_table(rows: &[VertexNimRow]) -> String {
    let mut out = String::from(
        "| n | edges | P labels | quadratic s | growth exp. | sorted s | validate + decide s | winner |\n\
         |---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for (i, r) in rows.iter().enumerate() {
        let growth = if i == 0 {
            "-".to_string()
        } else {
            let p = &rows[i - 1];
            format!(
                "{:.2}",
                (r.quadratic_seconds / p.quadratic_seconds.max(1e-9)).ln()
                    / (r.vertices as f64 / p.vertices as f64).ln()
            )
        };
        out.push_str(&format!(
            "| {} | {} | {} | {:.4} | {} | {:.4} | {:.4} | {} |\n",
            r.vertices,
            r.edges,
            r.p_labels,
            r.quadratic_seconds,
            growth,
            r.sorted_seconds,
            r.decide_seconds,
            if r.first_player_wins { "first" } else { "second" }
        ));
    }
    out
}

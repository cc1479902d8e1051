//! `gamecert bench census`: how far the Voronoi-game census (`table voronoi-graphs`) reaches.
//! For each vertex count, every connected graph by gamecert's own generator (so the bench runs
//! without nauty), then the census for rounds 1 and 2: generation and solve-plus-check timed
//! apart, and the rate in graphs per second.

use gamecert::voronoi::census::{census, connected_graphs};
use serde::Serialize;
use std::time::Instant;

/// One vertex count.
#[derive(Clone, Debug, Serialize)]
pub struct CensusBenchRow {
    pub vertices: usize,
    pub graphs: usize,
    pub generate_seconds: f64,
    /// Solving both rounds' games and replaying both certificates, on every thread.
    pub census_seconds: f64,
    pub graphs_per_second: f64,
    pub positions_checked: u64,
}

/// n = 5..=8 (quick: 5..=7); n = 9 takes about a minute on two cores.
pub fn census_bench(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<CensusBenchRow>> {
    let max = if quick { 7 } else { 8 };
    let mut rows = Vec::new();
    for n in 5..=max {
        note(&format!("census: n = {n}"));
        let started = Instant::now();
        let all = connected_graphs(n).map_err(anyhow::Error::msg)?;
        let graphs: Vec<_> = all.into_iter().filter(|g| g.graph.node_count() == n).collect();
        let generate_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let table = census(&graphs, &[1, 2], &|_| {}).map_err(anyhow::Error::msg)?;
        let census_seconds = started.elapsed().as_secs_f64();
        rows.push(CensusBenchRow {
            vertices: n,
            graphs: graphs.len(),
            generate_seconds,
            census_seconds,
            graphs_per_second: graphs.len() as f64 / census_seconds.max(1e-9),
            positions_checked: table.iter().map(|r| r.positions_checked).sum(),
        });
    }
    Ok(rows)
}

/// Markdown for [`census_bench`].
pub fn census_table(rows: &[CensusBenchRow]) -> String {
    let mut out = String::from(
        "| n | graphs | generate (s) | census, rounds 1 and 2 (s) | graphs/s | positions checked |\n|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {:.3} | {:.3} | {:.0} | {} |\n",
            r.vertices,
            r.graphs,
            r.generate_seconds,
            r.census_seconds,
            r.graphs_per_second,
            r.positions_checked
        ));
    }
    out
}

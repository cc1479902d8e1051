//! `gamecert bench triangle`: the triangle-avoidance solver (seed 002) against nauty's geng,
//! which only enumerates the same triangle-free graphs (`nauty-geng -tu n`), in the same run;
//! and the size and check time of the Winner's strategy certificate, in JSON (in-memory solver)
//! and as a `triangle-stream` (out-of-core solver).

use crate::cli::triangle_engines::{auto_engine, Engine};
use gamecert::triangle_avoidance::solver::{certificate, GameDigraph, Rules};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::triangle_avoidance::strategy::check_triangle_strategy;
use serde::Serialize;
use std::process::Command;
use std::time::Instant;

/// One n.
#[derive(Clone, Debug, Serialize)]
pub struct TriangleRow {
    #[serde(rename = "vertices")]
    pub n: usize,
    pub winner: String,
    pub positions: usize,
    pub arcs: usize,
    pub solve_seconds: f64,
    /// `nauty-geng -tu n`, if installed.
    pub geng_seconds: Option<f64>,
    /// Bytes of the winner's strategy certificate (JSON), when built.
    pub certificate_bytes: Option<usize>,
    pub certificate_positions: Option<usize>,
    pub check_seconds: Option<f64>,
    /// The out-of-core solver on the same n (level files in a temporary folder).
    pub out_of_core_seconds: f64,
    /// The `triangle-stream` certificate written from those files, and its check.
    pub stream_bytes: u64,
    pub stream_write_seconds: f64,
    pub stream_check_seconds: f64,
    /// `gamecert table triangle-avoidance`'s default engine for this n ([`auto_engine`]).
    pub default_engine: String,
}

/// The out-of-core solver, the stream certificate and its check for n: (solve seconds,
/// certificate bytes, write seconds, check seconds).
fn out_of_core(n: usize) -> anyhow::Result<(f64, u64, f64, f64)> {
    use gamecert::triangle_avoidance::{external, stream_certificate};
    use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;
    let dir = std::env::temp_dir().join(format!("gamecert-bench-{}-{n}", std::process::id()));
    let budget = external::Budget { memory: 2_000_000_000, dir: dir.clone() };
    let started = Instant::now();
    external::solve(n, Rules::TriangleAvoidance, &budget, &mut |_, _| {})
        .map_err(anyhow::Error::msg)?;
    let solve_seconds = started.elapsed().as_secs_f64();
    let out = dir.join("certificate.tastream");
    let started = Instant::now();
    let written =
        stream_certificate::write(n, &budget, &out, &mut |_, _| {}).map_err(anyhow::Error::msg)?;
    let write_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let mut reader = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&out)?);
    check_triangle_stream(n, &mut reader, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
    let check_seconds = started.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(dir);
    Ok((solve_seconds, written.bytes, write_seconds, check_seconds))
}

fn geng_seconds(n: usize) -> Option<f64> {
    let started = Instant::now();
    let out = Command::new("nauty-geng").args(["-tu", &n.to_string()]).output().ok()?;
    out.status.success().then(|| started.elapsed().as_secs_f64())
}

/// n = 8..=12 (quick: 8..=10), each with its certificate.
pub fn triangle(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<TriangleRow>> {
    let (last, certified) = if quick { (10, 10) } else { (12, 12) };
    let mut rows = Vec::new();
    for n in 8..=last {
        note(&format!("triangle: n = {n}"));
        let started = Instant::now();
        let digraph = GameDigraph::build(n, Rules::TriangleAvoidance, &mut |_, _| {});
        let labels = digraph.label();
        let solve_seconds = started.elapsed().as_secs_f64();
        let (positions, arcs) = digraph.size();
        let (out_of_core_seconds, stream_bytes, stream_write_seconds, stream_check_seconds) =
            out_of_core(n)?;
        let free = u64::MAX; // the benchmark's sizes fit in memory
        let default_engine = match auto_engine(n, Rules::TriangleAvoidance, free) {
            Engine::OutOfCore => "out-of-core",
            _ => "in-memory",
        };
        let mut row = TriangleRow {
            n,
            winner: if labels[0][0] { "A" } else { "B" }.into(),
            positions,
            arcs,
            solve_seconds,
            geng_seconds: geng_seconds(n),
            certificate_bytes: None,
            certificate_positions: None,
            check_seconds: None,
            out_of_core_seconds,
            stream_bytes,
            stream_write_seconds,
            stream_check_seconds,
            default_engine: default_engine.into(),
        };
        if n <= certified {
            let strategy = certificate(&digraph, &labels);
            let text = Certificate::TriangleStrategy(strategy).to_json();
            let started = Instant::now();
            let Certificate::TriangleStrategy(read) = Certificate::from_json(&text)? else {
                anyhow::bail!("the certificate does not read back as a triangle strategy");
            };
            check_triangle_strategy(&read, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
            row.check_seconds = Some(started.elapsed().as_secs_f64());
            row.certificate_bytes = Some(text.len());
            row.certificate_positions = Some(read.positions.len());
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Markdown for [`triangle`].
pub fn triangle_table(rows: &[TriangleRow]) -> String {
    let mut out = String::from(
        "| n | winner | positions | arcs | solve s | out of core s | geng -tu s | ratio (out of core) | JSON certificate positions | bytes | parse + check s | stream bytes | stream check s |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    let ratio = |ours: f64, geng: Option<f64>| geng.map(|g| format!("{:.1}x", ours / g.max(1e-3)));
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.2} | {:.2} | {} | {} | {} | {} | {} | {} | {:.2} |\n",
            r.n,
            r.winner,
            r.positions,
            r.arcs,
            r.solve_seconds,
            r.out_of_core_seconds,
            opt(r.geng_seconds.map(|s| format!("{s:.2}"))),
            opt(ratio(r.out_of_core_seconds, r.geng_seconds)),
            opt(r.certificate_positions.map(|p| p.to_string())),
            opt(r.certificate_bytes.map(|b| b.to_string())),
            opt(r.check_seconds.map(|s| format!("{s:.2}"))),
            r.stream_bytes,
            r.stream_check_seconds,
        ));
    }
    // The table to the last n against enumerating the last n's graphs alone (issue 18: within
    // 20x): the rows below 8 take milliseconds.
    if let Some(last) = rows.last() {
        let in_memory: f64 = rows.iter().map(|r| r.solve_seconds).sum();
        let table: f64 = rows.iter().map(|r| r.out_of_core_seconds).sum();
        // The default table, certified: per n its engine's solve and certificate (the JSON
        // strategy's build is not timed apart, so in-memory rows count its check alone).
        let default: f64 = rows
            .iter()
            .map(|r| match r.default_engine.as_str() {
                "out-of-core" => {
                    r.out_of_core_seconds + r.stream_write_seconds + r.stream_check_seconds
                }
                _ => r.solve_seconds + r.check_seconds.unwrap_or(0.0),
            })
            .sum();
        out.push_str(&format!(
            "\nThe default engine (`table triangle-avoidance --max-n {}`, certified: {}): \
             {default:.2} s, ratio {} against `nauty-geng -tu {}`.\n",
            last.n,
            rows.iter()
                .map(|r| format!("n = {}: {}", r.n, r.default_engine))
                .collect::<Vec<_>>()
                .join(", "),
            opt(ratio(default, last.geng_seconds)),
            last.n,
        ));
        out.push_str(&format!(
            "\nThe table for n = 8..={} (Winner, t_n, m_n, w_n): in memory {in_memory:.2} s, ratio \
             {}; out of core {table:.2} s, ratio {}; against `nauty-geng -tu {}` alone: {}.\n",
            last.n,
            opt(ratio(in_memory, last.geng_seconds)),
            opt(ratio(table, last.geng_seconds)),
            last.n,
            opt(last.geng_seconds.map(|s| format!("{s:.2} s"))),
        ));
    }
    if rows.iter().all(|r| r.geng_seconds.is_none()) {
        out.push_str("\n(nauty-geng is not installed: no comparison; Debian package `nauty`)\n");
    }
    out
}

/// One vertex count of `bench canon`.
#[derive(Clone, Debug, Serialize)]
pub struct CanonRow {
    #[serde(rename = "vertices")]
    pub n: usize,
    /// The sample: every `modulus`-th part of `nauty-geng -t n` (its res/mod splitting).
    pub graphs: usize,
    pub modulus: u64,
    /// gamecert's canonical form, one thread, microseconds per graph.
    pub ours_microseconds: f64,
    /// `nauty-labelg` on the same file, microseconds per graph (the process's wall time).
    pub labelg_microseconds: f64,
    /// Search leaves visited per graph by ours.
    pub leaves_per_graph: f64,
}

/// Canonical labelling of triangle-free graphs on n = 12..=14 vertices (quick: 12, 13), ours
/// beside `nauty-labelg` on the same sample, in one run. Needs nauty (the sample comes from
/// `nauty-geng -t n res/mod`).
pub fn canon(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<CanonRow>> {
    use gamecert::triangle_avoidance::canon::{canonical_counting, SmallGraph};
    use gamecert_reductions::graphs::read_graph6;
    let sizes: &[(usize, u64)] =
        if quick { &[(12, 50), (13, 500)] } else { &[(12, 50), (13, 500), (14, 10_000)] };
    let mut rows = Vec::new();
    for &(n, modulus) in sizes {
        note(&format!("canon: n = {n}, nauty-geng -t {n} 0/{modulus}"));
        let out = Command::new("nauty-geng")
            .args(["-tq", &n.to_string(), &format!("0/{modulus}")])
            .output()
            .map_err(|e| anyhow::anyhow!("bench canon needs nauty (nauty-geng): {e}"))?;
        anyhow::ensure!(out.status.success(), "nauty-geng failed");
        let text = String::from_utf8(out.stdout)?;
        let graphs: Vec<SmallGraph> = read_graph6(&text, "geng")
            .map_err(anyhow::Error::msg)?
            .iter()
            .map(|entry| {
                let edges: Vec<(usize, usize)> = entry
                    .graph
                    .edge_indices()
                    .filter_map(|e| entry.graph.edge_endpoints(e))
                    .map(|(a, b)| (a.index(), b.index()))
                    .collect();
                SmallGraph::from_edges(n, &edges)
            })
            .collect();
        let started = Instant::now();
        let mut labelg = Command::new("nauty-labelg")
            .arg("-q")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()?;
        std::io::Write::write_all(&mut labelg.stdin.take().expect("piped"), text.as_bytes())?;
        anyhow::ensure!(labelg.wait()?.success(), "nauty-labelg failed");
        let labelg = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let leaves: u64 = graphs.iter().map(|g| canonical_counting(g).1).sum();
        let ours = started.elapsed().as_secs_f64();
        let count = graphs.len().max(1) as f64;
        rows.push(CanonRow {
            n,
            graphs: graphs.len(),
            modulus,
            ours_microseconds: ours * 1e6 / count,
            labelg_microseconds: labelg * 1e6 / count,
            leaves_per_graph: leaves as f64 / count,
        });
    }
    Ok(rows)
}

/// Markdown for [`canon`].
pub fn canon_table(rows: &[CanonRow]) -> String {
    let mut out = String::from(
        "| n | graphs (1/mod of geng -t n) | ours (µs/graph) | nauty-labelg (µs/graph) | ours / labelg | leaves/graph |\n|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} (1/{}) | {:.2} | {:.2} | {:.2} | {:.2} |\n",
            r.n,
            r.graphs,
            r.modulus,
            r.ours_microseconds,
            r.labelg_microseconds,
            r.ours_microseconds / r.labelg_microseconds.max(1e-9),
            r.leaves_per_graph
        ));
    }
    out
}

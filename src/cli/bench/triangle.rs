//! `gamecert bench triangle`: the triangle-avoidance solver (seed 002) against nauty's geng,
//! which only enumerates the same triangle-free graphs (`nauty-geng -tu n`), in the same run;
//! and the size and check time of the Winner's strategy certificate, in JSON (in-memory solver)
//! and as a `triangle-stream` (out-of-core solver). Each engine's time is given as wall and
//! CPU seconds (user + system over all threads, from `getrusage`), geng's too, since our
//! engines use every core and geng one: the CPU ratio is the one that holds on a busy machine.

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
    pub solve_cpu_seconds: f64,
    /// `nauty-geng -tu n`, if installed.
    pub geng_seconds: Option<f64>,
    pub geng_cpu_seconds: Option<f64>,
    /// Bytes of the winner's strategy certificate (JSON), when built.
    pub certificate_bytes: Option<usize>,
    pub certificate_positions: Option<usize>,
    pub check_seconds: Option<f64>,
    pub check_cpu_seconds: Option<f64>,
    /// The out-of-core solver on the same n (level files in a temporary folder).
    pub out_of_core_seconds: f64,
    pub out_of_core_cpu_seconds: f64,
    /// The `triangle-stream` certificate written from those files, and its check.
    pub stream_bytes: u64,
    pub stream_write_seconds: f64,
    pub stream_write_cpu_seconds: f64,
    pub stream_check_seconds: f64,
    pub stream_check_cpu_seconds: f64,
    /// `gamecert table triangle-avoidance`'s default engine for this n ([`auto_engine`]).
    pub default_engine: String,
}

/// CPU seconds (user + system) used so far by this process's threads (`who` =
/// `RUSAGE_SELF`) or by its waited-for children (`RUSAGE_CHILDREN`).
fn cpu_seconds(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct it is given, which is zeroed and ours.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(who, &mut usage) } != 0 {
        return 0.0;
    }
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// A wall clock and this process's CPU clock, started together.
pub(super) struct Clocks {
    wall: Instant,
    cpu: f64,
}

impl Clocks {
    pub(super) fn start() -> Clocks {
        Clocks { wall: Instant::now(), cpu: cpu_seconds(libc::RUSAGE_SELF) }
    }

    /// (wall, CPU) seconds since the start.
    pub(super) fn read(&self) -> (f64, f64) {
        (self.wall.elapsed().as_secs_f64(), cpu_seconds(libc::RUSAGE_SELF) - self.cpu)
    }
}

/// (wall, CPU) seconds of the out-of-core solver, of the stream certificate's writing and of
/// its check for n, and the certificate's bytes.
struct OutOfCore {
    solve: (f64, f64),
    write: (f64, f64),
    check: (f64, f64),
    bytes: u64,
}

/// The out-of-core solver, the stream certificate and its check for n.
fn out_of_core(n: usize) -> anyhow::Result<OutOfCore> {
    use gamecert::triangle_avoidance::{external, stream_certificate};
    use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;
    let scratch = crate::cli::scratch_dir("bench-triangle")?;
    let dir = scratch.path();
    let budget = external::Budget { memory: 2_000_000_000, dir: dir.to_path_buf() };
    let clocks = Clocks::start();
    external::solve(n, Rules::TriangleAvoidance, &budget, &mut |_, _| {})
        .map_err(anyhow::Error::msg)?;
    let solve = clocks.read();
    let out = dir.join("certificate.tastream");
    let clocks = Clocks::start();
    let written =
        stream_certificate::write(n, &budget, &out, &mut |_, _| {}).map_err(anyhow::Error::msg)?;
    let write = clocks.read();
    let clocks = Clocks::start();
    let mut reader = std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&out)?);
    check_triangle_stream(n, &mut reader, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
    let check = clocks.read();
    Ok(OutOfCore { solve, write, check, bytes: written.bytes })
}

/// `nauty-geng -tu n`: (wall, CPU) seconds, the CPU of the waited-for child.
fn geng_seconds(n: usize) -> Option<(f64, f64)> {
    let (started, before) = (Instant::now(), cpu_seconds(libc::RUSAGE_CHILDREN));
    let out = Command::new("nauty-geng").args(["-tu", &n.to_string()]).output().ok()?;
    let cpu = cpu_seconds(libc::RUSAGE_CHILDREN) - before;
    out.status.success().then(|| (started.elapsed().as_secs_f64(), cpu))
}

/// n = 8..=12 (quick: 8..=10), each with its certificate.
pub fn triangle(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<TriangleRow>> {
    let (last, certified) = if quick { (10, 10) } else { (12, 12) };
    let mut rows = Vec::new();
    for n in 8..=last {
        note(&format!("triangle: n = {n}"));
        let clocks = Clocks::start();
        let digraph = GameDigraph::build(n, Rules::TriangleAvoidance, &mut |_, _| {});
        let labels = digraph.label();
        let (solve_seconds, solve_cpu_seconds) = clocks.read();
        let (positions, arcs) = digraph.size();
        let ooc = out_of_core(n)?;
        let geng = geng_seconds(n);
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
            solve_cpu_seconds,
            geng_seconds: geng.map(|g| g.0),
            geng_cpu_seconds: geng.map(|g| g.1),
            certificate_bytes: None,
            certificate_positions: None,
            check_seconds: None,
            check_cpu_seconds: None,
            out_of_core_seconds: ooc.solve.0,
            out_of_core_cpu_seconds: ooc.solve.1,
            stream_bytes: ooc.bytes,
            stream_write_seconds: ooc.write.0,
            stream_write_cpu_seconds: ooc.write.1,
            stream_check_seconds: ooc.check.0,
            stream_check_cpu_seconds: ooc.check.1,
            default_engine: default_engine.into(),
        };
        if n <= certified {
            let strategy = certificate(&digraph, &labels);
            let text = Certificate::TriangleStrategy(strategy).to_json();
            let clocks = Clocks::start();
            let Certificate::TriangleStrategy(read) = Certificate::from_json(&text)? else {
                anyhow::bail!("the certificate does not read back as a triangle strategy");
            };
            check_triangle_strategy(&read, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
            let (wall, cpu) = clocks.read();
            (row.check_seconds, row.check_cpu_seconds) = (Some(wall), Some(cpu));
            row.certificate_bytes = Some(text.len());
            row.certificate_positions = Some(read.positions.len());
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Markdown for [`triangle`]: times as wall / CPU seconds.
pub fn triangle_table(rows: &[TriangleRow]) -> String {
    let mut out = String::from(
        "| n | winner | positions | arcs | in memory s (wall / CPU) | out of core s (wall / CPU) | geng -tu s (wall / CPU) | CPU ratio (out of core) | JSON certificate positions | bytes | parse + check s | stream bytes | stream write s (wall / CPU) | stream check s |\n\
         |---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let opt = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    let ratio = |ours: f64, geng: Option<f64>| geng.map(|g| format!("{:.1}x", ours / g.max(1e-3)));
    let pair = |wall: f64, cpu: f64| format!("{wall:.2} / {cpu:.2}");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |\n",
            r.n,
            r.winner,
            r.positions,
            r.arcs,
            pair(r.solve_seconds, r.solve_cpu_seconds),
            pair(r.out_of_core_seconds, r.out_of_core_cpu_seconds),
            opt(r.geng_seconds.zip(r.geng_cpu_seconds).map(|(w, c)| pair(w, c))),
            opt(ratio(r.out_of_core_cpu_seconds, r.geng_cpu_seconds)),
            opt(r.certificate_positions.map(|p| p.to_string())),
            opt(r.certificate_bytes.map(|b| b.to_string())),
            opt(r.check_seconds.map(|s| format!("{s:.2}"))),
            r.stream_bytes,
            pair(r.stream_write_seconds, r.stream_write_cpu_seconds),
            r.stream_check_seconds,
        ));
    }
    // The table to the last n against enumerating the last n's graphs alone (issue 18: within
    // 20x; issue 33: within 3x in CPU): the rows below 8 take milliseconds.
    if let Some(last) = rows.last() {
        // Per engine, (wall, CPU) summed over the rows.
        let sum = |f: &dyn Fn(&TriangleRow) -> (f64, f64)| {
            rows.iter().map(f).fold((0.0, 0.0), |(w, c), (x, y)| (w + x, c + y))
        };
        let in_memory = sum(&|r| (r.solve_seconds, r.solve_cpu_seconds));
        let table = sum(&|r| (r.out_of_core_seconds, r.out_of_core_cpu_seconds));
        // The default table, certified: per n its engine's solve and certificate (the JSON
        // strategy's build is not timed apart, so in-memory rows count its check alone).
        let default = sum(&|r| match r.default_engine.as_str() {
            "out-of-core" => (
                r.out_of_core_seconds + r.stream_write_seconds + r.stream_check_seconds,
                r.out_of_core_cpu_seconds + r.stream_write_cpu_seconds + r.stream_check_cpu_seconds,
            ),
            _ => (
                r.solve_seconds + r.check_seconds.unwrap_or(0.0),
                r.solve_cpu_seconds + r.check_cpu_seconds.unwrap_or(0.0),
            ),
        });
        let against = |(wall, cpu): (f64, f64)| {
            format!(
                "wall {wall:.2} s (ratio {}), CPU {cpu:.2} s (ratio {})",
                opt(ratio(wall, last.geng_seconds)),
                opt(ratio(cpu, last.geng_cpu_seconds)),
            )
        };
        out.push_str(&format!(
            "\nAgainst `nauty-geng -tu {}` alone ({}):\n\n\
             - the default engine (`table triangle-avoidance --max-n {}`, certified: {}): {};\n\
             - in memory, uncertified: {};\n\
             - out of core, uncertified: {}.\n",
            last.n,
            opt(last
                .geng_seconds
                .zip(last.geng_cpu_seconds)
                .map(|(w, c)| { format!("wall {w:.2} s, CPU {c:.2} s") })),
            last.n,
            rows.iter()
                .map(|r| format!("n = {}: {}", r.n, r.default_engine))
                .collect::<Vec<_>>()
                .join(", "),
            against(default),
            against(in_memory),
            against(table),
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

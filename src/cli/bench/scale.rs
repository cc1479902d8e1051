//! `gamecert bench scale` (issue 47, item 8): what certification costs beside the solver at the
//! sizes research runs at, every command a child process measured by `wait4` (wall, CPU, peak
//! resident memory), as a user runs it.
//!
//! - **SAT rows.** For each size n, the first draw of a random 3-CNF with n variables and
//!   round(4.26 n) clauses (seeded by n; satisfiable or not, as it falls), reduced with
//!   `gamecert reduce sat-voronoi1`; then the `cadical` binary on the formula (its conflicts
//!   read from its statistics), `gamecert solve -o` (the conflicts of its CaDiCaL run read from
//!   `--json`) and `gamecert verify`. The ratios that issue 47 bounds: solve's wall time over
//!   cadical's, solve's peak memory against 2 * cadical's + 200 MB, and the certificate's bytes
//!   per conflict.
//! - **Strategy rows.** The proof search's certificates on complete binary trees, written as
//!   JSON by `solve --method prove`, turned into the binary form by `gamecert convert`, and
//!   each form checked by `verify`: bytes and the check's time and peak memory.

use super::{measure_child, measure_process, ProcessCost, Progress};
use anyhow::Context;
use gamecert::base::rng::Rng;
use gamecert::base::sat::random_k_cnf;
use serde::Serialize;
use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::Path;

/// One formula of the SAT rows.
#[derive(Clone, Debug, Serialize)]
pub struct SatScaleRow {
    pub vars: u32,
    pub clauses: usize,
    /// `UNSATISFIABLE` or `SATISFIABLE`, as the cadical binary answered.
    pub status: String,
    /// The cadical binary on the formula (absent when it is not installed).
    pub cadical: Option<ProcessCost>,
    /// Its conflicts, from its statistics.
    pub cadical_conflicts: Option<u64>,
    /// `gamecert solve INSTANCE -o CERTIFICATE --json`.
    pub solve: ProcessCost,
    /// The conflicts of solve's own CaDiCaL run (absent for a witness).
    pub solve_conflicts: Option<u64>,
    /// `gamecert verify INSTANCE CERTIFICATE`.
    pub verify: ProcessCost,
    pub certificate_bytes: u64,
    /// `certificate_bytes / solve_conflicts`.
    pub bytes_per_conflict: Option<f64>,
    /// `solve.wall_seconds / cadical.wall_seconds` (issue 47's bar: 1.3).
    pub solve_over_cadical_wall: Option<f64>,
    /// Issue 47's memory bar for solve and verify: 2 * cadical's peak + 200 MB.
    pub memory_bar_bytes: Option<u64>,
}

/// One certificate of the strategy rows.
#[derive(Clone, Debug, Serialize)]
pub struct StrategyScaleRow {
    /// e.g. `kary-tree k=2 height=4 rounds=6`.
    pub case: String,
    /// `gamecert solve --method prove` writing the JSON certificate.
    pub solve: ProcessCost,
    pub json_bytes: u64,
    pub binary_bytes: u64,
    pub verify_json: ProcessCost,
    pub verify_binary: ProcessCost,
}

/// The result of [`scale`].
#[derive(Clone, Debug, Serialize)]
pub struct ScaleReport {
    pub sat: Vec<SatScaleRow>,
    pub strategies: Vec<StrategyScaleRow>,
}

fn os(text: &str) -> &OsStr {
    OsStr::new(text)
}

/// The first number after `c conflicts:` in cadical's statistics.
fn cadical_conflicts(output: &str) -> Option<u64> {
    output
        .lines()
        .find_map(|line| line.strip_prefix("c conflicts:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
}

/// Runs the benchmark: sizes 250 to 310 (step 20), or 150 to 200 with `quick`; the strategy
/// rows on the binary tree of height 4 with 6 and 8 rounds (with `quick`: height 3, 6 rounds).
pub fn scale(quick: bool, progress: Progress) -> anyhow::Result<ScaleReport> {
    let sizes: &[u32] = if quick { &[150, 175, 200] } else { &[250, 270, 290, 310] };
    let scratch = crate::cli::scratch_dir("bench-scale")?;
    let dir = scratch.path();
    let has_cadical = std::process::Command::new("cadical").arg("--version").output().is_ok();
    let mut sat = Vec::new();
    for &n in sizes {
        progress(&format!("scale: random 3-CNF with {n} variables"));
        sat.push(sat_row(n, dir, has_cadical)?);
    }
    let cases: &[(u32, u32)] = if quick { &[(3, 6)] } else { &[(4, 6), (4, 8)] };
    let mut strategies = Vec::new();
    for &(height, rounds) in cases {
        progress(&format!("scale: the binary tree of height {height} with {rounds} rounds"));
        strategies.push(strategy_row(height, rounds, dir)?);
    }
    Ok(ScaleReport { sat, strategies })
}

fn sat_row(n: u32, dir: &Path, has_cadical: bool) -> anyhow::Result<SatScaleRow> {
    let clauses = (4.26 * f64::from(n)).round() as usize;
    let cnf = random_k_cnf(n, clauses, 3, &mut Rng::new(u64::from(n)));
    let formula = dir.join(format!("f{n}.cnf"));
    let instance = dir.join(format!("f{n}.json"));
    let certificate = dir.join(format!("f{n}.cert"));
    std::fs::write(&formula, cnf.to_dimacs())?;
    let (cadical, status, cadical_conflicts) = if has_cadical {
        let (cost, code, out) = measure_process(os("cadical"), &[formula.as_os_str()], &[10, 20])?;
        let status = if code == 20 { "UNSATISFIABLE" } else { "SATISFIABLE" };
        (Some(cost), status.to_string(), cadical_conflicts(&out))
    } else {
        (None, "unknown".to_string(), None)
    };
    measure_child(&[
        os("-q"),
        os("reduce"),
        os("sat-voronoi1"),
        formula.as_os_str(),
        os("-o"),
        instance.as_os_str(),
    ])?;
    let exe = std::env::current_exe()?;
    let (solve, _, printed) = measure_process(
        exe.as_os_str(),
        &[os("solve"), instance.as_os_str(), os("-o"), certificate.as_os_str(), os("--json")],
        &[0],
    )?;
    let fields: serde_json::Value =
        serde_json::from_str(&printed).context("solve --json printed no JSON")?;
    let solve_conflicts = fields.get("conflicts").and_then(serde_json::Value::as_u64);
    let verify =
        measure_child(&[os("-q"), os("verify"), instance.as_os_str(), certificate.as_os_str()])?;
    let certificate_bytes = std::fs::metadata(&certificate)?.len();
    let bytes_per_conflict =
        solve_conflicts.filter(|&c| c > 0).map(|c| certificate_bytes as f64 / c as f64);
    let solve_over_cadical_wall = cadical.as_ref().map(|c| solve.wall_seconds / c.wall_seconds);
    let memory_bar_bytes = cadical.as_ref().map(|c| 2 * c.max_rss_bytes + 200_000_000);
    for path in [&formula, &instance, &certificate] {
        let _ = std::fs::remove_file(path);
    }
    Ok(SatScaleRow {
        vars: n,
        clauses,
        status,
        cadical,
        cadical_conflicts,
        solve,
        solve_conflicts,
        verify,
        certificate_bytes,
        bytes_per_conflict,
        solve_over_cadical_wall,
        memory_bar_bytes,
    })
}

fn strategy_row(height: u32, rounds: u32, dir: &Path) -> anyhow::Result<StrategyScaleRow> {
    let instance = dir.join(format!("k2h{height}r{rounds}.json"));
    let json = dir.join(format!("k2h{height}r{rounds}.cert.json"));
    let binary = dir.join(format!("k2h{height}r{rounds}.cert.bin"));
    let (h, r) = (height.to_string(), rounds.to_string());
    measure_child(&[
        os("-q"),
        os("gen"),
        os("kary-tree"),
        os("--k"),
        os("2"),
        os("--height"),
        os(&h),
        os("--rounds"),
        os(&r),
        os("-o"),
        instance.as_os_str(),
    ])?;
    let solve = measure_child(&[
        os("-q"),
        os("solve"),
        instance.as_os_str(),
        os("--method"),
        os("prove"),
        os("--format"),
        os("json"),
        os("-o"),
        json.as_os_str(),
    ])?;
    measure_child(&[
        os("-q"),
        os("convert"),
        json.as_os_str(),
        os("-o"),
        binary.as_os_str(),
        os("--to"),
        os("binary"),
    ])?;
    let verify = |certificate: &Path| {
        measure_child(&[os("-q"), os("verify"), instance.as_os_str(), certificate.as_os_str()])
    };
    let row = StrategyScaleRow {
        case: format!("kary-tree k=2 height={height} rounds={rounds}"),
        solve,
        json_bytes: std::fs::metadata(&json)?.len(),
        binary_bytes: std::fs::metadata(&binary)?.len(),
        verify_json: verify(&json)?,
        verify_binary: verify(&binary)?,
    };
    for path in [&instance, &json, &binary] {
        let _ = std::fs::remove_file(path);
    }
    Ok(row)
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// The report as Markdown tables.
pub fn scale_table(report: &ScaleReport) -> String {
    let mut out = String::from(
        "| vars | clauses | answer | cadical s | cadical MB | conflicts | solve s | solve MB | \
         solve / cadical | bar MB | verify s | verify MB | certificate MB | bytes / conflict |\n\
         |---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let or_dash = |value: Option<String>| value.unwrap_or_else(|| "-".into());
    for row in &report.sat {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {:.1} | {:.0} | {} | {} | {:.1} | {:.0} | {:.1} | {} |",
            row.vars,
            row.clauses,
            row.status,
            or_dash(row.cadical.as_ref().map(|c| format!("{:.1}", c.wall_seconds))),
            or_dash(row.cadical.as_ref().map(|c| format!("{:.0}", mb(c.max_rss_bytes)))),
            or_dash(row.solve_conflicts.or(row.cadical_conflicts).map(|c| c.to_string())),
            row.solve.wall_seconds,
            mb(row.solve.max_rss_bytes),
            or_dash(row.solve_over_cadical_wall.map(|r| format!("{r:.2}"))),
            or_dash(row.memory_bar_bytes.map(|b| format!("{:.0}", mb(b)))),
            row.verify.wall_seconds,
            mb(row.verify.max_rss_bytes),
            mb(row.certificate_bytes),
            or_dash(row.bytes_per_conflict.map(|b| format!("{b:.0}"))),
        );
    }
    out.push_str(
        "\n| strategy | solve s | JSON MB | binary MB | binary / JSON | verify JSON s | MB | \
         verify binary s | MB |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for row in &report.strategies {
        let _ = writeln!(
            out,
            "| {} | {:.1} | {:.1} | {:.1} | {:.2} | {:.1} | {:.0} | {:.1} | {:.0} |",
            row.case,
            row.solve.wall_seconds,
            mb(row.json_bytes),
            mb(row.binary_bytes),
            row.binary_bytes as f64 / row.json_bytes.max(1) as f64,
            row.verify_json.wall_seconds,
            mb(row.verify_json.max_rss_bytes),
            row.verify_binary.wall_seconds,
            mb(row.verify_binary.max_rss_bytes),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cadical_statistics_give_the_conflicts() {
        let text = "c some line\nc conflicts:               123456      9876.54    per second\n";
        assert_eq!(cadical_conflicts(text), Some(123456));
        assert_eq!(cadical_conflicts("c no statistics\n"), None);
    }
}

//! `gamecert table NAME`: tables of game values, every entry certified and checked.
//!
//! `voronoi-kary`: the value of VG(T, n) on complete k-ary trees below the paper's size bound
//! (which Theorem 1 leaves open): k = 2 to 5, every height whose tree has at most 128 vertices
//! (the exact solver's limit), every n with 2n <= N. Each entry is solved by the exact solver
//! within a node budget, folding moves by sibling-subtree swaps; a solved entry's
//! `voronoi-value` certificate is replayed by the checker. Past the budget, seed 001's
//! strategies are tried ([`crate::voronoi::kary::kary_certificate_within`]): for even k, W's key-level
//! and B's symmetric strategy together fix the value 0 when both check; otherwise W's
//! strategy (Algorithm 1 or 2), when it checks, gives a certified lower bound on W's margin
//! (its worst margin over every B play), reported as "W wins (>= m)". Anything else is
//! reported as open, never guessed.
//!
//! `voronoi-paths`: the value of VG(P_N, n) on paths (seed 001's conclusion reports, from
//! computer experiments, that every game on a path of at most 30 vertices is a tie), every N
//! in a range and every n with 2n <= N. Each entry is solved over typed gap states by
//! [`crate::voronoi::paths`] (one transposition table for the whole table) and its
//! `voronoi-path-value` certificate is replayed by the checker's
//! [`check_path_value`] before the entry is reported.

use crate::voronoi::exact::ExactSolver;
use crate::voronoi::gen::kary_tree;
use crate::voronoi::paths::{PathSolution, PathSolver};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::voronoi::multi_round::{check_strategy, check_value};
use gamecert_certificates::voronoi::paths::check_path_value;
use serde::Serialize;
use std::time::Instant;

/// The most positions a paper strategy's certificate may have in the k-ary table, by default.
pub const STRATEGY_POSITIONS: usize = 300_000;

/// One entry of the k-ary table.
#[derive(Clone, Debug, Serialize)]
pub struct KaryEntry {
    pub k: u64,
    pub height: u32,
    pub vertices: usize,
    pub rounds: usize,
    /// W's margin under optimal play, or `None` if it is not settled.
    pub value: Option<i64>,
    /// When the value is not settled: a margin W's certified strategy guarantees.
    pub at_least: Option<i64>,
    /// What settled the entry: "exact", "strategies" (the paper's, both sides), "W strategy".
    pub method: String,
    /// Positions the checker replayed (both strategies).
    pub positions_checked: u64,
    pub search_nodes: u64,
}

/// The entries (k, height, rounds) of the k-ary table: k = 2..=5, every height whose tree the
/// exact solver takes, every number of rounds that fits.
pub fn kary_entries() -> Vec<(u64, u32, usize)> {
    let mut entries = Vec::new();
    for k in 2..=5u64 {
        for height in 1..=6u32 {
            let Some(size) = crate::voronoi::gen::kary_size(k, height) else {
                break;
            };
            if size > crate::voronoi::exact::MAX_VERTICES as u64 {
                break;
            }
            entries.extend((1..=(size as usize / 2)).map(|rounds| (k, height, rounds)));
        }
    }
    entries
}

/// The k-ary table with `node_budget` search nodes per entry for the exact solver and at most
/// `strategy_positions` positions per certificate of the paper's strategies.
pub fn voronoi_kary(
    node_budget: u64,
    strategy_positions: usize,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<KaryEntry>> {
    let mut rows = Vec::new();
    for (k, height, rounds) in kary_entries() {
        progress(&format!("k {k}, height {height}, n {rounds}"));
        let spec = kary_tree(k, height, rounds)?;
        let game = spec.validate()?;
        let root = game.graph.vertex("r").expect("gen names the root r");
        let solver = ExactSolver::new(&game)
            .and_then(|s| s.with_tree_symmetry(root))
            .map_err(anyhow::Error::msg)?;
        let mut entry = KaryEntry {
            k,
            height,
            vertices: game.graph.len(),
            rounds,
            value: None,
            at_least: None,
            method: "open".into(),
            positions_checked: 0,
            search_nodes: 0,
        };
        let rejected = |e: String| {
            anyhow::anyhow!(
                "the checker rejected the k {k}, height {height}, n {rounds} entry: {e}"
            )
        };
        if let Some(solution) = solver.solve_within(node_budget) {
            let (w, b) = check_value(
                &game.graph,
                rounds,
                &game.start,
                &solution.certificate(),
                &mut Budget::unlimited(),
            )
            .map_err(rejected)?;
            entry.value = Some(solution.value);
            entry.method = "exact".into();
            entry.positions_checked = w.positions + b.positions;
            entry.search_nodes = solution.nodes;
        } else {
            let strategies =
                crate::voronoi::kary::kary_certificate_within(&game, k, strategy_positions)
                    .map_err(anyhow::Error::msg)?;
            match strategies {
                Some((Certificate::VoronoiValue(value), _)) => {
                    let (w, b) = check_value(
                        &game.graph,
                        rounds,
                        &game.start,
                        &value,
                        &mut Budget::unlimited(),
                    )
                    .map_err(rejected)?;
                    entry.value = Some(value.value);
                    entry.method = "strategies".into();
                    entry.positions_checked = w.positions + b.positions;
                }
                Some((Certificate::VoronoiStrategy(white), _)) => {
                    let report = check_strategy(
                        &game.graph,
                        rounds,
                        &game.start,
                        &white,
                        &mut Budget::unlimited(),
                    )
                    .map_err(rejected)?;
                    entry.at_least = report.worst_margin;
                    entry.method = "W strategy".into();
                    entry.positions_checked = report.positions;
                }
                _ => {}
            }
        }
        rows.push(entry);
    }
    Ok(rows)
}

/// Markdown for [`voronoi_kary`].
pub fn voronoi_kary_table(rows: &[KaryEntry]) -> String {
    let mut out = String::from("| k | height | N | n | value (W's margin) | settled by | positions checked | search nodes |\n|---:|---:|---:|---:|---|---|---:|---:|\n");
    for r in rows {
        let value = match r.value {
            Some(v) if v > 0 => format!("{v} (W wins)"),
            Some(0) => "0 (tie)".to_string(),
            Some(v) => format!("{v} (B wins)"),
            None => match r.at_least {
                Some(m) => format!(">= {m} (W wins; W's strategy only)"),
                None => "open (budget)".to_string(),
            },
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.k,
            r.height,
            r.vertices,
            r.rounds,
            value,
            r.method,
            r.positions_checked,
            r.search_nodes
        ));
    }
    let count = |m: &str| rows.iter().filter(|r| r.method == m).count();
    out.push_str(&format!(
        "\n{} entries: {} exact values, {} values fixed by the paper's strategies for both sides, \
         {} W wins certified by W's strategy alone, {} open\n",
        rows.len(),
        count("exact"),
        count("strategies"),
        count("W strategy"),
        count("open")
    ));
    out
}

/// One entry of the path table.
#[derive(Clone, Debug, Serialize)]
pub struct PathEntry {
    pub vertices: usize,
    pub rounds: usize,
    /// W's margin under optimal play.
    pub value: i64,
    /// Abstract states the checker replayed for W's strategy (final states included).
    pub white_states: u64,
    /// The same for B's strategy.
    pub black_states: u64,
    /// States the search expanded for this entry (others came from the shared table).
    pub search_nodes: u64,
    pub solve_seconds: f64,
    pub check_seconds: f64,
}

/// The refusal threshold of `table voronoi-paths --max-vertices`.
pub const MAX_PATH_TABLE_VERTICES: usize = 200;

/// The path table for N = `min_vertices..=max_vertices`, every n with 2n <= N; every entry's
/// certificate is accepted by the checker before it is reported.
pub fn voronoi_paths(
    min_vertices: usize,
    max_vertices: usize,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<PathEntry>> {
    let mut solver = PathSolver::new();
    voronoi_paths_with(&mut solver, min_vertices, max_vertices, progress)
}

/// [`voronoi_paths`] with a caller's solver (whose table carries over between calls).
pub fn voronoi_paths_with(
    solver: &mut PathSolver,
    min_vertices: usize,
    max_vertices: usize,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<PathEntry>> {
    anyhow::ensure!(
        (1..=MAX_PATH_TABLE_VERTICES).contains(&max_vertices) && min_vertices >= 1,
        "the path table takes 1 <= N <= {MAX_PATH_TABLE_VERTICES} (got {min_vertices}..{max_vertices})"
    );
    // The solver runs on this thread; the checker replays each certificate on a second one
    // while the next entry is solved (the machine has two cores).
    let (send, receive) = std::sync::mpsc::channel::<(usize, usize, PathSolution, f64)>();
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || -> anyhow::Result<Vec<PathEntry>> {
            let mut rows = Vec::new();
            for (vertices, rounds, solution, solve_seconds) in receive {
                let started = Instant::now();
                let (w, b) = check_path_value(
                    vertices,
                    rounds,
                    &solution.certificate,
                    &mut Budget::unlimited(),
                )
                .map_err(|e| {
                    anyhow::anyhow!("the checker rejected the N {vertices}, n {rounds} entry: {e}")
                })?;
                rows.push(PathEntry {
                    vertices,
                    rounds,
                    value: solution.value,
                    white_states: w.states,
                    black_states: b.states,
                    search_nodes: solution.nodes,
                    solve_seconds,
                    check_seconds: started.elapsed().as_secs_f64(),
                });
            }
            Ok(rows)
        });
        let solved = (|| -> anyhow::Result<()> {
            for vertices in min_vertices.max(2)..=max_vertices {
                for rounds in 1..=vertices / 2 {
                    progress(&format!("N {vertices}, n {rounds}"));
                    let started = Instant::now();
                    let solution = solver.solve(vertices, rounds).map_err(anyhow::Error::msg)?;
                    let seconds = started.elapsed().as_secs_f64();
                    if send.send((vertices, rounds, solution, seconds)).is_err() {
                        // The checker stopped: its error is reported below.
                        return Ok(());
                    }
                }
            }
            Ok(())
        })();
        drop(send);
        let rows = checker.join().map_err(|_| anyhow::anyhow!("the checker thread panicked"))??;
        solved?;
        Ok(rows)
    })
}

fn value_text(v: i64) -> String {
    match v {
        v if v > 0 => format!("{v} (W wins)"),
        0 => "0 (tie)".to_string(),
        v => format!("{v} (B wins)"),
    }
}

/// Markdown for [`voronoi_paths`], and a summary line; `times` adds the time columns (left out
/// where the output must not vary, as in snapshots).
pub fn voronoi_paths_table(rows: &[PathEntry], times: bool, wall_seconds: f64) -> String {
    let mut out = String::from(
        "| N | n | value (W's margin) | W's strategy states | B's strategy states | search nodes |",
    );
    if times {
        out.push_str(" solve s | check s |\n|---:|---:|---|---:|---:|---:|---:|---:|\n");
    } else {
        out.push_str("\n|---:|---:|---|---:|---:|---:|\n");
    }
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |",
            r.vertices,
            r.rounds,
            value_text(r.value),
            r.white_states,
            r.black_states,
            r.search_nodes
        ));
        if times {
            out.push_str(&format!(" {:.3} | {:.3} |", r.solve_seconds, r.check_seconds));
        }
        out.push('\n');
    }
    let ties = rows.iter().filter(|r| r.value == 0).count();
    let checked: u64 = rows.iter().map(|r| r.white_states + r.black_states).sum();
    out.push_str(&format!(
        "\n{} entries, {ties} ties, {} not ties; the checker replayed {checked} gap states",
        rows.len(),
        rows.len() - ties
    ));
    let others: Vec<String> = rows
        .iter()
        .filter(|r| r.value != 0)
        .map(|r| format!("N {} n {}: {}", r.vertices, r.rounds, r.value))
        .collect();
    if !others.is_empty() && others.len() <= 40 {
        out.push_str(&format!(" (not ties: {})", others.join(", ")));
    }
    if times {
        out.push_str(&format!("; wall time {wall_seconds:.2} s"));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_kary_values_are_certified() {
        let rows = voronoi_kary(20_000, 2_000, &mut |_| {}).unwrap();
        let value = |k: u64, height: u32, n: usize| {
            rows.iter()
                .find(|r| r.k == k && r.height == height && r.rounds == n)
                .and_then(|r| r.value)
        };
        // Odd k: W wins even below the paper's bound; even k with 2n > k: a tie.
        assert_eq!(value(3, 2, 2), Some(1));
        assert_eq!(value(5, 1, 2), Some(2));
        assert_eq!(value(2, 3, 2), Some(0));
        assert_eq!(value(4, 2, 3), Some(0));
        // 2n <= k: W wins (Proposition 1).
        assert_eq!(value(4, 2, 2), Some(3));
        assert!(rows.iter().filter(|r| r.value.is_some()).count() >= 40);
    }
}

//! `gamecert table NAME`: tables of game values, every entry certified and checked.
//!
//! `voronoi-kary`: the value of VG(T, n) on complete k-ary trees below the paper's size bound
//! (which Theorem 1 leaves open): k = 2 to 5, every height whose tree has at most 128 vertices
//! (the exact solver's limit), every n with 2n <= N. Each entry is solved by the exact solver
//! within a node budget; a solved entry's `voronoi-value` certificate is replayed by the
//! checker, and an entry past the budget is reported as open, never guessed.

use crate::gen::kary_tree;
use crate::voronoi_exact::ExactSolver;
use gamecert_certificates::voronoi_game::check_value;
use serde::Serialize;

/// One entry of the k-ary table.
#[derive(Clone, Debug, Serialize)]
pub struct KaryEntry {
    pub k: u64,
    pub height: u32,
    pub vertices: usize,
    pub rounds: usize,
    /// W's margin under optimal play, or `None` if the budget ran out.
    pub value: Option<i64>,
    /// Positions the checker replayed (both strategies).
    pub positions_checked: u64,
    pub search_nodes: u64,
}

/// The k-ary table with `node_budget` search nodes per entry.
pub fn voronoi_kary(
    node_budget: u64,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<KaryEntry>> {
    let mut rows = Vec::new();
    for k in 2..=5u64 {
        for height in 1..=6u32 {
            let Some(size) = crate::gen::kary_size(k, height) else {
                break;
            };
            if size > crate::voronoi_exact::MAX_VERTICES as u64 {
                break;
            }
            for rounds in 1..=(size as usize / 2) {
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
                    positions_checked: 0,
                    search_nodes: 0,
                };
                if let Some(solution) = solver.solve_within(node_budget) {
                    let (w, b) = check_value(&game.graph, rounds, &game.start, &solution.certificate(), 50_000_000)
                        .map_err(|e| anyhow::anyhow!("the checker rejected the k {k}, height {height}, n {rounds} entry: {e}"))?;
                    entry.value = Some(solution.value);
                    entry.positions_checked = w.positions + b.positions;
                    entry.search_nodes = solution.nodes;
                }
                rows.push(entry);
            }
        }
    }
    Ok(rows)
}

/// Markdown for [`voronoi_kary`].
pub fn voronoi_kary_table(rows: &[KaryEntry]) -> String {
    let mut out = String::from("| k | height | N | n | value (W's margin) | positions checked | search nodes |\n|---:|---:|---:|---:|---|---:|---:|\n");
    for r in rows {
        let value = match r.value {
            Some(v) if v > 0 => format!("{v} (W wins)"),
            Some(0) => "0 (tie)".to_string(),
            Some(v) => format!("{v} (B wins)"),
            None => "open (budget)".to_string(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} |\n",
            r.k, r.height, r.vertices, r.rounds, value, r.positions_checked, r.search_nodes
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_kary_values_are_certified() {
        let rows = voronoi_kary(20_000, &mut |_| {}).unwrap();
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

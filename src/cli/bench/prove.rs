//! `gamecert bench prove`: the proof search of issue 41 (src/base/proof.rs) by both its
//! engines, depth-first (`solve --method prove`) and df-pn (`--method dfpn`), beside the
//! solvers that visit the whole game.
//!
//! - Triangle avoidance, n = 6..=12 (`--quick`: ..=10): the Winner's proof (positions,
//!   expansions, wall and CPU seconds, its stream's bytes and check time) beside the game
//!   digraph (all positions, the Winner's strategy read off it, its build time). The question
//!   each row answers: does the search touch fewer positions than exist, and does it choose
//!   the Winner's moves better than the strategy read off the full digraph?
//! - The multi-round Voronoi game on complete k-ary trees (`--quick`: the smaller ones): the
//!   outcome by two threshold tests, its expansions and time, and the checker's replay of the
//!   certificate (positions and seconds).
//!
//! Every row is one engine on one instance. Every proof is checked by the trusted checker
//! before its row is reported. The proof search runs on one thread with the default table
//! (1 GiB, [`DEFAULT_MEMORY`]).

use super::triangle::Clocks;
use gamecert::base::proof::{Engine, DEFAULT_MEMORY};
use gamecert::triangle_avoidance::prove::prove as prove_triangle;
use gamecert::triangle_avoidance::solver::{certificate, GameDigraph, Rules};
use gamecert::voronoi::gen::kary_tree;
use gamecert::voronoi::tree_prove::{check_outcome, TreeProver};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;
use serde::Serialize;
use std::fmt::Write as _;

/// One n of triangle avoidance.
#[derive(Clone, Debug, Serialize)]
pub struct TriangleProofRow {
    pub n: usize,
    pub winner: String,
    /// Positions of the game (triangle-free graphs on n nodes, OEIS A006785).
    pub positions: usize,
    /// Positions of the Winner's strategy read off the full game digraph.
    pub strategy_positions: usize,
    pub digraph_seconds: f64,
    pub digraph_cpu_seconds: f64,
    /// The proof search's engine, in words.
    pub engine: String,
    /// Positions of the Winner's proof found by the search.
    pub proof_positions: usize,
    pub expansions: u64,
    pub evaluations: u64,
    pub prove_seconds: f64,
    pub prove_cpu_seconds: f64,
    pub stream_bytes: usize,
    pub check_seconds: f64,
}

/// One entry of the k-ary tree game.
#[derive(Clone, Debug, Serialize)]
pub struct TreeProofRow {
    pub k: u64,
    pub height: u32,
    pub vertices: usize,
    pub rounds: usize,
    /// The proof search's engine, in words.
    pub engine: String,
    /// `W wins`, `a tie` or `B wins`.
    pub outcome: String,
    pub expansions: u64,
    pub prove_seconds: f64,
    pub prove_cpu_seconds: f64,
    /// Positions the checker replayed (both strategies for a tie).
    pub positions_checked: u64,
    pub check_seconds: f64,
}

/// Both parts of the benchmark.
#[derive(Clone, Debug, Serialize)]
pub struct ProveReport {
    pub triangle: Vec<TriangleProofRow>,
    pub trees: Vec<TreeProofRow>,
}

/// The k-ary entries measured: (k, height, rounds). k = 2, height 4, n = 6 takes about 10 s
/// of CPU by df-pn, n = 8 about 100 s (docs/families/voronoi.md), so only the default run has
/// n = 6.
fn tree_entries(quick: bool) -> Vec<(u64, u32, usize)> {
    let mut entries = vec![(2, 3, 2), (2, 3, 3), (2, 3, 4), (3, 2, 3), (3, 2, 4), (2, 4, 4)];
    if !quick {
        entries.extend([(4, 2, 5), (2, 4, 5), (2, 4, 6)]);
    }
    entries
}

/// The engines compared, the default first.
const ENGINES: [Engine; 2] = [Engine::DepthFirst, Engine::Dfpn];

/// Runs the benchmark; `note` hears each row as it starts.
pub fn prove_bench(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<ProveReport> {
    let last = if quick { 10 } else { 12 };
    let mut triangle = Vec::new();
    for n in 6..=last {
        note(&format!("prove: triangle avoidance, n = {n}"));
        let clocks = Clocks::start();
        let digraph = GameDigraph::build(n, Rules::TriangleAvoidance, &mut |_, _| {});
        let labels = digraph.label();
        let strategy = certificate(&digraph, &labels);
        let (digraph_seconds, digraph_cpu_seconds) = clocks.read();
        for engine in ENGINES {
            let clocks = Clocks::start();
            let proof = prove_triangle(n, DEFAULT_MEMORY, u64::MAX, engine)
                .map_err(anyhow::Error::msg)?
                .ok_or_else(|| anyhow::anyhow!("the proof search stopped without a limit"))?;
            let (prove_seconds, prove_cpu_seconds) = clocks.read();
            let mut stream = Vec::new();
            proof.write_stream(&mut stream).map_err(anyhow::Error::msg)?;
            let clocks = Clocks::start();
            let (winner, report) =
                check_triangle_stream(n, &mut stream.as_slice(), &mut Budget::unlimited())
                    .map_err(|e| anyhow::anyhow!("n = {n}: the checker rejects the proof: {e}"))?;
            let (check_seconds, _) = clocks.read();
            let digraph_winner = if labels[0][0] { "A" } else { "B" };
            anyhow::ensure!(
                winner == digraph_winner && report.positions == proof.len() as u64,
                "n = {n}: the proof's Winner {winner} ({} positions checked of {}) against the \
                 digraph's {digraph_winner}",
                report.positions,
                proof.len()
            );
            triangle.push(TriangleProofRow {
                n,
                winner,
                positions: digraph.size().0,
                strategy_positions: strategy.positions.len(),
                digraph_seconds,
                digraph_cpu_seconds,
                engine: engine.words().to_string(),
                proof_positions: proof.len(),
                expansions: proof.stats.expansions,
                evaluations: proof.stats.evaluations,
                prove_seconds,
                prove_cpu_seconds,
                stream_bytes: stream.len(),
                check_seconds,
            });
        }
    }
    let mut trees = Vec::new();
    for (k, height, rounds) in tree_entries(quick) {
        note(&format!("prove: k-ary tree k = {k}, height {height}, n = {rounds}"));
        let game = kary_tree(k, height, rounds)?.validate()?;
        let root = gamecert::voronoi::trees::medians(&game.graph)[0];
        for engine in ENGINES {
            let clocks = Clocks::start();
            let mut prover =
                TreeProver::new(&game, root, DEFAULT_MEMORY).map_err(anyhow::Error::msg)?;
            prover.engine = engine;
            let (outcome, proof) = prover
                .outcome(u64::MAX)
                .map_err(anyhow::Error::msg)?
                .ok_or_else(|| anyhow::anyhow!("the proof search stopped without a limit"))?;
            let (prove_seconds, prove_cpu_seconds) = clocks.read();
            let clocks = Clocks::start();
            let positions_checked = check_outcome(&game, &proof).map_err(|e| {
                anyhow::anyhow!("k {k}, height {height}, n {rounds}: the checker rejects: {e}")
            })?;
            let (check_seconds, _) = clocks.read();
            trees.push(TreeProofRow {
                k,
                height,
                vertices: game.graph.len(),
                rounds,
                engine: engine.words().to_string(),
                outcome: outcome.words().to_string(),
                expansions: prover.stats.expansions,
                prove_seconds,
                prove_cpu_seconds,
                positions_checked,
                check_seconds,
            });
        }
    }
    Ok(ProveReport { triangle, trees })
}

/// Markdown for [`prove_bench`]: times as wall / CPU seconds.
pub fn prove_table(report: &ProveReport) -> String {
    let mut out = String::from(
        "| n | winner | positions (A006785) | strategy off the digraph | digraph s (wall / CPU) | engine | proof positions | proof / strategy | expansions | proof s (wall / CPU) | stream bytes | check s |\n\
         |---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in &report.triangle {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {:.2} / {:.2} | {} | {} | {:.2} | {} | {:.2} / {:.2} | {} | {:.2} |",
            r.n,
            r.winner,
            r.positions,
            r.strategy_positions,
            r.digraph_seconds,
            r.digraph_cpu_seconds,
            r.engine,
            r.proof_positions,
            r.proof_positions as f64 / r.strategy_positions.max(1) as f64,
            r.expansions,
            r.prove_seconds,
            r.prove_cpu_seconds,
            r.stream_bytes,
            r.check_seconds
        );
    }
    out.push_str(
        "\n| k | height | N | n | engine | outcome | expansions | proof s (wall / CPU) | positions checked | check s |\n\
         |---:|---:|---:|---:|---|---|---:|---:|---:|---:|\n",
    );
    for r in &report.trees {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.2} / {:.2} | {} | {:.2} |",
            r.k,
            r.height,
            r.vertices,
            r.rounds,
            r.engine,
            r.outcome,
            r.expansions,
            r.prove_seconds,
            r.prove_cpu_seconds,
            r.positions_checked,
            r.check_seconds
        );
    }
    out
}

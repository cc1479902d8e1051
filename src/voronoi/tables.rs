//! `gamecert table NAME`: tables of game values, every entry certified and checked.
//!
//! `voronoi-kary`: the value of VG(T, n) on complete k-ary trees below the paper's size bound
//! (which Theorem 1 leaves open): k = 2 to 5, every height whose tree has at most 128 vertices
//! (the exact solver's limit), every n with 2n <= N. Each entry is solved by the tree solver
//! ([`crate::voronoi::tree_exact`]: positions identified by canonical form) within a work
//! budget; a solved entry's `voronoi-value` certificate (with `canonical_root`) is replayed by
//! the checker. Past the budget, seed 001's
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

use crate::voronoi::gen::kary_tree;
use crate::voronoi::paths::{PathSolution, PathSolver};
use crate::voronoi::tree_exact::TreeSolver;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, VoronoiMirror};
use gamecert_certificates::voronoi::multi_round::{check_strategy, check_value};
use gamecert_certificates::voronoi_paths::paths::{check_path_strategy, check_path_value};
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
    /// The outcome (W wins, tie, B wins): the value's sign, or, where the value is not
    /// settled, the proof search's two threshold tests (certified), `None` if still open.
    pub outcome: Option<crate::voronoi::tree_prove::TreeOutcome>,
    /// What settled the entry: "exact", "strategies" (the paper's, both sides), "W strategy".
    pub method: String,
    /// Positions the checker replayed (both strategies).
    pub positions_checked: u64,
    /// The exact solver's work, in subtree classes computed (see
    /// [`crate::voronoi::tree_exact::TreeSolver::nodes`]).
    pub search_nodes: u64,
}

/// The entries (k, height, rounds) of the k-ary table: k = 2..=5, every height whose tree the
/// exact solver takes, every number of rounds that fits.
pub fn kary_entries(max_vertices: usize) -> Vec<(u64, u32, usize)> {
    let max_vertices = max_vertices.min(crate::voronoi::exact::MAX_VERTICES) as u64;
    let mut entries = Vec::new();
    for k in 2..=5u64 {
        for height in 1..=6u32 {
            let Some(size) = crate::voronoi::gen::kary_size(k, height) else {
                break;
            };
            if size > max_vertices {
                break;
            }
            entries.extend((1..=(size as usize / 2)).map(|rounds| (k, height, rounds)));
        }
    }
    entries
}

/// The k-ary table on the trees of at most `max_vertices` vertices (the table's own bound,
/// [`crate::voronoi::exact::MAX_VERTICES`], at most) with `node_budget` search nodes per entry
/// for the exact solver, at most
/// `strategy_positions` positions per certificate of the paper's strategies, and, for an entry
/// still without a value, the outcome by proof search within `prove_limit` expansions per test
/// and proof walk (0: none).
///
/// Two worker threads take the trees (k, height) heaviest first; within a tree the entries
/// are solved from both ends of n inwards (the short games and the nearly full boards are the
/// easy ones), each end stopping at its first entry over the budget: the entries between are
/// left to the paper's strategies (bounds) without spending the budget on each, and to the
/// proof search for the outcome, again from both ends inwards, each end stopping at its first
/// entry over `prove_limit` (a tie's proof is its exact value, 0). Each value's
/// guess for the null-window search is its neighbour's value. `progress` hears each entry as
/// it is done, with the search nodes so far (the work, for an ETA).
pub fn voronoi_kary(
    (node_budget, max_vertices): (u64, usize),
    (strategy_positions, prove_limit): (usize, u64),
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<KaryEntry>> {
    let mut trees: Vec<(u64, u32)> = Vec::new();
    for (k, height, _) in kary_entries(max_vertices) {
        if trees.last() != Some(&(k, height)) {
            trees.push((k, height));
        }
    }
    // Heaviest first (the most vertices), so that the two threads end together.
    trees.sort_by_key(|&(k, h)| std::cmp::Reverse(crate::voronoi::gen::kary_size(k, h)));
    let queue = std::sync::Mutex::new(trees.into_iter().collect::<std::collections::VecDeque<_>>());
    let (send, receive) = std::sync::mpsc::channel::<anyhow::Result<KaryEntry>>();
    let mut rows = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            let (queue, send) = (&queue, send.clone());
            scope.spawn(move || loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop_front();
                let Some((k, height)) = next else { return };
                let size = crate::voronoi::gen::kary_size(k, height).unwrap_or(0) as usize;
                let mut report = |entry: anyhow::Result<KaryEntry>| send.send(entry).is_ok();
                if !kary_tree_entries(
                    k,
                    height,
                    size / 2,
                    node_budget,
                    (strategy_positions, prove_limit),
                    &mut report,
                ) {
                    return;
                }
            });
        }
        drop(send);
        let total = kary_entries(max_vertices).len();
        let mut forecast = WorkForecast::new(node_budget, max_vertices);
        let started = crate::base::solved::searched_so_far();
        crate::base::solved::expect_searched(started.saturating_add(forecast.remaining()));
        for entry in receive {
            let entry = entry?;
            forecast.record(&entry);
            crate::base::solved::expect_searched(
                crate::base::solved::searched_so_far().saturating_add(forecast.remaining()),
            );
            progress(&format!(
                "{} of {total} entries done, the last k {}, height {}, n {}: {}",
                rows.len() + 1,
                entry.k,
                entry.height,
                entry.rounds,
                entry.value.map_or(entry.method.clone(), |v| v.to_string()),
            ));
            rows.push(entry);
        }
        anyhow::Ok(())
    })?;
    rows.sort_by_key(|r| (r.k, r.height, r.rounds));
    Ok(rows)
}

/// A forecast of the k-ary table's remaining solver work from the entries done so far (the
/// progress display's total, for an ETA from work: entries differ in work by factors of 10^4,
/// so an ETA from their count jumped from 31 s to 2 min in 20 s).
///
/// The model follows [`kary_tree_entries`]: each end of a tree's n range costs more with every
/// step inwards, roughly geometrically, and stops at its first entry over the budget. So an
/// open end's next entries are extrapolated from its last two (the ratio clamped to 2..50,
/// 10 after one entry) until one would pass the budget, which is then charged in full as the
/// end's failing attempt; an end not begun is charged one budget; a tree not begun, one per
/// end, unless every play of it is smaller than the budget (at most 15 vertices). The middle
/// entries' proof searches are not forecast (each within `--prove-limit` a test, and only
/// from each end of the middle until one fails).
struct WorkForecast {
    budget: u64,
    /// Each tree by (k, height).
    trees: std::collections::BTreeMap<(u64, u32), TreeWork>,
}

/// A tree's entries, its exact entries' work by n, and the entries reported so far.
#[derive(Default)]
struct TreeWork {
    entries: usize,
    exact: std::collections::BTreeMap<usize, u64>,
    reported: usize,
}

/// Trees of at most this many vertices cost far less than any budget (3^15 < 1.5 * 10^7).
const SMALL_TREE: usize = 15;

impl WorkForecast {
    fn new(budget: u64, max_vertices: usize) -> Self {
        let mut trees = std::collections::BTreeMap::new();
        for (k, height, _) in kary_entries(max_vertices) {
            let tree: &mut TreeWork = trees.entry((k, height)).or_default();
            tree.entries += 1;
        }
        WorkForecast { budget, trees }
    }

    fn record(&mut self, entry: &KaryEntry) {
        if let Some(tree) = self.trees.get_mut(&(entry.k, entry.height)) {
            tree.reported += 1;
            if entry.method == "exact" {
                tree.exact.insert(entry.rounds, entry.search_nodes);
            }
        }
    }

    /// The solver work still to come, in [`TreeSolver::nodes`].
    fn remaining(&self) -> u64 {
        let mut total = 0u64;
        for (&(k, height), tree) in &self.trees {
            let vertices = crate::voronoi::gen::kary_size(k, height).unwrap_or(0) as usize;
            let work = if tree.reported == tree.entries {
                0
            } else if tree.reported == 0 {
                if vertices <= SMALL_TREE {
                    0
                } else {
                    2 * self.budget
                }
            } else {
                // The ends: n = 1, 2, ... solved in a row, and n = max, max - 1, ... likewise.
                let low: Vec<u64> = (1..).map_while(|n| tree.exact.get(&n).copied()).collect();
                let high: Vec<u64> =
                    (1..=tree.entries).rev().map_while(|n| tree.exact.get(&n).copied()).collect();
                let open = tree.entries.saturating_sub(low.len() + high.len());
                if high.is_empty() {
                    // The low end still runs; the high end has not begun.
                    self.end(&low, open) + self.budget
                } else {
                    self.end(&high, open)
                }
            };
            total = total.saturating_add(work);
        }
        total
    }

    /// An open end's remaining work: its next entries extrapolated from `done` (the end's
    /// entries in order) while under the budget and within the `open` entries left, then one
    /// budget for the attempt that fails.
    fn end(&self, done: &[u64], open: usize) -> u64 {
        let (mut last, ratio) = match done {
            [] if open == 0 => return 0,
            [] => return self.budget,
            [only] => (*only as f64, 10.0),
            [.., before, last] => {
                (*last as f64, (*last as f64 / (*before).max(1) as f64).clamp(2.0, 50.0))
            }
        };
        let mut work = 0u64;
        for _ in 0..open {
            last *= ratio;
            if last >= self.budget as f64 {
                return work.saturating_add(self.budget);
            }
            work = work.saturating_add(last as u64);
        }
        work
    }
}

/// The entries of one tree, n = 1..=`max_rounds`, from both ends inwards (see
/// [`voronoi_kary`]); `report` takes each, and returns false to stop.
fn kary_tree_entries(
    k: u64,
    height: u32,
    max_rounds: usize,
    node_budget: u64,
    (strategy_positions, prove_limit): (usize, u64),
    report: &mut dyn FnMut(anyhow::Result<KaryEntry>) -> bool,
) -> bool {
    let (mut low, mut high) = (1, max_rounds);
    let (mut low_guess, mut high_guess) = (0, 0);
    let mut low_open = false;
    while low <= high {
        // The low end until it fails, then the high end.
        let rounds = if !low_open { low } else { high };
        let guess = if !low_open { low_guess } else { high_guess };
        let entry = kary_entry(k, height, rounds, node_budget, guess);
        let entry = match entry {
            Ok(Some(entry)) => {
                if !low_open {
                    low_guess = entry.value.unwrap_or(0);
                } else {
                    high_guess = entry.value.unwrap_or(0);
                }
                Ok(entry)
            }
            Ok(None) => {
                if low_open {
                    // Both ends failed: the rest get the paper's strategies and the proof
                    // search, again from both ends inwards, each end's proof search stopping
                    // at its first entry over the limit (the entries further in cost more).
                    let (mut from, mut to) = (low, high);
                    // The end searched now (false: the low end), and the ends given up.
                    let (mut at_high, mut given_up) = (false, [false, false]);
                    while from <= to {
                        let rounds = if at_high { to } else { from };
                        let limit = if given_up[usize::from(at_high)] { 0 } else { prove_limit };
                        let entry =
                            kary_by_strategies(k, height, rounds, (strategy_positions, limit));
                        if matches!(&entry, Ok(e) if limit > 0 && e.outcome.is_none()) {
                            given_up[usize::from(at_high)] = true;
                            at_high = true;
                        }
                        if !report(entry) {
                            return false;
                        }
                        if rounds == from {
                            from += 1;
                        } else {
                            to -= 1;
                        }
                    }
                    return true;
                }
                low_open = true;
                continue;
            }
            Err(e) => Err(e),
        };
        if !report(entry) {
            return false;
        }
        if !low_open {
            low += 1;
        } else {
            high -= 1;
        }
    }
    true
}

/// An entry solved exactly by the tree solver within `node_budget` nodes, its certificate
/// accepted by the checker; `None` over the budget.
fn kary_entry(
    k: u64,
    height: u32,
    rounds: usize,
    node_budget: u64,
    guess: i64,
) -> anyhow::Result<Option<KaryEntry>> {
    let game = kary_tree(k, height, rounds)?.validate()?;
    let solver = TreeSolver::new(&game, "r").map_err(anyhow::Error::msg)?;
    let Some(solution) = solver.solve_within(node_budget, guess) else {
        return Ok(None);
    };
    let (w, b) = check_value(
        &game.graph,
        rounds,
        &game.start,
        &solution.certificate(),
        &mut Budget::unlimited(),
    )
    .map_err(|e| {
        anyhow::anyhow!("the checker rejected the k {k}, height {height}, n {rounds} entry: {e}")
    })?;
    Ok(Some(KaryEntry {
        k,
        height,
        vertices: game.graph.len(),
        rounds,
        value: Some(solution.value),
        at_least: None,
        outcome: Some(crate::voronoi::tree_prove::TreeOutcome::of_value(solution.value)),
        method: "exact".into(),
        positions_checked: w.positions + b.positions,
        search_nodes: solution.nodes,
    }))
}

/// An entry left to seed 001's strategies: the value when both sides' check, a bound when
/// W's alone does, else open.
fn kary_by_strategies(
    k: u64,
    height: u32,
    rounds: usize,
    (strategy_positions, prove_limit): (usize, u64),
) -> anyhow::Result<KaryEntry> {
    let game = kary_tree(k, height, rounds)?.validate()?;
    let mut entry = KaryEntry {
        k,
        height,
        vertices: game.graph.len(),
        rounds,
        value: None,
        at_least: None,
        outcome: None,
        method: "open".into(),
        positions_checked: 0,
        search_nodes: 0,
    };
    let rejected = |e: String| {
        anyhow::anyhow!("the checker rejected the k {k}, height {height}, n {rounds} entry: {e}")
    };
    let strategies = crate::voronoi::kary::kary_certificate_within(&game, k, strategy_positions)
        .map_err(anyhow::Error::msg)?;
    match strategies {
        Some((Certificate::VoronoiValue(value), _)) => {
            let (w, b) =
                check_value(&game.graph, rounds, &game.start, &value, &mut Budget::unlimited())
                    .map_err(rejected)?;
            entry.value = Some(value.value);
            entry.outcome = Some(crate::voronoi::tree_prove::TreeOutcome::of_value(value.value));
            entry.method = "strategies".into();
            entry.positions_checked = w.positions + b.positions;
        }
        Some((Certificate::VoronoiStrategy(white), _)) => {
            let report =
                check_strategy(&game.graph, rounds, &game.start, &white, &mut Budget::unlimited())
                    .map_err(rejected)?;
            entry.at_least = report.worst_margin;
            entry.method = "W strategy".into();
            entry.positions_checked = report.positions;
        }
        _ => {}
    }
    if entry.value.is_none() && prove_limit > 0 {
        // The outcome by proof search, within its limit, checked like every answer.
        let root = crate::voronoi::trees::medians(&game.graph)[0];
        let mut prover = crate::voronoi::tree_prove::TreeProver::new(&game, root, PROVE_MEMORY)
            .map_err(anyhow::Error::msg)?;
        if let Some((outcome, certificate)) =
            prover.outcome(prove_limit).map_err(anyhow::Error::msg)?
        {
            let positions =
                crate::voronoi::tree_prove::check_outcome(&game, &certificate).map_err(rejected)?;
            entry.outcome = Some(outcome);
            if outcome == crate::voronoi::tree_prove::TreeOutcome::Tie {
                // A tie's certificate is a voronoi-value of 0: the exact margin.
                entry.value = Some(0);
            }
            entry.positions_checked += positions;
            entry.search_nodes += prover.stats.expansions;
            if entry.method == "open" {
                entry.method = "proof (outcome)".into();
            }
        }
    }
    Ok(entry)
}

/// Expansions the proof search may spend on each test and each proof walk of an entry the
/// exact solver left open (about 2 s of CPU each on this machine): the default of `table
/// voronoi-kary --prove-limit`.
pub const PROVE_LIMIT: u64 = 200_000;

/// The proof search's table per entry (each of the table's two threads has its own).
pub const PROVE_MEMORY: u64 = 256 << 20;

/// Markdown for [`voronoi_kary`].
pub fn voronoi_kary_table(rows: &[KaryEntry]) -> String {
    let mut out = String::from("| k | height | N | n | value (W's margin) | settled by | positions checked | solver work |\n|---:|---:|---:|---:|---|---|---:|---:|\n");
    for r in rows {
        let value = match r.value {
            Some(v) if v > 0 => format!("{v} (W wins)"),
            Some(0) => "0 (tie)".to_string(),
            Some(v) => format!("{v} (B wins)"),
            None => match (r.at_least, r.outcome) {
                (Some(m), _) => format!(">= {m} (W wins; W's strategy only)"),
                (None, Some(o)) => format!("open ({}, by proof)", o.words()),
                (None, None) => "open (budget)".to_string(),
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
         {} W wins certified by W's strategy alone, {} outcomes by proof search alone, {} \
         open\n",
        rows.len(),
        count("exact"),
        count("strategies"),
        count("W strategy"),
        count("proof (outcome)"),
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
    /// The same for B's strategy; `None` where B's side is the mirror (see [`PathSides`]).
    pub black_states: Option<u64>,
    /// What certifies W's side, the lower bound: "W's strategy" (a listed strategy, replayed)
    /// or "rule U" (a `voronoi-path-rule` certificate: the checker computes the rule's moves
    /// and replays them, issue 49).
    pub white_side: &'static str,
    /// What certifies B's side, the upper bound: "B's strategy" (replayed by the checker),
    /// "rule U" or
    /// "B's mirror" (a `voronoi-mirror` certificate on the path, checked in linear time: the
    /// reflection is an automorphism of order 2 without fixed points, issue 47).
    pub black_side: &'static str,
    /// States the search expanded for this entry (others came from the shared table).
    pub search_nodes: u64,
    pub solve_seconds: f64,
    pub check_seconds: f64,
    /// Where a rule was tried and failed: the play that beats it (the entry then came from
    /// the search).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The largest path of `table voronoi-paths` (issue 46, item 7: it was 200, which no run
/// reaches): the search grows 1.4 times a vertex, the table to 30 takes about a minute and
/// 1.2 GB, and near N = 35 it meets its state cap (half the 8 GiB allowance), past which an
/// entry is refused for its size; to 36 the table takes about 11 minutes.
pub const MAX_PATH_TABLE_VERTICES: usize = 36;

/// The largest path of `table voronoi-paths --rule` (issue 49): rule certificates are a few
/// bytes whatever N, and W's side stays cheap; B's side on odd paths grows about eight-fold a
/// round (docs/families/voronoi.md), so the time estimate and `--max-rounds` bound a run.
pub const MAX_RULE_PATH_TABLE_VERTICES: usize = 200;

/// How the path table certifies B's side (the upper bound on W's margin).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathSides {
    /// Both players' strategies, replayed by the checker, on every path.
    Both,
    /// On even paths, B's mirror (a `voronoi-mirror` certificate, checked) for B's side and
    /// W's strategy alone for "at least 0", replayed by the checker: half the certificate, and
    /// the search never refutes W's moves for a margin of 1. Odd paths (and an even path where
    /// W cannot hold 0, which the mirror leaves open) keep both strategies.
    MirrorOnEven,
}

impl PathSides {
    /// What certifies B's side of an entry certified this way (a row's `black_side`).
    pub fn black_side(self, by_mirror: bool) -> &'static str {
        if self == PathSides::MirrorOnEven && by_mirror {
            "B's mirror"
        } else {
            "B's strategy"
        }
    }
}

/// The path table for N = `min_vertices..=max_vertices`, every n with 2n <= N, both sides by
/// strategies; every entry's certificate is accepted by the checker before it is reported.
pub fn voronoi_paths(
    min_vertices: usize,
    max_vertices: usize,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<PathEntry>> {
    let mut solver = PathSolver::new();
    let range = (min_vertices, max_vertices);
    voronoi_paths_with(&mut solver, range, PathSides::Both, usize::MAX, progress, &mut |_| {})
}

/// [`voronoi_paths`] with a caller's solver (whose table carries over between calls), a choice
/// of [`PathSides`], and `on_row` called with each entry as soon as the checker has accepted it
/// (so a stopped run keeps what it printed).
pub fn voronoi_paths_with(
    solver: &mut PathSolver,
    (min_vertices, max_vertices): (usize, usize),
    sides: PathSides,
    max_rounds: usize,
    progress: &mut dyn FnMut(&str),
    on_row: &mut (dyn FnMut(&PathEntry) + Send),
) -> anyhow::Result<Vec<PathEntry>> {
    anyhow::ensure!(
        (1..=MAX_PATH_TABLE_VERTICES).contains(&max_vertices) && min_vertices >= 1,
        "the path table takes 1 <= N <= {MAX_PATH_TABLE_VERTICES} (got {min_vertices}..{max_vertices})"
    );
    // The solver runs on this thread; the checker replays each certificate on a second one
    // while the next entry is solved (the machine has two cores). `true`: B's side by the lemma.
    let (send, receive) = std::sync::mpsc::channel::<(PathSolution, bool, f64)>();
    std::thread::scope(|scope| {
        let checker = scope.spawn(move || -> anyhow::Result<Vec<PathEntry>> {
            let mut rows = Vec::new();
            for (solution, by_mirror, solve_seconds) in receive {
                let started = Instant::now();
                let entry = check_path_entry(&solution, by_mirror).map(|(w, b)| PathEntry {
                    vertices: solution.certificate.vertices,
                    rounds: solution.certificate.rounds,
                    value: solution.value,
                    white_states: w,
                    black_states: b,
                    white_side: "W's strategy",
                    black_side: sides.black_side(by_mirror),
                    search_nodes: solution.nodes,
                    solve_seconds,
                    check_seconds: started.elapsed().as_secs_f64(),
                    note: None,
                })?;
                on_row(&entry);
                rows.push(entry);
            }
            Ok(rows)
        });
        let solved = (|| -> anyhow::Result<()> {
            for vertices in min_vertices.max(2)..=max_vertices {
                for rounds in 1..=(vertices / 2).min(max_rounds) {
                    progress(&format!("N {vertices}, n {rounds}"));
                    let started = Instant::now();
                    let mirrored = if sides == PathSides::MirrorOnEven && vertices % 2 == 0 {
                        solver.solve_by_mirror(vertices, rounds).map_err(anyhow::Error::msg)?
                    } else {
                        None
                    };
                    let by_mirror = mirrored.is_some();
                    let solution = match mirrored {
                        Some(solution) => solution,
                        None => solver.solve(vertices, rounds).map_err(anyhow::Error::msg)?,
                    };
                    let seconds = started.elapsed().as_secs_f64();
                    if send.send((solution, by_mirror, seconds)).is_err() {
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

/// The path table by rules (issue 49, `table voronoi-paths --rule`): for N = `min..=max` and
/// every n <= `max_rounds` with 2n <= N, W's side by rule U (a `voronoi-path-rule` certificate
/// the checker replays), B's by B's mirror on even N and by rule U on odd N; where U fails (the
/// play that beats it goes to `progress` and the row's `note`) or cannot hold (n = 1 on an odd
/// path, where W wins), both sides come from the gap-state search's strategies. Entries run on
/// `workers` threads; `on_row` gets them in order, each as soon as it and every entry before
/// it are certified.
pub fn voronoi_paths_by_rule(
    (min_vertices, max_vertices): (usize, usize),
    max_rounds: usize,
    workers: usize,
    progress: &mut dyn FnMut(&str),
    on_row: &mut (dyn FnMut(&PathEntry) + Send),
) -> anyhow::Result<Vec<PathEntry>> {
    anyhow::ensure!(
        (1..=MAX_RULE_PATH_TABLE_VERTICES).contains(&max_vertices) && min_vertices >= 1,
        "the path table takes 1 <= N <= {MAX_RULE_PATH_TABLE_VERTICES} (got {min_vertices}..{max_vertices})"
    );
    let entries: Vec<(usize, usize)> = (min_vertices.max(2)..=max_vertices)
        .flat_map(|v| (1..=(v / 2).min(max_rounds)).map(move |r| (v, r)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel::<(usize, anyhow::Result<PathEntry>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            let (send, next, entries) = (send.clone(), &next, &entries);
            scope.spawn(move || {
                let mut solver = PathSolver::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(vertices, rounds)) = entries.get(i) else { break };
                    let row = rule_entry(&mut solver, vertices, rounds);
                    let failed = row.is_err();
                    if send.send((i, row)).is_err() || failed {
                        // Stop the others too: nothing after a failed entry is printed.
                        next.store(entries.len(), std::sync::atomic::Ordering::Relaxed);
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = std::collections::BTreeMap::new();
        let mut rows = Vec::new();
        for (i, row) in receive {
            waiting.insert(i, row?);
            while let Some(row) = waiting.remove(&rows.len()) {
                if let Some(note) = &row.note {
                    progress(note);
                }
                progress(&format!("N {}, n {} certified", row.vertices, row.rounds));
                on_row(&row);
                rows.push(row);
            }
        }
        Ok(rows)
    })
}

/// One entry of [`voronoi_paths_by_rule`], every certificate checked.
fn rule_entry(
    solver: &mut PathSolver,
    vertices: usize,
    rounds: usize,
) -> anyhow::Result<PathEntry> {
    use gamecert_certificates::voronoi_paths::path_rule::{check_path_rule, PathRuleName, Side};
    let started = Instant::now();
    let rejected =
        |e: String| anyhow::anyhow!("the checker rejected the N {vertices}, n {rounds} entry: {e}");
    let mut notes = Vec::new();
    let mut by_rule = |side: Side| -> anyhow::Result<Option<u64>> {
        match check_path_rule(vertices, rounds, PathRuleName::U, side, &mut Budget::unlimited()) {
            Ok(report) => Ok(Some(report.states)),
            Err(why) if why.starts_with("the rule fails") => {
                let who = if side == Side::W { "W" } else { "B" };
                notes.push(format!(
                    "N {vertices}, n {rounds}: rule U does not hold {who}'s side: {why}; the \
                     search takes the entry"
                ));
                Ok(None)
            }
            Err(why) => Err(rejected(why)),
        }
    };
    let white = by_rule(Side::W)?;
    let black = if vertices.is_multiple_of(2) {
        let (instance, mirror) = path_mirror(vertices, rounds)?;
        let verdict = gamecert_certificates::voronoi::mirror::mirror_verdict(
            &instance,
            &mirror,
            &mut Budget::unlimited(),
        );
        if !verdict.accepted() {
            return Err(rejected(verdict.reason));
        }
        Some(None)
    } else if rounds >= 2 {
        by_rule(Side::B)?.map(Some)
    } else {
        None // n = 1 on an odd path: W wins by the median, B has no tie to hold.
    };
    let (Some(white_states), Some(black_states)) = (white, black) else {
        // Both sides from the search (one value certificate, both strategies replayed).
        let solve_started = Instant::now();
        let solution = solver.solve(vertices, rounds).map_err(anyhow::Error::msg)?;
        let solve_seconds = solve_started.elapsed().as_secs_f64();
        let check_started = Instant::now();
        let (w, b) = check_path_entry(&solution, false)?;
        return Ok(PathEntry {
            vertices,
            rounds,
            value: solution.value,
            white_states: w,
            black_states: b,
            white_side: "W's strategy",
            black_side: "B's strategy",
            search_nodes: solution.nodes,
            solve_seconds,
            check_seconds: check_started.elapsed().as_secs_f64(),
            note: (!notes.is_empty()).then(|| notes.join("; ")),
        });
    };
    Ok(PathEntry {
        vertices,
        rounds,
        value: 0,
        white_states,
        black_states,
        white_side: "rule U",
        black_side: if black_states.is_some() { "rule U" } else { "B's mirror" },
        search_nodes: 0,
        solve_seconds: 0.0,
        check_seconds: started.elapsed().as_secs_f64(),
        note: None,
    })
}

/// The checker's replay of one entry: W's and B's strategies, or (`by_mirror`) W's alone for
/// "at least 0" and B's mirror, a `voronoi-mirror` certificate on the path p1 - ... - pN (the
/// reflection), for "at most 0". Returns the states each replayed.
fn check_path_entry(
    solution: &PathSolution,
    by_mirror: bool,
) -> anyhow::Result<(u64, Option<u64>)> {
    let certificate = &solution.certificate;
    let (vertices, rounds) = (certificate.vertices, certificate.rounds);
    let budget = &mut Budget::unlimited();
    let rejected =
        |e: String| anyhow::anyhow!("the checker rejected the N {vertices}, n {rounds} entry: {e}");
    if by_mirror {
        let white = &certificate.white;
        let w = check_path_strategy(vertices, rounds, true, white, 0, budget).map_err(rejected)?;
        let (instance, mirror) = path_mirror(vertices, rounds)?;
        let verdict = gamecert_certificates::voronoi::mirror::mirror_verdict(
            &instance,
            &mirror,
            &mut Budget::unlimited(),
        );
        if !verdict.accepted() {
            return Err(rejected(verdict.reason));
        }
        return Ok((w.states, None));
    }
    let (w, b) = check_path_value(vertices, rounds, certificate, budget).map_err(rejected)?;
    Ok((w.states, Some(b.states)))
}

/// The path p1 - ... - pN with `rounds` rounds, as `gen path` writes it, and B's mirror on it
/// (the reflection, p_i with p_(N + 1 - i)).
pub fn path_mirror(
    vertices: usize,
    rounds: usize,
) -> anyhow::Result<(gamecert_certificates::format::MultiRoundSpec, VoronoiMirror)> {
    let instance = crate::voronoi::gen::path(vertices as u64, rounds)?;
    let name = |i: usize| format!("p{i}");
    let pairs = (1..=vertices / 2).map(|i| (name(i), name(vertices + 1 - i))).collect();
    let mirror = VoronoiMirror {
        player: gamecert_certificates::voronoi::rules::Player::Black,
        claim: gamecert_certificates::voronoi::multi_round::StrategyClaim::AtLeastTies,
        pairs,
    };
    Ok((instance, mirror))
}

/// A side's replayed positions, with the rule's name when a rule played it.
fn side_states(states: u64, side: &str) -> String {
    if side == "rule U" {
        format!("{states} (rule U)")
    } else {
        states.to_string()
    }
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
            side_states(r.white_states, r.white_side),
            r.black_states
                .map_or_else(|| r.black_side.to_string(), |b| side_states(b, r.black_side)),
            r.search_nodes
        ));
        if times {
            out.push_str(&format!(" {:.3} | {:.3} |", r.solve_seconds, r.check_seconds));
        }
        out.push('\n');
    }
    let ties = rows.iter().filter(|r| r.value == 0).count();
    let checked: u64 = rows.iter().map(|r| r.white_states + r.black_states.unwrap_or(0)).sum();
    let by_lemma = rows.iter().filter(|r| r.black_states.is_none()).count();
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
    if by_lemma > 0 {
        out.push_str(&format!(
            "; B's side of {by_lemma} even-path entries is B's mirror (a voronoi-mirror \
             certificate, checked), not a replayed strategy"
        ));
    }
    let by_rule = rows
        .iter()
        .map(|r| usize::from(r.white_side == "rule U") + usize::from(r.black_side == "rule U"))
        .sum::<usize>();
    if by_rule > 0 {
        out.push_str(&format!(
            "; {by_rule} sides by rule U (voronoi-path-rule certificates: the checker computes \
             the rule's moves and replays them against every opponent move)"
        ));
    }
    if times {
        out.push_str(&format!("; wall time {wall_seconds:.2} s"));
    }
    out.push('\n');
    for note in rows.iter().filter_map(|r| r.note.as_ref()) {
        out.push_str(&format!("- {note}\n"));
    }
    out
}

/// One line of `table voronoi-paths --each`: `N n VALUE W_STATES B_STATES`, B_STATES being
/// `mirror` where B's side is B's mirror.
pub fn path_entry_line(r: &PathEntry) -> String {
    let black = r.black_states.map_or_else(|| "mirror".to_string(), |b| b.to_string());
    format!("{} {} {} {} {black}", r.vertices, r.rounds, r.value, r.white_states)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The work forecast: geometric within the budget, one budget for an end's failing
    /// attempt, nothing for a finished tree, and less as entries arrive.
    #[test]
    fn the_work_forecast_extrapolates_each_end() {
        let forecast = WorkForecast::new(1_000_000, crate::voronoi::exact::MAX_VERTICES);
        // 10, 40: ratio 4, so 160, 640, 2560 ... until past the budget, then the budget.
        let expected = 160 + 640 + 2_560 + 10_240 + 40_960 + 163_840 + 655_360 + 1_000_000;
        assert_eq!(forecast.end(&[10, 40], 20), expected);
        assert_eq!(forecast.end(&[10, 40], 2), 160 + 640, "no more than the open entries");
        assert_eq!(forecast.end(&[], 3), 1_000_000);
        assert_eq!(forecast.end(&[], 0), 0);
        // Ratios are clamped: a flat end still grows (x2), a steep one at most x50.
        assert_eq!(forecast.end(&[100, 100], 1), 200);
        assert_eq!(forecast.end(&[1, 1_000], 1), 50_000);

        let mut forecast = WorkForecast::new(1_000_000, crate::voronoi::exact::MAX_VERTICES);
        let fresh = forecast.remaining();
        // Every tree of more than 15 vertices is charged two budgets before it begins.
        let big = forecast
            .trees
            .keys()
            .filter(|&&(k, h)| crate::voronoi::gen::kary_size(k, h).unwrap() as usize > SMALL_TREE);
        assert_eq!(fresh, 2 * 1_000_000 * big.count() as u64);
        let entry = |k, height, rounds, nodes| KaryEntry {
            k,
            height,
            vertices: crate::voronoi::gen::kary_size(k, height).unwrap() as usize,
            rounds,
            value: Some(0),
            at_least: None,
            outcome: None,
            method: "exact".into(),
            positions_checked: 0,
            search_nodes: nodes,
        };
        // k = 2, height 4 (31 vertices, n = 1..15): its low end at 10 and 100 nodes.
        forecast.record(&entry(2, 4, 1, 10));
        forecast.record(&entry(2, 4, 2, 100));
        let low = 1_000 + 10_000 + 100_000 + 1_000_000;
        assert_eq!(forecast.remaining(), fresh - 2_000_000 + low + 1_000_000);
        // Then its high end (the low end failed at n = 3): n = 15 at 5 nodes.
        forecast.record(&entry(2, 4, 15, 5));
        assert_eq!(
            forecast.remaining(),
            fresh - 2_000_000 + 50 + 500 + 5_000 + 50_000 + 500_000 + 1_000_000
        );
        // The whole tree reported: nothing left of it.
        for n in 3..15 {
            forecast.record(&KaryEntry { method: "open".into(), ..entry(2, 4, n, 0) });
        }
        assert_eq!(forecast.remaining(), fresh - 2_000_000);
    }

    /// Entries the exact solver leaves open (here: a budget of one node) get their outcome by
    /// proof search from both ends inwards: each n reported once, each outcome the sign of the
    /// plain exact search's value, a tie's value 0; and with a limit too small for the middle,
    /// the two ends stop at their first failure and the entries between stay open.
    #[test]
    fn open_entries_get_outcomes_by_proof_from_both_ends() {
        let collect = |prove_limit: u64| {
            let mut rows = Vec::new();
            let done = kary_tree_entries(2, 3, 7, 1, (0, prove_limit), &mut |e| {
                rows.push(e.unwrap());
                true
            });
            assert!(done);
            rows.sort_by_key(|r: &KaryEntry| r.rounds);
            assert_eq!(
                rows.iter().map(|r| r.rounds).collect::<Vec<_>>(),
                (1..=7).collect::<Vec<_>>()
            );
            rows
        };
        for r in collect(u64::from(u32::MAX)) {
            let game = kary_tree(2, 3, r.rounds).unwrap().validate().unwrap();
            let plain = crate::voronoi::exact::ExactSolver::new(&game).unwrap().solve();
            let expected = crate::voronoi::tree_prove::TreeOutcome::of_value(plain.value);
            assert_eq!(r.outcome, Some(expected), "n {}", r.rounds);
            if plain.value == 0 {
                assert_eq!(r.value, Some(0), "n {}", r.rounds);
            }
        }
        let rows = collect(3);
        let open: Vec<usize> =
            rows.iter().filter(|r| r.outcome.is_none()).map(|r| r.rounds).collect();
        assert!(!open.is_empty() && open.len() < 7, "{open:?}");
        // The open entries are one run between the ends' proofs.
        assert_eq!(open.len(), open[open.len() - 1] - open[0] + 1, "{open:?}");
    }

    /// The table's small entries against the exact solver without canonical forms (bitmask
    /// positions, sibling swaps); and the values the paper's propositions predict.
    #[test]
    fn small_kary_values_agree_with_the_plain_exact_search() {
        let all = crate::voronoi::exact::MAX_VERTICES;
        let rows = voronoi_kary((5_000_000, all), (2_000, 0), &mut |_| {}).unwrap();
        assert_eq!(rows.len(), kary_entries(all).len());
        let mut compared = 0;
        for r in rows.iter().filter(|r| r.vertices <= 31 && (r.vertices <= 15 || r.rounds <= 3)) {
            let game = kary_tree(r.k, r.height, r.rounds).unwrap().validate().unwrap();
            let root = game.graph.vertex("r").unwrap();
            let plain = crate::voronoi::exact::ExactSolver::new(&game)
                .and_then(|s| s.with_tree_symmetry(root))
                .unwrap()
                .solve_within(5_000_000)
                .unwrap();
            assert_eq!(r.value, Some(plain.value), "k {} height {} n {}", r.k, r.height, r.rounds);
            assert_eq!(r.method, "exact");
            compared += 1;
        }
        assert!(compared >= 25, "{compared}");
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
    }

    /// `--mirror`: the same values as both strategies on every path to 16 vertices; B's side
    /// is the checked mirror on exactly the even paths; rows reach `on_row` in order, each
    /// once; the table says how many entries rest on the mirror.
    #[test]
    fn the_mirror_table_agrees_with_both_strategies_and_says_so() {
        let both = voronoi_paths(1, 16, &mut |_| {}).unwrap();
        let mut streamed = Vec::new();
        let mirrored = voronoi_paths_with(
            &mut PathSolver::new(),
            (1, 16),
            PathSides::MirrorOnEven,
            usize::MAX,
            &mut |_| {},
            &mut |row| streamed.push((row.vertices, row.rounds)),
        )
        .unwrap();
        assert_eq!(both.len(), mirrored.len());
        for (b, m) in both.iter().zip(&mirrored) {
            assert_eq!((b.vertices, b.rounds, b.value), (m.vertices, m.rounds, m.value));
            assert!(b.black_states.is_some());
            let even = m.vertices % 2 == 0;
            assert_eq!(m.black_states.is_none(), even, "N {} n {}", m.vertices, m.rounds);
            assert_eq!(m.black_side, if even { "B's mirror" } else { "B's strategy" });
        }
        let order: Vec<(usize, usize)> = mirrored.iter().map(|r| (r.vertices, r.rounds)).collect();
        assert_eq!(streamed, order);
        let lemma_rows = mirrored.iter().filter(|r| r.black_states.is_none()).count();
        assert_eq!(lemma_rows, (1..=8).sum::<usize>());
        let text = voronoi_paths_table(&mirrored, false, 0.0);
        assert!(text.contains(&format!("B's side of {lemma_rows} even-path entries")), "{text}");
        assert!(text.contains("| 16 | 8 | 0 (tie) |"), "{text}");
        assert!(!voronoi_paths_table(&both, false, 0.0).contains("mirror"));
    }

    /// A damaged W strategy of a mirror entry is rejected, so no row rests on the mirror alone.
    #[test]
    fn a_mirror_entry_is_still_checked() {
        let mut solution = PathSolver::new().solve_by_mirror(10, 3).unwrap().unwrap();
        assert!(solution.certificate.black.is_empty());
        assert!(check_path_entry(&solution, true).is_ok());
        solution.certificate.white.pop();
        let err = check_path_entry(&solution, true).unwrap_err().to_string();
        assert!(err.contains("N 10, n 3") && err.contains("no move for state"), "{err}");
        assert!(PathSolver::new().solve_by_mirror(9, 3).is_err(), "odd paths have no mirror");
    }
}

//! Benchmarks of the multi-round game (`gamecert bench exact|posdnf|kary|paths`): the exact
//! solver's speed on a 30-vertex graph, sequential and with rayon, the cost of Figure 4's
//! certificates, the certificates of seed 001's strategies on complete k-ary trees, and how the
//! path table ([`gamecert::voronoi::tables::voronoi_paths`]) grows with N.

use gamecert::base::rng::Rng;
use gamecert::voronoi::dnf_maps::certificate_for;
use gamecert::voronoi::exact::ExactSolver;
use gamecert_certificates::format::{GraphSpec, Instance, MultiRoundSpec};
use gamecert_certificates::posdnf::dnf::PosDnf;
use gamecert_certificates::{check, Limits};
use gamecert_reductions::posdnf_voronoi::build;
use serde::Serialize;
use std::time::Instant;

/// One run of the exact solver.
#[derive(Clone, Debug, Serialize)]
pub struct ExactRow {
    pub graph: String,
    pub vertices: usize,
    pub rounds: usize,
    pub mode: String,
    pub value: i64,
    pub nodes: u64,
    pub seconds: f64,
    pub nodes_per_second: f64,
}

/// A random connected-ish graph on 30 vertices (fixed seed) and the 5 x 6 grid, each solved
/// with `rounds` rounds sequentially and in parallel.
pub fn exact(rounds: usize, note: &dyn Fn(&str)) -> anyhow::Result<Vec<ExactRow>> {
    let mut rows = Vec::new();
    for (name, spec) in [
        ("random G(30, 0.12)", random_graph(30, 0.12, 7, rounds)),
        ("grid 5x6", grid(5, 6, rounds)),
    ] {
        let game = spec.validate()?;
        for mode in ["sequential", "rayon"] {
            note(&format!("exact: {name}, {rounds} rounds, {mode}"));
            let started = Instant::now();
            let (value, nodes) = match mode {
                "sequential" => {
                    ExactSolver::new(&game).map_err(anyhow::Error::msg)?.sequential_value()
                }
                _ => ExactSolver::parallel_value(&game).map_err(anyhow::Error::msg)?,
            };
            let seconds = started.elapsed().as_secs_f64();
            rows.push(ExactRow {
                graph: name.into(),
                vertices: game.graph.len(),
                rounds,
                mode: mode.into(),
                value,
                nodes,
                seconds,
                nodes_per_second: nodes as f64 / seconds.max(1e-9),
            });
        }
    }
    Ok(rows)
}

fn random_graph(n: usize, p: f64, seed: u64, rounds: usize) -> MultiRoundSpec {
    let mut rng = Rng::new(seed);
    let mut edges = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if (rng.below(1_000_000) as f64) < p * 1_000_000.0 {
                edges.push((a, b));
            }
        }
    }
    MultiRoundSpec { graph: GraphSpec::numbered(n, &edges), rounds, start: None, source: None }
}

fn grid(rows: usize, cols: usize, rounds: usize) -> MultiRoundSpec {
    let name = |r: usize, c: usize| format!("g{r}.{c}");
    let vertices = (0..rows).flat_map(|r| (0..cols).map(move |c| name(r, c))).collect();
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            if r + 1 < rows {
                edges.push((name(r, c), name(r + 1, c)));
            }
            if c + 1 < cols {
                edges.push((name(r, c), name(r, c + 1)));
            }
        }
    }
    MultiRoundSpec { graph: GraphSpec { vertices, edges }, rounds, start: None, source: None }
}

/// Markdown for [`exact`].
pub fn exact_table(rows: &[ExactRow]) -> String {
    let mut out = String::from("| graph | vertices | rounds | mode | value | nodes | seconds | nodes/s |\n|---|---:|---:|---|---:|---:|---:|---:|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {:.3} | {:.0} |\n",
            r.graph, r.vertices, r.rounds, r.mode, r.value, r.nodes, r.seconds, r.nodes_per_second
        ));
    }
    out
}

/// Figure 4's certificates: sizes and times.
#[derive(Clone, Debug, Serialize)]
pub struct Figure4Report {
    pub vertices: usize,
    pub rounds: usize,
    pub certificate: String,
    pub claim: String,
    pub certificate_bytes: usize,
    pub generate_seconds: f64,
    pub check_seconds: f64,
    pub positions_checked: u64,
    pub final_positions: u64,
    pub symmetry_uses: u64,
    /// Plays of the unreduced game tree: 189 * 188 * ... * 180 (one per order of the 10 moves).
    pub plays_in_unreduced_tree: f64,
}

/// Generates and checks Figure 4's certificates.
pub fn figure4(note: &dyn Fn(&str)) -> anyhow::Result<Figure4Report> {
    let a = PosDnf { num_vars: 8, terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]] };
    let built = build(&a).map_err(anyhow::Error::msg)?;
    let vertices = built.graph.vertices.len();
    note("posdnf: generating Figure 4's certificates");
    let started = Instant::now();
    let certificate = certificate_for(&built).map_err(anyhow::Error::msg)?;
    let generate_seconds = started.elapsed().as_secs_f64();
    let instance = Instance::Voronoi(MultiRoundSpec {
        graph: built.graph.clone(),
        rounds: built.rounds,
        start: None,
        source: None,
    });
    note("posdnf: checking them");
    let started = Instant::now();
    let verdict = check(&instance, &certificate, &Limits::default());
    let check_seconds = started.elapsed().as_secs_f64();
    anyhow::ensure!(
        verdict.accepted(),
        "the checker rejected Figure 4's certificate: {}",
        verdict.reason
    );
    let plays: f64 = (0..2 * built.rounds).map(|k| (vertices - k) as f64).product();
    Ok(Figure4Report {
        vertices,
        rounds: built.rounds,
        certificate: certificate.kind().into(),
        claim: verdict.claim,
        certificate_bytes: certificate.to_json().len(),
        generate_seconds,
        check_seconds,
        positions_checked: verdict.work.positions.unwrap_or(0),
        final_positions: verdict.work.leaves.unwrap_or(0),
        symmetry_uses: verdict.work.symmetries.unwrap_or(0),
        plays_in_unreduced_tree: plays,
    })
}

/// Markdown for [`figure4`].
pub fn figure4_table(r: &Figure4Report) -> String {
    format!(
        "| quantity | value |\n|---|---:|\n| vertices | {} |\n| rounds each | {} |\n| certificate | {} |\n| claim | {} |\n| certificate bytes | {} |\n| generate (s) | {:.3} |\n| check (s) | {:.3} |\n| positions checked | {} |\n| final positions scored | {} |\n| symmetry uses | {} |\n| plays in the unreduced tree | {:.3e} |\n",
        r.vertices, r.rounds, r.certificate, r.claim, r.certificate_bytes, r.generate_seconds, r.check_seconds, r.positions_checked, r.final_positions, r.symmetry_uses, r.plays_in_unreduced_tree
    )
}

/// One complete k-ary tree solved by the paper's strategies.
#[derive(Clone, Debug, Serialize)]
pub struct KaryRow {
    pub k: u64,
    pub height: u32,
    pub vertices: usize,
    pub rounds: usize,
    pub method: String,
    pub claim: String,
    pub positions: u64,
    pub folded_moves: u64,
    pub certificate_bytes: usize,
    pub build_seconds: f64,
    pub check_seconds: f64,
}

/// The smallest trees of Theorems 1 and 2 (and a larger case (B) one), each certificate
/// written as JSON, read back and checked.
pub fn kary(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<KaryRow>> {
    let mut cases =
        vec![(3u64, 4u32, 2usize), (3, 4, 3), (5, 4, 3), (3, 5, 4), (4, 4, 3), (4, 4, 4)];
    if !quick {
        cases.extend([(3, 5, 5), (6, 4, 4)]);
    }
    let mut rows = Vec::new();
    for (k, height, rounds) in cases {
        note(&format!("kary: k {k}, height {height}, n {rounds}"));
        let spec = gamecert::voronoi::gen::kary_tree(k, height, rounds)?;
        let game = spec.validate()?;
        let started = Instant::now();
        let (certificate, method) = gamecert::voronoi::kary::kary_certificate(&game, k)
            .map_err(anyhow::Error::msg)?
            .ok_or_else(|| anyhow::anyhow!("k {k}, height {height}, n {rounds}: not settled"))?;
        let build_seconds = started.elapsed().as_secs_f64();
        let text = certificate.to_json();
        let started = Instant::now();
        let read = gamecert_certificates::format::Certificate::from_json(&text)?;
        let verdict = check(&Instance::Voronoi(spec), &read, &Limits::default());
        let check_seconds = started.elapsed().as_secs_f64();
        anyhow::ensure!(verdict.accepted(), "rejected: {}", verdict.reason);
        rows.push(KaryRow {
            k,
            height,
            vertices: game.graph.len(),
            rounds,
            method: method.into(),
            claim: verdict.claim,
            positions: verdict.work.positions.unwrap_or(0),
            folded_moves: verdict.work.symmetries.unwrap_or(0),
            certificate_bytes: text.len(),
            build_seconds,
            check_seconds,
        });
    }
    Ok(rows)
}

/// One N of the path table: every n with 2n <= N, solved with the table's shared solver and
/// checked.
#[derive(Clone, Debug, Serialize)]
pub struct PathsRow {
    /// B's side on even paths: "B's strategy" or "B's mirror" (`table voronoi-paths --mirror`).
    pub black_side: &'static str,
    pub vertices: usize,
    pub entries: usize,
    /// Entries whose value is not 0.
    pub not_ties: usize,
    pub solve_seconds: f64,
    pub check_seconds: f64,
    /// Gap states the checker replayed (both strategies, all n).
    pub checker_states: u64,
    /// The largest single strategy replayed for this N.
    pub largest_strategy: u64,
    /// States in the solver's transposition table after this N.
    pub table_states: usize,
    /// Wall-clock seconds since the start of the run (N = 1 up to this N).
    pub cumulative_seconds: f64,
}

/// The path table row by row, N = 1, 2, ... up to `max_vertices`, starting no new N once
/// `cap_seconds` have passed: first with both strategies, then with B's mirror (checked) on even
/// paths, each run from an empty table.
pub fn paths(
    max_vertices: usize,
    cap_seconds: f64,
    note: &dyn Fn(&str),
) -> anyhow::Result<Vec<PathsRow>> {
    use gamecert::voronoi::tables::PathSides;
    let mut rows = paths_with(max_vertices, cap_seconds, PathSides::Both, note)?;
    rows.extend(paths_with(max_vertices, cap_seconds, PathSides::MirrorOnEven, note)?);
    Ok(rows)
}

fn paths_with(
    max_vertices: usize,
    cap_seconds: f64,
    sides: gamecert::voronoi::tables::PathSides,
    note: &dyn Fn(&str),
) -> anyhow::Result<Vec<PathsRow>> {
    // The side even paths get (odd paths keep B's strategy in either run).
    let black_side = sides.black_side(true);
    let mut solver = gamecert::voronoi::paths::PathSolver::new();
    let started = Instant::now();
    let mut rows = Vec::new();
    for vertices in 2..=max_vertices {
        if started.elapsed().as_secs_f64() > cap_seconds {
            note(&format!(
                "paths: time cap of {cap_seconds} s reached, N = {vertices} not started"
            ));
            break;
        }
        let entries = gamecert::voronoi::tables::voronoi_paths_with(
            &mut solver,
            (vertices, vertices),
            sides,
            usize::MAX,
            &mut |_| {},
            &mut |_| {},
        )?;
        let row = PathsRow {
            black_side,
            vertices,
            entries: entries.len(),
            not_ties: entries.iter().filter(|e| e.value != 0).count(),
            solve_seconds: entries.iter().map(|e| e.solve_seconds).sum(),
            check_seconds: entries.iter().map(|e| e.check_seconds).sum(),
            checker_states: entries
                .iter()
                .map(|e| e.white_states + e.black_states.unwrap_or(0))
                .sum(),
            largest_strategy: entries
                .iter()
                .map(|e| e.white_states.max(e.black_states.unwrap_or(0)))
                .max()
                .unwrap_or(0),
            table_states: solver.table_len(),
            cumulative_seconds: started.elapsed().as_secs_f64(),
        };
        note(&format!(
            "paths ({black_side}): N {} done: solve {:.2} s, check {:.2} s, {} checker states, {:.1} s so far",
            row.vertices,
            row.solve_seconds,
            row.check_seconds,
            row.checker_states,
            row.cumulative_seconds
        ));
        rows.push(row);
    }
    Ok(rows)
}

/// One line of `bench path-rule` (issue 49): a single replay of rule U by the checker, or the
/// whole rule table over a range.
#[derive(Clone, Debug, Serialize)]
pub struct PathRuleRow {
    /// "U as W", "U as B", or "table" (`table voronoi-paths --rule`, every n <= `rounds`).
    pub what: &'static str,
    /// N (for a table row, the largest N; the table starts at N = 2).
    pub vertices: usize,
    /// n (for a table row, the largest n).
    pub rounds: usize,
    /// Positions replayed (a table row: the checker states of every entry).
    pub positions: u64,
    /// Entries certified (1 for a single replay).
    pub entries: usize,
    pub seconds: f64,
}

/// `bench path-rule`: the checker's replay of rule U where its cost grows (W's side stays
/// cheap; B's side keeps concrete lines while an ideal vertex is empty, about C(N, n) of
/// them), then the rule table to N = 60 with n <= 5 on two threads (--quick: smaller sizes).
pub fn path_rule(quick: bool, note: &dyn Fn(&str)) -> anyhow::Result<Vec<PathRuleRow>> {
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi_paths::path_rule::{check_path_rule, PathRuleName, Side};
    let singles: &[(usize, usize, Side)] = if quick {
        &[(30, 3, Side::W), (29, 3, Side::B), (40, 4, Side::W), (39, 4, Side::B), (60, 5, Side::W)]
    } else {
        &[
            (200, 2, Side::W),
            (199, 2, Side::B),
            (200, 3, Side::W),
            (199, 3, Side::B),
            (100, 4, Side::W),
            (99, 4, Side::B),
            (60, 5, Side::W),
            (59, 5, Side::B),
            (60, 6, Side::W),
        ]
    };
    let mut rows = Vec::new();
    for &(vertices, rounds, side) in singles {
        let started = Instant::now();
        let report =
            check_path_rule(vertices, rounds, PathRuleName::U, side, &mut Budget::unlimited())
                .map_err(|e| anyhow::anyhow!("U as {side:?} on N {vertices}, n {rounds}: {e}"))?;
        let row = PathRuleRow {
            what: if side == Side::W { "U as W" } else { "U as B" },
            vertices,
            rounds,
            positions: report.states,
            entries: 1,
            seconds: started.elapsed().as_secs_f64(),
        };
        note(&format!("path-rule: {} N {vertices} n {rounds}: {:.2} s", row.what, row.seconds));
        rows.push(row);
    }
    let (max_vertices, max_rounds) = if quick { (30, 3) } else { (60, 5) };
    let started = Instant::now();
    let entries = gamecert::voronoi::tables::voronoi_paths_by_rule(
        (2, max_vertices),
        max_rounds,
        2,
        &mut |_| {},
        &mut |_| {},
    )?;
    rows.push(PathRuleRow {
        what: "table",
        vertices: max_vertices,
        rounds: max_rounds,
        positions: entries.iter().map(|e| e.white_states + e.black_states.unwrap_or(0)).sum(),
        entries: entries.len(),
        seconds: started.elapsed().as_secs_f64(),
    });
    Ok(rows)
}

/// Markdown for [`path_rule`].
pub fn path_rule_table(rows: &[PathRuleRow]) -> String {
    let mut out = String::from(
        "| what | N | n | entries | positions replayed | seconds |\n|---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {:.2} |\n",
            r.what, r.vertices, r.rounds, r.entries, r.positions, r.seconds
        ));
    }
    out
}

/// Markdown for [`kary`].
pub fn kary_table(rows: &[KaryRow]) -> String {
    let mut out = String::from(
        "| k | H | N | n | claim | positions | folded moves | JSON bytes | build s | parse + check s |\n\
         |---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} |\n",
            r.k,
            r.height,
            r.vertices,
            r.rounds,
            r.claim,
            r.positions,
            r.folded_moves,
            r.certificate_bytes,
            r.build_seconds,
            r.check_seconds
        ));
    }
    out
}

/// Markdown for [`paths`].
pub fn paths_table(rows: &[PathsRow]) -> String {
    let mut out = String::from("| B's side (even N) | N | entries | not ties | solve s | check s | checker states | largest strategy | table states | cumulative s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} | {:.3} | {} | {} | {} | {:.1} |\n",
            r.black_side,
            r.vertices,
            r.entries,
            r.not_ties,
            r.solve_seconds,
            r.check_seconds,
            r.checker_states,
            r.largest_strategy,
            r.table_states,
            r.cumulative_seconds
        ));
    }
    out
}

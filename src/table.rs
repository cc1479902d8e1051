//! The tables of `gamecert table NAME`, computed for any caller: each [`Request`] is checked
//! (the same limits and messages as the command line), computed, and returned as a [`Table`]
//! holding both what the command prints and the fields of its `--json` output. The command line
//! prints one or the other; the Python package hands out the rows.
//!
//! The triangle-avoidance engines that run out of core or on timely dataflow, and
//! `voronoi-graphs --each` (one line per graph as it is solved), stay in the command line, which
//! turns their rows into a [`Table`] with [`triangle_table`] and [`census_table`].

use crate::base::io::BadInput;
use crate::base::oeis::Oeis;
use crate::triangle_avoidance::rules::Rules;
use crate::triangle_avoidance::solver::Outcome;
use crate::voronoi::census::{CensusRow, GraphValue};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::PathBuf;

/// A table and its options, as the command line's `table` subcommands take them. Read from
/// JSON (`{"voronoi-paths": {"max_vertices": 16}}`) with every option defaulted as on the
/// command line and an unknown option refused.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub enum Request {
    /// VG(T, n) on complete k-ary trees below the paper's size bound.
    VoronoiKary {
        #[serde(default = "defaults::kary_budget")]
        budget: u64,
        /// Only the trees of at most this many vertices.
        #[serde(default = "defaults::kary_max_vertices")]
        max_vertices: usize,
        /// Expansions of the proof search per test on an entry the exact solver left open.
        #[serde(default = "defaults::kary_prove_limit")]
        prove_limit: u64,
    },
    /// VG(P_N, n) on paths, N = `min_vertices..=max_vertices`.
    VoronoiPaths {
        #[serde(default = "defaults::max_path_vertices")]
        max_vertices: usize,
        #[serde(default = "defaults::one")]
        min_vertices: usize,
        /// On even paths, B's side by B's mirror (a checked `voronoi-mirror` certificate)
        /// rather than B's replayed strategy.
        #[serde(default)]
        mirror: bool,
        /// W's side by rule U, B's by B's mirror (even N) and rule U (odd N), each a
        /// `voronoi-path-rule` certificate the checker replays; the search where U does not
        /// apply or fails (issue 49).
        #[serde(default)]
        rule: bool,
        /// Only n <= this many rounds.
        #[serde(default)]
        max_rounds: Option<usize>,
    },
    /// The Voronoi game on every graph of a graph6 text, or on every connected graph up to
    /// `max_n` vertices by gamecert's generator.
    VoronoiGraphs {
        #[serde(default)]
        graph6: Option<String>,
        #[serde(default = "defaults::census_max_n")]
        max_n: usize,
        #[serde(default = "defaults::census_rounds")]
        rounds: Vec<usize>,
    },
    /// Seed 002's games for n = 2..=`max_n`, in memory (with an optional checkpoint folder).
    TriangleAvoidance {
        #[serde(default = "defaults::triangle_max_n")]
        max_n: usize,
        #[serde(default = "defaults::triangle_rules")]
        rules: Rules,
        #[serde(default)]
        checkpoint: Option<PathBuf>,
    },
    /// Nimstring on fans (seed 000, Tables 4 and 5); with `max_triangles`, normal play to that
    /// many triangles by Nimstring values of strips and misère play as far as the exact solver.
    NimstringFans {
        #[serde(default)]
        max_triangles: Option<usize>,
    },
    /// Kayles' nim-sequence G(0..=n).
    Kayles {
        #[serde(default)]
        n: Option<usize>,
    },
    /// Dawson's Kayles' nim-sequence.
    DawsonKayles {
        #[serde(default)]
        n: Option<usize>,
    },
    /// Grundy's game's nim-sequence.
    Grundy {
        #[serde(default)]
        n: Option<usize>,
    },
    /// Any octal game's nim-sequence.
    Octal {
        code: String,
        #[serde(default)]
        n: Option<usize>,
    },
    /// 2.1.3 and 2.1.4 on 3..=`max_points` convex points.
    BichromaticConstruct {
        #[serde(default = "defaults::max_points")]
        max_points: usize,
    },
    /// Monochromatic and Bichromatic Flipping on random point sets, 6..=`max_n` points.
    Flipping {
        #[serde(default = "defaults::flipping_max_n")]
        max_n: usize,
    },
    /// Green-Wins Solitaire: every triangulation of the convex n-gon, n = 4..=`max_convex`, and
    /// `point_sets` random point sets with inner points, 5..=`max_points` points.
    GreenWins {
        #[serde(default = "defaults::green_max_convex")]
        max_convex: usize,
        #[serde(default = "defaults::green_point_sets")]
        point_sets: usize,
        #[serde(default = "defaults::green_max_points")]
        max_points: usize,
        #[serde(default = "defaults::green_cap")]
        cap: usize,
        /// Where each row's counterexample is written as a flip-game instance with its best
        /// flip sequence and its flip-bound.
        #[serde(default)]
        out: Option<PathBuf>,
    },
    /// Vertex NimG with weight-0 vertices: every connected graph and directed circuit up to
    /// `max_n` vertices, weights 0..=`max_weight`.
    VertexNimg {
        #[serde(default = "defaults::nimg_max_n")]
        max_n: usize,
        #[serde(default = "defaults::nimg_max_weight")]
        max_weight: u64,
    },
    /// Monochromatic Flipping to Triangle on serpentine triangulations, n = 4..=`max_n`.
    SerpentineMft {
        #[serde(default = "defaults::flipping_max_n")]
        max_n: usize,
        #[serde(default)]
        no_certify: bool,
    },
}

/// The command line's defaults, which the JSON form of [`Request`] shares.
pub mod defaults {
    use crate::triangle_avoidance::rules::Rules;

    pub fn kary_budget() -> u64 {
        150_000_000
    }
    pub fn kary_max_vertices() -> usize {
        crate::voronoi::exact::MAX_VERTICES
    }
    pub fn kary_prove_limit() -> u64 {
        crate::voronoi::tables::PROVE_LIMIT
    }
    pub fn max_path_vertices() -> usize {
        30
    }
    pub fn one() -> usize {
        1
    }
    pub fn census_max_n() -> usize {
        7
    }
    pub fn census_rounds() -> Vec<usize> {
        vec![1, 2]
    }
    pub fn triangle_max_n() -> usize {
        10
    }
    pub fn triangle_rules() -> Rules {
        Rules::TriangleAvoidance
    }
    pub fn max_points() -> usize {
        7
    }
    pub fn flipping_max_n() -> usize {
        10
    }
    pub fn green_max_convex() -> usize {
        10
    }
    pub fn green_point_sets() -> usize {
        200
    }
    pub fn green_max_points() -> usize {
        9
    }
    pub fn green_cap() -> usize {
        1000
    }
    pub fn nimg_max_n() -> usize {
        6
    }
    pub fn nimg_max_weight() -> u64 {
        3
    }
    /// G(0..=n) of Kayles, Grundy's game and any octal game.
    pub const SEQUENCE_N: usize = 84;
    /// G(0..=n) of Dawson's Kayles (its table in seed 000 goes to 101).
    pub const DAWSON_N: usize = 101;
}

impl Request {
    /// The request for table `name` with `options` (an object of option names, as on the
    /// command line with `_` for `-`, to values); an unknown table or option is bad input.
    pub fn from_options(
        name: &str,
        options: serde_json::Map<String, serde_json::Value>,
    ) -> Result<Request, BadInput> {
        let mut tagged = serde_json::Map::new();
        tagged.insert(name.to_string(), serde_json::Value::Object(options));
        serde_json::from_value(serde_json::Value::Object(tagged))
            .map_err(|e| BadInput(format!("table {name}: {e}")))
    }

    /// The table's name on the command line.
    pub fn name(&self) -> &'static str {
        match self {
            Request::VoronoiKary { .. } => "voronoi-kary",
            Request::VoronoiPaths { .. } => "voronoi-paths",
            Request::VoronoiGraphs { .. } => "voronoi-graphs",
            Request::TriangleAvoidance { .. } => "triangle-avoidance",
            Request::NimstringFans { .. } => "nimstring-fans",
            Request::Kayles { .. } => "kayles",
            Request::DawsonKayles { .. } => "dawson-kayles",
            Request::Grundy { .. } => "grundy",
            Request::Octal { .. } => "octal",
            Request::BichromaticConstruct { .. } => "bichromatic-construct",
            Request::Flipping { .. } => "flipping",
            Request::SerpentineMft { .. } => "serpentine-mft",
            Request::VertexNimg { .. } => "vertex-nimg",
            Request::GreenWins { .. } => "green-wins",
        }
    }

    /// Whether progress is better counted in solver work (published with a forecast of its
    /// total, [`crate::base::solved::expect_searched`]) than in entries.
    pub fn counts_work(&self) -> bool {
        matches!(self, Request::VoronoiKary { .. })
    }

    /// How many progress steps the table takes, when known in advance (one per entry).
    pub fn entries(&self) -> Option<u64> {
        match self {
            // Entries differ in work by factors of 10^4 (issue 33): no ETA from their count;
            // the messages say the entries done and the solver's work so far.
            Request::VoronoiKary { .. } => None,
            Request::VoronoiPaths { max_vertices, min_vertices, max_rounds, .. } => {
                let most = max_rounds.unwrap_or(usize::MAX);
                Some(
                    (*min_vertices.max(&2)..=*max_vertices).map(|n| (n / 2).min(most) as u64).sum(),
                )
            }
            Request::BichromaticConstruct { max_points } => {
                Some(3 * max_points.saturating_sub(2) as u64)
            }
            Request::Flipping { max_n } => {
                let seeds = crate::triangulations::flip_table::SEEDS;
                Some((6..=*max_n).map(|n| 3.min(n.saturating_sub(3)) as u64 * seeds).sum())
            }
            Request::SerpentineMft { max_n, .. } => Some(max_n.saturating_sub(3) as u64),
            Request::NimstringFans { max_triangles: None } => {
                Some(FAN_TRIANGLES.0 as u64 + FAN_TRIANGLES.1 as u64)
            }
            Request::VertexNimg { max_n, .. } => Some(2 * *max_n as u64 - 1),
            Request::GreenWins { max_convex, max_points, .. } => {
                Some((max_convex.saturating_sub(3) + max_points.saturating_sub(4)) as u64)
            }
            _ => None,
        }
    }
}

/// `table nimstring-fans`: fans of 1..=9 triangles in normal play, 1..=10 in misere play.
const FAN_TRIANGLES: (usize, usize) = (9, 10);

/// A computed table: the text `gamecert table` prints and the fields of its `--json` output.
#[derive(Clone, Debug)]
pub struct Table {
    /// `table NAME`, the `command` of the JSON output.
    pub command: String,
    /// `accepted` when every value was certified and checked, `unchecked` when the values are
    /// the solver's word.
    pub verdict: &'static str,
    pub summary: String,
    /// The JSON output's fields: `rows` and, by table, `oeis`, `source`, ...
    pub fields: serde_json::Value,
    /// What the command prints without `--json`.
    pub text: String,
}

impl Table {
    /// The table's rows, one JSON object each (`fields.rows`; for a nim-sequence one
    /// `{"n", "g"}` per heap size).
    pub fn rows(&self) -> Vec<serde_json::Value> {
        match self.fields.get("rows") {
            Some(serde_json::Value::Array(rows)) => rows.clone(),
            _ => Vec::new(),
        }
    }
}

/// Computes `request`'s table; `progress` hears each entry as it starts.
pub fn compute(request: &Request, progress: &mut dyn FnMut(&str)) -> anyhow::Result<Table> {
    compute_streaming(request, progress, &mut |_, _| {})
}

/// A row as soon as it is certified: its JSON and its one-line text form.
pub type RowSink<'a> = &'a mut (dyn FnMut(&serde_json::Value, &str) + Send);

/// [`compute`], handing each row to `on_row` as soon as it is certified, for the tables that
/// certify a row at a time (today `voronoi-paths`; the others hand over nothing), so that a
/// stopped run keeps what it printed.
pub fn compute_streaming(
    request: &Request,
    progress: &mut dyn FnMut(&str),
    on_row: RowSink,
) -> anyhow::Result<Table> {
    let started = std::time::Instant::now();
    let accepted = |name: &str, summary: String, rows: serde_json::Value, text: String| Table {
        command: format!("table {name}"),
        verdict: "accepted",
        summary,
        fields: serde_json::json!({ "rows": rows }),
        text,
    };
    Ok(match request {
        Request::Kayles { n } => octal_table("kayles", "Kayles", "0.77", n, defaults::SEQUENCE_N)?,
        Request::DawsonKayles { n } => {
            octal_table("dawson-kayles", "Dawson's Kayles", "0.07", n, defaults::DAWSON_N)?
        }
        Request::Grundy { n } => {
            octal_table("grundy", "Grundy's game", "grundy", n, defaults::SEQUENCE_N)?
        }
        Request::Octal { code, n } => {
            octal_table("octal", "octal game", code, n, defaults::SEQUENCE_N)?
        }
        Request::NimstringFans { max_triangles } => {
            let (normal, misere) = FAN_TRIANGLES;
            let rows = match max_triangles {
                None => crate::triangulations::nimstring::fan_table_rows(normal, misere, progress),
                Some(n) => crate::triangulations::nimstring_strips::fan_table_rows_to(*n, progress),
            }
            .map_err(anyhow::Error::msg)?;
            accepted(
                "nimstring-fans",
                "Nimstring on fans (seed 000, Tables 4 and 5): outcomes certified".into(),
                serde_json::to_value(&rows)?,
                crate::triangulations::nimstring::fan_tables_text(&rows),
            )
        }
        Request::VoronoiKary { budget, max_vertices, prove_limit } => {
            // The command line's ranges, for the library's and Python's requests too.
            let most = defaults::kary_max_vertices();
            for (name, value, range) in [
                ("budget", *budget, 1..=1_000_000_000),
                ("max_vertices", *max_vertices as u64, 1..=most as u64),
                ("prove_limit", *prove_limit, 1..=1_000_000_000),
            ] {
                if !range.contains(&value) {
                    return Err(BadInput(format!(
                        "table voronoi-kary: {name} must be from {} to {} (got {value})",
                        range.start(),
                        range.end()
                    ))
                    .into());
                }
            }
            let rows = crate::voronoi::tables::voronoi_kary(
                (*budget, *max_vertices),
                (crate::voronoi::tables::STRATEGY_POSITIONS, *prove_limit),
                progress,
            )?;
            accepted(
                "voronoi-kary",
                "VG(T, n) on complete k-ary trees, each value certified".into(),
                serde_json::to_value(&rows)?,
                crate::voronoi::tables::voronoi_kary_table(&rows),
            )
        }
        Request::VoronoiPaths { max_vertices, min_vertices, mirror, rule, max_rounds } => {
            let (max_vertices, min_vertices) = (*max_vertices, *min_vertices);
            let limit = crate::voronoi::tables::MAX_PATH_TABLE_VERTICES;
            if max_vertices == 0 || max_vertices > limit {
                return Err(BadInput(format!(
                    "--max-vertices must be between 1 and {limit} (got {max_vertices}); \
                     the work grows about 1.4-fold per vertex (N = 34 alone takes minutes)"
                ))
                .into());
            }
            if min_vertices == 0 || min_vertices > max_vertices {
                return Err(BadInput(format!(
                    "--min-vertices must be between 1 and --max-vertices = {max_vertices} \
                     (got {min_vertices})"
                ))
                .into());
            }
            use crate::voronoi::tables::{path_entry_line, voronoi_paths_with, PathSides};
            let most = max_rounds.unwrap_or(usize::MAX);
            if *rule {
                let rows = crate::voronoi::tables::voronoi_paths_by_rule(
                    (min_vertices, max_vertices),
                    most,
                    2,
                    progress,
                    &mut |row| {
                        let json = serde_json::to_value(row).unwrap_or_default();
                        on_row(&json, &path_entry_line(row));
                    },
                )?;
                let rounds = match max_rounds {
                    Some(r) => format!(", n <= {r}"),
                    None => String::new(),
                };
                return Ok(accepted(
                    "voronoi-paths",
                    format!(
                        "VG(P_N, n) for N = {min_vertices}..={max_vertices}{rounds}, certified \
                         (W's side by rule U, B's by B's mirror on even N and rule U on odd N, \
                         the search where the rule does not hold)"
                    ),
                    serde_json::to_value(&rows)?,
                    crate::voronoi::tables::voronoi_paths_table(
                        &rows,
                        true,
                        started.elapsed().as_secs_f64(),
                    ),
                ));
            }
            let sides = if *mirror { PathSides::MirrorOnEven } else { PathSides::Both };
            let rows = voronoi_paths_with(
                &mut crate::voronoi::paths::PathSolver::new(),
                (min_vertices, max_vertices),
                sides,
                most,
                progress,
                &mut |row| {
                    // A row is plain data: its JSON form cannot fail.
                    let json = serde_json::to_value(row).unwrap_or_default();
                    on_row(&json, &path_entry_line(row));
                },
            )?;
            accepted(
                "voronoi-paths",
                if *mirror {
                    format!(
                        "VG(P_N, n) for N = {min_vertices}..={max_vertices}, certified (B's side \
                         on even paths by B's mirror, checked)"
                    )
                } else {
                    format!("VG(P_N, n) for N = {min_vertices}..={max_vertices}, certified")
                },
                serde_json::to_value(&rows)?,
                crate::voronoi::tables::voronoi_paths_table(
                    &rows,
                    true,
                    started.elapsed().as_secs_f64(),
                ),
            )
        }
        Request::BichromaticConstruct { max_points } => {
            let rows =
                crate::triangulations::construct_table::bichromatic_table(*max_points, &mut |t| {
                    progress(t)
                })
                .map_err(BadInput)?;
            accepted(
                "bichromatic-construct",
                format!("2.1.3 and 2.1.4 on 3..={max_points} convex points, certified"),
                serde_json::to_value(&rows)?,
                crate::triangulations::construct_table::bichromatic_text(&rows),
            )
        }
        Request::Flipping { max_n } => flip_table(true, *max_n, false, progress)?,
        Request::GreenWins { max_convex, point_sets, max_points, cap, out } => {
            let (max_convex, point_sets, max_points, cap) =
                (*max_convex, *point_sets, *max_points, *cap);
            // The command line's ranges (src/cli/table.rs), held here too for the JSON and
            // Python requests, which do not pass through it.
            if !(4..=14).contains(&max_convex)
                || !(5..=12).contains(&max_points)
                || !(1..=1_000_000).contains(&cap)
                || point_sets > 100_000
            {
                return Err(BadInput(format!(
                    "--max-convex must be between 4 and 14, --point-sets between 0 and 10^5, \
                     --max-points between 5 and 12 and --cap between 1 and 10^6 (got \
                     {max_convex}, {point_sets}, {max_points}, {cap}): the 14-gon alone has \
                     208,012 triangulations"
                ))
                .into());
            }
            let mut rows = crate::triangulations::green_wins::green_wins_table(
                max_convex, point_sets, max_points, cap, progress,
            )?;
            if let Some(dir) = out {
                crate::triangulations::green_wins::write_counterexamples(&mut rows, dir)
                    .map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
            }
            accepted(
                "green-wins",
                format!(
                    "Green-Wins Solitaire: convex n = 4..={max_convex}, {point_sets} point sets \
                     with inner points, each best sequence certified"
                ),
                serde_json::to_value(&rows)?,
                crate::triangulations::green_wins::green_wins_text(&rows, cap),
            )
        }
        Request::VertexNimg { max_n, max_weight } => {
            let (max_n, max_weight) = (*max_n, *max_weight);
            if !(1..=7).contains(&max_n) || !(1..=5).contains(&max_weight) {
                return Err(BadInput(format!(
                    "--max-n must be between 1 and 7 and --max-weight between 1 and 5 (got {max_n} \
                     and {max_weight}): n = 7 with weights 0..=3 is 98 million positions a play"
                ))
                .into());
            }
            let rows = crate::vertexnim::table::nimg_table(max_n, max_weight, progress)?;
            accepted(
                "vertex-nimg",
                format!(
                    "Vertex NimG on connected graphs and directed circuits up to {max_n} vertices, \
                     weights 0..={max_weight}: every outcome certified"
                ),
                serde_json::to_value(&rows)?,
                crate::vertexnim::table::nimg_table_text(&rows, max_weight),
            )
        }
        Request::SerpentineMft { max_n, no_certify } => {
            flip_table(false, *max_n, *no_certify, progress)?
        }
        Request::TriangleAvoidance { max_n, rules, checkpoint } => {
            let (max_n, rules) = (*max_n, *rules);
            let limit = crate::triangle_avoidance::solver::MAX_N;
            if !(2..=limit).contains(&max_n) {
                return Err(BadInput(format!(
                    "--max-n must be between 2 and {limit} (got {max_n}): n = 13 takes \
                     minutes and 3 GB; n = 14 has 467,871,369 positions, about 68 GB \
                     in this solver (--out-of-core DIR takes it to disk)"
                ))
                .into());
            }
            if let Some(dir) = checkpoint {
                std::fs::create_dir_all(dir)
                    .map_err(|e| BadInput(format!("--checkpoint {}: {e}", dir.display())))?;
            }
            let mut rows = Vec::new();
            for n in 2..=max_n {
                let file =
                    checkpoint.as_ref().map(|dir| dir.join(format!("{}-n{n}.ckpt", rules.name())));
                let row = crate::triangle_avoidance::solver::solve_resumable(
                    n,
                    rules,
                    file.as_deref(),
                    &mut |level, count| {
                        progress(&format!("n {n}: level {level}, {count} positions"))
                    },
                )
                .map_err(BadInput)?;
                rows.push(row);
            }
            triangle_table(&rows, rules, max_n)?
        }
        Request::VoronoiGraphs { graph6, max_n, rounds } => {
            let counted = std::sync::atomic::AtomicU64::new(0);
            let done = |count: u64| counted.store(count, std::sync::atomic::Ordering::Relaxed);
            let (graphs, from, oeis) = match graph6 {
                Some(text) => {
                    let stream = std::io::Cursor::new(text.clone().into_bytes());
                    let reader: Graph6Stream =
                        Box::new(gamecert_reductions::graphs::Graph6Reader::new(stream, "graph6"));
                    (reader, "the graph6 lines given".to_string(), &[][..])
                }
                None => generated(*max_n)?,
            };
            let mut values = crate::voronoi::census::census_values(
                graphs,
                rounds,
                crate::voronoi::census::BATCH,
                &done,
            );
            let mut tally = crate::voronoi::census::Tally::default();
            for value in values.by_ref() {
                tally.add(&value.map_err(anyhow::Error::msg)?);
            }
            let count = values.graphs_read();
            census_table(tally.rows(), count, &from, rounds, oeis, started)?
        }
    })
}

/// A stream of graph6 entries, as [`crate::voronoi::census::census_values`] reads them.
pub type Graph6Stream =
    Box<dyn Iterator<Item = Result<gamecert_reductions::graphs::Graph6Entry, String>>>;

/// Every connected graph on 1..=`max_n` vertices from gamecert's generator, what to call that
/// source, and the OEIS sequence its counts are.
pub fn generated(max_n: usize) -> Result<(Graph6Stream, String, &'static [Oeis]), BadInput> {
    let all = crate::voronoi::census::connected_graphs(max_n).map_err(BadInput)?;
    let from = format!("every connected graph on 1..={max_n} vertices (gamecert's generator)");
    Ok((Box::new(all.into_iter().map(Ok)), from, crate::voronoi::census::GENERATOR_OEIS))
}

/// `table voronoi-graphs`: the census rows of `count` graphs from `from`.
pub fn census_table(
    rows: Vec<CensusRow>,
    count: u64,
    from: &str,
    rounds: &[usize],
    oeis: &[Oeis],
    started: std::time::Instant,
) -> anyhow::Result<Table> {
    let positions: u64 = rows.iter().map(|r| r.positions_checked).sum();
    let seconds = started.elapsed().as_secs_f64();
    let mut text = format!(
        "The Voronoi game on {count} graphs ({from}), W's margin under optimal play; every value \
         certified by both players' strategies and replayed by the checker.\n\n\
         | rounds | n | graphs | W wins | ties | B wins | max margin (graph6) | min margin (graph6) |\n\
         |---:|---:|---:|---:|---:|---:|---|---|\n",
    );
    for r in &rows {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {} | {} (`{}`) | {} (`{}`) |",
            r.rounds,
            r.vertices,
            r.graphs,
            r.white_wins,
            r.ties,
            r.black_wins,
            r.max_margin,
            r.max_example,
            r.min_margin,
            r.min_example
        );
    }
    text.push_str(&crate::base::oeis::text_line(oeis));
    let _ = writeln!(text, "\n{positions} positions replayed by the checker; {seconds:.1} s.");
    let mut fields =
        serde_json::json!({"source": from, "graphs": count, "rounds": rounds, "rows": rows});
    if !oeis.is_empty() {
        fields["oeis"] = crate::base::oeis::json(oeis);
    }
    Ok(Table {
        command: "table voronoi-graphs".into(),
        verdict: "accepted",
        summary: format!("the Voronoi game on {count} graphs ({from}), every value certified"),
        fields,
        text,
    })
}

/// The line `table voronoi-graphs --each` prints for one value.
pub fn census_line(value: &GraphValue) -> String {
    let v = value;
    format!("{} {} {} {} {}", v.graph6, v.rounds, v.margin, v.winner, v.positions_checked)
}

/// The triangle-avoidance rows of any engine (the solver's word: not certified), with the OEIS
/// sequences among their columns.
pub fn triangle_table(rows: &[Outcome], rules: Rules, max_n: usize) -> anyhow::Result<Table> {
    let oeis = crate::triangle_avoidance::solver::oeis(rules);
    // Each row says in words whether it is certified (a row from several processes may not be).
    let rows_json: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            let mut row = serde_json::to_value(r)?;
            row["certification"] = r.certification().into();
            Ok(row)
        })
        .collect::<Result<_, serde_json::Error>>()?;
    let mut fields = serde_json::json!({ "rows": rows_json });
    if !oeis.is_empty() {
        fields["oeis"] = crate::base::oeis::json(oeis);
    }
    let table = crate::triangle_avoidance::solver::table(rows);
    Ok(Table {
        command: "table triangle-avoidance".into(),
        verdict: "unchecked",
        summary: format!("{} for n = 2..={max_n}: the solver's values", rules.name()),
        fields,
        text: format!("{table}{}", crate::base::oeis::text_line(oeis)),
    })
}

/// `table flipping` (`flipping`) and `table serpentine-mft`.
fn flip_table(
    flipping: bool,
    max_n: usize,
    no_certify: bool,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Table> {
    let (name, low, high) = if flipping {
        ("flipping", 6, crate::triangulations::flipping::MAX_EXACT_POINTS)
    } else {
        ("serpentine-mft", 4, crate::triangulations::mft_convex::MAX_VERTICES)
    };
    if !(low..=high).contains(&max_n) {
        return Err(BadInput(format!(
            "--max-n must be between {low} and {high} for table {name} (got {max_n})"
        ))
        .into());
    }
    let (text, rows) = if flipping {
        let rows =
            crate::triangulations::flip_table::rows(max_n, progress).map_err(anyhow::Error::msg)?;
        (crate::triangulations::flip_table::table(&rows), serde_json::to_value(&rows)?)
    } else {
        let rows = crate::triangulations::serpentine::rows(max_n, !no_certify, progress)
            .map_err(anyhow::Error::msg)?;
        let mut text = crate::triangulations::serpentine::table(&rows);
        if no_certify {
            text.push_str("(--no-certify: no certificate was written or replayed)\n");
        }
        (text, serde_json::to_value(&rows)?)
    };
    Ok(Table {
        command: format!("table {name}"),
        verdict: if no_certify { "unchecked" } else { "accepted" },
        summary: format!("table {name} to n = {max_n}"),
        fields: serde_json::json!({ "rows": rows }),
        text,
    })
}

/// `table kayles|dawson-kayles|grundy|octal`: a nim-sequence, its period and exceptions.
fn octal_table(
    name: &str,
    title: &str,
    code: &str,
    n: &Option<usize>,
    default_n: usize,
) -> anyhow::Result<Table> {
    const MAX_N: usize = 1 << 26;
    let n = n.unwrap_or(default_n);
    let rules = crate::impartial::octal::Rules::parse(code).map_err(BadInput)?;
    if n > MAX_N {
        return Err(BadInput(format!("--n {n} is over the limit of {MAX_N}")).into());
    }
    let title = if title == "octal game" { code } else { title };
    let table = crate::impartial::octal::sequence_table(title, &rules, n);
    let oeis = crate::impartial::octal::oeis(&rules);
    let mut fields = serde_json::to_value(&table)?;
    // The values as rows, one `{"n", "g"}` per heap size, as every table names its rows.
    if let Some(serde_json::Value::Array(values)) =
        fields.as_object_mut().and_then(|f| f.remove("values"))
    {
        let row = |(n, g): (usize, serde_json::Value)| serde_json::json!({"n": n, "g": g});
        fields["rows"] = values.into_iter().enumerate().map(row).collect();
    }
    if !oeis.is_empty() {
        fields["oeis"] = crate::base::oeis::json(oeis);
    }
    let text = crate::impartial::octal::sequence_table_text(&table);
    Ok(Table {
        command: format!("table {name}"),
        verdict: "unchecked",
        summary: format!("the nim-sequence of {title}, G(0..={n})"),
        fields,
        text: format!("{text}{}", crate::base::oeis::text_line(oeis)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_default_as_on_the_command_line_and_unknown_ones_are_refused() {
        let paths = Request::from_options("voronoi-paths", serde_json::Map::new()).unwrap();
        assert_eq!(
            paths,
            Request::VoronoiPaths {
                max_vertices: 30,
                min_vertices: 1,
                mirror: false,
                rule: false,
                max_rounds: None
            }
        );
        let mut options = serde_json::Map::new();
        options.insert("max_vertex".into(), 3.into());
        let err = Request::from_options("voronoi-paths", options).unwrap_err();
        assert!(err.0.contains("unknown field `max_vertex`"), "{err}");
        let err = Request::from_options("no-such-table", serde_json::Map::new()).unwrap_err();
        assert!(err.0.contains("unknown variant `no-such-table`"), "{err}");
    }

    /// A library or Python request for the k-ary table holds the command line's ranges.
    #[test]
    fn kary_requests_out_of_range_are_bad_input() {
        let request = |budget, max_vertices, prove_limit| Request::VoronoiKary {
            budget,
            max_vertices,
            prove_limit,
        };
        for (bad, name) in [
            (request(0, 7, 1), "budget"),
            (request(1, 0, 1), "max_vertices"),
            (request(1, 129, 1), "max_vertices"),
            (request(1, 7, 0), "prove_limit"),
            (request(1, 7, u64::MAX), "prove_limit"),
        ] {
            let err = compute(&bad, &mut |_| {}).unwrap_err();
            assert!(err.downcast_ref::<BadInput>().is_some(), "{err}");
            assert!(err.to_string().contains(name), "{err}");
        }
        let small = compute(&request(1_000_000, 7, 1), &mut |_| {}).unwrap();
        assert_eq!(small.rows().len(), 11);
    }

    #[test]
    fn a_nim_sequence_has_one_row_per_heap() {
        let request = Request::Kayles { n: Some(5) };
        let table = compute(&request, &mut |_| {}).unwrap();
        let rows = table.rows();
        assert_eq!(rows.len(), 6);
        assert_eq!(rows[3], serde_json::json!({"n": 3, "g": 3}));
        assert!(table.text.starts_with("Kayles (octal code 0.77)"), "{}", table.text);
    }
}

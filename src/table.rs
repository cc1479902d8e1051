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
            // Normal play by the exact solver and by strips, misère play by the exact solver.
            Request::NimstringFans { max_triangles: None } => {
                Some(2 * FAN_TRIANGLES.0 as u64 + FAN_TRIANGLES.1 as u64)
            }
            Request::VertexNimg { max_n, .. } => Some(2 * *max_n as u64 - 1),
            Request::GreenWins { max_convex, max_points, .. } => {
                Some((max_convex.saturating_sub(3) + max_points.saturating_sub(4)) as u64)
            }
            _ => None,
        }
    }
}

/// What a table's request would take, estimated before it starts (issue 46, item 7): from the
/// wall times and peak memory measured on the 2-core machine (2026-12-07 unless said), each
/// grown by the factor its table grows by. A request past the time allowance is refused with
/// both ([`crate::base::limits::TimeAllowance`]). `None`: every request of that table runs in
/// seconds (or, for a graph6 stream, its length is not known in advance).
impl Request {
    pub fn cost(&self) -> Option<crate::base::limits::Cost> {
        use crate::base::limits::Cost;
        const GB: f64 = 1e9;
        let cost = |seconds: f64, bytes: f64| Cost { seconds, bytes: bytes as u128 };
        Some(match self {
            // The table's measured times ([`KARY_SECONDS`]). An entry's search is bounded by
            // the budget (about 10^7
            // classes a second) and the proof search's limit (about 10 us an expansion, two
            // tests): past the defaults, those bounds add to the measured time.
            Request::VoronoiKary { budget, max_vertices, prove_limit } => {
                let measured = kary_seconds(*max_vertices);
                // The trees to 16 vertices are settled at once whatever the bounds.
                let entries =
                    (kary_entries(*max_vertices) - kary_entries(16.min(*max_vertices))) as f64;
                let extra_budget =
                    budget.saturating_sub(defaults::kary_budget()) as f64 / 1e7 * entries;
                let extra_prove = prove_limit.saturating_sub(defaults::kary_prove_limit()) as f64
                    * 2e-5
                    * entries;
                let grown = (*budget as f64 / defaults::kary_budget() as f64).max(1.0);
                let bytes = if *max_vertices <= 16 { 0.02 * GB } else { 1.3 * GB * grown };
                cost(measured + extra_budget + extra_prove, bytes)
            }
            // The table to N = 30 took PATHS_30_SECONDS and 1.2 GB; each vertex more costs
            // 1.4 times as much (docs/benchmarks.md, `bench paths`), --mirror half.
            // With --rule: B's side on odd paths dominates, about C(N, n) positions while an
            // ideal vertex is empty, 14 s for C(59, 5) (issue 49: N = 59, n = 5; n = 6 took
            // 190 s, N = 29 with n = 10 20 s), each summed over the entries asked for.
            Request::VoronoiPaths {
                max_vertices, min_vertices, rule: true, max_rounds, ..
            } => {
                let choose = |n: usize, k: usize| {
                    (0..k).fold(1.0f64, |c, i| c * (n - i) as f64 / (i + 1) as f64)
                };
                let mut seconds = 0.0;
                for n in (*min_vertices.max(&2)..=*max_vertices).filter(|n| n % 2 == 1) {
                    let top = max_rounds.unwrap_or(n / 2).min(n / 2);
                    seconds += (1..=top).map(|k| 14.0 * choose(n, k) / choose(59, 5)).sum::<f64>();
                }
                cost(seconds.max(0.1), (seconds * 0.003 * GB).clamp(0.05 * GB, 64.0 * GB))
            }
            Request::VoronoiPaths { max_vertices, min_vertices, mirror, .. } => {
                let per = |n: usize| PATHS_30_SECONDS * 1.4f64.powi(n as i32 - 30) / 3.5;
                let mut seconds: f64 = (*min_vertices.max(&2)..=*max_vertices).map(per).sum();
                if *mirror {
                    seconds /= 2.0;
                }
                let bytes =
                    (1.2 * GB * 1.4f64.powi(*max_vertices as i32 - 30)).clamp(0.05 * GB, 4.5 * GB);
                cost(seconds, bytes)
            }
            // The exact rows (misère to 11 triangles) take about a minute; normal play by
            // strips to 16 triangles took 119 s in all (2026-12-07), to 22 about 460 s (the fans
            // of 17 to 22 ended 180 to 460 s into one run, docs/benchmarks.md), 1.25 times a
            // triangle; past 22 each fan costs about twice the last (the fan of 25 alone took
            // 562 s and 1.9 GB).
            // The paper's tables (no --max-triangles, or a few) take about 10 s, the misère
            // rows to 11 triangles about a minute.
            Request::NimstringFans { max_triangles } => {
                let t = max_triangles.unwrap_or(9) as i32;
                let seconds = match t {
                    ..=10 => 10.0,
                    11..=13 => 60.0,
                    14..=22 => 120.0 * 1.25f64.powi(t - 16),
                    _ => 460.0 * 2f64.powi(t - 22),
                };
                cost(seconds, (0.15 * GB).max(1.9 * GB * 1.9f64.powi(t - 25)))
            }
            Request::BichromaticConstruct { max_points } => {
                let (seconds, bytes) = CONSTRUCT_COSTS[(*max_points).clamp(3, 8) - 3];
                cost(seconds, bytes)
            }
            // Every serpentine triangulation of the n-gon: to 14 in 6.5 s, to 16 in 88 s and
            // 109 MB (2026-12-07, beside other work), about 3.6 times the time and 2.1 times the
            // memory a vertex; without certificates about half.
            Request::SerpentineMft { max_n, no_certify } => {
                let n = *max_n as i32;
                let seconds = 88.0 * 3.6f64.powi(n - 16);
                let seconds = if *no_certify { seconds / 2.0 } else { seconds };
                cost(seconds, (0.11 * GB * 2.1f64.powi(n - 16)).max(0.02 * GB))
            }
            // Random point sets of 6..=max_n points: to 12 in 0.57 s, 14 in 4.3 s and 52 MB,
            // 16 in 27 s and 300 MB (2026-12-07), 2.6 times the time a point.
            Request::Flipping { max_n } => {
                let n = *max_n as i32;
                cost(27.0 * 2.6f64.powi(n - 16), (0.3 * GB * 2.4f64.powi(n - 16)).max(0.02 * GB))
            }
            // Every connected graph on at most 9 vertices (261,080 of them on 9) took 10.8 s and
            // 384 MB, one round; about 9 times fewer graphs a vertex less; each more round in
            // the list costs about as much again.
            Request::VoronoiGraphs { graph6: None, max_n, rounds } => {
                let scale = 9f64.powi(*max_n as i32 - 9) * rounds.len().max(1) as f64;
                cost(11.0 * scale, (0.4 * GB * scale).max(0.02 * GB))
            }
            // The convex n-gons: every triangulation (the 14-gon's 208,012 in 6.5 s, about 31 us
            // each); then each random point set, up to --cap of its triangulations (at most
            // about 10 times 3.5^(points - 5) of them), each held in memory (about 1 kB).
            Request::GreenWins { max_convex, point_sets, max_points, cap, .. } => {
                let catalan = |m: usize| -> f64 {
                    (0..m.saturating_sub(2))
                        .fold(1.0, |c, i| c * 2.0 * (2 * i + 1) as f64 / (i + 2) as f64)
                };
                let convex: f64 = (4..=*max_convex).map(catalan).sum();
                let per_set = (*cap as f64).min(10.0 * 3.5f64.powi(*max_points as i32 - 5));
                let triangulations = convex + *point_sets as f64 * per_set;
                cost(31e-6 * triangulations, 0.05 * GB + 1e3 * catalan(*max_convex).max(per_set))
            }
            // Every connected graph on m <= n vertices (1, 1, 2, 6, 21, 112, 853 of them), each
            // weight vector (w + 1)^m and token place m: (6, 3) took 1.7 s, (7, 2) 6.0 s, (5, 5)
            // 0.7 s (2026-12-07), about 0.6 us a unit; (7, 5) is about 17 minutes.
            Request::VertexNimg { max_n, max_weight } => {
                const GRAPHS: [f64; 8] = [0.0, 1.0, 1.0, 2.0, 6.0, 21.0, 112.0, 853.0];
                let units: f64 = (1..=(*max_n).min(7))
                    .map(|m| GRAPHS[m] * ((*max_weight + 1) as f64).powi(m as i32) * m as f64)
                    .sum();
                let largest = ((*max_weight + 1) as f64).powi(*max_n as i32) * *max_n as f64;
                cost(0.6e-6 * units, 20e6 + 64.0 * largest)
            }
            _ => return None,
        })
    }
}

/// What `table triangle-avoidance` to `max_n` would take on `engine` (`in-memory`,
/// `out-of-core`, `timely`; `auto` as out of core from n = 13), from triangle avoidance's
/// measured runs (docs/commands/triangle-avoidance.md): to n = 12 about 10 s; n = 13 in memory
/// 180 s and 3 GB, out of core 324 s, on timely 74 s; n = 14 out of core 34 to 46 minutes (1.4
/// GB with --memory 12), on timely 2,130 s and 10 GB; each n after has about 22 times the
/// positions of the last (t_14 / t_13), so it costs 22 times as much. The other games are of
/// the same order (odd-cycle avoidance's positions are fewer, connected avoidance's more).
///
/// On timely, the `workers` threads of this process cost on their own: their channels grow with
/// the square of their number and spin on the cores there are (n = 3 took 2.6 s with
/// 64 workers, 40 s with 128 and 153 s with 256, 2-core machine beside other work), about the
/// cube of workers / 64 for every three levels.
pub fn triangle_cost(max_n: usize, engine: &str, workers: usize) -> crate::base::limits::Cost {
    const GB: f64 = 1e9;
    let grown = |at_14: f64| at_14 * 22f64.powi(max_n as i32 - 14);
    let (seconds, bytes) = match (max_n, engine) {
        (0..=10, _) => (1.0, 0.1 * GB),
        (11, _) => (2.0, 0.1 * GB),
        (12, _) => (10.0, 0.4 * GB),
        (13, "in-memory") => (180.0, 3.0 * GB),
        (13, "timely") => (74.0, 0.5 * GB),
        (13, _) => (324.0, 1.1 * GB),
        (_, "timely") => (grown(2130.0), grown(10.0 * GB)),
        _ => (grown(2760.0), 1.4 * GB),
    };
    let threads = if engine == "timely" {
        2.6 * (workers as f64 / 64.0).powi(3) * max_n as f64 / 3.0
    } else {
        0.0
    };
    crate::base::limits::Cost { seconds: seconds + threads, bytes: bytes as u128 }
}

/// Seconds of the k-ary table for the trees of at most `max_vertices` vertices at the default
/// budget (interpolated between the measured bounds).
fn kary_seconds(max_vertices: usize) -> f64 {
    KARY_SECONDS
        .iter()
        .find(|&&(vertices, _)| max_vertices <= vertices)
        .map_or(KARY_SECONDS[KARY_SECONDS.len() - 1].1, |&(_, s)| s)
}

/// The k-ary table's entries (trees and numbers of rounds) up to `max_vertices` vertices.
fn kary_entries(max_vertices: usize) -> usize {
    let mut entries = 0;
    for k in 2..=5usize {
        let mut size = 1 + k;
        let mut level = k;
        while size <= max_vertices {
            entries += size / 2;
            level *= k;
            size += level;
        }
    }
    entries
}

/// `table voronoi-kary`'s seconds by the largest tree, default budget: measured beside other
/// work (2026-12-07): to 16 vertices 0.1 s, to 32 41 s (435 MB), to 64 125 s (1.3 GB); the
/// whole table 121 s on the machine to itself, 616 s beside two other builds
/// (docs/benchmarks.md), and over 400 s with a budget and prove limit of 1 (the paper's
/// strategies, certified, take the time the searches no longer do).
const KARY_SECONDS: [(usize, f64); 4] = [(16, 0.1), (32, 41.0), (64, 125.0), (128, 600.0)];

/// `table voronoi-paths --max-vertices 30`: measured seconds.
const PATHS_30_SECONDS: f64 = 87.0;

/// `table bichromatic-construct --max-points 3..=8`: measured seconds and bytes (2026-12-07,
/// beside other work: 6 points 0.1 s, 7 points 2.1 s and 87 MB, 8 points 78 s and 1.3 GB).
const CONSTRUCT_COSTS: [(f64, f64); 6] =
    [(0.1, 2e7), (0.1, 2e7), (0.1, 2e7), (0.1, 2e7), (2.1, 9e7), (78.0, 1.3e9)];

/// `table nimstring-fans`: fans of 1..=9 triangles in normal play, 1..=10 in misere play (what
/// `fan_table_rows_to(9)` computes: the paper's Tables 4 and 5).
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
    /// A nim-sequence whose rows are not yet in `text` and `fields` ([`compute_streaming`]):
    /// the command line writes them one at a time ([`Table::write_text`],
    /// [`Table::write_json`]), [`Table::materialize`] puts them in. `None` for every other
    /// table, and once materialized.
    pub sequence: Option<std::sync::Arc<Sequence>>,
}

/// A nim-sequence table's values and its text after them (the OEIS line).
#[derive(Clone, Debug)]
pub struct Sequence {
    pub table: crate::impartial::octal::SequenceTable,
    /// The last line of the text, naming the OEIS sequence (may be empty).
    pub oeis_line: String,
}

/// Bytes a nim-sequence's materialized rows hold per heap size (a JSON object `{"n", "g"}` and
/// its text): measured 744 (`table kayles --n 2^20`, peak resident memory, 2026-12-07).
pub const MATERIALIZED_BYTES_PER_ROW: u128 = 750;

impl Table {
    /// The table's rows, one JSON object each (`fields.rows`; for a nim-sequence one
    /// `{"n", "g"}` per heap size).
    pub fn rows(&self) -> Vec<serde_json::Value> {
        match self.fields.get("rows") {
            Some(serde_json::Value::Array(rows)) => rows.clone(),
            _ => Vec::new(),
        }
    }

    /// Puts a nim-sequence's rows into `text` and `fields` (nothing for other tables): for
    /// callers that hold the whole table (the Python package). Refused past the memory
    /// allowance ([`crate::base::limits::MEMORY_ALLOWANCE`]) at
    /// [`MATERIALIZED_BYTES_PER_ROW`] a row: `gamecert table` streams any n instead.
    pub fn materialize(&mut self) -> Result<(), BadInput> {
        use crate::base::limits::{grouped, human_bytes, TooLarge, MEMORY_ALLOWANCE};
        let Some(sequence) = self.sequence.take() else { return Ok(()) };
        let t = &sequence.table;
        let rows = t.n as u128 + 1;
        let bytes = rows * MATERIALIZED_BYTES_PER_ROW;
        if bytes > u128::from(MEMORY_ALLOWANCE) {
            self.sequence = Some(sequence);
            return Err(TooLarge {
                what: format!("{} held whole", self.command),
                estimate: format!("{} rows, about {}", grouped(rows), human_bytes(bytes)),
                limit: human_bytes(u128::from(MEMORY_ALLOWANCE)),
                suggestion: format!("`gamecert {}` writes any n a row at a time", self.command),
            }
            .into());
        }
        let mut text = Vec::new();
        self.write_rows_text(&sequence, &mut text).expect("writing to memory");
        self.text = String::from_utf8_lossy(&text).into_owned();
        let rows: Vec<serde_json::Value> =
            (0..=t.n).map(|h| serde_json::json!({"n": h, "g": t.value(h)})).collect();
        self.fields["rows"] = rows.into();
        Ok(())
    }

    /// The whole text of a sequence, its rows written one at a time.
    fn write_rows_text(
        &self,
        sequence: &Sequence,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        use crate::impartial::octal::{sequence_head, sequence_tail, write_sequence_rows};
        out.write_all(sequence_head(&sequence.table).as_bytes())?;
        write_sequence_rows(&sequence.table, out)?;
        out.write_all(sequence_tail(&sequence.table).as_bytes())?;
        out.write_all(sequence.oeis_line.as_bytes())
    }

    /// Writes what the command prints without `--json`, each line of prose through `prose`
    /// (the command line wraps it) and a sequence's rows one at a time as they are.
    pub fn write_text(
        &self,
        out: &mut dyn std::io::Write,
        prose: &dyn Fn(&str) -> String,
    ) -> std::io::Result<()> {
        use crate::impartial::octal::{sequence_head, sequence_tail, write_sequence_rows};
        let Some(sequence) = &self.sequence else {
            return out.write_all(prose(&self.text).as_bytes());
        };
        out.write_all(prose(&sequence_head(&sequence.table)).as_bytes())?;
        write_sequence_rows(&sequence.table, out)?;
        let tail = format!("{}{}", sequence_tail(&sequence.table), sequence.oeis_line);
        out.write_all(prose(&tail).as_bytes())
    }

    /// Writes the `--json` output (the one shape of every command's, `seconds` the time it
    /// took), a sequence's rows one at a time into its `rows`.
    pub fn write_json(&self, out: &mut dyn std::io::Write, seconds: f64) -> std::io::Result<()> {
        use gamecert_certificates::verify::output_json;
        const MARK: &str = "\"@@rows@@\"";
        let Some(sequence) = &self.sequence else {
            let text = output_json(
                &self.command,
                self.verdict,
                &self.summary,
                seconds,
                self.fields.clone(),
            );
            return out.write_all(text.as_bytes());
        };
        let mut fields = self.fields.clone();
        fields["rows"] = "@@rows@@".into();
        let text = output_json(&self.command, self.verdict, &self.summary, seconds, fields);
        let (before, after) = text.split_once(MARK).expect("the rows' mark");
        out.write_all(before.as_bytes())?;
        crate::impartial::octal::write_sequence_json_rows(&sequence.table, out)?;
        out.write_all(after.as_bytes())
    }
}

/// Computes `request`'s table; `progress` hears each entry as it starts. A nim-sequence is
/// materialized ([`Table::materialize`]).
pub fn compute(request: &Request, progress: &mut dyn FnMut(&str)) -> anyhow::Result<Table> {
    let allowance = crate::base::limits::TimeAllowance::default();
    if let Some(cost) = request.cost() {
        allowance.admit(&format!("table {}", request.name()), cost)?;
    }
    let mut table = compute_streaming(request, allowance, progress, &mut |_, _| {})?;
    table.materialize()?;
    Ok(table)
}

/// A row as soon as it is certified: its JSON and its one-line text form.
pub type RowSink<'a> = &'a mut (dyn FnMut(&serde_json::Value, &str) + Send);

/// [`compute`], handing each row to `on_row` as soon as it is certified, for the tables that
/// certify a row at a time (today `voronoi-paths`; the others hand over nothing), so that a
/// stopped run keeps what it printed.
///
/// A nim-sequence without a period to extend by checks its time against `allowance` itself
/// ([`crate::impartial::octal::sequence_table`]); every other table's is [`Request::cost`],
/// which the caller checks first.
pub fn compute_streaming(
    request: &Request,
    allowance: crate::base::limits::TimeAllowance,
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
        sequence: None,
    };
    Ok(match request {
        Request::Kayles { n } => {
            octal_table("kayles", "Kayles", "0.77", n, defaults::SEQUENCE_N, allowance)?
        }
        Request::DawsonKayles { n } => octal_table(
            "dawson-kayles",
            "Dawson's Kayles",
            "0.07",
            n,
            defaults::DAWSON_N,
            allowance,
        )?,
        Request::Grundy { n } => {
            octal_table("grundy", "Grundy's game", "grundy", n, defaults::SEQUENCE_N, allowance)?
        }
        Request::Octal { code, n } => {
            octal_table("octal", "octal game", code, n, defaults::SEQUENCE_N, allowance)?
        }
        Request::NimstringFans { max_triangles } => {
            // Without --max-triangles, the paper's rows; the Nimstring values by strips too (a
            // few hundred labels), so that the table shows the values docs/results.md quotes.
            let max = max_triangles.unwrap_or(FAN_TRIANGLES.0);
            let rows = crate::triangulations::nimstring_strips::fan_table_rows_to(max, progress)
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
            let limit = match rule {
                true => crate::voronoi::tables::MAX_RULE_PATH_TABLE_VERTICES,
                false => crate::voronoi::tables::MAX_PATH_TABLE_VERTICES,
            };
            if max_vertices == 0 || max_vertices > limit {
                let how = match rule {
                    true => "with --rule",
                    false => {
                        "by the search (the work grows about 1.4-fold per vertex, N = 34 \
                              alone takes minutes; --rule certifies to 200)"
                    }
                };
                return Err(BadInput(format!(
                    "--max-vertices must be between 1 and {limit} {how} (got {max_vertices})"
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
        sequence: None,
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
        sequence: None,
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
        sequence: None,
    })
}

/// `table kayles|dawson-kayles|grundy|octal`: a nim-sequence, its period and exceptions; the
/// rows are left to be written one at a time ([`Table::sequence`]).
fn octal_table(
    name: &str,
    title: &str,
    code: &str,
    n: &Option<usize>,
    default_n: usize,
    allowance: crate::base::limits::TimeAllowance,
) -> anyhow::Result<Table> {
    let n = n.unwrap_or(default_n);
    let rules = crate::impartial::octal::Rules::parse(code).map_err(BadInput)?;
    if n > MAX_SEQUENCE_N {
        return Err(BadInput(format!("--n {n} is over the limit of {MAX_SEQUENCE_N}")).into());
    }
    let title = if title == "octal game" { code } else { title };
    let what = format!("table {name} to n = {n}");
    let table = crate::impartial::octal::sequence_table(title, &rules, n, allowance, &what)?;
    let oeis = crate::impartial::octal::oeis(&rules);
    let mut fields = serde_json::to_value(&table)?;
    if !oeis.is_empty() {
        fields["oeis"] = crate::base::oeis::json(oeis);
    }
    let oeis_line = crate::base::oeis::text_line(oeis);
    Ok(Table {
        command: format!("table {name}"),
        verdict: "unchecked",
        summary: format!("the nim-sequence of {title}, G(0..={n})"),
        fields,
        text: String::new(),
        sequence: Some(std::sync::Arc::new(Sequence { table, oeis_line })),
    })
}

/// The largest n of the nim-sequence tables (2^26): a proven period gives the values past the
/// few thousand computed; without one the time is estimated and checked first.
pub const MAX_SEQUENCE_N: usize = 1 << 26;

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

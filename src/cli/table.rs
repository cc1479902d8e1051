//! `gamecert table NAME`: tables of certified game values and nim-sequences, one subcommand
//! per table with its own options.

use crate::cli::args::{memory_gb, ranged};
use crate::cli::triangle_engines::{distributed_rows, engine_rows, Cluster, Engine, Storage};
use clap::{Args as ClapArgs, Subcommand};
use gamecert::table::defaults;
use std::path::PathBuf;
use std::process::ExitCode;

/// A table of certified game values, or a nim-sequence.
#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    table: Table,
    /// Print the rows as JSON.
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    time: crate::cli::args::MaxMinutes,
}

/// The tables.
#[derive(Subcommand)]
enum Table {
    /// VG(T, n) on complete k-ary trees below the paper's size bound (k = 2..5).
    VoronoiKary {
        /// Work allowed per entry for the exact solver, in subtree classes computed (about
        /// 10 million a second on the 2-core machine), 1 to 10^9: the default took 970 MB, and
        /// the solver's tables grow with the work.
        #[arg(long, default_value_t = 150_000_000, value_parser = ranged::<u64>(1, 1_000_000_000))]
        budget: u64,
        /// Only the trees of at most this many vertices (1 to 128, the table's bound): 21 gives
        /// the small trees in seconds.
        #[arg(long, default_value_t = defaults::kary_max_vertices(),
              value_parser = ranged::<usize>(1, defaults::kary_max_vertices()))]
        max_vertices: usize,
        /// Expansions the proof search may spend on each test of an entry the exact solver
        /// left open (1 to 10^9; about 2 s of CPU for the default 200,000).
        #[arg(long, default_value_t = defaults::kary_prove_limit(),
              value_parser = ranged::<u64>(1, 1_000_000_000))]
        prove_limit: u64,
    },
    /// VG(P_N, n) on paths, every N in --min-vertices..=--max-vertices and every 2n <= N.
    VoronoiPaths {
        /// The largest path (1 to 200 with --rule; the search alone to 36: it grows 1.4 times a
        /// vertex, to 30 takes about a minute, to 36 about 11; near 35 it meets its state cap).
        #[arg(long, default_value_t = 30, value_parser = path_vertices())]
        max_vertices: usize,
        /// The smallest path (1 to 200, at most --max-vertices).
        #[arg(long, default_value_t = 1, value_parser = path_vertices())]
        min_vertices: usize,
        /// On even paths, take B's side from B's mirror (a `voronoi-mirror` certificate the
        /// checker verifies in linear time): the search proves and the checker replays W's
        /// strategy for a tie only. Odd paths keep both strategies.
        #[arg(long)]
        mirror: bool,
        /// W's side by rule U (issue 49), B's by B's mirror on even paths and by rule U on odd
        /// ones: `voronoi-path-rule` certificates, whose moves the checker computes and replays
        /// against every opponent move; the gap-state search only where the rule does not
        /// hold (n = 1 on odd paths, or a play that beats the rule, which is reported).
        /// Entries run on two threads, printed in order.
        #[arg(long, conflicts_with = "mirror")]
        rule: bool,
        /// Only games of at most this many rounds (1 to 100).
        #[arg(long, value_parser = ranged::<usize>(1, 100))]
        max_rounds: Option<usize>,
        /// Instead of the table, one line per entry as soon as the checker accepts it:
        /// `N n VALUE W_STATES B_STATES` (B_STATES `mirror` where B's side is the lemma; with
        /// --json: one JSON object a line), so a stopped run keeps every line it printed.
        #[arg(long)]
        each: bool,
    },
    /// The multi-round Voronoi game on every graph of a graph6 stream (`nauty-geng -c 8`), or
    /// on every connected graph up to --max-n vertices by gamecert's own generator: per vertex
    /// count, how many graphs W wins, ties and loses, each value certified by both players'
    /// strategies and replayed by the checker.
    VoronoiGraphs {
        /// A graph6 stream (`-` for standard input; gzip, xz or bzip2 are read as they are).
        #[arg(long, value_name = "FILE")]
        graph6: Option<PathBuf>,
        /// Without --graph6: every connected graph on 1..=N vertices (N from 1 to 9).
        #[arg(long, default_value_t = 7, conflicts_with = "graph6", value_parser = ranged::<usize>(1, gamecert::voronoi::census::MAX_GENERATED_VERTICES))]
        max_n: usize,
        /// The numbers of rounds, comma-separated, each 1 to 64 (the exact solver takes at most
        /// 128 vertices, and a graph with fewer than 2 x rounds is skipped).
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = ranged::<u16>(1, 64))]
        rounds: Vec<u16>,
        /// Instead of the table, one line per graph and number of rounds, in input order:
        /// `GRAPH6 ROUNDS MARGIN WINNER POSITIONS`, WINNER being W, B, or T for a tie (with
        /// --json: one JSON object a line).
        #[arg(long)]
        each: bool,
    },
    /// One-colour triangle avoidance (seed 002, Tables 1 and 2) for n = 2..=--max-n.
    TriangleAvoidance {
        /// The largest number of nodes, 2 to 16 (in memory at most 13).
        #[arg(long, default_value_t = 10, value_parser = ranged::<usize>(2, gamecert::triangle_avoidance::canon::MAX_VERTICES))]
        max_n: usize,
        /// The game: the paper's, or a related one of its Section 4.
        #[arg(long, value_enum, default_value = "triangle-avoidance")]
        rules: crate::cli::args::TriangleRules,
        /// The engine: per n the faster for its size and this machine (auto), or one for all.
        #[arg(long, value_enum, default_value = "auto")]
        engine: Engine,
        /// Keep a checkpoint per n in this directory and resume from it (an interrupted run
        /// loses at most the level being built; in-memory engine).
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Solve out of core, with level files in this directory (resumable: run the same
        /// command again), up to n = 16; see docs/commands/triangle-avoidance.md for the disk
        /// it takes.
        #[arg(long, value_name = "DIR", conflicts_with = "checkpoint")]
        out_of_core: Option<PathBuf>,
        /// The out-of-core engine's memory for buffers and lookups, in GB, 0.01 to 4096 (a
        /// limit, not an allocation; default: 8, or half the memory free if less).
        #[arg(long, value_parser = memory_gb())]
        memory: Option<f64>,
        /// Solve on timely dataflow with this many worker threads in this process, 1 to 256 (see
        /// docs/commands/triangle-avoidance.md; with --processes, threads per process).
        #[arg(long, value_name = "W", conflicts_with_all = ["checkpoint", "out_of_core"], value_parser = ranged::<usize>(1, MAX_WORKERS))]
        workers: Option<usize>,
        /// Timely dataflow over this many processes, 1 to 4096 (each started with its own
        /// --process).
        #[arg(long, value_name = "P", requires = "process", conflicts_with_all = ["checkpoint", "out_of_core"], value_parser = ranged::<usize>(1, MAX_PROCESSES))]
        processes: Option<usize>,
        /// This process's index, 0 to 4095 and below P; process 0 prints the table.
        #[arg(long, value_name = "I", requires = "processes", value_parser = ranged::<usize>(0, MAX_PROCESSES - 1))]
        process: Option<usize>,
        /// Timely's host file: one `host:port` line per process, in process order (default:
        /// localhost, ports from 2101).
        #[arg(long, value_name = "FILE", requires = "processes")]
        hostfile: Option<PathBuf>,
        /// Timely, triangle avoidance: every worker writes its shard of the Winner's strategy
        /// under this folder (every process must write it, process 0 read it), and process 0
        /// merges them into DIR/certificate-nN.tastream and checks it (default in one process,
        /// n <= 12: a temporary folder).
        #[arg(long, value_name = "DIR", conflicts_with_all = ["checkpoint", "out_of_core"])]
        shards: Option<PathBuf>,
    },
    /// Nimstring on fans (seed 000, Tables 4 and 5), by the exact solver, with normal play's
    /// Nimstring values by strips; with --max-triangles, normal play further by strips.
    NimstringFans {
        /// Normal play on 1..=N triangles, each Nimstring value certified by strips (the
        /// paper's 9 by the exact solver too); misère play on 1..=N up to 11 by the
        /// exact solver. Without it: the paper's tables (9 and 10). N from 1 to 26.
        #[arg(long, value_name = "N", value_parser = ranged::<usize>(1, 26))]
        max_triangles: Option<usize>,
    },
    /// Kayles (0.77): seed 000, Table 2.
    Kayles {
        /// Print G(0..=N), N from 0 to 2^26 (default 84): 4096 values are computed, the rest is
        /// the period the Guy-Smith theorem proved (12 from n = 71), printed a row at a time (2^26
        /// in about 1 s as text, 4 s and 3 GB of output as JSON).
        #[arg(long, value_parser = sequence_n())]
        n: Option<usize>,
    },
    /// Dawson's Kayles (0.07): seed 000, Table 3.
    DawsonKayles {
        /// Print G(0..=N), N from 0 to 2^26 (default 101): 4096 values are computed, the rest is
        /// the proven period's (34 from n = 52), printed a row at a time.
        #[arg(long, value_parser = sequence_n())]
        n: Option<usize>,
    },
    /// Grundy's game.
    Grundy {
        /// Print G(0..=N), N from 0 to 2^26 (default 84): every value is computed (no period is
        /// known), 2^20 in about 15 s, growing as N^1.3 (2^26 about an hour): refused before
        /// any work past --max-minutes.
        #[arg(long, value_parser = sequence_n())]
        n: Option<usize>,
    },
    /// Any octal game, given by --code.
    Octal {
        /// The game's code (d0.d1d2..., e.g. 0.137).
        #[arg(long)]
        code: String,
        /// Print G(0..=N), N from 0 to 2^26 (default 84): a period the Guy-Smith theorem proves
        /// gives the values past those computed; a code with splits and no proven period by 4096
        /// values is estimated as Grundy's game (per split) and refused past --max-minutes.
        #[arg(long, value_parser = sequence_n())]
        n: Option<usize>,
    },
    /// Beyond seed 000's Table 1: 2.1.3 and 2.1.4 on n = 3..=--max-points convex points.
    BichromaticConstruct {
        /// The largest point set (3 to 8).
        #[arg(long, default_value_t = 7, value_parser = ranged::<usize>(3, gamecert::triangulations::construct_table::MAX_TABLE_POINTS))]
        max_points: usize,
    },
    /// Monochromatic and Bichromatic Flipping (seed 000, 2.2.1, 2.2.3) on random point sets
    /// with inner points, 6..=--max-n points, certified.
    Flipping {
        /// The largest number of points (6 to 16).
        #[arg(long, default_value_t = 10, value_parser = ranged::<usize>(6, gamecert::triangulations::flipping::MAX_EXACT_POINTS))]
        max_n: usize,
    },
    /// Green-Wins Solitaire (seed 000, 7.2, open: can more green than black edges always be
    /// reached?): every triangulation of the convex n-gon, n = 4..=--max-convex, and
    /// --point-sets random point sets with inner points (5..=--max-points points, every
    /// triangulation of each up to --cap), each answered by its best flip sequence, replayed
    /// by the checker.
    GreenWins {
        /// The largest convex polygon (4 to 14: the 14-gon alone has 208012 triangulations).
        #[arg(long, default_value_t = 10, value_parser = ranged::<usize>(4, 14))]
        max_convex: usize,
        /// How many random point sets with inner points (0 to 10^5).
        #[arg(long, default_value_t = 200, value_parser = ranged::<usize>(0, 100_000))]
        point_sets: usize,
        /// The largest point set (5 to 12).
        #[arg(long, default_value_t = 9, value_parser = ranged::<usize>(5, 12))]
        max_points: usize,
        /// At most this many triangulations of one point set, 1 to 10^6 (the first found, held
        /// in memory; the table counts the sets cut short).
        #[arg(long, default_value_t = 1000, value_parser = ranged::<usize>(1, 1_000_000))]
        cap: usize,
        /// Write each row's counterexample into this directory: NAME.instance.json (a
        /// flip-game that `render` draws), NAME.cert.json (its best flip sequence) and
        /// NAME.bound.json (its flip-bound).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Vertex NimG with weight-0 vertices (seed 004, Section 5): every connected graph on
    /// 1..=--max-n vertices and every directed circuit on 2..=--max-n, weights 0..=--max-weight,
    /// the token on every vertex, normal and misere play; each graph's outcomes certified by a
    /// vertexnim-outcomes certificate, and the rules tested on every position.
    VertexNimg {
        /// The largest graph (1 to 7: n = 7 with weights 0..=3 is 98 million positions a play).
        #[arg(long, default_value_t = 6, value_parser = ranged::<usize>(1, 7))]
        max_n: usize,
        /// The largest weight (1 to 5).
        #[arg(long, default_value_t = 3, value_parser = ranged::<u64>(1, 5))]
        max_weight: u64,
    },
    /// Monochromatic Flipping to Triangle (seed 000, Theorem 10) on every serpentine
    /// triangulation of the convex n-gon, n = 4..=--max-n (at most 21), certified unless
    /// --no-certify; reports the smallest N the data allow.
    SerpentineMft {
        /// The largest polygon (4 to 21).
        #[arg(long, default_value_t = 10, value_parser = ranged::<usize>(4, gamecert::triangulations::mft_convex::MAX_VERTICES))]
        max_n: usize,
        /// Solve only, without writing and replaying the certificates (the values are then
        /// the solver's word, and the table says so).
        #[arg(long)]
        no_certify: bool,
    },
}

/// The most timely worker threads in one process of `table triangle-avoidance --workers`.
pub const MAX_WORKERS: usize = 256;

/// The most timely processes of `table triangle-avoidance --processes`.
pub const MAX_PROCESSES: usize = 4096;

/// `table voronoi-paths`' --max-vertices and --min-vertices: 1 to 200 (the search without
/// `--rule` is refused past 36 by the table).
fn path_vertices() -> impl clap::builder::TypedValueParser<Value = usize> {
    ranged(1, gamecert::voronoi::tables::MAX_RULE_PATH_TABLE_VERTICES)
}

/// `--n` of the nim-sequence tables: 0 to 2^26, the library's limit
/// ([`gamecert::table::MAX_SEQUENCE_N`]). A proven period gives the values past the few
/// thousand computed, which are written a row at a time; without one, the time is estimated and
/// checked against --max-minutes before it is spent (issue 46, item 7).
fn sequence_n() -> impl clap::builder::TypedValueParser<Value = usize> {
    ranged(0, gamecert::table::MAX_SEQUENCE_N)
}

/// The library's request for a table computed in this process (`None`: triangle avoidance,
/// whose engines and their choice per n live in [`crate::cli::triangle_engines`], and
/// `voronoi-graphs`, streamed and printed a graph at a time with `--each`).
fn library_request(table: &Table) -> Option<gamecert::table::Request> {
    use gamecert::table::Request;
    Some(match table {
        Table::VoronoiKary { budget, max_vertices, prove_limit } => Request::VoronoiKary {
            budget: *budget,
            max_vertices: *max_vertices,
            prove_limit: *prove_limit,
        },
        Table::VoronoiPaths { max_vertices, min_vertices, mirror, rule, max_rounds, each: _ } => {
            Request::VoronoiPaths {
                max_vertices: *max_vertices,
                min_vertices: *min_vertices,
                mirror: *mirror,
                rule: *rule,
                max_rounds: *max_rounds,
            }
        }
        Table::NimstringFans { max_triangles } => {
            Request::NimstringFans { max_triangles: *max_triangles }
        }
        Table::Kayles { n } => Request::Kayles { n: *n },
        Table::DawsonKayles { n } => Request::DawsonKayles { n: *n },
        Table::Grundy { n } => Request::Grundy { n: *n },
        Table::Octal { code, n } => Request::Octal { code: code.clone(), n: *n },
        Table::BichromaticConstruct { max_points } => {
            Request::BichromaticConstruct { max_points: *max_points }
        }
        Table::Flipping { max_n } => Request::Flipping { max_n: *max_n },
        Table::SerpentineMft { max_n, no_certify } => {
            Request::SerpentineMft { max_n: *max_n, no_certify: *no_certify }
        }
        Table::GreenWins { max_convex, point_sets, max_points, cap, out } => Request::GreenWins {
            max_convex: *max_convex,
            point_sets: *point_sets,
            max_points: *max_points,
            cap: *cap,
            out: out.clone(),
        },
        Table::VertexNimg { max_n, max_weight } => {
            Request::VertexNimg { max_n: *max_n, max_weight: *max_weight }
        }
        Table::VoronoiGraphs { .. } | Table::TriangleAvoidance { .. } => return None,
    })
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { table, json, time } = args;
    let started = std::time::Instant::now();
    let allowance = time.allowance();
    if let Some(request) = library_request(&table) {
        // A request past what runs in the time allowed is refused before any work.
        if let Some(cost) = request.cost() {
            allowance.admit(&crate::cli::command_line(), cost)?;
        }
        // Tables whose entries are known in advance show a bar over them (one step per entry).
        let entries = request.entries();
        let mut shown = if request.counts_work() {
            // The entries differ in work by factors of 10^4: count the solver's work instead.
            crate::cli::progress::Progress::counting_work("solver work", quiet)
        } else {
            crate::cli::progress::Progress::new("entries", entries, quiet)
        };
        // `--each` (voronoi-paths): each row printed, and flushed, as soon as it is certified.
        let each = matches!(table, Table::VoronoiPaths { each: true, .. });
        let mut print_row = |row: &serde_json::Value, line: &str| {
            use std::io::Write as _;
            if each {
                let mut out = std::io::stdout().lock();
                // A closed pipe ends the output, not the run's certification.
                let _ = if json { writeln!(out, "{row}") } else { writeln!(out, "{line}") };
                let _ = out.flush();
            }
        };
        let computed = gamecert::table::compute_streaming(
            &request,
            allowance,
            &mut |what: &str| match entries {
                Some(_) => shown.step(what),
                None => shown.message(what),
            },
            &mut print_row,
        )?;
        shown.finish();
        if each {
            // The table's closing line: entries, ties, states replayed, wall time.
            crate::cli::note(quiet, computed.text.trim_end().lines().last().unwrap_or_default());
            return Ok(ExitCode::SUCCESS);
        }
        return print_table(&computed, json, started);
    }
    match table {
        Table::VoronoiGraphs { graph6, max_n, rounds, each } => {
            let rounds: Vec<usize> = rounds.into_iter().map(usize::from).collect();
            if graph6.is_none() {
                let request = gamecert::table::Request::VoronoiGraphs {
                    graph6: None,
                    max_n,
                    rounds: rounds.clone(),
                };
                if let Some(cost) = request.cost() {
                    allowance.admit(&crate::cli::command_line(), cost)?;
                }
            }
            voronoi_graphs(graph6, max_n, &rounds, each, json, quiet)
        }
        Table::TriangleAvoidance {
            max_n,
            rules,
            out_of_core,
            memory,
            workers,
            processes,
            process,
            hostfile,
            shards,
            engine,
            checkpoint,
        } => {
            let rules: gamecert::triangle_avoidance::rules::Rules = rules.into();
            let timely = workers.is_some() || processes.is_some() || shards.is_some();
            let engine_name = match (timely, &out_of_core, &checkpoint, engine) {
                (true, _, _, _) => "timely",
                (false, Some(_), _, _) | (false, None, None, Engine::OutOfCore) => "out-of-core",
                (false, None, Some(_), _) | (false, None, None, Engine::InMemory) => "in-memory",
                _ => "auto",
            };
            // The threads of this process spin on its cores; the other processes' on theirs.
            let cost = gamecert::table::triangle_cost(max_n, engine_name, workers.unwrap_or(1));
            allowance.admit(&crate::cli::command_line(), cost)?;
            let rows = if timely {
                let cluster = Cluster { workers, processes, process, hostfile, shards };
                let Some(rows) = distributed_rows(max_n, rules, cluster, allowance, quiet)? else {
                    return Ok(ExitCode::SUCCESS); // not process 0: nothing to print
                };
                rows
            } else {
                // --out-of-core DIR and --checkpoint DIR name their engine.
                let engine = match (&out_of_core, &checkpoint) {
                    (Some(_), _) => Engine::OutOfCore,
                    (None, Some(_)) => Engine::InMemory,
                    (None, None) => engine,
                };
                let storage = Storage { checkpoint, out_of_core, memory_gb: memory };
                engine_rows(max_n, rules, engine, storage, quiet)?
            };
            let computed = gamecert::table::triangle_table(&rows, rules, max_n)?;
            print_table(&computed, json, started)
        }
        _ => unreachable!("library_request takes every other table"),
    }
}

/// Prints a computed table: its text, or with `--json` the one JSON output shape; a
/// nim-sequence's rows are written one at a time (n may be 2^26: nothing holds them all).
fn print_table(
    table: &gamecert::table::Table,
    json: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    use std::io::Write as _;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = if json {
        table.write_json(&mut out, started.elapsed().as_secs_f64())
    } else {
        table.write_text(&mut out, &|text| wrap_prose(text, COLUMNS))
    };
    match written.and_then(|()| out.flush()) {
        // A closed pipe (`| head`) ends the output, not in an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        other => {
            other?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `table voronoi-graphs`: the census of [`gamecert::voronoi::census`], as a table or (`each`)
/// one line per graph and number of rounds. The input is streamed and solved a batch at a
/// time, so that memory stays bounded however long the graph6 stream.
fn voronoi_graphs(
    graph6: Option<PathBuf>,
    max_n: usize,
    rounds: &[usize],
    each: bool,
    json: bool,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    use gamecert::voronoi::census::{census_values, Tally, BATCH};
    use gamecert_reductions::graphs::Graph6Reader;
    use std::io::Write as _;
    let started = std::time::Instant::now();
    // A stream's length is not known in advance; the generator's is.
    let (graphs, from, oeis): (gamecert::table::Graph6Stream, String, &[_]) = match &graph6 {
        Some(path) => {
            let shown = gamecert_certificates::verify::shown(path);
            let stream = gamecert::base::io::open_stream(path)?;
            (Box::new(Graph6Reader::new(stream, &shown)), shown, &[])
        }
        None => gamecert::table::generated(max_n)?,
    };
    let total = graph6.is_none().then(|| graphs.size_hint().0 as u64);
    let mut progress = crate::cli::progress::Progress::new("graphs", total, quiet);
    let done = |count: u64| {
        progress.set(count);
        if total.is_none() {
            progress.message(&format!("{count} done"));
        }
    };
    let mut values = census_values(graphs, rounds, BATCH, &done);
    let mut tally = Tally::default();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for value in values.by_ref() {
        let value = value.map_err(anyhow::Error::msg)?;
        if each && json {
            writeln!(out, "{}", serde_json::to_value(&value)?)?;
        } else if each {
            writeln!(out, "{}", gamecert::table::census_line(&value))?;
        }
        tally.add(&value);
    }
    out.flush()?;
    drop(out);
    let count = values.graphs_read();
    progress.finish();
    let rows = tally.rows();
    if each {
        let positions: u64 = rows.iter().map(|r| r.positions_checked).sum();
        let seconds = started.elapsed().as_secs_f64();
        crate::cli::note(
            quiet,
            &format!(
                "{count} graphs, every value certified: {positions} positions replayed by the \
                 checker; {seconds:.1} s"
            ),
        );
        return Ok(ExitCode::SUCCESS);
    }
    let computed = gamecert::table::census_table(rows, count, &from, rounds, oeis, started)?;
    print_table(&computed, json, started)
}

/// The width prose is wrapped to on standard output.
const COLUMNS: usize = 100;

/// A table's text is printed with Markdown rows as they are (they paste into notes, notebooks
/// and docs, where they render), every other line wrapped at [`COLUMNS`] columns.
///
/// `text` with every line that is not a Markdown table row (`|...`) wrapped at `width`
/// characters, between words (a longer word or equation keeps its own line).
fn wrap_prose(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        if body.starts_with('|') || body.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        // "G(15) = 7" stays on one line: an `=` joins the words on either side.
        let mut words: Vec<String> = Vec::new();
        let mut glue = false;
        for word in body.split(' ') {
            match words.last_mut() {
                Some(last) if glue || word == "=" => {
                    last.push(' ');
                    last.push_str(word);
                }
                _ => words.push(word.to_string()),
            }
            glue = word == "=";
        }
        let mut column = 0;
        for word in &words {
            let length = word.chars().count();
            if column > 0 && column + 1 + length > width {
                out.push('\n');
                column = 0;
            } else if column > 0 {
                out.push(' ');
                column += 1;
            }
            out.push_str(word);
            column += length;
        }
        out.push_str(end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wrap_prose;

    #[test]
    fn prose_wraps_and_markdown_rows_do_not() {
        let row = format!("| {} |", "x ".repeat(80));
        let prose = "word ".repeat(50);
        let text = format!("{row}\n{}\nshort\n", prose.trim_end());
        let wrapped = wrap_prose(&text, 100);
        assert!(wrapped.starts_with(&format!("{row}\n")));
        let lines: Vec<&str> = wrapped.lines().skip(1).collect();
        assert!(lines.iter().all(|l| l.chars().count() <= 100), "{wrapped}");
        assert_eq!(lines.join(" ").split(' ').filter(|w| *w == "word").count(), 50);
        assert!(wrapped.ends_with("short\n"));
        let equations = "G(1) = 1, ".repeat(20);
        let wrapped = wrap_prose(&equations, 100);
        assert!(wrapped.lines().all(|l| !l.starts_with('=') && !l.ends_with('=')), "{wrapped}");
    }
}

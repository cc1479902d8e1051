//! `gamecert table NAME`: tables of certified game values and nim-sequences, one subcommand
//! per table with its own options.

use crate::cli::triangle_engines::{distributed_rows, engine_rows, Cluster, Engine, Storage};
use clap::{Args as ClapArgs, Subcommand};
use gamecert::base::io::BadInput;
use std::fmt::Write as _;
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
}

/// The tables.
#[derive(Subcommand)]
enum Table {
    /// VG(T, n) on complete k-ary trees below the paper's size bound (k = 2..5).
    VoronoiKary {
        /// Search nodes allowed per entry.
        #[arg(long, default_value_t = 2_000_000)]
        budget: u64,
    },
    /// VG(P_N, n) on paths, every N in --min-vertices..=--max-vertices and every 2n <= N.
    VoronoiPaths {
        /// The largest path.
        #[arg(long, default_value_t = 30)]
        max_vertices: usize,
        /// The smallest path.
        #[arg(long, default_value_t = 1)]
        min_vertices: usize,
    },
    /// The multi-round Voronoi game on every graph of a graph6 stream (`nauty-geng -c 8`), or
    /// on every connected graph up to --max-n vertices by gamecert's own generator: per vertex
    /// count, how many graphs W wins, ties and loses, each value certified by both players'
    /// strategies and replayed by the checker.
    VoronoiGraphs {
        /// A graph6 stream (`-` for standard input; gzip, xz or bzip2 are read as they are).
        #[arg(long, value_name = "FILE")]
        graph6: Option<PathBuf>,
        /// Without --graph6: every connected graph on 1..=N vertices (at most 9).
        #[arg(long, default_value_t = 7, conflicts_with = "graph6")]
        max_n: usize,
        /// The numbers of rounds, comma-separated.
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = clap::value_parser!(u16).range(1..))]
        rounds: Vec<u16>,
        /// Instead of the table, one line per graph and number of rounds, in input order:
        /// `GRAPH6 ROUNDS MARGIN WINNER POSITIONS`, WINNER being W, B, or T for a tie (with
        /// --json: one JSON object a line).
        #[arg(long)]
        each: bool,
    },
    /// One-colour triangle avoidance (seed 002, Tables 1 and 2) for n = 2..=--max-n.
    TriangleAvoidance {
        /// The largest number of nodes.
        #[arg(long, default_value_t = 10)]
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
        /// command again), up to n = 16; see docs/commands.md for the disk it takes.
        #[arg(long, value_name = "DIR", conflicts_with = "checkpoint")]
        out_of_core: Option<PathBuf>,
        /// The out-of-core engine's memory for buffers and lookups, in GB (default: 8, or half
        /// the memory free if less).
        #[arg(long)]
        memory: Option<f64>,
        /// Solve on timely dataflow with this many worker threads in this process (see
        /// docs/commands.md; with --processes, threads per process).
        #[arg(long, value_name = "W", conflicts_with_all = ["checkpoint", "out_of_core"])]
        workers: Option<usize>,
        /// Timely dataflow over this many processes (each started with its own --process).
        #[arg(long, value_name = "P", requires = "process", conflicts_with_all = ["checkpoint", "out_of_core"])]
        processes: Option<usize>,
        /// This process's index, 0..P; process 0 prints the table.
        #[arg(long, value_name = "I", requires = "processes")]
        process: Option<usize>,
        /// Timely's host file: one `host:port` line per process, in process order (default:
        /// localhost, ports from 2101).
        #[arg(long, value_name = "FILE", requires = "processes")]
        hostfile: Option<PathBuf>,
    },
    /// Nimstring on fans (seed 000, Tables 4 and 5), by the exact solver.
    NimstringFans,
    /// Kayles (0.77): seed 000, Table 2.
    Kayles {
        /// Print G(0..=N) (default 84).
        #[arg(long)]
        n: Option<usize>,
    },
    /// Dawson's Kayles (0.07): seed 000, Table 3.
    DawsonKayles {
        /// Print G(0..=N) (default 101).
        #[arg(long)]
        n: Option<usize>,
    },
    /// Grundy's game.
    Grundy {
        /// Print G(0..=N) (default 84).
        #[arg(long)]
        n: Option<usize>,
    },
    /// Any octal game, given by --code.
    Octal {
        /// The game's code (d0.d1d2..., e.g. 0.137).
        #[arg(long)]
        code: String,
        /// Print G(0..=N) (default 84).
        #[arg(long)]
        n: Option<usize>,
    },
    /// Beyond seed 000's Table 1: 2.1.3 and 2.1.4 on n = 3..=--max-points convex points.
    BichromaticConstruct {
        /// The largest point set.
        #[arg(long, default_value_t = 7)]
        max_points: usize,
    },
    /// Monochromatic and Bichromatic Flipping (seed 000, 2.2.1, 2.2.3) on random point sets
    /// with inner points, 6..=--max-n points, certified.
    Flipping {
        /// The largest number of points.
        #[arg(long, default_value_t = 10)]
        max_n: usize,
    },
    /// Monochromatic Flipping to Triangle (seed 000, Theorem 10) on every serpentine
    /// triangulation of the convex n-gon, n = 4..=--max-n (at most 21), certified unless
    /// --no-certify; reports the smallest N the data allow.
    SerpentineMft {
        /// The largest polygon.
        #[arg(long, default_value_t = 10)]
        max_n: usize,
        /// Solve only, without writing and replaying the certificates (the values are then
        /// the solver's word, and the table says so).
        #[arg(long)]
        no_certify: bool,
    },
}

/// `table nimstring-fans`: fans of 1..=9 triangles in normal play, 1..=10 in misere play.
const FAN_TRIANGLES: (usize, usize) = (9, 10);

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { table, json } = args;
    let started = std::time::Instant::now();
    // Tables whose entries are known in advance show a bar over them (one step per entry).
    let entries = match &table {
        Table::VoronoiKary { .. } => Some(gamecert::voronoi::tables::kary_entries().len() as u64),
        Table::VoronoiPaths { max_vertices, min_vertices } => {
            Some((*min_vertices.max(&2)..=*max_vertices).map(|n| n as u64 / 2).sum())
        }
        Table::BichromaticConstruct { max_points } => Some(3 * max_points.saturating_sub(2) as u64),
        Table::NimstringFans => Some(FAN_TRIANGLES.0 as u64 + FAN_TRIANGLES.1 as u64),
        _ => None,
    };
    let mut shown = crate::cli::progress::Progress::new("entries", entries, quiet);
    let mut progress = |what: &str| match entries {
        Some(_) => shown.step(what),
        None => shown.message(what),
    };
    match table {
        Table::VoronoiGraphs { graph6, max_n, rounds, each } => {
            let rounds: Vec<usize> = rounds.into_iter().map(usize::from).collect();
            return voronoi_graphs(graph6, max_n, &rounds, each, json, quiet);
        }
        Table::Kayles { n } => {
            return octal_table("kayles", "Kayles", "0.77", n.unwrap_or(84), json)
        }
        Table::DawsonKayles { n } => {
            return octal_table("dawson-kayles", "Dawson's Kayles", "0.07", n.unwrap_or(101), json)
        }
        Table::Grundy { n } => {
            return octal_table("grundy", "Grundy's game", "grundy", n.unwrap_or(84), json)
        }
        Table::Octal { code, n } => {
            return octal_table("octal", "octal game", &code, n.unwrap_or(84), json)
        }
        Table::Flipping { max_n } => flip_tables(true, max_n, false, json, quiet)?,
        Table::SerpentineMft { max_n, no_certify } => {
            flip_tables(false, max_n, no_certify, json, quiet)?
        }
        Table::NimstringFans => {
            let (normal, misere) = FAN_TRIANGLES;
            let rows =
                gamecert::triangulations::nimstring::fan_table_rows(normal, misere, &mut progress)
                    .map_err(anyhow::Error::msg)?;
            shown.finish();
            if json {
                let summary = "Nimstring on fans (seed 000, Tables 4 and 5): outcomes certified";
                table_json("nimstring-fans", "accepted", summary, started, &rows)?;
            } else {
                print_text(&gamecert::triangulations::nimstring::fan_tables_text(&rows));
            }
        }
        Table::TriangleAvoidance {
            max_n,
            rules,
            engine,
            checkpoint,
            out_of_core,
            memory,
            workers,
            processes,
            process,
            hostfile,
        } => {
            let rules: gamecert::triangle_avoidance::rules::Rules = rules.into();
            shown.finish();
            if workers.is_some() || processes.is_some() {
                let cluster = Cluster { workers, processes, process, hostfile };
                let Some(rows) = distributed_rows(max_n, rules, cluster, quiet)? else {
                    return Ok(ExitCode::SUCCESS); // not process 0: nothing to print
                };
                return triangle_rows_out(&rows, rules, max_n, json, started);
            }
            // --out-of-core DIR and --checkpoint DIR name their engine.
            let engine = match (&out_of_core, &checkpoint) {
                (Some(_), _) => Engine::OutOfCore,
                (None, Some(_)) => Engine::InMemory,
                (None, None) => engine,
            };
            let storage = Storage { checkpoint, out_of_core, memory_gb: memory };
            let rows = engine_rows(max_n, rules, engine, storage, quiet)?;
            return triangle_rows_out(&rows, rules, max_n, json, started);
        }
        Table::VoronoiKary { budget } => {
            let rows = gamecert::voronoi::tables::voronoi_kary(
                budget,
                gamecert::voronoi::tables::STRATEGY_POSITIONS,
                &mut progress,
            )?;
            if json {
                let summary = "VG(T, n) on complete k-ary trees, each value certified";
                table_json("voronoi-kary", "accepted", summary, started, &rows)?;
            } else {
                print_text(&gamecert::voronoi::tables::voronoi_kary_table(&rows));
            }
        }
        Table::VoronoiPaths { max_vertices, min_vertices } => {
            let limit = gamecert::voronoi::tables::MAX_PATH_TABLE_VERTICES;
            if max_vertices == 0 || max_vertices > limit {
                return Err(BadInput(format!(
                    "--max-vertices must be between 1 and {limit} (got {max_vertices}); \
                             the work grows about 1.4-fold per vertex (N = 34 alone takes minutes)"
                ))
                .into());
            }
            if min_vertices == 0 || min_vertices > max_vertices {
                return Err(BadInput(format!(
                    "--min-vertices must be between 1 and --max-vertices = \
                             {max_vertices} (got {min_vertices})"
                ))
                .into());
            }
            let started = std::time::Instant::now();
            let rows = gamecert::voronoi::tables::voronoi_paths(
                min_vertices,
                max_vertices,
                &mut progress,
            )?;
            shown.finish();
            if json {
                let summary =
                    format!("VG(P_N, n) for N = {min_vertices}..={max_vertices}, certified");
                table_json("voronoi-paths", "accepted", &summary, started, &rows)?;
            } else {
                print_text(&gamecert::voronoi::tables::voronoi_paths_table(
                    &rows,
                    true,
                    started.elapsed().as_secs_f64(),
                ));
            }
        }
        Table::BichromaticConstruct { max_points } => {
            let rows = gamecert::triangulations::construct_table::bichromatic_table(
                max_points,
                &mut |t| progress(t),
            )
            .map_err(BadInput)?;
            shown.finish();
            if json {
                let summary =
                    format!("2.1.3 and 2.1.4 on 3..={max_points} convex points, certified");
                table_json("bichromatic-construct", "accepted", &summary, started, &rows)?;
            } else {
                print_text(&gamecert::triangulations::construct_table::bichromatic_text(&rows));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `table flipping` (`flipping`) and `table serpentine-mft`.
fn flip_tables(
    flipping: bool,
    max_n: usize,
    no_certify: bool,
    json: bool,
    quiet: bool,
) -> anyhow::Result<()> {
    let started = std::time::Instant::now();
    // One step per row: n = 6..=max_n with 1 to 3 inner points and SEEDS seeds (flipping),
    // n = 4..=max_n (serpentine).
    let entries: u64 = if flipping {
        let seeds = gamecert::triangulations::flip_table::SEEDS;
        (6..=max_n).map(|n| 3.min(n.saturating_sub(3)) as u64 * seeds).sum()
    } else {
        max_n.saturating_sub(3) as u64
    };
    let mut shown = crate::cli::progress::Progress::new("rows", Some(entries), quiet);
    let mut progress = |what: &str| shown.step(what);
    {
        let (what, low, high) = if flipping {
            ("flipping", 6, gamecert::triangulations::flipping::MAX_EXACT_POINTS)
        } else {
            ("serpentine-mft", 4, gamecert::triangulations::mft_convex::MAX_VERTICES)
        };
        if !(low..=high).contains(&max_n) {
            return Err(BadInput(format!(
                "--max-n must be between {low} and {high} for table {what} \
                             (got {max_n})"
            ))
            .into());
        }
        let (text, rows_json) = if flipping {
            let rows = gamecert::triangulations::flip_table::rows(max_n, &mut progress)
                .map_err(anyhow::Error::msg)?;
            (gamecert::triangulations::flip_table::table(&rows), serde_json::to_value(&rows)?)
        } else {
            let rows =
                gamecert::triangulations::serpentine::rows(max_n, !no_certify, &mut progress)
                    .map_err(anyhow::Error::msg)?;
            let mut text = gamecert::triangulations::serpentine::table(&rows);
            if no_certify {
                text.push_str("(--no-certify: no certificate was written or replayed)\n");
            }
            (text, serde_json::to_value(&rows)?)
        };
        shown.finish();
        if json {
            let (name, verdict) = if flipping {
                ("flipping", "accepted")
            } else {
                ("serpentine-mft", if no_certify { "unchecked" } else { "accepted" })
            };
            let summary = format!("table {name} to n = {max_n}");
            table_json(name, verdict, &summary, started, &rows_json)?;
        } else {
            print_text(&text);
        }
    }
    Ok(())
}

/// `table kayles|dawson-kayles|grundy|octal`: a nim-sequence, its period and exceptions.
fn octal_table(
    subcommand: &str,
    title: &str,
    code: &str,
    n: usize,
    json: bool,
) -> anyhow::Result<ExitCode> {
    const MAX_N: usize = 1 << 26;
    let rules = gamecert::impartial::octal::Rules::parse(code).map_err(BadInput)?;
    if n > MAX_N {
        return Err(BadInput(format!("--n {n} is over the limit of {MAX_N}")).into());
    }
    let title = if title == "octal game" { code } else { title };
    let started = std::time::Instant::now();
    let table = gamecert::impartial::octal::sequence_table(title, &rules, n);
    let oeis = gamecert::impartial::octal::oeis(&rules);
    if json {
        let summary = format!("the nim-sequence of {title}, G(0..={n})");
        let mut fields = serde_json::to_value(&table)?;
        if !oeis.is_empty() {
            fields["oeis"] = gamecert::base::oeis::json(oeis);
        }
        crate::cli::print_json(
            &format!("table {subcommand}"),
            "unchecked",
            &summary,
            started,
            fields,
        )?;
    } else {
        let text = gamecert::impartial::octal::sequence_table_text(&table);
        print_text(&format!("{text}{}", gamecert::base::oeis::text_line(oeis)));
    }
    Ok(ExitCode::SUCCESS)
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
    use gamecert::voronoi::census::{census_values, Tally, BATCH, GENERATOR_OEIS};
    use gamecert_reductions::graphs::{Graph6Entry, Graph6Reader};
    use std::io::Write as _;
    type Stream = Box<dyn Iterator<Item = Result<Graph6Entry, String>>>;
    let started = std::time::Instant::now();
    // A stream's length is not known in advance; the generator's is.
    let (graphs, from, total, oeis): (Stream, String, Option<u64>, &[_]) = match &graph6 {
        Some(path) => {
            let shown = gamecert_certificates::verify::shown(path);
            let stream = gamecert::base::io::open_stream(path)?;
            (Box::new(Graph6Reader::new(stream, &shown)), shown, None, &[])
        }
        None => {
            let all = gamecert::voronoi::census::connected_graphs(max_n).map_err(BadInput)?;
            let total = all.len() as u64;
            let from =
                format!("every connected graph on 1..={max_n} vertices (gamecert's generator)");
            (Box::new(all.into_iter().map(Ok)), from, Some(total), GENERATOR_OEIS)
        }
    };
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
            let v = &value;
            writeln!(
                out,
                "{} {} {} {} {}",
                v.graph6, v.rounds, v.margin, v.winner, v.positions_checked
            )?;
        }
        tally.add(&value);
    }
    out.flush()?;
    drop(out);
    let count = values.graphs_read();
    progress.finish();
    let rows = tally.rows();
    let positions: u64 = rows.iter().map(|r| r.positions_checked).sum();
    let seconds = started.elapsed().as_secs_f64();
    if each {
        crate::cli::note(
            quiet,
            &format!(
                "{count} graphs, every value certified: {positions} positions replayed by the \
                 checker; {seconds:.1} s"
            ),
        );
        return Ok(ExitCode::SUCCESS);
    }
    if json {
        let summary = format!("the Voronoi game on {count} graphs ({from}), every value certified");
        let mut fields =
            serde_json::json!({"source": from, "graphs": count, "rounds": rounds, "rows": rows});
        if !oeis.is_empty() {
            fields["oeis"] = gamecert::base::oeis::json(oeis);
        }
        crate::cli::print_json("table voronoi-graphs", "accepted", &summary, started, fields)?;
        return Ok(ExitCode::SUCCESS);
    }
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
    text.push_str(&gamecert::base::oeis::text_line(oeis));
    let _ = writeln!(text, "\n{positions} positions replayed by the checker; {seconds:.1} s.");
    print_text(&text);
    Ok(ExitCode::SUCCESS)
}

/// A table's rows in the one JSON output shape (`command` is `table NAME`).
fn table_json(
    name: &str,
    verdict: &str,
    summary: &str,
    started: std::time::Instant,
    rows: &impl serde::Serialize,
) -> anyhow::Result<()> {
    cited_table_json(name, verdict, summary, started, rows, &[])
}

/// [`table_json`] with an `oeis` field naming the columns that are OEIS sequences (none: no
/// field).
fn cited_table_json(
    name: &str,
    verdict: &str,
    summary: &str,
    started: std::time::Instant,
    rows: &impl serde::Serialize,
    oeis: &[gamecert::base::oeis::Oeis],
) -> anyhow::Result<()> {
    let mut fields = serde_json::json!({ "rows": rows });
    if !oeis.is_empty() {
        fields["oeis"] = gamecert::base::oeis::json(oeis);
    }
    crate::cli::print_json(&format!("table {name}"), verdict, summary, started, fields)
}

/// Prints the triangle-avoidance rows of any engine (the solver's word: not certified), with
/// the OEIS sequences among their columns.
fn triangle_rows_out(
    rows: &[gamecert::triangle_avoidance::solver::Outcome],
    rules: gamecert::triangle_avoidance::rules::Rules,
    max_n: usize,
    json: bool,
    started: std::time::Instant,
) -> anyhow::Result<ExitCode> {
    let oeis = gamecert::triangle_avoidance::solver::oeis(rules);
    if json {
        let summary = format!("{} for n = 2..={max_n}: the solver's values", rules.name());
        cited_table_json("triangle-avoidance", "unchecked", &summary, started, &rows, oeis)?;
    } else {
        let table = gamecert::triangle_avoidance::solver::table(rows);
        print_text(&format!("{table}{}", gamecert::base::oeis::text_line(oeis)));
    }
    Ok(ExitCode::SUCCESS)
}

/// The width prose is wrapped to on standard output.
const COLUMNS: usize = 100;

/// Prints a table's text: Markdown rows as they are (they paste into notes, notebooks and
/// docs, where they render), every other line wrapped at [`COLUMNS`] columns.
fn print_text(text: &str) {
    print!("{}", wrap_prose(text, COLUMNS));
}

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

//! `gamecert gen FAMILY`: instances on graph families, triangulations and vertex nim.

use crate::cli::args::{ranged, seed};
use crate::cli::note;
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::BadInput;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::Instance;
use std::path::PathBuf;
use std::process::ExitCode;

/// Generate an instance: a multi-round Voronoi game on a graph family or any graph, points and a
/// triangulation (or a game on them), or vertex nim.
#[derive(ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    family: Family,
    /// Output file (standard output if omitted).
    #[arg(short, long, global = true)]
    output: Option<PathBuf>,
    /// Report as JSON on standard output (what was written where, its size and counts); without
    /// -o the instance is included.
    #[arg(long, global = true)]
    json: bool,
    #[command(flatten)]
    time: crate::cli::args::MaxMinutes,
}

/// Seconds and bytes `gen` spends per vertex of each family (building the graph, the instance
/// and its JSON text), the larger of two runs on the 2-core machine beside other work
/// (2026-12-07): 10^6 vertices, path 3.9 s and 391 MB, tree 6.3 s and 392 MB, the binary tree
/// of height 19 6.7 s and 680 MB, vertex nim 22 s and 813 MB; 10^7 vertices, path and tree
/// 18 s and 3.9 GB, the binary tree of height 22 (8,388,607 vertices) 25 s and 6.0 GB, vertex
/// nim 86 s and 8.1 GB.
const GEN_COSTS: [(&str, f64, f64); 4] = [
    ("path", 3.9e-6, 392.0),
    ("tree", 6.3e-6, 392.0),
    ("kary-tree", 6.7e-6, 720.0),
    ("vertexnim", 2.2e-5, 813.0),
];

/// What generating `vertices` vertices of `family` costs ([`GEN_COSTS`]).
fn gen_cost(family: &str, vertices: f64) -> gamecert::base::limits::Cost {
    let (_, seconds, bytes) =
        GEN_COSTS.iter().find(|c| c.0 == family).copied().unwrap_or(("", 1e-5, 1000.0));
    gamecert::base::limits::Cost {
        seconds: seconds * vertices,
        bytes: (bytes * vertices + 10e6) as u128,
    }
}

/// The most vertices `gen` builds (10^7), and so the most any of its sizes can ask for.
const MAX_VERTICES: u64 = gamecert::voronoi::gen::MAX_VERTICES;

/// The most extra random edges `gen vertexnim` draws (--density times --vertices): 10^7, as
/// many as vertices, so that the edge set and the file stay within a few GB.
const MAX_EXTRA_EDGES: f64 = 1e7;

/// `--vertices`' parser for the Voronoi families: 2 to 10^7 (a game of one round needs two).
fn vertices() -> impl clap::builder::TypedValueParser<Value = u64> {
    ranged(2, MAX_VERTICES)
}

/// `--rounds`' parser for the Voronoi families: 1 to 5000000 (2 x rounds <= 10^7 vertices).
fn rounds() -> impl clap::builder::TypedValueParser<Value = usize> {
    ranged(1, MAX_VERTICES as usize / 2)
}

/// Where `gen` writes and how it reports.
struct Emit {
    output: Option<PathBuf>,
    json: bool,
    command: String,
    started: std::time::Instant,
}

impl Emit {
    /// Writes `text` (an instance, or under `key` a bare triangulation) and, with `--json`,
    /// reports it with `fields`, the counts.
    fn write(
        &self,
        text: &str,
        key: &str,
        mut fields: serde_json::Value,
    ) -> anyhow::Result<ExitCode> {
        crate::cli::write_report(self.output.as_deref(), text, self.json, &mut fields, key)?;
        if self.json {
            let what = match fields["kind"].as_str() {
                Some(kind) => format!("a {kind} {key}"),
                None => format!("a {key}"),
            };
            let summary = crate::cli::written_summary(&what, &fields, key);
            crate::cli::print_json(&self.command, "unchecked", &summary, self.started, fields)?;
        }
        Ok(ExitCode::SUCCESS)
    }
}

#[derive(clap::Subcommand)]
enum Family {
    /// The path p1 - ... - pN.
    Path {
        /// N, the number of vertices (2 to 10^7).
        #[arg(long, value_parser = vertices())]
        vertices: u64,
        /// Rounds: each player places this many stones (1 to 5000000, and 2 x rounds <= N).
        #[arg(long, value_parser = rounds())]
        rounds: usize,
    },
    /// The complete k-ary tree of the given height (vertices r, r.1, r.1.3, ...).
    KaryTree {
        /// Children per inner vertex, 2 to 10^7 (k >= 2: k = 1 would be a path; `gen path` makes
        /// those); the tree has at most 10^7 vertices.
        #[arg(long, value_parser = ranged::<u64>(2, MAX_VERTICES))]
        k: u64,
        /// Levels below the root, 1 to 22 (the binary tree of height 22 has 8388607 vertices,
        /// of 23 more than 10^7).
        #[arg(long, value_parser = ranged::<u32>(1, 22))]
        height: u32,
        /// Rounds: each player places this many stones (1 to 5000000).
        #[arg(long, value_parser = rounds())]
        rounds: usize,
    },
    /// A random recursive tree (vertex i hangs from a uniformly chosen earlier vertex).
    Tree {
        /// The number of vertices (2 to 10^7).
        #[arg(long, value_parser = vertices())]
        vertices: u64,
        /// Rounds: each player places this many stones (1 to 5000000).
        #[arg(long, value_parser = rounds())]
        rounds: usize,
        /// Random seed (0 to 2^64 - 1): the same seed gives the same tree.
        #[arg(long, default_value_t = 1, value_parser = seed())]
        seed: u64,
    },
    /// Any graph: one of a nauty graph6 stream (`nauty-geng -c 6 | gamecert gen graph
    /// --graph6 - --index 3 --rounds 2`) or a DIMACS graph file (`p edge N M`); vertices v0..
    Graph {
        /// A graph6 stream (one graph a line, as nauty's geng writes; `-` for standard input;
        /// gzip, xz and bzip2 files are read as they are).
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "dimacs",
            required_unless_present = "dimacs"
        )]
        graph6: Option<PathBuf>,
        /// With --graph6: which graph of the stream, counted from 0 (0 to 2^32 - 1: a stream is
        /// read up to 8 GiB, two bytes at least a graph).
        #[arg(long, default_value_t = 0, requires = "graph6", value_parser = ranged::<usize>(0, u32::MAX as usize))]
        index: usize,
        /// A DIMACS graph file (`c` comments, `p edge N M`, `e U V` with vertices 1..=N; `-` and
        /// compressed files as for --graph6).
        #[arg(long, value_name = "FILE")]
        dimacs: Option<PathBuf>,
        /// Rounds: each player places this many stones (1 to 5000000).
        #[arg(long, value_parser = rounds())]
        rounds: usize,
        #[command(flatten)]
        memory: crate::cli::args::MaxMemory,
    },
    /// Points and a triangulation for the games on triangulations (seed 000).
    Triangulation {
        /// The point set and its triangulation (points in convex position lie on the parabola
        /// (i, i^2)).
        #[arg(long, value_enum)]
        kind: crate::cli::args::Kind,
        /// Number of points, 3 to 10^7: at most 400 for kinds wheel and points, 10^6 for the
        /// others, 10^7 (10^6 serpentine) with --abstract-convex.
        #[arg(long, value_parser = ranged::<usize>(3, gamecert::triangulations::flipping::MAX_ABSTRACT_VERTICES))]
        points: usize,
        /// Inner points (kind `points`), 0 to 397: at least 3 of the at most 400 points are on
        /// the hull.
        #[arg(long, default_value_t = 0, value_parser = ranged::<usize>(0, gamecert::triangulations::generate::MAX_POINTS - 3))]
        inner: usize,
        /// Random seed (convex, serpentine, simple-branching, points), 0 to 2^64 - 1: the same
        /// seed gives the same triangulation.
        #[arg(long, default_value_t = 1, value_parser = seed())]
        seed: u64,
        /// Write a `marking-game` instance of this game instead of the bare triangulation.
        #[arg(long, value_enum)]
        game: Option<GameArg>,
        /// Write a `flip-game` instance of this flipping game (seed 000, 2.2).
        #[arg(long, value_enum, conflicts_with = "game")]
        flip: Option<crate::cli::args::FlipGameArg>,
        /// With --flip and --kind convex, fan or serpentine: an abstract convex polygon
        /// without coordinates (`convex_polygon: N`), up to 10^7 vertices (10^6 serpentine).
        #[arg(long, requires = "flip")]
        abstract_convex: bool,
    },
    /// A random vertex nim instance (seed 004): a connected graph (strongly connected when
    /// directed) with weights in 1..=max-weight and the token on v0.
    Vertexnim {
        /// The number of vertices (1 to 10^7).
        #[arg(long, value_parser = ranged::<usize>(1, MAX_VERTICES as usize))]
        vertices: usize,
        /// Weights are drawn from 1..=max-weight (1 to 2^63 - 1, as the instance's weights).
        #[arg(long, default_value_t = 3, value_parser = ranged::<u64>(1, i64::MAX as u64))]
        max_weight: u64,
        /// Random seed (0 to 2^64 - 1): the same seed gives the same instance.
        #[arg(long, default_value_t = 1, value_parser = seed())]
        seed: u64,
        /// A directed graph (moves follow the arcs).
        #[arg(long)]
        directed: bool,
        /// vertexnim (Duchene-Renault) or nimg (Stockman's Vertex NimG).
        #[arg(long, value_enum, default_value = "vertexnim")]
        variant: VariantArg,
        /// Misere play: the player who cannot move wins.
        #[arg(long)]
        misere: bool,
        /// Extra random edges, per vertex (0 to 100; at most 10^7 extra edges in all).
        #[arg(long, default_value_t = 1.0, value_parser = ranged::<f64>(0.0, 100.0))]
        density: f64,
        /// Probability of a loop on each vertex (0 to 1).
        #[arg(long, default_value_t = 0.3, value_parser = ranged::<f64>(0.0, 1.0))]
        loops: f64,
    },
}

/// The marking games an instance can be made for.
#[derive(Clone, Copy, ValueEnum)]
enum GameArg {
    Coloring,
    FourCycle,
    Nimstring,
    NimstringMisere,
    /// The constructing game 2.1.2 on the points alone (the triangulation is dropped).
    MonochromaticTriangle,
    /// 2.1.1 on the points alone: triangles scored, extra move after a completion.
    MonochromaticCompleteTriangulation,
    /// 2.1.3 on the points alone: red and blue, monochromatic triangles scored.
    BichromaticCompleteTriangulation,
    /// 2.1.4 on the points alone: the first empty triangle wins if monochromatic.
    BichromaticTriangle,
    /// 2.1.4 read the other way: bichromatic empty triangles are ignored, play goes on.
    BichromaticTrianglePlayOn,
    /// 2.3.2 on the triangulation: first to complete a face of her colour wins.
    BichromaticColoring,
}

#[derive(Clone, Copy, ValueEnum)]
enum VariantArg {
    Vertexnim,
    Nimg,
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { family, output, json, time } = args;
    // What the family will build, estimated before it is: refused past the time allowed.
    let vertices = match &family {
        Family::Path { vertices, .. } | Family::Tree { vertices, .. } => Some(*vertices as f64),
        Family::KaryTree { k, height, .. } => {
            gamecert::voronoi::gen::kary_size(*k, *height).map(|v| v as f64)
        }
        Family::Vertexnim { vertices, density, .. } => {
            Some(*vertices as f64 * (1.0 + density / 4.0))
        }
        _ => None,
    };
    if let Family::Triangulation { points, abstract_convex, .. } = &family {
        // Measured beside other work (2026-12-07): an abstract convex polygon of 10^7 vertices
        // in 31 s and 1.9 GB; a convex triangulation of 10^6 points, with coordinates, in
        // 12 s and 494 MB.
        let (seconds, bytes) = if *abstract_convex { (3.1e-6, 190.0) } else { (1.2e-5, 494.0) };
        let cost = gamecert::base::limits::Cost {
            seconds: seconds * *points as f64,
            bytes: (bytes * *points as f64 + 10e6) as u128,
        };
        time.allowance().admit(&crate::cli::command_line(), cost)?;
    }
    // Past gen's size the family's own refusal says so (exactly, at once); vertex nim's
    // weighted size (its extra edges counted) may pass 10^7 within its range, and is estimated.
    let is_vertexnim = matches!(family, Family::Vertexnim { .. });
    if let Some(vertices) = vertices.filter(|&v| is_vertexnim || v <= MAX_VERTICES as f64) {
        let name = match &family {
            Family::Path { .. } => "path",
            Family::Tree { .. } => "tree",
            Family::KaryTree { .. } => "kary-tree",
            _ => "vertexnim",
        };
        time.allowance().admit(&crate::cli::command_line(), gen_cost(name, vertices))?;
    }
    let command = match &family {
        Family::Path { .. } => "gen path",
        Family::KaryTree { .. } => "gen kary-tree",
        Family::Tree { .. } => "gen tree",
        Family::Graph { .. } => "gen graph",
        Family::Triangulation { .. } => "gen triangulation",
        Family::Vertexnim { .. } => "gen vertexnim",
    };
    let emit = Emit { output, json, command: command.into(), started: std::time::Instant::now() };
    match family {
        Family::Triangulation { kind, points, inner, seed, game, flip, abstract_convex } => {
            if let Some(flip) = flip {
                let spec = gamecert::triangulations::flipping::gen_instance(
                    kind.into(),
                    points,
                    inner,
                    seed,
                    flip.into(),
                    abstract_convex,
                )
                .map_err(BadInput)?;
                let fields = serde_json::json!({
                    "kind": "flip-game",
                    "points": spec.convex_polygon.unwrap_or(spec.points.len()),
                    "triangles": spec.triangles.len(),
                });
                return emit.write(&Instance::FlipGame(spec).to_json(), "instance", fields);
            }
            let spec =
                gamecert::triangulations::generate::generate(kind.into(), points, inner, seed)
                    .map_err(BadInput)?;
            let t = spec.validate(&mut Budget::new(u64::MAX)).map_err(BadInput)?;
            let mut fields = serde_json::json!({
                "points": t.points.len(),
                "inner_points": t.inner_points().len(),
                "triangles": t.triangles.len(),
                "edges": t.edges.len(),
            });
            note(
                quiet,
                &format!(
                    "{} ({} inner), {}, {}",
                    counted(t.points.len(), "point"),
                    t.inner_points().len(),
                    counted(t.triangles.len(), "triangle"),
                    counted(t.edges.len(), "edge")
                ),
            );
            if let Some(game) = game {
                use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
                let game = match game {
                    GameArg::Coloring => MarkingGame::Coloring,
                    GameArg::FourCycle => MarkingGame::FourCycle,
                    GameArg::Nimstring => MarkingGame::Nimstring,
                    GameArg::NimstringMisere => MarkingGame::NimstringMisere,
                    GameArg::MonochromaticTriangle => MarkingGame::MonochromaticTriangle,
                    GameArg::MonochromaticCompleteTriangulation => {
                        MarkingGame::MonochromaticCompleteTriangulation
                    }
                    GameArg::BichromaticCompleteTriangulation => {
                        MarkingGame::BichromaticCompleteTriangulation
                    }
                    GameArg::BichromaticTriangle => MarkingGame::BichromaticTriangle,
                    GameArg::BichromaticTrianglePlayOn => MarkingGame::BichromaticTrianglePlayOn,
                    GameArg::BichromaticColoring => MarkingGame::BichromaticColoring,
                };
                let mut triangulation = spec;
                if game.is_constructing() {
                    triangulation.triangles.clear();
                }
                let instance = Instance::MarkingGame(MarkingSpec { game, triangulation });
                fields["kind"] = "marking-game".into();
                return emit.write(&instance.to_json(), "instance", fields);
            }
            let mut json = serde_json::json!({"format": "gamecert-triangulation", "version": 1});
            json["kind"] = clap::ValueEnum::to_possible_value(&kind)
                .map_or("?".to_string(), |v| v.get_name().to_string())
                .into();
            json["points"] = serde_json::to_value(&spec.points)?;
            json["triangles"] = serde_json::to_value(&spec.triangles)?;
            emit.write(&format!("{}\n", serde_json::to_string(&json)?), "triangulation", fields)
        }
        Family::Vertexnim {
            vertices,
            max_weight,
            seed,
            directed,
            variant,
            misere,
            density,
            loops,
        } => {
            if density * vertices as f64 > MAX_EXTRA_EDGES {
                return Err(BadInput(format!(
                    "--density {density} with --vertices {vertices} asks for more than 10^7 extra \
                     edges"
                ))
                .into());
            }
            let spec =
                gamecert::vertexnim::solver::generate(&gamecert::vertexnim::solver::GenOptions {
                    vertices,
                    max_weight,
                    seed,
                    directed,
                    variant: match variant {
                        VariantArg::Vertexnim => {
                            gamecert_certificates::vertexnim::strategy::Variant::Vertexnim
                        }
                        VariantArg::Nimg => {
                            gamecert_certificates::vertexnim::strategy::Variant::Nimg
                        }
                    },
                    misere,
                    density,
                    loops,
                })
                .map_err(BadInput)?;
            note(
                quiet,
                &format!(
                    "{}, {}",
                    counted(spec.vertices.len(), "vertex"),
                    counted(spec.edges.len(), "edge")
                ),
            );
            let fields = serde_json::json!({
                "kind": "vertexnim",
                "vertices": spec.vertices.len(),
                "edges": spec.edges.len(),
            });
            emit.write(&Instance::VertexNim(spec).to_json(), "instance", fields)
        }
        family => {
            let spec = match family {
                Family::Vertexnim { .. } => unreachable!("handled above"),
                Family::Path { vertices, rounds } => gamecert::voronoi::gen::path(vertices, rounds),
                Family::KaryTree { k, height, rounds } => {
                    gamecert::voronoi::gen::kary_tree(k, height, rounds)
                }
                Family::Tree { vertices, rounds, seed } => {
                    gamecert::voronoi::gen::random_tree(vertices, rounds, seed)
                }
                Family::Triangulation { .. } => unreachable!("handled above"),
                Family::Graph { graph6, index, dimacs, rounds, memory } => {
                    let (graph, source) =
                        read_graph(graph6.as_deref(), index, dimacs.as_deref(), memory, quiet)?;
                    gamecert::voronoi::gen::from_graph(&graph, rounds, source)
                }
            }
            .map_err(|e| BadInput(e.to_string()))?;
            note(
                quiet,
                &format!(
                    "{}, {}, {} each",
                    counted(spec.graph.vertices.len(), "vertex"),
                    counted(spec.graph.edges.len(), "edge"),
                    counted(spec.rounds, "round")
                ),
            );
            let fields = serde_json::json!({
                "kind": "voronoi",
                "vertices": spec.graph.vertices.len(),
                "edges": spec.graph.edges.len(),
                "rounds": spec.rounds,
            });
            emit.write(&Instance::Voronoi(spec).to_json(), "instance", fields)
        }
    }
}

/// Bytes `gen graph` holds per vertex of the graph it writes (the graph, the instance and its
/// JSON text): measured 145 (peak resident memory over vertices, `p edge 10000000 1` with one
/// edge, `-o /dev/null`, 2026-12-07).
const GRAPH_BYTES_PER_VERTEX: u128 = 148;

/// Bytes `gen graph` holds per edge: measured 255 (a graph6 line of the complete graph on 3,000
/// vertices) and 271 (a DIMACS path of 10^6 edges, its reader's lists included), `-o
/// /dev/null`, 2026-12-07.
const GRAPH_BYTES_PER_EDGE: u128 = 272;

/// The graph `gen graph` was pointed at, and the instance's `source` naming it (the DIMACS
/// reader's note, if any, goes to standard error). What the graph and its instance will hold
/// is estimated first and refused past the file's allowance ([`gamecert::base::limits`]): a
/// DIMACS header's vertex count is the header's word (isolated vertices cost no line), and a
/// graph6 line holds six edges a byte.
fn read_graph(
    graph6: Option<&std::path::Path>,
    index: usize,
    dimacs: Option<&std::path::Path>,
    memory: crate::cli::args::MaxMemory,
    quiet: bool,
) -> Result<(gamecert_reductions::graphs::NamedGraph, serde_json::Value), BadInput> {
    use gamecert::base::limits::grouped_count;
    use gamecert_certificates::verify::shown;
    use gamecert_reductions::graphs::{read_dimacs_graph, Graph6Reader};
    let bytes = |vertices: usize, edges: usize| {
        (vertices as u128 * GRAPH_BYTES_PER_VERTEX)
            .saturating_add(edges as u128 * GRAPH_BYTES_PER_EDGE)
    };
    let sizes = |vertices: usize, edges: usize| {
        format!(
            "the instance's {} and {}",
            grouped_count(vertices, "vertex"),
            grouped_count(edges, "edge")
        )
    };
    if let Some(path) = graph6 {
        // Every line is checked, but only the graph asked for is decoded (a line of millions of
        // edges elsewhere in the stream costs its bytes, not its edges).
        let (text, read) = gamecert::base::io::read_sized_text(path)?;
        let stored = read.stored;
        let (mut count, mut chosen) = (0usize, None);
        let allowance = memory.allowance(stored);
        let name = shown(path);
        // The graph asked for is sized from its line (vertices and bits) before it is decoded.
        let admission = move |line: usize, n: usize, m: usize| {
            allowance
                .admit(
                    &format!("{name}:{line}:1"),
                    &format!(
                        "the graph6 line declares {} and holds {}",
                        grouped_count(n, "vertex"),
                        grouped_count(m, "edge")
                    ),
                    &format!(
                        "the instance's {} and {}",
                        grouped_count(n, "vertex"),
                        grouped_count(m, "edge")
                    ),
                    (n as u128 * GRAPH_BYTES_PER_VERTEX)
                        .saturating_add(m as u128 * GRAPH_BYTES_PER_EDGE),
                )
                .map_err(|refused| refused.0)
        };
        let mut graphs =
            Graph6Reader::new(text.as_bytes(), &shown(path)).with_admission(Box::new(admission));
        loop {
            if count == index {
                match graphs.next() {
                    Some(entry) => chosen = Some(entry.map_err(BadInput)?),
                    None => break,
                }
            } else {
                match graphs.check_next() {
                    Some(line) => drop(line.map_err(BadInput)?),
                    None => break,
                }
            }
            count += 1;
        }
        let Some(entry) = chosen else {
            return Err(BadInput(format!(
                "{}: --index {index}, but the stream has {} graph{}",
                shown(path),
                count,
                if count == 1 { "" } else { "s" }
            )));
        };
        let source =
            serde_json::json!({"family": "graph6", "graph6": entry.text, "line": entry.line});
        return Ok((entry.graph, source));
    }
    let path = dimacs.expect("clap requires --graph6 or --dimacs");
    let (text, sizes_read) = gamecert::base::io::read_sized_text(path)?;
    let read = read_dimacs_graph(&text, &shown(path)).map_err(BadInput)?;
    drop(text);
    let (n, m) = (read.vertices, read.edges.len());
    memory.allowance(sizes_read.stored).admit(
        &format!("{}:{}:{}", shown(path), read.header.0, read.header.1),
        &format!("the header declares {}", grouped_count(n, "vertex")),
        &sizes(n, m),
        bytes(n, m),
    )?;
    for text in &read.notes {
        note(quiet, &format!("note: {text}"));
    }
    Ok((read.build(), serde_json::json!({"family": "dimacs", "file": shown(path)})))
}

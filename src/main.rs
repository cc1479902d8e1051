//! The `gamecert` command line. See README.md for every command with an example.
//!
//! Exit codes: 0 success (for `verify`: accepted), 1 a rejected certificate or a failed
//! `check-reduction`, 2 bad input (the message names the file, line and column).

mod cli;

use crate::cli::bench::BenchName;
use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use gamecert::base::io::{
    parse_instance, read_certificate, read_cnf, validate_instance, validate_one_round,
    write_output, BadInput,
};
use gamecert::voronoi::one_round::{solve_one_round, Method, SolveError};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance, MultiRoundSpec};
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_certificates::{check, Limits, Verdict};
use gamecert_reductions::sat_voronoi::reduce;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gamecert",
    version,
    about = "Certified reductions and solvers for combinatorial games"
)]
struct Cli {
    /// Print nothing but results (no notes on standard error).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the papers' examples end to end: reduce, solve, certify, check; print a table.
    Demo {
        /// Directory for the instances and certificates.
        #[arg(long, default_value = "gamecert-out/demo")]
        out: PathBuf,
    },
    /// Build an instance from a formula by one of the papers' reductions.
    Reduce {
        #[arg(value_enum)]
        name: ReductionName,
        /// The input formula (DIMACS CNF).
        input: PathBuf,
        /// Output file (standard output if omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Generate a multi-round instance on a graph family.
    Gen {
        #[command(subcommand)]
        family: Family,
        /// Output file (standard output if omitted).
        #[arg(short, long, global = true)]
        output: Option<PathBuf>,
    },
    /// Solve an instance and write a certificate the checker has accepted.
    Solve {
        /// The instance (JSON, a positive DNF text, or the edge-list text format).
        instance: PathBuf,
        /// Certificate file (standard output if omitted).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// One-round games: refute through the reduction's formula (reduction) or the checker's
        /// direct encoding (direct). Multi-round games: median, kary or exact (see the README).
        #[arg(long, value_enum, default_value = "auto")]
        method: Method,
        /// Print a JSON summary on standard output (the certificate then needs -o).
        #[arg(long)]
        json: bool,
    },
    /// Check a certificate against an instance (exit 0 accepted, 1 rejected, 2 bad input).
    Verify {
        /// The instance: JSON, a positive DNF text (*.dnf or `p dnf` header), or an edge list.
        instance: PathBuf,
        certificate: PathBuf,
        /// Print the verdict as JSON.
        #[arg(long)]
        json: bool,
        /// The checker's work budget (default: 2*10^9 units plus 64 per input byte; about one
        /// unit per step or byte held). Raise it for a large honest certificate.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_work: Option<u64>,
    },
    /// Draw an instance (optionally with B's placement from a witness).
    Render {
        instance: PathBuf,
        /// dot for graphs (the default there), svg for games on point sets (the default there).
        #[arg(long, value_enum)]
        format: Option<RenderFormat>,
        /// A witness certificate whose placement to draw; for a marking game, a
        /// marking-strategy certificate whose play to draw (against the opponent who always
        /// colours the lowest-numbered legal edge).
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// Marking games: write every move of the play as a numbered SVG frame into this
        /// directory (play-000.svg is the start).
        #[arg(long)]
        frames: Option<PathBuf>,
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// A table of certified game values (`voronoi-kary`, `voronoi-paths`,
    /// `triangle-avoidance`), or a nim-sequence (`kayles`, `dawson-kayles`, `grundy`,
    /// `octal --code CODE`).
    Table {
        #[arg(value_enum)]
        name: TableName,
        /// Search nodes allowed per entry (voronoi-kary).
        #[arg(long, default_value_t = 2_000_000)]
        budget: u64,
        /// The largest path (voronoi-paths).
        #[arg(long, default_value_t = 30)]
        max_vertices: usize,
        /// The smallest path (voronoi-paths).
        #[arg(long, default_value_t = 1)]
        min_vertices: usize,
        /// The largest number of nodes (triangle-avoidance).
        #[arg(long, default_value_t = 10)]
        max_n: usize,
        /// The game (triangle-avoidance): the paper's, or a related one of its Section 4.
        #[arg(long, value_enum, default_value = "triangle-avoidance")]
        rules: gamecert::triangle_avoidance::solver::Rules,
        /// triangle-avoidance: keep a checkpoint per n in this directory and resume from it
        /// (an interrupted run loses at most the level being built).
        #[arg(long)]
        checkpoint: Option<PathBuf>,
        /// Nim-sequences: print G(0..=N) (default 84, or 101 for dawson-kayles).
        #[arg(long)]
        n: Option<usize>,
        /// `octal`: the game's code (d0.d1d2..., e.g. 0.137).
        #[arg(long)]
        code: Option<String>,
        /// The largest point set (bichromatic-construct).
        #[arg(long, default_value_t = 7)]
        max_points: usize,
        /// serpentine-mft: solve only, without writing and replaying the certificates (the
        /// values are then the solver's word, and the table says so).
        #[arg(long)]
        no_certify: bool,
        #[arg(long)]
        json: bool,
    },
    /// Random-test a reduction against an exhaustive solver.
    CheckReduction {
        #[arg(value_enum)]
        name: TestedReduction,
        #[arg(long, default_value_t = 200)]
        trials: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Nim arithmetic (decimal numbers below 2^128): `nim sum A B`, `nim mul A B`, `nim inv A`.
    Nim {
        #[arg(value_enum)]
        op: NimOp,
        a: String,
        b: Option<String>,
    },
    /// Time the pipeline: linear (reduce to verify at 10^5 variables), lrat (check/solve
    /// ratios), direct (how far the direct refutation method reaches).
    Bench {
        #[arg(value_enum)]
        name: BenchName,
        /// Print the rows as JSON.
        #[arg(long)]
        json: bool,
        /// Smaller sizes and a 10 s time cap.
        #[arg(long)]
        quick: bool,
        /// construct: the time limit per game and size, in seconds.
        #[arg(long, default_value_t = 60.0)]
        seconds: f64,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ReductionName {
    /// 3-SAT to Problem 1 (W holds u): seed 001, Theorem 3.
    SatVoronoi1,
    /// 3-SAT to Problem 2 (W holds u and n-1 pendants): seed 001, Corollary 1.
    SatVoronoi2,
    /// The positive-DNF game to the multi-round game: seed 001, Theorem 4 (input: DNF text).
    PosdnfVoronoi,
    /// No reduction: the positive-DNF game itself as a `posdnf-game` instance (input: DNF text).
    PosdnfGame,
}

impl ReductionName {
    /// The 3-SAT reductions' problem; `None` for the DNF ones.
    fn sat_problem(self) -> Option<SatVoronoi> {
        match self {
            ReductionName::SatVoronoi1 => Some(SatVoronoi::Problem1),
            ReductionName::SatVoronoi2 => Some(SatVoronoi::Problem2),
            _ => None,
        }
    }
}

/// The reductions that `check-reduction` tests.
#[derive(Clone, Copy, ValueEnum)]
enum TestedReduction {
    SatVoronoi1,
    SatVoronoi2,
    /// Against the exact DNF and Voronoi solvers; --trials counts the random formulas added to
    /// the exhaustive part (about a second each).
    PosdnfVoronoi,
}

impl TestedReduction {
    /// The 3-SAT problem, or `None` for posdnf-voronoi.
    fn problem(self) -> Option<SatVoronoi> {
        match self {
            TestedReduction::SatVoronoi1 => Some(SatVoronoi::Problem1),
            TestedReduction::SatVoronoi2 => Some(SatVoronoi::Problem2),
            TestedReduction::PosdnfVoronoi => None,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum TableName {
    /// VG(T, n) on complete k-ary trees below the paper's size bound (k = 2..5).
    VoronoiKary,
    /// VG(P_N, n) on paths, every N in --min-vertices..=--max-vertices and every 2n <= N.
    VoronoiPaths,
    /// One-colour triangle avoidance (seed 002, Tables 1 and 2) for n = 2..=--max-n.
    TriangleAvoidance,
    /// Nimstring on fans (seed 000, Tables 4 and 5), by the exact solver.
    NimstringFans,
    /// Kayles (0.77): seed 000, Table 2.
    Kayles,
    /// Dawson's Kayles (0.07): seed 000, Table 3.
    DawsonKayles,
    /// Grundy's game.
    Grundy,
    /// Any octal game, given by --code.
    Octal,
    /// Beyond seed 000's Table 1: 2.1.3 and 2.1.4 on n = 3..=--max-points convex points.
    BichromaticConstruct,
    /// Monochromatic and Bichromatic Flipping (seed 000, 2.2.1, 2.2.3) on random point sets
    /// with inner points, 6..=--max-n points, certified.
    Flipping,
    /// Monochromatic Flipping to Triangle (seed 000, Theorem 10) on every serpentine
    /// triangulation of the convex n-gon, n = 4..=--max-n (at most 21), certified unless
    /// --no-certify; reports the smallest N the data allow.
    SerpentineMft,
}

#[derive(Subcommand)]
enum Family {
    /// The path p1 - ... - pN.
    Path {
        #[arg(long)]
        vertices: u64,
        #[arg(long)]
        rounds: usize,
    },
    /// The complete k-ary tree of the given height (vertices r, r.1, r.1.3, ...).
    KaryTree {
        #[arg(long)]
        k: u64,
        #[arg(long)]
        height: u32,
        #[arg(long)]
        rounds: usize,
    },
    /// A random recursive tree (vertex i hangs from a uniformly chosen earlier vertex).
    Tree {
        #[arg(long)]
        vertices: u64,
        #[arg(long)]
        rounds: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Points and a triangulation for the games on triangulations (seed 000).
    Triangulation {
        #[arg(long, value_enum)]
        kind: gamecert::triangulations::generate::Kind,
        /// Number of points.
        #[arg(long)]
        points: usize,
        /// Inner points (kind `points`).
        #[arg(long, default_value_t = 0)]
        inner: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a `marking-game` instance of this game instead of the bare triangulation.
        #[arg(long, value_enum)]
        game: Option<GameArg>,
        /// Write a `flip-game` instance of this flipping game (seed 000, 2.2).
        #[arg(long, value_enum, conflicts_with = "game")]
        flip: Option<gamecert::triangulations::flipping::FlipGameArg>,
        /// With --flip and --kind convex, fan or serpentine: an abstract convex polygon
        /// without coordinates (`convex_polygon: N`), up to 10^7 vertices (10^6 serpentine).
        #[arg(long, requires = "flip")]
        abstract_convex: bool,
    },
    /// A random vertex nim instance (seed 004): a connected graph (strongly connected when
    /// directed) with weights in 1..=max-weight and the token on v0.
    Vertexnim {
        #[arg(long)]
        vertices: usize,
        #[arg(long, default_value_t = 3)]
        max_weight: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        directed: bool,
        /// vertexnim (Duchene-Renault) or nimg (Stockman's Vertex NimG).
        #[arg(long, value_enum, default_value = "vertexnim")]
        variant: VariantArg,
        #[arg(long)]
        misere: bool,
        /// Extra random edges, per vertex.
        #[arg(long, default_value_t = 1.0)]
        density: f64,
        /// Probability of a loop on each vertex.
        #[arg(long, default_value_t = 0.3)]
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

#[derive(Clone, Copy, ValueEnum)]
enum NimOp {
    /// Nim sum (XOR).
    Sum,
    /// Nim product.
    Mul,
    /// Nim inverse (of a non-zero number).
    Inv,
}

/// `gamecert nim OP A [B]`: the result on standard output.
fn nim_command(op: NimOp, a: &str, b: Option<&str>) -> anyhow::Result<ExitCode> {
    let number = |name: &str, text: &str| {
        text.trim().parse::<u128>().map_err(|_| {
            BadInput(format!("{name}: '{text}' is not a decimal number from 0 to 2^128 - 1"))
        })
    };
    let a = number("A", a)?;
    let result = match (op, b) {
        (NimOp::Inv, Some(_)) => return Err(BadInput("nim inv takes one number, A".into()).into()),
        (NimOp::Inv, None) => gamecert::impartial::nim::inverse_128(a)
            .ok_or_else(|| BadInput("nim inv: 0 has no inverse".into()))?,
        (_, None) => {
            return Err(BadInput("nim sum and nim mul take two numbers, A and B".into()).into())
        }
        (NimOp::Sum, Some(b)) => a ^ number("B", b)?,
        (NimOp::Mul, Some(b)) => {
            let b = number("B", b)?;
            match (u64::try_from(a), u64::try_from(b)) {
                (Ok(a), Ok(b)) => gamecert::impartial::nim::mul(a, b) as u128,
                _ => gamecert::impartial::nim::mul_128(a, b),
            }
        }
    };
    println!("{result}");
    Ok(ExitCode::SUCCESS)
}

#[derive(Clone, Copy, ValueEnum)]
enum RenderFormat {
    Dot,
    Svg,
}

/// `render` for a `marking-game` instance: the points and triangulation as SVG, or with a
/// `marking-strategy` certificate its play (the last frame on `output`, every frame with
/// `--frames`).
fn render_marking(
    instance: &std::path::Path,
    spec: &gamecert_certificates::triangulations::marking::MarkingSpec,
    certificate: Option<&std::path::Path>,
    frames: Option<&std::path::Path>,
    output: Option<&std::path::Path>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let title = file_title(instance);
    let play = match certificate {
        None => Vec::new(),
        Some(path) => {
            let strategy = match read_certificate(path)?.map_err(BadInput)? {
                Certificate::MarkingStrategy(s) => s,
                other => {
                    return Err(BadInput(format!(
                        "{}: a {} certificate has no play to draw (a marking-strategy has)",
                        path.display(),
                        other.kind()
                    ))
                    .into())
                }
            };
            // Only a play the checker accepts is drawn; a rejection says why, exit code 1.
            let verdict = check(
                &Instance::MarkingGame(spec.clone()),
                &Certificate::MarkingStrategy(strategy.clone()),
                &Limits::default(),
            );
            if !verdict.accepted {
                print_verdict(&verdict, false)?;
                return Ok(ExitCode::from(1));
            }
            let (play, first_won) = gamecert::base::render::marking_play(spec, &strategy)
                .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
            note(
                quiet,
                &format!(
                    "{} moves; the {} player wins",
                    play.len(),
                    if first_won { "first" } else { "second" }
                ),
            );
            play
        }
    };
    let pictures = gamecert::base::render::marking_frames(spec, &play, &title);
    emit_frames(&pictures, "play", frames, output, quiet)
}

/// A picture's title: the instance's file name.
fn file_title(instance: &std::path::Path) -> String {
    instance.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
}

/// Writes every frame to `frames` (if given) and the last one to `output` (or standard output
/// when there is no `frames`).
fn emit_frames(
    pictures: &[String],
    stem: &str,
    frames: Option<&std::path::Path>,
    output: Option<&std::path::Path>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    if let Some(dir) = frames {
        let written = gamecert::base::svg::write_frames(dir, stem, pictures)
            .map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
        note(quiet, &format!("{} frames in {}", written.len(), dir.display()));
    }
    if frames.is_none() || output.is_some() {
        write_output(output, pictures.last().expect("the start frame at least"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `render` for a `flip-game` instance ([`gamecert::triangulations::flip_render`]): the last frame on
/// `output`, every frame with `--frames`.
fn render_flip(
    instance: &std::path::Path,
    spec: &gamecert_certificates::triangulations::flipping::FlipSpec,
    certificate: Option<&std::path::Path>,
    frames: Option<&std::path::Path>,
    output: Option<&std::path::Path>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let title = file_title(instance);
    let cert = match certificate {
        None => None,
        Some(path) => Some(read_certificate(path)?.map_err(BadInput)?),
    };
    let pictures = gamecert::triangulations::flip_render::frames(spec, cert.as_ref(), &title)
        .map_err(|e| BadInput(format!("{}: {e}", instance.display())))?;
    emit_frames(&pictures, "flip", frames, output, quiet)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            if err.downcast_ref::<BadInput>().is_some() {
                eprintln!("error: {err}");
            } else {
                eprintln!("error: {err:#}");
            }
            ExitCode::from(2)
        }
    }
}

fn note(quiet: bool, text: &str) {
    if !quiet {
        eprintln!("{text}");
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let quiet = cli.quiet;
    match cli.command {
        Command::Demo { out } => {
            let all = crate::cli::demo::run(&out, quiet)?;
            Ok(if all { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Reduce { name, input, output } => {
            let Some(problem) = name.sat_problem() else {
                return reduce_posdnf(name, &input, output.as_deref(), quiet);
            };
            let (cnf, warnings) = read_cnf(&input)?;
            for w in warnings {
                note(quiet, &format!("warning: {w}"));
            }
            let reduced =
                reduce(&cnf, problem).map_err(|e| BadInput(format!("{}: {e}", input.display())))?;
            for line in reduced.normalised.map.report() {
                note(quiet, &format!("normalisation: {line}"));
            }
            let spec = &reduced.instance;
            note(
                quiet,
                &format!(
                    "{}: {} vertices (10n + 2m - 1 with n = {}, m = {}), W holds {}, B places {}",
                    problem.name(),
                    spec.graph.vertices.len(),
                    reduced.normalised.formula.num_vars,
                    reduced.normalised.formula.clauses.len(),
                    spec.white.len(),
                    spec.black_count
                ),
            );
            write_output(
                output.as_deref(),
                &Instance::VoronoiOneRound(reduced.instance).to_json(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Gen {
            family: Family::Triangulation { kind, points, inner, seed, game, flip, abstract_convex },
            output,
        } => {
            if let Some(flip) = flip {
                let spec = gamecert::triangulations::flipping::gen_instance(
                    kind,
                    points,
                    inner,
                    seed,
                    flip.game(),
                    abstract_convex,
                )
                .map_err(BadInput)?;
                write_output(output.as_deref(), &Instance::FlipGame(spec).to_json())?;
                return Ok(ExitCode::SUCCESS);
            }
            let spec = gamecert::triangulations::generate::generate(kind, points, inner, seed)
                .map_err(BadInput)?;
            let t = spec.validate(&mut Budget::new(u64::MAX)).map_err(BadInput)?;
            note(
                quiet,
                &format!(
                    "{} points ({} inner), {} triangles, {} edges",
                    t.points.len(),
                    t.inner_points().len(),
                    t.triangles.len(),
                    t.edges.len()
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
                write_output(output.as_deref(), &instance.to_json())?;
                return Ok(ExitCode::SUCCESS);
            }
            let mut json = serde_json::json!({"format": "gamecert-triangulation", "version": 1});
            json["kind"] = serde_json::to_value(format!("{kind:?}").to_lowercase())?;
            json["points"] = serde_json::to_value(&spec.points)?;
            json["triangles"] = serde_json::to_value(&spec.triangles)?;
            write_output(output.as_deref(), &format!("{}\n", serde_json::to_string(&json)?))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Gen {
            family:
                Family::Vertexnim {
                    vertices,
                    max_weight,
                    seed,
                    directed,
                    variant,
                    misere,
                    density,
                    loops,
                },
            output,
        } => {
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
            note(quiet, &format!("{} vertices, {} edges", spec.vertices.len(), spec.edges.len()));
            write_output(output.as_deref(), &Instance::VertexNim(spec).to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Gen { family, output } => {
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
            }
            .map_err(|e| BadInput(e.to_string()))?;
            note(
                quiet,
                &format!(
                    "{} vertices, {} edges, {} rounds each",
                    spec.graph.vertices.len(),
                    spec.graph.edges.len(),
                    spec.rounds
                ),
            );
            write_output(output.as_deref(), &Instance::Voronoi(spec).to_json())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Solve { instance, output, method, json } => match parse_instance(&instance)? {
            Instance::VoronoiOneRound(spec) => {
                let game = validate_one_round(&instance, &spec)?;
                let solved = solve_one_round(&spec, &game, method).map_err(|e| match e {
                    SolveError::TooLarge(t) => {
                        BadInput(format!("{}: {t}", instance.display())).into()
                    }
                    other => anyhow::Error::from(other),
                })?;
                let summary = serde_json::json!({
                    "verdict": solved.verdict.claim,
                    "certificate": solved.certificate.kind(),
                    "method": solved.method,
                    "cnf_variables": solved.cnf_variables,
                    "cnf_clauses": solved.cnf_clauses,
                    "lrat_bytes": solved.lrat_bytes,
                    "solve_seconds": solved.solve_seconds,
                    "check_seconds": solved.check_seconds,
                    "checked": solved.verdict.accepted,
                });
                let text = format!(
                    "{}: {} certificate ({} method, {} variables, {} clauses{}), solved in {:.3} s, accepted by the checker in {:.3} s",
                    solved.verdict.claim,
                    solved.certificate.kind(),
                    solved.method,
                    solved.cnf_variables,
                    solved.cnf_clauses,
                    if solved.lrat_bytes > 0 { format!(", {} bytes of LRAT", solved.lrat_bytes) } else { String::new() },
                    solved.solve_seconds,
                    solved.check_seconds
                );
                finish_solve(
                    solved.certificate.to_json(),
                    summary,
                    &text,
                    output.as_deref(),
                    json,
                    quiet,
                )
            }
            other => {
                validate_instance(&instance, &other)?;
                let started = std::time::Instant::now();
                let solved = gamecert::solve::solve_game(&other, method).map_err(|e| match e
                    .downcast_ref::<BadInput>(
                ) {
                    Some(bad) => BadInput(format!("{}: {bad}", instance.display())).into(),
                    None => e.context(format!("{}: no certificate", instance.display())),
                })?;
                let (certificate, nodes) = (solved.certificate, solved.nodes);
                let solve_seconds = started.elapsed().as_secs_f64();
                // Checked with the budget `verify` gives the two files by default, so that what
                // solve writes, verify accepts without --max-work.
                let certificate_json = certificate.to_json();
                let instance_bytes = std::fs::metadata(&instance).map_or(0, |m| m.len());
                let limits = Limits::for_input(instance_bytes + certificate_json.len() as u64);
                let verdict = check(&other, &certificate, &limits);
                if !verdict.accepted {
                    anyhow::bail!(
                        "internal error: the checker rejected gamecert's own certificate: {}",
                        verdict.reason
                    );
                }
                let summary = serde_json::json!({
                    "verdict": verdict.claim,
                    "certificate": certificate.kind(),
                    "method": solved.method,
                    "search_nodes": nodes,
                    "solve_seconds": solve_seconds,
                    "checked": true,
                    "work": verdict.work,
                });
                let text = format!(
                    "{}: {} certificate by {}, {nodes} search nodes in {solve_seconds:.3} s; accepted by the checker: {}",
                    verdict.claim,
                    certificate.kind(),
                    solved.method,
                    verdict.reason
                );
                finish_solve(certificate_json, summary, &text, output.as_deref(), json, quiet)
            }
        },
        Command::Verify { instance, certificate, json, max_work } => {
            // The checker's own pipeline, shared with `gamecert-check`; a fault of the checker
            // is reported in the verdict, so the default panic message is kept off stderr.
            std::panic::set_hook(Box::new(|_| {}));
            let outcome =
                gamecert_certificates::verify::run(&gamecert_certificates::verify::Request {
                    instance: &instance,
                    certificate: &certificate,
                    json,
                    max_work,
                });
            print!("{}", outcome.stdout);
            eprint!("{}", outcome.stderr);
            Ok(ExitCode::from(outcome.code))
        }
        Command::Render { instance, format, certificate, frames, output } => {
            let parsed = parse_instance(&instance)?;
            if matches!(parsed, Instance::FlipGame(_) | Instance::MarkingGame(_)) {
                validate_instance(&instance, &parsed)?;
            }
            if let Instance::FlipGame(spec) = &parsed {
                return render_flip(
                    &instance,
                    spec,
                    certificate.as_deref(),
                    frames.as_deref(),
                    output.as_deref(),
                    quiet,
                );
            }
            if let Instance::MarkingGame(spec) = &parsed {
                if let Some(RenderFormat::Dot) = format {
                    return Err(BadInput(
                        "a marking game is drawn on its points: use --format svg".into(),
                    )
                    .into());
                }
                return render_marking(
                    &instance,
                    spec,
                    certificate.as_deref(),
                    frames.as_deref(),
                    output.as_deref(),
                    quiet,
                );
            }
            if frames.is_some() {
                return Err(
                    BadInput("--frames draws the play of a marking game only".into()).into()
                );
            }
            if let Some(RenderFormat::Svg) = format {
                return Err(BadInput(
                    "SVG needs a graph layout, which gamecert leaves to Graphviz: run `gamecert render INSTANCE --format dot | dot -Tsvg`".into(),
                )
                .into());
            }
            let (graph, white, black) = match parsed {
                Instance::VoronoiOneRound(spec) => {
                    let game = validate_one_round(&instance, &spec)?;
                    let black = match &certificate {
                        None => Vec::new(),
                        Some(path) => witness_placement(&game, path)?,
                    };
                    (game.graph, game.white, black)
                }
                Instance::Voronoi(spec) => {
                    let game = spec
                        .validate()
                        .map_err(|e| BadInput(format!("{}:{e}", instance.display())))?;
                    let owned = |c: u8| -> Vec<usize> {
                        (0..game.start.len()).filter(|&v| game.start[v] == c).collect()
                    };
                    let (w, b) = (owned(b'W'), owned(b'B'));
                    (game.graph, w, b)
                }
                other => {
                    return Err(BadInput(format!(
                        "{}: a {} instance has no graph to draw",
                        instance.display(),
                        other.kind()
                    ))
                    .into())
                }
            };
            let title = file_title(&instance);
            write_output(
                output.as_deref(),
                &gamecert::base::render::to_dot(&graph, &white, &black, &title),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Command::CheckReduction { name, trials, seed, json } => {
            // A progress bar on standard error, only on a terminal and never with --quiet.
            let bar = if !quiet && std::io::stderr().is_terminal() {
                indicatif::ProgressBar::new(trials as u64)
            } else {
                indicatif::ProgressBar::hidden()
            };
            let (report, summary, failures) = match name.problem() {
                None => {
                    let report = gamecert::voronoi::check_dnf_reduction::run(
                        4,
                        trials,
                        seed,
                        &mut |done, total| {
                            bar.set_length(total as u64);
                            bar.set_position(done as u64)
                        },
                    );
                    let summary = format!(
                        "posdnf-voronoi: {} formulas (every one over at most 4 variables with at most 3 terms, \
                         then {trials} random ones with 5 or 6 variables, seed {seed}): first player wins {}, \
                         second {}; Voronoi value as predicted (W wins iff the first player does, a tie otherwise) \
                         on {}; value certificates accepted {}; values {:?}; largest graph {} vertices, {} search nodes",
                        report.formulas,
                        report.first_player_wins,
                        report.second_player_wins,
                        report.agreed,
                        report.certified,
                        report.values,
                        report.largest_graph,
                        report.search_nodes
                    );
                    (serde_json::to_value(&report)?, summary, report.failures)
                }
                Some(problem) => {
                    let report = gamecert::voronoi::check_reduction::run_with_progress(
                        problem,
                        trials,
                        seed,
                        &mut |done| bar.set_position(done as u64),
                    );
                    let summary = format!(
                        "{}: {} trials (seed {}, {} formulas redrawn as too large): {} satisfiable, {} unsatisfiable; \
                         exhaustive search agreed on {}; {} forward placements won and were accepted; \
                         {} winning placements mapped back to models ({} not of the one-literal-per-variable form); \
                         largest graph {} vertices, {} search nodes",
                        report.reduction,
                        report.trials,
                        report.seed,
                        report.redrawn,
                        report.satisfiable,
                        report.unsatisfiable,
                        report.agreed,
                        report.forward_checked,
                        report.backward_checked,
                        report.noncanonical_winning,
                        report.largest_graph,
                        report.search_nodes
                    );
                    (serde_json::to_value(&report)?, summary, report.failures)
                }
            };
            bar.finish_and_clear();
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                println!("{summary}");
                for failure in &failures {
                    println!("FAILED {failure}");
                }
            }
            Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
        }
        Command::Table {
            name,
            budget,
            max_vertices,
            min_vertices,
            max_n,
            rules,
            checkpoint,
            n,
            code,
            max_points,
            no_certify,
            json,
        } => {
            let sequence = match name {
                TableName::Kayles => Some(("Kayles", "0.77".to_string(), 84)),
                TableName::DawsonKayles => Some(("Dawson's Kayles", "0.07".to_string(), 101)),
                TableName::Grundy => Some(("Grundy's game", "grundy".to_string(), 84)),
                TableName::Octal => Some((
                    "octal game",
                    code.ok_or_else(|| BadInput("table octal needs --code CODE".into()))?,
                    84,
                )),
                _ => None,
            };
            if let Some((title, code, default_n)) = sequence {
                return octal_table(title, &code, n.unwrap_or(default_n), json);
            }
            let mut progress = |what: &str| {
                if !quiet && std::io::stderr().is_terminal() {
                    eprint!("\r{what}        ");
                }
            };
            match name {
                TableName::Flipping | TableName::SerpentineMft => {
                    let (what, low, high) = match name {
                        TableName::Flipping => {
                            ("flipping", 6, gamecert::triangulations::flipping::MAX_EXACT_POINTS)
                        }
                        _ => (
                            "serpentine-mft",
                            4,
                            gamecert::triangulations::mft_convex::MAX_VERTICES,
                        ),
                    };
                    if !(low..=high).contains(&max_n) {
                        return Err(BadInput(format!(
                            "--max-n must be between {low} and {high} for table {what} \
                             (got {max_n})"
                        ))
                        .into());
                    }
                    let (text, rows_json) = if matches!(name, TableName::Flipping) {
                        let rows = gamecert::triangulations::flip_table::rows(max_n, &mut progress)
                            .map_err(anyhow::Error::msg)?;
                        (
                            gamecert::triangulations::flip_table::table(&rows),
                            serde_json::to_string_pretty(&rows)?,
                        )
                    } else {
                        let rows = gamecert::triangulations::serpentine::rows(
                            max_n,
                            !no_certify,
                            &mut progress,
                        )
                        .map_err(anyhow::Error::msg)?;
                        let mut text = gamecert::triangulations::serpentine::table(&rows);
                        if no_certify {
                            text.push_str(
                                "(--no-certify: no certificate was written or replayed)\n",
                            );
                        }
                        (text, serde_json::to_string_pretty(&rows)?)
                    };
                    if !quiet && std::io::stderr().is_terminal() {
                        eprint!("\r{:40}\r", "");
                    }
                    if json {
                        println!("{rows_json}");
                    } else {
                        print!("{text}");
                    }
                }
                TableName::NimstringFans => print!(
                    "{}",
                    gamecert::triangulations::nimstring::fan_tables(9, 10)
                        .map_err(anyhow::Error::msg)?
                ),
                TableName::TriangleAvoidance => {
                    let limit = gamecert::triangle_avoidance::solver::MAX_N;
                    if !(2..=limit).contains(&max_n) {
                        return Err(BadInput(format!(
                            "--max-n must be between 2 and {limit} (got {max_n}): n = 13 takes \
                             minutes and 3 GB; n = 14 has 467,871,369 positions, about 68 GB \
                             in this solver"
                        ))
                        .into());
                    }
                    if let Some(dir) = &checkpoint {
                        std::fs::create_dir_all(dir).map_err(|e| {
                            BadInput(format!("--checkpoint {}: {e}", dir.display()))
                        })?;
                    }
                    let mut rows = Vec::new();
                    for n in 2..=max_n {
                        let file = checkpoint
                            .as_ref()
                            .map(|dir| dir.join(format!("{}-n{n}.ckpt", rules.name())));
                        let row = gamecert::triangle_avoidance::solver::solve_resumable(
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
                    if !quiet && std::io::stderr().is_terminal() {
                        eprint!("\r{:60}\r", "");
                    }
                    if json {
                        println!("{}", serde_json::to_string_pretty(&rows)?);
                    } else {
                        print!("{}", gamecert::triangle_avoidance::solver::table(&rows));
                    }
                }
                TableName::VoronoiKary => {
                    let rows = gamecert::voronoi::tables::voronoi_kary(
                        budget,
                        gamecert::voronoi::tables::STRATEGY_POSITIONS,
                        &mut progress,
                    )?;
                    if json {
                        println!("{}", serde_json::to_string_pretty(&rows)?);
                    } else {
                        print!("{}", gamecert::voronoi::tables::voronoi_kary_table(&rows));
                    }
                }
                TableName::VoronoiPaths => {
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
                    if !quiet && std::io::stderr().is_terminal() {
                        eprint!("\r{:40}\r", "");
                    }
                    if json {
                        println!("{}", serde_json::to_string_pretty(&rows)?);
                    } else {
                        print!(
                            "{}",
                            gamecert::voronoi::tables::voronoi_paths_table(
                                &rows,
                                true,
                                started.elapsed().as_secs_f64()
                            )
                        );
                    }
                }
                TableName::BichromaticConstruct => {
                    let rows = gamecert::triangulations::construct_table::bichromatic_table(
                        max_points,
                        &mut |t| progress(t),
                    )
                    .map_err(BadInput)?;
                    if !quiet && std::io::stderr().is_terminal() {
                        eprint!("\r{:60}\r", "");
                    }
                    if json {
                        println!("{}", serde_json::to_string_pretty(&rows)?);
                    } else {
                        print!(
                            "{}",
                            gamecert::triangulations::construct_table::bichromatic_text(&rows)
                        );
                    }
                }
                TableName::Kayles
                | TableName::DawsonKayles
                | TableName::Grundy
                | TableName::Octal => {} // written above
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Nim { op, a, b } => nim_command(op, &a, b.as_deref()),
        Command::Bench { name: BenchName::Construct, json, seconds, .. } => {
            crate::cli::bench::construct::run(seconds, json, quiet)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench { name, json, quick, .. } => {
            crate::cli::bench::run(name, json, quick, quiet)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `table kayles|dawson-kayles|grundy|octal`: a nim-sequence, its period and exceptions.
fn octal_table(title: &str, code: &str, n: usize, json: bool) -> anyhow::Result<ExitCode> {
    const MAX_N: usize = 1 << 26;
    let rules = gamecert::impartial::octal::Rules::parse(code).map_err(BadInput)?;
    if n > MAX_N {
        return Err(BadInput(format!("--n {n} is over the limit of {MAX_N}")).into());
    }
    let title = if title == "octal game" { code } else { title };
    let table = gamecert::impartial::octal::sequence_table(title, &rules, n);
    if json {
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        print!("{}", gamecert::impartial::octal::sequence_table_text(&table));
    }
    Ok(ExitCode::SUCCESS)
}

/// `reduce posdnf-voronoi|posdnf-game A.dnf`.
fn reduce_posdnf(
    name: ReductionName,
    input: &Path,
    output: Option<&Path>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(input)
        .map_err(|e| BadInput(format!("{}: {e}", input.display())))?;
    let parsed =
        gamecert_certificates::voronoi::dnf_text::parse_posdnf(&text, &input.display().to_string())
            .map_err(|e| BadInput(e.to_string()))?;
    for w in &parsed.warnings {
        note(quiet, &format!("warning: {w}"));
    }
    let instance = match name {
        ReductionName::PosdnfGame => Instance::PosDnfGame(parsed.dnf),
        _ => {
            let built = gamecert_reductions::posdnf_voronoi::build(&parsed.dnf)
                .map_err(|e| BadInput(format!("{}: {e}", input.display())))?;
            let n = built.padded.num_vars as usize;
            note(
                quiet,
                &format!(
                    "posdnf-voronoi: {} vertices (2n^2 + 7n + m + 2 with n = {n}{}, m = {}), {} rounds each",
                    built.graph.vertices.len(),
                    if n as u32 != parsed.dnf.num_vars { ", padded from an odd count" } else { "" },
                    built.padded.terms.len(),
                    built.rounds
                ),
            );
            Instance::Voronoi(MultiRoundSpec {
                graph: built.graph,
                rounds: built.rounds,
                start: None,
                source: Some(serde_json::json!({
                    "reduction": "posdnf-voronoi",
                    "formula": built.padded,
                })),
            })
        }
    };
    write_output(output, &instance.to_json())?;
    Ok(ExitCode::SUCCESS)
}

fn witness_placement(
    game: &gamecert_certificates::format::OneRound,
    path: &Path,
) -> anyhow::Result<Vec<usize>> {
    let cert = read_certificate(path)?.map_err(BadInput)?;
    let Certificate::Witness(w) = cert else {
        return Err(BadInput(format!(
            "{}: only a witness has a placement to draw",
            path.display()
        ))
        .into());
    };
    w.placement
        .iter()
        .map(|name| {
            game.graph
                .vertex(name)
                .ok_or_else(|| BadInput(format!("{}: unknown vertex '{name}'", path.display())))
        })
        .collect::<Result<_, _>>()
        .context("reading the placement")
}

/// Writes a solved certificate and reports: with `--json` a summary on standard output (the
/// certificate then goes only to `-o`), otherwise the certificate to `-o` or standard output and
/// a note on standard error.
fn finish_solve(
    text: String,
    mut summary: serde_json::Value,
    note_text: &str,
    output: Option<&Path>,
    json: bool,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    if json {
        if let Some(path) = output {
            write_output(Some(path), &text)?;
        }
        summary["output"] = serde_json::json!(output.map(|p| p.display().to_string()));
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        write_output(output, &text)?;
        note(quiet, note_text);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_verdict(verdict: &Verdict, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string_pretty(verdict)?);
    } else {
        println!("{}: {}", if verdict.accepted { "ACCEPTED" } else { "REJECTED" }, verdict.claim);
        println!("{}", verdict.reason);
        for theorem in &verdict.trusted {
            println!("trusted: {theorem}");
        }
    }
    Ok(())
}

//! `gamecert render INSTANCE`: graphs as DOT, games on point sets as SVG (frames of a play).

use crate::cli::{note, print_verdict, write_output};
use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::{
    parse_instance, read_certificate, validate_instance, validate_one_round, BadInput,
};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::{check, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Draw an instance (optionally with B's placement from a witness).
#[derive(ClapArgs)]
pub struct Args {
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
                print_verdict(&verdict)?;
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

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { instance, format, certificate, frames, output } = args;
    {
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
            return Err(BadInput("--frames draws the play of a marking game only".into()).into());
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
                let game =
                    spec.validate().map_err(|e| BadInput(format!("{}:{e}", instance.display())))?;
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
}

//! `gamecert render INSTANCE`: Voronoi games as DOT (for Graphviz) or native SVG, games on point
//! sets as SVG; with a strategy certificate, the final position of its principal line (heaps,
//! coins and vertex nim: the start with the first move marked), and with `--frames` every
//! position of it. A certificate is drawn only after the checker accepts it.

use crate::cli::{note, print_verdict};
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::{parse_sized_instance, read_certificate, BadInput};
use gamecert::render::{draw, Drawing, Format, RenderError};
use gamecert_certificates::format::Instance;
use gamecert_certificates::verify::shown;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Draw an instance: a Voronoi game as DOT or SVG, a game on points as SVG; with a
/// certificate, B's witness placement or the final position of a strategy's principal line.
#[derive(ClapArgs)]
pub struct Args {
    /// The instance file (JSON or the edge-list text of a one-round game; `-` for standard
    /// input; gzip, xz and bzip2 files are read as they are).
    instance: PathBuf,
    /// Voronoi games: dot (for Graphviz) or svg (drawn natively: a path on a line, a tree in
    /// layers, other graphs with the fewest crossings a search finds, none where planar). The default is svg with --frames or when -o ends in .svg, dot
    /// otherwise. Games on points are always svg.
    #[arg(long, value_enum)]
    format: Option<RenderFormat>,
    /// A certificate to draw (JSON; `-` and compressed files as for the instance), checked first (a rejected one is reported, exit code 1):
    /// one-round, a witness (B's placement); multi-round, a voronoi-value (both strategies
    /// play), voronoi-strategy or voronoi-path-value (its principal line; a player without a
    /// strategy takes its lowest-numbered empty vertex); marking game, a marking-strategy (the
    /// opponent colours the lowest-numbered legal edge); flip game, a flip-value or
    /// flip-sequence.
    #[arg(long)]
    certificate: Option<PathBuf>,
    /// Write every position of the certificate's play as a numbered SVG frame into this
    /// directory (play-000.svg is the start); -o then also gets the play's picture (the last
    /// frame; for heaps, coins and vertex nim, whose play ends on an empty board, the start
    /// with the certified first move marked).
    #[arg(long)]
    frames: Option<PathBuf>,
    /// Where to write the picture (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Report as JSON on standard output: the picture's format, size and file, the frames
    /// written, the certificate's claim (without -o or --frames the picture is included).
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    memory: crate::cli::args::MaxMemory,
}

#[derive(Clone, Copy, ValueEnum)]
enum RenderFormat {
    Dot,
    Svg,
}

/// A picture's title: the instance's file name.
fn file_title(instance: &Path) -> String {
    instance.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
}

/// Writes every frame to `frames` (if given) and the last one to `output` (or standard output
/// when there is no `frames`); with `--json` (`started` given), then reports what was written
/// and the drawn certificate's claim (a picture for standard output goes into the report).
fn emit_frames(
    drawing: &Drawing,
    stem: &str,
    frames: Option<&Path>,
    output: Option<&Path>,
    quiet: bool,
    started: Option<std::time::Instant>,
) -> anyhow::Result<ExitCode> {
    let mut fields = serde_json::json!({});
    if let Some(claim) = &drawing.claim {
        fields["claim"] = claim.as_str().into();
    }
    if let Some(moves) = drawing.moves {
        fields["moves"] = moves.into();
    }
    if let Some(margin) = drawing.margin {
        fields["margin"] = margin.into();
    }
    let pictures = &drawing.frames;
    if let Some(dir) = frames {
        let written = gamecert::base::svg::write_frames(dir, stem, pictures)
            .map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
        let counted = gamecert_certificates::base::text::counted(written.len() as u64, "frame");
        note(quiet, &format!("{counted} in {}", dir.display()));
        fields["frames"] = written.len().into();
        fields["frames_dir"] = shown(dir).into();
    }
    let last = drawing.picture();
    if frames.is_none() || output.is_some() {
        crate::cli::write_report(output, last, started.is_some(), &mut fields, "picture")?;
    }
    if let Some(started) = started {
        let token = if drawing.claim.is_some() { "accepted" } else { "unchecked" };
        let picture =
            if last.starts_with("<svg") || last.starts_with("<?xml") { "svg" } else { "dot" };
        fields["picture_format"] = picture.into();
        let what = if picture == "svg" { "an SVG picture" } else { "a DOT picture" };
        let summary = match fields["frames"].as_u64() {
            Some(count) if output.is_none() => format!("{what} in each of {count} frames"),
            _ => crate::cli::written_summary(what, &fields, "picture"),
        };
        crate::cli::print_json("render", token, &summary, started, fields)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Reports a certificate the checker did not accept (exit code 1, or 3 when its budget ran
/// out): its verdict, as text or JSON.
fn rejected(
    verdict: &gamecert_certificates::Verdict,
    started: Option<std::time::Instant>,
) -> anyhow::Result<ExitCode> {
    match started {
        Some(started) => {
            let fields = serde_json::json!({
                "claim": verdict.claim, "reason": verdict.reason, "work": verdict.work,
            });
            let summary = format!(
                "{}; nothing drawn",
                gamecert_certificates::verify::verdict_heading(verdict.outcome, &verdict.claim)
            );
            crate::cli::print_json("render", verdict.outcome.token(), &summary, started, fields)?;
        }
        None => print_verdict(verdict)?,
    }
    Ok(ExitCode::from(verdict.outcome.exit_code()))
}

/// Runs the command.
pub fn run(args: Args, quiet: bool) -> anyhow::Result<ExitCode> {
    let Args { instance, format, certificate, frames, output, json, memory } = args;
    let started = json.then(std::time::Instant::now);
    let (parsed, sizes) = parse_sized_instance(&instance)?;
    let allowance = memory.allowance(sizes.stored);
    let on_points = matches!(parsed, Instance::FlipGame(_) | Instance::MarkingGame(_));
    let format = match format {
        Some(RenderFormat::Dot) => Format::Dot,
        Some(RenderFormat::Svg) => Format::Svg,
        None if on_points || frames.is_some() => Format::Svg,
        None => match output.as_deref().and_then(Path::extension) {
            Some(ext) if ext == "svg" => Format::Svg,
            _ => Format::Dot,
        },
    };
    if !on_points && frames.is_some() && format == Format::Dot {
        return Err(BadInput("--frames writes SVG pictures: drop --format dot".into()).into());
    }
    if matches!(parsed, Instance::VoronoiOneRound(_)) && frames.is_some() {
        return Err(BadInput(
            "--frames draws a play; a one-round game is one placement (drop --frames)".into(),
        )
        .into());
    }
    let certificate = match &certificate {
        None => None,
        // A binary refutation (what `solve -o` writes for one) is read by its header alone.
        Some(path) => match gamecert::api::binary_refutation(path)? {
            Some((header, _)) => Some((header, shown(path))),
            None => Some((read_certificate(path)?, shown(path))),
        },
    };
    let named = certificate.as_ref().map(|(c, path)| (c, path.as_str()));
    let title = file_title(&instance);
    let drawing = match draw(&parsed, &shown(&instance), named, format, &title, allowance) {
        Ok(drawing) => drawing,
        Err(RenderError::Bad(bad)) => return Err(bad.into()),
        // Only a play the checker accepts is drawn; a rejection says why, exit code 1.
        Err(RenderError::Rejected(verdict)) => return rejected(&verdict, started),
    };
    if let Some(text) = &drawing.note {
        note(quiet, text);
    }
    let stem = if matches!(parsed, Instance::FlipGame(_)) { "flip" } else { "play" };
    emit_frames(&drawing, stem, frames.as_deref(), output.as_deref(), quiet, started)
}

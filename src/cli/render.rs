//! `gamecert render INSTANCE`: Voronoi games as DOT (for Graphviz) or native SVG, games on point
//! sets as SVG; with a strategy certificate, the final position of its principal line, and with
//! `--frames` every position of it. A certificate is drawn only after the checker accepts it.

use crate::cli::{note, print_verdict};
use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use gamecert::base::io::{
    parse_instance, read_certificate, validate_instance, validate_one_round, BadInput,
};
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::voronoi::rules::Player;
use gamecert_certificates::{check, Limits};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Draw an instance: a Voronoi game as DOT or SVG, a game on points as SVG; with a
/// certificate, B's witness placement or the final position of a strategy's principal line.
#[derive(ClapArgs)]
pub struct Args {
    /// The instance file (JSON or the edge-list text of a one-round game; `-` for standard
    /// input; gzip, xz and bzip2 files are read as they are).
    instance: PathBuf,
    /// Voronoi games: dot (for Graphviz) or svg (drawn natively: a path or tree layout, else a
    /// force-directed one). The default is svg with --frames or when -o ends in .svg, dot
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
    /// directory (play-000.svg is the start); -o then also gets the last frame.
    #[arg(long)]
    frames: Option<PathBuf>,
    /// Where to write the picture (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Report as JSON on standard output: the picture's format, size and file, the frames
    /// written, the certificate's claim (without -o or --frames the picture is included).
    #[arg(long)]
    json: bool,
}

/// What `--json` reports, gathered while drawing: `None` without `--json`.
struct Report {
    started: std::time::Instant,
    /// The picture's format, the play drawn and the checker's verdict, as they are known.
    fields: serde_json::Value,
}

/// Reports a certificate the checker rejected (exit code 1): its verdict, as text or JSON.
fn rejected(
    verdict: &gamecert_certificates::Verdict,
    report: Option<&Report>,
) -> anyhow::Result<ExitCode> {
    match report {
        Some(report) => {
            let fields = serde_json::json!({
                "claim": verdict.claim, "reason": verdict.reason, "work": verdict.work,
            });
            let summary = format!("REJECTED: {}; nothing drawn", verdict.claim);
            crate::cli::print_json("render", "rejected", &summary, report.started, fields)?;
        }
        None => print_verdict(verdict)?,
    }
    Ok(ExitCode::from(1))
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
    mut report: Option<Report>,
) -> anyhow::Result<ExitCode> {
    let title = file_title(instance);
    let play = match certificate {
        None => (Vec::new(), String::new()),
        Some(path) => {
            let strategy = match read_certificate(path)? {
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
                return rejected(&verdict, report.as_ref());
            }
            if let Some(report) = &mut report {
                report.fields["claim"] = verdict.claim.into();
            }
            let (play, first_won) = gamecert::base::render::marking_play(spec, &strategy)
                .map_err(|e| BadInput(format!("{}: {e}", path.display())))?;
            let (winner, loser) = if strategy.winner == "first" {
                ("R (the first player)", "B")
            } else {
                ("B (the second player)", "R")
            };
            let drawn = format!(
                "Drawn: {winner} follows the certificate's winning strategy, {loser} colours \
                 the lowest-numbered legal edge. Certified: {winner} wins."
            );
            note(
                quiet,
                &format!(
                    "{}; this play ends with the {} player winning; certified: {winner} \
                     wins against every reply",
                    gamecert_certificates::base::text::counted(play.len(), "move"),
                    if first_won { "first" } else { "second" }
                ),
            );
            (play, drawn)
        }
    };
    let (play, drawn) = play;
    if let Some(report) = &mut report {
        report.fields["moves"] = play.len().into();
    }
    let pictures = gamecert::base::render::marking_frames(spec, &play, &title, &drawn);
    emit_frames(&pictures, "play", frames, output, quiet, report)
}

/// A picture's title: the instance's file name.
fn file_title(instance: &std::path::Path) -> String {
    instance.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()
}

/// Writes every frame to `frames` (if given) and the last one to `output` (or standard output
/// when there is no `frames`); with `--json`, then reports what was written (a picture for
/// standard output goes into the report instead).
fn emit_frames(
    pictures: &[String],
    stem: &str,
    frames: Option<&std::path::Path>,
    output: Option<&std::path::Path>,
    quiet: bool,
    report: Option<Report>,
) -> anyhow::Result<ExitCode> {
    let mut fields = report.as_ref().map_or(serde_json::Value::Null, |r| r.fields.clone());
    if let Some(dir) = frames {
        let written = gamecert::base::svg::write_frames(dir, stem, pictures)
            .map_err(|e| BadInput(format!("{}: {e}", dir.display())))?;
        let counted = gamecert_certificates::base::text::counted(written.len() as u64, "frame");
        note(quiet, &format!("{counted} in {}", dir.display()));
        fields["frames"] = written.len().into();
        fields["frames_dir"] = gamecert_certificates::verify::shown(dir).into();
    }
    let last = pictures.last().expect("the start frame at least");
    if frames.is_none() || output.is_some() {
        crate::cli::write_report(output, last, report.is_some(), &mut fields, "picture")?;
    }
    if let Some(report) = report {
        let token = if fields.get("claim").is_some() { "accepted" } else { "unchecked" };
        let picture =
            if last.starts_with("<svg") || last.starts_with("<?xml") { "svg" } else { "dot" };
        fields["picture_format"] = picture.into();
        let what = if picture == "svg" { "an SVG picture" } else { "a DOT picture" };
        let summary = match fields["frames"].as_u64() {
            Some(count) if output.is_none() => format!("{what} in each of {count} frames"),
            _ => crate::cli::written_summary(what, &fields, "picture"),
        };
        crate::cli::print_json("render", token, &summary, report.started, fields)?;
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
    mut report: Option<Report>,
) -> anyhow::Result<ExitCode> {
    let title = file_title(instance);
    let cert = match certificate {
        None => None,
        Some(path) => {
            let cert = read_certificate(path)?;
            if !matches!(cert, Certificate::FlipValue(_) | Certificate::FlipSequence(_)) {
                return Err(BadInput(format!(
                    "{}: a {} certificate has no flips to draw (flip-value and flip-sequence have)",
                    path.display(),
                    cert.kind()
                ))
                .into());
            }
            // Only a play the checker accepts is drawn; a rejection says why, exit code 1.
            let verdict = check(&Instance::FlipGame(spec.clone()), &cert, &Limits::default());
            if !verdict.accepted {
                return rejected(&verdict, report.as_ref());
            }
            if let Some(report) = &mut report {
                report.fields["claim"] = verdict.claim.into();
            }
            Some(cert)
        }
    };
    let drawing = gamecert::triangulations::flip_render::frames(spec, cert.as_ref(), &title)
        .map_err(|e| BadInput(format!("{}: {e}", instance.display())))?;
    if let Some(summary) = &drawing.summary {
        note(quiet, summary);
    }
    emit_frames(&drawing.frames, "flip", frames, output, quiet, report)
}

fn witness_placement(
    game: &gamecert_certificates::format::OneRound,
    path: &Path,
) -> anyhow::Result<Vec<usize>> {
    let cert = read_certificate(path)?;
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
    let Args { instance, format, certificate, frames, output, json } = args;
    let mut report =
        json.then(|| Report { started: std::time::Instant::now(), fields: serde_json::json!({}) });
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
                report,
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
                report,
            );
        }
        let format = format.unwrap_or(match output.as_deref().and_then(Path::extension) {
            _ if frames.is_some() => RenderFormat::Svg,
            Some(ext) if ext == "svg" => RenderFormat::Svg,
            _ => RenderFormat::Dot,
        });
        if frames.is_some() && matches!(format, RenderFormat::Dot) {
            return Err(BadInput("--frames writes SVG pictures: drop --format dot".into()).into());
        }
        let title = file_title(&instance);
        let pictures = match parsed {
            Instance::VoronoiOneRound(spec) => {
                if frames.is_some() {
                    return Err(BadInput(
                        "--frames draws a play; a one-round game is one placement (drop --frames)"
                            .into(),
                    )
                    .into());
                }
                let game = validate_one_round(&instance, &spec)?;
                let black = match &certificate {
                    None => Vec::new(),
                    Some(path) => witness_placement(&game, path)?,
                };
                vec![draw(format, &game.graph, &game.white, &black, &title)?]
            }
            Instance::Voronoi(spec) => {
                let game = spec
                    .validate()
                    .map_err(|e| BadInput(format!("{}: {e}", instance.display())))?;
                let line = match &certificate {
                    None => None,
                    Some(path) => match voronoi_line(&spec, &game, path)? {
                        Ok((line, claim)) => {
                            if let Some(report) = &mut report {
                                report.fields["claim"] = claim.into();
                                report.fields["moves"] = line.moves.len().into();
                            }
                            Some(line)
                        }
                        Err(verdict) => return rejected(&verdict, report.as_ref()),
                    },
                };
                let (line, drawn, certified) = match line {
                    None => (Vec::new(), String::new(), String::new()),
                    Some(l) => (l.moves, l.drawn, l.certified),
                };
                let mut position = game.start.clone();
                let mut pictures = Vec::with_capacity(line.len() + 1);
                let picture = match format {
                    RenderFormat::Svg => Some(
                        gamecert::base::graph_svg::VoronoiPicture::new(&game.graph)
                            .map_err(|e| BadInput(format!("{}: {e}", instance.display())))?
                            .with_note(&format!("{drawn} {certified}")),
                    ),
                    RenderFormat::Dot => None,
                };
                let mut push = |position: &[u8], caption: String| -> anyhow::Result<()> {
                    let owned = |c: u8| -> Vec<usize> {
                        (0..position.len()).filter(|&v| position[v] == c).collect()
                    };
                    let (w, b) = (owned(b'W'), owned(b'B'));
                    pictures.push(match &picture {
                        Some(picture) => picture.draw(&w, &b, &caption),
                        None => gamecert::base::render::to_dot(&game.graph, &w, &b, &caption),
                    });
                    Ok(())
                };
                push(&position, format!("{title}: the start"))?;
                for (k, &(mover, v)) in line.iter().enumerate() {
                    position[v] = if mover == Player::White { b'W' } else { b'B' };
                    let who = if mover == Player::White { "W" } else { "B" };
                    let caption = format!(
                        "{title}: move {} of {}, {who} takes {}",
                        k + 1,
                        line.len(),
                        game.graph.name(v)
                    );
                    push(&position, caption)?;
                }
                if !line.is_empty() {
                    let margin = gamecert_certificates::voronoi::multi_round::margin(
                        &game.graph,
                        &position,
                        Player::White,
                    );
                    if let Some(report) = &mut report {
                        report.fields["margin"] = margin.into();
                    }
                    let moves = gamecert_certificates::base::text::counted(line.len(), "move");
                    note(
                        quiet,
                        &format!(
                            "{moves}; this play ends with W's margin {margin}. {drawn} {certified}"
                        ),
                    );
                }
                pictures
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
        emit_frames(&pictures, "play", frames.as_deref(), output.as_deref(), quiet, report)
    }
}

/// One picture of a Voronoi position: DOT text for Graphviz, or a native SVG.
fn draw(
    format: RenderFormat,
    graph: &gamecert_certificates::base::graph::Graph,
    white: &[usize],
    black: &[usize],
    title: &str,
) -> anyhow::Result<String> {
    Ok(match format {
        RenderFormat::Dot => gamecert::base::render::to_dot(graph, white, black, title),
        RenderFormat::Svg => {
            gamecert::base::graph_svg::voronoi_svg(graph, white, black, title).map_err(BadInput)?
        }
    })
}

/// A play drawn from a certificate: the moves, whose play it is, and what the certificate
/// claims (which the play need not reach: an opponent without a strategy plays anything).
struct DrawnLine {
    moves: Vec<(Player, usize)>,
    drawn: String,
    certified: String,
}

/// The principal line of a multi-round strategy certificate at `path` and the claim the checker
/// accepted; `Err(the verdict)` when it rejected the certificate.
fn voronoi_line(
    spec: &gamecert_certificates::voronoi::instance::MultiRoundSpec,
    game: &gamecert_certificates::voronoi::instance::MultiRound,
    path: &Path,
) -> anyhow::Result<Result<(DrawnLine, String), gamecert_certificates::Verdict>> {
    use gamecert::voronoi::principal_line::{path_value_line, principal_line};
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi::multi_round::{check_strategy, StrategyClaim};
    let cert = read_certificate(path)?;
    // Only a play the checker accepts is drawn; a rejection says why, exit code 1.
    let verdict = check(&Instance::Voronoi(spec.clone()), &cert, &Limits::default());
    if !verdict.accepted {
        return Ok(Err(verdict));
    }
    let both = "Drawn: W and B follow the certificate's strategies (best play).";
    let value = |v: i64| format!("Certified value (W's margin under best play): {v}.");
    let (moves, drawn, certified) = match &cert {
        Certificate::VoronoiValue(v) => (
            principal_line(game, Some(&v.white), Some(&v.black)),
            both.to_string(),
            value(v.value),
        ),
        Certificate::VoronoiStrategy(s) => {
            let (me, other) = match s.player {
                Player::White => ("W", "B"),
                Player::Black => ("B", "W"),
            };
            let claim = match (s.claim, s.margin) {
                (StrategyClaim::Wins, _) => format!("{me} wins"),
                (StrategyClaim::AtLeastTies, _) => format!("{me} at least ties"),
                (StrategyClaim::MarginAtLeast, Some(k)) => format!("{me}'s margin is at least {k}"),
                (StrategyClaim::MarginAtLeast, None) => format!("{me}'s margin has a bound"),
            };
            // The replay the checker just accepted, once more for its least margin over every
            // reply: what the strategy guarantees, which the claim may understate.
            let least = check_strategy(
                &game.graph,
                game.rounds,
                &game.start,
                s,
                &mut Budget::new(Limits::default().max_work),
            )
            .ok()
            .and_then(|report| report.worst_margin);
            let guarantee = match least {
                Some(m) => format!("{claim}; {me}'s least margin over all replies is {m}"),
                None => claim,
            };
            (
                principal_line(
                    game,
                    (s.player == Player::White).then_some(s),
                    (s.player == Player::Black).then_some(s),
                ),
                format!(
                    "Drawn: {me} follows the certificate's strategy, {other} takes its \
                     lowest-numbered empty vertex (one reply of many, not best play)."
                ),
                format!("Certified: against every reply, {guarantee}."),
            )
        }
        Certificate::PathValue(v) => (path_value_line(game, v), both.to_string(), value(v.value)),
        other => {
            return Err(BadInput(format!(
                "{}: a {} certificate has no play to draw (voronoi-value, voronoi-strategy and voronoi-path-value have)",
                path.display(),
                other.kind()
            ))
            .into())
        }
    };
    let moves = moves
        .map_err(|e| anyhow::anyhow!("{}: drawing the principal line: {e}", path.display()))?;
    Ok(Ok((DrawnLine { moves, drawn, certified }, verdict.claim)))
}

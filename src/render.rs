//! What `gamecert render` draws, for any caller: a Voronoi game as DOT (for Graphviz) or native
//! SVG, a game on a point set as SVG; with a certificate the checker accepts, B's witness
//! placement or every position of the certificate's principal line. The command line writes
//! the frames to files; the Python package shows the last one in Jupyter.

use crate::base::io::BadInput;
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{Certificate, Instance, OneRound};
use gamecert_certificates::triangulations::flipping::FlipSpec;
use gamecert_certificates::triangulations::marking::MarkingSpec;
use gamecert_certificates::voronoi::instance::{MultiRound, MultiRoundSpec};
use gamecert_certificates::voronoi::rules::Player;
use gamecert_certificates::{check, Limits, Verdict};

/// How a Voronoi game is drawn (a game on points is always SVG).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// DOT text for Graphviz.
    Dot,
    /// A native SVG picture.
    Svg,
}

/// The pictures of a rendering: the start, then one per move of the drawn play (one picture
/// without a play), and a note on what was drawn.
#[derive(Clone, Debug)]
pub struct Drawing {
    pub frames: Vec<String>,
    pub note: Option<String>,
    /// The claim the checker accepted, when a certificate was drawn.
    pub claim: Option<String>,
    /// The moves of the drawn play (none without a certificate).
    pub moves: Option<usize>,
    /// W's margin at the end of a drawn Voronoi play.
    pub margin: Option<i64>,
    /// The frame that stands for the whole rendering ([`Drawing::picture`]); `None`: the last.
    pub shown: Option<usize>,
}

impl Drawing {
    /// Pictures without a certificate.
    fn unchecked(frames: Vec<String>, note: Option<String>) -> Drawing {
        Drawing { frames, note, claim: None, moves: None, margin: None, shown: None }
    }

    /// The one picture of the rendering (`render -o` without `--frames`, the Python package's):
    /// the end of the play where the end shows what was won (stones and cells, owned terms,
    /// the edges drawn, flips), the start with the certified first move marked where the end
    /// is an empty board (heaps, coins and vertex nim end with nothing left).
    pub fn picture(&self) -> &str {
        let last = self.frames.len().saturating_sub(1);
        self.frames.get(self.shown.unwrap_or(last).min(last)).map_or("", String::as_str)
    }
}

/// Why nothing was drawn.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The instance, the certificate or the request cannot be drawn.
    #[error(transparent)]
    Bad(#[from] BadInput),
    /// The checker rejected the certificate: only an accepted play is drawn.
    #[error("the certificate is rejected: {}", .0.reason)]
    Rejected(Box<Verdict>),
}

/// A certificate to draw and its name in messages (its file).
pub type Named<'c> = (&'c Certificate, &'c str);

/// Draws `instance` (named `name` in messages), with `certificate`'s play once the checker has
/// accepted it. `title` heads each picture (the command line uses the file name). A picture
/// whose size the instance declares rather than holds (a DNF game's start: a cell for every
/// declared variable, used or not) is sized first and refused past `allowance`
/// ([`crate::base::limits`]); with a certificate, its positions pay for their pictures.
pub fn draw(
    instance: &Instance,
    name: &str,
    certificate: Option<Named>,
    format: Format,
    title: &str,
    allowance: crate::base::limits::Allowance,
) -> Result<Drawing, RenderError> {
    // What render draws of each kind is registered once ([`crate::registry`]).
    if crate::registry::kind(instance.kind()).is_none_or(|k| k.pictures.is_empty()) {
        let why = format!(
            "{name}: a {} instance has no picture (`gamecert kinds` lists what render draws)",
            instance.kind()
        );
        return Err(BadInput(why).into());
    }
    let invalid = |e: gamecert_certificates::format::FormatError| BadInput(format!("{name}:{e}"));
    match instance {
        Instance::FlipGame(spec) => {
            instance.validate().map_err(invalid)?;
            draw_flip(spec, name, certificate, title)
        }
        Instance::MarkingGame(spec) => {
            instance.validate().map_err(invalid)?;
            if format == Format::Dot {
                let why = "a marking game is drawn on its points: use --format svg";
                return Err(BadInput(why.into()).into());
            }
            draw_marking(spec, certificate, title)
        }
        Instance::VoronoiOneRound(spec) => {
            let game = spec.validate().map_err(invalid)?;
            let black = match certificate {
                None => Vec::new(),
                Some(certificate) => witness_placement(&game, certificate)?,
            };
            let picture = picture(format, &game.graph, &game.white, &black, title)?;
            Ok(Drawing::unchecked(vec![picture], None))
        }
        Instance::Voronoi(spec) => {
            let game = spec.validate().map_err(invalid)?;
            draw_voronoi(spec, &game, name, certificate, format, title)
        }
        Instance::HeapGame(_)
        | Instance::CoinGame(_)
        | Instance::PosDnfGame(_)
        | Instance::TriangleAvoidance(_)
        | Instance::VertexNim(_) => {
            instance.validate().map_err(invalid)?;
            match certificate {
                Some(certificate) => draw_play(instance, certificate, title),
                None => draw_start(instance, name, title, allowance),
            }
        }
    }
}

/// Only a play the checker accepts is drawn: the claim it accepted.
fn accepted(instance: &Instance, certificate: &Certificate) -> Result<String, RenderError> {
    let verdict = check(instance, certificate, &Limits::default());
    if verdict.accepted() {
        Ok(verdict.claim)
    } else {
        Err(RenderError::Rejected(Box::new(verdict)))
    }
}

/// A `marking-game`: the points and triangulation, or with a `marking-strategy` its play (the
/// opponent colours the lowest-numbered legal edge).
fn draw_marking(
    spec: &MarkingSpec,
    certificate: Option<Named>,
    title: &str,
) -> Result<Drawing, RenderError> {
    let points = &spec.triangulation.points;
    let Some((certificate, path)) = certificate else {
        if points.len() > crate::base::svg::MAX_POINTS {
            // Too many to draw with their edges (issue 48, item 4): the points and their hull.
            let mut budget = gamecert_certificates::base::budget::Budget::new(u64::MAX);
            let edges = if spec.game.is_constructing() {
                0
            } else {
                spec.triangulation.validate(&mut budget).map_or(0, |t| t.edges.len())
            };
            let left_out = if edges == 0 {
                "Nothing else is left out: the game starts from the points alone".to_string()
            } else {
                format!(
                    "The triangulation's {} are left out",
                    crate::base::limits::grouped_count(edges, "edge")
                )
            };
            let set = crate::base::large_pictures::PointSet::Plane(points);
            let picture = crate::base::large_pictures::points_overview(set, title, &left_out);
            return Ok(Drawing::unchecked(vec![picture], None));
        }
        let frames = crate::base::render::marking_frames(spec, &[], title, "");
        return Ok(Drawing::unchecked(frames, None));
    };
    if let Certificate::MarkingKayles(_) = certificate {
        let claim = accepted(&Instance::MarkingGame(spec.clone()), certificate)?;
        return Ok(Drawing { claim: Some(claim), ..draw_heaps(spec, title)? });
    }
    let Certificate::MarkingStrategy(strategy) = certificate else {
        return Err(BadInput(format!(
            "{path}: a {} certificate has no play to draw (marking-strategy and \
             marking-kayles have)",
            certificate.kind()
        ))
        .into());
    };
    let claim = accepted(&Instance::MarkingGame(spec.clone()), certificate)?;
    let (play, first_won) = crate::base::render::marking_play(spec, strategy)
        .map_err(|e| BadInput(format!("{path}: {e}")))?;
    // One colour: the players are the first (F) and the second (S), not red and blue.
    let (winner, loser) = if strategy.winner == "first" {
        ("the first player (F)", "the second (S)")
    } else {
        ("the second player (S)", "the first (F)")
    };
    let drawn = format!(
        "Drawn: {winner} follows the certificate's winning strategy, {loser} colours the \
         lowest-numbered legal edge. Certified: {winner} wins."
    );
    let note = format!(
        "{}; this play ends with the {} player winning; certified: {winner} wins against every \
         reply",
        counted(play.len(), "move"),
        if first_won { "first" } else { "second" }
    );
    let frames = crate::base::render::marking_frames(spec, &play, title, &drawn);
    Ok(Drawing {
        frames,
        note: Some(note),
        claim: Some(claim),
        moves: Some(play.len()),
        margin: None,
        shown: None,
    })
}

/// A marking game in convex position as the heaps Theorem 1 or 2 makes of it (what a
/// `marking-kayles` certificate labels, issue 48, item 4): its heaps counted by size, saying
/// that the points and the triangulation are left out.
fn draw_heaps(spec: &MarkingSpec, title: &str) -> Result<Drawing, RenderError> {
    use gamecert_certificates::triangulations::convex_heaps::Reduction;
    let mut budget = gamecert_certificates::base::budget::Budget::new(u64::MAX);
    let reduction = Reduction::new(spec, &mut budget).map_err(BadInput)?;
    let game = match reduction.game {
        "kayles" => "Kayles",
        "0.07" => "Dawson's Kayles",
        other => other,
    };
    let grouped = crate::base::limits::grouped_count;
    let points = spec.triangulation.points.len();
    let heaps = &reduction.heaps;
    let largest = heaps.iter().copied().max().unwrap_or(0);
    let words = vec![
        format!(
            "{} in convex position: by {}, the game is {game} on {} (largest {largest}), drawn \
             by size.",
            grouped(points, "point"),
            reduction.theorem,
            grouped(heaps.len(), "heap")
        ),
        if spec.triangulation.triangles.is_empty() {
            "The points are left out.".to_string()
        } else {
            "The points and the triangulation are left out.".to_string()
        },
    ];
    let picture = crate::base::large_pictures::heaps_overview(heaps, title, &words);
    let note = format!("{game} on {} by {}", grouped(heaps.len(), "heap"), reduction.theorem);
    Ok(Drawing::unchecked(vec![picture], Some(note)))
}

/// A `flip-game` ([`crate::triangulations::flip_render`]), with a flip-value or flip-sequence.
fn draw_flip(
    spec: &FlipSpec,
    name: &str,
    certificate: Option<Named>,
    title: &str,
) -> Result<Drawing, RenderError> {
    let mut claim = None;
    let certificate = match certificate {
        None => None,
        Some((certificate, path)) => {
            if !matches!(certificate, Certificate::FlipValue(_) | Certificate::FlipSequence(_)) {
                return Err(BadInput(format!(
                    "{path}: a {} certificate has no flips to draw (flip-value and flip-sequence have)",
                    certificate.kind()
                ))
                .into());
            }
            claim = Some(accepted(&Instance::FlipGame(spec.clone()), certificate)?);
            Some(certificate)
        }
    };
    let drawing = crate::triangulations::flip_render::frames(spec, certificate, title)
        .map_err(|e| BadInput(format!("{name}: {e}")))?;
    Ok(Drawing {
        frames: drawing.frames,
        note: drawing.summary,
        claim,
        moves: None,
        margin: None,
        shown: None,
    })
}

/// The most frames a play drawn through the play library gets (its positions after that are
/// summed up in the note).
const MOST_PLAY_FRAMES: usize = 200;

/// A play drawn through the play library ([`crate::play`]), for the families whose pictures
/// are the play library's own ([`crate::play::Position::svg`]): the certified side follows the
/// checked strategy, the other plays its first legal move; each frame marks the move about to
/// be made, and the last shows the end.
fn draw_play(
    instance: &Instance,
    (certificate, path): Named,
    title: &str,
) -> Result<Drawing, RenderError> {
    use crate::play::{PlayError, Strategy};
    let strategy = match Strategy::checked(instance, certificate, &Limits::default()) {
        Ok(strategy) => strategy,
        Err(PlayError::Rejected { .. }) => {
            return Err(RenderError::Rejected(Box::new(check(
                instance,
                certificate,
                &Limits::default(),
            ))))
        }
        Err(PlayError::NoStrategy(why)) => {
            return Err(BadInput(format!("{path}: {why}: it has no play to draw")).into())
        }
        Err(PlayError::BadInput(why)) => return Err(BadInput(format!("{path}: {why}")).into()),
    };
    let certified = |side| strategy.certifies(side);
    let mut position = strategy.start();
    let mut frames = Vec::new();
    let mut moves = 0;
    while position.outcome().is_none() && frames.len() < MOST_PLAY_FRAMES {
        let mover = position.to_move();
        let (chosen, how) = match strategy.reply(&position).filter(|_| certified(mover)) {
            Some(reply) => (reply, "the certificate's move"),
            None => match position.legal_moves().into_iter().next() {
                Some(first) => (first, "the first legal move"),
                None => break,
            },
        };
        let who = strategy.side_name(mover);
        // The claim is the picture's note's (the family states it once, in the checker's
        // words): the caption says only what this frame shows.
        let caption = format!("{title}: move {}, {who} plays {chosen} ({how})", moves + 1);
        frames.push(position.svg(Some(&chosen), &caption));
        position = position.apply(&chosen);
        moves += 1;
    }
    let end = match position.outcome() {
        Some(outcome) => format!("{title}: the end of the drawn play: {}", outcome.result),
        None => format!("{title}: after {}", counted(moves, "move")),
    };
    frames.push(position.svg(None, &end));
    let claim = strategy.stated_claim().to_string();
    let note = format!(
        "{}; the certified side follows the certificate, the other plays its first legal move \
         (one reply of many); certified: {claim}",
        counted(moves, "move")
    );
    // Heaps, coins and vertex nim end with an empty board: their picture is the start, with
    // the first move marked.
    let empty_end =
        matches!(instance, Instance::HeapGame(_) | Instance::CoinGame(_) | Instance::VertexNim(_));
    Ok(Drawing {
        frames,
        note: Some(note),
        claim: Some(claim),
        moves: Some(moves),
        margin: None,
        shown: empty_end.then_some(0),
    })
}

/// Bytes the start picture of a DNF game holds per variable: measured 529 (peak resident
/// memory of `gamecert render` on `p dnf 1000000 1`, 2026-12-07).
pub const DNF_PICTURE_BYTES_PER_VARIABLE: u128 = 532;

/// The start position of a game the play library draws, without a certificate (nothing
/// claimed): heaps and coins from [`crate::impartial::pictures`], the DNF game, triangle
/// avoidance and vertex nim from [`crate::base::game_pictures`].
fn draw_start(
    instance: &Instance,
    name: &str,
    title: &str,
    allowance: crate::base::limits::Allowance,
) -> Result<Drawing, RenderError> {
    use crate::base::game_pictures as pictures;
    use crate::impartial::pictures::{coins_start_svg, heaps_start_svg};
    let caption = format!("{title}: the start");
    let board =
        |picture: Result<String, String>| picture.map_err(|e| BadInput(format!("{name}: {e}")));
    let frame = match instance {
        Instance::HeapGame(game) => board(heaps_start_svg(game, &caption))?,
        Instance::CoinGame(spec) => board(coins_start_svg(spec, &caption))?,
        Instance::PosDnfGame(dnf) => {
            allowance.admit(
                name,
                &format!(
                    "the formula declares {} (its `p dnf` header, or `num_vars`)",
                    crate::base::limits::grouped_count(dnf.num_vars, "variable")
                ),
                "the picture, a cell a variable,",
                u128::from(dnf.num_vars) * DNF_PICTURE_BYTES_PER_VARIABLE,
            )?;
            let start = vec![b'.'; dnf.num_vars as usize];
            pictures::dnf_svg(dnf, &start, None, &caption, &pictures::dnf_note(dnf, &start, None))
        }
        Instance::TriangleAvoidance(spec) => {
            let note = pictures::triangle_note(spec.n, 0, false, None);
            pictures::triangle_svg(spec.n, &[], None, &caption, &note)
        }
        Instance::VertexNim(spec) => {
            let game = spec.validate().map_err(|e| BadInput(format!("{name}: {e}")))?;
            let over = game.move_count(&game.start) == 0;
            let note = pictures::vertexnim_note(&game, over, true, None);
            pictures::vertexnim_svg(&game, &game.start, None, &caption, &note)
        }
        other => {
            return Err(BadInput(format!(
                "{name}: a {} instance is drawn with a certificate (--certificate)",
                other.kind()
            ))
            .into())
        }
    };
    Ok(Drawing::unchecked(vec![frame], None))
}

/// B's placement in a one-round witness.
fn witness_placement(game: &OneRound, (certificate, path): Named) -> Result<Vec<usize>, BadInput> {
    let Certificate::Witness(w) = certificate else {
        return Err(BadInput(format!("{path}: only a witness has a placement to draw")));
    };
    w.placement
        .iter()
        .map(|name| {
            game.graph
                .vertex(name)
                .ok_or_else(|| BadInput(format!("{path}: unknown vertex '{name}'")))
        })
        .collect()
}

/// One picture of a Voronoi position: DOT text for Graphviz, or a native SVG.
fn picture(
    format: Format,
    graph: &Graph,
    white: &[usize],
    black: &[usize],
    title: &str,
) -> Result<String, BadInput> {
    Ok(match format {
        Format::Dot => crate::base::render::to_dot(graph, white, black, title),
        Format::Svg => {
            crate::base::graph_svg::voronoi_svg(graph, white, black, title).map_err(BadInput)?
        }
    })
}

/// A multi-round Voronoi game: the start, and with a strategy certificate every position of
/// its principal line.
fn draw_voronoi(
    spec: &MultiRoundSpec,
    game: &MultiRound,
    name: &str,
    certificate: Option<Named>,
    format: Format,
    title: &str,
) -> Result<Drawing, RenderError> {
    let line = certificate.map(|c| voronoi_line(spec, game, c)).transpose()?;
    let (line, drawn, certified, claim) = match line {
        None => (Vec::new(), String::new(), String::new(), None),
        Some(l) => (l.moves, l.drawn, l.certified, Some(l.claim)),
    };
    let mut position = game.start.clone();
    let mut frames = Vec::with_capacity(line.len() + 1);
    let svg = match format {
        Format::Svg => Some(
            crate::base::graph_svg::VoronoiPicture::new(&game.graph)
                .map_err(|e| BadInput(format!("{name}: {e}")))?
                .with_note(&format!("{drawn} {certified}")),
        ),
        Format::Dot => None,
    };
    let mut push = |position: &[u8], caption: String| {
        let owned =
            |c: u8| -> Vec<usize> { (0..position.len()).filter(|&v| position[v] == c).collect() };
        let (w, b) = (owned(b'W'), owned(b'B'));
        frames.push(match &svg {
            Some(svg) => svg.draw(&w, &b, &caption),
            None => crate::base::render::to_dot(&game.graph, &w, &b, &caption),
        });
    };
    push(&position, format!("{title}: the start"));
    for (k, &(mover, v)) in line.iter().enumerate() {
        position[v] = if mover == Player::White { b'W' } else { b'B' };
        let who = if mover == Player::White { "W" } else { "B" };
        let caption = format!(
            "{title}: move {} of {}, {who} takes {}",
            k + 1,
            line.len(),
            game.graph.name(v)
        );
        push(&position, caption);
    }
    let margin = (!line.is_empty()).then(|| {
        gamecert_certificates::voronoi::multi_round::margin(&game.graph, &position, Player::White)
    });
    let note = margin.map(|margin| {
        format!(
            "{}; this play ends with W's margin {margin}. {drawn} {certified}",
            counted(line.len(), "move")
        )
    });
    let moves = claim.as_ref().map(|_| line.len());
    Ok(Drawing { frames, note, claim, moves, margin, shown: None })
}

/// A play drawn from a certificate: the moves, whose play it is, and what the certificate
/// claims (which the play need not reach: an opponent without a strategy plays anything).
struct DrawnLine {
    moves: Vec<(Player, usize)>,
    drawn: String,
    certified: String,
    /// The claim the checker accepted.
    claim: String,
}

/// The principal line of a multi-round strategy certificate, once the checker has accepted it.
fn voronoi_line(
    spec: &MultiRoundSpec,
    game: &MultiRound,
    (cert, path): Named,
) -> Result<DrawnLine, RenderError> {
    use crate::voronoi::principal_line::{path_value_line, principal_line};
    use gamecert_certificates::base::budget::Budget;
    use gamecert_certificates::voronoi::multi_round::{check_strategy, StrategyClaim};
    let claim = accepted(&Instance::Voronoi(spec.clone()), cert)?;
    let both = "Drawn: W and B follow the certificate's strategies (best play).";
    let value = |v: i64| format!("Certified value (W's margin under best play): {v}.");
    let (moves, drawn, certified) = match cert {
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
                "{path}: a {} certificate has no play to draw (voronoi-value, voronoi-strategy and voronoi-path-value have)",
                other.kind()
            ))
            .into())
        }
    };
    let moves = moves.map_err(|e| BadInput(format!("{path}: drawing the principal line: {e}")))?;
    Ok(DrawnLine { moves, drawn, certified, claim })
}

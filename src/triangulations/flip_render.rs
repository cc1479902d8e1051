//! `gamecert render` for `flip-game` instances: the triangulation as SVG ([`crate::base::svg`])
//! and, with a certificate, its play as numbered frames. A `flip-sequence` is drawn flip by flip;
//! a `flip-value` plays its strategies against each other (a side without a strategy flips the
//! first legal edge in sorted order). Each new edge is labelled with its move number. The play
//! is made with the checker's rules, and an illegal move is an error naming it; every frame says
//! whose play it draws and the certificate's claim, and the summary gives the payoff the drawn
//! play ends at beside the certified value (they differ when a side has no strategy).
//!
//! An abstract convex polygon (`convex_polygon: n`) is drawn on a circle in its cyclic order,
//! which is all its orientations are.

use crate::base::large_pictures::{points_overview, PointSet};
use crate::base::limits::grouped_count;
use crate::base::svg::{Colour, Frame, Sheet, Stroke, MAX_POINTS};
use crate::triangulations::flipping::mover_colour;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::triangulations::flipping::{
    final_payoff, immediate_payoff, setup, Board, FlipGame, FlipSpec, Shape,
};
use std::collections::HashMap;

/// The frames of a flip game and what they show.
pub struct FlipDrawing {
    /// The start, then one frame per move.
    pub frames: Vec<String>,
    /// One line on the drawn play: its length, how it ends, the certified claim.
    pub summary: Option<String>,
}

fn frame(board: &Board, labels: &HashMap<[usize; 2], usize>, red: bool, title: String) -> Frame {
    let mut strokes: Vec<Stroke> = board
        .edges
        .iter()
        .map(|(k, s)| {
            let edge = [k[0] as usize, k[1] as usize];
            let colour = match s.colour {
                1 if red => Colour::Red,
                1 => Colour::Green,
                2 => Colour::Blue,
                _ => Colour::Black,
            };
            Stroke { edge, colour, label: labels.get(&edge).map(|m| m.to_string()) }
        })
        .collect();
    // Labels are placed in stroke order: by move number, so that a label keeps its place from
    // frame to frame.
    strokes.sort_by_key(|s| (labels.get(&s.edge).copied().unwrap_or(0), s.edge));
    Frame { strokes, title }
}

/// The first player's payoff, with what it means.
fn payoff(game: FlipGame, value: i64) -> String {
    let meaning = match (game, value) {
        (FlipGame::BichromaticFlipping, _) => "red minus blue edges",
        (_, 1) => "the first player wins",
        (_, -1) => "the second player wins",
        (_, 0) => "a tie",
        _ => "the first player's payoff",
    };
    format!("{value} ({meaning})")
}

/// The frames: the start, then one per move. `certificate` should have been accepted by the
/// checker: the notes state its claim.
pub fn frames(
    spec: &FlipSpec,
    certificate: Option<&Certificate>,
    title: &str,
) -> Result<FlipDrawing, String> {
    let (shape, mut board) = setup(spec, &mut Budget::new(u64::MAX))?;
    if shape.len() > MAX_POINTS {
        return Ok(overview(&shape, &board, certificate, title));
    }
    let red = spec.game == FlipGame::BichromaticFlipping;
    let (first, second) = if red { ("R", "B") } else { ("the first player", "the second player") };
    let mut labels = HashMap::new();
    let mut out = vec![frame(&board, &labels, red, format!("{title}: start"))];
    let (moves, note, summary): (Vec<[usize; 2]>, String, Option<String>) = match certificate {
        None => (Vec::new(), String::new(), None),
        Some(Certificate::FlipSequence(s)) => {
            // What the sequence reaches, in the game's terms (Green-Wins: a win or not).
            let total = board.edges.len();
            let outcome = match spec.game {
                FlipGame::GreenWins if 2 * s.green > total => ": more green than black",
                FlipGame::GreenWins => ": no more green than black",
                _ if s.green == total => ": every edge green",
                _ => "",
            };
            let claim = format!(
                "{}: the certificate's {} {} with {} of {total} edges green{outcome}",
                spec.game,
                counted(s.flips.len(), "flip"),
                if s.flips.len() == 1 { "ends" } else { "end" },
                s.green
            );
            (
                s.flips.clone(),
                format!("Drawn: {claim}."),
                Some(format!(
                    "{}; {} green (certified)",
                    counted(s.flips.len(), "flip"),
                    counted(s.green, "edge")
                )),
            )
        }
        Some(Certificate::FlipValue(v)) => {
            let table = |s: &Option<Vec<(String, [usize; 2])>>| -> HashMap<String, [usize; 2]> {
                s.iter().flatten().cloned().collect()
            };
            let (first_table, second_table) = (table(&v.first), table(&v.second));
            let mut b = board.clone();
            let mut line = Vec::new();
            let mut first_to_move = true;
            let end = loop {
                let Some(&fallback) = b.moves(&shape).first() else {
                    break final_payoff(spec.game, &b, first_to_move);
                };
                let pos = b.position(shape.len());
                let own = if first_to_move { &first_table } else { &second_table };
                let e = own.get(&pos).copied().unwrap_or(fallback);
                let f = b.play(&shape, spec.game, e, mover_colour(spec.game, first_to_move))?;
                line.push(e);
                if let Some(p) = immediate_payoff(spec.game, &f, first_to_move) {
                    break p;
                }
                first_to_move = !first_to_move;
            };
            let plays = |who: &str, strategy: bool| {
                if strategy {
                    format!("{who} follows the certificate's strategy")
                } else {
                    format!("{who} (no strategy in the certificate) flips the first legal edge")
                }
            };
            let note = format!(
                "Drawn: {}, {}. Certified value: {}.",
                plays(first, v.first.is_some()),
                plays(second, v.second.is_some()),
                payoff(spec.game, v.value)
            );
            let summary = format!(
                "{}; the drawn play ends at {}; the certified value is {}",
                counted(line.len(), "flip"),
                payoff(spec.game, end),
                payoff(spec.game, v.value)
            );
            (line, note, Some(summary))
        }
        Some(other) => return Err(format!("a {} certificate has no flips to draw", other.kind())),
    };
    let n = moves.len();
    for (k, &e) in moves.iter().enumerate() {
        let f = board
            .play(&shape, spec.game, e, mover_colour(spec.game, k % 2 == 0))
            .map_err(|why| format!("move {} ({}-{}): {why}", k + 1, e[0], e[1]))?;
        labels.insert(f.new, k + 1);
        let title = format!(
            "{title}: move {} of {n}, flip {}-{} to {}-{}",
            k + 1,
            e[0],
            e[1],
            f.new[0],
            f.new[1]
        );
        out.push(frame(&board, &labels, red, title));
    }
    let mut sheet = if spec.convex_polygon.is_some() {
        Sheet::of_convex_polygon(shape.len())
    } else {
        Sheet::of_points(&spec.points)
    };
    if !note.is_empty() {
        sheet = sheet.with_note(note);
    }
    Ok(FlipDrawing { frames: sheet.draw(&out), summary })
}

/// A flip game of more than [`MAX_POINTS`] points (issue 48, item 4): one picture of its points
/// and their hull, saying that the edges and the flips are left out.
fn overview(
    shape: &Shape,
    board: &Board,
    certificate: Option<&Certificate>,
    title: &str,
) -> FlipDrawing {
    let points = match shape {
        Shape::Points(points) => PointSet::Plane(points),
        Shape::Convex(n) => PointSet::ConvexPolygon(*n),
    };
    let edges = grouped_count(board.edges.len(), "edge");
    let (left_out, summary) = match certificate {
        Some(Certificate::FlipSequence(s)) => (
            format!(
                "The triangulation's {edges} and the certificate's {} are left out",
                grouped_count(s.flips.len(), "flip")
            ),
            Some(format!(
                "{}; {} green (certified); too many points to draw the flips",
                counted(s.flips.len(), "flip"),
                counted(s.green, "edge")
            )),
        ),
        Some(_) => (format!("The triangulation's {edges} and the play are left out"), None),
        None => (format!("The triangulation's {edges} are left out"), None),
    };
    let picture = points_overview(points, &format!("{title}: start"), &left_out);
    FlipDrawing { frames: vec![picture], summary }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::triangulations::flipping::FlipSequence;

    fn convex_all_green(abstract_convex: bool) -> FlipSpec {
        crate::triangulations::flipping::gen_instance(
            crate::triangulations::generate::Kind::Convex,
            8,
            0,
            1,
            FlipGame::AllGreen,
            abstract_convex,
        )
        .unwrap()
    }

    #[test]
    fn a_sequence_gives_one_frame_per_flip() {
        let spec = convex_all_green(false);
        let (seq, _) = crate::triangulations::solitaire::solve(&spec, false).unwrap();
        let n = seq.flips.len();
        let drawing = frames(&spec, Some(&Certificate::FlipSequence(seq)), "t").unwrap();
        assert_eq!(drawing.frames.len(), n + 1);
        assert!(drawing.frames[n].contains("#1a9641"));
        assert!(drawing.frames[n].contains(&format!("move {n} of {n}")));
        let bad = FlipSequence { flips: vec![[0, 1]], green: 0 };
        let err = frames(&spec, Some(&Certificate::FlipSequence(bad)), "t").err().unwrap();
        assert!(err.starts_with("move 1 (0-1)"), "{err}");
    }

    /// An abstract convex polygon has no coordinates, but its cyclic order is its order type:
    /// it is drawn on a circle, and says so.
    #[test]
    fn an_abstract_convex_polygon_is_drawn_on_a_circle() {
        let drawing = frames(&convex_all_green(true), None, "t").unwrap();
        assert_eq!(drawing.frames.len(), 1);
        assert_eq!(drawing.frames[0].matches("<circle").count(), 8);
        assert!(drawing.frames[0].contains("same cyclic order"));
    }
}

//! `gamecert render` for `flip-game` instances: the triangulation as SVG ([`crate::base::svg`]) and,
//! with a certificate, its play as numbered frames. A `flip-sequence` is drawn flip by flip; a
//! `flip-value` plays its strategies against each other (a side without a strategy flips the
//! first legal edge). Each new edge is labelled with its move number. The play is made with the
//! checker's rules, and an illegal move is an error naming it.

use crate::base::svg::{Colour, Picture, Stroke};
use crate::triangulations::flipping::mover_colour;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::Certificate;
use gamecert_certificates::triangulations::flipping::{immediate_payoff, setup, Board, FlipSpec};
use std::collections::HashMap;

fn picture(
    points: &[[i64; 2]],
    board: &Board,
    labels: &HashMap<[usize; 2], usize>,
    red: bool,
    title: String,
) -> String {
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
    strokes.sort_by_key(|s| s.edge);
    Picture { points, strokes, title }.to_svg()
}

/// The frames: the start, then one per move.
pub fn frames(
    spec: &FlipSpec,
    certificate: Option<&Certificate>,
    title: &str,
) -> Result<Vec<String>, String> {
    if spec.convex_polygon.is_some() {
        return Err("an abstract convex polygon has no coordinates to draw".into());
    }
    let (shape, mut board) = setup(spec, &mut Budget::new(u64::MAX))?;
    let points = spec.points.clone();
    let red =
        spec.game == gamecert_certificates::triangulations::flipping::FlipGame::BichromaticFlipping;
    let mut labels = HashMap::new();
    let mut out = vec![picture(&points, &board, &labels, red, format!("{title}: start"))];
    let moves: Vec<[usize; 2]> = match certificate {
        None => Vec::new(),
        Some(Certificate::FlipSequence(s)) => s.flips.clone(),
        Some(Certificate::FlipValue(v)) => {
            let table = |s: &Option<Vec<(String, [usize; 2])>>| -> HashMap<String, [usize; 2]> {
                s.iter().flatten().cloned().collect()
            };
            let (first, second) = (table(&v.first), table(&v.second));
            let mut b = board.clone();
            let mut line = Vec::new();
            let mut first_to_move = true;
            while let Some(&fallback) = b.moves(&shape).first() {
                let pos = b.position(shape.len());
                let own = if first_to_move { &first } else { &second };
                let e = own.get(&pos).copied().unwrap_or(fallback);
                let f = b.play(&shape, spec.game, e, mover_colour(spec.game, first_to_move))?;
                line.push(e);
                if immediate_payoff(spec.game, &f, first_to_move).is_some() {
                    break;
                }
                first_to_move = !first_to_move;
            }
            line
        }
        Some(other) => return Err(format!("a {} certificate has no flips to draw", other.kind())),
    };
    for (k, &e) in moves.iter().enumerate() {
        let f = board
            .play(&shape, spec.game, e, mover_colour(spec.game, k % 2 == 0))
            .map_err(|why| format!("move {} ({}-{}): {why}", k + 1, e[0], e[1]))?;
        labels.insert(f.new, k + 1);
        out.push(picture(
            &points,
            &board,
            &labels,
            red,
            format!("{title}: move {}, flip {}-{} to {}-{}", k + 1, e[0], e[1], f.new[0], f.new[1]),
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::triangulations::flipping::{FlipGame, FlipSequence};

    #[test]
    fn a_sequence_gives_one_frame_per_flip() {
        let spec = crate::triangulations::flipping::gen_instance(
            crate::triangulations::generate::Kind::Convex,
            8,
            0,
            1,
            FlipGame::AllGreen,
            false,
        )
        .unwrap();
        let (seq, _) = crate::triangulations::solitaire::solve(&spec, false).unwrap();
        let n = seq.flips.len();
        let frames = frames(&spec, Some(&Certificate::FlipSequence(seq)), "t").unwrap();
        assert_eq!(frames.len(), n + 1);
        assert!(frames[n].contains("#1a9641"));
        let bad = FlipSequence { flips: vec![[0, 1]], green: 0 };
        let err = frames_err(&spec, bad);
        assert!(err.starts_with("move 1 (0-1)"), "{err}");
    }

    fn frames_err(spec: &FlipSpec, s: FlipSequence) -> String {
        frames(spec, Some(&Certificate::FlipSequence(s)), "t").unwrap_err()
    }
}

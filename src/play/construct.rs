//! The games on points with scores or ties (`construct-strategy`: the complete-triangulation
//! games, bichromatic triangle, bichromatic coloring), played in point numbers on the checker's
//! own rules ([`gamecert_certificates::triangulations::constructing::step`]).
//!
//! Notation: a move is a segment (an edge of the triangulation in bichromatic coloring) `a-b`
//! between points a and b, numbered from 0 as in the instance. A position is its segments,
//! `drawn: 0-1, 1-2` in the monochromatic game and `red: 0-1  blue: 1-2` in the bichromatic
//! ones (R, the first player, draws red); in the scored games R's margin so far follows,
//! `; margin 1` (in the monochromatic game it depends on who completed each triangle, not on
//! the segments alone), and `(first to move)` or `(second to move)` when a completion kept
//! the turn.
//!
//! The certificate holds R's strategy with a lower bound on the value, B's with an upper bound,
//! or both; each lists its player's segment by position, the table the checker replayed.
//!
//! Pictures ([`crate::triangulations::play_pictures`]): R's segments red, B's blue (green when
//! monochromatic); a legal segment not yet drawn is a faint dotted line, clicked to draw it.

use super::{brief, pair, signed, turn_suffix, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{ConstructStrategy, MarkingSpec};
use gamecert_certificates::triangulations::constructing::{
    bichromatic, describe, legal, scored, step, Pos, Step,
};
use gamecert_certificates::triangulations::marking::{MarkingGame, Rules};
use std::collections::HashMap;

/// A strategy's segment by position, keyed by the (red, blue) masks.
type Table = HashMap<(u64, u64), usize>;

pub(crate) struct Construct {
    rules: Rules,
    /// Each edge's two points, in the rules' edge order.
    ends: Vec<[usize; 2]>,
    /// Each side's bound (R's at least, B's at most) and table, by (red, blue) masks.
    first: Option<(i64, Table)>,
    second: Option<(i64, Table)>,
    /// The instance's points, for pictures, and whether moves draw new segments.
    points: Vec<gamecert_certificates::triangulations::geometry::Point>,
    constructing: bool,
    /// The certificate's claim in words.
    claim: String,
}

/// The segments and the turn, R's margin so far, and whether the game has stopped early.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    pos: Pos,
    margin: i64,
    over: bool,
}

/// A strategy's table keyed as the checker keys it (hexadecimal masks, `red/blue` when
/// bichromatic).
fn table(game: MarkingGame, moves: &[(String, usize)]) -> Result<Table, String> {
    let hex = |t: &str| u64::from_str_radix(t, 16).map_err(|_| format!("bad mask '{t}'"));
    let mut out = HashMap::new();
    for (text, e) in moves {
        let key = if bichromatic(game) {
            let (r, b) = text.split_once('/').ok_or(format!("bad position '{text}'"))?;
            (hex(r)?, hex(b)?)
        } else {
            (hex(text)?, 0)
        };
        out.insert(key, *e);
    }
    Ok(out)
}

impl Construct {
    pub(crate) fn new(spec: &MarkingSpec, cert: &ConstructStrategy) -> Result<Construct, String> {
        let mut budget = Budget::unlimited();
        let rules = Rules::from_spec(spec, &mut budget)?;
        let ends = super::marking::segments(spec, &mut budget)?;
        let game = spec.game;
        let first = match &cert.first {
            Some(f) => Some((f.at_least, table(game, &f.moves)?)),
            None => None,
        };
        let second = match &cert.second {
            Some(s) => Some((s.at_most, table(game, &s.moves)?)),
            None => None,
        };
        let points = spec.triangulation.points.clone();
        let constructing = game.is_constructing();
        let claim = gamecert_certificates::triangulations::constructing::claim(game, cert);
        Ok(Construct { rules, ends, first, second, points, constructing, claim })
    }

    fn two(&self) -> bool {
        bichromatic(self.rules.game)
    }

    fn names(&self, mask: u64) -> String {
        (0..self.ends.len())
            .filter(|&e| mask >> e & 1 == 1)
            .map(|e| format!("{}-{}", self.ends[e][0], self.ends[e][1]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn edge(&self, text: &str) -> Result<usize, String> {
        pair(text)
            .and_then(|p| self.ends.iter().position(|&e| e == p))
            .ok_or_else(|| format!("'{text}' is not a segment of the board: write it `a-b`"))
    }

    fn mask(&self, list: &str) -> Result<u64, String> {
        let mut mask = 0u64;
        for word in words(list) {
            let e = self.edge(word)?;
            if mask >> e & 1 == 1 {
                return Err(format!("segment {word} is listed twice"));
            }
            mask |= 1 << e;
        }
        Ok(mask)
    }
}

/// Who moves after `drawn` segments when every move passes the turn.
fn parity(drawn: u64) -> bool {
    drawn.count_ones().is_multiple_of(2)
}

impl Family for Construct {
    type State = State;
    type Move = usize;

    fn start(&self) -> State {
        State { pos: Pos::START, margin: 0, over: false }
    }

    fn to_move(&self, state: &State) -> Side {
        if state.pos.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, state: &State) -> Vec<usize> {
        legal(&self.rules, state.pos)
    }

    fn apply(&self, state: &State, &e: &usize) -> State {
        let sign = if state.pos.first_to_move { 1 } else { -1 };
        match step(&self.rules, state.pos, e) {
            Step::Go { gain, next } => {
                State { pos: next, margin: state.margin + sign * gain, over: false }
            }
            Step::End { gain } => {
                let mut last = state.pos;
                if self.two() && !last.first_to_move {
                    last.blue |= 1 << e;
                } else {
                    last.red |= 1 << e;
                }
                State { pos: last, margin: state.margin + sign * gain, over: true }
            }
        }
    }

    fn write_move(&self, _: &State, &e: &usize) -> String {
        format!("{}-{}", self.ends[e][0], self.ends[e][1])
    }

    fn read_move(&self, state: &State, text: &str) -> Result<usize, String> {
        let e = self.edge(text)?;
        if state.pos.drawn() >> e & 1 == 1 {
            return Err(format!("segment {text} is drawn already"));
        }
        if !self.moves(state).contains(&e) {
            return Err(format!("segment {text} crosses a drawn segment"));
        }
        Ok(e)
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move draws a segment `a-b` between two points (numbered from 0) that crosses no \
             segment drawn; the game is {}{}",
            self.rules.game,
            if self.two() { ", R drawing red and B blue" } else { "" }
        )
    }

    fn write_position(&self, state: &State) -> String {
        let pos = state.pos;
        let mut text = if self.two() {
            format!("red: {}  blue: {}", self.names(pos.red), self.names(pos.blue))
        } else {
            format!("drawn: {}", self.names(pos.red))
        };
        if scored(self.rules.game) {
            text.push_str(&format!("; margin {}", state.margin));
        }
        if pos.first_to_move != parity(pos.drawn()) && !state.over {
            text.push_str(if pos.first_to_move { " (first to move)" } else { " (second to move)" });
        }
        text
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let (text, turn) = turn_suffix(text)?;
        let (segments, margin) = match text.split_once(';') {
            Some((segments, margin)) => (segments, Some(margin.trim())),
            None => (text, None),
        };
        let margin = match (scored(self.rules.game), margin) {
            (true, Some(m)) => m
                .strip_prefix("margin")
                .and_then(|m| m.trim().parse::<i64>().ok())
                .ok_or(format!("'{m}': R's margin is written `margin 1`"))?,
            (true, None) => {
                return Err(
                    "a scored game's position ends with R's margin so far, `; margin 0`".into()
                )
            }
            (false, Some(m)) => return Err(format!("'{m}': this game has no score")),
            (false, None) => 0,
        };
        let segments = segments.trim();
        let (red, blue) = if self.two() {
            let (Some(r), Some(b)) = (segments.find("red:"), segments.find("blue:")) else {
                return Err(
                    "a position is written `red: 0-1  blue: 1-2` (each side's segments)".into()
                );
            };
            let (red, blue) = if r < b {
                (&segments[r + 4..b], &segments[b + 5..])
            } else {
                (&segments[r + 4..], &segments[b + 5..r])
            };
            (self.mask(red)?, self.mask(blue)?)
        } else {
            let list = segments
                .strip_prefix("drawn:")
                .ok_or("a position is written `drawn: 0-1, 1-2` (the segments drawn)")?;
            (self.mask(list)?, 0)
        };
        if red & blue != 0 {
            return Err("a segment is both red and blue".into());
        }
        let drawn = red | blue;
        let crossing = (0..self.ends.len())
            .filter(|&e| drawn >> e & 1 == 1)
            .find(|&e| !self.rules.legal(drawn & !(1 << e)).contains(&e));
        if let Some(e) = crossing {
            return Err(format!(
                "segment {} crosses another drawn segment",
                self.write_move(&self.start(), &e)
            ));
        }
        let first_to_move = turn.map_or(parity(drawn), |side| side == Side::First);
        Ok(State { pos: Pos { red, blue, first_to_move }, margin, over: false })
    }

    fn draw(&self, state: &State) -> String {
        let pos = state.pos;
        let list = |mask: u64| -> String {
            let names: Vec<String> = (0..self.ends.len())
                .filter(|&e| mask >> e & 1 == 1)
                .map(|e| format!("{}-{}", self.ends[e][0], self.ends[e][1]))
                .collect();
            format!("({}): {}", names.len(), brief(&names, 2 * SHOWN))
        };
        let mut out = if self.two() {
            format!("  red, R's {}\n  blue, B's {}\n", list(pos.red), list(pos.blue))
        } else {
            format!("  drawn {}\n", list(pos.red))
        };
        let free = (self.rules.full() & !pos.drawn()).count_ones();
        out.push_str(&format!(
            "  not drawn: {}, {} of them legal\n",
            counted(free, "segment"),
            if state.over { 0 } else { self.moves(state).len() }
        ));
        out
    }

    fn summary(&self, state: &State) -> String {
        let pos = state.pos;
        let mut text = if self.two() {
            format!(
                "R has drawn {}, B {}",
                counted(pos.red.count_ones(), "segment"),
                pos.blue.count_ones()
            )
        } else {
            format!("{} drawn", counted(pos.red.count_ones(), "segment"))
        };
        if scored(self.rules.game) {
            text.push_str(&format!("; R's margin so far {} (triangles)", signed(state.margin)));
        }
        text
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if !state.over && !self.moves(state).is_empty() {
            return None;
        }
        let winner = match state.margin.signum() {
            1 => Some(Side::First),
            -1 => Some(Side::Second),
            _ => None,
        };
        let how = if state.over { "the game stops" } else { "no segment is left to draw" };
        let result = format!("{how}: {}", describe(self.rules.game, state.margin));
        Some(Outcome { winner, result })
    }

    fn reply(&self, state: &State) -> Option<usize> {
        let side = if state.pos.first_to_move { &self.first } else { &self.second };
        let (_, table) = side.as_ref()?;
        let e = *table.get(&(state.pos.red, state.pos.blue))?;
        self.moves(state).contains(&e).then_some(e)
    }

    fn side_name(&self, side: Side) -> String {
        match side {
            Side::First => "R".into(),
            Side::Second => "B".into(),
        }
    }

    fn default_human(&self) -> Side {
        match (&self.first, &self.second) {
            (Some(_), None) => Side::Second,
            (None, _) => Side::First,
            // Both bounds: the person takes the side the value goes against (R on a tie).
            (Some((at_least, _)), Some(_)) => {
                if *at_least > 0 {
                    Side::Second
                } else {
                    Side::First
                }
            }
        }
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        match side {
            Side::First => self.first.as_ref().map(|(at_least, _)| state.margin >= *at_least),
            Side::Second => self.second.as_ref().map(|(at_most, _)| state.margin <= *at_most),
        }
    }

    /// The points with R's segments red and B's blue (green in the monochromatic games) and, on
    /// a triangulation, the black edges ([`crate::triangulations::play_pictures`]); a click on a
    /// legal segment (dotted where it is not drawn yet) plays it.
    fn svg(&self, state: &State, marked: Option<&usize>, caption: &str) -> String {
        use crate::base::svg::{Colour, Overlay, Stroke};
        use crate::triangulations::play_pictures::{position_svg, Points};
        let pos = state.pos;
        let strokes: Vec<Stroke> = (0..self.ends.len())
            .filter_map(|e| {
                let colour = if pos.red >> e & 1 == 1 {
                    if self.two() {
                        Colour::Red
                    } else {
                        Colour::Green
                    }
                } else if pos.blue >> e & 1 == 1 {
                    Colour::Blue
                } else if !self.constructing {
                    Colour::Black
                } else if marked == Some(&e) {
                    // The marked segment, not yet drawn.
                    Colour::Grey
                } else {
                    return None;
                };
                Some(Stroke::new(self.ends[e], colour))
            })
            .collect();
        let moves = if self.outcome(state).is_some() { Vec::new() } else { self.moves(state) };
        let overlay = Overlay {
            marked: marked.map(|&e| self.ends[e]),
            moves: moves.iter().map(|&e| (self.ends[e], self.write_move(state, &e))).collect(),
            hints: self.constructing,
        };
        let what = if self.constructing { "a dotted segment to draw it" } else { "a black edge" };
        let status = match self.outcome(state) {
            Some(outcome) => outcome.result,
            None => format!("{} to move. Click {what}", self.side_name(self.to_move(state))),
        };
        let score = if scored(self.rules.game) {
            format!("R's margin so far {}; ", state.margin)
        } else {
            String::new()
        };
        let mut notes = vec![crate::base::svg::sentence(&format!("{score}{status}."))];
        notes.push(format!("Certified (construct-strategy): {}.", self.claim));
        if let Some(&e) = marked {
            notes.push(format!("Marked (orange): {}.", self.write_move(state, &e)));
        }
        position_svg(&Points::Plane(self.points.clone()), strokes, &overlay, caption, &notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::fixture;
    use gamecert_certificates::format::{Certificate, Instance};

    #[test]
    fn notation_errors_name_the_fault() {
        let (Instance::MarkingGame(spec), Certificate::ConstructStrategy(cert)) =
            fixture("construct-strategy")
        else {
            panic!("a construct-strategy fixture")
        };
        let game = Construct::new(&spec, &cert).unwrap();
        let start = game.start();
        assert!(game.read_move(&start, "0-9").unwrap_err().contains("not a segment"));
        let after = game.apply(&start, &game.read_move(&start, "0-2").unwrap());
        assert!(game.read_move(&after, "2-0").unwrap_err().contains("drawn already"));
        assert!(game.read_move(&after, "1-3").unwrap_err().contains("crosses"));
        assert!(game.read_position("red: 0-1").unwrap_err().contains("margin"));
        assert!(game.read_position("red: 0-1; margin x").unwrap_err().contains("margin 1"));
        let err = game.read_position("red: 0-2  blue: 1-3; margin 0").unwrap_err();
        assert!(err.contains("crosses"), "{err}");
        let err = game.read_position("red: 0-1  blue: 0-1; margin 0").unwrap_err();
        assert!(err.contains("both red and blue"), "{err}");
        let text = game.write_position(&after);
        assert!(game.read_position(&text).unwrap() == after, "{text}");
    }
}

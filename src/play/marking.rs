//! The marking games on a triangulation (`marking-strategy`: coloring, four-cycle, nimstring
//! and its misère form, monochromatic triangle), played in point numbers on the checker's own
//! rules ([`gamecert_certificates::triangulations::marking::Rules`]).
//!
//! Notation: a move is an edge `a-b` between points a and b (numbered from 0 as in the
//! instance); a position is its green edges, `green: 0-1, 1-2` (and, when a Nimstring
//! completion gave the second player the turn, `(second to move)`).
//!
//! Pictures ([`crate::triangulations::play_pictures`]): the green edges and the black ones; a
//! click on a legal black edge colours it.

use super::{brief, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{MarkingSpec, MarkingStrategy};
use gamecert_certificates::triangulations::marking::{Outcome as Colouring, Rules};
use std::collections::HashMap;

pub(crate) struct Marking {
    rules: Rules,
    /// Each edge's two points, in the rules' edge order.
    ends: Vec<[usize; 2]>,
    winner: Side,
    /// The winner's edge by green mask.
    moves: HashMap<u64, usize>,
    /// The instance's points, for pictures, and whether moves draw new segments.
    points: Vec<gamecert_certificates::triangulations::geometry::Point>,
    constructing: bool,
}

/// The green edges, who is to move, and the winner once the game is over.
#[derive(Clone, PartialEq)]
pub(crate) struct State {
    green: u64,
    to_move: Side,
    won_by: Option<Side>,
}

/// The segments a move may draw or colour, by point numbers: every pair of points in a
/// constructing game, the triangulation's edges otherwise (the checker's numbering of moves).
pub(crate) fn segments(spec: &MarkingSpec, budget: &mut Budget) -> Result<Vec<[usize; 2]>, String> {
    if spec.game.is_constructing() {
        let n = spec.triangulation.points.len();
        return Ok((0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b])).collect());
    }
    Ok(spec.triangulation.validate(budget)?.edges)
}

impl Marking {
    pub(crate) fn new(spec: &MarkingSpec, strategy: &MarkingStrategy) -> Result<Marking, String> {
        let mut budget = Budget::unlimited();
        let rules = Rules::from_spec(spec, &mut budget)?;
        let ends = segments(spec, &mut budget)?;
        let winner = if strategy.winner == "first" { Side::First } else { Side::Second };
        let mut moves = HashMap::new();
        for (hex, edge) in &strategy.moves {
            let mask = u64::from_str_radix(hex, 16).map_err(|_| format!("bad mask '{hex}'"))?;
            moves.insert(mask, *edge);
        }
        let points = spec.triangulation.points.clone();
        let constructing = spec.game.is_constructing();
        Ok(Marking { rules, ends, winner, moves, points, constructing })
    }

    fn edge_name(&self, e: usize) -> String {
        format!("{}-{}", self.ends[e][0], self.ends[e][1])
    }

    fn edge(&self, text: &str) -> Result<usize, String> {
        let bad = || format!("'{text}' is not an edge of the board: write it `a-b`");
        let (a, b) = text.split_once('-').ok_or_else(bad)?;
        let (a, b) = (
            a.trim().parse::<usize>().map_err(|_| bad())?,
            b.trim().parse::<usize>().map_err(|_| bad())?,
        );
        let pair = [a.min(b), a.max(b)];
        self.ends.iter().position(|&e| e == pair).ok_or_else(bad)
    }

    fn edges_of(&self, mask: u64) -> Vec<String> {
        (0..self.ends.len()).filter(|&e| mask >> e & 1 == 1).map(|e| self.edge_name(e)).collect()
    }
}

impl Family for Marking {
    type State = State;
    type Move = usize;

    fn start(&self) -> State {
        State { green: 0, to_move: Side::First, won_by: None }
    }

    fn to_move(&self, state: &State) -> Side {
        state.to_move
    }

    fn moves(&self, state: &State) -> Vec<usize> {
        self.rules.legal(state.green)
    }

    fn apply(&self, state: &State, &e: &usize) -> State {
        let green = state.green | 1 << e;
        match self.rules.colour(state.green, e) {
            Colouring::MoverWins => {
                State { green, to_move: state.to_move, won_by: Some(state.to_move) }
            }
            Colouring::Continue(again) => {
                let to_move = if again { state.to_move } else { state.to_move.other() };
                State { green, to_move, won_by: None }
            }
        }
    }

    fn write_move(&self, _: &State, &e: &usize) -> String {
        self.edge_name(e)
    }

    fn read_move(&self, state: &State, text: &str) -> Result<usize, String> {
        let e = self.edge(text)?;
        if state.green >> e & 1 == 1 {
            return Err(format!("edge {text} is green already"));
        }
        if !self.rules.legal(state.green).contains(&e) {
            return Err(format!("edge {text} crosses a drawn segment"));
        }
        Ok(e)
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move colours a black edge green, written `a-b` with the points' numbers ({:?})",
            self.rules.game
        )
    }

    fn write_position(&self, state: &State) -> String {
        // The turn alternates unless a Nimstring completion kept it: said only then.
        let turn = match state.to_move {
            side if side == parity(state.green) => "",
            Side::First => " (first to move)",
            Side::Second => " (second to move)",
        };
        format!("green: {}{turn}", self.edges_of(state.green).join(", "))
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let (text, turn) = match text.split_once('(') {
            Some((list, turn)) => (list, Some(turn.trim_end_matches(')').trim())),
            None => (text, None),
        };
        let list =
            text.trim().strip_prefix("green:").ok_or("a position is written `green: 0-1, 1-2`")?;
        let mut green = 0u64;
        for word in words(list) {
            green |= 1 << self.edge(word)?;
        }
        let to_move = match turn {
            Some("first to move") => Side::First,
            Some("second to move") => Side::Second,
            Some(other) => {
                return Err(format!(
                    "'({other})': expected `(first to move)` or `(second to move)`"
                ))
            }
            None => parity(green),
        };
        Ok(State { green, to_move, won_by: None })
    }

    fn draw(&self, state: &State) -> String {
        let green = self.edges_of(state.green);
        let black = (self.rules.full() & !state.green).count_ones();
        format!(
            "  green ({}): {}\n  black: {}, {} of them legal to colour\n",
            green.len(),
            brief(&green, 2 * SHOWN),
            counted(black, "edge"),
            self.rules.legal(state.green).len()
        )
    }

    fn summary(&self, state: &State) -> String {
        // Every move colours an edge green, whoever makes it: no edge is a side's own.
        let edges = self.rules.full().count_ones();
        format!(
            "{} of {} green, {} left black",
            state.green.count_ones(),
            counted(edges, "edge"),
            edges - state.green.count_ones()
        )
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        let name = |s: Side| self.side_name(s);
        if let Some(w) = state.won_by {
            let result = format!("{} completes a shape and wins", name(w));
            return Some(Outcome { winner: Some(w), result });
        }
        if !self.rules.legal(state.green).is_empty() {
            return None;
        }
        let stuck = state.to_move;
        let winner = if self.rules.stuck_player_wins() { stuck } else { stuck.other() };
        let result = format!("{} has no edge left to colour: {} wins", name(stuck), name(winner));
        Some(Outcome { winner: Some(winner), result })
    }

    fn reply(&self, state: &State) -> Option<usize> {
        if state.to_move != self.winner {
            return None;
        }
        let e = *self.moves.get(&state.green)?;
        self.rules.legal(state.green).contains(&e).then_some(e)
    }

    fn default_human(&self) -> Side {
        self.winner.other()
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        (side == self.winner).then(|| self.outcome(state).and_then(|o| o.winner) == Some(side))
    }

    /// The points with the green edges and, in a game on a triangulation, the black ones
    /// ([`crate::triangulations::play_pictures`]); a legal edge is clicked to colour it.
    fn svg(&self, state: &State, marked: Option<&usize>, caption: &str) -> String {
        use crate::base::svg::{Colour, Overlay, Stroke};
        use crate::triangulations::play_pictures::{position_svg, Points};
        use gamecert_certificates::base::text::counted;
        let green = |e: usize| state.green >> e & 1 == 1;
        let strokes: Vec<Stroke> = (0..self.ends.len())
            .filter(|&e| green(e) || !self.constructing || marked == Some(&e))
            .map(|e| {
                let colour = match (green(e), self.constructing) {
                    (true, _) => Colour::Green,
                    (false, false) => Colour::Black,
                    // The marked segment of a constructing game, not yet drawn.
                    (false, true) => Colour::Grey,
                };
                Stroke::new(self.ends[e], colour)
            })
            .collect();
        let moves = if self.outcome(state).is_some() { Vec::new() } else { self.moves(state) };
        let overlay = Overlay {
            marked: marked.map(|&e| self.ends[e]),
            moves: moves.iter().map(|&e| (self.ends[e], self.edge_name(e))).collect(),
            hints: self.constructing,
        };
        let what = if self.constructing { "a dotted segment" } else { "a black edge" };
        let status = match self.outcome(state) {
            Some(outcome) => outcome.result,
            None => format!("{} to move. Click {what} to colour it", self.side_name(state.to_move)),
        };
        let mut notes =
            vec![format!("{} green; {status}.", counted(state.green.count_ones(), "edge"))];
        notes.push(format!(
            "Certified (marking-strategy): {} wins ({}).",
            self.side_name(self.winner),
            self.rules.game
        ));
        if let Some(&e) = marked {
            notes.push(format!("Marked (orange): {}.", self.edge_name(e)));
        }
        position_svg(&Points::Plane(self.points.clone()), strokes, &overlay, caption, &notes)
    }
}

/// Who moves after `green` edges when every move passes the turn.
fn parity(green: u64) -> Side {
    if green.count_ones().is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    }
}

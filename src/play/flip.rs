//! The two-player flip games on a triangulation (`flip-value`: monochromatic flipping, flipping
//! to a triangle, bichromatic flipping), played in point numbers on the checker's own rules
//! ([`gamecert_certificates::triangulations::flipping::Board`]).
//!
//! Notation: a move names the black edge flipped, `a-b` (points numbered from 0 as in the
//! instance; the new edge is the quadrilateral's other diagonal). A position is its coloured
//! edges: `green: 0-3, 1-4` (the new edges so far), in bichromatic flipping `red: 0-3  blue:
//! 1-4 (second to move)`, the turn said there because a flip may colour several edges.
//! Coloured edges never leave, and every edge of the start a flip removed is crossed by the
//! coloured edge that replaced it, so the colours fix the triangulation; a position typed with
//! no history is rebuilt by a search for a play that follows the strategy and colours the same
//! edges.
//!
//! The certificate gives the value with the first player's strategy (at least the value), the
//! second's (at most it), or both; each is the table of edges by canonical position the checker
//! replayed.
//!
//! Pictures ([`crate::triangulations::play_pictures`]): the triangulation in its colours; a
//! click on a flippable black edge flips it, the marked flip's new diagonal dashed.

use super::{brief, find_history, pair, signed, turn_suffix, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{FlipSpec, FlipValue};
use gamecert_certificates::triangulations::flipping::{
    final_payoff, immediate_payoff, setup, Board, FlipGame, Shape,
};
use std::collections::{BTreeMap, HashMap};

pub(crate) struct Flip {
    game: FlipGame,
    shape: Shape,
    start: Board,
    value: i64,
    first: Option<HashMap<String, [usize; 2]>>,
    second: Option<HashMap<String, [usize; 2]>>,
    /// Where pictures put the points.
    points: crate::triangulations::play_pictures::Points,
}

/// The triangulation with its colours, whose turn it is, and the payoff when a flip ended the
/// game at once (a green triangle).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    board: Board,
    first_to_move: bool,
    ended: Option<i64>,
}

impl Flip {
    pub(crate) fn new(spec: &FlipSpec, cert: &FlipValue) -> Result<Flip, String> {
        let (shape, start) = setup(spec, &mut Budget::unlimited())?;
        let table = |moves: &Vec<(String, [usize; 2])>| moves.iter().cloned().collect();
        Ok(Flip {
            game: spec.game,
            shape,
            start,
            value: cert.value,
            first: cert.first.as_ref().map(table),
            second: cert.second.as_ref().map(table),
            points: match spec.convex_polygon {
                Some(n) => crate::triangulations::play_pictures::Points::ConvexPolygon(n),
                None => crate::triangulations::play_pictures::Points::Plane(spec.points.clone()),
            },
        })
    }

    fn two(&self) -> bool {
        self.game == FlipGame::BichromaticFlipping
    }

    /// The coloured edges by colour (1 green or red, 2 blue), sorted.
    fn coloured(board: &Board) -> BTreeMap<[usize; 2], u8> {
        board
            .edges
            .iter()
            .filter(|(_, s)| s.colour > 0)
            .map(|(k, s)| ([k[0] as usize, k[1] as usize], s.colour))
            .collect()
    }

    fn list(edges: &BTreeMap<[usize; 2], u8>, colour: u8) -> String {
        edges
            .iter()
            .filter(|(_, &c)| c == colour)
            .map(|(e, _)| format!("{}-{}", e[0], e[1]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn read_edges(
        &self,
        list: &str,
        colour: u8,
        into: &mut BTreeMap<[usize; 2], u8>,
    ) -> Result<(), String> {
        for word in words(list) {
            let e = pair(word).filter(|e| e[1] < self.shape.len()).ok_or_else(|| {
                format!(
                    "'{word}' is not an edge: write it `a-b` with points 0 to {}",
                    self.shape.len() - 1
                )
            })?;
            if into.insert(e, colour).is_some() {
                return Err(format!("edge {word} is listed twice"));
            }
        }
        Ok(())
    }

    fn table(&self, first: bool) -> Option<&HashMap<String, [usize; 2]>> {
        if first {
            self.first.as_ref()
        } else {
            self.second.as_ref()
        }
    }

    fn payoff(&self, state: &State) -> Option<i64> {
        if state.ended.is_some() {
            return state.ended;
        }
        state
            .board
            .moves(&self.shape)
            .is_empty()
            .then(|| final_payoff(self.game, &state.board, state.first_to_move))
    }
}

impl Family for Flip {
    type State = State;
    type Move = [usize; 2];

    fn start(&self) -> State {
        State { board: self.start.clone(), first_to_move: true, ended: None }
    }

    fn to_move(&self, state: &State) -> Side {
        if state.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, state: &State) -> Vec<[usize; 2]> {
        state.board.moves(&self.shape)
    }

    fn apply(&self, state: &State, &e: &[usize; 2]) -> State {
        let mut board = state.board.clone();
        let colour = if state.first_to_move || !self.two() { 1 } else { 2 };
        let flipped =
            board.play(&self.shape, self.game, e, colour).expect("a legal move of the board");
        let ended = immediate_payoff(self.game, &flipped, state.first_to_move);
        State { board, first_to_move: !state.first_to_move, ended }
    }

    fn write_move(&self, _: &State, &[a, b]: &[usize; 2]) -> String {
        format!("{a}-{b}")
    }

    fn read_move(&self, state: &State, text: &str) -> Result<[usize; 2], String> {
        let e = pair(text).ok_or_else(|| format!("'{text}' is not an edge: write it `a-b`"))?;
        if self.moves(state).contains(&e) {
            return Ok(e);
        }
        // The board's own reason (not an edge, coloured, not flippable).
        let mut board = state.board.clone();
        match board.play(&self.shape, self.game, e, 1) {
            Err(why) => Err(why),
            Ok(_) => Err(format!("edge {text} cannot be flipped")),
        }
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move flips a black edge `a-b` (points numbered from 0) whose two triangles make a \
             convex quadrilateral: it becomes the other diagonal; the game is {}",
            self.game
        )
    }

    fn write_position(&self, state: &State) -> String {
        let coloured = Flip::coloured(&state.board);
        if self.two() {
            let turn = if state.first_to_move { "first" } else { "second" };
            format!(
                "red: {}  blue: {} ({turn} to move)",
                Flip::list(&coloured, 1),
                Flip::list(&coloured, 2)
            )
        } else {
            format!("green: {}", Flip::list(&coloured, 1)).trim_end().to_string()
        }
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let (text, turn) = turn_suffix(text)?;
        let text = text.trim();
        let mut coloured = BTreeMap::new();
        if self.two() {
            let (Some(r), Some(b)) = (text.find("red:"), text.find("blue:")) else {
                return Err("a position is written `red: 0-3  blue: 1-4 (second to move)`".into());
            };
            let (red, blue) = if r < b {
                (&text[r + 4..b], &text[b + 5..])
            } else {
                (&text[r + 4..], &text[b + 5..r])
            };
            self.read_edges(red, 1, &mut coloured)?;
            self.read_edges(blue, 2, &mut coloured)?;
        } else {
            let list = text
                .strip_prefix("green:")
                .ok_or("a position is written `green: 0-3, 1-4` (the green edges)")?;
            self.read_edges(list, 1, &mut coloured)?;
        }
        // Without bichromatic flipping, each flip colours one edge: the count gives the turn.
        let first_to_move = match turn {
            Some(side) => side == Side::First,
            None if self.two() => {
                return Err("a bichromatic position says whose turn it is, `(first to move)`".into())
            }
            None => coloured.len().is_multiple_of(2),
        };
        let to_move = if first_to_move { Side::First } else { Side::Second };
        let strategy_side =
            if self.table(first_to_move).is_some() { to_move } else { to_move.other() };
        let reached =
            |s: &State| s.first_to_move == first_to_move && Flip::coloured(&s.board) == coloured;
        let within = |s: &State| {
            s.board.edges.iter().all(|(k, e)| {
                e.colour == 0 || coloured.get(&[k[0] as usize, k[1] as usize]) == Some(&e.colour)
            })
        };
        let n = self.shape.len();
        let key = |s: &State| format!("{} {}", s.board.position(n), s.first_to_move);
        find_history(self, strategy_side, reached, within, key)
    }

    fn draw(&self, state: &State) -> String {
        let coloured = Flip::coloured(&state.board);
        let list = |colour: u8| -> String {
            let names: Vec<String> = coloured
                .iter()
                .filter(|(_, &c)| c == colour)
                .map(|(e, _)| format!("{}-{}", e[0], e[1]))
                .collect();
            format!("({}): {}", names.len(), brief(&names, 2 * SHOWN))
        };
        let mut out = if self.two() {
            format!("  red, R's {}\n  blue, B's {}\n", list(1), list(2))
        } else {
            format!("  green {}\n", list(1))
        };
        let black = state.board.edges.values().filter(|e| e.colour == 0).count();
        out.push_str(&format!(
            "  black: {}, {} of them flippable\n",
            counted(black, "edge"),
            self.moves(state).len()
        ));
        out
    }

    fn summary(&self, state: &State) -> String {
        let count = |colour: u8| state.board.edges.values().filter(|e| e.colour == colour).count();
        let black = counted(count(0), "edge");
        if self.two() {
            let (red, blue) = (count(1), count(2));
            format!(
                "R has coloured {}, B {}; red minus blue so far {}; {black} still black",
                counted(red, "edge"),
                blue,
                signed(red as i64 - blue as i64)
            )
        } else {
            format!("{} green, {black} still black", counted(count(1), "edge"))
        }
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        let payoff = self.payoff(state)?;
        let winner = match payoff.signum() {
            1 => Some(Side::First),
            -1 => Some(Side::Second),
            _ => None,
        };
        let result = match (self.game, state.ended) {
            (_, Some(_)) => format!(
                "{} completes a green triangle and wins",
                self.side_name(winner.unwrap_or(Side::First))
            ),
            (FlipGame::BichromaticFlipping, None) => format!(
                "no black edge can be flipped: red minus blue is {payoff} ({})",
                match winner {
                    Some(side) => format!("{} wins", self.side_name(side)),
                    None => "a tie".into(),
                }
            ),
            (_, None) => match winner {
                Some(w) => format!(
                    "{} cannot flip and loses: {} wins",
                    self.side_name(w.other()),
                    self.side_name(w)
                ),
                None => "no black edge can be flipped and no green triangle was made: a tie".into(),
            },
        };
        Some(Outcome { winner, result })
    }

    fn reply(&self, state: &State) -> Option<[usize; 2]> {
        let table = self.table(state.first_to_move)?;
        let e = *table.get(&state.board.position(self.shape.len()))?;
        self.moves(state).contains(&e).then_some(e)
    }

    fn side_name(&self, side: Side) -> String {
        match (self.two(), side) {
            (true, Side::First) => "R".into(),
            (true, Side::Second) => "B".into(),
            (false, Side::First) => "the first player".into(),
            (false, Side::Second) => "the second player".into(),
        }
    }

    fn default_human(&self) -> Side {
        match (&self.first, &self.second) {
            (Some(_), None) => Side::Second,
            (None, _) => Side::First,
            // Both bounds: the person takes the side the value goes against (first on a tie).
            (Some(_), Some(_)) => {
                if self.value > 0 {
                    Side::Second
                } else {
                    Side::First
                }
            }
        }
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        let first = side == Side::First;
        self.table(first)?;
        let payoff = self.payoff(state).unwrap_or(if first { i64::MIN } else { i64::MAX });
        Some(if first { payoff >= self.value } else { payoff <= self.value })
    }

    /// The triangulation in its colours ([`crate::triangulations::play_pictures`]), the marked
    /// edge highlighted with the diagonal it becomes dashed; a click on a flippable black edge
    /// flips it.
    fn svg(&self, state: &State, marked: Option<&[usize; 2]>, caption: &str) -> String {
        use crate::base::svg::{Colour, Overlay, Stroke};
        use crate::triangulations::play_pictures::position_svg;
        let mut strokes: Vec<Stroke> = state
            .board
            .edges
            .iter()
            .map(|(k, s)| {
                let colour = match s.colour {
                    1 if self.two() => Colour::Red,
                    1 => Colour::Green,
                    2 => Colour::Blue,
                    _ => Colour::Black,
                };
                Stroke::new([k[0] as usize, k[1] as usize], colour)
            })
            .collect();
        strokes.sort_by_key(|s| s.edge);
        // The diagonal the marked flip makes, dashed.
        let mut becomes = None;
        if let Some(&e) = marked {
            let mut board = state.board.clone();
            if let Ok(flipped) = board.play(&self.shape, self.game, e, 1) {
                strokes.push(Stroke::new(flipped.new, Colour::Grey));
                becomes = Some(flipped.new);
            }
        }
        let moves = if self.outcome(state).is_some() { Vec::new() } else { self.moves(state) };
        let overlay = Overlay {
            marked: marked.copied(),
            moves: moves.iter().map(|e| (*e, self.write_move(state, e))).collect(),
            hints: false,
        };
        let coloured = if self.two() { "red and blue" } else { "green" };
        let status = match self.outcome(state) {
            Some(outcome) => outcome.result,
            None => format!(
                "{} to move: click a black edge to flip it",
                self.side_name(self.to_move(state))
            ),
        };
        let mut notes = vec![crate::base::svg::sentence(&format!(
            "{status}. Black edges are unplayed, {coloured} ones made by flips."
        ))];
        let strategies = match (&self.first, &self.second) {
            (Some(_), Some(_)) => "both players' strategies",
            (Some(_), None) => "the first player's strategy (at least the value)",
            _ => "the second player's strategy (at most the value)",
        };
        notes.push(format!(
            "Certified (flip-value, {}): the value is {}, with {strategies}.",
            self.game, self.value
        ));
        if let (Some([a, b]), Some([c, d])) = (marked, becomes) {
            notes.push(format!("Marked (orange): flip {a}-{b}, which becomes {c}-{d} (dashed)."));
        }
        position_svg(&self.points, strokes, &overlay, caption, &notes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::fixture;
    use gamecert_certificates::format::{Certificate, Instance};

    #[test]
    fn notation_errors_name_the_fault() {
        let (Instance::FlipGame(spec), Certificate::FlipValue(cert)) = fixture("flip-value") else {
            panic!("a flip-value fixture")
        };
        let game = Flip::new(&spec, &cert).unwrap();
        let start = game.start();
        assert!(game.read_move(&start, "0-x").unwrap_err().contains("write it `a-b`"));
        assert!(game.read_move(&start, "0-2").unwrap_err().contains("not an edge"));
        assert!(game.read_move(&start, "0-1").unwrap_err().contains("not flippable"));
        assert!(game.read_position("0-3").unwrap_err().contains("green: 0-3"));
        assert!(game.read_position("green: 0-3, 3-0").unwrap_err().contains("listed twice"));
        assert!(game.read_position("green: 0-30").unwrap_err().contains("points 0 to 9"));
        // Colours no play of the strategy makes.
        assert!(game.read_position("green: 2-9").is_err());
        let after = game.apply(&start, &game.reply(&start).unwrap());
        let text = game.write_position(&after);
        assert!(game.read_position(&text).unwrap() == after, "{text}");
    }
}

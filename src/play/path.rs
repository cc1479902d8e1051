//! The multi-round Voronoi game on a path (`voronoi-path-value`), played in vertex names.
//!
//! Notation: as for any Voronoi game, a move is a vertex name and a position `W: a, c  B: b`.
//!
//! The certificate gives both sides' strategies over gap states (the checker's
//! [`gamecert_certificates::voronoi_paths::paths`]: the multiset of typed runs of empty vertices, by
//! the trusted lemma "path gaps"). A position is read as its gap state along the path
//! ([`PathState::of_line`]), the side's move `WB5@2` is looked up there, and mapped back to a
//! vertex: a gap of that type and length in the line, the offset counted from the side the
//! lemma counts it from (the path end of an `EW`/`EB` gap, the W stone of a `WB` gap, either
//! side of the others, which reflection maps onto each other). Any gap of that type and length
//! will do: by the lemma the state, not which gap, decides the play.

use super::voronoi::{draw_stones, ownership, read_cells, write_cells};
use super::{Family, Outcome, Side};
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::format::{MultiRoundSpec, PathValue};
use gamecert_certificates::voronoi::multi_round::margin;
use gamecert_certificates::voronoi::rules::{score, to_move, Player};
use gamecert_certificates::voronoi_paths::paths::{parse_move, path_order, Gap, PathState};
use std::collections::HashMap;

const EMPTY: u8 = b'.';

/// The most vertices of the path its drawing shows in a row.
const LONGEST_ROW: usize = 80;

/// One side's moves by gap state.
type Table = HashMap<PathState, (Gap, usize)>;

pub(crate) struct Path {
    graph: Graph,
    rounds: usize,
    /// The vertices in path order.
    order: Vec<usize>,
    value: i64,
    white: Table,
    black: Table,
}

impl Path {
    pub(crate) fn new(spec: &MultiRoundSpec, value: &PathValue) -> Result<Path, String> {
        let game = spec.validate().map_err(|e| e.to_string())?;
        let order = path_order(&game.graph)?;
        let table = |moves: &[(String, String)]| -> Result<Table, String> {
            moves.iter().map(|(s, m)| Ok((PathState::parse(s)?, parse_move(m)?))).collect()
        };
        Ok(Path {
            order,
            rounds: game.rounds,
            graph: game.graph,
            value: value.value,
            white: table(&value.white)?,
            black: table(&value.black)?,
        })
    }

    fn mover(&self, cells: &[u8]) -> Option<Player> {
        to_move(cells, self.rounds).ok().flatten()
    }

    /// The vertex of the line where `gap` at `offset` is played, if the line has such a gap:
    /// the principal line's placement, so that play and pictures put a move in one place.
    fn locate(&self, line: &[u8], gap: Gap, offset: usize) -> Option<usize> {
        crate::voronoi::principal_line::concrete_move(line, gap, offset)
    }
}

impl Family for Path {
    type State = Vec<u8>;
    type Move = usize;

    fn start(&self) -> Vec<u8> {
        vec![EMPTY; self.graph.len()]
    }

    fn to_move(&self, cells: &Vec<u8>) -> Side {
        match self.mover(cells) {
            Some(Player::Black) => Side::Second,
            _ => Side::First,
        }
    }

    fn moves(&self, cells: &Vec<u8>) -> Vec<usize> {
        (0..cells.len()).filter(|&v| cells[v] == EMPTY).collect()
    }

    fn apply(&self, cells: &Vec<u8>, &v: &usize) -> Vec<u8> {
        let mut next = cells.clone();
        next[v] = if self.to_move(cells) == Side::First { b'W' } else { b'B' };
        next
    }

    fn write_move(&self, _: &Vec<u8>, &v: &usize) -> String {
        self.graph.name(v).to_string()
    }

    fn read_move(&self, cells: &Vec<u8>, text: &str) -> Result<usize, String> {
        let v = self.graph.vertex(text).ok_or_else(|| format!("there is no vertex '{text}'"))?;
        match cells[v] {
            EMPTY => Ok(v),
            _ => Err(format!("'{text}' is taken: choose an empty vertex")),
        }
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is the name of an empty vertex of the path (W and B take turns, W first in \
             each of {} rounds)",
            self.rounds
        )
    }

    fn write_position(&self, cells: &Vec<u8>) -> String {
        write_cells(&self.graph, cells)
    }

    fn read_position(&self, text: &str) -> Result<Vec<u8>, String> {
        let cells = read_cells(&self.graph, text)?;
        to_move(&cells, self.rounds)?;
        Ok(cells)
    }

    fn draw(&self, cells: &Vec<u8>) -> String {
        // The path as one row of W, B and `.`, its end vertices named; a long one cut.
        let row: String = self.order.iter().take(LONGEST_ROW).map(|&v| cells[v] as char).collect();
        let (first, last) = (self.order[0], self.order[self.order.len() - 1]);
        let row = match self.order.len().checked_sub(LONGEST_ROW) {
            Some(more) if more > 0 => format!("{row} ... and {more} more"),
            _ => row,
        };
        let along = format!(
            "  along the path from {} to {}: {row}\n",
            self.graph.name(first),
            self.graph.name(last)
        );
        along + &draw_stones(&self.graph, cells, [self.rounds, self.rounds])
    }

    fn summary(&self, cells: &Vec<u8>) -> String {
        ownership(&self.graph, cells)
    }

    fn outcome(&self, cells: &Vec<u8>) -> Option<Outcome> {
        if self.mover(cells).is_some() {
            return None;
        }
        let owned = |c: u8| -> Vec<usize> { (0..cells.len()).filter(|&v| cells[v] == c).collect() };
        let s = score(&self.graph, &owned(b'W'), &owned(b'B'));
        let (winner, verdict) = match s.white.cmp(&s.black) {
            std::cmp::Ordering::Greater => {
                (Some(Side::First), format!("W wins by {}", s.white - s.black))
            }
            std::cmp::Ordering::Less => {
                (Some(Side::Second), format!("B wins by {}", s.black - s.white))
            }
            std::cmp::Ordering::Equal => (None, "a tie".to_string()),
        };
        let result = format!(
            "W is nearer to {} vertices, B to {} ({} neutral): {verdict}",
            s.white, s.black, s.neutral
        );
        Some(Outcome { winner, result })
    }

    fn reply(&self, cells: &Vec<u8>) -> Option<usize> {
        let table = match self.mover(cells)? {
            Player::White => &self.white,
            Player::Black => &self.black,
        };
        let line: Vec<u8> = self.order.iter().map(|&v| cells[v]).collect();
        let &(gap, offset) = table.get(&PathState::of_line(&line))?;
        let at = self.locate(&line, gap, offset)?;
        let v = self.order[at];
        (cells[v] == EMPTY).then_some(v)
    }

    fn side_name(&self, side: Side) -> String {
        match side {
            Side::First => "W".into(),
            Side::Second => "B".into(),
        }
    }

    fn default_human(&self) -> Side {
        // The person takes the side the value goes against (W on a tie).
        if self.value > 0 {
            Side::Second
        } else {
            Side::First
        }
    }

    fn claim_met(&self, cells: &Vec<u8>, side: Side) -> Option<bool> {
        let white = margin(&self.graph, cells, Player::White);
        Some(match side {
            Side::First => white >= self.value,
            Side::Second => white <= self.value,
        })
    }

    fn svg(&self, cells: &Vec<u8>, marked: Option<&usize>, caption: &str) -> String {
        let names = self.graph.names().map(str::to_string).collect();
        let layout = match crate::base::graph_svg::GraphPicture::new(names, self.graph.edges()) {
            Ok(layout) => layout,
            Err(_) => {
                let marked = marked.map(|&v| self.graph.name(v).to_string());
                return crate::base::svg::text_picture(
                    &self.draw(cells),
                    marked.as_deref(),
                    caption,
                );
            }
        };
        let open = self.mover(cells);
        let turn = match open {
            Some(Player::White) => "W to move (click an empty vertex).",
            Some(Player::Black) => "B to move (click an empty vertex).",
            None => "The game is over.",
        };
        let note =
            format!("{turn} Certified: the value (W's margin under best play) is {}.", self.value);
        crate::base::game_pictures::voronoi_frame(
            &self.graph,
            &layout,
            cells,
            open.is_some(),
            marked.copied(),
            caption,
            &note,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::fixture;
    use gamecert_certificates::format::{Certificate, Instance};
    use gamecert_certificates::voronoi_paths::paths::GapKind;

    #[test]
    fn gap_moves_land_on_the_side_the_lemma_counts_from() {
        let (Instance::Voronoi(spec), Certificate::PathValue(cert)) = fixture("voronoi-path-value")
        else {
            panic!("a voronoi-path-value fixture")
        };
        let game = Path::new(&spec, &cert).unwrap();
        let gap = |kind, len| Gap { kind, len };
        // `.W....B.`: EW1 at the left end, WB4 between, EB1 at the right end.
        let line = b".W....B.";
        assert_eq!(game.locate(line, gap(GapKind::EndW, 1), 0), Some(0));
        assert_eq!(game.locate(line, gap(GapKind::WB, 4), 0), Some(2));
        assert_eq!(game.locate(line, gap(GapKind::WB, 4), 3), Some(5));
        assert_eq!(game.locate(line, gap(GapKind::EndB, 1), 0), Some(7));
        // The W stone on the right: offsets count from it.
        assert_eq!(game.locate(b"B...W", gap(GapKind::WB, 3), 0), Some(3));
        assert_eq!(game.locate(b"B...W", gap(GapKind::EndB, 1), 0), None);
        let start = game.start();
        assert!(game.read_move(&start, "p9").unwrap_err().contains("no vertex 'p9'"));
        assert!(game.read_position("p1").unwrap_err().contains("W: a, b  B: c"));
        assert!(game.read_position("W: p1, p2  B:").is_err());
    }
}

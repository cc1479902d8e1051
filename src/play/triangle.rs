//! One-colour triangle avoidance (`triangle-strategy`), played in vertex numbers on the checker's
//! own rules ([`gamecert_certificates::triangle_avoidance::strategy`]): A and B add edges to n
//! isolated nodes in turn, A first; an edge whose ends have a common neighbour would close a
//! triangle and is not a move; whoever has no move left loses.
//!
//! Notation: a move is an edge `a-b` between nodes 0 to n-1; a position is its edges,
//! `edges: 0-1, 2-3` (`edges:` alone at the start). Whose turn it is follows from the count.
//!
//! The certificate lists positions only up to isomorphism: each move it gives carries a
//! permutation the checker verified to map the graph after the move onto the listed target. So
//! a play carries a frame, the relabelling of the actual nodes onto the listed position's:
//! after each move the frame is composed with the move's verified permutation, the opponent's
//! edge is looked up through the frame (the checker verified every legal move of the loser is
//! listed), and the Winner's listed edge is mapped back through it. A position typed with no
//! history is reached by a search for a play that follows the strategy (as for Voronoi games
//! listed up to symmetry); a position no such play reaches is a position of the game where the
//! certificate gives no move.
//!
//! A `triangle-stream` certificate (the binary format of the largest strategies) is refused
//! before it is read: see `cli/hint.rs`.

use super::{brief, find_history, pair, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::triangle_avoidance::strategy::{
    triangle, Adjacency, TriangleMove, TriangleStrategy, MAX_N,
};
use std::collections::HashMap;

pub(crate) struct Triangle {
    n: usize,
    winner: Side,
    /// The listed moves of each listed position.
    moves: HashMap<usize, Vec<TriangleMove>>,
}

/// A position: the graph, and where the play stands in the certificate (the listed position
/// and the frame, actual node -> listed node), `None` once it has left the certificate.
#[derive(Clone, Debug)]
pub(crate) struct State {
    adj: Adjacency,
    listed: Option<(usize, [usize; MAX_N])>,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.adj == other.adj
    }
}

impl Triangle {
    pub(crate) fn new(strategy: &TriangleStrategy) -> Triangle {
        let winner = if strategy.winner == "A" { Side::First } else { Side::Second };
        Triangle { n: strategy.n, winner, moves: strategy.moves.iter().cloned().collect() }
    }

    fn legal(&self, adj: &Adjacency, [a, b]: [usize; 2]) -> bool {
        a < b && b < self.n && adj[a] >> b & 1 == 0 && adj[a] & adj[b] == 0
    }

    fn edges(&self, adj: &Adjacency) -> Vec<[usize; 2]> {
        (0..self.n)
            .flat_map(|a| (a + 1..self.n).map(move |b| [a, b]))
            .filter(|&[a, b]| adj[a] >> b & 1 == 1)
            .collect()
    }

    /// The listed move at listed position `p` adding the listed edge `e`.
    fn listed_move(&self, p: usize, e: [usize; 2]) -> Option<&TriangleMove> {
        self.moves.get(&p)?.iter().find(|m| [m.0.min(m.1), m.0.max(m.1)] == e)
    }
}

/// A verified permutation's digits (vertex v becomes `digits[v]`).
fn digits(perm: &str) -> [usize; MAX_N] {
    let mut out = [0; MAX_N];
    for (v, c) in perm.chars().enumerate() {
        out[v] = c.to_digit(16).expect("the checker verified the permutation") as usize;
    }
    out
}

fn text(edges: &[[usize; 2]]) -> String {
    edges.iter().map(|[a, b]| format!("{a}-{b}")).collect::<Vec<_>>().join(", ")
}

impl Family for Triangle {
    type State = State;
    type Move = [usize; 2];

    fn start(&self) -> State {
        let mut identity = [0; MAX_N];
        for (v, slot) in identity.iter_mut().enumerate() {
            *slot = v;
        }
        // The checker verified position 0 is the empty graph.
        State { adj: [0; MAX_N], listed: Some((0, identity)) }
    }

    fn to_move(&self, state: &State) -> Side {
        if self.edges(&state.adj).len().is_multiple_of(2) {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, state: &State) -> Vec<[usize; 2]> {
        (0..self.n)
            .flat_map(|a| (a + 1..self.n).map(move |b| [a, b]))
            .filter(|&e| self.legal(&state.adj, e))
            .collect()
    }

    fn apply(&self, state: &State, &[a, b]: &[usize; 2]) -> State {
        let mut adj = state.adj;
        adj[a] |= 1 << b;
        adj[b] |= 1 << a;
        // Follow the certificate: the move in the listed position's labels, its verified
        // permutation composed onto the frame.
        let listed = state.listed.and_then(|(p, frame)| {
            let (x, y) = (frame[a], frame[b]);
            let (_, _, target, perm) = self.listed_move(p, [x.min(y), x.max(y)])?;
            let perm = digits(perm);
            let mut next = [0; MAX_N];
            for v in 0..self.n {
                next[v] = perm[frame[v]];
            }
            Some((*target, next))
        });
        State { adj, listed }
    }

    fn write_move(&self, _: &State, &[a, b]: &[usize; 2]) -> String {
        format!("{a}-{b}")
    }

    fn read_move(&self, state: &State, text: &str) -> Result<[usize; 2], String> {
        let e = pair(text).filter(|e| e[1] < self.n).ok_or_else(|| {
            format!("'{text}' is not an edge: write it `a-b` with nodes 0 to {}", self.n - 1)
        })?;
        if state.adj[e[0]] >> e[1] & 1 == 1 {
            return Err(format!("the edge {}-{} is there already", e[0], e[1]));
        }
        if !self.legal(&state.adj, e) {
            let c = (state.adj[e[0]] & state.adj[e[1]]).trailing_zeros();
            return Err(format!("the edge {}-{} would close the triangle with {c}", e[0], e[1]));
        }
        Ok(e)
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is an edge `a-b` between nodes 0 to {} whose ends have no common neighbour \
             (it would close a triangle); whoever has no such edge left loses",
            self.n - 1
        )
    }

    fn write_position(&self, state: &State) -> String {
        format!("edges: {}", text(&self.edges(&state.adj))).trim_end().to_string()
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let list = text
            .trim()
            .strip_prefix("edges:")
            .ok_or("a position is written `edges: 0-1, 2-3` (the edges drawn)")?;
        let mut adj = [0u16; MAX_N];
        for word in words(list) {
            let [a, b] = pair(word).filter(|e| e[1] < self.n).ok_or_else(|| {
                format!("'{word}' is not an edge: write it `a-b` with nodes 0 to {}", self.n - 1)
            })?;
            if adj[a] >> b & 1 == 1 {
                return Err(format!("the edge {a}-{b} is listed twice"));
            }
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        if let Some((a, b, c)) = triangle(self.n, &adj) {
            return Err(format!("the edges hold the triangle {a}-{b}-{c}: no play reaches that"));
        }
        let target = State { adj, listed: None };
        let within = |s: &State| (0..self.n).all(|v| s.adj[v] & !adj[v] == 0);
        let key = |s: &State| format!("{:?}", s.adj);
        // A position no play of the strategy reaches is still one of the game's.
        Ok(find_history(self, self.winner, |s| *s == target, within, key).unwrap_or(target))
    }

    fn draw(&self, state: &State) -> String {
        let edges: Vec<String> =
            self.edges(&state.adj).iter().map(|[a, b]| format!("{a}-{b}")).collect();
        format!(
            "  {} nodes, 0 to {}; edges ({}): {}\n  moves left (edges closing no triangle): {}\n",
            self.n,
            self.n - 1,
            edges.len(),
            brief(&edges, 2 * SHOWN),
            self.moves(state).len()
        )
    }

    fn summary(&self, state: &State) -> String {
        // A play never holds a triangle: a move that would close one is not legal.
        format!(
            "{} drawn, no triangle; {} can still be drawn",
            counted(self.edges(&state.adj).len(), "edge"),
            self.moves(state).len()
        )
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if !self.moves(state).is_empty() {
            return None;
        }
        let stuck = self.to_move(state);
        let result = format!(
            "{} cannot move: every edge left would close a triangle; {} wins",
            self.side_name(stuck),
            self.side_name(stuck.other())
        );
        Some(Outcome { winner: Some(stuck.other()), result })
    }

    fn reply(&self, state: &State) -> Option<[usize; 2]> {
        if self.to_move(state) != self.winner {
            return None;
        }
        let (p, frame) = state.listed?;
        // The Winner's one listed move, mapped back through the frame.
        let (a, b, _, _) = self.moves.get(&p)?.first()?;
        let back = |x: usize| (0..self.n).find(|&v| frame[v] == x);
        let (a, b) = (back(*a)?, back(*b)?);
        let e = [a.min(b), a.max(b)];
        self.legal(&state.adj, e).then_some(e)
    }

    fn side_name(&self, side: Side) -> String {
        match side {
            Side::First => "A".into(),
            Side::Second => "B".into(),
        }
    }

    fn default_human(&self) -> Side {
        self.winner.other()
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        (side == self.winner).then(|| self.outcome(state).and_then(|o| o.winner) == Some(side))
    }

    fn svg(&self, state: &State, marked: Option<&[usize; 2]>, caption: &str) -> String {
        let edges = self.edges(&state.adj);
        let note = crate::base::game_pictures::triangle_note(
            self.n,
            edges.len(),
            self.outcome(state).is_some(),
            Some(self.winner == Side::First),
        );
        crate::base::game_pictures::triangle_svg(self.n, &edges, marked.copied(), caption, &note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four() -> Triangle {
        let s = |x: &str| x.to_string();
        Triangle::new(&TriangleStrategy {
            n: 4,
            winner: "B".into(),
            positions: vec![s("0")],
            moves: vec![],
        })
    }

    #[test]
    fn notation_errors_name_the_fault() {
        let game = four();
        let start = game.start();
        assert!(game.read_move(&start, "0-4").unwrap_err().contains("nodes 0 to 3"));
        assert!(game.read_move(&start, "1-1").unwrap_err().contains("not an edge"));
        let path = game.read_position("edges: 0-1, 1-2").unwrap();
        assert!(game.read_move(&path, "0-2").unwrap_err().contains("close the triangle with 1"));
        assert!(game.read_move(&path, "1-0").unwrap_err().contains("there already"));
        assert!(game.read_position("0-1").unwrap_err().contains("edges: 0-1"));
        assert!(game.read_position("edges: 0-1, 1-0").unwrap_err().contains("listed twice"));
        let err = game.read_position("edges: 0-1, 1-2, 0-2").unwrap_err();
        assert!(err.contains("triangle 0-1-2"), "{err}");
        assert_eq!(game.write_position(&start), "edges:");
        assert_eq!(game.read_position("edges:").unwrap(), start);
    }

    /// The end in plain words (issue 48: not "no edge left that closes no triangle").
    #[test]
    fn the_end_says_every_edge_left_would_close_a_triangle() {
        let game = four();
        let square = game.read_position("edges: 0-1, 1-2, 2-3, 0-3").unwrap();
        let end = game.outcome(&square).unwrap();
        assert_eq!(end.result, "A cannot move: every edge left would close a triangle; B wins");
        let note = crate::base::game_pictures::triangle_note(4, 4, true, Some(false));
        assert!(
            note.starts_with(
                "Every edge left would close a triangle: the player to move has lost."
            ),
            "{note}"
        );
    }
}

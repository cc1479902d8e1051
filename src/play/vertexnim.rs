//! Vertex nim and Vertex NimG (`vertexnim-strategy`), played in vertex names on the checker's
//! own rules ([`gamecert_certificates::vertexnim::strategy::VertexNim`]).
//!
//! Notation: a move is the token vertex's new weight and the vertex the token goes to,
//! `2:b` (leave weight 2, move the token to b); `0:-` empties the last vertex and ends the game.
//! A position is every vertex's weight, the token and the current graph's edges (`x>y` arcs when
//! directed), `a=3, b=0, c=2; token a; edges a-a, a-c`, then `(second to move)` when it is
//! the second player's turn (the weights do not tell: a move may take any amount).
//!
//! The certificate gives the winner's move at each of its positions, keyed by the checker's
//! canonical text of the position ([`State::text`]), which is what [`Family::reply`] looks up.

use super::{brief, turn_suffix, words, Family, Outcome, Side, SHOWN};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{VertexNimSpec, VertexNimStrategy};
use gamecert_certificates::vertexnim::strategy::{State, VertexNim as Game};
use std::collections::{BTreeSet, HashMap};

pub(crate) struct VertexNim {
    game: Game,
    winner: Side,
    /// The winner's move (new weight, next vertex) by the position's canonical text.
    moves: HashMap<String, (u64, Option<usize>)>,
}

impl VertexNim {
    pub(crate) fn new(
        spec: &VertexNimSpec,
        strategy: &VertexNimStrategy,
    ) -> Result<VertexNim, String> {
        let game = spec.validate()?;
        let winner = if strategy.winner == "first" { Side::First } else { Side::Second };
        let mut moves = HashMap::new();
        for (text, weight, next) in &strategy.moves {
            let next = match next {
                Some(name) => Some(
                    game.names
                        .iter()
                        .position(|n| n == name)
                        .ok_or(format!("unknown vertex '{name}'"))?,
                ),
                None => None,
            };
            moves.insert(text.clone(), (*weight, next));
        }
        Ok(VertexNim { game, winner, moves })
    }

    fn vertex(&self, name: &str) -> Result<usize, String> {
        self.game
            .names
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| format!("there is no vertex '{name}'"))
    }

    fn arc(&self) -> &'static str {
        if self.game.directed {
            ">"
        } else {
            "-"
        }
    }
}

/// The position and whose turn it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Turned {
    state: State,
    first_to_move: bool,
}

impl Family for VertexNim {
    type State = Turned;
    type Move = (u64, Option<usize>);

    fn start(&self) -> Turned {
        Turned { state: self.game.start.clone(), first_to_move: true }
    }

    fn to_move(&self, s: &Turned) -> Side {
        if s.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, s: &Turned) -> Vec<(u64, Option<usize>)> {
        self.game.moves(&s.state)
    }

    fn apply(&self, s: &Turned, &mv: &(u64, Option<usize>)) -> Turned {
        Turned { state: self.game.apply(&s.state, mv), first_to_move: !s.first_to_move }
    }

    fn write_move(&self, _: &Turned, &(weight, next): &(u64, Option<usize>)) -> String {
        format!("{weight}:{}", next.map_or("-", |v| self.game.names[v].as_str()))
    }

    fn read_move(&self, s: &Turned, text: &str) -> Result<(u64, Option<usize>), String> {
        let syntax = "a move is NEW-WEIGHT:NEXT-VERTEX, e.g. `2:b` (`0:-` empties the last vertex)";
        let (weight, next) = text.split_once(':').ok_or(syntax)?;
        let weight = weight.trim().parse::<u64>().map_err(|_| syntax.to_string())?;
        let next = match next.trim() {
            "-" => None,
            name => Some(self.vertex(name)?),
        };
        let Some(u) = s.state.token else { return Err("the game is over".into()) };
        if weight >= s.state.weights[u] {
            return Err(format!(
                "the token's vertex '{}' has weight {}: the new weight must be smaller",
                self.game.names[u], s.state.weights[u]
            ));
        }
        if !self.game.is_legal(&s.state, (weight, next)) {
            return Err(format!(
                "the token cannot go from '{}' to {} with that move",
                self.game.names[u],
                next.map_or("nowhere".to_string(), |v| format!("'{}'", self.game.names[v]))
            ));
        }
        Ok((weight, next))
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is NEW-WEIGHT:NEXT-VERTEX, e.g. `2:b`: lower the token vertex's weight and \
             move the token along an edge (`0:-` empties the last vertex); {:?} {:?} play",
            self.game.variant, self.game.play
        )
    }

    fn write_position(&self, s: &Turned) -> String {
        let names = &self.game.names;
        let weights: Vec<String> =
            s.state.weights.iter().enumerate().map(|(v, w)| format!("{}={w}", names[v])).collect();
        let mut edges = Vec::new();
        for (x, out) in s.state.adj.iter().enumerate() {
            for &y in out {
                if self.game.directed || x <= y {
                    edges.push(format!("{}{}{}", names[x], self.arc(), names[y]));
                }
            }
        }
        let token = s.state.token.map_or("-", |t| names[t].as_str());
        let turn = if s.first_to_move { "" } else { " (second to move)" };
        format!("{}; token {token}; edges {}{turn}", weights.join(", "), edges.join(", "))
    }

    fn read_position(&self, text: &str) -> Result<Turned, String> {
        let syntax = "a position is written `a=3, b=0; token a; edges a-b, a-a` (weights, token, \
                      edges)";
        let (text, turn) = turn_suffix(text)?;
        let parts: Vec<&str> = text.split(';').map(str::trim).collect();
        let [weights, token, edges] = parts[..] else { return Err(syntax.into()) };
        let n = self.game.names.len();
        let mut w = vec![None; n];
        for word in words(weights) {
            let (name, value) = word.split_once('=').ok_or(syntax)?;
            let v = self.vertex(name)?;
            let value =
                value.parse::<u64>().map_err(|_| format!("'{word}': a weight is a number"))?;
            if value > self.game.start.weights[v] {
                return Err(format!(
                    "'{name}' starts with weight {}: it cannot hold {value}",
                    self.game.start.weights[v]
                ));
            }
            if w[v].replace(value).is_some() {
                return Err(format!("vertex '{name}' is listed twice"));
            }
        }
        let weights = w
            .iter()
            .enumerate()
            .map(|(v, x)| {
                x.ok_or_else(|| format!("the weight of '{}' is missing", self.game.names[v]))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        let token = match token.strip_prefix("token").ok_or(syntax)?.trim() {
            "-" => None,
            name => Some(self.vertex(name)?),
        };
        let mut adj = vec![BTreeSet::new(); n];
        for word in words(edges.strip_prefix("edges").ok_or(syntax)?) {
            let (a, b) = word
                .split_once(self.arc())
                .ok_or_else(|| format!("'{word}' is not an edge: write it `a{}b`", self.arc()))?;
            let (a, b) = (self.vertex(a)?, self.vertex(b)?);
            adj[a].insert(b);
            if !self.game.directed {
                adj[b].insert(a);
            }
        }
        let first_to_move = turn != Some(Side::Second);
        Ok(Turned { state: State { weights, adj, token }, first_to_move })
    }

    fn draw(&self, s: &Turned) -> String {
        let names = &self.game.names;
        let weights: Vec<String> =
            s.state.weights.iter().enumerate().map(|(v, w)| format!("{}={w}", names[v])).collect();
        let token = match s.state.token {
            Some(t) => {
                let next: Vec<&str> = s.state.adj[t].iter().map(|&y| names[y].as_str()).collect();
                format!("token on {}; its edges go to: {}", names[t], brief(&next, SHOWN))
            }
            None => "no token: the last vertex is empty".into(),
        };
        format!("  weights: {}\n  {token}\n", brief(&weights, 2 * SHOWN))
    }

    fn summary(&self, s: &Turned) -> String {
        let weights = &s.state.weights;
        let total = weights.iter().fold(0u64, |sum, &w| sum.saturating_add(w));
        let empty = weights.iter().filter(|&&w| w == 0).count();
        let token = match s.state.token {
            Some(t) => format!("the token is on {} (weight {})", self.game.names[t], weights[t]),
            None => "no token".into(),
        };
        format!(
            "{token}; weight {total} left on {}, {empty} empty",
            counted(weights.len(), "vertex")
        )
    }

    fn outcome(&self, s: &Turned) -> Option<Outcome> {
        if self.game.move_count(&s.state) > 0 {
            return None;
        }
        let stuck = self.to_move(s);
        let winner = if self.game.stuck_player_wins() { stuck } else { stuck.other() };
        let result = format!(
            "{} has no move: {} wins ({:?} play)",
            self.side_name(stuck),
            self.side_name(winner),
            self.game.play
        );
        Some(Outcome { winner: Some(winner), result })
    }

    fn reply(&self, s: &Turned) -> Option<(u64, Option<usize>)> {
        if self.to_move(s) != self.winner {
            return None;
        }
        let mv = *self.moves.get(&s.state.text(self.game.directed))?;
        self.game.is_legal(&s.state, mv).then_some(mv)
    }

    fn default_human(&self) -> Side {
        self.winner.other()
    }

    fn claim_met(&self, s: &Turned, side: Side) -> Option<bool> {
        (side == self.winner).then(|| self.outcome(s).and_then(|o| o.winner) == Some(side))
    }

    fn svg(&self, s: &Turned, marked: Option<&(u64, Option<usize>)>, caption: &str) -> String {
        let note = crate::base::game_pictures::vertexnim_note(
            &self.game,
            self.game.move_count(&s.state) == 0,
            s.first_to_move,
            Some(self.winner == Side::First),
        );
        crate::base::game_pictures::vertexnim_svg(
            &self.game,
            &s.state,
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

    #[test]
    fn notation_errors_name_the_fault() {
        let (Instance::VertexNim(spec), Certificate::VertexNimStrategy(cert)) =
            fixture("vertexnim-strategy")
        else {
            panic!("a vertexnim-strategy fixture")
        };
        let game = VertexNim::new(&spec, &cert).unwrap();
        let start = game.start();
        assert!(game.read_move(&start, "v3").unwrap_err().contains("NEW-WEIGHT:NEXT-VERTEX"));
        assert!(game.read_move(&start, "0:zz").unwrap_err().contains("no vertex 'zz'"));
        assert!(game.read_move(&start, "1:v3").unwrap_err().contains("must be smaller"));
        assert!(game.read_move(&start, "0:v2").unwrap_err().contains("cannot go"));
        assert!(game.read_position("v0=1").unwrap_err().contains("weights, token, edges"));
        let text = game.write_position(&start);
        let more = text.replacen("v2=3", "v2=4", 1);
        assert!(game.read_position(&more).unwrap_err().contains("cannot hold 4"));
        let missing = text.replacen("v2=3, ", "", 1);
        assert!(game.read_position(&missing).unwrap_err().contains("weight of 'v2' is missing"));
        assert!(game.read_position(&text).unwrap() == start);
        let second = game.apply(&start, &game.reply(&start).unwrap());
        let text = game.write_position(&second);
        assert!(text.ends_with("(second to move)"), "{text}");
        assert!(game.read_position(&text).unwrap() == second);
    }
}

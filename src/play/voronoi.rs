//! The multi-round Voronoi game: `voronoi-strategy` (one side's strategy) and `voronoi-value`
//! (both sides'), played in vertex names.
//!
//! Notation: a move is a vertex name; a position is `W: a, c  B: b` (each side's vertices).
//!
//! A certificate may list positions only up to symmetry: the checker explores one opponent
//! move per orbit of verified generators, per twin class, or per verified symmetry witness, and
//! the strategy's table holds the positions those lead to. So each side's strategy carries a
//! frame, a relabelling of the vertices onto the certificate's: when the opponent's move is one
//! the checker folded onto another, the frame takes on the verified automorphism that maps it
//! there (exactly the fold the checker made), and the strategy's move is read back through the
//! frame. Without symmetry data the frame stays the identity.

use super::{brief, find_history, signed, words, Family, Outcome, Side, SHOWN};
use crate::base::graph_svg::GraphPicture;
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::format::{MultiRoundSpec, VoronoiStrategy};
use gamecert_certificates::voronoi::multi_round::{margin, orbit_representatives, StrategyClaim};
use gamecert_certificates::voronoi::rules::{score, to_move, Player};
use std::collections::HashMap;

const EMPTY: u8 = b'.';

/// One side's strategy, its tables by position text (the checker has verified every entry).
struct Tables {
    player: Player,
    /// The margin the certificate claims for its player.
    needed: i64,
    moves: HashMap<String, usize>,
    /// (position, opponent's move) -> (equivalent move, the automorphism as a full map).
    symmetries: HashMap<(String, usize), (usize, Vec<usize>)>,
    /// For each vertex, its twin class; each class's members in listed order.
    twin_of: Vec<Option<usize>>,
    classes: Vec<Vec<usize>>,
    /// Each generator as a full map of the vertices.
    generators: Vec<Vec<usize>>,
    orbits: HashMap<String, Vec<usize>>,
}

impl Tables {
    fn new(graph: &Graph, strategy: &VoronoiStrategy) -> Result<Tables, String> {
        let n = graph.len();
        let vertex = |name: &str| {
            graph.vertex(name).ok_or_else(|| format!("unknown vertex '{name}' in the certificate"))
        };
        let full = |pairs: &[(String, String)]| -> Result<Vec<usize>, String> {
            let mut map: Vec<usize> = (0..n).collect();
            for (v, w) in pairs {
                map[vertex(v)?] = vertex(w)?;
            }
            Ok(map)
        };
        let needed = match strategy.claim {
            StrategyClaim::Wins => 1,
            StrategyClaim::AtLeastTies => 0,
            StrategyClaim::MarginAtLeast => strategy.margin.unwrap_or(0),
        };
        let mut moves = HashMap::new();
        for (p, v) in &strategy.moves {
            moves.insert(p.clone(), vertex(v)?);
        }
        let mut symmetries = HashMap::new();
        for (p, m, as_, perm) in &strategy.symmetries {
            symmetries.insert((p.clone(), vertex(m)?), (vertex(as_)?, full(perm)?));
        }
        let mut twin_of = vec![None; n];
        let mut classes = Vec::new();
        for (c, class) in strategy.twin_classes.iter().enumerate() {
            let members = class.iter().map(|v| vertex(v)).collect::<Result<Vec<_>, _>>()?;
            for &v in &members {
                twin_of[v] = Some(c);
            }
            classes.push(members);
        }
        let generators =
            strategy.generators.iter().map(|g| full(g)).collect::<Result<Vec<_>, _>>()?;
        let orbits = strategy.orbits.iter().cloned().collect();
        Ok(Tables {
            player: strategy.player,
            needed,
            moves,
            symmetries,
            twin_of,
            classes,
            generators,
            orbits,
        })
    }

    fn uses_symmetry(&self) -> bool {
        !self.symmetries.is_empty() || !self.classes.is_empty() || !self.orbits.is_empty()
    }

    /// The automorphism the checker used to fold the opponent's move `y` (in the certificate's
    /// frame) at the certificate's position `q`, if it folded it: as the checker does, an
    /// orbit entry first; otherwise the twin class, then a symmetry witness.
    fn fold(&self, q: &[u8], y: usize) -> Option<Vec<usize>> {
        let n = q.len();
        let key = String::from_utf8_lossy(q).into_owned();
        if let Some(list) = self.orbits.get(&key) {
            let chosen: Vec<Vec<(usize, usize)>> = list
                .iter()
                .map(|&g| {
                    self.generators[g]
                        .iter()
                        .enumerate()
                        .filter(|(v, w)| v != *w)
                        .map(|(v, &w)| (v, w))
                        .collect()
                })
                .collect();
            let slices: Vec<&[(usize, usize)]> = chosen.iter().map(Vec::as_slice).collect();
            let representative = orbit_representatives(n, &slices)[y];
            return (representative != y).then(|| self.group_element(list, y, representative));
        }
        let mut frame: Option<Vec<usize>> = None;
        let mut y = y;
        if let Some(c) = self.twin_of[y] {
            let first = self.classes[c].iter().copied().find(|&r| q[r] == EMPTY);
            if let Some(f) = first.filter(|&f| f != y) {
                let mut swap: Vec<usize> = (0..n).collect();
                swap.swap(y, f);
                frame = Some(swap);
                y = f;
            }
        }
        if let Some((_, perm)) = self.symmetries.get(&(key, y)) {
            frame = Some(match frame {
                Some(swap) => swap.iter().map(|&v| perm[v]).collect(),
                None => perm.clone(),
            });
        }
        frame
    }

    /// An element of the group the generators `list` generate that maps `from` to `to`: a
    /// breadth-first search over the orbit, composing generators along the way.
    fn group_element(&self, list: &[usize], from: usize, to: usize) -> Vec<usize> {
        let n = self.generators.first().map_or(0, Vec::len);
        let mut reached: HashMap<usize, Vec<usize>> = HashMap::new();
        reached.insert(from, (0..n).collect());
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            if v == to {
                break;
            }
            let path = reached[&v].clone();
            for &g in list {
                let generator = &self.generators[g];
                let w = generator[v];
                if let std::collections::hash_map::Entry::Vacant(slot) = reached.entry(w) {
                    slot.insert(path.iter().map(|&x| generator[x]).collect());
                    queue.push_back(w);
                }
            }
        }
        reached.remove(&to).expect("the representative is in the orbit")
    }
}

/// A position: the owners, and each strategy's frame (actual vertex -> certificate's vertex).
#[derive(Clone)]
pub(crate) struct State {
    cells: Vec<u8>,
    frames: Vec<Vec<usize>>,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.cells == other.cells
    }
}

pub(crate) struct Voronoi {
    graph: Graph,
    rounds: usize,
    start: Vec<u8>,
    strategies: Vec<Tables>,
    /// The graph laid out for pictures, once (every frame shares it).
    layout: std::sync::OnceLock<Result<GraphPicture, String>>,
}

impl Voronoi {
    /// The game of `spec` with W's strategy, B's, or both.
    pub(crate) fn new(
        spec: &MultiRoundSpec,
        white: Option<&VoronoiStrategy>,
        black: Option<&VoronoiStrategy>,
    ) -> Result<Voronoi, String> {
        let game = spec.validate().map_err(|e| e.to_string())?;
        let strategies = [white, black]
            .into_iter()
            .flatten()
            .map(|s| Tables::new(&game.graph, s))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Voronoi {
            graph: game.graph,
            rounds: game.rounds,
            start: game.start,
            strategies,
            layout: std::sync::OnceLock::new(),
        })
    }

    /// What the certificate claims, in words, for a picture's note.
    fn claims(&self) -> String {
        let claims: Vec<String> = self
            .strategies
            .iter()
            .map(|t| {
                let me = if t.player == Player::White { "W" } else { "B" };
                match t.needed {
                    1 => format!("{me} wins"),
                    0 => format!("{me} at least ties"),
                    k => format!("{me}'s margin is at least {k}"),
                }
            })
            .collect();
        format!("Certified: {}, against every reply.", claims.join("; "))
    }

    fn mover(&self, cells: &[u8]) -> Option<Player> {
        to_move(cells, self.rounds).ok().flatten()
    }

    fn side(player: Player) -> Side {
        match player {
            Player::White => Side::First,
            Player::Black => Side::Second,
        }
    }

    /// The position as the strategy's frame sees it.
    fn seen(cells: &[u8], frame: &[usize]) -> Vec<u8> {
        let mut q = vec![EMPTY; cells.len()];
        for (v, &c) in cells.iter().enumerate() {
            q[frame[v]] = c;
        }
        q
    }
}

impl Family for Voronoi {
    type State = State;
    type Move = usize;

    fn start(&self) -> State {
        let identity: Vec<usize> = (0..self.graph.len()).collect();
        State { cells: self.start.clone(), frames: vec![identity; self.strategies.len()] }
    }

    fn to_move(&self, state: &State) -> Side {
        Voronoi::side(self.mover(&state.cells).unwrap_or(Player::White))
    }

    fn moves(&self, state: &State) -> Vec<usize> {
        (0..state.cells.len()).filter(|&v| state.cells[v] == EMPTY).collect()
    }

    fn apply(&self, state: &State, &v: &usize) -> State {
        let mover = self.mover(&state.cells).expect("a move is played before the game ends");
        let mut next = state.clone();
        for (tables, frame) in self.strategies.iter().zip(&mut next.frames) {
            if tables.player != mover {
                let q = Voronoi::seen(&state.cells, frame);
                if let Some(g) = tables.fold(&q, frame[v]) {
                    *frame = frame.iter().map(|&x| g[x]).collect();
                }
            }
        }
        next.cells[v] = match mover {
            Player::White => b'W',
            Player::Black => b'B',
        };
        next
    }

    fn write_move(&self, _: &State, &v: &usize) -> String {
        self.graph.name(v).to_string()
    }

    fn read_move(&self, state: &State, text: &str) -> Result<usize, String> {
        let v = self.graph.vertex(text).ok_or_else(|| format!("there is no vertex '{text}'"))?;
        match state.cells[v] {
            EMPTY => Ok(v),
            b'W' => Err(format!("'{text}' is taken by W: choose an empty vertex")),
            _ => Err(format!("'{text}' is taken by B: choose an empty vertex")),
        }
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is the name of an empty vertex (W and B take turns, W first in each of {} \
             rounds)",
            self.rounds
        )
    }

    fn write_position(&self, state: &State) -> String {
        write_cells(&self.graph, &state.cells)
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let cells = read_cells(&self.graph, text)?;
        if let Some(v) =
            (0..cells.len()).find(|&v| self.start[v] != EMPTY && cells[v] != self.start[v])
        {
            return Err(format!(
                "vertex '{}' is held from the start by the other side",
                self.graph.name(v)
            ));
        }
        to_move(&cells, self.rounds)?;
        let mut state = self.start();
        state.cells = cells;
        let Some(mover) = self.mover(&state.cells) else { return Ok(state) };
        let Some(tables) = self.strategies.iter().find(|t| t.player == mover) else {
            return Ok(state);
        };
        let listed = tables.moves.contains_key(&*String::from_utf8_lossy(&state.cells));
        if listed || !tables.uses_symmetry() {
            return Ok(state);
        }
        // The certificate lists this position only up to symmetry: find a play that reaches it.
        let within =
            |s: &State| s.cells.iter().zip(&state.cells).all(|(&a, &b)| a == EMPTY || a == b);
        let key = |s: &State| String::from_utf8_lossy(&s.cells).into_owned();
        find_history(self, Voronoi::side(mover), |s| *s == state, within, key)
    }

    fn draw(&self, state: &State) -> String {
        let stones = |c| self.rounds + self.start.iter().filter(|&&x| x == c).count();
        draw_stones(&self.graph, &state.cells, [stones(b'W'), stones(b'B')])
    }

    fn summary(&self, state: &State) -> String {
        ownership(&self.graph, &state.cells)
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if self.mover(&state.cells).is_some() {
            return None;
        }
        let owned = |c: u8| -> Vec<usize> {
            (0..state.cells.len()).filter(|&v| state.cells[v] == c).collect()
        };
        let s = score(&self.graph, &owned(b'W'), &owned(b'B'));
        let winner = match s.white.cmp(&s.black) {
            std::cmp::Ordering::Greater => Some(Side::First),
            std::cmp::Ordering::Less => Some(Side::Second),
            std::cmp::Ordering::Equal => None,
        };
        let verdict = match winner {
            Some(Side::First) => format!("W wins by {}", s.white - s.black),
            Some(Side::Second) => format!("B wins by {}", s.black - s.white),
            None => "a tie".into(),
        };
        let result = format!(
            "W is nearer to {} vertices, B to {} ({} neutral): {verdict}",
            s.white, s.black, s.neutral
        );
        Some(Outcome { winner, result })
    }

    fn reply(&self, state: &State) -> Option<usize> {
        let mover = self.mover(&state.cells)?;
        let (tables, frame) =
            self.strategies.iter().zip(&state.frames).find(|(t, _)| t.player == mover)?;
        let q = Voronoi::seen(&state.cells, frame);
        let m = *tables.moves.get(&*String::from_utf8_lossy(&q))?;
        let v = frame.iter().position(|&x| x == m)?;
        (state.cells[v] == EMPTY).then_some(v)
    }

    fn side_name(&self, side: Side) -> String {
        match side {
            Side::First => "W".into(),
            Side::Second => "B".into(),
        }
    }

    fn default_human(&self) -> Side {
        match self.strategies.as_slice() {
            [one] => Voronoi::side(one.player).other(),
            // A value: the person takes the side the value goes against (W on a tie).
            both => {
                let white_needed =
                    both.iter().find(|t| t.player == Player::White).map_or(0, |t| t.needed);
                if white_needed > 0 {
                    Side::Second
                } else {
                    Side::First
                }
            }
        }
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        let tables = self.strategies.iter().find(|t| Voronoi::side(t.player) == side)?;
        Some(margin(&self.graph, &state.cells, tables.player) >= tables.needed)
    }

    fn svg(&self, state: &State, marked: Option<&usize>, caption: &str) -> String {
        let layout = self.layout.get_or_init(|| {
            GraphPicture::new(self.graph.names().map(str::to_string).collect(), self.graph.edges())
        });
        let Ok(layout) = layout else {
            let marked = marked.map(|&v| self.graph.name(v).to_string());
            return crate::base::svg::text_picture(&self.draw(state), marked.as_deref(), caption);
        };
        let open = self.mover(&state.cells);
        let turn = match open {
            Some(Player::White) => "W to move (click an empty vertex).",
            Some(Player::Black) => "B to move (click an empty vertex).",
            None => "The game is over.",
        };
        let note = format!("{turn} {}", self.claims());
        crate::base::game_pictures::voronoi_frame(
            &self.graph,
            layout,
            &state.cells,
            open.is_some(),
            marked.copied(),
            caption,
            &note,
        )
    }
}

/// The stones and the empty vertices, a line each, long lists cut with a count: `W's stones
/// (2 of 3): a c`, then B's, then `empty (5): d e f g h`. `stones` is how many each side places
/// in all (its start stones and one a round).
pub(crate) fn draw_stones(graph: &Graph, cells: &[u8], stones: [usize; 2]) -> String {
    let names = |owner: u8| -> Vec<&str> {
        (0..cells.len()).filter(|&v| cells[v] == owner).map(|v| graph.name(v)).collect()
    };
    let (white, black, empty) = (names(b'W'), names(b'B'), names(EMPTY));
    format!(
        "  W's stones ({} of {}): {}\n  B's stones ({} of {}): {}\n  empty ({}): {}\n",
        white.len(),
        stones[0],
        brief(&white, SHOWN),
        black.len(),
        stones[1],
        brief(&black, SHOWN),
        empty.len(),
        brief(&empty, SHOWN)
    )
}

/// Who owns what if the game ended now, by the checker's rules
/// ([`gamecert_certificates::voronoi::rules::score`]): each side's Voronoi cell (the vertices
/// strictly nearer to its stones), the neutral vertices, and W's margin so far.
pub(crate) fn ownership(graph: &Graph, cells: &[u8]) -> String {
    let stones = |c: u8| -> Vec<usize> { (0..cells.len()).filter(|&v| cells[v] == c).collect() };
    let (white, black) = (stones(b'W'), stones(b'B'));
    let s = score(graph, &white, &black);
    // The cells themselves, named: the same comparison of distances as the checker's score.
    let (to_white, to_black) = (graph.distances_from(&white), graph.distances_from(&black));
    let cell = |nearer: std::cmp::Ordering| -> Vec<&str> {
        (0..cells.len())
            .filter(|&v| to_white[v].cmp(&to_black[v]) == nearer)
            .map(|v| graph.name(v))
            .collect()
    };
    let (w_cell, b_cell) = (cell(std::cmp::Ordering::Less), cell(std::cmp::Ordering::Greater));
    debug_assert_eq!((w_cell.len(), b_cell.len()), (s.white, s.black));
    let owns = |side: &str, cell: &[&str]| match cell.len() {
        0 => format!("{side} owns nothing"),
        n => format!("{side} owns {n} ({})", brief(cell, 8)),
    };
    format!(
        "{}, {}, {} neutral; W's margin so far {}",
        owns("W", &w_cell),
        owns("B", &b_cell),
        s.neutral,
        signed(s.white as i64 - s.black as i64)
    )
}

/// A position's owners written `W: a, c  B: b` (each side's vertices).
pub(crate) fn write_cells(graph: &Graph, cells: &[u8]) -> String {
    let names = |owner: u8| -> Vec<&str> {
        (0..cells.len()).filter(|&v| cells[v] == owner).map(|v| graph.name(v)).collect()
    };
    format!("W: {}  B: {}", names(b'W').join(", "), names(b'B').join(", "))
}

/// Reads the owners written `W: a, c  B: b` (each vertex at most once; a side that holds
/// nothing may be left out, `W: a`).
pub(crate) fn read_cells(graph: &Graph, text: &str) -> Result<Vec<u8>, String> {
    let (white, black) = match (text.find("W:"), text.find("B:")) {
        (None, None) => {
            return Err("a position is written `W: a, b  B: c` (each side's vertices)".into())
        }
        (Some(w_at), None) => (&text[w_at + 2..], ""),
        (None, Some(b_at)) => ("", &text[b_at + 2..]),
        (Some(w_at), Some(b_at)) if w_at < b_at => (&text[w_at + 2..b_at], &text[b_at + 2..]),
        (Some(w_at), Some(b_at)) => (&text[w_at + 2..], &text[b_at + 2..w_at]),
    };
    if !(text.trim_start().starts_with("W:") || text.trim_start().starts_with("B:")) {
        return Err("a position is written `W: a, b  B: c` (each side's vertices)".into());
    }
    let mut cells = vec![EMPTY; graph.len()];
    for (list, mark) in [(white, b'W'), (black, b'B')] {
        for name in words(list) {
            let v = graph.vertex(name).ok_or(format!("there is no vertex '{name}'"))?;
            if cells[v] != EMPTY {
                return Err(format!("vertex '{name}' is listed twice"));
            }
            cells[v] = mark;
        }
    }
    Ok(cells)
}

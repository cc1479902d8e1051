//! Vertex nim played on graphs (seed 004, Duchene and Renault) and Stockman's Vertex NimG: the
//! instance kind `vertexnim`, its validation, the reference rules, and the replay of a
//! `vertexnim-strategy` certificate.
//!
//! # Instances
//!
//! ```json
//! {"format": "gamecert-instance", "version": 1, "kind": "vertexnim",
//!  "directed": false, "variant": "vertexnim", "play": "normal",
//!  "vertices": [{"name": "a", "weight": 3}, {"name": "b", "weight": 1}],
//!  "edges": [["a", "b"], ["a", "a"]], "token": "a"}
//! ```
//!
//! `edges` (alias `arcs`) are unordered pairs when `directed` is false and arcs `[from, to]`
//! when it is true; a pair `[x, x]` is a loop. A pair listed twice (in either order when
//! undirected) is refused: the games have no multiple edges, and an instance is exactly what
//! its file says. `variant` is `vertexnim`
//! (the paper's game) or `nimg` (Stockman's Vertex NimG, remove then move); `play` is `normal`
//! (the last player to move wins) or `misere` (the last player to move loses).
//!
//! Validation (bad input, exit 2 on the command line): at least one vertex; distinct names;
//! every weight at least 1 (at least 0 under nimg); edges between known vertices, none listed twice; the token on a known vertex; an
//! undirected graph must be connected (both variants); a directed `vertexnim` graph must be
//! strongly connected (Definition 2 needs it so that a player is never stuck).
//!
//! # The rules, as this checker reads the paper
//!
//! A position is the current graph, the weights and the token. A move at the token's vertex u
//! (weight w(u) >= 1) picks a new weight k with 0 <= k < w(u) and a next vertex v, then:
//!
//! - **vertexnim, k > 0**: v is a neighbour of u in the current graph (an out-neighbour when
//!   directed); v = u is allowed exactly when u has a loop ("the token may stay").
//! - **vertexnim, k = 0** (u is emptied): v is a neighbour (out-neighbour) of u other than u,
//!   taken in the graph before u is removed. Then u and its edges go. Undirected (Definition 1):
//!   the neighbours of u become a clique and each of them gets a loop. Directed (Definition 2):
//!   for every arc x -> u and every arc u -> y with x, y other than u, the arc x -> y is added
//!   (a loop when x = y). If u was the last vertex, there is no next vertex: the graph is empty
//!   and the game is over. Emptying the last vertex is the only move that ends the game; with
//!   the connectivity the instance is checked for, some v always exists otherwise.
//! - **nimg, any k**: v is a neighbour (out-neighbour) of u, v = u only with a loop; vertices
//!   of weight 0 stay in the graph. The token may land on a vertex of weight 0; a player whose
//!   token vertex has weight 0 has no move.
//!
//! A (new weight, next vertex) pair whose next vertex does not exist is not a move: a vertex
//! with no loop and no other neighbour can only be emptied when it is the last one
//! (vertexnim), and has no move at all under nimg.
//!
//! **Who wins.** A player with no move has lost under normal play and has won under misere
//! play. In vertexnim the only position without a move is the empty graph, so normal play
//! means "who empties the last vertex wins", as in the paper. In nimg a player is stuck on a
//! vertex of weight 0 (Stockman: "a player who must play from a zero loses"), or on a vertex
//! with weight but no edge to follow.
//!
//! # Certificates
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "vertexnim-strategy",
//!  "winner": "first", "moves": [["w=2,1;t=0;e=0-1,0-0", 0, "b"], ...]}
//! ```
//!
//! `moves` gives the winner's move at each of its positions: the position's canonical text
//! ([`State::text`]: weights in vertex order, the token's index, the sorted edge list of the
//! current graph), the new weight of the token's vertex and the next vertex by name (null when
//! the move ends the game). The checker replays from the instance's position, the first player
//! to move: at the winner's positions it looks the move up by the text it computes itself and
//! checks it is legal; at the other player's positions it follows every legal move. Each
//! (position, player to move) is expanded once. A position without a move must be a loss for
//! the player to move when that is the other player (normal play) or a win for the winner to
//! move (misere play). Nothing is trusted beyond these rules.

use crate::base::budget::Budget;
use crate::base::fingerprint::Fingerprints;
use crate::replay::{replay, Node, Rules};
use crate::verdict::{reject, Claim, Theorem, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Duchene and Renault's game: an emptied vertex is removed and its neighbourhood joined.
    Vertexnim,
    /// Stockman's Vertex NimG, remove then move: emptied vertices stay.
    Nimg,
}

/// Normal or misere play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    Normal,
    Misere,
}

/// A named vertex with its weight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexSpec {
    pub name: String,
    /// Signed so that a negative weight is read and refused with a clear message.
    pub weight: i64,
}

/// Instance kind `vertexnim`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexNimSpec {
    #[serde(default)]
    pub directed: bool,
    pub variant: Variant,
    pub play: Play,
    pub vertices: Vec<VertexSpec>,
    #[serde(alias = "arcs")]
    pub edges: Vec<(String, String)>,
    pub token: String,
    /// Where the instance came from (for the user; the checker ignores it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<serde_json::Value>,
}

/// A position: weights (0 = removed under vertexnim), out-neighbour sets (symmetric when
/// undirected; `v` in `adj[v]` is a loop) and the token (`None` once the graph is empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub weights: Vec<u64>,
    pub adj: Vec<BTreeSet<usize>>,
    pub token: Option<usize>,
}

/// A validated instance.
#[derive(Clone, Debug)]
pub struct VertexNim {
    pub names: Vec<String>,
    pub directed: bool,
    pub variant: Variant,
    pub play: Play,
    pub start: State,
}

/// A move: the token vertex's new weight and the next vertex (`None`: the game ends).
pub type Move = (u64, Option<usize>);

impl VertexNimSpec {
    /// Checks the instance (see the module docs) and builds the start position.
    pub fn validate(&self) -> Result<VertexNim, String> {
        if self.vertices.is_empty() {
            return Err("vertices: the graph has no vertex".into());
        }
        let mut index = HashMap::new();
        let mut weights = Vec::with_capacity(self.vertices.len());
        for (k, v) in self.vertices.iter().enumerate() {
            if index.insert(v.name.as_str(), k).is_some() {
                fail!("vertices[{k}]: the name '{}' is used twice", v.name);
            }
            // NimG keeps emptied vertices (a player stuck on one loses), so it may start with
            // some; vertexnim removes them, so its vertices start with weight at least 1.
            let least = if self.variant == Variant::Nimg { 0 } else { 1 };
            ensure!(
                v.weight >= least,
                "vertices[{k}] ('{}'): weight {} is below {least} (every vertex starts with \
                     weight at least {least} under {})",
                v.name,
                v.weight,
                if least == 0 { "nimg" } else { "vertexnim" }
            );
            weights.push(v.weight as u64);
        }
        let n = weights.len();
        let mut adj = vec![BTreeSet::new(); n];
        for (k, (a, b)) in self.edges.iter().enumerate() {
            let find = |name: &String| {
                index
                    .get(name.as_str())
                    .copied()
                    .ok_or_else(|| format!("edges[{k}]: unknown vertex '{name}'"))
            };
            let (x, y) = (find(a)?, find(b)?);
            if !adj[x].insert(y) || (!self.directed && x != y && !adj[y].insert(x)) {
                fail!(
                    "edges[{k}]: the {} {a} {} {b} is listed twice",
                    if self.directed { "arc" } else { "edge" },
                    if self.directed { "->" } else { "-" }
                );
            }
        }
        let token = *index.get(self.token.as_str()).ok_or_else(|| {
            format!("token: the token is on '{}', which is not a vertex", self.token)
        })?;
        if !self.directed {
            if let Some(v) = unreached(&adj, false) {
                fail!(
                    "the undirected graph is not connected: '{}' cannot be reached from '{}'",
                    self.vertices[v].name,
                    self.vertices[0].name
                );
            }
        } else if self.variant == Variant::Vertexnim {
            if let Some((v, forward)) = unreached(&adj, false)
                .map(|v| (v, true))
                .or_else(|| unreached(&adj, true).map(|v| (v, false)))
            {
                let (from, to) = if forward {
                    (&self.vertices[0].name, &self.vertices[v].name)
                } else {
                    (&self.vertices[v].name, &self.vertices[0].name)
                };
                fail!(
                    "the digraph is not strongly connected (directed vertexnim needs it): there \
                     is no directed path from '{from}' to '{to}'"
                );
            }
        }
        Ok(VertexNim {
            names: self.vertices.iter().map(|v| v.name.clone()).collect(),
            directed: self.directed,
            variant: self.variant,
            play: self.play,
            start: State { weights, adj, token: Some(token) },
        })
    }
}

/// A vertex not reached from vertex 0 (along arcs, or against them when `reverse`).
fn unreached(adj: &[BTreeSet<usize>], reverse: bool) -> Option<usize> {
    let n = adj.len();
    let mut rev = vec![Vec::new(); n];
    if reverse {
        for (x, out) in adj.iter().enumerate() {
            for &y in out {
                rev[y].push(x);
            }
        }
    }
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(x) = stack.pop() {
        let next: Vec<usize> =
            if reverse { rev[x].clone() } else { adj[x].iter().copied().collect() };
        for y in next {
            if !seen[y] {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    seen.iter().position(|&s| !s)
}

impl VertexNim {
    /// The legal moves at `state` under this instance's variant.
    pub fn moves(&self, state: &State) -> Vec<Move> {
        match self.variant {
            Variant::Vertexnim => vertexnim_moves(state),
            Variant::Nimg => nimg_moves(state),
        }
    }

    /// How many moves [`VertexNim::moves`] lists at `state`, counted without listing them
    /// (saturating).
    pub fn move_count(&self, state: &State) -> u64 {
        let Some(u) = state.token else {
            return 0;
        };
        let (weight, next) = (state.weights[u], state.adj[u].len() as u64);
        match self.variant {
            Variant::Vertexnim => {
                let others = next - u64::from(state.adj[u].contains(&u));
                let ends = others == 0 && is_last(state, u);
                u64::from(ends) + others + weight.saturating_sub(1).saturating_mul(next)
            }
            Variant::Nimg => weight.saturating_mul(next),
        }
    }

    /// Whether `mv` is one of the moves [`VertexNim::moves`] lists at `state`, decided without
    /// listing them.
    pub fn is_legal(&self, state: &State, (k, next): Move) -> bool {
        let Some(u) = state.token else {
            return false;
        };
        if k >= state.weights[u] {
            return false;
        }
        match (self.variant, next) {
            // Emptying u goes to another neighbour, or ends the game when u is the last vertex
            // and has no other neighbour.
            (Variant::Vertexnim, None) => {
                k == 0 && state.adj[u].iter().all(|&v| v == u) && is_last(state, u)
            }
            (Variant::Vertexnim, Some(v)) if k == 0 => v != u && state.adj[u].contains(&v),
            (_, Some(v)) => state.adj[u].contains(&v),
            (Variant::Nimg, None) => false,
        }
    }

    /// An upper bound on [`state_cost`] of the position after `mv` at `state`: emptying a vertex
    /// of vertexnim may join each of its in-neighbours to each of its out-neighbours.
    fn cost_after(&self, state: &State, (k, _): Move) -> u64 {
        let before = state_cost(state);
        let Some(u) = state.token.filter(|_| k == 0 && self.variant == Variant::Vertexnim) else {
            return before;
        };
        let outs = state.adj[u].iter().filter(|&&y| y != u).count() as u64;
        let ins = if self.directed {
            (0..state.adj.len()).filter(|&x| x != u && state.adj[x].contains(&u)).count() as u64
        } else {
            outs
        };
        before.saturating_add(ins.saturating_mul(outs).saturating_mul(ARC_COST))
    }

    /// The position after `mv` (assumed legal).
    pub fn apply(&self, state: &State, mv: Move) -> State {
        match self.variant {
            Variant::Vertexnim => vertexnim_apply(state, mv, self.directed),
            Variant::Nimg => nimg_apply(state, mv),
        }
    }

    /// Does the player to move at a position without moves win? (Misere: yes.)
    pub fn stuck_player_wins(&self) -> bool {
        self.play == Play::Misere
    }
}

/// Whether every vertex but `u` has weight 0 (vertexnim: `u` is the last vertex left).
fn is_last(state: &State, u: usize) -> bool {
    state.weights.iter().enumerate().all(|(v, &w)| v == u || w == 0)
}

/// vertexnim: every new weight below the current one, to a neighbour; emptying goes to a
/// neighbour other than the token's vertex, or ends the game when no other vertex is left.
pub fn vertexnim_moves(state: &State) -> Vec<Move> {
    let Some(u) = state.token else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let others: Vec<usize> = state.adj[u].iter().copied().filter(|&v| v != u).collect();
    if others.is_empty() && is_last(state, u) {
        out.push((0, None));
    }
    for &v in &others {
        out.push((0, Some(v)));
    }
    for k in 1..state.weights[u] {
        for &v in &state.adj[u] {
            out.push((k, Some(v)));
        }
    }
    out
}

/// vertexnim: set the weight; if it is 0, remove the vertex and join its neighbourhood
/// (a clique with loops when undirected, x -> y for x -> u -> y when directed).
pub fn vertexnim_apply(state: &State, (k, next): Move, directed: bool) -> State {
    let mut s = state.clone();
    let u = state.token.expect("a move needs a token");
    s.weights[u] = k;
    if k == 0 {
        let outs: Vec<usize> = s.adj[u].iter().copied().filter(|&y| y != u).collect();
        let ins: Vec<usize> = if directed {
            (0..s.adj.len()).filter(|&x| x != u && s.adj[x].contains(&u)).collect()
        } else {
            outs.clone()
        };
        for &x in &ins {
            s.adj[x].remove(&u);
            for &y in &outs {
                s.adj[x].insert(y);
            }
        }
        s.adj[u].clear();
    }
    s.token = next;
    s
}

/// nimg: if the token's vertex has weight 0 there is no move; otherwise every new weight below
/// the current one, to any neighbour (itself only with a loop).
pub fn nimg_moves(state: &State) -> Vec<Move> {
    let Some(u) = state.token else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in 0..state.weights[u] {
        for &v in &state.adj[u] {
            out.push((k, Some(v)));
        }
    }
    out
}

/// nimg: set the weight, move the token; nothing is removed.
pub fn nimg_apply(state: &State, (k, next): Move) -> State {
    let mut s = state.clone();
    let u = state.token.expect("a move needs a token");
    s.weights[u] = k;
    s.token = next;
    s
}

impl State {
    /// Canonical text: `w=<weights>;t=<token index or ->;e=<edges>`, edges `x-y` (x <= y)
    /// when undirected and `x>y` when directed, in increasing order.
    pub fn text(&self, directed: bool) -> String {
        let weights: Vec<String> = self.weights.iter().map(|w| w.to_string()).collect();
        let mut edges = Vec::new();
        for (x, out) in self.adj.iter().enumerate() {
            for &y in out {
                if directed {
                    edges.push(format!("{x}>{y}"));
                } else if x <= y {
                    edges.push(format!("{x}-{y}"));
                }
            }
        }
        let token = self.token.map_or("-".to_string(), |t| t.to_string());
        format!("w={};t={token};e={}", weights.join(","), edges.join(","))
    }
}

/// "first" or "second".
pub const FIRST: &str = "first";
/// The second player.
pub const SECOND: &str = "second";

/// A winner's move in a certificate: position text, new weight, next vertex name.
pub type StrategyMove = (String, u64, Option<String>);

/// Certificate kind `vertexnim-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexNimStrategy {
    /// "first" (the player to move at the start) or "second".
    pub winner: String,
    pub moves: Vec<StrategyMove>,
}

/// What the replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StrategyReport {
    pub positions: u64,
    pub final_positions: u64,
    pub moves_followed: u64,
}

/// The work units of holding or building a position: its weights, its adjacency sets, its
/// canonical text.
fn state_cost(state: &State) -> u64 {
    let arcs: u64 = state.adj.iter().map(|a| a.len() as u64).sum();
    128 + state.weights.len() as u64 * 56 + arcs * ARC_COST
}

/// Work units per arc of a position held or built (its set entry and its text).
const ARC_COST: u64 = 64;

/// Work units per move listed besides the position it leads to (the move itself, 24 bytes).
const MOVE_COST: u64 = 24;

/// Replays `strategy` on `game`, charging `budget` for every position built, text computed
/// and move listed, before it happens (a weight of 10^18 is never enumerated).
pub fn check_strategy(
    game: &VertexNim,
    strategy: &VertexNimStrategy,
    budget: &mut Budget,
) -> Result<StrategyReport, String> {
    let winner_first = crate::base::winner_is_first(&strategy.winner)?;
    let index: HashMap<&str, usize> =
        game.names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    budget.charge_each(strategy.moves.len() as u64, 96, "reading the strategy")?;
    let mut table: HashMap<&str, Move> = HashMap::new();
    for (k, (text, weight, next)) in strategy.moves.iter().enumerate() {
        let next = match next {
            None => None,
            Some(name) => Some(
                *index
                    .get(name.as_str())
                    .ok_or_else(|| format!("moves[{k}]: unknown vertex '{name}'"))?,
            ),
        };
        if table.insert(text.as_str(), (*weight, next)).is_some() {
            fail!("moves[{k}]: position '{text}' is given twice");
        }
    }
    let mut walk = Walk {
        game,
        table,
        prints: Fingerprints::new(),
        path: Vec::new(),
        report: StrategyReport::default(),
    };
    walk.enter(game.start.clone(), winner_first, budget)?;
    let walked = replay(&mut walk, budget)?;
    Ok(StrategyReport {
        positions: walked.positions,
        final_positions: walked.leaves,
        ..walk.report
    })
}

/// A position of the replay: the state, whether the winner is to move, its text and key.
type Visit = (State, bool, String, u128);

/// The replay: the current position is the last of `path`.
struct Walk<'g> {
    game: &'g VertexNim,
    table: HashMap<&'g str, Move>,
    prints: Fingerprints,
    path: Vec<Visit>,
    report: StrategyReport,
}

impl Walk<'_> {
    /// Makes `state` the current position (its text, and its copy in the path, charged).
    fn enter(
        &mut self,
        state: State,
        winner_to_move: bool,
        budget: &mut Budget,
    ) -> Result<(), String> {
        budget.charge(state_cost(&state).saturating_mul(2), "replaying positions")?;
        let text = state.text(self.game.directed);
        let key = self.prints.of(&(text.as_str(), winner_to_move));
        self.path.push((state, winner_to_move, text, key));
        Ok(())
    }
}

impl Rules for Walk<'_> {
    type Move = Move;

    fn key(&self) -> u128 {
        self.path[self.path.len() - 1].3
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<Move>, String> {
        let game = self.game;
        let (state, winner_to_move, text, _) = &self.path[self.path.len() - 1];
        // Moves are counted, never listed before they are paid for: a weight of 10^18 must not
        // be enumerated, nor 10^8 moves held only to be refused one by one afterwards.
        let count = game.move_count(state);
        if count == 0 {
            let stuck_wins = game.stuck_player_wins();
            ensure!(
                *winner_to_move == stuck_wins,
                "position '{text}': the {} player is to move and has no move, which {} under {} play",
                if *winner_to_move { "winning" } else { "other" },
                if stuck_wins { "wins" } else { "loses" },
                if stuck_wins { "misere" } else { "normal" }
            );
            return Ok(Node::Leaf);
        }
        let cost = state_cost(state);
        if !*winner_to_move {
            // Each of the other player's moves is listed, then becomes a position built and
            // held: all of it charged before the list is built.
            budget
                .charge_each(count, cost.saturating_add(MOVE_COST), "listing moves")
                .map_err(|why| format!("{why} (position '{text}' has {count} moves)"))?;
            self.report.moves_followed += count;
            // Explored last first, as the replay before the engine did (the first failure found
            // is the one reported).
            return Ok(Node::Moves(game.moves(state).into_iter().rev().collect()));
        }
        let Some(&mv) = self.table.get(text.as_str()) else {
            fail!("position '{text}': the winner is to move and no move is given");
        };
        ensure!(
            game.is_legal(state, mv),
            "position '{text}': the move to weight {} and vertex {} is not legal",
            mv.0,
            mv.1.map_or("(none)".to_string(), |v| game.names[v].clone())
        );
        self.report.moves_followed += 1;
        budget.charge(cost, "replaying moves")?;
        Ok(Node::Moves(vec![mv]))
    }

    fn play(&mut self, mv: Move, budget: &mut Budget) -> Result<(), String> {
        let (state, winner_to_move, _, _) = &self.path[self.path.len() - 1];
        // Emptying a vertex may add arcs quadratic in its degree: refused before they are
        // built if the position they make cannot be paid for (`enter` then charges it).
        let bound = self.game.cost_after(state, mv).saturating_mul(2);
        budget.require(bound, "replaying positions")?;
        let (next, winner_next) = (self.game.apply(state, mv), !*winner_to_move);
        self.enter(next, winner_next, budget)
    }

    fn undo(&mut self, _: Move) {
        self.path.pop();
    }
}

/// Certificate kind `vertexnim-labelling`, for instances too large for a strategy: the
/// labelling of the reconstructed Theorem 10 (undirected vertexnim, normal play), Theorem 13
/// (the same, misere play) or Corollary 12 (undirected Vertex NimG, normal play), one letter
/// per vertex in instance order: `P` or `N` for the vertices of the labelled subgraph G*,
/// `.` for the others.
///
/// The checker recomputes G* (vertexnim: weight at least 2, no loop, no neighbour of weight
/// 1; NimG: positive weight, no loop, no neighbour of weight 0), checks every label locally
/// (a vertex of G* is P iff none of its G*-neighbours of strictly smaller weight is P, which
/// determines the labelling uniquely, by induction on the weight), decides the token's case
/// and compares with `winner`. It trusts the theorem itself
/// ([`crate::TRUSTED_VERTEXNIM_THEOREM_10`]), which the project has only tested exhaustively
/// on small graphs.
///
/// The same kind carries the peeling of Theorems 6 / 14 (directed, a loop on every vertex;
/// with `rounds`) and the mark of Theorem 3 (a directed circuit without loops; see
/// [`check_labelling`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexNimLabelling {
    /// "first" or "second".
    pub winner: String,
    pub labels: String,
    /// Directed vertexnim with a loop on every vertex only (Theorems 6 and 14): the peeling
    /// round of each weight-1 vertex (any number for the others); see [`check_labelling`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<Vec<u64>>,
}

/// Checks a labelling certificate; on success the theorem used and how the case was decided.
///
/// For directed vertexnim with a loop on every vertex (the reconstructed Theorem 6, and
/// Theorem 14 under misere play) the certificate also gives each weight-1 vertex a round, and
/// the checker verifies that the rounds are a run of the peeling of Definition 7: in round k,
/// the P vertices of the round (or, if there are none, its N vertices) form a set C that
/// induces a strongly connected digraph and has no arc to a weight-1 vertex of a later round
/// or to one of the same round outside C (so C is a sink strongly connected component of the
/// vertices not yet labelled); C is P iff |C| is odd; the other vertices of the round are N
/// and each has an arc into C; when C is P every weight-1 vertex with an arc into C belongs to
/// round k or an earlier one.
pub fn check_labelling(
    game: &VertexNim,
    cert: &VertexNimLabelling,
    budget: &mut Budget,
) -> Result<(&'static str, String), String> {
    // Every check below looks at each vertex and each arc a bounded number of times.
    budget.charge(state_cost(&game.start).saturating_mul(4), "checking the labels")?;
    if game.directed && game.variant == Variant::Vertexnim {
        let s = &game.start;
        return if (0..s.weights.len()).all(|v| !s.adj[v].contains(&v)) {
            check_circuit_labelling(game, cert)
        } else {
            check_directed_labelling(game, cert)
        };
    }
    let theorem =
        match (game.variant, game.directed, game.play) {
            (Variant::Vertexnim, false, Play::Normal) => "Theorem 10",
            (Variant::Vertexnim, false, Play::Misere) => "Theorem 13",
            (Variant::Nimg, false, Play::Normal) => "Corollary 12",
            _ => return Err(
                "a vertexnim-labelling certificate fits undirected vertexnim (normal or misere) \
                 and undirected NimG under normal play only"
                    .into(),
            ),
        };
    let claim_first = crate::base::winner_is_first(&cert.winner)?;
    let s = &game.start;
    let n = s.weights.len();
    let w = &s.weights;
    let u = s.token.ok_or("the start has no token")?;
    let labels = cert.labels.as_bytes();
    ensure!(labels.len() == n, "labels has {} letters for {n} vertices", labels.len());
    let nimg = game.variant == Variant::Nimg;
    let small = if nimg { 0 } else { 1 };
    let inside: Vec<bool> = (0..n)
        .map(|v| w[v] > small && !s.adj[v].contains(&v) && s.adj[v].iter().all(|&y| w[y] != small))
        .collect();
    for v in 0..n {
        let expected = if !inside[v] {
            b'.'
        } else if s.adj[v].iter().any(|&y| inside[y] && w[y] < w[v] && labels[y] == b'P') {
            b'N'
        } else {
            b'P'
        };
        ensure!(
            labels[v] == expected,
            "vertex '{}' is labelled '{}', the local rule gives '{}'",
            game.names[v],
            labels[v] as char,
            expected as char
        );
    }
    let misere = game.play == Play::Misere;
    let loop_u = s.adj[u].contains(&u);
    let (first, how) = if nimg {
        if loop_u {
            (true, "the token's vertex has a loop".to_string())
        } else {
            (labels[u] == b'N', format!("the token's vertex is labelled {}", labels[u] as char))
        }
    } else if w.iter().all(|&x| x == 1) {
        ((n % 2 == 1) != misere, format!("every weight is 1 and there are {n} vertices"))
    } else if n == 1 {
        (!misere || loop_u, "the token's vertex is the only one".to_string())
    } else if w[u] == 1 {
        let mut seen = vec![false; n];
        seen[u] = true;
        let mut stack = vec![u];
        let mut size = 0usize;
        while let Some(x) = stack.pop() {
            size += 1;
            for &y in &s.adj[x] {
                if !seen[y] && w[y] == 1 {
                    seen[y] = true;
                    stack.push(y);
                }
            }
        }
        (
            size.is_multiple_of(2),
            format!("the token's vertex has weight 1 in a weight-1 component of {size} vertices"),
        )
    } else if loop_u {
        (true, "the token's vertex has weight at least 2 and a loop".to_string())
    } else if s.adj[u].iter().any(|&y| w[y] == 1) {
        (true, "the token's vertex has weight at least 2 and a neighbour of weight 1".to_string())
    } else {
        (labels[u] == b'N', format!("the token's vertex is labelled {}", labels[u] as char))
    };
    conclude(theorem, first, how, claim_first, &cert.winner)
}

/// The verdict of a labelling check: the theorem decided `first`; the certificate claimed
/// `claim_first`.
fn conclude(
    theorem: &'static str,
    first: bool,
    how: String,
    claim_first: bool,
    winner: &str,
) -> Result<(&'static str, String), String> {
    ensure!(
        first == claim_first,
        "by {theorem} ({how}) the {} player wins, not the {winner}",
        if first { FIRST } else { SECOND },
    );
    Ok((theorem, how))
}

/// Adjacent Nim (the reconstructed Theorem 3): directed vertexnim, normal play, on a circuit
/// v0 -> v1 -> ... -> v(n-1) -> v0 (n >= 2, no loops) with every weight at least 2, the token
/// on v0. The labels mark with `M` the first vertex of minimum weight met from the token in
/// play order when n is even, and nothing (`.` everywhere) when n is odd. The checker walks
/// the circuit from the token, verifies its shape, the weights and the mark, and decides: n odd,
/// the first player wins; n even, the first player wins iff the mark sits at an odd offset
/// from the token. The theorem itself is trusted ([`crate::TRUSTED_VERTEXNIM_THEOREM_3`]).
fn check_circuit_labelling(
    game: &VertexNim,
    cert: &VertexNimLabelling,
) -> Result<(&'static str, String), String> {
    const THEOREM: &str = "Theorem 3";
    ensure!(game.play != Play::Misere, "{THEOREM} is a normal-play statement; this game is misere");
    let s = &game.start;
    let n = s.weights.len();
    let u = s.token.ok_or("the start has no token")?;
    let claim_first = crate::base::winner_is_first(&cert.winner)?;
    let mut indegree = vec![0usize; n];
    for out in &s.adj {
        for &y in out {
            indegree[y] += 1;
        }
    }
    if let Some(v) = (0..n).find(|&v| s.adj[v].len() != 1 || indegree[v] != 1) {
        fail!(
            "{THEOREM} needs a directed circuit; '{}' has {} out-arcs and {} in-arcs",
            game.names[v],
            s.adj[v].len(),
            indegree[v]
        );
    }
    let mut order = Vec::with_capacity(n);
    let mut at = u;
    loop {
        order.push(at);
        at = *s.adj[at].iter().next().expect("one out-arc, checked above");
        if at == u || order.len() > n {
            break;
        }
    }
    ensure!(
        order.len() == n,
        "{THEOREM} needs one circuit through every vertex; the token's circuit has {} of \
             the {n}",
        order.len()
    );
    if let Some(&v) = order.iter().find(|&&v| s.weights[v] < 2) {
        fail!(
            "{THEOREM} needs every weight at least 2; '{}' has weight {}",
            game.names[v],
            s.weights[v]
        );
    }
    let labels = cert.labels.as_bytes();
    ensure!(labels.len() == n, "labels has {} letters for {n} vertices", labels.len());
    if let Some(v) = (0..n).find(|&v| labels[v] != b'.' && labels[v] != b'M') {
        fail!(
            "vertex '{}' has label '{}' (only M and . are used on a circuit)",
            game.names[v],
            labels[v] as char
        );
    }
    let marked: Vec<usize> = (0..n).filter(|&i| labels[order[i]] == b'M').collect();
    if n % 2 == 1 {
        if let Some(&i) = marked.first() {
            fail!(
                "the circuit has odd length {n}, so nothing is marked, but '{}' is",
                game.names[order[i]]
            );
        }
        return conclude(
            THEOREM,
            true,
            format!("the circuit has odd length {n}"),
            claim_first,
            &cert.winner,
        );
    }
    let &[offset] = &marked[..] else {
        fail!(
            "exactly one vertex must be marked M on a circuit of even length; {} are",
            marked.len()
        );
    };
    let w = |i: usize| s.weights[order[i]];
    if let Some(j) = (0..n).find(|&j| w(j) < w(offset) || (j < offset && w(j) == w(offset))) {
        fail!(
            "'{}' (weight {}, offset {offset} from the token) is not the first vertex of minimum \
             weight: '{}' has weight {} at offset {j}",
            game.names[order[offset]],
            w(offset),
            game.names[order[j]],
            w(j)
        );
    }
    conclude(
        THEOREM,
        offset % 2 == 1,
        format!(
            "the circuit has even length {n} and its first vertex of minimum weight, '{}', is at \
             offset {offset} from the token",
            game.names[order[offset]]
        ),
        claim_first,
        &cert.winner,
    )
}

fn check_directed_labelling(
    game: &VertexNim,
    cert: &VertexNimLabelling,
) -> Result<(&'static str, String), String> {
    let misere = game.play == Play::Misere;
    let theorem = if misere { "Theorem 14" } else { "Theorem 6" };
    let s = &game.start;
    let n = s.weights.len();
    let w = &s.weights;
    let u = s.token.ok_or("the start has no token")?;
    if let Some(v) = (0..n).find(|&v| !s.adj[v].contains(&v)) {
        fail!("{theorem} needs a loop on every vertex; '{}' has none", game.names[v]);
    }
    let claim_first = crate::base::winner_is_first(&cert.winner)?;
    let labels = cert.labels.as_bytes();
    ensure!(labels.len() == n, "labels has {} letters for {n} vertices", labels.len());
    let rounds = cert.rounds.as_ref().ok_or("rounds are missing")?;
    ensure!(rounds.len() == n, "rounds has {} entries for {n} vertices", rounds.len());
    let v1 = |v: usize| w[v] == 1;
    for v in 0..n {
        let ok = if v1(v) { labels[v] == b'P' || labels[v] == b'N' } else { labels[v] == b'.' };
        ensure!(
            ok,
            "vertex '{}' (weight {}) has label '{}'",
            game.names[v],
            w[v],
            labels[v] as char
        );
    }
    let mut by_round: std::collections::BTreeMap<u64, Vec<usize>> = Default::default();
    for v in (0..n).filter(|&v| v1(v)) {
        by_round.entry(rounds[v]).or_default().push(v);
    }
    let mut rev = vec![Vec::new(); n];
    for (x, out) in s.adj.iter().enumerate() {
        for &y in out {
            rev[y].push(x);
        }
    }
    let mut in_c = vec![false; n];
    // One visited array for every search, reset after each to what it touched: the peeling's
    // rounds partition the vertices, so all the searches together stay linear.
    let mut seen = vec![false; n];
    for (&k, members) in &by_round {
        let ps: Vec<usize> = members.iter().copied().filter(|&v| labels[v] == b'P').collect();
        let c: Vec<usize> = if ps.is_empty() { members.clone() } else { ps };
        let odd = c.len() % 2 == 1;
        if odd == c.iter().any(|&v| labels[v] == b'N') || (odd && labels[c[0]] != b'P') {
            let expected = if odd { 'P' } else { 'N' };
            let wrong = c.iter().copied().find(|&v| labels[v] != expected as u8).unwrap_or(c[0]);
            fail!(
                "round {k}: '{}' is labelled {}, but its component of {} vertices ({}) makes \
                 it {expected}",
                game.names[wrong],
                labels[wrong] as char,
                c.len(),
                if odd { "odd" } else { "even" }
            );
        }
        for &v in &c {
            in_c[v] = true;
        }
        // Strongly connected: every vertex of C reaches and is reached from c[0] inside C.
        for reverse in [false, true] {
            seen[c[0]] = true;
            let mut stack = vec![c[0]];
            let mut count = 0;
            while let Some(x) = stack.pop() {
                count += 1;
                let next: Vec<usize> = if reverse {
                    rev[x].iter().copied().filter(|&y| in_c[y]).collect()
                } else {
                    s.adj[x].iter().copied().filter(|&y| in_c[y]).collect()
                };
                for y in next {
                    if !seen[y] {
                        seen[y] = true;
                        stack.push(y);
                    }
                }
            }
            let lost = c.iter().copied().find(|&v| !seen[v]);
            for &v in &c {
                seen[v] = false;
            }
            if count != c.len() {
                let lost = lost.unwrap_or(c[0]);
                fail!(
                    "round {k}: its component is not strongly connected: '{}' {} '{}' inside it",
                    game.names[lost],
                    if reverse { "cannot reach" } else { "cannot be reached from" },
                    game.names[c[0]]
                );
            }
        }
        for &x in &c {
            if let Some(&y) = s.adj[x].iter().find(|&&y| v1(y) && !in_c[y] && rounds[y] >= k) {
                fail!(
                    "round {k}: the arc {} -> {} leaves the component to a vertex not yet \
                     labelled",
                    game.names[x],
                    game.names[y]
                );
            }
        }
        for &x in members {
            if !in_c[x] && !s.adj[x].iter().any(|&y| in_c[y]) {
                fail!(
                    "round {k}: '{}' is labelled N without an arc into the component",
                    game.names[x]
                );
            }
        }
        if odd {
            for &x in c.iter().flat_map(|&y| rev[y].iter()) {
                if v1(x) && rounds[x] > k {
                    fail!(
                        "round {k}: '{}' has an arc into a P component but is left for round {}",
                        game.names[x],
                        rounds[x]
                    );
                }
            }
        }
        for &v in &c {
            in_c[v] = false;
        }
    }
    let (first, how) = if w.iter().all(|&x| x == 1) {
        ((n % 2 == 1) != misere, format!("every weight is 1 and there are {n} vertices"))
    } else if w[u] >= 2 {
        (true, "the token's vertex has weight at least 2 (and a loop)".to_string())
    } else {
        (labels[u] == b'N', format!("the token's vertex is labelled {}", labels[u] as char))
    };
    conclude(theorem, first, how, claim_first, &cert.winner)
}

impl Claim for VertexNimStrategy {
    fn claim(&self) -> String {
        format!("the {} player wins", self.winner)
    }
}

impl Claim for VertexNimLabelling {
    fn claim(&self) -> String {
        format!("the {} player wins", self.winner)
    }
}

/// Registry entry for `vertexnim-strategy`.
pub fn strategy_verdict(
    spec: &VertexNimSpec,
    strategy: &VertexNimStrategy,
    budget: &mut Budget,
) -> Verdict {
    let claim = strategy.claim();
    let game = match spec.validate() {
        Ok(game) => game,
        Err(err) => return Verdict::invalid(claim, err),
    };
    let work = Work {
        vertices: Some(game.names.len()),
        edges: Some(game.start.adj.iter().map(|a| a.len()).sum()),
        ..Work::default()
    };
    match check_strategy(&game, strategy, budget) {
        Ok(report) => {
            let reason = format!(
                "the winner's strategy replayed against every move of the other player: {}, {} \
                 followed, {}",
                crate::base::text::counted(report.positions, "position"),
                crate::base::text::counted(report.moves_followed, "move"),
                crate::base::text::counted(report.final_positions, "final position")
            );
            let work = Work {
                positions: Some(report.positions),
                leaves: Some(report.final_positions),
                ..work
            };
            Verdict::accept(claim, reason, work, &[])
        }
        Err(why) => reject(claim, why, work),
    }
}

/// The trusted theorem a labelling of `game` rests on, by the game's shape (the same cases
/// [`check_labelling`] dispatches on).
fn labelling_theorem(game: &VertexNim) -> Theorem {
    let s = &game.start;
    if !(game.directed && game.variant == Variant::Vertexnim) {
        Theorem::VertexNimTheorem10
    } else if (0..s.weights.len()).all(|v| !s.adj[v].contains(&v)) {
        Theorem::VertexNimTheorem3
    } else {
        Theorem::VertexNimTheorem6
    }
}

/// Registry entry for `vertexnim-labelling`.
pub fn labelling_verdict(
    spec: &VertexNimSpec,
    labelling: &VertexNimLabelling,
    budget: &mut Budget,
) -> Verdict {
    let claim = labelling.claim();
    let game = match spec.validate() {
        Ok(game) => game,
        Err(err) => return Verdict::invalid(claim, err),
    };
    let theorem = labelling_theorem(&game);
    Verdict::decide(
        claim,
        check_labelling(&game, labelling, budget),
        |(name, how)| {
            let reason = format!(
                "every label (and peeling round) satisfies the local rules; by {name}: {how}"
            );
            let n = game.names.len();
            (reason, Work { vertices: Some(n), positions: Some(n as u64), ..Work::default() })
        },
        &[theorem],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;

    fn spec(directed: bool, variant: Variant, ws: &[i64], edges: &[(&str, &str)]) -> VertexNimSpec {
        let names = ["a", "b", "c", "d", "e", "f"];
        VertexNimSpec {
            directed,
            variant,
            play: Play::Normal,
            vertices: ws
                .iter()
                .enumerate()
                .map(|(i, &w)| VertexSpec { name: names[i].into(), weight: w })
                .collect(),
            edges: edges.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
            token: "a".into(),
            source: None,
        }
    }

    #[test]
    fn bad_input_is_refused() {
        let e = spec(false, Variant::Vertexnim, &[1, 0], &[("a", "b")]).validate();
        assert!(e.unwrap_err().contains("weight 0 is below 1"));
        let e = spec(false, Variant::Vertexnim, &[1, -2], &[("a", "b")]).validate();
        assert!(e.unwrap_err().contains("weight -2"));
        let mut s = spec(false, Variant::Vertexnim, &[1, 1], &[("a", "b")]);
        s.token = "z".into();
        assert!(s.validate().unwrap_err().contains("'z', which is not a vertex"));
        let e = spec(false, Variant::Nimg, &[1, 1, 1], &[("a", "b")]).validate();
        assert!(e.unwrap_err().contains("not connected"));
        let e = spec(true, Variant::Vertexnim, &[1, 1], &[("a", "b")]).validate();
        assert!(e.unwrap_err().contains("not strongly connected"));
        let e = spec(true, Variant::Vertexnim, &[1, 1], &[("a", "b"), ("b", "a")]).validate();
        assert!(e.is_ok());
        let e = spec(false, Variant::Vertexnim, &[1], &[("a", "q")]).validate();
        assert!(e.unwrap_err().contains("unknown vertex 'q'"));
    }

    #[test]
    fn removal_joins_the_neighbourhood() {
        // Undirected path b - a - c: emptying a makes b, c adjacent, both with loops.
        let g = spec(false, Variant::Vertexnim, &[1, 2, 2], &[("a", "b"), ("a", "c")])
            .validate()
            .unwrap();
        let moves = g.moves(&g.start);
        assert_eq!(moves, vec![(0, Some(1)), (0, Some(2))]);
        let s = g.apply(&g.start, (0, Some(1)));
        assert_eq!(s.text(false), "w=0,2,2;t=1;e=1-1,1-2,2-2");
        // Directed: c -> a -> b, b -> c; emptying a adds c -> b.
        let g = spec(true, Variant::Vertexnim, &[1, 2, 2], &[("c", "a"), ("a", "b"), ("b", "c")])
            .validate()
            .unwrap();
        let s = g.apply(&g.start, (0, Some(1)));
        assert_eq!(s.text(true), "w=0,2,2;t=1;e=1>2,2>1");
        // A single vertex: emptying ends the game; without a loop nothing else is legal.
        let g = spec(false, Variant::Vertexnim, &[3], &[]).validate().unwrap();
        assert_eq!(g.moves(&g.start), vec![(0, None)]);
        let g = spec(false, Variant::Vertexnim, &[2], &[("a", "a")]).validate().unwrap();
        assert_eq!(g.moves(&g.start), vec![(0, None), (1, Some(0))]);
        // NimG: zero vertices stay and block.
        let g = spec(false, Variant::Nimg, &[1, 2], &[("a", "b")]).validate().unwrap();
        let s = g.apply(&g.start, (0, Some(1)));
        let s = g.apply(&s, (1, Some(0)));
        assert!(g.moves(&s).is_empty());
    }

    #[test]
    fn a_strategy_is_replayed() {
        // a(1) - b(1): the first player empties a, the second empties b and wins.
        let g = spec(false, Variant::Vertexnim, &[1, 1], &[("a", "b")]).validate().unwrap();
        let after = g.apply(&g.start, (0, Some(1)));
        let good =
            VertexNimStrategy { winner: SECOND.into(), moves: vec![(after.text(false), 0, None)] };
        let report = check_strategy(&g, &good, &mut Budget::new(100_000)).unwrap();
        assert_eq!(report.final_positions, 1);
        let bad = VertexNimStrategy {
            winner: FIRST.into(),
            moves: vec![(g.start.text(false), 0, Some("b".into()))],
        };
        assert!(check_strategy(&g, &bad, &mut Budget::new(100_000)).is_err());
        let empty = VertexNimStrategy { winner: SECOND.into(), moves: vec![] };
        assert!(check_strategy(&g, &empty, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("no move is given"));
        // A huge weight is refused, not enumerated.
        let huge =
            spec(false, Variant::Vertexnim, &[i64::MAX, 1], &[("a", "b")]).validate().unwrap();
        assert!(check_strategy(&huge, &empty, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("work limit reached while listing moves"));
        // A weight whose moves would pass the budget is refused before they are listed: the
        // opponent's 3,000 moves would each build a position.
        let heavy = spec(false, Variant::Vertexnim, &[3_000, 1], &[("a", "b")]).validate().unwrap();
        assert!(check_strategy(&heavy, &empty, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("has 3000 moves"));
        // Validation refuses an edge listed twice, in either order.
        let twice = spec(false, Variant::Vertexnim, &[1, 1], &[("a", "b"), ("b", "a")]);
        assert!(twice.validate().unwrap_err().contains("listed twice"));
    }

    /// Directed, loops everywhere: a(1) <-> b(2). The weight-1 vertex a is a sink component
    /// of one vertex, so P; a certificate calling it N is refused naming it.
    #[test]
    fn a_wrong_peeling_label_names_the_vertex() {
        let g = spec(
            true,
            Variant::Vertexnim,
            &[1, 2],
            &[("a", "b"), ("b", "a"), ("a", "a"), ("b", "b")],
        )
        .validate()
        .unwrap();
        let cert = |labels: &str| VertexNimLabelling {
            winner: SECOND.into(),
            labels: labels.into(),
            rounds: Some(vec![0, 0]),
        };
        assert_eq!(
            check_labelling(&g, &cert("P."), &mut Budget::new(u64::MAX)).unwrap().0,
            "Theorem 6"
        );
        let err = check_labelling(&g, &cert("N."), &mut Budget::new(u64::MAX)).unwrap_err();
        assert!(
            err.contains(
                "round 0: 'a' is labelled N, but its component of 1 vertices (odd) makes it P"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_circuit_labelling_marks_the_first_minimum() {
        let label = |winner: &str, labels: &str| VertexNimLabelling {
            winner: winner.into(),
            labels: labels.into(),
            rounds: None,
        };
        let cycle = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")];
        // a(3) -> b(2) -> c(4) -> d(2): the first minimum is b, offset 1: the first player wins.
        let g = spec(true, Variant::Vertexnim, &[3, 2, 4, 2], &cycle).validate().unwrap();
        let (theorem, how) =
            check_labelling(&g, &label(FIRST, ".M.."), &mut Budget::new(u64::MAX)).unwrap();
        assert_eq!(theorem, "Theorem 3");
        assert!(how.contains("offset 1"), "{how}");
        let reject = |g: &VertexNim, winner: &str, labels: &str, why: &str| {
            let err =
                check_labelling(g, &label(winner, labels), &mut Budget::new(u64::MAX)).unwrap_err();
            assert!(err.contains(why), "{labels}: {err}");
        };
        reject(&g, SECOND, ".M..", "the first player wins, not the second");
        reject(&g, SECOND, "...M", "not the first vertex of minimum weight");
        reject(&g, FIRST, "M...", "not the first vertex of minimum weight");
        reject(&g, FIRST, ".M.M", "exactly one vertex");
        reject(&g, FIRST, ".P..", "only M and .");
        // Odd length: nothing is marked and the first player wins.
        let odd = spec(true, Variant::Vertexnim, &[2, 2, 2], &[("a", "b"), ("b", "c"), ("c", "a")])
            .validate()
            .unwrap();
        assert!(check_labelling(&odd, &label(FIRST, "..."), &mut Budget::new(u64::MAX)).is_ok());
        reject(&odd, FIRST, "M..", "odd length");
        // Outside the theorem: a weight 1, a chord, misere play.
        let light = spec(true, Variant::Vertexnim, &[3, 1, 4, 2], &cycle).validate().unwrap();
        reject(&light, FIRST, ".M..", "every weight at least 2");
        let mut chord = cycle.to_vec();
        chord.push(("a", "c"));
        let chorded = spec(true, Variant::Vertexnim, &[3, 2, 4, 2], &chord).validate().unwrap();
        reject(&chorded, FIRST, ".M..", "needs a directed circuit");
        let mut misere = spec(true, Variant::Vertexnim, &[3, 2, 4, 2], &cycle);
        misere.play = Play::Misere;
        reject(&misere.validate().unwrap(), FIRST, ".M..", "normal-play");
    }

    #[test]
    fn a_labelling_is_checked_locally() {
        // Path a(3) - b(5) - c(4), no loops: G* is everything; a and c are P, b is N.
        let g = spec(false, Variant::Vertexnim, &[3, 5, 4], &[("a", "b"), ("b", "c")])
            .validate()
            .unwrap();
        let good = VertexNimLabelling { winner: SECOND.into(), labels: "PNP".into(), rounds: None };
        assert_eq!(check_labelling(&g, &good, &mut Budget::new(u64::MAX)).unwrap().0, "Theorem 10");
        let wrong_label =
            VertexNimLabelling { winner: SECOND.into(), labels: "PPP".into(), rounds: None };
        assert!(check_labelling(&g, &wrong_label, &mut Budget::new(u64::MAX))
            .unwrap_err()
            .contains("local rule"));
        let wrong_winner =
            VertexNimLabelling { winner: FIRST.into(), labels: "PNP".into(), rounds: None };
        assert!(check_labelling(&g, &wrong_winner, &mut Budget::new(u64::MAX)).is_err());
        let short = VertexNimLabelling { winner: SECOND.into(), labels: "PN".into(), rounds: None };
        assert!(check_labelling(&g, &short, &mut Budget::new(u64::MAX)).is_err());
        let directed =
            spec(true, Variant::Vertexnim, &[2, 2], &[("a", "b"), ("b", "a")]).validate().unwrap();
        assert!(check_labelling(&directed, &good, &mut Budget::new(u64::MAX)).is_err());
    }

    /// Every small position of both variants, directed or not, with and without loops: the
    /// count and the legality test agree with the listed moves.
    #[test]
    fn moves_are_counted_and_tested_without_listing_them() {
        let pairs = [("a", "b"), ("b", "a"), ("a", "a"), ("b", "c"), ("c", "a"), ("c", "c")];
        for directed in [false, true] {
            for variant in [Variant::Vertexnim, Variant::Nimg] {
                for mask in 0u32..64 {
                    let edges: Vec<(&str, &str)> = (0..6)
                        .filter(|&k| mask >> k & 1 == 1)
                        .map(|k| pairs[k])
                        .filter(|&(a, b)| directed || a <= b || !pairs.contains(&(b, a)))
                        .collect();
                    let Ok(g) = spec(directed, variant, &[3, 1, 2], &edges).validate() else {
                        continue;
                    };
                    let mut states = vec![g.start.clone()];
                    while let Some(state) = states.pop() {
                        let moves = g.moves(&state);
                        assert_eq!(g.move_count(&state), moves.len() as u64, "{edges:?}");
                        for k in 0..4 {
                            for next in [None, Some(0), Some(1), Some(2), Some(3)] {
                                assert_eq!(
                                    g.is_legal(&state, (k, next)),
                                    moves.contains(&(k, next)),
                                    "{edges:?} {} ({k}, {next:?})",
                                    state.text(directed)
                                );
                            }
                        }
                        for &m in &moves {
                            let next = g.apply(&state, m);
                            assert!(g.cost_after(&state, m) >= state_cost(&next), "{edges:?}");
                            states.push(next);
                        }
                    }
                }
            }
        }
    }

    /// Issue 24: tens of millions of the other player's moves used to be listed (about 2 GB)
    /// before the per-move charge refused them; now they are counted and refused at once.
    #[test]
    fn an_opponent_with_tens_of_millions_of_moves_is_refused_before_listing() {
        let g =
            spec(false, Variant::Vertexnim, &[40_000_000, 1], &[("a", "b")]).validate().unwrap();
        let empty = VertexNimStrategy { winner: SECOND.into(), moves: vec![] };
        let started = std::time::Instant::now();
        let err = check_strategy(&g, &empty, &mut Budget::new(2_000_000_000)).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
        assert!(err.contains("work limit reached while listing moves"), "{err}");
        assert!(err.contains("has 40000000 moves"), "{err}");
    }

    /// The winner's move at a weight of 10^12 is tested for legality, not found in a list of
    /// 10^12 moves: a(10^12) - b(1), the first player lowers a to 1 and moves to b; the second
    /// must empty b and go to a, which the first player, on the last vertex, empties.
    #[test]
    fn a_winner_with_a_huge_weight_is_checked_without_listing() {
        let g = spec(false, Variant::Vertexnim, &[1_000_000_000_000, 1], &[("a", "b")])
            .validate()
            .unwrap();
        let first = g.apply(&g.start, (1, Some(1)));
        let last = g.apply(&first, (0, Some(0)));
        let strategy = VertexNimStrategy {
            winner: FIRST.into(),
            moves: vec![(g.start.text(false), 1, Some("b".into())), (last.text(false), 0, None)],
        };
        let report = check_strategy(&g, &strategy, &mut Budget::new(100_000)).unwrap();
        assert_eq!((report.positions, report.final_positions), (4, 1));
    }

    /// Emptying the centre of a star joins its leaves into a clique: the position of 1.6 * 10^7
    /// arcs is refused before it is built (building it took seconds and hundreds of MB).
    #[test]
    fn a_clique_made_by_emptying_a_vertex_is_charged_before_it_is_built() {
        let leaves: Vec<String> = (1..=4000).map(|i| format!("v{i}")).collect();
        let spec = VertexNimSpec {
            directed: false,
            variant: Variant::Vertexnim,
            play: Play::Normal,
            vertices: std::iter::once("c".to_string())
                .chain(leaves.iter().cloned())
                .map(|name| VertexSpec { name, weight: 1 })
                .collect(),
            edges: leaves.iter().map(|v| ("c".to_string(), v.clone())).collect(),
            token: "c".into(),
            source: None,
        };
        let g = spec.validate().unwrap();
        let empty = VertexNimStrategy { winner: SECOND.into(), moves: vec![] };
        // The budget pays for the 4,000 moves at the start (about 2.9 * 10^9 units), not for
        // the clique (about 2 * 10^9 more, its text included).
        let started = std::time::Instant::now();
        let err = check_strategy(&g, &empty, &mut Budget::new(4_000_000_000)).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
        let shown = &err[..err.len().min(300)];
        assert!(err.starts_with("work limit reached while replaying positions"), "{shown}");
    }
}

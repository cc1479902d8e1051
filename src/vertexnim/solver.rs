//! Vertex nim played on graphs (seed 004, Duchene and Renault) and Stockman's Vertex NimG:
//! an exact solver with memoisation, the polynomial characterisations reconstructed from the
//! paper, and the `vertexnim-strategy` certificates the checker replays.
//!
//! The rules are the checker's ([`gamecert_certificates::vertexnim::strategy`], read them there). The
//! seed lost its mathematical symbols; the statements below are our reconstruction, in our own
//! words, and each is compared with the exact solver on every small instance of its class by
//! the tests of this module (the counts are in the tests and in the README).
//!
//! Notation: in a position, the *live* vertices are those of positive weight (under vertexnim
//! the others are gone); V1 is the set of live vertices of weight 1; u is the token's vertex.
//! "N" means the player to move wins, "P" that the other player does.
//!
//! - **Theorem 3 (Adjacent Nim: directed vertexnim on a circuit v0 -> v1 -> ... -> v(n-1) ->
//!   v0, every weight at least 2, token on v0).** If n is odd the position is N. If n is even,
//!   let i be the first index (counting from the token, 0-based) of a vertex of minimum
//!   weight: the position is P iff i is even, i.e. iff the player to move is the one who
//!   would have to play the first minimum-weight vertex if both keep lowering by one and
//!   moving on ([`adjacent_nim`]).
//! - **Theorem 6 and its labelling (directed vertexnim, a loop on every vertex).** If every
//!   live weight is 1 the game is "she loves me, she loves me not": N iff the number of live
//!   vertices is odd. Otherwise a token vertex of weight at least 2 is N (lower it to 0 or 1,
//!   whichever wins: staying on the loop with weight 1 hands the opponent the choice the
//!   mover would otherwise have). For weight 1, label the digraph induced by V1 repeatedly:
//!   take a strongly connected component C of the still unlabelled vertices with no arc to
//!   another unlabelled vertex; if |C| is odd, C is P and every unlabelled vertex with an arc
//!   into C is N; if |C| is even, C is N; remove the labelled vertices and repeat. The
//!   position is N iff u is labelled N ([`directed_loops`]).
//! - **Proposition 9 (undirected vertexnim, a loop on every vertex)** is the special case:
//!   when not every weight is 1, a token of weight at least 2 is N and a token of weight 1 is
//!   N iff its connected component in the graph induced by V1 has an even number of vertices
//!   (linear time; [`undirected_loops`]).
//! - **Theorem 10 (undirected vertexnim, loops optional; [`undirected`]).** (0) every live
//!   weight 1: N iff the number of live vertices is odd; u the only live vertex: N.
//!   (1) w(u) >= 2 and u has a loop: N. (2) w(u) = 1: N iff the component of u in the graph
//!   induced by V1 has even order. (3) w(u) >= 2 and u has a neighbour of weight 1: N.
//!   (4) otherwise u belongs to the graph G* induced by the live vertices of weight at least
//!   2 that have no loop and no neighbour of weight 1; every move out of G* or to weight 0 or
//!   1 loses, so the game is NimG on G* with weights lowered by 2. Label G*: repeatedly take
//!   *all* unlabelled vertices of the least weight among the unlabelled ones and label them P
//!   (also when they are adjacent to one another), then label N their unlabelled neighbours.
//!   The position is N iff u is labelled N. Sorting makes this O(n log n + m); the paper's
//!   bound is quadratic.
//! - **Corollary 12 (Vertex NimG, undirected, normal play; [`nimg_undirected`]).** w(u) = 0:
//!   P. A loop on u: N (empty u and stay). A neighbour of weight 0: N (move there). Otherwise
//!   the labelling of Theorem 10 on the graph induced by the vertices of positive weight
//!   without loop or zero neighbour.
//! - **Theorems 13 and 14 (misere).** Undirected vertexnim, and directed vertexnim with a loop
//!   on every vertex: if every live weight is 1, N iff the number of live vertices is even;
//!   if a single vertex is left (weight at least 2), N iff it has a loop (without one the
//!   mover must empty it and so moves last: the seed's "otherwise as in normal play" misses
//!   this case); otherwise the outcome is the normal-play one ([`misere`]).
//!
//! - **Remark 5 (conjecture from data; [`nimg_circuit`]).** The seed says Theorem 3 stays
//!   true for Vertex NimG on a directed circuit, weight-1 vertices included. Our reading: with
//!   every weight at least 1, the rule of Theorem 3 as stated above (n odd: N; n even: P iff
//!   the first minimum weight from the token sits at an even offset). The exact solver agrees
//!   on every such circuit with n = 2..6 and weights up to 5 (n <= 4) or 4: 5,895 positions.
//!
//! Where the seed's statement could not be read (the index parity in Theorem 3, the tie rule
//! of Definition 11, the labelling of Definition 7) the version above is the one the data
//! supports; the tests are the evidence.

use gamecert_certificates::format::Certificate;
use gamecert_certificates::vertexnim::strategy::{
    Play, State, Variant, VertexNim, VertexNimLabelling, VertexNimSpec, VertexNimStrategy,
    VertexSpec, FIRST, SECOND,
};
use std::collections::{BTreeSet, HashMap};

/// The exact solver handles at most this many vertices...
pub const EXACT_MAX_VERTICES: usize = 16;
/// ...and weights up to this.
pub const EXACT_MAX_WEIGHT: u64 = 15;

/// Exact solver: negamax with a memo over (weights, token). Under vertexnim the current graph
/// is a function of the start graph and the set of emptied vertices (an edge between two live
/// vertices exists iff the start graph has a path between them whose inner vertices are all
/// emptied; a loop likewise), so weights and token determine the position.
pub struct Exact {
    n: usize,
    directed: bool,
    variant: Variant,
    misere: bool,
    memo: HashMap<u128, bool>,
    /// Stop (and set `exceeded`) once the memo holds more positions than this.
    budget: usize,
    exceeded: bool,
}

type Masks = [u32; EXACT_MAX_VERTICES];
type Weights = [u8; EXACT_MAX_VERTICES];

impl Exact {
    /// A solver for positions of `game` (the memo is valid for positions reached from its
    /// start, or any position with the same start graph).
    pub fn new(game: &VertexNim) -> Result<Exact, String> {
        let n = game.names.len();
        if n > EXACT_MAX_VERTICES {
            return Err(format!(
                "the exact solver takes at most {EXACT_MAX_VERTICES} vertices ({n} given)"
            ));
        }
        Ok(Exact {
            n,
            directed: game.directed,
            variant: game.variant,
            misere: game.play == Play::Misere,
            memo: HashMap::new(),
            budget: usize::MAX,
            exceeded: false,
        })
    }

    /// The same solver, giving up once its memo holds more than `budget` positions.
    pub fn with_budget(mut self, budget: usize) -> Exact {
        self.budget = budget;
        self
    }

    /// Positions in the memo.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Does the player to move at `state` win?
    pub fn wins(&mut self, state: &State) -> Result<bool, String> {
        let mut w = [0u8; EXACT_MAX_VERTICES];
        let mut adj = [0u32; EXACT_MAX_VERTICES];
        for v in 0..self.n {
            if state.weights[v] > EXACT_MAX_WEIGHT {
                return Err(format!(
                    "the exact solver takes weights up to {EXACT_MAX_WEIGHT} ({} given)",
                    state.weights[v]
                ));
            }
            w[v] = state.weights[v] as u8;
            for &y in &state.adj[v] {
                adj[v] |= 1 << y;
            }
        }
        let r = self.win(&w, &adj, state.token);
        if self.exceeded {
            return Err(format!("the exact solver passed its budget of {} positions", self.budget));
        }
        Ok(r)
    }

    fn key(&self, w: &Weights, token: Option<usize>) -> u128 {
        let mut k: u128 = token.map_or(31, |t| t as u128);
        for &x in w.iter().take(self.n) {
            k = k << 4 | x as u128;
        }
        k
    }

    fn win(&mut self, w: &Weights, adj: &Masks, token: Option<usize>) -> bool {
        let key = self.key(w, token);
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        if self.exceeded || self.memo.len() > self.budget {
            self.exceeded = true;
            return false;
        }
        let result = self.compute(w, adj, token);
        self.memo.insert(key, result);
        result
    }

    fn compute(&mut self, w: &Weights, adj: &Masks, token: Option<usize>) -> bool {
        let Some(u) = token else {
            return self.misere;
        };
        let mut any_move = false;
        let nimg = self.variant == Variant::Nimg;
        for k in 0..w[u] {
            let mut w2 = *w;
            w2[u] = k;
            if k == 0 && !nimg {
                let others = adj[u] & !(1 << u);
                let mut adj2 = *adj;
                for x in 0..self.n {
                    let into = if self.directed {
                        x != u && adj[x] >> u & 1 == 1
                    } else {
                        others >> x & 1 == 1
                    };
                    if into {
                        adj2[x] = (adj2[x] & !(1 << u)) | others;
                    }
                }
                adj2[u] = 0;
                if others == 0 {
                    if (0..self.n).all(|v| v == u || w[v] == 0) {
                        any_move = true;
                        if !self.win(&w2, &adj2, None) {
                            return true;
                        }
                    }
                    continue;
                }
                for v in 0..self.n {
                    if others >> v & 1 == 1 {
                        any_move = true;
                        if !self.win(&w2, &adj2, Some(v)) {
                            return true;
                        }
                    }
                }
            } else {
                for v in 0..self.n {
                    if adj[u] >> v & 1 == 1 {
                        any_move = true;
                        if !self.win(&w2, adj, Some(v)) {
                            return true;
                        }
                    }
                }
            }
        }
        if !any_move {
            return self.misere;
        }
        false
    }
}

/// A winning strategy for the side that wins `game`, walked with the checker's own rules and
/// the exact solver as oracle; `None` if it would list more than `max_positions` positions.
pub fn strategy(
    game: &VertexNim,
    max_positions: usize,
) -> Result<Option<VertexNimStrategy>, String> {
    let mut exact = Exact::new(game)?.with_budget(EXACT_BUDGET);
    let first_wins = exact.wins(&game.start)?;
    let mut moves = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(game.start.clone(), first_wins)];
    while let Some((state, winner_to_move)) = stack.pop() {
        let text = state.text(game.directed);
        if !seen.insert((text.clone(), winner_to_move)) {
            continue;
        }
        if seen.len() > max_positions {
            return Ok(None);
        }
        let legal = game.moves(&state);
        if winner_to_move {
            let mut chosen = None;
            for mv in legal {
                let next = game.apply(&state, mv);
                if !exact.wins(&next)? {
                    chosen = Some((mv, next));
                    break;
                }
            }
            let Some((mv, next)) = chosen else {
                if legal_is_empty_win(game, &state) {
                    continue;
                }
                return Err(format!("internal error: no winning move at '{text}'"));
            };
            moves.push((text, mv.0, mv.1.map(|v| game.names[v].clone())));
            stack.push((next, false));
        } else {
            for mv in legal {
                stack.push((game.apply(&state, mv), true));
            }
        }
    }
    moves.sort();
    moves.dedup_by(|a, b| a.0 == b.0);
    Ok(Some(VertexNimStrategy {
        winner: if first_wins { FIRST } else { SECOND }.to_string(),
        moves,
    }))
}

/// Positions the exact solver may memoise for `solve` (about 0.3 GB).
pub const EXACT_BUDGET: usize = 8_000_000;

/// Positions a strategy certificate may list.
pub const MAX_CERTIFICATE_POSITIONS: usize = 2_000_000;

/// A `vertexnim-strategy` certificate for `game` and the positions the solver's memo holds;
/// an error saying why when the instance is too large for one.
pub fn certificate(
    game: &VertexNim,
) -> anyhow::Result<(gamecert_certificates::format::Certificate, u64)> {
    let too_large = |why: String| {
        let fast = fast_outcome(game, &game.start)
            .map_or("no polynomial characterisation applies to it".to_string(), |(n, name)| {
                format!("by {name} the {} player wins", if n { "first" } else { "second" })
            });
        anyhow::anyhow!("no certificate: {why}; {fast}")
    };
    if game.names.len() > EXACT_MAX_VERTICES
        || game.start.weights.iter().any(|&w| w > EXACT_MAX_WEIGHT)
    {
        return Err(too_large(format!(
            "a strategy certificate needs at most {EXACT_MAX_VERTICES} vertices and weights up \
             to {EXACT_MAX_WEIGHT}"
        )));
    }
    let mut exact = Exact::new(game).map_err(anyhow::Error::msg)?.with_budget(EXACT_BUDGET);
    exact.wins(&game.start).map_err(too_large)?;
    let positions = exact.positions() as u64;
    match strategy(game, MAX_CERTIFICATE_POSITIONS).map_err(too_large)? {
        Some(s) => {
            Ok((gamecert_certificates::format::Certificate::VertexNimStrategy(s), positions))
        }
        None => Err(too_large(format!(
            "the strategy reaches more than {MAX_CERTIFICATE_POSITIONS} positions"
        ))),
    }
}

/// `gamecert solve` on vertex nim: a strategy certificate from the exact solver when the
/// instance is small enough, cross-checked against the polynomial characterisation where one
/// applies; otherwise the labelling certificate of the characterisation; otherwise an error
/// ([`BadInput`](crate::base::io::BadInput)) saying why no certificate can be given, with the
/// uncertified answer. Returns the certificate, the positions searched and the method.
pub fn solve(game: &VertexNim) -> anyhow::Result<(Certificate, u64, String)> {
    let fast = fast_outcome(game, &game.start);
    let who = |first: bool| {
        if first {
            "the first player wins"
        } else {
            "the second player wins"
        }
    };
    match certificate(game) {
        Ok((certificate, positions)) => {
            let Certificate::VertexNimStrategy(strategy) = &certificate else {
                anyhow::bail!("internal error: not a vertexnim-strategy");
            };
            let first = strategy.winner == gamecert_certificates::vertexnim::strategy::FIRST;
            let method = match fast {
                Some((f, name)) if f != first => anyhow::bail!(
                    "internal error: {name} says {} but the exact solver says {}",
                    who(f),
                    who(first)
                ),
                Some((_, name)) => format!("the exact solver ({name} agrees)"),
                None => "the exact solver (no polynomial characterisation applies)".to_string(),
            };
            Ok((certificate, positions, method))
        }
        Err(why) => match (fast, labelling_certificate(game)) {
            // `why` says what was too large; a labelling needs no search.
            (Some((_, name)), Some(labelling)) => {
                Ok((Certificate::VertexNimLabelling(labelling), 0, name.to_string()))
            }
            // NimG keeps its vertices: every position below the start, labelled at once.
            _ => match super::outcomes::certificate(game) {
                Some(outcomes) => {
                    let positions = outcomes.outcomes.len() as u64;
                    Ok((
                        Certificate::VertexNimOutcomes(outcomes),
                        positions,
                        "labelling the whole weight box".into(),
                    ))
                }
                None => Err(crate::base::io::BadInput(format!(
                    "{why}; no labelling certificate covers this game either, so no certificate \
                     is written"
                ))
                .into()),
            },
        },
    }
}

/// A `vertexnim-labelling` certificate (Theorem 10, 13 or Corollary 12 at the start), for
/// instances too large for a strategy; `None` where none of those theorems applies.
pub fn labelling_certificate(game: &VertexNim) -> Option<VertexNimLabelling> {
    let (first, name) = fast_outcome(game, &game.start)?;
    let letter = |l: u8| match l {
        LABEL_P => 'P',
        LABEL_N => 'N',
        _ => '.',
    };
    if game.directed && name == "Theorem 3" {
        return Some(VertexNimLabelling {
            winner: if first { FIRST } else { SECOND }.to_string(),
            labels: circuit_mark(&game.start),
            rounds: None,
        });
    }
    if game.directed {
        if !matches!(name, "Theorem 6" | "Theorem 14") {
            return None;
        }
        let (labels, rounds) = directed_peeling(&game.start);
        return Some(VertexNimLabelling {
            winner: if first { FIRST } else { SECOND }.to_string(),
            labels: labels.into_iter().map(letter).collect(),
            rounds: Some(rounds),
        });
    }
    let s = &game.start;
    let inside: Vec<bool> = match game.variant {
        Variant::Vertexnim => case4_vertices(s),
        Variant::Nimg => (0..s.weights.len())
            .map(|v| {
                s.weights[v] >= 1
                    && !s.adj[v].contains(&v)
                    && s.adj[v].iter().all(|&y| s.weights[y] != 0)
            })
            .collect(),
    };
    let labels = labels_sorted(s, &inside).into_iter().map(letter).collect();
    Some(VertexNimLabelling {
        winner: if first { FIRST } else { SECOND }.to_string(),
        labels,
        rounds: None,
    })
}

/// The directed circuit v0 -> v1 -> ... -> v(n-1) -> v0 with these weights, the token on v0,
/// normal play (Theorem 3's and Remark 5's instances).
pub fn circuit_spec(weights: &[u64], variant: Variant) -> VertexNimSpec {
    let n = weights.len();
    VertexNimSpec {
        directed: true,
        variant,
        play: Play::Normal,
        vertices: (0..n)
            .map(|v| VertexSpec { name: format!("v{v}"), weight: weights[v] as i64 })
            .collect(),
        edges: (0..n).map(|v| (format!("v{v}"), format!("v{}", (v + 1) % n))).collect(),
        token: "v0".into(),
        source: None,
    }
}

/// Theorem 3's labels on a circuit (checked by the caller): `M` on the first vertex of minimum
/// weight met from the token in play order when the circuit has even length, `.` elsewhere.
fn circuit_mark(s: &State) -> String {
    let n = s.weights.len();
    let mut labels = vec!['.'; n];
    if n.is_multiple_of(2) {
        let mut at = s.token.expect("a circuit has a token");
        let min = s.weights.iter().min().copied().unwrap_or(0);
        while s.weights[at] != min {
            at = *s.adj[at].iter().next().expect("a circuit vertex has an out-arc");
        }
        labels[at] = 'M';
    }
    labels.into_iter().collect()
}

fn legal_is_empty_win(game: &VertexNim, state: &State) -> bool {
    game.moves(state).is_empty() && game.play == Play::Misere
}

/// The live vertices (positive weight).
fn live(s: &State) -> Vec<usize> {
    (0..s.weights.len()).filter(|&v| s.weights[v] > 0).collect()
}

/// Theorem 3: Adjacent Nim on the circuit given as the weights in play order from the token
/// (every weight at least 2). `None` outside the theorem's domain.
pub fn adjacent_nim(weights: &[u64]) -> Option<bool> {
    if weights.is_empty() || weights.iter().any(|&w| w < 2) {
        return None;
    }
    let n = weights.len();
    if n % 2 == 1 {
        return Some(true);
    }
    let min = *weights.iter().min()?;
    let i = weights.iter().position(|&w| w == min)?;
    Some(i % 2 == 1)
}

/// Remark 5 (conjecture from data): NimG on a directed circuit, weights in play order from
/// the token, all positive: Theorem 3's rule without its lower bound on the weights.
pub fn nimg_circuit(weights: &[u64]) -> bool {
    let n = weights.len();
    if n % 2 == 1 {
        return true;
    }
    let min = weights.iter().min().copied().unwrap_or(0);
    let i = weights.iter().position(|&w| w == min).unwrap_or(0);
    i % 2 == 1
}

/// The weights around a directed circuit from the token, if the live graph is one (each live
/// vertex has exactly one out-arc and one in-arc, no loops, one cycle through all).
pub fn circuit_from_token(s: &State) -> Option<Vec<u64>> {
    let u = s.token?;
    let alive = live(s);
    let mut order = vec![s.weights[u]];
    let mut at = u;
    let mut indeg = HashMap::new();
    for &v in &alive {
        for &y in &s.adj[v] {
            *indeg.entry(y).or_insert(0) += 1;
        }
    }
    if alive.iter().any(|v| indeg.get(v) != Some(&1) || s.adj[*v].len() != 1) {
        return None;
    }
    loop {
        let next = *s.adj[at].iter().next()?;
        if next == u {
            break;
        }
        order.push(s.weights[next]);
        at = next;
    }
    (order.len() == alive.len() && alive.len() >= 2).then_some(order)
}

/// Strongly connected components of `adj` restricted to `inside` (Kosaraju, iterative).
fn sccs(adj: &[BTreeSet<usize>], inside: &[bool]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let mut order = Vec::new();
    let mut seen = vec![false; n];
    for s in 0..n {
        if !inside[s] || seen[s] {
            continue;
        }
        seen[s] = true;
        let mut stack = vec![(s, adj[s].iter().copied().collect::<Vec<_>>(), 0usize)];
        while let Some(top) = stack.last_mut() {
            if top.2 < top.1.len() {
                let y = top.1[top.2];
                top.2 += 1;
                if inside[y] && !seen[y] {
                    seen[y] = true;
                    stack.push((y, adj[y].iter().copied().collect(), 0));
                }
            } else {
                order.push(top.0);
                stack.pop();
            }
        }
    }
    let mut rev = vec![Vec::new(); n];
    for x in 0..n {
        if inside[x] {
            for &y in &adj[x] {
                if inside[y] {
                    rev[y].push(x);
                }
            }
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut out = Vec::new();
    for &s in order.iter().rev() {
        if comp[s] != usize::MAX {
            continue;
        }
        let id = out.len();
        let mut members = vec![s];
        comp[s] = id;
        let mut i = 0;
        while i < members.len() {
            let x = members[i];
            i += 1;
            for &y in &rev[x] {
                if comp[y] == usize::MAX {
                    comp[y] = id;
                    members.push(y);
                }
            }
        }
        out.push(members);
    }
    out
}

/// The cases Theorem 6 and Proposition 9 share (a loop on every live vertex): `None` outside
/// that class, `Some(Ok(answer))` when every live weight is 1 (N iff their number is odd) or
/// the token's weight is at least 2 (N), `Some(Err(u))` when the token's vertex u has weight 1
/// and the theorem's own labelling decides.
fn loops_everywhere(s: &State) -> Option<Result<bool, usize>> {
    let u = s.token?;
    let alive = live(s);
    if alive.iter().any(|&v| !s.adj[v].contains(&v)) {
        return None;
    }
    if alive.iter().all(|&v| s.weights[v] == 1) {
        return Some(Ok(alive.len() % 2 == 1));
    }
    Some(if s.weights[u] >= 2 { Ok(true) } else { Err(u) })
}

/// Theorem 6 (normal play): directed vertexnim with a loop on every live vertex.
pub fn directed_loops(s: &State) -> Option<bool> {
    // Definition 7's peeling decides the weight-1 vertices, the token's among them.
    Some(loops_everywhere(s)?.unwrap_or_else(|u| directed_peeling(s).0[u] == LABEL_N))
}

/// Definition 7's peeling on the weight-1 vertices: (label, round) per vertex, label
/// [`LABEL_P`], [`LABEL_N`] or [`LABEL_NONE`] for the others.
pub fn directed_peeling(s: &State) -> (Vec<u8>, Vec<u64>) {
    let n = s.weights.len();
    let mut label = vec![LABEL_NONE; n];
    let mut round = vec![0u64; n];
    let mut k = 0u64;
    loop {
        let inside: Vec<bool> =
            (0..n).map(|v| s.weights[v] == 1 && label[v] == LABEL_NONE).collect();
        if !inside.iter().any(|&b| b) {
            break;
        }
        let comps = sccs(&s.adj, &inside);
        let mut comp_of = vec![usize::MAX; n];
        for (i, c) in comps.iter().enumerate() {
            for &v in c {
                comp_of[v] = i;
            }
        }
        let sink = comps
            .iter()
            .position(|c| {
                c.iter().all(|&x| s.adj[x].iter().all(|&y| !inside[y] || comp_of[y] == comp_of[x]))
            })
            .expect("a finite digraph has a sink component");
        let c = &comps[sink];
        let odd = c.len() % 2 == 1;
        for &v in c {
            label[v] = if odd { LABEL_P } else { LABEL_N };
            round[v] = k;
        }
        if odd {
            for x in 0..n {
                if inside[x] && label[x] == LABEL_NONE && s.adj[x].iter().any(|y| c.contains(y)) {
                    label[x] = LABEL_N;
                    round[x] = k;
                }
            }
        }
        k += 1;
    }
    (label, round)
}

/// Proposition 9 (normal play): undirected vertexnim with a loop on every live vertex.
pub fn undirected_loops(s: &State) -> Option<bool> {
    Some(
        loops_everywhere(s)?
            .unwrap_or_else(|u| component_size(s, u, |v| s.weights[v] == 1).is_multiple_of(2)),
    )
}

fn component_size(s: &State, u: usize, keep: impl Fn(usize) -> bool) -> usize {
    let mut seen = vec![false; s.weights.len()];
    seen[u] = true;
    let mut stack = vec![u];
    let mut count = 0;
    while let Some(x) = stack.pop() {
        count += 1;
        for &y in &s.adj[x] {
            if !seen[y] && keep(y) {
                seen[y] = true;
                stack.push(y);
            }
        }
    }
    count
}

/// The labelling of Definition 11 on the vertices `inside`: returns whether `u` is labelled
/// N ([`labels_sorted`]).
pub fn min_weight_labelling(s: &State, inside: &[bool], u: usize) -> bool {
    labels_sorted(s, inside)[u] == LABEL_N
}

/// Label of a vertex outside the labelled set.
pub const LABEL_NONE: u8 = 0;
/// A P vertex (the player to move there loses).
pub const LABEL_P: u8 = 1;
/// An N vertex.
pub const LABEL_N: u8 = 2;

/// Definition 11 as we reconstruct it, all vertices at once, by sorting: all unlabelled
/// vertices of least weight become P together (also when adjacent to one another), then their
/// unlabelled neighbours N; repeat. O(n log n + m).
pub fn labels_sorted(s: &State, inside: &[bool]) -> Vec<u8> {
    let mut order: Vec<usize> = (0..inside.len()).filter(|&v| inside[v]).collect();
    order.sort_by_key(|&v| s.weights[v]);
    let mut label = vec![LABEL_NONE; inside.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j < order.len() && s.weights[order[j]] == s.weights[order[i]] {
            j += 1;
        }
        let fresh: Vec<usize> =
            order[i..j].iter().copied().filter(|&v| label[v] == LABEL_NONE).collect();
        for &v in &fresh {
            label[v] = LABEL_P;
        }
        for &v in &fresh {
            for &y in &s.adj[v] {
                if inside[y] && label[y] == LABEL_NONE {
                    label[y] = LABEL_N;
                }
            }
        }
        i = j;
    }
    label
}

/// The same labelling computed the way the paper counts it: each round scans every vertex for
/// the least unlabelled weight, so O(n) rounds of O(n + m): quadratic.
pub fn labels_quadratic(s: &State, inside: &[bool]) -> Vec<u8> {
    let n = inside.len();
    let mut label = vec![LABEL_NONE; n];
    let mut left = inside.iter().filter(|&&b| b).count();
    while left > 0 {
        let min = (0..n)
            .filter(|&v| inside[v] && label[v] == LABEL_NONE)
            .map(|v| s.weights[v])
            .min()
            .expect("some vertex is unlabelled");
        let fresh: Vec<usize> = (0..n)
            .filter(|&v| inside[v] && label[v] == LABEL_NONE && s.weights[v] == min)
            .collect();
        for &v in &fresh {
            label[v] = LABEL_P;
            left -= 1;
        }
        for &v in &fresh {
            for &y in &s.adj[v] {
                if inside[y] && label[y] == LABEL_NONE {
                    label[y] = LABEL_N;
                    left -= 1;
                }
            }
        }
    }
    label
}

/// The vertices of G* in Theorem 10's case (4): live, weight at least 2, no loop, no
/// neighbour of weight 1.
pub fn case4_vertices(s: &State) -> Vec<bool> {
    let w = &s.weights;
    (0..w.len())
        .map(|v| w[v] >= 2 && !s.adj[v].contains(&v) && s.adj[v].iter().all(|&y| w[y] != 1))
        .collect()
}

/// Theorem 10 (normal play): undirected vertexnim, loops optional.
pub fn undirected(s: &State) -> Option<bool> {
    let u = s.token?;
    let alive = live(s);
    let w = &s.weights;
    if alive.iter().all(|&v| w[v] == 1) {
        return Some(alive.len() % 2 == 1);
    }
    if alive.len() == 1 {
        return Some(true);
    }
    if w[u] == 1 {
        return Some(component_size(s, u, |v| w[v] == 1).is_multiple_of(2));
    }
    if s.adj[u].contains(&u) || s.adj[u].iter().any(|&v| w[v] == 1) {
        return Some(true);
    }
    Some(min_weight_labelling(s, &case4_vertices(s), u))
}

/// Corollary 12 (normal play): undirected Vertex NimG.
pub fn nimg_undirected(s: &State) -> Option<bool> {
    let u = s.token?;
    let w = &s.weights;
    if w[u] == 0 {
        return Some(false);
    }
    if s.adj[u].contains(&u) || s.adj[u].iter().any(|&v| w[v] == 0) {
        return Some(true);
    }
    let inside: Vec<bool> = (0..w.len())
        .map(|v| w[v] >= 1 && !s.adj[v].contains(&v) && s.adj[v].iter().all(|&y| w[y] != 0))
        .collect();
    Some(min_weight_labelling(s, &inside, u))
}

/// Theorems 13 and 14: misere play from the normal-play answer `normal`.
pub fn misere(s: &State, normal: Option<bool>) -> Option<bool> {
    let alive = live(s);
    if alive.iter().all(|&v| s.weights[v] == 1) {
        return Some(alive.len().is_multiple_of(2));
    }
    if let [v] = alive[..] {
        // Alone with weight at least 2: lower it to 1 and stay (a loop), or be forced to empty it.
        return Some(s.adj[v].contains(&v));
    }
    normal
}

/// The polynomial answer for `game` at `state`, with the statement used; `None` where no
/// characterisation applies (directed graphs without loops everywhere other than circuits,
/// misere NimG, directed NimG).
pub fn fast_outcome(game: &VertexNim, s: &State) -> Option<(bool, &'static str)> {
    let normal = match (game.variant, game.directed) {
        (Variant::Vertexnim, false) => undirected(s).map(|r| (r, "Theorem 10")),
        (Variant::Vertexnim, true) => directed_loops(s).map(|r| (r, "Theorem 6")).or_else(|| {
            circuit_from_token(s).and_then(|ws| adjacent_nim(&ws)).map(|r| (r, "Theorem 3"))
        }),
        (Variant::Nimg, false) => nimg_undirected(s).map(|r| (r, "Corollary 12")),
        (Variant::Nimg, true) => {
            if s.weights.contains(&0) {
                None
            } else {
                circuit_from_token(s).map(|ws| (nimg_circuit(&ws), "Remark 5 (conjecture)"))
            }
        }
    };
    match game.play {
        Play::Normal => normal,
        Play::Misere => {
            if game.variant == Variant::Nimg {
                return None;
            }
            let (r, name) = normal?;
            if name == "Theorem 3" || name.starts_with("Remark 5") {
                return None;
            }
            misere(s, Some(r)).map(|r| (r, if game.directed { "Theorem 14" } else { "Theorem 13" }))
        }
    }
}

/// Options of `gamecert gen vertexnim`.
pub struct GenOptions {
    pub vertices: usize,
    pub max_weight: u64,
    pub seed: u64,
    pub directed: bool,
    pub variant: Variant,
    pub misere: bool,
    /// Extra edges per vertex beyond the spanning tree (or cycle), on average.
    pub density: f64,
    /// Probability of a loop on a vertex.
    pub loops: f64,
}

/// A random connected instance (strongly connected when directed): a random spanning tree
/// (a Hamiltonian cycle in random order when directed), extra random edges, random loops and
/// weights uniform in 1..=max_weight, the token on v0.
pub fn generate(opts: &GenOptions) -> Result<VertexNimSpec, String> {
    if opts.vertices == 0 {
        return Err("--vertices must be at least 1".into());
    }
    if opts.vertices > 10_000_000 {
        return Err(format!("--vertices {} is over the limit of 10^7", opts.vertices));
    }
    if opts.max_weight == 0 || opts.max_weight > i64::MAX as u64 {
        return Err("--max-weight must be at least 1 (and at most 2^63 - 1)".into());
    }
    if !(0.0..=100.0).contains(&opts.density) {
        return Err("--density must be between 0 and 100 (extra edges per vertex)".into());
    }
    if !(0.0..=1.0).contains(&opts.loops) {
        return Err("--loops is a probability, between 0 and 1".into());
    }
    let n = opts.vertices;
    let mut rng = crate::base::rng::Rng::new(opts.seed);
    let name = |v: usize| format!("v{v}");
    let mut edges: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        perm.swap(i, j);
    }
    if opts.directed {
        if n > 1 {
            for i in 0..n {
                edges.insert((perm[i], perm[(i + 1) % n]));
            }
        }
    } else {
        for i in 1..n {
            let j = rng.below(i as u64) as usize;
            edges.insert((perm[j].min(perm[i]), perm[j].max(perm[i])));
        }
    }
    let extra = (opts.density * n as f64) as usize;
    if n > 1 {
        for _ in 0..extra {
            let a = rng.below(n as u64) as usize;
            let b = rng.below(n as u64) as usize;
            if a != b {
                edges.insert(if opts.directed { (a, b) } else { (a.min(b), a.max(b)) });
            }
        }
    }
    for v in 0..n {
        if (rng.below(1 << 20) as f64) < opts.loops * (1u64 << 20) as f64 {
            edges.insert((v, v));
        }
    }
    let vertices = (0..n)
        .map(|v| VertexSpec { name: name(v), weight: 1 + rng.below(opts.max_weight) as i64 })
        .collect();
    Ok(VertexNimSpec {
        directed: opts.directed,
        variant: opts.variant,
        play: if opts.misere { Play::Misere } else { Play::Normal },
        vertices,
        edges: edges.into_iter().map(|(a, b)| (name(a), name(b))).collect(),
        token: name(0),
        source: Some(serde_json::json!({"family": "vertexnim", "seed": opts.seed})),
    })
}

/// The registry's solve method for a `vertexnim` instance ([`crate::registry`]).
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    _: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    let game = super::game_of(instance)?;
    let (certificate, positions, method) = solve(&game)?;
    Ok(Some(crate::base::solved::SolvedGame::new(certificate, positions, &method)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connected graph on `n` labelled vertices (strongly connected when directed), with
    /// loops per `loops` (None: every loop pattern; Some(b): all or none), as instances.
    fn graphs(n: usize, directed: bool, loops: Option<bool>, variant: Variant) -> Vec<VertexNim> {
        let pairs: Vec<(usize, usize)> = if directed {
            (0..n).flat_map(|a| (0..n).filter(move |&b| b != a).map(move |b| (a, b))).collect()
        } else {
            (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect()
        };
        let loop_masks: Vec<u32> = match loops {
            None => (0..1u32 << n).collect(),
            Some(true) => vec![(1u32 << n) - 1],
            Some(false) => vec![0],
        };
        let mut out = Vec::new();
        for em in 0..1u64 << pairs.len() {
            for &lm in &loop_masks {
                let mut edges = Vec::new();
                for (k, &(a, b)) in pairs.iter().enumerate() {
                    if em >> k & 1 == 1 {
                        edges.push((format!("v{a}"), format!("v{b}")));
                    }
                }
                for v in 0..n {
                    if lm >> v & 1 == 1 {
                        edges.push((format!("v{v}"), format!("v{v}")));
                    }
                }
                let spec = VertexNimSpec {
                    directed,
                    variant,
                    play: Play::Normal,
                    vertices: (0..n)
                        .map(|v| VertexSpec { name: format!("v{v}"), weight: 1 })
                        .collect(),
                    edges,
                    token: "v0".into(),
                    source: None,
                };
                if let Ok(g) = spec.validate() {
                    out.push(g);
                }
            }
        }
        out
    }

    /// Compares `rule` with the exact solver on every weight vector in 1..=max_w (token on v0)
    /// of every graph, under `play`; returns the number of positions compared.
    fn compare(
        games: &mut [VertexNim],
        max_w: u64,
        play: Play,
        rule: impl Fn(&State) -> Option<bool>,
    ) -> usize {
        let mut count = 0;
        for g in games.iter_mut() {
            g.play = play;
            let mut exact = Exact::new(g).unwrap();
            for w in weight_vectors(g.names.len(), max_w) {
                let mut s = g.start.clone();
                s.weights = w;
                if let Some(r) = rule(&s) {
                    let e = exact.wins(&s).unwrap();
                    assert_eq!(r, e, "{} ({play:?})", s.text(g.directed));
                    count += 1;
                }
            }
        }
        count
    }

    /// Every weight vector of length `n` with entries in 1..=max_w.
    fn weight_vectors(n: usize, max_w: u64) -> Vec<Vec<u64>> {
        let mut out = vec![Vec::new()];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|w| {
                    (1..=max_w).map(move |x| {
                        let mut v = w.clone();
                        v.push(x);
                        v
                    })
                })
                .collect();
        }
        out
    }

    /// The labelling certificate of every weighting of `g` agrees with the exact solver, is
    /// accepted, and is refused with the other winner; returns the positions checked.
    fn labellings_agree(g: &VertexNim, max_w: u64) -> usize {
        let mut exact = Exact::new(g).unwrap();
        let mut count = 0;
        for w in weight_vectors(g.names.len(), max_w) {
            let mut h = g.clone();
            h.start.weights = w;
            let cert = labelling_certificate(&h).unwrap();
            let first = exact.wins(&h.start).unwrap();
            assert_eq!(cert.winner == FIRST, first, "{}", h.start.text(g.directed));
            gamecert_certificates::vertexnim::strategy::check_labelling(
                &h,
                &cert,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap();
            let mut flipped = cert.clone();
            flipped.winner = if first { SECOND } else { FIRST }.into();
            assert!(gamecert_certificates::vertexnim::strategy::check_labelling(
                &h,
                &flipped,
                &mut gamecert_certificates::base::budget::Budget::unlimited()
            )
            .is_err());
            count += 1;
        }
        count
    }

    #[test]
    fn theorem_3_adjacent_nim() {
        let mut total = 0;
        for n in 2..=6usize {
            let mut w = vec![2u64; n];
            let max = if n <= 4 { 5 } else { 4 };
            let g = circuit_spec(&w, Variant::Vertexnim).validate().unwrap();
            let mut exact = Exact::new(&g).unwrap();
            loop {
                let mut s = g.start.clone();
                s.weights = w.clone();
                let ws = circuit_from_token(&s).unwrap();
                assert_eq!(ws, w);
                let r = adjacent_nim(&ws).unwrap();
                assert_eq!(r, exact.wins(&s).unwrap(), "{w:?}");
                // The large-instance certificate says the same, and the checker accepts it.
                let mut at_s = g.clone();
                at_s.start = s;
                let labelling = labelling_certificate(&at_s).unwrap();
                assert_eq!(labelling.winner == FIRST, r, "{w:?}");
                let verdict = gamecert_certificates::vertexnim::strategy::check_labelling(
                    &at_s,
                    &labelling,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                );
                assert_eq!(verdict.unwrap().0, "Theorem 3", "{w:?}");
                total += 1;
                let mut i = 0;
                while i < n && w[i] == max {
                    w[i] = 2;
                    i += 1;
                }
                if i == n {
                    break;
                }
                w[i] += 1;
            }
        }
        assert_eq!(total, 16 + 64 + 256 + 243 + 729);
    }

    /// Remark 5: Stockman's NimG on a directed circuit; prints where the rule of Theorem 3
    /// (applied to the weights as they are, 1s included) disagrees with the exact solver.
    #[test]
    fn remark_5_nimg_on_circuits() {
        let (mut agree, mut disagree) = (0, 0);
        for n in 2..=6usize {
            let max = if n <= 4 { 5 } else { 4 };
            let g = circuit_spec(&vec![1; n], Variant::Nimg).validate().unwrap();
            let mut exact = Exact::new(&g).unwrap();
            let mut w = vec![1u64; n];
            loop {
                let mut s = g.start.clone();
                s.weights = w.clone();
                let rule = nimg_circuit(&w);
                if rule == exact.wins(&s).unwrap() {
                    agree += 1;
                } else {
                    disagree += 1;
                    if disagree < 5 {
                        eprintln!("Remark 5 disagrees: {w:?}");
                    }
                }
                let mut i = 0;
                while i < n && w[i] == max {
                    w[i] = 1;
                    i += 1;
                }
                if i == n {
                    break;
                }
                w[i] += 1;
            }
        }
        eprintln!("Remark 5: {agree} agree, {disagree} disagree");
        assert_eq!((agree, disagree), (5_895, 0));
    }

    /// Compares `rule` with the exact solver on every graph of each (size, largest weight) in
    /// `sizes` (see [`graphs`]); returns the positions compared.
    fn sweep(
        sizes: &[(usize, u64)],
        directed: bool,
        loops: Option<bool>,
        variant: Variant,
        play: Play,
        rule: impl Fn(&State) -> Option<bool> + Copy,
    ) -> usize {
        let mut total = 0;
        for &(n, w) in sizes {
            let mut gs = graphs(n, directed, loops, variant);
            total += compare(&mut gs, w, play, rule);
        }
        assert!(total > 0, "no position compared");
        total
    }

    const UP_TO_5: &[(usize, u64)] = &[(1, 4), (2, 4), (3, 4), (4, 4), (5, 3)];
    const UP_TO_4: &[(usize, u64)] = &[(1, 4), (2, 4), (3, 4), (4, 3)];
    const DIRECTED: &[(usize, u64)] = &[(1, 3), (2, 3), (3, 3), (4, 2)];

    #[test]
    fn proposition_9_undirected_all_loops() {
        let total =
            sweep(UP_TO_5, false, Some(true), Variant::Vertexnim, Play::Normal, undirected_loops);
        eprintln!("Proposition 9: {total} positions");
    }

    #[test]
    fn theorem_6_directed_all_loops() {
        let total =
            sweep(DIRECTED, true, Some(true), Variant::Vertexnim, Play::Normal, directed_loops);
        eprintln!("Theorem 6: {total} positions");
    }

    #[test]
    fn theorem_10_undirected() {
        let total = sweep(UP_TO_4, false, None, Variant::Vertexnim, Play::Normal, undirected);
        eprintln!("Theorem 10: {total} positions");
    }

    #[test]
    fn corollary_12_nimg() {
        let total = sweep(UP_TO_4, false, None, Variant::Nimg, Play::Normal, nimg_undirected);
        eprintln!("Corollary 12: {total} positions");
    }

    #[test]
    fn theorems_13_14_misere() {
        let undirected_total = sweep(UP_TO_4, false, None, Variant::Vertexnim, Play::Misere, |s| {
            misere(s, undirected(s))
        });
        let directed_total =
            sweep(DIRECTED, true, Some(true), Variant::Vertexnim, Play::Misere, |s| {
                misere(s, directed_loops(s))
            });
        eprintln!("Theorems 13, 14: {} positions", undirected_total + directed_total);
    }

    #[test]
    fn quadratic_and_sorted_labellings_agree() {
        for seed in 0..20 {
            let spec = crate::vertexnim::generate::instance(60 + seed as usize, seed);
            let game = spec.validate().unwrap();
            let inside = case4_vertices(&game.start);
            assert_eq!(labels_quadratic(&game.start, &inside), labels_sorted(&game.start, &inside));
        }
    }

    /// Plain negamax over the checker's reference rules.
    fn naive(g: &VertexNim, s: &State) -> bool {
        let moves = g.moves(s);
        if moves.is_empty() {
            return g.stuck_player_wins();
        }
        moves.into_iter().any(|m| !naive(g, &g.apply(s, m)))
    }

    /// The exact solver's bitmask rules agree with the checker's on every small instance of
    /// every variant, and its strategies are accepted by the checker.
    #[test]
    fn exact_solver_matches_the_reference_rules() {
        let mut count = 0;
        for directed in [false, true] {
            for variant in [Variant::Vertexnim, Variant::Nimg] {
                for play in [Play::Normal, Play::Misere] {
                    for (n, max_w) in [(1, 3), (2, 3), (3, 2)] {
                        for mut g in graphs(n, directed, None, variant) {
                            g.play = play;
                            count += compare(&mut [g.clone()], max_w, play, |s| Some(naive(&g, s)));
                            let strategy = strategy(&g, 100_000).unwrap().unwrap();
                            gamecert_certificates::vertexnim::strategy::check_strategy(
                                &g,
                                &strategy,
                                &mut gamecert_certificates::base::budget::Budget::unlimited(),
                            )
                            .unwrap();
                        }
                    }
                }
            }
        }
        assert!(count > 1000, "{count}");
    }

    /// The checker's labelling check decides every small undirected instance as the exact
    /// solver does, and refuses the other winner.
    #[test]
    fn labelling_certificates_agree_with_the_exact_solver() {
        let mut count = 0;
        for variant in [Variant::Vertexnim, Variant::Nimg] {
            for play in [Play::Normal, Play::Misere] {
                if variant == Variant::Nimg && play == Play::Misere {
                    continue;
                }
                for (n, max_w) in [(1, 3), (2, 3), (3, 3), (4, 2)] {
                    for mut g in graphs(n, false, None, variant) {
                        g.play = play;
                        count += labellings_agree(&g, max_w);
                    }
                }
            }
        }
        for play in [Play::Normal, Play::Misere] {
            for (n, max_w) in [(1, 3), (2, 3), (3, 3), (4, 2)] {
                for mut g in graphs(n, true, Some(true), Variant::Vertexnim) {
                    g.play = play;
                    count += labellings_agree(&g, max_w);
                }
            }
        }
        assert!(count > 1000, "{count}");
    }

    /// The larger sweep quoted in the README (about a minute with optimisation):
    /// `cargo test --release --lib vertexnim::tests::larger_sweep -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn larger_sweep() {
        let t = std::time::Instant::now();
        let mut gs = graphs(5, false, None, Variant::Vertexnim);
        let c = compare(&mut gs, 3, Play::Normal, undirected);
        eprintln!("Theorem 10, n = 5, weights 1..3: {c} positions ({:?})", t.elapsed());
        let c = compare(&mut gs, 3, Play::Misere, |s| misere(s, undirected(s)));
        eprintln!("Theorem 13, n = 5, weights 1..3: {c} positions ({:?})", t.elapsed());
        let mut gs = graphs(5, false, None, Variant::Nimg);
        let c = compare(&mut gs, 3, Play::Normal, nimg_undirected);
        eprintln!("Corollary 12, n = 5, weights 1..3: {c} positions ({:?})", t.elapsed());
        let mut gs = graphs(6, false, Some(true), Variant::Vertexnim);
        let c = compare(&mut gs, 3, Play::Normal, undirected_loops);
        eprintln!("Proposition 9, n = 6, weights 1..3: {c} positions ({:?})", t.elapsed());
        let mut gs = graphs(6, false, Some(false), Variant::Vertexnim);
        let c = compare(&mut gs, 3, Play::Normal, undirected);
        eprintln!("Theorem 10, n = 6 loopless, weights 1..3: {c} positions ({:?})", t.elapsed());
        let mut gs = graphs(4, true, Some(true), Variant::Vertexnim);
        let c = compare(&mut gs, 4, Play::Normal, directed_loops);
        eprintln!("Theorem 6, n = 4, weights 1..4: {c} positions ({:?})", t.elapsed());
        let c = compare(&mut gs, 4, Play::Misere, |s| misere(s, directed_loops(s)));
        eprintln!("Theorem 14, n = 4, weights 1..4: {c} positions ({:?})", t.elapsed());
        let mut gs = graphs(5, true, Some(true), Variant::Vertexnim);
        let c = compare(&mut gs, 2, Play::Normal, directed_loops);
        eprintln!("Theorem 6, n = 5, weights 1..2: {c} positions ({:?})", t.elapsed());
    }
}

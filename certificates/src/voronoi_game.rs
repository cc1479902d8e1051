//! The multi-round discrete Voronoi game (seed 001, Section 2) and the replay of a strategy
//! certificate against every opponent move, with symmetry only through verified witnesses.
//!
//! Rules: W and B alternately occupy an empty vertex, W first in every round, for `rounds`
//! rounds each (optionally from a given start position). The final position is scored by the
//! one-round reference rules ([`crate::voronoi::score`]). A player's margin is its dominance set's
//! size minus the other's.
//!
//! # Strategy certificates
//!
//! A position is a string with one character per vertex, in the instance's vertex order: `.`
//! empty, `W`, `B`. The certificate names its player, a claim, the player's move at each position
//! where it is to move, and optionally symmetry witnesses at positions where the opponent is to
//! move:
//!
//! ```json
//! {"player": "white", "claim": "at-least-ties",
//!  "moves": [["....", "b"], ["BW..", "c"]],
//!  "symmetries": [["W...", "c", "a", [["c", "a"], ["a", "c"]]]]}
//! ```
//!
//! A symmetry `[position, move, as, permutation]` says: the opponent's `move` at `position` is
//! answered as its `as` is, because `permutation` maps the one onto the other. The permutation
//! lists `[vertex, image]` for the vertices it moves; every other vertex is fixed. The checker accepts it only after verifying that the
//! permutation is a bijection of the vertices, maps every edge to an edge (an automorphism),
//! maps W's vertices to W's and B's to B's (it fixes the position, owners included) and maps
//! `move` to `as`; then the position after `move` is the image of the position after `as`, has
//! the same value, and only the latter is explored. A witness that fails verification rejects
//! the certificate.
//!
//! A certificate may also declare `twin_classes`: lists of vertices that are pairwise twins
//! (the same neighbours, or the same closed neighbourhoods). The checker verifies each class
//! once; then, at every position where the opponent is to move, a move to an empty member of a
//! class is answered as the move to the class's first empty member (in the listed order) is:
//! swapping two twins is an automorphism, and with both empty it fixes the position. This is
//! how pendant vertices (twins of each other) cost one branch instead of one per pendant.
//!
//! # Orbits
//!
//! On large symmetric graphs (complete k-ary trees with hundreds of vertices) one witness per
//! folded move costs too much. A certificate may instead declare `generators`: automorphisms,
//! each as `[vertex, image]` pairs for the vertices it moves, verified once (a bijection of the
//! listed vertices onto themselves that maps every edge at a moved vertex to an edge). Then an
//! entry of `orbits`, `[position, [generator indices]]`, at a position where the opponent is to
//! move says: these generators fix the position (the checker verifies it, owner by owner, on the
//! moved vertices). Every element of the group they generate is then an automorphism fixing the
//! position, so two opponent moves in one orbit of that group lead to positions that are images
//! of each other and have the same value. The checker computes the orbits (union-find over the
//! generators' pairs) and explores, in each orbit, only the move to its smallest vertex (in the
//! instance's vertex order). At a position with an `orbits` entry, twin classes and per-move
//! witnesses are not consulted (mixing the three rules could skip a whole class).
//!
//! Claims: `wins` (margin at least 1), `at-least-ties` (at least 0), `margin-at-least` with
//! `margin: k`. The replay is an explicit stack over the game DAG, each position expanded once.

use crate::graph::Graph;
use crate::voronoi::{score, Player};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// What a strategy certificate claims for its player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrategyClaim {
    Wins,
    AtLeastTies,
    MarginAtLeast,
}

/// Certificate kind `voronoi-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoronoiStrategy {
    pub player: Player,
    pub claim: StrategyClaim,
    /// For `margin-at-least`: the margin k.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i64>,
    /// (position, vertex to occupy).
    pub moves: Vec<(String, String)>,
    /// (position, opponent's move, equivalent move, permutation as `[vertex, image]` pairs for
    /// the vertices it moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symmetries: Vec<Symmetry>,
    /// Classes of pairwise twin vertices, verified once (see the module docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub twin_classes: Vec<Vec<String>>,
    /// Automorphisms declared once, as `[vertex, image]` pairs for the vertices each moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generators: Vec<Vec<(String, String)>>,
    /// (position, indices into `generators` that fix it), at positions where the opponent is
    /// to move: the opponent's moves are explored once per orbit (see the module docs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orbits: Vec<(String, Vec<usize>)>,
}

/// Certificate kind `voronoi-value`: the game's value (W's margin under optimal play), fixed by
/// two strategies: W's with the claim "margin at least `value`" and B's with "margin at least
/// `-value`". Both are replayed; together they show neither player can do better.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoronoiValue {
    pub value: i64,
    pub white: VoronoiStrategy,
    pub black: VoronoiStrategy,
}

/// A symmetry witness: (position, opponent's move, equivalent move, moved vertices).
pub type Symmetry = (String, String, String, Vec<(String, String)>);

/// Verifies declared twin classes; returns, for each vertex, its class and position in it.
fn verify_twin_classes(
    graph: &Graph,
    classes: &[Vec<String>],
) -> Result<Vec<Option<(usize, usize)>>, String> {
    let mut member = vec![None; graph.len()];
    for (c, class) in classes.iter().enumerate() {
        let mut first: Option<usize> = None;
        for (k, name) in class.iter().enumerate() {
            let v = graph
                .vertex(name)
                .ok_or_else(|| format!("twin_classes[{c}]: unknown vertex '{name}'"))?;
            if member[v].is_some() {
                return Err(format!(
                    "twin_classes[{c}]: vertex '{name}' is in a class already"
                ));
            }
            member[v] = Some((c, k));
            if let Some(f) = first {
                let closed = |x: usize| {
                    let mut set: Vec<usize> = graph.neighbours(x).to_vec();
                    set.push(x);
                    set.sort_unstable();
                    set
                };
                if graph.neighbours(v) != graph.neighbours(f) && closed(v) != closed(f) {
                    return Err(format!(
                        "twin_classes[{c}]: '{name}' and '{}' are not twins (their neighbourhoods differ)",
                        graph.name(f)
                    ));
                }
            } else {
                first = Some(v);
            }
        }
    }
    Ok(member)
}

/// What the replay did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ReplayReport {
    /// Positions expanded (each once).
    pub positions: u64,
    /// Final positions scored.
    pub leaves: u64,
    /// Symmetry witnesses verified and used.
    pub symmetries_used: u64,
    /// The smallest margin of the player over all final positions reached.
    pub worst_margin: Option<i64>,
}

const EMPTY: u8 = b'.';

fn mark(p: Player) -> u8 {
    match p {
        Player::White => b'W',
        Player::Black => b'B',
    }
}

fn other(p: Player) -> Player {
    match p {
        Player::White => Player::Black,
        Player::Black => Player::White,
    }
}

/// Whose turn it is in `position`, or `None` when the game is over; an impossible count of
/// occupied vertices is an error.
pub fn to_move(position: &[u8], rounds: usize) -> Result<Option<Player>, String> {
    let w = position.iter().filter(|&&c| c == b'W').count();
    let b = position.iter().filter(|&&c| c == b'B').count();
    if w == rounds && b == rounds {
        Ok(None)
    } else if w == b && w < rounds {
        Ok(Some(Player::White))
    } else if w == b + 1 && b < rounds {
        Ok(Some(Player::Black))
    } else {
        Err(format!(
            "W holds {w} and B holds {b} vertices, which no play of {rounds} rounds reaches"
        ))
    }
}

/// The player's margin in a final position.
pub fn margin(graph: &Graph, position: &[u8], player: Player) -> i64 {
    let owned =
        |c: u8| -> Vec<usize> { (0..position.len()).filter(|&v| position[v] == c).collect() };
    let s = score(graph, &owned(b'W'), &owned(b'B'));
    let (mine, theirs) = match player {
        Player::White => (s.white, s.black),
        Player::Black => (s.black, s.white),
    };
    mine as i64 - theirs as i64
}

/// Verifies a symmetry witness and returns the full permutation: a bijection of the vertices
/// (the listed pairs, identity elsewhere) that maps every edge to an edge, keeps every vertex's
/// owner in `position`, and maps `from` to `to`.
fn verify_permutation(
    graph: &Graph,
    pairs: &[(String, String)],
    position: &[u8],
    from: usize,
    to: usize,
) -> Result<Vec<usize>, String> {
    let n = graph.len();
    let mut pi: Vec<usize> = (0..n).collect();
    let mut listed = vec![false; n];
    for (a, b) in pairs {
        let v = graph
            .vertex(a)
            .ok_or_else(|| format!("the permutation names an unknown vertex '{a}'"))?;
        let w = graph
            .vertex(b)
            .ok_or_else(|| format!("the permutation names an unknown vertex '{b}'"))?;
        if listed[v] {
            return Err(format!("the permutation gives '{a}' two images"));
        }
        listed[v] = true;
        pi[v] = w;
    }
    let mut hit = vec![false; n];
    for v in 0..n {
        if hit[pi[v]] {
            return Err(format!(
                "the permutation maps two vertices to '{}': it is not a bijection",
                graph.name(pi[v])
            ));
        }
        hit[pi[v]] = true;
        if position[v] != position[pi[v]] {
            return Err(format!(
                "the permutation maps '{}' ({}) to '{}' ({}): it does not fix the position",
                graph.name(v),
                owner_word(position[v]),
                graph.name(pi[v]),
                owner_word(position[pi[v]])
            ));
        }
    }
    // Only edges at moved vertices can change; a bijection of the vertices that maps each of
    // those edges to an edge maps the edge set onto itself.
    for v in (0..n).filter(|&v| pi[v] != v) {
        for &w in graph.neighbours(v) {
            let (x, y) = (pi[v], pi[w]);
            if !graph.neighbours(x).contains(&y) {
                return Err(format!(
                    "the permutation is not an automorphism: edge {} - {} goes to {} - {}, which is not an edge",
                    graph.name(v),
                    graph.name(w),
                    graph.name(x),
                    graph.name(y)
                ));
            }
        }
    }
    if pi[from] != to {
        return Err(format!(
            "the permutation maps '{}' to '{}', not to '{}'",
            graph.name(from),
            graph.name(pi[from]),
            graph.name(to)
        ));
    }
    Ok(pi)
}

/// Verifies the declared generators once; returns each as (vertex, image) index pairs.
fn verify_generators(
    graph: &Graph,
    generators: &[Vec<(String, String)>],
) -> Result<Vec<Vec<(usize, usize)>>, String> {
    let n = graph.len();
    let mut image = vec![usize::MAX; n];
    let mut verified = Vec::with_capacity(generators.len());
    for (g, pairs) in generators.iter().enumerate() {
        let mut moved = Vec::with_capacity(pairs.len());
        for (a, b) in pairs {
            let lookup = |name: &str| {
                graph
                    .vertex(name)
                    .ok_or_else(|| format!("generators[{g}]: unknown vertex '{name}'"))
            };
            let (v, w) = (lookup(a)?, lookup(b)?);
            if image[v] != usize::MAX {
                return Err(format!("generators[{g}]: '{a}' has two images"));
            }
            image[v] = w;
            moved.push((v, w));
        }
        // A bijection of the listed vertices onto themselves: every image is listed, once.
        let mut hit = vec![false; n];
        for &(_, w) in &moved {
            if image[w] == usize::MAX || hit[w] {
                return Err(format!(
                    "generators[{g}]: the listed pairs are not a bijection of the listed vertices (at '{}')",
                    graph.name(w)
                ));
            }
            hit[w] = true;
        }
        // Only edges at moved vertices can change (see verify_permutation).
        let pi = |x: usize| if image[x] == usize::MAX { x } else { image[x] };
        for &(v, _) in &moved {
            for &w in graph.neighbours(v) {
                if !graph.neighbours(pi(v)).contains(&pi(w)) {
                    return Err(format!(
                        "generators[{g}] is not an automorphism: edge {} - {} goes to {} - {}, which is not an edge",
                        graph.name(v),
                        graph.name(w),
                        graph.name(pi(v)),
                        graph.name(pi(w))
                    ));
                }
            }
        }
        for &(v, _) in &moved {
            image[v] = usize::MAX;
        }
        verified.push(moved);
    }
    Ok(verified)
}

/// For every vertex, the smallest vertex of its orbit under the group generated by
/// `generators` (each as moved (vertex, image) pairs): union-find over the pairs, the smaller
/// index always the root. The producer of a certificate calls this too, to know which replies
/// the checker will explore.
pub fn orbit_representatives(n: usize, generators: &[&[(usize, usize)]]) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        let mut root = x;
        while parent[root] != root {
            root = parent[root];
        }
        while parent[x] != root {
            let next = parent[x];
            parent[x] = root;
            x = next;
        }
        root
    }
    for generator in generators {
        for &(v, w) in generator.iter() {
            let (a, b) = (find(&mut parent, v), find(&mut parent, w));
            if a != b {
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..n).map(|v| find(&mut parent, v)).collect()
}

fn owner_word(c: u8) -> &'static str {
    match c {
        b'W' => "W's",
        b'B' => "B's",
        _ => "empty",
    }
}

/// Replays `strategy` from `start` (a position string) for `rounds` rounds against every
/// opponent move. `max_positions` bounds the work.
pub fn check_strategy(
    graph: &Graph,
    rounds: usize,
    start: &[u8],
    strategy: &VoronoiStrategy,
    max_positions: u64,
) -> Result<ReplayReport, String> {
    let n = graph.len();
    let needed = match (strategy.claim, strategy.margin) {
        (StrategyClaim::Wins, None) => 1,
        (StrategyClaim::AtLeastTies, None) => 0,
        (StrategyClaim::MarginAtLeast, Some(k)) => k,
        (StrategyClaim::MarginAtLeast, None) => {
            return Err("claim 'margin-at-least' needs a `margin`".into())
        }
        (_, Some(_)) => return Err("only claim 'margin-at-least' takes a `margin`".into()),
    };
    let valid = |p: &str, at: &str| -> Result<(), String> {
        if p.len() != n || !p.bytes().all(|c| matches!(c, EMPTY | b'W' | b'B')) {
            return Err(format!(
                "{at}: '{p}' is not a position of {n} characters '.', 'W', 'B'"
            ));
        }
        Ok(())
    };
    let vertex = |name: &str, at: &str| {
        graph
            .vertex(name)
            .ok_or_else(|| format!("{at}: unknown vertex '{name}'"))
    };
    let mut moves: HashMap<&str, usize> = HashMap::with_capacity(strategy.moves.len());
    for (k, (p, v)) in strategy.moves.iter().enumerate() {
        let at = format!("moves[{k}]");
        valid(p, &at)?;
        if moves.insert(p.as_str(), vertex(v, &at)?).is_some() {
            return Err(format!("{at}: position '{p}' is given twice"));
        }
    }
    // (position, opponent's move) -> (equivalent move, moved vertices, index in the list).
    type Witness<'s> = (usize, &'s [(String, String)], usize);
    let mut symmetries: HashMap<(&str, usize), Witness> = HashMap::new();
    for (k, (p, m, as_, perm)) in strategy.symmetries.iter().enumerate() {
        let at = format!("symmetries[{k}]");
        valid(p, &at)?;
        let key = (p.as_str(), vertex(m, &at)?);
        if symmetries
            .insert(key, (vertex(as_, &at)?, perm, k))
            .is_some()
        {
            return Err(format!("{at}: a second witness for the same move"));
        }
    }
    let generators = verify_generators(graph, &strategy.generators)?;
    let mut orbits: HashMap<&str, (usize, &[usize])> = HashMap::new();
    for (k, (p, list)) in strategy.orbits.iter().enumerate() {
        let at = format!("orbits[{k}]");
        valid(p, &at)?;
        if let Some(&g) = list.iter().find(|&&g| g >= generators.len()) {
            return Err(format!(
                "{at}: generator {g} is not declared ({} generators)",
                generators.len()
            ));
        }
        if orbits.insert(p.as_str(), (k, list)).is_some() {
            return Err(format!("{at}: position '{p}' is given twice"));
        }
    }
    if start.len() != n {
        return Err(format!(
            "the start position has {} characters, not {n}",
            start.len()
        ));
    }
    let twins = verify_twin_classes(graph, &strategy.twin_classes)?;
    // Members of each class in listed order, for finding a class's first empty member.
    let mut class_members: Vec<Vec<usize>> = vec![Vec::new(); strategy.twin_classes.len()];
    for (v, m) in twins.iter().enumerate() {
        if let Some((c, k)) = *m {
            if class_members[c].len() <= k {
                class_members[c].resize(k + 1, usize::MAX);
            }
            class_members[c][k] = v;
        }
    }
    let mut report = ReplayReport::default();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut stack = vec![start.to_vec()];
    while let Some(position) = stack.pop() {
        if !seen.insert(position.clone()) {
            continue;
        }
        report.positions += 1;
        if report.positions > max_positions {
            return Err(format!(
                "more than {max_positions} positions: over the checker's limit"
            ));
        }
        let text = String::from_utf8_lossy(&position).into_owned();
        match to_move(&position, rounds)? {
            None => {
                report.leaves += 1;
                let m = margin(graph, &position, strategy.player);
                report.worst_margin = Some(report.worst_margin.map_or(m, |w| w.min(m)));
                if m < needed {
                    return Err(format!(
                        "the play ending in '{text}' leaves the {} player a margin of {m}, below {needed}",
                        if strategy.player == Player::White { "white" } else { "black" }
                    ));
                }
            }
            Some(p) if p == strategy.player => {
                let Some(&v) = moves.get(text.as_str()) else {
                    return Err(format!("no move for position '{text}'"));
                };
                if position[v] != EMPTY {
                    return Err(format!(
                        "at position '{text}' the strategy occupies '{}', which is taken",
                        graph.name(v)
                    ));
                }
                let mut next = position.clone();
                next[v] = mark(p);
                stack.push(next);
            }
            Some(p) => {
                debug_assert_eq!(p, other(strategy.player));
                if let Some(&(k, list)) = orbits.get(text.as_str()) {
                    let mut chosen: Vec<&[(usize, usize)]> = Vec::with_capacity(list.len());
                    for &g in list {
                        if let Some(&(v, w)) = generators[g]
                            .iter()
                            .find(|&&(v, w)| position[v] != position[w])
                        {
                            return Err(format!(
                                "orbits[{k}] at '{text}': generator {g} maps '{}' ({}) to '{}' ({}): it does not fix the position",
                                graph.name(v),
                                owner_word(position[v]),
                                graph.name(w),
                                owner_word(position[w])
                            ));
                        }
                        chosen.push(&generators[g]);
                    }
                    let representative = orbit_representatives(n, &chosen);
                    for m in (0..n).filter(|&m| position[m] == EMPTY) {
                        if representative[m] != m {
                            report.symmetries_used += 1;
                            continue;
                        }
                        let mut next = position.clone();
                        next[m] = mark(p);
                        stack.push(next);
                    }
                    continue;
                }
                for m in 0..n {
                    if position[m] != EMPTY {
                        continue;
                    }
                    if let Some((c, _)) = twins[m] {
                        // The class's first empty member stands for every empty member.
                        let first = class_members[c]
                            .iter()
                            .copied()
                            .find(|&r| position[r] == EMPTY);
                        if first != Some(m) {
                            report.symmetries_used += 1;
                            continue;
                        }
                    }
                    let reply = match symmetries.get(&(text.as_str(), m)) {
                        Some(&(as_, perm, k)) => {
                            if position[as_] != EMPTY {
                                return Err(format!(
                                    "symmetries[{k}]: '{}' is not free at '{text}'",
                                    graph.name(as_)
                                ));
                            }
                            verify_permutation(graph, perm, &position, m, as_)
                                .map_err(|why| format!("symmetries[{k}] at '{text}': {why}"))?;
                            report.symmetries_used += 1;
                            as_
                        }
                        None => m,
                    };
                    let mut next = position.clone();
                    next[reply] = mark(p);
                    stack.push(next);
                }
            }
        }
    }
    Ok(report)
}

/// Checks a value certificate: both strategies, with exactly the claims that fix `value`.
pub fn check_value(
    graph: &Graph,
    rounds: usize,
    start: &[u8],
    certificate: &VoronoiValue,
    max_positions: u64,
) -> Result<(ReplayReport, ReplayReport), String> {
    let v = certificate.value;
    let expect = |s: &VoronoiStrategy, player: Player, margin: i64, which: &str| {
        if s.player != player || s.claim != StrategyClaim::MarginAtLeast || s.margin != Some(margin)
        {
            return Err(format!(
                "{which}: a value certificate for {v} needs this strategy to claim \
                 'margin-at-least' {margin} for its player"
            ));
        }
        Ok(())
    };
    expect(&certificate.white, Player::White, v, "white")?;
    expect(&certificate.black, Player::Black, -v, "black")?;
    let white = check_strategy(graph, rounds, start, &certificate.white, max_positions)
        .map_err(|e| format!("white's strategy: {e}"))?;
    let black = check_strategy(graph, rounds, start, &certificate.black, max_positions)
        .map_err(|e| format!("black's strategy: {e}"))?;
    Ok((white, black))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(names: &[&str], edges: &[(&str, &str)]) -> Graph {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        let edges: Vec<(String, String)> = edges
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        Graph::new(&names, &edges).unwrap()
    }

    /// The value (W's best guaranteed margin) by plain minimax, for the tests.
    fn minimax(g: &Graph, position: &mut Vec<u8>, rounds: usize) -> i64 {
        match to_move(position, rounds).unwrap() {
            None => margin(g, position, Player::White),
            Some(p) => {
                let mut best: Option<i64> = None;
                for v in 0..g.len() {
                    if position[v] == EMPTY {
                        position[v] = mark(p);
                        let value = minimax(g, position, rounds);
                        position[v] = EMPTY;
                        best = Some(match (best, p) {
                            (None, _) => value,
                            (Some(b), Player::White) => b.max(value),
                            (Some(b), Player::Black) => b.min(value),
                        });
                    }
                }
                best.unwrap()
            }
        }
    }

    /// W's optimal strategy as a certificate, by minimax, for the tests.
    fn optimal_white(g: &Graph, rounds: usize) -> VoronoiStrategy {
        let mut moves = Vec::new();
        let mut stack = vec![vec![EMPTY; g.len()]];
        let mut seen = HashSet::new();
        while let Some(mut p) = stack.pop() {
            if !seen.insert(p.clone()) {
                continue;
            }
            match to_move(&p, rounds).unwrap() {
                None => {}
                Some(Player::White) => {
                    let target = minimax(g, &mut p.clone(), rounds);
                    let v = (0..g.len())
                        .find(|&v| {
                            p[v] == EMPTY && {
                                p[v] = b'W';
                                let ok = minimax(g, &mut p.clone(), rounds) == target;
                                p[v] = EMPTY;
                                ok
                            }
                        })
                        .unwrap();
                    moves.push((String::from_utf8(p.clone()).unwrap(), g.name(v).to_string()));
                    p[v] = b'W';
                    stack.push(p);
                }
                Some(Player::Black) => {
                    for v in 0..g.len() {
                        if p[v] == EMPTY {
                            let mut q = p.clone();
                            q[v] = b'B';
                            stack.push(q);
                        }
                    }
                }
            }
        }
        VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(minimax(g, &mut vec![EMPTY; g.len()], rounds)),
            moves,
            symmetries: Vec::new(),
            twin_classes: Vec::new(),
            generators: Vec::new(),
            orbits: Vec::new(),
        }
    }

    #[test]
    fn optimal_strategies_check_and_cannot_claim_more() {
        let path = graph(
            &["a", "b", "c", "d", "e"],
            &[("a", "b"), ("b", "c"), ("c", "d"), ("d", "e")],
        );
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        for (g, rounds) in [(&path, 1), (&path, 2), (&star, 1), (&star, 2)] {
            let s = optimal_white(g, rounds);
            let start = vec![EMPTY; g.len()];
            let r = check_strategy(g, rounds, &start, &s, 1_000_000).unwrap();
            assert_eq!(r.worst_margin, s.margin);
            let greedy = VoronoiStrategy {
                margin: s.margin.map(|m| m + 1),
                ..s.clone()
            };
            let err = check_strategy(g, rounds, &start, &greedy, 1_000_000).unwrap_err();
            assert!(err.contains("below"), "{err}");
        }
        // W takes the centre of the path and wins one round 3 to 2... by a margin of 1.
        assert_eq!(optimal_white(&path, 1).margin, Some(1));
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn symmetry_witnesses_are_verified() {
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        // One round: W takes the centre; B's three replies are equivalent.
        let witness = |m: &str, perm: &[(&str, &str)]| {
            (
                "W...".to_string(),
                m.to_string(),
                "x".to_string(),
                pairs(perm),
            )
        };
        let base = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("....".into(), "c".into())],
            symmetries: vec![
                witness("y", &[("y", "x"), ("x", "y")]),
                witness("z", &[("z", "x"), ("x", "y"), ("y", "z")]),
            ],
            twin_classes: vec![],
            generators: Vec::new(),
            orbits: Vec::new(),
        };
        let start = b"....".to_vec();
        let r = check_strategy(&star, 1, &start, &base, 100).unwrap();
        assert_eq!(r.symmetries_used, 2);
        assert_eq!(r.leaves, 1);
        // The leaves are twins: declaring the class does the same work without witnesses.
        let classes = VoronoiStrategy {
            symmetries: vec![],
            twin_classes: vec![vec!["x".into(), "y".into(), "z".into()]],
            ..base.clone()
        };
        let r = check_strategy(&star, 1, &start, &classes, 100).unwrap();
        assert_eq!((r.symmetries_used, r.leaves), (2, 1));
        let not_twins = VoronoiStrategy {
            twin_classes: vec![vec!["x".into(), "c".into()]],
            ..classes.clone()
        };
        let err = check_strategy(&star, 1, &start, &not_twins, 100).unwrap_err();
        assert!(err.contains("are not twins"), "{err}");
        let twice = VoronoiStrategy {
            twin_classes: vec![vec!["x".into(), "y".into()], vec!["y".into(), "z".into()]],
            ..classes
        };
        let err = check_strategy(&star, 1, &start, &twice, 100).unwrap_err();
        assert!(err.contains("in a class already"), "{err}");
        let with = |perm: &[(&str, &str)]| VoronoiStrategy {
            symmetries: vec![witness("y", perm)],
            ..base.clone()
        };
        let err =
            check_strategy(&star, 1, &start, &with(&[("y", "c"), ("c", "y")]), 100).unwrap_err();
        assert!(err.contains("does not fix the position"), "{err}");
        let err =
            check_strategy(&star, 1, &start, &with(&[("y", "z"), ("z", "y")]), 100).unwrap_err();
        assert!(err.contains("not to 'x'"), "{err}");
        let err = check_strategy(&star, 1, &start, &with(&[("y", "x")]), 100).unwrap_err();
        assert!(err.contains("not a bijection"), "{err}");
        let err =
            check_strategy(&star, 1, &start, &with(&[("y", "x"), ("y", "z")]), 100).unwrap_err();
        assert!(err.contains("two images"), "{err}");
        // A path is not symmetric under swapping an end with an inner vertex.
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            moves: vec![("...".into(), "a".into())],
            symmetries: vec![(
                "W..".into(),
                "c".into(),
                "b".into(),
                pairs(&[("c", "b"), ("b", "c")]),
            )],
            ..base
        };
        let err = check_strategy(&path, 1, b"...", &s, 100).unwrap_err();
        assert!(err.contains("not an automorphism"), "{err}");
    }

    #[test]
    fn orbits_are_verified() {
        let star = graph(&["c", "x", "y", "z"], &[("c", "x"), ("c", "y"), ("c", "z")]);
        let base = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("....".into(), "c".into())],
            symmetries: vec![],
            twin_classes: vec![],
            generators: vec![
                pairs(&[("x", "y"), ("y", "x")]),
                pairs(&[("y", "z"), ("z", "y")]),
            ],
            orbits: vec![("W...".into(), vec![0, 1])],
        };
        let start = b"....".to_vec();
        let r = check_strategy(&star, 1, &start, &base, 100).unwrap();
        assert_eq!((r.symmetries_used, r.leaves), (2, 1));
        let with = |generators: Vec<Vec<(String, String)>>, orbit: Vec<usize>| VoronoiStrategy {
            generators,
            orbits: vec![("W...".into(), orbit)],
            ..base.clone()
        };
        let err = check_strategy(
            &star,
            1,
            &start,
            &with(base.generators.clone(), vec![2]),
            100,
        )
        .unwrap_err();
        assert!(err.contains("not declared"), "{err}");
        let swap_centre = pairs(&[("c", "x"), ("x", "c")]);
        let err =
            check_strategy(&star, 1, &start, &with(vec![swap_centre], vec![0]), 100).unwrap_err();
        assert!(err.contains("not an automorphism"), "{err}");
        let cycle_part = pairs(&[("x", "y"), ("y", "z")]);
        let err =
            check_strategy(&star, 1, &start, &with(vec![cycle_part], vec![0]), 100).unwrap_err();
        assert!(err.contains("not a bijection"), "{err}");
        // The path's reflection does not fix a position with W at one end.
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            claim: StrategyClaim::MarginAtLeast,
            margin: Some(-1),
            moves: vec![("...".into(), "a".into())],
            generators: vec![pairs(&[("a", "c"), ("c", "a")])],
            orbits: vec![("W..".into(), vec![0])],
            ..base
        };
        let err = check_strategy(&path, 1, b"...", &s, 100).unwrap_err();
        assert!(err.contains("does not fix the position"), "{err}");
    }

    #[test]
    fn bad_strategies_are_rejected() {
        let path = graph(&["a", "b", "c"], &[("a", "b"), ("b", "c")]);
        let s = VoronoiStrategy {
            player: Player::White,
            claim: StrategyClaim::Wins,
            margin: None,
            moves: vec![("...".into(), "b".into())],
            symmetries: vec![],
            twin_classes: vec![],
            generators: Vec::new(),
            orbits: Vec::new(),
        };
        assert!(check_strategy(&path, 1, b"...", &s, 100).is_ok());
        let missing = VoronoiStrategy {
            moves: vec![],
            ..s.clone()
        };
        assert!(check_strategy(&path, 1, b"...", &missing, 100)
            .unwrap_err()
            .contains("no move"));
        let taken = VoronoiStrategy {
            moves: vec![("B..".into(), "a".into())],
            ..s.clone()
        };
        assert!(check_strategy(&path, 1, b"B..", &taken, 100)
            .unwrap_err()
            .contains("no play"));
        let limit = check_strategy(&path, 1, b"...", &s, 1).unwrap_err();
        assert!(limit.contains("limit"), "{limit}");
    }
}

//! The principal line of a multi-round Voronoi strategy certificate, for pictures: the play in
//! which W and B follow the certificate's strategies (an opponent without a strategy occupies
//! its lowest-numbered empty vertex, the same default as the marking game's frames).
//!
//! A `voronoi-path-value` certificate speaks of gaps, not vertices: its abstract moves are
//! placed on the first concrete gap of the named type and length ([`path_value_line`]).
//!
//! A strategy's table is written in its own frame: where the checker folded an opponent move
//! onto another by a twin class, a symmetry witness or an orbit of generators, the table goes
//! on from the image position. Following it therefore keeps, per strategy, a permutation from
//! the real vertices to the table's frame, updated by the same folding rules the checker applies
//! (certificates/src/voronoi/multi_round.rs, `opponent_replies`), and maps the table's answers
//! back. Drawing only: the certificate is checked before its line is drawn, and a position the
//! table does not hold is an error, never a guess.

use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::voronoi::instance::MultiRound;
use gamecert_certificates::voronoi::multi_round::{orbit_representatives, VoronoiStrategy};
use gamecert_certificates::voronoi::rules::{to_move, Player};
use gamecert_certificates::voronoi_paths::paths::{
    parse_move, path_order, Gap, GapKind, PathState, PathValue,
};
use std::collections::HashMap;

/// One strategy's tables, read once, and its current frame.
struct Follower<'a> {
    graph: &'a Graph,
    player: Player,
    moves: HashMap<&'a str, usize>,
    /// (position, opponent's move) -> the permutation that folds it, as a full vertex map.
    symmetries: HashMap<(&'a str, usize), Vec<usize>>,
    /// position -> generator indices fixing it.
    orbits: HashMap<&'a str, &'a [usize]>,
    generators: Vec<Vec<usize>>,
    /// Each vertex's twin class, and the classes' members in listed order.
    twin_class: Vec<Option<usize>>,
    classes: Vec<Vec<usize>>,
    /// Real vertex -> the vertex of the table's frame.
    frame: Vec<usize>,
}

fn vertex(graph: &Graph, name: &str) -> Result<usize, String> {
    graph.vertex(name).ok_or_else(|| format!("unknown vertex '{name}'"))
}

/// The identity with the listed `[vertex, image]` pairs applied.
fn full_permutation(graph: &Graph, pairs: &[(String, String)]) -> Result<Vec<usize>, String> {
    let mut map: Vec<usize> = (0..graph.len()).collect();
    for (v, w) in pairs {
        map[vertex(graph, v)?] = vertex(graph, w)?;
    }
    Ok(map)
}

impl<'a> Follower<'a> {
    fn new(graph: &'a Graph, strategy: &'a VoronoiStrategy) -> Result<Self, String> {
        let mut moves = HashMap::new();
        for (position, v) in &strategy.moves {
            moves.insert(position.as_str(), vertex(graph, v)?);
        }
        let mut symmetries = HashMap::new();
        for (position, m, _, pairs) in &strategy.symmetries {
            symmetries
                .insert((position.as_str(), vertex(graph, m)?), full_permutation(graph, pairs)?);
        }
        let orbits =
            strategy.orbits.iter().map(|(p, list)| (p.as_str(), list.as_slice())).collect();
        let generators = strategy
            .generators
            .iter()
            .map(|pairs| full_permutation(graph, pairs))
            .collect::<Result<_, _>>()?;
        let mut twin_class = vec![None; graph.len()];
        let mut classes = Vec::new();
        for (c, class) in strategy.twin_classes.iter().enumerate() {
            let members =
                class.iter().map(|name| vertex(graph, name)).collect::<Result<Vec<_>, _>>()?;
            members.iter().for_each(|&v| twin_class[v] = Some(c));
            classes.push(members);
        }
        Ok(Follower {
            graph,
            player: strategy.player,
            moves,
            symmetries,
            orbits,
            generators,
            twin_class,
            classes,
            frame: (0..graph.len()).collect(),
        })
    }

    /// The real position as the table's frame sees it.
    fn in_frame(&self, position: &[u8]) -> String {
        let mut seen = vec![b'.'; position.len()];
        for (v, &c) in position.iter().enumerate() {
            seen[self.frame[v]] = c;
        }
        String::from_utf8_lossy(&seen).into_owned()
    }

    /// The strategy's move at `position` (real vertices).
    fn answer(&self, position: &[u8]) -> Result<usize, String> {
        let seen = self.in_frame(position);
        let &v = self
            .moves
            .get(seen.as_str())
            .ok_or_else(|| format!("no move for position '{seen}'"))?;
        self.frame
            .iter()
            .position(|&f| f == v)
            .ok_or_else(|| "internal: frame not a bijection".into())
    }

    /// The opponent occupies `m` at `position`: fold it as the checker does, moving the frame.
    fn observe(&mut self, position: &[u8], m: usize) -> Result<(), String> {
        let seen = self.in_frame(position);
        let m = self.frame[m];
        // The checker's order: an orbit entry, else a twin that is not its class's first empty
        // member, else a symmetry witness.
        let first_twin = self.twin_class[m]
            .and_then(|c| self.classes[c].iter().copied().find(|&r| seen.as_bytes()[r] == b'.'));
        let fold: Vec<Vec<usize>> = if let Some(list) = self.orbits.get(seen.as_str()) {
            self.orbit_word(list, m)?
        } else if let Some(first) = first_twin.filter(|&f| f != m) {
            let mut swap: Vec<usize> = (0..self.graph.len()).collect();
            swap.swap(m, first);
            vec![swap]
        } else {
            self.symmetries.get(&(seen.as_str(), m)).cloned().into_iter().collect()
        };
        for permutation in fold {
            self.frame.iter_mut().for_each(|f| *f = permutation[*f]);
        }
        Ok(())
    }

    /// Generators (in order of application) that carry `m` to the smallest vertex of its orbit.
    fn orbit_word(&self, list: &[usize], m: usize) -> Result<Vec<Vec<usize>>, String> {
        let n = self.graph.len();
        let chosen: Vec<&Vec<usize>> = list
            .iter()
            .map(|&g| self.generators.get(g).ok_or_else(|| format!("no generator {g}")))
            .collect::<Result<_, _>>()?;
        let pairs: Vec<Vec<(usize, usize)>> = chosen
            .iter()
            .map(|p| p.iter().enumerate().filter(|(v, w)| v != *w).map(|(v, &w)| (v, w)).collect())
            .collect();
        let slices: Vec<&[(usize, usize)]> = pairs.iter().map(Vec::as_slice).collect();
        let target = orbit_representatives(n, &slices)[m];
        // Breadth first over the orbit; `via[x]` = (previous vertex, generator used).
        let mut via: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut queue = std::collections::VecDeque::from([m]);
        let mut reached = vec![false; n];
        reached[m] = true;
        while let Some(x) = queue.pop_front() {
            if x == target {
                break;
            }
            for (g, p) in chosen.iter().enumerate() {
                let y = p[x];
                if !reached[y] {
                    reached[y] = true;
                    via[y] = Some((x, g));
                    queue.push_back(y);
                }
            }
        }
        let mut word = Vec::new();
        let mut at = target;
        while at != m {
            let (previous, g) =
                via[at].ok_or("internal: the orbit's representative is not reached")?;
            word.push(chosen[g].clone());
            at = previous;
        }
        word.reverse();
        Ok(word)
    }
}

/// The moves of the principal line from the instance's start: (mover, vertex) in order.
pub fn principal_line(
    game: &MultiRound,
    white: Option<&VoronoiStrategy>,
    black: Option<&VoronoiStrategy>,
) -> Result<Vec<(Player, usize)>, String> {
    line_against(game, white, black, |position| position.iter().position(|&c| c == b'.'))
}

/// [`principal_line`] with `opponent` choosing the moves of a player without a strategy.
fn line_against(
    game: &MultiRound,
    white: Option<&VoronoiStrategy>,
    black: Option<&VoronoiStrategy>,
    opponent: impl Fn(&[u8]) -> Option<usize>,
) -> Result<Vec<(Player, usize)>, String> {
    let graph = &game.graph;
    let mut followers: Vec<Follower> = [white, black]
        .into_iter()
        .flatten()
        .map(|s| Follower::new(graph, s))
        .collect::<Result<_, _>>()?;
    let mut position = game.start.clone();
    let mut line = Vec::new();
    while let Some(mover) = to_move(&position, game.rounds)? {
        let v = match followers.iter().find(|f| f.player == mover) {
            Some(follower) => follower.answer(&position)?,
            None => opponent(&position).ok_or("no empty vertex left")?,
        };
        if position[v] != b'.' {
            return Err(format!("the strategy occupies '{}', which is taken", graph.name(v)));
        }
        for follower in followers.iter_mut().filter(|f| f.player != mover) {
            follower.observe(&position, v)?;
        }
        position[v] = if mover == Player::White { b'W' } else { b'B' };
        line.push((mover, v));
    }
    Ok(line)
}

/// The vertex (an index into the line) that the abstract move `gap@offset` occupies in the
/// concrete `line` (`.`, `W`, `B` in path order): the first gap of that type and length, with
/// the offset counted from the side the gap abstraction counts it from.
pub(crate) fn concrete_move(line: &[u8], gap: Gap, offset: usize) -> Option<usize> {
    let mut start = 0;
    while start < line.len() {
        if line[start] != b'.' {
            start += 1;
            continue;
        }
        let end = start + line[start..].iter().take_while(|&&c| c == b'.').count();
        let left = start.checked_sub(1).map(|i| line[i]);
        let right = line.get(end).copied();
        let kind = match (left, right) {
            (None, None) => GapKind::Free,
            (None, Some(c)) | (Some(c), None) if c == b'W' => GapKind::EndW,
            (None, Some(_)) | (Some(_), None) => GapKind::EndB,
            (Some(a), Some(b)) if a == b && a == b'W' => GapKind::WW,
            (Some(a), Some(b)) if a == b => GapKind::BB,
            _ => GapKind::WB,
        };
        if kind == gap.kind && end - start == gap.len && offset < gap.len {
            // Offsets count from the path's end (EW, EB), from the W stone (WB), or from either
            // side (F, WW, BB: the left one here).
            let from_right = match kind {
                GapKind::EndW | GapKind::EndB => right.is_none(),
                GapKind::WB => right == Some(b'W'),
                _ => false,
            };
            return Some(if from_right { end - 1 - offset } else { start + offset });
        }
        start = end;
    }
    None
}

/// The principal line of a `voronoi-path-value` certificate on the path instance `game`: both
/// players follow their abstract strategies, each abstract move placed on a gap of the
/// concrete position that has its type and length.
pub fn path_value_line(
    game: &MultiRound,
    value: &PathValue,
) -> Result<Vec<(Player, usize)>, String> {
    let order = path_order(&game.graph)?;
    let mut line: Vec<u8> = order.iter().map(|&v| game.start[v]).collect();
    let tables: [HashMap<&str, &str>; 2] = [&value.white, &value.black]
        .map(|t| t.iter().map(|(s, m)| (s.as_str(), m.as_str())).collect());
    let mut moves = Vec::new();
    while let Some(mover) = to_move(&line, game.rounds)? {
        let state = PathState::of_line(&line).to_string();
        let table = &tables[usize::from(mover == Player::Black)];
        let text =
            table.get(state.as_str()).ok_or_else(|| format!("no move for state '{state}'"))?;
        let (gap, offset) = parse_move(text)?;
        let at = concrete_move(&line, gap, offset)
            .ok_or_else(|| format!("state '{state}': the move '{text}' names no gap"))?;
        line[at] = if mover == Player::White { b'W' } else { b'B' };
        moves.push((mover, order[at]));
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::method::Method;
    use gamecert_certificates::format::{Certificate, Instance};
    use gamecert_certificates::voronoi::instance::MultiRoundSpec;
    use gamecert_certificates::voronoi::multi_round::margin;

    /// Solves `spec` by `method` and follows the certificate's principal line: when both
    /// players follow strategies that guarantee the value from either side, the line ends at
    /// exactly the value. Returns (value, moves).
    fn line_ends_at_the_value(spec: &MultiRoundSpec, method: Method) -> (i64, usize) {
        let game = spec.validate().unwrap();
        let instance = Instance::Voronoi(spec.clone());
        let solved = crate::registry::solve_game(&instance, method).unwrap();
        let (value, line) = match &solved.certificate {
            Certificate::VoronoiValue(v) => {
                (v.value, principal_line(&game, Some(&v.white), Some(&v.black)).unwrap())
            }
            Certificate::PathValue(v) => (v.value, path_value_line(&game, v).unwrap()),
            other => panic!("{}", other.kind()),
        };
        assert_eq!(final_margin(&game, &line), value, "{spec:?}");
        (value, line.len())
    }

    /// W's margin at the end of `line`, which must be a whole legal play.
    fn final_margin(game: &MultiRound, line: &[(Player, usize)]) -> i64 {
        let mut position = game.start.clone();
        for &(mover, v) in line {
            assert_eq!(position[v], b'.');
            position[v] = if mover == Player::White { b'W' } else { b'B' };
        }
        assert_eq!(to_move(&position, game.rounds).unwrap(), None, "the line reaches the end");
        margin(&game.graph, &position, Player::White)
    }

    #[test]
    fn exact_certificates_end_at_their_value_on_every_small_graph() {
        for entry in crate::voronoi::census::connected_graphs(6).unwrap() {
            for rounds in [1, 2] {
                if 2 * rounds > entry.graph.node_count() {
                    continue;
                }
                let source = serde_json::json!({"graph6": entry.text});
                let spec = crate::voronoi::gen::from_graph(&entry.graph, rounds, source).unwrap();
                line_ends_at_the_value(&spec, Method::Exact);
            }
        }
    }

    /// The k-ary strategies fold the opponent's moves by generators and orbits (and twin
    /// classes): against opponents that play the highest-numbered or a scattered empty vertex,
    /// rarely an orbit's smallest, the followed frame must undo every fold, and the line must
    /// keep the strategy's claim.
    #[test]
    fn folded_strategies_keep_their_claim_against_other_opponents() {
        use gamecert_certificates::voronoi::multi_round::StrategyClaim;
        for (k, height, rounds) in [(2, 3, 2), (3, 2, 2), (3, 3, 2), (2, 4, 3), (4, 3, 3)] {
            let spec = crate::voronoi::gen::kary_tree(k, height, rounds).unwrap();
            let game = spec.validate().unwrap();
            let instance = Instance::Voronoi(spec.clone());
            let solved = crate::registry::solve_game(&instance, Method::Kary).unwrap();
            let strategies = match &solved.certificate {
                Certificate::VoronoiStrategy(s) => vec![s],
                Certificate::VoronoiValue(v) => vec![&v.white, &v.black],
                other => panic!("{}", other.kind()),
            };
            for strategy in strategies {
                let needed = match strategy.claim {
                    StrategyClaim::Wins => 1,
                    StrategyClaim::AtLeastTies => 0,
                    StrategyClaim::MarginAtLeast => strategy.margin.unwrap(),
                };
                let (white, black) = match strategy.player {
                    Player::White => (Some(strategy), None),
                    Player::Black => (None, Some(strategy)),
                };
                let highest = |p: &[u8]| p.iter().rposition(|&c| c == b'.');
                let scattered = |p: &[u8]| {
                    let empty: Vec<usize> = (0..p.len()).filter(|&v| p[v] == b'.').collect();
                    empty.get(empty.len() * 2 / 3).copied()
                };
                for line in [
                    line_against(&game, white, black, highest).unwrap(),
                    line_against(&game, white, black, scattered).unwrap(),
                    principal_line(&game, white, black).unwrap(),
                ] {
                    let m = final_margin(&game, &line);
                    let signed = if strategy.player == Player::White { m } else { -m };
                    assert!(signed >= needed, "k={k} h={height} R={rounds}: {signed} < {needed}");
                }
            }
        }
    }

    #[test]
    fn path_certificates_end_at_their_value() {
        for (n, rounds) in [(5, 2), (9, 2), (12, 3), (17, 4)] {
            let spec = crate::voronoi::gen::path(n, rounds).unwrap();
            let (_, moves) = line_ends_at_the_value(&spec, Method::Auto);
            assert_eq!(moves, 2 * rounds);
        }
    }
}

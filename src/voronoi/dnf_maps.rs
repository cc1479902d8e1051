//! The forward certificate maps of the positive-DNF reduction (seed 001, Theorem 4): a winning
//! strategy of the DNF game becomes a strategy of the Voronoi game on the reduced graph.
//!
//! The maps are strategy programs (a move for every position), expanded into certificates by
//! playing them against every opponent move; the checker replays the certificates. The rules,
//! decided here (the paper only treats the main line):
//!
//! - **W from the first player's strategy** (claim: W wins). Take `u2`; if `u1` is still empty,
//!   take it too (W then holds 6n + 2 of the heavy weight). Otherwise, while B has answered
//!   every move on X with a move on X, play the DNF strategy: the position of the DNF game is
//!   read off X (`x_i` W's = first player's, B's = second player's). Once B has "passed" (taken
//!   a pendant, a term vertex, or anything off X), take any empty X vertex: W ends with more of
//!   X than B, and each X vertex weighs 2n + 1 while a pass gains B at most 2.
//! - **B from the second player's strategy** (claim: B at least ties). Take `u2` if empty, else
//!   `u1`; then the DNF strategy while W has moved only on X, else any empty X vertex.
//! - **W's own "at least a tie"** (for the second player's case, where the paper's argument
//!   gives a tie): as W's rule above without the DNF strategy.
//!
//! Opponent moves to pendant vertices are folded by the graph's twin classes, which the
//! certificate declares and the checker verifies.
//!
//! Size limits: an expanded certificate has at most [`expansion_bound`] positions (the
//! opponent's choices, one per twin class, over its moves), each a position string of the
//! graph's size. `solve` expands under [`position_cap`] (half the 8 GiB allowance of
//! [`crate::base::limits`], and at most the checker's limit on strategy positions) and the DNF game
//! under [`crate::voronoi::dnf::position_cap`] ([`certificate_for_within`]), and refuses the instance
//! when either is passed.

use crate::voronoi::exact::twin_classes;
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::posdnf::dnf::{DnfPlayer, DnfStrategy};
use gamecert_certificates::voronoi::multi_round::{to_move, StrategyClaim, VoronoiStrategy};
use gamecert_certificates::voronoi::rules::Player;
use gamecert_reductions::posdnf_voronoi::PosDnfVoronoi;
use std::collections::{HashMap, HashSet};

/// Which of the three maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Map {
    WhiteWins,
    BlackTies,
    WhiteTies,
}

/// The reduced graph with the vertices the rules name.
struct Layout {
    graph: Graph,
    x: Vec<usize>,
    u1: usize,
    u2: usize,
}

impl Layout {
    fn new(built: &PosDnfVoronoi) -> Result<Layout, String> {
        let graph =
            Graph::new(&built.graph.vertices, &built.graph.edges).map_err(|e| e.to_string())?;
        let find = |name: &str| graph.vertex(name).ok_or(format!("no vertex {name}"));
        let x = (1..=built.padded.num_vars)
            .map(|i| find(&format!("x{i}")))
            .collect::<Result<_, _>>()?;
        let (u1, u2) = (find("u1")?, find("u2")?);
        Ok(Layout { graph, x, u1, u2 })
    }

    fn count_x(&self, p: &[u8], c: u8) -> usize {
        self.x.iter().filter(|&&v| p[v] == c).count()
    }

    fn dnf_position(&self, p: &[u8]) -> String {
        self.x
            .iter()
            .map(|&v| match p[v] {
                b'W' => '1',
                b'B' => '2',
                _ => '.',
            })
            .collect()
    }

    fn any_x_or_vertex(&self, p: &[u8]) -> usize {
        self.x
            .iter()
            .copied()
            .find(|&v| p[v] == b'.')
            .or_else(|| (0..p.len()).find(|&v| p[v] == b'.'))
            .expect("a position with a move to make has an empty vertex")
    }
}

/// Builds the certificate of `map` on the reduced graph; `dnf` is the DNF strategy the map
/// follows (the first player's for `WhiteWins`, the second's for `BlackTies`, unused otherwise).
pub fn forward(
    built: &PosDnfVoronoi,
    map: Map,
    dnf: Option<&DnfStrategy>,
) -> Result<VoronoiStrategy, String> {
    forward_within(built, map, dnf, usize::MAX)?
        .ok_or_else(|| "internal error: an unbounded expansion stopped".to_string())
}

/// [`forward`] with at most `max_positions` positions in the expansion (`Ok(None)` past it).
pub fn forward_within(
    built: &PosDnfVoronoi,
    map: Map,
    dnf: Option<&DnfStrategy>,
    max_positions: usize,
) -> Result<Option<VoronoiStrategy>, String> {
    let layout = Layout::new(built)?;
    let expected = match map {
        Map::WhiteWins => Some(DnfPlayer::First),
        Map::BlackTies => Some(DnfPlayer::Second),
        Map::WhiteTies => None,
    };
    let table: HashMap<&str, u32> = match (expected, dnf) {
        (None, _) => HashMap::new(),
        (Some(player), Some(s)) if s.player == player => {
            let n = built.padded.num_vars as usize;
            if let Some((p, _)) = s.moves.iter().find(|(p, _)| p.len() != n) {
                return Err(format!(
                    "the DNF strategy's position '{p}' is not over the padded formula's {n} variables"
                ));
            }
            s.moves.iter().map(|(p, v)| (p.as_str(), *v)).collect()
        }
        (Some(player), _) => {
            return Err(format!("the map needs the {player} player's DNF strategy"))
        }
    };
    let (player, claim) = match map {
        Map::WhiteWins => (Player::White, StrategyClaim::Wins),
        Map::BlackTies => (Player::Black, StrategyClaim::AtLeastTies),
        Map::WhiteTies => (Player::White, StrategyClaim::AtLeastTies),
    };
    let dnf_move = |p: &[u8]| -> Option<usize> {
        let v = *table.get(layout.dnf_position(p).as_str())?;
        let vertex = *layout.x.get(v as usize - 1)?;
        (p[vertex] == b'.').then_some(vertex)
    };
    let policy = |p: &[u8]| -> usize {
        let (u1, u2) = (layout.u1, layout.u2);
        if p[u2] == b'.' {
            return u2;
        }
        if p[u1] == b'.' {
            return u1;
        }
        let (wx, bx) = (layout.count_x(p, b'W'), layout.count_x(p, b'B'));
        let main_line = p[u2] == b'W' && p[u1] == b'B';
        let balanced = match map {
            Map::WhiteWins => main_line && wx == bx,
            Map::BlackTies => main_line && wx == bx + 1,
            Map::WhiteTies => false,
        };
        if balanced {
            if let Some(v) = dnf_move(p) {
                return v;
            }
        }
        layout.any_x_or_vertex(p)
    };
    let classes = twin_classes(&layout.graph);
    Ok(expand_within(&layout.graph, built.rounds, player, claim, &policy, &classes, max_positions))
}

/// Plays `policy` for `player` against every opponent move (one per twin class) and records
/// its moves as a certificate.
pub fn expand(
    graph: &Graph,
    rounds: usize,
    player: Player,
    claim: StrategyClaim,
    policy: &dyn Fn(&[u8]) -> usize,
    classes: &[Vec<usize>],
) -> VoronoiStrategy {
    expand_within(graph, rounds, player, claim, policy, classes, usize::MAX)
        .expect("an unbounded expansion completes")
}

/// [`expand`] with at most `max_positions` positions: `None` past it.
pub fn expand_within(
    graph: &Graph,
    rounds: usize,
    player: Player,
    claim: StrategyClaim,
    policy: &dyn Fn(&[u8]) -> usize,
    classes: &[Vec<usize>],
    max_positions: usize,
) -> Option<VoronoiStrategy> {
    let n = graph.len();
    let mut class_of = vec![None; n];
    for (c, members) in classes.iter().enumerate() {
        for &v in members {
            class_of[v] = Some(c);
        }
    }
    let (mine, theirs) = match player {
        Player::White => (b'W', b'B'),
        Player::Black => (b'B', b'W'),
    };
    let mut moves = Vec::new();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut stack = vec![vec![b'.'; n]];
    while let Some(p) = stack.pop() {
        if seen.len() >= max_positions {
            return None;
        }
        if !seen.insert(p.clone()) {
            continue;
        }
        match to_move(&p, rounds) {
            Ok(Some(mover)) if mover == player => {
                let v = policy(&p);
                moves.push((String::from_utf8_lossy(&p).into_owned(), graph.name(v).to_string()));
                let mut q = p.clone();
                q[v] = mine;
                stack.push(q);
            }
            Ok(Some(_)) => {
                let mut taken_class = vec![false; classes.len()];
                for v in 0..n {
                    if p[v] != b'.' {
                        continue;
                    }
                    if let Some(c) = class_of[v] {
                        // The first empty member of the class (in listed order) stands for all.
                        if taken_class[c] {
                            continue;
                        }
                        let first = classes[c].iter().copied().find(|&r| p[r] == b'.');
                        if first != Some(v) {
                            continue;
                        }
                        taken_class[c] = true;
                    }
                    let mut q = p.clone();
                    q[v] = theirs;
                    stack.push(q);
                }
            }
            _ => {}
        }
    }
    Some(VoronoiStrategy {
        player,
        claim,
        margin: None,
        moves,
        symmetries: Vec::new(),
        twin_classes: classes
            .iter()
            .map(|c| c.iter().map(|&v| graph.name(v).to_string()).collect())
            .collect(),
        generators: Vec::new(),
        orbits: Vec::new(),
        canonical_root: None,
    })
}

/// The certificate the forward maps give for a reduced instance: W's winning strategy when the
/// first player wins the DNF game, else the value 0 (a tie) fixed by B's and W's "at least a
/// tie" strategies (the DNF game is solved on the padded formula the graph was built from).
pub fn certificate_for(
    built: &PosDnfVoronoi,
) -> Result<gamecert_certificates::format::Certificate, String> {
    certificate_for_within(built, u64::MAX, usize::MAX)?
        .ok_or_else(|| "internal error: an unbounded search stopped".to_string())
}

/// Bytes per position of an expanded certificate, besides the position string itself (which
/// is held twice, in the walk's set and in the certificate): vector and hash-table overhead
/// and the vertex name.
pub const BYTES_PER_POSITION: u64 = 128;

/// The positions `solve` allows each expanded certificate on a graph of `vertices` vertices:
/// half the memory allowance at `2 * vertices + BYTES_PER_POSITION` bytes each, and at most
/// [`MAX_EXPANDED_POSITIONS`].
pub fn position_cap(vertices: usize) -> usize {
    let per = 2 * vertices as u64 + BYTES_PER_POSITION;
    let by_memory = crate::base::limits::MEMORY_ALLOWANCE / 2 / per;
    by_memory.min(MAX_EXPANDED_POSITIONS) as usize
}

/// The most positions an expanded certificate may have: 20 million, about what the checker
/// replays within its default work budget on the graphs of this reduction.
pub const MAX_EXPANDED_POSITIONS: u64 = 20_000_000;

/// An upper bound on the positions of an expanded certificate: the player's moves are fixed,
/// the opponent's are at most one per twin class or unclassed vertex (`choices`), over
/// `rounds` opponent moves: `2 (1 + c + c^2 + ... + c^rounds)`. Saturates.
pub fn expansion_bound(choices: u128, rounds: usize) -> u128 {
    let mut total: u128 = 0;
    let mut layer: u128 = 1;
    for _ in 0..=rounds {
        total = total.saturating_add(layer.saturating_mul(2));
        layer = layer.saturating_mul(choices);
    }
    total
}

/// [`certificate_for`] with at most `dnf_positions` positions for the DNF game's solver
/// ([`crate::voronoi::dnf::solve_dnf_game_within`]) and `positions` per expanded certificate:
/// `Ok(None)` once either passes its cap.
pub fn certificate_for_within(
    built: &PosDnfVoronoi,
    dnf_positions: u64,
    positions: usize,
) -> Result<Option<gamecert_certificates::format::Certificate>, String> {
    use gamecert_certificates::format::Certificate;
    use gamecert_certificates::voronoi::multi_round::VoronoiValue;
    let Some(solution) = crate::voronoi::dnf::solve_dnf_game_within(&built.padded, dnf_positions)?
    else {
        return Ok(None);
    };
    match solution.winner {
        DnfPlayer::First => {
            Ok(forward_within(built, Map::WhiteWins, Some(&solution.strategy), positions)?
                .map(Certificate::VoronoiStrategy))
        }
        DnfPlayer::Second => {
            let as_margin = |mut s: VoronoiStrategy| {
                s.claim = StrategyClaim::MarginAtLeast;
                s.margin = Some(0);
                s
            };
            let Some(white) = forward_within(built, Map::WhiteTies, None, positions)? else {
                return Ok(None);
            };
            let Some(black) =
                forward_within(built, Map::BlackTies, Some(&solution.strategy), positions)?
            else {
                return Ok(None);
            };
            Ok(Some(Certificate::VoronoiValue(VoronoiValue {
                value: 0,
                white: as_margin(white),
                black: as_margin(black),
            })))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::check_dnf_reduction::all_dnfs;
    use crate::voronoi::dnf::solve_dnf_game;
    use gamecert_certificates::posdnf::dnf::PosDnf;
    use gamecert_certificates::voronoi::multi_round::check_strategy;
    use gamecert_reductions::posdnf_voronoi::build;

    /// The certificates for a formula: the winner's map and, for the second player, W's tie.
    fn certify(dnf: &PosDnf) -> Result<Vec<(Map, u64)>, String> {
        let built = build(dnf)?;
        let graph = Graph::new(&built.graph.vertices, &built.graph.edges).unwrap();
        let start = vec![b'.'; graph.len()];
        let solution = solve_dnf_game(&built.padded)?;
        let maps = match solution.winner {
            DnfPlayer::First => vec![Map::WhiteWins],
            DnfPlayer::Second => vec![Map::BlackTies, Map::WhiteTies],
        };
        let folded: usize = twin_classes(&graph).iter().map(|c| c.len() - 1).sum();
        let bound = expansion_bound((graph.len() - folded) as u128, built.rounds);
        let mut out = Vec::new();
        for map in maps {
            let cert = forward(&built, map, Some(&solution.strategy))?;
            // The expansion bound covers the certificate (whose positions the replay counts).
            assert!(cert.moves.len() as u128 <= bound, "{dnf:?}");
            if !cert.moves.is_empty() {
                assert_eq!(
                    forward_within(&built, map, Some(&solution.strategy), 1)?,
                    None,
                    "a cap of one position stops the expansion"
                );
            }
            let report = check_strategy(
                &graph,
                built.rounds,
                &start,
                &cert,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .map_err(|e| format!("{map:?}: {e}"))?;
            out.push((map, report.positions));
        }
        Ok(out)
    }

    #[test]
    fn forward_maps_are_accepted_on_all_small_formulas() {
        for n in 1..=4 {
            for dnf in all_dnfs(n, 3) {
                certify(&dnf).unwrap_or_else(|e| panic!("{dnf:?}: {e}"));
            }
        }
    }

    #[test]
    fn forward_maps_on_a_sample_with_five_and_six_variables() {
        // All formulas over 6 variables with up to 4 terms are too many to certify in the
        // suite; a fixed-seed sample of them is certified here (and more by
        // `gamecert check-reduction posdnf-voronoi`, which compares values instead).
        let mut rng = crate::base::rng::Rng::new(2024);
        for _ in 0..40 {
            let dnf = crate::voronoi::check_dnf_reduction::random_dnf(&mut rng);
            certify(&dnf).unwrap_or_else(|e| panic!("{dnf:?}: {e}"));
        }
    }

    /// About 2 s in release, where it runs with the suite; ignored in debug builds only, so
    /// that a release run is never told to pass --release (issue 48).
    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "the Figure 4 certificates take a while in debug builds; run with --release"
    )]
    fn figure4_forward_maps() {
        let a = PosDnf { num_vars: 8, terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]] };
        let started = std::time::Instant::now();
        let result = certify(&a).unwrap();
        eprintln!("Figure 4: {result:?} in {:?}", started.elapsed());
    }
}

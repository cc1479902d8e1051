//! Exact search for the one-round Voronoi game: which placements of B's n vertices win?
//!
//! This is the oracle `check-reduction` compares the reduction against, so it uses nothing
//! from the paper: it is a complete search over placements, pruned only by a sound bound.
//!
//! The score difference |V_B| - |V_W| is a sum over vertices of a value in {-1, 0, +1} (W's,
//! neutral, B's), and each vertex's value is the maximum, over B's vertices b, of what b alone
//! would make it. A sum of maxima is monotone and submodular in B's set, so the current
//! difference plus the r largest marginal gains bounds every completion by r more vertices.
//! The search branches on the vertex of largest gain (take it / never take it), so good
//! placements are found first and whole subtrees fall under the bound.

use gamecert_certificates::base::graph::UNREACHABLE;
use gamecert_certificates::format::OneRound;

/// What the search should collect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Every placement with difference >= 1 (B wins), up to `max_results` of them.
    AllWinning { max_results: usize },
    /// One placement of the largest difference.
    Best,
}

/// The search's result.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// Placements found (vertex indices, sorted). For [`Goal::Best`] one best placement.
    pub placements: Vec<Vec<usize>>,
    /// For [`Goal::Best`], the best difference |V_B| - |V_W|.
    pub best_difference: Option<i64>,
    /// Search nodes visited.
    pub nodes: u64,
    /// False if the node limit or `max_results` cut the search short.
    pub complete: bool,
}

struct Search<'a> {
    /// For each free vertex: (vertex index, value it would give that vertex) for every vertex
    /// whose value it raises above the baseline.
    influence: Vec<Vec<(usize, i8)>>,
    free: &'a [usize],
    value: Vec<i8>,
    status: Vec<Status>,
    chosen: Vec<usize>,
    goal: Goal,
    threshold: i64,
    result: SearchResult,
    node_limit: u64,
    aborted: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Open,
    Taken,
    Excluded,
}

/// Searches the placements of `game` for `goal`, visiting at most `node_limit` nodes.
pub fn search(game: &OneRound, goal: Goal, node_limit: u64) -> SearchResult {
    let graph = &game.graph;
    let to_white = graph.distances_from(&game.white);
    let free = game.free_vertices();
    let baseline: Vec<i8> =
        to_white.iter().map(|&d| if d == UNREACHABLE { 0 } else { -1 }).collect();
    let influence = free
        .iter()
        .map(|&b| {
            let from_b = graph.distances_from(&[b]);
            let mut list = Vec::new();
            for v in 0..graph.len() {
                let (db, dw) = (from_b[v], to_white[v]);
                let gets = if db == UNREACHABLE {
                    continue;
                } else if db < dw {
                    1
                } else if db == dw {
                    0
                } else {
                    -1
                };
                if gets > baseline[v] {
                    list.push((v, gets));
                }
            }
            list
        })
        .collect();
    let start: i64 = baseline.iter().map(|&x| x as i64).sum();
    let mut s = Search {
        influence,
        free: &free,
        value: baseline,
        status: vec![Status::Open; free.len()],
        chosen: Vec::new(),
        goal,
        threshold: match goal {
            Goal::AllWinning { .. } => 1,
            Goal::Best => i64::MIN,
        },
        result: SearchResult::default(),
        node_limit,
        aborted: false,
    };
    s.descend(start, game.black_count);
    s.result.complete = !s.aborted;
    s.result
}

impl Search<'_> {
    fn gain(&self, k: usize) -> i64 {
        self.influence[k].iter().map(|&(v, gets)| (gets - self.value[v]).max(0) as i64).sum()
    }

    fn descend(&mut self, difference: i64, remaining: usize) {
        if self.aborted {
            return;
        }
        self.result.nodes += 1;
        if self.result.nodes > self.node_limit {
            self.aborted = true;
            return;
        }
        if remaining == 0 {
            self.record(difference);
            return;
        }
        let mut gains: Vec<(i64, usize)> = (0..self.free.len())
            .filter(|&k| self.status[k] == Status::Open)
            .map(|k| (self.gain(k), k))
            .collect();
        if gains.len() < remaining {
            return;
        }
        // Largest gain first; ties by index so the search is deterministic.
        gains.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let bound: i64 = difference + gains[..remaining].iter().map(|g| g.0).sum::<i64>();
        if bound < self.threshold {
            return;
        }
        let (gain, k) = gains[0];
        // Take k.
        let saved: Vec<(usize, i8)> =
            self.influence[k].iter().map(|&(v, _)| (v, self.value[v])).collect();
        for i in 0..self.influence[k].len() {
            let (v, gets) = self.influence[k][i];
            self.value[v] = self.value[v].max(gets);
        }
        self.status[k] = Status::Taken;
        self.chosen.push(self.free[k]);
        self.descend(difference + gain, remaining - 1);
        self.chosen.pop();
        for (v, old) in saved {
            self.value[v] = old;
        }
        // Never take k.
        self.status[k] = Status::Excluded;
        self.descend(difference, remaining);
        self.status[k] = Status::Open;
    }

    fn record(&mut self, difference: i64) {
        let mut placement = self.chosen.clone();
        placement.sort_unstable();
        match self.goal {
            Goal::AllWinning { max_results } => {
                if difference >= 1 {
                    self.result.placements.push(placement);
                    if self.result.placements.len() >= max_results {
                        self.aborted = true;
                    }
                }
            }
            Goal::Best => {
                if self.result.best_difference.is_none_or(|best| difference > best) {
                    self.result.best_difference = Some(difference);
                    self.result.placements = vec![placement];
                    // Only strictly better placements are interesting from now on.
                    self.threshold = difference + 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::format::{GraphSpec, OneRoundSpec};
    use gamecert_certificates::voronoi::rules::{score, Outcome};

    fn game(n: usize, edges: &[(usize, usize)], white: &[usize], black: usize) -> OneRound {
        let graph = GraphSpec::numbered(n, edges);
        OneRoundSpec {
            white: white.iter().map(|&w| graph.vertices[w].clone()).collect(),
            graph,
            black_count: black,
            source: None,
        }
        .validate()
        .unwrap()
    }

    /// All placements by plain enumeration.
    fn enumerate(g: &OneRound) -> Vec<(Vec<usize>, i64)> {
        let free = g.free_vertices();
        let mut out = Vec::new();
        for bits in 0u32..1 << free.len() {
            if bits.count_ones() as usize != g.black_count {
                continue;
            }
            let black: Vec<usize> =
                (0..free.len()).filter(|i| bits >> i & 1 == 1).map(|i| free[i]).collect();
            let s = score(&g.graph, &g.white, &black);
            out.push((black, s.black as i64 - s.white as i64));
        }
        out
    }

    #[test]
    fn agrees_with_enumeration() {
        let mut rng = crate::base::rng::Rng::new(11);
        for _ in 0..300 {
            let n = rng.range(3, 9) as usize;
            let mut edges = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    if rng.below(3) == 0 {
                        edges.push((a, b));
                    }
                }
            }
            let white_count = rng.range(1, 2) as usize;
            let black = rng.range(1, (n - white_count) as u64) as usize;
            let white: Vec<usize> = (0..white_count).collect();
            let g = game(n, &edges, &white, black);
            let all = enumerate(&g);
            let mut winning: Vec<Vec<usize>> =
                all.iter().filter(|(_, d)| *d >= 1).map(|(p, _)| p.clone()).collect();
            winning.sort();
            let found = search(&g, Goal::AllWinning { max_results: 1 << 20 }, u64::MAX);
            let mut placements = found.placements.clone();
            placements.sort();
            assert!(found.complete);
            assert_eq!(placements, winning, "edges {edges:?} white {white:?} n {black}");
            let best = search(&g, Goal::Best, u64::MAX);
            let max = all.iter().map(|(_, d)| *d).max().unwrap();
            assert_eq!(best.best_difference, Some(max));
            let s = score(&g.graph, &g.white, &best.placements[0]);
            assert_eq!(s.black as i64 - s.white as i64, max);
            if max >= 1 {
                assert_eq!(s.outcome(), Outcome::BlackWins);
            }
        }
    }
}

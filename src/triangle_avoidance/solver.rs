//! One-colour triangle avoidance and its relatives (seed 002, Cater, Harary and Robinson):
//! the game digraph over unlabelled graphs, built level by level, and its P/N labelling.
//!
//! Two players A (first) and B add edges, one colour, to n isolated nodes. In triangle
//! avoidance whoever completes a triangle loses, so a position is a triangle-free graph, a
//! move adds an edge that closes no triangle, and a player with no such move loses (every
//! remaining edge would close a triangle). The related games of the paper's Section 4 differ
//! only in their moves ([`Rules`]):
//!
//! - triangle achievement: whoever completes a triangle wins; a position with an edge that
//!   closes a triangle is a win for the player to move, otherwise the moves are as above;
//! - odd-cycle avoidance: a move keeps the graph bipartite;
//! - connected triangle avoidance: after the first move every edge must touch an edge already
//!   played.
//!
//! Method: positions are stored up to isomorphism by their canonical code ([`crate::triangle_avoidance::canon`]),
//! one level per edge count (every move adds one edge, so the digraph is acyclic and levels
//! are its layers). Level t + 1 is the set of children of level t; each position keeps the
//! indices of its distinct children. The labelling runs from the last level back: a position
//! is P (the previous player wins) iff it has no child in P and the player to move cannot win
//! at once. Children are canonicalised in parallel (rayon). The counts of Table 2 come out of
//! the same pass: t_n is the number of positions, m_n the number with no move (the maximal
//! triangle-free graphs), w_n those among them whose size has the Winner's parity (A moves
//! last on a graph of odd size).
//!
//! Long runs can append each finished level to a checkpoint file and resume from it
//! ([`crate::triangle_avoidance::checkpoint`]).

use crate::base::oeis::Oeis;
use crate::triangle_avoidance::canon::{canonical, SmallGraph};
use crate::triangle_avoidance::checkpoint::{Checkpoint, Level};
use crate::triangle_avoidance::rules::winners_choice;
pub use crate::triangle_avoidance::rules::Rules;
use gamecert_certificates::triangle_avoidance::strategy::TriangleStrategy;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;

/// Largest n `gamecert solve` certifies (the certificate grows with the positions reached).
/// Its size is known in advance: the game digraph has t_n positions ([`PAPER_TABLE`]; t_12 =
/// 1,262,180, about 0.18 GB at the ~145 bytes per position measured at n = 13), and the
/// certificate lists at most those (166,026 positions, 34 MB at n = 12), well within the
/// 8 GiB allowance of [`crate::base::limits`]. From n = 13 `solve` writes a `triangle-stream`
/// instead, from the out-of-core solver ([`crate::triangle_avoidance::stream_certificate`]).
pub const MAX_CERTIFIED_N: usize = 12;

/// Largest n whose row `table triangle-avoidance` certifies when the out-of-core engine runs
/// it: the `triangle-stream` written from the level files and checked (n = 13: 227 MB, written
/// and checked in about 15 s; n = 14: 2 GB on the work folder's disk, a few minutes).
pub const MAX_STREAM_TABLE_N: usize = 14;

/// Largest n the solver accepts. The canonical forms handle 16, but n = 14 has 467,871,369
/// positions: about 68 GB at the ~145 bytes per position measured at n = 13.
pub const MAX_N: usize = 13;

/// The game digraph on n nodes for `rules`.
pub struct GameDigraph {
    pub n: usize,
    pub rules: Rules,
    pub levels: Vec<Level>,
}

impl GameDigraph {
    /// Builds the digraph level by level; `progress` hears (level, positions in it).
    pub fn build(n: usize, rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> GameDigraph {
        GameDigraph::build_resumable(n, rules, None, progress)
            .expect("without a checkpoint there is no I/O to fail")
    }

    /// [`GameDigraph::build`], appending each finished level to the checkpoint file at
    /// `checkpoint` and resuming from what it already holds
    /// ([`crate::triangle_avoidance::checkpoint`]). A bad checkpoint is an error with the file's name.
    pub fn build_resumable(
        n: usize,
        rules: Rules,
        checkpoint: Option<&std::path::Path>,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<GameDigraph, String> {
        assert!((1..=MAX_N).contains(&n), "n must be 1..={MAX_N}");
        let start = vec![canonical(&SmallGraph::empty(n)).code];
        let (mut file, resumed) = match checkpoint {
            Some(path) => {
                let (file, resumed) = Checkpoint::open(path, n, rules, &start)?;
                (Some(file), resumed)
            }
            None => (None, None),
        };
        let (mut levels, mut current) = match resumed {
            Some(r) => (r.levels, r.current),
            None => (Vec::new(), start),
        };
        while !current.is_empty() {
            progress(levels.len(), current.len());
            // Children of every position, canonicalised in parallel.
            let expanded: Vec<(bool, Vec<u128>)> = current
                .par_iter()
                .map(|&code| {
                    let g = SmallGraph::from_code(n, code);
                    let immediate = rules.immediate_win(&g);
                    (immediate, rules.distinct_children(&g))
                })
                .collect();
            let mut next_index: HashMap<u128, u32> = HashMap::new();
            let mut next: Vec<u128> = Vec::new();
            let mut level = Level {
                codes: current,
                offsets: vec![0],
                children: Vec::new(),
                immediate: Vec::with_capacity(expanded.len()),
            };
            for (immediate, kids) in expanded {
                level.immediate.push(immediate);
                for code in kids {
                    let id = *next_index.entry(code).or_insert_with(|| {
                        next.push(code);
                        (next.len() - 1) as u32
                    });
                    level.children.push(id);
                }
                level.offsets.push(level.children.len() as u32);
            }
            if let Some(file) = file.as_mut() {
                file.append(levels.len(), &level, &next)?;
            }
            levels.push(level);
            current = next;
        }
        Ok(GameDigraph { n, rules, levels })
    }

    /// P/N labels per level (true: the player to move wins), from the last level back.
    pub fn label(&self) -> Vec<Vec<bool>> {
        let mut labels: Vec<Vec<bool>> = vec![Vec::new(); self.levels.len()];
        for t in (0..self.levels.len()).rev() {
            let level = &self.levels[t];
            labels[t] = (0..level.codes.len())
                .map(|i| {
                    let kids =
                        &level.children[level.offsets[i] as usize..level.offsets[i + 1] as usize];
                    level.immediate[i] || kids.iter().any(|&c| !labels[t + 1][c as usize])
                })
                .collect();
        }
        labels
    }

    /// Positions stored and arcs (distinct children) over all levels.
    pub fn size(&self) -> (usize, usize) {
        self.levels.iter().fold((0, 0), |(p, a), l| (p + l.codes.len(), a + l.children.len()))
    }
}

/// The Winner's strategy for triangle avoidance as a certificate for the checker (see
/// `gamecert_certificates::triangle_avoidance::strategy`): from the start, at the Winner's positions one move
/// to a P position (the one leaving the fewest replies), at the loser's positions every legal move, each result mapped onto its
/// stored canonical form by the canonical labelling. Only the positions the strategy reaches
/// are listed.
pub fn certificate(digraph: &GameDigraph, labels: &[Vec<bool>]) -> TriangleStrategy {
    assert_eq!(digraph.rules, Rules::TriangleAvoidance, "the checker knows triangle avoidance");
    let n = digraph.n;
    let next_wins: HashMap<u128, bool> = digraph
        .levels
        .iter()
        .zip(labels)
        .flat_map(|(level, l)| level.codes.iter().copied().zip(l.iter().copied()))
        .collect();
    let winner_is_a = labels[0][0];
    let mut positions: Vec<String> = Vec::new();
    let mut index: HashMap<u128, usize> = HashMap::new();
    let mut id = |code: u128, positions: &mut Vec<String>| {
        *index.entry(code).or_insert_with(|| {
            positions.push(format!("{code:x}"));
            positions.len() - 1
        })
    };
    let mut moves = Vec::new();
    let start = canonical(&SmallGraph::empty(n)).code;
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![start];
    while let Some(code) = stack.pop() {
        if !seen.insert(code) {
            continue;
        }
        let here = id(code, &mut positions);
        let g = SmallGraph::from_code(n, code);
        let winner_to_move = g.edge_count().is_multiple_of(2) == winner_is_a;
        let mut list = Vec::new();
        if !winner_to_move {
            for (a, b) in Rules::TriangleAvoidance.moves(&g) {
                let mut h = g;
                h.add_edge(a, b);
                let c = canonical(&h);
                let perm: String = c.label[..n].iter().map(|&l| format!("{l:x}")).collect();
                list.push((a, b, id(c.code, &mut positions), perm));
                stack.push(c.code);
            }
        }
        // The Winner's choice (the same rule as the stream certificate's). A child missing
        // from the digraph (it cannot be, unless the digraph was read from a damaged file) is
        // never chosen; the checker then rejects the strategy.
        let best = if winner_to_move {
            winners_choice(&g, |h| {
                let c = canonical(h);
                (!next_wins.get(&c.code).copied().unwrap_or(true)).then(|| {
                    (c.code, c.label[..n].iter().map(|&l| format!("{l:x}")).collect::<String>())
                })
            })
        } else {
            None
        };
        if let Some(((_, child), (a, b), perm)) = best {
            list.push((a, b, id(child, &mut positions), perm));
            stack.push(child);
        }
        moves.push((here, list));
    }
    TriangleStrategy { n, winner: if winner_is_a { "A" } else { "B" }.into(), positions, moves }
}

/// One row of Tables 1 and 2.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    #[serde(rename = "vertices")]
    pub n: usize,
    pub rules: Rules,
    /// "A" (the first player) or "B".
    pub winner: String,
    /// Positions (unlabelled graphs the game can reach): t_n for triangle avoidance.
    pub positions: usize,
    /// Positions where the player to move has no move: m_n for triangle avoidance.
    pub terminal: usize,
    /// Terminal positions whose size has the Winner's parity (w_n).
    pub winners_terminal: usize,
    /// Arcs of the game digraph (distinct children over all positions); `None` where the
    /// engine did not count them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arcs: Option<usize>,
    /// For triangle avoidance with n <= [`MAX_CERTIFIED_N`]: the positions the checker replayed
    /// in the Winner's strategy certificate (which it accepted); `None` (and left out of the
    /// JSON) if not certified. [`Outcome::certification`] says which in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub certified: Option<u64>,
    /// The engine that solved this n: `in-memory`, `out-of-core` or `timely`.
    pub engine: String,
    pub seconds: f64,
}

/// A solved game digraph's counts per level, whichever engine built it (out of core,
/// distributed): the rows of the table come from these.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelCounts {
    /// The first player (A) wins.
    pub first_wins: bool,
    /// Positions per level (edge count).
    pub level_sizes: Vec<u64>,
    /// Positions with no move, per level.
    pub terminal: Vec<u64>,
    /// Arcs (distinct children) over all levels; `None` where the engine did not count them
    /// (the out-of-core forward filter of hereditary games).
    pub arcs: Option<u64>,
}

impl LevelCounts {
    /// t_n: every position.
    pub fn positions(&self) -> u64 {
        self.level_sizes.iter().sum()
    }

    /// m_n: every terminal position.
    pub fn terminal_total(&self) -> u64 {
        self.terminal.iter().sum()
    }

    /// w_n: terminal positions of the Winner's parity (A made the last move on an odd size).
    pub fn winners_terminal(&self) -> u64 {
        let winners = |(t, _): &(usize, &u64)| (t % 2 == 1) == self.first_wins;
        self.terminal.iter().enumerate().filter(winners).map(|(_, c)| c).sum()
    }

    /// The row of `table triangle-avoidance` (the solver's word, not certified) found by
    /// `engine`.
    pub fn outcome(&self, n: usize, rules: Rules, engine: &str, seconds: f64) -> Outcome {
        Outcome {
            n,
            rules,
            winner: if self.first_wins { "A" } else { "B" }.to_string(),
            positions: self.positions() as usize,
            terminal: self.terminal_total() as usize,
            winners_terminal: self.winners_terminal() as usize,
            arcs: self.arcs.map(|a| a as usize),
            certified: None,
            engine: engine.to_string(),
            seconds,
        }
    }
}

impl Outcome {
    /// Whether the row is certified, in words (the JSON's `certification`).
    pub fn certification(&self) -> String {
        match self.certified {
            Some(p) => format!(
                "certified: the checker accepted the Winner's strategy ({p} positions replayed)"
            ),
            None => format!(
                "not certified: the winner and the counts are the {} engine's word (no \
                 certificate of this n was written and checked)",
                self.engine
            ),
        }
    }
}

/// Solves the game on n nodes.
pub fn solve(n: usize, rules: Rules, progress: &mut dyn FnMut(usize, usize)) -> Outcome {
    solve_resumable(n, rules, None, progress).expect("without a checkpoint there is no I/O to fail")
}

/// [`solve`] with a checkpoint file (see [`GameDigraph::build_resumable`]).
pub fn solve_resumable(
    n: usize,
    rules: Rules,
    checkpoint: Option<&std::path::Path>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome, String> {
    let started = std::time::Instant::now();
    let digraph = GameDigraph::build_resumable(n, rules, checkpoint, progress)?;
    let labels = digraph.label();
    let a_wins = labels[0][0];
    let (positions, arcs) = digraph.size();
    let (mut terminal, mut winners_terminal) = (0, 0);
    for (t, level) in digraph.levels.iter().enumerate() {
        for i in 0..level.codes.len() {
            if level.offsets[i] == level.offsets[i + 1] && !level.immediate[i] {
                terminal += 1;
                // A made the last move on a graph of odd size.
                if (t % 2 == 1) == a_wins {
                    winners_terminal += 1;
                }
            }
        }
    }
    // The Winner, certified where the checker knows the game and the certificate stays small.
    let certified = if rules == Rules::TriangleAvoidance && n <= MAX_CERTIFIED_N {
        let strategy = certificate(&digraph, &labels);
        let report = gamecert_certificates::triangle_avoidance::strategy::check_triangle_strategy(
            &strategy,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        )
        .map_err(|why| {
            format!("internal error: the checker rejected the n = {n} strategy: {why}")
        })?;
        Some(report.positions)
    } else {
        None
    };
    Ok(Outcome {
        n,
        rules,
        winner: if a_wins { "A" } else { "B" }.into(),
        positions,
        terminal,
        winners_terminal,
        arcs: Some(arcs),
        certified,
        engine: "in-memory".into(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The paper's Table 1 (winners, n = 3..12) and Table 2 (t_n, m_n, w_n, n = 2..12).
pub const PAPER_TABLE: &[(usize, &str, usize, usize, usize)] = &[
    (2, "-", 2, 1, 1),
    (3, "B", 3, 1, 1),
    (4, "B", 7, 2, 1),
    (5, "B", 14, 3, 2),
    (6, "A", 38, 4, 3),
    (7, "B", 107, 6, 4),
    (8, "B", 410, 10, 4),
    (9, "B", 1897, 16, 9),
    (10, "A", 12172, 31, 21),
    (11, "B", 105071, 61, 32),
    (12, "A", 1262180, 147, 91),
];

/// The table's columns that are OEIS sequences for `rules`: every triangle-free graph is a
/// position of triangle avoidance and the terminal ones are the maximal triangle-free graphs;
/// every bipartite graph is a position of odd-cycle avoidance (its t_n). Connected avoidance
/// ends on the same maximal triangle-free graphs (they are connected, and a graph with an
/// isolated vertex beside an edge still has a move). Triangle achievement's columns are no
/// sequence we could check.
pub fn oeis(rules: Rules) -> &'static [Oeis] {
    const MAXIMAL: Oeis = Oeis {
        field: "terminal",
        column: "m_n",
        id: "A216783",
        name: "maximal triangle-free graphs on n nodes",
    };
    match rules {
        Rules::TriangleAvoidance => &[
            Oeis {
                field: "positions",
                column: "t_n",
                id: "A006785",
                name: "triangle-free graphs on n nodes",
            },
            MAXIMAL,
        ],
        Rules::OddCycleAvoidance => &[Oeis {
            field: "positions",
            column: "t_n",
            id: "A033995",
            name: "bipartite graphs on n nodes",
        }],
        Rules::ConnectedAvoidance => &[MAXIMAL],
        Rules::TriangleAchievement => &[],
    }
}

/// Markdown for a list of outcomes, with the paper's values beside the triangle-avoidance rows.
pub fn table(rows: &[Outcome]) -> String {
    let mut out = String::from(
        "| n | game | winner | certified (positions replayed) | positions (t_n) | terminal (m_n) | winner's terminal (w_n) | paper | engine | seconds |\n\
         |---:|---|---|---|---:|---:|---:|---|---|---:|\n",
    );
    for r in rows {
        let paper = PAPER_TABLE
            .iter()
            .find(|p| p.0 == r.n && r.rules == Rules::TriangleAvoidance)
            .map_or("-".to_string(), |p| {
                let agrees = (p.1 == "-" || p.1 == r.winner)
                    && (p.2, p.3, p.4) == (r.positions, r.terminal, r.winners_terminal);
                format!(
                    "{} {} {} {} ({})",
                    p.1,
                    p.2,
                    p.3,
                    p.4,
                    if agrees { "agrees" } else { "DIFFERS" }
                )
            });
        let certified =
            r.certified.map_or("no: the solver's word".to_string(), |p| format!("yes ({p})"));
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} |\n",
            r.n,
            r.rules.name(),
            r.winner,
            certified,
            r.positions,
            r.terminal,
            r.winners_terminal,
            paper,
            r.engine,
            r.seconds
        ));
    }
    out
}

/// The registry's solve method for a `triangle-avoidance` instance ([`crate::registry`]): the
/// game digraph and the Winner's strategy as a `triangle-strategy` (n <= [`MAX_CERTIFIED_N`];
/// beyond, `gamecert solve -o FILE` writes a stream from the out-of-core engine).
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    _: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    use gamecert_certificates::format::{Certificate, Instance};
    let Instance::TriangleAvoidance(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "triangle avoidance"));
    };
    if spec.n > MAX_CERTIFIED_N {
        return Err(crate::base::io::BadInput(format!(
            "triangle avoidance on n = {} nodes: the JSON certificate stops at n = \
             {MAX_CERTIFIED_N} (it lists every position the strategy reaches at once); \
             `gamecert solve` writes a triangle-stream certificate for it (give -o FILE)",
            spec.n
        ))
        .into());
    }
    let digraph = GameDigraph::build(spec.n, Rules::TriangleAvoidance, &mut |_, _| {});
    let labels = digraph.label();
    let strategy = certificate(&digraph, &labels);
    let (positions, _) = digraph.size();
    Ok(Some(crate::base::solved::SolvedGame::new(
        Certificate::TriangleStrategy(strategy),
        positions as u64,
        "the triangle-avoidance game digraph over unlabelled graphs",
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangle_avoidance::rules::same_side_of_component;

    /// Tables 1 and 2 of the paper for n <= 10 (n = 11 and 12: `tests/triangle.rs`, the
    /// latter behind --ignored).
    #[test]
    fn reproduces_tables_1_and_2_up_to_10() {
        for &(n, winner, t, m, w) in PAPER_TABLE.iter().filter(|p| p.0 <= 10) {
            let r = solve(n, Rules::TriangleAvoidance, &mut |_, _| {});
            if winner != "-" {
                assert_eq!(r.winner, winner, "n = {n}");
            }
            assert_eq!((r.positions, r.terminal, r.winners_terminal), (t, m, w), "n = {n}");
        }
    }

    /// The columns [`oeis`] names are those sequences: the terms are OEIS's (n = 2..=9),
    /// compared with our values. (The paper's table agrees with A006785 and A216783 to n = 12;
    /// docs/families/triangle-avoidance.md's rows to n = 14.)
    #[test]
    fn oeis_columns_are_the_named_sequences() {
        let terms = [
            (Rules::TriangleAvoidance, "A006785", [2, 3, 7, 14, 38, 107, 410, 1897]),
            (Rules::TriangleAvoidance, "A216783", [1, 1, 2, 3, 4, 6, 10, 16]),
            (Rules::OddCycleAvoidance, "A033995", [2, 3, 7, 13, 35, 88, 303, 1119]),
            (Rules::ConnectedAvoidance, "A216783", [1, 1, 2, 3, 4, 6, 10, 16]),
        ];
        for (rules, id, terms) in terms {
            let column = oeis(rules).iter().find(|r| r.id == id).expect("named");
            for (n, term) in (2..=9).zip(terms) {
                let r = solve(n, rules, &mut |_, _| {});
                let ours = match column.field {
                    "positions" => r.positions,
                    "terminal" => r.terminal,
                    other => panic!("no column {other}"),
                };
                assert_eq!(ours, term, "{id}, n = {n}");
            }
        }
        assert!(oeis(Rules::TriangleAchievement).is_empty());
    }

    /// Section 4: achievement (A iff n = 2, 3 mod 4), odd-cycle avoidance (A iff n = 2 mod 4,
    /// Theorem 1), connected avoidance (A iff n even, Seress), n = 2..10.
    #[test]
    fn related_games_have_the_stated_winners() {
        for n in 2..=10usize {
            let winner = |rules| solve(n, rules, &mut |_, _| {}).winner;
            let a = |yes: bool| if yes { "A" } else { "B" };
            assert_eq!(
                winner(Rules::TriangleAchievement),
                a(n % 4 == 2 || n % 4 == 3),
                "achievement, n = {n}"
            );
            assert_eq!(winner(Rules::OddCycleAvoidance), a(n % 4 == 2), "odd cycles, n = {n}");
            assert_eq!(winner(Rules::ConnectedAvoidance), a(n % 2 == 0), "connected, n = {n}");
        }
    }

    /// The Winner's strategy certificate for n = 2..=9 is accepted by the checker (n = 10 and
    /// 11: `tests/triangle.rs`).
    #[test]
    fn strategy_certificates_check() {
        use gamecert_certificates::triangle_avoidance::strategy::check_triangle_strategy;
        for n in 2..=9 {
            let digraph = GameDigraph::build(n, Rules::TriangleAvoidance, &mut |_, _| {});
            let labels = digraph.label();
            let cert = certificate(&digraph, &labels);
            check_triangle_strategy(
                &cert,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        }
    }

    #[test]
    fn bipartite_test_finds_odd_cycles() {
        let path = SmallGraph::from_edges(4, &[(0, 1), (1, 2), (2, 3)]);
        assert!(same_side_of_component(&path, 0, 2)); // would close a triangle
        assert!(!same_side_of_component(&path, 0, 3)); // a 4-cycle is fine
        let two = SmallGraph::from_edges(4, &[(0, 1)]);
        assert!(!same_side_of_component(&two, 0, 2)); // another component
    }
}

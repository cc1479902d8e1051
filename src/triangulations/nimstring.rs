//! Nimstring on triangulations (seed 000, Section 2.3.4 and Section 5.4): an exact solver over
//! sets of coloured edges, for the paper's Tables 4 and 5 (fans) and Theorems 4 and 5.
//!
//! Rules: players colour black edges green in turn; a player who completes one or more
//! triangles (all three edges green) must move again. Normal play: a player who cannot move
//! loses, so whoever colours the last edge (which always completes a triangle) loses. Misère
//! play: a player who cannot move wins.
//!
//! A *compound move* is what one player does in one turn: zero or more edges that each
//! complete a triangle, then one edge that completes none. Colouring edges until none is left
//! ends the turn with the same player to move and no move, so in normal play such a chain is a
//! loss for the mover and is not an option; in misère play it is a win for the mover (there is
//! no move left and the player to move wins). Outcomes and Grundy values (normal play) are
//! computed over compound moves with memoisation on the set of green edges (a `u64`, at most
//! 64 edges).
//!
//! Reading of the paper's tables (decided here): Table 4's column "Number" matches the Grundy
//! value of the fan (it equals the count of winning moves only by accident), and Table 5's
//! "Nimber" is reported the same way; we print the Grundy value, the number of winning first
//! edges and the winning first edges by name.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::geometry::Triangulation;
use serde::Serialize;
use std::collections::HashMap;

/// Edges as bit indices; each triangle as a mask of its three edges.
pub struct Board {
    pub edges: Vec<[usize; 2]>,
    pub triangles: Vec<u64>,
    full: u64,
}

impl Board {
    pub fn new(t: &Triangulation) -> Result<Board, String> {
        if t.edges.len() > 64 {
            return Err(format!("{} edges: the solver handles at most 64", t.edges.len()));
        }
        let index = |a: usize, b: usize| {
            let e = [a.min(b), a.max(b)];
            t.edges.iter().position(|&f| f == e).expect("triangle edges are edges")
        };
        let triangles = t
            .triangles
            .iter()
            .map(|tr| {
                (1u64 << index(tr[0], tr[1]))
                    | (1 << index(tr[1], tr[2]))
                    | (1 << index(tr[2], tr[0]))
            })
            .collect();
        let full = if t.edges.len() == 64 { u64::MAX } else { (1u64 << t.edges.len()) - 1 };
        Ok(Board { edges: t.edges.clone(), triangles, full })
    }

    /// Two boards side by side (a sum of games), at most 64 edges in all.
    pub fn union(a: &Board, b: &Board) -> Board {
        let shift = a.edges.len();
        assert!(shift + b.edges.len() <= 64, "at most 64 edges");
        let points = a.edges.iter().flatten().max().map_or(0, |&p| p + 1);
        let mut edges = a.edges.clone();
        edges.extend(b.edges.iter().map(|e| [e[0] + points, e[1] + points]));
        let mut triangles = a.triangles.clone();
        triangles.extend(b.triangles.iter().map(|t| t << shift));
        let full = if edges.len() == 64 { u64::MAX } else { (1u64 << edges.len()) - 1 };
        Board { edges, triangles, full }
    }

    /// Whether colouring edge e in `green` completes a triangle.
    fn completes(&self, green: u64, e: usize) -> bool {
        let after = green | 1 << e;
        self.triangles.iter().any(|&t| t >> e & 1 == 1 && after & t == t)
    }

    /// The positions reachable by one compound move, and whether some chain colours every edge.
    fn compound_moves(&self, green: u64) -> (Vec<u64>, bool) {
        let mut results = Vec::new();
        let mut exhausts = false;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![green];
        while let Some(s) = stack.pop() {
            if !seen.insert(s) {
                continue;
            }
            if s == self.full {
                exhausts = true;
                continue;
            }
            for e in 0..self.edges.len() {
                if s >> e & 1 == 1 {
                    continue;
                }
                if self.completes(s, e) {
                    stack.push(s | 1 << e);
                } else {
                    results.push(s | 1 << e);
                }
            }
        }
        results.sort_unstable();
        results.dedup();
        (results, exhausts)
    }
}

/// Normal or misère play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    Normal,
    Misere,
}

/// Memoised outcomes and Grundy values.
pub struct Solver<'b> {
    board: &'b Board,
    play: Play,
    wins: HashMap<u64, bool>,
    grundy: HashMap<u64, u32>,
}

impl<'b> Solver<'b> {
    pub fn new(board: &'b Board, play: Play) -> Self {
        Solver { board, play, wins: HashMap::new(), grundy: HashMap::new() }
    }

    /// Whether the player to move at `green` wins.
    pub fn wins(&mut self, green: u64) -> bool {
        if let Some(&w) = self.wins.get(&green) {
            return w;
        }
        let (options, exhausts) = self.board.compound_moves(green);
        let mut w = self.play == Play::Misere && (options.is_empty() || exhausts);
        if !w {
            w = options.iter().any(|&t| !self.wins(t));
        }
        self.wins.insert(green, w);
        w
    }

    /// The Grundy value over compound moves (normal play).
    pub fn grundy(&mut self, green: u64) -> u32 {
        if let Some(&g) = self.grundy.get(&green) {
            return g;
        }
        let (options, _) = self.board.compound_moves(green);
        let values: std::collections::BTreeSet<u32> =
            options.iter().map(|&t| self.grundy(t)).collect();
        let g = (0..).find(|v| !values.contains(v)).expect("mex exists");
        self.grundy.insert(green, g);
        g
    }

    /// The first edges of winning compound moves from the empty board.
    pub fn winning_first_edges(&mut self) -> Vec<usize> {
        (0..self.board.edges.len())
            .filter(|&e| {
                // From the empty board no edge completes a triangle: one edge is a whole move.
                !self.wins(1 << e)
            })
            .collect()
    }
}

/// One row of Tables 4 and 5.
#[derive(Clone, Debug)]
pub struct FanRow {
    pub triangles: usize,
    /// "1st" or "2nd".
    pub outcome: &'static str,
    /// Grundy value (normal play only).
    pub grundy: Option<u32>,
    pub winning: Vec<String>,
}

/// Names a fan edge: spokes (at the centre, point 0) counted 1..=t+1 along the fan, rim edges
/// 1..=t.
pub fn fan_edge_name(e: [usize; 2]) -> String {
    if e[0] == 0 {
        format!("spoke {}", e[1])
    } else {
        format!("rim {}", e[0])
    }
}

/// Solves Nimstring on the fan with `triangles` triangles.
pub fn fan_row(triangles: usize, play: Play) -> FanRow {
    let spec = crate::triangulations::generate::generate(
        crate::triangulations::generate::Kind::Fan,
        triangles + 2,
        0,
        1,
    )
    .expect("a fan of at least one triangle");
    let t = spec.validate(&mut Budget::new(u64::MAX)).expect("generated triangulations validate");
    let board = Board::new(&t).expect("a small fan");
    let mut solver = Solver::new(&board, play);
    let first = solver.wins(0);
    let winning =
        solver.winning_first_edges().into_iter().map(|e| fan_edge_name(board.edges[e])).collect();
    FanRow {
        triangles,
        outcome: if first { "1st" } else { "2nd" },
        grundy: (play == Play::Normal).then(|| solver.grundy(0)),
        winning,
    }
}

/// The outcome of Nimstring on the fan with `triangles` triangles as a `marking-strategy`
/// certificate (solved with the checker's own rules) that the checker replays: whether the
/// first player wins, and the positions replayed.
pub fn certified_fan_outcome(triangles: usize, play: Play) -> Result<(bool, u64), String> {
    use gamecert_certificates::triangulations::marking::{
        check_marking_strategy, MarkingGame, MarkingSpec,
    };
    let spec = MarkingSpec {
        game: match play {
            Play::Normal => MarkingGame::Nimstring,
            Play::Misere => MarkingGame::NimstringMisere,
        },
        triangulation: crate::triangulations::generate::generate(
            crate::triangulations::generate::Kind::Fan,
            triangles + 2,
            0,
            1,
        )?,
    };
    let certificate = crate::triangulations::marking::solve_instance(&spec)?;
    let report = check_marking_strategy(&spec, &certificate, &mut Budget::unlimited())?;
    Ok((certificate.winner == "first", report.positions))
}

/// One row of the fan tables: the solver's row and the certified outcome's replay.
#[derive(Clone, Debug, Serialize)]
pub struct FanTableRow {
    /// "normal" or "misere".
    pub play: &'static str,
    pub triangles: usize,
    /// "first" or "second": who wins, certified.
    pub winner: &'static str,
    /// Positions the checker replayed for the outcome (rows the exact solver reaches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub positions_checked: Option<u64>,
    /// Grundy value (normal play only; the solver's word).
    pub grundy: Option<u32>,
    /// Winning first edges (the solver's word).
    pub winning: Vec<String>,
    /// The Nimstring value, certified by a `nimstring-strips` certificate (normal play, with
    /// `--max-triangles` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nimstring_value: Option<u64>,
    /// The strip labels that certificate lists and the checker verified.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strips_checked: Option<u64>,
}

/// Seed 000's Tables 4 and 5: Nimstring on fans with 1..=`normal` (normal play) and
/// 1..=`misere` (misere play) triangles. Each outcome is certified and replayed by the checker;
/// a disagreement with the solver is an error.
pub fn fan_table_rows(
    normal: usize,
    misere: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<FanTableRow>, String> {
    let mut rows = Vec::new();
    for (play, last, name) in [(Play::Normal, normal, "normal"), (Play::Misere, misere, "misere")] {
        for t in 1..=last {
            progress(&format!("{name} play, {t} triangles"));
            let row = fan_row(t, play);
            let (first, positions) = certified_fan_outcome(t, play)?;
            if first != (row.outcome == "1st") {
                return Err(format!(
                    "{t} triangles: the certified outcome differs from the solver's {}",
                    row.outcome
                ));
            }
            rows.push(FanTableRow {
                play: name,
                triangles: t,
                winner: if first { "first" } else { "second" },
                positions_checked: Some(positions),
                grundy: row.grundy,
                winning: row.winning,
                nimstring_value: None,
                strips_checked: None,
            });
        }
    }
    Ok(rows)
}

/// The largest fan in misère play `--max-triangles` reaches (23 edges, seconds; `gamecert solve`
/// takes the fan of 12, 25 edges, in about 10 s, and refuses larger boards).
pub const MISERE_EXACT_MAX: usize = 11;

/// The fan tables as Markdown. Normal play: the outcome, the Nimstring value (Berlekamp's, which
/// adds up over sums of boards; certified by strips), the positions the checker replayed for the
/// outcome, the Grundy value of the game played a whole turn at a time (the paper's Table 4
/// "Number"; the solver's word) and the winning first edges. "extended" in the titles when the
/// rows pass the paper's 9 (normal) and 10 (misère) triangles.
pub fn fan_tables_text(rows: &[FanTableRow]) -> String {
    let dash = |x: Option<String>| x.unwrap_or_else(|| "-".into());
    let edges = |w: &[String]| if w.is_empty() { "none".to_string() } else { w.join(", ") };
    let outcome = |r: &FanTableRow| if r.winner == "first" { "1st" } else { "2nd" };
    let past = |play: &str, paper: usize| {
        let extended = rows.iter().any(|r| r.play == play && r.triangles > paper);
        if extended {
            ", extended"
        } else {
            ""
        }
    };
    let mut out = format!(
        "Nimstring on fans, normal play (seed 000, Table 4{})\n\n| triangles | outcome | \
         Nimstring value (certified: strips checked) | certified (positions replayed) | Grundy \
         value of whole turns (solver only) | winning first edges (solver only) |\n\
         |---:|---|---:|---:|---:|---|\n",
        past("normal", 9)
    );
    for row in rows.iter().filter(|r| r.play == "normal") {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            row.triangles,
            outcome(row),
            dash(row.nimstring_value.zip(row.strips_checked).map(|(v, s)| format!("{v} ({s})"))),
            dash(row.positions_checked.map(|p| p.to_string())),
            dash(row.grundy.map(|g| g.to_string())),
            edges(&row.winning)
        ));
    }
    out.push_str(
        "\nThe Nimstring value is Berlekamp's: the value of the fan in a sum of boards, where a \
         player who completes a triangle moves again anywhere. The Grundy value of whole turns \
         treats a turn (the triangles completed, then one move that completes none) as one move \
         on this fan alone; it is the paper's \"Number\" and differs from the Nimstring value \
         at 7 and 8 triangles. Both are 0 exactly when the second player wins.\n",
    );
    out.push_str(&format!(
        "\nNimstring on fans, misère play (seed 000, Table 5{})\n\n| triangles | outcome \
         | certified (positions replayed) | winning first edges (solver only) |\n|---:|---|---:|---|\n",
        past("misere", 10)
    ));
    for row in rows.iter().filter(|r| r.play == "misere") {
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            row.triangles,
            outcome(row),
            dash(row.positions_checked.map(|p| p.to_string())),
            edges(&row.winning)
        ));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 4 (normal play): outcomes and the "Number" column for fans of 1..9 triangles.
    #[test]
    fn table_4_outcomes_and_numbers() {
        let paper = [
            ("2nd", 0),
            ("1st", 1),
            ("2nd", 0),
            ("1st", 1),
            ("2nd", 0),
            ("1st", 1),
            ("1st", 3),
            ("1st", 2),
            ("1st", 1),
        ];
        for (k, &(outcome, number)) in paper.iter().enumerate() {
            let row = fan_row(k + 1, Play::Normal);
            assert_eq!(row.outcome, outcome, "{} triangles", k + 1);
            assert_eq!(row.grundy, Some(number), "{} triangles: {row:?}", k + 1);
        }
        // "Middle 3 spokes" for 6 triangles: spokes 3, 4, 5 (of the inner spokes 2..6).
        let six = fan_row(6, Play::Normal);
        assert_eq!(six.winning, vec!["spoke 3", "spoke 4", "spoke 5"]);
        // "Middle spoke" for 8 triangles.
        assert_eq!(fan_row(8, Play::Normal).winning, vec!["spoke 5"]);
        // "2nd rim or symmetric" for 7 triangles.
        assert_eq!(fan_row(7, Play::Normal).winning, vec!["rim 2", "rim 6"]);
        // The paper says "4th spoke or symmetric" for 9 triangles; the winning first edges are
        // the 4th and 6th RIM edges (no spoke wins), with the same Grundy value 1.
        assert_eq!(fan_row(9, Play::Normal).winning, vec!["rim 4", "rim 6"]);
    }

    /// The certified outcomes agree with the solver's on fans of 1..7 triangles, both plays.
    #[test]
    fn certified_outcomes_agree() {
        for t in 1..=7 {
            for play in [Play::Normal, Play::Misere] {
                let (first, positions) = certified_fan_outcome(t, play).unwrap();
                assert!(positions > 0);
                assert_eq!(first, fan_row(t, play).outcome == "1st", "{t} triangles, {play:?}");
            }
        }
    }

    /// Table 5 (misère play): first player wins iff the number of triangles is odd, 1..10.
    #[test]
    fn table_5_misere_parity() {
        for t in 1..=10 {
            let row = fan_row(t, Play::Misere);
            assert_eq!(row.outcome, if t % 2 == 1 { "1st" } else { "2nd" }, "{t} triangles");
        }
    }

    /// Outcome by the plain edge-by-edge definition (a completing edge keeps the turn), an
    /// independent check of the compound-move solver.
    fn plain_wins(b: &Board, s: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&x) = memo.get(&s) {
            return x;
        }
        let r = (0..b.edges.len()).filter(|&e| s >> e & 1 == 0).any(|e| {
            let t = s | 1 << e;
            if b.completes(s, e) {
                plain_wins(b, t, memo)
            } else {
                !plain_wins(b, t, memo)
            }
        });
        memo.insert(s, r);
        r
    }

    fn wheel(n: usize) -> Board {
        let spec = crate::triangulations::generate::generate(
            crate::triangulations::generate::Kind::Wheel,
            n,
            0,
            1,
        )
        .unwrap();
        Board::new(&spec.validate(&mut Budget::new(u64::MAX)).unwrap()).unwrap()
    }

    /// The parity count (docs/papers.md, seed 000): a play of a fan of t triangles has exactly
    /// t + 2 + d turns, d its cuts that complete two triangles at once, so normal and misère
    /// play are one game with opposite goals for the parity of d. Random plays, t = 1..=12.
    #[test]
    fn turns_are_t_plus_2_plus_double_completions() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for t in 1..=12 {
            let board = fan_board(t);
            for _ in 0..200 {
                let (mut green, mut turns, mut doubles) = (0u64, 1u64, 0u64);
                while green != board.full {
                    let black: Vec<usize> =
                        (0..board.edges.len()).filter(|&e| green >> e & 1 == 0).collect();
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let e = black[(seed >> 33) as usize % black.len()];
                    let after = green | 1 << e;
                    let done = |g: u64| board.triangles.iter().filter(|&&m| g & m == m).count();
                    match done(after) - done(green) {
                        0 => turns += 1, // the turn ends; the last turn ends with no move
                        1 => {}
                        _ => doubles += 1,
                    }
                    green = after;
                }
                assert_eq!(turns, t as u64 + 2 + doubles, "t = {t}");
            }
        }
    }

    fn fan_board(t: usize) -> Board {
        let spec = crate::triangulations::generate::generate(
            crate::triangulations::generate::Kind::Fan,
            t + 2,
            0,
            1,
        )
        .unwrap();
        Board::new(&spec.validate(&mut Budget::new(u64::MAX)).unwrap()).unwrap()
    }

    /// Theorem 4: fans with an even number of vertices are first-player wins (n = 4..10).
    #[test]
    fn theorem_4_fans() {
        for n in [4usize, 6, 8, 10] {
            assert_eq!(fan_row(n - 2, Play::Normal).outcome, "1st", "fan with {n} vertices");
        }
    }

    /// Theorem 5 says wheels with an odd number of vertices are second-player wins. The exact
    /// solver (and the plain definition, independently) finds FIRST-player wins for the wheels
    /// with 5 and 7 vertices (every rim edge wins), and second-player wins for 9 (and 11, in
    /// `gamecert`'s notes). The theorem fails for small wheels; the data, n = 4..9:
    #[test]
    fn theorem_5_wheels_against_the_data() {
        let expected = [(4usize, false), (5, true), (6, false), (7, true), (8, true), (9, false)];
        for (n, first_wins) in expected {
            let board = wheel(n);
            let compound = Solver::new(&board, Play::Normal).wins(0);
            assert_eq!(compound, plain_wins(&board, 0, &mut HashMap::new()), "n = {n}");
            assert_eq!(compound, first_wins, "wheel with {n} vertices");
        }
        // The winning first moves on the 5-wheel: exactly its 4 rim edges.
        let board = wheel(5);
        let winning = Solver::new(&board, Play::Normal).winning_first_edges();
        assert!(winning.iter().all(|&e| board.edges[e][1] != 4) && winning.len() == 4);
    }
}

//! Schaefer's game G_pos(POS DNF) (seed 001, Section 5): the reference rules and the replay of
//! a strategy certificate against every opponent move.
//!
//! A positive DNF formula over variables 1..=n is a list of terms (each a non-empty set of
//! variables). Two players alternately choose an unchosen variable, the first player first,
//! until all are chosen; the first player wins iff some term has all its variables chosen by
//! the first player.
//!
//! The outcome is settled early, and the replay stops there: once some term is entirely the
//! first player's, nothing can undo it (the first player wins); once every term holds a
//! variable of the second player, no term can be completed (the second player wins). A
//! certificate therefore needs no moves after that point.
//!
//! # Strategy certificates
//!
//! A position is written as a string of n characters, one per variable: `.` unchosen, `1`
//! chosen by the first player, `2` by the second. It is the first player's turn iff an even
//! number of variables is chosen. The certificate gives, for every position where its player is
//! to move that can arise when that player follows it, the variable to choose:
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "dnf-strategy",
//!  "player": "first", "claim": "wins", "moves": [["....", 2], ["12.2", 3]]}
//! ```
//!
//! The checker plays the strategy against every reply of the opponent, checks each move is
//! legal, and checks that every play ends settled in the player's favour. Each position is
//! checked once (transpositions share their verdict). The walk is depth first over one
//! position updated move by move, with an explicit stack (no certificate can drive the
//! recursion depth), a visited set of fingerprints ([`crate::base::fingerprint`]), and per-term
//! counts of each player's variables, so a move costs the occurrences of its variable and
//! settling is decided in O(1). Everything is charged to the check's budget first: a declared
//! variable count of 4 * 10^9 costs its position's bytes before anything is allocated.

use crate::base::budget::Budget;
use crate::base::fingerprint::{Fold, Zobrist};
use crate::replay::{replay, Node, Rules};
use crate::verdict::{Claim, Verdict, Work};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Instance kind `posdnf-game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PosDnf {
    /// Variables are 1..=num_vars; some may occur in no term (they are still moves).
    pub num_vars: u32,
    /// Each term is a non-empty set of variables.
    pub terms: Vec<Vec<u32>>,
}

/// The two players of the DNF game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DnfPlayer {
    First,
    Second,
}

/// Certificate kind `dnf-strategy`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DnfStrategy {
    pub player: DnfPlayer,
    /// Only `wins` (the DNF game has no draws).
    pub claim: String,
    /// (position, variable to choose).
    pub moves: Vec<(String, u32)>,
}

/// Who has won a position, if anyone yet.
pub fn settled(dnf: &PosDnf, position: &[u8]) -> Option<DnfPlayer> {
    let owner = |v: u32| position[v as usize - 1];
    if dnf.terms.iter().any(|t| t.iter().all(|&v| owner(v) == b'1')) {
        return Some(DnfPlayer::First);
    }
    if dnf.terms.iter().all(|t| t.iter().any(|&v| owner(v) == b'2')) {
        return Some(DnfPlayer::Second);
    }
    None
}

impl PosDnf {
    /// Why the formula is not a positive DNF over its variables, if it is not (linear in the
    /// formula's size up to a sort of each term).
    pub fn violation(&self) -> Option<String> {
        let mut sorted: Vec<u32> = Vec::new();
        for (k, term) in self.terms.iter().enumerate() {
            if term.is_empty() {
                return Some(format!("term {} is empty", k + 1));
            }
            if let Some(&v) = term.iter().find(|&&v| v == 0 || v > self.num_vars) {
                return Some(format!("term {}: variable {v} is out of range", k + 1));
            }
            sorted.clear();
            sorted.extend_from_slice(term);
            sorted.sort_unstable();
            if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
                return Some(format!("term {}: variable {} appears twice", k + 1, w[0]));
            }
        }
        None
    }
}

/// What a replay established or why it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnfReplay {
    /// Positions checked (each once).
    pub positions: u64,
    /// Settled positions reached.
    pub leaves: u64,
}

/// The state of the replay: one position updated move by move, with per-term counts.
struct Walk<'d> {
    zobrist: Zobrist,
    sizes: Vec<usize>,
    /// The strategy: a variable (1-based) by position fingerprint, and whose it is.
    moves: HashMap<u128, u32, Fold>,
    player: DnfPlayer,
    /// For each variable (index v - 1), the terms it occurs in.
    occurs: &'d [Vec<usize>],
    position: Vec<u8>,
    chosen: usize,
    fingerprint: u128,
    /// Per term: its variables chosen by the first player, by the second.
    firsts: Vec<usize>,
    seconds: Vec<usize>,
    /// Terms entirely the first player's; terms holding a variable of the second player.
    complete: usize,
    blocked: usize,
}

impl Walk<'_> {
    fn choose(&mut self, v: usize, first: bool) {
        let (zobrist, sizes) = (&self.zobrist, &self.sizes);
        self.position[v] = if first { b'1' } else { b'2' };
        self.chosen += 1;
        self.fingerprint ^= zobrist.key(v, usize::from(!first));
        for &t in &self.occurs[v] {
            if first {
                self.firsts[t] += 1;
                if self.firsts[t] == sizes[t] {
                    self.complete += 1;
                }
            } else {
                self.seconds[t] += 1;
                if self.seconds[t] == 1 {
                    self.blocked += 1;
                }
            }
        }
    }

    fn unchoose(&mut self, v: usize) {
        let (zobrist, sizes) = (&self.zobrist, &self.sizes);
        let first = self.position[v] == b'1';
        self.position[v] = b'.';
        self.chosen -= 1;
        self.fingerprint ^= zobrist.key(v, usize::from(!first));
        for &t in &self.occurs[v] {
            if first {
                if self.firsts[t] == sizes[t] {
                    self.complete -= 1;
                }
                self.firsts[t] -= 1;
            } else {
                if self.seconds[t] == 1 {
                    self.blocked -= 1;
                }
                self.seconds[t] -= 1;
            }
        }
    }

    /// Who has won, if anyone yet (see [`settled`]).
    fn settled(&self, terms: usize) -> Option<DnfPlayer> {
        if self.complete > 0 {
            Some(DnfPlayer::First)
        } else if self.blocked == terms {
            Some(DnfPlayer::Second)
        } else {
            None
        }
    }
}

/// Replays `strategy` against every opponent move, charging `budget` for every position, move
/// list and table entry before it is built.
pub fn check_strategy(
    dnf: &PosDnf,
    strategy: &DnfStrategy,
    budget: &mut Budget,
) -> Result<DnfReplay, String> {
    if let Some(why) = dnf.violation() {
        fail!("the instance is not a positive DNF: {why}");
    }
    if strategy.claim != "wins" {
        return Err("a dnf-strategy can only claim 'wins'".into());
    }
    let n = usize::try_from(dnf.num_vars).map_err(|_| "too many variables".to_string())?;
    let literals: u64 = dnf.terms.iter().map(|t| t.len() as u64).sum();
    // The position, the keys, the occurrence lists and the per-term counters.
    budget.charge(
        Zobrist::cost(n)
            .saturating_add(n as u64 * 32)
            .saturating_add(literals.saturating_mul(8))
            .saturating_add(dnf.terms.len() as u64 * 24),
        "preparing the replay",
    )?;
    let zobrist = Zobrist::new(n);
    let mut occurs: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (t, term) in dnf.terms.iter().enumerate() {
        for &v in term {
            occurs[v as usize - 1].push(t);
        }
    }
    let sizes: Vec<usize> = dnf.terms.iter().map(Vec::len).collect();
    budget.charge_each(strategy.moves.len() as u64, 64 + n as u64, "reading the strategy")?;
    let mut moves: HashMap<u128, u32, Fold> =
        HashMap::with_capacity_and_hasher(strategy.moves.len(), Fold::default());
    for (k, (position, var)) in strategy.moves.iter().enumerate() {
        if position.len() != n || !position.bytes().all(|c| matches!(c, b'.' | b'1' | b'2')) {
            let shown: String = position.chars().take(80).collect();
            fail!("moves[{k}]: '{shown}' is not a position of {n} characters '.', '1', '2'");
        }
        let fp = position.bytes().enumerate().fold(0u128, |fp, (v, c)| match c {
            b'1' => fp ^ zobrist.key(v, 0),
            b'2' => fp ^ zobrist.key(v, 1),
            _ => fp,
        });
        if moves.insert(fp, *var).is_some() {
            fail!("moves[{k}]: position '{position}' is given twice");
        }
    }
    let mut walk = Walk {
        zobrist,
        sizes,
        moves,
        player: strategy.player,
        occurs: &occurs,
        position: vec![b'.'; n],
        chosen: 0,
        fingerprint: 0,
        firsts: vec![0; dnf.terms.len()],
        seconds: vec![0; dnf.terms.len()],
        complete: 0,
        blocked: 0,
    };
    let walked = replay(&mut walk, budget)?;
    Ok(DnfReplay { positions: walked.positions, leaves: walked.leaves })
}

impl Rules for Walk<'_> {
    /// A variable (0-based) chosen by the player to move.
    type Move = usize;

    fn key(&self) -> u128 {
        self.fingerprint
    }

    fn expand(&mut self, budget: &mut Budget) -> Result<Node<usize>, String> {
        let text = || String::from_utf8_lossy(&self.position).into_owned();
        match self.settled(self.firsts.len()) {
            Some(winner) if winner == self.player => return Ok(Node::Leaf),
            Some(_) => fail!("position '{}' is lost for the {} player", text(), self.player),
            None => {}
        }
        let n = self.position.len();
        let first_moves = self.chosen.is_multiple_of(2);
        if first_moves == (self.player == DnfPlayer::First) {
            let Some(&var) = self.moves.get(&self.fingerprint) else {
                fail!("no move for position '{}'", text());
            };
            ensure!(
                var != 0 && var as usize <= n && self.position[var as usize - 1] == b'.',
                "at position '{}' the strategy chooses variable {var}, which is not free",
                text()
            );
            return Ok(Node::Moves(vec![var as usize - 1]));
        }
        budget.charge(n as u64 * 9, "listing the opponent's moves")?;
        Ok(Node::Moves((0..n).filter(|&v| self.position[v] == b'.').collect()))
    }

    fn play(&mut self, v: usize, budget: &mut Budget) -> Result<(), String> {
        budget.charge(self.occurs[v].len() as u64 + 1, "replaying moves")?;
        self.choose(v, self.chosen.is_multiple_of(2));
        Ok(())
    }

    fn undo(&mut self, v: usize) {
        self.unchoose(v);
    }
}

impl std::fmt::Display for DnfPlayer {
    /// `first` or `second`, as in "the first player wins".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DnfPlayer::First => "first",
            DnfPlayer::Second => "second",
        })
    }
}

impl Claim for DnfStrategy {
    fn claim(&self) -> String {
        format!("{} player wins", self.player)
    }
}

/// Registry entry for `dnf-strategy`.
pub fn strategy_verdict(dnf: &PosDnf, strategy: &DnfStrategy, budget: &mut Budget) -> Verdict {
    let claim = format!("the {}", strategy.claim());
    Verdict::decide(
        claim,
        check_strategy(dnf, strategy, budget),
        |report| {
            let reason = format!(
                "replayed against every opponent move: {}, {} settled",
                crate::base::text::counted(report.positions, "position"),
                report.leaves
            );
            (
                reason,
                Work {
                    positions: Some(report.positions),
                    leaves: Some(report.leaves),
                    ..Work::default()
                },
            )
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    #[allow(unused_imports)]
    use crate::base::budget::Budget;

    fn dnf(n: u32, terms: &[&[u32]]) -> PosDnf {
        PosDnf { num_vars: n, terms: terms.iter().map(|t| t.to_vec()).collect() }
    }

    #[test]
    fn first_player_wins_a_single_variable_term() {
        let game = dnf(2, &[&[1]]);
        let good = DnfStrategy {
            player: DnfPlayer::First,
            claim: "wins".into(),
            moves: vec![("..".into(), 1)],
        };
        assert_eq!(check_strategy(&game, &good, &mut Budget::new(100_000)).unwrap().positions, 2);
        let bad = DnfStrategy { moves: vec![("..".into(), 2)], ..good.clone() };
        let err = check_strategy(&game, &bad, &mut Budget::new(100_000)).unwrap_err();
        assert!(err.contains("lost for the first player"), "{err}");
        let missing = DnfStrategy { moves: vec![], ..good };
        assert!(check_strategy(&game, &missing, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("no move for position '..'"));
    }

    #[test]
    fn second_player_blocks_a_pair() {
        // x1 x2 with two variables: the second player takes whatever the first leaves.
        let game = dnf(2, &[&[1, 2]]);
        let s = DnfStrategy {
            player: DnfPlayer::Second,
            claim: "wins".into(),
            moves: vec![("1.".into(), 2), (".1".into(), 1)],
        };
        let r = check_strategy(&game, &s, &mut Budget::new(100_000)).unwrap();
        assert_eq!(r.leaves, 2);
        let occupied = DnfStrategy { moves: vec![("1.".into(), 1), (".1".into(), 1)], ..s };
        assert!(check_strategy(&game, &occupied, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("not free"));
        assert!(check_strategy(&dnf(2, &[&[1, 1]]), &occupied, &mut Budget::new(100_000))
            .unwrap_err()
            .contains("appears twice"));
    }
}

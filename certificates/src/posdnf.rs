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
//! checked once (transpositions share their verdict). The walk is an explicit stack, so no
//! certificate can drive the recursion depth.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// Instance kind `posdnf-game`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    if dnf
        .terms
        .iter()
        .any(|t| t.iter().all(|&v| owner(v) == b'1'))
    {
        return Some(DnfPlayer::First);
    }
    if dnf
        .terms
        .iter()
        .all(|t| t.iter().any(|&v| owner(v) == b'2'))
    {
        return Some(DnfPlayer::Second);
    }
    None
}

impl PosDnf {
    /// Why the formula is not a positive DNF over its variables, if it is not.
    pub fn violation(&self) -> Option<String> {
        for (k, term) in self.terms.iter().enumerate() {
            if term.is_empty() {
                return Some(format!("term {} is empty", k + 1));
            }
            for (a, &v) in term.iter().enumerate() {
                if v == 0 || v > self.num_vars {
                    return Some(format!("term {}: variable {v} is out of range", k + 1));
                }
                if term[..a].contains(&v) {
                    return Some(format!("term {}: variable {v} appears twice", k + 1));
                }
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

/// Replays `strategy` against every opponent move; `max_positions` bounds the work.
pub fn check_strategy(
    dnf: &PosDnf,
    strategy: &DnfStrategy,
    max_positions: u64,
) -> Result<DnfReplay, String> {
    if let Some(why) = dnf.violation() {
        return Err(format!("the instance is not a positive DNF: {why}"));
    }
    if strategy.claim != "wins" {
        return Err("a dnf-strategy can only claim 'wins'".into());
    }
    let n = dnf.num_vars as usize;
    let mut moves: HashMap<&str, u32> = HashMap::with_capacity(strategy.moves.len());
    for (k, (position, var)) in strategy.moves.iter().enumerate() {
        if position.len() != n || !position.bytes().all(|c| matches!(c, b'.' | b'1' | b'2')) {
            return Err(format!(
                "moves[{k}]: '{position}' is not a position of {n} characters '.', '1', '2'"
            ));
        }
        if moves.insert(position.as_str(), *var).is_some() {
            return Err(format!("moves[{k}]: position '{position}' is given twice"));
        }
    }
    let mover = |position: &[u8]| {
        let chosen = position.iter().filter(|&&c| c != b'.').count();
        if chosen % 2 == 0 {
            DnfPlayer::First
        } else {
            DnfPlayer::Second
        }
    };
    let mark = |p: DnfPlayer| if p == DnfPlayer::First { b'1' } else { b'2' };
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    let mut stack = vec![vec![b'.'; n]];
    let mut report = DnfReplay {
        positions: 0,
        leaves: 0,
    };
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
        match settled(dnf, &position) {
            Some(winner) if winner == strategy.player => {
                report.leaves += 1;
                continue;
            }
            Some(_) => {
                return Err(format!(
                    "position '{text}' is lost for the {} player",
                    name(strategy.player)
                ))
            }
            None => {}
        }
        let to_move = mover(&position);
        if to_move == strategy.player {
            let Some(&var) = moves.get(text.as_str()) else {
                return Err(format!("no move for position '{text}'"));
            };
            if var == 0 || var as usize > n || position[var as usize - 1] != b'.' {
                return Err(format!(
                    "at position '{text}' the strategy chooses variable {var}, which is not free"
                ));
            }
            let mut next = position.clone();
            next[var as usize - 1] = mark(to_move);
            stack.push(next);
        } else {
            for v in 0..n {
                if position[v] == b'.' {
                    let mut next = position.clone();
                    next[v] = mark(to_move);
                    stack.push(next);
                }
            }
        }
    }
    Ok(report)
}

fn name(p: DnfPlayer) -> &'static str {
    match p {
        DnfPlayer::First => "first",
        DnfPlayer::Second => "second",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dnf(n: u32, terms: &[&[u32]]) -> PosDnf {
        PosDnf {
            num_vars: n,
            terms: terms.iter().map(|t| t.to_vec()).collect(),
        }
    }

    #[test]
    fn first_player_wins_a_single_variable_term() {
        let game = dnf(2, &[&[1]]);
        let good = DnfStrategy {
            player: DnfPlayer::First,
            claim: "wins".into(),
            moves: vec![("..".into(), 1)],
        };
        assert_eq!(check_strategy(&game, &good, 100).unwrap().positions, 2);
        let bad = DnfStrategy {
            moves: vec![("..".into(), 2)],
            ..good.clone()
        };
        let err = check_strategy(&game, &bad, 100).unwrap_err();
        assert!(err.contains("lost for the first player"), "{err}");
        let missing = DnfStrategy {
            moves: vec![],
            ..good
        };
        assert!(check_strategy(&game, &missing, 100)
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
        let r = check_strategy(&game, &s, 100).unwrap();
        assert_eq!(r.leaves, 2);
        let occupied = DnfStrategy {
            moves: vec![("1.".into(), 1), (".1".into(), 1)],
            ..s
        };
        assert!(check_strategy(&game, &occupied, 100)
            .unwrap_err()
            .contains("not free"));
        assert!(check_strategy(&dnf(2, &[&[1, 1]]), &occupied, 100)
            .unwrap_err()
            .contains("appears twice"));
    }
}

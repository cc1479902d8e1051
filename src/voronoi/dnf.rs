//! An exact solver for Schaefer's game G_pos(POS DNF) that emits the winner's strategy as a
//! `dnf-strategy` certificate for [`gamecert_certificates::posdnf::dnf::check_strategy`].
//!
//! # The search
//!
//! A position is a pair of bitmasks `(a, b)`: the variables chosen by the first and by the
//! second player (bit `v - 1` for variable `v`, so at most 64 variables). The first player is to
//! move iff `|a| + |b|` is even. The search is a memoised win/lose minimax with:
//!
//! - the checker's early-settlement rule: a term inside `a` wins for the first player, and once
//!   every term meets `b` the second player has won;
//! - immediate threats: the first player completes a term that lacks one variable; the second
//!   player facing such a term must take its last variable (and has lost if two terms lack
//!   different last variables);
//! - move ordering: variables of many open terms first, terms closer to completion weighing
//!   more;
//! - only *live* moves. A term is alive while it has no variable of the second player; a
//!   variable is live if it lies in an alive term. A dead variable can never influence the
//!   outcome again, so choosing it is a pass, and a pass is never better than a live move
//!   (owning one more variable never hurts a player in this monotone game: play as if the live
//!   variable were the dead one, with the two swapped in the bookkeeping). In an unsettled
//!   position some alive term has a free variable, so a live move always exists;
//! - a transposition table keyed by what the outcome depends on given the above: the live
//!   variables (which determine the alive terms: a term is alive iff all of it is live), the
//!   first player's live variables, and whose turn it is. Dead variables, and which of them
//!   are chosen, are forgotten.
//!
//! # The strategy
//!
//! From the empty position, at the winner's turn the first winning move in the search's order
//! is recorded; at the opponent's turn every free variable (dead ones included: the certificate
//! must answer every reply) is expanded; settled positions end the walk, and each position is
//! visited once. Every recorded position is reachable when the winner follows the strategy.
//!
//! # Size limits
//!
//! Both the memo and the strategy hold at most [`position_bound`] positions (the pairs of sets
//! the alternating play can reach: about 3^n / sqrt(n) for n variables, so astronomically
//! loose at 64 variables, where the live-variable memo usually stays tiny). `solve` therefore
//! runs [`solve_dnf_game_within`] under [`position_cap`] positions (half the 8 GiB allowance of
//! [`crate::base::limits`] at [`BYTES_PER_POSITION`] each) and refuses the instance, naming the
//! bound and the cap, when the search or the strategy passes it.

use gamecert_certificates::posdnf::dnf::{DnfPlayer, DnfStrategy, PosDnf};
use std::collections::{HashMap, HashSet};

/// The largest number of variables the bitmask solver handles.
pub const MAX_VARIABLES: u32 = 64;

/// The solved game: who wins with perfect play, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DnfSolution {
    /// The player with a winning strategy.
    pub winner: DnfPlayer,
    /// A winning strategy for `winner`, in the checker's certificate form.
    pub strategy: DnfStrategy,
    /// Distinct unsettled positions the search solved (transposition-table entries, up to the
    /// table's forgetting of dead variables), including those the strategy walk asked for.
    pub positions: u64,
}

/// Solves the game from the empty position and extracts the winner's strategy.
///
/// Errors: the formula is not a positive DNF ([`PosDnf::violation`]) or has more than
/// [`MAX_VARIABLES`] variables.
pub fn solve_dnf_game(dnf: &PosDnf) -> Result<DnfSolution, String> {
    solve_dnf_game_within(dnf, u64::MAX)?
        .ok_or_else(|| "internal error: an unbounded search stopped".to_string())
}

/// Bytes per position the solver stores, at worst: a memo entry (a 16-byte key and a flag in a
/// hash table at its lowest load) and a strategy position (two masks in the walk's set, the
/// position string of up to 64 characters and the move).
pub const BYTES_PER_POSITION: u64 = 256;

/// The positions `solve` allows the search, and again the strategy walk: half the memory
/// allowance at [`BYTES_PER_POSITION`] each, about 16.8 million (below the checker's limit
/// of 20 million strategy positions).
pub fn position_cap() -> u64 {
    crate::base::limits::MEMORY_ALLOWANCE / BYTES_PER_POSITION / 2
}

/// An upper bound on the positions of the game on `num_vars` variables: the pairs (first
/// player's set, second player's set) of the alternating play,
/// [`crate::base::limits::placement_positions`]. The memo (which forgets dead variables) and the
/// strategy (positions reachable under the winner's play) are both at most this.
pub fn position_bound(num_vars: u32) -> u128 {
    let n = u128::from(num_vars);
    crate::base::limits::placement_positions(n, n.div_ceil(2), n / 2)
}

/// [`solve_dnf_game`] with at most `max_positions` memo entries and as many strategy
/// positions: `Ok(None)` once the search or the strategy passes it.
pub fn solve_dnf_game_within(
    dnf: &PosDnf,
    max_positions: u64,
) -> Result<Option<DnfSolution>, String> {
    let mut solver = Solver::new(dnf)?;
    solver.max_positions = max_positions;
    let winner = solver.winner(0, 0);
    if solver.exceeded {
        return Ok(None);
    }
    let moves = solver.strategy(winner)?;
    if solver.exceeded {
        return Ok(None);
    }
    Ok(Some(DnfSolution {
        winner,
        strategy: DnfStrategy { player: winner, claim: "wins".into(), moves },
        positions: solver.memo_entries(),
    }))
}

/// Who wins `position` (a string of `.`, `1`, `2` as in the certificates) with perfect play;
/// the player to move is determined by the number of chosen variables.
pub fn position_winner(dnf: &PosDnf, position: &str) -> Result<DnfPlayer, String> {
    let mut solver = Solver::new(dnf)?;
    let (a, b) = solver.parse_position(position)?;
    Ok(solver.winner(a, b))
}

struct Solver {
    num_vars: u32,
    /// Bit `v - 1` set for every variable `v`.
    all: u64,
    terms: Vec<u64>,
    /// Indexed by the player to move (0 the first player): (live, a & live) -> first wins.
    memo: [HashMap<(u64, u64), bool>; 2],
    /// Memo entries, and strategy positions, allowed; past it `exceeded` is set and the
    /// search unwinds with meaningless answers that the caller discards.
    max_positions: u64,
    exceeded: bool,
}

fn bit(var: u32) -> u64 {
    1u64 << (var - 1)
}

impl Solver {
    fn new(dnf: &PosDnf) -> Result<Solver, String> {
        if let Some(why) = dnf.violation() {
            return Err(format!("not a positive DNF: {why}"));
        }
        if dnf.num_vars > MAX_VARIABLES {
            return Err(format!(
                "the formula has {} variables; the DNF game solver handles at most {MAX_VARIABLES} (one bit per variable)",
                dnf.num_vars
            ));
        }
        let all = if dnf.num_vars == 64 { u64::MAX } else { (1u64 << dnf.num_vars) - 1 };
        let terms = dnf.terms.iter().map(|t| t.iter().fold(0u64, |m, &v| m | bit(v))).collect();
        Ok(Solver {
            num_vars: dnf.num_vars,
            all,
            terms,
            memo: [HashMap::new(), HashMap::new()],
            max_positions: u64::MAX,
            exceeded: false,
        })
    }

    fn memo_entries(&self) -> u64 {
        (self.memo[0].len() + self.memo[1].len()) as u64
    }

    fn parse_position(&self, position: &str) -> Result<(u64, u64), String> {
        if position.len() != self.num_vars as usize {
            return Err(format!(
                "position '{position}' does not have {} characters",
                self.num_vars
            ));
        }
        let (mut a, mut b) = (0u64, 0u64);
        for (k, c) in position.bytes().enumerate() {
            match c {
                b'.' => {}
                b'1' => a |= 1 << k,
                b'2' => b |= 1 << k,
                _ => return Err(format!("position '{position}': '{}' is not . 1 2", c as char)),
            }
        }
        Ok((a, b))
    }

    fn position_text(&self, a: u64, b: u64) -> String {
        (0..self.num_vars)
            .map(|k| {
                if a >> k & 1 == 1 {
                    '1'
                } else if b >> k & 1 == 1 {
                    '2'
                } else {
                    '.'
                }
            })
            .collect()
    }

    /// The union of the alive terms (terms without a variable of the second player).
    fn live(&self, b: u64) -> u64 {
        self.terms.iter().filter(|&&t| t & b == 0).fold(0, |m, &t| m | t)
    }

    /// The checker's early-settlement rule.
    fn settled(&self, a: u64, b: u64) -> Option<DnfPlayer> {
        let mut any_alive = false;
        for &t in &self.terms {
            if t & !a == 0 {
                return Some(DnfPlayer::First);
            }
            any_alive |= t & b == 0;
        }
        if any_alive {
            None
        } else {
            Some(DnfPlayer::Second)
        }
    }

    fn to_move(a: u64, b: u64) -> DnfPlayer {
        if (a | b).count_ones() & 1 == 0 {
            DnfPlayer::First
        } else {
            DnfPlayer::Second
        }
    }

    fn winner(&mut self, a: u64, b: u64) -> DnfPlayer {
        if self.first_wins(a, b) {
            DnfPlayer::First
        } else {
            DnfPlayer::Second
        }
    }

    /// The live moves of an unsettled position worth trying, best first. Empty if the player to
    /// move has lost on the spot (the second player facing two different one-move threats) or
    /// the first player can win on the spot (then `immediate` is set).
    fn candidate_moves(&self, a: u64, b: u64) -> (Vec<u32>, bool) {
        let first = Self::to_move(a, b) == DnfPlayer::First;
        // Variables that complete an alive term; score of each live free variable.
        let mut threats = 0u64;
        let mut score = [0u64; 64];
        for &t in &self.terms {
            if t & b != 0 {
                continue;
            }
            let free = t & !a;
            let missing = free.count_ones();
            if missing == 1 {
                threats |= free;
            }
            // Terms nearer completion weigh more: 2^(16 - missing), at least 1.
            let weight = 1u64 << 16u32.saturating_sub(missing);
            let mut rest = free;
            while rest != 0 {
                score[rest.trailing_zeros() as usize] += weight;
                rest &= rest - 1;
            }
        }
        if threats != 0 {
            if first {
                return (vec![threats.trailing_zeros() + 1], true);
            }
            if threats.count_ones() > 1 {
                return (Vec::new(), false);
            }
            return (vec![threats.trailing_zeros() + 1], false);
        }
        let mut moves: Vec<u32> = (0..self.num_vars).filter(|&k| score[k as usize] > 0).collect();
        // Stable: ties keep the variable order, so the result is deterministic.
        moves.sort_by_key(|&k| std::cmp::Reverse(score[k as usize]));
        (moves.into_iter().map(|k| k + 1).collect(), false)
    }

    /// Whether the first player wins `(a, b)` with perfect play.
    fn first_wins(&mut self, a: u64, b: u64) -> bool {
        if self.exceeded {
            return false;
        }
        if let Some(w) = self.settled(a, b) {
            return w == DnfPlayer::First;
        }
        let turn = Self::to_move(a, b);
        let live = self.live(b);
        let key = (live, a & live);
        let slot = (turn == DnfPlayer::Second) as usize;
        if let Some(&v) = self.memo[slot].get(&key) {
            return v;
        }
        let (moves, immediate) = self.candidate_moves(a, b);
        let result = if immediate {
            true
        } else if turn == DnfPlayer::First {
            moves.iter().any(|&v| self.first_wins(a | bit(v), b))
        } else {
            // No candidate means the second player has lost on the spot.
            !moves.iter().any(|&v| !self.first_wins(a, b | bit(v)))
        };
        self.memo[slot].insert(key, result);
        if self.memo_entries() > self.max_positions {
            self.exceeded = true;
        }
        result
    }

    /// The winner's strategy: every position reachable when `winner` follows it, with the move.
    fn strategy(&mut self, winner: DnfPlayer) -> Result<Vec<(String, u32)>, String> {
        let mut moves = Vec::new();
        let mut seen: HashSet<(u64, u64)> = HashSet::new();
        let mut stack = vec![(0u64, 0u64)];
        while let Some((a, b)) = stack.pop() {
            if self.exceeded || seen.len() as u64 > self.max_positions {
                self.exceeded = true;
                return Ok(Vec::new());
            }
            if !seen.insert((a, b)) || self.settled(a, b).is_some() {
                continue;
            }
            let turn = Self::to_move(a, b);
            if turn == winner {
                let (candidates, _) = self.candidate_moves(a, b);
                let mut chosen = None;
                for v in candidates {
                    let (na, nb) = play(a, b, turn, v);
                    if self.winner(na, nb) == winner {
                        chosen = Some((v, na, nb));
                        break;
                    }
                }
                let Some((v, na, nb)) = chosen else {
                    if self.exceeded {
                        return Ok(Vec::new());
                    }
                    return Err(format!(
                        "internal error: no winning move for the {winner} player at '{}'",
                        self.position_text(a, b)
                    ));
                };
                moves.push((self.position_text(a, b), v));
                stack.push((na, nb));
            } else {
                let mut free = self.all & !(a | b);
                while free != 0 {
                    let v = free.trailing_zeros() + 1;
                    free &= free - 1;
                    stack.push(play(a, b, turn, v));
                }
            }
        }
        Ok(moves)
    }
}

fn play(a: u64, b: u64, turn: DnfPlayer, var: u32) -> (u64, u64) {
    match turn {
        DnfPlayer::First => (a | bit(var), b),
        DnfPlayer::Second => (a, b | bit(var)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::rng::Rng;
    use gamecert_certificates::posdnf::dnf::check_strategy;

    fn dnf(n: u32, terms: &[&[u32]]) -> PosDnf {
        PosDnf { num_vars: n, terms: terms.iter().map(|t| t.to_vec()).collect() }
    }

    fn figure4() -> PosDnf {
        dnf(8, &[&[1, 2, 4, 5], &[3, 5, 7, 8], &[6, 8]])
    }

    /// Plain minimax over complete plays: no memo, no early settlement, every move.
    fn minimax(dnf: &PosDnf) -> DnfPlayer {
        fn first_wins(dnf: &PosDnf, pos: &mut Vec<u8>, chosen: usize) -> bool {
            let n = pos.len();
            if chosen == n {
                return dnf.terms.iter().any(|t| t.iter().all(|&v| pos[v as usize - 1] == b'1'));
            }
            let first = chosen & 1 == 0;
            let mut found = false;
            for k in 0..n {
                if pos[k] != b'.' {
                    continue;
                }
                pos[k] = if first { b'1' } else { b'2' };
                let w = first_wins(dnf, pos, chosen + 1);
                pos[k] = b'.';
                if w == first {
                    found = true;
                    break;
                }
            }
            if first {
                found
            } else {
                !found
            }
        }
        let mut pos = vec![b'.'; dnf.num_vars as usize];
        if first_wins(dnf, &mut pos, 0) {
            DnfPlayer::First
        } else {
            DnfPlayer::Second
        }
    }

    /// Every positive DNF with `n` variables and at most `max_terms` terms, up to the order of
    /// the terms (multisets of non-empty subsets).
    fn all_dnfs(n: u32, max_terms: usize) -> Vec<PosDnf> {
        let subsets: Vec<Vec<u32>> =
            (1u32..1 << n).map(|m| (1..=n).filter(|&v| m >> (v - 1) & 1 == 1).collect()).collect();
        let mut out = Vec::new();
        fn rec(
            n: u32,
            subsets: &[Vec<u32>],
            from: usize,
            left: usize,
            terms: &mut Vec<Vec<u32>>,
            out: &mut Vec<PosDnf>,
        ) {
            out.push(PosDnf { num_vars: n, terms: terms.clone() });
            if left == 0 {
                return;
            }
            for k in from..subsets.len() {
                terms.push(subsets[k].clone());
                rec(n, subsets, k, left - 1, terms, out);
                terms.pop();
            }
        }
        rec(n, &subsets, 0, max_terms, &mut Vec::new(), &mut out);
        out
    }

    /// A random positive DNF: `n` variables, `terms` terms of `lo..=hi` distinct variables
    /// (capped at `n`), in random order.
    fn random_dnf(rng: &mut Rng, n: u32, terms: usize, lo: u32, hi: u32) -> PosDnf {
        let mut out = Vec::new();
        for _ in 0..terms {
            let width = (rng.range(lo as u64, hi as u64) as u32).min(n);
            let mut vars: Vec<u32> = (1..=n).collect();
            for i in 0..width as usize {
                let j = i + rng.below((n as usize - i) as u64) as usize;
                vars.swap(i, j);
            }
            vars.truncate(width as usize);
            out.push(vars);
        }
        PosDnf { num_vars: n, terms: out }
    }

    /// Random small formulas: 1 to `max_n` variables, 0 to 5 terms of 1 to 4 variables.
    fn random_small(rng: &mut Rng, max_n: u32) -> PosDnf {
        let n = rng.range(1, max_n as u64) as u32;
        let terms = rng.range(0, 5) as usize;
        random_dnf(rng, n, terms, 1, 4)
    }

    fn solve_and_check(game: &PosDnf) -> DnfSolution {
        let solution = solve_dnf_game(game).unwrap();
        if let Err(e) = check_strategy(
            game,
            &solution.strategy,
            &mut gamecert_certificates::base::budget::Budget::unlimited(),
        ) {
            panic!("{game:?}: the checker rejects the solver's strategy: {e}");
        }
        solution
    }

    #[test]
    fn small_cases_by_hand() {
        // No terms: the second player has won at once, with no moves.
        let s = solve_and_check(&dnf(3, &[]));
        assert_eq!(s.winner, DnfPlayer::Second);
        assert!(s.strategy.moves.is_empty());
        let s = solve_and_check(&dnf(0, &[]));
        assert_eq!(s.winner, DnfPlayer::Second);
        // One variable, one term: the first player takes it.
        let s = solve_and_check(&dnf(1, &[&[1]]));
        assert_eq!(s.winner, DnfPlayer::First);
        assert_eq!(s.strategy.moves, vec![(".".to_string(), 1)]);
        // A pair of two variables: the second player blocks.
        let s = solve_and_check(&dnf(2, &[&[1, 2]]));
        assert_eq!(s.winner, DnfPlayer::Second);
        assert_eq!(s.strategy.moves.len(), 2);
        // Two disjoint pairs: still blocked. A triangle of pairs: the first player wins.
        assert_eq!(solve_and_check(&dnf(4, &[&[1, 2], &[3, 4]])).winner, DnfPlayer::Second);
        assert_eq!(solve_and_check(&dnf(3, &[&[1, 2], &[2, 3], &[1, 3]])).winner, DnfPlayer::First);
    }

    #[test]
    fn refuses_bad_input() {
        let e = solve_dnf_game(&PosDnf { num_vars: 65, terms: vec![vec![1, 65]] }).unwrap_err();
        assert!(e.contains("at most 64"), "{e}");
        let e = solve_dnf_game(&dnf(2, &[&[1, 3]])).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let e = solve_dnf_game(&dnf(2, &[&[]])).unwrap_err();
        assert!(e.contains("empty"), "{e}");
        // 64 variables is fine.
        let s = solve_and_check(&PosDnf { num_vars: 64, terms: vec![vec![1, 64], vec![64, 2, 3]] });
        assert_eq!(s.winner, DnfPlayer::Second);
    }

    /// The position bound bounds the memo and the strategy on every formula with at most 4
    /// variables and 3 terms, and on random ones with 5 and 6; a small cap stops the search.
    #[test]
    fn position_bound_holds_and_the_cap_stops() {
        let mut rng = Rng::new(11);
        let games = (0..=4)
            .flat_map(|n| all_dnfs(n, 3))
            .chain((0..40).map(|_| crate::voronoi::check_dnf_reduction::random_dnf(&mut rng)));
        for game in games {
            let s = solve_dnf_game(&game).unwrap();
            let bound = position_bound(game.num_vars);
            assert!(u128::from(s.positions) <= bound, "{game:?}");
            assert!(s.strategy.moves.len() as u128 <= bound, "{game:?}");
        }
        assert_eq!(position_bound(2), 1 + 2 + 2);
        assert!(solve_dnf_game_within(&figure4(), 10).unwrap().is_none());
        let full = solve_dnf_game(&figure4()).unwrap();
        let capped =
            solve_dnf_game_within(&figure4(), full.positions + 1_000_000).unwrap().unwrap();
        assert_eq!(capped, full);
    }

    #[test]
    fn figure_4() {
        let s = solve_and_check(&figure4());
        assert_eq!(s.winner, minimax(&figure4()));
    }

    /// (a) + (b) exhaustively: every formula with at most 4 variables and 3 terms.
    #[test]
    fn agrees_with_minimax_on_all_small_formulas() {
        let mut count = 0;
        for n in 0..=4 {
            for game in all_dnfs(n, 3) {
                let s = solve_and_check(&game);
                assert_eq!(s.winner, minimax(&game), "{game:?}");
                count += 1;
            }
        }
        assert!(count > 700, "{count}");
    }

    /// (a) + (b) on random formulas with up to 7 variables.
    #[test]
    fn agrees_with_minimax_on_random_formulas() {
        let mut rng = Rng::new(2024);
        let mut wins = [0, 0];
        for _ in 0..300 {
            let game = random_small(&mut rng, 7);
            let s = solve_and_check(&game);
            assert_eq!(s.winner, minimax(&game), "{game:?}");
            wins[(s.winner == DnfPlayer::Second) as usize] += 1;
        }
        // Both outcomes occur, so the comparison means something.
        assert!(wins[0] > 20 && wins[1] > 20, "{wins:?}");
    }

    /// (b) on larger formulas: 12 to 16 variables.
    #[test]
    fn checker_accepts_larger_strategies() {
        let mut rng = Rng::new(99);
        let mut wins = [0, 0];
        for _ in 0..16 {
            let n = rng.range(12, 16) as u32;
            let terms = rng.range(4, 8) as usize;
            let game = random_dnf(&mut rng, n, terms, 2, 5);
            let s = solve_and_check(&game);
            wins[(s.winner == DnfPlayer::Second) as usize] += 1;
        }
        assert!(wins[0] > 0 && wins[1] > 0, "{wins:?}");
    }

    /// (c) mutated strategies are rejected.
    #[test]
    fn mutated_strategies_are_rejected() {
        let mut rng = Rng::new(7);
        let mut games = vec![figure4()];
        while games.len() < 40 {
            let game = random_small(&mut rng, 7);
            if !solve_dnf_game(&game).unwrap().strategy.moves.is_empty() {
                games.push(game);
            }
        }
        let mut losing_found = 0;
        for game in &games {
            let s = solve_and_check(game).strategy;
            // Every entry is needed: the walk records only positions reachable under the
            // strategy, so dropping any one leaves a reachable position without a move.
            for k in 0..s.moves.len() {
                let mut m = s.clone();
                m.moves.remove(k);
                let e = check_strategy(
                    game,
                    &m,
                    &mut gamecert_certificates::base::budget::Budget::unlimited(),
                )
                .unwrap_err();
                assert!(e.contains("no move for position"), "{e}");
            }
            for k in 0..s.moves.len() {
                let (position, _) = &s.moves[k];
                // An occupied variable.
                if let Some(i) = position.bytes().position(|c| c != b'.') {
                    let mut m = s.clone();
                    m.moves[k].1 = i as u32 + 1;
                    let e = check_strategy(
                        game,
                        &m,
                        &mut gamecert_certificates::base::budget::Budget::unlimited(),
                    )
                    .unwrap_err();
                    assert!(e.contains("not free"), "{e}");
                }
                // Variables out of range are not free either.
                let mut m = s.clone();
                m.moves[k].1 = 0;
                assert!(check_strategy(
                    game,
                    &m,
                    &mut gamecert_certificates::base::budget::Budget::unlimited()
                )
                .is_err());
                m.moves[k].1 = game.num_vars + 1;
                assert!(check_strategy(
                    game,
                    &m,
                    &mut gamecert_certificates::base::budget::Budget::unlimited()
                )
                .is_err());
                // A free variable that loses, found by the solver.
                let mark = if s.player == DnfPlayer::First { '1' } else { '2' };
                for (i, c) in position.char_indices() {
                    if c != '.' {
                        continue;
                    }
                    let mut next = position.clone();
                    next.replace_range(i..i + 1, &mark.to_string());
                    if position_winner(game, &next).unwrap() != s.player {
                        let mut m = s.clone();
                        m.moves[k].1 = i as u32 + 1;
                        assert!(
                            check_strategy(
                                game,
                                &m,
                                &mut gamecert_certificates::base::budget::Budget::unlimited()
                            )
                            .is_err(),
                            "{game:?} {m:?}"
                        );
                        losing_found += 1;
                        break;
                    }
                }
            }
            // The other player cannot claim the win.
            let mut m = s.clone();
            m.player = match s.player {
                DnfPlayer::First => DnfPlayer::Second,
                DnfPlayer::Second => DnfPlayer::First,
            };
            assert!(check_strategy(
                game,
                &m,
                &mut gamecert_certificates::base::budget::Budget::unlimited()
            )
            .is_err());
        }
        assert!(losing_found > 20, "{losing_found}");
    }

    /// (d) a fresh variable in no term does not change the winner. The Voronoi reduction pads
    /// odd variable counts this way; the argument in the module documentation (a dead move is
    /// a pass, and passing never helps) covers any count, so even counts are tested as well.
    #[test]
    fn padding_with_a_fresh_variable_keeps_the_winner() {
        let pad = |game: &PosDnf| PosDnf { num_vars: game.num_vars + 1, terms: game.terms.clone() };
        for n in 0..=5 {
            for game in all_dnfs(n, 3) {
                let w = solve_and_check(&game).winner;
                assert_eq!(solve_and_check(&pad(&game)).winner, w, "{game:?}");
            }
        }
        let mut rng = Rng::new(31);
        let mut odd = 0;
        for _ in 0..200 {
            let game = random_small(&mut rng, 9);
            odd += game.num_vars % 2;
            let w = solve_and_check(&game).winner;
            assert_eq!(solve_and_check(&pad(&game)).winner, w, "{game:?}");
            // For small formulas the claim is also checked against plain minimax.
            if game.num_vars <= 6 {
                assert_eq!(minimax(&pad(&game)), w, "{game:?}");
            }
        }
        assert!(odd > 50, "{odd}");
    }

    #[test]
    fn position_winner_reads_positions() {
        let game = dnf(2, &[&[1, 2]]);
        assert_eq!(position_winner(&game, "..").unwrap(), DnfPlayer::Second);
        assert_eq!(position_winner(&game, "1.").unwrap(), DnfPlayer::Second);
        assert_eq!(position_winner(&game, "11").unwrap(), DnfPlayer::First);
        assert!(position_winner(&game, "1").is_err());
        assert!(position_winner(&game, "1x").is_err());
    }

    /// Measurements for the report: `cargo test --release -p gamecert --lib posdnf::tests::measure
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn measure() {
        use std::time::Instant;
        let report = |name: &str, game: &PosDnf| {
            let t = Instant::now();
            let s = solve_dnf_game(game).unwrap();
            let solve = t.elapsed();
            let t = Instant::now();
            let replay = check_strategy(
                game,
                &s.strategy,
                &mut gamecert_certificates::base::budget::Budget::unlimited(),
            )
            .unwrap();
            let check = t.elapsed();
            println!(
                "{name:<12} n={:<2} terms={:<2} winner={:<6} positions={:<8} strategy={:<8} replay={:<9} solve={:>9.3?} check={:>9.3?}",
                game.num_vars,
                game.terms.len(),
                format!("{:?}", s.winner),
                s.positions,
                s.strategy.moves.len(),
                replay.positions,
                solve,
                check
            );
        };
        report("figure4", &figure4());
        let mut rng = Rng::new(20);
        for k in 0..20 {
            let terms = rng.range(6, 10) as usize;
            let game = random_dnf(&mut rng, 20, terms, 2, 5);
            report(&format!("random20-{k}"), &game);
        }
        // Harder families: wider terms (so the first player rarely wins at once), more of them,
        // more variables.
        for (n, lo, hi, tlo, thi) in [(20, 3, 5, 10, 16), (24, 3, 5, 8, 12), (28, 3, 6, 8, 12)] {
            for k in 0..4 {
                let terms = rng.range(tlo, thi) as usize;
                let game = random_dnf(&mut rng, n, terms, lo, hi);
                report(&format!("w{lo}-{hi}n{n}-{k}"), &game);
            }
        }
    }
}

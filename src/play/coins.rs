//! Coin-turning games (`coin-labelling`), played in coin coordinates on the checker's own rules
//! ([`gamecert_certificates::impartial::coins`]).
//!
//! Notation: a coin is its number as in the instance, `7`, or in two dimensions `(4,1)`. A
//! position is the heads, `3 7 12` or `(100,100) (4,1)` (and `(second to move)` on the second
//! player's turn); a move is the coins turned joined by `+`, its last coin the head that goes to
//! tails: `3+7` (coins 3 and 7), `(1,1)+(4,1)`.
//!
//! The strategy is the labelling's: the checker verified every single-head label as the mex of
//! its moves, so by the coin-turning decomposition and Sprague-Grundy a position's value is the
//! nim sum of its heads' labels, and at a position of non-zero value the move to value 0 wins;
//! at the start it is the certificate's own `winning_move` when it gives one. At value 0 there is
//! no winning move, and the labelling gives none.
//!
//! Pictures ([`crate::impartial::pictures`]): heads gold, tails grey, the marked move's coins
//! outlined in red. Clicking a head plays the simplest move (fewest coins) whose last coin is
//! that head; clicking another coin plays the simplest move that turns it, the nearest head's
//! first.

use super::{brief, turn_suffix, Family, Outcome, Side, SHOWN};
use crate::impartial::pictures::{coin_board_words as board_words, coins_svg, CoinBoard};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::{CoinGameSpec, CoinLabelling};
use gamecert_certificates::impartial::coins::{for_each_move, CoinGame, Labels, Rule};
use std::collections::BTreeSet;

pub(crate) struct Coins {
    game: CoinGame,
    labels: Labels,
    /// The certificate's winning move, as coin indices, sorted.
    winning_move: Option<Vec<Vec<u64>>>,
}

/// The heads (coin indices), and whose turn it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct State {
    heads: BTreeSet<Vec<u64>>,
    first_to_move: bool,
}

impl Coins {
    pub(crate) fn new(spec: &CoinGameSpec, labelling: &CoinLabelling) -> Result<Coins, String> {
        let game = spec.validate()?;
        let winning_move = labelling.winning_move.as_ref().map(|coins| {
            let mut index: Vec<Vec<u64>> = coins
                .iter()
                .map(|c| c.iter().zip(&game.base).map(|(&x, &b)| (x - b) as u64).collect())
                .collect();
            index.sort();
            index
        });
        Ok(Coins { game, labels: labelling.values.clone(), winning_move })
    }

    fn label(&self, coin: &[u64]) -> u64 {
        match (&self.labels, coin) {
            (Labels::Strip(l), [i]) => l[*i as usize],
            (Labels::Plane(l), [x, y]) => l[*x as usize][*y as usize],
            _ => unreachable!("the checker verified the labels' shape"),
        }
    }

    fn value(&self, heads: &BTreeSet<Vec<u64>>) -> u64 {
        heads.iter().fold(0, |acc, h| acc ^ self.label(h))
    }

    /// Calls `f` with every move (the coins turned, sorted, the head last) whose last coin is
    /// the head `h`.
    fn each_move_from(&self, h: &[u64], f: &mut dyn FnMut(Vec<Vec<u64>>)) {
        match (&self.game.rule, h) {
            (Rule::Strip(strip), &[i]) => for_each_move(strip, i, &mut |others| {
                let mut coins: Vec<Vec<u64>> = others.iter().map(|&j| vec![j]).collect();
                coins.push(vec![i]);
                f(coins)
            }),
            (Rule::Product(sx, sy), &[x, y]) => {
                let mut columns = Vec::new();
                for_each_move(sx, x, &mut |xs| columns.push(xs.to_vec()));
                let mut rows = Vec::new();
                for_each_move(sy, y, &mut |ys| rows.push(ys.to_vec()));
                for xs in &columns {
                    for ys in &rows {
                        let mut coins = Vec::new();
                        for &cx in xs.iter().chain([&x]) {
                            for &cy in ys.iter().chain([&y]) {
                                coins.push(vec![cx, cy]);
                            }
                        }
                        coins.sort();
                        f(coins);
                    }
                }
            }
            (Rule::AcrosticTwins, &[x, y]) => {
                for other in (0..x).map(|cx| vec![cx, y]).chain((0..y).map(|cy| vec![x, cy])) {
                    let mut coins = vec![other, vec![x, y]];
                    coins.sort();
                    f(coins);
                }
            }
            _ => unreachable!("a coin has the game's dimension"),
        }
    }

    fn write_coin(&self, coin: &[u64]) -> String {
        let shown: Vec<String> = coin
            .iter()
            .zip(&self.game.base)
            .map(|(&i, &b)| (i as i128 + b as i128).to_string())
            .collect();
        match shown.as_slice() {
            [x] => x.clone(),
            _ => format!("({})", shown.join(",")),
        }
    }

    /// Reads a coin of the board: `7`, or `(4,1)` in two dimensions.
    fn read_coin(&self, text: &str) -> Result<Vec<u64>, String> {
        let dims = self.game.base.len();
        let inner = text.trim().trim_start_matches('(').trim_end_matches(')');
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        let example = if dims == 1 { "`7`" } else { "`(4,1)`" };
        if parts.len() != dims {
            return Err(format!("'{text}' is not a coin: write it {example}"));
        }
        let mut coin = Vec::with_capacity(dims);
        for (d, part) in parts.iter().enumerate() {
            let at = part
                .parse::<i64>()
                .map_err(|_| format!("'{text}' is not a coin: write it {example}"))?;
            let offset = i128::from(at) - i128::from(self.game.base[d]);
            if offset < 0 || offset >= i128::from(self.game.board[d]) {
                return Err(format!("coin {text} is not on the board"));
            }
            coin.push(offset as u64);
        }
        Ok(coin)
    }

    /// Splits a list of coins: `3 7 12`, or `(100,100) (4,1)`.
    fn coins<'t>(&self, text: &'t str, separator: char) -> Vec<&'t str> {
        if self.game.base.len() == 1 {
            text.split([separator, ' ', ',']).filter(|w| !w.trim().is_empty()).collect()
        } else {
            text.split_inclusive(')')
                .map(|w| w.trim().trim_start_matches(separator).trim())
                .filter(|w| !w.is_empty())
                .collect()
        }
    }
}

impl Family for Coins {
    type State = State;
    type Move = Vec<Vec<u64>>;

    fn start(&self) -> State {
        State { heads: self.game.heads.iter().cloned().collect(), first_to_move: true }
    }

    fn to_move(&self, state: &State) -> Side {
        if state.first_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, state: &State) -> Vec<Vec<Vec<u64>>> {
        let mut out = Vec::new();
        for h in &state.heads {
            self.each_move_from(h, &mut |coins| out.push(coins));
        }
        out
    }

    fn apply(&self, state: &State, coins: &Vec<Vec<u64>>) -> State {
        let mut heads = state.heads.clone();
        for c in coins {
            if !heads.remove(c) {
                heads.insert(c.clone());
            }
        }
        State { heads, first_to_move: !state.first_to_move }
    }

    fn write_move(&self, _: &State, coins: &Vec<Vec<u64>>) -> String {
        coins.iter().map(|c| self.write_coin(c)).collect::<Vec<_>>().join("+")
    }

    fn read_move(&self, state: &State, text: &str) -> Result<Vec<Vec<u64>>, String> {
        let mut coins = self
            .coins(text, '+')
            .into_iter()
            .map(|w| self.read_coin(w))
            .collect::<Result<Vec<_>, _>>()?;
        coins.sort();
        if coins.windows(2).any(|w| w[0] == w[1]) {
            return Err("a coin is listed twice".into());
        }
        let Some(last) = coins.last() else { return Err("a move turns at least one coin".into()) };
        if !state.heads.contains(last) {
            return Err(format!(
                "the last coin, {}, shows tails: a move turns a head to tails as its last coin",
                self.write_coin(last)
            ));
        }
        let mut legal = false;
        self.each_move_from(last, &mut |m| legal |= m == coins);
        if !legal {
            return Err("the rule does not allow turning this set of coins".into());
        }
        Ok(coins)
    }

    fn move_syntax(&self) -> String {
        let example = if self.game.base.len() == 1 { "`3+7`" } else { "`(1,1)+(4,1)`" };
        format!(
            "a move is the coins turned, joined by `+` ({example}); its last coin must be a head; \
             whoever cannot move loses"
        )
    }

    fn write_position(&self, state: &State) -> String {
        let heads: Vec<String> = state.heads.iter().map(|h| self.write_coin(h)).collect();
        let turn = if state.first_to_move { "" } else { " (second to move)" };
        format!("{}{turn}", heads.join(" "))
    }

    fn read_position(&self, text: &str) -> Result<State, String> {
        let (text, turn) = turn_suffix(text)?;
        let mut heads = BTreeSet::new();
        for word in self.coins(text, ' ') {
            let coin = self.read_coin(word)?;
            if !heads.insert(coin) {
                return Err(format!("coin {word} is listed twice"));
            }
        }
        Ok(State { heads, first_to_move: turn != Some(Side::Second) })
    }

    fn draw(&self, state: &State) -> String {
        let heads: Vec<String> = state.heads.iter().map(|h| self.write_coin(h)).collect();
        let listed = format!("  heads: {}\n", brief(&heads, 2 * SHOWN));
        if self.game.base.len() == 1 && self.game.board[0] <= 80 {
            // A short strip drawn whole, coin by coin.
            let row: String = (0..self.game.board[0])
                .map(|i| if state.heads.contains(&vec![i]) { 'H' } else { '.' })
                .collect();
            return format!("  {row}\n{listed}");
        }
        listed
    }

    fn summary(&self, state: &State) -> String {
        let coins = self.game.board.iter().fold(1u64, |n, &side| n.saturating_mul(side));
        let showing = if state.heads.len() == 1 { "shows" } else { "show" };
        format!(
            "{} {showing} heads, of {} on the board",
            counted(state.heads.len(), "coin"),
            crate::base::limits::grouped(u128::from(coins))
        )
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        if !self.moves(state).is_empty() {
            return None;
        }
        let stuck = self.to_move(state);
        let result = format!(
            "{} cannot move and loses: {} wins",
            self.side_name(stuck),
            self.side_name(stuck.other())
        );
        Some(Outcome { winner: Some(stuck.other()), result })
    }

    fn reply(&self, state: &State) -> Option<Vec<Vec<u64>>> {
        if *state == self.start() {
            if let Some(m) = &self.winning_move {
                return Some(m.clone());
            }
        }
        let total = self.value(&state.heads);
        if total == 0 {
            return None;
        }
        // A move changes the value by the nim sum of the labels of the coins it turns.
        let mut found = None;
        for h in &state.heads {
            self.each_move_from(h, &mut |coins| {
                if found.is_none() && coins.iter().fold(0, |acc, c| acc ^ self.label(c)) == total {
                    found = Some(coins);
                }
            });
            if found.is_some() {
                break;
            }
        }
        found
    }

    fn default_human(&self) -> Side {
        self.first_side().other()
    }

    fn claim_met(&self, state: &State, side: Side) -> Option<bool> {
        (side == self.first_side())
            .then(|| self.outcome(state).and_then(|o| o.winner) == Some(side))
    }

    /// The board ([`crate::impartial::pictures`]): heads and tails, the marked move's coins
    /// outlined; the caption says whose turn it is, the position's value and the claim.
    fn svg(&self, state: &State, marked: Option<&Vec<Vec<u64>>>, caption: &str) -> String {
        // Only the moves some coin plays are written (a board may have thousands of moves).
        let moves = self.moves(state);
        let clicks = crate::impartial::pictures::coin_clicks(&moves);
        let heads: Vec<Vec<u64>> = state.heads.iter().cloned().collect();
        let total = self.value(&state.heads);
        let mut notes = vec![crate::base::svg::sentence(&format!(
            "{}; {} to move. The value (nim sum of the heads' checked labels) is {total}: {}.",
            board_words(&self.game.board, heads.len()),
            self.side_name(self.to_move(state)),
            if total == 0 { "the player to move loses" } else { "the player to move wins" }
        ))];
        notes.push(format!(
            "Certified (coin-labelling): {} wins from the start.",
            self.side_name(self.first_side())
        ));
        if let Some(m) = marked {
            notes.push(format!(
                "Marked, {}: the {} turned (outlined in red).",
                self.write_move(state, m),
                if m.len() == 1 { "coin" } else { "coins" }
            ));
        }
        let click = |coin: &[u64]| clicks.get(coin).map(|&k| self.write_move(state, &moves[k]));
        let board = CoinBoard {
            board: &self.game.board,
            base: &self.game.base,
            heads: &heads,
            marked: marked.map_or(&[], Vec::as_slice),
            click: &click,
        };
        coins_svg(&board, caption, &notes)
    }

    /// The board as a player sees it: heads and tails and whose turn it is, no label and no
    /// value (they would give the strategy away; `play` and `summary` keep them too).
    fn board(&self, state: &State, caption: &str) -> String {
        let moves = self.moves(state);
        let clicks = crate::impartial::pictures::coin_clicks(&moves);
        let heads: Vec<Vec<u64>> = state.heads.iter().cloned().collect();
        let turn = match self.outcome(state) {
            Some(outcome) => outcome.result,
            None => format!("{} to move", self.side_name(self.to_move(state))),
        };
        let notes = vec![crate::base::svg::sentence(&format!(
            "{}; {turn}.",
            board_words(&self.game.board, heads.len())
        ))];
        let click = |coin: &[u64]| clicks.get(coin).map(|&k| self.write_move(state, &moves[k]));
        let board = CoinBoard {
            board: &self.game.board,
            base: &self.game.base,
            heads: &heads,
            marked: &[],
            click: &click,
        };
        coins_svg(&board, caption, &notes)
    }
}

impl Coins {
    /// The side the labelling proves wins: the first player at a start of non-zero value.
    fn first_side(&self) -> Side {
        if self.value(&self.start().heads) != 0 {
            Side::First
        } else {
            Side::Second
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::fixture;
    use gamecert_certificates::format::{Certificate, Instance};

    #[test]
    fn notation_errors_name_the_fault() {
        let (Instance::CoinGame(spec), Certificate::CoinLabelling(cert)) =
            fixture("coin-labelling")
        else {
            panic!("a coin-labelling fixture")
        };
        let game = Coins::new(&spec, &cert).unwrap();
        let start = game.start();
        assert_eq!(game.write_position(&start), "(4,1) (100,100)");
        assert!(game.read_position("(4,1) (0,1)").unwrap_err().contains("not on the board"));
        assert!(game.read_position("(4,1) (4,1)").unwrap_err().contains("listed twice"));
        assert!(game.read_position("7").unwrap_err().contains("write it `(4,1)`"));
        assert!(game.read_move(&start, "(3,3)").unwrap_err().contains("shows tails"));
        let err = game.read_move(&start, "(4,1)").unwrap_err();
        assert!(err.contains("does not allow"), "{err}");
        let mv = game.reply(&start).unwrap();
        assert!(game.read_move(&start, &game.write_move(&start, &mv)).unwrap() == mv);
        let after = game.apply(&start, &mv);
        assert!(game.read_position(&game.write_position(&after)).unwrap() == after);
    }
}

//! The games in play on the server: id -> strategy and history. Bounded: at most [`MAX_GAMES`]
//! games (the least recently used evicted), at most [`MAX_UPLOADED_GAMES`] of them from uploads
//! (each holds its own strategy), and at most [`MAX_HISTORY`] positions a game. The person's
//! moves are read in the game's notation; the certified side replies as `gamecert play` does.

use crate::play::{Position, Side, Strategy};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::{Arc, Mutex};

/// Games kept at once.
pub const MAX_GAMES: usize = 1000;
/// Games from uploads kept at once (their strategies are as large as their certificates).
pub const MAX_UPLOADED_GAMES: usize = 64;
/// Positions a game keeps (its moves, both sides'): a longer game is refused further moves.
pub const MAX_HISTORY: usize = 10_000;
/// Legal moves listed in one answer (a coin game can have tens of thousands): any legal move
/// can still be sent by its notation.
pub const MAX_LISTED_MOVES: usize = 1000;

/// One position of a game and the move that led to it.
struct Step {
    position: Position,
    /// "W plays a" (with a note when the certificate gave no move), `None` at the start.
    last: Option<String>,
}

/// A game: the strategy, the person's side and every position so far.
pub struct Game {
    strategy: Strategy,
    human: Side,
    caption: String,
    uploaded: bool,
    history: Vec<Step>,
}

/// What the page shows of a game after each request.
#[derive(Serialize)]
pub struct View {
    pub id: String,
    pub kind: String,
    pub claim: String,
    /// `first` or `second`: the person's side.
    pub side: &'static str,
    pub you: String,
    pub it: String,
    pub to_move: String,
    pub last_move: String,
    pub summary: String,
    pub position: String,
    pub board: String,
    pub moves: Vec<String>,
    pub moves_total: usize,
    pub move_syntax: String,
    pub over: bool,
    /// The result and the claim, once the game is over.
    pub result: Option<String>,
    /// `true`, `false` or `none` (the certificate claims nothing for the side the server
    /// played), once the game is over.
    pub claim_met: Option<&'static str>,
    pub can_undo: bool,
}

impl Game {
    /// A new game of `strategy` with the person on `human`'s side; the certified side moves
    /// first if it is its turn.
    pub fn new(strategy: Strategy, human: Side, caption: String, uploaded: bool) -> Game {
        let mut game = Game { strategy, human, caption, uploaded, history: Vec::new() };
        game.restart(human);
        game
    }

    /// Back to the start, the person now on `human`'s side.
    pub fn restart(&mut self, human: Side) {
        self.human = human;
        self.history = vec![Step { position: self.strategy.start(), last: None }];
        self.advance();
    }

    fn current(&self) -> &Position {
        // Never empty: every constructor and undo keeps the first step.
        &self.history[self.history.len() - 1].position
    }

    /// The certified side's moves until the person is to move or the game is over, as `play`
    /// makes them: the strategy's reply, or the first legal move (and it says so).
    fn advance(&mut self) {
        let it = self.strategy.side_name(self.human.other());
        while self.history.len() < MAX_HISTORY {
            let position = self.current().clone();
            if position.outcome().is_some() || position.to_move() == self.human {
                return;
            }
            let (mv, note) = match self.strategy.reply(&position) {
                Some(mv) => (mv, ""),
                None => match position.legal_moves().into_iter().next() {
                    Some(mv) => (mv, " (the certificate gives no move here: the first legal move)"),
                    None => return,
                },
            };
            let next = position.apply(&mv);
            self.history
                .push(Step { position: next, last: Some(format!("{it} plays {mv}{note}")) });
        }
    }

    /// The side a person plays by default (the one the certificate proves cannot win).
    pub fn default_human(&self) -> Side {
        self.strategy.default_human()
    }

    /// The person's move, in the game's notation; the certified side answers.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        let position = self.current().clone();
        if position.outcome().is_some() {
            return Err("the game is over: start a new game".into());
        }
        if position.to_move() != self.human {
            return Err("it is not your turn".into());
        }
        if self.history.len() >= MAX_HISTORY {
            return Err(format!("a game keeps at most {MAX_HISTORY} positions: start a new game"));
        }
        let mv =
            position.parse_move(text).map_err(|why| format!("illegal move '{text}': {why}"))?;
        let you = self.strategy.side_name(self.human);
        self.history.push(Step {
            position: position.apply(&mv),
            last: Some(format!("{you} (you) plays {mv}")),
        });
        self.advance();
        Ok(())
    }

    /// The certified strategy's move at the person's position, in words.
    pub fn hint(&self) -> String {
        let position = self.current();
        if position.outcome().is_some() {
            return "The game is over.".into();
        }
        let you = self.strategy.side_name(self.human);
        match self.strategy.reply(position) {
            Some(mv) => format!("The certified strategy would play {mv} here."),
            None if !self.strategy.certifies(self.human) => format!(
                "The certificate holds no moves for {you}: it proves that {}.",
                self.strategy.stated_claim()
            ),
            None => "The certificate gives no move at this position.".into(),
        }
    }

    /// Back to the person's previous turn (before their last move and the reply to it).
    pub fn undo(&mut self) -> Result<(), String> {
        let end = self.history.len() - 1;
        let earlier = (0..end).rev().find(|&i| {
            let p = &self.history[i].position;
            p.outcome().is_none() && p.to_move() == self.human
        });
        match earlier {
            Some(i) => {
                self.history.truncate(i + 1);
                Ok(())
            }
            None => Err("there is no earlier move of yours to take back".into()),
        }
    }

    /// What the page shows.
    pub fn view(&self, id: u64) -> View {
        let position = self.current();
        let (you, it) =
            (self.strategy.side_name(self.human), self.strategy.side_name(self.human.other()));
        let outcome = position.outcome();
        let moves = position.legal_moves();
        let (result, claim_met) = match &outcome {
            None => (None, None),
            Some(outcome) => {
                let met = self.strategy.claim_met(position, self.human.other());
                let words = match met {
                    Some(true) => format!("{it} achieved it"),
                    Some(false) => {
                        format!("{it} did not achieve it (it was not following the certificate)")
                    }
                    None => format!("it is a claim for {you}, whom you played"),
                };
                let text = format!(
                    "Result: {}. Certified claim: {}; {words}.",
                    outcome.result,
                    self.strategy.stated_claim()
                );
                let met = match met {
                    Some(true) => "true",
                    Some(false) => "false",
                    None => "none",
                };
                (Some(text), Some(met))
            }
        };
        let to_move = match outcome {
            Some(_) => String::new(),
            None if position.to_move() == self.human => format!("{you} (you) to move"),
            None => format!("{it} to move"),
        };
        let last_move =
            self.history.last().and_then(|s| s.last.clone()).unwrap_or_else(|| "none yet".into());
        let board =
            super::gallery::bounded_picture(position.svg(None, &self.caption), &self.caption);
        View {
            id: format!("{id:016x}"),
            kind: self.strategy.kind().to_string(),
            claim: self.strategy.stated_claim().to_string(),
            side: match self.human {
                Side::First => "first",
                Side::Second => "second",
            },
            you,
            it,
            to_move,
            last_move,
            summary: position.summary(),
            position: position.notation(),
            board,
            moves_total: moves.len(),
            moves: moves.iter().take(MAX_LISTED_MOVES).map(|m| m.notation().to_string()).collect(),
            move_syntax: self.strategy.move_syntax(),
            over: position.outcome().is_some(),
            result,
            claim_met,
            can_undo: self.undoable(),
        }
    }

    fn undoable(&self) -> bool {
        let end = self.history.len() - 1;
        (0..end).any(|i| {
            let p = &self.history[i].position;
            p.outcome().is_none() && p.to_move() == self.human
        })
    }
}

/// A game shared between requests (one at a time changes it).
pub type Shared = Arc<Mutex<Game>>;

/// Every game in play.
#[derive(Default)]
pub struct Games {
    inner: Mutex<Store>,
}

#[derive(Default)]
struct Store {
    games: HashMap<u64, (Shared, u64, bool)>,
    clock: u64,
    ids: std::collections::hash_map::RandomState,
}

impl Games {
    /// Keeps `game` under a new random id, evicting the least recently used game when full.
    pub fn insert(&self, game: Game) -> (u64, Shared) {
        let uploaded = game.uploaded;
        let mut store = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let uploads = store.games.values().filter(|(_, _, u)| *u).count();
        // An upload beyond its own bound replaces the oldest upload; any game beyond the
        // whole bound replaces the oldest game.
        let only_uploads = uploaded && uploads >= MAX_UPLOADED_GAMES;
        if only_uploads || store.games.len() >= MAX_GAMES {
            let oldest = store
                .games
                .iter()
                .filter(|(_, (_, _, u))| *u || !only_uploads)
                .min_by_key(|(_, (_, used, _))| *used)
                .map(|(id, _)| *id);
            if let Some(id) = oldest {
                store.games.remove(&id);
            }
        }
        store.clock += 1;
        let id = loop {
            // SipHash keyed by the process's random keys, over a counter: not guessable.
            let mut hasher = store.ids.build_hasher();
            hasher.write_u64(store.clock);
            hasher.write_u64(store.games.len() as u64);
            let id = hasher.finish();
            if !store.games.contains_key(&id) {
                break id;
            }
            store.clock += 1;
        };
        let used = store.clock;
        let shared = Arc::new(Mutex::new(game));
        store.games.insert(id, (shared.clone(), used, uploaded));
        (id, shared)
    }

    /// The game with this id (written in hex), marked as just used.
    pub fn get(&self, id: &str) -> Option<(u64, Shared)> {
        let id = u64::from_str_radix(id, 16).ok()?;
        let mut store = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        store.clock += 1;
        let clock = store.clock;
        let entry = store.games.get_mut(&id)?;
        entry.1 = clock;
        Some((id, entry.0.clone()))
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).games.len()
    }

    /// Whether no game is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::format::{Certificate, Instance};

    fn kayles() -> Strategy {
        let instance = Instance::from_json(
            r#"{"format": "gamecert-instance", "version": 1, "kind": "heap-game",
                "game": "kayles", "heaps": [5, 7, 9]}"#,
        )
        .unwrap();
        let certificate = Certificate::from_json(
            r#"{"format": "gamecert-certificate", "version": 1, "kind": "heap-labelling",
                "claim": "first-player-wins", "values": [0, 1, 2, 3, 1, 4, 3, 2, 1, 4],
                "winning_move": {"heap": 1, "take": 1, "leave": [3, 3]}}"#,
        )
        .unwrap();
        Strategy::from(&instance, &certificate).unwrap()
    }

    /// The certified side opens when it is first; undo goes back to the person's previous
    /// turn, never before the first; a new game on the other side starts with the person.
    #[test]
    fn moves_replies_undo_and_restart() {
        let mut game = Game::new(kayles(), Side::Second, "k".into(), false);
        let start = game.view(1);
        assert!(start.last_move.starts_with("the first player plays "), "{}", start.last_move);
        assert!(!start.can_undo);
        assert!(game.undo().is_err());
        assert!(game.play("9:9").unwrap_err().starts_with("illegal move '9:9'"));
        let first = start.moves[0].clone();
        game.play(&first).unwrap();
        let after = game.view(1);
        assert!(after.can_undo);
        assert_ne!(after.position, start.position);
        game.undo().unwrap();
        assert_eq!(game.view(1).position, start.position);
        while !game.view(1).over {
            let mv = game.view(1).moves[0].clone();
            game.play(&mv).unwrap();
        }
        let end = game.view(1);
        assert_eq!(end.claim_met, Some("true"), "{:?}", end.result);
        assert!(game.play("1:1").unwrap_err().contains("over"));
        game.restart(Side::First);
        let fresh = game.view(1);
        assert_eq!((fresh.side, fresh.last_move.as_str()), ("first", "none yet"));
        assert!(game.hint().starts_with("The certified strategy would play "), "{}", game.hint());
    }

    /// At most MAX_GAMES games, at most MAX_UPLOADED_GAMES from uploads; ids read back.
    #[test]
    fn the_store_is_bounded() {
        let games = Games::default();
        let strategy = kayles();
        let mut ids = Vec::new();
        for _ in 0..MAX_GAMES + 5 {
            let game = Game::new(strategy.clone(), Side::First, "k".into(), false);
            ids.push(games.insert(game).0);
        }
        assert_eq!(games.len(), MAX_GAMES);
        for _ in 0..MAX_UPLOADED_GAMES + 5 {
            let game = Game::new(strategy.clone(), Side::First, "k".into(), true);
            ids.push(games.insert(game).0);
        }
        assert_eq!(games.len(), MAX_GAMES);
        let store = games.inner.lock().unwrap();
        assert_eq!(store.games.values().filter(|(_, _, u)| *u).count(), MAX_UPLOADED_GAMES);
        drop(store);
        // The oldest went first.
        assert!(games.get(&format!("{:x}", ids[0])).is_none());
        let last = ids[ids.len() - 1];
        assert_eq!(games.get(&format!("{last:016x}")).map(|(id, _)| id), Some(last));
        assert!(games.get("not hex").is_none());
        assert!(games.get("").is_none());
    }
}

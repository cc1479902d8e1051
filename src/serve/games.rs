//! The games in play on the server: id -> strategy and history. Bounded in number (at most
//! [`MAX_GAMES`] games, at most [`MAX_UPLOADED_GAMES`] of them from uploads, the least recently
//! used evicted first), in length ([`MAX_HISTORY`] positions a game) and in bytes: a game keeps
//! its start, its current position and the moves between (a position is rebuilt by replaying
//! them when a move is taken back), and what it holds is measured ([`Game::bytes`], by the
//! counting allocator of [`crate::base::held`]: every change of a game is measured as it runs;
//! issue 46 found the estimates a quarter short) and bounded per game (`--max-game-mb`, further moves refused past it) and across all games
//! (`--max-games-mb`, the least recently used dropped past it). Issue 40: a game on 20,000
//! heaps kept every position whole, 151 KB each, and grew the server by 811 MB in a minute.
//!
//! The person's moves are read in the game's notation; the certified side replies as
//! `gamecert play` does. A game's view is computed once per change and kept as JSON, so a page
//! re-reading an unchanged game costs a copy, not a drawing.

use crate::play::{Move, Position, Side, Strategy};
use axum::body::Bytes;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Games kept at once, by default (`--max-games`).
pub const MAX_GAMES: usize = 1000;
/// Games from uploads kept at once, by default (`--max-uploaded-games`; their strategies are
/// as large as their certificates).
pub const MAX_UPLOADED_GAMES: usize = 64;
/// Positions a game keeps (its moves, both sides'), by default (`--max-game-positions`): a
/// longer game is refused further moves.
pub const MAX_HISTORY: usize = 10_000;
/// Legal moves listed in one answer (a coin game can have tens of thousands): any legal move
/// can still be sent by its notation.
pub const MAX_LISTED_MOVES: usize = 1000;
/// Bytes of move notation listed in one answer: a coin game's move names every coin it turns
/// (hundreds of characters), and its first 1,000 moves made a 968 KB answer (issue 40).
pub const MAX_LISTED_MOVE_BYTES: usize = 64 << 10;

/// One move of a game, the words said about it and what it leaves.
struct Step {
    /// The move that led here (`None` for the start).
    mv: Option<Move>,
    /// "W plays a" (with a note when the certificate gave no move), `None` at the start.
    last: Option<String>,
    /// Whether the position after it is the person's turn in a game not over (where undo
    /// returns to).
    yours: bool,
}

/// A game: the strategy, the person's side, the moves so far and the position they reach.
pub struct Game {
    strategy: Strategy,
    /// The bytes the strategy is counted for: an upload's own (as measured when it was read);
    /// 0 for a gallery case, whose strategy the gallery holds for every game of it.
    strategy_bytes: usize,
    human: Side,
    /// What the page's heading names: the case, or the uploaded files.
    title: String,
    /// The board's caption (the case's name and description, or the files).
    caption: String,
    uploaded: bool,
    /// The most bytes the moves may take (`--max-game-mb`): further moves are refused.
    max_bytes: usize,
    /// The most positions kept (`--max-game-positions`): likewise.
    max_positions: usize,
    start: Position,
    current: Position,
    /// Every move from the start (the first step is the start itself).
    steps: Vec<Step>,
    /// The bytes the positions and steps hold, as measured by every change (see [`Game::change`]).
    held: isize,
    /// The bytes of the start alone (what a game holds before its first move).
    start_held: isize,
    /// The view as sent, until the game changes.
    answer: Option<Bytes>,
}

/// What the page shows of a game after each request.
#[derive(Serialize)]
pub struct View {
    pub id: String,
    /// The case's name, or the uploaded files' names: the page's heading.
    pub title: String,
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

/// Where a new game comes from.
pub enum Origin {
    /// A gallery case (its strategy is the gallery's).
    Gallery,
    /// Uploaded files, whose strategy is counted for `bytes`.
    Upload { bytes: usize },
}

impl Game {
    /// A new game of `strategy` with the person on `human`'s side, headed `title` on the page
    /// and `caption` on the board, its moves bounded by `max_bytes` and `max_positions`; the certified side moves
    /// first if it is its turn.
    pub fn new(
        strategy: Strategy,
        human: Side,
        (title, caption): (String, String),
        origin: Origin,
        (max_bytes, max_positions): (usize, usize),
    ) -> Game {
        let (uploaded, strategy_bytes) = match origin {
            Origin::Gallery => (false, 0),
            Origin::Upload { bytes } => (true, bytes),
        };
        let ((start, current), start_held) =
            crate::base::held::measure_change(|| (strategy.start(), strategy.start()));
        let mut game = Game {
            strategy,
            strategy_bytes,
            human,
            title,
            caption,
            uploaded,
            max_bytes,
            max_positions,
            current,
            start,
            steps: Vec::new(),
            held: start_held,
            start_held: start_held / 2,
            answer: None,
        };
        game.restart(human);
        game
    }

    /// Runs `work` on the game, measuring what it leaves held (the old view is dropped outside
    /// the measure: a view still being sent is freed later, elsewhere).
    fn change<T>(&mut self, work: impl FnOnce(&mut Game) -> T) -> T {
        let old_view = self.answer.take();
        let (value, change) = crate::base::held::measure_change(|| work(self));
        self.held = self.held.saturating_add(change);
        drop(old_view);
        value
    }

    /// Back to the start, the person now on `human`'s side.
    pub fn restart(&mut self, human: Side) {
        self.change(|game| {
            game.human = human;
            game.current = game.start.clone();
            game.steps = Vec::new();
            let yours = game.yours(&game.start.clone());
            game.push(Step { mv: None, last: None, yours }, None);
            game.advance();
        })
    }

    /// The bytes the moves hold (what the game holds beyond its start).
    fn moves_held(&self) -> usize {
        usize::try_from(self.held.saturating_sub(2 * self.start_held)).unwrap_or(0)
    }

    /// Whether `position` is the person's turn in a game not over.
    fn yours(&self, position: &Position) -> bool {
        position.outcome().is_none() && position.to_move() == self.human
    }

    /// Keeps `step`, which leads to `next` (the current position when `None`).
    fn push(&mut self, step: Step, next: Option<Position>) {
        self.steps.push(step);
        if let Some(next) = next {
            self.current = next;
        }
        self.answer = None;
    }

    /// The certified side's moves until the person is to move or the game is over, as `play`
    /// makes them: the strategy's reply, or the first legal move (and it says so).
    fn advance(&mut self) {
        let it = self.strategy.side_name(self.human.other());
        while self.steps.len() < self.max_positions {
            let position = &self.current;
            if position.outcome().is_some() || position.to_move() == self.human {
                return;
            }
            let (mv, note) = match self.strategy.reply(position) {
                Some(mv) => (mv, ""),
                None => match position.legal_moves().into_iter().next() {
                    Some(mv) => (mv, " (the certificate gives no move here: the first legal move)"),
                    None => return,
                },
            };
            let next = position.apply(&mv);
            let last = Some(format!("{it} plays {mv}{note}"));
            let yours = self.yours(&next);
            self.push(Step { mv: Some(mv), last, yours }, Some(next));
        }
    }

    /// The side a person plays by default (the one the certificate proves cannot win).
    pub fn default_human(&self) -> Side {
        self.strategy.default_human()
    }

    /// The person's move, in the game's notation; the certified side answers.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        self.change(|game| game.play_unmeasured(text))
    }

    fn play_unmeasured(&mut self, text: &str) -> Result<(), String> {
        let position = &self.current;
        if position.outcome().is_some() {
            return Err("the game is over: New game starts another".into());
        }
        // Before the turn: a game that stopped at its length is past any one's turn.
        if self.steps.len() >= self.max_positions {
            return Err(format!(
                "a game keeps at most {} positions (--max-game-positions): New game starts \
                 another",
                self.max_positions
            ));
        }
        if position.to_move() != self.human {
            return Err("it is not your turn".into());
        }
        if self.moves_held() >= self.max_bytes {
            return Err(format!(
                "this game's moves fill the {} bytes a game may keep (--max-game-mb): New game \
                 starts another",
                crate::base::limits::grouped(self.max_bytes as u128)
            ));
        }
        // The page's words: its buttons are the legal moves (the terminal's `moves` is not here).
        let mv = position.parse_move(text).map_err(|why| {
            format!(
                "illegal move '{text}': {why} (the buttons under Your moves are the legal ones)"
            )
        })?;
        let you = self.strategy.side_name(self.human);
        let next = position.apply(&mv);
        let last = Some(format!("{you} (you) plays {mv}"));
        let yours = self.yours(&next);
        self.push(Step { mv: Some(mv), last, yours }, Some(next));
        self.advance();
        Ok(())
    }

    /// The certified strategy's move at the person's position, in words.
    pub fn hint(&self) -> String {
        let position = &self.current;
        if position.outcome().is_some() {
            return "The game is over.".into();
        }
        let you = self.strategy.side_name(self.human);
        match self.strategy.reply(position) {
            Some(mv) => format!("The certified strategy would play {mv} here."),
            // The person plays the side the certificate proves cannot win: say so, and how to
            // get hints (the page's "Play as" and "New game").
            None if !self.strategy.certifies(self.human) => format!(
                "This certificate holds a strategy for {} only (it proves that {}); it cannot \
                 advise {you}. Switch sides (Play as: {}, then New game) to get hints.",
                self.strategy.side_name(self.human.other()),
                self.strategy.stated_claim(),
                match self.human.other() {
                    Side::First => "first",
                    Side::Second => "second",
                }
            ),
            None => "The certificate gives no move at this position.".into(),
        }
    }

    /// Back to the person's previous turn (before their last move and the reply to it): the
    /// position rebuilt by replaying the moves from the start.
    pub fn undo(&mut self) -> Result<(), String> {
        self.change(Game::undo_unmeasured)
    }

    fn undo_unmeasured(&mut self) -> Result<(), String> {
        let end = self.steps.len() - 1;
        let Some(earlier) = (0..end).rev().find(|&i| self.steps[i].yours) else {
            return Err("there is no earlier move of yours to take back".into());
        };
        let mut position = self.start.clone();
        for step in &self.steps[1..=earlier] {
            if let Some(mv) = &step.mv {
                position = position.apply(mv);
            }
        }
        self.steps.truncate(earlier + 1);
        self.current = position;
        self.answer = None;
        Ok(())
    }

    /// The bytes this game is counted for: its strategy when its own, its positions and moves
    /// (measured) and its view as last sent.
    pub fn bytes(&self) -> usize {
        let view = self.answer.as_ref().map_or(0, |view| {
            std::alloc::Layout::array::<u8>(view.len()).map_or(view.len(), crate::base::held::chunk)
        });
        self.strategy_bytes + usize::try_from(self.held).unwrap_or(0) + view
    }

    /// The view as last sent, if the game has not changed since (no drawing needed).
    pub fn cached(&self) -> Option<Bytes> {
        self.answer.clone()
    }

    /// The view as JSON, drawn once per change of the game.
    pub fn answer(&mut self, id: u64) -> Bytes {
        if let Some(answer) = &self.answer {
            return answer.clone();
        }
        // A view is plain strings, numbers and booleans: serialising it cannot fail.
        let json = serde_json::to_vec(&self.view(id)).unwrap_or_default();
        let answer = Bytes::from(json);
        self.answer = Some(answer.clone());
        answer
    }

    /// What the page shows.
    pub fn view(&self, id: u64) -> View {
        let position = &self.current;
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
            Some(_) => "nobody: the game is over".to_string(),
            None if position.to_move() == self.human => format!("{you} (you) to move"),
            None => format!("{it} to move"),
        };
        let last_move =
            self.steps.last().and_then(|s| s.last.clone()).unwrap_or_else(|| "none yet".into());
        // Drawn as a player sees it: no labels or values that would give the strategy away.
        let board = super::gallery::bounded_picture(position.board(&self.caption), &self.caption);
        View {
            id: format!("{id:016x}"),
            title: self.title.clone(),
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
            moves: listed(&moves),
            move_syntax: self.strategy.move_syntax(),
            over: position.outcome().is_some(),
            result,
            claim_met,
            can_undo: self.steps[..self.steps.len() - 1].iter().any(|s| s.yours),
        }
    }
}

/// The moves an answer lists: the first [`MAX_LISTED_MOVES`], cut where their notation passes
/// [`MAX_LISTED_MOVE_BYTES`] (at least one is always listed).
fn listed(moves: &[Move]) -> Vec<String> {
    let mut bytes = 0;
    let mut listed = Vec::new();
    for mv in moves.iter().take(MAX_LISTED_MOVES) {
        bytes += mv.notation().len();
        if bytes > MAX_LISTED_MOVE_BYTES && !listed.is_empty() {
            break;
        }
        listed.push(mv.notation().to_string());
    }
    listed
}

/// A game shared between requests (one at a time changes it).
pub type Shared = Arc<Mutex<Game>>;

/// Every game in play.
pub struct Games {
    inner: Mutex<Store>,
    /// The most bytes all games together are counted for (`--max-games-mb`).
    max_bytes: usize,
    /// The most games kept (`--max-games`), and of them from uploads (`--max-uploaded-games`).
    max_games: usize,
    max_uploaded: usize,
}

struct Entry {
    game: Shared,
    /// The store's clock when it was last used.
    used: u64,
    uploaded: bool,
    /// What the game was counted for when last changed.
    bytes: usize,
}

#[derive(Default)]
struct Store {
    games: HashMap<u64, Entry>,
    bytes: usize,
    clock: u64,
}

impl Store {
    /// Drops the least recently used game (an upload when `only_uploads`), never `keep`;
    /// whether one was dropped.
    fn evict(&mut self, only_uploads: bool, keep: Option<u64>) -> bool {
        let oldest = self
            .games
            .iter()
            .filter(|(id, entry)| (entry.uploaded || !only_uploads) && Some(**id) != keep)
            .min_by_key(|(_, entry)| entry.used)
            .map(|(id, _)| *id);
        match oldest.and_then(|id| self.games.remove(&id)) {
            Some(entry) => {
                self.bytes -= entry.bytes;
                true
            }
            None => false,
        }
    }
}

impl Games {
    /// No games yet; all of them together bounded by `max_bytes`, at most `max_games` of them
    /// and `max_uploaded` of those from uploads.
    pub fn new(max_bytes: usize, (max_games, max_uploaded): (usize, usize)) -> Games {
        Games { inner: Mutex::new(Store::default()), max_bytes, max_games, max_uploaded }
    }

    /// Keeps `game` under a new random id, evicting the least recently used games while the
    /// store is full (in number, in uploads, or in bytes); refused when the game alone is
    /// counted for more than all games may be.
    pub fn insert(&self, game: Game) -> Result<(u64, Shared), String> {
        let uploaded = game.uploaded;
        let bytes = game.bytes();
        if bytes > self.max_bytes {
            return Err(format!(
                "this game would hold about {} bytes, more than all games together may \
                 (--max-games-mb)",
                crate::base::limits::grouped(bytes as u128)
            ));
        }
        let mut store = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        // An upload beyond its own bound replaces the oldest upload; any game beyond the
        // whole bound replaces the oldest game.
        let uploads = store.games.values().filter(|entry| entry.uploaded).count();
        if uploaded && uploads >= self.max_uploaded {
            store.evict(true, None);
        }
        while store.games.len() >= self.max_games || store.bytes + bytes > self.max_bytes {
            if !store.evict(false, None) {
                break;
            }
        }
        store.clock += 1;
        let id = loop {
            // From the system's random source: one game's id says nothing of another's.
            let id = getrandom::u64().map_err(|e| format!("no random id for a new game: {e}"))?;
            if !store.games.contains_key(&id) {
                break id;
            }
        };
        let used = store.clock;
        let shared = Arc::new(Mutex::new(game));
        store.bytes += bytes;
        store.games.insert(id, Entry { game: shared.clone(), used, uploaded, bytes });
        Ok((id, shared))
    }

    /// The game with this id (written in hex), marked as just used.
    pub fn get(&self, id: &str) -> Option<(u64, Shared)> {
        let id = u64::from_str_radix(id, 16).ok()?;
        let mut store = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        store.clock += 1;
        let clock = store.clock;
        let entry = store.games.get_mut(&id)?;
        entry.used = clock;
        Some((id, entry.game.clone()))
    }

    /// Game `id` is now counted for `bytes`: the least recently used other games are dropped
    /// while all of them are counted for more than the bound.
    pub fn resize(&self, id: u64, bytes: usize) {
        let mut store = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let Some(entry) = store.games.get_mut(&id) else {
            return; // dropped meanwhile: nothing is counted for it any more
        };
        let before = std::mem::replace(&mut entry.bytes, bytes);
        store.bytes = store.bytes - before + bytes;
        while store.bytes > self.max_bytes {
            if !store.evict(false, Some(id)) {
                break;
            }
        }
    }

    /// How many games are kept.
    pub fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).games.len()
    }

    /// Whether no game is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes all kept games are counted for.
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).bytes
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

    const MB: usize = 1 << 20;

    fn game(uploaded: bool) -> Game {
        let origin = if uploaded { Origin::Upload { bytes: 1000 } } else { Origin::Gallery };
        Game::new(kayles(), Side::First, ("k".into(), "k".into()), origin, (16 * MB, MAX_HISTORY))
    }

    /// The certified side opens when it is first; undo goes back to the person's previous
    /// turn (the position rebuilt from the moves), never before the first; a new game on the
    /// other side starts with the person.
    #[test]
    fn moves_replies_undo_and_restart() {
        let mut game = Game::new(
            kayles(),
            Side::Second,
            ("k".into(), "k".into()),
            Origin::Gallery,
            (16 * MB, MAX_HISTORY),
        );
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
        let second = after.moves[0].clone();
        game.play(&second).unwrap();
        let later = game.view(1);
        game.undo().unwrap();
        assert_eq!(game.view(1).position, after.position);
        assert_eq!(game.view(1).last_move, after.last_move);
        game.undo().unwrap();
        assert_eq!(game.view(1).position, start.position);
        assert_ne!(later.position, start.position);
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

    /// On the side the certificate does not cover, the hint says so in plain words and how to
    /// switch sides (issue 48).
    #[test]
    fn the_uncovered_side_is_told_to_switch_sides() {
        let game = Game::new(
            kayles(),
            Side::Second,
            ("k".into(), "k".into()),
            Origin::Gallery,
            (16 * MB, MAX_HISTORY),
        );
        assert_eq!(
            game.hint(),
            format!(
                "This certificate holds a strategy for the first player only (it proves that \
                 {}); it cannot advise the second player. Switch sides (Play as: first, then \
                 New game) to get hints.",
                game.strategy.stated_claim()
            )
        );
    }

    /// The view is drawn once per change: the same bytes until a move, then new ones; the
    /// bytes a game is counted for follow its moves back and forth.
    #[test]
    fn the_view_is_kept_until_the_game_changes() {
        let mut game = game(false);
        assert!(game.cached().is_none());
        let before = game.bytes();
        let answer = game.answer(7);
        assert_eq!(game.cached().as_ref(), Some(&answer));
        let view = crate::base::held::chunk(std::alloc::Layout::array::<u8>(answer.len()).unwrap());
        assert_eq!(game.bytes(), before + view);
        let view: serde_json::Value = serde_json::from_slice(&answer).unwrap();
        assert_eq!(view["id"], "0000000000000007");
        let first = view["moves"][0].as_str().unwrap().to_string();
        game.play(&first).unwrap();
        assert!(game.cached().is_none());
        let after = game.bytes();
        assert!(after > before, "two moves are counted");
        game.undo().unwrap();
        assert!(game.cached().is_none());
        assert!(game.bytes() < after, "taken back, they are counted no more");
        assert!(game.answer(7) == answer, "back at the start, the same view is drawn again");
    }

    /// A game's length is bounded (`--max-game-positions`): past it, a move is refused.
    #[test]
    fn a_game_is_bounded_in_positions() {
        let mut game = Game::new(
            kayles(),
            Side::First,
            ("k".into(), "k".into()),
            Origin::Gallery,
            (16 * MB, 2),
        );
        let first = game.view(1).moves[0].clone();
        game.play(&first).unwrap();
        let next = game.view(1).moves.first().expect("heaps of 5, 7 and 9 leave moves").clone();
        let refused = game.play(&next).unwrap_err();
        assert!(refused.contains("at most 2 positions (--max-game-positions)"), "{refused}");
    }

    /// A game's moves are bounded in bytes, as measured: past `max_bytes`, a move is refused.
    #[test]
    fn a_game_is_bounded_in_bytes() {
        let limited = |max_bytes| {
            let names = ("k".into(), "k".into());
            Game::new(kayles(), Side::First, names, Origin::Gallery, (max_bytes, MAX_HISTORY))
        };
        let mut game = limited(10);
        let first = game.view(1).moves[0].clone();
        assert!(game.play(&first).unwrap_err().contains("--max-game-mb"));
        // What one move and its reply hold, measured: a game allowed that much takes the
        // first move and refuses the second.
        let mut game = limited(MB);
        let before = game.moves_held();
        game.play(&first).unwrap();
        let one = game.moves_held();
        assert!(one > before, "a move and its reply hold {one} bytes, {before} before");
        let mut game = limited(one);
        game.play(&first).unwrap();
        let next = game.view(1).moves[0].clone();
        let refused = game.play(&next).unwrap_err();
        assert!(refused.contains("--max-game-mb"), "{refused}");
    }

    /// Long lists of moves are cut by count and by bytes, at least one move listed.
    #[test]
    fn listed_moves_are_cut() {
        let strategy = kayles();
        let moves = strategy.start().legal_moves();
        assert_eq!(listed(&moves).len(), moves.len());
        let long: Vec<Move> = moves.iter().cycle().take(3 * MAX_LISTED_MOVES).cloned().collect();
        assert_eq!(listed(&long).len(), MAX_LISTED_MOVES);
        let total: usize = listed(&long).iter().map(String::len).sum();
        assert!(total <= MAX_LISTED_MOVE_BYTES);
    }

    /// At most MAX_GAMES games, at most MAX_UPLOADED_GAMES from uploads; ids read back.
    #[test]
    fn the_store_is_bounded() {
        let games = Games::new(usize::MAX, (MAX_GAMES, MAX_UPLOADED_GAMES));
        let mut ids = Vec::new();
        for _ in 0..MAX_GAMES + 5 {
            ids.push(games.insert(game(false)).unwrap().0);
        }
        assert_eq!(games.len(), MAX_GAMES);
        for _ in 0..MAX_UPLOADED_GAMES + 5 {
            ids.push(games.insert(game(true)).unwrap().0);
        }
        assert_eq!(games.len(), MAX_GAMES);
        let store = games.inner.lock().unwrap();
        assert_eq!(store.games.values().filter(|e| e.uploaded).count(), MAX_UPLOADED_GAMES);
        drop(store);
        // The oldest went first.
        assert!(games.get(&format!("{:x}", ids[0])).is_none());
        let last = ids[ids.len() - 1];
        assert_eq!(games.get(&format!("{last:016x}")).map(|(id, _)| id), Some(last));
        assert!(games.get("not hex").is_none());
        assert!(games.get("").is_none());
    }

    /// All games together are bounded in bytes: the least recently used go first, a game
    /// grown past the bound drops the others (never itself), one too large alone is refused.
    #[test]
    fn the_store_is_bounded_in_bytes() {
        let one = game(true).bytes();
        let games = Games::new(3 * one, (MAX_GAMES, MAX_UPLOADED_GAMES));
        let ids: Vec<u64> = (0..3).map(|_| games.insert(game(true)).unwrap().0).collect();
        assert_eq!((games.len(), games.bytes()), (3, 3 * one));
        assert!(games.get(&format!("{:x}", ids[0])).is_some()); // the first is now the newest
        games.insert(game(true)).unwrap();
        assert_eq!(games.len(), 3);
        assert!(games.get(&format!("{:x}", ids[1])).is_none(), "the least recently used went");
        assert!(games.get(&format!("{:x}", ids[0])).is_some());
        games.resize(ids[0], 3 * one);
        assert_eq!(games.len(), 1);
        assert_eq!(games.bytes(), 3 * one);
        let big = Game::new(
            kayles(),
            Side::First,
            ("k".into(), "k".into()),
            Origin::Upload { bytes: 4 * one },
            (MB, MAX_HISTORY),
        );
        let refused = games.insert(big).err().expect("too large to keep");
        assert!(refused.contains("--max-games-mb"), "{refused}");
    }
}

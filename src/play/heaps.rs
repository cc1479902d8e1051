//! Heap games (`heap-labelling`: octal games and Grundy's game), played in heap sizes.
//!
//! Notation: a position is the heap sizes, `5 7 9`; a move names a heap (1-based, left to
//! right) and what it becomes: `2:3+3` (heap 2 becomes heaps of 3 and 3), `1:4` (heap 1 becomes
//! 4), `3:0` (heap 3 is taken whole). The tokens removed are the difference.
//!
//! The strategy is the labelling's: the checker verified every label as the mex of its options
//! and the sum rule (Sprague-Grundy), so at a position of non-zero value the move to value 0
//! wins; at the start it is the certificate's own winning move. At a position of value 0 there
//! is no winning move, and the labelling gives none.
//!
//! Pictures ([`crate::impartial::pictures`]): each heap a row of tokens with its Grundy value,
//! the marked move's tokens crossed out. Clicking token j of a heap (from 1 at the left) plays
//! the move that takes tokens j to the end when the rules allow it, else the fewest tokens from
//! token j on (the heap split around them), else any move taking token j; in Grundy's game it
//! splits the heap after token j. Tokens no move takes are not clickable.

use super::{brief, Family, Outcome, Side, SHOWN};
use crate::impartial::pictures::{board_words, heaps_picture};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::impartial::heaps::{HeapGame, HeapLabelling, Rules};

pub(crate) struct Heaps {
    rules: Rules,
    heaps: Vec<u64>,
    labelling: HeapLabelling,
}

/// A move: heap index (0-based) and the heaps it leaves.
type HeapMove = (usize, Vec<u64>);

impl Heaps {
    pub(crate) fn new(game: &HeapGame, labelling: &HeapLabelling) -> Result<Heaps, String> {
        let rules = Rules::parse(&game.game)?;
        Ok(Heaps { rules, heaps: game.heaps.clone(), labelling: labelling.clone() })
    }

    /// The Grundy value of one heap, from the labels or (beyond them) the verified period.
    fn label(&self, n: u64) -> u64 {
        let values = &self.labelling.values;
        match usize::try_from(n).ok().and_then(|i| values.get(i)) {
            Some(&v) => v,
            None => {
                let p =
                    self.labelling.period.expect("the checker verified the labels cover the heaps");
                values[(p.from + (n - p.from) % p.length) as usize]
            }
        }
    }

    fn value(&self, heaps: &[u64]) -> u64 {
        heaps.iter().fold(0, |x, &h| x ^ self.label(h))
    }

    fn first_side(&self) -> Side {
        if self.value(&self.heaps) != 0 {
            Side::First
        } else {
            Side::Second
        }
    }
}

impl Family for Heaps {
    /// The heaps, and whose turn it is (0 the first player's, 1 the second's).
    type State = (Vec<u64>, u64);
    type Move = HeapMove;

    fn start(&self) -> Self::State {
        (self.heaps.clone(), 0)
    }

    fn to_move(&self, state: &Self::State) -> Side {
        if state.1 % 2 == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self, (heaps, _): &Self::State) -> Vec<HeapMove> {
        let mut moves = Vec::new();
        for (i, &n) in heaps.iter().enumerate() {
            self.rules.for_each_option(n, |leave| moves.push((i, leave.to_vec())));
        }
        moves
    }

    fn apply(&self, (heaps, turn): &Self::State, (i, leave): &HeapMove) -> Self::State {
        let mut next = heaps[..*i].to_vec();
        next.extend(leave);
        next.extend(&heaps[i + 1..]);
        (next, 1 - turn)
    }

    fn write_move(&self, _: &Self::State, (i, leave): &HeapMove) -> String {
        let parts: Vec<String> = leave.iter().map(u64::to_string).collect();
        format!("{}:{}", i + 1, if parts.is_empty() { "0".into() } else { parts.join("+") })
    }

    fn read_move(&self, (heaps, _): &Self::State, text: &str) -> Result<HeapMove, String> {
        let syntax = "a move is HEAP:REST, e.g. `2:3+3` (heap 2 becomes heaps of 3 and 3), \
                      `1:4`, `3:0` (heap 3 taken whole)";
        let (heap, rest) = text.split_once(':').ok_or(syntax)?;
        let i = heap.trim().parse::<usize>().map_err(|_| syntax.to_string())?;
        if i == 0 || i > heaps.len() {
            return Err(format!("there is no heap {i}: the heaps are 1 to {}", heaps.len()));
        }
        let mut leave = Vec::new();
        for part in rest.split('+') {
            let h = part.trim().parse::<u64>().map_err(|_| syntax.to_string())?;
            if h > 0 {
                leave.push(h);
            }
        }
        leave.sort_unstable();
        let n = heaps[i - 1];
        let kept = leave.iter().try_fold(0u64, |s, &h| s.checked_add(h)).filter(|&s| s <= n);
        let Some(kept) = kept else {
            return Err(format!("heap {i} has {}: it cannot become more", counted(n, "token")));
        };
        if !self.rules.is_legal(n, n - kept, &leave) {
            return Err(format!(
                "the rules of {} do not allow taking {} from a heap of {n} and leaving {}",
                self.rules.code(),
                n - kept,
                counted(leave.len(), "heap")
            ));
        }
        Ok((i - 1, leave))
    }

    fn move_syntax(&self) -> String {
        format!(
            "a move is HEAP:REST, e.g. `2:3+3` (heap 2 becomes heaps of 3 and 3), `1:4`, `3:0` \
             (heap 3 taken whole); the game is {}, and whoever cannot move loses",
            self.rules.code()
        )
    }

    fn write_position(&self, (heaps, turn): &Self::State) -> String {
        let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let turn = if *turn == 0 { "" } else { " (second to move)" };
        format!("{}{turn}", sizes.join(" "))
    }

    fn read_position(&self, text: &str) -> Result<Self::State, String> {
        let (sizes, second) = match text.strip_suffix("(second to move)") {
            Some(rest) => (rest, true),
            None => (text, false),
        };
        let mut heaps = Vec::new();
        for word in super::words(sizes) {
            let h = word.parse::<u64>().map_err(|_| {
                format!("'{word}' is not a heap size (a position is the heap sizes, `5 7 9`)")
            })?;
            if !self.label_covers(h) {
                return Err(format!("heap {h} is beyond what the labelling covers"));
            }
            heaps.push(h);
        }
        Ok((heaps, u64::from(second)))
    }

    fn draw(&self, (heaps, _): &Self::State) -> String {
        if heaps.is_empty() {
            return "  no heap left\n".into();
        }
        // A few heaps as rows of tokens; many as one line of sizes.
        if heaps.len() > 5 {
            let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
            return format!("  heaps 1 to {}: {}\n", heaps.len(), brief(&sizes, 2 * SHOWN));
        }
        let mut out = String::new();
        for (i, &h) in heaps.iter().enumerate() {
            let bar =
                if h <= 40 { "|".repeat(h as usize) } else { format!("{}...", "|".repeat(40)) };
            out.push_str(&format!("  heap {}: {bar} ({h})\n", i + 1));
        }
        out
    }

    fn summary(&self, (heaps, _): &Self::State) -> String {
        // The sizes only: the Grundy values would give the strategy away.
        let sizes: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let tokens = heaps.iter().fold(0u64, |sum, &h| sum.saturating_add(h));
        match heaps.len() {
            0 => "no heap left".into(),
            n => format!(
                "{}: {}; {} in all",
                counted(n, "heap"),
                brief(&sizes, SHOWN),
                counted(tokens, "token")
            ),
        }
    }

    fn outcome(&self, state: &Self::State) -> Option<Outcome> {
        if !self.moves(state).is_empty() {
            return None;
        }
        let winner = self.to_move(state).other();
        let result = format!(
            "{} cannot move and loses: {} wins",
            self.side_name(winner.other()),
            self.side_name(winner)
        );
        Some(Outcome { winner: Some(winner), result })
    }

    fn reply(&self, state: &Self::State) -> Option<HeapMove> {
        if *state == self.start() {
            if let Some(m) = &self.labelling.winning_move {
                return Some((m.heap, m.leave.clone()));
            }
        }
        let (heaps, _) = state;
        let total = self.value(heaps);
        if total == 0 {
            return None;
        }
        let mut found = None;
        for (i, &n) in heaps.iter().enumerate() {
            let rest = total ^ self.label(n);
            self.rules.for_each_option(n, |leave| {
                let value = leave.iter().fold(0, |x, &h| x ^ self.label(h));
                if found.is_none() && value == rest {
                    found = Some((i, leave.to_vec()));
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

    fn claim_met(&self, state: &Self::State, side: Side) -> Option<bool> {
        (side == self.first_side())
            .then(|| self.outcome(state).and_then(|o| o.winner) == Some(side))
    }

    /// The heaps as rows of tokens ([`crate::impartial::pictures`]), each with its Grundy value
    /// from the checked labelling; the caption says whose turn it is, the position's value and
    /// what the certificate claims.
    fn svg(&self, state: &Self::State, marked: Option<&HeapMove>, caption: &str) -> String {
        let heaps = &state.0;
        let values: Vec<u64> = heaps.iter().map(|&h| self.label(h)).collect();
        let total = self.value(heaps);
        let mut notes = vec![format!(
            "{}; {} to move. Grundy values g from the checked labelling, nim sum {total}: {}.",
            board_words(&self.rules, heaps),
            self.side_name(self.to_move(state)),
            if total == 0 { "the player to move loses" } else { "the player to move wins" }
        )];
        notes.push(format!(
            "Certified (heap-labelling): {} wins from the start.",
            self.side_name(self.first_side())
        ));
        notes.extend(marked.map(|m| marked_words(heaps, m, &self.write_move(state, m))));
        let marked = marked.map(|(i, leave)| (*i, leave.as_slice()));
        heaps_picture(&self.rules, heaps, marked, Some(&values), caption, &notes)
    }

    /// The heaps as a player sees them: their sizes and whose turn it is, no Grundy value and
    /// no nim sum (they would give the strategy away; `play` and `summary` keep them too).
    fn board(&self, state: &Self::State, caption: &str) -> String {
        let heaps = &state.0;
        let turn = match self.outcome(state) {
            Some(outcome) => outcome.result,
            None => format!("{} to move", self.side_name(self.to_move(state))),
        };
        let notes = vec![format!("{}; {turn}.", board_words(&self.rules, heaps))];
        heaps_picture(&self.rules, heaps, None, None, caption, &notes)
    }
}

impl Heaps {
    /// Whether the labels (or their verified period) give heap `h` a value.
    fn label_covers(&self, h: u64) -> bool {
        (h as usize) < self.labelling.values.len() || self.labelling.period.is_some()
    }
}

/// What the marked move does, in words.
fn marked_words(heaps: &[u64], (i, leave): &HeapMove, notation: &str) -> String {
    let n = heaps.get(*i).copied().unwrap_or(0);
    let taken = n.saturating_sub(leave.iter().sum());
    let left = match leave.as_slice() {
        [] => "nothing".to_string(),
        [a] => format!("a heap of {a}"),
        parts => format!(
            "heaps of {}",
            parts.iter().map(u64::to_string).collect::<Vec<_>>().join(" and ")
        ),
    };
    if taken == 0 {
        format!("Marked, {notation}: heap {} splits (dashed red line) into {left}.", i + 1)
    } else {
        format!(
            "Marked, {notation}: heap {} loses {} (crossed out in red) and leaves {left}.",
            i + 1,
            counted(taken, "token")
        )
    }
}

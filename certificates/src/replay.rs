//! The one replay engine: walks a strategy against every opponent move, for every strategy kind.
//!
//! A game's rules implement [`Rules`] over one current position that [`Rules::play`] and
//! [`Rules::undo`] change move by move (so a position is never copied unless the game wants
//! to). [`replay`] walks depth first with an explicit stack (no recursion a file can drive),
//! visits each position once (by [`Rules::key`], an exact code or a 128-bit fingerprint, see
//! [`crate::base::fingerprint`]), charges the budget before each visit, and asks the rules
//! what the position is ([`Rules::expand`]):
//!
//! - [`Node::Leaf`]: the game is over (or settled) and the rules have checked that the
//!   strategy's claim holds there;
//! - [`Node::Moves`]: the moves to follow — at the strategy's turn the one move its certificate
//!   gives (checked legal), at the opponent's turn every legal move, except those the rules
//!   fold onto another by a symmetry they have verified (a permutation checked to be an
//!   automorphism fixing the position, a twin class, a verified generator's orbit, or an
//!   explicit relabelling onto a listed position).
//!
//! Why this proves the claim: every play consistent with the strategy passes through positions
//! the walk visits, because every opponent move is followed (or folded onto an equivalent one
//! whose subtree is isomorphic, by a verified symmetry) and the strategy's move is the only one
//! it makes; the game is finite and acyclic (every move adds a stone, an edge or removes
//! weight), so every play ends at a leaf, where the rules check the claim. A position met again
//! has the same subtree, so visiting it once suffices.
//!
//! What a family keeps is only its rules and its certificate format.
//!
//! # What a [`Rules`] implementation must do (the budget)
//!
//! The engine charges each visit ([`FINGERPRINT_COST`]); everything else is the rules' to
//! charge, and always before it is built, since the engine holds every [`Node::Moves`] list on
//! its stack:
//!
//! - **Count, then charge, then list.** At the opponent's turn, count the moves without listing
//!   them (a weight, a heap, a subset size can make the count astronomical) and charge the count
//!   times what each move costs, the move held in the list and the position it leads to, before
//!   the vector is built. Never list first and charge per item afterwards: a list of 10^8 moves
//!   is gigabytes before the first charge refuses it (issue 24; vertex nim did this).
//! - **Test the strategy's move, do not search for it.** At the strategy's turn, decide the
//!   certificate's move legal directly ([`Node::Moves`] of one move), not by looking it up in a
//!   list of every legal move.
//! - **A position that can grow is refused before it is built.** When [`Rules::play`] builds a
//!   position whose size may grow with the move (vertex nim's emptied vertex joins its
//!   neighbourhood, quadratic in its degree), it first [`Budget::require`]s an upper bound.
//! - **Counting is charged too.** A count computed only to be charged must itself cost no more
//!   than what it charges, or be charged first (see [`crate::base::budget`]).

use crate::base::budget::Budget;
use crate::base::fingerprint::{Fold, FINGERPRINT_COST};
use std::collections::HashSet;

/// What the replay finds at a position.
pub enum Node<M> {
    /// Over: the rules have checked the claim here.
    Leaf,
    /// The moves to follow from here (the strategy's one move, or the opponent's moves).
    Moves(Vec<M>),
}

/// A game's rules, as the replay sees them: one current position, changed move by move.
pub trait Rules {
    type Move: Copy;

    /// The current position's key: equal keys mean the same position (an exact code, or a
    /// fingerprint whose collisions are a documented 2^-128 risk).
    fn key(&self) -> u128;

    /// What the current position is. An `Err` names what failed (a strategy with no move or an
    /// illegal one, a leaf where the claim fails, a symmetry that does not verify); the rules
    /// charge `budget` for the work they do here.
    fn expand(&mut self, budget: &mut Budget) -> Result<Node<Self::Move>, String>;

    /// Plays `m` at the current position.
    fn play(&mut self, m: Self::Move, budget: &mut Budget) -> Result<(), String>;

    /// Takes back `m`, the last move played.
    fn undo(&mut self, m: Self::Move);
}

/// What a replay did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Walked {
    /// Positions visited, each once.
    pub positions: u64,
    /// Leaves among them.
    pub leaves: u64,
}

/// The visited set. Keys are multiplied by a secret random odd number first: a bijection, so
/// exact keys stay exact, while the set's cheap hasher (which trusts its keys to be random)
/// cannot be fed colliding keys by a crafted file.
struct Seen {
    set: HashSet<u128, Fold>,
    scramble: u128,
}

impl Seen {
    fn new() -> Seen {
        let state = crate::base::fingerprint::Secret::default();
        let half = |t: u64| u128::from(std::hash::BuildHasher::hash_one(&state, t));
        Seen { set: HashSet::default(), scramble: (half(0) << 64 | half(1)) | 1 }
    }

    /// Whether `key` is new (and now seen).
    fn insert(&mut self, key: u128) -> bool {
        self.set.insert(key.wrapping_mul(self.scramble))
    }
}

/// A visited position whose moves are still being explored.
struct Frame<M> {
    /// The move that led here, taken back when the frame is done.
    reached_by: Option<M>,
    /// Moves still to explore, popped from the end.
    moves: Vec<M>,
}

/// Replays the strategy the rules encode from their current position (the start) against
/// every opponent move. Leaves the rules at the start again on success.
pub fn replay<R: Rules>(rules: &mut R, budget: &mut Budget) -> Result<Walked, String> {
    let mut seen = Seen::new();
    let mut walked = Walked::default();
    let mut stack: Vec<Frame<R::Move>> = Vec::new();
    if let Some(moves) = visit(rules, &mut seen, &mut walked, budget)? {
        stack.push(Frame { reached_by: None, moves });
    }
    while let Some(top) = stack.last_mut() {
        let Some(m) = top.moves.pop() else {
            if let Some(m) = top.reached_by {
                rules.undo(m);
            }
            stack.pop();
            continue;
        };
        rules.play(m, budget)?;
        match visit(rules, &mut seen, &mut walked, budget)? {
            Some(moves) => stack.push(Frame { reached_by: Some(m), moves }),
            None => rules.undo(m),
        }
    }
    Ok(walked)
}

/// Visits the current position: `None` when nothing below it needs exploring (seen before, or
/// a leaf), else its moves, reversed so that popping explores them in the rules' order.
fn visit<R: Rules>(
    rules: &mut R,
    seen: &mut Seen,
    walked: &mut Walked,
    budget: &mut Budget,
) -> Result<Option<Vec<R::Move>>, String> {
    budget.charge(FINGERPRINT_COST, "replaying positions")?;
    if !seen.insert(rules.key()) {
        return Ok(None);
    }
    walked.positions += 1;
    match rules.expand(budget)? {
        Node::Leaf => {
            walked.leaves += 1;
            Ok(None)
        }
        Node::Moves(mut moves) => {
            moves.reverse();
            Ok(Some(moves))
        }
    }
}

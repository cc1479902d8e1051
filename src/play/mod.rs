//! Playing against a certified strategy: the library behind `gamecert hint` and `gamecert play`
//! (and the Python package's `certificate.move(position)`).
//!
//! [`Strategy::checked`] runs the checker on the instance and the certificate first, exactly as
//! `gamecert verify` does, and refuses a rejected certificate; only then does it read the
//! strategy out of the certificate. Every reply [`Strategy::reply`] gives comes from that
//! checked object: the certificate's own move at the position (through the symmetry witnesses
//! the checker verified, where the certificate lists positions up to symmetry or isomorphism),
//! or, for a labelling (Grundy values), the move to a position of value 0, the rule the checker
//! verified the labels for. Nothing is re-solved.
//!
//! Positions and moves are read and written in the game's own notation (vertex names, heap
//! sizes, coins, point numbers), never in the certificate's internal keys. Each family is a
//! file, on the checker's own rules: [`voronoi`] (multi-round strategies and values), [`path`]
//! (values on a path, over gap states), [`dnf`] (the positive-DNF game), [`heaps`] (heap games'
//! Grundy labellings), [`coins`] (coin-turning labellings), [`marking`] (the marking games on a
//! triangulation), [`construct`] (the games on points with scores or ties), [`flip`] (the
//! two-player flip games), [`triangle`] (triangle avoidance, positions up to isomorphism),
//! [`vertexnim`] (vertex nim and NimG).
//!
//! Kinds that hold no strategy are refused with what the certificate is instead
//! ([`PlayError::NoStrategy`]): a one-round witness (one side's whole placement) or refutation
//! (an LRAT proof), a flip sequence (a solitaire), a balanced colouring (Lemma 4's bound), and
//! two labellings from which no move follows: `vertexnim-labelling` labels the start
//! position's vertices only, and the theorem it relies on decides who wins there, so the move
//! to a losing position would need labels of every later position, which the checker never
//! saw; `marking-kayles` labels Kayles heaps, but the checker maps only the start position
//! and its winning first edge to heaps, so a later edge of the triangulation has no heap move
//! anything verified (following Theorem 1's arrays further would be the paper's proof, not a
//! checked object). A `triangle-stream` certificate is refused before it is read (in
//! `cli/hint.rs`): the whole file must be checked first, and a reply needs the position's
//! level, which is not a bounded read.

mod coins;
mod construct;
mod dnf;
mod flip;
mod heaps;
mod marking;
mod path;
mod triangle;
mod vertexnim;
mod voronoi;

use gamecert_certificates::check::Decision;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Limits;
use std::any::Any;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// The two sides of a two-player game: the player who moves first, and the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    First,
    Second,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// Why a strategy cannot be read from an instance and a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The checker did not accept the certificate: rejected it (exit 1 on the command line),
    /// or ran out of budget before it could decide (exit 3).
    Rejected { decision: Decision, claim: String, reason: String },
    /// The certificate holds no strategy to ask (exit 2): what it is instead.
    NoStrategy(String),
    /// The instance is invalid (exit 2).
    BadInput(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Rejected { decision, claim, reason } => {
                let heading = gamecert_certificates::verify::verdict_heading(*decision, claim);
                write!(f, "{heading}: {reason}")
            }
            PlayError::NoStrategy(why) | PlayError::BadInput(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for PlayError {}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a tie.
    pub winner: Option<Side>,
    /// The result in words (the scores where the game has them).
    pub result: String,
}

/// A family's rules and its strategy, typed; [`Erased`] hides the types behind [`Position`].
///
/// Every method but the constructors is total on the states the family itself built.
pub(crate) trait Family: Send + Sync + 'static {
    type State: Clone + PartialEq + Send + Sync + 'static;
    type Move: Clone + Send + Sync + 'static;

    /// The starting position.
    fn start(&self) -> Self::State;
    /// Who is to move (meaningful while the game is not over).
    fn to_move(&self, state: &Self::State) -> Side;
    /// Every legal move, in a fixed order.
    fn moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// The position after `mv`, a legal move.
    fn apply(&self, state: &Self::State, mv: &Self::Move) -> Self::State;
    /// `mv` in the game's notation.
    fn write_move(&self, state: &Self::State, mv: &Self::Move) -> String;
    /// A move typed by a user: the legal move it names, or why it is not one.
    fn read_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, String>;
    /// How moves are written (for `help`).
    fn move_syntax(&self) -> String;
    /// The position in the game's notation (what [`Family::read_position`] reads).
    fn write_position(&self, state: &Self::State) -> String;
    /// A position typed by a user.
    fn read_position(&self, text: &str) -> Result<Self::State, String>;
    /// The position drawn as text for a terminal: at most five lines whatever the board's size
    /// (who holds what, lists cut with a count by [`brief`]), never the whole graph.
    fn draw(&self, state: &Self::State) -> String;
    /// One line on the position for a person following the game: who owns what and the score
    /// so far, where the game has them (empty where it has none).
    fn summary(&self, _state: &Self::State) -> String {
        String::new()
    }
    /// The position drawn as an SVG picture headed by `caption`, with `marked` (a legal move
    /// here) marked. Every element a person may click to make a move carries
    /// `data-move="NOTATION"`, the move's notation (what [`Family::read_move`] reads), so that
    /// `gamecert serve`'s page plays by clicks. The default draws the text drawing.
    fn svg(&self, state: &Self::State, marked: Option<&Self::Move>, caption: &str) -> String {
        let marked = marked.map(|m| self.write_move(state, m));
        crate::base::svg::text_picture(&self.draw(state), marked.as_deref(), caption)
    }
    /// The position as a player sees it (`gamecert serve`'s board and gallery): [`Family::svg`]
    /// without anything only the strategy knows, as [`Family::draw`] and [`Family::summary`]
    /// keep it (a labelling's values, a position's value, who wins from here). The default is
    /// [`Family::svg`] with nothing marked: a family whose picture tells more overrides it.
    fn board(&self, state: &Self::State, caption: &str) -> String {
        self.svg(state, None, caption)
    }
    /// How the game ended, or `None` while it goes on.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;
    /// The certified strategy's move, when the certificate gives one here.
    fn reply(&self, state: &Self::State) -> Option<Self::Move>;
    /// The side's name in the game's words (`W`, `R`; by default `the first player`).
    fn side_name(&self, side: Side) -> String {
        match side {
            Side::First => "the first player".into(),
            Side::Second => "the second player".into(),
        }
    }
    /// The side a person plays by default: the one the certificate proves cannot win.
    fn default_human(&self) -> Side;
    /// Whether `side` achieved what the certificate claims for it at the finished `state`, or
    /// `None` when the certificate claims nothing for that side.
    fn claim_met(&self, state: &Self::State, side: Side) -> Option<bool>;
}

/// A [`Family`] behind type erasure, so that [`Position`] and [`Move`] are one type for every
/// game. States and moves are held in `Arc<dyn Any>` and cast back by the family that built them.
trait Erased: Send + Sync {
    fn start(&self) -> Held;
    fn to_move(&self, state: &Held) -> Side;
    fn moves(&self, state: &Held) -> Vec<Move>;
    fn apply(&self, state: &Held, mv: &Move) -> Held;
    fn read_move(&self, state: &Held, text: &str) -> Result<Move, String>;
    fn move_syntax(&self) -> String;
    fn write_position(&self, state: &Held) -> String;
    fn read_position(&self, text: &str) -> Result<Held, String>;
    fn draw(&self, state: &Held) -> String;
    fn summary(&self, state: &Held) -> String;
    fn svg(&self, state: &Held, marked: Option<&Move>, caption: &str) -> String;
    fn board(&self, state: &Held, caption: &str) -> String;
    fn outcome(&self, state: &Held) -> Option<Outcome>;
    fn reply(&self, state: &Held) -> Option<Move>;
    fn side_name(&self, side: Side) -> String;
    fn default_human(&self) -> Side;
    fn claim_met(&self, state: &Held, side: Side) -> Option<bool>;
    fn same(&self, a: &Held, b: &Held) -> bool;
}

type Held = Arc<dyn Any + Send + Sync>;

fn cast<T: 'static>(held: &Held) -> &T {
    held.downcast_ref::<T>().expect("a position or move is only used with the game that made it")
}

/// The family wrapper that implements [`Erased`].
struct Game<F>(F);

impl<F: Family> Game<F> {
    fn wrap(&self, state: &F::State, mv: F::Move) -> Move {
        Move { notation: self.0.write_move(state, &mv), held: Arc::new(mv) }
    }
}

impl<F: Family> Erased for Game<F> {
    fn start(&self) -> Held {
        Arc::new(self.0.start())
    }
    fn to_move(&self, state: &Held) -> Side {
        self.0.to_move(cast(state))
    }
    fn moves(&self, state: &Held) -> Vec<Move> {
        let s = cast::<F::State>(state);
        self.0.moves(s).into_iter().map(|m| self.wrap(s, m)).collect()
    }
    fn apply(&self, state: &Held, mv: &Move) -> Held {
        Arc::new(self.0.apply(cast(state), cast(&mv.held)))
    }
    fn read_move(&self, state: &Held, text: &str) -> Result<Move, String> {
        let s = cast::<F::State>(state);
        self.0.read_move(s, text).map(|m| self.wrap(s, m))
    }
    fn move_syntax(&self) -> String {
        self.0.move_syntax()
    }
    fn write_position(&self, state: &Held) -> String {
        self.0.write_position(cast(state))
    }
    fn read_position(&self, text: &str) -> Result<Held, String> {
        self.0.read_position(text).map(|s| Arc::new(s) as Held)
    }
    fn draw(&self, state: &Held) -> String {
        self.0.draw(cast(state))
    }
    fn summary(&self, state: &Held) -> String {
        self.0.summary(cast(state))
    }
    fn svg(&self, state: &Held, marked: Option<&Move>, caption: &str) -> String {
        self.0.svg(cast(state), marked.map(|m| cast::<F::Move>(&m.held)), caption)
    }
    fn board(&self, state: &Held, caption: &str) -> String {
        self.0.board(cast(state), caption)
    }
    fn outcome(&self, state: &Held) -> Option<Outcome> {
        self.0.outcome(cast(state))
    }
    fn reply(&self, state: &Held) -> Option<Move> {
        let s = cast::<F::State>(state);
        self.0.reply(s).map(|m| self.wrap(s, m))
    }
    fn side_name(&self, side: Side) -> String {
        self.0.side_name(side)
    }
    fn default_human(&self) -> Side {
        self.0.default_human()
    }
    fn claim_met(&self, state: &Held, side: Side) -> Option<bool> {
        self.0.claim_met(cast(state), side)
    }
    fn same(&self, a: &Held, b: &Held) -> bool {
        cast::<F::State>(a) == cast::<F::State>(b)
    }
}

/// A certified strategy, read from a certificate the checker accepted.
#[derive(Clone)]
pub struct Strategy {
    game: Arc<dyn Erased>,
    kind: &'static str,
    claim: String,
    /// The claim in the checker's words, as `verify` prints it ("the first player wins").
    stated: String,
}

impl fmt::Debug for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Strategy({}: {})", self.kind, self.claim)
    }
}

/// A position of the game, with whatever the strategy needs to answer at it.
#[derive(Clone)]
pub struct Position {
    game: Arc<dyn Erased>,
    state: Held,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.notation())
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.game.same(&self.state, &other.state)
    }
}

/// A legal move at some position, with its notation.
#[derive(Clone)]
pub struct Move {
    notation: String,
    held: Held,
}

impl Move {
    /// The move in the game's notation.
    pub fn notation(&self) -> &str {
        &self.notation
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.notation)
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.notation == other.notation
    }
}

impl Strategy {
    /// [`Strategy::checked`] with the checker's default limits.
    pub fn from(instance: &Instance, certificate: &Certificate) -> Result<Strategy, PlayError> {
        Strategy::checked(instance, certificate, &Limits::default())
    }

    /// Checks `certificate` against `instance` with the trusted checker (as `verify` does: the
    /// instance validated, then the certificate checked, one budget of `limits`), and reads the
    /// strategy from it once accepted.
    pub fn checked(
        instance: &Instance,
        certificate: &Certificate,
        limits: &Limits,
    ) -> Result<Strategy, PlayError> {
        if let Some(what) = not_a_strategy(certificate) {
            return Err(PlayError::NoStrategy(what));
        }
        // Which certificates are followed for which instance kind is registered once.
        let followed = crate::registry::kind(instance.kind())
            .is_some_and(|k| k.strategies.contains(&certificate.kind()));
        if !followed {
            return Err(PlayError::NoStrategy(format!(
                "a {} certificate is not one hint and play follow for a {} instance (`gamecert \
                 kinds` lists them)",
                certificate.kind(),
                instance.kind()
            )));
        }
        let mut budget = limits.budget();
        if let Err(err) = instance.validate_within(&mut budget) {
            return Err(PlayError::BadInput(format!("the instance is invalid: {err}")));
        }
        let verdict = gamecert_certificates::check::check_with(instance, certificate, &mut budget);
        if !verdict.accepted() {
            let (decision, claim, reason) = (verdict.outcome, verdict.claim, verdict.reason);
            return Err(PlayError::Rejected { decision, claim, reason });
        }
        let game = family(instance, certificate)?;
        Ok(Strategy {
            game,
            kind: certificate.kind(),
            claim: certificate.claim(),
            stated: verdict.claim,
        })
    }

    /// The certificate's kind.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// What the certificate claims, in words.
    pub fn claim(&self) -> &str {
        &self.claim
    }

    /// The claim the checker accepted, in its words as `gamecert verify` prints it (the
    /// certificate's own `claim` field is [`Strategy::claim`]).
    pub fn stated_claim(&self) -> &str {
        &self.stated
    }

    /// The starting position.
    pub fn start(&self) -> Position {
        Position { game: self.game.clone(), state: self.game.start() }
    }

    /// Reads a position in the game's notation (what [`Position::notation`] writes).
    pub fn parse_position(&self, text: &str) -> Result<Position, String> {
        let state = self.game.read_position(text.trim())?;
        Ok(Position { game: self.game.clone(), state })
    }

    /// The certified strategy's move at `position`, when the certificate gives one there (it
    /// does at every position the play reaches where its side is to move and the strategy has
    /// been followed; a labelling answers at every position of non-zero value).
    pub fn reply(&self, position: &Position) -> Option<Move> {
        if position.outcome().is_some() {
            return None;
        }
        self.game.reply(&position.state)
    }

    /// The side's name in the game's words.
    pub fn side_name(&self, side: Side) -> String {
        self.game.side_name(side)
    }

    /// The side a person plays by default: the one the certificate proves cannot win (so the
    /// strategy plays the side it is certified for).
    pub fn default_human(&self) -> Side {
        self.game.default_human()
    }

    /// Whether `side` achieved at least what the certificate claims for it, at a finished
    /// `position` (`None` while the game goes on, or when the certificate claims nothing for
    /// that side).
    pub fn claim_met(&self, position: &Position, side: Side) -> Option<bool> {
        position.outcome()?;
        self.game.claim_met(&position.state, side)
    }

    /// Whether the certificate claims something for `side` (a value certifies both sides).
    pub fn certifies(&self, side: Side) -> bool {
        self.game.claim_met(&self.game.start(), side).is_some()
    }

    /// How moves are written, for a person.
    pub fn move_syntax(&self) -> String {
        self.game.move_syntax()
    }
}

impl Position {
    /// The legal moves, in a fixed order.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.game.moves(&self.state)
    }

    /// Reads a move in the game's notation: the legal move it names, or why it is not one.
    pub fn parse_move(&self, text: &str) -> Result<Move, String> {
        if self.outcome().is_some() {
            return Err("the game is over".into());
        }
        self.game.read_move(&self.state, text.trim())
    }

    /// The position after `mv`, a move of [`Position::legal_moves`] or [`Position::parse_move`]
    /// at this position.
    pub fn apply(&self, mv: &Move) -> Position {
        Position { game: self.game.clone(), state: self.game.apply(&self.state, mv) }
    }

    /// Who is to move (meaningful while the game is not over).
    pub fn to_move(&self) -> Side {
        self.game.to_move(&self.state)
    }

    /// The position in the game's notation.
    pub fn notation(&self) -> String {
        self.game.write_position(&self.state)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome(&self.state)
    }

    /// One line on who owns what and the score so far, for a person following the game (what
    /// the game shows a player, never the strategy).
    pub fn summary(&self) -> String {
        self.game.summary(&self.state)
    }

    /// The position as SVG headed by `caption`, with `marked` (a legal move here) marked; every
    /// clickable element carries `data-move="NOTATION"` (see [`Family::svg`]).
    pub fn svg(&self, marked: Option<&Move>, caption: &str) -> String {
        self.game.svg(&self.state, marked, caption)
    }

    /// The position as SVG for a person playing it (`gamecert serve`'s page): as
    /// [`Position::svg`] draws it, clickable the same way, but keeping the strategy secret as
    /// `gamecert play` does (no Grundy values, no "the player to move loses").
    pub fn board(&self, caption: &str) -> String {
        self.game.board(&self.state, caption)
    }
}

/// The position drawn as text for a terminal.
pub fn render_text(position: &Position) -> String {
    position.game.draw(&position.state)
}

/// What a certificate is instead of a strategy, for the kinds that hold none.
fn not_a_strategy(certificate: &Certificate) -> Option<String> {
    match certificate {
        Certificate::Witness(_) => Some(
            "a witness certificate holds no strategy to ask: it is B's placement in a one-round \
             Voronoi game, all of B's moves at once (W has placed already), which the checker \
             scores"
                .into(),
        ),
        Certificate::Refutation(_) => Some(
            "a refutation certificate holds no strategy to ask: it is an LRAT proof that B cannot \
             win the one-round Voronoi game, whatever B places"
                .into(),
        ),
        Certificate::FlipSequence(_) => Some(
            "a flip-sequence certificate holds no strategy to ask: it is one player's solitaire, \
             the list of flips that colours the claimed number of edges green, with no opponent \
             to answer"
                .into(),
        ),
        Certificate::BalancedColouring(_) => Some(
            "a balanced-colouring certificate holds no strategy to ask: it is a colouring of \
             every edge (Lemma 4) that bounds the score, not a move at each position"
                .into(),
        ),
        Certificate::VertexNimLabelling(_) => Some(
            "a vertexnim-labelling certificate holds no strategy to ask: it labels the start \
             position's vertices, from which a trusted theorem decides who wins there; the \
             checker verified no move and no label of any later position (only a \
             vertexnim-strategy can be played)"
                .into(),
        ),
        Certificate::MarkingKayles(_) => Some(
            "a marking-kayles certificate holds no strategy to ask: it labels Kayles heaps, and \
             a trusted theorem reduces the start position to them; the checker mapped only the \
             winning first edge to a heap move, and no later position to heaps (only a \
             marking-strategy can be played)"
                .into(),
        ),
        Certificate::NimstringStrips(_) => Some(
            "a nimstring-strips certificate holds no strategy to ask: it labels strips with \
             Nimstring values, and a trusted theorem (Berlekamp's) gives the start's outcome \
             from them; no move of any position was replayed (only a marking-strategy can be \
             played)"
                .into(),
        ),
        _ => None,
    }
}

/// The family that plays `certificate` on `instance` (the checker has accepted the pair).
fn family(instance: &Instance, certificate: &Certificate) -> Result<Arc<dyn Erased>, PlayError> {
    let bad = |e: String| PlayError::BadInput(e);
    Ok(match (instance, certificate) {
        (Instance::Voronoi(spec), Certificate::VoronoiStrategy(s)) => {
            Arc::new(Game(voronoi::Voronoi::new(spec, Some(s), None).map_err(bad)?))
        }
        (Instance::Voronoi(spec), Certificate::VoronoiValue(v)) => Arc::new(Game(
            voronoi::Voronoi::new(spec, Some(&v.white), Some(&v.black)).map_err(bad)?,
        )),
        (Instance::PosDnfGame(dnf), Certificate::DnfStrategy(s)) => {
            Arc::new(Game(dnf::Dnf::new(dnf, s)))
        }
        (Instance::HeapGame(game), Certificate::HeapLabelling(l)) => {
            Arc::new(Game(heaps::Heaps::new(game, l).map_err(bad)?))
        }
        (Instance::MarkingGame(spec), Certificate::MarkingStrategy(s)) => {
            Arc::new(Game(marking::Marking::new(spec, s).map_err(bad)?))
        }
        (Instance::TriangleAvoidance(_), Certificate::TriangleStrategy(s)) => {
            Arc::new(Game(triangle::Triangle::new(s)))
        }
        (Instance::MarkingGame(spec), Certificate::ConstructStrategy(s)) => {
            Arc::new(Game(construct::Construct::new(spec, s).map_err(bad)?))
        }
        (Instance::FlipGame(spec), Certificate::FlipValue(v)) => {
            Arc::new(Game(flip::Flip::new(spec, v).map_err(bad)?))
        }
        (Instance::VertexNim(spec), Certificate::VertexNimStrategy(s)) => {
            Arc::new(Game(vertexnim::VertexNim::new(spec, s).map_err(bad)?))
        }
        (Instance::CoinGame(spec), Certificate::CoinLabelling(l)) => {
            Arc::new(Game(coins::Coins::new(spec, l).map_err(bad)?))
        }
        (Instance::Voronoi(spec), Certificate::PathValue(v)) => {
            Arc::new(Game(path::Path::new(spec, v).map_err(bad)?))
        }
        (_, other) => {
            return Err(PlayError::NoStrategy(format!(
                "a {} certificate does not fit a {} instance",
                other.kind(),
                instance.kind()
            )))
        }
    })
}

/// How many positions [`find_history`] may visit before giving up.
const HISTORY_SEARCH_LIMIT: usize = 1_000_000;

/// Finds a play from the start that follows the strategy and reaches a position `reached`
/// accepts, for the families whose strategy at a position depends on how it was reached (a
/// certificate listing positions up to symmetry) or whose positions are written without what
/// the rules need (a flip game's triangulation): returns that position's state. The strategy
/// plays `strategy_side`; the other side tries every legal move. `within(s)` must say whether
/// the target can still be reached from `s` (every move only adds to a position).
pub(crate) fn find_history<F: Family>(
    family: &F,
    strategy_side: Side,
    reached: impl Fn(&F::State) -> bool,
    within: impl Fn(&F::State) -> bool,
    key: impl Fn(&F::State) -> String,
) -> Result<F::State, String> {
    let mut stack = vec![family.start()];
    let mut seen = HashSet::new();
    while let Some(state) = stack.pop() {
        if reached(&state) {
            return Ok(state);
        }
        if family.outcome(&state).is_some() || !seen.insert(key(&state)) {
            continue;
        }
        if seen.len() > HISTORY_SEARCH_LIMIT {
            return Err("the search for a play reaching this position visited too many \
                        positions"
                .into());
        }
        let next: Vec<F::Move> = if family.to_move(&state) != strategy_side {
            family.moves(&state)
        } else {
            family.reply(&state).into_iter().collect()
        };
        for mv in next {
            let after = family.apply(&state, &mv);
            if within(&after) {
                stack.push(after);
            }
        }
    }
    Err("no play that follows the certified strategy reaches this position".into())
}

/// How many items of a list a drawing or a summary shows before it gives the count of the rest.
pub(crate) const SHOWN: usize = 12;

/// At most `max` items joined by spaces, then how many more (`a b c ... and 12 more`), or
/// `none`: a drawing stays a few lines on a board of thousands of vertices.
pub(crate) fn brief<S: AsRef<str>>(items: &[S], max: usize) -> String {
    if items.is_empty() {
        return "none".into();
    }
    let shown: Vec<&str> = items.iter().take(max).map(AsRef::as_ref).collect();
    match items.len().saturating_sub(max) {
        0 => shown.join(" "),
        more => format!("{} ... and {more} more", shown.join(" ")),
    }
}

/// A margin with its sign, `+2`, `-1`, `0`.
pub(crate) fn signed(margin: i64) -> String {
    if margin > 0 {
        format!("+{margin}")
    } else {
        margin.to_string()
    }
}

/// Splits a list written `a, b c` (commas or spaces) into its words.
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split([',', ' ', '\t']).filter(|w| !w.is_empty())
}

/// Reads an edge written `a-b` (two point or vertex numbers), smaller number first.
pub(crate) fn pair(text: &str) -> Option<[usize; 2]> {
    let (a, b) = text.split_once('-')?;
    let (a, b) = (a.trim().parse::<usize>().ok()?, b.trim().parse::<usize>().ok()?);
    (a != b).then_some([a.min(b), a.max(b)])
}

/// Splits `(second to move)` (or `(first to move)`) off the end of a position: the rest, and
/// the side named, if any.
pub(crate) fn turn_suffix(text: &str) -> Result<(&str, Option<Side>), String> {
    let Some(body) = text.trim_end().strip_suffix("to move)") else { return Ok((text, None)) };
    let expected = "expected `(first to move)` or `(second to move)` at the end";
    let (rest, who) = body.rsplit_once('(').ok_or(expected)?;
    match who.trim() {
        "first" => Ok((rest.trim_end(), Some(Side::First))),
        "second" => Ok((rest.trim_end(), Some(Side::Second))),
        other => Err(format!("'({other} to move)': {expected}")),
    }
}

/// The checker's fixture of `kind` (certificates/tests/fixtures): its instance and accepted
/// certificate, for the families' unit tests.
#[cfg(test)]
pub(crate) fn fixture(kind: &str) -> (Instance, Certificate) {
    let dir = format!("{}/certificates/tests/fixtures/{kind}", env!("CARGO_MANIFEST_DIR"));
    let read = |name: &str| std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
    (
        Instance::from_json(&read("instance.json")).unwrap(),
        Certificate::from_json(&read("accept.json")).unwrap(),
    )
}

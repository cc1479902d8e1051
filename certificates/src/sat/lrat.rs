//! The trusted LRAT checker: replays a text LRAT refutation of a [`Cnf`], RUP and RAT steps.
//!
//! # The format
//!
//! * An addition line `ID lit* 0 hint* 0` adds the clause `C = lit*` under the new id `ID`.
//! * A deletion line `ID d id* 0` removes the listed clauses (its leading `ID` is not used).
//! * Blank lines and lines whose first non-blank character is `c` are comments.
//!
//! The input clauses have ids `1..=m` in the order of `cnf.clauses`. Every added id must be larger
//! than every id seen before it (the inputs included). Literals may name variables beyond the
//! formula's header: a RAT step may introduce a fresh variable (extended resolution, bounded
//! variable addition), and a RUP step with a fresh variable is harmless.
//!
//! # When an addition is accepted
//!
//! The semantics are those of drat-trim's `lrat-check` and of the LRAT specification that the
//! verified checker `cake_lpr` implements (CakeML, `lratScript.sml`), with the empty clause
//! always required to follow by unit propagation.
//!
//! 1. The negation of `C` is assigned (a clause holding both `l` and `-l` is refused).
//! 2. **RUP.** The hints before the first negative hint are followed in order: each names a
//!    live clause that must be unit under the assignment (its open literal is then assigned),
//!    already satisfied (it then adds nothing), or falsified (the step is proved; later hints
//!    are not read). A hint with two or more open literals, or naming no live clause, refuses
//!    the step.
//! 3. **RAT**, when those hints end without a conflict. The pivot `p` is the first literal of
//!    `C` (the empty clause has none and is refused). The rest of the hints are groups
//!    `-j h*`: the negative hint names a live clause `D_j` that contains `-p`, and its positive
//!    hints show that the resolvent `C ∪ (D_j \ {-p})` follows by unit propagation: on top of
//!    the assignment of step 2, every literal of `D_j` other than `-p` is made false and the
//!    group's hints are followed as in step 2 until a falsified clause. A `D_j` one of whose
//!    other literals is already true needs no hints (the resolvent is implied at once). Every
//!    live clause that contains `-p` must be named by exactly one group, in any order; one left
//!    out refuses the step and is named. With no live clause containing `-p` (a fresh pivot,
//!    say) the step needs no groups at all.
//!
//! The proof succeeds as soon as the empty clause is added; nothing after that line is read.
//! Deleting a clause that is not live is refused (it shows a broken proof producer).
//!
//! # Work and memory
//!
//! The proof is read a token at a time ([`ProofText`]): no line is ever held, only the token
//! being read, so a line of any length costs nothing to hold. Work is charged to the check's
//! [`Budget`] before it is done: each input clause as it is stored, each byte of the proof as
//! it is read (comment and blank lines too, with [`LINE_COST`] a line), each literal of an
//! added clause (kept once however often it is repeated) before it is held, each hint by the
//! length of the clause it names (the clause is scanned once per hint; hints are followed as
//! they are read and never stored), each stored clause by the bytes it holds, the clause index
//! and the assignment as they grow, and for RAT steps the occurrence lists (built the first
//! time a RAT step needs them, then kept up to date), every entry of the one scanned, and each
//! candidate named (at most as many as live clauses contain the negated pivot). A proof that
//! would pass the budget is rejected at the line that would pass it. There is no recursion,
//! and no input makes the checker panic.
//!
//! What the checker holds is a fixed multiple of the bytes it has read and been charged for:
//! a stored literal took at least two bytes of text, a stored clause at least four, a RAT
//! candidate at least three. Numbers read never size a buffer on their own: a proof's literal
//! may name a variable at most one past the assignment for every byte of the formula and the
//! proof read so far (fresh variables come one at a time in an honest proof), and the dense
//! clause index grows only while ids stay dense (at most [`DENSE_SLACK`] slots and four a
//! clause stored; ids past that go to a map, an entry a clause).
//!
//! Clauses live in one arena of literals, found through an index by id: a plain table while
//! ids are dense (proof producers number clauses consecutively), a map with the standard
//! library's keyed hasher for ids past a large gap, so no proof can be crafted to make look-ups
//! collide. Deleted clauses leave garbage in the arena that is compacted away once it
//! outweighs the live clauses.

use std::collections::HashMap;
use std::fmt;

use crate::base::budget::Budget;
use crate::base::text::{counted, LINE_COST};
use crate::sat::cnf::Cnf;

/// The longest token read: a 20-digit id, or a sign and 19 digits, and room to spare.
const TOKEN_BYTES: usize = 24;

/// Work units charged per stored clause besides its literals: its header in the arena and its
/// index entry.
const CLAUSE_OVERHEAD: u64 = 16;

/// Work units charged per literal stored (4 bytes).
const LITERAL_COST: u64 = 4;

/// Work units charged per variable of the assignment: its value (1 byte), and room for it on
/// the trail and in the clause being added (4 bytes each, twice for the vectors' growth).
const VARIABLE_COST: u64 = 17;

/// Work units per entry of a map-indexed (sparse) clause id.
const SPARSE_ENTRY_COST: u64 = 48;

/// Work units per occurrence-list entry (a clause id, 8 bytes).
const OCCURRENCE_COST: u64 = 8;

/// Work units per occurrence list (the vector's header).
const OCCURRENCE_LIST_COST: u64 = 24;

/// The slots the dense id table may have beyond four a clause stored; an id past that goes to
/// the map.
const DENSE_SLACK: u64 = 1 << 16;

/// Garbage in the arena (literal slots of deleted clauses) is compacted once it is this large
/// and larger than the live part.
const COMPACT_AT: usize = 1 << 20;

/// What a successful check saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LratReport {
    /// Addition lines checked, the empty clause included.
    pub additions: u64,
    /// Of those, the additions justified as RAT (not by unit propagation alone).
    pub rat_additions: u64,
    /// Clauses deleted.
    pub deletions: u64,
    /// Hint references read on addition lines (positive and negative).
    pub hints: u64,
    /// The id under which the empty clause was added.
    pub empty_clause_id: u64,
}

/// Why a proof was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LratError {
    /// 1-based line of the proof text; 0 for problems with the formula or the proof as a whole,
    /// and for a binary proof.
    pub line: usize,
    /// For a binary proof ([`crate::sat::lrat_binary`]), the offset in its file of the byte
    /// where the step at fault begins.
    pub byte: Option<u64>,
    /// The clause the problem concerns, when there is one.
    pub clause_id: Option<u64>,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for LratError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.byte) {
            (_, Some(byte)) => write!(f, "binary LRAT byte {byte}")?,
            (0, None) => write!(f, "LRAT")?,
            (line, None) => write!(f, "LRAT line {line}")?,
        }
        if let Some(id) = self.clause_id {
            write!(f, " (clause {id})")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for LratError {}
/// Checks that `proof` is an LRAT refutation of `cnf`, charging its work to `budget`.
pub fn check_lrat(cnf: &Cnf, proof: &str, budget: &mut Budget) -> Result<LratReport, LratError> {
    check_lrat_reader(cnf, proof.as_bytes(), budget)
}

/// [`check_lrat`] on a proof read from `proof` a token at a time ([`ProofText`]): no line is
/// held, so neither a file of gigabytes nor a line of gigabytes is; every byte is charged as
/// it is read, and every literal and clause before it is stored.
pub fn check_lrat_reader(
    cnf: &Cnf,
    proof: impl std::io::BufRead,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    check_steps(cnf, &mut ProofText::new(proof), budget)
}

/// What a proof's steps are read as: the checker asks for each part of a step in turn, and
/// each encoding (the text, [`ProofText`]; the binary, [`crate::sat::lrat_binary`]) reads just
/// that part, charging its bytes as it reads them. Nothing is held beyond the part being read.
pub trait Steps {
    /// Moves to the next step: an addition with its id, a deletion, or `None` at the end of the
    /// proof. `max_id` is the largest id seen so far (a binary id is a difference from it).
    fn next_step(&mut self, max_id: u64, budget: &mut Budget) -> Result<Option<Step>, String>;
    /// The next literal of the clause being added; 0 ends the clause.
    fn literal(&mut self, budget: &mut Budget) -> Result<i64, String>;
    /// The next hint of the addition, a clause id (negative: a RAT candidate); 0 ends them.
    fn hint(&mut self, budget: &mut Budget) -> Result<i64, String>;
    /// The next clause id of a deletion; 0 ends them.
    fn deleted(&mut self, budget: &mut Budget) -> Result<u64, String>;
    /// After a step's final 0: refuses anything else in the step (a text line's extra tokens).
    fn end_step(&mut self, budget: &mut Budget) -> Result<(), String>;
    /// The proof's bytes read so far.
    fn consumed(&self) -> u64;
    /// An error at the step being read.
    fn error(&self, clause_id: Option<u64>, message: String) -> LratError;
    /// An error at the end of the proof.
    fn at_end(&self, message: String) -> LratError;
}

/// A step as [`Steps::next_step`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// An addition, with its id.
    Addition(u64),
    /// A deletion.
    Deletion,
}

/// Checks that the proof `steps` reads refutes `cnf` (the module docs), whatever its encoding.
pub fn check_steps(
    cnf: &Cnf,
    steps: &mut impl Steps,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    let mut checker = Checker::new(cnf, budget)?;
    loop {
        match checker.step(steps, budget)? {
            None => return Err(steps.at_end("proof ends before the empty clause".to_string())),
            Some(Some(empty_clause_id)) => {
                return Ok(LratReport {
                    additions: checker.additions,
                    rat_additions: checker.rat_additions,
                    deletions: checker.deletions,
                    hints: checker.hints,
                    empty_clause_id,
                })
            }
            Some(None) => {}
        }
    }
}

fn error(line: usize, clause_id: Option<u64>, message: String) -> LratError {
    LratError { line, byte: None, clause_id, message }
}

/// A separator ([`crate::base::text::is_separator`]: ASCII space and tab).
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Whether `b` ends a token: a separator or a line end.
fn ends_token(b: u8) -> bool {
    is_space(b) || b == b'\n' || b == b'\r'
}

/// The proof's text, read one token at a time. Only the token being read is held (at most
/// [`TOKEN_BYTES`] bytes, longer than any number of the format), never a line: what the
/// checker holds grows only with what it stores, each piece charged before it is stored.
/// Every byte is charged as it is consumed (token bytes twice: read and parsed), and every
/// line [`LINE_COST`] more, comment and blank lines included.
///
/// The line rules are those of every text format ([`crate::base::text`]): separators are ASCII
/// space and tab, a line ends at `\n` (one `\r` just before it, or at the very end of the
/// input, belongs to the line end), and a line whose first non-blank character is `c` is a
/// comment. A `\r` anywhere else is refused.
struct ProofText<R> {
    read: R,
    /// The 1-based line being read (0 before the first).
    line: usize,
    /// Bytes consumed so far.
    consumed: u64,
    token: [u8; TOKEN_BYTES],
    token_len: usize,
    /// Whether the current line's end (or the input's) has been consumed.
    line_ended: bool,
    /// The token after an addition's id, read to tell it from a deletion's `d`: the clause's
    /// first literal (`None`: the line ended).
    pending: Option<Option<Token>>,
}

impl<R: std::io::BufRead> ProofText<R> {
    fn new(read: R) -> ProofText<R> {
        ProofText {
            read,
            line: 0,
            consumed: 0,
            token: [0; TOKEN_BYTES],
            token_len: 0,
            line_ended: true,
            pending: None,
        }
    }

    /// The bytes buffered now; empty at the end of the input.
    fn available(read: &mut R) -> Result<&[u8], String> {
        loop {
            match read.fill_buf() {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => fail!("the proof cannot be read: {e}"),
                Ok(_) => break,
            }
        }
        // Buffered now: this call returns the same bytes without reading.
        read.fill_buf().map_err(|e| format!("the proof cannot be read: {e}"))
    }

    /// The bytes of the last token read when it was [`Token::Other`].
    fn raw(&self) -> &[u8] {
        &self.token[..self.token_len]
    }

    /// `token` (the last one read) for a message.
    fn show(&self, token: Token) -> String {
        match token {
            Token::Number { negative, magnitude } => {
                format!("\"{}{magnitude}\"", if negative { "-" } else { "" })
            }
            Token::Other => shown(self.raw()),
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, String> {
        Ok(Self::available(&mut self.read)?.first().copied())
    }

    /// Consumes `n` bytes already looked at, `cost` units each charged first.
    fn advance(&mut self, n: usize, cost: u64, budget: &mut Budget) -> Result<(), String> {
        budget.charge_each(n as u64, cost, "reading the LRAT proof")?;
        self.read.consume(n);
        self.consumed = self.consumed.saturating_add(n as u64);
        Ok(())
    }

    /// Consumes separators; the byte after them, not consumed (`None` at the end of input).
    fn skip_separators(&mut self, budget: &mut Budget) -> Result<Option<u8>, String> {
        loop {
            let chunk = Self::available(&mut self.read)?;
            if chunk.is_empty() {
                return Ok(None);
            }
            let n = chunk.iter().take_while(|&&b| is_space(b)).count();
            let next = chunk.get(n).copied();
            self.advance(n, 1, budget)?;
            if next.is_some() {
                return Ok(next);
            }
        }
    }

    /// Consumes the line end that starts with `first` (the next byte, `\n` or `\r`).
    fn line_end(&mut self, first: u8, budget: &mut Budget) -> Result<(), String> {
        self.advance(1, 1, budget)?;
        if first == b'\r' {
            match self.peek()? {
                None => {}
                Some(b'\n') => self.advance(1, 1, budget)?,
                Some(_) => fail!(
                    "'\\r' (U+000D) inside a line: a line ends at \\n, with at most one \\r just \
                     before it"
                ),
            }
        }
        Ok(())
    }

    /// Consumes the rest of the line, its `\n` included.
    fn skip_line(&mut self, budget: &mut Budget) -> Result<(), String> {
        loop {
            let chunk = Self::available(&mut self.read)?;
            if chunk.is_empty() {
                return Ok(());
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(end) => return self.advance(end + 1, 1, budget),
                None => {
                    let n = chunk.len();
                    self.advance(n, 1, budget)?;
                }
            }
        }
    }

    /// Moves to the first token of the next line that is neither blank nor a comment; false
    /// at the end of the input. The current line must have been read to its end.
    fn start_line(&mut self, budget: &mut Budget) -> Result<bool, String> {
        loop {
            self.line += 1;
            budget.charge(LINE_COST, "reading the LRAT proof")?;
            match self.skip_separators(budget)? {
                None => return Ok(false),
                Some(b @ (b'\n' | b'\r')) => self.line_end(b, budget)?,
                Some(b'c') => self.skip_line(budget)?,
                Some(_) => {
                    self.line_ended = false;
                    return Ok(true);
                }
            }
        }
    }

    /// The next token of the current line, or `None` once its end is reached (the line end is
    /// then consumed).
    fn token(&mut self, budget: &mut Budget) -> Result<Option<Token>, String> {
        if self.line_ended {
            return Ok(None);
        }
        // The common case, one charge and one consume: the separators, the token and the byte
        // after it are all in the buffer now.
        if let Ok(chunk) = self.read.fill_buf() {
            let skip = chunk.iter().take_while(|&&b| is_space(b)).count();
            let rest = &chunk[skip..];
            // Most tokens are numbers of at most 19 digits, which cannot overflow: one pass.
            let negative = rest.first() == Some(&b'-');
            let start = usize::from(negative);
            let (mut end, mut magnitude) = (start, 0u64);
            while end < rest.len() && end - start < 19 && rest[end].is_ascii_digit() {
                magnitude = magnitude * 10 + u64::from(rest[end] - b'0');
                end += 1;
            }
            if end > start && end < rest.len() && ends_token(rest[end]) {
                let used = skip + end;
                budget.charge(used as u64 + end as u64, "reading the LRAT proof")?;
                self.read.consume(used);
                self.consumed = self.consumed.saturating_add(used as u64);
                return Ok(Some(Token::Number { negative, magnitude }));
            }
            let n = rest.iter().take_while(|&&b| !ends_token(b)).count();
            if n > 0 && n < rest.len() && n <= TOKEN_BYTES {
                let token = Token::parse(&rest[..n]);
                if token == Token::Other {
                    self.token[..n].copy_from_slice(&rest[..n]);
                    self.token_len = n;
                }
                let used = skip + n;
                budget.charge(used as u64 + n as u64, "reading the LRAT proof")?;
                self.read.consume(used);
                self.consumed = self.consumed.saturating_add(used as u64);
                return Ok(Some(token));
            }
        }
        match self.skip_separators(budget)? {
            None => {
                self.line_ended = true;
                return Ok(None);
            }
            Some(b @ (b'\n' | b'\r')) => {
                self.line_end(b, budget)?;
                self.line_ended = true;
                return Ok(None);
            }
            Some(_) => {}
        }
        self.token_len = 0;
        loop {
            let chunk = Self::available(&mut self.read)?;
            let n = chunk.iter().take_while(|&&b| !ends_token(b)).count();
            let ended = n < chunk.len() || chunk.is_empty();
            let room = TOKEN_BYTES - self.token_len;
            if n > room {
                let mut start = self.token[..self.token_len].to_vec();
                start.extend_from_slice(&chunk[..room]);
                fail!(
                    "a token longer than {TOKEN_BYTES} bytes, {}...: no number of an LRAT proof \
                     is that long",
                    shown(&start)
                );
            }
            self.token[self.token_len..self.token_len + n].copy_from_slice(&chunk[..n]);
            self.token_len += n;
            self.advance(n, 2, budget)?;
            if ended {
                return Ok(Some(Token::parse(&self.token[..self.token_len])));
            }
        }
    }
}

impl<R: std::io::BufRead> Steps for ProofText<R> {
    fn next_step(&mut self, _: u64, budget: &mut Budget) -> Result<Option<Step>, String> {
        self.pending = None;
        if !self.start_line(budget)? {
            return Ok(None);
        }
        let first = self.token(budget)?;
        let id = match first.and_then(Token::id) {
            Some(id) if id > 0 => id,
            _ => {
                let found = first.map_or("nothing".to_string(), |t| self.show(t));
                fail!("expected a positive clause id, found {found}");
            }
        };
        let second = self.token(budget)?;
        if second == Some(Token::Other) && self.raw() == b"d" {
            return Ok(Some(Step::Deletion));
        }
        self.pending = Some(second);
        Ok(Some(Step::Addition(id)))
    }

    fn literal(&mut self, budget: &mut Budget) -> Result<i64, String> {
        let next = match self.pending.take() {
            Some(token) => token,
            None => self.token(budget)?,
        };
        let Some(token) = next else { fail!("the clause is not terminated by 0") };
        token.int().ok_or_else(|| format!("malformed literal {}", self.show(token)))
    }

    fn hint(&mut self, budget: &mut Budget) -> Result<i64, String> {
        let Some(token) = self.token(budget)? else {
            fail!("the hint list is not terminated by 0");
        };
        token.int().ok_or_else(|| format!("malformed hint {}", self.show(token)))
    }

    fn deleted(&mut self, budget: &mut Budget) -> Result<u64, String> {
        let Some(token) = self.token(budget)? else {
            fail!("deletion line does not end with 0");
        };
        token.id().ok_or_else(|| format!("malformed clause id {} in a deletion", self.show(token)))
    }

    fn end_step(&mut self, budget: &mut Budget) -> Result<(), String> {
        match self.token(budget)? {
            Some(extra) => fail!("unexpected token {} after the final 0", self.show(extra)),
            None => Ok(()),
        }
    }

    fn consumed(&self) -> u64 {
        self.consumed
    }

    fn error(&self, clause_id: Option<u64>, message: String) -> LratError {
        error(self.line, clause_id, message)
    }

    fn at_end(&self, message: String) -> LratError {
        error(0, None, message)
    }
}

/// A token as read: a number (an optional `-`, then at most 20 digits, within `u64`), or
/// anything else, whose bytes [`ProofText::raw`] holds until the next token is read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token {
    Number { negative: bool, magnitude: u64 },
    Other,
}

impl Token {
    fn parse(bytes: &[u8]) -> Token {
        let (negative, digits) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        if digits.is_empty() || digits.len() > 20 {
            return Token::Other;
        }
        let mut magnitude: u64 = 0;
        for &d in digits {
            if !d.is_ascii_digit() {
                return Token::Other;
            }
            match magnitude.checked_mul(10).and_then(|m| m.checked_add(u64::from(d - b'0'))) {
                Some(m) => magnitude = m,
                None => return Token::Other,
            }
        }
        Token::Number { negative, magnitude }
    }

    /// As a clause id: digits only.
    fn id(self) -> Option<u64> {
        match self {
            Token::Number { negative: false, magnitude } => Some(magnitude),
            _ => None,
        }
    }

    /// As a literal or a hint: a number within `i64` (`-0` is 0).
    fn int(self) -> Option<i64> {
        match self {
            Token::Number { negative, magnitude } => {
                let value = i64::try_from(magnitude).ok()?;
                Some(if negative { -value } else { value })
            }
            Token::Other => None,
        }
    }
}

/// A token for an error message.
fn shown(token: &[u8]) -> String {
    format!("{:?}", String::from_utf8_lossy(token))
}

/// The largest variable a literal (an `i32`, negatable without overflow) can name.
const MAX_VAR: u64 = i32::MAX as u64;

/// The entry of `Checker::values` for a variable without a value.
const UNASSIGNED: i8 = 0;

/// Index entries that are not arena offsets.
const MISSING: u32 = u32::MAX;
const DELETED: u32 = u32::MAX - 1;
/// The arena may not reach the sentinel values.
const MAX_ARENA: usize = (u32::MAX - 2) as usize;

/// Where a clause id stands.
enum Slot {
    Live(usize),
    Deleted,
    Missing,
}

/// The clauses by id: literals in one arena (`[len, lit, lit, ...]` per clause), an index from
/// id to arena offset.
struct Store {
    arena: Vec<i32>,
    /// `dense[id]` for ids below its length: an arena offset, [`MISSING`] or [`DELETED`].
    dense: Vec<u32>,
    /// Ids past a large gap, likewise.
    sparse: HashMap<u64, u32>,
    /// Arena slots held by deleted clauses.
    garbage: usize,
    /// Live clauses.
    live: usize,
    /// Clauses ever stored (the formula's included).
    stored: u64,
}

impl Store {
    fn slot(&self, id: u64) -> Slot {
        let entry = match usize::try_from(id).ok().and_then(|i| self.dense.get(i)) {
            Some(&entry) => entry,
            None => self.sparse.get(&id).copied().unwrap_or(MISSING),
        };
        match entry {
            MISSING => Slot::Missing,
            DELETED => Slot::Deleted,
            offset => Slot::Live(offset as usize),
        }
    }

    /// The live clause at arena `offset`.
    fn clause(&self, offset: usize) -> &[i32] {
        let len = self.arena[offset] as usize;
        &self.arena[offset + 1..offset + 1 + len]
    }

    /// Stores `lits` under `id`, larger than every id stored before; charges the index growth.
    fn insert(&mut self, id: u64, lits: &[i32], budget: &mut Budget) -> Result<(), String> {
        let offset = self.arena.len();
        if offset.saturating_add(lits.len()).saturating_add(1) > MAX_ARENA {
            return Err("the proof holds more live literals than this checker can index".into());
        }
        // The dense table grows only while ids stay dense: at most [`DENSE_SLACK`] slots and
        // four a clause stored, so no jump in ids buys more table than clauses paid for.
        let reach = DENSE_SLACK.saturating_add(self.stored.saturating_mul(4));
        if self.sparse.is_empty() && id < reach {
            // `id >= dense.len()` as ids increase, so the table grows to `id + 1` slots.
            let more = (id + 1).saturating_sub(self.dense.len() as u64);
            budget.charge_each(more, 4, "growing the clause index")?;
            self.dense.resize(crate::base::budget::to_usize(id, "a clause id")?, MISSING);
            self.dense.push(offset as u32);
        } else {
            budget.charge(SPARSE_ENTRY_COST, "growing the clause index")?;
            self.sparse.insert(id, offset as u32);
        }
        self.arena.push(lits.len() as i32);
        self.arena.extend_from_slice(lits);
        self.live += 1;
        self.stored += 1;
        Ok(())
    }

    /// Marks `id` deleted; false when it is not live.
    fn delete(&mut self, id: u64) -> bool {
        let entry = match usize::try_from(id).ok().filter(|&i| i < self.dense.len()) {
            Some(i) => &mut self.dense[i],
            None => match self.sparse.get_mut(&id) {
                Some(entry) => entry,
                None => return false,
            },
        };
        if *entry == MISSING || *entry == DELETED {
            return false;
        }
        let offset = *entry as usize;
        *entry = DELETED;
        self.live -= 1;
        self.garbage += 1 + self.arena[offset] as usize;
        true
    }

    /// Every live clause id with its arena offset, in id order within each index.
    fn live_ids(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        let dense = self.dense.iter().enumerate().map(|(id, &e)| (id as u64, e));
        let sparse = self.sparse.iter().map(|(&id, &e)| (id, e));
        dense
            .chain(sparse)
            .filter(|&(_, e)| e != MISSING && e != DELETED)
            .map(|(id, e)| (id, e as usize))
    }

    /// Rewrites the arena without deleted clauses once they outweigh the live ones.
    fn maybe_compact(&mut self, budget: &mut Budget) -> Result<(), String> {
        let live = self.arena.len() - self.garbage;
        if self.garbage < COMPACT_AT || self.garbage < live {
            return Ok(());
        }
        let index = (self.dense.len() + self.sparse.len()) as u64;
        budget.charge(index.saturating_add(live as u64 * 2), "compacting the clause store")?;
        let mut arena = Vec::with_capacity(live);
        for entry in self.dense.iter_mut().chain(self.sparse.values_mut()) {
            if *entry == MISSING || *entry == DELETED {
                continue;
            }
            let offset = *entry as usize;
            let len = self.arena[offset] as usize;
            *entry = arena.len() as u32;
            arena.extend_from_slice(&self.arena[offset..offset + 1 + len]);
        }
        self.arena = arena;
        self.garbage = 0;
        Ok(())
    }
}

/// The index of a literal in per-literal tables: `2 v` for `v`, `2 v + 1` for `-v`.
fn code(lit: i32) -> usize {
    // A product, not a shift: on a 32-bit target `2 * 2^31` must overflow (a fault), never
    // lose its top bit.
    ((lit.unsigned_abs() as usize) * 2) | usize::from(lit < 0)
}

/// The outcome of following a list of hints.
enum Propagation {
    /// A hinted clause was falsified.
    Conflict,
    /// The hints ran out first.
    NoConflict,
}

struct Checker {
    store: Store,
    /// The largest id seen so far.
    max_id: u64,
    /// Per variable (index = variable): 1 true, -1 false, 0 unassigned. All 0 between steps.
    values: Vec<i8>,
    /// Variables assigned in the current step, to undo them.
    trail: Vec<u32>,
    /// For RAT steps: per literal code, the ids of clauses containing it (some may since have
    /// been deleted; they are dropped when a scan meets them). Built at the first RAT step.
    occurrences: Option<Vec<Vec<u64>>>,
    /// The literals of the clause being added, each once, in the order written.
    lits: Vec<i32>,
    /// The candidates a RAT step names; sorted at the step's end, to find unnamed ones.
    named: Vec<u64>,
    /// A lower bound on the formula's text in bytes: with the proof's bytes read so far, how
    /// far past the assignment a proof's literal may reach (see [`Checker::ensure_var`]).
    formula_bytes: u64,
    additions: u64,
    rat_additions: u64,
    deletions: u64,
    hints: u64,
}

/// Where the hints of an addition line have got to.
#[derive(Clone, Copy)]
enum Phase {
    /// Following the hints before the first negative one.
    Rup,
    /// Those hints reached a falsified clause: the clause follows; later hints are only read.
    Proved,
    /// In the RAT group of `candidate`: `done` once the group has shown its resolvent (later
    /// hints of the group are only read). `base` is the trail after the RUP hints, `limit` the
    /// live clauses containing the negated pivot.
    Rat { pivot: i32, base: usize, limit: usize, candidate: u64, done: bool },
}

impl Checker {
    fn new(cnf: &Cnf, budget: &mut Budget) -> Result<Checker, LratError> {
        let m = cnf.clauses.len();
        let mut checker = Checker {
            store: Store {
                arena: Vec::new(),
                dense: vec![MISSING],
                sparse: HashMap::new(),
                garbage: 0,
                live: 0,
                stored: 0,
            },
            max_id: m as u64,
            values: Vec::new(),
            trail: Vec::new(),
            occurrences: None,
            lits: Vec::new(),
            named: Vec::new(),
            formula_bytes: 0,
            additions: 0,
            rat_additions: 0,
            deletions: 0,
            hints: 0,
        };
        let mut largest = 0u32;
        for (k, clause) in cnf.clauses.iter().enumerate() {
            let id = k as u64 + 1;
            let at = |why: String| error(0, Some(id), why);
            budget
                .charge(clause_cost(clause.len()), "reading the formula's clauses")
                .map_err(at)?;
            for &lit in clause {
                if lit == 0 {
                    return Err(at("input clause contains 0".to_string()));
                }
                if lit.unsigned_abs() > cnf.num_vars || u64::from(lit.unsigned_abs()) > MAX_VAR {
                    return Err(at(format!(
                        "input literal {lit} is outside the {} variables",
                        cnf.num_vars
                    )));
                }
                largest = largest.max(lit.unsigned_abs());
            }
            // Each literal and each clause's `0` take at least two bytes of DIMACS text.
            checker.formula_bytes =
                checker.formula_bytes.saturating_add(2 * (clause.len() as u64 + 1));
            checker.store.insert(id, clause, budget).map_err(at)?;
        }
        // The assignment covers the variables the inputs use and grows when a proof names a
        // larger one, so a generous `num_vars` costs nothing until a literal uses it.
        checker.grow_assignment(largest, budget).map_err(|why| error(0, None, why))?;
        Ok(checker)
    }

    /// Makes room for `var` in the assignment, charging [`VARIABLE_COST`] a variable: its
    /// value, and room for it on the trail and in a clause being added.
    fn grow_assignment(&mut self, var: u32, budget: &mut Budget) -> Result<(), String> {
        let size = var as usize + 1;
        if size <= self.values.len() {
            return Ok(());
        }
        let more = (size - self.values.len()) as u64;
        budget.charge_each(more, VARIABLE_COST, "growing the assignment")?;
        if let Some(lists) = &mut self.occurrences {
            budget.charge_each(2 * more, OCCURRENCE_LIST_COST, "growing the occurrence lists")?;
            lists.resize_with(2 * size, Vec::new);
        }
        self.values.resize(size, UNASSIGNED);
        Ok(())
    }

    /// [`Checker::grow_assignment`] for a literal of the proof, which may name a variable at
    /// most one past the assignment for every byte of the formula and of the proof read so far
    /// (`consumed`): an honest proof introduces fresh variables one at a time, each in a line of
    /// its own, so this never refuses one, and no number in a small file buys a large assignment.
    fn ensure_var(&mut self, var: u32, consumed: u64, budget: &mut Budget) -> Result<(), String> {
        let reach =
            (self.values.len() as u64).saturating_add(self.formula_bytes).saturating_add(consumed);
        ensure!(
            u64::from(var) < reach,
            "literal names variable {var}, far beyond the {} variables used so far: a literal \
             may name at most one more variable for every byte of the formula and of the proof \
             read so far ({reach} here; a proof introduces fresh variables one at a time)",
            self.values.len().saturating_sub(1)
        );
        self.grow_assignment(var, budget)
    }

    /// Checks the next step of `steps`: `None` at the end of the proof, else the id of the
    /// empty clause once it is added.
    fn step(
        &mut self,
        steps: &mut impl Steps,
        budget: &mut Budget,
    ) -> Result<Option<Option<u64>>, LratError> {
        let step = steps.next_step(self.max_id, budget).map_err(|why| steps.error(None, why))?;
        match step {
            None => Ok(None),
            Some(Step::Deletion) => {
                let deleted = self.deletion(steps, budget);
                deleted.map_err(|(target, why)| steps.error(target, why))?;
                Ok(Some(None))
            }
            Some(Step::Addition(id)) => {
                let empty =
                    self.addition(id, steps, budget).map_err(|why| steps.error(Some(id), why))?;
                Ok(Some(empty.then_some(id)))
            }
        }
    }

    /// The rest of a deletion (after its `d`); the error names the clause it concerns.
    fn deletion(
        &mut self,
        steps: &mut impl Steps,
        budget: &mut Budget,
    ) -> Result<(), (Option<u64>, String)> {
        loop {
            let target = match steps.deleted(budget).map_err(|why| (None, why))? {
                0 => break,
                target => target,
            };
            if !self.store.delete(target) {
                let why = match self.store.slot(target) {
                    Slot::Deleted => "was already deleted",
                    _ => "does not exist",
                };
                return Err((Some(target), format!("cannot delete clause {target}: it {why}")));
            }
            self.deletions += 1;
        }
        steps.end_step(budget).map_err(|why| (None, why))?;
        self.store.maybe_compact(budget).map_err(|why| (None, why))
    }

    /// The rest of an addition `ID lit* 0 hint* 0`, after its id. The clause is checked as its
    /// hints are read and stored once the step is whole; true for the empty clause.
    fn addition(
        &mut self,
        id: u64,
        steps: &mut impl Steps,
        budget: &mut Budget,
    ) -> Result<bool, String> {
        ensure!(
            id > self.max_id,
            "clause id {id} is not greater than the largest earlier id {}",
            self.max_id
        );
        self.max_id = id;
        let verdict = self.justify(steps, budget);
        // Undo every assignment of this step, whatever the verdict.
        self.undo_to(0);
        let rat = verdict?;
        steps.end_step(budget)?;

        budget.charge(clause_cost(self.lits.len()), "storing added clauses")?;
        if let Some(lists) = &mut self.occurrences {
            budget.charge_each(
                self.lits.len() as u64,
                OCCURRENCE_COST,
                "indexing literal occurrences",
            )?;
            for &lit in &self.lits {
                lists[code(lit)].push(id);
            }
        }
        self.store.insert(id, &self.lits, budget)?;
        self.additions += 1;
        self.rat_additions += u64::from(rat);
        Ok(self.lits.is_empty())
    }

    /// Reads the clause and its hints and checks the addition as they come (see the module
    /// docs); true when it is a RAT step. Leaves its assignments on the trail for the caller
    /// to undo.
    fn justify(&mut self, steps: &mut impl Steps, budget: &mut Budget) -> Result<bool, String> {
        // The clause: each literal's negation is assigned as it is read. A repeated literal is
        // kept once (the same clause); one whose negation was read makes a tautology.
        self.lits.clear();
        loop {
            let lit = steps.literal(budget)?;
            if lit == 0 {
                break;
            }
            ensure!(
                lit.unsigned_abs() <= MAX_VAR,
                "literal {lit} is beyond the largest variable a literal can name ({MAX_VAR})"
            );
            // In range, so it fits in an i32 and its variable in a u32.
            let lit = lit as i32;
            self.ensure_var(lit.unsigned_abs(), steps.consumed(), budget)?;
            match self.value(lit) {
                UNASSIGNED => {
                    self.lits.push(lit);
                    self.assign(-lit);
                }
                -1 => {} // a repeated literal
                _ => fail!("the clause is a tautology (contains {lit} and {})", -lit),
            }
        }

        // The hints, followed as they are read; none is stored.
        let mut phase = Phase::Rup;
        let mut count: u64 = 0;
        loop {
            let hint = steps.hint(budget)?;
            if hint == 0 {
                break;
            }
            count += 1;
            self.hints += 1;
            phase = match phase {
                Phase::Proved => Phase::Proved,
                Phase::Rup if hint > 0 => match self.propagate(hint.unsigned_abs(), budget)? {
                    Propagation::Conflict => Phase::Proved,
                    Propagation::NoConflict => Phase::Rup,
                },
                Phase::Rup => {
                    let Some(&pivot) = self.lits.first() else {
                        fail!(
                            "the empty clause has no pivot for a RAT step: it must follow by \
                             unit propagation from the hints before the first negative hint"
                        );
                    };
                    let limit = self.live_occurrences(-pivot, budget)?.len();
                    self.named.clear();
                    let base = self.trail.len();
                    let candidate = hint.unsigned_abs();
                    let done = self.open_candidate(pivot, candidate, limit, budget)?;
                    Phase::Rat { pivot, base, limit, candidate, done }
                }
                Phase::Rat { done: true, .. } if hint > 0 => phase,
                Phase::Rat { candidate, .. } if hint > 0 => {
                    let done = match self.propagate(hint.unsigned_abs(), budget) {
                        Ok(Propagation::Conflict) => true,
                        Ok(Propagation::NoConflict) => false,
                        Err(why) => fail!("RAT candidate {candidate}: {why}"),
                    };
                    let Phase::Rat { pivot, base, limit, .. } = phase else { unreachable!() };
                    Phase::Rat { pivot, base, limit, candidate, done }
                }
                Phase::Rat { pivot, base, limit, candidate, done } => {
                    self.close_candidate(pivot, base, candidate, done)?;
                    let candidate = hint.unsigned_abs();
                    let done = self.open_candidate(pivot, candidate, limit, budget)?;
                    Phase::Rat { pivot, base, limit, candidate, done }
                }
            };
        }

        match phase {
            Phase::Proved => Ok(false),
            Phase::Rup => {
                let Some(&pivot) = self.lits.first() else {
                    fail!(
                        "the hints end without a falsified clause (RUP check failed after {})",
                        counted(count, "hint")
                    );
                };
                // No RAT hints: still a RAT step when no live clause contains -pivot (a fresh
                // pivot, say); otherwise a failed RUP step, and that is what is reported.
                self.named.clear();
                match self.unnamed_candidate(pivot, budget)? {
                    None => Ok(true),
                    Some(clause) => fail!(
                        "the hints end without a falsified clause (RUP check failed after {}; \
                         not a RAT step either: clause {clause} contains {}, the negated pivot, \
                         and no RAT hint names it)",
                        counted(count, "hint"),
                        -pivot
                    ),
                }
            }
            Phase::Rat { pivot, base, candidate, done, .. } => {
                self.close_candidate(pivot, base, candidate, done)?;
                budget.charge_each(self.named.len() as u64, 8, "sorting RAT candidates")?;
                self.named.sort_unstable();
                if let Some(pair) = self.named.windows(2).find(|w| w[0] == w[1]) {
                    fail!("RAT hint -{} is given twice", pair[0]);
                }
                if let Some(unnamed) = self.unnamed_candidate(pivot, budget)? {
                    fail!(
                        "clause {unnamed} contains {}, the negated pivot, and no RAT hint names it",
                        -pivot
                    );
                }
                Ok(true)
            }
        }
    }

    /// Starts the RAT group of `candidate` (a negative hint): it must name a live clause that
    /// contains `-pivot`, and not one named before (`limit` is how many live clauses contain
    /// it: naming more shows a repeat). The resolvent's other literals are made false; true
    /// when one of them is already true, so the resolvent is implied at once.
    fn open_candidate(
        &mut self,
        pivot: i32,
        candidate: u64,
        limit: usize,
        budget: &mut Budget,
    ) -> Result<bool, String> {
        let offset = match self.store.slot(candidate) {
            Slot::Live(offset) => offset,
            _ => fail!(
                "RAT hint -{candidate} names no live clause: it {}",
                self.missing_reason(candidate)
            ),
        };
        let len = self.store.arena[offset] as usize;
        budget.charge(len as u64 + 1, "checking RAT candidates")?;
        ensure!(
            self.store.clause(offset).contains(&-pivot),
            "RAT hint -{candidate}: clause {candidate} does not contain {}, the negated pivot \
             (the pivot is the clause's first literal, {pivot})",
            -pivot
        );
        if self.named.len() >= limit {
            // Every name so far is a distinct live clause containing -pivot, or one repeats:
            // with this one, more names than such clauses, so some name repeats.
            budget.charge_each(self.named.len() as u64 + 1, 8, "sorting RAT candidates")?;
            self.named.push(candidate);
            self.named.sort_unstable();
            let repeated = self.named.windows(2).find(|w| w[0] == w[1]).map_or(candidate, |w| w[0]);
            fail!("RAT hint -{repeated} is given twice");
        }
        budget.charge(8, "listing RAT candidates")?;
        self.named.push(candidate);
        for k in offset + 1..offset + 1 + len {
            let lit = self.store.arena[k];
            if lit == -pivot {
                continue;
            }
            match self.value(lit) {
                UNASSIGNED => self.assign(-lit),
                -1 => {}
                _ => return Ok(true),
            }
        }
        Ok(false)
    }

    /// Ends the RAT group of `candidate`: its hints must have shown the resolvent (`done`).
    fn close_candidate(
        &mut self,
        pivot: i32,
        base: usize,
        candidate: u64,
        done: bool,
    ) -> Result<(), String> {
        self.undo_to(base);
        ensure!(
            done,
            "RAT candidate {candidate}: its hints end without a falsified clause (the resolvent \
             on {pivot} is not shown to follow)"
        );
        Ok(())
    }

    /// Assigns `lit` true. The caller ensures its variable is unassigned.
    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs();
        self.values[var as usize] = if lit > 0 { 1 } else { -1 };
        self.trail.push(var);
    }

    /// Unassigns the trail down to `len` entries.
    fn undo_to(&mut self, len: usize) {
        for &var in &self.trail[len..] {
            self.values[var as usize] = UNASSIGNED;
        }
        self.trail.truncate(len);
    }

    /// 1 if `lit` is true, -1 if false, 0 if unassigned.
    fn value(&self, lit: i32) -> i8 {
        let v = self.values[lit.unsigned_abs() as usize];
        if lit > 0 {
            v
        } else {
            -v
        }
    }

    /// Builds the occurrence lists if they do not exist yet, charging every entry.
    fn build_occurrences(&mut self, budget: &mut Budget) -> Result<(), String> {
        if self.occurrences.is_some() {
            return Ok(());
        }
        let literals = (self.store.arena.len() - self.store.garbage) as u64;
        let index = (self.store.dense.len() + self.store.sparse.len()) as u64;
        budget.charge(
            literals
                .saturating_mul(OCCURRENCE_COST)
                .saturating_add(index)
                .saturating_add(2 * self.values.len() as u64 * OCCURRENCE_LIST_COST),
            "indexing literal occurrences",
        )?;
        let mut lists: Vec<Vec<u64>> = Vec::new();
        lists.resize_with(2 * self.values.len(), Vec::new);
        for (id, offset) in self.store.live_ids() {
            for &lit in self.store.clause(offset) {
                let list = &mut lists[code(lit)];
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        self.occurrences = Some(lists);
        Ok(())
    }

    /// The live clauses containing `lit`, with deleted ones dropped from its list (charged).
    fn live_occurrences(&mut self, lit: i32, budget: &mut Budget) -> Result<&[u64], String> {
        self.build_occurrences(budget)?;
        let store = &self.store;
        let list = &mut self.occurrences.as_mut().expect("built above")[code(lit)];
        budget.charge(list.len() as u64 + 1, "scanning RAT candidates")?;
        list.retain(|&id| matches!(store.slot(id), Slot::Live(_)));
        Ok(list)
    }

    /// A live clause containing `-pivot` that `self.named` (sorted) does not list.
    fn unnamed_candidate(
        &mut self,
        pivot: i32,
        budget: &mut Budget,
    ) -> Result<Option<u64>, String> {
        let named = std::mem::take(&mut self.named);
        let found = self
            .live_occurrences(-pivot, budget)?
            .iter()
            .copied()
            .find(|id| named.binary_search(id).is_err());
        self.named = named;
        Ok(found)
    }

    fn missing_reason(&self, id: u64) -> &'static str {
        match self.store.slot(id) {
            Slot::Deleted => "was deleted",
            _ => "does not exist",
        }
    }

    /// Follows the hint `id` (a positive clause id) as a step of unit propagation under the
    /// current assignment, the hinted clause's scan charged to `budget` before it happens: the
    /// clause must be live and unit (its open literal is then assigned), already satisfied (it
    /// adds nothing, as in lrat-check and cake_lpr), or falsified (a conflict).
    fn propagate(&mut self, id: u64, budget: &mut Budget) -> Result<Propagation, String> {
        let offset = match self.store.slot(id) {
            Slot::Live(offset) => offset,
            _ => fail!("hint {id} names no live clause: it {}", self.missing_reason(id)),
        };
        let len = self.store.arena[offset] as usize;
        budget.charge(len as u64 + 1, "following LRAT hints")?;
        // The literal of the hinted clause that is not false, if there is one.
        let mut open: Option<i32> = None;
        for &lit in &self.store.arena[offset + 1..offset + 1 + len] {
            match self.value(lit) {
                -1 => {}
                UNASSIGNED => match open {
                    None => open = Some(lit),
                    Some(prev) if prev == lit => {}
                    Some(_) => fail!(
                        "hint {id} is not unit and not falsified under the negated clause (two \
                         or more literals are unassigned)"
                    ),
                },
                _ => return Ok(Propagation::NoConflict),
            }
        }
        Ok(match open {
            None => Propagation::Conflict,
            Some(lit) => {
                self.assign(lit);
                Propagation::NoConflict
            }
        })
    }
}

/// The work units of storing a clause of `len` literals.
fn clause_cost(len: usize) -> u64 {
    CLAUSE_OVERHEAD.saturating_add((len as u64).saturating_mul(LITERAL_COST))
}
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// (x1 | x2), (!x1 | x2), (x1 | !x2), (!x1 | !x2): unsatisfiable (also the binary form's
    /// tests' formula).
    pub(crate) fn square() -> Cnf {
        Cnf { num_vars: 2, clauses: vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]] }
    }

    /// (x1 | x2), (x1 | !x2), (!x1 | x3), (!x1 | !x3): unsatisfiable.
    pub(crate) fn chain() -> Cnf {
        Cnf { num_vars: 3, clauses: vec![vec![1, 2], vec![1, -2], vec![-1, 3], vec![-1, -3]] }
    }

    const SQUARE_PROOF: &str = "c a refutation\n5 1 0 1 3 0\n\n5 d 1 3 0\n6 0 5 2 4 0\n";

    /// `-1` as a RAT step on pivot -1 (candidates 1 and 2, each refuted through 4 and 3),
    /// then the empty clause.
    const CHAIN_RAT_PROOF: &str = "5 -1 0 -1 4 3 -2 4 3 0\n6 0 5 1 2 0\n";

    fn check(cnf: &Cnf, proof: &str) -> Result<LratReport, LratError> {
        check_lrat(cnf, proof, &mut Budget::new(crate::base::budget::DEFAULT_MAX_WORK))
    }

    fn rejects(cnf: &Cnf, proof: &str, needle: &str) -> LratError {
        match check(cnf, proof) {
            Ok(report) => panic!("accepted {proof:?}: {report:?}"),
            Err(e) => {
                assert!(e.to_string().contains(needle), "error {e} does not mention {needle:?}");
                e
            }
        }
    }

    #[test]
    fn accepts_square() {
        let report = check(&square(), SQUARE_PROOF).unwrap();
        assert_eq!(
            report,
            LratReport {
                additions: 2,
                rat_additions: 0,
                deletions: 2,
                hints: 5,
                empty_clause_id: 6
            }
        );
    }

    #[test]
    fn accepts_direct_and_trailing_text() {
        // Unit conflict from the inputs; everything after the empty clause is not read.
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![3], vec![-3, 1], vec![-1, -3]] };
        let report = check(&cnf, "4 0 1 2 3 0\nthis is never read\n").unwrap();
        assert_eq!(report.empty_clause_id, 4);
        // Ids may skip; the empty clause may be an input clause's consequence via one hint.
        let cnf = Cnf { num_vars: 1, clauses: vec![vec![1], vec![], vec![-1]] };
        assert_eq!(check(&cnf, "10 0 2 0").unwrap().empty_clause_id, 10);
        // Later hints after the conflict are ignored even if they would fail.
        assert!(check(&cnf, "10 0 1 3 2 2 0").is_ok());
    }

    #[test]
    fn accepts_repeated_literals_crlf_and_tabs() {
        let cnf = Cnf { num_vars: 2, clauses: vec![vec![1, 1, 2], vec![-2, -2], vec![-1, 2]] };
        let report = check(&cnf, "4 1 1 0 1 2 0\r\n5\t0 4 3 2 0\r\n").unwrap();
        assert_eq!(report.additions, 2);
    }

    #[test]
    fn a_satisfied_hint_adds_nothing() {
        // As in lrat-check and cake_lpr: hint 1 (x1 | x2) is satisfied once x1 is... assigned
        // true by the first hint; following it changes nothing, and the proof still checks.
        let cnf = Cnf { num_vars: 2, clauses: vec![vec![1], vec![1, 2], vec![-1, -2], vec![2]] };
        assert!(check(&cnf, "5 0 1 2 1 3 4 0").is_ok());
    }

    #[test]
    fn rejects_open_hint() {
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![1, 2, 3], vec![-1], vec![-2], vec![-3]] };
        let e = rejects(&cnf, "5 0 1 2 3 4 0\n", "hint 1 is not unit");
        assert!(e.message.contains("two or more literals are unassigned"), "{e}");
        assert_eq!((e.line, e.clause_id), (1, Some(5)));
    }

    #[test]
    fn rejects_missing_hint() {
        let e = rejects(&square(), "5 1 0 1 0\n", "the hints end without a falsified clause");
        // Not a RAT step either, and the message says which clause a RAT step would need.
        assert!(e.message.contains("clause 2 contains -1"), "{e}");
    }

    #[test]
    fn rejects_deleted_clause() {
        let e = rejects(&square(), "5 1 0 1 3 0\n5 d 2 0\n6 0 5 2 4 0\n", "was deleted");
        assert_eq!(e.line, 3);
        // Deleting a clause that later steps do not use is fine.
        assert!(check(&square(), "5 1 0 1 3 0\n5 d 1 0\n6 0 5 2 4 0\n").is_ok());
        rejects(&square(), "5 d 1 0\n5 d 1 0\n", "already deleted");
        rejects(&square(), "5 d 9 0\n", "does not exist");
        rejects(&square(), "5 1 0 1 3 0\n5 d 5 0\n5 d 5 0\n", "already deleted");
    }

    #[test]
    fn rejects_non_increasing_id() {
        rejects(&square(), "4 1 0 1 3 0\n", "not greater");
        rejects(&square(), "5 1 0 1 3 0\n5 0 5 2 4 0\n", "not greater");
    }

    #[test]
    fn rejects_truncated_proof() {
        let e = rejects(&square(), "5 1 0 1 3 0\n", "proof ends before the empty clause");
        assert_eq!(e.line, 0);
        rejects(&square(), "", "proof ends before the empty clause");
        rejects(&square(), "5 1 0 1 3 0\n6 0 5 2", "not terminated by 0");
    }

    #[test]
    fn rejects_garbage() {
        rejects(&square(), "5 1 0 1 x 0\n", "malformed hint \"x\"");
        rejects(&square(), "5 1 y 0 1 3 0\n", "malformed literal");
        rejects(&square(), "five 1 0 1 3 0\n", "positive clause id");
        rejects(&square(), "0 1 0 1 3 0\n", "positive clause id");
        rejects(&square(), "-5 1 0 1 3 0\n", "positive clause id");
        rejects(&square(), "5 1 0 1 3 0 7\n", "after the final 0");
        rejects(&square(), "5 d 1 q 0\n", "malformed clause id");
        rejects(&square(), "5 d 1\n", "does not end with 0");
        rejects(&square(), "5 d -1 0\n", "malformed clause id");
        rejects(&square(), "5 1 0 1 --3 0\n", "malformed hint");
        rejects(&square(), "5 +1 0 1 3 0\n", "malformed literal");
    }

    #[test]
    fn accepts_rat_steps() {
        let report = check(&chain(), CHAIN_RAT_PROOF).unwrap();
        assert_eq!((report.additions, report.rat_additions, report.hints), (2, 1, 9));
        // The candidates may come in any order (cake_lpr's rule; drat-trim wants them sorted).
        assert!(check(&chain(), "5 -1 0 -2 4 3 -1 4 3 0\n6 0 5 1 2 0\n").is_ok());
        // Positive hints before the first negative one hold in every candidate's check.
        // Here unit 3 from hint 3 refutes candidate 2 with hint 4 alone; candidate 1 holds 2,
        // true under the negated clause, so it is named with no hints of its own.
        let proof = "5 -1 -2 0 3 -1 -2 4 0\n6 -1 0 3 4 0\n7 0 6 1 2 0\n";
        assert_eq!(check(&chain(), proof).unwrap().rat_additions, 1);
    }

    #[test]
    fn accepts_extension_variables_beyond_the_header() {
        // x3 := x1 (two RAT steps on the fresh x3), then a refutation through x3.
        let proof = "5 3 -1 0 0\n6 -3 1 0 -5 0\n7 3 0 5 1 3 0\n8 0 7 6 2 4 0\n";
        let report = check(&square(), proof).unwrap();
        assert_eq!(report.rat_additions, 2);
        // Clause 6's only candidate, 5 = (3 | -1), resolves to a tautology: it needs no hints,
        // and leaving the candidate out is refused.
        rejects(&square(), "5 3 -1 0 0\n6 -3 1 0 0\n", "clause 5 contains 3");
    }

    #[test]
    fn rejects_rat_mutants() {
        // A RAT group removed: the unnamed candidate is named.
        let e = rejects(&chain(), "5 -1 0 -1 4 3 0\n6 0 5 1 2 0\n", "clause 2 contains 1");
        assert_eq!((e.line, e.clause_id), (1, Some(5)));
        assert!(e.message.contains("no RAT hint names it"), "{e}");
        // A hint dropped from a group.
        let e = rejects(&chain(), "5 -1 0 -1 4 -2 4 3 0\n", "RAT candidate 1");
        assert!(e.message.contains("without a falsified clause"), "{e}");
        // A candidate that does not contain the negated pivot.
        rejects(&chain(), "5 -1 0 -3 4 -1 4 3 -2 4 3 0\n", "does not contain 1, the negated");
        // The wrong pivot: with the literals reordered, -2 is the pivot, and clause 1 holds 2
        // but its resolvent (-1 | -2 | 1) cannot be refuted by the group given.
        rejects(&chain(), "5 -2 -1 0 -1 4 3 -2 4 3 0\n", "does not contain 2");
        // A candidate named twice.
        rejects(&chain(), "5 -1 0 -1 4 3 -1 4 3 -2 4 3 0\n", "given twice");
        // A candidate that was deleted, or does not exist.
        rejects(&chain(), "5 d 1 0\n6 -1 0 -1 4 3 -2 4 3 0\n", "RAT hint -1 names no live");
        rejects(&chain(), "5 -1 0 -9 4 3 0\n", "does not exist");
        // A wrong hint inside a group.
        rejects(&chain(), "5 -1 0 -1 1 3 -2 4 3 0\n", "RAT candidate 1: its hints end");
        let cnf = Cnf { num_vars: 4, clauses: vec![vec![1, 2], vec![-1, 3, 4], vec![-2]] };
        rejects(&cnf, "4 -1 0 -1 2 0\n", "RAT candidate 1: hint 2 is not unit");
    }

    #[test]
    fn the_empty_clause_needs_unit_propagation() {
        // drat-trim's lrat-check at HEAD accepts `2 0 0` on any formula; this checker must not.
        let satisfiable = Cnf { num_vars: 2, clauses: vec![vec![1, 2]] };
        rejects(&satisfiable, "2 0 0\n", "the hints end without a falsified clause");
        rejects(&chain(), "5 0 -1 4 3 -2 4 3 0\n", "the empty clause has no pivot");
        // A RAT step on a fresh variable never makes a satisfiable formula refutable.
        rejects(&satisfiable, "2 3 0 0\n3 -3 0 0\n4 0 2 3 0\n", "clause 2 contains 3");
    }

    #[test]
    fn sparse_ids_and_compaction() {
        // Ids past a huge gap go to the map; look-ups and deletions work across both.
        let proof =
            "1000000000000 1 0 1 3 0\n1000000000001 d 1 0\n1000000000005 0 1000000000000 2 4 0\n";
        assert_eq!(check(&square(), proof).unwrap().empty_clause_id, 1_000_000_000_005);
        // Enough deletions to compact the arena (more than `COMPACT_AT` slots of garbage):
        // each step re-derives (x1) and deletes the previous copy.
        let mut proof = String::from("5 1 0 1 3 0\n");
        let copies = COMPACT_AT / 2 + 10;
        for k in 0..copies {
            let (prev, id) = (5 + k, 6 + k);
            proof.push_str(&format!("{id} 1 1 1 0 {prev} 0\n{id} d {prev} 0\n"));
        }
        proof.push_str(&format!("{} 0 {} 2 4 0\n", 6 + copies, 5 + copies));
        let report = check(&square(), &proof).unwrap();
        assert_eq!(report.deletions, copies as u64);
    }

    #[test]
    fn rejects_literal_out_of_range() {
        rejects(&square(), "5 2147483648 0 1 0\n", "beyond the largest variable");
        rejects(&square(), "5 99999999999 0 1 0\n", "beyond the largest variable");
        let bad = Cnf { num_vars: 2, clauses: vec![vec![1], vec![-3]] };
        let e = rejects(&bad, "3 0 1 2 0\n", "outside the 2 variables");
        assert_eq!((e.line, e.clause_id), (0, Some(2)));
        let zero = Cnf { num_vars: 2, clauses: vec![vec![1, 0]] };
        rejects(&zero, "2 0 1 0\n", "contains 0");
    }

    #[test]
    fn rejects_tautology() {
        rejects(&square(), "5 1 -1 0 1 0\n", "tautology");
    }

    #[test]
    fn enforces_the_budget() {
        let e = check_lrat(&square(), SQUARE_PROOF, &mut Budget::new(20)).unwrap_err();
        assert!(e.message.contains("work limit reached"), "{e}");
        // A variable named by a proof costs its assignment: variables that the bytes read allow
        // are still charged first, and refused by the budget, not allocated.
        let big = Cnf { num_vars: 1, clauses: vec![vec![1; 400_000], vec![-1]] };
        let e = check_lrat(&big, "3 700000 0 1 0", &mut Budget::new(10_000_000)).unwrap_err();
        assert!(e.message.contains("growing the assignment"), "{e}");
        // One long clause hinted many times: every hint pays for the scan.
        let long: Vec<i32> = std::iter::repeat_n(1, 10_000).collect();
        let cnf = Cnf { num_vars: 1, clauses: vec![long, vec![-1]] };
        let mut proof = String::new();
        for id in 3..200 {
            proof.push_str(&format!("{id} 1 0 1 1 1 1 0\n"));
        }
        let e = check_lrat(&cnf, &proof, &mut Budget::new(1_000_000)).unwrap_err();
        assert!(e.message.contains("following LRAT hints"), "{e}");
        // A jump in ids costs the index slots it spans, or a map entry past a large gap.
        let e = check_lrat(&square(), "60000 1 0 1 3 0", &mut Budget::new(100_000)).unwrap_err();
        assert!(e.message.contains("growing the clause index"), "{e}");
    }

    #[test]
    fn rat_scans_are_charged() {
        // Many clauses contain -1; each RAT step on 1 scans them all and is charged for it.
        let mut cnf = Cnf::new(3);
        for _ in 0..20_000 {
            cnf.add_clause(vec![-1, 2, 3]);
        }
        cnf.add_clause(vec![-2]);
        let mut proof = String::new();
        for id in 20_002..20_202 {
            // (1 | 3) on pivot 1 would need a hint group per candidate; none are given, so each
            // step fails only after the scan is charged.
            proof.push_str(&format!("{id} 1 3 0 -1 0\n"));
        }
        let e = check_lrat(&cnf, &proof, &mut Budget::new(1_500_000)).unwrap_err();
        assert!(e.message.contains("RAT") || e.message.contains("work limit"), "{e}");
        let e = check_lrat(&cnf, &proof, &mut Budget::new(300_000)).unwrap_err();
        assert!(e.message.contains("work limit reached"), "{e}");
    }

    #[test]
    fn reads_a_stream_as_it_reads_text() {
        use std::io::Read;
        let read = |text: &str, budget: u64| {
            check_lrat_reader(&square(), text.as_bytes(), &mut Budget::new(budget))
        };
        assert_eq!(read(SQUARE_PROOF, 1_000_000).unwrap(), check(&square(), SQUARE_PROOF).unwrap());
        let e = read("5 1 0 1 3 0\n", 1_000_000).unwrap_err();
        assert!(e.message.contains("proof ends before"), "{e}");
        // A line longer than the budget runs out of it while it is read, and is never held.
        let long = format!("5 1 0 {} 0\n", "1 ".repeat(30_000));
        let e = read(&long, 50_000).unwrap_err();
        assert!(e.message.contains("work limit reached"), "{e}");
        assert_eq!(e.line, 1);
        // No line is held, so none is too long: a token is, at the line it is in.
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let e = check_lrat_reader(&square(), zeros, &mut Budget::unlimited()).unwrap_err();
        assert!(e.message.contains("a token longer than 24 bytes"), "{e}");
        let digits = format!("c\n5 1 0 {}1 0\n", "1".repeat(40));
        let e = read(&digits, u64::MAX).unwrap_err();
        assert_eq!((e.line, e.message.contains("longer than 24 bytes")), (2, true), "{e}");
        // Comment and blank lines are charged as they are read.
        let comments = std::io::BufReader::new(
            std::io::repeat(b'c').take(1 << 20).chain(std::io::repeat(b'\n')),
        );
        let e = check_lrat_reader(&square(), comments, &mut Budget::new(100_000)).unwrap_err();
        assert!(e.message.contains("work limit reached while reading the LRAT proof"), "{e}");
        let blank = std::io::BufReader::new(std::io::repeat(b'\n'));
        let e = check_lrat_reader(&square(), blank, &mut Budget::new(100_000)).unwrap_err();
        assert!(e.message.contains("work limit reached while reading the LRAT proof"), "{e}");
        // A long honest line: 10,000 clauses live, 20,000 hints on one line.
        let mut wide = Cnf { num_vars: 1, clauses: vec![vec![1]; 10_000] };
        wide.clauses.push(vec![-1]);
        let hints: String = (1..=10_000).map(|h| format!("{h} ")).collect::<String>().repeat(2);
        let proof = format!("10002 0 {hints}10001 0\n");
        let read = check_lrat_reader(&wide, proof.as_bytes(), &mut Budget::unlimited());
        assert_eq!(read.unwrap().empty_clause_id, 10002);
    }

    /// Line ends: `\n`, one `\r` before it or at the very end; any other `\r` is refused.
    #[test]
    fn line_ends_and_carriage_returns() {
        assert!(check(&square(), "5 1 0 1 3 0\r\n6 0 5 2 4 0\r").is_ok());
        assert!(check(&square(), "c x\r\n\r\n  \t\r\n5 1 0 1 3 0\n6 0 5 2 4 0").is_ok());
        let e = rejects(&square(), "5 1 0 1\r3 0\n", "inside a line");
        assert_eq!(e.line, 1);
        rejects(&square(), "5 1 0 1 3 0\r\r\n6 0 5 2 4 0\n", "inside a line");
        rejects(&square(), "\r5 1 0 1 3 0\n", "inside a line");
    }

    /// A clause's repeated literals are kept once, and what the checker holds for a line does
    /// not grow with the line: a line of a million repeated literals and hints is read in
    /// the memory of one.
    #[test]
    fn repeated_literals_and_hints_are_not_held() {
        let proof =
            format!("5 {}0 {}0\n6 0 5 2 4 0\n", "1 ".repeat(1 << 20), "1 3 ".repeat(1 << 19));
        let mut budget = Budget::unlimited();
        let mut checker = Checker::new(&square(), &mut budget).unwrap();
        let mut text = ProofText::new(proof.as_bytes());
        assert_eq!(checker.step(&mut text, &mut budget).unwrap(), Some(None));
        assert!(checker.lits.capacity() < 16, "{}", checker.lits.capacity());
        assert!(checker.named.capacity() < 16);
        assert_eq!(checker.store.clause(*checker.store.dense.get(5).unwrap() as usize), &[1]);
        assert_eq!(check(&square(), &proof).unwrap().hints, (1 << 20) + 3);
    }

    /// Numbers never size a buffer alone: a variable far past the assignment, or an id far
    /// past the clauses stored, is refused or goes to the map, whatever the budget.
    #[test]
    fn numbers_do_not_size_buffers() {
        let e = rejects(&square(), "5 100000 0 1 0\n", "far beyond the 2 variables");
        assert_eq!(e.line, 1);
        // Fresh variables one at a time are fine, however many.
        let mut proof = String::new();
        for v in 3..3000 {
            proof.push_str(&format!("{} {v} -1 0 0\n", v + 2));
        }
        let mut budget = Budget::unlimited();
        let mut checker = Checker::new(&square(), &mut budget).unwrap();
        let mut text = ProofText::new(proof.as_bytes());
        while checker.step(&mut text, &mut budget).unwrap().is_some() {}
        assert_eq!(checker.values.len(), 3000);
        // Doubling ids each line go to the map once past four a clause stored.
        let mut proof = String::new();
        let mut id = 5u64;
        for _ in 0..40 {
            proof.push_str(&format!("{id} 1 0 1 3 0\n{} d {id} 0\n", id + 1));
            id *= 2;
        }
        let mut budget = Budget::unlimited();
        let mut checker = Checker::new(&square(), &mut budget).unwrap();
        let mut text = ProofText::new(proof.as_bytes());
        while checker.step(&mut text, &mut budget).unwrap().is_some() {}
        assert!(checker.store.dense.len() <= (1 << 16) + 4 * 44, "{}", checker.store.dense.len());
        assert!(checker.store.sparse.len() >= 20);
    }

    /// A RAT step may name the same chain once per candidate: K candidates and a chain of L
    /// clauses make a line of about K * L hints, far more than twice the live clauses (an honest
    /// proof that lrat-check and cake_lpr accept, refused by the old linear bound).
    #[test]
    fn a_rat_line_may_repeat_a_chain_for_every_candidate() {
        let (k, l) = (200i32, 200i32);
        let (p, a, y) = (1, |i: i32| 1 + i, |j: i32| 1 + k + j);
        let mut clauses: Vec<Vec<i32>> = (1..=k).map(|i| vec![-p, a(i)]).collect();
        clauses.push(vec![p, y(1)]);
        clauses.extend((1..l).map(|j| vec![-y(j), y(j + 1)]));
        clauses.push(vec![-y(l), p]);
        clauses.push(vec![-p]);
        let cnf = Cnf { num_vars: (1 + k + l) as u32, clauses };
        let n = cnf.clauses.len() as u64;
        // p false forces y1 .. yL and then falsifies (-yL p): the chain K+1 .. K+L+1.
        let chain: String =
            (k as u64 + 1..=k as u64 + l as u64 + 1).map(|h| format!("{h} ")).collect();
        let mut line = format!("{} {p} 0 ", n + 1);
        for candidate in (1..=k as u64).chain([n]) {
            line.push_str(&format!("-{candidate} {chain}"));
        }
        let proof = format!("{line}0\n{} 0 {} {n} 0\n", n + 2, n + 1);
        assert!(proof.len() > 1 << 17, "{}", proof.len());
        let report = check(&cnf, &proof).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.empty_clause_id, n + 2);
        // Streamed, as `gamecert-check lrat` reads a proof.
        let streamed = check_lrat_reader(&cnf, proof.as_bytes(), &mut Budget::unlimited());
        assert_eq!(streamed.unwrap_or_else(|e| panic!("{e}")).empty_clause_id, n + 2);
    }

    #[test]
    fn display_names_line_and_clause() {
        let e = check(&chain(), "c\n5 -1 0 -1 4 3 0\n").unwrap_err();
        assert!(e.to_string().starts_with("LRAT line 2 (clause 5): clause 2 contains 1"), "{e}");
    }

    #[test]
    fn never_panics_on_odd_input() {
        let odd = [
            "\u{0}",
            "-1 0 0",
            "18446744073709551615 0 1 3 0",
            "18446744073709551616 0 0",
            "5 -2147483648 0 0",
            "5 0 -9223372036854775808 0",
            "5 -9223372036854775808 0 0",
            "5 1 0 -18446744073709551615 0",
            "5 1 0 -5 0",
            "5 1 0 -1 -1 -1 0",
            "5 d",
            "5",
            "   \t ",
            "c only a comment",
            "5 1 0 1 3 0\n5 d 5 5 0",
            "5 1 0 -2 4 4 4 4 0",
        ];
        for proof in odd {
            assert!(check(&square(), proof).is_err(), "{proof:?}");
        }
        // A generous variable count costs nothing until a literal uses it.
        let huge = Cnf { num_vars: u32::MAX, clauses: vec![vec![1], vec![-1]] };
        assert_eq!(check(&huge, "3 0 1 2 0").unwrap().empty_clause_id, 3);
        assert!(check(&huge, "3 3000000000 0 1 0").is_err());
        let min = Cnf { num_vars: u32::MAX, clauses: vec![vec![i32::MIN]] };
        assert!(check(&min, "2 0 1 0").is_err());
    }
}

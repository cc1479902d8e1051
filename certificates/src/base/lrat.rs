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
//! Work is charged to the check's [`Budget`] before it is done: each input clause as it is
//! stored, each proof line as it is read and before it is held (comments and blank lines too,
//! [`crate::base::text::read_line`]), and again by its length when it is parsed, each hint by
//! the length of the clause it names (the clause is scanned once per hint), each stored clause by the bytes it holds, the clause index
//! and the assignment as they grow, and for RAT steps the occurrence lists (built the first
//! time a RAT step needs them, then kept up to date) and every entry of the one scanned. A
//! proof that would pass the budget is rejected at the line that would pass it. There is no
//! recursion, and no input makes the checker panic.
//!
//! A streamed proof line is bounded by what an honest line can hold: 24 bytes a token for every
//! variable named so far (the assignment's size) and one more, and for (live clauses + 1)^2
//! hints (a RAT step names each candidate and a chain after it), at least 64 KiB. A line past it (a newline-free stream, `/dev/zero`) is rejected before more
//! is held, whatever the budget left.
//!
//! Clauses live in one arena of literals, found through an index by id: a plain table while
//! ids are dense (proof producers number clauses consecutively), a map with the standard
//! library's keyed hasher for ids past a large gap, so no proof can be crafted to make look-ups
//! collide. Deleted clauses leave garbage in the arena that is compacted away once it
//! outweighs the live clauses.

use std::collections::HashMap;
use std::fmt;

use crate::base::budget::Budget;
use crate::base::cnf::Cnf;
use crate::base::text::{read_line, without_line_end};

/// The bytes a token of an honest line takes at most: a 20-digit id, or a sign and 19 digits,
/// with its separator and room for one more.
const TOKEN_BYTES: usize = 24;

/// The shortest line bound, whatever the formula: 64 KiB.
const MIN_LINE_CAP: usize = 1 << 16;

/// Work units charged per stored clause besides its literals: its header in the arena and its
/// index entry.
const CLAUSE_OVERHEAD: u64 = 16;

/// Work units charged per literal stored (4 bytes).
const LITERAL_COST: u64 = 4;

/// Work units per entry of a map-indexed (sparse) clause id.
const SPARSE_ENTRY_COST: u64 = 48;

/// Work units per occurrence-list entry (a clause id, 8 bytes).
const OCCURRENCE_COST: u64 = 8;

/// Work units per occurrence list (the vector's header).
const OCCURRENCE_LIST_COST: u64 = 24;

/// The dense id table grows to reach a new id only when the gap is at most this many slots or
/// the table's own size; a larger jump puts the id in the map.
const DENSE_GAP: u64 = 1 << 16;

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
    /// 1-based line of the proof text; 0 for problems with the formula or the proof as a whole.
    pub line: usize,
    /// The clause the problem concerns, when there is one.
    pub clause_id: Option<u64>,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for LratError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "LRAT")?;
        } else {
            write!(f, "LRAT line {}", self.line)?;
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
    let mut checker = Checker::new(cnf, budget)?;
    for (index, line) in proof.as_bytes().split(|&b| b == b'\n').enumerate() {
        if let Some(report) = checker.feed(index + 1, line, budget)? {
            return Ok(report);
        }
    }
    Err(error(0, None, "proof ends before the empty clause".to_string()))
}

/// [`check_lrat`] on a proof read line by line from `proof` (a file of gigabytes is never held
/// whole), through [`read_line`]: every line (comments and blank lines included) is charged as
/// it is read, before it is held, and a line longer than an honest line can be
/// (`Checker::line_cap`) is refused before more than that is held.
pub fn check_lrat_reader(
    cnf: &Cnf,
    mut proof: impl std::io::BufRead,
    budget: &mut Budget,
) -> Result<LratReport, LratError> {
    let mut checker = Checker::new(cnf, budget)?;
    let mut line = Vec::new();
    for line_no in 1.. {
        let cap = checker.line_cap();
        let more = read_line(&mut proof, &mut line, cap, budget, "reading the LRAT proof")
            .map_err(|why| {
                if !why.starts_with("the line is longer") {
                    return error(line_no, None, why);
                }
                let (vars, live) = (checker.values.len().saturating_sub(1), checker.store.live);
                let why = format!(
                    "{why} ({} used so far, {}: an honest LRAT line names each variable, and one \
                     more, at most once and at most (live clauses + 1)^2 hints, a RAT step's \
                     candidates and their chains, in at most {TOKEN_BYTES} bytes a token; at \
                     least {MIN_LINE_CAP} bytes)",
                    crate::base::text::counted(vars, "variable"),
                    crate::base::text::counted(live, "live clause")
                );
                error(line_no, None, why)
            })?;
        if !more {
            break;
        }
        if let Some(report) = checker.feed(line_no, &line, budget)? {
            return Ok(report);
        }
    }
    Err(error(0, None, "proof ends before the empty clause".to_string()))
}

fn error(line: usize, clause_id: Option<u64>, message: String) -> LratError {
    LratError { line, clause_id, message }
}

/// A separator ([`crate::base::text::is_separator`]: ASCII space and tab).
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim_start(line: &[u8]) -> &[u8] {
    let skip = line.iter().take_while(|&&b| is_space(b)).count();
    &line[skip..]
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| is_space(b))
}

/// The whitespace-separated tokens of one line.
struct Tokens<'a> {
    rest: &'a [u8],
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.rest.iter().position(|&b| !is_space(b))?;
        let rest = &self.rest[start..];
        let end = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
        self.rest = &rest[end..];
        Some(&rest[..end])
    }

    fn peek(&self) -> Option<&'a [u8]> {
        Tokens { rest: self.rest }.next()
    }
}

/// A token as a signed number, or `None` when it is not one (or is beyond `i64`).
fn parse_int(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, token),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    let mut value: i64 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(i64::from(d - b'0'))?;
    }
    Some(if negative { -value } else { value })
}

/// A token as an unsigned number, or `None`.
fn parse_uint(token: &[u8]) -> Option<u64> {
    if token.is_empty() || token.len() > 20 || !token.iter().all(u8::is_ascii_digit) {
        return None;
    }
    token.iter().try_fold(0u64, |v, &d| v.checked_mul(10)?.checked_add(u64::from(d - b'0')))
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
        let next = self.dense.len() as u64;
        let gap = id.saturating_sub(next);
        if self.sparse.is_empty() && gap <= DENSE_GAP.max(next) {
            // `id >= next` as ids increase, so the table grows by `gap + 1` slots.
            budget.charge_each(gap + 1, 4, "growing the clause index")?;
            self.dense.resize(id as usize, MISSING);
            self.dense.push(offset as u32);
        } else {
            budget.charge(SPARSE_ENTRY_COST, "growing the clause index")?;
            self.sparse.insert(id, offset as u32);
        }
        self.arena.push(lits.len() as i32);
        self.arena.extend_from_slice(lits);
        self.live += 1;
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
    (lit.unsigned_abs() as usize) << 1 | usize::from(lit < 0)
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
    trail: Vec<usize>,
    /// For RAT steps: per literal code, the ids of clauses containing it (some may since have
    /// been deleted; they are dropped when a scan meets them). Built at the first RAT step.
    occurrences: Option<Vec<Vec<u64>>>,
    /// Token buffers reused across lines.
    lits: Vec<i32>,
    hint_ids: Vec<i64>,
    /// The candidates a RAT step names, sorted, to find unnamed ones.
    named: Vec<u64>,
    additions: u64,
    rat_additions: u64,
    deletions: u64,
    hints: u64,
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
            },
            max_id: m as u64,
            values: Vec::new(),
            trail: Vec::new(),
            occurrences: None,
            lits: Vec::new(),
            hint_ids: Vec::new(),
            named: Vec::new(),
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
            checker.store.insert(id, clause, budget).map_err(at)?;
        }
        // The assignment covers the variables the inputs use and grows when a proof names a
        // larger one, so a generous `num_vars` costs nothing until a literal uses it.
        checker.ensure_var(0, largest, budget)?;
        Ok(checker)
    }

    /// The longest line the proof may hold next, in bytes: [`TOKEN_BYTES`] for each token of
    /// the longest honest line, at least [`MIN_LINE_CAP`]. An honest line holds an id, a clause
    /// naming each variable at most once (every variable the formula's clauses or the proof
    /// named so far, and one fresh one: the assignment's size, so a generous header buys
    /// nothing), a `0`, hints, and a `0`. A RUP chain names each live clause at most once; a
    /// RAT step names each candidate (at most every live clause) followed by a chain that may
    /// again name every live clause, so (live + 1)^2 hints at most; a deletion names each live
    /// clause once. Longer is no proof a producer writes. The quadratic term only grows with
    /// clauses the budget has paid for, and every byte of a line is charged before it is held
    /// (`read_line`), so what one line can make the checker hold stays within the budget; a
    /// formula of comment lines buys no longer lines than an empty one.
    fn line_cap(&self) -> usize {
        let vars = self.values.len().saturating_add(1);
        let live = self.store.live.saturating_add(1);
        let tokens = vars.saturating_add(live.saturating_mul(live)).saturating_add(4);
        tokens.saturating_mul(TOKEN_BYTES).max(MIN_LINE_CAP)
    }

    /// Checks one raw line (comments and blank lines skipped); the report once the empty
    /// clause is added.
    fn feed(
        &mut self,
        line_no: usize,
        raw_line: &[u8],
        budget: &mut Budget,
    ) -> Result<Option<LratReport>, LratError> {
        let line = trim_start(without_line_end(raw_line));
        if line.is_empty() || line[0] == b'c' || is_blank(line) {
            return Ok(None);
        }
        // Reading the line's tokens is linear in its length.
        budget
            .charge(line.len() as u64 + 1, "reading the LRAT proof")
            .map_err(|why| error(line_no, None, why))?;
        Ok(self.line(line_no, line, budget)?.map(|empty_id| LratReport {
            additions: self.additions,
            rat_additions: self.rat_additions,
            deletions: self.deletions,
            hints: self.hints,
            empty_clause_id: empty_id,
        }))
    }

    /// Makes room for variable `var` in the assignment (one byte a variable, charged).
    fn ensure_var(
        &mut self,
        line_no: usize,
        var: u32,
        budget: &mut Budget,
    ) -> Result<(), LratError> {
        let size = var as usize + 1;
        if size > self.values.len() {
            let more = size - self.values.len();
            budget
                .charge(more as u64, "growing the assignment")
                .map_err(|why| error(line_no, None, why))?;
            self.values.resize(size, UNASSIGNED);
            if let Some(lists) = &mut self.occurrences {
                budget
                    .charge_each(
                        2 * more as u64,
                        OCCURRENCE_LIST_COST,
                        "growing the occurrence lists",
                    )
                    .map_err(|why| error(line_no, None, why))?;
                lists.resize_with(2 * size, Vec::new);
            }
        }
        Ok(())
    }

    /// Checks one non-comment line. Returns the id of the empty clause once it is added.
    fn line(
        &mut self,
        line_no: usize,
        line: &[u8],
        budget: &mut Budget,
    ) -> Result<Option<u64>, LratError> {
        let mut tokens = Tokens { rest: line };
        let first = tokens.next().unwrap_or(b"");
        let id = match parse_uint(first) {
            Some(id) if id > 0 => id,
            _ => {
                return Err(error(
                    line_no,
                    None,
                    format!("expected a positive clause id, found {}", shown(first)),
                ))
            }
        };
        if tokens.peek() == Some(b"d") {
            tokens.next();
            self.deletion(line_no, tokens, budget)?;
            return Ok(None);
        }
        self.addition(line_no, id, tokens, budget)
    }

    fn deletion(
        &mut self,
        line_no: usize,
        mut tokens: Tokens,
        budget: &mut Budget,
    ) -> Result<(), LratError> {
        loop {
            let Some(token) = tokens.next() else {
                return Err(error(line_no, None, "deletion line does not end with 0".to_string()));
            };
            let target = match parse_uint(token) {
                Some(0) => break,
                Some(target) => target,
                None => {
                    return Err(error(
                        line_no,
                        None,
                        format!("malformed clause id {} in a deletion", shown(token)),
                    ))
                }
            };
            if !self.store.delete(target) {
                let why = match self.store.slot(target) {
                    Slot::Deleted => "was already deleted",
                    _ => "does not exist",
                };
                return Err(error(
                    line_no,
                    Some(target),
                    format!("cannot delete clause {target}: it {why}"),
                ));
            }
            self.deletions += 1;
        }
        if let Some(extra) = tokens.next() {
            return Err(error(
                line_no,
                None,
                format!("unexpected token {} after the final 0", shown(extra)),
            ));
        }
        self.store.maybe_compact(budget).map_err(|why| error(line_no, None, why))
    }

    fn addition(
        &mut self,
        line_no: usize,
        id: u64,
        mut tokens: Tokens,
        budget: &mut Budget,
    ) -> Result<Option<u64>, LratError> {
        let here = |message: String| error(line_no, Some(id), message);
        if id <= self.max_id {
            return Err(here(format!(
                "clause id {id} is not greater than the largest earlier id {}",
                self.max_id
            )));
        }
        self.max_id = id;

        self.lits.clear();
        loop {
            let Some(token) = tokens.next() else {
                return Err(here("the clause is not terminated by 0".to_string()));
            };
            let lit = match parse_int(token) {
                Some(lit) => lit,
                None => return Err(here(format!("malformed literal {}", shown(token)))),
            };
            if lit == 0 {
                break;
            }
            if lit.unsigned_abs() > MAX_VAR {
                return Err(here(format!(
                    "literal {lit} is beyond the largest variable a literal can name ({MAX_VAR})"
                )));
            }
            // In range, so it fits in an i32 and its variable in a u32.
            self.ensure_var(line_no, lit.unsigned_abs() as u32, budget)?;
            self.lits.push(lit as i32);
        }

        self.hint_ids.clear();
        loop {
            let Some(token) = tokens.next() else {
                return Err(here("the hint list is not terminated by 0".to_string()));
            };
            match parse_int(token) {
                Some(0) => break,
                Some(hint) => self.hint_ids.push(hint),
                None => return Err(here(format!("malformed hint {}", shown(token)))),
            }
        }
        if let Some(extra) = tokens.next() {
            return Err(here(format!("unexpected token {} after the final 0", shown(extra))));
        }
        self.hints += self.hint_ids.len() as u64;

        let verdict = self.justify(budget);
        // Undo every assignment of this step, whatever the verdict.
        self.undo_to(0);
        let rat = verdict.map_err(here)?;

        budget.charge(clause_cost(self.lits.len()), "storing added clauses").map_err(here)?;
        if let Some(lists) = &mut self.occurrences {
            budget
                .charge_each(
                    self.lits.len() as u64,
                    OCCURRENCE_COST,
                    "indexing literal occurrences",
                )
                .map_err(here)?;
            for &lit in &self.lits {
                let list = &mut lists[code(lit)];
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        self.store.insert(id, &self.lits, budget).map_err(here)?;
        self.additions += 1;
        self.rat_additions += u64::from(rat);
        Ok(if self.lits.is_empty() { Some(id) } else { None })
    }

    /// Assigns `lit` true. The caller ensures its variable is unassigned.
    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        self.values[var] = if lit > 0 { 1 } else { -1 };
        self.trail.push(var);
    }

    /// Unassigns the trail down to `len` entries.
    fn undo_to(&mut self, len: usize) {
        for &var in &self.trail[len..] {
            self.values[var] = UNASSIGNED;
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

    /// Checks the addition of `self.lits` along `self.hint_ids` (see the module docs); true
    /// when it is a RAT step. Leaves its assignments on the trail for the caller to undo.
    fn justify(&mut self, budget: &mut Budget) -> Result<bool, String> {
        // Assume the negation of the new clause.
        for k in 0..self.lits.len() {
            let lit = self.lits[k];
            match self.value(lit) {
                UNASSIGNED => self.assign(-lit),
                -1 => {} // a repeated literal
                _ => {
                    return Err(format!("the clause is a tautology (contains {lit} and {})", -lit))
                }
            }
        }
        let hints = std::mem::take(&mut self.hint_ids);
        let result = self.justify_with(&hints, budget);
        self.hint_ids = hints;
        result
    }

    fn justify_with(&mut self, hints: &[i64], budget: &mut Budget) -> Result<bool, String> {
        let prefix = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
        if let Propagation::Conflict = self.propagate(&hints[..prefix], budget)? {
            return Ok(false);
        }
        let Some(&pivot) = self.lits.first() else {
            return Err(if prefix == hints.len() {
                format!(
                    "the hints end without a falsified clause (RUP check failed after {} hints)",
                    hints.len()
                )
            } else {
                "the empty clause has no pivot for a RAT step: it must follow by unit \
                 propagation from the hints before the first negative hint"
                    .to_string()
            });
        };
        if prefix == hints.len() {
            // No RAT hints: still a RAT step when no live clause contains -pivot (a fresh
            // pivot, say); otherwise a failed RUP step, and that is what is reported.
            self.named.clear();
            return match self.unnamed_candidate(pivot, budget)? {
                None => Ok(true),
                Some(clause) => Err(format!(
                    "the hints end without a falsified clause (RUP check failed after {} hints; \
                     not a RAT step either: clause {clause} contains {}, the negated pivot, and \
                     no RAT hint names it)",
                    hints.len(),
                    -pivot
                )),
            };
        }
        self.rat(pivot, &hints[prefix..], budget)?;
        Ok(true)
    }

    /// The RAT check of `self.lits` on `pivot`, given the hint groups `-j h*`.
    fn rat(&mut self, pivot: i32, groups: &[i64], budget: &mut Budget) -> Result<(), String> {
        let base = self.trail.len();
        self.named.clear();
        let mut start = 0;
        while start < groups.len() {
            let candidate = groups[start].unsigned_abs();
            let end = groups[start + 1..]
                .iter()
                .position(|&h| h < 0)
                .map_or(groups.len(), |k| start + 1 + k);
            let group = &groups[start + 1..end];
            start = end;
            let offset = match self.store.slot(candidate) {
                Slot::Live(offset) => offset,
                _ => {
                    return Err(format!(
                        "RAT hint -{candidate} names no live clause: it {}",
                        self.missing_reason(candidate)
                    ))
                }
            };
            let len = self.store.arena[offset] as usize;
            budget.charge(len as u64 + 1, "checking RAT candidates")?;
            if !self.store.clause(offset).contains(&-pivot) {
                return Err(format!(
                    "RAT hint -{candidate}: clause {candidate} does not contain {}, the negated \
                     pivot (the pivot is the clause's first literal, {pivot})",
                    -pivot
                ));
            }
            self.named.push(candidate);
            // The resolvent's other literals are made false; one already true implies it.
            let mut implied = false;
            for k in offset + 1..offset + 1 + len {
                let lit = self.store.arena[k];
                if lit == -pivot {
                    continue;
                }
                match self.value(lit) {
                    UNASSIGNED => self.assign(-lit),
                    -1 => {}
                    _ => {
                        implied = true;
                        break;
                    }
                }
            }
            let outcome =
                if implied { Ok(Propagation::Conflict) } else { self.propagate(group, budget) };
            self.undo_to(base);
            match outcome {
                Ok(Propagation::Conflict) => {}
                Ok(Propagation::NoConflict) => {
                    return Err(format!(
                        "RAT candidate {candidate}: its hints end without a falsified clause \
                         (the resolvent on {pivot} is not shown to follow)"
                    ))
                }
                Err(why) => return Err(format!("RAT candidate {candidate}: {why}")),
            }
        }
        budget.charge_each(self.named.len() as u64, 8, "sorting RAT candidates")?;
        self.named.sort_unstable();
        if let Some(pair) = self.named.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("RAT hint -{} is given twice", pair[0]));
        }
        if let Some(unnamed) = self.unnamed_candidate(pivot, budget)? {
            return Err(format!(
                "clause {unnamed} contains {}, the negated pivot, and no RAT hint names it",
                -pivot
            ));
        }
        Ok(())
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

    /// Follows `hints` (positive clause ids) as unit propagation under the current assignment,
    /// each hinted clause's scan charged to `budget` before it happens.
    fn propagate(&mut self, hints: &[i64], budget: &mut Budget) -> Result<Propagation, String> {
        for &hint in hints {
            let id = hint as u64; // positive: the callers split off the negative hints
            let offset = match self.store.slot(id) {
                Slot::Live(offset) => offset,
                _ => {
                    return Err(format!(
                        "hint {hint} names no live clause: it {}",
                        self.missing_reason(id)
                    ))
                }
            };
            let len = self.store.arena[offset] as usize;
            budget.charge(len as u64 + 1, "following LRAT hints")?;
            // The literals of the hinted clause that are not false.
            let mut open: Option<i32> = None;
            let mut satisfied = false;
            for &lit in &self.store.arena[offset + 1..offset + 1 + len] {
                match self.value(lit) {
                    -1 => {}
                    UNASSIGNED => match open {
                        None => open = Some(lit),
                        Some(prev) if prev == lit => {}
                        Some(_) => {
                            return Err(format!(
                                "hint {hint} is not unit and not falsified under the negated \
                                 clause (two or more literals are unassigned)"
                            ))
                        }
                    },
                    _ => {
                        satisfied = true;
                        break;
                    }
                }
            }
            match open {
                _ if satisfied => {} // already true: it adds nothing, as in lrat-check and cake_lpr
                None => return Ok(Propagation::Conflict),
                Some(lit) => self.assign(lit),
            }
        }
        Ok(Propagation::NoConflict)
    }
}

/// The work units of storing a clause of `len` literals.
fn clause_cost(len: usize) -> u64 {
    CLAUSE_OVERHEAD.saturating_add((len as u64).saturating_mul(LITERAL_COST))
}
#[cfg(test)]
mod tests {
    use super::*;

    /// (x1 | x2), (!x1 | x2), (x1 | !x2), (!x1 | !x2): unsatisfiable.
    fn square() -> Cnf {
        Cnf { num_vars: 2, clauses: vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]] }
    }

    /// (x1 | x2), (x1 | !x2), (!x1 | x3), (!x1 | !x3): unsatisfiable.
    fn chain() -> Cnf {
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
        // A variable named by a proof costs its assignment: 2*10^9 variables are refused by the
        // budget, not allocated.
        let e =
            check_lrat(&square(), "5 2000000000 0 1 0", &mut Budget::new(1_000_000)).unwrap_err();
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
        // A line longer than the budget is refused before it is held whole.
        let long = format!("5 1 0 {} 0\n", "1 ".repeat(30_000));
        let e = read(&long, 50_000).unwrap_err();
        assert!(e.message.contains("work limit reached while reading"), "{e}");
        assert_eq!(e.line, 1);
        // A line longer than an honest one (4 clauses, 2 variables: 64 KiB) is refused, ended
        // or not, within any budget; comment lines are charged as they are read.
        let e = read(&format!("c\n{}{long}", long.trim_end()), u64::MAX).unwrap_err();
        assert_eq!((e.line, e.message.contains("longer than 65536 bytes")), (2, true), "{e}");
        let zeros = std::io::BufReader::new(std::io::repeat(0));
        let e = check_lrat_reader(&square(), zeros, &mut Budget::unlimited()).unwrap_err();
        assert!(e.message.contains("longer than 65536 bytes"), "{e}");
        assert!(e.message.contains("(2 variables used so far, 4 live clauses: an honest"), "{e}");
        let comments = std::io::BufReader::new(
            std::io::repeat(b'c').take(1 << 20).chain(std::io::repeat(b'\n')),
        );
        let e = check_lrat_reader(&square(), comments, &mut Budget::new(100_000)).unwrap_err();
        assert!(e.message.contains("longer than 65536 bytes"), "{e}");
        let comments = std::io::BufReader::new(std::io::repeat(b'\n'));
        let e = check_lrat_reader(&square(), comments, &mut Budget::new(100_000)).unwrap_err();
        assert!(e.message.contains("work limit reached while reading the LRAT proof"), "{e}");
        // The bound grows with the clauses live: 10,000 of them allow 20,000 hints a line.
        let mut wide = Cnf { num_vars: 1, clauses: vec![vec![1]; 10_000] };
        wide.clauses.push(vec![-1]);
        let hints: String = (1..=10_000).map(|h| format!("{h} ")).collect::<String>().repeat(2);
        let proof = format!("10002 0 {hints}10001 0\n");
        assert!(proof.len() > 65536);
        let read = check_lrat_reader(&wide, proof.as_bytes(), &mut Budget::unlimited());
        assert_eq!(read.unwrap().empty_clause_id, 10002);
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
        assert!(proof.len() > 2 * MIN_LINE_CAP, "{}", proof.len());
        let report = check(&cnf, &proof).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(report.empty_clause_id, n + 2);
        // Streamed, as `gamecert-check lrat` reads a proof: within the line bound.
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

//! The trusted LRAT checker: replays a text LRAT refutation of a [`Cnf`].
//!
//! Only the clausal RUP fragment of LRAT is accepted:
//!
//! * an addition line `ID lit* 0 hint* 0` adds the clause `lit*` under the new id `ID`, justified
//!   by reverse unit propagation along the hints in the order given;
//! * a deletion line `ID d id* 0` removes the listed clauses (its leading `ID` is not used);
//! * blank lines and lines whose first non-blank character is `c` are comments.
//!
//! The input clauses have ids `1..=m` in the order of `cnf.clauses`. Every added id must be larger
//! than every id seen before it (the inputs included). The check of an addition assigns the
//! negation of the new clause, then takes the hints one by one: a hinted clause must either be
//! unit under the current assignment (its remaining literal is then assigned) or falsified (the
//! step is then proved, and any later hints are not looked at). Hints that run out before a
//! falsified clause is met reject the step. Negative hints would introduce RAT steps; they are
//! rejected, as are tautological additions, which a RUP proof never needs.
//!
//! The proof succeeds as soon as the empty clause is added; nothing after that line is read.
//!
//! Work is charged to the check's [`Budget`] before it is done: each input clause as it is
//! stored, each proof line by its length, each hint by the length of the clause it names (the
//! clause is scanned once per hint), each stored or deleted clause by the bytes it holds, and
//! the assignment by its size when a literal names a larger variable. A proof that would pass
//! the budget is rejected at the line that would pass it. There is no recursion, and no input
//! makes the checker panic.
//!
//! Clause ids are chosen by the proof's author, so the id maps use the standard library's keyed
//! hasher (SipHash with a random key per run): no proof can be crafted to make look-ups
//! collide.

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::base::budget::Budget;
use crate::base::cnf::Cnf;

/// Work units charged per stored clause besides its literals: the map entry, the boxed slice's
/// allocation and the hash table's spare room.
const CLAUSE_OVERHEAD: u64 = 64;

/// Work units charged per literal stored (4 bytes, rounded up for the allocator).
const LITERAL_COST: u64 = 4;

/// What a successful check saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LratReport {
    /// Addition lines checked, the empty clause included.
    pub additions: u64,
    /// Clauses deleted.
    pub deletions: u64,
    /// Hint references read on addition lines.
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

type IdMap<V> = HashMap<u64, V>;
type IdSet = HashSet<u64>;

/// Checks that `proof` is an LRAT refutation of `cnf`, charging its work to `budget`.
pub fn check_lrat(cnf: &Cnf, proof: &str, budget: &mut Budget) -> Result<LratReport, LratError> {
    let mut checker = Checker::new(cnf, budget)?;
    for (index, raw_line) in proof.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw_line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        // Reading the line's tokens is linear in its length.
        budget
            .charge(line.len() as u64 + 1, "reading the LRAT proof")
            .map_err(|why| error(line_no, None, why))?;
        if let Some(empty_id) = checker.line(line_no, line, budget)? {
            return Ok(LratReport {
                additions: checker.additions,
                deletions: checker.deletions,
                hints: checker.hints,
                empty_clause_id: empty_id,
            });
        }
    }
    Err(error(0, None, "proof ends before the empty clause".to_string()))
}

/// The work units of storing a clause of `len` literals.
fn clause_cost(len: usize) -> u64 {
    CLAUSE_OVERHEAD.saturating_add((len as u64).saturating_mul(LITERAL_COST))
}

fn error(line: usize, clause_id: Option<u64>, message: String) -> LratError {
    LratError { line, clause_id, message }
}

/// The largest variable a literal (an `i32`, negatable without overflow) can name.
const MAX_VAR: u64 = i32::MAX as u64;

/// The entry of `Checker::values` for a variable without a value.
const UNASSIGNED: i8 = 0;

struct Checker<'c> {
    num_vars: u32,
    /// The input clauses, ids `1..=inputs.len()`, borrowed from the formula (never copied).
    inputs: &'c [Vec<i32>],
    /// Whether each input clause is still live (not deleted).
    input_live: Vec<bool>,
    /// Live added clauses by id.
    added: IdMap<Box<[i32]>>,
    /// Added ids deleted so far, for precise messages.
    deleted: IdSet,
    /// The largest id seen so far.
    max_id: u64,
    /// Per variable (index = variable): 1 true, -1 false, 0 unassigned. All 0 between steps.
    values: Vec<i8>,
    /// Variables assigned in the current step, to undo them.
    trail: Vec<usize>,
    /// Token buffers reused across lines.
    lits: Vec<i32>,
    hint_ids: Vec<u64>,
    additions: u64,
    deletions: u64,
    hints: u64,
}

/// The outcome of the RUP check of one addition.
enum Rup {
    Proved,
    Failed(String),
}

impl<'c> Checker<'c> {
    fn new(cnf: &'c Cnf, budget: &mut Budget) -> Result<Checker<'c>, LratError> {
        let m = cnf.clauses.len();
        budget
            .charge_each(m as u64, 2, "indexing the formula's clauses")
            .map_err(|why| error(0, None, why))?;
        let mut largest = 0u32;
        for (k, clause) in cnf.clauses.iter().enumerate() {
            let id = k as u64 + 1;
            budget
                .charge(clause.len() as u64, "reading the formula's clauses")
                .map_err(|why| error(0, Some(id), why))?;
            for &lit in clause {
                if lit == 0 {
                    return Err(error(0, Some(id), "input clause contains 0".to_string()));
                }
                if lit.unsigned_abs() > cnf.num_vars || u64::from(lit.unsigned_abs()) > MAX_VAR {
                    return Err(error(
                        0,
                        Some(id),
                        format!("input literal {lit} is outside the {} variables", cnf.num_vars),
                    ));
                }
                largest = largest.max(lit.unsigned_abs());
            }
        }
        let mut checker = Checker {
            num_vars: cnf.num_vars,
            inputs: &cnf.clauses,
            input_live: vec![true; m],
            added: IdMap::default(),
            deleted: IdSet::default(),
            max_id: m as u64,
            values: Vec::new(),
            trail: Vec::new(),
            lits: Vec::new(),
            hint_ids: Vec::new(),
            additions: 0,
            deletions: 0,
            hints: 0,
        };
        // The assignment covers the variables the inputs use and grows when a proof names a
        // larger one, so a generous `num_vars` costs nothing until a literal uses it.
        checker.ensure_var(0, largest, budget)?;
        Ok(checker)
    }

    /// The live clause `id`, if there is one.
    fn clause(&self, id: u64) -> Option<&[i32]> {
        match usize::try_from(id).ok().and_then(|i| i.checked_sub(1)) {
            Some(i) if i < self.inputs.len() => self.input_live[i].then(|| &self.inputs[i][..]),
            _ => self.added.get(&id).map(|c| &c[..]),
        }
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
        }
        Ok(())
    }

    /// Checks one non-comment line. Returns the id of the empty clause once it is added.
    fn line(
        &mut self,
        line_no: usize,
        line: &str,
        budget: &mut Budget,
    ) -> Result<Option<u64>, LratError> {
        let mut tokens = line.split_ascii_whitespace();
        let first = tokens.next().unwrap_or("");
        let id = match first.parse::<u64>() {
            Ok(id) if id > 0 => id,
            _ => {
                return Err(error(
                    line_no,
                    None,
                    format!("expected a positive clause id, found {first:?}"),
                ))
            }
        };
        let mut tokens = tokens.peekable();
        if tokens.peek() == Some(&"d") {
            tokens.next();
            self.deletion(line_no, tokens, budget)?;
            return Ok(None);
        }
        self.addition(line_no, id, tokens, budget)
    }

    fn deletion<'t>(
        &mut self,
        line_no: usize,
        mut tokens: impl Iterator<Item = &'t str>,
        budget: &mut Budget,
    ) -> Result<(), LratError> {
        loop {
            let Some(token) = tokens.next() else {
                return Err(error(line_no, None, "deletion line does not end with 0".to_string()));
            };
            let target = match token.parse::<u64>() {
                Ok(0) => break,
                Ok(target) => target,
                Err(_) => {
                    return Err(error(
                        line_no,
                        None,
                        format!("malformed clause id {token:?} in a deletion"),
                    ))
                }
            };
            let input = usize::try_from(target)
                .ok()
                .and_then(|i| i.checked_sub(1))
                .filter(|&i| i < self.inputs.len());
            let removed = match input {
                Some(i) => std::mem::replace(&mut self.input_live[i], false),
                None => {
                    let removed = self.added.remove(&target).is_some();
                    if removed {
                        // The deleted set remembers the id for messages: charged as held.
                        budget
                            .charge(CLAUSE_OVERHEAD, "recording deleted clauses")
                            .map_err(|why| error(line_no, Some(target), why))?;
                        self.deleted.insert(target);
                    }
                    removed
                }
            };
            if !removed {
                let why = if input.is_some() || self.deleted.contains(&target) {
                    "was already deleted"
                } else {
                    "does not exist"
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
                format!("unexpected token {extra:?} after the final 0"),
            ));
        }
        Ok(())
    }

    fn addition<'t>(
        &mut self,
        line_no: usize,
        id: u64,
        mut tokens: impl Iterator<Item = &'t str>,
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
            let lit = match token.parse::<i64>() {
                Ok(lit) => lit,
                Err(_) => return Err(here(format!("malformed literal {token:?}"))),
            };
            if lit == 0 {
                break;
            }
            if lit.unsigned_abs() > u64::from(self.num_vars) || lit.unsigned_abs() > MAX_VAR {
                return Err(here(format!(
                    "literal {lit} is outside the {} variables",
                    self.num_vars
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
            let hint = match token.parse::<i64>() {
                Ok(hint) => hint,
                Err(_) => return Err(here(format!("malformed hint {token:?}"))),
            };
            if hint == 0 {
                break;
            }
            if hint < 0 {
                return Err(here(format!("negative hint {hint}: RAT steps are not supported")));
            }
            self.hint_ids.push(hint as u64);
        }
        if let Some(extra) = tokens.next() {
            return Err(here(format!("unexpected token {extra:?} after the final 0")));
        }
        self.hints += self.hint_ids.len() as u64;

        let verdict = self.rup(budget);
        // Undo every assignment of this step, whatever the verdict.
        for &var in &self.trail {
            self.values[var] = UNASSIGNED;
        }
        self.trail.clear();
        if let Rup::Failed(message) = verdict {
            return Err(here(message));
        }

        budget.charge(clause_cost(self.lits.len()), "storing added clauses").map_err(here)?;
        self.additions += 1;
        let clause: Box<[i32]> = self.lits.as_slice().into();
        let is_empty = clause.is_empty();
        self.added.insert(id, clause);
        Ok(if is_empty { Some(id) } else { None })
    }

    /// Assigns `lit` true. The caller ensures its variable is unassigned.
    fn assign(&mut self, lit: i32) {
        let var = lit.unsigned_abs() as usize;
        self.values[var] = if lit > 0 { 1 } else { -1 };
        self.trail.push(var);
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

    /// Reverse unit propagation of `self.lits` along `self.hint_ids`, each hinted clause's
    /// scan charged to `budget` before it happens. Leaves its assignments on the trail for the
    /// caller to undo.
    fn rup(&mut self, budget: &mut Budget) -> Rup {
        // Assume the negation of the new clause.
        for k in 0..self.lits.len() {
            let lit = self.lits[k];
            match self.value(lit) {
                UNASSIGNED => self.assign(-lit),
                -1 => {} // a repeated literal
                _ => {
                    return Rup::Failed(format!(
                        "the clause is a tautology (contains {lit} and {})",
                        -lit
                    ))
                }
            }
        }
        for k in 0..self.hint_ids.len() {
            let hint = self.hint_ids[k];
            let Some(clause) = self.clause(hint) else {
                let deleted = self.deleted.contains(&hint)
                    || usize::try_from(hint)
                        .ok()
                        .and_then(|i| i.checked_sub(1))
                        .is_some_and(|i| i < self.inputs.len());
                let why = if deleted { "was deleted" } else { "does not exist" };
                return Rup::Failed(format!("hint {hint} names no live clause: it {why}"));
            };
            if let Err(why) = budget.charge(clause.len() as u64 + 1, "following LRAT hints") {
                return Rup::Failed(why);
            }
            // Find the literals of the hinted clause that are not false.
            let mut open: Option<i32> = None;
            let mut status = HintStatus::Falsified;
            for &lit in clause.iter() {
                match self.value(lit) {
                    -1 => {}
                    UNASSIGNED => match open {
                        None => {
                            open = Some(lit);
                            status = HintStatus::Unit;
                        }
                        Some(prev) if prev == lit => {}
                        Some(_) => {
                            status = HintStatus::Open;
                            break;
                        }
                    },
                    _ => {
                        status = HintStatus::Satisfied;
                        break;
                    }
                }
            }
            match (status, open) {
                (HintStatus::Falsified, _) => return Rup::Proved,
                (HintStatus::Unit, Some(lit)) => self.assign(lit),
                (HintStatus::Satisfied, _) => {
                    return Rup::Failed(format!(
                        "hint {hint} is not unit and not falsified under the negated clause \
                         (it is satisfied)"
                    ))
                }
                _ => {
                    return Rup::Failed(format!(
                        "hint {hint} is not unit and not falsified under the negated clause \
                         (two or more literals are unassigned)"
                    ))
                }
            }
        }
        Rup::Failed(format!(
            "the hints end without a falsified clause (RUP check failed after {} hints)",
            self.hint_ids.len()
        ))
    }
}

#[derive(Clone, Copy)]
enum HintStatus {
    Falsified,
    Unit,
    Satisfied,
    Open,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x1 | x2), (!x1 | x2), (x1 | !x2), (!x1 | !x2): unsatisfiable.
    fn square() -> Cnf {
        Cnf { num_vars: 2, clauses: vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]] }
    }

    const SQUARE_PROOF: &str = "c a refutation\n5 1 0 1 3 0\n\n5 d 1 3 0\n6 0 5 2 4 0\n";

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
        assert_eq!(report, LratReport { additions: 2, deletions: 2, hints: 5, empty_clause_id: 6 });
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
    fn accepts_repeated_literals_and_crlf() {
        let cnf = Cnf { num_vars: 2, clauses: vec![vec![1, 1, 2], vec![-2, -2], vec![-1, 2]] };
        let report = check(&cnf, "4 1 1 0 1 2 0\r\n5 0 4 3 2 0\r\n").unwrap();
        assert_eq!(report.additions, 2);
    }

    #[test]
    fn rejects_wrong_hint() {
        // Clause 2 (-1 | 2) is satisfied once 1 is false: not unit, not falsified.
        let e = rejects(&square(), "5 1 0 2 3 0\n", "hint 2 is not unit");
        assert_eq!(e.line, 1);
        assert_eq!(e.clause_id, Some(5));
    }

    #[test]
    fn rejects_missing_hint() {
        rejects(&square(), "5 1 0 1 0\n", "the hints end without a falsified clause");
    }

    #[test]
    fn rejects_deleted_clause() {
        let e = rejects(&square(), "5 1 0 1 3 0\n5 d 2 0\n6 0 5 2 4 0\n", "was deleted");
        assert_eq!(e.line, 3);
        // Deleting a clause that later steps do not use is fine.
        assert!(check(&square(), "5 1 0 1 3 0\n5 d 1 0\n6 0 5 2 4 0\n").is_ok());
        rejects(&square(), "5 d 1 0\n5 d 1 0\n", "already deleted");
        rejects(&square(), "5 d 9 0\n", "does not exist");
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
        rejects(&square(), "5 1 0 1 3 0 7\n", "after the final 0");
        rejects(&square(), "5 d 1 q 0\n", "malformed clause id");
        rejects(&square(), "5 d 1\n", "does not end with 0");
    }

    #[test]
    fn rejects_rat_hint() {
        rejects(&square(), "5 1 0 1 -3 0\n", "RAT steps are not supported");
    }

    #[test]
    fn rejects_literal_out_of_range() {
        rejects(&square(), "5 3 0 1 0\n", "outside the 2 variables");
        rejects(&square(), "5 99999999999 0 1 0\n", "outside the 2 variables");
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
        // A variable named by a proof costs its assignment: 3*10^9 variables are refused by the
        // budget, not allocated.
        let huge = Cnf { num_vars: i32::MAX as u32, clauses: vec![vec![1], vec![-1]] };
        let e = check_lrat(&huge, "3 2000000000 0 1 0", &mut Budget::new(1_000_000)).unwrap_err();
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
    }

    #[test]
    fn display_names_line_and_clause() {
        let e = check(&square(), "c\n5 1 0 2 3 0\n").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("LRAT line 2 (clause 5): hint 2 is not unit and not falsified"));
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
            "5 d",
            "5",
            "   \t ",
            "c only a comment",
            "5 1 0 1 3 0\n5 d 5 5 0",
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

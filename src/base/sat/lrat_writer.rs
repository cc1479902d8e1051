//! The binary LRAT both backends write: a solver's proof steps, renumbered into the checker's
//! clause ids and encoded ([`gamecert_certificates::sat::lrat_binary`]) as they arrive, into
//! a sink (a file, a growing file the checker reads on another core, or memory for small
//! proofs). The proof is never held: each step is encoded into a small buffer and handed on.
//!
//! Input clause `k` (0-based) is LRAT id `k + 1`; every derived clause gets the next id above
//! the inputs, in the order the solver derives them. The solver's own ids only ever reach this
//! writer: [`LratWriter::input`] learns which solver id stands for which input clause, and
//! hints and deletions are translated through that table, which holds the live clauses only
//! (an entry goes when the solver deletes its clause). Deletions are gathered into one
//! deletion step before the next addition; nothing is written after the empty clause.
//!
//! A RAT step (a clause with a pivot and negative hints, from CaDiCaL's `factor`) is written
//! with its pivot first and every hint's sign kept.
//!
//! [`to_text`] (in `gamecert_reductions::lrat_steps`) turns a binary proof into the text LRAT
//! (`export-proof`, and the text a small refutation's JSON certificate carries), streamed;
//! [`from_text`] the other way, for tests and cross-checks.

use std::io::Write;

use gamecert_certificates::sat::lrat_binary::{ADDITION, DELETION};
pub use gamecert_reductions::lrat_steps::{to_text, Decoded, Decoder};
use rustc_hash::FxHashMap;

use super::backend::SatError;

/// A hint of a derived clause: the solver's id of a clause, and whether it is a RAT hint
/// (written negative: the clause containing the negated pivot that the following hints
/// resolve against).
#[derive(Clone, Copy, Debug)]
pub(super) struct Hint {
    pub id: u64,
    pub rat: bool,
}

impl Hint {
    /// A unit-propagation hint.
    pub fn rup(id: u64) -> Hint {
        Hint { id, rat: false }
    }
}

/// Why the writer stopped before the empty clause.
#[derive(Clone, Debug)]
enum Stop {
    /// An inconsistency in the solver's steps (a bug, reported instead of a bad proof), or the
    /// sink failed.
    Failed(String),
    /// The proof grew past its byte limit.
    TooLarge,
}

/// What a finished proof holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Bytes of the binary proof.
    pub bytes: u64,
    /// Additions, the empty clause included.
    pub additions: u64,
    /// Clauses deleted.
    pub deletions: u64,
    /// Hints written.
    pub hints: u64,
    /// CaDiCaL's conflicts while it solved (0 for varisat).
    pub conflicts: u64,
}

/// Writes a solver's proof steps as binary LRAT in the checker's clause numbering into `W`.
pub(super) struct LratWriter<W: Write> {
    out: W,
    /// The step being encoded.
    step: Vec<u8>,
    /// Our id for each live solver clause id.
    ids: FxHashMap<u64, u64>,
    /// The largest id written so far (the inputs' count at first).
    max_id: u64,
    /// Deletions not yet written.
    pending_deletions: Vec<u64>,
    /// Our id of the empty clause, once derived; later steps are ignored.
    empty_clause: Option<u64>,
    /// Set at the first failure; later steps are ignored.
    stop: Option<Stop>,
    /// The proof may not grow past this many bytes ([`super::max_proof_bytes`]).
    max_bytes: u64,
    stats: ProofStats,
}

impl<W: Write> LratWriter<W> {
    /// A writer for a formula of `inputs` clauses whose proof may take `max_bytes` bytes.
    pub fn new(inputs: u64, max_bytes: u64, out: W) -> Self {
        LratWriter {
            out,
            step: Vec::new(),
            ids: FxHashMap::default(),
            max_id: inputs,
            pending_deletions: Vec::new(),
            empty_clause: None,
            stop: None,
            max_bytes,
            stats: ProofStats::default(),
        }
    }

    /// Whether the writer takes no more steps: the empty clause is written, or it failed.
    pub fn finished(&self) -> bool {
        self.empty_clause.is_some() || self.stop.is_some()
    }

    /// Whether the writer failed (the solver should stop).
    pub fn failed(&self) -> bool {
        self.stop.is_some()
    }

    /// The error the writer stopped with, if it stopped before the empty clause.
    pub fn error(&self) -> Option<SatError> {
        match &self.stop {
            Some(Stop::Failed(message)) => Some(SatError::Proof(message.clone())),
            Some(Stop::TooLarge) => Some(SatError::ProofTooLarge {
                limit: self.max_bytes.try_into().unwrap_or(usize::MAX),
            }),
            None => None,
        }
    }

    /// Records a failure (the first one counts).
    pub fn fail(&mut self, message: String) {
        if self.stop.is_none() {
            self.stop = Some(Stop::Failed(message));
        }
    }

    /// The sink, the proof unfinished (the solver found a model).
    pub fn into_sink(self) -> W {
        self.out
    }

    /// The live solver clauses the id table holds.
    #[cfg(test)]
    pub fn live(&self) -> usize {
        self.ids.len()
    }

    /// The solver's clause `solver_id` is input clause `input` (1-based, our LRAT id).
    pub fn input(&mut self, solver_id: u64, input: u64) {
        if self.finished() {
            return;
        }
        if self.ids.insert(solver_id, input).is_some() {
            self.fail(format!("the solver's clause id {solver_id} was assigned twice"));
        }
    }

    /// The solver derived clause `solver_id` with `lits` (the pivot first when `pivot` is not
    /// 0; it must be one of `lits`) from `hints`.
    pub fn add(
        &mut self,
        solver_id: u64,
        pivot: i32,
        lits: &[i32],
        hints: impl IntoIterator<Item = Hint>,
    ) {
        if self.finished() {
            return;
        }
        if let Err(message) = self.write_addition(solver_id, pivot, lits, hints) {
            self.fail(message);
            return;
        }
        if self.stats.bytes > self.max_bytes {
            self.stop = Some(Stop::TooLarge);
        }
    }

    /// The solver deleted its clause `solver_id`.
    pub fn delete(&mut self, solver_id: u64) {
        if self.finished() {
            return;
        }
        match self.ids.remove(&solver_id) {
            Some(ours) => self.pending_deletions.push(ours),
            None => self.fail(format!("the solver's clause id {solver_id} is not known")),
        }
    }

    /// The proof's counts and the sink, once the empty clause is written (the sink flushed);
    /// `solver` names the backend in errors.
    pub fn finish(mut self, solver: &str) -> Result<(ProofStats, W), SatError> {
        if let Some(error) = self.error() {
            return Err(error);
        }
        if self.empty_clause.is_none() {
            return Err(SatError::Proof(format!(
                "{solver} reported unsatisfiability without deriving the empty clause"
            )));
        }
        self.out
            .flush()
            .map_err(|e| SatError::Proof(format!("the proof cannot be written: {e}")))?;
        Ok((self.stats, self.out))
    }

    fn id(&self, solver_id: u64) -> Result<u64, String> {
        self.ids
            .get(&solver_id)
            .copied()
            .ok_or_else(|| format!("the solver's clause id {solver_id} is not known"))
    }

    /// Writes the step encoded in `self.step`.
    fn emit(&mut self) -> Result<(), String> {
        self.out.write_all(&self.step).map_err(|e| format!("the proof cannot be written: {e}"))?;
        self.stats.bytes += self.step.len() as u64;
        self.step.clear();
        Ok(())
    }

    fn flush_deletions(&mut self) -> Result<(), String> {
        if self.pending_deletions.is_empty() {
            return Ok(());
        }
        self.step.push(DELETION);
        for k in 0..self.pending_deletions.len() {
            let id = self.pending_deletions[k];
            push_varint(&mut self.step, self.max_id + 1 - id);
        }
        self.step.push(0);
        self.stats.deletions += self.pending_deletions.len() as u64;
        self.pending_deletions.clear();
        self.emit()
    }

    fn write_addition(
        &mut self,
        solver_id: u64,
        pivot: i32,
        lits: &[i32],
        hints: impl IntoIterator<Item = Hint>,
    ) -> Result<(), String> {
        if pivot != 0 && !lits.contains(&pivot) {
            return Err(format!("the pivot {pivot} of clause {solver_id} is not in the clause"));
        }
        self.flush_deletions()?;
        let ours = self.max_id + 1;
        self.step.push(ADDITION);
        push_varint(&mut self.step, 1);
        if pivot != 0 {
            push_varint(&mut self.step, literal_code(pivot));
        }
        // The pivot is written once, first; a repeated literal stays as the solver wrote it.
        let mut skip_pivot = pivot != 0;
        for &lit in lits {
            if skip_pivot && lit == pivot {
                skip_pivot = false;
                continue;
            }
            push_varint(&mut self.step, literal_code(lit));
        }
        self.step.push(0);
        for hint in hints {
            let id = match self.id(hint.id) {
                Ok(id) => id,
                Err(message) => {
                    self.step.clear();
                    return Err(message);
                }
            };
            push_varint(&mut self.step, 2 * (ours - id) + u64::from(hint.rat));
            self.stats.hints += 1;
        }
        self.step.push(0);
        self.emit()?;
        self.max_id = ours;
        self.stats.additions += 1;
        if self.ids.insert(solver_id, ours).is_some() {
            return Err(format!("the solver's clause id {solver_id} was assigned twice"));
        }
        if lits.is_empty() {
            self.empty_clause = Some(ours);
        }
        Ok(())
    }
}

/// `2v` for `v`, `2v + 1` for `-v`.
fn literal_code(lit: i32) -> u64 {
    2 * u64::from(lit.unsigned_abs()) + u64::from(lit < 0)
}

/// Appends `n` as an unsigned LEB128 varint.
pub(super) fn push_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The binary LRAT of a text LRAT proof of a formula of `inputs` clauses (its additions in
/// increasing id order, as the binary needs; comments and blank lines dropped). For tests and
/// cross-checks: a text the binary cannot express (a malformed line, a non-increasing id, a
/// hint not below its clause) is an error.
pub fn from_text(text: &str, inputs: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut max_id = inputs;
    for (k, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("line {}: {what}", k + 1);
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        if words.is_empty() || words[0].starts_with('c') {
            continue;
        }
        let numbers = |words: &[&str]| -> Result<Vec<i64>, String> {
            words.iter().map(|w| w.parse::<i64>().map_err(|_| bad("not a number"))).collect()
        };
        if words.get(1) == Some(&"d") {
            out.push(DELETION);
            for id in numbers(&words[2..])? {
                if id == 0 {
                    break;
                }
                let id = u64::try_from(id).map_err(|_| bad("a negative id"))?;
                let code = (max_id + 1).checked_sub(id).filter(|&c| c > 0);
                push_varint(&mut out, code.ok_or_else(|| bad("deletes a later id"))?);
            }
            out.push(0);
            continue;
        }
        let id: u64 = words[0].parse().map_err(|_| bad("no id"))?;
        let delta = id.checked_sub(max_id).filter(|&d| d > 0).ok_or_else(|| bad("id not above"))?;
        out.push(ADDITION);
        push_varint(&mut out, delta);
        let rest = numbers(&words[1..])?;
        let zero = rest.iter().position(|&n| n == 0).ok_or_else(|| bad("no 0"))?;
        for &lit in &rest[..zero] {
            let lit = i32::try_from(lit).map_err(|_| bad("a literal past i32"))?;
            push_varint(&mut out, literal_code(lit));
        }
        out.push(0);
        for &hint in rest[zero + 1..].iter().take_while(|&&h| h != 0) {
            let j = hint.unsigned_abs();
            let d = id.checked_sub(j).filter(|&d| d > 0).ok_or_else(|| bad("a hint not below"))?;
            push_varint(&mut out, 2 * d + u64::from(hint < 0));
        }
        out.push(0);
        max_id = id;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(writer: LratWriter<Vec<u8>>, inputs: u64) -> String {
        let (_, bytes) = writer.finish("test").unwrap();
        let mut out = Vec::new();
        to_text(&bytes[..], inputs, 0, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_written_as_varints() {
        let mut out = Vec::new();
        let cases: [(u64, &[u8]); 5] = [
            (0, &[0]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (u64::MAX, &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
        ];
        for (n, bytes) in cases {
            out.clear();
            push_varint(&mut out, n);
            assert_eq!(out, bytes, "{n}");
        }
    }

    #[test]
    fn steps_are_renumbered() {
        // Three input clauses under solver ids 10, 11, 12; the solver numbers derived clauses
        // from 20 on.
        let mut writer = LratWriter::new(3, u64::MAX, Vec::new());
        for (solver_id, input) in [(10, 1), (11, 2), (12, 3)] {
            writer.input(solver_id, input);
        }
        writer.add(20, 0, &[1, 2], [Hint::rup(10), Hint::rup(12)]);
        writer.delete(11);
        writer.delete(20);
        // The table holds live clauses only.
        assert_eq!(writer.live(), 2);
        // A RAT step whose pivot the solver did not write first.
        writer.add(21, 5, &[-2, 5], [Hint::rup(10), Hint { id: 12, rat: true }]);
        writer.add(22, 0, &[], [Hint::rup(21)]);
        assert!(writer.finished() && !writer.failed());
        // Steps after the empty clause are ignored.
        writer.add(23, 0, &[1], [Hint::rup(99)]);
        writer.delete(10);
        let expected = "4 1 2 0 1 3 0\n4 d 2 4 0\n5 5 -2 0 1 -3 0\n6 0 5 0\n";
        assert_eq!(text(writer, 3), expected);
        assert_eq!(
            from_text(expected, 3).unwrap(),
            [
                b'a', 1, 2, 4, 0, 6, 2, 0, b'd', 3, 1, 0, b'a', 1, 10, 5, 0, 8, 5, 0, b'a', 1, 0,
                2, 0
            ]
        );
    }

    #[test]
    fn inconsistencies_are_reported() {
        let failure = |steps: &dyn Fn(&mut LratWriter<Vec<u8>>)| {
            let mut writer = LratWriter::new(1, u64::MAX, Vec::new());
            writer.input(0, 1);
            steps(&mut writer);
            assert!(writer.failed());
            match writer.finish("test") {
                Err(SatError::Proof(message)) => message,
                other => panic!("{other:?}"),
            }
        };
        assert!(failure(&|w| w.add(1, 0, &[], [Hint::rup(7)])).contains("7 is not known"));
        assert!(failure(&|w| w.input(0, 1)).contains("assigned twice"));
        assert!(failure(&|w| w.delete(3)).contains("3 is not known"));
        assert!(failure(&|w| {
            w.delete(0);
            w.add(1, 0, &[], [Hint::rup(0)]);
        })
        .contains("0 is not known"));
        assert!(failure(&|w| w.add(1, 4, &[1, 2], [])).contains("pivot 4"));
        // No empty clause.
        let mut writer = LratWriter::new(1, u64::MAX, Vec::new());
        writer.input(0, 1);
        writer.add(1, 0, &[3], [Hint::rup(0)]);
        assert!(matches!(writer.finish("test"), Err(SatError::Proof(m)) if m.contains("test")));
    }

    #[test]
    fn the_byte_limit_stops_the_proof() {
        let mut writer = LratWriter::new(1, 8, Vec::new());
        writer.input(0, 1);
        writer.add(1, 0, &[1, 2, 3], [Hint::rup(0)]);
        assert!(!writer.failed());
        writer.add(2, 0, &[1, 2, 4], [Hint::rup(0)]);
        assert!(writer.failed() && writer.finished());
        assert!(matches!(writer.finish("test"), Err(SatError::ProofTooLarge { limit: 8 })));
    }
}

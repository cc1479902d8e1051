//! The LRAT text both backends write: a solver's proof steps, renumbered into the checker's
//! clause ids as they arrive.
//!
//! Input clause `k` (0-based) is LRAT id `k + 1`; every derived clause gets the next id above
//! the inputs, in the order the solver derives them. The solver's own ids only ever reach this
//! writer: [`LratWriter::input`] learns which solver id stands for which input clause, and
//! hints and deletions are translated through that table. Deletions are gathered into one
//! `d` line before the next addition; nothing is written after the empty clause.
//!
//! A RAT step (a clause with a pivot and negative hints, from CaDiCaL's `factor`) is written
//! with its pivot first and every hint's sign kept.
//!
//! Numbers are written digit by digit into one byte buffer (no formatting machinery per line):
//! the proof of a hard formula has tens of millions of lines.

use super::SatError;

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
    /// An inconsistency in the solver's steps (a bug, reported instead of a bad proof).
    Failed(String),
    /// The proof grew past its byte limit.
    TooLarge,
}

/// Writes a solver's proof steps as text LRAT in the checker's clause numbering.
pub(super) struct LratWriter {
    /// The proof so far (ASCII).
    out: Vec<u8>,
    /// Our id for each solver clause id (0: none, or deleted).
    ids: Vec<u64>,
    /// The next id for a derived clause.
    next_id: u64,
    /// Deletions not yet written.
    pending_deletions: Vec<u64>,
    /// Our id of the empty clause, once derived; later steps are ignored.
    empty_clause: Option<u64>,
    /// Set at the first failure; later steps are ignored.
    stop: Option<Stop>,
    /// The proof may not grow past this many bytes ([`super::max_proof_bytes`]).
    max_bytes: usize,
}

impl LratWriter {
    /// A writer for a formula of `inputs` clauses whose proof may take `max_bytes` bytes.
    pub fn new(inputs: u64, max_bytes: usize) -> Self {
        LratWriter {
            out: Vec::new(),
            ids: Vec::new(),
            next_id: inputs + 1,
            pending_deletions: Vec::new(),
            empty_clause: None,
            stop: None,
            max_bytes,
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
            Some(Stop::TooLarge) => Some(SatError::ProofTooLarge { limit: self.max_bytes }),
            None => None,
        }
    }

    /// Records a failure (the first one counts).
    pub fn fail(&mut self, message: String) {
        if self.stop.is_none() {
            self.stop = Some(Stop::Failed(message));
            self.out = Vec::new();
        }
    }

    /// The solver's clause `solver_id` is input clause `input` (1-based, our LRAT id).
    pub fn input(&mut self, solver_id: u64, input: u64) {
        if self.finished() {
            return;
        }
        if let Err(message) = self.set_id(solver_id, input) {
            self.fail(message);
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
        if self.out.len() > self.max_bytes {
            self.stop = Some(Stop::TooLarge);
            self.out = Vec::new();
        }
    }

    /// The solver deleted its clause `solver_id`.
    pub fn delete(&mut self, solver_id: u64) {
        if self.finished() {
            return;
        }
        match self.id(solver_id) {
            Ok(ours) => {
                self.ids[solver_id as usize] = 0;
                self.pending_deletions.push(ours);
            }
            Err(message) => self.fail(message),
        }
    }

    /// The proof, once the empty clause is written; `solver` names the backend in errors.
    pub fn into_proof(self, solver: &str) -> Result<String, SatError> {
        if let Some(error) = self.error() {
            return Err(error);
        }
        if self.empty_clause.is_none() {
            return Err(SatError::Proof(format!(
                "{solver} reported unsatisfiability without deriving the empty clause"
            )));
        }
        String::from_utf8(self.out).map_err(|_| SatError::Proof("the proof is not ASCII".into()))
    }

    fn set_id(&mut self, solver_id: u64, ours: u64) -> Result<(), String> {
        let index =
            usize::try_from(solver_id).map_err(|_| format!("clause id {solver_id} too large"))?;
        if self.ids.len() <= index {
            // Amortised growth: solver ids grow one by one.
            let grown = (index + 1).max(self.ids.len() * 2);
            self.ids.resize(grown, 0);
        }
        if self.ids[index] != 0 {
            return Err(format!("the solver's clause id {solver_id} was assigned twice"));
        }
        self.ids[index] = ours;
        Ok(())
    }

    fn id(&self, solver_id: u64) -> Result<u64, String> {
        match usize::try_from(solver_id).ok().and_then(|i| self.ids.get(i)) {
            Some(&ours) if ours != 0 => Ok(ours),
            _ => Err(format!("the solver's clause id {solver_id} is not known")),
        }
    }

    fn flush_deletions(&mut self) {
        if self.pending_deletions.is_empty() {
            return;
        }
        // The id in front of a deletion is not used by checkers; write the last added id.
        push_u64(&mut self.out, (self.next_id - 1).max(1));
        self.out.extend_from_slice(b" d");
        for &id in &self.pending_deletions {
            self.out.push(b' ');
            push_u64(&mut self.out, id);
        }
        self.out.extend_from_slice(b" 0\n");
        self.pending_deletions.clear();
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
        self.flush_deletions();
        let ours = self.next_id;
        push_u64(&mut self.out, ours);
        if pivot != 0 {
            self.out.push(b' ');
            push_i64(&mut self.out, i64::from(pivot));
        }
        // The pivot is written once, first; a repeated literal stays as the solver wrote it.
        let mut skip_pivot = pivot != 0;
        for &lit in lits {
            if skip_pivot && lit == pivot {
                skip_pivot = false;
                continue;
            }
            self.out.push(b' ');
            push_i64(&mut self.out, i64::from(lit));
        }
        self.out.extend_from_slice(b" 0");
        for hint in hints {
            let id = self.id(hint.id)?;
            self.out.push(b' ');
            if hint.rat {
                self.out.push(b'-');
            }
            push_u64(&mut self.out, id);
        }
        self.out.extend_from_slice(b" 0\n");
        self.next_id += 1;
        self.set_id(solver_id, ours)?;
        if lits.is_empty() {
            self.empty_clause = Some(ours);
        }
        Ok(())
    }
}

/// Appends the decimal digits of `n`.
fn push_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Appends `n` in decimal, with a minus sign when negative.
fn push_i64(out: &mut Vec<u8>, n: i64) {
    if n < 0 {
        out.push(b'-');
    }
    push_u64(out, n.unsigned_abs());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(out: &[u8]) -> &str {
        std::str::from_utf8(out).unwrap()
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        let mut out = Vec::new();
        for n in [0, 7, 10, 99, 1_234_567, u64::MAX] {
            out.clear();
            push_u64(&mut out, n);
            assert_eq!(text(&out), n.to_string());
        }
        for n in [0, -1, 42, -1_000_000, i64::MIN, i64::MAX] {
            out.clear();
            push_i64(&mut out, n);
            assert_eq!(text(&out), n.to_string());
        }
    }

    #[test]
    fn steps_are_renumbered() {
        // Three input clauses under solver ids 10, 11, 12; the solver numbers derived clauses
        // from 20 on.
        let mut writer = LratWriter::new(3, usize::MAX);
        for (solver_id, input) in [(10, 1), (11, 2), (12, 3)] {
            writer.input(solver_id, input);
        }
        writer.add(20, 0, &[1, 2], [Hint::rup(10), Hint::rup(12)]);
        writer.delete(11);
        writer.delete(20);
        // A RAT step whose pivot the solver did not write first.
        writer.add(21, 5, &[-2, 5], [Hint::rup(10), Hint { id: 12, rat: true }]);
        writer.add(22, 0, &[], [Hint::rup(21)]);
        assert!(writer.finished() && !writer.failed());
        // Steps after the empty clause are ignored.
        writer.add(23, 0, &[1], [Hint::rup(99)]);
        writer.delete(10);
        assert_eq!(
            writer.into_proof("test").unwrap(),
            "4 1 2 0 1 3 0\n4 d 2 4 0\n5 5 -2 0 1 -3 0\n6 0 5 0\n"
        );
    }

    #[test]
    fn inconsistencies_are_reported() {
        let failure = |steps: &dyn Fn(&mut LratWriter)| {
            let mut writer = LratWriter::new(1, usize::MAX);
            writer.input(0, 1);
            steps(&mut writer);
            assert!(writer.failed());
            match writer.into_proof("test") {
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
        let mut writer = LratWriter::new(1, usize::MAX);
        writer.input(0, 1);
        writer.add(1, 0, &[3], [Hint::rup(0)]);
        assert!(matches!(writer.into_proof("test"), Err(SatError::Proof(m)) if m.contains("test")));
    }

    #[test]
    fn the_byte_limit_stops_the_proof() {
        let mut writer = LratWriter::new(1, 20);
        writer.input(0, 1);
        writer.add(1, 0, &[1, 2, 3], [Hint::rup(0)]);
        assert!(!writer.failed());
        writer.add(2, 0, &[1, 2, 4], [Hint::rup(0)]);
        assert!(writer.failed() && writer.finished());
        assert!(matches!(writer.into_proof("test"), Err(SatError::ProofTooLarge { limit: 20 })));
    }
}

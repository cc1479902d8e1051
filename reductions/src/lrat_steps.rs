//! LRAT proofs as steps, for the tools that rewrite a proof (issue 47): `gamecert
//! export-proof` writes the text LRAT of a binary certificate, and the proof of the user's own
//! formula ([`crate::normalise_proof`]) replays a refutation step by step. A binary proof is
//! decoded by the checker's own reader
//! ([`gamecert_certificates::sat::lrat_binary::BinaryProof`]: the same range checks and
//! messages), a text proof by [`text_steps`]. A step is held whole (its literals and hints),
//! the proof never is.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::sat::lrat::{Step, Steps};
use gamecert_certificates::sat::lrat_binary::BinaryProof;
use std::io::{BufRead, Write};

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

/// One step of a binary proof, decoded by the checker's reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// The clause `literals` added as `id` with `hints` (negative: RAT candidates).
    Addition { id: u64, literals: Vec<i64>, hints: Vec<i64> },
    /// The clauses deleted; `max_id` is the largest id before the step.
    Deletion { ids: Vec<u64>, max_id: u64 },
}

/// The steps of a binary proof of a formula of `inputs` clauses, decoded one at a time by the
/// checker's reader ([`BinaryProof`]).
pub struct Decoder<R> {
    proof: BinaryProof<R>,
    max_id: u64,
    budget: Budget,
}

impl<R: BufRead> Decoder<R> {
    /// The proof `read` holds, its first byte at `offset` in its file.
    pub fn new(read: R, inputs: u64, offset: u64) -> Decoder<R> {
        Decoder {
            proof: BinaryProof::new(read, offset),
            max_id: inputs,
            budget: Budget::unlimited(),
        }
    }

    /// The next step, `None` at the end of the input; an error names its byte.
    pub fn next_step(&mut self) -> Result<Option<Decoded>, String> {
        let (p, b) = (&mut self.proof, &mut self.budget);
        let max_id = self.max_id;
        let decoded = (|| -> Result<Option<Decoded>, String> {
            Ok(match p.next_step(max_id, b)? {
                None => None,
                Some(Step::Addition(id)) => {
                    let (mut literals, mut hints) = (Vec::new(), Vec::new());
                    loop {
                        match p.literal(b)? {
                            0 => break,
                            lit => literals.push(lit),
                        }
                    }
                    loop {
                        match p.hint(b)? {
                            0 => break,
                            hint => hints.push(hint),
                        }
                    }
                    Some(Decoded::Addition { id, literals, hints })
                }
                Some(Step::Deletion) => {
                    let mut ids = Vec::new();
                    loop {
                        match p.deleted(b)? {
                            0 => break,
                            id => ids.push(id),
                        }
                    }
                    Some(Decoded::Deletion { ids, max_id })
                }
            })
        })();
        let decoded = decoded.map_err(|why| self.proof.error(None, why).to_string())?;
        if let Some(Decoded::Addition { id, .. }) = &decoded {
            self.max_id = *id;
        }
        Ok(decoded)
    }
}

impl Decoded {
    /// The step as a line of text LRAT, its line end included (a deletion starts with the
    /// largest id before it, at least 1).
    pub fn to_text(&self) -> String {
        let mut line = Vec::new();
        self.push_text(&mut line);
        String::from_utf8(line).expect("digits, signs, spaces and `d` are ASCII")
    }

    fn push_text(&self, line: &mut Vec<u8>) {
        match self {
            Decoded::Addition { id, literals, hints } => {
                push_u64(line, *id);
                for &lit in literals {
                    line.push(b' ');
                    push_i64(line, lit);
                }
                line.extend_from_slice(b" 0");
                for &hint in hints {
                    line.push(b' ');
                    push_i64(line, hint);
                }
            }
            Decoded::Deletion { ids, max_id } => {
                push_u64(line, (*max_id).max(1));
                line.extend_from_slice(b" d");
                for &id in ids {
                    line.push(b' ');
                    push_u64(line, id);
                }
            }
        }
        line.extend_from_slice(b" 0\n");
    }
}

/// Writes the text LRAT of the binary proof `read` holds (of a formula of `inputs` clauses,
/// its first byte at `offset`) to `out`, a step at a time, up to the empty clause: the text
/// `gamecert lrat`, drat-trim's `lrat-check` and `cake_lpr` read. Returns the lines written.
pub fn to_text(
    read: impl BufRead,
    inputs: u64,
    offset: u64,
    out: &mut impl Write,
) -> Result<u64, String> {
    let mut decoder = Decoder::new(read, inputs, offset);
    let mut line = Vec::new();
    let mut lines = 0u64;
    while let Some(step) = decoder.next_step()? {
        line.clear();
        step.push_text(&mut line);
        out.write_all(&line).map_err(|e| format!("the text LRAT cannot be written: {e}"))?;
        lines += 1;
        if matches!(&step, Decoded::Addition { literals, .. } if literals.is_empty()) {
            break;
        }
    }
    Ok(lines)
}

/// The steps of a text LRAT proof (comments and blank lines skipped), each line parsed whole;
/// a malformed line is an error naming it. For the text a JSON refutation carries, already in
/// memory; the trusted checker reads text itself ([`gamecert_certificates::sat::lrat`]).
pub fn text_steps(text: &str) -> impl Iterator<Item = Result<Decoded, String>> + '_ {
    let mut max_id = 0u64;
    text.lines().enumerate().filter_map(move |(k, line)| {
        let bad = |what: &str| format!("refutation line {}: {what}", k + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            return None;
        }
        let mut tokens = line.split_ascii_whitespace();
        let Some(id) = tokens.next().and_then(|t| t.parse::<u64>().ok()) else {
            return Some(Err(bad("no id")));
        };
        let mut numbers = tokens.peekable();
        if numbers.peek() == Some(&"d") {
            numbers.next();
            let mut ids = Vec::new();
            for token in numbers {
                match token.parse::<u64>() {
                    Ok(0) => break,
                    Ok(id) => ids.push(id),
                    Err(_) => return Some(Err(bad("a deleted id is not a number"))),
                }
            }
            return Some(Ok(Decoded::Deletion { ids, max_id }));
        }
        let (mut literals, mut hints, mut in_hints) = (Vec::new(), Vec::new(), false);
        for token in numbers {
            let Ok(value) = token.parse::<i64>() else {
                return Some(Err(bad("a token is not a number")));
            };
            match (value, in_hints) {
                (0, true) => break,
                (0, false) => in_hints = true,
                (_, true) => hints.push(value),
                (_, false) => literals.push(value),
            }
        }
        max_id = max_id.max(id);
        Some(Ok(Decoded::Addition { id, literals, hints }))
    })
}

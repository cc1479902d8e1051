//! The checker's own reader of DIMACS CNF files, for `gamecert-check lrat F.cnf F.lrat`: the
//! formula a proof is checked against must be read by trusted code, and exactly as written.
//!
//! This is the one DIMACS reader of both crates: the solver side (`gamecert-reductions`) reads
//! formulas through it too, after its own lenient pre-pass for SATLIB files (which warns about
//! what it changed, so the checker still reads exactly what is written when given the file).
//!
//! Accepted: comment lines (first non-blank character `c`), one header `p cnf V C` before any
//! clause, then literals separated by [the checker's separators](crate::base::text) (ASCII
//! spaces and tabs; a line may end in `\r\n`), each clause ended by `0` (a clause may span
//! lines). Any other white space (a non-breaking space, a vertical tab) is refused where it
//! stands. Refused, naming the line and column: a literal beyond `V` or outside `i32`, a
//! clause count other than `C`, a last clause without its `0`, a second header, anything that
//! is not a number (SATLIB's `%` end marker included: the formula would otherwise be guessed).
//! A header whose clause count exceeds what the file's size can hold is refused at once. Work
//! is charged for every line and literal as it is read, and before each clause is stored.

use crate::base::budget::Budget;
use crate::base::text::{foreign_space, foreign_space_message, is_separator, number};
use crate::sat::cnf::{Cnf, CLAUSE_COST};

/// Work units per stored literal.
const LITERAL_COST: u64 = 8;
/// Work units per line read (comments and blank lines included).
const LINE_COST: u64 = 2;

/// The 1-based column of `word`, a slice of `line`: characters, not bytes (a byte offset would
/// misplace a word after a multi-byte character).
fn column(line: &str, word: &str) -> usize {
    line[..word.as_ptr() as usize - line.as_ptr() as usize].chars().count() + 1
}

/// Reads `text` as a DIMACS CNF. The error is `line:column: message`.
pub fn parse_cnf(text: &str, budget: &mut Budget) -> Result<Cnf, String> {
    let mut header: Option<(u32, usize)> = None;
    let mut header_at = (1, 1);
    let mut lines = 0;
    let mut cnf = Cnf::default();
    let mut clause = Vec::new();
    // The last word read, for the message of a clause left open: its column is counted only
    // then (counting it for every word made a long line quadratic).
    let mut last: Option<(usize, &str, &str)> = None;
    for (k, line) in crate::base::text::lines(text).enumerate() {
        // Every line costs, comment or not, so a file of empty lines is charged too.
        budget.charge(LINE_COST, "reading the formula")?;
        lines = k + 1;
        let trimmed = line.trim_start_matches(is_separator);
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        if let Some((column, ch)) = foreign_space(line) {
            fail!("{}:{column}: {}", k + 1, foreign_space_message(ch));
        }
        let at = |word: &str| (k + 1, column(line, word));
        let mut words = line.split(is_separator).filter(|w| !w.is_empty()).peekable();
        if words.peek() == Some(&"p") {
            let (l, c) = at(trimmed);
            ensure!(header.is_none(), "{l}:{c}: a second `p` line");
            // At most five words are looked at, so a long header line costs no more.
            let fields: Vec<&str> = words.by_ref().take(5).collect();
            let numbers = match fields[..] {
                [_, "cnf", v, m] => number::<u32>(v, false)
                    .filter(|&v| v < i32::MAX as u32)
                    .zip(number::<usize>(m, false)),
                _ => None,
            };
            let Some((v, m)) = numbers else {
                // Placed at the first field that is wrong, or just after the line if missing.
                let bad = fields.iter().enumerate().skip(1).find(|&(k, w)| match k {
                    1 => *w != "cnf",
                    2 => number::<u32>(w, false).filter(|&v| v < i32::MAX as u32).is_none(),
                    3 => number::<usize>(w, false).is_none(),
                    _ => true,
                });
                let (l, c) = bad.map_or((k + 1, line.chars().count() + 1), |(_, w)| at(w));
                fail!(
                    "{l}:{c}: expected `p cnf VARIABLES CLAUSES` with numbers in range, found `{}`",
                    fields.join(" ")
                );
            };
            // Every clause takes at least two bytes (`0` and a separator): a larger count
            // cannot be what the file holds.
            ensure!(
                m <= text.len() / 2,
                "{l}:{c}: the header declares {m} clauses, more than a file of {} bytes can hold",
                text.len()
            );
            header = Some((v, m));
            header_at = (l, c);
            cnf.num_vars = v;
            continue;
        }
        for word in words {
            last = Some((k, line, word));
            let Some((vars, count)) = header else {
                let (l, c) = at(word);
                fail!("{l}:{c}: `{word}` before the `p cnf` header");
            };
            let Some(lit) = number::<i32>(word, true) else {
                let (l, c) = at(word);
                fail!("{l}:{c}: `{word}` is not a literal (a whole number in -{vars}..={vars})");
            };
            if lit == 0 {
                if cnf.clauses.len() >= count {
                    let (l, c) = at(word);
                    fail!("{l}:{c}: more clauses than the {count} the header declares");
                }
                budget.charge(
                    CLAUSE_COST + LITERAL_COST * clause.len() as u64,
                    "reading the formula",
                )?;
                cnf.clauses.push(std::mem::take(&mut clause));
            } else {
                if lit.unsigned_abs() > vars {
                    let (l, c) = at(word);
                    fail!("{l}:{c}: literal {lit} names a variable beyond the {vars} declared");
                }
                budget.charge(LITERAL_COST, "reading the formula")?;
                clause.push(lit);
            }
        }
    }
    let (l, c) = last.map_or((1, 1), |(k, line, word)| (k + 1, column(line, word)));
    let Some((_, count)) = header else {
        fail!("{}:1: no `p cnf` header before the end of the file", lines.max(1))
    };
    ensure!(clause.is_empty(), "{l}:{c}: the last clause has no terminating 0");
    let (l, c) = header_at;
    ensure!(
        cnf.clauses.len() == count,
        "{l}:{c}: the header declares {count} clauses, the file has {}",
        cnf.clauses.len()
    );
    Ok(cnf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Cnf, String> {
        parse_cnf(text, &mut Budget::new(1 << 20))
    }

    #[test]
    fn reads_what_it_writes() {
        let cnf = Cnf { num_vars: 3, clauses: vec![vec![1, -2], vec![], vec![3, 2, -1]] };
        assert_eq!(parse(&cnf.to_dimacs()).unwrap(), cnf);
        let spanning = parse("c x\np cnf 2 2\n1\n -2 0 2\n0\n").unwrap();
        assert_eq!(spanning.clauses, vec![vec![1, -2], vec![2]]);
        let windows = parse("c x\r\np cnf 2 2\r\n1\t-2 0\r\n\t2 0\r\n").unwrap();
        assert_eq!(windows.clauses, vec![vec![1, -2], vec![2]]);
    }

    #[test]
    fn refuses_with_the_place() {
        for (text, expected) in [
            ("1 0\n", "1:1: `1` before"),
            ("p cnf 2 1\n1 3 0\n", "2:3: literal 3"),
            ("p cnf 2 1\n1 x 0\n", "2:3: `x` is not a literal"),
            ("p cnf 2 1\n+1 0\n", "2:1: `+1` is not a literal"),
            ("p cnf +2 1\n1 0\n", "1:7: expected `p cnf"),
            ("p cnf 2 1\n1 0\r\r\n", "2:4: '\\r' (U+000D) is not a separator"),
            ("p cnf 2 1\n1\u{200b} 0\n", "2:2: '\\u{200b}' (U+200B) is an invisible character"),
            ("p cnf 2 1\n1 0\n2 0\n", "3:3: more clauses"),
            ("c\n p cnf 2 2\n1 0\n", "2:2: the header declares 2 clauses, the file has 1"),
            ("p cnf 2 1\n1 2\n", "2:3: the last clause has no terminating 0"),
            ("p cnf 2 1\np cnf 2 1\n", "2:1: a second"),
            ("p cnf 2147483647 0\n", "1:7: expected `p cnf"),
            ("p cnf x 1\n", "1:7: expected `p cnf"),
            ("p dnf 1 1\n", "1:3: expected `p cnf"),
            ("p cnf 1 -1\n", "1:9: expected `p cnf"),
            ("p cnf 1\n", "1:8: expected `p cnf"),
            ("p cnf 2 99\n1 0\n", "1:1: the header declares 99 clauses, more than"),
            ("p cnf 2 1 extra\n1 0\n", "1:11: expected `p cnf"),
            ("  p cnf 2 1\n  p cnf 2 1\n", "2:3: a second"),
            ("p cnf 2 1\n1 -2 0\n%\n0\n", "3:1: `%` is not a literal"),
            ("p cnf 2 1\n-2147483648 0\n", "2:1: literal -2147483648"),
            // Only ASCII spaces and tabs separate (a `\r` ends a line only before its `\n`).
            ("p cnf 2 1\n1\u{a0}-2 0\n", "2:2: '\\u{a0}' (U+00A0) is not a separator"),
            ("p cnf 2 1\n1 -2\x0b0\n", "2:5: '\\u{b}' (U+000B) is not a separator"),
            ("p\u{a0}cnf 2 1\n1 0\n", "1:2: '\\u{a0}'"),
            ("p cnf 2 1\n\u{e9} 1 0\n", "2:1: `\u{e9}` is not a literal"),
            ("p cnf 2 1\n\u{e9}\u{e9}\u{a0}1 0\n", "2:3: '\\u{a0}'"),
            ("", "1:1: no `p cnf` header"),
            ("c\nc\n", "2:1: no `p cnf` header"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
        assert!(parse_cnf("p cnf 1 3\n1 0\n1 0\n1 0\n", &mut Budget::new(100))
            .unwrap_err()
            .contains("work"));
        // Lines cost even when they hold nothing.
        let blank = format!("c\n{}p cnf 1 1\n1 0\n", "\n".repeat(1000));
        assert!(parse_cnf(&blank, &mut Budget::new(1000)).unwrap_err().contains("work"));
    }

    /// Byte mutations of a valid formula never panic, stay within a small budget, and whatever
    /// is accepted is exactly a formula within its header's bounds.
    #[test]
    fn mutated_formulas_are_read_or_refused() {
        let valid = "c pigeons\np cnf 4 5\n1 2 0\n3 4 0\n-1 -3 0\n-2 -4 0\n-1 -2 0\n";
        let alphabet = b" \n-0123456789pcnf%x\t";
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        for _ in 0..5000 {
            let mut bytes = valid.as_bytes().to_vec();
            for _ in 0..1 + next(4) {
                let at = next(bytes.len());
                match next(3) {
                    0 => bytes[at] = alphabet[next(alphabet.len())],
                    1 => bytes.insert(at, alphabet[next(alphabet.len())]),
                    _ => {
                        bytes.remove(at);
                    }
                }
            }
            let text = String::from_utf8(bytes).expect("ASCII mutations");
            let mut budget = Budget::new(1 << 16);
            if let Ok(cnf) = parse_cnf(&text, &mut budget) {
                let bound = cnf.num_vars;
                assert!(cnf.clauses.iter().flatten().all(|&l| l != 0 && l.unsigned_abs() <= bound));
            }
        }
    }
}

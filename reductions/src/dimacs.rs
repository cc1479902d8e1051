//! A DIMACS CNF parser that reports errors by file, line and column.
//!
//! # Accepted input
//!
//! * Lines are separated by `\n`; a trailing `\r` (Windows line ends) is ignored, and so is a
//!   byte-order mark at the very start of the text.
//! * A line whose first non-blank character is `c` is a comment. Blank lines are ignored.
//! * Exactly one header `p cnf V C` must come before the first clause, alone on its line.
//!   `V` (the number of variables) must be at most `i32::MAX`, so that every literal fits in an
//!   `i32`.
//! * Clauses are whitespace-separated integers, each clause terminated by `0`. A clause may span
//!   several lines and a line may hold several clauses. A lone `0` is the empty clause; it is
//!   legal DIMACS and is kept as an empty clause.
//! * A line whose first non-blank character is `%` ends the formula and everything after it is
//!   ignored (the SATLIB benchmark files end with `%` and a stray `0`).
//!
//! # Errors
//!
//! Every error names the line and column (both 1-based, the column counted in characters) of the
//! token at fault, or of the place where a missing token was expected: a missing header, a
//! malformed header (wrong word, a number that is missing, not a number, negative or too large,
//! extra tokens), a second header, a clause token that is not an integer, an integer that
//! overflows `i32`, a literal whose variable exceeds `V`, and a last clause that lacks its
//! terminating `0` (reported just after its last literal).
//!
//! # Warnings
//!
//! Decision: a clause count that differs from the `C` of the header (more clauses or fewer) is
//! *not* an error. Many files found in the wild get it wrong, and the clauses themselves are
//! unambiguous, so the parser keeps every clause it read and records a warning
//! `file:line: ...` that names the line of the header. Everything else about the file must be
//! right.

use gamecert_certificates::base::cnf::Cnf;
use gamecert_certificates::base::text::{tokenize, Token};

/// A parse error, located at a 1-based line and column of a named file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct ParseError {
    /// The file name given to [`parse_dimacs`].
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What went wrong.
    pub message: String,
}

/// A parsed formula together with the warnings collected while reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedCnf {
    /// The formula; `num_vars` is the `V` of the header.
    pub cnf: Cnf,
    /// Non-fatal remarks, each formatted `file:line: message`.
    pub warnings: Vec<String>,
}

/// Whether `text` has the shape of a decimal integer: an optional sign and at least one digit.
fn looks_like_integer(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The header `p cnf V C` once read.
struct Header {
    line: usize,
    num_vars: u32,
    num_clauses: usize,
}

struct Parser<'f> {
    file: &'f str,
}

impl Parser<'_> {
    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError { file: self.file.to_string(), line, column, message: message.into() }
    }

    /// Reads a non-negative header number no larger than `max`.
    fn header_number(
        &self,
        line: usize,
        token: Option<&Token<'_>>,
        end_column: usize,
        what: &str,
        max: u64,
    ) -> Result<u64, ParseError> {
        let Some(token) = token else {
            return Err(self.error(
                line,
                end_column,
                format!("malformed header: missing the number of {what} (expected `p cnf <variables> <clauses>`)"),
            ));
        };
        let text = token.text;
        if !looks_like_integer(text) {
            return Err(self.error(
                line,
                token.column,
                format!("malformed header: the number of {what} must be a non-negative integer, found `{text}`"),
            ));
        }
        if text.starts_with('-') && text[1..].bytes().any(|b| b != b'0') {
            return Err(self.error(
                line,
                token.column,
                format!(
                    "malformed header: the number of {what} must not be negative, found `{text}`"
                ),
            ));
        }
        let digits = text.trim_start_matches(['+', '-']);
        match digits.parse::<u64>() {
            Ok(value) if value <= max => Ok(value),
            _ => Err(self.error(
                line,
                token.column,
                format!("malformed header: the number of {what} `{text}` exceeds {max}"),
            )),
        }
    }

    fn header(&self, line: usize, tokens: &[Token<'_>], end: usize) -> Result<Header, ParseError> {
        match tokens.get(1) {
            Some(word) if word.text == "cnf" => {}
            Some(word) => {
                return Err(self.error(
                    line,
                    word.column,
                    format!("malformed header: expected `cnf` after `p`, found `{}`", word.text),
                ))
            }
            None => {
                return Err(self.error(line, end, "malformed header: expected `cnf` after `p`"))
            }
        }
        let num_vars =
            self.header_number(line, tokens.get(2), end, "variables", i32::MAX as u64)?;
        let num_clauses =
            self.header_number(line, tokens.get(3), end, "clauses", usize::MAX as u64)?;
        if let Some(extra) = tokens.get(4) {
            return Err(self.error(
                line,
                extra.column,
                format!(
                    "malformed header: unexpected `{}` after `p cnf {} {}`",
                    extra.text, num_vars, num_clauses
                ),
            ));
        }
        Ok(Header {
            line,
            // Both conversions are lossless: the values were bounded above.
            num_vars: num_vars as u32,
            num_clauses: num_clauses as usize,
        })
    }
}

/// Parses DIMACS CNF text. `file` is only used to label errors and warnings.
///
/// Never panics, whatever the input.
pub fn parse_dimacs(text: &str, file: &str) -> Result<ParsedCnf, ParseError> {
    let parser = Parser { file };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut header: Option<Header> = None;
    let mut clauses: Vec<Vec<i32>> = Vec::new();
    let mut current: Vec<i32> = Vec::new();
    // Line of the first token of the open clause, and position just after its last literal.
    let mut clause_start = 0;
    let mut clause_end = (0, 0);
    let mut clause_open = false;
    let mut eof = (1, 1);

    for (index, raw) in text.split('\n').enumerate() {
        let line_no = index + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let (tokens, end) = tokenize(line);
        eof = (line_no, end);
        let Some(first) = tokens.first() else {
            continue;
        };
        if first.text.starts_with('c') {
            continue;
        }
        if first.text.starts_with('%') {
            // The formula ends at the `%`; a missing header is reported there.
            eof = (line_no, first.column);
            break;
        }
        if first.text == "p" {
            if let Some(previous) = &header {
                return Err(parser.error(
                    line_no,
                    first.column,
                    format!("second header (the first one is at line {})", previous.line),
                ));
            }
            header = Some(parser.header(line_no, &tokens, end)?);
            continue;
        }
        let Some(head) = &header else {
            return Err(parser.error(
                line_no,
                first.column,
                "missing header: expected `p cnf <variables> <clauses>` before the first clause",
            ));
        };
        for token in &tokens {
            let lit: i32 = match token.text.parse() {
                Ok(lit) => lit,
                Err(_) if looks_like_integer(token.text) => {
                    return Err(parser.error(
                        line_no,
                        token.column,
                        format!("integer `{}` overflows i32", token.text),
                    ))
                }
                Err(_) => {
                    return Err(parser.error(
                        line_no,
                        token.column,
                        format!("expected an integer literal, found `{}`", token.text),
                    ))
                }
            };
            if lit == 0 {
                clauses.push(std::mem::take(&mut current));
                clause_open = false;
                continue;
            }
            if lit.unsigned_abs() > head.num_vars {
                return Err(parser.error(
                    line_no,
                    token.column,
                    format!(
                        "literal {lit} refers to variable {} but the header declares {} variables",
                        lit.unsigned_abs(),
                        head.num_vars
                    ),
                ));
            }
            if !clause_open {
                clause_open = true;
                clause_start = line_no;
            }
            current.push(lit);
            clause_end = (line_no, token.column + token.text.chars().count());
        }
    }

    let Some(head) = header else {
        return Err(parser.error(
            eof.0,
            eof.1,
            "missing header: no `p cnf <variables> <clauses>` line before the end of the formula",
        ));
    };
    if clause_open {
        return Err(parser.error(
            clause_end.0,
            clause_end.1,
            format!("missing 0 at end of clause starting at line {clause_start}"),
        ));
    }
    let mut warnings = Vec::new();
    if clauses.len() != head.num_clauses {
        warnings.push(format!(
            "{file}:{}: header declares {} clauses but the formula has {}",
            head.line,
            head.num_clauses,
            clauses.len()
        ));
    }
    Ok(ParsedCnf { cnf: Cnf { num_vars: head.num_vars, clauses }, warnings })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn err(text: &str) -> ParseError {
        match parse_dimacs(text, "t.cnf") {
            Ok(parsed) => panic!("expected an error, parsed {parsed:?}"),
            Err(e) => e,
        }
    }

    fn assert_err(text: &str, line: usize, column: usize, needle: &str) {
        let e = err(text);
        assert_eq!((e.line, e.column), (line, column), "{e}");
        assert!(e.message.contains(needle), "{e} lacks {needle:?}");
        assert_eq!(e.file, "t.cnf");
    }

    fn ok(text: &str) -> ParsedCnf {
        parse_dimacs(text, "t.cnf").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_a_plain_formula() {
        let parsed = ok("c a comment\np cnf 3 2\n1 -3 0\n2 3 -1 0\n");
        assert_eq!(parsed.cnf.num_vars, 3);
        assert_eq!(parsed.cnf.clauses, vec![vec![1, -3], vec![2, 3, -1]]);
        assert!(parsed.warnings.is_empty());
    }

    #[test]
    fn clauses_may_span_lines_and_share_lines() {
        let parsed = ok("p cnf 4 3\r\n1 2\r\n  -3 0 4 0\n\tc comment inside\n -4\n\n 1 0");
        assert_eq!(parsed.cnf.clauses, vec![vec![1, 2, -3], vec![4], vec![-4, 1]]);
        assert!(parsed.warnings.is_empty());
    }

    #[test]
    fn empty_clauses_are_kept() {
        let parsed = ok("p cnf 2 3\n0\n1 0 0\n");
        assert_eq!(parsed.cnf.clauses, vec![vec![], vec![1], vec![]]);
        let parsed = ok("p cnf 0 1\n0\n");
        assert_eq!(parsed.cnf.clauses, vec![Vec::<i32>::new()]);
    }

    #[test]
    fn percent_line_ends_the_formula() {
        let parsed = ok("p cnf 2 1\n1 -2 0\n%\n0\n\ngarbage p cnf\n");
        assert_eq!(parsed.cnf.clauses, vec![vec![1, -2]]);
        assert!(parsed.warnings.is_empty());
    }

    #[test]
    fn bom_and_plus_signs_are_accepted() {
        let parsed = ok("\u{feff}p cnf 2 1\n+1 -2 0\n");
        assert_eq!(parsed.cnf.clauses, vec![vec![1, -2]]);
    }

    #[test]
    fn clause_count_mismatch_is_a_warning() {
        let parsed = ok("c x\np cnf 2 3\n1 0\n");
        assert_eq!(
            parsed.warnings,
            vec!["t.cnf:2: header declares 3 clauses but the formula has 1".to_string()]
        );
        let parsed = ok("p cnf 2 0\n1 0 2 0\n");
        assert_eq!(
            parsed.warnings,
            vec!["t.cnf:1: header declares 0 clauses but the formula has 2".to_string()]
        );
    }

    #[test]
    fn missing_header() {
        assert_err("c only\n1 2 0\n", 2, 1, "missing header");
        assert_err("c only\n  \t x 0\n", 2, 5, "missing header");
        assert_err("", 1, 1, "missing header");
        assert_err("c nothing\nc here", 2, 7, "missing header");
        assert_err("c nothing\n", 2, 1, "missing header");
        // Text after `%` does not count.
        assert_err(" %\np cnf 1 1\n1 0\n", 1, 2, "missing header");
    }

    #[test]
    fn malformed_header_wrong_word() {
        assert_err("p dnf 3 2\n", 1, 3, "expected `cnf`");
        assert_err("p\n", 1, 2, "expected `cnf`");
        assert_err("  p  \n", 1, 6, "expected `cnf`");
    }

    #[test]
    fn malformed_header_missing_numbers() {
        assert_err("p cnf\n", 1, 6, "missing the number of variables");
        assert_err("p cnf 3\n", 1, 8, "missing the number of clauses");
    }

    #[test]
    fn malformed_header_non_numbers() {
        assert_err("p cnf x 2\n", 1, 7, "non-negative integer");
        assert_err("p cnf 3 2.0\n", 1, 9, "non-negative integer");
        assert_err("p cnf 3e2 2\n", 1, 7, "non-negative integer");
    }

    #[test]
    fn malformed_header_negative() {
        assert_err("p cnf -3 2\n", 1, 7, "must not be negative");
        assert_err("p cnf 3 -2\n", 1, 9, "must not be negative");
        // "-0" is zero, which is fine.
        assert_eq!(ok("p cnf -0 0\n").cnf.num_vars, 0);
    }

    #[test]
    fn malformed_header_too_large() {
        assert_err("p cnf 2147483648 1\n", 1, 7, "exceeds 2147483647");
        assert_err("p cnf 1 99999999999999999999999\n", 1, 9, "exceeds");
        assert_eq!(ok("p cnf 2147483647 0\n").cnf.num_vars, 2147483647);
    }

    #[test]
    fn malformed_header_extra_tokens() {
        assert_err("p cnf 3 2 7\n", 1, 11, "unexpected `7`");
        assert_err("p cnf 3 2 1 2 0\n", 1, 11, "unexpected `1`");
    }

    #[test]
    fn second_header() {
        assert_err("p cnf 3 2\n1 0\n p cnf 3 2\n", 3, 2, "second header");
        assert_err("p cnf 3 2\np cnf 3 2\n", 2, 1, "first one is at line 1");
    }

    #[test]
    fn token_that_is_not_an_integer() {
        assert_err("p cnf 3 1\n1 x 0\n", 2, 3, "expected an integer literal, found `x`");
        assert_err("p cnf 3 1\n1 2 -\n", 2, 5, "found `-`");
        assert_err("p cnf 3 1\n1 2 0 c trailing\n", 2, 7, "found `c`");
        assert_err("p cnf 3 1\n1 2 p\n", 2, 5, "found `p`");
        assert_err("p cnf 3 1\n1 0x2 0\n", 2, 3, "found `0x2`");
        // Columns count characters, not bytes.
        assert_err("p cnf 3 1\n\u{e9}\u{e9} 1 \u{e9}\n", 2, 1, "found");
        assert_err("p cnf 3 1\n1 \u{e9}\u{e9} \u{e9}\n", 2, 3, "found");
        assert_err("p cnf 3 1\n1\u{a0}2 \u{e9}\n", 2, 5, "found");
    }

    #[test]
    fn literal_exceeding_the_variable_count() {
        assert_err("p cnf 3 1\n1 -4 0\n", 2, 3, "variable 4 but the header declares 3");
        assert_err("p cnf 0 1\n1 0\n", 2, 1, "declares 0 variables");
        assert_err("p cnf 3 1\n-2147483648 0\n", 2, 1, "variable 2147483648");
    }

    #[test]
    fn overflowing_integer() {
        assert_err("p cnf 3 1\n1 2147483648 0\n", 2, 3, "overflows i32");
        assert_err("p cnf 3 1\n  -99999999999999999999 0\n", 2, 3, "overflows i32");
    }

    #[test]
    fn missing_terminating_zero() {
        assert_err(
            "p cnf 3 2\n1 0\n2\n -3 \n\n",
            4,
            4,
            "missing 0 at end of clause starting at line 3",
        );
        assert_err("p cnf 3 1\n1 2", 2, 4, "starting at line 2");
        assert_err(
            "p cnf 3 1\n1 2 0 3\n%\n0\n",
            2,
            8,
            "missing 0 at end of clause starting at line 2",
        );
    }

    #[test]
    fn error_display() {
        let e = err("p cnf 3 1\n1 x 0\n");
        assert_eq!(e.to_string(), "t.cnf:2:3: expected an integer literal, found `x`");
    }

    fn arb_cnf() -> impl Strategy<Value = Cnf> {
        (1u32..8).prop_flat_map(|n| {
            let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
            proptest::collection::vec(proptest::collection::vec(lit, 0..5), 0..8)
                .prop_map(move |clauses| Cnf { num_vars: n, clauses })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        #[test]
        fn never_panics_on_strings(text in any::<String>()) {
            let _ = parse_dimacs(&text, "f");
        }

        #[test]
        fn never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = parse_dimacs(&text, "f");
        }

        #[test]
        fn never_panics_on_dimacs_like_text(text in "[pcnf%0-9 \\-+\t\r\n]{0,120}") {
            let _ = parse_dimacs(&text, "f");
            let with_header = format!("p cnf 5 3\n{text}");
            let _ = parse_dimacs(&with_header, "f");
        }

        #[test]
        fn round_trips_to_dimacs(cnf in arb_cnf()) {
            let parsed = parse_dimacs(&cnf.to_dimacs(), "f").unwrap();
            prop_assert_eq!(parsed.cnf, cnf);
            prop_assert!(parsed.warnings.is_empty());
        }
    }
}

//! The text format of a positive DNF formula (the input of Schaefer's game G_pos(POS DNF)) and
//! its parser, which reports errors by file, line and column.
//!
//! # Format
//!
//! ```text
//! c comment lines start with c
//! p dnf 8 3        optional header: number of variables, number of terms
//! 1 2 4 5          one term per line: variable numbers separated by blanks
//! 3 5 7 8
//! 6 8 0            an optional trailing 0 ends a term (as in DIMACS)
//! ```
//!
//! * Lines are separated by `\n`, with one `\r` before it allowed, and separators are ASCII
//!   space and tab ([`crate::base::text`]: any other white space, or an invisible character
//!   such as a byte-order mark, is refused). Blank lines are skipped.
//! * A line whose first non-blank character is `c` is a comment.
//! * The header `p dnf V T` is optional. If present it must come before the first term, alone
//!   on its line, and only once. `V` may exceed the largest variable used: variables that occur
//!   in no term are still moves of the game. Without a header, the number of variables is the
//!   largest variable used (0 for a file with no terms).
//! * Every other line is one term: variable numbers (plain decimal digits, at least 1), an
//!   optional `0` as the last token. A line `0` alone is an empty term.
//! * A file with no terms is legal: no term can ever be completed, so the second player wins
//!   at once.
//!
//! # Errors
//!
//! Every error names the line and column (1-based, the column counted in characters) of the
//! token at fault: a negated variable (`-3`; the formula is a positive DNF), a `0` that is not
//! the last token of its line, a token that is not a variable number, a number too large for
//! `u32`, an empty term, a variable named twice in one term, a variable beyond the header's
//! count, a malformed header (wrong word, missing, non-numeric, negative or too large numbers,
//! extra tokens), a second header and a header after the first term.
//!
//! # Warnings
//!
//! A term count different from the header's `T` is a warning for `gamecert reduce`, which writes
//! the terms it read into a JSON instance (as its SATLIB leniency is for DIMACS CNF); where a DNF
//! text is itself the instance (`verify`, `gamecert-check`, and `solve`, which must write what
//! they accept) it is an error at the header's `T` ([`read_posdnf`]): the header and the terms
//! disagree, and the checker does not guess which one the author meant. The warning is
//! `file:line: message`, naming the header's line.

use crate::base::text::{foreign_space, foreign_space_message, lines, tokenize, Token};
use crate::posdnf::dnf::PosDnf;
use std::collections::HashMap;
use std::fmt;

/// A parse error, located at a 1-based line and column of a named file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DnfParseError {
    /// The file name given to [`parse_posdnf`].
    pub file: String,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for DnfParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

impl std::error::Error for DnfParseError {}

/// A parsed formula together with the warnings collected while reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedDnf {
    /// The formula: every term non-empty, without repeated variables, in range.
    pub dnf: PosDnf,
    /// Non-fatal remarks (for `gamecert reduce`), each formatted `file:line: message`.
    pub warnings: Vec<String>,
    /// The header's term count when the terms do not match it, as the error the checker's
    /// strict reading ([`read_posdnf`]) gives.
    pub count_mismatch: Option<DnfParseError>,
}

fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// The header `p dnf V T` once read.
struct Header {
    line: usize,
    /// Column of the term count `T`, where a count the terms do not match is reported.
    terms_column: usize,
    num_vars: u32,
    num_terms: usize,
}

struct Parser<'f> {
    file: &'f str,
}

impl Parser<'_> {
    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> DnfParseError {
        DnfParseError { file: self.file.to_string(), line, column, message: message.into() }
    }

    /// Reads a non-negative header number no larger than `max`.
    fn header_number(
        &self,
        line: usize,
        token: Option<&Token<'_>>,
        end_column: usize,
        what: &str,
        max: u64,
    ) -> Result<u64, DnfParseError> {
        let Some(token) = token else {
            return Err(self.error(
                line,
                end_column,
                format!(
                    "malformed header: missing the number of {what} (expected `p dnf <variables> <terms>`)"
                ),
            ));
        };
        let text = token.text;
        if text.strip_prefix('-').is_some_and(all_digits) {
            return Err(self.error(
                line,
                token.column,
                format!(
                    "malformed header: the number of {what} must not be negative, found `{text}`"
                ),
            ));
        }
        if !all_digits(text) {
            return Err(self.error(
                line,
                token.column,
                format!(
                    "malformed header: the number of {what} must be a non-negative integer, found `{text}`"
                ),
            ));
        }
        match text.parse::<u64>() {
            Ok(value) if value <= max => Ok(value),
            _ => Err(self.error(
                line,
                token.column,
                format!("malformed header: the number of {what} `{text}` exceeds {max}"),
            )),
        }
    }

    fn header(
        &self,
        line: usize,
        tokens: &[Token<'_>],
        end: usize,
    ) -> Result<Header, DnfParseError> {
        match tokens.get(1) {
            Some(word) if word.text == "dnf" => {}
            Some(word) => {
                return Err(self.error(
                    line,
                    word.column,
                    format!("malformed header: expected `dnf` after `p`, found `{}`", word.text),
                ))
            }
            None => {
                return Err(self.error(line, end, "malformed header: expected `dnf` after `p`"))
            }
        }
        let num_vars =
            self.header_number(line, tokens.get(2), end, "variables", u32::MAX as u64)?;
        let num_terms = self.header_number(line, tokens.get(3), end, "terms", u32::MAX as u64)?;
        if let Some(extra) = tokens.get(4) {
            return Err(self.error(
                line,
                extra.column,
                format!(
                    "malformed header: unexpected `{}` after `p dnf {num_vars} {num_terms}`",
                    extra.text
                ),
            ));
        }
        Ok(Header {
            line,
            terms_column: tokens.get(3).map_or(end, |t| t.column),
            // Both conversions are lossless: the values were bounded above.
            num_vars: num_vars as u32,
            num_terms: num_terms as usize,
        })
    }

    /// Reads one term line (already known not to be blank, a comment or a header).
    fn term(
        &self,
        line: usize,
        tokens: &[Token<'_>],
        header: Option<&Header>,
    ) -> Result<Vec<u32>, DnfParseError> {
        let mut term: Vec<u32> = Vec::with_capacity(tokens.len());
        // Column of each variable of the term, to name the first occurrence of a repeat (a
        // map, so that a long term costs linear time).
        let mut columns: HashMap<u32, usize> = HashMap::with_capacity(tokens.len());
        for (k, token) in tokens.iter().enumerate() {
            let text = token.text;
            if text.strip_prefix('-').is_some_and(all_digits) {
                return Err(self.error(
                    line,
                    token.column,
                    format!(
                        "negated variable `{text}`: a positive DNF has no negations (write the variable number alone)"
                    ),
                ));
            }
            if !all_digits(text) {
                return Err(self.error(
                    line,
                    token.column,
                    format!("expected a variable number, found `{text}`"),
                ));
            }
            let Ok(var) = text.parse::<u32>() else {
                return Err(self.error(
                    line,
                    token.column,
                    format!("variable `{text}` is too large (at most {})", u32::MAX),
                ));
            };
            if var == 0 {
                if k + 1 == tokens.len() {
                    break;
                }
                return Err(self.error(
                    line,
                    token.column,
                    "variable 0 inside a term: 0 may only end a term, as its last token",
                ));
            }
            if let Some(head) = header {
                if var > head.num_vars {
                    return Err(self.error(
                        line,
                        token.column,
                        format!(
                            "variable {var} is beyond the {} variables declared by the header at line {}",
                            head.num_vars, head.line
                        ),
                    ));
                }
            }
            if let Some(first) = columns.insert(var, token.column) {
                return Err(self.error(
                    line,
                    token.column,
                    format!("variable {var} appears twice in this term (first at column {first})"),
                ));
            }
            term.push(var);
        }
        if term.is_empty() {
            // Only a line consisting of a single `0` gets here.
            return Err(self.error(
                line,
                tokens[0].column,
                "empty term: a term needs at least one variable (an empty term would be true at once)",
            ));
        }
        Ok(term)
    }
}

/// Parses the text of a positive DNF. `file` is only used to label errors and warnings.
///
/// Never panics, whatever the input.
pub fn parse_posdnf(text: &str, file: &str) -> Result<ParsedDnf, DnfParseError> {
    let parser = Parser { file };
    let mut header: Option<Header> = None;
    let mut terms: Vec<Vec<u32>> = Vec::new();
    let mut first_term_line: Option<usize> = None;

    for (index, line) in lines(text).enumerate() {
        let line_no = index + 1;
        let (tokens, end) = tokenize(line);
        let Some(first) = tokens.first() else {
            continue;
        };
        if first.text.starts_with('c') {
            continue;
        }
        if let Some((column, ch)) = foreign_space(line) {
            let message = foreign_space_message(ch);
            return Err(parser.error(line_no, column, message));
        }
        if first.text == "p" {
            if let Some(previous) = &header {
                return Err(parser.error(
                    line_no,
                    first.column,
                    format!("second header (the first one is at line {})", previous.line),
                ));
            }
            if let Some(term_line) = first_term_line {
                return Err(parser.error(
                    line_no,
                    first.column,
                    format!(
                        "header after the first term (line {term_line}): the header must come first"
                    ),
                ));
            }
            header = Some(parser.header(line_no, &tokens, end)?);
            continue;
        }
        terms.push(parser.term(line_no, &tokens, header.as_ref())?);
        first_term_line.get_or_insert(line_no);
    }

    let mut warnings = Vec::new();
    let mut count_mismatch = None;
    let num_vars = match &header {
        Some(head) => {
            if terms.len() != head.num_terms {
                let message = format!(
                    "header declares {} terms but the formula has {}",
                    head.num_terms,
                    terms.len()
                );
                warnings.push(format!("{file}:{}: {message}", head.line));
                count_mismatch = Some(parser.error(head.line, head.terms_column, message));
            }
            head.num_vars
        }
        None => terms.iter().flatten().copied().max().unwrap_or(0),
    };
    Ok(ParsedDnf { dnf: PosDnf { num_vars, terms }, warnings, count_mismatch })
}

/// The checker's reading of a positive DNF text: [`parse_posdnf`], with a term count other
/// than the header's refused (the instance is exactly what the file says; `gamecert reduce`
/// alone forgives the count, with a warning).
pub fn read_posdnf(text: &str, file: &str) -> Result<PosDnf, DnfParseError> {
    let parsed = parse_posdnf(text, file)?;
    match parsed.count_mismatch {
        Some(error) => Err(error),
        None => Ok(parsed.dnf),
    }
}

/// Writes `dnf` in the format [`parse_posdnf`] reads: the header `p dnf V T`, then one term per
/// line, each ended by `0`. A valid formula (non-empty terms, see
/// [`PosDnf::violation`]) reads back equal; an empty term is written as a line `0`, which the
/// parser rejects rather than silently dropping.
pub fn write_posdnf(dnf: &PosDnf) -> String {
    use std::fmt::Write as _;
    let mut out = format!("p dnf {} {}\n", dnf.num_vars, dnf.terms.len());
    for term in &dnf.terms {
        for v in term {
            let _ = write!(out, "{v} ");
        }
        out.push_str("0\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> DnfParseError {
        match parse_posdnf(text, "t.dnf") {
            Ok(parsed) => panic!("expected an error, parsed {parsed:?}"),
            Err(e) => e,
        }
    }

    fn assert_err(text: &str, line: usize, column: usize, needle: &str) {
        let e = err(text);
        assert_eq!((e.line, e.column), (line, column), "{e}");
        assert!(e.message.contains(needle), "{e} lacks {needle:?}");
        assert_eq!(e.file, "t.dnf");
    }

    fn ok(text: &str) -> ParsedDnf {
        parse_posdnf(text, "t.dnf").unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn parses_figure_4() {
        let parsed = ok("c Figure 4\np dnf 8 3\n1 2 4 5\n3 5 7 8\n6 8 0\n");
        assert_eq!(
            parsed.dnf,
            PosDnf { num_vars: 8, terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![6, 8]] }
        );
        assert!(parsed.warnings.is_empty());
        assert_eq!(parsed.dnf.violation(), None);
    }

    #[test]
    fn without_a_header_the_largest_variable_counts() {
        let parsed = ok("  c x\n\n3 1\r\n\t7 0 \n");
        assert_eq!(parsed.dnf.num_vars, 7);
        assert_eq!(parsed.dnf.terms, vec![vec![3, 1], vec![7]]);
        assert!(parsed.warnings.is_empty());
    }

    #[test]
    fn unused_variables_of_the_header_are_kept() {
        // A byte-order mark is refused as every invisible character is (nothing is dropped).
        let err = parse_posdnf("\u{feff}p dnf 10 1\n2 3\n", "t.dnf").unwrap_err();
        assert_eq!((err.line, err.column), (1, 1), "{err}");
        assert!(err.message.contains("U+FEFF"), "{err}");
        let parsed = ok("p dnf 10 1\n2 3\n");
        assert_eq!(parsed.dnf.num_vars, 10);
        assert_eq!(parsed.dnf.terms, vec![vec![2, 3]]);
    }

    #[test]
    fn no_terms_is_legal() {
        for text in ["", "\n\n", "c nothing\n", "p dnf 0 0\n", "p dnf 4 0\nc only\n"] {
            let parsed = ok(text);
            assert!(parsed.dnf.terms.is_empty(), "{text:?}");
            assert!(parsed.warnings.is_empty(), "{text:?}");
        }
        assert_eq!(ok("p dnf 4 0\n").dnf.num_vars, 4);
        assert_eq!(ok("").dnf.num_vars, 0);
    }

    #[test]
    fn term_count_mismatch_is_a_warning_for_reduce_and_an_error_for_the_checker() {
        let parsed = ok("c x\np dnf 3 2\n1 2\n");
        assert_eq!(
            parsed.warnings,
            vec!["t.dnf:2: header declares 2 terms but the formula has 1".to_string()]
        );
        let err = read_posdnf("c x\np dnf 3 2\n1 2\n", "t.dnf").unwrap_err();
        assert_eq!(err.to_string(), "t.dnf:2:9: header declares 2 terms but the formula has 1");
        let parsed = ok("p dnf 3 0\n1\n2 3 0\n");
        assert_eq!(
            parsed.warnings,
            vec!["t.dnf:1: header declares 0 terms but the formula has 2".to_string()]
        );
        assert!(read_posdnf("p dnf 3 0\n1\n2 3 0\n", "t.dnf").is_err());
        // Without a header there is no count to disagree with; with the right one, no error.
        assert_eq!(read_posdnf("1 2\n3\n", "t.dnf").unwrap(), ok("1 2\n3\n").dnf);
        assert_eq!(read_posdnf("p dnf 3 1\n1 2\n", "t.dnf").unwrap().terms, vec![vec![1, 2]]);
    }

    #[test]
    fn negated_variable() {
        assert_err("1 -3\n", 1, 3, "negated variable `-3`");
        assert_err("p dnf 3 1\n  -1 2 0\n", 2, 3, "positive DNF");
        assert_err("-0\n", 1, 1, "negated variable");
    }

    #[test]
    fn zero_inside_a_term() {
        assert_err("1 0 2\n", 1, 3, "variable 0 inside a term");
        assert_err("p dnf 3 2\n1 2\n0 0\n", 3, 1, "variable 0 inside a term");
        assert_err("1 2 0 3 0\n", 1, 5, "variable 0 inside a term");
    }

    #[test]
    fn not_a_number() {
        assert_err("1 x\n", 1, 3, "expected a variable number, found `x`");
        assert_err("1 2 c trailing\n", 1, 5, "found `c`");
        assert_err("p dnf 3 1\n1 +2\n", 2, 3, "found `+2`");
        assert_err("1 2.0\n", 1, 3, "found `2.0`");
        assert_err("1 0x2\n", 1, 3, "found `0x2`");
        assert_err("1 -\n", 1, 3, "found `-`");
        assert_err("%\n", 1, 1, "found `%`");
        // Columns count characters, not bytes.
        assert_err("\u{e9}\u{e9} 1\n", 1, 1, "found");
        assert_err("1 \u{e9}\u{e9} \u{e9}\n", 1, 3, "found");
        // Only ASCII spaces and tabs separate: a non-breaking space is refused where it stands.
        assert_err("1\u{a0}2 \u{e9}\n", 1, 2, "(U+00A0) is not a separator");
        assert_err("p dnf 2 1\n1\x0c2\n", 2, 2, "(U+000C) is not a separator");
    }

    #[test]
    fn number_too_large() {
        assert_err("1 4294967296\n", 1, 3, "too large");
        assert_err(" 99999999999999999999999\n", 1, 2, "too large");
        assert_eq!(ok("4294967295\n").dnf.num_vars, u32::MAX);
    }

    #[test]
    fn empty_term() {
        assert_err("0\n", 1, 1, "empty term");
        assert_err("p dnf 2 2\n1 2\n   0  \n", 3, 4, "empty term");
    }

    #[test]
    fn repeated_variable() {
        assert_err("1 2 1\n", 1, 5, "variable 1 appears twice in this term (first at column 1)");
        assert_err("3\n 2 5 5 0\n", 2, 6, "first at column 4");
    }

    #[test]
    fn variable_beyond_the_header() {
        assert_err(
            "p dnf 3 1\n1 4\n",
            2,
            3,
            "variable 4 is beyond the 3 variables declared by the header at line 1",
        );
        assert_err("p dnf 0 1\n1\n", 2, 1, "beyond the 0 variables");
    }

    #[test]
    fn malformed_header() {
        assert_err("p cnf 3 2\n", 1, 3, "expected `dnf` after `p`, found `cnf`");
        assert_err("p\n", 1, 2, "expected `dnf`");
        assert_err("  p  \n", 1, 6, "expected `dnf`");
        assert_err("p dnf\n", 1, 6, "missing the number of variables");
        assert_err("p dnf 3\n", 1, 8, "missing the number of terms");
        assert_err("p dnf x 2\n", 1, 7, "non-negative integer, found `x`");
        assert_err("p dnf 3 2.0\n", 1, 9, "non-negative integer");
        assert_err("p dnf +3 2\n", 1, 7, "non-negative integer");
        assert_err("p dnf -3 2\n", 1, 7, "must not be negative");
        assert_err("p dnf 3 -2\n", 1, 9, "must not be negative");
        assert_err("p dnf 4294967296 1\n", 1, 7, "exceeds 4294967295");
        assert_err("p dnf 1 99999999999999999999999\n", 1, 9, "exceeds");
        assert_err("p dnf 3 2 7\n", 1, 11, "unexpected `7`");
        assert_err("pdnf 3 2\n", 1, 1, "expected a variable number, found `pdnf`");
    }

    #[test]
    fn repeated_header() {
        assert_err("p dnf 3 2\n\n p dnf 3 2\n", 3, 2, "second header (the first one is at line 1)");
        assert_err("p dnf 3 2\n1\np dnf 3 2\n", 3, 1, "second header");
    }

    #[test]
    fn header_after_terms() {
        assert_err("c x\n1 2\n\n  p dnf 3 1\n", 4, 3, "header after the first term (line 2)");
    }

    #[test]
    fn error_display() {
        let e = err("p dnf 3 1\n1 -2\n");
        assert_eq!(
            e.to_string(),
            "t.dnf:2:3: negated variable `-2`: a positive DNF has no negations (write the variable number alone)"
        );
    }

    #[test]
    fn round_trips_figure_4() {
        let dnf =
            PosDnf { num_vars: 9, terms: vec![vec![1, 2, 4, 5], vec![3, 5, 7, 8], vec![8, 6]] };
        let text = write_posdnf(&dnf);
        assert_eq!(text, "p dnf 9 3\n1 2 4 5 0\n3 5 7 8 0\n8 6 0\n");
        let parsed = ok(&text);
        assert_eq!(parsed.dnf, dnf);
        assert!(parsed.warnings.is_empty());
        let empty = PosDnf { num_vars: 0, terms: vec![] };
        assert_eq!(ok(&write_posdnf(&empty)).dnf, empty);
    }
}

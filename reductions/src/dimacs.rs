//! Reading DIMACS CNF on the solver side: the checker's reader
//! ([`gamecert_certificates::sat::dimacs`], whose module docs state the format's rules once),
//! after a lenient pre-pass for the SATLIB files found in the wild ([`satlib_prepass`]).
//!
//! # The lenient pre-pass, and what it says
//!
//! Decision (issue 31, item 4): there is one DIMACS reader, the checker's; where the solver is
//! more lenient it changes the text *before* that reader sees it, and says what it changed in a
//! warning (`file:line: ...`) that the command line prints on standard error. The library
//! prints nothing. The checker itself is never lenient: `gamecert-check lrat F.cnf P.lrat`
//! reads exactly what `F.cnf` holds and refuses what the pre-pass forgave. What is forgiven:
//!
//! * a byte-order mark at the very start (dropped);
//! * SATLIB's end marker: a line whose first non-blank character is `%` ends the formula, and
//!   it and every line after it (SATLIB's files end with `%` and a stray `0`) are dropped;
//! * a clause count in the header `p cnf V C` other than the number of clauses the formula
//!   holds: the header is read with the count of clauses there are (many published files get
//!   it wrong, and the clauses themselves are unambiguous).
//!
//! Everything else (separators, a literal beyond `V`, a clause without its `0`, a second
//! header, anything that is not a number) is the checker's rule and its error, with line and
//! column.

use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::text::is_separator;
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::dimacs::parse_cnf;

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
    /// What the lenient pre-pass changed, each formatted `file:line: message`.
    pub warnings: Vec<String>,
}

/// The text the checker's reader is given for `text` (from `file`), and a warning for each
/// thing changed (see the module docs). Line numbers are kept: only the header's count is
/// rewritten, and only the lines from a `%` on are dropped.
pub fn satlib_prepass(text: &str, file: &str) -> (String, Vec<String>) {
    let mut warnings = Vec::new();
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => {
            warnings.push(format!("{file}:1: the byte-order mark before the formula is ignored"));
            rest
        }
        None => text,
    };
    let mut kept = text;
    // The header's line, its `V`, its `C` and the byte range of `C` in `kept`.
    let mut header: Option<(usize, usize, std::ops::Range<usize>)> = None;
    let mut clauses = 0usize;
    let mut offset = 0;
    for (k, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let words: Vec<&str> = body.split(is_separator).filter(|w| !w.is_empty()).collect();
        match words.first() {
            None => {}
            Some(w) if w.starts_with('c') => {}
            Some(w) if w.starts_with('%') => {
                let dropped = text[start..].lines().count();
                warnings.push(format!(
                    "{file}:{}: `%` ends the formula (SATLIB's end marker): {} from here on \
                     ignored",
                    k + 1,
                    gamecert_certificates::base::text::counted(dropped, "line")
                ));
                kept = &text[..start];
                break;
            }
            Some(&"p") => {
                if let [_, "cnf", _, count] = words[..] {
                    if header.is_none() {
                        if let Ok(declared) = count.parse::<usize>() {
                            let at = start + (count.as_ptr() as usize - line.as_ptr() as usize);
                            header = Some((k + 1, declared, at..at + count.len()));
                        }
                    }
                }
            }
            Some(_) => clauses += words.iter().filter(|w| w.parse::<i32>() == Ok(0)).count(),
        }
    }
    let mut kept = kept.to_string();
    if let Some((line, declared, range)) = header.filter(|&(_, declared, _)| declared != clauses) {
        warnings.push(format!(
            "{file}:{line}: the header declares {declared} clauses, the formula has {clauses}: \
             read as {clauses}"
        ));
        kept.replace_range(range, &clauses.to_string());
    }
    (kept, warnings)
}

/// Parses DIMACS CNF text: [`satlib_prepass`], then the checker's reader. `file` is only used
/// to label errors and warnings.
///
/// Never panics, whatever the input.
pub fn parse_dimacs(text: &str, file: &str) -> Result<ParsedCnf, ParseError> {
    let (kept, warnings) = satlib_prepass(text, file);
    let bom = text.starts_with('\u{feff}');
    match parse_cnf(&kept, &mut Budget::unlimited()) {
        Ok(cnf) => Ok(ParsedCnf { cnf, warnings }),
        Err(message) => {
            // The checker's messages start `line:column: `.
            let located = message.split_once(": ").and_then(|(at, rest)| {
                let (line, column) = at.split_once(':')?;
                Some((line.parse().ok()?, column.parse().ok()?, rest))
            });
            let (line, column, message) = located.unwrap_or((1, 1, message.as_str()));
            // A dropped byte-order mark was one character of the first line.
            let column = column + usize::from(bom && line == 1);
            Err(ParseError { file: file.into(), line, column, message: message.into() })
        }
    }
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

    /// What the pre-pass forgives, it says; the checker's reader refuses the same text.
    #[test]
    fn the_lenient_pre_pass_warns_and_the_checker_refuses() {
        let satlib = "p cnf 2 1\n1 -2 0\n%\n0\n\ngarbage p cnf\n";
        let parsed = ok(satlib);
        assert_eq!(parsed.cnf.clauses, vec![vec![1, -2]]);
        assert_eq!(
            parsed.warnings,
            ["t.cnf:3: `%` ends the formula (SATLIB's end marker): 4 lines from here on ignored"]
        );
        let miscounted = "c x\np cnf 2 3\n1 0\n";
        let parsed = ok(miscounted);
        assert_eq!(parsed.cnf.clauses, vec![vec![1]]);
        assert_eq!(
            parsed.warnings,
            ["t.cnf:2: the header declares 3 clauses, the formula has 1: read as 1"]
        );
        let parsed = ok("p cnf 2 0\n1 0 2 0\n");
        assert_eq!(
            parsed.warnings,
            ["t.cnf:1: the header declares 0 clauses, the formula has 2: read as 2"]
        );
        let bom = ok("\u{feff}p cnf 2 1\n1 -2 0\n");
        assert_eq!(bom.cnf.clauses, vec![vec![1, -2]]);
        assert_eq!(bom.warnings, ["t.cnf:1: the byte-order mark before the formula is ignored"]);
        for text in [satlib, miscounted, "\u{feff}p cnf 2 1\n1 -2 0\n"] {
            assert!(parse_cnf(text, &mut Budget::unlimited()).is_err(), "{text:?}");
        }
        // A column on the first line counts the mark dropped.
        assert_err("\u{feff}p cnf 2 1 x\n", 1, 12, "expected `p cnf");
    }

    #[test]
    fn errors_are_the_checkers_with_their_place() {
        assert_err("c only\n1 2 0\n", 2, 1, "`1` before the `p cnf` header");
        assert_err("", 1, 1, "no `p cnf` header");
        assert_err("c nothing\nc here", 2, 1, "no `p cnf` header");
        // Text after `%` does not count.
        assert_err(" %\np cnf 1 1\n1 0\n", 1, 1, "no `p cnf` header");
        assert_err("p dnf 3 2\n", 1, 3, "expected `p cnf VARIABLES CLAUSES`");
        assert_err("p cnf 3\n", 1, 8, "expected `p cnf");
        assert_err("p cnf -3 2\n", 1, 7, "expected `p cnf");
        assert_err("p cnf 2147483648 1\n", 1, 7, "expected `p cnf");
        assert_err("p cnf 3 2 7\n", 1, 11, "expected `p cnf");
        assert_err("p cnf 3 2\n1 0\n p cnf 3 2\n", 3, 2, "a second `p` line");
        assert_err("p cnf 3 1\n1 x 0\n", 2, 3, "`x` is not a literal");
        assert_err("p cnf 3 1\n1 2 0 c trailing\n", 2, 7, "`c` is not a literal");
        // Columns count characters, not bytes.
        assert_err("p cnf 3 1\n1 \u{e9}\u{e9} \u{e9}\n", 2, 3, "is not a literal");
        // Only ASCII spaces and tabs separate.
        assert_err("p cnf 3 1\n1\u{a0}2 0\n", 2, 2, "(U+00A0) is not a separator");
        assert_err("p cnf 3 1\n1 -4 0\n", 2, 3, "literal -4 names a variable beyond the 3");
        assert_err("p cnf 3 1\n1 2147483648 0\n", 2, 3, "is not a literal");
        assert_err("p cnf 3 1\n1 2", 2, 3, "the last clause has no terminating 0");
        let e = err("p cnf 3 1\n1 x 0\n");
        assert_eq!(e.to_string(), "t.cnf:2:3: `x` is not a literal (a whole number in -3..=3)");
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

//! What a text costs before it is parsed. The readers that build values from tokens — JSON
//! through serde (instances and certificates), the edge-list text of a one-round Voronoi
//! instance and the positive-DNF text — are charged, before they run, an upper bound on what
//! they can hold: a fixed number of units for every token they can turn into a value and two
//! for every byte. No token then grows a buffer that was not paid for, and what a reader holds
//! is a fixed multiple of the bytes it read.
//!
//! The rates are the worst each reader was measured to hold (its peak resident memory over the
//! units charged, on the crafted files of `certificates/tests/it/reader_memory.rs`, which runs
//! every reader under a work budget and checks the memory it took against it): a word of the
//! text formats becomes at most about 100 bytes (a vertex name interned twice with its line and
//! column, a one-variable term), a JSON value at most about 50 (an element of a vector of
//! tuples or structures, a string's header). The LRAT and DIMACS readers charge as they read,
//! item by item ([`crate::sat::lrat`], [`crate::sat::dimacs`]); a `triangle-stream` likewise.
//! Counting is one pass over the bytes, paid by the two units a byte.

use crate::base::budget::Budget;

/// Units charged per JSON value (every `[`, `{`, `,` and `:` outside strings, and one more).
pub const JSON_VALUE_COST: u64 = 64;

/// Units charged per word of a text format (a maximal run of characters that are neither
/// separators nor line ends) and per line.
pub const WORD_COST: u64 = 128;

/// Units charged per byte: the counting pass, and the bytes a string or name keeps.
pub const BYTE_COST: u64 = 2;

/// Which reader a text is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// JSON, read by serde into the registry's types.
    Json,
    /// The edge-list and positive-DNF texts: words separated by spaces and tabs, in lines.
    Words,
}

/// Charges `budget` for parsing `text` with `reader` (see the module docs), for `what` (the
/// phrase a rejection names: "reading the instance"). Fails, spending nothing, when the budget
/// cannot pay: the text must then not be parsed.
pub fn prepay(text: &str, reader: Reader, what: &str, budget: &mut Budget) -> Result<(), String> {
    let bytes = text.len() as u64;
    let (items, rate) = match reader {
        Reader::Json => (json_values(text.as_bytes()), JSON_VALUE_COST),
        Reader::Words => (words_and_lines(text.as_bytes()), WORD_COST),
    };
    budget.charge(items.saturating_mul(rate).saturating_add(bytes.saturating_mul(BYTE_COST)), what)
}

/// An upper bound on the values of a JSON text: every value but the outermost follows a `[`, a
/// `,` or a `:` outside strings, and every object key a `{` or a `,`.
fn json_values(text: &[u8]) -> u64 {
    let (mut count, mut in_string, mut escaped) = (1u64, false, false);
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'[' | b'{' | b',' | b':' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// The words and lines of a text: every start of a run of bytes that are not ASCII spaces,
/// tabs or line ends, and every `\n`, and one more.
fn words_and_lines(text: &[u8]) -> u64 {
    let (mut count, mut in_word) = (1u64, false);
    for &b in text {
        let blank = matches!(b, b' ' | b'\t' | b'\n' | b'\r');
        if !blank && !in_word {
            count += 1;
        }
        if b == b'\n' {
            count += 1;
        }
        in_word = !blank;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_json_values_outside_strings() {
        assert_eq!(json_values(b"1"), 1);
        assert_eq!(json_values(b"[1, 2, 3]"), 4);
        // An object, two keys, an array and a string: 5 values, bounded by 6.
        assert_eq!(json_values(br#"{"a": [], "b,[:{": "x\"]"}"#), 6);
        assert_eq!(json_values(b"[[],[],[]]"), 7);
    }

    #[test]
    fn counts_words_and_lines() {
        assert_eq!(words_and_lines(b""), 1);
        assert_eq!(words_and_lines(b"a b\n c\t\td\r\n"), 7);
        assert_eq!(words_and_lines(b"white a a a"), 5);
    }

    #[test]
    fn charges_before_parsing_and_refuses_what_it_cannot_pay() {
        let text = "[1, 2, 3]";
        let mut budget = Budget::new(1_000);
        prepay(text, Reader::Json, "reading", &mut budget).unwrap();
        assert_eq!(budget.used(), 4 * JSON_VALUE_COST + 2 * text.len() as u64);
        let mut budget = Budget::new(100);
        let e = prepay(text, Reader::Json, "reading the certificate", &mut budget).unwrap_err();
        assert!(e.contains("work limit reached while reading the certificate"), "{e}");
        assert_eq!(budget.used(), 0);
    }
}

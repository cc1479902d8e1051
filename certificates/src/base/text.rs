//! The rules every text format of the checker shares (DIMACS CNF, LRAT, positive DNF, edge
//! lists), stated once here and used by every reader of both crates:
//!
//! - **Separators** are ASCII space and tab, nothing else ([`is_separator`]). A line ends at
//!   `\n`, and one `\r` just before it belongs to the line end (files written on Windows).
//!   Any other character that is white space elsewhere (a non-breaking space U+00A0, a vertical
//!   tab, a form feed, a `\r` inside a line, ...) is not a separator: cadical and cake_lpr
//!   refuse it, and so does every reader here, naming its line and column.
//! - **Lines are paid for as they are read**: every line, comment and blank ones included,
//!   costs [`LINE_COST`] units and one unit per byte (the LRAT reader, which holds no line, reads
//!   a token at a time: [`crate::sat::lrat`]); the readers that hold a whole text are paid for
//!   before they parse it ([`crate::base::prepay`]).
//!
//! Tokens remember their 1-based character columns for the parsers' error messages; counts
//! come with their nouns for every message.

/// Work units every line read costs besides its bytes (comments and blank lines included), so
/// that a stream of empty lines runs out of budget as fast as a stream of bytes.
pub const LINE_COST: u64 = 4;

/// Whether `ch` separates tokens: ASCII space or tab (see the module docs).
pub fn is_separator(ch: char) -> bool {
    ch == ' ' || ch == '\t'
}

/// The lines of `text`, each without its line end: split at `\n`, dropping the `\n` and one
/// `\r` just before it. A `\r` anywhere else (inside a line, two before a `\n`, at the very
/// end without a `\n`) stays in its line, for [`foreign_space`] to refuse.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split_inclusive('\n').map(|line| match line.strip_suffix('\n') {
        Some(line) => line.strip_suffix('\r').unwrap_or(line),
        None => line,
    })
}

/// The first character of `line` (a line of [`lines`], without its line end) that is white
/// space but not a separator, or invisible ([`invisible`]), with its 1-based column: what every
/// reader refuses (a non-breaking space, a vertical tab, a `\r` that ends no line, a byte-order
/// mark, a zero-width space).
pub fn foreign_space(line: &str) -> Option<(usize, char)> {
    line.chars()
        .enumerate()
        .find(|&(_, ch)| !is_separator(ch) && (ch.is_whitespace() || invisible(ch)))
        .map(|(k, ch)| (k + 1, ch))
}

/// Whether `ch` prints as nothing though it is not white space: a control character (NUL, ESC,
/// ...) or one of Unicode's default-ignorable characters (a byte-order mark U+FEFF, a zero-width
/// space U+200B, a soft hyphen U+00AD, a word joiner U+2060, direction marks and overrides,
/// variation selectors, ...). Inside a name it would make two names that look alike differ,
/// or hide a keyword (`\u{feff}white` is not `white`), so no text format accepts one.
pub fn invisible(ch: char) -> bool {
    ch.is_control()
        || matches!(ch as u32,
            0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180B..=0x180F
            | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x206F | 0x3164 | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFA0 | 0xFFF0..=0xFFF8 | 0x1BCA0..=0x1BCA3 | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF)
}

/// `word` as a number of a text format: ASCII digits, with a `-` before them where `signed`;
/// no `+`, no white space (Rust's own parsers take a leading `+`, which no DIMACS tool does).
/// `None` when it is not one or is out of `T`'s range.
pub fn number<T: std::str::FromStr>(word: &str, signed: bool) -> Option<T> {
    let digits = if signed { word.strip_prefix('-').unwrap_or(word) } else { word };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// `text` safe to print on one line of a terminal: every control character (a line end, `\r`,
/// ESC, ...) and every direction override written as its escape (`\r`, `\u{1b}`). A message
/// quotes names and values from files an attacker wrote; raw, a `\r` or an escape sequence in
/// a vertex name could overwrite `REJECTED` with a forged `ACCEPTED` on the screen.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char =
        |ch: char| ch.is_control() || matches!(ch as u32, 0x202A..=0x202E | 0x2066..=0x2069);
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if unsafe_char(ch) {
            out.extend(ch.escape_debug());
        } else {
            out.push(ch);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The message for a character [`foreign_space`] found (the caller adds where).
pub fn foreign_space_message(ch: char) -> String {
    if invisible(ch) && !ch.is_whitespace() {
        return format!(
            "{ch:?} (U+{:04X}) is an invisible character, refused in every text format (a name \
             holding one would look like another; a byte-order mark is refused too: save the \
             file without it)",
            ch as u32
        );
    }
    format!(
        "{ch:?} (U+{:04X}) is not a separator: tokens are separated by ASCII spaces and tabs only",
        ch as u32
    )
}

/// A token (between [separators](is_separator)) with its 1-based column.
pub struct Token<'a> {
    pub column: usize,
    pub text: &'a str,
}

/// Splits a line into tokens, remembering the 1-based character column of each, and returns
/// the column just after the end of the line as well.
pub fn tokenize(line: &str) -> (Vec<Token<'_>>, usize) {
    let mut tokens = Vec::new();
    let mut start: Option<(usize, usize)> = None; // (byte offset, column)
    let mut column = 0;
    for (offset, ch) in line.char_indices() {
        column += 1;
        if is_separator(ch) {
            if let Some((begin, col)) = start.take() {
                tokens.push(Token { column: col, text: &line[begin..offset] });
            }
        } else if start.is_none() {
            start = Some((offset, column));
        }
    }
    if let Some((begin, col)) = start {
        tokens.push(Token { column: col, text: &line[begin..] });
    }
    (tokens, column + 1)
}

/// A number with thousands separators (`12,345,678`), for messages of both crates.
pub fn grouped(n: impl Into<u128>) -> String {
    let digits = n.into().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `count` and `noun`, the noun's last word in the plural unless the count is one: "1 clause",
/// "2 clauses", "3 final positions", "2 vertices", "4 strategies", "2 classes".
pub fn counted(count: impl TryInto<u64>, noun: &str) -> String {
    let count = count.try_into().unwrap_or(u64::MAX);
    if count == 1 {
        return format!("1 {noun}");
    }
    let plural = if let Some(stem) = noun.strip_suffix("ex") {
        format!("{stem}ices")
    } else if noun.ends_with('s') || noun.ends_with("sh") || noun.ends_with("ch") {
        format!("{noun}es")
    } else if let Some(stem) = noun.strip_suffix('y').filter(|s| !s.ends_with(['a', 'e', 'o', 'u']))
    {
        format!("{stem}ies")
    } else {
        format!("{noun}s")
    };
    format!("{count} {plural}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_spaces_and_tabs_separate() {
        let (tokens, end) = tokenize("a\tb  c\u{a0}d");
        let texts: Vec<&str> = tokens.iter().map(|t| t.text).collect();
        assert_eq!((texts, end), (vec!["a", "b", "c\u{a0}d"], 9));
        assert_eq!(foreign_space("1 2\u{a0}3"), Some((4, '\u{a0}')));
        assert_eq!(foreign_space("1\x0b2"), Some((2, '\x0b')));
        assert_eq!(foreign_space("1\r2"), Some((2, '\r')));
        // A `\r` is a line end only before `\n`, which `lines` drops with it.
        assert_eq!(foreign_space("1 2\t3\r"), Some((6, '\r')));
        assert_eq!(foreign_space("1 2\t3"), None);
        assert_eq!(foreign_space("\u{feff}white a"), Some((1, '\u{feff}')));
        assert_eq!(foreign_space("white\u{200b} a"), Some((6, '\u{200b}')));
        assert_eq!(foreign_space("a\0b"), Some((2, '\0')));
        assert_eq!(foreign_space("caf\u{e9} na\u{ef}ve"), None);
        assert_eq!(printable("a\rACCEPTED\u{1b}[K\nb"), "a\\rACCEPTED\\u{1b}[K\\nb");
        assert_eq!(printable("caf\u{e9} 'x'"), "caf\u{e9} 'x'");
        assert_eq!((number::<i32>("-12", true), number::<i32>("+12", true)), (Some(-12), None));
        assert_eq!((number::<u32>("-1", false), number::<u32>("", false)), (None, None));
        assert_eq!(number::<u8>("256", false), None);
        assert_eq!(printable("\u{202e}abc"), "\\u{202e}abc");
        let split: Vec<&str> = lines("a\r\nb\r\r\nc\nd\r").collect();
        assert_eq!(split, ["a", "b\r", "c", "d\r"]);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("x\n").collect::<Vec<_>>(), ["x"]);
        assert!(foreign_space_message('\u{a0}').starts_with("'\\u{a0}' (U+00A0) is not"));
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(counted(1, "final position"), "1 final position");
        assert_eq!(counted(0, "final position"), "0 final positions");
        assert_eq!(counted(2, "vertex"), "2 vertices");
        assert_eq!(counted(3, "strategy"), "3 strategies");
        assert_eq!(counted(2, "twin class"), "2 twin classes");
        assert_eq!(counted(5, "key"), "5 keys");
    }
}

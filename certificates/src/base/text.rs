//! Splitting text lines into tokens that remember their columns, for the parsers' error
//! messages (1-based character columns).

/// A whitespace-separated token with its 1-based column.
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
        if ch.is_whitespace() {
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

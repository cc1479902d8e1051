//! Splitting text lines into tokens that remember their columns, for the parsers' error
//! messages (1-based character columns); counts with their nouns for every message.

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
    use super::counted;

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

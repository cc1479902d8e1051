//! [`FormatError`]: a file that does not parse or does not fit its schema, with the line and
//! column where they are known.

use crate::base::graph::GraphError;
use std::fmt;

/// A file that does not parse or does not fit the schema. Line and column where known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl FormatError {
    pub fn new(message: impl Into<String>) -> Self {
        FormatError { line: None, column: None, message: message.into() }
    }

    /// The message for the user: `file`, the line and column where known, and (for a file that
    /// does not parse) `what` did not: `c.json:1:85: the certificate does not parse: EOF while
    /// parsing a list`, `k.json: the instance does not parse: unknown instance kind 'x' ...`.
    pub fn in_file(&self, file: &str, what: &str) -> String {
        let message = format!("{what} does not parse: {}", self.message);
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{file}:{l}:{c}: {message}"),
            (Some(l), None) => format!("{file}:{l}: {message}"),
            _ => format!("{file}: {message}"),
        }
    }

    pub(crate) fn from_json(err: serde_json::Error) -> Self {
        let known = err.line() > 0;
        FormatError {
            line: known.then(|| err.line()),
            column: known.then(|| err.column()),
            message: strip_position(&err.to_string()),
        }
    }
}

/// serde_json appends " at line L column C"; we report those separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.to_string(),
    }
}

/// Refuses the first of the fields a file gives (`given`) that `what` does not take, in serde's
/// words for an unknown field, naming the fields `what` knows. For the objects whose fields
/// depend on a tag (a refutation's `method`, a coin rule's `game`), which serde's
/// `deny_unknown_fields` cannot check through `flatten`.
pub fn only_fields<'a>(
    what: &str,
    given: impl IntoIterator<Item = &'a str>,
    known: &[&str],
) -> Result<(), String> {
    match given.into_iter().find(|field| !known.contains(field)) {
        Some(field) => Err(format!(
            "unknown field `{field}` for {what}, expected one of {}",
            known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
        )),
        None => Ok(()),
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{l}:{c}: {}", self.message),
            (Some(l), None) => write!(f, "{l}: {}", self.message),
            _ => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for FormatError {}

impl From<GraphError> for FormatError {
    fn from(err: GraphError) -> Self {
        FormatError::new(format!("graph.{err}"))
    }
}

/// A value read from a file, for a message: as written when short, else its JSON type (an
/// attacker's field may be megabytes long).
pub fn short_value(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if text.len() <= 40 {
        return text;
    }
    match value {
        serde_json::Value::Array(_) => "an array".into(),
        serde_json::Value::Object(_) => "an object".into(),
        serde_json::Value::String(_) => "a long string".into(),
        _ => "a number".into(),
    }
}

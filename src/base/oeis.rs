//! References to the OEIS for table columns that reproduce a known integer sequence term by
//! term: a line under the text table and an `oeis` field in the JSON output. Each reference is
//! declared next to its table, and a test there compares the column with the sequence's terms.

use std::fmt::Write as _;

/// A column of a table that equals an OEIS sequence at every size the table prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oeis {
    /// The column's field in the JSON output (`positions`).
    pub field: &'static str,
    /// The column as the text table names it (`t_n`).
    pub column: &'static str,
    /// The A-number.
    pub id: &'static str,
    /// What the sequence counts.
    pub name: &'static str,
}

/// The line under a text table naming its sequences (empty without any).
pub fn text_line(references: &[Oeis]) -> String {
    let mut line = String::new();
    for (i, r) in references.iter().enumerate() {
        let sep = if i == 0 { "OEIS: " } else { "; " };
        let _ = write!(line, "{sep}{} is {} ({})", r.column, r.id, r.name);
    }
    if !line.is_empty() {
        line.push_str(".\n");
    }
    line
}

/// The JSON field: each column's JSON field name to its A-number, `{"positions": "A006785"}`.
pub fn json(references: &[Oeis]) -> serde_json::Value {
    references.iter().map(|r| (r.field.to_string(), serde_json::json!(r.id))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_fields_name_every_reference() {
        let a = Oeis { field: "graphs", column: "graphs", id: "A001349", name: "connected graphs" };
        let b = Oeis { field: "terminal", column: "m_n", id: "A216783", name: "maximal ones" };
        assert_eq!(text_line(&[]), "");
        assert_eq!(
            text_line(&[a, b]),
            "OEIS: graphs is A001349 (connected graphs); m_n is A216783 (maximal ones).\n"
        );
        assert_eq!(json(&[a, b]), serde_json::json!({"graphs": "A001349", "terminal": "A216783"}));
    }
}

//! Writing instance and certificate files (not verification: the checker only reads them):
//! the JSON envelope (`format`, `version`, `kind`) before the kind's own fields, and the pretty
//! printer that keeps arrays of scalars on one line.

use serde::Serialize;

/// A file as written: the envelope, then the kind's fields.
#[derive(Serialize)]
struct Envelope<'a, T: Serialize> {
    format: &'a str,
    version: u64,
    kind: &'a str,
    #[serde(flatten)]
    body: &'a T,
}

/// `body` with its envelope, to serialise as a file of `format` and `kind`.
pub(crate) fn envelope<'a, T: Serialize>(
    format: &'a str,
    version: u64,
    kind: &'a str,
    body: &'a T,
) -> impl Serialize + 'a {
    Envelope { format, version, kind, body }
}

/// `body` as a file of `format` and `kind`: the envelope's three fields, then the body's own,
/// pretty-printed with [`inline_scalar_arrays`].
pub(crate) fn write_envelope<T: Serialize>(
    format: &str,
    version: u64,
    kind: &str,
    body: &T,
) -> String {
    let envelope = Envelope { format, version, kind, body };
    let pretty = serde_json::to_string_pretty(&envelope).expect("plain data always serialises");
    inline_scalar_arrays(&pretty)
}

/// Puts every array that holds only scalars on one line (an edge, a clause, a vertex list), so
/// that files stay readable: serde_json's pretty printer gives every element its own line.
/// Works on serde_json's pretty output, where an element that opens no container is a scalar
/// and lines that open a container end in `[` or `{`.
fn inline_scalar_arrays(pretty: &str) -> String {
    let lines: Vec<&str> = pretty.lines().collect();
    let mut out = String::with_capacity(pretty.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.ends_with('[') {
            let indent = line.len() - line.trim_start().len();
            let mut j = i + 1;
            let mut scalars = Vec::new();
            while j < lines.len() {
                let inner = lines[j];
                let inner_indent = inner.len() - inner.trim_start().len();
                if inner_indent == indent && inner.trim_start().starts_with(']') {
                    break;
                }
                if inner_indent != indent + 2 || inner.ends_with('[') || inner.ends_with('{') {
                    scalars.clear();
                    j = lines.len();
                    break;
                }
                scalars.push(inner.trim().trim_end_matches(','));
                j += 1;
            }
            if j < lines.len() && !scalars.is_empty() {
                out.push_str(line);
                out.push_str(&scalars.join(", "));
                out.push_str(lines[j].trim_start());
                out.push('\n');
                i = j + 1;
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
        i += 1;
    }
    out
}

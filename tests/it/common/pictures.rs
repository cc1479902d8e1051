//! Reading the SVG pictures `render` and the play library draw: the golden fixtures they draw,
//! their text, and the moves their clickable elements name.

use std::path::{Path, PathBuf};

/// A file of the checker's golden fixtures, `certificates/tests/fixtures/KIND/FILE`.
pub fn fixture(kind: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("certificates/tests/fixtures").join(kind).join(file)
}

/// The text of a picture, every `<text>` element's content (one a line) joined by spaces
/// (captions are wrapped over several elements).
pub fn words(svg: &str) -> String {
    svg.lines()
        .filter(|l| l.starts_with("<text"))
        .filter_map(|l| l.split_once('>').map(|(_, rest)| rest.trim_end_matches("</text>")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// SVG text with its escapes undone.
pub fn unescape(text: &str) -> String {
    text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

/// Every `data-move="..."` of a picture, unescaped, in order.
pub fn clicks(svg: &str) -> Vec<String> {
    svg.match_indices("data-move=\"")
        .map(|(at, key)| {
            let rest = &svg[at + key.len()..];
            unescape(&rest[..rest.find('"').unwrap()])
        })
        .collect()
}

//! The static site `gamecert page --out DIR` writes (issue 48, items 1 and 3): the gallery (each
//! case's picture, claim, and its instance and certificate as files), the docs as HTML pages,
//! and the checker compiled to WebAssembly, which checks any pair in the reader's browser. Any
//! static file server can host the folder; a page opened from disk checks dropped files too
//! (the module then comes from `checker-wasm.js`, since browsers refuse `fetch` and workers
//! there).
//!
//! Layout of the folder:
//! - `index.html`, `page.css`, `site.js`, `checker.js`, `site-worker.js`: the page;
//! - `gamecert-checker.wasm`, and `checker-wasm.js` (the same module as base64);
//! - `cases/NAME/instance.json`, `cases/NAME/certificate.json`: the gallery's files;
//! - `docs/**.html` and `docs/screenshots/*.png`: the docs.

use super::docs::{self, escape, Site};
use super::gallery::{Case, CaseFiles};
use std::path::Path;

const INDEX: &str = include_str!("site.html");
const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("site.js");
const WORKER: &str = include_str!("site-worker.js");
/// The JavaScript side of the checker's exported entry, shared with node's runner.
const CHECKER: &str = include_str!("../../wasm/checker.js");

/// What was written, for the command line to report.
#[derive(Debug, Default)]
pub struct Written {
    pub files: u64,
    pub bytes: u64,
    pub cases: usize,
    pub docs: usize,
}

/// Writes the site into `out` (made if missing; files of the same names are replaced): the
/// accepted `cases` with their `files`, the docs, and the checker module `wasm`.
pub fn write(out: &Path, cases: &[(Case, CaseFiles)], wasm: &[u8]) -> std::io::Result<Written> {
    let mut written = Written { cases: cases.len(), docs: docs::DOCS.len(), ..Written::default() };
    let mut put = |path: &str, bytes: &[u8]| -> std::io::Result<()> {
        let target = out.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, bytes)?;
        written.files += 1;
        written.bytes += bytes.len() as u64;
        Ok(())
    };
    let cards: Vec<String> = cases.iter().map(|(case, _)| card(case)).collect();
    let summary = format!(
        "{} cases; the checker is {} KB of WebAssembly.",
        cases.len(),
        wasm.len().div_ceil(1024)
    );
    let index = INDEX.replace("{{CARDS}}", &cards.join("\n")).replace("{{SUMMARY}}", &summary);
    put("index.html", index.as_bytes())?;
    put("page.css", CSS.as_bytes())?;
    put("site.js", SCRIPT.as_bytes())?;
    put("site-worker.js", WORKER.as_bytes())?;
    put("checker.js", CHECKER.as_bytes())?;
    put("gamecert-checker.wasm", wasm)?;
    put("checker-wasm.js", base64_script(wasm).as_bytes())?;
    for (case, files) in cases {
        let folder = format!("cases/{}", percent(&case.name));
        put(&format!("{folder}/instance.json"), files.instance.as_bytes())?;
        put(&format!("{folder}/certificate.json"), files.certificate.as_bytes())?;
    }
    for (path, markdown) in docs::DOCS {
        let html = docs::page(path, markdown, Site::Static);
        put(&format!("docs/{}", docs::html_path(path)), html.as_bytes())?;
    }
    for (path, bytes) in docs::IMAGES {
        put(&format!("docs/{path}"), bytes)?;
    }
    Ok(written)
}

/// The address that checks a case's pair in the browser, relative to index.html.
pub fn check_address(case: &str) -> String {
    let case = percent(case);
    format!(
        "index.html?instance=cases/{case}/instance.json&certificate=cases/{case}/certificate.json"
    )
}

/// A gallery card: the case's name, description, picture (the checker accepted its
/// certificate when the site was written), claim, files, and the link that checks them here.
fn card(case: &Case) -> String {
    let name = escape(&case.name);
    let claim = match case.claim.ends_with(['.', '!', '?']) {
        true => case.claim.clone(),
        false => format!("{}.", case.claim),
    };
    let folder = format!("cases/{}", percent(&case.name));
    format!(
        "<article class=\"case\" data-case=\"{name}\">\n<h2>{name}</h2>\n\
<p class=\"note\">{description}</p>\n<div class=\"picture\">{picture}</div>\n\
<p class=\"claim\">Certified: {claim}</p>\n<p class=\"note kind\">certificate: {kind}</p>\n\
<p class=\"files-links\"><a href=\"{folder}/instance.json\" download>instance</a> &middot; \
<a href=\"{folder}/certificate.json\" download>certificate</a></p>\n\
<a class=\"play check\" href=\"{address}\">Check in your browser</a>\n</article>",
        description = escape(&case.description),
        // A large tree's picture holds its collapsed overview and its detail; a card shows the
        // overview (the served page switches by zoom, this one does not zoom).
        picture = case.picture.replacen(
            "class=\"tree-picture\"",
            "class=\"tree-picture tree-zoomed-out\"",
            1
        ),
        claim = escape(&claim),
        kind = escape(&case.kind),
        address = escape(&check_address(&case.name)),
    )
}

/// A URL path piece: letters, digits and `-_.~` kept, every other byte as `%XX`.
fn percent(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(byte as char)
            }
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// The module as a script defining `GAMECERT_WASM_BASE64`, for a page opened from disk.
fn base64_script(wasm: &[u8]) -> String {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(wasm.len() / 3 * 4 + 100);
    text.push_str("// gamecert's checker as WebAssembly, base64 (for a page opened from disk).\n");
    text.push_str("var GAMECERT_WASM_BASE64 = \"");
    for chunk in wasm.chunks(3) {
        let bits =
            chunk.iter().fold(0u32, |acc, &b| acc << 8 | u32::from(b)) << (8 * (3 - chunk.len()));
        for k in 0..4 {
            if k <= chunk.len() {
                text.push(DIGITS[(bits >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                text.push('=');
            }
        }
    }
    text.push_str("\";\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_decoder_of_uploads() {
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"\x00\xff\x10gamecert"] {
            let script = base64_script(bytes);
            let digits = script.split('"').nth(1).unwrap();
            assert_eq!(crate::serve::upload::decode_base64(digits).as_deref(), Some(bytes));
        }
    }

    #[test]
    fn names_are_escaped_in_addresses() {
        assert_eq!(
            check_address("a b&c"),
            "index.html?instance=cases/a%20b%26c/instance.json&certificate=cases/a%20b%26c/certificate.json"
        );
    }
}

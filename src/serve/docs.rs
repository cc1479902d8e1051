//! The docs as HTML pages (issue 48, item 3): docs/*.md rendered with pulldown-cmark inside the
//! page's frame (its header and style), for `gamecert serve` (under `/docs/`) and for the static
//! site `gamecert page` writes (under `docs/`).
//!
//! Every Markdown file of docs/ is embedded (a test holds the list to the folder), so every
//! relative link between them answers: a link to `x.md` becomes `x.html`, headings get the
//! GitHub-style ids their `#anchors` name, and the screenshots they show are embedded too.

use pulldown_cmark::{html, CowStr, Event, Options, Parser, Tag, TagEnd};

/// Every Markdown file of docs/, by its path below docs/.
pub const DOCS: [(&str, &str); 33] = [
    ("benchmarks.md", include_str!("../../docs/benchmarks.md")),
    ("census.md", include_str!("../../docs/census.md")),
    ("checker-limits.md", include_str!("../../docs/checker-limits.md")),
    ("commands.md", include_str!("../../docs/commands.md")),
    ("commands/README.md", include_str!("../../docs/commands/README.md")),
    ("commands/check-reduction.md", include_str!("../../docs/commands/check-reduction.md")),
    ("commands/demo-and-kinds.md", include_str!("../../docs/commands/demo-and-kinds.md")),
    ("commands/gen.md", include_str!("../../docs/commands/gen.md")),
    ("commands/impartial.md", include_str!("../../docs/commands/impartial.md")),
    ("commands/play-and-hint.md", include_str!("../../docs/commands/play-and-hint.md")),
    ("commands/proofs.md", include_str!("../../docs/commands/proofs.md")),
    ("commands/reduce.md", include_str!("../../docs/commands/reduce.md")),
    ("commands/render.md", include_str!("../../docs/commands/render.md")),
    ("commands/scores-and-ties.md", include_str!("../../docs/commands/scores-and-ties.md")),
    ("commands/solve.md", include_str!("../../docs/commands/solve.md")),
    ("commands/triangle-avoidance.md", include_str!("../../docs/commands/triangle-avoidance.md")),
    ("commands/triangulations.md", include_str!("../../docs/commands/triangulations.md")),
    ("commands/verify.md", include_str!("../../docs/commands/verify.md")),
    ("commands/voronoi-tables.md", include_str!("../../docs/commands/voronoi-tables.md")),
    ("families/impartial.md", include_str!("../../docs/families/impartial.md")),
    ("families/triangle-avoidance.md", include_str!("../../docs/families/triangle-avoidance.md")),
    ("families/triangulations.md", include_str!("../../docs/families/triangulations.md")),
    ("families/vertexnim.md", include_str!("../../docs/families/vertexnim.md")),
    ("families/voronoi.md", include_str!("../../docs/families/voronoi.md")),
    ("formats.md", include_str!("../../docs/formats.md")),
    ("papers.md", include_str!("../../docs/papers.md")),
    ("pictures-boards.md", include_str!("../../docs/pictures-boards.md")),
    ("pictures.md", include_str!("../../docs/pictures.md")),
    ("python.md", include_str!("../../docs/python.md")),
    ("results.md", include_str!("../../docs/results.md")),
    ("serve.md", include_str!("../../docs/serve.md")),
    ("trusted.md", include_str!("../../docs/trusted.md")),
    ("wasm.md", include_str!("../../docs/wasm.md")),
];
/// The images the docs show, by their path below docs/.
pub const IMAGES: [(&str, &[u8]); 10] = [
    ("screenshots/end-kayles.png", include_bytes!("../../docs/screenshots/end-kayles.png")),
    (
        "screenshots/end-median-tree.png",
        include_bytes!("../../docs/screenshots/end-median-tree.png"),
    ),
    ("screenshots/end-path-12.png", include_bytes!("../../docs/screenshots/end-path-12.png")),
    ("screenshots/end-triangle-8.png", include_bytes!("../../docs/screenshots/end-triangle-8.png")),
    ("screenshots/gallery.png", include_bytes!("../../docs/screenshots/gallery.png")),
    ("screenshots/play-kayles.png", include_bytes!("../../docs/screenshots/play-kayles.png")),
    ("screenshots/play-path-12.png", include_bytes!("../../docs/screenshots/play-path-12.png")),
    (
        "screenshots/play-triangle-8.png",
        include_bytes!("../../docs/screenshots/play-triangle-8.png"),
    ),
    (
        "screenshots/verify-accepted.png",
        include_bytes!("../../docs/screenshots/verify-accepted.png"),
    ),
    (
        "screenshots/verify-rejected.png",
        include_bytes!("../../docs/screenshots/verify-rejected.png"),
    ),
];

/// The Markdown of the doc at `path` below docs/ (`results.md`).
pub fn markdown(path: &str) -> Option<&'static str> {
    DOCS.iter().find(|(name, _)| *name == path).map(|(_, text)| *text)
}

/// The image at `path` below docs/ (`screenshots/gallery.png`).
pub fn image(path: &str) -> Option<&'static [u8]> {
    IMAGES.iter().find(|(name, _)| *name == path).map(|(_, bytes)| *bytes)
}

/// A doc's page path: `families/voronoi.md` is `families/voronoi.html`.
pub fn html_path(markdown_path: &str) -> String {
    match markdown_path.strip_suffix(".md") {
        Some(stem) => format!("{stem}.html"),
        None => markdown_path.to_string(),
    }
}

/// The doc whose page is `html` (`families/voronoi.html`), as (its Markdown path, its text).
pub fn by_page(html: &str) -> Option<(&'static str, &'static str)> {
    let stem = html.strip_suffix(".html")?;
    DOCS.iter().find(|(name, _)| name.strip_suffix(".md") == Some(stem)).copied()
}

/// Where the doc pages link to the rest of the site: `gamecert serve` from the server's root,
/// the static site relative to the page (it may be opened from any folder, or from disk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Site {
    Served,
    Static,
}

/// The doc at `path` (below docs/, `families/voronoi.md`) as a whole HTML page with the page's
/// header, for `site`.
pub fn page(path: &str, markdown: &str, site: Site) -> String {
    let root = match site {
        Site::Served => "/".to_string(),
        // docs/families/x.html is two folders below the site's root.
        Site::Static => "../".repeat(1 + path.matches('/').count()),
    };
    let title = markdown
        .lines()
        .find_map(|line| line.strip_prefix("# "))
        .unwrap_or(path)
        .trim()
        .to_string();
    let body = to_html(markdown);
    let css = format!("{root}page.css");
    let index = format!("{root}index.html");
    let results = format!("{root}docs/results.html");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{title} - gamecert</title>\n<link rel=\"stylesheet\" href=\"{css}\">\n</head>\n<body>\n\
<header>\n  <a class=\"brand\" href=\"{index}#/\">gamecert</a>\n  <nav>\n\
    <a href=\"{index}#/\">Gallery</a>\n    <a href=\"{index}#/verify\">Verify</a>\n\
    <a href=\"{results}\" aria-current=\"{current}\">Results</a>\n  </nav>\n</header>\n\
<main class=\"doc\">\n{body}</main>\n</body>\n</html>\n",
        title = escape(&title),
        current = if path == "results.md" { "page" } else { "false" },
    )
}

/// Markdown to HTML: GitHub's tables and strikethrough, links to `.md` files turned into
/// links to their pages, and each heading given the id GitHub gives it.
pub fn to_html(markdown: &str) -> String {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES;
    let mut events: Vec<Event> = Parser::new_ext(markdown, options).collect();
    let mut ids = Ids::default();
    let mut k = 0;
    while k < events.len() {
        if let Event::Start(Tag::Link { dest_url, .. }) = &mut events[k] {
            if let Some(page) = page_link(dest_url) {
                *dest_url = CowStr::from(page);
            }
        } else if matches!(events[k], Event::Start(Tag::Heading { id: None, .. })) {
            let end = events[k..]
                .iter()
                .position(|e| matches!(e, Event::End(TagEnd::Heading(_))))
                .map_or(events.len(), |p| k + p);
            let text: String = events[k + 1..end]
                .iter()
                .filter_map(|e| match e {
                    Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                    _ => None,
                })
                .collect();
            let id = ids.next(&text);
            if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[k] {
                *slot = Some(CowStr::from(id));
            }
        }
        k += 1;
    }
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, events.into_iter());
    out
}

/// A relative link to a Markdown file, as a link to its page (`../trusted.md#x` is
/// `../trusted.html#x`); `None` for anything else (a web address, an anchor, an image).
fn page_link(url: &str) -> Option<String> {
    if url.contains("://") || url.starts_with('#') || url.starts_with('/') {
        return None;
    }
    let (path, fragment) = url.split_once('#').map_or((url, None), |(p, f)| (p, Some(f)));
    let stem = path.strip_suffix(".md")?;
    Some(match fragment {
        Some(fragment) => format!("{stem}.html#{fragment}"),
        None => format!("{stem}.html"),
    })
}

/// Heading ids as GitHub makes them: lower case, letters, digits, `-` and `_` kept, spaces as
/// `-`, the rest dropped; a repeated id gets `-1`, `-2`, ...
#[derive(Default)]
struct Ids {
    seen: std::collections::HashMap<String, usize>,
}

impl Ids {
    fn next(&mut self, text: &str) -> String {
        let slug: String = text
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let count = self.seen.entry(slug.clone()).or_insert(0);
        let id = if *count == 0 { slug.clone() } else { format!("{slug}-{count}") };
        *count += 1;
        id
    }
}

/// Text as HTML text.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// Every doc's folder on disk holds exactly the embedded list (a new doc must be added).
    #[test]
    fn every_doc_is_embedded() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
        let mut on_disk = HashSet::new();
        for dir in [root.clone(), root.join("commands"), root.join("families")] {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "md") {
                    on_disk.insert(path.strip_prefix(&root).unwrap().display().to_string());
                }
            }
        }
        let embedded: HashSet<String> = DOCS.iter().map(|(p, _)| p.to_string()).collect();
        assert_eq!(embedded, on_disk);
    }

    /// The `href` and `src` values of a page.
    fn targets(html: &str) -> Vec<String> {
        let mut found = Vec::new();
        for attribute in ["href=\"", "src=\""] {
            for piece in html.split(attribute).skip(1) {
                found.push(piece.split('"').next().unwrap().replace("&amp;", "&"));
            }
        }
        found
    }

    /// `target` seen from the page at `from` (both below the site's root), without `..`.
    fn resolve(from: &str, target: &str) -> String {
        let mut parts: Vec<&str> = from.split('/').collect();
        parts.pop();
        for piece in target.split('/') {
            match piece {
                ".." => {
                    parts.pop();
                }
                "." | "" => {}
                piece => parts.push(piece),
            }
        }
        parts.join("/")
    }

    /// `%XX` escapes decoded, as a browser does before it looks a fragment up.
    fn percent_decoded(text: &str) -> String {
        let mut bytes = Vec::new();
        let mut rest = text.as_bytes();
        while let Some((&byte, tail)) = rest.split_first() {
            match (byte, tail.get(..2).and_then(|h| std::str::from_utf8(h).ok())) {
                (b'%', Some(hex)) if u8::from_str_radix(hex, 16).is_ok() => {
                    bytes.push(u8::from_str_radix(hex, 16).unwrap());
                    rest = &tail[2..];
                }
                _ => {
                    bytes.push(byte);
                    rest = tail;
                }
            }
        }
        String::from_utf8(bytes).unwrap()
    }

    /// Every link of every static doc page answers: a doc page, an embedded image, the page's
    /// index or style; and an anchor names a heading of its page.
    #[test]
    fn every_link_resolves() {
        let ids_of = |markdown: &str| -> HashSet<String> {
            let html = to_html(markdown);
            html.split(" id=\"").skip(1).map(|p| p.split('"').next().unwrap().to_string()).collect()
        };
        let mut checked = 0;
        for (path, markdown) in DOCS {
            let at = format!("docs/{}", html_path(path));
            for target in targets(&page(path, markdown, Site::Static)) {
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, fragment) =
                    target.split_once('#').map_or((target.as_str(), None), |(f, x)| (f, Some(x)));
                let resolved = if file.is_empty() { at.clone() } else { resolve(&at, file) };
                let known = match resolved.strip_prefix("docs/") {
                    Some(below) => by_page(below).is_some() || image(below).is_some(),
                    None => resolved == "index.html" || resolved == "page.css",
                };
                assert!(known, "{path}: the link {target} goes to {resolved}, which is not there");
                if let (Some(fragment), Some((_, text))) =
                    (fragment, resolved.strip_prefix("docs/").and_then(by_page))
                {
                    assert!(
                        ids_of(text).contains(&percent_decoded(fragment)),
                        "{path}: the link {target} names no heading of {resolved}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} links seen");
    }

    #[test]
    fn links_to_markdown_become_pages_and_headings_get_ids() {
        let html = to_html(
            "# A b, c\n\n## A b, c\n\nSee [t](../trusted.md#x-y) and [w](https://x.org/a.md).\n",
        );
        assert!(html.contains("<h1 id=\"a-b-c\">"), "{html}");
        assert!(html.contains("<h2 id=\"a-b-c-1\">"), "{html}");
        assert!(html.contains("href=\"../trusted.html#x-y\""), "{html}");
        assert!(html.contains("href=\"https://x.org/a.md\""), "{html}");
        assert_eq!(Ids::default().next("Misère fans: `t` = 1..10"), "misère-fans-t--110");
    }
}

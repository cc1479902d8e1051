//! Overviews of cases too large to draw whole (issue 48, item 4): a picture where the full
//! drawing would be an error message. A point set of more than [`crate::base::svg::MAX_POINTS`]
//! points is drawn as its points, without their numbers, and its convex hull; a marking game
//! that a theorem reduces to heaps (Theorems 1 and 2 of seed 000, points in convex position) as
//! its heaps, counted by size. Each picture says, in words drawn beside it (class `left-out`,
//! shown on `gamecert serve`'s cards, where the caption is not), what it leaves out.
//!
//! The pictures are about a card's shape (480 by 300 units beside the caption line) so that
//! their words read on a card 380 pixels wide. Drawing only: nothing here decides anything.

use crate::base::hull::hull_exact;
use crate::base::limits::grouped_count as counted;
use crate::base::svg::{escape, wrap_chars};
use std::fmt::Write as _;

/// The picture's size in units, beside its caption line.
const WIDTH: f64 = 480.0;
const BODY: f64 = 300.0;
const CAPTION_FONT: f64 = 14.0;
/// The words' font and line height.
const FONT: f64 = 13.0;
const LINE: f64 = 16.0;
const MARGIN: f64 = 10.0;
/// The drawing of the points: a square this wide at the left.
const SQUARE: f64 = BODY - 2.0 * MARGIN;

/// The points an overview draws: coordinates, or an abstract convex polygon of `n` vertices
/// (drawn on a circle in its cyclic order).
#[derive(Clone, Copy, Debug)]
pub enum PointSet<'a> {
    Plane(&'a [[i64; 2]]),
    ConvexPolygon(usize),
}

/// What a points overview draws: each point's place in the square and the hull's corners (as
/// indices into the points, counter-clockwise), and whether the axes were scaled apart.
pub struct PointsDrawing {
    pub at: Vec<(f64, f64)>,
    pub hull: Vec<usize>,
    pub stretched: bool,
}

/// The places of `points` in a square [`SQUARE`] wide (y up, as on paper), and their hull. A
/// set much wider than high (or the reverse) has its axes scaled apart: a map that keeps every
/// orientation, so the hull and the order type are the drawing's too.
pub fn points_drawing(points: PointSet) -> PointsDrawing {
    match points {
        PointSet::ConvexPolygon(n) => {
            let r = SQUARE / 2.0;
            let at = (0..n)
                .map(|k| {
                    let angle = -std::f64::consts::FRAC_PI_2
                        + std::f64::consts::TAU * k as f64 / n.max(1) as f64;
                    (r + r * angle.cos(), r - r * angle.sin())
                })
                .collect();
            PointsDrawing { at, hull: (0..n).collect(), stretched: false }
        }
        PointSet::Plane(points) => {
            let (mut lo, mut hi) = ([i64::MAX; 2], [i64::MIN; 2]);
            for p in points {
                for k in 0..2 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
            let span = |k: usize| (hi[k] as f64 - lo[k] as f64).max(1.0);
            let (sx, sy) = (span(0), span(1));
            let stretched = sx / sy > 4.0 || sy / sx > 4.0;
            let (kx, ky) = if stretched {
                (SQUARE / sx, SQUARE / sy)
            } else {
                let k = SQUARE / sx.max(sy);
                (k, k)
            };
            let at = points
                .iter()
                .map(|p| {
                    let x = (p[0] as f64 - lo[0] as f64) * kx;
                    let y = (p[1] as f64 - lo[1] as f64) * ky;
                    (x, SQUARE - y)
                })
                .collect();
            PointsDrawing { at, hull: hull_exact(points), stretched }
        }
    }
}

/// The SVG document: the caption line (class `caption`: a card shows its own title), the body
/// drawn from the caption's foot, and `words` wrapped in a column from `words_x` on.
fn document(caption: &str, body: &str, words: &[String], words_x: f64) -> String {
    let top = CAPTION_FONT * 1.6;
    let height = top + BODY;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text class=\"caption\" x=\"{MARGIN}\" y=\"{:.0}\" font-size=\"{CAPTION_FONT}\" \
         font-weight=\"bold\">{}</text>\n",
        CAPTION_FONT * 1.2,
        escape(caption)
    );
    let _ = writeln!(out, "<g transform=\"translate(0 {top:.0})\">\n{body}</g>");
    let chars = ((WIDTH - words_x - MARGIN) / (FONT * 0.56)) as usize;
    let lines: Vec<String> = words.iter().flat_map(|w| wrap_chars(w, chars.max(12))).collect();
    let mut y = top + MARGIN + FONT;
    for line in &lines {
        let _ = writeln!(
            out,
            "<text class=\"left-out\" x=\"{words_x:.0}\" y=\"{y:.0}\" font-size=\"{FONT}\" \
             fill=\"#333333\">{}</text>",
            escape(line)
        );
        y += LINE;
    }
    out.push_str("</svg>\n");
    out
}

/// A point set too large to draw whole: every point a dot without its number, the convex hull
/// outlined, and beside them what the picture shows and `left_out` (a sentence: "the
/// triangulation's edges are left out").
pub fn points_overview(points: PointSet, caption: &str, left_out: &str) -> String {
    let drawing = points_drawing(points);
    let n = drawing.at.len();
    let mut body = String::new();
    let place = |(x, y): (f64, f64)| format!("{:.1} {:.1}", x + MARGIN, y + MARGIN);
    if drawing.hull.len() >= 3 {
        let mut corners: Vec<String> = drawing.hull.iter().map(|&k| place(drawing.at[k])).collect();
        // Corners closer than the drawing's precision are one corner.
        corners.dedup();
        let _ = writeln!(
            body,
            "<path class=\"hull\" d=\"M{}Z\" fill=\"#eef3fd\" stroke=\"#2c7bb6\" stroke-width=\"1.2\" \
             stroke-linejoin=\"round\"/>",
            corners.join("L")
        );
    }
    // Every point a dot: one path of zero-length strokes with round ends.
    let dot = if n > 2000 { 1.6 } else { 2.6 };
    let mut dots = String::with_capacity(n * 14);
    let mut drawn = std::collections::HashSet::new();
    for &p in &drawing.at {
        // Points closer than the drawing's precision are one dot.
        let at = place(p);
        if drawn.insert(at.clone()) {
            let _ = write!(dots, "M{at}h0");
        }
    }
    let _ = writeln!(
        body,
        "<path class=\"points\" d=\"{dots}\" stroke=\"#222222\" stroke-width=\"{dot}\" \
         stroke-linecap=\"round\" fill=\"none\"/>"
    );
    let corners = drawing.hull.len();
    let mut shown = format!(
        "{} drawn without their numbers, with their convex hull ({}).",
        counted(n, "point"),
        if corners == n && n >= 3 {
            "every point a corner".to_string()
        } else {
            counted(corners, "corner")
        }
    );
    if drawing.stretched {
        shown.push_str(" The axes are scaled apart (the order type is kept).");
    }
    let mut left_out = crate::base::svg::sentence(left_out.trim_end_matches('.'));
    left_out.push('.');
    let words = [shown, left_out];
    document(caption, &body, &words, SQUARE + 2.0 * MARGIN + 6.0)
}

/// Most rows (heap sizes) a heaps overview draws, and most tokens in a row.
const MOST_ROWS: usize = 12;
const MOST_TOKENS: u64 = 12;

/// Heaps too many to draw one by one, counted by size: a row per size, its tokens and how many
/// heaps have it; `words` (what the heaps stand for, and what is left out) beside them.
pub fn heaps_overview(heaps: &[u64], caption: &str, words: &[String]) -> String {
    let mut sizes: Vec<(u64, usize)> = Vec::new();
    let mut sorted = heaps.to_vec();
    sorted.sort_unstable();
    for h in sorted {
        match sizes.last_mut() {
            Some((s, count)) if *s == h => *count += 1,
            _ => sizes.push((h, 1)),
        }
    }
    let row = ((BODY - 2.0 * MARGIN) / (sizes.len().min(MOST_ROWS) + 1) as f64).min(24.0);
    let r = (row * 0.3).min(5.0);
    let pitch = 2.0 * r + 2.5;
    let mut body = String::new();
    let mut y = MARGIN + row / 2.0;
    let (shown, rest) = sizes.split_at(sizes.len().min(MOST_ROWS));
    for &(size, count) in shown {
        let drawn = size.min(MOST_TOKENS);
        let mut x = MARGIN + r;
        for _ in 0..drawn {
            let _ = write!(
                body,
                "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{r:.1}\" fill=\"#8c6d46\" stroke=\"#4a3a25\" stroke-width=\"0.8\"/>"
            );
            x += pitch;
        }
        let count = crate::base::limits::grouped(count as u128);
        let text =
            if size > drawn { format!("… ({size}) × {count}") } else { format!("× {count}") };
        let _ = writeln!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{FONT}\" fill=\"#222222\">{text}</text>",
            x,
            y + FONT * 0.35
        );
        y += row;
    }
    if !rest.is_empty() {
        let heaps: usize = rest.iter().map(|s| s.1).sum();
        let _ = writeln!(
            body,
            "<text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"{FONT}\" fill=\"#555555\">{} more, of {} to {}</text>",
            y + FONT * 0.35,
            counted(heaps, "heap"),
            rest[0].0,
            rest[rest.len() - 1].0
        );
    }
    let widest = shown.iter().map(|s| s.0.min(MOST_TOKENS)).max().unwrap_or(0) as f64;
    let words_x = (MARGIN + widest * pitch + 80.0).max(WIDTH * 0.45);
    document(caption, &body, words, words_x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_point_set_is_drawn_as_dots_and_its_hull() {
        // A convex 10,000-gon: every point a corner, no number written.
        let svg = points_overview(PointSet::ConvexPolygon(10_000), "c", "the edges are left out");
        assert!(svg.starts_with("<svg") && svg.contains("class=\"hull\""));
        let dots = svg.matches("h0").count();
        assert!((5_000..=10_000).contains(&dots), "{dots} dots");
        let words: Vec<&str> = svg
            .split("<text class=\"left-out\"")
            .skip(1)
            .map(|l| l.split_once('>').unwrap().1.split_once("</text>").unwrap().0)
            .collect();
        let words = words.join(" ");
        assert!(words.starts_with("10,000 points drawn without their numbers"), "{words}");
        assert!(words.ends_with("The edges are left out."), "{words}");
        assert!(svg.len() < 1 << 19, "{}", svg.len());
        // Points on a parabola (in convex position), far taller than wide: the axes are scaled
        // apart and the hull's corners are every point.
        let parabola: Vec<[i64; 2]> = (0..3000).map(|i| [i, i * i]).collect();
        let drawing = points_drawing(PointSet::Plane(&parabola));
        assert!(drawing.stretched);
        assert_eq!(drawing.hull.len(), 3000);
        // A square's corners and points inside it: the hull is the four corners, and the
        // drawing keeps the points in their square.
        let mut square: Vec<[i64; 2]> = vec![[0, 0], [100, 0], [100, 100], [0, 100]];
        square.extend((1..50).map(|i| [i * 2, 50 + (i % 7)]));
        let drawing = points_drawing(PointSet::Plane(&square));
        assert_eq!(drawing.hull, vec![0, 1, 2, 3]);
        assert!(!drawing.stretched);
        assert!(drawing
            .at
            .iter()
            .all(|&(x, y)| (0.0..=SQUARE).contains(&x) && (0.0..=SQUARE).contains(&y)));
    }

    #[test]
    fn heaps_are_counted_by_size() {
        let heaps = [3, 1, 3, 12, 3, 40, 1];
        let svg = heaps_overview(&heaps, "c", &["Kayles on 7 heaps.".into()]);
        // Sizes 1, 3, 12, 40: 1 + 3 + 12 + 12 tokens drawn, the 40 cut with its size.
        assert_eq!(svg.matches("<circle").count(), 28);
        assert!(svg.contains(">… (40) × 1</text>") && svg.contains(">× 3</text>"), "{svg}");
        assert!(svg.contains("class=\"left-out\""));
    }
}

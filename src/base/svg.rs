//! SVG pictures of point sets and triangulations (seed 000's games): points, edges in the
//! games' colours with optional labels (move numbers), and a play written as numbered frames.
//!
//! Drawing only: coordinates are converted to floating point to place them on the page, and
//! nothing here decides anything about a game. The picture keeps the point set's true aspect
//! ratio (one scale for both axes, the longer side at least [`WIDTH`] units and the closest two
//! points [`CLOSEST`] apart, up to [`MAX_SIDE`]), with the y axis pointing up as in the paper's
//! figures; point labels sit beside their points on a white halo, and edge labels (move
//! numbers) are slid along their edges to the first place that covers no point, no point
//! label and no other edge label.

use gamecert_certificates::base::geometry::Point;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// An edge's colour in a picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// Not yet played (the paper's black edges), drawn thin.
    Black,
    Green,
    Red,
    Blue,
    /// Context only (e.g. hull edges in a constructing game), drawn dashed.
    Grey,
}

impl Colour {
    fn css(self) -> &'static str {
        match self {
            Colour::Black => "#222222",
            Colour::Green => "#1a9641",
            Colour::Red => "#d7191c",
            Colour::Blue => "#2c7bb6",
            Colour::Grey => "#999999",
        }
    }
}

/// One edge of a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stroke {
    pub edge: [usize; 2],
    pub colour: Colour,
    /// Text drawn at the edge's midpoint, e.g. the move that coloured it.
    pub label: Option<String>,
}

impl Stroke {
    pub fn new(edge: [usize; 2], colour: Colour) -> Stroke {
        Stroke { edge, colour, label: None }
    }
}

/// A picture: points (labelled by index), strokes, and a title line.
pub struct Picture<'a> {
    pub points: &'a [Point],
    pub strokes: Vec<Stroke>,
    pub title: String,
}

/// The longer side of the drawing area in SVG units.
const WIDTH: f64 = 600.0;
/// The shorter side's least length, so that a flat point set still has room for its labels.
const MIN_SIDE: f64 = 120.0;
const MARGIN: f64 = 30.0;
/// Pixels wanted between the two closest points, and the longest side allowed for it.
const CLOSEST: f64 = 26.0;
const MAX_SIDE: f64 = 2400.0;

/// A label's box on the page: (left, top, right, bottom).
type LabelBox = (f64, f64, f64, f64);

fn overlap(a: LabelBox, b: LabelBox) -> f64 {
    let w = (a.2.min(b.2) - a.0.max(b.0)).max(0.0);
    let h = (a.3.min(b.3) - a.1.max(b.1)).max(0.0);
    w * h
}

/// The box of 11-unit text of `chars` characters centred at `x` with baseline `y`.
fn text_box(x: f64, y: f64, chars: usize) -> LabelBox {
    let half = chars as f64 * 3.4 + 2.0;
    (x - half, y - 11.0, x + half, y + 2.0)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl Picture<'_> {
    /// The picture as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let xs = self.points.iter().map(|p| p[0] as f64);
        let ys = self.points.iter().map(|p| p[1] as f64);
        let (min_x, max_x) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let (min_y, max_y) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        let span_x = (max_x - min_x).max(1.0);
        let span_y = (max_y - min_y).max(1.0);
        // One scale for both axes: the picture is the point set's true shape. The closest two
        // points get room for a point and a label between them (up to [`MAX_SIDE`]).
        let mut closest = f64::MAX;
        for (i, p) in self.points.iter().enumerate() {
            for q in &self.points[i + 1..] {
                let d = (p[0] as f64 - q[0] as f64).hypot(p[1] as f64 - q[1] as f64);
                if d > 0.0 {
                    closest = closest.min(d);
                }
            }
        }
        let fit = WIDTH / span_x.max(span_y);
        let roomy = if closest < f64::MAX { CLOSEST / closest } else { fit };
        let scale = roomy.max(fit).min(MAX_SIDE / span_x.max(span_y));
        let (draw_w, draw_h) = ((span_x * scale).max(MIN_SIDE), (span_y * scale).max(MIN_SIDE));
        let (off_x, off_y) = ((draw_w - span_x * scale) / 2.0, (draw_h - span_y * scale) / 2.0);
        let (w, h) = ((draw_w + 2.0 * MARGIN).max(320.0), draw_h + 2.0 * MARGIN + 20.0);
        let at = |i: usize| -> (f64, f64) {
            let p = self.points[i];
            (
                MARGIN + off_x + (p[0] as f64 - min_x) * scale,
                20.0 + MARGIN + off_y + (max_y - p[1] as f64) * scale,
            )
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" font-family="sans-serif">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="18" font-size="14">{}</text>"#,
            escape(&self.title)
        );
        // Black (unplayed) edges first, so coloured ones are drawn on top.
        let mut order: Vec<&Stroke> = self.strokes.iter().collect();
        order.sort_by_key(|s| s.colour != Colour::Black && s.colour != Colour::Grey);
        for s in &order {
            let ((x1, y1), (x2, y2)) = (at(s.edge[0]), at(s.edge[1]));
            let (width, dash) = match s.colour {
                Colour::Black => (1.0, ""),
                Colour::Grey => (1.0, r#" stroke-dasharray="4 3""#),
                _ => (3.0, ""),
            };
            let _ = writeln!(
                out,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{width}"{dash}/>"#,
                s.colour.css()
            );
        }
        // Edge labels go where they cover no point, no point's number and no other label:
        // the first free place along the edge from its middle outwards, else the least
        // covered one.
        let mut taken: Vec<LabelBox> = (0..self.points.len())
            .flat_map(|i| {
                let (x, y) = at(i);
                let digits = i.to_string().len() as f64;
                [
                    (x - 5.0, y - 5.0, x + 5.0, y + 5.0),
                    (x + 5.0, y - 16.0, x + 8.0 + 6.0 * digits, y - 4.0),
                ]
            })
            .collect();
        for s in &order {
            if let Some(label) = &s.label {
                let ((x1, y1), (x2, y2)) = (at(s.edge[0]), at(s.edge[1]));
                let chars = label.chars().count();
                let place = |t: f64| (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t + 4.0);
                let cost = |t: f64| {
                    let (x, y) = place(t);
                    taken.iter().map(|&b| overlap(text_box(x, y, chars), b)).sum::<f64>()
                };
                let fractions = [0.5, 0.38, 0.62, 0.28, 0.72, 0.18, 0.82];
                let t = fractions.iter().copied().find(|&t| cost(t) == 0.0).unwrap_or_else(|| {
                    fractions
                        .iter()
                        .copied()
                        .min_by(|&a, &b| cost(a).total_cmp(&cost(b)))
                        .unwrap_or(0.5)
                });
                let (x, y) = place(t);
                taken.push(text_box(x, y, chars));
                let _ = writeln!(
                    out,
                    r#"<text x="{x:.1}" y="{y:.1}" font-size="11" text-anchor="middle" fill="{}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
                    s.colour.css(),
                    escape(label)
                );
            }
        }
        for i in 0..self.points.len() {
            let (x, y) = at(i);
            let _ = writeln!(
                out,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="4" fill="black"/><text x="{:.1}" y="{:.1}" font-size="10" fill="#555555" stroke="white" stroke-width="3" paint-order="stroke">{i}</text>"##,
                x + 6.0,
                y - 6.0
            );
        }
        out.push_str("</svg>\n");
        out
    }
}

/// Writes `frames` to `dir` as `{stem}-000.svg`, `{stem}-001.svg`, ... (creating `dir`), and
/// returns the paths written.
pub fn write_frames(dir: &Path, stem: &str, frames: &[String]) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let digits = frames.len().saturating_sub(1).to_string().len().max(3);
    let mut paths = Vec::with_capacity(frames.len());
    for (i, frame) in frames.iter().enumerate() {
        let path = dir.join(format!("{stem}-{i:0digits$}.svg"));
        std::fs::write(&path, frame)?;
        paths.push(path);
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_draws_every_point_and_edge_with_labels_escaped() {
        let points = [[0, 0], [4, 0], [0, 3]];
        let mut green = Stroke::new([0, 1], Colour::Green);
        green.label = Some("1 <R>".into());
        let picture = Picture {
            points: &points,
            strokes: vec![
                green,
                Stroke::new([1, 2], Colour::Black),
                Stroke::new([0, 2], Colour::Red),
            ],
            title: "a & b".into(),
        };
        let svg = picture.to_svg();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(svg.matches("<line").count(), 3);
        assert!(svg.contains("1 &lt;R&gt;") && svg.contains("a &amp; b"));
        assert!(svg.contains(Colour::Green.css()) && svg.contains(Colour::Red.css()));
        // The black edge is drawn before the coloured ones.
        let black = svg.find(Colour::Black.css()).unwrap();
        assert!(black < svg.find(Colour::Green.css()).unwrap());
    }

    #[test]
    fn frames_are_numbered_in_order() {
        let dir = std::env::temp_dir().join(format!("gamecert-svg-{}", std::process::id()));
        let frames: Vec<String> = (0..12).map(|i| format!("<svg>{i}</svg>")).collect();
        let paths = write_frames(&dir, "play", &frames).unwrap();
        assert_eq!(paths.len(), 12);
        assert!(paths[0].ends_with("play-000.svg") && paths[11].ends_with("play-011.svg"));
        assert_eq!(std::fs::read_to_string(&paths[11]).unwrap(), "<svg>11</svg>");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Two labels whose edges cross at their middles are slid apart, not stacked.
    #[test]
    fn labels_of_crossing_edges_do_not_cover_each_other() {
        let points = [[0, 0], [40, 40], [0, 40], [40, 0]];
        let mut one = Stroke::new([0, 1], Colour::Red);
        one.label = Some("1R".into());
        let mut two = Stroke::new([2, 3], Colour::Blue);
        two.label = Some("2B".into());
        let svg =
            Picture { points: &points, strokes: vec![one, two], title: String::new() }.to_svg();
        let at = |label: &str| -> (f64, f64) {
            let line = svg.lines().find(|l| l.ends_with(&format!(">{label}</text>"))).unwrap();
            let number = |key: &str| -> f64 {
                let from = line.find(key).unwrap() + key.len();
                line[from..].split('"').next().unwrap().parse().unwrap()
            };
            (number(" x=\""), number(" y=\""))
        };
        let (a, b) = (at("1R"), at("2B"));
        assert!(overlap(text_box(a.0, a.1, 2), text_box(b.0, b.1, 2)) == 0.0, "{a:?} {b:?}");
    }
}

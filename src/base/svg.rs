//! SVG pictures of point sets and triangulations (seed 000's games): points, edges in the
//! games' colours with optional labels (move numbers), and a play written as numbered frames.
//!
//! Drawing only: nothing here decides anything about a game. The points are placed by
//! [`crate::base::point_layout`] (the true coordinates when readable, else a drawing with the
//! same order type, which the caption then says) on a square page whose size grows with the
//! number of points ([`radius_px`]). Labels never cover a point or each other and are never
//! struck through by an edge: every label (point numbers, then edge labels in stroke order,
//! each beside its edge) takes the first place among its candidates whose box meets no point,
//! no label placed before it and no edge the frame draws; a series of frames is
//! drawn larger (up to [`SCALES`] steps) until every label of every frame finds a place, and a
//! label with no place even then is listed under the picture instead of drawn over another.

use crate::base::point_layout::{self, Layout, Readability};
use gamecert_certificates::triangulations::geometry::Point;
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
    /// Text drawn on the edge, e.g. the move that coloured it.
    pub label: Option<String>,
}

impl Stroke {
    pub fn new(edge: [usize; 2], colour: Colour) -> Stroke {
        Stroke { edge, colour, label: None }
    }
}

/// One picture of a series: its edges and its title line.
#[derive(Clone, Debug)]
pub struct Frame {
    pub strokes: Vec<Stroke>,
    pub title: String,
}

/// Most points drawn: the relaxation and the checks are cubic, and more points than this are
/// no picture anyone reads.
pub const MAX_POINTS: usize = 2_000;

/// Pixels: each point's dot, the clear square around it no label may enter, the room around
/// the drawing for point numbers, the least page width.
pub const DOT: f64 = 4.0;
const DOT_CLEARANCE: f64 = 6.0;
const PAD: f64 = 40.0;
const MIN_WIDTH: f64 = 380.0;
/// Font sizes and line heights: title, notes, labels, point numbers.
const TITLE_FONT: f64 = 14.0;
const NOTE_FONT: f64 = 11.0;
const LABEL_FONT: f64 = 11.0;
const NUMBER_FONT: f64 = 10.0;
/// What a readable drawing asks, in pixels at the first scale: each point this far from the
/// line through any two others, and any two points this far apart.
const MIN_HEIGHT_PX: f64 = 12.0;
const MIN_SPACING_PX: f64 = 30.0;
/// The series is redrawn this many times, each 1.3 times larger, while a label finds no place.
pub const SCALES: usize = 4;
const SCALE_STEP: f64 = 1.3;

/// The radius of the drawing in pixels for `n` points at the first scale: room for labels on
/// about 3n edges (area), n points around a circle at least 36 pixels apart (perimeter), at
/// least 150, at most 1,600.
pub fn radius_px(n: usize) -> f64 {
    let n = n as f64;
    150f64.max(5.8 * n).max(56.0 * n.sqrt()).min(1600.0)
}

/// A label's box on the page: (left, top, right, bottom).
pub type LabelBox = (f64, f64, f64, f64);

/// Whether two boxes share any area.
pub fn boxes_meet(a: LabelBox, b: LabelBox) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The box of `text` in a `font`-pixel sans-serif face centred at `x` with baseline `y`,
/// halo included. Widths are DejaVu Sans's (digits 0.64 em, capitals up to 0.77 em; 0.7 em
/// is taken for every character, a little generous).
fn text_box(x: f64, y: f64, text: &str, font: f64) -> LabelBox {
    let half = text.chars().count() as f64 * font * 0.35 + 2.0;
    (x - half, y - font * 0.8 - 1.5, x + half, y + font * 0.2 + 1.5)
}

/// `text` safe inside an SVG element or a double-quoted attribute.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A position's text drawing as a picture (monospace lines under `caption`, and the `marked`
/// move's notation under them): what a game without a picture of its own shows.
pub fn text_picture(drawing: &str, marked: Option<&str>, caption: &str) -> String {
    const FONT: f64 = 14.0;
    let mut lines: Vec<String> = drawing.lines().map(str::to_string).collect();
    if let Some(marked) = marked {
        lines.push(format!("marked move: {marked}"));
    }
    let widest = lines.iter().chain([&caption.to_string()]).map(|l| l.chars().count()).max();
    let width = (widest.unwrap_or(0) as f64 * FONT * 0.62 + 24.0).max(200.0);
    let height = (lines.len() + 2) as f64 * FONT * 1.4 + 12.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text class=\"caption\" x=\"12\" y=\"{:.0}\" font-family=\"sans-serif\" font-size=\"{FONT}\" \
         font-weight=\"bold\">{}</text>\n",
        FONT * 1.4,
        escape(caption)
    );
    for (k, line) in lines.iter().enumerate() {
        svg.push_str(&format!(
            "<text x=\"12\" y=\"{:.0}\" font-family=\"monospace\" font-size=\"{FONT}\" \
             xml:space=\"preserve\">{}</text>\n",
            (k + 3) as f64 * FONT * 1.4,
            escape(line)
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

/// `text` with its first letter a capital, to open a sentence.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `text` cut into lines of at most `width` pixels at `font` pixels (0.58 em a character, a
/// little more than DejaVu Sans's average), at spaces.
pub(crate) fn wrap(text: &str, width: f64, font: f64) -> Vec<String> {
    wrap_chars(text, ((width / (font * 0.58)) as usize).max(20))
}

/// `text` in lines of at most `chars` characters, broken at spaces (a longer word stands alone
/// on its line).
pub fn wrap_chars(text: &str, chars: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > chars {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A label on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedLabel {
    pub text: String,
    /// Centre x and baseline y.
    pub at: [f64; 2],
    pub area: LabelBox,
    pub font: f64,
    pub fill: &'static str,
}

/// One frame laid out on the page, before it is written as SVG.
#[derive(Clone, Debug)]
pub struct Page {
    pub width: f64,
    pub height: f64,
    /// Each point's centre in pixels (y down).
    pub centres: Vec<[f64; 2]>,
    /// The caption: the title's lines, then the notes' lines.
    pub title: Vec<String>,
    pub notes: Vec<String>,
    /// Point numbers first, then edge labels in stroke order.
    pub labels: Vec<PlacedLabel>,
    /// Labels that found no place, listed under the drawing.
    pub unplaced: Vec<String>,
    pub strokes: Vec<Stroke>,
}

/// The points of a series of pictures, placed once, and the notes every picture carries.
pub struct Sheet {
    layout: Layout,
    notes: Vec<String>,
    /// Every edge any frame may draw, for the point numbers to keep clear of.
    context: Vec<[usize; 2]>,
}

impl Sheet {
    /// A sheet for `points` (in general position, as every validated instance is).
    pub fn of_points(points: &[Point]) -> Sheet {
        let radius = radius_px(points.len());
        let want = Readability {
            min_height: MIN_HEIGHT_PX / radius,
            min_distance: MIN_SPACING_PX / radius,
        };
        Sheet::of_layout(point_layout::layout(points, want))
    }

    /// A sheet for the vertices 0..n of an abstract convex polygon in counter-clockwise order.
    pub fn of_convex_polygon(n: usize) -> Sheet {
        Sheet::of_layout(point_layout::convex_polygon(n))
    }

    fn of_layout(layout: Layout) -> Sheet {
        Sheet { layout, notes: Vec::new(), context: Vec::new() }
    }

    /// Adds a note under every title (before the note on coordinates).
    pub fn with_note(mut self, note: impl Into<String>) -> Sheet {
        self.notes.push(note.into());
        self
    }

    /// The points' layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The frames laid out: at the first scale where every label of every frame has a place,
    /// else at the largest scale with the labels that have none listed.
    pub fn pages(&mut self, frames: &[Frame]) -> Vec<Page> {
        let mut context: Vec<[usize; 2]> =
            frames.iter().flat_map(|f| f.strokes.iter().map(|s| sorted(s.edge))).collect();
        context.sort_unstable();
        context.dedup();
        self.context = context;
        let base = radius_px(self.layout.at.len());
        let mut pages = Vec::new();
        for step in 0..SCALES {
            let radius = base * SCALE_STEP.powi(step as i32);
            pages = frames.iter().map(|f| self.page(f, radius)).collect();
            if pages.iter().all(|p: &Page| p.unplaced.is_empty()) {
                break;
            }
        }
        pages
    }

    /// The frames as standalone SVG documents.
    pub fn draw(&mut self, frames: &[Frame]) -> Vec<String> {
        self.pages(frames).iter().map(Page::to_svg).collect()
    }

    fn page(&self, frame: &Frame, radius: f64) -> Page {
        let width = (2.0 * (radius + PAD)).max(MIN_WIDTH);
        let text_width = width - 2.0 * 12.0;
        let title = wrap(&frame.title, text_width, TITLE_FONT);
        let coordinates = self.layout.drawn.caption();
        let notes: Vec<String> = self
            .notes
            .iter()
            .map(String::as_str)
            .chain(Some(coordinates).filter(|c| !c.is_empty()))
            .flat_map(|n| wrap(n, text_width, NOTE_FONT))
            .collect();
        let top = 8.0 + title.len() as f64 * 18.0 + notes.len() as f64 * 14.0;
        let (cx, cy) = (width / 2.0, top + PAD + radius);
        let centres: Vec<[f64; 2]> =
            self.layout.at.iter().map(|p| [cx + p[0] * radius, cy - p[1] * radius]).collect();
        let field = (0.0, top, width, top + 2.0 * (radius + PAD));
        let mut taken: Vec<LabelBox> = centres
            .iter()
            .map(|c| {
                let r = DOT_CLEARANCE;
                (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
            })
            .collect();
        let mut labels = Vec::new();
        let mut unplaced = Vec::new();
        let free = |b: LabelBox, taken: &[LabelBox]| {
            b.0 >= field.0
                && b.1 >= field.1
                && b.2 <= field.2
                && b.3 <= field.3
                && !taken.iter().any(|&t| boxes_meet(b, t))
        };
        // The segments this frame draws: no label may meet one (the box grown by half the
        // widest stroke).
        let drawn: Vec<([f64; 2], [f64; 2])> =
            frame.strokes.iter().map(|s| (centres[s.edge[0]], centres[s.edge[1]])).collect();
        let struck = |b: LabelBox| {
            let grown = (b.0 - 1.5, b.1 - 1.5, b.2 + 1.5, b.3 + 1.5);
            drawn.iter().any(|&(p, q)| meets_segment(grown, p, q))
        };
        for (i, &c) in centres.iter().enumerate() {
            let text = i.to_string();
            let found = self.number_places(i, &centres, [cx, cy], &text);
            // Best a place that no edge crosses either; else any free place.
            let clear = |at: &[f64; 2]| {
                let area = text_box(at[0], at[1], &text, NUMBER_FONT);
                !self.context.iter().any(|e| meets_segment(area, centres[e[0]], centres[e[1]]))
            };
            let free_here =
                |at: &[f64; 2]| free(text_box(at[0], at[1], &text, NUMBER_FONT), &taken);
            // Never struck through by an edge of this frame: else the number is listed.
            let unstruck = |at: &[f64; 2]| !struck(text_box(at[0], at[1], &text, NUMBER_FONT));
            let found = found
                .iter()
                .copied()
                .find(|at| free_here(at) && clear(at))
                .or_else(|| found.iter().copied().find(|at| free_here(at) && unstruck(at)));
            match found {
                Some(at) => {
                    let area = text_box(at[0], at[1], &text, NUMBER_FONT);
                    taken.push(area);
                    labels.push(PlacedLabel { text, at, area, font: NUMBER_FONT, fill: "#444444" });
                }
                None => unplaced.push(format!("point {i} at ({:.0}, {:.0})", c[0], c[1])),
            }
        }
        for s in &frame.strokes {
            let Some(text) = &s.label else { continue };
            let (a, b) = (centres[s.edge[0]], centres[s.edge[1]]);
            let found = edge_places(a, b).into_iter().find(|&at| {
                let area = text_box(at[0], at[1], text, LABEL_FONT);
                free(area, &taken) && !struck(area)
            });
            match found {
                Some(at) => {
                    let area = text_box(at[0], at[1], text, LABEL_FONT);
                    taken.push(area);
                    let fill = s.colour.css();
                    labels.push(PlacedLabel {
                        text: text.clone(),
                        at,
                        area,
                        font: LABEL_FONT,
                        fill,
                    });
                }
                None => unplaced.push(format!("{text} on {}-{}", s.edge[0], s.edge[1])),
            }
        }
        let legend = if unplaced.is_empty() {
            0.0
        } else {
            let text = format!("labels with no room: {}", unplaced.join(", "));
            wrap(&text, text_width, NOTE_FONT).len() as f64 * 14.0 + 8.0
        };
        Page {
            width,
            height: field.3 + legend,
            centres,
            title,
            notes,
            labels,
            unplaced,
            strokes: frame.strokes.clone(),
        }
    }

    /// Places for point `i`'s number (centre x, baseline y), best first: around the point,
    /// nearest first, starting in the middle of the widest angle between the edges at it
    /// (outwards from the drawing's centre when it has none).
    fn number_places(
        &self,
        i: usize,
        centres: &[[f64; 2]],
        middle: [f64; 2],
        text: &str,
    ) -> Vec<[f64; 2]> {
        let c = centres[i];
        let mut angles: Vec<f64> = self
            .context
            .iter()
            .filter_map(|e| match *e {
                [a, b] if a == i => Some(b),
                [a, b] if b == i => Some(a),
                _ => None,
            })
            .map(|j| (centres[j][1] - c[1]).atan2(centres[j][0] - c[0]))
            .collect();
        angles.sort_by(f64::total_cmp);
        let tau = std::f64::consts::TAU;
        let preferred = match angles.len() {
            0 => (c[1] - middle[1]).atan2(c[0] - middle[0]),
            1 => angles[0] + tau / 2.0,
            k => {
                let gap = |j: usize| {
                    let next = if j + 1 < k { angles[j + 1] } else { angles[0] + tau };
                    (next - angles[j], (angles[j] + next) / 2.0)
                };
                (0..k).map(gap).max_by(|x, y| x.0.total_cmp(&y.0)).map_or(0.0, |g| g.1)
            }
        };
        let (left, top, right, bottom) = text_box(0.0, 0.0, text, NUMBER_FONT);
        let (half_w, half_h) = ((right - left) / 2.0, (bottom - top) / 2.0);
        let baseline = -(top + bottom) / 2.0;
        let mut places = Vec::new();
        for gap in [1.0, 5.0, 10.0, 16.0, 24.0] {
            for k in [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8] {
                let angle = preferred + f64::from(k) * tau / 16.0;
                // The box's centre on a rectangle around the dot's clear square.
                let (dx, dy) = (angle.cos(), angle.sin());
                let reach_x = DOT_CLEARANCE + half_w + gap;
                let reach_y = DOT_CLEARANCE + half_h + gap;
                let t = (reach_x / dx.abs().max(1e-9)).min(reach_y / dy.abs().max(1e-9));
                places.push([c[0] + dx * t, c[1] + dy * t + baseline]);
            }
        }
        places
    }
}

/// Whether the segment ab meets the box.
fn meets_segment(area: LabelBox, a: [f64; 2], b: [f64; 2]) -> bool {
    segment_meets_box((a[0], a[1]), (b[0], b[1]), area)
}

/// Whether the segment `p`-`q` meets the box `b` (Liang-Barsky clipping).
pub fn segment_meets_box(p: (f64, f64), q: (f64, f64), b: LabelBox) -> bool {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
    for (edge_p, edge_q) in [(-dx, p.0 - b.0), (dx, b.2 - p.0), (-dy, p.1 - b.1), (dy, b.3 - p.1)] {
        if edge_p == 0.0 {
            if edge_q < 0.0 {
                return false;
            }
        } else {
            let t = edge_q / edge_p;
            if edge_p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Places for an edge label (centre x, baseline y), best first: beside the edge, never on it
/// (a label on its edge is struck through by it), from its middle outwards, nearest first on
/// either side.
fn edge_places(a: [f64; 2], b: [f64; 2]) -> Vec<[f64; 2]> {
    let along = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82, 0.12, 0.88, 0.06, 0.94];
    let length = (b[0] - a[0]).hypot(b[1] - a[1]).max(1e-9);
    let normal = [-(b[1] - a[1]) / length, (b[0] - a[0]) / length];
    let mut places = Vec::new();
    for side in [11.0, -11.0, 16.0, -16.0, 22.0, -22.0, 29.0, -29.0, 36.0, -36.0] {
        for t in along {
            let x = a[0] + (b[0] - a[0]) * t + normal[0] * side;
            // The baseline sits 4 pixels below the point, so the text is centred on it.
            let y = a[1] + (b[1] - a[1]) * t + normal[1] * side + 4.0;
            places.push([x, y]);
        }
    }
    places
}

fn sorted(e: [usize; 2]) -> [usize; 2] {
    [e[0].min(e[1]), e[0].max(e[1])]
}

/// What a playable picture adds to a page ([`Page::to_svg_with`]): the marked move's segment,
/// highlighted under the drawing, and the segments a click plays, each a wide transparent line
/// over everything with `class="move"` and `data-move` (drawn faintly, dotted, under the
/// drawing with `hints`, for moves that draw a new segment).
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    pub marked: Option<[usize; 2]>,
    pub moves: Vec<([usize; 2], String)>,
    pub hints: bool,
}

/// The marked move's highlight and the width of a click's target, in pixels.
const MARKED_COLOUR: &str = "#ffa000";
const HIT_WIDTH: f64 = 14.0;

impl Page {
    /// The page as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        self.to_svg_with(&Overlay::default())
    }

    /// The page with `overlay`'s marked segment and clickable segments.
    pub fn to_svg_with(&self, overlay: &Overlay) -> String {
        let (w, h) = (self.width, self.height);
        let at = |e: [usize; 2]| (self.centres.get(e[0]), self.centres.get(e[1]));
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" font-family="sans-serif">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let mut y = 8.0;
        for line in &self.title {
            y += 18.0;
            let _ = writeln!(
                out,
                r#"<text class="caption" x="12" y="{y:.0}" font-size="{TITLE_FONT}">{}</text>"#,
                escape(line)
            );
        }
        for line in &self.notes {
            y += 14.0;
            let _ = writeln!(
                out,
                r##"<text class="caption" x="12" y="{y:.0}" font-size="{NOTE_FONT}" fill="#555555">{}</text>"##,
                escape(line)
            );
        }
        if overlay.hints {
            for (e, _) in &overlay.moves {
                if let (Some([x1, y1]), Some([x2, y2])) = at(*e) {
                    let _ = writeln!(
                        out,
                        r##"<line class="hint" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#c8c8c8" stroke-width="1" stroke-dasharray="1 4"/>"##
                    );
                }
            }
        }
        if let Some((Some([x1, y1]), Some([x2, y2]))) = overlay.marked.map(at) {
            let _ = writeln!(
                out,
                r#"<line class="marked" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{MARKED_COLOUR}" stroke-opacity="0.6" stroke-width="10" stroke-linecap="round"/>"#
            );
        }
        // Black (unplayed) and grey edges first, so coloured ones are drawn on top.
        let mut order: Vec<&Stroke> = self.strokes.iter().collect();
        order.sort_by_key(|s| s.colour != Colour::Black && s.colour != Colour::Grey);
        for s in &order {
            let ([x1, y1], [x2, y2]) = (self.centres[s.edge[0]], self.centres[s.edge[1]]);
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
        for [x, y] in &self.centres {
            let _ = writeln!(out, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{DOT}" fill="black"/>"#);
        }
        for label in &self.labels {
            let [x, y] = label.at;
            let _ = writeln!(
                out,
                r#"<text x="{x:.1}" y="{y:.1}" font-size="{}" text-anchor="middle" fill="{}" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"#,
                label.font,
                label.fill,
                escape(&label.text)
            );
        }
        for (e, notation) in &overlay.moves {
            if let (Some([x1, y1]), Some([x2, y2])) = at(*e) {
                let n = escape(notation);
                let _ = writeln!(
                    out,
                    r##"<line class="move" data-move="{n}" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#000000" stroke-opacity="0" stroke-width="{HIT_WIDTH}" stroke-linecap="round" pointer-events="stroke" cursor="pointer"><title>{n}</title></line>"##
                );
            }
        }
        if !self.unplaced.is_empty() {
            let text = format!("labels with no room: {}", self.unplaced.join(", "));
            let mut y = h - 8.0 - 14.0 * wrap(&text, w - 24.0, NOTE_FONT).len() as f64;
            for line in wrap(&text, w - 24.0, NOTE_FONT) {
                y += 14.0;
                let _ = writeln!(
                    out,
                    r##"<text x="12" y="{y:.0}" font-size="{NOTE_FONT}" fill="#555555">{}</text>"##,
                    escape(&line)
                );
            }
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

    fn one(points: &[Point], strokes: Vec<Stroke>, title: &str) -> String {
        let frame = Frame { strokes, title: title.into() };
        Sheet::of_points(points).draw(&[frame]).remove(0)
    }

    #[test]
    fn a_picture_draws_every_point_and_edge_with_labels_escaped() {
        let points = [[0, 0], [4, 0], [0, 3]];
        let mut green = Stroke::new([0, 1], Colour::Green);
        green.label = Some("1 <R>".into());
        let strokes =
            vec![green, Stroke::new([1, 2], Colour::Black), Stroke::new([0, 2], Colour::Red)];
        let svg = one(&points, strokes, "a & b");
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

    /// Two labels whose edges cross at their middles are slid apart, not stacked, and no
    /// label covers a point.
    #[test]
    fn labels_of_crossing_edges_do_not_cover_each_other() {
        let points = [[0, 0], [40, 40], [0, 40], [40, 0]];
        let mut one = Stroke::new([0, 1], Colour::Red);
        one.label = Some("1R".into());
        let mut two = Stroke::new([2, 3], Colour::Blue);
        two.label = Some("2B".into());
        let frame = Frame { strokes: vec![one, two], title: String::new() };
        let page = Sheet::of_points(&points).pages(&[frame]).remove(0);
        assert!(page.unplaced.is_empty());
        assert_eq!(page.labels.len(), 6, "four numbers, two edge labels");
        for (k, a) in page.labels.iter().enumerate() {
            for b in &page.labels[k + 1..] {
                assert!(!boxes_meet(a.area, b.area), "{a:?} {b:?}");
            }
            for c in &page.centres {
                let dot = (c[0] - DOT, c[1] - DOT, c[0] + DOT, c[1] + DOT);
                assert!(!boxes_meet(a.area, dot), "{a:?} covers {c:?}");
            }
        }
    }

    #[test]
    fn long_titles_are_wrapped_at_spaces() {
        let lines = wrap(&"word ".repeat(40), 300.0, 14.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.chars().count() <= 300 / 8 + 1), "{lines:?}");
        assert_eq!(lines.join(" ").split_whitespace().count(), 40);
    }
}

//! Native SVG pictures of games on graphs, without Graphviz: the Voronoi games (W's and B's
//! stones, every vertex shaded by its owner, the nearer stone; ties unshaded), and the generic
//! [`GraphPicture`] the play library's graph pictures (vertex nim) are drawn with.
//!
//! Where the vertices go is [`crate::base::graph_layout`]'s business (layered trees, planar
//! drawings found by search, force-directed above a size). Names are written beside their
//! vertex at the first place, of eight directions at three distances, whose box meets no edge,
//! no vertex and no name placed before; a name with no such place is not drawn over the
//! picture but kept as the vertex's tooltip (`<title>`). Elements a person may click to move
//! carry `data-move` (see [`crate::play`]). Graphs over [`MAX_VERTICES`] vertices are left to
//! DOT. Drawing only: the owners come from the same distance rule the checker uses, and
//! nothing here decides anything.

use crate::base::gadget_layout::layout_graph;
use crate::base::graph_layout::{layout_edges, Layout, Point};
use crate::base::svg::{boxes_meet, escape, LabelBox};
use crate::base::tree_overview::{Dot, TreeOverview};
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::base::text::counted;
use std::fmt::Write as _;

/// The largest graph drawn natively (the force layout is quadratic per round).
pub const MAX_VERTICES: usize = 1500;

pub const W_STONE: &str = "#e66101";
pub const W_OWNED: &str = "#fdb863";
pub const B_STONE: &str = "#5e3c99";
pub const B_OWNED: &str = "#b2abd2";
/// The colour marking the move about to be played.
pub const MARK: &str = "#d7191c";

/// Coordinates in the unit square for every vertex ([`layout_edges`]).
pub fn layout(graph: &Graph) -> Vec<(f64, f64)> {
    layout_edges(graph.len(), &graph.edges())
}

/// Graphs up to this many vertices get their names written.
const LABELLED: usize = 200;
/// The names' font size, in pixels.
pub const LABEL_FONT: f64 = 10.0;
/// Pixels around the drawing, and the least picture width (room for a caption).
const MARGIN: f64 = 30.0;
const MIN_WIDTH: f64 = 480.0;

/// The box a name `text` written at `(x, y)` (its start and baseline, in [`LABEL_FONT`])
/// takes, halo included; widths are generous (0.62 em a character).
pub fn label_box(x: f64, y: f64, text: &str) -> LabelBox {
    let width = text.chars().count() as f64 * LABEL_FONT * 0.62;
    (x - 1.5, y - LABEL_FONT * 0.85 - 1.0, x + width + 1.5, y + LABEL_FONT * 0.25 + 1.0)
}

pub use crate::base::svg::segment_meets_box;

/// How one vertex is drawn.
#[derive(Clone, Debug)]
pub struct VertexLook {
    pub fill: String,
    pub stroke: &'static str,
    pub width: f64,
    /// A wide soft disc behind the vertex (the owner's cell).
    pub halo: Option<&'static str>,
    /// Text inside the vertex (e.g. a weight).
    pub inner: Option<String>,
    /// The move a click on the vertex plays.
    pub data_move: Option<String>,
    /// A ring marks the vertex (the move about to be played).
    pub marked: bool,
}

impl VertexLook {
    pub fn plain() -> VertexLook {
        VertexLook {
            fill: "white".into(),
            stroke: "#444444",
            width: 1.0,
            halo: None,
            inner: None,
            data_move: None,
            marked: false,
        }
    }
}

/// A graph laid out once, to be drawn at any number of positions (the frames of a play share
/// one layout).
#[derive(Clone, Debug)]
pub struct GraphPicture {
    names: Vec<String>,
    edges: Vec<(usize, usize)>,
    /// Every vertex's centre in the drawing's own pixels.
    centres: Vec<Point>,
    /// Where each name is written (start, baseline), `None` where it found no free place (or
    /// the graph is too large to name every vertex: then the stones are named as drawn).
    labels: Vec<Option<Point>>,
    /// The drawing's box: (left, top, right, bottom).
    body: LabelBox,
    pub radius: f64,
    /// Lines written under the title (see [`GraphPicture::with_note`]).
    note: String,
    /// Per edge, the polyline it is drawn along (pixels), or a straight line.
    routes: Vec<Option<Vec<Point>>>,
    /// Vertices drawn once more, where, and where their name is written there.
    copies: Vec<(usize, Point, Option<Point>)>,
    /// Vertices drawn small and unnamed.
    small: Vec<bool>,
    /// Edges drawn light by default.
    light: Vec<bool>,
    /// Words on the drawing (centre, baseline).
    notes: Vec<(Point, String)>,
    /// Whether every name is written (else only the marked vertices' and the stones').
    named: bool,
    /// A large tree's collapsed overview, drawn over the detail at card size
    /// ([`crate::base::tree_overview`]).
    overview: Option<TreeOverview>,
}

/// A small vertex's radius (pendants).
const SMALL_RADIUS: f64 = 3.5;
/// The picture is drawn for a page about this wide: the title, the status and the note grow
/// with a wider picture so that they read at this width.
const PAGE_WIDTH: f64 = 900.0;

impl GraphPicture {
    /// Lays the graph out ([`layout_graph`]: a reduction by its gadgets, any other graph by
    /// [`crate::base::graph_layout::layout_edges`]); more than [`MAX_VERTICES`] vertices are
    /// refused.
    pub fn new(names: Vec<String>, edges: Vec<(usize, usize)>) -> Result<GraphPicture, String> {
        let n = names.len();
        if n > MAX_VERTICES {
            return Err(format!(
                "{n} vertices are more than the {MAX_VERTICES} drawn natively; `--format dot` \
                 writes the graph for Graphviz"
            ));
        }
        let layout = layout_graph(&names, &edges);
        // A large tree drawn as a tree (not by its gadgets) gets its overview.
        let overview = if layout.kind == "generic" { TreeOverview::new(n, &edges) } else { None };
        let mut picture = GraphPicture::laid_out(names, edges, layout);
        picture.overview = overview;
        Ok(picture)
    }

    /// The graph with its vertices at `at` (the unit square), vertices of `radius` pixels.
    pub fn at(
        names: Vec<String>,
        edges: Vec<(usize, usize)>,
        at: &[Point],
        radius: f64,
    ) -> GraphPicture {
        let layout = Layout { radius: Some(radius), ..Layout::plain(at.to_vec()) };
        GraphPicture::laid_out(names, edges, layout)
    }

    /// The graph drawn as `layout` says.
    pub fn laid_out(
        names: Vec<String>,
        edges: Vec<(usize, usize)>,
        layout: Layout,
    ) -> GraphPicture {
        let n = names.len();
        let radius = layout.radius.unwrap_or(if n <= 60 { 9.0 } else { 5.0 });
        let named = n <= LABELLED || layout.all_named;
        let small = (0..n).map(|v| layout.is_small(v)).collect();
        let light = (0..edges.len()).map(|k| layout.is_light(k)).collect();
        let mut picture = GraphPicture {
            names,
            edges,
            centres: Vec::new(),
            labels: Vec::new(),
            body: (0.0, 0.0, 0.0, 0.0),
            radius,
            note: String::new(),
            routes: Vec::new(),
            copies: Vec::new(),
            small,
            light,
            notes: Vec::new(),
            named,
            overview: None,
        };
        let at = &layout.at;
        let place = |picture: &mut GraphPicture, scale: f64| {
            let px = |&(x, y): &Point| (x * scale, y * scale);
            picture.centres = at.iter().map(px).collect();
            picture.routes = (0..picture.edges.len())
                .map(|k| {
                    let route = layout.routes.get(k).and_then(Option::as_ref);
                    route.filter(|r| r.len() >= 2).map(|r| r.iter().map(px).collect())
                })
                .collect();
            picture.copies = layout.copies.iter().map(|(v, p)| (*v, px(p), None)).collect();
            picture.notes = layout.notes.iter().map(|(p, text)| (px(p), text.clone())).collect();
            picture.place_labels();
        };
        if let Some(scale) = layout.scale {
            place(&mut picture, scale);
            return picture;
        }
        // The scale puts the two closest vertices a stone and a gap apart, within limits (a
        // smaller gap where no name is written between them).
        let mut closest = f64::MAX;
        for (i, p) in at.iter().enumerate() {
            for q in &at[i + 1..] {
                closest = closest.min((p.0 - q.0).hypot(p.1 - q.1));
            }
        }
        let gap = if named { 16.0 } else { 6.0 };
        let scale = if closest == f64::MAX {
            300.0
        } else {
            ((2.0 * radius + gap) / closest.max(1e-6)).clamp(300.0, 2400.0)
        };
        // Drawn larger, up to three times, while a name finds no free place.
        for k in 0..4 {
            let scale = scale * 1.4f64.powi(k);
            place(&mut picture, scale);
            let named = picture.names.iter().filter(|name| !name.is_empty()).count();
            let placed = picture.labels.iter().filter(|l| l.is_some()).count();
            if placed == named || !picture.named || scale > 4000.0 {
                break;
            }
        }
        picture
    }

    /// Every vertex's centre, in the drawing's pixels (before the picture's margins).
    pub fn centres(&self) -> &[Point] {
        &self.centres
    }

    /// Writes `note` (e.g. whose play the frames draw, and the certified value) under every
    /// picture's title.
    pub fn with_note(mut self, note: &str) -> GraphPicture {
        self.note = note.trim().to_string();
        self
    }

    /// Where a play on a large tree opens (the box, in the picture's units, that `page.js`
    /// zooms the board to at first): the centre and its neighbours, the stones and the marked
    /// vertex, with room for their names; `shift` moves the drawing's pixels into the picture.
    fn focus(&self, overview: &TreeOverview, looks: &[VertexLook], shift: Point) -> LabelBox {
        let near = (0..self.centres.len()).filter(|&v| {
            let look = looks.get(v);
            overview.depth[v] <= 1 || look.is_some_and(|l| l.width >= 2.5 || l.marked)
        });
        let mut b = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for v in near {
            let (x, y) = self.centres[v];
            b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
        }
        let pad = 3.0 * self.radius + 40.0;
        (b.0 - pad + shift.0, b.1 - pad + shift.1, b.2 - b.0 + 2.0 * pad, b.3 - b.1 + 2.0 * pad)
    }

    fn radius_of(&self, v: usize) -> f64 {
        if self.small.get(v).copied().unwrap_or(false) {
            SMALL_RADIUS
        } else {
            self.radius
        }
    }

    /// Every edge's pieces: (the edge's ends, a piece's two points).
    fn segments(&self) -> Vec<((usize, usize), Point, Point)> {
        let mut out = Vec::with_capacity(self.edges.len());
        for (k, &(a, b)) in self.edges.iter().enumerate() {
            match self.routes.get(k).and_then(Option::as_ref) {
                Some(route) => {
                    out.extend(route.windows(2).map(|w| ((a, b), w[0], w[1])));
                }
                None => out.push(((a, b), self.centres[a], self.centres[b])),
            }
        }
        out
    }

    /// Every name (when the graph is small enough, or its layout leaves room) at the first
    /// free place around its vertex, and the copies' names around the copies.
    fn place_labels(&mut self) {
        let n = self.names.len();
        let segments = self.segments();
        let mut placed: Vec<LabelBox> = Vec::new();
        self.labels = vec![None; n];
        if self.named {
            for v in (0..n).filter(|&v| !self.names[v].is_empty() && !self.small[v]) {
                let spot = self.free_spot(v, self.centres[v], &placed, &segments);
                if let Some((x, y)) = spot {
                    placed.push(label_box(x, y, &self.names[v]));
                }
                self.labels[v] = spot;
            }
            for k in 0..self.copies.len() {
                let (v, at, _) = self.copies[k];
                let spot = self.free_spot(v, at, &placed, &segments);
                if let Some((x, y)) = spot {
                    placed.push(label_box(x, y, &self.names[v]));
                }
                self.copies[k].2 = spot;
            }
        }
        let mut body = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        let mut grow = |b: LabelBox| {
            body = (body.0.min(b.0), body.1.min(b.1), body.2.max(b.2), body.3.max(b.3));
        };
        // Room for a marking ring around every vertex.
        let r = self.radius;
        let copies = self.copies.iter().map(|c| c.1);
        self.centres
            .iter()
            .copied()
            .chain(copies)
            .for_each(|c| grow((c.0 - r - 8.0, c.1 - r - 8.0, c.0 + r + 8.0, c.1 + r + 8.0)));
        self.routes.iter().flatten().flatten().for_each(|&(x, y)| grow((x, y, x, y)));
        for ((x, y), text) in &self.notes {
            grow(note_box(*x, *y, text));
        }
        placed.into_iter().for_each(&mut grow);
        self.body = body;
    }

    /// The first place for `v`'s name beside `(x, y)` (the vertex or a copy of it) whose box
    /// meets no edge, no vertex, no word on the drawing and no placed name: edges at `v` are
    /// avoided too if a place allows it.
    fn free_spot(
        &self,
        v: usize,
        (x, y): Point,
        placed: &[LabelBox],
        segments: &[((usize, usize), Point, Point)],
    ) -> Option<Point> {
        let text = &self.names[v];
        let width = text.chars().count() as f64 * LABEL_FONT * 0.62;
        let r = self.radius_of(v);
        let clear = |b: LabelBox, own_edges: bool| {
            let edge_hit = segments.iter().any(|&((a, c), p, q)| {
                (own_edges || (a != v && c != v)) && segment_meets_box(p, q, b)
            });
            let copies = self.copies.iter().map(|c| (c.1, self.radius));
            let vertex_hit = self
                .centres
                .iter()
                .enumerate()
                .map(|(u, &c)| (c, self.radius_of(u)))
                .chain(copies)
                .any(|((cx, cy), r)| {
                    let nx = cx.clamp(b.0, b.2);
                    let ny = cy.clamp(b.1, b.3);
                    (nx - cx).hypot(ny - cy) < r + 1.5
                });
            let note_hit =
                self.notes.iter().any(|((nx, ny), t)| boxes_meet(note_box(*nx, *ny, t), b));
            !edge_hit && !vertex_hit && !note_hit && !placed.iter().any(|&p| boxes_meet(p, b))
        };
        for own_edges in [true, false] {
            for gap in [2.0, 7.0, 14.0] {
                for k in 0..8 {
                    // Upper right first, then around the vertex.
                    let angle =
                        -std::f64::consts::FRAC_PI_4 + k as f64 * std::f64::consts::FRAC_PI_4;
                    let (c, s) = (angle.cos(), angle.sin());
                    let (px, py) = (x + (r + gap) * c, y + (r + gap) * s);
                    let left = if c > 0.3 {
                        px
                    } else if c < -0.3 {
                        px - width
                    } else {
                        px - width / 2.0
                    };
                    let baseline = if s < -0.3 {
                        py - 2.0
                    } else if s > 0.3 {
                        py + LABEL_FONT * 0.85 + 1.0
                    } else {
                        py + LABEL_FONT * 0.3
                    };
                    if clear(label_box(left, baseline, text), own_edges) {
                        return Some((left, baseline));
                    }
                }
            }
        }
        None
    }

    /// The picture: `caption` (wrapped) and the `status` line (SVG text content, e.g. coloured
    /// `tspan`s) over the note, then the graph with each vertex drawn as `looks` says and each
    /// edge as `edge_looks` says (by default thin grey, light grey for the layout's light
    /// edges), and `chips` in rows under it. In a graph too large to name every vertex, the
    /// vertices drawn with a heavy outline (the stones) and the marked one are named.
    pub fn draw(
        &self,
        caption: &str,
        status: &str,
        looks: &[VertexLook],
        edge_looks: &[Option<EdgeLook>],
        chips: &[Chip],
    ) -> String {
        let mut labels = self.labels.clone();
        let mut body = self.body;
        if !self.named {
            let segments = self.segments();
            let mut placed = Vec::new();
            for (v, look) in looks.iter().enumerate().take(self.names.len()) {
                if (look.width >= 2.5 || look.marked) && !self.names[v].is_empty() {
                    labels[v] = self.free_spot(v, self.centres[v], &placed, &segments);
                    if let Some((x, y)) = labels[v] {
                        let b = label_box(x, y, &self.names[v]);
                        placed.push(b);
                        body = (body.0.min(b.0), body.1.min(b.1), body.2.max(b.2), body.3.max(b.3));
                    }
                }
            }
        }
        let body_w = body.2 - body.0;
        let width = (body_w + 2.0 * MARGIN).max(MIN_WIDTH);
        // The words grow with a picture wider than a page, to read when it is fitted to one.
        let grow = (width / PAGE_WIDTH).max(1.0);
        let (title_font, status_font, note_font) = (14.0 * grow, 12.0 * grow, 11.0 * grow);
        let (chip_svg, chip_height) = draw_chips(chips, width - 2.0 * MARGIN);
        let chars = ((width - 2.0 * MARGIN) / (7.6 * grow)).max(30.0) as usize;
        let title = wrap(caption, chars);
        let note = wrap(&self.note, (chars as f64 * 1.3) as usize);
        let mut y = 8.0 * grow;
        let mut out = String::new();
        let mut head = String::new();
        for line in &title {
            y += 18.0 * grow;
            let _ = writeln!(
                head,
                r#"<text class="caption" x="{MARGIN}" y="{y:.0}" font-size="{title_font:.0}">{}</text>"#,
                escape(line)
            );
        }
        if !status.is_empty() {
            y += 17.0 * grow;
            let _ = writeln!(
                head,
                r#"<text class="caption" x="{MARGIN}" y="{y:.0}" font-size="{status_font:.0}">{status}</text>"#
            );
        }
        for line in &note {
            y += 14.0 * grow;
            let _ = writeln!(
                head,
                r##"<text class="caption" x="{MARGIN}" y="{y:.0}" font-size="{note_font:.0}" fill="#555555">{}</text>"##,
                escape(line)
            );
        }
        let top = y + 12.0;
        let mut height = top + (body.3 - body.1) + chip_height + MARGIN;
        let shift =
            (MARGIN - body.0 + (width - 2.0 * MARGIN - body_w).max(0.0) / 2.0, top - body.1);
        // A large tree's overview: its unit (the picture's units per pixel on a card) and its
        // legend's lines, under the drawing.
        let overview = self.overview.as_ref().map(|o| {
            let mut legend = Vec::new();
            let mut unit = (width / CARD.0).max(height / CARD.1);
            for _ in 0..3 {
                let chars = ((width - 2.0 * MARGIN) / (unit * LEGEND_FONT * 0.58)).max(20.0);
                legend = wrap(&o.legend(), chars as usize);
                let tall = height + (legend.len() as f64 * 1.3 + 0.8) * LEGEND_FONT * unit;
                unit = (width / CARD.0).max(tall / CARD.1);
            }
            (o, unit, legend)
        });
        let mut tree_attributes = String::new();
        if let Some((o, unit, legend)) = &overview {
            height += (legend.len() as f64 * 1.3 + 0.8) * LEGEND_FONT * unit;
            let focus = self.focus(o, looks, shift);
            let _ = write!(
                tree_attributes,
                r#" class="tree-picture" data-detail-at="{:.3}" data-focus="{:.1} {:.1} {:.1} {:.1}""#,
                DETAIL_PIXELS / self.radius,
                focus.0,
                focus.1,
                focus.2,
                focus.3
            );
        }
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="sans-serif"{tree_attributes}>"#
        );
        out.push_str("<style>.move{cursor:pointer}.move:hover .hit{fill:#ffd70066;stroke:#ffd700;stroke-opacity:0.45}</style>\n");
        if overview.is_some() {
            out.push_str("<style>.tree-overview{display:none}svg.tree-zoomed-out .tree-overview{display:inline}svg.tree-zoomed-out .tree-detail{display:none}</style>\n");
        }
        out.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#555555"/></marker></defs>"##);
        out.push('\n');
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        out.push_str(&head);
        let _ = writeln!(out, r#"<g transform="translate({:.1} {:.1})">"#, shift.0, shift.1);
        if overview.is_some() {
            out.push_str("<g class=\"tree-detail\">\n");
        }
        let copies = self.copies.iter().map(|&(v, at, _)| (v, at));
        for (v, (x, y)) in self.centres.iter().copied().enumerate().chain(copies) {
            if let Some(halo) = looks.get(v).and_then(|look| look.halo) {
                let _ = writeln!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{halo}" fill-opacity="0.45"/>"#,
                    self.radius_of(v) * 2.2
                );
            }
        }
        for (k, &(a, b)) in self.edges.iter().enumerate() {
            let light = self.light.get(k).copied().unwrap_or(false);
            let look = edge_looks.get(k).cloned().flatten().unwrap_or_else(|| {
                if light {
                    EdgeLook { colour: "#c8c8c8", width: 0.8, ..EdgeLook::default() }
                } else {
                    EdgeLook::default()
                }
            });
            let dash = if look.dashed { r#" stroke-dasharray="4 4""# } else { "" };
            let (shape, hit) = match self.routes.get(k).and_then(Option::as_ref) {
                Some(route) => {
                    let points: Vec<String> =
                        route.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
                    let points = points.join(" ");
                    (
                        format!(
                            r#"<polyline points="{points}" fill="none" stroke="{}" stroke-width="{}"{dash}/>"#,
                            look.colour, look.width
                        ),
                        format!(
                            r#"<polyline class="hit" points="{points}" fill="none" stroke="white" stroke-opacity="0" stroke-width="14"/>"#
                        ),
                    )
                }
                None => {
                    let ((x1, y1), (mut x2, mut y2)) = (self.centres[a], self.centres[b]);
                    let mut arrow = "";
                    if look.arrow {
                        // The head stops at the target's rim.
                        let d = (x2 - x1).hypot(y2 - y1).max(1e-9);
                        let rim = self.radius_of(b) + 1.0;
                        (x2, y2) = (x2 - (x2 - x1) * rim / d, y2 - (y2 - y1) * rim / d);
                        arrow = r#" marker-end="url(#arrow)""#;
                    }
                    (
                        format!(
                            r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}" stroke-width="{}"{dash}{arrow}/>"#,
                            look.colour, look.width
                        ),
                        format!(
                            r#"<line class="hit" x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="white" stroke-opacity="0" stroke-width="14"/>"#
                        ),
                    )
                }
            };
            match &look.data_move {
                Some(mv) => {
                    let _ = writeln!(
                        out,
                        r#"<g class="move" data-move="{}">{hit}{shape}</g>"#,
                        escape(mv)
                    );
                }
                None => {
                    let _ = writeln!(out, "{shape}");
                }
            }
        }
        for ((x, y), text) in &self.notes {
            let _ = writeln!(
                out,
                r##"<text class="note" x="{x:.1}" y="{y:.1}" font-size="{NOTE_FONT}" text-anchor="middle" fill="#666666" font-style="italic">{}</text>"##,
                escape(text)
            );
        }
        out.push_str("<!-- vertices -->\n");
        let copies = self.copies.iter().map(|&(v, at, _)| (v, at, true));
        let all = self.centres.iter().enumerate().map(|(v, &at)| (v, at, false));
        for (v, (x, y), copy) in all.chain(copies) {
            let plain = VertexLook::plain();
            let look = looks.get(v).unwrap_or(&plain);
            let r = self.radius_of(v);
            let tip = format!("<title>{}</title>", escape(&self.names[v]));
            // A copy (the paper's second drawing of a vertex) is outlined dashed, and is not a
            // second vertex to the readers of the picture (`data-copy`, not `data-vertex`).
            let (key, dashes) = if copy {
                ("data-copy", r#" stroke-dasharray="4 2""#)
            } else {
                ("data-vertex", "")
            };
            let mut shape = format!(
                r#"<circle {key}="{v}" cx="{x:.1}" cy="{y:.1}" r="{r}" fill="{}" stroke="{}" stroke-width="{}"{dashes}>{tip}</circle>"#,
                look.fill, look.stroke, look.width
            );
            if look.marked {
                let _ = write!(
                    shape,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="{MARK}" stroke-width="2.5" stroke-dasharray="3 2"/>"#,
                    r + 5.0
                );
            }
            if let Some(inner) = &look.inner {
                let _ = write!(
                    shape,
                    r#"<text x="{x:.1}" y="{:.1}" font-size="{:.0}" text-anchor="middle" pointer-events="none">{}</text>"#,
                    y + r * 0.4,
                    r * 1.1,
                    escape(inner)
                );
            }
            match &look.data_move {
                Some(mv) => {
                    let _ = writeln!(
                        out,
                        r#"<g class="move" data-move="{}"><circle class="hit" cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="white" fill-opacity="0"/>{shape}</g>"#,
                        escape(mv),
                        r.max(4.0) + 6.0
                    );
                }
                None => {
                    let _ = writeln!(out, "{shape}");
                }
            }
        }
        let copies = self.copies.iter().map(|&(v, _, spot)| (v, spot, true));
        let all = labels.iter().enumerate().map(|(v, &spot)| (v, spot, false));
        for (v, spot, copy) in all.chain(copies) {
            if let Some((x, y)) = spot {
                let key = if copy { " data-copy=\"1\"" } else { "" };
                let _ = writeln!(
                    out,
                    r##"<text class="label" data-vertex="{v}"{key} x="{x:.1}" y="{y:.1}" font-size="{LABEL_FONT}" fill="#222222" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"##,
                    escape(&self.names[v])
                );
            }
        }
        if let Some((o, unit, legend)) = &overview {
            out.push_str("</g>\n<g class=\"tree-overview\">\n");
            let dots: Vec<Dot> = (0..self.names.len())
                .map(|v| {
                    let look = looks.get(v);
                    Dot {
                        name: &self.names[v],
                        fill: look.map_or("white", |l| l.fill.as_str()),
                        stroke: look.map_or("#444444", |l| l.stroke),
                        stone: look.is_some_and(|l| l.width >= 2.5),
                        marked: look.is_some_and(|l| l.marked),
                        data_move: look.and_then(|l| l.data_move.as_deref()),
                    }
                })
                .collect();
            out.push_str(&o.svg(&self.centres, &self.edges, &dots, *unit));
            let font = LEGEND_FONT * unit;
            // Under the drawing and its chips, from the picture's left margin.
            let mut y = body.3 + chip_height + 1.1 * font;
            for line in legend {
                let _ = writeln!(
                    out,
                    r##"<text class="legend" x="{:.1}" y="{y:.1}" font-size="{font:.1}" fill="#333333">{}</text>"##,
                    MARGIN - shift.0,
                    escape(line)
                );
                y += 1.3 * font;
            }
            out.push_str("</g>\n");
        }
        out.push_str("</g>\n");
        let _ = writeln!(
            out,
            r#"<g transform="translate({MARGIN} {:.1})">{chip_svg}</g>"#,
            top + (body.3 - body.1) + 10.0
        );
        out.push_str("</svg>\n");
        out
    }
}

/// The size of a card on `gamecert serve`'s page (pixels), the overview's words and vertices
/// sized to read there; the legend's font there; how many pixels a vertex's radius takes on the
/// screen before its tree's detail is drawn instead of the overview.
const CARD: (f64, f64) = (380.0, 240.0);
const LEGEND_FONT: f64 = 10.0;
const DETAIL_PIXELS: f64 = 3.0;

/// The font of the words a layout writes on the drawing.
const NOTE_FONT: f64 = 11.0;

/// The box of a word on the drawing centred at `x`, baseline `y`.
fn note_box(x: f64, y: f64, text: &str) -> LabelBox {
    let half = text.chars().count() as f64 * NOTE_FONT * 0.32 + 1.5;
    (x - half, y - NOTE_FONT * 0.85 - 1.0, x + half, y + NOTE_FONT * 0.25 + 1.0)
}

/// A button under a picture: a move written out (e.g. every legal move of vertex nim, where a
/// click on a vertex cannot say everything).
#[derive(Clone, Debug)]
pub struct Chip {
    pub text: String,
    pub data_move: Option<String>,
    pub marked: bool,
}

/// The chips in rows `width` wide: their SVG (from the origin) and its height.
fn draw_chips(chips: &[Chip], width: f64) -> (String, f64) {
    let mut out = String::new();
    let (mut x, mut y) = (0.0, 0.0);
    for chip in chips {
        let w = chip.text.chars().count() as f64 * 7.0 + 14.0;
        if x > 0.0 && x + w > width {
            (x, y) = (0.0, y + 26.0);
        }
        let (stroke, sw) = if chip.marked { (MARK, 2.5) } else { ("#666666", 1.0) };
        let body = format!(
            r##"<rect class="hit" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="20" rx="6" fill="#f4f4f4" stroke="{stroke}" stroke-width="{sw}"/><text x="{:.1}" y="{:.1}" font-size="12" font-family="monospace">{}</text>"##,
            x + 7.0,
            y + 14.5,
            escape(&chip.text)
        );
        match &chip.data_move {
            Some(mv) => {
                let _ = write!(out, r#"<g class="move" data-move="{}">{body}</g>"#, escape(mv));
            }
            None => out.push_str(&body),
        }
        x += w + 8.0;
    }
    let height = if chips.is_empty() { 0.0 } else { y + 30.0 };
    (out, height)
}

/// How one edge is drawn.
#[derive(Clone, Debug)]
pub struct EdgeLook {
    pub colour: &'static str,
    pub width: f64,
    pub dashed: bool,
    /// An arrowhead at the second end (a directed graph's arc).
    pub arrow: bool,
    /// The move a click on the edge plays (a wide transparent stroke takes the click).
    pub data_move: Option<String>,
}

impl Default for EdgeLook {
    fn default() -> EdgeLook {
        EdgeLook { colour: "#888888", width: 1.2, dashed: false, arrow: false, data_move: None }
    }
}

/// `text` in lines of at most `chars` characters, broken at spaces.
pub fn wrap(text: &str, chars: usize) -> Vec<String> {
    crate::base::svg::wrap_chars(text, chars)
}

/// A Voronoi game's graph laid out once, to be drawn at any number of positions.
pub struct VoronoiPicture<'g> {
    graph: &'g Graph,
    picture: GraphPicture,
}

impl<'g> VoronoiPicture<'g> {
    /// Lays `graph` out; graphs over [`MAX_VERTICES`] vertices are refused.
    pub fn new(graph: &'g Graph) -> Result<VoronoiPicture<'g>, String> {
        let names = graph.names().map(str::to_string).collect();
        let picture = GraphPicture::new(names, graph.edges())?;
        Ok(VoronoiPicture { graph, picture })
    }

    /// The picture of `graph` laid out already as `picture` (a layout kept between frames).
    pub fn with_layout(graph: &'g Graph, picture: GraphPicture) -> VoronoiPicture<'g> {
        VoronoiPicture { graph, picture }
    }

    /// Writes `note` under every picture's title.
    pub fn with_note(self, note: &str) -> VoronoiPicture<'g> {
        VoronoiPicture { graph: self.graph, picture: self.picture.with_note(note) }
    }

    /// The picture with W's stones `white` and B's stones `black`, titled `title`; a second line
    /// counts the stones and what each player owns.
    pub fn draw(&self, white: &[usize], black: &[usize], title: &str) -> String {
        self.draw_play(white, black, title, false, None)
    }

    /// [`VoronoiPicture::draw`], with every empty vertex clickable (`data-move` its name) when
    /// `clickable`, and `marked` ringed.
    pub fn draw_play(
        &self,
        white: &[usize],
        black: &[usize],
        title: &str,
        clickable: bool,
        marked: Option<usize>,
    ) -> String {
        let (graph, n) = (self.graph, self.graph.len());
        let (to_w, to_b) = (graph.distances_from(white), graph.distances_from(black));
        let owner = |v: usize| to_w[v].cmp(&to_b[v]);
        let (w_owns, b_owns) = (
            (0..n).filter(|&v| owner(v).is_lt()).count(),
            (0..n).filter(|&v| owner(v).is_gt()).count(),
        );
        let status = format!(
            r#"<tspan fill="{W_STONE}">W: {}, owns {w_owns}</tspan>; <tspan fill="{B_STONE}">B: {}, owns {b_owns}</tspan>; ties: {}"#,
            counted(white.len(), "stone"),
            counted(black.len(), "stone"),
            n - w_owns - b_owns
        );
        let (mut is_w, mut is_b) = (vec![false; n], vec![false; n]);
        white.iter().for_each(|&v| is_w[v] = true);
        black.iter().for_each(|&v| is_b[v] = true);
        let any = !black.is_empty() || !white.is_empty();
        let looks: Vec<VertexLook> = (0..n)
            .map(|v| {
                let mut look = VertexLook::plain();
                if is_w[v] {
                    (look.fill, look.stroke, look.width) = (W_STONE.into(), "black", 2.5);
                } else if is_b[v] {
                    (look.fill, look.stroke, look.width) = (B_STONE.into(), "black", 2.5);
                } else if any {
                    match owner(v) {
                        std::cmp::Ordering::Less => look.fill = W_OWNED.into(),
                        std::cmp::Ordering::Greater => look.fill = B_OWNED.into(),
                        std::cmp::Ordering::Equal => {}
                    }
                }
                if any {
                    look.halo = match owner(v) {
                        std::cmp::Ordering::Less => Some(W_OWNED),
                        std::cmp::Ordering::Greater => Some(B_OWNED),
                        std::cmp::Ordering::Equal => None,
                    };
                }
                if clickable && !is_w[v] && !is_b[v] {
                    look.data_move = Some(graph.name(v).to_string());
                }
                look.marked = marked == Some(v);
                look
            })
            .collect();
        self.picture.draw(title, &status, &looks, &[], &[])
    }
}

/// [`VoronoiPicture::draw`] for one picture.
pub fn voronoi_svg(
    graph: &Graph,
    white: &[usize],
    black: &[usize],
    title: &str,
) -> Result<String, String> {
    Ok(VoronoiPicture::new(graph)?.draw(white, black, title))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let edges: Vec<(String, String)> =
            edges.iter().map(|&(a, b)| (names[a].clone(), names[b].clone())).collect();
        Graph::new(&names, &edges).unwrap()
    }

    #[test]
    fn layouts_keep_vertices_apart_and_inside_the_square() {
        let path = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let star = graph(5, &[(0, 1), (0, 2), (0, 3), (0, 4)]);
        let cycle = graph(6, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)]);
        for g in [&path, &star, &cycle] {
            let at = layout(g);
            for (i, p) in at.iter().enumerate() {
                assert!((0.0..=1.0).contains(&p.0) && (0.0..=1.0).contains(&p.1), "{p:?}");
                for q in &at[i + 1..] {
                    assert!((p.0 - q.0).hypot(p.1 - q.1) > 0.05, "{p:?} {q:?}");
                }
            }
        }
        // The path is drawn on one line, in order.
        let at = layout(&path);
        assert!(at.iter().all(|p| p.1 == 0.0));
        assert!(at.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn owners_are_coloured_and_counted() {
        let path = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        let svg = voronoi_svg(&path, &[1], &[3], "t").unwrap();
        assert!(svg.contains("W: 1 stone, owns 2") && svg.contains("B: 1 stone, owns 2"), "{svg}");
        assert!(svg.contains("ties: 1"));
        assert_eq!(svg.matches(&format!("fill=\"{W_STONE}\"")).count(), 2, "the stone, the legend");
    }

    #[test]
    fn segments_meet_boxes() {
        let b = (0.0, 0.0, 10.0, 10.0);
        assert!(segment_meets_box((-5.0, 5.0), (15.0, 5.0), b));
        assert!(!segment_meets_box((-5.0, 15.0), (15.0, 15.0), b));
        assert!(segment_meets_box((2.0, 2.0), (3.0, 3.0), b));
        assert!(!segment_meets_box((-5.0, 0.0), (0.0, -5.0 - 1e-9), (0.5, 0.5, 10.0, 10.0)));
    }
}

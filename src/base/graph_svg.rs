//! Native SVG pictures of the Voronoi game on a graph, without Graphviz: a layout, W's and B's
//! stones, and every vertex coloured by its owner (the nearer stone; ties uncoloured).
//!
//! Layouts, chosen by the graph's shape: a path on one line; a tree in layers from a centre
//! vertex, each subtree given width in proportion to its leaves; any other graph by a
//! force-directed layout (Fruchterman-Reingold from a circle, fixed number of rounds, so the
//! same graph always gives the same picture). Graphs over [`MAX_VERTICES`] vertices are left to
//! DOT. Drawing only: the owners come from the same distance rule the checker uses, and
//! nothing here decides anything.

use gamecert_certificates::base::graph::Graph;
use std::fmt::Write as _;

/// The largest graph drawn natively (the force layout is quadratic per round).
pub const MAX_VERTICES: usize = 1500;

const W_STONE: &str = "#e66101";
const W_OWNED: &str = "#fdb863";
const B_STONE: &str = "#5e3c99";
const B_OWNED: &str = "#b2abd2";

/// Coordinates in the unit square for every vertex.
pub fn layout(graph: &Graph) -> Vec<(f64, f64)> {
    let n = graph.len();
    if n == 0 {
        return Vec::new();
    }
    let degree = |v: usize| graph.neighbours(v).len();
    let connected = graph.distances_from(&[0]).iter().all(|&d| d != u32::MAX);
    if connected && graph.edge_count() + 1 == n {
        if (0..n).all(|v| degree(v) <= 2) {
            return path_layout(graph);
        }
        return tree_layout(graph);
    }
    force_layout(graph)
}

fn path_layout(graph: &Graph) -> Vec<(f64, f64)> {
    let n = graph.len();
    let start = (0..n).find(|&v| graph.neighbours(v).len() <= 1).unwrap_or(0);
    let mut at = vec![(0.0, 0.0); n];
    let (mut previous, mut current) = (usize::MAX, start);
    for k in 0..n {
        at[current] = (k as f64 / (n.max(2) - 1) as f64, 0.0);
        let Some(&next) = graph.neighbours(current).iter().find(|&&u| u != previous) else { break };
        (previous, current) = (current, next);
    }
    at
}

fn tree_layout(graph: &Graph) -> Vec<(f64, f64)> {
    let n = graph.len();
    // The centre: a vertex of least eccentricity (two BFS sweeps find a diameter's middle).
    let far = |from: usize| {
        let d = graph.distances_from(&[from]);
        (0..n).max_by_key(|&v| d[v]).unwrap_or(0)
    };
    let a = far(0);
    let b = far(a);
    let (da, db) = (graph.distances_from(&[a]), graph.distances_from(&[b]));
    let root = (0..n).min_by_key(|&v| da[v].max(db[v])).unwrap_or(0);
    let depth = graph.distances_from(&[root]);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| depth[v]);
    let mut parent = vec![usize::MAX; n];
    for &v in &order {
        for &u in graph.neighbours(v) {
            if depth[u] == depth[v] + 1 {
                parent[u] = v;
            }
        }
    }
    let mut leaves = vec![0usize; n];
    for &v in order.iter().rev() {
        leaves[v] = leaves[v].max(1);
        if parent[v] != usize::MAX {
            leaves[parent[v]] += leaves[v];
        }
    }
    let height = depth.iter().copied().max().unwrap_or(0).max(1) as f64;
    // Layers about three leaf widths apart, so that a bushy tree is drawn wide, not tall.
    let layer = (1.0 / height).min(3.0 / leaves[root].max(1) as f64);
    let mut span = vec![(0.0, 1.0); n];
    let mut at = vec![(0.5, 0.0); n];
    for &v in &order {
        let (left, right) = span[v];
        at[v] = ((left + right) / 2.0, depth[v] as f64 * layer);
        let mut cursor = left;
        for &u in graph.neighbours(v).iter().filter(|&&u| parent[u] == v) {
            let width = (right - left) * leaves[u] as f64 / leaves[v].max(1) as f64;
            span[u] = (cursor, cursor + width);
            cursor += width;
        }
    }
    at
}

fn force_layout(graph: &Graph) -> Vec<(f64, f64)> {
    let n = graph.len();
    let mut at: Vec<(f64, f64)> = (0..n)
        .map(|v| {
            let angle = std::f64::consts::TAU * v as f64 / n as f64;
            (0.5 + 0.45 * angle.cos(), 0.5 + 0.45 * angle.sin())
        })
        .collect();
    let k = (1.0 / n as f64).sqrt();
    let rounds = 300;
    for round in 0..rounds {
        let mut push = vec![(0.0, 0.0); n];
        for v in 0..n {
            for u in v + 1..n {
                let (dx, dy) = (at[v].0 - at[u].0, at[v].1 - at[u].1);
                let d2 = (dx * dx + dy * dy).max(1e-9);
                let f = k * k / d2;
                push[v].0 += dx * f;
                push[v].1 += dy * f;
                push[u].0 -= dx * f;
                push[u].1 -= dy * f;
            }
        }
        for (v, u) in graph.edges() {
            let (dx, dy) = (at[v].0 - at[u].0, at[v].1 - at[u].1);
            let d = (dx * dx + dy * dy).sqrt().max(1e-9);
            let f = d / k;
            push[v].0 -= dx * f;
            push[v].1 -= dy * f;
            push[u].0 += dx * f;
            push[u].1 += dy * f;
        }
        let cap = 0.1 * (1.0 - round as f64 / rounds as f64) + 0.002;
        for v in 0..n {
            let (px, py) = push[v];
            let len = (px * px + py * py).sqrt().max(1e-12);
            let step = len.min(cap);
            at[v].0 += px / len * step;
            at[v].1 += py / len * step;
        }
    }
    // Back into the unit square.
    let (min_x, max_x) = at.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = at.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let span = (max_x - min_x).max(max_y - min_y).max(1e-9);
    at.iter().map(|&(x, y)| ((x - min_x) / span, (y - min_y) / span)).collect()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A Voronoi game's graph laid out once, to be drawn at any number of positions (the frames of
/// a play share one layout).
pub struct VoronoiPicture<'g> {
    graph: &'g Graph,
    /// Every vertex's centre, in pixels.
    centres: Vec<(f64, f64)>,
    size: (f64, f64),
    radius: f64,
    /// Labels turned 40 degrees when the vertices are closer than a label is long.
    slanted: bool,
    /// Lines written under the title and the stones (see [`VoronoiPicture::with_note`]).
    note: Vec<String>,
}

/// The height of a note line, in pixels.
const NOTE_LINE: f64 = 14.0;

/// Pixels between the picture's edge and the drawing, and above it for the two title lines.
const MARGIN: f64 = 30.0;
const TOP: f64 = 50.0;

impl<'g> VoronoiPicture<'g> {
    /// Lays `graph` out; graphs over [`MAX_VERTICES`] vertices are refused.
    pub fn new(graph: &'g Graph) -> Result<VoronoiPicture<'g>, String> {
        let n = graph.len();
        if n > MAX_VERTICES {
            return Err(format!(
                "{n} vertices are more than the {MAX_VERTICES} drawn natively; `--format dot` \
                 writes the graph for Graphviz"
            ));
        }
        let at = layout(graph);
        let radius = if n <= 60 { 9.0 } else { 5.0 };
        // The scale puts the two closest vertices a stone and a gap apart, within limits.
        let mut closest = f64::MAX;
        for (i, p) in at.iter().enumerate() {
            for q in &at[i + 1..] {
                closest = closest.min((p.0 - q.0).hypot(p.1 - q.1));
            }
        }
        let scale = if closest == f64::MAX {
            300.0
        } else {
            ((2.0 * radius + 14.0) / closest.max(1e-6)).clamp(300.0, 2400.0)
        };
        let label = graph.names().map(|name| name.chars().count()).max().unwrap_or(0) as f64 * 6.5;
        let slanted = n <= LABELLED && closest * scale < label + 2.0 * radius;
        let (max_x, max_y) =
            at.iter().fold((0.0_f64, 0.0_f64), |(a, b), p| (a.max(p.0), b.max(p.1)));
        let below = if slanted { label * 0.7 } else { 0.0 };
        let size = (
            (scale * max_x + 2.0 * MARGIN + label + 20.0).max(320.0),
            scale * max_y + 2.0 * MARGIN + TOP + below,
        );
        let centres = at
            .iter()
            .map(|&(x, y)| (MARGIN + 20.0 + x * scale, TOP + MARGIN + y * scale))
            .collect();
        Ok(VoronoiPicture { graph, centres, size, radius, slanted, note: Vec::new() })
    }

    /// Writes `note` (e.g. whose play the frames draw, and the certified value) under every
    /// picture's title, moving the drawing down to make room.
    pub fn with_note(mut self, note: &str) -> VoronoiPicture<'g> {
        let chars = ((self.size.0 - 2.0 * MARGIN) / 6.6).max(30.0) as usize;
        let mut line = String::new();
        for word in note.split(' ') {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > chars {
                self.note.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            self.note.push(line);
        }
        let drop = NOTE_LINE * self.note.len() as f64;
        self.centres.iter_mut().for_each(|c| c.1 += drop);
        self.size.1 += drop;
        self
    }

    /// The picture with W's stones `white` and B's stones `black`, titled `title`; a second line
    /// counts the stones and what each player owns.
    pub fn draw(&self, white: &[usize], black: &[usize], title: &str) -> String {
        let (graph, n, radius) = (self.graph, self.graph.len(), self.radius);
        let (to_w, to_b) = (graph.distances_from(white), graph.distances_from(black));
        let owner = |v: usize| to_w[v].cmp(&to_b[v]);
        let (w_owns, b_owns) = (
            (0..n).filter(|&v| owner(v).is_lt()).count(),
            (0..n).filter(|&v| owner(v).is_gt()).count(),
        );
        let (w, h) = self.size;
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.1} {h:.1}" font-family="sans-serif">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ =
            writeln!(out, r#"<text x="{MARGIN}" y="20" font-size="14">{}</text>"#, escape(title));
        let _ = writeln!(
            out,
            r#"<text x="{MARGIN}" y="38" font-size="12"><tspan fill="{W_STONE}">W: {} stones, owns {w_owns}</tspan>   <tspan fill="{B_STONE}">B: {} stones, owns {b_owns}</tspan>   ties: {}</text>"#,
            white.len(),
            black.len(),
            n - w_owns - b_owns
        );
        for (k, line) in self.note.iter().enumerate() {
            let y = 38.0 + NOTE_LINE * (k + 1) as f64;
            let _ = writeln!(
                out,
                r##"<text x="{MARGIN}" y="{y:.0}" font-size="11" fill="#555555">{}</text>"##,
                escape(line)
            );
        }
        for (v, u) in graph.edges() {
            let ((x1, y1), (x2, y2)) = (self.centres[v], self.centres[u]);
            let _ = writeln!(
                out,
                r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#888888" stroke-width="1.2"/>"##
            );
        }
        let (mut is_w, mut is_b) = (vec![false; n], vec![false; n]);
        white.iter().for_each(|&v| is_w[v] = true);
        black.iter().for_each(|&v| is_b[v] = true);
        for (v, &(x, y)) in self.centres.iter().enumerate() {
            let (fill, stroke, width) = if is_w[v] {
                (W_STONE, "black", 2.5)
            } else if is_b[v] {
                (B_STONE, "black", 2.5)
            } else if !black.is_empty() || !white.is_empty() {
                match owner(v) {
                    std::cmp::Ordering::Less => (W_OWNED, "#444444", 1.0),
                    std::cmp::Ordering::Greater => (B_OWNED, "#444444", 1.0),
                    std::cmp::Ordering::Equal => ("white", "#444444", 1.0),
                }
            } else {
                ("white", "#444444", 1.0)
            };
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{radius}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>"#
            );
        }
        if n <= LABELLED {
            for (v, &(x, y)) in self.centres.iter().enumerate() {
                // Upper right of the stone, or slanted down to the right below it when crowded.
                let (lx, ly, turn) = if self.slanted {
                    let (lx, ly) = (x + 2.0, y + radius + 8.0);
                    (lx, ly, format!(r#" transform="rotate(40 {lx:.1} {ly:.1})""#))
                } else {
                    (x + radius + 2.0, y - radius - 1.0, String::new())
                };
                let _ = writeln!(
                    out,
                    r##"<text x="{lx:.1}" y="{ly:.1}"{turn} font-size="10" fill="#222222" stroke="white" stroke-width="3" paint-order="stroke">{}</text>"##,
                    escape(graph.name(v))
                );
            }
        }
        out.push_str("</svg>\n");
        out
    }
}

/// Graphs up to this many vertices get their names written.
const LABELLED: usize = 200;

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
        assert!(
            svg.contains("W: 1 stones, owns 2") && svg.contains("B: 1 stones, owns 2"),
            "{svg}"
        );
        assert!(svg.contains("ties: 1"));
        assert_eq!(svg.matches(W_STONE).count(), 2, "one W stone and the legend");
        assert_eq!(svg.matches(W_OWNED).count(), 1);
    }
}

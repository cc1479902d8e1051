//! A large tree's picture as it reads at card size (issue 48, item 5): the top levels drawn,
//! every deeper subtree collapsed into a counted wedge (the hull of its vertices' places, a fan
//! from its top vertex, with the number of vertices it holds), laid over the full drawing.
//!
//! [`crate::base::graph_svg::GraphPicture`] draws both layers into one SVG: the full detail in
//! `<g class="tree-detail">`, the overview in `<g class="tree-overview">`, and the picture says
//! from which scale (screen pixels per unit, `data-detail-at`) the detail reads. Shown alone
//! (a file, Jupyter) the detail is drawn; `gamecert serve`'s page (`page.js`, `showDetail`)
//! gives the `<svg>` the class `tree-zoomed-out` while it is drawn smaller than that, which shows
//! the overview instead, and takes it away as the picture is zoomed in.
//!
//! Which levels: a tree of more than [`OVERVIEW_FROM`] vertices, drawn by
//! [`crate::base::graph_layout`] from its centre (in layers or rings), shows the deepest level
//! `d` at which at most [`MOST_SHOWN`] vertices are at depth `d` or less (at least the centre
//! and its neighbours); each vertex at depth `d` with vertices below it heads a wedge. The
//! layout gives each subtree its own wedge (rings) or strip (layers), so the wedges' hulls
//! never overlap. Drawing only: nothing here decides anything.

use crate::base::graph_layout::{depths, tree_root, Point};
use crate::base::hull::hull;
use crate::base::svg::escape;
use std::fmt::Write as _;

/// Trees of more vertices than this get an overview.
pub const OVERVIEW_FROM: usize = 60;
/// The most vertices the overview draws (the levels it shows are those that fit).
pub const MOST_SHOWN: usize = 48;

/// A subtree collapsed: its top vertex and the vertices below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wedge {
    pub apex: usize,
    pub hidden: Vec<usize>,
}

/// The overview of one tree: the levels shown and the wedges below them.
#[derive(Clone, Debug)]
pub struct TreeOverview {
    /// The vertex the drawing hangs from, and every vertex's depth below it.
    pub root: usize,
    pub depth: Vec<usize>,
    /// Vertices at this depth or less are drawn.
    pub shown_depth: usize,
    /// One per vertex at `shown_depth` with vertices below it, in the order of their apexes.
    pub wedges: Vec<Wedge>,
}

/// How the overview draws one vertex (the detail's look of it).
#[derive(Clone, Debug)]
pub struct Dot<'a> {
    pub name: &'a str,
    pub fill: &'a str,
    pub stroke: &'a str,
    /// A stone: drawn even inside a wedge.
    pub stone: bool,
    /// The move about to be played: ringed, even inside a wedge.
    pub marked: bool,
    /// The move a click on the vertex plays.
    pub data_move: Option<&'a str>,
}

impl TreeOverview {
    /// The overview of vertices `0..n` with `edges`, when they are one tree of more than
    /// [`OVERVIEW_FROM`] vertices drawn as a tree, deeper than the levels shown.
    pub fn new(n: usize, edges: &[(usize, usize)]) -> Option<TreeOverview> {
        if n <= OVERVIEW_FROM {
            return None;
        }
        let root = tree_root(n, edges)?;
        let depth = depths(n, edges, root);
        let height = depth.iter().copied().max()?;
        let mut per_level = vec![0usize; height + 1];
        depth.iter().for_each(|&d| per_level[d] += 1);
        let mut shown_depth = 1;
        let mut drawn = per_level[0] + per_level[1];
        while shown_depth + 1 < height && drawn + per_level[shown_depth + 1] <= MOST_SHOWN {
            shown_depth += 1;
            drawn += per_level[shown_depth];
        }
        if shown_depth >= height {
            return None;
        }
        // Each vertex's parent, then its ancestor at the shown depth, level by level.
        let mut parent = vec![usize::MAX; n];
        for &(a, b) in edges {
            if a < n && b < n {
                if depth[b] == depth[a] + 1 {
                    parent[b] = a;
                } else if depth[a] == depth[b] + 1 {
                    parent[a] = b;
                }
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&v| depth[v]);
        let mut top = vec![usize::MAX; n];
        let mut slot = vec![usize::MAX; n];
        let mut wedges: Vec<Wedge> = Vec::new();
        for &v in &order {
            if depth[v] <= shown_depth {
                continue;
            }
            let apex = if depth[v] == shown_depth + 1 { parent[v] } else { top[parent[v]] };
            top[v] = apex;
            if slot[apex] == usize::MAX {
                slot[apex] = wedges.len();
                wedges.push(Wedge { apex, hidden: Vec::new() });
            }
            wedges[slot[apex]].hidden.push(v);
        }
        wedges.sort_by_key(|w| w.apex);
        Some(TreeOverview { root, depth, shown_depth, wedges })
    }

    /// Whether the overview draws `v` (else a wedge holds it).
    pub fn shown(&self, v: usize) -> bool {
        self.depth.get(v).is_some_and(|&d| d <= self.shown_depth)
    }

    /// How many vertices the wedges hold.
    pub fn hidden(&self) -> usize {
        self.wedges.iter().map(|w| w.hidden.len()).sum()
    }

    /// The sentence under the overview: what it collapsed and how to see it.
    pub fn legend(&self) -> String {
        format!(
            "{} in {} collapsed subtrees (the wedges, counted); zoom in to see them.",
            crate::base::limits::grouped_count(self.hidden(), "vertex"),
            self.wedges.len()
        )
    }

    /// The overview's SVG elements, on the detail's places `centres` (pixels) and with its
    /// `edges`, each vertex drawn as `dots` says; `unit`: the picture's units per screen pixel
    /// at card size, so that the overview's vertices, lines and counts read there.
    pub fn svg(
        &self,
        centres: &[Point],
        edges: &[(usize, usize)],
        dots: &[Dot],
        unit: f64,
    ) -> String {
        let mut out = String::new();
        let shown: Vec<usize> = (0..centres.len()).filter(|&v| self.shown(v)).collect();
        // The shown vertices' radius: 5 card pixels, less where they are close.
        let mut closest = f64::MAX;
        for (i, &a) in shown.iter().enumerate() {
            for &b in &shown[i + 1..] {
                let (p, q) = (centres[a], centres[b]);
                closest = closest.min((p.0 - q.0).hypot(p.1 - q.1));
            }
        }
        let r = (5.0 * unit).min(0.4 * closest);
        let font = 10.0 * unit;
        for wedge in &self.wedges {
            let mut places = vec![centres[wedge.apex]];
            places.extend(wedge.hidden.iter().map(|&v| centres[v]));
            let corners: Vec<Point> = hull(&places).into_iter().map(|k| places[k]).collect();
            let fill = wedge_fill(wedge, dots);
            let name = dots.get(wedge.apex).map_or("", |d| d.name);
            let _ = write!(
                out,
                r#"<g class="wedge" data-apex="{}" data-count="{}"><title>{}: {} below, collapsed (zoom in to see them)</title>"#,
                wedge.apex,
                wedge.hidden.len(),
                escape(name),
                crate::base::limits::grouped_count(wedge.hidden.len(), "vertex"),
            );
            let path: Vec<String> = corners.iter().map(|(x, y)| format!("{x:.1} {y:.1}")).collect();
            if corners.len() >= 3 {
                let _ = write!(
                    out,
                    r##"<path d="M{}Z" fill="{fill}" fill-opacity="0.75" stroke="#8a8a8a" stroke-width="{:.1}" stroke-linejoin="round"/>"##,
                    path.join("L"),
                    0.8 * unit
                );
            } else {
                // A subtree on one line (a path hanging straight down): a thick stroke.
                let _ = write!(
                    out,
                    r#"<path d="M{}" fill="none" stroke="{fill}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
                    path.join("L"),
                    6.0 * unit
                );
            }
            for &v in &wedge.hidden {
                let Some(dot) = dots.get(v).filter(|d| d.stone || d.marked) else { continue };
                let (x, y) = centres[v];
                let _ = write!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="{}" stroke="{}" stroke-width="{:.1}"><title>{}</title></circle>"#,
                    2.5 * unit,
                    dot.fill,
                    if dot.marked { "#d7191c" } else { "black" },
                    unit,
                    escape(dot.name)
                );
            }
            // The count where the wedge's vertices are, on average: inside its hull.
            let k = places.len() as f64;
            let (sx, sy) = places[1..].iter().fold((0.0, 0.0), |s, p| (s.0 + p.0, s.1 + p.1));
            let (lx, ly) = (sx / (k - 1.0), sy / (k - 1.0) + 0.35 * font);
            let _ = writeln!(
                out,
                r##"<text x="{lx:.1}" y="{ly:.1}" font-size="{font:.1}" text-anchor="middle" fill="#222222" stroke="white" stroke-width="{:.1}" paint-order="stroke">{}</text></g>"##,
                0.3 * font,
                wedge.hidden.len()
            );
        }
        for &(a, b) in edges {
            if a < centres.len() && b < centres.len() && self.shown(a) && self.shown(b) {
                let ((x1, y1), (x2, y2)) = (centres[a], centres[b]);
                let _ = writeln!(
                    out,
                    r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#666666" stroke-width="{:.1}"/>"##,
                    1.2 * unit
                );
            }
        }
        for &v in &shown {
            let Some(dot) = dots.get(v) else { continue };
            let (x, y) = centres[v];
            let width = if dot.stone { 2.0 * unit } else { unit };
            let mut shape = format!(
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{}" stroke="{}" stroke-width="{width:.1}"><title>{}</title></circle>"#,
                dot.fill,
                dot.stroke,
                escape(dot.name)
            );
            if dot.marked {
                let _ = write!(
                    shape,
                    r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="none" stroke="#d7191c" stroke-width="{:.1}"/>"##,
                    r + 2.5 * unit,
                    1.5 * unit
                );
            }
            match dot.data_move {
                Some(mv) => {
                    let _ =
                        writeln!(out, r#"<g class="move" data-move="{}">{shape}</g>"#, escape(mv));
                }
                None => {
                    let _ = writeln!(out, "{shape}");
                }
            }
        }
        out
    }
}

/// A wedge's colour: its vertices' shading when they all share one (a cell wholly W's or
/// B's), else a neutral grey.
fn wedge_fill(wedge: &Wedge, dots: &[Dot]) -> String {
    let mut fills = wedge.hidden.iter().filter_map(|&v| dots.get(v)).map(|d| d.fill);
    match fills.next() {
        Some(first) if first != "white" && fills.all(|f| f == first) => first.to_string(),
        _ => "#dcdcdc".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The complete k-ary tree of the given height, numbered level by level.
    fn kary(k: usize, height: u32) -> (usize, Vec<(usize, usize)>) {
        let n = (0..=height).map(|h| k.pow(h)).sum();
        let edges = (1..n).map(|v| ((v - 1) / k, v)).collect();
        (n, edges)
    }

    /// The wedges' counts sum to the hidden vertices, every vertex is shown or in exactly one
    /// wedge, the one below its ancestor at the shown depth; at most [`MOST_SHOWN`] shown.
    #[test]
    fn wedges_hold_every_hidden_vertex_once() {
        let mut rng = crate::base::rng::Rng::new(3);
        let mut trees = vec![kary(6, 3), kary(5, 4), kary(4, 4), kary(2, 7)];
        for n in [61, 100, 400, 1000] {
            // Random trees: each vertex below an earlier one, the labels shuffled.
            let mut label: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                label.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let edges = (1..n).map(|v| (label[rng.below(v as u64) as usize], label[v])).collect();
            trees.push((n, edges));
        }
        for (n, edges) in trees {
            let Some(o) = TreeOverview::new(n, &edges) else {
                // Only a path (drawn on a line) or a tree no deeper than the levels shown.
                let root = tree_root(n, &edges);
                let Some(root) = root else { continue };
                let d = depths(n, &edges, root);
                assert!(d.iter().max() <= Some(&2), "n = {n}: a deep tree without an overview");
                continue;
            };
            let shown = (0..n).filter(|&v| o.shown(v)).count();
            assert!(
                shown
                    <= MOST_SHOWN
                        .max(1 + edges.iter().filter(|e| e.0 == o.root || e.1 == o.root).count())
            );
            let counts: usize = o.wedges.iter().map(|w| w.hidden.len()).sum();
            assert_eq!(counts, n - shown, "n = {n}: the counts sum to the hidden vertices");
            assert_eq!(o.hidden(), n - shown);
            let mut seen = vec![0; n];
            for w in &o.wedges {
                assert_eq!(o.depth[w.apex], o.shown_depth);
                // The apex is on each hidden vertex's path to the root: its distance to the
                // vertex is the depths' difference.
                let from_apex = depths(n, &edges, w.apex);
                for &v in &w.hidden {
                    seen[v] += 1;
                    assert_eq!(from_apex[v], o.depth[v] - o.shown_depth, "{v} under {}", w.apex);
                }
            }
            assert!((0..n).all(|v| seen[v] == usize::from(!o.shown(v))));
        }
        // The demo's trees: two levels of the 5-ary and 4-ary trees of height 4, and of the
        // 6-ary tree of height 3; counts 30, 20, 6.
        for (k, h, count) in [(5, 4, 30), (4, 4, 20), (6, 3, 6)] {
            let (n, edges) = kary(k, h);
            let o = TreeOverview::new(n, &edges).unwrap();
            assert_eq!((o.root, o.shown_depth), (0, 2));
            assert_eq!(o.wedges.len(), k * k);
            assert!(o.wedges.iter().all(|w| w.hidden.len() == count));
        }
        // Small trees and paths are drawn whole.
        assert!(TreeOverview::new(60, &kary(2, 5).1[..59]).is_none());
        let path: Vec<(usize, usize)> = (1..100).map(|v| (v - 1, v)).collect();
        assert!(TreeOverview::new(100, &path).is_none());
    }

    #[test]
    fn the_overview_draws_wedges_counts_and_titles() {
        let (n, edges) = kary(5, 4);
        let o = TreeOverview::new(n, &edges).unwrap();
        let at = crate::base::graph_layout::layout_edges(n, &edges);
        let centres: Vec<Point> = at.iter().map(|p| (p.0 * 1000.0, p.1 * 1000.0)).collect();
        let names: Vec<String> = (0..n).map(|v| format!("v{v}")).collect();
        let dots: Vec<Dot> = (0..n)
            .map(|v| Dot {
                name: &names[v],
                fill: "white",
                stroke: "#444444",
                stone: v == 700,
                marked: false,
                data_move: Some(&names[v]),
            })
            .collect();
        let svg = o.svg(&centres, &edges, &dots, 4.0);
        assert_eq!(svg.matches("<g class=\"wedge\"").count(), 25);
        assert_eq!(svg.matches(">30</text>").count(), 25);
        assert_eq!(svg.matches("data-move=").count(), 31, "the shown vertices are clickable");
        assert!(svg.contains("<title>v700</title>"), "a stone in a wedge is drawn");
        assert!(svg.contains("<title>v6: 30 vertices below"), "{svg}");
    }
}

//! Where a graph picture puts the vertices (the Voronoi games' pictures, and the graphs of
//! triangle avoidance and vertex nim), and [`crossings`], the count of edge crossings that
//! decides between candidate drawings and that the tests hold the drawings to.
//!
//! Each connected component is drawn on its own and the components are set side by side:
//!
//! - a path on one line, wrapped into rows (a boustrophedon, every turn one short edge) when it
//!   has more than [`LINE_MAX`] vertices; a cycle of more than [`CIRCLE_MAX`] vertices as a
//!   snake over rows closed by a spine down its first column (every edge one step, none
//!   crossing), a shorter one on a circle (the search below finds it);
//! - a tree in layers from a centre vertex, each subtree given width in proportion to its
//!   leaves (a layered drawing: never a crossing); a tree whose layered drawing would be more
//!   than three times as wide as high (many leaves, few levels: the complete k-ary trees) in
//!   rings around its centre instead, each subtree in a wedge in proportion to its leaves, the
//!   rings evenly spaced and as small as keeps neighbours a step apart (a radial drawing: each
//!   wedge at most a half-turn is convex, so no edge leaves its wedge and none crosses);
//! - any other component of at most [`SEARCH_MAX_VERTICES`] vertices and
//!   [`SEARCH_MAX_EDGES`] edges by a search: its 2-core (the trees hanging off it peeled away)
//!   is drawn by Tutte's barycentric method (an outer cycle fixed on a circle, or on a regular
//!   polygon whose corners are the cycle's vertices of degree 2 (a grid's corners), every other
//!   vertex at the mean of its neighbours), trying as the outer cycle the shortest cycles
//!   through several edges, then the largest faces of the best drawing found (a face of a
//!   planar drawing is a good outer face: for a 3-connected planar graph Tutte's drawing from
//!   any face has no crossing); the hanging trees are drawn radially into the widest gap
//!   between their root's edges; force-directed drawings (Fruchterman-Reingold from a circle,
//!   from the best Tutte drawing and, up to [`MULTI_START_MAX`] vertices, from seeded random
//!   starts) compete too. The drawing with the fewest [`crossings`] wins, among those whose
//!   vertices are not crowded together, ties going to the one whose closest vertices are
//!   farthest apart for its area (the smallest picture). Nothing is assumed: a planar graph
//!   is drawn without crossings when some candidate is (the tests hold grids, cycles, wheels,
//!   prisms and the demo's planar graphs to it); the Petersen graph gets 3 (one force-directed
//!   drawing from a circle, the layout before this search, gave 6; 2 is the least); the
//!   crossing count decides.
//! - larger components by the force-directed layout from a circle alone (its rounds are
//!   quadratic; the search's crossing counts are quadratic in the edges). At the limit the
//!   search takes about a second (a 20x20 grid: 1.3 s in a release build).
//!
//! The papers' reductions are drawn by their gadgets instead ([`crate::base::gadget_layout::layout_graph`], with the names:
//! [`crate::base::gadget_layout`]).
//!
//! Deterministic: the same graph always gives the same picture.

use crate::base::rng::Rng;

/// The largest component the search draws (above it, the force-directed layout alone).
pub const SEARCH_MAX_VERTICES: usize = 400;
/// The most edges of a component the search draws.
pub const SEARCH_MAX_EDGES: usize = 1200;
/// Components up to this many vertices also get force-directed drawings from random starts.
pub const MULTI_START_MAX: usize = 150;

/// A point of a drawing.
pub type Point = (f64, f64);

/// A path of up to this many vertices is drawn on one line; a longer one in rows.
pub const LINE_MAX: usize = 30;
/// A cycle of up to this many vertices is drawn on a circle; a longer one as a snake in rows.
pub const CIRCLE_MAX: usize = 40;

/// A drawing of a graph, for its picture: where every vertex goes and, for the layouts that
/// know the graph's structure (the papers' reductions, [`crate::base::gadget_layout`]), how
/// some vertices and edges are drawn.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Every vertex's place: in the unit square when `scale` is `None`, else in units of
    /// `scale` pixels.
    pub at: Vec<Point>,
    /// Pixels per unit of `at`; `None`: the picture picks it (the closest vertices a stone
    /// and a gap apart).
    pub scale: Option<f64>,
    /// The vertices' radius in pixels; `None`: the picture's default for the graph's size.
    pub radius: Option<f64>,
    /// Per edge, in the order given: the polyline it is drawn along, from its first end to its
    /// second, both ends included (an end may be a copy's place); `None` (or a short list): a
    /// straight line between the two vertices.
    pub routes: Vec<Option<Vec<Point>>>,
    /// Vertices drawn a second time, and where (the paper draws `u` twice, so that its edges
    /// to both ends of a gadget are short).
    pub copies: Vec<(usize, Point)>,
    /// Vertices drawn small and unnamed (pendants, many alike); empty: none.
    pub small: Vec<bool>,
    /// Edges drawn light (a hub's many edges, a clique's); empty: none.
    pub light: Vec<bool>,
    /// Words written on the drawing: (centre, baseline) and the text.
    pub notes: Vec<(Point, String)>,
    /// Every name is written however large the graph (a gadget layout leaves room for them).
    pub all_named: bool,
    /// What drew it, for the tests and the docs: "gadgets: sat-voronoi", "tree, radial", ...
    pub kind: String,
}

impl Layout {
    /// Places only, in the unit square, the picture choosing the rest.
    pub fn plain(at: Vec<Point>) -> Layout {
        Layout { at, kind: "generic".into(), ..Layout::default() }
    }

    pub fn is_small(&self, v: usize) -> bool {
        self.small.get(v).copied().unwrap_or(false)
    }

    pub fn is_light(&self, edge: usize) -> bool {
        self.light.get(edge).copied().unwrap_or(false)
    }

    /// The drawing as plain segments for [`crossings`]: every vertex and copy a point (copies
    /// after the vertices, then the routes' bends), every edge its route's pieces.
    pub fn drawn(&self, edges: &[(usize, usize)]) -> (Vec<Point>, Vec<(usize, usize)>) {
        let mut points = self.at.clone();
        points.extend(self.copies.iter().map(|&(_, p)| p));
        let mut segments = Vec::new();
        for (k, &(a, b)) in edges.iter().enumerate() {
            match self.routes.get(k).and_then(Option::as_ref).filter(|r| r.len() >= 2) {
                None => segments.push((a, b)),
                Some(route) => {
                    // The route's ends are the vertices (or their copies), its bends new points.
                    let end = |p: Point, v: usize| {
                        if p == self.at[v] {
                            return v;
                        }
                        let copy = self.copies.iter().position(|&(c, q)| c == v && q == p);
                        copy.map_or(v, |c| self.at.len() + c)
                    };
                    let mut previous = end(route[0], a);
                    for &p in &route[1..route.len() - 1] {
                        points.push(p);
                        segments.push((previous, points.len() - 1));
                        previous = points.len() - 1;
                    }
                    segments.push((previous, end(route[route.len() - 1], b)));
                }
            }
        }
        (points, segments)
    }
}

/// Coordinates for vertices `0..n` with `edges` (loops and repeated edges ignored), scaled so
/// the larger side of the drawing is 1, in the unit square.
pub fn layout_edges(n: usize, edges: &[(usize, usize)]) -> Vec<Point> {
    let adj = adjacency(n, edges);
    let mut component = vec![usize::MAX; n];
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for s in 0..n {
        if component[s] != usize::MAX {
            continue;
        }
        let mut members = vec![s];
        component[s] = parts.len();
        let mut k = 0;
        while k < members.len() {
            for &u in &adj[members[k]] {
                if component[u] == usize::MAX {
                    component[u] = parts.len();
                    members.push(u);
                }
            }
            k += 1;
        }
        parts.push(members);
    }
    // Each component on its own, larger ones larger, left to right.
    let largest = parts.iter().map(Vec::len).max().unwrap_or(1) as f64;
    let mut at = vec![(0.0, 0.0); n];
    let mut left = 0.0;
    for members in &parts {
        let mut local = vec![usize::MAX; n];
        members.iter().enumerate().for_each(|(i, &v)| local[v] = i);
        let sub: Vec<Vec<usize>> =
            members.iter().map(|&v| adj[v].iter().map(|&u| local[u]).collect()).collect();
        let drawn = normalise(&component_layout(&sub));
        let scale = (members.len() as f64 / largest).sqrt().max(0.15);
        let width = drawn.iter().map(|p| p.0).fold(0.0, f64::max) * scale;
        for (i, &v) in members.iter().enumerate() {
            at[v] = (left + drawn[i].0 * scale, drawn[i].1 * scale);
        }
        left += width + 0.2 * scale.max(0.5);
    }
    normalise(&at)
}

/// Neighbour lists without loops or repeats.
fn adjacency(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a != b && a < n && b < n && !adj[a].contains(&b) {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    adj
}

fn edge_list(adj: &[Vec<usize>]) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for (v, near) in adj.iter().enumerate() {
        edges.extend(near.iter().filter(|&&u| v < u).map(|&u| (v, u)));
    }
    edges
}

/// Moved and scaled so the least coordinates are 0 and the larger side is 1.
fn normalise(at: &[Point]) -> Vec<Point> {
    let (min_x, max_x) = at.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (min_y, max_y) = at.iter().fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    let span = (max_x - min_x).max(max_y - min_y).max(1e-9);
    at.iter().map(|&(x, y)| ((x - min_x) / span, (y - min_y) / span)).collect()
}

/// One connected component.
fn component_layout(adj: &[Vec<usize>]) -> Vec<Point> {
    let n = adj.len();
    match n {
        0 => return Vec::new(),
        1 => return vec![(0.0, 0.0)],
        _ => {}
    }
    let m = adj.iter().map(Vec::len).sum::<usize>() / 2;
    if m + 1 == n {
        if adj.iter().all(|near| near.len() <= 2) {
            return path_layout(adj);
        }
        return tree_layout(adj);
    }
    if m == n && n > CIRCLE_MAX && adj.iter().all(|near| near.len() == 2) {
        return cycle_layout(adj);
    }
    if n > SEARCH_MAX_VERTICES || m > SEARCH_MAX_EDGES {
        return force_layout(adj, &circle(n), 300);
    }
    search(adj)
}

fn circle(n: usize) -> Vec<Point> {
    (0..n)
        .map(|v| {
            let angle = std::f64::consts::TAU * v as f64 / n as f64;
            (0.5 + 0.45 * angle.cos(), 0.5 + 0.45 * angle.sin())
        })
        .collect()
}

/// The vertices of a path or cycle in order along it, from `start`.
fn along(adj: &[Vec<usize>], start: usize) -> Vec<usize> {
    let mut order = vec![start];
    let (mut previous, mut current) = (usize::MAX, start);
    while let Some(&next) = adj[current].iter().find(|&&u| u != previous && u != start) {
        order.push(next);
        (previous, current) = (current, next);
    }
    order
}

/// Rows of a wrapped path or cycle are this many columns apart (room for names between rows).
const ROW_STEP: f64 = 1.25;

/// Columns for `n` vertices in rows: about twice as wide as high.
fn columns(n: usize) -> usize {
    ((2.0 * ROW_STEP * n as f64).sqrt().ceil() as usize).max(4)
}

fn path_layout(adj: &[Vec<usize>]) -> Vec<Point> {
    let n = adj.len();
    let start = (0..n).find(|&v| adj[v].len() <= 1).unwrap_or(0);
    let order = along(adj, start);
    let mut at = vec![(0.0, 0.0); n];
    if n <= LINE_MAX {
        for (k, &v) in order.iter().enumerate() {
            at[v] = (k as f64 / (n.max(2) - 1) as f64, 0.0);
        }
        return at;
    }
    // A boustrophedon: left to right, one step down, right to left, ...
    let c = columns(n);
    for (k, &v) in order.iter().enumerate() {
        let (row, col) = (k / c, k % c);
        let col = if row % 2 == 0 { col } else { c - 1 - col };
        at[v] = (col as f64, row as f64 * ROW_STEP);
    }
    normalise(&at)
}

/// A long cycle as a snake over an even number of rows in columns 1.., closed by a spine up
/// column 0: every edge one step (one a double step when the cycle is odd), none crossing.
fn cycle_layout(adj: &[Vec<usize>]) -> Vec<Point> {
    let n = adj.len();
    let order = along(adj, 0);
    // Columns and rows (even) with room for n cells, the last two rows shortened by the cells
    // to spare (two a column), keeping at least one column in them.
    let mut c = columns(n);
    let (rows, spare) = loop {
        let rows = n.div_ceil(c).max(2).next_multiple_of(2);
        let spare = rows * c - n;
        if spare / 2 + 2 <= c {
            break (rows, spare);
        }
        c += 1;
    };
    let short = spare / 2;
    let mut cells: Vec<(usize, usize)> = Vec::with_capacity(rows * c);
    for row in 0..rows {
        let last = if row + 2 >= rows { c - 1 - short } else { c - 1 };
        if row == 0 {
            cells.extend((0..=last).map(|col| (row, col)));
        } else if row % 2 == 0 {
            cells.extend((1..=last).map(|col| (row, col)));
        } else {
            cells.extend((1..=last).rev().map(|col| (row, col)));
        }
    }
    // The spine, bottom to top (row 0's cell is the start); an odd cycle skips one of its cells.
    let skip = if spare % 2 == 1 { rows / 2 } else { usize::MAX };
    cells.extend((1..rows).rev().filter(|&row| row != skip).map(|row| (row, 0)));
    let mut at = vec![(0.0, 0.0); n];
    for (&v, &(row, col)) in order.iter().zip(&cells) {
        at[v] = (col as f64, row as f64 * ROW_STEP);
    }
    normalise(&at)
}

/// Breadth-first distances from `from` (`usize::MAX` where unreached).
fn distances(adj: &[Vec<usize>], from: usize) -> Vec<usize> {
    let mut d = vec![usize::MAX; adj.len()];
    d[from] = 0;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for &u in &adj[v] {
            if d[u] == usize::MAX {
                d[u] = d[v] + 1;
                queue.push_back(u);
            }
        }
    }
    d
}

/// The vertex a tree's drawing starts from: one of least eccentricity (two BFS sweeps find a
/// diameter's middle).
fn tree_centre(adj: &[Vec<usize>]) -> usize {
    let n = adj.len();
    let far = |from: usize| {
        let d = distances(adj, from);
        (0..n).max_by_key(|&v| d[v]).unwrap_or(0)
    };
    let a = far(0);
    let b = far(a);
    let (da, db) = (distances(adj, a), distances(adj, b));
    (0..n).min_by_key(|&v| da[v].max(db[v])).unwrap_or(0)
}

/// When vertices `0..n` with `edges` are one tree that [`layout_edges`] draws as a tree (in
/// layers or rings, not a path on a line): the vertex its drawing starts from (the layers' top,
/// the rings' centre), found as [`layout_edges`] finds it. The collapsed overview of a large
/// tree ([`crate::base::tree_overview`]) hangs its depths from it.
pub fn tree_root(n: usize, edges: &[(usize, usize)]) -> Option<usize> {
    let adj = adjacency(n, edges);
    let m = adj.iter().map(Vec::len).sum::<usize>() / 2;
    if n < 3 || m + 1 != n || adj.iter().all(|near| near.len() <= 2) {
        return None;
    }
    // The component's own numbering, as `layout_edges` makes it (breadth first from 0).
    let mut members = vec![0];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut k = 0;
    while k < members.len() {
        for &u in &adj[members[k]] {
            if !seen[u] {
                seen[u] = true;
                members.push(u);
            }
        }
        k += 1;
    }
    if members.len() != n {
        return None;
    }
    let mut local = vec![0; n];
    members.iter().enumerate().for_each(|(i, &v)| local[v] = i);
    let sub: Vec<Vec<usize>> =
        members.iter().map(|&v| adj[v].iter().map(|&u| local[u]).collect()).collect();
    Some(members[tree_centre(&sub)])
}

/// Breadth-first distances from `root` in the graph of `n` vertices with `edges`.
pub fn depths(n: usize, edges: &[(usize, usize)], root: usize) -> Vec<usize> {
    distances(&adjacency(n, edges), root)
}

/// A tree in layers from a centre vertex; each subtree's x-range inside its parent's, so no two
/// edges cross.
fn tree_layout(adj: &[Vec<usize>]) -> Vec<Point> {
    let n = adj.len();
    let root = tree_centre(adj);
    let depth = distances(adj, root);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&v| depth[v]);
    let mut parent = vec![usize::MAX; n];
    for &v in &order {
        for &u in &adj[v] {
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
    // Layers about three leaf widths apart, so that a bushy tree is drawn wide, not tall; more
    // than three times as wide as high (more leaves than nine a level) is a strip on a page:
    // rings instead, unless a wedge would pass a half-turn (then an edge could leave it).
    if leaves[root] as f64 > 9.0 * height {
        if let Some(at) = radial_tree(adj, &order, &parent, &leaves, &depth, root) {
            return at;
        }
    }
    let layer = (1.0 / height).min(3.0 / leaves[root].max(1) as f64);
    let mut span = vec![(0.0, 1.0); n];
    let mut at = vec![(0.5, 0.0); n];
    for &v in &order {
        let (left, right) = span[v];
        at[v] = ((left + right) / 2.0, depth[v] as f64 * layer);
        let mut cursor = left;
        for &u in adj[v].iter().filter(|&&u| parent[u] == v) {
            let width = (right - left) * leaves[u] as f64 / leaves[v].max(1) as f64;
            span[u] = (cursor, cursor + width);
            cursor += width;
        }
    }
    at
}

/// A tree in rings around `root`: each vertex in a wedge in proportion to its leaves (its
/// children's wedges side by side inside it), at the wedge's middle on the ring of its depth;
/// the rings evenly spaced, the outermost as small as keeps every two vertices on one ring a
/// unit apart. `None` when a non-root wedge passes a half-turn (a wedge at most a half-turn is
/// convex, so the edges inside it stay inside it and cross none outside).
fn radial_tree(
    adj: &[Vec<usize>],
    order: &[usize],
    parent: &[usize],
    leaves: &[usize],
    depth: &[usize],
    root: usize,
) -> Option<Vec<Point>> {
    use std::f64::consts::{FRAC_PI_2, PI, TAU};
    let n = adj.len();
    let mut wedge = vec![(0.0, TAU); n];
    let mut angle = vec![0.0; n];
    // The first child's wedge starts at the top less half a share: a k-ary tree symmetric.
    let first = adj[root].iter().find(|&&u| parent[u] == root).map_or(1, |&u| leaves[u]);
    let turn = -FRAC_PI_2 - PI * first as f64 / leaves[root].max(1) as f64;
    wedge[root] = (turn, turn + TAU);
    for &v in order {
        let (lo, hi) = wedge[v];
        angle[v] = (lo + hi) / 2.0;
        if v != root && hi - lo > PI + 1e-9 {
            return None;
        }
        let mut cursor = lo;
        for &u in adj[v].iter().filter(|&&u| parent[u] == v) {
            let share = (hi - lo) * leaves[u] as f64 / leaves[v].max(1) as f64;
            wedge[u] = (cursor, cursor + share);
            cursor += share;
        }
    }
    // Each ring's least angle between neighbours, and the radius that makes it a unit chord.
    let height = depth.iter().copied().max().unwrap_or(1).max(1);
    let mut rings: Vec<Vec<f64>> = vec![Vec::new(); height + 1];
    for v in 0..n {
        rings[depth[v]].push(angle[v]);
    }
    let mut outer: f64 = height as f64;
    for (d, ring) in rings.iter_mut().enumerate().skip(1) {
        ring.sort_by(f64::total_cmp);
        let least = match ring.len() {
            0 | 1 => TAU,
            k => (0..k)
                .map(|i| if i + 1 < k { ring[i + 1] - ring[i] } else { ring[0] + TAU - ring[i] })
                .fold(TAU, f64::min),
        };
        let radius = 0.5 / (least.min(PI) / 2.0).sin().max(1e-9);
        outer = outer.max(radius * height as f64 / d as f64);
    }
    let at = (0..n)
        .map(|v| {
            let r = outer * depth[v] as f64 / height as f64;
            (r * angle[v].cos(), r * angle[v].sin())
        })
        .collect::<Vec<_>>();
    Some(normalise(&at))
}

/// Fruchterman-Reingold from `start`, a fixed number of rounds with a cooling step.
fn force_layout(adj: &[Vec<usize>], start: &[Point], rounds: usize) -> Vec<Point> {
    let n = adj.len();
    let mut at = normalise(start);
    let k = (1.0 / n as f64).sqrt();
    let edges = edge_list(adj);
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
        for &(v, u) in &edges {
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
    normalise(&at)
}

/// The candidates of a component with a cycle, the best by [`rank`].
fn search(adj: &[Vec<usize>]) -> Vec<Point> {
    let n = adj.len();
    let edges = edge_list(adj);
    let (core, parent) = peel(adj);
    let core_edges: Vec<(usize, usize)> =
        edges.iter().copied().filter(|&(a, b)| core[a] && core[b]).collect();
    let mut tried: Vec<Vec<usize>> = Vec::new();
    let mut candidates: Vec<Vec<Point>> = Vec::new();
    // Shortest cycles through up to eight edges spread over the core.
    let step = (core_edges.len() / 8).max(1);
    for &(a, b) in core_edges.iter().step_by(step).take(8) {
        if let Some(cycle) = shortest_cycle(adj, &core, a, b) {
            if !tried.iter().any(|c| same_cycle(c, &cycle)) {
                for polygon in [true, false] {
                    candidates.push(with_trees(
                        adj,
                        &core,
                        &parent,
                        &tutte(adj, &core, &cycle, polygon),
                    ));
                }
                tried.push(cycle);
            }
        }
    }
    // The largest faces of the best drawing so far as outer cycles.
    if let Some(best) = best_of(&candidates, &edges) {
        let mut faces = faces(adj, &core, &candidates[best]);
        faces.sort_by_key(|f| std::cmp::Reverse(f.len()));
        faces.retain(|f| !tried.iter().any(|c| same_cycle(c, f)));
        for face in faces.into_iter().take(3) {
            for polygon in [true, false] {
                candidates.push(with_trees(
                    adj,
                    &core,
                    &parent,
                    &tutte(adj, &core, &face, polygon),
                ));
            }
            tried.push(face);
        }
    }
    let best_tutte = best_of(&candidates, &edges).map(|b| candidates[b].clone());
    // The core force-directed, its trees radial: compact where many leaves hang off a core.
    let members: Vec<usize> = (0..n).filter(|&v| core[v]).collect();
    if members.len() < n {
        let mut local = vec![usize::MAX; n];
        members.iter().enumerate().for_each(|(i, &v)| local[v] = i);
        let sub: Vec<Vec<usize>> = members
            .iter()
            .map(|&v| adj[v].iter().filter(|&&u| core[u]).map(|&u| local[u]).collect())
            .collect();
        let drawn = force_layout(&sub, &circle(sub.len()), 300);
        let mut at = vec![(0.0, 0.0); n];
        members.iter().enumerate().for_each(|(i, &v)| at[v] = drawn[i]);
        candidates.push(with_trees(adj, &core, &parent, &at));
    }
    candidates.push(force_layout(adj, &circle(n), 300));
    if let Some(start) = best_tutte {
        candidates.push(force_layout(adj, &start, 120));
    }
    if n <= MULTI_START_MAX {
        let mut rng = Rng::new(0x5eed);
        for _ in 0..3 {
            let start: Vec<Point> = (0..n)
                .map(|_| {
                    (
                        rng.below(1 << 20) as f64 / (1 << 20) as f64,
                        rng.below(1 << 20) as f64 / (1 << 20) as f64,
                    )
                })
                .collect();
            candidates.push(force_layout(adj, &start, 300));
        }
    }
    let best = best_of(&candidates, &edges).unwrap_or(0);
    candidates.swap_remove(best)
}

/// The index of the best candidate: fewest crossings among the uncrowded and not elongated, then
/// the closest pair farthest apart for the drawing's area.
fn best_of(candidates: &[Vec<Point>], edges: &[(usize, usize)]) -> Option<usize> {
    let ranks: Vec<(bool, usize, f64)> = candidates
        .iter()
        .map(|c| {
            let c = normalise(c);
            let closest = closest_pair(&c);
            let (w, h) = c.iter().fold((0.0_f64, 0.0_f64), |(w, h), p| (w.max(p.0), h.max(p.1)));
            // A drawing more than twice as long as it is wide reads badly on a page (a
            // few long edges stretch it): it ranks with the crowded ones.
            let elongated = w.max(h) > 2.0 * w.min(h).max(1e-9);
            let crowded = closest < 0.1 / (c.len() as f64).sqrt() || elongated;
            // The closest pair against the drawing's size: how small the picture can be.
            (crowded, crossings(&c, edges), closest / (w * h).sqrt().max(1e-9))
        })
        .collect();
    (0..candidates.len()).min_by(|&i, &j| {
        let (a, b) = (ranks[i], ranks[j]);
        (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2))
    })
}

fn closest_pair(at: &[Point]) -> f64 {
    let mut closest = f64::MAX;
    for (i, p) in at.iter().enumerate() {
        for q in &at[i + 1..] {
            closest = closest.min((p.0 - q.0).hypot(p.1 - q.1));
        }
    }
    closest
}

/// The 2-core (trees hanging off it peeled leaf by leaf) and each peeled vertex's parent, the
/// neighbour it hung from.
fn peel(adj: &[Vec<usize>]) -> (Vec<bool>, Vec<usize>) {
    let n = adj.len();
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut core = vec![true; n];
    let mut parent = vec![usize::MAX; n];
    let mut leaves: Vec<usize> = (0..n).filter(|&v| degree[v] == 1).collect();
    while let Some(v) = leaves.pop() {
        core[v] = false;
        if let Some(&u) = adj[v].iter().find(|&&u| core[u]) {
            parent[v] = u;
            degree[u] -= 1;
            if degree[u] == 1 {
                leaves.push(u);
            }
        }
    }
    (core, parent)
}

/// The shortest cycle of the core through the edge `a-b`: a shortest path from `a` to `b` not
/// using the edge.
fn shortest_cycle(adj: &[Vec<usize>], core: &[bool], a: usize, b: usize) -> Option<Vec<usize>> {
    let mut from = vec![usize::MAX; adj.len()];
    from[a] = a;
    let mut queue = std::collections::VecDeque::from([a]);
    while let Some(v) = queue.pop_front() {
        for &u in &adj[v] {
            if !core[u] || from[u] != usize::MAX || (v == a && u == b) {
                continue;
            }
            from[u] = v;
            if u == b {
                let mut cycle = vec![b];
                let mut x = b;
                while x != a {
                    x = from[x];
                    cycle.push(x);
                }
                return Some(cycle);
            }
            queue.push_back(u);
        }
    }
    None
}

fn same_cycle(a: &[usize], b: &[usize]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Tutte's barycentric drawing of the core: `outer` on a convex polygon, every other core vertex
/// at the mean of its core neighbours (Gauss-Seidel until it settles). Peeled vertices are left at 0.
fn tutte(adj: &[Vec<usize>], core: &[bool], outer: &[usize], polygon: bool) -> Vec<Point> {
    let n = adj.len();
    let mut at = vec![(0.5, 0.5); n];
    let mut fixed = vec![false; n];
    // The outer cycle on a regular polygon whose corners are its vertices of core degree 2 (a
    // grid's corners: a grid is drawn square), on a circle when fewer than three are.
    let core_degree = |v: usize| adj[v].iter().filter(|&&u| core[u]).count();
    let corners: Vec<usize> = (0..outer.len()).filter(|&k| core_degree(outer[k]) == 2).collect();
    let corner = |j: usize, k: usize| {
        let angle = std::f64::consts::TAU * j as f64 / k as f64
            - std::f64::consts::FRAC_PI_2
            - std::f64::consts::PI / k as f64;
        (0.5 + 0.5 * angle.cos(), 0.5 + 0.5 * angle.sin())
    };
    if polygon && corners.len() >= 3 {
        let k = corners.len();
        let side = |j: usize| {
            let steps = (corners[(j + 1) % k] + outer.len() - corners[j]) % outer.len();
            if steps == 0 {
                outer.len()
            } else {
                steps
            }
        };
        // Four corners: a rectangle as long as its sides' paths (a grid's cells square).
        let (wide, high) = (side(0).max(side(2)) as f64, side(1).max(side(3 % k)) as f64);
        let corner = |j: usize, k: usize| {
            if k == 4 {
                [(0.0, 0.0), (wide, 0.0), (wide, high), (0.0, high)][j % 4]
            } else {
                corner(j, k)
            }
        };
        for (j, &from) in corners.iter().enumerate() {
            let steps = side(j);
            let (a, b) = (corner(j, k), corner(j + 1, k));
            for s in 0..steps {
                let t = s as f64 / steps as f64;
                let v = outer[(from + s) % outer.len()];
                at[v] = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1));
            }
        }
        outer.iter().for_each(|&v| fixed[v] = true);
    } else {
        for (k, &v) in outer.iter().enumerate() {
            let angle = std::f64::consts::TAU * k as f64 / outer.len() as f64;
            at[v] = (0.5 + 0.5 * angle.cos(), 0.5 + 0.5 * angle.sin());
            fixed[v] = true;
        }
    }
    for _ in 0..5000 {
        let mut moved: f64 = 0.0;
        for v in (0..n).filter(|&v| core[v] && !fixed[v]) {
            let near: Vec<usize> = adj[v].iter().copied().filter(|&u| core[u]).collect();
            let k = near.len().max(1) as f64;
            let x = near.iter().map(|&u| at[u].0).sum::<f64>() / k;
            let y = near.iter().map(|&u| at[u].1).sum::<f64>() / k;
            moved = moved.max((x - at[v].0).abs() + (y - at[v].1).abs());
            at[v] = (x, y);
        }
        if moved < 1e-9 {
            break;
        }
    }
    at
}

/// The peeled trees added to a drawing of the core: each drawn radially from its root into the
/// widest angle between the root's core edges, every level one step further out.
fn with_trees(adj: &[Vec<usize>], core: &[bool], parent: &[usize], at: &[Point]) -> Vec<Point> {
    let n = adj.len();
    let mut at = at.to_vec();
    let mut children = vec![Vec::new(); n];
    for v in 0..n {
        if !core[v] && parent[v] != usize::MAX {
            children[parent[v]].push(v);
        }
    }
    let mut leaves = vec![0usize; n];
    let mut height = vec![0usize; n];
    fn count(v: usize, children: &[Vec<usize>], leaves: &mut [usize], height: &mut [usize]) {
        // Iterative post-order, so a long hanging path cannot overflow the stack.
        let mut stack = vec![(v, false)];
        while let Some((x, done)) = stack.pop() {
            if done {
                leaves[x] = children[x].iter().map(|&c| leaves[c]).sum::<usize>().max(1);
                height[x] = children[x].iter().map(|&c| height[c] + 1).max().unwrap_or(0);
            } else {
                stack.push((x, true));
                stack.extend(children[x].iter().map(|&c| (c, false)));
            }
        }
    }
    for root in (0..n).filter(|&r| core[r] && !children[r].is_empty()) {
        count(root, &children, &mut leaves, &mut height);
        let here = at[root];
        let mut angles: Vec<f64> = adj[root]
            .iter()
            .filter(|&&u| core[u])
            .map(|&u| (at[u].1 - here.1).atan2(at[u].0 - here.0))
            .collect();
        angles.sort_by(f64::total_cmp);
        // The widest gap between consecutive core edges around the root.
        let (mut from, mut gap) = (0.0, std::f64::consts::TAU);
        for (k, &a) in angles.iter().enumerate() {
            let next = if k + 1 < angles.len() {
                angles[k + 1]
            } else {
                angles[0] + std::f64::consts::TAU
            };
            if k == 0 || next - a > gap {
                (from, gap) = (a, next - a);
            }
        }
        if angles.len() == 1 {
            gap = std::f64::consts::TAU;
        }
        let width = (0.7 * gap).min(0.8 * std::f64::consts::PI);
        let centre = from + gap / 2.0;
        let nearest = (0..n)
            .filter(|&u| core[u] && u != root)
            .map(|u| (at[u].0 - here.0).hypot(at[u].1 - here.1))
            .fold(f64::MAX, f64::min);
        // Short enough to stay near the root, long enough that many leaves are not crowded
        // (the drawing's spread is about 1).
        let spread = 0.2 / (n as f64).sqrt() * leaves[root] as f64 / width.max(0.1);
        let step = (0.45 * nearest.min(1.0) / height[root].max(1) as f64).max(spread);
        // Each subtree gets a slice of the wedge in proportion to its leaves.
        let mut stack = vec![(root, centre - width / 2.0, centre + width / 2.0, 0usize)];
        while let Some((v, lo, hi, depth)) = stack.pop() {
            if v != root {
                let angle = (lo + hi) / 2.0;
                let r = step * depth as f64;
                at[v] = (here.0 + r * angle.cos(), here.1 + r * angle.sin());
            }
            let mut cursor = lo;
            for &c in &children[v] {
                let share = (hi - lo) * leaves[c] as f64 / leaves[v].max(1) as f64;
                stack.push((c, cursor, cursor + share, depth + 1));
                cursor += share;
            }
        }
    }
    at
}

/// The faces of a drawing of the core that are simple cycles: each dart followed around its
/// face by turning to the next edge in angular order at every vertex.
fn faces(adj: &[Vec<usize>], core: &[bool], at: &[Point]) -> Vec<Vec<usize>> {
    let n = adj.len();
    let rotation: Vec<Vec<usize>> = (0..n)
        .map(|v| {
            let mut near: Vec<usize> = adj[v].iter().copied().filter(|&u| core[u]).collect();
            let angle = |u: usize| (at[u].1 - at[v].1).atan2(at[u].0 - at[v].0);
            near.sort_by(|&a, &b| angle(a).total_cmp(&angle(b)));
            near
        })
        .collect();
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for v in (0..n).filter(|&v| core[v]) {
        for &u in &rotation[v] {
            if seen.contains(&(v, u)) {
                continue;
            }
            let mut face = Vec::new();
            let (mut a, mut b) = (v, u);
            while seen.insert((a, b)) && face.len() <= n {
                face.push(a);
                // At b, the edge after the one back to a, in angular order.
                let around = &rotation[b];
                let k = around.iter().position(|&x| x == a).unwrap_or(0);
                let c = around[(k + around.len() - 1) % around.len()];
                (a, b) = (b, c);
            }
            let mut distinct = face.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if face.len() >= 3 && distinct.len() == face.len() {
                out.push(face);
            }
        }
    }
    out
}

/// How many pairs of edges of the drawing cross or overlap, plus how many times a vertex lies
/// on an edge not its own: 0 for a drawing a person reads without doubt.
pub fn crossings(at: &[Point], edges: &[(usize, usize)]) -> usize {
    let edges: Vec<(usize, usize)> = edges.iter().copied().filter(|&(a, b)| a != b).collect();
    let span = at.iter().fold(0.0_f64, |s, p| s.max(p.0.abs()).max(p.1.abs())).max(1e-9);
    let eps = 1e-9 * span * span;
    let orient = |p: Point, q: Point, r: Point| {
        let o = (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0);
        if o.abs() <= eps {
            0
        } else if o > 0.0 {
            1
        } else {
            -1
        }
    };
    // Whether r, collinear with p and q, lies strictly between them.
    let between = |p: Point, q: Point, r: Point| {
        let d = (r.0 - p.0) * (q.0 - p.0) + (r.1 - p.1) * (q.1 - p.1);
        let l = (q.0 - p.0).powi(2) + (q.1 - p.1).powi(2);
        d > eps && d < l - eps
    };
    let mut count = 0;
    for (i, &(a, b)) in edges.iter().enumerate() {
        let (p1, p2) = (at[a], at[b]);
        for &(c, d) in &edges[i + 1..] {
            let (q1, q2) = (at[c], at[d]);
            if p1.0.max(p2.0) < q1.0.min(q2.0) - 1e-12
                || q1.0.max(q2.0) < p1.0.min(p2.0) - 1e-12
                || p1.1.max(p2.1) < q1.1.min(q2.1) - 1e-12
                || q1.1.max(q2.1) < p1.1.min(p2.1) - 1e-12
            {
                continue;
            }
            let shared = [a, b].iter().any(|x| *x == c || *x == d);
            let (o1, o2) = (orient(p1, p2, q1), orient(p1, p2, q2));
            let (o3, o4) = (orient(q1, q2, p1), orient(q1, q2, p2));
            if shared {
                // Two edges at one vertex meet only there, unless they overlap.
                let overlap = o1 == 0
                    && o2 == 0
                    && (between(p1, p2, q1)
                        || between(p1, p2, q2)
                        || between(q1, q2, p1)
                        || between(q1, q2, p2));
                count += usize::from(overlap);
            } else if o1 * o2 < 0 && o3 * o4 < 0 {
                count += 1;
            } else if o1 == 0 && o2 == 0 {
                let overlap = between(p1, p2, q1)
                    || between(p1, p2, q2)
                    || between(q1, q2, p1)
                    || between(q1, q2, p2);
                count += usize::from(overlap);
            }
        }
    }
    for (v, &p) in at.iter().enumerate() {
        for &(a, b) in &edges {
            if v != a && v != b && orient(at[a], at[b], p) == 0 && between(at[a], at[b], p) {
                count += 1;
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossings_are_counted() {
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)];
        assert_eq!(crossings(&square, &[(0, 1), (1, 2), (2, 3), (3, 0)]), 0);
        assert_eq!(crossings(&square, &[(0, 2), (1, 3)]), 1);
        // A vertex on an edge not its own, and two overlapping edges at one vertex.
        let line = [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)];
        assert_eq!(crossings(&line, &[(0, 2)]), 1);
        assert_eq!(crossings(&line, &[(0, 1), (0, 2)]), 2);
    }

    /// The Petersen graph: the outer 5-cycle, the spokes, the inner pentagram.
    fn petersen() -> Vec<(usize, usize)> {
        let mut edges: Vec<(usize, usize)> = (0..5).map(|i| (i, (i + 1) % 5)).collect();
        edges.extend((0..5).map(|i| (i, i + 5)));
        edges.extend((0..5).map(|i| (i + 5, (i + 2) % 5 + 5)));
        edges
    }

    #[test]
    fn the_search_beats_one_force_layout_on_the_petersen_graph() {
        let edges = petersen();
        let adj = adjacency(10, &edges);
        // The layout before the search: one force-directed drawing from a circle.
        let before = crossings(&force_layout(&adj, &circle(10), 300), &edges);
        let now = crossings(&layout_edges(10, &edges), &edges);
        println!("Petersen crossings: {before} before, {now} now");
        assert!(now < before, "{now} crossings, not fewer than {before}");
    }

    #[test]
    fn a_wheel_is_drawn_with_its_hub_inside() {
        let mut edges: Vec<(usize, usize)> = (1..9).map(|v| (0, v)).collect();
        edges.extend((1..9).map(|v| (v, v % 8 + 1)));
        let at = layout_edges(9, &edges);
        assert_eq!(crossings(&at, &edges), 0);
    }
}

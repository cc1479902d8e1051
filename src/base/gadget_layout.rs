//! Where the pictures of the papers' reductions put their vertices: as the paper draws them,
//! gadget by gadget, instead of a generic layout (a force layout of Theorem 3's graph is a
//! hairball with its clause edges crossing everything).
//!
//! A reduction's graph is recognised by its vertex names, every one accounted for: the names
//! the constructions give (`certificates/src/voronoi/sat_reduction.rs`, whose `names` module
//! the reductions crate uses, and `reductions/src/posdnf_voronoi.rs`), and exactly the number
//! of vertices the construction makes for its n and m. A graph that merely uses some of these
//! names is drawn by the generic layout. The edges are drawn as they are: the layout only
//! places the vertices, so a graph with these names and other edges is still drawn truly.
//!
//! - **Theorem 3** (`sat-voronoi1`, `sat-voronoi2`; Figure 3 of seed 001): the variable gadgets
//!   in a row, each its z's over its y's over `x_i+` (under `y_i.1`) and `x_i-` (under
//!   `y_i.3`); the clause vertices `c_j` below at the mean of their literals, `c_j'` under
//!   them; `u` above the row with its edges to the z's in a fan high enough to clear every z,
//!   its pendants `p_k` on two staggered arcs above it; and, as in the paper ("two white large
//!   diamonds are the same vertex u"), `u` drawn a second time under the clause row, where its
//!   edges to the `c_j'` end. Every edge at `u` is drawn light. The only crossings are the
//!   three each gadget's K(2,3) makes between its y row and its x row (with `u` it is a
//!   subdivided K(3,3): some crossing is unavoidable) and those of the clause edges among
//!   themselves (the formula's).
//! - **Theorem 4** (`posdnf-voronoi`; Figure 4): the variables' clique `x_i` on an arc (its
//!   edges, light, are chords inside it), each `x_i`'s 2n pendants small on a fan outward with
//!   their count written (the paper writes the count in one circle); the terms `d_j` below at
//!   the mean of their variables; `u2` under them (low enough that the term edges come in
//!   steep), `u1` beside it, their 3n pendants fanned out below to either side. Pendant and clique edges are drawn light; the term edges cross only
//!   the clique's chords and each other.
//!
//! Coordinates are pixels ([`Layout::scale`] 1): the gadgets are laid out at the size they are
//! read, and the picture is as large as the formula needs (a viewBox lets a page zoom).

use crate::base::graph_layout::{layout_edges, Layout, Point};
use std::collections::HashMap;

/// The vertices' radius in a gadget drawing, and the pendants' (drawn small, unnamed).
const RADIUS: f64 = 9.0;

/// A positive decimal number without sign or leading zero.
fn number(text: &str) -> Option<usize> {
    let ok = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    ok.then(|| text.parse().ok()).flatten().filter(|&k| k > 0)
}

/// `a.b` as two numbers.
fn pair(text: &str) -> Option<(usize, usize)> {
    let (a, b) = text.split_once('.')?;
    Some((number(a)?, number(b)?))
}

/// The layout of a graph with its vertices' `names`: a reduction's graph by its gadgets
/// ([`recognise`]), any other by [`layout_edges`]. (Here, not in graph_layout.rs, so that
/// the generic layouts do not depend on the reductions' names.)
pub fn layout_graph(names: &[String], edges: &[(usize, usize)]) -> Layout {
    if let Some(layout) = recognise(names, edges) {
        return layout;
    }
    Layout::plain(layout_edges(names.len(), edges))
}

/// A reduction's graph laid out by its gadgets, or `None` when the names are not exactly one of
/// the constructions'.
pub fn recognise(names: &[String], edges: &[(usize, usize)]) -> Option<Layout> {
    sat_voronoi(names, edges).or_else(|| posdnf_voronoi(names, edges))
}

/// A vertex of Theorem 3's construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Sat {
    U,
    Positive(usize),
    Negative(usize),
    Y(usize, usize),
    Z(usize, usize),
    Clause(usize),
    Twin(usize),
    Pendant(usize),
}

fn sat_role(name: &str) -> Option<Sat> {
    if name == "u" {
        return Some(Sat::U);
    }
    if let Some(rest) = name.strip_prefix('x') {
        if let Some(i) = rest.strip_suffix('+') {
            return number(i).map(Sat::Positive);
        }
        return rest.strip_suffix('-').and_then(number).map(Sat::Negative);
    }
    if let Some(rest) = name.strip_prefix('y') {
        return pair(rest).filter(|&(_, j)| j <= 3).map(|(i, j)| Sat::Y(i, j));
    }
    if let Some(rest) = name.strip_prefix('z') {
        return pair(rest).filter(|&(_, j)| j <= 3).map(|(i, j)| Sat::Z(i, j));
    }
    if let Some(rest) = name.strip_prefix('c') {
        if let Some(j) = rest.strip_suffix('\'') {
            return number(j).map(Sat::Twin);
        }
        return number(rest).map(Sat::Clause);
    }
    name.strip_prefix('p').and_then(number).map(Sat::Pendant)
}

/// The least horizontal spacing of the clause row, and the gadgets' own spacings.
const CLAUSE_GAP: f64 = 64.0;
const Y_GAP: f64 = 46.0;
const GADGET_GAP: f64 = 36.0;
/// How far a fan's apex must sit above (or below) its row for its outermost edge to clear the
/// second outermost vertex by a stone and a gap: the apex height over the half width, per
/// pixel of spacing.
const CLEARANCE: f64 = RADIUS + 7.0;

/// Spreads `wanted` positions (in the order of their indices' `wanted` values) at least `gap`
/// apart, as near their wishes as a forward sweep keeps them, centred on their wishes' mean.
fn spread(wanted: &[f64], gap: f64) -> Vec<f64> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by(|&a, &b| wanted[a].total_cmp(&wanted[b]).then(a.cmp(&b)));
    let mut at = vec![0.0; wanted.len()];
    let mut last = f64::MIN;
    for &k in &order {
        at[k] = wanted[k].max(last + gap);
        last = at[k];
    }
    if !at.is_empty() {
        let shift = (wanted.iter().sum::<f64>() - at.iter().sum::<f64>()) / at.len() as f64;
        at.iter_mut().for_each(|x| *x += shift);
    }
    at
}

/// The height a fan's apex needs over a row of `xs` (any order) whose apex is at `apex_x`.
fn fan_height(xs: &[f64], apex_x: f64, least: f64) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let gap = sorted.windows(2).map(|w| w[1] - w[0]).fold(f64::MAX, f64::min);
    let reach = xs.iter().map(|x| (x - apex_x).abs()).fold(0.0, f64::max);
    if gap == f64::MAX || gap <= 0.0 {
        return least;
    }
    (CLEARANCE * reach / gap).max(least)
}

/// `count` points on an arc around `centre` of `radius`, from angle `from` to `to` (radians,
/// y down as on the page), evenly; every second one `step` further out (two staggered arcs).
fn arc(centre: Point, radius: f64, from: f64, to: f64, count: usize, step: f64) -> Vec<Point> {
    (0..count)
        .map(|k| {
            let t = if count == 1 { 0.5 } else { k as f64 / (count - 1) as f64 };
            let angle = from + (to - from) * t;
            let r = radius + if k % 2 == 1 { step } else { 0.0 };
            (centre.0 + r * angle.cos(), centre.1 + r * angle.sin())
        })
        .collect()
}

/// Theorem 3's graph (Figure 3).
fn sat_voronoi(names: &[String], edges: &[(usize, usize)]) -> Option<Layout> {
    let roles: Vec<Sat> = names.iter().map(|name| sat_role(name)).collect::<Option<_>>()?;
    let n = roles
        .iter()
        .filter_map(|r| match r {
            Sat::Positive(i) => Some(*i),
            _ => None,
        })
        .max()?;
    let m = roles
        .iter()
        .filter_map(|r| match r {
            Sat::Clause(j) => Some(*j),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    // Every role in range and none twice, as many as the construction makes: exactly it.
    let in_range = |r: &Sat| match *r {
        Sat::U => true,
        Sat::Positive(i) | Sat::Negative(i) | Sat::Y(i, _) | Sat::Z(i, _) => i <= n,
        Sat::Clause(j) | Sat::Twin(j) => j <= m,
        Sat::Pendant(k) => k + 2 <= 2 * n,
    };
    let index: HashMap<Sat, usize> = roles.iter().enumerate().map(|(v, &r)| (r, v)).collect();
    if index.len() != roles.len()
        || !roles.iter().all(in_range)
        || roles.len() + 1 != 10 * n + 2 * m
    {
        return None;
    }
    let u = index[&Sat::U];
    let count = names.len();
    let mut at = vec![(0.0, 0.0); count];
    // The gadgets in a row: z over y, x+ under y.1, x- under y.3.
    let (z_row, y_row, x_row) = (0.0, 62.0, 132.0);
    let pitch = 2.0 * Y_GAP + GADGET_GAP + 2.0 * RADIUS;
    for i in 1..=n {
        let left = (i - 1) as f64 * pitch;
        for j in 1..=3 {
            let x = left + (j - 1) as f64 * Y_GAP;
            at[index[&Sat::Z(i, j)]] = (x, z_row);
            at[index[&Sat::Y(i, j)]] = (x, y_row);
        }
        at[index[&Sat::Positive(i)]] = (left, x_row);
        at[index[&Sat::Negative(i)]] = (left + 2.0 * Y_GAP, x_row);
    }
    let width = (n - 1) as f64 * pitch + 2.0 * Y_GAP;
    let centre = width / 2.0;
    // The clauses below, each at the mean of its literals, spread a clause gap apart.
    let mut near = vec![Vec::new(); count];
    for &(a, b) in edges {
        if a < count && b < count {
            near[a].push(b);
            near[b].push(a);
        }
    }
    let literal = |v: usize| matches!(roles[v], Sat::Positive(_) | Sat::Negative(_));
    let wanted: Vec<f64> = (1..=m)
        .map(|j| {
            let xs: Vec<f64> = near[index[&Sat::Clause(j)]]
                .iter()
                .filter(|&&v| literal(v))
                .map(|&v| at[v].0)
                .collect();
            if xs.is_empty() {
                centre
            } else {
                xs.iter().sum::<f64>() / xs.len() as f64
            }
        })
        .collect();
    let clause_x = spread(&wanted, CLAUSE_GAP);
    // Room for the clause edges to cross legibly: more for a wider drawing.
    let c_row = x_row + 150.0 + 0.08 * width;
    let twin_row = c_row + 62.0;
    for j in 1..=m {
        at[index[&Sat::Clause(j)]] = (clause_x[j - 1], c_row);
        at[index[&Sat::Twin(j)]] = (clause_x[j - 1], twin_row);
    }
    // u over the z row, high enough that its fan clears every z.
    let zs: Vec<f64> = (1..=n)
        .flat_map(|i| (1..=3).map(move |j| (i, j)))
        .map(|(i, j)| at[index[&Sat::Z(i, j)]].0)
        .collect();
    let u_at = (centre, z_row - fan_height(&zs, centre, 110.0));
    at[u] = u_at;
    // Its pendants on two staggered arcs above it.
    let pendants = 2 * n - 2;
    let radius = (pendants.div_ceil(2) as f64 * 34.0 / 2.8).max(56.0);
    // Two staggered arcs only when one would be crowded.
    let (radius, stagger) = if pendants > 8 { (radius, 30.0) } else { (56.0, 0.0) };
    let spots = arc(u_at, radius, -std::f64::consts::PI + 0.17, -0.17, pendants, stagger);
    for (k, &p) in spots.iter().enumerate() {
        at[index[&Sat::Pendant(k + 1)]] = p;
    }
    // u once more under the twins, its edges to them ending there.
    let mean = if m == 0 { centre } else { clause_x.iter().sum::<f64>() / m as f64 };
    let copy = (mean, twin_row + fan_height(&clause_x, mean, 100.0));
    let routes: Vec<Option<Vec<Point>>> = edges
        .iter()
        .map(|&(a, b)| {
            let twin = |v: usize| matches!(roles.get(v), Some(Sat::Twin(_)));
            if a == u && twin(b) {
                Some(vec![copy, at[b]])
            } else if b == u && twin(a) {
                Some(vec![at[a], copy])
            } else {
                None
            }
        })
        .collect();
    let light = edges.iter().map(|&(a, b)| a == u || b == u).collect();
    // The rows named at the left, as the paper's sets: Z, Y, X, C, C'.
    let left = clause_x.iter().copied().fold(0.0_f64, f64::min).min(0.0) - 46.0;
    let notes = [(z_row, "Z"), (y_row, "Y"), (x_row, "X±"), (c_row, "C"), (twin_row, "C′")]
        .into_iter()
        .filter(|&(_, name)| m > 0 || !name.starts_with('C'))
        .map(|(y, name)| ((left, y + 4.0), name.to_string()))
        .collect();
    Some(Layout {
        at,
        scale: Some(1.0),
        radius: Some(RADIUS),
        routes,
        copies: if m > 0 { vec![(u, copy)] } else { Vec::new() },
        small: Vec::new(),
        light,
        notes,
        all_named: true,
        kind: "gadgets: sat-voronoi (Theorem 3)".into(),
    })
}

/// A vertex of Theorem 4's construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Dnf {
    X(usize),
    Term(usize),
    U(usize),
    XPendant(usize, usize),
    UPendant(usize, usize),
}

fn dnf_role(name: &str) -> Option<Dnf> {
    if let Some(rest) = name.strip_prefix('x') {
        return match rest.split_once(".p") {
            Some((i, k)) => Some(Dnf::XPendant(number(i)?, number(k)?)),
            None => number(rest).map(Dnf::X),
        };
    }
    if let Some(rest) = name.strip_prefix('u') {
        return match rest.split_once(".p") {
            Some((i, k)) => Some(Dnf::UPendant(number(i).filter(|&i| i <= 2)?, number(k)?)),
            None => number(rest).filter(|&i| i <= 2).map(Dnf::U),
        };
    }
    name.strip_prefix('d').and_then(number).map(Dnf::Term)
}

/// A fan's pendants are spaced this far apart on their arc.
const PENDANT_STEP: f64 = 11.0;
/// The opening of a variable's fan and of `u1`'s and `u2`'s (narrower: the term edges come
/// into `u2` from above), radians.
const X_FAN: f64 = 2.45;
const U_FAN: f64 = 1.9;

/// `pendants` small on a fan around `centre`, opening `opening` radians toward the angle
/// `toward`, their count written beyond it.
fn fan(
    at: &mut [Point],
    small: &mut [bool],
    notes: &mut Vec<(Point, String)>,
    (centre, toward, opening): (Point, f64, f64),
    pendants: &[usize],
) {
    let radius = (pendants.len() as f64 * PENDANT_STEP / opening).max(34.0);
    let from = toward - opening / 2.0;
    let spots = arc(centre, radius, from, toward + opening / 2.0, pendants.len(), 0.0);
    for (&p, &spot) in pendants.iter().zip(&spots) {
        at[p] = spot;
        small[p] = true;
    }
    let r = radius + 16.0;
    let spot = (centre.0 + r * toward.cos(), centre.1 + r * toward.sin() + 4.0);
    notes.push((spot, format!("×{}", pendants.len())));
}

/// Theorem 4's graph (Figure 4).
fn posdnf_voronoi(names: &[String], edges: &[(usize, usize)]) -> Option<Layout> {
    let roles: Vec<Dnf> = names.iter().map(|name| dnf_role(name)).collect::<Option<_>>()?;
    let n = roles.iter().filter(|r| matches!(r, Dnf::X(_))).count();
    let m = roles.iter().filter(|r| matches!(r, Dnf::Term(_))).count();
    let in_range = |r: &Dnf| match *r {
        Dnf::X(i) => i <= n,
        Dnf::Term(j) => j <= m,
        Dnf::U(_) => true,
        Dnf::XPendant(i, k) => i <= n && k <= 2 * n,
        Dnf::UPendant(_, k) => k <= 3 * n,
    };
    let index: HashMap<Dnf, usize> = roles.iter().enumerate().map(|(v, &r)| (r, v)).collect();
    if n == 0
        || index.len() != roles.len()
        || !roles.iter().all(in_range)
        || roles.len() != 2 * n * n + 7 * n + m + 2
    {
        return None;
    }
    let count = names.len();
    let mut at = vec![(0.0, 0.0); count];
    let mut small = vec![false; count];
    let mut notes = Vec::new();
    // The clique on an arc: neighbours a fan's width apart.
    let x_fan = (2.0 * n as f64 * PENDANT_STEP / X_FAN).max(34.0);
    let pitch = 2.0 * x_fan + 40.0;
    let opening = (0.38 * (n - 1) as f64).min(1.9);
    let step = if n > 1 { opening / (n - 1) as f64 } else { 0.0 };
    let dome = if n > 1 { pitch / (2.0 * (step / 2.0).sin()) } else { 0.0 };
    let mut xs = vec![0.0; n + 1];
    for i in 1..=n {
        // Angle on the page (y down): the arc's top is -pi/2.
        let angle = -std::f64::consts::FRAC_PI_2 - opening / 2.0 + (i - 1) as f64 * step;
        let spot = (dome * angle.cos(), dome * angle.sin());
        at[index[&Dnf::X(i)]] = spot;
        xs[i] = spot.0;
        let pendants: Vec<usize> = (1..=2 * n).map(|k| index[&Dnf::XPendant(i, k)]).collect();
        fan(&mut at, &mut small, &mut notes, (spot, angle, X_FAN), &pendants);
    }
    let chord = (1..=n).map(|i| at[index[&Dnf::X(i)]].1).fold(f64::MIN, f64::max);
    // The terms below the clique, each at the mean of its variables.
    let mut near = vec![Vec::new(); count];
    for &(a, b) in edges {
        if a < count && b < count {
            near[a].push(b);
            near[b].push(a);
        }
    }
    let wanted: Vec<f64> = (1..=m)
        .map(|j| {
            let vars: Vec<f64> = near[index[&Dnf::Term(j)]]
                .iter()
                .filter_map(|&v| match roles[v] {
                    Dnf::X(i) => Some(xs[i]),
                    _ => None,
                })
                .collect();
            if vars.is_empty() {
                0.0
            } else {
                vars.iter().sum::<f64>() / vars.len() as f64
            }
        })
        .collect();
    let term_x = spread(&wanted, 80.0);
    let term_row = chord + 130.0;
    for j in 1..=m {
        at[index[&Dnf::Term(j)]] = (term_x[j - 1], term_row);
    }
    // u2 under the terms, u1 beside it; their pendants fanned out below either side, under
    // the terms' edges into u2 (kept steeper than the fans' upper ends).
    let mean = if m == 0 { 0.0 } else { term_x.iter().sum::<f64>() / m as f64 };
    let u2_x = mean - 80.0;
    let reach = term_x.iter().map(|x| (x - u2_x).abs()).fold(0.0, f64::max);
    let u_row = term_row + fan_height(&term_x, u2_x, 110.0).max(0.75 * reach);
    let (u2, u1) = ((u2_x, u_row), (mean + 80.0, u_row));
    at[index[&Dnf::U(2)]] = u2;
    at[index[&Dnf::U(1)]] = u1;
    let down = std::f64::consts::FRAC_PI_2;
    for (i, spot, toward) in [(2, u2, down + 1.05), (1, u1, down - 1.05)] {
        let pendants: Vec<usize> = (1..=3 * n).map(|k| index[&Dnf::UPendant(i, k)]).collect();
        fan(&mut at, &mut small, &mut notes, (spot, toward, U_FAN), &pendants);
    }
    let clique = |v: usize| matches!(roles.get(v), Some(Dnf::X(_)));
    let light = edges
        .iter()
        .map(|&(a, b)| {
            (clique(a) && clique(b)) || small.get(a) == Some(&true) || small.get(b) == Some(&true)
        })
        .collect();
    Some(Layout {
        at,
        scale: Some(1.0),
        radius: Some(RADIUS),
        routes: Vec::new(),
        copies: Vec::new(),
        small,
        light,
        notes,
        all_named: true,
        kind: "gadgets: posdnf-voronoi (Theorem 4)".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_exactly() {
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("012"), None);
        assert_eq!(number("0"), None);
        assert_eq!(number("+1"), None);
        assert_eq!(sat_role("x3+"), Some(Sat::Positive(3)));
        assert_eq!(sat_role("y2.4"), None);
        assert_eq!(sat_role("c2'"), Some(Sat::Twin(2)));
        assert_eq!(dnf_role("x2.p16"), Some(Dnf::XPendant(2, 16)));
        assert_eq!(dnf_role("u3"), None);
    }

    #[test]
    fn a_graph_with_some_of_the_names_is_not_a_reduction() {
        let names: Vec<String> = ["u", "x1+", "x1-", "c1"].iter().map(|s| s.to_string()).collect();
        assert!(recognise(&names, &[(0, 3)]).is_none());
    }

    #[test]
    fn spread_keeps_order_and_gaps() {
        let at = spread(&[5.0, 0.0, 1.0], 10.0);
        assert!(at[1] + 10.0 <= at[2] + 1e-9 && at[2] + 10.0 <= at[0] + 1e-9, "{at:?}");
        assert!((at.iter().sum::<f64>() - 6.0).abs() < 1e-9);
    }
}

//! Pictures of instances in Graphviz DOT.
//!
//! Vertices of a sat-voronoi instance are drawn as in the paper's Figure 3: u and P as
//! diamonds, literal vertices as boxes, Y and Z as small circles, C and C' as large circles.
//! In a posdnf-voronoi instance (Figure 4) the variables are boxes, the terms double circles,
//! u1 and u2 diamonds and the pendants points.
//! W's vertices are white with a heavy outline; with a witness, B's vertices are black, and
//! every other vertex is shaded by who dominates it.

use gamecert_certificates::graph::Graph;
use gamecert_certificates::voronoi::Player;

/// DOT text for a graph with W's and B's vertices marked; when B holds any vertex, every other
/// vertex is shaded by who dominates it.
pub fn to_dot(graph: &Graph, white: &[usize], black: &[usize], title: &str) -> String {
    let to_white = graph.distances_from(white);
    let to_black = graph.distances_from(black);
    let owner = |v: usize| -> Option<Player> {
        if black.is_empty() {
            return None;
        }
        match to_white[v].cmp(&to_black[v]) {
            std::cmp::Ordering::Less => Some(Player::White),
            std::cmp::Ordering::Greater => Some(Player::Black),
            std::cmp::Ordering::Equal => None,
        }
    };
    let mut is_white = vec![false; graph.len()];
    for &w in white {
        is_white[w] = true;
    }
    let mut is_black = vec![false; graph.len()];
    for &b in black {
        is_black[b] = true;
    }
    let mut out = String::new();
    out.push_str("graph gamecert {\n");
    out.push_str(&format!("  label={};\n", quote(title)));
    out.push_str("  node [fontsize=10, style=filled, fillcolor=white];\n");
    for v in 0..graph.len() {
        let name = graph.name(v);
        let shape = shape_of(name);
        let (fill, font, pen) = if is_white[v] {
            ("white", "black", 3)
        } else if is_black[v] {
            ("black", "white", 3)
        } else {
            match owner(v) {
                Some(Player::White) => ("gray95", "black", 1),
                Some(Player::Black) => ("gray55", "white", 1),
                None => ("white", "black", 1),
            }
        };
        out.push_str(&format!(
            "  {} [shape={shape}, fillcolor={fill}, fontcolor={font}, penwidth={pen}];\n",
            quote(name)
        ));
    }
    for (i, j) in graph.edges() {
        out.push_str(&format!(
            "  {} -- {};\n",
            quote(graph.name(i)),
            quote(graph.name(j))
        ));
    }
    out.push_str("}\n");
    out
}

/// The Figure 3 shape for a vertex name of the sat-voronoi construction (circles otherwise).
fn shape_of(name: &str) -> &'static str {
    if name.contains(".p") {
        return "point";
    }
    let first = name.chars().next().unwrap_or(' ');
    let rest_is_index = name[first.len_utf8()..]
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '+' | '-' | '\''));
    if !rest_is_index {
        return "circle";
    }
    match first {
        'u' | 'p' => "diamond",
        'x' => "box",
        'y' | 'z' => "circle",
        'c' | 'd' => "doublecircle",
        _ => "circle",
    }
}

fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

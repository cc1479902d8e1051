//! Pictures of instances: graphs in Graphviz DOT, and games on point sets (seed 000) as SVG
//! ([`crate::base::svg`]), including a finished play as numbered frames.
//!
//! Vertices of a sat-voronoi instance are drawn as in the paper's Figure 3: u and P as
//! diamonds, literal vertices as boxes, Y and Z as small circles, C and C' as large circles.
//! In a posdnf-voronoi instance (Figure 4) the variables are boxes, the terms double circles,
//! u1 and u2 diamonds and the pendants points.
//! W's vertices are white with a heavy outline; with a witness, B's vertices are black, and
//! every other vertex is shaded by who dominates it.

use crate::base::svg::{Colour, Frame, Sheet, Stroke};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::triangulations::marking::{
    MarkingSpec, MarkingStrategy, Outcome, Rules,
};
use gamecert_certificates::voronoi::rules::Player;

/// DOT text for a graph with W's and B's vertices marked; when B holds any vertex, every other
/// vertex is shaded by who dominates it. The graph body is petgraph's DOT writer; each node's
/// weight is its attribute list (label, shape, colours).
pub fn to_dot(graph: &Graph, white: &[usize], black: &[usize], title: &str) -> String {
    use petgraph::dot::{Config, Dot};
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
    let mut drawn =
        petgraph::graph::UnGraph::<String, &str>::with_capacity(graph.len(), graph.edge_count());
    for v in 0..graph.len() {
        let name = graph.name(v);
        let (fill, font, pen) = if is_white[v] {
            ("white", "black", 3)
        } else if is_black[v] {
            ("black", "white", 1)
        } else {
            match owner(v) {
                Some(Player::White) => ("gray95", "black", 1),
                Some(Player::Black) => ("gray55", "white", 1),
                None => ("white", "black", 1),
            }
        };
        drawn.add_node(format!(
            "label={}, shape={}, fillcolor={fill}, fontcolor={font}, penwidth={pen}",
            quote(name),
            shape_of(name)
        ));
    }
    for (i, j) in graph.edges() {
        drawn.add_edge((i as u32).into(), (j as u32).into(), "");
    }
    let config = [Config::NodeNoLabel, Config::EdgeNoLabel, Config::GraphContentOnly];
    let body = Dot::with_attr_getters(&drawn, &config, &|_, _| String::new(), &|_, (_, attrs)| {
        attrs.clone()
    });
    format!(
        "graph gamecert {{\n  label={};\n  node [fontsize=10, style=filled, fillcolor=white];\n{body}}}\n",
        quote(title)
    )
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

/// One move of a play on a point set: the segment and whether the first player (the paper's R)
/// made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub edge: [usize; 2],
    pub by_first: bool,
}

/// The edges of a `marking-game` instance in the rules' numbering: the triangulation's edges
/// (sorted), or every pair of points for the constructing game.
fn marking_edges(spec: &MarkingSpec) -> Result<Vec<[usize; 2]>, String> {
    if spec.game.is_constructing() {
        let n = spec.triangulation.points.len();
        Ok((0..n).flat_map(|a| (a + 1..n).map(move |b| [a, b])).collect())
    } else {
        Ok(spec.triangulation.validate(&mut Budget::new(u64::MAX))?.edges)
    }
}

/// The play of a `marking-strategy` certificate against the opponent who always colours the
/// lowest-numbered legal edge, under the checker's rules: the moves in order and whether the
/// first player won. An error if the certificate has no move where the winner must play.
pub fn marking_play(
    spec: &MarkingSpec,
    strategy: &MarkingStrategy,
) -> Result<(Vec<PlayedMove>, bool), String> {
    let rules = Rules::from_spec(spec, &mut Budget::new(u64::MAX))?;
    let edges = marking_edges(spec)?;
    let winner_first = match strategy.winner.as_str() {
        "first" => true,
        "second" => false,
        other => return Err(format!("winner '{other}' is neither first nor second")),
    };
    let moves: std::collections::HashMap<&str, usize> =
        strategy.moves.iter().map(|(hex, e)| (hex.as_str(), *e)).collect();
    let (mut green, mut first_to_move, mut play) = (0u64, true, Vec::new());
    loop {
        let legal = rules.legal(green);
        if legal.is_empty() {
            return Ok((play, first_to_move == rules.stuck_player_wins()));
        }
        let e = if first_to_move == winner_first {
            let e = *moves
                .get(format!("{green:x}").as_str())
                .ok_or_else(|| format!("the certificate has no move at position {green:x}"))?;
            if !legal.contains(&e) {
                return Err(format!(
                    "the certificate's edge {e} at position {green:x} is not a legal move"
                ));
            }
            e
        } else {
            legal[0]
        };
        play.push(PlayedMove { edge: edges[e], by_first: first_to_move });
        match rules.colour(green, e) {
            Outcome::MoverWins => return Ok((play, first_to_move)),
            Outcome::Continue(again) => {
                green |= 1 << e;
                first_to_move ^= !again;
            }
        }
    }
}

/// SVG frames of a play on the instance's points: frame k shows the first k moves, each
/// labelled with its number and player (F the first player, S the second: a marking strategy's
/// games have one colour, so no red and blue players); unplayed edges of a triangulation are
/// thin black lines. Monochromatic games colour every move green. `note` (whose play it
/// is, what was certified) is written under every title.
pub fn marking_frames(
    spec: &MarkingSpec,
    play: &[PlayedMove],
    title: &str,
    note: &str,
) -> Vec<String> {
    // The caller validated the instance, so its edges are there.
    let background: Vec<[usize; 2]> = if spec.game.is_constructing() {
        Vec::new()
    } else {
        marking_edges(spec).unwrap_or_default()
    };
    let frames: Vec<Frame> = (0..=play.len())
        .map(|k| {
            let mut strokes: Vec<Stroke> = background
                .iter()
                .filter(|e| !play[..k].iter().any(|m| m.edge == **e))
                .map(|&e| Stroke::new(e, Colour::Black))
                .collect();
            strokes.extend(play[..k].iter().enumerate().map(|(i, m)| Stroke {
                edge: m.edge,
                colour: Colour::Green,
                label: Some(format!("{}{}", i + 1, if m.by_first { "F" } else { "S" })),
            }));
            Frame { strokes, title: format!("{title}: move {k} of {}", play.len()) }
        })
        .collect();
    let mut sheet = Sheet::of_points(&spec.triangulation.points);
    if !note.is_empty() {
        sheet = sheet.with_note(note);
    }
    sheet.draw(&frames)
}

//! Pictures of positions of the positive-DNF game, triangle avoidance and vertex nim, from
//! plain data (the instance and a position), so that `gamecert render` draws an instance's
//! start without a certificate and the play library ([`crate::play`]) draws every position of
//! a game played against one. Every element a person may click carries `data-move`, the
//! move's notation in the play library (see [`crate::play`]).
//!
//! - The DNF game: the formula as rows of terms, each variable a token (orange: the first
//!   player's, purple: the second's, white: free and clickable); a term the first player owns
//!   whole is outlined green, a term the second player has blocked is greyed.
//! - Triangle avoidance: the n nodes on a circle, the edges drawn so far, every edge still
//!   allowed a faint clickable line (a wide transparent stroke takes the click), the edges that
//!   would close a triangle dotted and not clickable.
//! - Vertex nim: the weighted graph (weights inside the vertices), the token's vertex gold.
//!   A move says the token vertex's new weight and where the token goes, more than a click on
//!   a vertex says: a click on a vertex plays the move that takes the least (one unit) and
//!   moves the token there, and every legal move is also a button under the graph.
//!
//! - Voronoi games ([`voronoi_frame`]): [`VoronoiPicture`] with the empty vertices clickable.
//!
//! Drawing only: the legal moves come from the rules the callers pass.

use crate::base::graph_layout::{layout_edges, Point};
use crate::base::graph_svg::{
    wrap, Chip, EdgeLook, GraphPicture, VertexLook, VoronoiPicture, B_OWNED, B_STONE, MARK,
    W_OWNED, W_STONE,
};
use crate::base::svg::escape;
use gamecert_certificates::base::graph::Graph;
use gamecert_certificates::posdnf::dnf::PosDnf;
use gamecert_certificates::vertexnim::strategy::{Play, State as NimState, Variant, VertexNim};
use std::fmt::Write as _;

/// Most buttons drawn under a vertex nim picture (a heavy vertex has many moves).
const MOST_CHIPS: usize = 60;

/// Triangle avoidance on `n` nodes with `edges` drawn, `marked` (a legal edge) highlighted.
pub fn triangle_svg(
    n: usize,
    edges: &[[usize; 2]],
    marked: Option<[usize; 2]>,
    caption: &str,
    note: &str,
) -> String {
    let at: Vec<Point> = (0..n)
        .map(|v| {
            // Node 0 at the top, clockwise.
            let angle =
                std::f64::consts::TAU * v as f64 / n.max(1) as f64 - std::f64::consts::FRAC_PI_2;
            (0.5 + 0.5 * angle.cos(), 0.5 + 0.5 * angle.sin())
        })
        .collect();
    let mut adj = vec![vec![false; n]; n];
    for &[a, b] in edges {
        if a < n && b < n {
            adj[a][b] = true;
            adj[b][a] = true;
        }
    }
    let pairs: Vec<(usize, usize)> = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect();
    let closes = |a: usize, b: usize| (0..n).find(|&c| adj[a][c] && adj[b][c]);
    let mut allowed = 0;
    let looks: Vec<Option<EdgeLook>> = pairs
        .iter()
        .map(|&(a, b)| {
            let mut look = EdgeLook::default();
            if adj[a][b] {
                (look.colour, look.width) = ("#222222", 3.0);
            } else if closes(a, b).is_some() {
                (look.colour, look.width, look.dashed) = ("#dddddd", 1.0, true);
            } else {
                allowed += 1;
                (look.colour, look.width) = ("#b8c8e0", 1.2);
                look.data_move = Some(format!("{a}-{b}"));
                if marked == Some([a, b]) {
                    (look.colour, look.width) = (MARK, 4.0);
                }
            }
            Some(look)
        })
        .collect();
    // The numbers are written inside the nodes.
    let names = vec![String::new(); n];
    let picture = GraphPicture::at(names, pairs, &at, 11.0).with_note(note);
    let status = format!(
        "{} drawn, {} still allowed (dotted: would close a triangle)",
        counted(edges.len(), "edge"),
        counted(allowed, "edge")
    );
    let nodes: Vec<VertexLook> = (0..n)
        .map(|v| {
            let mut look = VertexLook::plain();
            look.inner = Some(v.to_string());
            look.marked = marked.is_some_and(|m| m.contains(&v));
            look
        })
        .collect();
    picture.draw(caption, &escape(&status), &nodes, &looks, &[])
}

fn counted(count: usize, noun: &str) -> String {
    gamecert_certificates::base::text::counted(count, noun)
}

/// The positive-DNF game: `state[v]` is `b'1'`, `b'2'` or `b'.'` for variable `v + 1`.
pub fn dnf_svg(
    dnf: &PosDnf,
    state: &[u8],
    marked: Option<usize>,
    caption: &str,
    note: &str,
) -> String {
    const TOKEN: f64 = 34.0;
    const ROW: f64 = 40.0;
    let owner = |v: u32| state.get(v as usize - 1).copied().unwrap_or(b'.');
    // A settled game has nothing left to click.
    let open = gamecert_certificates::posdnf::dnf::settled(dnf, state).is_none();
    let token = |out: &mut String, x: f64, y: f64, v: u32| {
        let (fill, text_fill) = match owner(v) {
            b'1' => (W_STONE, "white"),
            b'2' => (B_STONE, "white"),
            _ => ("white", "#222222"),
        };
        let ring = if marked == Some(v as usize - 1) {
            format!(
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="8" fill="none" stroke="{MARK}" stroke-width="2.5" stroke-dasharray="3 2"/>"#,
                x - 4.0,
                y - 4.0,
                TOKEN + 8.0,
                TOKEN - 6.0 + 8.0
            )
        } else {
            String::new()
        };
        let shape = format!(
            r##"<rect class="hit" x="{x:.1}" y="{y:.1}" width="{TOKEN}" height="{:.1}" rx="6" fill="{fill}" stroke="#444444"/><text x="{:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="{text_fill}" pointer-events="none">x{v}</text>{ring}"##,
            TOKEN - 6.0,
            x + TOKEN / 2.0,
            y + 19.0
        );
        if open && owner(v) == b'.' {
            let _ = write!(out, r#"<g class="move" data-move="{v}">{shape}</g>"#);
        } else {
            out.push_str(&shape);
        }
    };
    let widest = dnf.terms.iter().map(Vec::len).max().unwrap_or(0).max(1) as f64;
    let per_row = (dnf.num_vars as f64).clamp(1.0, 16.0);
    let body_w = 90.0 + widest.max(per_row) * (TOKEN + 8.0);
    let width = (body_w + 60.0).max(480.0);
    let chars = ((width - 60.0) / 7.6) as usize;
    let mut head = String::new();
    let mut y = 8.0;
    for line in wrap(caption, chars) {
        y += 18.0;
        let _ = writeln!(
            head,
            r#"<text class="caption" x="30" y="{y:.0}" font-size="14">{}</text>"#,
            escape(&line)
        );
    }
    let count = |c: u8| state.iter().filter(|&&x| x == c).count();
    y += 17.0;
    let _ = writeln!(
        head,
        r#"<text x="30" y="{y:.0}" font-size="12"><tspan fill="{W_STONE}">the first player: {}</tspan>; <tspan fill="{B_STONE}">the second player: {}</tspan>; free: {}</text>"#,
        counted(count(b'1'), "variable"),
        counted(count(b'2'), "variable"),
        count(b'.')
    );
    for line in wrap(note, (chars as f64 * 1.3) as usize) {
        y += 14.0;
        let _ = writeln!(
            head,
            r##"<text x="30" y="{y:.0}" font-size="11" fill="#555555">{}</text>"##,
            escape(&line)
        );
    }
    let mut body = String::new();
    let mut row_y = y + 24.0;
    let _ = writeln!(
        body,
        r##"<text x="30" y="{:.0}" font-size="12" fill="#333333">The first player wins by owning every variable of some term:</text>"##,
        row_y
    );
    row_y += 12.0;
    for (k, term) in dnf.terms.iter().enumerate() {
        let won = term.iter().all(|&v| owner(v) == b'1');
        let blocked = term.iter().any(|&v| owner(v) == b'2');
        let (frame, label) = if won {
            (format!(r##" stroke="#1a9641" stroke-width="2.5" fill="{W_OWNED}""##), "owned")
        } else if blocked {
            (format!(r##" stroke="#bbbbbb" fill="{B_OWNED}" fill-opacity="0.35""##), "blocked")
        } else {
            (r##" stroke="#bbbbbb" fill="none""##.to_string(), "")
        };
        let row_w = 74.0 + term.len() as f64 * (TOKEN + 8.0);
        let _ = writeln!(
            body,
            r#"<rect x="26" y="{:.1}" width="{row_w:.1}" height="{:.1}" rx="8"{frame}/><text x="34" y="{:.1}" font-size="12">term {}</text>"#,
            row_y,
            ROW - 4.0,
            row_y + 22.0,
            k + 1
        );
        for (i, &v) in term.iter().enumerate() {
            token(&mut body, 90.0 + i as f64 * (TOKEN + 8.0), row_y + 5.0, v);
        }
        if !label.is_empty() {
            let _ = writeln!(
                body,
                r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#555555">{label}</text>"##,
                26.0 + row_w + 8.0,
                row_y + 22.0
            );
        }
        row_y += ROW;
    }
    // Every variable once more, in order (some occur in no term and are still moves).
    row_y += 14.0;
    let hint = if open { " (click a free one to take it)" } else { "" };
    let _ = writeln!(
        body,
        r##"<text x="30" y="{row_y:.0}" font-size="12" fill="#333333">Every variable{hint}:</text>"##
    );
    row_y += 10.0;
    for v in 1..=dnf.num_vars {
        let k = (v - 1) as f64;
        let (col, row) = (k % per_row, (k / per_row).floor());
        token(&mut body, 30.0 + col * (TOKEN + 8.0), row_y + row * ROW, v);
    }
    let rows = ((dnf.num_vars as f64) / per_row).ceil().max(1.0);
    let height = row_y + rows * ROW + 20.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="sans-serif">"#
    );
    out.push_str("<style>.move{cursor:pointer}.move:hover .hit{fill:#ffd70066}</style>\n");
    out.push_str("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    out.push_str(&head);
    out.push_str(&body);
    out.push_str("</svg>\n");
    out
}

/// A vertex nim position: `game`'s graph laid out from its start, `state` drawn on it (the
/// edges of the current graph solid, the others dashed), `moves` (the legal moves) clickable,
/// `marked` (one of them) highlighted; `write` writes a move's notation.
pub fn vertexnim_svg(
    game: &VertexNim,
    state: &NimState,
    marked: Option<(u64, Option<usize>)>,
    caption: &str,
    note: &str,
) -> String {
    let (moves, legal) = vertexnim_shown_moves(game, state);
    let n = game.names.len();
    let write = |(w, next): (u64, Option<usize>)| {
        format!("{w}:{}", next.map_or("-", |v| game.names[v].as_str()))
    };
    let mut edges = Vec::new();
    let mut loops = vec![false; n];
    for (x, out) in game.start.adj.iter().enumerate() {
        for &y in out {
            if x == y {
                loops[x] = true;
            } else if game.directed || x < y {
                edges.push((x, y));
            }
        }
    }
    let at = layout_edges(n, &edges);
    let picture = GraphPicture::at(game.names.clone(), edges.clone(), &at, 13.0).with_note(note);
    let edge_looks: Vec<Option<EdgeLook>> = edges
        .iter()
        .map(|&(x, y)| {
            let mut look = EdgeLook { arrow: game.directed, ..EdgeLook::default() };
            if !state.adj.get(x).is_some_and(|out| out.contains(&y)) {
                (look.colour, look.dashed) = ("#dddddd", true);
            }
            Some(look)
        })
        .collect();
    // A click on a vertex: the move there that takes the least.
    let mut by_vertex: Vec<Option<(u64, Option<usize>)>> = vec![None; n];
    for &(w, next) in &moves {
        if let Some(v) = next {
            if by_vertex[v].is_none_or(|(best, _)| w > best) {
                by_vertex[v] = Some((w, next));
            }
        }
    }
    let looks: Vec<VertexLook> = (0..n)
        .map(|v| {
            let mut look = VertexLook::plain();
            let weight = state.weights.get(v).copied().unwrap_or(0);
            look.inner = Some(weight.to_string());
            if weight == 0 {
                (look.fill, look.stroke) = ("#eeeeee".into(), "#aaaaaa");
            }
            if state.token == Some(v) {
                (look.fill, look.stroke, look.width) = ("#ffd700".into(), "black", 3.0);
            }
            look.data_move = by_vertex[v].map(write);
            look.marked = marked.is_some_and(|(_, next)| next == Some(v));
            look
        })
        .collect();
    let chips: Vec<Chip> = moves
        .iter()
        .take(MOST_CHIPS)
        .map(|&mv| Chip { text: write(mv), data_move: Some(write(mv)), marked: marked == Some(mv) })
        .collect();
    let token = state.token.map_or("none (the game is over)".to_string(), |t| {
        format!("{} (weight {})", game.names[t], state.weights[t])
    });
    let mut status =
        format!("token on {token}; {}", crate::base::limits::grouped_count(legal, "legal move"));
    if legal > MOST_CHIPS as u64 {
        status.push_str(&format!("; the first {MOST_CHIPS} shown below"));
    }
    let mut svg = picture.draw(caption, &escape(&status), &looks, &edge_looks, &chips);
    // Loops (the token may stay), drawn as small rings over their vertex.
    let centres = picture.centres();
    let rings: String = (0..n)
        .filter(|&v| loops[v])
        .map(|v| {
            let (x, y) = centres[v];
            format!(
                r##"<circle cx="{x:.1}" cy="{:.1}" r="7" fill="none" stroke="#888888" stroke-width="1.2"/>"##,
                y - picture.radius - 6.0
            )
        })
        .collect();
    if let Some(at) = svg.find("<!-- vertices -->") {
        // In the drawing's group, before the vertices so they stay on top.
        svg.insert_str(at, &rings);
    }
    svg
}

/// The most moves of a vertex nim position listed for its picture: past it (a weight of 2^63 is
/// 2^63 moves, which the instance declares in 19 digits) only the moves the picture shows are
/// listed.
const MOST_LISTED: u64 = 100_000;

/// The moves of `state` the picture shows, and how many there are ([`VertexNim::move_count`]):
/// every move when at most [`MOST_LISTED`]; otherwise the first [`MOST_CHIPS`] in the rules'
/// order (the rules list moves by new weight, so they are the moves of the token's weight cut
/// to a few) and, for each neighbour, the move there that takes the least (new weight `w - 1`),
/// which a click on it plays.
fn vertexnim_shown_moves(game: &VertexNim, state: &NimState) -> (Vec<(u64, Option<usize>)>, u64) {
    let legal = game.move_count(state);
    if legal <= MOST_LISTED {
        return (game.moves(state), legal);
    }
    let Some(u) = state.token else { return (Vec::new(), legal) };
    let mut cut = state.clone();
    let per_weight = state.adj[u].len().max(1) as u64;
    cut.weights[u] = cut.weights[u].min(MOST_CHIPS as u64 / per_weight + 2);
    let mut moves: Vec<_> = game.moves(&cut).into_iter().take(MOST_CHIPS).collect();
    let top = state.weights[u] - 1;
    moves.extend(state.adj[u].iter().map(|&v| (top, Some(v))));
    (moves, legal)
}

/// A Voronoi position (`cells[v]` is `b'W'`, `b'B'` or `b'.'`) drawn on `graph` laid out as
/// `layout`: the empty vertices clickable when `open` (the game goes on), `marked` ringed.
pub fn voronoi_frame(
    graph: &Graph,
    layout: &GraphPicture,
    cells: &[u8],
    open: bool,
    marked: Option<usize>,
    caption: &str,
    note: &str,
) -> String {
    let owned = |c: u8| -> Vec<usize> { (0..cells.len()).filter(|&v| cells[v] == c).collect() };
    VoronoiPicture::with_layout(graph, layout.clone().with_note(note)).draw_play(
        &owned(b'W'),
        &owned(b'B'),
        caption,
        open,
        marked,
    )
}

/// The words under a DNF picture: whose turn, and what the certificate claims (`first`: whether
/// it certifies the first player; `None` without a certificate).
pub fn dnf_note(dnf: &PosDnf, state: &[u8], first: Option<bool>) -> String {
    let taken = state.iter().filter(|&&c| c != b'.').count();
    let over = gamecert_certificates::posdnf::dnf::settled(dnf, state).is_some();
    let turn = if over {
        "The game is settled."
    } else if taken.is_multiple_of(2) {
        "The first player to move."
    } else {
        "The second player to move."
    };
    format!("{turn} {}", certified(first, "the first player", "the second player"))
}

/// The words under a triangle-avoidance picture (`a`: whether the certificate says A wins).
pub fn triangle_note(n: usize, drawn: usize, over: bool, a: Option<bool>) -> String {
    let turn = if over {
        "Every edge left would close a triangle: the player to move has lost."
    } else if drawn.is_multiple_of(2) {
        "A to move (click a faint edge)."
    } else {
        "B to move (click a faint edge)."
    };
    format!("{turn} Triangle avoidance on {}. {}", counted(n, "node"), certified(a, "A", "B"))
}

/// The words under a vertex nim picture (`first`: whether the certificate says the first
/// player wins).
pub fn vertexnim_note(
    game: &VertexNim,
    over: bool,
    first_to_move: bool,
    first: Option<bool>,
) -> String {
    let turn = match (over, first_to_move) {
        (true, _) => "No move is left.",
        (false, true) => "The first player to move.",
        (false, false) => "The second player to move.",
    };
    format!(
        "{turn} A move is NEW-WEIGHT:NEXT-VERTEX (the buttons); a click on a vertex lowers the \
         token's weight by one and moves the token there. {}, {}. {}",
        match game.variant {
            Variant::Vertexnim => "Vertex nim (an emptied vertex goes, its neighbours joined)",
            Variant::Nimg => "Vertex NimG (emptied vertices stay)",
        },
        match game.play {
            Play::Normal => "normal play (no move: you lose)",
            Play::Misere => "misère play (no move: you win)",
        },
        certified(first, "the first player", "the second player")
    )
}

fn certified(first: Option<bool>, one: &str, other: &str) -> String {
    match first {
        Some(true) => format!("Certified: {one} wins, against every reply."),
        Some(false) => format!("Certified: {other} wins, against every reply."),
        None => "No certificate: the start position (`--certificate` draws a certified play)."
            .to_string(),
    }
}

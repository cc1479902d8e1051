//! SVG pictures of the impartial boards: a heap game as rows of tokens, a coin-turning game as a
//! row (one dimension) or a grid (two) of coins. Drawing only, from plain data, so that
//! `gamecert render` draws an instance's start without a strategy and the play library
//! ([`crate::play`]) draws every position it reaches.
//!
//! Clicks: every element a person may click to move is a transparent box over a token or coin,
//! with `class="move"` and `data-move="NOTATION"` (the move in the play library's notation).
//!
//! - Heaps ([`heap_click`]): clicking token j of a heap (counted from 1 at the left) plays the
//!   move that takes tokens j to the end when the rules allow it; otherwise the move that takes
//!   the fewest tokens starting at token j (the heap splitting around them); otherwise any move
//!   that takes token j. In a game whose moves take nothing (Grundy's game splits a heap),
//!   clicking token j splits the heap after it. A token no legal move takes is not clickable.
//! - Coins ([`coin_clicks`]): clicking a head plays the simplest move (fewest coins turned) whose
//!   defining coin, the last one (the rightmost, or in two dimensions the lower-right corner),
//!   is that head; clicking any other coin plays the simplest move that turns it, the move with
//!   the nearest head first.
//!
//! Long heaps are drawn with their first and last tokens and a `…` between them, the size in
//! brackets after the row; a large board draws the coins near a head, a marked coin or an edge,
//! the skipped runs as `…`.

use crate::base::svg::{escape, wrap};
use gamecert_certificates::base::text::counted;
use gamecert_certificates::format::CoinGameSpec;
use gamecert_certificates::impartial::heaps::{HeapGame, Rules};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Pixels: caption and note fonts, the page's least width, the margin.
const CAPTION_FONT: f64 = 14.0;
const NOTE_FONT: f64 = 12.0;
const MIN_WIDTH: f64 = 420.0;
const MARGIN: f64 = 12.0;
/// The marked move's colour (the coins it turns, the tokens it takes).
const MARK: &str = "#d7191c";

/// The SVG document: the caption (bold) and notes above the body, which was drawn from `top`.
fn document(width: f64, top: f64, body_height: f64, head: &[(String, bool)], body: &str) -> String {
    let height = top + body_height + MARGIN;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"sans-serif\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let mut y = 6.0;
    for (line, bold) in head {
        let (font, weight, fill) = if *bold {
            (CAPTION_FONT, " font-weight=\"bold\"", "#000000")
        } else {
            (NOTE_FONT, "", "#444444")
        };
        y += font * 1.35;
        let _ = writeln!(
            out,
            "<text class=\"caption\" x=\"{MARGIN}\" y=\"{y:.0}\" font-size=\"{font}\"{weight} fill=\"{fill}\">{}</text>",
            escape(line)
        );
    }
    out.push_str(body);
    out.push_str("</svg>\n");
    out
}

/// The caption and notes cut into lines for a page `width` wide, and the height they take.
fn heading(caption: &str, notes: &[String], width: f64) -> (Vec<(String, bool)>, f64) {
    let text_width = width - 2.0 * MARGIN;
    let mut lines: Vec<(String, bool)> =
        wrap(caption, text_width, CAPTION_FONT).into_iter().map(|l| (l, true)).collect();
    for note in notes {
        lines.extend(wrap(note, text_width, NOTE_FONT).into_iter().map(|l| (l, false)));
    }
    let height = 6.0
        + lines
            .iter()
            .map(|(_, bold)| if *bold { CAPTION_FONT * 1.35 } else { NOTE_FONT * 1.35 })
            .sum::<f64>()
        + 14.0;
    (lines, height)
}

/// A transparent box that plays `notation` when clicked (with its notation as a tooltip).
fn hit_box(out: &mut String, x: f64, y: f64, w: f64, h: f64, notation: &str) {
    let n = escape(notation);
    let _ = writeln!(
        out,
        "<rect class=\"move\" data-move=\"{n}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" \
         height=\"{h:.1}\" fill=\"#ffffff\" fill-opacity=\"0\" cursor=\"pointer\"><title>{n}</title></rect>"
    );
}

/// A heap move as the picture shows it: the heap, and what it becomes (heaps of the sizes in
/// `leave`, at most two; the tokens taken are the rest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MarkedHeap<'a> {
    pub heap: usize,
    pub leave: &'a [u64],
}

/// Most tokens drawn in a row: a longer heap shows its first [`HEAD_TOKENS`] and last
/// [`TAIL_TOKENS`] tokens with a `…` between.
const MOST_TOKENS: u64 = 40;
const HEAD_TOKENS: u64 = 24;
const TAIL_TOKENS: u64 = 10;
/// Most heaps drawn (the rest are counted under the rows).
const MOST_HEAPS: usize = 60;
const PITCH: f64 = 24.0;
const ROW: f64 = 34.0;
const TOKEN: f64 = 9.0;
const LABEL_WIDTH: f64 = 74.0;

/// What one place in a row of tokens holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slot {
    /// Token j (from 1), and whether the marked move takes it.
    Token(u64, bool),
    /// Tokens not drawn.
    Gap,
    /// Where the marked move splits the heap.
    Split,
}

/// The places of a heap of `n` tokens, with the marked move's `leave` (if any) shown: the first
/// heap it leaves, the tokens taken (crossed), the second heap.
fn slots(n: u64, leave: Option<&[u64]>) -> Vec<Slot> {
    // Tokens 1..=n and which are taken; the split points (after token k).
    let (taken_from, taken_to, split_after): (u64, u64, Vec<u64>) = match leave {
        None => (1, 0, Vec::new()),
        Some([]) => (1, n, Vec::new()),
        Some([a]) => (a + 1, n, Vec::new()),
        Some([a, b, ..]) => {
            let take = n.saturating_sub(a + b);
            if take == 0 {
                (1, 0, vec![*a])
            } else {
                (a + 1, a + take, vec![*a, a + take])
            }
        }
    };
    // Only the tokens drawn are visited, so a heap of any size costs the same.
    let shown: Vec<u64> = if n <= MOST_TOKENS {
        (1..=n).collect()
    } else {
        (1..=HEAD_TOKENS).chain(n - TAIL_TOKENS + 1..=n).collect()
    };
    let mut out = Vec::new();
    for j in shown {
        if n > MOST_TOKENS && j == n - TAIL_TOKENS + 1 {
            out.push(Slot::Gap);
        }
        if split_after.contains(&(j - 1)) && j > 1 && out.last() != Some(&Slot::Split) {
            out.push(Slot::Split);
        }
        out.push(Slot::Token(j, (taken_from..=taken_to).contains(&j)));
    }
    out
}

/// Heaps drawn as rows of tokens, headed by `caption` and `notes`. `marked` is drawn (the tokens
/// it takes crossed out in red, a split as a gap with a dashed line); `values`, when given, is
/// each heap's Grundy value, written after its size; `click(i, j)` is the notation of the move
/// clicking token j (from 1) of heap i (from 0) plays, if any.
pub fn heaps_svg(
    heaps: &[u64],
    marked: Option<MarkedHeap>,
    values: Option<&[u64]>,
    click: &dyn Fn(usize, u64) -> Option<String>,
    caption: &str,
    notes: &[String],
) -> String {
    let drawn = &heaps[..heaps.len().min(MOST_HEAPS)];
    let slot_rows: Vec<Vec<Slot>> = drawn
        .iter()
        .enumerate()
        .map(|(i, &n)| slots(n, marked.filter(|m| m.heap == i).map(|m| m.leave)))
        .collect();
    let widest = slot_rows
        .iter()
        .map(|r| r.iter().map(|s| if *s == Slot::Split { PITCH / 2.0 } else { PITCH }).sum())
        .fold(0.0_f64, f64::max);
    let width = (MARGIN + LABEL_WIDTH + widest + 130.0).max(MIN_WIDTH);
    let (head, top) = heading(caption, notes, width);
    let mut body = String::new();
    for (i, row) in slot_rows.iter().enumerate() {
        let y = top + ROW * i as f64 + ROW / 2.0;
        let _ = writeln!(
            body,
            "<text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"13\">heap {}</text>",
            y + 4.5,
            i + 1
        );
        let mut x = MARGIN + LABEL_WIDTH;
        for slot in row {
            match *slot {
                Slot::Split => {
                    let mid = x + PITCH / 4.0;
                    let _ = writeln!(
                        body,
                        "<line x1=\"{mid:.1}\" y1=\"{:.1}\" x2=\"{mid:.1}\" y2=\"{:.1}\" \
                         stroke=\"{MARK}\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>",
                        y - 13.0,
                        y + 13.0
                    );
                    x += PITCH / 2.0;
                }
                Slot::Gap => {
                    let _ = writeln!(
                        body,
                        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"16\" text-anchor=\"middle\" \
                         fill=\"#555555\">…</text>",
                        x + PITCH / 2.0,
                        y + 5.0
                    );
                    x += PITCH;
                }
                Slot::Token(j, taken) => {
                    let cx = x + PITCH / 2.0;
                    if taken {
                        let _ = writeln!(
                            body,
                            "<circle cx=\"{cx:.1}\" cy=\"{y:.1}\" r=\"{TOKEN}\" fill=\"#f3e9dc\" \
                             stroke=\"{MARK}\" stroke-width=\"2.5\"/>"
                        );
                        let d = TOKEN * 0.6;
                        let _ = writeln!(
                            body,
                            "<path d=\"M{:.1} {:.1} L{:.1} {:.1} M{:.1} {:.1} L{:.1} {:.1}\" \
                             stroke=\"{MARK}\" stroke-width=\"2.5\"/>",
                            cx - d,
                            y - d,
                            cx + d,
                            y + d,
                            cx - d,
                            y + d,
                            cx + d,
                            y - d
                        );
                    } else {
                        let _ = writeln!(
                            body,
                            "<circle cx=\"{cx:.1}\" cy=\"{y:.1}\" r=\"{TOKEN}\" fill=\"#8c6d46\" \
                             stroke=\"#4a3a25\" stroke-width=\"1\"/>"
                        );
                    }
                    if let Some(notation) = click(i, j) {
                        hit_box(&mut body, x, y - ROW / 2.0, PITCH, ROW, &notation);
                    }
                    x += PITCH;
                }
            }
        }
        let n = drawn[i];
        let size = match values {
            Some(v) => format!("({n})  g = {}", v.get(i).copied().unwrap_or(0)),
            None => format!("({n})"),
        };
        let _ = writeln!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"13\" fill=\"#333333\">{}</text>",
            x + 8.0,
            y + 4.5,
            escape(&size)
        );
    }
    let mut rows = drawn.len();
    if heaps.is_empty() || heaps.len() > drawn.len() {
        let text = if heaps.is_empty() {
            "no heap left".to_string()
        } else {
            format!("… and {} more", counted(heaps.len() - drawn.len(), "heap"))
        };
        let _ = writeln!(
            body,
            "<text x=\"{MARGIN}\" y=\"{:.1}\" font-size=\"13\" fill=\"#555555\">{}</text>",
            top + ROW * rows as f64 + ROW / 2.0 + 4.5,
            escape(&text)
        );
        rows += 1;
    }
    document(width, top, ROW * rows as f64, &head, &body)
}

/// The notation of the move clicking token `j` (from 1) of a heap of `n` plays, by the rule in
/// the module's documentation. `legal(take, leave)` says whether taking `take` tokens and leaving
/// the heaps `leave` (sorted, none empty) is a legal move from the heap (what
/// [`gamecert_certificates::impartial::heaps::Rules::is_legal`] says), and `write` writes one.
/// Only moves taking at most [`MOST_TAKEN`] tokens, or tokens j to the end, are tried, so a
/// click costs the same on a heap of any size.
pub fn heap_click(
    n: u64,
    j: u64,
    legal: &dyn Fn(u64, &[u64]) -> bool,
    write: &dyn Fn(&[u64]) -> String,
) -> Option<String> {
    if j == 0 || j > n {
        return None;
    }
    // Taking `k` tokens from token `s` on: the heaps on either side, sorted, none empty.
    let around = |s: u64, k: u64| -> Vec<u64> {
        let mut leave = vec![s - 1, n - (s - 1) - k];
        leave.retain(|&h| h > 0);
        leave.sort_unstable();
        leave
    };
    // Tokens j to the end.
    let to_end = around(j, n - j + 1);
    if legal(n - j + 1, &to_end) {
        return Some(write(&to_end));
    }
    // The fewest tokens from j on, then any run of tokens that takes j.
    let most = MOST_TAKEN.min(n - j + 1);
    if let Some(k) = (1..=most).find(|&k| legal(k, &around(j, k))) {
        return Some(write(&around(j, k)));
    }
    for k in 2..=MOST_TAKEN.min(n) {
        for s in j.saturating_sub(k - 1).max(1)..j {
            if s + k - 1 <= n && legal(k, &around(s, k)) {
                return Some(write(&around(s, k)));
            }
        }
    }
    // A split that takes nothing: after token j.
    let split = around(j + 1, 0);
    (j < n && legal(0, &split)).then(|| write(&split))
}

/// The most tokens a clicked move other than "to the end" takes (an octal code has at most a
/// few dozen digits).
pub const MOST_TAKEN: u64 = 32;

/// Most coins drawn along an axis: a longer axis shows the coins near its ends, the heads and
/// the marked coins, with `…` for each run skipped.
const MOST_ALONG: u64 = 48;
const MOST_ACROSS: u64 = 20;
const COIN_PITCH: f64 = 30.0;
const COIN: f64 = 11.0;
const GAP_PITCH: f64 = 18.0;

/// One place along an axis: a coin's index, or a run of coins not drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cell {
    Coin(u64),
    Gap,
}

/// The places drawn along an axis of `n` coins, at most about `most`, keeping the coins in
/// `wanted` (and their neighbours) first.
fn axis(n: u64, wanted: &[u64], most: u64) -> Vec<Cell> {
    if n <= most {
        return (0..n).map(Cell::Coin).collect();
    }
    let mut keep: Vec<u64> = Vec::new();
    for &c in wanted {
        keep.extend([c.saturating_sub(1), c, c.saturating_add(1)]);
    }
    keep.sort_unstable();
    keep.dedup();
    keep.retain(|&c| c < n);
    keep.truncate(most as usize - 8);
    // The ends, as far as room is left.
    let room = (most as usize).saturating_sub(keep.len()) as u64;
    keep.extend(0..(room / 2).min(n));
    keep.extend(n.saturating_sub(room - room / 2)..n);
    keep.sort_unstable();
    keep.dedup();
    let mut out = Vec::new();
    let mut next = 0;
    for c in keep {
        if c > next {
            out.push(Cell::Gap);
        }
        out.push(Cell::Coin(c));
        next = c + 1;
    }
    if next < n {
        out.push(Cell::Gap);
    }
    out
}

/// A coin-turning board: `board` coins per axis (one or two axes) numbered from `base`, the
/// heads, and the coins the marked move turns (outlined in red). `click(coin)` is the notation
/// of the move clicking that coin plays, if any (see [`coin_clicks`]).
pub struct CoinBoard<'a> {
    pub board: &'a [u64],
    pub base: &'a [i64],
    pub heads: &'a [Vec<u64>],
    pub marked: &'a [Vec<u64>],
    pub click: &'a dyn Fn(&[u64]) -> Option<String>,
}

/// The board drawn, headed by `caption` and `notes`: heads gold with `H`, tails pale grey with
/// `T`, each axis numbered as the instance numbers its coins.
pub fn coins_svg(b: &CoinBoard, caption: &str, notes: &[String]) -> String {
    let two = b.board.len() == 2;
    let along = |d: usize| -> Vec<u64> {
        b.heads.iter().chain(b.marked).filter_map(|c| c.get(d).copied()).collect()
    };
    let xs = axis(
        b.board.first().copied().unwrap_or(0),
        &along(0),
        if two { MOST_ACROSS } else { MOST_ALONG },
    );
    let ys = if two { axis(b.board[1], &along(1), MOST_ACROSS) } else { vec![Cell::Coin(0)] };
    let step = |c: &Cell| if *c == Cell::Gap { GAP_PITCH } else { COIN_PITCH };
    // One dimension wraps after this many places.
    let per_line = if two { xs.len() } else { 24 };
    let lines: Vec<&[Cell]> = xs.chunks(per_line.max(1)).collect();
    let left = MARGIN + if two { 44.0 } else { 0.0 };
    let row_width = lines.iter().map(|l| l.iter().map(step).sum::<f64>()).fold(0.0, f64::max);
    let width = (left + row_width + MARGIN).max(MIN_WIDTH);
    let (head, top) = heading(caption, notes, width);
    let mut body = String::new();
    let number = |d: usize, i: u64| (i as i128 + i128::from(b.base[d])).to_string();
    // The coins' numbers along one line of the board (above a grid, under a row).
    let coin_numbers = |body: &mut String, line: &[Cell], y: f64| {
        let mut x = left;
        for cell in line {
            if let Cell::Coin(i) = cell {
                let _ = writeln!(
                    body,
                    "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\" \
                     fill=\"#555555\">{}</text>",
                    x + COIN_PITCH / 2.0,
                    y + 10.0,
                    number(0, *i)
                );
            }
            x += step(cell);
        }
    };
    let mut y = top;
    let heads: std::collections::HashSet<&[u64]> = b.heads.iter().map(Vec::as_slice).collect();
    let marked: std::collections::HashSet<&[u64]> = b.marked.iter().map(Vec::as_slice).collect();
    for line in &lines {
        if two {
            // Column numbers above the grid.
            coin_numbers(&mut body, line, y);
            y += 16.0;
        }
        for row in &ys {
            let h = step(row);
            if let Cell::Coin(r) = row {
                if two {
                    let _ = writeln!(
                        body,
                        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"end\" \
                         fill=\"#555555\">{}</text>",
                        left - 8.0,
                        y + h / 2.0 + 3.5,
                        number(1, *r)
                    );
                }
            }
            let mut x = left;
            for cell in line.iter() {
                let w = step(cell);
                let (cx, cy) = (x + w / 2.0, y + h / 2.0);
                match (cell, row) {
                    (Cell::Coin(i), Cell::Coin(r)) => {
                        let coin: Vec<u64> = if two { vec![*i, *r] } else { vec![*i] };
                        let head = heads.contains(coin.as_slice());
                        let (fill, rim, letter, ink) = if head {
                            ("#f2b705", "#8a6500", "H", "#3d2c00")
                        } else {
                            ("#eeeeee", "#9a9a9a", "T", "#8a8a8a")
                        };
                        let _ = writeln!(
                            body,
                            "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{COIN}\" fill=\"{fill}\" \
                             stroke=\"{rim}\" stroke-width=\"1.2\"/>"
                        );
                        let _ = writeln!(
                            body,
                            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"11\" font-weight=\"bold\" \
                             text-anchor=\"middle\" fill=\"{ink}\">{letter}</text>",
                            cy + 4.0
                        );
                        if marked.contains(coin.as_slice()) {
                            let _ = writeln!(
                                body,
                                "<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"{:.1}\" fill=\"none\" \
                                 stroke=\"{MARK}\" stroke-width=\"3\"/>",
                                COIN + 3.0
                            );
                        }
                        if let Some(notation) = (b.click)(&coin) {
                            hit_box(&mut body, x, y, w, h, &notation);
                        }
                    }
                    (Cell::Gap, Cell::Gap) => {}
                    _ => {
                        let mark = if *row == Cell::Gap && two { "⋮" } else { "…" };
                        let _ = writeln!(
                            body,
                            "<text x=\"{cx:.1}\" y=\"{:.1}\" font-size=\"14\" \
                             text-anchor=\"middle\" fill=\"#555555\">{mark}</text>",
                            cy + 5.0
                        );
                    }
                }
                x += w;
            }
            y += h;
        }
        if !two {
            // Coin numbers under the row.
            coin_numbers(&mut body, line, y);
            y += 22.0;
        }
    }
    document(width, top, y - top, &head, &body)
}

/// The move each coin plays when clicked, by the rule in the module's documentation: the index
/// in `moves` (each move's coins sorted, the defining coin last) of the move each coin plays.
pub fn coin_clicks(moves: &[Vec<Vec<u64>>]) -> HashMap<&[u64], usize> {
    // Per coin: (not its defining coin, coins turned, the defining coin), least first.
    type Rank<'m> = (bool, usize, &'m [u64]);
    let mut best: HashMap<&[u64], (Rank, usize)> = HashMap::new();
    for (k, coins) in moves.iter().enumerate() {
        let Some(last) = coins.last() else { continue };
        for coin in coins {
            let rank = (coin != last, coins.len(), last.as_slice());
            match best.get(coin.as_slice()) {
                Some((have, _)) if *have <= rank => {}
                _ => {
                    best.insert(coin, (rank, k));
                }
            }
        }
    }
    best.into_iter().map(|(coin, (_, k))| (coin, k)).collect()
}

/// A heap game's start drawn without a certificate (what `gamecert render` draws of the
/// instance alone): the heaps, clickable by the same rule as in play.
pub fn heaps_start_svg(game: &HeapGame, caption: &str) -> Result<String, String> {
    let rules = Rules::parse(&game.game)?;
    let notes = vec![
        format!("{}; the first player to move.", board_words(&rules, &game.heaps)),
        "No certificate: who wins is not shown (render it with a heap-labelling).".to_string(),
    ];
    Ok(heaps_picture(&rules, &game.heaps, None, None, caption, &notes))
}

/// "3 heaps, 21 tokens (kayles, octal 0.77)".
pub(crate) fn board_words(rules: &Rules, heaps: &[u64]) -> String {
    let tokens = heaps.iter().fold(0u64, |s, &h| s.saturating_add(h));
    format!(
        "{}, {} (the game {})",
        counted(heaps.len(), "heap"),
        counted(tokens, "token"),
        rules.code()
    )
}

/// The picture, with every drawn token's click ([`crate::impartial::pictures::heap_click`]).
pub(crate) fn heaps_picture(
    rules: &Rules,
    heaps: &[u64],
    marked: Option<(usize, &[u64])>,
    values: Option<&[u64]>,
    caption: &str,
    notes: &[String],
) -> String {
    let click = |i: usize, j: u64| -> Option<String> {
        let n = *heaps.get(i)?;
        let legal = |take: u64, leave: &[u64]| rules.is_legal(n, take, leave);
        let write = |leave: &[u64]| {
            let parts: Vec<String> = leave.iter().map(u64::to_string).collect();
            format!("{}:{}", i + 1, if parts.is_empty() { "0".into() } else { parts.join("+") })
        };
        heap_click(n, j, &legal, &write)
    };
    let marked = marked.map(|(heap, leave)| MarkedHeap { heap, leave });
    heaps_svg(heaps, marked, values, &click, caption, notes)
}

/// A coin game's start drawn without a certificate (what `gamecert render` draws of the
/// instance alone): the board and its heads, with no moves to click.
pub fn coins_start_svg(spec: &CoinGameSpec, caption: &str) -> Result<String, String> {
    let game = spec.validate()?;
    let notes = vec![
        crate::base::svg::sentence(&format!(
            "{}; the first player to move.",
            coin_board_words(&game.board, game.heads.len())
        )),
        "No certificate: who wins is not shown (render it with a coin-labelling).".to_string(),
    ];
    let board = CoinBoard {
        board: &game.board,
        base: &game.base,
        heads: &game.heads,
        marked: &[],
        click: &|_| None,
    };
    Ok(coins_svg(&board, caption, &notes))
}

/// "a 100 x 100 board, 2 heads".
pub(crate) fn coin_board_words(board: &[u64], heads: usize) -> String {
    let size = board.iter().map(u64::to_string).collect::<Vec<_>>().join(" x ");
    let row = if board.len() == 1 {
        format!("row of {}", counted(board[0], "coin"))
    } else {
        format!("{size} board")
    };
    format!("a {row}, {} (gold H), the rest tails (grey T)", counted(heads, "head"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(code: &str, n: u64) -> impl Fn(u64, &[u64]) -> bool {
        let rules = Rules::parse(code).unwrap();
        move |take: u64, leave: &[u64]| rules.is_legal(n, take, leave)
    }

    fn write(leave: &[u64]) -> String {
        let parts: Vec<String> = leave.iter().map(u64::to_string).collect();
        if parts.is_empty() {
            "0".into()
        } else {
            parts.join("+")
        }
    }

    #[test]
    fn a_click_takes_from_the_token_on_or_knocks_it_out() {
        // Kayles: the last two tokens are taken to the end, an inner one is knocked out.
        let kayles = options("kayles", 7);
        assert_eq!(heap_click(7, 7, &kayles, &write).as_deref(), Some("6"));
        assert_eq!(heap_click(7, 6, &kayles, &write).as_deref(), Some("5"));
        assert_eq!(heap_click(7, 3, &kayles, &write).as_deref(), Some("2+4"));
        // Take 1 to 3 tokens, never splitting: the tokens near either end are clickable (the
        // first two tokens taken leave the other 8), a middle one is not.
        let take3 = options("0.333", 10);
        assert_eq!(heap_click(10, 8, &take3, &write).as_deref(), Some("7"));
        assert_eq!(heap_click(10, 2, &take3, &write).as_deref(), Some("8"));
        assert_eq!(heap_click(10, 5, &take3, &write), None);
        // Grundy's game splits after the token; an equal split is no move.
        let grundy = options("grundy", 6);
        assert_eq!(heap_click(6, 2, &grundy, &write).as_deref(), Some("2+4"));
        assert_eq!(heap_click(6, 3, &grundy, &write), None);
        assert_eq!(heap_click(6, 0, &grundy, &write), None);
    }

    #[test]
    fn a_long_heap_is_drawn_with_a_gap_and_its_size() {
        let svg = heaps_svg(&[1000, 1], None, None, &|_, _| None, "c", &[]);
        assert_eq!(svg.matches("<circle").count(), (HEAD_TOKENS + TAIL_TOKENS + 1) as usize);
        assert!(svg.contains("…") && svg.contains("(1000)"));
        assert!(!svg.contains("data-move"));
        // A heap of 10^15 tokens costs what a heap of 41 does, its marked move shown.
        let marked = MarkedHeap { heap: 0, leave: &[5, 999_999_999_999_990] };
        let svg = heaps_svg(&[1_000_000_000_000_000], Some(marked), None, &|_, _| None, "c", &[]);
        assert_eq!(svg.matches("<circle").count(), (HEAD_TOKENS + TAIL_TOKENS) as usize);
        assert_eq!(svg.matches("<path").count(), 5, "tokens 6 to 10 crossed out");
    }

    #[test]
    fn a_large_axis_keeps_its_ends_and_the_wanted_coins() {
        let cells = axis(1000, &[500], 20);
        assert!(cells.len() <= 24, "{cells:?}");
        assert_eq!(cells[0], Cell::Coin(0));
        assert_eq!(cells.last(), Some(&Cell::Coin(999)));
        assert!(cells.contains(&Cell::Coin(500)) && cells.contains(&Cell::Gap));
        assert_eq!(axis(5, &[], 20).len(), 5);
    }

    #[test]
    fn a_head_plays_its_simplest_move_and_another_coin_one_that_turns_it() {
        let moves: Vec<Vec<Vec<u64>>> = vec![
            vec![vec![3]],
            vec![vec![1], vec![3]],
            vec![vec![2], vec![5]],
            vec![vec![1], vec![5]],
        ];
        let clicks = coin_clicks(&moves);
        assert_eq!(clicks[[3].as_slice()], 0);
        assert_eq!(clicks[[1].as_slice()], 1, "the nearer head first");
        assert_eq!(clicks[[2].as_slice()], 2);
        assert_eq!(clicks[[5].as_slice()], 2);
        assert!(!clicks.contains_key([4].as_slice()));
    }
}

//! Nimstring (normal play) on triangulations whose dual is a path, fans above all, by
//! Berlekamp's Nimstring values of strips: the solver side of the `nimstring-strips`
//! certificate (the rules of a cut, the captures, loony positions and long chains are the
//! checker's, [`gamecert_certificates::triangulations::nimstring_strips`]).
//!
//! A fan of t triangles is Strings-and-Coins on a row of t coins: the end coins with two ground
//! strings, the middle ones with one, neighbours joined by a string (an inner spoke). So is
//! every serpentine triangulation of t triangles, so they all play the same Nimstring. The
//! values here are memoised over canonical strips (every coin on at least two strings, long
//! chains cut out, the smaller orientation); a certificate lists the strips the start's value
//! rests on.
//!
//! The rules are taken on faith ([`gamecert_certificates::TRUSTED_NIMSTRING_VALUES`]); the tests
//! below hold them to the exact compound-move solver ([`crate::triangulations::nimstring`]) on
//! every position of every fan with at most 9 triangles (10 in an ignored test) and of every
//! sum of two fans with at most 8 triangles in all.

use crate::triangulations::nimstring::{Board, FanTableRow, MISERE_EXACT_MAX};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};
use gamecert_certificates::triangulations::nimstring_strips::{
    check_nimstring_strips, options, resolve, strip_of, NimstringStrips, Strip, StripValue,
};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Memoised Nimstring values of canonical strips.
#[derive(Default)]
pub struct StripValues {
    values: HashMap<Strip, u64>,
}

impl StripValues {
    pub fn new() -> Self {
        Self::default()
    }

    /// Strips valued so far.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The Nimstring value of a canonical strip: the mex over its non-loony cuts of the nim sum
    /// of what they leave.
    pub fn value(&mut self, strip: Strip) -> u64 {
        let strip = strip.oriented();
        if let Some(&v) = self.values.get(&strip) {
            return v;
        }
        let mut seen = Vec::new();
        for pieces in options(&strip, &mut Budget::unlimited())
            .expect("unlimited budget")
            .into_iter()
            .flatten()
        {
            seen.push(pieces.into_iter().fold(0, |x, p| x ^ self.value(p)));
        }
        seen.sort_unstable();
        seen.dedup();
        let mex = seen.iter().enumerate().take_while(|&(k, &v)| k as u64 == v).count() as u64;
        self.values.insert(strip, mex);
        mex
    }

    /// The value of a row of strips in any shape (captures pending): `None` when loony (the
    /// player to move wins).
    pub fn position_value(&mut self, strips: Vec<Strip>) -> Option<u64> {
        let mut x = 0;
        for s in strips {
            for piece in resolve(s, &mut Budget::unlimited()).expect("unlimited budget")? {
                x ^= self.value(piece);
            }
        }
        Some(x)
    }

    /// The labels a certificate for `start` (canonical pieces) needs: every strip reached from
    /// it by non-loony cuts, sorted.
    pub fn closure(&mut self, start: &[Strip]) -> Vec<StripValue> {
        let mut seen: HashSet<Strip> = HashSet::new();
        let mut stack: Vec<Strip> = start.iter().cloned().map(Strip::oriented).collect();
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            let value = self.value(s.clone());
            for pieces in options(&s, &mut Budget::unlimited())
                .expect("unlimited budget")
                .into_iter()
                .flatten()
            {
                stack.extend(pieces.into_iter().map(Strip::oriented).filter(|p| !seen.contains(p)));
            }
            out.push(StripValue { strip: s.to_string(), value });
        }
        out.sort_by(|a, b| (a.strip.len(), &a.strip).cmp(&(b.strip.len(), &b.strip)));
        out
    }
}

/// A `nimstring-strips` certificate for a Nimstring instance on a triangulation whose dual is
/// a path.
pub fn certificate(spec: &MarkingSpec) -> Result<NimstringStrips, String> {
    certificate_with(spec, &mut StripValues::new())
}

/// [`certificate`] with a memo shared across instances.
pub fn certificate_with(
    spec: &MarkingSpec,
    memo: &mut StripValues,
) -> Result<NimstringStrips, String> {
    if spec.game != MarkingGame::Nimstring {
        return Err("strips decide Nimstring under normal play only".into());
    }
    let start = strip_of(spec, &mut Budget::unlimited())?;
    let pieces = resolve(start, &mut Budget::unlimited())?.ok_or("the start is loony")?;
    let value = pieces.iter().fold(0, |x, p| x ^ memo.value(p.clone()));
    let strips = memo.closure(&pieces);
    Ok(NimstringStrips { winner: if value != 0 { "first" } else { "second" }.into(), strips })
}

/// The Nimstring instance on the fan of `triangles` triangles.
pub fn fan_spec(triangles: usize) -> Result<MarkingSpec, String> {
    Ok(MarkingSpec {
        game: MarkingGame::Nimstring,
        triangulation: crate::triangulations::generate::generate(
            crate::triangulations::generate::Kind::Fan,
            triangles + 2,
            0,
            1,
        )?,
    })
}

/// One row of the strip table: a fan's certified Nimstring value.
#[derive(Clone, Debug, Serialize)]
pub struct StripRow {
    pub triangles: usize,
    /// "first" or "second", certified.
    pub winner: &'static str,
    /// The Nimstring value of the fan, certified.
    pub nimstring_value: u64,
    /// Strip labels the certificate lists and the checker verified.
    pub strips_checked: u64,
    /// The first cuts that leave value 0, by edge name (the solver's word; fans of at most 31
    /// triangles, the exact board's 64 edges).
    pub winning: Vec<String>,
    /// Milliseconds to solve and check.
    pub millis: u128,
}

/// Fans of `from..=to` triangles by strips, each certificate checked.
pub fn fan_strip_rows(
    from: usize,
    to: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<StripRow>, String> {
    let mut memo = StripValues::new();
    let mut rows = Vec::new();
    for t in from..=to {
        progress(&format!("normal play, {t} triangles, by strips"));
        let started = Instant::now();
        let spec = fan_spec(t)?;
        let cert = certificate_with(&spec, &mut memo)?;
        let report = check_nimstring_strips(&spec, &cert, &mut Budget::unlimited())
            .map_err(|why| format!("{t} triangles: the checker refused the strips: {why}"))?;
        let winning = winning_first_edges(&spec, &mut memo)?;
        rows.push(StripRow {
            winning,
            triangles: t,
            winner: if report.value != 0 { "first" } else { "second" },
            nimstring_value: report.value,
            strips_checked: report.strips,
            millis: started.elapsed().as_millis(),
        });
    }
    Ok(rows)
}

/// `table nimstring-fans --max-triangles N`: normal play on 1..=N triangles, the paper's 1..=9
/// by the exact solver too, every row's Nimstring value by strips (each certificate checked,
/// and its outcome held to the exact solver's where both exist); misère play on 1..=N up to
/// [`MISERE_EXACT_MAX`], by the exact solver (at least the paper's 10).
pub fn fan_table_rows_to(
    max_triangles: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<FanTableRow>, String> {
    let exact_normal = max_triangles.min(9);
    let misere = max_triangles.clamp(10, MISERE_EXACT_MAX);
    let mut rows =
        crate::triangulations::nimstring::fan_table_rows(exact_normal, misere, progress)?;
    let strips =
        crate::triangulations::nimstring_strips::fan_strip_rows(1, max_triangles, progress)?;
    for s in strips {
        if let Some(row) =
            rows.iter_mut().find(|r| r.play == "normal" && r.triangles == s.triangles)
        {
            if row.winner != s.winner {
                return Err(format!(
                    "{} triangles: the strips and the exact solver disagree",
                    s.triangles
                ));
            }
            row.nimstring_value = Some(s.nimstring_value);
            row.strips_checked = Some(s.strips_checked);
        } else {
            rows.push(FanTableRow {
                play: "normal",
                triangles: s.triangles,
                winner: s.winner,
                positions_checked: None,
                grundy: None,
                winning: s.winning,
                nimstring_value: Some(s.nimstring_value),
                strips_checked: Some(s.strips_checked),
            });
        }
    }
    rows.sort_by_key(|r| (r.play != "normal", r.triangles));
    Ok(rows)
}

/// The first edges after which the strips' value is 0, named as in the exact solver's table.
fn winning_first_edges(spec: &MarkingSpec, memo: &mut StripValues) -> Result<Vec<String>, String> {
    let tri = spec.triangulation.validate(&mut Budget::unlimited())?;
    let Ok(board) = Board::new(&tri) else { return Ok(Vec::new()) };
    Ok((0..board.edges.len())
        .filter(|&e| memo.position_value(strips_of(&board, 1 << e)) == Some(0))
        .map(|e| crate::triangulations::nimstring::fan_edge_name(board.edges[e]))
        .collect())
}

/// The strips of a position of `board` (a union of boards whose duals are paths): the
/// uncaptured coins joined by uncut shared edges, in path order, with their uncut hull edges as
/// ground strings.
pub fn strips_of(board: &Board, green: u64) -> Vec<Strip> {
    let n = board.triangles.len();
    let owners =
        |e: usize| (0..n).filter(|&k| board.triangles[k] >> e & 1 == 1).collect::<Vec<_>>();
    let mut links = vec![Vec::new(); n];
    let mut grounds = vec![0u8; n];
    let mut alive = vec![false; n];
    for e in 0..board.edges.len() {
        if green >> e & 1 == 1 {
            continue;
        }
        let o = owners(e);
        for &k in &o {
            alive[k] = true;
        }
        match o[..] {
            [k] => grounds[k] += 1,
            [a, b] => {
                links[a].push(b);
                links[b].push(a);
            }
            _ => unreachable!(),
        }
    }
    let mut done = vec![false; n];
    let mut out = Vec::new();
    for k in 0..n {
        if done[k] || !alive[k] || links[k].len() > 1 {
            continue;
        }
        let mut row = vec![k];
        done[k] = true;
        while let Some(&next) = links[*row.last().unwrap()].iter().find(|&&j| !done[j]) {
            done[next] = true;
            row.push(next);
        }
        out.push(Strip {
            left_chain: false,
            grounds: row.iter().map(|&j| grounds[j]).collect(),
            right_chain: false,
        });
    }
    assert!((0..n).all(|k| done[k] || !alive[k]), "the dual is a union of paths");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangulations::nimstring::{Play, Solver};

    fn fan_board(t: usize) -> Board {
        let spec = fan_spec(t).unwrap();
        Board::new(&spec.triangulation.validate(&mut Budget::unlimited()).unwrap()).unwrap()
    }

    /// Every position (every set of green edges) of `board`: the exact solver's outcome equals
    /// the strips' (loony, or a non-zero nim sum, is a win for the player to move).
    fn agree_everywhere(board: &Board, memo: &mut StripValues) -> usize {
        let mut solver = Solver::new(board, Play::Normal);
        let edges = board.edges.len();
        for green in 0..1u64 << edges {
            let by_strips = memo.position_value(strips_of(board, green)).is_none_or(|v| v != 0);
            assert_eq!(solver.wins(green), by_strips, "position {green:#x} of {edges} edges");
        }
        1 << edges
    }

    #[test]
    fn every_position_of_every_fan_up_to_9_triangles() {
        let mut memo = StripValues::new();
        for t in 1..=9 {
            agree_everywhere(&fan_board(t), &mut memo);
        }
    }

    /// The same for 10 triangles (2,097,152 positions; about a minute).
    #[test]
    #[ignore]
    fn every_position_of_the_fan_of_10_triangles() {
        agree_everywhere(&fan_board(10), &mut StripValues::new());
    }

    /// Sums: every position of two fans side by side (the move-again rule crosses from one to
    /// the other), up to 8 triangles in all.
    #[test]
    fn every_position_of_every_sum_of_two_fans() {
        let mut memo = StripValues::new();
        for a in 1..=4 {
            for b in a..=8 - a {
                agree_everywhere(&Board::union(&fan_board(a), &fan_board(b)), &mut memo);
            }
        }
    }

    /// The certificates are accepted, and their outcomes are the exact solver's, 1..=9.
    #[test]
    fn certificates_agree_with_the_exact_solver() {
        let rows = fan_strip_rows(1, 9, &mut |_| {}).unwrap();
        for row in rows {
            let exact = crate::triangulations::nimstring::fan_row(row.triangles, Play::Normal);
            assert_eq!(
                row.winner == "first",
                exact.outcome == "1st",
                "{} triangles",
                row.triangles
            );
        }
    }

    /// `table nimstring-fans --max-triangles 3`: the exact rows and the strips' values side by
    /// side (misère play to the paper's 10), and the text; past the paper's rows, "extended".
    #[test]
    fn the_extended_table_joins_both() {
        let rows = fan_table_rows_to(3, &mut |_| {}).unwrap();
        let normal: Vec<_> = rows.iter().filter(|r| r.play == "normal").collect();
        assert_eq!(normal.len(), 3);
        assert!(normal.iter().all(|r| r.positions_checked.is_some() && r.strips_checked.is_some()));
        assert_eq!(
            normal.iter().map(|r| r.nimstring_value.unwrap()).collect::<Vec<_>>(),
            [0, 1, 0]
        );
        assert_eq!(rows.iter().filter(|r| r.play == "misere").count(), 10);
        let text = crate::triangulations::nimstring::fan_tables_text(&rows);
        assert!(text.contains("| 2 | 1st | 1 (4) | 13 | 1 |"), "{text}");
        assert!(!text.contains("extended"), "3 triangles are within the paper's tables: {text}");
        // The names docs/results.md uses: the Nimstring value, and the other column said plainly.
        assert!(text.contains("| Nimstring value (certified: strips checked) |"), "{text}");
        assert!(text.contains("| Grundy value of whole turns (solver only) |"), "{text}");
        assert!(text.contains("it is the paper's \"Number\""), "{text}");
        let mut longer = rows.clone();
        for (play, triangles) in [("normal", 10), ("misere", 11)] {
            longer.push(FanTableRow { play, triangles, ..rows[0].clone() });
        }
        let text = crate::triangulations::nimstring::fan_tables_text(&longer);
        assert!(text.contains("Table 4, extended") && text.contains("Table 5, extended"));
    }

    /// A wrong label is refused.
    #[test]
    fn a_wrong_label_is_refused() {
        let spec = fan_spec(5).unwrap();
        let mut cert = certificate(&spec).unwrap();
        let last = cert.strips.len() - 1;
        cert.strips[last].value ^= 1;
        assert!(check_nimstring_strips(&spec, &cert, &mut Budget::unlimited()).is_err());
    }
}

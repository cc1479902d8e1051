//! `gamecert table green-wins` (issue 32 item 4): seed 000, 7.2, "It is an open question
//! whether [more green than black edges at the end of Green-Wins Solitaire] can always be
//! done." Every triangulation of the convex n-gon for n = 4..=--max-convex, and random point
//! sets with inner points (every triangulation of each, up to a cap), each answered by the most
//! green edges any flip sequence reaches, written as a `flip-sequence` certificate and replayed
//! by the checker ([`check_flip_sequence`]). A triangulation where even the best sequence leaves
//! at least as many black edges as green is a counterexample: its maximum is certified by a
//! `flip-bound` ([`check_flip_bound`]: the checker visits every position reachable by legal
//! flips and finds none with more green), so both directions are the checker's, not the
//! solver's.
//!
//! Theorem 12's own family S(t) (t = 3..=5, 6 to 18 points) is included: its g(t) is below
//! half the edges from t = 5 on (docs/papers.md), and here that is certified the same way.
//!
//! Each row's counterexample with the least margin (the one the text shows) is kept whole, and
//! `--out DIR` ([`write_counterexamples`]) writes it as a `flip-game` instance with its two
//! certificates: the best sequence (`.cert.json`, a `flip-sequence`, what `gamecert render`
//! draws flip by flip) and its bound (`.bound.json`, a `flip-bound`), each checked by
//! `gamecert verify`.
//!
//! The best sequence: in convex position Theorem 11's dynamic programme
//! ([`super::solitaire::all_green_dp`]); with inner points the search over independent sets of
//! flippable edges ([`super::solitaire::independent_search`]; the independence lemma in
//! `solitaire.rs`). Every triangulation of a point set: a breadth-first walk of its flip graph
//! (connected, Lawson), keyed by the edge set.

use super::flipping::{all_convex, convex_spec, gen_instance};
use super::generate::Kind;
use super::solitaire::{all_green_dp, independent_search};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::triangulations::flip_bound::{check_flip_bound, FlipBound};
use gamecert_certificates::triangulations::flipping::{
    check_flip_sequence, setup, Board, FlipGame, FlipSequence, FlipSpec,
};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashSet;

/// One row: the triangulations of one family and size.
#[derive(Clone, Debug, Serialize)]
pub struct GreenWinsRow {
    /// "convex" (every triangulation of the n-gon), "S(t)" (Theorem 12's family, its one
    /// triangulation) or "inner points" (random point sets).
    pub family: &'static str,
    pub points: usize,
    /// Point sets (1 for the convex polygon).
    pub point_sets: usize,
    /// Point sets whose triangulations were cut at the cap (the first ones found, in order).
    pub capped: usize,
    pub triangulations: u64,
    /// Triangulations where the certified best sequence leaves more green than black.
    pub won: u64,
    /// Counterexamples: the best sequence leaves at least as many black edges as green.
    pub lost: u64,
    /// The smallest margin green - black over the row, and one triangulation reaching it.
    pub least_margin: i64,
    pub least_margin_at: String,
    /// Where `--out` wrote that triangulation when it is a counterexample (the instance file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance_file: Option<String>,
    /// That triangulation, when it is a counterexample: the instance and its certificates.
    #[serde(skip)]
    pub counterexample: Option<Counterexample>,
}

/// A triangulation where the best flip sequence leaves no more green than black, with the
/// certificates the checker accepted: the sequence, and the bound no sequence passes.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The files' stem: `green-wins-` and the family, size and seed.
    pub name: String,
    pub spec: FlipSpec,
    pub sequence: FlipSequence,
    pub bound: FlipBound,
}

/// The result of one triangulation: its certified margin and a description, and the whole
/// triangulation with its certificates when it is a counterexample.
struct Answer {
    margin: i64,
    what: String,
    counterexample: Option<Counterexample>,
}

/// The best sequence for `spec` (`convex`: Theorem 11's DP), replayed by the checker.
fn certified_best(spec: &FlipSpec, convex: Option<usize>) -> anyhow::Result<Answer> {
    let (shape, board) = setup(spec, &mut Budget::unlimited()).map_err(anyhow::Error::msg)?;
    let flips = match convex {
        Some(n) => all_green_dp(n, &spec.triangles).1,
        None => independent_search(&shape, &board).1,
    };
    let mut b = board.clone();
    for &e in &flips {
        b.play(&shape, FlipGame::GreenWins, e, 1).map_err(anyhow::Error::msg)?;
    }
    let cert = FlipSequence { green: b.count(1), flips };
    let (green, total) =
        check_flip_sequence(spec, &cert, &mut Budget::unlimited()).map_err(|why| {
            anyhow::anyhow!("internal error: the checker rejected a best flip sequence: {why}")
        })?;
    let margin = 2 * green as i64 - total as i64;
    let mut counterexample = None;
    if margin <= 0 {
        // A counterexample: the checker visits every position to certify that no sequence
        // does better.
        let bound = FlipBound { at_most: green };
        check_flip_bound(spec, &bound, &mut Budget::unlimited()).map_err(|why| {
            anyhow::anyhow!("internal error: the checker rejected a flip-bound: {why}")
        })?;
        let name = String::new();
        counterexample = Some(Counterexample { name, spec: spec.clone(), sequence: cert, bound });
    }
    Ok(Answer {
        margin,
        what: format!("{green} of {total} green, triangles {:?}", spec.triangles),
        counterexample,
    })
}

/// `answer` with its description led by `what` and its counterexample (if any) named `name`.
fn named(answer: Answer, what: &str, name: String) -> Answer {
    let counterexample = answer.counterexample.map(|c| Counterexample { name, ..c });
    Answer { what: format!("{what}: {}", answer.what), counterexample, ..answer }
}

/// Triangulations as lists of triangles, and whether the walk stopped at its cap.
pub type Found = (Vec<Vec<[usize; 3]>>, bool);

/// Every triangulation of `spec`'s point set, at most `cap` (breadth first from `spec`'s).
pub fn triangulations(spec: &FlipSpec, cap: usize) -> Result<Found, String> {
    let (shape, start) = setup(spec, &mut Budget::unlimited())?;
    let key = |b: &Board| {
        let mut k: Vec<[u32; 2]> = b.edges.keys().copied().collect();
        k.sort_unstable();
        k
    };
    let mut seen = HashSet::from([key(&start)]);
    let mut queue = std::collections::VecDeque::from([start]);
    let mut out = Vec::new();
    while let Some(board) = queue.pop_front() {
        out.push(triangles(&board));
        if out.len() == cap {
            return Ok((out, !queue.is_empty()));
        }
        for e in board.moves(&shape) {
            let mut next = board.clone();
            next.play(&shape, FlipGame::MonochromaticFlipping, e, 0)?;
            if seen.insert(key(&next)) {
                queue.push_back(next);
            }
        }
    }
    Ok((out, false))
}

/// A board's triangles, each once.
fn triangles(board: &Board) -> Vec<[usize; 3]> {
    let mut out = Vec::new();
    for (k, s) in &board.edges {
        for c in s.apex {
            if c != u32::MAX && c > k[1] {
                out.push([k[0] as usize, k[1] as usize, c as usize]);
            }
        }
    }
    out.sort_unstable();
    out
}

/// Sums answers into a row.
fn row(
    family: &'static str,
    points: usize,
    point_sets: usize,
    capped: usize,
    answers: Vec<Answer>,
) -> GreenWinsRow {
    let least = answers.iter().min_by_key(|a| a.margin);
    GreenWinsRow {
        family,
        points,
        point_sets,
        capped,
        triangulations: answers.len() as u64,
        won: answers.iter().filter(|a| a.margin > 0).count() as u64,
        lost: answers.iter().filter(|a| a.margin <= 0).count() as u64,
        least_margin: least.map_or(0, |a| a.margin),
        least_margin_at: least.map_or(String::new(), |a| a.what.clone()),
        instance_file: None,
        counterexample: least.and_then(|a| a.counterexample.clone()),
    }
}

/// The table: convex n = 4..=`max_convex`; then `point_sets` random point sets with inner
/// points, sizes cycling through 5..=`max_points` (inner points 1..=n - 3 cycling), each with
/// at most `cap` triangulations. `progress` hears each row as it starts.
pub fn green_wins_table(
    max_convex: usize,
    point_sets: usize,
    max_points: usize,
    cap: usize,
    progress: &mut dyn FnMut(&str),
) -> anyhow::Result<Vec<GreenWinsRow>> {
    let mut rows = Vec::new();
    for n in 4..=max_convex {
        progress(&format!("convex {n}-gon"));
        let answers = all_convex(n)
            .into_par_iter()
            .enumerate()
            .map(|(k, t)| {
                let answer = certified_best(&convex_spec(FlipGame::GreenWins, n, t), Some(n))?;
                let name = format!("green-wins-convex-{n}-{}", k + 1);
                Ok(named(answer, &format!("triangulation {}", k + 1), name))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        rows.push(row("convex", n, 1, 0, answers));
    }
    // Theorem 12's family S(t), points 2^(t-1) + 2; t <= 5 keeps the flip-bound's visit of
    // every position within the checker's 22 points.
    for t in 3..=5u32 {
        progress(&format!("S({t})"));
        let mut spec = super::solitaire::s_of_t(t).map_err(anyhow::Error::msg)?;
        spec.game = FlipGame::GreenWins;
        let answer = certified_best(&spec, None)?;
        let points = spec.points.len();
        let answer = named(answer, &format!("S({t})"), format!("green-wins-S{t}"));
        rows.push(row("S(t)", points, 1, 0, vec![answer]));
    }
    let sizes: Vec<usize> = (5..=max_points).collect();
    for &n in &sizes {
        progress(&format!("point sets of {n} points"));
        let seeds: Vec<u64> =
            (0..point_sets as u64).filter(|s| sizes[*s as usize % sizes.len()] == n).collect();
        let per_set = seeds
            .par_iter()
            .map(|&seed| {
                let inner = 1 + (seed as usize / sizes.len()) % (n - 3);
                let spec = gen_instance(Kind::Points, n, inner, seed, FlipGame::GreenWins, false)
                    .map_err(anyhow::Error::msg)?;
                let (all, capped) = triangulations(&spec, cap).map_err(anyhow::Error::msg)?;
                let answers = all
                    .into_iter()
                    .map(|triangles| {
                        let t = FlipSpec { triangles, edges: vec![], ..spec.clone() };
                        certified_best(&t, None).map(|a| {
                            let what = format!("seed {seed}, {inner} inner");
                            // The triangulation's place in the walk of the set's flip graph.
                            let name = format!("green-wins-{n}-points-seed-{seed}");
                            named(a, &what, name)
                        })
                    })
                    .collect::<anyhow::Result<Vec<_>>>()?;
                Ok((capped, answers))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let capped = per_set.iter().filter(|(c, _)| *c).count();
        let answers = per_set.into_iter().flat_map(|(_, a)| a).collect();
        rows.push(row("inner points", n, seeds.len(), capped, answers));
    }
    Ok(rows)
}

/// Writes each row's counterexample (the one the text names) into `dir` as
/// `NAME.instance.json` (the `flip-game`), `NAME.cert.json` (its best `flip-sequence`, which
/// `gamecert render` draws) and `NAME.bound.json` (the `flip-bound` no sequence passes), and
/// records the instance file in its row; returns the instance files.
pub fn write_counterexamples(
    rows: &mut [GreenWinsRow],
    dir: &std::path::Path,
) -> std::io::Result<Vec<std::path::PathBuf>> {
    use gamecert_certificates::format::{Certificate, Instance};
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for row in rows.iter_mut() {
        let Some(c) = &row.counterexample else { continue };
        let path = |suffix: &str| dir.join(format!("{}.{suffix}.json", c.name));
        std::fs::write(path("instance"), Instance::FlipGame(c.spec.clone()).to_json())?;
        std::fs::write(path("cert"), Certificate::FlipSequence(c.sequence.clone()).to_json())?;
        std::fs::write(path("bound"), Certificate::FlipBound(c.bound.clone()).to_json())?;
        row.instance_file = Some(path("instance").display().to_string());
        written.push(path("instance"));
    }
    Ok(written)
}

/// The table as Markdown, with its summary line.
/// "1 triangulation ends", "6 triangulations end": the counted subject with its verb.
fn lost_end(lost: u64) -> String {
    let verb = if lost == 1 { "ends" } else { "end" };
    format!("{} {verb}", gamecert_certificates::base::text::counted(lost, "triangulation"))
}

pub fn green_wins_text(rows: &[GreenWinsRow], cap: usize) -> String {
    let mut out = format!(
        "Green-Wins Solitaire (seed 000, 7.2): the best flip sequence of every triangulation, \
         certified (flip-sequence replayed); point sets with inner points: every triangulation, \
         at most {cap} a set\n\n| family | points | point sets | capped | triangulations | won | \
         lost (flip-bound certified) | least margin (green - black) |\n|---|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.family,
            r.points,
            r.point_sets,
            r.capped,
            r.triangulations,
            r.won,
            r.lost,
            r.least_margin
        ));
    }
    let lost: u64 = rows.iter().map(|r| r.lost).sum();
    let total: u64 = rows.iter().map(|r| r.triangulations).sum();
    if lost == 0 {
        out.push_str(&format!(
            "\nMore green than black is reached on all {total} triangulations; no counterexample.\n"
        ));
    } else {
        for r in rows.iter().filter(|r| r.lost > 0) {
            // Written out, the counterexample is named by its files; otherwise by its triangles.
            let example = match (&r.instance_file, &r.counterexample) {
                (Some(file), Some(c)) => format!(
                    "{}, written to {file} (its best flip sequence in {}.cert.json, drawn by \
                     `gamecert render`; its flip-bound in {}.bound.json)",
                    r.least_margin_at.split(", triangles").next().unwrap_or_default(),
                    c.name,
                    c.name
                ),
                _ => r.least_margin_at.clone(),
            };
            out.push_str(&format!(
                "\n{} with {} points: {} with no more green than black \
                 (each maximum certified by a flip-bound), e.g. {example}\n",
                r.family,
                r.points,
                lost_end(r.lost),
            ));
        }
        if rows.iter().all(|r| r.instance_file.is_none()) {
            out.push_str(
                "\n`--out DIR` writes each example as a flip-game instance with its best flip \
                 sequence and its flip-bound (`gamecert render` draws it).\n",
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flip-graph walk finds Catalan(n - 2) triangulations of a convex polygon given by
    /// points, and the same count as a walk from another start.
    /// The verb agrees with the count (issue 48: "1 triangulation end with").
    #[test]
    fn the_lost_count_agrees_with_its_verb() {
        assert_eq!(lost_end(1), "1 triangulation ends");
        assert_eq!(lost_end(6), "6 triangulations end");
    }

    #[test]
    fn every_triangulation_of_a_convex_point_set_is_found() {
        let spec = gen_instance(Kind::Convex, 8, 0, 3, FlipGame::GreenWins, false).unwrap();
        let (all, capped) = triangulations(&spec, 10_000).unwrap();
        assert_eq!((all.len(), capped), (132, false));
        let (some, capped) = triangulations(&spec, 100).unwrap();
        assert_eq!((some.len(), capped), (100, true));
    }

    /// The best sequence's margin against the search over every position, on every
    /// triangulation of small point sets with inner points.
    #[test]
    fn best_sequences_match_the_search_over_positions() {
        for seed in 0..6 {
            let spec = gen_instance(
                Kind::Points,
                7,
                1 + seed as usize % 3,
                seed,
                FlipGame::GreenWins,
                false,
            )
            .unwrap();
            for triangles in triangulations(&spec, 1_000).unwrap().0 {
                let t = FlipSpec { triangles, edges: vec![], ..spec.clone() };
                let (shape, board) = setup(&t, &mut Budget::unlimited()).unwrap();
                let (best, _) = crate::triangulations::solitaire::exhaustive(&shape, &board);
                let a = certified_best(&t, None).unwrap();
                let total = board.edges.len() as i64;
                assert_eq!(a.margin, 2 * best as i64 - total, "{:?}", t.triangles);
            }
        }
    }
}

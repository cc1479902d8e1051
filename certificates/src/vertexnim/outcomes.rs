//! Certificate kind `vertexnim-outcomes`: the outcome of every position of a Vertex NimG
//! instance's weight box, checked by the rules alone (issue 32 item 5: the paper's Section 5
//! leaves NimG with weight-0 vertices and on digraphs without "satisfying results").
//!
//! ```json
//! {"format": "gamecert-certificate", "version": 1, "kind": "vertexnim-outcomes",
//!  "winner": "first", "outcomes": "PNPN..."}
//! ```
//!
//! Under NimG nothing is removed: a position is the weight vector x and the token t, and from
//! the start (weights w, token u) only positions with x <= w (componentwise) are reached.
//! The *weight box* is every such (x, t), t any vertex. `outcomes` has one letter per position
//! of the box, `N` (the player to move wins) or `P` (the player to move loses), at the index
//! `t + n * (x_0 + (w_0 + 1) * (x_1 + (w_1 + 1) * (x_2 + ...)))` (vertex 0 the least
//! significant digit; n the number of vertices).
//!
//! What is checked: the length is exactly the box's size; every letter is `N` or `P`; every
//! position is labelled by the rules of [`super::strategy`] (a move lowers x_t to any k < x_t
//! and moves the token along an edge or arc of t, to t itself only along a loop; a player on
//! a vertex of weight 0 has no move): with no move, `P` under normal play and `N` under
//! misère play; otherwise `N` iff some move leads to a `P` position. A move lowers a weight,
//! so it leads to a smaller index (the token's part, below n, cannot make up for a weight
//! digit, worth n): checking the positions in increasing index order checks each label
//! against labels already checked, and by induction every label is the true outcome. The
//! claim ("the first player wins" or "the second") must be the start's label. Nothing is taken
//! on faith.
//!
//! Cost: the box is at most [`MAX_POSITIONS`] positions and is charged before anything is
//! read; each position's moves are charged before they are looked at. Nothing is allocated
//! beyond the instance's adjacency: the labels are read in place.

use crate::base::budget::Budget;
use crate::verdict::{Claim, Verdict, Work};
use serde::{Deserialize, Serialize};

use super::strategy::{Play, Variant, VertexNim, VertexNimSpec};

/// Certificate kind `vertexnim-outcomes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexNimOutcomes {
    /// "first" (the player to move at the start) or "second".
    pub winner: String,
    /// One letter, `N` or `P`, per position of the weight box (see the module docs).
    pub outcomes: String,
}

impl Claim for VertexNimOutcomes {
    fn claim(&self) -> String {
        format!("the {} player wins", self.winner)
    }
}

/// The largest weight box a certificate may label (2^32 positions: 4 GB of letters).
pub const MAX_POSITIONS: u64 = 1 << 32;

/// The size of `game`'s weight box (positions), or why it is refused.
pub fn box_size(game: &VertexNim) -> Result<u64, String> {
    let n = game.names.len() as u64;
    let mut size = n;
    for &w in &game.start.weights {
        size = w
            .checked_add(1)
            .and_then(|digits| size.checked_mul(digits))
            .filter(|&s| s <= MAX_POSITIONS)
            .ok_or_else(|| {
                format!(
                    "the weight box (every weight up to the start's, the token anywhere) has more \
                     than {MAX_POSITIONS} positions"
                )
            })?;
    }
    Ok(size)
}

/// The position at `index` in words: its weights and the token's vertex.
fn describe(game: &VertexNim, index: u64) -> String {
    let n = game.names.len() as u64;
    // Lossless: below `n`, a length.
    let token = (index % n) as usize;
    let mut rest = index / n;
    let weights: Vec<String> = game
        .start
        .weights
        .iter()
        .map(|&w| {
            let digit = rest % (w + 1);
            rest /= w + 1;
            digit.to_string()
        })
        .collect();
    format!(
        "position {index} (weights {}, token on '{}')",
        weights.join(","),
        crate::base::text::printable(&game.names[token])
    )
}

/// Checks every label of `cert` for `game` (see the module docs); returns the start's outcome
/// (whether the player to move wins) and the positions checked.
pub fn check_outcomes(
    game: &VertexNim,
    cert: &VertexNimOutcomes,
    budget: &mut Budget,
) -> Result<(bool, u64), String> {
    ensure!(
        game.variant == Variant::Nimg,
        "a vertexnim-outcomes certificate fits Vertex NimG (variant nimg) only: under vertexnim \
         emptied vertices leave the graph, so weights and token are not the whole position"
    );
    let total = box_size(game)?;
    budget.charge(total, "reading the outcomes")?;
    let labels = cert.outcomes.as_bytes();
    ensure!(
        labels.len() as u64 == total,
        "outcomes has {} letters; the weight box has {total} positions",
        labels.len()
    );
    // Lossless casts of indices below: every one is below `total`, `labels.len()`.
    let n = game.names.len();
    let weights = &game.start.weights;
    // stride[v]: how much the index moves when x_v moves by one (n times the mixed radix).
    let mut stride = Vec::with_capacity(n);
    let mut unit = n as u64;
    for &w in weights {
        stride.push(unit);
        unit = unit.saturating_mul(w + 1);
    }
    let neighbours: Vec<Vec<usize>> =
        game.start.adj.iter().map(|out| out.iter().copied().collect()).collect();
    let stuck_label = if game.play == Play::Misere { b'N' } else { b'P' };
    // The weight vector of the current index, kept as an odometer.
    let mut x = vec![0u64; n];
    let mut index = 0u64;
    while index < total {
        for token in 0..n {
            let here = index + token as u64;
            let label = labels[here as usize];
            ensure!(
                label == b'N' || label == b'P',
                "{}: the label {} is neither N nor P",
                describe(game, here),
                crate::base::text::printable(&String::from_utf8_lossy(&[label]))
            );
            let degree = neighbours[token].len() as u64;
            budget.charge(x[token].saturating_mul(degree).saturating_add(1), "checking moves")?;
            if x[token] == 0 || degree == 0 {
                ensure!(
                    label == stuck_label,
                    "{}: labelled {}, but the player to move has no move ({} play: {})",
                    describe(game, here),
                    label as char,
                    if stuck_label == b'P' { "normal" } else { "misere" },
                    stuck_label as char
                );
                continue;
            }
            // The children: weight k < x[token] at the token's vertex, the token on v.
            let mut winning = None;
            'search: for k in 0..x[token] {
                let lowered = here - (x[token] - k) * stride[token] - token as u64;
                for &v in &neighbours[token] {
                    if labels[(lowered + v as u64) as usize] == b'P' {
                        winning = Some((k, v));
                        break 'search;
                    }
                }
            }
            match (label, winning) {
                (b'P', Some((k, v))) => fail!(
                    "{}: labelled P, but lowering it to {k} and moving to '{}' leads to a P position",
                    describe(game, here),
                    crate::base::text::printable(&game.names[v])
                ),
                (b'N', None) => fail!(
                    "{}: labelled N, but every one of its {} moves leads to an N position",
                    describe(game, here),
                    x[token] * degree
                ),
                _ => {}
            }
        }
        index += n as u64;
        // Next weight vector: vertex 0 the least significant digit.
        for v in 0..n {
            if x[v] < weights[v] {
                x[v] += 1;
                break;
            }
            x[v] = 0;
        }
    }
    let token = game.start.token.ok_or("the start has no token")?;
    let start = total - n as u64 + token as u64;
    Ok((labels[start as usize] == b'N', total))
}

/// Registry entry for `vertexnim-outcomes`.
pub fn outcomes_verdict(
    spec: &VertexNimSpec,
    cert: &VertexNimOutcomes,
    budget: &mut Budget,
) -> Verdict {
    let claim = cert.claim();
    let game = match spec.validate() {
        Ok(game) => game,
        Err(err) => return Verdict::invalid(claim, err),
    };
    let outcome = crate::base::winner_is_first(&cert.winner).and_then(|claims_first| {
        let (first_wins, positions) = check_outcomes(&game, cert, budget)?;
        ensure!(
            first_wins == claims_first,
            "every label checks, and the start is labelled {}: the {} player wins",
            if first_wins { 'N' } else { 'P' },
            if first_wins { "first" } else { "second" }
        );
        Ok(positions)
    });
    Verdict::decide(
        claim,
        outcome,
        |positions| {
            let reason = format!(
                "every position of the weight box labelled by the rules ({}), the start included",
                crate::base::text::counted(positions, "position")
            );
            let work = Work {
                vertices: Some(game.names.len()),
                positions: Some(positions),
                ..Work::default()
            };
            (reason, work)
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vertexnim::strategy::VertexSpec;

    fn spec(directed: bool, ws: &[i64], edges: &[(&str, &str)], play: Play) -> VertexNimSpec {
        let names = ["a", "b", "c", "d"];
        VertexNimSpec {
            directed,
            variant: Variant::Nimg,
            play,
            vertices: ws
                .iter()
                .enumerate()
                .map(|(i, &w)| VertexSpec { name: names[i].into(), weight: w })
                .collect(),
            edges: edges.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect(),
            token: "a".into(),
            source: None,
        }
    }

    /// The labels by brute force, the same index layout.
    fn labels(game: &VertexNim) -> (String, bool) {
        let total = box_size(game).unwrap() as usize;
        let n = game.names.len();
        let mut out = vec![b'?'; total];
        let strides: Vec<usize> = (0..n)
            .map(|v| n * game.start.weights[..v].iter().map(|&w| w as usize + 1).product::<usize>())
            .collect();
        for i in 0..total {
            let t = i % n;
            let xt = (i / strides[t]) % (game.start.weights[t] as usize + 1);
            let mut win = false;
            let mut any = false;
            for k in 0..xt {
                for &v in &game.start.adj[t] {
                    any = true;
                    win |= out[i - (xt - k) * strides[t] - t + v] == b'P';
                }
            }
            out[i] = if !any {
                if game.play == Play::Misere {
                    b'N'
                } else {
                    b'P'
                }
            } else if win {
                b'N'
            } else {
                b'P'
            };
        }
        let first = out[total - n] == b'N';
        (String::from_utf8(out).unwrap(), first)
    }

    fn verdict(spec: &VertexNimSpec, winner: &str, outcomes: String) -> Verdict {
        let cert = VertexNimOutcomes { winner: winner.into(), outcomes };
        outcomes_verdict(spec, &cert, &mut Budget::new(10_000_000))
    }

    #[test]
    fn true_labels_are_accepted_and_every_single_flip_rejected() {
        let cases = [
            spec(false, &[2, 0, 3], &[("a", "b"), ("b", "c"), ("c", "a")], Play::Normal),
            spec(true, &[1, 2, 0], &[("a", "b"), ("b", "c"), ("c", "a")], Play::Normal),
            spec(false, &[2, 1], &[("a", "b"), ("a", "a")], Play::Misere),
        ];
        for s in &cases {
            let game = s.validate().unwrap();
            let (good, first) = labels(&game);
            let winner = if first { "first" } else { "second" };
            let v = verdict(s, winner, good.clone());
            assert!(v.accepted(), "{}", v.reason);
            let v = verdict(s, if first { "second" } else { "first" }, good.clone());
            assert!(!v.accepted() && v.reason.contains("the start is labelled"), "{}", v.reason);
            for i in 0..good.len() {
                let mut bad = good.clone().into_bytes();
                bad[i] = if bad[i] == b'N' { b'P' } else { b'N' };
                let v = verdict(s, winner, String::from_utf8(bad).unwrap());
                assert!(!v.accepted(), "flip at {i} accepted");
                assert!(v.reason.contains(&format!("position {i} ")), "{}", v.reason);
            }
        }
    }

    #[test]
    fn wrong_lengths_letters_boxes_and_variants_are_rejected() {
        let s = spec(false, &[1, 1], &[("a", "b")], Play::Normal);
        let v = verdict(&s, "first", "NNN".into());
        assert!(v.reason.contains("has 3 letters; the weight box has 8"), "{}", v.reason);
        let v = verdict(&s, "first", "xNNNNNNN".into());
        assert!(v.reason.contains("neither N nor P"), "{}", v.reason);
        let huge = spec(false, &[i64::MAX, i64::MAX], &[("a", "b")], Play::Normal);
        let v = verdict(&huge, "first", String::new());
        assert!(!v.accepted() && v.reason.contains("more than 4294967296"), "{}", v.reason);
        let mut removal = s.clone();
        removal.variant = Variant::Vertexnim;
        let v = verdict(&removal, "first", "NNNNNNNN".into());
        assert!(v.reason.contains("fits Vertex NimG"), "{}", v.reason);
        let v = outcomes_verdict(
            &s,
            &VertexNimOutcomes { winner: "first".into(), outcomes: "P".repeat(8) },
            &mut Budget::new(3),
        );
        assert!(!v.accepted() && v.reason.contains("work"), "{}", v.reason);
    }
}

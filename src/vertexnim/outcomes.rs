//! Vertex NimG with weight-0 vertices (seed 004, Section 5 and Remark 15: "we did not manage
//! to get satisfying results"): every position of a weight box solved at once and written as a
//! `vertexnim-outcomes` certificate (the checker's
//! [`gamecert_certificates::vertexnim::outcomes`], which relabels every position by the rules);
//! `solve --method outcomes`, and `solve`'s last resort for NimG. `table vertex-nimg` runs it
//! on every small graph ([`super::table`]).
//!
//! Under NimG nothing is removed, so a position is (weights x, token t) and the positions below
//! a start (x <= w) are a box. The labels are computed in the checker's index order, where every
//! move leads to a smaller index (see the checker's module docs).

use gamecert_certificates::vertexnim::outcomes::{box_size, VertexNimOutcomes};
use gamecert_certificates::vertexnim::strategy::{Play, Variant, VertexNim, FIRST, SECOND};

/// The most positions [`outcome_letters`] labels for one instance (the checker allows more; this
/// keeps `solve` under about 100 MB).
pub const MAX_BOX: u64 = 100_000_000;

/// The outcome letter (`N` or `P`) of every position of `game`'s weight box, in the checker's
/// index order; `None` when the game is not NimG or the box is over [`MAX_BOX`].
pub fn outcome_letters(game: &VertexNim) -> Option<Vec<u8>> {
    if game.variant != Variant::Nimg {
        return None;
    }
    let total = box_size(game).ok().filter(|&t| t <= MAX_BOX)? as usize;
    let n = game.names.len();
    let weights: Vec<usize> = game.start.weights.iter().map(|&w| w as usize).collect();
    let mut stride = Vec::with_capacity(n);
    let mut unit = n;
    for &w in &weights {
        stride.push(unit);
        unit *= w + 1;
    }
    let neighbours: Vec<Vec<usize>> =
        game.start.adj.iter().map(|out| out.iter().copied().collect()).collect();
    let stuck = if game.play == Play::Misere { b'N' } else { b'P' };
    let mut labels = vec![b'P'; total];
    let mut x = vec![0usize; n];
    for base in (0..total).step_by(n) {
        for t in 0..n {
            let here = base + t;
            labels[here] = if x[t] == 0 || neighbours[t].is_empty() {
                stuck
            } else {
                let wins = (0..x[t]).any(|k| {
                    let lowered = here - (x[t] - k) * stride[t] - t;
                    neighbours[t].iter().any(|&v| labels[lowered + v] == b'P')
                });
                if wins {
                    b'N'
                } else {
                    b'P'
                }
            };
        }
        for v in 0..n {
            if x[v] < weights[v] {
                x[v] += 1;
                break;
            }
            x[v] = 0;
        }
    }
    Some(labels)
}

/// The `vertexnim-outcomes` certificate of `game`, if [`outcome_letters`] labels it.
pub fn certificate(game: &VertexNim) -> Option<VertexNimOutcomes> {
    let letters = outcome_letters(game)?;
    let token = game.start.token?;
    let first = letters[letters.len() - game.names.len() + token] == b'N';
    Some(VertexNimOutcomes {
        winner: if first { FIRST } else { SECOND }.to_string(),
        outcomes: String::from_utf8(letters).expect("N and P are ASCII"),
    })
}

/// The registry's `outcomes` method for a `vertexnim` instance ([`crate::registry`]).
pub fn solve_instance(
    instance: &gamecert_certificates::format::Instance,
    _: &crate::base::solved::Options,
) -> anyhow::Result<Option<crate::base::solved::SolvedGame>> {
    let game = super::game_of(instance)?;
    if game.variant != Variant::Nimg {
        return Err(crate::base::io::BadInput(
            "--method outcomes solves Vertex NimG (variant nimg) only: under vertexnim emptied \
             vertices leave the graph"
                .into(),
        )
        .into());
    }
    let size = box_size(&game).unwrap_or(u64::MAX);
    let cert = certificate(&game).ok_or_else(|| {
        crate::base::io::BadInput(format!(
            "the weight box has {} positions (the product of weight + 1 over the vertices, \
             times their count); --method outcomes labels at most {MAX_BOX}",
            if size == u64::MAX { "more than 2^32".to_string() } else { size.to_string() }
        ))
    })?;
    let positions = cert.outcomes.len() as u64;
    Ok(Some(crate::base::solved::SolvedGame::new(
        gamecert_certificates::format::Certificate::VertexNimOutcomes(cert),
        positions,
        "labelling the whole weight box",
    )))
}

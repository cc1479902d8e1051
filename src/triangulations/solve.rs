//! The solve methods of seed 000's games on points, as the registry ([`crate::registry`])
//! lists them: the games with scores or ties by the paper's programs or the exact solver
//! ([`crate::triangulations::constructing`]), Lemma 4's balanced colouring, the marking games
//! by the exact solver over sets of green edges ([`crate::triangulations::marking`]) or as
//! sums of heaps ([`crate::triangulations::convex_heaps`]: Theorems 1 and 2), and the flip
//! games ([`crate::triangulations::flip_solve`]).

use crate::base::io::BadInput;
use crate::base::method::Method;
use crate::base::solved::{Options, SolvedGame};
use crate::triangulations::constructing::How;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::triangulations::marking::{MarkingGame, MarkingSpec};

/// The spec of a `marking-game` instance.
fn marking(instance: &Instance) -> anyhow::Result<&MarkingSpec> {
    match instance {
        Instance::MarkingGame(spec) => Ok(spec),
        other => Err(crate::base::solved::wrong_kind(other, "a marking game")),
    }
}

/// The games with scores or ties (2.1.1-2.1.4, 2.3.2): the paper's program where it applies
/// (auto), or the exact solver.
pub fn construct(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let spec = marking(instance)?;
    if !spec.game.is_construct_game() {
        return Ok(None);
    }
    let how = if options.method == Method::Exact { How::Exact } else { How::Paper };
    let (certificate, method, nodes) =
        crate::triangulations::constructing::solve(spec, how).map_err(BadInput)?;
    Ok(Some(SolvedGame::new(certificate, nodes, &method)))
}

/// Lemma 4's balanced colouring of a `bichromatic-coloring` board (a witness that bounds the
/// score, not the game's value).
pub fn lemma4(instance: &Instance, _: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let spec = marking(instance)?;
    if spec.game != MarkingGame::BichromaticColoring {
        return Err(BadInput("--method lemma4 applies to bichromatic-coloring only".into()).into());
    }
    let colouring =
        crate::triangulations::constructing::lemma4_colouring(spec).map_err(BadInput)?;
    Ok(Some(SolvedGame::new(
        Certificate::BalancedColouring(colouring),
        0,
        "Lemma 4: the induction's balanced colouring",
    )))
}

/// The marking games without scores: the exact solver over sets of green edges, a strategy
/// replayed under the plain rules. Under auto a board too large for it is left to the heaps.
pub fn marking_exact(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let spec = marking(instance)?;
    if spec.game.is_construct_game() {
        return Ok(None);
    }
    match crate::triangulations::marking::solve_instance(spec) {
        Ok(strategy) => Ok(Some(SolvedGame::new(
            Certificate::MarkingStrategy(strategy),
            0,
            "the exact solver over sets of green edges",
        ))),
        Err(why) if options.method == Method::Exact => {
            Err(BadInput(format!("{why} (--method exact asks for the exact solver)")).into())
        }
        Err(_) => Ok(None),
    }
}

/// Theorems 1 and 2: coloring and monochromatic-triangle in convex position as sums of Kayles
/// or Dawson's Kayles heaps (a `marking-kayles` certificate), at any size.
pub fn heaps(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let spec = marking(instance)?;
    if spec.game.is_construct_game() {
        return Ok(None);
    }
    let heaps = crate::triangulations::convex_heaps::certificate(spec).map_err(|why| {
        if options.method == Method::Heaps {
            BadInput(why)
        } else {
            // Auto came here because the exact solver could not take the board.
            BadInput(format!(
                "the board is too large for the exact solver (--method exact says by how \
                 much), and no heap reduction applies: {why}"
            ))
        }
    })?;
    let method = if spec.game == MarkingGame::Coloring {
        "Theorem 1: Kayles on the arrays of the dual"
    } else {
        "Theorem 2: Dawson's Kayles on the points"
    };
    Ok(Some(SolvedGame::new(Certificate::MarkingKayles(heaps), 0, method)))
}

/// Nimstring on a triangulation whose dual is a path, by Nimstring values of strips (a
/// `nimstring-strips` certificate, [`crate::triangulations::nimstring_strips`]).
pub fn strips(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let spec = marking(instance)?;
    match crate::triangulations::nimstring_strips::certificate(spec) {
        Ok(cert) => Ok(Some(SolvedGame::new(
            Certificate::NimstringStrips(cert),
            0,
            "Nimstring values of strips (Berlekamp)",
        ))),
        Err(why) if options.method == Method::Strips => Err(BadInput(why).into()),
        Err(_) => Ok(None),
    }
}

/// The flip games: Theorem 9 in convex position, the reduced solver for MFT on a convex
/// polygon, the solitaire games' sequences, else the exact solver
/// ([`crate::triangulations::flip_solve::solve_instance`]).
pub fn flip(instance: &Instance, options: &Options) -> anyhow::Result<Option<SolvedGame>> {
    let Instance::FlipGame(spec) = instance else {
        return Err(crate::base::solved::wrong_kind(instance, "a flip game"));
    };
    let (certificate, nodes, method) =
        crate::triangulations::flip_solve::solve_instance(spec, options.method == Method::Exact)?;
    Ok(Some(SolvedGame::new(certificate, nodes, &method)))
}

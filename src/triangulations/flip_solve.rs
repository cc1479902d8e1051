//! `gamecert solve` on a `flip-game` instance: the solitaire games by Theorem 11, MFT in convex
//! position by the convex solver, small boards by the exact solver.

use crate::base::io::BadInput;
use crate::triangulations::flipping::*;
use gamecert_certificates::triangulations::flipping::{FlipGame, FlipSpec};

/// `gamecert solve` on a `flip-game` instance: (certificate, search nodes, method).
/// `exact`: `--method exact` (the registry refuses every method but auto and exact).
pub fn solve_instance(
    spec: &FlipSpec,
    exact: bool,
) -> anyhow::Result<(gamecert_certificates::format::Certificate, u64, String)> {
    use gamecert_certificates::format::Certificate;
    if spec.game.solitaire() {
        let (sequence, method) =
            crate::triangulations::solitaire::solve(spec, exact).map_err(BadInput)?;
        return Ok((Certificate::FlipSequence(sequence), 0, method));
    }
    if !exact {
        if let Some(value) = theorem_9(spec).map_err(BadInput)? {
            return Ok((
                Certificate::FlipValue(value),
                0,
                "Theorem 9 (convex position: n - 3 moves, any move)".into(),
            ));
        }
    }
    // MFT on an abstract convex polygon: the reduced solver, unless `--method exact` asks for
    // the general one (which stops at 16 points).
    if spec.game == FlipGame::FlippingToTriangle
        && spec.convex_polygon.is_some_and(|n| {
            n <= crate::triangulations::mft_convex::MAX_VERTICES && (!exact || n > MAX_EXACT_POINTS)
        })
    {
        let mut solver = crate::triangulations::mft_convex::MftSolver::new();
        let cap = crate::triangulations::mft_convex::position_cap();
        solver.max_positions = Some(cap);
        let value = solver.certificate(spec).map_err(BadInput)?;
        if solver.aborted {
            return Err(BadInput::from(crate::base::limits::TooLarge {
                what: "the reduced MFT search".into(),
                estimate: format!(
                    "more than {} reduced positions (the search stopped at its cap)",
                    crate::base::limits::grouped(cap as u128)
                ),
                limit: format!(
                    "{} positions ({} bytes each)",
                    crate::base::limits::grouped(cap as u128),
                    crate::triangulations::mft_convex::BYTES_PER_POSITION
                ),
                suggestion: "the polygon is too large for an exact solve".into(),
            })
            .into());
        }
        return Ok((
            Certificate::FlipValue(value),
            solver.nodes,
            "the reduced MFT solver (convex polygon: frozen ears deleted, positions up to \
             rotation and reflection)"
                .into(),
        ));
    }
    let mut solver = Solver::new(spec).map_err(BadInput)?;
    let cap = position_cap();
    let value = solver.certificate_within(cap).ok_or_else(|| {
        BadInput::from(crate::base::limits::TooLarge {
            what: "the exact search over edge sets and colours".into(),
            estimate: format!(
                "more than {} positions (the search stopped at its cap)",
                crate::base::limits::grouped(cap as u128)
            ),
            limit: format!(
                "{} positions ({BYTES_PER_POSITION} bytes each)",
                crate::base::limits::grouped(cap as u128)
            ),
            suggestion: "the instance is too large for an exact solve".into(),
        })
    })?;
    Ok((
        Certificate::FlipValue(value),
        solver.nodes,
        "the exact solver (minimax over edge sets and colours)".into(),
    ))
}

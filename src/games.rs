//! Solving the instance kinds other than `voronoi-one-round`, each with a certificate for the
//! checker: `voronoi` by the forward maps of the positive-DNF reduction when the instance is
//! that reduction's image of its recorded formula ([`crate::posdnf_maps`]), by Algorithm 1 on a
//! complete k-ary tree from `gen` with 2n <= k ([`crate::kary`]), by the median rule
//! for one round on a tree ([`crate::trees`]), by the gap-state solver on a path with no start
//! stones ([`crate::paths`], a `voronoi-path-value` certificate), else by the exact multi-round solver
//! ([`crate::voronoi_exact`]); `posdnf-game` by the exact DNF game solver
//! ([`crate::posdnf`]).

use crate::voronoi_exact::ExactSolver;
use gamecert_certificates::format::{Certificate, Instance, MultiRoundSpec};
use gamecert_certificates::posdnf::PosDnf;
use gamecert_reductions::posdnf_voronoi::{build, PosDnfVoronoi};

/// The arity of the complete k-ary tree behind `spec`, if `gen kary-tree` made it (checked by
/// regenerating it from the recorded k and height).
fn kary_source(spec: &MultiRoundSpec) -> anyhow::Result<Option<u64>> {
    let Some(source) = &spec.source else {
        return Ok(None);
    };
    if source.get("family").and_then(|f| f.as_str()) != Some("kary-tree") {
        return Ok(None);
    }
    let (Some(k), Some(height)) = (source["k"].as_u64(), source["height"].as_u64()) else {
        return Ok(None);
    };
    let Ok(height) = u32::try_from(height) else {
        return Ok(None);
    };
    let same = crate::gen::kary_tree(k, height, spec.rounds)
        .map(|regenerated| regenerated.graph == spec.graph && spec.start.is_none())
        .unwrap_or(false);
    Ok(same.then_some(k))
}

/// The posdnf-voronoi construction behind `spec`, if its recorded source is that reduction and
/// rebuilding from the recorded formula gives exactly this instance.
fn posdnf_source(spec: &MultiRoundSpec) -> anyhow::Result<Option<PosDnfVoronoi>> {
    let Some(source) = &spec.source else {
        return Ok(None);
    };
    if source.get("reduction").and_then(|r| r.as_str()) != Some("posdnf-voronoi") {
        return Ok(None);
    }
    let formula: PosDnf = serde_json::from_value(source["formula"].clone())?;
    let built = build(&formula).map_err(anyhow::Error::msg)?;
    let same = built.graph == spec.graph && built.rounds == spec.rounds && spec.start.is_none();
    Ok(same.then_some(built))
}

/// Solves `instance` and returns its certificate and the search nodes spent. The caller runs
/// the checker on it.
pub fn solve_game(instance: &Instance) -> anyhow::Result<(Certificate, u64)> {
    match instance {
        Instance::Voronoi(spec) => {
            if let Some(built) = posdnf_source(spec)? {
                let certificate =
                    crate::posdnf_maps::certificate_for(&built).map_err(anyhow::Error::msg)?;
                return Ok((certificate, 0));
            }
            let game = spec.validate()?;
            if let Some(k) = kary_source(spec)? {
                if 2 * game.rounds as u64 <= k {
                    // Proposition 1: W wins by Algorithm 1.
                    let root = game.graph.vertex("r").expect("gen names the root r");
                    let strategy =
                        crate::kary::algorithm1(&game, root).map_err(anyhow::Error::msg)?;
                    return Ok((Certificate::VoronoiStrategy(strategy), 0));
                }
            }
            if game.rounds == 1
                && game.start.iter().all(|&c| c == b'.')
                && crate::trees::is_tree(&game.graph)
            {
                // One round on a tree: the linear-time median rule.
                let certificate =
                    crate::trees::median_certificate(&game).map_err(anyhow::Error::msg)?;
                return Ok((certificate, 0));
            }
            if game.start.iter().all(|&c| c == b'.')
                && game.graph.len() <= crate::paths::MAX_VERTICES
                && gamecert_certificates::path_game::path_order(&game.graph).is_ok()
            {
                // A path: the gap abstraction, whatever the vertex names and order.
                let solution = crate::paths::PathSolver::new()
                    .solve(game.graph.len(), game.rounds)
                    .map_err(anyhow::Error::msg)?;
                return Ok((Certificate::PathValue(solution.certificate), solution.nodes));
            }
            let solution = ExactSolver::new(&game).map_err(anyhow::Error::msg)?.solve();
            Ok((
                Certificate::VoronoiValue(solution.certificate()),
                solution.nodes,
            ))
        }
        Instance::PosDnfGame(dnf) => {
            let solution = crate::posdnf::solve_dnf_game(dnf).map_err(anyhow::Error::msg)?;
            Ok((
                Certificate::DnfStrategy(solution.strategy),
                solution.positions,
            ))
        }
        Instance::VoronoiOneRound(_) => {
            anyhow::bail!("one-round instances are solved by gamecert::solve")
        }
    }
}

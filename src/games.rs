//! Solving the instance kinds other than `voronoi-one-round`, each with a certificate for the
//! checker: `voronoi` by the exact multi-round solver ([`crate::voronoi_exact`]) and
//! `posdnf-game` by the exact DNF game solver ([`crate::posdnf`]).

use crate::voronoi_exact::ExactSolver;
use gamecert_certificates::format::{Certificate, Instance};

/// Solves `instance` and returns its certificate and the search nodes spent. The caller runs
/// the checker on it.
pub fn solve_game(instance: &Instance) -> anyhow::Result<(Certificate, u64)> {
    match instance {
        Instance::Voronoi(spec) => {
            let game = spec.validate()?;
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

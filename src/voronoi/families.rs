//! Families of one-round instances on which B cannot win, grown by a size parameter (the
//! inputs of `gamecert bench direct` and `benches/sat_voronoi.rs`), and the seed of `gamecert
//! bench linear`'s random 3-CNF.

use crate::base::rng::Rng;
use crate::base::sat::{self, random_k_cnf, SatOutcome};
use anyhow::bail;
use gamecert_certificates::format::{GraphSpec, Instance, OneRoundSpec};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;
use gamecert_reductions::sat_voronoi::reduce;
use serde::{Deserialize, Serialize};

/// The seed of the `linear` formula.
pub const LINEAR_SEED: u64 = 20_240_601;

/// A family of instances on which B cannot win, indexed by a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    /// sat-voronoi1 image of x1, x1 -> x2, ..., x(k-1) -> xk, not xk (size k).
    Chain,
    /// sat-voronoi1 image of the shortest unsatisfiable prefix of a random 3-CNF stream over n
    /// variables (size n).
    Random3,
    /// A star with 2k - 1 leaves, W on the centre, B places k (size k): at best a tie.
    Star,
    /// A path of 3t vertices, W on every third (from the second), B places t (size t).
    Path,
    /// A cycle of 3t vertices, W on every third, B places t (size t).
    Cycle,
    /// An r x r grid, W on a dominating set, B places as many as W holds (size r).
    Grid,
}

impl Family {
    pub const ALL: [Family; 6] =
        [Family::Chain, Family::Random3, Family::Star, Family::Path, Family::Cycle, Family::Grid];

    pub fn name(self) -> &'static str {
        match self {
            Family::Chain => "chain",
            Family::Random3 => "random3",
            Family::Star => "star",
            Family::Path => "path",
            Family::Cycle => "cycle",
            Family::Grid => "grid",
        }
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The smallest size of the family.
    pub fn first_size(self) -> usize {
        match self {
            Family::Random3 => 3,
            Family::Grid => 2,
            _ => 1,
        }
    }

    /// Whether the instances come from sat-voronoi1 (so the reduction method applies).
    pub fn reduced(self) -> bool {
        matches!(self, Family::Chain | Family::Random3)
    }
}

/// The formula of the `chain` family: x1, x1 -> x2, ..., x(k-1) -> xk, not xk.
pub fn chain_cnf(k: u32) -> Cnf {
    let mut cnf = Cnf::new(k);
    cnf.add_clause(vec![1]);
    for i in 1..k as i32 {
        cnf.add_clause(vec![-i, i + 1]);
    }
    cnf.add_clause(vec![-(k as i32)]);
    cnf
}

/// The formula of the `random3` family: random 3-clauses over `n` variables (seed `n`) are
/// added one at a time until the formula becomes unsatisfiable, so it is as short as the draw
/// allows (an unsatisfiable 3-CNF needs at least 8 clauses).
pub fn random_unsat_cnf(n: u32) -> anyhow::Result<Cnf> {
    let mut rng = Rng::new(u64::from(n));
    let mut cnf = Cnf::new(n);
    for _ in 0..100 * n.max(1) {
        let clause = random_k_cnf(n, 1, 3, &mut rng).clauses.remove(0);
        cnf.add_clause(clause);
        if cnf.clauses.len() >= 8
            && matches!(
                sat::solve(&cnf, false, sat::Backend::default())?,
                SatOutcome::Unsatisfiable { .. }
            )
        {
            return Ok(cnf);
        }
    }
    bail!("random 3-clauses over {n} variables stayed satisfiable")
}

fn hand_made(
    vertices: Vec<String>,
    edges: Vec<(usize, usize)>,
    white: Vec<usize>,
    black_count: usize,
) -> Instance {
    let edges =
        edges.into_iter().map(|(a, b)| (vertices[a].clone(), vertices[b].clone())).collect();
    let white = white.into_iter().map(|w| vertices[w].clone()).collect();
    Instance::VoronoiOneRound(OneRoundSpec {
        graph: GraphSpec { vertices, edges },
        white,
        black_count,
        source: None,
    })
}

/// Builds the instance of `family` at `size`.
///
/// The hand-made families are all instances where W's set dominates the graph and B places at
/// most as many vertices as W holds (the star: W's centre dominates and B places k of 2k - 1
/// leaves). Every vertex B does not hold is then within distance 1 of W and at least 1 from B,
/// so B's region is exactly its own vertices while W keeps at least its own: B cannot win.
pub fn family_instance(family: Family, size: usize) -> anyhow::Result<Instance> {
    let reduced = |cnf: &Cnf| -> anyhow::Result<Instance> {
        let r = reduce(cnf, SatVoronoi::Problem1).map_err(|e| anyhow::anyhow!(e))?;
        Ok(Instance::VoronoiOneRound(r.instance))
    };
    Ok(match family {
        Family::Chain => reduced(&chain_cnf(size as u32))?,
        Family::Random3 => reduced(&random_unsat_cnf(size as u32)?)?,
        Family::Star => {
            let leaves = 2 * size - 1;
            let mut names = vec!["c".to_string()];
            names.extend((1..=leaves).map(|i| format!("l{i}")));
            let edges = (1..=leaves).map(|i| (0, i)).collect();
            hand_made(names, edges, vec![0], size)
        }
        Family::Path | Family::Cycle => {
            let len = 3 * size;
            let names = (0..len).map(|i| format!("v{i}")).collect();
            let mut edges: Vec<(usize, usize)> = (1..len).map(|i| (i - 1, i)).collect();
            let white = if family == Family::Path {
                (0..size).map(|i| 3 * i + 1).collect()
            } else {
                if len > 2 {
                    edges.push((len - 1, 0));
                }
                (0..size).map(|i| 3 * i).collect()
            };
            hand_made(names, edges, white, size)
        }
        Family::Grid => {
            let r = size;
            let id = |x: usize, y: usize| y * r + x;
            let names = (0..r * r).map(|v| format!("g{}_{}", v % r, v / r)).collect();
            let mut edges = Vec::new();
            for y in 0..r {
                for x in 0..r {
                    if x + 1 < r {
                        edges.push((id(x, y), id(x + 1, y)));
                    }
                    if y + 1 < r {
                        edges.push((id(x, y), id(x, y + 1)));
                    }
                }
            }
            // (x + 2y) mod 5 = 0 dominates the infinite grid perfectly; cells near the border
            // whose dominator falls outside join W themselves.
            let mut white_set = vec![false; r * r];
            for y in 0..r {
                for x in 0..r {
                    white_set[id(x, y)] = (x + 2 * y) % 5 == 0;
                }
            }
            let dominated = |w: &[bool], x: usize, y: usize| {
                w[id(x, y)]
                    || (x > 0 && w[id(x - 1, y)])
                    || (x + 1 < r && w[id(x + 1, y)])
                    || (y > 0 && w[id(x, y - 1)])
                    || (y + 1 < r && w[id(x, y + 1)])
            };
            let mut extra = Vec::new();
            for y in 0..r {
                for x in 0..r {
                    if !dominated(&white_set, x, y) {
                        extra.push(id(x, y));
                    }
                }
            }
            for v in extra {
                white_set[v] = true;
            }
            let white: Vec<usize> = (0..r * r).filter(|&v| white_set[v]).collect();
            let count = white.len().min(r * r - white.len());
            hand_made(names, edges, white, count)
        }
    })
}

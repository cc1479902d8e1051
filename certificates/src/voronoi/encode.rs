//! The checker's CNF encoding of "in the one-round game, B has a winning placement".
//!
//! Given a graph, W's fixed set S and B's count n, the formula [`black_wins_cnf`] is satisfiable
//! iff B can occupy exactly n vertices outside S and dominate strictly more vertices than W. A
//! direct refutation certificate is an LRAT proof of this formula; the solver builds the formula
//! by calling this same function, so clause numbers agree by construction.
//!
//! Variables:
//! - `b_v` for each free vertex v (not in S), in vertex order: "B occupies v" (variables 1..=F);
//! - `d_v`: "v is strictly nearer to B than to W", with the clause `d_v -> OR b_w` over the free
//!   w with dist(v, w) < dist(v, S) (when that set has one member, `d_v` is that `b_w` itself);
//! - `t_v`: "v is not W's" (B is at most as far as W), with `t_v -> OR b_w` over the free w
//!   with dist(v, w) <= dist(v, S); only for v that W reaches (an unreachable v is never W's).
//!
//! Only the implication towards the placement is needed: a `d_v` or `t_v` can be true only if
//! the placement really puts v in V_B or out of V_W, so the true ones undercount. With K the
//! number of vertices W reaches, |V_B| - |V_W| = sum d_v - (K - sum t_v), so "B wins" is
//! `sum d_v + sum t_v >= K + 1`, written with a unary counter; "exactly n" is a second counter.
//!
//! Counters ([`add_counter`]): `c[i][j]` means "at least j of the first i inputs are true", built
//! by `c[i][j] = c[i-1][j] OR (x_i AND c[i-1][j-1])`, truncated at the bound. The score counter
//! needs only the "implies" half of each definition; the exact-count counter needs both.

use crate::base::budget::Budget;
use crate::base::cnf::Cnf;
use crate::base::graph::{Graph, UNREACHABLE};

/// Work units per clause besides its literals: the clause's vector and its allocation.
const CLAUSE_COST: u64 = 48;

/// A formula under construction whose every clause is charged to a budget before it is added.
struct Builder<'b> {
    cnf: Cnf,
    budget: &'b mut Budget,
}

impl Builder<'_> {
    fn fresh_var(&mut self) -> Result<i32, String> {
        if self.cnf.num_vars >= i32::MAX as u32 {
            return Err("the encoding would need more than 2^31 - 1 variables".into());
        }
        Ok(self.cnf.fresh_var())
    }

    fn add_clause(&mut self, clause: Vec<i32>) -> Result<(), String> {
        self.budget
            .charge(CLAUSE_COST + 4 * clause.len() as u64, "building the direct encoding")?;
        self.cnf.add_clause(clause);
        Ok(())
    }
}

/// The encoding and how to read a model of it.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The formula.
    pub cnf: Cnf,
    /// For each vertex, the variable "B occupies it" (`None` for vertices of S).
    pub placement_var: Vec<Option<u32>>,
    /// Number of score literals and the threshold they must reach.
    pub score_literals: usize,
    pub score_threshold: usize,
}

impl Encoding {
    /// B's placement in a model (index 0 is variable 1).
    pub fn placement(&self, model: &[bool]) -> Vec<usize> {
        self.placement_var
            .iter()
            .enumerate()
            .filter_map(|(v, var)| var.filter(|&x| model[x as usize - 1]).map(|_| v))
            .collect()
    }
}

/// A value in a counter: a constant or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Term {
    False,
    True,
    Lit(i32),
}

/// Which halves of the counter definitions to emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Halves {
    /// `c -> definition` only: a true output proves the count.
    Implies,
    /// Both directions: outputs equal the true counts.
    Both,
}

/// Adds a unary counter over `inputs` and returns `out[j - 1]` = "at least j inputs true" for
/// `j = 1..=bound`.
fn add_counter(
    cnf: &mut Builder,
    inputs: &[i32],
    bound: usize,
    halves: Halves,
) -> Result<Vec<Term>, String> {
    // Two rows of `bound` terms are held at a time; each input walks one row.
    cnf.budget.charge_each(
        inputs.len() as u64 + 2,
        bound as u64 * 8 + 1,
        "building the direct encoding's counters",
    )?;
    let mut previous = vec![Term::False; bound];
    for (i, &x) in inputs.iter().enumerate() {
        let mut current = Vec::with_capacity(bound);
        for j in 1..=bound {
            if j > i + 1 {
                current.push(Term::False);
                continue;
            }
            let same = previous[j - 1]; // c[i-1][j]
            let below = if j == 1 { Term::True } else { previous[j - 2] }; // c[i-1][j-1]
            let term = match (same, below) {
                (Term::True, _) => Term::True,
                (Term::False, Term::False) => Term::False,
                (Term::False, Term::True) => Term::Lit(x),
                _ => {
                    let c = cnf.fresh_var()?;
                    // c -> same OR x, and c -> same OR below.
                    let mut with_x = vec![-c, x];
                    let mut with_below = vec![-c];
                    if let Term::Lit(s) = same {
                        with_x.push(s);
                        with_below.push(s);
                    }
                    cnf.add_clause(with_x)?;
                    if let Term::Lit(b) = below {
                        with_below.push(b);
                        cnf.add_clause(with_below)?;
                    }
                    if halves == Halves::Both {
                        // same -> c, and x AND below -> c.
                        if let Term::Lit(s) = same {
                            cnf.add_clause(vec![-s, c])?;
                        }
                        match below {
                            Term::Lit(b) => cnf.add_clause(vec![-x, -b, c])?,
                            _ => cnf.add_clause(vec![-x, c])?,
                        }
                    }
                    Term::Lit(c)
                }
            };
            current.push(term);
        }
        previous = current;
    }
    Ok(previous)
}

/// Requires a counter output to be true (`want`) or false.
fn require(cnf: &mut Builder, term: Term, want: bool) -> Result<(), String> {
    match (term, want) {
        (Term::Lit(l), true) => cnf.add_clause(vec![l]),
        (Term::Lit(l), false) => cnf.add_clause(vec![-l]),
        (Term::True, false) | (Term::False, true) => cnf.add_clause(vec![]),
        _ => Ok(()),
    }
}

/// A literal equivalent to (or implying) the disjunction of the given placement variables:
/// the variable itself for one, a fresh `a` with `a -> OR` for several, `None` for none.
fn disjunction(cnf: &mut Builder, vars: &[i32]) -> Result<Option<i32>, String> {
    Ok(match vars {
        [] => None,
        [single] => Some(*single),
        _ => {
            let a = cnf.fresh_var()?;
            let mut clause = vec![-a];
            clause.extend_from_slice(vars);
            cnf.add_clause(clause)?;
            Some(a)
        }
    })
}

/// An upper bound on the number of clauses [`black_wins_cnf`] produces, computed without
/// building anything, so the checker can refuse an encoding too large to build.
pub fn clause_bound(vertices: usize, free: usize, black_count: usize) -> u128 {
    let (n, f, k) = (vertices as u128, free as u128, black_count as u128);
    // Two disjunctions per vertex, two clauses per score counter cell (2n inputs, bound n + 1),
    // four per exact-count cell (f inputs, bound k + 1), three requirement units.
    2 * n + 2 * (2 * n) * (n + 1) + 4 * f * (k + 1) + 3
}

/// The formula "B occupies exactly `black_count` vertices outside `white` and wins", every
/// search and clause charged to `budget` before it is done (the error names the limit).
pub fn black_wins_cnf(
    graph: &Graph,
    white: &[usize],
    black_count: usize,
    budget: &mut Budget,
) -> Result<Encoding, String> {
    let n = graph.len() as u64;
    let m = graph.edge_count() as u64;
    // The two counters alone can need up to `clause_bound` clauses: an instance whose encoding
    // could not fit is refused at once, before any of it is built (the clauses are then
    // charged one by one as they are made).
    let free = graph.len().saturating_sub(white.len());
    let bound = clause_bound(graph.len(), free, black_count);
    budget.require(
        u64::try_from(bound.saturating_mul(u128::from(CLAUSE_COST))).unwrap_or(u64::MAX),
        "building the direct encoding",
    )?;
    // One search from W's set, then one bounded search from every vertex (each allocates a
    // distance per vertex and may look at every adjacency entry).
    budget.charge_each(
        n.saturating_add(1),
        n.saturating_mul(8).saturating_add(m.saturating_mul(2)),
        "searching distances for the direct encoding",
    )?;
    let to_white = graph.distances_from(white);
    let mut is_white = vec![false; graph.len()];
    for &w in white {
        is_white[w] = true;
    }
    let mut cnf = Builder { cnf: Cnf::new(0), budget };
    let mut placement_var = vec![None; graph.len()];
    for (var, white) in placement_var.iter_mut().zip(&is_white) {
        if !white {
            *var = Some(cnf.fresh_var()? as u32);
        }
    }
    let mut score_literals = Vec::new();
    let mut reached_by_white = 0usize;
    for (v, &limit) in to_white.iter().enumerate() {
        if limit != UNREACHABLE {
            reached_by_white += 1;
        }
        let around = graph.distances_within(&[v], limit);
        let mut strictly_nearer = Vec::new();
        let mut as_near = Vec::new();
        for (w, &d) in around.iter().enumerate() {
            let Some(var) = placement_var[w] else {
                continue;
            };
            if d == UNREACHABLE {
                continue;
            }
            if d < limit {
                strictly_nearer.push(var as i32);
            }
            as_near.push(var as i32);
        }
        if let Some(d) = disjunction(&mut cnf, &strictly_nearer)? {
            score_literals.push(d);
        }
        if limit != UNREACHABLE {
            let t = if as_near == strictly_nearer {
                score_literals.last().copied().filter(|_| !as_near.is_empty())
            } else {
                disjunction(&mut cnf, &as_near)?
            };
            if let Some(t) = t {
                score_literals.push(t);
            }
        }
    }
    let threshold = reached_by_white + 1;
    let score = add_counter(&mut cnf, &score_literals, threshold, Halves::Implies)?;
    require(&mut cnf, score[threshold - 1], true)?;

    let free: Vec<i32> = placement_var.iter().flatten().map(|&x| x as i32).collect();
    let count = add_counter(&mut cnf, &free, black_count + 1, Halves::Both)?;
    if black_count > 0 {
        require(&mut cnf, count[black_count - 1], true)?;
    }
    require(&mut cnf, count[black_count], false)?;
    Ok(Encoding {
        cnf: cnf.cnf,
        placement_var,
        score_literals: score_literals.len(),
        score_threshold: threshold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::rules::{score, Outcome};

    /// Brute force over all assignments of a small CNF: is it satisfiable?
    fn satisfiable(cnf: &Cnf) -> bool {
        assert!(cnf.num_vars <= 22, "too many variables for brute force");
        (0u32..1 << cnf.num_vars).any(|bits| {
            let a: Vec<bool> = (0..cnf.num_vars).map(|i| bits >> i & 1 == 1).collect();
            cnf.is_satisfied_by(&a)
        })
    }

    /// Does B have a winning placement of exactly n free vertices? By enumeration.
    fn black_can_win(g: &Graph, white: &[usize], n: usize) -> bool {
        let free: Vec<usize> = (0..g.len()).filter(|v| !white.contains(v)).collect();
        (0u32..1 << free.len()).any(|bits| {
            if bits.count_ones() as usize != n {
                return false;
            }
            let black: Vec<usize> =
                (0..free.len()).filter(|i| bits >> i & 1 == 1).map(|i| free[i]).collect();
            score(g, white, &black).outcome() == Outcome::BlackWins
        })
    }

    fn graph(n: usize, edges: &[(usize, usize)]) -> Graph {
        let spec = crate::format::GraphSpec::numbered(n, edges);
        Graph::new(&spec.vertices, &spec.edges).unwrap()
    }

    #[test]
    fn clause_bound_holds() {
        let names: Vec<String> = (0..7).map(|i| format!("v{i}")).collect();
        let edges: Vec<(String, String)> = (1..7)
            .map(|i| (names[0].clone(), names[i].clone()))
            .chain([(names[1].clone(), names[2].clone())])
            .collect();
        let g = Graph::new(&names, &edges).unwrap();
        for n in 1..=6 {
            let enc = black_wins_cnf(&g, &[0], n, &mut Budget::new(u64::MAX)).unwrap();
            assert!(enc.cnf.clauses.len() as u128 <= clause_bound(7, 6, n));
        }
    }

    #[test]
    fn counter_counts_exactly() {
        // x1..x4, exactly 2 true: 6 of the 16 assignments, and the counter must allow them all.
        for k in 0..=4usize {
            let mut budget = Budget::new(u64::MAX);
            let mut builder = Builder { cnf: Cnf::new(4), budget: &mut budget };
            let out = add_counter(&mut builder, &[1, 2, 3, 4], k + 1, Halves::Both).unwrap();
            if k > 0 {
                require(&mut builder, out[k - 1], true).unwrap();
            }
            require(&mut builder, out[k], false).unwrap();
            let cnf = builder.cnf;
            for bits in 0u32..16 {
                let fixed: Vec<i32> =
                    (0..4).map(|i| if bits >> i & 1 == 1 { i + 1 } else { -(i + 1) }).collect();
                let mut with = cnf.clone();
                for lit in fixed {
                    with.add_clause(vec![lit]);
                }
                assert_eq!(
                    satisfiable(&with),
                    bits.count_ones() as usize == k,
                    "k = {k}, bits = {bits:04b}"
                );
            }
        }
    }

    #[test]
    fn agrees_with_enumeration_on_small_graphs() {
        // Every graph on 4 vertices, W on vertex 0, every n: the CNF is satisfiable iff
        // enumeration finds a winning placement. (Larger graphs are cross-checked with a real SAT
        // solver in the workspace's integration tests.)
        let pairs: Vec<(usize, usize)> =
            (0..4).flat_map(|a| ((a + 1)..4).map(move |b| (a, b))).collect();
        let mut checked = 0;
        for mask in 0u32..1 << pairs.len() {
            let edges: Vec<(usize, usize)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            let g = graph(4, &edges);
            for n in 1..=3 {
                let enc = black_wins_cnf(&g, &[0], n, &mut Budget::new(u64::MAX)).unwrap();
                if enc.cnf.num_vars > 18 {
                    continue;
                }
                assert_eq!(
                    satisfiable(&enc.cnf),
                    black_can_win(&g, &[0], n),
                    "edges {edges:?}, n {n}"
                );
                checked += 1;
            }
        }
        assert!(checked >= 40, "only {checked} cases were small enough");
    }
}

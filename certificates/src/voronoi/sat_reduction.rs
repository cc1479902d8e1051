//! The construction of seed 001, Section 4 (Theorem 3 and Corollary 1): a restricted 3-CNF
//! formula F becomes a graph G on which B, placing n vertices after W, wins iff F is
//! satisfiable.
//!
//! It lives here, in the checker, exactly once: the reductions crate calls [`build`] to make
//! instances, and the checker calls it to rebuild an instance from the formula a refutation
//! carries and compare. For F with variables x_1..x_n and clauses c_1..c_m the graph has
//!
//! | vertices | names | edges |
//! |---|---|---|
//! | u | `u` | u - z, u - c', u - p |
//! | X+, X- | `x{i}+`, `x{i}-` | x_i+ - y_i.j and x_i- - y_i.j for j = 1, 2, 3; x_i+ - c_j if x_i in c_j, x_i- - c_j if not-x_i in c_j |
//! | Y, Z | `y{i}.{j}`, `z{i}.{j}` (j = 1, 2, 3) | y_i.j - z_i.j |
//! | C, C' | `c{j}`, `c{j}'` | c_j - c_j' |
//! | P | `p{k}` (k = 1..2n-2) | pendants on u |
//!
//! so 1 + 2n + 3n + 3n + 2m + 2n - 2 = 10n + 2m - 1 vertices. Problem 1 gives W the set {u};
//! Problem 2 gives W u and the pendants p1..p_{n-1}. In both B places n vertices.
//!
//! The theorem is stated for formulas in which every variable occurs at most three times; we
//! also require clause widths 1 to 3 and clean clauses (see [`restricted_3sat_violation`]),
//! which is what the reductions crate's normalisation produces.

use crate::sat::cnf::Cnf;
use serde::{Deserialize, Serialize};

/// Which of the paper's two problems an instance encodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SatVoronoi {
    /// Problem 1 (Theorem 3): W holds the single vertex u.
    #[serde(rename = "sat-voronoi1")]
    Problem1,
    /// Problem 2 (Corollary 1): W holds u and n - 1 pendant vertices of P.
    #[serde(rename = "sat-voronoi2")]
    Problem2,
}

impl SatVoronoi {
    /// The command-line name of the reduction.
    pub fn name(self) -> &'static str {
        match self {
            SatVoronoi::Problem1 => "sat-voronoi1",
            SatVoronoi::Problem2 => "sat-voronoi2",
        }
    }

    /// The theorem of seed 001 that makes the reduction correct.
    pub fn theorem(self) -> crate::verdict::Theorem {
        match self {
            SatVoronoi::Problem1 => crate::verdict::Theorem::SatVoronoiTheorem3,
            SatVoronoi::Problem2 => crate::verdict::Theorem::SatVoronoiCorollary1,
        }
    }
}

/// A built instance, by vertex name: what the instance file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construction {
    pub vertices: Vec<String>,
    pub edges: Vec<(String, String)>,
    pub white: Vec<String>,
    pub black_count: usize,
}

/// Vertex names, so that every user of the construction spells them the same way.
pub mod names {
    /// The positive literal vertex of variable `i` (1-based).
    pub fn positive(i: usize) -> String {
        format!("x{i}+")
    }
    /// The negative literal vertex of variable `i`.
    pub fn negative(i: usize) -> String {
        format!("x{i}-")
    }
    /// The literal vertex of a DIMACS literal.
    pub fn literal(lit: i32) -> String {
        let i = lit.unsigned_abs() as usize;
        if lit > 0 {
            positive(i)
        } else {
            negative(i)
        }
    }
    pub fn y(i: usize, j: usize) -> String {
        format!("y{i}.{j}")
    }
    pub fn z(i: usize, j: usize) -> String {
        format!("z{i}.{j}")
    }
    pub fn clause(j: usize) -> String {
        format!("c{j}")
    }
    pub fn clause_twin(j: usize) -> String {
        format!("c{j}'")
    }
    pub fn pendant(k: usize) -> String {
        format!("p{k}")
    }
    pub const U: &str = "u";
}

/// Why the formula is outside the theorem's domain, or `None` if it is inside: at least one
/// variable; every clause has 1 to 3 literals, none repeated, no complementary pair; every
/// literal names a declared variable; every variable occurs at most three times.
pub fn restricted_3sat_violation(formula: &Cnf) -> Option<String> {
    if formula.num_vars == 0 {
        return Some("the formula has no variable".into());
    }
    // Counted by occurrence, so a huge declared variable count costs no memory here.
    let mut occurrences: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    for (k, clause) in formula.clauses.iter().enumerate() {
        let at = k + 1;
        if clause.is_empty() || clause.len() > 3 {
            return Some(format!("clause {at} has {} literals (1 to 3 allowed)", clause.len()));
        }
        for (a, &lit) in clause.iter().enumerate() {
            if lit == 0 || lit.unsigned_abs() > formula.num_vars {
                return Some(format!("clause {at}: literal {lit} is out of range"));
            }
            if clause[..a].iter().any(|&b| b == lit || b == -lit) {
                return Some(format!("clause {at}: variable {} appears twice", lit.unsigned_abs()));
            }
            let var = lit.unsigned_abs();
            let count = occurrences.entry(var).or_insert(0);
            *count += 1;
            if *count > 3 {
                return Some(format!(
                    "variable {var} occurs more than three times (fourth time in clause {at})"
                ));
            }
        }
    }
    None
}

/// The number of vertices the paper states for n variables and m clauses: 10n + 2m - 1
/// (saturating, so the meaningless n = m = 0 gives 0 rather than overflowing, and a size past
/// `usize::MAX`, possible on a 32-bit target, is `usize::MAX`, more than any graph holds).
pub fn paper_size(num_vars: usize, num_clauses: usize) -> usize {
    num_vars.saturating_mul(10).saturating_add(num_clauses.saturating_mul(2)).saturating_sub(1)
}

/// Builds the paper's instance from a formula in the theorem's domain.
pub fn build(formula: &Cnf, problem: SatVoronoi) -> Result<Construction, String> {
    if let Some(why) = restricted_3sat_violation(formula) {
        fail!("the formula is not in the restricted 3-SAT form the reduction needs: {why}");
    }
    let n = formula.num_vars as usize;
    let m = formula.clauses.len();
    let mut vertices = vec![names::U.to_string()];
    let mut edges = Vec::new();
    let edge = |a: String, b: String| (a, b);
    for i in 1..=n {
        vertices.push(names::positive(i));
        vertices.push(names::negative(i));
        for j in 1..=3 {
            vertices.push(names::y(i, j));
            vertices.push(names::z(i, j));
        }
    }
    for j in 1..=m {
        vertices.push(names::clause(j));
        vertices.push(names::clause_twin(j));
    }
    for k in 1..=2 * n - 2 {
        vertices.push(names::pendant(k));
    }
    // The edge families in the order the paper lists them.
    for i in 1..=n {
        for j in 1..=3 {
            edges.push(edge(names::U.into(), names::z(i, j)));
        }
    }
    for i in 1..=n {
        for j in 1..=3 {
            edges.push(edge(names::y(i, j), names::z(i, j)));
        }
    }
    for i in 1..=n {
        for j in 1..=3 {
            edges.push(edge(names::positive(i), names::y(i, j)));
        }
    }
    for i in 1..=n {
        for j in 1..=3 {
            edges.push(edge(names::negative(i), names::y(i, j)));
        }
    }
    for (j, clause) in formula.clauses.iter().enumerate() {
        for &lit in clause {
            edges.push(edge(names::literal(lit), names::clause(j + 1)));
        }
    }
    for j in 1..=m {
        edges.push(edge(names::clause(j), names::clause_twin(j)));
    }
    for j in 1..=m {
        edges.push(edge(names::clause_twin(j), names::U.into()));
    }
    for k in 1..=2 * n - 2 {
        edges.push(edge(names::U.into(), names::pendant(k)));
    }
    let mut white = vec![names::U.to_string()];
    if problem == SatVoronoi::Problem2 {
        white.extend((1..n).map(names::pendant));
    }
    ensure!(
        vertices.len() == paper_size(n, m),
        "internal: built {} vertices, the paper's formula 10n + 2m - 1 gives {}",
        vertices.len(),
        paper_size(n, m)
    );
    Ok(Construction { vertices, edges, white, black_count: n })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::graph::Graph;
    use crate::voronoi::rules::score;

    fn figure3() -> Cnf {
        Cnf { num_vars: 4, clauses: vec![vec![-1, 2, 3], vec![-2, -3, -4]] }
    }

    #[test]
    fn figure3_sizes_and_distances() {
        let built = build(&figure3(), SatVoronoi::Problem1).unwrap();
        assert_eq!(built.vertices.len(), 10 * 4 + 2 * 2 - 1);
        let g = Graph::new(&built.vertices, &built.edges).unwrap();
        let u = g.vertex("u").unwrap();
        let d = g.distances_from(&[u]);
        // The distances the proof of Theorem 3 relies on.
        let at = |name: &str| d[g.vertex(name).unwrap()];
        assert_eq!(at("z1.1"), 1);
        assert_eq!(at("c1'"), 1);
        assert_eq!(at("p6"), 1);
        assert_eq!(at("y3.2"), 2);
        assert_eq!(at("c2"), 2);
        assert_eq!(at("x4+"), 3);
        assert_eq!(at("x1-"), 3);
    }

    #[test]
    fn satisfying_placement_wins_by_one() {
        // x1 = 0, x2 = 1, x3 = 0, x4 = 0 satisfies Figure 3's formula.
        let built = build(&figure3(), SatVoronoi::Problem2).unwrap();
        assert_eq!(built.white, vec!["u", "p1", "p2", "p3"]);
        let g = Graph::new(&built.vertices, &built.edges).unwrap();
        let ids =
            |names: &[&str]| -> Vec<usize> { names.iter().map(|n| g.vertex(n).unwrap()).collect() };
        let white = ids(&["u", "p1", "p2", "p3"]);
        let s = score(&g, &white, &ids(&["x1-", "x2+", "x3-", "x4-"]));
        // 5n + m for B, 5n + m - 1 for W.
        assert_eq!((s.black, s.white, s.neutral), (22, 21, 0));
    }

    #[test]
    fn rejects_formulas_outside_the_domain() {
        let too_often = Cnf { num_vars: 1, clauses: vec![vec![1], vec![1], vec![-1], vec![1]] };
        assert!(restricted_3sat_violation(&too_often).unwrap().contains("more than three"));
        let wide = Cnf { num_vars: 4, clauses: vec![vec![1, 2, 3, 4]] };
        assert!(build(&wide, SatVoronoi::Problem1).is_err());
        let taut = Cnf { num_vars: 1, clauses: vec![vec![1, -1]] };
        assert!(restricted_3sat_violation(&taut).unwrap().contains("twice"));
        assert!(restricted_3sat_violation(&Cnf::new(0)).is_some());
        assert!(restricted_3sat_violation(&Cnf { num_vars: 1, clauses: vec![vec![]] }).is_some());
    }
}

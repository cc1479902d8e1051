//! The checker's CNF encoding of "in the one-round game, B has a winning placement".
//!
//! Given a graph, W's fixed set S and B's count n, the formula [`black_wins_cnf`] is satisfiable
//! iff B can occupy exactly n vertices outside S and dominate strictly more vertices than W. A
//! direct refutation certificate is an LRAT proof of this formula; the solver builds the formula
//! by calling this same function, so clause numbers agree by construction.
//!
//! # What is counted
//!
//! Let F be the free vertices (not in S), R the vertices W reaches, K = |R|, and for a placement
//! B (n vertices of F) let V_B and V_W be the vertices strictly nearer to B, to S. W's region
//! lies in R, so |V_W| = K - |N| with N = {v in R : dist(v, B) <= dist(v, S)} (the reached
//! vertices that are not W's). Every vertex of B is in V_B (it is at distance 0 from B and at
//! least 1 from S), so |V_B| = n + |V_B \ B|. Hence
//!
//! > B wins iff |V_B \ B| + |N| >= K + 1 - n,
//!
//! the *gain* condition. Subtracting B's own n vertices once and for all is what lets the
//! counting below see more: on an instance where S dominates the graph, V_B \ B is empty and
//! N lies in F, so the condition asks for more than |F| true literals and the formula is
//! refuted without search.
//!
//! # Variables and clauses
//!
//! - `b_v` for each free vertex v, in vertex order: "B occupies v" (variables 1..=|F|).
//! - `e_v` ("v is in V_B \ B") for each free v that some other free vertex can be strictly
//!   nearer to than S is, that is dist(v, S) >= 2 and v has a neighbour: `e_v -> not b_v` and
//!   `e_v -> OR b_u` over the free u != v with dist(v, u) < dist(v, S).
//! - `t_v` ("v is in N") for each free v in R: `t_v -> OR b_u` over the free u with
//!   dist(v, u) <= dist(v, S). When v has no free neighbour that set is {v} and `t_v` is `b_v`
//!   itself. A vertex of S is never in N and has no literal.
//! - `e_v -> t_v` when both exist (a vertex of V_B is not W's).
//! - `not b_v OR b_u` for consecutive members u < v of each class of *free twins*: vertices
//!   outside S with the same neighbours (open twins) or the same neighbours and each other
//!   (closed twins). Found by sorting the free vertices by neighbourhood, twice.
//!
//! Only implications towards the placement are written: a true `e_v` or `t_v` proves its
//! vertex in V_B \ B or in N, so true gain literals never overcount.
//!
//! Swapping two twins is an automorphism of the graph, and it fixes S when both are free, so
//! any permutation of a class maps a placement to one with the same regions' sizes. The classes
//! are disjoint (two open twins are not adjacent, two closed twins are, and a vertex with an
//! open twin u and a closed twin w would have w adjacent to u and not), so permuting each class
//! on its own turns any winning placement into one that occupies a prefix of every class, in
//! vertex order: the lex-leader clauses lose no winning placement. They spare the solver the
//! interchangeable choices (a star's leaves: C(2k - 1, k) placements become one).
//!
//! # The counters
//!
//! "Gain >= K + 1 - n" and "exactly n of the `b_v`" are two totalizers (Bailleux and Boufkhad,
//! 2003) built over one binary tree whose leaves are the free vertices in *counter order*, the
//! Cuthill-McKee order of the graph without S: a breadth-first search of each component from a
//! vertex of fewest free neighbours (lowest-numbered among them; components in that order),
//! neighbours in increasing degree (then number). A leaf holds v's gain literals, as a sorted unary number
//! (`t_v` for "at least one", `e_v` for "two", which `e_v -> t_v` makes sound), and `b_v`.
//! Each inner node merges its two children's unary numbers into "at least j of my leaves' inputs
//! are true", j = 1..=bound, with `o_(i+j+1) -> a_(i+1) OR b_(j+1)` (the gain tree: a true
//! output proves its count) and also `a_i AND b_j -> o_(i+j)` (the count tree: outputs equal
//! the true counts, up to the bound). The gain tree is cut at the threshold, the count tree at
//! n + 1. The root's outputs are then required: gain at least the threshold, count at least n
//! and not n + 1.
//!
//! Why this shape: refuting the formula means showing, region by region, that what B can gain
//! with the vertices it spends there is too little. Both trees split the vertices at the same
//! places, and the Cuthill-McKee order (which keeps neighbours close in the order) keeps each
//! subtree's vertices close together in the graph,
//! so a node's two outputs speak of the same region and a solver can learn one bound per
//! region and count. With a sequential counter over all the vertices and a second one over the
//! free vertices, `gamecert bench direct` reached 61 vertices of its `chain` family in a minute;
//! with this shape it passes 200 (see docs/benchmarks.md).
//!
//! # Exactness
//!
//! If B has a winning placement, it has one occupying a prefix of each twin class (above); that
//! placement satisfies the formula with every `e_v`, `t_v` and counter output set to its true
//! value (gain literals by the sets they stand for, tree outputs by the counts). Conversely, in
//! a model the true `b_v` are exactly n vertices (the count tree's outputs are at least the
//! true counts on the way up and at most them on the way down), and the gain tree
//! proves at least K + 1 - n true gain literals, each proving a distinct member of V_B \ B or N:
//! B wins. When K + 1 - n is at most 0, B wins with any n vertices and the gain tree is left
//! out; when it is more than the number of gain literals, no placement can win and the formula
//! is the empty clause alone.
//!
//! # Work
//!
//! [`Layout`] finds everything but the members of the disjunctions before anything is built:
//! the counter order, each leaf's literals and the threshold by two searches and a few sorts,
//! the twin classes by two more sorts, and from them the exact number of clauses ([`Layout::size`]), so an
//! encoding too large for the budget is refused at once. Then one bounded search per free
//! vertex finds the members, and every clause is charged as it is added.

use crate::base::budget::Budget;
use crate::base::graph::{Graph, UNREACHABLE};
use crate::sat::cnf::Cnf;
use crate::sat::cnf::CLAUSE_COST;
pub use crate::sat::totalizer::Size;
use crate::sat::totalizer::{add_trees, merge_size, Builder, Halves};

/// The encoding and how to read a model of it.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The formula.
    pub cnf: Cnf,
    /// For each vertex, the variable "B occupies it" (`None` for vertices of S).
    pub placement_var: Vec<Option<u32>>,
    /// Number of gain literals and the number of them that must be true (0 when any placement
    /// wins).
    pub gain_literals: usize,
    pub gain_threshold: usize,
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

/// A free vertex's gain literals, known from its distance to S and its degree alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Leaf {
    vertex: usize,
    /// `e_v` exists: dist(v, S) >= 2 and v has a neighbour.
    beyond: bool,
    /// `t_v` exists (v is in R) ...
    reached: bool,
    /// ... and is a fresh variable rather than `b_v` (v has a free neighbour).
    shared: bool,
}

impl Leaf {
    fn gain_count(&self) -> usize {
        usize::from(self.beyond) + usize::from(self.reached)
    }
}

/// What the gain condition asks of the gain literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// K + 1 - n <= 0: every placement wins; no gain tree.
    AnyPlacement,
    /// At least this many (1..=the number of gain literals) must be true.
    AtLeast(usize),
    /// More than there are gain literals (this many): no placement wins; the formula is the
    /// empty clause.
    Impossible(usize),
}

/// Everything about the encoding but the members of its disjunctions: distances to S, the
/// counter order with each free vertex's gain literals, the twin classes, and the goal.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Distance from S to each vertex ([`UNREACHABLE`] outside R).
    pub to_white: Vec<u32>,
    leaves: Vec<Leaf>,
    /// Consecutive members (earlier, later) of each class of free twins, in vertex order.
    twins: Vec<(usize, usize)>,
    black_count: usize,
    pub goal: Goal,
}

impl Layout {
    /// Number of gain literals.
    pub fn gain_literals(&self) -> usize {
        self.leaves.iter().map(Leaf::gain_count).sum()
    }

    /// The free vertices in counter order.
    pub fn counter_order(&self) -> impl Iterator<Item = usize> + '_ {
        self.leaves.iter().map(|leaf| leaf.vertex)
    }

    /// The exact size of [`black_wins_cnf`]'s formula, except the members of the disjunctions
    /// (`b_u` in the clauses `e_v -> OR b_u` and `t_v -> OR b_u`, which only the bounded searches
    /// find): those clauses are counted with their one negative literal. Linear in the number
    /// of tree outputs.
    pub fn size(&self) -> Size {
        let free = self.leaves.len() as u128;
        let n = self.black_count as u128;
        let mut total = Size { variables: free, ..Size::default() };
        let threshold = match self.goal {
            Goal::Impossible(_) => {
                total.clauses = 1;
                return total;
            }
            Goal::AnyPlacement => None,
            Goal::AtLeast(t) => Some(t as u128),
        };
        let pairs = self.twins.len() as u128;
        total += Size { variables: 0, clauses: pairs, literals: 2 * pairs };
        // Leaves: (gain outputs, count outputs) per node, merged level by level as built.
        let mut level: Vec<(u128, u128)> = Vec::with_capacity(self.leaves.len());
        for leaf in &self.leaves {
            let mut gain = 0;
            if let Some(t) = threshold {
                if leaf.beyond {
                    // e_v -> not b_v, e_v -> OR ...
                    total += Size { variables: 1, clauses: 2, literals: 3 };
                }
                if leaf.reached && leaf.shared {
                    total += Size { variables: 1, clauses: 1, literals: 1 };
                }
                if leaf.beyond && leaf.reached {
                    total += Size { variables: 0, clauses: 1, literals: 2 };
                }
                gain = (leaf.gain_count() as u128).min(t);
            }
            level.push((gain, 1));
        }
        while level.len() > 1 {
            let mut next = Vec::with_capacity(level.len().div_ceil(2));
            for pair in level.chunks(2) {
                next.push(match *pair {
                    [(ga, ca), (gb, cb)] => {
                        let t = threshold.unwrap_or(0);
                        total += merge_size(ga, gb, t, Halves::Down);
                        total += merge_size(ca, cb, n + 1, Halves::Both);
                        ((ga + gb).min(t), (ca + cb).min(n + 1))
                    }
                    [single] => single,
                    _ => unreachable!("chunks of two"),
                });
            }
            level = next;
        }
        let (gain, count) = level.first().copied().unwrap_or((0, 0));
        // The requirements: gain output t true; count output n true (an empty clause when the
        // count cannot reach n); count output n + 1 false when it exists.
        if threshold.is_some() {
            total += Size { variables: 0, clauses: 1, literals: u128::from(gain > 0) };
        }
        if n > 0 {
            total += Size { variables: 0, clauses: 1, literals: u128::from(count >= n) };
        }
        if count > n {
            total += Size { variables: 0, clauses: 1, literals: 1 };
        }
        total
    }
}

/// Finds the [`Layout`] of the encoding: two breadth-first searches and, unless no placement
/// can win, the twin classes' two sorts (all charged).
pub fn layout(
    graph: &Graph,
    white: &[usize],
    black_count: usize,
    budget: &mut Budget,
) -> Result<Layout, String> {
    let n = graph.len() as u64;
    let m = graph.edge_count() as u64;
    // Two breadth-first searches (from S; the order), each with a vector per vertex and every
    // adjacency entry looked at once, and the leaves; the order's sorts (the free vertices, and
    // each vertex's neighbours) by their comparisons.
    let log = u64::from((graph.len().max(1) as u64).ilog2()) + 2;
    budget.charge_each(
        3,
        n.saturating_mul(16).saturating_add(m.saturating_mul(2)),
        "laying out the direct encoding",
    )?;
    budget.charge_each(
        n.saturating_add(m.saturating_mul(2)),
        log.saturating_mul(2),
        "laying out the direct encoding",
    )?;
    let to_white = graph.distances_from(white);
    let mut is_white = vec![false; graph.len()];
    for &w in white {
        is_white[w] = true;
    }
    // Cuthill-McKee: each component of the graph without S from a vertex of fewest free
    // neighbours (the lowest-numbered of them), neighbours in increasing degree.
    let free_degree: Vec<usize> = (0..graph.len())
        .map(|v| graph.neighbours(v).iter().filter(|&&w| !is_white[w]).count())
        .collect();
    let mut starts: Vec<usize> = (0..graph.len()).filter(|&v| !is_white[v]).collect();
    starts.sort_by_key(|&v| (free_degree[v], v));
    let mut seen = is_white.clone();
    let mut leaves = Vec::new();
    let mut next = Vec::new();
    for start in starts {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut head = leaves.len();
        leaves.push(start);
        while head < leaves.len() {
            let v = leaves[head];
            head += 1;
            next.clear();
            next.extend(graph.neighbours(v).iter().copied().filter(|&w| !seen[w]));
            next.sort_by_key(|&w| (graph.neighbours(w).len(), w));
            for &w in &next {
                seen[w] = true;
                leaves.push(w);
            }
        }
    }
    let leaves: Vec<Leaf> = leaves
        .into_iter()
        .map(|v| Leaf {
            vertex: v,
            beyond: to_white[v] >= 2 && !graph.neighbours(v).is_empty(),
            reached: to_white[v] != UNREACHABLE,
            shared: free_degree[v] > 0,
        })
        .collect();
    let reached = to_white.iter().filter(|&&d| d != UNREACHABLE).count();
    let literals: usize = leaves.iter().map(Leaf::gain_count).sum();
    let goal = match (reached + 1).checked_sub(black_count) {
        None | Some(0) => Goal::AnyPlacement,
        Some(t) if t > literals => Goal::Impossible(t),
        Some(t) => Goal::AtLeast(t),
    };
    let twins = match goal {
        Goal::Impossible(_) => Vec::new(),
        _ => free_twins(graph, &is_white, budget)?,
    };
    Ok(Layout { to_white, leaves, twins, black_count, goal })
}

/// The classes of free twins (vertices outside S with the same open or the same closed
/// neighbourhood), as pairs of consecutive members in vertex order. Two sorts of the free
/// vertices by neighbourhood, charged by their comparisons.
fn free_twins(
    graph: &Graph,
    is_white: &[bool],
    budget: &mut Budget,
) -> Result<Vec<(usize, usize)>, String> {
    let free: Vec<usize> = (0..graph.len()).filter(|&v| !is_white[v]).collect();
    let count = free.len() as u64;
    let widest = (0..graph.len()).map(|v| graph.neighbours(v).len()).max().unwrap_or(0) as u64;
    // Each sort makes at most count * (log2(count) + 2) comparisons of at most widest + 2 steps.
    let comparisons = count.saturating_mul(u64::from(count.max(1).ilog2()) + 2);
    budget.charge_each(
        comparisons.saturating_mul(2),
        widest + 2,
        "finding twin vertices for the direct encoding",
    )?;
    let closed = |v: usize| {
        let neighbours = graph.neighbours(v);
        let at = neighbours.partition_point(|&w| w < v);
        neighbours[..at].iter().copied().chain([v]).chain(neighbours[at..].iter().copied())
    };
    let mut pairs = Vec::new();
    let mut open_order = free.clone();
    open_order.sort_by(|&u, &v| graph.neighbours(u).cmp(graph.neighbours(v)).then(u.cmp(&v)));
    let mut closed_order = free;
    closed_order.sort_by(|&u, &v| closed(u).cmp(closed(v)).then(u.cmp(&v)));
    for pair in open_order.windows(2) {
        if graph.neighbours(pair[0]) == graph.neighbours(pair[1]) {
            pairs.push((pair[0], pair[1]));
        }
    }
    for pair in closed_order.windows(2) {
        if closed(pair[0]).eq(closed(pair[1])) {
            pairs.push((pair[0], pair[1]));
        }
    }
    Ok(pairs)
}

/// The formula "B occupies exactly `black_count` vertices outside `white` and wins", every
/// search and clause charged to `budget` before it is done (the error names the limit).
pub fn black_wins_cnf(
    graph: &Graph,
    white: &[usize],
    black_count: usize,
    budget: &mut Budget,
) -> Result<Encoding, String> {
    let layout = layout(graph, white, black_count, budget)?;
    // The clauses are counted exactly before any is built: an encoding that cannot fit is
    // refused at once (they are then charged one by one as they are made).
    let clauses = layout.size().clauses;
    budget.require(
        u64::try_from(clauses.saturating_mul(u128::from(CLAUSE_COST))).unwrap_or(u64::MAX),
        "building the direct encoding",
    )?;
    let mut cnf = Builder { cnf: Cnf::new(0), budget };
    let mut placement_var = vec![None; graph.len()];
    for leaf in &layout.leaves {
        placement_var[leaf.vertex] = Some(0);
    }
    for var in placement_var.iter_mut().flatten() {
        *var = cnf.fresh_var()? as u32;
    }
    let b = |v: usize| placement_var[v].map_or(0, |x| x as i32);
    let threshold = match layout.goal {
        Goal::Impossible(threshold) => {
            cnf.add_clause(vec![])?;
            return Ok(Encoding {
                cnf: cnf.cnf,
                placement_var,
                gain_literals: layout.gain_literals(),
                gain_threshold: threshold,
            });
        }
        Goal::AnyPlacement => 0,
        Goal::AtLeast(t) => t,
    };
    for &(earlier, later) in &layout.twins {
        // Lex-leader: B takes a later twin only with the earlier one (see the module docs).
        cnf.add_clause(vec![-b(later), b(earlier)])?;
    }
    if threshold > 0 {
        // One bounded search from every free vertex (each allocates a distance per vertex and
        // may look at every adjacency entry).
        let (n, m) = (graph.len() as u64, graph.edge_count() as u64);
        cnf.budget.charge_each(
            layout.leaves.len() as u64,
            n.saturating_mul(8).saturating_add(m.saturating_mul(2)),
            "searching distances for the direct encoding",
        )?;
    }
    let mut level: Vec<(Vec<i32>, Vec<i32>)> = Vec::with_capacity(layout.leaves.len());
    for leaf in &layout.leaves {
        let v = leaf.vertex;
        let mut gain = Vec::new();
        if threshold > 0 {
            let limit = layout.to_white[v];
            let around = graph.distances_within(&[v], limit);
            let mut strictly_nearer = Vec::new();
            let mut as_near = Vec::new();
            for (u, &d) in around.iter().enumerate() {
                if d == UNREACHABLE || placement_var[u].is_none() {
                    continue;
                }
                if d < limit && u != v {
                    strictly_nearer.push(b(u));
                }
                as_near.push(b(u));
            }
            let t = match (leaf.reached, leaf.shared) {
                (false, _) => None,
                (true, false) => Some(b(v)),
                (true, true) => {
                    let t = cnf.fresh_var()?;
                    let mut clause = vec![-t];
                    clause.extend_from_slice(&as_near);
                    cnf.add_clause(clause)?;
                    Some(t)
                }
            };
            let e = if leaf.beyond {
                let e = cnf.fresh_var()?;
                cnf.add_clause(vec![-e, -b(v)])?;
                let mut clause = vec![-e];
                clause.extend_from_slice(&strictly_nearer);
                cnf.add_clause(clause)?;
                if let Some(t) = t {
                    cnf.add_clause(vec![-e, t])?;
                }
                Some(e)
            } else {
                None
            };
            // Sorted unary: "at least one" is t_v (or e_v alone), "two" is e_v.
            gain.extend(t);
            gain.extend(e);
            gain.truncate(threshold);
        }
        level.push((gain, vec![b(v)]));
    }
    let (gain, count) = add_trees(&mut cnf, level, threshold, black_count + 1)?;
    if threshold > 0 {
        match gain.get(threshold - 1) {
            Some(&g) => cnf.add_clause(vec![g])?,
            None => cnf.add_clause(vec![])?,
        }
    }
    if black_count > 0 {
        match count.get(black_count - 1) {
            Some(&c) => cnf.add_clause(vec![c])?,
            None => cnf.add_clause(vec![])?,
        }
    }
    if let Some(&c) = count.get(black_count) {
        cnf.add_clause(vec![-c])?;
    }
    Ok(Encoding {
        cnf: cnf.cnf,
        placement_var,
        gain_literals: layout.gain_literals(),
        gain_threshold: threshold,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat::totalizer::merge;
    use crate::voronoi::rules::{score, Outcome};

    /// Is the CNF satisfiable? A small DPLL: unit propagation, then both values of the first
    /// unassigned variable of a clause not yet satisfied.
    fn satisfiable(cnf: &Cnf) -> bool {
        fn solve(clauses: &[Vec<i32>], values: &mut Vec<i8>) -> bool {
            let value =
                |values: &[i8], lit: i32| values[lit.unsigned_abs() as usize] * lit.signum() as i8;
            let mut trail = Vec::new();
            loop {
                let mut unit = None;
                let mut open = None;
                for clause in clauses {
                    if clause.iter().any(|&l| value(values, l) == 1) {
                        continue;
                    }
                    let mut free = clause.iter().filter(|&&l| value(values, l) == 0);
                    match (free.next(), free.next()) {
                        (None, _) => {
                            for v in trail {
                                values[v] = 0;
                            }
                            return false;
                        }
                        (Some(&l), None) => unit = Some(l),
                        (Some(&l), Some(_)) => open = open.or(Some(l)),
                    }
                    if unit.is_some() {
                        break;
                    }
                }
                let Some(lit) = unit else {
                    let Some(lit) = open else { return true };
                    for choice in [lit, -lit] {
                        values[choice.unsigned_abs() as usize] = choice.signum() as i8;
                        if solve(clauses, values) {
                            return true;
                        }
                        values[choice.unsigned_abs() as usize] = 0;
                    }
                    for v in trail {
                        values[v] = 0;
                    }
                    return false;
                };
                values[lit.unsigned_abs() as usize] = lit.signum() as i8;
                trail.push(lit.unsigned_abs() as usize);
            }
        }
        solve(&cnf.clauses, &mut vec![0; cnf.num_vars as usize + 1])
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

    /// Every graph on `n` labelled vertices.
    fn all_graphs(n: usize) -> impl Iterator<Item = Graph> {
        let pairs: Vec<(usize, usize)> =
            (0..n).flat_map(|a| ((a + 1)..n).map(move |b| (a, b))).collect();
        (0u32..1 << pairs.len()).map(move |mask| {
            let edges: Vec<(usize, usize)> = pairs
                .iter()
                .enumerate()
                .filter(|(i, _)| mask >> i & 1 == 1)
                .map(|(_, &e)| e)
                .collect();
            graph(n, &edges)
        })
    }

    fn with_units(cnf: &Cnf, units: impl IntoIterator<Item = i32>) -> Cnf {
        let mut with = cnf.clone();
        for lit in units {
            with.add_clause(vec![lit]);
        }
        with
    }

    #[test]
    fn the_test_solver_is_right() {
        let mut cnf = Cnf::new(3);
        cnf.add_clause(vec![1, 2]);
        cnf.add_clause(vec![-1, 3]);
        cnf.add_clause(vec![-2, 3]);
        assert!(satisfiable(&cnf));
        assert!(!satisfiable(&with_units(&cnf, [-3])));
        assert!(satisfiable(&with_units(&cnf, [-1])));
        cnf.add_clause(vec![]);
        assert!(!satisfiable(&cnf));
    }

    #[test]
    fn count_tree_counts_exactly() {
        // m inputs, exactly k required: with the inputs fixed, satisfiable iff k are true.
        for m in 1..=6usize {
            for k in 0..=m {
                let mut budget = Budget::unlimited();
                let mut cnf = Builder { cnf: Cnf::new(m as u32), budget: &mut budget };
                let leaves = (1..=m as i32).map(|x| (vec![], vec![x])).collect();
                let (_, count) = add_trees(&mut cnf, leaves, 0, k + 1).unwrap();
                assert_eq!(count.len(), m.min(k + 1));
                if k > 0 {
                    cnf.add_clause(vec![count[k - 1]]).unwrap();
                }
                if let Some(&c) = count.get(k) {
                    cnf.add_clause(vec![-c]).unwrap();
                }
                for bits in 0u32..1 << m {
                    let fixed =
                        (0..m as i32).map(|i| if bits >> i & 1 == 1 { i + 1 } else { -(i + 1) });
                    assert_eq!(
                        satisfiable(&with_units(&cnf.cnf, fixed)),
                        bits.count_ones() as usize == k,
                        "m = {m}, k = {k}, bits = {bits:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn gain_tree_proves_its_count() {
        // Leaves of 0, 1 or 2 sorted inputs (the second implies the first), every threshold:
        // with the inputs fixed, "at least t" is satisfiable iff t inputs are true.
        for shape in 0..3u32.pow(4) {
            let sizes: Vec<usize> = (0..4).map(|i| (shape / 3u32.pow(i) % 3) as usize).collect();
            let inputs: usize = sizes.iter().sum();
            for t in 1..=inputs {
                let mut budget = Budget::unlimited();
                let mut cnf = Builder { cnf: Cnf::new(inputs as u32), budget: &mut budget };
                let mut next = 1;
                let mut leaves = Vec::new();
                for &size in &sizes {
                    let lits: Vec<i32> = (next..next + size as i32).collect();
                    next += size as i32;
                    if size == 2 {
                        cnf.add_clause(vec![-lits[1], lits[0]]).unwrap();
                    }
                    leaves.push((lits, vec![]));
                }
                let (gain, _) = add_trees(&mut cnf, leaves, t, 1).unwrap();
                assert_eq!(gain.len(), t);
                cnf.add_clause(vec![gain[t - 1]]).unwrap();
                for bits in 0u32..1 << inputs {
                    let fixed =
                        (0..inputs as i32)
                            .map(|i| if bits >> i & 1 == 1 { i + 1 } else { -(i + 1) });
                    let sorted = {
                        let mut at = 0;
                        sizes.iter().all(|&size| {
                            at += size;
                            size < 2 || bits >> (at - 1) & 1 <= bits >> (at - 2) & 1
                        })
                    };
                    assert_eq!(
                        satisfiable(&with_units(&cnf.cnf, fixed)),
                        sorted && bits.count_ones() as usize >= t,
                        "sizes {sizes:?}, t = {t}, bits = {bits:b}"
                    );
                }
            }
        }
    }

    /// The members of the disjunctions `e_v -> OR` and `t_v -> OR`, by all-pairs distances.
    fn disjunction_members(g: &Graph, white: &[usize]) -> u128 {
        let to_white = g.distances_from(white);
        let free: Vec<usize> = (0..g.len()).filter(|v| !white.contains(v)).collect();
        let mut members = 0;
        for &v in &free {
            let d = g.distances_from(&[v]);
            let limit = to_white[v];
            let near = |u: usize, strict: bool| {
                d[u] != UNREACHABLE && if strict { d[u] < limit } else { d[u] <= limit }
            };
            let strictly = free.iter().filter(|&&u| u != v && near(u, true)).count() as u128;
            let as_near = free.iter().filter(|&&u| near(u, false)).count() as u128;
            members += strictly;
            if limit != UNREACHABLE && as_near > 1 {
                members += as_near;
            }
        }
        members
    }

    #[test]
    fn layout_size_is_exact() {
        let mut cases = 0;
        for g in (1..=5).flat_map(all_graphs) {
            for whites in 1..g.len().min(3) {
                let white: Vec<usize> = (0..whites).collect();
                for n in 1..=g.len() - whites {
                    let layout = layout(&g, &white, n, &mut Budget::unlimited()).unwrap();
                    let size = layout.size();
                    let cnf = black_wins_cnf(&g, &white, n, &mut Budget::unlimited()).unwrap().cnf;
                    let members = match layout.goal {
                        Goal::AtLeast(_) => disjunction_members(&g, &white),
                        _ => 0,
                    };
                    let literals: usize = cnf.clauses.iter().map(Vec::len).sum();
                    assert_eq!(size.variables, u128::from(cnf.num_vars));
                    assert_eq!(size.clauses, cnf.clauses.len() as u128);
                    assert_eq!(size.literals + members, literals as u128);
                    cases += 1;
                }
            }
        }
        assert!(cases > 3_000, "{cases}");
    }

    #[test]
    fn free_twins_are_the_twin_classes() {
        // Against the definition, on every graph on up to 5 vertices with W on vertex 0: the
        // pairs are the consecutive members of each class of free vertices with equal open,
        // or equal closed, neighbourhoods.
        for g in (1..=5).flat_map(all_graphs) {
            let is_white: Vec<bool> = (0..g.len()).map(|v| v == 0).collect();
            let mut expected = Vec::new();
            for closed in [false, true] {
                let hood = |v: usize| {
                    let mut set: Vec<usize> = g.neighbours(v).to_vec();
                    if closed {
                        set.push(v);
                        set.sort_unstable();
                    }
                    set
                };
                for u in 1..g.len() {
                    // u's next member: the first later free vertex with the same neighbourhood.
                    if let Some(v) = (u + 1..g.len()).find(|&v| hood(u) == hood(v)) {
                        expected.push((u, v));
                    }
                }
            }
            expected.sort_unstable();
            let mut found = free_twins(&g, &is_white, &mut Budget::unlimited()).unwrap();
            found.sort_unstable();
            assert_eq!(found, expected, "{:?}", g.edges());
        }
    }

    #[test]
    fn counter_order_is_cuthill_mckee() {
        // W on 0; free degrees 1:3 2:1 3:1 4:2 5:2 6:1. The search starts at 2 (fewest free
        // neighbours, lowest number), and from 1 visits 3 (degree 1) before 4 (degree 2).
        let g = graph(7, &[(0, 1), (1, 2), (1, 3), (1, 4), (4, 5), (5, 6)]);
        let layout = layout(&g, &[0], 2, &mut Budget::unlimited()).unwrap();
        assert_eq!(layout.counter_order().collect::<Vec<_>>(), vec![2, 1, 3, 4, 5, 6]);
    }

    #[test]
    fn twins_make_stars_easy() {
        // A star with W on its centre and 5 free leaves: the leaves form one class, so B's
        // placements are ordered (4 lex-leader clauses).
        let g = graph(6, &[(0, 1), (0, 2), (0, 3), (0, 4), (0, 5)]);
        let layout = layout(&g, &[0], 3, &mut Budget::unlimited()).unwrap();
        assert_eq!(layout.twins, vec![(1, 2), (2, 3), (3, 4), (4, 5)]);
    }

    #[test]
    fn merge_size_counts_merge() {
        for a in 0..=5usize {
            for b in 0..=5usize {
                for bound in 1..=a + b + 1 {
                    for halves in [Halves::Down, Halves::Both] {
                        let mut budget = Budget::unlimited();
                        let mut cnf = Builder { cnf: Cnf::new(10), budget: &mut budget };
                        let left: Vec<i32> = (1..=a as i32).collect();
                        let right: Vec<i32> = (6..6 + b as i32).collect();
                        merge(&mut cnf, &left, &right, bound, halves).unwrap();
                        let built = Size {
                            variables: u128::from(cnf.cnf.num_vars - 10),
                            clauses: cnf.cnf.clauses.len() as u128,
                            literals: cnf.cnf.clauses.iter().map(|c| c.len() as u128).sum(),
                        };
                        assert_eq!(
                            merge_size(a as u128, b as u128, bound as u128, halves),
                            built,
                            "a {a}, b {b}, bound {bound}, {halves:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn agrees_with_enumeration_on_small_graphs() {
        // Every graph on up to 5 labelled vertices, W on the first one or two, every n: the CNF
        // is satisfiable iff enumeration finds a winning placement, and a model's placement has
        // n vertices and wins. (Larger graphs are cross-checked with a real SAT solver in the
        // workspace's integration tests.)
        let (mut wins, mut losses) = (0, 0);
        for g in (1..=5).flat_map(all_graphs) {
            for whites in 1..g.len().min(3) {
                let white: Vec<usize> = (0..whites).collect();
                for n in 1..=g.len() - whites {
                    let enc = black_wins_cnf(&g, &white, n, &mut Budget::unlimited()).unwrap();
                    let can_win = black_can_win(&g, &white, n);
                    assert_eq!(
                        satisfiable(&enc.cnf),
                        can_win,
                        "{:?}, W {white:?}, n {n}",
                        g.edges()
                    );
                    if can_win {
                        wins += 1;
                    } else {
                        losses += 1;
                    }
                }
            }
        }
        assert!(wins > 500 && losses > 500, "wins {wins}, losses {losses}");
    }

    #[test]
    fn instances_past_the_gain_literals_are_refuted_at_once() {
        // A path W - a - b - W: K = 4, n = 1, so B needs 4 gain literals of the 2 there are
        // (t_a, t_b; no vertex is two steps from W).
        let g = graph(4, &[(0, 1), (1, 2), (2, 3)]);
        let enc = black_wins_cnf(&g, &[0, 3], 1, &mut Budget::unlimited()).unwrap();
        assert_eq!((enc.gain_literals, enc.gain_threshold), (2, 4));
        assert_eq!(enc.cnf.clauses, vec![Vec::<i32>::new()]);
        assert_eq!(enc.placement_var, vec![None, Some(1), Some(2), None]);
    }

    #[test]
    fn the_budget_refuses_before_building() {
        // The refusal up front names the encoding, and a budget just large enough builds it.
        let g = graph(7, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]);
        let err = black_wins_cnf(&g, &[0], 2, &mut Budget::new(2_000)).unwrap_err();
        assert!(err.contains("building the direct encoding"), "{err}");
        let mut budget = Budget::unlimited();
        black_wins_cnf(&g, &[0], 2, &mut budget).unwrap();
        let enough = budget.used();
        black_wins_cnf(&g, &[0], 2, &mut Budget::new(enough)).unwrap();
        assert!(black_wins_cnf(&g, &[0], 2, &mut Budget::new(enough - 1)).is_err());
    }
}

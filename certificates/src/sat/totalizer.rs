//! Totalizers (Bailleux and Boufkhad, 2003) for CNF encodings built under a work budget: a
//! [`Builder`] that charges every clause before it is added, [`merge`] of two sorted unary
//! numbers into one cut at a bound (one direction or both), [`add_trees`] for two trees merged
//! level by level over the same leaves, and [`merge_size`], the exact size of a merge without
//! building it, so that an encoding can be counted before it is made. The direct encoding of the
//! one-round Voronoi game ([`crate::voronoi::encode`]) is built on them.

use crate::base::budget::Budget;
use crate::sat::cnf::{Cnf, CLAUSE_COST};

/// A formula under construction whose every clause is charged to a budget before it is added.
pub(crate) struct Builder<'b> {
    pub(crate) cnf: Cnf,
    pub(crate) budget: &'b mut Budget,
}

impl Builder<'_> {
    pub(crate) fn fresh_var(&mut self) -> Result<i32, String> {
        if self.cnf.num_vars >= i32::MAX as u32 {
            return Err("the encoding would need more than 2^31 - 1 variables".into());
        }
        Ok(self.cnf.fresh_var())
    }

    pub(crate) fn add_clause(&mut self, clause: Vec<i32>) -> Result<(), String> {
        self.budget
            .charge(CLAUSE_COST + 4 * clause.len() as u64, "building the direct encoding")?;
        self.cnf.add_clause(clause);
        Ok(())
    }
}

/// Which halves of a totalizer node's definition to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halves {
    /// `o -> definition` only: a true output proves its count (the gain tree).
    Down,
    /// Both directions: outputs equal the true counts up to the bound (the count tree).
    Both,
}

/// Merges two sorted unary numbers (`a[i - 1]` = "at least i of the left inputs") into one of
/// at most `bound` outputs. An empty side adds nothing: the other is the result.
pub(crate) fn merge(
    cnf: &mut Builder,
    a: &[i32],
    b: &[i32],
    bound: usize,
    halves: Halves,
) -> Result<Vec<i32>, String> {
    if a.is_empty() || b.is_empty() {
        let side = if a.is_empty() { b } else { a };
        return Ok(side[..side.len().min(bound)].to_vec());
    }
    let size = (a.len() + b.len()).min(bound);
    cnf.budget.charge(8 * size as u64 + 24, "building the direct encoding's counters")?;
    let mut out = Vec::with_capacity(size);
    for _ in 0..size {
        out.push(cnf.fresh_var()?);
    }
    for k in 0..=size {
        for i in k.saturating_sub(b.len())..=k.min(a.len()) {
            let j = k - i;
            if k < size {
                // o_(k+1) -> a_(i+1) OR b_(j+1): k + 1 true inputs need one more on a side.
                let mut clause = vec![-out[k]];
                if i < a.len() {
                    clause.push(a[i]);
                }
                if j < b.len() {
                    clause.push(b[j]);
                }
                cnf.add_clause(clause)?;
            }
            if halves == Halves::Both && k > 0 {
                // a_i AND b_j -> o_k.
                let mut clause = vec![out[k - 1]];
                if i > 0 {
                    clause.push(-a[i - 1]);
                }
                if j > 0 {
                    clause.push(-b[j - 1]);
                }
                cnf.add_clause(clause)?;
            }
        }
    }
    Ok(out)
}

/// Variables, clauses and literals of [`merge`] on sides of `a` and `b` outputs, without
/// building it: for each output count k, the splits i + j = k with i <= a and j <= b.
pub(crate) fn merge_size(a: u128, b: u128, bound: u128, halves: Halves) -> Size {
    if a == 0 || b == 0 {
        return Size::default();
    }
    let size = (a + b).min(bound);
    let mut total = Size { variables: size, ..Size::default() };
    for k in 0..=size {
        let (low, high) = (k.saturating_sub(b), k.min(a));
        let splits = high - low + 1;
        // How many i in low..=high satisfy i < limit, for limit >= low.
        let below = |limit: u128| limit.min(high + 1).saturating_sub(low);
        if k < size {
            // One clause per split: the output, a_(i+1) when i < a, b_(j+1) when j < b
            // (j < b iff i > k - b, so every split but i = k - b when k >= b).
            let with_b = if k >= b { splits - 1 } else { splits };
            total.clauses += splits;
            total.literals += splits + below(a) + with_b;
        }
        if halves == Halves::Both && k > 0 {
            // The output, a_i when i > 0, b_j when j > 0 (every split but i = k).
            let with_a = splits - u128::from(low == 0);
            let with_b = splits - u128::from(high == k);
            total.clauses += splits;
            total.literals += splits + with_a + with_b;
        }
    }
    total
}

/// A size: variables, clauses and literals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub variables: u128,
    pub clauses: u128,
    pub literals: u128,
}

impl std::ops::AddAssign for Size {
    fn add_assign(&mut self, other: Size) {
        self.variables += other.variables;
        self.clauses += other.clauses;
        self.literals += other.literals;
    }
}

/// Builds the gain and count trees over `leaves` (each a sorted unary number of gain literals
/// and one of placement literals), merging neighbours level by level, and returns the roots:
/// the gain tree cut at `gain_bound` with [`Halves::Down`], the count tree cut at `count_bound`
/// with [`Halves::Both`].
pub(crate) fn add_trees(
    cnf: &mut Builder,
    leaves: Vec<(Vec<i32>, Vec<i32>)>,
    gain_bound: usize,
    count_bound: usize,
) -> Result<(Vec<i32>, Vec<i32>), String> {
    let mut level = leaves;
    while level.len() > 1 {
        let mut next = Vec::with_capacity(level.len().div_ceil(2));
        let mut nodes = level.into_iter();
        while let Some((gain_a, count_a)) = nodes.next() {
            next.push(match nodes.next() {
                Some((gain_b, count_b)) => (
                    merge(cnf, &gain_a, &gain_b, gain_bound, Halves::Down)?,
                    merge(cnf, &count_a, &count_b, count_bound, Halves::Both)?,
                ),
                None => (gain_a, count_a),
            });
        }
        level = next;
    }
    Ok(level.pop().unwrap_or_default())
}

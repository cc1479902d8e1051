//! CNF formulas as the checker sees them: a variable count and clauses of DIMACS literals.
//!
//! A literal is a non-zero `i32`: `v` is variable `v` true, `-v` is it false, variables are
//! numbered from 1. Clause `k` of the list has LRAT clause id `k + 1`.

use serde::{Deserialize, Serialize};

/// Work units charged for holding one clause, besides its literals: the clause's vector and its
/// allocation (the DIMACS reader and the encodings built under a budget charge it alike).
pub(crate) const CLAUSE_COST: u64 = 48;

/// A formula in conjunctive normal form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cnf {
    /// Variables are `1..=num_vars`.
    pub num_vars: u32,
    /// Each clause is a list of non-zero literals with `|lit| <= num_vars`.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// An empty formula over `num_vars` variables.
    pub fn new(num_vars: u32) -> Self {
        Cnf { num_vars, clauses: Vec::new() }
    }

    /// Allocates a fresh variable and returns it.
    pub fn fresh_var(&mut self) -> i32 {
        self.num_vars += 1;
        self.num_vars as i32
    }

    /// Appends a clause.
    pub fn add_clause(&mut self, clause: Vec<i32>) {
        self.clauses.push(clause);
    }

    /// Every literal is non-zero and names a declared variable. Returns the first offender.
    pub fn first_bad_literal(&self) -> Option<(usize, i32)> {
        for (k, clause) in self.clauses.iter().enumerate() {
            for &lit in clause {
                if lit == 0 || lit.unsigned_abs() > self.num_vars {
                    return Some((k, lit));
                }
            }
        }
        None
    }

    /// Whether `assignment` (index 0 is variable 1) satisfies every clause.
    /// Variables beyond the assignment's length count as false.
    pub fn is_satisfied_by(&self, assignment: &[bool]) -> bool {
        self.clauses.iter().all(|clause| clause.iter().any(|&lit| literal_value(assignment, lit)))
    }

    /// The index of the first clause that `assignment` falsifies, if any.
    pub fn first_falsified_clause(&self, assignment: &[bool]) -> Option<usize> {
        self.clauses
            .iter()
            .position(|clause| !clause.iter().any(|&lit| literal_value(assignment, lit)))
    }

    /// The formula in DIMACS text.
    pub fn to_dimacs(&self) -> String {
        let mut out = format!("p cnf {} {}\n", self.num_vars, self.clauses.len());
        for clause in &self.clauses {
            for lit in clause {
                out.push_str(&lit.to_string());
                out.push(' ');
            }
            out.push_str("0\n");
        }
        out
    }
}

/// The value of a literal under an assignment (index 0 is variable 1; missing variables are false).
pub fn literal_value(assignment: &[bool], lit: i32) -> bool {
    let value = assignment.get(lit.unsigned_abs() as usize - 1).copied().unwrap_or(false);
    if lit > 0 {
        value
    } else {
        !value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_clauses() {
        let cnf = Cnf { num_vars: 2, clauses: vec![vec![1, -2], vec![2]] };
        assert!(cnf.is_satisfied_by(&[true, true]));
        assert!(!cnf.is_satisfied_by(&[false, true]));
        assert_eq!(cnf.first_falsified_clause(&[false, true]), Some(0));
        assert_eq!(cnf.to_dimacs(), "p cnf 2 2\n1 -2 0\n2 0\n");
    }
}

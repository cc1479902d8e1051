//! Normalisation of an arbitrary CNF to *restricted 3SAT*, the input form of the Voronoi
//! reduction.
//!
//! # Target form
//!
//! In the style of Papadimitriou, *Computational Complexity*, Prop. 9.3 (checked by
//! [`is_restricted_3sat`]):
//!
//! * there is at least one clause;
//! * every clause has 1 to 3 literals, none repeated, and no clause holds both `x` and `-x`;
//! * every variable occurs (counting both signs) at least once and at most three times;
//! * the variables are numbered densely `1..=n`.
//!
//! # Steps
//!
//! [`normalise`] applies these steps in order. Each one preserves satisfiability, and the
//! [`Normalisation`] it returns maps satisfying assignments both ways
//! ([`Normalisation::extend`] and [`Normalisation::restrict`]).
//!
//! 1. **Clean clauses.** Repeated literals inside a clause are removed (the first occurrence of
//!    each literal is kept, in order), then clauses holding both `x` and `-x` (tautologies) are
//!    dropped. Both are satisfied by the same assignments as before.
//! 2. **Empty clause.** If some clause of the input is empty, the formula is unsatisfiable and
//!    the result is the fixed gadget `(y) (-y)` over one fresh variable `y`
//!    ([`VarOrigin::Gadget`]); the index of the first empty clause is reported in
//!    [`NormalisationStats::empty_clause`]. The remaining steps are skipped.
//! 3. **Split long clauses.** A clause `(l1 l2 ... lk)` with `k > 3` becomes
//!    `(l1 l2 t1) (-t1 l3 t2) ... (-t(k-3) l(k-1) lk)` with `k - 3` fresh *link* variables
//!    ([`VarOrigin::Link`]). Forward, `t_i` is true exactly when none of `l1 .. l(i+1)` is true;
//!    backward, if no `l` were true then the chain would force `t1, ..., t(k-3)` true and the last
//!    clause would be false. Each link variable occurs twice.
//! 4. **Cycle frequent variables.** A variable occurring `k >= 4` times (after step 3) is replaced
//!    by `k` fresh copies `c1 .. ck` ([`VarOrigin::Copy`]), the `j`-th occurrence (in clause
//!    order, then literal order) by `cj`, and the cycle of implications
//!    `(-c1 c2) (-c2 c3) ... (-ck c1)` is added. The cycle forces all copies equal, and each copy
//!    occurs exactly three times. Variables occurring at most three times keep a single
//!    variable ([`VarOrigin::Original`]).
//! 5. **Renumber.** Original variables that no longer occur (they were absent, or occurred only
//!    in tautologies) are dropped; in [`Normalisation::restrict`] they get `false`. The
//!    remaining variables are numbered densely in this order:
//!    * first the original variables in increasing original number, each either as one variable
//!      or as its `k` copies, consecutively, in occurrence order;
//!    * then all link variables, by original clause index and then by link index.
//!
//!    The clauses come out in this order: the clauses of the input in input order (a split
//!    clause as its consecutive pieces, tautologies gone), then the implication cycles, by
//!    original variable.
//! 6. **Empty formula.** If no clause is left (the input had none, or only tautologies), the
//!    formula is trivially satisfiable and the result is the single clause `(y)` over one fresh
//!    variable ([`VarOrigin::Gadget`], [`NormalisationStats::empty_formula`]).
//!
//! [`crate::normalise_proof`] turns a refutation of the normalised formula into one of the
//! original formula: these steps, read as clauses derived from the original ones.
//!
//! The whole procedure runs in time `O(L log L)` for `L` literal occurrences, and its memory
//! does not depend on the declared number of variables.

use gamecert_certificates::sat::cnf::Cnf;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Where a variable of the normalised formula comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "kebab-case", deny_unknown_fields)]
pub enum VarOrigin {
    /// Original variable `var`, kept as a single variable.
    Original {
        /// The variable number in the original formula.
        var: u32,
    },
    /// Copy number `copy` (1-based, in occurrence order) of original variable `var`, which
    /// occurred four or more times.
    Copy {
        /// The variable number in the original formula.
        var: u32,
        /// 1-based copy number.
        copy: u32,
    },
    /// Link variable `t_index` (1-based) introduced to split original clause `clause`
    /// (0-based index in the original formula).
    Link {
        /// 0-based index of the split clause in the original formula.
        clause: usize,
        /// 1-based index of the link variable within that clause's chain.
        index: u32,
    },
    /// The fresh variable of a fixed gadget (empty clause or empty formula).
    /// (Written with braces so that `deny_unknown_fields` holds for it too: serde lets an
    /// internally tagged unit variant ignore extra keys.)
    Gadget {},
}

/// Counters describing what [`normalise`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NormalisationStats {
    /// Literals removed because they were repeated inside their clause (step 1, all clauses,
    /// tautological or not).
    pub repeated_literals_removed: usize,
    /// Clauses dropped because they held both `x` and `-x` (step 1).
    pub tautologies_dropped: usize,
    /// Clauses with more than 3 distinct literals that were split (step 3).
    pub clauses_split: usize,
    /// Variables occurring 4 or more times that were replaced by a cycle of copies (step 4).
    pub variables_cycled: usize,
    /// Original variables that do not appear in the normalised formula (neither as themselves
    /// nor as copies). In the two gadget cases this is every original variable.
    pub unused_variables_dropped: usize,
    /// Of those, the variable numbers of the header that occur in no clause of the input at all
    /// (gaps in the numbering, or a header declaring more than the clauses use); the others
    /// occurred only in tautologies (or, in the gadget cases, in clauses the gadget replaces).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub variables_in_no_clause: usize,
    /// The 0-based index of the first empty clause of the input, if any (step 2).
    pub empty_clause: Option<usize>,
    /// No clause was left after step 1 (step 6).
    pub empty_formula: bool,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How a normalised formula relates to the original one: enough to map witnesses both ways.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Normalisation {
    /// `num_vars` of the original formula.
    pub original_num_vars: u32,
    /// Number of clauses of the original formula.
    pub original_num_clauses: usize,
    /// The origin of each normalised variable; index 0 is normalised variable 1.
    pub origins: Vec<VarOrigin>,
    /// What was done.
    pub stats: NormalisationStats,
}

/// A normalised formula and its relation to the original.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Normalised {
    /// The restricted 3SAT formula.
    pub formula: Cnf,
    /// The map back to the original formula.
    pub map: Normalisation,
}

/// A literal of the original formula, kept as variable and sign so that `i32::MIN` is harmless.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lit {
    var: u32,
    positive: bool,
}

impl Lit {
    fn of(lit: i32) -> Lit {
        Lit { var: lit.unsigned_abs(), positive: lit > 0 }
    }

    fn complement(self) -> Lit {
        Lit { var: self.var, positive: !self.positive }
    }

    fn value(self, assignment: &[bool]) -> bool {
        let value = (self.var as usize)
            .checked_sub(1)
            .and_then(|i| assignment.get(i))
            .copied()
            .unwrap_or(false);
        value == self.positive
    }
}

/// Step 1 for one clause.
pub(crate) struct Cleaned {
    /// Distinct literals, first occurrences in order.
    pub(crate) lits: Vec<Lit>,
    /// How many repeated literals were removed.
    removed: usize,
    /// Whether the clause holds a complementary pair.
    pub(crate) tautology: bool,
}

/// Removes repeated literals (keeping first occurrences in order) and detects tautologies.
/// Used by both [`normalise`] and [`Normalisation::extend`], so both see the same order.
pub(crate) fn clean_clause(clause: &[i32]) -> Cleaned {
    let mut lits: Vec<Lit> = Vec::with_capacity(clause.len());
    let mut tautology = false;
    if clause.len() <= 8 {
        for lit in clause.iter().map(|&l| Lit::of(l)) {
            if !lits.contains(&lit) {
                tautology |= lits.contains(&lit.complement());
                lits.push(lit);
            }
        }
    } else {
        let mut seen = HashSet::with_capacity(clause.len());
        for lit in clause.iter().map(|&l| Lit::of(l)) {
            if seen.insert(lit) {
                tautology |= seen.contains(&lit.complement());
                lits.push(lit);
            }
        }
    }
    Cleaned { removed: clause.len() - lits.len(), lits, tautology }
}

/// A literal of the intermediate formula of steps 3 and 4: `id < D` is the `id`-th variable
/// (in increasing order) of the original variables that occur, `id >= D` is link `id - D`.
#[derive(Clone, Copy)]
struct MidLit {
    id: usize,
    positive: bool,
}

fn to_literal(var: usize, positive: bool) -> i32 {
    let var = i32::try_from(var).expect("normalised formula has more than i32::MAX variables");
    if positive {
        var
    } else {
        -var
    }
}

fn gadget(original: &Cnf, mut stats: NormalisationStats, clauses: Vec<Vec<i32>>) -> Normalised {
    stats.clauses_split = 0;
    stats.variables_cycled = 0;
    stats.unused_variables_dropped = original.num_vars as usize;
    Normalised {
        formula: Cnf { num_vars: 1, clauses },
        map: Normalisation {
            original_num_vars: original.num_vars,
            original_num_clauses: original.clauses.len(),
            origins: vec![VarOrigin::Gadget {}],
            stats,
        },
    }
}

/// Normalises `original` to restricted 3SAT (see the module documentation for the steps).
///
/// # Panics
///
/// If `original` is not well formed: a literal is 0 or names a variable above `num_vars`
/// (see [`Cnf::first_bad_literal`]). Formulas from [`crate::dimacs::parse_dimacs`] are always
/// well formed.
pub fn normalise(original: &Cnf) -> Normalised {
    if let Some((clause, lit)) = original.first_bad_literal() {
        panic!(
            "normalise: clause {clause} holds literal {lit}, which is 0 or exceeds num_vars = {}",
            original.num_vars
        );
    }
    let mut stats = NormalisationStats::default();
    // Memory by occurrences, not by the declared count (which a file may set to u32::MAX).
    let mut occurring: Vec<u32> =
        original.clauses.iter().flatten().map(|l| l.unsigned_abs()).collect();
    occurring.sort_unstable();
    occurring.dedup();
    stats.variables_in_no_clause = original.num_vars as usize - occurring.len();
    drop(occurring);

    // Step 1: clean every clause.
    let mut kept: Vec<(usize, Vec<Lit>)> = Vec::new();
    for (index, clause) in original.clauses.iter().enumerate() {
        let cleaned = clean_clause(clause);
        stats.repeated_literals_removed += cleaned.removed;
        if cleaned.tautology {
            stats.tautologies_dropped += 1;
        } else {
            kept.push((index, cleaned.lits));
        }
    }

    // Step 2: an empty clause makes the formula unsatisfiable.
    if let Some(index) = original.clauses.iter().position(|c| c.is_empty()) {
        stats.empty_clause = Some(index);
        return gadget(original, stats, vec![vec![1], vec![-1]]);
    }
    // Step 6 (checked here: nothing in between removes clauses).
    if kept.is_empty() {
        stats.empty_formula = true;
        return gadget(original, stats, vec![vec![1]]);
    }

    // The original variables that still occur, in increasing order; index = dense id.
    let mut present: Vec<u32> =
        kept.iter().flat_map(|(_, lits)| lits.iter().map(|l| l.var)).collect();
    present.sort_unstable();
    present.dedup();
    let dense = |var: u32| -> usize {
        present.binary_search(&var).expect("every kept variable is in `present`")
    };
    let num_present = present.len();
    stats.unused_variables_dropped = original.num_vars as usize - num_present;

    // Step 3: split clauses longer than 3. Links get ids num_present + j.
    let mut links: Vec<VarOrigin> = Vec::new();
    let mut mid: Vec<Vec<MidLit>> = Vec::with_capacity(kept.len());
    for (index, lits) in &kept {
        let lits: Vec<MidLit> =
            lits.iter().map(|l| MidLit { id: dense(l.var), positive: l.positive }).collect();
        let k = lits.len();
        if k <= 3 {
            mid.push(lits);
            continue;
        }
        stats.clauses_split += 1;
        let first_link = num_present + links.len();
        for i in 1..=k - 3 {
            links.push(VarOrigin::Link {
                clause: *index,
                index: u32::try_from(i).expect("clause has more than u32::MAX literals"),
            });
        }
        let link = |i: usize, positive: bool| MidLit { id: first_link + i - 1, positive };
        mid.push(vec![lits[0], lits[1], link(1, true)]);
        for i in 1..k - 3 {
            mid.push(vec![link(i, false), lits[i + 1], link(i + 1, true)]);
        }
        mid.push(vec![link(k - 3, false), lits[k - 2], lits[k - 1]]);
    }

    // Step 4: count occurrences of the original variables.
    let mut occurrences = vec![0usize; num_present];
    for lit in mid.iter().flatten() {
        if lit.id < num_present {
            occurrences[lit.id] += 1;
        }
    }

    // Step 5: number the variables. `first_new[d]` is the (0-based) index of the normalised
    // variable, or of its first copy, for dense original id `d`.
    let mut origins: Vec<VarOrigin> = Vec::with_capacity(num_present + links.len());
    let mut first_new = Vec::with_capacity(num_present);
    for (d, &var) in present.iter().enumerate() {
        first_new.push(origins.len());
        let k = occurrences[d];
        if k <= 3 {
            origins.push(VarOrigin::Original { var });
        } else {
            stats.variables_cycled += 1;
            for copy in 1..=k {
                let copy = u32::try_from(copy).expect("more than u32::MAX occurrences");
                origins.push(VarOrigin::Copy { var, copy });
            }
        }
    }
    let first_link_new = origins.len();
    origins.extend(links);

    // Rewrite the clauses with the final numbering, handing out copies in occurrence order.
    let mut used = vec![0usize; num_present];
    let mut clauses: Vec<Vec<i32>> = Vec::with_capacity(mid.len() + 4 * stats.variables_cycled);
    for clause in &mid {
        let out = clause
            .iter()
            .map(|lit| {
                let index = if lit.id < num_present {
                    let d = lit.id;
                    if occurrences[d] <= 3 {
                        first_new[d]
                    } else {
                        used[d] += 1;
                        first_new[d] + used[d] - 1
                    }
                } else {
                    first_link_new + (lit.id - num_present)
                };
                to_literal(index + 1, lit.positive)
            })
            .collect();
        clauses.push(out);
    }
    for d in 0..num_present {
        let k = occurrences[d];
        if k > 3 {
            for j in 0..k {
                let from = first_new[d] + j + 1;
                let to = first_new[d] + (j + 1) % k + 1;
                clauses.push(vec![to_literal(from, false), to_literal(to, true)]);
            }
        }
    }

    let num_vars = u32::try_from(origins.len()).expect("more than u32::MAX variables");
    Normalised {
        formula: Cnf { num_vars, clauses },
        map: Normalisation {
            original_num_vars: original.num_vars,
            original_num_clauses: original.clauses.len(),
            origins,
            stats,
        },
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

impl Normalisation {
    /// Forward map: a satisfying assignment of the original formula (index 0 = variable 1;
    /// missing variables count as false) to a satisfying assignment of the normalised formula.
    ///
    /// `original` must be the formula that was normalised: link variables are computed from
    /// its clauses (`t_i` is true iff none of `l1 .. l(i+1)` is). Original variables and copies
    /// take the value of the original variable; the gadget variable is true. The result has one
    /// entry per normalised variable. Never panics; on an assignment that does not satisfy
    /// `original` (or on another formula) the result is meaningless.
    pub fn extend(&self, original: &Cnf, assignment: &[bool]) -> Vec<bool> {
        let var_value = |var: u32| Lit { var, positive: true }.value(assignment);
        // For the clause whose links are being computed: none_true[j] = none of l1..l(j+1).
        let mut cache: Option<(usize, Vec<bool>)> = None;
        self.origins
            .iter()
            .map(|origin| match *origin {
                VarOrigin::Original { var } | VarOrigin::Copy { var, .. } => var_value(var),
                VarOrigin::Link { clause, index } => {
                    if cache.as_ref().map(|(c, _)| *c) != Some(clause) {
                        let lits = original
                            .clauses
                            .get(clause)
                            .map(|c| clean_clause(c).lits)
                            .unwrap_or_default();
                        let mut none_true = Vec::with_capacity(lits.len());
                        let mut none = true;
                        for lit in lits {
                            none &= !lit.value(assignment);
                            none_true.push(none);
                        }
                        cache = Some((clause, none_true));
                    }
                    let none_true = cache.as_ref().map(|(_, v)| v.as_slice()).unwrap_or(&[]);
                    none_true.get(index as usize).copied().unwrap_or(false)
                }
                VarOrigin::Gadget {} => true,
            })
            .collect()
    }

    /// Backward map: a satisfying assignment of the normalised formula (index 0 = normalised
    /// variable 1) to a satisfying assignment of the original formula, of length
    /// `original_num_vars`.
    ///
    /// Each original variable reads its single normalised variable or its first copy (all
    /// copies are equal in a satisfying assignment). Original variables that vanished get
    /// `false`. Never panics.
    pub fn restrict(&self, normalised_assignment: &[bool]) -> Vec<bool> {
        let mut out = vec![false; self.original_num_vars as usize];
        for (i, origin) in self.origins.iter().enumerate() {
            let var = match *origin {
                VarOrigin::Original { var } | VarOrigin::Copy { var, copy: 1 } => var,
                _ => continue,
            };
            if let Some(slot) = (var as usize).checked_sub(1).and_then(|v| out.get_mut(v)) {
                *slot = normalised_assignment.get(i).copied().unwrap_or(false);
            }
        }
        out
    }

    /// Human-readable lines describing what was done, for the command line.
    pub fn report(&self) -> Vec<String> {
        let s = &self.stats;
        let mut lines = vec![format!(
            "input: {}, {}",
            plural(self.original_num_vars as usize, "variable", "variables"),
            plural(self.original_num_clauses, "clause", "clauses")
        )];
        if s.repeated_literals_removed > 0 {
            lines.push(format!(
                "removed {} inside clauses",
                plural(s.repeated_literals_removed, "repeated literal", "repeated literals")
            ));
        }
        if s.tautologies_dropped > 0 {
            lines.push(format!(
                "dropped {} (containing both x and -x)",
                plural(s.tautologies_dropped, "tautological clause", "tautological clauses")
            ));
        }
        if let Some(k) = s.empty_clause {
            lines.push(format!(
                "clause {} (0-based index {k}) is empty: the formula is unsatisfiable; \
                 replaced by the gadget (y) (-y)",
                k + 1
            ));
        } else if s.empty_formula {
            lines.push(
                "no clause left: the formula is trivially satisfiable; replaced by the single \
                 clause (y)"
                    .to_string(),
            );
        }
        if s.clauses_split > 0 {
            let links = self.origins.iter().filter(|o| matches!(o, VarOrigin::Link { .. })).count();
            lines.push(format!(
                "split {} longer than 3 ({})",
                plural(s.clauses_split, "clause", "clauses"),
                plural(links, "link variable", "link variables")
            ));
        }
        if s.variables_cycled > 0 {
            let copies =
                self.origins.iter().filter(|o| matches!(o, VarOrigin::Copy { .. })).count();
            lines.push(format!(
                "replaced {} occurring 4 or more times by {} tied by implication cycles",
                plural(s.variables_cycled, "variable", "variables"),
                plural(copies, "copy", "copies")
            ));
        }
        let gadget = s.empty_clause.is_some() || s.empty_formula;
        if s.variables_in_no_clause > 0 {
            let (count, them) = match s.variables_in_no_clause {
                1 => ("1 variable number of the header occurs".to_string(), "it"),
                n => (format!("{n} variable numbers of the header occur"), "them"),
            };
            let rest = match gadget {
                true => String::new(),
                false => {
                    format!(", the other variables renumbered from 1 (a model gives {them} false)")
                }
            };
            lines.push(format!("{count} in no clause (gaps in the numbering): left out{rest}"));
        }
        let others = s.unused_variables_dropped.saturating_sub(s.variables_in_no_clause);
        if others > 0 && !gadget {
            lines.push(format!(
                "dropped {} that occurred only in tautological clauses",
                plural(others, "variable", "variables")
            ));
        }
        lines.push(format!(
            "result: {} in restricted 3SAT form",
            plural(self.origins.len(), "variable", "variables")
        ));
        lines
    }
}

/// Checks that `cnf` is in restricted 3SAT form (see the module documentation) and names the
/// first violation otherwise: the checker's own domain check for the Voronoi reduction
/// ([`gamecert_certificates::voronoi::sat_reduction::restricted_3sat_violation`]), plus the two properties
/// normalisation adds on top (at least one clause, every variable occurs).
pub fn is_restricted_3sat(cnf: &Cnf) -> Result<(), String> {
    if cnf.clauses.is_empty() {
        return Err("the formula has no clauses".to_string());
    }
    if let Some(why) = gamecert_certificates::voronoi::sat_reduction::restricted_3sat_violation(cnf)
    {
        return Err(why);
    }
    // Memory by occurrences, not by the declared count (which a file may set to u32::MAX).
    let mut seen: Vec<u32> = cnf.clauses.iter().flatten().map(|l| l.unsigned_abs()).collect();
    seen.sort_unstable();
    seen.dedup();
    let first_gap = (1u32..).zip(&seen).find(|(expected, &v)| v != *expected);
    match first_gap {
        Some((missing, _)) => Err(format!("variable {missing} does not occur")),
        None if (seen.len() as u32) < cnf.num_vars => {
            Err(format!("variable {} does not occur", seen.len() + 1))
        }
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::sat::cnf::literal_value;
    use proptest::prelude::*;

    fn cnf(num_vars: u32, clauses: &[&[i32]]) -> Cnf {
        Cnf { num_vars, clauses: clauses.iter().map(|c| c.to_vec()).collect() }
    }

    fn orig(var: u32) -> VarOrigin {
        VarOrigin::Original { var }
    }

    fn copy(var: u32, copy: u32) -> VarOrigin {
        VarOrigin::Copy { var, copy }
    }

    fn link(clause: usize, index: u32) -> VarOrigin {
        VarOrigin::Link { clause, index }
    }

    /// All assignments of `n` variables, index 0 = variable 1.
    fn all_assignments(n: u32) -> impl Iterator<Item = Vec<bool>> {
        (0u64..1 << n).map(move |bits| (0..n).map(|i| bits >> i & 1 == 1).collect())
    }

    /// Clause masks for fast brute force over at most 32 variables.
    fn masks(cnf: &Cnf) -> Vec<(u32, u32)> {
        cnf.clauses
            .iter()
            .map(|c| {
                c.iter().fold((0, 0), |(p, n), &l| {
                    let bit = 1u32 << (l.unsigned_abs() - 1);
                    if l > 0 {
                        (p | bit, n)
                    } else {
                        (p, n | bit)
                    }
                })
            })
            .collect()
    }

    /// The satisfying assignments of a formula with at most 31 variables, as bit masks.
    fn models(cnf: &Cnf) -> impl Iterator<Item = u32> + '_ {
        let masks = masks(cnf);
        (0u32..1 << cnf.num_vars)
            .filter(move |&x| masks.iter().all(|&(p, n)| x & p != 0 || !x & n != 0))
    }

    fn bits_to_assignment(x: u32, n: u32) -> Vec<bool> {
        (0..n).map(|i| x >> i & 1 == 1).collect()
    }

    fn check_restricted(n: &Normalised) {
        if let Err(e) = is_restricted_3sat(&n.formula) {
            panic!("{e}: {:?}", n.formula);
        }
        assert_eq!(n.formula.num_vars as usize, n.map.origins.len());
    }

    #[test]
    fn step1_removes_repeats_and_tautologies() {
        let input = cnf(3, &[&[1, 1, -2, 1], &[2, -3, -2], &[3, -2]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.formula.clauses, vec![vec![1, -2], vec![3, -2]]);
        assert_eq!(n.map.origins, vec![orig(1), orig(2), orig(3)]);
        assert_eq!(n.map.stats.repeated_literals_removed, 2);
        assert_eq!(n.map.stats.tautologies_dropped, 1);
        assert_eq!(n.map.stats.unused_variables_dropped, 0);
    }

    #[test]
    fn step1_counts_repeats_inside_tautologies_too() {
        let n = normalise(&cnf(2, &[&[1, 1, -1], &[2]]));
        assert_eq!(n.map.stats.repeated_literals_removed, 1);
        assert_eq!(n.map.stats.tautologies_dropped, 1);
        assert_eq!(n.formula.clauses, vec![vec![1]]);
        assert_eq!(n.map.origins, vec![orig(2)]);
        assert_eq!(n.map.stats.unused_variables_dropped, 1);
    }

    #[test]
    fn step2_empty_clause_gives_the_gadget() {
        let input = cnf(3, &[&[1, 2], &[1, -1], &[], &[-3], &[]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.formula, cnf(1, &[&[1], &[-1]]));
        assert_eq!(n.map.origins, vec![VarOrigin::Gadget {}]);
        assert_eq!(n.map.stats.empty_clause, Some(2));
        assert_eq!(n.map.stats.tautologies_dropped, 1);
        assert_eq!(n.map.stats.unused_variables_dropped, 3);
        assert!(!n.map.stats.empty_formula);
        assert_eq!(n.map.restrict(&[true]), vec![false; 3]);
        assert!(n.map.report().iter().any(|l| l.contains("clause 3 (0-based index 2) is empty")));
    }

    #[test]
    fn step3_splits_long_clauses() {
        let input = cnf(6, &[&[1, 2, 3, 4, 5], &[-6, 1, -2, 6, 3, -4], &[6]]);
        let n = normalise(&input);
        // Variables 1..=5 occur at most 3 times, 6 occurs... -6, 6 are a tautology: dropped,
        // so 6 occurs once (in clause 2).
        check_restricted(&n);
        assert_eq!(n.map.stats.tautologies_dropped, 1);
        assert_eq!(n.map.stats.clauses_split, 1);
        assert_eq!(
            n.map.origins,
            vec![orig(1), orig(2), orig(3), orig(4), orig(5), orig(6), link(0, 1), link(0, 2)]
        );
        assert_eq!(n.formula.clauses, vec![vec![1, 2, 7], vec![-7, 3, 8], vec![-8, 4, 5], vec![6]]);
        // t1 = none of l1 l2; t2 = none of l1 l2 l3.
        let a = [false, false, true, false, false, true];
        assert_eq!(
            n.map.extend(&input, &a),
            vec![false, false, true, false, false, true, true, false]
        );
        assert!(n.formula.is_satisfied_by(&n.map.extend(&input, &a)));
        assert!(n
            .map
            .report()
            .contains(&"split 1 clause longer than 3 (2 link variables)".to_string()));
    }

    #[test]
    fn step3_split_of_a_clause_of_four_after_dedup() {
        // Six literals, two repeated: four distinct ones, one link.
        let input = cnf(4, &[&[1, 2, 1, 3, 2, 4]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.formula.clauses, vec![vec![1, 2, 5], vec![-5, 3, 4]]);
        assert_eq!(n.map.origins[4], link(0, 1));
        assert_eq!(n.map.stats.repeated_literals_removed, 2);
        for a in all_assignments(4) {
            let e = n.map.extend(&input, &a);
            assert_eq!(input.is_satisfied_by(&a), n.formula.is_satisfied_by(&e));
        }
    }

    #[test]
    fn step4_cycles_frequent_variables() {
        let input = cnf(5, &[&[1, 2], &[1, 3], &[-1, 4], &[1, 5]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.map.stats.variables_cycled, 1);
        assert_eq!(
            n.map.origins,
            vec![
                copy(1, 1),
                copy(1, 2),
                copy(1, 3),
                copy(1, 4),
                orig(2),
                orig(3),
                orig(4),
                orig(5)
            ]
        );
        assert_eq!(
            n.formula.clauses,
            vec![
                vec![1, 5],
                vec![2, 6],
                vec![-3, 7],
                vec![4, 8],
                vec![-1, 2],
                vec![-2, 3],
                vec![-3, 4],
                vec![-4, 1]
            ]
        );
        let a = [true, false, false, true, false];
        let e = n.map.extend(&input, &a);
        assert_eq!(e, vec![true, true, true, true, false, false, true, false]);
        assert!(n.formula.is_satisfied_by(&e));
        assert_eq!(n.map.restrict(&e), a.to_vec());
        assert!(n.map.report().contains(
            &"replaced 1 variable occurring 4 or more times by 4 copies tied by implication cycles"
                .to_string()
        ));
    }

    #[test]
    fn step4_counts_occurrences_after_splitting() {
        // Variable 1 occurs in one long clause and three short ones: 4 occurrences; the links
        // come after the copies and the other originals.
        let input = cnf(5, &[&[2, 3, 4, 1], &[1], &[1, 5], &[-1, -5]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(
            n.map.origins,
            vec![
                copy(1, 1),
                copy(1, 2),
                copy(1, 3),
                copy(1, 4),
                orig(2),
                orig(3),
                orig(4),
                orig(5),
                link(0, 1)
            ]
        );
        assert_eq!(
            n.formula.clauses,
            vec![
                vec![5, 6, 9],
                vec![-9, 7, 1],
                vec![2],
                vec![3, 8],
                vec![-4, -8],
                vec![-1, 2],
                vec![-2, 3],
                vec![-3, 4],
                vec![-4, 1]
            ]
        );
    }

    #[test]
    fn step5_drops_unused_variables_and_renumbers() {
        let input = cnf(6, &[&[4, -2], &[6, -6, 1]]);
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.formula, cnf(2, &[&[2, -1]]));
        assert_eq!(n.map.origins, vec![orig(2), orig(4)]);
        assert_eq!(n.map.stats.unused_variables_dropped, 4);
        assert_eq!(n.map.restrict(&[false, true]), vec![false, false, false, true, false, false]);
        assert_eq!(n.map.extend(&input, &[true, false, true, true, true, true]), vec![false, true]);
        // 3 and 5 occur in no clause, 1 and 6 only in a tautology.
        assert_eq!(n.map.stats.variables_in_no_clause, 2);
        let report = n.map.report();
        assert!(
            report.contains(
                &"2 variable numbers of the header occur in no clause (gaps in the numbering): \
                  left out, the other variables renumbered from 1 (a model gives them false)"
                    .to_string()
            ),
            "{report:?}"
        );
        assert!(
            report.contains(
                &"dropped 2 variables that occurred only in tautological clauses".to_string()
            ),
            "{report:?}"
        );
    }

    #[test]
    fn step6_empty_formula_gives_a_single_clause() {
        for input in [Cnf::new(0), Cnf::new(3), cnf(2, &[&[1, -1], &[2, 1, -2]])] {
            let n = normalise(&input);
            check_restricted(&n);
            assert_eq!(n.formula, cnf(1, &[&[1]]));
            assert_eq!(n.map.origins, vec![VarOrigin::Gadget {}]);
            assert!(n.map.stats.empty_formula);
            assert_eq!(n.map.stats.empty_clause, None);
            assert_eq!(n.map.stats.unused_variables_dropped, input.num_vars as usize);
            let e = n.map.extend(&input, &vec![false; input.num_vars as usize]);
            assert_eq!(e, vec![true]);
            assert!(n.formula.is_satisfied_by(&e));
            assert_eq!(n.map.restrict(&e), vec![false; input.num_vars as usize]);
        }
    }

    #[test]
    fn already_restricted_formulas_are_unchanged() {
        let input = cnf(3, &[&[1, -2, 3], &[-1, 2], &[3]]);
        let n = normalise(&input);
        assert_eq!(n.formula, input);
        assert_eq!(n.map.origins, vec![orig(1), orig(2), orig(3)]);
        assert_eq!(n.map.stats, NormalisationStats::default());
        assert_eq!(
            n.map.report(),
            vec![
                "input: 3 variables, 3 clauses".to_string(),
                "result: 3 variables in restricted 3SAT form".to_string()
            ]
        );
    }

    #[test]
    fn extreme_literals_do_not_panic() {
        let input = Cnf {
            num_vars: u32::MAX,
            clauses: vec![vec![i32::MIN, i32::MAX, i32::MIN], vec![-i32::MAX]],
        };
        let n = normalise(&input);
        check_restricted(&n);
        assert_eq!(n.formula, cnf(2, &[&[-2, 1], &[-1]]));
        assert_eq!(n.map.origins, vec![orig(i32::MAX as u32), orig(1 << 31)]);
        assert_eq!(n.map.stats.unused_variables_dropped, u32::MAX as usize - 2);
    }

    #[test]
    #[should_panic(expected = "which is 0 or exceeds num_vars")]
    fn malformed_input_panics_with_a_message() {
        normalise(&cnf(2, &[&[1, 3]]));
    }

    #[test]
    fn maps_tolerate_foreign_inputs() {
        let input = cnf(5, &[&[1, 2, 3, 4, 5]]);
        let n = normalise(&input);
        // Wrong formula, short assignments: no panic, right lengths.
        assert_eq!(n.map.extend(&Cnf::new(0), &[]).len(), n.map.origins.len());
        assert_eq!(n.map.restrict(&[]).len(), 5);
        let odd = Normalisation {
            original_num_vars: 1,
            original_num_clauses: 0,
            origins: vec![orig(0), orig(7), link(9, 0)],
            stats: NormalisationStats::default(),
        };
        assert_eq!(odd.restrict(&[true, true, true]), vec![false]);
        assert_eq!(odd.extend(&input, &[true]).len(), 3);
    }

    #[test]
    fn is_restricted_3sat_names_violations() {
        let check = |c: Cnf| is_restricted_3sat(&c).unwrap_err();
        assert_eq!(check(Cnf::new(0)), "the formula has no clauses");
        assert!(check(cnf(1, &[&[1], &[]])).contains("clause 2 has 0 literals"));
        assert!(check(cnf(4, &[&[1, 2, 3, 4]])).contains("clause 1 has 4 literals"));
        assert!(check(cnf(2, &[&[1, 2, 1]])).contains("variable 1 appears twice"));
        assert!(check(cnf(2, &[&[2, 1, -2]])).contains("variable 2 appears twice"));
        assert!(check(cnf(2, &[&[1, 3]])).contains("literal 3 is out of range"));
        assert!(check(cnf(2, &[&[1, 0]])).contains("literal 0 is out of range"));
        assert!(check(cnf(3, &[&[1, 3]])).contains("variable 2 does not occur"));
        assert!(check(cnf(3, &[&[1, 2], &[1], &[-1], &[1, 3]]))
            .contains("variable 1 occurs more than three times"));
        assert!(check(cnf(u32::MAX, &[&[1, 2]])).contains("variable 3 does not occur"));
        assert!(check(cnf(u32::MAX, &[&[2]])).contains("variable 1 does not occur"));
        assert!(is_restricted_3sat(&cnf(2, &[&[1, -2], &[-1], &[2, 1]])).is_ok());
    }

    #[test]
    fn var_origin_json_form() {
        let json =
            serde_json::to_string(&vec![orig(3), copy(2, 1), link(0, 4), VarOrigin::Gadget {}])
                .unwrap();
        assert_eq!(
            json,
            r#"[{"role":"original","var":3},{"role":"copy","var":2,"copy":1},{"role":"link","clause":0,"index":4},{"role":"gadget"}]"#
        );
        let back: Vec<VarOrigin> = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        // A map read back from a user's instance is exactly what it says: a stray key is refused.
        for stray in [
            r#"{"role":"original","var":3,"copy":1}"#,
            r#"{"role":"gadget","var":1}"#,
            r#"{"role":"link","clause":0,"index":4,"indx":5}"#,
        ] {
            let err = serde_json::from_str::<VarOrigin>(stray).unwrap_err().to_string();
            assert!(err.contains("unknown field"), "{stray}: {err}");
        }
        let stats = serde_json::to_value(NormalisationStats::default()).unwrap();
        let mut stray = stats.clone();
        stray["tautologies_droped"] = 1.into();
        assert!(serde_json::from_value::<NormalisationStats>(stats).is_ok());
        let err = serde_json::from_value::<NormalisationStats>(stray).unwrap_err().to_string();
        assert!(err.contains("unknown field `tautologies_droped`"), "{err}");
    }

    /// SplitMix64, enough randomness for the large test without a dependency.
    struct SplitMix(u64);

    impl SplitMix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn large_random_formula() {
        // 10^5 variables, 1.3 * 10^5 random 3-clauses, satisfied by a planted assignment (a
        // clause that the planted assignment falsifies gets its first literal flipped).
        let num_vars = 100_000u32;
        let mut rng = SplitMix(2024);
        let planted: Vec<bool> = (0..num_vars).map(|_| rng.below(2) == 0).collect();
        let clauses: Vec<Vec<i32>> = (0..130_000)
            .map(|_| {
                let mut clause: Vec<i32> = (0..3)
                    .map(|_| {
                        let var = rng.below(num_vars as u64) as i32 + 1;
                        if rng.below(2) == 0 {
                            var
                        } else {
                            -var
                        }
                    })
                    .collect();
                if !clause.iter().any(|&l| literal_value(&planted, l)) {
                    clause[0] = -clause[0];
                }
                clause
            })
            .collect();
        let input = Cnf { num_vars, clauses };
        assert!(input.is_satisfied_by(&planted));
        let n = normalise(&input);
        check_restricted(&n);
        assert!(n.map.stats.variables_cycled > 0);
        assert!(n.map.stats.unused_variables_dropped > 0);
        let e = n.map.extend(&input, &planted);
        assert_eq!(e.len(), n.formula.num_vars as usize);
        assert_eq!(n.formula.first_falsified_clause(&e), None);
        let back = n.map.restrict(&e);
        assert!(input.is_satisfied_by(&back));
        // Variables that still occur keep their planted value.
        for origin in &n.map.origins {
            if let VarOrigin::Original { var } | VarOrigin::Copy { var, .. } = *origin {
                assert_eq!(back[var as usize - 1], planted[var as usize - 1]);
            }
        }
    }

    /// Random formulas: up to 6 variables, up to 10 clauses of width 0 to 6. Clauses are
    /// either arbitrary literal lists (repeats and tautologies are frequent) or lists of
    /// distinct variables with random signs (so that long clauses survive step 1 often enough
    /// to exercise splitting and cycling).
    fn arb_cnf() -> impl Strategy<Value = Cnf> {
        prop_oneof![1 => Just(0u32), 9 => 1u32..=6].prop_flat_map(|n| {
            let clause = if n == 0 {
                Just(Vec::new()).boxed()
            } else {
                let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
                let vars: Vec<i32> = (1..=n as i32).collect();
                let distinct = proptest::sample::subsequence(vars, 1..=n as usize)
                    .prop_shuffle()
                    .prop_flat_map(|vars| {
                        let signs = proptest::collection::vec(any::<bool>(), vars.len());
                        (Just(vars), signs)
                    })
                    .prop_map(|(vars, signs)| {
                        vars.iter()
                            .zip(signs)
                            .map(|(&v, s)| if s { v } else { -v })
                            .collect::<Vec<i32>>()
                    });
                prop_oneof![
                    1 => Just(Vec::new()),
                    12 => proptest::collection::vec(lit, 1..=6),
                    12 => distinct,
                ]
                .boxed()
            };
            proptest::collection::vec(clause, 0..=10)
                .prop_map(move |clauses| Cnf { num_vars: n, clauses })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn normalised_formula_is_restricted(input in arb_cnf()) {
            let n = normalise(&input);
            prop_assert_eq!(is_restricted_3sat(&n.formula), Ok(()));
            prop_assert_eq!(n.formula.num_vars as usize, n.map.origins.len());
        }

        #[test]
        fn normalisation_is_equisatisfiable(input in arb_cnf()) {
            let n = normalise(&input);
            let original_sat = models(&input).next().is_some();
            if n.formula.num_vars <= 20 {
                prop_assert_eq!(models(&n.formula).next().is_some(), original_sat);
            }
            // Whatever the size, the gadgets match the verdict.
            if n.map.stats.empty_clause.is_some() {
                prop_assert!(!original_sat);
            }
            if n.map.stats.empty_formula {
                prop_assert!(original_sat);
            }
        }

        #[test]
        fn extend_maps_models_to_models(input in arb_cnf()) {
            let n = normalise(&input);
            for x in models(&input) {
                let a = bits_to_assignment(x, input.num_vars);
                let e = n.map.extend(&input, &a);
                prop_assert_eq!(e.len(), n.map.origins.len());
                prop_assert!(n.formula.is_satisfied_by(&e), "{:?} -> {:?}", a, e);
            }
        }

        #[test]
        fn restrict_maps_models_to_models(input in arb_cnf()) {
            let n = normalise(&input);
            if n.formula.num_vars <= 16 {
                for x in models(&n.formula) {
                    let e = bits_to_assignment(x, n.formula.num_vars);
                    let a = n.map.restrict(&e);
                    prop_assert_eq!(a.len(), input.num_vars as usize);
                    prop_assert!(input.is_satisfied_by(&a), "{:?} -> {:?}", e, a);
                }
            }
        }

        #[test]
        fn normalisation_survives_serde(input in arb_cnf()) {
            let n = normalise(&input);
            let json = serde_json::to_string(&n.map).unwrap();
            let back: Normalisation = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, &n.map);
            let json = serde_json::to_string(&n).unwrap();
            let back: Normalised = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, n);
        }
    }
}

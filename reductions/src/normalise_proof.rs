//! An LRAT refutation of the user's own formula, made from a refutation of its normalisation
//! (issue 31, item 5): `export-proof --formula original`.
//!
//! [`refute_original`] writes a proof whose input clauses are the original formula's, exactly
//! as given (input clause `k`, duplicates, tautologies and empty clauses included, is id `k`).
//! It first derives every clause of the normalised formula ([`crate::normalise`]) from them,
//! then deletes every clause that is not one of those, then replays the given refutation of
//! the normalised formula on the derived clauses.
//!
//! # Variables
//!
//! A [`VarOrigin::Original`] variable keeps its number. The normalisation's fresh variables
//! (copies and links) are numbered `V + 1, V + 2, ...` in their normalised order, above the
//! original formula's `V` variables; variables the refutation itself introduces come after
//! those. A fresh variable is always defined by RAT steps on itself before any clause uses it.
//!
//! # The derivation
//!
//! 1. **Copies.** For each copy `c` of a variable `x` (step 4 of the normalisation): `(-c x)`,
//!    a RAT step on `-c` that no live clause resolves with, then `(c -x)`, a RAT step on `c`
//!    whose one candidate `(-c x)` gives a tautological resolvent. Now `c <-> x`.
//! 2. **The input's clauses, in order.** A tautology is left alone. A clause whose normalised
//!    clause `D` (at most 3 literals) is the same set of literals, with no literal repeated, is
//!    used as it stands. Otherwise `D` is added by RUP: each copy literal of `D`, falsified,
//!    falsifies its variable's literal through a copy definition, and then the input clause is
//!    falsified (its repeated literals do not matter).
//! 3. **Split clauses** `(L1 .. Lk)` (normalised literals, copies included), with pieces
//!    `(L1 L2 t1) (-t1 L3 t2) ... (-t(k-3) L(k-1) Lk)`: for `i = k-3` down to `1`, the link
//!    `t_i` is defined as `t_i <-> (a_i or b_i)`, where `(-t_i a_i b_i)` is piece `i`: the piece
//!    itself (a RAT step on `-t_i`, which no live clause holds yet), then `(t_i -a_i)` and
//!    `(t_i -b_i)` (RAT steps on `t_i`, whose one candidate is the piece, resolving to
//!    tautologies). Pieces `1 .. k-3` are these definitions. The first piece `(L1 L2 t1)`
//!    follows by RUP: with it false, the definitions falsify `L3`, `t2`, `L4`, ... down the
//!    chain to `L(k-1)` and `Lk`, the copy definitions carry each `L` to its variable, and the
//!    input clause is falsified.
//! 4. **Cycles** `(-c_j c_j')` of the copies of `x`: RUP from `(-c_j x)` and `(c_j' -x)`.
//! 5. **An empty input clause** (the normalisation's gadget `(y) (-y)`): the empty clause by
//!    RUP with that clause as the one hint; nothing else is written.
//!
//! Then one deletion line removes the input clauses not used as they stand and the definition
//! clauses that are not normalised clauses, so that the live clauses are exactly the normalised
//! formula, renamed. The refutation is replayed on them with its clause ids and variables
//! renamed (its RAT steps stay valid: the live clauses are the same up to renaming).
//!
//! [`write_original_proof`] streams: the refutation comes a step at a time (a binary
//! certificate's proof decoded as it is read, [`crate::lrat_steps`]) and the proof goes to a
//! writer a line at a time, the ids of the refutation's added clauses mapped while they are
//! live; `export-proof` checks the file it wrote with the trusted checker, reading it back.
//! [`refute_original`] does the same in memory for a text refutation, and checks the proof
//! ([`check_lrat`]) before it returns it.

use crate::lrat_steps::{text_steps, Decoded};
use crate::normalise::{clean_clause, normalise, VarOrigin};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::lrat::{check_lrat, LratReport};
use std::collections::HashMap;
use std::io::Write;

/// A refutation of the original formula, in memory ([`refute_original`]).
#[derive(Clone, Debug)]
pub struct OriginalProof {
    /// The LRAT text (input clause `k` of the original formula is id `k`).
    pub lrat: String,
    /// Additions that derive the normalised formula (before the refutation's own steps).
    pub derivation_additions: u64,
    /// Fresh variables of the normalisation (copies and links), numbered above the original's.
    pub fresh_variables: u64,
    /// What the trusted checker saw when it checked the proof against `original`.
    pub report: LratReport,
}

/// What [`write_original_proof`] wrote before the refutation's own steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Derivation {
    /// Additions that derive the normalised formula.
    pub derivation_additions: u64,
    /// Fresh variables of the normalisation (copies and links), numbered above the original's.
    pub fresh_variables: u64,
}

/// The proof being written to `out`, a line at a time (the first write error is kept), and
/// the next clause id.
struct Writer<'o> {
    out: &'o mut dyn Write,
    next_id: u64,
    additions: u64,
    failed: Option<std::io::Error>,
}

impl<'o> Writer<'o> {
    fn new(out: &'o mut dyn Write, next_id: u64) -> Writer<'o> {
        Writer { out, next_id, additions: 0, failed: None }
    }

    fn line(&mut self, line: &str) {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(line.as_bytes()) {
                self.failed = Some(e);
            }
        }
    }

    /// Adds `lits` with `hints` (negative: a RAT candidate), returns its id.
    fn add(&mut self, lits: &[i32], hints: &[i64]) -> u64 {
        use std::fmt::Write;
        let id = self.next_id;
        self.next_id += 1;
        self.additions += 1;
        let mut line = format!("{id}");
        for lit in lits {
            let _ = write!(line, " {lit}");
        }
        line.push_str(" 0");
        for hint in hints {
            let _ = write!(line, " {hint}");
        }
        line.push_str(" 0\n");
        self.line(&line);
        id
    }

    /// Deletes `ids` (one line; nothing when there is none).
    fn delete(&mut self, ids: &[u64]) {
        use std::fmt::Write;
        if ids.is_empty() {
            return;
        }
        let mut line = format!("{} d", self.next_id - 1);
        for id in ids {
            let _ = write!(line, " {id}");
        }
        line.push_str(" 0\n");
        self.line(&line);
    }
}

fn signed(id: u64) -> i64 {
    i64::try_from(id).expect("clause ids stay below 2^63")
}

/// An LRAT refutation of `original` from `refutation`, a text LRAT refutation of `refuted`,
/// which must be exactly the normalisation of `original` ([`normalise`]), held in memory. It
/// is checked against `original` by the trusted checker before it is returned; an error says
/// what failed.
pub fn refute_original(
    original: &Cnf,
    refuted: &Cnf,
    refutation: &str,
) -> Result<OriginalProof, String> {
    let mut text = Vec::new();
    let derivation = write_original_proof(original, refuted, text_steps(refutation), &mut text)?;
    let lrat = String::from_utf8(text).map_err(|_| "the proof is not ASCII".to_string())?;
    let report = check_lrat(original, &lrat, &mut Budget::unlimited())
        .map_err(|e| format!("the proof of the original formula is rejected: {e}"))?;
    let Derivation { derivation_additions, fresh_variables } = derivation;
    Ok(OriginalProof { lrat, derivation_additions, fresh_variables, report })
}

/// Writes to `out` an LRAT refutation of `original` (see the module docs) from the refutation
/// of `refuted` (exactly the normalisation of `original`) whose steps `steps` yields, a step
/// at a time: neither proof is held. Not checked: the caller checks what it wrote (`gamecert
/// export-proof` reads the file back with the trusted checker).
pub fn write_original_proof(
    original: &Cnf,
    refuted: &Cnf,
    steps: impl Iterator<Item = Result<Decoded, String>>,
    out: &mut dyn Write,
) -> Result<Derivation, String> {
    if let Some((clause, lit)) = original.first_bad_literal() {
        return Err(format!(
            "the original formula's clause {} holds literal {lit}, beyond its {} variables",
            clause + 1,
            original.num_vars
        ));
    }
    let normalised = normalise(original);
    if normalised.formula != *refuted {
        return Err("the original formula does not normalise to the formula the refutation \
                    refutes"
            .to_string());
    }
    let formula = &normalised.formula;
    let origins = &normalised.map.origins;
    let mut w = Writer::new(out, original.clauses.len() as u64 + 1);

    if let Some(empty) = normalised.map.stats.empty_clause {
        w.add(&[], &[signed(empty as u64 + 1)]);
        return finish(w, 1, 0);
    }

    // The output variable of each normalised variable (index 0 = variable 1), and the
    // original variable behind it (0 for a link).
    let v0 = u64::from(original.num_vars);
    let mut fresh = 0u64;
    let mut out_var = Vec::with_capacity(origins.len());
    let mut behind = Vec::with_capacity(origins.len());
    for origin in origins {
        match *origin {
            VarOrigin::Original { var } => {
                out_var.push(u64::from(var));
                behind.push(var);
            }
            VarOrigin::Copy { var, .. } => {
                fresh += 1;
                out_var.push(v0 + fresh);
                behind.push(var);
            }
            VarOrigin::Link { .. } | VarOrigin::Gadget {} => {
                fresh += 1;
                out_var.push(v0 + fresh);
                behind.push(0);
            }
        }
    }
    let top = v0 + fresh;
    if top > i32::MAX as u64 {
        return Err(format!(
            "the original formula's {v0} variables and the normalisation's {fresh} fresh ones \
             pass the largest DIMACS variable, {}",
            i32::MAX
        ));
    }
    let var_index = |lit: i32| lit.unsigned_abs() as usize - 1;
    let out = |lit: i32| -> i32 {
        let var = out_var[var_index(lit)] as i32;
        if lit > 0 {
            var
        } else {
            -var
        }
    };

    // 1. Copies: (-c x) then (c -x); `copy_defs[i]` = (id of (-c x), id of (c -x)).
    let mut copy_defs: Vec<Option<(u64, u64)>> = vec![None; origins.len()];
    let mut helpers: Vec<u64> = Vec::new();
    for (i, origin) in origins.iter().enumerate() {
        if let VarOrigin::Copy { var, .. } = *origin {
            let (c, x) = (out_var[i] as i32, var as i32);
            let down = w.add(&[-c, x], &[]);
            let up = w.add(&[c, -x], &[-signed(down)]);
            copy_defs[i] = Some((down, up));
            helpers.extend([down, up]);
        }
    }
    // The hint that carries a falsified normalised literal to its original variable.
    let copy_hint = |lit: i32, hints: &mut Vec<i64>| {
        if let Some((down, up)) = copy_defs[var_index(lit)] {
            hints.push(signed(if lit > 0 { up } else { down }));
        }
    };

    // 2 and 3: the input's clauses in order, with the normalised clauses they became.
    let mut ids: Vec<u64> = vec![0; formula.clauses.len()];
    let mut reused = vec![false; original.clauses.len()];
    let piece = |q: usize| -> Result<&Vec<i32>, String> {
        formula.clauses.get(q).ok_or_else(|| {
            "the normalised formula has fewer clauses than the normalisation makes".to_string()
        })
    };
    let mut q = 0usize;
    for (ci, clause) in original.clauses.iter().enumerate() {
        let cleaned = clean_clause(clause);
        if cleaned.tautology {
            continue;
        }
        let k = cleaned.lits.len();
        let source = signed(ci as u64 + 1);
        if k <= 3 {
            let d = piece(q)?;
            let d_out: Vec<i32> = d.iter().map(|&l| out(l)).collect();
            let mut as_given = clause.clone();
            let mut as_derived = d_out.clone();
            as_given.sort_unstable();
            as_derived.sort_unstable();
            if as_given == as_derived {
                ids[q] = ci as u64 + 1;
                reused[ci] = true;
            } else {
                let mut hints = Vec::with_capacity(d.len() + 1);
                for &l in d {
                    copy_hint(l, &mut hints);
                }
                hints.push(source);
                ids[q] = w.add(&d_out, &hints);
            }
            q += 1;
            continue;
        }
        // Pieces q .. q + k - 2; piece i (1 <= i <= k - 3) is (-t_i a_i b_i).
        let mut defs = vec![(0u64, 0u64); k - 2];
        for i in (1..=k - 3).rev() {
            let p = piece(q + i)?;
            let is_link = |l: i32| matches!(origins[var_index(l)], VarOrigin::Link { .. });
            if p.len() != 3 || p[0] > 0 || !is_link(p[0]) {
                return Err(format!("normalised clause {} is not a link's piece", q + i + 1));
            }
            let p_out: Vec<i32> = p.iter().map(|&l| out(l)).collect();
            let id = w.add(&p_out, &[]);
            ids[q + i] = id;
            let t = -p_out[0];
            let with_a = w.add(&[t, -p_out[1]], &[-signed(id)]);
            let with_b = w.add(&[t, -p_out[2]], &[-signed(id)]);
            defs[i] = (with_a, with_b);
            helpers.extend([with_a, with_b]);
        }
        let first = piece(q)?;
        if first.len() != 3 {
            return Err(format!("normalised clause {} is not a first piece", q + 1));
        }
        let mut hints = Vec::with_capacity(3 * k);
        copy_hint(first[0], &mut hints);
        copy_hint(first[1], &mut hints);
        for (i, &(with_a, with_b)) in defs.iter().enumerate().skip(1) {
            let p = &formula.clauses[q + i];
            hints.push(signed(with_a));
            copy_hint(p[1], &mut hints);
            hints.push(signed(with_b));
            if i == k - 3 {
                copy_hint(p[2], &mut hints);
            }
        }
        hints.push(source);
        let first_out: Vec<i32> = first.iter().map(|&l| out(l)).collect();
        ids[q] = w.add(&first_out, &hints);
        q += k - 2;
    }

    // 4. Cycles (-c_j c_j').
    for (q, clause) in formula.clauses.iter().enumerate().skip(q) {
        let defs = match clause[..] {
            [from, to] if from < 0 && to > 0 => {
                copy_defs[var_index(from)].zip(copy_defs[var_index(to)])
            }
            _ => None,
        };
        let Some(((from_down, _), (_, to_up))) = defs else {
            return Err(format!("normalised clause {} is not a copy cycle's", q + 1));
        };
        if behind[var_index(clause[0])] != behind[var_index(clause[1])] {
            return Err(format!("normalised clause {} ties copies of two variables", q + 1));
        }
        let lits = [out(clause[0]), out(clause[1])];
        ids[q] = w.add(&lits, &[signed(from_down), signed(to_up)]);
    }
    let derivation_additions = w.additions;

    // Only the normalised formula stays live.
    let mut gone: Vec<u64> =
        (0..original.clauses.len()).filter(|&k| !reused[k]).map(|k| k as u64 + 1).collect();
    gone.extend(helpers);
    gone.sort_unstable();
    w.delete(&gone);

    replay(&mut w, steps, &ids, &out_var, top)?;
    finish(w, derivation_additions, fresh)
}

/// Replays the refutation `steps` yields (of the normalised formula, whose clause `k` is our
/// `ids[k - 1]`). The ids of its added clauses are mapped while they are live only.
fn replay(
    w: &mut Writer,
    steps: impl Iterator<Item = Result<Decoded, String>>,
    ids: &[u64],
    out_var: &[u64],
    top: u64,
) -> Result<(), String> {
    let n = out_var.len() as u64;
    let mut added: HashMap<u64, u64> = HashMap::new();
    let id_of = |id: u64, added: &HashMap<u64, u64>| -> Result<u64, String> {
        match id.checked_sub(1).and_then(|k| ids.get(k as usize)) {
            Some(&ours) => Ok(ours),
            None => added.get(&id).copied().ok_or_else(|| format!("clause {id} is not known")),
        }
    };
    let mut lits = Vec::new();
    let mut hints = Vec::new();
    for step in steps {
        match step? {
            Decoded::Deletion { ids: deleted, .. } => {
                let mut gone = Vec::with_capacity(deleted.len());
                for del in deleted {
                    let ours = id_of(del, &added).map_err(|e| format!("a deletion: {e}"))?;
                    gone.push(ours);
                    added.remove(&del);
                }
                w.delete(&gone);
            }
            Decoded::Addition { id, literals, hints: given } => {
                lits.clear();
                hints.clear();
                for value in literals {
                    let var = value.unsigned_abs();
                    let mapped = if var <= n { out_var[var as usize - 1] } else { top + (var - n) };
                    let mapped = i32::try_from(mapped).map_err(|_| {
                        format!(
                            "clause {id}: a renamed variable passes the largest DIMACS variable"
                        )
                    })?;
                    lits.push(if value < 0 { -mapped } else { mapped });
                }
                for value in given {
                    let ours = id_of(value.unsigned_abs(), &added)
                        .map_err(|e| format!("clause {id}: a hint: {e}"))?;
                    hints.push(if value < 0 { -signed(ours) } else { signed(ours) });
                }
                let ours = w.add(&lits, &hints);
                added.insert(id, ours);
                if lits.is_empty() {
                    return Ok(());
                }
            }
        }
    }
    Err("the refutation never adds the empty clause".to_string())
}

/// What was written, once the writer's output is known to have taken it.
fn finish(
    w: Writer,
    derivation_additions: u64,
    fresh_variables: u64,
) -> Result<Derivation, String> {
    match w.failed {
        Some(e) => Err(format!("the proof cannot be written: {e}")),
        None => Ok(Derivation { derivation_additions, fresh_variables }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cnf(num_vars: u32, clauses: &[&[i32]]) -> Cnf {
        Cnf { num_vars, clauses: clauses.iter().map(|c| c.to_vec()).collect() }
    }

    /// A tree-resolution refutation of a small formula, as LRAT: variables decided in order
    /// 1, 2, ..., no propagation; a node whose partial assignment falsifies a clause returns
    /// it, an inner node resolves its children's clauses on its variable. `None` when the
    /// formula is satisfiable.
    fn tree_refutation(f: &Cnf) -> Option<String> {
        struct Search<'f> {
            f: &'f Cnf,
            values: Vec<Option<bool>>,
            w: Writer<'f>,
        }
        impl Search<'_> {
            fn node(&mut self, depth: usize) -> Option<(u64, Vec<i32>)> {
                let falsified =
                    |l: &i32| self.values[l.unsigned_abs() as usize - 1] == Some(*l < 0);
                if let Some(k) = self.f.clauses.iter().position(|c| c.iter().all(falsified)) {
                    return Some((k as u64 + 1, self.f.clauses[k].clone()));
                }
                if depth == self.values.len() {
                    return None;
                }
                let x = depth as i32 + 1;
                self.values[depth] = Some(true);
                let yes = self.node(depth + 1);
                self.values[depth] = Some(false);
                let no = self.node(depth + 1);
                self.values[depth] = None;
                let (yes, no) = (yes?, no?);
                if !yes.1.contains(&-x) {
                    return Some(yes);
                }
                if !no.1.contains(&x) {
                    return Some(no);
                }
                let mut clause: Vec<i32> =
                    yes.1.iter().chain(&no.1).copied().filter(|l| l.abs() != x).collect();
                clause.sort_unstable();
                clause.dedup();
                let id = self.w.add(&clause, &[signed(yes.0), signed(no.0)]);
                Some((id, clause))
            }
        }
        let mut text = Vec::new();
        let w = Writer::new(&mut text, f.clauses.len() as u64 + 1);
        let mut search = Search { f, values: vec![None; f.num_vars as usize], w };
        let (id, clause) = search.node(0)?;
        assert!(clause.is_empty());
        if search.w.additions == 0 {
            search.w.add(&[], &[signed(id)]);
        }
        drop(search);
        Some(String::from_utf8(text).unwrap())
    }

    /// The proof of `f` from a tree refutation of its normalisation (`None`: satisfiable).
    fn proof_of(f: &Cnf) -> Option<OriginalProof> {
        let normalised = normalise(f).formula;
        let refutation = tree_refutation(&normalised)?;
        Some(refute_original(f, &normalised, &refutation).unwrap())
    }

    #[test]
    fn the_tree_refuter_refutes() {
        let f = cnf(2, &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]]);
        let proof = tree_refutation(&f).unwrap();
        check_lrat(&f, &proof, &mut Budget::unlimited()).unwrap();
        assert!(tree_refutation(&cnf(2, &[&[1, 2], &[-1]])).is_none());
    }

    #[test]
    fn a_restricted_formula_is_used_as_it_stands() {
        let f = cnf(2, &[&[1, 2], &[-1], &[-2]]);
        let proof = proof_of(&f).unwrap();
        assert_eq!(proof.derivation_additions, 0);
        assert_eq!(proof.fresh_variables, 0);
        assert!(!proof.lrat.contains(" d "), "{}", proof.lrat);
    }

    #[test]
    fn long_clauses_frequent_variables_duplicates_and_tautologies() {
        // Clause 1 is split (two links), variable 1 occurs 5 times (copies), clause 2 repeats a
        // literal, clause 3 is a tautology, variable 7 is unused.
        let f = cnf(
            7,
            &[&[1, 2, 3, 4, 5], &[-1, -1], &[6, -6, 1], &[-2, 1], &[-3, 1], &[-4], &[-5, 1, 1]],
        );
        let n = normalise(&f);
        assert!(n.map.stats.clauses_split == 1 && n.map.stats.variables_cycled == 1);
        let proof = proof_of(&f).unwrap();
        assert_eq!(proof.fresh_variables, 2 + 5);
        assert!(proof.report.rat_additions >= 2 * 7);
        assert!(proof.lrat.lines().any(|l| l.contains(" d ")));
    }

    #[test]
    fn an_empty_input_clause_is_the_proof() {
        let f = cnf(3, &[&[1, 2], &[], &[3]]);
        let proof = proof_of(&f).unwrap();
        assert_eq!(proof.lrat, "4 0 2 0\n");
        let none = cnf(0, &[&[]]);
        assert_eq!(proof_of(&none).unwrap().lrat, "2 0 1 0\n");
    }

    #[test]
    fn a_refutation_of_another_formula_is_refused() {
        let f = cnf(2, &[&[1, 2], &[-1], &[-2]]);
        let other = cnf(1, &[&[1], &[-1]]);
        let err = refute_original(&f, &other, "3 0 1 2 0\n").unwrap_err();
        assert!(err.contains("does not normalise"), "{err}");
        let err = refute_original(&f, &f, "4 2 0 1 2 0\n").unwrap_err();
        assert!(err.contains("never adds the empty clause"), "{err}");
        let err = refute_original(&f, &f, "4 0 1 0\n").unwrap_err();
        assert!(err.contains("is rejected"), "{err}");
    }

    #[test]
    fn the_refutation_is_renamed_with_its_rat_steps_and_fresh_variables() {
        // (1 2 3 4) (-1) (-2) (-3) (-4): one split; the refutation first defines a fresh
        // variable 7 by RAT (7 <-> normalised 1), then derives the empty clause.
        let f = cnf(4, &[&[1, 2, 3, 4], &[-1], &[-2], &[-3], &[-4]]);
        let normalised = normalise(&f).formula;
        assert_eq!(normalised.num_vars, 5);
        let m = normalised.clauses.len() as i64;
        let refutation = format!(
            "{} -6 1 0 0\n{} 6 -1 0 -{} 0\n{} d {} 0\n{} 0 {} {} {} {} {} {} 0\n",
            m + 1,
            m + 2,
            m + 1,
            m + 2,
            m + 1,
            m + 3,
            3,
            4,
            5,
            6,
            2,
            1,
        );
        check_lrat(&normalised, &refutation, &mut Budget::unlimited()).unwrap();
        let proof = refute_original(&f, &normalised, &refutation).unwrap();
        assert_eq!(proof.fresh_variables, 1);
        // The refutation's variable 6 becomes 4 + 1 + 1.
        assert!(proof.lrat.contains(" -6 1 0 0\n"), "{}", proof.lrat);
    }

    /// Random formulas over up to 4 variables (and one unused) with clauses of up to 6 literals (repeats,
    /// tautologies and empty clauses among them), kept when unsatisfiable.
    fn arb_cnf() -> impl Strategy<Value = Cnf> {
        (1u32..=4).prop_flat_map(|n| {
            let lit = (1..=n as i32, any::<bool>()).prop_map(|(v, s)| if s { v } else { -v });
            let clause = prop_oneof![
                1 => Just(Vec::new()),
                30 => proptest::collection::vec(lit.clone(), 1..=2),
                15 => proptest::collection::vec(lit, 3..=6),
            ];
            proptest::collection::vec(clause, 1..=14)
                .prop_map(move |clauses| Cnf { num_vars: n + 1, clauses })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn every_refutation_carries_over(f in arb_cnf()) {
            let normalised = normalise(&f).formula;
            prop_assume!(normalised.num_vars <= 18);
            if let Some(refutation) = tree_refutation(&normalised) {
                let proof = refute_original(&f, &normalised, &refutation);
                prop_assert!(proof.is_ok(), "{:?}", proof.err());
            }
        }
    }
}

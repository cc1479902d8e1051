//! The LRAT checker against an independent, deliberately naive one with the same rules (RUP and
//! RAT steps, as drat-trim's `lrat-check` and CakeML's `cake_lpr` read them), on solver proofs,
//! on proofs with extension steps spliced in, and on thousands of mutants of both: the two
//! must agree on every one, and mutants that break a proof's syntax must be refused. Outside
//! checkers, where installed, are a third opinion on the RAT proofs.

use crate::common::write;
use gamecert::base::rng::Rng;
use gamecert::base::sat::{pigeonhole, random_k_cnf, solve, Backend, SatOutcome};
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::sat::lrat::{check_lrat, LratError, LratReport};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

fn check(cnf: &Cnf, proof: &str) -> Result<LratReport, LratError> {
    check_lrat(cnf, proof, &mut Budget::unlimited())
}

/// The naive checker: clauses in a `BTreeMap`, the assignment a set of false literals, every
/// rule written out in the plainest way. True when `proof` refutes `cnf`.
fn naive_check(cnf: &Cnf, proof: &str) -> bool {
    let mut live: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for (k, clause) in cnf.clauses.iter().enumerate() {
        live.insert(k as i64 + 1, clause.iter().map(|&l| i64::from(l)).collect());
    }
    let mut max_id = cnf.clauses.len() as i64;
    for line in proof.split('\n') {
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let deletion = words.get(1) == Some(&"d");
        let mut numbers = Vec::new();
        for (i, word) in words.iter().enumerate() {
            if deletion && i == 1 {
                continue;
            }
            match word.parse::<i64>() {
                Ok(x) if !word.starts_with('+') => numbers.push(x),
                _ => return false,
            }
        }
        let id = numbers[0];
        if id < 1 {
            return false;
        }
        let rest = &numbers[1..];
        let zeros: Vec<usize> = (0..rest.len()).filter(|&i| rest[i] == 0).collect();
        if deletion {
            if rest.is_empty() || zeros != [rest.len() - 1] {
                return false;
            }
            for target in &rest[..rest.len() - 1] {
                if *target < 0 || live.remove(target).is_none() {
                    return false;
                }
            }
            continue;
        }
        if zeros.len() != 2 || zeros[1] != rest.len() - 1 || id <= max_id {
            return false;
        }
        max_id = id;
        let lits = &rest[..zeros[0]];
        let hints = &rest[zeros[0] + 1..zeros[1]];
        if lits.iter().any(|l| l.unsigned_abs() > i32::MAX as u64) {
            return false;
        }
        if !naive_addition(&live, lits, hints) {
            return false;
        }
        live.insert(id, lits.to_vec());
        if lits.is_empty() {
            return true;
        }
    }
    false
}

/// Unit propagation along `hints` from the false literals `falsified`: `Some(true)` on a
/// falsified clause, `Some(false)` when the hints run out, `None` on a bad hint.
fn naive_units(
    live: &BTreeMap<i64, Vec<i64>>,
    falsified: &mut BTreeSet<i64>,
    hints: &[i64],
) -> Option<bool> {
    for hint in hints {
        let clause = live.get(hint)?;
        if clause.iter().any(|l| falsified.contains(&-l)) {
            continue; // satisfied: adds nothing
        }
        let open: BTreeSet<i64> =
            clause.iter().copied().filter(|l| !falsified.contains(l)).collect();
        match open.len() {
            0 => return Some(true),
            1 => {
                let lit = *open.iter().next().unwrap();
                falsified.insert(-lit);
            }
            _ => return None,
        }
    }
    Some(false)
}

fn naive_addition(live: &BTreeMap<i64, Vec<i64>>, lits: &[i64], hints: &[i64]) -> bool {
    let mut falsified: BTreeSet<i64> = lits.iter().copied().collect();
    if lits.iter().any(|l| falsified.contains(&-l)) {
        return false;
    }
    let prefix = hints.iter().position(|&h| h < 0).unwrap_or(hints.len());
    match naive_units(live, &mut falsified, &hints[..prefix]) {
        None => return false,
        Some(true) => return true,
        Some(false) => {}
    }
    let Some(&pivot) = lits.first() else {
        return false;
    };
    let mut named = BTreeSet::new();
    let groups = &hints[prefix..];
    let starts: Vec<usize> = (0..groups.len()).filter(|&i| groups[i] < 0).collect();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(groups.len());
        let candidate = -groups[start];
        if !named.insert(candidate) {
            return false;
        }
        let Some(clause) = live.get(&candidate) else {
            return false;
        };
        if !clause.contains(&-pivot) {
            return false;
        }
        let rest: Vec<i64> = clause.iter().copied().filter(|&l| l != -pivot).collect();
        if rest.iter().any(|l| falsified.contains(&-l)) {
            continue; // the resolvent is already implied
        }
        let mut extended = falsified.clone();
        extended.extend(rest);
        if naive_units(live, &mut extended, &groups[start + 1..end]) != Some(true) {
            return false;
        }
    }
    live.iter().all(|(id, clause)| !clause.contains(&-pivot) || named.contains(id))
}

/// Splices extension steps into a refutation right after its first line: for a few pairs of
/// the formula's variables `a, b`, a fresh `x` with `x <-> (a & b)`: `(-x a)` and `(-x b)` are
/// RAT on the fresh `-x` with no candidates, `(x -a -b)` is RAT on `x` with both as
/// candidates (tautological resolvents, empty groups). Ids after the splice are shifted.
fn with_extensions(cnf: &Cnf, proof: &str, rng: &mut Rng, count: u32) -> String {
    let inputs = cnf.clauses.len() as u64;
    let shift = 3 * u64::from(count);
    let mut steps = String::new();
    for k in 0..count {
        let x = i64::from(cnf.num_vars + 1 + k);
        let a = rng.range(1, u64::from(cnf.num_vars)) as i64;
        let b = (a % i64::from(cnf.num_vars)) + 1;
        let id = inputs + 1 + 3 * u64::from(k);
        steps.push_str(&format!("{id} {} {a} 0 0\n", -x));
        steps.push_str(&format!("{} {} {b} 0 0\n", id + 1, -x));
        steps.push_str(&format!("{} {x} {} {} 0 -{id} -{} 0\n", id + 2, -a, -b, id + 1));
    }
    // Every id above the inputs moves up by `shift`; the extension ids sit in between.
    let moved = |token: &str| match token.parse::<i64>() {
        Ok(v) if v.unsigned_abs() > inputs => {
            let m = v.unsigned_abs() + shift;
            if v < 0 {
                format!("-{m}")
            } else {
                m.to_string()
            }
        }
        _ => token.to_string(),
    };
    let mut out = steps;
    for line in proof.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let deletion = words.get(1) == Some(&"d");
        let mut zeros = 0;
        let rewritten: Vec<String> = words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let is_id = i == 0 || deletion || zeros >= 1;
                if *w == "0" {
                    zeros += 1;
                }
                if is_id && *w != "d" {
                    moved(w)
                } else {
                    w.to_string()
                }
            })
            .collect();
        out.push_str(&rewritten.join(" "));
        out.push('\n');
    }
    out
}

fn unsat_proof(cnf: &Cnf, backend: Backend) -> String {
    match solve(cnf, true, backend).unwrap() {
        SatOutcome::Unsatisfiable { lrat } => lrat,
        SatOutcome::Satisfiable(_) => panic!("expected unsatisfiable"),
    }
}

fn brute_force_sat(cnf: &Cnf) -> bool {
    (0u32..1 << cnf.num_vars).any(|bits| {
        let a: Vec<bool> = (0..cnf.num_vars).map(|i| bits >> i & 1 == 1).collect();
        cnf.is_satisfied_by(&a)
    })
}

/// The unsatisfiable formulas of the differential tests: two pigeonhole formulas and random
/// 3-CNFs over 12 variables.
fn formulas(rng: &mut Rng) -> Vec<Cnf> {
    let mut formulas = vec![pigeonhole(3), pigeonhole(4)];
    while formulas.len() < 8 {
        let cnf = random_k_cnf(12, 70, 3, rng);
        if !brute_force_sat(&cnf) {
            formulas.push(cnf);
        }
    }
    formulas
}

#[test]
fn extension_steps_keep_proofs_valid() {
    let mut rng = Rng::new(3);
    for cnf in formulas(&mut rng) {
        let proof = with_extensions(&cnf, &unsat_proof(&cnf, Backend::default()), &mut rng, 4);
        let report = check(&cnf, &proof).unwrap_or_else(|e| panic!("{e}\n{proof}"));
        assert_eq!(report.rat_additions, 12, "{proof}");
        assert!(naive_check(&cnf, &proof));
    }
}

#[test]
fn mutated_proofs_are_rejected_unless_still_valid() {
    let mut rng = Rng::new(7);
    let mut rejected = 0;
    let mut total = 0;
    // Proofs from both backends: CaDiCaL's proofs (through our writer) and varisat's differ
    // in shape, so their mutants reach different corners of the checker.
    let proofs = |cnf: &Cnf, rng: &mut Rng| -> Vec<String> {
        Backend::ALL
            .into_iter()
            .flat_map(|backend| {
                let proof = unsat_proof(cnf, backend);
                let extended = with_extensions(cnf, &proof, rng, 3);
                [proof, extended]
            })
            .collect()
    };
    for cnf in &formulas(&mut rng) {
        for proof in proofs(cnf, &mut rng) {
            assert!(check(cnf, &proof).is_ok());
            assert!(naive_check(cnf, &proof));
            let lines: Vec<&str> = proof.lines().collect();
            let last = lines.len() - 1;
            assert!(lines[last].split_whitespace().nth(1) == Some("0"));
            let join = |ls: &[&str]| ls.join("\n") + "\n";
            let mut must_reject: Vec<String> = Vec::new();
            let mut may_pass: Vec<String> = Vec::new();

            // Truncation anywhere before the final "0".
            let end = proof.trim_end().len();
            for _ in 0..40 {
                let cut = rng.below(end as u64) as usize;
                must_reject.push(proof[..cut].to_string());
            }
            // Dropping the empty clause's line.
            must_reject.push(join(&lines[..last]));
            // Garbage tokens.
            for garbage in ["x", "1.5", "--3", "0x1", "d", "\u{e9}", "+4"] {
                let i = rng.below(lines.len() as u64) as usize;
                let mut words: Vec<&str> = lines[i].split_whitespace().collect();
                let at = rng.range(1, words.len() as u64) as usize;
                if garbage == "d" && at == 1 {
                    continue;
                }
                words.insert(at, garbage);
                let mut ls: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                ls[i] = words.join(" ");
                must_reject.push(ls.join("\n"));
            }

            // Semantic mutations: the two checkers must agree.
            for _ in 0..200 {
                let mut ls: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                let i = rng.below(ls.len() as u64) as usize;
                let mut words: Vec<String> =
                    ls[i].split_whitespace().map(|w| w.to_string()).collect();
                match rng.below(8) {
                    0 => {
                        // A token (literal, hint or deleted id) changed to a nearby number.
                        let at = rng.range(1, words.len() as u64 - 1) as usize;
                        if let Ok(x) = words[at].parse::<i64>() {
                            let delta = rng.range(1, 4) as i64;
                            words[at] =
                                (if rng.coin() { x + delta } else { x - delta }).to_string();
                        }
                    }
                    1 => {
                        // A token dropped.
                        let at = rng.range(1, words.len() as u64 - 1) as usize;
                        words.remove(at);
                    }
                    2 => {
                        // Two tokens swapped (in a clause: another pivot).
                        let a = rng.range(1, words.len() as u64 - 1) as usize;
                        let b = rng.range(1, words.len() as u64 - 1) as usize;
                        words.swap(a, b);
                    }
                    3 => {
                        // A line dropped.
                        ls.remove(i);
                        may_pass.push(ls.join("\n"));
                        continue;
                    }
                    4 => {
                        // Two lines swapped.
                        let j = rng.below(ls.len() as u64) as usize;
                        ls.swap(i, j);
                        may_pass.push(ls.join("\n"));
                        continue;
                    }
                    5 => {
                        // A hint's sign flipped (a RUP hint made a RAT candidate, or back).
                        if let Some(z) = words.iter().skip(1).position(|w| w == "0") {
                            let hints = z + 2..words.len() - 1;
                            if words[1] != "d" && !hints.is_empty() {
                                let at =
                                    rng.range(hints.start as u64, hints.end as u64 - 1) as usize;
                                words[at] = format!("-{}", words[at]).replacen("--", "", 1);
                            }
                        }
                    }
                    6 => {
                        // A RAT group dropped: a negative hint and the hints after it.
                        if let Some(start) = words.iter().position(|w| w.starts_with('-')) {
                            let z = words.iter().skip(1).position(|w| w == "0").unwrap_or(0) + 1;
                            if start > z {
                                let end = (start + 1..words.len() - 1)
                                    .find(|&k| words[k].starts_with('-'))
                                    .unwrap_or(words.len() - 1);
                                words.drain(start..end);
                            }
                        }
                    }
                    _ => {
                        // A literal's sign flipped.
                        if let Some(z) = words.iter().skip(1).position(|w| w == "0") {
                            if z > 0 && words[1] != "d" {
                                let at = rng.range(1, z as u64) as usize;
                                words[at] = format!("-{}", words[at]).replacen("--", "", 1);
                            }
                        }
                    }
                }
                ls[i] = words.join(" ");
                may_pass.push(ls.join("\n"));
            }

            for mutant in &must_reject {
                total += 1;
                assert!(check(cnf, mutant).is_err(), "accepted mutant:\n{mutant}");
                assert!(!naive_check(cnf, mutant), "naive accepted mutant:\n{mutant}");
                rejected += 1;
            }
            for mutant in &may_pass {
                total += 1;
                let ours = check(cnf, mutant);
                assert_eq!(
                    ours.is_ok(),
                    naive_check(cnf, mutant),
                    "checkers disagree ({ours:?}) on:\n{mutant}"
                );
                if ours.is_err() {
                    rejected += 1;
                }
            }
        }
    }
    assert!(total > 3000 && rejected > total / 2, "{rejected} of {total}");
}

/// Runs an outside checker; `None` when it is not installed.
fn outside(
    program: &str,
    verified: &str,
    cnf: &std::path::Path,
    lrat: &std::path::Path,
) -> Option<bool> {
    let out = Command::new(program).arg(cnf).arg(lrat).output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == verified))
}

#[test]
fn outside_checkers_agree_on_rat_proofs_and_mutants() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng::new(11);
    let cnf = pigeonhole(4);
    let proof = with_extensions(&cnf, &unsat_proof(&cnf, Backend::Varisat), &mut rng, 3);
    write(dir.path(), "f.cnf", &cnf.to_dimacs());
    let lines: Vec<&str> = proof.lines().collect();
    // Line 3 is the first `(x -a -b)`, RAT on x with two candidates. Variants: the proof; that
    // line's last candidate left out; its first two literals swapped (pivot -a, whose second
    // candidate `(-x b)` does not hold a).
    let edited = |edit: &dyn Fn(&mut Vec<&str>)| {
        let mut ls: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let mut words: Vec<&str> = lines[2].split_whitespace().collect();
        edit(&mut words);
        ls[2] = words.join(" ");
        ls.join("\n") + "\n"
    };
    let variants = [
        (proof.clone(), true),
        (
            edited(&|w| {
                w.remove(w.len() - 2);
            }),
            false,
        ),
        (edited(&|w| w.swap(1, 2)), false),
    ];
    for (k, (text, valid)) in variants.iter().enumerate() {
        let name = format!("p{k}.lrat");
        write(dir.path(), &name, text);
        assert_eq!(check(&cnf, text).is_ok(), *valid, "variant {k}:\n{text}");
        assert_eq!(naive_check(&cnf, text), *valid, "variant {k}");
        for (program, verified) in [("lrat-check", "c VERIFIED"), ("cake_lpr", "s VERIFIED UNSAT")]
        {
            if let Some(verdict) =
                outside(program, verified, &dir.path().join("f.cnf"), &dir.path().join(&name))
            {
                assert_eq!(verdict, *valid, "{program} on variant {k}:\n{text}");
            }
        }
    }
}

/// drat-trim's example proofs, when `DRAT_TRIM_EXAMPLES` names its `examples/` folder (the
/// files are not ours to ship): every `*.lrat` there checks against its `*.cnf`, and mutants
/// with a RAT group removed are refused.
#[test]
fn drat_trim_examples_check_when_present() {
    let Some(dir) = std::env::var_os("DRAT_TRIM_EXAMPLES") else {
        eprintln!("DRAT_TRIM_EXAMPLES is not set: skipped");
        return;
    };
    let dir = std::path::Path::new(&dir);
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "lrat") {
            continue;
        }
        let cnf_text = std::fs::read_to_string(path.with_extension("cnf")).unwrap();
        let cnf =
            gamecert_certificates::sat::dimacs::parse_cnf(&cnf_text, &mut Budget::unlimited())
                .unwrap();
        let proof = std::fs::read_to_string(&path).unwrap();
        check(&cnf, &proof).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(naive_check(&cnf, &proof), "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} proofs in {}", dir.display());
}

//! The SAT user's own answer (issue 42, item 4): what a certificate of an instance made by
//! `gamecert reduce sat-voronoi1|2` says of the formula the user gave, in the SAT competition's
//! words: `s SATISFIABLE` and `v` lines of a model of the user's variables, or `s
//! UNSATISFIABLE` ([`SatAnswer::lines`]).
//!
//! # A witness: a model of the user's formula
//!
//! B's winning placement stands for an assignment of the normalised formula: `x_i` is true iff
//! B holds `x_i+` ([`backward`]; by Theorem 3 a winning placement's assignment satisfies the
//! normalised formula). It is restricted to the user's variables through the normalisation of
//! the user's formula, recomputed from the formula the instance records (the recorded map is
//! not read), which must give the instance's normalised formula:
//!
//! - a variable the normalisation kept takes its value;
//! - a variable it replaced by copies (one occurring 4 or more times) takes its first copy's
//!   value: in a model of the normalised formula the copies' implication cycle makes them all
//!   equal, and should they disagree, the check below decides;
//! - a variable it dropped (one occurring in no clause, or only in tautologies) is false: its
//!   clauses, if any, are satisfied whatever it is;
//! - the link variables of split clauses are the normalisation's own and are not printed.
//!
//! The model is then checked against every clause of the user's formula exactly as the
//! instance records it (duplicate clauses, repeated literals and tautologies kept; an empty
//! clause is never satisfied), by the checker's own [`Cnf::first_falsified_clause`]. Only a
//! model that passes is an answer. One that fails is a fault of gamecert's (of the maps, or of
//! Theorem 3), an error ([`check_model`] names the clause), never output; except on an instance
//! whose graph is no longer the image of its recorded formula (the file was edited after
//! `reduce`), where B's placement says nothing of the formula: [`SatAnswer::Unknown`].
//!
//! # A refutation: unsatisfiable
//!
//! A refutation by the reduction method carries an LRAT proof of the normalised formula, which
//! the checker has checked (and rebuilt the instance from). When that formula is the
//! normalisation of the user's formula, the user's formula is unsatisfiable: `gamecert
//! export-proof` turns the proof into one of the user's own formula
//! ([`crate::normalise_proof`], checked by the trusted LRAT checker) for outside checkers. A
//! direct refutation proves the checker's encoding of the game, not a formula, and no proof of
//! the user's formula is made from it: [`SatAnswer::Unknown`], saying so.

use crate::normalise::normalise;
use crate::sat_voronoi::backward;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, OneRoundSpec, RefutationMethod};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::voronoi::one_round::image_of;

/// What a certificate says of the SAT user's formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// Satisfiable, with a model checked against every clause of the user's formula: one signed
    /// literal per variable `1..=n` of the formula's header (`3` true, `-3` false), the shape
    /// of PySAT's `get_model()`.
    Satisfiable(Vec<i32>),
    /// Unsatisfiable: the certificate refutes the normalisation of the user's formula.
    Unsatisfiable,
    /// The certificate settles the game but not the user's formula; why.
    Unknown(String),
}

/// The longest `v` line [`SatAnswer::lines`] writes, in characters.
pub const LINE_WIDTH: usize = 80;

impl SatAnswer {
    /// The SAT competition's status word: `SATISFIABLE`, `UNSATISFIABLE` or `UNKNOWN`.
    pub fn status(&self) -> &'static str {
        match self {
            SatAnswer::Satisfiable(_) => "SATISFIABLE",
            SatAnswer::Unsatisfiable => "UNSATISFIABLE",
            SatAnswer::Unknown(_) => "UNKNOWN",
        }
    }

    /// The answer in the SAT competition's output format: `s SATISFIABLE` then the model as `v`
    /// lines of at most [`LINE_WIDTH`] characters, the last ending in `0`; `s UNSATISFIABLE`;
    /// or a `c` comment saying why, then `s UNKNOWN`.
    pub fn lines(&self) -> String {
        let mut text = String::new();
        if let SatAnswer::Unknown(why) = self {
            text.push_str(&format!("c {}\n", why.replace('\n', " ")));
        }
        text.push_str(&format!("s {}\n", self.status()));
        if let SatAnswer::Satisfiable(model) = self {
            let mut line = String::from("v");
            let tokens = model.iter().map(i32::to_string).chain(std::iter::once("0".into()));
            for token in tokens {
                if line.len() + 1 + token.len() > LINE_WIDTH {
                    text.push_str(&line);
                    text.push('\n');
                    line = String::from("v");
                }
                line.push(' ');
                line.push_str(&token);
            }
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// The answer as the `--json` outputs give it: `{"status": ..., "model": [...]}` (the model
    /// only when satisfiable; `note`, why, when unknown).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            SatAnswer::Satisfiable(model) => {
                serde_json::json!({"status": self.status(), "model": model})
            }
            SatAnswer::Unsatisfiable => serde_json::json!({"status": self.status()}),
            SatAnswer::Unknown(why) => serde_json::json!({"status": self.status(), "note": why}),
        }
    }
}

/// Checks `model` (index 0 is variable 1) against every clause of `original` as it stands:
/// `Err` names the first clause it falsifies (or a literal beyond the formula's variables).
pub fn check_model(original: &Cnf, model: &[bool]) -> Result<(), String> {
    if let Some((clause, literal)) = original.first_bad_literal() {
        return Err(format!(
            "clause {} of the user's formula holds the literal {literal}, beyond its {} variables",
            clause + 1,
            original.num_vars
        ));
    }
    if model.len() != original.num_vars as usize {
        return Err(format!(
            "the model has {} values for the formula's {} variables",
            model.len(),
            original.num_vars
        ));
    }
    match original.first_falsified_clause(model) {
        None => Ok(()),
        Some(k) => {
            let literals: Vec<String> = original.clauses[k].iter().map(i32::to_string).collect();
            Err(format!(
                "the model falsifies clause {} of the user's formula, ({})",
                k + 1,
                literals.join(" ")
            ))
        }
    }
}

/// The model as signed literals, one per variable (`3` true, `-3` false).
fn signed(model: &[bool]) -> Vec<i32> {
    (1..).zip(model).map(|(var, &value)| if value { var } else { -var }).collect()
}

/// What `certificate`, which the checker has accepted for `spec`, says of the SAT user's
/// formula (see the module documentation): `None` when the instance records no formula of the
/// user's (it was not made by `reduce sat-voronoi1|2`). Never an error: both files may come
/// from a user, so whatever does not give a checked model or a refutation of the user's
/// formula is [`SatAnswer::Unknown`] with the reason, a witness whose placement reads as no
/// model included (it would contradict Theorem 3's proof, which asserts without argument that
/// only one-literal-per-variable placements win; the reason says so).
pub fn answer(spec: &OneRoundSpec, certificate: &Certificate) -> Option<SatAnswer> {
    let source = spec.source.as_ref()?;
    let original = source.original.as_ref()?;
    let unknown = |why: String| Some(SatAnswer::Unknown(why));
    if let Some((clause, literal)) = original.first_bad_literal() {
        return unknown(format!(
            "the recorded user's formula is not well formed: clause {} holds the literal \
             {literal}, beyond its {} variables",
            clause + 1,
            original.num_vars
        ));
    }
    if i32::try_from(original.num_vars).is_err() {
        return unknown(format!("the user's formula has {} variables", original.num_vars));
    }
    let normalised = normalise(original);
    if normalised.formula != source.formula {
        return unknown(
            "the instance's recorded formula is not the normalisation of the user's formula it \
             records (was the file edited after `gamecert reduce`?)"
                .into(),
        );
    }
    match certificate {
        Certificate::Witness(witness) => {
            let model = normalised.map.restrict(&backward(&normalised.formula, &witness.placement));
            match check_model(original, &model) {
                Ok(()) => Some(SatAnswer::Satisfiable(signed(&model))),
                Err(why) => {
                    let image = spec.validate().map_err(|e| e.to_string()).and_then(|game| {
                        image_of(&game, &source.formula, source.reduction, &mut Budget::unlimited())
                    });
                    unknown(match image {
                        Err(not_image) => format!(
                            "the instance is not the image of its recorded formula ({not_image}), \
                             so B's placement says nothing of the user's formula"
                        ),
                        Ok(()) => format!(
                            "the assignment read off B's winning placement is no model: {why} \
                             (B wins, so by Theorem 3 the formula is satisfiable; that a winning \
                             placement reads as a model is what Theorem 3's proof asserts without \
                             argument: please report this pair of files)"
                        ),
                    })
                }
            }
        }
        Certificate::Refutation(refutation) => match &refutation.method {
            RefutationMethod::Reduction { formula, .. } if *formula == normalised.formula => {
                Some(SatAnswer::Unsatisfiable)
            }
            RefutationMethod::Reduction { .. } => unknown(
                "the certificate refutes a formula other than the normalisation of the user's"
                    .into(),
            ),
            RefutationMethod::Direct => unknown(
                "a direct refutation proves the checker's encoding of the game, not the user's \
                 formula; `solve --method reduction` refutes the formula itself"
                    .into(),
            ),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sat_voronoi::{forward_from_original, reduce};
    use gamecert_certificates::format::Witness;
    use gamecert_certificates::voronoi::sat_reduction::SatVoronoi;

    fn cnf(num_vars: u32, clauses: &[&[i32]]) -> Cnf {
        Cnf { num_vars, clauses: clauses.iter().map(|c| c.to_vec()).collect() }
    }

    fn witness(placement: Vec<String>) -> Certificate {
        Certificate::Witness(Witness { claim: "black-wins".into(), placement })
    }

    #[test]
    fn lines_are_short_and_end_in_zero() {
        let model: Vec<i32> = (1..=100).map(|v| if v % 3 == 0 { -v } else { v }).collect();
        let text = SatAnswer::Satisfiable(model.clone()).lines();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("s SATISFIABLE"));
        let v: Vec<&str> = lines.collect();
        assert!(v.len() > 1 && v.iter().all(|l| l.starts_with("v ") && l.len() <= LINE_WIDTH));
        assert!(v.last().unwrap().ends_with(" 0"));
        let read: Vec<i32> =
            v.iter().flat_map(|l| l[2..].split(' ').map(|t| t.parse::<i32>().unwrap())).collect();
        assert_eq!(read[..read.len() - 1], model[..]);
        assert_eq!(SatAnswer::Satisfiable(vec![]).lines(), "s SATISFIABLE\nv 0\n");
        assert_eq!(SatAnswer::Unsatisfiable.lines(), "s UNSATISFIABLE\n");
        assert_eq!(SatAnswer::Unknown("why".into()).lines(), "c why\ns UNKNOWN\n");
    }

    #[test]
    fn a_mutated_model_is_refused() {
        let f = cnf(3, &[&[1, 2], &[-1, 3], &[-3, -2], &[2, 2, -2]]);
        let model = [true, false, true];
        assert_eq!(check_model(&f, &model), Ok(()));
        for flip in 0..3 {
            let mut mutated = model;
            mutated[flip] = !mutated[flip];
            let why = check_model(&f, &mutated).unwrap_err();
            assert!(why.contains("falsifies clause"), "{why}");
        }
        assert!(check_model(&f, &[true, false]).is_err());
        // An empty clause is never satisfied.
        assert!(check_model(&cnf(1, &[&[1], &[]]), &[true]).unwrap_err().contains("clause 2"));
    }

    /// Satisfiable formulas of every normalisation path: repeated variables split into copies,
    /// tautologies and duplicates, unused variables, long clauses, no clause left.
    #[test]
    fn witnesses_give_models_of_the_users_formula() {
        let formulas = [
            cnf(4, &[&[-1, 2, 3], &[-2, -3, -4]]),
            cnf(2, &[&[1, 2], &[1, -2], &[1], &[1, 1], &[-2, 1]]),
            cnf(3, &[&[1, -1], &[2, 2, 3], &[2, 2, 3], &[-3, 3, 1]]),
            cnf(9, &[&[2, 5]]),
            cnf(6, &[&[1, 2, 3, 4, 5, 6], &[-1], &[-2], &[-3], &[-4]]),
            cnf(3, &[&[1, -1], &[2, -2, 3]]),
            cnf(2, &[]),
        ];
        for f in formulas {
            let reduced = reduce(&f, SatVoronoi::Problem1).unwrap();
            // A model of the user's formula, by brute force, then B's placement for it.
            let n = f.num_vars as usize;
            let model = (0..1u32 << n)
                .map(|bits| (0..n).map(|i| bits >> i & 1 == 1).collect::<Vec<bool>>())
                .find(|a| f.is_satisfied_by(a))
                .unwrap();
            let placement = forward_from_original(&reduced.normalised, &f, &model);
            let answered = answer(&reduced.instance, &witness(placement.clone()));
            let Some(SatAnswer::Satisfiable(literals)) = answered else { panic!("{answered:?}") };
            let values: Vec<bool> = literals.iter().map(|&l| l > 0).collect();
            assert_eq!(literals.len(), n);
            assert!(f.is_satisfied_by(&values), "{f:?}: {literals:?}");
            // A placement mapped to no model is never a SAT answer: unknown, saying why.
            let mut wrong = placement;
            let Some(k) = (1..=reduced.normalised.formula.num_vars as usize).find(|&i| {
                let mut a = reduced.normalised.map.extend(&f, &model);
                a[i - 1] = !a[i - 1];
                !f.is_satisfied_by(&reduced.normalised.map.restrict(&a))
            }) else {
                continue;
            };
            let name = &mut wrong[k - 1];
            *name =
                if name.ends_with('+') { name.replace('+', "-") } else { name.replace('-', "+") };
            let refused = answer(&reduced.instance, &witness(wrong));
            assert!(
                matches!(&refused, Some(SatAnswer::Unknown(why)) if why.contains("no model")),
                "{refused:?}"
            );
        }
    }

    #[test]
    fn refutations_answer_only_for_the_users_formula() {
        use gamecert_certificates::format::Refutation;
        let f = cnf(1, &[&[1], &[-1, -1]]);
        let reduced = reduce(&f, SatVoronoi::Problem1).unwrap();
        let refutation = |method| {
            Certificate::Refutation(Refutation {
                claim: "black-cannot-win".into(),
                method,
                lrat: String::new(),
            })
        };
        let by_reduction = refutation(RefutationMethod::Reduction {
            reduction: SatVoronoi::Problem1,
            formula: reduced.normalised.formula.clone(),
        });
        assert_eq!(answer(&reduced.instance, &by_reduction), Some(SatAnswer::Unsatisfiable));
        let direct = answer(&reduced.instance, &refutation(RefutationMethod::Direct));
        assert!(matches!(direct, Some(SatAnswer::Unknown(_))), "{direct:?}");
        // An edited record, and an instance that records no formula of the user's.
        let mut edited = reduced.instance.clone();
        edited.source.as_mut().unwrap().original = Some(cnf(1, &[&[1]]));
        let why = answer(&edited, &by_reduction);
        assert!(matches!(&why, Some(SatAnswer::Unknown(w)) if w.contains("normalisation")));
        edited.source = None;
        assert_eq!(answer(&edited, &by_reduction), None);
    }
}

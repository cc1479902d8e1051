//! `check(instance, certificate) -> Verdict`: the one entry point users trust. It runs the
//! family check the registry ([`crate::format`]) names for the certificate's kind, under the
//! work budget, and turns a fault of the checker into a rejection.
//!
//! What each kind's check does is documented in its family: the one-round game in
//! [`crate::voronoi::one_round`], strategies replayed against every opponent move in the
//! modules that use [`crate::replay`], labellings in [`crate::impartial`] and
//! [`crate::vertexnim`].

use crate::base::budget::Budget;
pub use crate::base::budget::Limits;
use crate::format::{dispatch, Certificate, Instance, OneRound};
use crate::verdict::{fault_reason, panic_message};
pub use crate::verdict::{reject, Decision, Verdict, Work, INTERNAL_ERROR};
use crate::voronoi::one_round::{
    check_binary, check_refutation, check_witness, CLAIM_BLACK_CANNOT_WIN,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Checks a certificate against an instance within `limits`. Never panics; a certificate of
/// the wrong kind for the instance is rejected with a reason, and so is a check that would pass
/// the work limit.
pub fn check(instance: &Instance, certificate: &Certificate, limits: &Limits) -> Verdict {
    let mut budget = limits.budget();
    check_with(instance, certificate, &mut budget)
}

/// [`check`] charging an existing budget (one that may already have paid for validating the
/// instance).
pub fn check_with(instance: &Instance, certificate: &Certificate, budget: &mut Budget) -> Verdict {
    guarded(certificate.claim(), budget, |budget| dispatch(instance, certificate, budget))
}

/// Runs a check, turning a panic (a fault of the checker: every input is meant to be refused
/// by range checks before arithmetic could overflow, and the checker crate is built with
/// overflow checks in every profile) into a rejection whose reason starts with
/// [`INTERNAL_ERROR`], a rejection for want of work into "not checked", and records the work
/// spent.
pub(crate) fn guarded(
    claim: String,
    budget: &mut Budget,
    run: impl FnOnce(&mut Budget) -> Verdict,
) -> Verdict {
    let running = crate::base::fault::Running::new(&claim);
    let outcome = catch_unwind(AssertUnwindSafe(|| run(&mut *budget)));
    drop(running);
    // A rejection for want of work is not a rejection (a fault, below, always is).
    let outcome = outcome.map(|verdict| verdict.unless_out_of_budget(budget));
    let mut verdict = outcome.unwrap_or_else(|payload| {
        reject(claim, fault_reason(&panic_message(payload.as_ref())), Work::default())
    });
    verdict.work.work_units = budget.used();
    verdict.work.steps = Some(budget.steps()).filter(|&steps| steps > 0);
    verdict
}

/// [`check`] for a `voronoi-one-round` instance the caller has already validated (so a large
/// graph is built once).
pub fn check_one_round(game: &OneRound, certificate: &Certificate, limits: &Limits) -> Verdict {
    let mut budget = limits.budget();
    check_one_round_with(game, certificate, &mut budget)
}

/// [`check_one_round`] charging an existing budget (the one that validated the instance).
pub fn check_one_round_with(
    game: &OneRound,
    certificate: &Certificate,
    budget: &mut Budget,
) -> Verdict {
    guarded(certificate.claim(), budget, |budget| match certificate {
        Certificate::Witness(w) => check_witness(game, w, budget),
        Certificate::Refutation(r) => check_refutation(game, r, budget),
        _ => reject(
            certificate.claim(),
            format!(
                "a {} certificate does not fit a voronoi-one-round instance",
                certificate.kind()
            ),
            Work::default(),
        ),
    })
}

/// [`check_one_round_with`] for a binary refutation ([`crate::sat::lrat_binary`]), read from
/// `read` as it is checked.
pub fn check_binary_refutation(
    game: &OneRound,
    read: &mut impl std::io::BufRead,
    budget: &mut Budget,
) -> Verdict {
    let claim = crate::voronoi::one_round::claim_sentence(CLAIM_BLACK_CANNOT_WIN);
    guarded(claim, budget, |budget| check_binary(game, read, budget))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::voronoi::one_round::{Witness, CLAIM_BLACK_WINS};
    use crate::voronoi_paths::paths::check_path_value;

    /// An arithmetic overflow inside a check (the crate is built with overflow checks in every
    /// profile) is a rejection naming the fault, never a panic and never an acceptance.
    #[test]
    fn an_overflow_is_a_clean_rejection() {
        let certificate =
            Certificate::Witness(Witness { claim: CLAIM_BLACK_WINS.into(), placement: vec![] });
        let mut budget = Budget::new(100);
        let verdict = guarded(certificate.claim(), &mut budget, |budget| {
            budget.charge(7, "testing").unwrap();
            let big = std::hint::black_box(u64::MAX);
            let wrapped = big + std::hint::black_box(1);
            Verdict {
                outcome: Decision::Accepted,
                claim: format!("{wrapped}"),
                reason: String::new(),
                work: Work::default(),
                trusted: Vec::new(),
            }
        });
        assert!(!verdict.accepted());
        assert!(verdict.reason.starts_with(INTERNAL_ERROR), "{}", verdict.reason);
        assert!(verdict.reason.contains("overflow"), "{}", verdict.reason);
        assert_eq!(verdict.work.work_units, 7);
    }

    /// Numbers near 2^63 in a multi-round instance are refused on entry (the comparison
    /// `2 * rounds > vertices` used to wrap), and a path certificate with such rounds is
    /// rejected.
    #[test]
    fn huge_rounds_are_refused_not_wrapped() {
        let spec = crate::format::MultiRoundSpec {
            graph: crate::format::GraphSpec::numbered(4, &[(0, 1), (1, 2), (2, 3)]),
            rounds: 1 << 63,
            start: None,
            source: None,
        };
        let err = spec.validate().unwrap_err();
        assert!(err.message.contains("rounds"), "{err}");
        let value = crate::voronoi_paths::paths::PathValue {
            vertices: 4,
            rounds: 1 << 63,
            value: 0,
            white: vec![],
            black: vec![],
        };
        let err = check_path_value(4, 1 << 63, &value, &mut Budget::new(1_000_000)).unwrap_err();
        assert!(err.contains("do not fit"), "{err}");
    }
}

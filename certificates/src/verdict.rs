//! The checker's answer ([`Verdict`]), the record of its work ([`Work`]), and the one list of
//! theorems it may take on faith ([`Theorem`], [`TRUSTED_THEOREMS`]).

pub use crate::base::decision::{Decision, Work};
pub use crate::base::theorems::*;
use serde::Serialize;

/// The start of the reason of a verdict that ended in an internal fault (a panic the checker
/// caught, such as an arithmetic overflow that range checks should have prevented): the
/// certificate is rejected, and the fault is a bug to report.
pub const INTERNAL_ERROR: &str = "internal error";

/// The checker's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    pub outcome: Decision,
    /// What the certificate claims (and, if accepted, what is now established).
    pub claim: String,
    /// Why it was accepted, or the first thing that failed.
    pub reason: String,
    pub work: Work,
    /// The theorems taken on faith for this verdict (empty when nothing but the rules is).
    pub trusted: Vec<String>,
}

impl Verdict {
    /// An acceptance of `claim`, resting on the rules and on `trusted`.
    pub fn accept(claim: String, reason: String, work: Work, trusted: &[Theorem]) -> Verdict {
        let trusted = trusted.iter().map(|t| t.statement().to_string()).collect();
        Verdict { outcome: Decision::Accepted, claim, reason, work, trusted }
    }

    /// Whether the certificate was accepted.
    pub fn accepted(&self) -> bool {
        self.outcome == Decision::Accepted
    }

    /// This verdict, told as not checked when it is a rejection and `budget` ran out: the
    /// check stopped for want of work, not on a fault it found. The reason then says what was
    /// spent and what a larger `--max-work` would do.
    pub fn unless_out_of_budget(mut self, budget: &crate::base::budget::Budget) -> Verdict {
        if self.outcome == Decision::Rejected && budget.exhausted() {
            self.outcome = Decision::NotChecked;
            self.reason = format!(
                "{}; nothing was found wrong and nothing established: --max-work {} (ten times \
                 this budget) lets the check go further",
                self.reason,
                budget.limit().saturating_mul(10),
            );
        }
        self
    }

    /// Accepts `claim` with the reason `found` gives for `Ok`, rejects it with the error.
    pub fn decide<T>(
        claim: String,
        outcome: Result<T, String>,
        found: impl FnOnce(T) -> (String, Work),
        trusted: &[Theorem],
    ) -> Verdict {
        match outcome {
            Ok(report) => {
                let (reason, work) = found(report);
                Verdict::accept(claim, reason, work, trusted)
            }
            Err(why) => reject(claim, why, Work::default()),
        }
    }

    /// The rejection of a certificate whose instance is not valid.
    pub fn invalid(claim: String, err: impl std::fmt::Display) -> Verdict {
        reject(claim, format!("the instance is not valid: {err}"), Work::default())
    }
}

/// What a certificate claims, in words: the `claim` of its verdict when the check cannot get
/// as far as the family's own wording (a mismatched instance, a fault).
pub trait Claim {
    fn claim(&self) -> String;
}

/// A rejection: `claim` is what the certificate claimed, `reason` the first thing that failed.
pub fn reject(claim: String, reason: String, work: Work) -> Verdict {
    Verdict { outcome: Decision::Rejected, claim, reason, work, trusted: Vec::new() }
}

/// The text of a panic's payload.
/// The reason of the rejection of a check that stopped on a fault (a panic) with `message`.
pub fn fault_reason(message: &str) -> String {
    format!(
        "{INTERNAL_ERROR}: the checker stopped on a fault ({message}); the certificate is \
         rejected, and this input shows a bug in the checker"
    )
}

pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

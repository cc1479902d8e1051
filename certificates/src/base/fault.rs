//! The claim of the check running now, for a fault handler that cannot unwind. Natively a
//! panic inside a check unwinds to [`crate::check`], which rejects the certificate naming the
//! fault; where a panic aborts instead (the checker built for WebAssembly, which cannot
//! unwind), the entry's panic hook reads the claim here to print the same rejection.

use std::cell::RefCell;

thread_local! {
    static CLAIM: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Marks a check of `claim` as running until it is dropped.
pub(crate) struct Running;

impl Running {
    pub(crate) fn new(claim: &str) -> Running {
        CLAIM.with(|running| *running.borrow_mut() = Some(claim.to_string()));
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        CLAIM.with(|running| running.borrow_mut().take());
    }
}

/// The claim of the check running on this thread, if one is.
pub fn running_claim() -> Option<String> {
    CLAIM.try_with(|running| running.try_borrow().ok().and_then(|claim| claim.clone())).ok()?
}

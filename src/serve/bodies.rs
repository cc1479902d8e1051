//! Request bodies, received under a budget of bytes shared by every request (issue 40: forty
//! held 64 MiB uploads, each buffered whole at once, held 2.66 GB).
//!
//! A body is read whole before it is used (an upload is JSON, parsed at once), so what bounds
//! memory is how many bytes all requests may hold together: a body larger than
//! [`SMALL_BODY`] reserves twice its size (the body, then the files decoded from it) from the
//! [`Budget`] before it is read, and holds the reservation until its answer. A request that
//! cannot reserve within the wait is refused (503 with Retry-After) rather than queued without
//! end. Small bodies (a move, a gallery game) reserve nothing, so uploads held by one client
//! never stop another from playing; the connection cap bounds them.
//!
//! The size limit (413), the pause between two pieces of a body and the time for a whole body
//! (408) are tower-http's layers (see [`super::routes::router`]); this module tells their errors
//! apart when the body is read.

use axum::body::Body;
use axum::http::{header, HeaderMap};
use http_body_util::BodyExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A body up to this size reserves nothing from the budget (every move and every gallery game
/// fits: their bodies are a few dozen bytes).
pub const SMALL_BODY: usize = 64 << 10;

/// The budget is counted in units of this many bytes (a semaphore's permits are `u32`).
const UNIT: usize = 1 << 10;

/// The bytes all request bodies may hold at once.
#[derive(Clone)]
pub struct Budget {
    units: Arc<Semaphore>,
    total: usize,
    wait: Duration,
}

/// Why a body was not received.
#[derive(Debug, PartialEq)]
pub enum Refusal {
    /// Larger than the largest request accepted (413).
    TooLarge,
    /// The budget stayed spent for the whole wait (503 with Retry-After).
    Busy,
    /// It paused, or took in all, longer than allowed (408).
    TimedOut,
    /// The connection broke while it was sent (400; nobody may be there to read it).
    Broken(String),
}

/// A body received whole, with its share of the budget: the share is given back when this is
/// dropped (keep it until the answer, moving it with the work that uses the body).
pub struct Received {
    pub bytes: Vec<u8>,
    pub share: Share,
}

/// A share of the budget, given back when dropped.
pub struct Share(Option<OwnedSemaphorePermit>);

impl Budget {
    /// `bytes` in all, a request waiting at most `wait` for its share.
    pub fn new(bytes: usize, wait: Duration) -> Budget {
        let units = (bytes / UNIT).clamp(1, u32::MAX as usize);
        Budget { units: Arc::new(Semaphore::new(units)), total: units * UNIT, wait }
    }

    /// The share of a body of `bytes` bytes (twice them, in whole units), waited for.
    async fn reserve(&self, share: &mut Share, bytes: usize) -> Result<(), Refusal> {
        let units = bytes.saturating_mul(2).div_ceil(UNIT);
        let held = share.0.as_ref().map_or(0, |p| p.num_permits());
        if (held + units).saturating_mul(UNIT) > self.total {
            // More than the whole budget: waiting would never end.
            return Err(Refusal::TooLarge);
        }
        let units = u32::try_from(units).map_err(|_| Refusal::TooLarge)?;
        let acquire = self.units.clone().acquire_many_owned(units);
        match tokio::time::timeout(self.wait, acquire).await {
            Ok(Ok(permit)) => {
                match &mut share.0 {
                    Some(held) => held.merge(permit),
                    None => share.0 = Some(permit),
                }
                Ok(())
            }
            _ => Err(Refusal::Busy),
        }
    }

    /// Receives `body` whole, at most `max` bytes, its share reserved before it is read (as
    /// its Content-Length declares, or piece by piece when it declares none).
    pub async fn receive(
        &self,
        headers: &HeaderMap,
        mut body: Body,
        max: usize,
    ) -> Result<Received, Refusal> {
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let mut share = Share(None);
        let mut bytes = Vec::new();
        if let Some(declared) = declared {
            let declared = usize::try_from(declared).map_err(|_| Refusal::TooLarge)?;
            if declared > max {
                return Err(Refusal::TooLarge);
            }
            if declared > SMALL_BODY {
                self.reserve(&mut share, declared).await?;
            }
            bytes.reserve_exact(declared);
        }
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| refusal(&e))?;
            let Ok(data) = frame.into_data() else { continue };
            if bytes.len() + data.len() > max {
                return Err(Refusal::TooLarge);
            }
            if declared.is_none() {
                // Reserved as it comes: the pieces past the small allowance are paid for.
                let before = bytes.len().saturating_sub(SMALL_BODY);
                let after = (bytes.len() + data.len()).saturating_sub(SMALL_BODY);
                if after > before {
                    self.reserve(&mut share, after - before).await?;
                }
            }
            bytes.extend_from_slice(&data);
        }
        Ok(Received { bytes, share })
    }
}

/// What a body's error means: one of tower-http's timeouts, its size limit, or a broken
/// connection (the error is boxed by each layer it passed: its sources are searched).
fn refusal(error: &axum::Error) -> Refusal {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if e.is::<tower_http::timeout::TimeoutError>() {
            return Refusal::TimedOut;
        }
        if e.is::<http_body_util::LengthLimitError>() {
            return Refusal::TooLarge;
        }
        source = e.source();
    }
    Refusal::Broken(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(length: Option<usize>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(length) = length {
            headers.insert(header::CONTENT_LENGTH, length.to_string().parse().unwrap());
        }
        headers
    }

    /// Large bodies share the budget (twice their size each) and give it back when dropped; a
    /// body that finds it spent for the whole wait is refused, a small one never waits; sizes
    /// past the limit or the whole budget are refused at once.
    #[test]
    fn bodies_share_the_budget() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let budget = Budget::new(1 << 20, Duration::from_millis(50));
            let big = vec![b'x'; 300 << 10];
            let first = budget
                .receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20)
                .await
                .unwrap();
            assert_eq!(first.bytes, big);
            // 600 KiB of 1 MiB held: a second such body waits, then is refused.
            let second =
                budget.receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20).await;
            assert_eq!(second.err(), Some(Refusal::Busy));
            // Without a Content-Length, it is refused as its pieces come.
            let chunked = budget.receive(&headers(None), Body::from(big.clone()), 1 << 20).await;
            assert_eq!(chunked.err(), Some(Refusal::Busy));
            let small = budget.receive(&headers(Some(5)), Body::from("hello"), 1 << 20).await;
            assert_eq!(small.unwrap().bytes, b"hello");
            drop(first);
            let second =
                budget.receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20).await;
            assert!(second.is_ok());
            drop(second);
            let too_large = budget.receive(&headers(Some(2 << 20)), Body::from(""), 1 << 20).await;
            assert_eq!(too_large.err(), Some(Refusal::TooLarge));
            let over_budget =
                budget.receive(&headers(Some(600 << 10)), Body::from(""), 1 << 30).await;
            assert_eq!(over_budget.err(), Some(Refusal::TooLarge));
            let lying = budget.receive(&headers(None), Body::from(big), 100 << 10).await;
            assert_eq!(lying.err(), Some(Refusal::TooLarge));
        });
    }
}

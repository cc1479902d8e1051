//! Request bodies, received under a budget of bytes shared by every request (issue 40: forty
//! held 64 MiB uploads, each buffered whole at once, held 2.66 GB) and at a minimum pace
//! (issue 46).
//!
//! A body is read whole before it is used (an upload is JSON, parsed at once), so what bounds
//! memory is how many bytes all requests may hold together. The [`Budget`] is spent on bytes
//! received, never on sizes declared (issue 46: four sockets that declared 64 MiB each and
//! trickled it reserved the whole 512 MB before a byte came, and every honest upload got 503):
//! as a body's buffer grows past [`SMALL_BODY`] (by at most [`GROWTH_STEP`] beyond what it
//! received), twice the growth is reserved first (the buffer, then the files decoded from it),
//! and the share is held until the answer. A body's first share is waited for; a body that
//! already holds one and finds no room to grow is refused at once, giving its share back (had
//! it waited, forty bodies each holding a fortieth of the budget would wait for each other
//! until every one was refused); a first share not granted within the wait is refused too
//! (503 with Retry-After) rather than queued without end. A Content-Length is believed for
//! one thing only, to refuse at once a body larger than the limit; the buffer never grows past
//! it. Small bodies (a move, a
//! gallery game) reserve nothing, so uploads held by one client never stop another from
//! playing; the connection cap bounds them.
//!
//! A body must also keep a minimum pace ([`Pace`]): within the grace, plus one second for
//! every `min_rate` bytes received so far, counting only the time spent waiting on the client
//! (not the time the server spends waiting for room in the budget). A thousand bodies sent a
//! byte every 20 s are cut off (408) after the grace instead of holding their connections for
//! `--upload-timeout`. While it waits on the client, the request's connection competes for its
//! slot like an idle one ([`super::listen::Waiting`]).
//!
//! The size limit (413), the pause between two pieces of a body and the time for a whole body
//! (408) are tower-http's layers (see [`super::routes::router`]); this module tells their errors
//! apart when the body is read.

use super::listen::Waiting;
use axum::body::Body;
use axum::http::{header, HeaderMap};
use http_body_util::BodyExt;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A body up to this size reserves nothing from the budget (every move and every gallery game
/// fits: their bodies are a few dozen bytes).
pub const SMALL_BODY: usize = 64 << 10;

/// A body's buffer grows by at most this much at a time (doubling below it): what it holds
/// beyond what it received is at most this, or what it received when less. (glibc's realloc
/// moves a block this large by remapping its pages, not by copying them.)
const GROWTH_STEP: usize = 1 << 20;

/// The budget is counted in units of this many bytes (a semaphore's permits are `u32`).
const UNIT: usize = 1 << 10;

/// The slowest a body may come: `min_rate` bytes a second on average, after `grace`.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    pub min_rate: u64,
    pub grace: Duration,
}

impl Pace {
    /// How long a body that has `received` bytes may have waited on its client in all.
    fn allowed(&self, received: usize) -> Duration {
        let seconds = received as f64 / self.min_rate.max(1) as f64;
        self.grace.saturating_add(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX))
    }
}

/// The bytes all request bodies may hold at once.
#[derive(Clone)]
pub struct Budget {
    units: Arc<Semaphore>,
    total: usize,
    wait: Duration,
    pace: Pace,
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
    /// It came slower than the minimum pace (408).
    TooSlow { received: usize, waited: Duration },
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
    /// `bytes` in all, a request waiting at most `wait` for its share; bodies at `pace`.
    pub fn new(bytes: usize, wait: Duration, pace: Pace) -> Budget {
        let units = (bytes / UNIT).clamp(1, u32::MAX as usize);
        Budget { units: Arc::new(Semaphore::new(units)), total: units * UNIT, wait, pace }
    }

    /// The bytes held by bodies now (their shares).
    pub fn held(&self) -> usize {
        self.total.saturating_sub(self.units.available_permits() * UNIT)
    }

    /// The bytes all bodies may hold.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Twice `bytes` more for `share` (in whole units): waited for when the share is empty,
    /// refused at once when it is not (a body that holds part of the budget never waits for
    /// more: bodies holding while waiting would starve each other).
    async fn reserve(&self, share: &mut Share, bytes: usize) -> Result<(), Refusal> {
        let units = bytes.saturating_mul(2).div_ceil(UNIT);
        let held = share.0.as_ref().map_or(0, |p| p.num_permits());
        if (held + units).saturating_mul(UNIT) > self.total {
            // More than the whole budget: waiting would never end.
            return Err(Refusal::TooLarge);
        }
        let units = u32::try_from(units).map_err(|_| Refusal::TooLarge)?;
        let granted = if held == 0 {
            let acquire = self.units.clone().acquire_many_owned(units);
            tokio::time::timeout(self.wait, acquire).await.ok().and_then(Result::ok)
        } else {
            self.units.clone().try_acquire_many_owned(units).ok()
        };
        match granted {
            Some(permit) => {
                match &mut share.0 {
                    Some(held) => held.merge(permit),
                    None => share.0 = Some(permit),
                }
                Ok(())
            }
            None => Err(Refusal::Busy),
        }
    }

    /// Receives `body` whole, at most `max` bytes (and at most its Content-Length), its share
    /// reserved as its buffer grows, at the budget's pace; `waiting` is told while the request
    /// waits on its client.
    pub async fn receive(
        &self,
        headers: &HeaderMap,
        mut body: Body,
        max: usize,
        waiting: Option<&Waiting>,
    ) -> Result<Received, Refusal> {
        let declared = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        // A declared size only refuses at once, and caps the buffer; it reserves nothing.
        let cap = match declared {
            Some(declared) => match usize::try_from(declared) {
                Ok(declared) if declared <= max => declared,
                _ => return Err(Refusal::TooLarge),
            },
            None => max,
        };
        let on_client = waiting.map(Waiting::on_client);
        let mut share = Share(None);
        let mut bytes: Vec<u8> = Vec::new();
        let mut waited = Duration::ZERO;
        loop {
            let left = self.pace.allowed(bytes.len()).saturating_sub(waited);
            let asked = Instant::now();
            let frame = match tokio::time::timeout(left, body.frame()).await {
                Ok(Some(frame)) => frame,
                Ok(None) => break,
                Err(_) => {
                    return Err(Refusal::TooSlow {
                        received: bytes.len(),
                        waited: waited + asked.elapsed(),
                    })
                }
            };
            waited += asked.elapsed();
            if let Some(on_client) = &on_client {
                on_client.progress();
            }
            let frame = frame.map_err(|e| refusal(&e))?;
            let Ok(data) = frame.into_data() else { continue };
            let needed = bytes.len() + data.len();
            if needed > cap {
                return Err(Refusal::TooLarge);
            }
            if needed > bytes.capacity() {
                // Doubling up to a step of GROWTH_STEP, never past the cap: a buffer holds at
                // most a step (or twice) more than it received, and what it holds is paid for.
                let step = bytes.capacity().min(GROWTH_STEP);
                let grown = needed.max(bytes.capacity().saturating_add(step)).min(cap);
                let paid = bytes.capacity().max(SMALL_BODY);
                if grown > paid {
                    self.reserve(&mut share, grown - paid).await?;
                }
                bytes.reserve_exact(grown - bytes.len());
            }
            bytes.extend_from_slice(&data);
        }
        if declared.is_some_and(|declared| declared != bytes.len() as u64) {
            // hyper ends such a body with an error; this holds without it too.
            return Err(Refusal::Broken("the body is shorter than its Content-Length".into()));
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

    /// A body sent piece by piece through the returned sender (ended when it is dropped).
    fn channel() -> (tokio::sync::mpsc::Sender<Vec<u8>>, Body) {
        struct Pieces(tokio::sync::mpsc::Receiver<Vec<u8>>);
        impl axum::body::HttpBody for Pieces {
            type Data = axum::body::Bytes;
            type Error = std::convert::Infallible;
            fn poll_frame(
                mut self: std::pin::Pin<&mut Self>,
                cx: &mut std::task::Context<'_>,
            ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>>
            {
                self.0
                    .poll_recv(cx)
                    .map(|piece| piece.map(|p| Ok(hyper::body::Frame::data(p.into()))))
            }
        }
        let (sender, receiver) = tokio::sync::mpsc::channel(4);
        (sender, Body::new(Pieces(receiver)))
    }

    fn budget(bytes: usize) -> Budget {
        let pace = Pace { min_rate: 1 << 20, grace: Duration::from_secs(5) };
        Budget::new(bytes, Duration::from_millis(50), pace)
    }

    /// Large bodies share the budget (twice what they hold each) and give it back when
    /// dropped; a body that finds it spent for the whole wait is refused, a small one never
    /// waits; sizes past the limit or the whole budget are refused at once.
    #[test]
    fn bodies_share_the_budget() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let budget = budget(1 << 20);
            let big = vec![b'x'; 400 << 10];
            let first = budget
                .receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20, None)
                .await
                .unwrap();
            assert_eq!(first.bytes, big);
            assert_eq!(first.bytes.capacity(), big.len(), "the buffer stops at the declared size");
            // What is held past the small allowance, twice: 672 KiB of 1 MiB.
            assert_eq!(budget.held(), 2 * ((400 << 10) - SMALL_BODY));
            // A second such body waits, then is refused.
            let second = budget
                .receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20, None)
                .await;
            assert_eq!(second.err(), Some(Refusal::Busy));
            // Without a Content-Length, it is refused as its pieces come.
            let chunked =
                budget.receive(&headers(None), Body::from(big.clone()), 1 << 20, None).await;
            assert_eq!(chunked.err(), Some(Refusal::Busy));
            let small = budget.receive(&headers(Some(5)), Body::from("hello"), 1 << 20, None).await;
            assert_eq!(small.unwrap().bytes, b"hello");
            drop(first);
            assert_eq!(budget.held(), 0);
            let second = budget
                .receive(&headers(Some(big.len())), Body::from(big.clone()), 1 << 20, None)
                .await;
            assert!(second.is_ok());
            drop(second);
            let too_large =
                budget.receive(&headers(Some(2 << 20)), Body::from(""), 1 << 20, None).await;
            assert_eq!(too_large.err(), Some(Refusal::TooLarge));
            let over = vec![b'x'; 600 << 10];
            let over_budget =
                budget.receive(&headers(Some(over.len())), Body::from(over), 1 << 30, None).await;
            assert_eq!(over_budget.err(), Some(Refusal::TooLarge));
            let lying =
                budget.receive(&headers(None), Body::from(big.clone()), 100 << 10, None).await;
            assert_eq!(lying.err(), Some(Refusal::TooLarge));
            // A body longer than its Content-Length is refused, not buffered past it.
            let longer = budget.receive(&headers(Some(1000)), Body::from(big), 1 << 20, None).await;
            assert_eq!(longer.err(), Some(Refusal::TooLarge));
        });
    }

    /// A declared size reserves nothing: a body that declares the whole budget and sends a
    /// little holds only that little, and another upload is received meanwhile.
    #[test]
    fn a_declared_size_reserves_nothing() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let budget = budget(1 << 20);
            let (sender, trickled) = channel();
            let declared = headers(Some(500 << 10));
            let slow = {
                let budget = budget.clone();
                tokio::spawn(
                    async move { budget.receive(&declared, trickled, 1 << 20, None).await },
                )
            };
            sender.send(vec![b'x'; 100]).await.unwrap();
            tokio::time::sleep(Duration::from_millis(20)).await;
            assert_eq!(budget.held(), 0, "100 bytes of a declared 500 KiB");
            let honest = vec![b'y'; 400 << 10];
            let other = budget
                .receive(&headers(Some(honest.len())), Body::from(honest), 1 << 20, None)
                .await;
            assert!(other.is_ok());
            drop(sender);
            assert!(slow.await.unwrap().is_err(), "a body cut short is not received");
        });
    }

    /// A body slower than the pace is cut off once its allowance is spent: the grace, and a
    /// second a `min_rate` bytes received.
    #[test]
    fn a_body_slower_than_the_pace_is_cut_off() {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let pace = Pace { min_rate: 1000, grace: Duration::from_millis(100) };
            let budget = Budget::new(1 << 20, Duration::from_millis(50), pace);
            let (sender, trickled) = channel();
            let feeding = tokio::spawn(async move {
                for _ in 0..100 {
                    if sender.send(vec![b'x'; 10]).await.is_err() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(40)).await;
                }
            });
            let started = Instant::now();
            let cut = budget.receive(&headers(Some(1000)), trickled, 1 << 20, None).await;
            let took = started.elapsed();
            // 10 bytes every 40 ms is 250 bytes a second: cut near 0.1 s + received / 1000.
            match cut {
                Err(Refusal::TooSlow { received, .. }) => assert!(received < 100, "{received}"),
                other => panic!("{:?}", other.map(|r| r.bytes.len())),
            }
            assert!(took < Duration::from_secs(1), "{took:?}");
            feeding.abort();
            // At the pace, the same body is received.
            let (sender, steady) = channel();
            tokio::spawn(async move {
                for _ in 0..10 {
                    let _ = sender.send(vec![b'x'; 100]).await;
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            });
            let whole = budget.receive(&headers(Some(1000)), steady, 1 << 20, None).await;
            assert_eq!(whole.map(|r| r.bytes.len()).ok(), Some(1000));
        });
    }
}

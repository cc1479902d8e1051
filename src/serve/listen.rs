//! The server's own accept loop (issue 40): connections bounded in number, in time and in
//! what they hold, and a graceful stop.
//!
//! `axum::serve` installs no timer in hyper, so hyper's header-read timeout never acts and a
//! socket that sends nothing is held for ever (tokio-rs/axum#2741): 1,100 of them locked every
//! other client out of a server limited to 1,024 open files. Here each connection is hyper's
//! HTTP/1 connection with hyper-util's timer, so that:
//!
//! - a request's headers must arrive whole within the header timeout of the connection opening
//!   or of its previous answer (hyper's `header_read_timeout`: a silent socket, a slow partial
//!   header and a kept-alive connection left unused are all closed after it);
//! - an answer the client stops reading for the idle timeout ends its connection
//!   ([`Stalls`]; hyper has no write timeout, and an unread answer holds its bytes);
//! - a connection buffers at most [`MAX_BUFFER`] of a request at a time (hyper's default is
//!   about 400 KB, times every slow client).
//!
//! At most [`Connections::max`] connections are open at once, the file descriptors of the
//! process's limit less [`RESERVE`]; when a new one comes at the cap, the connection idle the
//! longest is closed to make room, and when every one has a request in flight the new one is
//! answered 503 and closed. Idle means waiting on the client: for its first or next request,
//! part way through its headers, or part way through a request's body (issue 46: a thousand
//! bodies trickled a byte every 20 s held every slot "in flight" and the page answered 503 to
//! everyone). A request says so with the [`Waiting`] handle each request carries; such a
//! connection is idle since the last piece of body it sent, so an upload that keeps coming is
//! the last to go. Accept errors (out of file descriptors, of memory) back off
//! instead of spinning: the pending connection stays queued and would fail again at once.
//!
//! Ctrl-C or SIGTERM stops the accept loop; hyper-util's [`GracefulShutdown`] lets the
//! requests in flight finish (kept-alive connections close after their answer) for at most
//! [`Connections::grace`].

use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};

/// File descriptors kept out of the connection cap: the process's own (standard streams, the
/// runtime's, the listener) and the connections between being accepted and being closed or
/// refused.
pub const RESERVE: u64 = 64;

/// The most of a request hyper buffers on one connection at a time (its headers, or a piece of
/// its body): hyper's minimum is 8 KiB; the page's requests have headers of a few hundred bytes.
pub const MAX_BUFFER: usize = 64 << 10;

/// Refusals (503) written at once at most; past them a connection is closed unanswered, so
/// that a flood cannot hold the reserve of file descriptors.
const MAX_REFUSING: usize = 16;

/// How the connections are bounded.
#[derive(Clone, Debug)]
pub struct Connections {
    /// Open connections at most (already lowered to what the open-file limit allows).
    pub max: usize,
    /// A request's headers must arrive within this long of the connection opening or of its
    /// previous answer.
    pub header_timeout: Duration,
    /// An answer the client does not read for this long ends its connection.
    pub idle_timeout: Duration,
    /// How long requests in flight may finish after Ctrl-C or SIGTERM.
    pub grace: Duration,
}

/// The open-file limit's share for connections: at most `wanted`, and at most the limit less
/// [`RESERVE`]. The soft limit is first raised towards the hard one as far as `wanted` needs
/// (a server asks for the descriptors it will use; it never lowers the limit). Returns the
/// connections allowed and the soft limit then in force (`None` where it cannot be read).
pub fn connection_cap(wanted: usize) -> (usize, Option<u64>) {
    let wanted64 = wanted as u64;
    let Some(limit) = open_file_limit(wanted64.saturating_add(RESERVE)) else {
        return (wanted, None);
    };
    let allowed = limit.saturating_sub(RESERVE).max(1);
    (wanted.min(usize::try_from(allowed).unwrap_or(usize::MAX)), Some(limit))
}

#[cfg(unix)]
fn open_file_limit(wanted: u64) -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        let target = (wanted as libc::rlim_t).min(limit.rlim_max);
        if target > limit.rlim_cur {
            let raised = libc::rlimit { rlim_cur: target, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = target;
            }
        }
    }
    // rlim_t is u64 on Linux, but not on every Unix.
    #[allow(clippy::unnecessary_cast)]
    Some(limit.rlim_cur as u64)
}

#[cfg(not(unix))]
fn open_file_limit(_wanted: u64) -> Option<u64> {
    None
}

/// The open connections: which have a request in flight, and since when the others are idle.
#[derive(Default)]
struct Registry {
    slots: Mutex<Slots>,
}

#[derive(Default)]
struct Slots {
    open: HashMap<u64, Slot>,
    next: u64,
}

struct Slot {
    /// Requests in flight (HTTP/1: 0 or 1).
    busy: usize,
    /// Whether its request in flight waits on the client (for its body).
    waiting: bool,
    /// When it last became idle (or was opened), or last received a piece of the body it
    /// waits on.
    idle_since: Instant,
    /// Told once the connection is to be closed to make room.
    close: Arc<Notify>,
    closing: bool,
}

impl Registry {
    fn slots(&self) -> std::sync::MutexGuard<'_, Slots> {
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new connection, idle; forgotten when the returned handle is dropped.
    fn open(self: &Arc<Self>) -> (Handle, Arc<Notify>) {
        let close = Arc::new(Notify::new());
        let mut slots = self.slots();
        slots.next += 1;
        let id = slots.next;
        let slot = Slot {
            busy: 0,
            waiting: false,
            idle_since: Instant::now(),
            close: close.clone(),
            closing: false,
        };
        slots.open.insert(id, slot);
        (Handle { registry: self.clone(), id }, close)
    }

    /// Tells the connection idle the longest to close; whether there was one.
    fn close_oldest_idle(&self) -> bool {
        let mut slots = self.slots();
        let oldest = slots
            .open
            .values_mut()
            .filter(|slot| (slot.busy == 0 || slot.waiting) && !slot.closing)
            .min_by_key(|slot| slot.idle_since);
        match oldest {
            Some(slot) => {
                slot.closing = true;
                slot.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// One connection's place in the registry.
struct Handle {
    registry: Arc<Registry>,
    id: u64,
}

impl Handle {
    /// The handle a request carries to say when it waits on the client.
    fn waiting(&self) -> Waiting {
        Waiting { registry: self.registry.clone(), id: self.id }
    }

    /// A request begins; it ends when the returned guard is dropped.
    fn busy(&self) -> Busy {
        if let Some(slot) = self.registry.slots().open.get_mut(&self.id) {
            slot.busy += 1;
        }
        Busy { registry: self.registry.clone(), id: self.id }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.registry.slots().open.remove(&self.id);
    }
}

/// A request in flight on a connection.
struct Busy {
    registry: Arc<Registry>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(slot) = self.registry.slots().open.get_mut(&self.id) {
            slot.busy = slot.busy.saturating_sub(1);
            if slot.busy == 0 {
                slot.idle_since = Instant::now();
            }
        }
    }
}

/// A request's handle on its connection's slot (a request extension; absent when a router is
/// called without this accept loop, as in-process tests do): while the request waits on its
/// client, its connection may be closed to make room like an idle one.
#[derive(Clone)]
pub struct Waiting {
    registry: Arc<Registry>,
    id: u64,
}

impl Waiting {
    fn mark(&self, waiting: bool) {
        if let Some(slot) = self.registry.slots().open.get_mut(&self.id) {
            slot.waiting = waiting;
            slot.idle_since = Instant::now();
        }
    }

    /// The request now waits on its client, until the returned guard is dropped.
    pub fn on_client(&self) -> OnClient {
        self.mark(true);
        OnClient(self.clone())
    }
}

/// A request waiting on its client; its connection is idle since the last [`OnClient::progress`].
pub struct OnClient(Waiting);

impl OnClient {
    /// The client sent something: its connection is idle from now on.
    pub fn progress(&self) {
        self.0.mark(true);
    }
}

impl Drop for OnClient {
    fn drop(&mut self) {
        self.0.mark(false);
    }
}

/// A connection's stream with a write timeout: a write that makes no progress for the limit
/// fails (the client stopped reading its answer), which ends the connection. Reads are left to
/// hyper's header timeout and tower-http's body timeouts.
struct Stalls {
    io: TcpStream,
    limit: Duration,
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Stalls {
    fn new(io: TcpStream, limit: Duration) -> Stalls {
        Stalls { io, limit, stalled: None }
    }

    /// `result` of a write, with the stall timer started when it is pending and stopped when
    /// it is not.
    fn timed<T>(
        &mut self,
        cx: &mut Context<'_>,
        result: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if result.is_ready() {
            self.stalled = None;
            return result;
        }
        let limit = self.limit;
        let timer = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(limit)));
        match timer.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading its answer",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Stalls {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl AsyncWrite for Stalls {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.io).poll_write(cx, buf);
        self.timed(cx, result)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let result = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.timed(cx, result)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.io).poll_flush(cx);
        self.timed(cx, result)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let result = Pin::new(&mut self.io).poll_shutdown(cx);
        self.timed(cx, result)
    }
}

/// The answer to a connection that finds every connection busy.
const REFUSAL: &str = "{\"error\": \"the server has as many connections open as it allows, \
                       each with a request in flight: try again in a moment\"}";

/// Answers 503 on `stream` and closes it, within a second: the request is read and dropped
/// until the client closes its side (closing with unread bytes would reset the connection,
/// and the client could lose the answer).
async fn refuse(mut stream: TcpStream) {
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Retry-After: 2\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{REFUSAL}",
        REFUSAL.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), io::Error>(())
    })
    .await;
}

/// Whether an accept error is about the one connection (it went away before it was taken),
/// rather than the process (out of file descriptors or memory), which needs a pause.
fn about_the_connection(error: &io::Error) -> bool {
    matches!(
        error.kind(),
        io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionRefused
            | io::ErrorKind::Interrupted
    )
}

/// Serves `router` on `listener` within `limits` until `stop` completes, then lets the
/// requests in flight finish for at most the grace.
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Connections,
    stop: impl Future<Output = ()>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true)
        .max_buf_size(MAX_BUFFER);
    let registry = Arc::new(Registry::default());
    let slots = Arc::new(Semaphore::new(limits.max));
    let refusing = Arc::new(Semaphore::new(MAX_REFUSING));
    let graceful = GracefulShutdown::new();
    let mut backoff = Duration::from_millis(5);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut stop => break,
        };
        let stream = match accepted {
            Ok((stream, _)) => {
                backoff = Duration::from_millis(5);
                stream
            }
            Err(error) if about_the_connection(&error) => continue,
            Err(_) => {
                // Out of file descriptors (or memory): the connection stays queued, so trying
                // again at once would spin. Make room and wait, longer each time.
                registry.close_oldest_idle();
                tokio::select! {
                    () = tokio::time::sleep(backoff) => {}
                    () = &mut stop => break,
                }
                backoff = (backoff * 2).min(Duration::from_secs(1));
                continue;
            }
        };
        let slot = match slots.clone().try_acquire_owned() {
            Ok(slot) => Some(slot),
            Err(_) if registry.close_oldest_idle() => {
                // The closed connection gives its slot back as soon as its task runs.
                tokio::time::timeout(Duration::from_secs(1), slots.clone().acquire_owned())
                    .await
                    .ok()
                    .and_then(Result::ok)
            }
            Err(_) => None,
        };
        let Some(slot) = slot else {
            if let Ok(refusing) = refusing.clone().try_acquire_owned() {
                tokio::spawn(async move {
                    refuse(stream).await;
                    drop(refusing);
                });
            }
            continue;
        };
        let _ = stream.set_nodelay(true);
        let (handle, close) = registry.open();
        let hyper_service = TowerToHyperService::new(router.clone());
        let service = hyper::service::service_fn(move |mut request: hyper::Request<_>| {
            request.extensions_mut().insert(handle.waiting());
            let busy = handle.busy();
            let answer = hyper::service::Service::call(&hyper_service, request);
            async move {
                let answer = answer.await;
                drop(busy);
                answer
            }
        });
        let io = TokioIo::new(Stalls::new(stream, limits.idle_timeout));
        let connection = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            tokio::select! {
                _ = connection => {}
                () = close.notified() => {}
            }
            // The stream is closed (dropped with the connection) before the slot is given back.
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(limits.grace, graceful.shutdown()).await;
}

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
    }
    // Without a handler, the process ends as it always did on Ctrl-C.
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The connection idle the longest is the one closed; a connection with a request in
    /// flight never is; a closed connection is forgotten.
    #[test]
    fn the_oldest_idle_connection_is_closed_first() {
        let registry = Arc::new(Registry::default());
        let (first, first_close) = registry.open();
        std::thread::sleep(Duration::from_millis(2));
        let (second, second_close) = registry.open();
        let busy = first.busy();
        assert!(registry.close_oldest_idle());
        assert!(registry.slots().open[&second.id].closing);
        assert!(!registry.slots().open[&first.id].closing);
        // Each is told once: the second is closing, the first busy.
        assert!(!registry.close_oldest_idle());
        drop(busy);
        assert!(registry.close_oldest_idle());
        // A request waiting on its body is idle since its last piece: a third connection
        // whose request waits on its client is closed before a fourth whose request works.
        let (third, third_close) = registry.open();
        let (fourth, _fourth_close) = registry.open();
        let _working = fourth.busy();
        let _receiving = third.busy();
        let waiting = third.waiting().on_client();
        waiting.progress();
        assert!(registry.close_oldest_idle());
        assert!(registry.slots().open[&third.id].closing);
        assert!(!registry.close_oldest_idle(), "a request at work is never closed");
        drop(waiting);
        assert!(!registry.slots().open[&third.id].waiting);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            // Both were told (a notification waits for its listener).
            first_close.notified().await;
            second_close.notified().await;
            third_close.notified().await;
        });
        drop((first, second, third, fourth));
        assert!(registry.slots().open.is_empty());
    }

    /// The cap never exceeds what the open-file limit leaves.
    #[test]
    fn the_cap_fits_the_open_file_limit() {
        let (cap, limit) = connection_cap(usize::MAX);
        if let Some(limit) = limit {
            assert_eq!(cap as u64, limit.saturating_sub(RESERVE).max(1));
        }
        assert_eq!(connection_cap(3).0, 3);
    }
}

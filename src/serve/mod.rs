//! `gamecert serve`: a page in the browser, from the same binary (issue 34). A gallery of the
//! papers' examples, the checker's verdict on an uploaded instance and certificate, and games
//! against a certified strategy, played by clicks.
//!
//! - [`routes`]: the HTTP routes (the page, its assets, the JSON API) and their errors.
//! - [`gallery`]: the cases offered, each checked once (only accepted ones kept), with its
//!   picture and claim; prepared on a thread of its own while the server already listens.
//! - [`games`]: the games in play, kept on the server (bounded in number, length and bytes).
//! - [`upload`]: uploaded texts run through `gamecert verify`'s own pipeline, and strategies
//!   read from uploads; never a path on the server's disk.
//! - [`bodies`]: request bodies received under a budget of bytes shared by all requests.
//! - [`listen`]: the accept loop: connections capped (the oldest idle closed first), timed
//!   out, and stopped gracefully on Ctrl-C or SIGTERM.
//! - `page.html`, `page.css`, `page.js`: the page, embedded (vanilla JavaScript, nothing
//!   fetched at run time).
//!
//! The server holds (issue 40: a red team's attacks on loopback, each a class of abuse bounded
//! here by a flag whose default docs/serve.md states): every check, every game's move and
//! every view drawn runs on the blocking pool behind one semaphore of as many permits as cores
//! ([`Checks`]), and a request that waits longer than [`Config::check_wait`] gets 503 with
//! Retry-After; a game's view is drawn once per change and re-read from memory; bodies are
//! bounded each ([`Config::max_upload_bytes`], 413) and together ([`Config::max_uploads_bytes`],
//! 503), in pauses and in total time (408); games in bytes; connections in number and time
//! ([`listen`]). A panic in any blocking task is caught and answered with 500. Like the rest of
//! the library it prints nothing: the command line says where it listens.

pub mod bodies;
pub mod gallery;
pub mod games;
pub mod listen;
pub mod routes;
pub mod upload;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to bind (127.0.0.1 by default: a server for this machine).
    pub bind: IpAddr,
    /// The port; 0 lets the system pick one.
    pub port: u16,
    /// The largest request body accepted (413 past it).
    pub max_upload_bytes: usize,
    /// The bytes all request bodies may hold at once, each large one counted twice (its body
    /// and the files decoded from it): 503 when a body cannot have its share in time.
    pub max_uploads_bytes: usize,
    /// The checker's budget, as `verify --max-work` (`None`: verify's default).
    pub max_work: Option<u64>,
    /// How long a request waits for a free check (or a free share of the upload budget)
    /// before 503.
    pub check_wait: Duration,
    /// Open connections at most (lowered to what the open-file limit allows).
    pub max_connections: usize,
    /// A request's headers must arrive whole within this long of the connection opening or of
    /// its previous answer.
    pub header_timeout: Duration,
    /// A request body that pauses, or an answer the client stops reading, for this long ends
    /// the request (408) or the connection.
    pub idle_timeout: Duration,
    /// A request body must arrive whole within this long (408).
    pub upload_timeout: Duration,
    /// The bytes one game's moves may take (further moves refused).
    pub max_game_bytes: usize,
    /// The bytes all games together may take (the least recently used dropped).
    pub max_games_bytes: usize,
    /// How long requests in flight may finish after Ctrl-C or SIGTERM.
    pub grace: Duration,
    /// Checks, moves and views run at once (`None`: as many as cores).
    pub checks: Option<usize>,
    /// Games kept at once, and of them from uploaded files.
    pub max_games: usize,
    pub max_uploaded_games: usize,
    /// Positions one game keeps (further moves refused).
    pub max_game_positions: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            max_upload_bytes: 64 << 20,
            max_uploads_bytes: 512 << 20,
            max_work: None,
            check_wait: Duration::from_secs(5),
            max_connections: 1000,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            upload_timeout: Duration::from_secs(120),
            max_game_bytes: 16 << 20,
            max_games_bytes: 512 << 20,
            grace: Duration::from_secs(10),
            checks: None,
            max_games: games::MAX_GAMES,
            max_uploaded_games: games::MAX_UPLOADED_GAMES,
            max_game_positions: games::MAX_HISTORY,
        }
    }
}

/// Why the server stopped (or could not start).
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on {0}: {1}")]
    Bind(SocketAddr, std::io::Error),
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// The work that may run at once (checks, and games' moves and views): a semaphore of as many
/// permits as cores, each job on the blocking pool with its panic caught.
#[derive(Clone)]
pub struct Checks {
    permits: Arc<tokio::sync::Semaphore>,
    wait: Duration,
}

/// Why a blocking task gave no answer.
#[derive(Debug)]
pub enum Refused {
    /// Every permit stayed taken for the whole wait.
    Busy,
    /// The task panicked (or was cancelled): a fault of the server, reported as 500.
    Fault(String),
}

impl Checks {
    /// `permits` at once (`None`: as many as cores); a job waits at most `wait` for one.
    pub fn new(wait: Duration, permits: Option<usize>) -> Checks {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let permits = permits.unwrap_or(cores);
        Checks { permits: Arc::new(tokio::sync::Semaphore::new(permits)), wait }
    }

    /// Runs `job` (a check, a move, a view) once a permit is free, waiting at most the
    /// configured time.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let acquire = self.permits.clone().acquire_owned();
        let permit = match tokio::time::timeout(self.wait, acquire).await {
            Ok(Ok(permit)) => permit,
            _ => return Err(Refused::Busy),
        };
        blocking(move || {
            let _permit = permit;
            job()
        })
        .await
    }
}

/// Runs `job` on the blocking pool, its panic caught.
async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Refused> {
    let task = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
    });
    match task.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(panic)) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a fault".into());
            Err(Refused::Fault(what))
        }
        Err(join) => Err(Refused::Fault(join.to_string())),
    }
}

/// Everything the handlers share.
pub struct App {
    pub config: Config,
    /// The gallery, prepared beside the server (with `GET /api/gallery`'s answer, made once).
    pub gallery: gallery::Preparing,
    pub games: games::Games,
    pub checks: Checks,
    pub bodies: bodies::Budget,
}

impl App {
    /// The shared state of a server with `config`, its gallery still to be prepared.
    pub fn new(config: Config) -> App {
        App {
            gallery: gallery::Preparing::new(),
            games: games::Games::new(
                config.max_games_bytes,
                (config.max_games, config.max_uploaded_games),
            ),
            checks: Checks::new(config.check_wait, config.checks),
            bodies: bodies::Budget::new(config.max_uploads_bytes, config.check_wait),
            config,
        }
    }
}

/// Serves with `config` until Ctrl-C or SIGTERM (then the requests in flight finish, for at
/// most [`Config::grace`]); `listening` is told the address once the socket is bound (the
/// command line prints it). The gallery is `prepare`d meanwhile, on a thread of its own that
/// reports its progress through [`gallery::Preparing::report`] and returns the gallery or why
/// there is none: the page and the API answer from the first moment, the gallery's routes with
/// 503 and how far the preparation has got until it is ready.
pub fn serve(
    config: Config,
    prepare: impl FnOnce(&gallery::Preparing) -> Result<gallery::Gallery, String> + Send + 'static,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let served = runtime.block_on(async move {
        let address = SocketAddr::new(config.bind, config.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| ServeError::Bind(address, e))?;
        let bound = listener.local_addr()?;
        let limits = listen::Connections {
            max: config.max_connections,
            header_timeout: config.header_timeout,
            idle_timeout: config.idle_timeout,
            grace: config.grace,
        };
        let app = Arc::new(App::new(config));
        listening(bound);
        let preparing = app.clone();
        std::thread::Builder::new().name("gallery".into()).spawn(move || {
            // A panic while preparing is a gallery that failed, not a server gone.
            let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                prepare(&preparing.gallery)
            }));
            let outcome = made.unwrap_or_else(|_| Err("a fault while preparing it".into()));
            preparing.gallery.finish(outcome);
        })?;
        listen::run(listener, routes::router(app), limits, listen::stop_signal()).await;
        Ok(())
    });
    // A check still running after the grace (the blocking pool cannot be interrupted) is
    // waited for a second at most: its answer has nobody left to read it.
    runtime.shutdown_timeout(Duration::from_secs(1));
    served
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic in a blocking task is an answer (500), not a dead server; a check that finds
    /// every permit taken for the whole wait is refused as busy (503).
    #[test]
    fn panics_are_caught_and_a_full_pool_refuses() {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let fault = blocking(|| -> u8 { panic!("on purpose") }).await;
            assert!(matches!(fault, Err(Refused::Fault(ref what)) if what == "on purpose"));
            let checks = Checks::new(Duration::from_millis(50), None);
            let cores = checks.permits.available_permits();
            let slow: Vec<_> = (0..cores)
                .map(|_| {
                    let checks = checks.clone();
                    tokio::spawn(async move {
                        checks.run(|| std::thread::sleep(Duration::from_millis(600))).await
                    })
                })
                .collect();
            tokio::time::sleep(Duration::from_millis(150)).await;
            assert!(matches!(checks.run(|| 1).await, Err(Refused::Busy)));
            for task in slow {
                assert!(task.await.unwrap().is_ok());
            }
            assert_eq!(checks.run(|| 2).await.unwrap(), 2);
        });
    }
}

//! `gamecert serve`: a page in the browser, from the same binary (issue 34). A gallery of the
//! papers' examples, the checker's verdict on an uploaded instance and certificate, and games
//! against a certified strategy, played by clicks.
//!
//! - [`routes`]: the HTTP routes (the page, its assets, the JSON API) and their errors.
//! - [`gallery`]: the cases offered, each checked once at start-up (only accepted ones kept),
//!   with its picture and claim.
//! - [`games`]: the games in play, kept on the server (bounded in number and in length).
//! - [`upload`]: uploaded texts run through `gamecert verify`'s own pipeline, and strategies
//!   read from uploads; never a path on the server's disk.
//! - `page.html`, `page.css`, `page.js`: the page, embedded (vanilla JavaScript, nothing
//!   fetched at run time).
//!
//! The server holds: every check runs on the blocking pool behind a semaphore of as many
//! permits as cores ([`Checks`]); a request that waits longer than [`Config::check_wait`] gets
//! 503 with Retry-After; bodies are bounded ([`Config::max_upload_bytes`], 413 past it); a
//! panic in any blocking task is caught and answered with 500. Like the rest of the library it
//! prints nothing: the command line says where it listens.

pub mod gallery;
pub mod games;
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
    /// The checker's budget, as `verify --max-work` (`None`: verify's default).
    pub max_work: Option<u64>,
    /// How long a request waits for a free check before 503.
    pub check_wait: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            max_upload_bytes: 64 << 20,
            max_work: None,
            check_wait: Duration::from_secs(5),
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

/// The checks that may run at once: a semaphore of as many permits as cores, each check on the
/// blocking pool with its panic caught.
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
    /// As many permits as cores.
    pub fn new(wait: Duration) -> Checks {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Checks { permits: Arc::new(tokio::sync::Semaphore::new(cores)), wait }
    }

    /// Runs `job` (a check) once a permit is free, waiting at most the configured time.
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

/// Runs `job` on the blocking pool (not counted as a check: a game's move), its panic caught.
pub async fn blocking<T: Send + 'static>(
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
    pub gallery: gallery::Gallery,
    pub games: games::Games,
    pub checks: Checks,
}

/// Serves `gallery` with `config` until the process ends; `listening` is told the address
/// once the socket is bound (the command line prints it).
pub fn serve(
    config: Config,
    gallery: gallery::Gallery,
    listening: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let address = SocketAddr::new(config.bind, config.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| ServeError::Bind(address, e))?;
        let bound = listener.local_addr()?;
        let checks = Checks::new(config.check_wait);
        let app = App { config, gallery, games: games::Games::default(), checks };
        listening(bound);
        axum::serve(listener, routes::router(Arc::new(app))).await?;
        Ok(())
    })
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
            let checks = Checks::new(Duration::from_millis(50));
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

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
//! here by a flag whose default docs/serve.md states; issue 46, round 6, made it share fairly):
//!
//! - **Two pools.** Checks (a verify, the check of an uploaded certificate before a game) and
//!   plays (a move, a view drawn, a hint, a gallery game) wait for permits of their own
//!   ([`Checks`], [`Plays`]), so that no number of checks queued makes a player wait: four
//!   clients looping on a 5.5 s check made 7 of 9 of a player's requests fail before. Checks
//!   run on threads of their own at a lower priority (nice 10 on Linux), so a move gets the
//!   processor first; plays run on tokio's blocking pool.
//! - **Memory for checks.** Each check reserves its work budget, in bytes (the checker's unit
//!   is about a byte held, docs/checker-limits.md), from one server-wide budget
//!   ([`Config::checks_memory`]) before it starts; a check whose budget is larger than the whole
//!   is run with the whole as its budget (and says so). Two 60 MB uploads took 3.7 GB before.
//! - A request that waits longer than [`Config::check_wait`] for its permit or its memory gets
//!   503 with Retry-After. A game's view is drawn once per change and re-read from memory;
//!   bodies are bounded each ([`Config::max_upload_bytes`], 413) and together
//!   ([`Config::max_uploads_bytes`], 503, spent on bytes received), in pace, pauses and total
//!   time (408); games in bytes, as measured ([`crate::base::held`]); connections in number
//!   and time ([`listen`]). A panic in any task is caught and answered with 500. Like the rest
//!   of the library it prints nothing: the command line says where it listens.

pub mod bodies;
pub mod docs;
pub mod gallery;
pub mod games;
pub mod listen;
pub mod routes;
pub mod site;
pub mod upload;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

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
    /// and the files decoded from it) as it arrives: 503 when a body cannot have its share in
    /// time.
    pub max_uploads_bytes: usize,
    /// The slowest a body may arrive, in bytes a second on average after the idle timeout (the
    /// pause a body may make; 408 past it).
    pub min_upload_rate: u64,
    /// The checker's budget, as `verify --max-work` (`None`: verify's default).
    pub max_work: Option<u64>,
    /// The bytes the checks running at once may reserve (each its work budget).
    pub checks_memory: u64,
    /// How long a request waits for a free check or play (or a free share of the upload
    /// budget, or memory for its check) before 503.
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
    /// Checks run at once (`None`: as many as cores).
    pub checks: Option<usize>,
    /// Moves, views and hints run at once (`None`: as many as cores).
    pub plays: Option<usize>,
    /// Games kept at once, and of them from uploaded files.
    pub max_games: usize,
    pub max_uploaded_games: usize,
    /// Positions one game keeps (further moves refused).
    pub max_game_positions: usize,
}

/// The memory checks may reserve by default: half the machine's memory, at most 4 GiB (two
/// checks at verify's default budget of 2 * 10^9 units at once, on a machine of 8 GB or more).
pub fn default_checks_memory() -> u64 {
    const MOST: u64 = 4 << 30;
    physical_memory().map_or(MOST, |bytes| (bytes / 2).min(MOST))
}

/// The machine's memory in bytes, where it can be read.
fn physical_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf only reads the configuration value named.
        let (pages, size) =
            unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
        if pages > 0 && size > 0 {
            return (pages as u64).checked_mul(size as u64);
        }
    }
    None
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::from([127, 0, 0, 1]),
            port: 8080,
            max_upload_bytes: 64 << 20,
            max_uploads_bytes: 512 << 20,
            min_upload_rate: 16 << 10,
            max_work: None,
            checks_memory: default_checks_memory(),
            check_wait: Duration::from_secs(5),
            max_connections: 1000,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            upload_timeout: Duration::from_secs(120),
            max_game_bytes: 16 << 20,
            max_games_bytes: 512 << 20,
            grace: Duration::from_secs(10),
            checks: None,
            plays: None,
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

/// The machine's cores, the default number of checks and of plays at once.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Why a task gave no answer.
#[derive(Debug)]
pub enum Refused {
    /// Every permit (or the memory) stayed taken for the whole wait: which pool.
    Busy(&'static str),
    /// The task panicked (or was cancelled): a fault of the server, reported as 500.
    Fault(String),
}

/// Waits at most `wait` for `acquire`, or is refused as `busy`.
async fn within<T, E>(
    wait: Duration,
    acquire: impl Future<Output = Result<T, E>>,
    busy: &'static str,
) -> Result<T, Refused> {
    match tokio::time::timeout(wait, acquire).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(Refused::Busy(busy)),
    }
}

/// Moves, views drawn, hints and gallery games: as many at once as permits (cores by default),
/// each on the blocking pool with its panic caught. Checks never take these permits.
#[derive(Clone)]
pub struct Plays {
    permits: Arc<Semaphore>,
    count: usize,
    wait: Duration,
}

impl Plays {
    /// `permits` at once (`None`: as many as cores); a job waits at most `wait` for one.
    pub fn new(wait: Duration, permits: Option<usize>) -> Plays {
        let count = permits.unwrap_or_else(cores);
        Plays { permits: Arc::new(Semaphore::new(count)), count, wait }
    }

    /// The plays worked on now, and how many may be at once.
    pub fn running(&self) -> (usize, usize) {
        (self.count - self.permits.available_permits(), self.count)
    }

    /// Runs `job` once a permit is free, waiting at most the configured time.
    pub async fn run<T: Send + 'static>(
        &self,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let acquire = self.permits.clone().acquire_owned();
        let permit = within(self.wait, acquire, "every player's turn is being worked on").await?;
        blocking(move || {
            let _permit = permit;
            job()
        })
        .await
    }
}

/// Checks: as many at once as permits (cores by default), each with its work budget reserved
/// in bytes from one memory budget before it starts, each on a thread of its own at a lower
/// priority, its panic caught.
#[derive(Clone)]
pub struct Checks {
    permits: Arc<Semaphore>,
    count: usize,
    /// Checks at work now (with their permit and their memory).
    working: Arc<AtomicUsize>,
    /// The memory budget in MiB (a semaphore counts `u32` permits).
    memory: Arc<Semaphore>,
    memory_mib: u32,
    wait: Duration,
}

/// The budget a check was given: its own, or the whole memory budget when its own is larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Granted {
    pub max_work: u64,
    /// Whether that is less than the check's own budget.
    pub lowered: bool,
}

const MIB: u64 = 1 << 20;

impl Checks {
    /// `permits` at once (`None`: as many as cores), `memory` bytes reserved at most; a check
    /// waits at most `wait` for both.
    pub fn new(wait: Duration, permits: Option<usize>, memory: u64) -> Checks {
        let memory_mib = u32::try_from((memory / MIB).max(1)).unwrap_or(u32::MAX);
        let count = permits.unwrap_or_else(cores);
        Checks {
            permits: Arc::new(Semaphore::new(count)),
            count,
            working: Arc::new(AtomicUsize::new(0)),
            memory: Arc::new(Semaphore::new(memory_mib as usize)),
            memory_mib,
            wait,
        }
    }

    /// The bytes checks may reserve in all, and those reserved now.
    pub fn memory(&self) -> (u64, u64) {
        let total = u64::from(self.memory_mib) * MIB;
        (total, total - self.memory.available_permits() as u64 * MIB)
    }

    /// The checks at work now (a permit and their memory held), and how many may run at once.
    pub fn running(&self) -> (usize, usize) {
        (self.working.load(Ordering::SeqCst), self.count)
    }

    /// What a check whose own budget is `work` units may spend here.
    pub fn grant(&self, work: u64) -> Granted {
        let whole = u64::from(self.memory_mib) * MIB;
        Granted { max_work: work.min(whole), lowered: work > whole }
    }

    /// Runs `job`, a check whose own budget is `work` units, once a permit and its memory are
    /// free, waiting at most the configured time for both; `job` is told its [`Granted`]
    /// budget.
    pub async fn run<T: Send + 'static>(
        &self,
        work: u64,
        job: impl FnOnce(Granted) -> T + Send + 'static,
    ) -> Result<T, Refused> {
        let granted = self.grant(work);
        let mib = u32::try_from(granted.max_work.div_ceil(MIB).max(1)).unwrap_or(u32::MAX);
        let deadline = tokio::time::Instant::now() + self.wait;
        let busy = "every check is busy";
        let permit = within(self.wait, self.permits.clone().acquire_owned(), busy).await?;
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let memory = self.memory.clone().acquire_many_owned(mib.min(self.memory_mib));
        let memory =
            within(left, memory, "the checks running hold the memory checks may use").await?;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let working = self.working.clone();
        working.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new().name("check".into()).spawn(move || {
            lower_priority();
            let result = caught(move || job(granted));
            // Given back before the answer: a caller told of the end finds them free.
            working.fetch_sub(1, Ordering::SeqCst);
            drop((permit, memory));
            let _ = answer.send(result);
        });
        if let Err(e) = spawned {
            self.working.fetch_sub(1, Ordering::SeqCst);
            return Err(Refused::Fault(format!("no thread for the check: {e}")));
        }
        match answered.await {
            Ok(result) => result,
            Err(_) => Err(Refused::Fault("the check ended without an answer".into())),
        }
    }
}

/// Lowers the calling thread's priority (nice 10 on Linux, where the nice value is a thread's),
/// so that plays get the processor before checks; nothing elsewhere.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes the calling thread's (who = 0) nice value.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Runs `job`, its panic caught and told as a fault.
fn caught<T>(job: impl FnOnce() -> T) -> Result<T, Refused> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).map_err(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a fault".into());
        Refused::Fault(what)
    })
}

/// Runs `job` on the blocking pool, its panic caught.
async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Refused> {
    match tokio::task::spawn_blocking(move || caught(job)).await {
        Ok(result) => result,
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
    pub plays: Plays,
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
            checks: Checks::new(config.check_wait, config.checks, config.checks_memory),
            plays: Plays::new(config.check_wait, config.plays),
            bodies: bodies::Budget::new(
                config.max_uploads_bytes,
                config.check_wait,
                bodies::Pace { min_rate: config.min_upload_rate, grace: config.idle_timeout },
            ),
            config,
        }
    }
}

/// glibc's malloc gives each thread that meets contention an arena of its own (up to 8 a
/// core), and memory freed in one arena does not serve another's allocations: under load the
/// server grew 35% more than the bytes its games were counted for (194 MB for 143), so the
/// bounds in bytes (`--max-games-mb`, `--max-uploads-mb`) no longer bounded the process. With
/// one arena it grows by what is counted (143 MB for 143, loaded or not; two arenas: 158 to
/// 169). Small allocations still take glibc's per-thread cache without the arena's lock.
/// `MALLOC_ARENA_MAX` in the environment, if set, is left to rule.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: mallopt only sets an allocator parameter; it is called before the runtime's
        // threads exist, and a refusal (return 0) leaves glibc's default.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
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
    limit_malloc_arenas();
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

    /// A panic in a task is an answer (500), not a dead server; a play that finds every
    /// permit taken for the whole wait is refused as busy (503), and checks never take a
    /// play's permit.
    #[test]
    fn panics_are_caught_and_a_full_pool_refuses() {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let fault = blocking(|| -> u8 { panic!("on purpose") }).await;
            assert!(matches!(fault, Err(Refused::Fault(ref what)) if what == "on purpose"));
            let plays = Plays::new(Duration::from_millis(50), Some(2));
            let checks = Checks::new(Duration::from_millis(50), Some(2), 1 << 30);
            let check_fault = checks.run(1, |_| -> u8 { panic!("a check's fault") }).await;
            assert!(
                matches!(check_fault, Err(Refused::Fault(ref what)) if what == "a check's fault")
            );
            let sleep = || std::thread::sleep(Duration::from_millis(600));
            let slow: Vec<_> = (0..2)
                .map(|_| {
                    let (plays, checks) = (plays.clone(), checks.clone());
                    tokio::spawn(async move {
                        let (played, checked) =
                            tokio::join!(plays.run(sleep), checks.run(1, move |_| sleep()));
                        played.and(checked)
                    })
                })
                .collect();
            tokio::time::sleep(Duration::from_millis(150)).await;
            assert!(matches!(plays.run(|| 1).await, Err(Refused::Busy(_))));
            assert!(matches!(checks.run(1, |_| 1).await, Err(Refused::Busy(_))));
            assert_eq!(checks.running(), (2, 2));
            for task in slow {
                assert!(task.await.unwrap().is_ok());
            }
            assert_eq!(plays.run(|| 2).await.unwrap(), 2);
            assert_eq!(checks.run(1, |granted| granted.max_work).await.unwrap(), 1);
        });
    }

    /// Checks reserve their budgets from the memory budget: two that fit run at once, a third
    /// waits and is refused; a budget larger than the whole is lowered to it.
    #[test]
    fn checks_share_the_memory_budget() {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let checks = Checks::new(Duration::from_millis(100), Some(8), 100 * MIB);
            let sleep = || std::thread::sleep(Duration::from_millis(600));
            let held: Vec<_> = (0..2)
                .map(|_| {
                    let checks = checks.clone();
                    tokio::spawn(async move { checks.run(40 * MIB, move |_| sleep()).await })
                })
                .collect();
            tokio::time::sleep(Duration::from_millis(150)).await;
            assert_eq!(checks.memory(), (100 * MIB, 80 * MIB));
            let third = checks.run(40 * MIB, |_| ()).await;
            assert!(matches!(third, Err(Refused::Busy(why)) if why.contains("memory")));
            assert!(checks.run(10 * MIB, |_| ()).await.is_ok(), "what fits runs");
            for task in held {
                assert!(task.await.unwrap().is_ok());
            }
            assert_eq!(checks.memory().1, 0);
            let huge = checks.run(u64::MAX, |granted| granted).await.unwrap();
            assert_eq!(huge, Granted { max_work: 100 * MIB, lowered: true });
        });
    }
}

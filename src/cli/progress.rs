//! Progress on standard error for commands that can run longer than about 2 s (issues 17 and
//! 25): an indicatif bar with a total and an ETA when the total is known, a spinner with the
//! count otherwise, when standard error is a terminal; when it is not (a log file, a CI job), a
//! thread of its own writes a status line with the count (and an ETA where a total is known)
//! 2 s after the start and every 10 s after that, however rarely the work reports; nothing
//! under `--quiet`. The hidden environment variable `GAMECERT_STATUS_EVERY_MS` shortens both
//! intervals, so that a test sees status lines from a run of a second.

use gamecert::base::sat;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often a status line is written when standard error is not a terminal.
const STATUS_EVERY: Duration = Duration::from_secs(10);
/// When the first status line is written: a run that ends sooner stays silent.
const FIRST_STATUS_AFTER: Duration = Duration::from_secs(2);
/// A total not known (yet).
const NO_TOTAL: u64 = u64::MAX;

/// The two intervals, `GAMECERT_STATUS_EVERY_MS` (milliseconds, at least 1) standing for both
/// when set.
fn status_intervals() -> (Duration, Duration) {
    match std::env::var("GAMECERT_STATUS_EVERY_MS").ok().and_then(|v| v.parse::<u64>().ok()) {
        Some(ms) => (Duration::from_millis(ms.max(1)), Duration::from_millis(ms.max(1))),
        None => (FIRST_STATUS_AFTER, STATUS_EVERY),
    }
}

/// What the status lines report, shared with their thread.
struct State {
    /// What is counted ("search nodes"; "CaDiCaL conflicts" once a SAT solver counts).
    what: Mutex<String>,
    started: Instant,
    done: AtomicU64,
    total: AtomicU64,
    /// Whether anything was counted: an uncounted run says it is still working instead.
    counted: std::sync::atomic::AtomicBool,
    message: Mutex<String>,
    /// The first count heard and when: the ETA is the rate since then, so work resumed from
    /// files (counted as done at once) does not make it optimistic.
    first: OnceLock<(u64, Instant)>,
}

impl State {
    /// The status line for now.
    fn line(&self) -> String {
        let elapsed = self.started.elapsed().as_secs_f64();
        let what = self.what.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let message = self.message.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let message = if message.is_empty() { message } else { format!(": {message}") };
        let total = Some(self.total.load(Ordering::Relaxed)).filter(|&t| t != NO_TOTAL);
        if !self.counted.load(Ordering::Relaxed) {
            // Nothing done yet: with a total, the count says so ("0 of 200 trials").
            return match total {
                Some(t) => format!("... 0 of {t} {what} after {elapsed:.0} s{message}"),
                None => format!("... {what}: still working after {elapsed:.0} s{message}"),
            };
        }
        let done = self.done.load(Ordering::Relaxed);
        let of = total.map_or(String::new(), |t| format!(" of {t}"));
        let eta = total.and_then(|t| self.eta(done, t)).unwrap_or_default();
        format!("... {done}{of} {what} after {elapsed:.0} s{eta}{message}")
    }

    /// ", about S s to go" at the rate since the first count heard (none before any rate).
    fn eta(&self, done: u64, total: u64) -> Option<String> {
        let (first, since) = *self.first.get()?;
        let rate =
            done.checked_sub(first).filter(|&d| d > 0)? as f64 / since.elapsed().as_secs_f64();
        let left = total.saturating_sub(done) as f64 / rate;
        Some(match left {
            s if s < 120.0 => format!(", about {s:.0} s to go"),
            s if s < 7200.0 => format!(", about {:.0} min to go", s / 60.0),
            s => format!(", about {:.1} h to go", s / 3600.0),
        })
    }
}

/// A progress display; cheap to update from many threads.
pub struct Progress {
    bar: Option<ProgressBar>,
    state: Arc<State>,
    /// Without a terminal: the thread writing the status lines, stopped by dropping the sender.
    ticker: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
    /// Items begun through [`Self::step`].
    steps: AtomicU64,
    /// [`Self::searching`]'s thread copying the solvers' node count, stopped by its flag.
    follower: Option<(Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>)>,
}

impl Progress {
    /// Progress over `total` items (`None`: unknown) of `what` ("graphs", "trials").
    pub fn new(what: &str, total: Option<u64>, quiet: bool) -> Progress {
        let state = Arc::new(State {
            what: Mutex::new(what.to_string()),
            started: Instant::now(),
            done: AtomicU64::new(0),
            total: AtomicU64::new(total.unwrap_or(NO_TOTAL)),
            counted: false.into(),
            message: Mutex::new(String::new()),
            first: OnceLock::new(),
        });
        let mut progress =
            Progress { bar: None, state, ticker: None, steps: AtomicU64::new(0), follower: None };
        if quiet {
            return progress;
        }
        if !std::io::stderr().is_terminal() {
            let (stop, stopped) = std::sync::mpsc::channel::<()>();
            let state = progress.state.clone();
            let (first, every) = status_intervals();
            let handle = std::thread::spawn(move || {
                let mut wait = first;
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(wait)
                {
                    eprintln!("{}", state.line());
                    wait = every;
                }
            });
            progress.ticker = Some((stop, handle));
            return progress;
        }
        let bar = match total {
            Some(total) => ProgressBar::new(total).with_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}  {{msg}}"
                ))
                .expect("a fixed template"),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template(&format!(
                    "{{spinner}} {{pos}} {what}, {{elapsed}}: {{msg}}"
                ))
                .expect("a fixed template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        progress.bar = Some(bar);
        progress
    }

    /// Work that may have nothing to count: a spinner with the elapsed time on a terminal,
    /// otherwise "still working" lines, until a count is set ([`Self::set`]) and shown.
    pub fn alive(what: &str, quiet: bool) -> Progress {
        let progress = Progress::new(what, None, quiet);
        if let Some(bar) = &progress.bar {
            bar.set_style(
                ProgressStyle::with_template(&format!("{{spinner}} {what}, {{elapsed}} {{msg}}"))
                    .expect("a fixed template"),
            );
        }
        progress
    }

    /// A solve that reports nothing but the search nodes every solver publishes
    /// ([`gamecert::base::solved::searched_so_far`]) or, for a SAT solve, the plan its caller
    /// announces ([`sat::take_plan`]: the formula's size and an estimate, printed as a line of
    /// its own) and CaDiCaL's conflicts ([`sat::conflicts_so_far`]): a thread copies the count
    /// four times a second, so the status line and the spinner count nodes or conflicts,
    /// whichever comes first; before either, it says it is still solving.
    pub fn searching(quiet: bool) -> Progress {
        Progress::following("search nodes", quiet)
    }

    /// Like [`Self::searching`], counting the search nodes as `nodes_name` ("solver work"),
    /// with a total where the work publishes a forecast of it
    /// ([`gamecert::base::solved::expected_searched`]): the bar and the status line then give
    /// an ETA from work done, not from items.
    pub fn counting_work(nodes_name: &'static str, quiet: bool) -> Progress {
        Progress::following(nodes_name, quiet)
    }

    /// [`Self::searching`] with the search nodes called `nodes_name`.
    fn following(nodes_name: &'static str, quiet: bool) -> Progress {
        let _ = sat::take_plan(); // a plan of an earlier solve in this process is stale
        gamecert::base::solved::search_stage(""); // and so is a search's stage
        let mut progress = Progress::alive("solving", quiet);
        if quiet {
            return progress;
        }
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (state, bar, stopped) = (progress.state.clone(), progress.bar.clone(), stop.clone());
        let start = gamecert::base::solved::searched_so_far();
        let conflicts_start = sat::conflicts_so_far();
        let poll = status_intervals().0.min(Duration::from_millis(250));
        let handle = std::thread::spawn(move || {
            // What is counted, once something is: search nodes or CaDiCaL's conflicts.
            let mut counting: Option<&str> = None;
            let count = |what: &str| {
                *state.what.lock().unwrap_or_else(|e| e.into_inner()) = what.to_string();
                // With a forecast of the total: a bar with an ETA.
                let template = match gamecert::base::solved::expected_searched() {
                    Some(_) if what == nodes_name => format!(
                        "{{bar:30}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}  {{msg}}"
                    ),
                    _ => format!("{{spinner}} {{pos}} {what}, {{elapsed}}: {{msg}}"),
                };
                if let Some(bar) = &bar {
                    bar.set_style(
                        ProgressStyle::with_template(&template).expect("a fixed template"),
                    );
                }
            };
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(poll);
                if let Some(plan) = sat::take_plan() {
                    match &bar {
                        Some(bar) => bar.println(format!("... {plan}")),
                        None => eprintln!("... {plan}"),
                    }
                }
                let conflicts = sat::conflicts_so_far() - conflicts_start;
                let nodes = gamecert::base::solved::searched_so_far() - start;
                if counting.is_none() && (conflicts > 0 || nodes > 0) {
                    let what = if conflicts > 0 { "CaDiCaL conflicts" } else { nodes_name };
                    count(what);
                    counting = Some(what);
                }
                let done = match counting {
                    Some("CaDiCaL conflicts") => conflicts,
                    _ => nodes,
                };
                if let (Some(total), true) =
                    (gamecert::base::solved::expected_searched(), counting == Some(nodes_name))
                {
                    // The forecast may fall behind the work between its updates.
                    let total = total.saturating_sub(start).max(done);
                    if let Some(bar) = &bar {
                        bar.set_length(total);
                    }
                    state.total.store(total, Ordering::Relaxed);
                }
                // A search that says what it does now (the proof search's threshold test and
                // its table's fill): that, and its rate, are the message.
                if let Some(stage) = gamecert::base::solved::current_stage() {
                    let seconds = state.started.elapsed().as_secs_f64().max(1e-3);
                    let rate = if counting == Some(nodes_name) && nodes > 0 {
                        format!(", {:.0} a second", nodes as f64 / seconds)
                    } else {
                        String::new()
                    };
                    let text = format!("{stage}{rate}");
                    if let Some(bar) = &bar {
                        bar.set_message(text.clone());
                    }
                    *state.message.lock().unwrap_or_else(|e| e.into_inner()) = text;
                }
                if done > 0 {
                    if let Some(bar) = &bar {
                        bar.set_position(done);
                    }
                    state.first.get_or_init(|| (done, Instant::now()));
                    state.done.store(done, Ordering::Relaxed);
                    state.counted.store(true, Ordering::Relaxed);
                }
            }
        });
        progress.follower = Some((stop, handle));
        progress
    }

    /// A message on what is being done now (the bar's text; on the status line otherwise).
    pub fn message(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(text.to_string());
        }
        *self.state.message.lock().unwrap_or_else(|e| e.into_inner()) = text.to_string();
    }

    /// The next item begins (`text` says which): the items before it are done.
    pub fn step(&self, text: &str) {
        let done = self.steps.fetch_add(1, Ordering::Relaxed);
        self.set(done);
        self.message(text);
    }

    /// The total, once it is known or when it changes.
    pub fn set_total(&mut self, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
        self.state.total.store(total, Ordering::Relaxed);
    }

    /// `done` items are finished.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
        self.state.first.get_or_init(|| (done, Instant::now()));
        self.state.done.store(done, Ordering::Relaxed);
        self.state.counted.store(true, Ordering::Relaxed);
    }

    /// Removes the bar and stops the status lines (the caller prints its own result).
    pub fn finish(&mut self) {
        if let Some((stop, handle)) = self.follower.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
        if let Some((stop, handle)) = self.ticker.take() {
            drop(stop);
            let _ = handle.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status line's ETA is the rate since the first count heard, not since the start.
    #[test]
    fn the_eta_counts_from_the_first_count_heard() {
        let progress = Progress::new("steps", Some(1000), true);
        let state = &progress.state;
        assert_eq!(state.eta(10, 1000), None, "no rate before a first count");
        let ten_seconds_ago = Instant::now() - Duration::from_secs(10);
        state.first.set((500, ten_seconds_ago)).unwrap();
        assert_eq!(state.eta(500, 1000), None, "no rate without progress");
        assert_eq!(state.eta(510, 1000).as_deref(), Some(", about 8 min to go"));
        assert_eq!(state.eta(990, 1000).as_deref(), Some(", about 0 s to go"));
    }

    /// The status line carries the count, the total and the message; before any count it says
    /// none is done yet (with a total) or that the work is alive (without one).
    #[test]
    fn the_status_line_has_the_count() {
        let unknown = Progress::new("nodes", None, true);
        assert!(unknown.state.line().starts_with("... nodes: still working after 0 s"));
        let progress = Progress::new("graphs", Some(30), true);
        progress.message("n = 7");
        let line = progress.state.line();
        assert!(line.starts_with("... 0 of 30 graphs after 0 s") && line.ends_with(": n = 7"));
        progress.set(12);
        let line = progress.state.line();
        assert!(line.starts_with("... 12 of 30 graphs after 0 s"), "{line}");
        assert!(line.ends_with(": n = 7"), "{line}");
    }
}

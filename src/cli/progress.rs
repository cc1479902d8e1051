//! Progress on standard error for commands that can run longer than about 2 s (issue 17):
//! an indicatif bar with a total and an ETA when the total is known, a spinner with counts
//! otherwise, when standard error is a terminal; a plain status line every 10 s when it is not
//! (a log file or a CI job sees that the run is alive); nothing under `--quiet`.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a status line is written when standard error is not a terminal.
const STATUS_EVERY: Duration = Duration::from_secs(10);

/// A progress display; cheap to update from many threads.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Without a terminal: what is being done, the total, and when the last line was written.
    plain: Option<(String, Option<u64>, Mutex<Instant>)>,
    started: Instant,
    /// Without a terminal and with nothing else to count: a thread writing the status line.
    ticker: Option<(std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>)>,
    /// Items begun through [`Self::step`].
    steps: std::sync::atomic::AtomicU64,
    /// The first count heard and when: the status line's ETA is the rate since then, so work
    /// resumed from files (counted as done at once) does not make it optimistic.
    first: std::sync::OnceLock<(u64, Instant)>,
}

impl Progress {
    /// Progress over `total` items (`None`: unknown) of `what` ("graphs", "trials").
    pub fn new(what: &str, total: Option<u64>, quiet: bool) -> Progress {
        let started = Instant::now();
        let mut progress = Progress {
            bar: None,
            plain: None,
            started,
            ticker: None,
            steps: Default::default(),
            first: Default::default(),
        };
        if quiet {
            return progress;
        }
        if !std::io::stderr().is_terminal() {
            progress.plain = Some((what.to_string(), total, Mutex::new(started)));
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
                ProgressStyle::with_template(&format!("{{spinner}} {what}, {{elapsed}}: {{msg}}"))
                    .expect("a fixed template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        progress.bar = Some(bar);
        progress
    }

    /// Work with no count to report (one long search): a spinner with the elapsed time on a
    /// terminal, otherwise a line every 10 s from a thread of its own, until [`Self::finish`].
    pub fn alive(what: &str, quiet: bool) -> Progress {
        let mut progress = Progress::new(what, None, quiet);
        if progress.plain.is_some() {
            let (stop, stopped) = std::sync::mpsc::channel::<()>();
            let (what, started) = (what.to_string(), progress.started);
            let handle = std::thread::spawn(move || {
                while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                    stopped.recv_timeout(STATUS_EVERY)
                {
                    eprintln!(
                        "... {what}: still working after {:.0} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            });
            progress.plain = None;
            progress.ticker = Some((stop, handle));
        } else if let Some(bar) = &progress.bar {
            bar.set_style(
                ProgressStyle::with_template(&format!("{{spinner}} {what}, {{elapsed}}"))
                    .expect("a fixed template"),
            );
        }
        progress
    }

    /// A message on what is being done now (a spinner's text; on a status line otherwise).
    pub fn message(&self, text: &str) {
        if let Some(bar) = &self.bar {
            bar.set_message(text.to_string());
        }
        if let Some((what, _, last)) = &self.plain {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= STATUS_EVERY {
                *last = Instant::now();
                eprintln!("... {what}: {text} after {:.0} s", self.started.elapsed().as_secs_f64());
            }
        }
    }

    /// The next item begins (`text` says which): the items before it are done.
    pub fn step(&self, text: &str) {
        let done = self.steps.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.set(done);
        self.message(text);
    }

    /// The total, once it is known or when it changes.
    pub fn set_total(&mut self, total: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(total);
        }
        if let Some((_, known, _)) = &mut self.plain {
            *known = Some(total);
        }
    }

    /// `done` items are finished.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
        if let Some((what, total, last)) = &self.plain {
            self.first.get_or_init(|| (done, Instant::now()));
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= STATUS_EVERY {
                *last = Instant::now();
                let of = total.map_or(String::new(), |t| format!(" of {t}"));
                let eta = total.and_then(|t| self.eta(done, t)).unwrap_or_default();
                eprintln!(
                    "... {done}{of} {what} after {:.0} s{eta}",
                    self.started.elapsed().as_secs_f64()
                );
            }
        }
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

    /// Removes the bar and stops the status lines (the caller prints its own result).
    pub fn finish(&mut self) {
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
        assert_eq!(progress.eta(10, 1000), None, "no rate before a first count");
        let ten_seconds_ago = Instant::now() - Duration::from_secs(10);
        progress.first.set((500, ten_seconds_ago)).unwrap();
        assert_eq!(progress.eta(500, 1000), None, "no rate without progress");
        assert_eq!(progress.eta(510, 1000).as_deref(), Some(", about 8 min to go"));
        assert_eq!(progress.eta(990, 1000).as_deref(), Some(", about 0 s to go"));
    }
}

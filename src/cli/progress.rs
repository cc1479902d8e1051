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
}

impl Progress {
    /// Progress over `total` items (`None`: unknown) of `what` ("graphs", "trials").
    pub fn new(what: &str, total: Option<u64>, quiet: bool) -> Progress {
        let started = Instant::now();
        if quiet {
            return Progress { bar: None, plain: None, started };
        }
        if !std::io::stderr().is_terminal() {
            return Progress {
                bar: None,
                plain: Some((what.to_string(), total, Mutex::new(started))),
                started,
            };
        }
        let bar = match total {
            Some(total) => ProgressBar::new(total).with_style(
                ProgressStyle::with_template(&format!(
                    "{{bar:40}} {{pos}}/{{len}} {what}, {{elapsed}} elapsed, ETA {{eta}}"
                ))
                .expect("a fixed template"),
            ),
            None => ProgressBar::new_spinner().with_style(
                ProgressStyle::with_template(&format!("{{spinner}} {{pos}} {what}, {{elapsed}}"))
                    .expect("a fixed template"),
            ),
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar), plain: None, started }
    }

    /// `done` items are finished.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
        if let Some((what, total, last)) = &self.plain {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= STATUS_EVERY {
                *last = Instant::now();
                let of = total.map_or(String::new(), |t| format!(" of {t}"));
                eprintln!(
                    "... {done}{of} {what} after {:.0} s",
                    self.started.elapsed().as_secs_f64()
                );
            }
        }
    }

    /// Removes the bar (the caller prints its own result).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

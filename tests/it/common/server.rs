//! `gamecert serve` started for a test: the real binary on loopback with `--port 0`, its address
//! read from its first line, killed when the test ends however it ends. The server listens at
//! once and prepares its gallery beside it: [`Server::start`] waits until the gallery is ready
//! (every test but the one of the preparation itself uses it), [`Server::start_preparing`]
//! does not. The attack tests (serve_attacks.rs) start it under an open-file limit and read its
//! memory from /proc.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    pub address: SocketAddr,
    /// How long the first line (the address) took from the start.
    pub listening_after: Duration,
}

/// How long a test waits for the gallery (the demo's cases solved and checked: 15 s on 2
/// loaded cores, minutes under a heavy load).
const GALLERY_PATIENCE: Duration = Duration::from_secs(600);

impl Server {
    /// `gamecert serve --port 0 --quiet EXTRA...`, once its gallery is ready.
    pub fn start(extra: &[&str]) -> Server {
        Server::start_limited(extra, None)
    }

    /// [`Server::start`] with its open-file limit (soft and hard, so that the server cannot
    /// raise it) set to `open_files` when given.
    pub fn start_limited(extra: &[&str], open_files: Option<u64>) -> Server {
        let server = Server::start_preparing(extra, open_files);
        server.wait_for_gallery();
        server
    }

    /// Waits until `GET /api/gallery` answers 200 (503 while the gallery is prepared).
    pub fn wait_for_gallery(&self) {
        let start = Instant::now();
        loop {
            let status = self.get_status("/api/gallery");
            if status == 200 {
                return;
            }
            assert!(
                status == 503 && start.elapsed() < GALLERY_PATIENCE,
                "the gallery answers {status} after {:?}",
                start.elapsed()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The status of `GET path` (0 when there is no answer).
    pub fn get_status(&self, path: &str) -> u16 {
        let Ok(mut stream) = TcpStream::connect(self.address) else {
            return 0;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
        let head = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let _ = stream.write_all(head.as_bytes());
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer);
        text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
    }

    /// The server as soon as its first line names its address, its gallery perhaps not ready.
    pub fn start_preparing(extra: &[&str], open_files: Option<u64>) -> Server {
        let started = Instant::now();
        let mut command = Command::new(env!("CARGO_BIN_EXE_gamecert"));
        command
            .args(["serve", "--port", "0", "--quiet"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(limit) = open_files {
            use std::os::unix::process::CommandExt;
            // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
            unsafe {
                command.pre_exec(move || {
                    let limit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::last_os_error())
                    }
                });
            }
        }
        let mut child = command.spawn().expect("the gamecert binary runs");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout).read_line(&mut first).expect("the first line");
        let address = first
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.trim_end().strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line {first:?}"))
            .parse()
            .expect("an address");
        Server { child, address, listening_after: started.elapsed() }
    }

    /// A line of the server's /proc status in kB (Linux): `VmHWM` (peak resident memory) or
    /// `VmRSS` (resident now).
    fn status_kb(&self, field: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(field))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// The server's peak resident memory in kB (Linux).
    pub fn peak_kb(&self) -> Option<u64> {
        self.status_kb("VmHWM:")
    }

    /// The server's resident memory now, in kB (Linux).
    pub fn rss_kb(&self) -> Option<u64> {
        self.status_kb("VmRSS:")
    }

    /// The file descriptors the server holds open now (Linux).
    pub fn open_files(&self) -> Option<usize> {
        Some(std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).ok()?.count())
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends SIGTERM (Ctrl-C's sibling: the server stops gracefully).
    pub fn terminate(&self) {
        let pid = libc::pid_t::try_from(self.child.id()).expect("a pid");
        // SAFETY: kill only sends a signal to our own child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }

    /// The exit status, if the server ends within `within`.
    pub fn exit_status(&mut self, within: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

/// The page's address, `http://ADDRESS/`.
impl Server {
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Raises this process's soft open-file limit to its hard limit (a test holding thousands of
/// sockets needs more than the usual 1,024), and fails if that is still below `needed`.
pub fn raise_open_file_limit(needed: u64) {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = limit.rlim_max;
            }
        }
    }
    assert!(
        limit.rlim_cur >= needed,
        "this test holds {needed} sockets: its open-file limit is {} (hard {}); raise it \
         (ulimit -Hn)",
        limit.rlim_cur,
        limit.rlim_max
    );
}

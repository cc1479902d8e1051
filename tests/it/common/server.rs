//! `gamecert serve` started for a test: the real binary on loopback with `--port 0`, its address
//! read from its first line, killed when the test ends however it ends.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    pub address: SocketAddr,
}

impl Server {
    /// `gamecert serve --port 0 --quiet EXTRA...`, once its first line names its address.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gamecert"))
            .args(["serve", "--port", "0", "--quiet"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the gamecert binary runs");
        let mut first = String::new();
        let stdout = child.stdout.take().expect("piped");
        BufReader::new(stdout).read_line(&mut first).expect("the first line");
        let address = first
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.trim_end().strip_suffix('/'))
            .unwrap_or_else(|| panic!("first line {first:?}"))
            .parse()
            .expect("an address");
        Server { child, address }
    }

    /// The server's peak resident memory in kB (Linux).
    pub fn peak_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
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

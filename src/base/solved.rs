//! The types a solve method deals in (the registry's side of it: [`crate::registry`] lists
//! the methods; each family's solve functions take [`Options`] and return [`SolvedGame`]). They
//! live in `base` so that the families do not import the registry that imports them.

use crate::base::method::Method;
use crate::base::sat::Backend;
use gamecert_certificates::base::budget::Budget;
use gamecert_certificates::format::{Certificate, Instance};
use gamecert_certificates::Verdict;

/// What a solve method is asked: the method named (`Method::Auto` when the method is tried by
/// `--method auto`) and, for one-round games, the SAT backend.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub method: Method,
    pub sat: Option<Backend>,
    /// The budget to check the certificate with, when not the one `verify` gives by default.
    pub max_work: Option<u64>,
    /// The proof search's table, in bytes (`--memory`; default
    /// [`crate::base::proof::DEFAULT_MEMORY`]).
    pub memory: Option<u64>,
    /// The form the certificate is to be written in (issue 47); it is checked with the budget
    /// `verify` gives that form. Default JSON.
    pub form: crate::base::binary::Choice,
    /// Where a one-round refutation's proof goes.
    pub proof: ProofOutput,
}

/// Where a one-round refutation's LRAT proof goes (issue 47).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ProofOutput {
    /// Into a JSON `refutation` as text, held in memory: for small instances (the tests, the
    /// demo's cases).
    #[default]
    Text,
    /// A binary refutation certificate (`GCREFUT1`,
    /// [`gamecert_certificates::sat::lrat_binary`]) in a new file of this folder, written as
    /// the solver runs and checked on the other core as it grows: the proof is never held.
    File(std::path::PathBuf),
}

/// A binary refutation certificate in a file ([`ProofOutput::File`]): a temporary file,
/// removed when this is dropped, until [`ProofFile::persist`] moves it where it belongs; or a
/// file of the user's ([`ProofFile::existing`]), never removed.
#[derive(Debug)]
pub struct ProofFile {
    path: std::sync::Mutex<std::path::PathBuf>,
    temporary: std::sync::atomic::AtomicBool,
    /// The certificate's bytes.
    pub bytes: u64,
    /// The clauses of the formula its proof refutes (0 when not known): a binary proof's ids
    /// are differences from them, so its text needs the count.
    pub inputs: u64,
    /// What its proof holds (all 0 for a file of the user's).
    pub stats: crate::base::sat::ProofStats,
}

impl ProofFile {
    /// A new empty temporary file in `dir`.
    pub fn new_in(dir: &std::path::Path) -> std::io::Result<ProofFile> {
        std::fs::create_dir_all(dir)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".gamecert-refutation-");
        // A certificate gets a file's usual permissions (the umask's), not a secret's.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let file = builder.tempfile_in(dir)?;
        let path = file.into_temp_path().keep().map_err(|e| e.error)?;
        Ok(ProofFile {
            path: std::sync::Mutex::new(path),
            temporary: true.into(),
            bytes: 0,
            inputs: 0,
            stats: Default::default(),
        })
    }

    /// A certificate file of the user's, `bytes` long, of a formula of `inputs` clauses.
    pub fn existing(path: &std::path::Path, bytes: u64, inputs: u64) -> ProofFile {
        ProofFile {
            path: std::sync::Mutex::new(path.to_path_buf()),
            temporary: false.into(),
            bytes,
            inputs,
            stats: Default::default(),
        }
    }

    /// Where the file is now.
    pub fn path(&self) -> std::path::PathBuf {
        self.path.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Moves a temporary file to `to` (renamed, or copied where renaming fails: another file
    /// system), where it stays; a file of the user's is copied.
    pub fn persist(&self, to: &std::path::Path) -> std::io::Result<()> {
        let mut path = self.path.lock().unwrap_or_else(|e| e.into_inner());
        if !self.temporary.load(std::sync::atomic::Ordering::SeqCst) {
            return std::fs::copy(&*path, to).map(drop);
        }
        crate::base::io::put_in_place(&path, to)?;
        *path = to.to_path_buf();
        self.temporary.store(false, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

impl ProofFile {
    /// Writes the JSON `refutation` of this certificate (whose header's fields `certificate`
    /// holds, as [`SolvedGame::certificate`] does) to `out`: its proof turned into text LRAT a
    /// step at a time and escaped into the `lrat` string as it goes, never held.
    pub fn write_json(
        &self,
        certificate: &Certificate,
        out: &mut impl std::io::Write,
    ) -> Result<(), String> {
        use gamecert_certificates::format::RefutationMethod;
        use gamecert_certificates::sat::lrat_binary;
        let Certificate::Refutation(refutation) = certificate else {
            return Err(format!("a proof file with a {} certificate", certificate.kind()));
        };
        let text = certificate.to_json();
        let (before, after) =
            text.split_once("\"lrat\": \"\"").ok_or_else(|| format!("no `lrat` in {text}"))?;
        let inputs = match &refutation.method {
            RefutationMethod::Reduction { formula, .. } => formula.clauses.len() as u64,
            RefutationMethod::Direct => self.inputs,
        };
        let path = self.path();
        let io = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut read =
            std::io::BufReader::with_capacity(1 << 20, std::fs::File::open(&path).map_err(io)?);
        let header = lrat_binary::read_header(&mut read, &mut Budget::unlimited())?;
        write!(out, "{before}\"lrat\": \"").map_err(io)?;
        let mut escaped = EscapeNewlines(out);
        let offset = lrat_binary::proof_offset(&header);
        crate::base::sat::lrat_writer::to_text(read, inputs, offset, &mut escaped)?;
        write!(escaped.0, "\"{after}").map_err(io)
    }
}

/// Writes text LRAT into a JSON string: its one character to escape is the line end.
struct EscapeNewlines<'a, W: std::io::Write>(&'a mut W);

impl<W: std::io::Write> std::io::Write for EscapeNewlines<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            match piece.split_last() {
                Some((b'\n', line)) => {
                    self.0.write_all(line)?;
                    self.0.write_all(b"\\n")?;
                }
                _ => self.0.write_all(piece)?,
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl Drop for ProofFile {
    fn drop(&mut self) {
        if self.temporary.load(std::sync::atomic::Ordering::SeqCst) {
            let _ = std::fs::remove_file(self.path());
        }
    }
}

/// The error of a solve method handed an instance of another kind: the registry
/// ([`crate::registry`]) dispatches by kind, so this is a bug of ours, never a user's answer.
pub fn wrong_kind(instance: &Instance, method: &str) -> anyhow::Error {
    anyhow::anyhow!("internal error: a {} instance given to {method}", instance.kind())
}

/// A solved game: the certificate, the search nodes spent and the method that produced it.
pub struct SolvedGame {
    pub certificate: Certificate,
    pub nodes: u64,
    pub method: String,
    /// Set when the method ran the checker itself, as the one-round pipeline does on its LRAT
    /// proof before anything is written: that verdict and what `solve` reports of the run.
    pub checked: Option<Checked>,
    /// A refutation whose proof went to a file ([`ProofOutput::File`]): the certificate is then
    /// that file, and `certificate` holds its header's fields with an empty `lrat`.
    pub proof_file: Option<std::sync::Arc<ProofFile>>,
}

/// A verdict a solve method obtained itself, with its report (the `--json` fields and the
/// one-line note of `gamecert solve`).
pub struct Checked {
    pub verdict: Verdict,
    pub fields: serde_json::Value,
    pub summary: String,
}

impl SolvedGame {
    /// A certificate not yet checked (the caller checks it).
    pub fn new(certificate: Certificate, nodes: u64, method: &str) -> SolvedGame {
        SolvedGame {
            certificate,
            nodes,
            method: method.to_string(),
            checked: None,
            proof_file: None,
        }
    }
}

/// A solve method: `Ok(None)` when it does not apply to the instance (auto then tries the
/// next; a method named on the command line says why instead of returning `None`).
pub type Solver = fn(&Instance, &Options) -> anyhow::Result<Option<SolvedGame>>;

/// Search nodes all solvers of this process have visited, published in batches of
/// [`SEARCH_BATCH`] so that a progress display can count a search that reports nothing else
/// (the command line's "solving" status line reads it; nothing depends on it being exact).
static SEARCHED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How many nodes a search visits between two publications ([`searched`]).
pub const SEARCH_BATCH: u64 = 1 << 12;

/// Called by a search at every node with its own node count: publishes a batch when the
/// count passes a multiple of [`SEARCH_BATCH`] (one relaxed add per batch).
#[inline]
pub fn searched(nodes: u64) {
    if nodes.is_multiple_of(SEARCH_BATCH) {
        SEARCHED.fetch_add(SEARCH_BATCH, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The search nodes a long computation expects to have published when it ends, in
/// [`searched_so_far`]'s count (0: no forecast). A table whose entries differ in work by
/// factors of 10^4 (`table voronoi-kary`) sets it as entries end, so that a progress display
/// gives an ETA from work rather than from entries.
static EXPECTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the forecast: `total` nodes published by the end (see [`expected_searched`]).
pub fn expect_searched(total: u64) {
    EXPECTED.store(total, std::sync::atomic::Ordering::Relaxed);
}

/// The forecast of [`expect_searched`], if any.
pub fn expected_searched() -> Option<u64> {
    Some(EXPECTED.load(std::sync::atomic::Ordering::Relaxed)).filter(|&t| t > 0)
}

/// The search nodes published so far in this process.
pub fn searched_so_far() -> u64 {
    SEARCHED.load(std::sync::atomic::Ordering::Relaxed)
}

/// What a long search is doing now, in words, for the progress display (issue 47, item 6:
/// "depth-first proof search, test 1 of 2: can W reach a margin of at least 1?"), and how full
/// its table is, in thousandths (`u64::MAX`: no table).
static STAGE: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());
static TABLE_FILL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(u64::MAX);

/// A search says what it is doing now (a new stage: the table's fill is forgotten until the
/// search publishes it again).
pub fn search_stage(text: impl Into<String>) {
    *STAGE.lock().unwrap_or_else(|e| e.into_inner()) = text.into();
    TABLE_FILL.store(u64::MAX, std::sync::atomic::Ordering::Relaxed);
}

/// A search's table is this full: `used` of `capacity` entries.
pub fn table_fill(used: u64, capacity: u64) {
    let permille = used.saturating_mul(1000) / capacity.max(1);
    TABLE_FILL.store(permille.min(1000), std::sync::atomic::Ordering::Relaxed);
}

/// The stage a search last published, with its table's fill ("..., table 37% full"), if any.
pub fn current_stage() -> Option<String> {
    let stage = STAGE.lock().unwrap_or_else(|e| e.into_inner()).clone();
    if stage.is_empty() {
        return None;
    }
    Some(match TABLE_FILL.load(std::sync::atomic::Ordering::Relaxed) {
        u64::MAX => stage,
        permille => format!("{stage}; table {:.1}% full", permille as f64 / 10.0),
    })
}

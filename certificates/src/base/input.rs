//! Reading input files for the checker: a whole file or a stream (`-` is standard input), its
//! size as stored (what the work budget is sized from) beside what it decompresses to, UTF-8
//! text with the offset of a bad byte, and recognising text that is not an instance (a DIMACS
//! formula or graph, a positive DNF) from its first lines. The readers that decompress are the
//! solver's (`gamecert verify`); the checker's own read plain files.

use crate::base::budget::{Limits, WORK_PER_INPUT_BYTE};
use crate::base::text::is_separator;
use std::path::Path;

/// Reads a whole file (`-`: standard input); the error names the file. The second argument is
/// the request's `--max-work`: a reader that decompresses stops at [`decompression_cap`] of the
/// file's stored size and it.
pub type Reader = fn(&Path, Option<u64>) -> Result<Content, String>;

/// Opens a file (`-`: standard input) to be read in order; the error names the file. The
/// second argument is as for [`Reader`].
pub type Opener = fn(&Path, Option<u64>) -> Result<Stream, String>;

/// A whole file as a [`Reader`] read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Content {
    /// What is parsed: the file's bytes, or what a compressed file decompresses to.
    pub bytes: Vec<u8>,
    /// The file's size as stored: on disk (still compressed); 0 for a stream without one
    /// (standard input, a pipe, a device), whose bytes are then all charged.
    /// The budget is sized from this, never from `bytes`.
    pub stored: u64,
}

impl Content {
    /// A file read as it is stored (nothing decompressed).
    pub fn plain(bytes: Vec<u8>) -> Content {
        Content { stored: bytes.len() as u64, bytes }
    }
}

/// A file opened by an [`Opener`]: what to read, and its stored size when known before reading
/// (standard input read as a stream: not known).
pub struct Stream {
    pub read: Box<dyn std::io::Read>,
    pub stored: Option<u64>,
    /// The bytes decompression added, when the file was decompressed whole before it is read
    /// (0 otherwise); charged at [`decompression_work`]'s rate before the stream is read.
    pub unpacked: u64,
}

/// The most bytes a compressed file of `stored` bytes may decompress to when it is verified
/// with `max_work` (`None`: the default, [`Limits::for_input`] of its stored size): its stored
/// size plus one byte for every [`WORK_PER_INPUT_BYTE`] units of the budget, the point past
/// which [`decompression_work`] alone would exceed the budget.
pub fn decompression_cap(stored: u64, max_work: Option<u64>) -> u64 {
    let work = max_work.unwrap_or_else(|| Limits::for_input(stored).max_work);
    stored.saturating_add(work / WORK_PER_INPUT_BYTE)
}

/// The work units charged for a file stored in `stored` bytes whose content is `content`
/// bytes: [`WORK_PER_INPUT_BYTE`] for every byte beyond the stored ones, which the budget did
/// not prepay (nothing for a plain file).
pub fn decompression_work(content: u64, stored: u64) -> u64 {
    content.saturating_sub(stored).saturating_mul(WORK_PER_INPUT_BYTE)
}

/// The name a path is shown by in messages: `<stdin>` for `-`.
pub fn shown(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".into()
    } else {
        path.display().to_string()
    }
}

/// The checker's [`Reader`]: a plain file, or standard input for `-` (nothing decompressed),
/// read through [`read_capped`] up to [`decompression_cap`] of its stored size. A file that is
/// not a regular file (standard input, a pipe, a device such as `/dev/zero`) has no stored size:
/// it counts as stored in 0 bytes, so every byte read from it is charged as one decompression
/// added, and at most `max_work / 64` bytes of it are read (31 MB with the default budget).
pub fn read_file(path: &Path, max_work: Option<u64>) -> Result<Content, String> {
    let Stream { read, stored, .. } = open_file(path, max_work)?;
    let stored = stored.unwrap_or(0);
    let bytes = read_capped(read, stored, decompression_cap(stored, max_work))
        .map_err(|e| format!("{}: {e}", shown(path)))?;
    Ok(Content { bytes, stored })
}

/// The bytes a regular file takes on disk, which pay for its budget: its length, or on Unix,
/// past 1 MiB, the blocks it occupies when they are fewer (a sparse file, `truncate -s 100G`,
/// has a length that cost nothing to make; small files may live inline with no blocks of their
/// own; on a compressing file system a large honest file may then need --max-work).
pub fn stored_size(metadata: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        metadata.len().min(metadata.blocks().saturating_mul(512).max(1 << 20))
    }
    #[cfg(not(unix))]
    {
        metadata.len()
    }
}

/// Reads `read` to its end, `stored` bytes expected, refusing it as soon as it holds more than
/// `cap` bytes: nothing past `cap + 1` bytes is ever read or held, whatever the stream. At most
/// 64 MiB is reserved ahead, and only as a request that may fail: a sparse file's stored size
/// (100 GB of nothing) must not abort the process with one allocation; the rest grows as bytes
/// arrive, and running out of memory is an error, not an abort.
pub fn read_capped(read: impl std::io::Read, stored: u64, cap: u64) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let ahead = usize::try_from(stored.min(cap).min(1 << 26)).unwrap_or(0);
    bytes.try_reserve(ahead).map_err(|e| format!("cannot hold {ahead} bytes: {e}"))?;
    std::io::Read::read_to_end(&mut read.take(cap.saturating_add(1)), &mut bytes)
        .map_err(|e| e.to_string())?;
    ensure!(
        bytes.len() as u64 <= cap,
        "holds more than {cap} bytes, the most the checker reads of it: a file holds its stored size plus one byte \
         for every {WORK_PER_INPUT_BYTE} units of the work budget (a stream, a pipe or a device \
         has no stored size); save it to a regular file or give a larger --max-work"
    );
    Ok(bytes)
}

/// The checker's [`Opener`]: a plain file, or standard input for `-`; the stored size of a
/// file that is not a regular file (a pipe, a device) is not known, as for standard input.
pub fn open_file(path: &Path, _max_work: Option<u64>) -> Result<Stream, String> {
    if path == Path::new("-") {
        return Ok(Stream { read: Box::new(std::io::stdin()), stored: None, unpacked: 0 });
    }
    let at = |e: std::io::Error| format!("{}: {e}", shown(path));
    let file = std::fs::File::open(path).map_err(at)?;
    let metadata = file.metadata().map_err(at)?;
    ensure!(!metadata.is_dir(), "{}: a folder, not a file", shown(path));
    let stored = metadata.is_file().then(|| stored_size(&metadata));
    Ok(Stream { read: Box::new(file), stored, unpacked: 0 })
}

/// A certificate opened by [`open_certificate`].
pub enum Opened {
    /// A stream checked as it is read (a `triangle-stream`, a binary refutation), with its
    /// stored size when known.
    Stream(Box<dyn std::io::Read>, Option<u64>),
    /// The binary form ([`crate::base::binary`]), to be read as it is decoded: its stored size
    /// and the bytes decompression added. A stream without a stored size is read first, up to
    /// [`decompression_cap`], all its bytes counted as added (charged as decompressed ones).
    Binary(Box<dyn std::io::BufRead>, u64, u64),
    /// Any other certificate, read whole up to [`decompression_cap`].
    Whole(Content),
}

/// Opens a certificate with `open` and tells its form by its first bytes (`stream_magic`: the
/// magic of the stream form the instance's kind has, if any: a `triangle-stream` for a
/// triangle-avoidance instance, a binary refutation for a one-round one).
pub fn open_certificate(
    open: Opener,
    path: &Path,
    max_work: Option<u64>,
    stream_magic: Option<&[u8; 8]>,
) -> Result<Opened, String> {
    use std::io::Read;
    let Stream { read, stored, unpacked } = open(path, max_work)?;
    let io = |e: String| format!("{}: {e}", shown(path));
    let mut head = Vec::new();
    let mut read = std::io::BufReader::with_capacity(1 << 20, read);
    (&mut read).take(8).read_to_end(&mut head).map_err(|e| io(e.to_string()))?;
    let read = std::io::Cursor::new(head.clone()).chain(read);
    if stream_magic.is_some_and(|magic| head == magic) {
        return Ok(Opened::Stream(Box::new(read), stored));
    }
    // A stream of unknown size (standard input, a pipe) counts as stored in 0 bytes.
    let cap = decompression_cap(stored.unwrap_or(0), max_work);
    match stored {
        Some(stored) if head == crate::base::binary::MAGIC => {
            Ok(Opened::Binary(Box::new(std::io::BufReader::new(read)), stored, unpacked))
        }
        None if head == crate::base::binary::MAGIC => {
            let bytes = read_capped(read, 0, cap).map_err(io)?;
            let added = bytes.len() as u64;
            Ok(Opened::Binary(Box::new(std::io::Cursor::new(bytes)), 0, added))
        }
        _ => {
            let stored = stored.unwrap_or(0);
            let bytes = read_capped(read, stored, cap).map_err(io)?;
            Ok(Opened::Whole(Content { bytes, stored }))
        }
    }
}

/// UTF-8 text of `bytes` read from `path`; the error names the file and the offset.
pub fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: the file is not UTF-8 text (invalid byte at offset {}; compressed files are \
             read by `gamecert`, not `gamecert-check`)",
            shown(path),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Whether `text` (from `path`) is a positive DNF in text: see the module docs.
pub fn is_dnf_text(path: &Path, text: &str) -> bool {
    if path.extension().is_some_and(|e| e == "dnf") {
        return true;
    }
    first_line(text).is_some_and(|line| {
        let mut words = line.split(is_separator).filter(|w| !w.is_empty());
        words.next() == Some("p") && words.next() == Some("dnf")
    })
}

/// The first line of `text` that is neither blank nor a `c` comment, without its separators
/// around it (the [checker's separators](crate::base::text), as every text reader splits).
fn first_line(text: &str) -> Option<&str> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .map(|line| line.trim_matches(is_separator))
        .find(|line| !line.is_empty() && !line.starts_with('c'))
}

/// A text format that is not an instance, and the command that takes it.
pub fn foreign_text(text: &str) -> Option<&'static str> {
    let first = first_line(text)?;
    let words: Vec<&str> = first.split(is_separator).filter(|w| !w.is_empty()).take(2).collect();
    match words[..] {
        ["p", "cnf"] => Some(
            "this is a DIMACS CNF formula, not an instance; `gamecert reduce sat-voronoi1 FILE \
             -o instance.json` turns it into a one-round Voronoi instance",
        ),
        ["p", "edge"] => Some(
            "this is a DIMACS graph, not an instance; `gamecert gen graph --dimacs FILE --rounds R` \
             makes a Voronoi instance of it",
        ),
        _ => None,
    }
}

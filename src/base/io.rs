//! Reading the project's input files with errors that name the file, line and column.
//!
//! Every error here is a [`BadInput`]: the command line prints it and exits with code 2.
//!
//! Every file argument goes through [`read_bytes`]: `-` is standard input (read once: a second
//! `-` in one command is an error), and a gzip, xz or bzip2 file is decompressed, told by its
//! first bytes rather than its name (SAT-competition files are `.cnf.xz`, nauty streams are
//! often `.g6.gz`). A stream read once from start to end, of any length (`table voronoi-graphs
//! --graph6`), goes through [`open_stream`] instead: decompressed as it is read, under the same cap.
//!
//! # How far a compressed file may decompress
//!
//! Decompression stops at a cap, enforced while decompressing (the decoder is read through a
//! limit, so nothing past the cap is ever produced or held); a file that would go past it is
//! bad input naming the cap and what to do. The cap is tied to the file's stored size (on disk,
//! or the bytes read from standard input; a stream is read through the checker's
//! `read_capped`, never whole first):
//!
//! - `gamecert`'s own commands (`reduce`, `gen`, `table --graph6`, `solve`, ...), which have no
//!   work budget: [`MAX_EXPANSION`] times the stored size, at least [`MIN_DECOMPRESSED_CAP`]
//!   and at most [`MAX_INPUT_BYTES`] ([`solver_cap`]). Honest inputs compress far less: a
//!   random 3-CNF 2.5 times (xz), a pigeonhole formula of 25 MB 51 times (xz), all graphs on 9
//!   vertices from geng 3.4 times (gzip) and 8.3 times (xz); a few hundred bytes of bzip2
//!   padding, which once decompressed to gigabytes, now stop at 64 MiB.
//! - `gamecert verify` and `lrat` ([`reader`], [`opener`]): the checker's rule,
//!   [`gamecert_certificates::verify::decompression_cap`] (the stored size plus one byte for
//!   every 64 units of the work budget, whose own size comes from the stored bytes), and at
//!   most [`MAX_INPUT_BYTES`]. The bytes decompression adds are then charged to the budget
//!   before they are parsed, so a compressed file cannot make the checker hold or parse more
//!   than a plain file of its stored size could; a larger honest file is decompressed first,
//!   or checked with a larger `--max-work`. A stream without a stored size (standard input, a
//!   pipe, a device) counts as stored in 0 bytes, as in `gamecert-check`: read up to the cap of
//!   0 stored bytes (31 MB with the default budget), every byte charged.

use gamecert_certificates::format::{Certificate, FormatError, Instance, OneRound, OneRoundSpec};
use gamecert_certificates::sat::cnf::Cnf;
use gamecert_certificates::verify::{
    decompression_cap, decompression_work, read_capped, shown, utf8, Content, Stream,
};
use gamecert_certificates::Limits;
use gamecert_reductions::dimacs::parse_dimacs;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Input that cannot be used: the message names the file and, where known, line and column.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The most bytes any compressed input may decompress to (8 GiB), whatever its size.
pub const MAX_INPUT_BYTES: u64 = 8 << 30;

/// How many times its stored size a compressed input of `gamecert`'s own commands may
/// decompress to (see the module docs for the ratios measured).
pub const MAX_EXPANSION: u64 = 200;

/// A compressed input of `gamecert`'s own commands may always decompress to this many bytes
/// (64 MiB), however small it is.
pub const MIN_DECOMPRESSED_CAP: u64 = 64 << 20;

/// Whether standard input has been read by this process.
static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// The most bytes a compressed file of `stored` bytes may decompress to in `gamecert`'s own
/// commands: [`MAX_EXPANSION`] times `stored`, at least [`MIN_DECOMPRESSED_CAP`], at most
/// [`MAX_INPUT_BYTES`].
pub fn solver_cap(stored: u64) -> u64 {
    stored.saturating_mul(MAX_EXPANSION).clamp(MIN_DECOMPRESSED_CAP, MAX_INPUT_BYTES)
}

/// The bytes of `path` as stored (`-`: standard input, read once), and its stored size: `None`
/// for a stream without one (standard input, a pipe, a device such as `/dev/zero`), which is
/// read through the checker's [`read_capped`] and refused past `stream_cap` bytes, never held
/// whole first.
fn read_stored(path: &Path, stream_cap: u64) -> Result<(Vec<u8>, Option<u64>), String> {
    let at = |e: std::io::Error| format!("{}: {e}", shown(path));
    let capped = |read: Box<dyn Read>| {
        read_capped(read, 0, stream_cap).map_err(|e| format!("{}: {e}", shown(path)))
    };
    if path == Path::new("-") {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err("standard input (-) can be read only once".into());
        }
        return Ok((capped(Box::new(std::io::stdin()))?, None));
    }
    let file = std::fs::File::open(path).map_err(at)?;
    let metadata = file.metadata().map_err(at)?;
    if !metadata.is_file() {
        return Ok((capped(Box::new(file))?, None));
    }
    // A regular file is read up to the size it takes on disk (a sparse file's length is not).
    let on_disk = gamecert_certificates::base::input::stored_size(&metadata);
    let bytes = read_capped(file, on_disk, on_disk).map_err(|e| format!("{}: {e}", shown(path)))?;
    let stored = bytes.len() as u64;
    Ok((bytes, Some(stored)))
}

/// The whole content of `path` (`-`: standard input), decompressed when it is gzip, xz or
/// bzip2, up to [`solver_cap`] of its stored size. The error names the file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, BadInput> {
    read_bytes_stored(path).map(|(bytes, _)| bytes)
}

/// [`read_bytes`] with the file's stored size.
fn read_bytes_stored(path: &Path) -> Result<(Vec<u8>, u64), BadInput> {
    // A stream has no size to tie the cap to: it may hold MAX_INPUT_BYTES, as in open_stream.
    let (raw, _) = read_stored(path, MAX_INPUT_BYTES).map_err(BadInput)?;
    let stored = raw.len() as u64;
    let cap = solver_cap(stored);
    decompress(raw, cap)
        .map_err(|refusal| {
            let why = refusal.explain(stored, cap, |tool| {
                format!(
                    "the most gamecert reads from a compressed file of that size ({MAX_EXPANSION} \
                 times its size, at least {MIN_DECOMPRESSED_CAP} bytes, at most \
                 {MAX_INPUT_BYTES}); decompress it first (`{tool} -dk FILE`)"
                )
            });
            BadInput(format!("{}: {why}", shown(path)))
        })
        .map(|bytes| (bytes, stored))
}

/// A compression format, told by its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Gzip,
    Bzip2,
    Xz,
}

impl Format {
    fn of(head: &[u8]) -> Option<Format> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Format::Gzip)
        } else if head.starts_with(b"BZh") && matches!(head.get(3), Some(b'1'..=b'9')) {
            // `BZh` and the block size, 1 to 9: a text starting `BZh x` (an edge list's first
            // line) stays text, as gamecert-check reads it.
            Some(Format::Bzip2)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Format::Xz)
        } else {
            None
        }
    }

    /// The format's name, which is also its command-line tool.
    fn name(self) -> &'static str {
        match self {
            Format::Gzip => "gzip",
            Format::Bzip2 => "bzip2",
            Format::Xz => "xz",
        }
    }
}

/// Why a compressed file was not read.
#[derive(Debug)]
enum Refusal {
    /// It decompresses to more than the cap.
    OverCap(Format),
    /// It does not decompress.
    Broken(String),
}

impl Refusal {
    /// The message: `cap_rule` says, given the format's tool, what the cap is and what to do.
    fn explain(&self, stored: u64, cap: u64, cap_rule: impl Fn(&str) -> String) -> String {
        match self {
            // A stream (standard input, a pipe) has no stored size: it counts as 0 bytes.
            Refusal::OverCap(format) if stored == 0 => format!(
                "the {} stream decompresses to more than {cap} bytes, {}",
                format.name(),
                cap_rule(format.name())
            ),
            Refusal::OverCap(format) => format!(
                "the {} file of {stored} bytes decompresses to more than {cap} bytes, {}",
                format.name(),
                cap_rule(format.name())
            ),
            Refusal::Broken(why) => format!("cannot decompress: {why}"),
        }
    }
}

/// `raw` itself, or what it decompresses to when its first bytes are a gzip, xz or bzip2 magic
/// (at most `cap` bytes: decompression stops at the first byte past it).
fn decompress(raw: Vec<u8>, cap: u64) -> Result<Vec<u8>, Refusal> {
    let Some(format) = Format::of(&raw) else {
        return Ok(raw);
    };
    let mut decoder: Box<dyn Read + '_> = match format {
        Format::Gzip => Box::new(flate2::read::MultiGzDecoder::new(&raw[..])),
        Format::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(&raw[..])),
        // Concatenated streams are read as one, as `xz -d` does.
        Format::Xz => Box::new(lzma_rust2::XzReader::new(&raw[..], true)),
    };
    // Each decoder is read a buffer at a time into the capped writer: it produces nothing
    // past the first write the cap refuses.
    let mut out = Capped { out: Vec::new(), cap, over: false };
    match std::io::copy(&mut decoder, &mut out) {
        Ok(_) => Ok(out.out),
        Err(_) if out.over => Err(Refusal::OverCap(format)),
        Err(e) => Err(Refusal::Broken(e.to_string())),
    }
}

/// A writer that refuses to grow past `cap` bytes (nor reserves room past it): decompressed
/// bytes are copied into it, and copying stops at the first write past the cap.
struct Capped {
    out: Vec<u8>,
    cap: u64,
    over: bool,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.cap - self.out.len() as u64;
        if buf.len() as u64 > room {
            self.over = true;
            return Err(std::io::Error::other(format!("more than {} bytes", self.cap)));
        }
        if self.out.capacity() - self.out.len() < buf.len() {
            // Double as a vector does, but never past the cap.
            let grow = (self.out.len().max(buf.len()).max(1 << 16) as u64).min(room);
            self.out.reserve_exact(grow as usize);
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// [`read_bytes`] with the checker's cap ([`decompression_cap`] of the stored size and
/// `max_work`, at most [`MAX_INPUT_BYTES`]), as `gamecert verify`'s
/// [`gamecert_certificates::verify::Reader`].
pub fn reader(path: &Path, max_work: Option<u64>) -> Result<Content, String> {
    // A stream counts as stored in 0 bytes (its bytes are charged as decompressed ones), as in
    // the checker's own reader.
    let (raw, stored) = read_stored(path, decompression_cap(0, max_work).min(MAX_INPUT_BYTES))?;
    unpack(path, raw, stored.unwrap_or(0), max_work)
}

/// [`reader`] on bytes already received (an upload to `gamecert serve`, named `name` in
/// messages): stored in as many bytes as were sent, decompressed under the same cap.
pub fn reader_of_bytes(
    name: &Path,
    raw: Vec<u8>,
    max_work: Option<u64>,
) -> Result<Content, String> {
    let stored = raw.len() as u64;
    unpack(name, raw, stored, max_work)
}

/// The content of `raw`, read from `path` and stored in `stored` bytes, decompressed under
/// [`reader`]'s cap.
fn unpack(
    path: &Path,
    raw: Vec<u8>,
    stored: u64,
    max_work: Option<u64>,
) -> Result<Content, String> {
    let cap = decompression_cap(stored, max_work).min(MAX_INPUT_BYTES);
    let bytes = decompress(raw, cap).map_err(|refusal| {
        let why = refusal.explain(stored, cap, |tool| {
            format!(
                "what the work budget can pay for (its stored size plus one byte for every 64 \
                 work units: the bytes decompression adds are charged 64 units each, at most \
                 {MAX_INPUT_BYTES}); decompress it first (`{tool} -dk FILE`: a plain file's \
                 bytes are prepaid), or raise --max-work"
            )
        });
        format!("{}: {why}", shown(path))
    })?;
    Ok(Content { bytes, stored })
}

/// [`reader`] as the checker's [`gamecert_certificates::verify::Opener`]: a plain file is
/// opened and read as it is checked (a `triangle-stream` certificate of gigabytes is never held
/// whole), and so is standard input unless it is compressed (an LRAT proof piped from a
/// solver); compressed files are read whole, decompressed up to the same cap as [`reader`]'s.
pub fn opener(path: &Path, max_work: Option<u64>) -> Result<Stream, String> {
    let whole = |path: &Path| {
        reader(path, max_work).map(|content| Stream {
            unpacked: (content.bytes.len() as u64).saturating_sub(content.stored),
            read: Box::new(std::io::Cursor::new(content.bytes)),
            stored: Some(content.stored),
        })
    };
    let at = |e: std::io::Error| format!("{}: {e}", shown(path));
    // A stream without a stored size (standard input, a pipe such as `<(cat proof)`, a
    // device) cannot be opened twice or rewound: its first bytes are put back in front of it.
    let from_stream = |mut raw: Box<dyn Read>| -> Result<Stream, String> {
        let mut head = Vec::new();
        (&mut raw).take(6).read_to_end(&mut head).map_err(at)?;
        let raw = std::io::Cursor::new(head.clone()).chain(raw);
        if Format::of(&head).is_none() {
            return Ok(Stream { read: Box::new(raw), stored: None, unpacked: 0 });
        }
        let raw = read_capped(raw, 0, decompression_cap(0, max_work).min(MAX_INPUT_BYTES))
            .map_err(|e| format!("{}: {e}", shown(path)))?;
        let content = unpack(path, raw, 0, max_work)?;
        Ok(Stream {
            unpacked: content.bytes.len() as u64,
            read: Box::new(std::io::Cursor::new(content.bytes)),
            stored: Some(0),
        })
    };
    if path == Path::new("-") {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err("standard input (-) can be read only once".into());
        }
        return from_stream(Box::new(std::io::stdin()));
    }
    let file = std::fs::File::open(path).map_err(at)?;
    if !file.metadata().map_err(at)?.is_file() {
        return from_stream(Box::new(file));
    }
    let mut file = file;
    let mut head = Vec::new();
    (&mut file).take(6).read_to_end(&mut head).map_err(at)?;
    if Format::of(&head).is_some() {
        return whole(path);
    }
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(0)).map_err(at)?;
    let metadata = file.metadata().map_err(at)?;
    let stored = Some(gamecert_certificates::base::input::stored_size(&metadata));
    Ok(Stream { read: Box::new(file), stored, unpacked: 0 })
}

/// `path` (`-`: standard input) as a stream read from start to end, for inputs too long to
/// hold (a graph6 stream of millions of graphs): gzip, bzip2 and xz are decompressed as they
/// are read, and a compressed stream stops with an error past the cap of [`solver_cap`] (of
/// the file's stored size; [`MAX_INPUT_BYTES`] for standard input, whose size is not known).
pub fn open_stream(path: &Path) -> Result<Box<dyn std::io::BufRead>, BadInput> {
    use std::io::{BufReader, Cursor};
    let name = shown(path);
    let at = |e: std::io::Error| BadInput(format!("{name}: {e}"));
    let (mut raw, cap): (Box<dyn Read>, u64) = if path == Path::new("-") {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(BadInput("standard input (-) can be read only once".into()));
        }
        (Box::new(std::io::stdin()), MAX_INPUT_BYTES)
    } else {
        let file = std::fs::File::open(path).map_err(at)?;
        let stored = file.metadata().map_err(at)?.len();
        (Box::new(file), solver_cap(stored))
    };
    let mut head = Vec::new();
    (&mut raw).take(6).read_to_end(&mut head).map_err(at)?;
    let whole = Cursor::new(head.clone()).chain(raw);
    let decoder: Box<dyn Read> = match Format::of(&head) {
        None => return Ok(Box::new(BufReader::with_capacity(1 << 16, whole))),
        Some(Format::Gzip) => Box::new(flate2::read::MultiGzDecoder::new(whole)),
        Some(Format::Bzip2) => Box::new(bzip2::read::MultiBzDecoder::new(whole)),
        Some(Format::Xz) => Box::new(lzma_rust2::XzReader::new(whole, true)),
    };
    Ok(Box::new(BufReader::new(CappedRead { inner: decoder, left: cap, cap, name })))
}

/// A decompressing reader that fails, naming the cap, once it has produced `cap` bytes.
struct CappedRead {
    inner: Box<dyn Read>,
    left: u64,
    cap: u64,
    name: String,
}

impl Read for CappedRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            // One byte more would pass the cap: refuse if there is one.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(std::io::Error::other(format!(
                    "{}: the compressed stream decompresses to more than {} bytes; decompress \
                     it first",
                    self.name, self.cap
                ))),
            };
        }
        let room = buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The whole content of `path` as UTF-8 text (see [`read_bytes`]).
pub fn read_text(path: &Path) -> Result<String, BadInput> {
    read_sized_text(path).map(|(text, _)| text)
}

/// An input's size as stored and as read (decompressed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    pub stored: u64,
    pub content: u64,
}

impl Sizes {
    /// The limits `gamecert verify` leaves for checking against this instance a plain
    /// certificate of `certificate` bytes: [`Limits::for_input`] of the stored sizes, less the
    /// work it charges for the instance's decompression.
    pub fn verify_limits(&self, certificate: u64) -> Limits {
        let full = Limits::for_input(self.stored.saturating_add(certificate));
        let unpacked = decompression_work(self.content, self.stored);
        full.less(unpacked)
    }
}

/// [`read_text`] with the file's [`Sizes`] (its stored size buys the memory its declared sizes
/// may make a command build, [`crate::base::limits::Allowance`]).
pub fn read_sized_text(path: &Path) -> Result<(String, Sizes), BadInput> {
    let (bytes, stored) = read_bytes_stored(path)?;
    let sizes = Sizes { stored, content: bytes.len() as u64 };
    Ok((utf8(path, bytes).map_err(BadInput)?, sizes))
}

/// An invalid instance's message: the file, then the line and column where known
/// (`f.json:3:7: ...`) or a space (`f.json: rounds: ...`).
fn located(path: &Path, err: FormatError) -> BadInput {
    match err.line {
        Some(_) => BadInput(format!("{}:{err}", shown(path))),
        None => BadInput(format!("{}: {err}", shown(path))),
    }
}

/// Reads a DIMACS CNF file; warnings (a clause-count mismatch) are returned for printing.
pub fn read_cnf(path: &Path) -> Result<(Cnf, Vec<String>), BadInput> {
    let text = read_text(path)?;
    let parsed = parse_dimacs(&text, &shown(path)).map_err(|e| BadInput(e.to_string()))?;
    Ok((parsed.cnf, parsed.warnings))
}

/// Reads an instance without validating it, as the checker reads it
/// ([`gamecert_certificates::verify::read_instance`]): JSON, a positive DNF text, or the
/// edge-list text of a one-round instance.
pub fn parse_instance(path: &Path) -> Result<Instance, BadInput> {
    parse_sized_instance(path).map(|(instance, _)| instance)
}

/// [`parse_instance`] with the file's [`Sizes`] (for the budget `verify` would give it).
pub fn parse_sized_instance(path: &Path) -> Result<(Instance, Sizes), BadInput> {
    let (text, sizes) = read_sized_text(path)?;
    let instance = gamecert_certificates::verify::parse_instance(path, &text).map_err(BadInput)?;
    Ok((instance, sizes))
}

/// Validates an instance read from `path` (named in the error).
pub fn validate_instance(path: &Path, instance: &Instance) -> Result<(), BadInput> {
    instance.validate().map_err(|e| located(path, e))
}

/// Validates a one-round instance read from `path`, keeping the built game.
pub fn validate_one_round(path: &Path, spec: &OneRoundSpec) -> Result<OneRound, BadInput> {
    spec.validate().map_err(|e| located(path, e))
}

/// Reads a certificate as the checker reads it
/// ([`gamecert_certificates::verify::read_certificate`]): one that does not parse is bad input,
/// named by file, line and column.
pub fn read_certificate(path: &Path) -> Result<Certificate, BadInput> {
    read_certificate_within(path, Limits::for_input).map(|(certificate, _)| certificate)
}

/// [`read_certificate`] of either form (JSON, or binary as the checker reads it,
/// `gamecert_certificates::verify::read_certificate_bytes`) under the limits `limits` gives
/// for the file's stored bytes as the budget weighs them (a binary byte counts
/// `BINARY_BYTE_WEIGHT` times), with what reading it left of them: a binary certificate is
/// decoded charging the budget, and the check of it then has the rest.
pub fn read_certificate_within(
    path: &Path,
    limits: impl FnOnce(u64) -> Limits,
) -> Result<(Certificate, Limits), BadInput> {
    let (bytes, stored) = read_bytes_stored(path)?;
    let full = limits(gamecert_certificates::base::binary::weighed(&bytes, stored));
    let mut budget = full.budget();
    let read = gamecert_certificates::verify::read_certificate_bytes(path, bytes, &mut budget);
    let left = full.less(budget.used());
    read.map(|certificate| (certificate, left)).map_err(BadInput)
}

/// Puts the finished file `part` at `output`: renamed over it, unless `output` is something
/// other than a regular file (`/dev/null`, a named pipe, a terminal), which a rename would
/// replace with a regular file: then `part` is copied into it and removed.
pub fn put_in_place(part: &Path, output: &Path) -> std::io::Result<()> {
    let special = std::fs::metadata(output).is_ok_and(|m| !m.is_file());
    if special || std::fs::rename(part, output).is_err() {
        std::io::copy(
            &mut std::fs::File::open(part)?,
            &mut std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(!special)
                .open(output)?,
        )?;
        let _ = std::fs::remove_file(part);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers_are_whole() {
        assert!(Format::of(b"BZh x\nwhite a").is_none());
        assert!(Format::of(b"BZh0").is_none());
        assert!(matches!(Format::of(b"BZh91AY&SY"), Some(Format::Bzip2)));
        for packed in compressed(b"white a\nblack 1\na b\n") {
            assert!(Format::of(&packed[..6]).is_some());
        }
    }

    fn compressed(text: &[u8]) -> [Vec<u8>; 3] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(text).unwrap();
        let mut xz =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(6)).unwrap();
        xz.write_all(text).unwrap();
        [gz.finish().unwrap(), bz.finish().unwrap(), xz.finish().unwrap()]
    }

    #[test]
    fn each_format_decompresses_and_plain_bytes_pass_through() {
        let text = b"p cnf 2 1\n1 -2 0\n".repeat(100);
        for packed in compressed(&text) {
            assert_ne!(packed, text);
            assert_eq!(decompress(packed, 1 << 20).unwrap(), text);
        }
        assert_eq!(decompress(text.clone(), 10).unwrap(), text, "plain input is not capped");
    }

    #[test]
    fn a_bomb_is_stopped_at_the_cap_and_a_torn_file_is_an_error() {
        let zeros = vec![0u8; 1 << 20];
        for packed in compressed(&zeros) {
            // Exactly the cap passes; one byte less refuses.
            assert_eq!(decompress(packed.clone(), 1 << 20).unwrap().len(), 1 << 20);
            let refusal = decompress(packed.clone(), (1 << 20) - 1).unwrap_err();
            assert!(matches!(refusal, Refusal::OverCap(_)), "{refusal:?}");
            let message = decompress(packed.clone(), 1000).unwrap_err().explain(
                packed.len() as u64,
                1000,
                |tool| format!("try `{tool} -d`"),
            );
            assert!(message.contains("decompresses to more than 1000 bytes"), "{message}");
            assert!(message.contains(" -d`"), "{message}");
            let torn = packed[..packed.len() / 2].to_vec();
            assert!(matches!(decompress(torn, 1 << 21), Err(Refusal::Broken(_))));
        }
    }

    #[test]
    fn the_capped_writer_never_reserves_past_its_cap() {
        let mut out = Capped { out: Vec::new(), cap: 100_000, over: false };
        for _ in 0..12 {
            out.write_all(&[7; 8192]).unwrap();
            assert!(out.out.capacity() <= 100_000, "{}", out.out.capacity());
        }
        assert!(out.write_all(&[7; 8192]).is_err());
        assert!(out.over);
    }

    #[test]
    fn the_solver_cap_follows_the_stored_size_between_its_bounds() {
        assert_eq!(solver_cap(0), MIN_DECOMPRESSED_CAP);
        assert_eq!(solver_cap(1 << 20), 200 << 20);
        assert_eq!(solver_cap(u64::MAX), MAX_INPUT_BYTES);
    }
}

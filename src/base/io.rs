//! Reading the project's input files with errors that name the file, line and column.
//!
//! Every error here is a [`BadInput`]: the command line prints it and exits with code 2.
//!
//! Every file argument goes through [`read_bytes`]: `-` is standard input (read once: a second
//! `-` in one command is an error), and a gzip, xz or bzip2 file is decompressed, told by its
//! first bytes rather than its name (SAT-competition files are `.cnf.xz`, nauty streams are
//! often `.g6.gz`). Decompressed input is capped at [`MAX_INPUT_BYTES`], so that a small
//! compressed file cannot fill the memory. A stream read once from start to end, of any length
//! (`table voronoi-graphs --graph6`), goes through [`open_stream`] instead: the same rules, but
//! only an xz file is held whole (and capped); the rest are read as they come.

use gamecert_certificates::base::cnf::Cnf;
use gamecert_certificates::format::{Certificate, FormatError, Instance, OneRound, OneRoundSpec};
use gamecert_certificates::verify::{shown, utf8};
use gamecert_reductions::dimacs::parse_dimacs;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// Input that cannot be used: the message names the file and, where known, line and column.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// The most bytes one input may decompress to (8 GiB).
pub const MAX_INPUT_BYTES: u64 = 8 << 30;

/// The first bytes that tell a compressed file: gzip, bzip2, xz.
const GZIP_MAGIC: &[u8] = &[0x1f, 0x8b];
const BZIP2_MAGIC: &[u8] = b"BZh";
const XZ_MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];

/// Whether standard input has been read by this process.
static STDIN_TAKEN: AtomicBool = AtomicBool::new(false);

/// The whole content of `path` (`-`: standard input), decompressed when it is gzip, xz or
/// bzip2. The error names the file.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, BadInput> {
    let name = shown(path);
    let at = |e: std::io::Error| BadInput(format!("{name}: {e}"));
    let raw = if path == Path::new("-") {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(BadInput("standard input (-) can be read only once".into()));
        }
        let mut bytes = Vec::new();
        std::io::stdin().lock().read_to_end(&mut bytes).map_err(at)?;
        bytes
    } else {
        std::fs::read(path).map_err(at)?
    };
    decompress(raw, MAX_INPUT_BYTES).map_err(|why| BadInput(format!("{name}: {why}")))
}

/// `raw` itself, or what it decompresses to when its first bytes are a gzip, xz or bzip2 magic
/// (at most `max` bytes).
fn decompress(raw: Vec<u8>, max: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let limit = max + 1;
    let result = if raw.starts_with(GZIP_MAGIC) {
        flate2::read::MultiGzDecoder::new(&raw[..])
            .take(limit)
            .read_to_end(&mut out)
            .map(|_| "gzip")
    } else if raw.starts_with(BZIP2_MAGIC) {
        bzip2::read::MultiBzDecoder::new(&raw[..])
            .take(limit)
            .read_to_end(&mut out)
            .map(|_| "bzip2")
    } else if raw.starts_with(XZ_MAGIC) {
        let mut capped = Capped { out: &mut out, limit };
        lzma_rs::xz_decompress(&mut &raw[..], &mut capped)
            .map(|()| "xz")
            .map_err(|e| std::io::Error::other(e.to_string()))
    } else {
        return Ok(raw);
    };
    let format = result.map_err(|e| format!("cannot decompress: {e}"))?;
    if out.len() as u64 > max {
        return Err(format!("the {format} file decompresses to more than {max} bytes"));
    }
    Ok(out)
}

/// A writer that refuses to grow past `limit` bytes (lzma-rs writes, it is not read).
struct Capped<'v> {
    out: &'v mut Vec<u8>,
    limit: u64,
}

impl Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.out.len() as u64 + buf.len() as u64 > self.limit {
            return Err(std::io::Error::other(format!("more than {} bytes", self.limit - 1)));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// [`read_bytes`] as the checker's [`gamecert_certificates::verify::Reader`].
pub fn reader(path: &Path) -> Result<Vec<u8>, String> {
    read_bytes(path).map_err(|e| e.0)
}

/// [`read_bytes`] as the checker's [`gamecert_certificates::verify::Opener`]: a plain file is
/// opened and read as it is checked (a `triangle-stream` certificate of gigabytes is never held
/// whole); standard input and compressed files are read whole and decompressed first.
pub fn opener(path: &Path) -> Result<Box<dyn Read>, String> {
    use std::io::{Seek, SeekFrom};
    let whole = |path: &Path| {
        read_bytes(path)
            .map(|b| Box::new(std::io::Cursor::new(b)) as Box<dyn Read>)
            .map_err(|e| e.0)
    };
    if path == Path::new("-") {
        return whole(path);
    }
    let at = |e: std::io::Error| format!("{}: {e}", shown(path));
    let mut file = std::fs::File::open(path).map_err(at)?;
    let mut head = Vec::new();
    (&mut file).take(6).read_to_end(&mut head).map_err(at)?;
    let compressed =
        head.starts_with(GZIP_MAGIC) || head.starts_with(BZIP2_MAGIC) || head.starts_with(XZ_MAGIC);
    if compressed {
        return whole(path);
    }
    file.seek(SeekFrom::Start(0)).map_err(at)?;
    Ok(Box::new(file))
}

/// `path` (`-`: standard input) as a stream read from start to end, for inputs too long to
/// hold (a graph6 stream of millions of graphs): gzip and bzip2 are decompressed as they are
/// read; an xz file is read whole and decompressed first (lzma-rs has no streaming reader).
pub fn open_stream(path: &Path) -> Result<Box<dyn std::io::BufRead>, BadInput> {
    use std::io::{BufReader, Cursor};
    let name = shown(path);
    let at = |e: std::io::Error| BadInput(format!("{name}: {e}"));
    let mut raw: Box<dyn Read> = if path == Path::new("-") {
        if STDIN_TAKEN.swap(true, Ordering::SeqCst) {
            return Err(BadInput("standard input (-) can be read only once".into()));
        }
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(at)?)
    };
    let mut head = Vec::new();
    (&mut raw).take(6).read_to_end(&mut head).map_err(at)?;
    let whole = Cursor::new(head.clone()).chain(raw);
    if head.starts_with(GZIP_MAGIC) {
        return Ok(Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(whole))));
    }
    if head.starts_with(BZIP2_MAGIC) {
        return Ok(Box::new(BufReader::new(bzip2::read::MultiBzDecoder::new(whole))));
    }
    if head.starts_with(XZ_MAGIC) {
        let mut bytes = Vec::new();
        BufReader::new(whole).read_to_end(&mut bytes).map_err(at)?;
        let text =
            decompress(bytes, MAX_INPUT_BYTES).map_err(|why| BadInput(format!("{name}: {why}")))?;
        return Ok(Box::new(Cursor::new(text)));
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, whole)))
}

/// The whole content of `path` as UTF-8 text (see [`read_bytes`]).
pub fn read_text(path: &Path) -> Result<String, BadInput> {
    utf8(path, read_bytes(path)?).map_err(BadInput)
}

fn located(path: &Path, err: FormatError) -> BadInput {
    BadInput(format!("{}:{err}", shown(path)))
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
    let text = read_text(path)?;
    gamecert_certificates::verify::parse_instance(path, &text).map_err(BadInput)
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
    let text = read_text(path)?;
    gamecert_certificates::verify::read_certificate(path, &text).map_err(BadInput)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compressed(text: &[u8]) -> [Vec<u8>; 3] {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(text).unwrap();
        let mut xz = Vec::new();
        lzma_rs::xz_compress(&mut &text[..], &mut xz).unwrap();
        [gz.finish().unwrap(), bz.finish().unwrap(), xz]
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
            let err = decompress(packed.clone(), 1000).unwrap_err();
            assert!(err.contains("more than 1000 bytes"), "{err}");
            let torn = packed[..packed.len() / 2].to_vec();
            assert!(decompress(torn, 1 << 21).is_err());
        }
    }
}

//! Checkpoints of the triangle-avoidance game digraph ([`crate::triangle_avoidance::solver`]), so that a long
//! run (n = 13 takes minutes) can be interrupted and resumed.
//!
//! The digraph is built one level (edge count) at a time, and a checkpoint file is appended
//! one record per finished level, flushed and synced, so an interruption loses at most the
//! level being built. Format (little-endian):
//!
//! - header: the magic line `gamecert-triangle-checkpoint 3\n`, then n and the rules (u32 each)
//!   (format 3: the canonical form changed on 2026-11-24, so the codes of format 2 files name
//!   other representatives and are refused as foreign);
//! - start record: tag 1, the number of positions of level 0 (u64) and their codes (u128 each);
//! - level record: tag 2, the level t (u32), its position count c (u64), c immediate-win bytes
//!   (0 or 1), c + 1 child offsets (u32), the children (u32 each, indices into level t + 1),
//!   then level t + 1's position count (u64) and codes (u128 each), then a 64-bit FNV-1a hash
//!   of the record's bytes (tag included), so that a damaged record is detected rather than
//!   read as a different game.
//!
//! On resume the records are read and checked for consistency (levels in order, counts that
//! match, offsets that increase, children in range, the hash); a record cut short by the interruption is
//! dropped and the file truncated to the last whole record. A file with another magic, n or
//! rules, or an inconsistent record, is refused with a message (the command line exits 2).

use crate::triangle_avoidance::rules::Rules;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8] = b"gamecert-triangle-checkpoint 3\n";
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash = (hash ^ b as u64).wrapping_mul(FNV_PRIME);
    }
    hash
}
const START: u8 = 1;
const LEVEL: u8 = 2;

/// One level of the game digraph: the positions with t edges.
#[derive(Default)]
pub struct Level {
    /// Canonical codes of the positions.
    pub codes: Vec<u128>,
    /// Children (indices into the next level) of position i: `children[offsets[i]..offsets[i+1]]`.
    pub offsets: Vec<u32>,
    pub children: Vec<u32>,
    /// Whether the player to move wins at once (achievement).
    pub immediate: Vec<bool>,
}

/// The state read back from a checkpoint: finished levels and the codes of the next level.
pub struct Resumed {
    pub levels: Vec<Level>,
    pub current: Vec<u128>,
}

/// An open checkpoint file that levels are appended to.
pub struct Checkpoint {
    path: PathBuf,
    file: BufWriter<File>,
}

fn rules_tag(rules: Rules) -> u32 {
    match rules {
        Rules::TriangleAvoidance => 0,
        Rules::TriangleAchievement => 1,
        Rules::OddCycleAvoidance => 2,
        Rules::ConnectedAvoidance => 3,
    }
}

/// Why a read stopped: the file ended inside a record (an interrupted write), or it is bad.
enum ReadStop {
    Truncated,
    Bad(String),
}

fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), ReadStop> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => ReadStop::Truncated,
        _ => ReadStop::Bad(e.to_string()),
    })
}

fn read_u8(r: &mut impl Read) -> Result<u8, ReadStop> {
    let mut b = [0u8; 1];
    read_exact(r, &mut b)?;
    Ok(b[0])
}

fn read_u32(r: &mut impl Read) -> Result<u32, ReadStop> {
    let mut b = [0u8; 4];
    read_exact(r, &mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(r: &mut impl Read) -> Result<u64, ReadStop> {
    let mut b = [0u8; 8];
    read_exact(r, &mut b)?;
    Ok(u64::from_le_bytes(b))
}

/// Refuses to allocate for `items` items of `size` bytes when the file has fewer bytes left:
/// a count read from the file is only believed as far as the file can back it (a larger one
/// is read as a record cut short).
fn backed<R: Read>(r: &CountingReader<R>, items: u64, size: u64) -> Result<(), ReadStop> {
    if items.saturating_mul(size) > r.len.saturating_sub(r.read) {
        return Err(ReadStop::Truncated);
    }
    Ok(())
}

fn read_codes<R: Read>(r: &mut CountingReader<R>, count: u64) -> Result<Vec<u128>, ReadStop> {
    backed(r, count, 16)?;
    let mut out = Vec::with_capacity(count as usize);
    let mut b = [0u8; 16];
    for _ in 0..count {
        read_exact(r, &mut b)?;
        out.push(u128::from_le_bytes(b));
    }
    Ok(out)
}

/// One level record (after its tag), for a level of `count` positions: the level's data
/// without its codes (the caller holds them) and the codes of the next level.
fn read_level<R: Read>(
    r: &mut CountingReader<R>,
    expected: usize,
    count: usize,
) -> Result<(Level, Vec<u128>), ReadStop> {
    let t = read_u32(r)? as usize;
    if t != expected {
        return Err(ReadStop::Bad(format!(
            "a record for level {t} where level {expected} was due"
        )));
    }
    let recorded = read_u64(r)?;
    if recorded != count as u64 {
        return Err(ReadStop::Bad(format!(
            "level {t} has {recorded} positions in its record but {count} codes"
        )));
    }
    let mut immediate = vec![0u8; count];
    read_exact(r, &mut immediate)?;
    if immediate.iter().any(|&b| b > 1) {
        return Err(ReadStop::Bad(format!("level {t}: an immediate-win flag that is not 0 or 1")));
    }
    let mut offsets = Vec::with_capacity(count + 1);
    for _ in 0..=count {
        offsets.push(read_u32(r)?);
    }
    if offsets[0] != 0 || offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err(ReadStop::Bad(format!("level {t}: child offsets that do not increase")));
    }
    let arcs = *offsets.last().expect("count + 1 offsets") as usize;
    backed(r, arcs as u64, 4)?;
    let mut children = Vec::with_capacity(arcs);
    for _ in 0..arcs {
        children.push(read_u32(r)?);
    }
    let next_count = read_u64(r)?;
    if children.iter().any(|&c| c as u64 >= next_count) {
        return Err(ReadStop::Bad(format!(
            "level {t}: a child beyond the next level's {next_count} positions"
        )));
    }
    let next = read_codes(r, next_count)?;
    let level = Level {
        codes: Vec::new(),
        offsets,
        children,
        immediate: immediate.into_iter().map(|b| b == 1).collect(),
    };
    Ok((level, next))
}

impl Checkpoint {
    /// Opens `path` for (n, rules): reads what it holds (`None` if it does not exist yet, in
    /// which case it is created with its header and start record `start`), truncating a record
    /// cut short by an interruption.
    pub fn open(
        path: &Path,
        n: usize,
        rules: Rules,
        start: &[u128],
    ) -> Result<(Checkpoint, Option<Resumed>), String> {
        let at = |why: String| format!("{}: {why}", path.display());
        if !path.exists() {
            let file = File::create(path).map_err(|e| at(e.to_string()))?;
            let mut c = Checkpoint { path: path.to_path_buf(), file: BufWriter::new(file) };
            let mut head = MAGIC.to_vec();
            head.extend((n as u32).to_le_bytes());
            head.extend(rules_tag(rules).to_le_bytes());
            head.push(START);
            head.extend((start.len() as u64).to_le_bytes());
            for code in start {
                head.extend(code.to_le_bytes());
            }
            c.write(&head)?;
            return Ok((c, None));
        }
        let file = File::open(path).map_err(|e| at(e.to_string()))?;
        let len = file.metadata().map_err(|e| at(e.to_string()))?.len();
        let mut r = CountingReader { inner: BufReader::new(file), read: 0, len, hash: FNV_OFFSET };
        // The header and start record are written in one go; a file cut inside them (an
        // interruption at the very start) is begun again.
        let mut head = Vec::new();
        (&mut r.inner)
            .take(MAGIC.len() as u64)
            .read_to_end(&mut head)
            .map_err(|e| at(e.to_string()))?;
        r.read = head.len() as u64;
        if !MAGIC.starts_with(&head) {
            return Err(at("not a gamecert triangle-avoidance checkpoint (wrong header)".into()));
        }
        let restart = || -> Result<(Checkpoint, Option<Resumed>), String> {
            std::fs::remove_file(path).map_err(|e| at(e.to_string()))?;
            Checkpoint::open(path, n, rules, start)
        };
        if head.len() < MAGIC.len() {
            drop(r);
            return restart();
        }
        let header = (|| -> Result<(u32, u32, u8, Vec<u128>), ReadStop> {
            let file_n = read_u32(&mut r)?;
            let file_rules = read_u32(&mut r)?;
            let tag = read_u8(&mut r)?;
            let count = read_u64(&mut r)?;
            Ok((file_n, file_rules, tag, read_codes(&mut r, count)?))
        })();
        let (file_n, file_rules, tag, mut current) = match header {
            Ok(parts) => parts,
            Err(ReadStop::Truncated) => {
                drop(r);
                return restart();
            }
            Err(ReadStop::Bad(why)) => return Err(at(why)),
        };
        if file_n as usize != n || file_rules != rules_tag(rules) {
            return Err(at(format!(
                "the checkpoint is for n = {file_n} (rules {file_rules}), not n = {n} ({}, rules {})",
                rules.name(),
                rules_tag(rules)
            )));
        }
        if tag != START || current != start {
            return Err(at("the start record is not this game's start position".into()));
        }
        let mut levels: Vec<Level> = Vec::new();
        let mut good = r.read;
        loop {
            r.hash = FNV_OFFSET;
            let tag = match read_u8(&mut r) {
                Ok(tag) => tag,
                Err(ReadStop::Truncated) => break,
                Err(ReadStop::Bad(why)) => return Err(at(why)),
            };
            if tag != LEVEL {
                return Err(at(format!("a record with the unknown tag {tag}")));
            }
            match read_level(&mut r, levels.len(), current.len()) {
                Ok((mut level, next)) => {
                    let expected = r.hash;
                    match read_u64(&mut r) {
                        Ok(stored) if stored == expected => {}
                        Ok(_) => {
                            return Err(at(format!(
                                "the record of level {} fails its checksum: the file is damaged",
                                levels.len()
                            )))
                        }
                        Err(ReadStop::Truncated) => break,
                        Err(ReadStop::Bad(why)) => return Err(at(why)),
                    }
                    level.codes = std::mem::replace(&mut current, next);
                    levels.push(level);
                    good = r.read;
                }
                // An interrupted write: the level is built again from `current`.
                Err(ReadStop::Truncated) => break,
                Err(ReadStop::Bad(why)) => return Err(at(why)),
            }
        }
        drop(r);
        let c = Checkpoint::append_at(path, good)?;
        Ok((c, Some(Resumed { levels, current })))
    }

    /// Opens the file for appending after truncating it to `good` bytes.
    fn append_at(path: &Path, good: u64) -> Result<Checkpoint, String> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        file.set_len(good).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Checkpoint { path: path.to_path_buf(), file: BufWriter::new(file) })
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let at = |e: std::io::Error| format!("{}: {e}", self.path.display());
        self.file.write_all(bytes).map_err(at)
    }

    /// Appends level `t` and the codes of level t + 1, then flushes and syncs.
    pub fn append(&mut self, t: usize, level: &Level, next: &[u128]) -> Result<(), String> {
        let mut out = Vec::with_capacity(
            32 + level.codes.len() * 5 + level.children.len() * 4 + next.len() * 16,
        );
        out.push(LEVEL);
        out.extend((t as u32).to_le_bytes());
        out.extend((level.codes.len() as u64).to_le_bytes());
        out.extend(level.immediate.iter().map(|&b| b as u8));
        for o in &level.offsets {
            out.extend(o.to_le_bytes());
        }
        for c in &level.children {
            out.extend(c.to_le_bytes());
        }
        out.extend((next.len() as u64).to_le_bytes());
        for code in next {
            out.extend(code.to_le_bytes());
        }
        out.extend(fnv1a(FNV_OFFSET, &out).to_le_bytes());
        self.write(&out)?;
        let at = |e: std::io::Error| format!("{}: {e}", self.path.display());
        self.file.flush().map_err(at)?;
        self.file.get_ref().sync_data().map_err(at)
    }
}

/// A reader that counts the bytes it has handed out (to know where the last whole record
/// ends).
struct CountingReader<R: Read> {
    inner: R,
    read: u64,
    /// The file's length.
    len: u64,
    /// FNV-1a of the bytes handed out since it was last reset.
    hash: u64,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.read += k as u64;
        self.hash = fnv1a(self.hash, &buf[..k]);
        Ok(k)
    }
}

#[cfg(test)]
mod tests {
    use crate::triangle_avoidance::solver::{solve, solve_resumable, Rules};

    fn outcome(n: usize, path: Option<&std::path::Path>) -> (String, usize, usize, Option<usize>) {
        let r = match path {
            Some(p) => {
                solve_resumable(n, Rules::TriangleAvoidance, Some(p), &mut |_, _| {}).unwrap()
            }
            None => solve(n, Rules::TriangleAvoidance, &mut |_, _| {}),
        };
        (r.winner, r.positions, r.terminal, r.arcs)
    }

    #[test]
    fn an_interrupted_run_resumes_to_the_same_answer() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t8.ckpt");
        let plain = outcome(8, None);
        assert_eq!(outcome(8, Some(&path)), plain);
        let full = std::fs::read(&path).unwrap();
        // A finished checkpoint answers without building anything again.
        assert_eq!(outcome(8, Some(&path)), plain);
        assert_eq!(std::fs::read(&path).unwrap(), full);
        // Cut the file anywhere (an interruption mid-write): the run resumes and ends with
        // the same answer and the same file.
        for cut in [40, full.len() / 3, full.len() / 2, full.len() - 7] {
            std::fs::write(&path, &full[..cut]).unwrap();
            assert_eq!(outcome(8, Some(&path)), plain, "cut at {cut}");
            assert_eq!(std::fs::read(&path).unwrap(), full, "cut at {cut}");
        }
    }

    #[test]
    fn foreign_or_corrupt_checkpoints_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ckpt");
        outcome(6, Some(&path));
        let err =
            solve_resumable(7, Rules::TriangleAvoidance, Some(&path), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("the checkpoint is for n = 6"), "{err}");
        let err =
            solve_resumable(6, Rules::OddCycleAvoidance, Some(&path), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("rules"), "{err}");
        let mut bytes = std::fs::read(&path).unwrap();
        let level_tag = bytes.len() - 40; // somewhere inside the records
        bytes[level_tag] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        // Either a structural error or, if the flipped byte was a code, a mismatch later on:
        // never a panic, and never silently a different answer.
        if let Ok(r) = solve_resumable(6, Rules::TriangleAvoidance, Some(&path), &mut |_, _| {}) {
            assert_eq!(r.positions, 38);
        }
        std::fs::write(&path, b"hello, world").unwrap();
        let err =
            solve_resumable(6, Rules::TriangleAvoidance, Some(&path), &mut |_, _| {}).unwrap_err();
        assert!(err.contains("not a gamecert triangle-avoidance checkpoint"), "{err}");
    }

    /// Damage any single byte of a finished checkpoint: the run is refused with a message, or
    /// (a damaged count that reads as an interrupted write) the level is built again; it never
    /// panics and never answers differently.
    #[test]
    fn every_damaged_byte_is_caught_or_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t5.ckpt");
        let plain = outcome(5, None);
        outcome(5, Some(&path));
        let full = std::fs::read(&path).unwrap();
        let mut refused = 0;
        for at in 0..full.len() {
            let mut bytes = full.clone();
            bytes[at] ^= 0x5a;
            std::fs::write(&path, &bytes).unwrap();
            match solve_resumable(5, Rules::TriangleAvoidance, Some(&path), &mut |_, _| {}) {
                Ok(r) => {
                    assert_eq!((r.winner, r.positions, r.terminal, r.arcs), plain, "byte {at}")
                }
                Err(why) => {
                    assert!(why.contains("t5.ckpt"), "{why}");
                    refused += 1;
                }
            }
        }
        assert!(refused > full.len() / 2, "{refused} of {}", full.len());
    }
}

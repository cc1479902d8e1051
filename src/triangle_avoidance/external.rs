//! The game digraph of triangle avoidance (and its relatives) out of core: level by level on
//! disk, in bounded memory, resumable. The in-memory [`crate::triangle_avoidance::solver`]
//! keeps every position and arc (about 145 bytes a position: 3 GB at n = 13, 68 GB at n = 14);
//! this solver keeps sorted files of canonical codes and label bitmaps, and memory for one
//! chunk of work plus the level it looks children up in.
//!
//! # Files (in the work directory, one folder per game and n)
//!
//! - `level-TTT.codes`: the positions with TTT edges, as sorted, distinct 16-byte
//!   little-endian canonical codes ([`crate::triangle_avoidance::canon`]; a graph on n <= 16
//!   vertices fits 120 bits), after a 40-byte header (magic, n, rules, level, count, arcs into
//!   this level or all ones where not counted, checksum).
//! - `level-TTT.labels`: one bit per position of that level in the same order (1: the player to
//!   move wins), after a header with the level's terminal count (positions with no move).
//!
//! Every file is written under a `.part` name and renamed when whole, so a file that exists
//! is complete; its header and checksum are verified when it is read, and a file of another
//! game or n, or a damaged one, is an error naming it. An interrupted run started again with
//! the same directory resumes from the last whole level of either pass.
//!
//! # The two passes
//!
//! Forward (level t to t + 1): level t is read in chunks; each position's children are
//! canonicalised in parallel (rayon) and appended to a buffer; a full buffer is sorted,
//! deduplicated and written as a run; the runs are merged (a k-way merge that drops
//! duplicates) into level t + 1. The last level is the first that comes out empty.
//!
//! Backward (level t from its successor), two ways:
//! - every game: level t + 1's codes and labels are held in memory; level t is read in
//!   chunks and each position is labelled: the player to move wins at once (triangle
//!   achievement), or some child is a loss for its player to move (looked up by binary
//!   search; the search stops at the first losing child);
//! - hereditary games ([`Rules::is_hereditary`]: triangle and odd-cycle avoidance, whose
//!   positions are all triangle-free or all bipartite graphs): level t's codes are held, and
//!   every lost position of level t + 1 marks its parents (itself minus an edge, one edge per
//!   orbit) won; the rest of level t loses ([`backward_from_losses`]). Levels alternate
//!   between mostly won and mostly lost, and where level t + 1 has many losses for the size of
//!   level t, the first way (pulling: a winning position usually finds a lost child among its
//!   first moves) is cheaper and is used instead ([`pull_is_cheaper`]).
//!
//! # Hereditary games: a filter on the forward pass
//!
//! For triangle and odd-cycle avoidance the forward pass keeps a child H = G + e only when
//! the added edge e has the largest invariant among H's edges
//! ([`crate::triangle_avoidance::rules::Rules::augmented_children`]: the ends' degrees and
//! neighbour-degree sums), so most children need no canonical form (the filter of McKay's
//! geng). Every graph H of level t + 1 is still found: take an edge e of H of largest
//! invariant; H - e is a position of level t (the family is closed under deleting an edge),
//! listed as its canonical representative G, and the isomorphism from H - e onto G takes e
//! to a legal move f of G with G + f isomorphic to H; the invariant is an isomorphism
//! invariant, so f has the largest one in G + f and the child is kept. Arcs (distinct
//! children per position) are then not counted; the header says so ([`ARCS_NOT_COUNTED`]).
//! Together the two changes made the n <= 12 table 2.4 times faster and n = 13 3.1 times
//! (side by side, 2026-11-25; docs/benchmarks.md).
//!
//! Memory: the forward buffer takes half of `--memory`; the backward pass needs the largest
//! level's codes (16 bytes a position) plus two bitmaps, and refuses to start a level that does
//! not fit, naming what it needs. The counts agree with the in-memory solver (tests, n <= 9,
//! every game, with a memory limit small enough to force many runs).

use crate::base::limits::decimal_bytes;
use crate::triangle_avoidance::canon::{
    automorphisms, canonical, pair_orbit_representatives, SmallGraph,
};
use crate::triangle_avoidance::rules::Rules;
use crate::triangle_avoidance::solver::LevelCounts;
use rayon::prelude::*;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Version 2: the canonical form changed on 2026-11-24 (refinement by Hopcroft's rule), so
/// version 1 files hold other representatives and are refused as another file.
const CODES_MAGIC: &[u8; 8] = b"GCTACOD2";
const LABELS_MAGIC: &[u8; 8] = b"GCTALAB2";
const HEADER_BYTES: usize = 40;
/// A codes header's arc count when the forward pass did not count arcs (hereditary games,
/// whose forward filter keeps only some children of each parent).
const ARCS_NOT_COUNTED: u64 = u64::MAX;
/// Parents per chunk of work (both passes): large enough to keep two cores busy.
const CHUNK: usize = 1 << 16;

/// What the out-of-core solver may use.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Bytes of memory for buffers and the looked-up level.
    pub memory: u64,
    /// The folder for level files (created if missing).
    pub dir: PathBuf,
}

/// What a run found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalOutcome {
    pub counts: LevelCounts,
    /// The most bytes the level and run files took at once.
    pub peak_disk: u64,
    /// Sorted runs written and merged by the levels built in this call (0: every level fit).
    pub runs: u64,
}

/// The registry's size estimate: the positions (unlabelled triangle-free graphs), where known.
pub fn estimate(instance: &gamecert_certificates::format::Instance) -> Option<String> {
    let gamecert_certificates::format::Instance::TriangleAvoidance(spec) = instance else {
        return None;
    };
    known_positions(spec.n, Rules::TriangleAvoidance)
        .map(|t| format!("{} positions", crate::base::limits::grouped(u128::from(t))))
}

/// Bytes of disk a level of `positions` positions takes (its codes and label bits).
const BYTES_PER_POSITION: f64 = 16.0 + 1.0 / 8.0;

/// t_n where it is known in advance (for the disk estimate and the progress totals): triangle
/// avoidance, from the paper's table to n = 12, t_13 as computed here, and t_14 from OEIS
/// A006785 (triangle-free graphs); odd-cycle avoidance to n = 14 (bipartite graphs). A unit
/// test checks every value to n = 9 against the in-memory solver.
pub fn known_positions(n: usize, rules: Rules) -> Option<u64> {
    match rules {
        Rules::TriangleAvoidance => match n {
            13 => Some(20_797_002),
            14 => Some(467_871_369),
            n => crate::triangle_avoidance::solver::PAPER_TABLE
                .iter()
                .find(|p| p.0 == n)
                .map(|p| p.2 as u64),
        },
        // Every bipartite graph is a position: OEIS A033995, n = 2..14, each value also
        // found by this engine here (docs/families/triangle-avoidance.md).
        Rules::OddCycleAvoidance => {
            [2, 3, 7, 13, 35, 88, 303, 1_119, 5_479, 32_303, 251_135, 2_527_712, 33_985_853]
                .get(n.checked_sub(2)?)
                .copied()
        }
        Rules::TriangleAchievement | Rules::ConnectedAvoidance => None,
    }
}

/// What the run will put on disk, said before it starts: the level files stay (they are the
/// resumable state; about 16 bytes a position), and the largest level's runs come and go.
pub fn disk_estimate(max_n: usize, rules: Rules, dir: &Path) -> String {
    let known = known_positions(max_n, rules);
    let children_per_position = if rules.is_hereditary() { 2.0 } else { 16.0 };
    match known {
        // The runs of a level hold at most one code per child sent into it. The largest
        // level holds about 16% of the positions; it receives about 16 arcs per position of
        // it at n = 12, or, past the forward filter of hereditary games, about 1.25 children
        // (2 allowed for).
        Some(t) => format!(
            "out of core in {}: n = {max_n} has {t} positions; its level files take about {}, \
             and the runs of the largest level at most about {} more while it is built",
            dir.display(),
            decimal_bytes((t as f64 * BYTES_PER_POSITION) as u64),
            decimal_bytes((t as f64 * 0.16 * children_per_position * 16.0) as u64)
        ),
        None => format!(
            "out of core in {}: about 16 bytes of disk per position (t_n is not known in advance \
             for {} at n = {max_n})",
            dir.display(),
            rules.name()
        ),
    }
}

/// A rules value as a byte in the file headers.
fn rules_id(rules: Rules) -> u8 {
    match rules {
        Rules::TriangleAvoidance => 1,
        Rules::TriangleAchievement => 2,
        Rules::OddCycleAvoidance => 3,
        Rules::ConnectedAvoidance => 4,
    }
}

/// A 64-bit checksum of codes (or of bitmap words), order-sensitive.
fn mix(hash: u64, word: u128) -> u64 {
    let folded = (word as u64) ^ ((word >> 64) as u64).rotate_left(29);
    (hash ^ folded).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31)
}

/// The files of one game and n.
pub(crate) struct Files {
    dir: PathBuf,
    n: usize,
    rules: Rules,
}

/// A header: (magic, n, rules, level, count, extra, checksum).
fn header(
    magic: &[u8; 8],
    f: &Files,
    level: usize,
    count: u64,
    extra: u64,
    sum: u64,
) -> [u8; HEADER_BYTES] {
    let mut h = [0u8; HEADER_BYTES];
    h[..8].copy_from_slice(magic);
    h[8] = f.n as u8;
    h[9] = rules_id(f.rules);
    h[10..12].copy_from_slice(&(level as u16).to_le_bytes());
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h[24..32].copy_from_slice(&extra.to_le_bytes());
    h[32..40].copy_from_slice(&sum.to_le_bytes());
    h
}

impl Files {
    /// The files of the game `rules` on `n` nodes under the work folder of `budget`.
    pub(crate) fn of(budget: &Budget, n: usize, rules: Rules) -> Files {
        Files { dir: budget.dir.join(format!("{}-n{n}", rules.name())), n, rules }
    }

    /// The game's folder.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn codes(&self, t: usize) -> PathBuf {
        self.dir.join(format!("level-{t:03}.codes"))
    }

    fn labels(&self, t: usize) -> PathBuf {
        self.dir.join(format!("level-{t:03}.labels"))
    }

    fn part(path: &Path) -> PathBuf {
        path.with_extension(format!(
            "{}.part",
            path.extension().and_then(|e| e.to_str()).unwrap_or_default()
        ))
    }

    /// Reads and checks a header; returns (count, extra, checksum).
    fn read_header(
        &self,
        path: &Path,
        magic: &[u8; 8],
        t: usize,
        r: &mut impl Read,
    ) -> Result<(u64, u64, u64), String> {
        let mut h = [0u8; HEADER_BYTES];
        r.read_exact(&mut h).map_err(|e| format!("{}: {e}", path.display()))?;
        let word = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().expect("8 bytes"));
        if &h[..8] != magic
            || h[8] as usize != self.n
            || h[9] != rules_id(self.rules)
            || u16::from_le_bytes([h[10], h[11]]) as usize != t
        {
            return Err(format!(
                "{}: not level {t} of {} on {} vertices (another game, n or file)",
                path.display(),
                self.rules.name(),
                self.n
            ));
        }
        Ok((word(16), word(24), word(32)))
    }

    /// Writes a sorted level of codes (and the arcs into it) under its final name.
    fn write_codes(
        &self,
        t: usize,
        codes: impl Iterator<Item = u128>,
        arcs: u64,
    ) -> Result<u64, String> {
        let path = self.codes(t);
        let part = Files::part(&path);
        let io = |e: std::io::Error| format!("{}: {e}", part.display());
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&part).map_err(io)?);
        out.write_all(&[0u8; HEADER_BYTES]).map_err(io)?;
        let (mut count, mut sum) = (0u64, 0u64);
        for code in codes {
            out.write_all(&code.to_le_bytes()).map_err(io)?;
            count += 1;
            sum = mix(sum, code);
        }
        let mut file = out.into_inner().map_err(|e| io(e.into_error()))?;
        use std::io::Seek;
        file.seek(std::io::SeekFrom::Start(0)).map_err(io)?;
        file.write_all(&header(CODES_MAGIC, self, t, count, arcs, sum)).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&part, &path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(count)
    }

    /// Opens a level's codes: (reader positioned at the first code, count, arcs).
    fn open_codes(&self, t: usize) -> Result<(CodeReader, u64, u64), String> {
        let path = self.codes(t);
        let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut r = BufReader::with_capacity(1 << 20, file);
        let (count, arcs, sum) = self.read_header(&path, CODES_MAGIC, t, &mut r)?;
        let length = std::fs::metadata(&path).map_err(|e| e.to_string())?.len();
        // A damaged header's count must not wrap the expected length into agreement.
        let expected = count.checked_mul(16).and_then(|b| b.checked_add(HEADER_BYTES as u64));
        if expected != Some(length) {
            return Err(format!(
                "{}: {length} bytes, not the {count} codes its header gives",
                path.display()
            ));
        }
        Ok((CodeReader { r, left: count, sum: 0, expected: sum, path, last: None }, count, arcs))
    }

    /// A whole level in memory (checked: sorted, distinct, checksum).
    pub(crate) fn load_codes(&self, t: usize) -> Result<Vec<u128>, String> {
        let (mut reader, count, _) = self.open_codes(t)?;
        let mut codes = Vec::with_capacity(count as usize);
        while let Some(code) = reader.next_code()? {
            codes.push(code);
        }
        Ok(codes)
    }

    fn write_labels(
        &self,
        t: usize,
        bits: &[u64],
        count: u64,
        terminal: u64,
    ) -> Result<(), String> {
        let path = self.labels(t);
        let part = Files::part(&path);
        let io = |e: std::io::Error| format!("{}: {e}", part.display());
        let sum = bits.iter().fold(0, |s, &w| mix(s, w as u128));
        let mut out = BufWriter::new(File::create(&part).map_err(io)?);
        out.write_all(&header(LABELS_MAGIC, self, t, count, terminal, sum)).map_err(io)?;
        for w in bits {
            out.write_all(&w.to_le_bytes()).map_err(io)?;
        }
        out.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)?;
        std::fs::rename(&part, &path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// A level's labels: (bitmap, count, terminal).
    pub(crate) fn load_labels(&self, t: usize) -> Result<(Vec<u64>, u64, u64), String> {
        let path = self.labels(t);
        let file = File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut r = BufReader::new(file);
        let (count, terminal, sum) = self.read_header(&path, LABELS_MAGIC, t, &mut r)?;
        // The file's length must match its count before the bitmap is allocated.
        let length =
            std::fs::metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?.len();
        if count.div_ceil(64).checked_mul(8).and_then(|b| b.checked_add(HEADER_BYTES as u64))
            != Some(length)
        {
            return Err(format!(
                "{}: {length} bytes, not the {count} labels its header gives",
                path.display()
            ));
        }
        let words = count.div_ceil(64) as usize;
        let mut bytes = vec![0u8; words * 8];
        r.read_exact(&mut bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let bits: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        if bits.iter().fold(0, |s, &w| mix(s, w as u128)) != sum {
            return Err(format!(
                "{}: the checksum does not match (a damaged file)",
                path.display()
            ));
        }
        Ok((bits, count, terminal))
    }
}

/// Reads the codes of a level in order, checking order and checksum as it goes.
struct CodeReader {
    r: BufReader<File>,
    left: u64,
    sum: u64,
    expected: u64,
    path: PathBuf,
    last: Option<u128>,
}

impl CodeReader {
    fn next_code(&mut self) -> Result<Option<u128>, String> {
        if self.left == 0 {
            if self.sum != self.expected {
                return Err(format!(
                    "{}: the checksum does not match (a damaged file)",
                    self.path.display()
                ));
            }
            return Ok(None);
        }
        let mut b = [0u8; 16];
        self.r.read_exact(&mut b).map_err(|e| format!("{}: {e}", self.path.display()))?;
        let code = u128::from_le_bytes(b);
        if self.last.is_some_and(|l| l >= code) {
            return Err(format!("{}: codes out of order (a damaged file)", self.path.display()));
        }
        self.last = Some(code);
        self.left -= 1;
        self.sum = mix(self.sum, code);
        Ok(Some(code))
    }

    /// Up to `n` next codes.
    fn chunk(&mut self, n: usize) -> Result<Vec<u128>, String> {
        let mut out = Vec::with_capacity(n.min(self.left as usize));
        while out.len() < n {
            match self.next_code()? {
                Some(c) => out.push(c),
                None => break,
            }
        }
        Ok(out)
    }
}

/// A sorted run of codes on disk, read back during the merge.
struct Run {
    r: BufReader<File>,
}

impl Run {
    fn next(&mut self) -> Result<Option<u128>, String> {
        let mut b = [0u8; 16];
        match self.r.read_exact(&mut b) {
            Ok(()) => Ok(Some(u128::from_le_bytes(b))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Bytes of the files in `dir`.
fn disk_use(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().filter_map(|e| e.metadata().ok()).map(|m| m.len()).sum())
        .unwrap_or(0)
}

/// The distinct canonical children of the position `code` (none after an immediate win).
fn children_of(n: usize, rules: Rules, code: u128) -> Vec<u128> {
    if rules.is_hereditary() {
        return rules.augmented_children(&SmallGraph::from_code(n, code));
    }
    rules.distinct_children(&SmallGraph::from_code(n, code))
}

/// Builds level t + 1 from level t; returns its size.
fn forward(
    files: &Files,
    t: usize,
    budget: &Budget,
    peak: &mut u64,
    runs_written: &mut u64,
    base: u64,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<u64, String> {
    let (mut reader, count, _) = files.open_codes(t)?;
    let buffer_limit = (budget.memory / 2 / 16).max(256) as usize;
    let mut buffer: Vec<u128> = Vec::new();
    let mut runs: Vec<PathBuf> = Vec::new();
    // Hereditary games keep only some children per parent (the forward filter), so their
    // arcs are not counted: the header records ARCS_NOT_COUNTED.
    let hereditary = files.rules.is_hereditary();
    let mut arcs = 0u64;
    let mut done = 0u64;
    let flush = |buffer: &mut Vec<u128>, runs: &mut Vec<PathBuf>| -> Result<(), String> {
        buffer.par_sort_unstable();
        buffer.dedup();
        let path = files.dir.join(format!("run-{:03}-{:04}.part", t + 1, runs.len()));
        let io = |e: std::io::Error| format!("{}: {e}", path.display());
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&path).map_err(io)?);
        for code in buffer.iter() {
            out.write_all(&code.to_le_bytes()).map_err(io)?;
        }
        out.flush().map_err(io)?;
        runs.push(path);
        buffer.clear();
        Ok(())
    };
    loop {
        let chunk = reader.chunk(CHUNK)?;
        if chunk.is_empty() {
            break;
        }
        let kids: Vec<Vec<u128>> =
            chunk.par_iter().map(|&code| children_of(files.n, files.rules, code)).collect();
        for k in kids {
            arcs += k.len() as u64;
            buffer.extend(k);
            if buffer.len() >= buffer_limit {
                flush(&mut buffer, &mut runs)?;
                *peak = (*peak).max(disk_use(&files.dir));
            }
        }
        done += chunk.len() as u64;
        progress(
            base + done,
            &format!("level {t} -> {}: {done} of {count} positions expanded", t + 1),
        );
    }
    // One run held in memory goes straight to the level file; otherwise a k-way merge.
    let size = if runs.is_empty() {
        buffer.par_sort_unstable();
        buffer.dedup();
        files.write_codes(
            t + 1,
            buffer.drain(..),
            if hereditary { ARCS_NOT_COUNTED } else { arcs },
        )?
    } else {
        if !buffer.is_empty() {
            flush(&mut buffer, &mut runs)?;
        }
        drop(buffer);
        let mut readers: Vec<Run> = runs
            .iter()
            .map(|p| {
                File::open(p)
                    .map(|f| Run { r: BufReader::with_capacity(1 << 18, f) })
                    .map_err(|e| format!("{}: {e}", p.display()))
            })
            .collect::<Result<_, _>>()?;
        let mut heap = BinaryHeap::new();
        for (i, r) in readers.iter_mut().enumerate() {
            if let Some(c) = r.next()? {
                heap.push(std::cmp::Reverse((c, i)));
            }
        }
        let mut failure = None;
        let merged = std::iter::from_fn(|| loop {
            let std::cmp::Reverse((code, i)) = heap.pop()?;
            match readers[i].next() {
                Ok(Some(next)) => heap.push(std::cmp::Reverse((next, i))),
                Ok(None) => {}
                Err(e) => {
                    failure = Some(e);
                    return None;
                }
            }
            // Duplicates across runs come out together: keep the first.
            if heap.peek().is_some_and(|std::cmp::Reverse((c, _))| *c == code) {
                continue;
            }
            return Some(code);
        });
        let size =
            files.write_codes(t + 1, merged, if hereditary { ARCS_NOT_COUNTED } else { arcs })?;
        if let Some(e) = failure {
            return Err(format!("merging the runs of level {}: {e}", t + 1));
        }
        size
    };
    *peak = (*peak).max(disk_use(&files.dir));
    *runs_written += runs.len() as u64;
    for run in runs {
        let _ = std::fs::remove_file(run);
    }
    Ok(size)
}

/// Moves [`backward`] looks up before it searches a position's automorphisms.
const DIRECT_MOVES: usize = 2;

/// Labels level t, given level t + 1 in memory; returns (bitmap, terminal count).
fn backward(
    files: &Files,
    t: usize,
    next: Option<(&[u128], &[u64])>,
    base: u64,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<(Vec<u64>, u64, u64), String> {
    let (mut reader, count, _) = files.open_codes(t)?;
    let mut bits = vec![0u64; count.div_ceil(64) as usize];
    let (mut terminal, mut at) = (0u64, 0usize);
    let (n, rules) = (files.n, files.rules);
    loop {
        let chunk = reader.chunk(CHUNK)?;
        if chunk.is_empty() {
            break;
        }
        // (wins, terminal) per position.
        let labelled: Vec<Result<(bool, bool), String>> = chunk
            .par_iter()
            .map(|&code| {
                let g = SmallGraph::from_code(n, code);
                if rules.immediate_win(&g) {
                    return Ok((true, false));
                }
                let moves = rules.moves(&g);
                if moves.is_empty() {
                    return Ok((false, true));
                }
                let Some((codes, labels)) = next else {
                    return Err(format!("level {t} has moves but level {} is empty", t + 1));
                };
                let lost_child = |(a, b): (usize, usize)| {
                    let mut h = g;
                    h.add_edge(a, b);
                    let child = canonical(&h).code;
                    let i = codes.binary_search(&child).map_err(|_| {
                        format!(
                            "a child of a level-{t} position is missing from {} (a file of \
                             another run?)",
                            files.codes(t + 1).display()
                        )
                    })?;
                    Ok::<bool, String>(labels[i / 64] >> (i % 64) & 1 == 0)
                };
                // The first moves are tried before any automorphism search: a position that
                // wins usually has a lost child among them, and then its automorphisms (a
                // search as dear as a canonical form) are never needed.
                let direct = moves.len().min(DIRECT_MOVES);
                for &edge in &moves[..direct] {
                    if lost_child(edge)? {
                        return Ok((true, false)); // a move to a lost position
                    }
                }
                if direct < moves.len() {
                    // One move per orbit for the rest: isomorphic children have one label.
                    // The first move is always its orbit's representative (the least).
                    let generators = automorphisms(&g);
                    for edge in pair_orbit_representatives(n, &moves, &generators) {
                        if !moves[..direct].contains(&edge) && lost_child(edge)? {
                            return Ok((true, false));
                        }
                    }
                }
                Ok((false, false))
            })
            .collect();
        for result in labelled {
            let (wins, end) = result?;
            if wins {
                bits[at / 64] |= 1 << (at % 64);
            }
            terminal += u64::from(end);
            at += 1;
        }
        progress(base + at as u64, &format!("labelling level {t}: {at} of {count} positions"));
    }
    Ok((bits, count, terminal))
}

/// Whether level t of a hereditary game is labelled more cheaply by pulling (each position
/// looks its children up in level t + 1, stopping at the first lost one: [`backward`]) than by
/// pushing from level t + 1's losses to their parents ([`backward_from_losses`]). Pushing
/// costs about one canonical form per edge of each lost position of level t + 1; pulling
/// costs a few per position of level t where most win, since a lost child is found early.
/// Levels alternate between mostly won and mostly lost. Measured level by level at n = 12
/// (both ways on every level, the labels equal), pulling won where the lost positions of level
/// t + 1 times their t + 1 edges exceed about six times the size of level t (up to 3 times
/// faster there) and lost clearly below it; with [`DIRECT_MOVES`] pulling got cheaper, and
/// over whole tables to n = 12 a factor of 4 to 5 did best (3 and 7 slower, 2 much slower).
/// Either way gives the same labels, so the choice affects only the time.
fn pull_is_cheaper(t: usize, size: u64, next_size: u64, next_labels: &[u64]) -> bool {
    let won: u64 = next_labels.iter().map(|w| u64::from(w.count_ones())).sum();
    let lost = next_size.saturating_sub(won);
    lost.saturating_mul(t as u64 + 1) > size.saturating_mul(5)
}

/// Labels level t of a hereditary game ([`Rules::is_hereditary`]) backwards from level
/// t + 1's labels: every parent of a lost position wins. For each lost position Q of level
/// t + 1 and each edge e of Q (one per orbit of Aut(Q)), Q - e is a position of level t
/// (the family is closed under deleting an edge) from which e is a legal move to Q, so its
/// canonical representative is marked won; what is left unmarked loses. Lost positions are
/// about a third of a level and need no automorphism search on the won ones, so this
/// canonicalises far fewer graphs than looking up every position's children.
/// Returns (bitmap, count, terminal).
fn backward_from_losses(
    files: &Files,
    t: usize,
    next_labels: Option<&[u64]>,
    base: u64,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<(Vec<u64>, u64, u64), String> {
    use std::sync::atomic::{AtomicU64, Ordering};
    let (n, rules) = (files.n, files.rules);
    debug_assert!(rules.is_hereditary());
    let codes = files.load_codes(t)?;
    let count = codes.len() as u64;
    let won: Vec<AtomicU64> = (0..count.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    if let Some(labels) = next_labels {
        let (mut reader, next_count, _) = files.open_codes(t + 1)?;
        if next_count.div_ceil(64) != labels.len() as u64 {
            return Err(format!("level {} has {next_count} positions but other labels", t + 1));
        }
        let mut at = 0usize;
        loop {
            let chunk = reader.chunk(CHUNK)?;
            if chunk.is_empty() {
                break;
            }
            chunk.par_iter().enumerate().try_for_each(|(k, &code)| {
                let i = at + k;
                if labels[i / 64] >> (i % 64) & 1 == 1 {
                    return Ok(()); // won: says nothing about its parents
                }
                for parent in rules.parent_codes(&SmallGraph::from_code(n, code)) {
                    let j = codes.binary_search(&parent).map_err(|_| {
                        format!(
                            "a parent of a level-{} position is missing from {} (a file of \
                             another run?)",
                            t + 1,
                            files.codes(t).display()
                        )
                    })?;
                    won[j / 64].fetch_or(1 << (j % 64), Ordering::Relaxed);
                }
                Ok::<(), String>(())
            })?;
            at += chunk.len();
            let share = (at as u64).saturating_mul(count) / next_count.max(1);
            progress(base + share, &format!("labelling level {t} from level {}'s losses", t + 1));
        }
    }
    let bits: Vec<u64> = won.into_iter().map(AtomicU64::into_inner).collect();
    // Terminal positions: no move, so nothing marked them.
    let terminal = codes
        .par_iter()
        .enumerate()
        .map(|(i, &code)| {
            let g = SmallGraph::from_code(n, code);
            if rules.has_move(&g) {
                if next_labels.is_none() {
                    return Err(format!("level {t} has moves but level {} is empty", t + 1));
                }
                return Ok(0u64);
            }
            if bits[i / 64] >> (i % 64) & 1 == 1 {
                return Err(format!("a position of level {t} without a move has a child"));
            }
            Ok(1)
        })
        .try_reduce(|| 0, |x, y| Ok(x + y))?;
    progress(base + count, &format!("labelled level {t}: {count} positions"));
    Ok((bits, count, terminal))
}

/// Solves the game on `n` nodes out of core. `progress` hears the positions processed so far
/// (each is expanded once and labelled once, so a whole run counts 2 t_n; resumed levels count
/// as done) and what is being done.
pub fn solve(
    n: usize,
    rules: Rules,
    budget: &Budget,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<ExternalOutcome, String> {
    if !(1..=crate::triangle_avoidance::canon::MAX_VERTICES).contains(&n) {
        return Err(format!(
            "n must be between 1 and {}",
            crate::triangle_avoidance::canon::MAX_VERTICES
        ));
    }
    let files = Files::of(budget, n, rules);
    let dir = files.dir.clone();
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    // Leftovers of an interrupted write are not trusted.
    for entry in std::fs::read_dir(&dir).map_err(|e| e.to_string())?.flatten() {
        if entry.path().extension().is_some_and(|e| e == "part") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let mut peak = disk_use(&dir);
    if !files.codes(0).exists() {
        files.write_codes(0, std::iter::once(canonical(&SmallGraph::empty(n)).code), 0)?;
    }
    // Forward: until a level comes out empty.
    let (mut sizes, mut arcs, mut runs, mut processed) = (Vec::new(), Some(0u64), 0u64, 0u64);
    loop {
        let t = sizes.len();
        let (_, size, into) = files.open_codes(t)?;
        sizes.push(size);
        arcs =
            arcs.zip((into != ARCS_NOT_COUNTED).then_some(into)).map(|(a, b)| a.saturating_add(b));
        if size == 0 {
            break;
        }
        if !files.codes(t + 1).exists() {
            forward(&files, t, budget, &mut peak, &mut runs, processed, progress)?;
        }
        processed += size;
    }
    sizes.pop(); // the empty level
    if sizes.is_empty() {
        return Err(format!(
            "{}: the start position is missing (a damaged file)",
            files.codes(0).display()
        ));
    }
    // Backward: from the last level down, each level's labels once.
    let hereditary = rules.is_hereditary();
    let mut terminal = vec![0u64; sizes.len()];
    let mut next: Option<(Vec<u128>, Vec<u64>)> = None;
    for t in (0..sizes.len()).rev() {
        let (bits, count, end) = match files.load_labels(t) {
            Ok(found) => found,
            Err(_) if !files.labels(t).exists() => {
                // Hereditary games push from level t + 1's losses to their parents in level t,
                // unless pulling (each position's children, as the other games do) is cheaper
                // for this level ([`pull_is_cheaper`]); pulling looks children up in t + 1.
                let pull = hereditary
                    && next.as_ref().is_some_and(|(_, b)| {
                        pull_is_cheaper(t, sizes[t], sizes.get(t + 1).copied().unwrap_or(0), b)
                    });
                let held =
                    if hereditary && !pull { Some(sizes[t]) } else { sizes.get(t + 1).copied() };
                let need = held.map_or(0, |s| s * 16 + s / 8);
                if need > budget.memory {
                    return Err(format!(
                        "labelling level {t} needs {need} bytes of level files in memory, over \
                         --memory ({} bytes)",
                        budget.memory
                    ));
                }
                let (bits, count, end) = if hereditary && !pull {
                    let labels = next.as_ref().map(|(_, b)| b.as_slice());
                    backward_from_losses(&files, t, labels, processed, progress)?
                } else if pull {
                    let codes = files.load_codes(t + 1)?;
                    let labels = next.as_ref().map(|(_, b)| b.as_slice());
                    backward(&files, t, labels.map(|b| (codes.as_slice(), b)), processed, progress)?
                } else {
                    let lookup = next.as_ref().map(|(c, b)| (c.as_slice(), b.as_slice()));
                    backward(&files, t, lookup, processed, progress)?
                };
                files.write_labels(t, &bits, count, end)?;
                (bits, count, end)
            }
            Err(e) => return Err(e),
        };
        if count != sizes[t] {
            return Err(format!(
                "{}: {count} labels for {} positions",
                files.labels(t).display(),
                sizes[t]
            ));
        }
        terminal[t] = end;
        processed += count;
        // Level t is the next lookup only if level t - 1 is still to be labelled.
        next = if t == 0 || files.labels(t - 1).exists() {
            None
        } else if hereditary {
            Some((Vec::new(), bits)) // level t's codes are streamed, not held
        } else {
            Some((files.load_codes(t)?, bits))
        };
    }
    let (root, _, _) = files.load_labels(0)?;
    peak = peak.max(disk_use(&dir));
    Ok(ExternalOutcome {
        counts: LevelCounts {
            first_wins: root.first().is_some_and(|w| w & 1 == 1),
            level_sizes: sizes,
            terminal,
            arcs,
        },
        peak_disk: peak,
        runs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::triangle_avoidance::solver;

    /// Every game on n <= 9 nodes: the same Winner and counts as the in-memory solver, with a
    /// memory limit that forces many runs per level.
    #[test]
    fn agrees_with_the_in_memory_solver() {
        let dir = tempfile::tempdir().unwrap();
        for rules in [
            Rules::TriangleAvoidance,
            Rules::TriangleAchievement,
            Rules::OddCycleAvoidance,
            Rules::ConnectedAvoidance,
        ] {
            for n in 2..=9 {
                let budget = Budget { memory: 8 << 10, dir: dir.path().to_path_buf() };
                let got = solve(n, rules, &budget, &mut |_, _| {}).unwrap();
                let want = solver::solve(n, rules, &mut |_, _| {});
                let context = format!("{} n={n}", rules.name());
                assert_eq!(got.counts.first_wins, want.winner == "A", "{context}");
                assert_eq!(got.counts.positions(), want.positions as u64, "{context}");
                assert_eq!(got.counts.terminal_total(), want.terminal as u64, "{context}");
                assert_eq!(
                    got.counts.winners_terminal(),
                    want.winners_terminal as u64,
                    "{context}"
                );
                if let Some(t) = known_positions(n, rules) {
                    assert_eq!(t, want.positions as u64, "{context}: the known t_n");
                }
                let arcs = want.arcs.map(|a| a as u64).filter(|_| !rules.is_hereditary());
                assert_eq!(got.counts.arcs, arcs, "{context}");
                if n == 9 && matches!(rules, Rules::TriangleAvoidance | Rules::ConnectedAvoidance) {
                    assert!(got.runs > 2, "{context}: the budget should force merges");
                }
            }
        }
    }

    /// Pushing from losses and pulling from children label every level of both hereditary
    /// games alike (n = 9), and the rule between them picks each way on some level, so both
    /// run in the solver.
    #[test]
    fn pushing_and_pulling_give_the_same_labels() {
        for rules in [Rules::TriangleAvoidance, Rules::OddCycleAvoidance] {
            let dir = tempfile::tempdir().unwrap();
            let budget = Budget { memory: 1 << 24, dir: dir.path().to_path_buf() };
            let n = 9;
            let outcome = solve(n, rules, &budget, &mut |_, _| {}).unwrap();
            let files = Files::of(&budget, n, rules);
            let sizes = &outcome.counts.level_sizes;
            let (mut pulled, mut pushed) = (0, 0);
            for t in 0..sizes.len() - 1 {
                let (next_bits, _, _) = files.load_labels(t + 1).unwrap();
                let next_codes = files.load_codes(t + 1).unwrap();
                let push =
                    backward_from_losses(&files, t, Some(&next_bits), 0, &mut |_, _| {}).unwrap();
                let pull = backward(&files, t, Some((&next_codes, &next_bits)), 0, &mut |_, _| {})
                    .unwrap();
                assert_eq!(push, pull, "{} level {t}", rules.name());
                if pull_is_cheaper(t, sizes[t], sizes[t + 1], &next_bits) {
                    pulled += 1;
                } else {
                    pushed += 1;
                }
            }
            assert!(pulled > 0 && pushed > 0, "{}: {pulled} pulled, {pushed} pushed", rules.name());
        }
    }

    /// A second run answers from the files; a damaged level file is named, not trusted.
    #[test]
    fn resumes_from_whole_files_and_refuses_damaged_ones() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget { memory: 1 << 20, dir: dir.path().to_path_buf() };
        let first = solve(8, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap();
        // Interrupted before labelling: the labels are rebuilt, the levels reused.
        let folder = dir.path().join("triangle-avoidance-n8");
        for t in 0..first.counts.level_sizes.len() {
            std::fs::remove_file(folder.join(format!("level-{t:03}.labels"))).unwrap();
        }
        std::fs::remove_file(folder.join("level-005.codes")).unwrap();
        let again = solve(8, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap();
        assert_eq!(&again.counts, &first.counts);
        let victim = folder.join("level-004.codes");
        let mut bytes = std::fs::read(&victim).unwrap();
        let last = bytes.len() - 3;
        bytes[last] ^= 1;
        std::fs::write(&victim, bytes).unwrap();
        std::fs::remove_file(folder.join("level-003.labels")).unwrap();
        let err = solve(8, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("level-004.codes"), "{err}");
    }

    /// Headers whose counts disagree with the file's length (up to a count that would wrap the
    /// length computation, or make the bitmap huge) are refused by name before anything is
    /// allocated, and an emptied start level is named too.
    #[test]
    fn damaged_counts_are_refused_before_allocation() {
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget { memory: 1 << 20, dir: dir.path().to_path_buf() };
        solve(6, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap();
        let folder = dir.path().join("triangle-avoidance-n6");
        let set_count = |name: &str, count: u64| {
            let path = folder.join(name);
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[16..24].copy_from_slice(&count.to_le_bytes());
            std::fs::write(&path, bytes).unwrap();
        };
        let original = std::fs::read(folder.join("level-002.labels")).unwrap();
        for count in [u64::MAX, 1 << 60, 5] {
            set_count("level-002.labels", count);
            let err = solve(6, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap_err();
            let named = err.contains("labels its header") || err.contains("labels for");
            assert!(err.contains("level-002.labels") && named, "{err}");
        }
        std::fs::write(folder.join("level-002.labels"), original).unwrap();
        for count in [u64::MAX, (u64::MAX - 39) / 16 + 1, 0] {
            set_count("level-000.codes", count);
            let err = solve(6, Rules::TriangleAvoidance, &budget, &mut |_, _| {}).unwrap_err();
            assert!(err.contains("level-000.codes"), "{count}: {err}");
        }
    }

    /// The per-position counts behind the cost model in docs/families/triangle-avoidance.md:
    /// children kept by the forward filter, arcs (distinct children), lost positions and the
    /// parents they send back. `GAMECERT_COST_N=13 cargo test --release --lib cost_model --
    /// --ignored --nocapture` (n = 12 by default, about 10 s).
    #[test]
    #[ignore]
    fn cost_model_counts() {
        let n: usize = std::env::var("GAMECERT_COST_N").map_or(12, |v| v.parse().unwrap());
        let dir = tempfile::tempdir().unwrap();
        let budget = Budget { memory: 8 << 30, dir: dir.path().to_path_buf() };
        let rules = Rules::TriangleAvoidance;
        let outcome = solve(n, rules, &budget, &mut |_, _| {}).unwrap();
        let files = Files::of(&budget, n, rules);
        let mut totals = [0u64; 4]; // kept, arcs, lost, parents sent
        for t in 0..outcome.counts.level_sizes.len() {
            let codes = files.load_codes(t).unwrap();
            let (labels, _, _) = files.load_labels(t).unwrap();
            let per: Vec<[u64; 4]> = codes
                .par_iter()
                .enumerate()
                .map(|(i, &code)| {
                    let g = SmallGraph::from_code(n, code);
                    let lost = labels[i / 64] >> (i % 64) & 1 == 0;
                    let parents = if lost { rules.parent_codes(&g).len() as u64 } else { 0 };
                    [
                        rules.augmented_children(&g).len() as u64,
                        rules.distinct_children(&g).len() as u64,
                        u64::from(lost),
                        parents,
                    ]
                })
                .collect();
            for row in per {
                for (total, x) in totals.iter_mut().zip(row) {
                    *total += x;
                }
            }
        }
        let positions = outcome.counts.positions() as f64;
        let [kept, arcs, lost, parents] = totals.map(|x| x as f64 / positions);
        println!(
            "n = {n}: {positions} positions; per position: {kept:.2} children kept by the \
             filter, {arcs:.2} arcs, {lost:.3} lost, {parents:.2} parents sent"
        );
        assert!(kept < arcs / 4.0, "the filter keeps too many children to be worth it");
    }
}

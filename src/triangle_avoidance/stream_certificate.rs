//! The Winner's strategy for triangle avoidance written as a `triangle-stream` certificate
//! (the format: `gamecert_certificates::triangle_avoidance::stream`) from the level files of
//! the out-of-core solver ([`crate::triangle_avoidance::external`]), in bounded memory.
//!
//! Forward from the start, one level at a time: the strategy's positions of level t (sorted,
//! in memory) are expanded in parallel; at the Winner's positions one move whose canonical
//! child is a loss for its player to move (looked up in the next level's labels) is kept, the
//! one that leaves the fewest replies; at the other player's positions every legal move; each move
//! is written with the canonical labelling of its child. The children, sorted and distinct,
//! are the strategy's level t + 1. A level's moves are written to a scratch file first, since
//! the format puts level t + 1 before the moves of level t.
//!
//! Memory: the strategy's levels t and t + 1 (16 bytes a position) and the game's level t + 1
//! with its labels (16 bytes and a bit a position).
//!
//! The timely engine's certificate is written here too, without a forward pass: each worker
//! writes its shard ([`Shard`]) and [`merge_shards`] merges them into one stream.

use crate::triangle_avoidance::canon::{canonical, SmallGraph};
use crate::triangle_avoidance::external::{Budget, Files};
use crate::triangle_avoidance::rules::{winners_choice, Rules};
use gamecert_certificates::triangle_avoidance::stream::{header, pack_permutation};
use rayon::prelude::*;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// A position's moves as bytes of the format, and the children they lead to.
type Expanded = (Vec<u8>, Vec<u128>);

/// Strategy positions expanded per parallel chunk.
const CHUNK: usize = 1 << 15;

/// What was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The first player (A) wins.
    pub first_wins: bool,
    /// The strategy's positions per level.
    pub level_sizes: Vec<u64>,
    /// Moves written.
    pub moves: u64,
    /// Bytes of the certificate.
    pub bytes: u64,
}

/// Writes the certificate for triangle avoidance on `n` nodes to `out`, from the level files
/// that [`crate::triangle_avoidance::external::solve`] left under `budget` (it must have run to
/// the end). `progress` hears the level being written and the positions done in it.
pub fn write(
    n: usize,
    budget: &Budget,
    out: &Path,
    progress: &mut dyn FnMut(u64, &str),
) -> Result<Written, String> {
    let files = Files::of(budget, n, Rules::TriangleAvoidance);
    let (root_bits, _, _) = files.load_labels(0)?;
    let first_wins = root_bits.first().is_some_and(|w| w & 1 == 1);
    let mut writer = BufWriter::with_capacity(1 << 20, File::create(out).map_err(io(out))?);
    writer.write_all(&header(n, first_wins)).map_err(io(out))?;
    let mut strategy = vec![canonical(&SmallGraph::empty(n)).code];
    write_level(&mut writer, 0, &strategy).map_err(io(out))?;
    let scratch_path = files.dir().join("stream-moves.part");
    let (mut level_sizes, mut moves, mut done) = (vec![1u64], 0u64, 0u64);
    for t in 0.. {
        let winner_to_move = (t % 2 == 0) == first_wins;
        // The game's next level and its labels, where the Winner chooses among its children.
        let next_game = if winner_to_move {
            let codes = files.load_codes(t + 1)?;
            let (bits, _, _) = files.load_labels(t + 1)?;
            Some((codes, bits))
        } else {
            None
        };
        let mut scratch = BufWriter::with_capacity(
            1 << 20,
            File::create(&scratch_path).map_err(io(&scratch_path))?,
        );
        let mut children: Vec<u128> = Vec::new();
        for (k, chunk) in strategy.chunks(CHUNK).enumerate() {
            let lookup = next_game.as_ref().map(|(c, b)| (c.as_slice(), b.as_slice()));
            let expanded: Vec<Result<Expanded, String>> =
                chunk.par_iter().map(|&code| position_moves(n, code, lookup, &files, t)).collect();
            for found in expanded {
                let (bytes, kids) = found?;
                scratch.write_all(&bytes).map_err(io(&scratch_path))?;
                moves += kids.len() as u64;
                children.extend(kids);
            }
            children.par_sort_unstable();
            children.dedup();
            done += chunk.len() as u64;
            progress(
                done,
                &format!(
                    "writing level {t}: {} of {} strategy positions",
                    (k * CHUNK + chunk.len()),
                    strategy.len()
                ),
            );
        }
        scratch.flush().map_err(io(&scratch_path))?;
        drop(scratch);
        if children.is_empty() {
            // Every position of the level is final: the end mark.
            writer.write_all(b"E").map_err(io(out))?;
            break;
        }
        write_level(&mut writer, t + 1, &children).map_err(io(out))?;
        writer.write_all(b"M").map_err(io(out))?;
        writer.write_all(&(t as u16).to_le_bytes()).map_err(io(out))?;
        let mut scratch = File::open(&scratch_path).map_err(io(&scratch_path))?;
        std::io::copy(&mut scratch, &mut writer).map_err(io(out))?;
        level_sizes.push(children.len() as u64);
        strategy = children;
    }
    let _ = std::fs::remove_file(&scratch_path);
    let file = writer.into_inner().map_err(|e| io(out)(e.into_error()))?;
    file.sync_all().map_err(io(out))?;
    let bytes = file.metadata().map_err(io(out))?.len();
    Ok(Written { first_wins, level_sizes, moves, bytes })
}

/// An I/O error named by its file.
fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

/// Section `Lt`: the tag, t, the count and the codes.
fn write_level(w: &mut impl Write, t: usize, codes: &[u128]) -> std::io::Result<()> {
    w.write_all(b"L")?;
    w.write_all(&(t as u16).to_le_bytes())?;
    w.write_all(&(codes.len() as u64).to_le_bytes())?;
    for code in codes {
        w.write_all(&code.to_le_bytes())?;
    }
    Ok(())
}

/// The bytes of one position's moves and the children they lead to. `next_game`: the game's
/// level t + 1 (codes, label bits: 1 when the player to move there wins) when the Winner is
/// to move; `None` at the other player's positions.
fn position_moves(
    n: usize,
    code: u128,
    next_game: Option<(&[u128], &[u64])>,
    files: &Files,
    t: usize,
) -> Result<Expanded, String> {
    let g = SmallGraph::from_code(n, code);
    let mut bytes = Vec::new();
    let mut kids = Vec::new();
    let Some((codes, bits)) = next_game else {
        // The other player's position: every legal move, each with its permutation.
        for (a, b) in Rules::TriangleAvoidance.moves(&g) {
            let mut child = g;
            child.add_edge(a, b);
            let canon = canonical(&child);
            bytes.extend(pack_permutation(&canon.label[..n]).to_le_bytes());
            kids.push(canon.code);
        }
        return Ok((bytes, kids));
    };
    let mut missing = None;
    let best = winners_choice(&g, |child| {
        let canon = canonical(child);
        let Ok(i) = codes.binary_search(&canon.code) else {
            missing = Some(canon.code);
            return None;
        };
        // A child lost for the other player to move is a winning move.
        (bits[i / 64] >> (i % 64) & 1 == 0)
            .then(|| (canon.code, pack_permutation(&canon.label[..n]).to_le_bytes()))
    });
    if missing.is_some() {
        return Err(format!(
            "a child of a level-{t} position is missing from {} (a damaged run?)",
            files.codes(t + 1).display()
        ));
    }
    let Some(((_, child), (a, b), perm)) = best else {
        return Err(format!(
            "the level files say the Winner wins from the level-{t} position {code:x}, but \
             no move there leads to a loss of the other player (damaged files?)"
        ));
    };
    bytes.extend([a as u8, b as u8]);
    bytes.extend(perm);
    kids.push(child);
    Ok((bytes, kids))
}

/// One timely worker's shard of the certificate ([`crate::triangle_avoidance::distributed`]):
/// the positions it owns of every level that the Winner wins from, with their moves, one file
/// a level. No forward pass picks a strategy: a level where the Winner is to move lists every
/// position won for the player to move, with the winning move the labelling found; the other
/// levels list every position lost for the player to move, with all its legal moves. That set
/// is closed under those moves (a winning move leads to a lost position, every move from a
/// lost one to a won one), so it is a strategy the format takes: it may list positions the
/// Winner never reaches, which the checker checks all the same. [`merge_shards`] merges the
/// workers' files into one `triangle-stream`.
///
/// A shard file, `shard-WWWW-of-KKKK-level-TTT.tashard` in [`shard_folder`]: a 32-byte header
/// (the magic `GCTASHD1`, n, the Winner `A` or `B`, t as u16, the worker and the number of
/// workers as u32, the count of positions as u64, four zero bytes), then per position in
/// increasing code order: its code (16 bytes), its number of moves k (one byte), and the moves
/// as the format writes them (Winner: the edge a, b and a permutation; the other player: k
/// permutations). Little-endian throughout.
pub struct Shard<'a> {
    /// The folder given to the engine (`--shards DIR`); files go to [`shard_folder`].
    pub dir: &'a Path,
    pub n: usize,
    /// A (the first player) wins.
    pub first_wins: bool,
    pub worker: usize,
    pub workers: usize,
}

/// The label of a lost position where [`Shard::write_level`] takes a position's winning move
/// `a << 4 | b` (no a < b packs to it).
pub const NO_MOVE: u8 = 0xff;

/// The first eight bytes of a shard file.
const SHARD_MAGIC: &[u8; 8] = b"GCTASHD1";

/// The folder of the shard files of triangle avoidance on `n` nodes under `dir`.
pub fn shard_folder(dir: &Path, n: usize) -> std::path::PathBuf {
    dir.join(format!("triangle-avoidance-n{n}"))
}

fn shard_name(worker: usize, workers: usize, t: usize) -> String {
    format!("shard-{worker:04}-of-{workers:04}-level-{t:03}.tashard")
}

/// Whether the Winner is to move at level t (t even iff the Winner is A).
fn winners_level(t: usize, first_wins: bool) -> bool {
    t.is_multiple_of(2) == first_wins
}

impl Shard<'_> {
    /// Writes this worker's file of level `t` from its positions there (`codes`, sorted) and
    /// their labels (`won_by[i]`: the winning move `a << 4 | b` in the position's own
    /// labelling, or [`NO_MOVE`] when lost).
    pub fn write_level(&self, t: usize, codes: &[u128], won_by: &[u8]) -> Result<(), String> {
        let folder = shard_folder(self.dir, self.n);
        std::fs::create_dir_all(&folder).map_err(io(&folder))?;
        let path = folder.join(shard_name(self.worker, self.workers, t));
        let part = path.with_extension("part");
        let mut w = BufWriter::with_capacity(1 << 20, File::create(&part).map_err(io(&part))?);
        let winners = winners_level(t, self.first_wins);
        let listed = |&(_, &mv): &(&u128, &u8)| (mv != NO_MOVE) == winners;
        let count = codes.iter().zip(won_by).filter(listed).count();
        let mut head = Vec::with_capacity(32);
        head.extend(SHARD_MAGIC);
        head.extend([self.n as u8, if self.first_wins { b'A' } else { b'B' }]);
        head.extend((t as u16).to_le_bytes());
        head.extend((self.worker as u32).to_le_bytes());
        head.extend((self.workers as u32).to_le_bytes());
        head.extend((count as u64).to_le_bytes());
        head.extend([0u8; 4]);
        w.write_all(&head).map_err(io(&part))?;
        let mut record = Vec::new();
        for (&code, &mv) in codes.iter().zip(won_by).filter(listed) {
            let g = SmallGraph::from_code(self.n, code);
            record.clear();
            record.extend(code.to_le_bytes());
            let perm = |a: usize, b: usize| {
                let mut child = g;
                child.add_edge(a, b);
                pack_permutation(&canonical(&child).label[..self.n]).to_le_bytes()
            };
            if winners {
                let (a, b) = (usize::from(mv >> 4), usize::from(mv & 0xf));
                record.push(1);
                record.extend([a as u8, b as u8]);
                record.extend(perm(a, b));
            } else {
                let moves = Rules::TriangleAvoidance.moves(&g);
                record.push(moves.len() as u8);
                for (a, b) in moves {
                    record.extend(perm(a, b));
                }
            }
            w.write_all(&record).map_err(io(&part))?;
        }
        // Whole once renamed; not synced: the merge reads it next, and a crash loses the run.
        w.into_inner().map_err(|e| io(&part)(e.into_error()))?;
        std::fs::rename(&part, &path).map_err(io(&path))
    }
}

/// One shard file being read: its header's facts and the records left.
struct ShardReader {
    path: std::path::PathBuf,
    r: std::io::BufReader<File>,
    first_wins: bool,
    count: u64,
    left: u64,
    /// Bytes of one move at this level (10 at the Winner's levels, 8 at the other's).
    move_bytes: usize,
}

impl ShardReader {
    fn open(
        path: std::path::PathBuf,
        n: usize,
        t: usize,
        who: (usize, usize),
    ) -> Result<Self, String> {
        use std::io::Read;
        let file = File::open(&path).map_err(io(&path))?;
        let mut r = std::io::BufReader::with_capacity(1 << 16, file);
        let mut head = [0u8; 32];
        r.read_exact(&mut head).map_err(io(&path))?;
        let word = |at: usize| u32::from_le_bytes(head[at..at + 4].try_into().unwrap()) as usize;
        let bad = |what: &str| format!("{}: {what}", path.display());
        if &head[..8] != SHARD_MAGIC {
            return Err(bad("not a shard file (no GCTASHD1 magic)"));
        }
        if usize::from(head[8]) != n
            || usize::from(u16::from_le_bytes([head[10], head[11]])) != t
            || (word(12), word(16)) != who
        {
            return Err(bad("its header names another n, level or worker than its name"));
        }
        let first_wins = match head[9] {
            b'A' => true,
            b'B' => false,
            _ => return Err(bad("the Winner must be A or B")),
        };
        let count = u64::from_le_bytes(head[20..28].try_into().unwrap());
        let move_bytes = if winners_level(t, first_wins) { 10 } else { 8 };
        Ok(ShardReader { path, r, first_wins, count, left: count, move_bytes })
    }

    /// The next position and its moves' bytes (into `moves`), or `None` at the end, which
    /// must be the end of the file.
    fn next(&mut self, moves: &mut Vec<u8>) -> Result<Option<u128>, String> {
        use std::io::Read;
        let at = |e: std::io::Error| format!("{}: {e}", self.path.display());
        if self.left == 0 {
            let mut b = [0u8; 1];
            if self.r.read(&mut b).map_err(at)? != 0 {
                return Err(format!("{}: bytes after its last position", self.path.display()));
            }
            return Ok(None);
        }
        self.left -= 1;
        let mut head = [0u8; 17];
        self.r.read_exact(&mut head).map_err(at)?;
        let k = usize::from(head[16]);
        if self.move_bytes == 10 && k != 1 {
            return Err(format!("{}: a Winner's position with {k} moves", self.path.display()));
        }
        moves.resize(k * self.move_bytes, 0);
        self.r.read_exact(moves).map_err(at)?;
        Ok(Some(u128::from_le_bytes(head[..16].try_into().unwrap())))
    }
}

/// What [`merge_level`] calls on each position: its code and its moves' bytes.
type EachPosition<'a> = dyn FnMut(u128, &[u8]) -> Result<(), String> + 'a;

/// The shard files of one level, merged by code: calls `each` on every position with its
/// moves' bytes, in strictly increasing order (two shards listing one code is an error).
fn merge_level(readers: &mut [ShardReader], each: &mut EachPosition) -> Result<(), String> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut moves: Vec<Vec<u8>> = vec![Vec::new(); readers.len()];
    let mut heap = BinaryHeap::new();
    for (k, reader) in readers.iter_mut().enumerate() {
        if let Some(code) = reader.next(&mut moves[k])? {
            heap.push(Reverse((code, k)));
        }
    }
    let mut previous: Option<u128> = None;
    while let Some(Reverse((code, k))) = heap.pop() {
        if previous.is_some_and(|p| p >= code) {
            return Err(format!(
                "{}: the position {code:x} is out of order or listed twice",
                readers[k].path.display()
            ));
        }
        previous = Some(code);
        each(code, &moves[k])?;
        if let Some(next) = readers[k].next(&mut moves[k])? {
            heap.push(Reverse((next, k)));
        }
    }
    Ok(())
}

/// Merges the shard files that the timely workers wrote for `n` under `dir` (the folder given
/// to the engine) into one `triangle-stream` certificate at `out`: for each level a k-way merge
/// of the workers' sorted files, the moves carried along. Every worker's file of every level
/// must be there. Memory: one buffered reader per worker. The merge trusts nothing it could
/// not see: the checker verifies the result.
pub fn merge_shards(dir: &Path, n: usize, out: &Path) -> Result<Written, String> {
    let folder = shard_folder(dir, n);
    // The workers' count from the file names, and the levels every worker wrote.
    let mut workers = None;
    let mut last_level = 0usize;
    for entry in std::fs::read_dir(&folder).map_err(io(&folder))? {
        let name = entry.map_err(io(&folder))?.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix("shard-").and_then(|r| r.strip_suffix(".tashard"))
        else {
            continue;
        };
        let parts: Vec<&str> = rest.split('-').collect();
        let number = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
        let (Some(k), Some(t)) = (number(2), number(4)) else {
            return Err(format!("{}: a shard file named {name}?", folder.display()));
        };
        if *workers.get_or_insert(k) != k {
            return Err(format!("{}: shards of two runs (numbers of workers)", folder.display()));
        }
        last_level = last_level.max(t);
    }
    let Some(workers) = workers.filter(|&k| k > 0) else {
        return Err(format!("{}: no shard files", folder.display()));
    };
    let open = |t: usize| -> Result<Vec<ShardReader>, String> {
        let readers: Vec<ShardReader> = (0..workers)
            .map(|w| ShardReader::open(folder.join(shard_name(w, workers, t)), n, t, (w, workers)))
            .collect::<Result<_, _>>()?;
        if readers.windows(2).any(|p| p[0].first_wins != p[1].first_wins) {
            return Err(format!("{}: shards that name two Winners", folder.display()));
        }
        Ok(readers)
    };
    let first_wins = open(0)?[0].first_wins;
    // The last level that lists a position; the stream ends there.
    let mut level_sizes = Vec::new();
    for t in 0..=last_level {
        let readers = open(t)?;
        if readers[0].first_wins != first_wins {
            return Err(format!("{}: shards that name two Winners", folder.display()));
        }
        level_sizes.push(readers.iter().map(|r| r.count).sum::<u64>());
    }
    while level_sizes.len() > 1 && level_sizes.last() == Some(&0) {
        level_sizes.pop();
    }
    let mut writer = BufWriter::with_capacity(1 << 20, File::create(out).map_err(io(out))?);
    writer.write_all(&header(n, first_wins)).map_err(io(out))?;
    let write_codes = |writer: &mut BufWriter<File>, t: usize, size: u64| -> Result<(), String> {
        writer.write_all(b"L").map_err(io(out))?;
        writer.write_all(&(t as u16).to_le_bytes()).map_err(io(out))?;
        writer.write_all(&size.to_le_bytes()).map_err(io(out))?;
        merge_level(&mut open(t)?, &mut |code, _| {
            writer.write_all(&code.to_le_bytes()).map_err(io(out))
        })
    };
    write_codes(&mut writer, 0, level_sizes[0])?;
    let mut moves = 0u64;
    let last = level_sizes.len() - 1;
    for t in 0..last {
        write_codes(&mut writer, t + 1, level_sizes[t + 1])?;
        writer.write_all(b"M").map_err(io(out))?;
        writer.write_all(&(t as u16).to_le_bytes()).map_err(io(out))?;
        let move_bytes = if winners_level(t, first_wins) { 10 } else { 8 };
        merge_level(&mut open(t)?, &mut |_, bytes| {
            moves += (bytes.len() / move_bytes) as u64;
            writer.write_all(bytes).map_err(io(out))
        })?;
    }
    // The last level's positions have no move (the checker says whether that is so).
    merge_level(&mut open(last)?, &mut |code, bytes| {
        if bytes.is_empty() {
            Ok(())
        } else {
            Err(format!("the last level's position {code:x} has moves"))
        }
    })?;
    writer.write_all(b"E").map_err(io(out))?;
    // Not synced: the caller checks the file next (and a sync costs small n most of their time).
    let file = writer.into_inner().map_err(|e| io(out)(e.into_error()))?;
    let bytes = file.metadata().map_err(io(out))?.len();
    Ok(Written { first_wins, level_sizes, moves, bytes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamecert_certificates::base::budget::Budget as Work;
    use gamecert_certificates::triangle_avoidance::stream::check_triangle_stream;

    /// For every n up to 9, the certificate written from the out-of-core files is accepted,
    /// with the paper's Winner; and dropping its last move is rejected.
    #[test]
    fn written_streams_check_and_a_dropped_move_is_rejected() {
        let dir = std::env::temp_dir().join(format!("gamecert-stream-{}", std::process::id()));
        let budget = Budget { memory: 1 << 26, dir: dir.clone() };
        for n in 2..=9 {
            crate::triangle_avoidance::external::solve(
                n,
                Rules::TriangleAvoidance,
                &budget,
                &mut |_, _| {},
            )
            .unwrap();
            let out = dir.join(format!("n{n}.tastream"));
            let written = write(n, &budget, &out, &mut |_, _| {}).unwrap();
            let bytes = std::fs::read(&out).unwrap();
            assert_eq!(bytes.len() as u64, written.bytes);
            let (winner, report) =
                check_triangle_stream(n, &mut &bytes[..], &mut Work::unlimited())
                    .unwrap_or_else(|e| panic!("n = {n}: {e}"));
            let paper =
                crate::triangle_avoidance::solver::PAPER_TABLE.iter().find(|p| p.0 == n).unwrap().1;
            if paper != "-" {
                assert_eq!(winner, paper, "n = {n}");
            }
            assert_eq!(report.positions, written.level_sizes.iter().sum::<u64>());
            assert_eq!(report.moves, written.moves);
            // The last move dropped (its permutation, just before the end mark).
            let mut damaged = bytes.clone();
            damaged.drain(bytes.len() - 9..bytes.len() - 1);
            assert!(
                check_triangle_stream(n, &mut &damaged[..], &mut Work::unlimited()).is_err(),
                "n = {n}"
            );
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

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

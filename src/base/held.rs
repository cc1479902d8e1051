//! What a piece of work leaves held in memory, measured rather than estimated (issue 46, item
//! 5: an uploaded game of a 38 MB certificate was counted for 77 MB, twice its files, and held
//! 102 MB, so sixteen of them passed `serve`'s 512 MB games bound by a third).
//!
//! [`Counting`] is the process's allocator (declared in `lib.rs`, so every binary that links
//! the library has it: `gamecert`, the tests, the benchmarks, the Python extension): the
//! system's allocator with one thread-local counter beside it, the net bytes this thread has
//! allocated less those it has freed. [`measure`] runs a closure and returns that counter's
//! change: what the closure allocated and still holds, less what it freed of what existed
//! before (a caller that hands the closure memory to consume adds it back, see
//! `serve::upload::strategy`). Memory freed later on another thread is not seen, so a measure
//! errs high, never low.
//!
//! Each allocation is counted as the chunk glibc's malloc gives it ([`chunk`]: its size with
//! the 8-byte header, rounded to 16, at least 32; whole pages from the mmap threshold on), so
//! that a structure of many small allocations is counted for what it takes, not what it asked.
//!
//! The cost: one thread-local add per allocation and per free (no atomic, no lock);
//! `gamecert bench` figures did not move (docs/benchmarks.md, issue 46).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Net bytes allocated by this thread (allocations less frees), as chunks.
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// The system allocator, counting what each thread holds.
pub struct Counting;

/// From this size on glibc's malloc maps whole pages (its default mmap threshold; it rises as
/// large blocks are freed, and then such blocks come from the heap in 16-byte steps: either
/// way they are within a page of this count).
const MMAP_THRESHOLD: usize = 128 << 10;
const PAGE: usize = 4096;

/// The bytes an allocation of `layout` takes from the system: glibc's chunk (the size and an
/// 8-byte header rounded up to 16 bytes, at least 32), or whole pages for a large block.
pub const fn chunk(layout: Layout) -> usize {
    let size = layout.size().saturating_add(layout.align().saturating_sub(16));
    if size >= MMAP_THRESHOLD {
        return size.saturating_add(16).div_ceil(PAGE).saturating_mul(PAGE);
    }
    let with_header = (size + 8 + 15) & !15;
    if with_header < 32 {
        32
    } else {
        with_header
    }
}

fn add(bytes: usize, sign: isize) {
    // `try_with`: an allocation while the thread's locals are torn down is not counted.
    let _ = NET.try_with(|net| net.set(net.get().wrapping_add(sign.wrapping_mul(bytes as isize))));
}

// SAFETY: every call is passed to the system allocator unchanged; the counter is a side note.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            add(chunk(layout), 1);
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            add(chunk(layout), 1);
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(block, layout) };
        add(chunk(layout), -1);
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            // SAFETY: `realloc`'s contract makes `new_size` with the old alignment a layout.
            let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
            add(chunk(new), 1);
            add(chunk(layout), -1);
        }
        moved
    }
}

/// The net bytes this thread holds now, as counted.
fn net() -> isize {
    NET.try_with(Cell::get).unwrap_or(0)
}

/// Runs `work` and returns its value with the bytes it left held: its allocations that are
/// still alive, less what it freed of what it was given (see the module docs). Never below 0.
pub fn measure<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = net();
    let value = work();
    let change = net().wrapping_sub(before);
    (value, usize::try_from(change).unwrap_or(0))
}

/// [`measure`], signed: what `work` left held, less what it released (a game's move frees the
/// position it leaves).
pub fn measure_change<T>(work: impl FnOnce() -> T) -> (T, isize) {
    let before = net();
    let value = work();
    (value, net().wrapping_sub(before))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a closure keeps is counted as its chunks; what it frees comes off; a vector's
    /// capacity is counted, not its length.
    #[test]
    fn a_closure_is_counted_for_what_it_keeps() {
        let (kept, bytes) = measure(|| vec![0u8; 1 << 20]);
        assert_eq!(bytes, chunk(Layout::array::<u8>(1 << 20).unwrap()));
        let ((), freed) = measure_change(|| drop(kept));
        assert_eq!(freed, -(bytes as isize));
        let (small, bytes) = measure(|| (0..1000).map(|i| Box::new(i as u64)).collect::<Vec<_>>());
        // 1,000 boxes of 8 bytes are 32-byte chunks each, and the vector of their pointers.
        assert_eq!(bytes, 1000 * 32 + chunk(Layout::array::<usize>(1000).unwrap()));
        drop(small);
        let (grown, bytes) = measure(|| {
            let mut v = Vec::with_capacity(10);
            v.extend(0..100_000u32);
            v
        });
        assert_eq!(bytes, chunk(Layout::array::<u32>(grown.capacity()).unwrap()));
    }

    #[test]
    fn chunks_are_glibc_s() {
        let of = |size| chunk(Layout::from_size_align(size, 8).unwrap());
        assert_eq!(of(1), 32);
        assert_eq!(of(24), 32);
        assert_eq!(of(25), 48);
        assert_eq!(of(1000), 1008);
        assert_eq!(of(200_000), 200_704);
    }
}

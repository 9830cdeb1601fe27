//! The Action's and the CLI's Wasm allocator (issue 16): inside a decision (`Engine::call`) memory is
//! taken from a bump arena and never freed one block at a time; the next call starts the arena over.
//! A board of 10,000 pull requests makes millions of small strings, and dlmalloc's malloc and free
//! were about a third of deciding it, the free of the facts and the plan another 20 ms.
//!
//! What makes the reset safe: nothing allocated during a call outlives the next call. A call takes the
//! engine by `&self` and keeps no cache; its answer (a String) is copied out by wasm-bindgen's glue
//! and freed before the host can call again. Outside a call (building an engine, the input buffer,
//! wasm-bindgen's own allocations) the system allocator serves, and a block is freed by whichever
//! allocator its address belongs to.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;

/// The first chunk; each further one is twice the one before (or as big as the block asked for).
const FIRST_CHUNK: usize = 1 << 20;
const MAX_CHUNKS: usize = 40;

/// Where blocks are bumped from: chunks from the system allocator, kept across calls.
struct Region {
    /// (start, end) of each chunk.
    chunks: [(usize, usize); MAX_CHUNKS],
    count: usize,
    /// The chunk being bumped, and the next free byte in it.
    current: usize,
    next: usize,
}

/// Two regions: byte buffers (a String's, alignment 1) and everything else. A Vec being filled while
/// its elements' strings are made (a pull request's check runs, its reviews) then stays the newest
/// block of its region and grows where it is; in one region each string after it made it move.
struct State {
    /// Calls in progress (a decision may call another through the engine): the arena serves while > 0.
    depth: usize,
    bytes: Region,
    other: Region,
}

pub struct Arena(UnsafeCell<State>);

// Wasm without threads: one caller at a time.
unsafe impl Sync for Arena {}

const EMPTY: Region = Region { chunks: [(0, 0); MAX_CHUNKS], count: 0, current: 0, next: 0 };

#[global_allocator]
static ARENA: Arena = Arena(UnsafeCell::new(State { depth: 0, bytes: EMPTY, other: EMPTY }));

/// While alive, a decision is running: allocations come from the arena. The outermost one starts the
/// arena over, which frees everything the previous call allocated (its answer included, long copied out).
pub struct CallScope(());

impl CallScope {
    pub fn enter() -> CallScope {
        let s = unsafe { &mut *ARENA.0.get() };
        if s.depth == 0 {
            s.bytes.restart();
            s.other.restart();
        }
        s.depth += 1;
        CallScope(())
    }
}

impl Drop for CallScope {
    fn drop(&mut self) {
        unsafe { (*ARENA.0.get()).depth -= 1 };
    }
}

impl State {
    #[inline]
    fn region(&mut self, align: usize) -> &mut Region {
        if align == 1 {
            &mut self.bytes
        } else {
            &mut self.other
        }
    }
}

impl Region {
    fn restart(&mut self) {
        self.current = 0;
        self.next = if self.count > 0 { self.chunks[0].0 } else { 0 };
    }

    /// Newest chunk first: the blocks freed are mostly the ones just made.
    fn owns(&self, ptr: usize) -> bool {
        self.chunks[..self.count].iter().rev().any(|&(start, end)| ptr >= start && ptr < end)
    }

    /// `ptr` is the newest block of the chunk being bumped.
    #[inline]
    fn is_newest(&self, ptr: usize, size: usize) -> bool {
        self.count > 0 && ptr >= self.chunks[self.current].0 && ptr + size == self.next
    }

    /// The next block from the chunk being bumped; the rare rest (the next chunk, a new one) out of line.
    #[inline]
    unsafe fn bump(&mut self, layout: Layout) -> *mut u8 {
        loop {
            let at = (self.next + layout.align() - 1) & !(layout.align() - 1);
            if self.count > 0 && at + layout.size() <= self.chunks[self.current].1 {
                self.next = at + layout.size();
                return at as *mut u8;
            }
            if !self.advance(layout) {
                return std::ptr::null_mut();
            }
        }
    }

    /// Moves on to the next chunk kept from earlier calls, else takes a new one from the system, twice
    /// the last (or big enough for `layout`); false when out of chunks or memory.
    #[cold]
    #[inline(never)]
    unsafe fn advance(&mut self, layout: Layout) -> bool {
        if self.current + 1 < self.count {
            self.current += 1;
            self.next = self.chunks[self.current].0;
            return true;
        }
        if self.count == MAX_CHUNKS {
            return false;
        }
        let last = if self.count > 0 { self.chunks[self.count - 1].1 - self.chunks[self.count - 1].0 } else { FIRST_CHUNK / 2 };
        let want = (last * 2).max(layout.size() + layout.align());
        let start = System.alloc(Layout::from_size_align_unchecked(want, 16));
        if start.is_null() {
            return false;
        }
        self.chunks[self.count] = (start as usize, start as usize + want);
        self.current = self.count;
        self.count += 1;
        self.next = start as usize;
        true
    }
}

unsafe impl GlobalAlloc for Arena {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let s = &mut *self.0.get();
        if s.depth > 0 {
            s.region(layout.align()).bump(layout)
        } else {
            System.alloc(layout)
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        let s = &mut *self.0.get();
        let (p, depth) = (ptr as usize, s.depth);
        let region = s.region(layout.align());
        // During a call nearly every block freed is the newest of its region (a temporary String, a
        // Vec that grew elsewhere): it gives its room back. A block from an earlier call, or from
        // before a region's newest, stays where it is until the next call starts the arena over.
        if region.is_newest(p, layout.size()) {
            if depth > 0 {
                region.next = p;
            }
        } else if !region.owns(p) {
            System.dealloc(ptr, layout)
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let s = &mut *self.0.get();
        let (p, depth) = (ptr as usize, s.depth);
        let region = s.region(layout.align());
        if depth == 0 && !region.owns(p) {
            return System.realloc(ptr, layout, new_size);
        }
        // The newest block grows (or shrinks) where it is: a String or Vec being filled.
        if depth > 0 && region.is_newest(p, layout.size()) && p + new_size <= region.chunks[region.current].1 {
            region.next = p + new_size;
            return ptr;
        }
        let new = self.alloc(Layout::from_size_align_unchecked(new_size, layout.align()));
        if !new.is_null() {
            std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
            self.dealloc(ptr, layout);
        }
        new
    }
}

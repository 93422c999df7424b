//! Transposition table: buckets of four 16-byte entries (one cache line).
//!
//! Each entry is two `AtomicU64`s: the packed data and the key XORed with that data. A reader
//! accepts an entry only when `stored_key ^ data == key`, so a torn write from another thread
//! (a later issue adds threads) reads as a miss instead of a wrong move or score. Relaxed
//! ordering is enough for the same reason.
//!
//! Data layout (64 bits): move u16 | score i16 | eval i16 | depth u8 | bound 2 bits, age 6 bits.

use crate::types::Pos;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

pub const ENTRY_BYTES: usize = 16;
const BUCKET: usize = 4;
const _: () = assert!(std::mem::size_of::<Entry>() == ENTRY_BYTES);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact = 1,
    Lower = 2,
    Upper = 3,
}

impl Bound {
    /// The bound a search result gives, from the window it was searched with.
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored score with this bound settles a node searched with `alpha..beta`.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The eval slot of an entry stored without a static value (or with one beyond i16).
pub const NO_EVAL: i32 = i16::MIN as i32;

/// What a probe found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub mv: Pos,
    /// Score as stored: win/loss scores are relative to the stored node (see `score_to_tt`).
    pub score: i32,
    /// The node's static value, `NO_EVAL` if none was stored.
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct Tt {
    entries: Box<[Entry]>,
    mask: usize,
    age: u8,
}

/// Scores at or beyond this magnitude are wins/losses at a distance from the root.
pub const WIN_THRESHOLD: i32 = 29_000;

/// Win/loss scores are stored relative to the node, not the root, so they stay exact when the
/// same position is met at another ply.
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply
    } else if score <= -WIN_THRESHOLD {
        score - ply
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply
    } else if score <= -WIN_THRESHOLD {
        score + ply
    } else {
        score
    }
}

impl Tt {
    /// A table of at most `bytes` bytes (rounded down to a power of two number of buckets).
    /// The memory comes zeroed from the allocator, so pages are committed only when touched.
    pub fn new(bytes: usize) -> Tt {
        Tt::try_new(bytes).unwrap_or_else(|| match Self::layout(bytes) {
            Some((layout, _)) => std::alloc::handle_alloc_error(layout),
            None => panic!("a hash table of {bytes} bytes cannot be described"),
        })
    }

    /// Like `new`, but `None` when the memory cannot be had (a manager may ask for more than
    /// the machine has), so the caller can settle for less instead of aborting.
    pub fn try_new(bytes: usize) -> Option<Tt> {
        let (layout, buckets) = Self::layout(bytes)?;
        Some(Tt { entries: zeroed_entries(layout)?, mask: buckets - 1, age: 0 })
    }

    /// The allocation for a table of at most `bytes`; `None` when no allocation that large can
    /// even be described (more than `isize::MAX` bytes).
    fn layout(bytes: usize) -> Option<(std::alloc::Layout, usize)> {
        let buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        let buckets = 1usize << (usize::BITS - 1 - buckets.leading_zeros());
        let layout = std::alloc::Layout::array::<Entry>(buckets * BUCKET).ok()?;
        Some((layout, buckets))
    }

    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Marks later stores as newer than everything already stored (once per search).
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3F;
    }

    pub fn clear(&mut self) {
        for e in self.entries.iter() {
            e.check.store(0, Relaxed);
            e.data.store(0, Relaxed);
        }
    }

    fn bucket(&self, key: u64) -> &[Entry] {
        let b = (key as usize) & self.mask;
        &self.entries[b * BUCKET..(b + 1) * BUCKET]
    }

    /// Starts loading `key`'s bucket into the cache: called before the move that leads to it
    /// is made, the load overlaps the board's update instead of stalling the child's probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let ptr = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch is a hint that reads nothing architecturally; the address is
            // that of a live entry of the table.
            unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        for e in self.bucket(key) {
            let data = e.data.load(Relaxed);
            if data != 0 && e.check.load(Relaxed) ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    pub fn store(&self, key: u64, mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound) {
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for e in bucket {
            let data = e.data.load(Relaxed);
            if data == 0 || e.check.load(Relaxed) ^ data == key {
                // A bound from a shallower search does not replace a deeper result.
                if data != 0 && bound != Bound::Exact && unpack(data).depth > depth {
                    return;
                }
                // Keep a known best move when the new store has none.
                let mv = if mv == Pos::NONE && data != 0 { unpack(data).mv } else { mv };
                write(e, key, pack(mv, score, eval, depth, bound, self.age));
                return;
            }
            let old_age = ((data >> 58) & 0x3F) as u8;
            let stale = (self.age.wrapping_sub(old_age) & 0x3F) as i32;
            let worth = ((data >> 48) & 0xFF) as i32 - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        write(victim, key, pack(mv, score, eval, depth, bound, self.age));
    }
}

/// Allocates `n` empty entries as zeroed memory. Building them one by one would write every
/// page at once (hundreds of MiB of RSS and ~100 ms before the first move); zeroed memory from
/// the allocator is committed only as the search touches it.
fn zeroed_entries(layout: std::alloc::Layout) -> Option<Box<[Entry]>> {
    let n = layout.size() / std::mem::size_of::<Entry>();
    // SAFETY: `Entry` is two `AtomicU64`s, which have the same representation as `u64`, so
    // all-zero bytes are a valid (empty) entry. The pointer comes from the global allocator
    // with the layout of `[Entry; n]`, which is what `Box<[Entry]>` frees it with; a null
    // pointer (allocation failure) is returned as `None` before any use.
    unsafe {
        let ptr = std::alloc::alloc_zeroed(layout) as *mut Entry;
        if ptr.is_null() {
            return None;
        }
        Some(Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, n)))
    }
}

fn write(e: &Entry, key: u64, data: u64) {
    e.data.store(data, Relaxed);
    e.check.store(key ^ data, Relaxed);
}

fn pack(mv: Pos, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let clamp16 = |v: i32| v.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64;
    // A static value is kept only exactly: a clamped one would be another value.
    let eval = if eval > NO_EVAL && eval < i16::MAX as i32 { eval } else { NO_EVAL };
    (mv.0 as u64)
        | clamp16(score) << 16
        | clamp16(eval) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | (age as u64 & 0x3F) << 58
}

fn unpack(data: u64) -> Hit {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    Hit {
        mv: Pos(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_probe_round_trip() {
        let tt = Tt::new(1 << 16);
        tt.store(0xDEAD_BEEF_1234, Pos(321), -512, 77, 9, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF_1234).expect("stored");
        assert_eq!(hit, Hit { mv: Pos(321), score: -512, eval: 77, depth: 9, bound: Bound::Lower });
        assert_eq!(tt.probe(0xDEAD_BEEF_1235), None);
    }

    /// A static value is kept exactly or not at all: one beyond i16 reads back as none.
    #[test]
    fn static_values_beyond_i16_are_not_kept() {
        let tt = Tt::new(1 << 16);
        for (eval, kept) in
            [(-32767, -32767), (32766, 32766), (0, 0), (32767, NO_EVAL), (-40000, NO_EVAL), (90000, NO_EVAL)]
        {
            tt.store(7, Pos(1), 0, eval, 3, Bound::Exact);
            assert_eq!(tt.probe(7).expect("stored").eval, kept, "{eval}");
        }
    }

    #[test]
    fn win_scores_round_trip_across_plies() {
        let win_in_3_from_root_at_ply_4 = 30_000 - 7;
        let stored = score_to_tt(win_in_3_from_root_at_ply_4, 4);
        assert_eq!(stored, 30_000 - 3);
        assert_eq!(score_from_tt(stored, 10), 30_000 - 13);
        let loss = -(30_000 - 6);
        assert_eq!(score_from_tt(score_to_tt(loss, 2), 5), -(30_000 - 9));
        assert_eq!(score_from_tt(score_to_tt(150, 3), 9), 150);
        let tt = Tt::new(1 << 12);
        tt.store(42, Pos(5), score_to_tt(loss, 2), 0, 3, Bound::Exact);
        assert_eq!(score_from_tt(tt.probe(42).unwrap().score, 2), loss);
    }

    #[test]
    fn size_is_a_power_of_two_within_budget() {
        let tt = Tt::new(1000 * 1000);
        assert!(tt.bytes() <= 1000 * 1000);
        assert!(tt.bytes() * 2 > 1000 * 1000);
        assert!((tt.bytes() / (ENTRY_BYTES * BUCKET)).is_power_of_two());
    }

    #[test]
    fn impossible_sizes_fail_softly() {
        assert!(Tt::try_new(usize::MAX / 2).is_none());
        assert!(Tt::try_new(usize::MAX).is_none());
        assert!(Tt::try_new(1 << 20).is_some());
    }

    #[test]
    fn replacement_keeps_deeper_entries() {
        let tt = Tt::new(ENTRY_BYTES * BUCKET); // one bucket
        for k in 0..4u64 {
            tt.store(k << 20, Pos(1), 0, 0, 10 + k as i32, Bound::Exact);
        }
        tt.store(99 << 20, Pos(2), 0, 0, 1, Bound::Exact);
        assert!(tt.probe(99 << 20).is_some());
        assert!(tt.probe(0).is_none(), "the shallowest entry is replaced");
        assert!(tt.probe(3 << 20).is_some());
    }
}

//! The transposition table, shared by all search threads without locks.
//!
//! A bucket is 64 bytes: four entries of two 64-bit words, the first the
//! key xor the data, the second the data. A reader accepts an entry only
//! when `word0 ^ word1` equals its key, so a torn write by another thread
//! reads as a miss, never as a wrong entry ("xor trick").
//!
//! The data word holds the move (its index in the position's move list and
//! its start square, to check it), the score, the depth, the bound and the
//! age of the search that wrote it. Replacement inside a bucket keeps the
//! same position's entry, else takes the entry of an older search or of
//! the least depth.

use std::sync::atomic::{AtomicU64, Ordering};

/// Which side of the true score the stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move reached beta).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Index of the best move in the position's generated move list.
    pub move_index: Option<u8>,
    /// Start square of that move (a check on the index).
    pub move_from: u8,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 16;

#[repr(align(64))]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES_PER_BUCKET],
}

/// Zeroed memory for `len` buckets, given back to the system on drop.
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    /// How the memory was obtained: the mapping to unmap (Linux), or the
    /// allocator's layout.
    source: Source,
}

enum Source {
    #[cfg(target_os = "linux")]
    Mapped {
        bytes: usize,
    },
    Allocated(std::alloc::Layout),
}

// SAFETY: the buckets are atomics, shared by reference like a `Box<[Bucket]>`;
// the raw pointers are only the owned allocation.
unsafe impl Send for Buckets {}
unsafe impl Sync for Buckets {}

/// Huge page size on x86-64 and aarch64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl Buckets {
    fn zeroed(len: usize) -> Option<Buckets> {
        let bytes = len.checked_mul(BUCKET_BYTES)?;
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE && bytes % 4096 == 0 {
            return Buckets::mapped(len, bytes);
        }
        Buckets::allocated(len)
    }

    /// An anonymous mapping (zeroed by the system), 2 MiB aligned and
    /// advised for huge pages (a hint: without them it works the same).
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, bytes: usize) -> Option<Buckets> {
        let map_bytes = bytes.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; its result is checked.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                map_bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        // The table: `bytes` (a whole number of 4 KiB pages) from the first
        // 2 MiB boundary; the slack before and after is given back.
        // SAFETY: offset < HUGE_PAGE, so [start, start + bytes) and the two
        // slack ranges lie inside the mapping of `bytes + HUGE_PAGE`, and
        // all three start on page boundaries.
        let start = unsafe {
            let start = (base as *mut u8).add(offset);
            if offset > 0 {
                libc::munmap(base, offset);
            }
            libc::munmap(start.add(bytes) as *mut libc::c_void, HUGE_PAGE - offset);
            start as *mut libc::c_void
        };
        // SAFETY: advice on our own mapping; refused advice is harmless.
        unsafe { libc::madvise(start, bytes, libc::MADV_HUGEPAGE) };
        Some(Buckets {
            ptr: std::ptr::NonNull::new(start as *mut Bucket)?,
            len,
            source: Source::Mapped { bytes },
        })
    }

    fn allocated(len: usize) -> Option<Buckets> {
        let layout = std::alloc::Layout::array::<Bucket>(len).ok()?;
        // SAFETY: the layout has a non-zero size (len >= 1).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) } as *mut Bucket;
        Some(Buckets {
            ptr: std::ptr::NonNull::new(ptr)?,
            len,
            source: Source::Allocated(layout),
        })
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `len` buckets of zeroed memory, which is a valid `Bucket`
        // (atomic integers), live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        match self.source {
            #[cfg(target_os = "linux")]
            // SAFETY: what is left of the mapping made in `mapped` (the
            // table itself), unmapped once.
            Source::Mapped { bytes } => unsafe {
                libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, bytes);
            },
            // SAFETY: allocated in `allocated` with this layout.
            Source::Allocated(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, layout)
            },
        }
    }
}

/// The table. Its size is set in MiB and stays within it.
pub struct TranspositionTable {
    buckets: Buckets,
    age: AtomicU64,
}

fn pack(e: &Entry, age: u8) -> u64 {
    let idx = e.move_index.map_or(0xFF, |i| i) as u64;
    idx | (e.move_from as u64) << 8
        | (e.score as u16 as u64) << 16
        | (e.depth as u64) << 32
        | (e.bound as u64) << 40
        | ((age & 0x3F) as u64) << 42
}

fn unpack(d: u64) -> (Entry, u8) {
    let idx = (d & 0xFF) as u8;
    let bound = match (d >> 40) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    (
        Entry {
            move_index: (idx != 0xFF).then_some(idx),
            move_from: (d >> 8) as u8,
            score: (d >> 16) as u16 as i16,
            depth: (d >> 32) as u8,
            bound,
        },
        ((d >> 42) & 0x3F) as u8,
    )
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had; see [`TranspositionTable::try_new`].
    pub fn new(mib: usize) -> TranspositionTable {
        TranspositionTable::try_new(mib).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `mib` MiB, or an error naming the size when the
    /// system refuses the memory. The memory comes zeroed from the system;
    /// on Linux it is aligned to 2 MiB and offered for transparent huge
    /// pages, which spares the processor most address-translation misses
    /// on probes. Every page is touched here, once, so that no search pays
    /// for the system handing out the memory (a 64 MiB table takes a few
    /// milliseconds).
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let count = (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        let buckets = Buckets::zeroed(count)
            .ok_or_else(|| format!("cannot allocate a {mib} MiB transposition table"))?;
        // One store of zero (the value already there) per 4 KiB page.
        for b in buckets.iter().step_by(4096 / BUCKET_BYTES) {
            b.words[0].store(0, Ordering::Relaxed);
        }
        Ok(TranspositionTable {
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything (a new game). One `memset` over the memory the
    /// table already has: no page is given back or asked for again.
    pub fn clear(&mut self) {
        // SAFETY: `&mut self` excludes every other access to the buckets;
        // all zeros is a valid `Bucket` (atomic integers).
        unsafe { std::ptr::write_bytes(self.buckets.ptr.as_ptr(), 0, self.buckets.len) };
        *self.age.get_mut() = 0;
    }

    /// Start a new search: entries of older searches become replaceable.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & 0x3F) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Ask the processor to bring `key`'s bucket into the cache, so a probe
    /// a little later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: a prefetch is only a hint; it reads nothing and the
            // pointer is to a live bucket. SSE is part of baseline x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for i in 0..ENTRIES_PER_BUCKET {
            let w0 = b.words[2 * i].load(Ordering::Relaxed);
            let w1 = b.words[2 * i + 1].load(Ordering::Relaxed);
            if w1 != 0 && w0 ^ w1 == key {
                return Some(unpack(w1).0);
            }
        }
        None
    }

    /// Store an entry for `key`.
    pub fn store(&self, key: u64, entry: Entry) {
        let age = self.age();
        let b = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let w0 = b.words[2 * i].load(Ordering::Relaxed);
            let w1 = b.words[2 * i + 1].load(Ordering::Relaxed);
            if w1 == 0 {
                victim = i;
                break;
            }
            let (old, old_age) = unpack(w1);
            if w0 ^ w1 == key {
                // Same position: keep a deeper entry of this search unless
                // the new one is exact.
                if old_age == age && old.depth > entry.depth + 2 && entry.bound != Bound::Exact {
                    return;
                }
                let mut e = entry;
                if e.move_index.is_none() {
                    e.move_index = old.move_index;
                    e.move_from = old.move_from;
                }
                let d = pack(&e, age);
                b.words[2 * i].store(key ^ d, Ordering::Relaxed);
                b.words[2 * i + 1].store(d, Ordering::Relaxed);
                return;
            }
            let stale = (age.wrapping_sub(old_age) & 0x3F) as i32;
            let value = old.depth as i32 - 8 * stale;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let d = pack(&entry, age);
        b.words[2 * victim].store(key ^ d, Ordering::Relaxed);
        b.words[2 * victim + 1].store(d, Ordering::Relaxed);
    }

    /// Per mille of the first 1000 entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let mut used = 0u32;
        let mut seen = 0;
        'outer: for b in self.buckets.iter() {
            for i in 0..ENTRIES_PER_BUCKET {
                if seen == 1000 {
                    break 'outer;
                }
                seen += 1;
                let w1 = b.words[2 * i + 1].load(Ordering::Relaxed);
                if w1 != 0 && unpack(w1).1 == age {
                    used += 1;
                }
            }
        }
        (used * 1000).checked_div(seen).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_within_the_option() {
        for mib in [1, 3, 16] {
            let t = TranspositionTable::new(mib);
            assert!(t.size_bytes() <= mib << 20);
            assert!(t.size_bytes() > (mib << 20) / 2);
        }
    }

    #[test]
    fn every_bucket_is_usable_memory() {
        // Sizes below, at and above the huge page, odd and even.
        for mib in [1, 2, 3, 5] {
            let t = TranspositionTable::new(mib);
            assert_eq!(t.buckets.len() * BUCKET_BYTES, mib << 20);
            assert_eq!(t.buckets.as_ptr() as usize % 64, 0, "{mib} MiB");
            #[cfg(target_os = "linux")]
            if mib >= 2 {
                assert_eq!(t.buckets.as_ptr() as usize % HUGE_PAGE, 0, "{mib} MiB");
            }
            for (i, b) in t.buckets.iter().enumerate() {
                assert_eq!(b.words[7].load(Ordering::Relaxed), 0, "zeroed");
                b.words[7].store(i as u64 + 1, Ordering::Relaxed);
            }
            for (i, b) in t.buckets.iter().enumerate() {
                assert_eq!(b.words[7].load(Ordering::Relaxed), i as u64 + 1);
            }
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let mut t = TranspositionTable::new(1);
        let e = Entry {
            move_index: Some(3),
            move_from: 17,
            score: -1234,
            depth: 9,
            bound: Bound::Lower,
        };
        t.store(0xDEAD_BEEF_1234_5678, e);
        assert_eq!(t.probe(0xDEAD_BEEF_1234_5678), Some(e));
        assert_eq!(t.probe(0xDEAD_BEEF_1234_5679), None);
        t.clear();
        assert_eq!(t.probe(0xDEAD_BEEF_1234_5678), None);
    }
}

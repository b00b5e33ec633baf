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

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

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

impl Buckets {
    /// Give the pages back to the system, which hands out zeroed ones on
    /// the next touch, when the buckets are a mapping of more than
    /// `min_bytes`; `false` (nothing done) otherwise.
    fn discard(&mut self, min_bytes: usize) -> bool {
        match self.source {
            #[cfg(target_os = "linux")]
            Source::Mapped { bytes } if bytes > min_bytes => {
                // SAFETY: our own private anonymous mapping, not in use
                // (`&mut self`); MADV_DONTNEED on it reads back as zeros.
                let r = unsafe {
                    libc::madvise(
                        self.ptr.as_ptr() as *mut libc::c_void,
                        bytes,
                        libc::MADV_DONTNEED,
                    )
                };
                r == 0
            }
            _ => {
                let _ = min_bytes;
                false
            }
        }
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
    /// Shared only with the background toucher.
    buckets: Arc<Buckets>,
    /// How many of the buckets are in use: those touched so far (see
    /// [`TranspositionTable::touch`]).
    active: Arc<AtomicUsize>,
    age: AtomicU64,
    /// The thread touching the pages past [`TOUCH_NOW_MIB`], and its
    /// cancel flag.
    toucher: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
}

impl Drop for TranspositionTable {
    fn drop(&mut self) {
        self.stop_touching();
    }
}

/// The part of a table touched when it is made (see
/// [`TranspositionTable::try_new`]): the default size, 64 MiB, in a few
/// tens of milliseconds.
pub const TOUCH_NOW_MIB: usize = 64;

/// Make the system hand out the page of `b` without changing anything in
/// it: a compare-exchange of 0 with 0 is a write to the processor (a load,
/// or an atomic "or 0", which compilers turn into a load, would map the
/// shared zero page), and an entry a search stored there stays whole.
#[inline]
fn touch_page(b: &Bucket) {
    let _ = b.words[0].compare_exchange(0, 0, Ordering::Relaxed, Ordering::Relaxed);
}

/// The memory the system has available, in MiB: Linux's `MemAvailable`
/// (`/proc/meminfo`), or less where a control group's limit leaves less
/// (cgroup v2 `memory.max` less `memory.current`); `None` where it cannot
/// tell.
pub fn available_mib() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: usize = info
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse()
        .ok()?;
    let read = |name: &str| -> Option<usize> {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{name}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    let limited = match (read("memory.max"), read("memory.current")) {
        (Some(max), Some(current)) => max.saturating_sub(current) >> 20,
        _ => usize::MAX,
    };
    Some((kib / 1024).min(limited))
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

    /// A table of at most `mib` MiB, or an error naming the size when it
    /// cannot fit: more than the system has available (Linux: checked
    /// before anything is asked for), or refused by the system. The memory
    /// comes zeroed from the system; on Linux it is aligned to 2 MiB and
    /// offered for transparent huge pages, which spares the processor most
    /// address-translation misses on probes.
    ///
    /// The first [`TOUCH_NOW_MIB`] are touched here, so that no search
    /// pays for the system handing out the pages of a table of the usual
    /// size; the pages past it are touched by a thread of the table's own
    /// in the background (searches may already run: touching changes no
    /// entry), so that any size is ready at once, and searches use the
    /// part touched so far (all of it within seconds: 4 GiB took 10 s of
    /// the system's time on a 2-core machine).
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        TranspositionTable::fits(mib, 0)?;
        let refused = || format!("cannot allocate a {mib} MiB transposition table");
        let count = (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        let buckets = Arc::new(Buckets::zeroed(count).ok_or_else(refused)?);
        let mut table = TranspositionTable {
            buckets,
            active: Arc::new(AtomicUsize::new(0)),
            age: AtomicU64::new(0),
            toucher: None,
        };
        table.touch();
        Ok(table)
    }

    /// Whether a table of `mib` MiB fits in the memory the system has
    /// available once `freed_mib` more are given back (the table it
    /// replaces): the error names both sizes. Where the system cannot tell
    /// (not Linux), it fits.
    pub fn fits(mib: usize, freed_mib: usize) -> Result<(), String> {
        match available_mib() {
            Some(available) if mib > available + freed_mib => Err(format!(
                "cannot allocate a {mib} MiB transposition table: the system has {} MiB of memory available",
                available + freed_mib
            )),
            _ => Ok(()),
        }
    }

    /// Touch every page of the table, the first [`TOUCH_NOW_MIB`] now, the
    /// rest in the background, and use only the part touched: a probe of
    /// an untouched page would make the search wait for the system to
    /// hand it out (milliseconds for a 2 MiB huge page), at almost every
    /// node of a first search on a big table. The part in use doubles as
    /// the touching goes on; each step scatters the entries (it is a
    /// cache: they are found again, or searched again).
    fn touch(&mut self) {
        const PAGE_BUCKETS: usize = 4096 / BUCKET_BYTES;
        let len = self.buckets.len();
        let mut done = ((TOUCH_NOW_MIB << 20) / BUCKET_BYTES).min(len);
        for b in self.buckets[..done].iter().step_by(PAGE_BUCKETS) {
            touch_page(b);
        }
        self.active.store(done, Ordering::Relaxed);
        if done == len {
            return;
        }
        let buckets = self.buckets.clone();
        let active = self.active.clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let handle = std::thread::Builder::new()
            .name("tt-touch".into())
            .spawn(move || {
                while done < len {
                    let next = done.saturating_mul(2).min(len);
                    for (i, b) in buckets[done..next].iter().enumerate().step_by(PAGE_BUCKETS) {
                        if i % (1 << 14) == 0 && flag.load(Ordering::Relaxed) {
                            return;
                        }
                        touch_page(b);
                    }
                    done = next;
                    active.store(done, Ordering::Relaxed);
                }
            });
        match handle {
            Ok(handle) => self.toucher = Some((cancel, handle)),
            // Without the thread the pages are handed out as searches
            // reach them: slower at first, the same table.
            Err(_) => self.active.store(len, Ordering::Relaxed),
        }
    }

    /// Stop the background touching, if any, and wait for it.
    fn stop_touching(&mut self) {
        if let Some((cancel, handle)) = self.toucher.take() {
            cancel.store(true, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// Bytes of the entries in use: all of them, once the background
    /// touching is over (see [`TranspositionTable::touch`]).
    pub fn active_bytes(&self) -> usize {
        self.active.load(Ordering::Relaxed) * BUCKET_BYTES
    }

    /// Bytes used by the entries.
    pub fn size_bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything (a new game). A table of up to [`TOUCH_NOW_MIB`]
    /// is zeroed in place (one `memset`, a few milliseconds); a bigger one
    /// on Linux gives its pages back and is touched again in the
    /// background, so that clearing takes no time whatever the size.
    pub fn clear(&mut self) {
        self.stop_touching();
        let buckets = Arc::get_mut(&mut self.buckets).expect("the toucher has ended");
        if !buckets.discard(TOUCH_NOW_MIB << 20) {
            // SAFETY: `&mut self` and the unique `Arc` exclude every other
            // access to the buckets; all zeros is a valid `Bucket` (atomic
            // integers).
            unsafe { std::ptr::write_bytes(buckets.ptr.as_ptr(), 0, buckets.len) };
        }
        *self.age.get_mut() = 0;
        self.touch();
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
        let active = self.active.load(Ordering::Relaxed);
        let i = ((key as u128 * active as u128) >> 64) as usize;
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
        'outer: for b in self.buckets[..self.active.load(Ordering::Relaxed)].iter() {
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

    /// A table past the part touched at once is in use at once in part,
    /// wholly a little later; clearing it starts over from that part.
    #[test]
    fn a_big_table_comes_into_use_as_it_is_touched() {
        let full = 160 << 20;
        let wait_full = |t: &TranspositionTable| {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            while t.active_bytes() < full && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            assert_eq!(t.active_bytes(), full);
        };
        let mut t = TranspositionTable::new(160);
        let first = t.active_bytes();
        assert!(first >= TOUCH_NOW_MIB << 20 && first <= full, "{first}");
        wait_full(&t);
        let e = Entry {
            move_index: None,
            move_from: 3,
            score: 7,
            depth: 2,
            bound: Bound::Exact,
        };
        t.store(42, e);
        assert_eq!(t.probe(42), Some(e));
        t.clear();
        assert_eq!(t.probe(42), None);
        wait_full(&t);
        assert_eq!(t.probe(42), None);
        t.store(42, e);
        assert_eq!(t.probe(42), Some(e));
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

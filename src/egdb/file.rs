//! The files of one combination: its table of values, and beside it
//! (optional) its table of plies to the conversion ([`Kind`]).
//!
//! Layout (little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic: `SHKEGDB1` (values), `SHKEGDP1` (plies) |
//! | 4 | format version ([`VERSION`]) |
//! | 1 | variant: 0 Russian, 1 Brazilian |
//! | 4 | the combination: our men, our kings, their men, their kings |
//! | 3 | zero |
//! | 8 | positions (the index space of the combination) |
//! | 4 | positions per block ([`BLOCK`]) |
//! | 4 | blocks `b` |
//! | 8 (b + 1) | where each block starts, from the start of the data |
//! | 8 b | a check of each block's compressed bytes |
//! | 8 | a check of everything above |
//! | ... | the data: each block LZ4-compressed |
//! | 8 | a check of the whole file before it |
//!
//! A block of values holds [`BLOCK`] positions at 2 bits each (4 a byte,
//! the first in the low bits): 0 draw, 1 win, 2 loss for the side to move,
//! 3 no position (men of both sides on one square). A block of plies holds
//! them at a byte each: for a win or a loss, the plies to the end of the
//! combination under best play without the counting rules (see
//! [`super::build::Plain`]), at most 255; 0 elsewhere. The header and each
//! block are checked when read, so a probe never trusts damaged bytes; the
//! whole file's check is for `egdb verify` and for a build that resumes.

use super::index::Combo;
use super::Value;
use crate::variant::Variant;
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub const VERSION: u32 = 1;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Win, draw or loss with the counters at zero: `KKM-K.egdb`.
    Values,
    /// Plies to the conversion of a win or a loss: `KKM-K.plies`.
    Plies,
}

impl Kind {
    pub fn magic(self) -> &'static [u8; 8] {
        match self {
            Kind::Values => b"SHKEGDB1",
            Kind::Plies => b"SHKEGDP1",
        }
    }

    /// Bits a position.
    fn bits(self) -> u64 {
        match self {
            Kind::Values => 2,
            Kind::Plies => 8,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Kind::Values => "egdb",
            Kind::Plies => "plies",
        }
    }

    /// What the file holds, in words.
    pub fn what(self) -> &'static str {
        match self {
            Kind::Values => "values",
            Kind::Plies => "plies",
        }
    }

    /// The file name of a combination's table of this kind.
    pub fn file_name(self, c: Combo) -> String {
        format!("{}.{}", c.name(), self.extension())
    }

    /// Bytes a block of `n` positions takes unpacked.
    fn unpacked(self, n: u64) -> usize {
        (n * self.bits()).div_ceil(8) as usize
    }
}
/// Positions per block: 4 KiB before compression.
pub const BLOCK: u64 = 16_384;
const HEADER: usize = 8 + 4 + 1 + 4 + 3 + 8 + 4 + 4;

/// FNV-1a, 64 bits: the checks of the file.
pub fn check(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub fn variant_code(v: Variant) -> Option<u8> {
    match v {
        Variant::Russian => Some(0),
        Variant::Brazilian => Some(1),
        _ => None,
    }
}

/// The file name of a combination's table of values.
pub fn file_name(c: Combo) -> String {
    Kind::Values.file_name(c)
}

/// Write the table of `combo` (one byte per index) to `path`, through a
/// temporary file renamed at the end, so a file with the final name is
/// always whole (a write that fails, e.g. on a full disk, removes its
/// temporary file). A whole table of `combo` already at `path` is kept:
/// left as it is when it holds these bytes, an error when it does not.
pub fn write(
    path: &Path,
    kind: Kind,
    variant: Variant,
    combo: Combo,
    values: &[u8],
) -> Result<u64, String> {
    let size = combo.size();
    assert_eq!(values.len() as u64, size);
    let blocks = size.div_ceil(BLOCK) as usize;
    let mut data = Vec::new();
    let mut offsets = Vec::with_capacity(blocks + 1);
    let mut checks = Vec::with_capacity(blocks);
    for b in 0..blocks {
        let lo = b * BLOCK as usize;
        let hi = (lo + BLOCK as usize).min(values.len());
        let packed = match kind {
            Kind::Values => {
                let mut packed = vec![0u8; (hi - lo).div_ceil(4)];
                for (k, &v) in values[lo..hi].iter().enumerate() {
                    packed[k / 4] |= (v & 3) << (2 * (k % 4));
                }
                packed
            }
            Kind::Plies => values[lo..hi].to_vec(),
        };
        let z = lz4_flex::compress_prepend_size(&packed);
        offsets.push(data.len() as u64);
        checks.push(check(&z));
        data.extend_from_slice(&z);
    }
    offsets.push(data.len() as u64);
    let mut out = Vec::with_capacity(HEADER + 16 * blocks + data.len() + 24);
    out.extend_from_slice(kind.magic());
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(variant_code(variant).ok_or("endgame tables exist for russian and brazilian only")?);
    out.extend_from_slice(&[
        combo.us_men,
        combo.us_kings,
        combo.them_men,
        combo.them_kings,
    ]);
    out.extend_from_slice(&[0, 0, 0]);
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks as u32).to_le_bytes());
    for o in &offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for c in &checks {
        out.extend_from_slice(&c.to_le_bytes());
    }
    let head_check = check(&out);
    out.extend_from_slice(&head_check.to_le_bytes());
    out.extend_from_slice(&data);
    let whole = check(&out);
    out.extend_from_slice(&whole.to_le_bytes());
    // A whole table of this combination already there is never replaced:
    // the same bytes are kept as they are, other bytes refused (a file that
    // is damaged, or holds another table, is no such table).
    if let Ok(old) = std::fs::read(path) {
        if old == out {
            return Ok(out.len() as u64);
        }
        if TableFile::check_whole(path).is_ok()
            && TableFile::open_kind(path, kind, variant, combo).is_ok()
        {
            return Err(format!(
                "{}: a whole table that differs from the one built now (another build's?); move it away to build it again",
                path.display()
            ));
        }
    }
    let tmp = path.with_extension(format!("{}.part", kind.extension()));
    let written = File::create(&tmp).and_then(|mut f| {
        write_counted(&mut f, &out)?;
        f.sync_all()
    });
    if let Err(e) = written {
        // What could not be finished is not left to fill the disk.
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "cannot write {}: {e}; the tables finished so far are kept: run the build again to resume",
            tmp.display()
        ));
    }
    std::fs::rename(&tmp, path).map_err(|e| {
        format!(
            "cannot write {}: {e}; the tables finished so far are kept: run the build again to resume",
            path.display()
        )
    })?;
    // The new name on disk too, before the next table counts on it.
    #[cfg(unix)]
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        let _ = File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(out.len() as u64)
}

/// The environment variable of a test hook: with
/// `SHASHKI_EGDB_FAIL_AFTER_BYTES=N`, the writer of table files fails as on
/// a full disk (`No space left on device`) once this process has written
/// N bytes of tables, the rest of the file it was on unwritten. Tests use
/// it to check what a build does when the disk fills where no small file
/// system can be mounted (`engine-tests/egdb_faults.rs`).
pub const FAIL_AFTER_BYTES: &str = "SHASHKI_EGDB_FAIL_AFTER_BYTES";

/// Write `bytes` to `f`, counting them against [`FAIL_AFTER_BYTES`].
fn write_counted(f: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    static WRITTEN: AtomicU64 = AtomicU64::new(0);
    let limit = *LIMIT.get_or_init(|| {
        std::env::var(FAIL_AFTER_BYTES)
            .ok()
            .and_then(|v| v.trim().parse().ok())
    });
    let Some(limit) = limit else {
        return f.write_all(bytes);
    };
    let before = WRITTEN.fetch_add(bytes.len() as u64, Ordering::SeqCst);
    let room = limit.saturating_sub(before).min(bytes.len() as u64) as usize;
    f.write_all(&bytes[..room])?;
    if room < bytes.len() {
        #[cfg(unix)]
        return Err(std::io::Error::from_raw_os_error(libc::ENOSPC));
        #[cfg(not(unix))]
        return Err(std::io::Error::other("No space left on device"));
    }
    Ok(())
}

/// The variant of the table file at `path`, read from its header: `None`
/// when it is no Shashki table (or too short to say).
pub fn file_variant(path: &Path) -> Option<Variant> {
    let mut head = [0u8; 13];
    File::open(path).ok()?.read_exact(&mut head).ok()?;
    if ![Kind::Values, Kind::Plies]
        .iter()
        .any(|k| &head[0..8] == k.magic())
    {
        return None;
    }
    [Variant::Russian, Variant::Brazilian]
        .into_iter()
        .find(|&v| variant_code(v) == Some(head[12]))
}

/// The variant whose tables `dir` holds, read from the headers of its
/// `.egdb` and `.plies` files, with the name of one of them: `None` when it
/// holds none (or does not exist); an error naming both variants when it
/// holds tables of two.
pub fn folder_variant(dir: &Path) -> Result<Option<(Variant, String)>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".egdb") || n.ends_with(".plies"))
        .collect();
    names.sort();
    let mut found: Option<(Variant, String)> = None;
    for name in names {
        let Some(v) = file_variant(&dir.join(&name)) else {
            continue;
        };
        match &found {
            None => found = Some((v, name)),
            Some((w, first)) if *w != v => {
                return Err(format!(
                    "'{}' holds tables of two variants: {w} ({first}) and {v} ({name})",
                    dir.display()
                ))
            }
            Some(_) => {}
        }
    }
    Ok(found)
}

/// An open table: its header read and checked; blocks read, checked and
/// unpacked on first use, then kept.
pub struct TableFile {
    path: PathBuf,
    file: File,
    kind: Kind,
    pub combo: Combo,
    pub positions: u64,
    offsets: Vec<u64>,
    checks: Vec<u64>,
    data_start: u64,
    blocks: Vec<OnceLock<Result<Box<[u8]>, String>>>,
}

fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(buf, at)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom};
        let mut f = file.try_clone()?;
        f.seek(SeekFrom::Start(at))?;
        f.read_exact(buf)
    }
}

impl TableFile {
    /// Open the table of values of `combo` for `variant` at `path`: one
    /// error line naming the file when it is missing, of another variant,
    /// combination, kind or format version, or damaged.
    pub fn open(path: &Path, variant: Variant, combo: Combo) -> Result<TableFile, String> {
        TableFile::open_kind(path, Kind::Values, variant, combo)
    }

    /// [`TableFile::open`] for a table of `kind`.
    pub fn open_kind(
        path: &Path,
        kind: Kind,
        variant: Variant,
        combo: Combo,
    ) -> Result<TableFile, String> {
        let name = path.display();
        let mut file = File::open(path).map_err(|e| format!("{name}: {e}"))?;
        let mut head = [0u8; HEADER];
        file.read_exact(&mut head)
            .map_err(|_| format!("{name}: too short for an endgame table"))?;
        if &head[0..8] != kind.magic() {
            let other = [Kind::Values, Kind::Plies]
                .into_iter()
                .find(|k| &head[0..8] == k.magic());
            return Err(match other {
                Some(k) => format!("{name}: a table of {}, not of {}", k.what(), kind.what()),
                None => format!("{name}: not a Shashki endgame table"),
            });
        }
        let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().unwrap());
        let version = u32_at(8);
        if version != VERSION {
            return Err(format!(
                "{name}: format version {version}, this engine reads version {VERSION}"
            ));
        }
        let want =
            variant_code(variant).ok_or("endgame tables exist for russian and brazilian only")?;
        if head[12] != want {
            let other = if head[12] == 0 {
                "russian"
            } else {
                "brazilian"
            };
            return Err(format!("{name}: a table of {other}, not {variant}"));
        }
        let c = Combo::new(head[13], head[14], head[15], head[16]);
        if c != combo {
            return Err(format!("{name}: holds {c}, not {combo}"));
        }
        let positions = u64::from_le_bytes(head[20..28].try_into().unwrap());
        let block = u32_at(28) as u64;
        let blocks = u32_at(32) as usize;
        if positions != combo.size() || block != BLOCK || blocks as u64 != positions.div_ceil(BLOCK)
        {
            return Err(format!("{name}: damaged header"));
        }
        let mut index = vec![0u8; 8 * (blocks + 1) + 8 * blocks + 8];
        file.read_exact(&mut index)
            .map_err(|_| format!("{name}: truncated"))?;
        let mut all = head.to_vec();
        all.extend_from_slice(&index[..index.len() - 8]);
        let stored = u64::from_le_bytes(index[index.len() - 8..].try_into().unwrap());
        if check(&all) != stored {
            return Err(format!("{name}: damaged (header check failed)"));
        }
        let word = |k: usize| u64::from_le_bytes(index[8 * k..8 * k + 8].try_into().unwrap());
        let offsets: Vec<u64> = (0..=blocks).map(word).collect();
        let checks: Vec<u64> = (0..blocks).map(|k| word(blocks + 1 + k)).collect();
        let data_start = (HEADER + index.len()) as u64;
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        if offsets.windows(2).any(|w| w[0] > w[1]) || data_start + offsets[blocks] + 8 != len {
            return Err(format!("{name}: truncated or damaged (size {len} bytes)"));
        }
        Ok(TableFile {
            path: path.to_path_buf(),
            file,
            kind,
            combo,
            positions,
            offsets,
            checks,
            data_start,
            blocks: (0..blocks).map(|_| OnceLock::new()).collect(),
        })
    }

    /// The value at `index`, or an error naming the file if its block is
    /// damaged.
    #[inline]
    pub fn get(&self, index: u64) -> Result<Value, String> {
        let b = (index / BLOCK) as usize;
        let k = (index % BLOCK) as usize;
        let block = self.blocks[b].get_or_init(|| self.load(b));
        match (block, self.kind) {
            (Ok(bytes), Kind::Values) => Ok((bytes[k / 4] >> (2 * (k % 4))) & 3),
            (Ok(bytes), Kind::Plies) => Ok(bytes[k]),
            (Err(e), _) => Err(e.clone()),
        }
    }

    fn load(&self, b: usize) -> Result<Box<[u8]>, String> {
        let name = self.path.display();
        let (lo, hi) = (self.offsets[b], self.offsets[b + 1]);
        let mut z = vec![0u8; (hi - lo) as usize];
        read_exact_at(&self.file, &mut z, self.data_start + lo)
            .map_err(|e| format!("{name}: block {b}: {e}"))?;
        if check(&z) != self.checks[b] {
            return Err(format!("{name}: damaged (block {b} check failed)"));
        }
        let out = lz4_flex::decompress_size_prepended(&z)
            .map_err(|e| format!("{name}: block {b}: {e}"))?;
        let want = self
            .kind
            .unpacked((self.positions - b as u64 * BLOCK).min(BLOCK));
        if out.len() != want {
            return Err(format!("{name}: damaged (block {b} has the wrong size)"));
        }
        Ok(out.into_boxed_slice())
    }

    /// Read the whole file and compare its check (`egdb verify`, resuming
    /// builds).
    pub fn check_whole(path: &Path) -> Result<(), String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        if bytes.len() < 8 {
            return Err(format!("{}: truncated", path.display()));
        }
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        if check(body) != u64::from_le_bytes(tail.try_into().unwrap()) {
            return Err(format!("{}: damaged (file check failed)", path.display()));
        }
        Ok(())
    }

    /// Every value, in index order.
    pub fn all_values(&self) -> Result<Vec<Value>, String> {
        (0..self.positions).map(|i| self.get(i)).collect()
    }

    /// Bytes on disk.
    pub fn file_size(&self) -> u64 {
        self.file.metadata().map(|m| m.len()).unwrap_or(0)
    }
}

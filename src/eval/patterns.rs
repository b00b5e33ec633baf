//! The pattern evaluation of Russian and Brazilian: learned weights for the
//! men in overlapping 4x4 blocks of the board.
//!
//! **Regions.** A block of 4 files by 4 ranks holds 8 dark squares. The 15
//! regions are the blocks whose lower left corner is on file a, c or e and
//! rank 1 to 5 (a1-d4, c1-f4, e1-h4, a2-d5, ..., e5-h8): every square is in
//! two to six of them. (All 25 blocks fitted a little better, a validation
//! cross-entropy 0.0008 lower on 600,000 Russian positions, at almost twice
//! the cost; 9 blocks, corners on ranks 1, 3, 5 only, 0.0035 worse.) Each square is
//! empty, a white man or a black man (kings count as empty: the hand-shaped
//! terms see them), so a region has 3^8 = 6561 configurations, and each
//! configuration of each region indexes a learned weight. The weights come
//! in two phases, the full board (24 pieces) and the empty one, and are
//! interpolated by the number of pieces on the board.
//!
//! **Indices.** A region's 8 squares are gathered from a bitboard by one
//! multiplication (a "magic" per region, `MAGICS`, checked by a test to
//! map each square onto a bit of its own in the top byte), for the white
//! men and for the black men; the two bytes give the base-3 index through
//! one small table. Computed from scratch at each evaluation (about 25 ns
//! for the 15 regions), so no state is kept between nodes and there is
//! nothing to update in make.
//!
//! **Colour symmetry.** The score from White's side is the sum of the
//! weights of White's view minus the sum for Black's view (the board turned
//! 180 degrees with the colours swapped), both read from the same weights,
//! so a position and its colour-flipped mirror score the same by
//! construction. The two sums are folded into one table when the weights are
//! loaded ([`Patterns::from_weights`]), so the evaluation reads 15 entries.
//!
//! **File format** (`weights/<variant>-patterns.bin`, little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SHKPATT\n` |
//! | 4 | format version (1) |
//! | 4 | variant: 0 Russian, 1 Brazilian, 2 Adiyukh-64, 3 Adiyukh-80 |
//! | 4 | regions (15) |
//! | 4 | configurations per region (6561) |
//! | 4 | phases (2) |
//! | 4 | units per centi-man (16) |
//! | 2 x phases x regions x configurations | the weights, `i16`, phase-major (full board first), then region, then configuration |
//! | 8 | FNV-1a 64 checksum of everything before it |
//!
//! A configuration's index is `sum(state(square j) * 3^j)` over the region's
//! squares in the order of [`region_squares`] (state 0 empty, 1 white man, 2
//! black man).
//!
//! ```
//! use shashki::eval::patterns::{Patterns, CONFIGS, PHASES, REGIONS};
//! use shashki::Variant;
//! let mut w = vec![0i16; PHASES * REGIONS * CONFIGS];
//! w[7] = 160; // 10 centi-men in region 0, configuration 7, full board
//! let p = Patterns::from_weights(Variant::Russian, w).unwrap();
//! let bytes = p.to_bytes();
//! assert_eq!(Patterns::from_bytes(&bytes, Some(Variant::Russian)), Ok(p));
//! ```

use crate::board::Geometry;
use crate::variant::Variant;
use once_cell::sync::Lazy;

/// The regions' lower left corners (file, rank), 0-based; turning the
/// board maps `(f, r)` to `(4 - f, 4 - r)`, region `i` to `REGIONS - 1 - i`.
const OFFSETS: [(u8, u8); REGIONS] = {
    let mut out = [(0u8, 0u8); REGIONS];
    let mut i = 0;
    while i < REGIONS {
        out[i] = (FILES[i % FILES.len()], RANKS[i / FILES.len()]);
        i += 1;
    }
    out
};
const FILES: [u8; 3] = [0, 2, 4];
const RANKS: [u8; 5] = [0, 1, 2, 3, 4];
/// Regions on the 8x8 board.
pub const REGIONS: usize = FILES.len() * RANKS.len();
/// Dark squares in a region.
pub const REGION_SQUARES: usize = 8;
/// Configurations of a region: 3^8.
pub const CONFIGS: usize = 6561;
/// Weight tables: the full board and the empty board.
pub const PHASES: usize = 2;
/// Stored weights per centi-man.
pub const UNIT: i32 = 16;
/// Pieces on the full board: the phase scale.
pub const FULL: i32 = 24;

const MAGIC: &[u8; 8] = b"SHKPATT\n";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 6 * 4;

/// One region: its squares, and how to gather them into a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Region {
    mask: u64,
    magic: u64,
    /// The square (bit index) of each bit of the gathered byte.
    squares: [u8; REGION_SQUARES],
}

impl Region {
    #[inline(always)]
    fn gather(&self, b: u64) -> usize {
        ((b & self.mask).wrapping_mul(self.magic) >> 56) as usize
    }
}

/// Per region corner `[rank][file]` (0-4 each): a multiplier that gathers
/// the region's 8 squares into the top byte, each square onto a bit of its
/// own. Found by a random search over sparse 64-bit numbers (three random
/// words and-ed) and checked by a unit test (`is_perfect`).
const MAGICS: [[u64; 5]; 5] = [
    [
        0x4008100480082010,
        0x020040040400a098,
        0x2004080040000001,
        0x0100205090000220,
        0x0408010101800006,
    ],
    [
        0x0020040048200810,
        0x8081002401000004,
        0x0010020204024501,
        0x0100204020022004,
        0x0802040000060000,
    ],
    [
        0x0020040800821232,
        0x1400408000012088,
        0x2250020406140022,
        0x0000204000008800,
        0x0008010210440000,
    ],
    [
        0x8200040800290001,
        0x0008408010110028,
        0xa001010200000020,
        0x0408801020408100,
        0x0000040081006001,
    ],
    [
        0x0264040801010200,
        0x48002020400a2048,
        0x2184020400800020,
        0x0010001020000044,
        0x1010440081000002,
    ],
];

/// The regions, in the order of [`OFFSETS`].
const LAYOUT: [Region; REGIONS] = layout();

const fn layout() -> [Region; REGIONS] {
    let g = Geometry::BOARD_64;
    let mut out = [Region {
        mask: 0,
        magic: 0,
        squares: [0; REGION_SQUARES],
    }; REGIONS];
    let mut i = 0;
    while i < REGIONS {
        let (f0, r0) = OFFSETS[i];
        let magic = MAGICS[r0 as usize][f0 as usize];
        let mut mask = 0u64;
        let mut squares = [0u8; REGION_SQUARES];
        let mut r = r0;
        while r < r0 + 4 {
            let mut f = f0;
            while f < f0 + 4 {
                if let Some(sq) = g.square(f, r) {
                    mask |= sq.bb();
                    // The bit this square is gathered onto orders the digits.
                    let byte = sq.bb().wrapping_mul(magic) >> 56;
                    squares[byte.trailing_zeros() as usize] = sq.0;
                }
                f += 1;
            }
            r += 1;
        }
        out[i] = Region {
            mask,
            magic,
            squares,
        };
        i += 1;
    }
    out
}

/// The squares of region `r` (bit indices of the 8x8 layout), in the order
/// of the base-3 digits of its configurations.
pub fn region_squares(r: usize) -> [u8; REGION_SQUARES] {
    LAYOUT[r].squares
}

/// The base-3 value of each byte's bits: bit j counts 3^j.
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 == 1 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The configuration index of every region, from White's view, for the
/// white men `wm` and black men `bm` (8x8 layout).
#[inline]
pub fn indices(wm: u64, bm: u64) -> [u16; REGIONS] {
    let mut out = [0u16; REGIONS];
    for (o, reg) in out.iter_mut().zip(&LAYOUT) {
        *o = TERNARY[reg.gather(wm)] + 2 * TERNARY[reg.gather(bm)];
    }
    out
}

/// For each region `r` and configuration `c` (index `r * CONFIGS + c`):
/// the configuration of region `REGIONS - 1 - r` on the board turned 180
/// degrees with the colours swapped. Black's view of a position reads its
/// weights there.
pub fn turned_configs() -> &'static [u16] {
    static TURNED: Lazy<Vec<u16>> = Lazy::new(|| {
        let layout = &LAYOUT;
        let bits = 36u8; // the 8x8 layout: turning maps bit b to 35 - b
        let mut out = vec![0u16; REGIONS * CONFIGS];
        for r in 0..REGIONS {
            let (from, to) = (&layout[r].squares, &layout[REGIONS - 1 - r].squares);
            // Where each digit of region r goes in the turned region.
            let dest: Vec<usize> = from
                .iter()
                .map(|&s| {
                    let t = bits - 1 - s;
                    to.iter().position(|&u| u == t).expect("turned region")
                })
                .collect();
            for c in 0..CONFIGS {
                let mut rest = c;
                let mut turned = 0usize;
                for &d in &dest {
                    let state = rest % 3;
                    rest /= 3;
                    let swapped = [0, 2, 1][state];
                    turned += swapped * 3usize.pow(d as u32);
                }
                out[r * CONFIGS + c] = turned as u16;
            }
        }
        out
    });
    &TURNED
}

/// A pattern weights file could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternsError(pub String);

impl std::fmt::Display for PatternsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PatternsError {}

/// Learned pattern weights of one variant, ready to evaluate.
#[derive(Clone, PartialEq)]
pub struct Patterns {
    variant: Variant,
    /// The file's weights, phase-major.
    weights: Vec<i16>,
    /// White's view minus Black's, per region and configuration, both
    /// phases side by side.
    table: Box<[Row; REGIONS]>,
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let nonzero = self.weights.iter().filter(|&&w| w != 0).count();
        write!(f, "Patterns({}, {nonzero} nonzero weights)", self.variant)
    }
}

/// One region's entries: both phases per configuration, padded to a power
/// of two.
const ROW: usize = 8192;
type Row = [[i16; 2]; ROW];
const _: () = assert!(CONFIGS <= ROW);

/// Does the byte string look like a pattern weights file (its magic)?
pub fn is_patterns_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Patterns {
    /// Patterns of `variant` (Russian or Brazilian) from the weights in
    /// file order (`PHASES * REGIONS * CONFIGS` of them, in 1/16 centi-men).
    pub fn from_weights(variant: Variant, weights: Vec<i16>) -> Result<Patterns, PatternsError> {
        if !matches!(variant, Variant::Russian | Variant::Brazilian) {
            return Err(PatternsError(format!(
                "pattern weights are for russian and brazilian, not {variant}"
            )));
        }
        if weights.len() != PHASES * REGIONS * CONFIGS {
            return Err(PatternsError(format!(
                "{} pattern weights, expected {}",
                weights.len(),
                PHASES * REGIONS * CONFIGS
            )));
        }
        let turned = turned_configs();
        let rows = vec![[[0i16; 2]; ROW]; REGIONS].into_boxed_slice();
        let mut table: Box<[Row; REGIONS]> = rows.try_into().expect("REGIONS rows");
        for i in 0..REGIONS * CONFIGS {
            let (r, c) = (i / CONFIGS, i % CONFIGS);
            let t = &mut table[r][c];
            let mirror = (REGIONS - 1 - r) * CONFIGS + turned[i] as usize;
            for (ph, slot) in t.iter_mut().enumerate() {
                let base = ph * REGIONS * CONFIGS;
                let v = weights[base + i] as i32 - weights[base + mirror] as i32;
                *slot = v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        }
        Ok(Patterns {
            variant,
            weights,
            table,
        })
    }

    /// The variant the weights were fitted for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The weights in file order.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// The patterns' score from White's side, in centi-men, for the white
    /// men `wm` and black men `bm` with `pieces` pieces on the board.
    #[inline]
    pub fn score(&self, wm: u64, bm: u64, pieces: i32) -> i32 {
        let (mut full, mut empty) = (0i32, 0i32);
        for (r, reg) in LAYOUT.iter().enumerate() {
            let c = TERNARY[reg.gather(wm)] as usize + 2 * TERNARY[reg.gather(bm)] as usize;
            // The mask proves the index in bounds (no check in the loop).
            let t = self.table[r][c & (ROW - 1)];
            full += t[0] as i32;
            empty += t[1] as i32;
        }
        let p = pieces.clamp(0, FULL);
        (full * p + empty * (FULL - p)) / (FULL * UNIT)
    }

    /// The file's bytes (the format in the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 2 * self.weights.len() + 8);
        out.extend_from_slice(MAGIC);
        let variant = Variant::ALL
            .iter()
            .position(|&v| v == self.variant)
            .expect("a variant") as u32;
        for x in [
            VERSION,
            variant,
            REGIONS as u32,
            CONFIGS as u32,
            PHASES as u32,
            UNIT as u32,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for w in &self.weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a file of [`Patterns::to_bytes`]; with `expect`, the file must
    /// be for that variant. Every fault is one error naming it.
    pub fn from_bytes(bytes: &[u8], expect: Option<Variant>) -> Result<Patterns, PatternsError> {
        let err = |m: String| Err(PatternsError(m));
        if !is_patterns_file(bytes) {
            return err("not a pattern weights file (no SHKPATT magic)".into());
        }
        let size = HEADER + 2 * PHASES * REGIONS * CONFIGS + 8;
        if bytes.len() < HEADER {
            return err(format!(
                "pattern weights file truncated ({} bytes)",
                bytes.len()
            ));
        }
        let word = |i: usize| {
            let at = 8 + 4 * i;
            u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
        };
        if word(0) != VERSION {
            return err(format!(
                "pattern weights format version {}, this engine reads {VERSION}",
                word(0)
            ));
        }
        let Some(&variant) = Variant::ALL.get(word(1) as usize) else {
            return err(format!(
                "pattern weights file names variant number {}",
                word(1)
            ));
        };
        let shape = [word(2), word(3), word(4), word(5)];
        let want = [REGIONS as u32, CONFIGS as u32, PHASES as u32, UNIT as u32];
        if shape != want {
            return err(format!(
                "pattern weights of shape {shape:?} (regions, configurations, phases, unit), this engine reads {want:?}"
            ));
        }
        if bytes.len() != size {
            return err(format!(
                "pattern weights file has {} bytes, expected {size} (truncated or extended)",
                bytes.len()
            ));
        }
        let (body, sum) = bytes.split_at(size - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return err("pattern weights file damaged (checksum mismatch)".into());
        }
        if let Some(v) = expect {
            if v != variant {
                return err(format!("pattern weights of {variant}, not {v}"));
            }
        }
        let weights = body[HEADER..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        Patterns::from_weights(variant, weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Does `magic` map the 256 subsets of `squares` one to one onto bytes,
    /// each square onto a bit of its own (so that the byte of a subset is the
    /// union of its squares' bits)?
    fn is_perfect(mask: u64, squares: &[u8], magic: u64) -> bool {
        let mut single = 0u32;
        for &s in squares {
            let byte = (1u64 << s).wrapping_mul(magic) >> 56;
            if byte.count_ones() != 1 || single & byte as u32 != 0 {
                return false;
            }
            single |= byte as u32;
        }
        (0..256u32).all(|set| {
            let mut b = 0u64;
            let mut byte = 0u64;
            for (j, &s) in squares.iter().enumerate() {
                if set >> j & 1 == 1 {
                    b |= 1u64 << s;
                    byte |= (1u64 << s).wrapping_mul(magic) >> 56;
                }
            }
            (b & mask).wrapping_mul(magic) >> 56 == byte
        })
    }

    #[test]
    fn every_magic_gathers_its_region() {
        let g = Geometry::BOARD_64;
        for r0 in 0..5u8 {
            for f0 in 0..5u8 {
                let squares: Vec<u8> = (r0..r0 + 4)
                    .flat_map(|r| (f0..f0 + 4).filter_map(move |f| g.square(f, r)))
                    .map(|s| s.0)
                    .collect();
                let mask = squares.iter().fold(0u64, |m, &s| m | 1u64 << s);
                let magic = MAGICS[r0 as usize][f0 as usize];
                assert!(is_perfect(mask, &squares, magic), "corner {f0},{r0}");
            }
        }
    }

    #[test]
    fn regions_cover_the_board_and_gather_exactly() {
        let g = Geometry::BOARD_64;
        let mut covered = 0u64;
        for (r, reg) in LAYOUT.iter().enumerate() {
            assert_eq!(reg.mask.count_ones(), 8);
            let mut sorted = reg.squares;
            sorted.sort();
            assert!(
                sorted.windows(2).all(|w| w[0] < w[1]),
                "region {r}: {sorted:?}"
            );
            covered |= reg.mask;
            assert!(is_perfect(reg.mask, &reg.squares, reg.magic));
        }
        assert_eq!(covered, g.board_mask());
        // The index agrees with the definition on random men.
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..2000 {
            let (mut wm, mut bm) = (0u64, 0u64);
            for s in crate::board::squares(g.board_mask()) {
                match rng.gen_range(0..3) {
                    1 => wm |= s.bb(),
                    2 => bm |= s.bb(),
                    _ => {}
                }
            }
            let idx = indices(wm, bm);
            for (r, &got) in idx.iter().enumerate() {
                let mut want = 0usize;
                for (j, &s) in region_squares(r).iter().enumerate() {
                    let state = if wm >> s & 1 == 1 {
                        1
                    } else if bm >> s & 1 == 1 {
                        2
                    } else {
                        0
                    };
                    want += state * 3usize.pow(j as u32);
                }
                assert_eq!(got as usize, want);
            }
        }
    }

    #[test]
    fn turning_twice_is_the_identity() {
        let t = turned_configs();
        for r in 0..REGIONS {
            for c in 0..CONFIGS {
                let once = t[r * CONFIGS + c] as usize;
                let back = t[(REGIONS - 1 - r) * CONFIGS + once] as usize;
                assert_eq!(back, c, "region {r} configuration {c}");
            }
        }
    }

    fn random_patterns(variant: Variant, seed: u64) -> Patterns {
        let mut rng = StdRng::seed_from_u64(seed);
        let w = (0..PHASES * REGIONS * CONFIGS)
            .map(|_| rng.gen_range(-400..=400))
            .collect();
        Patterns::from_weights(variant, w).unwrap()
    }

    #[test]
    fn file_round_trip_and_faults() {
        let p = random_patterns(Variant::Brazilian, 5);
        let bytes = p.to_bytes();
        assert_eq!(Patterns::from_bytes(&bytes, None).as_ref(), Ok(&p));
        let e = |b: &[u8], v| Patterns::from_bytes(b, v).unwrap_err().to_string();
        assert!(e(&bytes, Some(Variant::Russian)).contains("of brazilian, not russian"));
        assert!(e(&bytes[..bytes.len() - 1], None).contains("truncated"));
        assert!(e(&bytes[..20], None).contains("truncated"));
        assert!(e(b"variant russian\n", None).contains("no SHKPATT magic"));
        let mut bad = bytes.clone();
        bad[HEADER + 1000] ^= 1;
        assert!(e(&bad, None).contains("checksum"));
        let mut bad = bytes.clone();
        bad[8] = 9;
        assert!(e(&bad, None).contains("version 9"));
        let mut bad = bytes;
        bad[12] = 7;
        assert!(e(&bad, None).contains("variant number 7"));
        assert!(
            Patterns::from_weights(Variant::Adiyukh64, vec![0; PHASES * REGIONS * CONFIGS])
                .unwrap_err()
                .to_string()
                .contains("not adiyukh-64")
        );
    }
}

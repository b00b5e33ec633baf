//! The pattern evaluation: learned weights for the pieces in overlapping
//! 4x4 blocks of the board.
//!
//! **Regions.** A block of 4 files by 4 ranks holds 8 dark squares. On the
//! 8x8 board the 15 regions are the blocks whose lower left corner is on
//! file a, c or e and rank 1 to 5 (a1-d4, c1-f4, e1-h4, a2-d5, ..., e5-h8):
//! every square is in two to six of them. (All 25 blocks fitted a little
//! better, a validation cross-entropy 0.0008 lower on 600,000 Russian
//! positions, at almost twice the cost; 9 blocks, corners on ranks 1, 3, 5
//! only, 0.0035 worse.) On the 8x10 board of Adiyukh-80 the corners are on
//! files a, c, e, g: 20 regions ([`Layout`]).
//!
//! **States.** In Russian and Brazilian each square is empty, a white man or
//! a black man (kings count as empty: the hand-shaped terms see them); in the
//! Adiyukh variants empty, a white-topped or a black-topped tower (of any
//! height: the composition is left to the hand-shaped terms). So a region
//! has 3^8 = 6561 configurations, and each configuration of each region
//! indexes a learned weight. The weights come in two phases, the full board
//! (24 pieces, 30 on 8x10) and the empty one, and are interpolated by the
//! number of pieces (towers) on the board.
//!
//! **Indices.** A region's 8 squares are gathered from a bitboard by one
//! multiplication (a "magic" per region, `MAGICS` and `MAGICS_80`, checked
//! by a test to map each square onto a bit of its own in the top byte), for
//! White's squares and for Black's; the two bytes give the base-3 index
//! through one small table. Computed from scratch at each evaluation (about
//! 25 ns for the 15 regions), so no state is kept between nodes and there
//! is nothing to update in make.
//!
//! **Colour symmetry.** The score from White's side is the sum of the
//! weights of White's view minus the sum for Black's view (the board turned
//! 180 degrees with the colours swapped), both read from the same weights,
//! so a position and its colour-flipped mirror score the same by
//! construction. The two sums are folded into one table when the weights are
//! loaded ([`Patterns::from_weights`]), so the evaluation reads one entry
//! per region.
//!
//! **File format** (`weights/<variant>-patterns.bin`, little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `SHKPATT\n` |
//! | 4 | format version (1) |
//! | 4 | variant: 0 Russian, 1 Brazilian, 2 Adiyukh-64, 3 Adiyukh-80 |
//! | 4 | regions (15; 20 for Adiyukh-80) |
//! | 4 | configurations per region (6561) |
//! | 4 | phases (2) |
//! | 4 | units per centi-man, or per hundredth of a point for Adiyukh (16) |
//! | 2 x phases x regions x configurations | the weights, `i16`, phase-major (full board first), then region, then configuration |
//! | 8 | FNV-1a 64 checksum of everything before it |
//!
//! A configuration's index is `sum(state(square j) * 3^j)` over the region's
//! squares in the order of [`Layout::region_squares`] (state 0 empty, 1
//! white, 2 black).
//!
//! ```
//! use shashki::eval::patterns::{Layout, Patterns};
//! use shashki::Variant;
//! let mut w = vec![0i16; Layout::Board64.weight_count()];
//! w[7] = 160; // 10 centi-men in region 0, configuration 7, full board
//! let p = Patterns::from_weights(Variant::Russian, w).unwrap();
//! let bytes = p.to_bytes();
//! assert_eq!(Patterns::from_bytes(&bytes, Some(Variant::Russian)), Ok(p));
//! ```

use crate::board::Geometry;
use crate::variant::Variant;
use once_cell::sync::Lazy;

/// Regions on the 8x8 board.
pub const REGIONS_64: usize = 15;
/// Regions on the 8x10 board.
pub const REGIONS_80: usize = 20;
/// The most regions of any board: the length of an index array.
pub const MAX_REGIONS: usize = REGIONS_80;
/// Dark squares in a region.
pub const REGION_SQUARES: usize = 8;
/// Configurations of a region: 3^8.
pub const CONFIGS: usize = 6561;
/// Weight tables: the full board and the empty board.
pub const PHASES: usize = 2;
/// Stored weights per unit of the evaluation (a centi-man, or for the
/// tower variants a hundredth of a point).
pub const UNIT: i32 = 16;

const MAGIC: &[u8; 8] = b"SHKPATT\n";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 6 * 4;

/// The region corners' ranks, 0-based: 1 to 5 on both boards.
const RANKS: [u8; 5] = [0, 1, 2, 3, 4];

/// The pattern layout of a board shape: which blocks are regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// 8x8 (Russian, Brazilian, Adiyukh-64): 15 blocks, corners on files
    /// a, c, e.
    Board64,
    /// 8x10 (Adiyukh-80): 20 blocks, corners on files a, c, e, g.
    Board80,
}

impl Layout {
    /// The layout of `variant`'s board.
    pub fn of(variant: Variant) -> Layout {
        if variant.geometry() == Geometry::BOARD_80 {
            Layout::Board80
        } else {
            Layout::Board64
        }
    }

    /// The board.
    pub const fn geometry(self) -> Geometry {
        match self {
            Layout::Board64 => Geometry::BOARD_64,
            Layout::Board80 => Geometry::BOARD_80,
        }
    }

    /// Number of regions.
    pub const fn regions(self) -> usize {
        match self {
            Layout::Board64 => REGIONS_64,
            Layout::Board80 => REGIONS_80,
        }
    }

    /// Pieces on the full board (the phase scale): 24 or 30.
    pub const fn full(self) -> i32 {
        match self {
            Layout::Board64 => 24,
            Layout::Board80 => 30,
        }
    }

    /// Weights of a file of this layout: `PHASES * regions * CONFIGS`.
    pub const fn weight_count(self) -> usize {
        PHASES * self.regions() * CONFIGS
    }

    fn table(self) -> &'static [Region] {
        match self {
            Layout::Board64 => &LAYOUT_64,
            Layout::Board80 => &LAYOUT_80,
        }
    }

    /// The squares of region `r` (bit indices of the board's layout), in
    /// the order of the base-3 digits of its configurations.
    pub fn region_squares(self, r: usize) -> [u8; REGION_SQUARES] {
        self.table()[r].squares
    }

    /// The configuration index of every region (the first
    /// [`Layout::regions`] entries), from White's view, for the squares
    /// `white` and `black` hold.
    #[inline]
    pub fn indices(self, white: u64, black: u64) -> [u16; MAX_REGIONS] {
        let mut out = [0u16; MAX_REGIONS];
        for (o, reg) in out.iter_mut().zip(self.table()) {
            *o = reg.index(white, black) as u16;
        }
        out
    }

    /// For each region `r` and configuration `c` (index `r * CONFIGS + c`):
    /// the configuration of region `regions - 1 - r` on the board turned
    /// 180 degrees with the colours swapped. Black's view of a position
    /// reads its weights there.
    pub fn turned_configs(self) -> &'static [u16] {
        static T64: Lazy<Vec<u16>> = Lazy::new(|| turned(Layout::Board64));
        static T80: Lazy<Vec<u16>> = Lazy::new(|| turned(Layout::Board80));
        match self {
            Layout::Board64 => &T64,
            Layout::Board80 => &T80,
        }
    }
}

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

    #[inline(always)]
    fn index(&self, white: u64, black: u64) -> usize {
        TERNARY[self.gather(white)] as usize + 2 * TERNARY[self.gather(black)] as usize
    }
}

/// 8x8, per region corner `[rank][file]` (0-4 each): a multiplier that
/// gathers the block's 8 squares into the top byte, each square onto a bit
/// of its own. Found by a random search over sparse 64-bit numbers (three
/// random words and-ed) and checked by a unit test (`is_perfect`); the
/// regions use the corners on files 0, 2 and 4.
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

/// 8x10, the same kind of multipliers for the regions in order (corners on
/// files 0, 2, 4, 6 for each rank 0-4), found by the same search.
const MAGICS_80: [u64; REGIONS_80] = [
    0x0440200140080504,
    0x0220100203001004,
    0x0110080012401019,
    0x0088040040000009,
    0x1040201000004120,
    0x002010080080a400,
    0x8910080420000114,
    0x1008040200001800,
    0x00408804004a0008,
    0x011044020000a008,
    0x0040220100088013,
    0x0014110080002041,
    0x4200080402110404,
    0x8100040201002200,
    0x5000020100808401,
    0x0410210080402d00,
    0x0004841100800010,
    0x8420040880400109,
    0x0810420440200460,
    0x5008140220100010,
];

/// The 8x8 regions' multipliers in region order (corners on files 0, 2, 4).
const MAGICS_64: [u64; REGIONS_64] = {
    let mut out = [0u64; REGIONS_64];
    let mut i = 0;
    while i < REGIONS_64 {
        out[i] = MAGICS[RANKS[i / 3] as usize][2 * (i % 3)];
        i += 1;
    }
    out
};

const LAYOUT_64: [Region; REGIONS_64] = layout(Layout::Board64.geometry(), &MAGICS_64);
const LAYOUT_80: [Region; REGIONS_80] = layout(Layout::Board80.geometry(), &MAGICS_80);

/// The regions of a board: region `i` is the 4x4 block with its lower left
/// corner on file `2 * (i % per_rank)`, rank `RANKS[i / per_rank]`, where
/// `per_rank` is 3 (8x8) or 4 (8x10). Turning the board maps region `i` to
/// region `N - 1 - i`.
const fn layout<const N: usize>(g: Geometry, magics: &[u64; N]) -> [Region; N] {
    let per_rank = N / RANKS.len();
    let mut out = [Region {
        mask: 0,
        magic: 0,
        squares: [0; REGION_SQUARES],
    }; N];
    let mut i = 0;
    while i < N {
        let (f0, r0) = ((2 * (i % per_rank)) as u8, RANKS[i / per_rank]);
        let magic = magics[i];
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

fn turned(layout: Layout) -> Vec<u16> {
    let table = layout.table();
    let n = table.len();
    // Turning maps bit b to bits - 1 - b (36 bits on 8x8, 44 on 8x10).
    let bits = layout.geometry().half * 8 + 4;
    let mut out = vec![0u16; n * CONFIGS];
    for r in 0..n {
        let (from, to) = (&table[r].squares, &table[n - 1 - r].squares);
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
    layout: Layout,
    /// The file's weights, phase-major.
    weights: Vec<i16>,
    /// White's view minus Black's, per region and configuration, both
    /// phases side by side.
    table: Box<[Row]>,
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
    /// Patterns of `variant` from the weights in file order
    /// ([`Layout::weight_count`] of them, in 1/16 of the evaluation's unit).
    pub fn from_weights(variant: Variant, weights: Vec<i16>) -> Result<Patterns, PatternsError> {
        let layout = Layout::of(variant);
        let (regions, n) = (layout.regions(), layout.weight_count());
        if weights.len() != n {
            return Err(PatternsError(format!(
                "{} pattern weights, expected {n} for {variant}",
                weights.len(),
            )));
        }
        let turned = layout.turned_configs();
        let mut table = vec![[[0i16; 2]; ROW]; regions].into_boxed_slice();
        for i in 0..regions * CONFIGS {
            let (r, c) = (i / CONFIGS, i % CONFIGS);
            let t = &mut table[r][c];
            let mirror = (regions - 1 - r) * CONFIGS + turned[i] as usize;
            for (ph, slot) in t.iter_mut().enumerate() {
                let base = ph * regions * CONFIGS;
                let v = weights[base + i] as i32 - weights[base + mirror] as i32;
                *slot = v.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
            }
        }
        Ok(Patterns {
            variant,
            layout,
            weights,
            table,
        })
    }

    /// The variant the weights were fitted for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board layout of the weights.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The weights in file order.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// The patterns' score from White's side, in the evaluation's unit, for
    /// the squares `white` and `black` hold (men, or towers by their top)
    /// with `pieces` pieces on the board.
    #[inline]
    pub fn score(&self, white: u64, black: u64, pieces: i32) -> i32 {
        match self.layout {
            Layout::Board64 => self.score_in(&LAYOUT_64, white, black, pieces),
            Layout::Board80 => self.score_in(&LAYOUT_80, white, black, pieces),
        }
    }

    #[inline(always)]
    fn score_in<const N: usize>(
        &self,
        layout: &[Region; N],
        white: u64,
        black: u64,
        pieces: i32,
    ) -> i32 {
        let (mut full, mut empty) = (0i32, 0i32);
        for (reg, row) in layout.iter().zip(&self.table[..N]) {
            // The mask proves the index in bounds (no check in the loop).
            let t = row[reg.index(white, black) & (ROW - 1)];
            full += t[0] as i32;
            empty += t[1] as i32;
        }
        let all = self.layout.full();
        let p = pieces.clamp(0, all);
        (full * p + empty * (all - p)) / (all * UNIT)
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
            self.layout.regions() as u32,
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
        let layout = Layout::of(variant);
        let shape = [word(2), word(3), word(4), word(5)];
        let want = [
            layout.regions() as u32,
            CONFIGS as u32,
            PHASES as u32,
            UNIT as u32,
        ];
        if shape != want {
            return err(format!(
                "pattern weights of shape {shape:?} (regions, configurations, phases, unit), this engine reads {want:?} for {variant}"
            ));
        }
        let size = HEADER + 2 * layout.weight_count() + 8;
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
        let block = |g: Geometry, f0: u8, r0: u8| -> Vec<u8> {
            (r0..r0 + 4)
                .flat_map(|r| (f0..f0 + 4).filter_map(move |f| g.square(f, r)))
                .map(|s| s.0)
                .collect()
        };
        let mask = |squares: &[u8]| squares.iter().fold(0u64, |m, &s| m | 1u64 << s);
        // 8x8: all 25 blocks (the regions use 15).
        for r0 in 0..5u8 {
            for f0 in 0..5u8 {
                let squares = block(Geometry::BOARD_64, f0, r0);
                let magic = MAGICS[r0 as usize][f0 as usize];
                assert!(
                    is_perfect(mask(&squares), &squares, magic),
                    "corner {f0},{r0}"
                );
            }
        }
        // 8x10: the 20 regions' blocks.
        for (i, &magic) in MAGICS_80.iter().enumerate() {
            let (f0, r0) = (2 * (i % 4) as u8, (i / 4) as u8);
            let squares = block(Geometry::BOARD_80, f0, r0);
            assert_eq!(squares.len(), 8);
            assert!(
                is_perfect(mask(&squares), &squares, magic),
                "8x10 corner {f0},{r0}"
            );
        }
    }

    const LAYOUTS: [Layout; 2] = [Layout::Board64, Layout::Board80];

    #[test]
    fn regions_cover_the_board_and_gather_exactly() {
        for layout in LAYOUTS {
            let g = layout.geometry();
            let table = layout.table();
            assert_eq!(table.len(), layout.regions());
            let mut covered = 0u64;
            for (r, reg) in table.iter().enumerate() {
                assert_eq!(reg.mask.count_ones(), 8);
                let mut sorted = reg.squares;
                sorted.sort();
                assert!(
                    sorted.windows(2).all(|w| w[0] < w[1]),
                    "{layout:?} region {r}: {sorted:?}"
                );
                covered |= reg.mask;
                assert!(is_perfect(reg.mask, &reg.squares, reg.magic));
                // Each region is a 4x4 block: its squares span 4 files and 4 ranks.
                let names: Vec<String> = reg
                    .squares
                    .iter()
                    .map(|&s| g.square_name(crate::board::Square(s)))
                    .collect();
                let files: std::collections::BTreeSet<char> =
                    names.iter().map(|n| n.chars().next().unwrap()).collect();
                let ranks: std::collections::BTreeSet<&str> =
                    names.iter().map(|n| &n[1..]).collect();
                assert_eq!((files.len(), ranks.len()), (4, 4), "{names:?}");
            }
            assert_eq!(covered, g.board_mask(), "{layout:?}");
            // The index agrees with the definition on random boards.
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
                let idx = layout.indices(wm, bm);
                for (r, &got) in idx.iter().enumerate() {
                    let mut want = 0usize;
                    if r < layout.regions() {
                        for (j, &s) in layout.region_squares(r).iter().enumerate() {
                            let state = if wm >> s & 1 == 1 {
                                1
                            } else if bm >> s & 1 == 1 {
                                2
                            } else {
                                0
                            };
                            want += state * 3usize.pow(j as u32);
                        }
                    }
                    assert_eq!(got as usize, want);
                }
            }
        }
    }

    #[test]
    fn turning_twice_is_the_identity() {
        for layout in LAYOUTS {
            let t = layout.turned_configs();
            let n = layout.regions();
            assert_eq!(t.len(), n * CONFIGS);
            for r in 0..n {
                for c in 0..CONFIGS {
                    let once = t[r * CONFIGS + c] as usize;
                    let back = t[(n - 1 - r) * CONFIGS + once] as usize;
                    assert_eq!(back, c, "{layout:?} region {r} configuration {c}");
                }
            }
        }
    }

    fn random_patterns(variant: Variant, seed: u64) -> Patterns {
        let mut rng = StdRng::seed_from_u64(seed);
        let w = (0..Layout::of(variant).weight_count())
            .map(|_| rng.gen_range(-400..=400))
            .collect();
        Patterns::from_weights(variant, w).unwrap()
    }

    #[test]
    fn file_round_trip_and_faults() {
        for v in Variant::ALL {
            let p = random_patterns(v, 5);
            assert_eq!(
                Patterns::from_bytes(&p.to_bytes(), Some(v)).as_ref(),
                Ok(&p)
            );
        }
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
        let mut bad = bytes.clone();
        bad[12] = 7;
        assert!(e(&bad, None).contains("variant number 7"));
        // An 8x8 file relabelled as adiyukh-80: the shape does not fit.
        let mut bad = bytes;
        bad[12] = 3;
        assert!(e(&bad, None).contains("of shape [15, 6561, 2, 16]"));
        let short = Patterns::from_weights(Variant::Adiyukh80, vec![0; 10]).unwrap_err();
        assert!(short.to_string().contains("expected 262440 for adiyukh-80"));
    }
}

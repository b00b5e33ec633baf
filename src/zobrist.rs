//! Zobrist keys: one random number per (square, piece) feature, xor-ed
//! together into a position key that make updates incrementally.
//!
//! Men and kings (Russian, Brazilian) have a key per colour, kind and square.
//! A tower `(owner, own, other)` has the xor of a key for its top part
//! `(owner, own)` and a key for its bottom part `other` on its square (the key
//! of an empty bottom is 0), so every tower composition hashes differently.

use crate::board::{Color, Square, MAX_BITS};

/// Inner table size: a power of two, so `sq & 63` needs no bounds check.
const SQ: usize = 64;

/// Largest count of one colour in one tower, plus one.
pub const MAX_COUNT: usize = 16;

pub(crate) struct Keys {
    piece: [[[u64; SQ]; 2]; 2],
    tower_top: [[[u64; SQ]; MAX_COUNT]; 2],
    tower_under: [[u64; SQ]; MAX_COUNT],
    pub(crate) side: u64,
}

/// SplitMix64: a small, fixed, well-mixed sequence, so keys are the same on
/// every run and every machine. Evaluated at compile time.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn make_keys() -> Keys {
    let mut s = 0x5348_4153_484B_4921u64; // "SHASHKI!"
    let mut k = Keys {
        piece: [[[0; SQ]; 2]; 2],
        tower_top: [[[0; SQ]; MAX_COUNT]; 2],
        tower_under: [[0; SQ]; MAX_COUNT],
        side: 0,
    };
    let mut sq = 0;
    while sq < MAX_BITS {
        let mut c = 0;
        while c < 2 {
            let mut kind = 0;
            while kind < 2 {
                let (ns, v) = splitmix(s);
                s = ns;
                k.piece[c][kind][sq] = v;
                kind += 1;
            }
            let mut n = 0;
            while n < MAX_COUNT {
                let (ns, v) = splitmix(s);
                s = ns;
                k.tower_top[c][n][sq] = v;
                n += 1;
            }
            c += 1;
        }
        // An empty bottom (0 checkers of the other colour) has key 0.
        let mut n = 1;
        while n < MAX_COUNT {
            let (ns, v) = splitmix(s);
            s = ns;
            k.tower_under[n][sq] = v;
            n += 1;
        }
        sq += 1;
    }
    let (_, side) = splitmix(s);
    k.side = side;
    k
}

pub(crate) static KEYS: Keys = make_keys();

impl Keys {
    /// Key of a man or king.
    #[inline(always)]
    pub(crate) fn piece(&self, color: Color, king: bool, sq: Square) -> u64 {
        self.piece[color.index()][king as usize][sq.index() & (SQ - 1)]
    }

    /// Key of a tower.
    #[inline(always)]
    pub(crate) fn tower(&self, owner: Color, own: u8, other: u8, sq: Square) -> u64 {
        self.tower_top[owner.index()][own as usize][sq.index()]
            ^ self.tower_under[other as usize][sq.index()]
    }
}

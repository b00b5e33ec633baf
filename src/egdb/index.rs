//! Material combinations and the index of a position within one.
//!
//! Every position is seen from the side to move ("us"), which always moves
//! up the board: a position with Black to move is turned 180 degrees and
//! its colours swapped first (the rules are the same either way). The 32
//! dark squares are numbered 0..31 from a1 along the ranks (a1 c1 e1 g1,
//! b2 d2 ..., h8 = 31), so turning the board maps square `i` to `31 - i`.
//!
//! A combination is how many men and kings each side has. Within one, a
//! position's index ranks, in this order and each as a subset in the
//! combinatorial number system: our men among the 28 squares below rank 8,
//! their men among the 28 squares above rank 1, our kings among the squares
//! the men leave free, and their kings among the squares left after that.
//! Men of the two sides may share a square in the index space: such indices
//! are not positions ([`Combo::decode`] says so) and the tables store a
//! placeholder there.

use crate::board::{Bitboard, Color, Geometry, Square};
use crate::position::Position;
use crate::variant::Variant;
use std::fmt;

/// Dark squares of the 8x8 board.
pub const SQUARES: usize = 32;

/// Binomial coefficients C(n, k) for n <= 32, k <= 8.
const BINOM: [[u64; 9]; 33] = {
    let mut t = [[0u64; 9]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k).
#[inline]
pub fn binom(n: u32, k: u32) -> u64 {
    if k > 8 || n > 32 {
        return 0;
    }
    BINOM[n as usize][k as usize]
}

/// The square of dense number `i` (0 = a1 .. 31 = h8).
const DENSE: [Square; SQUARES] = {
    let mut t = [Square(0); SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let rank = (i / 4) as u8;
        let file = 2 * (i % 4) as u8 + rank % 2;
        t[i] = match Geometry::BOARD_64.square(file, rank) {
            Some(s) => s,
            None => Square(0),
        };
        i += 1;
    }
    t
};

/// The dense number of each bit of the 8x8 bitboard (255 for ghost bits).
const BIT_TO_DENSE: [u8; 64] = {
    let mut t = [255u8; 64];
    let mut i = 0;
    while i < SQUARES {
        t[DENSE[i].0 as usize] = i as u8;
        i += 1;
    }
    t
};

/// A set of dense squares as a bitboard.
#[inline]
pub fn to_bitboard(mut dense: u32) -> Bitboard {
    let mut b = 0;
    while dense != 0 {
        b |= DENSE[dense.trailing_zeros() as usize].bb();
        dense &= dense - 1;
    }
    b
}

/// A bitboard of the 8x8 board as a set of dense squares.
#[inline]
pub fn to_dense(mut b: Bitboard) -> u32 {
    let mut d = 0u32;
    while b != 0 {
        d |= 1 << BIT_TO_DENSE[b.trailing_zeros() as usize];
        b &= b - 1;
    }
    d
}

/// The next dense square from each square in each direction (0 up-left,
/// 1 up-right, 2 down-left, 3 down-right; up is towards rank 8), or 255.
pub const NEXT: [[u8; 4]; SQUARES] = {
    let mut t = [[255u8; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let rank = (i / 4) as i32;
        let file = 2 * (i % 4) as i32 + rank % 2;
        let dirs = [(-1, 1), (1, 1), (-1, -1), (1, -1)];
        let mut d = 0;
        while d < 4 {
            let (f, r) = (file + dirs[d].0, rank + dirs[d].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[i][d] = (r * 4 + f / 2) as u8;
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// A set of dense squares turned 180 degrees.
#[inline]
pub fn turn(d: u32) -> u32 {
    d.reverse_bits()
}

/// How many men and kings each side has: `us` is the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Combo {
    pub us_men: u8,
    pub us_kings: u8,
    pub them_men: u8,
    pub them_kings: u8,
}

/// The most pieces the index handles.
pub const MAX_PIECES: u32 = 8;

impl Combo {
    pub fn new(us_men: u8, us_kings: u8, them_men: u8, them_kings: u8) -> Combo {
        Combo {
            us_men,
            us_kings,
            them_men,
            them_kings,
        }
    }

    /// All pieces.
    pub fn pieces(self) -> u32 {
        (self.us_men + self.us_kings + self.them_men + self.them_kings) as u32
    }

    /// All men.
    pub fn men(self) -> u32 {
        (self.us_men + self.them_men) as u32
    }

    /// The same material with the other side to move.
    pub fn swapped(self) -> Combo {
        Combo::new(self.them_men, self.them_kings, self.us_men, self.us_kings)
    }

    /// Every combination of `pieces` pieces in which both sides have one.
    pub fn all_with(pieces: u32) -> Vec<Combo> {
        let mut v = Vec::new();
        let n = pieces as u8;
        for um in 0..=n {
            for uk in 0..=n - um {
                for tm in 0..=n - um - uk {
                    let tk = n - um - uk - tm;
                    if um + uk > 0 && tm + tk > 0 {
                        v.push(Combo::new(um, uk, tm, tk));
                    }
                }
            }
        }
        v
    }

    /// Positions of this combination and its swap together (once when they
    /// are the same).
    pub fn pair_size(self) -> u64 {
        if self == self.swapped() {
            self.size()
        } else {
            self.size() + self.swapped().size()
        }
    }

    /// The size of the index space.
    pub fn size(self) -> u64 {
        self.men_placements() * self.kings_block()
    }

    fn counts(self) -> (u32, u32, u32, u32) {
        (
            self.us_men as u32,
            self.us_kings as u32,
            self.them_men as u32,
            self.them_kings as u32,
        )
    }

    /// Positions with the same men: the index is men-major, so those of
    /// men placement `n` are the `kings_block()` indices from `n *
    /// kings_block()`.
    pub fn kings_block(self) -> u64 {
        let (um, uk, tm, tk) = self.counts();
        let free = SQUARES as u32 - um - tm;
        binom(free, uk) * binom(free - uk, tk)
    }

    /// Placements of the men in the index (some put men of both sides on
    /// one square: no positions).
    pub fn men_placements(self) -> u64 {
        binom(28, self.us_men as u32) * binom(28, self.them_men as u32)
    }

    /// The men (ours, theirs) of placement `n`, or `None` where they share
    /// a square.
    pub fn men_of(self, n: u64) -> Option<(u32, u32)> {
        let tm = self.them_men as u32;
        let us = unrank_subset(n / binom(28, tm), self.us_men as u32);
        let them = unrank_subset(n % binom(28, tm), tm) << 4;
        (us & them == 0).then_some((us, them))
    }

    /// The placement number of the men `us` and `them` (as in [`Slots`]).
    pub fn men_index(self, us: u32, them: u32) -> u64 {
        rank_subset(us) * binom(28, self.them_men as u32) + rank_subset(them >> 4)
    }

    /// The combination and index of `pos` (men and kings variants on 8x8).
    pub fn of(pos: &Position) -> (Combo, u64) {
        let s = Slots::of(pos);
        let c = s.combo();
        (c, c.index(&s))
    }

    /// The index of a position given as slots of this combination.
    pub fn index(self, s: &Slots) -> u64 {
        let (um, uk, tm, tk) = self.counts();
        let free = SQUARES as u32 - um - tm;
        let men = s.us_men | s.them_men;
        let i_uk = rank_subset(squeeze(s.us_kings, men));
        let i_tk = rank_subset(squeeze(s.them_kings, men | s.us_kings));
        let kings = i_uk * binom(free - uk, tk) + i_tk;
        self.men_index(s.us_men, s.them_men) * self.kings_block() + kings
    }

    /// The position of an index, or `None` where the men of the two sides
    /// would share a square.
    pub fn decode(self, index: u64) -> Option<Slots> {
        let (um, uk, tm, tk) = self.counts();
        let free = SQUARES as u32 - um - tm;
        let kb = self.kings_block();
        let (us_men, them_men) = self.men_of(index / kb)?;
        let kings = index % kb;
        let (i_uk, i_tk) = (kings / binom(free - uk, tk), kings % binom(free - uk, tk));
        let men = us_men | them_men;
        let us_kings = spread(unrank_subset(i_uk, uk), men);
        let them_kings = spread(unrank_subset(i_tk, tk), men | us_kings);
        Some(Slots {
            us_men,
            us_kings,
            them_men,
            them_kings,
        })
    }

    /// A name such as `KKM-K` (White's, i.e. the mover's, kings then men,
    /// then the other side's).
    pub fn name(self) -> String {
        let side = |m: u8, k: u8| "K".repeat(k as usize) + &"M".repeat(m as usize);
        format!(
            "{}-{}",
            side(self.us_men, self.us_kings),
            side(self.them_men, self.them_kings)
        )
    }
}

impl fmt::Display for Combo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for Combo {
    type Err = String;

    /// `KKM-K`: the side to move's pieces, `-`, the other side's; `K` a
    /// king, `M` a man, in any order.
    fn from_str(s: &str) -> Result<Combo, String> {
        let bad = || {
            format!("'{s}' is not a combination such as KKM-K (K a king, M a man, the side to move first)")
        };
        let (a, b) = s.split_once('-').ok_or_else(bad)?;
        let side = |t: &str| -> Result<(u8, u8), String> {
            let mut m = 0u8;
            let mut k = 0u8;
            for c in t.chars() {
                match c.to_ascii_uppercase() {
                    'K' => k += 1,
                    'M' => m += 1,
                    _ => return Err(bad()),
                }
            }
            if m + k == 0 || m + k > 8 {
                return Err(bad());
            }
            Ok((m, k))
        };
        let ((um, uk), (tm, tk)) = (side(a)?, side(b)?);
        Ok(Combo::new(um, uk, tm, tk))
    }
}

/// A position seen from the side to move, as sets of dense squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slots {
    pub us_men: u32,
    pub us_kings: u32,
    pub them_men: u32,
    pub them_kings: u32,
}

impl Slots {
    /// The slots of `pos`, turned when Black is to move.
    pub fn of(pos: &Position) -> Slots {
        let me = pos.side_to_move();
        let kings = pos.kings();
        let us = to_dense(pos.pieces(me));
        let them = to_dense(pos.pieces(me.opposite()));
        let k = to_dense(kings);
        let s = Slots {
            us_men: us & !k,
            us_kings: us & k,
            them_men: them & !k,
            them_kings: them & k,
        };
        if me == Color::Black {
            s.turned()
        } else {
            s
        }
    }

    /// The board turned 180 degrees (the sides keep their roles).
    pub fn turned(self) -> Slots {
        Slots {
            us_men: turn(self.us_men),
            us_kings: turn(self.us_kings),
            them_men: turn(self.them_men),
            them_kings: turn(self.them_kings),
        }
    }

    pub fn combo(&self) -> Combo {
        Combo::new(
            self.us_men.count_ones() as u8,
            self.us_kings.count_ones() as u8,
            self.them_men.count_ones() as u8,
            self.them_kings.count_ones() as u8,
        )
    }

    /// The position with White (us) to move.
    pub fn position(&self, variant: Variant) -> Position {
        let mut p = self.position_unkeyed(variant);
        p.key = p.compute_key();
        p
    }

    /// The position without its Zobrist key (0): for move generation only.
    #[inline]
    pub fn position_unkeyed(&self, variant: Variant) -> Position {
        let mut p = Position::empty(variant, Color::White);
        p.pieces[0] = to_bitboard(self.us_men | self.us_kings);
        p.pieces[1] = to_bitboard(self.them_men | self.them_kings);
        p.kings = to_bitboard(self.us_kings | self.them_kings);
        p.key = 0;
        p
    }

    /// Every square taken.
    #[inline]
    pub fn occupied(&self) -> u32 {
        self.us_men | self.us_kings | self.them_men | self.them_kings
    }
}

/// Colex rank of a set of small numbers.
#[inline]
fn rank_subset(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += binom(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The `k`-set of colex rank `r`.
#[inline]
fn unrank_subset(mut r: u64, k: u32) -> u32 {
    let mut set = 0u32;
    let mut k = k;
    let mut n = 31u32;
    while k > 0 {
        while binom(n, k) > r {
            n -= 1;
        }
        set |= 1 << n;
        r -= binom(n, k);
        k -= 1;
        n = n.saturating_sub(1);
    }
    set
}

/// Renumber `set` (disjoint from `taken`) over the squares not in `taken`.
#[inline]
fn squeeze(mut set: u32, taken: u32) -> u32 {
    let mut out = 0;
    while set != 0 {
        let s = set.trailing_zeros();
        let below = (taken & ((1u32 << s) - 1)).count_ones();
        out |= 1 << (s - below);
        set &= set - 1;
    }
    out
}

/// The inverse of [`squeeze`]: place the numbers of `set` on the squares
/// not in `taken`.
#[inline]
fn spread(mut set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = !taken;
    let mut next = 0;
    while set != 0 {
        let want = set.trailing_zeros();
        while next < want {
            free &= free - 1;
            next += 1;
        }
        out |= 1 << free.trailing_zeros();
        set &= set - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_decodes_to_a_position_that_indexes_back() {
        for n in 2..=4 {
            for c in Combo::all_with(n) {
                let mut valid = 0u64;
                for i in 0..c.size() {
                    if let Some(s) = c.decode(i) {
                        assert_eq!(s.combo(), c, "{c} {i}");
                        assert_eq!(c.index(&s), i, "{c} {i}");
                        // Men where men may stand, no square twice.
                        assert_eq!(s.us_men >> 28, 0);
                        assert_eq!(s.them_men & 15, 0);
                        let all = [s.us_men, s.us_kings, s.them_men, s.them_kings];
                        assert_eq!(all.iter().map(|x| x.count_ones()).sum::<u32>(), n);
                        assert_eq!(all.iter().fold(0, |a, x| a | x).count_ones(), n);
                        valid += 1;
                    }
                }
                assert!(valid > 0);
            }
        }
    }

    #[test]
    fn the_positions_of_a_men_placement_are_one_block() {
        for c in [
            Combo::new(1, 1, 1, 1),
            Combo::new(2, 1, 0, 1),
            Combo::new(1, 2, 2, 0),
        ] {
            assert_eq!(c.men_placements() * c.kings_block(), c.size(), "{c}");
            for i in (0..c.size()).step_by(7) {
                let n = i / c.kings_block();
                match (c.decode(i), c.men_of(n)) {
                    (Some(s), Some((us, them))) => {
                        assert_eq!((s.us_men, s.them_men), (us, them), "{c} {i}");
                        assert_eq!(c.men_index(us, them), n, "{c} {i}");
                    }
                    (None, None) => {}
                    other => panic!("{c} {i}: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn positions_index_from_either_side_to_move() {
        use crate::fen::parse_position;
        let p = parse_position(Variant::Russian, "B:Wc3,Kh8:Bd6,Ka1").unwrap();
        let (c, i) = Combo::of(&p);
        assert_eq!(c, Combo::new(1, 1, 1, 1));
        let s = c.decode(i).unwrap();
        // Turned: Black's man on d6 is "our" man on e3, our king on h8.
        let q = s.position(Variant::Russian);
        assert_eq!(
            q,
            parse_position(Variant::Russian, "W:We3,Kh8:Bf6,Ka1").unwrap()
        );
        assert_eq!("KKM-K".parse::<Combo>().unwrap(), Combo::new(1, 2, 0, 1));
        assert_eq!(Combo::new(1, 2, 0, 1).name(), "KKM-K");
        assert!("KX-K".parse::<Combo>().is_err());
        assert!("-K".parse::<Combo>().is_err());
    }
}

//! Board geometry: colours, squares, the ghost-square bitboard layout and the
//! masks every other module reads.
//!
//! Both boards have 8 ranks; the 64-square board has 8 files (`a..h`), the
//! 80-square board 10 (`a..j`). Only dark squares are played, `a1` is dark.
//! With `W` dark squares per rank (4 or 5), the dark square on file `f`, rank
//! `r` (0-based) is stored at bit
//!
//! ```text
//! bit(f, r) = (r * (2W + 1) + f) / 2
//! ```
//!
//! so one step north-west adds `W`, north-east `W + 1`, south-east subtracts
//! `W`, south-west `W + 1`. Every second rank pair leaves one unused "ghost"
//! bit (4, 13, 22, 31 on 8x8), and a step that would leave the board sideways
//! lands on a ghost bit or outside the board mask. So a diagonal step is a
//! plain shift followed by a mask, for every piece at once.
//!
//! ```
//! use shashki::board::{Geometry, Square};
//! let g = Geometry::BOARD_64;
//! let c3 = g.parse_square("c3").unwrap();
//! assert_eq!(g.square_name(c3), "c3");
//! assert!(g.parse_square("c4").is_err()); // a light square
//! ```

use std::fmt;

/// A set of squares, one bit per square in the ghost layout.
pub type Bitboard = u64;

/// Largest bit index used by any board (8x10: bits 0..=43).
pub const MAX_BITS: usize = 44;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `W` or `B`, as position text writes it.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A dark square, stored as its bit index in the ghost layout of its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The bitboard holding only this square.
    #[inline]
    pub const fn bb(self) -> Bitboard {
        1u64 << self.0
    }

    /// The bit index.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Diagonal directions, in the order the generator tries them. The reverse of
/// direction `d` is `3 - d`.
pub const DIRECTIONS: [Direction; 4] = [
    Direction::NorthWest,
    Direction::NorthEast,
    Direction::SouthWest,
    Direction::SouthEast,
];

/// One of the four diagonal directions, as seen from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    NorthWest = 0,
    NorthEast = 1,
    SouthWest = 2,
    SouthEast = 3,
}

impl Direction {
    /// The exact opposite direction.
    #[inline]
    pub const fn reverse(self) -> Direction {
        DIRECTIONS[3 - self as usize]
    }
}

/// Shift a bitboard by a signed amount (positive = towards higher bits),
/// as a rotation: one branch-free instruction. Boards use bits 0..=43, so a
/// bit that wraps round lands on bits 44..=63, outside every board mask;
/// callers mask the result (with the board, empty squares or pieces).
#[inline(always)]
pub const fn shift(b: Bitboard, by: i32) -> Bitboard {
    b.rotate_left(by.rem_euclid(64) as u32)
}

/// Whether the processor has the `popcnt` instruction, asked once and
/// then read from a flag (one load and a compare).
///
/// Release builds target the x86-64 baseline, which lacks `popcnt`, so
/// `count_ones` is a dozen instructions; nearly every x86-64 processor since
/// 2008 has it. Hot code checks this once per call and then uses
/// [`popcount_hw`], so the same binary still runs everywhere.
#[inline(always)]
pub fn has_popcnt() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not asked yet, 1: no, 2: yes.
    static POPCNT: AtomicU8 = AtomicU8::new(0);
    match POPCNT.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => {
            #[cfg(target_arch = "x86_64")]
            let yes = std::arch::is_x86_feature_detected!("popcnt");
            #[cfg(not(target_arch = "x86_64"))]
            let yes = false;
            POPCNT.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

/// The number of set bits with the `popcnt` instruction where there is
/// one, `count_ones` elsewhere.
///
/// # Safety
/// On x86-64, [`has_popcnt`] must have said yes.
#[inline(always)]
pub(crate) unsafe fn popcount_hw(b: Bitboard) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        debug_assert!(has_popcnt());
        let n: u64;
        // SAFETY: the caller has checked `has_popcnt()`; the instruction
        // only reads `b` and writes `n`.
        unsafe {
            std::arch::asm!(
                "popcnt {n}, {b}",
                n = lateout(reg) n,
                b = in(reg) b,
                options(pure, nomem, nostack)
            );
        }
        n as u32
    }
    #[cfg(not(target_arch = "x86_64"))]
    b.count_ones()
}

/// Iterate the squares of a bitboard, lowest bit first.
#[inline]
pub fn squares(mut b: Bitboard) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let s = b.trailing_zeros() as u8;
            b &= b - 1;
            Some(Square(s))
        }
    })
}

/// Why a square name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Not a file letter followed by a rank number on this board.
    Unknown(String),
    /// A light square: never played on.
    Light(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Unknown(s) => write!(f, "unknown square '{s}'"),
            SquareError::Light(s) => {
                write!(f, "'{s}' is a light square (only dark squares are played)")
            }
        }
    }
}

impl std::error::Error for SquareError {}

/// The shape of a board: 8 ranks and 8 or 10 files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Dark squares per rank: 4 (8x8) or 5 (8x10).
    pub half: u8,
}

impl Geometry {
    /// The 8x8 board, 32 dark squares.
    pub const BOARD_64: Geometry = Geometry { half: 4 };
    /// The 8 ranks x 10 files board, 40 dark squares.
    pub const BOARD_80: Geometry = Geometry { half: 5 };

    /// Number of ranks (always 8).
    pub const RANKS: u8 = 8;

    /// Number of files (8 or 10).
    #[inline]
    pub const fn files(self) -> u8 {
        self.half * 2
    }

    /// Number of dark squares (32 or 40).
    #[inline]
    pub const fn num_squares(self) -> usize {
        self.half as usize * 8
    }

    /// The bit shift of one step in `dir`.
    #[inline]
    pub const fn step(self, dir: Direction) -> i32 {
        let w = self.half as i32;
        match dir {
            Direction::NorthWest => w,
            Direction::NorthEast => w + 1,
            Direction::SouthWest => -(w + 1),
            Direction::SouthEast => -w,
        }
    }

    /// The square on `file`, `rank` (0-based), if it is a dark square of this board.
    pub const fn square(self, file: u8, rank: u8) -> Option<Square> {
        if file >= self.files() || rank >= Self::RANKS || (file + rank) % 2 != 0 {
            return None;
        }
        let w = self.half as u32;
        Some(Square(
            ((rank as u32 * (2 * w + 1) + file as u32) / 2) as u8,
        ))
    }

    /// File and rank (0-based) of a square.
    #[inline]
    pub const fn file_rank(self, sq: Square) -> (u8, u8) {
        let w = self.half as u32;
        let two = 2 * sq.0 as u32;
        let rank = two / (2 * w + 1);
        let file = two - rank * (2 * w + 1);
        (file as u8, rank as u8)
    }

    /// The diagonal rays of this board: see [`Rays`].
    #[inline]
    pub const fn rays(self) -> &'static Rays {
        if self.half == Self::BOARD_64.half {
            &RAYS_64
        } else {
            &RAYS_80
        }
    }

    /// Every dark square of this board.
    pub const fn board_mask(self) -> Bitboard {
        let mut m = 0u64;
        let mut r = 0;
        while r < Self::RANKS {
            m |= self.rank_mask(r);
            r += 1;
        }
        m
    }

    /// The dark squares of one rank (0-based).
    pub const fn rank_mask(self, rank: u8) -> Bitboard {
        let mut m = 0u64;
        let mut f = 0;
        while f < self.files() {
            if let Some(s) = self.square(f, rank) {
                m |= 1u64 << s.0;
            }
            f += 1;
        }
        m
    }

    /// The rank on which `color`'s pieces are promoted (rank 8 for White, 1 for Black).
    #[inline]
    pub const fn promotion_mask(self, color: Color) -> Bitboard {
        match color {
            Color::White => self.rank_mask(Self::RANKS - 1),
            Color::Black => self.rank_mask(0),
        }
    }

    /// The half of the board that counts for `color` in the Adiyukh score:
    /// ranks 5-8 for White, ranks 1-4 for Black (the opponent's half).
    pub const fn scoring_half(self, color: Color) -> Bitboard {
        let mut m = 0u64;
        let mut r = 0;
        while r < Self::RANKS {
            let counts = match color {
                Color::White => r >= 4,
                Color::Black => r < 4,
            };
            if counts {
                m |= self.rank_mask(r);
            }
            r += 1;
        }
        m
    }

    /// The algebraic name of a square, e.g. `c3`.
    pub fn square_name(self, sq: Square) -> String {
        let (f, r) = self.file_rank(sq);
        format!("{}{}", (b'a' + f) as char, r + 1)
    }

    /// Parse an algebraic square name (`a1` .. `h8`, or `a1` .. `j8` on 8x10).
    /// Cyrillic letters that look like Latin files (`а`, `с`, `е`) are read as
    /// those files, since the Adiyukh rule text prints them that way.
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        let mut chars = text.chars();
        let file_char = chars.next().map(latin_file);
        let rest = chars.as_str();
        let file = match file_char {
            Some(c @ 'a'..='z') => c as u8 - b'a',
            _ => return Err(SquareError::Unknown(text.to_string())),
        };
        let rank: u8 = match rest.parse::<u8>() {
            Ok(r) if rest.chars().all(|c| c.is_ascii_digit()) && (1..=Self::RANKS).contains(&r) => {
                r - 1
            }
            _ => return Err(SquareError::Unknown(text.to_string())),
        };
        if file >= self.files() {
            return Err(SquareError::Unknown(text.to_string()));
        }
        self.square(file, rank)
            .ok_or_else(|| SquareError::Light(text.to_string()))
    }

    /// The PDN number (1..=32) of a square on the 8x8 board: 1 = b8, 4 = h8,
    /// 29 = a1, 32 = g1. `None` on the 80-square board.
    pub fn pdn_number(self, sq: Square) -> Option<u8> {
        if self != Self::BOARD_64 {
            return None;
        }
        let (f, r) = self.file_rank(sq);
        Some((7 - r) * 4 + f / 2 + 1)
    }

    /// The square of a PDN number (1..=32) on the 8x8 board.
    pub fn from_pdn_number(self, n: u32) -> Option<Square> {
        if self != Self::BOARD_64 || !(1..=32).contains(&n) {
            return None;
        }
        let row = (n - 1) / 4;
        let rank = 7 - row as u8;
        let file = (rank % 2) + 2 * ((n - 1) % 4) as u8;
        self.square(file, rank)
    }
}

/// Map the Cyrillic look-alikes of Latin file letters to the Latin letter.
pub(crate) fn latin_file(c: char) -> char {
    match c {
        'а' => 'a',
        'с' => 'c',
        'е' => 'e',
        other => other.to_ascii_lowercase(),
    }
}

/// Per direction (the order of [`Direction`]: north-west, north-east,
/// south-west, south-east) and square, the squares a flying king crosses
/// from that square to the edge of the board. With them the first piece on
/// a diagonal is one bit operation away instead of a step-by-step walk.
pub struct Rays([[Bitboard; MAX_BITS]; 4]);

const RAYS_64: Rays = Rays::new(Geometry::BOARD_64);
const RAYS_80: Rays = Rays::new(Geometry::BOARD_80);

impl Rays {
    const fn new(g: Geometry) -> Rays {
        let board = g.board_mask();
        let steps = [
            g.step(Direction::NorthWest),
            g.step(Direction::NorthEast),
            g.step(Direction::SouthWest),
            g.step(Direction::SouthEast),
        ];
        let mut r = [[0; MAX_BITS]; 4];
        let mut d = 0;
        while d < 4 {
            let mut sq = 0;
            while sq < MAX_BITS {
                if board & (1u64 << sq) != 0 {
                    let mut b = shift(1u64 << sq, steps[d]) & board;
                    while b != 0 {
                        r[d][sq] |= b;
                        b = shift(b, steps[d]) & board;
                    }
                }
                sq += 1;
            }
            d += 1;
        }
        Rays(r)
    }

    /// The ray from square index `sq` in direction `d`.
    #[inline(always)]
    pub fn ray(&self, d: usize, sq: usize) -> Bitboard {
        self.0[d][sq]
    }

    /// The first occupied square from `sq` in direction `d` (0 if none),
    /// and the empty squares before it.
    #[inline(always)]
    pub fn scan(&self, d: usize, sq: usize, occupied: Bitboard) -> (Bitboard, Bitboard) {
        let ray = self.0[d][sq];
        let blockers = ray & occupied;
        if blockers == 0 {
            return (0, ray);
        }
        let at = nearest(d, blockers);
        let first = 1u64 << at;
        (first, ray & !(self.0[d][at as usize] | first))
    }
}

/// Of some squares on one ray in direction `d` (not empty), the index of
/// the one nearest the ray's start: north-west and north-east go to higher
/// bits, so the lowest; south the highest.
#[inline(always)]
pub fn nearest(d: usize, squares: Bitboard) -> u32 {
    if d < 2 {
        squares.trailing_zeros()
    } else {
        63 - squares.leading_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_have_the_right_square_count() {
        assert_eq!(Geometry::BOARD_64.board_mask().count_ones(), 32);
        assert_eq!(Geometry::BOARD_80.board_mask().count_ones(), 40);
        if has_popcnt() {
            for b in [
                0u64,
                1,
                u64::MAX,
                0x8000_0000_0000_0001,
                0x0123_4567_89ab_cdef,
            ] {
                // SAFETY: has_popcnt() said yes.
                assert_eq!(unsafe { popcount_hw(b) }, b.count_ones());
            }
        }
        assert_eq!(
            64 - Geometry::BOARD_80.board_mask().leading_zeros(),
            MAX_BITS as u32
        );
    }

    #[test]
    fn steps_are_shifts_with_ghosts_catching_wraps() {
        for g in [Geometry::BOARD_64, Geometry::BOARD_80] {
            let mask = g.board_mask();
            for f in 0..g.files() {
                for r in 0..8u8 {
                    let Some(sq) = g.square(f, r) else { continue };
                    assert_eq!(g.file_rank(sq), (f, r));
                    for (dir, (df, dr)) in
                        DIRECTIONS
                            .iter()
                            .zip([(-1i8, 1i8), (1, 1), (-1, -1), (1, -1)])
                    {
                        let to = shift(sq.bb(), g.step(*dir)) & mask;
                        let (nf, nr) = (f as i8 + df, r as i8 + dr);
                        let expect = if nf >= 0 && nr >= 0 {
                            g.square(nf as u8, nr as u8).map_or(0, |s| s.bb())
                        } else {
                            0
                        };
                        assert_eq!(to, expect, "{} {:?}", g.square_name(sq), dir);
                    }
                }
            }
        }
    }

    #[test]
    fn rays_find_the_first_piece_by_file_and_rank() {
        // Against a walk over files and ranks (not over bit shifts), for
        // every square, direction and a spread of occupancies.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for g in [Geometry::BOARD_64, Geometry::BOARD_80] {
            let board = g.board_mask();
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let occupied = seed & (seed >> 3) & board;
                for f in 0..g.files() {
                    for r in 0..8u8 {
                        let Some(sq) = g.square(f, r) else { continue };
                        for (d, (df, dr)) in [(-1i8, 1i8), (1, 1), (-1, -1), (1, -1)]
                            .into_iter()
                            .enumerate()
                        {
                            let (mut ray, mut first, mut empty) = (0, 0, 0);
                            let (mut nf, mut nr) = (f as i8 + df, r as i8 + dr);
                            while let Some(s) = (nf >= 0 && nr >= 0)
                                .then(|| g.square(nf as u8, nr as u8))
                                .flatten()
                            {
                                ray |= s.bb();
                                if first == 0 && occupied & s.bb() != 0 {
                                    first = s.bb();
                                } else if first == 0 {
                                    empty |= s.bb();
                                }
                                nf += df;
                                nr += dr;
                            }
                            let rays = g.rays();
                            assert_eq!(rays.ray(d, sq.index()), ray);
                            assert_eq!(rays.scan(d, sq.index(), occupied), (first, empty));
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn pdn_numbers_follow_the_english_order() {
        let g = Geometry::BOARD_64;
        let name = |n| g.square_name(g.from_pdn_number(n).unwrap());
        assert_eq!(name(1), "b8");
        assert_eq!(name(4), "h8");
        assert_eq!(name(29), "a1");
        assert_eq!(name(32), "g1");
        for n in 1..=32 {
            assert_eq!(g.pdn_number(g.from_pdn_number(n).unwrap()), Some(n as u8));
        }
    }

    #[test]
    fn square_names_round_trip_and_reject_bad_input() {
        let g = Geometry::BOARD_80;
        assert_eq!(g.square_name(g.parse_square("j8").unwrap()), "j8");
        assert!(matches!(g.parse_square("k1"), Err(SquareError::Unknown(_))));
        assert!(matches!(g.parse_square("a2"), Err(SquareError::Light(_))));
        assert!(matches!(g.parse_square("a9"), Err(SquareError::Unknown(_))));
        assert!(matches!(g.parse_square(""), Err(SquareError::Unknown(_))));
        assert!(matches!(
            g.parse_square("a+1"),
            Err(SquareError::Unknown(_))
        ));
        assert!(Geometry::BOARD_64.parse_square("i1").is_err());
        assert_eq!(g.square_name(g.parse_square("с3").unwrap()), "c3");
    }
}

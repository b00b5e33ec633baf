//! A position: side to move, the pieces, towers and the Zobrist key; make.
//!
//! Ownership lives in two colour bitboards (for towers: the colour of the top
//! checker), so generation is bitboard work. Men-and-kings variants keep a
//! king bitboard; tower variants keep each tower's `own` and `other` counts
//! per square, and a tower's king status is positional (on its owner's
//! promotion rank), never stored.
//!
//! Text and moves sit above this file: [`Position::start`] is read from
//! its text in [`crate::fen`], and [`Position::legal_moves`] comes from
//! [`crate::movegen`].
//!
//! ```
//! use shashki::{Position, Variant};
//! let pos = Position::start(Variant::Russian);
//! let moves = pos.legal_moves();
//! assert_eq!(moves.len(), 7);
//! let next = pos.play(&moves[0]);
//! assert_eq!(next.key(), next.compute_key());
//! ```

use crate::board::{squares, Bitboard, Color, Geometry, Square, MAX_BITS};
use crate::moves::Move;
use crate::variant::{with_rules, Rules, Variant};
use crate::zobrist::KEYS;

/// A tower of the tower variants: `own` checkers of `owner`'s colour on top of
/// `other` checkers of the other colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tower {
    pub owner: Color,
    pub own: u8,
    pub other: u8,
}

impl Tower {
    /// Total checkers in the tower.
    pub fn height(&self) -> u32 {
        self.own as u32 + self.other as u32
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// Russian/Brazilian man.
    Man(Color),
    /// Russian/Brazilian king.
    King(Color),
    /// A tower of the tower variants (a king when it stands on its owner's
    /// promotion rank).
    Tower(Tower),
}

impl Piece {
    /// The owner (for a tower, the colour of its top checker).
    pub fn color(&self) -> Color {
        match *self {
            Piece::Man(c) | Piece::King(c) => c,
            Piece::Tower(t) => t.owner,
        }
    }
}

/// What move generation reads of a men-and-kings position: the side to
/// move, the colour bitboards and the kings. Perft counts the last ply from
/// these, without building the position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Men {
    pub(crate) side: Color,
    pub(crate) pieces: [Bitboard; 2],
    pub(crate) kings: Bitboard,
}

impl Men {
    /// These after `mv` (men and kings; legal here): all that make
    /// changes but the key.
    #[inline(always)]
    pub(crate) fn after(&self, mv: &Move) -> Men {
        let (me, them) = (self.side, self.side.opposite());
        let (from, to) = (mv.from().bb(), mv.to().bb());
        let is_king = self.kings & from != 0 || mv.promotes;
        let mut pieces = self.pieces;
        // From and to are the same square when a king's capture ends
        // where it started.
        pieces[me.index()] = pieces[me.index()] & !from | to;
        pieces[them.index()] &= !mv.captured;
        let mut kings = self.kings & !(from | mv.captured);
        if is_king {
            kings |= to;
        }
        Men {
            side: them,
            pieces,
            kings,
        }
    }
}

/// A position of one of the variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) variant: Variant,
    pub(crate) side: Color,
    pub(crate) pieces: [Bitboard; 2],
    pub(crate) kings: Bitboard,
    /// Tower variants: per square, `own | other << 4` (each count <= 15).
    pub(crate) towers: [u8; MAX_BITS],
    pub(crate) key: u64,
}

impl Position {
    /// An empty board of `variant` with `side` to move.
    pub fn empty(variant: Variant, side: Color) -> Position {
        let mut p = Position {
            variant,
            side,
            pieces: [0; 2],
            kings: 0,
            towers: [0; MAX_BITS],
            key: 0,
        };
        p.key = p.compute_key();
        p
    }

    /// The variant.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The board shape.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.variant.geometry()
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Squares owned by `color` (for towers: topped by `color`).
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Kings of both colours. For towers: those on their owner's promotion rank.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        if self.variant.is_tower() {
            let g = self.geometry();
            (self.pieces[0] & g.promotion_mask(Color::White))
                | (self.pieces[1] & g.promotion_mask(Color::Black))
        } else {
            self.kings
        }
    }

    /// Tower variants: the `(own, other)` counts on `sq` ((0, 0) if empty).
    #[inline(always)]
    pub(crate) fn counts(&self, sq: Square) -> (u8, u8) {
        let v = self.towers[sq.index()];
        (v & 15, v >> 4)
    }

    #[inline(always)]
    pub(crate) fn set_counts(&mut self, sq: Square, own: u8, other: u8) {
        self.towers[sq.index()] = own | other << 4;
    }

    /// What move generation reads (see [`Men`]; for towers the kings are
    /// positional and this `kings` is empty).
    #[inline(always)]
    pub(crate) fn men(&self) -> Men {
        Men {
            side: self.side,
            pieces: self.pieces,
            kings: self.kings,
        }
    }

    /// The Zobrist key, maintained incrementally.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// What stands on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.pieces[0] & sq.bb() != 0 {
            Color::White
        } else if self.pieces[1] & sq.bb() != 0 {
            Color::Black
        } else {
            return None;
        };
        Some(if self.variant.is_tower() {
            Piece::Tower(Tower {
                owner: color,
                own: self.counts(sq).0,
                other: self.counts(sq).1,
            })
        } else if self.kings & sq.bb() != 0 {
            Piece::King(color)
        } else {
            Piece::Man(color)
        })
    }

    /// Number of checkers of `color` on the board (for towers: in all towers).
    pub fn checker_count(&self, color: Color) -> u32 {
        if !self.variant.is_tower() {
            return self.pieces[color.index()].count_ones();
        }
        squares(self.occupied())
            .map(|sq| {
                let (own, other) = self.counts(sq);
                let (own, other) = (own as u32, other as u32);
                if self.pieces[color.index()] & sq.bb() != 0 {
                    own
                } else {
                    other
                }
            })
            .sum()
    }

    /// The Adiyukh count `(white, black)`: each side scores every checker, of
    /// either colour, on the opponent's half of the board. For the other
    /// variants, each side's number of pieces on the opponent's half.
    pub fn half_board_score(&self) -> (u32, u32) {
        let g = self.geometry();
        let count = |mask: Bitboard| -> u32 {
            squares(self.occupied() & mask)
                .map(|sq| {
                    if self.variant.is_tower() {
                        let (own, other) = self.counts(sq);
                        own as u32 + other as u32
                    } else {
                        1
                    }
                })
                .sum()
        };
        (
            count(g.scoring_half(Color::White)),
            count(g.scoring_half(Color::Black)),
        )
    }

    /// Put a piece on an empty square (used by the position parser). The key
    /// is updated.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.occupied() & sq.bb() == 0);
        let color = piece.color();
        self.pieces[color.index()] |= sq.bb();
        match piece {
            Piece::Man(c) => self.key ^= KEYS.piece(c, false, sq),
            Piece::King(c) => {
                self.kings |= sq.bb();
                self.key ^= KEYS.piece(c, true, sq);
            }
            Piece::Tower(t) => {
                self.set_counts(sq, t.own, t.other);
                self.key ^= KEYS.tower(t.owner, t.own, t.other, sq);
            }
        }
    }

    /// The key computed from scratch (a check on the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Color::Black {
            KEYS.side
        } else {
            0
        };
        for color in [Color::White, Color::Black] {
            for sq in squares(self.pieces[color.index()]) {
                key ^= if self.variant.is_tower() {
                    {
                        let (own, other) = self.counts(sq);
                        KEYS.tower(color, own, other, sq)
                    }
                } else {
                    KEYS.piece(color, self.kings & sq.bb() != 0, sq)
                };
            }
        }
        key
    }

    /// The position after `mv`, which must be legal here.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let mut p = *self;
        p.make(mv);
        p
    }

    /// Play `mv`, which must be legal here, in place. Copy the position first
    /// to undo (copy-make: a position is a small plain value).
    pub fn make(&mut self, mv: &Move) {
        with_rules!(self.variant, R => self.make_with::<R>(mv))
    }

    /// The key of the position after `mv`, without making it: for men and
    /// kings a few xors (the search's table prefetch, and `make_with`'s own
    /// key); the tower variants make the move.
    #[inline(always)]
    pub(crate) fn key_after<R: Rules>(&self, mv: &Move) -> u64 {
        if R::TOWERS {
            let mut child = *self;
            child.make_with::<R>(mv);
            return child.key;
        }
        let keys = &KEYS;
        let (me, them) = (self.side, self.side.opposite());
        let (from, to) = (mv.from(), mv.to());
        let was_king = self.kings & from.bb() != 0;
        let mut key = self.key
            ^ keys.side
            ^ keys.piece(me, was_king, from)
            ^ keys.piece(me, was_king || mv.promotes, to);
        for sq in squares(mv.captured) {
            key ^= keys.piece(them, self.kings & sq.bb() != 0, sq);
        }
        key
    }

    /// `make` for a known variant (the hot loops call this directly).
    #[inline(always)]
    pub(crate) fn make_with<R: Rules>(&mut self, mv: &Move) {
        self.make_keyed::<R, true>(mv);
    }

    /// `make` without updating the Zobrist key, which is left stale: for
    /// perft, whose positions are only counted, never looked up, and never
    /// leave it.
    #[inline(always)]
    pub(crate) fn make_unkeyed<R: Rules>(&mut self, mv: &Move) {
        self.make_keyed::<R, false>(mv);
    }

    /// `make`, updating the key when `KEY`.
    #[inline(always)]
    fn make_keyed<R: Rules, const KEY: bool>(&mut self, mv: &Move) {
        let me = self.side;
        let them = me.opposite();
        let (from, to) = (mv.from(), mv.to());
        let keys = &KEYS;
        if R::TOWERS {
            let (own, other) = self.counts(from);
            let mut key = self.key;
            key ^= keys.tower(me, own, other, from);
            self.pieces[me.index()] &= !from.bb();
            self.set_counts(from, 0, 0);
            for sq in mv.jumped() {
                let (a, b) = self.counts(sq);
                key ^= keys.tower(them, a, b, sq);
                if a > 1 {
                    self.set_counts(sq, a - 1, b);
                    key ^= keys.tower(them, a - 1, b, sq);
                } else {
                    self.pieces[them.index()] &= !sq.bb();
                    self.set_counts(sq, b, 0);
                    if b > 0 {
                        self.pieces[me.index()] |= sq.bb();
                        key ^= keys.tower(me, b, 0, sq);
                    }
                }
            }
            let other = other + mv.jumps;
            self.set_counts(to, own, other);
            self.pieces[me.index()] |= to.bb();
            key ^= keys.tower(me, own, other, to);
            key ^= keys.side;
            if KEY {
                self.key = key;
            }
        } else {
            // The key first, from the board before the move.
            if KEY {
                self.key = self.key_after::<R>(mv);
            }
            let after = self.men().after(mv);
            self.pieces = after.pieces;
            self.kings = after.kings;
        }
        self.side = them;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::with_rules;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    #[test]
    fn key_after_is_the_key_of_the_move_made() {
        let mut rng = StdRng::seed_from_u64(0x4b45);
        for v in Variant::ALL {
            let mut checked = 0;
            for _ in 0..40 {
                let mut p = Position::start(v);
                for _ in 0..150 {
                    let moves = p.legal_moves();
                    for m in moves.iter() {
                        let key = with_rules!(v, R => p.key_after::<R>(m));
                        let child = p.play(m);
                        assert_eq!(key, child.key(), "{v}: {p}, {m:?}");
                        assert_eq!(child.key(), child.compute_key(), "{v}: {child}");
                        checked += 1;
                    }
                    let Some(m) = moves.choose(&mut rng) else {
                        break;
                    };
                    p = p.play(m);
                }
            }
            assert!(checked > 10_000, "{v}: {checked} moves");
        }
    }
}

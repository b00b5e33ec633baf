//! The `Move` value and the move list.
//!
//! A move is a whole turn: a quiet step or slide, or a complete capture. It
//! records the start and final squares, the landing square of every jump (the
//! printed path), the jumped squares in order (a tower may be jumped more than
//! once in Adiyukh) and, for men-and-kings variants, whether a man is crowned.

use crate::board::{Bitboard, Square};
use smallvec::SmallVec;
use std::ops::{Deref, DerefMut};

/// Most jumps in one move: one per enemy checker, at most 15 on any board.
pub const MAX_JUMPS: usize = 16;

/// One legal move.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
    pub(crate) jumps: u8,
    pub(crate) promotes: bool,
    pub(crate) captured: Bitboard,
    pub(crate) path: [u8; MAX_JUMPS],
    pub(crate) jumped: [u8; MAX_JUMPS],
}

impl Move {
    /// A quiet move.
    #[inline(always)]
    pub(crate) fn quiet(from: u8, to: u8, promotes: bool) -> Move {
        Move {
            from,
            to,
            jumps: 0,
            promotes,
            captured: 0,
            path: [0; MAX_JUMPS],
            jumped: [0; MAX_JUMPS],
        }
    }

    /// The start square.
    #[inline]
    pub fn from(&self) -> Square {
        Square(self.from)
    }

    /// The final square.
    #[inline]
    pub fn to(&self) -> Square {
        Square(self.to)
    }

    /// True for a capture.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// Number of jumps (= checkers or pieces taken); 0 for a quiet move.
    #[inline]
    pub fn capture_count(&self) -> usize {
        self.jumps as usize
    }

    /// Squares whose pieces are captured (each once, even when a tower was
    /// jumped several times).
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Landing square of every jump, in order (empty for a quiet move).
    pub fn path(&self) -> impl Iterator<Item = Square> + '_ {
        self.path[..self.jumps as usize].iter().map(|&s| Square(s))
    }

    /// Jumped squares in order, a square repeated when its tower is jumped again.
    pub fn jumped(&self) -> impl Iterator<Item = Square> + '_ {
        self.jumped[..self.jumps as usize]
            .iter()
            .map(|&s| Square(s))
    }

    /// Russian/Brazilian: a man becomes a king with this move.
    #[inline]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// True when both moves give the same result from the same position:
    /// same start, final square, crowned or not, and the same squares jumped
    /// the same number of times. This is the rule book's move identity.
    #[inline]
    pub fn same_result(&self, other: &Move) -> bool {
        if self.from != other.from
            || self.to != other.to
            || self.jumps != other.jumps
            || self.captured != other.captured
            || self.promotes != other.promotes
        {
            return false;
        }
        // A quiet move, or one jump: nothing more to compare.
        self.jumps <= 1 || self.same_jumps(other)
    }

    /// [`Move::same_result`] for two captures with the same squares, start,
    /// end and length: whether each square is jumped as often in both.
    fn same_jumps(&self, other: &Move) -> bool {
        let n = self.jumps as usize;
        if n == self.captured.count_ones() as usize {
            // Every square jumped once: the sets are equal.
            return true;
        }
        let mut a = self.jumped;
        let mut b = other.jumped;
        a[..n].sort_unstable();
        b[..n].sort_unstable();
        a[..n] == b[..n]
    }
}

impl PartialEq for Move {
    /// Moves are equal when they are the same move in the rule book's sense
    /// (see [`Move::same_result`]).
    fn eq(&self, other: &Move) -> bool {
        self.same_result(other)
    }
}

impl Eq for Move {}

/// A list of moves that lives on the stack for all ordinary positions.
#[derive(Clone, Debug, Default)]
pub struct MoveList(pub(crate) SmallVec<[Move; 96]>);

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList(SmallVec::new())
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.0
    }
}

impl DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.0
    }
}

/// Where the generator puts moves: a [`MoveList`], or the top of a search
/// thread's move stack ([`StackTop`]).
pub(crate) trait MoveSink {
    /// Add a move.
    fn push(&mut self, m: Move);
    /// Remove the moves added so far.
    fn clear(&mut self);
    /// The moves added so far.
    fn moves(&self) -> &[Move];
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
    #[inline(always)]
    fn clear(&mut self) {
        self.0.clear();
    }
    #[inline(always)]
    fn moves(&self) -> &[Move] {
        &self.0
    }
}

/// The moves above `base` on a stack of moves shared by the plies of one
/// search thread: each ply generates onto the top and truncates back to its
/// base when done, so no ply needs a move list of its own.
pub(crate) struct StackTop<'a> {
    pub(crate) stack: &'a mut Vec<Move>,
    pub(crate) base: usize,
}

impl MoveSink for StackTop<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.stack.push(m);
    }
    #[inline(always)]
    fn clear(&mut self) {
        self.stack.truncate(self.base);
    }
    #[inline(always)]
    fn moves(&self) -> &[Move] {
        &self.stack[self.base..]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

//! What a table holds: a [`Value`] for the side to move, the finished
//! tables by combination, and the values by state of a pair's retrograde
//! pass ([`Plain`]), read by the builder, the exact solver and `egdb
//! verify`.

use super::class::Carry;
use super::index::Combo;
use crate::position::Position;
use std::collections::HashMap;
use std::sync::Arc;

/// A stored value: for the side to move.
pub type Value = u8;
pub const DRAW: Value = 0;
pub const WIN: Value = 1;
pub const LOSS: Value = 2;
/// An index that is no position.
pub const NONE: Value = 3;

/// Finished tables, one value byte per index, by combination.
pub type Finished = HashMap<Combo, Arc<Vec<u8>>>;

/// The value of `pos` (after a move that left the combination) from the
/// finished tables, for the side to move there.
pub(crate) fn finished_value(finished: &Finished, pos: &Position) -> Value {
    let (c, i) = Combo::of(pos);
    if c.us_men + c.us_kings == 0 {
        return LOSS;
    }
    if c.them_men + c.them_kings == 0 {
        return WIN;
    }
    let t = finished
        .get(&c)
        .unwrap_or_else(|| panic!("the table {c} is built before those that need it"));
    t[i as usize]
}

/// The other side's view of a value.
#[inline]
pub(crate) fn flip(v: Value) -> Value {
    match v {
        WIN => LOSS,
        LOSS => WIN,
        other => other,
    }
}

/// The retrograde result of a pair: per side and state (`index * states +
/// state`), the value without the counting rules (but with the counter the
/// state carries) and the plies to the end of the combination (the winning
/// conversion, or the position where the loser cannot move) under best
/// play.
pub(crate) struct Plain {
    pub combos: [Combo; 2],
    pub carry: Carry,
    pub value: [Vec<u8>; 2],
    pub dist: [Vec<u8>; 2],
}

impl Plain {
    pub(crate) fn side(&self, c: Combo) -> Option<usize> {
        self.combos.iter().position(|&x| x == c)
    }
}

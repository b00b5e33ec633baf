//! The exact value of a position under the counting rules, where the
//! retrograde pass alone cannot tell: a search over (position, draw-rule
//! counters) with the rules of [`crate::game`], memoised, that ends each
//! line where the game leaves the pair with every counter at zero (there
//! the finished tables answer) or where the retrograde pass already knows
//! the answer.

use super::class::Carry;
use super::index::Combo;
use super::value::{finished_value, flip, Finished, Plain, Value, DRAW, LOSS, WIN};
use crate::game::DrawState;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// A quick hash for the memo's keys (Zobrist keys are random already).
#[derive(Default)]
struct QuickHasher(u64);

impl Hasher for QuickHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(n as u64);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Memo = HashMap<(u64, DrawState), Value, BuildHasherDefault<QuickHasher>>;

/// A solver with its memo; one per thread.
pub(crate) struct Solver<'a> {
    variant: Variant,
    finished: &'a Finished,
    plains: &'a HashMap<Combo, Arc<Plain>>,
    memo: Memo,
}

impl<'a> Solver<'a> {
    pub(crate) fn new(
        variant: Variant,
        finished: &'a Finished,
        plains: &'a HashMap<Combo, Arc<Plain>>,
    ) -> Solver<'a> {
        Solver {
            variant,
            finished,
            plains,
            memo: Memo::default(),
        }
    }

    /// The value of `pos` for its side to move, the counters standing at
    /// `draws` (those of the move that reached it).
    pub(crate) fn solve(&mut self, pos: &Position, draws: DrawState) -> Value {
        debug_assert_eq!(pos.variant(), self.variant);
        if let Some(&v) = self.memo.get(&(pos.key(), draws)) {
            return v;
        }
        let moves = pos.legal_moves();
        let pieces = pos.occupied().count_ones();
        let v = if moves.is_empty() {
            LOSS
        } else if draws.draw(pieces).is_some() {
            DRAW
        } else {
            // Try first the moves the retrograde pass thinks best: a win is
            // usually found with the first.
            let mut kids: Vec<(u8, u8, Position, DrawState, bool)> = moves
                .iter()
                .map(|m| {
                    let child = pos.play(m);
                    let after = DrawState::after(Some((&draws, pos, m)), &child);
                    let (v, d) = self.hint(&child, &after);
                    let rank = match flip(v) {
                        WIN => 0,
                        DRAW => 1,
                        _ => 2,
                    };
                    (rank, d, child, after, m.is_capture() || m.promotes())
                })
                .collect();
            kids.sort_unstable_by_key(|k| (k.0, k.1));
            let mut best = LOSS;
            for (_, _, child, after, left) in kids {
                best = better(best, flip(self.child_value(&child, after, left)));
                if best == WIN {
                    break;
                }
            }
            best
        };
        self.memo.insert((pos.key(), draws), v);
        v
    }

    /// The retrograde pass's value and plies for `child`, where it has
    /// them (a draw otherwise): only to order the moves.
    fn hint(&self, child: &Position, after: &DrawState) -> (Value, u8) {
        let (c, i) = Combo::of(child);
        match self.plains.get(&c) {
            Some(plain) => {
                let s = plain.side(c).expect("the plain pass of this combination");
                let st = i as usize * plain.carry.states() + plain.carry.state_of(after);
                (plain.value[s][st], plain.dist[s][st])
            }
            None => (DRAW, 255),
        }
    }

    fn child_value(&mut self, child: &Position, after: DrawState, left: bool) -> Value {
        if left && after == DrawState::after(None, child) {
            // A new material with every counter at zero: what the tables
            // store.
            return finished_value(self.finished, child);
        }
        let (c, i) = Combo::of(child);
        if let Some(plain) = self.plains.get(&c) {
            let s = plain.side(c).expect("the plain pass of this combination");
            let st = i as usize * plain.carry.states() + plain.carry.state_of(&after);
            let v = plain.value[s][st];
            // A draw without the other counting rules is a draw with them;
            // 7.2.8 is the only one where it runs, and the pass counted it.
            if v == DRAW || plain.carry == Carry::R728 {
                return v;
            }
            // Decided within the plies no running counter can end (the
            // pass counted 7.2.7 where it carries it).
            let with_r727 = plain.carry != Carry::R727;
            if plain.dist[s][st] as u16
                <= after.plies_left(child.occupied().count_ones(), with_r727)
            {
                return v;
            }
        }
        self.solve(child, after)
    }
}

/// The better of two values for the side choosing.
#[inline]
fn better(a: Value, b: Value) -> Value {
    let rank = |v: Value| match v {
        WIN => 2,
        DRAW => 1,
        _ => 0,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

//! The exact value of a position under the counting rules, where the
//! retrograde pass alone cannot tell: a search over (position, draw-rule
//! counters) with the rules of [`crate::game`], memoised, that ends each
//! line where the game leaves the pair with every counter at zero (there
//! the finished tables answer) or where the retrograde pass already knows
//! the answer.
//!
//! The memo is bounded ([`Memo`]): it grows up to a fixed size, then new
//! entries replace old ones. Each entry is a value computed exactly, so
//! what it forgets only costs time: the values are those of the full
//! search whatever the memo keeps.

use super::class::Carry;
use super::index::Combo;
use super::value::{finished_value, flip, Finished, Plain, Value, DRAW, LOSS, WIN};
use crate::game::DrawState;
use crate::position::Position;
use crate::variant::Variant;
use std::collections::HashMap;
use std::sync::Arc;

/// Slots the memo starts with, and the most it grows to: 2^27 slots of 8
/// bytes, 1 GiB a solver (one a worker thread).
const FIRST_SLOTS: u32 = 16;
const MOST_SLOTS: u32 = 27;
/// Slots a key may stand in, from the one its hash names.
const WINDOW: usize = 8;

/// The memo of one solver: an open-addressing table of `u64` entries,
/// each a state's key ([`Memo::key`], 62 bits) shifted left by two and
/// its value + 1 (0 is an empty slot). It doubles while more than half
/// full, up to [`MOST_SLOTS`]; then a new key that finds its window full
/// takes the first slot of the window.
struct Memo {
    slots: Vec<u64>,
    bits: u32,
    /// The most slots, as a power of two.
    most: u32,
    used: usize,
    /// Entries that took an occupied slot (the memo full).
    replaced: u64,
}

impl Memo {
    fn new() -> Memo {
        Memo::with_bits(FIRST_SLOTS, MOST_SLOTS)
    }

    fn with_bits(first: u32, most: u32) -> Memo {
        Memo {
            slots: vec![0; 1 << first],
            bits: first,
            most,
            used: 0,
            replaced: 0,
        }
    }

    /// The key of a position (its combination's number in the solver and
    /// its index there) with its counters: the counters' plies are the
    /// whole state (the position fixes the signatures), and each is bounded
    /// by the rule that ends the game at its limit (king moves and 7.2.4:
    /// 30, 7.2.6: 120, 7.2.7 and 7.2.8: 10). `None` if a part does not fit
    /// (never, for the tables built here): such a state is not memoised.
    #[inline]
    fn key(combo: u8, index: u64, draws: &DrawState) -> Option<u64> {
        Memo::pack(combo, index, draws.plies())
    }

    /// [`Memo::key`] from the counters' plies: from the lowest bit, king
    /// moves (5 bits), 7.2.4 (5), 7.2.6 (7), 7.2.7 (4), 7.2.8 (4), the
    /// combination (5), the index (32).
    #[inline]
    fn pack(combo: u8, index: u64, plies: [u16; 5]) -> Option<u64> {
        let [king_moves, r724, r726, r727, r728] = plies;
        let fits = combo < 32
            && index < 1 << 32
            && king_moves < 32
            && r724 < 32
            && r726 < 128
            && r727 < 16
            && r728 < 16;
        fits.then(|| {
            let counts = king_moves as u64
                | (r724 as u64) << 5
                | (r726 as u64) << 10
                | (r727 as u64) << 17
                | (r728 as u64) << 21;
            counts | (combo as u64) << 25 | index << 30
        })
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Value> {
        let mask = self.slots.len() - 1;
        let home = self.home(key);
        for n in 0..WINDOW {
            let e = self.slots[(home + n) & mask];
            if e == 0 {
                return None;
            }
            if e >> 2 == key {
                return Some((e & 3) as Value - 1);
            }
        }
        None
    }

    fn insert(&mut self, key: u64, v: Value) {
        if self.used >= self.slots.len() / 2 && self.bits < self.most {
            self.grow();
        }
        self.put(key << 2 | (v as u64 + 1));
    }

    /// Put an entry in the first free slot of its window (or the slot of
    /// its key), else in the window's first slot.
    fn put(&mut self, entry: u64) {
        let mask = self.slots.len() - 1;
        let home = self.home(entry >> 2);
        for n in 0..WINDOW {
            let slot = &mut self.slots[(home + n) & mask];
            if *slot == 0 {
                self.used += 1;
                *slot = entry;
                return;
            }
            if *slot >> 2 == entry >> 2 {
                *slot = entry;
                return;
            }
        }
        self.replaced += 1;
        self.slots[home] = entry;
    }

    fn grow(&mut self) {
        let old = std::mem::replace(&mut self.slots, vec![0; 1 << (self.bits + 1)]);
        self.bits += 1;
        self.used = 0;
        for e in old.into_iter().filter(|&e| e != 0) {
            self.put(e);
        }
    }
}

/// A combination the solver may meet: its number in the memo's keys and
/// its retrograde pass.
type Known<'a> = HashMap<Combo, (u8, &'a Plain)>;

/// A solver with its memo; one per thread.
pub(crate) struct Solver<'a> {
    variant: Variant,
    finished: &'a Finished,
    known: Known<'a>,
    memo: Memo,
}

impl<'a> Solver<'a> {
    pub(crate) fn new(
        variant: Variant,
        finished: &'a Finished,
        plains: &'a HashMap<Combo, Arc<Plain>>,
    ) -> Solver<'a> {
        let mut combos: Vec<Combo> = plains.keys().copied().collect();
        combos.sort_unstable();
        let known = combos
            .iter()
            .enumerate()
            .map(|(n, c)| (*c, (n.min(255) as u8, &*plains[c])))
            .collect();
        Solver {
            variant,
            finished,
            known,
            memo: Memo::new(),
        }
    }

    /// With `SHASHKI_EGDB_DEBUG` set, how full the memo grew (for the
    /// states of `c` this solver solved).
    pub(crate) fn report(&self, c: Combo) {
        if std::env::var_os("SHASHKI_EGDB_DEBUG").is_some() {
            let m = &self.memo;
            eprintln!(
                "{c}: memo of 2^{} slots, {} used, {} replaced",
                m.bits, m.used, m.replaced
            );
        }
    }

    /// The value of `pos` for its side to move, the counters standing at
    /// `draws` (those of the move that reached it).
    pub(crate) fn solve(&mut self, pos: &Position, draws: DrawState) -> Value {
        let (c, i) = Combo::of(pos);
        self.solve_at(pos, c, i, draws)
    }

    /// [`Solver::solve`] for a position whose combination and index are
    /// known.
    fn solve_at(&mut self, pos: &Position, c: Combo, i: u64, draws: DrawState) -> Value {
        debug_assert_eq!(pos.variant(), self.variant);
        let key = self
            .known
            .get(&c)
            .and_then(|&(n, _)| Memo::key(n, i, &draws));
        if let Some(v) = key.and_then(|k| self.memo.get(k)) {
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
            let mut kids: Vec<Kid> = moves
                .iter()
                .map(|m| {
                    let child = pos.play(m);
                    let after = DrawState::after(Some((&draws, pos, m)), &child);
                    let (combo, index) = Combo::of(&child);
                    let (v, d) = self.hint(combo, index, &after);
                    let rank = match flip(v) {
                        WIN => 0,
                        DRAW => 1,
                        _ => 2,
                    };
                    Kid {
                        rank: (rank, d),
                        child,
                        combo,
                        index,
                        after,
                        left: m.is_capture() || m.promotes(),
                    }
                })
                .collect();
            kids.sort_unstable_by_key(|k| k.rank);
            let mut best = LOSS;
            for kid in kids {
                best = better(best, flip(self.child_value(kid)));
                if best == WIN {
                    break;
                }
            }
            best
        };
        if let Some(k) = key {
            self.memo.insert(k, v);
        }
        v
    }

    /// The retrograde pass's value and plies for a child, where it has
    /// them (a draw otherwise): only to order the moves.
    fn hint(&self, c: Combo, i: u64, after: &DrawState) -> (Value, u8) {
        match self.known.get(&c) {
            Some(&(_, plain)) => {
                let s = plain.side(c).expect("the plain pass of this combination");
                let st = i as usize * plain.carry.states() + plain.carry.state_of(after);
                (plain.value[s][st], plain.dist[s][st])
            }
            None => (DRAW, 255),
        }
    }

    fn child_value(&mut self, kid: Kid) -> Value {
        let Kid {
            child,
            combo: c,
            index: i,
            after,
            left,
            ..
        } = kid;
        if left && after == DrawState::after(None, &child) {
            // A new material with every counter at zero: what the tables
            // store.
            return finished_value(self.finished, &child);
        }
        if let Some(&(_, plain)) = self.known.get(&c) {
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
        self.solve_at(&child, c, i, after)
    }
}

/// A move of the position being solved: the retrograde pass's rank of it
/// (its value for the mover, then its plies), the child, its combination
/// and index, its counters, and whether it leaves the combination.
struct Kid {
    rank: (u8, u8),
    child: Position,
    combo: Combo,
    index: u64,
    after: DrawState,
    left: bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every part of a key has bits of its own: each at its largest value
    /// reads back alone, and a part too large is refused.
    #[test]
    fn keys_keep_every_part() {
        let most = [31u16, 31, 127, 15, 15];
        let key = Memo::pack(31, u32::MAX as u64, most).unwrap();
        assert_eq!(key, (1 << 62) - 1);
        let mut seen = std::collections::HashSet::new();
        for part in 0..5 {
            let mut plies = [0; 5];
            plies[part] = most[part];
            assert!(seen.insert(Memo::pack(0, 0, plies).unwrap()));
            plies[part] += 1;
            assert_eq!(Memo::pack(0, 0, plies), None);
        }
        assert!(seen.insert(Memo::pack(31, 0, [0; 5]).unwrap()));
        assert!(seen.insert(Memo::pack(0, u32::MAX as u64, [0; 5]).unwrap()));
        assert_eq!(Memo::pack(32, 0, [0; 5]), None);
        assert_eq!(Memo::pack(0, 1 << 32, [0; 5]), None);
    }

    /// The memo grows to its bound and no further; once full it forgets
    /// (replaces) entries but never answers wrong, and keeps the newest.
    #[test]
    fn a_full_memo_forgets_but_never_answers_wrong() {
        let mut m = Memo::with_bits(4, 10);
        let value = |k: u64| (k % 3) as Value;
        let keys: Vec<u64> = (0..20_000u64).map(|n| n * 7919 % (1 << 40)).collect();
        for (n, &k) in keys.iter().enumerate() {
            m.insert(k, value(k));
            assert_eq!(m.get(k), Some(value(k)), "the newest entry, {n}");
        }
        assert_eq!(m.slots.len(), 1 << 10);
        assert!(m.used <= 1 << 10 && m.replaced > 0);
        let mut found = 0;
        for &k in &keys {
            if let Some(v) = m.get(k) {
                assert_eq!(v, value(k));
                found += 1;
            }
        }
        assert!(found > 500 && found <= 1 << 10, "{found}");
        // A key never put in is not found.
        assert_eq!(m.get(1 << 41), None);
    }
}

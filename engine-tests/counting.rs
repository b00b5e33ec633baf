//! The counting rules of Russian draughts (7.2.4-7.2.8), as russian.md
//! states them: the tests' own reading, independent of the engine's
//! `game.rs`, for the exact solver of `egdb_exact.rs`.

use shashki::board::{Color, Geometry};
use shashki::{Move, Position};

/// The counters of the counting rules, as russian.md states them. Each
/// rule's count runs while its condition holds with the same material
/// "balance" (its signature) and starts again when the balance changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Counts {
    /// 7.2.5: plies in a row in which a king moved without capturing.
    king_moves: u8,
    /// (signature, plies) of 7.2.4, 7.2.6, 7.2.7, 7.2.8.
    r724: (u32, u8),
    r726: (u32, u8),
    r727: (u32, u8),
    r728: (u32, u8),
}

/// Men and kings of a side.
fn material(pos: &Position, c: Color) -> (u32, u32) {
    let own = pos.pieces(c);
    let k = (own & pos.kings()).count_ones();
    (own.count_ones() - k, k)
}

fn on_main_road(pos: &Position, c: Color) -> bool {
    let g = Geometry::BOARD_64;
    (0..8u8).any(|i| pos.pieces(c) & g.square(i, i).unwrap().bb() != 0)
}

/// The balance each rule looks at, 0 where its condition does not hold.
pub(crate) fn signatures(pos: &Position) -> [u32; 4] {
    let (wm, wk) = material(pos, Color::White);
    let (bm, bk) = material(pos, Color::Black);
    let total = wm + wk + bm + bk;
    let mut s = [0u32; 4];
    for (weak, (lm, lk), (sm, sk)) in [
        (Color::Black, (bm, bk), (wm, wk)),
        (Color::White, (wm, wk), (bm, bk)),
    ] {
        // A lone king against a side with a king.
        if lm == 0 && lk == 1 && sk >= 1 {
            let tag = 100 * total + weak as u32 + 1;
            let strong = sm + sk;
            // 7.2.4: three kings or more (and nothing else).
            if strong >= 3 && sm == 0 {
                s[0] |= tag;
            }
            // 7.2.7: three pieces, the lone king on the main road.
            if strong == 3 && on_main_road(pos, weak) {
                s[2] |= tag;
            }
            // 7.2.8: two pieces or one.
            if strong <= 2 {
                s[3] |= tag;
            }
        }
    }
    // 7.2.6: kings on both sides, 4 to 7 pieces, this very material.
    if wk >= 1 && bk >= 1 && (4..=7).contains(&total) {
        s[1] = 1 + (wm + 10 * wk + 100 * bm + 1000 * bk);
    }
    s
}

pub(crate) fn run(prev: (u32, u8), sig: u32) -> (u32, u8) {
    match sig {
        0 => (0, 0),
        s if s == prev.0 => (s, prev.1 + 1),
        s => (s, 0),
    }
}

impl Counts {
    pub(crate) fn start(pos: &Position) -> Counts {
        let s = signatures(pos);
        Counts {
            king_moves: 0,
            r724: (s[0], 0),
            r726: (s[1], 0),
            r727: (s[2], 0),
            r728: (s[3], 0),
        }
    }

    pub(crate) fn after(&self, before: &Position, m: &Move, pos: &Position) -> Counts {
        let s = signatures(pos);
        let king_move = Counts::king_move(before, m);
        Counts {
            king_moves: if king_move { self.king_moves + 1 } else { 0 },
            r724: run(self.r724, s[0]),
            r726: run(self.r726, s[1]),
            r727: run(self.r727, s[2]),
            r728: run(self.r728, s[3]),
        }
    }

    /// Whether `m` counts for 7.2.5: a king moved without capturing.
    pub(crate) fn king_move(before: &Position, m: &Move) -> bool {
        !m.is_capture() && before.kings() & m.from().bb() != 0
    }

    /// The counts of a position whose signatures are `sigs`: `king_moves`
    /// plies of 7.2.5, `plies` of each of 7.2.4, 7.2.6 and 7.2.8 whose
    /// condition holds, `road` of 7.2.7 if its condition holds.
    pub(crate) fn at(sigs: [u32; 4], king_moves: u8, plies: u8, road: u8) -> Counts {
        let count = |s: u32, n: u8| if s == 0 { (0, 0) } else { (s, n) };
        Counts {
            king_moves,
            r724: count(sigs[0], plies),
            r726: count(sigs[1], plies),
            r727: count(sigs[2], road),
            r728: count(sigs[3], plies),
        }
    }

    /// The plies of every count in one number. The signatures are left
    /// out: each is a function of the position the counts belong to.
    pub(crate) fn packed(&self) -> u64 {
        u64::from_le_bytes([
            self.king_moves,
            self.r724.1,
            self.r726.1,
            self.r727.1,
            self.r728.1,
            0,
            0,
            0,
        ])
    }

    /// Whether a counting rule has ended the game.
    pub(crate) fn drawn(&self, pieces: u32) -> bool {
        let r726 = if pieces <= 5 { 60 } else { 120 };
        (self.r728.0 != 0 && self.r728.1 >= 10)
            || (self.r727.0 != 0 && self.r727.1 >= 10)
            || (self.r724.0 != 0 && self.r724.1 >= 30)
            || self.king_moves >= 30
            || (self.r726.0 != 0 && self.r726.1 >= r726)
    }
}

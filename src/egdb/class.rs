//! What the counting rules do within a combination ([`Class`]), and the
//! counter a lone-king rule carries through its moves ([`Carry`]): what the
//! builder, the exact solver and the probes each ask of a combination.

use super::index::{Combo, Slots};
use crate::game::DrawState;

/// What the rules do within a combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A side has no king (and no lone-king rule applies): no counting rule
    /// can end the game here.
    Free,
    /// Kings on both sides, 4 or more pieces, no lone king with three or
    /// fewer against it: 7.2.5 and 7.2.6 (and 7.2.4 for four kings against
    /// one), all counting from the moment the material arose, except 7.2.5,
    /// which a man's move starts again.
    Counted,
    /// A lone king against three or fewer pieces with a king (7.2.7,
    /// 7.2.8, and for three kings 7.2.4): rules whose counts survive a
    /// promotion or start again when the lone king leaves the main road.
    LoneKing,
}

impl Class {
    pub fn of(c: Combo) -> Class {
        let lone = |m: u8, k: u8, om: u8, ok: u8| m == 0 && k == 1 && ok >= 1 && om + ok <= 3;
        if lone(c.us_men, c.us_kings, c.them_men, c.them_kings)
            || lone(c.them_men, c.them_kings, c.us_men, c.us_kings)
        {
            Class::LoneKing
        } else if c.us_kings > 0 && c.them_kings > 0 && c.pieces() >= 4 {
            Class::Counted
        } else {
            Class::Free
        }
    }
}

/// A counter that a lone-king rule carries through the moves of a
/// combination and across a promotion within its group: the analysis keeps
/// it in the state (every other counter starts again when the material
/// changes, and is handled after the analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carry {
    None,
    /// 7.2.8 (two pieces or fewer with a king against a lone king): plies
    /// since it began, 0..=9, and 10 when it has ended the game.
    R728,
    /// 7.2.7 (three pieces with a king against a lone king): 0 while the
    /// lone king is off the main road, 1 + the plies it has stood on it,
    /// and 11 when it has ended the game.
    R727,
}

/// The main road a1-h8 in dense squares (the same when the board turns).
const ROAD: u32 = 1 | 1 << 4 | 1 << 9 | 1 << 13 | 1 << 18 | 1 << 22 | 1 << 27 | 1 << 31;

impl Carry {
    pub(crate) fn of(c: Combo) -> Carry {
        if Class::of(c) != Class::LoneKing {
            return Carry::None;
        }
        let strong = c.pieces() - 1;
        if strong <= 2 {
            Carry::R728
        } else {
            Carry::R727
        }
    }

    /// States per position.
    pub(crate) fn states(self) -> usize {
        match self {
            Carry::None => 1,
            Carry::R728 => 11,
            Carry::R727 => 12,
        }
    }

    /// Whether the lone king stands on the main road.
    fn on_road(s: &Slots) -> bool {
        let lone = if s.them_men == 0 && s.them_kings.count_ones() == 1 {
            s.them_kings
        } else {
            s.us_kings
        };
        lone & ROAD != 0
    }

    /// The state of a position where the material has just arisen.
    pub(crate) fn fresh(self, s: &Slots) -> usize {
        match self {
            Carry::R727 if Carry::on_road(s) => 1,
            _ => 0,
        }
    }

    /// Whether state `k` can be that of position `s`.
    pub(crate) fn valid(self, k: usize, s: &Slots) -> bool {
        match self {
            Carry::None => k == 0,
            Carry::R728 => true,
            Carry::R727 => (k == 0) != Carry::on_road(s),
        }
    }

    /// The count has ended the game.
    pub(crate) fn fired(self, k: usize) -> bool {
        match self {
            Carry::None => false,
            Carry::R728 => k >= 10,
            Carry::R727 => k >= 11,
        }
    }

    /// The state after a move from state `k` to position `q`.
    pub(crate) fn next(self, k: usize, q: &Slots) -> usize {
        match self {
            Carry::None => 0,
            Carry::R728 => (k + 1).min(10),
            Carry::R727 => {
                if !Carry::on_road(q) {
                    0
                } else if k == 0 {
                    1
                } else {
                    (k + 1).min(11)
                }
            }
        }
    }

    /// The state standing in a search's counters (those of a position of
    /// this kind).
    pub(crate) fn state_of(self, d: &DrawState) -> usize {
        let (r727, r728) = d.lone_king_counts();
        match self {
            Carry::None => 0,
            Carry::R728 => r728.unwrap_or(0).min(10) as usize,
            Carry::R727 => r727.map_or(0, |p| (p as usize + 1).min(11)),
        }
    }

    /// Call `f` with every state of `p` whose move to `q` gives state `k`.
    pub(crate) fn prev(self, k: usize, p: &Slots, q: &Slots, mut f: impl FnMut(usize)) {
        match self {
            Carry::None => f(0),
            Carry::R728 => {
                if k >= 1 {
                    f(k - 1);
                }
            }
            Carry::R727 => {
                let (pr, qr) = (Carry::on_road(p), Carry::on_road(q));
                match (pr, qr) {
                    (false, false) if k == 0 => f(0),
                    (false, true) if k == 1 => f(0),
                    (true, false) if k == 0 => (1..=10).for_each(f),
                    (true, true) if k >= 2 => f(k - 1),
                    _ => {}
                }
            }
        }
    }
}

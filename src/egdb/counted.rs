//! The exact values of a [`Class::Counted`](super::Class::Counted) pair
//! with men, by a pass over the placements of the men instead of a search.
//!
//! In such a pair two counts run (see [`crate::game`]): the plies of king
//! moves in a row (7.2.5, 30), which a man's move starts again, and the
//! plies since the material arose (7.2.6, 60 or 120), which only a capture
//! or a promotion ends, both leaving the pair. The second only asks the
//! winner to convert in time. So a position is won with every counter at
//! zero exactly when its side to move converts within the 7.2.6 limit in
//! the game where 30 king moves in a row draw: the plies to the conversion
//! under best play of that game (the winner hurrying, the loser delaying)
//! decide. That game's states are a position and its count of king moves,
//! and they fall into layers that need no retrograde queue:
//!
//! * a man never moves back, so a placement of the men (both sides' men,
//!   the side to move aside) only leads to placements further on: taken
//!   with the most advanced first, every man's move leads to a position
//!   whose value at count zero is known;
//! * within one placement only kings move, and each of their moves raises
//!   the count by one: the values at count 29 follow from those at 30 (a
//!   draw, unless the side to move cannot move), those at 28 from 29, and
//!   so on to 0.
//!
//! A placement's positions are one block of the index ([`Combo::kings_block`])
//! for each side to move. This takes a move generation per position and
//! 30 passes over the moves, where the exact search took tens of
//! microseconds a position at six pieces.

use super::index::{Combo, Slots};
use super::value::{finished_value, Finished, DRAW, LOSS, WIN};
use crate::position::Position;
use crate::variant::Variant;
use rayon::prelude::*;

/// A value with its plies, from the side to move: a win in `d` plies is
/// `WON - d`, a loss in `d` plies `d - WON`, a draw 0; the larger the
/// better.
pub(crate) type Score = i16;
const WON: Score = 30_000;
/// Plies beyond this are counted as this (every counting limit is far
/// below).
const MOST_PLIES: Score = 1_000;

/// The king moves in a row that end the game (7.2.5).
const KING_MOVES: usize = 30;

/// The score of a stored value with no plies to go.
fn score_of(v: u8) -> Score {
    match v {
        WIN => WON,
        LOSS => -WON,
        _ => 0,
    }
}

/// The mover's score for a move to a position of score `s` (for the side
/// to move there): one ply more, seen from the other side.
#[inline]
fn back(s: Score) -> Score {
    if s > 0 {
        (1 - s).min(MOST_PLIES - WON)
    } else if s < 0 {
        (-s - 1).max(WON - MOST_PLIES)
    } else {
        0
    }
}

/// The value of `s` under a limit of `limit` plies to the conversion.
pub(crate) fn value_within(s: Score, limit: u32) -> u8 {
    let plies = (WON - s.abs()) as u32;
    match s {
        _ if plies > limit => DRAW,
        s if s > 0 => WIN,
        s if s < 0 => LOSS,
        _ => DRAW,
    }
}

/// The plies to the conversion of every position of the pair `combos` (one
/// side when both are the same), with the count of king moves at zero, as
/// scores by side and index; the positions that are none score 0.
/// `done(n)` is told of the positions as they are finished.
pub(crate) fn solve_pair(
    variant: Variant,
    combos: [Combo; 2],
    finished: &Finished,
    done: &(dyn Fn(u64) + Sync),
) -> [Vec<Score>; 2] {
    let sides = if combos[0] == combos[1] { 1 } else { 2 };
    let mut score: [Vec<Score>; 2] = Default::default();
    for s in 0..sides {
        score[s] = vec![0; combos[s].size() as usize];
    }
    // The groups by how far the men have come; each group is a placement
    // seen from the first side and the same men seen from the other.
    let c = combos[0];
    let mut levels: Vec<Vec<Group>> = Vec::new();
    for n in 0..c.men_placements() {
        let Some((us, them)) = c.men_of(n) else {
            continue;
        };
        let other = if sides == 1 { 0 } else { 1 };
        let m = combos[other].men_index(super::index::turn(them), super::index::turn(us));
        let blocks = if sides == 1 && m == n {
            vec![(0, n)]
        } else if sides == 1 && m < n {
            continue;
        } else {
            vec![(0, n), (other, m)]
        };
        let level = ahead(us, true) + ahead(them, false);
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
        }
        levels[level].push(Group { blocks });
    }
    let kb = c.kings_block();
    debug_assert_eq!(kb, combos[1].kings_block());
    for level in levels.iter().rev() {
        let solved: Vec<Vec<Score>> = level
            .par_iter()
            .map(|g| {
                let out = g.solve(variant, combos, sides, finished, &score);
                done(out.len() as u64);
                out
            })
            .collect();
        for (g, out) in level.iter().zip(solved) {
            for (b, &(side, n)) in g.blocks.iter().enumerate() {
                let start = (n * kb) as usize;
                score[side][start..start + kb as usize]
                    .copy_from_slice(&out[b * kb as usize..(b + 1) * kb as usize]);
            }
        }
    }
    score
}

/// How far men have come: the ranks they stand on, counted from their own
/// side (`up`: ours, moving up; else theirs, moving down). A man's move
/// adds one.
fn ahead(mut men: u32, up: bool) -> usize {
    let mut a = 0;
    while men != 0 {
        let rank = (men.trailing_zeros() / 4) as usize;
        a += if up { rank } else { 7 - rank };
        men &= men - 1;
    }
    a
}

/// One placement of the men: its block of positions for each side to move
/// (side, men placement), once when both are the same.
struct Group {
    blocks: Vec<(usize, u64)>,
}

impl Group {
    /// The scores of the group's positions at count zero, block by block.
    fn solve(
        &self,
        variant: Variant,
        combos: [Combo; 2],
        sides: usize,
        finished: &Finished,
        score: &[Vec<Score>; 2],
    ) -> Vec<Score> {
        let kb = combos[0].kings_block();
        let len = self.blocks.len() * kb as usize;
        // Per position: the best score of the moves that leave the
        // placement (i16::MIN: none), and its king moves' positions here.
        let mut fixed = vec![Score::MIN; len];
        let mut stuck = vec![false; len];
        let mut first = Vec::with_capacity(len + 1);
        let mut kids: Vec<u32> = Vec::with_capacity(len * 8);
        let local = |side: usize, index: u64| -> Option<usize> {
            let n = index / kb;
            self.blocks
                .iter()
                .position(|&b| b == (side, n))
                .map(|b| b * kb as usize + (index % kb) as usize)
        };
        for (b, &(side, n)) in self.blocks.iter().enumerate() {
            let c = combos[side];
            let other = if sides == 1 { 0 } else { 1 - side };
            for j in 0..kb {
                first.push(kids.len() as u32);
                let at = b * kb as usize + j as usize;
                let slots = c
                    .decode(n * kb + j)
                    .expect("a placement's men on their own squares");
                let pos = slots.position_unkeyed(variant);
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    stuck[at] = true;
                    continue;
                }
                for m in moves.iter() {
                    let child: Position = pos.play(m);
                    let s = if m.is_capture() || m.promotes() {
                        score_of(finished_value(finished, &child))
                    } else {
                        let q = Slots::of(&child);
                        let i = combos[other].index(&q);
                        if pos.kings() & m.from().bb() != 0 {
                            kids.push(local(other, i).expect("a king's move keeps the men") as u32);
                            continue;
                        }
                        score[other][i as usize]
                    };
                    fixed[at] = fixed[at].max(back(s));
                }
            }
        }
        first.push(kids.len() as u32);
        // Count 30: a draw unless the side to move cannot move; then down
        // to count 0.
        let mut now: Vec<Score> = stuck.iter().map(|&s| if s { -WON } else { 0 }).collect();
        let mut next = now.clone();
        for _ in 0..KING_MOVES {
            std::mem::swap(&mut now, &mut next);
            for p in 0..len {
                if stuck[p] {
                    continue;
                }
                let mut best = fixed[p];
                for &q in &kids[first[p] as usize..first[p + 1] as usize] {
                    best = best.max(back(next[q as usize]));
                }
                now[p] = best;
            }
        }
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_count_plies_from_each_side() {
        // A loss with no plies to go, seen from the move before: a win in 1.
        assert_eq!(back(-WON), WON - 1);
        assert_eq!(back(WON - 1), 2 - WON);
        assert_eq!(back(0), 0);
        assert_eq!(value_within(WON - 60, 60), WIN);
        assert_eq!(value_within(WON - 61, 60), DRAW);
        assert_eq!(value_within(60 - WON, 60), LOSS);
        assert_eq!(value_within(61 - WON, 60), DRAW);
        assert_eq!(value_within(0, 60), DRAW);
        // Long lines stay long, within range.
        assert_eq!(back(back(WON - MOST_PLIES)), WON - MOST_PLIES);
    }
}

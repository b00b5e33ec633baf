//! Repetitions and the draw rules along the search path: which moves no
//! later position can undo, the keys of the game and the path with the
//! first position each one can repeat, what a repeated position is worth,
//! and the draw-rule counters of every node.

use super::score::count_score;
use super::worker::Worker;
use crate::game::{DrawState, Game};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{with_rules, Rules, Scoring};

/// Whether no later position can repeat one before `m` is played in `pos`:
/// in Russian and Brazilian a capture or a man's move (the pieces only
/// decrease and men only go forward). Adiyukh towers can return by captures,
/// so nothing counts there.
#[inline(always)]
pub(super) fn irreversible<R: Rules>(pos: &Position, m: &Move) -> bool {
    !R::TOWERS && (m.is_capture() || pos.kings & m.from().bb() == 0)
}

/// Index in the game's positions of the first one the current position can
/// repeat (see [`irreversible`]).
pub(super) fn first_repeatable(game: &Game) -> usize {
    with_rules!(game.variant(), R => {
        let positions = game.positions();
        game.moves()
            .iter()
            .enumerate()
            .rev()
            .find(|(i, m)| irreversible::<R>(&positions[*i], m))
            .map_or(0, |(i, _)| i + 1)
    })
}

/// The value of a repeated position.
#[inline]
pub(super) fn repetition_score<R: Rules>(pos: &Position) -> i32 {
    match R::FLAGS.scoring {
        Scoring::NoMoveLoses => 0,
        Scoring::HalfBoardCount => count_score(pos),
    }
}

impl<'a> Worker<'a> {
    /// Push the draw-rule counters of `child`, reached from `pos` by `m`,
    /// to be searched at most `depth` plies deep. At depth 0 (quiescence)
    /// they are never read: placeholders stand in for them.
    #[inline]
    pub(super) fn push_draw<R: Rules>(
        &mut self,
        pos: &Position,
        m: &Move,
        child: &Position,
        depth: i32,
    ) {
        // A leaf the tables cover needs its counters too (are they at zero?).
        let next = if R::FLAGS.scoring == Scoring::NoMoveLoses
            && (depth > 0 || child.occupied().count_ones() <= self.s.tb_pieces)
        {
            let prev = self.draws.last().expect("the root's counters");
            DrawState::after(Some((prev, pos, m)), child)
        } else {
            DrawState::default()
        };
        self.draws.push(next);
    }

    /// Whether a draw rule of rules/russian.md has come into force at the
    /// current node (the side to move has a move).
    pub(super) fn draw_rule_applies<R: Rules>(&self, pos: &Position) -> bool {
        R::FLAGS.scoring == Scoring::NoMoveLoses
            && self.draws.last().is_some_and(|d| d.in_force(pos))
    }

    /// Enter `child`, reached from `pos` by `m`, on the path of keys.
    #[inline(always)]
    pub(super) fn push_key<R: Rules>(&mut self, pos: &Position, m: Move, child: &Position) {
        let n = self.keys.len();
        self.keys.push(child.key());
        if !R::TOWERS {
            let first = if irreversible::<R>(pos, &m) {
                n
            } else {
                *self.repeatable.last().expect("the root's entry")
            };
            self.repeatable.push(first);
        }
    }

    /// Leave the position entered last.
    #[inline(always)]
    pub(super) fn pop_key<R: Rules>(&mut self) {
        self.keys.pop();
        if !R::TOWERS {
            self.repeatable.pop();
        }
    }

    /// Whether the position just reached repeats one earlier in the game
    /// or the search path with the same side to move.
    pub(super) fn repeated<R: Rules>(&self) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let first = if R::TOWERS {
            0
        } else {
            *self.repeatable.last().expect("the root's entry") as isize
        };
        let mut i = n as isize - 3;
        while i >= first {
            if self.keys[i as usize] == key {
                return true;
            }
            i -= 2;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn game(variant: Variant, text: &str, moves: &[&str]) -> Game {
        let mut g = Game::from_text(variant, text).expect("a valid position");
        for m in moves {
            g.play_text(m).expect("a legal move");
        }
        g
    }

    #[test]
    fn repetitions_are_looked_for_back_to_the_last_irreversible_move() {
        let text = "W:WKc1,g1:BKf8,a7";
        // King moves only: every position of the game may come back.
        let g = game(
            Variant::Russian,
            text,
            &["c1-d2", "f8-e7", "d2-c1", "e7-f8"],
        );
        assert_eq!(first_repeatable(&g), 0);
        // A man's move, then king moves: nothing before the man's move.
        let g = game(
            Variant::Russian,
            text,
            &["g1-h2", "f8-e7", "c1-d2", "e7-f8"],
        );
        assert_eq!(first_repeatable(&g), 1);
        // A capture, even by a king, cannot be undone.
        let g = game(
            Variant::Brazilian,
            "W:WKc1,g1:BKf8,a7,e3",
            &["c1:f4", "f8-e7", "f4-c1", "e7-f8"],
        );
        assert_eq!(first_repeatable(&g), 1);
        // Adiyukh: towers can come back by captures, so the whole game counts.
        let g = game(Variant::Adiyukh64, "startpos", &["c3-d4", "f6-e5"]);
        assert_eq!(first_repeatable(&g), 0);
    }
}

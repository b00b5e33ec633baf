//! Perft: the number of leaf positions `depth` plies deep, distinct moves
//! only (the rule book's convention), serial or split across threads with
//! rayon.

use crate::board::Color;
use crate::movegen::{self, BlackToMove, Side, WhiteToMove};
use crate::position::{Men, Position};
use crate::variant::{with_rules, Rules};
use rayon::prelude::*;

/// Perft of `pos` to `depth`, on the calling thread.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match (crate::board::has_popcnt(), pos.side_to_move()) {
        (true, Color::White) => {
            with_rules!(pos.variant(), R => perft_with::<R, true, WhiteToMove>(pos, depth))
        }
        (true, Color::Black) => {
            with_rules!(pos.variant(), R => perft_with::<R, true, BlackToMove>(pos, depth))
        }
        (false, Color::White) => {
            with_rules!(pos.variant(), R => perft_with::<R, false, WhiteToMove>(pos, depth))
        }
        (false, Color::Black) => {
            with_rules!(pos.variant(), R => perft_with::<R, false, BlackToMove>(pos, depth))
        }
    }
}

/// Perft for a known variant and side to move `S`: the recursion calls the
/// generator and make of that variant directly (without the Zobrist key,
/// which perft never reads). The last ply is counted, not played, and the
/// plies above it count their children's moves without a call per child.
/// `P`: the `popcnt` instruction may be used (`board::has_popcnt`).
fn perft_with<R: Rules, const P: bool, S: Side>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count::<R, P>(pos) as u64,
        _ => {
            let mut total = 0;
            movegen::for_each_move::<R, S>(
                pos,
                #[inline(always)]
                |m| {
                    total += if depth == 2 && !R::TOWERS {
                        // Men and kings: the child's pieces are all the
                        // count needs, and most children count quickly.
                        let side = S::COLOR; // a constant
                        let child = Men { side, ..pos.men() }.after(m);
                        let n = match movegen::count_men_quick::<R, P, S::Other>(&child) {
                            Some(n) => n,
                            None => movegen::count_men::<R, P, S::Other>(child),
                        };
                        n as u64
                    } else {
                        let mut child = *pos;
                        child.make_unkeyed::<R>(m);
                        if depth == 2 {
                            movegen::count::<R, P>(&child) as u64
                        } else {
                            perft_with::<R, P, S::Other>(&child, depth - 1)
                        }
                    };
                },
            );
            total
        }
    }
}

/// Perft of `pos` to `depth` on rayon's thread pool: the tree is split two
/// plies deep so the work divides evenly.
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth <= 3 {
        return perft(pos, depth);
    }
    let mut tasks = Vec::new();
    for m in pos.legal_moves().iter() {
        let child = pos.play(m);
        for m2 in child.legal_moves().iter() {
            tasks.push(child.play(m2));
        }
    }
    tasks.par_iter().map(|p| perft(p, depth - 2)).sum()
}

/// Perft of each root move: `(move, count)` in generation order.
pub fn divide(pos: &Position, depth: u32, parallel: bool) -> Vec<(crate::Move, u64)> {
    let moves = pos.legal_moves();
    let sub = depth.saturating_sub(1);
    let count = |m: &crate::Move| {
        let child = pos.play(m);
        if parallel {
            perft_parallel(&child, sub)
        } else {
            perft(&child, sub)
        }
    };
    if parallel {
        moves.par_iter().map(|m| (*m, count(m))).collect()
    } else {
        moves.iter().map(|m| (*m, count(m))).collect()
    }
}

//! The score scale: a win and its bound, the band of table wins below it
//! (`TB_*`, with the progress that ranks them), what the search gives a
//! position without a move and a position the tables value, the scores as
//! reported ([`Score`]), and the conversion of win scores to and from the
//! transposition table (stored relative to the node, not the root).

use crate::egdb::{Verdict, Wdl};
use crate::eval;
use crate::eval::weights::Weights;
use crate::position::Position;
use crate::variant::{Rules, Scoring};

/// A won game, before subtracting the plies to reach it.
pub const WIN: i32 = 30_000;
/// Scores at or beyond this are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// A win the endgame tables prove, at most: `TB_WIN - TB_SPREAD`, less the
/// plies to reach it, plus a rank within `TB_SPREAD` either way (see
/// `tb_score`).
pub const TB_WIN: i32 = 28_000;
/// The most material [`progress`] counts (8 pieces, all men).
const MATERIAL_MAX: i32 = 9 * 8 + 8;
const TB_PROGRESS_MAX: i32 = MATERIAL_MAX * 256 + 255;
const TB_SPREAD: i32 = (TB_PROGRESS_MAX + 1) / 2;
/// The evaluation's part of a table win's score when the plies are unknown.
const TB_EVAL_SPREAD: i32 = 800;
/// Scores at or beyond this (below [`WIN_BOUND`]) are table wins.
pub const TB_BOUND: i32 = TB_WIN - 2 * TB_SPREAD - MAX_PLY as i32 - 10;
/// A leaf the tables call won with counters already running (won or
/// drawn): this plus the evaluation, kept above a draw and below a proven
/// win (and the negative for a lost one).
const TB_LIKELY: i32 = 1_200;
const TB_LIKELY_MAX: i32 = TB_BOUND - 1_000;
pub(super) const INF: i32 = 32_000;
/// Deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// A score as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-men (Russian, Brazilian) or hundredths of a point of the
    /// expected final score difference (Adiyukh).
    Cp(i32),
    /// The side to move wins in this many of its moves.
    Win(u32),
    /// The side to move loses in this many of its moves.
    Loss(u32),
}

impl Score {
    /// The report of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= WIN_BOUND {
            Score::Win(((WIN - s) as u32).div_ceil(2))
        } else if s <= -WIN_BOUND {
            Score::Loss(((WIN + s) as u32).div_ceil(2))
        } else {
            Score::Cp(s)
        }
    }
}

/// The score of a position where the side to move has no move.
#[inline]
pub(super) fn terminal_score<R: Rules>(pos: &Position, ply: usize) -> i32 {
    match R::FLAGS.scoring {
        Scoring::NoMoveLoses => -(WIN - ply as i32),
        Scoring::HalfBoardCount => count_score(pos),
    }
}

/// Adiyukh: the count difference from the side to move's view, x100.
pub(super) fn count_score(pos: &Position) -> i32 {
    let (w, b) = pos.half_board_score();
    let diff = (w as i32 - b as i32) * 100;
    match pos.side_to_move() {
        crate::Color::White => diff,
        crate::Color::Black => -diff,
    }
}

/// How far a table win of `pos` has come, higher the nearer its end, from
/// the plies to the conversion (`plies`, see [`Tables::plies`](crate::egdb::Tables::plies)): fewer
/// pieces first, then fewer men, then fewer plies to the next conversion.
/// Along the winner's line it only grows (each move shortens the way to
/// the conversion, each conversion takes a piece or crowns a man), so a
/// search that maximises it makes progress and never goes round. At most
/// [`TB_PROGRESS_MAX`].
fn progress(pos: &Position, plies: u8) -> i32 {
    let occupied = pos.occupied();
    let men = (occupied & !pos.kings()).count_ones() as i32;
    let material = 9 * occupied.count_ones() as i32 + men;
    (MATERIAL_MAX - material) * 256 + (255 - plies as i32)
}

/// The score of an exact table value of `pos` at `ply`. With the plies to
/// the conversion (`plies`), wins rank by [`progress`], so that the winner
/// heads for the end and the loser holds out longest; without them (a
/// folder built before there were any) the evaluation (clamped) ranks
/// first, as a win with more in hand is the easier one to finish inside
/// the counting rules. Then the fewer plies to reach it.
#[inline]
pub(super) fn tb_score(
    wdl: Wdl,
    ply: usize,
    pos: &Position,
    plies: Option<u8>,
    weights: &Weights,
) -> i32 {
    let base = TB_WIN - TB_SPREAD - ply as i32;
    // The winner's rank, from the side to move's evaluation without plies.
    let rank = |sign: i32| match plies {
        Some(d) => progress(pos, d) - TB_SPREAD,
        None => sign * eval::evaluate_with(pos, weights).clamp(-TB_EVAL_SPREAD, TB_EVAL_SPREAD),
    };
    match wdl {
        Wdl::Win => base + rank(1),
        Wdl::Draw => 0,
        Wdl::Loss => -base - rank(-1),
    }
}

/// The score of a leaf the tables call won (`won`) or lost while counters
/// run: above a draw and below a proven win (or the mirror), ordered by
/// [`progress`] when the plies are known, else by the evaluation, which
/// shows the winner the way as it does without tables.
pub(super) fn tb_likely(pos: &Position, plies: Option<u8>, weights: &Weights, won: bool) -> i32 {
    // The winner's rank, as for `tb_score`.
    let sign = if won { 1 } else { -1 };
    let e = match plies {
        Some(d) => progress(pos, d) / 8,
        None => sign * eval::evaluate_with(pos, weights),
    };
    sign * (TB_LIKELY + e).clamp(1, TB_LIKELY_MAX)
}

/// The score the search gives a position the tables value (`verdict`,
/// with `plies` to the conversion) `ply` plies from where it looks.
pub(super) fn table_score(
    verdict: Verdict,
    pos: &Position,
    plies: Option<u8>,
    weights: &Weights,
    ply: usize,
) -> i32 {
    match verdict {
        Verdict::Exact(w) => tb_score(w, ply, pos, plies, weights),
        Verdict::AtLeastDraw => tb_likely(pos, plies, weights, true),
        Verdict::AtMostDraw => tb_likely(pos, plies, weights, false),
    }
}

/// Scores of wins (and table wins) are stored relative to the node, not
/// the root.
pub(super) fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-INF, INF) as i16
}

pub(super) fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= TB_BOUND {
        s - ply as i32
    } else if s <= -TB_BOUND {
        s + ply as i32
    } else {
        s
    }
}

//! The endgame tables at the root and in the lines shown: the root moves
//! that keep a table win, root moves whose value the first ply settles,
//! and a search's line continued along the tables to the conversion, with
//! its score in moves to it.

use super::alphabeta::MAX_QUIESCENCE;
use super::repetition::irreversible;
use super::score::{table_score, Score, INF, TB_BOUND, WIN, WIN_BOUND};
use super::Info;
use crate::egdb::{Tables, Verdict, Wdl};
use crate::eval;
use crate::eval::weights::Weights;
use crate::game::{DrawState, Game};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::with_rules;

/// Whether the move that led to `child` keeps a table win: the opponent
/// has no move, or the table gives him a loss. A move that wins under the
/// real counters is one of these, as a running counter only helps the
/// side that would lose with every counter at zero.
pub(super) fn keeps_win(tables: &Tables, child: &Position) -> bool {
    tables.probe(child) == Some(Wdl::Loss) || child.legal_moves().is_empty()
}

/// Whether the value of the root move `m` of `game` is the same in every
/// iteration from the second on, where the search reaches its position
/// with depth to spare and ends it before looking at the depth: the
/// position ends the game, repeats one of the game (see
/// [`Worker::repeated`](super::worker::Worker::repeated)), has a draw rule in force, or has an exact table
/// value (at most `tb_pieces` pieces) under the counters the move leaves.
pub(super) fn settled_at_once(
    tables: &Tables,
    tb_pieces: u32,
    game: &Game,
    first_repeatable: usize,
    m: &Move,
) -> bool {
    let root = game.position();
    let child = root.play(m);
    if child.legal_moves().is_empty() {
        return true;
    }
    let reversible = with_rules!(root.variant(), R => !irreversible::<R>(root, m));
    // The positions since the last irreversible move with the child's side
    // to move: every second one back from the root's parent.
    let key = child.key();
    if reversible
        && game.positions()[first_repeatable..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .any(|p| p.key() == key)
    {
        return true;
    }
    let draws = DrawState::after(Some((&game.draw_state(), root, m)), &child);
    if draws.in_force(&child) {
        return true;
    }
    child.occupied().count_ones() <= tb_pieces
        && matches!(
            tables.verdict(&child, Some(&draws)),
            Some((_, Verdict::Exact(_), _))
        )
}

/// The longest line shown along the tables, in plies from the root.
const TABLE_LINE_MAX: usize = 200;

/// A search's line continued along the tables.
pub(super) struct TableLine {
    pub(super) moves: Vec<Move>,
    /// Plies from the root to the conversion (see [`table_line`]).
    plies: u32,
}

/// The line `pv` of a search of `game` that scored `score`, continued
/// along the tables when the score is a win or a loss they prove: from the
/// end of `pv` (through the forced captures the quiescence search followed,
/// when `pv` ends outside the tables), which the tables must value
/// exactly, at each position the move the search scores best there by the
/// tables (the winner's nearest the conversion, the loser's farthest from
/// it), through every conversion, while the tables give an exact win or
/// loss with its plies, until the game ends or the line is
/// [`TABLE_LINE_MAX`] plies long. With it the plies from the root to the
/// conversion: the plies to the line's first position the tables value
/// exactly (the root, when they do) plus its plies to the conversion.
/// `None` when the score is no proven table win or loss, or the line
/// reaches no such position.
pub(super) fn table_line(
    tables: &Tables,
    tb_pieces: u32,
    weights: &Weights,
    game: &Game,
    score: i32,
    pv: &[Move],
) -> Option<TableLine> {
    if !(TB_BOUND..WIN_BOUND).contains(&score.abs()) {
        return None;
    }
    let covered = |p: &Position| p.occupied().count_ones() <= tb_pieces;
    let mut g = game.clone();
    for m in pv {
        g.play(m).ok()?;
    }
    if !covered(g.position()) {
        let (_, captures) = captures_into_tables(tables, tb_pieces, weights, &mut g, 0);
        for m in &captures {
            g.play(m).ok()?;
        }
    }
    let exact = |g: &Game| match tables.verdict(g.position(), Some(&g.draw_state())) {
        Some((_, Verdict::Exact(w @ (Wdl::Win | Wdl::Loss)), Some(d))) => Some((w, d)),
        _ => None,
    };
    if !covered(g.position()) {
        return None;
    }
    exact(&g)?;
    // The first position of the line the tables value exactly (the root,
    // when they do), and its plies to the conversion.
    let start = game.moves().len();
    let mut first = game.clone();
    let (before, wdl, to_go) = loop {
        let at = first.moves().len() - start;
        if covered(first.position()) {
            if let Some((w, d)) = exact(&first) {
                break (at, w, d);
            }
        }
        first.play(&g.moves()[start + at]).ok()?;
    };
    // The root's side to move is the table's winner when an even number of
    // plies separates them and he is to move there, or an odd number and
    // his opponent loses there.
    if ((wdl == Wdl::Win) == (before % 2 == 0)) != (score > 0) {
        return None;
    }
    let plies = (before + to_go as usize) as u32;
    while g.moves().len() - start < TABLE_LINE_MAX && g.outcome().is_none() && exact(&g).is_some() {
        let Some(m) = best_by_tables(tables, weights, &mut g) else {
            break;
        };
        g.play(&m).ok()?;
    }
    Some(TableLine {
        moves: g.moves()[start..].to_vec(),
        plies,
    })
}

/// The move of the current position of `g` (one the tables cover) that the
/// search scores best from the tables' values of the positions it leads to.
fn best_by_tables(tables: &Tables, weights: &Weights, g: &mut Game) -> Option<Move> {
    let pos = *g.position();
    let mut best: Option<(i32, Move)> = None;
    for m in pos.legal_moves().iter() {
        if g.play(m).is_err() {
            continue;
        }
        let child = *g.position();
        let value = if child.legal_moves().is_empty() {
            WIN
        } else if g.outcome().is_some() {
            0
        } else {
            match tables.verdict(&child, Some(&g.draw_state())) {
                Some((_, v, plies)) => -table_score(v, &child, plies, weights, 0),
                None => -INF,
            }
        };
        g.undo();
        if best.map_or(true, |(b, _)| value > b) {
            best = Some((value, *m));
        }
    }
    best.map(|(_, m)| m)
}

/// The quiescence search's line from the current position of `g`: forced
/// captures until a position the tables cover (at most `tb_pieces`
/// pieces), a quiet one or the end of the game, with its score for the
/// side to move.
fn captures_into_tables(
    tables: &Tables,
    tb_pieces: u32,
    weights: &Weights,
    g: &mut Game,
    ply: usize,
) -> (i32, Vec<Move>) {
    let pos = *g.position();
    if pos.occupied().count_ones() <= tb_pieces {
        if let Some((_, v, plies)) = tables.verdict(&pos, Some(&g.draw_state())) {
            return (table_score(v, &pos, plies, weights, ply), Vec::new());
        }
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return (-(WIN - ply as i32), Vec::new());
    }
    if g.outcome().is_some() {
        return (0, Vec::new());
    }
    if !moves[0].is_capture() || ply as i32 >= MAX_QUIESCENCE {
        return (eval::evaluate_with(&pos, weights), Vec::new());
    }
    let mut best = (-INF, Vec::new());
    for m in moves.iter() {
        if g.play(m).is_err() {
            continue;
        }
        let (v, line) = captures_into_tables(tables, tb_pieces, weights, g, ply + 1);
        g.undo();
        if -v > best.0 {
            best = (-v, std::iter::once(*m).chain(line).collect());
        }
    }
    best
}

/// `info` with its line continued along the tables and its score in moves
/// to the conversion, when it is a win or a loss the tables prove (see
/// [`table_line`]).
pub(super) fn along_tables(
    tables: &Tables,
    tb_pieces: u32,
    weights: &Weights,
    game: &Game,
    info: &Info,
) -> Option<Info> {
    let Score::Cp(score) = info.score else {
        return None;
    };
    let line = table_line(tables, tb_pieces, weights, game, score, &info.pv)?;
    let n = line.plies.div_ceil(2);
    Some(Info {
        score: if score > 0 {
            Score::Win(n)
        } else {
            Score::Loss(n)
        },
        tb: true,
        pv: line.moves,
        ..info.clone()
    })
}

//! The alpha-beta of one thread: the root moves, a principal variation
//! search with late move reductions (Russian and Brazilian: by the
//! logarithms of depth and move number, one ply more where the side to
//! move is not improving on its static value two plies up), reverse
//! futility (a smaller margin where it is improving; the table's score in
//! place of the static value where its bound says it is beyond it) and
//! ProbCut (not where the table holds a search nearly as deep below its
//! bound) (Russian and Brazilian) and the table's cuts, the endgame
//! tables probed at the nodes they cover, move ordering (the table's
//! move, captures, promotions, killers, history raised by a cut and, in
//! Russian and Brazilian, lowered for the quiet moves searched before it
//! and kept, halved, from one search of a game to the next), moves
//! another thread is searching put off, and the quiescence search that
//! follows forced captures (Russian and Brazilian: those that take the
//! most first, kings counting double) and, once on a line (Russian and
//! Brazilian), searches the moves of a quiet leaf the opponent threatens
//! to capture in.

use super::knobs;
use super::repetition::repetition_score;
use super::score::{from_tt, tb_likely, tb_score, terminal_score, to_tt, INF, MAX_PLY, TB_BOUND};
use super::worker::{Worker, BUSY_MIN_DEPTH, NO_EVAL};
use crate::egdb::Verdict;
use crate::eval;
use crate::movegen::{self, Forcing};
use crate::moves::{Move, StackTop};
use crate::position::Position;
use crate::tt::{Bound, Entry};
use crate::variant::Rules;
use smallvec::SmallVec;

/// Longest run of forced captures the quiescence search follows (tower
/// kings can capture back and forth for a long time).
pub(super) const MAX_QUIESCENCE: i32 = 24;

/// Bound of a history score either way.
const HISTORY_MAX: i32 = 1 << 20;

/// The first entry of `order[from..]` with the highest ordering score.
#[inline(always)]
fn best_from(order: &[(i32, u16)], from: usize) -> usize {
    let mut j = from;
    for k in from + 1..order.len() {
        if order[k].0 > order[j].0 {
            j = k;
        }
    }
    j
}

/// Plies a late quiet move `i` (from 0, in search order) of a node of
/// `depth` is searched less deep: growing with the logarithms of both, one
/// less at a node of the principal variation, one more where the side to
/// move is not `improving`, and at least one ply left. Adiyukh keeps the
/// reductions it was measured with: one ply, two from the ninth move at
/// depth 5 or more.
#[inline]
fn reduction<R: Rules>(depth: i32, i: usize, pv_node: bool, improving: bool) -> i32 {
    if R::TOWERS {
        return 1 + (i >= 8 && depth >= 5) as i32;
    }
    static TABLE: once_cell::sync::Lazy<[[u8; 64]; 64]> = once_cell::sync::Lazy::new(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (knobs::lmr_base() + (d as f64).ln() * (i as f64).ln() / knobs::lmr_divisor())
                    as u8;
            }
        }
        t
    });
    let r =
        i32::from(TABLE[(depth as usize).min(63)][i.min(63)]) - pv_node as i32 + !improving as i32;
    r.clamp(0, depth - 2)
}

/// The first move (from 0, in search order) a late move reduction may
/// reduce: [`knobs::lmr_first`] in Russian and Brazilian, the fourth in
/// Adiyukh (as it was measured).
#[inline(always)]
fn first_reduced<R: Rules>() -> usize {
    if R::TOWERS {
        3
    } else {
        knobs::lmr_first()
    }
}

/// A quiet node's static value `eval`, or the table's score of the node
/// where the entry's bound says the true score is beyond it on that side
/// (not a score of the endgame tables or of a game's end).
#[inline]
fn refined(eval: i32, entry: Option<Entry>, ply: usize) -> i32 {
    let Some(e) = entry else { return eval };
    let s = from_tt(e.score, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if beyond && s.abs() < TB_BOUND {
        s
    } else {
        eval
    }
}

/// The position after `m` (copy-make).
#[inline(always)]
fn play<R: Rules>(pos: &Position, m: &Move) -> Position {
    let mut child = *pos;
    child.make_with::<R>(m);
    child
}

impl<'a> Worker<'a> {
    /// The tables' verdict on `pos`, a node of the search whose counters
    /// are the last pushed (`fresh`: reached by a capture, whose counters
    /// are at zero, where they were not pushed), if the tables cover it,
    /// with the plies to the conversion of a win or a loss (when known).
    #[inline]
    fn probe<R: Rules>(&mut self, pos: &Position, fresh: bool) -> Option<(Verdict, Option<u8>)> {
        if R::TOWERS || pos.occupied().count_ones() > self.s.tb_pieces {
            return None;
        }
        let draws = if fresh {
            None
        } else {
            Some(self.draws.last()?)
        };
        let tables = self.s.tables?;
        let (_, verdict, plies) = tables.verdict(pos, draws)?;
        self.tbhits += 1;
        Some((verdict, plies))
    }

    /// Search the root moves; the best is moved to the front.
    pub(super) fn root_search<R: Rules>(
        &mut self,
        pos: &Position,
        roots: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv[0].clear();
        let captures = roots.first().map_or(true, |m| m.is_capture());
        self.evals[0] = self.static_value::<R>(pos, captures);
        // As in `negamax_node`: a root move whose position another thread is
        // searching is put off to the end. `order` lists the moves as they
        // stood at the start; a new best is brought to the front of `roots`.
        let busy = self.s.busy.filter(|_| depth >= BUSY_MIN_DEPTH);
        let order: SmallVec<[Move; 32]> = roots.iter().copied().collect();
        let mut deferred: SmallVec<[usize; 32]> = SmallVec::new();
        let mut next = 0;
        let mut later = 0;
        loop {
            let (i, put_off) = if next < order.len() {
                next += 1;
                (next - 1, false)
            } else if later < deferred.len() {
                later += 1;
                (deferred[later - 1], true)
            } else {
                break;
            };
            let m = order[i];
            let child = play::<R>(pos, &m);
            let child_key = child.key();
            if let Some(b) = busy {
                if i > 0 && !put_off && b.taken(child_key) {
                    deferred.push(i);
                    continue;
                }
                b.enter(child_key);
            }
            self.push_key::<R>(pos, m, &child);
            self.push_draw::<R>(pos, &m, &child, depth - 1);
            let score = if i == 0 {
                -self.negamax::<R>(&child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.negamax::<R>(&child, depth - 1, -alpha - 1, -alpha, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax::<R>(&child, depth - 1, -beta, -alpha, 1, true);
                }
                s
            };
            if let Some(b) = busy {
                b.leave(child_key);
            }
            self.pop_key::<R>();
            self.draws.pop();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                let at = if put_off {
                    roots.iter().position(|r| r.same_result(&m)).unwrap_or(i)
                } else {
                    // Only moves before `i` have moved (to the front), and
                    // the deferred ones among them stayed in order.
                    i
                };
                roots[..=at].rotate_right(1);
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The static value of a node for [`Worker::evals`]: the evaluation
    /// where no capture is forced (Russian, Brazilian), else [`NO_EVAL`].
    #[inline]
    fn static_value<R: Rules>(&self, pos: &Position, captures: bool) -> i32 {
        if R::TOWERS || captures {
            NO_EVAL
        } else {
            eval::evaluate_with(pos, self.s.weights)
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// The score of `pos` searched `depth` plies deep within (alpha, beta).
    fn negamax<R: Rules>(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        let (base, order_base) = (self.stack.len(), self.order.len());
        let score = self.negamax_node::<R>(pos, depth, alpha, beta, ply, pv_node);
        self.stack.truncate(base);
        self.order.truncate(order_base);
        score
    }

    /// [`Worker::negamax`] without giving back the move stack.
    fn negamax_node<R: Rules>(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.repeated::<R>() {
            return repetition_score::<R>(pos);
        }
        if depth <= 0 {
            return self.quiescence::<R>(pos, alpha, beta, ply, 0, true);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = pos.key();
        let entry = self.s.tt.probe(key);
        // A table cut needs no moves: a position without moves is never
        // stored, and the draw rules and the ply limit, which come before
        // the table, are looked at here.
        let in_play = ply < MAX_PLY && !self.draw_rule_applies::<R>(pos);
        if in_play {
            match self.probe::<R>(pos, false) {
                Some((Verdict::Exact(wdl), plies)) => {
                    return tb_score(wdl, ply, pos, plies, self.s.weights)
                }
                Some((Verdict::AtLeastDraw, _)) if beta <= 0 => return 0,
                Some((Verdict::AtMostDraw, _)) if alpha >= 0 => return 0,
                _ => {}
            }
        }
        if let Some(e) = entry.filter(|e| in_play && !pv_node && e.depth as i32 >= depth) {
            let s = from_tt(e.score, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }
        // ProbCut: where a shallow search already clears beta by a wide
        // margin, the full one almost surely would; a non-PV node takes the
        // cut. Not tried where the table holds a search nearly as deep whose
        // score stays below that margin.
        let margin = knobs::probcut_margin();
        if in_play
            && !R::TOWERS
            && !pv_node
            && depth >= knobs::probcut_depth()
            && beta.abs() < TB_BOUND - margin
            && !entry.is_some_and(|e| {
                e.depth as i32 >= depth - 3 && from_tt(e.score, ply) < beta + margin
            })
        {
            let bound = beta + margin;
            let reduced = depth - knobs::probcut_reduction();
            let s = self.negamax::<R>(pos, reduced, bound - 1, bound, ply, false);
            if self.stopped {
                return 0;
            }
            if s >= bound {
                return s;
            }
        }
        let base = self.stack.len();
        let mut top = StackTop {
            stack: &mut self.stack,
            base,
        };
        movegen::gen::<R, true, _>(pos, &mut top);
        let n = self.stack.len() - base;
        if n == 0 {
            return terminal_score::<R>(pos, ply);
        }
        if !in_play {
            // A draw rule in force (7.2.4-7.2.8) ends the game here; at the
            // ply limit the evaluation stands.
            return if ply >= MAX_PLY {
                eval::evaluate_with(pos, self.s.weights)
            } else {
                0
            };
        }
        let captures = self.stack[base].is_capture();
        // The static value of a quiet node (Russian, Brazilian), and whether
        // the side to move is improving: its value is above that of its last
        // node on the path (two plies up), or that one had a capture forced.
        let static_eval = self.static_value::<R>(pos, captures);
        self.evals[ply] = static_eval;
        let improving = static_eval != NO_EVAL
            && (ply < 2 || self.evals[ply - 2] == NO_EVAL || static_eval > self.evals[ply - 2]);
        // Reverse futility: at a quiet node near the leaves whose value is
        // far enough above beta (less far where the side is improving), with
        // no threat against the side to move, the search would find a cut;
        // it is taken at once. The value is the static one, or the table's
        // score where its bound says the static one is on the wrong side.
        if !R::TOWERS && !pv_node && depth <= knobs::futility_depth() && n > 1 && !captures {
            let margin = knobs::futility_margin() * depth
                - improving as i32 * knobs::futility_margin() / knobs::futility_improving_divisor();
            let value = refined(static_eval, entry, ply);
            if beta.abs() < TB_BOUND - margin
                && value - margin >= beta
                && !movegen::threatened::<R>(pos)
            {
                return value - margin;
            }
        }
        if depth > 1 {
            // Every child probes the table first thing: start the loads of
            // their buckets now, together, so they overlap.
            for m in &self.stack[base..] {
                self.s.tt.prefetch(pos.key_after::<R>(m));
            }
        }
        let tt_index = entry
            .and_then(|e| e.move_index.map(|i| (usize::from(i), e.move_from)))
            .and_then(|(i, from)| (i < n && self.stack[base + i].from().0 == from).then_some(i));
        // A forced reply costs no depth.
        let depth = if n == 1 && ply < MAX_PLY / 2 {
            depth + 1
        } else {
            depth
        };
        let side = pos.side_to_move().index();
        // (ordering score, index in the generator's order) per move.
        let order_base = self.order.len();
        let (killers, history) = (&self.killers[ply], &self.memory.history[side]);
        self.order
            .extend(self.stack[base..].iter().enumerate().map(|(i, m)| {
                let score = if Some(i) == tt_index {
                    1 << 30
                } else if m.is_capture() {
                    (1 << 28) + 1000 * m.capture_count() as i32 + m.promotes() as i32
                } else if m.promotes() {
                    1 << 27
                } else if killers.iter().flatten().any(|k| k.same_result(m)) {
                    1 << 26
                } else {
                    history[m.from().index() & 63][m.to().index() & 63]
                };
                (score, i as u16)
            }));
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_index = 0usize;
        // Moves whose position another thread is searching, put off to the
        // end (ABDADA's idea): (ordinal, index in the generator's order).
        let busy = self.s.busy.filter(|_| depth >= BUSY_MIN_DEPTH);
        let mut deferred: SmallVec<[(usize, usize); 16]> = SmallVec::new();
        // The quiet moves searched without a cut, (from, to): a cut by a
        // later quiet move lowers their history.
        let mut tried: SmallVec<[(usize, usize); 32]> = SmallVec::new();
        let mut next = 0;
        let mut later = 0;
        loop {
            let (i, index, put_off) = if next < n {
                // Selection sort: take the best remaining move.
                let i = next;
                next += 1;
                let order = &mut self.order[order_base..order_base + n];
                let j = best_from(order, i);
                order.swap(i, j);
                (i, order[i].1 as usize, false)
            } else if later < deferred.len() {
                later += 1;
                let (i, index) = deferred[later - 1];
                (i, index, true)
            } else {
                break;
            };
            let m = self.stack[base + index];
            let child = play::<R>(pos, &m);
            let child_key = child.key();
            if let Some(b) = busy {
                if i > 0 && !put_off && b.taken(child_key) {
                    deferred.push((i, index));
                    continue;
                }
                b.enter(child_key);
            }
            self.push_key::<R>(pos, m, &child);
            // No search of the child goes deeper than depth - 1.
            self.push_draw::<R>(pos, &m, &child, depth - 1);
            let quiet = !captures && !m.promotes();
            let score = if i == 0 {
                -self.negamax::<R>(&child, depth - 1, -beta, -alpha, ply + 1, pv_node)
            } else {
                let r = if quiet && depth >= 3 && i >= first_reduced::<R>() {
                    reduction::<R>(depth, i, pv_node, improving)
                } else {
                    0
                };
                let mut s =
                    -self.negamax::<R>(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax::<R>(&child, depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = -self.negamax::<R>(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if let Some(b) = busy {
                b.leave(child_key);
            }
            self.pop_key::<R>();
            self.draws.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_index = index;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if !k[0].is_some_and(|x| x.same_result(&m)) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let bonus = depth * depth;
                            let h = &mut self.memory.history[side][m.from().index() & 63]
                                [m.to().index() & 63];
                            *h = (*h + bonus).min(HISTORY_MAX);
                            for &(from, to) in &tried {
                                let h = &mut self.memory.history[side][from][to];
                                *h = (*h - bonus).max(-HISTORY_MAX);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && !R::TOWERS {
                tried.push((m.from().index() & 63, m.to().index() & 63));
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let chosen = self.stack[base + best_index];
        let index = u8::try_from(best_index).ok();
        self.s.tt.store(
            key,
            Entry {
                move_index: index,
                move_from: chosen.from().0,
                score: to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
        best
    }

    /// Quiescence: forced captures are searched in full (a position with a
    /// capture is never quiet); otherwise the static evaluation stands,
    /// unless the opponent threatens a capture and `threat_search` allows
    /// the quiet moves to be searched (then not again below them).
    fn quiescence<R: Rules>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
        threat_search: bool,
    ) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Below the first ply every node was reached by a capture, or by a
        // quiet move of a threat search, which only runs where the tables do
        // not cover the pieces.
        match self.probe::<R>(pos, qdepth > 0) {
            Some((Verdict::Exact(wdl), plies)) => {
                return tb_score(wdl, ply, pos, plies, self.s.weights)
            }
            Some((Verdict::AtLeastDraw, plies)) => {
                return tb_likely(pos, plies, self.s.weights, true)
            }
            Some((Verdict::AtMostDraw, plies)) => {
                return tb_likely(pos, plies, self.s.weights, false)
            }
            None => {}
        }
        let deep = ply >= MAX_PLY || qdepth >= MAX_QUIESCENCE;
        let base = self.stack.len();
        let mut top = StackTop {
            stack: &mut self.stack,
            base,
        };
        match movegen::forcing::<R, _>(pos, !deep, &mut top) {
            Forcing::NoMove => return terminal_score::<R>(pos, ply),
            Forcing::Quiet => {
                let stand = eval::evaluate_with(pos, self.s.weights);
                // A quiet position the opponent threatens to capture in is
                // not quiet: where the static value would not fail low, the
                // quiet moves are searched (once on a line) to meet the
                // threat. Not where the tables cover the pieces (they did
                // not answer for these counters, and the children, probed
                // as if reached by a capture, would take theirs as zero).
                if R::TOWERS
                    || deep
                    || !threat_search
                    || stand <= alpha
                    || pos.occupied().count_ones() <= self.s.tb_pieces
                    || !movegen::threatened::<R>(pos)
                {
                    return stand;
                }
                let mut top = StackTop {
                    stack: &mut self.stack,
                    base,
                };
                movegen::gen::<R, true, _>(pos, &mut top);
            }
            Forcing::Captures if deep => return eval::evaluate_with(pos, self.s.weights),
            Forcing::Captures => {}
        }
        let mut best = -INF;
        let n = self.stack.len() - base;
        // The captures that take the most, kings counting double, first
        // (Russian, Brazilian).
        if !R::TOWERS && n > 1 && self.stack[base].is_capture() {
            let kings = pos.kings();
            self.stack[base..].sort_by_key(|m| {
                std::cmp::Reverse(m.capture_count() + (m.captured() & kings).count_ones() as usize)
            });
        }
        // The threat search runs once on a line: not below its own moves.
        let threat_below = threat_search && self.stack[base].is_capture();
        for i in 0..n {
            let m = self.stack[base + i];
            let child = play::<R>(pos, &m);
            let score = if R::TOWERS {
                self.push_key::<R>(pos, m, &child);
                let s = if self.repeated::<R>() {
                    -repetition_score::<R>(&child)
                } else {
                    -self.quiescence::<R>(&child, -beta, -alpha, ply + 1, qdepth + 1, threat_below)
                };
                self.pop_key::<R>();
                s
            } else {
                // Only captures from here on, and at most one quiet move of
                // a threat search: no key is kept (a repetition that move
                // makes is not seen; it leads to a capture or a leaf).
                -self.quiescence::<R>(&child, -beta, -alpha, ply + 1, qdepth + 1, threat_below)
            };
            if self.stopped {
                best = 0;
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.stack.truncate(base);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: i32, bound: Bound) -> Option<Entry> {
        Some(Entry {
            move_index: None,
            move_from: 0,
            score: to_tt(score, 3),
            depth: 5,
            bound,
        })
    }

    #[test]
    fn the_tables_score_replaces_the_static_value_only_beyond_it() {
        assert_eq!(refined(40, None, 3), 40);
        // A lower bound above the static value, an upper bound below it and
        // an exact score replace it; bounds on the near side do not.
        assert_eq!(refined(40, entry(90, Bound::Lower), 3), 90);
        assert_eq!(refined(40, entry(10, Bound::Lower), 3), 40);
        assert_eq!(refined(40, entry(-20, Bound::Upper), 3), -20);
        assert_eq!(refined(40, entry(70, Bound::Upper), 3), 40);
        assert_eq!(refined(40, entry(15, Bound::Exact), 3), 15);
        // Scores of the endgame tables or of a game's end are left out.
        assert_eq!(refined(40, entry(TB_BOUND + 5, Bound::Lower), 3), 40);
        assert_eq!(refined(40, entry(-INF + 10, Bound::Upper), 3), 40);
    }
}

//! Iterative deepening, per thread: aspiration windows around the last
//! score, the depths the helpers search beside the main thread, the next
//! best lines (MultiPV), the reports after each iteration, and when to stop
//! starting new ones (the soft time target, a win seen to its end).

use super::knobs;
use super::score::{Score, INF, WIN, WIN_BOUND};
use super::worker::{HelperResult, Worker};
use super::{Info, SearchResult};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::variant::with_rules;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl<'a> Worker<'a> {
    /// Iterative deepening. Returns the best move found.
    pub(super) fn iterate(
        &mut self,
        root: &Position,
        mut roots: MoveList,
        max_depth: u32,
        soft: Option<Duration>,
        multipv: usize,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut best = roots[0];
        let mut best_score = -INF;
        let mut best_pv = vec![best];
        let mut completed = 0;
        let mut last_change = 0;
        let mut prev_score = 0;
        let mut depth = 0;
        loop {
            // The main thread deepens one ply at a time. A helper searches
            // the main thread's depth (even ids one ply deeper), or the next
            // depth of its own when it is ahead: alongside the main thread it
            // fills the shared table with the entries the main thread needs
            // next, where a helper far ahead would mostly store entries no
            // one reads before the main thread's iteration ends.
            depth = if self.id == 0 {
                depth + 1
            } else {
                let main = self.s.main_depth.load(Ordering::Relaxed) as u32;
                (depth + 1).max(main + ((self.id + 1) % 2) as u32)
            };
            if depth > max_depth {
                break;
            }
            if self.id == 0 {
                self.s.main_depth.store(depth as u64, Ordering::Relaxed);
            }
            self.seldepth = 0;
            let mut delta = knobs::aspiration_window();
            let (mut alpha, mut beta) = if depth >= 4 && best_score.abs() < WIN_BOUND {
                (best_score - delta, best_score + delta)
            } else {
                (-INF, INF)
            };
            let score = loop {
                let s = with_rules!(root.variant(), R => {
                    self.root_search::<R>(root, &mut roots, depth as i32, alpha, beta)
                });
                if self.stopped {
                    break s;
                }
                if s <= alpha {
                    alpha = (alpha - delta).max(-INF);
                    delta *= knobs::aspiration_growth();
                } else if s >= beta {
                    beta = (beta + delta).min(INF);
                    delta *= knobs::aspiration_growth();
                } else {
                    break s;
                }
            };
            if self.stopped {
                // Root moves are reordered only by fully searched moves, so
                // the first one is the best known, even after a stop.
                if completed == 0 || !roots[0].same_result(&best) {
                    best = roots[0];
                    best_pv = if self.pv[0].first().is_some_and(|m| m.same_result(&best)) {
                        self.pv[0].clone()
                    } else {
                        vec![best]
                    };
                    if completed == 0 {
                        best_score = score;
                    }
                }
                break;
            }
            let new_best = roots[0];
            if !new_best.same_result(&best) {
                last_change = depth;
            }
            best = new_best;
            best_score = score;
            best_pv = if self.pv[0].is_empty() {
                vec![best]
            } else {
                self.pv[0].clone()
            };
            completed = depth;
            if self.id > 0 && self.s.multipv == 1 {
                self.publish(depth, score, &best_pv, max_depth);
            }
            // MultiPV: the next best lines, each searched among the root
            // moves not yet shown, with a full window.
            let mut lines = vec![(score, best_pv.clone())];
            for k in 1..multipv.min(roots.len()) {
                let s = with_rules!(root.variant(), R => {
                    self.root_search::<R>(root, &mut roots[k..], depth as i32, -INF, INF)
                });
                if self.stopped {
                    break;
                }
                let line = if self.pv[0].is_empty() {
                    vec![roots[k]]
                } else {
                    self.pv[0].clone()
                };
                lines.push((s, line));
            }
            if lines.len() > 1 {
                // Report and play the lines best first: a later line, searched
                // with a full window, may beat the first.
                lines.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
                for (k, (_, line)) in lines.iter().enumerate() {
                    if let Some(i) = roots.iter().position(|m| m.same_result(&line[0])) {
                        roots[k..=i].rotate_right(1);
                    }
                }
                best = roots[0];
                best_score = lines[0].0;
                best_pv = lines[0].1.clone();
            }
            if self.id == 0 {
                let elapsed = self.s.start.elapsed();
                let nodes = self.total_nodes();
                for (k, (s, line)) in lines.into_iter().enumerate() {
                    on_info(&Info {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: k as u32 + 1,
                        score: Score::from_internal(s),
                        nodes,
                        nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                        time_ms: elapsed.as_millis() as u64,
                        hashfull: self.s.tt.hashfull(),
                        tbhits: self.s.tbhits.load(Ordering::Relaxed) + self.tbhits,
                        tb: false,
                        pv: line,
                    });
                }
            }
            if self.stopped || (self.s.settled && depth >= 2) {
                break;
            }
            if let Some(soft) = soft {
                // Think longer when the best move just changed or the score fell.
                let mut target = soft.as_secs_f64();
                if last_change + 1 >= depth && depth > 4 {
                    target *= knobs::time_best_changed();
                }
                if depth > 4 && score < prev_score - 30 {
                    target *= knobs::time_score_fell();
                }
                // No new iteration once the knob's share of the target is
                // spent.
                if self.s.start.elapsed().as_secs_f64() >= target * knobs::time_new_iteration() {
                    break;
                }
            }
            prev_score = score;
            if score.abs() >= WIN_BOUND && depth as i32 > WIN - score.abs() + 2 {
                break;
            }
        }
        self.s.nodes.fetch_add(self.unreported, Ordering::Relaxed);
        self.unreported = 0;
        self.s.tbhits.fetch_add(self.tbhits, Ordering::Relaxed);
        self.tbhits = 0;
        SearchResult {
            best: Some(best),
            ponder: best_pv.get(1).copied(),
            score: best_score,
            depth: completed,
            nodes: self.s.nodes.load(Ordering::Relaxed),
            pv: best_pv,
        }
    }

    /// A helper's completed iteration: kept when it is the deepest so far;
    /// at the depth limit it ends the search.
    fn publish(&self, depth: u32, score: i32, pv: &[Move], max_depth: u32) {
        if let Ok(mut b) = self.s.helper_best.lock() {
            if b.as_ref().map_or(true, |h| h.depth < depth) {
                *b = Some(HelperResult {
                    depth,
                    seldepth: self.seldepth.max(depth as usize) as u32,
                    score,
                    pv: pv.to_vec(),
                });
            }
        }
        if depth >= max_depth {
            self.s.helper_done.store(true, Ordering::Relaxed);
        }
    }
}

//! The start of a search and its threads (Lazy SMP): the root moves (those
//! the endgame tables keep, those of `searchmoves`), a forced move played at
//! once, a book move in a timed game, what the threads share, the helper
//! threads beside the main one on the one transposition table, and the
//! result played: the main thread's, or a helper's that completed a deeper
//! iteration, its line continued along the tables.

use super::repetition::first_repeatable;
use super::score::{terminal_score, Score, MAX_PLY};
use super::tables::{along_tables, keeps_win, settled_at_once, table_line};
use super::worker::{Busy, HelperResult, MoveMemory, Shared, Worker};
use super::{Info, Limits, SearchResult, Searcher};
use crate::book::Book;
use crate::egdb::{Combo, Wdl};
use crate::eval::weights::Weights;
use crate::game::Game;
use crate::moves::Move;
use crate::variant::with_rules;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

impl Searcher {
    /// Search the current position of `game` within `limits`, calling
    /// `on_info` after each completed iteration. A set stop flag ends the
    /// search at once (with a legal move); see [`Searcher::reset_stop`].
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        let root = *game.position();
        let mut roots = root.legal_moves();
        if !limits.searchmoves.is_empty() {
            let all = roots.clone();
            roots.0.retain(|m| limits.searchmoves.contains(m));
            if roots.is_empty() {
                roots = all;
            }
        }
        let start = limits.started.unwrap_or_else(Instant::now);
        // One legal move is played at once (not one the tables leave).
        let forced = roots.len() == 1;
        let tables = self
            .tables
            .as_deref()
            .filter(|t| t.variant() == root.variant());
        let tb_pieces = if tables.is_some() { self.tb_pieces } else { 0 };
        if let Some(t) = tables.filter(|_| root.occupied().count_ones() <= tb_pieces) {
            // A won position: only the moves that keep the win (some are the
            // winning ones whatever the counters, see `keeps_win`).
            if t.probe(&root) == Some(Wdl::Win) {
                let mut keep = roots.clone();
                keep.0.retain(|m| keeps_win(t, &root.play(m)));
                if !keep.is_empty() {
                    roots = keep;
                }
                // A win whose line converts before any counter runs out:
                // the moves of the line, which shorten the way to the
                // conversion with every move, whatever the search's horizon.
                if roots.len() > 1
                    && roots.iter().all(|m| keeps_win(t, &root.play(m)))
                    && t.leads(&root, &game.draw_state()).is_some()
                {
                    let (combo, _) = Combo::of(&root);
                    let to_go = |m: &Move| {
                        let child = root.play(m);
                        if child.legal_moves().is_empty() || Combo::of(&child).0 != combo.swapped()
                        {
                            0
                        } else {
                            t.plies(&child).map_or(u16::MAX, u16::from)
                        }
                    };
                    if let Some(best) = roots.iter().map(to_go).min() {
                        roots.0.retain(|m| to_go(m) == best);
                    }
                }
            }
        }
        if roots.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: with_rules!(root.variant(), R => terminal_score::<R>(&root, 0)),
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
            };
        }
        // Order the root moves: the table's move first.
        if let Some(e) = self.tt.probe(root.key()) {
            if let Some(i) = e.move_index.map(usize::from).filter(|&i| i < roots.len()) {
                if roots[i].from().0 == e.move_from {
                    roots[..=i].rotate_right(1);
                }
            }
        }
        if forced && !limits.infinite {
            return SearchResult {
                best: Some(roots[0]),
                ponder: None,
                score: 0,
                depth: 0,
                nodes: 0,
                pv: vec![roots[0]],
            };
        }
        // A position of the book in a timed game: its move at once.
        if self.book && limits.takes_book_moves() {
            let entry = Book::built_in(root.variant()).and_then(|b| b.probe(&root));
            if let Some(b) = entry.filter(|b| roots.iter().any(|m| m.same_result(&b.mv))) {
                return SearchResult {
                    best: Some(b.mv),
                    ponder: None,
                    score: b.score,
                    depth: b.depth,
                    nodes: 0,
                    pv: vec![b.mv],
                };
            }
        }
        let history: Vec<u64> = game.positions().iter().map(|p| p.key()).collect();
        let first_repeatable = first_repeatable(game);
        let draw = game.draw_state();
        // Every root move's value settled by the tables (or the rules) at
        // the first ply: deeper iterations would only repeat the second.
        let settled = tables.is_some_and(|t| {
            roots
                .iter()
                .all(|m| settled_at_once(t, tb_pieces, game, first_repeatable, m))
        });
        let nodes = AtomicU64::new(0);
        let tbhits = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let main_depth = AtomicU64::new(0);
        let helper_best = Mutex::new(None);
        let helper_done = AtomicBool::new(false);
        let (soft, hard) = limits.deadlines(&root);
        let busy = (self.threads > 1).then(Busy::new);
        let weights = self
            .weights
            .as_deref()
            .unwrap_or_else(|| Weights::for_variant(root.variant()));
        let shared = Shared {
            weights,
            tt: &self.tt,
            stop: &self.stop,
            done: &done,
            nodes: &nodes,
            tables,
            tb_pieces,
            tbhits: &tbhits,
            start,
            hard,
            node_limit: if limits.infinite { None } else { limits.nodes },
            main_depth: &main_depth,
            helper_best: &helper_best,
            helper_done: &helper_done,
            multipv: limits.multipv.max(1),
            busy: busy.as_ref(),
            settled,
        };
        // A proven table win or loss: its line continued along the tables,
        // scored in moves to the conversion.
        let mut on_info = |info: &Info| match tables
            .and_then(|t| along_tables(t, tb_pieces, weights, game, info))
        {
            Some(longer) => on_info(&longer),
            None => on_info(info),
        };
        let on_info: &mut dyn FnMut(&Info) = &mut on_info;
        let max_depth = if limits.infinite {
            MAX_PLY as u32 - 10
        } else {
            limits
                .depth
                .unwrap_or(MAX_PLY as u32 - 10)
                .clamp(1, MAX_PLY as u32 - 10)
        };
        let threads = self.threads;
        // Each thread's memory of the quiet moves, from the last search of
        // this game (aged), or new (Adiyukh: always new, as it was measured).
        let mut memory = std::mem::take(&mut self.memory);
        let reused = if root.variant().is_tower() {
            0
        } else {
            threads
        };
        memory.truncate(reused);
        for m in &mut memory {
            m.age();
        }
        memory.resize_with(threads, MoveMemory::new);
        let mut memory = memory.into_iter();
        let main_memory = memory.next().unwrap_or_else(MoveMemory::new);
        let (r, kept) = std::thread::scope(|scope| {
            let mut helpers = Vec::new();
            for (id, memory) in (1..threads).zip(memory) {
                let shared = &shared;
                let history = history.clone();
                let roots = roots.clone();
                // A helper that cannot be started is done without: the
                // search goes on with fewer threads.
                let helper = std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(scope, move || {
                        let mut w =
                            Worker::new(shared, id, history, first_repeatable, draw, memory);
                        w.iterate(&root, roots, max_depth, None, 1, &mut |_| {});
                        w.memory
                    });
                helpers.extend(helper.ok());
            }
            let mut w = Worker::new(
                &shared,
                0,
                history.clone(),
                first_repeatable,
                draw,
                main_memory,
            );
            let mut r = w.iterate(
                &root,
                roots.clone(),
                max_depth,
                soft,
                limits.multipv.max(1),
                on_info,
            );
            done.store(true, Ordering::SeqCst);
            let mut kept = vec![w.memory];
            kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            // A helper that completed a deeper iteration than the main
            // thread (it may even have reached the depth limit first) has
            // the better result: it is reported and played.
            let deeper = helper_best.lock().ok().and_then(|mut b| b.take());
            if let Some(h) = deeper.filter(|h: &HelperResult| h.depth > r.depth) {
                let elapsed = start.elapsed();
                let nodes = nodes.load(Ordering::Relaxed);
                on_info(&Info {
                    depth: h.depth,
                    seldepth: h.seldepth,
                    multipv: 1,
                    score: Score::from_internal(h.score),
                    nodes,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                    time_ms: elapsed.as_millis() as u64,
                    hashfull: self.tt.hashfull(),
                    tbhits: tbhits.load(Ordering::Relaxed),
                    tb: false,
                    pv: h.pv.clone(),
                });
                r = SearchResult {
                    best: h.pv.first().copied(),
                    ponder: h.pv.get(1).copied(),
                    score: h.score,
                    depth: h.depth,
                    nodes,
                    pv: h.pv,
                };
            }
            let line = tables.and_then(|t| table_line(t, tb_pieces, weights, game, r.score, &r.pv));
            if let Some(line) = line {
                r.ponder = line.moves.get(1).copied();
                r.pv = line.moves;
            }
            (r, kept)
        });
        self.memory = kept;
        r
    }
}

//! The search: iterative deepening with aspiration windows over a principal
//! variation search, a quiescence search that resolves forced captures, the
//! shared transposition table, and Lazy SMP threads.
//!
//! Scores are from the side to move's view. Russian and Brazilian: centi-men,
//! a win is `WIN - plies` (so the engine wins fastest and loses slowest).
//! Adiyukh: hundredths of a point of the final score difference; a finished
//! game is worth exactly its count difference, and a repetition is worth the
//! count as it stands.
//!
//! Endgame tables (Russian, Brazilian; [`Searcher::set_tables`]): a node
//! they cover whose value is exact (see [`crate::egdb::Verdict`]: the
//! counters at zero, a side without kings, a draw, or a win whose plies to
//! the conversion are fewer than the running counters leave) ends there, a
//! win scored from [`TB_BOUND`] to [`TB_WIN`], below every win seen to its
//! end and above every evaluation: higher the further the win has come
//! (fewer pieces, fewer men, fewer plies to the conversion; without the
//! plies, more in hand by the evaluation), then the sooner. Where counters
//! already run and the plies do not fit, a stored win is only "won or
//! drawn": the search goes on below it (the draw rules are counted along
//! the path), cutting where the bound alone decides, and a leaf scores
//! `TB_LIKELY` plus the same progress (or the evaluation), kept above a
//! draw, so that the winner still prefers these lines to a draw and heads
//! for the conversion. At the root of a won position only the moves that
//! keep the table's win are searched, and when the table's line converts
//! in time, only the moves of that line.
//!
//! ```
//! use shashki::search::{Limits, Searcher};
//! use shashki::game::Game;
//! use shashki::Variant;
//! let mut s = Searcher::new(4, 1);
//! let game = Game::new(Variant::Russian);
//! let r = s.search(&game, &Limits::depth(4), &mut |_| {});
//! assert!(r.best.is_some());
//! ```
//!
//! The files, each using only those before it: `score` (the score scale:
//! wins, table wins, [`Score`], the table's score conversion), this file
//! (the public API: [`Limits`], [`Info`], [`SearchResult`], [`Searcher`]),
//! `worker` (one thread's state, what the threads share), `repetition`
//! (repetitions and the draw rules along the path), `deepening`
//! (iterative deepening per thread), `alphabeta` (PVS, quiescence,
//! pruning, move ordering), `tables` (the root moves and the lines the
//! endgame tables settle) and `threads` (the start of a search, Lazy SMP).

mod alphabeta;
mod deepening;
mod knobs;
mod repetition;
mod score;
mod tables;
mod threads;
mod worker;

pub use crate::clock::Clock;
pub use score::{Score, MAX_PLY, TB_BOUND, TB_WIN, WIN, WIN_BOUND};

use crate::clock::{self, Overhead};
use crate::egdb::Tables;
use crate::eval::weights::Weights;
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// When to stop searching. Several limits may be set; the first reached
/// stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub clock: Option<Clock>,
    /// Search until stopped (the other limits are ignored).
    pub infinite: bool,
    /// What every move costs outside the engine (the client, the pipes):
    /// kept back from a move time, and charged per move of a clock's
    /// horizon (see [`crate::clock`]).
    pub overhead: Overhead,
    /// When the command that started the search arrived; the time limits
    /// count from it (from the search's start when `None`).
    pub started: Option<Instant>,
    /// Search only these root moves (all when empty).
    pub searchmoves: Vec<Move>,
    /// Number of best lines to report (0 or 1: one).
    pub multipv: usize,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Whether a book move may answer: a game's move on a clock or a move
    /// time, one line, no depth, node or root move limits.
    pub fn takes_book_moves(&self) -> bool {
        (self.clock.is_some() || self.movetime_ms.is_some())
            && !self.infinite
            && self.depth.is_none()
            && self.nodes.is_none()
            && self.searchmoves.is_empty()
            && self.multipv <= 1
    }

    /// The time a search of `pos` may take by its time limits, in
    /// milliseconds (the soft target), or `None` when no time limit is set.
    pub fn time_budget(&self, pos: &Position) -> Option<u64> {
        self.deadlines(pos).0.map(|d| d.as_millis() as u64)
    }

    /// The soft target (stop starting new iterations after it) and the
    /// hard limit (never exceeded) for a move from `pos` (whose pieces set
    /// a clock's horizon, [`crate::clock::horizon`]).
    fn deadlines(&self, pos: &Position) -> (Option<Duration>, Option<Duration>) {
        if self.infinite {
            return (None, None);
        }
        let overhead = self.overhead.per_move_ms;
        let mut soft: Option<u64> = None;
        let mut hard: Option<u64> = None;
        if let Some(ms) = self.movetime_ms {
            let t = ms.saturating_sub(overhead).max(1);
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(c) = self.clock {
            let b = c.budget_over(self.overhead, clock::horizon(pos));
            soft = Some(soft.map_or(b.soft_ms, |x| x.min(b.soft_ms)));
            hard = Some(hard.map_or(b.hard_ms, |x| x.min(b.hard_ms)));
        }
        (
            soft.map(Duration::from_millis),
            hard.map(Duration::from_millis),
        )
    }
}

/// A progress report, sent after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// Which line this is (1 = the best) when several are searched.
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    /// Per mille of the transposition table used by this search.
    pub hashfull: u32,
    /// Positions whose value the endgame tables gave.
    pub tbhits: u64,
    /// The score is a win or loss the endgame tables prove, counted in
    /// moves of the side to move to the conversion (the next capture or
    /// promotion of the tables' line, or the loser left without a move),
    /// not to the end of the game; the line continues along the tables.
    pub tb: bool,
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    pub score: i32,
    /// Depth of the last completed iteration (0 for a forced move).
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The search with its transposition table and thread count.
pub struct Searcher {
    tt: TranspositionTable,
    threads: usize,
    stop: Arc<AtomicBool>,
    /// Evaluation weights in place of the built-in ones (tuning, matches).
    weights: Option<Arc<Weights>>,
    /// Endgame tables, and the most pieces probed.
    tables: Option<Arc<Tables>>,
    tb_pieces: u32,
    /// Each thread's history of the quiet moves from the last search of
    /// this game.
    memory: Vec<Box<worker::MoveMemory>>,
    /// Play the shipped book's move at once in a timed game
    /// ([`crate::book`]).
    book: bool,
}

impl Searcher {
    /// A searcher with a `hash_mib` MiB table and `threads` threads.
    ///
    /// # Panics
    /// When the system refuses the table's memory: for a size that comes
    /// from a user, use [`Searcher::try_new`].
    pub fn new(hash_mib: usize, threads: usize) -> Searcher {
        Searcher::try_new(hash_mib, threads).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A searcher with a `hash_mib` MiB table and `threads` threads, or an
    /// error naming the size when the system refuses the table's memory.
    pub fn try_new(hash_mib: usize, threads: usize) -> Result<Searcher, String> {
        Ok(Searcher {
            tt: TranspositionTable::try_new(hash_mib)?,
            threads: threads.max(1),
            stop: Arc::new(AtomicBool::new(false)),
            weights: None,
            tables: None,
            tb_pieces: 0,
            memory: Vec::new(),
            book: false,
        })
    }

    /// Play the shipped book's move at once where a game's timed move
    /// meets a position of the book ([`crate::book`], the `OwnBook`
    /// option); off unless set.
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Evaluate with `weights` instead of the variant's built-in table
    /// (`None`: back to the built-in one). The weights must belong to the
    /// variant of the positions searched.
    pub fn set_weights(&mut self, weights: Option<Weights>) {
        self.weights = weights.map(Arc::new);
    }

    /// Probe `tables` (`None`: none) at nodes of at most `pieces` pieces
    /// (and at most what the tables hold). Tables of another variant than
    /// the position searched are not probed.
    pub fn set_tables(&mut self, tables: Option<Arc<Tables>>, pieces: u32) {
        self.tb_pieces = tables.as_ref().map_or(0, |t| t.pieces().min(pieces));
        self.tables = tables.filter(|_| self.tb_pieces > 0);
    }

    /// The weights set by [`Searcher::set_weights`], if any.
    pub fn weights(&self) -> Option<&Weights> {
        self.weights.as_deref()
    }

    /// Resize the table (its contents are lost). A size larger than the
    /// memory available (see [`TranspositionTable::fits`]) is refused and
    /// the table stays as it is; on another error (the system refuses) a
    /// 1 MiB table is left in place (the old one, if even that is refused).
    pub fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        // A size that cannot fit is refused with the old table in place.
        TranspositionTable::fits(mib, self.tt.size_bytes() >> 20)?;
        // Free the old table first, so old and new need not fit together.
        self.tt = TranspositionTable::try_new(1)?;
        self.tt = TranspositionTable::try_new(mib)?;
        Ok(())
    }

    /// Set the number of threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forget what earlier searches learnt (a new game): the table (see
    /// [`TranspositionTable::clear`], which takes no time whatever the size)
    /// and the history of the quiet moves.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.memory.clear();
    }

    /// The table (for its size and fill).
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// A flag that stops the running search when set.
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Clear the stop flag, so the next search runs. A caller that starts
    /// the search in another thread clears it before starting that thread:
    /// then a stop sent right after the start cannot be lost.
    pub fn reset_stop(&self) {
        self.stop.store(false, Ordering::SeqCst);
    }

    /// Give the next searches a new, clear stop flag and return it. Whoever
    /// holds an older flag (a timer of an earlier search) can no longer stop
    /// them.
    pub fn fresh_stop(&mut self) -> Arc<AtomicBool> {
        self.stop = Arc::new(AtomicBool::new(false));
        self.stop.clone()
    }

    /// The score of `game`'s position from its side to move's view by a
    /// `depth` search on a cleared table: what data and opening sets are
    /// scored with (with one thread, the same on every machine).
    /// [`Searcher::search`] plays a lone legal move at once, without a
    /// score, so a forced line (one legal move at a time, at most
    /// [`FORCED_MAX`] of them) is played out first and the position where
    /// it ends searched, its score turned back to the first side's view.
    ///
    /// ```
    /// use shashki::{game::Game, search::Searcher, Variant};
    /// let mut g = Game::new(Variant::Russian);
    /// for m in ["c3-b4", "b6-a5", "e3-d4"] {
    ///     g.play_text(m).unwrap();
    /// }
    /// // Black's only move, a5:c3:e5, takes two men.
    /// assert!(Searcher::new(16, 1).score_at_depth(&g, 4) > 150);
    /// ```
    pub fn score_at_depth(&mut self, game: &Game, depth: u32) -> i32 {
        let mut end = game.clone();
        let mut turned = false;
        for _ in 0..FORCED_MAX {
            let moves = end.position().legal_moves();
            if moves.len() != 1 || end.outcome().is_some() || end.play(&moves[0]).is_err() {
                break;
            }
            turned = !turned;
        }
        self.clear();
        let r = self.search(&end, &Limits::depth(depth), &mut |_| {});
        if turned {
            -r.score
        } else {
            r.score
        }
    }
}

/// The longest forced line [`Searcher::score_at_depth`] plays out.
pub const FORCED_MAX: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_games_timed_move_takes_a_book_move() {
        let clock = Limits {
            clock: Some(Clock {
                time_ms: 1000,
                inc_ms: 10,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        assert!(clock.takes_book_moves());
        assert!(Limits::movetime(100).takes_book_moves());
        assert!(!Limits::depth(5).takes_book_moves());
        assert!(!Limits::nodes(1000).takes_book_moves());
        assert!(!Limits::default().takes_book_moves());
        let refused = [
            Limits {
                infinite: true,
                ..clock.clone()
            },
            Limits {
                depth: Some(9),
                ..clock.clone()
            },
            Limits {
                multipv: 2,
                ..clock.clone()
            },
        ];
        for l in refused {
            assert!(!l.takes_book_moves(), "{l:?}");
        }
    }
}

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

pub use crate::clock::Clock;
use crate::clock::Overhead;
use crate::egdb::{Combo, Tables, Verdict, Wdl};
use crate::eval;
use crate::game::{DrawState, Game};
use crate::movegen::{self, Forcing};
use crate::moves::{Move, MoveList, StackTop};
use crate::position::Position;
use crate::tt::{Bound, Entry, TranspositionTable};
use crate::variant::{with_rules, Rules, Scoring};
use crate::eval::weights::Weights;
use smallvec::SmallVec;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A won game, before subtracting the plies to reach it.
pub const WIN: i32 = 30_000;
/// Scores at or beyond this are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// A win the endgame tables prove, at most: `TB_WIN - TB_SPREAD`, less the
/// plies to reach it, plus a rank within `TB_SPREAD` either way (see
/// `tb_score`).
pub const TB_WIN: i32 = 28_000;
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
const INF: i32 = 32_000;
/// Deepest ply the search goes.
pub const MAX_PLY: usize = 120;
/// Moves the move stack of a thread holds before it grows.
const STACK_CAPACITY: usize = 4096;
/// Longest run of forced captures the quiescence search follows (tower
/// kings can capture back and forth for a long time).
const MAX_QUIESCENCE: i32 = 24;

/// Slots of the table of positions being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

/// The positions the threads of a search are in now (ABDADA's idea), one
/// key per slot: a thread that reaches a position another one is searching
/// from a sibling move searches its other moves first. A collision only
/// costs a move put off or searched twice.
struct Busy(Vec<AtomicU64>);

impl Busy {
    fn new() -> Busy {
        Busy((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.0[key as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some thread is searching the position of `key`.
    fn taken(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Free the slot unless another position took it meanwhile.
    fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Least remaining depth at which a move another thread is searching is put
/// off (shallower subtrees are cheaper to search twice than to track).
const BUSY_MIN_DEPTH: i32 = 3;

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

    /// The time this search may take by its time limits, in milliseconds
    /// (the soft target), or `None` when no time limit is set.
    pub fn time_budget(&self) -> Option<u64> {
        self.deadlines().0.map(|d| d.as_millis() as u64)
    }

    /// The soft target (stop starting new iterations after it) and the
    /// hard limit (never exceeded) for this move.
    fn deadlines(&self) -> (Option<Duration>, Option<Duration>) {
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
            let b = c.budget(self.overhead);
            soft = Some(soft.map_or(b.soft_ms, |x| x.min(b.soft_ms)));
            hard = Some(hard.map_or(b.hard_ms, |x| x.min(b.hard_ms)));
        }
        (
            soft.map(Duration::from_millis),
            hard.map(Duration::from_millis),
        )
    }
}

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
        })
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

    /// Forget what earlier searches learnt (a new game): see
    /// [`TranspositionTable::clear`], which takes no time whatever the size.
    pub fn clear(&mut self) {
        self.tt.clear();
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
        let (soft, hard) = limits.deadlines();
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
        std::thread::scope(|scope| {
            for id in 1..threads {
                let shared = &shared;
                let history = history.clone();
                let roots = roots.clone();
                // A helper that cannot be started is done without: the
                // search goes on with fewer threads.
                let _ = std::thread::Builder::new()
                    .stack_size(32 << 20)
                    .spawn_scoped(scope, move || {
                        let mut w = Worker::new(shared, id, history, first_repeatable, draw);
                        w.iterate(&root, roots, max_depth, None, 1, &mut |_| {});
                    });
            }
            let mut w = Worker::new(&shared, 0, history.clone(), first_repeatable, draw);
            let mut r = w.iterate(
                &root,
                roots.clone(),
                max_depth,
                soft,
                limits.multipv.max(1),
                on_info,
            );
            done.store(true, Ordering::SeqCst);
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
            r
        })
    }
}

/// What all threads of one search share.
struct Shared<'a> {
    weights: &'a Weights,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    /// The main thread has finished: helpers stop.
    done: &'a AtomicBool,
    nodes: &'a AtomicU64,
    /// Endgame tables of the variant searched, probed at nodes of at most
    /// `tb_pieces` pieces (0: none), and their hits.
    tables: Option<&'a Tables>,
    tb_pieces: u32,
    tbhits: &'a AtomicU64,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    /// The depth the main thread is searching: helpers keep up with it.
    main_depth: &'a AtomicU64,
    /// The deepest iteration a helper completed (one best line only).
    helper_best: &'a Mutex<Option<HelperResult>>,
    /// A helper completed the depth limit: the main thread stops.
    helper_done: &'a AtomicBool,
    multipv: usize,
    /// With more than one thread: the positions being searched.
    busy: Option<&'a Busy>,
    /// The value of every root move is settled at the first ply (see
    /// [`settled_at_once`]): iterations past the second change nothing.
    settled: bool,
}

/// A helper's completed iteration.
struct HelperResult {
    depth: u32,
    seldepth: u32,
    score: i32,
    pv: Vec<Move>,
}

/// One thread's search state.
struct Worker<'a> {
    s: &'a Shared<'a>,
    id: usize,
    /// Keys of the game so far, then of the search path.
    keys: Vec<u64>,
    /// Per position of the search path (the root first): the index in
    /// `keys` of the first position it can repeat. Russian and Brazilian:
    /// the position after the last capture or man's move, as neither can
    /// be undone. Adiyukh: not kept (any earlier position may repeat).
    repeatable: Vec<usize>,
    /// Draw-rule counters along the search path (Russian, Brazilian).
    draws: Vec<DrawState>,
    nodes: u64,
    unreported: u64,
    /// Table hits not yet added to the shared count.
    tbhits: u64,
    stopped: bool,
    seldepth: usize,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 64]; 64]; 2]>,
    pv: Vec<Vec<Move>>,
    /// The moves of every node on the path, each node's above its parent's
    /// (see [`StackTop`]); the stack frames stay small.
    stack: Vec<Move>,
    /// Per move of `stack` in a main-search node: (ordering score, index
    /// among the node's moves).
    order: Vec<(i32, u16)>,
}

/// The score of a position where the side to move has no move.
#[inline]
fn terminal_score<R: Rules>(pos: &Position, ply: usize) -> i32 {
    match R::FLAGS.scoring {
        Scoring::NoMoveLoses => -(WIN - ply as i32),
        Scoring::HalfBoardCount => count_score(pos),
    }
}

/// Whether no later position can repeat one before `m` is played in `pos`:
/// in Russian and Brazilian a capture or a man's move (the pieces only
/// decrease and men only go forward). Adiyukh towers can return by captures,
/// so nothing counts there.
#[inline(always)]
fn irreversible<R: Rules>(pos: &Position, m: &Move) -> bool {
    !R::TOWERS && (m.is_capture() || pos.kings & m.from().bb() == 0)
}

/// Index in the game's positions of the first one the current position can
/// repeat (see [`irreversible`]).
fn first_repeatable(game: &Game) -> usize {
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

/// The position after `m` (copy-make).
#[inline(always)]
fn play<R: Rules>(pos: &Position, m: &Move) -> Position {
    let mut child = *pos;
    child.make_with::<R>(m);
    child
}

/// Adiyukh: the count difference from the side to move's view, x100.
fn count_score(pos: &Position) -> i32 {
    let (w, b) = pos.half_board_score();
    let diff = (w as i32 - b as i32) * 100;
    match pos.side_to_move() {
        crate::Color::White => diff,
        crate::Color::Black => -diff,
    }
}

/// The value of a repeated position.
#[inline]
fn repetition_score<R: Rules>(pos: &Position) -> i32 {
    match R::FLAGS.scoring {
        Scoring::NoMoveLoses => 0,
        Scoring::HalfBoardCount => count_score(pos),
    }
}

/// How far a table win of `pos` has come, higher the nearer its end, from
/// the plies to the conversion (`plies`, see [`Tables::plies`]): fewer
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

/// The most material [`progress`] counts (8 pieces, all men).
const MATERIAL_MAX: i32 = 9 * 8 + 8;
const TB_PROGRESS_MAX: i32 = MATERIAL_MAX * 256 + 255;

/// The score of an exact table value of `pos` at `ply`. With the plies to
/// the conversion (`plies`), wins rank by [`progress`], so that the winner
/// heads for the end and the loser holds out longest; without them (a
/// folder built before there were any) the evaluation (clamped) ranks
/// first, as a win with more in hand is the easier one to finish inside
/// the counting rules. Then the fewer plies to reach it.
#[inline]
fn tb_score(wdl: Wdl, ply: usize, pos: &Position, plies: Option<u8>, weights: &Weights) -> i32 {
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
fn tb_likely(pos: &Position, plies: Option<u8>, weights: &Weights, won: bool) -> i32 {
    // The winner's rank, as for `tb_score`.
    let sign = if won { 1 } else { -1 };
    let e = match plies {
        Some(d) => progress(pos, d) / 8,
        None => sign * eval::evaluate_with(pos, weights),
    };
    sign * (TB_LIKELY + e).clamp(1, TB_LIKELY_MAX)
}

/// Whether the move that led to `child` keeps a table win: the opponent
/// has no move, or the table gives him a loss. A move that wins under the
/// real counters is one of these, as a running counter only helps the
/// side that would lose with every counter at zero.
fn keeps_win(tables: &Tables, child: &Position) -> bool {
    tables.probe(child) == Some(Wdl::Loss) || child.legal_moves().is_empty()
}

/// Whether the value of the root move `m` of `game` is the same in every
/// iteration from the second on, where the search reaches its position
/// with depth to spare and ends it before looking at the depth: the
/// position ends the game, repeats one of the game (see
/// [`Worker::repeated`]), has a draw rule in force, or has an exact table
/// value (at most `tb_pieces` pieces) under the counters the move leaves.
fn settled_at_once(
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
struct TableLine {
    moves: Vec<Move>,
    /// Plies from the root to the conversion (see [`table_line`]).
    plies: u32,
}

/// The score the search gives a position the tables value (`verdict`,
/// with `plies` to the conversion) `ply` plies from where it looks.
fn table_score(
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
fn table_line(
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
fn along_tables(
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

/// Scores of wins (and table wins) are stored relative to the node, not
/// the root.
fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(-INF, INF) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= TB_BOUND {
        s - ply as i32
    } else if s <= -TB_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl<'a> Worker<'a> {
    fn new(
        s: &'a Shared<'a>,
        id: usize,
        keys: Vec<u64>,
        first_repeatable: usize,
        draw: DrawState,
    ) -> Worker<'a> {
        let mut draws = Vec::with_capacity(MAX_PLY + 2);
        draws.push(draw);
        let mut repeatable = Vec::with_capacity(MAX_PLY + 2);
        repeatable.push(first_repeatable);
        Worker {
            s,
            id,
            keys,
            repeatable,
            draws,
            nodes: 0,
            unreported: 0,
            tbhits: 0,
            stopped: false,
            seldepth: 0,
            killers: [[None; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            stack: Vec::with_capacity(STACK_CAPACITY),
            order: Vec::with_capacity(STACK_CAPACITY),
        }
    }

    /// Count a node; every 1024 nodes look at the stop conditions.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= 1024 {
            let total =
                self.s.nodes.fetch_add(self.unreported, Ordering::Relaxed) + self.unreported;
            self.unreported = 0;
            if self.tbhits > 0 {
                self.s.tbhits.fetch_add(self.tbhits, Ordering::Relaxed);
                self.tbhits = 0;
            }
            if self.s.stop.load(Ordering::Relaxed)
                || (self.id > 0 && self.s.done.load(Ordering::Relaxed))
                || (self.id == 0 && self.s.helper_done.load(Ordering::Relaxed))
                || self.s.node_limit.is_some_and(|n| total >= n)
                || self.s.hard.is_some_and(|h| self.s.start.elapsed() >= h)
            {
                self.stopped = true;
            }
        }
    }

    fn total_nodes(&self) -> u64 {
        self.s.nodes.load(Ordering::Relaxed) + self.unreported
    }

    /// Push the draw-rule counters of `child`, reached from `pos` by `m`,
    /// to be searched at most `depth` plies deep. At depth 0 (quiescence)
    /// they are never read: placeholders stand in for them.
    #[inline]
    fn push_draw<R: Rules>(&mut self, pos: &Position, m: &Move, child: &Position, depth: i32) {
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

    /// Whether a draw rule of rules/russian.md has come into force at the
    /// current node (the side to move has a move).
    fn draw_rule_applies<R: Rules>(&self, pos: &Position) -> bool {
        R::FLAGS.scoring == Scoring::NoMoveLoses
            && self.draws.last().is_some_and(|d| d.in_force(pos))
    }

    /// Enter `child`, reached from `pos` by `m`, on the path of keys.
    #[inline(always)]
    fn push_key<R: Rules>(&mut self, pos: &Position, m: Move, child: &Position) {
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
    fn pop_key<R: Rules>(&mut self) {
        self.keys.pop();
        if !R::TOWERS {
            self.repeatable.pop();
        }
    }

    /// Whether the position just reached repeats one earlier in the game
    /// or the search path with the same side to move.
    fn repeated<R: Rules>(&self) -> bool {
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

    /// Iterative deepening. Returns the best move found.
    fn iterate(
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
            let mut delta = 40;
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
                    delta *= 3;
                } else if s >= beta {
                    beta = (beta + delta).min(INF);
                    delta *= 3;
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
                    target *= 1.6;
                }
                if depth > 4 && score < prev_score - 30 {
                    target *= 1.4;
                }
                // No new iteration once 90% of the target is spent (the
                // hard limit cuts one that runs long): 60% left time unused
                // (1+0.01: Elo +11.5, 1,000 games; 2+0.02: +7.6, 500).
                if self.s.start.elapsed().as_secs_f64() >= target * 0.9 {
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

    /// Search the root moves; the best is moved to the front.
    fn root_search<R: Rules>(
        &mut self,
        pos: &Position,
        roots: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv[0].clear();
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
            return self.quiescence::<R>(pos, alpha, beta, ply, 0);
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
        let (killers, history) = (&self.killers[ply], &self.history[side]);
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
        let captures = self.stack[base].is_capture();
        // Moves whose position another thread is searching, put off to the
        // end (ABDADA's idea): (ordinal, index in the generator's order).
        let busy = self.s.busy.filter(|_| depth >= BUSY_MIN_DEPTH);
        let mut deferred: SmallVec<[(usize, usize); 16]> = SmallVec::new();
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
                let r = if quiet && depth >= 3 && i >= 3 {
                    1 + (i >= 8 && depth >= 5) as i32
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
                            let h =
                                &mut self.history[side][m.from().index() & 63][m.to().index() & 63];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
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
    /// capture is never quiet); otherwise the static evaluation stands.
    fn quiescence<R: Rules>(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: i32,
    ) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // Below the first ply every node was reached by a capture.
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
            Forcing::Quiet => return eval::evaluate_with(pos, self.s.weights),
            Forcing::Captures if deep => return eval::evaluate_with(pos, self.s.weights),
            Forcing::Captures => {}
        }
        let mut best = -INF;
        let n = self.stack.len() - base;
        for i in 0..n {
            let m = self.stack[base + i];
            let child = play::<R>(pos, &m);
            let score = if R::TOWERS {
                self.push_key::<R>(pos, m, &child);
                let s = if self.repeated::<R>() {
                    -repetition_score::<R>(&child)
                } else {
                    -self.quiescence::<R>(&child, -beta, -alpha, ply + 1, qdepth + 1)
                };
                self.pop_key::<R>();
                s
            } else {
                // Only captures from here on: none can be undone, so no
                // position below repeats and no key is needed.
                -self.quiescence::<R>(&child, -beta, -alpha, ply + 1, qdepth + 1)
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

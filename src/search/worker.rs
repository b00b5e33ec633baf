//! The state of one thread of a search ([`Worker`]), what all threads of
//! the search share ([`Shared`]: the table, the stop conditions, the node
//! count, the helpers' best result), and the positions the threads are in
//! now ([`Busy`]), so that they spread over different moves.

use super::score::MAX_PLY;
use crate::egdb::Tables;
use crate::eval::weights::Weights;
use crate::game::DrawState;
use crate::moves::Move;
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Nodes between two looks at the stop conditions (the clock, `stop`, the
/// node limit). A debug build searches about 250 k nodes a second: 256
/// nodes keep its hard limit to about a millisecond, where 1024 let it
/// overrun by up to 4 ms, twice that on a loaded machine. In a release
/// build a look costs well under a thousandth of the search's time.
const CHECK_NODES: u64 = 256;

/// Moves the move stack of a thread holds before it grows.
const STACK_CAPACITY: usize = 4096;

/// Slots of the table of positions being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

/// The positions the threads of a search are in now (ABDADA's idea), one
/// key per slot: a thread that reaches a position another one is searching
/// from a sibling move searches its other moves first. A collision only
/// costs a move put off or searched twice.
pub(super) struct Busy(Vec<AtomicU64>);

impl Busy {
    pub(super) fn new() -> Busy {
        Busy((0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect())
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.0[key as usize & (BUSY_SLOTS - 1)]
    }

    /// Whether some thread is searching the position of `key`.
    pub(super) fn taken(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key
    }

    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Free the slot unless another position took it meanwhile.
    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

/// Least remaining depth at which a move another thread is searching is put
/// off (shallower subtrees are cheaper to search twice than to track).
pub(super) const BUSY_MIN_DEPTH: i32 = 3;

/// A ply of the path without a static value (see [`Worker::evals`]).
pub(super) const NO_EVAL: i32 = i32::MIN;

/// What all threads of one search share.
pub(super) struct Shared<'a> {
    pub(super) weights: &'a Weights,
    pub(super) tt: &'a TranspositionTable,
    pub(super) stop: &'a AtomicBool,
    /// The main thread has finished: helpers stop.
    pub(super) done: &'a AtomicBool,
    pub(super) nodes: &'a AtomicU64,
    /// Endgame tables of the variant searched, probed at nodes of at most
    /// `tb_pieces` pieces (0: none), and their hits.
    pub(super) tables: Option<&'a Tables>,
    pub(super) tb_pieces: u32,
    pub(super) tbhits: &'a AtomicU64,
    pub(super) start: Instant,
    pub(super) hard: Option<Duration>,
    pub(super) node_limit: Option<u64>,
    /// The depth the main thread is searching: helpers keep up with it.
    pub(super) main_depth: &'a AtomicU64,
    /// The deepest iteration a helper completed (one best line only).
    pub(super) helper_best: &'a Mutex<Option<HelperResult>>,
    /// A helper completed the depth limit: the main thread stops.
    pub(super) helper_done: &'a AtomicBool,
    pub(super) multipv: usize,
    /// With more than one thread: the positions being searched.
    pub(super) busy: Option<&'a Busy>,
    /// The value of every root move is settled at the first ply (see
    /// [`settled_at_once`](super::tables::settled_at_once)): iterations
    /// past the second change nothing.
    pub(super) settled: bool,
}

/// A helper's completed iteration.
pub(super) struct HelperResult {
    pub(super) depth: u32,
    pub(super) seldepth: u32,
    pub(super) score: i32,
    pub(super) pv: Vec<Move>,
}

/// What one thread learnt of the quiet moves, kept from one search of a
/// game to the next (halved at each new search) and forgotten with the
/// table at a new game.
pub(super) struct MoveMemory {
    /// Per side, (from, to): raised by a cut, lowered (Russian, Brazilian)
    /// for the quiet moves searched before the move that cut.
    pub(super) history: [[[i32; 64]; 64]; 2],
}

impl MoveMemory {
    pub(super) fn new() -> Box<MoveMemory> {
        Box::new(MoveMemory {
            history: [[[0; 64]; 64]; 2],
        })
    }

    /// A new search of the same game: the history counts half.
    pub(super) fn age(&mut self) {
        for h in self.history.iter_mut().flatten().flatten() {
            *h /= 2;
        }
    }
}

/// One thread's search state.
pub(super) struct Worker<'a> {
    pub(super) s: &'a Shared<'a>,
    pub(super) id: usize,
    /// Keys of the game so far, then of the search path.
    pub(super) keys: Vec<u64>,
    /// Per position of the search path (the root first): the index in
    /// `keys` of the first position it can repeat. Russian and Brazilian:
    /// the position after the last capture or man's move, as neither can
    /// be undone. Adiyukh: not kept (any earlier position may repeat).
    pub(super) repeatable: Vec<usize>,
    /// Draw-rule counters along the search path (Russian, Brazilian).
    pub(super) draws: Vec<DrawState>,
    pub(super) nodes: u64,
    pub(super) unreported: u64,
    /// Table hits not yet added to the shared count.
    pub(super) tbhits: u64,
    pub(super) stopped: bool,
    pub(super) seldepth: usize,
    pub(super) killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Per ply of the path: the static value of its node for the side to
    /// move, or [`NO_EVAL`] (a capture is forced there, or it was not
    /// evaluated).
    pub(super) evals: [i32; MAX_PLY + 2],
    /// The history of the quiet moves, kept from one search of a game to
    /// the next.
    pub(super) memory: Box<MoveMemory>,
    pub(super) pv: Vec<Vec<Move>>,
    /// The moves of every node on the path, each node's above its parent's
    /// (see [`StackTop`](crate::moves::StackTop)); the stack frames stay small.
    pub(super) stack: Vec<Move>,
    /// Per move of `stack` in a main-search node: (ordering score, index
    /// among the node's moves).
    pub(super) order: Vec<(i32, u16)>,
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        s: &'a Shared<'a>,
        id: usize,
        keys: Vec<u64>,
        first_repeatable: usize,
        draw: DrawState,
        memory: Box<MoveMemory>,
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
            evals: [NO_EVAL; MAX_PLY + 2],
            memory,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            stack: Vec::with_capacity(STACK_CAPACITY),
            order: Vec::with_capacity(STACK_CAPACITY),
        }
    }

    /// Count a node; every [`CHECK_NODES`] nodes look at the stop
    /// conditions.
    #[inline]
    pub(super) fn tick(&mut self) {
        self.nodes += 1;
        self.unreported += 1;
        if self.unreported >= CHECK_NODES {
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

    pub(super) fn total_nodes(&self) -> u64 {
        self.s.nodes.load(Ordering::Relaxed) + self.unreported
    }
}

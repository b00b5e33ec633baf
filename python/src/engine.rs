//! `shashki.Engine`: the library's search in-process, with the
//! interpreter's lock released while it runs; and what it reports.

use crate::board::{variant_of, PyBoard, PyMove};
use crate::egdb::{self as tables, Folder};
use crate::errors::{error, fail, Kind};
use crate::pdn::PyGame;
use crate::results::{PyInfo, PyLine, PyReport, PyScore, PySearchResult};
use pyo3::prelude::*;
use shashki::egdb::index::MAX_PIECES;
use shashki::egdb::Tables;
use shashki::eval::patterns::{is_patterns_file, Patterns};
use shashki::eval::weights::Weights;
use shashki::game::Game;
use shashki::input::{self, Range};
use shashki::pdn::GameRecord;
use shashki::search::{Info, Limits, Score, Searcher};
use shashki::tools::analyse::{self, Thresholds};
use shashki::{eval, options, Variant};
use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

thread_local! {
    /// Set in a search thread of this module: a callback running there
    /// cannot start a search of the engine that is calling it.
    static IN_SEARCH: Cell<bool> = const { Cell::new(false) };
}

/// The evaluation weights of a file: weights text (`variant <id>` and
/// `<name> <value>` lines) or pattern weights, as the engine's `Weights`
/// option reads them.
fn read_weights(path: &std::path::Path, variant: Variant) -> PyResult<Weights> {
    let shown = path.display();
    let bytes = std::fs::read(path).map_err(|e| {
        error(
            Kind::Argument,
            format!("weights: cannot read '{shown}': {e}"),
        )
    })?;
    let mut w = Weights::for_variant(variant).clone();
    if is_patterns_file(&bytes) {
        let p = Patterns::from_bytes(&bytes, Some(variant))
            .map_err(|e| error(Kind::Argument, format!("weights: {shown}: {e}")))?;
        w.patterns = Some(Arc::new(p));
        return Ok(w);
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        error(
            Kind::Argument,
            format!("weights: {shown}: neither weights text (UTF-8) nor pattern weights"),
        )
    })?;
    let (v, mut parsed) = Weights::parse(&text)
        .map_err(|e| error(Kind::Argument, format!("weights: {shown}: {e}")))?;
    if v != variant {
        return fail(
            Kind::Argument,
            format!("weights: {shown}: the weights are for {v}, the engine plays {variant}"),
        );
    }
    parsed.patterns = w.patterns.take();
    Ok(parsed)
}

/// A number checked against one of the engine's ranges.
fn within(name: &str, value: u64, range: Range) -> PyResult<u64> {
    if range.contains(value) {
        Ok(value)
    } else {
        fail(
            Kind::Argument,
            format!("{name} {value}: expected {}", range.describe()),
        )
    }
}

/// Search limits from Python's arguments, combined as the command line
/// combines them (the first limit reached ends the search; depth 10 when
/// none is given).
fn limits(
    depth: Option<u32>,
    movetime: Option<f64>,
    nodes: Option<u64>,
    multipv: usize,
) -> PyResult<Limits> {
    if let Some(d) = depth {
        within("depth", d.into(), input::DEPTH)?;
    }
    if let Some(n) = nodes {
        within("nodes", n, input::NODES)?;
    }
    within("multipv", multipv as u64, options::MULTIPV)?;
    let movetime_ms = match movetime {
        None => None,
        Some(s) => {
            let max = input::TIME_MS.max as f64 / 1000.0;
            if !(s.is_finite() && (0.0..=max).contains(&s)) {
                return fail(
                    Kind::Argument,
                    format!("movetime {s}: expected a number of seconds from 0 to {max}"),
                );
            }
            Some((s * 1000.0).round() as u64)
        }
    };
    Ok(Limits {
        depth: if (depth, movetime_ms, nodes) == (None, None, None) {
            Some(10)
        } else {
            depth
        },
        movetime_ms,
        nodes,
        multipv,
        ..Limits::default()
    })
}

/// Run `work` on a thread of its own (with the engine's stack size) while
/// the calling thread, detached from the interpreter, waits for it and
/// looks at the interpreter's signals every 20 ms: on Ctrl-C the search is
/// stopped, and the KeyboardInterrupt is raised once it has ended.
fn run_detached<R: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> R + Send,
) -> PyResult<(R, Option<PyErr>)> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = mpsc::channel::<()>();
            let handle = std::thread::Builder::new()
                .name("shashki-search".into())
                .stack_size(64 << 20)
                .spawn_scoped(scope, move || {
                    IN_SEARCH.with(|f| f.set(true));
                    let r = work();
                    drop(done);
                    r
                })
                .map_err(|e| error(Kind::Engine, format!("cannot start the search thread: {e}")))?;
            let mut signal = None;
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(Duration::from_millis(20))
            {
                if signal.is_none() {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        stop.store(true, Ordering::SeqCst);
                        signal = Some(e);
                    }
                }
            }
            match handle.join() {
                Ok(r) => Ok((r, signal)),
                Err(_) => fail(Kind::Engine, "the search thread panicked"),
            }
        })
    })
}

/// The draughts engine: the library's search with its transposition table,
/// endgame tables and evaluation weights.
#[pyclass(module = "shashki", name = "Engine", frozen)]
pub struct PyEngine {
    variant: Variant,
    searcher: Mutex<Searcher>,
    /// The running search's stop flag (the searcher's own, for good).
    stop: Arc<AtomicBool>,
    tables: Option<Arc<Tables>>,
    weights: Option<Weights>,
    threads: usize,
    hash_mb: usize,
    weights_path: Option<PathBuf>,
}

impl PyEngine {
    fn check_variant(&self, game: &Game) -> PyResult<()> {
        if game.variant() == self.variant {
            Ok(())
        } else {
            fail(
                Kind::Argument,
                format!(
                    "the engine plays {}, the board is {}",
                    self.variant,
                    game.variant()
                ),
            )
        }
    }

    /// The searcher, locked without holding the interpreter (a search that
    /// holds it may be waiting for the interpreter in a callback).
    fn lock<'a>(&'a self, py: Python<'_>) -> PyResult<std::sync::MutexGuard<'a, Searcher>> {
        if IN_SEARCH.with(|f| f.get()) {
            return fail(
                Kind::Engine,
                "a search callback cannot start a search or an analysis",
            );
        }
        loop {
            match self.searcher.try_lock() {
                Ok(guard) => return Ok(guard),
                Err(std::sync::TryLockError::Poisoned(p)) => return Ok(p.into_inner()),
                Err(std::sync::TryLockError::WouldBlock) => {
                    py.detach(|| std::thread::sleep(Duration::from_millis(1)))
                }
            }
        }
    }

    /// Warn about the problems the tables met (a damaged file: its
    /// positions are searched without the tables).
    fn table_warnings(&self, py: Python<'_>) -> PyResult<()> {
        for e in self.tables.iter().flat_map(|t| t.take_errors()) {
            let msg = std::ffi::CString::new(crate::errors::one_line(&e)).unwrap_or_default();
            PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
                &msg,
                1,
            )?;
        }
        Ok(())
    }

    /// A Python callback as a Rust one: the first exception it raises stops
    /// the search and is kept.
    fn callback<'a, T: for<'py> IntoPyObject<'py> + 'a>(
        cb: &'a Option<Py<PyAny>>,
        stop: &'a AtomicBool,
        failed: &'a Mutex<Option<PyErr>>,
    ) -> impl FnMut(T) + 'a {
        move |value: T| {
            let Some(cb) = cb else { return };
            let mut slot = failed.lock().unwrap_or_else(|p| p.into_inner());
            if slot.is_some() {
                return;
            }
            if let Err(e) = Python::attach(|py| cb.call1(py, (value,)).map(|_| ())) {
                *slot = Some(e);
                stop.store(true, Ordering::SeqCst);
            }
        }
    }
}

#[pymethods]
impl PyEngine {
    /// An engine for `variant` with `threads` search threads and a
    /// `hash_mb` MiB transposition table. `egdb`: the endgame tables'
    /// folder (a folder per variant, or one variant's); `None` (default)
    /// the default folder as the command line finds it (`$SHASHKI_EGDB`,
    /// else `~/.local/share/shashki/egdb`) when it holds tables; `False`
    /// none. `weights`: a weights file (text or pattern weights) in place
    /// of the built-in ones.
    #[new]
    #[pyo3(signature = (variant = "russian", threads = 1, hash_mb = 64, egdb = None, weights = None))]
    fn new(
        variant: &str,
        threads: usize,
        hash_mb: usize,
        egdb: Option<&Bound<'_, PyAny>>,
        weights: Option<PathBuf>,
    ) -> PyResult<PyEngine> {
        let v = variant_of(variant)?;
        within("threads", threads as u64, options::THREADS)?;
        within("hash_mb", hash_mb as u64, options::HASH_MIB)?;
        let tables = tables::open(&Folder::of(egdb)?, v)?;
        let weights_read = weights.as_deref().map(|p| read_weights(p, v)).transpose()?;
        let mut searcher = Searcher::try_new(hash_mb, threads)
            .map_err(|e| error(Kind::Engine, format!("hash_mb {hash_mb}: {e}")))?;
        searcher.set_tables(tables.clone(), MAX_PIECES);
        searcher.set_weights(weights_read.clone());
        let stop = searcher.stop_handle();
        Ok(PyEngine {
            variant: v,
            searcher: Mutex::new(searcher),
            stop,
            tables,
            weights: weights_read,
            threads,
            hash_mb,
            weights_path: weights,
        })
    }

    /// The variant the engine plays.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant.id()
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Transposition table size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// The folder of the endgame tables in use, or `None`.
    #[getter]
    fn egdb(&self) -> Option<PathBuf> {
        self.tables.as_ref().map(|t| t.dir().to_path_buf())
    }

    /// The most pieces the tables in use cover (0: no tables).
    #[getter]
    fn egdb_pieces(&self) -> u32 {
        self.tables.as_ref().map_or(0, |t| t.pieces())
    }

    /// The weights file in use, or `None` for the built-in weights.
    #[getter]
    fn weights(&self) -> Option<PathBuf> {
        self.weights_path.clone()
    }

    /// Search the board's position (its history counts: repetitions, the
    /// draw rules). Limits combine, the first reached ends the search:
    /// `depth` plies, `movetime` seconds, `nodes`; depth 10 when none is
    /// given. `multipv` best lines are searched. `on_info(info)` is called
    /// after each completed iteration (from the search's thread). The
    /// interpreter's other threads run during the search; `stop()` ends
    /// it from any of them.
    #[pyo3(signature = (board, depth = None, movetime = None, nodes = None, multipv = 1, on_info = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyBoard>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
        multipv: usize,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<PySearchResult> {
        let game = board.borrow_mut().game().clone();
        self.check_variant(&game)?;
        let limits = limits(depth, movetime, nodes, multipv)?;
        let mut guard = self.lock(py)?;
        guard.reset_stop();
        let searcher: &mut Searcher = &mut guard;
        let root = *game.position();
        let failed = Mutex::new(None);
        let stop = &*self.stop;
        let lines_n = limits.multipv.max(1);
        let ((result, last, elapsed), signal) = run_detached(py, stop, || {
            let mut report = PyEngine::callback::<PyInfo>(&on_info, stop, &failed);
            let mut last: Vec<Option<Info>> = vec![None; lines_n];
            let started = Instant::now();
            let r = searcher.search(&game, &limits, &mut |info| {
                let k = (info.multipv.max(1) - 1) as usize;
                if k < last.len() {
                    last[k] = Some(info.clone());
                }
                report(PyInfo::of(&root, info));
            });
            (r, last, started.elapsed())
        })?;
        let stopped = self.stop.load(Ordering::SeqCst);
        drop(guard);
        self.table_warnings(py)?;
        if let Some(e) = signal {
            return Err(e);
        }
        if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let lines: Vec<PyLine> = last
            .iter()
            .flatten()
            .map(|i| PyLine {
                score: PyScore::new(i.score, i.tb),
                depth: i.depth,
                pv: PyMove::line(&root, &i.pv),
            })
            .collect();
        let first = last.first().and_then(|i| i.as_ref());
        let searched = result.nodes > 0 || result.best.is_none();
        let score = match first {
            Some(i) => Some(PyScore::new(i.score, i.tb)),
            None if searched => Some(PyScore::new(Score::from_internal(result.score), false)),
            None => None,
        };
        let secs = elapsed.as_secs_f64();
        Ok(PySearchResult {
            best: result.best.map(|m| PyMove::new(root, m)),
            ponder: (result.best.zip(result.ponder)).map(|(b, p)| PyMove::new(root.play(&b), p)),
            score,
            pv: PyMove::line(&root, &result.pv),
            depth: result.depth,
            seldepth: first.map_or(0, |i| i.seldepth),
            nodes: result.nodes,
            nps: if secs > 0.0 {
                (result.nodes as f64 / secs) as u64
            } else {
                0
            },
            time: secs,
            tbhits: first.map_or(0, |i| i.tbhits),
            hashfull: first.map_or(0, |i| i.hashfull),
            lines,
            stopped,
        })
    }

    /// Stop the running search (from any thread): it returns at once with
    /// the best move found so far. No effect when nothing is searching.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Forget what earlier searches learnt (the transposition table), as
    /// for a new game.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        self.lock(py)?.clear();
        Ok(())
    }

    /// The static evaluation of the board's position for the side to move
    /// (centi-men; Adiyukh: hundredths of a point of the expected final
    /// count difference), with the engine's weights.
    fn evaluate(&self, board: &Bound<'_, PyBoard>) -> PyResult<i32> {
        let b = board.borrow();
        if b.position().variant() != self.variant {
            return fail(
                Kind::Argument,
                format!(
                    "the engine plays {}, the board is {}",
                    self.variant,
                    b.position().variant()
                ),
            );
        }
        let pos = b.position();
        Ok(match &self.weights {
            Some(w) => eval::evaluate_with(&pos, w),
            None => eval::evaluate(&pos),
        })
    }

    /// Analyse every position of `game` (a `shashki.pdn.Game` or a `Board`
    /// and its moves) as `shashki analyse` does: the value of each position,
    /// the best lines, what the played move lost and its glyph (`?!` from
    /// `inaccuracy`, `?` from `mistake`, `??` from `blunder` centi-men).
    /// Limits as in `search` (depth 10 when none is given). The table is
    /// cleared first. `on_position(report)` is called as each position is
    /// done. `stop()` ends the analysis early: the positions done before it
    /// are returned.
    #[pyo3(signature = (game, depth = None, movetime = None, multipv = 1, inaccuracy = 50, mistake = 100, blunder = 300, on_position = None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        multipv: usize,
        inaccuracy: i32,
        mistake: i32,
        blunder: i32,
        on_position: Option<Py<PyAny>>,
    ) -> PyResult<Vec<PyReport>> {
        let record: GameRecord = if let Ok(g) = game.cast::<PyGame>() {
            g.borrow().record(py)?
        } else if let Ok(b) = game.cast::<PyBoard>() {
            GameRecord::new(b.borrow_mut().game().clone())
        } else {
            return fail(
                Kind::Argument,
                "analyse: expected a shashki.pdn.Game or a shashki.Board",
            );
        };
        self.check_variant(&record.game)?;
        let t = Thresholds {
            inaccuracy,
            mistake,
            blunder,
        };
        if !(0 < t.inaccuracy && t.inaccuracy <= t.mistake && t.mistake <= t.blunder) {
            return fail(
                Kind::Argument,
                "thresholds must satisfy 0 < inaccuracy <= mistake <= blunder",
            );
        }
        let limits = limits(
            depth.or(movetime.is_none().then_some(10)),
            movetime,
            None,
            multipv,
        )?;
        let variant = self.variant;
        let mut guard = self.lock(py)?;
        guard.reset_stop();
        guard.clear();
        let searcher: &mut Searcher = &mut guard;
        let failed = Mutex::new(None);
        let stop = &*self.stop;
        let (((reports, cut), elapsed), signal) = run_detached(py, stop, || {
            let mut report = PyEngine::callback::<PyReport>(&on_position, stop, &failed);
            let mut cut = None;
            let started = Instant::now();
            let mut delivered = 0;
            let reports = analyse::analyse(&record, searcher, &limits, &t, &mut |r| {
                if cut.is_none() && stop.load(Ordering::SeqCst) {
                    cut = Some(delivered);
                }
                delivered += 1;
                if cut.is_none() {
                    report(PyReport::of(r, variant));
                }
            });
            ((reports, cut), started.elapsed())
        })?;
        let _ = elapsed;
        drop(guard);
        self.table_warnings(py)?;
        if let Some(e) = signal {
            return Err(e);
        }
        if let Some(e) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(e);
        }
        let keep = cut.unwrap_or(reports.len()).min(reports.len());
        Ok(reports[..keep]
            .iter()
            .map(|r| PyReport::of(r, variant))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "Engine('{}', threads={}, hash_mb={}, egdb_pieces={})",
            self.variant,
            self.threads,
            self.hash_mb,
            self.egdb_pieces()
        )
    }
}

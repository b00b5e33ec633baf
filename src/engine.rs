//! The engine behind both protocols: the game, the options, and a search
//! running in its own thread while the protocol keeps reading input.
//!
//! A front end (`uci`, `hub`) parses text and formats replies; everything
//! that changes state goes through an [`Engine`], which refuses changes
//! while a search runs (stop it first) and keeps its last good state on
//! every error. Options are read by [`crate::options`]' table into typed
//! settings, applied by [`Engine::set`] with one typed setter each.

use crate::clock::{Overhead, OverheadMeter};
use crate::egdb::{self, Tables};
use crate::eval::patterns::{is_patterns_file, Patterns};
use crate::eval::weights::Weights;
use crate::game::Game;
use crate::moves::Move;
use crate::options::{EvalKind, Options, Refusal, Setting};
use crate::search::{Info, Limits, SearchResult, Searcher};
use crate::variant::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Called with each report of a running search.
pub type InfoSink = Box<dyn FnMut(&Info) + Send>;
/// Called once with the result when a search ends.
pub type DoneSink = Box<dyn FnOnce(&Game, SearchResult) + Send>;
/// Called with a remark for the user before a search starts (the front end
/// sends it as an `info string`).
pub type NoteSink<'a> = &'a mut dyn FnMut(&str);

/// Endgame tables opened for (variant, folder) (`None` when none are
/// there), and the folder whose tables the user was last told of.
struct OpenTables {
    key: (Variant, String),
    tables: Option<Arc<Tables>>,
    told: Option<String>,
}

/// The engine state.
pub struct Engine {
    options: Options,
    game: Game,
    searcher: Option<Searcher>,
    running: Option<JoinHandle<Searcher>>,
    stop: Arc<AtomicBool>,
    /// While pondering: the limits to apply at `ponderhit`.
    pondering: Option<Limits>,
    /// The running search ends only when told (infinite or pondering).
    open_ended: bool,
    /// Set by the search thread just before it passes its result on.
    delivered: Arc<AtomicBool>,
    /// An infinite or pondering search holds its result until this is set
    /// (by `stop` or `ponderhit`), as UCI requires.
    release: Arc<AtomicBool>,
    /// Weights read from `Options::weights_file`, for the variant they name.
    weights: Option<(Variant, Weights)>,
    /// Pattern weights read from `Options::patterns_file`.
    patterns: Option<Arc<Patterns>>,
    /// What the client costs per move, learned from its clocks (shared with
    /// the search thread, which records each timed move it plays).
    meter: Arc<Mutex<OverheadMeter>>,
    /// The overhead last reported to the user as above the option.
    reported_overhead: u64,
    /// The endgame tables open for a variant and folder.
    tables: Option<OpenTables>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options and the Russian start position.
    pub fn new() -> Engine {
        let options = Options::default();
        // Parse the built-in weights (every variant's pattern tables) now,
        // not in the first search, on the clock.
        let _ = Weights::for_variant(options.variant);
        let searcher = Searcher::new(options.hash_mib, options.threads);
        let stop = searcher.stop_handle();
        Engine {
            game: Game::new(options.variant),
            options,
            searcher: Some(searcher),
            running: None,
            stop,
            pondering: None,
            open_ended: false,
            delivered: Arc::new(AtomicBool::new(true)),
            release: Arc::new(AtomicBool::new(true)),
            weights: None,
            patterns: None,
            meter: Arc::new(Mutex::new(OverheadMeter::new())),
            reported_overhead: 0,
            tables: None,
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Whether a search thread runs: what the front ends' waiting commands
    /// wait for. It ends just after its result is sent (`on_done` has
    /// returned), so a command run once this is false comes after the
    /// result's line.
    pub fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// A search thread that ended without its result (it panicked) is taken
    /// back: `true`, once, so the front end can say so and answer for it.
    pub fn failed(&mut self) -> bool {
        let ended = self.running.as_ref().is_some_and(|h| h.is_finished());
        if ended && !self.delivered.load(Ordering::SeqCst) {
            self.join();
            self.delivered.store(true, Ordering::SeqCst);
            return true;
        }
        false
    }

    /// The searcher, once no search runs. While one runs, state changes are
    /// refused (the reading loop must stay free to read `stop`).
    fn idle(&mut self) -> Result<&mut Searcher, Refusal> {
        // A search whose result is out is as good as over: its thread only
        // hands the searcher back.
        if self.searching() && !self.delivered.load(Ordering::SeqCst) {
            return Err(Refusal::Busy);
        }
        self.join();
        Ok(self
            .searcher
            .as_mut()
            .expect("the searcher is home when no search runs"))
    }

    /// Whether the running search ends only when told (infinite or
    /// pondering).
    pub fn open_ended(&self) -> bool {
        self.searching()
            && !self.delivered.load(Ordering::SeqCst)
            && (self.open_ended || self.pondering.is_some())
    }

    /// Wait for a finished search thread and take the searcher back.
    fn join(&mut self) {
        if let Some(h) = self.running.take() {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    // A panicked search thread loses its table: make a new one.
                    let s = Searcher::new(self.options.hash_mib, self.options.threads);
                    self.stop = s.stop_handle();
                    self.searcher = Some(s);
                }
            }
        }
    }

    /// Apply a setting the option table read ([`crate::options`]); nothing
    /// changes on error.
    pub fn set(&mut self, setting: Setting) -> Result<(), Refusal> {
        match setting {
            Setting::Variant(v) => self.set_variant(v),
            Setting::Hash(mib) => self.set_hash(mib),
            Setting::Threads(n) => self.set_threads(n),
            Setting::MultiPv(n) => self.set_multipv(n),
            Setting::Ponder(on) => {
                self.set_ponder(on);
                Ok(())
            }
            Setting::OwnBook(on) => {
                self.options.own_book = on;
                Ok(())
            }
            Setting::MoveOverhead(ms) => {
                self.set_move_overhead(ms);
                Ok(())
            }
            Setting::Weights(path) => self.set_weights(&path),
            Setting::Eval(kind) => self.set_eval(kind),
            Setting::EgdbPath(path) => self.set_egdb_path(&path),
            Setting::EgdbPieces(n) => self.set_egdb_pieces(n),
        }
    }

    /// `Variant`: the variant played, from its start position.
    pub fn set_variant(&mut self, v: Variant) -> Result<(), Refusal> {
        // A new game, as `new_game`: what the searcher learnt of the last
        // one (the table, the history of the quiet moves) is forgotten.
        self.idle()?.clear();
        self.options.variant = v;
        self.game = Game::new(v);
        Ok(())
    }

    /// `Hash`: a table of `mib` MiB (in [`crate::options::HASH_MIB`]). One
    /// the system refuses leaves a table of the old size.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), Refusal> {
        let old = self.options.hash_mib;
        let searcher = self.idle()?;
        if let Err(e) = searcher.set_hash(mib) {
            let _ = searcher.set_hash(old);
            return Err(Refusal::Failed(e));
        }
        self.options.hash_mib = mib;
        Ok(())
    }

    /// `Threads`: search threads (in [`crate::options::THREADS`]).
    pub fn set_threads(&mut self, n: usize) -> Result<(), Refusal> {
        self.idle()?.set_threads(n);
        self.options.threads = n;
        Ok(())
    }

    /// `MultiPV`: best lines reported (in [`crate::options::MULTIPV`]).
    pub fn set_multipv(&mut self, n: usize) -> Result<(), Refusal> {
        self.idle()?;
        self.options.multipv = n;
        Ok(())
    }

    /// `Ponder` (also while a search runs).
    pub fn set_ponder(&mut self, on: bool) {
        self.options.ponder = on;
    }

    /// `Move Overhead`, in milliseconds (also while a search runs).
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.options.move_overhead_ms = ms;
    }

    /// `Weights`: a weights text or pattern weights file, read now; empty:
    /// the built-in weights.
    pub fn set_weights(&mut self, path: &str) -> Result<(), Refusal> {
        self.idle()?;
        if path.is_empty() {
            self.weights = None;
            self.patterns = None;
            self.options.weights_file.clear();
            self.options.patterns_file.clear();
            return Ok(());
        }
        let failed = |why: String| Refusal::Failed(why);
        let bytes =
            std::fs::read(path).map_err(|e| failed(format!("cannot read '{path}': {e}")))?;
        if is_patterns_file(&bytes) {
            let p =
                Patterns::from_bytes(&bytes, None).map_err(|e| failed(format!("{path}: {e}")))?;
            self.patterns = Some(Arc::new(p));
            self.options.patterns_file = path.to_string();
        } else {
            let text = String::from_utf8(bytes).map_err(|_| {
                failed(format!(
                    "{path}: neither weights text (UTF-8) nor pattern weights"
                ))
            })?;
            let parsed = Weights::parse(&text).map_err(|e| failed(format!("{path}: {e}")))?;
            self.weights = Some(parsed);
            self.options.weights_file = path.to_string();
        }
        Ok(())
    }

    /// `Eval`: the evaluation played with.
    pub fn set_eval(&mut self, kind: EvalKind) -> Result<(), Refusal> {
        self.idle()?;
        self.options.eval = kind;
        Ok(())
    }

    /// `EGDB Path`: the endgame tables' folder, which must exist; empty:
    /// none.
    pub fn set_egdb_path(&mut self, path: &str) -> Result<(), Refusal> {
        if !path.is_empty() && !std::path::Path::new(path).is_dir() {
            return Err(Refusal::Failed(format!("'{path}' is not a folder")));
        }
        self.idle()?;
        self.options.egdb_path = path.to_string();
        Ok(())
    }

    /// `EGDB Pieces`: the most pieces probed (in
    /// [`crate::options::EGDB_PIECES`]).
    pub fn set_egdb_pieces(&mut self, n: u32) -> Result<(), Refusal> {
        self.idle()?;
        self.options.egdb_pieces = n;
        Ok(())
    }

    /// The endgame tables for the current variant and `EGDB Path`, opened
    /// when these change (a folder without tables for the variant: none),
    /// and what to tell the user before a search: once a folder, what it
    /// holds ([`egdb::summary`]), then the problems met since last asked:
    /// the tables' own (a damaged file) and an open that failed.
    fn tables(&mut self) -> (Option<Arc<Tables>>, Vec<String>) {
        let (tables, mut notes) = self.open_tables();
        let path = self.options.egdb_path.clone();
        if let Some(open) = self.tables.as_mut() {
            if open.told.as_ref() != Some(&path) {
                let what = if path.is_empty() {
                    "endgame tables: none (no folder set)".to_string()
                } else {
                    egdb::summary(std::path::Path::new(&path))
                };
                notes.insert(0, what);
                open.told = Some(path);
            }
        }
        (tables, notes)
    }

    /// [`Engine::tables`] without the summary.
    fn open_tables(&mut self) -> (Option<Arc<Tables>>, Vec<String>) {
        let key = (self.options.variant, self.options.egdb_path.clone());
        let mut notes = Vec::new();
        if self.tables.as_ref().map(|o| &o.key) != Some(&key) {
            let tables = if key.1.is_empty() || egdb::file::variant_code(key.0).is_none() {
                None
            } else {
                // The default folder need not exist, nor hold tables.
                let named = key.1 != Options::default().egdb_path;
                match Tables::find(std::path::Path::new(&key.1), key.0, named) {
                    Ok(t) => t.map(Arc::new),
                    Err(e) => {
                        notes.push(e);
                        None
                    }
                }
            };
            let told = self.tables.take().and_then(|o| o.told);
            self.tables = Some(OpenTables { key, tables, told });
        }
        let tables = self.tables.as_ref().and_then(|o| o.tables.clone());
        if let Some(t) = &tables {
            notes.extend(t.take_errors().into_iter().map(|e| {
                format!("endgame tables: {e}; the positions of that table are not probed")
            }));
        }
        (tables, notes)
    }

    /// What the endgame tables say of the current position, for `d`:
    /// `None` when no table covers it.
    pub fn table_value(&mut self) -> Option<String> {
        let tables = self.open_tables().0?;
        tables.describe(&self.game, self.options.egdb_pieces)
    }

    /// A new game: the table is cleared and the start position set.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.idle()?.clear();
        self.game = Game::new(self.options.variant);
        self.meter().new_game();
        Ok(())
    }

    fn meter(&self) -> std::sync::MutexGuard<'_, OverheadMeter> {
        self.meter.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// What is charged per move: the `Move Overhead` option, or what the
    /// client was measured to cost when that is more, and the reserve.
    pub fn overhead(&self) -> Overhead {
        self.meter().overhead(self.options.move_overhead_ms)
    }

    /// Set the position: start (`None`) or position text, then moves. All
    /// or nothing: on error the previous position stays.
    pub fn set_position(&mut self, text: Option<&str>, moves: &[&str]) -> Result<(), String> {
        self.idle()?;
        let variant = self.options.variant;
        let mut game = match text {
            None => Game::new(variant),
            Some(t) => {
                Game::from_text(variant, t).map_err(|e| format!("bad position text: {e}"))?
            }
        };
        for (i, m) in moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("move {} '{m}': {e}", i + 1))?;
        }
        self.game = game;
        Ok(())
    }

    /// Set the game, history included, as a front end built it (the
    /// CheckerBoard library rebuilds the history from the positions it is
    /// sent). Its variant must be the `Variant` option's. Refused while a
    /// search runs; on error the previous game stays.
    pub fn set_game(&mut self, game: Game) -> Result<(), String> {
        self.idle()?;
        if game.variant() != self.options.variant {
            return Err(format!(
                "the game is {} but the Variant option is {}",
                game.variant(),
                self.options.variant
            ));
        }
        self.game = game;
        Ok(())
    }

    /// Start a search. With `ponder`, it runs without limits until
    /// [`Engine::ponderhit`] (which applies `limits`) or [`Engine::stop`].
    /// `on_note` hears, before the search starts, when the overhead the
    /// client was measured to cost per move rises above the option.
    pub fn go(
        &mut self,
        mut limits: Limits,
        ponder: bool,
        on_note: NoteSink,
        mut on_info: InfoSink,
        on_done: DoneSink,
    ) -> Result<(), String> {
        let arrived = Instant::now();
        self.idle()?;
        // A timed move that follows our last one tells what the client took
        // in between.
        let timed = limits.clock.filter(|_| !ponder && !limits.infinite);
        match timed {
            Some(clock) => {
                self.meter().before(self.game.position(), &clock);
            }
            None => self.meter().forget(self.game.position().side_to_move()),
        }
        let overhead = self.overhead();
        let per_move = overhead.per_move_ms;
        if per_move > self.options.move_overhead_ms && per_move != self.reported_overhead {
            on_note(&format!(
                "move overhead: the client takes about {per_move} ms per move (measured), more than the option's {} ms; budgeting {per_move} ms and keeping {} ms in reserve",
                self.options.move_overhead_ms, overhead.reserve_ms
            ));
        }
        self.reported_overhead = per_move;
        let (tables, problems) = self.tables();
        for p in &problems {
            on_note(p);
        }
        let mut searcher = self.searcher.take().expect("idle");
        searcher.set_tables(tables, self.options.egdb_pieces);
        searcher.set_weights(self.eval_weights());
        searcher.set_book(self.options.own_book);
        // A flag of its own: a ponderhit timer of an earlier search holds the
        // old flag and cannot stop this one.
        self.stop = searcher.fresh_stop();
        limits.overhead = overhead;
        limits.started = Some(arrived);
        self.pondering = None;
        self.open_ended = ponder || limits.infinite;
        let run_limits = if ponder {
            self.pondering = Some(limits.clone());
            Limits {
                infinite: true,
                searchmoves: limits.searchmoves.clone(),
                multipv: limits.multipv,
                ..Limits::default()
            }
        } else {
            limits
        };
        let game = self.game.clone();
        let delivered = Arc::new(AtomicBool::new(false));
        self.delivered = delivered.clone();
        let release = Arc::new(AtomicBool::new(!self.open_ended));
        self.release = release.clone();
        let meter = self.meter.clone();
        let stop = self.stop.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let result = searcher.search(&game, &run_limits, &mut |i| on_info(i));
                while !release.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                // A timed move that ran its course is measured against the
                // next one (a move the client stopped early is not).
                {
                    let mut meter = meter.lock().unwrap_or_else(|p| p.into_inner());
                    match (timed, result.best) {
                        (Some(clock), Some(best)) if !stop.load(Ordering::SeqCst) => {
                            meter.after(game.position(), &clock, &best, arrived.elapsed());
                        }
                        _ => meter.forget(game.position().side_to_move()),
                    }
                }
                // Set before the result goes out: whoever reads it may
                // send the next command at once, and finds the search over.
                delivered.store(true, Ordering::SeqCst);
                on_done(&game, result);
                searcher
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(handle);
        Ok(())
    }

    /// The opponent played the expected move: the pondering search goes on
    /// as a normal one, stopping when the limits given to `go` are spent.
    pub fn ponderhit(&mut self) -> Result<(), String> {
        let Some(limits) = self.pondering.take() else {
            return Err("ponderhit without a pondering search".into());
        };
        self.release.store(true, Ordering::SeqCst);
        self.open_ended = limits.infinite;
        let budget = limits.time_budget(self.game.position());
        if let Some(ms) = budget {
            // The flag of this search only (each search gets a new one).
            let stop = self.stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(ms));
                stop.store(true, Ordering::SeqCst);
            });
        } else if !limits.infinite {
            // Depth or node limits: the pondering search has had its time.
            self.stop.store(true, Ordering::SeqCst);
        }
        Ok(())
    }

    /// Stop a running search and wait for it (its result is reported by
    /// the search thread through `on_done`).
    pub fn stop(&mut self) {
        self.pondering = None;
        self.open_ended = false;
        self.release.store(true, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
        self.join();
    }

    /// Wait until the running search ends by itself.
    pub fn wait(&mut self) {
        self.join();
    }

    /// The weights the next search evaluates with (`None`: the variant's
    /// built-in ones). Weights and patterns from files apply to the variant
    /// they were made for; `Eval hand` leaves the patterns out.
    fn eval_weights(&self) -> Option<Weights> {
        let v = self.game.variant();
        let text = self
            .weights
            .as_ref()
            .filter(|(wv, _)| *wv == v)
            .map(|(_, w)| w);
        let file_patterns = self.patterns.as_ref().filter(|p| p.variant() == v);
        let hand = self.options.eval == EvalKind::Hand;
        if text.is_none() && file_patterns.is_none() && !hand {
            return None;
        }
        let mut w = text.unwrap_or_else(|| Weights::for_variant(v)).clone();
        w.patterns = match (hand, file_patterns) {
            (true, _) => None,
            (false, Some(p)) => Some(p.clone()),
            (false, None) => Weights::for_variant(v).patterns.clone(),
        };
        Some(w)
    }

    /// Play moves on the current game (used by front ends that send moves
    /// one at a time).
    pub fn play(&mut self, mv: &Move) -> Result<(), String> {
        self.idle()?;
        self.game.play(mv).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `setoption name <name> value <value>`, as UCI does it: read by the
    /// option table, applied here; the error is UCI's.
    fn set(e: &mut Engine, name: &str, value: &str) -> Result<(), String> {
        crate::options::uci_set(name, value, |s| e.set(s))
    }

    #[test]
    fn weights_option_reads_a_file_and_keeps_state_on_error() {
        let mut e = Engine::new();
        let err = set(&mut e, "Weights", "/nonexistent/w.txt").unwrap_err();
        assert!(err.starts_with("option Weights: cannot read"), "{err}");
        assert_eq!(e.options().weights_file, "");
        let dir = std::env::temp_dir().join(format!("shashki-w-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "variant russian\nbogus 1\n").unwrap();
        let err = set(&mut e, "weights", bad.to_str().unwrap()).unwrap_err();
        assert!(err.contains("unknown parameter 'bogus'"), "{err}");
        let good = dir.join("good.txt");
        std::fs::write(&good, "variant russian\nman 120\n").unwrap();
        set(&mut e, "Weights", good.to_str().unwrap()).unwrap();
        assert_eq!(e.options().weights_file, good.to_str().unwrap());
        assert_eq!(
            e.weights.as_ref().map(|(v, w)| (*v, w.man)),
            Some((Variant::Russian, 120))
        );
        set(&mut e, "Weights", "<builtin>").unwrap();
        assert!(e.weights.is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn pattern_weights_and_the_eval_option() {
        use crate::eval::patterns::Layout;
        let mut e = Engine::new();
        let builtin = Weights::for_variant(Variant::Russian).patterns.clone();
        assert!(builtin.is_some());
        // Defaults: the built-in weights, patterns included.
        assert_eq!(e.eval_weights(), None);
        let dir = std::env::temp_dir().join(format!("shashki-p-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = vec![0i16; Layout::Board64.weight_count()];
        w[5] = 320;
        let p = Patterns::from_weights(Variant::Russian, w).unwrap();
        let good = dir.join("r.bin");
        std::fs::write(&good, p.to_bytes()).unwrap();
        set(&mut e, "Weights", good.to_str().unwrap()).unwrap();
        assert_eq!(e.options().patterns_file, good.to_str().unwrap());
        let used = e.eval_weights().expect("weights from the file");
        assert_eq!(used.patterns.as_deref(), Some(&p));
        // Damaged, truncated, of another shape: one error, the loaded
        // patterns stay.
        let mut bytes = p.to_bytes();
        let n = bytes.len();
        bytes[n / 2] ^= 0x40;
        let bad = dir.join("bad.bin");
        for (data, want) in [
            (bytes.clone(), "checksum"),
            (bytes[..n - 3].to_vec(), "truncated"),
            (b"SHKPATT\n\x01".to_vec(), "truncated"),
            (vec![0xff, 0xfe, 0x00], "neither weights text"),
        ] {
            std::fs::write(&bad, &data).unwrap();
            let err = set(&mut e, "Weights", bad.to_str().unwrap()).unwrap_err();
            assert!(
                err.starts_with("option Weights: ") && err.contains(want),
                "{err}"
            );
            assert!(!err.contains('\n'), "{err}");
            assert_eq!(e.options().patterns_file, good.to_str().unwrap());
        }
        // Patterns of another variant do not apply to this one.
        set(&mut e, "Variant", "brazilian").unwrap();
        let used = e.eval_weights();
        assert!(used.is_none(), "{used:?}");
        set(&mut e, "Variant", "russian").unwrap();
        // Eval hand: no patterns; a bad value changes nothing.
        set(&mut e, "Eval", "hand").unwrap();
        assert_eq!(e.eval_weights().map(|w| w.patterns), Some(None));
        let err = set(&mut e, "Eval", "neural").unwrap_err();
        assert_eq!(err, "option Eval: value 'neural' is not patterns or hand");
        assert_eq!(e.options().eval, EvalKind::Hand);
        set(&mut e, "eval", "Patterns").unwrap();
        set(&mut e, "Weights", "<builtin>").unwrap();
        assert_eq!(e.eval_weights(), None);
        // Tower patterns on the 8x10 board: loaded and used in their variant.
        let mut w = vec![0i16; Layout::Board80.weight_count()];
        w[11] = -48;
        let p80 = Patterns::from_weights(Variant::Adiyukh80, w).unwrap();
        let file = dir.join("a80.bin");
        std::fs::write(&file, p80.to_bytes()).unwrap();
        set(&mut e, "Variant", "adiyukh-80").unwrap();
        set(&mut e, "Weights", file.to_str().unwrap()).unwrap();
        let used = e.eval_weights().expect("weights from the file");
        assert_eq!(used.patterns.as_deref(), Some(&p80));
        set(&mut e, "Eval", "hand").unwrap();
        assert_eq!(e.eval_weights().map(|w| w.patterns), Some(None));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Every option's value as UCI, the Hub and CheckerBoard print it reads
    /// back, through the table and the typed setters, to the same options.
    #[test]
    fn every_option_printed_reads_back_unchanged() {
        use crate::options;
        let mut e = Engine::new();
        // The default folder need not exist.
        e.set_egdb_path("").unwrap();
        let before = e.options().clone();
        for line in options::uci_lines(&before) {
            let rest = line.strip_prefix("option name ").unwrap();
            let (name, rest) = rest.split_once(" type ").unwrap();
            let default = rest.split_once(" default ").unwrap().1;
            let value = default.split(" min ").next().unwrap();
            let value = value.split(" var ").next().unwrap();
            set(&mut e, name, value).unwrap();
        }
        assert_eq!(e.options(), &before);
        for p in options::hub_params() {
            let line = p.line(&before, |v| v.to_string());
            let value = line.split(" value=").nth(1).unwrap();
            let value = value.split(" type=").next().unwrap();
            p.set(value, |s| e.set(s)).unwrap();
        }
        assert_eq!(e.options(), &before);
        for name in options::TABLE.iter().filter_map(|o| o.cb) {
            let opt = options::cb_option(name).unwrap();
            opt.set(&opt.get(&before), &before, |s| e.set(s)).unwrap();
        }
        assert_eq!(e.options(), &before);
    }

    #[test]
    fn set_game_keeps_the_history_and_refuses_another_variant() {
        let mut e = Engine::new();
        let mut g = Game::new(Variant::Russian);
        g.play_text("c3-d4").unwrap();
        g.play_text("f6-g5").unwrap();
        e.set_game(g).unwrap();
        assert_eq!(e.game().moves().len(), 2);
        let err = e.set_game(Game::new(Variant::Brazilian)).unwrap_err();
        assert!(err.contains("brazilian"), "{err}");
        assert_eq!(e.game().moves().len(), 2);
    }
}

//! A session as the server holds it: the game ([`Session`]), its engine,
//! and the channel of events its page listens to (the WebSocket).
//!
//! Events are JSON text, each with a `type`:
//!
//! * `info`: a search's `info` line: `search`, `depth`, `seldepth`,
//!   `multipv`, `score` (`{"cp": 12}`, `{"win": 3}` or `{"loss": 3}`, the
//!   side to move's view), `white` (the same score from White's view, for
//!   the evaluation bar), `nodes`, `nps`, `time`, `pv` (move texts);
//! * `bestmove`: `search`, `move` (null when there is none) and `played`
//!   (true when the search was asked to play and the move was played);
//! * `state`: `state`, the session's new state (after an engine move);
//! * `text`: an `info string` line of the engine (its errors): `search`, `text`;
//! * `engine`: `status`, the engine's status (after a start or restart);
//! * `died`: the engine process ended: `exit` (how), `search` (the search
//!   it was running, if any).

use crate::engine::{Engine, Event, Search, Sink, Status};
use crate::info::{info_json, negate, score_json};
use crate::session::Session;
use crate::view;
use serde_json::{json, Value};
use shashki::protocol::Go;
use shashki::{fen, notation, Color};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;
use tokio::sync::broadcast;

/// The search whose results are awaited.
#[derive(Clone, Copy, Debug)]
struct Running {
    id: u64,
    side: Color,
    /// The position searched: its key and the cursor.
    key: u64,
    ply: usize,
    /// Play the best move when it comes.
    play: bool,
}

/// The part of a session behind a plain lock (never held across an await).
pub struct Core {
    pub session: Session,
    next_search: u64,
    running: Option<Running>,
    /// The status of the engine started last, if any.
    engine_status: Option<Status>,
}

/// One live session.
pub struct Live {
    pub id: String,
    core: Mutex<Core>,
    /// The engine; an async lock, since starting one takes a handshake.
    pub engine: tokio::sync::Mutex<Option<Engine>>,
    events: broadcast::Sender<String>,
    /// Engines started so far.
    pub starts: AtomicU32,
    last_used: Mutex<Instant>,
    /// The stamp of the last state made (see [`Live::state_of`]).
    stamps: AtomicU64,
}

impl Live {
    pub fn new(id: String, session: Session) -> Live {
        let (events, _) = broadcast::channel(1024);
        Live {
            id,
            core: Mutex::new(Core {
                session,
                next_search: 1,
                running: None,
                engine_status: None,
            }),
            engine: tokio::sync::Mutex::new(None),
            events,
            starts: AtomicU32::new(0),
            last_used: Mutex::new(Instant::now()),
            stamps: AtomicU64::new(0),
        }
    }

    /// Lock the game (marks the session used).
    pub fn core(&self) -> std::sync::MutexGuard<'_, Core> {
        self.touch();
        self.core.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Mark the session used now (a request, a WebSocket coming or going).
    pub fn touch(&self) {
        *self.last_used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// How long since the session was last used (see [`Live::touch`]).
    pub fn idle(&self) -> std::time::Duration {
        self.last_used
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .elapsed()
    }

    /// A receiver of the session's events.
    pub fn subscribe(&self) -> broadcast::Receiver<String> {
        self.events.subscribe()
    }

    /// How many WebSockets listen to the session's events.
    pub fn watchers(&self) -> usize {
        self.events.receiver_count()
    }

    fn emit(&self, event: Value) {
        let _ = self.events.send(event.to_string());
    }

    /// The JSON state of the session.
    pub fn state(&self) -> Value {
        let core = self.core();
        self.state_of(&core)
    }

    /// The JSON state of the session, with a `stamp` that grows with each
    /// state made: states are made under the session's lock, so a larger
    /// stamp is a later state, and the page drops a state that arrives
    /// after a later one (answers and events may overtake each other).
    pub fn state_of(&self, core: &Core) -> Value {
        let engine = core
            .engine_status
            .as_ref()
            .map(|s| serde_json::to_value(s).unwrap_or(Value::Null));
        let mut v = view::state(&self.id, &core.session, engine);
        v["stamp"] = json!(self.stamps.fetch_add(1, Ordering::SeqCst) + 1);
        v
    }

    /// Record the status of a newly started engine and tell the page.
    pub fn engine_started(&self, status: Status) {
        let value = serde_json::to_value(&status).unwrap_or(Value::Null);
        self.core().engine_status = Some(status);
        self.emit(json!({ "type": "engine", "status": value }));
    }

    /// Refresh the stored engine status from the engine.
    pub fn set_engine_status(&self, status: Option<Status>) {
        self.core().engine_status = status;
    }

    /// The sink for this session's engine: events become JSON messages.
    pub fn sink(self: &Arc<Self>) -> Sink {
        let weak: Weak<Live> = Arc::downgrade(self);
        Arc::new(move |event| {
            if let Some(live) = weak.upgrade() {
                live.on_event(event);
            }
        })
    }

    fn on_event(&self, event: Event) {
        match event {
            Event::Info { search, info } => {
                let side = {
                    let core = self.core.lock().unwrap_or_else(|e| e.into_inner());
                    match core.running {
                        Some(r) if r.id == search => r.side,
                        _ => return,
                    }
                };
                let white = info.score.map(|s| match side {
                    Color::White => s,
                    Color::Black => negate(s),
                });
                let mut v = info_json(&info);
                v["type"] = json!("info");
                v["search"] = json!(search);
                v["white"] = score_json(white);
                self.emit(v);
            }
            Event::BestMove { search, mv } => {
                let mut core = self.core.lock().unwrap_or_else(|e| e.into_inner());
                let running = core.running.filter(|r| r.id == search);
                // The best move of a search replaced by a newer one changes
                // nothing: the newer one runs on.
                if running.is_some() {
                    core.running = None;
                    if let Some(st) = core.engine_status.as_mut() {
                        st.state = "ready";
                        st.search = None;
                    }
                }
                let mut played = false;
                if let (Some(r), Some(text)) = (running, &mv) {
                    let here =
                        core.session.position().key() == r.key && core.session.ply() == r.ply;
                    if r.play && here {
                        played = core.session.play_text(text).is_ok();
                    }
                }
                let state = played.then(|| self.state_of(&core));
                drop(core);
                self.emit(
                    json!({ "type": "bestmove", "search": search, "move": mv, "played": played }),
                );
                if let Some(state) = state {
                    self.emit(json!({ "type": "state", "state": state }));
                }
            }
            Event::Text { search, text } => {
                self.emit(json!({ "type": "text", "search": search, "text": text }));
            }
            Event::Died { search, exit } => {
                {
                    let mut core = self.core.lock().unwrap_or_else(|e| e.into_inner());
                    core.running = None;
                    if let Some(st) = core.engine_status.as_mut() {
                        st.state = "dead";
                        st.search = None;
                        st.exit = Some(exit.clone());
                    }
                }
                self.emit(json!({ "type": "died", "search": search, "exit": exit }));
            }
        }
    }

    /// Prepare a search of the current position (its id and what the
    /// engine needs); refused when the game is over.
    pub fn search(&self, limits: Go, multipv: u32, play: bool) -> Result<Search, String> {
        let mut core = self.core();
        if let Some(o) = core.session.game().outcome() {
            return Err(format!("the game is over: {o}"));
        }
        let id = core.next_search;
        core.next_search += 1;
        let game = core.session.game();
        let search = Search {
            id,
            variant: core.session.variant(),
            start: fen::position_text(game.start()),
            moves: notation::line_texts(game.start(), game.moves()),
            start_position: *game.start(),
            line: game.moves().to_vec(),
            limits,
            multipv,
        };
        let pos = *core.session.position();
        core.running = Some(Running {
            id,
            side: pos.side_to_move(),
            key: pos.key(),
            ply: core.session.ply(),
            play,
        });
        if let Some(st) = core.engine_status.as_mut() {
            st.state = "searching";
            st.search = Some(id);
        }
        Ok(search)
    }

    /// Forget a search that could not be sent.
    pub fn search_failed(&self, id: u64) {
        let mut core = self.core();
        if core.running.is_some_and(|r| r.id == id) {
            core.running = None;
        }
        // The status said `searching` for it: the engine runs nothing for it.
        if let Some(st) = core
            .engine_status
            .as_mut()
            .filter(|st| st.search == Some(id))
        {
            st.state = "ready";
            st.search = None;
        }
    }

    /// Count one more engine start against `limit`.
    pub fn count_start(&self, limit: u32) -> Result<(), String> {
        let n = self.starts.fetch_add(1, Ordering::SeqCst);
        if n >= limit {
            self.starts.fetch_sub(1, Ordering::SeqCst);
            return Err(format!(
                "this session has started {n} engines, the limit; open a new session"
            ));
        }
        Ok(())
    }
}

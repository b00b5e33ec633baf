//! The sessions of the server (one per browser tab), their ids and limits:
//! at most `max_sessions` at once (a session with no WebSocket and no
//! request for `idle` closes; a session whose page went away closes after
//! `grace`), at most `max_engine_starts` engines started by one
//! session, and the engines' tables kept to `hash_mib` each.

use crate::engine::EngineConfig;
use crate::live::Live;
use crate::session::Session;
use shashki::Variant;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine every session starts (from the command line only).
    pub engine: EngineConfig,
    pub max_sessions: usize,
    pub max_engine_starts: u32,
    /// A session with no WebSocket that gets no request this long closes,
    /// its engine quitting (one made through the API by a script that went
    /// away); 5 minutes in the program. A session watched by a WebSocket
    /// (an open tab) does not expire.
    pub idle: Duration,
    /// A session whose last WebSocket closed (its tab was closed) is
    /// closed, its engine with it, when no WebSocket comes this long.
    pub grace: Duration,
}

/// All sessions.
pub struct Registry {
    pub config: Config,
    sessions: Mutex<HashMap<String, Arc<Live>>>,
    counter: AtomicU64,
}

impl Registry {
    pub fn new(config: Config) -> Registry {
        Registry {
            config,
            sessions: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
        }
    }

    /// A new session, or an error when the server is full.
    pub fn create(&self, variant: Variant) -> Result<Arc<Live>, String> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.len() >= self.config.max_sessions {
            // Expired ones whose closing has not come round yet.
            let idle = self.config.idle;
            sessions.retain(|_, s| s.watchers() > 0 || s.idle() < idle);
        }
        if sessions.len() >= self.config.max_sessions {
            return Err(format!(
                "too many sessions ({} open, the limit); close another tab or try later",
                sessions.len()
            ));
        }
        let id = self.new_id();
        let live = Arc::new(Live::new(id.clone(), Session::new(variant)));
        sessions.insert(id, live.clone());
        Ok(live)
    }

    pub fn get(&self, id: &str) -> Option<Arc<Live>> {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// A session and a new receiver of its events (taken under the
    /// registry's lock, so that [`Registry::close_unwatched`] sees it).
    pub fn watch(&self, id: &str) -> Option<(Arc<Live>, broadcast::Receiver<String>)> {
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let live = sessions.get(id)?.clone();
        let rx = live.subscribe();
        Some((live, rx))
    }

    /// Close a session if no WebSocket watches it; whether it was closed.
    pub fn close_unwatched(&self, id: &str) -> bool {
        self.close_if(id, |s| s.watchers() == 0).is_some()
    }

    /// Close a session with no WebSocket unused for [`Config::idle`]; the
    /// session if it was closed.
    pub fn close_expired(&self, id: &str) -> Option<Arc<Live>> {
        let idle = self.config.idle;
        self.close_if(id, |s| s.watchers() == 0 && s.idle() >= idle)
    }

    /// Close a session if `test` says so (under the lock, so that no
    /// WebSocket comes between); the session if it was closed.
    fn close_if(&self, id: &str, test: impl Fn(&Live) -> bool) -> Option<Arc<Live>> {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        if sessions.get(id).is_some_and(|s| test(s)) {
            return sessions.remove(id);
        }
        None
    }

    /// Close a session (its engine quits when the last request using it ends).
    pub fn remove(&self, id: &str) -> bool {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
            .is_some()
    }

    /// 128 random bits as hex, unguessable by other pages.
    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::SeqCst);
        let half = |salt: u64| {
            let mut h = RandomState::new().build_hasher();
            h.write_u64(n);
            h.write_u64(salt);
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0),
            );
            h.finish()
        };
        format!("{:016x}{:016x}", half(1), half(2))
    }
}

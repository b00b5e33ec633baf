//! Shashki in the browser: a small web server that serves a board page and
//! a JSON API for it, and drives an engine as a child process over its
//! protocol. Modules, from the game outwards:
//!
//! - [`entry`]: move entry square by square (paths, the squares that may come next).
//! - [`session`]: one game: variant, start, the line of moves and its cursor, PDN tags.
//! - [`view`]: a session as the JSON state the page draws.
//! - [`info`]: the engine's output lines read (`info`, `bestmove`, handshake).
//! - [`hub`]: the Hub protocol: the engine's lines sorted, positions and moves sent.
//! - [`engine`]: the engine process: handshake, searches, stop, death.
//! - [`live`]: a session with its engine and its channel of events.
//! - [`registry`]: the sessions, their ids and the server's limits.
//! - [`error`]: the API's one-line JSON errors.
//! - [`request`]: request bodies read field by field, each error one line.
//! - [`api`]: the HTTP routes and the WebSocket.
//! - [`assets`]: the page's files, built into the binary.

pub mod api;
pub mod assets;
pub mod engine;
pub mod entry;
pub mod error;
pub mod hub;
pub mod info;
pub mod live;
pub mod registry;
pub mod request;
pub mod session;
pub mod view;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use registry::Config;

/// The whole server as a router (`loopback_only`: see [`api::router`]).
pub fn app(config: Config, loopback_only: bool) -> axum::Router {
    api::router(Arc::new(registry::Registry::new(config)), loopback_only)
}

/// This program's own engine: `shashki` in the folder of `exe` (or the
/// folder above, for a test binary in `target/<profile>/deps`).
pub fn engine_beside(exe: &Path) -> Result<PathBuf, String> {
    let name = format!("shashki{}", std::env::consts::EXE_SUFFIX);
    let dir = exe.parent().unwrap_or(Path::new("."));
    let mut tried = Vec::new();
    for d in [Some(dir), dir.parent()].into_iter().flatten() {
        let p = d.join(&name);
        if p.is_file() {
            return Ok(p);
        }
        tried.push(p.display().to_string());
    }
    Err(format!(
        "the engine '{name}' was not found beside this program (looked for {}); build it with 'cargo build --release' (which builds both), or name an engine with --engine",
        tried.join(", ")
    ))
}

//! The HTTP routes: the page's files, and the JSON API the page uses.
//!
//! Every request body is a JSON object (an empty body counts as `{}`; a
//! field given as `null` counts as not given); unknown fields are refused
//! (see [`crate::request`]). Every error is `{"error": "<one line>"}` with
//! a 4xx status, and a request that fails changes nothing. A bad field's
//! error names it, what it needs and what it got, as the engine's do:
//! `"depth" needs a whole number from 1 to 1000, not 99999`.
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/sessions` | `{"variant"?}` | 201, the state (see [`crate::view`]) |
//! | `GET /api/sessions/{id}` | | the state |
//! | `DELETE /api/sessions/{id}` | | `{"closed": true}` |
//! | `POST .../new` | `{"variant"?}` | the state of a new game |
//! | `POST .../position` | `{"fen", "variant"?}` | the state |
//! | `POST .../pdn` | `{"pdn", "game"?}` (game from 0) | the state, cursor at the end |
//! | `POST .../pdn/file` | the bytes of a PDN file (UTF-8, else Windows-1251) | the state of its first game |
//! | `GET .../pdn` | | the line as PDN text (a download) |
//! | `POST .../move` | `{"move": "c3-d4"}` or `{"path": ["c3", "e5"]}` | `{"played": "c3:e5:g3", "state"}` or `{"partial": {"path", "next", "candidates"}}` |
//! | `POST .../takeback` | `{"plies"?}` (default 1) | the state |
//! | `POST .../goto` | `{"ply"}` | the state (cursor moved along the line) |
//! | `POST .../flip` | `{"flip"?}` (default: toggle) | the state |
//! | `GET .../engine` | | `{"engine": status or null, "starts", "max_starts"}` |
//! | `POST .../engine/start` | | the engine's status (started if not running) |
//! | `POST .../engine/restart` | | the status of a new engine process |
//! | `POST .../engine/go` | `{"depth"?, "movetime"?, "nodes"?, "wtime"?, "btime"?, "winc"?, "binc"?, "infinite"?, "multipv"?, "play"?}` | `{"search": id}` |
//! | `POST .../engine/stop` | | `{"stopping": true}` |
//! | `GET .../ws` | | a WebSocket of the session's events (see [`crate::live`]) |
//!
//! When a session's last WebSocket closes, its engine's search stops, and
//! the session closes (its engine quits) unless a WebSocket comes within
//! the grace period ([`crate::Config::grace`]). A session with no
//! WebSocket (made by a script, say) closes when it gets no request for
//! [`crate::Config::idle`]; every request to it counts as use.

use crate::engine::{Engine, Status};
use crate::error::ApiError;
use crate::live::Live;
use crate::registry::Registry;
use crate::request::Fields;
use crate::session::Played;
use axum::body::Body;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Request, State};
use axum::http::{header, StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::{json, Value};
use shashki::protocol::Go;
use shashki::{input, options, Variant};
use std::sync::Arc;
use tokio::sync::broadcast;

/// The largest request body (a PDN file of many games fits).
pub const MAX_BODY: usize = 4 << 20;

type Reg = Arc<Registry>;
type ApiResult = Result<Response, ApiError>;

/// The router of the whole server. With `loopback_only`, requests must
/// name a loopback host (`localhost` or a loopback address such as
/// `127.0.0.1`, `127.0.0.2` or `[::1]`), so that a page
/// of another site cannot reach the server through a name it controls.
pub fn router(reg: Reg, loopback_only: bool) -> Router {
    let s = "/api/sessions/{id}";
    let mut r = Router::new()
        .route("/api/sessions", post(create))
        .route(s, get(state).delete(close))
        .route(&format!("{s}/new"), post(new_game))
        .route(&format!("{s}/position"), post(set_position))
        .route(&format!("{s}/pdn"), get(export_pdn).post(load_pdn))
        .route(&format!("{s}/pdn/file"), post(load_pdn_file))
        .route(&format!("{s}/move"), post(play))
        .route(&format!("{s}/takeback"), post(takeback))
        .route(&format!("{s}/goto"), post(goto))
        .route(&format!("{s}/flip"), post(flip))
        .route(&format!("{s}/engine"), get(engine_status))
        .route(&format!("{s}/engine/start"), post(engine_start))
        .route(&format!("{s}/engine/restart"), post(engine_restart))
        .route(&format!("{s}/engine/go"), post(engine_go))
        .route(&format!("{s}/engine/stop"), post(engine_stop))
        .route(&format!("{s}/ws"), get(events))
        .fallback(files)
        .with_state(reg);
    if loopback_only {
        r = r.layer(middleware::from_fn(loopback_host));
    }
    r.layer(middleware::from_fn(same_origin))
}

/// A request a browser sends from a page (it names the page's `Origin`)
/// must come from this server's own page: another site's page cannot make
/// sessions or start engines here.
async fn same_origin(req: Request, next: Next) -> Response {
    let (origin, host) = {
        let text = |name| {
            req.headers()
                .get(name)
                .and_then(|h| h.to_str().ok())
                .map(str::to_string)
        };
        (text(header::ORIGIN), text(header::HOST))
    };
    if let Some(origin) = origin {
        let host = host.unwrap_or_default();
        let origin_host = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .unwrap_or("");
        if origin_host.is_empty() || !origin_host.eq_ignore_ascii_case(&host) {
            return ApiError::with(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from the page at {} are not served here",
                    input::quote(&origin)
                ),
            )
            .into_response();
        }
    }
    next.run(req).await
}

async fn loopback_host(req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.split(':').next().unwrap_or(""),
    };
    let loopback = name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if loopback {
        next.run(req).await
    } else {
        ApiError::with(
            StatusCode::FORBIDDEN,
            format!(
                "host {} is not a loopback name; open http://127.0.0.1",
                input::quote(host)
            ),
        )
        .into_response()
    }
}

async fn files(uri: Uri) -> Response {
    if let Some((ctype, content)) = crate::assets::find(uri.path()) {
        return ([(header::CONTENT_TYPE, ctype)], content).into_response();
    }
    ApiError::not_found(format!("nothing at {}", input::quote(uri.path()))).into_response()
}

/// Read a JSON object body (empty: `{}`) with fields among `takes`.
async fn read(body: Body, takes: &[&str]) -> Result<Fields, ApiError> {
    let bytes = axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| {
        ApiError::with(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body too large (limit {} MiB)", MAX_BODY >> 20),
        )
    })?;
    Ok(Fields::parse(&bytes, takes)?)
}

/// The session of a request (marked used).
fn live(reg: &Registry, id: &str) -> Result<Arc<Live>, ApiError> {
    let l = reg.get(id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no session {} (closed or expired); create a new one",
            input::quote(id)
        ))
    })?;
    l.touch();
    Ok(l)
}

/// The body's `"variant"`, if given.
fn variant(b: &Fields) -> Result<Option<Variant>, ApiError> {
    Ok(b.name(
        "variant",
        "russian, brazilian, adiyukh-64 or adiyukh-80",
        |v| v.parse::<Variant>().ok(),
    )?)
}

fn ok(v: Value) -> ApiResult {
    Ok(Json(v).into_response())
}

async fn create(State(reg): State<Reg>, body: Body) -> ApiResult {
    let b = read(body, &["variant"]).await?;
    let v = variant(&b)?.unwrap_or(Variant::Russian);
    let live = reg.create(v).map_err(ApiError::limit)?;
    tokio::spawn(expire(reg.clone(), live.id.clone()));
    Ok((StatusCode::CREATED, Json(live.state())).into_response())
}

/// Close session `id` once it has had no WebSocket and no request for
/// [`crate::Config::idle`], its engine quitting; ends with the session.
async fn expire(reg: Reg, id: String) {
    let idle = reg.config.idle;
    loop {
        let wait = match reg.get(&id) {
            None => return,
            Some(l) if l.watchers() > 0 => idle,
            Some(l) => match idle.checked_sub(l.idle()) {
                Some(left) if !left.is_zero() => left,
                _ => {
                    if let Some(l) = reg.close_expired(&id) {
                        *l.engine.lock().await = None;
                        return;
                    }
                    idle
                }
            },
        };
        tokio::time::sleep(wait.max(std::time::Duration::from_millis(10))).await;
    }
}

async fn state(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    ok(live(&reg, &id)?.state())
}

async fn close(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    reg.remove(&id);
    // Quit its engine now, not when the last reference goes.
    *l.engine.lock().await = None;
    ok(json!({ "closed": true }))
}

async fn new_game(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["variant"]).await?;
    let v = variant(&b)?;
    l.core().session.new_game(v);
    if let Some(e) = l.engine.lock().await.as_ref() {
        e.new_game();
    }
    ok(l.state())
}

async fn set_position(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["fen", "variant"]).await?;
    let fen = b
        .text("fen")?
        .ok_or_else(|| ApiError::bad("give the position text as \"fen\""))?;
    let v = variant(&b)?;
    let mut core = l.core();
    core.session.set_position(v, &fen)?;
    ok(l.state_of(&core))
}

async fn load_pdn(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["pdn", "game"]).await?;
    let text = b
        .text("pdn")?
        .ok_or_else(|| ApiError::bad("give the PDN text as \"pdn\""))?;
    let game = b.whole("game", COUNT_FROM_0)?.unwrap_or(0);
    let game = usize::try_from(game).unwrap_or(usize::MAX);
    let mut core = l.core();
    core.session.load_pdn(&text, game)?;
    ok(l.state_of(&core))
}

/// A PDN file as it was uploaded: its bytes, decoded as the PDN reader
/// reads files (UTF-8 when valid, else Windows-1251).
async fn load_pdn_file(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let bytes = axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| {
        ApiError::with(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("PDN file too large (limit {} MiB)", MAX_BODY >> 20),
        )
    })?;
    let text = shashki::pdn::decode(&bytes, None)
        .map_err(|e| ApiError::bad(format!("the PDN file is {e}")))?;
    let mut core = l.core();
    core.session.load_pdn(&text, 0)?;
    ok(l.state_of(&core))
}

async fn export_pdn(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    let text = l.core().session.pdn();
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"game.pdn\"",
            ),
        ],
        text,
    )
        .into_response())
}

async fn play(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["move", "path"]).await?;
    let text = b.text("move")?;
    let path = b.texts("path", "squares (text such as \"c3\")")?;
    let mut core = l.core();
    match (text, path) {
        (Some(text), None) => {
            let played = core.session.play_text(&text)?;
            ok(json!({ "played": played, "state": l.state_of(&core) }))
        }
        (None, Some(path)) => match core.session.play_path(&path)? {
            Played::Move(played) => ok(json!({ "played": played, "state": l.state_of(&core) })),
            Played::Partial { next, candidates } => ok(json!({
                "partial": { "path": path, "next": next, "candidates": candidates }
            })),
        },
        _ => Err(ApiError::bad(
            "give either \"move\" (move text) or \"path\" (a list of squares)",
        )),
    }
}

async fn takeback(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["plies"]).await?;
    let plies = b
        .whole("plies", input::Range::new(1, u64::MAX))?
        .unwrap_or(1);
    let mut core = l.core();
    core.session
        .takeback(usize::try_from(plies).unwrap_or(usize::MAX))?;
    ok(l.state_of(&core))
}

async fn goto(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["ply"]).await?;
    let ply = b
        .whole("ply", COUNT_FROM_0)?
        .ok_or_else(|| ApiError::bad("give the move number as \"ply\""))?;
    let mut core = l.core();
    core.session
        .goto(usize::try_from(ply).unwrap_or(usize::MAX))?;
    ok(l.state_of(&core))
}

async fn flip(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = read(body, &["flip"]).await?;
    let flip = b.flag("flip")?;
    let mut core = l.core();
    core.session.flip = flip.unwrap_or(!core.session.flip);
    ok(l.state_of(&core))
}

async fn engine_status(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    let status = l.engine.lock().await.as_ref().map(Engine::status);
    l.set_engine_status(status.clone());
    ok(json!({
        "engine": status,
        "starts": l.starts.load(std::sync::atomic::Ordering::SeqCst),
        "max_starts": reg.config.max_engine_starts,
    }))
}

/// Start a new engine process in the slot (the old one, if any, quits).
async fn start_engine(
    reg: &Registry,
    l: &Arc<Live>,
    slot: &mut Option<Engine>,
) -> Result<Status, ApiError> {
    l.count_start(reg.config.max_engine_starts)
        .map_err(ApiError::limit)?;
    *slot = None;
    let engine = Engine::start(&reg.config.engine, l.sink())
        .await
        .map_err(|e| ApiError::with(StatusCode::BAD_GATEWAY, e))?;
    let status = engine.status();
    l.engine_started(status.clone());
    *slot = Some(engine);
    Ok(status)
}

async fn engine_start(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    let mut slot = l.engine.lock().await;
    if let Some(e) = slot.as_ref().filter(|e| !e.is_dead()) {
        return ok(serde_json::to_value(e.status()).unwrap_or(Value::Null));
    }
    let status = start_engine(&reg, &l, &mut slot).await?;
    ok(serde_json::to_value(status).unwrap_or(Value::Null))
}

async fn engine_restart(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    let mut slot = l.engine.lock().await;
    let status = start_engine(&reg, &l, &mut slot).await?;
    ok(serde_json::to_value(status).unwrap_or(Value::Null))
}

/// The fields of `engine/go`.
const GO_FIELDS: [&str; 10] = [
    "depth", "movetime", "nodes", "wtime", "btime", "winc", "binc", "infinite", "multipv", "play",
];

/// A count from 0 with no top (a game or move number).
const COUNT_FROM_0: input::Range = input::Range::new(0, u64::MAX);

/// A search's limits, its lines and whether it plays its move.
struct GoBody {
    depth: Option<u64>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: Option<u64>,
    binc: Option<u64>,
    infinite: bool,
    multipv: Option<u64>,
    play: bool,
}

fn go_body(b: &Fields) -> Result<GoBody, ApiError> {
    Ok(GoBody {
        depth: b.whole("depth", input::DEPTH)?,
        movetime: b.whole("movetime", input::TIME_MS)?,
        nodes: b.whole("nodes", input::NODES)?,
        wtime: b.whole("wtime", input::TIME_MS)?,
        btime: b.whole("btime", input::TIME_MS)?,
        winc: b.whole("winc", input::TIME_MS)?,
        binc: b.whole("binc", input::TIME_MS)?,
        infinite: b.flag("infinite")?.unwrap_or(false),
        multipv: b.whole("multipv", options::MULTIPV)?,
        play: b.flag("play")?.unwrap_or(false),
    })
}

fn limits(b: &GoBody) -> Result<(Go, u32), ApiError> {
    let clock = match (b.wtime, b.btime) {
        (Some(w), Some(bt)) => Go::clock(w, bt, b.winc.unwrap_or(0), b.binc.unwrap_or(0)),
        (None, None) if b.winc.is_none() && b.binc.is_none() => Go::default(),
        _ => {
            return Err(ApiError::bad(
                "a clock needs both wtime and btime (winc and binc are optional)",
            ))
        }
    };
    let l = Go {
        depth: b.depth.map(|d| d as u32),
        movetime: b.movetime,
        nodes: b.nodes,
        infinite: b.infinite,
        ..clock
    };
    if l == Go::default() {
        return Err(ApiError::bad(
            "give a limit: depth, movetime, nodes, a clock (wtime, btime) or infinite",
        ));
    }
    if l.infinite && b.play {
        return Err(ApiError::bad(
            "an infinite search plays no move; give a limit to play",
        ));
    }
    Ok((l, b.multipv.unwrap_or(1) as u32))
}

async fn engine_go(State(reg): State<Reg>, Path(id): Path<String>, body: Body) -> ApiResult {
    let l = live(&reg, &id)?;
    let b = go_body(&read(body, &GO_FIELDS).await?)?;
    let (lim, multipv) = limits(&b)?;
    let mut slot = l.engine.lock().await;
    match slot.as_ref() {
        None => {
            start_engine(&reg, &l, &mut slot).await?;
        }
        Some(e) if e.is_dead() => {
            let exit = e.status().exit.unwrap_or_default();
            return Err(ApiError::conflict(format!(
                "the engine has died ({exit}); restart it"
            )));
        }
        Some(_) => {}
    }
    let engine = slot.as_ref().expect("an engine was started");
    let search = l.search(lim, multipv, b.play)?;
    let sid = search.id;
    if let Err(e) = engine.go(search) {
        l.search_failed(sid);
        return Err(ApiError::conflict(e));
    }
    ok(json!({ "search": sid }))
}

async fn engine_stop(State(reg): State<Reg>, Path(id): Path<String>) -> ApiResult {
    let l = live(&reg, &id)?;
    let slot = l.engine.lock().await;
    match slot.as_ref() {
        Some(e) if !e.is_dead() => {
            e.stop();
            ok(json!({ "stopping": true }))
        }
        _ => Err(ApiError::conflict("no engine is running")),
    }
}

async fn events(
    State(reg): State<Reg>,
    Path(id): Path<String>,
    upgrade: WebSocketUpgrade,
) -> ApiResult {
    let (l, rx) = reg.watch(&id).ok_or_else(|| {
        ApiError::not_found(format!(
            "no session {} (closed or expired); create a new one",
            input::quote(&id)
        ))
    })?;
    l.touch();
    let hello = json!({ "type": "state", "state": l.state() }).to_string();
    Ok(upgrade.on_upgrade(move |socket| async move {
        pump(socket, rx, hello).await;
        unwatched(&reg, &l).await;
    }))
}

/// After a WebSocket ended: when it was the session's last one (its tab
/// was closed, or lost its connection), the engine's search stops, and the
/// session closes, its engine quitting, unless a WebSocket comes within
/// the grace period (a reload keeps the game).
async fn unwatched(reg: &Registry, l: &Live) {
    // The idle time of a session starts again when its tab goes.
    l.touch();
    if l.watchers() > 0 {
        return;
    }
    if let Some(e) = l.engine.lock().await.as_ref() {
        e.stop();
    }
    tokio::time::sleep(reg.config.grace).await;
    if reg.close_unwatched(&l.id) {
        *l.engine.lock().await = None;
    }
}

/// Send the session's events to the socket until either side closes.
async fn pump(mut socket: WebSocket, mut rx: broadcast::Receiver<String>, hello: String) {
    if socket.send(Message::Text(hello.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            ev = rx.recv() => {
                let text = match ev {
                    Ok(text) => text,
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        json!({ "type": "lagged", "missed": n }).to_string()
                    }
                    Err(broadcast::error::RecvError::Closed) => {
                        let _ = socket.send(Message::Close(None)).await;
                        return;
                    }
                };
                if socket.send(Message::Text(text.into())).await.is_err() {
                    return;
                }
            }
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            },
        }
    }
}

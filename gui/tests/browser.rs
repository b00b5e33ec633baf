//! The page in a real browser: headless Chromium driven over WebDriver
//! (`chromedriver`), against the server in this process and this program's
//! own engine. Without Chromium or chromedriver on the PATH when it is
//! built, the test is compiled as ignored (gui/build.rs), so that `cargo
//! test` shows `ignored, needs chromium and chromedriver ...`;
//! `SHASHKI_REQUIRE_BROWSER=1` (set by `.ci/run`) never ignores it and
//! makes their absence a failure. Screenshots of the board in each variant
//! go to `target/gui-screenshots/`.

mod common;

use common::engine_path;
use fantoccini::actions::{InputSource, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use futures_util::FutureExt;
use serde_json::{json, Value};
use shashki::protocol::process::Program;
use shashki::protocol::Protocol;
use shashki_gui::engine::EngineConfig;
use shashki_gui::Config;
use std::io::Write;
use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

// ------------------------------------------------------------ set-up

/// A program on the PATH (or its absolute path).
fn find_program(name: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&paths)
        .chain([PathBuf::from("/usr/bin")])
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Chromium and chromedriver, or `None` after a SKIPPED line on stderr
/// (they were there when the test was built, or it was run with
/// `--ignored`, but they are not there now).
fn browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = find_program("chromium");
    let driver = find_program("chromedriver");
    match (chromium, driver) {
        (Some(c), Some(d)) => Some((c, d)),
        (c, d) => {
            let missing: Vec<&str> = [("chromium", c.is_none()), ("chromedriver", d.is_none())]
                .iter()
                .filter(|(_, m)| *m)
                .map(|(n, _)| *n)
                .collect();
            let msg = format!(
                "{} not found (Debian: apt-get install chromium chromium-driver)",
                missing.join(" and ")
            );
            if std::env::var("SHASHKI_REQUIRE_BROWSER").is_ok_and(|v| v == "1") {
                panic!("SHASHKI_REQUIRE_BROWSER=1 but {msg}");
            }
            // Straight to stderr: the test harness would hide eprintln!.
            let _ = writeln!(std::io::stderr(), "SKIPPED the_page_in_chromium: {msg}");
            None
        }
    }
}

/// A server of the page; its engine is this build's `shashki`, spoken to
/// in the UCI-like protocol or (as `shashki hub`) in Hub.
async fn serve(protocol: Protocol) -> SocketAddr {
    let engine = engine_path();
    let program = match protocol {
        Protocol::Uci => Program::Path(engine),
        Protocol::Hub => Program::Shell(format!("'{}' hub", engine.display())),
    };
    let config = Config {
        engine: EngineConfig {
            program,
            protocol,
            hash_mib: 16,
        },
        max_sessions: 4,
        max_engine_starts: 4,
        idle: Duration::from_secs(3600),
        grace: Duration::from_secs(60),
    };
    common::serve(config).await
}

/// chromedriver on a free port; killed when dropped. Each test process
/// has its own (port, profile folder), so other tests running meanwhile do
/// not meet it.
struct Driver {
    child: Child,
    port: u16,
    profile: PathBuf,
}

impl Driver {
    /// Start chromedriver and wait until it listens; a port taken by
    /// another program between choosing and binding it means another try.
    fn start(driver: &Path) -> Driver {
        let profile =
            std::env::temp_dir().join(format!("shashki-gui-chromium-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        let mut tries = Vec::new();
        for _ in 0..4 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let mut child = Command::new(driver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start chromedriver");
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                if let Ok(Some(status)) = child.try_wait() {
                    tries.push(format!("port {port}: chromedriver exited ({status})"));
                    break;
                }
                if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                    return Driver {
                        child,
                        port,
                        profile,
                    };
                }
                if Instant::now() > deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    tries.push(format!("port {port}: not listening within 30 s"));
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("cannot start chromedriver: {}", tries.join("; "));
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

async fn connect(d: &Driver, chromium: &Path) -> Client {
    let caps = json!({
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                "--window-size=1400,1100",
                format!("--user-data-dir={}", d.profile.display()),
            ],
        }
    });
    let caps = match caps {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
    let url = format!("http://127.0.0.1:{}", d.port);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return c,
            Err(e) if Instant::now() > deadline => panic!("cannot start Chromium: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

// ------------------------------------------------------------ page helpers

/// The longest wait for the page: CI's machine is slow and busy (two
/// cores, other tests running), so this is generous; it only bounds a hang.
const WAIT: Duration = Duration::from_secs(30);

/// The part of the scenario running, named in every failure.
static STEP: Mutex<String> = Mutex::new(String::new());

fn step(name: &str) {
    *STEP.lock().unwrap_or_else(|e| e.into_inner()) = name.to_string();
}

/// A failure's message already holds the page's report.
static REPORTED: AtomicBool = AtomicBool::new(false);

fn current_step() -> String {
    STEP.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

/// The value of a JavaScript expression in the page.
async fn js(c: &Client, expr: &str) -> Value {
    match c.execute(&format!("return ({expr});"), vec![]).await {
        Ok(v) => v,
        Err(e) => {
            let page = report(c).await;
            REPORTED.store(true, Ordering::SeqCst);
            panic!("step {}: script {expr} failed: {e}\n{page}", current_step())
        }
    }
}

/// What the page shows, for a failure's message: its message and status
/// lines, the engine's, the position and moves, the marks of a move being
/// entered, and its last API calls and events (`window.shashkiLog`). A
/// screenshot of the page goes to `target/gui-screenshots/failure.png`.
async fn report(c: &Client) -> String {
    let script = r#"
        const t = (id) => { const e = document.getElementById(id); return e ? e.textContent : null; };
        const s = window.shashkiState;
        return JSON.stringify({
          message: t('message'), status: t('status'), engine: t('engine-status'), info: t('info'),
          fen: s && s.fen, ply: s && s.ply, moves: s && s.moves, stamp: s && s.stamp,
          selected: [...document.querySelectorAll('#board .selected')].map(e => e.getAttribute('data-square')),
          targets: [...document.querySelectorAll('#board .target')].map(e => e.getAttribute('data-square')),
          clocks: [t('clock-top'), t('clock-bottom')],
          log: window.shashkiLog || [],
        }, null, 1);"#;
    let page = match c.execute(script, vec![]).await {
        Ok(Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(e) => format!("(the page could not be read: {e})"),
    };
    let shot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/gui-screenshots");
    let saved = match c.screenshot().await {
        Ok(png) => std::fs::create_dir_all(&shot)
            .and_then(|_| std::fs::write(shot.join("failure.png"), png))
            .map(|_| format!("screenshot: {}", shot.join("failure.png").display()))
            .unwrap_or_else(|e| format!("(screenshot not saved: {e})")),
        Err(e) => format!("(no screenshot: {e})"),
    };
    format!("the page: {page}\n{saved}")
}

/// Wait (up to [`WAIT`]) until the expression is true in the page; on a
/// timeout, fail naming the step and what was awaited, with what the page
/// shows.
async fn wait(c: &Client, what: &str, expr: &str) {
    let started = Instant::now();
    loop {
        if js(c, expr).await == Value::Bool(true) {
            return;
        }
        if started.elapsed() > WAIT {
            let page = report(c).await;
            REPORTED.store(true, Ordering::SeqCst);
            panic!(
                "step {}: timed out after {} s waiting for {what} ({expr})\n{page}",
                current_step(),
                WAIT.as_secs(),
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn state(c: &Client, field: &str) -> Value {
    js(c, &format!("window.shashkiState.{field}")).await
}

async fn message(c: &Client) -> String {
    text(c, "message").await
}

async fn text(c: &Client, id: &str) -> String {
    c.find(Locator::Id(id)).await.unwrap().text().await.unwrap()
}

/// The moves listed on the page.
async fn moves_shown(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "[...document.querySelectorAll('#moves li')].map(li => li.textContent)",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

/// The squares marked as possible next squares, sorted.
async fn targets(c: &Client) -> Vec<String> {
    let v = js(
        c,
        "[...document.querySelectorAll('#board .target')].map(e => e.getAttribute('data-square')).sort()",
    )
    .await;
    serde_json::from_value(v).unwrap()
}

/// The element to click for a square: its piece, else its cell.
async fn square(c: &Client, sq: &str) -> fantoccini::elements::Element {
    let piece = format!("#board g.piece[data-square='{sq}']");
    if let Ok(e) = c.find(Locator::Css(&piece)).await {
        return e;
    }
    c.find(Locator::Css(&format!("#board rect[data-cell='{sq}']")))
        .await
        .unwrap_or_else(|e| panic!("no square {sq} on the board: {e}"))
}

async fn click(c: &Client, sq: &str) {
    square(c, sq).await.click().await.unwrap();
}

async fn set_value(c: &Client, id: &str, value: &str) {
    let e = c.find(Locator::Id(id)).await.unwrap();
    e.clear().await.unwrap();
    e.send_keys(value).await.unwrap();
}

async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

async fn button(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Choose a variant (a new game) and wait for its board.
async fn variant(c: &Client, v: &str) {
    select(c, "variant", v).await;
    wait(
        c,
        &format!("a new {v} game"),
        &format!("window.shashkiState.variant === '{v}' && window.shashkiState.moves.length === 0"),
    )
    .await;
}

/// Set a position by pasting its text.
async fn paste_position(c: &Client, fen: &str) {
    set_value(c, "fen", fen).await;
    button(c, "set-fen").await;
}

/// Play a legal move (its path) by clicking square after square, checking
/// that the page waits for more squares until the move is played.
async fn play_by_clicks(c: &Client, path: &[String]) {
    let before = state(c, "moves.length").await.as_u64().unwrap();
    let played = format!("window.shashkiState.moves.length > {before}");
    for (i, sq) in path.iter().enumerate() {
        click(c, sq).await;
        let chosen =
            format!("document.querySelector(\"#board .selected[data-square='{sq}']\") !== null");
        wait(
            c,
            &format!("square {sq} taken"),
            &format!("({played}) || ({chosen})"),
        )
        .await;
        if js(c, &played).await == Value::Bool(true) {
            assert_eq!(
                i + 1,
                path.len(),
                "played before the last square of {path:?}"
            );
            return;
        }
    }
    panic!("the path {path:?} was not played");
}

async fn screenshot(c: &Client, dir: &Path, name: &str) {
    let png = c
        .find(Locator::Id("board-area"))
        .await
        .unwrap()
        .screenshot()
        .await
        .unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// The seconds a clock shows (`White 0:05.9`, `Black 1:02`).
fn clock_seconds(shown: &str, side: &str) -> f64 {
    let t = shown
        .strip_prefix(side)
        .map(str::trim)
        .unwrap_or_else(|| panic!("{side}'s clock: {shown:?}"));
    let (m, sec) = t
        .split_once(':')
        .unwrap_or_else(|| panic!("a clock: {shown:?}"));
    let m: f64 = m.parse().unwrap_or_else(|_| panic!("a clock: {shown:?}"));
    let sec: f64 = sec.parse().unwrap_or_else(|_| panic!("a clock: {shown:?}"));
    m * 60.0 + sec
}

/// The moves of PDN text (tags, move numbers, comments and result left out).
fn pdn_moves(pdn: &str) -> Vec<String> {
    pdn.lines()
        .filter(|l| !l.trim_start().starts_with('['))
        .flat_map(|l| l.split_whitespace())
        .map(|t| t.trim_start_matches(|ch: char| ch.is_ascii_digit() || ch == '.'))
        .filter(|t| {
            !t.is_empty() && !["*", "1-0", "0-1", "2-0", "0-2", "1-1", "1/2-1/2"].contains(t)
        })
        .map(str::to_string)
        .collect()
}

// ------------------------------------------------------------ the test

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    browser_test_ignored,
    ignore = "needs chromium and chromedriver, not on the PATH when built (Debian: apt-get install chromium chromium-driver)"
)]
async fn the_page_in_chromium() {
    let Some((chromium, driver)) = browser() else {
        return;
    };
    let addr = serve(Protocol::Uci).await;
    let hub_addr = serve(Protocol::Hub).await;
    let d = Driver::start(&driver);
    let c = connect(&d, &chromium).await;
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/gui-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let result = AssertUnwindSafe(scenario(&c, addr, hub_addr, &shots))
        .catch_unwind()
        .await;
    if result.is_err() && !REPORTED.load(Ordering::SeqCst) {
        // Whatever else failed (an assertion, a WebDriver call): where, and
        // what the page showed then.
        eprintln!(
            "the browser test failed in step {}\n{}",
            current_step(),
            report(&c).await
        );
    }
    let _ = c.close().await;
    drop(d);
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
    println!(
        "screenshots: {}",
        shots.canonicalize().unwrap_or(shots).display()
    );
}

async fn scenario(c: &Client, addr: SocketAddr, hub_addr: SocketAddr, shots: &Path) {
    step("loading the page");
    c.goto(&format!("http://127.0.0.1:{}/", addr.port()))
        .await
        .unwrap();
    wait(c, "the page", "document.body.dataset.ready === '1'").await;

    // Every variant's board, photographed.
    step("every variant's board");
    for v in ["brazilian", "adiyukh-64", "adiyukh-80", "russian"] {
        variant(c, v).await;
        let cells = if v == "adiyukh-80" { 80 } else { 64 };
        let n = js(
            c,
            "document.querySelectorAll('#board rect[data-cell]').length",
        )
        .await;
        assert_eq!(n, json!(cells), "{v}: board cells");
        screenshot(c, shots, v).await;
    }

    russian_game(c, shots).await;
    clock_game(c).await;
    multi_jump(c).await;
    towers_and_bad_input(c, shots).await;
    pdn_file(c).await;
    editor_and_game_end(c).await;
    engine_death(c).await;
    black_and_buttons(c).await;
    hub_engine(c, hub_addr).await;
}

/// A Russian game against the engine by clicks: an illegal click, moves
/// with their targets, the engine's replies and live info, the clocks,
/// takeback, the PDN download, drag and drop, analysis (the whole page
/// photographed during it).
async fn russian_game(c: &Client, shots: &Path) {
    step("russian game");
    set_value(c, "depth", "3").await;
    let start = state(c, "fen").await;

    // A man that cannot move: a message, nothing changes.
    click(c, "a1").await;
    wait(
        c,
        "a message",
        "document.getElementById('message').textContent !== ''",
    )
    .await;
    let m = message(c).await;
    assert!(m.contains("no legal move starts on a1"), "{m}");
    assert_eq!(state(c, "fen").await, start);
    assert!(moves_shown(c).await.is_empty());

    // c3: its targets b4 and d4 are marked; d4 plays.
    click(c, "c3").await;
    wait(
        c,
        "targets of c3",
        "document.querySelectorAll('#board .target').length === 2",
    )
    .await;
    assert_eq!(targets(c).await, ["b4", "d4"]);
    assert_eq!(message(c).await, "", "the message goes with a good click");
    click(c, "d4").await;
    wait(
        c,
        "the engine's reply",
        "window.shashkiState.moves.length === 2",
    )
    .await;
    let shown = moves_shown(c).await;
    assert_eq!(shown[0], "c3-d4");
    assert_eq!(state(c, "side").await, "white");

    // The engine's live info: depth, score and a line.
    wait(
        c,
        "engine info",
        "/depth \\d+ +score [-+]?\\d/.test(document.getElementById('info').textContent)",
    )
    .await;
    let line = js(
        c,
        "document.querySelector('#lines li') && document.querySelector('#lines li').textContent",
    )
    .await;
    let line = line.as_str().unwrap_or_default().to_string();
    assert!(
        line.split_whitespace().count() >= 2,
        "a scored line: {line:?}"
    );

    // Another move (the first legal one, clicked square by square) and its reply.
    let path: Vec<String> = serde_json::from_value(state(c, "legal[0].path").await).unwrap();
    play_by_clicks(c, &path).await;
    wait(
        c,
        "the engine's second reply",
        "window.shashkiState.moves.length === 4",
    )
    .await;
    let four = moves_shown(c).await;
    assert_eq!(four.len(), 4);

    // Takeback: the engine's reply and our move go.
    button(c, "takeback").await;
    wait(c, "takeback", "window.shashkiState.moves.length === 2").await;
    assert_eq!(moves_shown(c).await, four[..2]);
    assert_eq!(state(c, "side").await, "white");

    // Drag and drop: press on a piece, release on the next square (a
    // longer capture's other squares clicked).
    let first = state(c, "legal[0]").await;
    let p: Vec<String> = serde_json::from_value(first["path"].clone()).unwrap();
    let (from, to) = (square(c, &p[0]).await, square(c, &p[1]).await);
    let drag = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: from,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: to,
            duration: Some(Duration::from_millis(150)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(drag).await.unwrap();
    if p.len() > 2 {
        wait(
            c,
            "the drag taken",
            "document.querySelectorAll('#board .target').length > 0",
        )
        .await;
        play_by_clicks(c, &p[2..]).await;
    }
    wait(
        c,
        "the dragged move and its reply",
        "window.shashkiState.moves.length === 4",
    )
    .await;
    assert_eq!(json!(moves_shown(c).await[2]), first["move"]);

    // The PDN download holds the moves shown.
    let href = js(c, "document.getElementById('download').href").await;
    assert!(href.as_str().unwrap().ends_with("/pdn"), "{href}");
    let pdn = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.getElementById('download').href).then(r => r.text()).then(done, e => done('error ' + e));",
            vec![],
        )
        .await
        .unwrap();
    let pdn = pdn.as_str().unwrap();
    assert!(pdn.contains("[Event"), "{pdn}");
    assert_eq!(pdn_moves(pdn), moves_shown(c).await, "PDN: {pdn}");

    // The Fischer clock: both clocks shown.
    select(c, "limit", "clock").await;
    wait(c, "the clocks", "/White \\d+:\\d\\d/.test(document.getElementById('clock-bottom').textContent) && /Black \\d+:\\d\\d/.test(document.getElementById('clock-top').textContent)").await;
    select(c, "limit", "depth").await;

    // Analysis: several lines, live, then stopped.
    select(c, "mode", "analyse").await;
    set_value(c, "multipv", "2").await;
    button(c, "analyse").await;
    wait(
        c,
        "two analysis lines",
        "document.querySelectorAll('#lines li').length === 2",
    )
    .await;
    wait(
        c,
        "the evaluation bar",
        "document.getElementById('evalfill').style.height !== ''",
    )
    .await;
    let page = c.screenshot().await.unwrap();
    std::fs::write(shots.join("page-analysis.png"), page).unwrap();
    button(c, "stop").await;
    wait(
        c,
        "the search stopped",
        "/best move/.test(document.getElementById('engine-status').textContent)",
    )
    .await;
    select(c, "mode", "play").await;
}

/// A capture of several jumps chosen square by square: c3 takes d4 to e5,
/// then either d6 (to c7) or f6 (to g7); nothing is played until the route
/// is chosen.
async fn multi_jump(c: &Client) {
    step("multi-jump capture");
    select(c, "human", "both").await;
    paste_position(c, "W:Wc3:Bd4,d6,f6,h8").await;
    wait(
        c,
        "the position",
        "window.shashkiState.fen.startsWith('W:Wc3:B') && window.shashkiState.moves.length === 0",
    )
    .await;
    click(c, "c3").await;
    wait(
        c,
        "c3's target",
        "document.querySelectorAll('#board .target').length === 1",
    )
    .await;
    assert_eq!(targets(c).await, ["e5"]);
    click(c, "e5").await;
    wait(
        c,
        "the two routes",
        "document.querySelectorAll('#board .target').length === 2",
    )
    .await;
    assert_eq!(targets(c).await, ["c7", "g7"]);
    assert!(moves_shown(c).await.is_empty(), "nothing played yet");
    click(c, "g7").await;
    wait(c, "the capture", "window.shashkiState.moves.length === 1").await;
    assert_eq!(moves_shown(c).await, ["c3:e5:g7"]);
    let left: Vec<String> =
        serde_json::from_value(js(c, "window.shashkiState.pieces.map(p => p.square).sort()").await)
            .unwrap();
    assert_eq!(left, ["d6", "g7", "h8"]);
}

/// An Adiyukh-80 position with towers pasted and drawn as stacks; bad
/// position text and bad PDN: a message, the board unchanged.
async fn towers_and_bad_input(c: &Client, shots: &Path) {
    step("towers and bad input");
    variant(c, "adiyukh-80").await;
    paste_position(c, "W:Wd6-2/1,a1:Bc3-3/2,j8").await;
    wait(
        c,
        "the towers",
        "window.shashkiState.fen.includes('d6-2/1')",
    )
    .await;
    for (sq, own, other) in [("d6", 2, 1), ("c3", 3, 2)] {
        let sel = format!("#board g.piece.tower[data-square='{sq}']");
        let (o, x, discs, label) = (
            js(
                c,
                &format!("document.querySelector(\"{sel}\").getAttribute('data-own')"),
            )
            .await,
            js(
                c,
                &format!("document.querySelector(\"{sel}\").getAttribute('data-other')"),
            )
            .await,
            js(
                c,
                &format!("document.querySelectorAll(\"{sel} circle\").length"),
            )
            .await,
            js(
                c,
                &format!("document.querySelector(\"{sel} text\").textContent"),
            )
            .await,
        );
        assert_eq!(
            (o, x),
            (json!(own.to_string()), json!(other.to_string())),
            "{sq}"
        );
        assert_eq!(discs, json!(own + other), "{sq}: one disc a checker");
        assert_eq!(label, json!(format!("{own}/{other}")), "{sq}");
    }
    let count = text(c, "count").await;
    assert!(count.starts_with("Count: White"), "{count:?}");
    screenshot(c, shots, "adiyukh-80-towers").await;

    let board = js(c, "document.getElementById('board').innerHTML").await;
    let fen = state(c, "fen").await;
    paste_position(c, "W:Wz9:B").await;
    wait(
        c,
        "the position text refused",
        "document.getElementById('message').textContent !== ''",
    )
    .await;
    let m = message(c).await;
    assert!(m.starts_with("bad position text"), "{m}");
    assert_eq!(state(c, "fen").await, fen);
    assert_eq!(
        js(c, "document.getElementById('board').innerHTML").await,
        board
    );

    set_value(c, "pdn", "[Event \"x\"]\n1. c3-c4 *").await;
    button(c, "load-pdn").await;
    wait(
        c,
        "the PDN refused",
        "/PDN/.test(document.getElementById('message').textContent)",
    )
    .await;
    assert_eq!(state(c, "fen").await, fen);
    assert_eq!(
        js(c, "document.getElementById('board').innerHTML").await,
        board
    );
}

/// A PDN file in Windows-1251 uploaded: its game is loaded.
async fn pdn_file(c: &Client) {
    step("PDN file upload");
    variant(c, "russian").await;
    let file = std::env::temp_dir().join(format!("shashki-gui-test-{}.pdn", std::process::id()));
    let mut bytes =
        b"[Event \"\xD2\xF3\xF0\xED\xE8\xF0\"]\n[White \"\xC8\xE2\xE0\xED\xEE\xE2\"]\n".to_vec();
    bytes.extend_from_slice(b"1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n");
    std::fs::write(&file, bytes).unwrap();
    c.find(Locator::Id("pdn-file"))
        .await
        .unwrap()
        .send_keys(&file.display().to_string())
        .await
        .unwrap();
    wait(
        c,
        "the uploaded game",
        "window.shashkiState.moves.length === 4",
    )
    .await;
    let _ = std::fs::remove_file(&file);
    assert_eq!(moves_shown(c).await, ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]);
    let pdn = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(document.getElementById('download').href).then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .unwrap();
    assert!(pdn.as_str().unwrap().contains("Иванов"), "{pdn}");
}

/// A Fischer clock of 30 s: the engine answers on its clock, both clocks
/// are shown and the one of the side to move counts down. (White's clock,
/// the test's, runs while the test clicks: on a slow, busy machine a short
/// clock would fall and the engine would rightly not move.)
async fn clock_game(c: &Client) {
    step("Fischer clock game");
    select(c, "limit", "clock").await;
    set_value(c, "base", "0.5").await;
    set_value(c, "inc", "0").await;
    button(c, "new").await;
    wait(c, "a new game", "window.shashkiState.moves.length === 0").await;
    // White's clock runs from the start (a busy machine may have spent a
    // few tenths since); Black's stands.
    let white = text(c, "clock-bottom").await;
    let w = clock_seconds(&white, "White");
    assert!((20.0..=30.0).contains(&w), "{white}");
    assert_eq!(text(c, "clock-top").await, "Black 0:30");
    let path: Vec<String> = serde_json::from_value(state(c, "legal[0].path").await).unwrap();
    play_by_clicks(c, &path).await;
    wait(
        c,
        "the engine's move on its clock",
        "window.shashkiState.moves.length === 2",
    )
    .await;
    let black = text(c, "clock-top").await;
    // The engine's thinking was charged to Black's clock (shown in tenths,
    // rounded up: any 0.1 s spent shows).
    assert!(clock_seconds(&black, "Black") < 30.0, "{black}");
    let white = text(c, "clock-bottom").await;
    wait(
        c,
        "White's clock running",
        &format!("document.getElementById('clock-bottom').textContent !== '{white}' && document.getElementById('clock-bottom').classList.contains('running')"),
    )
    .await;
    assert_eq!(text(c, "clock-top").await, black, "Black's clock stands");
    select(c, "limit", "depth").await;
    wait(
        c,
        "the clocks hidden",
        "document.getElementById('clock-top').hidden",
    )
    .await;
}

/// The board editor (clicks cycle a square's piece, the side to move) and
/// a game's end with its reason.
async fn editor_and_game_end(c: &Client) {
    step("board editor and game end");
    select(c, "mode", "edit").await;
    button(c, "clear").await;
    wait(
        c,
        "an empty board",
        "window.shashkiState.pieces.length === 0",
    )
    .await;
    for (sq, fen) in [
        ("e3", "W:We3:B"),
        ("e3", "W:WKe3:B"),
        ("d6", "W:WKe3,d6:B"),
        ("d6", "W:WKe3,Kd6:B"),
        ("d6", "W:WKe3:Bd6"),
    ] {
        click(c, sq).await;
        wait(c, fen, &format!("window.shashkiState.fen === '{fen}'")).await;
    }
    select(c, "edit-side", "B").await;
    wait(
        c,
        "Black to move",
        "window.shashkiState.fen === 'B:WKe3:Bd6'",
    )
    .await;
    assert_eq!(message(c).await, "");

    // The last black man taken: the game ends, the reason shown.
    select(c, "mode", "play").await;
    paste_position(c, "W:Wc3:Bd4").await;
    wait(c, "the position", "window.shashkiState.fen === 'W:Wc3:Bd4'").await;
    click(c, "c3").await;
    wait(
        c,
        "c3's target",
        "document.querySelectorAll('#board .target').length === 1",
    )
    .await;
    click(c, "e5").await;
    wait(c, "the end", "window.shashkiState.outcome !== null").await;
    let status = text(c, "status").await;
    let reason = state(c, "outcome.reason").await;
    assert_eq!(reason, json!("no pieces left"));
    assert_eq!(status, "Game over: 2-0 (no pieces left)");
    assert_eq!(state(c, "legal.length").await, json!(0));
}

/// The engine process killed: the page says so; restarted from the page,
/// it plays again.
async fn engine_death(c: &Client) {
    step("engine death and restart");
    button(c, "new").await;
    wait(c, "a new game", "window.shashkiState.moves.length === 0").await;
    // The engine of this page's session, by the pid the server reports,
    // checked to be a child of this test process (nothing else is killed).
    let status = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             fetch(`/api/sessions/${window.shashkiState.id}/engine`).then(r => r.json()).then(done, e => done({error: String(e)}));",
            vec![],
        )
        .await
        .unwrap();
    let pid = status["engine"]["pid"]
        .as_u64()
        .unwrap_or_else(|| panic!("the engine's pid: {status}"))
        .to_string();
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // pid (comm) state ppid ...
    let (head, rest) = stat.rsplit_once(") ").unwrap();
    let ppid = rest.split(' ').nth(1).unwrap();
    assert!(head.ends_with("(shashki"), "{stat}");
    assert_eq!(
        ppid,
        std::process::id().to_string(),
        "the engine is this test's child"
    );
    let killed = Command::new("kill").args(["-9", &pid]).status().unwrap();
    assert!(killed.success());
    wait(
        c,
        "the death reported",
        "/engine died/.test(document.getElementById('message').textContent)",
    )
    .await;
    assert!(
        js(
            c,
            "document.getElementById('restart').classList.contains('alert')"
        )
        .await
            == json!(true)
    );
    button(c, "restart").await;
    wait(
        c,
        "the new engine",
        "!document.getElementById('restart').classList.contains('alert')",
    )
    .await;
    button(c, "engine-move").await;
    wait(
        c,
        "a move by the new engine",
        "window.shashkiState.moves.length === 1",
    )
    .await;
}

/// Whether a1 is drawn below h8 (White's side at the bottom).
async fn white_at_bottom(c: &Client) -> bool {
    let y = |sq: &str| {
        format!("+document.querySelector(\"#board rect[data-cell='{sq}']\").getAttribute('y')")
    };
    js(c, &format!("{} > {}", y("a1"), y("h8"))).await == json!(true)
}

/// Playing Black on a time per move: the board turns, the engine (White)
/// moves first and takes about its time; a reply; the step buttons walk
/// the line; the flip button turns the board.
async fn black_and_buttons(c: &Client) {
    step("playing Black on a time per move");
    select(c, "limit", "movetime").await;
    set_value(c, "movetime", "0.3").await;
    assert!(white_at_bottom(c).await, "White at the bottom first");
    select(c, "human", "black").await;
    wait(c, "the board turned", "window.shashkiState.flip === true").await;
    assert!(!white_at_bottom(c).await, "Black at the bottom");
    let before = state(c, "stamp").await.as_u64().unwrap();
    let clicked = Instant::now();
    button(c, "new").await;
    wait(
        c,
        "the engine's first move as White",
        &format!("window.shashkiState.stamp > {before} && window.shashkiState.moves.length === 1"),
    )
    .await;
    let took = clicked.elapsed();
    assert!(
        took >= Duration::from_millis(250),
        "the engine moved after {took:?}, before its 0.3 s"
    );
    assert_eq!(state(c, "side").await, "black");
    assert_eq!(state(c, "ply").await, json!(1));
    let path: Vec<String> = serde_json::from_value(state(c, "legal[0].path").await).unwrap();
    play_by_clicks(c, &path).await;
    wait(
        c,
        "the engine's reply",
        "window.shashkiState.moves.length === 3 && window.shashkiState.side === 'black'",
    )
    .await;
    let line = moves_shown(c).await;
    assert_eq!(line.len(), 3);

    step("the step buttons");
    for (id, ply) in [("first", 0), ("next", 1), ("last", 3), ("prev", 2)] {
        button(c, id).await;
        wait(
            c,
            &format!("ply {ply} after '{id}'"),
            &format!("window.shashkiState.ply === {ply} && window.shashkiState.moves.length === 3"),
        )
        .await;
        let current = js(
            c,
            "[...document.querySelectorAll('#moves li.current')].map(li => li.textContent)",
        )
        .await;
        let want: Vec<&str> = if ply == 0 {
            vec![]
        } else {
            vec![line[ply - 1].as_str()]
        };
        assert_eq!(current, json!(want), "the move marked at ply {ply}");
    }
    // Nothing was played while stepping (the engine plays only at the
    // line's end).
    assert_eq!(moves_shown(c).await, line);

    step("the flip button");
    button(c, "flip").await;
    wait(
        c,
        "the board turned back",
        "window.shashkiState.flip === false",
    )
    .await;
    assert!(white_at_bottom(c).await, "White at the bottom again");
    button(c, "flip").await;
    wait(
        c,
        "the board turned again",
        "window.shashkiState.flip === true",
    )
    .await;
    assert!(!white_at_bottom(c).await);
    button(c, "last").await;
    wait(c, "the line's end", "window.shashkiState.ply === 3").await;
}

/// The page of a server whose engine speaks Hub (`shashki hub`): the
/// engine answers a move, and analysis shows its one line (Hub has no
/// MultiPV: the page asks for one line, not the three of its field).
async fn hub_engine(c: &Client, addr: SocketAddr) {
    step("a Hub engine");
    c.goto(&format!("http://127.0.0.1:{}/", addr.port()))
        .await
        .unwrap();
    wait(c, "the page", "document.body.dataset.ready === '1'").await;
    set_value(c, "depth", "3").await;
    click(c, "c3").await;
    wait(
        c,
        "targets of c3",
        "document.querySelectorAll('#board .target').length === 2",
    )
    .await;
    click(c, "d4").await;
    wait(
        c,
        "the Hub engine's reply",
        "window.shashkiState.moves.length === 2",
    )
    .await;
    assert_eq!(state(c, "engine.protocol").await, "hub");
    assert_eq!(state(c, "engine.multipv").await, json!(false));
    assert_eq!(moves_shown(c).await[0], "c3-d4");
    wait(
        c,
        "the Hub engine's info",
        "/depth 3 +score [-+]?\\d/.test(document.getElementById('info').textContent)",
    )
    .await;
    select(c, "mode", "analyse").await;
    js(c, "window.shashkiLog.length = 0").await;
    button(c, "analyse").await;
    wait(
        c,
        "analysis deeper than the move's depth 3",
        "/depth ([4-9]|\\d\\d)/.test(document.getElementById('info').textContent)",
    )
    .await;
    assert_eq!(
        js(c, "document.querySelectorAll('#lines li').length").await,
        json!(1),
        "one line"
    );
    let log = js(c, "window.shashkiLog.join('\\n')").await;
    let log = log.as_str().unwrap_or_default();
    assert!(
        log.contains("POST /engine/go") && !log.contains("-> "),
        "one search asked, and not refused: {log}"
    );
    assert_eq!(message(c).await, "");
    button(c, "stop").await;
    wait(
        c,
        "the analysis stopped",
        "/best move [a-h]/.test(document.getElementById('engine-status').textContent)",
    )
    .await;
}

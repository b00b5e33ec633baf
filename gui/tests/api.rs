//! The server's API over real HTTP and WebSocket connections: a server on a
//! free loopback port per test, this program's own engine as the child.

mod common;

use common::{engine_path, serve};
use futures_util::StreamExt;
use serde_json::{json, Value};
use shashki::protocol::process::Program;
use shashki::protocol::Protocol;
use shashki_gui::engine::EngineConfig;
use shashki_gui::Config;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

// ------------------------------------------------------------ helpers

fn config(max_sessions: usize) -> Config {
    Config {
        engine: EngineConfig {
            program: Program::Path(engine_path()),
            protocol: Protocol::Uci,
            hash_mib: 16,
        },
        max_sessions,
        max_engine_starts: 4,
        idle: Duration::from_secs(3600),
        grace: Duration::from_secs(60),
    }
}

/// One HTTP/1.1 request; the status and the body.
async fn raw(addr: SocketAddr, method: &str, path: &str, host: &str, body: &str) -> (u16, String) {
    request(addr, method, path, host, "", body).await
}

/// A request with extra header lines (each ending in CRLF), empty body.
async fn raw_with(addr: SocketAddr, method: &str, path: &str, headers: &str) -> (u16, String) {
    request(addr, method, path, &addr.to_string(), headers, "").await
}

async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    host: &str,
    headers: &str,
    body: &str,
) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8(buf).unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").expect("HTTP head");
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").unwrap();
        let n = usize::from_str_radix(size.trim(), 16).unwrap();
        if n == 0 {
            return out;
        }
        out.push_str(&rest[..n]);
        s = &rest[n + 2..];
    }
}

async fn call(addr: SocketAddr, method: &str, path: &str, body: Value) -> (u16, Value) {
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, text) = raw(addr, method, path, &addr.to_string(), &body).await;
    let v =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
    (status, v)
}

async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    call(addr, "POST", path, body).await
}

async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    call(addr, "GET", path, Value::Null).await
}

/// A new session; its id and path prefix.
async fn session(addr: SocketAddr, variant: &str) -> (String, Value) {
    let (status, state) = post(addr, "/api/sessions", json!({ "variant": variant })).await;
    assert_eq!(status, 201, "{state}");
    let id = state["id"].as_str().unwrap().to_string();
    (format!("/api/sessions/{id}"), state)
}

/// A state without its stamp (which grows with every state made), to
/// compare what it shows.
fn unstamped(mut state: Value) -> Value {
    assert!(state["stamp"].as_u64().is_some_and(|n| n > 0), "{state}");
    if let Some(m) = state.as_object_mut() {
        m.remove("stamp");
    }
    state
}

fn legal_texts(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// An error answer: the status and a one-line message.
fn assert_error(status: u16, v: &Value, want_status: u16, contains: &str) {
    assert_eq!(status, want_status, "{v}");
    let msg = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message: {v}"));
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains(contains), "'{msg}' does not say '{contains}'");
}

// ------------------------------------------------------------ positions and moves

#[tokio::test]
async fn legal_moves_match_the_perft_file_at_depth_one() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "russian").await;
    // The Russian start has 7 legal moves (perft.txt, depth 1).
    assert_eq!(start["legal"].as_array().unwrap().len(), 7);
    assert_eq!(start["side"], "white");
    assert!(start["svg"].as_str().unwrap().starts_with("<svg"));
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../engine-tests/testdata/perft.txt"),
    )
    .expect("engine-tests/testdata/perft.txt");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split(';').collect();
        if f[3] != "1" {
            continue;
        }
        let (status, state) = post(
            addr,
            &format!("{s}/position"),
            json!({ "variant": f[0], "fen": f[2] }),
        )
        .await;
        assert_eq!(status, 200, "{line}: {state}");
        let count: usize = f[4].parse().unwrap();
        assert_eq!(state["legal"].as_array().unwrap().len(), count, "{line}");
        assert_eq!(state["variant"], f[0]);
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} depth-1 lines");
}

#[tokio::test]
async fn play_and_refuse_moves() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "russian").await;
    let (status, v) = post(addr, &format!("{s}/move"), json!({ "move": "c3-d4" })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["played"], "c3-d4");
    let state = &v["state"];
    assert_eq!(state["side"], "black");
    assert_eq!(state["ply"], 1);
    assert_eq!(state["moves"], json!(["c3-d4"]));
    assert_ne!(state["fen"], start["fen"]);

    // Bad input of every kind: a clear error, the state unchanged.
    let before = unstamped(get(addr, &s).await.1);
    // Each state made has a larger stamp than the ones before.
    let (a, b) = (get(addr, &s).await.1, get(addr, &s).await.1);
    assert!(
        b["stamp"].as_u64() > a["stamp"].as_u64(),
        "{} {}",
        a["stamp"],
        b["stamp"]
    );
    let cases = [
        ("move", json!({ "move": "c3-d4" }), "not a legal move"),
        ("move", json!({ "move": "zz" }), "not a move"),
        (
            "move",
            json!({ "path": ["b6", "c7"] }),
            "after b6 it goes on to",
        ),
        (
            "move",
            json!({ "path": ["h2", "g3"] }),
            "no legal move starts on h2",
        ),
        ("move", json!({ "path": ["c3"], "move": "c3-d4" }), "either"),
        ("move", json!({ "mvoe": "b6-a5" }), "unknown field"),
        ("position", json!({ "fen": "W:Wz9:B" }), "bad position text"),
        ("position", json!({ "fen": "W:Wa1,a1:Bb8" }), "listed twice"),
        (
            "position",
            json!({ "fen": "W:W" , "variant": "chess" }),
            "\"variant\" needs russian, brazilian",
        ),
        ("pdn", json!({ "pdn": "1. c3-c5 *" }), "bad PDN"),
        ("pdn", json!({ "pdn": "" }), "no game"),
        ("takeback", json!({ "plies": 5 }), "cannot take back"),
        ("goto", json!({ "ply": 9 }), "no move 9"),
    ];
    for (route, body, says) in cases {
        let (status, v) = post(addr, &format!("{s}/{route}"), body.clone()).await;
        assert_error(status, &v, 400, says);
        assert_eq!(
            unstamped(get(addr, &s).await.1),
            before,
            "{route} {body} changed the state"
        );
    }
    // Not JSON at all.
    let (status, text) = raw(
        addr,
        "POST",
        &format!("{s}/move"),
        &addr.to_string(),
        "{nope",
    )
    .await;
    assert_eq!(status, 400);
    assert!(text.contains("the request body is not JSON"), "{text}");
    assert_eq!(unstamped(get(addr, &s).await.1), before);

    let (status, v) = get(addr, "/api/sessions/0123").await;
    assert_error(status, &v, 404, "no session");
}

#[tokio::test]
async fn a_capture_is_entered_square_by_square() {
    let addr = serve(config(4)).await;
    let (s, _) = session(addr, "russian").await;
    // c3 takes d4 landing on e5, then d6 (to c7) or f6 (to g7): two routes
    // sharing c3, e5.
    let (status, _) = post(
        addr,
        &format!("{s}/position"),
        json!({ "fen": "W:Wc3:Bd4,d6,f6,h8" }),
    )
    .await;
    assert_eq!(status, 200);
    let mv = format!("{s}/move");
    let (_, v) = post(addr, &mv, json!({ "path": ["c3"] })).await;
    assert_eq!(v["partial"]["next"], json!(["e5"]), "{v}");
    let (_, v) = post(addr, &mv, json!({ "path": ["c3", "e5"] })).await;
    let mut next: Vec<String> = serde_json::from_value(v["partial"]["next"].clone()).unwrap();
    next.sort();
    assert_eq!(next, ["c7", "g7"], "{v}");
    let mut cands: Vec<String> =
        serde_json::from_value(v["partial"]["candidates"].clone()).unwrap();
    cands.sort();
    assert_eq!(cands, ["c3:e5:c7", "c3:e5:g7"]);
    // Nothing was played yet.
    assert_eq!(get(addr, &s).await.1["ply"], 0);
    let (status, v) = post(addr, &mv, json!({ "path": ["c3", "e5", "a3"] })).await;
    assert_error(status, &v, 400, "after c3, e5 it goes on to");
    let (status, v) = post(addr, &mv, json!({ "path": ["c3", "e5", "g7"] })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["played"], "c3:e5:g7");
    let mut squares: Vec<&str> = v["state"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["square"].as_str().unwrap())
        .collect();
    squares.sort();
    assert_eq!(squares, ["d6", "g7", "h8"], "d4 and f6 taken");
    assert_eq!(v["state"]["side"], "black");
}

#[tokio::test]
async fn takeback_pdn_and_stepping() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "brazilian").await;
    for m in ["c3-d4", "f6-g5", "g3-f4"] {
        let (status, v) = post(addr, &format!("{s}/move"), json!({ "move": m })).await;
        assert_eq!(status, 200, "{v}");
    }
    let (status, text) = raw(addr, "GET", &format!("{s}/pdn"), &addr.to_string(), "").await;
    assert_eq!(status, 200);
    assert!(text.contains("[GameType \"26\"]"), "{text}");
    assert!(text.contains("1. c3-d4 f6-g5 2. g3-f4"), "{text}");

    let (_, v) = post(addr, &format!("{s}/takeback"), Value::Null).await;
    assert_eq!(v["ply"], 2);
    assert_eq!(v["moves"], json!(["c3-d4", "f6-g5"]));
    let (_, v) = post(addr, &format!("{s}/takeback"), json!({ "plies": 2 })).await;
    assert_eq!(v["fen"], start["fen"]);
    assert_eq!(v["moves"], json!([]));

    // Load a game, step back through it, export it again.
    let pdn = "[Event \"test\"]\n[GameType \"26\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. g3-f4 *\n";
    let (status, v) = post(addr, &format!("{s}/pdn"), json!({ "pdn": pdn })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["ply"], 5);
    assert_eq!(v["moves"].as_array().unwrap().len(), 5);
    let (_, v) = post(addr, &format!("{s}/goto"), json!({ "ply": 2 })).await;
    assert_eq!(v["ply"], 2);
    assert_eq!(v["side"], "white");
    assert_eq!(
        v["moves"].as_array().unwrap().len(),
        5,
        "stepping keeps the line"
    );
    let (_, text) = raw(addr, "GET", &format!("{s}/pdn"), &addr.to_string(), "").await;
    assert!(text.contains("[Event \"test\"]"), "{text}");
    assert!(text.contains("2. d4xf6 g7xe5 3. g3-f4"), "{text}");

    let (_, v) = post(
        addr,
        &format!("{s}/new"),
        json!({ "variant": "adiyukh-80" }),
    )
    .await;
    assert_eq!(v["variant"], "adiyukh-80");
    assert_eq!(v["files"], 10);
    assert_eq!(v["ply"], 0);
}

#[tokio::test]
async fn a_pdn_file_is_uploaded_as_bytes() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "russian").await;
    let file = format!("{s}/pdn/file");
    let host = addr.to_string();
    // Not a game: refused with one line, the session unchanged.
    let (status, text) = raw(addr, "POST", &file, &host, "1. c3-c4 *").await;
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_error(status, &v, 400, "bad PDN");
    let (_, v) = get(addr, &s).await;
    assert_eq!(v["fen"], start["fen"]);
    // A game: loaded, the cursor at its end.
    let (status, text) = raw(
        addr,
        "POST",
        &file,
        &host,
        "[Event \"f\"]\n1. c3-d4 f6-e5 *\n",
    )
    .await;
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], json!(["c3-d4", "f6-e5"]));
    assert_eq!(v["ply"], 2);
}

#[tokio::test]
async fn adiyukh_towers_and_the_count() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "adiyukh-80").await;
    // Each side counts the checkers, of either colour, on the other half:
    // at the start all of the other side's 15.
    assert_eq!(start["count"], json!({ "white": 15, "black": 15 }));
    let fen = "W:Wd6-2/1,a1:Bc3-3/2,j8";
    let (status, v) = post(addr, &format!("{s}/position"), json!({ "fen": fen })).await;
    assert_eq!(status, 200, "{v}");
    // White counts every checker on ranks 5-8 (d6: 3, j8: 1), Black on
    // ranks 1-4 (a1: 1, c3: 5).
    assert_eq!(v["count"], json!({ "white": 4, "black": 6 }));
    let d6 = v["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "d6")
        .unwrap()
        .clone();
    assert_eq!(
        d6,
        json!({ "square": "d6", "color": "white", "kind": "tower", "own": 2, "other": 1 })
    );
    assert!(v["svg"]
        .as_str()
        .unwrap()
        .contains("data-own=\"3\" data-other=\"2\""));
    // Russian has no towers: refused, and the Adiyukh position stays.
    let (status, e) = post(
        addr,
        &format!("{s}/position"),
        json!({ "fen": fen, "variant": "russian" }),
    )
    .await;
    assert_error(status, &e, 400, "bad position text");
    assert_eq!(get(addr, &s).await.1["count"], v["count"]);
}

#[tokio::test]
async fn limits_and_loopback_hosts() {
    let addr = serve(config(2)).await;
    session(addr, "russian").await;
    let (s2, _) = session(addr, "russian").await;
    let (status, v) = post(addr, "/api/sessions", Value::Null).await;
    assert_error(status, &v, 429, "too many sessions");
    let (status, _) = call(addr, "DELETE", &s2, Value::Null).await;
    assert_eq!(status, 200);
    let (status, _) = post(addr, "/api/sessions", Value::Null).await;
    assert_eq!(status, 201);

    let (status, text) = raw(addr, "GET", "/", "evil.example:8080", "").await;
    assert_eq!(status, 403, "{text}");
    // A page of another site: refused; the server's own page: served.
    let addr = serve(config(4)).await;
    let (status, text) = raw_with(
        addr,
        "POST",
        "/api/sessions",
        "Origin: http://evil.example\r\n",
    )
    .await;
    assert_eq!(status, 403, "{text}");
    assert!(text.contains("not served here"), "{text}");
    let own = format!("Origin: http://{addr}\r\n");
    let (status, text) = raw_with(addr, "POST", "/api/sessions", &own).await;
    assert_eq!(status, 201, "{text}");
    let (status, text) = raw(addr, "GET", "/", &addr.to_string(), "").await;
    assert_eq!(status, 200);
    assert!(text.contains("<html"), "{text}");
    let (status, _) = raw(addr, "GET", "/app.js", "localhost", "").await;
    assert_eq!(status, 200);
    // Any loopback address is a loopback host (`--listen 127.0.0.2`);
    // names that only look like one are not.
    for host in ["127.0.0.2:8080", "127.1.2.3", "[::1]:8080", "LOCALHOST:80"] {
        let (status, text) = raw(addr, "GET", "/app.js", host, "").await;
        assert_eq!(status, 200, "{host}: {text}");
    }
    for host in ["127.0.0.1.evil.example", "10.0.0.1:8080", "[::2]"] {
        let (status, text) = raw(addr, "GET", "/app.js", host, "").await;
        assert_eq!(status, 403, "{host}: {text}");
    }
}

#[tokio::test]
async fn a_huge_pdn_game_number_is_refused() {
    let addr = serve(config(4)).await;
    let (s, _) = session(addr, "russian").await;
    let before = unstamped(get(addr, &s).await.1);
    let (status, v) = post(
        addr,
        &format!("{s}/pdn"),
        json!({ "pdn": "1. c3-d4 *", "game": 18446744073709551615u64 }),
    )
    .await;
    assert_error(status, &v, 400, "there is no game 18446744073709551615");
    assert_eq!(unstamped(get(addr, &s).await.1), before);
    // The session still works.
    let (status, v) = post(addr, &format!("{s}/move"), json!({ "move": "c3-d4" })).await;
    assert_eq!(status, 200, "{v}");
    let (status, v) = post(
        addr,
        &format!("{s}/pdn"),
        json!({ "pdn": "1. c3-d4 *", "game": 0 }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], json!(["c3-d4"]));
}

/// Every field of every route, given a value it cannot take (a wrong kind,
/// out of range, an unknown field, not an object): 400 with one line in the
/// engine's style, naming the field, what it needs and what it got; the
/// session unchanged and no engine started.
#[tokio::test]
async fn every_bad_request_body_gets_one_line_naming_the_field() {
    let addr = serve(config(4)).await;
    let (s, _) = session(addr, "russian").await;
    let before = unstamped(get(addr, &s).await.1);
    let variants = "russian, brazilian, adiyukh-64 or adiyukh-80";
    let year = 365 * 24 * 3600 * 1000u64;
    let go = "\"depth\", \"movetime\", \"nodes\", \"wtime\", \"btime\", \"winc\", \"binc\", \"infinite\", \"multipv\", \"play\"";
    let cases: Vec<(&str, &str, String)> = vec![
        (
            "",
            r#"{"variant": 5}"#,
            format!("\"variant\" needs {variants}, not 5"),
        ),
        (
            "",
            r#"{"variant": "chess"}"#,
            format!("\"variant\" needs {variants}, not \"chess\""),
        ),
        (
            "",
            r#"{"varient": "russian"}"#,
            "unknown field \"varient\" (this request takes \"variant\")".into(),
        ),
        (
            "",
            "[1]",
            "the request body needs a JSON object, not a list".into(),
        ),
        (
            "",
            "7",
            "the request body needs a JSON object, not 7".into(),
        ),
        (
            "new",
            r#"{"variant": true}"#,
            format!("\"variant\" needs {variants}, not true"),
        ),
        (
            "position",
            r#"{"fen": 5}"#,
            "\"fen\" needs text, not 5".into(),
        ),
        (
            "position",
            r#"{"fen": "W:W", "variant": ["russian"]}"#,
            format!("\"variant\" needs {variants}, not a list"),
        ),
        (
            "position",
            r#"{"fen": null}"#,
            "give the position text as \"fen\"".into(),
        ),
        (
            "pdn",
            r#"{"pdn": {"text": "1. c3-d4 *"}}"#,
            "\"pdn\" needs text, not an object".into(),
        ),
        (
            "pdn",
            r#"{"pdn": "1. c3-d4 *", "game": -1}"#,
            "\"game\" needs a whole number, 0 or more, not -1".into(),
        ),
        (
            "pdn",
            r#"{"pdn": "1. c3-d4 *", "game": 1.5}"#,
            "\"game\" needs a whole number, 0 or more, not 1.5".into(),
        ),
        (
            "pdn",
            r#"{"pdn": "1. c3-d4 *", "games": 1}"#,
            "unknown field \"games\" (this request takes \"pdn\", \"game\")".into(),
        ),
        (
            "move",
            r#"{"move": 5}"#,
            "\"move\" needs text, not 5".into(),
        ),
        (
            "move",
            r#"{"path": "c3"}"#,
            "\"path\" needs a list of squares (text such as \"c3\"), not \"c3\"".into(),
        ),
        (
            "move",
            r#"{"path": ["c3", 4]}"#,
            "\"path\" needs a list of squares (text such as \"c3\"), not 4 as item 2".into(),
        ),
        (
            "takeback",
            r#"{"plies": 0}"#,
            "\"plies\" needs a whole number, 1 or more, not 0".into(),
        ),
        (
            "takeback",
            r#"{"plies": "1"}"#,
            "\"plies\" needs a whole number, 1 or more, not \"1\"".into(),
        ),
        (
            "goto",
            r#"{"ply": -1}"#,
            "\"ply\" needs a whole number, 0 or more, not -1".into(),
        ),
        (
            "goto",
            r#"{"ply": "x"}"#,
            "\"ply\" needs a whole number, 0 or more, not \"x\"".into(),
        ),
        (
            "flip",
            r#"{"flip": 1}"#,
            "\"flip\" needs true or false, not 1".into(),
        ),
        (
            "flip",
            r#"{"flip": "yes"}"#,
            "\"flip\" needs true or false, not \"yes\"".into(),
        ),
        (
            "engine/go",
            r#"{"depth": 99999}"#,
            "\"depth\" needs a whole number from 1 to 1000, not 99999".into(),
        ),
        (
            "engine/go",
            r#"{"depth": -1}"#,
            "\"depth\" needs a whole number from 1 to 1000, not -1".into(),
        ),
        (
            "engine/go",
            r#"{"depth": 2.5}"#,
            "\"depth\" needs a whole number from 1 to 1000, not 2.5".into(),
        ),
        (
            "engine/go",
            r#"{"depth": "5"}"#,
            "\"depth\" needs a whole number from 1 to 1000, not \"5\"".into(),
        ),
        (
            "engine/go",
            r#"{"movetime": "1s"}"#,
            format!("\"movetime\" needs a whole number from 0 to {year}, not \"1s\""),
        ),
        (
            "engine/go",
            r#"{"nodes": 0}"#,
            format!(
                "\"nodes\" needs a whole number from 1 to {}, not 0",
                u64::MAX / 2
            ),
        ),
        (
            "engine/go",
            r#"{"wtime": -5, "btime": 1000}"#,
            format!("\"wtime\" needs a whole number from 0 to {year}, not -5"),
        ),
        (
            "engine/go",
            r#"{"wtime": 1000, "btime": 1000, "binc": true}"#,
            format!("\"binc\" needs a whole number from 0 to {year}, not true"),
        ),
        (
            "engine/go",
            r#"{"depth": 5, "multipv": 51}"#,
            "\"multipv\" needs a whole number from 1 to 50, not 51".into(),
        ),
        (
            "engine/go",
            r#"{"infinite": "yes"}"#,
            "\"infinite\" needs true or false, not \"yes\"".into(),
        ),
        (
            "engine/go",
            r#"{"depth": 5, "play": 1}"#,
            "\"play\" needs true or false, not 1".into(),
        ),
        (
            "engine/go",
            r#"{"dpeth": 5}"#,
            format!("unknown field \"dpeth\" (this request takes {go})"),
        ),
    ];
    for (route, body, want) in &cases {
        let path = if route.is_empty() {
            "/api/sessions".to_string()
        } else {
            format!("{s}/{route}")
        };
        let (status, text) = raw(addr, "POST", &path, &addr.to_string(), body).await;
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(status, 400, "{route} {body}: {v}");
        assert_eq!(v["error"].as_str(), Some(want.as_str()), "{route} {body}");
        assert_eq!(
            unstamped(get(addr, &s).await.1),
            before,
            "{route} {body} changed the state"
        );
    }
    // No session was made by the refused bodies, and no engine started.
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    assert_eq!(st["engine"], Value::Null, "{st}");
    assert_eq!(st["starts"], 0, "{st}");
    session(addr, "russian").await;
    session(addr, "russian").await;
    session(addr, "russian").await;
    let (status, v) = post(addr, "/api/sessions", Value::Null).await;
    assert_error(status, &v, 429, "too many sessions (4 open");
    // Good bodies with `null` for an optional field work.
    let (status, v) = post(addr, &format!("{s}/flip"), json!({ "flip": null })).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["flip"], true, "{v}");
}

// ------------------------------------------------------------ the engine

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The next event for which `pick` says yes (20 s at most).
async fn wait_for(ws: &mut Ws, what: &str, pick: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .unwrap_or_else(|_| panic!("no {what} event within 20 s"))
            .expect("socket open")
            .expect("socket message");
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(&t).unwrap();
            if pick(&v) {
                return v;
            }
        }
    }
}

#[tokio::test]
async fn engine_lifecycle() {
    let addr = serve(config(4)).await;
    let (s, start) = session(addr, "russian").await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws"))
        .await
        .unwrap();
    let hello = wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    assert_eq!(hello["state"]["fen"], start["fen"]);

    // A search to a depth: info lines, then a legal best move.
    let (status, v) = post(addr, &format!("{s}/engine/go"), json!({ "depth": 4 })).await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    let info = wait_for(&mut ws, "info", |v| {
        v["type"] == "info" && v["search"] == search
    })
    .await;
    assert!(info["depth"].as_u64().unwrap() >= 1, "{info}");
    assert!(
        info["pv"].as_array().is_some_and(|pv| !pv.is_empty()),
        "{info}"
    );
    let best = wait_for(&mut ws, "bestmove", |v| {
        v["type"] == "bestmove" && v["search"] == search
    })
    .await;
    let mv = best["move"].as_str().unwrap().to_string();
    assert!(
        legal_texts(&start).contains(&mv),
        "{mv} is not legal at the start"
    );
    assert_eq!(best["played"], false);
    assert_eq!(get(addr, &s).await.1["ply"], 0, "analysis plays nothing");

    // The engine dies: reported on the socket and in its status.
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    assert_eq!(st["engine"]["state"], "ready", "{st}");
    let pid = st["engine"]["pid"].as_u64().unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let died = wait_for(&mut ws, "died", |v| v["type"] == "died").await;
    assert_eq!(died["exit"], "killed by SIGKILL", "{died}");
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    assert_eq!(st["engine"]["state"], "dead", "{st}");
    let (status, v) = post(addr, &format!("{s}/engine/go"), json!({ "depth": 2 })).await;
    assert_error(status, &v, 409, "died");

    // Restarted from the page; it plays a move into the game.
    let (status, v) = post(addr, &format!("{s}/engine/restart"), Value::Null).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"], "ready");
    let pid2 = v["pid"].as_u64().unwrap();
    assert_ne!(pid2, pid);
    let (status, v) = post(
        addr,
        &format!("{s}/engine/go"),
        json!({ "depth": 3, "play": true }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    let best = wait_for(&mut ws, "bestmove", |v| {
        v["type"] == "bestmove" && v["search"] == search
    })
    .await;
    assert_eq!(best["played"], true, "{best}");
    let state = wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    assert_eq!(state["state"]["ply"], 1);
    assert_eq!(state["state"]["moves"][0], best["move"]);

    // Infinite analysis with two lines, then stop.
    let (status, v) = post(
        addr,
        &format!("{s}/engine/go"),
        json!({ "infinite": true, "multipv": 2 }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    let second = wait_for(&mut ws, "second line", |v| {
        v["type"] == "info" && v["search"] == search && v["multipv"] == 2
    })
    .await;
    assert!(second["white"].is_object(), "{second}");
    let (status, _) = post(addr, &format!("{s}/engine/stop"), Value::Null).await;
    assert_eq!(status, 200);
    let best = wait_for(&mut ws, "bestmove", |v| {
        v["type"] == "bestmove" && v["search"] == search
    })
    .await;
    assert!(best["move"].is_string(), "{best}");

    // A new search while one runs: the running one is stopped, its best
    // move reported, and the new one (on a Fischer clock) runs to its end.
    let (_, v) = post(addr, &format!("{s}/engine/go"), json!({ "infinite": true })).await;
    let old = v["search"].clone();
    wait_for(&mut ws, "info", |v| {
        v["type"] == "info" && v["search"] == old
    })
    .await;
    let clock = json!({ "wtime": 2000, "btime": 2000, "winc": 20, "binc": 20 });
    let (status, v) = post(addr, &format!("{s}/engine/go"), clock).await;
    assert_eq!(status, 200, "{v}");
    let new = v["search"].clone();
    let first = wait_for(&mut ws, "bestmove", |v| v["type"] == "bestmove").await;
    assert_eq!(first["search"], old, "{first}");
    let second = wait_for(&mut ws, "bestmove", |v| v["type"] == "bestmove").await;
    assert_eq!(second["search"], new, "{second}");
    assert!(second["move"].is_string(), "{second}");

    // Bad limits change nothing.
    for (body, says) in [
        (json!({}), "give a limit"),
        (json!({ "depth": 0 }), "\"depth\" needs"),
        (json!({ "wtime": 1000 }), "both wtime and btime"),
        (json!({ "infinite": true, "play": true }), "plays no move"),
    ] {
        let (status, v) = post(addr, &format!("{s}/engine/go"), body).await;
        assert_error(status, &v, 400, says);
    }
    let _ = ws.close(None).await;
    let (status, _) = call(addr, "DELETE", &s, Value::Null).await;
    assert_eq!(status, 200);
    // The engine process is gone (quit and reaped) once the session is closed.
    if cfg!(target_os = "linux") {
        let proc = PathBuf::from(format!("/proc/{pid2}"));
        let gone = async {
            while proc.exists() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), gone)
            .await
            .expect("the engine process ends with its session");
    }
}

#[tokio::test]
async fn a_session_closes_when_its_last_socket_goes() {
    let mut cfg = config(4);
    cfg.grace = Duration::from_millis(200);
    let addr = serve(cfg).await;
    let (s, _) = session(addr, "russian").await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws"))
        .await
        .unwrap();
    wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    let (status, v) = post(addr, &format!("{s}/engine/go"), json!({ "infinite": true })).await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    wait_for(&mut ws, "info", |v| {
        v["type"] == "info" && v["search"] == search
    })
    .await;
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    assert_eq!(st["engine"]["state"], "searching", "{st}");
    let pid = st["engine"]["pid"].as_u64().unwrap();

    // The tab goes: within a bounded time the session is gone (404) and
    // its engine process has ended.
    ws.close(None).await.unwrap();
    drop(ws);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let (status, v) = get(addr, &s).await;
        if status == 404 {
            assert_error(status, &v, 404, "no session");
            break;
        }
        assert_eq!(status, 200, "{v}");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the session is still open 10 s after its socket closed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    match tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws")).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 404),
        other => panic!("a socket of a closed session: {:?}", other.map(|_| ())),
    }
    if cfg!(target_os = "linux") {
        let proc = PathBuf::from(format!("/proc/{pid}"));
        let gone = async {
            while proc.exists() {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), gone)
            .await
            .expect("the engine process ends with its session");
    }

    // A socket that comes back within the grace period keeps the session.
    let mut cfg = config(4);
    cfg.grace = Duration::from_millis(500);
    let addr = serve(cfg).await;
    let (s, _) = session(addr, "russian").await;
    let url = format!("ws://{addr}{s}/ws");
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    ws.close(None).await.unwrap();
    drop(ws);
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let (status, v) = get(addr, &s).await;
    assert_eq!(status, 200, "{v}");
}

/// A session made through the API with no WebSocket closes, its engine
/// quitting, when it gets no request for `Config::idle`; requests keep it,
/// a WebSocket keeps it, and an expired one makes room under the limit.
#[tokio::test]
async fn a_session_with_no_socket_expires_when_unused() {
    let mut cfg = config(2);
    cfg.idle = Duration::from_millis(800);
    let addr = serve(cfg).await;
    let (s1, _) = session(addr, "russian").await;
    let (status, st) = post(addr, &format!("{s1}/engine/start"), Value::Null).await;
    assert_eq!(status, 200, "{st}");
    let pid = st["pid"].as_u64().unwrap();
    let (s2, _) = session(addr, "brazilian").await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s2}/ws"))
        .await
        .unwrap();
    wait_for(&mut ws, "state", |v| v["type"] == "state").await;
    let (status, v) = post(addr, "/api/sessions", Value::Null).await;
    assert_error(status, &v, 429, "too many sessions");

    // Used every 200 ms for 2 s (longer than the idle time): kept.
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let (status, v) = get(addr, &s1).await;
        assert_eq!(status, 200, "a session in use expired: {v}");
    }
    // Then unused for 2.5 s: gone, its engine with it; the watched one stays.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let (status, v) = get(addr, &s1).await;
    assert_eq!(status, 404, "a session unused for 2.5 s is still open");
    assert_error(status, &v, 404, "no session");
    let (status, v) = get(addr, &s2).await;
    assert_eq!(status, 200, "a session with a WebSocket expired: {v}");
    if cfg!(target_os = "linux") {
        let gone = async {
            while running(pid) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), gone)
            .await
            .expect("the engine process ends with its expired session");
    }
    // Its place is free again.
    let (status, v) = post(addr, "/api/sessions", Value::Null).await;
    assert_eq!(status, 201, "{v}");
    drop(ws);
}

/// Whether process `pid` runs (Linux; a zombie left to a parent that does
/// not reap it has ended).
fn running(pid: u64) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !matches!(
            stat.rsplit_once(") ")
                .and_then(|(_, rest)| rest.chars().next()),
            Some('Z' | 'X')
        ),
        Err(_) => false,
    }
}

#[tokio::test]
async fn a_compound_engine_command_runs_and_ends_whole() {
    // `cd / && engine`: run by the shell as it is (not `exec cd / && ...`).
    let mut cfg = config(4);
    cfg.engine.program = Program::Shell(format!("cd / && '{}'", engine_path().display()));
    let addr = serve(cfg).await;
    let (s, _) = session(addr, "russian").await;
    let (status, v) = post(addr, &format!("{s}/engine/start"), Value::Null).await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["state"], "ready", "{v}");
    assert!(v["name"].as_str().unwrap().starts_with("shashki"), "{v}");
    let pid = v["pid"].as_u64().unwrap();
    // The shell and the engine it started (when it did not replace itself).
    let mut pids = vec![pid];
    if cfg!(target_os = "linux") {
        let children =
            std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
        pids.extend(
            children
                .split_whitespace()
                .map(|p| p.parse::<u64>().unwrap()),
        );
    }
    let (status, v) = post(addr, &format!("{s}/engine/go"), json!({ "depth": 2 })).await;
    assert_eq!(status, 200, "{v}");
    let (status, _) = call(addr, "DELETE", &s, Value::Null).await;
    assert_eq!(status, 200);
    if cfg!(target_os = "linux") {
        let gone = async {
            while pids.iter().any(|&p| running(p)) {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(5), gone)
            .await
            .unwrap_or_else(|_| panic!("the processes {pids:?} end with their session"));
    }
}

// ------------------------------------------------------------ Hub

/// This program's engine in Hub mode (`shashki hub`), as `--engine ...
/// --proto hub` runs it.
fn hub_config(command: String) -> Config {
    Config {
        engine: EngineConfig {
            program: Program::Shell(command),
            protocol: Protocol::Hub,
            hash_mib: 16,
        },
        max_sessions: 8,
        max_engine_starts: 4,
        idle: Duration::from_secs(3600),
        grace: Duration::from_secs(60),
    }
}

fn shashki_hub() -> String {
    format!("'{}' hub", engine_path().display())
}

/// A search to its end: its info lines and its best move.
async fn search_to_end(addr: SocketAddr, s: &str, ws: &mut Ws, body: Value) -> (Vec<Value>, Value) {
    let (status, v) = post(addr, &format!("{s}/engine/go"), body).await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    let mut infos = Vec::new();
    loop {
        let ev = wait_for(ws, "info or bestmove", |v| {
            (v["type"] == "info" || v["type"] == "bestmove") && v["search"] == search
        })
        .await;
        if ev["type"] == "bestmove" {
            return (infos, ev);
        }
        infos.push(ev);
    }
}

#[tokio::test]
async fn hub_engine_searches_plays_and_dies() {
    let addr = serve(hub_config(shashki_hub())).await;
    let (s, start) = session(addr, "russian").await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws"))
        .await
        .unwrap();
    wait_for(&mut ws, "state", |v| v["type"] == "state").await;

    // The handshake: the engine's name, its protocol, no MultiPV.
    let (status, st) = post(addr, &format!("{s}/engine/start"), Value::Null).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["protocol"], "hub", "{st}");
    assert_eq!(st["state"], "ready", "{st}");
    assert_eq!(st["multipv"], false, "{st}");
    assert!(st["name"].as_str().unwrap().starts_with("shashki "), "{st}");

    // A search to a depth: info with a depth, a score and a line of legal
    // moves in this program's notation; a legal best move.
    let (infos, best) = search_to_end(addr, &s, &mut ws, json!({ "depth": 5 })).await;
    let last = infos
        .last()
        .unwrap_or_else(|| panic!("no info before {best}"));
    assert_eq!(last["depth"], 5, "{last}");
    assert!(last["score"]["cp"].is_i64(), "{last}");
    assert!(last["time"].is_u64() && last["nodes"].is_u64(), "{last}");
    let pv: Vec<String> = serde_json::from_value(last["pv"].clone()).unwrap();
    assert!(pv.len() >= 2, "{last}");
    assert!(legal_texts(&start).contains(&pv[0]), "{last}");
    assert!(pv[1].contains('-') && pv[1].len() == 5, "{last}");
    let mv = best["move"].as_str().unwrap().to_string();
    assert!(legal_texts(&start).contains(&mv), "{mv}");
    assert_eq!(mv, pv[0], "the best move heads the last line");

    // After a move of ours (sent as `moves=`), the engine plays Black's.
    let (status, v) = post(addr, &format!("{s}/move"), json!({ "move": "c3-d4" })).await;
    assert_eq!(status, 200, "{v}");
    let after = v["state"].clone();
    let (_, best) = search_to_end(addr, &s, &mut ws, json!({ "depth": 3, "play": true })).await;
    assert_eq!(best["played"], true, "{best}");
    assert!(legal_texts(&after).contains(&best["move"].as_str().unwrap().to_string()));
    let (_, now) = get(addr, &s).await;
    assert_eq!(now["ply"], 2);

    // A capture of two jumps: Hub's captured squares become our path.
    let (status, v) = post(
        addr,
        &format!("{s}/position"),
        json!({ "fen": "W:Wc3:Bd4,d6,f6,h8" }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    let (_, best) = search_to_end(addr, &s, &mut ws, json!({ "depth": 3 })).await;
    let mv = best["move"].as_str().unwrap();
    assert!(["c3:e5:c7", "c3:e5:g7"].contains(&mv), "{best}");

    // On a Fischer clock, and a time per move.
    for limit in [
        json!({ "wtime": 3000, "btime": 3000, "winc": 100, "binc": 100 }),
        json!({ "movetime": 200 }),
    ] {
        let (_, best) = search_to_end(addr, &s, &mut ws, limit.clone()).await;
        assert!(best["move"].is_string(), "{limit}: {best}");
    }

    // Infinite analysis: one line only; stopped, it gives its move.
    let (status, v) = post(
        addr,
        &format!("{s}/engine/go"),
        json!({ "infinite": true, "multipv": 2 }),
    )
    .await;
    assert_error(status, &v, 409, "MultiPV");
    // The refused search left the status as it was: ready, no search.
    let (_, state) = get(addr, &s).await;
    assert_eq!(state["engine"]["state"], "ready", "{state}");
    assert!(state["engine"]["search"].is_null(), "{state}");
    let (_, v) = post(addr, &format!("{s}/engine/go"), json!({ "infinite": true })).await;
    let search = v["search"].clone();
    wait_for(&mut ws, "info", |v| {
        v["type"] == "info" && v["search"] == search
    })
    .await;
    let (status, _) = post(addr, &format!("{s}/engine/stop"), Value::Null).await;
    assert_eq!(status, 200);
    let best = wait_for(&mut ws, "bestmove", |v| {
        v["type"] == "bestmove" && v["search"] == search
    })
    .await;
    assert!(best["move"].is_string(), "{best}");

    // A search replacing a running one: the old one's move first.
    let (_, v) = post(addr, &format!("{s}/engine/go"), json!({ "infinite": true })).await;
    let old = v["search"].clone();
    let (_, v) = post(addr, &format!("{s}/engine/go"), json!({ "depth": 2 })).await;
    let new = v["search"].clone();
    let first = wait_for(&mut ws, "bestmove", |v| v["type"] == "bestmove").await;
    assert_eq!(first["search"], old, "{first}");
    let second = wait_for(&mut ws, "bestmove", |v| v["type"] == "bestmove").await;
    assert_eq!(second["search"], new, "{second}");
    assert!(second["move"].is_string(), "{second}");

    // Death: reported on the socket and in the status.
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    let pid = st["engine"]["pid"].as_u64().unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let died = wait_for(&mut ws, "died", |v| v["type"] == "died").await;
    assert_eq!(died["exit"], "killed by SIGKILL", "{died}");
    let (_, st) = get(addr, &format!("{s}/engine")).await;
    assert_eq!(st["engine"]["state"], "dead", "{st}");
}

#[tokio::test]
async fn hub_engine_plays_every_variant() {
    let addr = serve(hub_config(shashki_hub())).await;
    for (variant, fen) in [
        ("brazilian", None),
        ("adiyukh-64", None),
        ("adiyukh-80", Some("W:Wd6-2/1,a1,c1:Bc3-3/2,j8,h8")),
        ("russian", None),
    ] {
        let (s, mut state) = session(addr, variant).await;
        if let Some(fen) = fen {
            let (status, v) = post(addr, &format!("{s}/position"), json!({ "fen": fen })).await;
            assert_eq!(status, 200, "{v}");
            state = v;
        }
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws"))
            .await
            .unwrap();
        let (infos, best) = search_to_end(addr, &s, &mut ws, json!({ "depth": 3 })).await;
        let mv = best["move"].as_str().unwrap_or_default().to_string();
        assert!(
            legal_texts(&state).contains(&mv),
            "{variant}: {best} is not legal in {}",
            state["fen"]
        );
        assert!(
            infos.iter().any(|i| i["pv"][0] == json!(mv)),
            "{variant}: no line starts with {mv}: {infos:?}"
        );
        let _ = ws.close(None).await;
        let (status, _) = call(addr, "DELETE", &s, Value::Null).await;
        assert_eq!(status, 200);
    }
}

/// A Hub engine that refuses the position: the search ends with no move
/// (not a search of another position), the error is passed on.
#[tokio::test]
async fn hub_errors_end_the_search() {
    let script = r#"while read -r cmd rest; do
  case "$cmd" in
    hub) echo "id name=refuser version=1"; echo "param name=variant value=russian type=enum values=\"russian brazilian\""; echo wait ;;
    init) echo ready ;;
    pos) echo 'error message="bad position"' ;;
    ping) echo pong ;;
    go) echo 'done move=22-18' ;;
    quit) exit 0 ;;
  esac
done"#;
    let dir = std::env::temp_dir().join(format!("shashki-gui-hub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("refuser.sh");
    std::fs::write(&file, script).unwrap();
    let addr = serve(hub_config(format!("sh '{}'", file.display()))).await;
    let (s, _) = session(addr, "russian").await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{s}/ws"))
        .await
        .unwrap();
    let (status, st) = post(addr, &format!("{s}/engine/start"), Value::Null).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["name"], "refuser 1");
    let (status, v) = post(addr, &format!("{s}/engine/go"), json!({ "depth": 3 })).await;
    assert_eq!(status, 200, "{v}");
    let search = v["search"].clone();
    let text = wait_for(&mut ws, "text", |v| v["type"] == "text").await;
    assert_eq!(text["text"], "error: bad position", "{text}");
    let best = wait_for(&mut ws, "bestmove", |v| {
        v["type"] == "bestmove" && v["search"] == search
    })
    .await;
    assert!(best["move"].is_null(), "{best}");
    // A variant the engine does not play is refused before any command.
    let (s2, _) = session(addr, "adiyukh-64").await;
    let (status, v) = post(addr, &format!("{s2}/engine/go"), json!({ "depth": 3 })).await;
    assert_error(status, &v, 409, "does not play");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The Hub front end, end to end: the built binary is started, switched to
//! Hub mode by its first line `hub`, and driven through standard input and
//! output. Then the same binary plays whole games through pydraughts' Hub
//! client (engine-tests/pydraughts_games.py), when pydraughts is at hand.

use crate::common::pydraughts_or_skip;
use crate::process::Engine;
use shashki::board::Geometry;
use shashki::{notation, Position, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
/// Generous: CI runs the test binaries side by side on two cores.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine in Hub mode and everything it said.
struct Session {
    engine: Engine,
    transcript: Vec<String>,
}

impl Session {
    /// Start the engine and go through the handshake; returns the session
    /// and the handshake lines (`id`, `param`s, `wait`).
    fn start() -> (Session, Vec<String>) {
        let mut s = Session {
            engine: Engine::start(),
            transcript: Vec::new(),
        };
        s.send("hub");
        let mut handshake = Vec::new();
        loop {
            let line = s.next_line(PATIENCE).unwrap_or_else(|| s.fail("no 'wait'"));
            handshake.push(line.clone());
            if line == "wait" {
                break;
            }
        }
        (s, handshake)
    }

    fn send(&mut self, line: &str) {
        self.transcript
            .push(format!(">> {}", line.chars().take(200).collect::<String>()));
        self.engine.send(line);
    }

    /// The next line within `wait`, checked for Hub syntax.
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.engine.recv(wait) {
            Ok(line) => {
                self.transcript.push(format!("<< {line}"));
                if let Err(e) = check_syntax(&line) {
                    self.fail(&format!("malformed line {line:?}: {e}"));
                }
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => self.fail("the engine closed its output"),
        }
    }

    /// Read until a line whose command is `command`; returns it and the
    /// lines before it.
    fn expect(&mut self, command: &str) -> (String, Vec<String>) {
        let deadline = Instant::now() + PATIENCE;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                self.fail(&format!("no '{command}' line in time"));
            };
            if line.split(' ').next() == Some(command) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// The lines that arrive within `wait`.
    fn quiet_for(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// `ping`, and wait for `pong`; returns what came before it.
    fn sync(&mut self) -> Vec<String> {
        self.send("ping");
        self.expect("pong").1
    }

    fn fail(&self, why: &str) -> ! {
        let tail: Vec<&String> = self.transcript.iter().rev().take(60).rev().collect();
        panic!(
            "{why}\ntranscript (last lines):\n{}",
            tail.iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// Send `quit` and wait for the process to end.
    fn quit(mut self) {
        self.send("quit");
        match self.engine.wait_exit(PATIENCE) {
            Some(status) => assert!(status.success(), "engine ended with {status}"),
            None => self.fail("the engine did not end after quit"),
        }
    }
}

/// The arguments of a line: `name` and `value` (`None` for a flag).
type Args = Vec<(String, Option<String>)>;

/// Split a Hub line into its command and `name[=value]` pairs.
fn pairs(line: &str) -> Result<(String, Args), String> {
    let is_id = |c: char| !c.is_control() && !c.is_whitespace() && c != '=' && c != '"';
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let word = |i: &mut usize| {
        let s = *i;
        while *i < chars.len() && is_id(chars[*i]) {
            *i += 1;
        }
        chars[s..*i].iter().collect::<String>()
    };
    let command = word(&mut i);
    if command.is_empty() {
        return Err("no command".into());
    }
    let mut args = Vec::new();
    while i < chars.len() {
        if chars[i] != ' ' {
            return Err(format!("expected one space at column {}", i + 1));
        }
        i += 1;
        let name = word(&mut i);
        if name.is_empty() {
            return Err(format!("expected a name at column {}", i + 1));
        }
        let mut value = None;
        if i < chars.len() && chars[i] == '=' {
            i += 1;
            if i < chars.len() && chars[i] == '"' {
                let s = i + 1;
                i = s;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
                if i == chars.len() {
                    return Err("unterminated quote".into());
                }
                value = Some(chars[s..i].iter().collect());
                i += 1;
            } else {
                let v = word(&mut i);
                if v.is_empty() {
                    return Err(format!("empty value for {name}"));
                }
                value = Some(v);
            }
        }
        args.push((name, value));
    }
    Ok((command, args))
}

/// Every engine line is Hub syntax; `info`, `done`, `id`, `param` and
/// `error` lines have only `name=value` pairs (pydraughts splits them so).
fn check_syntax(line: &str) -> Result<(), String> {
    let (command, args) = pairs(line)?;
    let pairs_only = ["info", "done", "id", "param", "error"];
    if pairs_only.contains(&command.as_str()) {
        if let Some((n, _)) = args.iter().find(|(_, v)| v.is_none()) {
            return Err(format!("'{n}' has no value"));
        }
    }
    if command == "error" && !(line.starts_with("error message=\"") && line.ends_with('"')) {
        return Err("an error line is error message=\"...\"".into());
    }
    Ok(())
}

fn arg(line: &str, name: &str) -> Option<String> {
    pairs(line)
        .ok()?
        .1
        .into_iter()
        .find(|(n, _)| n == name)
        .and_then(|(_, v)| v)
}

/// The square of a Hub move number: `a1` numbering (1 = a1, 2 = c1, ...,
/// 32 = h8) or PDN (1 = b8 ... 32 = g1).
fn hub_square(n: u32, pdn: bool) -> Option<shashki::Square> {
    let g = Geometry::BOARD_64;
    if pdn {
        return g.from_pdn_number(n);
    }
    if !(1..=32).contains(&n) {
        return None;
    }
    let rank = (n - 1) / 4;
    let file = 2 * ((n - 1) % 4) + rank % 2;
    g.parse_square(&format!("{}{}", (b'a' + file as u8) as char, rank + 1))
        .ok()
}

/// The legal move of `pos` that a Hub move of an 8x8 men variant names:
/// `from-to`, or `fromxto` with every captured square.
fn find_numeric(pos: &Position, text: &str, pdn: bool) -> Option<shashki::Move> {
    let capture = text.contains('x');
    let parts: Vec<Option<shashki::Square>> = text
        .split(['-', 'x'])
        .map(|t| t.parse().ok().and_then(|n| hub_square(n, pdn)))
        .collect();
    if parts.len() < 2 || parts.iter().any(Option::is_none) || (!capture && parts.len() != 2) {
        return None;
    }
    let sq: Vec<shashki::Square> = parts.into_iter().flatten().collect();
    let captured: u64 = sq[2..].iter().map(|s| s.bb()).sum();
    let found: Vec<shashki::Move> = pos
        .legal_moves()
        .iter()
        .filter(|m| {
            m.from() == sq[0]
                && m.to() == sq[1]
                && m.is_capture() == capture
                && (!capture || (m.captured() == captured && m.capture_count() == sq.len() - 2))
        })
        .copied()
        .collect();
    (found.len() == 1).then(|| found[0])
}

fn legal_numeric(pos: &Position, text: &str, pdn: bool) -> bool {
    find_numeric(pos, text, pdn).is_some()
}

/// The position after numeric Hub moves (checked legal).
fn after(pos: &Position, moves: &[&str], pdn: bool) -> Position {
    let mut p = *pos;
    for m in moves {
        let mv = find_numeric(&p, m, pdn).unwrap_or_else(|| panic!("{m} is not legal in {p}"));
        p.make(&mv);
    }
    p
}

#[test]
fn hub_handshake_init_and_quit() {
    let (mut s, handshake) = Session::start();
    let id = &handshake[0];
    assert!(id.starts_with("id "), "{id}");
    assert_eq!(arg(id, "name").as_deref(), Some("shashki"));
    assert_eq!(
        arg(id, "version").as_deref(),
        Some(env!("CARGO_PKG_VERSION"))
    );
    assert!(id.contains("author=\"the Shashki developers\""), "{id}");
    let param = |name: &str| {
        handshake
            .iter()
            .find(|l| l.starts_with("param ") && arg(l, "name").as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no param {name} in {handshake:?}"))
            .clone()
    };
    let variant = param("variant");
    assert_eq!(arg(&variant, "type").as_deref(), Some("enum"));
    assert_eq!(arg(&variant, "value").as_deref(), Some("russian"));
    assert_eq!(
        arg(&variant, "values").as_deref(),
        Some("russian brazilian adiyukh-64 adiyukh-80")
    );
    assert_eq!(arg(&param("threads"), "type").as_deref(), Some("int"));
    assert_eq!(arg(&param("tt-size"), "value").as_deref(), Some("22"));
    assert_eq!(arg(&param("ponder"), "type").as_deref(), Some("bool"));
    assert_eq!(arg(&param("move-numbers"), "value").as_deref(), Some("a1"));
    s.send("set-param name=tt-size value=18");
    s.send("set-param name=threads value=2");
    s.send("init");
    let (_, before) = s.expect("ready");
    assert!(before.is_empty(), "{before:?}");
    // A second `hub` shows the values set.
    s.send("hub");
    let (_, lines) = s.expect("wait");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("param name=tt-size value=18 ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("param name=threads value=2 ")));
    assert!(s.sync().is_empty());
    s.quit();
}

#[test]
fn hub_think_answers_a_legal_move_with_info() {
    let (mut s, _) = Session::start();
    s.send("init");
    s.expect("ready");
    s.send(&format!("pos pos={START}"));
    s.send("level depth=5");
    s.send("go think");
    let (done, infos) = s.expect("done");
    // The search reports; the one note before them (what endgame tables
    // were found) is no report.
    let infos: Vec<String> = infos
        .into_iter()
        .filter(|l| !l.starts_with("info string="))
        .collect();
    let start = Position::start(Variant::Russian);
    let best = arg(&done, "move").expect("done has a move");
    assert!(legal_numeric(&start, &best, false), "{done}");
    let starts = ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"];
    assert!(starts.contains(&best.as_str()), "{best}");
    if let Some(p) = arg(&done, "ponder") {
        assert!(
            legal_numeric(&after(&start, &[&best], false), &p, false),
            "{done}"
        );
    }
    assert!(!infos.is_empty(), "no info before done");
    for info in &infos {
        assert!(info.starts_with("info "), "{info}");
        for key in ["depth", "score", "nodes", "time", "nps", "pv"] {
            assert!(arg(info, key).is_some(), "{key} missing in {info}");
        }
        let score = arg(info, "score").unwrap();
        let (units, hundredths) = score.trim_start_matches('-').split_once('.').unwrap();
        assert!(
            units.parse::<u32>().is_ok() && hundredths.len() == 2,
            "{score}"
        );
        let pv = arg(info, "pv").unwrap();
        let first = pv.split(' ').next().unwrap();
        assert!(legal_numeric(&start, first, false), "{info}");
    }
    let last_depth: u32 = arg(infos.last().unwrap(), "depth")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(last_depth, 5);

    // A forced capture, written with the captured square: c3 takes d4.
    s.send("pos pos=Weeebeeeeeeeeeeeeebeeeweeeeeeeeee");
    s.send("level move-time=0.1");
    s.send("go think");
    let (done, _) = s.expect("done");
    assert_eq!(arg(&done, "move").as_deref(), Some("10x19x14"), "{done}");

    // Moves given with the position, a capture among them.
    s.send(&format!("pos pos={START} moves=\"9-13 22-18 13x22x18\""));
    s.send("level nodes=2000");
    s.send("go think");
    let (done, _) = s.expect("done");
    let pos = after(&start, &["9-13", "22-18", "13x22x18"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );

    // A clock: time and increment in seconds, a negative time as zero.
    s.send(&format!("pos pos={START} moves=\"9-13\""));
    s.send("level moves=10 time=2.5 inc=0.05");
    s.send("go think");
    let (done, _) = s.expect("done");
    let pos = after(&start, &["9-13"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    s.send("level time=-1.5");
    s.send("go think");
    let (done, _) = s.expect("done");
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    s.quit();
}

/// Hub clocks too teach the engine what the client takes between moves:
/// the time sent for the second move is 300 ms less than the first move's
/// clock minus the engine's own time (Hub counts this move's increment as
/// already in `time`, so the increment is taken out, as pydraughts does).
#[test]
fn hub_clocks_teach_the_engine_the_overhead() {
    let (mut s, _) = Session::start();
    s.send("set-param name=move-overhead value=0");
    s.send("init");
    s.expect("ready");
    s.send(&format!("pos pos={START}"));
    s.send("level time=2.99 inc=0.01");
    let sent = Instant::now();
    s.send("go think");
    let (done, before) = s.expect("done");
    let took = sent.elapsed().as_millis() as u64;
    // (Bar the one note of the endgame tables found.)
    assert!(
        !before
            .iter()
            .any(|l| l.starts_with("info string")
                && !l.starts_with("info string=\"endgame tables: ")),
        "{before:?}"
    );
    let start = Position::start(Variant::Russian);
    let best = arg(&done, "move").expect("a move");
    let mid = after(&start, &[&best], false);
    let reply = shashki::notation::hub::move_text(
        &mid,
        &mid.legal_moves()[0],
        shashki::notation::hub::MoveNumbers::A1,
    );
    s.send(&format!("pos pos={START} moves=\"{best} {reply}\""));
    // Clock before the first move 3000 ms; after it 3000 - took - 300 + 10.
    let left = 3000 + 10 - took - 300;
    s.send(&format!(
        "level time={:.3} inc=0.01",
        (left - 10) as f64 / 1000.0
    ));
    s.send("go think");
    let (_, before) = s.expect("done");
    let note = before
        .iter()
        .find(|l| l.starts_with("info string="))
        .unwrap_or_else(|| panic!("no overhead note in {before:?}"));
    let text = arg(note, "string").unwrap();
    let ms: u64 = text
        .strip_prefix("move overhead: the client takes about ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    // Half of the 300 ms and of the pipes' share (so at least 150).
    assert!((150..=170).contains(&ms), "{note}");
    s.quit();
}

#[test]
fn hub_ping_during_a_search_and_stop() {
    let (mut s, _) = Session::start();
    s.send(&format!("pos pos={START}"));
    s.send("level infinite");
    s.send("go analyze");
    s.expect("info");
    // pong comes at once while the search goes on.
    let before = s.sync();
    assert!(!before.iter().any(|l| l.starts_with("done")), "{before:?}");
    // Anything but ping, ponder-hit, stop and quit waits for the search;
    // stop acts at once, and the held command follows it.
    s.send("pos");
    s.send("stop");
    let (done, before) = s.expect("done");
    assert!(!before.iter().any(|l| l.starts_with("error")), "{before:?}");
    let start = Position::start(Variant::Russian);
    assert!(
        legal_numeric(&start, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    // After the search: stop and ponder-hit are ignored, the engine works.
    s.send("stop");
    s.send("ponder-hit");
    assert!(s.sync().is_empty());
    s.send("level depth=2");
    s.send("go think");
    s.expect("done");
    s.quit();
}

#[test]
fn hub_ponder_then_ponder_hit_or_stop() {
    let (mut s, _) = Session::start();
    s.send("set-param name=ponder value=true");
    // The engine ponders on the expected reply 21-17 to its move 9-13.
    s.send(&format!("pos pos={START} moves=\"9-13 21-17\""));
    s.send("level move-time=0.3");
    s.send("go ponder");
    let lines = s.quiet_for(Duration::from_millis(800));
    assert!(
        !lines.iter().any(|l| l.starts_with("done")),
        "done while pondering: {lines:?}"
    );
    assert!(!s.sync().iter().any(|l| l.starts_with("done")));
    let hit = Instant::now();
    s.send("ponder-hit");
    let (done, _) = s.expect("done");
    assert!(
        hit.elapsed() < Duration::from_secs(20),
        "ponder-hit ended the search only after {:?}",
        hit.elapsed()
    );
    let start = Position::start(Variant::Russian);
    let pos = after(&start, &["9-13", "21-17"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );

    // Ponder again, then the opponent plays something else: stop.
    s.send(&format!("pos pos={START} moves=\"10-14 24-20\""));
    s.send("level move-time=5");
    s.send("go ponder");
    s.expect("info");
    s.send("stop");
    let (done, _) = s.expect("done");
    let pos = after(&start, &["10-14", "24-20"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    s.quit();
}

#[test]
fn hub_bad_input_gets_one_error_and_changes_nothing() {
    let (mut s, _) = Session::start();
    s.send(&format!("pos pos={START} moves=\"9-13\""));
    s.send("level depth=3");
    assert!(s.sync().is_empty());
    let long = format!("pos pos={}", "e".repeat(70_000));
    let bad: Vec<String> = [
        "bogus",
        "pos pos=Wxyz",
        "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos pos=Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-14\"",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13 9-13\"",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13 x\"",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13 22-18 13x22x17\"",
        "pos pos=\"W",
        "pos pos=",
        "pos moves",
        "level",
        "level depth=abc",
        "level depth=0",
        "level depth=99999999999999999999999",
        "level move-time=-1",
        "level move-time=nan",
        "level moves=5",
        "level inc=1",
        "go",
        "go fast",
        "set-param name=threads value=0",
        "set-param name=threads value=x",
        "set-param name=variant value=chess",
        "set-param name=nope value=1",
        "set-param value=1",
        "set-param name=tt-size value=99",
        "set-param name=tt-size value=15",
        "set-param name=ponder value=maybe",
        "set-param name=move-numbers value=b8",
        "= = =",
        "\"quoted\"",
        "\u{1}\u{2}\u{7f}",
        "ÿÿÿ ü=ü",
        long.as_str(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for line in &bad {
        s.send(line);
        let before = s.sync();
        assert_eq!(
            before.len(),
            1,
            "{:?} should get exactly one reply: {before:?}",
            line.chars().take(60).collect::<String>()
        );
        assert!(
            before[0].starts_with("error message=\""),
            "{:?}: {}",
            line.chars().take(60).collect::<String>(),
            before[0]
        );
    }
    // The last pos was refused: there is no position until a good one.
    s.send("go think");
    let (err, _) = s.expect("error");
    assert!(
        err.starts_with("error message=\"go: no position: "),
        "{err}"
    );
    s.expect("done");
    s.send(&format!("pos pos={START} moves=\"9-13\""));
    // Empty lines are ignored.
    s.send("");
    s.send("   ");
    assert!(s.sync().is_empty());
    // The options and the position are as before: Russian, Black to move
    // after 9-13, depth 3.
    s.send("hub");
    let (_, params) = s.expect("wait");
    assert!(params
        .iter()
        .any(|l| l.starts_with("param name=variant value=russian ")));
    assert!(params
        .iter()
        .any(|l| l.starts_with("param name=threads value=1 ")));
    assert!(params
        .iter()
        .any(|l| l.starts_with("param name=tt-size value=22 ")));
    s.send("go think");
    let (done, infos) = s.expect("done");
    let pos = after(&Position::start(Variant::Russian), &["9-13"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    assert_eq!(arg(infos.last().unwrap(), "depth").as_deref(), Some("3"));
    // A refused go (no legal move) changes nothing either.
    s.send("pos pos=Weeeeeeeeeeeeeeeeeeeeeeeebeeeeeee");
    s.send("go think");
    let (err, _) = s.expect("error");
    assert!(err.contains("no legal move"), "{err}");
    s.quit();
}

/// The same rule for numbers as in UCI: out of range is an error naming
/// the range; a negative clock time counts as zero.
#[test]
fn hub_level_numbers_out_of_range_name_the_range() {
    let (mut s, _) = Session::start();
    let cases = [
        (
            "level depth=-5",
            "'-5' is not a whole number from 1 to 1000",
        ),
        (
            "level depth=1001",
            "'1001' is not a whole number from 1 to 1000",
        ),
        (
            "level nodes=-1",
            "'-1' is not a whole number from 1 to 9223372036854775807",
        ),
        (
            "level moves=-1 time=10",
            "'-1' is not a whole number from 0 to 10000",
        ),
        (
            "level move-time=-1",
            "'-1' is not a number of seconds from 0 to 31536000",
        ),
        (
            "level time=10 inc=-1",
            "'-1' is not a number of seconds from 0 to 31536000",
        ),
    ];
    for (line, want) in cases {
        s.send(line);
        let before = s.sync();
        assert_eq!(before.len(), 1, "{line:?}: {before:?}");
        assert!(
            before[0].contains(want),
            "{line:?}: {:?} lacks {want:?}",
            before[0]
        );
    }
    s.send("level time=-1");
    s.send("go think");
    let (done, _) = s.expect("done");
    assert!(arg(&done, "move").is_some(), "{done}");
    s.quit();
}

/// User text echoed in an error comes back escaped, never as control
/// bytes.
#[test]
fn hub_control_bytes_in_bad_lines_come_back_escaped() {
    let (mut s, _) = Session::start();
    let cases = [
        ("foo\u{1b}[31mbar\u{7}", "'\\u{1b}'"),
        ("\u{1b}[2J", "'\\u{1b}'"),
        ("set-param name=variant value=\"\u{1b}[2J\"", "'\\u{1b}[2J'"),
        (
            "set-param name=\"\u{1b}]0;x\u{7}\" value=1",
            "'\\u{1b}]0;x\\u{7}'",
        ),
        ("level depth=\"\u{7}\"", "'\\u{7}'"),
        ("pos pos=\"W:W\u{1b}c3:B\"", "\\u{1b}"),
        ("pos moves=\"9-13\u{7}\"", "9-13\\u{7}"),
    ];
    for (line, want) in cases {
        s.send(line);
        let before = s.sync();
        assert_eq!(before.len(), 1, "{line:?}: {before:?}");
        let err = &before[0];
        assert!(err.starts_with("error message=\""), "{line:?}: {err:?}");
        assert!(err.contains(want), "{line:?}: {err:?} lacks {want:?}");
        assert!(!err.chars().any(char::is_control), "{line:?}: {err:?}");
    }
    s.quit();
}

#[test]
fn hub_variants_and_numberings() {
    let (mut s, _) = Session::start();
    // Brazilian: the same position string and move numbers.
    s.send("set-param name=variant value=brazilian");
    s.send(&format!("pos pos={START} moves=\"11-15 22-19\""));
    s.send("level depth=4");
    s.send("go think");
    let (done, _) = s.expect("done");
    let start = Position::start(Variant::Brazilian);
    let pos = after(&start, &["11-15", "22-19"], false);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );

    // PDN move numbers: White's c3-d4 is 22-18.
    s.send("set-param name=move-numbers value=pdn");
    s.send(&format!("pos pos={START} moves=\"22-18\""));
    s.send("level depth=4");
    s.send("go think");
    let (done, _) = s.expect("done");
    let pos = after(&start, &["22-18"], true);
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), true),
        "{done}"
    );
    s.send("set-param name=move-numbers value=a1");

    // Position text is read too, numbers there in PDN order.
    s.send("set-param name=variant value=russian");
    s.send("pos pos=W:W22:B18,4");
    s.send("level depth=4");
    s.send("go think");
    let (done, _) = s.expect("done");
    assert_eq!(arg(&done, "move").as_deref(), Some("10x19x14"), "{done}");

    // Adiyukh-64: position text, algebraic moves with the whole path.
    s.send("set-param name=variant value=adiyukh-64");
    s.send("pos start moves=\"c3-d4 f6-e5\"");
    s.send("level depth=3");
    s.send("go think");
    let (done, _) = s.expect("done");
    let mut pos = Position::start(Variant::Adiyukh64);
    for m in ["c3-d4", "f6-e5"] {
        let mv = notation::parse_move(&pos, m).unwrap();
        pos.make(&mv);
    }
    let best = arg(&done, "move").unwrap();
    assert!(
        notation::legal_move_texts(&pos).contains(&best),
        "{done} in {pos}"
    );
    assert_eq!(best, "d4:f6", "the capture is forced");

    // Adiyukh-80 from position text with towers.
    s.send("set-param name=variant value=adiyukh-80");
    let text = "W:Wc3-2/1,e1:Bd4,j8-3";
    s.send(&format!("pos pos=\"{text}\""));
    s.send("level move-time=0.1");
    s.send("go think");
    let (done, _) = s.expect("done");
    let pos = shashki::fen::parse_position(Variant::Adiyukh80, text).unwrap();
    assert!(
        notation::legal_move_texts(&pos).contains(&arg(&done, "move").unwrap()),
        "{done}"
    );
    // Moves after the end of the game by the engine's rules are accepted
    // (the GUI may not apply a draw rule): kings on c1, e1 against d8, f8
    // repeat the position three times, and the GUI plays on.
    s.send("set-param name=variant value=russian");
    let kings = "WeBBeeeeeeeeeeeeeeeeeeeeeeeeeeWWe";
    let shuffle = "2-6 30-26 6-2 26-30 2-6 30-26 6-2 26-30 2-6";
    let start = shashki::fen::parse_position(Variant::Russian, "W:WK30,K31:BK2,K3").unwrap();
    let moves: Vec<&str> = shuffle.split(' ').collect();
    let mut game = shashki::game::Game::from_position(start);
    let mut pos = start;
    for m in &moves {
        let mv = find_numeric(&pos, m, false).unwrap_or_else(|| panic!("{m} in {pos}"));
        let _ = game.play(&mv);
        pos.make(&mv);
    }
    assert_eq!(
        game.moves().len(),
        8,
        "the game's rules end it before the last move"
    );
    s.send(&format!("pos pos={kings} moves=\"{shuffle}\""));
    s.send("level depth=2");
    s.send("go think");
    let (done, before) = s.expect("done");
    assert!(!before.iter().any(|l| l.starts_with("error")), "{before:?}");
    assert!(
        legal_numeric(&pos, &arg(&done, "move").unwrap(), false),
        "{done}"
    );
    s.quit();
}

#[test]
fn hub_pydraughts_plays_whole_games() {
    let Some(python) = pydraughts_or_skip("hub_pydraughts_plays_whole_games") else {
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/pydraughts_games.py");
    let started = Instant::now();
    let out = Command::new(&python)
        .env("SHASHKI_EGDB", crate::common::no_tables())
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_shashki"))
        .output()
        .expect("run the pydraughts script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}({:.1}s)", started.elapsed().as_secs_f64());
    // The summary, visible in the test log.
    let summary: Vec<&str> = stdout.lines().rev().take(2).collect();
    let _ = writeln!(
        std::io::stderr(),
        "hub_pydraughts_plays_whole_games: {} | {}",
        summary.get(1).unwrap_or(&""),
        summary.first().unwrap_or(&"")
    );
    assert!(
        out.status.success(),
        "pydraughts games failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("pydraughts interop OK"),
        "unexpected output:\n{stdout}\n{stderr}"
    );
}

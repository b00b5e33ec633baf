//! An external engine driven over pipes by the match runner, speaking the
//! UCI-like protocol or Scan's Hub protocol (PROTOCOL.md).
//!
//! The process is started through `sh -c "exec <command>"`, so a command
//! line may hold arguments and quotes as in a shell. Its standard output is
//! read by a thread of its own, so every wait has a timeout: an engine that
//! never answers, closes its output or writes nonsense is reported as a
//! [`Failure`], never a hang; an engine that exits is reported with its exit
//! status and its last lines on standard error (read by another thread).
//! Dropping a [`Player`] kills the process.

use crate::game::Game;
use crate::moves::Move;
use crate::notation;
use crate::notation::hub::{self, MoveNumbers};
use crate::protocol::hub::Line;
use crate::protocol::process::{self, Program};
use crate::protocol::reply::NO_MOVE;
use crate::protocol::{BestMove, Go, HubInfo, Info, Level, Protocol, Setup, MAX_LINE};
use crate::search::Score;
use crate::variant::Variant;
use std::collections::VecDeque;
use std::io::Read;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to start and set up one engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// A name for tables and PDN (default: the engine's own `id name`).
    pub name: Option<String>,
    /// The command line, run by `sh -c`.
    pub command: String,
    pub protocol: Protocol,
    /// Options sent after the handshake: `setoption name N value V`
    /// (UCI) or `set-param name=N value=V` (Hub).
    pub options: Vec<(String, String)>,
}

/// What the engine last reported about its search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub depth: Option<u32>,
    /// Score from the mover's view: centi-men (UCI `cp`), or a win/loss
    /// in plies as `+W<n>`/`-W<n>` text.
    pub score: Option<String>,
}

/// A move the engine played.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    pub elapsed: Duration,
    pub report: Report,
}

/// Why an engine could not give a move.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// No answer before the deadline (no clock: the move timeout).
    Timeout(Duration),
    /// The clock ran out: the time the engine had for the move.
    OutOfTime(Duration),
    /// The engine closed its output (crashed or quit): how it ended (`exit
    /// status 3`, `killed by SIGSEGV`, when it did within a second) and its
    /// last lines on standard error, if any.
    Exited {
        how: Option<String>,
        stderr: Option<String>,
    },
    /// It answered with a move that is not legal here (after reporting
    /// this error, if it did: a position it refused, say).
    IllegalMove(String, Option<String>),
    /// It wrote something else than the protocol allows.
    Protocol(String),
    /// The runner was interrupted (Ctrl-C) while waiting.
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(d) => write!(f, "no move within {:.3} s", d.as_secs_f64()),
            Failure::OutOfTime(d) => {
                write!(
                    f,
                    "out of time ({:.3} s left on its clock)",
                    d.as_secs_f64()
                )
            }
            Failure::Exited { how, stderr } => {
                write!(f, "the engine exited")?;
                match (how, stderr) {
                    (Some(h), Some(e)) => write!(f, " ({h}; standard error: '{e}')"),
                    (Some(h), None) => write!(f, " ({h})"),
                    (None, Some(e)) => write!(f, " (standard error: '{e}')"),
                    (None, None) => Ok(()),
                }
            }
            Failure::IllegalMove(m, None) => write!(f, "illegal move '{m}'"),
            Failure::IllegalMove(m, Some(e)) => {
                write!(f, "illegal move '{m}' after the engine's error '{e}'")
            }
            Failure::Protocol(m) => write!(f, "protocol error: {m}"),
            Failure::Interrupted => write!(f, "interrupted"),
        }
    }
}

/// A running engine.
pub struct Player {
    spec: EngineSpec,
    variant: Variant,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The engine's own name (`id name` or Hub `id name=`).
    pub id_name: Option<String>,
    numbers: MoveNumbers,
    /// When this flag is set, every wait ends at once with
    /// [`Failure::Interrupted`].
    cancel: Option<&'static AtomicBool>,
    /// The engine's last lines on standard error (read by a thread of
    /// their own, which ends with the process).
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_reader: Option<std::thread::JoinHandle<()>>,
}

/// Lines of an engine's standard error kept for the reason of a crash.
const STDERR_LINES: usize = 3;

/// The most characters of standard error quoted in a reason.
const STDERR_CHARS: usize = 160;

/// How long the handshake and `isready` may take.
const HANDSHAKE: Duration = Duration::from_secs(30);

/// How often a wait looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(50);

impl Player {
    /// Start the engine, do the handshake, set the variant and options.
    /// Once `cancel` is set, every wait for the engine ends at once
    /// ([`Failure::Interrupted`]).
    pub fn start(
        spec: &EngineSpec,
        variant: Variant,
        cancel: Option<&'static AtomicBool>,
    ) -> Result<Player, String> {
        // The engine gets a process group of its own, so dropping the
        // player can kill everything the command started.
        let mut cmd = Program::Shell(spec.command.clone()).command();
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", spec.command))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        // Standard error is drained (an engine that writes much there must
        // not block on a full pipe), its last lines kept to explain a crash.
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_reader = std::thread::spawn(move || {
            each_line(stderr, |line| {
                let line = line.trim();
                if !line.is_empty() {
                    let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line.to_string());
                }
                true
            })
        });
        // Bounded: an engine that floods its output waits for the runner
        // instead of filling the memory.
        let (tx, rx) = sync_channel(1024);
        std::thread::spawn(move || {
            each_line(stdout, |line| tx.send(line.trim_end().to_string()).is_ok())
        });
        let numbers = spec
            .options
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("move-numbers"))
            .and_then(|(_, v)| MoveNumbers::parse(v))
            .unwrap_or(MoveNumbers::A1);
        let mut p = Player {
            spec: spec.clone(),
            variant,
            stdin: child.stdin.take(),
            child,
            lines: rx,
            id_name: None,
            numbers,
            cancel,
            stderr_tail,
            stderr_reader: Some(stderr_reader),
        };
        if let Err(e) = p.handshake() {
            // The shell's statuses for a command it could not run (127: not
            // found, 126: found but not executable). For a plain command
            // the program is named; a compound one's is in the shell's words.
            let plain =
                process::first_word(&spec.command).filter(|_| !process::is_compound(&spec.command));
            let (program, shell_said) = match &plain {
                Some(w) => (
                    format!("program '{}'", crate::input::escape(w)),
                    String::new(),
                ),
                None => (
                    format!("a program of '{}'", crate::input::escape(&spec.command)),
                    p.stderr_text().map_or(String::new(), |t| format!(" ({t})")),
                ),
            };
            let folder = plain.is_some_and(|w| std::path::Path::new(&w).is_dir());
            // An exit was waited for when it was seen: no wait here (an
            // engine that refused a setting is still running).
            return Err(match p.status_within(Duration::ZERO) {
                Some(127) => format!("{program} not found{shell_said}"),
                Some(126) if folder => format!("{program} is a folder, not a program"),
                Some(126) => format!("{program} cannot be run: not an executable file{shell_said}"),
                _ => format!("'{}': {e}", crate::input::escape(&spec.command)),
            });
        }
        Ok(p)
    }

    /// The exit code of the process if it ends within `wait` (`None`: it
    /// runs on, or was killed by a signal).
    fn status_within(&mut self, wait: Duration) -> Option<i32> {
        self.wait_exit(wait).and_then(|s| s.code())
    }

    /// The process's exit status if it ends within `wait`.
    fn wait_exit(&mut self, wait: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + wait;
        loop {
            match self.child.try_wait() {
                Ok(Some(s)) => return Some(s),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5))
                }
                _ => return None,
            }
        }
    }

    /// The last lines of standard error, joined by ` / `, clipped and
    /// escaped; `None` when it wrote nothing there. After the process
    /// ended, the reader is given a moment to take in what is left.
    fn stderr_text(&mut self) -> Option<String> {
        if let Some(r) = self.stderr_reader.take() {
            let deadline = Instant::now() + Duration::from_millis(200);
            while !r.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
            if !r.is_finished() {
                self.stderr_reader = Some(r);
            }
        }
        let t = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        if t.is_empty() {
            return None;
        }
        let text: Vec<&str> = t.iter().map(String::as_str).collect();
        let text = text.join(" / ");
        let clipped: String = text.chars().take(STDERR_CHARS).collect();
        let more = if clipped.len() < text.len() {
            "..."
        } else {
            ""
        };
        Some(crate::input::escape(&format!("{clipped}{more}")))
    }

    /// The failure of an engine whose output or input closed: how the
    /// process ended (waiting a second at most) and what it last wrote on
    /// standard error.
    fn exited(&mut self) -> Failure {
        let how = self
            .wait_exit(Duration::from_secs(1))
            .map(process::describe_exit);
        Failure::Exited {
            how,
            stderr: self.stderr_text(),
        }
    }

    /// The name for tables: the given one, else the engine's, else the
    /// command.
    pub fn name(&self) -> String {
        self.spec
            .name
            .clone()
            .or_else(|| self.id_name.clone())
            .unwrap_or_else(|| self.spec.command.clone())
    }

    fn send(&mut self, line: &str) -> Result<(), Failure> {
        let written = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|_| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        written.map_err(|_| self.exited())
    }

    fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let now = Instant::now();
        // Checked first: an engine that keeps writing must not outlive its
        // deadline because a line is always waiting.
        if now >= deadline {
            return Err(Failure::Timeout(Duration::ZERO));
        }
        let left = deadline - now;
        loop {
            if self.cancel.is_some_and(|c| c.load(Ordering::SeqCst)) {
                return Err(Failure::Interrupted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(Failure::Timeout(left));
            }
            let wait = match self.cancel {
                Some(_) => (deadline - now).min(CANCEL_POLL),
                None => deadline - now,
            };
            match self.lines.recv_timeout(wait) {
                Ok(l) => return Ok(l),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    /// Read until a line whose first word is `word`.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Ok(l) => {
                    if l.split_whitespace().next() == Some(word) {
                        return Ok(l);
                    }
                    self.note_id(&l);
                }
                Err(Failure::Timeout(_)) => {
                    return Err(format!("no '{word}' within {} s", timeout.as_secs()))
                }
                Err(e) => return Err(format!("waiting for '{word}': {e}")),
            }
        }
    }

    fn note_id(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("id name ") {
            self.id_name = Some(rest.trim().to_string());
        } else if line.starts_with("id ") {
            if let Some(name) = Line::read(line).get("name") {
                self.id_name = Some(name.to_string());
            }
        }
    }

    fn handshake(&mut self) -> Result<(), String> {
        let err = |e: Failure| e.to_string();
        let variant = self.variant.id();
        let protocol = self.spec.protocol;
        let (hello, answer, variant_name) = match protocol {
            Protocol::Uci => ("uci", "uciok", "Variant"),
            Protocol::Hub => ("hub", "wait", "variant"),
        };
        self.send(hello).map_err(err)?;
        self.wait_for(answer, HANDSHAKE)?;
        self.send(&protocol.set_option(variant_name, variant))
            .map_err(err)?;
        for (n, v) in self.spec.options.clone() {
            self.send(&protocol.set_option(&n, &v)).map_err(err)?;
        }
        match protocol {
            Protocol::Uci => self.sync(),
            Protocol::Hub => {
                self.send("init").map_err(err)?;
                self.wait_for("ready", HANDSHAKE).map(|_| ())
            }
        }
    }

    /// Wait until the engine has read everything sent so far; an error
    /// line it wrote meanwhile (a refused option) is an error.
    fn sync(&mut self) -> Result<(), String> {
        let (ask, answer) = match self.spec.protocol {
            Protocol::Uci => ("isready", "readyok"),
            Protocol::Hub => ("ping", "pong"),
        };
        self.send(ask).map_err(|e| e.to_string())?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = self
                .recv(deadline)
                .map_err(|e| format!("waiting for '{answer}': {e}"))?;
            if l.trim() == answer {
                return Ok(());
            }
            if l.starts_with("info string error") || l.starts_with("error") {
                return Err(format!("the engine refused a setting: {l}"));
            }
            self.note_id(&l);
        }
    }

    /// Tell the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send(self.spec.protocol.new_game())
            .map_err(|e| e.to_string())?;
        self.sync()
    }

    /// Ask for a move in the current position of `game`, waiting until
    /// `deadline` at most. The move is checked against the position.
    pub fn think(&mut self, game: &Game, go: &Go, timeout: Duration) -> Result<Reply, Failure> {
        let pos = *game.position();
        let commands = match self.spec.protocol {
            Protocol::Uci => self.uci_commands(game, go),
            Protocol::Hub => self.hub_commands(game, go),
        };
        let start = Instant::now();
        for c in commands {
            self.send(&c)?;
        }
        let deadline = start + timeout;
        let mut report = Report::default();
        // An error the engine reported (say, a position it refused) explains
        // an illegal move that follows it.
        let mut complaint: Option<String> = None;
        loop {
            let line = match self.recv(deadline) {
                Ok(l) => l,
                Err(Failure::Timeout(_)) => return Err(Failure::Timeout(timeout)),
                Err(e) => return Err(e),
            };
            let first = line.split_whitespace().next().unwrap_or("");
            let text = match (self.spec.protocol, first) {
                (Protocol::Uci, "info") => {
                    if let Some(e) = line.strip_prefix("info string error: ") {
                        complaint.get_or_insert_with(|| crate::input::quote(e));
                    }
                    read_uci_info(&line, &mut report);
                    continue;
                }
                (Protocol::Uci, "bestmove") => match BestMove::parse_uci(&line) {
                    Some(b) => b.mv.unwrap_or_else(|| NO_MOVE.to_string()),
                    None => return Err(Failure::Protocol("'bestmove' without a move".into())),
                },
                (Protocol::Hub, "info") => {
                    read_hub_info(&line, &mut report);
                    continue;
                }
                (Protocol::Hub, "done") => match BestMove::from_hub(&Line::read(&line)).mv {
                    Some(m) => m,
                    None => return Err(Failure::Protocol("'done' without move=".into())),
                },
                (Protocol::Hub, "error") => {
                    return Err(Failure::Protocol(crate::input::quote(&line)))
                }
                _ => continue,
            };
            let elapsed = start.elapsed();
            let parsed = match self.spec.protocol {
                Protocol::Uci => notation::parse_move(&pos, &text).map_err(|e| e.to_string()),
                Protocol::Hub => {
                    hub::parse_move(&pos, &text, self.numbers).map_err(|e| e.to_string())
                }
            };
            return match parsed {
                Ok(mv) => Ok(Reply {
                    mv,
                    elapsed,
                    report,
                }),
                Err(_) => Err(Failure::IllegalMove(crate::input::quote(&text), complaint)),
            };
        }
    }

    fn uci_commands(&self, game: &Game, go: &Go) -> Vec<String> {
        let start = game.start();
        let setup = Setup {
            position: (*start != crate::Position::start(self.variant))
                .then(|| crate::fen::position_text(start)),
            moves: notation::line_texts(start, game.moves()),
        };
        vec![setup.uci_line(), go.to_string()]
    }

    fn hub_commands(&self, game: &Game, go: &Go) -> Vec<String> {
        let mut pos = *game.start();
        let mut moves = Vec::new();
        for m in game.moves() {
            moves.push(hub::move_text(&pos, m, self.numbers));
            pos = pos.play(m);
        }
        let setup = Setup {
            position: Some(crate::fen::hub_position_text(game.start())),
            moves,
        };
        let mut out = vec![setup.hub_line().to_string()];
        // The runner allows the clock as it stands: the level gives the
        // increment out of it (see `Level::of_go`).
        if let Some(level) = Level::of_go(go, game.position().side_to_move()).line() {
            out.push(level.to_string());
        }
        out.push("go think".into());
        out
    }

    /// Ask the engine to quit, then make sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.stdin = None;
        // The whole process group: a command that wraps the engine (a
        // script, `cd dir && engine`) leaves no engine running behind.
        #[cfg(unix)]
        process::kill_group(self.child.id());
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Take in a UCI `info` line: its depth, and its score as comment text
/// (`+0.25`, a win or loss in moves as `+W5`/`-W5`).
fn read_uci_info(line: &str, r: &mut Report) {
    let Some(info) = Info::parse(line) else {
        return;
    };
    if info.depth.is_some() {
        r.depth = info.depth;
    }
    if let Some(s) = info.score {
        r.score = Some(match s {
            Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
            Score::Win(n) => format!("+W{n}"),
            Score::Loss(n) => format!("-W{n}"),
        });
    }
}

/// Take in a Hub `info` line: its depth, and its score as the engine wrote
/// it (men).
fn read_hub_info(line: &str, r: &mut Report) {
    let l = Line::read(line);
    if let Some(d) = HubInfo::from_line(&l).depth {
        r.depth = Some(d);
    }
    if let Some(s) = l.get("score") {
        r.score = Some(s.to_string());
    }
}

/// Call `f` with each line read from `input` (lossy UTF-8, its `\n` kept)
/// until the input ends or `f` returns `false`. A line longer than
/// `MAX_LINE` is cut there (the rest comes as the next line): no endless
/// line fills the memory.
fn each_line(input: impl Read, mut f: impl FnMut(&str) -> bool) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader)
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !f(&String::from_utf8_lossy(&buf)) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_of_infos() {
        let mut r = Report::default();
        read_hub_info(r#"info depth=7 score=0.25 pv="9-13 22-18""#, &mut r);
        assert_eq!(r.depth, Some(7));
        assert_eq!(r.score.as_deref(), Some("0.25"));
        let mut r = Report::default();
        read_uci_info(
            "info depth 12 seldepth 20 score cp -35 nodes 5 pv c3-d4",
            &mut r,
        );
        assert_eq!((r.depth, r.score.as_deref()), (Some(12), Some("-0.35")));
        read_uci_info("info depth 13 score win 5 pv c3-d4", &mut r);
        assert_eq!(r.score.as_deref(), Some("+W5"));
        read_uci_info("info string depth 1 score loss 1", &mut r);
        assert_eq!((r.depth, r.score.as_deref()), (Some(13), Some("+W5")));
    }

    #[test]
    fn a_missing_program_is_an_error_not_a_hang() {
        let spec = EngineSpec {
            name: None,
            command: "/nonexistent/engine".into(),
            protocol: Protocol::Uci,
            options: vec![],
        };
        let e = Player::start(&spec, Variant::Russian, None).err().unwrap();
        assert!(e.contains("/nonexistent/engine"), "{e}");
    }
}

//! An engine as a child process, spoken to over the UCI-like protocol
//! (PROTOCOL.md): started, the handshake (`uci` ... `uciok`, options,
//! `isready`), searches (`position fen ... moves ...`, `go ...`, `stop`),
//! its `info` and `bestmove` lines read, its death seen.
//!
//! One task owns the process (its standard input and the lines of its
//! output) and takes commands from an [`Engine`] handle; what the engine
//! says goes to a [`Sink`] as [`Event`]s. A `go` while a search runs stops
//! that search first and starts the new one after its `bestmove`, so the
//! engine never gets a command it refuses during a search. Dropping the
//! handle sends `quit` and, if the engine does not exit within a second,
//! kills it.
//!
//! Hub is not spoken yet: the protocol is a field of [`EngineConfig`] so that
//! a second speaker can be added beside this one.

use crate::info::{self, Info, Line};
use serde::Serialize;
use shashki::Variant;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(20);
/// The longest line read from an engine; the rest of a longer line is cut.
const MAX_LINE: u64 = 64 * 1024;

/// Which protocol the engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
}

/// What to run.
#[derive(Clone, Debug)]
pub enum Program {
    /// An executable, run without a shell.
    Path(PathBuf),
    /// A command line given by the user, run by `sh -c`.
    Shell(String),
}

impl Program {
    pub fn describe(&self) -> String {
        match self {
            Program::Path(p) => p.display().to_string(),
            Program::Shell(s) => s.clone(),
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub program: Program,
    pub protocol: Protocol,
    /// The transposition table in MiB (`Hash`, when the engine has it).
    pub hash_mib: u32,
}

/// A search's limits; the first reached ends it (none: until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u64>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    /// Fischer clock: White's and Black's time left, their increments (ms).
    pub clock: Option<[u64; 4]>,
    pub infinite: bool,
}

impl Limits {
    /// The `go` command.
    pub fn go_command(&self) -> String {
        let mut s = String::from("go");
        if let Some(d) = self.depth {
            s += &format!(" depth {d}");
        }
        if let Some(t) = self.movetime {
            s += &format!(" movetime {t}");
        }
        if let Some(n) = self.nodes {
            s += &format!(" nodes {n}");
        }
        if let Some([wt, bt, wi, bi]) = self.clock {
            s += &format!(" wtime {wt} btime {bt} winc {wi} binc {bi}");
        }
        if self.infinite {
            s += " infinite";
        }
        s
    }
}

/// A search to run.
#[derive(Clone, Debug)]
pub struct Search {
    pub id: u64,
    pub variant: Variant,
    pub start: String,
    pub moves: Vec<String>,
    pub limits: Limits,
    pub multipv: u32,
}

/// What the engine said or did.
#[derive(Clone, Debug)]
pub enum Event {
    Info {
        search: u64,
        info: Info,
    },
    BestMove {
        search: u64,
        mv: Option<String>,
    },
    /// An `info string` line (the engine's errors come this way).
    Text {
        search: Option<u64>,
        text: String,
    },
    /// The process ended: how.
    Died {
        search: Option<u64>,
        exit: String,
    },
}

/// Where events go.
pub type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// The engine's state as the page sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Status {
    /// `ready`, `searching` or `dead`.
    pub state: &'static str,
    pub name: String,
    pub pid: Option<u32>,
    /// The search running, if any.
    pub search: Option<u64>,
    /// How the process ended, once dead.
    pub exit: Option<String>,
}

enum Cmd {
    Go(Search),
    Stop,
    NewGame,
}

/// A running engine (the handle; the process is owned by its task).
pub struct Engine {
    cmds: mpsc::UnboundedSender<Cmd>,
    status: Arc<Mutex<Status>>,
    /// The variants the engine plays (its `Variant` option; Russian only
    /// without one).
    pub variants: Vec<String>,
    has_multipv: bool,
}

impl Engine {
    /// Start the engine and do the handshake. An engine that cannot be
    /// started, exits, or does not answer `uciok` and `readyok` in time is
    /// an error (and its process is killed).
    pub async fn start(cfg: &EngineConfig, sink: Sink) -> Result<Engine, String> {
        let Protocol::Uci = cfg.protocol;
        let mut cmd = match &cfg.program {
            Program::Path(p) => Command::new(p),
            Program::Shell(s) => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(format!("exec {s}"));
                c
            }
        };
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", cfg.program.describe()))?;
        let pid = child.id();
        let mut stdin = child.stdin.take().ok_or("engine has no standard input")?;
        let stdout = child.stdout.take().ok_or("engine has no standard output")?;
        let (line_tx, mut lines) = mpsc::channel::<String>(1024);
        tokio::spawn(read_lines(stdout, line_tx));

        let mut name = cfg.program.describe();
        let mut variants = Vec::new();
        let mut has_hash = false;
        let mut has_multipv = false;
        let handshake = async {
            send(&mut stdin, "uci").await.map_err(exited)?;
            loop {
                match lines.recv().await.map(|l| info::parse(&l)) {
                    None => return Err("the engine exited during the handshake".to_string()),
                    Some(Line::UciOk) => break,
                    Some(Line::IdName(n)) => name = n,
                    Some(Line::Option { name, vars }) => match name.to_ascii_lowercase().as_str() {
                        "variant" => variants = vars,
                        "hash" => has_hash = true,
                        "multipv" => has_multipv = true,
                        _ => {}
                    },
                    Some(_) => {}
                }
            }
            if has_hash {
                send(
                    &mut stdin,
                    &format!("setoption name Hash value {}", cfg.hash_mib),
                )
                .await
                .map_err(exited)?;
            }
            send(&mut stdin, "isready").await.map_err(exited)?;
            loop {
                match lines.recv().await.map(|l| info::parse(&l)) {
                    None => return Err("the engine exited during the handshake".to_string()),
                    Some(Line::ReadyOk) => return Ok(()),
                    Some(_) => {}
                }
            }
        };
        match tokio::time::timeout(HANDSHAKE, handshake).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = child.kill().await;
                return Err(format!("engine '{}': {e}", cfg.program.describe()));
            }
            Err(_) => {
                let _ = child.kill().await;
                return Err(format!(
                    "engine '{}' did not finish the handshake (uciok, readyok) within {} s",
                    cfg.program.describe(),
                    HANDSHAKE.as_secs()
                ));
            }
        }
        if variants.is_empty() {
            variants.push(Variant::Russian.id().to_string());
        }
        let status = Arc::new(Mutex::new(Status {
            state: "ready",
            name,
            pid,
            search: None,
            exit: None,
        }));
        let (cmds, cmd_rx) = mpsc::unbounded_channel();
        let actor = Actor {
            child,
            stdin,
            status: status.clone(),
            sink,
            searching: None,
            stopping: false,
            pending: None,
            variant: None,
            multipv: 1,
            has_multipv,
            has_variant: variants.len() > 1 || variants[0] != Variant::Russian.id(),
        };
        tokio::spawn(actor.run(cmd_rx, lines));
        Ok(Engine {
            cmds,
            status,
            variants,
            has_multipv,
        })
    }

    /// The engine's state.
    pub fn status(&self) -> Status {
        self.status.lock().expect("engine status").clone()
    }

    /// Whether the process has ended.
    pub fn is_dead(&self) -> bool {
        self.status().state == "dead"
    }

    /// Start a search (a running one is stopped first).
    pub fn go(&self, search: Search) -> Result<(), String> {
        if self.is_dead() {
            return Err("the engine has died; restart it".into());
        }
        if !self.variants.iter().any(|v| v == search.variant.id()) {
            return Err(format!(
                "the engine does not play {} (it plays {})",
                search.variant,
                self.variants.join(", ")
            ));
        }
        if search.multipv > 1 && !self.has_multipv {
            return Err("the engine has no MultiPV option".into());
        }
        self.cmds
            .send(Cmd::Go(search))
            .map_err(|_| "the engine has died; restart it".to_string())
    }

    /// Stop the running search (its `bestmove` still comes).
    pub fn stop(&self) {
        let _ = self.cmds.send(Cmd::Stop);
    }

    /// Tell the engine a new game starts (`ucinewgame`).
    pub fn new_game(&self) {
        let _ = self.cmds.send(Cmd::NewGame);
    }
}

async fn send(stdin: &mut ChildStdin, line: &str) -> Result<(), String> {
    let mut data = line.as_bytes().to_vec();
    data.push(b'\n');
    stdin
        .write_all(&data)
        .await
        .map_err(|e| format!("cannot write to the engine: {e}"))?;
    stdin
        .flush()
        .await
        .map_err(|e| format!("cannot write to the engine: {e}"))
}

/// A write that failed during the handshake: the program has closed its
/// input, as one that exits does (which of the two is seen first is chance).
fn exited(write_error: String) -> String {
    format!("the engine exited during the handshake ({write_error})")
}

/// Forward the engine's output lines until it closes its output.
async fn read_lines(stdout: tokio::process::ChildStdout, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader)
            .take(MAX_LINE)
            .read_until(b'\n', &mut buf)
            .await
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        if buf.last() != Some(&b'\n') {
            // A cut line: skip to its end.
            let mut rest = Vec::new();
            if reader.read_until(b'\n', &mut rest).await.unwrap_or(0) == 0 {
                return;
            }
        }
        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
        if tx.send(line).await.is_err() {
            return;
        }
    }
}

struct Actor {
    child: Child,
    stdin: ChildStdin,
    status: Arc<Mutex<Status>>,
    sink: Sink,
    searching: Option<u64>,
    /// `stop` was sent for the running search.
    stopping: bool,
    pending: Option<Search>,
    variant: Option<Variant>,
    multipv: u32,
    has_multipv: bool,
    has_variant: bool,
}

impl Actor {
    async fn run(
        mut self,
        mut cmds: mpsc::UnboundedReceiver<Cmd>,
        mut lines: mpsc::Receiver<String>,
    ) {
        loop {
            tokio::select! {
                cmd = cmds.recv() => match cmd {
                    Some(cmd) => self.command(cmd).await,
                    None => {
                        self.quit().await;
                        return;
                    }
                },
                line = lines.recv() => match line {
                    Some(line) => self.line(&line).await,
                    None => {
                        self.died().await;
                        return;
                    }
                },
            }
        }
    }

    async fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Go(search) => {
                if self.searching.is_some() {
                    self.stop().await;
                    self.pending = Some(search);
                } else {
                    self.start(search).await;
                }
            }
            Cmd::Stop => {
                self.pending = None;
                if self.searching.is_some() {
                    self.stop().await;
                }
            }
            Cmd::NewGame => {
                if self.searching.is_none() {
                    let _ = send(&mut self.stdin, "ucinewgame").await;
                }
            }
        }
    }

    async fn stop(&mut self) {
        if !self.stopping {
            self.stopping = true;
            let _ = send(&mut self.stdin, "stop").await;
        }
    }

    async fn start(&mut self, s: Search) {
        if self.has_variant && self.variant != Some(s.variant) {
            let _ = send(
                &mut self.stdin,
                &format!("setoption name Variant value {}", s.variant.id()),
            )
            .await;
            self.variant = Some(s.variant);
        }
        if self.has_multipv && self.multipv != s.multipv {
            let _ = send(
                &mut self.stdin,
                &format!("setoption name MultiPV value {}", s.multipv),
            )
            .await;
            self.multipv = s.multipv;
        }
        let mut position = format!("position fen {}", s.start);
        if !s.moves.is_empty() {
            position += " moves ";
            position += &s.moves.join(" ");
        }
        let _ = send(&mut self.stdin, &position).await;
        let _ = send(&mut self.stdin, &s.limits.go_command()).await;
        self.searching = Some(s.id);
        self.stopping = false;
        let mut st = self.status.lock().expect("engine status");
        st.state = "searching";
        st.search = Some(s.id);
    }

    async fn line(&mut self, line: &str) {
        match info::parse(line) {
            Line::Info(info) => {
                if let Some(search) = self.searching {
                    (self.sink)(Event::Info { search, info });
                }
            }
            Line::Text(text) => (self.sink)(Event::Text {
                search: self.searching,
                text,
            }),
            Line::BestMove(mv) => {
                let Some(search) = self.searching.take() else {
                    return;
                };
                {
                    let mut st = self.status.lock().expect("engine status");
                    st.state = "ready";
                    st.search = None;
                }
                (self.sink)(Event::BestMove { search, mv });
                if let Some(next) = self.pending.take() {
                    self.start(next).await;
                }
            }
            _ => {}
        }
    }

    async fn died(&mut self) {
        let exit = match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(status)) => describe_exit(status),
            Ok(Err(e)) => format!("could not be waited for: {e}"),
            Err(_) => {
                let _ = self.child.kill().await;
                "closed its output and was killed".to_string()
            }
        };
        let search = self.searching.take();
        {
            let mut st = self.status.lock().expect("engine status");
            st.state = "dead";
            st.search = None;
            st.exit = Some(exit.clone());
        }
        (self.sink)(Event::Died { search, exit });
    }

    async fn quit(&mut self) {
        let _ = send(&mut self.stdin, "quit").await;
        if tokio::time::timeout(Duration::from_secs(1), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("killed by signal {sig}");
        }
    }
    match status.code() {
        Some(c) => format!("exited with status {c}"),
        None => "exited".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands() {
        let l = Limits {
            depth: Some(5),
            clock: Some([1000, 2000, 10, 20]),
            ..Limits::default()
        };
        assert_eq!(
            l.go_command(),
            "go depth 5 wtime 1000 btime 2000 winc 10 binc 20"
        );
        let l = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(l.go_command(), "go infinite");
    }

    #[tokio::test]
    async fn a_program_that_is_no_engine_is_an_error() {
        let sink: Sink = Arc::new(|_| {});
        let cfg = EngineConfig {
            program: Program::Shell("echo hello".into()),
            protocol: Protocol::Uci,
            hash_mib: 16,
        };
        let err = Engine::start(&cfg, sink.clone()).await.err().unwrap();
        assert!(err.contains("exited during the handshake"), "{err}");
        let cfg = EngineConfig {
            program: Program::Path("/nonexistent/engine".into()),
            ..cfg
        };
        let err = Engine::start(&cfg, sink).await.err().unwrap();
        assert!(err.starts_with("cannot start engine"), "{err}");
    }
}

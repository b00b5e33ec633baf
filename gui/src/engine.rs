//! An engine as a child process, spoken to over the UCI-like protocol
//! (PROTOCOL.md) or Hub (Scan's protocol, see [`crate::hub`]): started, the
//! handshake (UCI: `uci` ... `uciok`, options, `isready`; Hub: `hub` ...
//! `wait`, parameters, `init` ... `ready`), searches (UCI: `position fen
//! ... moves ...`, `go ...`, `stop`; Hub: `pos`, `level`, `go think` or `go
//! analyze`, `stop`), its `info` and `bestmove` (Hub `done`) lines read, its
//! death seen.
//!
//! One task owns the process (its standard input and the lines of its
//! output) and takes commands from an [`Engine`] handle; what the engine
//! says goes to a [`Sink`] as [`Event`]s. A `go` while a search runs stops
//! that search first and starts the new one after its `bestmove`, so the
//! engine never gets a command it refuses during a search. Dropping the
//! handle sends `quit` and, if the engine does not exit within a second,
//! kills it.
//!
//! In Hub, `pos` and `level` are followed by `ping`, and `go` is sent only
//! after the `pong`: an `error` before it (a position or limit the engine
//! refuses) ends the search with no move instead of searching the wrong
//! position; an `error` after `go` (the search refused) does the same.

use crate::hub::{self, Said};
use crate::info::{self, Line};
use serde::Serialize;
use shashki::protocol::process::{self, Program};
use shashki::protocol::{Go, Info, Level, Protocol, Setup, MAX_LINE};
use shashki::{Move, Position, Variant};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// How long the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    pub program: Program,
    pub protocol: Protocol,
    /// The transposition table in MiB (`Hash`, when the engine has it).
    pub hash_mib: u32,
}

/// A search to run.
#[derive(Clone, Debug)]
pub struct Search {
    pub id: u64,
    pub variant: Variant,
    /// The game's start as position text, its moves as move texts (UCI).
    pub start: String,
    pub moves: Vec<String>,
    /// The same as values (Hub).
    pub start_position: Position,
    pub line: Vec<Move>,
    /// The first limit reached ends it (none: until `stop`).
    pub limits: Go,
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
    /// `uci` or `hub`.
    pub protocol: &'static str,
    /// Whether the engine shows several lines (a MultiPV option).
    pub multipv: bool,
    pub pid: Option<u32>,
    /// The search running, if any.
    pub search: Option<u64>,
    /// How the process ended, once dead.
    pub exit: Option<String>,
}

enum Cmd {
    Go(Box<Search>),
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
    /// started, exits, or does not finish the handshake in time is an
    /// error (and its process is killed).
    pub async fn start(cfg: &EngineConfig, sink: Sink) -> Result<Engine, String> {
        // A process group of its own: ending the engine ends everything its
        // command started (a wrapper script, `cd dir && engine`).
        let mut cmd = Command::from(cfg.program.command());
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start engine '{}': {e}", cfg.program.describe()))?;
        let pid = child.id();
        let group = Group(pid);
        let mut stdin = child.stdin.take().ok_or("engine has no standard input")?;
        let stdout = child.stdout.take().ok_or("engine has no standard output")?;
        let (line_tx, mut lines) = mpsc::channel::<String>(1024);
        tokio::spawn(read_lines(stdout, line_tx));

        let handshake = async {
            match cfg.protocol {
                Protocol::Uci => uci_handshake(cfg, &mut stdin, &mut lines).await,
                Protocol::Hub => hub_handshake(cfg, &mut stdin, &mut lines).await,
            }
        };
        let caps = match tokio::time::timeout(HANDSHAKE, handshake).await {
            Ok(Ok(caps)) => caps,
            Ok(Err(e)) => {
                let _ = child.kill().await;
                return Err(format!("engine '{}': {e}", cfg.program.describe()));
            }
            Err(_) => {
                let _ = child.kill().await;
                let steps = match cfg.protocol {
                    Protocol::Uci => "uciok, readyok",
                    Protocol::Hub => "wait, ready",
                };
                return Err(format!(
                    "engine '{}' did not finish the handshake ({steps}) within {} s",
                    cfg.program.describe(),
                    HANDSHAKE.as_secs()
                ));
            }
        };
        let Caps {
            name,
            mut variants,
            has_multipv,
            has_variant,
        } = caps;
        if variants.is_empty() {
            variants.push(Variant::Russian.id().to_string());
        }
        let status = Arc::new(Mutex::new(Status {
            state: "ready",
            name: name.unwrap_or_else(|| cfg.program.describe()),
            protocol: cfg.protocol.id(),
            multipv: has_multipv,
            pid,
            search: None,
            exit: None,
        }));
        let (cmds, cmd_rx) = mpsc::unbounded_channel();
        let actor = Actor {
            protocol: cfg.protocol,
            _group: group,
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
            has_variant,
            hub: None,
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
            .send(Cmd::Go(Box::new(search)))
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

/// What the handshake learnt of the engine.
struct Caps {
    name: Option<String>,
    /// The variants of its variant option or parameter (none: Russian).
    variants: Vec<String>,
    has_multipv: bool,
    /// It has a variant option or parameter, to be set for each search.
    has_variant: bool,
}

const EXITED: &str = "the engine exited during the handshake";

async fn uci_handshake(
    cfg: &EngineConfig,
    stdin: &mut ChildStdin,
    lines: &mut mpsc::Receiver<String>,
) -> Result<Caps, String> {
    let mut name = None;
    let mut variants = Vec::new();
    let mut has_hash = false;
    let mut has_multipv = false;
    send(stdin, "uci").await.map_err(exited)?;
    loop {
        match lines.recv().await.map(|l| info::parse(&l)) {
            None => return Err(EXITED.to_string()),
            Some(Line::UciOk) => break,
            Some(Line::IdName(n)) => name = Some(n),
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
        send(stdin, &Protocol::Uci.set_option("Hash", cfg.hash_mib))
            .await
            .map_err(exited)?;
    }
    send(stdin, "isready").await.map_err(exited)?;
    loop {
        match lines.recv().await.map(|l| info::parse(&l)) {
            None => return Err(EXITED.to_string()),
            Some(Line::ReadyOk) => break,
            Some(_) => {}
        }
    }
    let has_variant = !variants.is_empty() && variants != [Variant::Russian.id()];
    Ok(Caps {
        name,
        variants,
        has_multipv,
        has_variant,
    })
}

/// Hub: `hub`, the `id` and `param` lines up to `wait`; the table size and
/// (when the engine has the parameter) PDN move numbers set; `init` ...
/// `ready`.
async fn hub_handshake(
    cfg: &EngineConfig,
    stdin: &mut ChildStdin,
    lines: &mut mpsc::Receiver<String>,
) -> Result<Caps, String> {
    let mut name = None;
    let mut variants = Vec::new();
    let mut has_variant = false;
    let mut tt = None;
    let mut has_numbers = false;
    send(stdin, "hub").await.map_err(exited)?;
    loop {
        match lines.recv().await.map(|l| hub::parse(&l)) {
            None => return Err(EXITED.to_string()),
            Some(Said::Wait) => break,
            Some(Said::Id(n)) => name = Some(n),
            Some(Said::Param {
                name,
                values,
                min,
                max,
            }) => match name.as_str() {
                "variant" => {
                    has_variant = true;
                    variants = values;
                }
                "tt-size" => tt = Some((min, max)),
                "move-numbers" => has_numbers = true,
                _ => {}
            },
            Some(_) => {}
        }
    }
    if let Some((min, max)) = tt {
        let size = hub::tt_size(cfg.hash_mib, min, max);
        send(stdin, &Protocol::Hub.set_option("tt-size", size))
            .await
            .map_err(exited)?;
    }
    if has_numbers {
        let numbers = hub::NUMBERS.id();
        send(stdin, &Protocol::Hub.set_option("move-numbers", numbers))
            .await
            .map_err(exited)?;
    }
    send(stdin, "init").await.map_err(exited)?;
    loop {
        match lines.recv().await.map(|l| hub::parse(&l)) {
            None => return Err(EXITED.to_string()),
            Some(Said::Ready) => break,
            Some(_) => {}
        }
    }
    Ok(Caps {
        name,
        variants,
        has_multipv: false,
        has_variant,
    })
}

/// Forward the engine's output lines until it closes its output.
async fn read_lines(stdout: tokio::process::ChildStdout, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match (&mut reader)
            .take(MAX_LINE as u64)
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

/// The engine's process group, killed when this is dropped (when the
/// engine's task ends, or its start fails).
struct Group(Option<u32>);

impl Drop for Group {
    fn drop(&mut self) {
        #[cfg(unix)]
        if let Some(pid) = self.0 {
            process::kill_group(pid);
        }
    }
}

struct Actor {
    protocol: Protocol,
    /// Dropped before `child` (which kills the process itself).
    _group: Group,
    child: Child,
    stdin: ChildStdin,
    status: Arc<Mutex<Status>>,
    sink: Sink,
    searching: Option<u64>,
    /// `stop` was sent (or, in Hub before `go`, asked) for the running search.
    stopping: bool,
    pending: Option<Search>,
    variant: Option<Variant>,
    multipv: u32,
    has_multipv: bool,
    has_variant: bool,
    /// Hub: the running search's position and where it stands.
    hub: Option<HubSearch>,
}

/// A Hub search: the position searched (to read the engine's moves), and
/// whether `go` has been sent (it waits for the `pong` after `pos` and
/// `level`).
struct HubSearch {
    position: Position,
    go: Option<&'static str>,
    /// `error` lines before `go` was sent.
    errors: Vec<String>,
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
                    Some(line) => match self.protocol {
                        Protocol::Uci => self.uci_line(&line).await,
                        Protocol::Hub => self.hub_line(&line).await,
                    },
                    None => {
                        self.died().await;
                        return;
                    }
                },
            }
        }
    }

    async fn send(&mut self, line: &str) {
        let _ = send(&mut self.stdin, line).await;
    }

    async fn command(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Go(search) => {
                if self.searching.is_some() {
                    self.stop().await;
                    self.pending = Some(*search);
                } else {
                    self.start(*search).await;
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
                    self.send(self.protocol.new_game()).await;
                }
            }
        }
    }

    async fn stop(&mut self) {
        if self.stopping {
            return;
        }
        self.stopping = true;
        // Hub before `go`: the search ends at the `pong`, with no move.
        let waiting = self.hub.as_ref().is_some_and(|h| h.go.is_some());
        if !waiting {
            self.send("stop").await;
        }
    }

    async fn start(&mut self, s: Search) {
        match self.protocol {
            Protocol::Uci => self.uci_start(&s).await,
            Protocol::Hub => self.hub_start(&s).await,
        }
        self.searching = Some(s.id);
        self.stopping = false;
        let mut st = self.status.lock().expect("engine status");
        st.state = "searching";
        st.search = Some(s.id);
    }

    async fn uci_start(&mut self, s: &Search) {
        if self.has_variant && self.variant != Some(s.variant) {
            self.send(&self.protocol.set_option("Variant", s.variant.id()))
                .await;
            self.variant = Some(s.variant);
        }
        if self.has_multipv && self.multipv != s.multipv {
            self.send(&self.protocol.set_option("MultiPV", s.multipv))
                .await;
            self.multipv = s.multipv;
        }
        let setup = Setup {
            position: Some(s.start.clone()),
            moves: s.moves.clone(),
        };
        self.send(&setup.uci_line()).await;
        self.send(&s.limits.to_string()).await;
    }

    async fn hub_start(&mut self, s: &Search) {
        if self.has_variant && self.variant != Some(s.variant) {
            self.send(&self.protocol.set_option("variant", s.variant.id()))
                .await;
            self.variant = Some(s.variant);
        }
        let (pos_cmd, position) = hub::position_command(&s.start_position, &s.line);
        self.send(&pos_cmd).await;
        if let Some(level) = Level::of_go(&s.limits, position.side_to_move()).line() {
            self.send(&level.to_string()).await;
        }
        self.send("ping").await;
        self.hub = Some(HubSearch {
            position,
            go: Some(if s.limits.infinite {
                "go analyze"
            } else {
                "go think"
            }),
            errors: Vec::new(),
        });
    }

    /// The running search is over: its best move reported, the next one
    /// started.
    async fn finish(&mut self, mv: Option<String>) {
        let Some(search) = self.searching.take() else {
            return;
        };
        self.hub = None;
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

    async fn uci_line(&mut self, line: &str) {
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
            Line::BestMove(mv) => self.finish(mv).await,
            _ => {}
        }
    }

    async fn hub_line(&mut self, line: &str) {
        let text = |text: String, search| Event::Text { search, text };
        match hub::parse(line) {
            Said::Pong => {
                let Some(h) = self.hub.as_mut() else { return };
                let Some(go) = h.go.take() else { return };
                if self.stopping || !h.errors.is_empty() {
                    self.finish(None).await;
                } else {
                    self.send(go).await;
                }
            }
            Said::Info(l) => {
                let (Some(search), Some(h)) = (self.searching, self.hub.as_ref()) else {
                    return;
                };
                if h.go.is_none() {
                    let info = hub::info(&l, &h.position);
                    (self.sink)(Event::Info { search, info });
                }
            }
            Said::Text(t) => (self.sink)(text(t, self.searching)),
            Said::Error(e) => {
                (self.sink)(text(format!("error: {e}"), self.searching));
                match self.hub.as_mut() {
                    Some(h) if h.go.is_some() => h.errors.push(e),
                    // `go` refused: no `done` comes.
                    Some(_) => self.finish(None).await,
                    None => {}
                }
            }
            Said::Done(mv) => {
                let Some(h) = self.hub.as_ref().filter(|h| h.go.is_none()) else {
                    return;
                };
                let ours = mv.as_deref().map(|m| (m, hub::our_move(&h.position, m)));
                let mv = match ours {
                    Some((_, Some((_, t)))) => Some(t),
                    Some((m, None)) => {
                        let note = format!(
                            "error: the engine's move {} is not legal here",
                            shashki::input::quote(m)
                        );
                        (self.sink)(text(note, self.searching));
                        None
                    }
                    None => None,
                };
                self.finish(mv).await;
            }
            _ => {}
        }
    }

    async fn died(&mut self) {
        let exit = match tokio::time::timeout(Duration::from_secs(2), self.child.wait()).await {
            Ok(Ok(status)) => process::describe_exit(status),
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
        self.send("quit").await;
        if tokio::time::timeout(Duration::from_secs(1), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // A UCI engine asked for Hub says nothing Hub knows, then exits.
        let hub = EngineConfig {
            program: Program::Shell("echo uciok; echo readyok".into()),
            protocol: Protocol::Hub,
            hash_mib: 16,
        };
        let err = Engine::start(&hub, sink.clone()).await.err().unwrap();
        assert!(err.contains("exited during the handshake"), "{err}");
        let cfg = EngineConfig {
            program: Program::Path("/nonexistent/engine".into()),
            ..cfg
        };
        let err = Engine::start(&cfg, sink).await.err().unwrap();
        assert!(err.starts_with("cannot start engine"), "{err}");
    }
}

//! Scan's Hub protocol, version 2, over standard input and output.
//!
//! The session starts in the UCI-like front end; when its first command is
//! `hub`, [`Hub::run`] takes over and the rest of the session speaks Hub.
//! Every bad line gets one `error message="..."` reply and changes nothing;
//! the engine keeps running.
//!
//! # Hub conventions of shashki
//!
//! ## Syntax
//!
//! Every line is `<command> <name>=<value> <name>=<value> ...`. A value
//! that is empty or holds a blank, `=` or `"` is written in double quotes
//! (there is no escape: a quoted value cannot hold `"`). A flag is a name
//! without `=value`. Unknown arguments are ignored, as the protocol asks;
//! unknown commands, malformed lines and bad values are errors. Empty lines
//! are ignored.
//!
//! ## Handshake
//!
//! ```text
//! hub
//!   id name=shashki version=0.1.0 author="the Shashki developers"
//!   param name=variant value=russian type=enum values="russian brazilian adiyukh-64 adiyukh-80"
//!   param name=move-numbers value=a1 type=enum values="a1 pdn"
//!   param name=threads value=1 type=int min=1 max=256
//!   param name=tt-size value=22 type=int min=16 max=32
//!   param name=ponder value=false type=bool
//!   param name=book value=true type=bool
//!   param name=move-overhead value=3 type=int min=0 max=5000
//!   param name=egdb-path value=egdb type=string
//!   param name=egdb-pieces value=8 type=int min=0 max=8
//!   param name=eval value=patterns type=enum values="patterns hand"
//!   param name=weights value="" type=string
//!   wait
//! set-param name=variant value=brazilian
//! init
//!   ready
//! ```
//!
//! * `variant`: changing it sets the variant's start position.
//! * `move-numbers` (8x8 Russian and Brazilian): how the squares of moves
//!   are numbered, see below.
//! * `threads`: search threads.
//! * `tt-size`: like Scan, the base-2 logarithm of the number of
//!   transposition-table entries; an entry is 16 bytes, so the table takes
//!   2^(tt-size - 16) MiB: 16 = 1 MiB, 22 = 64 MiB (the default), 32 = 64 GiB.
//!   A size the system refuses is an error and the old table stays.
//! * `ponder`: whether the GUI may ask the engine to ponder (informational).
//! * `move-overhead`: the least the client and the pipes are taken to cost
//!   per move, in milliseconds (see `crate::clock`).
//! * `egdb-path`: the folder of the endgame tables (a folder per variant,
//!   or one variant's folder); empty: none. The default, `egdb` (or
//!   `$SHASHKI_EGDB`), is used when it exists.
//! * `egdb-pieces`: the most pieces of a position probed (0: none).
//! * `eval`: `patterns` (the hand-shaped terms plus the learned pattern
//!   weights) or `hand` (the hand-shaped terms alone); the UCI option
//!   `Eval`.
//! * `weights`: a weights file, text or pattern weights (the UCI option
//!   `Weights`); empty: the built-in weights.
//!
//! Parameters may be set at any time (during a search, `set-param` waits
//! for it); `init` only answers `ready`.
//!
//! ## Positions: `pos`
//!
//! `pos pos=<position> [moves="<move> <move> ..."]`, or `pos start [moves=...]`
//! (no `pos=` also means the start position). The moves are played from
//! the position; the position and every move are checked first, and a
//! refused `pos` leaves no position: `go` answers an error and an empty
//! `done` until a good `pos`, `new-game` or a new variant. Moves given after the game has ended
//! by this engine's rules (a draw rule the GUI does not apply, say) are
//! still accepted: the game history then starts anew from that point.
//!
//! * Russian and Brazilian: Scan's form, the side to move (`W` or `B`) then
//!   one character per square: `w`/`b` a white/black man, `W`/`B` a
//!   white/black king, `e` empty; 33 characters, the squares in PDN order
//!   1 = b8, 2 = d8, ..., 4 = h8, 5 = a7, ..., 29 = a1, ..., 32 = g1 (the
//!   order pydraughts 0.6.x sends). The start position is
//!   `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`. Position text as in the UCI mode
//!   (`W:Wa1,c3:Bb6,Kh8`, numbers there in PDN order) is accepted too.
//! * Adiyukh-64 and Adiyukh-80: position text in the crate's tower notation
//!   (`W:Wa1,c3-2/1:Bb6,e5-3`: `-N/M` is a tower of N own checkers over M
//!   of the other colour, `-N` a pure tower of N), or `startpos`.
//!
//! ## Moves
//!
//! * Russian and Brazilian: numbers as in Hub: a quiet move `from-to`, a
//!   capture `fromxto` followed by every captured square, each once, in any
//!   order (`x` between all numbers, e.g. `10x19x14`). The engine writes the
//!   captured squares in increasing order. The squares are numbered by the
//!   `move-numbers` parameter:
//!   * `a1` (default, what pydraughts 0.6.x sends and reads): rank by rank
//!     from White's side, 1 = a1, 2 = c1, 3 = e1, 4 = g1, 5 = b2, ...,
//!     32 = h8 (White's first moves are 9-13 ... 12-16);
//!   * `pdn`: the same order as the position string, 1 = b8 ... 32 = g1
//!     (White's first moves are 21-17 ... 24-20).
//!
//!   Moves in algebraic notation (`c3-d4`, `c3:e5`) are accepted as well.
//! * Adiyukh: algebraic notation with the whole path, as in the UCI mode:
//!   `c3-d4`, a capture `c3:e5:g3` (the landing square of every jump). On
//!   input, any form the UCI mode reads is accepted (`c3xe5`, the short
//!   `start:final` form when it names one move, `cb4`).
//!
//! ## Searches
//!
//! * `level` sets the limits of the next search: `depth=<plies>`,
//!   `nodes=<n>`, `move-time=<seconds>`, `[moves=<n>] time=<seconds>
//!   [inc=<seconds>]` (the increment is taken as already due for this move,
//!   as in Scan; a negative time counts as zero), or `infinite`. Times are
//!   real numbers. Several limits may be given, on one line or several; the
//!   first one reached ends the search. `infinite` drops the limits given
//!   before it, and a limit given after it ends it. The limits are used by
//!   the next `go` and then forgotten; a `go` without any limit searches
//!   until `stop`.
//! * `go think` (or `go analyze`, which behaves the same) searches and ends
//!   with `done move=<move> [ponder=<move>]`. `go ponder` searches without
//!   limit until `ponder-hit` (from then on the `level` limits apply, timed
//!   from the `ponder-hit`) or `stop` (which answers `done` at once). Like
//!   Scan, the engine may end any search by itself (at its maximum depth).
//!   `go` on a position without a legal move is an error.
//! * Commands are carried out in the order they arrive ([`crate::serve`]):
//!   `ponder-hit`, `stop` and `quit` act on the search they follow (the
//!   running one at once, or the one a waiting `go` starts), `ping` is
//!   answered at once when nothing waits (else in its turn), and the rest
//!   waits for the search's `done`. `stop` and `ponder-hit` without a
//!   running search are ignored.
//! * Each completed iteration sends `info depth=<plies> seldepth=<plies>
//!   score=<men> nodes=<n> time=<seconds> nps=<Mnodes/s> pv="<moves>"`.
//!   `score` is in men with two decimals from the side to move's view
//!   (`0.12`, `-1.05`); as in Scan, a win in `p` plies is
//!   `(10000 - p) / 100` (`99.99` = win next move) and a loss the negative;
//!   in Adiyukh the score is in points of the expected final count
//!   difference. `time` has three decimals and `nps` (as in Scan, millions
//!   of nodes per second) two.
//!
//! ## Other commands
//!
//! `new-game` clears the transposition table and sets the start position;
//! `ping` is answered by `pong`; `quit` stops any search and ends the
//! engine; at the end of the input the waiting commands are carried out, a
//! search with limits runs to its end and an open-ended one is stopped.

use crate::engine::Engine;
use crate::fen::{self, parse_hub_position};
use crate::game::Game;
use crate::input::{escape, quote};
use crate::moves::Move;
use crate::notation::{self, hub::MoveNumbers};
use crate::options::{self, Setting};
use crate::position::Position;
use crate::protocol::hub::{quoted, value_text, Line};
use crate::protocol::{BestMove, HubInfo, Level};
use crate::search::{Info, SearchResult};
use crate::serve::{self, Flow, Kind, Out, Reader, Server};
use std::collections::VecDeque;
use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The parameters `hub` lists, in its order: the server's own
/// `move-numbers` and the engine's options by their Hub names (their row
/// in [`crate::options`]' table says the rest).
const PARAMS: [&str; 11] = [
    "variant",
    "move-numbers",
    "threads",
    "tt-size",
    "ponder",
    "book",
    "move-overhead",
    "egdb-path",
    "egdb-pieces",
    "eval",
    "weights",
];
/// Longest error message sent.
const MAX_MESSAGE: usize = 2_000;

/// The legal moves of a line, from `pos`, stopping at the first that is
/// not legal.
fn line_texts(pos: &Position, moves: &[Move], numbers: MoveNumbers) -> Vec<String> {
    let mut p = *pos;
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if !p.legal_moves().iter().any(|l| l.same_result(m)) {
            break;
        }
        out.push(notation::hub::move_text(&p, m, numbers));
        p.make(m);
    }
    out
}

/// An `info` line for a search report.
fn info_line(pos: &Position, info: &Info, numbers: MoveNumbers) -> String {
    HubInfo::of_search(info, line_texts(pos, &info.pv, numbers)).to_string()
}

/// The `done` line for a search result.
fn done_line(pos: &Position, result: &SearchResult, numbers: MoveNumbers) -> String {
    let moves: Vec<Move> = result.best.into_iter().chain(result.ponder).collect();
    let mut texts = line_texts(pos, &moves, numbers).into_iter();
    let done = BestMove {
        mv: texts.next(),
        ponder: texts.next(),
    };
    done.hub_line().to_string()
}

/// What the front end knows of the running search.
struct Running {
    /// Set by the search thread at its first report (or its result): from
    /// then on it honours a stop request.
    started: Arc<AtomicBool>,
    /// Set by the search thread just before it sends `done`.
    done: Arc<AtomicBool>,
}

/// The Hub front end.
pub struct Hub {
    engine: Engine,
    out: Out,
    numbers: MoveNumbers,
    level: Level,
    search: Option<Running>,
    /// Commands held until the running search ends.
    waiting: VecDeque<String>,
    /// Why there is no position: the last `pos` was refused; `go` answers
    /// with an error and an empty `done` until a good `pos`, `new-game` or
    /// a new variant.
    refused: Option<String>,
}

impl Hub {
    pub fn new(out: Out) -> Hub {
        Hub {
            engine: Engine::new(),
            out,
            numbers: MoveNumbers::A1,
            level: Level::default(),
            search: None,
            waiting: VecDeque::new(),
            refused: None,
        }
    }

    /// Called after the `hub` command was read: answers it, then reads
    /// commands until `quit` or the end of input.
    pub fn run(&mut self, reader: &Reader) {
        self.identify();
        serve::serve(self, reader);
    }

    /// Read commands until `quit` or the end of input, the GUI's first
    /// `hub` among them (`shashki hub`).
    pub fn serve<R: Read + Send + 'static>(&mut self, input: R) {
        serve::serve(self, &Reader::spawn(input));
    }

    /// The one reply to a bad line: user text in it is escaped (see
    /// [`escape`]), and the message always quoted (see [`quoted`]: a quote,
    /// which would end the value, becomes `'`).
    fn error(&self, message: &str) {
        let mut m = escape(message);
        if m.len() > MAX_MESSAGE {
            let mut cut = MAX_MESSAGE;
            while !m.is_char_boundary(cut) {
                cut -= 1;
            }
            m.truncate(cut);
            m.push_str("...");
        }
        self.out.line(&format!("error message={}", quoted(&m)));
    }

    /// Carry out one line.
    fn command(&mut self, text: &str) -> Flow {
        let line = match Line::parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                self.error(&e);
                return Flow::Continue;
            }
        };
        self.settle();
        let result = match line.command.as_str() {
            "ping" => {
                self.out.line("pong");
                Ok(())
            }
            "stop" => {
                self.stop();
                Ok(())
            }
            "ponder-hit" => {
                self.ponder_hit();
                Ok(())
            }
            "quit" => return Flow::Quit,
            "hub" => {
                self.identify();
                Ok(())
            }
            "init" => self.idle().map(|_| self.out.line("ready")),
            "set-param" => self.idle().and_then(|_| self.set_param(&line)),
            "new-game" => self.idle().and_then(|_| {
                self.engine.new_game()?;
                self.refused = None;
                Ok(())
            }),
            "pos" => self.idle().and_then(|_| {
                let result = self.pos(&line);
                self.refused = result.as_ref().err().cloned();
                result
            }),
            "level" => self.idle().and_then(|_| self.level.read(&line)),
            "go" => self.idle().and_then(|_| self.go(&line)),
            other => Err(format!("unknown command '{}'", quote(other))),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        Flow::Continue
    }

    /// Take back a search that has ended.
    fn settle(&mut self) {
        let Some(running) = &self.search else { return };
        if running.done.load(Ordering::SeqCst) {
            self.engine.wait();
            self.search = None;
        } else if !self.engine.searching() {
            // The search thread ended without a result (it failed).
            self.engine.wait();
            self.search = None;
            self.error("the search failed");
            self.out.line("done");
        }
    }

    /// Refuse changes while a search runs (the reading loop holds them
    /// until it ends: this is a guard).
    fn idle(&self) -> Result<(), String> {
        if self.search.is_some() {
            Err(
                "a search is running: only ping, ponder-hit, stop and quit are accepted until done"
                    .into(),
            )
        } else {
            Ok(())
        }
    }

    /// Wait until the running search has reported once. The engine clears
    /// the stop flag before the search thread starts, so a stop cannot be
    /// lost any more; the wait is kept as a cheap guarantee that `done`
    /// follows a `stop` sent right after `go` only once the search ran.
    fn wait_started(&self) {
        if let Some(running) = &self.search {
            while !running.started.load(Ordering::SeqCst) && self.engine.searching() {
                std::thread::sleep(std::time::Duration::from_micros(200));
            }
        }
    }

    fn stop(&mut self) {
        self.wait_started();
        if self.search.take().is_some() {
            self.engine.stop();
        }
    }

    fn ponder_hit(&mut self) {
        self.wait_started();
        if let Some(running) = &self.search {
            if !running.done.load(Ordering::SeqCst) {
                // Not pondering (a `go think` search): nothing to do.
                let _ = self.engine.ponderhit();
            }
        }
    }

    fn identify(&self) {
        let o = self.engine.options();
        let mut id = String::from("id");
        for (k, v) in [
            ("name", "shashki"),
            ("version", env!("CARGO_PKG_VERSION")),
            ("author", "the Shashki developers"),
        ] {
            id.push_str(&format!(" {k}={}", value_text(v)));
        }
        self.out.line(&id);
        for name in PARAMS {
            let line = match options::hub_param(name) {
                Some(p) => p.line(o, value_text),
                None => format!(
                    "param name={name} value={} type=enum values=\"a1 pdn\"",
                    self.numbers.id()
                ),
            };
            self.out.line(&line);
        }
        self.out.line("wait");
    }

    /// `set-param name=<name> value=<value>`
    fn set_param(&mut self, line: &Line) -> Result<(), String> {
        let name = line
            .value("name")?
            .ok_or("set-param: missing name=<parameter>")?;
        let value = line.value("value")?.unwrap_or("");
        let name = name.to_ascii_lowercase();
        if name == "move-numbers" {
            self.numbers = MoveNumbers::parse(value).ok_or_else(|| {
                format!(
                    "set-param move-numbers: '{}' is not a1 or pdn",
                    quote(value)
                )
            })?;
            return Ok(());
        }
        let param = options::hub_param(&name).ok_or_else(|| {
            format!(
                "set-param: unknown parameter '{}' (known: {})",
                quote(&name),
                PARAMS.join(", ")
            )
        })?;
        param.set(value, |setting| {
            let variant = matches!(setting, Setting::Variant(_));
            self.engine.set(setting)?;
            if variant {
                // A new variant starts from its start position.
                self.refused = None;
            }
            Ok(())
        })
    }

    /// `pos [pos=<position> | start] [moves="<moves>"]`
    fn pos(&mut self, line: &Line) -> Result<(), String> {
        let variant = self.engine.options().variant;
        let text = line.value("pos")?;
        let moves = line.value("moves")?.unwrap_or("");
        let start = match text {
            Some(t) if position_after_start(line) => {
                parse_hub_position(variant, t.trim()).map_err(|e| format!("pos: {e}"))?
            }
            _ => Position::start(variant),
        };
        // Play the moves, restarting the history where the game has ended
        // by this engine's rules, then hand the last stretch to the engine.
        let mut game = Game::from_position(start);
        let mut stretch_start = start;
        let mut stretch: Vec<String> = Vec::new();
        for (i, text) in moves.split_whitespace().enumerate() {
            let here = *game.position();
            let mv = notation::hub::parse_move(&here, text, self.numbers)
                .map_err(|e| format!("pos: move {} '{}': {e}", i + 1, quote(text)))?;
            if game.outcome().is_some() {
                game = Game::from_position(here);
                stretch_start = here;
                stretch.clear();
            }
            game.play(&mv)
                .map_err(|e| format!("pos: move {} '{}': {e}", i + 1, quote(text)))?;
            stretch.push(notation::move_text(&here, &mv));
        }
        let refs: Vec<&str> = stretch.iter().map(String::as_str).collect();
        self.engine
            .set_position(Some(&fen::position_text(&stretch_start)), &refs)
            .map_err(|e| format!("pos: {e}"))
    }

    /// `go think | ponder | analyze`
    fn go(&mut self, line: &Line) -> Result<(), String> {
        let ponder = line.has("ponder");
        if !ponder && !line.has("think") && !line.has("analyze") {
            return Err("go: expected 'go think', 'go ponder' or 'go analyze'".into());
        }
        if let Some(why) = &self.refused {
            let why = why.strip_prefix("pos: ").unwrap_or(why);
            self.error(&format!(
                "go: no position: the last 'pos' was refused ({why})"
            ));
            self.out.line("done");
            return Ok(());
        }
        let pos = *self.engine.game().position();
        if pos.legal_moves().is_empty() {
            return Err("go: the side to move has no legal move (the game is over)".into());
        }
        let limits = self.level.limits();
        let numbers = self.numbers;
        let running = Running {
            started: Arc::new(AtomicBool::new(false)),
            done: Arc::new(AtomicBool::new(false)),
        };
        let (started, started_too) = (running.started.clone(), running.started.clone());
        let done = running.done.clone();
        let info_out = self.out.clone();
        let done_out = self.out.clone();
        let note_out = self.out.clone();
        self.engine.go(
            limits,
            ponder,
            &mut |note| note_out.line(&Line::new("info").arg("string", note).to_string()),
            Box::new(move |info| {
                started.store(true, Ordering::SeqCst);
                info_out.line(&info_line(&pos, info, numbers))
            }),
            Box::new(move |game, result| {
                let line = done_line(game.position(), &result, numbers);
                // Set before sending: once the GUI has `done`, the next
                // command finds the search over.
                started_too.store(true, Ordering::SeqCst);
                done.store(true, Ordering::SeqCst);
                done_out.line(&line);
            }),
        )?;
        self.level = Level::default();
        self.search = Some(running);
        Ok(())
    }
}

impl Server for Hub {
    fn kind(line: &str) -> Kind {
        match line.split_whitespace().next() {
            Some("stop" | "ponder-hit" | "quit") => Kind::Now,
            Some("ping" | "hub") | None => Kind::Reply,
            Some("go") => Kind::Search,
            Some(_) => Kind::Wait,
        }
    }

    fn execute(&mut self, line: &str) -> Flow {
        self.command(line)
    }

    fn busy(&mut self) -> bool {
        self.search.is_some() && self.engine.searching()
    }

    fn open_ended(&mut self) -> bool {
        self.engine.open_ended()
    }

    fn stop(&mut self) {
        Hub::stop(self);
        self.engine.stop();
    }

    fn wait(&mut self) {
        self.engine.wait();
    }

    fn error(&mut self, message: &str) {
        Hub::error(self, message);
    }

    fn waiting(&mut self) -> &mut VecDeque<String> {
        &mut self.waiting
    }
}

/// Whether `pos=` is given after any `start` flag (the later one wins).
fn position_after_start(line: &Line) -> bool {
    let last = |name: &str| line.args.iter().rposition(|(n, _)| n == name);
    last("pos") > last("start")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `hub` lists every option with a Hub parameter, once, and the
    /// server's own `move-numbers`.
    #[test]
    fn params_are_the_tables_and_move_numbers() {
        let mut listed: Vec<&str> = PARAMS.to_vec();
        listed.retain(|&p| p != "move-numbers");
        assert_eq!(listed.len(), PARAMS.len() - 1);
        let mut table: Vec<&str> = options::hub_params().map(|p| p.name()).collect();
        listed.sort_unstable();
        table.sort_unstable();
        assert_eq!(listed, table);
    }

    /// Output collected in memory.
    #[derive(Clone, Default)]
    struct Sink(Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn take(&self) -> Vec<String> {
            let bytes = std::mem::take(&mut *self.0.lock().unwrap());
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .map(str::to_string)
                .collect()
        }
    }

    fn session(input: &str) -> Vec<String> {
        let sink = Sink::default();
        let mut hub = Hub::new(Out::new(Box::new(sink.clone())));
        hub.run(&Reader::spawn(std::io::Cursor::new(input.to_string())));
        sink.take()
    }

    #[test]
    fn a_short_session() {
        // Lines sent during a search wait for it; at the end of the input
        // a search with limits runs to its end.
        let out = session(
            "init\nlevel infinite depth=3\npos moves=\"9-13 22-18\"\ngo think\nping\npos\n",
        );
        assert_eq!(
            out[0],
            "id name=shashki version=0.1.0 author=\"the Shashki developers\""
                .replace("0.1.0", env!("CARGO_PKG_VERSION"))
        );
        assert!(out.contains(&"wait".to_string()));
        assert!(out.contains(&"ready".to_string()));
        assert!(out.contains(&"pong".to_string()));
        let done: Vec<&String> = out.iter().filter(|l| l.starts_with("done")).collect();
        assert_eq!(done, ["done move=13x22x18"], "{out:?}");
    }

    #[test]
    fn random_lines_never_panic_and_get_hub_replies() {
        use rand::{Rng, SeedableRng};
        let words = [
            "hub",
            "init",
            "pos",
            "level",
            "go",
            "stop",
            "ping",
            "ponder-hit",
            "new-game",
            "set-param",
            "think",
            "ponder",
            "analyze",
            "start",
            "infinite",
            "pos=",
            "moves=",
            "depth=",
            "nodes=",
            "move-time=",
            "time=",
            "inc=",
            "name=",
            "value=",
            "variant",
            "tt-size",
            "threads",
            "move-numbers",
            "1",
            "0",
            "-1",
            "0.01",
            "9-13",
            "13x22x18",
            "\"",
            "=",
            "x",
            "e",
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "W:Wc3:Bd4",
            "adiyukh-80",
            "brazilian",
            "a1",
            "pdn",
            "\u{0}",
            "é",
            "99999999999999999999",
            "nan",
            "1e3",
            "c3-d4",
            "\"9-13 22-18\"",
        ];
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let mut input = String::new();
        for _ in 0..400 {
            let n = rng.gen_range(1..6);
            let mut line = String::new();
            for i in 0..n {
                if i > 0 && rng.gen_bool(0.8) {
                    line.push(' ');
                }
                line.push_str(words[rng.gen_range(0..words.len())]);
            }
            input.push_str(&line);
            input.push('\n');
            // Keep searches short: every line is followed by a stop.
            input.push_str("stop\n");
        }
        let out = session(&input);
        let known = [
            "id", "param", "wait", "ready", "pong", "info", "done", "error",
        ];
        for line in &out {
            let command = line.split(' ').next().unwrap();
            assert!(known.contains(&command), "{line:?}");
            if command == "error" {
                assert!(line.starts_with("error message=\"") && line.ends_with('"'));
                assert_eq!(line.matches('"').count(), 2, "{line}");
            }
        }
    }
}

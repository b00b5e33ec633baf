//! The UCI-like text protocol over standard input and output (see
//! PROTOCOL.md). The main loop reads commands while a search runs in its
//! own thread; every bad line gets one `info string error: ...` reply and
//! changes nothing.

use crate::engine::{Engine, HASH_MAX_MIB, MULTIPV_MAX, OVERHEAD_MAX_MS, THREADS_MAX};
use crate::input::{self, escape, quote, Range};
use crate::moves::Move;
use crate::notation;
use crate::position::Position;
use crate::search::{Clock, Info, Limits, Score};
use crate::variant::Variant;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// Deepest `perft` the protocol runs (it runs in the reading thread).
pub const MAX_PERFT: u32 = 10;

/// Longest input line read; longer lines are refused whole.
pub const MAX_LINE: usize = 65_536;

/// Where replies go: shared by the reading loop and the search thread, one
/// whole line at a time.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Write one line and flush it. A closed output is ignored: the engine
    /// ends when its input closes.
    pub fn line(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(p) => p.into_inner(),
        };
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// One line of input: `Ok(None)` at the end of input, `Err(n)` for a line
/// of `n` bytes longer than [`MAX_LINE`] (skipped). Invalid UTF-8 is
/// replaced, a trailing `\r` dropped.
pub fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<Result<String, usize>>> {
    let mut bytes = Vec::new();
    let mut total = 0usize;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if total == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        total += chunk.len();
        if bytes.len() < MAX_LINE {
            let room = MAX_LINE - bytes.len();
            bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        }
        let consumed = done.unwrap_or(buf.len());
        input.consume(consumed);
        if done.is_some() {
            total += 1;
            break;
        }
    }
    if total > MAX_LINE + 1 {
        return Ok(Some(Err(total)));
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if text.ends_with('\r') {
        text.pop();
    }
    Ok(Some(Ok(text)))
}

/// The UCI front end.
pub struct Uci {
    engine: Engine,
    out: Out,
}

/// What the loop should do after a command.
#[derive(PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

impl Uci {
    pub fn new(out: Out) -> Uci {
        Uci {
            engine: Engine::new(),
            out,
        }
    }

    /// Read commands until `quit` or the end of input. When the first
    /// command is `hub`, the rest of the session speaks the Hub protocol.
    pub fn run(&mut self, input: &mut dyn BufRead) {
        self.serve(input, true);
    }

    /// Read commands until `quit` or the end of input, all of them in
    /// this protocol (`shashki uci`): `hub` is an unknown command.
    pub fn run_uci(&mut self, input: &mut dyn BufRead) {
        self.serve(input, false);
    }

    fn serve(&mut self, input: &mut dyn BufRead, hub_first: bool) {
        let mut first = hub_first;
        loop {
            match read_line(input) {
                Ok(None) | Err(_) => {
                    // End of input: a search with limits may finish (a
                    // script piping `go depth 12` wants its result); an
                    // open-ended one is stopped.
                    if !self.engine.open_ended() {
                        self.engine.wait();
                    }
                    break;
                }
                Ok(Some(Err(n))) => self.error(&format!(
                    "line of {n} bytes is too long (limit {MAX_LINE}), ignored"
                )),
                Ok(Some(Ok(line))) => {
                    if first && line.trim() == "hub" {
                        crate::hub::Hub::new(self.out.clone()).run(input);
                        return;
                    }
                    if !line.trim().is_empty() {
                        first = false;
                    }
                    if self.command(&line) == Flow::Quit {
                        break;
                    }
                }
            }
        }
        self.stop();
    }

    /// The one reply to a bad line. User text in the message is escaped
    /// (see [`escape`]): it never reaches the GUI's terminal as control
    /// characters.
    fn error(&self, message: &str) {
        self.out
            .line(&format!("info string error: {}", escape(message)));
    }

    fn stop(&mut self) {
        self.engine.stop();
    }

    /// Handle one command line.
    pub fn command(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        let result = match cmd {
            "uci" => {
                self.identify();
                Ok(())
            }
            "isready" => {
                self.out.line("readyok");
                Ok(())
            }
            "setoption" => self.setoption(args),
            "ucinewgame" => self.engine.new_game(),
            "position" => self.position(args),
            "go" => self.go(args),
            "stop" => {
                self.stop();
                Ok(())
            }
            "ponderhit" => self.engine.ponderhit(),
            "quit" => return Flow::Quit,
            "d" => {
                self.show();
                Ok(())
            }
            "perft" => self.perft(args),
            "eval" => {
                self.eval();
                Ok(())
            }
            _ => Err(format!("unknown command '{}'", quote(cmd))),
        };
        if let Err(e) = result {
            self.error(&e);
        }
        Flow::Continue
    }

    fn identify(&self) {
        let o = crate::engine::Options::default();
        self.out
            .line(&format!("id name shashki {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Shashki developers");
        let variants: Vec<String> = Variant::ALL
            .iter()
            .map(|v| format!("var {}", v.id()))
            .collect();
        self.out.line(&format!(
            "option name Variant type combo default {} {}",
            o.variant.id(),
            variants.join(" ")
        ));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {HASH_MAX_MIB}",
            o.hash_mib
        ));
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max {THREADS_MAX}",
            o.threads
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default {} min 1 max {MULTIPV_MAX}",
            o.multipv
        ));
        self.out.line(&format!(
            "option name Ponder type check default {}",
            o.ponder
        ));
        self.out.line(&format!(
            "option name Move Overhead type spin default {} min 0 max {OVERHEAD_MAX_MS}",
            o.move_overhead_ms
        ));
        self.out
            .line("option name Weights type string default <builtin>");
        self.out.line(&format!(
            "option name Eval type combo default {} var patterns var hand",
            o.eval.name()
        ));
        self.out.line(&format!(
            "option name EGDB Path type string default {}",
            if o.egdb_path.is_empty() {
                "<empty>"
            } else {
                &o.egdb_path
            }
        ));
        self.out.line(&format!(
            "option name EGDB Pieces type spin default {} min 0 max {}",
            o.egdb_pieces,
            crate::egdb::index::MAX_PIECES
        ));
        self.out.line("uciok");
    }

    /// `setoption name <name words> [value <value words>]`
    fn setoption(&mut self, args: &[&str]) -> Result<(), String> {
        if args.first() != Some(&"name") {
            return Err("setoption: expected 'setoption name <name> value <value>'".into());
        }
        let rest = &args[1..];
        let (name, value) = match rest.iter().position(|&t| t == "value") {
            Some(i) => (rest[..i].join(" "), rest[i + 1..].join(" ")),
            None => (rest.join(" "), String::new()),
        };
        if name.is_empty() {
            return Err("setoption: missing option name".into());
        }
        self.engine.set_option(&name, &value)
    }

    /// `position startpos [moves ...]` or `position fen <text> [moves ...]`
    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        match setup.split_first() {
            Some((&"startpos", [])) => self.engine.set_position(None, moves),
            Some((&"fen", text)) if !text.is_empty() => {
                self.engine.set_position(Some(&text.join(" ")), moves)
            }
            Some((&"fen", _)) => Err("position fen: missing position text".into()),
            _ => Err(
                "position: expected 'startpos' or 'fen <text>', then optionally 'moves ...'".into(),
            ),
        }
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let pos = *self.engine.game().position();
        let (limits, ponder) = parse_go(&pos, args, self.engine.options().multipv)?;
        let info_out = self.out.clone();
        let done_out = self.out.clone();
        let note_out = self.out.clone();
        self.engine.go(
            limits,
            ponder,
            &mut |note| note_out.line(&format!("info string {note}")),
            Box::new(move |info| info_out.line(&info_line(&pos, info))),
            // The engine holds the result of an infinite or pondering
            // search until `stop` or `ponderhit`.
            Box::new(move |game, result| {
                let pos = game.position();
                let line = match result.best {
                    None => "bestmove (none)".to_string(),
                    Some(m) => {
                        let mut s = format!("bestmove {}", notation::move_text(pos, &m));
                        if let Some(p) = result.ponder {
                            s.push_str(&format!(
                                " ponder {}",
                                notation::move_text(&pos.play(&m), &p)
                            ));
                        }
                        s
                    }
                };
                done_out.line(&line);
            }),
        )
    }

    fn show(&mut self) {
        for l in crate::diagram::report(self.engine.game()).lines() {
            self.out.line(l);
        }
        if let Some(v) = self.engine.table_value() {
            self.out.line(&format!("egdb {v}"));
        }
    }

    fn perft(&mut self, args: &[&str]) -> Result<(), String> {
        let depth = match args {
            [d] => match d.parse::<u32>() {
                Ok(n) if n <= MAX_PERFT => n,
                _ => {
                    let d = quote(d);
                    return Err(format!(
                        "perft: depth must be a number from 0 to {MAX_PERFT}, not '{d}' (deeper: shashki perft)"
                    ));
                }
            },
            _ => return Err("perft: expected 'perft <depth>'".into()),
        };
        if self.engine.searching() {
            return Err("a search is running; send stop first".into());
        }
        let pos = *self.engine.game().position();
        let parts = crate::perft::divide(&pos, depth, false);
        for (m, n) in &parts {
            self.out
                .line(&format!("{} {n}", notation::move_text(&pos, m)));
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        };
        self.out.line(&format!("nodes {total}"));
        Ok(())
    }

    fn eval(&self) {
        let pos = self.engine.game().position();
        for (name, value) in crate::eval::breakdown(pos) {
            self.out.line(&format!("eval {name} {value}"));
        }
    }
}

/// Parse the arguments of `go`. Returns the limits and whether to ponder.
pub fn parse_go(pos: &Position, args: &[&str], multipv: usize) -> Result<(Limits, bool), String> {
    const KEYWORDS: [&str; 11] = [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "movetime",
        "depth",
        "nodes",
        "infinite",
        "ponder",
        "searchmoves",
    ];
    let mut limits = Limits {
        multipv,
        ..Limits::default()
    };
    let mut ponder = false;
    let (mut wtime, mut btime, mut winc, mut binc, mut mtg) = (None, None, 0, 0, None);
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        // One rule for numbers (crate::input): out of range is an error
        // naming the range; only a negative clock time counts as zero (a
        // GUI whose clock flagged).
        let mut number = |range: Range, negative_is_zero: bool| -> Result<u64, String> {
            let v = args
                .get(i + 1)
                .ok_or_else(|| format!("go: '{key}' needs {}", range.describe()))?;
            i += 1;
            let negative =
                v.len() > 1 && v.starts_with('-') && v[1..].bytes().all(|b| b.is_ascii_digit());
            if negative && negative_is_zero {
                return Ok(0);
            }
            range
                .parse(v)
                .map_err(|wanted| format!("go: '{key}' needs {wanted}, not '{}'", quote(v)))
        };
        match key {
            "wtime" => wtime = Some(number(input::TIME_MS, true)?),
            "btime" => btime = Some(number(input::TIME_MS, true)?),
            "winc" => winc = number(input::TIME_MS, false)?,
            "binc" => binc = number(input::TIME_MS, false)?,
            "movestogo" => mtg = Some(number(input::MOVES_TO_GO, false)? as u32),
            "movetime" => limits.movetime_ms = Some(number(input::TIME_MS, false)?),
            "depth" => limits.depth = Some(number(input::DEPTH, false)? as u32),
            "nodes" => limits.nodes = Some(number(input::NODES, false)?),
            "infinite" => limits.infinite = true,
            "ponder" => ponder = true,
            "searchmoves" => {
                let mut j = i + 1;
                while j < args.len() && !KEYWORDS.contains(&args[j]) {
                    let m: Move = notation::parse_move(pos, args[j])
                        .map_err(|e| format!("go searchmoves: {e}"))?;
                    limits.searchmoves.push(m);
                    j += 1;
                }
                if limits.searchmoves.is_empty() {
                    return Err("go: 'searchmoves' needs at least one move".into());
                }
                i = j - 1;
            }
            other => return Err(format!("go: unknown parameter '{}'", quote(other))),
        }
        i += 1;
    }
    let (time, inc) = match pos.side_to_move() {
        crate::Color::White => (wtime, winc),
        crate::Color::Black => (btime, binc),
    };
    if let Some(t) = time {
        limits.clock = Some(Clock {
            time_ms: t,
            inc_ms: inc,
            moves_to_go: mtg,
        });
    }
    if limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime_ms.is_none()
        && limits.clock.is_none()
    {
        limits.infinite = true;
    }
    Ok((limits, ponder))
}

/// An `info` line for a search report.
pub fn info_line(pos: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Win(n) => format!("win {n}"),
        Score::Loss(n) => format!("loss {n}"),
    };
    // A table's win or loss, counted to the conversion (PROTOCOL.md).
    let tb = if info.tb { " tb" } else { "" };
    let pv = notation::line_texts(pos, &info.pv);
    format!(
        "info depth {} seldepth {} multipv {} score {}{} nodes {} nps {} time {} hashfull {} tbhits {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score,
        tb,
        info.nodes,
        info.nps,
        info.time_ms,
        info.hashfull,
        info.tbhits,
        pv.join(" ")
    )
}

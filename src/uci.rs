//! The UCI-like text protocol over standard input and output (see
//! PROTOCOL.md). Commands are read while a search runs in its own thread
//! and carried out in order ([`crate::serve`]: `stop`, `ponderhit` and
//! `quit` at once, the rest when the search is over); every bad line gets
//! one `info string error: ...` reply and changes nothing.

use crate::engine::Engine;
use crate::input::{self, escape, quote, Range};
use crate::moves::Move;
use crate::notation;
use crate::options::{self, Options, Setting};
use crate::position::Position;
use crate::search::{Clock, Info, Limits, Score};
use crate::serve::{self, Flow, Input, Kind, Out, Reader, Server};
use std::collections::VecDeque;
use std::io::Read;

/// Deepest `perft` the protocol runs (it runs in the reading thread).
pub const MAX_PERFT: u32 = 10;

/// The UCI front end.
pub struct Uci {
    engine: Engine,
    out: Out,
    /// Commands held until the running search ends.
    waiting: VecDeque<String>,
    /// Why there is no position: the last `position` was refused. Until a
    /// good one arrives (or `ucinewgame`, or a new `Variant`), `go`, `d`,
    /// `eval` and `perft` answer with an error instead of using the
    /// position before it.
    refused: Option<String>,
}

impl Uci {
    pub fn new(out: Out) -> Uci {
        Uci {
            engine: Engine::new(),
            out,
            waiting: VecDeque::new(),
            refused: None,
        }
    }

    /// Read commands until `quit` or the end of input. When the first
    /// command is `hub`, the rest of the session speaks the Hub protocol.
    pub fn run<R: Read + Send + 'static>(&mut self, input: R) {
        self.serve(input, true);
    }

    /// Read commands until `quit` or the end of input, all of them in
    /// this protocol (`shashki uci`): `hub` is an unknown command.
    pub fn run_uci<R: Read + Send + 'static>(&mut self, input: R) {
        self.serve(input, false);
    }

    fn serve<R: Read + Send + 'static>(&mut self, input: R, hub_first: bool) {
        let reader = Reader::spawn(input);
        // Blank lines before the first command are skipped.
        if hub_first {
            loop {
                match reader.next(None) {
                    Some(Input::Line(line)) if line.trim().is_empty() => {}
                    Some(Input::Line(line)) if line.trim() == "hub" => {
                        crate::hub::Hub::new(self.out.clone()).run(&reader);
                        return;
                    }
                    Some(Input::Line(line)) => {
                        if serve::accept(self, line) == Flow::Quit {
                            self.stop();
                            return;
                        }
                        break;
                    }
                    Some(Input::TooLong(n)) => self.error(&serve::too_long(n)),
                    Some(Input::End) | None => return,
                }
            }
        }
        serve::serve(self, &reader);
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

    /// Take one line as the reading loop does: carried out now, or held
    /// until the running search ends (then carried out in its turn by a
    /// later call, or at once when nothing else comes).
    pub fn command(&mut self, line: &str) -> Flow {
        serve::accept(self, line.to_string())
    }

    /// Carry out one command line.
    fn execute_line(&mut self, line: &str) -> Flow {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return Flow::Continue;
        };
        // After a refused `position` there is no position to use.
        let needs_position = matches!(cmd, "go" | "d" | "eval" | "perft");
        let result = match (&self.refused, cmd) {
            (Some(why), _) if needs_position => {
                let e = format!("{cmd}: no position: the last 'position' was refused ({why})");
                self.error(&e);
                if cmd == "go" {
                    self.out.line("bestmove (none)");
                }
                return Flow::Continue;
            }
            (_, "uci") => {
                self.identify();
                Ok(())
            }
            (_, "isready") => {
                self.out.line("readyok");
                Ok(())
            }
            (_, "setoption") => self.setoption(args),
            (_, "ucinewgame") => self.engine.new_game().map(|()| self.refused = None),
            (_, "position") => self.position(args),
            (_, "go") => self.go(args),
            (_, "stop") => {
                self.stop();
                Ok(())
            }
            (_, "ponderhit") => self.engine.ponderhit(),
            (_, "quit") => return Flow::Quit,
            (_, "d") => {
                self.show();
                Ok(())
            }
            (_, "perft") => self.perft(args),
            (_, "eval") => {
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
        self.out
            .line(&format!("id name shashki {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Shashki developers");
        // The defaults, whatever is set now.
        for line in options::uci_lines(&Options::default()) {
            self.out.line(&line);
        }
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
        options::uci_set(&name, &value, |setting| {
            let variant = matches!(setting, Setting::Variant(_));
            self.engine.set(setting)?;
            if variant {
                // A new variant starts from its start position.
                self.refused = None;
            }
            Ok(())
        })
    }

    /// `position startpos [moves ...]` or `position fen <text> [moves ...]`.
    /// A refused one leaves no position (see [`Uci::refused`]).
    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let result = match setup.split_first() {
            Some((&"startpos", [])) => self.engine.set_position(None, moves),
            Some((&"fen", text)) if !text.is_empty() => {
                self.engine.set_position(Some(&text.join(" ")), moves)
            }
            Some((&"fen", _)) => Err("position fen: missing position text".into()),
            _ => Err(
                "position: expected 'startpos' or 'fen <text>', then optionally 'moves ...'".into(),
            ),
        };
        self.refused = result.as_ref().err().cloned();
        result
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

impl Server for Uci {
    fn kind(line: &str) -> Kind {
        match line.split_whitespace().next() {
            Some("stop" | "ponderhit" | "quit") => Kind::Now,
            Some("isready" | "uci") | None => Kind::Reply,
            Some("go") => Kind::Search,
            Some(_) => Kind::Wait,
        }
    }

    fn execute(&mut self, line: &str) -> Flow {
        self.execute_line(line)
    }

    fn busy(&mut self) -> bool {
        if self.engine.failed() {
            // Every go gets its bestmove, even from a search that failed.
            self.error("the search failed");
            self.out.line("bestmove (none)");
        }
        self.engine.searching()
    }

    fn open_ended(&mut self) -> bool {
        self.engine.open_ended()
    }

    fn stop(&mut self) {
        self.engine.stop();
    }

    fn wait(&mut self) {
        self.engine.wait();
    }

    fn error(&mut self, message: &str) {
        Uci::error(self, message);
    }

    fn waiting(&mut self) -> &mut VecDeque<String> {
        &mut self.waiting
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

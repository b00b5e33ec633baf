//! The UCI-like text protocol over standard input and output (see
//! PROTOCOL.md). Commands are read while a search runs in its own thread
//! and carried out in order ([`crate::serve`]: `stop`, `ponderhit` and
//! `quit` at once, the rest when the search is over); every bad line gets
//! one `info string error: ...` reply and changes nothing.

use crate::engine::Engine;
use crate::input::{escape, quote};
use crate::notation;
use crate::options::{self, Options, Setting};
use crate::protocol::{BestMove, Go, Info, Setup};
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
                    self.out.line(&BestMove::none().uci_line());
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
        let result = Setup::parse_uci(args).and_then(|setup| {
            let moves: Vec<&str> = setup.moves.iter().map(String::as_str).collect();
            self.engine.set_position(setup.position.as_deref(), &moves)
        });
        self.refused = result.as_ref().err().cloned();
        result
    }

    fn go(&mut self, args: &[&str]) -> Result<(), String> {
        let pos = *self.engine.game().position();
        let go = Go::parse(args)?;
        let limits = go.limits(&pos, self.engine.options().multipv)?;
        let info_out = self.out.clone();
        let done_out = self.out.clone();
        let note_out = self.out.clone();
        self.engine.go(
            limits,
            go.ponder,
            &mut |note| note_out.line(&format!("info string {note}")),
            Box::new(move |info| info_out.line(&Info::of_search(&pos, info).to_string())),
            // The engine holds the result of an infinite or pondering
            // search until `stop` or `ponderhit`.
            Box::new(move |game, result| {
                let pos = game.position();
                let best = BestMove {
                    mv: result.best.map(|m| notation::move_text(pos, &m)),
                    ponder: result
                        .best
                        .zip(result.ponder)
                        .map(|(m, p)| notation::move_text(&pos.play(&m), &p)),
                };
                done_out.line(&best.uci_line());
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
            self.out.line(&BestMove::none().uci_line());
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

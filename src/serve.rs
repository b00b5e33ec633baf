//! What the two protocol servers ([`uci`](crate::uci), [`hub`](crate::hub))
//! share: input lines read in a thread of their own, the output, and the
//! rule for commands that arrive while a search runs.
//!
//! The rule (PROTOCOL.md, "Commands during a search"): commands are carried
//! out in the order they arrive, as Stockfish does it, so a script may write
//! all its commands at once and gets every answer, in order. A command that
//! sets up or starts something (`position`, `go`, `setoption`, ...) *waits*
//! while a search runs, until that search's result is out. The commands
//! that act on a search (`stop`, `ponderhit`, `quit`, and Hub's `stop`,
//! `ponder-hit`, `quit`) act on the search they follow: at once on the
//! running one, unless a `go` waits (then they wait behind it, for the
//! search it starts) and the running search will end by itself (an
//! infinite or pondering one is stopped at once: nothing after it could
//! run otherwise). A reply-only command (`isready`, `uci`, Hub's `ping`) is
//! answered at once when nothing waits, and otherwise in its turn, after
//! the commands before it: `readyok` still means that everything sent
//! before `isready` is done.
//!
//! At the end of the input the waiting commands are still carried out: a
//! search with limits runs to its end, an infinite or pondering one (which
//! only a `stop` would end) is stopped. `quit` stops the search it acts
//! on; the commands held before it are still carried out (a search one of
//! them starts is stopped at once), those after it are dropped.

use crate::protocol::MAX_LINE;
use std::collections::VecDeque;
use std::io::{BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often held commands look whether the search has ended.
const POLL: Duration = Duration::from_millis(1);

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

/// The error for a line of `n` bytes, past [`MAX_LINE`].
pub fn too_long(n: usize) -> String {
    format!("line of {n} bytes is too long (limit {MAX_LINE}), ignored")
}

/// What the reading thread hands over.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line of this many bytes, longer than [`MAX_LINE`], skipped.
    TooLong(usize),
    /// The input has ended (or cannot be read any more).
    End,
}

/// Input lines, read by a thread of their own so that the server can wait
/// for a search and still see a `stop`.
pub struct Reader {
    lines: Receiver<Input>,
}

impl Reader {
    /// Start reading `input` in a new thread.
    pub fn spawn<R: Read + Send + 'static>(input: R) -> Reader {
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("input".into())
            .spawn(move || {
                let mut input = std::io::BufReader::new(input);
                loop {
                    let item = match read_line(&mut input) {
                        Ok(Some(Ok(line))) => Input::Line(line),
                        Ok(Some(Err(n))) => Input::TooLong(n),
                        Ok(None) | Err(_) => Input::End,
                    };
                    let end = item == Input::End;
                    if tx.send(item).is_err() || end {
                        return;
                    }
                }
            })
            .expect("cannot start the input thread");
        Reader { lines: rx }
    }

    /// The next input, waiting at most `wait` (`None`: as long as it
    /// takes); `None` when the wait ran out.
    pub fn next(&self, wait: Option<Duration>) -> Option<Input> {
        match wait {
            None => Some(self.lines.recv().unwrap_or(Input::End)),
            Some(d) => match self.lines.recv_timeout(d) {
                Ok(item) => Some(item),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Input::End),
            },
        }
    }
}

/// How a command is treated while a search runs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Acts on a search (`stop`, `quit`): the running one at once, or the
    /// one a waiting `go` starts (see the module docs).
    Now,
    /// Only replies: at once when nothing waits, else in its turn.
    Reply,
    /// Waits until the running search's result is out.
    Wait,
    /// Starts a search (`go`); waits as [`Kind::Wait`].
    Search,
}

/// What the loop should do after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// A protocol server, as the loop drives it.
pub trait Server {
    /// How `line` is treated while a search runs.
    fn kind(line: &str) -> Kind;
    /// Carry out one line.
    fn execute(&mut self, line: &str) -> Flow;
    /// Whether a search runs whose result is not out yet.
    fn busy(&mut self) -> bool;
    /// Whether the running search ends only when told (infinite or
    /// pondering).
    fn open_ended(&mut self) -> bool;
    /// Stop the running search (its result is sent).
    fn stop(&mut self);
    /// Wait until the running search ends by itself.
    fn wait(&mut self);
    /// The one reply to a line that could not be read.
    fn error(&mut self, message: &str);
    /// The commands held until the running search ends.
    fn waiting(&mut self) -> &mut VecDeque<String>;
}

/// Take one input line: carry it out now, or hold it until the running
/// search ends; then carry out whatever held command can run.
pub fn accept<S: Server>(s: &mut S, line: String) -> Flow {
    let now = match S::kind(&line) {
        Kind::Now => {
            let search_waits = s.waiting().iter().any(|l| S::kind(l) == Kind::Search);
            !search_waits || s.open_ended()
        }
        Kind::Reply => s.waiting().is_empty(),
        Kind::Wait | Kind::Search => s.waiting().is_empty() && !s.busy(),
    };
    if now {
        let before = s.waiting().len();
        if s.execute(&line) == Flow::Quit {
            return quit(s, before);
        }
    } else {
        s.waiting().push_back(line);
    }
    run_ready(s)
}

/// Whether the first held command acts on a search (it runs even while
/// the search it follows runs).
fn now_first<S: Server>(s: &mut S) -> bool {
    let first = s.waiting().front().cloned();
    first.is_some_and(|l| S::kind(&l) == Kind::Now)
}

/// Carry out the held commands, in order, as long as no search runs (or
/// the next one acts on the running search). An infinite or pondering
/// search that a held command waits for is acted on by the first `stop`,
/// `ponderhit` or `quit` held anywhere behind it: nothing else could end
/// it, and everything behind it would wait for ever.
pub fn run_ready<S: Server>(s: &mut S) -> Flow {
    while !s.waiting().is_empty() {
        // Where the line to run was in the queue: the held lines before
        // it still run if it is `quit`.
        let (line, before) = if now_first(s) || !s.busy() {
            (s.waiting().pop_front(), 0)
        } else if s.open_ended() {
            let at = s.waiting().iter().position(|l| S::kind(l) == Kind::Now);
            match at {
                Some(i) => (s.waiting().remove(i), i),
                None => break,
            }
        } else {
            break;
        };
        let line = line.expect("a held line");
        if s.execute(&line) == Flow::Quit {
            return quit(s, before);
        }
    }
    Flow::Continue
}

/// `quit` has been carried out with `before` held lines ahead of it: stop
/// the search it acts on, drop the lines held after it, and carry out the
/// ones before it (so a `readyok` or an error they owe is still sent),
/// stopping at once any search one of them starts; then the engine ends.
fn quit<S: Server>(s: &mut S, before: usize) -> Flow {
    s.stop();
    s.waiting().truncate(before);
    while let Some(line) = s.waiting().pop_front() {
        s.execute(&line);
        s.stop();
    }
    Flow::Quit
}

/// The input has ended: carry out every held command, letting searches
/// with limits finish and stopping open-ended ones that nothing held
/// behind them acts on, then settle the last search the same way.
pub fn finish<S: Server>(s: &mut S) {
    loop {
        if run_ready(s) == Flow::Quit {
            return;
        }
        // What is still held waits for the running search (or nothing is
        // held, and this is the last one).
        if s.busy() {
            if s.open_ended() {
                s.stop();
            } else {
                s.wait();
            }
        }
        if s.waiting().is_empty() {
            return;
        }
    }
}

/// Read and carry out commands until `quit` or the end of the input; any
/// search still running then is stopped.
pub fn serve<S: Server>(s: &mut S, reader: &Reader) {
    loop {
        let holding = !s.waiting().is_empty();
        let flow = match reader.next(holding.then_some(POLL)) {
            None => run_ready(s),
            Some(Input::Line(line)) => accept(s, line),
            Some(Input::TooLong(n)) => {
                s.error(&too_long(n));
                Flow::Continue
            }
            Some(Input::End) => {
                finish(s);
                Flow::Quit
            }
        };
        if flow == Flow::Quit {
            break;
        }
    }
    s.stop();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server whose "search" is a count of polls: `go N` runs for N
    /// `busy` checks, `go` runs until stopped.
    #[derive(Default)]
    struct Fake {
        log: Vec<String>,
        left: Option<u32>,
        held: VecDeque<String>,
    }

    impl Server for Fake {
        fn kind(line: &str) -> Kind {
            match line.split_whitespace().next() {
                Some("stop" | "quit") => Kind::Now,
                Some("ping") => Kind::Reply,
                Some("go") => Kind::Search,
                _ => Kind::Wait,
            }
        }
        fn execute(&mut self, line: &str) -> Flow {
            self.log.push(line.to_string());
            let mut words = line.split_whitespace();
            match words.next() {
                Some("quit") => return Flow::Quit,
                Some("stop") => self.stop(),
                Some("go") => {
                    self.left = Some(words.next().map_or(u32::MAX, |n| n.parse().unwrap()));
                }
                _ => {}
            }
            Flow::Continue
        }
        fn busy(&mut self) -> bool {
            match &mut self.left {
                Some(0) => {
                    self.left = None;
                    self.log.push("result".into());
                    false
                }
                Some(n) => {
                    if *n != u32::MAX {
                        *n -= 1;
                    }
                    true
                }
                None => false,
            }
        }
        fn open_ended(&mut self) -> bool {
            self.left == Some(u32::MAX)
        }
        fn stop(&mut self) {
            if self.left.take().is_some() {
                self.log.push("result".into());
            }
        }
        fn wait(&mut self) {
            while self.busy() {}
        }
        fn error(&mut self, message: &str) {
            self.log.push(format!("error {message}"));
        }
        fn waiting(&mut self) -> &mut VecDeque<String> {
            &mut self.held
        }
    }

    fn run(input: &str) -> Vec<String> {
        let mut s = Fake::default();
        serve(
            &mut s,
            &Reader::spawn(std::io::Cursor::new(input.to_string())),
        );
        s.log
    }

    #[test]
    fn commands_wait_for_the_search_and_keep_their_order() {
        assert_eq!(
            run("go 50\npos a\nping\ngo 3\npos b\n"),
            ["go 50", "result", "pos a", "ping", "go 3", "result", "pos b"]
        );
    }

    #[test]
    fn stop_acts_at_once_and_the_end_stops_an_open_search() {
        assert_eq!(
            run("go\npos a\nstop\ngo\n"),
            ["go", "stop", "result", "pos a", "go", "result"]
        );
        // Nothing waits: ping is answered during the search.
        let log = run("go 100000000\nping\nstop\n");
        assert_eq!(log, ["go 100000000", "ping", "stop", "result"]);
    }

    #[test]
    fn quit_stops_the_search_and_ends() {
        assert_eq!(
            run("go\npos a\nquit\npos b\n"),
            ["go", "quit", "result", "pos a"]
        );
    }

    #[test]
    fn the_commands_held_before_quit_still_run() {
        // A search with limits: quit stops it, then what waited runs.
        assert_eq!(
            run("go 100000000\npos a\nping\nquit\npos b\n"),
            ["go 100000000", "quit", "result", "pos a", "ping"]
        );
        // Quit held behind a waiting go, taken for the open-ended search
        // that go starts: the lines between them run, the rest is dropped.
        assert_eq!(
            run("go 30\ngo\npos a\nquit\npos b\n"),
            ["go 30", "result", "go", "quit", "result", "pos a"]
        );
        // A search that a line before quit starts is stopped at once.
        assert_eq!(
            run("go\npos a\ngo 100000000\nping\nquit\n"),
            [
                "go",
                "quit",
                "result",
                "pos a",
                "go 100000000",
                "result",
                "ping"
            ]
        );
    }

    #[test]
    fn stop_behind_a_waiting_go_is_for_the_search_it_starts() {
        // The running search ends by itself: the stop is the second's.
        assert_eq!(
            run("go 30\ngo\nstop\npos a\n"),
            ["go 30", "result", "go", "stop", "result", "pos a"]
        );
        // The running search would never end: the stop is for it.
        assert_eq!(
            run("go\npos a\ngo 3\nstop\n"),
            ["go", "stop", "result", "pos a", "go 3", "result"]
        );
        // A stop held behind a command that waits for an infinite
        // search ends that search.
        assert_eq!(
            run("go 30\ngo\npos a\nstop\n"),
            ["go 30", "result", "go", "stop", "result", "pos a"]
        );
        // At the end of the input too.
        assert_eq!(
            run("go 30\ngo 1000000\nquit\n"),
            ["go 30", "result", "go 1000000", "quit", "result"]
        );
    }

    #[test]
    fn a_long_line_is_one_error_in_place() {
        let input = format!("pos a\n{}\npos b\n", "x".repeat(MAX_LINE + 5));
        let log = run(&input);
        assert_eq!(log[0], "pos a");
        assert!(log[1].starts_with("error line of 65542 bytes"), "{log:?}");
        assert_eq!(log[2], "pos b");
    }
}

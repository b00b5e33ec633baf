//! The engine binary driven over pipes, as a GUI drives it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The engine binary, talking over pipes.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    /// The engine started with these command-line arguments.
    pub fn start_with(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shashki"));
        // Without endgame tables: a folder that does not exist, not the
        // user's default one (see common::no_tables).
        command.args(args).env(
            "SHASHKI_EGDB",
            std::env::temp_dir().join("shashki-tests-no-egdb"),
        );
        Engine::spawn(command)
    }

    /// The engine started by `command` (its arguments, environment and
    /// folder set), its input and output piped.
    pub fn spawn(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush");
    }

    /// Read lines until one starts with `prefix`; return it and the lines before.
    pub fn expect(&mut self, prefix: &str, timeout: Duration) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Ok(l) if l.starts_with(prefix) => return (l, before),
                Ok(l) => before.push(l),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no '{prefix}' within {timeout:?}; got {before:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; got {before:?}")
                }
            }
        }
    }

    /// The engine's process id.
    #[allow(dead_code)] // engine-timing, which shares this file, has no use for it
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The next line within `wait`.
    pub fn recv(&self, wait: Duration) -> Result<String, RecvTimeoutError> {
        self.lines.recv_timeout(wait)
    }

    /// Close the engine's input and wait up to `timeout` for it to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some(status);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Close the engine's input; it must exit within 5 s.
    pub fn close(mut self) -> std::process::ExitStatus {
        self.wait_exit(Duration::from_secs(5))
            .expect("the engine did not exit when its input closed")
    }
}

impl Drop for Engine {
    /// An engine left running by a failed test is killed.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

//! An engine as a child process, for the clients (the match runner's
//! player, blocking; the browser board, on tokio): the command that starts
//! it in a process group of its own, the group killed at the end, and how
//! the process ended, in words.
//!
//! A command line given by a user runs through `sh -c "exec <command>"`, so
//! it may hold arguments and quotes as in a shell; a compound one (`cd dir
//! && engine`) runs under the shell. Either way everything it starts is in
//! the engine's process group, which [`kill_group`] ends.

use std::path::PathBuf;
use std::process::{Command, ExitStatus};

/// What to run.
#[derive(Clone, Debug)]
pub enum Program {
    /// An executable, run without a shell.
    Path(PathBuf),
    /// A command line given by the user, run by `sh -c`.
    Shell(String),
}

impl Program {
    /// The program as the user named it, for messages.
    pub fn describe(&self) -> String {
        match self {
            Program::Path(p) => p.display().to_string(),
            Program::Shell(s) => s.clone(),
        }
    }

    /// The command that starts it, in a process group of its own (the
    /// caller sets its standard streams; tokio's `Command` converts from
    /// it).
    pub fn command(&self) -> Command {
        let mut cmd = match self {
            Program::Path(p) => Command::new(p),
            Program::Shell(s) => {
                let mut c = Command::new("sh");
                c.arg("-c").arg(shell_line(s));
                c
            }
        };
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        cmd
    }
}

/// The `sh -c` line that runs an engine's command line: a plain command
/// replaces the shell (`exec`); a compound one (`cd dir && engine`, a
/// pipeline, a list) runs under it.
pub fn shell_line(command: &str) -> String {
    if is_compound(command) {
        command.to_string()
    } else {
        format!("exec {command}")
    }
}

/// A command line that `exec` cannot take as it is: shell syntax (a list,
/// a pipeline, a redirection, a subshell), or an environment setting in
/// front (`VAR=value engine`, which `exec` would run as a program).
pub fn is_compound(command: &str) -> bool {
    command.contains([';', '&', '|', '<', '>', '(', ')', '\n'])
        || first_word(command).is_some_and(|w| {
            let name = w.split('=').next().unwrap_or("");
            w.contains('=')
                && !name.is_empty()
                && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
        })
}

/// The first word of a command line as the shell reads it (quotes `'...'`
/// and `"..."` and backslashes taken out): the program of a plain command.
pub fn first_word(command: &str) -> Option<String> {
    let mut word = String::new();
    let mut chars = command.trim_start().chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => break,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '\\') | (Some('"'), '\\') => word.extend(chars.next()),
            (_, c) => word.push(c),
        }
    }
    (!word.is_empty()).then_some(word)
}

/// How a process ended, in words: `exit status 3`, `killed by SIGKILL`,
/// `killed by signal 40`.
pub fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGHUP => "SIGHUP",
                libc::SIGINT => "SIGINT",
                libc::SIGQUIT => "SIGQUIT",
                libc::SIGILL => "SIGILL",
                libc::SIGABRT => "SIGABRT",
                libc::SIGBUS => "SIGBUS",
                libc::SIGFPE => "SIGFPE",
                libc::SIGKILL => "SIGKILL",
                libc::SIGSEGV => "SIGSEGV",
                libc::SIGPIPE => "SIGPIPE",
                libc::SIGTERM => "SIGTERM",
                _ => return format!("killed by signal {sig}"),
            };
            return format!("killed by {name}");
        }
    }
    match status.code() {
        Some(c) => format!("exit status {c}"),
        None => "ended".to_string(),
    }
}

/// Kill (SIGKILL) the process group led by `pid`: a child started by
/// [`Program::command`], and everything its command started.
#[cfg(unix)]
pub fn kill_group(pid: u32) {
    if let Ok(pid @ 1..) = i32::try_from(pid) {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the group was made for this engine at its start.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_as_the_shell_reads_them() {
        assert_eq!(
            first_word("  '/a b/engine' --x").as_deref(),
            Some("/a b/engine")
        );
        assert_eq!(first_word(r#""a\"b" c"#).as_deref(), Some("a\"b"));
        assert_eq!(first_word(r"a\ b c").as_deref(), Some("a b"));
        assert_eq!(first_word("   "), None);
        assert_eq!(shell_line("engine --uci"), "exec engine --uci");
        assert_eq!(shell_line("cd / && engine"), "cd / && engine");
        // `exec X=1 engine` would run a program called X=1.
        assert_eq!(shell_line("X=1 engine"), "X=1 engine");
        assert_eq!(shell_line("engine --hash=64"), "exec engine --hash=64");
        assert_eq!(shell_line("'/a=b/engine'"), "exec '/a=b/engine'");
    }

    #[cfg(unix)]
    #[test]
    fn exits_in_words() {
        use std::os::unix::process::ExitStatusExt;
        let status = ExitStatus::from_raw;
        assert_eq!(describe_exit(status(3 << 8)), "exit status 3");
        assert_eq!(describe_exit(status(libc::SIGSEGV)), "killed by SIGSEGV");
        assert_eq!(describe_exit(status(40)), "killed by signal 40");
    }

    #[cfg(unix)]
    #[test]
    fn a_shell_command_runs_in_a_group_of_its_own() {
        let mut child = Program::Shell("sleep 30".into()).command().spawn().unwrap();
        kill_group(child.id());
        let how = describe_exit(child.wait().unwrap());
        assert_eq!(how, "killed by SIGKILL");
    }
}

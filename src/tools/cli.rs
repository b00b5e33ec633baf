//! What the command lines (`shashki`, and the tuner's `shashki-tune`) share:
//! value parsers that read numbers by the one rule of [`crate::input`] (out
//! of range, a negative number included, is an error naming the range), and
//! argument errors in one line.

use crate::input::{escape, Range};
use clap::error::ErrorKind;
use clap::{ArgMatches, Command};
use std::ffi::OsString;

/// A value parser for a whole number in `range`, e.g.
/// `#[arg(long, value_parser = cli::within::<u32>(input::DEPTH))]`. The
/// error names the range: `invalid value '-1' for '--depth <DEPTH>':
/// expected a whole number from 1 to 1000`.
pub fn within<T>(range: Range) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        let wanted = || format!("expected {}", range.describe());
        let n = range.parse(text).map_err(|_| wanted())?;
        T::try_from(n).map_err(|_| wanted())
    }
}

/// A value parser for a whole number from `min` to `max`.
pub fn whole<T>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    within(Range::new(min, max))
}

/// A value parser for a real number that passes `ok`; the error says what
/// is `wanted` (`a number of seconds above 0`).
pub fn real(
    ok: fn(f64) -> bool,
    wanted: &'static str,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text: &str| match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && ok(x) => Ok(x),
        _ => Err(format!("expected {wanted}")),
    }
}

/// The command with every number option ready for a leading `-`: `-1` is
/// read as a value (and refused by its value parser, which names the range)
/// instead of an unknown option.
fn prepared(cmd: Command) -> Command {
    cmd.allow_negative_numbers(true).mut_subcommands(prepared)
}

/// Parse the command line of `C`. `--help` and `--version` print as usual
/// (status 0); any other argument error prints one line, `error: ...`, and a
/// hint where to read more, to standard error and exits with status 2.
pub fn parse<C: clap::Parser>() -> C {
    let args: Vec<OsString> = std::env::args_os().collect();
    match try_parse::<C>(&args) {
        Ok(c) => c,
        Err(e) => {
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                e.exit();
            }
            eprintln!("{}", error_text(&e, &C::command(), &args));
            std::process::exit(2);
        }
    }
}

/// Parse `args` (the program name first) as the command line of `C`.
pub fn try_parse<C: clap::Parser>(args: &[OsString]) -> Result<C, clap::Error> {
    let mut cmd = prepared(C::command());
    let matches: ArgMatches = cmd.try_get_matches_from_mut(args)?;
    C::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

/// The text printed for an argument error: one line naming the problem
/// (user text escaped), then a hint naming the help of the (sub)command
/// that was run.
pub fn error_text(e: &clap::Error, cmd: &Command, args: &[OsString]) -> String {
    let (path, sub) = command_path(cmd, args);
    let message = match e.kind() {
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            let names: Vec<&str> = sub
                .get_subcommands()
                .map(|s| s.get_name())
                .filter(|&n| n != "help")
                .collect();
            format!("'{path}' needs a command: {}", names.join(", "))
        }
        _ => one_line(&e.render().to_string()),
    };
    format!(
        "error: {}\nFor more information, try '{path} --help'.",
        escape(&message)
    )
}

/// Clap's message as one line: its first paragraph, lines joined, and its
/// tips in parentheses; the usage and "for more information" are left out.
fn one_line(rendered: &str) -> String {
    // A paragraph's first line, then its indented items (the arguments
    // missing, say), separated by commas.
    let join = |lines: &[&str]| match lines.split_first() {
        Some((first, [])) => first.to_string(),
        Some((first, items)) => format!("{first} {}", items.join(", ")),
        None => String::new(),
    };
    let mut paragraphs = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in rendered.lines() {
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(join(&current));
                current.clear();
            }
        } else {
            current.push(line.trim());
        }
    }
    if !current.is_empty() {
        paragraphs.push(join(&current));
    }
    let mut message = paragraphs.first().cloned().unwrap_or_default();
    if let Some(rest) = message.strip_prefix("error:") {
        message = rest.trim().to_string();
    }
    let tips: Vec<&str> = paragraphs
        .iter()
        .filter_map(|p| p.strip_prefix("tip:"))
        .map(str::trim)
        .collect();
    if !tips.is_empty() {
        message = format!("{message} ({})", tips.join("; "));
    }
    message
}

/// The (sub)command that `args` run: its path (`shashki search`) and its
/// definition.
fn command_path<'a>(cmd: &'a Command, args: &[OsString]) -> (String, &'a Command) {
    let mut names = vec![cmd.get_name().to_string()];
    let mut here = cmd;
    for a in args.iter().skip(1) {
        let Some(a) = a.to_str() else { continue };
        if let Some(sub) = here.find_subcommand(a) {
            names.push(sub.get_name().to_string());
            here = sub;
        }
    }
    (names.join(" "), here)
}

/// The options of `cmd` and its subcommands that lack a one-line
/// description, and the `--variant` options whose description does not
/// name every variant: empty when all is well (for the binaries' tests).
pub fn undescribed(cmd: &Command) -> Vec<String> {
    let mut found = Vec::new();
    let mut walk = vec![(cmd.get_name().to_string(), cmd)];
    while let Some((path, cmd)) = walk.pop() {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if id == "help" || id == "version" {
                continue;
            }
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            if help.trim().is_empty() || help.contains('\n') {
                found.push(format!("{path} {id}: no one-line description"));
            }
            if id == "variant" {
                for v in crate::Variant::ALL {
                    if !help.contains(v.id()) {
                        found.push(format!("{path} --variant does not name {}", v.id()));
                    }
                }
            }
        }
        for sub in cmd.get_subcommands() {
            walk.push((format!("{path} {}", sub.get_name()), sub));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{Parser, Subcommand};

    #[derive(Parser, Debug)]
    #[command(name = "prog")]
    struct Cli {
        #[command(subcommand)]
        cmd: Cmd,
    }

    #[derive(Subcommand, Debug)]
    enum Cmd {
        /// Run.
        Run {
            /// Depth.
            #[arg(long, value_parser = within::<u32>(crate::input::DEPTH))]
            depth: u32,
            /// Position.
            #[arg(long)]
            fen: Option<String>,
            /// Seconds.
            #[arg(long, default_value_t = 1.0, value_parser = real(|x| x > 0.0, "a number above 0"))]
            secs: f64,
        },
        /// Other.
        Other,
    }

    /// The error text of a command line that must be refused.
    fn error(args: &[&str]) -> String {
        let args: Vec<OsString> = std::iter::once("prog")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        match try_parse::<Cli>(&args) {
            Ok(c) => panic!("{args:?} accepted: {c:?}"),
            Err(e) => error_text(&e, &<Cli as clap::CommandFactory>::command(), &args),
        }
    }

    #[test]
    fn errors_are_one_line_and_a_hint() {
        let run_hint = "For more information, try 'prog run --help'.";
        let cases: &[(&[&str], &str, &str)] = &[
            (
                &["run", "--depth", "-1"],
                "error: invalid value '-1' for '--depth <DEPTH>': expected a whole number from 1 to 1000",
                run_hint,
            ),
            (
                &["run", "--depth", "1001"],
                "error: invalid value '1001' for '--depth <DEPTH>': expected a whole number from 1 to 1000",
                run_hint,
            ),
            (
                &["run"],
                "error: the following required arguments were not provided: --depth <DEPTH>",
                run_hint,
            ),
            (
                &["run", "--depth", "3", "--fem", "x"],
                "error: unexpected argument '--fem' found (a similar argument exists: '--fen')",
                run_hint,
            ),
            (
                &["run", "--depth", "3", "--secs", "-2"],
                "error: invalid value '-2' for '--secs <SECS>': expected a number above 0",
                run_hint,
            ),
            (
                &["run", "--depth", "3", "--fen", "\u{1b}[2J", "--fen", "y"],
                "error: the argument '--fen <FEN>' cannot be used multiple times",
                run_hint,
            ),
            (
                &["walk"],
                "error: unrecognized subcommand 'walk'",
                "For more information, try 'prog --help'.",
            ),
            (
                &[],
                "error: 'prog' needs a command: run, other",
                "For more information, try 'prog --help'.",
            ),
        ];
        for (args, first, second) in cases {
            let text = error(args);
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines, [*first, *second], "{args:?}");
        }
        // No control character reaches the terminal (clap itself drops
        // them from the values it echoes).
        let text = error(&["run", "--depth", "x\u{7}\u{1b}[2Jy"]);
        assert!(text.contains("'xy'"), "{text}");
        assert!(
            !text.replace('\n', " ").contains(char::is_control),
            "{text}"
        );
    }

    #[test]
    fn options_without_a_description_are_found() {
        #[derive(Parser)]
        #[command(name = "p")]
        struct P {
            #[arg(long)]
            quiet: bool,
            /// Variant: russian, brazilian or adiyukh-64.
            #[arg(long)]
            variant: Option<String>,
        }
        let found = undescribed(&<P as clap::CommandFactory>::command());
        assert_eq!(
            found,
            [
                "p quiet: no one-line description",
                "p --variant does not name adiyukh-80"
            ]
        );
        assert!(undescribed(&<Cli as clap::CommandFactory>::command()).is_empty());
    }

    #[test]
    fn numbers_inside_the_range_are_read() {
        let args: Vec<OsString> = ["prog", "run", "--depth", "1000", "--secs", "0.5"]
            .iter()
            .map(OsString::from)
            .collect();
        match try_parse::<Cli>(&args).unwrap().cmd {
            Cmd::Run { depth, secs, .. } => assert_eq!((depth, secs), (1000, 0.5)),
            Cmd::Other => panic!("run expected"),
        }
    }
}

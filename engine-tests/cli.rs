//! The `shashki` command line through the built binary: bad input gives
//! one line on standard error and status 2, never a panic.

use std::process::Command;

/// Run `shashki` with `args`: (exit status, standard output, standard error).
pub fn shashki(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .args(args)
        .output()
        .expect("run shashki");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `args` must fail with status 2 and one line on standard error that
/// starts with `error: ` and contains every one of `needles` (an argument
/// error of the parser may add a second line, a hint where to read more).
#[track_caller]
fn refused(args: &[&str], needles: &[&str]) -> String {
    let (code, out, err) = shashki(args);
    assert_eq!(code, 2, "{args:?}: status {code}, stderr {err:?}");
    assert!(out.is_empty(), "{args:?}: stdout {out:?}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.len() == 1
            || (lines.len() == 2 && lines[1].starts_with("For more information, try 'shashki")),
        "{args:?}: {err:?}"
    );
    assert!(lines[0].starts_with("error: "), "{args:?}: {err:?}");
    for n in needles {
        assert!(lines[0].contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
    lines[0].to_string()
}

/// User text echoed in an error is escaped: no control byte reaches the
/// terminal.
#[test]
fn control_bytes_in_arguments_come_back_escaped() {
    for args in [
        &["show", "--fen", "W:W\u{1b}[2Jc3:B"][..],
        &["search", "--moves", "c3-d4\u{7}", "--depth", "1"],
    ] {
        let err = refused(args, &["\\u{"]);
        assert!(!err.chars().any(char::is_control), "{args:?}: {err:?}");
    }
}

/// Every argument error of the parser is one line naming the problem (and
/// at most a hint), status 2; help and version print as usual, status 0.
#[test]
fn argument_errors_are_one_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["serch"], &["unrecognized subcommand 'serch'", "'search'"]),
        (&["--bogus"], &["unexpected argument '--bogus'"]),
        (&["perft"], &["required", "--depth"]),
        (&["perft", "--variant", "russian"], &["required", "--depth"]),
        (&["search", "--fem", "x"], &["'--fem'", "'--fen'"]),
        (
            &["search", "--depth"],
            &["a value is required for '--depth"],
        ),
        (&["show", "--variant", "chess"], &["'chess'", "adiyukh-80"]),
        (&["search", "--threads", "x"], &["'x'", "--threads"]),
        (
            &["match", "--proto1", "xboard"],
            &["'xboard'", "uci or hub"],
        ),
        (&["analyse"], &["required", "<FILE>"]),
        (
            &["show", "--fen", "a", "--fen", "b"],
            &["--fen", "multiple times"],
        ),
    ];
    for (args, needles) in cases {
        refused(args, needles);
    }
    for args in [
        &["--help"][..],
        &["--version"],
        &["search", "--help"],
        &["help", "match"],
    ] {
        let (code, out, err) = shashki(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.lines().count() >= 1 && err.is_empty(),
            "{args:?}: {out:?} {err:?}"
        );
    }
}

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
/// starts with `error: ` and contains every one of `needles`.
#[track_caller]
fn refused(args: &[&str], needles: &[&str]) -> String {
    let (code, out, err) = shashki(args);
    assert_eq!(code, 2, "{args:?}: status {code}, stderr {err:?}");
    assert!(out.is_empty(), "{args:?}: stdout {out:?}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: {err:?}");
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

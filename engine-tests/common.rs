//! Helpers shared by the test modules: reading the rule book and the test
//! data the repository carries, and small shorthands for building
//! positions and reading squares.

use shashki::{fen, notation, Position, Variant};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

/// The folder the engines that tests start take for their endgame tables
/// (`SHASHKI_EGDB`): one that does not exist, so that tables a user built
/// in the default folder never change what a test sees. Tests of the
/// tables name their own.
pub fn no_tables() -> PathBuf {
    std::env::temp_dir().join("shashki-tests-no-egdb")
}

/// `shashki` of this build, to be run with arguments: without endgame
/// tables (see [`no_tables`]).
pub fn shashki_command() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shashki"));
    c.env("SHASHKI_EGDB", no_tables());
    c
}

/// Read a file of the repository (the rule book `docs/rules/`, the test
/// data `engine-tests/testdata/`), by its path from the repository's top.
pub fn read_repo(relative: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()))
}

/// Parse position text that the test knows to be valid.
pub fn position(variant: Variant, text: &str) -> Position {
    fen::parse_position(variant, text)
        .unwrap_or_else(|e| panic!("{variant}: position text {text:?} refused: {e}"))
}

/// The legal moves as printed by `notation::move_text`, as a set; also checks
/// that no move is printed twice (only distinct moves are listed).
pub fn legal_set(pos: &Position) -> BTreeSet<String> {
    let texts = notation::legal_move_texts(pos);
    let set: BTreeSet<String> = texts.iter().cloned().collect();
    assert_eq!(
        set.len(),
        texts.len(),
        "a move text is printed twice in {pos}: {texts:?}"
    );
    set
}

/// The interpreter to run pydraughts with: `$SHASHKI_PYTHON`, else the
/// project's `.venv`, if it can import pydraughts.
pub fn python_with_pydraughts() -> Result<PathBuf, String> {
    let python = match std::env::var_os("SHASHKI_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => {
            let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
            if !venv.exists() {
                return Err(format!(
                    "{} does not exist and SHASHKI_PYTHON is not set",
                    venv.display()
                ));
            }
            venv
        }
    };
    let check = Command::new(&python)
        .args(["-c", "import draughts.engine"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !check.status.success() {
        return Err(format!(
            "{} cannot import pydraughts: {}",
            python.display(),
            String::from_utf8_lossy(&check.stderr)
                .trim()
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    Ok(python)
}

/// The pydraughts interpreter, or `None` after printing a SKIPPED line for
/// `test` when there is none. With `SHASHKI_REQUIRE_PYDRAUGHTS=1` a missing
/// pydraughts fails the test instead.
pub fn pydraughts_or_skip(test: &str) -> Option<PathBuf> {
    match python_with_pydraughts() {
        Ok(p) => Some(p),
        Err(why) => {
            let setup = "python3 -m venv .venv && .venv/bin/pip install pydraughts==0.6.7";
            if std::env::var("SHASHKI_REQUIRE_PYDRAUGHTS").as_deref() == Ok("1") {
                panic!("SHASHKI_REQUIRE_PYDRAUGHTS=1 but no Python with pydraughts: {why} (set up with: {setup})");
            }
            // Straight to stderr: the test harness would hide eprintln!.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: no Python with pydraughts ({why}); \
                 set up with: {setup}, or set SHASHKI_PYTHON"
            );
            None
        }
    }
}

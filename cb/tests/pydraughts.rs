//! pydraughts 0.6.7's CheckerBoardEngine, a client nobody here wrote,
//! loads the library built for this test and plays whole games against it
//! (`pydraughts_cb_games.py`; its docstring says what it checks).
//!
//! The library is the one cargo built for this test run: the package's
//! cdylib, next to this test binary in `target/<profile>/deps`. Python
//! with pydraughts comes from `$SHASHKI_PYTHON` or the workspace's `.venv`
//! (`.ci/run` makes it); without it the test is skipped, or fails when
//! `SHASHKI_REQUIRE_PYDRAUGHTS=1`.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

/// The library cargo built with this test: `libshashki_cb.so` (Linux),
/// `shashki_cb.dll` (Windows), `libshashki_cb.dylib` (macOS).
fn library() -> PathBuf {
    let file = format!(
        "{}shashki_cb{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe.parent().expect("the test binary's folder");
    let candidates = [deps.join(&file), deps.join("..").join(&file)];
    candidates
        .iter()
        .find(|p| p.is_file())
        .cloned()
        .unwrap_or_else(|| panic!("the library was not built: none of {candidates:?} exists"))
}

/// Python with pydraughts, or `None` after saying why the test is skipped.
fn python() -> Option<PathBuf> {
    let setup = "python3 -m venv .venv && .venv/bin/pip install pydraughts==0.6.7";
    let python = match std::env::var_os("SHASHKI_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python"),
    };
    let works = Command::new(&python)
        .args(["-c", "import draughts.engine"])
        .output()
        .is_ok_and(|o| o.status.success());
    if works {
        return Some(python);
    }
    let why = format!("{} cannot import pydraughts", python.display());
    if std::env::var("SHASHKI_REQUIRE_PYDRAUGHTS").as_deref() == Ok("1") {
        panic!("SHASHKI_REQUIRE_PYDRAUGHTS=1 but {why} (set up with: {setup})");
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED pydraughts_checkerboard_engine_plays_whole_games: {why}; set up with: {setup}, or set SHASHKI_PYTHON"
    );
    None
}

#[test]
fn pydraughts_checkerboard_engine_plays_whole_games() {
    let Some(python) = python() else {
        return;
    };
    let lib = library();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts_cb_games.py");
    let started = Instant::now();
    let out = Command::new(&python)
        .env(
            "SHASHKI_EGDB",
            std::env::temp_dir().join("shashki-tests-no-egdb"),
        )
        .arg(&script)
        .arg(&lib)
        .output()
        .expect("run the pydraughts script");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let summary: Vec<&str> = stdout.lines().rev().take(2).collect();
    // The games and the summary, visible in the test log.
    let _ = writeln!(
        std::io::stderr(),
        "{stdout}{stderr}pydraughts_checkerboard_engine_plays_whole_games: {} | {} ({:.1}s)",
        summary.get(1).unwrap_or(&""),
        summary.first().unwrap_or(&""),
        started.elapsed().as_secs_f64()
    );
    assert!(
        out.status.success(),
        "pydraughts CheckerBoard games failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("pydraughts CheckerBoard interop OK"),
        "unexpected output:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.lines().filter(|l| l.starts_with("game ")).count() == 6,
        "{stdout}"
    );
}

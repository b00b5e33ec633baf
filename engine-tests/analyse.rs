//! `shashki analyse` end to end: a PDN file with a good game, a game with a
//! blunder and a malformed game; JSON lines and annotated PDN out.

use shashki::{pdn, Variant};
use std::process::Command;

const FILE: &str = r#"[Event "quiet"]
[White "a"]
[Black "b"]
[Result "*"]

1. c3-d4 f6-g5 2. b2-c3 *

[Event "blunder"]
[FEN "W:Wc3,h2:Be5,a7"]
[GameType "25"]
[Result "*"]

1. c3-d4 e5xc3 *

[Event "broken"]
[White "x"]
[Black "y"]

1. c3-d4 c3-d4 *
"#;

fn analyse(args: &[&str]) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("shashki-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A file per run: the tests run at once, and one writing the file
    // while another's engine reads it made that one fail now and then.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = dir.join(format!("in-{run}.pdn"));
    std::fs::write(&file, FILE).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .arg("analyse")
        .arg(&file)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn json_lines_cover_every_position_and_mark_the_blunder() {
    let (ok, stdout, stderr) = analyse(&["--depth", "8", "--json", "--multipv", "2"]);
    assert!(ok, "{stderr}");
    // The malformed game is named on stderr; the others are analysed.
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(
        errors[0].contains("game 3") && errors[0].contains("c3-d4"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    // 3 + 1 positions of game 1, 2 + 1 of game 2.
    assert_eq!(lines.len(), 7, "{stdout}");
    assert!(lines.iter().all(|l| l.starts_with('{') && l.ends_with('}')));
    let blunder = lines
        .iter()
        .find(|l| l.contains("\"game\":2,\"ply\":0,"))
        .unwrap();
    assert!(blunder.contains("\"played\":\"c3-d4\""), "{blunder}");
    assert!(
        blunder.contains("\"glyph\":\"?\"") || blunder.contains("\"glyph\":\"??\""),
        "{blunder}"
    );
    assert!(!blunder.contains("\"best\":\"c3-d4\""), "{blunder}");
    // Two lines asked, two given where there is a choice.
    assert_eq!(blunder.matches("\"pv\":").count(), 2, "{blunder}");
    let forced = lines
        .iter()
        .find(|l| l.contains("\"game\":2,\"ply\":1,"))
        .unwrap();
    assert!(
        forced.contains("\"loss\":0") && forced.contains("\"glyph\":null"),
        "{forced}"
    );
}

#[test]
fn annotated_pdn_reads_back_with_glyphs_and_comments() {
    let (ok, stdout, stderr) = analyse(&["--depth", "6"]);
    assert!(ok, "{stderr}");
    let games: Vec<_> = pdn::read_games(&stdout, Variant::Russian)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}\n{stdout}")))
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("quiet"));
    assert!(games[0].comments.iter().all(|c| c.is_some()), "{stdout}");
    let g = &games[1];
    assert!(
        matches!(g.glyphs[0].as_deref(), Some("?") | Some("??")),
        "{stdout}"
    );
    assert!(
        g.comments[0].as_deref().unwrap().contains("best"),
        "{stdout}"
    );
}

#[test]
fn bad_analyse_arguments_are_errors() {
    let (ok, _, stderr) = analyse(&["--multipv", "0"]);
    assert!(!ok && stderr.contains("--multipv"), "{stderr}");
    let (ok, _, stderr) = analyse(&["--inaccuracy", "500"]);
    assert!(!ok && stderr.contains("thresholds"), "{stderr}");
    let out = Command::new(env!("CARGO_BIN_EXE_shashki"))
        .args(["analyse", "/nonexistent/x.pdn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read '/nonexistent/x.pdn'"));
}

/// `shashki analyse` reads a Windows-1251 file (the sample of
/// `engine-tests/data/`) with the Cyrillic names right, without being told
/// its encoding; `--encoding` names another, and a bad name is a one-line
/// error naming the accepted ones.
#[test]
fn analyse_reads_windows_1251_and_named_encodings() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/data/cp1251-russian.pdn");
    let run = |file: &std::path::Path, extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_shashki"))
            .arg("analyse")
            .arg(file)
            .args(["--depth", "2"])
            .args(extra)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).expect("UTF-8 out"),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, stdout, stderr) = run(&sample, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    for tag in [
        "[White \"Иванов, Пётр\"]",
        "[Black \"Щербаков, Юрий\"]",
        "[Site \"Москва, клуб № 1\"]",
        "[White \"Ґонта, Євген\"]",
        "[Black \"Їжак, Іван\"]",
    ] {
        assert!(stdout.contains(tag), "{tag} in\n{stdout}");
    }
    let games = pdn::read_games(&stdout, Variant::Russian);
    assert_eq!(games.len(), 2);
    let (code, stdout2, _) = run(&sample, &["--encoding", "cp1251"]);
    assert_eq!((code, &stdout2), (Some(0), &stdout));

    // Told it is UTF-8, the file is refused in one line naming the problem.
    let (code, _, stderr) = run(&sample, &["--encoding", "utf-8"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("not valid UTF-8 (line 1"), "{stderr}");

    let (code, _, stderr) = run(&sample, &["--encoding", "koi8-r"]);
    assert_eq!(code, Some(2));
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--encoding: unknown encoding 'koi8-r'")
            && stderr.contains("utf-8")
            && stderr.contains("windows-1251")
            && stderr.contains("iso-8859-1"),
        "{stderr}"
    );

    // Latin-1, named: "Müller" (ü = 0xFC); unnamed, the same byte would be
    // Windows-1251's ь.
    let dir = std::env::temp_dir().join(format!("shashki-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("latin1.pdn");
    std::fs::write(
        &file,
        b"[White \"M\xFCller\"]\n[Black \"Ren\xE9\"]\n\n1. c3-d4 f6-g5 *\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(&file, &["--encoding", "latin1"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("[White \"Müller\"]") && stdout.contains("[Black \"René\"]"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&file, &[]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("[White \"Mьller\"]"), "{stdout}");
}

//! `shashki analyse` end to end: a PDN file with a good game, a game with a
//! blunder and a malformed game; JSON lines and annotated PDN out.

use shashki::{pdn, Variant};

const FILE: &str = r#"[Event "quiet"]
[White "a"]
[Black "b"]
[Date "2024.05.06"]
[Result "*"]

1. c3-d4 f6-g5 2. b2-c3 1-1

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
    let out = crate::common::shashki_command()
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
    let all: Vec<&str> = stdout.lines().collect();
    assert!(all.iter().all(|l| l.starts_with('{') && l.ends_with('}')));
    // Each game's line (its headers and moves) comes before its positions.
    let games: Vec<usize> = (0..all.len())
        .filter(|&i| all[i].starts_with("{\"type\":\"game\","))
        .collect();
    assert_eq!(games, [0, 5], "{stdout}");
    assert!(
        all[0].starts_with(
            "{\"type\":\"game\",\"game\":1,\"headers\":{\"Event\":\"quiet\",\"White\":\"a\",\
             \"Black\":\"b\",\"Date\":\"2024.05.06\",\"Result\":\"1-1\"},\"variant\":\"russian\","
        ) && all[0].ends_with(",\"moves\":[\"c3-d4\",\"f6-g5\",\"b2-c3\"]}"),
        "{}",
        all[0]
    );
    assert!(
        all[5].starts_with(
            "{\"type\":\"game\",\"game\":2,\"headers\":{\"Event\":\"blunder\",\
             \"FEN\":\"W:Wc3,h2:Be5,a7\",\"GameType\":\"25\",\"Result\":\"*\"},"
        ) && all[5].ends_with(",\"moves\":[\"c3-d4\",\"e5:c3\"]}"),
        "{}",
        all[5]
    );
    let lines: Vec<&str> = all
        .iter()
        .copied()
        .filter(|l| l.starts_with("{\"type\":\"position\","))
        .collect();
    // 3 + 1 positions of game 1, 2 + 1 of game 2.
    assert_eq!(lines.len(), 7, "{stdout}");
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
    let out = crate::common::shashki_command()
        .args(["analyse", "/nonexistent/x.pdn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read '/nonexistent/x.pdn'"));
}

/// A file that is not PDN is one error line naming it, with nothing
/// written (an `--out` file is left as it was): a binary (this program:
/// it printed 35 KB of "bad tag" errors for its garbled "games"), UTF-16
/// text, an empty file, text with no tag pair or legal move (a program's
/// source). A PDN file whose only game is malformed still names the game.
#[test]
fn a_file_that_is_not_pdn_is_one_line() {
    let dir = std::env::temp_dir().join(format!("shashki-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let f = dir.join(name);
        std::fs::write(&f, bytes).unwrap();
        f
    };
    let binary = std::path::PathBuf::from(env!("CARGO_BIN_EXE_shashki"));
    let utf16: Vec<u8> = "\u{feff}[Event \"x\"]\n\n1. c3-d4 *\n"
        .encode_utf16()
        .flat_map(|u| u.to_le_bytes())
        .collect();
    let out = write("out.pdn", b"kept\n");
    let cases = [
        (binary, "is not a PDN file: it holds binary data (a NUL byte at byte "),
        (write("utf16.pdn", &utf16), "is UTF-16 text, which is not read: save it as UTF-8"),
        (write("empty.pdn", b" \n\n"), "is not a PDN file: it is empty"),
        (
            write(
                "source.rs",
                b"//! A program.\n#[derive(Debug)]\nstruct A;\n[dependencies]\nfn main() { let x = [1, 2]; }\n",
            ),
            "is not a PDN file: not one tag pair [Name \"value\"] or legal move in it",
        ),
    ];
    for (file, want) in cases {
        let run = crate::common::shashki_command()
            .arg("analyse")
            .arg(&file)
            .args(["--depth", "1", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{}: {stderr}", file.display());
        let line = stderr.trim_end();
        assert_eq!(stderr.lines().count(), 1, "{}: {stderr}", file.display());
        let rest = line
            .strip_prefix(&format!("error: '{}' {want}", file.display()))
            .unwrap_or_else(|| panic!("{}: {stderr}", file.display()));
        // The binary's line ends with the offset of its first NUL.
        let offset = rest.strip_suffix(')').unwrap_or(rest);
        assert!(
            rest.is_empty() || (rest.ends_with(')') && offset.parse::<u64>().is_ok()),
            "{stderr}"
        );
        assert!(run.stdout.is_empty());
        assert_eq!(std::fs::read(&out).unwrap(), b"kept\n", "--out untouched");
    }
    // PDN with one malformed game: the game's own error, then the summary.
    let broken = write("broken.pdn", b"[Event \"e\"]\n\n1. c3-d4 c3-d4 *\n");
    let run = crate::common::shashki_command()
        .arg("analyse")
        .arg(&broken)
        .args(["--depth", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].starts_with("error: game 1 (e), line 3: ply 2"),
        "{stderr}"
    );
    assert!(lines[1].contains("could be read (1 malformed)"), "{stderr}");
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
        let out = crate::common::shashki_command()
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

//! PDN: write/read round trips of random games in every variant, the seed's
//! Adiyukh example game, malformed games among good ones, files written by
//! pydraughts and in lidraughts' export format, our files read by pydraughts,
//! and random input that must never panic.

use crate::common::{position, pydraughts_or_skip, read_repo};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shashki::game::Game;
use shashki::pdn::{self, GameRecord};
use shashki::{fen, Color, Position, Variant};
use std::path::PathBuf;
use std::process::Command;

/// A random game of up to `max_plies` plies from `start`, with random
/// comments and glyphs, and tags that need escaping.
fn random_record(rng: &mut StdRng, start: Position, max_plies: usize) -> GameRecord {
    let mut game = Game::from_position(start);
    for _ in 0..max_plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play(&mv).unwrap();
    }
    let n = game.moves().len();
    let mut rec = GameRecord::new(game);
    rec.set_tag("Event", "Round \"trip\" \\ test");
    rec.set_tag("White", "Ann");
    rec.set_tag("Black", "Bob");
    rec.set_tag("Date", "2024.06.05");
    const GLYPHS: [&str; 8] = ["!", "?", "!!", "??", "!?", "?!", "$1", "$14"];
    for i in 0..n {
        if rng.gen_bool(0.15) {
            rec.comments[i] = Some(format!("note {i}: a (small) [comment]; 100%"));
        }
        if rng.gen_bool(0.1) {
            rec.glyphs[i] = Some(GLYPHS[rng.gen_range(0..GLYPHS.len())].to_string());
        }
    }
    if rng.gen_bool(0.5) {
        rec.intro = Some("game comment".into());
    }
    rec.result = pdn::result_token(rec.game.outcome().as_ref());
    rec
}

/// A position a few random plies into a game, so the FEN tag and (half the
/// time) Black to move come into play.
fn random_start(rng: &mut StdRng, variant: Variant) -> Position {
    let mut pos = Position::start(variant);
    for _ in 0..rng.gen_range(1..8) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play(&moves[rng.gen_range(0..moves.len())]);
    }
    pos
}

fn assert_same(a: &GameRecord, b: &GameRecord, what: &str) {
    assert_eq!(a.game.start(), b.game.start(), "{what}: start");
    assert_eq!(a.game.moves(), b.game.moves(), "{what}: moves");
    assert_eq!(
        a.game.position(),
        b.game.position(),
        "{what}: final position"
    );
    assert_eq!(a.comments, b.comments, "{what}: comments");
    assert_eq!(a.glyphs, b.glyphs, "{what}: glyphs");
    assert_eq!(a.intro, b.intro, "{what}: intro");
    assert_eq!(a.result, b.result, "{what}: result");
    for (name, value) in &a.tags {
        assert_eq!(b.tag(name), Some(value.as_str()), "{what}: tag {name}");
    }
}

#[test]
fn random_games_round_trip_in_every_variant() {
    let mut rng = StdRng::seed_from_u64(0x5044_4E21);
    for variant in Variant::ALL {
        let mut file = String::new();
        let mut written = Vec::new();
        for i in 0..24 {
            let start = if i % 3 == 0 {
                random_start(&mut rng, variant)
            } else {
                Position::start(variant)
            };
            let rec = random_record(&mut rng, start, if i % 4 == 0 { 400 } else { 60 });
            file.push_str(&pdn::write_game(&rec));
            written.push(rec);
        }
        // One file holding all the games; the reader's default variant is
        // deliberately wrong, the tags must decide.
        let wrong = if variant == Variant::Russian {
            Variant::Adiyukh80
        } else {
            Variant::Russian
        };
        let read = pdn::read_games(&file, wrong);
        assert_eq!(read.len(), written.len(), "{variant}: game count");
        for (i, (w, r)) in written.iter().zip(&read).enumerate() {
            let what = format!("{variant} game {}", i + 1);
            let r = r
                .as_ref()
                .unwrap_or_else(|e| panic!("{what} does not read back: {e}\n{file}"));
            assert_same(w, r, &what);
            assert_eq!(r.game.variant(), variant, "{what}: variant");
            // Writing what was read gives the same text.
            assert_eq!(pdn::write_game(r), pdn::write_game(w), "{what}: rewrite");
            let fen_tag = r.tag("FEN");
            assert_eq!(
                fen_tag.is_some(),
                *w.game.start() != Position::start(variant),
                "{what}: FEN tag only for a non-standard start"
            );
            if variant.is_tower() {
                assert_eq!(r.tag("Variant"), Some(variant.id()), "{what}");
            }
        }
        // The long games reach an end by the rules; their results are kept.
        assert!(
            written.iter().any(|w| w.result != "*"),
            "{variant}: some game should have ended"
        );
    }
}

#[test]
fn writer_layout() {
    let start = position(
        Variant::Russian,
        "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    );
    let mut game = Game::from_position(start);
    for m in ["f6-g5", "g3-h4", "g5-f4", "e3:g5"] {
        game.play_text(m).unwrap();
    }
    let mut rec = GameRecord::new(game);
    rec.glyphs[1] = Some("?!".into());
    rec.comments[2] = Some("bad }idea".into());
    rec.set_tag("Result", "2-0"); // overwritten by rec.result
    let text = pdn::write_game(&rec);
    assert!(text.ends_with("*\n\n"), "{text}");
    assert!(text.contains("[GameType \"25\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.contains("[FEN \"B:W"), "{text}");
    assert!(
        text.contains("1... f6-g5 2. g3-h4?! g5-f4 {bad )idea} 3. e3xg5 *"),
        "{text}"
    );
    let mut a = GameRecord::new(Game::new(Variant::Adiyukh80));
    a.result = "1-1".into();
    let t = pdn::write_game(&a);
    assert!(t.contains("[GameType \"51\"]") && t.contains("[Variant \"adiyukh-80\"]"));
    assert!(!t.contains("FEN"), "{t}");
}

#[test]
fn adiyukh_example_game_round_trips() {
    let text = read_repo("engine-tests/testdata/adiyukh-example-game.txt");
    // The seed's full notation (the lines that are not comments) is itself
    // PDN movetext.
    let movetext: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n");
    let games = pdn::read_games(&movetext, Variant::Adiyukh64);
    assert_eq!(games.len(), 1);
    let rec = games[0].as_ref().unwrap();
    assert_eq!(rec.game.moves().len(), 29);
    let outcome = rec.game.outcome().expect("the example game ends");
    assert_eq!(outcome.score, Some((17, 7)));
    let mut rec = rec.clone();
    rec.result = pdn::result_token(Some(&outcome));
    rec.set_tag("Termination", outcome.reason.describe());
    assert_eq!(rec.result, "2-0");
    let written = pdn::write_game(&rec);
    // Read back with a wrong default: the Variant tag decides.
    let back = pdn::read_games(&written, Variant::Brazilian);
    let back = back[0]
        .as_ref()
        .unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back.game.variant(), Variant::Adiyukh64);
    assert_eq!(back.game.position(), rec.game.position());
    assert_eq!(back.game.position().half_board_score(), (17, 7));
    assert_eq!(back.result, "2-0");
    assert_eq!(back.tag("Termination"), Some(outcome.reason.describe()));
    // The short notation of the seed reads too (it is in a comment line).
    let short: String = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("# 1. "))
        .map(|l| format!("1. {l}"))
        .collect();
    let s = pdn::read_games(&short, Variant::Adiyukh64);
    assert_eq!(
        s[0].as_ref().unwrap().game.position(),
        rec.game.position(),
        "short notation"
    );
}

#[test]
fn malformed_games_are_errors_and_the_rest_loads() {
    let file = r#"[Event "good one"]
[White "W1"]
[Black "B1"]
1. c3-d4 f6-e5 2. d4xf6 g7xe5 *

[Event "illegal move"]
[White "Ivanov"]
[Black "Petrov"]
1. c3-d4 f6-e5 2. d4-c5 {wrong: capture is compulsory} g7-f6 *

[Event "good two"]
1. 22-18 11-15 2. 18x11 8x15 3. 23-18 1-1

[Event "bad fen"]
[FEN "W:Wa1,a1:B"]
1. a1-b2 *

[Event "bad tag
1. c3-d4 *

[Event "unknown game type"]
[GameType "20"]
1. 32-28 *

[Event "unclosed comment"]
1. c3-d4 { this never ends
2. ...

[Event "good three"]
[GameType "26"]
1. c3-d4 (1. a3-b4 (1. e3-f4) b6-a5) f6-e5 2. d4xf6 2-0

[Event "unclosed variation"]
1. c3-d4 (1. a3-b4 f6-e5 *
"#;
    let games = pdn::read_games(file, Variant::Russian);
    let summary: Vec<String> = games
        .iter()
        .map(|g| match g {
            Ok(r) => format!("ok {}", r.tag("Event").unwrap_or("")),
            Err(e) => format!("err {e}"),
        })
        .collect();
    assert_eq!(games.len(), 9, "{summary:#?}");
    let ok = |i: usize, plies: usize| {
        let r = games[i].as_ref().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.game.moves().len(), plies, "{summary:#?}");
    };
    ok(0, 4);
    ok(2, 5);
    ok(7, 3);
    assert_eq!(games[2].as_ref().unwrap().result, "1-1");
    let err = |i: usize| games[i].as_ref().unwrap_err().to_string();
    let e = err(1);
    assert!(
        e.starts_with("game 2 (Ivanov - Petrov, illegal move), line 9: ply 3 (move 2. d4-c5)"),
        "{e}"
    );
    assert!(e.contains("d4:f6"), "the legal moves are listed: {e}");
    assert!(!e.contains('\n'), "one line: {e}");
    let e = err(3);
    assert!(
        e.starts_with("game 4 (bad fen)") && e.contains("bad FEN tag"),
        "{e}"
    );
    let e = err(4);
    assert!(e.starts_with("game 5") && e.contains("bad tag"), "{e}");
    let e = err(5);
    assert!(e.starts_with("game 6") && e.contains("GameType 20"), "{e}");
    let e = err(6);
    assert!(
        e.starts_with("game 7 (unclosed comment)") && e.contains("unclosed comment"),
        "{e}"
    );
    let e = err(8);
    assert!(
        e.starts_with("game 9 (unclosed variation)") && e.contains("unclosed variation"),
        "{e}"
    );
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn tolerant_reading() {
    // No tags, CRLF, BOM, glued move numbers, numeric squares, a `%` line,
    // old-style results, and garbage after the last game.
    let text = "\u{feff}1.22-18 11-15\r\n% escaped\r\n2.18x11 8x15 1-0\r\n\r\n1. c3-d4 0-1\r\n\r\n  this is trailing garbage ]]";
    let games = pdn::read_games(text, Variant::Russian);
    assert_eq!(games.len(), 2, "{games:?}");
    let a = games[0].as_ref().unwrap();
    assert_eq!(a.game.moves().len(), 4);
    assert_eq!(a.result, "2-0");
    assert_eq!(games[1].as_ref().unwrap().result, "0-2");
    assert!(pdn::read_games("", Variant::Russian).is_empty());
    assert!(pdn::read_games("   \n%x\n", Variant::Russian).is_empty());
    // Games separated only by a tag section, and a Variant tag by name.
    let t = "[Variant \"Brazilian\"]\n1. c3-d4\n[Variant \"adiyukh-80\"]\n1. c3-d4 *";
    let g = pdn::read_games(t, Variant::Russian);
    assert_eq!(g.len(), 2);
    assert_eq!(g[0].as_ref().unwrap().game.variant(), Variant::Brazilian);
    assert_eq!(g[0].as_ref().unwrap().result, "*");
    assert_eq!(g[1].as_ref().unwrap().game.variant(), Variant::Adiyukh80);
    // The Result tag counts when the movetext has no result.
    let g = pdn::read_games("[Result \"1/2-1/2\"]\n1. c3-d4", Variant::Russian);
    assert_eq!(g[0].as_ref().unwrap().result, "1-1");
    // Long GameType form.
    let g = pdn::read_games("[GameType \"26,W,8,8,A0,0\"]\n1. c3-d4 *", Variant::Russian);
    assert_eq!(g[0].as_ref().unwrap().game.variant(), Variant::Brazilian);
}

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lidraughts samples (written for this project in the format lidraughts
/// exports); the final positions were computed by pydraughts.
#[test]
fn lidraughts_samples_load() {
    let cases = [
        (
            "lidraughts-russian.pdn",
            Variant::Russian,
            41,
            "B:Wc3,g3,c1,b6,h6:Bc5,f6,a7,g7,f8,a3",
            "1-1",
        ),
        (
            "lidraughts-brazilian-algebraic.pdn",
            Variant::Brazilian,
            36,
            "W:Wa1,h6,h2,a3:Ba5,a7,c7,h8,b2",
            "0-2",
        ),
        (
            "lidraughts-russian-from-position.pdn",
            Variant::Russian,
            24,
            "B:Wa1,h2,a3:Bb6,d6,a7,c7,g7,b8,f8,Kg1",
            "*",
        ),
    ];
    for (file, variant, plies, end, result) in cases {
        // The default variant is wrong on purpose: GameType decides.
        let games = pdn::read_games(&data(file), Variant::Adiyukh64);
        assert_eq!(games.len(), 1, "{file}");
        let rec = games[0].as_ref().unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(rec.game.variant(), variant, "{file}");
        assert_eq!(rec.game.moves().len(), plies, "{file}");
        assert_eq!(*rec.game.position(), position(variant, end), "{file}");
        assert_eq!(rec.result, result, "{file}");
        assert!(rec.tag("WhiteElo").is_some(), "{file}");
    }
    let clocks = pdn::read_games(&data("lidraughts-russian.pdn"), Variant::Russian);
    let rec = clocks[0].as_ref().unwrap();
    assert_eq!(
        rec.comments[0].as_deref(),
        Some("[%clock w0:03:00 B0:03:00]")
    );
}

fn run_script(python: &PathBuf, args: &[&str]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/pdn_pydraughts.py");
    let out = Command::new(python)
        .env("SHASHKI_EGDB", crate::common::no_tables())
        .arg(&script)
        .args(args)
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "pdn_pydraughts.py {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// pydraughts' summary line: variant, plies, final position.
fn parse_summary(line: &str) -> (Variant, usize, Position) {
    let mut parts = line.split_whitespace();
    let variant: Variant = parts.next().unwrap().parse().unwrap();
    let plies = parts.next().unwrap().parse().unwrap();
    let pos = fen::parse_position(variant, parts.next().unwrap())
        .unwrap_or_else(|e| panic!("pydraughts FEN in {line:?}: {e}"));
    (variant, plies, pos)
}

#[test]
fn pydraughts_written_files_load() {
    let Some(python) = pydraughts_or_skip("pydraughts_written_files_load") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("shashki-pdn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("pydraughts.pdn");
    let summary = run_script(&python, &["write", path.to_str().unwrap()]);
    let text = std::fs::read_to_string(&path).unwrap();
    let games = pdn::read_games(&text, Variant::Adiyukh64);
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(games.len(), lines.len(), "{text}");
    assert!(lines.len() >= 6);
    for (i, (g, line)) in games.iter().zip(&lines).enumerate() {
        let rec = g
            .as_ref()
            .unwrap_or_else(|e| panic!("pydraughts game {}: {e}\n{text}", i + 1));
        let (variant, plies, end) = parse_summary(line);
        assert_eq!(rec.game.variant(), variant, "game {}", i + 1);
        assert_eq!(rec.game.moves().len(), plies, "game {}", i + 1);
        assert_eq!(*rec.game.position(), end, "game {}", i + 1);
        assert_eq!(rec.tag("White"), Some("py-white"));
    }
    assert!(
        games
            .iter()
            .any(|g| g.as_ref().unwrap().game.start().side_to_move() == Color::Black),
        "a game with Black to move first"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn our_files_load_in_pydraughts() {
    let Some(python) = pydraughts_or_skip("our_files_load_in_pydraughts") else {
        return;
    };
    let mut rng = StdRng::seed_from_u64(0x5059_4452);
    let mut file = String::new();
    let mut written = Vec::new();
    for variant in [Variant::Russian, Variant::Brazilian] {
        for i in 0..10 {
            let start = if i % 3 == 0 {
                random_start(&mut rng, variant)
            } else {
                Position::start(variant)
            };
            let mut rec = random_record(&mut rng, start, if i % 2 == 0 { 300 } else { 50 });
            // pydraughts splits a line at a result token and drops text in
            // parentheses before comments; keep comments plain for it.
            for c in rec.comments.iter_mut().flatten() {
                *c = "plain note".into();
            }
            file.push_str(&pdn::write_game(&rec));
            written.push(rec);
        }
    }
    let dir = std::env::temp_dir().join(format!("shashki-pdn-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ours.pdn");
    std::fs::write(&path, &file).unwrap();
    let summary = run_script(&python, &["read", path.to_str().unwrap()]);
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines.len(), written.len(), "{summary}");
    for (i, (w, line)) in written.iter().zip(&lines).enumerate() {
        let (variant, plies, end) = parse_summary(line);
        assert_eq!(variant, w.game.variant(), "game {}", i + 1);
        assert_eq!(plies, w.game.moves().len(), "game {}", i + 1);
        assert_eq!(end, *w.game.position(), "game {}: {line}", i + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn sample_pdn() -> String {
    let mut rng = StdRng::seed_from_u64(7);
    let mut s = String::new();
    for v in Variant::ALL {
        let start = random_start(&mut rng, v);
        s.push_str(&pdn::write_game(&random_record(&mut rng, start, 30)));
    }
    s.push_str(&data("lidraughts-russian.pdn"));
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        for v in Variant::ALL {
            let _ = pdn::read_games(&text, v);
        }
    }

    #[test]
    fn mutated_pdn_never_panics(
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<char>()), 1..12)
    ) {
        let mut chars: Vec<char> = sample_pdn().chars().collect();
        for (at, kind, c) in edits {
            if chars.is_empty() { break; }
            let i = at.index(chars.len());
            match kind {
                0 => { chars.remove(i); }
                1 => chars.insert(i, c),
                2 => chars[i] = c,
                _ => chars.insert(i, ['{', '}', '(', ')', '[', ']', '"', '\\', '%', ';', '\n', '$'][i % 12]),
            }
        }
        let text: String = chars.into_iter().collect();
        let games = pdn::read_games(&text, Variant::Russian);
        for g in games {
            match g {
                Ok(rec) => {
                    prop_assert_eq!(rec.comments.len(), rec.game.moves().len());
                    prop_assert_eq!(rec.glyphs.len(), rec.game.moves().len());
                    let again = pdn::read_games(&pdn::write_game(&rec), rec.game.variant());
                    prop_assert_eq!(again.len(), 1);
                    let again = again.into_iter().next().unwrap();
                    prop_assert!(again.is_ok(), "rewrite fails: {:?}", again);
                    let again = again.unwrap();
                    prop_assert_eq!(again.game.moves(), rec.game.moves());
                }
                Err(e) => prop_assert!(!e.to_string().contains('\n'), "{}", e),
            }
        }
    }
}

/// The players' names of `engine-tests/data/cp1251-russian.pdn`, a file in
/// Windows-1251 (CRLF line ends), as they are in Russian and Ukrainian.
const CP1251_PLAYERS: [(&str, &str); 2] = [
    ("Иванов, Пётр", "Щербаков, Юрий"),
    ("Ґонта, Євген", "Їжак, Іван"),
];

/// Windows-1251 PDN (the usual encoding of Russian collections) is read:
/// the file is not UTF-8, so it is decoded as Windows-1251 and the names
/// come out right; named as UTF-8 it is refused with the line of the bad
/// byte.
#[test]
fn windows_1251_files_load_with_the_names_right() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/data/cp1251-russian.pdn");
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        std::str::from_utf8(&bytes).is_err(),
        "the sample is not UTF-8"
    );
    // Windows-1251 bytes of the code page's table: И = 0xC8, ё = 0xB8,
    // № = 0xB9, Ґ = 0xA5, Є = 0xAA, Ї = 0xAF, І = 0xB2.
    for b in [0xC8, 0xB8, 0xB9, 0xA5, 0xAA, 0xAF, 0xB2] {
        assert!(bytes.contains(&b), "byte 0x{b:02X} in the sample");
    }
    let text = pdn::decode(&bytes, None).unwrap();
    assert_eq!(
        text,
        pdn::decode(&bytes, Some(pdn::Encoding::Windows1251)).unwrap()
    );
    let games: Vec<_> = pdn::read_games(&text, Variant::Russian)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(games.len(), 2);
    for (g, (white, black)) in games.iter().zip(CP1251_PLAYERS) {
        assert_eq!(g.tag("White"), Some(white));
        assert_eq!(g.tag("Black"), Some(black));
        assert_eq!(g.game.moves().len(), 4);
    }
    assert_eq!(games[0].tag("Site"), Some("Москва, клуб № 1"));
    assert_eq!(games[0].comments[3].as_deref(), Some("ничья по соглашению"));
    assert_eq!(games[1].tag("Site"), Some("Київ"));
    let e = pdn::read_file(&path, Some(pdn::Encoding::Utf8)).unwrap_err();
    assert!(e.contains("not valid UTF-8 (line 1, byte 0xD7)"), "{e}");
    // A UTF-8 file stays UTF-8 (its bytes are never taken for Windows-1251).
    let utf8 = "[White \"Иванов, Пётр\"]\n1. c3-d4 *\n";
    assert_eq!(pdn::decode(utf8.as_bytes(), None).unwrap(), utf8);
}

/// Latin-1 (as browsers read the label: Windows-1252) when named; every
/// byte has a character, and the names read right.
#[test]
fn latin1_files_load_when_named() {
    let text: &str = "[White \"Müller, Jürgen\"]\n[Black \"Šmid, Ødegård\"]\n1. c3-d4 *\n";
    // ISO-8859-1 is U+0000-U+00FF byte for byte; Š is 0x8A in Windows-1252.
    let bytes: Vec<u8> = text
        .chars()
        .map(|c| {
            if c == 'Š' {
                0x8A
            } else {
                u8::try_from(u32::from(c)).unwrap()
            }
        })
        .collect();
    assert!(std::str::from_utf8(&bytes).is_err());
    for name in [
        "latin1",
        "ISO-8859-1",
        "iso8859-1",
        "cp1252",
        "windows-1252",
    ] {
        let e: pdn::Encoding = name.parse().unwrap();
        assert_eq!(pdn::decode(&bytes, Some(e)).unwrap(), text, "{name}");
    }
    let all: Vec<u8> = (0..=255).collect();
    assert_eq!(
        pdn::decode(&all, Some(pdn::Encoding::Latin1))
            .unwrap()
            .chars()
            .count(),
        256
    );
    assert_eq!(pdn::decode(&all, None).unwrap().chars().count(), 256);
    let cyrillic = pdn::decode(&all[0xC0..], None).unwrap();
    assert_eq!(
        cyrillic,
        "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюя"
    );
    for name in ["utf-8", "UTF8", "cp1251", "Windows-1251"] {
        assert!(name.parse::<pdn::Encoding>().is_ok(), "{name}");
    }
    let e = "koi8-r".parse::<pdn::Encoding>().unwrap_err();
    assert!(
        e.contains("unknown encoding 'koi8-r'")
            && e.contains("windows-1251")
            && e.contains("latin1"),
        "{e}"
    );
}

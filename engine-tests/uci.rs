//! The UCI-like protocol: transcripts against the built binary and a fuzz
//! run of the command reader. The timing tests are in `timing.rs`.

use crate::process::Engine;
use proptest::prelude::*;
use shashki::game::Game;
use shashki::serve::Out;
use shashki::uci::Uci;
use shashki::{notation, Variant};
use std::cell::RefCell;
use std::time::Duration;

const SECOND: Duration = Duration::from_secs(1);

#[test]
fn handshake_lists_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect("uciok", SECOND * 5);
    assert!(lines[0].starts_with("id name shashki "));
    for option in [
        "Variant",
        "Hash",
        "Threads",
        "MultiPV",
        "Ponder",
        "Move Overhead",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "option {option} in {lines:?}"
        );
    }
    assert!(lines.iter().any(|l| l.contains("var adiyukh-80")));
    e.send("isready");
    e.expect("readyok", SECOND * 5);
    assert!(e.close().success());
}

#[test]
fn go_gives_a_legal_bestmove_in_every_variant() {
    let mut e = Engine::start();
    for v in Variant::ALL {
        e.send(&format!("setoption name Variant value {}", v.id()));
        e.send("position startpos moves c3-d4");
        e.send("go depth 5");
        let (best, infos) = e.expect("bestmove", SECOND * 20);
        assert!(
            infos.iter().any(|l| l.starts_with("info depth 5 ")),
            "{infos:?}"
        );
        let text = best.split_whitespace().nth(1).unwrap();
        let mut game = Game::new(v);
        game.play_text("c3-d4").unwrap();
        assert!(
            notation::parse_move(game.position(), text).is_ok(),
            "{v}: {best} is not legal"
        );
    }
    e.close();
}

#[test]
fn bad_input_gets_one_error_line_and_keeps_the_state() {
    let mut e = Engine::start();
    e.send("position startpos moves c3-d4");
    // A refused position leaves none (go, d, eval and perft say so) until
    // a good one arrives.
    for b in [
        "position fen W:Wz9:B",
        "position startpos moves c3-d4 c3-d4",
        "position",
    ] {
        e.send(b);
        let (err, _) = e.expect("info string error: ", SECOND * 5);
        assert!(err.len() < 400, "{err}");
        e.send("d");
        let (err, _) = e.expect("info string error: ", SECOND * 5);
        assert!(
            err.starts_with("info string error: d: no position: "),
            "{err}"
        );
    }
    e.send("position startpos moves c3-d4");
    let bad = [
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name Colour value red",
        "setoption name Variant value chess",
        "go depth minus",
        "go wtime",
        "go searchmoves a1-b2",
        "frobnicate",
        "perft 99",
        "\u{1}\u{2}\u{3}",
    ];
    for b in bad {
        e.send(b);
        let (err, _) = e.expect("info string error: ", SECOND * 5);
        assert!(err.len() < 400, "{err}");
    }
    e.send("d");
    let (fen, _) = e.expect("fen ", SECOND * 5);
    assert_eq!(
        fen,
        "fen B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    let long = "x".repeat(100_000);
    e.send(&long);
    let (err, _) = e.expect("info string error: ", SECOND * 5);
    assert!(err.contains("too long"), "{err}");
    e.send("isready");
    e.expect("readyok", SECOND * 5);
    e.close();
}

/// Results are written the draughts way, 2-0 / 1-1 / 0-2, by `d` (and the
/// "game is over" error) as by `shashki show`, the match log and PDN.
#[test]
fn d_and_show_write_results_as_2_0_1_1_0_2() {
    let mut e = Engine::start();
    // Black has no piece: White wins; White has none: Black wins.
    for (fen, want) in [
        ("B:Wa1:B", "status 2-0 (no pieces left)"),
        ("W:W:Bd4", "status 0-2 (no pieces left)"),
        ("B:Wb2,c1:Ba3", "status 2-0 (no legal move)"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("d");
        let (status, _) = e.expect("status ", SECOND * 5);
        assert_eq!(status, want, "{fen}");
    }
    // The same position a third time (rule 7.2.3): a draw, 1-1.
    let repeat = "position fen W:WKh2,c1,e1,a3:BKa7,f8,d8,h6 moves \
                  h2-g1 a7-b8 g1-h2 b8-a7 h2-g1 a7-b8 g1-h2 b8-a7";
    e.send(repeat);
    e.send("d");
    let (status, _) = e.expect("status ", SECOND * 5);
    assert_eq!(status, "status 1-1 (threefold repetition)");
    e.send(&format!("{repeat} h2-g1"));
    let (err, _) = e.expect("info string error: ", SECOND * 5);
    assert!(
        err.contains("the game is over: 1-1 (threefold repetition)"),
        "{err}"
    );
    e.close();

    let show = |variant: &str, fen: &str| {
        let out = crate::common::shashki_command()
            .args(["show", "--variant", variant, "--fen", fen])
            .output()
            .expect("run shashki show");
        assert!(out.status.success(), "{fen}");
        let text = String::from_utf8(out.stdout).unwrap();
        let status = text.lines().find(|l| l.starts_with("status "));
        status
            .unwrap_or_else(|| panic!("no status in {text}"))
            .to_string()
    };
    assert_eq!(show("russian", "W:W:Bd4"), "status 0-2 (no pieces left)");
    assert_eq!(show("brazilian", "B:Wa1:B"), "status 2-0 (no pieces left)");
    // Rule book case A15: blocked, counted 8:12, neither reaches 13: drawn.
    assert_eq!(
        show("adiyukh-64", "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1"),
        "status 1-1 (no legal move) score 8:12"
    );
}

/// One rule for numbers: a `go` number out of its range (a negative one
/// included) is an error that names the range, and no search starts; only
/// a negative clock time counts as zero (a GUI whose clock flagged).
#[test]
fn go_numbers_out_of_range_are_refused_naming_the_range() {
    let mut e = Engine::start();
    let cases = [
        (
            "go depth -5",
            "'depth' needs a whole number from 1 to 1000, not '-5'",
        ),
        (
            "go depth 0",
            "'depth' needs a whole number from 1 to 1000, not '0'",
        ),
        (
            "go depth 5000",
            "'depth' needs a whole number from 1 to 1000",
        ),
        ("go depth", "'depth' needs a whole number from 1 to 1000"),
        (
            "go nodes -1",
            "'nodes' needs a whole number from 1 to 9223372036854775807, not '-1'",
        ),
        ("go nodes 0", "'nodes' needs a whole number from 1 to"),
        (
            "go movetime -1",
            "'movetime' needs a whole number from 0 to 31536000000, not '-1'",
        ),
        (
            "go movestogo -3 wtime 1000",
            "'movestogo' needs a whole number from 0 to 10000",
        ),
        (
            "go wtime 1000 winc -1",
            "'winc' needs a whole number from 0 to 31536000000",
        ),
        (
            "go wtime 99999999999",
            "'wtime' needs a whole number from 0 to 31536000000",
        ),
    ];
    for (line, want) in cases {
        e.send(line);
        let (err, _) = e.expect("info string error: ", SECOND * 5);
        assert!(err.contains(want), "{line:?}: {err:?} lacks {want:?}");
    }
    e.send("isready");
    let (_, before) = e.expect("readyok", SECOND * 5);
    assert!(before.is_empty(), "no search started: {before:?}");
    // A flagged clock: the engine still answers with a move.
    e.send("go wtime -100 btime -100");
    let (best, before) = e.expect("bestmove ", SECOND * 5);
    assert!(
        !before.iter().any(|l| l.contains("error")),
        "{before:?} {best}"
    );
    e.close();
}

/// User text echoed in an error reaches the GUI's terminal escaped, never
/// as control bytes (ESC would start a terminal sequence, BEL ring).
#[test]
fn control_bytes_in_bad_lines_come_back_escaped() {
    let mut e = Engine::start();
    let cases = [
        (
            "foo\u{1b}[31mbar\u{7}",
            "unknown command 'foo\\u{1b}[31mbar\\u{7}'",
        ),
        ("go depth \u{1b}[2J", "'\\u{1b}[2J'"),
        ("go \u{1b}[2J", "'\\u{1b}[2J'"),
        ("perft \u{7}", "'\\u{7}'"),
        (
            "setoption name \u{1b}]0;title\u{7} value 1",
            "'\\u{1b}]0;title\\u{7}'",
        ),
        ("setoption name Hash value \u{1b}c", "'\\u{1b}c'"),
        ("setoption name Variant value \u{1b}c", "\\u{1b}c"),
        ("position fen W:W\u{1b}c3:B", "\\u{1b}"),
        ("position startpos moves c3-d4\u{7}", "c3-d4\\u{7}"),
    ];
    for (line, want) in cases {
        e.send(line);
        let (err, _) = e.expect("info string error: ", SECOND * 5);
        assert!(err.contains(want), "{line:?}: {err:?} lacks {want:?}");
        assert!(!err.chars().any(char::is_control), "{line:?}: {err:?}");
    }
    e.close();
}

#[test]
fn ponder_then_ponderhit_gives_one_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves c3-d4");
    e.send("go ponder wtime 400 btime 400 winc 10 binc 10");
    std::thread::sleep(Duration::from_millis(100));
    // No bestmove while pondering.
    e.send("isready");
    let (_, before) = e.expect("readyok", SECOND);
    assert!(!before.iter().any(|l| l.starts_with("bestmove")));
    e.send("ponderhit");
    let (best, _) = e.expect("bestmove ", SECOND * 3);
    assert!(best.split_whitespace().count() >= 2);
    e.send("isready");
    let (_, after) = e.expect("readyok", SECOND);
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "one bestmove only"
    );
    e.close();
}

/// In a position of the book (the side to move has a choice after a
/// shipped opening), a move on a clock is the book's move, at once and
/// without an `info` line; a `go depth` searches, and so does a clock with
/// `OwnBook` off.
#[test]
fn a_timed_move_in_a_book_position_is_the_books_move() {
    let opening = "c3-b4 f6-e5 b2-c3";
    let mut game = Game::new(Variant::Russian);
    for m in opening.split_whitespace() {
        game.play_text(m).unwrap();
    }
    let pos = *game.position();
    assert!(pos.legal_moves().len() > 1);
    let entry = shashki::book::Book::built_in(Variant::Russian)
        .and_then(|b| b.probe(&pos))
        .expect("the book holds the shipped opening's position");
    let book_move = notation::move_text(&pos, &entry.mv);
    let mut e = Engine::start();
    e.send(&format!("position startpos moves {opening}"));
    e.send("go wtime 60000 btime 60000 winc 1000 binc 1000");
    let (best, lines) = e.expect("bestmove ", SECOND * 5);
    assert_eq!(best, format!("bestmove {book_move}"));
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    e.send("go depth 3");
    let (_, lines) = e.expect("bestmove ", SECOND * 5);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 ")),
        "{lines:?}"
    );
    e.send("setoption name OwnBook value false");
    e.send("go movetime 50");
    let (_, lines) = e.expect("bestmove ", SECOND * 5);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    e.close();
}

#[test]
fn input_closing_ends_the_engine_even_while_searching() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.expect("info depth 2", SECOND * 5);
    assert!(e.close().success());
}

thread_local! {
    /// Lines sent to the fuzzed reader so far (skipped ones not counted).
    static SENT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static FUZZ: RefCell<Uci> = RefCell::new({
        let mut u = Uci::new(Out::new(Box::new(std::io::sink())));
        u.command("setoption name Hash value 1");
        u
    });
}

const VALID: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves c3-d4 f6-e5 d4:f6",
    "position fen W:Wa1,c1,Kd4:Bb6,Kh8 moves d4-e5",
    "position fen B:W21-32:B1-12",
    "setoption name Variant value adiyukh-64",
    "setoption name Variant value russian",
    "setoption name MultiPV value 2",
    "setoption name Move Overhead value 5",
    "go depth 2",
    "go nodes 500",
    "go movetime 1",
    "go wtime 50 btime 50 winc 1 binc 1",
    "go depth 2 searchmoves c3-d4 a3-b4",
    "stop",
    "ponderhit",
    "d",
    "perft 1",
    "eval",
];

fn mutated_line() -> impl Strategy<Value = String> {
    prop_oneof![
        // Mutations of valid lines: bytes replaced, removed or inserted.
        (
            prop::sample::select(VALID),
            prop::collection::vec((any::<usize>(), any::<u8>(), 0..3u8), 0..4)
        )
            .prop_map(|(line, edits)| {
                let mut bytes = line.as_bytes().to_vec();
                for (at, byte, kind) in edits {
                    let i = at % (bytes.len() + 1);
                    match kind {
                        0 if i < bytes.len() => bytes[i] = byte,
                        1 if i < bytes.len() => {
                            bytes.remove(i);
                        }
                        _ => bytes.insert(i, byte),
                    }
                }
                String::from_utf8_lossy(&bytes).into_owned()
            }),
        // Valid words in random order with random numbers.
        prop::collection::vec(
            prop_oneof![
                prop::sample::select(vec![
                    "go",
                    "position",
                    "fen",
                    "startpos",
                    "moves",
                    "setoption",
                    "name",
                    "value",
                    "depth",
                    "wtime",
                    "btime",
                    "infinite",
                    "ponder",
                    "searchmoves",
                    "Hash",
                    "Threads",
                    "c3-d4",
                    "W:W21:B1",
                    "perft",
                    "stop",
                    "-1",
                    "99999999999999999999",
                    "d"
                ])
                .prop_map(str::to_string),
                any::<i64>().prop_map(|n| n.to_string()),
            ],
            0..8
        )
        .prop_map(|w| w.join(" ")),
        // Anything at all.
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..64)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        // About one line in nine is left out below: 1,200 cases of 100
        // lines send over 100,000.
        cases: 1_200,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// 1,200 cases of 100 lines: over 100,000 lines through the command
    /// reader, which must neither panic nor hang.
    #[test]
    fn random_protocol_lines_never_panic(lines in prop::collection::vec(mutated_line(), 100)) {
        FUZZ.with(|u| {
            let mut u = u.borrow_mut();
            for line in &lines {
                // Table sizes and thread counts are real resources (a
                // fuzzed `Hash 60000` would ask for 60 GiB): left out.
                // So is a deep perft, which runs in the reading thread.
                let deep_perft = line.contains("perft") && !VALID.contains(&line.as_str());
                if line.contains("Hash") || line.contains("Threads") || deep_perft {
                    continue;
                }
                u.command(line);
                SENT.with(|n| n.set(n.get() + 1));
                // Keep searches short: a fuzzed `go` may ask for an hour.
                if line.contains("go") {
                    u.command("stop");
                }
            }
            u.command("stop");
        });
        if std::env::var_os("SHASHKI_FUZZ_COUNT").is_some() {
            SENT.with(|n| eprintln!("lines sent: {}", n.get()));
        }
    }
}

/// The engine's resident memory in MiB (Linux's /proc).
#[cfg(target_os = "linux")]
fn resident_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line");
    kib / 1024.0
}

/// The Hash option is the table's memory, all of it and no more: a bigger
/// table is resident at once (no search pays for first touches: the first
/// 64 MiB before `readyok`, the rest in the background), a search
/// adds little, and a smaller table gives the memory back.
#[cfg(target_os = "linux")]
#[test]
fn resident_memory_follows_the_hash_option() {
    let mut e = Engine::start();
    let ready = |e: &mut Engine| {
        e.send("isready");
        e.expect("readyok", SECOND * 20);
    };
    e.send("setoption name Hash value 1");
    ready(&mut e);
    let small = resident_mib(e.pid());
    e.send("setoption name Hash value 200");
    ready(&mut e);
    // The first 64 MiB are touched before readyok, the rest just after,
    // in the background.
    let at_ready = resident_mib(e.pid());
    assert!(
        at_ready - small >= 63.0,
        "Hash 1 -> 200 MiB: resident {small:.1} -> {at_ready:.1} MiB at readyok"
    );
    let deadline = std::time::Instant::now() + SECOND * 20;
    let mut big = at_ready;
    while big - small < 199.0 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        big = resident_mib(e.pid());
    }
    assert!(
        (199.0..=208.0).contains(&(big - small)),
        "Hash 1 -> 200 MiB: resident {small:.1} -> {big:.1} MiB"
    );
    e.send("position startpos");
    e.send("go depth 12");
    e.expect("bestmove", SECOND * 60);
    let searched = resident_mib(e.pid());
    assert!(
        searched - big < 16.0,
        "a search on a 200 MiB table: resident {big:.1} -> {searched:.1} MiB"
    );
    e.send("setoption name Hash value 1");
    ready(&mut e);
    let back = resident_mib(e.pid());
    assert!(
        back < small + 16.0,
        "Hash 200 -> 1 MiB: resident {searched:.1} -> {back:.1} MiB (first {small:.1})"
    );
    e.close();
}

/// The engine learns what the client takes between its moves from the
/// clocks it is sent: here the "client" lets 400 ms pass on the engine's
/// clock beyond the engine's own thinking. The first sample lifts the
/// estimate halfway (about 200 ms), above the option, and the engine says
/// so before it searches; a `go` for a position that does not follow its
/// last move is not measured.
#[test]
fn the_engine_reports_the_overhead_it_measures_from_the_clocks() {
    use std::time::Instant;
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", SECOND * 5);
    e.send("setoption name Move Overhead value 20");
    e.send("position startpos");
    let sent = Instant::now();
    e.send("go wtime 3000 btime 3000");
    let (best, lines) = e.expect("bestmove ", SECOND * 5);
    let took = sent.elapsed().as_millis() as u64;
    // (Bar the one note of the endgame tables found, before the first.)
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")
            && !l.starts_with("info string endgame tables: ")),
        "{lines:?}"
    );
    let first = best.split_whitespace().nth(1).unwrap().to_string();
    let start = shashki::Position::start(Variant::Russian);
    let after = start.play(&notation::parse_move(&start, &first).unwrap());
    let reply = notation::move_text(&after, &after.legal_moves()[0]);
    // Not a continuation of the last move: no sample, nothing said.
    e.send(&format!("position startpos moves {first} {reply} {}", {
        let p = after.play(&after.legal_moves()[0]);
        notation::move_text(&p, &p.legal_moves()[0])
    }));
    e.send("go wtime 2000 btime 2000");
    let (_, lines) = e.expect("bestmove ", SECOND * 5);
    // (Bar the one note of the endgame tables found, before the first.)
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")
            && !l.starts_with("info string endgame tables: ")),
        "{lines:?}"
    );
    // Again from the start, then the continuation with 400 ms lost.
    e.send("position startpos");
    let sent = Instant::now();
    e.send("go wtime 3000 btime 3000");
    let (best, _) = e.expect("bestmove ", SECOND * 5);
    let took2 = sent.elapsed().as_millis() as u64;
    let first = best.split_whitespace().nth(1).unwrap().to_string();
    let after = start.play(&notation::parse_move(&start, &first).unwrap());
    let reply = notation::move_text(&after, &after.legal_moves()[0]);
    e.send(&format!("position startpos moves {first} {reply}"));
    e.send(&format!("go wtime {} btime 3000", 3000 - took2 - 400));
    let (_, lines) = e.expect("bestmove ", SECOND * 5);
    let note = lines
        .iter()
        .find(|l| l.starts_with("info string move overhead: "))
        .unwrap_or_else(|| panic!("no overhead note in {lines:?}"));
    let ms: u64 = note
        .strip_prefix("info string move overhead: the client takes about ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    // Half of 400 ms and of what the pipes took on top of the engine's own
    // time (the test measured from its side of the pipes, so at least 200).
    assert!((200..=220).contains(&ms), "{note} (first search {took} ms)");
    assert!(note.contains("the option's 20 ms"), "{note}");
    assert!(e.close().success());
}

/// The nodes of the last `info depth D` line of a search.
fn nodes_at_depth(infos: &[String], depth: u32) -> u64 {
    let line = infos
        .iter()
        .rev()
        .find(|l| l.starts_with(&format!("info depth {depth} ")))
        .unwrap_or_else(|| panic!("no info at depth {depth} in {infos:?}"));
    let mut words = line.split_whitespace();
    words.find(|w| *w == "nodes");
    words
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {line}"))
}

#[test]
fn a_new_variant_searches_as_a_fresh_engine_does() {
    // Setting the variant starts a new game: the table and the history of
    // the quiet moves of the last game are forgotten, so the first search is
    // the same, node for node, as a fresh engine's (one thread).
    let first_search = |e: &mut Engine| {
        e.send("setoption name Variant value brazilian");
        e.send("position startpos moves c3-d4");
        e.send("go depth 8");
        let (_, infos) = e.expect("bestmove", SECOND * 30);
        nodes_at_depth(&infos, 8)
    };
    let mut fresh = Engine::start();
    let expected = first_search(&mut fresh);
    fresh.close();
    let mut used = Engine::start();
    used.send("setoption name Variant value russian");
    used.send("position startpos moves c3-d4 f6-g5");
    used.send("go depth 9");
    used.expect("bestmove", SECOND * 30);
    assert_eq!(
        first_search(&mut used),
        expected,
        "the first Brazilian search after a Russian one differs from a fresh engine's"
    );
    used.close();
}

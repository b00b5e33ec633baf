//! Scripts that write their commands in one go, through the built binary:
//! every answer comes, in order (commands that arrive during a search wait
//! for it, `stop` / `quit` / `ponderhit` act at once); a refused position
//! leaves no position; any hash size that fits is ready at once, and one
//! that cannot fit is refused before any work.

use crate::cli::{engine_with_args_and_input, shashki};
use crate::process::Engine;
use shashki::game::Game;
use shashki::{notation, Variant};
use std::time::{Duration, Instant};

const PATIENCE: Duration = Duration::from_secs(60);

/// Run the engine with `input` piped in and closed; its output lines.
fn piped(args: &[&str], input: &str) -> Vec<String> {
    engine_with_args_and_input(args, input)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The lines that are not search reports or notes (errors are kept).
fn answers(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string error: "))
        .collect()
}

/// Whether `reply` (`bestmove <m> ...`, or Hub's `done move=<m> ...`) is a
/// legal move after `moves` from the start.
fn legal_after(variant: Variant, moves: &[&str], mv: &str) -> bool {
    let mut game = Game::new(variant);
    for m in moves {
        game.play_text(m).unwrap();
    }
    notation::parse_move(game.position(), mv).is_ok()
}

#[test]
fn piped_searches_each_get_their_bestmove_in_order() {
    // The issue's own example: two searches written at once.
    let out = piped(
        &[],
        "position startpos\ngo depth 5\nposition startpos moves c3-d4\ngo depth 5\n",
    );
    let replies = answers(&out);
    assert_eq!(replies.len(), 2, "{out:?}");
    let first = replies[0].split_whitespace().nth(1).unwrap();
    let second = replies[1].split_whitespace().nth(1).unwrap();
    assert!(replies[0].starts_with("bestmove "), "{out:?}");
    assert!(legal_after(Variant::Russian, &[], first), "{out:?}");
    assert!(legal_after(Variant::Russian, &["c3-d4"], second), "{out:?}");
    // Each search reached its depth: the second was not cut short.
    let depth5 = out
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .count();
    assert_eq!(depth5, 2, "{out:?}");

    // setoption, d, ucinewgame and perft wait too, and act in their turn.
    let out = piped(
        &[],
        "position startpos\ngo depth 7\nsetoption name Variant value brazilian\nd\n\
         ucinewgame\nposition startpos moves c3-d4\nperft 1\nisready\n",
    );
    let replies = answers(&out);
    assert!(replies[0].starts_with("bestmove "), "{out:?}");
    assert!(
        replies.contains(&"variant brazilian"),
        "d after the search, in the new variant: {out:?}"
    );
    assert_eq!(replies.last(), Some(&"readyok"), "{out:?}");
    assert!(replies.contains(&"nodes 7"), "perft 1 after c3-d4: {out:?}");
    assert!(
        !out.iter().any(|l| l.contains("error")),
        "nothing refused: {out:?}"
    );
}

#[test]
fn stop_and_isready_act_at_once_and_held_commands_follow() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.expect("info depth 3", PATIENCE);
    // Nothing waits: isready is answered during the search.
    e.send("isready");
    let (_, before) = e.expect("readyok", PATIENCE);
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    // Held behind the infinite search, in order; the readyok after them.
    e.send("position startpos moves c3-d4");
    e.send("go depth 4");
    e.send("isready");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (first, _) = e.expect("bestmove", PATIENCE);
    let (second, between) = e.expect("bestmove", PATIENCE);
    assert!(
        !between.iter().any(|l| l == "readyok"),
        "readyok waits for the commands before it: {between:?}"
    );
    let mv = first.split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &[], mv), "{first}");
    let mv = second.split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &["c3-d4"], mv), "{second}");
    assert!(
        between.iter().any(|l| l.starts_with("info depth 4 ")),
        "{between:?}"
    );
    e.expect("readyok", PATIENCE);
    assert!(e.close().success());
}

/// `stop` after a waiting `go` is for the search that `go` starts: the
/// running search, which ends by itself, runs to its depth first.
#[test]
fn a_stop_behind_a_waiting_go_stops_that_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 11");
    e.send("position startpos moves c3-d4");
    e.send("go infinite");
    e.send("stop");
    e.send("isready");
    let (first, before) = e.expect("bestmove", PATIENCE);
    assert!(
        before.iter().any(|l| l.starts_with("info depth 11 ")),
        "the first search reached its depth: {before:?}"
    );
    let (second, _) = e.expect("bestmove", PATIENCE);
    e.expect("readyok", PATIENCE);
    let mv = first.split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &[], mv), "{first}");
    let mv = second.split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &["c3-d4"], mv), "{second}");
    assert!(e.close().success());
}

/// A stop held behind a command that waits for an infinite search ends
/// that search (else everything behind it would wait for ever).
#[test]
fn a_stop_held_behind_an_infinite_search_ends_it() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 11");
    e.send("go infinite");
    e.send("position startpos moves c3-d4");
    e.send("stop");
    e.send("go depth 3");
    e.send("isready");
    for _ in 0..3 {
        e.expect("bestmove", PATIENCE);
    }
    let (_, before) = e.expect("readyok", PATIENCE);
    assert!(!before.iter().any(|l| l.contains("error")), "{before:?}");
    assert!(e.close().success());
}

/// `quit` stops the running search at once, and the commands written
/// before it still get their answers (PROTOCOL.md: `readyok` means that
/// everything before `isready` is done); those after it are dropped.
#[test]
fn the_commands_before_quit_are_answered() {
    let start = Instant::now();
    let out = piped(
        &[],
        "position startpos\ngo depth 40\nsetoption name Variant value nonsense\n\
         d\nisready\nquit\nisready\n",
    );
    assert!(
        start.elapsed() < PATIENCE,
        "quit stopped the search: {out:?}"
    );
    let replies = answers(&out);
    assert!(replies[0].starts_with("bestmove "), "{out:?}");
    let mv = replies[0].split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &[], mv), "{out:?}");
    assert!(
        replies[1].starts_with("info string error: ") && replies[1].contains("nonsense"),
        "the bad setoption's error, in its turn: {out:?}"
    );
    assert!(replies.contains(&"variant russian"), "d, after it: {out:?}");
    assert_eq!(replies.last(), Some(&"readyok"), "{out:?}");
    let ready = replies.iter().filter(|l| **l == "readyok").count();
    assert_eq!(ready, 1, "the isready after quit is dropped: {out:?}");

    // A search that a command before quit starts is stopped at once too.
    let start = Instant::now();
    let out = piped(
        &[],
        "position startpos\ngo infinite\nposition startpos moves c3-d4\n\
         go movetime 600000\nisready\nquit\n",
    );
    assert!(start.elapsed() < PATIENCE, "{out:?}");
    let replies = answers(&out);
    assert_eq!(replies.len(), 3, "{out:?}");
    let second = replies[1].split_whitespace().nth(1).unwrap();
    assert!(legal_after(Variant::Russian, &["c3-d4"], second), "{out:?}");
    assert_eq!(replies[2], "readyok", "{out:?}");

    // The same in the Hub protocol.
    let out = piped(
        &["hub"],
        "hub\ninit\nlevel depth=40\ngo think\nset-param name=variant value=nonsense\n\
         ping\nquit\nping\n",
    );
    let done = out.iter().filter(|l| l.starts_with("done move=")).count();
    assert_eq!(done, 1, "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("error") && l.contains("nonsense")),
        "{out:?}"
    );
    let pongs = out.iter().filter(|l| *l == "pong").count();
    assert_eq!(pongs, 1, "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("pong"), "{out:?}");
}

#[test]
fn hub_commands_written_at_once_all_get_their_answers() {
    let out = piped(
        &["hub"],
        "hub\ninit\npos moves=\"9-13\"\nlevel depth=5\ngo think\n\
         pos moves=\"9-13 22-18\"\nlevel depth=5\ngo think\nping\n",
    );
    assert!(!out.iter().any(|l| l.starts_with("error")), "{out:?}");
    let done: Vec<&String> = out.iter().filter(|l| l.starts_with("done")).collect();
    assert_eq!(done.len(), 2, "{out:?}");
    // The second position has one legal move, a capture: 13x22 (a1
    // numbering, pydraughts' default), written with its landing square.
    assert_eq!(done[1], "done move=13x22x18", "{out:?}");
    assert!(done[0].starts_with("done move="), "{out:?}");
    let depth5 = out
        .iter()
        .filter(|l| l.starts_with("info depth=5 "))
        .count();
    assert!(depth5 >= 1, "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("pong"), "{out:?}");
}

#[test]
fn a_refused_position_leaves_no_position() {
    let out = piped(&[], "position fen W:Wc3,h8:Bd6\ngo depth 4\n");
    let replies = answers(&out);
    assert_eq!(replies.len(), 3, "{out:?}");
    assert!(
        replies[0].starts_with("info string error: bad position text: a man on h8"),
        "{out:?}"
    );
    assert!(
        replies[1]
            .starts_with("info string error: go: no position: the last 'position' was refused"),
        "{out:?}"
    );
    assert_eq!(replies[2], "bestmove (none)", "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    // d and eval say so too; a good position (or ucinewgame) ends it.
    let out = piped(
        &[],
        "position startpos moves c3-d4\nposition startpos moves c3-d4 c3-d4\nd\neval\n\
         position startpos\ngo depth 2\nposition fen bogus\nucinewgame\ngo depth 2\n",
    );
    let replies = answers(&out);
    assert!(
        replies[1].starts_with("info string error: d: no position"),
        "{out:?}"
    );
    assert!(
        replies[2].starts_with("info string error: eval: no position"),
        "{out:?}"
    );
    let best: Vec<&&str> = replies
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .collect();
    assert_eq!(best.len(), 2, "{out:?}");
    assert!(best.iter().all(|b| **b != "bestmove (none)"), "{out:?}");

    // Hub: an error and an empty done.
    let out = piped(
        &["hub"],
        "pos pos=\"W:Wc3,h8:Bd6\"\nlevel depth=3\ngo think\n",
    );
    let tail: Vec<&String> = out.iter().filter(|l| !l.starts_with("param")).collect();
    let n = tail.len();
    assert!(n >= 3, "{out:?}");
    assert!(
        tail[n - 2].starts_with("error message=\"go: no position"),
        "{out:?}"
    );
    assert_eq!(tail[n - 1], "done", "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("info")), "{out:?}");
}

/// What the system has available, in MiB (as the engine reads it).
fn available_mib() -> Option<usize> {
    shashki::tt::available_mib()
}

/// Any size that fits is ready within a second: the pages are not all
/// touched before `readyok` (an 8 GiB table took 6 s, 4 GiB 10 s here, of
/// the system's time).
#[cfg(target_os = "linux")]
#[test]
fn a_big_hash_is_ready_within_a_second() {
    let Some(available) = available_mib() else {
        eprintln!("skipped: no MemAvailable in /proc/meminfo");
        return;
    };
    // 4 GiB where the machine has room for it beside the other tests.
    let mib = 4096.min(available.saturating_sub(4096));
    if mib < 1024 {
        eprintln!("skipped: only {available} MiB available");
        return;
    }
    let mut e = Engine::start();
    e.send("isready");
    e.expect("readyok", PATIENCE);
    let start = Instant::now();
    e.send(&format!("setoption name Hash value {mib}"));
    e.send("isready");
    let (_, before) = e.expect("readyok", PATIENCE);
    let took = start.elapsed();
    assert!(before.is_empty(), "{before:?}");
    assert!(
        took < Duration::from_secs(1),
        "Hash {mib}: readyok after {took:?}"
    );
    // And it searches at once.
    e.send("position startpos");
    e.send("go depth 6");
    e.expect("bestmove", Duration::from_secs(10));
    assert!(e.close().success());

    let start = Instant::now();
    let size = mib.to_string();
    let (code, out, err) = shashki(&["search", "--hash", &size, "--depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().last().unwrap_or("").starts_with("bestmove "),
        "{out}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "search --hash {mib} --depth 1 took {:?}",
        start.elapsed()
    );
}

/// A size past what the system has is refused with one line naming both,
/// before any work, and the table in use stays.
#[cfg(target_os = "linux")]
#[test]
fn a_hash_that_cannot_fit_is_refused_at_once() {
    let Some(available) = available_mib() else {
        eprintln!("skipped: no MemAvailable in /proc/meminfo");
        return;
    };
    if available >= 60_000 {
        eprintln!("skipped: {available} MiB available, more than the largest Hash");
        return;
    }
    let mut e = Engine::start();
    let start = Instant::now();
    e.send("setoption name Hash value 65536");
    e.send("isready");
    let (_, before) = e.expect("readyok", PATIENCE);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(
        before[0].starts_with(
            "info string error: option Hash: cannot allocate a 65536 MiB transposition table: the system has "
        ) && before[0].ends_with(" MiB of memory available"),
        "{before:?}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    e.expect("bestmove", PATIENCE);
    assert!(e.close().success());

    let start = Instant::now();
    let (code, out, err) = shashki(&["search", "--hash", "65536", "--depth", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.starts_with(
            "error: --hash 65536: cannot allocate a 65536 MiB transposition table: the system has "
        ),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

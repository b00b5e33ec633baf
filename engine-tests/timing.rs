//! Timing-sensitive tests of the engine binary: a clock game at 100 ms +
//! 10 ms and the stop latency. They are a test target of their own, which
//! cargo runs after the others, so nothing else competes for the cores.

#[path = "process.rs"]
mod process;

use process::Engine;
use shashki::game::Game;
use shashki::{notation, Variant};
use std::time::{Duration, Instant};

const SECOND: Duration = Duration::from_secs(1);

/// Start the engine and wait until it is ready, as a GUI does before a game.
fn ready_engine() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", SECOND * 10);
    e.send("ucinewgame");
    e.send("isready");
    e.expect("readyok", SECOND * 10);
    e
}

/// One test, so the two never run at the same time.
#[test]
fn timing() {
    new_game_is_quick();
    clock_game_at_100ms_plus_10ms_is_never_lost_on_time(Variant::Russian);
    clock_game_at_100ms_plus_10ms_is_never_lost_on_time(Variant::Adiyukh80);
    stop_answers_quickly_and_isready_answers_while_searching();
}

/// `ucinewgame` forgets the table in place: a GUI that sends it and then
/// `go` at once (no `isready` between) must not see the clearing eat into
/// its clock. 64 MiB of zeros take a few milliseconds; a fresh table from
/// the system took 60-180 ms here and lost a game on time at 100 ms.
fn new_game_is_quick() {
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", SECOND * 10);
    e.send("isready");
    e.expect("readyok", SECOND * 10);
    for _ in 0..5 {
        let sent = Instant::now();
        e.send("ucinewgame");
        e.send("isready");
        e.expect("readyok", SECOND * 5);
        let took = sent.elapsed();
        assert!(
            took < Duration::from_millis(50),
            "ucinewgame + isready took {took:?}"
        );
    }
    e.close();
}

/// Games of the engine against itself at 100 ms + 10 ms per move, at least
/// 40 moves (80 plies) in all: the runner keeps both clocks and the engine
/// must never run out of time. A game that ends early is followed by
/// another from a different first move.
fn clock_game_at_100ms_plus_10ms_is_never_lost_on_time(variant: Variant) {
    let mut e = ready_engine();
    e.send(&format!("setoption name Variant value {}", variant.id()));
    let openings = Game::new(variant).position().legal_moves();
    let mut total = 0;
    let mut games = 0;
    while total < 80 {
        let first = notation::move_text(
            Game::new(variant).position(),
            &openings[games % openings.len()],
        );
        games += 1;
        e.send("ucinewgame");
        let mut game = Game::new(variant);
        game.play_text(&first).unwrap();
        let mut moves = vec![first];
        let mut clock = [100i64, 100i64];
        let inc = 10;
        while game.outcome().is_none() && moves.len() < 120 {
            let side = game.position().side_to_move().index();
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            let sent = Instant::now();
            e.send(&format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                clock[0].max(0),
                clock[1].max(0)
            ));
            let (best, _) = e.expect("bestmove ", SECOND * 5);
            let used = sent.elapsed().as_millis() as i64;
            clock[side] -= used;
            let ply = moves.len();
            assert!(
                clock[side] > 0,
                "{variant} game {games} ply {ply}: out of time ({used} ms used, clock {clock:?})"
            );
            clock[side] += inc;
            let text = best.split_whitespace().nth(1).unwrap().to_string();
            game.play_text(&text)
                .unwrap_or_else(|err| panic!("{variant} game {games} ply {ply}: {text}: {err}"));
            moves.push(text);
            total += 1;
        }
    }
    eprintln!(
        "{variant}: {total} engine moves at 100 ms + 10 ms in {games} game(s), none lost on time"
    );
    e.close();
}

fn stop_answers_quickly_and_isready_answers_while_searching() {
    let mut e = ready_engine();
    e.send("position startpos");
    e.send("go infinite");
    e.expect("info depth 3", SECOND * 5);
    e.send("isready");
    e.expect("readyok", SECOND);
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("stop");
    let (best, _) = e.expect("bestmove ", SECOND * 5);
    let latency = sent.elapsed();
    eprintln!("stop latency: {latency:?}");
    assert!(
        latency < Duration::from_millis(100),
        "stop took {latency:?}"
    );
    let text = best.split_whitespace().nth(1).unwrap();
    assert!(notation::parse_move(&shashki::Position::start(Variant::Russian), text).is_ok());
    e.close();
}

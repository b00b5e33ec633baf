//! The clock of `getmove` goes through the engine's time management: the
//! overhead meter of `Engine::go` learns, from consecutive `getmove`
//! calls of one game, what the client takes between them.
//!
//! Alone in its test binary (its own process): what the meter learns stays
//! in the library's state.

use shashki::Position;
use shashki::Variant;
use shashki_cb::board::{self, CbMove, CB_WHITE};
use shashki_cb::{enginecommand, getmove};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::time::{Duration, Instant};

fn cmd(text: &str) -> String {
    let c = CString::new(text).unwrap();
    let mut reply = [0 as c_char; 1024];
    let r = unsafe { enginecommand(c.as_ptr(), reply.as_mut_ptr()) };
    assert_eq!(r, 1, "{text}");
    unsafe { CStr::from_ptr(reply.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// `getmove` with pydraughts' encoding of a clock in milliseconds; the
/// position after the move and the time the call took.
fn timed_move(pos: &Position, color: c_int, time_ms: u64, inc_ms: u64) -> (Position, Duration) {
    let mut b = board::board_of(pos);
    let mut status = [0 as c_char; 1024];
    let mut mv = CbMove::default();
    let playnow = 0;
    let moreinfo = ((time_ms << 16) | inc_ms) as c_int;
    let started = Instant::now();
    let code = unsafe {
        getmove(
            &mut b,
            color,
            time_ms as f64 / 40_000.0,
            status.as_mut_ptr(),
            &playnow,
            1 << 4,
            moreinfo,
            &mut mv,
        )
    };
    let took = started.elapsed();
    let text = unsafe { CStr::from_ptr(status.as_ptr()) }.to_string_lossy();
    assert!(!text.starts_with("error"), "{text} ({code})");
    let after = board::read_board(&b, 3 - color, pos.variant()).unwrap();
    assert!(pos.legal_moves().iter().any(|m| pos.play(m) == after));
    (after, took)
}

#[test]
fn consecutive_getmoves_teach_the_engine_what_the_client_takes() {
    cmd("set gametype 25");
    cmd("set moveoverhead 3");
    assert!(cmd("get moveoverhead").starts_with("3 ms per move charged"));
    let start = Position::start(Variant::Russian);
    let (time, inc) = (2_000u64, 20u64);
    let (after, took) = timed_move(&start, CB_WHITE, time, inc);
    // The clock's budget: far less than the clock.
    assert!(took < Duration::from_millis(700), "{took:?}");
    // Black replies (not through the engine), and the client lets 300 ms
    // more pass than the engine's own time before White's next move.
    let reply = after.legal_moves()[0];
    let next = after.play(&reply);
    let spent = took.as_millis() as u64 + 300;
    timed_move(&next, CB_WHITE, time + inc - spent, inc);
    let o = cmd("get moveoverhead");
    let charged: u64 = o.split_whitespace().next().unwrap().parse().unwrap();
    // Half of a 300 ms sample on the first measurement.
    assert!((120..=200).contains(&charged), "{o}");
    assert!(o.contains("(option 3 ms"), "{o}");
}

//! The time arguments of `getmove`: `maxtime` and the bits of `info` and
//! `moreinfo`, turned into the engine's [`Limits`].
//!
//! * `info` bit 0 (`CB_RESET_MOVES`): the game history is reset (used by
//!   the session, not here).
//! * `info` bit 1 (`CB_EXACT_TIME`): search exactly `maxtime` seconds.
//! * The incremental (Fischer) clock: `moreinfo` holds the time left in its
//!   upper 16 bits and the increment in its lower 16 bits, in a unit that
//!   `info` bits 2 to 4 give. CheckerBoard and pydraughts write the unit
//!   differently; the two encodings never collide, so both are read:
//!
//!   | bits 4 3 2 | unit | written by |
//!   |---|---|---|
//!   | 0 0 1 | 0.001 s | CheckerBoard |
//!   | 0 1 0 | 0.01 s | CheckerBoard and pydraughts |
//!   | 0 1 1 | 0.1 s | CheckerBoard |
//!   | 1 0 0 | 0.001 s | pydraughts |
//!   | 1 1 0 | 0.1 s | pydraughts |
//!
//!   `1 0 1` and `1 1 1` mean nothing: the clock is ignored and `maxtime`
//!   used, and the status line says so.
//! * Otherwise `maxtime` is the time to spend on this move, and the engine
//!   spends it (CheckerBoard says "on average"; it keeps the clock of an
//!   engine match itself and sends what is left as `maxtime`).

use shashki::clock::Clock;
use shashki::input;
use shashki::search::Limits;
use std::os::raw::c_int;

/// `info` bit 0.
pub const CB_RESET_MOVES: c_int = 1;
/// `info` bit 1.
pub const CB_EXACT_TIME: c_int = 2;

/// How one move is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeMode {
    /// Exactly this many milliseconds (`CB_EXACT_TIME`).
    Exact(u64),
    /// This many milliseconds, CheckerBoard's fixed time per move.
    PerMove(u64),
    /// A Fischer clock: time left and increment, in milliseconds.
    Clock { time_ms: u64, inc_ms: u64 },
}

/// `maxtime` in milliseconds: not a number or negative is 0; at most a year.
pub fn seconds_to_ms(seconds: f64) -> u64 {
    if !seconds.is_finite() || seconds <= 0.0 {
        if seconds == f64::INFINITY {
            return input::TIME_MS.max;
        }
        return 0;
    }
    ((seconds * 1000.0).round() as u64).min(input::TIME_MS.max)
}

/// The unit of the clock in `moreinfo`, in microseconds, from `info`:
/// `Ok(None)` without a clock, `Err` for a combination neither client
/// writes.
fn clock_unit_us(info: c_int) -> Result<Option<u64>, String> {
    match (info >> 2) & 7 {
        0 => Ok(None),
        1 | 4 => Ok(Some(1_000)),
        2 => Ok(Some(10_000)),
        3 | 6 => Ok(Some(100_000)),
        bits => Err(format!(
            "info bits 4-2 = {bits:03b} name no clock unit; the clock in moreinfo is ignored"
        )),
    }
}

/// The timing of a move, and a remark when part of the arguments made no
/// sense (it goes to the status line).
pub fn decode(maxtime: f64, info: c_int, moreinfo: c_int) -> (TimeMode, Option<String>) {
    let maxtime_ms = seconds_to_ms(maxtime);
    let (unit, remark) = match clock_unit_us(info) {
        Ok(u) => (u, None),
        Err(e) => (None, Some(e)),
    };
    if let Some(us) = unit {
        let bits = moreinfo as u32;
        let time_ms = u64::from(bits >> 16) * us / 1_000;
        let inc_ms = u64::from(bits & 0xffff) * us / 1_000;
        return (TimeMode::Clock { time_ms, inc_ms }, remark);
    }
    if info & CB_EXACT_TIME != 0 {
        (TimeMode::Exact(maxtime_ms), remark)
    } else {
        (TimeMode::PerMove(maxtime_ms), remark)
    }
}

impl TimeMode {
    /// The limits of the search, as the other front ends give them: a move
    /// time, or the clock (budgeted by `shashki::clock`, the overhead
    /// charged and learned by the engine).
    pub fn limits(self) -> Limits {
        match self {
            TimeMode::Exact(ms) | TimeMode::PerMove(ms) => Limits::movetime(ms),
            TimeMode::Clock { time_ms, inc_ms } => Limits {
                clock: Some(Clock {
                    time_ms,
                    inc_ms,
                    moves_to_go: None,
                }),
                ..Limits::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pydraughts 0.6.7's encoding (engines/checkerboard_extra/engine_64.py),
    /// written out for a time and increment in seconds.
    fn pydraughts(time: f64, inc: f64) -> (c_int, c_int) {
        let (info, t, i) = if time / 0.01 > 32767.0 || inc / 0.01 > 32767.0 {
            (8 | 16, (time / 0.1) as i64, (inc / 0.1) as i64)
        } else if time / 0.001 > 32767.0 || inc / 0.001 > 32767.0 {
            (8, (time / 0.01) as i64, (inc / 0.01) as i64)
        } else {
            (16, (time / 0.001) as i64, (inc / 0.001) as i64)
        };
        (info, ((t << 16) | i) as c_int)
    }

    /// CheckerBoard's format_time_args.
    fn checkerboard(remaining: f64, inc: f64) -> (c_int, c_int) {
        for (i, unit) in [0.001, 0.01, 0.1].iter().enumerate() {
            if remaining.max(inc) <= 65535.0 * unit {
                let r = (remaining / unit) as u32;
                let n = (inc / unit) as u32;
                return (((i + 1) << 2) as c_int, ((r << 16) | n) as c_int);
            }
        }
        unreachable!()
    }

    #[test]
    fn both_clock_encodings_are_read() {
        for (time, inc) in [(1.0, 0.01), (3.0, 0.02), (60.0, 1.0), (900.0, 10.0)] {
            for (who, (info, more)) in [
                ("pydraughts", pydraughts(time, inc)),
                ("checkerboard", checkerboard(time, inc)),
            ] {
                let (mode, remark) = decode(time / 40.0, info, more);
                assert_eq!(remark, None);
                let TimeMode::Clock { time_ms, inc_ms } = mode else {
                    panic!("{who} {time}+{inc}: {mode:?}");
                };
                // Within one unit of the clock (0.1 s at most).
                let t = (time * 1000.0) as u64;
                assert!(
                    time_ms <= t && t - time_ms <= 100,
                    "{who} {time}: {time_ms}"
                );
                let i = (inc * 1000.0) as u64;
                assert!(inc_ms <= i && i - inc_ms <= 100, "{who} {inc}: {inc_ms}");
            }
        }
        // pydraughts 1 s + 10 ms: milliseconds, exactly.
        assert_eq!(
            decode(0.025, 16, (1000 << 16) | 10).0,
            TimeMode::Clock {
                time_ms: 1000,
                inc_ms: 10
            }
        );
    }

    #[test]
    fn fixed_time_exact_time_and_nonsense() {
        assert_eq!(decode(0.5, 0, 0).0, TimeMode::PerMove(500));
        assert_eq!(decode(0.02, CB_EXACT_TIME, 0).0, TimeMode::Exact(20));
        assert_eq!(
            decode(0.02, CB_EXACT_TIME | CB_RESET_MOVES, 0).0,
            TimeMode::Exact(20)
        );
        assert_eq!(decode(f64::NAN, 0, 0).0, TimeMode::PerMove(0));
        assert_eq!(decode(-3.0, 0, 0).0, TimeMode::PerMove(0));
        assert_eq!(decode(1e300, 0, 0).0, TimeMode::PerMove(input::TIME_MS.max));
        let (mode, remark) = decode(0.3, 5 << 2, 12345);
        assert_eq!(mode, TimeMode::PerMove(300));
        assert!(remark.unwrap().contains("101"));
        // The top bit of moreinfo (a clock of 0xffff units) is no sign.
        assert_eq!(
            decode(0.0, 1 << 2, -1).0,
            TimeMode::Clock {
                time_ms: 65535,
                inc_ms: 65535
            }
        );
    }
}

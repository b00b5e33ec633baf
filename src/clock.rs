//! Time management: what one move may spend of a clock, and how much the
//! time between the engine's moves costs outside it.
//!
//! Every move costs more than the engine's thinking: the client reads the
//! reply, updates its clock, sends the next position, and the pipes and the
//! scheduler add their share. That overhead is paid on **every** move, so
//! it is charged per move, not once:
//!
//! * Over a horizon of `H` moves (the moves to the next time control, or
//!   [`horizon`]), the engine can count on the time on its clock and the
//!   `H - 1` increments that arrive before the last of those moves; it pays
//!   the overhead `H` times and keeps a reserve of [`RESERVE_OVERHEADS`]
//!   overheads (at least [`RESERVE_MIN_MS`]) that it never plans to spend.
//!   The soft target of this move is that pool divided by `H`.
//! * The hard limit of this move spends only time that is on the clock now
//!   (no increment before it arrives): at most the clock minus this move's
//!   overhead minus the reserve, and at most four soft targets.
//! * The reserve also covers the worst move the client was seen to cost
//!   lately ([`OverheadMeter::peak_ms`]): a client that usually takes 5 ms
//!   but now and then 40 ms keeps 40 ms back.
//!
//! With an increment the clock then settles at about the reserve plus one
//! increment, and each move spends what the increment brings minus the
//! overhead, instead of draining to zero when the overhead exceeds the part
//! of the increment a plan leaves unspent.
//!
//! The overhead charged is the larger of the `Move Overhead` option and what
//! an [`OverheadMeter`] measured: the drop in the engine's own clock between
//! two consecutive moves of a game, minus the engine's own thinking time
//! between reading `go` and writing its move, is what the client and the
//! pipes took.
//!
//! ```
//! use shashki::clock::Clock;
//! use shashki::clock::Overhead;
//! let clock = Clock { time_ms: 2_000, inc_ms: 20, moves_to_go: None };
//! let b = clock.budget(Overhead::per_move(5));
//! assert!(b.soft_ms <= b.hard_ms);
//! // Never plans past the clock minus this move's overhead and the reserve.
//! assert!(b.hard_ms <= 2_000 - 5 - 15);
//! ```

use crate::position::Position;
use crate::{Color, Move};
use std::time::Duration;

/// Moves the clock is budgeted over when no time control says how many are
/// left (a sudden-death or Fischer clock). 20 spends more of the clock in
/// the opening and middlegame than 30 did, and played stronger (see
/// docs/strength-and-speed.md); with an increment, a long game still
/// settles at the reserve plus one increment.
pub const HORIZON: u32 = 20;
/// The shortest horizon [`horizon`] gives (Russian and Brazilian, from 14
/// pieces on).
pub const HORIZON_MIN: u32 = 10;

/// The horizon a sudden-death or Fischer clock is budgeted over in `pos`.
/// Russian and Brazilian: [`HORIZON`] with 24 pieces on the board, one
/// move less a piece fewer, down to [`HORIZON_MIN`]. The middlegame, where
/// the games are decided, gets more of what is left than the opening did,
/// and an endgame of few pieces, whose search goes deep fast, settles at
/// the reserve plus one increment as before. Adiyukh keeps [`HORIZON`] (a
/// tower counts as one piece on the board however many checkers it holds).
///
/// ```
/// use shashki::clock::{horizon, HORIZON};
/// use shashki::{Position, Variant};
/// let start = Position::start(Variant::Russian);
/// assert_eq!(horizon(&start), HORIZON);
/// ```
pub fn horizon(pos: &Position) -> u32 {
    if pos.variant().is_tower() {
        return HORIZON;
    }
    let pieces = pos.occupied().count_ones();
    pieces.saturating_sub(4).clamp(HORIZON_MIN, HORIZON)
}
/// Overheads kept back from every plan.
pub const RESERVE_OVERHEADS: u64 = 3;
/// The least reserve, in milliseconds, whatever the overhead.
pub const RESERVE_MIN_MS: u64 = 10;
/// Highest overhead a measurement may claim, in milliseconds: a larger drop
/// of the clock than this between two moves is not taken for the client's
/// cost (a paused game, a clock set anew).
pub const MEASURED_MAX_MS: u64 = 1_000;

/// A clock for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left before the flag falls, in milliseconds (this move's
    /// increment not included: it arrives after the move).
    pub time_ms: u64,
    /// Increment per move, in milliseconds.
    pub inc_ms: u64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What every move costs outside the engine, and what is kept back for the
/// moves that cost more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overhead {
    /// Charged for every move (the client, the pipes), in milliseconds.
    pub per_move_ms: u64,
    /// Never planned to be spent, in milliseconds.
    pub reserve_ms: u64,
}

impl Overhead {
    /// `ms` a move, with the least reserve for it: [`RESERVE_OVERHEADS`]
    /// overheads, at least [`RESERVE_MIN_MS`].
    pub fn per_move(ms: u64) -> Overhead {
        Overhead {
            per_move_ms: ms,
            reserve_ms: (ms * RESERVE_OVERHEADS).max(RESERVE_MIN_MS),
        }
    }
}

impl Default for Overhead {
    fn default() -> Overhead {
        Overhead::per_move(0)
    }
}

/// What one move may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Start no new iteration once about this much is spent.
    pub soft_ms: u64,
    /// Never spend more.
    pub hard_ms: u64,
}

impl Clock {
    /// The budget of this move when every move costs `overhead` outside the
    /// engine, over [`HORIZON`] moves when the clock does not say how many
    /// are left. Both limits are at least 1 ms (a move must be found even
    /// on an empty clock).
    pub fn budget(&self, overhead: Overhead) -> Budget {
        self.budget_over(overhead, HORIZON)
    }

    /// [`Clock::budget`] over `default_horizon` moves when the clock does
    /// not say how many are left (see [`horizon`]).
    pub fn budget_over(&self, overhead: Overhead, default_horizon: u32) -> Budget {
        let o = overhead.per_move_ms;
        let reserve = overhead.reserve_ms;
        let horizon = u64::from(self.moves_to_go.unwrap_or(default_horizon).clamp(1, 50));
        // What this move may spend at most: the clock as it stands, less
        // this move's overhead and the reserve.
        let now = self.time_ms.saturating_sub(o + reserve);
        let pool =
            (self.time_ms + self.inc_ms * (horizon - 1)).saturating_sub(o * horizon + reserve);
        let cap = if horizon == 1 {
            now
        } else {
            now.min(self.time_ms / 2)
        };
        let hard = (pool / horizon * 4).min(cap).max(1);
        let soft = (pool / horizon).min(hard).max(1);
        Budget {
            soft_ms: soft,
            hard_ms: hard,
        }
    }
}

/// The last timed move searched for one side, kept to measure the next one
/// against.
#[derive(Clone, Copy, Debug)]
struct Sent {
    clock: Clock,
    /// The position after the move played.
    after: Position,
    /// The engine's own time from reading `go` to writing its move.
    thinking: Duration,
}

/// Learns what the time between two moves costs outside the engine, from
/// the clocks sent with consecutive moves of a game.
///
/// A sample is taken when the engine is asked for a move with a clock, its
/// previous timed search for the same side ran its course, the position is
/// that search's move followed by one reply, and the clock has not risen by
/// more than one increment since (a new time control, a takeback or a new
/// game give no sample). The sample is the drop of the clock, increment
/// added back, minus the engine's own time. Samples rise into the estimate
/// fast (half the difference) and fall slowly (an eighth), so one slow move
/// is remembered for a while and one quick move does not undo it. The
/// largest sample is remembered too, fading by 3% a sample (half in about
/// 23 moves), for the reserve. Each side is followed on its own, so one
/// engine playing both sides learns too.
#[derive(Clone, Debug, Default)]
pub struct OverheadMeter {
    /// Smoothed estimate in milliseconds (0 until the first sample).
    estimate: f64,
    /// The largest recent sample, fading.
    peak: f64,
    /// The last timed move of each side (indexed by [`Color::index`]).
    last: [Option<Sent>; 2],
}

impl OverheadMeter {
    pub fn new() -> OverheadMeter {
        OverheadMeter::default()
    }

    /// The measured overhead per move, rounded up to whole milliseconds.
    pub fn estimate_ms(&self) -> u64 {
        self.estimate.ceil() as u64
    }

    /// The most a move was seen to cost lately, in whole milliseconds.
    pub fn peak_ms(&self) -> u64 {
        self.peak.ceil() as u64
    }

    /// What to charge per move when the option says `option_ms`: the larger
    /// of the option and the estimate, with a reserve that covers the
    /// recent peak.
    pub fn overhead(&self, option_ms: u64) -> Overhead {
        let o = Overhead::per_move(option_ms.max(self.estimate_ms()));
        Overhead {
            reserve_ms: o.reserve_ms.max(self.peak_ms()),
            ..o
        }
    }

    /// A new game: no move is measured against the last game's (what was
    /// learned of the client stays).
    pub fn new_game(&mut self) {
        self.last = [None, None];
    }

    /// A timed search of `pos` with `clock` is about to start: take the
    /// sample it gives, if it follows this side's last one. Returns the
    /// sample in milliseconds.
    pub fn before(&mut self, pos: &Position, clock: &Clock) -> Option<f64> {
        let last = self.last[pos.side_to_move().index()].take()?;
        if clock.time_ms > last.clock.time_ms + last.clock.inc_ms {
            return None;
        }
        // Our move, then one reply, must lead here.
        let after = last.after;
        if !after
            .legal_moves()
            .iter()
            .any(|m| after.play(m).key() == pos.key())
        {
            return None;
        }
        let spent = (last.clock.time_ms + last.clock.inc_ms - clock.time_ms) as f64;
        let lost = (spent - last.thinking.as_secs_f64() * 1000.0).max(0.0);
        if lost > MEASURED_MAX_MS as f64 {
            return None;
        }
        let rate = if lost > self.estimate { 0.5 } else { 0.125 };
        self.estimate += (lost - self.estimate) * rate;
        self.peak = lost.max(self.peak * 0.97);
        Some(lost)
    }

    /// The timed search of `root` with `clock` played `best`, `thinking`
    /// after the engine read `go`.
    pub fn after(&mut self, root: &Position, clock: &Clock, best: &Move, thinking: Duration) {
        self.last[root.side_to_move().index()] = Some(Sent {
            clock: *clock,
            after: root.play(best),
            thinking,
        });
    }

    /// A search of `side` that is not measured (untimed, pondering, stopped
    /// by the client) breaks that side's chain.
    pub fn forget(&mut self, side: Color) {
        self.last[side.index()] = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::Variant;

    fn clock(time_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            time_ms,
            inc_ms,
            moves_to_go,
        }
    }

    #[test]
    fn a_move_never_plans_past_the_clock_less_its_overhead_and_the_reserve() {
        for time in [0, 1, 5, 20, 37, 100, 300, 1_000, 10_000, 600_000] {
            for inc in [0, 2, 3, 10, 20, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(10), Some(40)] {
                    for o in [0, 1, 5, 10, 30, 200] {
                        let b = clock(time, inc, mtg).budget(Overhead::per_move(o));
                        assert!(
                            b.soft_ms >= 1 && b.soft_ms <= b.hard_ms,
                            "{time} {inc} {mtg:?} {o}: {b:?}"
                        );
                        let usable = time.saturating_sub(o + Overhead::per_move(o).reserve_ms);
                        assert!(
                            b.hard_ms <= usable.max(1),
                            "{time} {inc} {mtg:?} {o}: {b:?}"
                        );
                        if mtg != Some(1) {
                            assert!(
                                b.hard_ms <= (time / 2).max(1),
                                "{time} {inc} {mtg:?} {o}: {b:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_horizon_shortens_with_the_pieces_in_russian_and_brazilian_only() {
        use crate::fen::parse_position;
        let pos = |v, text| parse_position(v, text).unwrap();
        for v in [Variant::Russian, Variant::Brazilian] {
            // 24 pieces: the whole horizon; 18: six moves less; 14 and
            // fewer: the shortest.
            assert_eq!(horizon(&Position::start(v)), HORIZON);
            let eighteen = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8";
            assert_eq!(horizon(&pos(v, eighteen)), HORIZON - 6);
            assert_eq!(
                horizon(&pos(v, "W:Wa1,c1,e1,g1,b2,d2,f2:Bb6,d6,f6,h6,a7,c7,e7")),
                HORIZON_MIN
            );
            assert_eq!(horizon(&pos(v, "W:Wa1:Bh8")), HORIZON_MIN);
        }
        for v in [Variant::Adiyukh64, Variant::Adiyukh80] {
            assert_eq!(horizon(&Position::start(v)), HORIZON);
            assert_eq!(horizon(&pos(v, "W:Wa1:Bh8")), HORIZON);
        }
    }

    #[test]
    fn a_shorter_horizon_spends_more_of_a_fischer_clock_but_not_of_moves_to_go() {
        let o = Overhead::per_move(3);
        for (time, inc) in [(1_000, 10), (2_000, 20), (60_000, 0)] {
            let c = clock(time, inc, None);
            let (long, short) = (c.budget_over(o, HORIZON), c.budget_over(o, HORIZON_MIN));
            assert_eq!(long, c.budget(o));
            assert!(
                short.soft_ms > long.soft_ms,
                "{time}+{inc}: {short:?} {long:?}"
            );
            let c = clock(time, inc, Some(30));
            assert_eq!(c.budget_over(o, HORIZON_MIN), c.budget(o));
        }
    }

    #[test]
    fn a_larger_overhead_never_allows_more_time() {
        for time in [50, 300, 2_000, 60_000] {
            for inc in [0, 5, 20] {
                let mut last = clock(time, inc, None).budget(Overhead::per_move(0));
                for o in 1..100 {
                    let b = clock(time, inc, None).budget(Overhead::per_move(o));
                    assert!(b.hard_ms <= last.hard_ms && b.soft_ms <= last.soft_ms);
                    last = b;
                }
            }
        }
    }

    /// Play `moves` moves, each spending `spend(budget)` plus a real
    /// overhead `real_o`, with the budget charging `o`; return the least
    /// clock seen after a move (negative: lost on time).
    fn run(
        base: u64,
        inc: u64,
        o: u64,
        real_o: u64,
        moves: usize,
        spend: impl Fn(Budget) -> u64,
    ) -> i64 {
        let mut t = base as i64;
        let mut least = t;
        for _ in 0..moves {
            let b = clock(t.max(0) as u64, inc, None).budget(Overhead::per_move(o));
            t -= (spend(b) + real_o) as i64;
            least = least.min(t);
            if t < 0 {
                return t;
            }
            t += inc as i64;
        }
        least
    }

    #[test]
    fn the_clock_holds_its_reserve_when_the_overhead_is_charged_per_move() {
        // Spending the whole hard limit every move (the worst an engine
        // does) never goes below the reserve when the overhead charged is
        // the real one and the increment pays for it.
        for (base, inc) in [(500, 5), (200, 2), (300, 3), (2_000, 20), (60_000, 30)] {
            for o in [0, 1, 2, 4, 8, 14, 29] {
                if inc > o {
                    let least = run(base, inc, o, o, 400, |b| b.hard_ms);
                    assert!(
                        least >= Overhead::per_move(o).reserve_ms as i64 - 1,
                        "{base}+{inc} o={o}: {least}"
                    );
                }
            }
        }
        // Where the increment does not pay for the client (0.5 s + 5 ms, a
        // client costing 14 ms a move) the clock drains whatever the engine
        // does, but the soft targets still fit 30 moves.
        assert!(run(500, 5, 14, 14, 30, |b| b.soft_ms) > 0);
    }

    #[test]
    fn the_old_budget_drained_where_this_one_settles() {
        // The budget before this module: left / 30 + 3/4 of the increment,
        // the overhead taken once. A client costing 4 ms a move at
        // 0.5 s + 5 ms drains it to nothing; charged per move it settles.
        let old = |t: u64, inc: u64, o: u64| (t.saturating_sub(o) / 30 + inc * 3 / 4).max(1);
        let mut t: i64 = 500;
        let mut lost = false;
        for _ in 0..200 {
            t -= (old(t.max(0) as u64, 5, 4) + 4) as i64;
            if t < 0 {
                lost = true;
                break;
            }
            t += 5;
        }
        assert!(lost, "the old budget was expected to flag");
        assert!(run(500, 5, 4, 4, 200, |b| b.soft_ms) >= Overhead::per_move(4).reserve_ms as i64);
    }

    #[test]
    fn the_meter_learns_what_the_client_takes_between_moves() {
        let mut game = Game::new(Variant::Russian);
        let mut meter = OverheadMeter::new();
        let mut t = 10_000u64;
        let inc = 10;
        // Each move: the engine thinks 50 ms, the client adds 12 ms.
        for ply in 0..20 {
            let pos = *game.position();
            let c = clock(t, inc, None);
            let sample = meter.before(&pos, &c);
            if ply >= 2 && pos.side_to_move() == crate::Color::White {
                let s = sample.expect("a sample for a move that follows the last");
                assert!((s - 12.0).abs() < 1e-6, "ply {ply}: sample {s}");
            }
            let best = pos.legal_moves()[0];
            if pos.side_to_move() == crate::Color::White {
                meter.after(&pos, &c, &best, Duration::from_millis(50));
                t = t - 62 + inc;
            } else {
                meter.forget(crate::Color::Black);
            }
            game.play(&best).unwrap();
        }
        assert_eq!(meter.estimate_ms(), 12);
        // One slow move raises the estimate by half the difference; a quick
        // one lowers it by an eighth.
        let mut m = OverheadMeter {
            estimate: 10.0,
            peak: 0.0,
            last: [None, None],
        };
        let pos = *game.position();
        let side = pos.side_to_move();
        let best = pos.legal_moves()[0];
        let reply_pos = pos.play(&best);
        let reply = reply_pos.legal_moves()[0];
        let next = reply_pos.play(&reply);
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        assert_eq!(m.before(&next, &clock(870, 0, None)), Some(30.0));
        assert_eq!(m.estimate_ms(), 20);
        assert_eq!(m.peak_ms(), 30);
        // Charged: the estimate (above an option of 5 ms), with a reserve
        // of three estimates or the peak, whichever is more.
        assert_eq!(
            m.overhead(5),
            Overhead {
                per_move_ms: 20,
                reserve_ms: 60
            }
        );
        assert_eq!(
            m.overhead(50),
            Overhead {
                per_move_ms: 50,
                reserve_ms: 150
            }
        );
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        assert_eq!(m.before(&next, &clock(900, 0, None)), Some(0.0));
        assert_eq!(m.estimate_ms(), 18);
        assert_eq!(m.peak_ms(), 30); // 29.1, fading
        assert_eq!(
            m.overhead(0),
            Overhead {
                per_move_ms: 18,
                reserve_ms: 54
            }
        );
        // Not a continuation: another position, a clock that rose, the
        // other side, a new game, or a search that was not measured.
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        assert_eq!(m.before(&reply_pos, &clock(800, 0, None)), None);
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        assert_eq!(m.before(&next, &clock(1_200, 0, None)), None);
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        m.new_game();
        assert_eq!(m.before(&next, &clock(800, 0, None)), None);
        m.after(
            &pos,
            &clock(1_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        m.forget(side);
        assert_eq!(m.before(&next, &clock(800, 0, None)), None);
        // An implausible drop (a paused game) is no sample.
        m.after(
            &pos,
            &clock(100_000, 0, None),
            &best,
            Duration::from_millis(100),
        );
        assert_eq!(m.before(&next, &clock(50_000, 0, None)), None);
        assert_eq!(m.estimate_ms(), 18);
    }
}

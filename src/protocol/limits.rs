//! The limits of a search on the wire: what a client sends and what the
//! server reads, turned into the search's [`Limits`].
//!
//! * UCI ([`Go`]): `go [ponder] [depth <plies>] [movetime <ms>] [nodes <n>]
//!   [wtime <ms> btime <ms> [winc <ms>] [binc <ms>] [movestogo <n>]]
//!   [infinite] [searchmoves <move> ...]`. The clock of the side to move is
//!   used.
//! * Hub ([`Level`]): `level [depth=<plies>] [nodes=<n>]
//!   [move-time=<seconds>] [[moves=<n>] time=<seconds> [inc=<seconds>]]` or
//!   `level infinite`, on one line or several; the increment is taken as
//!   already due for this move (Scan's rule).
//!
//! One rule for numbers ([`crate::input`]): out of range is an error naming
//! the range; only a negative clock time counts as zero (a GUI whose clock
//! flagged still gets a move).

use super::hub::{seconds_text, Line};
use crate::board::Color;
use crate::input::{self, quote, Range};
use crate::notation;
use crate::position::Position;
use crate::search::{Clock, Limits};

/// The words of `go`: they end a `searchmoves` list.
const KEYWORDS: [&str; 11] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
];

/// Longest time accepted in `level`, in seconds (a year, as in UCI).
const MAX_SECONDS: f64 = (input::TIME_MS.max / 1000) as f64;

/// The UCI `go` command: the limits as the wire carries them (times in
/// milliseconds, both sides' clocks, moves as texts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search the expected reply until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Search only these moves (all when empty).
    pub searchmoves: Vec<String>,
}

impl Go {
    /// A Fischer clock: White's and Black's time left and increments (ms).
    pub fn clock(wtime: u64, btime: u64, winc: u64, binc: u64) -> Go {
        Go {
            wtime: Some(wtime),
            btime: Some(btime),
            winc: Some(winc),
            binc: Some(binc),
            ..Go::default()
        }
    }

    /// The clock of `side`: its time left and increment, when it has one.
    pub fn clock_of(&self, side: Color) -> Option<(u64, u64)> {
        let (time, inc) = match side {
            Color::White => (self.wtime, self.winc),
            Color::Black => (self.btime, self.binc),
        };
        time.map(|t| (t, inc.unwrap_or(0)))
    }

    /// Read the arguments of `go` (the words after it).
    pub fn parse(args: &[&str]) -> Result<Go, String> {
        let mut go = Go::default();
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let mut number = |range: Range, negative_is_zero: bool| -> Result<u64, String> {
                let v = args
                    .get(i + 1)
                    .ok_or_else(|| format!("go: '{key}' needs {}", range.describe()))?;
                i += 1;
                let negative =
                    v.len() > 1 && v.starts_with('-') && v[1..].bytes().all(|b| b.is_ascii_digit());
                if negative && negative_is_zero {
                    return Ok(0);
                }
                range
                    .parse(v)
                    .map_err(|wanted| format!("go: '{key}' needs {wanted}, not '{}'", quote(v)))
            };
            match key {
                "wtime" => go.wtime = Some(number(input::TIME_MS, true)?),
                "btime" => go.btime = Some(number(input::TIME_MS, true)?),
                "winc" => go.winc = Some(number(input::TIME_MS, false)?),
                "binc" => go.binc = Some(number(input::TIME_MS, false)?),
                "movestogo" => go.movestogo = Some(number(input::MOVES_TO_GO, false)? as u32),
                "movetime" => go.movetime = Some(number(input::TIME_MS, false)?),
                "depth" => go.depth = Some(number(input::DEPTH, false)? as u32),
                "nodes" => go.nodes = Some(number(input::NODES, false)?),
                "infinite" => go.infinite = true,
                "ponder" => go.ponder = true,
                "searchmoves" => {
                    let mut j = i + 1;
                    while j < args.len() && !KEYWORDS.contains(&args[j]) {
                        go.searchmoves.push(args[j].to_string());
                        j += 1;
                    }
                    if go.searchmoves.is_empty() {
                        return Err("go: 'searchmoves' needs at least one move".into());
                    }
                    i = j - 1;
                }
                other => return Err(format!("go: unknown parameter '{}'", quote(other))),
            }
            i += 1;
        }
        Ok(go)
    }

    /// The search's limits in `pos` (the clock of its side to move, the
    /// `searchmoves` read as its moves); no limit means until `stop`.
    pub fn limits(&self, pos: &Position, multipv: usize) -> Result<Limits, String> {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.movetime,
            infinite: self.infinite,
            multipv,
            ..Limits::default()
        };
        for text in &self.searchmoves {
            let m = notation::parse_move(pos, text).map_err(|e| format!("go searchmoves: {e}"))?;
            limits.searchmoves.push(m);
        }
        if let Some((time_ms, inc_ms)) = self.clock_of(pos.side_to_move()) {
            limits.clock = Some(Clock {
                time_ms,
                inc_ms,
                moves_to_go: self.movestogo,
            });
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime_ms.is_none()
            && limits.clock.is_none()
        {
            limits.infinite = true;
        }
        Ok(limits)
    }
}

/// The command as sent: `go`, then the limits given, in this order.
impl std::fmt::Display for Go {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("go")?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        let figures = [
            ("depth", self.depth.map(u64::from)),
            ("movetime", self.movetime),
            ("nodes", self.nodes),
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
            ("movestogo", self.movestogo.map(u64::from)),
        ];
        for (name, value) in figures {
            if let Some(v) = value {
                write!(f, " {name} {v}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

/// The limits that Hub's `level` lines give for the next `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub move_time_ms: Option<u64>,
    /// Moves to the next time control (with `time`).
    pub moves: Option<u32>,
    pub time_ms: Option<u64>,
    /// The increment, due for this move already.
    pub inc_ms: Option<u64>,
    pub infinite: bool,
}

impl Level {
    /// The level a client sends for `go` when `side` is to move. On a
    /// Fischer clock the engine is given its clock less this move's
    /// increment (Hub counts the increment as due for this move already;
    /// a clock holding less than one increment goes whole as the
    /// increment). `go`'s `infinite` is Hub's `go analyze`, not a level.
    pub fn of_go(go: &Go, side: Color) -> Level {
        let mut level = Level {
            depth: go.depth,
            nodes: go.nodes,
            move_time_ms: go.movetime,
            ..Level::default()
        };
        if let Some((t, i)) = go.clock_of(side) {
            let (t, i) = if t >= i { (t - i, i) } else { (0, t) };
            level.time_ms = Some(t);
            level.inc_ms = Some(i);
            level.moves = go.movestogo;
        }
        level
    }

    /// The `level` line; `None` when it gives no limit.
    pub fn line(&self) -> Option<Line> {
        let mut l = Line::new("level")
            .arg_opt("depth", self.depth)
            .arg_opt("nodes", self.nodes)
            .arg_opt("move-time", self.move_time_ms.map(seconds_text))
            .arg_opt("moves", self.moves)
            .arg_opt("time", self.time_ms.map(seconds_text))
            .arg_opt("inc", self.inc_ms.map(seconds_text));
        if self.infinite {
            l = l.flag("infinite");
        }
        (!l.args.is_empty()).then_some(l)
    }

    /// Take in one `level` line (the server's reading): the limits it
    /// gives are added to these; `infinite` drops the ones before it. A bad
    /// line is an error and changes nothing.
    pub fn read(&mut self, line: &Line) -> Result<(), String> {
        let mut level = self.clone();
        let mut known = false;
        for (key, _) in &line.args {
            let key = key.as_str();
            let v = || -> Result<&str, String> {
                line.value(key)?
                    .ok_or_else(|| format!("level: '{key}' needs a value"))
            };
            match key {
                "depth" => level.depth = Some(int_value("level depth", v()?, input::DEPTH)? as u32),
                "nodes" => level.nodes = Some(int_value("level nodes", v()?, input::NODES)?),
                "move-time" => {
                    level.move_time_ms = Some(seconds_value("level move-time", v()?, false)?)
                }
                "time" => level.time_ms = Some(seconds_value("level time", v()?, true)?),
                "inc" => level.inc_ms = Some(seconds_value("level inc", v()?, false)?),
                "moves" => {
                    level.moves = Some(int_value("level moves", v()?, input::MOVES_TO_GO)? as u32)
                }
                "infinite" => {
                    // No limit: drops the limits given before it.
                    level = Level {
                        infinite: true,
                        ..Level::default()
                    };
                    known = true;
                    continue;
                }
                "ponder" => {}
                _ => continue,
            }
            if key != "ponder" {
                level.infinite = false;
            }
            known = true;
        }
        if !known {
            return Err(
                "level: no limit given (expected depth=, nodes=, move-time=, [moves=] time= [inc=], or infinite)"
                    .into(),
            );
        }
        if level.time_ms.is_none() && (level.moves.is_some() || level.inc_ms.is_some()) {
            return Err("level: 'moves' and 'inc' need 'time' as well".into());
        }
        *self = level;
        Ok(())
    }

    /// The search's limits; no limit means until `stop`.
    pub fn limits(&self) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms: self.move_time_ms,
            infinite: self.infinite,
            multipv: 1,
            ..Limits::default()
        };
        if let Some(t) = self.time_ms {
            let inc = self.inc_ms.unwrap_or(0);
            limits.clock = Some(Clock {
                // The increment of this move is already due (Hub's rule).
                time_ms: t.saturating_add(inc),
                inc_ms: inc,
                moves_to_go: self.moves.filter(|&m| m > 0),
            });
        }
        if limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime_ms.is_none()
            && limits.clock.is_none()
        {
            limits.infinite = true;
        }
        limits
    }
}

/// Parse a whole number in `range`; the error names the range.
pub fn int_value(what: &str, v: &str, range: Range) -> Result<u64, String> {
    range
        .parse(v)
        .map_err(|wanted| format!("{what}: '{}' is not {wanted}", quote(v)))
}

/// Parse seconds (a real number) as milliseconds. Negative values count as
/// zero when `negative_is_zero` (a clock that ran out).
fn seconds_value(what: &str, v: &str, negative_is_zero: bool) -> Result<u64, String> {
    let bad = || {
        format!(
            "{what}: '{}' is not a number of seconds from 0 to {MAX_SECONDS}",
            quote(v)
        )
    };
    let plain = !v.is_empty()
        && v.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    let s: f64 = if plain {
        v.parse().map_err(|_| bad())?
    } else {
        0.0
    };
    if !plain || !s.is_finite() || s > MAX_SECONDS {
        return Err(bad());
    }
    if s < 0.0 {
        return if negative_is_zero { Ok(0) } else { Err(bad()) };
    }
    Ok((s * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;
    use proptest::prelude::*;

    #[test]
    fn go_commands() {
        let g = Go {
            depth: Some(5),
            ..Go::clock(1000, 2000, 10, 20)
        };
        assert_eq!(
            g.to_string(),
            "go depth 5 wtime 1000 btime 2000 winc 10 binc 20"
        );
        let g = Go {
            infinite: true,
            ..Go::default()
        };
        assert_eq!(g.to_string(), "go infinite");
        assert_eq!(Go::default().to_string(), "go");
        let g = Go::parse(&[
            "wtime",
            "-100",
            "btime",
            "5",
            "searchmoves",
            "c3-d4",
            "depth",
            "3",
        ])
        .unwrap();
        assert_eq!((g.wtime, g.btime, g.depth), (Some(0), Some(5), Some(3)));
        assert_eq!(g.searchmoves, ["c3-d4"]);
        for (bad, why) in [
            (
                &["depth"][..],
                "go: 'depth' needs a whole number from 1 to 1000",
            ),
            (
                &["depth", "0"],
                "go: 'depth' needs a whole number from 1 to 1000, not '0'",
            ),
            (
                &["winc", "-1"],
                "go: 'winc' needs a whole number from 0 to 31536000000, not '-1'",
            ),
            (
                &["searchmoves", "depth", "2"],
                "go: 'searchmoves' needs at least one move",
            ),
            (&["mate", "3"], "go: unknown parameter 'mate'"),
        ] {
            assert_eq!(Go::parse(bad), Err(why.to_string()));
        }
    }

    #[test]
    fn go_limits_take_the_movers_clock() {
        let pos = Position::start(Variant::Russian);
        let g = Go::clock(1000, 2000, 10, 20);
        let l = g.limits(&pos, 1).unwrap();
        assert_eq!(l.clock.map(|c| (c.time_ms, c.inc_ms)), Some((1000, 10)));
        assert!(!l.infinite);
        let black = pos.play(&pos.legal_moves()[0]);
        let l = g.limits(&black, 3).unwrap();
        assert_eq!(l.clock.map(|c| (c.time_ms, c.inc_ms)), Some((2000, 20)));
        assert_eq!(l.multipv, 3);
        assert!(Go::default().limits(&pos, 1).unwrap().infinite);
        let only = Go {
            searchmoves: vec!["c3-d4".into()],
            depth: Some(2),
            ..Go::default()
        };
        assert_eq!(only.limits(&pos, 1).unwrap().searchmoves.len(), 1);
        let wrong = Go {
            searchmoves: vec!["c3-c4".into()],
            ..Go::default()
        };
        assert!(wrong
            .limits(&pos, 1)
            .unwrap_err()
            .starts_with("go searchmoves: "));
    }

    #[test]
    fn levels() {
        let text = |go: &Go, side| Level::of_go(go, side).line().map(|l| l.to_string());
        let g = Go {
            depth: Some(5),
            movetime: Some(1500),
            ..Go::default()
        };
        assert_eq!(
            text(&g, Color::White).unwrap(),
            "level depth=5 move-time=1.500"
        );
        let g = Go::clock(60_000, 30_000, 2_000, 1_000);
        assert_eq!(
            text(&g, Color::Black).unwrap(),
            "level time=29.000 inc=1.000"
        );
        assert_eq!(
            text(&g, Color::White).unwrap(),
            "level time=58.000 inc=2.000"
        );
        // Less than one increment left: the whole clock is the increment.
        let g = Go::clock(1_500, 0, 2_000, 1_000);
        assert_eq!(
            text(&g, Color::White).unwrap(),
            "level time=0.000 inc=1.500"
        );
        assert_eq!(
            text(&g, Color::Black).unwrap(),
            "level time=0.000 inc=0.000"
        );
        let g = Go {
            infinite: true,
            ..Go::default()
        };
        assert_eq!(text(&g, Color::White), None);
    }

    #[test]
    fn levels_are_read_as_the_server_reads_them() {
        let read = |lines: &[&str]| -> Result<Level, String> {
            let mut level = Level::default();
            for l in lines {
                level.read(&Line::parse(l).unwrap().unwrap())?;
            }
            Ok(level)
        };
        let l = read(&["level depth=3", "level time=-1 inc=0.5"]).unwrap();
        assert_eq!(
            (l.depth, l.time_ms, l.inc_ms),
            (Some(3), Some(0), Some(500))
        );
        let c = l.limits().clock.unwrap();
        assert_eq!((c.time_ms, c.inc_ms), (500, 500));
        let l = read(&["level depth=3 infinite"]).unwrap();
        assert_eq!(
            l,
            Level {
                infinite: true,
                ..Level::default()
            }
        );
        assert!(l.limits().infinite);
        let l = read(&["level infinite depth=3"]).unwrap();
        assert!(!l.infinite && l.depth == Some(3));
        for (bad, why) in [
            ("level", "level: no limit given"),
            ("level depth", "level: 'depth' needs a value (depth=...)"),
            (
                "level inc=1",
                "level: 'moves' and 'inc' need 'time' as well",
            ),
            (
                "level time=x",
                "level time: 'x' is not a number of seconds from 0 to 31536000",
            ),
            (
                "level move-time=-1",
                "level move-time: '-1' is not a number of seconds",
            ),
            (
                "level nodes=0",
                "level nodes: '0' is not a whole number from 1 to",
            ),
        ] {
            let e = read(&[bad]).unwrap_err();
            assert!(e.starts_with(why), "{bad}: {e}");
        }
    }

    proptest! {
        /// What a client writes, the server reads back as it was meant.
        #[test]
        fn go_reads_back(
            depth in proptest::option::of(1..=1000u32),
            movetime in proptest::option::of(0..=input::TIME_MS.max),
            nodes in proptest::option::of(1..=input::NODES.max),
            clock in proptest::option::of(proptest::array::uniform4(0..=input::TIME_MS.max)),
            movestogo in proptest::option::of(0..=10_000u32),
            infinite: bool,
            ponder: bool,
            searchmoves in proptest::collection::vec("[a-h][1-8]-[a-h][1-8]", 0..4),
        ) {
            let mut go = Go { depth, movetime, nodes, movestogo, infinite, ponder, searchmoves, ..Go::default() };
            if let Some([w, b, wi, bi]) = clock {
                (go.wtime, go.btime, go.winc, go.binc) = (Some(w), Some(b), Some(wi), Some(bi));
            }
            let text = go.to_string();
            let words: Vec<&str> = text.split_whitespace().skip(1).collect();
            prop_assert_eq!(Go::parse(&words), Ok(go));
        }

        #[test]
        fn level_reads_back(
            depth in proptest::option::of(1..=1000u32),
            nodes in proptest::option::of(1..=input::NODES.max),
            move_time_ms in proptest::option::of(0..=input::TIME_MS.max),
            clock in proptest::option::of((0..=input::TIME_MS.max, 0..=input::TIME_MS.max)),
            moves in proptest::option::of(0..=10_000u32),
        ) {
            let mut level = Level { depth, nodes, move_time_ms, ..Level::default() };
            if let Some((t, i)) = clock {
                level.time_ms = Some(t);
                level.inc_ms = Some(i);
                level.moves = moves;
            }
            let mut read = Level::default();
            match level.line() {
                Some(line) => {
                    read.read(&Line::parse(&line.to_string()).unwrap().unwrap()).unwrap();
                    prop_assert_eq!(read, level);
                }
                None => prop_assert_eq!(level, Level::default()),
            }
        }
    }
}

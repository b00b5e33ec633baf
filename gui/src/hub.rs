//! The Hub protocol (Scan's, version 2) as this program speaks it to an
//! engine: its lines split into a command and `name=value` arguments, the
//! engine's lines read ([`Said`]), and the texts sent: positions, moves and
//! limits. [`crate::engine`] runs the conversation.
//!
//! Positions and moves: Russian and Brazilian positions go as Scan's
//! 33-character string (the side to move, then squares 1 = b8 to 32 = g1);
//! moves are numbered in the same order (`22-18`, `22x15x18`: from, to, then
//! each captured square). An engine with a `move-numbers` parameter (as
//! `shashki hub` has) is set to `pdn`, that order. The engine's moves may
//! also be algebraic. Adiyukh has no Hub convention: positions go as
//! shashki's position text and moves as algebraic paths, which only
//! `shashki hub` reads.

use crate::engine::Limits;
use crate::info::{Info, Score};
use shashki::notation::hub::{self as engine_hub, MoveNumbers};
use shashki::{notation, Color, Move, Position};

/// How this program numbers 8x8 squares in Hub moves.
pub const NUMBERS: MoveNumbers = MoveNumbers::Pdn;

/// One line of the protocol: its command and its arguments (a flag has no
/// value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HubLine {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// The value of an argument (the last one of that name).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// Split a line: the command, then `name`, `name=value` or `name="value"`
/// arguments. Never fails: an unclosed quote runs to the end of the line.
pub fn split(line: &str) -> HubLine {
    let mut chars = line.trim().chars().peekable();
    let mut out = HubLine::default();
    let mut first = true;
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return out;
        }
        let mut name = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_whitespace() || c == '=' {
                break;
            }
            name.push(c);
            chars.next();
        }
        let value = if chars.peek() == Some(&'=') {
            chars.next();
            let mut v = String::new();
            if chars.peek() == Some(&'"') {
                chars.next();
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    v.push(c);
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() {
                        break;
                    }
                    v.push(c);
                    chars.next();
                }
            }
            Some(v)
        } else {
            None
        };
        if first {
            out.command = name;
            first = false;
        } else {
            out.args.push((name, value));
        }
    }
}

/// A value as an argument: bare when it can be, else in double quotes
/// (the engine crate's writer).
pub use shashki::hub::value_text as value;

/// What one line of the engine says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// `id name=... version=...`: the name (and version).
    Id(String),
    /// `param name=... values="..." min=... max=...`.
    Param {
        name: String,
        values: Vec<String>,
        min: Option<i64>,
        max: Option<i64>,
    },
    Wait,
    Ready,
    Pong,
    /// `info` with search figures (converted by [`info`]).
    Info(HubLine),
    /// `info string=...` or an `info` line without figures.
    Text(String),
    /// `done move=... [ponder=...]`: the move text as sent.
    Done(Option<String>),
    /// `error message=...`.
    Error(String),
    Other,
}

/// Read one line of the engine.
pub fn parse(line: &str) -> Said {
    let l = split(line);
    match l.command.as_str() {
        "id" => {
            let name = l.get("name").unwrap_or("").trim().to_string();
            match l.get("version").map(str::trim).filter(|v| !v.is_empty()) {
                Some(v) if !name.is_empty() => Said::Id(format!("{name} {v}")),
                _ if !name.is_empty() => Said::Id(name),
                _ => Said::Other,
            }
        }
        "param" => match l.get("name") {
            Some(name) => Said::Param {
                name: name.to_string(),
                values: l
                    .get("values")
                    .map(|v| v.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
                min: l.get("min").and_then(|v| v.parse().ok()),
                max: l.get("max").and_then(|v| v.parse().ok()),
            },
            None => Said::Other,
        },
        "wait" => Said::Wait,
        "ready" => Said::Ready,
        "pong" => Said::Pong,
        "info" => {
            let figures = ["depth", "score", "pv", "nodes"]
                .iter()
                .any(|n| l.get(n).is_some());
            if figures {
                Said::Info(l)
            } else {
                Said::Text(l.get("string").unwrap_or("").to_string())
            }
        }
        "done" => Said::Done(
            l.get("move")
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string),
        ),
        "error" => Said::Error(
            l.get("message")
                .map(str::to_string)
                .unwrap_or_else(|| line.trim().to_string()),
        ),
        _ => Said::Other,
    }
}

/// A Hub score (men, from the side to move's view; a win in `p` plies is
/// `(10000 - p) / 100`) as this program's score.
pub fn score(text: &str) -> Option<Score> {
    let men: f64 = text.trim().parse().ok()?;
    if !men.is_finite() {
        return None;
    }
    let h = (men * 100.0).round().clamp(-1e7, 1e7) as i64;
    if h.abs() > 9_000 {
        let plies = (10_000 - h.abs()).max(1);
        return Some(if h > 0 {
            Score::Win((plies + 1) / 2)
        } else {
            Score::Loss((plies / 2).max(1))
        });
    }
    Some(Score::Cp(h))
}

/// An engine's move as this program's move text, if it is legal in `pos`.
pub fn our_move(pos: &Position, text: &str) -> Option<(Move, String)> {
    let mv = engine_hub::parse_move(pos, text, NUMBERS).ok()?;
    Some((mv, notation::move_text(pos, &mv)))
}

/// An `info` line of a search of `pos`: figures converted (seconds to
/// milliseconds, millions of nodes a second to nodes), the line's moves to
/// this program's texts (up to the first that is not legal).
pub fn info(line: &HubLine, pos: &Position) -> Info {
    let int = |n: &str| line.get(n).and_then(|v| v.trim().parse::<u64>().ok());
    let float = |n: &str| {
        line.get(n)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|x| x.is_finite() && *x >= 0.0)
    };
    let small = |n: &str| int(n).map(|v| v.min(u32::MAX as u64) as u32);
    let mut pv = Vec::new();
    let mut p = *pos;
    for text in line.get("pv").unwrap_or("").split_whitespace() {
        let Some((mv, t)) = our_move(&p, text) else {
            break;
        };
        pv.push(t);
        p.make(&mv);
    }
    Info {
        depth: small("depth"),
        seldepth: small("seldepth"),
        multipv: None,
        score: line.get("score").and_then(score),
        nodes: int("nodes"),
        nps: float("nps").map(|m| (m * 1e6).round().min(u64::MAX as f64) as u64),
        time: float("time").map(|s| (s * 1000.0).round().min(u64::MAX as f64) as u64),
        pv,
    }
}

/// The `pos` command for a game: its start, then its moves in Hub form;
/// and the position after them.
pub fn position_command(start: &Position, line: &[Move]) -> (String, Position) {
    let mut s = format!("pos pos={}", value(&shashki::fen::hub_position_text(start)));
    let mut p = *start;
    let mut texts = Vec::with_capacity(line.len());
    for mv in line {
        texts.push(engine_hub::move_text(&p, mv, NUMBERS));
        p.make(mv);
    }
    if !texts.is_empty() {
        s += &format!(" moves={}", value(&texts.join(" ")));
    }
    (s, p)
}

/// Seconds as the protocol writes them, from milliseconds.
fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// The `level` command for a search's limits (`None`: no limit, an
/// infinite search). On a Fischer clock the engine is given the clock of
/// `side` less this move's increment: Hub counts the increment as due for
/// this move already, while the page adds it after the move.
pub fn level(limits: &Limits, side: Color) -> Option<String> {
    let mut s = String::from("level");
    if let Some(d) = limits.depth {
        s += &format!(" depth={d}");
    }
    if let Some(n) = limits.nodes {
        s += &format!(" nodes={n}");
    }
    if let Some(t) = limits.movetime {
        s += &format!(" move-time={}", seconds(t));
    }
    if let Some([wt, bt, wi, bi]) = limits.clock {
        let (t, i) = match side {
            Color::White => (wt, wi),
            Color::Black => (bt, bi),
        };
        // A clock holding less than one increment: all of it as the increment.
        let (t, i) = if t >= i { (t - i, i) } else { (0, t) };
        s += &format!(" time={} inc={}", seconds(t), seconds(i));
    }
    (s != "level").then_some(s)
}

/// `tt-size` (log2 of 16-byte entries: 16 is 1 MiB) for a table of about
/// `mib` MiB, within the parameter's range.
pub fn tt_size(mib: u32, min: Option<i64>, max: Option<i64>) -> i64 {
    let log = 31 - mib.max(1).leading_zeros() as i64; // floor(log2)
    let v = 16 + log;
    v.clamp(
        min.unwrap_or(i64::MIN),
        max.unwrap_or(i64::MAX).max(min.unwrap_or(i64::MIN)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use shashki::{fen, Variant};

    #[test]
    fn lines_are_split() {
        let l = split(
            r#"param name=variant value=russian type=enum values="russian brazilian" ponder"#,
        );
        assert_eq!(l.command, "param");
        assert_eq!(l.get("values"), Some("russian brazilian"));
        assert_eq!(l.get("type"), Some("enum"));
        assert!(l.args.iter().any(|(n, v)| n == "ponder" && v.is_none()));
        assert_eq!(split("").command, "");
        let l = split(r#"error message="unclosed"#);
        assert_eq!(l.get("message"), Some("unclosed"));
        assert_eq!(value("a b"), "\"a b\"");
        assert_eq!(value(""), "\"\"");
        assert_eq!(value("W:Wa1,c3-2/1:B"), "W:Wa1,c3-2/1:B");
        assert_eq!(value("say \"x\""), "\"say 'x'\"");
    }

    #[test]
    fn engine_lines() {
        assert_eq!(
            parse(r#"id name=shashki version=0.1.0 author="x y""#),
            Said::Id("shashki 0.1.0".into())
        );
        assert_eq!(
            parse(r#"param name=tt-size value=22 type=int min=16 max=32"#),
            Said::Param {
                name: "tt-size".into(),
                values: vec![],
                min: Some(16),
                max: Some(32)
            }
        );
        assert_eq!(
            parse("done move=21-17 ponder=11-14"),
            Said::Done(Some("21-17".into()))
        );
        assert_eq!(parse("done"), Said::Done(None));
        assert_eq!(
            parse(r#"error message="unknown command 'x'""#),
            Said::Error("unknown command 'x'".into())
        );
        assert_eq!(
            parse(r#"info string="move overhead: 14 ms""#),
            Said::Text("move overhead: 14 ms".into())
        );
        assert!(matches!(
            parse("info depth=3 score=0.10 pv=21-17"),
            Said::Info(_)
        ));
        for junk in ["", "id", "param", "info", "=", "x=\"", "done move="] {
            let _ = parse(junk);
        }
    }

    #[test]
    fn scores() {
        assert_eq!(score("0.12"), Some(Score::Cp(12)));
        assert_eq!(score("-1.05"), Some(Score::Cp(-105)));
        assert_eq!(score("99.99"), Some(Score::Win(1)));
        assert_eq!(score("99.97"), Some(Score::Win(2)));
        assert_eq!(score("-99.98"), Some(Score::Loss(1)));
        assert_eq!(score("-99.96"), Some(Score::Loss(2)));
        assert_eq!(score("x"), None);
        assert_eq!(score("NaN"), None);
    }

    #[test]
    fn positions_moves_and_info() {
        let start = Position::start(Variant::Russian);
        let c3d4 = notation::parse_move(&start, "c3-d4").unwrap();
        let (cmd, after) = position_command(&start, &[c3d4]);
        assert_eq!(cmd, "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=22-18");
        assert_eq!(after.side_to_move(), Color::Black);
        // A reply numbered as the position string: f6-g5 is 11-16, f6-e5 11-15.
        assert_eq!(our_move(&after, "11-15").unwrap().1, "f6-e5");
        assert_eq!(our_move(&after, "f6-g5").unwrap().1, "f6-g5");
        assert!(our_move(&after, "22-18").is_none());
        let l = split(
            r#"info depth=7 seldepth=12 score=-0.25 nodes=1000 time=0.084 nps=6.90 pv="11-15 18x11 8x15 junk 1-2""#,
        );
        let i = info(&l, &after);
        assert_eq!(i.depth, Some(7));
        assert_eq!(i.seldepth, Some(12));
        assert_eq!(i.score, Some(Score::Cp(-25)));
        assert_eq!(i.time, Some(84));
        assert_eq!(i.nps, Some(6_900_000));
        assert_eq!(i.pv, ["f6-e5", "d4:f6", "g7:e5"]);
        // Adiyukh: the position text and algebraic moves.
        let a = fen::parse_position(Variant::Adiyukh80, "W:Wc3-2/1:Bj8").unwrap();
        let (cmd, _) = position_command(&a, &[]);
        assert!(cmd.starts_with("pos pos=W:W"), "{cmd}");
    }

    #[test]
    fn levels() {
        let l = Limits {
            depth: Some(5),
            movetime: Some(1500),
            ..Limits::default()
        };
        assert_eq!(
            level(&l, Color::White).unwrap(),
            "level depth=5 move-time=1.500"
        );
        let l = Limits {
            clock: Some([60_000, 30_000, 2_000, 1_000]),
            ..Limits::default()
        };
        assert_eq!(
            level(&l, Color::Black).unwrap(),
            "level time=29.000 inc=1.000"
        );
        assert_eq!(
            level(&l, Color::White).unwrap(),
            "level time=58.000 inc=2.000"
        );
        // Less than one increment left: the whole clock is the increment.
        let l = Limits {
            clock: Some([1_500, 0, 2_000, 1_000]),
            ..Limits::default()
        };
        assert_eq!(
            level(&l, Color::White).unwrap(),
            "level time=0.000 inc=1.500"
        );
        assert_eq!(
            level(&l, Color::Black).unwrap(),
            "level time=0.000 inc=0.000"
        );
        let l = Limits {
            infinite: true,
            ..Limits::default()
        };
        assert_eq!(level(&l, Color::White), None);
        assert_eq!(tt_size(16, Some(16), Some(32)), 20);
        assert_eq!(tt_size(64, Some(16), Some(32)), 22);
        assert_eq!(tt_size(1, Some(18), Some(32)), 18);
        assert_eq!(tt_size(65536, None, Some(24)), 24);
    }
}

//! The engine's output lines in the UCI-like protocol (PROTOCOL.md), read
//! into values: `info` lines of a search, `bestmove`, `info string` errors,
//! and the handshake's `id name` and `option` lines.
//!
//! Parsing never panics; a token it does not know is skipped, so engines
//! that say more than this program reads still work.

use serde::Serialize;

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centi-men (Adiyukh: hundredths of a point of the expected count).
    Cp(i64),
    /// A forced win in this many moves.
    Win(i64),
    /// A forced loss in this many moves.
    Loss(i64),
}

impl Score {
    /// The same score from the other side's view.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(n) => Score::Cp(-n),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
        }
    }
}

/// One `info` line of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time: Option<u64>,
    pub pv: Vec<String>,
}

/// What one line of the engine says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Info(Info),
    /// `bestmove <move> [ponder <move>]`; `None` for `(none)`.
    BestMove(Option<String>),
    /// `info string ...` (errors included).
    Text(String),
    IdName(String),
    /// `option name <name> type ...`: the name and, for a combo, its values.
    Option {
        name: String,
        vars: Vec<String>,
    },
    UciOk,
    ReadyOk,
    /// Anything else.
    Other,
}

/// Read one line of engine output.
pub fn parse(line: &str) -> Line {
    let line = line.trim();
    let mut words = line.split_whitespace();
    match words.next() {
        Some("uciok") => Line::UciOk,
        Some("readyok") => Line::ReadyOk,
        Some("bestmove") => match words.next() {
            Some("(none)") | None => Line::BestMove(None),
            Some(m) => Line::BestMove(Some(m.to_string())),
        },
        Some("id") => match words.next() {
            Some("name") => Line::IdName(words.collect::<Vec<_>>().join(" ")),
            _ => Line::Other,
        },
        Some("option") => parse_option(line),
        Some("info") => {
            let rest: Vec<&str> = words.collect();
            if rest.first() == Some(&"string") {
                return Line::Text(rest[1..].join(" "));
            }
            Line::Info(parse_info(&rest))
        }
        _ => Line::Other,
    }
}

fn parse_info(words: &[&str]) -> Info {
    let mut info = Info::default();
    let mut i = 0;
    let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
    while i < words.len() {
        match words[i] {
            "depth" => info.depth = num(i + 1).map(|n| n.min(u32::MAX as u64) as u32),
            "seldepth" => info.seldepth = num(i + 1).map(|n| n.min(u32::MAX as u64) as u32),
            "multipv" => info.multipv = num(i + 1).map(|n| n.min(u32::MAX as u64) as u32),
            "nodes" => info.nodes = num(i + 1),
            "nps" => info.nps = num(i + 1),
            "time" => info.time = num(i + 1),
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i64>().ok());
                info.score = match (words.get(i + 1).copied(), value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("win"), Some(v)) => Some(Score::Win(v)),
                    (Some("loss"), Some(v)) => Some(Score::Loss(v)),
                    _ => None,
                };
                i += 3;
                continue;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                break;
            }
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    info
}

fn parse_option(line: &str) -> Line {
    // option name <words> type <t> [default <v>] [var <v>]...
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(n) = words.iter().position(|w| *w == "name") else {
        return Line::Other;
    };
    let t = words
        .iter()
        .position(|w| *w == "type")
        .unwrap_or(words.len());
    if t <= n + 1 {
        return Line::Other;
    }
    let name = words[n + 1..t].join(" ");
    let vars = words
        .windows(2)
        .skip(t)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string())
        .collect();
    Line::Option { name, vars }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_line() {
        let l = parse("info depth 9 seldepth 18 multipv 2 score cp -12 nodes 41503 nps 4227998 time 9 hashfull 1 tbhits 0 pv g3-f4 d6-c5 h2-g3");
        let Line::Info(i) = l else { panic!() };
        assert_eq!(i.depth, Some(9));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.multipv, Some(2));
        assert_eq!(i.score, Some(Score::Cp(-12)));
        assert_eq!(i.nodes, Some(41503));
        assert_eq!(i.time, Some(9));
        assert_eq!(i.pv, ["g3-f4", "d6-c5", "h2-g3"]);
        let Line::Info(i) = parse("info depth 3 score win 4 pv a1-b2") else {
            panic!()
        };
        assert_eq!(i.score, Some(Score::Win(4)));
        assert_eq!(i.score.unwrap().negate(), Score::Loss(4));
        // The engine's table wins: `tb` after the score (moves to the
        // conversion) is skipped, the win and what follows are read.
        let l = parse("info depth 2 seldepth 2 multipv 1 score loss 7 tb nodes 40 nps 9 time 1 hashfull 0 tbhits 35 pv c3-d4 b6-a5");
        let Line::Info(i) = l else { panic!() };
        assert_eq!(i.score, Some(Score::Loss(7)));
        assert_eq!((i.nodes, i.time), (Some(40), Some(1)));
        assert_eq!(i.pv, ["c3-d4", "b6-a5"]);
    }

    #[test]
    fn other_lines() {
        assert_eq!(
            parse("bestmove c3-d4 ponder f6-g5"),
            Line::BestMove(Some("c3-d4".into()))
        );
        assert_eq!(parse("bestmove (none)"), Line::BestMove(None));
        assert_eq!(
            parse("info string error: unknown command 'x'"),
            Line::Text("error: unknown command 'x'".into())
        );
        assert_eq!(
            parse("option name Variant type combo default russian var russian var adiyukh-80"),
            Line::Option {
                name: "Variant".into(),
                vars: vec!["russian".into(), "adiyukh-80".into()]
            }
        );
        assert_eq!(
            parse("option name Move Overhead type spin default 3"),
            Line::Option {
                name: "Move Overhead".into(),
                vars: vec![]
            }
        );
        assert_eq!(
            parse("id name shashki 0.1.0"),
            Line::IdName("shashki 0.1.0".into())
        );
        for junk in [
            "",
            "info score",
            "info depth",
            "info depth x pv",
            "option name",
            "option type name",
        ] {
            let _ = parse(junk);
        }
    }
}

//! The engine's output lines in the UCI-like protocol (PROTOCOL.md), read
//! into values: `info` lines of a search, `bestmove`, `info string` errors,
//! and the handshake's `id name` and `option` lines. The `info` and
//! `bestmove` lines are read by the engine crate's wire layer
//! ([`shashki::protocol`]); this module sorts the lines and gives a search
//! report its JSON form.
//!
//! Parsing never panics; a token it does not know is skipped, so engines
//! that say more than this program reads still work.

use serde::Serialize;
use serde_json::{json, Value};
use shashki::protocol::{BestMove, Info};
use shashki::search::Score;

/// A score as the page reads it: `{"cp": 12}`, `{"win": 3}` or
/// `{"loss": 3}` (null when there is none).
pub fn score_json(score: Option<Score>) -> Value {
    match score {
        Some(Score::Cp(n)) => json!({ "cp": n }),
        Some(Score::Win(n)) => json!({ "win": n }),
        Some(Score::Loss(n)) => json!({ "loss": n }),
        None => Value::Null,
    }
}

/// The same score from the other side's view.
pub fn negate(score: Score) -> Score {
    match score {
        Score::Cp(n) => Score::Cp(-n),
        Score::Win(n) => Score::Loss(n),
        Score::Loss(n) => Score::Win(n),
    }
}

/// A search report as the page reads it (the fields it shows; the
/// engine's other figures are left out).
#[derive(Serialize)]
struct InfoJson<'a> {
    depth: Option<u32>,
    seldepth: Option<u32>,
    multipv: Option<u32>,
    score: Value,
    nodes: Option<u64>,
    nps: Option<u64>,
    time: Option<u64>,
    pv: &'a [String],
}

/// The JSON of an `info` line: `depth`, `seldepth`, `multipv`, `score`,
/// `nodes`, `nps`, `time` (milliseconds) and `pv`.
pub fn info_json(info: &Info) -> Value {
    serde_json::to_value(InfoJson {
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        score: score_json(info.score),
        nodes: info.nodes,
        nps: info.nps,
        time: info.time,
        pv: &info.pv,
    })
    .unwrap_or(Value::Null)
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
        // A `bestmove` without a move word ends the search with none too.
        Some("bestmove") => Line::BestMove(BestMove::parse_uci(line).and_then(|b| b.mv)),
        Some("id") => match words.next() {
            Some("name") => Line::IdName(words.collect::<Vec<_>>().join(" ")),
            _ => Line::Other,
        },
        Some("option") => parse_option(line),
        Some("info") => match Info::parse(line) {
            Some(info) => Line::Info(info),
            None => Line::Text(words.skip(1).collect::<Vec<_>>().join(" ")),
        },
        _ => Line::Other,
    }
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
    fn info_lines() {
        let l = parse("info depth 9 seldepth 18 multipv 2 score cp -12 nodes 41503 nps 4227998 time 9 hashfull 1 tbhits 0 pv g3-f4 d6-c5 h2-g3");
        let Line::Info(i) = l else { panic!() };
        assert_eq!(i.depth, Some(9));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.multipv, Some(2));
        assert_eq!(i.score, Some(Score::Cp(-12)));
        assert_eq!(i.nodes, Some(41503));
        assert_eq!(i.time, Some(9));
        assert_eq!(i.pv, ["g3-f4", "d6-c5", "h2-g3"]);
        // The page's fields only, the score as an object.
        assert_eq!(
            info_json(&i).to_string(),
            r#"{"depth":9,"multipv":2,"nodes":41503,"nps":4227998,"pv":["g3-f4","d6-c5","h2-g3"],"score":{"cp":-12},"seldepth":18,"time":9}"#
        );
        let Line::Info(i) = parse("info depth 3 score win 4 pv a1-b2") else {
            panic!()
        };
        assert_eq!(i.score, Some(Score::Win(4)));
        assert_eq!(negate(i.score.unwrap()), Score::Loss(4));
        assert_eq!(score_json(i.score).to_string(), r#"{"win":4}"#);
        assert_eq!(
            score_json(Some(Score::Loss(2))).to_string(),
            r#"{"loss":2}"#
        );
        assert_eq!(score_json(None), Value::Null);
        // The engine's table wins: `tb` after the score (moves to the
        // conversion) is read, the win and what follows too.
        let l = parse("info depth 2 seldepth 2 multipv 1 score loss 7 tb nodes 40 nps 9 time 1 hashfull 0 tbhits 35 pv c3-d4 b6-a5");
        let Line::Info(i) = l else { panic!() };
        assert_eq!(i.score, Some(Score::Loss(7)));
        assert_eq!((i.nodes, i.time), (Some(40), Some(1)));
        assert_eq!(i.pv, ["c3-d4", "b6-a5"]);
        let Line::Info(i) = parse("info") else {
            panic!()
        };
        assert_eq!(
            info_json(&i).to_string(),
            r#"{"depth":null,"multipv":null,"nodes":null,"nps":null,"pv":[],"score":null,"seldepth":null,"time":null}"#
        );
    }

    #[test]
    fn other_lines() {
        assert_eq!(
            parse("bestmove c3-d4 ponder f6-g5"),
            Line::BestMove(Some("c3-d4".into()))
        );
        assert_eq!(parse("bestmove (none)"), Line::BestMove(None));
        assert_eq!(parse("bestmove"), Line::BestMove(None));
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

//! The `info` line of a search report, written by the engine after each
//! completed iteration and read by the clients.
//!
//! * UCI ([`Info`]): `info depth 9 seldepth 18 multipv 1 score cp -12 nodes
//!   41503 nps 4227998 time 9 hashfull 1 tbhits 0 pv g3-f4 d6-c5`; `tb`
//!   after the score marks a win or loss the endgame tables prove, counted
//!   to the conversion (PROTOCOL.md).
//! * Hub ([`HubInfo`]): `info depth=9 seldepth=18 score=-0.12 nodes=41503
//!   time=0.009 nps=4.22 pv="22-18 11-15"`: seconds with three decimals,
//!   millions of nodes a second with two (as Scan writes them).
//!
//! Reading never fails: a figure that is not a number is left out, a word
//! it does not know is skipped, so engines that say more still work.

use super::hub::{seconds_text, Line};
use super::score::{self, Men};
use crate::notation;
use crate::position::Position;
use crate::search::{self, Score};

/// One UCI `info` line of a search (every figure optional, as a client
/// reads it from any engine).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// From the side to move's view.
    pub score: Option<Score>,
    /// The score is the endgame tables' (`tb`).
    pub tb: bool,
    pub nodes: Option<u64>,
    /// Nodes a second.
    pub nps: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    /// Per mille of the transposition table used.
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// The line's moves as the engine wrote them.
    pub pv: Vec<String>,
}

impl Info {
    /// The line of a search report on `pos`: every figure, the line's moves
    /// as move texts (up to the first that is not legal).
    pub fn of_search(pos: &Position, info: &search::Info) -> Info {
        Info {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: Some(info.multipv),
            score: Some(info.score),
            tb: info.tb,
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            time: Some(info.time_ms),
            hashfull: Some(info.hashfull),
            tbhits: Some(info.tbhits),
            pv: notation::line_texts(pos, &info.pv),
        }
    }

    /// Read an `info` line; `None` for any other line and for `info string`.
    pub fn parse(line: &str) -> Option<Info> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return None;
        }
        let words: Vec<&str> = words.collect();
        if words.first() == Some(&"string") {
            return None;
        }
        let mut info = Info::default();
        let num = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
        let small = |i: usize| num(i).map(|n| n.min(u32::MAX as u64) as u32);
        let mut i = 0;
        while i < words.len() {
            match words[i] {
                "depth" => info.depth = small(i + 1),
                "seldepth" => info.seldepth = small(i + 1),
                "multipv" => info.multipv = small(i + 1),
                "hashfull" => info.hashfull = small(i + 1),
                "nodes" => info.nodes = num(i + 1),
                "nps" => info.nps = num(i + 1),
                "time" => info.time = num(i + 1),
                "tbhits" => info.tbhits = num(i + 1),
                "score" => {
                    let word = |k: usize| words.get(i + k).copied().unwrap_or("");
                    info.score = score::from_words(word(1), word(2));
                    i += 3;
                    continue;
                }
                "pv" => {
                    info.pv = words[i + 1..].iter().map(|w| w.to_string()).collect();
                    break;
                }
                "tb" => {
                    info.tb = true;
                    i += 1;
                    continue;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            i += 2;
        }
        Some(info)
    }
}

/// The line as the engine sends it: the figures given, in this order.
impl std::fmt::Display for Info {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("info")?;
        fn figure(f: &mut std::fmt::Formatter<'_>, name: &str, v: Option<u64>) -> std::fmt::Result {
            match v {
                Some(v) => write!(f, " {name} {v}"),
                None => Ok(()),
            }
        }
        figure(f, "depth", self.depth.map(u64::from))?;
        figure(f, "seldepth", self.seldepth.map(u64::from))?;
        figure(f, "multipv", self.multipv.map(u64::from))?;
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        if self.tb {
            f.write_str(" tb")?;
        }
        figure(f, "nodes", self.nodes)?;
        figure(f, "nps", self.nps)?;
        figure(f, "time", self.time)?;
        figure(f, "hashfull", self.hashfull.map(u64::from))?;
        figure(f, "tbhits", self.tbhits)?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

/// One Hub `info` line of a search, its figures in this program's units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HubInfo {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// From the side to move's view.
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    /// Milliseconds (seconds on the wire).
    pub time_ms: Option<u64>,
    /// Nodes a second (millions on the wire, two decimals).
    pub nps: Option<u64>,
    /// The line's moves as the engine wrote them.
    pub pv: Vec<String>,
}

impl HubInfo {
    /// The line of a search report, its moves already as Hub texts.
    pub fn of_search(info: &search::Info, pv: Vec<String>) -> HubInfo {
        HubInfo {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            score: Some(info.score),
            nodes: Some(info.nodes),
            time_ms: Some(info.time_ms),
            nps: Some(info.nps),
            pv,
        }
    }

    /// Read the arguments of an `info` line (its command is not looked at).
    pub fn from_line(line: &Line) -> HubInfo {
        let int = |n: &str| line.get(n).and_then(|v| v.trim().parse::<u64>().ok());
        let small = |n: &str| int(n).map(|v| v.min(u32::MAX as u64) as u32);
        let real = |n: &str, scale: f64| {
            line.get(n)
                .and_then(|v| v.trim().parse::<f64>().ok())
                .filter(|x| x.is_finite() && *x >= 0.0)
                .map(|x| (x * scale).round().min(u64::MAX as f64) as u64)
        };
        HubInfo {
            depth: small("depth"),
            seldepth: small("seldepth"),
            score: line
                .get("score")
                .and_then(|s| s.parse::<Men>().ok())
                .map(|m| m.0),
            nodes: int("nodes"),
            time_ms: real("time", 1e3),
            nps: real("nps", 1e6),
            pv: line
                .get("pv")
                .unwrap_or("")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
        }
    }

    /// The line as sent.
    pub fn line(&self) -> Line {
        let mnps = |nps: u64| {
            let m = nps / 10_000;
            format!("{}.{:02}", m / 100, m % 100)
        };
        Line::new("info")
            .arg_opt("depth", self.depth)
            .arg_opt("seldepth", self.seldepth)
            .arg_opt("score", self.score.map(Men))
            .arg_opt("nodes", self.nodes)
            .arg_opt("time", self.time_ms.map(seconds_text))
            .arg_opt("nps", self.nps.map(mnps))
            .arg_opt("pv", (!self.pv.is_empty()).then(|| self.pv.join(" ")))
    }
}

impl std::fmt::Display for HubInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.line().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn uci_lines() {
        let i = Info::parse("info depth 9 seldepth 18 multipv 2 score cp -12 nodes 41503 nps 4227998 time 9 hashfull 1 tbhits 0 pv g3-f4 d6-c5 h2-g3").unwrap();
        assert_eq!(i.depth, Some(9));
        assert_eq!(i.seldepth, Some(18));
        assert_eq!(i.multipv, Some(2));
        assert_eq!(i.score, Some(Score::Cp(-12)));
        assert_eq!(i.nodes, Some(41503));
        assert_eq!((i.nps, i.time), (Some(4227998), Some(9)));
        assert_eq!((i.hashfull, i.tbhits), (Some(1), Some(0)));
        assert_eq!(i.pv, ["g3-f4", "d6-c5", "h2-g3"]);
        let i = Info::parse("info depth 3 score win 4 pv a1-b2").unwrap();
        assert_eq!(i.score, Some(Score::Win(4)));
        // A table's loss: `tb` after the score.
        let text = "info depth 2 seldepth 2 multipv 1 score loss 7 tb nodes 40 nps 9 time 1 hashfull 0 tbhits 35 pv c3-d4 b6-a5";
        let i = Info::parse(text).unwrap();
        assert_eq!((i.score, i.tb), (Some(Score::Loss(7)), true));
        assert_eq!((i.nodes, i.time), (Some(40), Some(1)));
        assert_eq!(i.pv, ["c3-d4", "b6-a5"]);
        assert_eq!(i.to_string(), text);
        assert_eq!(Info::parse("info string hello"), None);
        assert_eq!(Info::parse("bestmove c3-d4"), None);
        for junk in [
            "info",
            "info score",
            "info depth",
            "info depth x pv",
            "info score cp",
            "info nodes -1",
        ] {
            let _ = Info::parse(junk).unwrap();
        }
    }

    #[test]
    fn hub_lines() {
        let l = Line::read(
            r#"info depth=7 seldepth=12 score=-0.25 nodes=1000 time=0.084 nps=6.90 pv="11-15 18x11""#,
        );
        let i = HubInfo::from_line(&l);
        assert_eq!((i.depth, i.seldepth), (Some(7), Some(12)));
        assert_eq!(i.score, Some(Score::Cp(-25)));
        assert_eq!(
            (i.nodes, i.time_ms, i.nps),
            (Some(1000), Some(84), Some(6_900_000))
        );
        assert_eq!(i.pv, ["11-15", "18x11"]);
        assert_eq!(
            i.to_string(),
            r#"info depth=7 seldepth=12 score=-0.25 nodes=1000 time=0.084 nps=6.90 pv="11-15 18x11""#
        );
        let one = HubInfo {
            pv: vec!["9-13".into()],
            ..HubInfo::default()
        };
        assert_eq!(one.to_string(), "info pv=9-13");
        let bad = HubInfo::from_line(&Line::read("info time=-1 nps=inf score=x depth=y"));
        assert_eq!(bad, HubInfo::default());
    }

    fn score() -> impl Strategy<Value = Score> {
        prop_oneof![
            (-9_000..=9_000i32).prop_map(Score::Cp),
            (1..=500u32).prop_map(Score::Win),
            (1..=499u32).prop_map(Score::Loss),
        ]
    }

    fn moves() -> impl Strategy<Value = Vec<String>> {
        proptest::collection::vec("[a-h][1-8][-:][a-h][1-8]|[0-9]{1,2}[-x][0-9]{1,2}", 0..6)
    }

    proptest! {
        #[test]
        fn uci_info_reads_back(
            figures in proptest::collection::vec(proptest::option::of(0..u32::MAX), 4),
            big in proptest::collection::vec(proptest::option::of(any::<u64>()), 4),
            score in proptest::option::of(prop_oneof![
                any::<i32>().prop_map(Score::Cp),
                any::<u32>().prop_map(Score::Win),
                any::<u32>().prop_map(Score::Loss),
            ]),
            tb: bool,
            pv in moves(),
        ) {
            let info = Info {
                depth: figures[0],
                seldepth: figures[1],
                multipv: figures[2],
                hashfull: figures[3],
                score,
                tb,
                nodes: big[0],
                nps: big[1],
                time: big[2],
                tbhits: big[3],
                pv,
            };
            prop_assert_eq!(Info::parse(&info.to_string()), Some(info));
        }

        #[test]
        fn hub_info_reads_back(
            depth in proptest::option::of(0..u32::MAX),
            seldepth in proptest::option::of(0..u32::MAX),
            score in proptest::option::of(score()),
            nodes in proptest::option::of(any::<u64>()),
            time_ms in proptest::option::of(0..1u64 << 40),
            nps in proptest::option::of((0..1u64 << 30).prop_map(|m| m * 10_000)),
            pv in moves(),
        ) {
            let info = HubInfo { depth, seldepth, score, nodes, time_ms, nps, pv };
            let text = info.to_string();
            prop_assert_eq!(HubInfo::from_line(&Line::parse(&text).unwrap().unwrap()), info);
        }
    }
}

//! The Hub protocol (Scan's, version 2) as this program speaks it to an
//! engine: the engine's lines read ([`Said`]), and the texts sent:
//! positions, moves and the table size. The lines themselves, the `info`
//! figures and the limits are the engine crate's wire layer
//! ([`shashki::protocol`]); [`crate::engine`] runs the conversation.
//!
//! Positions and moves: Russian and Brazilian positions go as Scan's
//! 33-character string (the side to move, then squares 1 = b8 to 32 = g1);
//! moves are numbered in the same order (`22-18`, `22x15x18`: from, to, then
//! each captured square). An engine with a `move-numbers` parameter (as
//! `shashki hub` has) is set to `pdn`, that order. The engine's moves may
//! also be algebraic. Adiyukh has no Hub convention: positions go as
//! shashki's position text and moves as algebraic paths, which only
//! `shashki hub` reads.

use shashki::notation::hub::{self as engine_hub, MoveNumbers};
use shashki::protocol::hub::Line;
use shashki::protocol::{BestMove, HubInfo, Info, Setup};
use shashki::{notation, Move, Position};

/// How this program numbers 8x8 squares in Hub moves.
pub const NUMBERS: MoveNumbers = MoveNumbers::Pdn;

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
    Info(HubInfo),
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
    let l = Line::read(line);
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
                Said::Info(HubInfo::from_line(&l))
            } else {
                Said::Text(l.get("string").unwrap_or("").to_string())
            }
        }
        "done" => Said::Done(BestMove::from_hub(&l).mv),
        "error" => Said::Error(
            l.get("message")
                .map(str::to_string)
                .unwrap_or_else(|| line.trim().to_string()),
        ),
        _ => Said::Other,
    }
}

/// An engine's move as this program's move text, if it is legal in `pos`.
pub fn our_move(pos: &Position, text: &str) -> Option<(Move, String)> {
    let mv = engine_hub::parse_move(pos, text, NUMBERS).ok()?;
    Some((mv, notation::move_text(pos, &mv)))
}

/// An `info` line of a search of `pos` as a UCI report: the figures in
/// the same units, the line's moves as this program's texts (up to the
/// first that is not legal).
pub fn info(hub: &HubInfo, pos: &Position) -> Info {
    let mut pv = Vec::new();
    let mut p = *pos;
    for text in &hub.pv {
        let Some((mv, t)) = our_move(&p, text) else {
            break;
        };
        pv.push(t);
        p.make(&mv);
    }
    Info {
        depth: hub.depth,
        seldepth: hub.seldepth,
        score: hub.score,
        nodes: hub.nodes,
        nps: hub.nps,
        time: hub.time_ms,
        pv,
        ..Info::default()
    }
}

/// The `pos` command for a game: its start, then its moves in Hub form;
/// and the position after them.
pub fn position_command(start: &Position, line: &[Move]) -> (String, Position) {
    let mut p = *start;
    let mut moves = Vec::with_capacity(line.len());
    for mv in line {
        moves.push(engine_hub::move_text(&p, mv, NUMBERS));
        p.make(mv);
    }
    let setup = Setup {
        position: Some(shashki::fen::hub_position_text(start)),
        moves,
    };
    (setup.hub_line().to_string(), p)
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
    use shashki::search::Score;
    use shashki::{fen, Color, Variant};

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
        let Said::Info(l) = parse(
            r#"info depth=7 seldepth=12 score=-0.25 nodes=1000 time=0.084 nps=6.90 pv="11-15 18x11 8x15 junk 1-2""#,
        ) else {
            panic!()
        };
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
    fn table_sizes() {
        assert_eq!(tt_size(16, Some(16), Some(32)), 20);
        assert_eq!(tt_size(64, Some(16), Some(32)), 22);
        assert_eq!(tt_size(1, Some(18), Some(32)), 18);
        assert_eq!(tt_size(65536, None, Some(24)), 24);
    }
}

//! Game analysis: every position of a game searched, the played move
//! compared with the best one, and mistakes marked with the standard
//! glyphs.
//!
//! The value of a position is the search score for the side to move
//! (centi-men; Adiyukh: hundredths of a point of the expected final count
//! difference). The loss of a played move is the value of the position
//! before it minus the value, for the same side, of the position after it.
//! Wins and losses in a known number of moves count as +-[`DECISIVE`] for
//! this difference, so a move that throws away a won game is a blunder
//! whatever the number of moves. A loss of at least `blunder` gets `??`,
//! of at least `mistake` `?`, of at least `inaccuracy` `?!`.

use crate::game::{Game, GameResult};
use crate::notation;
use crate::pdn::GameRecord;
use crate::position::Position;
use crate::search::{Info, Limits, Score, Searcher};
use crate::variant::Scoring;
use crate::Color;

/// The value given to a forced win in loss arithmetic.
pub const DECISIVE: i32 = 10_000;

/// The loss thresholds of the glyphs (in the units of the scores).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    pub inaccuracy: i32,
    pub mistake: i32,
    pub blunder: i32,
}

impl Default for Thresholds {
    fn default() -> Thresholds {
        Thresholds {
            inaccuracy: 50,
            mistake: 100,
            blunder: 300,
        }
    }
}

impl Thresholds {
    /// The glyph of a loss, if any.
    pub fn glyph(&self, loss: i32) -> Option<&'static str> {
        if loss >= self.blunder {
            Some("??")
        } else if loss >= self.mistake {
            Some("?")
        } else if loss >= self.inaccuracy {
            Some("?!")
        } else {
            None
        }
    }
}

/// One searched line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub score: Score,
    pub depth: u32,
    /// The moves, in the variant's notation.
    pub pv: Vec<String>,
}

/// The analysis of one position of a game (the one before ply `ply`).
#[derive(Clone, Debug, PartialEq)]
pub struct PositionReport {
    /// 0-based ply of the move played from this position.
    pub ply: usize,
    pub position: String,
    pub side: Color,
    /// The move played here (`None` at the end of the game).
    pub played: Option<String>,
    /// The best lines, best first (empty when the game is over).
    pub lines: Vec<Line>,
    /// The value for the side to move.
    pub value: i32,
    /// What the played move lost (0 or more), when a move was played.
    pub loss: Option<i32>,
    pub glyph: Option<&'static str>,
}

/// A score as one number for loss arithmetic.
pub fn value_of(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-DECISIVE + 1, DECISIVE - 1),
        Score::Win(_) => DECISIVE,
        Score::Loss(_) => -DECISIVE,
    }
}

/// The value of a position where the game is over, for the side to move.
fn final_value(game: &Game) -> Option<i32> {
    let o = game.outcome()?;
    let pos = game.position();
    if pos.variant().rules().scoring == Scoring::HalfBoardCount {
        let (w, b) = o.score.unwrap_or_else(|| pos.half_board_score());
        let diff = (w as i32 - b as i32) * 100;
        return Some(if pos.side_to_move() == Color::White {
            diff
        } else {
            -diff
        });
    }
    let white = match o.result {
        GameResult::WhiteWins => DECISIVE,
        GameResult::BlackWins => -DECISIVE,
        GameResult::Draw => 0,
    };
    Some(if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    })
}

/// The best lines and the value of the current position of `game`. A
/// forced move (the search answers those without searching) is followed
/// until a position with a choice, whose lines are extended backwards.
fn evaluate_position(game: &Game, searcher: &mut Searcher, limits: &Limits) -> (Vec<Line>, i32) {
    if let Some(v) = final_value(game) {
        return (Vec::new(), v);
    }
    let pos = *game.position();
    let legal = pos.legal_moves();
    if legal.len() == 1 {
        let mut next = game.clone();
        if next.play(&legal[0]).is_ok() && game.moves().len() < 1_000 {
            let (lines, v) = evaluate_position(&next, searcher, limits);
            let first = notation::move_text(&pos, &legal[0]);
            let score = match lines.first().map(|l| l.score) {
                Some(Score::Cp(c)) => Score::Cp(-c),
                Some(Score::Win(n)) => Score::Loss(n),
                Some(Score::Loss(n)) => Score::Win(n + 1),
                // The forced move ends the game.
                None if -v >= DECISIVE => Score::Win(1),
                None if -v <= -DECISIVE => Score::Loss(1),
                None => Score::Cp(-v),
            };
            let depth = lines.first().map_or(0, |l| l.depth + 1);
            let mut pv = vec![first];
            pv.extend(lines.into_iter().next().map(|l| l.pv).unwrap_or_default());
            return (vec![Line { score, depth, pv }], -v);
        }
    }
    let mut last: Vec<Option<Info>> = vec![None; limits.multipv.max(1)];
    let r = searcher.search(game, limits, &mut |info| {
        let k = (info.multipv.max(1) - 1) as usize;
        if k < last.len() {
            last[k] = Some(info.clone());
        }
    });
    let mut lines: Vec<Line> = last
        .into_iter()
        .flatten()
        .map(|i| Line {
            score: i.score,
            depth: i.depth,
            pv: notation::line_texts(&pos, &i.pv),
        })
        .collect();
    if lines.is_empty() {
        if let Some(best) = r.best {
            lines.push(Line {
                score: Score::from_internal(r.score),
                depth: r.depth,
                pv: notation::line_texts(&pos, &[best]),
            });
        }
    }
    let value = lines.first().map_or(0, |l| value_of(l.score));
    (lines, value)
}

/// Analyse every position of `record`'s game with `limits` (its `multipv`
/// sets how many lines are kept). `on_position` is called as each position
/// is done (for progress and streaming output).
pub fn analyse(
    record: &GameRecord,
    searcher: &mut Searcher,
    limits: &Limits,
    thresholds: &Thresholds,
    on_position: &mut dyn FnMut(&PositionReport),
) -> Vec<PositionReport> {
    let moves = record.game.moves().to_vec();
    let mut game = Game::from_position(*record.game.start());
    let mut reports: Vec<PositionReport> = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        let pos = *game.position();
        let (lines, value) = evaluate_position(&game, searcher, limits);
        let played = moves.get(ply).map(|m| notation::move_text(&pos, m));
        reports.push(PositionReport {
            ply,
            position: crate::fen::position_text(&pos),
            side: pos.side_to_move(),
            played,
            lines,
            value,
            loss: None,
            glyph: None,
        });
        // The previous position's loss is known now.
        if ply > 0 {
            let prev = &mut reports[ply - 1];
            // A forced move loses nothing.
            let forced = Position::legal_moves(&record.game.positions()[ply - 1]).len() == 1;
            let loss = if forced {
                0
            } else {
                (prev.value + value).max(0)
            };
            prev.loss = Some(loss);
            prev.glyph = thresholds.glyph(loss);
            on_position(&reports[ply - 1]);
        }
        if ply < moves.len() && game.play(&moves[ply]).is_err() {
            break;
        }
    }
    if let Some(last) = reports.last() {
        on_position(last);
    }
    reports
}

/// The score text of a line: `+0.35`, `#5` (win in 5 moves), `#-3`.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Win(n) => format!("#{n}"),
        Score::Loss(n) => format!("#-{n}"),
    }
}

/// Put the analysis into the record: a comment after each move with the
/// value of the position it leaves and, when the move was not the best,
/// the best move and its line; the glyphs of the mistakes.
pub fn annotate(record: &mut GameRecord, reports: &[PositionReport]) {
    let n = record.game.moves().len();
    record.comments.resize(n, None);
    record.glyphs.resize(n, None);
    for r in reports.iter().filter(|r| r.ply < n) {
        let Some(best) = r.lines.first() else {
            continue;
        };
        let mut c = format!("{}/{}", score_text(best.score), best.depth);
        let played_best = best.pv.first() == r.played.as_ref();
        if !played_best {
            if let Some(loss) = r.loss {
                c.push_str(&format!(" loses {:.2}", loss as f64 / 100.0));
            }
            c.push_str(&format!("; best {}", best.pv.join(" ")));
        }
        for (k, l) in r.lines.iter().enumerate().skip(1) {
            c.push_str(&format!(
                "; line {} {} {}",
                k + 1,
                score_text(l.score),
                l.pv.join(" ")
            ));
        }
        let old = record.comments[r.ply].take();
        record.comments[r.ply] = Some(match old {
            Some(o) if !o.trim().is_empty() => format!("{o} [{c}]"),
            _ => c,
        });
        if let Some(g) = r.glyph {
            record.glyphs[r.ply] = Some(g.to_string());
        }
    }
}

/// A JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_score(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("{{\"cp\":{c}}}"),
        Score::Win(n) => format!("{{\"win\":{n}}}"),
        Score::Loss(n) => format!("{{\"loss\":{n}}}"),
    }
}

/// The JSON object (one line) written before the positions of game `game`
/// (1-based): `"type":"game"`, its `headers` (the tags in file order, the
/// first of each name, `Result` the game's result as read), `variant`,
/// `start` (the position text) and `moves`.
pub fn json_game_line(game: usize, rec: &GameRecord) -> String {
    let mut headers: Vec<(&str, &str)> = Vec::new();
    for (name, value) in &rec.tags {
        if !headers.iter().any(|(n, _)| n == name) {
            headers.push((name, value));
        }
    }
    match headers.iter_mut().find(|(n, _)| *n == "Result") {
        Some(h) => h.1 = &rec.result,
        None => headers.push(("Result", &rec.result)),
    }
    let headers: Vec<String> = headers
        .iter()
        .map(|(n, v)| format!("{}:{}", json_str(n), json_str(v)))
        .collect();
    let moves: Vec<String> = notation::line_texts(rec.game.start(), rec.game.moves())
        .iter()
        .map(|m| json_str(m))
        .collect();
    format!(
        "{{\"type\":\"game\",\"game\":{game},\"headers\":{{{}}},\"variant\":{},\"start\":{},\"moves\":[{}]}}",
        headers.join(","),
        json_str(rec.game.variant().id()),
        json_str(&crate::fen::position_text(rec.game.start())),
        moves.join(",")
    )
}

/// One JSON object (one line) for a position of game `game` (1-based),
/// `"type":"position"`.
pub fn json_line(game: usize, r: &PositionReport) -> String {
    let opt = |s: &Option<String>| s.as_deref().map_or("null".to_string(), json_str);
    let lines: Vec<String> = r
        .lines
        .iter()
        .map(|l| {
            format!(
                "{{\"score\":{},\"depth\":{},\"pv\":[{}]}}",
                json_score(l.score),
                l.depth,
                l.pv.iter()
                    .map(|m| json_str(m))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        })
        .collect();
    format!(
        "{{\"type\":\"position\",\"game\":{game},\"ply\":{},\"position\":{},\"side\":\"{}\",\"played\":{},\"best\":{},\"value\":{},\"loss\":{},\"glyph\":{},\"lines\":[{}]}}",
        r.ply,
        json_str(&r.position),
        if r.side == Color::White { "W" } else { "B" },
        opt(&r.played),
        opt(&r.lines.first().and_then(|l| l.pv.first().cloned())),
        r.value,
        r.loss.map_or("null".to_string(), |l| l.to_string()),
        r.glyph.map_or("null".to_string(), json_str),
        lines.join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_thresholds() {
        let t = Thresholds::default();
        assert_eq!(t.glyph(0), None);
        assert_eq!(t.glyph(49), None);
        assert_eq!(t.glyph(50), Some("?!"));
        assert_eq!(t.glyph(100), Some("?"));
        assert_eq!(t.glyph(300), Some("??"));
    }

    #[test]
    fn json_escapes() {
        assert_eq!(json_str("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }

    /// White gives a man away for nothing (c3-d4, e5:c3): the move is
    /// marked, the forced recapture is not, and the best move found first
    /// is another one.
    #[test]
    fn a_dropped_man_is_marked() {
        let mut game = Game::from_text(crate::Variant::Russian, "W:Wc3,h2:Be5,a7").unwrap();
        for m in ["c3-d4", "e5:c3"] {
            game.play_text(m).unwrap();
        }
        let rec = GameRecord::new(game);
        let mut s = Searcher::new(4, 1);
        let mut seen = 0;
        let reports = analyse(
            &rec,
            &mut s,
            &Limits::depth(8),
            &Thresholds::default(),
            &mut |_| seen += 1,
        );
        assert_eq!((reports.len(), seen), (3, 3));
        let r = &reports[0];
        assert_eq!(r.played.as_deref(), Some("c3-d4"));
        assert_ne!(r.lines[0].pv[0], "c3-d4", "{r:?}");
        assert!(r.loss.unwrap() >= 100, "{r:?}");
        assert!(matches!(r.glyph, Some("?") | Some("??")), "{r:?}");
        assert_eq!((reports[1].loss, reports[1].glyph), (Some(0), None));
        assert_eq!(reports[2].played, None);
        let mut rec = rec;
        annotate(&mut rec, &reports);
        assert!(
            rec.comments[0].as_deref().unwrap().contains("best "),
            "{:?}",
            rec.comments
        );
        assert_eq!(rec.glyphs[0].as_deref(), r.glyph);
        let j = json_line(1, r);
        assert!(
            j.starts_with("{\"type\":\"position\",\"game\":1,\"ply\":0,")
                && j.contains("\"played\":\"c3-d4\""),
            "{j}"
        );
    }
}

//! Hub move text (Scan's Hub protocol), both directions.
//!
//! Russian and Brazilian: square numbers, a quiet move `from-to`, a capture
//! `fromxto` followed by every captured square, each once, in any order
//! (`10x19x14`); written with the captured squares in increasing order. The
//! squares are numbered by [`MoveNumbers`]. Algebraic moves (`c3-d4`,
//! `c3:e5`) are read as well. Adiyukh: the algebraic notation of
//! [`crate::notation`], both ways. The protocol itself is [`crate::hub`].
//!
//! ```
//! use shashki::notation::hub::{self, MoveNumbers};
//! use shashki::{Position, Variant};
//! let pos = Position::start(Variant::Russian);
//! let mv = hub::parse_move(&pos, "9-13", MoveNumbers::A1).unwrap();
//! assert_eq!(hub::move_text(&pos, &mv, MoveNumbers::Pdn), "21-17");
//! let err = hub::parse_move(&pos, "9-99", MoveNumbers::A1).unwrap_err();
//! assert_eq!(err.to_string(), "'9-99': there is no square 99 (squares are numbered 1 to 32)");
//! ```

use super::MoveError;
use crate::board::{Geometry, Square};
use crate::input::quote;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// How the squares of 8x8 moves are numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveNumbers {
    /// 1 = a1, 2 = c1, ..., 32 = h8 (pydraughts 0.6.x).
    A1,
    /// 1 = b8, ..., 32 = g1 (PDN, the order of the position string).
    Pdn,
}

impl MoveNumbers {
    /// The parameter value: `a1` or `pdn`.
    pub fn id(self) -> &'static str {
        match self {
            MoveNumbers::A1 => "a1",
            MoveNumbers::Pdn => "pdn",
        }
    }

    /// Read `a1` or `pdn` (any case).
    pub fn parse(s: &str) -> Option<MoveNumbers> {
        match s.to_ascii_lowercase().as_str() {
            "a1" => Some(MoveNumbers::A1),
            "pdn" => Some(MoveNumbers::Pdn),
            _ => None,
        }
    }

    /// The number of a square of the 8x8 board.
    fn number(self, g: Geometry, sq: Square) -> Option<u8> {
        match self {
            MoveNumbers::Pdn => g.pdn_number(sq),
            MoveNumbers::A1 => {
                if g != Geometry::BOARD_64 {
                    return None;
                }
                let (f, r) = g.file_rank(sq);
                Some(r * 4 + f / 2 + 1)
            }
        }
    }

    /// The square of a number on the 8x8 board.
    fn square(self, g: Geometry, n: u32) -> Option<Square> {
        match self {
            MoveNumbers::Pdn => g.from_pdn_number(n),
            MoveNumbers::A1 => {
                if g != Geometry::BOARD_64 || !(1..=32).contains(&n) {
                    return None;
                }
                let rank = ((n - 1) / 4) as u8;
                let file = 2 * ((n - 1) % 4) as u8 + rank % 2;
                g.square(file, rank)
            }
        }
    }
}

/// Why Hub move text was refused. Each message names the problem; the
/// move text in it is quoted as every message quotes user text
/// ([`crate::input::quote`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubMoveError {
    /// Algebraic text (or a tower variant's move), refused as
    /// [`crate::notation::parse_move`] refuses it.
    Notation(MoveError),
    /// Not a numbered move (`from-to`, or `fromxto` then captured squares).
    Syntax(String),
    /// A number that names no square of the board.
    NoSquare { text: String, number: u32 },
    /// A captured square given twice.
    RepeatedCapture(String),
    /// No legal move matches; the legal moves are listed (none: the side
    /// to move has no legal move).
    Illegal { text: String, legal: Vec<String> },
    /// Several legal moves match; they are listed.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for HubMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubMoveError::Notation(e) => write!(f, "{e}"),
            HubMoveError::Syntax(t) => write!(
                f,
                "'{}' is not a move (expected from-to, or fromxto followed by x and each captured square, e.g. 10x19x14)",
                quote(t)
            ),
            HubMoveError::NoSquare { text, number } => write!(
                f,
                "'{}': there is no square {number} (squares are numbered 1 to 32)",
                quote(text)
            ),
            HubMoveError::RepeatedCapture(t) => {
                write!(f, "'{}': a captured square is repeated", quote(t))
            }
            HubMoveError::Illegal { text, legal } => {
                let legal = if legal.is_empty() {
                    "none (the side to move has no legal move)".to_string()
                } else {
                    legal.join(" ")
                };
                write!(
                    f,
                    "{} is not a legal move here; legal moves: {legal}",
                    quote(text)
                )
            }
            HubMoveError::Ambiguous { text, candidates } => write!(
                f,
                "{} is ambiguous: it matches {}; give the captured squares",
                quote(text),
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for HubMoveError {}

impl From<MoveError> for HubMoveError {
    fn from(e: MoveError) -> Self {
        HubMoveError::Notation(e)
    }
}

/// The Hub text of a legal move of `pos`.
pub fn move_text(pos: &Position, mv: &Move, numbers: MoveNumbers) -> String {
    let g = pos.geometry();
    if pos.variant().is_tower() || g != Geometry::BOARD_64 {
        return super::move_text(pos, mv);
    }
    let num = |sq: Square| numbers.number(g, sq).unwrap_or(0).to_string();
    if mv.is_capture() {
        let mut captured: Vec<u8> = crate::board::squares(mv.captured())
            .filter_map(|sq| numbers.number(g, sq))
            .collect();
        captured.sort_unstable();
        let mut s = format!("{}x{}", num(mv.from()), num(mv.to()));
        for n in captured {
            s.push('x');
            s.push_str(&n.to_string());
        }
        s
    } else {
        format!("{}-{}", num(mv.from()), num(mv.to()))
    }
}

/// The Hub texts of all legal moves of `pos`.
pub fn legal_move_texts(pos: &Position, numbers: MoveNumbers) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| move_text(pos, m, numbers))
        .collect()
}

/// Read a Hub move as one legal move of `pos`. Never panics.
pub fn parse_move(pos: &Position, text: &str, numbers: MoveNumbers) -> Result<Move, HubMoveError> {
    let g = pos.geometry();
    if pos.variant().is_tower()
        || g != Geometry::BOARD_64
        || text
            .chars()
            .any(|c| c.is_alphabetic() && c != 'x' && c != 'X')
    {
        return Ok(super::parse_move(pos, text)?);
    }
    let bad = || HubMoveError::Syntax(text.to_string());
    let quiet = text.contains('-');
    let parts: Vec<&str> = if quiet {
        text.split('-').collect()
    } else {
        text.split(['x', 'X']).collect()
    };
    if parts.len() < 2 || (quiet && parts.len() != 2) {
        return Err(bad());
    }
    let mut squares = Vec::with_capacity(parts.len());
    for p in &parts {
        if p.is_empty() || p.len() > 2 || !p.chars().all(|c| c.is_ascii_digit()) {
            return Err(bad());
        }
        let n: u32 = p.parse().map_err(|_| bad())?;
        let sq = numbers.square(g, n).ok_or_else(|| HubMoveError::NoSquare {
            text: text.to_string(),
            number: n,
        })?;
        squares.push(sq);
    }
    let (from, to) = (squares[0], squares[1]);
    let captured: Option<u64> =
        (squares.len() > 2).then(|| squares[2..].iter().fold(0u64, |bits, sq| bits | sq.bb()));
    if let Some(bits) = captured {
        if bits.count_ones() as usize != squares.len() - 2 {
            return Err(HubMoveError::RepeatedCapture(text.to_string()));
        }
    }
    let legal = pos.legal_moves();
    let matches: Vec<&Move> = legal
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| match captured {
            None => true,
            Some(c) => m.is_capture() && m.captured() == c,
        })
        .collect();
    match matches.as_slice() {
        [m] => Ok(**m),
        [] => Err(HubMoveError::Illegal {
            text: text.to_string(),
            legal: legal_move_texts(pos, numbers),
        }),
        several => Err(HubMoveError::Ambiguous {
            text: text.to_string(),
            candidates: several.iter().map(|m| move_text(pos, m, numbers)).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_hub_position;
    use crate::variant::Variant;

    #[test]
    fn both_numberings_cover_the_board() {
        let g = Geometry::BOARD_64;
        for numbers in [MoveNumbers::A1, MoveNumbers::Pdn] {
            for n in 1..=32u32 {
                let sq = numbers.square(g, n).unwrap();
                assert_eq!(numbers.number(g, sq), Some(n as u8));
            }
            assert!(numbers.square(g, 0).is_none());
            assert!(numbers.square(g, 33).is_none());
        }
        let name = |n| g.square_name(MoveNumbers::A1.square(g, n).unwrap());
        assert_eq!(name(1), "a1");
        assert_eq!(name(5), "b2");
        assert_eq!(name(32), "h8");
    }

    #[test]
    fn start_position_and_moves() {
        let pos =
            parse_hub_position(Variant::Russian, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").unwrap();
        assert_eq!(pos, Position::start(Variant::Russian));
        let mut texts: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| move_text(&pos, m, MoveNumbers::A1))
            .collect();
        texts.sort();
        assert_eq!(
            texts,
            ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]
        );
        let m = parse_move(&pos, "9-13", MoveNumbers::A1).unwrap();
        assert_eq!(super::super::move_text(&pos, &m), "a3-b4");
        let m = parse_move(&pos, "21-17", MoveNumbers::Pdn).unwrap();
        assert_eq!(super::super::move_text(&pos, &m), "a3-b4");
        assert!(parse_move(&pos, "9-14", MoveNumbers::A1).is_err());
        assert!(parse_move(&pos, "9-99", MoveNumbers::A1).is_err());
        assert!(parse_move(&pos, "9--13", MoveNumbers::A1).is_err());
    }

    #[test]
    fn captures_list_the_captured_squares() {
        // White man c3 takes d4 (a1 numbers: c3 = 10, d4 = 14, e5 = 19).
        let pos =
            parse_hub_position(Variant::Russian, "Weeebeeeeeeeeeeeeebeeeweeeeeeeeee").unwrap();
        let m = parse_move(&pos, "10x19x14", MoveNumbers::A1).unwrap();
        assert_eq!(move_text(&pos, &m, MoveNumbers::A1), "10x19x14");
        assert_eq!(parse_move(&pos, "10x19", MoveNumbers::A1).unwrap(), m);
        assert!(parse_move(&pos, "10x19x13", MoveNumbers::A1).is_err());
        assert!(parse_move(&pos, "10x19x14x14", MoveNumbers::A1).is_err());
    }

    #[test]
    fn each_refusal_names_its_problem() {
        let start = Position::start(Variant::Russian);
        let err = |pos: &Position, text: &str| parse_move(pos, text, MoveNumbers::A1).unwrap_err();
        let e = err(&start, "9--13");
        assert_eq!(e, HubMoveError::Syntax("9--13".into()));
        assert_eq!(
            e.to_string(),
            "'9--13' is not a move (expected from-to, or fromxto followed by x and each captured square, e.g. 10x19x14)"
        );
        let e = err(&start, "9-99");
        assert_eq!(
            e,
            HubMoveError::NoSquare {
                text: "9-99".into(),
                number: 99
            }
        );
        assert_eq!(
            err(&start, "9-14").to_string(),
            "9-14 is not a legal move here; legal moves: 10-13 11-14 12-15 9-13 10-14 11-15 12-16"
        );
        assert!(matches!(
            err(&start, "c3-c4"),
            HubMoveError::Notation(MoveError::Square(..))
        ));
        assert_eq!(err(&start, "c3-c4").to_string(), "c3-c4: light square 'c4'");
        let capture =
            parse_hub_position(Variant::Russian, "Weeebeeeeeeeeeeeeebeeeweeeeeeeeee").unwrap();
        assert_eq!(
            err(&capture, "10x19x14x14").to_string(),
            "'10x19x14x14': a captured square is repeated"
        );
        // Long text is shortened, control characters escaped.
        let long = format!("{}-1", "1".repeat(50));
        assert_eq!(
            err(&start, &long).to_string(),
            format!(
                "'{}...' is not a move (expected from-to, or fromxto followed by x and each captured square, e.g. 10x19x14)",
                "1".repeat(40)
            )
        );
        assert!(err(&start, "9\u{1b}-13")
            .to_string()
            .starts_with("'9\\u{1b}-13' is not"));
        // No legal move at all.
        let stuck = parse_hub_position(Variant::Russian, "B:WK29:B").unwrap();
        assert_eq!(
            err(&stuck, "29-25").to_string(),
            "29-25 is not a legal move here; legal moves: none (the side to move has no legal move)"
        );
    }

    #[test]
    fn several_matches_ask_for_the_captured_squares() {
        // The king on g7 has two captures from g7 to the same square that
        // take different men.
        let pos =
            crate::fen::parse_position(Variant::Russian, "W:WKg7:Bd2,f2,a3,f6,h6,c7").unwrap();
        let legal = legal_move_texts(&pos, MoveNumbers::A1);
        let ends = |t: &str| t.split('x').take(2).collect::<Vec<_>>().join("x");
        let short = legal
            .iter()
            .map(|t| ends(t))
            .find(|e| legal.iter().filter(|t| ends(t) == *e).count() > 1)
            .expect("two captures with the same ends");
        let e = parse_move(&pos, &short, MoveNumbers::A1).unwrap_err();
        let HubMoveError::Ambiguous { text, candidates } = &e else {
            panic!("{e:?}");
        };
        assert_eq!(*text, short);
        assert!(candidates.len() > 1 && candidates.iter().all(|c| ends(c) == short));
        assert_eq!(
            e.to_string(),
            format!(
                "{short} is ambiguous: it matches {}; give the captured squares",
                candidates.join(", ")
            )
        );
        for t in &legal {
            let m = parse_move(&pos, t, MoveNumbers::A1).unwrap();
            assert_eq!(move_text(&pos, &m, MoveNumbers::A1), *t);
        }
    }
}

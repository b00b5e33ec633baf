//! Move text, both directions.
//!
//! Written: a quiet move `c3-d4`; a capture with the landing square of every
//! jump, `c3:e5:g3`. Read, besides that:
//! * `x` in place of `:` (`c3xe5`), as PDN tools write it;
//! * the short `start:final` form, and any route naming some of the landing
//!   squares in order, whenever it names exactly one distinct legal move;
//! * numeric PDN squares on the 8x8 board (`22-18`, `22x15`);
//! * in Adiyukh, the seed's short form (§7.8): the file left, then the target
//!   square (`cb4`, `c:b4`), where it names exactly one move.
//!
//! ```
//! use shashki::{notation, Position, Variant};
//! let pos = Position::start(Variant::Russian);
//! let mv = notation::parse_move(&pos, "c3-d4").unwrap();
//! assert_eq!(notation::move_text(&pos, &mv), "c3-d4");
//! let err = notation::parse_move(&pos, "c3-c4").unwrap_err();
//! assert!(err.to_string().starts_with("c3-c4: light square"));
//! ```
//!
//! [`hub`]: the same moves as Scan's Hub protocol writes them (numbered
//! squares, `10x19x14`).

pub mod hub;

use crate::board::{latin_file, Geometry, Square, SquareError};
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::fmt;

/// Why move text was refused. Each message names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing to parse.
    Empty,
    /// Not a move in any accepted form.
    Syntax(String),
    /// A square in the move is not a dark square of this board.
    Square(String, SquareError),
    /// No legal move matches; the legal moves are listed.
    Illegal { text: String, legal: Vec<String> },
    /// Several distinct legal moves match; they are listed.
    Ambiguous {
        text: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "empty move text"),
            MoveError::Syntax(t) => write!(
                f,
                "'{t}' is not a move (expected e.g. c3-d4, c3:e5 or c3:e5:g3)"
            ),
            MoveError::Square(t, e) => {
                let detail = match e {
                    SquareError::Unknown(s) => format!("unknown square '{s}'"),
                    SquareError::Light(s) => format!("light square '{s}'"),
                };
                write!(f, "{t}: {detail}")
            }
            MoveError::Illegal { text, legal } if legal.is_empty() => {
                write!(
                    f,
                    "{text} is not legal here: the side to move has no legal move"
                )
            }
            MoveError::Illegal { text, legal } => {
                write!(
                    f,
                    "{text} is not a legal move here; legal moves: {}",
                    legal.join(" ")
                )
            }
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "{text} is ambiguous: it matches {}; give the full capture path",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// The text of a legal move of `pos`: `c3-d4`, or `c3:e5:g3` for a capture.
pub fn move_text(pos: &Position, mv: &Move) -> String {
    let g = pos.geometry();
    let mut s = g.square_name(mv.from());
    if mv.is_capture() {
        for sq in mv.path() {
            s.push(':');
            s.push_str(&g.square_name(sq));
        }
    } else {
        s.push('-');
        s.push_str(&g.square_name(mv.to()));
    }
    s
}

/// The texts of `moves` played in turn from `pos` (a game's moves from its
/// start, a principal variation), each in [`move_text`]'s form.
pub fn line_texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = *pos;
    moves
        .iter()
        .map(|m| {
            let t = move_text(&p, m);
            p.make(m);
            t
        })
        .collect()
}

/// The text of a move with numeric PDN squares (8x8 only): `22-18`, `22x15x8`.
pub fn move_text_numeric(pos: &Position, mv: &Move) -> Option<String> {
    let g = pos.geometry();
    let mut s = g.pdn_number(mv.from())?.to_string();
    if mv.is_capture() {
        for sq in mv.path() {
            s.push('x');
            s.push_str(&g.pdn_number(sq)?.to_string());
        }
    } else {
        s.push('-');
        s.push_str(&g.pdn_number(mv.to())?.to_string());
    }
    Some(s)
}

/// The texts of all legal moves of `pos`.
pub fn legal_move_texts(pos: &Position) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| move_text(pos, m))
        .collect()
}

/// What the text asks for.
enum Pattern {
    /// Start square, then squares the route must pass in order (the last
    /// is the final square).
    Route(Square, Vec<Square>),
    /// Adiyukh short form: the file left, and the final square.
    FileTo(u8, Square),
}

/// Read move text as one legal move of `pos`. Never panics.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    if text.len() > 200 {
        return Err(MoveError::Syntax(format!(
            "{}...",
            text.chars().take(20).collect::<String>()
        )));
    }
    let g = pos.geometry();
    let pattern = parse_pattern(pos, g, text)?;
    let legal = pos.legal_moves();
    let matches: Vec<Move> = match &pattern {
        Pattern::FileTo(file, to) => legal
            .iter()
            .filter(|m| g.file_rank(m.from()).0 == *file && m.to() == *to)
            .copied()
            .collect(),
        Pattern::Route(from, rest) => {
            let to = *rest.last().unwrap_or(from);
            let candidates = legal.iter().filter(|m| m.from() == *from && m.to() == to);
            if legal.first().is_some_and(|m| m.is_capture()) {
                // Captures: the text may give the full route, part of it, or
                // just start and end. Look among all routes (the distinct
                // list keeps one route per result): an exact route wins,
                // else every route passing the given squares in order; then
                // map back to the distinct moves with the same result.
                let mut paths = MoveList::new();
                movegen::generate_all_paths(pos, &mut paths);
                let from_here = || paths.iter().filter(|m| m.from() == *from);
                let mut chosen: Vec<&Move> = from_here()
                    .filter(|m| m.path().eq(rest.iter().copied()))
                    .collect();
                if chosen.is_empty() {
                    chosen = from_here().filter(|m| passes(m, rest)).collect();
                }
                candidates
                    .filter(|m| chosen.iter().any(|c| c.same_result(m)))
                    .copied()
                    .collect()
            } else if rest.len() == 1 {
                candidates.copied().collect()
            } else {
                Vec::new()
            }
        }
    };
    match matches.len() {
        1 => Ok(matches[0]),
        0 => Err(MoveError::Illegal {
            text: text.to_string(),
            legal: legal.iter().map(|m| move_text(pos, m)).collect(),
        }),
        _ => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: matches.iter().map(|m| move_text(pos, m)).collect(),
        }),
    }
}

/// Whether the landing squares of `m` contain `rest` in order, ending on
/// its last square.
fn passes(m: &Move, rest: &[Square]) -> bool {
    let mut want = rest.iter().peekable();
    for sq in m.path() {
        if want.peek() == Some(&&sq) {
            want.next();
        }
    }
    want.peek().is_none() && Some(m.to()) == rest.last().copied()
}

fn parse_pattern(pos: &Position, g: Geometry, text: &str) -> Result<Pattern, MoveError> {
    let normal: String = text
        .chars()
        .map(|c| match c {
            'x' | 'X' | '×' => ':',
            c => latin_file(c),
        })
        .collect();
    let tokens: Vec<&str> = normal.split([':', '-']).map(str::trim).collect();
    if tokens.iter().any(|t| t.is_empty()) {
        return Err(MoveError::Syntax(text.to_string()));
    }
    let square = |t: &str| -> Result<Square, MoveError> {
        if t.chars().all(|c| c.is_ascii_digit()) {
            t.parse::<u32>()
                .ok()
                .and_then(|n| g.from_pdn_number(n))
                .ok_or_else(|| {
                    MoveError::Square(text.to_string(), SquareError::Unknown(t.to_string()))
                })
        } else {
            g.parse_square(t)
                .map_err(|e| MoveError::Square(text.to_string(), e))
        }
    };
    let is_file = |t: &str| t.len() == 1 && t.as_bytes()[0].is_ascii_lowercase();
    if pos.variant().is_tower() {
        // `cb4` (one token) or `c:b4` (two tokens, the first a bare file).
        let short = match tokens.as_slice() {
            [one] => {
                let mut cs = one.chars();
                match (cs.next(), cs.next()) {
                    (Some(f), Some(c)) if f.is_ascii_lowercase() && c.is_ascii_lowercase() => {
                        Some((&one[..1], &one[1..]))
                    }
                    _ => None,
                }
            }
            [f, t] if is_file(f) => Some((*f, *t)),
            _ => None,
        };
        if let Some((file, to)) = short {
            let file = file.as_bytes()[0] - b'a';
            if file >= g.files() {
                return Err(MoveError::Square(
                    text.to_string(),
                    SquareError::Unknown(text.to_string()),
                ));
            }
            return Ok(Pattern::FileTo(file, square(to)?));
        }
    }
    if tokens.len() < 2 {
        return Err(MoveError::Syntax(text.to_string()));
    }
    let from = square(tokens[0])?;
    let rest = tokens[1..]
        .iter()
        .map(|t| square(t))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Pattern::Route(from, rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen::parse_position;
    use crate::variant::Variant;

    #[test]
    fn short_and_full_forms() {
        let pos = parse_position(Variant::Russian, "W:Wc3:Bd4,f6,d6,b6").unwrap();
        let full = parse_move(&pos, "c3:e5:c7:a5").unwrap();
        assert_eq!(move_text(&pos, &full), "c3:e5:c7:a5");
        assert_eq!(parse_move(&pos, "c3xa5").unwrap(), full);
        let g = pos.geometry();
        assert_eq!(
            parse_move(&pos, "c3:e5:g7").unwrap().to(),
            g.parse_square("g7").unwrap()
        );
        assert!(matches!(parse_move(&pos, "c3:g7"), Ok(m) if m.capture_count() == 2));
        assert!(matches!(
            parse_move(&pos, "c3:c4"),
            Err(MoveError::Square(..))
        ));
    }

    #[test]
    fn numeric_moves() {
        let pos = Position::start(Variant::Russian);
        let mv = parse_move(&pos, "22-18").unwrap();
        assert_eq!(move_text(&pos, &mv), "c3-d4");
        assert_eq!(move_text_numeric(&pos, &mv).unwrap(), "22-18");
    }

    #[test]
    fn garbage_is_an_error() {
        let pos = Position::start(Variant::Adiyukh80);
        for t in [
            "",
            "-",
            "::",
            "a",
            "zz9-a1",
            "c3-",
            "\u{0}\u{1}",
            "k3-j4",
            "c3-d4-e5-f6-g7",
        ] {
            assert!(parse_move(&pos, t).is_err(), "{t:?}");
        }
    }
}

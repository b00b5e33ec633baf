//! Position text, both directions.
//!
//! The form is PDN's FEN for Russian (GameType 25): the side to move, then
//! each colour's squares, `K` for a king, e.g. `W:Wa1,c1,Kd4:Bb6,Kh8`. The
//! tower variants extend a square entry with the Adiyukh notation: `e5-2/1` is
//! a tower of 2 checkers of the listed colour over 1 of the other colour,
//! `c7-3` a pure tower of 3, a bare square a single checker.
//!
//! Also accepted: numeric PDN squares on the 8x8 board (1 = b8 ... 32 = g1),
//! with `from-to` ranges in Russian and Brazilian (`W:W21-32:B1-12`); the
//! word `startpos`; trailing PDN fields such as `:H0:F1`, which are ignored;
//! a final `.`.
//!
//! ```
//! use shashki::{fen, Variant};
//! let pos = fen::parse_position(Variant::Adiyukh64, "B:Wd4-2/2:Be5-2/2").unwrap();
//! assert_eq!(fen::position_text(&pos), "B:Wd4-2/2:Be5-2/2");
//! let err = fen::parse_position(Variant::Russian, "W:Wa1,a1:B").unwrap_err();
//! assert_eq!(err.to_string(), "square a1 is listed twice");
//! ```

use crate::board::{squares, Color, Geometry, Square, SquareError};
use crate::input::quote;
use crate::position::{Piece, Position, Tower};
use crate::variant::Variant;
use std::fmt;

/// Why position text was refused. Each message names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing to parse.
    Empty,
    /// The side to move is not `W` or `B`.
    BadSide(String),
    /// A colour section does not start with `W` or `B`, or a colour is given twice.
    BadSection(String),
    /// A square entry names no dark square of this board.
    Square(SquareError),
    /// A square appears twice.
    Duplicate(String),
    /// A man stands on its own promotion rank (Russian, Brazilian).
    ManOnPromotionRank(String),
    /// More checkers of one colour than the variant has.
    TooManyCheckers { color: Color, count: u32, max: u32 },
    /// A tower count that is not a positive number (`-N` or `-N/M`).
    BadTower(String),
    /// Tower counts in a variant without towers.
    TowerNotAllowed(String),
    /// A `K` mark in a tower variant, where kings are positional.
    KingNotAllowed(String),
    /// Numeric squares on the 80-square board, or a bad number or range.
    BadNumber(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Empty => write!(f, "empty position text"),
            PositionError::BadSide(s) => write!(f, "side to move must be W or B, not '{s}'"),
            PositionError::BadSection(s) => {
                write!(f, "bad colour section '{s}' (expected W or B followed by squares, each colour once)")
            }
            PositionError::Square(e) => write!(f, "{e}"),
            PositionError::Duplicate(s) => write!(f, "square {s} is listed twice"),
            PositionError::ManOnPromotionRank(s) => {
                write!(f, "a man on {s} stands on its own promotion rank (it would be a king: write K{s})")
            }
            PositionError::TooManyCheckers { color, count, max } => {
                write!(f, "{count} {color} checkers, but the variant has only {max}")
            }
            PositionError::BadTower(s) => {
                write!(f, "malformed tower '{s}' (expected square-N or square-N/M with N >= 1)")
            }
            PositionError::TowerNotAllowed(s) => write!(f, "'{s}': towers exist only in the Adiyukh variants"),
            PositionError::KingNotAllowed(s) => write!(
                f,
                "'{s}': no K mark in Adiyukh (a tower is a king exactly when it stands on its promotion rank)"
            ),
            PositionError::BadNumber(s) => write!(f, "bad square number or range '{s}'"),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<SquareError> for PositionError {
    fn from(e: SquareError) -> Self {
        PositionError::Square(e)
    }
}

/// Parse position text for `variant`. Never panics, whatever the input.
pub fn parse_position(variant: Variant, text: &str) -> Result<Position, PositionError> {
    let text = text.trim().trim_end_matches('.').trim();
    if text.is_empty() {
        return Err(PositionError::Empty);
    }
    if text.eq_ignore_ascii_case("startpos") {
        return parse_position(variant, variant.start_fen());
    }
    let mut fields = text.split(':');
    let side_text = fields.next().unwrap_or("").trim();
    let side =
        parse_color(side_text).ok_or_else(|| PositionError::BadSide(side_text.to_string()))?;
    let geometry = variant.geometry();
    let mut pos = Position::empty(variant, side);
    let mut seen_color = [false; 2];
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        // PDN's optional half-move clock and move number fields.
        if (field.starts_with('H') || field.starts_with('F'))
            && field[1..].chars().all(|c| c.is_ascii_digit())
        {
            continue;
        }
        let mut chars = field.chars();
        let color = chars
            .next()
            .and_then(parse_color_char)
            .ok_or_else(|| PositionError::BadSection(field.to_string()))?;
        if std::mem::replace(&mut seen_color[color.index()], true) {
            return Err(PositionError::BadSection(field.to_string()));
        }
        for entry in chars.as_str().split(',') {
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            parse_entry(&mut pos, geometry, color, entry)?;
        }
    }
    for color in [Color::White, Color::Black] {
        let count = pos.checker_count(color);
        let max = variant.checkers_per_side();
        if count > max {
            return Err(PositionError::TooManyCheckers { color, count, max });
        }
    }
    Ok(pos)
}

impl Position {
    /// The start position of `variant`.
    pub fn start(variant: Variant) -> Position {
        parse_position(variant, variant.start_fen()).expect("start position text is valid")
    }
}

fn parse_color(s: &str) -> Option<Color> {
    let mut c = s.chars();
    let color = c.next().and_then(parse_color_char)?;
    c.next().is_none().then_some(color)
}

fn parse_color_char(c: char) -> Option<Color> {
    match c {
        'W' | 'w' => Some(Color::White),
        'B' | 'b' => Some(Color::Black),
        _ => None,
    }
}

/// One square entry of a colour section.
fn parse_entry(
    pos: &mut Position,
    g: Geometry,
    color: Color,
    entry: &str,
) -> Result<(), PositionError> {
    let variant = pos.variant();
    let (king, rest) = match entry.strip_prefix('K') {
        Some(r) => (true, r.trim()),
        None => (false, entry),
    };
    if king && variant.is_tower() {
        return Err(PositionError::KingNotAllowed(entry.to_string()));
    }
    let (square_text, counts) = match rest.split_once('-') {
        Some((s, c)) => (s.trim(), Some(c.trim())),
        None => (rest, None),
    };
    let numeric = square_text
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit());
    // Numeric ranges (`21-32`) in the men-and-kings variants.
    if numeric && !variant.is_tower() {
        let first = parse_number(g, square_text, entry)?;
        let last = match counts {
            Some(c) => parse_number(g, c, entry)?,
            None => first,
        };
        let (a, b) = (
            g.pdn_number(first).unwrap_or(0),
            g.pdn_number(last).unwrap_or(0),
        );
        if a > b {
            return Err(PositionError::BadNumber(entry.to_string()));
        }
        for n in a..=b {
            let sq = g
                .from_pdn_number(n as u32)
                .ok_or_else(|| PositionError::BadNumber(entry.to_string()))?;
            place(pos, g, color, king, sq, None)?;
        }
        return Ok(());
    }
    let sq = if numeric {
        parse_number(g, square_text, entry)?
    } else {
        g.parse_square(square_text)?
    };
    let tower = match counts {
        None => None,
        Some(_) if !variant.is_tower() => {
            return Err(PositionError::TowerNotAllowed(entry.to_string()))
        }
        Some(c) => {
            let bad = || PositionError::BadTower(entry.to_string());
            let (own, other) = match c.split_once('/') {
                Some((a, b)) => (a.trim(), b.trim()),
                None => (c, "0"),
            };
            let own: u8 = parse_count(own).ok_or_else(bad)?;
            let other: u8 = parse_count(other).ok_or_else(bad)?;
            if own == 0 {
                return Err(bad());
            }
            Some((own, other))
        }
    };
    place(pos, g, color, king, sq, tower)
}

fn parse_count(s: &str) -> Option<u8> {
    if s.is_empty() || s.len() > 2 || !s.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_number(g: Geometry, s: &str, entry: &str) -> Result<Square, PositionError> {
    if s.is_empty() || s.len() > 2 || !s.chars().all(|c| c.is_ascii_digit()) {
        return Err(PositionError::BadNumber(entry.to_string()));
    }
    s.parse::<u32>()
        .ok()
        .and_then(|n| g.from_pdn_number(n))
        .ok_or_else(|| PositionError::BadNumber(entry.to_string()))
}

fn place(
    pos: &mut Position,
    g: Geometry,
    color: Color,
    king: bool,
    sq: Square,
    tower: Option<(u8, u8)>,
) -> Result<(), PositionError> {
    if pos.occupied() & sq.bb() != 0 {
        return Err(PositionError::Duplicate(g.square_name(sq)));
    }
    let piece = if pos.variant().is_tower() {
        let (own, other) = tower.unwrap_or((1, 0));
        // Checked against the variant's total later; this bound keeps the
        // counts inside the key tables.
        let max = pos.variant().checkers_per_side() as u8;
        if own > max || other > max {
            return Err(PositionError::TooManyCheckers {
                color: if own > max { color } else { color.opposite() },
                count: own.max(other) as u32,
                max: max as u32,
            });
        }
        Piece::Tower(Tower {
            owner: color,
            own,
            other,
        })
    } else if king {
        Piece::King(color)
    } else {
        if g.promotion_mask(color) & sq.bb() != 0 {
            return Err(PositionError::ManOnPromotionRank(g.square_name(sq)));
        }
        Piece::Man(color)
    };
    pos.put(sq, piece);
    Ok(())
}

/// The position text of `pos`, squares in algebraic notation, in board order
/// (rank 1 first, files left to right).
pub fn position_text(pos: &Position) -> String {
    let g = pos.geometry();
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut first = true;
        for sq in squares(pos.pieces(color)) {
            if !first {
                out.push(',');
            }
            first = false;
            match pos.piece_at(sq) {
                Some(Piece::King(_)) => {
                    out.push('K');
                    out.push_str(&g.square_name(sq));
                }
                Some(Piece::Tower(t)) => {
                    out.push_str(&g.square_name(sq));
                    if t.other > 0 {
                        out.push_str(&format!("-{}/{}", t.own, t.other));
                    } else if t.own > 1 {
                        out.push_str(&format!("-{}", t.own));
                    }
                }
                _ => out.push_str(&g.square_name(sq)),
            }
        }
    }
    out
}

/// The position text with numeric PDN squares (8x8 men-and-kings variants
/// only; `None` otherwise), as PDN files and Hub clients write it.
pub fn position_text_numeric(pos: &Position) -> Option<String> {
    let g = pos.geometry();
    if pos.variant().is_tower() || g != Geometry::BOARD_64 {
        return None;
    }
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let mut numbers: Vec<(u8, bool)> = squares(pos.pieces(color))
            .map(|sq| (g.pdn_number(sq).unwrap_or(0), pos.kings() & sq.bb() != 0))
            .collect();
        numbers.sort_unstable();
        let list: Vec<String> = numbers
            .iter()
            .map(|&(n, k)| if k { format!("K{n}") } else { n.to_string() })
            .collect();
        out.push_str(&list.join(","));
    }
    Some(out)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&position_text(self))
    }
}

/// Why a Hub position was refused. Each message starts `bad position
/// '<text>': ` (the text quoted as every message quotes user text,
/// [`crate::input::quote`]) and then names the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubPositionError {
    /// Position text refused by [`parse_position`].
    Text { text: String, error: PositionError },
    /// Scan's form with another length than 33 characters.
    Length { text: String, chars: usize },
    /// Scan's form whose first character is not `W` or `B`.
    Side { text: String, side: char },
    /// Scan's form with a square (1 to 32) that is not `w`, `b`, `W`, `B` or `e`.
    Square {
        text: String,
        square: usize,
        found: char,
    },
}

impl fmt::Display for HubPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let expected = "the side to move (W or B) then 32 squares, each w, b, W, B or e";
        match self {
            HubPositionError::Text { text, error } => {
                write!(f, "bad position '{}': {error}", quote(text))
            }
            HubPositionError::Length { text, chars } => write!(
                f,
                "bad position '{}': {chars} characters, expected 33: {expected}",
                quote(text)
            ),
            HubPositionError::Side { text, side } => write!(
                f,
                "bad position '{}': the side to move is '{}', expected W or B",
                quote(text),
                quote(&side.to_string())
            ),
            HubPositionError::Square {
                text,
                square,
                found,
            } => write!(
                f,
                "bad position '{}': square {square} is '{}'; expected {expected}",
                quote(text),
                quote(&found.to_string())
            ),
        }
    }
}

impl std::error::Error for HubPositionError {}

/// The Hub `pos=` text of a position: Scan's 33-character form for Russian
/// and Brazilian (the side to move `W` or `B`, then squares 1 = b8 to
/// 32 = g1, each `w`/`b` a man, `W`/`B` a king, `e` empty), the position
/// text for Adiyukh. See [`crate::hub`].
pub fn hub_position_text(pos: &Position) -> String {
    let g = pos.geometry();
    if pos.variant().is_tower() || g != Geometry::BOARD_64 {
        return position_text(pos);
    }
    let mut s = String::with_capacity(33);
    s.push(match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for n in 1..=32 {
        let sq = g.from_pdn_number(n).expect("32 numbered squares");
        s.push(match pos.piece_at(sq) {
            Some(Piece::Man(Color::White)) => 'w',
            Some(Piece::Man(Color::Black)) => 'b',
            Some(Piece::King(Color::White)) => 'W',
            Some(Piece::King(Color::Black)) => 'B',
            _ => 'e',
        });
    }
    s
}

/// Read a Hub position for `variant`: Scan's form (Russian and Brazilian),
/// or position text as [`parse_position`] reads it. Never panics.
pub fn parse_hub_position(variant: Variant, text: &str) -> Result<Position, HubPositionError> {
    let refused = |error| HubPositionError::Text {
        text: text.to_string(),
        error,
    };
    let scan_form = !variant.is_tower()
        && variant.geometry() == Geometry::BOARD_64
        && !text.contains(':')
        && !text.eq_ignore_ascii_case("startpos");
    if !scan_form {
        return parse_position(variant, text).map_err(refused);
    }
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(HubPositionError::Length {
            text: text.to_string(),
            chars: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' => 'W',
        'B' => 'B',
        c => {
            return Err(HubPositionError::Side {
                text: text.to_string(),
                side: c,
            })
        }
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, &c) in chars[1..].iter().enumerate() {
        let n = i + 1;
        match c {
            'w' => white.push(n.to_string()),
            'W' => white.push(format!("K{n}")),
            'b' => black.push(n.to_string()),
            'B' => black.push(format!("K{n}")),
            'e' => {}
            c => {
                return Err(HubPositionError::Square {
                    text: text.to_string(),
                    square: n,
                    found: c,
                })
            }
        }
    }
    let fen_text = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    parse_position(variant, &fen_text).map_err(refused)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip() {
        for v in Variant::ALL {
            let p = Position::start(v);
            assert_eq!(position_text(&p), v.start_fen());
            assert_eq!(p.checker_count(Color::White), v.checkers_per_side());
        }
    }

    #[test]
    fn numeric_squares_and_ranges() {
        let a = parse_position(Variant::Russian, "W:W21-32:B1-12").unwrap();
        assert_eq!(a, Position::start(Variant::Russian));
        assert_eq!(
            position_text_numeric(&a).unwrap(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        let b = parse_position(
            Variant::Russian,
            "[FEN] B:WK29,5:B12:H0:F1.".trim_start_matches("[FEN] "),
        )
        .unwrap();
        assert_eq!(position_text(&b), "B:WKa1,a7:Bh6");
    }

    #[test]
    fn hub_position_text_reads_back() {
        let start = Position::start(Variant::Russian);
        assert_eq!(
            hub_position_text(&start),
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
        );
        let p = parse_position(Variant::Brazilian, "B:WKa1,c3:Bb8,Kh8").unwrap();
        let s = hub_position_text(&p);
        assert_eq!(parse_hub_position(Variant::Brazilian, &s).unwrap(), p);
        let t = parse_position(Variant::Adiyukh64, "W:Wd4-2/1:Be5").unwrap();
        assert_eq!(
            parse_hub_position(Variant::Adiyukh64, &hub_position_text(&t)).unwrap(),
            t
        );
    }

    #[test]
    fn bad_hub_positions_are_refused() {
        for bad in [
            "",
            "W",
            "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx",
            "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwww",
            "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
            "W:Wz9",
        ] {
            assert!(
                parse_hub_position(Variant::Russian, bad).is_err(),
                "{bad:?}"
            );
        }
        assert!(
            parse_hub_position(Variant::Adiyukh64, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").is_err()
        );
        assert!(parse_hub_position(Variant::Adiyukh80, "startpos").is_ok());
    }

    #[test]
    fn each_hub_position_refusal_names_its_problem() {
        let expected = "the side to move (W or B) then 32 squares, each w, b, W, B or e";
        let err = |text: &str| parse_hub_position(Variant::Russian, text).unwrap_err();
        let e = err("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert!(
            matches!(e, HubPositionError::Side { side: 'X', .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "bad position 'Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww': the side to move is 'X', expected W or B"
        );
        let e = err("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx");
        assert!(
            matches!(
                e,
                HubPositionError::Square {
                    square: 32,
                    found: 'x',
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("bad position 'Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx': square 32 is 'x'; expected {expected}")
        );
        let e = err("W");
        assert!(
            matches!(e, HubPositionError::Length { chars: 1, .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!("bad position 'W': 1 characters, expected 33: {expected}")
        );
        let e = err("W:Wa1,a1:B");
        assert!(matches!(
            &e,
            HubPositionError::Text {
                error: PositionError::Duplicate(_),
                ..
            }
        ));
        assert_eq!(
            e.to_string(),
            "bad position 'W:Wa1,a1:B': square a1 is listed twice"
        );
        assert_eq!(
            err("Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").to_string(),
            "bad position 'Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww': a man on b8 stands on its own promotion rank (it would be a king: write Kb8)"
        );
        // Long text is shortened, control characters escaped.
        let long = "W".repeat(71);
        assert_eq!(
            err(&long).to_string(),
            format!(
                "bad position '{}...': 71 characters, expected 33: {expected}",
                "W".repeat(40)
            )
        );
        assert!(err("W\u{7}bbbb")
            .to_string()
            .starts_with("bad position 'W\\u{7}bbbb': 6 characters"));
    }
}

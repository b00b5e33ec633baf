//! CheckerBoard's board and move structures, and their translation to and
//! from Shashki's positions and moves.
//!
//! CheckerBoard passes the board as `int board[8][8]`, indexed
//! `board[x][y]`, the same layout for every 8x8 game type it knows except
//! Italian, Spanish and Czech (CheckerBoard's `numbertocoors` and
//! `InitCheckerBoard`, and pydraughts' `get_board`, agree on it):
//!
//! * `x` runs from the h-file (`x = 0`) to the a-file (`x = 7`) and `y` from
//!   rank 8 (`y = 0`) to rank 1 (`y = 7`): `x = 7 - file`, `y = 7 - rank`
//!   (0-based), so the board is seen from Black's side and `board[0][0]` is
//!   h8. The dark squares are those with `x + y` even.
//! * Square numbers are the PDN numbers of Russian and Brazilian draughts:
//!   1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1; number `n` is at
//!   `y = (n - 1) / 4`, `x = 2 * (3 - (n - 1) % 4) + y % 2`.
//! * Piece codes: `CB_WHITE` 1 and `CB_BLACK` 2 or'ed with `CB_MAN` 4 or
//!   `CB_KING` 8: 5 white man, 9 white king, 6 black man, 10 black king,
//!   0 empty. White (the side that moves first in Russian and Brazilian)
//!   starts on squares 21-32 (`y` 5 to 7).

use shashki::board::Geometry;
use shashki::{fen, Color, Move, Piece, Position, Square, Variant};
use std::os::raw::c_int;

pub const CB_WHITE: c_int = 1;
pub const CB_BLACK: c_int = 2;
pub const CB_MAN: c_int = 4;
pub const CB_KING: c_int = 8;

const G: Geometry = Geometry::BOARD_64;

/// CheckerBoard's `int board[8][8]`, indexed `[x][y]`.
pub type Board8 = [[c_int; 8]; 8];

/// CheckerBoard's `struct coor`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coor {
    pub x: c_int,
    pub y: c_int,
}

/// CheckerBoard's `struct CBmove`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CbMove {
    /// Number of pieces captured (0 for a quiet move).
    pub jumps: c_int,
    /// The piece that lands on `to` (a man that is crowned lands a king).
    pub newpiece: c_int,
    /// The piece that leaves `from`.
    pub oldpiece: c_int,
    pub from: Coor,
    pub to: Coor,
    /// `path[0]` is `from`, `path[i]` the landing square of jump `i` (for
    /// a quiet move `path[1]` is `to`).
    pub path: [Coor; 12],
    /// The captured squares in the order they are jumped; after the last
    /// one an entry with `x = -1`.
    pub del: [Coor; 12],
    /// The piece codes of the captured pieces.
    pub delpiece: [c_int; 12],
}

/// The board coordinates of a square.
pub fn coor(sq: Square) -> Coor {
    let (file, rank) = G.file_rank(sq);
    Coor {
        x: 7 - file as c_int,
        y: 7 - rank as c_int,
    }
}

/// The square at board coordinates, if they name a dark square.
pub fn square_at(x: usize, y: usize) -> Option<Square> {
    if x > 7 || y > 7 {
        return None;
    }
    G.square(7 - x as u8, 7 - y as u8)
}

/// CheckerBoard's number (1..=32) of a square.
pub fn number(sq: Square) -> u8 {
    G.pdn_number(sq).expect("a square of the 8x8 board")
}

/// The square of a CheckerBoard number (1..=32).
pub fn square_of_number(n: c_int) -> Option<Square> {
    u32::try_from(n).ok().and_then(|n| G.from_pdn_number(n))
}

/// The code of a piece.
pub fn piece_code(piece: Option<Piece>) -> c_int {
    match piece {
        Some(Piece::Man(Color::White)) => CB_WHITE | CB_MAN,
        Some(Piece::King(Color::White)) => CB_WHITE | CB_KING,
        Some(Piece::Man(Color::Black)) => CB_BLACK | CB_MAN,
        Some(Piece::King(Color::Black)) => CB_BLACK | CB_KING,
        _ => 0,
    }
}

/// The side to move of a `color` argument.
pub fn side(color: c_int) -> Result<Color, String> {
    match color {
        CB_WHITE => Ok(Color::White),
        CB_BLACK => Ok(Color::Black),
        c => Err(format!(
            "color {c} is neither CB_WHITE (1) nor CB_BLACK (2)"
        )),
    }
}

/// Read a board: every entry is checked, then the position goes through
/// Shashki's position reader (piece counts, men on their promotion rank).
pub fn read_board(board: &Board8, color: c_int, variant: Variant) -> Result<Position, String> {
    let side = side(color)?;
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (x, column) in board.iter().enumerate() {
        for (y, &code) in column.iter().enumerate() {
            if code == 0 {
                continue;
            }
            let Some(sq) = square_at(x, y) else {
                return Err(format!(
                    "board[{x}][{y}] = {code}: a piece on a light square (pieces stand where x + y is even)"
                ));
            };
            let name = G.square_name(sq);
            match code {
                c if c == CB_WHITE | CB_MAN => white.push(name),
                c if c == CB_WHITE | CB_KING => white.push(format!("K{name}")),
                c if c == CB_BLACK | CB_MAN => black.push(name),
                c if c == CB_BLACK | CB_KING => black.push(format!("K{name}")),
                c => {
                    return Err(format!(
                        "board[{x}][{y}] = {c} is not a piece code (0 empty, 5 white man, 9 white king, 6 black man, 10 black king)"
                    ))
                }
            }
        }
    }
    let text = format!(
        "{}:W{}:B{}",
        side.letter(),
        white.join(","),
        black.join(",")
    );
    fen::parse_position(variant, &text).map_err(|e| format!("bad board: {e}"))
}

/// Write a position into a board.
pub fn write_board(board: &mut Board8, pos: &Position) {
    for (x, column) in board.iter_mut().enumerate() {
        for (y, code) in column.iter_mut().enumerate() {
            *code = square_at(x, y).map_or(0, |sq| piece_code(pos.piece_at(sq)));
        }
    }
}

/// The board of a position.
pub fn board_of(pos: &Position) -> Board8 {
    let mut b = [[0; 8]; 8];
    write_board(&mut b, pos);
    b
}

/// The `CBmove` of a legal move of `pos`.
pub fn cb_move(pos: &Position, mv: &Move) -> CbMove {
    let after = pos.play(mv);
    let mut m = CbMove {
        jumps: mv.capture_count() as c_int,
        oldpiece: piece_code(pos.piece_at(mv.from())),
        newpiece: piece_code(after.piece_at(mv.to())),
        from: coor(mv.from()),
        to: coor(mv.to()),
        ..CbMove::default()
    };
    m.path[0] = m.from;
    if mv.is_capture() {
        // A capture of twelve pieces has twelve landing squares: the last
        // one, `to`, does not fit after `from` and ten others.
        for (slot, sq) in m.path[1..].iter_mut().zip(mv.path()) {
            *slot = coor(sq);
        }
        let mut n = 0;
        for (i, sq) in mv.jumped().enumerate().take(12) {
            m.del[i] = coor(sq);
            m.delpiece[i] = piece_code(pos.piece_at(sq));
            n = i + 1;
        }
        if n < 12 {
            m.del[n].x = -1;
        }
    } else {
        m.path[1] = m.to;
        m.del[0].x = -1;
    }
    m
}

/// The legal moves of `pos` from square number `from` to square number
/// `to` (several when captures take different pieces on the way).
pub fn moves_between(pos: &Position, from: c_int, to: c_int) -> Vec<Move> {
    let (Some(from), Some(to)) = (square_of_number(from), square_of_number(to)) else {
        return Vec::new();
    };
    pos.legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .copied()
        .collect()
}

/// The reply to `get movelist`: `movelist <n>,` then each move as
/// `<jumps>,<oldpiece>,<newpiece>,<from>,<to>` followed, per jump, by
/// `<landing square>,<captured square>,<captured piece>`, and `;`.
/// `movelist 0` when there is no legal move.
pub fn movelist(pos: &Position) -> String {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return "movelist 0".into();
    }
    let mut s = format!("movelist {},", moves.len());
    for mv in moves.iter() {
        let after = pos.play(mv);
        s.push_str(&format!(
            "{},{},{},{},{}",
            mv.capture_count(),
            piece_code(pos.piece_at(mv.from())),
            piece_code(after.piece_at(mv.to())),
            number(mv.from()),
            number(mv.to())
        ));
        for (landing, jumped) in mv.path().zip(mv.jumped()) {
            s.push_str(&format!(
                ",{},{},{}",
                number(landing),
                number(jumped),
                piece_code(pos.piece_at(jumped))
            ));
        }
        s.push(';');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_coordinates_follow_checkerboard() {
        // CheckerBoard's numbertocoors for Russian and Brazilian.
        for n in 1..=32 {
            let sq = square_of_number(n).unwrap();
            let c = coor(sq);
            let y = (n - 1) / 4;
            let x = 2 * (3 - (n - 1) % 4) + y % 2;
            assert_eq!((c.x, c.y), (x, y), "square {n}");
            assert_eq!(number(sq) as c_int, n);
            assert_eq!(square_at(c.x as usize, c.y as usize), Some(sq));
            assert_eq!((c.x + c.y) % 2, 0);
        }
        assert_eq!(G.square_name(square_of_number(1).unwrap()), "b8");
        assert_eq!(G.square_name(square_of_number(29).unwrap()), "a1");
        assert_eq!(square_at(0, 1), None);
        assert_eq!(square_of_number(0), None);
        assert_eq!(square_of_number(33), None);
    }

    #[test]
    fn the_start_position_is_checkerboards() {
        // CheckerBoard's InitCheckerBoard: black men on y 0-2, white on 5-7.
        let b = board_of(&Position::start(Variant::Russian));
        for (x, column) in b.iter().enumerate() {
            for (y, &code) in column.iter().enumerate() {
                let want = match (x + y) % 2 {
                    1 => 0,
                    _ if y <= 2 => CB_BLACK | CB_MAN,
                    _ if y >= 5 => CB_WHITE | CB_MAN,
                    _ => 0,
                };
                assert_eq!(code, want, "board[{x}][{y}]");
            }
        }
        let back = read_board(&b, CB_WHITE, Variant::Russian).unwrap();
        assert_eq!(back, Position::start(Variant::Russian));
    }
}

//! A text diagram of a position, White at the bottom.
//!
//! Men `w`/`b`, kings `W`/`B`; a tower shows its owner and counts, e.g.
//! `w2/1` (2 white over 1 black), upper case when it is a king.
//!
//! ```
//! use shashki::{diagram, Position, Variant};
//! let text = diagram::diagram(&Position::start(Variant::Russian));
//! assert!(text.lines().next().unwrap().starts_with("8 "));
//! ```

use crate::board::Color;
use crate::fen;
use crate::game::Game;
use crate::notation;
use crate::position::{Piece, Position};

/// The diagram of a game's position, then one `key value` line each:
/// `variant`, `fen`, `pdn` (numeric squares, 8x8 men-and-kings only),
/// `side`, `moves` (all legal moves), `count` (Adiyukh) and `status`
/// (`playing`, or the result with its reason). What `shashki show` and the
/// protocol's `d` print.
pub fn report(game: &Game) -> String {
    let pos = game.position();
    let mut out = diagram(pos);
    out.push_str(&format!("variant {}\n", pos.variant()));
    out.push_str(&format!("fen {}\n", fen::position_text(pos)));
    if let Some(numeric) = fen::position_text_numeric(pos) {
        out.push_str(&format!("pdn {numeric}\n"));
    }
    out.push_str(&format!("side {}\n", pos.side_to_move()));
    out.push_str(&format!(
        "moves {}\n",
        notation::legal_move_texts(pos).join(" ")
    ));
    if pos.variant().is_tower() {
        let (w, b) = pos.half_board_score();
        out.push_str(&format!("count {w}:{b}\n"));
    }
    match game.outcome() {
        Some(o) => out.push_str(&format!("status {o}\n")),
        None => out.push_str("status playing\n"),
    }
    out
}

/// The diagram: one line per rank from 8 down to 1, then the file letters.
pub fn diagram(pos: &Position) -> String {
    let g = pos.geometry();
    let cell = if pos.variant().is_tower() { 6 } else { 2 };
    let mut out = String::new();
    for rank in (0..8u8).rev() {
        out.push_str(&format!("{} ", rank + 1));
        for file in 0..g.files() {
            let text = match g.square(file, rank) {
                None => " ".to_string(),
                Some(sq) => match pos.piece_at(sq) {
                    None => ".".to_string(),
                    Some(Piece::Man(c)) => letter(c, false).to_string(),
                    Some(Piece::King(c)) => letter(c, true).to_string(),
                    Some(Piece::Tower(t)) => {
                        let king = g.promotion_mask(t.owner) & sq.bb() != 0;
                        let mut s = letter(t.owner, king).to_string();
                        if t.own > 1 || t.other > 0 {
                            s.push_str(&t.own.to_string());
                        }
                        if t.other > 0 {
                            s.push_str(&format!("/{}", t.other));
                        }
                        s
                    }
                },
            };
            out.push_str(&format!("{text:<cell$}"));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out.push_str("  ");
    for file in 0..g.files() {
        out.push_str(&format!("{:<cell$}", (b'a' + file) as char));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn letter(c: Color, king: bool) -> char {
    match (c, king) {
        (Color::White, false) => 'w',
        (Color::White, true) => 'W',
        (Color::Black, false) => 'b',
        (Color::Black, true) => 'B',
    }
}

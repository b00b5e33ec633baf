//! A picture of a position as a standalone SVG document.
//!
//! The board is drawn with `a1` dark at the bottom left (White at the
//! bottom; [`SvgOptions::flip`] turns it round), 8x8 or 8 ranks x 10 files.
//! Men are discs; a king has a gold ring and a crown mark. A tower
//! (Adiyukh) is a stack of discs, the bottom ones in the colour of the
//! captured checkers under it and the top ones in its owner's colour (at most
//! 6 discs are drawn), with its composition as a label: `2/1` (2 of the
//! owner's colour over 1 of the other) or `3` (a pure tower). A tower on its
//! owner's promotion rank is a king and gets the ring too. The side to move
//! is named under the board.
//!
//! Each piece is a `<g>` with `class="piece man|king|tower white|black"` and
//! `data-square`, so the output is easy to check and to style.
//!
//! ```
//! use shashki::{tools::svg, Position, Variant};
//! let text = svg::svg(&Position::start(Variant::Russian));
//! assert!(text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert_eq!(text.matches("class=\"piece ").count(), 24);
//! ```

use crate::board::Color;
use crate::position::{Piece, Position};
use std::fmt::Write;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct SvgOptions {
    /// Black at the bottom.
    pub flip: bool,
    /// File letters and rank numbers around the board.
    pub coordinates: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            flip: false,
            coordinates: true,
        }
    }
}

const CELL: i32 = 60;
const MARGIN: i32 = 28;
const FOOTER: i32 = 34;
const LIGHT: &str = "#f0dcb4";
const DARK: &str = "#a0704c";
const GOLD: &str = "#e0b020";

fn fill(c: Color) -> (&'static str, &'static str) {
    match c {
        Color::White => ("#f8f6f0", "#404040"),
        Color::Black => ("#282828", "#000000"),
    }
}

/// The picture of `pos` with the default options.
pub fn svg(pos: &Position) -> String {
    svg_with(pos, &SvgOptions::default())
}

/// The picture of `pos`.
pub fn svg_with(pos: &Position, opts: &SvgOptions) -> String {
    let g = pos.geometry();
    let files = g.files() as i32;
    let ranks = 8;
    let width = files * CELL + 2 * MARGIN;
    let height = ranks * CELL + 2 * MARGIN + FOOTER;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" font-family=\"sans-serif\">"
    );
    let _ = writeln!(
        s,
        "<title>{} {}</title>",
        pos.variant(),
        crate::fen::position_text(pos)
    );
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    // Screen cell of a board file/rank.
    let place = |file: i32, rank: i32| -> (i32, i32) {
        let (col, row) = if opts.flip {
            (files - 1 - file, rank)
        } else {
            (file, 7 - rank)
        };
        (MARGIN + col * CELL, MARGIN + row * CELL)
    };
    s.push_str("<g class=\"board\">\n");
    for rank in 0..ranks {
        for file in 0..files {
            let (x, y) = place(file, rank);
            let dark = (file + rank) % 2 == 0;
            let _ = writeln!(
                s,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{}\"/>",
                if dark { DARK } else { LIGHT }
            );
        }
    }
    let _ = writeln!(
        s,
        "<rect x=\"{MARGIN}\" y=\"{MARGIN}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#303030\" stroke-width=\"2\"/>",
        files * CELL,
        ranks * CELL
    );
    s.push_str("</g>\n");
    if opts.coordinates {
        s.push_str(
            "<g class=\"coordinates\" font-size=\"16\" fill=\"#303030\" text-anchor=\"middle\">\n",
        );
        for file in 0..files {
            let (x, _) = place(file, 0);
            let letter = (b'a' + file as u8) as char;
            let y = MARGIN + ranks * CELL + 19;
            let _ = writeln!(s, "<text x=\"{}\" y=\"{y}\">{letter}</text>", x + CELL / 2);
        }
        for rank in 0..ranks {
            let (_, y) = place(0, rank);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\">{}</text>",
                MARGIN / 2,
                y + CELL / 2 + 6,
                rank + 1
            );
        }
        s.push_str("</g>\n");
    }
    s.push_str("<g class=\"pieces\">\n");
    for rank in 0..ranks {
        for file in 0..files {
            let Some(sq) = g.square(file as u8, rank as u8) else {
                continue;
            };
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let (x, y) = place(file, rank);
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            let name = g.square_name(sq);
            match piece {
                Piece::Man(c) => {
                    let _ = writeln!(
                        s,
                        "<g class=\"piece man {c}\" data-square=\"{name}\">{}</g>",
                        disc(cx, cy, c)
                    );
                }
                Piece::King(c) => {
                    let _ = writeln!(
                        s,
                        "<g class=\"piece king {c}\" data-square=\"{name}\">{}{}</g>",
                        disc(cx, cy, c),
                        crown(cx, cy)
                    );
                }
                Piece::Tower(t) => {
                    let king = g.promotion_mask(t.owner) & sq.bb() != 0;
                    let kind = if king { "tower king" } else { "tower" };
                    let _ = write!(
                        s,
                        "<g class=\"piece {kind} {}\" data-square=\"{name}\" data-own=\"{}\" data-other=\"{}\">",
                        t.owner, t.own, t.other
                    );
                    // Bottom to top: the captured checkers, then the owner's.
                    let height = t.height() as i32;
                    let drawn = height.min(6);
                    let step = if drawn > 1 {
                        20 / (drawn - 1).max(1)
                    } else {
                        0
                    };
                    let base = cy + 10.min(step * (drawn - 1) / 2);
                    for i in 0..drawn {
                        // Which checker of the stack disc `i` shows: keep the
                        // top `own` discs in the owner's colour.
                        let from_top = drawn - 1 - i;
                        let own_drawn = (t.own as i32).min(drawn);
                        let colour = if from_top < own_drawn {
                            t.owner
                        } else {
                            t.owner.opposite()
                        };
                        let _ = write!(s, "{}", disc(cx, base - i * step, colour));
                    }
                    let top = base - (drawn - 1) * step;
                    if king {
                        s.push_str(&crown(cx, top));
                    }
                    if height > 1 {
                        let label = if t.other > 0 {
                            format!("{}/{}", t.own, t.other)
                        } else {
                            t.own.to_string()
                        };
                        let (text_fill, _) = fill(t.owner.opposite());
                        let (_, edge) = fill(t.owner);
                        let _ = write!(
                            s,
                            "<text class=\"count\" x=\"{cx}\" y=\"{}\" font-size=\"15\" font-weight=\"bold\" text-anchor=\"middle\" fill=\"{text_fill}\" stroke=\"{edge}\" stroke-width=\"0.5\">{label}</text>",
                            top + 5
                        );
                    }
                    s.push_str("</g>\n");
                }
            }
        }
    }
    s.push_str("</g>\n");
    let side = pos.side_to_move();
    let (f, e) = fill(side);
    let y = MARGIN + ranks * CELL + 22 + FOOTER / 2;
    let _ = writeln!(
        s,
        "<g class=\"side-to-move\"><circle cx=\"{}\" cy=\"{}\" r=\"8\" fill=\"{f}\" stroke=\"{e}\" stroke-width=\"2\"/><text x=\"{}\" y=\"{}\" font-size=\"16\" fill=\"#303030\">{} to move</text></g>",
        MARGIN + 8,
        y - 5,
        MARGIN + 24,
        y,
        match side {
            Color::White => "White",
            Color::Black => "Black",
        }
    );
    s.push_str("</svg>\n");
    s
}

fn disc(cx: i32, cy: i32, c: Color) -> String {
    let (f, e) = fill(c);
    format!(
        "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"23\" fill=\"{f}\" stroke=\"{e}\" stroke-width=\"2\"/>"
    )
}

/// The king's mark: a gold ring and a small crown.
fn crown(cx: i32, cy: i32) -> String {
    format!(
        "<circle class=\"crown\" cx=\"{cx}\" cy=\"{cy}\" r=\"15\" fill=\"none\" stroke=\"{GOLD}\" stroke-width=\"3\"/><path d=\"M {} {} l 3 -9 l 4 6 l 3 -8 l 3 8 l 4 -6 l 3 9 z\" fill=\"{GOLD}\"/>",
        cx - 10,
        cy + 4
    )
}

//! The opening book: a move for each position of the first moves after
//! the shipped openings, chosen by a deep search of that position (made by
//! `shashki book`, [`crate::tools::book`]). The engine plays a book move at
//! once in a timed game (the `OwnBook` option), and keeps the clock for
//! later; analysis, fixed depths and node counts always search.
//!
//! # File format
//!
//! `books/<variant>.txt` (Russian and Brazilian), plain UTF-8 text:
//!
//! ```text
//! # comments
//! variant russian
//! B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,e3,g3,b4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 d6-c5 -8 20
//! ```
//!
//! One `<position text> <move> <score> <depth>` line per position: the
//! move in the rule book's notation, the search's score from the side to
//! move's view (centi-men) and its depth. Every line is checked when the
//! book is read: a bad position, an illegal move or a repeated position is
//! an error naming the line.
//!
//! ```
//! use shashki::book::Book;
//! use shashki::{Position, Variant};
//! let text = "variant russian\n\
//!     W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 c3-d4 5 12\n";
//! let book = Book::parse(text).unwrap();
//! let entry = book.probe(&Position::start(Variant::Russian)).unwrap();
//! assert_eq!((entry.score, entry.depth), (5, 12));
//! let e = Book::parse("variant russian\nW:Wa1:Bh8 a1-c3 0 1\n").unwrap_err();
//! assert!(e.starts_with("book line 2: move 'a1-c3'"), "{e}");
//! ```

use crate::fen::{parse_position, position_text};
use crate::moves::Move;
use crate::notation::{move_text, parse_move};
use crate::position::Position;
use crate::variant::Variant;
use once_cell::sync::Lazy;
use std::collections::HashMap;

/// A position's book move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The search's score, from the side to move's view.
    pub score: i32,
    /// The depth of that search.
    pub depth: u32,
}

/// A variant's book: a move per position.
#[derive(Clone, Debug, Default)]
pub struct Book {
    variant: Option<Variant>,
    /// By position key: the position (to tell a key's collision) and its move.
    entries: HashMap<u64, (Position, BookMove)>,
}

/// The books shipped in `books/`, in [`Variant::ALL`]'s order: Russian's
/// and Brazilian's (none for the Adiyukh variants).
static BUILT_IN: Lazy<[Option<Book>; 4]> = Lazy::new(|| {
    let parse = |text: &str| Book::parse(text).expect("a shipped book reads");
    [
        Some(parse(include_str!("../books/russian.txt"))),
        Some(parse(include_str!("../books/brazilian.txt"))),
        None,
        None,
    ]
});

impl Book {
    /// The book shipped for `variant`, where there is one.
    pub fn built_in(variant: Variant) -> Option<&'static Book> {
        let i = Variant::ALL.iter().position(|&v| v == variant)?;
        BUILT_IN[i].as_ref()
    }

    /// An empty book of `variant`.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant: Some(variant),
            entries: HashMap::new(),
        }
    }

    /// The variant (`None` for a book read from a text without lines).
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's move in `pos`, if it has one.
    pub fn probe(&self, pos: &Position) -> Option<BookMove> {
        if Some(pos.variant()) != self.variant {
            return None;
        }
        let (p, m) = self.entries.get(&pos.key())?;
        (p == pos).then_some(*m)
    }

    /// Add or replace `pos`'s move. `mv` must be legal in `pos`.
    pub fn insert(&mut self, pos: &Position, entry: BookMove) {
        self.entries.insert(pos.key(), (*pos, entry));
    }

    /// Read a book file (the format above).
    pub fn parse(text: &str) -> Result<Book, String> {
        let mut book = Book::default();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let err = |m: String| format!("book line {}: {m}", i + 1);
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let ["variant", id] = fields[..] {
                if book.variant.is_some() {
                    return Err(err("a second 'variant' line".into()));
                }
                let v: Variant = id.parse().map_err(|e| err(format!("{e}")))?;
                book.variant = Some(v);
                continue;
            }
            let Some(variant) = book.variant else {
                return Err(err("a book starts with 'variant <id>'".into()));
            };
            let [pos_text, move_text, score, depth] = fields[..] else {
                return Err(err(format!(
                    "expected '<position> <move> <score> <depth>', found {} fields",
                    fields.len()
                )));
            };
            let pos = parse_position(variant, pos_text).map_err(|e| err(e.to_string()))?;
            let mv =
                parse_move(&pos, move_text).map_err(|e| err(format!("move '{move_text}': {e}")))?;
            let score = score
                .parse::<i32>()
                .map_err(|_| err(format!("score '{score}' is not a whole number")))?;
            let depth = depth
                .parse::<u32>()
                .map_err(|_| err(format!("depth '{depth}' is not a whole number")))?;
            if book.probe(&pos).is_some() {
                return Err(err("the position is already in the book".into()));
            }
            book.insert(&pos, BookMove { mv, score, depth });
        }
        Ok(book)
    }

    /// The file text, one line per position in the order of their texts,
    /// after `comment` (each of its lines made a comment).
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for c in comment.lines() {
            out.push_str(&format!("# {c}\n"));
        }
        if let Some(v) = self.variant {
            out.push_str(&format!("variant {}\n", v.id()));
        }
        let mut lines: Vec<String> = self
            .entries
            .values()
            .map(|(p, m)| {
                format!(
                    "{} {} {} {}",
                    position_text(p),
                    move_text(p, &m.mv),
                    m.score,
                    m.depth
                )
            })
            .collect();
        lines.sort();
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str =
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8";

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases = [
            (
                "W:Wa1:Bh8 a1-b2 0 1\n",
                "book line 1: a book starts with 'variant <id>'",
            ),
            ("variant chess\n", "book line 1: "),
            (
                "variant russian\nvariant russian\n",
                "book line 2: a second 'variant' line",
            ),
            (
                "variant russian\n\nW:Wa1:Bh8 a1-b2 0\n",
                "book line 3: expected",
            ),
            ("variant russian\nW:Wz9:Bh8 a1-b2 0 1\n", "book line 2:"),
            (
                "variant russian\nW:Wa1:Bh8 a1-c3 0 1\n",
                "book line 2: move 'a1-c3'",
            ),
            (
                "variant russian\nW:Wa1:Bh8 a1-b2 x 1\n",
                "book line 2: score 'x'",
            ),
            (
                "variant russian\nW:Wa1:Bh8 a1-b2 0 -1\n",
                "book line 2: depth '-1'",
            ),
            (
                "variant russian\nW:Wa1:Bh8 a1-b2 0 1\nW:Wa1:Bh8 a1-b2 3 4\n",
                "book line 3: the position is already in the book",
            ),
        ];
        for (text, want) in cases {
            let e = Book::parse(text).unwrap_err();
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_book_reads_back_what_it_writes_and_answers_only_its_variant() {
        let text = format!("variant russian\n{START} c3-d4 5 12\nW:Wa1:Bh8 a1-b2 -30 7\n");
        let book = Book::parse(&text).unwrap();
        assert_eq!(book.len(), 2);
        let again = Book::parse(&book.to_text("made here\ntwo lines")).unwrap();
        assert_eq!(again.len(), 2);
        let start = Position::start(Variant::Russian);
        let m = again.probe(&start).unwrap();
        assert_eq!(move_text(&start, &m.mv), "c3-d4");
        assert_eq!((m.score, m.depth), (5, 12));
        // The same squares in Brazilian are another game.
        assert!(again.probe(&Position::start(Variant::Brazilian)).is_none());
        // A position not in the book.
        let after = start.play(&m.mv);
        assert!(again.probe(&after).is_none());
    }

    #[test]
    fn the_shipped_books_read_and_hold_legal_moves_of_their_variant() {
        for v in [Variant::Russian, Variant::Brazilian] {
            let book = Book::built_in(v).unwrap();
            assert_eq!(book.variant(), Some(v));
            assert!(book.len() >= 100, "{v}: {} positions", book.len());
            for (p, m) in book.entries.values() {
                assert!(p.legal_moves().iter().any(|l| l.same_result(&m.mv)));
            }
        }
        for v in [Variant::Adiyukh64, Variant::Adiyukh80] {
            assert!(Book::built_in(v).is_none(), "{v}: no book is shipped");
        }
    }
}

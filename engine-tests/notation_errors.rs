//! Position and move text: bad input gives an error whose message names the
//! problem; the accepted alternative forms of README.md ("Notation") work.

use crate::common::position;
use shashki::{fen, notation, Position, Variant};

const ALL: [Variant; 4] = Variant::ALL;
const MEN_AND_KINGS: [Variant; 2] = [Variant::Russian, Variant::Brazilian];
const TOWERS: [Variant; 2] = [Variant::Adiyukh64, Variant::Adiyukh80];

/// The position text must be refused with a message containing every one of
/// `needles`.
fn position_err(variant: Variant, text: &str, needles: &[&str]) {
    match fen::parse_position(variant, text) {
        Ok(p) => panic!("{variant}: {text:?} was accepted as {p}"),
        Err(e) => {
            let msg = e.to_string();
            for n in needles {
                assert!(
                    msg.contains(n),
                    "{variant}: {text:?}: message {msg:?} does not mention {n:?}"
                );
            }
        }
    }
}

/// The move text must be refused with a message containing every one of
/// `needles`.
fn move_err(pos: &Position, text: &str, needles: &[&str]) {
    match notation::parse_move(pos, text) {
        Ok(m) => panic!(
            "{pos}: {text:?} was accepted as {}",
            notation::move_text(pos, &m)
        ),
        Err(e) => {
            let msg = e.to_string();
            for n in needles {
                assert!(
                    msg.contains(n),
                    "{pos}: {text:?}: message {msg:?} does not mention {n:?}"
                );
            }
        }
    }
}

/// The move text must parse to the legal move printed as `full`.
fn move_ok(pos: &Position, text: &str, full: &str) {
    let mv =
        notation::parse_move(pos, text).unwrap_or_else(|e| panic!("{pos}: {text:?} refused: {e}"));
    assert_eq!(notation::move_text(pos, &mv), full, "{pos}: {text:?}");
    let exact =
        notation::parse_move(pos, full).unwrap_or_else(|e| panic!("{pos}: {full:?} refused: {e}"));
    assert_eq!(mv, exact, "{pos}: {text:?} and {full:?} name the same move");
}

// ---------------------------------------------------------------- positions

#[test]
fn position_unknown_square() {
    for v in ALL {
        position_err(v, "W:Wz9:B", &["unknown square", "z9"]);
        position_err(v, "W:Wa9:B", &["unknown square", "a9"]);
        position_err(v, "W:W:Bc0", &["unknown square", "c0"]);
    }
    // Files i and j exist only on the 80-square board.
    for v in [Variant::Russian, Variant::Brazilian, Variant::Adiyukh64] {
        position_err(v, "W:Wi1:B", &["unknown square", "i1"]);
    }
    position(Variant::Adiyukh80, "W:Wi1:B");
    position_err(Variant::Adiyukh80, "W:Wl1:B", &["unknown square", "l1"]);
}

#[test]
fn position_light_square() {
    for v in ALL {
        position_err(v, "W:Wa2:B", &["light square", "a2"]);
        position_err(v, "W:Wc3:Bd5", &["light square", "d5"]);
    }
}

#[test]
fn position_square_listed_twice() {
    for v in ALL {
        position_err(v, "W:Wa1,a1:B", &["a1", "listed twice"]);
        position_err(v, "W:Wc3:Bc3", &["c3", "listed twice"]);
    }
}

#[test]
fn position_man_on_own_promotion_rank() {
    for v in MEN_AND_KINGS {
        position_err(v, "W:Wb8:B", &["b8", "promotion rank"]);
        position_err(v, "W:W:Ba1", &["a1", "promotion rank"]);
        // As kings they are fine, and a man on the far side's rank is a man.
        position(v, "W:WKb8:BKa1");
        position(v, "W:Wa1:Bb8");
    }
    // In Adiyukh a tower there is simply a king.
    for v in TOWERS {
        let p = position(v, "W:Wb8:Ba1");
        assert_eq!(p.kings().count_ones(), 2, "{v}: both are kings");
    }
}

#[test]
fn position_too_many_checkers() {
    let thirteen_white = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4:B";
    for v in MEN_AND_KINGS {
        position_err(v, thirteen_white, &["13", "white", "12"]);
        position_err(
            v,
            "W:W:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8,a5",
            &["13", "black", "12"],
        );
        // Numeric ranges count too.
        position_err(v, "W:W20-32:B", &["13", "white", "12"]);
        position(v, "W:W21-32:B1-12");
    }
    // Tower counts push a colour above 12 (adiyukh-64) or 15 (adiyukh-80).
    position_err(
        Variant::Adiyukh64,
        "W:Wa1-10,c1,e1,g1:B",
        &["13", "white", "12"],
    );
    position_err(Variant::Adiyukh64, "W:Wa1-1/12:Bc1", &["13", "black", "12"]);
    position_err(Variant::Adiyukh64, "W:Wa1-13:B", &["13", "white", "12"]);
    position(Variant::Adiyukh64, "W:Wa1-12:Bc1-12");
    position_err(Variant::Adiyukh80, "W:Wa1-16:B", &["16", "white", "15"]);
    position_err(Variant::Adiyukh80, "W:Wa1-1/15:Bc1", &["16", "black", "15"]);
    position(Variant::Adiyukh80, "W:Wa1-10/5:B");
}

#[test]
fn position_malformed_tower_count() {
    for v in TOWERS {
        for bad in [
            "e5-0", "e5-x", "e5-2/", "e5-/2", "e5-0/1", "e5-2/x", "e5-", "e5-2/1/1", "e5--1",
        ] {
            position_err(v, &format!("W:W{bad}:B"), &["malformed tower", bad]);
        }
        // Well-formed ones.
        for good in ["e5-1", "e5-2/1", "e5-1/0", "e5-3"] {
            position(v, &format!("W:W{good}:B"));
        }
    }
}

#[test]
fn position_towers_only_in_adiyukh() {
    for v in MEN_AND_KINGS {
        position_err(
            v,
            "W:We5-2:B",
            &["e5-2", "towers exist only in the Adiyukh"],
        );
        position_err(v, "W:We5-2/1:B", &["e5-2/1", "towers"]);
    }
}

#[test]
fn position_no_king_mark_in_adiyukh() {
    for v in TOWERS {
        position_err(v, "W:WKe5:B", &["Ke5", "no K mark in Adiyukh"]);
        position_err(v, "W:W:BKa1", &["Ka1", "no K mark"]);
    }
}

#[test]
fn position_bad_side_letter() {
    for v in ALL {
        position_err(v, "X:Wa1:Bh8", &["side to move must be W or B", "'X'"]);
        position_err(v, "WB:Wa1:Bh8", &["side to move", "WB"]);
        position_err(v, ":Wa1:Bh8", &["side to move"]);
    }
}

#[test]
fn position_other_refusals() {
    for v in ALL {
        position_err(v, "", &["empty position text"]);
        position_err(v, "   ", &["empty position text"]);
        position_err(v, "W:Xa1:B", &["bad colour section", "Xa1"]);
        position_err(v, "W:Wa1:Wc1", &["bad colour section"]);
    }
}

#[test]
fn position_accepted_forms() {
    for v in ALL {
        let start = Position::start(v);
        assert_eq!(position(v, "startpos"), start);
        assert_eq!(position(v, v.start_fen()), start);
        assert_eq!(position(v, &format!("{}.", v.start_fen())), start);
        assert_eq!(position(v, &format!("{}:H0:F1", v.start_fen())), start);
        assert_eq!(fen::position_text(&start), v.start_fen());
    }
    for v in MEN_AND_KINGS {
        assert_eq!(position(v, "W:W21-32:B1-12"), Position::start(v));
        assert_eq!(position(v, "B:WK29,5:B12"), position(v, "B:WKa1,a7:Bh6"));
    }
}

// ---------------------------------------------------------------- moves

#[test]
fn move_light_square() {
    for v in ALL {
        let pos = Position::start(v);
        move_err(&pos, "c3-c4", &["c3-c4", "light square", "c4"]);
        move_err(&pos, "b3-c4", &["light square", "b3"]);
    }
}

#[test]
fn move_unknown_square() {
    for v in ALL {
        let pos = Position::start(v);
        move_err(&pos, "c3-z9", &["c3-z9", "unknown square", "z9"]);
        move_err(&pos, "c3-d9", &["unknown square", "d9"]);
    }
    let pos = Position::start(Variant::Russian);
    move_err(&pos, "i3-h4", &["unknown square"]);
}

#[test]
fn move_illegal_lists_the_legal_moves() {
    let start_moves = [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ];
    for v in ALL {
        let pos = Position::start(v);
        let mut needles = vec!["a1-b2", "not a legal move", "legal moves:"];
        needles.extend(start_moves);
        move_err(&pos, "a1-b2", &needles);
        move_err(&pos, "c3-e5", &["not a legal move", "c3-d4"]);
        move_err(&pos, "c3:e5", &["not a legal move"]);
    }
    // A capture is compulsory: the quiet move is refused and the capture listed.
    let pos = position(Variant::Adiyukh64, "W:Wd4:Bc3");
    move_err(&pos, "d4-e5", &["d4-e5", "not a legal move", "d4:b2"]);
    let pos = position(Variant::Russian, "W:Wc3:Bd4");
    move_err(&pos, "c3-b4", &["not a legal move", "c3:e5"]);
    // No legal move at all (rules/adiyukh.md A15).
    let pos = position(Variant::Adiyukh64, "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1");
    move_err(&pos, "b8-c7", &["b8-c7", "no legal move"]);
}

#[test]
fn move_ambiguous_short_form() {
    // rules/adiyukh.md A12: two distinct captures go from f8 to h2.
    let pos = position(Variant::Adiyukh64, "W:Wf8:Bc5,b2,c3,e3,g3");
    for short in ["f8:h2", "f8xh2", "f8:f4:h2"] {
        move_err(
            &pos,
            short,
            &[short, "ambiguous", "f8:a3:c1:f4:h2", "f8:b4:d2:f4:h2"],
        );
    }
    // Naming a square of one route only settles it.
    move_ok(&pos, "f8:a3:h2", "f8:a3:c1:f4:h2");
    move_ok(&pos, "f8:d2:h2", "f8:b4:d2:f4:h2");
    move_ok(&pos, "f8:c1:h2", "f8:a3:c1:f4:h2");
    move_ok(&pos, "f8:h4", "f8:b4:e1:h4");
}

#[test]
fn move_garbage() {
    for v in ALL {
        let pos = Position::start(v);
        for t in [
            "",
            "   ",
            "-",
            "::",
            "c3-",
            "-d4",
            "c3--d4",
            "c3:",
            "hello world",
            "\u{0}",
            "c3-d4-",
        ] {
            assert!(
                notation::parse_move(&pos, t).is_err(),
                "{v}: {t:?} accepted"
            );
        }
        move_err(&pos, "", &["empty move text"]);
        move_err(&pos, "c3--d4", &["is not a move"]);
        move_err(&pos, "c3", &["is not a move"]);
        let long = "c3-".repeat(100) + "d4";
        assert!(
            notation::parse_move(&pos, &long).is_err(),
            "{v}: very long text accepted"
        );
    }
    let pos = Position::start(Variant::Russian);
    move_err(&pos, "hello", &["'hello' is not a move"]);
}

#[test]
fn move_non_ascii_text_is_an_error_not_a_panic() {
    // `notation::parse_move` promises never to panic; these start with a
    // multi-byte character (the Cyrillic file letters are mapped, others not).
    for v in ALL {
        let pos = Position::start(v);
        for t in ["🂡", "é3-d4", "¥", "cé4", "ёb4", "c3-d4é"] {
            let r = std::panic::catch_unwind(|| notation::parse_move(&pos, t));
            match r {
                Ok(res) => assert!(res.is_err(), "{v}: {t:?} accepted"),
                Err(_) => panic!("{v}: notation::parse_move panicked on {t:?}"),
            }
        }
    }
}

#[test]
fn move_full_path_of_one_jump_reads_back() {
    // Output uses the full landing path (README.md, Notation), so the printed
    // text of a one-jump capture must read back as that move, even when a
    // longer capture from the same start ends on the same square.
    // Russian: Kf4 takes d2 (f4:c1), or g5, g7, e7, d4, d2 ending on c1 too.
    let pos = position(Variant::Russian, "W:Wa1,Kf4:Bd2,a3,d4,g5,b6,f6,e7,g7");
    let texts = notation::legal_move_texts(&pos);
    assert!(texts.iter().any(|t| t == "f4:c1"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "f4:h6:f8:c5:e3:c1"), "{texts:?}");
    move_ok(&pos, "f4:h6:f8:c5:e3:c1", "f4:h6:f8:c5:e3:c1");
    move_ok(&pos, "f4:c1", "f4:c1");
    // Adiyukh-80: the man e5-5 takes f6 (e5:g7), or f4, f2 (crowned on e1),
    // d2 and f6 ending on g7 too.
    let pos = position(
        Variant::Adiyukh80,
        "B:Wa1,c1,i1,b2,d2,f2,j2,e3,b4,f4,a5-1/1,g5-1/1,f6-1/1:Be5-5,j6-1/1,a7,i7-2,b8,d8-1/1,j8",
    );
    let texts = notation::legal_move_texts(&pos);
    assert!(texts.iter().any(|t| t == "e5:g7"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "e5:g3:e1:c3:g7"), "{texts:?}");
    move_ok(&pos, "e5:g3:e1:c3:g7", "e5:g3:e1:c3:g7");
    move_ok(&pos, "e5:g7", "e5:g7");
}

#[test]
fn move_x_in_place_of_colon() {
    let pos = position(Variant::Russian, "W:Wc3:Bd4");
    move_ok(&pos, "c3xe5", "c3:e5");
    move_ok(&pos, "c3Xe5", "c3:e5");
    let pos = position(Variant::Russian, "W:Wa1:Bb2,d4");
    move_ok(&pos, "a1xc3xe5", "a1:c3:e5");
    move_ok(&pos, "a1:c3xe5", "a1:c3:e5");
    let pos = position(Variant::Adiyukh64, "W:Wh2:Bg3,e3,g5,g7");
    move_ok(&pos, "h2xf4xh6xf8", "h2:f4:h6:f8");
}

#[test]
fn move_short_start_final_form() {
    let pos = position(Variant::Russian, "W:Wa1:Bb2,d4");
    move_ok(&pos, "a1:e5", "a1:c3:e5");
    move_ok(&pos, "a1xe5", "a1:c3:e5");
    // rules/adiyukh.md A7 and A13.
    let pos = position(Variant::Adiyukh64, "W:Wh2:Bg3,e3,g5,g7");
    move_ok(&pos, "h2:f8", "h2:f4:h6:f8");
    move_ok(&pos, "h2:d2", "h2:f4:d2");
    let pos = position(Variant::Adiyukh64, "W:Wd8:Be7,c7,c5");
    move_ok(&pos, "d8:g1", "d8:b6:g1");
    move_ok(&pos, "d8xd4", "d8:b6:d4");
    move_ok(&pos, "d8:f6", "d8:f6");
    // rules/adiyukh.md A11: the long line, short and with its listed prefix.
    let pos = position(Variant::Adiyukh64, "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6");
    let full = "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:b8";
    move_ok(&pos, "h8:b8", full);
    move_ok(&pos, full, full);
    // Brazilian majority capture in the short form.
    let pos = position(Variant::Brazilian, "W:Wa1:Bb2,d4");
    move_ok(&pos, "a1:e5", "a1:c3:e5");
}

#[test]
fn move_numeric_pdn_squares() {
    for v in MEN_AND_KINGS {
        let pos = Position::start(v);
        move_ok(&pos, "22-18", "c3-d4");
        move_ok(&pos, "21-17", "a3-b4");
    }
}

#[test]
fn adiyukh_short_form() {
    let pos = Position::start(Variant::Adiyukh64);
    let full = notation::parse_move(&pos, "c3-b4").unwrap();
    assert_eq!(notation::parse_move(&pos, "cb4").unwrap(), full);
    assert_eq!(notation::parse_move(&pos, "c:b4").unwrap(), full);
    move_ok(&pos, "cb4", "c3-b4");
    move_ok(&pos, "ab4", "a3-b4");
    move_ok(&pos, "cd4", "c3-d4");
    move_ok(&pos, "gh4", "g3-h4");
    move_err(&pos, "bb4", &["not a legal move"]);
    let pos = Position::start(Variant::Adiyukh80);
    move_ok(&pos, "ij4", "i3-j4");
    move_ok(&pos, "cb4", "c3-b4");
    // A capture in the short form (rules/adiyukh.md A14).
    let pos = position(Variant::Adiyukh64, "W:Wd4:Bc3");
    move_ok(&pos, "db2", "d4:b2");
}

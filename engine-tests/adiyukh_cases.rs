//! The test cases A1-A16 of rules/adiyukh.md ("Test cases"), one test each,
//! and the example game of seed 001 §7.9 (testdata/adiyukh-example-game.txt).
//!
//! The rule book writes positions as `W a3 b4; B b2 (W)`; here they are in the
//! crate's position text, side to move first: `W:Wa3,b4:Bb2`. Every list is
//! the complete set of legal moves, compared order-insensitively with the
//! texts `notation::move_text` prints (full landing path for captures).

use crate::common::{legal_set, position, read_repo};
use shashki::{notation, Color, Piece, Position, Tower, Variant};
use std::collections::BTreeSet;

const A64: Variant = Variant::Adiyukh64;
const A80: Variant = Variant::Adiyukh80;

/// Assert the complete legal move list.
fn assert_moves(pos: &Position, expected: &[&str]) {
    let got = legal_set(pos);
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        want.len(),
        expected.len(),
        "test bug: duplicate in {expected:?}"
    );
    if got != want {
        let missing: Vec<&String> = want.difference(&got).collect();
        let extra: Vec<&String> = got.difference(&want).collect();
        panic!(
            "legal moves of {pos} differ from the rule book\n  expected: {want:?}\n  got:      {got:?}\n  missing: {missing:?}\n  extra: {extra:?}"
        );
    }
}

/// Play the legal move whose printed text is `text`.
fn play(pos: &Position, text: &str) -> Position {
    let moves = pos.legal_moves();
    let mv = moves
        .iter()
        .find(|m| notation::move_text(pos, m) == text)
        .unwrap_or_else(|| {
            panic!(
                "{text} is not among the legal moves of {pos}: {:?}",
                notation::legal_move_texts(pos)
            )
        });
    pos.play(mv)
}

fn square(pos: &Position, name: &str) -> shashki::Square {
    pos.geometry()
        .parse_square(name)
        .unwrap_or_else(|e| panic!("test bug: square {name}: {e}"))
}

/// Assert the tower standing on `name`.
fn assert_tower(pos: &Position, name: &str, owner: Color, own: u8, other: u8) {
    let want = Piece::Tower(Tower { owner, own, other });
    assert_eq!(
        pos.piece_at(square(pos, name)),
        Some(want),
        "tower on {name} in {pos}"
    );
}

fn assert_empty(pos: &Position, name: &str) {
    assert_eq!(
        pos.piece_at(square(pos, name)),
        None,
        "{name} should be empty in {pos}"
    );
}

/// Whether the tower on `name` is a king (on its owner's promotion rank).
fn is_king(pos: &Position, name: &str) -> bool {
    pos.kings() & square(pos, name).bb() != 0
}

/// Checkers are never removed in Adiyukh: each colour keeps its total.
fn assert_conserved(pos: &Position, white: u32, black: u32) {
    assert_eq!(
        pos.checker_count(Color::White),
        white,
        "white checkers in {pos}"
    );
    assert_eq!(
        pos.checker_count(Color::Black),
        black,
        "black checkers in {pos}"
    );
}

#[test]
fn a1_start_64() {
    let pos = Position::start(A64);
    assert_eq!(
        pos,
        position(
            A64,
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        ),
        "start position of README.md"
    );
    assert_moves(
        &pos,
        &[
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
        ],
    );
}

#[test]
fn a2_start_80() {
    let pos = Position::start(A80);
    assert_eq!(
        pos,
        position(
            A80,
            "W:Wa1,c1,e1,g1,i1,b2,d2,f2,h2,j2,a3,c3,e3,g3,i3:Bb6,d6,f6,h6,j6,a7,c7,e7,g7,i7,b8,d8,f8,h8,j8"
        ),
        "start position of adiyukh.md (80 squares)"
    );
    assert_moves(
        &pos,
        &[
            "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "i3-h4", "i3-j4",
        ],
    );
}

#[test]
fn a3_fig10_white_quiet_moves_kings_do_not_step() {
    let pos = position(A64, "W:Wa3,b4,c1,g7,b8,h8:Bb2,e7,f2,f4,g3,g1");
    assert_moves(&pos, &["b4-a5", "b4-c5", "c1-d2", "g7-f8"]);
}

#[test]
fn a4_fig10_black_quiet_moves() {
    let pos = position(A64, "B:Wa3,b4,c1,g7,b8,h8:Bb2,e7,f2,f4,g3,g1");
    assert_moves(
        &pos,
        &["b2-a1", "e7-d6", "e7-f6", "f2-e1", "f4-e3", "g3-h2"],
    );
}

#[test]
fn a5_fig13_only_the_top_checker_is_taken() {
    let pos = position(A64, "W:Wd4-2/2:Be5-2/2");
    assert_moves(&pos, &["d4:f6"]);
    let after = play(&pos, "d4:f6");
    assert_tower(&after, "f6", Color::White, 2, 3);
    assert_tower(&after, "e5", Color::Black, 1, 2);
    assert_empty(&after, "d4");
    assert_conserved(&after, 4, 4);
}

#[test]
fn a6_fig15_16_recapture_and_crowning() {
    let pos = position(A64, "B:Wf6-2/3:Be5-1/2");
    assert_moves(&pos, &["e5:g7"]);
    let mid = play(&pos, "e5:g7");
    // Rule 2: the jumped tower f6 loses its top; the capturer takes it under.
    assert_tower(&mid, "g7", Color::Black, 1, 3);
    assert_tower(&mid, "f6", Color::White, 1, 3);
    assert_empty(&mid, "e5");
    assert_moves(&mid, &["f6:h8"]);
    let end = play(&mid, "f6:h8");
    assert_tower(&end, "h8", Color::White, 1, 4);
    assert!(is_king(&end, "h8"), "h8 is White's promotion rank: a king");
    // The rule book's "W g7-3": the 3 checkers left on g7 are the three
    // white ones that were under the black top (the only black checkers are
    // the 4 now under h8), so by rule 2 ("the rest of the jumped tower stays,
    // owned by its new top colour") the tower is a pure White tower of 3.
    assert_tower(&end, "g7", Color::White, 3, 0);
    assert_empty(&end, "f6");
    assert_conserved(&end, 4, 4);
}

#[test]
fn a7_fig17_choice_of_capture_direction() {
    let pos = position(A64, "W:Wh2:Bg3,e3,g5,g7");
    assert_moves(&pos, &["h2:f4:d2", "h2:f4:h6:f8"]);
}

#[test]
fn a8_fig20_kings_demoted_off_the_rank() {
    let pos = position(A64, "W:Wh8,f8,d4:Bf6,b4,b2,g5");
    assert_moves(&pos, &["h8:e5", "f8:a3:c1:h6"]);

    let a = play(&pos, "h8:e5");
    assert_tower(&a, "e5", Color::White, 1, 1);
    assert!(!is_king(&a, "e5"), "e5 ends as a man");
    assert_empty(&a, "h8");
    assert_empty(&a, "f6");

    let b = play(&pos, "f8:a3:c1:h6");
    assert_tower(&b, "h6", Color::White, 1, 3);
    assert!(!is_king(&b, "h6"), "h6 ends as a man");
    for sq in ["f8", "b4", "b2", "g5"] {
        assert_empty(&b, sq);
    }
}

#[test]
fn a9_fig23_three_capture_lines() {
    let pos = position(A64, "W:Wh6,h8-3/1:Bg7,e7-1/2,b4-3");
    assert_moves(&pos, &["h6:f8:d6:a3", "h8:f6:d8", "h8:c3:a5"]);

    // №1: a3-1/3, e7 freed as 2 White, b4-2 Black, g7 empty; a3 is a man.
    let one = play(&pos, "h6:f8:d6:a3");
    assert_tower(&one, "a3", Color::White, 1, 3);
    assert!(!is_king(&one, "a3"));
    assert_tower(&one, "e7", Color::White, 2, 0);
    assert_tower(&one, "b4", Color::Black, 2, 0);
    assert_empty(&one, "g7");
    assert_empty(&one, "h6");
    assert_tower(&one, "h8", Color::White, 3, 1);

    // №2: king d8-3/3, e7 freed as 2 White, g7 empty.
    let two = play(&pos, "h8:f6:d8");
    assert_tower(&two, "d8", Color::White, 3, 3);
    assert!(is_king(&two, "d8"), "d8 stays a king");
    assert_tower(&two, "e7", Color::White, 2, 0);
    assert_empty(&two, "g7");
    assert_tower(&two, "b4", Color::Black, 3, 0);

    // №3: man a5-3/3, b4-2 Black, g7 empty.
    let three = play(&pos, "h8:c3:a5");
    assert_tower(&three, "a5", Color::White, 3, 3);
    assert!(!is_king(&three, "a5"), "a5 ends as a man");
    assert_tower(&three, "b4", Color::Black, 2, 0);
    assert_empty(&three, "g7");
    assert_tower(&three, "e7", Color::Black, 1, 2);

    for p in [&one, &two, &three] {
        assert_conserved(p, 6, 6);
    }
}

#[test]
fn a10_fig27_tower_jumped_twice_and_freed_square() {
    let pos = position(A64, "W:Wd8:Bf6-2,g3,d2,d4,f4,e3");
    assert_moves(
        &pos,
        &[
            "d8:h4:e1:c3:e5:g7",
            "d8:h4:e1:c3:e5:h8",
            "d8:h4:e1:c3:e5:g3",
            "d8:h4:e1:c3:e5:h2",
        ],
    );
}

#[test]
fn a11_fig28_tower_on_e5_taken_four_times() {
    let pos = position(A64, "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6");
    // The long line of the rule book, h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3,
    // then the fourth jump over e5 lands on d6, c7 or b8 (seed: "...-g3-b8").
    const PREFIX: &str = "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3";
    let long: Vec<String> = ["d6", "c7", "b8"]
        .iter()
        .map(|end| format!("{PREFIX}:{end}"))
        .collect();
    let mut expected: Vec<&str> = vec!["h8:d4:b6", "h8:d4:a7", "h8:d4:g1"];
    expected.extend(long.iter().map(String::as_str));
    assert_moves(&pos, &expected);

    // The same check by start square, final square and path prefix.
    let moves = pos.legal_moves();
    for end in ["d6", "c7", "b8"] {
        let found: Vec<String> = moves
            .iter()
            .filter(|m| m.from() == square(&pos, "h8") && m.to() == square(&pos, end))
            .map(|m| notation::move_text(&pos, m))
            .filter(|t| t.starts_with(PREFIX))
            .collect();
        assert_eq!(found.len(), 1, "one long capture h8..{end}: {found:?}");
        let m = moves
            .iter()
            .find(|m| notation::move_text(&pos, m) == found[0])
            .unwrap();
        assert_eq!(m.capture_count(), 12, "{}: all 12 black checkers", found[0]);
    }

    let end = play(&pos, &format!("{PREFIX}:b8"));
    assert_tower(&end, "b8", Color::White, 1, 12);
    assert!(is_king(&end, "b8"));
    assert_tower(&end, "d2", Color::White, 5, 0);
    assert_tower(&end, "f2", Color::White, 6, 0);
    for sq in ["e5", "c5", "h8"] {
        assert_empty(&end, sq);
    }
    assert_eq!(end.side_to_move(), Color::Black);
    assert!(
        end.legal_moves().is_empty(),
        "Black cannot move after the b8 ending"
    );
    assert_eq!(end.half_board_score(), (13, 11), "score White:Black");
    assert_conserved(&end, 12, 12);
}

#[test]
fn a12_king_capture_routes() {
    let pos = position(A64, "W:Wf8:Bc5,b2,c3,e3,g3");
    assert_moves(&pos, &["f8:a3:c1:f4:h2", "f8:b4:d2:f4:h2", "f8:b4:e1:h4"]);
}

#[test]
fn a13_king_must_land_where_capture_goes_on() {
    let pos = position(A64, "W:Wd8:Be7,c7,c5");
    assert_moves(
        &pos,
        &[
            "d8:f6", "d8:g5", "d8:h4", "d8:b6:d4", "d8:b6:e3", "d8:b6:f2", "d8:b6:g1",
        ],
    );
}

#[test]
fn a14_man_captures_backward() {
    let pos = position(A64, "W:Wd4:Bc3");
    assert_moves(&pos, &["d4:b2"]);
}

#[test]
fn a15_no_legal_move_ends_the_game() {
    let pos = position(A64, "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1");
    assert_moves(&pos, &[]);
    assert_eq!(pos.half_board_score(), (8, 12), "score White 8 : Black 12");
}

#[test]
fn a16_80_squares_king_demoted_on_rank_1() {
    let pos = position(A80, "W:Wj8:Bg5");
    let ends = ["f4", "e3", "d2", "c1"];
    let texts: Vec<String> = ends.iter().map(|e| format!("j8:{e}")).collect();
    let expected: Vec<&str> = texts.iter().map(String::as_str).collect();
    assert_moves(&pos, &expected);
    for (end, text) in ends.iter().zip(&texts) {
        let after = play(&pos, text);
        assert_tower(&after, end, Color::White, 1, 1);
        assert!(!is_king(&after, end), "{text} ends as a man");
        assert_empty(&after, "g5");
        assert_empty(&after, "j8");
    }
}

/// The moves of the example game file: every token that is not a move
/// number (`1.`), in order.
fn game_moves(line: &str) -> Vec<String> {
    line.split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .map(str::to_string)
        .collect()
}

/// Replay `moves` with `notation::parse_move`; returns the final position.
/// With `full_notation`, the move chosen must start and end on the squares
/// the text names.
fn replay(moves: &[String], full_notation: bool) -> Position {
    let mut pos = Position::start(A64);
    for (i, text) in moves.iter().enumerate() {
        let ply = i + 1;
        let mv = notation::parse_move(&pos, text)
            .unwrap_or_else(|e| panic!("ply {ply} {text}: refused in {pos}: {e}"));
        if full_notation {
            let squares: Vec<&str> = text.split([':', '-']).collect();
            let g = pos.geometry();
            assert_eq!(
                g.square_name(mv.from()),
                squares[0],
                "ply {ply} {text}: start"
            );
            assert_eq!(
                g.square_name(mv.to()),
                squares[squares.len() - 1],
                "ply {ply} {text}: final square"
            );
            assert_eq!(
                mv.is_capture(),
                text.contains(':'),
                "ply {ply} {text}: capture or not"
            );
        }
        pos = pos.play(&mv);
        assert_conserved(&pos, 12, 12);
    }
    pos
}

#[test]
fn example_game_seed_001() {
    let text = read_repo("engine-tests/testdata/adiyukh-example-game.txt");
    let mut full = Vec::new();
    let mut short = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        match t.strip_prefix('#') {
            // The short notation is printed as a comment line "# 1. cb4 ...".
            Some(comment) if comment.trim_start().starts_with("1. ") => {
                short.extend(game_moves(comment))
            }
            Some(_) => {}
            None => full.extend(game_moves(t)),
        }
    }
    assert_eq!(
        full.len(),
        29,
        "29 half-moves in the full notation: {full:?}"
    );
    assert_eq!(
        short.len(),
        29,
        "29 half-moves in the short notation: {short:?}"
    );
    assert_eq!(full.last().map(String::as_str), Some("d8:a5"));

    let end = replay(&full, true);
    assert_eq!(end.side_to_move(), Color::Black);
    assert!(
        end.legal_moves().is_empty(),
        "Black has no legal move at the end: {end}"
    );
    assert_eq!(end.half_board_score(), (17, 7), "the printed score 17:7");

    let end_short = replay(&short, false);
    assert_eq!(
        end_short, end,
        "the short notation replays to the same position"
    );
}

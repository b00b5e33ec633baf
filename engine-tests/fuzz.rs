//! Property tests: the text parsers never panic, whatever they are fed.
//!
//! Random strings, random bytes (converted lossily to UTF-8) and mutations of
//! valid position and move texts go into `fen::parse_position` and
//! `notation::parse_move` for every variant. The only assertion is that each
//! call returns; when a position is accepted, its moves are generated and a
//! move text is read on it too.

use proptest::prelude::*;
use shashki::{fen, notation, Position, Variant};

const CASES: u32 = 2_000;

/// Valid position texts (start positions, the rule book's test cases, the
/// perft positions) that the mutation strategy starts from.
const POSITION_SEEDS: &[&str] = &[
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,i1,b2,d2,f2,h2,j2,a3,c3,e3,g3,i3:Bb6,d6,f6,h6,j6,a7,c7,e7,g7,i7,b8,d8,f8,h8,j8",
    "W:Wa3,b4,c1,g7,b8,h8:Bb2,e7,f2,f4,g3,g1",
    "W:Wd4-2/2:Be5-2/2",
    "B:Wf6-2/3:Be5-1/2",
    "W:Wh6,h8-3/1:Bg7,e7-1/2,b4-3",
    "W:Wd8:Bf6-2,g3,d2,d4,f4,e3",
    "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6",
    "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1",
    "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1,e3,f2,g1,g3,h2:Bb8,c7,e5-2,e7,f8,g7,h6,h8",
    "W:Wa1,c3,g3,f6:BKh2,b6,e7,h8",
    "W:WKa1,h4:Bf2,c3,b4,f4,Kh6,a7",
    "W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8",
    "W:W21-32:B1-12",
    "B:WK29,5:B12:H0:F1.",
    "W:Wj8:Bg5",
    "startpos",
];

/// Valid move texts in the accepted forms.
const MOVE_SEEDS: &[&str] = &[
    "c3-d4",
    "c3:e5",
    "c3xe5",
    "a1:c3:e5",
    "h2:f4:h6:f8",
    "22-18",
    "22x15",
    "cb4",
    "c:b4",
    "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:b8",
    "f8:a3:c1:f4:h2",
    "d8:b6:g1",
    "ас3",
    "i3-j4",
];

/// Characters that matter to the parsers, to mutate with.
const ALPHABET: &[char] = &[
    'W', 'B', 'K', 'w', 'b', 'k', 'x', 'X', ':', ',', '-', '/', '.', ' ', '0', '1', '2', '3', '4',
    '5', '8', '9', 'a', 'c', 'e', 'h', 'i', 'j', 'z', 'H', 'F', 'а', 'с', '×', '\u{0}', 'é',
];

/// Positions to read move text in: start positions and capture positions.
fn move_positions() -> Vec<Position> {
    let mut out: Vec<Position> = Variant::ALL.iter().map(|&v| Position::start(v)).collect();
    for (v, t) in [
        (Variant::Russian, "W:Wa1,c3,g3,f6:BKh2,b6,e7,h8"),
        (Variant::Russian, "W:WKa1,h4:Bf2,c3,b4,f4,Kh6,a7"),
        (Variant::Brazilian, "W:Wa1,e1,c3,g3:Bb4,f4,d6,a7,h8"),
        (Variant::Adiyukh64, "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6"),
        (Variant::Adiyukh64, "W:Wf8:Bc5,b2,c3,e3,g3"),
        (Variant::Adiyukh64, "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1"),
        (Variant::Adiyukh80, "W:Wj8:Bg5"),
    ] {
        out.push(fen::parse_position(v, t).expect("valid seed position"));
    }
    out
}

/// Feed `text` to every parser in every variant; only returning matters.
fn exercise(text: &str, positions: &[Position]) {
    for v in Variant::ALL {
        if let Ok(pos) = fen::parse_position(v, text) {
            // An accepted position must be usable.
            let moves = pos.legal_moves();
            let _ = fen::position_text(&pos);
            let _ = notation::parse_move(&pos, text);
            if let Some(m) = moves.first() {
                let _ = notation::parse_move(&pos, &notation::move_text(&pos, m));
            }
        }
    }
    for pos in positions {
        let _ = notation::parse_move(pos, text);
    }
}

/// One edit of a text.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Duplicate(usize, usize),
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let ch = prop::sample::select(ALPHABET);
    prop_oneof![
        (any::<usize>(), ch.clone()).prop_map(|(i, c)| Edit::Insert(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), ch).prop_map(|(i, c)| Edit::Replace(i, c)),
        (any::<usize>(), 1usize..8).prop_map(|(i, n)| Edit::Duplicate(i, n)),
    ]
}

/// Apply edits on characters (never splitting a UTF-8 sequence).
fn mutate(seed: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = seed.chars().collect();
    for e in edits {
        let len = chars.len();
        match *e {
            Edit::Insert(i, c) => chars.insert(i % (len + 1), c),
            Edit::Delete(i) if len > 0 => {
                chars.remove(i % len);
            }
            Edit::Replace(i, c) if len > 0 => chars[i % len] = c,
            Edit::Duplicate(i, n) if len > 0 => {
                let at = i % len;
                let end = (at + n).min(len);
                let piece: Vec<char> = chars[at..end].to_vec();
                for (k, c) in piece.into_iter().enumerate() {
                    chars.insert(end + k, c);
                }
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// No failure persistence: proptest would write a `proptest-regressions`
/// folder outside `engine-tests/`; a failure prints its minimal input.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_strings_never_panic(text in any::<String>()) {
        let positions = move_positions();
        exercise(&text, &positions);
    }

    #[test]
    fn notation_alphabet_strings_never_panic(text in "[WBKwbkxX:,/ 0-9a-kH.-]{0,60}") {
        let positions = move_positions();
        exercise(&text, &positions);
    }

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..128)) {
        let text = String::from_utf8_lossy(&bytes);
        let positions = move_positions();
        exercise(&text, &positions);
    }

    #[test]
    fn mutated_positions_never_panic(
        seed in prop::sample::select(POSITION_SEEDS),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        let text = mutate(seed, &edits);
        let positions = move_positions();
        exercise(&text, &positions);
    }

    #[test]
    fn mutated_moves_never_panic(
        seed in prop::sample::select(MOVE_SEEDS),
        edits in prop::collection::vec(edit_strategy(), 1..5),
    ) {
        let text = mutate(seed, &edits);
        let positions = move_positions();
        exercise(&text, &positions);
    }
}

//! Helpers shared by the test modules: where the shared folder is, and small
//! shorthands for building positions and reading squares.

use shashki::{fen, notation, Position, Variant};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The shared folder (rule book and test data): `$SHASHKI_SHARED` if set,
/// otherwise `CARGO_MANIFEST_DIR/../shared`.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("SHASHKI_SHARED") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("shared"),
    }
}

/// Read a file of the shared folder, with a clear message when it is missing.
pub fn read_shared(relative: &str) -> String {
    let path = shared_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read {} ({e}); set SHASHKI_SHARED to the shared folder",
            path.display()
        )
    })
}

/// Parse position text that the test knows to be valid.
pub fn position(variant: Variant, text: &str) -> Position {
    fen::parse_position(variant, text)
        .unwrap_or_else(|e| panic!("{variant}: position text {text:?} refused: {e}"))
}

/// The legal moves as printed by `notation::move_text`, as a set; also checks
/// that no move is printed twice (only distinct moves are listed).
pub fn legal_set(pos: &Position) -> BTreeSet<String> {
    let texts = notation::legal_move_texts(pos);
    let set: BTreeSet<String> = texts.iter().cloned().collect();
    assert_eq!(
        set.len(),
        texts.len(),
        "a move text is printed twice in {pos}: {texts:?}"
    );
    set
}

//! Endgame tables for Russian and Brazilian draughts: built here, exact
//! under the rule book, probed in search.
//!
//! # What a table holds
//!
//! For every position of a material combination (how many men and kings
//! each side has), seen from the side to move, one of win, draw or loss
//! **under the rule book**: best play by both sides, captures compulsory
//! (Brazilian: the majority), threefold repetition a draw, and the counting
//! rules 7.2.4-7.2.8 counted **from this position with every counter at
//! zero**, as they stand when the material has just arisen (a capture
//! changes the material and sets every counter to zero). A win that a
//! counting rule would turn into a draw is stored as a draw.
//!
//! Why values with the counters at zero: two bits a position keep the
//! tables small (all positions with up to five pieces fit in tens of
//! megabytes), and the search meets a table exactly where the material
//! changes, right after a capture, when every counter is zero and the
//! stored value is the true one. Deeper inside one material the counters
//! run, and the true value can only be the stored one or a draw (a running
//! counter takes plies from both sides): a stored draw is then still exact.
//!
//! # Plies to the conversion
//!
//! For those nodes, and for a winner who must finish inside the counting
//! rules, a second table beside each (`KKM-K.plies`, a byte a position,
//! [`file::Kind::Plies`]) holds for each win and loss the plies to the end
//! of its combination under best play without the counting rules: to the
//! winning capture or promotion (the conversion), or to the loser without
//! a move (step 1 below computes them anyway). Not the plies to the end of
//! the game: those would need every smaller table's distances along the
//! way and more bits, and the counting rules start again at every
//! conversion, so the plies to the next one are what decides. With them:
//!
//! * a stored win or loss is exact under running counters when its plies
//!   are fewer than those every running counter has left
//!   (`Tables::converts`): the winner's line converts in time whatever
//!   the loser does, and the conversion sets every counter to zero in a
//!   position whose stored value is exact (not so where a lone king's
//!   count survives a promotion);
//! * the search ranks table wins by progress: fewer pieces, then fewer
//!   men, then fewer plies to the conversion, a measure that only grows
//!   along the winner's line, so that the engine finishes its wins instead
//!   of going round until a counting rule draws;
//! * at the root of a won position whose line converts in time, only the
//!   moves of the line are played.
//!
//! # How a table is built
//!
//! Tables are built smallest first: a capture leads to fewer pieces, a
//! promotion to fewer men, so what a position's moves lead to outside its
//! own combination is already known. The two combinations of the same
//! material with either side to move are built together ([`build`]):
//!
//! 1. A retrograde analysis without the counting rules gives every position
//!    its value and the plies to the end of the combination under best play
//!    (to the winning capture or promotion, or to the position where the
//!    loser cannot move), the loser delaying as long as he can.
//! 2. The counting rules are then applied exactly ([`Class`]):
//!    * where a side has no king, no counting rule can end the game: the
//!      values stand;
//!    * with kings on both sides (and no lone king against three or fewer)
//!      7.2.5 and 7.2.6 count, and 7.2.4 for four kings against one: a win
//!      within 30 plies stands (no counter can reach its limit first); with
//!      kings only, 7.2.5 counts every ply, so a longer one is a draw; with
//!      men, one longer than the 7.2.6 limit is a draw, and those between
//!      are decided by a pass over the placements of the men that counts
//!      the king moves in a row ([`counted`]: the plies to the conversion
//!      when 30 king moves in a row draw, against the 7.2.6 limit);
//!    * a lone king against three or fewer pieces (7.2.7, 7.2.8, whose
//!      counts survive a promotion or start again off the main road): every
//!      win and loss is decided by the exact solver ([`solve`]).
//!
//!    The exact solver searches positions together with the counters of
//!    [`crate::game`] (the same code the game uses to end games), ending a
//!    line where the material changes with every counter at zero (the
//!    finished tables answer) or where step 1 already answers (a draw stays
//!    a draw; a win or loss within the plies no running counter can end
//!    stands).
//!
//! Repetition needs no counting: between two occurrences of a position
//! only kings moved, so every count only grew, and the winner's best line,
//! whose plies to the end fall with each of his moves, does not come back
//! to a position with the same counts. The one count that can fall is
//! 7.2.7's, which starts again when the lone king comes back onto the main
//! road; `engine-tests/egdb_exact.rs` checks, with a stricter game in
//! which such a return is a draw, that repetition changes no value up to
//! four pieces (four positions a variant needed a search of the game with
//! repetition to show it). A draw stays a draw.
//!
//! # Files
//!
//! Two files a combination ([`file`]), named like `KKM-K.egdb` and
//! `KKM-K.plies` (the side to move's pieces first), in a folder per
//! variant; a folder built before the plies existed still serves, without
//! them. Files are opened when a
//! probe first needs them; a block is read, checked and unpacked the first
//! time a probe needs it and kept.

pub mod build;
mod class;
mod counted;
pub mod file;
pub mod index;
mod solve;
mod tables;
pub(crate) mod value;

pub use class::Class;
pub use index::Combo;
pub use tables::{Tables, Verdict, Wdl};
pub use value::{Value, DRAW, LOSS, NONE, WIN};

/// The folder that holds a folder of tables per variant when none is
/// named: `$SHASHKI_EGDB` when that is set, else the per-user data folder's
/// `shashki/egdb`: `$XDG_DATA_HOME/shashki/egdb`, or
/// `$HOME/.local/share/shashki/egdb` where `XDG_DATA_HOME` is unset (or
/// not an absolute path, which the XDG rules say to ignore); on Windows
/// `%LOCALAPPDATA%\shashki\egdb`. `None` when none of these is set.
pub fn default_base() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(p) = var("SHASHKI_EGDB") {
        return Some(PathBuf::from(p));
    }
    let data = if cfg!(windows) {
        var("LOCALAPPDATA").map(PathBuf::from)
    } else {
        var("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".local").join("share")))
    };
    data.map(|d| d.join("shashki").join("egdb"))
}

/// The folder of a variant's tables when none is named: `<variant>` under
/// [`default_base`], or an error saying how to name one.
pub fn default_dir(variant: crate::Variant) -> Result<std::path::PathBuf, String> {
    default_base().map(|b| b.join(variant.id())).ok_or_else(|| {
        "no default folder for the endgame tables (neither SHASHKI_EGDB, XDG_DATA_HOME nor HOME is set): name one with --dir".to_string()
    })
}

/// What a folder named for the engine (its `EGDB Path`) holds, in one
/// line: `endgame tables: russian 5 pieces (85 files), brazilian none,
/// from <folder>`: for each variant with tables, the most pieces of a
/// complete set and its files of values.
pub fn summary(folder: &std::path::Path) -> String {
    let found: Vec<String> = [crate::Variant::Russian, crate::Variant::Brazilian]
        .into_iter()
        .map(|v| match Tables::find(folder, v, false) {
            Ok(Some(t)) => format!("{v} {} pieces ({} files)", t.pieces(), t.files()),
            _ => format!("{v} none"),
        })
        .collect();
    let missing = if folder.is_dir() {
        ""
    } else {
        " (no such folder)"
    };
    format!(
        "endgame tables: {}, from {}{missing}",
        found.join(", "),
        folder.display()
    )
}

/// Where the tables of `variant` are, given a folder a user named: its
/// subfolder `<variant>` when there is one (the folder holds every
/// variant's), else the folder itself.
pub fn variant_dir(folder: &std::path::Path, variant: crate::Variant) -> std::path::PathBuf {
    let sub = folder.join(variant.id());
    if sub.is_dir() {
        sub
    } else {
        folder.to_path_buf()
    }
}

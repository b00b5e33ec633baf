//! A folder of tables, probed by position.

use super::file::{file_name, TableFile};
use super::index::Combo;
use super::{DRAW, LOSS, WIN};
use crate::position::Position;
use crate::variant::Variant;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// A probed value, for the side to move, with every counting rule's count
/// at zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

/// The tables of one variant in one folder. Files are opened on first use;
/// a missing or damaged one is reported once (see [`Tables::take_errors`])
/// and its positions are not probed.
pub struct Tables {
    variant: Variant,
    dir: PathBuf,
    pieces: u32,
    files: HashMap<Combo, OnceLock<Option<TableFile>>>,
    /// Problems not yet taken, and every problem ever reported.
    errors: Mutex<(Vec<String>, HashSet<String>)>,
}

impl Tables {
    /// The tables of `variant` in `dir`, up to `max_pieces` pieces: the
    /// largest piece count for which every combination's file is present
    /// (0 when none is).
    pub fn open(dir: &Path, variant: Variant, max_pieces: u32) -> Result<Tables, String> {
        if super::file::variant_code(variant).is_none() {
            return Err(format!("endgame tables: there are none for {variant}"));
        }
        if !dir.is_dir() {
            return Err(format!(
                "endgame tables: '{}' is not a folder",
                dir.display()
            ));
        }
        let mut pieces = 0;
        let mut files = HashMap::new();
        for n in 2..=max_pieces.min(super::index::MAX_PIECES) {
            let combos = Combo::all_with(n);
            if !combos.iter().all(|&c| dir.join(file_name(c)).is_file()) {
                break;
            }
            for c in combos {
                files.insert(c, OnceLock::new());
            }
            pieces = n;
        }
        Ok(Tables {
            variant,
            dir: dir.to_path_buf(),
            pieces,
            files,
            errors: Mutex::new((Vec::new(), HashSet::new())),
        })
    }

    /// The most pieces a probe covers.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The value of `pos` (with every counter at zero), if a table covers
    /// it. Both sides must have a piece.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        if pos.variant() != self.variant || pos.occupied().count_ones() > self.pieces {
            return None;
        }
        let (c, i) = Combo::of(pos);
        let table = self.files.get(&c)?.get_or_init(|| self.load(c)).as_ref()?;
        match table.get(i) {
            Ok(WIN) => Some(Wdl::Win),
            Ok(DRAW) => Some(Wdl::Draw),
            Ok(LOSS) => Some(Wdl::Loss),
            Ok(_) => None,
            Err(e) => {
                self.report(e);
                None
            }
        }
    }

    fn load(&self, c: Combo) -> Option<TableFile> {
        match TableFile::open(&self.dir.join(file_name(c)), self.variant, c) {
            Ok(t) => Some(t),
            Err(e) => {
                self.report(e);
                None
            }
        }
    }

    fn report(&self, e: String) {
        let mut errors = self.errors.lock().unwrap_or_else(|p| p.into_inner());
        if errors.1.insert(e.clone()) {
            errors.0.push(e);
        }
    }

    /// The problems met since the last call (each once).
    pub fn take_errors(&self) -> Vec<String> {
        std::mem::take(&mut self.errors.lock().unwrap_or_else(|p| p.into_inner()).0)
    }
}

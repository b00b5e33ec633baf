//! A folder of tables, probed by position.

use super::file::{file_name, TableFile};
use super::index::Combo;
use super::{DRAW, LOSS, WIN};
use crate::game::{DrawState, Game};
use crate::position::Position;
use crate::variant::Variant;
use crate::Color;
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

/// What a probe tells the search about a node, given whether the draw
/// rules' counters stand at zero there (see the module documentation of
/// [`crate::egdb`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The node's value under the rule book.
    Exact(Wdl),
    /// The table says won, but counters already run: won or drawn.
    AtLeastDraw,
    /// The table says lost, but counters already run: lost or drawn.
    AtMostDraw,
}

impl Verdict {
    /// The verdict on a position whose stored value is `wdl`. The value is
    /// exact where every counter stands at zero (`fresh`: the material has
    /// just arisen), where a side has no king (no counting rule can end
    /// such a game), and for a draw (a running counter can take a win
    /// away, never give one). Elsewhere a win or a loss is a bound.
    pub fn of(pos: &Position, wdl: Wdl, fresh: bool) -> Verdict {
        let kings = pos.kings();
        let free = pos.pieces(Color::White) & kings == 0 || pos.pieces(Color::Black) & kings == 0;
        match wdl {
            _ if fresh || free => Verdict::Exact(wdl),
            Wdl::Draw => Verdict::Exact(Wdl::Draw),
            Wdl::Win => Verdict::AtLeastDraw,
            Wdl::Loss => Verdict::AtMostDraw,
        }
    }
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

    /// The tables of `variant` under a folder a user named (see
    /// [`super::variant_dir`]): `None` when it holds none, which is an
    /// error when `required` (the folder was named on purpose), as is a
    /// folder that does not exist.
    pub fn find(folder: &Path, variant: Variant, required: bool) -> Result<Option<Tables>, String> {
        let dir = super::variant_dir(folder, variant);
        match Tables::open(&dir, variant, super::index::MAX_PIECES) {
            Ok(t) if t.pieces() > 0 => Ok(Some(t)),
            Ok(_) if required => Err(format!(
                "endgame tables: no complete set of {variant} tables in '{}'",
                dir.display()
            )),
            Err(e) if required => Err(e),
            _ => Ok(None),
        }
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
    /// it (a position where a side has no piece is in none).
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        if pos.variant() != self.variant
            || pos.occupied().count_ones() > self.pieces
            || pos.pieces(Color::White) == 0
            || pos.pieces(Color::Black) == 0
        {
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

    /// What the tables say of the current position of `game`, in words
    /// (for `d` and `shashki show`), with the game's counters: `None` when
    /// no table of at most `pieces` pieces covers it.
    pub fn describe(&self, game: &Game, pieces: u32) -> Option<String> {
        let pos = game.position();
        if pos.occupied().count_ones() > pieces {
            return None;
        }
        let wdl = self.probe(pos)?;
        let name = |w: Wdl| match w {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        };
        let fresh = game.draw_state() == DrawState::after(None, pos);
        Some(match Verdict::of(pos, wdl, fresh) {
            Verdict::Exact(w) => format!("{} for the side to move", name(w)),
            _ => format!(
                "{} for the side to move with the counting rules from zero; their counts run, so a {} or a draw",
                name(wdl),
                name(wdl)
            ),
        })
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

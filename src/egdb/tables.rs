//! A folder of tables, probed by position.

use super::class::Class;
use super::file::{file_name, Kind, TableFile};
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
    /// such a game), for a draw (a running counter can take a win away,
    /// never give one), and where `converts` (see `Tables::verdict`).
    /// Elsewhere a win or a loss is a bound.
    pub fn of(pos: &Position, wdl: Wdl, fresh: bool, converts: bool) -> Verdict {
        let kings = pos.kings();
        let free = pos.pieces(Color::White) & kings == 0 || pos.pieces(Color::Black) & kings == 0;
        match wdl {
            _ if fresh || free || converts => Verdict::Exact(wdl),
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
    /// The tables of plies beside them (absent in folders built before
    /// there were any).
    plies: HashMap<Combo, OnceLock<Option<TableFile>>>,
    /// Problems not yet taken, and every problem ever reported.
    errors: Mutex<(Vec<String>, HashSet<String>)>,
}

impl Tables {
    /// The tables of `variant` in `dir`, up to `max_pieces` pieces: the
    /// largest piece count for which every combination's file is present
    /// (0 when none is). An error when `dir` holds another variant's.
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
        // A folder of another variant's tables holds none of this one (the
        // first table tells: a build refuses to mix variants).
        let first = Combo::all_with(2)
            .into_iter()
            .map(|c| dir.join(file_name(c)))
            .find(|p| p.is_file());
        if let Some(v) = first.and_then(|p| super::file::file_variant(&p)) {
            if v != variant {
                return Err(format!(
                    "endgame tables: '{}' holds {v} tables, not {variant}",
                    dir.display()
                ));
            }
        }
        let mut pieces = 0;
        let mut files = HashMap::new();
        let mut plies = HashMap::new();
        for n in 2..=max_pieces.min(super::index::MAX_PIECES) {
            let combos = Combo::all_with(n);
            if !combos.iter().all(|&c| dir.join(file_name(c)).is_file()) {
                break;
            }
            for c in combos {
                files.insert(c, OnceLock::new());
                if dir.join(Kind::Plies.file_name(c)).is_file() {
                    plies.insert(c, OnceLock::new());
                }
            }
            pieces = n;
        }
        Ok(Tables {
            variant,
            dir: dir.to_path_buf(),
            pieces,
            files,
            plies,
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

    /// The tables of values a probe can open.
    pub fn files(&self) -> usize {
        self.files.len()
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

    /// The plies to the conversion of `pos` (covered, a win or a loss with
    /// the counters at zero): the plies, under best play without the
    /// counting rules, to the end of its combination (the winning capture
    /// or promotion, or the loser without a move); `None` when the folder
    /// has no table of plies for it.
    pub fn plies(&self, pos: &Position) -> Option<u8> {
        let (c, i) = Combo::of(pos);
        let table = self
            .plies
            .get(&c)?
            .get_or_init(|| self.load_kind(Kind::Plies, c))
            .as_ref()?;
        match table.get(i) {
            Ok(d) => Some(d),
            Err(e) => {
                self.report(e);
                None
            }
        }
    }

    /// Whether the plies to the conversion `d` of `pos` (covered, a win or
    /// a loss) show that the table's line converts before any counter
    /// running in `draws` can end the game, so that the stored value is
    /// exact under them and the line is one to follow: where a side has no king (no counting
    /// rule applies), or where the plies are fewer than those every
    /// running counter has left, except with a lone king against three or
    /// fewer pieces of which some are men (the lone-king counts survive a
    /// promotion, which is no conversion for them). The winner's line
    /// converts in time whatever the loser does, and a conversion (a
    /// capture or a promotion) sets every counter to zero in a position
    /// whose stored value is exact.
    fn converts(pos: &Position, draws: &DrawState, d: u8) -> bool {
        let c = Combo::of(pos).0;
        Tables::leads_in(pos, draws, d) && (Class::of(c) != Class::LoneKing || c.men() == 0)
    }

    /// The plies to the conversion of `pos` when the table's line reaches
    /// it before any counter running in `draws` can end the game: as
    /// [`Tables::converts`], and also with a lone king against pieces of
    /// which some are men, where the line is the way to go though a count
    /// that survives the promotion may still end the game after it.
    pub(crate) fn leads(&self, pos: &Position, draws: &DrawState) -> Option<u8> {
        self.plies(pos).filter(|&d| Tables::leads_in(pos, draws, d))
    }

    /// [`Tables::leads`] for plies `d` already probed.
    fn leads_in(pos: &Position, draws: &DrawState, d: u8) -> bool {
        let in_time = || (d as u16) < draws.plies_left(pos.occupied().count_ones(), true);
        d > 0 && (Class::of(Combo::of(pos).0) == Class::Free || in_time())
    }

    /// The value of `pos`, what it is worth under the counters `draws`
    /// (`None`: at zero), and the plies to the conversion of a win or a
    /// loss (when there are plies), if a table covers it: besides where
    /// [`Verdict::of`] calls a value exact, a stored win or loss is exact
    /// where the table's line converts in time ([`Tables::converts`]).
    pub(crate) fn verdict(
        &self,
        pos: &Position,
        draws: Option<&DrawState>,
    ) -> Option<(Wdl, Verdict, Option<u8>)> {
        let wdl = self.probe(pos)?;
        let plies = match wdl {
            Wdl::Draw => None,
            _ => self.plies(pos),
        };
        let verdict = match draws {
            Some(d) if *d != DrawState::after(None, pos) => {
                let converts = plies.is_some_and(|p| Tables::converts(pos, d, p));
                Verdict::of(pos, wdl, false, converts)
            }
            _ => Verdict::Exact(wdl),
        };
        Some((wdl, verdict, plies))
    }

    /// What the tables say of the current position of `game`, in words
    /// (for `d` and `shashki show`), with the game's counters: `None` when
    /// no table of at most `pieces` pieces covers it.
    pub fn describe(&self, game: &Game, pieces: u32) -> Option<String> {
        let pos = game.position();
        if pos.occupied().count_ones() > pieces {
            return None;
        }
        let name = |w: Wdl| match w {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        };
        let draws = game.draw_state();
        let (wdl, verdict, plies) = self.verdict(pos, Some(&draws))?;
        let plies = plies.map_or(String::new(), |d| format!(", {d} plies to the conversion"));
        Some(match verdict {
            Verdict::Exact(w) => format!("{} for the side to move{plies}", name(w)),
            _ => format!(
                "{} for the side to move with the counting rules from zero; their counts run, so a {} or a draw",
                name(wdl),
                name(wdl)
            ),
        })
    }

    fn load(&self, c: Combo) -> Option<TableFile> {
        self.load_kind(Kind::Values, c)
    }

    fn load_kind(&self, kind: Kind, c: Combo) -> Option<TableFile> {
        match TableFile::open_kind(&self.dir.join(kind.file_name(c)), kind, self.variant, c) {
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

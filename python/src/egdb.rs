//! `shashki.egdb`: endgame tables, found and opened as the command line
//! finds them, probed by board, and built.

use crate::board::{variant_of, PyBoard};
use crate::errors::{error, fail, Kind};
use pyo3::prelude::*;
use shashki::egdb::{self, Tables, Wdl};
use shashki::Variant;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Which tables a caller asks for.
pub enum Folder {
    /// None at all.
    Off,
    /// The default folder (`SHASHKI_EGDB`, else the per-user data folder),
    /// when it holds tables.
    Default,
    /// This folder, which must hold tables of the variant.
    Named(PathBuf),
}

impl Folder {
    /// `None`: the default folder; `False` or `"none"`: no tables; a path
    /// (str or os.PathLike): that folder.
    pub fn of(value: Option<&Bound<'_, PyAny>>) -> PyResult<Folder> {
        let Some(v) = value.filter(|v| !v.is_none()) else {
            return Ok(Folder::Default);
        };
        if let Ok(b) = v.cast::<pyo3::types::PyBool>() {
            return if b.is_true() {
                fail(
                    Kind::Argument,
                    "egdb: True is not a folder (None: the default folder, False: no tables)",
                )
            } else {
                Ok(Folder::Off)
            };
        }
        let path: PathBuf = v.extract().map_err(|_| {
            error(
                Kind::Argument,
                "egdb: expected a folder (str or os.PathLike), None or False",
            )
        })?;
        if path.as_os_str() == "none" {
            return Ok(Folder::Off);
        }
        Ok(Folder::Named(path))
    }
}

/// Tables opened, by folder and variant.
type Opened = HashMap<(PathBuf, Variant), Arc<Tables>>;

/// Tables opened so far, shared by the probes and the engines (a table
/// file is read once per process).
fn cache() -> &'static Mutex<Opened> {
    static CACHE: std::sync::OnceLock<Mutex<Opened>> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The tables of `variant` under `folder` (see `Tables::find`), from the
/// cache when opened before. Folders without tables are not remembered, so
/// tables built later are found.
fn find(folder: &Path, variant: Variant, required: bool) -> Result<Option<Arc<Tables>>, String> {
    let key = (folder.to_path_buf(), variant);
    if let Some(t) = cache().lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return Ok(Some(t.clone()));
    }
    let found = Tables::find(folder, variant, required)?.map(Arc::new);
    if let Some(t) = &found {
        cache()
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, t.clone());
    }
    Ok(found)
}

/// Forget the tables opened under `folder` (after a build there).
fn forget(folder: &Path) {
    cache()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .retain(|(f, _), _| f != folder);
}

/// The tables `folder` names for `variant`, as the command line's `--egdb`
/// opens them: a named folder must exist and hold the variant's tables;
/// the default one is used when it holds some.
pub fn open(folder: &Folder, variant: Variant) -> PyResult<Option<Arc<Tables>>> {
    match folder {
        Folder::Off => Ok(None),
        Folder::Default => Ok(egdb::default_base()
            .and_then(|b| find(&b, variant, false).ok())
            .flatten()),
        Folder::Named(p) => {
            if !p.is_dir() {
                return fail(Kind::Egdb, format!("egdb {}: not a folder", p.display()));
            }
            find(p, variant, true)
                .map_err(|e| error(Kind::Egdb, format!("egdb {}: {e}", p.display())))
        }
    }
}

/// What the tables say of a position.
#[pyclass(module = "shashki.egdb", name = "Probe", frozen)]
pub struct PyProbe {
    /// `"win"`, `"draw"` or `"loss"` for the side to move, with every
    /// counting rule's count at zero.
    #[pyo3(get)]
    wdl: &'static str,
    /// Plies to the conversion (the winning capture or promotion, or the
    /// loser left without a move) of a win or a loss, under best play;
    /// `None` for a draw or when the folder has no tables of plies.
    #[pyo3(get)]
    plies: Option<u8>,
    /// The verdict in words with the board's own counters, as `shashki
    /// show` prints it after `egdb`.
    #[pyo3(get)]
    text: String,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        match self.plies {
            Some(p) => format!("Probe('{}', plies={p})", self.wdl),
            None => format!("Probe('{}')", self.wdl),
        }
    }
}

/// Raise the first problem the tables met (a damaged or unreadable file).
pub fn check(tables: &Tables) -> PyResult<()> {
    match tables.take_errors().into_iter().next() {
        Some(e) => fail(Kind::Egdb, e),
        None => Ok(()),
    }
}

#[pyfunction]
#[pyo3(signature = (board, folder = None))]
pub fn _egdb_probe(
    py: Python<'_>,
    board: &Bound<'_, PyBoard>,
    folder: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<PyProbe>> {
    let game = board.borrow_mut().game().clone();
    let variant = game.variant();
    if egdb::file::variant_code(variant).is_none() {
        return Ok(None);
    }
    let spec = Folder::of(folder)?;
    let Some(tables) = open(&spec, variant)? else {
        return Ok(None);
    };
    let pos = *game.position();
    let (wdl, plies, text) = py.detach(|| {
        let wdl = tables.probe(&pos);
        let plies = match wdl {
            Some(Wdl::Win) | Some(Wdl::Loss) => tables.plies(&pos),
            _ => None,
        };
        let text = tables.describe(&game, tables.pieces());
        (wdl, plies, text)
    });
    check(&tables)?;
    Ok(wdl.map(|w| PyProbe {
        wdl: match w {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        },
        plies,
        text: text.unwrap_or_default(),
    }))
}

/// The most pieces the tables of `variant` under `folder` cover (0: none).
#[pyfunction]
#[pyo3(signature = (variant = "russian", folder = None))]
pub fn _egdb_pieces(variant: &str, folder: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    let v = variant_of(variant)?;
    if egdb::file::variant_code(v).is_none() {
        return Ok(0);
    }
    Ok(open(&Folder::of(folder)?, v)?.map_or(0, |t| t.pieces()))
}

#[pyfunction]
#[pyo3(signature = (folder, variant = "russian", pieces = 4, threads = 1))]
pub fn _egdb_build(
    py: Python<'_>,
    folder: PathBuf,
    variant: &str,
    pieces: u32,
    threads: usize,
) -> PyResult<u64> {
    let v = variant_of(variant)?;
    let max = egdb::index::MAX_PIECES;
    if !(2..=max).contains(&pieces) {
        return fail(
            Kind::Argument,
            format!("pieces {pieces}: expected a whole number from 2 to {max}"),
        );
    }
    crate::board::check_threads(threads)?;
    // A folder per variant, as the default folder is laid out.
    let dir = folder.join(v.id());
    let opts = egdb::build::BuildOptions {
        variant: v,
        pieces,
        dir: dir.clone(),
        only: None,
    };
    let built = py.detach(|| {
        let pool = crate::board::rayon_pool(threads)?;
        let mut positions = 0u64;
        pool.install(|| egdb::build::build(&opts, &mut |r| positions += r.positions))
            .map(|()| positions)
    });
    forget(&folder);
    forget(&dir);
    built.map_err(|e| error(Kind::Egdb, e))
}

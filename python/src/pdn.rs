//! `shashki.pdn`: PDN game files read (UTF-8, else Windows-1251, as the
//! command line reads them) and written, through the library's reader and
//! writer.

use crate::board::{variant_of, PyBoard, PyMove};
use crate::errors::{error, fail, Kind};
use crate::results::PyReport;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};
use shashki::game::Game;
use shashki::pdn::{self, Encoding, GameRecord, PdnError};
use shashki::tools::analyse;
use shashki::{fen, input, Variant};
use std::path::PathBuf;

/// The result tokens a game may carry.
const RESULTS: [&str; 5] = ["2-0", "0-2", "1-1", "0-0", "*"];

/// The PdnError exception of a malformed game, with its `game` and `line`.
fn pdn_error(py: Python<'_>, e: &PdnError) -> PyErr {
    let err = error(Kind::Pdn, e);
    let value = err.value(py);
    let _ = value.setattr("game", e.game);
    let _ = value.setattr("line", e.line);
    err
}

/// One game of a PDN file: its headers (tags), start position, moves,
/// comments, glyphs and result.
#[pyclass(module = "shashki.pdn", name = "Game")]
pub struct PyGame {
    game: Game,
    headers: Py<PyDict>,
    comments: Py<PyList>,
    glyphs: Py<PyList>,
    intro: Option<String>,
    result: String,
}

impl PyGame {
    fn from_record(py: Python<'_>, rec: GameRecord) -> PyResult<PyGame> {
        let headers = PyDict::new(py);
        for (name, value) in &rec.tags {
            if !headers.contains(name)? {
                headers.set_item(name, value)?;
            }
        }
        Ok(PyGame {
            headers: headers.unbind(),
            comments: PyList::new(py, &rec.comments)?.unbind(),
            glyphs: PyList::new(py, &rec.glyphs)?.unbind(),
            game: rec.game,
            intro: rec.intro,
            result: rec.result,
        })
    }

    /// A list of `len` entries, each `None` or a str.
    fn texts(
        py: Python<'_>,
        name: &str,
        list: &Py<PyList>,
        len: usize,
    ) -> PyResult<Vec<Option<String>>> {
        let list = list.bind(py);
        if list.len() != len {
            return fail(
                Kind::Argument,
                format!(
                    "{name}: expected {len} entries (one per move), found {}",
                    list.len()
                ),
            );
        }
        list.iter()
            .map(|item| {
                if item.is_none() {
                    Ok(None)
                } else {
                    item.extract::<String>().map(Some).map_err(|_| {
                        error(
                            Kind::Argument,
                            format!("{name}: every entry is a str or None"),
                        )
                    })
                }
            })
            .collect()
    }

    /// The record as it stands now (headers, comments and glyphs as the
    /// Python objects hold them).
    pub fn record(&self, py: Python<'_>) -> PyResult<GameRecord> {
        let n = self.game.moves().len();
        let mut tags = Vec::new();
        for (k, v) in self.headers.bind(py).iter() {
            let name: String = k
                .extract()
                .map_err(|_| error(Kind::Argument, "headers: every name is a str"))?;
            let value: String = v.str()?.extract()?;
            tags.push((name, value));
        }
        Ok(GameRecord {
            tags,
            game: self.game.clone(),
            comments: PyGame::texts(py, "comments", &self.comments, n)?,
            glyphs: PyGame::texts(py, "glyphs", &self.glyphs, n)?,
            intro: self.intro.clone(),
            result: self.result.clone(),
        })
    }
}

#[pymethods]
impl PyGame {
    /// A game of `board`'s start position and moves (a new game of
    /// `variant` without a board), with `headers` and `result` (default:
    /// the board's outcome, `*` while the game goes on).
    #[new]
    #[pyo3(signature = (board = None, headers = None, result = None, variant = "russian"))]
    fn new(
        py: Python<'_>,
        board: Option<&Bound<'_, PyBoard>>,
        headers: Option<&Bound<'_, PyDict>>,
        result: Option<&str>,
        variant: &str,
    ) -> PyResult<PyGame> {
        let game = match board {
            Some(b) => b.borrow_mut().game().clone(),
            None => Game::new(variant_of(variant)?),
        };
        let mut rec = GameRecord::new(game);
        rec.result = pdn::result_token(rec.game.outcome().as_ref());
        let mut g = PyGame::from_record(py, rec)?;
        if let Some(r) = result {
            g.set_result(r)?;
        }
        if let Some(h) = headers {
            g.headers = h.copy()?.unbind();
        }
        Ok(g)
    }

    /// The tags, name to value, in file order (the first of a repeated
    /// name). A dict: change it in place.
    #[getter]
    fn headers(&self, py: Python<'_>) -> Py<PyDict> {
        self.headers.clone_ref(py)
    }

    #[setter]
    fn set_headers(&mut self, headers: &Bound<'_, PyDict>) -> PyResult<()> {
        self.headers = headers.copy()?.unbind();
        Ok(())
    }

    /// The variant.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().id()
    }

    /// The start position's text.
    #[getter]
    fn start_fen(&self) -> String {
        fen::position_text(self.game.start())
    }

    /// The moves, each a `Move` of the position it was played from.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        PyMove::line(self.game.start(), self.game.moves())
    }

    /// The comment after each move (`None` where there is none); a list,
    /// one entry per move.
    #[getter]
    fn comments(&self, py: Python<'_>) -> Py<PyList> {
        self.comments.clone_ref(py)
    }

    #[setter]
    fn set_comments(&mut self, comments: &Bound<'_, PyList>) {
        self.comments = comments.clone().unbind();
    }

    /// The glyph or NAG after each move (`"?"`, `"!?"`, `"$3"`, or `None`).
    #[getter]
    fn glyphs(&self, py: Python<'_>) -> Py<PyList> {
        self.glyphs.clone_ref(py)
    }

    #[setter]
    fn set_glyphs(&mut self, glyphs: &Bound<'_, PyList>) {
        self.glyphs = glyphs.clone().unbind();
    }

    /// The comment before the first move.
    #[getter]
    fn intro(&self) -> Option<String> {
        self.intro.clone()
    }

    #[setter]
    fn set_intro(&mut self, intro: Option<String>) {
        self.intro = intro;
    }

    /// The result token: `"2-0"`, `"0-2"`, `"1-1"`, `"0-0"` or `"*"` (read
    /// from the movetext, else the Result tag; `1-0`, `0-1` and `1/2-1/2`
    /// are read as `2-0`, `0-2`, `1-1`).
    #[getter]
    fn result(&self) -> String {
        self.result.clone()
    }

    #[setter]
    fn set_result(&mut self, result: &str) -> PyResult<()> {
        if !RESULTS.contains(&result) {
            return fail(
                Kind::Argument,
                format!(
                    "result '{}': expected one of {}",
                    input::quote(result),
                    RESULTS.join(" ")
                ),
            );
        }
        self.result = result.to_string();
        Ok(())
    }

    /// A board after the first `ply` moves (all of them by default), with
    /// their history.
    #[pyo3(signature = (ply = None))]
    fn board(&self, ply: Option<usize>) -> PyResult<PyBoard> {
        let n = self.game.moves().len();
        let keep = ply.unwrap_or(n);
        if keep > n {
            return fail(
                Kind::Argument,
                format!("ply {keep}: the game has {n} moves"),
            );
        }
        let mut game = self.game.clone();
        for _ in keep..n {
            game.undo();
        }
        Ok(PyBoard::of(game))
    }

    /// Put an analysis (`Engine.analyse`'s reports) into the comments and
    /// glyphs, as `shashki analyse` writes them.
    fn annotate(&mut self, py: Python<'_>, reports: Vec<Py<PyReport>>) -> PyResult<()> {
        let mut rec = self.record(py)?;
        let reports: Vec<_> = reports.iter().map(|r| r.get().report.clone()).collect();
        analyse::annotate(&mut rec, &reports);
        self.comments = PyList::new(py, &rec.comments)?.unbind();
        self.glyphs = PyList::new(py, &rec.glyphs)?.unbind();
        Ok(())
    }

    /// The game as PDN text.
    fn pdn(&self, py: Python<'_>) -> PyResult<String> {
        Ok(pdn::write_game(&self.record(py)?))
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        self.pdn(py)
    }

    fn __len__(&self) -> usize {
        self.game.moves().len()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let get = |n: &str| -> String {
            self.headers
                .bind(py)
                .get_item(n)
                .ok()
                .flatten()
                .and_then(|v| v.str().ok().map(|s| s.to_string()))
                .unwrap_or_else(|| "?".into())
        };
        format!(
            "Game('{} - {}', {}, {} plies, {})",
            get("White"),
            get("Black"),
            self.variant(),
            self.game.moves().len(),
            self.result
        )
    }
}

/// What `errors=` asks for a malformed game.
enum OnError {
    Raise,
    Skip,
    Keep,
}

fn on_error(errors: &str) -> PyResult<OnError> {
    match errors {
        "raise" => Ok(OnError::Raise),
        "skip" => Ok(OnError::Skip),
        "keep" => Ok(OnError::Keep),
        _ => fail(
            Kind::Argument,
            format!(
                "errors '{}': expected 'raise', 'skip' or 'keep'",
                input::quote(errors)
            ),
        ),
    }
}

fn encoding_of(encoding: Option<&str>) -> PyResult<Option<Encoding>> {
    encoding
        .map(str::parse::<Encoding>)
        .transpose()
        .map_err(|e| error(Kind::Argument, format!("encoding: {e}")))
}

/// The games of decoded PDN text `text`, which `what` names in a message.
fn games_of(
    py: Python<'_>,
    text: &str,
    variant: Variant,
    errors: OnError,
    what: &str,
) -> PyResult<Vec<Py<PyAny>>> {
    let games = py.detach(|| pdn::read_games(text, variant));
    if !pdn::holds_pdn(&games) {
        let why = if text.trim().is_empty() {
            "it is empty"
        } else {
            "not one tag pair [Name \"value\"] or legal move in it"
        };
        return fail(Kind::Pdn, format!("{what} is not a PDN file: {why}"));
    }
    let mut out = Vec::with_capacity(games.len());
    for g in games {
        match g {
            Ok(rec) => out.push(Py::new(py, PyGame::from_record(py, rec)?)?.into_any()),
            Err(e) => match errors {
                OnError::Raise => return Err(pdn_error(py, &e)),
                OnError::Skip => {}
                OnError::Keep => out.push(pdn_error(py, &e).into_value(py).into_any()),
            },
        }
    }
    Ok(out)
}

#[pyfunction]
#[pyo3(signature = (path, variant = "russian", encoding = None, errors = "raise"))]
pub fn _pdn_read_file(
    py: Python<'_>,
    path: PathBuf,
    variant: &str,
    encoding: Option<&str>,
    errors: &str,
) -> PyResult<Vec<Py<PyAny>>> {
    let v = variant_of(variant)?;
    let enc = encoding_of(encoding)?;
    let mode = on_error(errors)?;
    let text = py
        .detach(|| pdn::read_file(&path, enc))
        .map_err(|e| error(Kind::Pdn, e))?;
    games_of(py, &text, v, mode, &format!("'{}'", path.display()))
}

#[pyfunction]
#[pyo3(signature = (text, variant = "russian", encoding = None, errors = "raise"))]
pub fn _pdn_read_string(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    variant: &str,
    encoding: Option<&str>,
    errors: &str,
) -> PyResult<Vec<Py<PyAny>>> {
    let v = variant_of(variant)?;
    let enc = encoding_of(encoding)?;
    let mode = on_error(errors)?;
    let decoded: String = if let Ok(s) = text.cast::<PyString>() {
        s.to_cow()
            .map_err(|_| {
                error(
                    Kind::Pdn,
                    "the text is not valid Unicode (a lone surrogate)",
                )
            })?
            .into_owned()
    } else if let Some(bytes) = text
        .cast::<PyBytes>()
        .map(|b| b.as_bytes().to_vec())
        .ok()
        .or_else(|| text.cast::<PyByteArray>().ok().map(|b| b.to_vec()))
    {
        if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
            return fail(
                Kind::Pdn,
                "the data is UTF-16 text, which is not read: save it as UTF-8",
            );
        }
        if let Some(at) = bytes.iter().position(|&b| b == 0) {
            return fail(
                Kind::Pdn,
                format!(
                    "the data is not a PDN file: it holds binary data (a NUL byte at byte {at})"
                ),
            );
        }
        pdn::decode(&bytes, enc).map_err(|e| {
            error(
                Kind::Pdn,
                format!("the data is {e}: is it windows-1251 or iso-8859-1?"),
            )
        })?
    } else {
        return fail(Kind::Argument, "text: expected a str, bytes or bytearray");
    };
    games_of(py, &decoded, v, mode, "the text")
}

#[pyfunction]
pub fn _pdn_write(py: Python<'_>, games: Vec<Py<PyGame>>) -> PyResult<String> {
    let mut out = String::new();
    for g in &games {
        out.push_str(&pdn::write_game(&g.borrow(py).record(py)?));
    }
    Ok(out)
}

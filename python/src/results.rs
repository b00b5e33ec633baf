//! What a search and an analysis report to Python: `Score`, `Line`,
//! `Info`, `SearchResult` and `PositionReport` (frozen value objects).

use crate::board::{color_name, PyMove};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use shashki::search::{Info, Score};
use shashki::tools::analyse;
use shashki::{fen, notation, Position, Variant};

/// A score: centi-men (Adiyukh: hundredths of a point of the expected final
/// count difference) for the side to move, or a win or loss in a number of
/// its moves.
#[pyclass(module = "shashki", name = "Score", frozen)]
#[derive(Clone, Copy)]
pub struct PyScore {
    score: Score,
    tb: bool,
}

impl PyScore {
    pub fn new(score: Score, tb: bool) -> PyScore {
        PyScore { score, tb }
    }
}

#[pymethods]
impl PyScore {
    /// `"cp"`, `"win"` or `"loss"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.score {
            Score::Cp(_) => "cp",
            Score::Win(_) => "win",
            Score::Loss(_) => "loss",
        }
    }

    /// The centi-men of a `"cp"` score, else `None`.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.score {
            Score::Cp(c) => Some(c),
            _ => None,
        }
    }

    /// The side to move's moves to the win or loss, else `None`. When `tb`
    /// is true they count to the conversion the endgame tables prove (the
    /// next capture or promotion), not to the end of the game.
    #[getter]
    fn moves(&self) -> Option<u32> {
        match self.score {
            Score::Win(n) | Score::Loss(n) => Some(n),
            Score::Cp(_) => None,
        }
    }

    /// The win or loss is the endgame tables' (see `moves`).
    #[getter]
    fn tb(&self) -> bool {
        self.tb
    }

    /// The score as one number, as `shashki analyse` computes losses: the
    /// centi-men, or +-10000 for a win or a loss.
    #[getter]
    fn value(&self) -> i32 {
        analyse::value_of(self.score)
    }

    /// `+0.35`, `#5` (a win in 5 moves), `#-3`.
    fn __str__(&self) -> String {
        analyse::score_text(self.score)
    }

    fn __repr__(&self) -> String {
        format!("Score('{}')", self.__str__())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyScore>()
            .is_ok_and(|o| o.get().score == self.score && o.get().tb == self.tb)
    }

    fn __hash__(&self) -> u64 {
        self.value() as u64
    }
}

/// One line of moves with its score.
#[pyclass(module = "shashki", name = "Line", frozen)]
#[derive(Clone)]
pub struct PyLine {
    /// The line's score for the side to move.
    #[pyo3(get)]
    pub(crate) score: PyScore,
    /// The depth it was searched to.
    #[pyo3(get)]
    pub(crate) depth: u32,
    /// The moves.
    #[pyo3(get)]
    pub(crate) pv: Vec<PyMove>,
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        let pv: Vec<String> = self
            .pv
            .iter()
            .map(|m| notation::move_text(&m.pos, &m.mv))
            .collect();
        format!(
            "Line({}, depth={}, pv='{}')",
            analyse::score_text(self.score.score),
            self.depth,
            pv.join(" ")
        )
    }
}

/// A progress report of a search, after each completed iteration.
#[pyclass(module = "shashki", name = "Info", frozen)]
#[derive(Clone)]
pub struct PyInfo {
    /// The iteration's depth in plies.
    #[pyo3(get)]
    depth: u32,
    /// The deepest ply reached (captures searched to the end).
    #[pyo3(get)]
    seldepth: u32,
    /// Which line this is (1 = the best) when several are searched.
    #[pyo3(get)]
    multipv: u32,
    /// The line's score for the side to move.
    #[pyo3(get)]
    score: PyScore,
    /// Nodes searched so far.
    #[pyo3(get)]
    nodes: u64,
    /// Nodes a second so far.
    #[pyo3(get)]
    nps: u64,
    /// Seconds since the search started.
    #[pyo3(get)]
    time: f64,
    /// Per mille of the transposition table used by this search.
    #[pyo3(get)]
    hashfull: u32,
    /// Positions whose value the endgame tables gave.
    #[pyo3(get)]
    tbhits: u64,
    /// The line, from the searched position.
    #[pyo3(get)]
    pv: Vec<PyMove>,
}

impl PyInfo {
    pub(crate) fn of(root: &Position, i: &Info) -> PyInfo {
        PyInfo {
            depth: i.depth,
            seldepth: i.seldepth,
            multipv: i.multipv.max(1),
            score: PyScore::new(i.score, i.tb),
            nodes: i.nodes,
            nps: i.nps,
            time: i.time_ms as f64 / 1000.0,
            hashfull: i.hashfull,
            tbhits: i.tbhits,
            pv: PyMove::line(root, &i.pv),
        }
    }
}

#[pymethods]
impl PyInfo {
    fn __repr__(&self) -> String {
        format!(
            "Info(depth={}, multipv={}, score={}, nodes={})",
            self.depth,
            self.multipv,
            analyse::score_text(self.score.score),
            self.nodes
        )
    }
}

/// What a search found.
#[pyclass(module = "shashki", name = "SearchResult", frozen)]
pub struct PySearchResult {
    /// The move to play; `None` only when there is no legal move.
    #[pyo3(get)]
    pub(crate) best: Option<PyMove>,
    /// The expected reply, if known.
    #[pyo3(get)]
    pub(crate) ponder: Option<PyMove>,
    /// The best line's score; `None` when nothing was searched (a forced
    /// move is played at once).
    #[pyo3(get)]
    pub(crate) score: Option<PyScore>,
    /// The principal variation.
    #[pyo3(get)]
    pub(crate) pv: Vec<PyMove>,
    /// Depth of the last completed iteration (0 for a forced move).
    #[pyo3(get)]
    pub(crate) depth: u32,
    /// The deepest ply reached in the last completed iteration.
    #[pyo3(get)]
    pub(crate) seldepth: u32,
    /// Nodes searched.
    #[pyo3(get)]
    pub(crate) nodes: u64,
    /// Nodes a second over the search's wall time.
    #[pyo3(get)]
    pub(crate) nps: u64,
    /// Seconds the search took.
    #[pyo3(get)]
    pub(crate) time: f64,
    /// Positions whose value the endgame tables gave.
    #[pyo3(get)]
    pub(crate) tbhits: u64,
    /// Per mille of the transposition table used by this search.
    #[pyo3(get)]
    pub(crate) hashfull: u32,
    /// The best lines, best first (`multipv` of them, fewer when there are
    /// fewer moves).
    #[pyo3(get)]
    pub(crate) lines: Vec<PyLine>,
    /// The search was ended by `Engine.stop()` (or an exception in
    /// `on_info`).
    #[pyo3(get)]
    pub(crate) stopped: bool,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        let best = self
            .best
            .map_or("None".to_string(), |m| notation::move_text(&m.pos, &m.mv));
        let score = self
            .score
            .map_or("None".to_string(), |s| analyse::score_text(s.score));
        format!(
            "SearchResult(best={best}, score={score}, depth={}, nodes={})",
            self.depth, self.nodes
        )
    }
}

/// The analysis of one position of a game, as `shashki analyse` gives it.
#[pyclass(module = "shashki", name = "PositionReport", frozen)]
pub struct PyReport {
    pub report: analyse::PositionReport,
    lines: Vec<PyLine>,
}

impl PyReport {
    pub(crate) fn of(r: &analyse::PositionReport, variant: Variant) -> PyReport {
        let pos = fen::parse_position(variant, &r.position).ok();
        let lines = r
            .lines
            .iter()
            .map(|l| {
                let mut pv = Vec::new();
                if let Some(mut p) = pos {
                    for text in &l.pv {
                        match notation::parse_move(&p, text) {
                            Ok(m) => {
                                pv.push(PyMove::new(p, m));
                                p.make(&m);
                            }
                            Err(_) => break,
                        }
                    }
                }
                PyLine {
                    score: PyScore::new(l.score, false),
                    depth: l.depth,
                    pv,
                }
            })
            .collect();
        PyReport {
            report: r.clone(),
            lines,
        }
    }
}

#[pymethods]
impl PyReport {
    /// 0-based ply of the move played from this position.
    #[getter]
    fn ply(&self) -> usize {
        self.report.ply
    }

    /// The position's text.
    #[getter]
    fn fen(&self) -> &str {
        &self.report.position
    }

    /// The side to move.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.report.side)
    }

    /// The move played here; `None` at the end of the game.
    #[getter]
    fn played(&self) -> Option<&str> {
        self.report.played.as_deref()
    }

    /// The best move found; `None` when the game is over.
    #[getter]
    fn best(&self) -> Option<&str> {
        self.report
            .lines
            .first()
            .and_then(|l| l.pv.first())
            .map(String::as_str)
    }

    /// The best lines, best first (empty when the game is over).
    #[getter]
    fn lines(&self) -> Vec<PyLine> {
        self.lines.clone()
    }

    /// The value of the position for the side to move (centi-men; a win
    /// +10000).
    #[getter]
    fn value(&self) -> i32 {
        self.report.value
    }

    /// What the played move lost (0 or more); `None` at the end.
    #[getter]
    fn loss(&self) -> Option<i32> {
        self.report.loss
    }

    /// `"?!"`, `"?"`, `"??"` for an inaccuracy, a mistake, a blunder.
    #[getter]
    fn glyph(&self) -> Option<&'static str> {
        self.report.glyph
    }

    /// The report as a dict of plain values (the fields of `shashki analyse
    /// --json`'s position objects).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("ply", self.report.ply)?;
        d.set_item("position", &self.report.position)?;
        d.set_item("side", if self.turn() == "white" { "W" } else { "B" })?;
        d.set_item("played", self.played())?;
        d.set_item("best", self.best())?;
        d.set_item("value", self.report.value)?;
        d.set_item("loss", self.report.loss)?;
        d.set_item("glyph", self.report.glyph)?;
        let lines = pyo3::types::PyList::empty(py);
        for l in &self.report.lines {
            let ld = PyDict::new(py);
            let sd = PyDict::new(py);
            match l.score {
                Score::Cp(c) => sd.set_item("cp", c)?,
                Score::Win(n) => sd.set_item("win", n)?,
                Score::Loss(n) => sd.set_item("loss", n)?,
            }
            ld.set_item("score", sd)?;
            ld.set_item("depth", l.depth)?;
            ld.set_item("pv", &l.pv)?;
            lines.append(ld)?;
        }
        d.set_item("lines", lines)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "PositionReport(ply={}, played={}, best={}, value={}, loss={}, glyph={})",
            self.report.ply,
            self.played().unwrap_or("None"),
            self.best().unwrap_or("None"),
            self.report.value,
            self.report
                .loss
                .map_or("None".to_string(), |l| l.to_string()),
            self.report.glyph.unwrap_or("None")
        )
    }
}

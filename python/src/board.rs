//! `shashki.Board`, `shashki.Move`, `shashki.Piece`, `shashki.Outcome`: the
//! rules, through the library's `Game` (history, repetition, the draw
//! rules, Adiyukh's end and count).

use crate::errors::{error, fail, Kind, Text};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use shashki::board::squares;
use shashki::game::{EndReason, Game, GameError, GameResult, Outcome};
use shashki::notation::MoveError;
use shashki::options;
use shashki::tools::svg;
use shashki::{
    diagram, fen, input, movegen, notation, perft, Color, Move, MoveList, Piece, Position, Square,
    Variant,
};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// The variant named by `text` (`russian`, `brazilian`, `adiyukh-64`,
/// `adiyukh-80`), or an `ArgumentError` with the library's message.
pub fn variant_of(text: &str) -> PyResult<Variant> {
    text.parse::<Variant>()
        .map_err(|e| error(Kind::Argument, e))
}

/// `"white"` or `"black"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Position text read for `variant`, as the command line reads it.
pub fn parse_fen(variant: Variant, text: &str) -> PyResult<Position> {
    fen::parse_position(variant, text)
        .map_err(|e| error(Kind::Fen, format!("bad position text: {e}")))
}

/// The error of a refused move or game set-up.
pub fn game_error(e: GameError) -> PyErr {
    match e {
        GameError::Position(p) => error(Kind::Fen, format!("bad position text: {p}")),
        GameError::Move(m) => error(Kind::Move, m),
        GameError::Over(_) => error(Kind::GameOver, e),
    }
}

/// The square a user names: a name (`c3`) or a PDN number (8x8 only).
fn square_of(pos: &Position, square: &Bound<'_, PyAny>) -> PyResult<Square> {
    let g = pos.geometry();
    if let Ok(n) = square.extract::<i64>() {
        return u32::try_from(n)
            .ok()
            .and_then(|n| g.from_pdn_number(n))
            .ok_or_else(|| {
                error(
                    Kind::Argument,
                    format!("no square numbered {n} on this board (1 to 32 on 8x8 only)"),
                )
            });
    }
    let name: String = square.extract().map_err(|_| {
        error(
            Kind::Argument,
            "a square is a name such as 'c3' or a PDN number",
        )
    })?;
    g.parse_square(&name).map_err(|e| error(Kind::Argument, e))
}

/// A move of a position: the squares it passes, what it takes, whether it
/// crowns. `str(move)` is its text in the engine's notation (`c3-d4`,
/// `c3:e5:g3`), which `Board.parse_move` and `Board.push` read back.
#[pyclass(module = "shashki", name = "Move", frozen)]
#[derive(Clone, Copy)]
pub struct PyMove {
    /// The position the move is played from.
    pub pos: Position,
    pub mv: Move,
}

impl PyMove {
    pub fn new(pos: Position, mv: Move) -> PyMove {
        PyMove { pos, mv }
    }

    fn name(&self, sq: Square) -> String {
        self.pos.geometry().square_name(sq)
    }

    /// The moves of `line` played in turn from `pos`.
    pub fn line(pos: &Position, line: &[Move]) -> Vec<PyMove> {
        let mut p = *pos;
        line.iter()
            .map(|m| {
                let out = PyMove::new(p, *m);
                p.make(m);
                out
            })
            .collect()
    }
}

#[pymethods]
impl PyMove {
    /// The move in the engine's notation: `c3-d4`, or every landing square
    /// of a capture, `c3:e5:g3`.
    fn __str__(&self) -> String {
        notation::move_text(&self.pos, &self.mv)
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.__str__())
    }

    /// The move with numeric PDN squares (`22-18`, `22x15x8`); `None` on
    /// the 80-square board.
    #[getter]
    fn pdn(&self) -> Option<String> {
        notation::move_text_numeric(&self.pos, &self.mv)
    }

    /// The start square.
    #[getter(from_square)]
    fn start_square(&self) -> String {
        self.name(self.mv.from())
    }

    /// The final square.
    #[getter(to_square)]
    fn final_square(&self) -> String {
        self.name(self.mv.to())
    }

    /// The squares the piece passes: the start square, then the final
    /// square of a quiet move or the landing square of every jump.
    #[getter]
    fn path(&self) -> Vec<String> {
        let mut out = vec![self.name(self.mv.from())];
        if self.mv.is_capture() {
            out.extend(self.mv.path().map(|s| self.name(s)));
        } else {
            out.push(self.name(self.mv.to()));
        }
        out
    }

    /// The squares whose pieces are captured, each once, in the order of
    /// the jumps (Adiyukh: the towers whose top checker is taken).
    #[getter]
    fn captured(&self) -> Vec<String> {
        let mut seen: Vec<Square> = Vec::new();
        for s in self.mv.jumped() {
            if !seen.contains(&s) {
                seen.push(s);
            }
        }
        seen.into_iter().map(|s| self.name(s)).collect()
    }

    /// The jumped squares in order, a square repeated when its tower is
    /// jumped again (Adiyukh); for the other variants the same as
    /// `captured`.
    #[getter]
    fn jumped(&self) -> Vec<String> {
        self.mv.jumped().map(|s| self.name(s)).collect()
    }

    /// True for a capture.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture()
    }

    /// Russian and Brazilian: a man becomes a king with this move. Adiyukh:
    /// always false (a tower is a king exactly while it stands on its
    /// promotion rank).
    #[getter]
    fn promotes(&self) -> bool {
        self.mv.promotes()
    }

    /// Moves are equal when they are played from the same position and
    /// give the same result (same start, final square, crowning and
    /// captured pieces): the rule book's identity of moves.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMove>() {
            Ok(o) => {
                let o = o.get();
                self.pos == o.pos && self.mv.same_result(&o.mv)
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (
            self.pos.key(),
            self.mv.from(),
            self.mv.to(),
            self.mv.captured(),
        )
            .hash(&mut h);
        self.mv.promotes().hash(&mut h);
        h.finish()
    }
}

/// What stands on a square.
#[pyclass(module = "shashki", name = "Piece", frozen)]
#[derive(Clone, Copy)]
pub struct PyPiece {
    piece: Piece,
    king: bool,
}

#[pymethods]
impl PyPiece {
    /// The owner: `"white"` or `"black"` (a tower: its top checker's colour).
    #[getter]
    fn color(&self) -> &'static str {
        color_name(self.piece.color())
    }

    /// A king (Adiyukh: a tower on its owner's promotion rank).
    #[getter]
    fn king(&self) -> bool {
        self.king
    }

    /// True in the tower variants (Adiyukh).
    #[getter]
    fn is_tower(&self) -> bool {
        matches!(self.piece, Piece::Tower(_))
    }

    /// Checkers of the owner's colour on top (1 for a man or a king).
    #[getter]
    fn own(&self) -> u8 {
        match self.piece {
            Piece::Tower(t) => t.own,
            _ => 1,
        }
    }

    /// Checkers of the other colour under them (0 outside Adiyukh).
    #[getter]
    fn other(&self) -> u8 {
        match self.piece {
            Piece::Tower(t) => t.other,
            _ => 0,
        }
    }

    /// Checkers in the piece (1 for a man or a king).
    #[getter]
    fn height(&self) -> u32 {
        match self.piece {
            Piece::Tower(t) => t.height(),
            _ => 1,
        }
    }

    fn __repr__(&self) -> String {
        let what = if self.king { "king" } else { "man" };
        match self.piece {
            Piece::Tower(t) => format!(
                "Piece({}, {what}, tower {}/{})",
                self.color(),
                t.own,
                t.other
            ),
            _ => format!("Piece({}, {what})", self.color()),
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyPiece>()
            .is_ok_and(|o| o.get().piece == self.piece && o.get().king == self.king)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.color(), self.king, self.own(), self.other()).hash(&mut h);
        h.finish()
    }
}

/// How a game ended.
#[pyclass(module = "shashki", name = "Outcome", frozen)]
#[derive(Clone, Copy)]
pub struct PyOutcome {
    outcome: Outcome,
}

#[pymethods]
impl PyOutcome {
    /// The result in draughts notation: `"2-0"` (White wins), `"1-1"`
    /// (draw), `"0-2"` (Black wins).
    #[getter]
    fn result(&self) -> &'static str {
        self.outcome.result.pdn()
    }

    /// `"white"`, `"black"`, or `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.outcome.result {
            GameResult::WhiteWins => Some("white"),
            GameResult::BlackWins => Some("black"),
            GameResult::Draw => None,
        }
    }

    /// Why the game ended, as a short code: `no-pieces`, `no-moves`,
    /// `repetition`, `7.2.4`, `7.2.5`, `7.2.6`, `7.2.7` or `7.2.8` (the
    /// rule book's draw rules).
    #[getter]
    fn reason(&self) -> &'static str {
        match self.outcome.reason {
            EndReason::NoPieces => "no-pieces",
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
            EndReason::ThreeKingsAgainstKing => "7.2.4",
            EndReason::KingMovesOnly => "7.2.5",
            EndReason::BalanceUnchanged => "7.2.6",
            EndReason::LoneKingOnMainRoad => "7.2.7",
            EndReason::TwoAgainstKing => "7.2.8",
        }
    }

    /// The reason in words, e.g. `"threefold repetition"`.
    #[getter]
    fn description(&self) -> &'static str {
        self.outcome.reason.describe()
    }

    /// Adiyukh: the count `(white, black)` of the final position; `None`
    /// in the other variants.
    #[getter]
    fn score(&self) -> Option<(u32, u32)> {
        self.outcome.score
    }

    fn __str__(&self) -> String {
        self.outcome.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Outcome('{}')", self.outcome)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyOutcome>()
            .is_ok_and(|o| o.get().outcome == self.outcome)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.outcome.to_string().hash(&mut h);
        h.finish()
    }
}

/// A game of draughts: a start position, the moves played, and the
/// position they lead to, under the rule book (compulsory captures, the
/// draw rules 7.2.3-7.2.8 in Russian and Brazilian, Adiyukh's end and
/// count).
///
/// Boards compare and hash by their current position (variant, pieces,
/// side to move), not by the moves that led there.
#[pyclass(module = "shashki", name = "Board")]
pub struct PyBoard {
    /// The game, up to the pending move.
    game: Game,
    /// The last move pushed, not yet played on `game` (with the position
    /// after it and the `Move` object `push` returned): checked legal (a
    /// `Move` of this very position, or text the parser read) with the game
    /// going on, so that playing it cannot fail. `push` then `pop`, the
    /// pattern of move-by-move analysis, so costs no `Game::play`, whose
    /// checks (the game's end, the move's legality) were already made.
    pending: Option<(Move, Py<PyAny>)>,
    /// The game's current position is known not to end the game (its
    /// outcome was computed since the game last changed).
    going_on: bool,
}

impl Clone for PyBoard {
    fn clone(&self) -> PyBoard {
        PyBoard {
            game: self.game.clone(),
            pending: self
                .pending
                .as_ref()
                .map(|(m, o)| (*m, Python::attach(|py| o.clone_ref(py)))),
            going_on: self.going_on,
        }
    }
}

impl PyBoard {
    /// A board of `game`.
    pub fn of(game: Game) -> PyBoard {
        PyBoard {
            game,
            pending: None,
            going_on: false,
        }
    }

    /// The current position (after a pending move, computed when asked
    /// for: `push` then `pop` never needs it).
    pub fn position(&self) -> Position {
        match &self.pending {
            Some((mv, _)) => self.game.position().play(mv),
            None => *self.game.position(),
        }
    }

    /// The game with every move pushed.
    pub fn game(&mut self) -> &Game {
        if let Some((mv, _)) = self.pending.take() {
            let played = self.game.play(&mv);
            debug_assert!(played.is_ok(), "a pending move was checked when pushed");
            self.going_on = false;
        }
        &self.game
    }

    /// The end of the game with every move pushed, if it is over.
    fn game_outcome(&mut self) -> Option<Outcome> {
        if self.pending.is_none() && self.going_on {
            return None;
        }
        let o = self.game().outcome();
        self.going_on = o.is_none();
        o
    }

    /// The moves played, the pending one included.
    fn moves(&self) -> Vec<Move> {
        let mut moves = self.game.moves().to_vec();
        moves.extend(self.pending.as_ref().map(|(m, _)| *m));
        moves
    }

    /// The move `mv` means here (a `Move` of this position, or move text),
    /// and the `Move` object for it.
    fn resolve(&self, mv: &Bound<'_, PyAny>) -> PyResult<(Move, Py<PyAny>)> {
        let pos = self.position();
        if let Ok(m) = mv.cast::<PyMove>() {
            let inner = m.get();
            if inner.pos != pos {
                let legal = notation::legal_move_texts(&pos);
                let text = notation::move_text(&inner.pos, &inner.mv);
                return Err(error(Kind::Move, MoveError::Illegal { text, legal }));
            }
            // Move objects are made only from the legal moves of their
            // position (there is no constructor): legal here.
            return Ok((inner.mv, m.clone().into_any().unbind()));
        }
        let text: Text = mv.extract().map_err(|_| {
            error(
                Kind::Argument,
                "a move is a Move of this board or move text such as 'c3-d4'",
            )
        })?;
        let m = notation::parse_move(&pos, &text).map_err(|e| error(Kind::Move, e))?;
        Ok((m, Py::new(mv.py(), PyMove::new(pos, m))?.into_any()))
    }
}

#[pymethods]
impl PyBoard {
    /// A board of `variant` (`"russian"`, `"brazilian"`, `"adiyukh-64"`,
    /// `"adiyukh-80"`) at `fen` (position text such as `W:Wa1,c3:Bb6,Kh8`,
    /// towers `e5-2/1`, numeric squares on 8x8), or at the start.
    #[new]
    #[pyo3(signature = (variant = "russian", fen = None))]
    fn new(variant: &str, fen: Option<Text>) -> PyResult<PyBoard> {
        let v = variant_of(variant)?;
        let start = match fen {
            None => Position::start(v),
            Some(t) => parse_fen(v, &t)?,
        };
        Ok(PyBoard::of(Game::from_position(start)))
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant().id()
    }

    /// The current position as position text (squares in algebraic
    /// notation, towers `e5-2/1`).
    #[getter]
    fn fen(&self) -> String {
        fen::position_text(&self.position())
    }

    /// The current position with numeric PDN squares (8x8 men-and-kings
    /// variants); `None` for Adiyukh.
    #[getter]
    fn fen_numeric(&self) -> Option<String> {
        fen::position_text_numeric(&self.position())
    }

    /// The start position's text.
    #[getter]
    fn start_fen(&self) -> String {
        fen::position_text(self.game.start())
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.position().side_to_move())
    }

    /// The moves played from the start position.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        PyMove::line(self.game.start(), &self.moves())
    }

    /// Plies played from the start position.
    #[getter]
    fn ply(&self) -> usize {
        self.game.moves().len() + self.pending.is_some() as usize
    }

    /// Every legal move (distinct moves only: two routes that take the same
    /// pieces to the same square are one move).
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let pos = self.position();
        // Generated in place: a move list is 4.6 kB, worth not copying.
        let mut list = MoveList::new();
        movegen::generate(&pos, &mut list);
        PyList::new(py, list.iter().map(|m| PyMove::new(pos, *m)))
    }

    /// The legal move named by `text`: `c3-d4`, `c3:e5:g3`, `c3xe5`, the
    /// short `start:final` form when it names one move, numeric squares
    /// (`22-18`), Adiyukh's `cb4`. Raises `MoveError` with the reason.
    fn parse_move(&self, text: Text) -> PyResult<PyMove> {
        let pos = self.position();
        notation::parse_move(&pos, &text)
            .map(|m| PyMove::new(pos, m))
            .map_err(|e| error(Kind::Move, e))
    }

    /// Play `move` (a `Move` of this position or move text) and return it.
    /// Raises `MoveError` when it is not legal here, `GameOverError` when
    /// the game is over.
    #[pyo3(signature = (r#move, /))]
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Some(o) = self.game_outcome() {
            return Err(game_error(GameError::Over(o)));
        }
        let (mv, obj) = self.resolve(r#move)?;
        self.pending = Some((mv, obj.clone_ref(r#move.py())));
        Ok(obj)
    }

    /// Take back the last move and return it. Raises `IndexError` at the
    /// start position.
    fn pop(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        if let Some((_, obj)) = self.pending.take() {
            return Ok(obj);
        }
        self.going_on = false;
        let n = self.game.moves().len();
        if n == 0 {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "no move to take back: the board is at its start position",
            ));
        }
        let pos = self.game.positions()[n - 1];
        let mv = self.game.undo().expect("a move to take back");
        Ok(Py::new(py, PyMove::new(pos, mv))?.into_any())
    }

    /// The last move played, or `None`.
    fn peek(&self) -> Option<PyMove> {
        if let Some((mv, _)) = &self.pending {
            return Some(PyMove::new(*self.game.position(), *mv));
        }
        let n = self.game.moves().len();
        (n > 0).then(|| PyMove::new(self.game.positions()[n - 1], self.game.moves()[n - 1]))
    }

    /// A copy with the same history.
    fn copy(&self) -> PyBoard {
        self.clone()
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// True when the game is over: no move for the side to move, a draw
    /// rule (repetition, 7.2.4-7.2.8), or Adiyukh's third repetition.
    fn is_game_over(&mut self) -> bool {
        self.game_outcome().is_some()
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&mut self) -> Option<PyOutcome> {
        self.game_outcome().map(|outcome| PyOutcome { outcome })
    }

    /// How many times the current position has occurred (same side to
    /// move), counting this one.
    fn repetitions(&mut self) -> usize {
        self.game().repetitions()
    }

    /// The Adiyukh count `(white, black)`: each side scores every checker,
    /// of either colour, on the opponent's half of the board. For Russian
    /// and Brazilian, each side's pieces on the opponent's half.
    fn count(&self) -> (u32, u32) {
        self.position().half_board_score()
    }

    /// Checkers of `color` (`"white"` or `"black"`) on the board; in
    /// Adiyukh the checkers of that colour in all towers.
    fn checkers(&self, color: &str) -> PyResult<u32> {
        let c = match color {
            "white" => Color::White,
            "black" => Color::Black,
            _ => {
                return fail(
                    Kind::Argument,
                    format!(
                        "colour must be 'white' or 'black', not '{}'",
                        input::quote(color)
                    ),
                )
            }
        };
        Ok(self.position().checker_count(c))
    }

    /// What stands on `square` (a name such as `"c3"`, or a PDN number on
    /// 8x8), or `None`.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let pos = self.position();
        let sq = square_of(&pos, square)?;
        Ok(pos.piece_at(sq).map(|piece| PyPiece {
            piece,
            king: pos.kings() & sq.bb() != 0,
        }))
    }

    /// Every occupied square, by name, with its piece (board order, rank 1
    /// first).
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let pos = self.position();
        let g = pos.geometry();
        let mut all: Vec<Square> = squares(pos.occupied()).collect();
        all.sort_by_key(|&s| {
            let (f, r) = g.file_rank(s);
            (r, f)
        });
        let out = PyDict::new(py);
        for sq in all {
            if let Some(piece) = pos.piece_at(sq) {
                let king = pos.kings() & sq.bb() != 0;
                out.set_item(g.square_name(sq), PyPiece { piece, king })?;
            }
        }
        Ok(out)
    }

    /// Leaves of the legal move tree `depth` plies deep (distinct moves),
    /// counted on `threads` threads. The interpreter's other threads run
    /// meanwhile.
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<u64> {
        let pos = self.position();
        check_threads(threads)?;
        if threads == 1 {
            return Ok(py.detach(|| perft::perft(&pos, depth)));
        }
        py.detach(|| {
            rayon_pool(threads).map(|pool| pool.install(|| perft::perft_parallel(&pos, depth)))
        })
        .map_err(|e| error(Kind::Engine, e))
    }

    /// The position as a text diagram (White at the bottom).
    fn diagram(&self) -> String {
        diagram::diagram(&self.position())
    }

    /// The position as an SVG picture (see `shashki.svg`).
    #[pyo3(signature = (flip = false, coordinates = true))]
    fn svg(&self, flip: bool, coordinates: bool) -> String {
        let opts = svg::SvgOptions { flip, coordinates };
        svg::svg_with(&self.position(), &opts)
    }

    /// Jupyter's picture of the board.
    fn _repr_svg_(&self) -> String {
        svg::svg(&self.position())
    }

    fn __str__(&self) -> String {
        diagram::diagram(&self.position())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}', '{}')", self.variant(), self.fen())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyBoard>() {
            Ok(o) => o
                .try_borrow()
                .is_ok_and(|o| o.position() == self.position()),
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        let pos = self.position();
        pos.key() ^ (pos.variant() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Pickling: the variant, the start position and the moves.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let b = slf.borrow();
        let moves = PyList::new(py, notation::line_texts(b.game.start(), &b.moves()))?;
        let rebuild = py.import("shashki._pickle")?.getattr("_rebuild")?;
        let args = (b.variant(), b.start_fen(), moves);
        (rebuild, args).into_pyobject(py).map(|t| t.into_any())
    }
}

/// `threads` within the engine's range, or an `ArgumentError` naming it.
pub fn check_threads(threads: usize) -> PyResult<()> {
    let range = options::THREADS;
    if range.contains(threads as u64) {
        Ok(())
    } else {
        fail(
            Kind::Argument,
            format!("threads {threads}: expected {}", range.describe()),
        )
    }
}

/// A rayon pool of `threads` threads.
pub fn rayon_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

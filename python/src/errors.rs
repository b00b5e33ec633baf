//! The package's exceptions, raised from Rust.
//!
//! The classes are written in Python (`shashki/_errors.py`), because some
//! derive from two bases (`ShashkiError` and `ValueError`), which PyO3's
//! exception macros cannot declare. Each message is the library's one-line
//! message, with every character that does not print as itself escaped
//! (`shashki::input::escape`), as the command line prints it.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use shashki::input::escape;
use std::fmt::Display;

/// The exception classes of `shashki._errors`.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Bad position text.
    Fen,
    /// Bad or illegal move text, or a move that is not legal here.
    Move,
    /// A move refused because the game is over.
    GameOver,
    /// A malformed PDN game or a text that is not PDN.
    Pdn,
    /// A bad argument value (variant, depth, hash size, weights file...).
    Argument,
    /// Endgame tables: a folder without tables, a damaged file.
    Egdb,
    /// The engine could not do what was asked (memory, threads).
    Engine,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Fen => "FenError",
            Kind::Move => "MoveError",
            Kind::GameOver => "GameOverError",
            Kind::Pdn => "PdnError",
            Kind::Argument => "ArgumentError",
            Kind::Egdb => "EgdbError",
            Kind::Engine => "EngineError",
        }
    }

    fn cell(self) -> &'static PyOnceLock<Py<PyType>> {
        static CELLS: [PyOnceLock<Py<PyType>>; 7] = [
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
        ];
        &CELLS[self as usize]
    }
}

/// An exception of `kind` carrying `message` (made one line).
pub fn error(kind: Kind, message: impl Display) -> PyErr {
    let text = one_line(&message.to_string());
    Python::attach(
        |py| match kind.cell().import(py, "shashki._errors", kind.name()) {
            Ok(ty) => PyErr::from_type(ty.clone(), (text,)),
            Err(e) => e,
        },
    )
}

/// A message as one printable line.
pub fn one_line(message: &str) -> String {
    escape(message)
}

/// `Err(error(kind, message))`.
pub fn fail<T>(kind: Kind, message: impl Display) -> PyResult<T> {
    Err(error(kind, message))
}

/// A str argument, read whatever it holds: lone surrogates (which UTF-8
/// cannot carry) become U+FFFD, so that such text is refused by the parser
/// with the library's message instead of a codec error. Anything but a str
/// is an `ArgumentError`.
pub struct Text(pub String);

impl<'a, 'py> FromPyObject<'a, 'py> for Text {
    type Error = PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Text> {
        match obj.cast::<pyo3::types::PyString>() {
            Ok(s) => Ok(Text(s.to_string_lossy().into_owned())),
            Err(_) => fail(Kind::Argument, "expected a str"),
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

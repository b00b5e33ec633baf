//! The `shashki` Python package's extension module, `shashki._shashki`:
//! the library's rules, engine, PDN, pictures and endgame tables, for the
//! Python layer in `shashki/` (which gives the public names, the
//! submodules `shashki.pdn` and `shashki.egdb`, and the exceptions).
//!
//! Imports go one way: `lib` -> `engine`, `pdn`, `egdb` -> `board` ->
//! `errors`, all on top of the `shashki` library's public API.

mod board;
mod egdb;
mod engine;
mod errors;
mod pdn;
mod results;

use pyo3::prelude::*;
use shashki::tools::svg::{svg_with, SvgOptions};
use shashki::Variant;

/// The position of `board` as an SVG picture: a1 at the bottom left
/// (`flip`: Black at the bottom), with file letters and rank numbers
/// unless `coordinates` is false.
#[pyfunction]
#[pyo3(signature = (board, flip = false, coordinates = true))]
fn svg(board: &Bound<'_, board::PyBoard>, flip: bool, coordinates: bool) -> String {
    let opts = SvgOptions { flip, coordinates };
    svg_with(&board.borrow().position(), &opts)
}

/// The variants, by the names every function takes.
fn variants() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.id()).collect()
}

#[pymodule]
fn _shashki(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::PyMove>()?;
    m.add_class::<board::PyPiece>()?;
    m.add_class::<board::PyOutcome>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<results::PyScore>()?;
    m.add_class::<results::PyLine>()?;
    m.add_class::<results::PyInfo>()?;
    m.add_class::<results::PySearchResult>()?;
    m.add_class::<results::PyReport>()?;
    m.add_class::<pdn::PyGame>()?;
    m.add_class::<egdb::PyProbe>()?;
    m.add_function(wrap_pyfunction!(svg, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::_pdn_read_file, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::_pdn_read_string, m)?)?;
    m.add_function(wrap_pyfunction!(pdn::_pdn_write, m)?)?;
    m.add_function(wrap_pyfunction!(egdb::_egdb_probe, m)?)?;
    m.add_function(wrap_pyfunction!(egdb::_egdb_pieces, m)?)?;
    m.add_function(wrap_pyfunction!(egdb::_egdb_build, m)?)?;
    m.add("VARIANTS", variants())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

//! The tools above the engine: commands that use the library.
//!
//! - [`egdb`]: `egdb info` and `egdb verify` on a folder of endgame tables.

pub mod egdb;

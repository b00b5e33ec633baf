//! Integration tests of the `shashki` library against the rule book
//! (`docs/rules/`) and the test data (`engine-tests/testdata/`), both
//! carried by the repository.
//!
//! Each concern lives in its own file; this file only wires them together.

mod adiyukh_cases;
mod analyse;
mod cli;
mod common;
mod counting;
mod egdb;
mod egdb_endings;
mod egdb_exact;
mod egdb_faults;
mod egdb_folders;
mod egdb_search;
mod fuzz;
mod game;
mod hub;
mod matches;
mod notation_errors;
mod pdn;
mod perft;
mod piped;
mod process;
mod search;
mod svg;
mod uci;
mod zobrist;

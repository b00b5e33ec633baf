//! Shashki: a draughts engine for Russian, Brazilian and Adiyukh (tower)
//! draughts, built around one move generator parameterised by variant.
//!
//! Data flows one way: text ([`fen`], [`notation`]) -> [`Position`] ->
//! [`movegen`] -> [`game`] / [`perft`] (and, later, search and protocols).
//!
//! ```
//! use shashki::{perft, Position, Variant};
//! let pos = Position::start(Variant::Brazilian);
//! assert_eq!(perft::perft(&pos, 5), 7473);
//! ```

pub mod analyse;
pub mod board;
pub mod cli;
pub mod diagram;
pub mod elo;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod game;
pub mod hub;
pub mod input;
pub mod matches;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod openings;
pub mod pdn;
pub mod perft;
pub mod player;
pub mod position;
pub mod search;
pub mod svg;
pub mod tt;
pub mod uci;
pub mod variant;
pub mod weights;
mod zobrist;

pub use board::{Color, Square};
pub use moves::{Move, MoveList};
pub use position::{Piece, Position, Tower};
pub use variant::Variant;

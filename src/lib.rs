//! Shashki: a draughts engine for Russian, Brazilian and Adiyukh (tower)
//! draughts, built around one move generator parameterised by variant, with
//! a search, the UCI-like and Hub protocols, and tools around them.
//!
//! Data flows one way: text -> position -> move generation -> search ->
//! protocol. The modules in that order, then the tools:
//!
//! **Text**
//! - [`fen`]: position text (`W:Wa1,c3:Bb6,Kh8`, towers `e5-2/1`), and Hub's
//!   33-character form, both ways.
//! - [`notation`]: move text (`c3-d4`, `c3:e5:g3`, numeric and short forms), both ways;
//!   [`notation::hub`]: Hub's numbered moves (`10x19x14`).
//! - [`pdn`]: PDN game files, read and written.
//! - [`book`]: the opening book, a move per position after the shipped openings.
//! - [`input`]: the ranges of the numbers users give, and user text quoted back.
//!
//! **Position**
//! - [`board`]: colours, squares, the ghost-square bitboard layout, masks.
//! - [`variant`]: the four variants and the rule flags the generator reads.
//! - [`position`]: a position (bitboards, kings, towers, Zobrist key) and make.
//! - `zobrist` (private): the Zobrist keys, computed at compile time.
//!
//! **Move generation**
//! - [`moves`]: [`Move`] and the on-stack move list.
//! - [`movegen`]: the one move generator, monomorphised per variant.
//! - [`game`]: a game: history, repetition, the draw rules, Adiyukh's end and count.
//! - [`perft`]: perft and divide, serial and parallel.
//!
//! **Search**
//! - [`eval`]: the evaluation per variant; [`eval::weights`]: its weights;
//!   [`eval::patterns`]: the learned pattern weights (every variant).
//! - [`tt`]: the lock-free transposition table.
//! - [`search`]: limits and results, the score scale, repetitions, iterative
//!   deepening, PVS and quiescence, the lines along the tables, Lazy SMP.
//! - [`egdb`]: endgame tables for Russian and Brazilian: built, stored, probed.
//! - [`clock`]: time management: a move's budget, the overhead learned per move.
//!
//! **Protocol**
//! - [`options`]: the option table: names, kinds, ranges, defaults, the Hub
//!   and CheckerBoard names; every front end prints and reads options by it.
//! - [`protocol`]: the wire, for both sides: the Hub line, scores, `info`,
//!   `bestmove`/`done`, `go`/`level` limits, the protocol kind, engines as
//!   child processes.
//! - [`engine`]: the engine behind both protocols: game, options, search thread.
//! - [`serve`]: what both protocol servers share: input read in a thread of
//!   its own, output, and commands that wait for a running search.
//! - [`uci`]: the UCI-like protocol (PROTOCOL.md), the default on standard input.
//! - [`hub`]: Scan's Hub protocol.
//! - [`diagram`]: a position as a text diagram (the UCI-like `d` command,
//!   `shashki show`).
//!
//! **Tools** (above the engine: no module listed above imports them)
//! - [`tools`]: the match runner and its external engines, Elo, progress
//!   lines, openings, analysis, the SVG picture and the command lines'
//!   shared text; its docs list its modules.
//!
//! ```
//! use shashki::{perft, Position, Variant};
//! let pos = Position::start(Variant::Brazilian);
//! assert_eq!(perft::perft(&pos, 5), 7473);
//! ```

pub mod board;
pub mod book;
pub mod clock;
pub mod diagram;
pub mod egdb;
pub mod engine;
pub mod eval;
pub mod fen;
pub mod game;
pub mod hub;
pub mod input;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod options;
pub mod pdn;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod search;
pub mod serve;
pub mod tools;
pub mod tt;
pub mod uci;
pub mod variant;
mod zobrist;

pub use board::{Color, Square};
pub use moves::{Move, MoveList};
pub use position::{Piece, Position, Tower};
pub use variant::Variant;

#[cfg(test)]
mod tests {
    /// The modules `source` declares (`pub mod x;` and `mod x;` lines), each
    /// checked to be named in its `//!` docs (`[`x`]` for a public one,
    /// `` `x` `` for a private one); the number of them.
    fn check_docs_name_modules(file: &str, source: &str) -> usize {
        let docs: String = source
            .lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut modules = 0;
        for line in source.lines().filter(|l| l.ends_with(';')) {
            let name = match line.strip_prefix("pub mod") {
                Some(rest) => format!("[`{}`]", rest.trim().trim_end_matches(';')),
                None => match line.strip_prefix("mod ") {
                    Some(rest) => format!("`{}`", rest.trim().trim_end_matches(';')),
                    None => continue,
                },
            };
            modules += 1;
            assert!(
                docs.contains(&name),
                "the docs of {file} do not name {name}"
            );
        }
        assert!(!docs.contains("later"), "{docs}");
        modules
    }

    /// The crate documentation is a map of every module, and nothing in it
    /// is promised for later; the tools' modules are mapped in the docs of
    /// `tools/mod.rs`.
    #[test]
    fn crate_docs_map_every_module() {
        let modules = check_docs_name_modules("lib.rs", include_str!("lib.rs"));
        assert!(modules > 20, "{modules} modules found in lib.rs");
        let tools = check_docs_name_modules("tools/mod.rs", include_str!("tools/mod.rs"));
        assert!(tools >= 8, "{tools} modules found in tools/mod.rs");
    }
}

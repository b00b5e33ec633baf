//! The wire: the text both protocols put on the pipes, written and read in
//! one place, by the engine's two servers ([`uci`](crate::uci),
//! [`hub`](crate::hub)) and by the clients that drive an engine (the match runner's [`player`](crate::player), the
//! browser board). Nothing here runs a server or a process loop: this layer
//! sits below both sides and imports neither.
//!
//! - [`kind`]: [`Protocol`], which of the two an engine speaks (and the
//!   plain commands a client sends in each).
//! - [`hub`]: the Hub line: `command name=value ...` scanned and written,
//!   with its one quoting rule.
//! - [`score`]: a [`Score`](crate::search::Score) as text: UCI's `cp 12`,
//!   `win 3` (`Display`/`FromStr`) and Hub's men, `0.12`, `99.99` ([`Men`]).
//! - [`info`]: the `info` line of a search report: UCI's [`Info`] and Hub's
//!   [`HubInfo`], each written and read.
//! - [`reply`]: the line that ends a search: UCI's `bestmove`, Hub's `done`
//!   ([`BestMove`]).
//! - [`setup`]: the position a search starts from: UCI's `position`, Hub's
//!   `pos` ([`Setup`]).
//! - [`limits`]: the limits of a search on the wire: UCI's `go` ([`Go`]) and
//!   Hub's `level` ([`Level`]), written, read, and turned into the
//!   search's [`Limits`](crate::search::Limits).
//! - [`process`]: an engine as a child process: its command line, its
//!   process group, how it ended.

pub mod hub;
pub mod info;
pub mod kind;
pub mod limits;
pub mod process;
pub mod reply;
pub mod score;
pub mod setup;

pub use info::{HubInfo, Info};
pub use kind::Protocol;
pub use limits::{Go, Level};
pub use reply::BestMove;
pub use score::Men;
pub use setup::Setup;

/// The longest line either side reads, in bytes: the servers refuse a
/// longer one, the clients cut it.
pub const MAX_LINE: usize = 64 * 1024;

//! Scan's Hub protocol (version 2). Placeholder until the Hub front end lands.

use crate::uci::Out;
use std::io::BufRead;

/// The Hub front end.
pub struct Hub {
    out: Out,
}

impl Hub {
    pub fn new(out: Out) -> Hub {
        Hub { out }
    }

    /// Called after the `hub` command was read.
    pub fn run(&mut self, _input: &mut dyn BufRead) {
        self.out.line("error message=\"hub mode is not available yet\"");
    }
}

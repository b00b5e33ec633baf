//! The line that ends a search: UCI's `bestmove <move> [ponder <move>]`
//! (`bestmove (none)` without a legal move) and Hub's `done [move=<move>
//! [ponder=<move>]]`.

use super::hub::Line;

/// UCI's word for no move.
pub const NO_MOVE: &str = "(none)";

/// The move a search ends with and the reply it expects, as texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    pub mv: Option<String>,
    /// Only sent with a move.
    pub ponder: Option<String>,
}

impl BestMove {
    /// No move (the side to move has none, or the search failed).
    pub fn none() -> BestMove {
        BestMove::default()
    }

    /// The UCI line.
    pub fn uci_line(&self) -> String {
        match (&self.mv, &self.ponder) {
            (None, _) => format!("bestmove {NO_MOVE}"),
            (Some(m), None) => format!("bestmove {m}"),
            (Some(m), Some(p)) => format!("bestmove {m} ponder {p}"),
        }
    }

    /// The Hub line.
    pub fn hub_line(&self) -> Line {
        let mut l = Line::new("done");
        if let Some(m) = &self.mv {
            l = l.arg("move", m);
            if let Some(p) = &self.ponder {
                l = l.arg("ponder", p);
            }
        }
        l
    }

    /// Read a UCI `bestmove` line; `None` for another line or a `bestmove`
    /// without a move word (`(none)` is no move).
    pub fn parse_uci(line: &str) -> Option<BestMove> {
        let mut words = line.split_whitespace();
        if words.next() != Some("bestmove") {
            return None;
        }
        let mv = words.next()?;
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        Some(BestMove {
            mv: (mv != NO_MOVE).then(|| mv.to_string()),
            ponder,
        })
    }

    /// Read the arguments of a Hub `done` line (an empty value is none).
    pub fn from_hub(line: &Line) -> BestMove {
        let text = |name: &str| {
            line.get(name)
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(str::to_string)
        };
        BestMove {
            mv: text("move"),
            ponder: text("ponder"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_protocols_read_back() {
        let some = |m: &str| Some(m.to_string());
        for b in [
            BestMove::none(),
            BestMove {
                mv: some("c3-d4"),
                ponder: None,
            },
            BestMove {
                mv: some("c3:e5:g3"),
                ponder: some("f6-g5"),
            },
        ] {
            assert_eq!(BestMove::parse_uci(&b.uci_line()), Some(b.clone()));
            let hub = Line::parse(&b.hub_line().to_string()).unwrap().unwrap();
            assert_eq!(BestMove::from_hub(&hub), b);
        }
        assert_eq!(BestMove::none().uci_line(), "bestmove (none)");
        assert_eq!(BestMove::none().hub_line().to_string(), "done");
        let b = BestMove {
            mv: some("9-13"),
            ponder: some("22-18"),
        };
        assert_eq!(b.uci_line(), "bestmove 9-13 ponder 22-18");
        assert_eq!(b.hub_line().to_string(), "done move=9-13 ponder=22-18");
        assert_eq!(BestMove::parse_uci("bestmove"), None);
        assert_eq!(BestMove::parse_uci("info depth 1"), None);
        assert_eq!(
            BestMove::from_hub(&Line::read("done move=")),
            BestMove::none()
        );
    }
}

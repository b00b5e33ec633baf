//! The position a search starts from, as a client sends it: UCI's
//! `position startpos | fen <text> [moves <move> ...]` (read by the UCI
//! server) and Hub's `pos [pos=<text>] [moves="<move> ..."]`.

use super::hub::Line;

/// A start position (as text; `None`: the variant's start) and the moves
/// played from it (as texts).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    pub position: Option<String>,
    pub moves: Vec<String>,
}

impl Setup {
    /// The UCI `position` line.
    pub fn uci_line(&self) -> String {
        let mut s = match &self.position {
            None => "position startpos".to_string(),
            Some(text) => format!("position fen {text}"),
        };
        if !self.moves.is_empty() {
            s.push_str(" moves ");
            s.push_str(&self.moves.join(" "));
        }
        s
    }

    /// Read the arguments of UCI `position` (the words after it).
    pub fn parse_uci(args: &[&str]) -> Result<Setup, String> {
        let (setup, moves) = match args.iter().position(|&t| t == "moves") {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let position =
            match setup.split_first() {
                Some((&"startpos", [])) => None,
                Some((&"fen", text)) if !text.is_empty() => Some(text.join(" ")),
                Some((&"fen", _)) => return Err("position fen: missing position text".into()),
                _ => return Err(
                    "position: expected 'startpos' or 'fen <text>', then optionally 'moves ...'"
                        .into(),
                ),
            };
        Ok(Setup {
            position,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        })
    }

    /// The Hub `pos` line.
    pub fn hub_line(&self) -> Line {
        Line::new("pos")
            .arg_opt("pos", self.position.as_ref())
            .arg_opt(
                "moves",
                (!self.moves.is_empty()).then(|| self.moves.join(" ")),
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_read_back() {
        let words = |s: &str| {
            s.split_whitespace()
                .skip(1)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        for s in [
            Setup::default(),
            Setup {
                position: Some("W:Wa1,c3:Bb6,Kh8".into()),
                moves: vec![],
            },
            Setup {
                position: None,
                moves: vec!["c3-d4".into(), "f6-g5".into()],
            },
        ] {
            let text = s.uci_line();
            let args = words(&text);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            assert_eq!(Setup::parse_uci(&args), Ok(s));
        }
        let s = Setup {
            position: Some("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww".into()),
            moves: vec!["22-18".into()],
        };
        assert_eq!(
            s.uci_line(),
            "position fen Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves 22-18"
        );
        assert_eq!(
            s.hub_line().to_string(),
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=22-18"
        );
        assert_eq!(
            Setup::parse_uci(&["fen"]),
            Err("position fen: missing position text".to_string())
        );
        assert!(Setup::parse_uci(&["startpos", "x"]).is_err());
        assert!(Setup::parse_uci(&[]).is_err());
    }
}

//! Which protocol an engine speaks, and the plain commands a client sends
//! in it.

use super::hub::Line;

/// The UCI-like protocol (PROTOCOL.md) or Scan's Hub protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Hub,
}

impl Protocol {
    /// `uci` or `hub`.
    pub fn id(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Hub => "hub",
        }
    }

    /// The line that sets an option: `setoption name <name> value <value>`
    /// (UCI), `set-param name=<name> value=<value>` (Hub).
    pub fn set_option(self, name: &str, value: impl std::fmt::Display) -> String {
        match self {
            Protocol::Uci => format!("setoption name {name} value {value}"),
            Protocol::Hub => Line::new("set-param")
                .arg("name", name)
                .arg("value", value)
                .to_string(),
        }
    }

    /// The line that tells the engine a new game starts.
    pub fn new_game(self) -> &'static str {
        match self {
            Protocol::Uci => "ucinewgame",
            Protocol::Hub => "new-game",
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// `uci` or `hub`, in any case.
impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "hub" => Ok(Protocol::Hub),
            _ => Err(format!("unknown protocol '{s}' (expected uci or hub)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for p in [Protocol::Uci, Protocol::Hub] {
            assert_eq!(p.id().parse::<Protocol>(), Ok(p));
            assert_eq!(p.to_string().to_uppercase().parse::<Protocol>(), Ok(p));
        }
        assert_eq!(
            Protocol::Uci.set_option("Move Overhead", 10),
            "setoption name Move Overhead value 10"
        );
        assert_eq!(
            Protocol::Hub.set_option("egdb-path", "/a b"),
            "set-param name=egdb-path value=\"/a b\""
        );
        assert_eq!(Protocol::Hub.new_game(), "new-game");
        assert_eq!(
            "dxp".parse::<Protocol>(),
            Err("unknown protocol 'dxp' (expected uci or hub)".to_string())
        );
    }
}

//! Which protocol an engine speaks.

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
            "dxp".parse::<Protocol>(),
            Err("unknown protocol 'dxp' (expected uci or hub)".to_string())
        );
    }
}

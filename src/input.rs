//! What the front ends share when they read what a user typed: the ranges
//! of the numbers they accept (an option's are in its row of
//! [`crate::options`]' table), and how user text is quoted back in a
//! message.
//!
//! One rule for numbers, in both protocols and on the command line: a
//! number outside its range (a negative one included) is an error that
//! names the range. The one exception is the time left on the clock (UCI's
//! `go wtime`/`btime`, Hub's `level time`): a negative time counts as zero,
//! so a GUI whose clock flagged still gets a move.

/// A range of whole numbers, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub min: u64,
    pub max: u64,
}

impl Range {
    pub const fn new(min: u64, max: u64) -> Range {
        Range { min, max }
    }

    pub fn contains(self, n: u64) -> bool {
        (self.min..=self.max).contains(&n)
    }

    /// What the range asks for: `a whole number from 1 to 1000`.
    pub fn describe(self) -> String {
        format!("a whole number from {} to {}", self.min, self.max)
    }

    /// Read a whole number in the range (decimal digits only). The error is
    /// [`Range::describe`]; the caller adds what was read and what for.
    pub fn parse(self, text: &str) -> Result<u64, String> {
        let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u64>() {
            Ok(n) if digits && self.contains(n) => Ok(n),
            _ => Err(self.describe()),
        }
    }
}

/// Milliseconds in a year: the longest time accepted anywhere.
const YEAR_MS: u64 = 365 * 24 * 3600 * 1000;

/// Search depth in plies (`go depth`, Hub's `level depth`, `--depth`).
pub const DEPTH: Range = Range::new(1, 1_000);
/// Nodes of a search (`go nodes`, Hub's `level nodes`, `--nodes`).
pub const NODES: Range = Range::new(1, u64::MAX / 2);
/// A time in milliseconds: `movetime`, the clock and its increment.
pub const TIME_MS: Range = Range::new(0, YEAR_MS);
/// Moves to the next time control (`go movestogo`, Hub's `level moves`).
pub const MOVES_TO_GO: Range = Range::new(0, 10_000);

/// Longest piece of user text quoted in a message, in characters.
const QUOTE_CHARS: usize = 40;

/// User text quoted in a message: shortened to 40 characters (then `...`)
/// and [`escape`]d. Every front end quotes user text with this.
pub fn quote(s: &str) -> String {
    if s.chars().count() > QUOTE_CHARS {
        escape(&format!(
            "{}...",
            s.chars().take(QUOTE_CHARS).collect::<String>()
        ))
    } else {
        escape(s)
    }
}

/// Text safe to show on a terminal: every character that does not print as
/// itself (control characters such as ESC and BEL, other invisible or
/// combining characters) is written as Rust escapes it, `\u{1b}`, `\t`.
/// Printable text is unchanged, backslashes and quotes included, so escaping
/// twice changes nothing. Every error message a front end sends passes
/// through this.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let e = c.escape_debug();
        if e.len() == 1 || matches!(c, '\\' | '\'' | '"') {
            out.push(c);
        } else {
            out.extend(e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_whole_numbers_inside_only() {
        assert_eq!(DEPTH.parse("1"), Ok(1));
        assert_eq!(DEPTH.parse("1000"), Ok(1000));
        for bad in [
            "0",
            "1001",
            "-5",
            "+5",
            "5.0",
            "",
            " 5",
            "99999999999999999999",
        ] {
            assert_eq!(
                DEPTH.parse(bad),
                Err("a whole number from 1 to 1000".into()),
                "{bad:?}"
            );
        }
        assert_eq!(TIME_MS.parse("0"), Ok(0));
    }

    #[test]
    fn quoting_escapes_what_a_terminal_would_act_on() {
        assert_eq!(escape("foo\u{1b}[31mbar\u{7}"), "foo\\u{1b}[31mbar\\u{7}");
        assert_eq!(escape("a\tb\rc\u{0}"), "a\\tb\\rc\\0");
        assert_eq!(escape("c3-d4 'x' \"y\" \\ é ☃"), "c3-d4 'x' \"y\" \\ é ☃");
        assert_eq!(escape("\u{202e}"), "\\u{202e}");
        let once = escape("\u{1b}\u{9b}");
        assert_eq!(escape(&once), once);
        assert_eq!(quote(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
        assert_eq!(quote("\u{7}"), "\\u{7}");
    }
}

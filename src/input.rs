//! What the front ends share when they read what a user typed: how user
//! text is quoted back in a message.

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

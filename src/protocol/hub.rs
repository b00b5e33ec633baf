//! The Hub line (Scan's Hub protocol, version 2): `<command> <name>=<value>
//! <name>=<value> ...`, scanned and written by one set of rules.
//!
//! * A name or a bare value is a run of characters that are neither blank,
//!   control, `=` nor `"`.
//! * A value that is empty or holds any other character is written in
//!   double quotes; there is no escape, so a quoted value cannot hold `"`
//!   (the writer puts `'` for it, a space for a control character). Any
//!   value may be quoted.
//! * A flag is a name without `=value`.
//!
//! The engine's server reads its input strictly ([`Line::parse`]: a bad line
//! is an error naming the fault); a client reads what an engine says
//! leniently ([`Line::read`]: never an error).

use crate::input::quote;

/// One line: the command and its arguments in order (a flag has no value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// A line to write: the command, arguments to come.
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// With `name=value` added.
    pub fn arg(mut self, name: &str, value: impl ToString) -> Line {
        self.args.push((name.to_string(), Some(value.to_string())));
        self
    }

    /// With `name=value` added when there is a value.
    pub fn arg_opt(self, name: &str, value: Option<impl ToString>) -> Line {
        match value {
            Some(v) => self.arg(name, v),
            None => self,
        }
    }

    /// With the flag `name` added.
    pub fn flag(mut self, name: &str) -> Line {
        self.args.push((name.to_string(), None));
        self
    }

    /// The last argument called `name`: `None` when absent, `Some(None)`
    /// for a flag without value.
    pub fn arg_of(&self, name: &str) -> Option<Option<&str>> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_deref())
    }

    /// Whether an argument `name` is given (a flag or with a value).
    pub fn has(&self, name: &str) -> bool {
        self.arg_of(name).is_some()
    }

    /// The value of the last argument `name` (`None`: absent or a flag).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.arg_of(name).flatten()
    }

    /// The value of `name`, which must have one when present (the
    /// server's rule: `name` alone is an error).
    pub fn value(&self, name: &str) -> Result<Option<&str>, String> {
        match self.arg_of(name) {
            None => Ok(None),
            Some(Some(v)) => Ok(Some(v)),
            Some(None) => Err(format!(
                "{}: '{name}' needs a value ({name}=...)",
                self.command
            )),
        }
    }

    /// Read a line strictly, as the engine reads its input: `Ok(None)` for
    /// an empty line; a line that does not start with a command, a
    /// character where a name belongs, `name=` without a value or an
    /// unclosed quote is an error.
    pub fn parse(text: &str) -> Result<Option<Line>, String> {
        scan(text, true)
    }

    /// Read a line leniently, as a client reads what an engine says: never
    /// an error. An unclosed quote runs to the end of the line, `name=`
    /// without a value has an empty one, and a character that cannot start
    /// a name is skipped. An empty line has an empty command.
    pub fn read(text: &str) -> Line {
        scan(text, false).ok().flatten().unwrap_or_default()
    }
}

/// The line as sent: each value bare or quoted by [`value_text`].
impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.command)?;
        for (name, value) in &self.args {
            match value {
                Some(v) => write!(f, " {name}={}", value_text(v))?,
                None => write!(f, " {name}")?,
            }
        }
        Ok(())
    }
}

fn is_blank(c: char) -> bool {
    c.is_whitespace()
}

/// A character of a name or unquoted value.
fn is_id(c: char) -> bool {
    !c.is_control() && !is_blank(c) && c != '=' && c != '"'
}

/// Split a line into command and arguments. `Ok(None)` for an empty line;
/// errors only when `strict`.
fn scan(text: &str, strict: bool) -> Result<Option<Line>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    // Lenient: what cannot start a name counts as a blank.
    let skip_blanks = |i: &mut usize| {
        while *i < chars.len() && (is_blank(chars[*i]) || (!strict && !is_id(chars[*i]))) {
            *i += 1;
        }
    };
    let name = |i: &mut usize| -> String {
        let start = *i;
        while *i < chars.len() && is_id(chars[*i]) {
            *i += 1;
        }
        chars[start..*i].iter().collect()
    };
    skip_blanks(&mut i);
    if i == chars.len() {
        return Ok(None);
    }
    let command = name(&mut i);
    if command.is_empty() {
        return Err(format!(
            "bad syntax: a line starts with a command name, not '{}'",
            quote(&chars[i].to_string())
        ));
    }
    let mut args = Vec::new();
    loop {
        skip_blanks(&mut i);
        if i == chars.len() {
            break;
        }
        let column = i + 1;
        let key = name(&mut i);
        if key.is_empty() {
            return Err(format!(
                "bad syntax at column {column}: expected an argument name, found '{}'",
                quote(&chars[i].to_string())
            ));
        }
        while i < chars.len() && is_blank(chars[i]) {
            i += 1;
        }
        let mut value = None;
        if i < chars.len() && chars[i] == '=' {
            i += 1;
            while i < chars.len() && is_blank(chars[i]) {
                i += 1;
            }
            if i < chars.len() && chars[i] == '"' {
                i += 1;
                let start = i;
                while i < chars.len() && chars[i] != '"' {
                    i += 1;
                }
                if i == chars.len() && strict {
                    return Err(format!(
                        "bad syntax: the value of '{}' has no closing quote",
                        quote(&key)
                    ));
                }
                value = Some(chars[start..i].iter().collect());
                i = (i + 1).min(chars.len());
            } else {
                let v = name(&mut i);
                if v.is_empty() && strict {
                    return Err(format!(
                        "bad syntax: '{}=' has no value (write {}=\"\" for an empty one)",
                        quote(&key),
                        quote(&key)
                    ));
                }
                value = Some(v);
            }
        }
        args.push((key, value));
    }
    Ok(Some(Line { command, args }))
}

/// A value as written: bare when it is a plain name, else in double quotes
/// (see [`quoted`]). Engines and clients of Hub both write values so.
pub fn value_text(v: &str) -> String {
    if !v.is_empty() && v.chars().all(is_id) {
        v.to_string()
    } else {
        quoted(v)
    }
}

/// A value in double quotes, whatever it holds: a quote inside becomes an
/// apostrophe, a control character a space (the protocol has no escapes).
pub fn quoted(v: &str) -> String {
    let safe: String = v
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    format!("\"{safe}\"")
}

/// Milliseconds as Hub writes times: seconds with three decimals.
pub fn seconds_text(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lines_split_into_pairs() {
        let l = Line::parse(r#"pos pos=Wbbe moves="9-13 22-18"  start"#)
            .unwrap()
            .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.arg_of("pos"), Some(Some("Wbbe")));
        assert_eq!(l.arg_of("moves"), Some(Some("9-13 22-18")));
        assert_eq!(l.arg_of("start"), Some(None));
        assert_eq!(l.arg_of("nope"), None);
        assert!(l.has("start") && !l.has("nope"));
        assert_eq!(l.get("start"), None);
        assert!(l.value("start").is_err());
        assert_eq!(l.value("pos"), Ok(Some("Wbbe")));
        assert!(Line::parse("   ").unwrap().is_none());
        for bad in [
            "=x",
            "\"pos\"",
            "pos pos=\"abc",
            "pos pos=",
            "level =3",
            "go \"x\"",
        ] {
            assert!(Line::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn engine_lines_are_read_leniently() {
        let l = Line::read(
            r#"param name=variant value=russian type=enum values="russian brazilian" ponder"#,
        );
        assert_eq!(l.command, "param");
        assert_eq!(l.get("values"), Some("russian brazilian"));
        assert_eq!(l.get("type"), Some("enum"));
        assert!(l.args.iter().any(|(n, v)| n == "ponder" && v.is_none()));
        assert_eq!(Line::read("").command, "");
        assert_eq!(
            Line::read(r#"error message="unclosed"#).get("message"),
            Some("unclosed")
        );
        assert_eq!(Line::read("done move=").get("move"), Some(""));
        assert_eq!(Line::read("=x y").command, "x");
        for junk in ["", "id", "=", "x=\"", "\"", "a \"b\" =c"] {
            let _ = Line::read(junk);
        }
    }

    #[test]
    fn values_are_quoted_when_needed() {
        assert_eq!(value_text("abc"), "abc");
        assert_eq!(value_text(""), "\"\"");
        assert_eq!(value_text("a b"), "\"a b\"");
        assert_eq!(value_text("a\"b"), "\"a'b\"");
        assert_eq!(value_text("W:Wa1,c3-2/1:B"), "W:Wa1,c3-2/1:B");
        assert_eq!(value_text("say \"x\""), "\"say 'x'\"");
        assert_eq!(quoted("x"), "\"x\"");
        assert_eq!(seconds_text(84), "0.084");
        assert_eq!(seconds_text(61_500), "61.500");
        let l = Line::new("pos")
            .arg("pos", "Wbbe")
            .arg_opt("x", None::<u32>)
            .arg_opt("moves", Some("9-13 22-18"))
            .flag("start");
        assert_eq!(l.to_string(), r#"pos pos=Wbbe moves="9-13 22-18" start"#);
    }

    fn name() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9-]{0,8}"
    }

    proptest! {
        /// What is written reads back, strictly and leniently, for every
        /// value without a quote or control character.
        #[test]
        fn written_lines_read_back(
            command in name(),
            args in proptest::collection::vec(
                (name(), proptest::option::of("[ -!#-~é]{0,12}")),
                0..6,
            ),
        ) {
            let line = Line { command, args };
            let text = line.to_string();
            prop_assert_eq!(Line::parse(&text).unwrap(), Some(line.clone()));
            prop_assert_eq!(Line::read(&text), line);
        }

        /// No text makes either reader panic.
        #[test]
        fn any_text_is_read(text in "\\PC{0,40}") {
            let _ = Line::parse(&text);
            let _ = Line::read(&text);
        }
    }
}

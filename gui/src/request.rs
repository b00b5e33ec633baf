//! Request bodies: a JSON object (an empty body counts as `{}`) whose
//! fields are read one by one. A bad body gets one line in the engine's
//! style, naming the field, what it needs and what it got:
//! `"depth" needs a whole number from 1 to 1000, not 99999`. A field given
//! as `null` counts as not given; a field the route does not take is
//! refused, with the ones it takes.

use serde_json::{Map, Value};
use shashki::input::{self, Range};

/// The fields of a request body.
pub struct Fields {
    map: Map<String, Value>,
}

/// A whole number in `range`, said as the engine says it (a range without
/// a top: `a whole number, 1 or more`).
pub fn describe(range: Range) -> String {
    if range.max == u64::MAX {
        format!("a whole number, {} or more", range.min)
    } else {
        range.describe()
    }
}

/// What a value was, for `not <this>`: a number or `true` as written, text
/// in quotes (shortened and escaped as every front end quotes user text).
pub fn shown(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("\"{}\"", input::quote(s)),
        Value::Array(a) if a.is_empty() => "an empty list".into(),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

impl Fields {
    /// Read `bytes` as a JSON object with fields among `takes` only.
    pub fn parse(bytes: &[u8], takes: &[&str]) -> Result<Fields, String> {
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            bytes
        };
        let value: Value = serde_json::from_slice(bytes)
            .map_err(|e| format!("the request body is not JSON: {e}"))?;
        let Value::Object(map) = value else {
            return Err(format!(
                "the request body needs a JSON object, not {}",
                shown(&value)
            ));
        };
        if let Some(name) = map.keys().find(|k| !takes.contains(&k.as_str())) {
            let takes = if takes.is_empty() {
                "no fields".to_string()
            } else {
                takes
                    .iter()
                    .map(|t| format!("\"{t}\""))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Err(format!(
                "unknown field \"{}\" (this request takes {takes})",
                input::quote(name)
            ));
        }
        Ok(Fields { map })
    }

    /// The field's value; `null` counts as not given.
    fn get(&self, name: &str) -> Option<&Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    fn wrong(name: &str, needs: &str, v: &Value) -> String {
        format!("\"{name}\" needs {needs}, not {}", shown(v))
    }

    /// A text field.
    pub fn text(&self, name: &str) -> Result<Option<String>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(Fields::wrong(name, "text", v)),
        }
    }

    /// One of some names (`needs` lists them), read by `parse`.
    pub fn name<T>(
        &self,
        name: &str,
        needs: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Result<Option<T>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => match v.as_str().and_then(&parse) {
                Some(t) => Ok(Some(t)),
                None => Err(Fields::wrong(name, needs, v)),
            },
        }
    }

    /// A whole number in `range`.
    pub fn whole(&self, name: &str, range: Range) -> Result<Option<u64>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(v) => match v.as_u64() {
                Some(n) if range.contains(n) => Ok(Some(n)),
                _ => Err(Fields::wrong(name, &describe(range), v)),
            },
        }
    }

    /// `true` or `false`.
    pub fn flag(&self, name: &str) -> Result<Option<bool>, String> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(Fields::wrong(name, "true or false", v)),
        }
    }

    /// A list of texts (`what` says what they are: `squares such as "c3"`).
    pub fn texts(&self, name: &str, what: &str) -> Result<Option<Vec<String>>, String> {
        let needs = format!("a list of {what}");
        match self.get(name) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    v => Err(format!(
                        "\"{name}\" needs {needs}, not {} as item {}",
                        shown(v),
                        i + 1
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => Err(Fields::wrong(name, &needs, v)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_or_refused_in_one_line() {
        let f = Fields::parse(
            br#"{"a": 5, "b": "x", "c": null, "d": [1]}"#,
            &["a", "b", "c", "d"],
        )
        .unwrap();
        assert_eq!(f.whole("a", Range::new(1, 9)), Ok(Some(5)));
        assert_eq!(f.whole("c", Range::new(1, 9)), Ok(None));
        assert_eq!(
            f.whole("b", Range::new(1, 9)),
            Err("\"b\" needs a whole number from 1 to 9, not \"x\"".into())
        );
        assert_eq!(
            f.whole("a", Range::new(6, u64::MAX)),
            Err("\"a\" needs a whole number, 6 or more, not 5".into())
        );
        assert_eq!(
            f.texts("d", "squares"),
            Err("\"d\" needs a list of squares, not 1 as item 1".into())
        );
        assert_eq!(f.flag("a"), Err("\"a\" needs true or false, not 5".into()));
        assert!(Fields::parse(b"  ", &[]).is_ok());
        assert_eq!(
            Fields::parse(b"[]", &[]).err().unwrap(),
            "the request body needs a JSON object, not an empty list"
        );
        assert_eq!(
            Fields::parse(br#"{"e": 1}"#, &["a"]).err().unwrap(),
            "unknown field \"e\" (this request takes \"a\")"
        );
    }
}

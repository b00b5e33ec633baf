//! The data file: labelled positions of one variant.
//!
//! ```text
//! # any comment
//! variant russian
//! 1 W:Wa1,c1,...:Bb6,...
//! 0.5 B:W...:B...
//! ```
//!
//! One `<label> <position text>` line per position. The label is the game's
//! result from White's point of view: 1, 0.5 or 0 for Russian and Brazilian,
//! the final count difference (White minus Black, in checkers) for Adiyukh.
//! A file made by `shashki-tune rescore` ([`crate::rescore`]) has a second
//! number, a search's score of the position (White's side, the
//! evaluation's unit): `<label> <score> <position text>`.

use shashki::fen::parse_position;
use shashki::{Position, Variant};
use std::collections::HashSet;

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub label: f64,
    /// A search's score from White's side, when the file has one.
    pub score: Option<f64>,
    pub pos: Position,
    /// The line as written (`<label> [<score>] <position text>`).
    pub line: String,
}

/// The positions of one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct DataSet {
    pub variant: Variant,
    pub samples: Vec<Sample>,
}

impl DataSet {
    pub fn new(variant: Variant) -> DataSet {
        DataSet {
            variant,
            samples: Vec::new(),
        }
    }

    /// Add a line unless the same line is already present.
    pub fn push_line(&mut self, seen: &mut HashSet<String>, sample: Sample) {
        if seen.insert(sample.line.clone()) {
            self.samples.push(sample);
        }
    }

    /// The file text.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for c in comment.lines() {
            out.push_str(&format!("# {c}\n"));
        }
        out.push_str(&format!("variant {}\n", self.variant.id()));
        for s in &self.samples {
            out.push_str(&s.line);
            out.push('\n');
        }
        out
    }

    /// Read a data file; errors name the line.
    pub fn parse(text: &str) -> Result<DataSet, String> {
        let mut set: Option<DataSet> = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let err = |msg: String| format!("data line {}: {msg}", i + 1);
            let (first, rest) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| err(format!("expected '<label> <position>', found '{line}'")))?;
            let rest = rest.trim();
            if first == "variant" {
                if set.is_some() {
                    return Err(err("a second 'variant' line".into()));
                }
                let v = rest.parse::<Variant>().map_err(|e| err(e.to_string()))?;
                set = Some(DataSet::new(v));
                continue;
            }
            let set = set
                .as_mut()
                .ok_or_else(|| err("positions before the 'variant <id>' line".into()))?;
            let label: f64 = first
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| err(format!("'{first}' is not a number")))?;
            let (score, text) = split_score(rest).map_err(err)?;
            let pos = parse_position(set.variant, text).map_err(|e| err(e.to_string()))?;
            set.samples.push(Sample {
                label,
                score,
                pos,
                line: format!("{first} {rest}"),
            });
        }
        set.ok_or_else(|| "data file has no 'variant <id>' line".to_string())
    }

    /// Concatenate data sets of one variant in order, dropping repeated
    /// lines (the first is kept).
    pub fn merge(sets: Vec<DataSet>) -> Result<DataSet, String> {
        let mut it = sets.into_iter();
        let mut out = it.next().ok_or("nothing to merge")?;
        let mut seen: HashSet<String> = HashSet::new();
        let first = std::mem::take(&mut out.samples);
        for s in first {
            out.push_line(&mut seen, s);
        }
        for set in it {
            if set.variant != out.variant {
                return Err(format!(
                    "cannot merge {} data with {} data",
                    set.variant, out.variant
                ));
            }
            for s in set.samples {
                out.push_line(&mut seen, s);
            }
        }
        Ok(out)
    }
}

/// The optional search score at the start of `rest` (what follows the
/// label) and the position text after it. A position text starts with a
/// letter (`W`, `B` or a keyword), so a leading number or sign is a score.
pub fn split_score(rest: &str) -> Result<(Option<f64>, &str), String> {
    let rest = rest.trim();
    if !rest.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') {
        return Ok((None, rest));
    }
    let (first, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let score = first
        .parse()
        .ok()
        .filter(|x: &f64| x.is_finite())
        .ok_or_else(|| format!("score '{first}' is not a number"))?;
    Ok((Some(score), text.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trip_and_errors() {
        let text = "# c\nvariant russian\n1 startpos\n0.5 W:Wc3:Bf6\n";
        let d = DataSet::parse(text).unwrap();
        assert_eq!(d.samples.len(), 2);
        assert_eq!(d.samples[1].label, 0.5);
        assert_eq!(d.samples[1].score, None);
        assert_eq!(DataSet::parse(&d.to_text("x")).unwrap(), d);
        let scored = DataSet::parse("variant russian\n1 -35 startpos\n0 +7 W:Wc3:Bf6\n").unwrap();
        assert_eq!(scored.samples[0].score, Some(-35.0));
        assert_eq!(scored.samples[1].score, Some(7.0));
        assert_eq!(scored.samples[1].pos, d.samples[1].pos);
        for (bad, want) in [
            ("1 startpos\n", "line 1: positions before"),
            (
                "variant russian\nx startpos\n",
                "line 2: 'x' is not a number",
            ),
            (
                "variant russian\nnan startpos\n",
                "line 2: 'nan' is not a number",
            ),
            ("variant russian\n1 W:Wz9\n", "line 2:"),
            (
                "variant russian\n1 12x W:Wc3:Bf6\n",
                "line 2: score '12x' is not a number",
            ),
            ("variant russian\n1 12\n", "line 2:"),
            ("variant chess\n", "line 1:"),
            ("", "no 'variant"),
        ] {
            let e = DataSet::parse(bad).unwrap_err();
            assert!(e.contains(want), "{bad:?}: {e}");
        }
    }

    #[test]
    fn merge_dedups_and_checks_the_variant() {
        let a = DataSet::parse("variant russian\n1 startpos\n0 W:Wc3:Bf6\n").unwrap();
        let b = DataSet::parse("variant russian\n0 W:Wc3:Bf6\n1 W:Wc3:Bd6\n").unwrap();
        let m = DataSet::merge(vec![a.clone(), b]).unwrap();
        assert_eq!(m.samples.len(), 3);
        let c = DataSet::parse("variant brazilian\n1 startpos\n").unwrap();
        assert!(DataSet::merge(vec![a, c])
            .unwrap_err()
            .contains("cannot merge"));
    }
}

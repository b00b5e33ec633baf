//! A search's [`Score`] as the protocols write it.
//!
//! * UCI (`Display`, `FromStr`): `cp <n>` in centi-men (Adiyukh:
//!   hundredths of a point of the expected final count difference), `win
//!   <n>` and `loss <n>` in moves of the side to move.
//! * Hub ([`Men`]): men with two decimals, as Scan writes them (`0.12`,
//!   `-1.05`); a win in `p` plies is `(10000 - p) / 100` (`99.99`: a win
//!   next move), a loss the negative. Past 90 men a value reads as a win or
//!   loss, so a win in more than 999 plies does not read back.

use crate::search::Score;

/// A UCI score from its two words, `cp 12`, `win 3`, `loss 3`.
pub(crate) fn from_words(kind: &str, value: &str) -> Option<Score> {
    match kind {
        "cp" => value.parse().ok().map(Score::Cp),
        "win" => value.parse().ok().map(Score::Win),
        "loss" => value.parse().ok().map(Score::Loss),
        _ => None,
    }
}

/// `cp 12`, `win 3`, `loss 3`.
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// Read `cp 12`, `win 3` or `loss 3`.
impl std::str::FromStr for Score {
    type Err = String;
    fn from_str(s: &str) -> Result<Score, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            [kind, value] => from_words(kind, value),
            _ => None,
        }
        .ok_or_else(|| {
            format!(
                "'{}' is not a score (expected cp <n>, win <n> or loss <n>)",
                crate::input::quote(s)
            )
        })
    }
}

/// Men above which (in hundredths) a Hub score is a win or loss.
const DECISIVE: i64 = 9_000;

/// A score in men, as Hub writes it (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Men(pub Score);

impl std::fmt::Display for Men {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hundredths = match self.0 {
            Score::Cp(c) => c as i64,
            Score::Win(n) => 10_000 - (2 * n as i64 - 1).clamp(1, 9_999),
            Score::Loss(n) => -(10_000 - (2 * n as i64).clamp(1, 9_999)),
        };
        let sign = if hundredths < 0 { "-" } else { "" };
        let a = hundredths.unsigned_abs();
        write!(f, "{sign}{}.{:02}", a / 100, a % 100)
    }
}

/// Read men (any real number); past 90 men, a win or a loss.
impl std::str::FromStr for Men {
    type Err = String;
    fn from_str(text: &str) -> Result<Men, String> {
        let bad = || format!("'{}' is not a score in men", crate::input::quote(text));
        let men: f64 = text.trim().parse().map_err(|_| bad())?;
        if !men.is_finite() {
            return Err(bad());
        }
        let h = (men * 100.0).round().clamp(-1e7, 1e7) as i64;
        if h.abs() > DECISIVE {
            let plies = (10_000 - h.abs()).max(1) as u32;
            return Ok(Men(if h > 0 {
                Score::Win(plies.div_ceil(2))
            } else {
                Score::Loss((plies / 2).max(1))
            }));
        }
        Ok(Men(Score::Cp(h as i32)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn uci_words() {
        assert_eq!(Score::Cp(-35).to_string(), "cp -35");
        assert_eq!(Score::Win(5).to_string(), "win 5");
        assert_eq!(Score::Loss(2).to_string(), "loss 2");
        assert_eq!("cp 12".parse(), Ok(Score::Cp(12)));
        assert_eq!(" win  3 ".parse(), Ok(Score::Win(3)));
        for bad in ["", "cp", "cp x", "win -3", "mate 3", "cp 1 2"] {
            assert!(bad.parse::<Score>().is_err(), "{bad}");
        }
    }

    #[test]
    fn scores_in_men() {
        let men = |s| Men(s).to_string();
        assert_eq!(men(Score::Cp(12)), "0.12");
        assert_eq!(men(Score::Cp(-105)), "-1.05");
        assert_eq!(men(Score::Cp(0)), "0.00");
        assert_eq!(men(Score::Win(1)), "99.99");
        assert_eq!(men(Score::Loss(1)), "-99.98");
        assert_eq!(men(Score::Win(3)), "99.95");
        let read = |t: &str| t.parse::<Men>().map(|m| m.0);
        assert_eq!(read("0.12"), Ok(Score::Cp(12)));
        assert_eq!(read("-1.05"), Ok(Score::Cp(-105)));
        assert_eq!(read("99.99"), Ok(Score::Win(1)));
        assert_eq!(read("99.97"), Ok(Score::Win(2)));
        assert_eq!(read("-99.98"), Ok(Score::Loss(1)));
        assert_eq!(read("-99.96"), Ok(Score::Loss(2)));
        assert!(read("x").is_err());
        assert!(read("NaN").is_err());
    }

    proptest! {
        #[test]
        fn uci_scores_read_back(s in prop_oneof![
            any::<i32>().prop_map(Score::Cp),
            any::<u32>().prop_map(Score::Win),
            any::<u32>().prop_map(Score::Loss),
        ]) {
            prop_assert_eq!(s.to_string().parse::<Score>(), Ok(s));
        }

        #[test]
        fn men_read_back(s in prop_oneof![
            (-9_000..=9_000i32).prop_map(Score::Cp),
            (1..=500u32).prop_map(Score::Win),
            (1..=499u32).prop_map(Score::Loss),
        ]) {
            prop_assert_eq!(Men(s).to_string().parse::<Men>(), Ok(Men(s)));
        }
    }
}

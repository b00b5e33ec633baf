//! Match statistics: the score of a series of games, the Elo difference it
//! implies with a 95% interval, and a sequential probability ratio test
//! (SPRT) that says when a match has decided between two Elo hypotheses.
//!
//! Games are counted as wins, draws and losses of the first engine; the
//! score of a game is 1, 1/2 or 0. The Elo difference of a mean score `s`
//! is `-400 log10(1/s - 1)` (the logistic model). The interval comes from
//! the normal approximation of the mean score with the games' own variance,
//! mapped through the same curve.
//!
//! ```
//! use shashki::tools::elo::Tally;
//! let t = Tally { wins: 60, draws: 20, losses: 20 };
//! assert!((t.score() - 0.7).abs() < 1e-12);
//! let e = t.elo().unwrap();
//! assert!((e.elo - 147.2).abs() < 0.1);
//! assert!(e.low < e.elo && e.elo < e.high);
//! ```

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub elo: f64,
    pub low: f64,
    pub high: f64,
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959964;

/// The Elo difference of a mean score (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Add one game's result: 1.0, 0.5 or 0.0 for the first engine.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Points of the first engine (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score of the first engine (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    /// Variance of one game's score around the mean.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference and its 95% interval; `None` without games.
    /// A score of 0 or 1 gives an infinite estimate.
    pub fn elo(&self) -> Option<Elo> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let margin = Z95 * (self.variance() / n as f64).sqrt();
        Some(Elo {
            elo: elo_of_score(s),
            low: elo_of_score(s - margin),
            high: elo_of_score(s + margin),
        })
    }

    /// The log-likelihood ratio of `elo1` against `elo0` for these games,
    /// in the normal (trinomial) approximation: positive values favour
    /// `elo1`.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        let var = self.variance();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }
}

/// The fewest complete opening pairs [`paired_elo`] gives an interval
/// for. With fewer, the pairs' own spread says little: two or three pairs
/// that each split 1-1 have none at all, and the interval would be a
/// zero-width `[+0.0, +0.0]`.
pub const MIN_PAIRS: usize = 10;

/// The Elo difference from colour-reversed pairs of games (the
/// pentanomial model): each sample is the mean score of one pair, so the
/// share of the result that the opening decides is not counted as luck.
/// `None` with fewer than [`MIN_PAIRS`] pairs.
///
/// ```
/// use shashki::tools::elo::paired_elo;
/// let pairs = [1.0, 0.5, 0.75, 0.5, 0.75, 0.5, 1.0, 0.5, 0.75, 0.5];
/// let e = paired_elo(&pairs).unwrap();
/// // Mean 0.675: -400 log10(1 / 0.675 - 1) = 127.0.
/// assert!((e.elo - 127.0).abs() < 0.1);
/// assert!(e.low < e.elo && e.elo < e.high);
/// assert_eq!(paired_elo(&pairs[..9]), None);
/// ```
pub fn paired_elo(pair_scores: &[f64]) -> Option<Elo> {
    if pair_scores.len() < MIN_PAIRS {
        return None;
    }
    let (mean, margin) = mean_and_margin(pair_scores)?;
    Some(Elo {
        elo: elo_of_score(mean),
        low: elo_of_score(mean - margin),
        high: elo_of_score(mean + margin),
    })
}

/// The mean of independent samples (pair scores, points per pair) and the
/// half-width of its 95% interval, from the normal approximation with the
/// samples' own variance (divided by n - 1); `None` without samples, an
/// infinite half-width with one.
///
/// ```
/// use shashki::tools::elo::mean_and_margin;
/// let (mean, margin) = mean_and_margin(&[0.75, 0.25]).unwrap();
/// // Variance 0.125, so 1.96 * sqrt(0.125 / 2) = 0.49.
/// assert_eq!(mean, 0.5);
/// assert!((margin - 0.49).abs() < 1e-4);
/// assert_eq!(mean_and_margin(&[1.0]), Some((1.0, f64::INFINITY)));
/// assert_eq!(mean_and_margin(&[]), None);
/// ```
pub fn mean_and_margin(samples: &[f64]) -> Option<(f64, f64)> {
    if samples.is_empty() {
        return None;
    }
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return Some((mean, f64::INFINITY));
    }
    let var = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    Some((mean, Z95 * (var / n).sqrt()))
}

/// A sequential probability ratio test of H0: Elo = `elo0` against
/// H1: Elo = `elo1` with error rates `alpha` (accepting H1 when H0 holds)
/// and `beta` (accepting H0 when H1 holds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// H1 accepted: the first engine is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: the first engine is at most `elo0` stronger.
    AcceptH0,
    /// Not decided yet.
    Continue,
}

impl Sprt {
    /// Read `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad = || {
            format!("--sprt: expected 'elo0,elo1,alpha,beta' (e.g. 0,10,0.05,0.05), found '{text}'")
        };
        if parts.len() != 4 {
            return Err(bad());
        }
        let nums: Vec<f64> = parts
            .iter()
            .map(|p| p.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(bad)?;
        let s = Sprt {
            elo0: nums[0],
            elo1: nums[1],
            alpha: nums[2],
            beta: nums[3],
        };
        if s.elo1 <= s.elo0 {
            return Err(format!(
                "--sprt: elo1 ({}) must be above elo0 ({})",
                s.elo1, s.elo0
            ));
        }
        for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {name} ({p}) must be between 0 and 0.5"));
            }
        }
        Ok(s)
    }

    /// The lower and upper bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The decision for a tally.
    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = t.llr(self.elo0, self.elo1);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtState::AcceptH1
        } else if llr <= low {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo_with_symmetric_interval() {
        let t = Tally {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let e = t.elo().unwrap();
        assert!(e.elo.abs() < 1e-9);
        assert!((e.low + e.high).abs() < 1e-9);
        // 60% of the games are decisive, each 0.5 from the mean.
        let m = 1.959964 * (0.6f64 * 0.25).sqrt() / 10.0;
        assert!((e.high - elo_of_score(0.5 + m)).abs() < 1e-9);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -100.0, 0.0, 35.5, 200.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn sprt_decides_clear_cases_and_waits_on_even_ones() {
        let s = Sprt::parse("0,20,0.05,0.05").unwrap();
        let (lo, hi) = s.bounds();
        assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((lo + hi).abs() < 1e-12);
        let strong = Tally {
            wins: 300,
            draws: 100,
            losses: 100,
        };
        assert_eq!(s.state(&strong), SprtState::AcceptH1);
        let weak = Tally {
            wins: 100,
            draws: 100,
            losses: 300,
        };
        assert_eq!(s.state(&weak), SprtState::AcceptH0);
        let few = Tally {
            wins: 3,
            draws: 2,
            losses: 2,
        };
        assert_eq!(s.state(&few), SprtState::Continue);
    }

    #[test]
    fn pairs_that_split_evenly_are_zero_elo_and_narrower_than_games() {
        // Every pair split (a win each) or drawn twice: the openings decide, the
        // engines are even; the pentanomial interval sees no spread at all.
        let pairs = [0.5; 20];
        let e = paired_elo(&pairs).unwrap();
        assert!(e.elo.abs() < 1e-9 && e.low.abs() < 1e-9 && e.high.abs() < 1e-9);
        let games = Tally {
            wins: 10,
            draws: 20,
            losses: 10,
        };
        assert!(games.elo().unwrap().high > 10.0);
        assert_eq!(paired_elo(&[1.0]), None);
    }

    #[test]
    fn sprt_text_errors_name_the_problem() {
        assert!(Sprt::parse("0,10,0.05").unwrap_err().contains("expected"));
        assert!(Sprt::parse("10,0,0.05,0.05")
            .unwrap_err()
            .contains("must be above"));
        assert!(Sprt::parse("0,10,0.7,0.05").unwrap_err().contains("alpha"));
        assert!(Sprt::parse("0,x,0.05,0.05")
            .unwrap_err()
            .contains("found '0,x"));
    }
}

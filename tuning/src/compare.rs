//! Tuned against baseline weights: paired games at equal depth.
//!
//! Pair `i` starts from a random opening (from the seed and `i`); the tuned
//! weights play it once as White and once as Black. The score and Elo come
//! with a 95% interval from the pentanomial model: the pair scores
//! (0, 1/4, 1/2, 3/4, 1 per game) are the independent samples, which
//! accounts for the opening's share of the result. The statistics are the
//! match runner's ([`shashki::tools::elo`]), with an interval from one pair
//! on.

use crate::play::{game_rng, play_out, random_opening};
use indicatif::{ProgressBar, ProgressStyle};
use rand::Rng;
use rayon::prelude::*;
use shashki::eval::weights::Weights;
use shashki::tools::elo::{elo_of_score, mean_and_margin, Tally};
use shashki::Variant;

/// What to play.
#[derive(Clone, Debug)]
pub struct CompareConfig {
    pub variant: Variant,
    pub pairs: u64,
    pub depth: u32,
    pub seed: u64,
    pub opening_plies: (usize, usize),
    pub max_plies: usize,
    pub progress: bool,
}

/// One game from the tuned side's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScore {
    /// 1, 0.5 or 0.
    pub score: f64,
    /// Adiyukh: the final count, tuned minus baseline.
    pub points: Option<f64>,
}

/// The match.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub games: Vec<GameScore>,
}

/// Elo of a score share, kept finite (about +-2400 at a score of 1 or 0).
pub fn elo(score: f64) -> f64 {
    elo_of_score(score.clamp(1e-6, 1.0 - 1e-6))
}

impl Report {
    /// Wins, draws and losses of the tuned side.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for g in &self.games {
            t.add(g.score);
        }
        t
    }

    /// Mean score and the half-width of its 95% interval (pentanomial: by
    /// pairs of games).
    pub fn score(&self) -> (f64, f64) {
        mean_ci(
            self.games
                .chunks(2)
                .map(|p| p.iter().map(|g| g.score).sum::<f64>() / p.len() as f64),
        )
    }

    /// Adiyukh: mean points per game (tuned minus baseline) and the
    /// half-width of its 95% interval (by pairs).
    pub fn points(&self) -> Option<(f64, f64)> {
        let per_pair: Option<Vec<f64>> = self
            .games
            .chunks(2)
            .map(|p| {
                p.iter()
                    .map(|g| g.points)
                    .sum::<Option<f64>>()
                    .map(|s| s / p.len() as f64)
            })
            .collect();
        per_pair.map(|v| mean_ci(v.into_iter()))
    }

    /// Elo and its 95% interval.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (m, h) = self.score();
        (elo(m), elo(m - h), elo(m + h))
    }

    /// A summary line.
    pub fn summary(&self) -> String {
        let (m, h) = self.score();
        let (e, lo, hi) = self.elo();
        let t = self.tally();
        let mut s = format!(
            "{} games: tuned +{} ={} -{}, score {:.1}% ± {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}] (95%, pentanomial)",
            self.games.len(),
            t.wins,
            t.draws,
            t.losses,
            100.0 * m,
            100.0 * h,
            e,
            lo,
            hi
        );
        if let Some((p, ph)) = self.points() {
            s.push_str(&format!(
                ", points per game {p:+.2} ± {ph:.2} (tuned minus baseline)"
            ));
        }
        s
    }
}

/// The mean and the half-width of its 95% interval ([`mean_and_margin`]);
/// (0.5, 0.5) without games.
fn mean_ci(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    mean_and_margin(&xs.collect::<Vec<f64>>()).unwrap_or((0.5, 0.5))
}

/// Play the match (pairs in parallel on the current rayon pool).
pub fn compare(cfg: &CompareConfig, tuned: &Weights, baseline: &Weights) -> Report {
    let bar = if cfg.progress {
        let b = ProgressBar::new(cfg.pairs * 2);
        b.set_style(
            ProgressStyle::with_template("{msg} [{elapsed_precise}] {bar:40} {pos}/{len} games")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_message(format!("compare {}", cfg.variant));
        b
    } else {
        ProgressBar::hidden()
    };
    let games: Vec<GameScore> = (0..cfg.pairs)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut rng = game_rng(cfg.seed, i);
            let (lo, hi) = cfg.opening_plies;
            let plies = rng.gen_range(lo.min(hi)..=hi.max(lo));
            let opening = random_opening(cfg.variant, plies, &mut rng);
            let mut out = Vec::with_capacity(2);
            for tuned_white in [true, false] {
                let mut game = opening.clone();
                let (w, b) = if tuned_white {
                    (tuned, baseline)
                } else {
                    (baseline, tuned)
                };
                let end = play_out(
                    &mut game,
                    cfg.depth,
                    cfg.max_plies,
                    Some(w),
                    Some(b),
                    &mut |_, _| {},
                );
                let sign = if tuned_white { 1.0 } else { -1.0 };
                out.push(GameScore {
                    score: if tuned_white {
                        end.score
                    } else {
                        1.0 - end.score
                    },
                    points: end.count_diff.map(|d| sign * d),
                });
                bar.inc(1);
            }
            out
        })
        .collect();
    bar.finish_and_clear();
    Report { games }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let g = |score, points| GameScore { score, points };
        let r = Report {
            games: vec![g(1.0, None), g(0.5, None), g(0.5, None), g(0.0, None)],
        };
        let t = r.tally();
        assert_eq!((t.wins, t.draws, t.losses), (1, 2, 1));
        let (m, h) = r.score();
        assert!((m - 0.5).abs() < 1e-12 && h > 0.0);
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        let (e, lo, hi) = r.elo();
        assert!(lo < e && e < hi);
        assert!(r
            .summary()
            .starts_with("4 games: tuned +1 =2 -1, score 50.0%"));
        let a = Report {
            games: vec![g(1.0, Some(4.0)), g(0.5, Some(0.0))],
        };
        assert_eq!(a.points().map(|p| p.0), Some(2.0));
    }

    #[test]
    fn equal_weights_are_an_even_match() {
        let v = Variant::Adiyukh64;
        let w = Weights::for_variant(v);
        let cfg = CompareConfig {
            variant: v,
            pairs: 3,
            depth: 2,
            seed: 1,
            opening_plies: (2, 4),
            max_plies: 80,
            progress: false,
        };
        let r = compare(&cfg, w, w);
        assert_eq!(r.games.len(), 6);
        // Against itself each game's points are colour-determined: the
        // pair (tuned White, tuned Black) sums to zero.
        for p in r.games.chunks(2) {
            assert_eq!(p[0].points.unwrap() + p[1].points.unwrap(), 0.0);
            assert_eq!(p[0].score + p[1].score, 1.0);
        }
        assert_eq!(compare(&cfg, w, w), r, "reproducible");
    }
}

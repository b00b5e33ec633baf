//! The self-play data generator.
//!
//! Game `i` of seed `s` is a function of `(s, i)` alone: its random opening
//! comes from [`crate::play::game_rng`] and the fixed-depth single-threaded
//! search is deterministic. So games `0..N` can be played as shards
//! (`--first 0 --games 1000`, `--first 1000 --games 1000`, ...) on any
//! number of machines, and `merge` of the shards in order gives the same
//! file as one run.

use crate::data::{DataSet, Sample};
use crate::play::{game_rng, is_quiet, play_out, random_opening};
use indicatif::{ProgressBar, ProgressStyle};
use rand::Rng;
use rayon::prelude::*;
use shashki::eval::weights::Weights;
use shashki::fen::position_text;
use shashki::Variant;
use std::collections::HashSet;

/// What to play.
#[derive(Clone, Debug)]
pub struct GenConfig {
    pub variant: Variant,
    pub seed: u64,
    /// The first game index (shards start at different indices).
    pub first: u64,
    pub games: u64,
    /// Search depth per move.
    pub depth: u32,
    /// Random opening plies, drawn uniformly from this range (inclusive).
    pub opening_plies: (usize, usize),
    /// Positions of plies below this are not recorded.
    pub skip_plies: usize,
    /// The game is adjudicated at this many plies.
    pub max_plies: usize,
    /// Draw a progress bar on standard error.
    pub progress: bool,
    /// Both sides search with these weights (`None`: the built-in ones
    /// without pattern weights, so that the data of a seed stays the same
    /// when patterns are fitted and built in).
    pub weights: Option<Weights>,
}

impl GenConfig {
    /// Defaults for `variant`: depth 4, 4-8 random plies, positions from
    /// ply 10, 300 plies at most.
    pub fn new(variant: Variant, seed: u64, games: u64) -> GenConfig {
        GenConfig {
            variant,
            seed,
            first: 0,
            games,
            depth: 4,
            opening_plies: (4, 8),
            skip_plies: 10,
            max_plies: 300,
            progress: false,
            weights: None,
        }
    }
}

/// Counts of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenStats {
    pub games: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    pub capped: u64,
    pub positions: usize,
}

/// One game's recorded lines (label and position text).
fn one_game(cfg: &GenConfig, index: u64) -> (Vec<Sample>, crate::play::End) {
    let mut rng = game_rng(cfg.seed, index);
    let (lo, hi) = cfg.opening_plies;
    let plies = rng.gen_range(lo.min(hi)..=hi.max(lo));
    let mut game = random_opening(cfg.variant, plies, &mut rng);
    let mut kept = Vec::new();
    let weights = cfg.weights.clone().unwrap_or_else(|| Weights {
        patterns: None,
        ..Weights::for_variant(cfg.variant).clone()
    });
    let end = play_out(
        &mut game,
        cfg.depth,
        cfg.max_plies,
        Some(&weights),
        Some(&weights),
        &mut |pos, ply| {
            if ply >= cfg.skip_plies && is_quiet(pos) {
                kept.push(*pos);
            }
        },
    );
    let label = match end.count_diff {
        Some(d) => format!("{d}"),
        None => format!("{}", end.score),
    };
    let value = end.count_diff.unwrap_or(end.score);
    let samples = kept
        .into_iter()
        .map(|pos| Sample {
            label: value,
            score: None,
            line: format!("{label} {}", position_text(&pos)),
            pos,
        })
        .collect();
    (samples, end)
}

/// Play the games (in parallel on the current rayon pool) and collect the
/// quiet positions, in game order, without repeated lines.
pub fn generate(cfg: &GenConfig) -> (DataSet, GenStats) {
    let bar = if cfg.progress {
        let b = ProgressBar::new(cfg.games);
        b.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {bar:40} {pos}/{len} games (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b.set_message(format!("gen {}", cfg.variant));
        b
    } else {
        ProgressBar::hidden()
    };
    let games: Vec<_> = (cfg.first..cfg.first + cfg.games)
        .into_par_iter()
        .map(|i| {
            let g = one_game(cfg, i);
            bar.inc(1);
            g
        })
        .collect();
    bar.finish_and_clear();
    let mut set = DataSet::new(cfg.variant);
    let mut seen = HashSet::new();
    let mut stats = GenStats::default();
    for (samples, end) in games {
        stats.games += 1;
        stats.capped += end.capped as u64;
        match end.score {
            s if s > 0.75 => stats.white_wins += 1,
            s if s < 0.25 => stats.black_wins += 1,
            _ => stats.draws += 1,
        }
        for s in samples {
            set.push_line(&mut seen, s);
        }
    }
    stats.positions = set.samples.len();
    (set, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small(v: Variant, seed: u64, first: u64, games: u64) -> GenConfig {
        GenConfig {
            first,
            depth: 2,
            max_plies: 120,
            ..GenConfig::new(v, seed, games)
        }
    }

    #[test]
    fn same_seed_same_data_and_shards_merge_to_one_run() {
        for v in [Variant::Russian, Variant::Adiyukh64] {
            let (a, sa) = generate(&small(v, 9, 0, 6));
            let (b, _) = generate(&small(v, 9, 0, 6));
            assert_eq!(a.to_text(""), b.to_text(""), "{v}");
            assert!(sa.positions > 20, "{v}: {sa:?}");
            let (c, _) = generate(&small(v, 10, 0, 6));
            assert_ne!(a.to_text(""), c.to_text(""), "{v}: another seed");
            let (s1, _) = generate(&small(v, 9, 0, 2));
            let (s2, _) = generate(&small(v, 9, 2, 4));
            let merged = DataSet::merge(vec![s1, s2]).unwrap();
            assert_eq!(merged.to_text(""), a.to_text(""), "{v}");
            // Every recorded position is quiet and its label is the result.
            for s in &a.samples {
                assert!(is_quiet(&s.pos));
                if v == Variant::Russian {
                    assert!([0.0, 0.5, 1.0].contains(&s.label));
                } else {
                    assert_eq!(s.label.fract(), 0.0);
                }
            }
        }
    }
}

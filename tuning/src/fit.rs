//! Texel-style fitting of the evaluation weights.
//!
//! Each position's evaluation is linear in the weights near the start
//! values ([`shashki::eval::features`] records the coefficients with the
//! evaluation's own code), so the fit works on a matrix of coefficients:
//!
//! * Russian, Brazilian: the predicted result is `sigmoid(k * eval)` (eval
//!   in centi-men from White's side); `k` is fitted first with the start
//!   weights and then held; the loss is the mean squared error against the
//!   game results 1 / 0.5 / 0.
//! * Adiyukh: the predicted final count difference is `eval / 100`; the loss
//!   is the mean squared error in points squared.
//!
//! Adam over all free parameters at once, minibatches, a validation split
//! (by a hash of the position text, so a position is on one side only) and
//! early stopping on the validation loss. Held fixed: the units (`man` =
//! 100 centi-men, `half_count` = 100 hundredths of a point) and the two
//! parameters that scale other terms (`trade_down`, `drawish_scale`).
//! The result is rounded to integers, and the loss before and after is
//! measured again with the engine's own `evaluate_with`.

use crate::data::DataSet;
use crate::play::mix;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use shashki::eval::weights::{param, Weights};
use shashki::eval::{evaluate_with, features};
use shashki::{Color, Position, Variant};

/// Fit settings.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub max_epochs: usize,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// Adam's step size, in weight units (centi-men or hundredths of a point).
    pub learning_rate: f64,
    pub batch: usize,
    /// Share of the positions held out for validation.
    pub validation: f64,
    /// Shuffling seed.
    pub seed: u64,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            max_epochs: 400,
            patience: 25,
            learning_rate: 0.5,
            batch: 512,
            validation: 0.1,
            seed: 1,
        }
    }
}

/// How the evaluation maps to a prediction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// Results 1/0.5/0 against `sigmoid(k * eval)`.
    Result { k: f64 },
    /// Count differences against `eval / 100`.
    CountDiff,
}

impl Target {
    fn predict(self, eval: f64) -> f64 {
        match self {
            Target::Result { k } => 1.0 / (1.0 + (-k * eval).exp()),
            Target::CountDiff => eval / 100.0,
        }
    }

    /// d prediction / d eval.
    fn slope(self, pred: f64) -> f64 {
        match self {
            Target::Result { k } => k * pred * (1.0 - pred),
            Target::CountDiff => 0.01,
        }
    }
}

/// The parameters a fit of `variant` moves.
pub fn free_params(variant: Variant) -> Vec<usize> {
    let n = Weights::names().len();
    let fixed = [
        param::MAN,
        param::TRADE_DOWN,
        param::DRAWISH_SCALE,
        param::HALF_COUNT,
    ];
    let family = if variant.rules().towers {
        param::HALF_COUNT..n
    } else {
        0..param::HALF_COUNT
    };
    family.filter(|p| !fixed.contains(p)).collect()
}

/// The positions as rows of coefficients.
pub struct Prepared {
    pub variant: Variant,
    pub params: Vec<usize>,
    /// Per position: the coefficients of `params`.
    rows: Vec<Vec<f64>>,
    /// Per position: the fixed parameters' part of the evaluation.
    offset: Vec<f64>,
    labels: Vec<f64>,
    positions: Vec<Position>,
    pub train: Vec<usize>,
    pub validation: Vec<usize>,
}

fn white_eval(pos: &Position, w: &Weights) -> f64 {
    let e = evaluate_with(pos, w) as f64;
    match pos.side_to_move() {
        Color::White => e,
        Color::Black => -e,
    }
}

impl Prepared {
    /// Coefficients at the weights `start`; the split by `validation` share.
    pub fn new(data: &DataSet, start: &Weights, validation: f64) -> Prepared {
        let params = free_params(data.variant);
        let w = start.to_vec();
        let mut p = Prepared {
            variant: data.variant,
            params: params.clone(),
            rows: Vec::with_capacity(data.samples.len()),
            offset: Vec::with_capacity(data.samples.len()),
            labels: Vec::with_capacity(data.samples.len()),
            positions: Vec::with_capacity(data.samples.len()),
            train: Vec::new(),
            validation: Vec::new(),
        };
        for (i, s) in data.samples.iter().enumerate() {
            let f = features(&s.pos, start);
            let row: Vec<f64> = params.iter().map(|&j| f[j]).collect();
            let offset = f
                .iter()
                .enumerate()
                .filter(|(j, _)| !params.contains(j))
                .map(|(j, c)| c * w[j] as f64)
                .sum();
            p.rows.push(row);
            p.offset.push(offset);
            p.labels.push(s.label);
            p.positions.push(s.pos);
            let h = mix(s.pos.key() ^ mix(s.label.to_bits()));
            if (h % 10_000) as f64 / 10_000.0 < validation {
                p.validation.push(i);
            } else {
                p.train.push(i);
            }
        }
        p
    }

    fn eval(&self, i: usize, x: &[f64]) -> f64 {
        self.offset[i] + self.rows[i].iter().zip(x).map(|(c, w)| c * w).sum::<f64>()
    }

    /// Mean squared error of the linear model at `x` over `set`.
    pub fn loss(&self, set: &[usize], target: Target, x: &[f64]) -> f64 {
        if set.is_empty() {
            return 0.0;
        }
        let sum: f64 = set
            .iter()
            .map(|&i| {
                let d = target.predict(self.eval(i, x)) - self.labels[i];
                d * d
            })
            .sum();
        sum / set.len() as f64
    }

    /// Mean squared error of the engine's own evaluation with `w` over `set`.
    pub fn engine_loss(&self, set: &[usize], target: Target, w: &Weights) -> f64 {
        if set.is_empty() {
            return 0.0;
        }
        let sum: f64 = set
            .iter()
            .map(|&i| {
                let d = target.predict(white_eval(&self.positions[i], w)) - self.labels[i];
                d * d
            })
            .sum();
        sum / set.len() as f64
    }

    /// The target: for results, `k` minimising the loss of `w` on the
    /// training set (golden-section search on log k).
    pub fn target(&self, w: &Weights) -> Target {
        if self.variant.rules().towers {
            return Target::CountDiff;
        }
        let k = best_k(
            |k| self.engine_loss(&self.train, Target::Result { k }, w),
            60,
        );
        Target::Result { k }
    }
}

/// The `k` in [1e-5, 0.1] minimising `loss(k)`: a golden-section search on
/// log k with `iterations` steps (the loss is taken to have one minimum).
pub fn best_k(loss: impl Fn(f64) -> f64, iterations: usize) -> f64 {
    let f = |lk: f64| loss(lk.exp());
    let (mut a, mut b) = ((1e-5f64).ln(), (0.1f64).ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..iterations {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct FitResult {
    pub target: Target,
    /// Per epoch (0 = the start): training and validation loss of the
    /// linear model.
    pub history: Vec<(f64, f64)>,
    /// The epoch whose weights were kept (best validation loss).
    pub best_epoch: usize,
    /// The fitted weights, rounded.
    pub weights: Weights,
    /// Engine losses (training, validation) with the start weights and with
    /// the fitted ones.
    pub before: (f64, f64),
    pub after: (f64, f64),
}

/// Fit `start` to the data.
pub fn fit(data: &DataSet, start: &Weights, cfg: &FitConfig) -> FitResult {
    let prep = Prepared::new(data, start, cfg.validation);
    let target = prep.target(start);
    fit_prepared(&prep, start, target, cfg)
}

/// Fit with the target given.
pub fn fit_prepared(
    prep: &Prepared,
    start: &Weights,
    target: Target,
    cfg: &FitConfig,
) -> FitResult {
    let w0 = start.to_vec();
    let mut x: Vec<f64> = prep.params.iter().map(|&j| w0[j] as f64).collect();
    let n = x.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut t = 0i32;
    let val_set = if prep.validation.is_empty() {
        &prep.train
    } else {
        &prep.validation
    };
    let mut history = vec![(
        prep.loss(&prep.train, target, &x),
        prep.loss(val_set, target, &x),
    )];
    let (mut best, mut best_epoch, mut best_x) = (history[0].1, 0, x.clone());
    let mut order = prep.train.clone();
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let mut grad = vec![0.0; n];
    for epoch in 1..=cfg.max_epochs {
        order.shuffle(&mut rng);
        for batch in order.chunks(cfg.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in batch {
                let pred = target.predict(prep.eval(i, &x));
                let d = 2.0 * (pred - prep.labels[i]) * target.slope(pred);
                for (g, c) in grad.iter_mut().zip(&prep.rows[i]) {
                    *g += d * c;
                }
            }
            t += 1;
            let scale = 1.0 / batch.len() as f64;
            for j in 0..n {
                let g = grad[j] * scale;
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(t));
                let vh = v[j] / (1.0 - b2.powi(t));
                x[j] -= cfg.learning_rate * mh / (vh.sqrt() + eps);
            }
        }
        let l = (
            prep.loss(&prep.train, target, &x),
            prep.loss(val_set, target, &x),
        );
        history.push(l);
        if l.1 < best {
            best = l.1;
            best_epoch = epoch;
            best_x = x.clone();
        } else if epoch - best_epoch >= cfg.patience {
            break;
        }
    }
    let mut w = w0;
    for (&j, &val) in prep.params.iter().zip(&best_x) {
        w[j] = val.round() as i32;
    }
    let weights = Weights::from_slice(&w).expect("same length");
    FitResult {
        target,
        before: (
            prep.engine_loss(&prep.train, target, start),
            prep.engine_loss(val_set, target, start),
        ),
        after: (
            prep.engine_loss(&prep.train, target, &weights),
            prep.engine_loss(val_set, target, &weights),
        ),
        history,
        best_epoch,
        weights,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Sample;
    use rand::Rng;

    /// Positions from random games, `n` of them.
    fn random_positions(v: Variant, n: usize, seed: u64) -> Vec<Position> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut p = Position::start(v);
            for _ in 0..rng.gen_range(10..100) {
                let moves = p.legal_moves();
                let Some(mv) = moves.choose(&mut rng) else {
                    break;
                };
                p = p.play(mv);
            }
            out.push(p);
        }
        out
    }

    /// Labels from known weights, then a fit from the built-in ones: the
    /// known weights come back (where the data says something about them).
    #[test]
    fn a_fit_recovers_known_weights() {
        for (v, k) in [(Variant::Russian, 0.01), (Variant::Adiyukh64, 0.0)] {
            let start = Weights::for_variant(v).clone();
            let mut truth = start.to_vec();
            let params = free_params(v);
            // Move the most frequent parameters by known amounts.
            let moved: Vec<usize> = if k > 0.0 {
                vec![
                    param::KING,
                    param::ADV_RANK2 + 3,
                    param::CENTER,
                    param::BALANCE,
                ]
            } else {
                vec![
                    param::PRISONER,
                    param::MOBILITY,
                    param::BLOCKED,
                    param::OWN_EXTRA,
                ]
            };
            for (n, &j) in moved.iter().enumerate() {
                truth[j] += if n % 2 == 0 { 12 } else { -5 };
            }
            let truth = Weights::from_slice(&truth).unwrap();
            let target = if k > 0.0 {
                Target::Result { k }
            } else {
                Target::CountDiff
            };
            let samples = random_positions(v, 3000, 11)
                .into_iter()
                .map(|pos| Sample {
                    label: target.predict(white_eval(&pos, &truth)),
                    score: None,
                    pos,
                    line: String::new(),
                })
                .collect();
            let data = DataSet {
                variant: v,
                samples,
            };
            let cfg = FitConfig {
                max_epochs: 300,
                patience: 300,
                learning_rate: 0.5,
                batch: 256,
                ..FitConfig::default()
            };
            let prep = Prepared::new(&data, &start, cfg.validation);
            let r = fit_prepared(&prep, &start, target, &cfg);
            let got = r.weights.to_vec();
            for &j in &moved {
                let want = truth.to_vec()[j];
                assert!(
                    (got[j] - want).abs() <= 3,
                    "{v} {}: got {} want {want} (start {})",
                    Weights::names()[j],
                    got[j],
                    start.to_vec()[j]
                );
            }
            assert!(
                r.after.0 < r.before.0 / 4.0,
                "{v}: {:?} -> {:?}",
                r.before,
                r.after
            );
            assert!(params
                .iter()
                .all(|&j| j != param::MAN && j != param::HALF_COUNT));
            // The kept epoch is no worse than the start on the training set.
            assert!(r.history[r.best_epoch].0 <= r.history[0].0);
        }
    }

    #[test]
    fn k_is_found_and_early_stopping_keeps_the_best_epoch() {
        let v = Variant::Russian;
        let start = Weights::for_variant(v).clone();
        let samples = random_positions(v, 1500, 4)
            .into_iter()
            .map(|pos| Sample {
                label: Target::Result { k: 0.004 }.predict(white_eval(&pos, &start)),
                score: None,
                pos,
                line: String::new(),
            })
            .collect();
        let data = DataSet {
            variant: v,
            samples,
        };
        let prep = Prepared::new(&data, &start, 0.2);
        let Target::Result { k } = prep.target(&start) else {
            panic!("russian predicts results");
        };
        assert!((k - 0.004).abs() < 0.0004, "{k}");
        assert!(!prep.validation.is_empty() && prep.train.len() > prep.validation.len());
        let cfg = FitConfig {
            max_epochs: 40,
            patience: 3,
            ..FitConfig::default()
        };
        let r = fit_prepared(&prep, &start, Target::Result { k }, &cfg);
        let best = r.history.iter().map(|h| h.1).fold(f64::INFINITY, f64::min);
        assert_eq!(r.history[r.best_epoch].1, best);
        assert!(r.history[r.best_epoch].0 <= r.history[0].0 + 1e-12);
        assert!(r.history.len() - 1 <= r.best_epoch + cfg.patience);
    }
}

//! Criterion benchmarks for the static evaluation.
//!
//! Run with `cargo bench --bench eval` (under half a minute, build
//! excluded).
//!
//! What is measured (group/function names say it):
//! * `eval/<variant>/per-call`: `eval::evaluate` over a fixed set of 1,000
//!   positions from seeded random games of the variant (plies 0-80);
//!   throughput is evaluations per second ("elem/s"), so the time per call
//!   is the reported time / 1,000.
//! * `eval/<variant>/per-call-patterns` (Russian, Brazilian): the same with
//!   pattern weights (random values: the cost does not depend on them).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use shashki::eval::patterns::{Layout, Patterns};
use shashki::eval::weights::Weights;
use shashki::{eval, Position, Variant};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Positions per set.
const POSITIONS: usize = 1000;

/// `POSITIONS` positions from random games of `v` (the same ones every run).
fn positions(v: Variant) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(0xe7a1);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let mut p = Position::start(v);
        for _ in 0..rng.gen_range(0..80) {
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

/// Every position of `set` evaluated with `w` (the sum, so none is skipped).
fn eval_all(set: &[Position], w: &Weights) -> i64 {
    set.iter()
        .map(|p| eval::evaluate_with(black_box(p), w) as i64)
        .sum()
}

fn per_call(c: &mut Criterion) {
    for v in Variant::ALL {
        let set = positions(v);
        let mut g = c.benchmark_group(format!("eval/{}", v.id()));
        g.sample_size(20)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .throughput(Throughput::Elements(set.len() as u64));
        let hand = Weights {
            patterns: None,
            ..Weights::for_variant(v).clone()
        };
        g.bench_function("per-call", |b| b.iter(|| eval_all(&set, &hand)));
        {
            // Random pattern weights: the cost does not depend on the values.
            let mut rng = StdRng::seed_from_u64(9);
            let w = (0..Layout::of(v).weight_count())
                .map(|_| rng.gen_range(-200..=200))
                .collect();
            let with = Weights {
                patterns: Some(Arc::new(Patterns::from_weights(v, w).unwrap())),
                ..hand.clone()
            };
            g.bench_function("per-call-patterns", |b| b.iter(|| eval_all(&set, &with)));
        }
        g.finish();
    }
}

criterion_group!(benches, per_call);
criterion_main!(benches);

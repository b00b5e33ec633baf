//! Criterion benchmarks for probing the endgame tables.
//!
//! Run with `cargo bench --bench egdb` (about a minute, build excluded).
//! The tables probed:
//!
//! * `$SHASHKI_EGDB_BENCH`, when it is set: a folder of Russian tables,
//!   such as the five-piece ones (`SHASHKI_EGDB_BENCH=$HOME/egdb5/russian
//!   cargo bench --bench egdb`); the positions are drawn from its largest
//!   complete piece count;
//! * otherwise the Russian tables up to four pieces, built first into a
//!   temporary folder (a few seconds; removed at the end).
//!
//! What is measured (group/function names say it, `<n>` the pieces):
//! * `egdb/probe-cached/<n>-pieces`: `Tables::probe` over a fixed set of
//!   1,000 positions drawn at random from the `<n>`-piece combinations
//!   (combination uniform, then index uniform), every block they need
//!   already read and unpacked (one probe of each before timing). Throughput
//!   is probes per second ("elem/s"), so the time per probe is the reported
//!   time / 1,000. Target: under 1 µs a probe.
//! * `egdb/first-probe-block/<n>-pieces`: the first probe of a block: its
//!   file open already (a probe of another block of the same table before
//!   timing), the block read (from the operating system's page cache after
//!   the first run, not from the disk), checked and unpacked.
//! * `egdb/first-probe-file/<n>-pieces`: the first probe of a table: the
//!   file opened, its header and block index read and checked, then its
//!   block as above.
//!
//! Every position of the set is checked to have a table value before
//! timing.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shashki::egdb::build::{build, BuildOptions};
use shashki::egdb::file::BLOCK;
use shashki::egdb::{Combo, Tables};
use shashki::{Position, Variant};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// Positions per set.
const POSITIONS: usize = 1000;
const VARIANT: Variant = Variant::Russian;

/// The folder of tables to probe and, when the bench built it, the folder
/// to remove at the end.
fn tables_dir() -> (PathBuf, Option<PathBuf>) {
    if let Some(dir) = std::env::var_os("SHASHKI_EGDB_BENCH") {
        return (PathBuf::from(dir), None);
    }
    let dir = std::env::temp_dir().join(format!("shashki-egdb-bench-{}", std::process::id()));
    let opts = BuildOptions {
        variant: VARIANT,
        pieces: 4,
        dir: dir.clone(),
        only: None,
    };
    let start = std::time::Instant::now();
    build(&opts, &mut |_| {}).expect("build the tables up to four pieces");
    eprintln!(
        "egdb bench: tables up to 4 pieces built into {} in {:.1} s",
        dir.display(),
        start.elapsed().as_secs_f64()
    );
    (dir.clone(), Some(dir))
}

/// `POSITIONS` positions of `pieces` pieces (the same ones every run), each
/// with the index of another position of its table in another block (none
/// when the table has one block).
fn positions(pieces: u32) -> Vec<(Position, Option<Position>)> {
    let mut rng = StdRng::seed_from_u64(0xe6db);
    let combos = Combo::all_with(pieces);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let c = combos[rng.gen_range(0..combos.len())];
        let size = c.size();
        let i = rng.gen_range(0..size);
        let Some(s) = c.decode(i) else { continue };
        let other = (size > BLOCK)
            .then(|| {
                (1..size)
                    .map(|k| (i / BLOCK * BLOCK + BLOCK + k) % size)
                    .filter(|&j| j / BLOCK != i / BLOCK)
                    .find_map(|j| c.decode(j))
            })
            .flatten();
        out.push((s.position(VARIANT), other.map(|o| o.position(VARIANT))));
    }
    out
}

fn probes(c: &mut Criterion) {
    let (dir, remove) = tables_dir();
    let tables = Tables::open(&dir, VARIANT, 8).expect("open the tables");
    let n = tables.pieces();
    assert!(n >= 2, "no complete piece count in {}", dir.display());
    eprintln!("egdb bench: {} up to {n} pieces", dir.display());
    let set = positions(n);
    // Every block of the set read and unpacked; every position answered.
    for (p, _) in &set {
        assert!(
            tables.probe(p).is_some(),
            "{}",
            shashki::fen::position_text(p)
        );
    }
    assert!(tables.take_errors().is_empty());

    let mut g = c.benchmark_group("egdb");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Elements(set.len() as u64));
    g.bench_function(format!("probe-cached/{n}-pieces"), |b| {
        b.iter(|| {
            let mut wins = 0u32;
            for (p, _) in &set {
                wins += (tables.probe(black_box(p)) == Some(shashki::egdb::Wdl::Win)) as u32;
            }
            wins
        })
    });

    // First probes: fresh tables for each, the setup untimed (64 alive at
    // a time: each holds a file open).
    g.throughput(Throughput::Elements(1))
        .sample_size(20)
        .measurement_time(Duration::from_secs(1));
    let split: Vec<(Position, Position)> =
        set.iter().filter_map(|&(p, o)| o.map(|o| (p, o))).collect();
    let mut k = 0;
    g.bench_function(format!("first-probe-block/{n}-pieces"), |b| {
        b.iter_batched_ref(
            || {
                k = (k + 1) % split.len();
                let (p, other) = split[k];
                let t = Tables::open(&dir, VARIANT, n).unwrap();
                t.probe(&other).expect("the other block answers");
                (t, p)
            },
            |(t, p)| t.probe(black_box(p)),
            BatchSize::NumIterations(64),
        )
    });
    let mut k = 0;
    g.bench_function(format!("first-probe-file/{n}-pieces"), |b| {
        b.iter_batched_ref(
            || {
                k = (k + 1) % set.len();
                (Tables::open(&dir, VARIANT, n).unwrap(), set[k].0)
            },
            |(t, p)| t.probe(black_box(p)),
            BatchSize::NumIterations(64),
        )
    });
    g.finish();
    if let Some(d) = remove {
        let _ = std::fs::remove_dir_all(d);
    }
}

criterion_group!(benches, probes);
criterion_main!(benches);

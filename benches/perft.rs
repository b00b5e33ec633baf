//! Criterion benchmarks for perft and the move generator.
//!
//! Run with `cargo bench --bench perft` (about 2 minutes on a 2-core
//! machine, build excluded). The Russian depth-12 perft (544,770,444 leaves,
//! a dozen runs of several seconds each, about one more minute) is skipped
//! unless the environment variable `SHASHKI_BENCH_DEEP=1` is set:
//!
//! ```text
//! SHASHKI_BENCH_DEEP=1 cargo bench --bench perft            # everything
//! SHASHKI_BENCH_DEEP=1 cargo bench --bench perft -- d12     # depth 12 only
//! ```
//!
//! What is measured (group/function names say it):
//! * `perft/russian-start/d{8,10,11,12}/...`: distinct-move perft of the
//!   Russian start position on one thread (`perft::perft` on the bench
//!   thread), and with `perft::perft_parallel` inside a rayon pool of 1 or 2
//!   threads. Targets: d10 < 0.15 s, d12 < 5 s on one thread; 2 threads at
//!   least 1.8x faster than 1 thread.
//! * `perft/adiyukh-80-start/d6/1-thread`: the tower variant on the
//!   80-square board. Target: leaves/s at least a third of Russian's
//!   (compare with `perft/russian-start/d8`, a tree of similar size, and d10).
//! * `movegen/<variant>/...`: `movegen::generate` over a fixed set of
//!   positions; throughput is positions per second ("elem/s").
//! * `perft/speed-suite/d10`: the 13 positions of KestoG 1.1's perft suite
//!   (`engine-tests/testdata/speed-suite.txt`, read at run time), each to its depth
//!   (10) with `perft::perft` on the bench thread, one after the other: one
//!   time for the whole suite, to set against KestoG's 1.25 s (target: under
//!   0.417 s, a third of it). `perft/speed-suite-each/<name>/d10` times each
//!   position alone. The node counts are printed once before timing; no
//!   reference values are kept for them (the tests check the fast perft
//!   against plain generation on these positions).
//!
//! ```text
//! cargo bench --bench perft -- speed-suite/d10    # the whole suite only
//! cargo bench --bench perft -- speed-suite        # and each position
//! ```
//!
//! Perft throughput is `Throughput::Elements(leaves)`, so criterion prints
//! leaves per second as "elem/s". Every benchmark first checks its result
//! against the reference value once, outside the timed loop, so a wrong
//! generator cannot post a fast time.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, Criterion, SamplingMode, Throughput,
};
use shashki::movegen;
use shashki::perft::{perft, perft_parallel};
use shashki::{fen, MoveList, Position, Variant};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

/// Russian start-position perft, distinct moves
/// (engine-tests/testdata/perft.txt).
const RUSSIAN_START_D8: u64 = 929_899;
const RUSSIAN_START_D10: u64 = 22_444_032;
const RUSSIAN_START_D11: u64 = 110_917_189;
const RUSSIAN_START_D12: u64 = 544_770_444;

/// Adiyukh-80 start-position perft at depth 6 (engine-tests/testdata/perft.txt
/// and docs/rules/adiyukh.md).
const ADIYUKH80_START_D6: u64 = 168_158;

/// Position text and its number of distinct legal moves (perft depth 1).
type Counted = (&'static str, usize);

/// Positions of engine-tests/testdata/perft.txt with their depth-1 counts,
/// per variant.
const RUSSIAN_POSITIONS: &[Counted] = &[
    (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        7,
    ),
    ("W:Wa1,c3,g3,f6:BKh2,b6,e7,h8", 1),
    ("W:Wa1,c1,d6:Be3,a7,e7,g7,Kb8", 1),
    ("W:Wa1,e1,c3,g3:Bb4,f4,d6,a7,h8", 2),
    ("W:WKa1,h4:Bf2,c3,b4,f4,Kh6,a7", 2),
    ("W:Wg1,Ka3:Bb4,f4,a7,h8", 2),
    ("W:Wa1,e1,g1,c3:BKh2,b4,d4,b6,d6,h8", 1),
    ("W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8", 13),
];

const BRAZILIAN_POSITIONS: &[Counted] = &[
    (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        7,
    ),
    ("W:Wa1,c3,g3,f6:BKh2,b6,e7,h8", 1),
    ("W:Wa1,c1,d6:Be3,a7,e7,g7,Kb8", 1),
    ("W:Wa1,e1,c3,g3:Bb4,f4,d6,a7,h8", 1),
    ("W:WKa1,h4:Bf2,c3,b4,f4,Kh6,a7", 1),
    ("W:Wg1,Ka3:Bb4,f4,a7,h8", 2),
    ("W:Wa1,e1,g1,c3:BKh2,b4,d4,b6,d6,h8", 1),
    ("W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8", 13),
];

const ADIYUKH64_POSITIONS: &[Counted] = &[
    (
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        7,
    ),
    (
        "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1,e3,f2,g1,g3,h2:Bb8,c7,e5-2,e7,f8,g7,h6,h8",
        7,
    ),
    (
        "W:Wa7-1/2,b2-2,c1,e1,f2,g1:Bb4-1/3,b8,c3,c7,e5-1/2,e7,f8,g5,g7,h8",
        2,
    ),
];

const ADIYUKH80_POSITIONS: &[Counted] = &[(
    "W:Wa1,c1,e1,g1,i1,b2,d2,f2,h2,j2,a3,c3,e3,g3,i3:Bb6,d6,f6,h6,j6,a7,c7,e7,g7,i7,b8,d8,f8,h8,j8",
    9,
)];

/// Per variant: its testdata positions and its start-position perft at
/// depth 3 (= the total number of moves over all positions two plies in).
const MOVEGEN_SETS: &[(Variant, &[Counted], u64)] = &[
    (Variant::Russian, RUSSIAN_POSITIONS, 302),
    (Variant::Brazilian, BRAZILIAN_POSITIONS, 302),
    (Variant::Adiyukh64, ADIYUKH64_POSITIONS, 302),
    (Variant::Adiyukh80, ADIYUKH80_POSITIONS, 658),
];

fn deep_enabled() -> bool {
    std::env::var("SHASHKI_BENCH_DEEP").is_ok_and(|v| v == "1")
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("rayon thread pool")
}

/// Settings for the long perft runs: flat sampling (the same iteration count
/// in every sample, so ten samples cost about ten runs), criterion's minimum
/// of ten samples.
fn long_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    leaves: u64,
    measure_secs: u64,
) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(measure_secs))
        .throughput(Throughput::Elements(leaves));
    g
}

/// `perft::perft` on the bench thread.
fn bench_serial(g: &mut BenchmarkGroup<'_, WallTime>, pos: &Position, depth: u32, expected: u64) {
    assert_eq!(
        perft(pos, depth),
        expected,
        "perft {depth} of {} is wrong",
        fen::position_text(pos)
    );
    g.bench_function("1-thread", |b| {
        b.iter(|| perft(black_box(pos), black_box(depth)))
    });
}

/// `perft::perft_parallel` inside a rayon pool of `threads` threads.
fn bench_pool(
    g: &mut BenchmarkGroup<'_, WallTime>,
    pos: &Position,
    depth: u32,
    expected: u64,
    threads: usize,
) {
    let pool = pool(threads);
    let got = pool.install(|| perft_parallel(pos, depth));
    assert_eq!(
        got, expected,
        "perft_parallel {depth} ({threads} threads) is wrong"
    );
    let id = if threads == 1 {
        "1-thread-pool".to_string()
    } else {
        format!("{threads}-threads")
    };
    g.bench_function(id, |b| {
        b.iter(|| pool.install(|| perft_parallel(black_box(pos), black_box(depth))))
    });
}

fn perft_russian(c: &mut Criterion) {
    let pos = Position::start(Variant::Russian);

    // A tree the size of Adiyukh-80 depth 7, for the leaves/s comparison.
    let mut g = c.benchmark_group("perft/russian-start/d8");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(RUSSIAN_START_D8));
    bench_serial(&mut g, &pos, 8, RUSSIAN_START_D8);
    g.finish();

    let mut g = long_group(c, "perft/russian-start/d10", RUSSIAN_START_D10, 5);
    bench_serial(&mut g, &pos, 10, RUSSIAN_START_D10);
    bench_pool(&mut g, &pos, 10, RUSSIAN_START_D10, 1);
    bench_pool(&mut g, &pos, 10, RUSSIAN_START_D10, 2);
    g.finish();

    let mut g = long_group(c, "perft/russian-start/d11", RUSSIAN_START_D11, 12);
    bench_serial(&mut g, &pos, 11, RUSSIAN_START_D11);
    bench_pool(&mut g, &pos, 11, RUSSIAN_START_D11, 2);
    g.finish();

    if deep_enabled() {
        let mut g = long_group(c, "perft/russian-start/d12", RUSSIAN_START_D12, 40);
        bench_serial(&mut g, &pos, 12, RUSSIAN_START_D12);
        g.finish();
    }
}

fn perft_adiyukh80(c: &mut Criterion) {
    let pos = Position::start(Variant::Adiyukh80);
    // Depth 6 is the deepest published reference (docs/rules/adiyukh.md).
    let mut g = c.benchmark_group("perft/adiyukh-80-start/d6");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(ADIYUKH80_START_D6));
    bench_serial(&mut g, &pos, 6, ADIYUKH80_START_D6);
    g.finish();
}

/// Every position two plies from the start.
fn ply2_positions(variant: Variant) -> Vec<Position> {
    let start = Position::start(variant);
    let mut out = Vec::new();
    for m in start.legal_moves().iter() {
        let child = start.play(m);
        for m2 in child.legal_moves().iter() {
            out.push(child.play(m2));
        }
    }
    out
}

/// `movegen::generate` over every position of `positions`, returning the
/// total number of moves.
fn generate_all(positions: &[Position], list: &mut MoveList) -> usize {
    let mut total = 0;
    for p in positions {
        movegen::generate(black_box(p), list);
        total += list.len();
    }
    total
}

fn movegen_sets(c: &mut Criterion) {
    for &(variant, texts, start_d3) in MOVEGEN_SETS {
        let mut list = MoveList::new();
        let testdata: Vec<Position> = texts
            .iter()
            .map(|&(text, moves)| {
                let pos = fen::parse_position(variant, text).expect("testdata position parses");
                movegen::generate(&pos, &mut list);
                assert_eq!(list.len(), moves, "{variant}: wrong move count for {text}");
                pos
            })
            .collect();
        let ply2 = ply2_positions(variant);
        assert_eq!(
            generate_all(&ply2, &mut list) as u64,
            start_d3,
            "{variant}: moves over start+2 plies != perft 3"
        );

        let mut g = c.benchmark_group(format!("movegen/{}", variant.id()));
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        for (name, set) in [
            ("testdata-positions", &testdata),
            ("start-plus-2-plies", &ply2),
        ] {
            g.throughput(Throughput::Elements(set.len() as u64));
            g.bench_function(format!("{name}-{}", set.len()), |b| {
                b.iter(|| generate_all(set, &mut list))
            });
        }
        g.finish();
    }
}

/// One position of the speed suite: its name, the position and the depth.
struct SuiteEntry {
    name: String,
    pos: Position,
    depth: u32,
}

/// The speed suite, `testdata/speed-suite.txt` (`variant;name;position;depth`).
fn speed_suite() -> Vec<SuiteEntry> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/testdata/speed-suite.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e})", path.display()));
    let mut suite = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), i + 1);
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(fields.len(), 4, "{}: expected 4 fields: {line}", at());
        let variant: Variant = fields[0]
            .parse()
            .unwrap_or_else(|e| panic!("{}: {e}", at()));
        let pos = fen::parse_position(variant, fields[2])
            .unwrap_or_else(|e| panic!("{}: position refused: {e}", at()));
        let depth = fields[3]
            .parse()
            .unwrap_or_else(|e| panic!("{}: bad depth: {e}", at()));
        suite.push(SuiteEntry {
            name: fields[1].to_string(),
            pos,
            depth,
        });
    }
    assert!(!suite.is_empty(), "{}: no positions", path.display());
    suite
}

/// The whole suite, serially: the sum of the perft counts.
fn run_suite(suite: &[SuiteEntry]) -> u64 {
    suite
        .iter()
        .map(|e| perft(black_box(&e.pos), black_box(e.depth)))
        .sum()
}

fn perft_speed_suite(c: &mut Criterion) {
    let suite = speed_suite();
    let depths: Vec<u32> = suite.iter().map(|e| e.depth).collect();
    let depth = depths[0];
    assert!(
        depths.iter().all(|&d| d == depth),
        "speed-suite.txt: the suite has one depth"
    );
    // The counts once, outside the timed loop, for the record.
    let mut total = 0;
    for e in &suite {
        let n = perft(&e.pos, e.depth);
        println!("speed-suite {} depth {}: {n} nodes", e.name, e.depth);
        total += n;
    }
    println!(
        "speed-suite: {} positions, depth {depth}, {total} nodes",
        suite.len()
    );

    let mut g = long_group(c, "perft/speed-suite", total, 10);
    g.bench_function(format!("d{depth}"), |b| b.iter(|| run_suite(&suite)));
    g.finish();

    let mut g = c.benchmark_group("perft/speed-suite-each");
    g.sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for e in &suite {
        g.throughput(Throughput::Elements(perft(&e.pos, e.depth)));
        g.bench_function(format!("{}/d{}", e.name, e.depth), |b| {
            b.iter(|| perft(black_box(&e.pos), black_box(e.depth)))
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    perft_russian,
    perft_adiyukh80,
    movegen_sets,
    perft_speed_suite
);
criterion_main!(benches);

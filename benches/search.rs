//! Criterion benchmarks for the search.
//!
//! Run with `cargo bench --bench search` (about two minutes on a 2-core
//! machine, build excluded).
//!
//! What is measured (group/function names say it):
//! * `search/<variant>/nps-depth-<d>/<position>`: one fixed-depth search on
//!   one thread from a fresh 16 MiB searcher, over the start position and
//!   middlegames of engine-tests/testdata/perft.txt (plus one reached by a
//!   fixed opening line). The throughput is the search's node count, taken
//!   once before timing (a 1-thread search is deterministic), so criterion
//!   prints nodes per second as "elem/s". For the variants that evaluate
//!   with pattern weights (all four), `nps-depth-<d>-hand` measures the
//!   same searches with the hand-shaped evaluation alone.
//! * `search/russian/time-to-depth-<d>/<position>` (d = 13 and 15) and
//!   `search/russian/time-to-depth-<d>-2-threads/<position>`: the time to
//!   finish depth `d` with 1 and with 2 threads (Lazy SMP). Two threads
//!   search different trees, so only the time is compared.
//!
//! Every iteration gets a new `Searcher` (built outside the timed part), so
//! no iteration profits from the table of an earlier one. Making a searcher
//! touches every page of its table, so the system's handing out of memory
//! is not timed either (an engine does it once, at start or on a new Hash).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use shashki::eval::weights::Weights;
use shashki::game::Game;
use shashki::search::{Limits, Searcher};
use shashki::Variant;
use std::hint::black_box;
use std::time::Duration;

/// Table size of every benchmark searcher, MiB.
const HASH_MIB: usize = 16;

/// A named position.
type Named = (&'static str, &'static str);

/// Eleven pieces, four of them kings (the name was "kings-middlegame"
/// before 2026-11-30); Russian and Brazilian.
const KINGS_ENDING: Named = ("kings-ending", "W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8");

/// The Russian positions (also those of the time-to-depth benchmark).
const RUSSIAN: &[Named] = &[
    ("start", "startpos"),
    // After g3-f4 d6-e5 f4:d6 e7:c5 c3-b4 d8-e7 b4:d6 c7:e5 h2-g3
    // e7-d6 b2-c3 f6-g5.
    (
        "opening-line",
        "W:Wa1,c1,e1,g1,d2,f2,a3,c3,e3,g3:Be5,g5,b6,d6,h6,a7,g7,b8,f8,h8",
    ),
    KINGS_ENDING,
];

/// Per variant: the search depth and the positions.
const NPS: &[(Variant, u32, &[Named])] = &[
    (Variant::Russian, 12, RUSSIAN),
    (
        Variant::Brazilian,
        12,
        &[
            ("start", "startpos"),
            // After g3-f4 d6-e5 f4:d6 e7:c5 c3-b4 f6-g5 b4:d6 c7:e5 e3-d4
            // e5:c3 d2:b4 g7-f6.
            (
                "opening-line",
                "W:Wa1,c1,e1,g1,b2,f2,h2,a3,b4:Bg5,b6,f6,h6,a7,b8,d8,f8,h8",
            ),
            KINGS_ENDING,
        ],
    ),
    (
        Variant::Adiyukh64,
        12,
        &[
            ("start", "startpos"),
            (
                "seed-game-fig6",
                "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1,e3,f2,g1,g3,h2:Bb8,c7,e5-2,e7,f8,g7,h6,h8",
            ),
            (
                "seed-game-fig7",
                "W:Wa7-1/2,b2-2,c1,e1,f2,g1:Bb4-1/3,b8,c3,c7,e5-1/2,e7,f8,g5,g7,h8",
            ),
        ],
    ),
    (
        Variant::Adiyukh80,
        11,
        &[
            ("start", "startpos"),
            // After c3-b4 j6-i5 b4-a5 d6-c5 e3-d4 c5:e3 f2:d4 i5-h4 g3:i5
            // h6:j4.
            (
                "opening-line",
                "W:Wa1,c1,e1,g1,i1,b2,d2,h2,j2,a3,e3,i3,d4-1/1,a5:Bj4-1/1,i5,b6,f6,a7,c7,e7,g7,i7,b8,d8,f8,h8,j8",
            ),
        ],
    ),
];

/// Time to depth: these depths, over the Russian positions. At depth 13
/// the opening line takes about 60 ms, where starting a thread is a
/// visible share; depth 15 shows the speed-up of searches that last.
const TIME_TO_DEPTH: &[u32] = &[13, 15];

fn game(variant: Variant, text: &str) -> Game {
    Game::from_text(variant, text)
        .unwrap_or_else(|e| panic!("{variant}: bench position {text:?} refused: {e}"))
}

/// A fresh searcher; with `hand`, evaluating with the hand-shaped terms
/// alone (no pattern weights).
fn searcher(variant: Variant, threads: usize, hand: bool) -> Searcher {
    let mut s = Searcher::new(HASH_MIB, threads);
    if hand {
        s.set_weights(Some(Weights {
            patterns: None,
            ..Weights::for_variant(variant).clone()
        }));
    }
    s
}

/// One search from a fresh searcher: (nodes, completed depth).
fn search_once(game: &Game, depth: u32, threads: usize, hand: bool) -> (u64, u32) {
    let mut searcher = searcher(game.variant(), threads, hand);
    let r = searcher.search(game, &Limits::depth(depth), &mut |_| {});
    (r.nodes, r.depth)
}

fn nps(c: &mut Criterion) {
    // The variants with pattern weights also without them, for comparison.
    let runs = NPS.iter().map(|r| (r, false)).chain(
        NPS.iter()
            .filter(|r| Weights::for_variant(r.0).patterns.is_some())
            .map(|r| (r, true)),
    );
    for (&(variant, depth, positions), hand) in runs {
        let kind = if hand { "-hand" } else { "" };
        let mut group =
            c.benchmark_group(format!("search/{}/nps-depth-{depth}{kind}", variant.id()));
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3));
        for &(name, text) in positions {
            let g = game(variant, text);
            let (nodes, reached) = search_once(&g, depth, 1, hand);
            assert_eq!(
                reached, depth,
                "{variant} {name}: the search stopped at depth {reached}, not {depth}"
            );
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(name, |b| {
                b.iter_batched_ref(
                    || searcher(variant, 1, hand),
                    |s| black_box(s.search(&g, &Limits::depth(depth), &mut |_| {})),
                    BatchSize::PerIteration,
                )
            });
        }
        group.finish();
    }
}

fn time_to_depth(c: &mut Criterion) {
    for &depth in TIME_TO_DEPTH {
        for threads in [1usize, 2] {
            let suffix = if threads == 1 {
                String::new()
            } else {
                format!("-{threads}-threads")
            };
            let mut group =
                c.benchmark_group(format!("search/russian/time-to-depth-{depth}{suffix}"));
            group
                .sampling_mode(SamplingMode::Flat)
                .sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(4));
            for &(name, text) in RUSSIAN {
                let g = game(Variant::Russian, text);
                let (_, reached) = search_once(&g, depth, threads, false);
                assert_eq!(reached, depth, "{name}: depth reached");
                group.bench_function(name, |b| {
                    b.iter_batched_ref(
                        || Searcher::new(HASH_MIB, threads),
                        |s| black_box(s.search(&g, &Limits::depth(depth), &mut |_| {})),
                        BatchSize::PerIteration,
                    )
                });
            }
            group.finish();
        }
    }
}

criterion_group!(benches, nps, time_to_depth);
criterion_main!(benches);

//! The search (`src/search/`) checked against answers it did not produce.
//!
//! Best moves come from a small exhaustive solver written here over the
//! legal move generator alone (`Position::legal_moves`, `Position::play`):
//!
//! * Russian, Brazilian: the side to move with no legal move loses. The solver
//!   proves that exactly one root move forces a win within a bound of N plies
//!   and finds the shortest win. The engine, at a stated depth, must play that
//!   move and report `Score::Win(n)` for the same distance.
//! * Adiyukh: the game ends when the side to move has no legal move and is
//!   worth the count difference (`Position::half_board_score`). The solver
//!   computes root values exactly where the tree is small, and otherwise
//!   proves an upper bound; the engine's move must reach the optimal count.
//!
//! The positions were found with the same solver over random positions and
//! are hard-coded; every run proves them again before asking the engine.
//!
//! The rest: the stop flag is obeyed promptly, a stopped or forced search
//! still returns a legal move, 1-thread searches are deterministic (and a
//! new game searches as a fresh searcher does), the
//! transposition table keeps to its size, and a 2-thread search works.

use shashki::game::Game;
use shashki::notation::move_text;
use shashki::search::{Limits, Score, SearchResult, Searcher};
use shashki::tt::TranspositionTable;
use shashki::{Color, Move, Position, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

const RUSSIAN: Variant = Variant::Russian;
const BRAZILIAN: Variant = Variant::Brazilian;
const A64: Variant = Variant::Adiyukh64;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn game(variant: Variant, text: &str) -> Game {
    Game::from_text(variant, text)
        .unwrap_or_else(|e| panic!("{variant}: position text {text:?} refused: {e}"))
}

fn search(searcher: &mut Searcher, game: &Game, limits: &Limits) -> SearchResult {
    searcher.search(game, limits, &mut |_| {})
}

fn is_legal(pos: &Position, mv: &Move) -> bool {
    pos.legal_moves().iter().any(|m| m == mv)
}

/// The search result names a legal move, and its principal variation is a
/// legal line starting with that move.
fn assert_legal_result(pos: &Position, r: &SearchResult, what: &str) {
    let best = r
        .best
        .unwrap_or_else(|| panic!("{what}: no best move in {pos}"));
    assert!(
        is_legal(pos, &best),
        "{what}: best move {best:?} is not legal in {pos}"
    );
    if let Some(first) = r.pv.first() {
        assert_eq!(
            *first,
            best,
            "{what}: the PV starts with {} but the best move is {}",
            move_text(pos, first),
            move_text(pos, &best)
        );
    }
    let mut p = *pos;
    for (i, m) in r.pv.iter().enumerate() {
        assert!(is_legal(&p, m), "{what}: PV move {i} {m:?} illegal in {p}");
        p = p.play(m);
    }
}

/// Names of moves, for messages.
fn texts(pos: &Position, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| move_text(pos, m)).collect()
}

// ---------------------------------------------------------------------------
// The solver: Russian and Brazilian (no legal move = a loss)
// ---------------------------------------------------------------------------

/// Can the side to move force a win (the opponent left with no legal move)
/// within `plies` plies, counting its own move as the first?
fn wins_within(pos: &Position, plies: u32) -> bool {
    plies > 0
        && pos
            .legal_moves()
            .iter()
            .any(|m| loses_within(&pos.play(m), plies - 1))
}

/// Does the side to move lose within `plies` plies whatever it plays (it
/// has no legal move now, or every move allows a win within `plies - 1`)?
fn loses_within(pos: &Position, plies: u32) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    plies >= 2 && moves.iter().all(|m| wins_within(&pos.play(m), plies - 1))
}

/// Every root move that wins within `bound` plies, with its shortest win in
/// plies (1 = the opponent has no move after it).
fn winning_moves(pos: &Position, bound: u32) -> Vec<(Move, u32)> {
    assert!(
        !pos.variant().is_tower(),
        "this solver is for the men-and-kings variants"
    );
    let mut found = Vec::new();
    for m in pos.legal_moves().iter() {
        let child = pos.play(m);
        if let Some(p) = (1..=bound)
            .step_by(2)
            .find(|&p| loses_within(&child, p - 1))
        {
            found.push((*m, p));
        }
    }
    found
}

/// A position where one move wins by force (hard-coded, proven each run).
struct ForcedWin {
    variant: Variant,
    text: &'static str,
    /// The only move that wins within `bound` plies.
    best: &'static str,
    /// Its shortest win, in plies (the loser is left with no move).
    plies: u32,
    /// No other move wins within this many plies.
    bound: u32,
    /// Depth given to the engine.
    depth: u32,
    what: &'static str,
}

const FORCED_WINS: &[ForcedWin] = &[
    ForcedWin {
        variant: RUSSIAN,
        text: "W:Wd4,a3,f2,f6,b2:Ba5,e3",
        best: "f2-g3",
        plies: 9,
        bound: 11,
        depth: 11,
        what: "russian: a quiet sacrifice that forces the capture",
    },
    ForcedWin {
        variant: RUSSIAN,
        text: "W:Wb4,e5,e1,b2,Kg5:Bb8,g3",
        best: "g5-e3",
        plies: 7,
        bound: 9,
        depth: 10,
        what: "russian: one king move among 17",
    },
    ForcedWin {
        variant: RUSSIAN,
        text: "W:Wg1,e5,a3,b6,b2,d4:Be3,d2,Kf6,c7,b4",
        best: "b6:d8:g5",
        plies: 5,
        bound: 7,
        depth: 8,
        what: "russian: crowned mid-capture, the new king goes on taking",
    },
    ForcedWin {
        variant: RUSSIAN,
        // The colour-reversed image of W:Wg7,Ka7,a1,e7,g5,Ke3:Be5,h6,g3,f4,b4.
        text: "B:Wd4,a3,b6,c5,g5:Bb2,Kh2,h8,d2,b4,Kd6",
        best: "b2-a1",
        plies: 7,
        bound: 9,
        depth: 10,
        what: "russian: Black to move, crowning a man wins",
    },
    ForcedWin {
        variant: BRAZILIAN,
        text: "W:Wg1,e5,a3,b6,b2,d4:Be3,d2,Kf6,c7,b4",
        best: "b6:d8",
        plies: 5,
        bound: 7,
        depth: 8,
        what: "brazilian: the capture stops on the crowning square",
    },
    ForcedWin {
        variant: BRAZILIAN,
        text: "W:Wg7,Ka7,a1,e7,g5,Ke3:Be5,h6,g3,f4,b4",
        best: "g5-f6",
        plies: 7,
        bound: 9,
        depth: 10,
        what: "brazilian: not the Russian winner g7-h8",
    },
    ForcedWin {
        variant: BRAZILIAN,
        text: "W:Wa7,Ke3,f4,g7,c1,c5:Ba5,d2,f8,h8",
        best: "e3-d4",
        plies: 9,
        bound: 11,
        depth: 11,
        what: "brazilian: a king sacrifice",
    },
    ForcedWin {
        variant: BRAZILIAN,
        // The colour-reversed image of W:Wf4,d4,Kb6,b2,Kh2:Bc3,e7,f2.
        text: "B:Wf6,d2,c7:Bc5,e5,Kg3,g7,Ka7",
        best: "a7-b8",
        plies: 5,
        bound: 7,
        depth: 8,
        what: "brazilian: Black to move, a king move",
    },
];

/// The solver's proof for one position: the winning move and its distance.
fn prove_forced_win(case: &ForcedWin) -> (Position, Move, u32) {
    let pos = *game(case.variant, case.text).position();
    assert!(
        pos.legal_moves().len() >= 3,
        "{}: test bug, a forced move is answered at depth 0 without a score",
        case.what
    );
    let started = Instant::now();
    let winners = winning_moves(&pos, case.bound);
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "{}: the solver took {took:?} (keep it under 2 s)",
        case.what
    );
    assert_eq!(
        winners.len(),
        1,
        "{} ({}): the solver finds {} moves winning within {} plies: {:?}",
        case.what,
        case.text,
        winners.len(),
        case.bound,
        winners
            .iter()
            .map(|(m, p)| (move_text(&pos, m), *p))
            .collect::<Vec<_>>()
    );
    let (mv, plies) = winners[0];
    assert_eq!(
        (move_text(&pos, &mv).as_str(), plies),
        (case.best, case.plies),
        "{} ({}): the solver's winning move and distance",
        case.what,
        case.text
    );
    (pos, mv, plies)
}

#[test]
fn forced_wins_are_proven_by_the_solver_and_found_by_the_engine() {
    let variants: Vec<Variant> = FORCED_WINS.iter().map(|c| c.variant).collect();
    assert!(variants.iter().filter(|&&v| v == RUSSIAN).count() >= 3);
    assert!(variants.iter().filter(|&&v| v == BRAZILIAN).count() >= 2);
    let mut failures = Vec::new();
    for case in FORCED_WINS {
        let (pos, mv, plies) = prove_forced_win(case);
        let want = Score::Win(plies.div_ceil(2));
        let mut searcher = Searcher::new(16, 1);
        let r = search(
            &mut searcher,
            &game(case.variant, case.text),
            &Limits::depth(case.depth),
        );
        assert_legal_result(&pos, &r, case.what);
        let got = r.best.expect("a move");
        let score = Score::from_internal(r.score);
        if got != mv || score != want {
            failures.push(format!(
                "{} ({}, depth {}): solver {} {want:?}; engine {} {score:?} (depth {}, pv {:?})",
                case.what,
                case.text,
                case.depth,
                case.best,
                move_text(&pos, &got),
                r.depth,
                texts(&pos, &r.pv)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------
// The solver: Adiyukh (no legal move = the end, worth the count difference)
// ---------------------------------------------------------------------------

/// The count difference from the side to move's view (the value of a
/// finished game), in points.
fn count_difference(pos: &Position) -> i32 {
    let (w, b) = pos.half_board_score();
    let d = w as i32 - b as i32;
    match pos.side_to_move() {
        Color::White => d,
        Color::Black => -d,
    }
}

/// Plain exhaustive minimax to the end of the game: `(value, longest game
/// in plies)`, or `None` when the tree is larger than `budget` nodes, deeper
/// than `cap` plies, or a position repeats on the path (the repetition rule
/// is not modelled, so such a tree is left unsolved).
fn adiyukh_minimax(
    pos: &Position,
    path: &mut Vec<u64>,
    cap: usize,
    budget: &mut u64,
) -> Option<(i32, u32)> {
    *budget = budget.checked_sub(1)?;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some((count_difference(pos), 0));
    }
    if path.len() >= cap || path.contains(&pos.key()) {
        return None;
    }
    path.push(pos.key());
    let mut best = i32::MIN;
    let mut longest = 0;
    for m in moves.iter() {
        let Some((v, len)) = adiyukh_minimax(&pos.play(m), path, cap, budget) else {
            path.pop();
            return None;
        };
        best = best.max(-v);
        longest = longest.max(len + 1);
    }
    path.pop();
    Some((best, longest))
}

/// Fail-soft alpha-beta to the end of the game that may answer "unknown"
/// (`None`: ply cap, node budget or a repetition on the path). A known
/// answer is a true bound: `<= alpha` an upper bound, `>= beta` a lower
/// bound, between them the exact value. Unknown children never produce an
/// upper bound; a known child reaching beta still cuts.
fn adiyukh_bound(
    pos: &Position,
    alpha: i32,
    beta: i32,
    path: &mut Vec<u64>,
    cap: usize,
    budget: &mut u64,
) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(count_difference(pos));
    }
    if path.len() >= cap || path.contains(&pos.key()) {
        return None;
    }
    path.push(pos.key());
    let mut best = i32::MIN + 1;
    let mut unknown = false;
    for m in moves.iter() {
        match adiyukh_bound(&pos.play(m), -beta, -alpha.max(best), path, cap, budget) {
            Some(v) => {
                best = best.max(-v);
                if best >= beta {
                    break;
                }
            }
            None => unknown = true,
        }
    }
    path.pop();
    (best >= beta || !unknown).then_some(best)
}

/// What the solver knows of a root move.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    /// The exact final count difference and the longest game after the
    /// move, in plies (0: the game ends with this move).
    Exact { value: i32, longest: u32 },
    /// Proven strictly below the optimum.
    Worse,
}

/// Solve the root: every move gets an exact value, or a proof that it is
/// worse than the best exact value. Returns the optimum and the verdicts.
fn solve_adiyukh(pos: &Position) -> (i32, Vec<(Move, Verdict)>) {
    const CAP: usize = 40;
    let started = Instant::now();
    let moves = pos.legal_moves();
    assert!(!moves.is_empty(), "the game is over in {pos}");
    let exact: Vec<Option<(i32, u32)>> = moves
        .iter()
        .map(|m| {
            let mut budget = 300_000;
            adiyukh_minimax(&pos.play(m), &mut vec![pos.key()], CAP, &mut budget)
                .map(|(v, len)| (-v, len))
        })
        .collect();
    let optimum = exact
        .iter()
        .flatten()
        .map(|&(v, _)| v)
        .max()
        .unwrap_or_else(|| panic!("no root move of {pos} could be solved"));
    let verdicts = moves
        .iter()
        .zip(&exact)
        .map(|(m, e)| match *e {
            Some((value, longest)) => (*m, Verdict::Exact { value, longest }),
            None => {
                // Prove value(m) <= optimum - 1: the opponent's value of
                // the child is at least 1 - optimum.
                let mut budget = 1_000_000;
                let child = pos.play(m);
                let b = adiyukh_bound(
                    &child,
                    -optimum,
                    1 - optimum,
                    &mut vec![pos.key()],
                    CAP,
                    &mut budget,
                );
                assert!(
                    b.is_some_and(|v| v > -optimum),
                    "the solver can neither solve {} in {pos} nor prove it worse than {optimum}",
                    move_text(pos, m)
                );
                (*m, Verdict::Worse)
            }
        })
        .collect();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(2),
        "the solver took {took:?} on {pos} (keep it under 2 s)"
    );
    (optimum, verdicts)
}

/// An Adiyukh position with a determined best final count.
struct BestCount {
    text: &'static str,
    /// The optimal final count difference for the side to move, in points.
    optimum: i32,
    /// The moves reaching it (all of them).
    optimal: &'static [&'static str],
    depth: u32,
    what: &'static str,
}

const BEST_COUNTS: &[BestCount] = &[
    BestCount {
        text: "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6",
        optimum: 2,
        optimal: &[
            "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:d6",
            "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:c7",
            "h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:b8",
        ],
        depth: 6,
        what: "adiyukh.md A11: the long capture ends the game 13:11",
    },
    BestCount {
        text: "W:Wf8:Bg5-1/3,g1-3/2,d6",
        optimum: 11,
        optimal: &["f8:c5"],
        depth: 12,
        what: "the king's landing square decides a 9-ply ending",
    },
    BestCount {
        text: "W:Wb8:Bd6,a3-2",
        optimum: 4,
        optimal: &["b8:g3"],
        depth: 9,
        what: "landing far from the capture is worth 4 points",
    },
];

#[test]
fn adiyukh_best_final_count_is_proven_by_the_solver_and_reached_by_the_engine() {
    let mut failures = Vec::new();
    for case in BEST_COUNTS {
        let g = game(A64, case.text);
        let pos = *g.position();
        let (optimum, verdicts) = solve_adiyukh(&pos);
        let optimal: Vec<Move> = verdicts
            .iter()
            .filter(|(_, v)| matches!(v, Verdict::Exact { value, .. } if *value == optimum))
            .map(|(m, _)| *m)
            .collect();
        let mut names = texts(&pos, &optimal);
        names.sort();
        let mut want: Vec<String> = case.optimal.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(
            (optimum, names),
            (case.optimum, want),
            "{}: the solver's optimum and optimal moves",
            case.what
        );

        let mut searcher = Searcher::new(16, 1);
        let r = search(&mut searcher, &g, &Limits::depth(case.depth));
        assert_legal_result(&pos, &r, case.what);
        let got = r.best.expect("a move");
        let verdict = verdicts
            .iter()
            .find(|(m, _)| *m == got)
            .map(|(_, v)| *v)
            .expect("the engine's move is a root move");
        match verdict {
            Verdict::Exact { value, longest } if value == optimum => {
                // The whole game after the move fits in the search (with
                // 2 plies of margin for reductions): the score is exact.
                if longest + 1 + 2 <= case.depth && r.score != 100 * optimum {
                    failures.push(format!(
                        "{} ({}): engine plays optimal {} but scores {} (want {}: the game ends within {} plies)",
                        case.what,
                        case.text,
                        move_text(&pos, &got),
                        r.score,
                        100 * optimum,
                        longest + 1
                    ));
                }
            }
            v => failures.push(format!(
                "{} ({}, depth {}): engine plays {} ({v:?}, score {}), optimum {optimum} by {:?}",
                case.what,
                case.text,
                case.depth,
                move_text(&pos, &got),
                r.score,
                case.optimal
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Adiyukh "maximises its final score" (rules/adiyukh.md): between
/// captures that all end the game at once at different counts, the engine
/// takes the largest.
#[test]
fn adiyukh_engine_takes_the_larger_final_count() {
    // (position, the best ending capture, its count difference)
    let cases = [
        // A man's capture keeps the checkers on Black's half: +5; the
        // king's captures land on White's own half: -7.
        ("W:Wc1-2,d4-2/2,f8:Bc5-1/1", "d4:b6", 5),
        // The king may land on e5 (+8) or on d4, c3, b2, a1 (-2).
        ("W:Wh8-3/1,a5-2:Bf6-1/1", "h8:e5", 8),
        // The same, colours reversed: Black to move.
        ("B:Wc3-1/1:Ba1-3/1,h4-2", "a1:d4", 8),
    ];
    for (text, best, value) in cases {
        let g = game(A64, text);
        let pos = *g.position();
        // Every move ends the game; the counts differ; one is the largest.
        let mut endings: Vec<(Move, i32)> = Vec::new();
        for m in pos.legal_moves().iter() {
            let child = pos.play(m);
            assert!(
                child.legal_moves().is_empty(),
                "{text}: {} does not end the game",
                move_text(&pos, m)
            );
            endings.push((*m, -count_difference(&child)));
        }
        let max = endings.iter().map(|e| e.1).max().expect("moves");
        let min = endings.iter().map(|e| e.1).min().expect("moves");
        let best_moves: Vec<&(Move, i32)> = endings.iter().filter(|e| e.1 == max).collect();
        assert!(min < max, "{text}: all endings score the same");
        assert_eq!(best_moves.len(), 1, "{text}: the best ending is not unique");
        assert_eq!(
            (move_text(&pos, &best_moves[0].0), max),
            (best.to_string(), value),
            "{text}: the best ending"
        );
        for depth in [1, 4] {
            let mut searcher = Searcher::new(4, 1);
            let r = search(&mut searcher, &g, &Limits::depth(depth));
            assert_legal_result(&pos, &r, text);
            let got = r.best.expect("a move");
            assert_eq!(
                (move_text(&pos, &got), r.score),
                (best.to_string(), 100 * value),
                "{text}, depth {depth}: the engine's capture and score; endings {:?}",
                endings
                    .iter()
                    .map(|(m, v)| (move_text(&pos, m), *v))
                    .collect::<Vec<_>>()
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Stopping
// ---------------------------------------------------------------------------

#[test]
fn infinite_search_stops_promptly_when_told() {
    let g = Game::new(RUSSIAN);
    let pos = *g.position();
    let mut searcher = Searcher::new(16, 1);
    let stop = searcher.stop_handle();
    let handle = thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let r = searcher.search(&g, &limits, &mut |_| {});
        (r, Instant::now())
    });
    thread::sleep(Duration::from_millis(100));
    assert!(
        !handle.is_finished(),
        "an infinite search returned before being stopped"
    );
    let stopped_at = Instant::now();
    stop.store(true, Ordering::SeqCst);
    let (r, returned_at) = handle.join().expect("the search thread panicked");
    let lag = returned_at.saturating_duration_since(stopped_at);
    assert!(
        lag <= Duration::from_millis(150),
        "the search returned {lag:?} after the stop (limit 150 ms)"
    );
    assert_legal_result(&pos, &r, "stopped infinite search");
    assert!(r.depth >= 1, "100 ms should complete depth 1");
}

#[test]
fn a_search_stopped_at_once_still_returns_a_legal_move() {
    for variant in Variant::ALL {
        let g = Game::new(variant);
        let pos = *g.position();
        let mut searcher = Searcher::new(4, 1);
        let stop = searcher.stop_handle();
        let done = Arc::new(AtomicBool::new(false));
        // Keep setting the flag (every 0.2 ms) until the search has
        // returned: the stop may come at any moment of the search.
        let stopper = {
            let done = done.clone();
            thread::spawn(move || {
                let first = Instant::now();
                while !done.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                    thread::sleep(Duration::from_micros(200));
                }
                first
            })
        };
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let r = searcher.search(&g, &limits, &mut |_| {});
        let returned = Instant::now();
        done.store(true, Ordering::SeqCst);
        let first_stop = stopper.join().expect("stopper");
        assert!(
            returned.saturating_duration_since(first_stop) < Duration::from_millis(150),
            "{variant}: the search went on {:?} after the first stop",
            returned.saturating_duration_since(first_stop)
        );
        assert_legal_result(&pos, &r, &format!("{variant}: stopped at once"));

        // A node limit of 1: the search stops at its first check.
        let mut searcher = Searcher::new(4, 1);
        let r = search(&mut searcher, &g, &Limits::nodes(1));
        assert_legal_result(&pos, &r, &format!("{variant}: nodes 1"));
        assert!(
            r.nodes <= 4096,
            "{variant}: a 1-node limit searched {} nodes",
            r.nodes
        );
    }
}

#[test]
fn a_single_legal_move_is_returned_at_once_with_depth_zero() {
    let cases = [
        (RUSSIAN, "W:Wa1,c3,g3,f6:BKh2,b6,e7,h8"),
        (BRAZILIAN, "W:Wa1,e1,c3,g3:Bb4,f4,d6,a7,h8"),
        (A64, "W:Wd4:Bc3"),
    ];
    for (variant, text) in cases {
        let g = game(variant, text);
        let pos = *g.position();
        let legal = pos.legal_moves();
        assert_eq!(legal.len(), 1, "{variant} {text}: test bug, not forced");
        for limits in [
            Limits::depth(30),
            Limits::movetime(10_000),
            Limits::nodes(u64::MAX),
        ] {
            let mut searcher = Searcher::new(4, 1);
            let started = Instant::now();
            let r = search(&mut searcher, &g, &limits);
            let took = started.elapsed();
            assert_eq!(r.best, Some(legal[0]), "{variant} {text}: the only move");
            assert_eq!(
                r.depth, 0,
                "{variant} {text}: a forced move reports depth 0"
            );
            assert!(
                took < Duration::from_millis(50),
                "{variant} {text}: a forced move took {took:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Determinism, table size, threads
// ---------------------------------------------------------------------------

/// Middlegame positions per variant (start positions and
/// engine-tests/testdata/perft.txt).
fn determinism_positions() -> Vec<(Variant, &'static str)> {
    vec![
        (RUSSIAN, RUSSIAN.start_fen()),
        (RUSSIAN, "W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8"),
        (BRAZILIAN, BRAZILIAN.start_fen()),
        (BRAZILIAN, "W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8"),
        (A64, A64.start_fen()),
        (
            A64,
            "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1,e3,f2,g1,g3,h2:Bb8,c7,e5-2,e7,f8,g7,h6,h8",
        ),
        (Variant::Adiyukh80, Variant::Adiyukh80.start_fen()),
    ]
}

#[test]
fn one_thread_searches_are_deterministic() {
    for (variant, text) in determinism_positions() {
        for limits in [Limits::depth(9), Limits::nodes(200_000)] {
            let g = game(variant, text);
            let run = || {
                let mut searcher = Searcher::new(16, 1);
                let r = search(&mut searcher, &g, &limits);
                (r.best, r.score, r.nodes, r.depth)
            };
            let a = run();
            let b = run();
            assert!(a.0.is_some(), "{variant} {text}: no move");
            assert_eq!(
                a, b,
                "{variant} {text} {limits:?}: two fresh 1-thread searches differ"
            );
        }
    }
}

#[test]
fn a_new_game_searches_as_a_fresh_searcher_does() {
    // A searcher keeps what it learnt from one search of a game to the next
    // (the table, the history of the quiet moves); `clear` (a new game)
    // forgets all of it, so the first search of the next game is the same,
    // node for node, as a new searcher's.
    for (variant, text) in determinism_positions() {
        let g = game(variant, text);
        let limits = Limits::depth(9);
        let fresh = search(&mut Searcher::new(16, 1), &g, &limits);
        let mut used = Searcher::new(16, 1);
        let earlier = game(variant, variant.start_fen());
        search(&mut used, &earlier, &Limits::depth(10));
        used.clear();
        let again = search(&mut used, &g, &limits);
        assert_eq!(
            (fresh.best, fresh.score, fresh.nodes),
            (again.best, again.score, again.nodes),
            "{variant} {text}: the search after a new game differs from a fresh searcher's"
        );
    }
}

#[test]
fn transposition_table_keeps_to_its_size() {
    for mib in [1usize, 2, 3, 5, 16, 33, 64] {
        let limit = mib << 20;
        let t = TranspositionTable::new(mib);
        assert!(
            t.size_bytes() <= limit,
            "TranspositionTable::new({mib}) uses {} bytes > {limit}",
            t.size_bytes()
        );
        assert!(
            t.size_bytes() > limit / 2,
            "TranspositionTable::new({mib}) uses only {} bytes",
            t.size_bytes()
        );
        let s = Searcher::new(mib, 1);
        assert!(
            s.tt().size_bytes() <= limit,
            "Searcher::new({mib}, 1) table uses {} bytes > {limit}",
            s.tt().size_bytes()
        );
    }
}

#[test]
fn two_threads_return_legal_moves_and_find_the_forced_wins() {
    let mut searcher = Searcher::new(16, 2);
    for (variant, text) in determinism_positions() {
        let g = game(variant, text);
        let pos = *g.position();
        // The same searcher again and again: the table carries over.
        for depth in [6, 8] {
            let mut last = None;
            let r = searcher.search(&g, &Limits::depth(depth), &mut |i| last = Some(i.clone()));
            assert_legal_result(&pos, &r, &format!("{variant} {text}, 2 threads"));
            // Whichever thread completed the depth first, the result and
            // the last report are of that depth and agree.
            if pos.legal_moves().len() > 1 {
                assert_eq!(r.depth, depth, "{variant} {text}: depth limit reached");
                let last = last.expect("a report");
                assert_eq!(last.depth, depth, "{variant} {text}");
                assert_eq!(last.pv.first(), r.best.as_ref(), "{variant} {text}");
            }
        }
    }
    // The proven wins: two threads find the same move and distance.
    let mut failures = Vec::new();
    for case in FORCED_WINS {
        let (pos, mv, plies) = prove_forced_win(case);
        let mut searcher = Searcher::new(16, 2);
        let r = search(
            &mut searcher,
            &game(case.variant, case.text),
            &Limits::depth(case.depth),
        );
        assert_legal_result(&pos, &r, case.what);
        let score = Score::from_internal(r.score);
        if r.best != Some(mv) || score != Score::Win(plies.div_ceil(2)) {
            failures.push(format!(
                "{} ({}), 2 threads: engine {} {score:?}, solver {} in {plies} plies",
                case.what,
                case.text,
                move_text(&pos, &r.best.expect("a move")),
                case.best
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Weights given to the searcher are the ones it evaluates with: tripling
/// every hand-shaped parameter (no pattern weights) triples a depth-1 score
/// of a quiet position whose leaves are all quiet too (the hand-shaped
/// evaluation is linear in the weights there), and dropping back to the
/// built-in weights restores their score, patterns included.
#[test]
fn searcher_uses_the_weights_it_is_given() {
    use shashki::eval::weights::Weights;
    let game = Game::new(Variant::Russian);
    let mut s = Searcher::new(4, 1);
    let built_in = s.search(&game, &Limits::depth(1), &mut |_| {}).score;
    let hand = Weights::from_slice(&Weights::for_variant(Variant::Russian).to_vec());
    assert!(hand.as_ref().is_some_and(|w| w.patterns.is_none()));
    s.set_weights(hand);
    s.clear();
    let base = s.search(&game, &Limits::depth(1), &mut |_| {}).score;
    let tripled_w: Vec<i32> = Weights::for_variant(Variant::Russian)
        .to_vec()
        .iter()
        .map(|x| x * 3)
        .collect();
    s.set_weights(Weights::from_slice(&tripled_w));
    s.clear();
    let tripled = s.search(&game, &Limits::depth(1), &mut |_| {}).score;
    assert_ne!(base, 0, "the start position's best reply must score");
    assert!(
        (tripled - 3 * base).abs() <= 3,
        "tripled weights: {tripled}, hand-shaped: {base}"
    );
    // The built-in weights are not the hand-shaped ones alone (patterns).
    assert_ne!(built_in, base);
    s.set_weights(None);
    s.clear();
    assert_eq!(
        s.search(&game, &Limits::depth(1), &mut |_| {}).score,
        built_in
    );
}

/// Whether every reply of the side to move of `pos` leaves the opponent a
/// capture (and there is at least one reply).
fn every_reply_allows_a_capture(pos: &Position) -> bool {
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies.iter().all(|r| {
            let after = pos.play(r);
            after.legal_moves().iter().any(|m| m.is_capture())
        })
}

#[test]
fn a_depth_one_search_sees_a_threat_that_cannot_be_met() {
    // White's king b6 has no capture. On d4 it threatens f6 along the long
    // diagonal, and no reply meets the threat: f6 has no safe square (e5
    // stands next to the king, g5 is Black's own), and the other men's
    // moves leave f6 where it was (h6 blocks the king's other threat, on
    // g5, from e3). A quiet leaf that the opponent threatens is searched
    // a ply on (the threat search), so even a depth-1 search sees the man
    // won; the static value of the leaf does not (without the threat
    // search, depth 1 plays b6-c5 here).
    let text = "W:WKb6,a1,c1,e1,g1:Bf6,g5,a7,b8,d8,h6";
    for variant in [RUSSIAN, BRAZILIAN] {
        let g = game(variant, text);
        let pos = g.position();
        assert!(
            pos.legal_moves().iter().all(|m| !m.is_capture()),
            "{variant} {text}: White must have no capture"
        );
        let mut searcher = Searcher::new(16, 1);
        let r = search(&mut searcher, &g, &Limits::depth(1));
        assert_legal_result(pos, &r, text);
        let best = r.best.unwrap();
        assert!(
            every_reply_allows_a_capture(&pos.play(&best)),
            "{variant} {text}: depth 1 played {}, which threatens nothing unstoppable",
            move_text(pos, &best)
        );
    }
}

//! Named endings against the endgame tables (issue 13).
//!
//! The tables up to four pieces are built for Russian and Brazilian into a
//! scratch folder (once per variant for the whole test binary), then
//! classical endings are looked up: three kings against a king (rules 7.2.4
//! and 7.2.7, Petrov's triangle), two kings against a king (7.2.8), a race
//! of men, and a capture where Brazilian and Russian differ. Each expected
//! value comes from the rule book (`docs/rules/`) and the theory of the
//! ending, argued in a comment beside the position; none is taken from the
//! program.
//!
//! As a second, independent opinion, every named position is also solved by
//! a small exact prover written here: a depth-bounded AND-OR search over
//! (position, counters), the counters being those of `egdb.rs` (this
//! binary's own reading of 7.2.4-7.2.8, not the engine's). For Petrov's
//! triangle the prover's winning strategy is then played through
//! `shashki::game::Game` against every defence, and each line must end in
//! a win before any of the game's draw rules fires.
//!
//! The values, as in the tables, count every rule from the position given
//! (every counter at zero).

use crate::common::position;
use crate::counting::Counts;
use crate::egdb::built;
use shashki::egdb::{Tables, Wdl};
use shashki::game::{EndReason, Game, GameResult};
use shashki::movegen::count_moves;
use shashki::{fen, Color, Position, Variant};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// The tables of `variant` up to four pieces (built once for this binary,
/// see [`built`]).
fn tables(variant: Variant) -> &'static Tables {
    static RUSSIAN: OnceLock<Tables> = OnceLock::new();
    static BRAZILIAN: OnceLock<Tables> = OnceLock::new();
    let cell = match variant {
        Variant::Russian => &RUSSIAN,
        Variant::Brazilian => &BRAZILIAN,
        v => panic!("no tables for {v}"),
    };
    cell.get_or_init(|| {
        let t = Tables::open(built(variant), variant, 4).unwrap();
        assert_eq!(t.pieces(), 4);
        t
    })
}

/// A depth-bounded exact prover under the counting rules (the counters of
/// `egdb.rs`): `wins(pos, c, d)` when the side to move forces the other side
/// out of pieces or moves within `d` plies, no counting rule ending the game
/// first; `loses` the other way round. Repetition is not looked at: a line
/// the winner shortens with each move never repeats a position. One prover
/// may answer many positions (they share most of what they reach).
#[derive(Default)]
struct Prover {
    /// (position key, plies of the counts with `d` and which question) ->
    /// (least depth known enough, greatest depth known not to be).
    memo: HashMap<(u64, u64), (u8, u8), BuildHasherDefault<Mix>>,
    /// Some answer was "no" only because the depth ran out.
    cut: bool,
}

/// A quick hash for keys that are hashes already.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(26) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 31)
    }
}

impl Prover {
    fn key(pos: &Position, c: Counts, loses: bool) -> (u64, u64) {
        (pos.key(), c.packed() | (loses as u64) << 56)
    }

    fn lookup(&self, key: (u64, u64), d: u8) -> Option<bool> {
        let &(yes, no) = self.memo.get(&key)?;
        if d >= yes {
            Some(true)
        } else if d <= no {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, key: (u64, u64), d: u8, answer: bool) {
        let e = self.memo.entry(key).or_insert((u8::MAX, 0));
        if answer {
            e.0 = e.0.min(d);
        } else {
            e.1 = e.1.max(d);
        }
    }

    /// The side to move wins within `d` plies.
    fn wins(&mut self, pos: &Position, c: Counts, d: u8) -> bool {
        if d == 0 || count_moves(pos) == 0 || c.drawn(pos.occupied().count_ones()) {
            return false;
        }
        let key = Self::key(pos, c, false);
        if let Some(a) = self.lookup(key, d) {
            return a;
        }
        let moves = pos.legal_moves();
        let mut children: Vec<_> = moves
            .iter()
            .map(|m| {
                let ch = pos.play(m);
                (m, ch, count_moves(&ch))
            })
            .collect();
        let mut answer = children.iter().any(|&(_, _, n)| n == 0);
        if !answer {
            // Fewest replies first: the quickest wins are usually there.
            children.sort_by_key(|&(_, _, n)| n);
            if d >= 3 {
                for (m, ch, _) in &children {
                    if self.loses(ch, c.after(pos, m, ch), d - 1) {
                        answer = true;
                        break;
                    }
                }
            } else {
                self.cut = true;
            }
        }
        self.store(key, d, answer);
        answer
    }

    /// The side to move loses within `d` plies (has no move now, or every
    /// move lets the other side win within `d - 1`).
    fn loses(&mut self, pos: &Position, c: Counts, d: u8) -> bool {
        if count_moves(pos) == 0 {
            return true;
        }
        if c.drawn(pos.occupied().count_ones()) {
            return false;
        }
        if d < 2 {
            self.cut = true;
            return false;
        }
        let key = Self::key(pos, c, true);
        if let Some(a) = self.lookup(key, d) {
            return a;
        }
        let moves = pos.legal_moves();
        let mut children: Vec<_> = moves
            .iter()
            .map(|m| {
                let ch = pos.play(m);
                (m, ch, count_moves(&ch))
            })
            .collect();
        let mut answer = !children.iter().any(|&(_, _, n)| n == 0);
        if answer {
            // Most replies first (no capture forced on the other side): the
            // likeliest escape, found before a lost move is proved lost.
            children.sort_by_key(|&(_, _, n)| std::cmp::Reverse(n));
            for (m, ch, _) in &children {
                if !self.wins(ch, c.after(pos, m, ch), d - 1) {
                    answer = false;
                    break;
                }
            }
        }
        self.store(key, d, answer);
        answer
    }
}

/// Every ending here is over within this many plies under the counting
/// rules (7.2.4's 30 plies, then 10 for each lone-king rule after a capture;
/// men only step forward); the prover checks that the bound was never met.
const ALL_PLIES: u8 = 99;

impl Prover {
    /// The value of `pos` with every counter at zero.
    fn value(&mut self, pos: &Position) -> Wdl {
        let c = Counts::start(pos);
        let v = if self.wins(pos, c, ALL_PLIES) {
            Wdl::Win
        } else if self.loses(pos, c, ALL_PLIES) {
            Wdl::Loss
        } else {
            Wdl::Draw
        };
        assert!(
            !self.cut,
            "{}: the prover ran out of depth",
            fen::position_text(pos)
        );
        v
    }
}

/// One named position: the value the rule book and theory give it.
struct Case {
    text: &'static str,
    want: Wdl,
}

/// Each case's table value and the prover's must be the expected one;
/// every disagreement is reported (not only the first).
fn check(variant: Variant, cases: &[Case]) {
    let t = tables(variant);
    let mut prover = Prover::default();
    let mut wrong = Vec::new();
    for case in cases {
        let pos = position(variant, case.text);
        let got = t.probe(&pos);
        let started = std::time::Instant::now();
        let solver = prover.value(&pos);
        eprintln!(
            "{variant} {}: {solver:?}, proved in {:.2} s",
            case.text,
            started.elapsed().as_secs_f64()
        );
        if got != Some(case.want) || solver != case.want {
            wrong.push(format!(
                "{variant} {}: expected {:?}, table {got:?}, prover {solver:?}",
                case.text, case.want
            ));
        }
    }
    assert!(t.take_errors().is_empty());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Brazilian keeps Russian's draw rules (brazilian.md: "Draw rules: as for
/// Russian"), and the arguments below use no capture where the two rule
/// sets differ (a choice between captures, a man reaching the far rank in
/// the middle of one), so each value holds in both.
const BOTH: [Variant; 2] = [Variant::Russian, Variant::Brazilian];

/// Three kings against a lone king: 7.2.4 (15 moves, 30 plies, counted from
/// the position) and, while the lone king stands on the main road a1-h8,
/// 7.2.7 (5 moves, 10 plies).
#[test]
fn three_kings_against_a_king() {
    let cases = [
        // Petrov's position (A. D. Petrov, 1827): White kings a1, c1, e1
        // against f8. The three kings hold the main road (a1) and the lone
        // king is off it: theory (Petrov's triangle) catches it by the 13th
        // move at the latest, within 7.2.4's 15. A win.
        Case {
            text: "W:WKa1,Kc1,Ke1:BKf8",
            want: Wdl::Win,
        },
        // The same with Black to move. From f8 the king reaches g7, h6, e7,
        // d6, c5, b4, a3; g7 is on the main road, where a1 takes it
        // (a1:h8, b2-f6 empty, h8 empty); nothing else puts it on the road,
        // and it has nothing to capture. So White, to move, still holds the
        // road with the king off it: caught within 13 more moves; with
        // Black's move first, White's 15th move is ply 30, the last one
        // 7.2.4 allows. A loss for Black.
        Case {
            text: "B:WKa1,Kc1,Ke1:BKf8",
            want: Wdl::Loss,
        },
        // Timoneda's version (1635): a1, c1, e1 against c7, White to move.
        // Road held, lone king off it: a win by the same method.
        Case {
            text: "W:WKa1,Kc1,Ke1:BKc7",
            want: Wdl::Win,
        },
        // The lone king on the main road (e5), White's kings on the first
        // rank, none on the road or on e5's other diagonal b8-h2: no
        // capture now. Theory: three kings do not catch a king that holds
        // the main road (only a combination at once can), and 7.2.7 ends
        // the game after White's 5th move. A draw, with either side to
        // move (Black has nothing to capture either).
        Case {
            text: "W:WKc1,Ke1,Kg1:BKe5",
            want: Wdl::Draw,
        },
        Case {
            text: "B:WKc1,Ke1,Kg1:BKe5",
            want: Wdl::Draw,
        },
        // On the road but caught at once: g1 takes d4 along g1-a7 (f2, e3
        // empty, c5 empty). 7.2.7 saves no king that is taken on the spot.
        Case {
            text: "W:WKc1,Ke1,Kg1:BKd4",
            want: Wdl::Win,
        },
        // Off the road, nobody holding it, Black to move: b8-e5 (b8-h2
        // crosses the road at e5; c7, d6 empty) reaches the position above,
        // a draw (with one of 7.2.4's plies used, which only helps Black);
        // Black cannot win. A draw.
        Case {
            text: "B:WKc1,Ke1,Kg1:BKb8",
            want: Wdl::Draw,
        },
        // The same with White to move: White takes the road first, e.g.
        // e1-c3 (b8's diagonals b8-h2 and b8-a7 do not reach c3, so it
        // cannot be taken), and then holds it with the king off it: caught
        // within 13 more moves, 14 in all, inside 7.2.4's 15. A win.
        Case {
            text: "W:WKc1,Ke1,Kg1:BKb8",
            want: Wdl::Win,
        },
    ];
    for v in BOTH {
        check(v, &cases);
    }
}

/// Two kings against a king (7.2.8: won by the stronger side's 5th move or
/// drawn): a draw unless the lone king is caught at once.
#[test]
fn two_kings_against_a_king() {
    let cases = [
        // The lone king in the middle of the main road, White's kings on
        // the first rank (neither on a1-h8 nor on a7-g1): nothing to take
        // for either side. Two kings cannot catch a free king; 7.2.8 gives
        // them 5 moves for a combination, and none is here. A draw with
        // either side to move.
        Case {
            text: "W:WKc1,Ke1:BKd4",
            want: Wdl::Draw,
        },
        Case {
            text: "B:WKc1,Ke1:BKd4",
            want: Wdl::Draw,
        },
        // Caught at once: a1 takes d4 (b2, c3 empty, e5 empty).
        Case {
            text: "W:WKa1,Kc1:BKd4",
            want: Wdl::Win,
        },
        // The corner trap. h8 lies only on the main road, so Black's king
        // moves only along it (g7 ... b2), and a1, at the road's other end,
        // takes it on any of those squares (the squares between empty, the
        // one beyond empty); it cannot take a1 (no square beyond). Black
        // to move: every move loses a piece, the only one. A loss.
        Case {
            text: "B:WKa1,Ke1:BKh8",
            want: Wdl::Loss,
        },
        // White to move waits off the road (e1-d2), and then the same: a
        // win on White's 2nd move, within 7.2.8's 5.
        Case {
            text: "W:WKa1,Ke1:BKh8",
            want: Wdl::Win,
        },
        // One king against one: a king on an edge square can never be
        // taken (no square beyond it), and the side to move can always
        // slide to the end of one of its diagonals (the other king blocks
        // at most one direction). So whoever cannot take at once draws:
        // here c1 and h6 share c1-h6 but both stand on the edge. A draw.
        Case {
            text: "W:WKc1:BKh6",
            want: Wdl::Draw,
        },
        // And a king that can take at once wins: d4 takes f6 (e5 empty,
        // g7 empty). 7.2.8 counts only from here.
        Case {
            text: "W:WKd4:BKf6",
            want: Wdl::Win,
        },
    ];
    for v in BOTH {
        check(v, &cases);
    }
}

/// A race of men: who crowns first, and whether the new king stops the
/// other man.
#[test]
fn a_race_of_men() {
    let cases = [
        // White man g7, Black man b4 (Black's men go down the board).
        // White to move: g7-h8 crowns on the main road. Black: b4-c3 puts
        // the man on the road, and h8 takes it (g7-d4 empty, b2 empty);
        // b4-a3 (the edge, safe for a move), then White waits on the road
        // (h8-g7) and a3's only move, a3-b2, is onto the road again: g7
        // takes it (a1 beyond, empty). A win.
        Case {
            text: "W:Wg7:Bb4",
            want: Wdl::Win,
        },
        // Black to move: b4-c3. White crowns (g7-h8 or g7-f8; the man
        // cannot reach c3, a man takes only next to it), and c3-d2 leaves
        // the road: neither h8 nor f8 sees d2, so White has no capture, and
        // next move the man crowns on c1 or e1 (White's king can stand on
        // one of them, not both; it must not stand next to d2 with the
        // square beyond empty, or the man takes it). A king on the edge
        // cannot be taken, and one king against one without a capture at
        // once is a draw (see two_kings_against_a_king). A draw.
        Case {
            text: "B:Wg7:Bb4",
            want: Wdl::Draw,
        },
        // The same turned 180 degrees with the colours swapped (a1-h8 maps
        // onto itself): Black wins with the move, draws without it.
        Case {
            text: "B:Wg5:Bb2",
            want: Wdl::Win,
        },
        Case {
            text: "W:Wg5:Bb2",
            want: Wdl::Draw,
        },
        // Both crown at once: a7-b8 and h2-g1 are each side's only move,
        // and neither man can be taken on the way (edge squares). Then one
        // king against one, both on the edge, nothing to take: a draw with
        // either side to move.
        Case {
            text: "W:Wa7:Bh2",
            want: Wdl::Draw,
        },
        Case {
            text: "B:Wa7:Bh2",
            want: Wdl::Draw,
        },
    ];
    for v in BOTH {
        check(v, &cases);
    }
}

/// Where Brazilian's rules differ: a man that reaches the far rank in a
/// capture goes on as a king in Russian, and stays a man (ending the move
/// there if no man's jump follows) in Brazilian.
#[test]
fn crowning_in_a_capture_russian_against_brazilian() {
    // White man b6, Black man c7 and king g5, White to move. The capture
    // is compulsory and b6:d8 is the only one.
    // Russian: the man is crowned on d8 in the capture and goes on as a
    // king: d8:h4 over g5 (e7, f6 empty, h4 empty). Black has nothing
    // left: a win.
    check(
        Variant::Russian,
        &[Case {
            text: "W:Wb6:Bc7,Kg5",
            want: Wdl::Win,
        }],
    );
    // Brazilian: on d8 a man has no jump (c7 is taken already, e7 empty),
    // so the move ends there and the man becomes a king: one king against
    // one, Black to move. g5 cannot take d8 (an edge square, nothing
    // beyond), and one king against one without a capture at once is a
    // draw (see two_kings_against_a_king).
    check(
        Variant::Brazilian,
        &[Case {
            text: "W:Wb6:Bc7,Kg5",
            want: Wdl::Draw,
        }],
    );
}

/// Petrov's triangle played out: the prover finds the shortest win of
/// White's three kings from Petrov's position under the counters, which must
/// be within 7.2.4's 15 moves; then its strategy (always a fastest winning
/// move) is played in a `Game` against every Black defence, and every line
/// must end with Black out of pieces or moves, never by a draw rule of the
/// game's own counters.
#[test]
fn petrovs_triangle_wins_within_fifteen_moves() {
    for variant in BOTH {
        let text = "W:WKa1,Kc1,Ke1:BKf8";
        let pos = position(variant, text);
        assert_eq!(tables(variant).probe(&pos), Some(Wdl::Win));
        let started = std::time::Instant::now();
        let c = Counts::start(&pos);
        let mut p = Prover::default();
        let plies = (1..=29u8)
            .step_by(2)
            .find(|&d| p.wins(&pos, c, d))
            .unwrap_or_else(|| panic!("{variant} {text}: no win within 15 moves"));
        // Theory: the triangle needs at most 13 moves (25 plies).
        assert!(
            plies <= 25,
            "{variant} {text}: the fastest win takes {plies} plies"
        );
        let mut game = Game::from_position(pos);
        let mut seen = HashSet::new();
        let mut lines = 0u64;
        walk(&mut p, &mut game, c, plies, &mut seen, &mut lines);
        eprintln!(
            "{variant} {text}: won in {plies} plies against best defence; {} positions, {lines} lines ended, {:.1} s",
            seen.len(),
            started.elapsed().as_secs_f64()
        );
    }
}

/// White to move in `game` wins within `d` plies (the prover says so): play
/// a fastest winning move, then every reply, and so on.
fn walk(
    p: &mut Prover,
    game: &mut Game,
    c: Counts,
    d: u8,
    seen: &mut HashSet<(u64, Counts)>,
    lines: &mut u64,
) {
    let pos = *game.position();
    let moves = pos.legal_moves();
    let mut chosen = None;
    'find: for dd in (1..=d).step_by(2) {
        for m in moves.iter() {
            let ch = pos.play(m);
            let fast = if dd == 1 {
                count_moves(&ch) == 0
            } else {
                p.loses(&ch, c.after(&pos, m, &ch), dd - 1)
            };
            if fast {
                chosen = Some((*m, ch, dd));
                break 'find;
            }
        }
    }
    let (m, ch, dd) = chosen.unwrap_or_else(|| {
        panic!(
            "{}: the prover's win within {d} plies has no move",
            fen::position_text(&pos)
        )
    });
    let c1 = c.after(&pos, &m, &ch);
    game.play(&m).unwrap();
    match game.outcome() {
        Some(o) => {
            assert!(
                o.result == GameResult::WhiteWins
                    && matches!(o.reason, EndReason::NoPieces | EndReason::NoMoves),
                "{}: the game ends {o} after {} plies",
                fen::position_text(game.start()),
                game.moves().len()
            );
            *lines += 1;
        }
        None => {
            assert!(dd >= 3, "the game goes on after a winning last move");
            for r in game.position().legal_moves().iter() {
                let before = *game.position();
                game.play(r).unwrap();
                let after = *game.position();
                assert_eq!(after.side_to_move(), Color::White);
                if let Some(o) = game.outcome() {
                    panic!(
                        "{}: the game ends {o} after {} plies, with White to win",
                        fen::position_text(game.start()),
                        game.moves().len()
                    );
                }
                let c2 = c1.after(&before, r, &after);
                if seen.insert((after.key(), c2)) {
                    walk(p, game, c2, dd - 2, seen, lines);
                }
                game.undo();
            }
        }
    }
    game.undo();
}

//! Endgame tables against an independent solver.
//!
//! The tables up to four pieces are built for Russian and Brazilian into a
//! scratch folder, then positions are valued by a solver written here from
//! the rule book alone: a plain minimax over (position, counters of the
//! counting rules 7.2.4-7.2.8 kept by this file's own code), with no table,
//! no retrograde pass and nothing of the generator but the move generator.
//! Every position with up to three pieces is checked. The four-piece
//! tables are built and checked for consistency (`egdb verify`); a plain
//! solver is far too slow for them (one four-piece position can reach
//! millions of (position, counts) states), so their independent check
//! needs a smarter solver: not done yet.

use shashki::board::{Color, Geometry};
use shashki::egdb::build::{build, BuildOptions};
use shashki::egdb::{Combo, Tables, Wdl};
use shashki::{Move, Position, Variant};
use std::collections::HashMap;
use std::path::PathBuf;

/// A scratch folder of this process (removed first if it is there).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shashki-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The counters of the counting rules, as russian.md states them. Each
/// rule's count runs while its condition holds with the same material
/// "balance" (its signature) and starts again when the balance changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Counts {
    /// 7.2.5: plies in a row in which a king moved without capturing.
    king_moves: u8,
    /// (signature, plies) of 7.2.4, 7.2.6, 7.2.7, 7.2.8.
    r724: (u32, u8),
    r726: (u32, u8),
    r727: (u32, u8),
    r728: (u32, u8),
}

/// Men and kings of a side.
fn material(pos: &Position, c: Color) -> (u32, u32) {
    let own = pos.pieces(c);
    let k = (own & pos.kings()).count_ones();
    (own.count_ones() - k, k)
}

fn on_main_road(pos: &Position, c: Color) -> bool {
    let g = Geometry::BOARD_64;
    (0..8u8).any(|i| pos.pieces(c) & g.square(i, i).unwrap().bb() != 0)
}

/// The balance each rule looks at, 0 where its condition does not hold.
fn signatures(pos: &Position) -> [u32; 4] {
    let (wm, wk) = material(pos, Color::White);
    let (bm, bk) = material(pos, Color::Black);
    let total = wm + wk + bm + bk;
    let mut s = [0u32; 4];
    for (weak, (lm, lk), (sm, sk)) in [
        (Color::Black, (bm, bk), (wm, wk)),
        (Color::White, (wm, wk), (bm, bk)),
    ] {
        // A lone king against a side with a king.
        if lm == 0 && lk == 1 && sk >= 1 {
            let tag = 100 * total + weak as u32 + 1;
            let strong = sm + sk;
            // 7.2.4: three kings or more (and nothing else).
            if strong >= 3 && sm == 0 {
                s[0] |= tag;
            }
            // 7.2.7: three pieces, the lone king on the main road.
            if strong == 3 && on_main_road(pos, weak) {
                s[2] |= tag;
            }
            // 7.2.8: two pieces or one.
            if strong <= 2 {
                s[3] |= tag;
            }
        }
    }
    // 7.2.6: kings on both sides, 4 to 7 pieces, this very material.
    if wk >= 1 && bk >= 1 && (4..=7).contains(&total) {
        s[1] = 1 + (wm + 10 * wk + 100 * bm + 1000 * bk);
    }
    s
}

fn run(prev: (u32, u8), sig: u32) -> (u32, u8) {
    match sig {
        0 => (0, 0),
        s if s == prev.0 => (s, prev.1 + 1),
        s => (s, 0),
    }
}

impl Counts {
    pub(crate) fn start(pos: &Position) -> Counts {
        let s = signatures(pos);
        Counts {
            king_moves: 0,
            r724: (s[0], 0),
            r726: (s[1], 0),
            r727: (s[2], 0),
            r728: (s[3], 0),
        }
    }

    pub(crate) fn after(&self, before: &Position, m: &Move, pos: &Position) -> Counts {
        let s = signatures(pos);
        let king_move = !m.is_capture() && before.kings() & m.from().bb() != 0;
        Counts {
            king_moves: if king_move { self.king_moves + 1 } else { 0 },
            r724: run(self.r724, s[0]),
            r726: run(self.r726, s[1]),
            r727: run(self.r727, s[2]),
            r728: run(self.r728, s[3]),
        }
    }

    /// The plies of every count in one number. The signatures are left
    /// out: each is a function of the position the counts belong to.
    pub(crate) fn packed(&self) -> u64 {
        u64::from_le_bytes([
            self.king_moves,
            self.r724.1,
            self.r726.1,
            self.r727.1,
            self.r728.1,
            0,
            0,
            0,
        ])
    }

    /// Whether a counting rule has ended the game.
    pub(crate) fn drawn(&self, pieces: u32) -> bool {
        let r726 = if pieces <= 5 { 60 } else { 120 };
        (self.r728.0 != 0 && self.r728.1 >= 10)
            || (self.r727.0 != 0 && self.r727.1 >= 10)
            || (self.r724.0 != 0 && self.r724.1 >= 30)
            || self.king_moves >= 30
            || (self.r726.0 != 0 && self.r726.1 >= r726)
    }
}

/// Plain minimax with a memo: 1 win, 0 draw, -1 loss for the side to move.
/// Repetition is not looked at: with every line bounded by the counts or by
/// men that only move forward, the side that wins never needs to repeat a
/// position, and a draw stays a draw.
struct Oracle {
    memo: HashMap<(u64, Counts), i8>,
}

impl Oracle {
    fn value(&mut self, pos: &Position, counts: Counts) -> i8 {
        if let Some(&v) = self.memo.get(&(pos.key(), counts)) {
            return v;
        }
        let moves = pos.legal_moves();
        let v = if moves.is_empty() {
            -1
        } else if counts.drawn(pos.occupied().count_ones()) {
            0
        } else {
            let mut best = -1;
            // Captures and crownings first: wins are often found there.
            let mut order: Vec<&Move> = moves.iter().collect();
            order.sort_by_key(|m| !(m.is_capture() || m.promotes()));
            for m in order {
                let child = pos.play(m);
                if child.pieces(child.side_to_move()) == 0 {
                    best = 1;
                    break;
                }
                best = best.max(-self.value(&child, counts.after(pos, m, &child)));
                if best == 1 {
                    break;
                }
            }
            best
        };
        self.memo.insert((pos.key(), counts), v);
        v
    }
}

fn wdl(v: i8) -> Wdl {
    match v {
        1 => Wdl::Win,
        0 => Wdl::Draw,
        _ => Wdl::Loss,
    }
}

/// Every placement of `pieces` (as men and kings of either colour) with
/// both sides present, both sides to move; `every` > 1 keeps one in that
/// many (seeded by position in the enumeration).
fn placements(variant: Variant, n: usize, every: usize, mut f: impl FnMut(Position)) {
    let g = Geometry::BOARD_64;
    let squares: Vec<(u8, u8)> = (0..8u8)
        .flat_map(|r| (0..8u8).map(move |c| (c, r)))
        .filter(|&(c, r)| g.square(c, r).is_some())
        .collect();
    let mut count = 0usize;
    let mut chosen = vec![0usize; n];
    fn rec(
        k: usize,
        start: usize,
        n: usize,
        chosen: &mut Vec<usize>,
        squares: &[(u8, u8)],
        emit: &mut dyn FnMut(&[usize]),
    ) {
        if k == n {
            emit(chosen);
            return;
        }
        for i in start..squares.len() {
            chosen[k] = i;
            rec(k + 1, i + 1, n, chosen, squares, emit);
        }
    }
    let mut emit = |sq: &[usize]| {
        // Each piece: white man, white king, black man, black king.
        for kinds in 0..4usize.pow(n as u32) {
            let mut w = Vec::new();
            let mut b = Vec::new();
            let mut ok = true;
            for (j, &s) in sq.iter().enumerate() {
                let (c, r) = squares[s];
                let name = format!("{}{}", (b'a' + c) as char, r + 1);
                match (kinds >> (2 * j)) & 3 {
                    0 if r == 7 => ok = false,
                    0 => w.push(name),
                    1 => w.push(format!("K{name}")),
                    2 if r == 0 => ok = false,
                    2 => b.push(name),
                    _ => b.push(format!("K{name}")),
                }
            }
            if !ok || w.is_empty() || b.is_empty() {
                continue;
            }
            for side in ["W", "B"] {
                count += 1;
                if count % every != 0 {
                    continue;
                }
                let text = format!("{side}:W{}:B{}", w.join(","), b.join(","));
                f(shashki::fen::parse_position(variant, &text).unwrap());
            }
        }
    };
    rec(0, 0, n, &mut chosen, &squares, &mut emit);
}

#[test]
fn tables_up_to_three_pieces_agree_with_an_independent_solver() {
    for variant in [Variant::Russian, Variant::Brazilian] {
        let dir = scratch(variant.id());
        let opts = BuildOptions {
            variant,
            pieces: 4,
            dir: dir.clone(),
            only: None,
        };
        build(&opts, &mut |_| {}).unwrap();
        let tables = Tables::open(&dir, variant, 4).unwrap();
        assert_eq!(tables.pieces(), 4);
        let mut checked = [0usize; 4];
        let mut by_value = HashMap::new();
        let mut combos = std::collections::HashSet::new();
        for (n, checked_n) in checked.iter_mut().enumerate().skip(2) {
            let mut oracle = Oracle {
                memo: HashMap::new(),
            };
            let started = std::time::Instant::now();
            placements(variant, n, 1, |pos| {
                let want = wdl(oracle.value(&pos, Counts::start(&pos)));
                let got = tables.probe(&pos);
                assert_eq!(
                    got,
                    Some(want),
                    "{variant} {}: table {got:?}, solver {want:?}",
                    shashki::fen::position_text(&pos)
                );
                *checked_n += 1;
                combos.insert(Combo::of(&pos).0);
                *by_value.entry((n, want as u8)).or_insert(0usize) += 1;
            });
            eprintln!(
                "{variant}: {n} pieces: {} positions, {} states solved in {:.1} s",
                checked_n,
                oracle.memo.len(),
                started.elapsed().as_secs_f64()
            );
        }
        assert!(tables.take_errors().is_empty());
        eprintln!("{variant}: checked {checked:?} positions (by pieces); by value {by_value:?}");
        for c in (2..=3).flat_map(Combo::all_with) {
            assert!(combos.contains(&c), "{variant}: no position of {c} checked");
        }
        // The four-piece tables: their values agree with their moves.
        let v = shashki::egdb::info::verify(&dir, variant).unwrap();
        assert_eq!((v.files, v.failures), (41, 0), "{:?}", v.lines);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Damaged, truncated, misnamed and other-variant files are one clear error
/// naming the file; the others keep answering.
#[test]
fn damaged_tables_are_refused_naming_the_file() {
    let dir = scratch("damage");
    let opts = BuildOptions {
        variant: Variant::Russian,
        pieces: 3,
        dir: dir.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).unwrap();
    let kk_k = dir.join("KK-K.egdb");
    let bytes = std::fs::read(&kk_k).unwrap();
    // A flipped byte in the data.
    let mut bad = bytes.clone();
    let at = bad.len() - 20;
    bad[at] ^= 0x40;
    std::fs::write(&kk_k, &bad).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    let pos = shashki::fen::parse_position(Variant::Russian, "W:WKa1,Kc1:BKh8").unwrap();
    assert_eq!(t.probe(&pos), None);
    let errors = t.take_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("KK-K.egdb") && errors[0].contains("damaged"),
        "{errors:?}"
    );
    // The other tables still answer.
    let kv = shashki::fen::parse_position(Variant::Russian, "W:WKa1:BKh8").unwrap();
    assert!(t.probe(&kv).is_some());
    // Truncated.
    std::fs::write(&kk_k, &bytes[..bytes.len() / 2]).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.probe(&pos), None);
    let e = t.take_errors();
    assert!(
        e[0].contains("KK-K.egdb") && e[0].contains("truncated"),
        "{e:?}"
    );
    // Another variant's file, and a file of another combination.
    std::fs::copy(dir.join("KM-K.egdb"), &kk_k).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.probe(&pos), None);
    let e = t.take_errors();
    assert!(e[0].contains("holds KM-K, not KK-K"), "{e:?}");
    std::fs::write(&kk_k, &bytes).unwrap();
    let t = Tables::open(&dir, Variant::Brazilian, 3).unwrap();
    let bpos = shashki::fen::parse_position(Variant::Brazilian, "W:WKa1,Kc1:BKh8").unwrap();
    assert_eq!(t.probe(&bpos), None);
    let e = t.take_errors();
    assert!(e[0].contains("a table of russian, not brazilian"), "{e:?}");
    // A build resumes: whole files are kept, a damaged one is built again.
    std::fs::write(&kk_k, &bad).unwrap();
    let mut rebuilt = Vec::new();
    build(&opts, &mut |r| {
        if !r.skipped {
            rebuilt.extend(r.combos.iter().map(|c: &Combo| c.name()));
        }
    })
    .unwrap();
    assert_eq!(rebuilt, ["KK-K", "K-KK"]);
    assert_eq!(std::fs::read(&kk_k).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tables of plies beside the values: a damaged one is one error
/// naming it, while the values still answer; one of values in its place is
/// named as such; `egdb verify` fails on it; a build resumes by building
/// the pair again; and a folder without plies (built before there were
/// any) answers values and no plies, without an error.
#[test]
fn damaged_or_missing_plies_are_reported_and_rebuilt() {
    let dir = scratch("damage-plies");
    let opts = BuildOptions {
        variant: Variant::Russian,
        pieces: 3,
        dir: dir.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).unwrap();
    let verified = shashki::egdb::info::verify(&dir, Variant::Russian).unwrap();
    assert_eq!(verified.failures, 0, "{:?}", verified.lines);
    let kk_k = dir.join("KK-K.plies");
    let bytes = std::fs::read(&kk_k).unwrap();
    // White to move wins at once: a ply to the conversion.
    let pos = shashki::fen::parse_position(Variant::Russian, "W:WKa1,Kc1:BKb2").unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), Some(1)));
    let mut bad = bytes.clone();
    let at = bad.len() - 20;
    bad[at] ^= 0x40;
    std::fs::write(&kk_k, &bad).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), None));
    let e = t.take_errors();
    assert!(
        e.len() == 1 && e[0].contains("KK-K.plies") && e[0].contains("damaged"),
        "{e:?}"
    );
    let verified = shashki::egdb::info::verify(&dir, Variant::Russian).unwrap();
    assert!(
        verified.failures == 1
            && verified
                .lines
                .iter()
                .any(|l| l.starts_with("FAILED") && l.contains("KK-K.plies")),
        "{:?}",
        verified.lines
    );
    // A table of values where the plies should be.
    std::fs::copy(dir.join("KK-K.egdb"), &kk_k).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.plies(&pos), None);
    let e = t.take_errors();
    assert!(e[0].contains("a table of values, not of plies"), "{e:?}");
    // The build makes the pair again, and the same bytes.
    let mut rebuilt = Vec::new();
    build(&opts, &mut |r| {
        if !r.skipped {
            rebuilt.extend(r.combos.iter().map(|c: &Combo| c.name()));
        }
    })
    .unwrap();
    assert_eq!(rebuilt, ["KK-K", "K-KK"]);
    assert_eq!(std::fs::read(&kk_k).unwrap(), bytes);
    // No plies at all.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "plies") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.pieces(), 3);
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), None));
    assert!(t.take_errors().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--only` in a job array: with the smaller tables and the pairs of the
/// same piece count with fewer men in the folder, each pair of a wave (the
/// same men) builds on its own, in any order, into the very files a whole
/// build writes; a pair with fewer men missing is named.
#[test]
fn only_builds_each_pair_of_a_wave_alone() {
    use shashki::egdb::build::{build_order, needed_before};
    let variant = Variant::Russian;
    let whole = scratch("only-whole");
    let mut opts = BuildOptions {
        variant,
        pieces: 4,
        dir: whole.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).unwrap();
    let wave: Vec<Combo> = build_order(4)
        .into_iter()
        .filter(|c| c.pieces() == 4 && c.men() == 2)
        .collect();
    assert_eq!(wave.len(), 4, "{wave:?}");
    let names = |c: Combo| {
        let mut v = Vec::new();
        for ext in ["plies", "egdb"] {
            for x in [c, c.swapped()] {
                let name = format!("{x}.{ext}");
                if !v.contains(&name) {
                    v.push(name);
                }
            }
        }
        v
    };
    let part = scratch("only-part");
    std::fs::create_dir_all(&part).unwrap();
    for c in build_order(4) {
        if needed_before(c, wave[0]) {
            for f in names(c) {
                std::fs::copy(whole.join(&f), part.join(&f)).unwrap();
            }
        }
    }
    // Last first: no pair of the wave waits for another.
    opts.dir = part.clone();
    for &c in wave.iter().rev() {
        opts.only = Some(c);
        let mut built = Vec::new();
        build(&opts, &mut |r| built.push((r.combos.clone(), r.skipped))).unwrap();
        assert_eq!(built.len(), 1);
        assert!(!built[0].1, "{c} was there already");
        for f in names(c) {
            assert_eq!(
                std::fs::read(part.join(&f)).unwrap(),
                std::fs::read(whole.join(&f)).unwrap(),
                "{f}"
            );
        }
    }
    // The next wave without one pair of this one: refused, naming it.
    let next = build_order(4)
        .into_iter()
        .find(|c| c.pieces() == 4 && c.men() == 3)
        .unwrap();
    std::fs::remove_file(part.join(names(wave[0]).pop().unwrap())).unwrap();
    opts.only = Some(next);
    let e = build(&opts, &mut |_| {}).unwrap_err();
    assert!(
        e.contains(&format!("{}.egdb is needed first", wave[0])),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&part);
}

/// `egdb list`: the pairs of one piece count in build order, by the names
/// `--only` takes, split into waves by men, with their sizes on demand.
#[test]
fn egdb_list_names_the_pairs_of_a_piece_count() {
    use shashki::egdb::build::build_order;
    let lines = |args: &[&str]| -> Vec<String> {
        let (status, out, err) = crate::cli::shashki(args);
        assert_eq!(status, 0, "{args:?}: {err}");
        out.lines().map(str::to_string).collect()
    };
    for n in 2..=6u32 {
        let want: Vec<Combo> = build_order(n)
            .into_iter()
            .filter(|c| c.pieces() == n)
            .collect();
        let pieces = n.to_string();
        let names = lines(&["egdb", "list", "--pieces", &pieces]);
        let got: Vec<Combo> = names.iter().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got, want);
        // Each pair once: the combinations of n pieces, a pair for two.
        let all = Combo::all_with(n);
        let single = all.iter().filter(|c| **c == c.swapped()).count();
        assert_eq!(got.len(), (all.len() + single) / 2);
        let mut waves = Vec::new();
        for m in 0..=n {
            waves.extend(lines(&[
                "egdb",
                "list",
                "--pieces",
                &pieces,
                "--men",
                &m.to_string(),
            ]));
        }
        assert_eq!(waves, names);
        let sized = lines(&["egdb", "list", "--pieces", &pieces, "--sizes"]);
        let total: u64 = sized
            .iter()
            .map(|l| l.split('\t').nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, want.iter().map(|c| c.pair_size()).sum::<u64>());
    }
    assert_eq!(
        lines(&["egdb", "list", "--pieces", "3", "--men", "0"]),
        ["KK-K"]
    );
}

//! An exact solver of every position with up to four pieces (Russian and
//! Brazilian), written here from the rule book, to check the endgame
//! tables against (see `egdb.rs`).
//!
//! Of the engine it uses the move generator (`movegen::generate`,
//! `Position::play`) and the position parser, and of the tables only
//! `Tables::probe`, to compare; the counting rules are this test binary's
//! own reading of them, [`Counts`] in `egdb.rs`, which also gives the
//! limits ([`Counts::drawn`]) and how each count runs from one position to
//! the next ([`run`], [`Counts::king_move`]).
//!
//! With five-piece tables (`SHASHKI_EGDB5`), a few five-piece materials
//! ([`FIVE`] and what their promotions lead to) are solved the same way on
//! top of the solver's own values up to four pieces, and compared too.
//!
//! # How
//!
//! Materials (men and kings of each side) are solved smallest first: a
//! capture leads to fewer pieces and a promotion to fewer men, so the value
//! of a move that leaves a material is known when the material is solved.
//! Positions are enumerated here (each group of like pieces ranked among the
//! 32 squares), with both sides to move. Each position's moves are generated
//! once: a move within the material is kept as the index of the position it
//! leads to (and whether a king moved, for 7.2.5); a move that leaves the
//! material (a capture, a promotion) is valued at once from the smaller
//! material. After a capture every count starts again (the balance of every
//! rule changes), and so after a promotion, except two counts that
//! [`Counts::after`] carries over: 7.2.7's (a lone king on the main road
//! against three pieces, when a man of the three crowns) and 7.2.8's (a lone
//! king against two pieces, when the man of the two crowns). For those the
//! smaller material keeps its values by the count carried in.
//!
//! Within a material every count that runs grows by one each ply, except
//! 7.2.5's, which a man's move starts again, and 7.2.7's, which ends when
//! the lone king leaves the road and starts at 0 when he comes back. The
//! others (7.2.4, 7.2.6, 7.2.8, whichever hold) are one number `T`: the
//! plies since the material arose (7.2.8's may have been carried in), and
//! the game is drawn when `T` reaches its limit `L`. So the values are found
//! by backward induction over `T`, from `L` (everything drawn, except that
//! a side with no move has lost) down to 0: the values at `T` follow from
//! those at `T + 1` alone. With each position go the other counts as a
//! small state: 7.2.5's count `K` as the bits of a mask (a win mask and a
//! loss mask: bit `K` set when the side to move wins, or loses, with that
//! count; a king's move reads the child's masks shifted by one, a man's
//! move the child's bit 0), and 7.2.7's plies on the road, `r`, as one pair
//! of masks per value of `r` for the positions whose lone king stands on
//! the road. The limits come from [`Counts::drawn`] for each state. Where
//! no rule's condition holds (a side has no king) no count can end the
//! game, and the side without a king moves a man at every turn, so the
//! positions of the material form no cycle: a plain depth-first minimax
//! solves them.
//!
//! Below `L` the step from `T + 1` to `T` is the same at every `T` (the
//! limits of the other counts do not depend on `T`), so once a step changes
//! nothing the values at every smaller `T` are those, and the induction
//! stops. And a position's values at `T` can differ from those at `T + 1`
//! only if a child's did one step before: only those are computed again.
//!
//! # Repetition
//!
//! The rule book also draws a game when a position occurs for the third
//! time (7.2.3). The solver's game, `G`, has no such rule: it ends by the
//! counting rules only. Its values are the rule book's, argued here, with a
//! check where the argument needs one.
//!
//! 1. A win under the rule book is a win in `G`, and a loss a loss: the rule
//!    book only adds draws. So it is enough that whoever wins in `G` also
//!    wins under the rule book.
//! 2. Between two occurrences of a position nothing was captured and no man
//!    moved (captures take pieces away, men only go forward): only kings
//!    moved, and every count grew by the plies between, except 7.2.7's,
//!    which starts at 0 again when the lone king comes back onto the road.
//!    A higher count can only turn a decided value into a draw. So if the
//!    winner always plays the shortest win (fewest plies, the loser
//!    delaying; its length falls by one or more each ply), a position comes
//!    back only if the lone king has come back onto the road in between, the
//!    second time with a lower 7.2.7 count: the win is shorter there. A third
//!    occurrence then needs three stays on the road in one run of king moves
//!    (no man moved), the later two begun by a return, with counts
//!    `r1 > r2 > r3` at the three occurrences: the first stay reached 2
//!    plies, the second 1.
//! 3. [`check`] also solves the game `H`: `G`, except that a return to the
//!    road after such a first and second stay in the run is a draw (the
//!    state on the road: `r`, and whether the stay follows a first one that
//!    reached 2; off the road: neither stay seen, the first, or both; a
//!    man's move begins a new run). Only draws are added, and no part of
//!    `H`'s state falls along a run but `r` at a return, so point 2 holds in
//!    `H`, where the third occurrence never comes: its return is a draw.
//!    Under the rule book the shortest win of `H` then wins too (the counts
//!    are `G`'s, and no repetition). So where `H` and `G` agree, `G`'s value
//!    is the rule book's.
//! 4. Where they do not (four positions a variant, lone king against a king
//!    and two men), the rule book's game itself is searched ([`Replay`]):
//!    `G`'s winner tries `G`'s wins, fastest first, against every reply,
//!    with the positions of the current run of king moves, a third
//!    occurrence drawn; moves out of the material count by their values in
//!    `H` (a new run begins there). A win found so is one under the rule
//!    book. The check asserts that every position is settled by 3 or 4.

use crate::counting::{run, signatures, Counts};
use rayon::prelude::*;
use shashki::board::{Color, Geometry};
use shashki::egdb::{Combo, Tables, Wdl};
use shashki::{Position, Variant};
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

pub(crate) const WIN: i8 = 1;
pub(crate) const DRAW: i8 = 0;
pub(crate) const LOSS: i8 = -1;
/// No value (no move of that kind; no table answer).
const NONE: i8 = -2;

/// A successor's flag: the move is a king's quiet move (7.2.5 counts it).
const KING: u32 = 1 << 31;
/// A pair of masks (wins in the low half, losses in the high half) of a
/// position whose side to move has no move: lost whatever the counts.
const LOST: u64 = 0xFFFF_FFFF << 32;

/// Men of White may not stand on rank 8, men of Black on rank 1 (dense
/// squares, rank by rank from a1).
const RANK1: u32 = 0xF;
const RANK8: u32 = 0xF << 28;

/// The 32 dark squares in this file's order (rank by rank from a1, file by
/// file), with the colex ranks of sets of up to four of them.
struct Board {
    /// Bitboard bit -> square here (255: none).
    dense: [u8; 64],
    name: Vec<String>,
    binom: [[usize; 5]; 33],
    /// The sets of n squares, by colex rank.
    subsets: Vec<Vec<u32>>,
}

fn board() -> &'static Board {
    static BOARD: OnceLock<Board> = OnceLock::new();
    BOARD.get_or_init(|| {
        let g = Geometry::BOARD_64;
        let mut dense = [255u8; 64];
        let mut name = Vec::new();
        let mut i = 0;
        for r in 0..8u8 {
            for c in 0..8u8 {
                if let Some(sq) = g.square(c, r) {
                    assert_eq!(sq.bb().count_ones(), 1);
                    dense[sq.bb().trailing_zeros() as usize] = i as u8;
                    name.push(format!("{}{}", (b'a' + c) as char, r + 1));
                    i += 1;
                }
            }
        }
        assert_eq!(i, 32);
        let mut binom = [[0usize; 5]; 33];
        for n in 0..33 {
            binom[n][0] = 1;
            for k in 1..5 {
                binom[n][k] = if n == 0 {
                    0
                } else {
                    binom[n - 1][k - 1] + binom[n - 1][k]
                };
            }
        }
        let mut subsets = vec![Vec::new(); 5];
        for (k, list) in subsets.iter_mut().enumerate() {
            *list = vec![u32::MAX; binom[32][k]];
        }
        fn sets(from: usize, left: usize, mask: u32, out: &mut Vec<u32>) {
            if left == 0 {
                out.push(mask);
                return;
            }
            for s in from..32 {
                sets(s + 1, left - 1, mask | 1 << s, out);
            }
        }
        for (k, list) in subsets.iter_mut().enumerate() {
            let mut all = Vec::new();
            sets(0, k, 0, &mut all);
            for m in all {
                let r = colex(&binom, m);
                assert_eq!(list[r], u32::MAX);
                list[r] = m;
            }
        }
        Board {
            dense,
            name,
            binom,
            subsets,
        }
    })
}

/// The colex rank of a set of squares among those of its size.
fn colex(binom: &[[usize; 5]; 33], mut m: u32) -> usize {
    let mut r = 0;
    let mut i = 1;
    while m != 0 {
        r += binom[m.trailing_zeros() as usize][i];
        m &= m - 1;
        i += 1;
    }
    r
}

/// Men and kings of each side: white men, white kings, black men, black
/// kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Material([u8; 4]);

impl Material {
    fn pieces(self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// A number below 625 for each material of up to five pieces (a piece
    /// on each side: four or fewer in a group).
    fn code(self) -> usize {
        self.0.iter().fold(0, |a, &n| a * 5 + n as usize)
    }

    fn men(self) -> u32 {
        (self.0[0] + self.0[2]) as u32
    }

    /// Every material with up to `max` pieces and a piece on each side,
    /// in an order where whatever a move leads out to comes first.
    fn all(max: u32) -> Vec<Material> {
        let mut all = Vec::new();
        for wm in 0..=max as u8 {
            for wk in 0..=max as u8 {
                for bm in 0..=max as u8 {
                    for bk in 0..=max as u8 {
                        let m = Material([wm, wk, bm, bk]);
                        if (2..=max).contains(&m.pieces()) && wm + wk > 0 && bm + bk > 0 {
                            all.push(m);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|&m| (m.pieces(), m.men(), m));
        all
    }

    /// Indices of one side to move: every group ranked among all squares.
    fn per_side(self) -> usize {
        let b = board();
        self.0.iter().map(|&n| b.binom[32][n as usize]).product()
    }

    /// The placement of index `id` (both sides to move: White's first),
    /// if it is a position.
    fn decode(self, id: usize) -> Option<(Color, [u32; 4])> {
        let b = board();
        let per = self.per_side();
        let side = if id < per { Color::White } else { Color::Black };
        let mut r = id % per;
        let mut masks = [0u32; 4];
        for g in (0..4).rev() {
            let c = b.binom[32][self.0[g] as usize];
            masks[g] = b.subsets[self.0[g] as usize][r % c];
            r /= c;
        }
        let all = masks.iter().fold(0, |a, m| a | m);
        (all.count_ones() == self.pieces() && masks[0] & RANK8 == 0 && masks[2] & RANK1 == 0)
            .then_some((side, masks))
    }

    fn text(self, id: usize) -> String {
        let mut t = String::new();
        self.write_text(id, &mut t);
        t
    }

    /// The position text of index `id` into `t` (cleared first).
    fn write_text(self, id: usize, t: &mut String) {
        let b = board();
        let (side, masks) = self.decode(id).expect("a position");
        t.clear();
        t.push_str(if side == Color::White { "W" } else { "B" });
        for (colour, groups) in [("W", [0, 1]), ("B", [2, 3])] {
            t.push(':');
            t.push_str(colour);
            let mut first = true;
            for g in groups {
                let mut m = masks[g];
                while m != 0 {
                    let s = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if !first {
                        t.push(',');
                    }
                    first = false;
                    if g % 2 == 1 {
                        t.push('K');
                    }
                    t.push_str(&b.name[s]);
                }
            }
        }
    }

    /// The material named as [`Material::name`] gives it.
    fn parse(name: &str) -> Material {
        let (w, b) = name.split_once('-').expect("a name like KKM-K");
        let count = |s: &str, c: char| s.chars().filter(|&x| x == c).count() as u8;
        let m = Material([count(w, 'M'), count(w, 'K'), count(b, 'M'), count(b, 'K')]);
        assert_eq!(m.name(), name, "kings first, then men");
        m
    }

    /// `targets` and every material their promotions lead to, in an order
    /// where whatever a move leads out to (within these) comes first.
    fn with_promotions(targets: &[Material]) -> Vec<Material> {
        let mut all = std::collections::BTreeSet::new();
        for t in targets {
            let [wm, wk, bm, bk] = t.0;
            for a in 0..=wm {
                for b in 0..=bm {
                    all.insert(Material([wm - a, wk + a, bm - b, bk + b]));
                }
            }
        }
        let mut all: Vec<Material> = all.into_iter().collect();
        all.sort_by_key(|&m| (m.pieces(), m.men(), m));
        all
    }

    /// Men and kings of each side as `KKM-K` (White's first).
    pub(crate) fn name(self) -> String {
        let side = |m: u8, k: u8| "K".repeat(k as usize) + &"M".repeat(m as usize);
        format!(
            "{}-{}",
            side(self.0[0], self.0[1]),
            side(self.0[2], self.0[3])
        )
    }
}

/// The material and index of a position.
fn locate(pos: &Position) -> (Material, usize) {
    let b = board();
    let dense = |mut x: u64| {
        let mut d = 0u32;
        while x != 0 {
            d |= 1 << b.dense[x.trailing_zeros() as usize];
            x &= x - 1;
        }
        d
    };
    let k = pos.kings();
    let (w, bl) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    let masks = [dense(w & !k), dense(w & k), dense(bl & !k), dense(bl & k)];
    let m = Material(masks.map(|x| x.count_ones() as u8));
    let r = (0..4).fold(0, |r, g| {
        r * b.binom[32][m.0[g] as usize] + colex(&b.binom, masks[g])
    });
    let side = match pos.side_to_move() {
        Color::White => 0,
        Color::Black => 1,
    };
    (m, side * m.per_side() + r)
}

/// Solved materials, by [`Material::code`].
struct SolvedMap(Vec<Option<Solved>>);

impl SolvedMap {
    fn new() -> SolvedMap {
        SolvedMap((0..625).map(|_| None).collect())
    }

    fn get(&self, m: Material) -> Option<&Solved> {
        self.0[m.code()].as_ref()
    }

    fn insert(&mut self, m: Material, s: Solved) {
        self.0[m.code()] = Some(s);
    }
}

impl std::ops::Index<Material> for SolvedMap {
    type Output = Solved;

    fn index(&self, m: Material) -> &Solved {
        self.get(m)
            .unwrap_or_else(|| panic!("{} is solved before", m.name()))
    }
}

/// What a solved material keeps for the materials after it: values (for
/// the side to move) by index.
struct Solved {
    /// Every count at zero, as when the material has just arisen.
    fresh: Vec<i8>,
    /// 7.2.8's count carried in: by its plies, `stride` values an index.
    by_plies: Option<(usize, Vec<i8>)>,
    /// 7.2.7's count carried in: by the plies the lone king has stood on
    /// the road (7.2.6 and 7.2.5 at zero), `stride` values an index.
    by_road: Option<(usize, Vec<i8>)>,
}

/// Which game is solved: `G`, the counting rules, or `H`, where also the
/// lone king's return to the road after two stays on it in the run of king
/// moves (the first of 2 plies or more, the second of 1 or more) is a draw
/// (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Game {
    G = 0,
    H = 1,
}

/// Moves out of the material whose value depends on a count carried over.
#[derive(Default, Clone)]
struct Special {
    /// The best such move by 7.2.7's plies on the road (a promotion by
    /// the side against the lone king, who stays on the road).
    road: Option<Vec<i8>>,
    /// Promotions carrying 7.2.8's count: (material, index) after them.
    plies: Vec<(Material, u32)>,
}

/// One material's positions and moves.
#[derive(Default)]
struct Graph {
    /// Index of each position (compact numbering).
    ids: Vec<u32>,
    /// Its moves within the material: `succ[start[p]..start[p + 1]]`, the
    /// position reached (compact), `KING` for a king's quiet move.
    start: Vec<u32>,
    succ: Vec<u32>,
    /// No legal move.
    stuck: Vec<bool>,
    /// 7.2.7's condition holds (a lone king on the main road).
    road: Vec<bool>,
    /// The best move out of the material with every count at zero after
    /// it (`NONE`: no such move), in `G` and in `H`.
    exit: [Vec<i8>; 2],
    /// `special[game][p]`: an index into `specials[game]` (u32::MAX: none).
    special: [Vec<u32>; 2],
    specials: [Vec<Special>; 2],
    /// Some move leads into a material that has values in `H`.
    into_h: bool,
    /// What the tables say (`NONE`: nothing).
    table: Vec<i8>,
    /// The signatures of 7.2.4, 7.2.6, 7.2.8, the same in every position,
    /// and 7.2.7's when it holds (0 if never).
    sigs: [u32; 4],
}

fn wdl(w: Option<Wdl>) -> i8 {
    match w {
        Some(Wdl::Win) => WIN,
        Some(Wdl::Draw) => DRAW,
        Some(Wdl::Loss) => LOSS,
        None => NONE,
    }
}

/// Generate a material's positions and moves, valuing the moves that leave
/// it from `solved` (`G`), and from `h_solved` where it has the material,
/// else `solved` (`H`).
fn graph(
    variant: Variant,
    m: Material,
    tables: &Tables,
    solved: &SolvedMap,
    h_solved: &SolvedMap,
) -> Graph {
    let n_ids = 2 * m.per_side();
    let ids: Vec<u32> = (0..n_ids)
        .filter(|&id| m.decode(id).is_some())
        .map(|id| id as u32)
        .collect();
    let mut compact = vec![u32::MAX; n_ids];
    for (p, &id) in ids.iter().enumerate() {
        compact[id as usize] = p as u32;
    }
    let chunks: Vec<Graph> = ids
        .par_chunks(4096)
        .map(|chunk| {
            let mut g = Graph::default();
            g.start.push(0);
            let mut text = String::new();
            let mut moves = shashki::MoveList::new();
            for &id in chunk {
                m.write_text(id as usize, &mut text);
                let pos = shashki::fen::parse_position(variant, &text).unwrap();
                debug_assert_eq!(locate(&pos), (m, id as usize));
                g.table.push(wdl(tables.probe(&pos)));
                let sig = signatures(&pos);
                let on = sig[2] != 0;
                if g.sigs == [0; 4] {
                    g.sigs = sig;
                }
                // 7.2.4, 7.2.6, 7.2.8 hold in every position or none, with
                // one signature; 7.2.7's is one value where it holds.
                assert!(
                    [0, 1, 3].iter().all(|&i| sig[i] == g.sigs[i])
                        && (sig[2] == 0 || g.sigs[2] == 0 || sig[2] == g.sigs[2]),
                    "{text}: signatures {sig:?} against {:?}",
                    g.sigs
                );
                if on {
                    g.sigs[2] = sig[2];
                }
                g.road.push(on);
                shashki::movegen::generate(&pos, &mut moves);
                g.stuck.push(moves.is_empty());
                let mut exit = [NONE; 2];
                let mut special = [Special::default(), Special::default()];
                for mv in moves.iter() {
                    let child = pos.play(mv);
                    if child.pieces(child.side_to_move()) == 0 {
                        exit = exit.map(|e| e.max(WIN));
                        continue;
                    }
                    let (cm, cid) = locate(&child);
                    if cm == m {
                        let c = compact[cid];
                        assert!(c != u32::MAX, "{text}: {mv:?} leads nowhere");
                        g.succ
                            .push(c | if Counts::king_move(&pos, mv) { KING } else { 0 });
                        continue;
                    }
                    // A capture or a promotion: 7.2.5's count starts again;
                    // the others go on where their signature stays (`run`).
                    assert!(!Counts::king_move(&pos, mv), "{text}: {mv:?}");
                    let cs = signatures(&child);
                    let carried: Vec<usize> = (0..4)
                        .filter(|&i| cs[i] != 0 && run((sig[i], 0), cs[i]) == (cs[i], 1))
                        .collect();
                    let h = h_solved.get(cm);
                    g.into_h |= h.is_some();
                    for game in [Game::G, Game::H] {
                        let s = match (game, h) {
                            (Game::H, Some(h)) => h,
                            _ => &solved[cm],
                        };
                        let e = &mut exit[game as usize];
                        let sp = &mut special[game as usize];
                        match carried[..] {
                            [] => *e = (*e).max(-s.fresh[cid]),
                            [2] => {
                                // The lone king stays on the road while the
                                // other side crowns: one ply more on it.
                                let (stride, by_road) = s.by_road.as_ref().expect("values by road");
                                let best = sp.road.get_or_insert_with(|| vec![NONE; stride - 1]);
                                for (r, b) in best.iter_mut().enumerate() {
                                    *b = (*b).max(-by_road[cid * stride + r + 1]);
                                }
                            }
                            [3] => sp.plies.push((cm, cid as u32)),
                            _ => panic!("{text}: {mv:?} carries the counts {carried:?}"),
                        }
                    }
                }
                for game in 0..2 {
                    g.exit[game].push(exit[game]);
                    let sp = std::mem::take(&mut special[game]);
                    if sp.road.is_some() || !sp.plies.is_empty() {
                        g.special[game].push(g.specials[game].len() as u32);
                        g.specials[game].push(sp);
                    } else {
                        g.special[game].push(u32::MAX);
                    }
                }
                g.start.push(g.succ.len() as u32);
            }
            g
        })
        .collect();
    let mut g = Graph {
        ids,
        ..Graph::default()
    };
    g.start.push(0);
    for c in chunks {
        let base = g.succ.len() as u32;
        g.start.extend(c.start[1..].iter().map(|&s| s + base));
        g.succ.extend(c.succ);
        g.stuck.extend(c.stuck);
        g.road.extend(c.road);
        for game in 0..2 {
            g.exit[game].extend(&c.exit[game]);
            let sb = g.specials[game].len() as u32;
            g.special[game].extend(c.special[game].iter().map(|&s| {
                if s == u32::MAX {
                    s
                } else {
                    s + sb
                }
            }));
            g.specials[game].extend(c.specials[game].iter().cloned());
        }
        g.table.extend(c.table);
        g.into_h |= c.into_h;
        for i in 0..4 {
            if g.sigs[i] == 0 {
                g.sigs[i] = c.sigs[i];
            }
            assert!(c.sigs[i] == 0 || c.sigs[i] == g.sigs[i], "{m:?}");
        }
    }
    g
}

/// Read bit 0 (7.2.5's count at zero) of a pair of masks.
fn value(x: u64) -> i8 {
    if x & 1 != 0 {
        WIN
    } else if x >> 32 & 1 != 0 {
        LOSS
    } else {
        DRAW
    }
}

/// Solve a material whose positions have no running count (a side has no
/// king): plain minimax, depth first (no position repeats: the side without
/// a king moves a man every turn).
fn solve_free(m: Material, g: &Graph, game: Game) -> Solved {
    let n = g.ids.len();
    let gi = game as usize;
    // 2: not known; 3: being solved.
    let mut val = vec![2i8; n];
    fn visit(p: usize, g: &Graph, gi: usize, val: &mut [i8], m: Material) -> i8 {
        match val[p] {
            3 => panic!("{m:?}: a cycle through {}", m.text(g.ids[p] as usize)),
            2 => {}
            v => return v,
        }
        if g.stuck[p] {
            val[p] = LOSS;
            return LOSS;
        }
        val[p] = 3;
        let mut best = g.exit[gi][p];
        for &c in &g.succ[g.start[p] as usize..g.start[p + 1] as usize] {
            if best == WIN {
                break;
            }
            best = best.max(-visit((c & !KING) as usize, g, gi, val, m));
        }
        assert!(best != NONE);
        val[p] = best;
        best
    }
    let mut fresh = vec![NONE; 2 * m.per_side()];
    for p in 0..n {
        assert!(g.special[gi][p] == u32::MAX, "{m:?}: a count carried out");
        fresh[g.ids[p] as usize] = visit(p, g, gi, &mut val, m);
    }
    Solved {
        fresh,
        by_plies: None,
        by_road: None,
    }
}

/// Solve a material where some count runs, by backward induction over the
/// every-ply count `T` (see the module documentation).
fn solve_counted(m: Material, g: &Graph, solved: &SolvedMap, game: Game) -> Solved {
    solve_counted_recorded(m, g, solved, game, false).0
}

/// [`solve_counted`], and if `record`, the values at every `T` as well.
fn solve_counted_recorded(
    m: Material,
    g: &Graph,
    solved: &SolvedMap,
    game: Game,
    record: bool,
) -> (Solved, Option<Layers>) {
    let n = g.ids.len();
    let pieces = m.pieces();
    let has_k = m.men() > 0;
    let has_road = g.sigs[2] != 0;
    let off = [g.sigs[0], g.sigs[1], 0, g.sigs[3]];
    let on = g.sigs;
    // The counts of state (T, K, r), as `Counts` holds them: with kings
    // only, 7.2.5 counts every ply since the material arose, like T (7.2.8
    // aside, whose T may have been carried in: 7.2.5 cannot end the game
    // before 7.2.8 does, checked below).
    let drawn = |sigs: [u32; 4], t: u8, k: u8, r: u8| {
        let k = if has_k { k } else { t };
        Counts::at(sigs, k, t, r).drawn(pieces)
    };
    let allowed = |sigs: [u32; 4], t: u8, r: u8| -> u32 {
        if has_k {
            (0..32)
                .filter(|&k| !drawn(sigs, t, k, r))
                .fold(0, |a, k| a | 1 << k)
        } else if drawn(sigs, t, 0, r) {
            0
        } else {
            u32::MAX
        }
    };
    // 7.2.7's limit: the first drawn count, whatever T and K.
    let rl = if has_road {
        (0..=255u8).find(|&r| drawn(on, 0, 0, r)).unwrap() as usize
    } else {
        1
    };
    // T's limit: the first T where everything is drawn.
    let l = (0..=255u8)
        .find(|&t| allowed(off, t, 0) == 0 && (0..rl as u8).all(|r| allowed(on, t, r) == 0))
        .expect("a count that runs every ply") as usize;
    if g.sigs[3] != 0 {
        for t in 0..=l as u8 {
            assert_eq!(
                Counts::at(off, 0, t, 0).drawn(pieces),
                Counts::at(off, t, t, 0).drawn(pieces)
            );
        }
    }
    let lim = Limits {
        rl,
        has_k,
        has_road,
        game,
        off: (0..=l as u8).map(|t| allowed(off, t, 0)).collect(),
        on: (0..=l as u8)
            .map(|t| (0..=rl as u8).map(|r| allowed(on, t, r)).collect())
            .collect(),
    };
    for a in lim.on.iter().filter(|_| has_road) {
        assert_eq!(a[rl], 0, "{m:?}: 7.2.7's limit depends on the other counts");
    }
    let mut slot_base = Vec::with_capacity(n + 1);
    slot_base.push(0u32);
    for p in 0..n {
        slot_base.push(slot_base[p] + lim.slots(g.road[p]) as u32);
    }
    // Who moves into each position (to find what a change touches).
    let mut rstart = vec![0u32; n + 1];
    for &c in &g.succ {
        rstart[(c & !KING) as usize + 1] += 1;
    }
    for p in 0..n {
        rstart[p + 1] += rstart[p];
    }
    let mut rsucc = vec![0u32; g.succ.len()];
    let mut fill = rstart.clone();
    for p in 0..n {
        for &c in &g.succ[g.start[p] as usize..g.start[p + 1] as usize] {
            let c = (c & !KING) as usize;
            rsucc[fill[c] as usize] = p as u32;
            fill[c] += 1;
        }
    }
    // Layer L: drawn, or lost without a move.
    let base: Vec<u64> = (0..n)
        .flat_map(|p| {
            std::iter::repeat(if g.stuck[p] { LOST } else { 0 }).take(lim.slots(g.road[p]))
        })
        .collect();
    let mut next = base.clone();
    let mut cur = base.clone();
    let gi = game as usize;
    // Positions whose moves out depend on T (7.2.8's count carried).
    let timed: Vec<bool> = (0..n)
        .map(|p| {
            g.special[gi][p] != u32::MAX
                && !g.specials[gi][g.special[gi][p] as usize].plies.is_empty()
        })
        .collect();
    let any_timed = timed.iter().any(|&x| x);
    let record_plies = g.sigs[3] != 0;
    let mut by_plies = record_plies.then(|| vec![NONE; n * (l + 1)]);
    if let Some(bp) = by_plies.as_mut() {
        for p in 0..n {
            bp[p * (l + 1) + l] = value(base[slot_base[p] as usize]);
        }
    }
    // With `record`: (slot, T, masks) wherever layer T differs from T + 1.
    let mut recorded: Vec<(u32, u8, u64)> = Vec::new();
    // Which positions changed from layer T + 2 to T + 1.
    let mut changed = vec![false; n];
    let mut dirty = vec![false; n];
    let chunk = 4096;
    for t in (0..l).rev() {
        // A position changes only if a move's value changes: a child's, a
        // limit's (near L), or one depending on T.
        let everything = t + 1 == l || lim.off[t] != lim.off[t + 1] || lim.on[t] != lim.on[t + 1];
        for p in 0..n {
            dirty[p] = everything || timed[p];
        }
        if !everything {
            for c in 0..n {
                if changed[c] {
                    for &p in &rsucc[rstart[c] as usize..rstart[c + 1] as usize] {
                        dirty[p as usize] = true;
                    }
                }
            }
        }
        let mut parts = Vec::new();
        let mut rest: &mut [u64] = &mut cur;
        let mut rest_changed: &mut [bool] = &mut changed;
        let mut a = 0;
        while a < n {
            let b = (a + chunk).min(n);
            let (head, tail) = rest.split_at_mut((slot_base[b] - slot_base[a]) as usize);
            let (ch, ct) = rest_changed.split_at_mut(b - a);
            parts.push((a, b, head, ch));
            rest = tail;
            rest_changed = ct;
            a = b;
        }
        let (next_ref, slot_base, dirty, lim) = (&next, &slot_base, &dirty, &lim);
        let (any, changes) = parts
            .into_par_iter()
            .map(|(a, b, out, ch)| {
                let mut any = false;
                let mut changes = Vec::new();
                for p in a..b {
                    let sb = slot_base[p] as usize;
                    let o = sb - slot_base[a] as usize;
                    let k = lim.slots(g.road[p]);
                    if dirty[p] {
                        let mut differs = false;
                        for s in 0..k {
                            let x = step(g, solved, lim, p, s, t, next_ref, slot_base);
                            if x != next_ref[sb + s] {
                                differs = true;
                                if record {
                                    changes.push(((sb + s) as u32, x));
                                }
                            }
                            out[o + s] = x;
                        }
                        ch[p - a] = differs;
                        any |= differs;
                    } else {
                        // Layer T is layer T + 1 here; `out` holds layer
                        // T + 2, the same unless it changed last step.
                        if ch[p - a] {
                            out[o..o + k].copy_from_slice(&next_ref[sb..sb + k]);
                        }
                        ch[p - a] = false;
                    }
                }
                (any, changes)
            })
            .reduce(
                || (false, Vec::new()),
                |mut x, y| {
                    x.1.extend(y.1);
                    (x.0 || y.0, x.1)
                },
            );
        recorded.extend(changes.into_iter().map(|(slot, x)| (slot, t as u8, x)));
        if let Some(bp) = by_plies.as_mut() {
            for p in 0..n {
                bp[p * (l + 1) + t] = value(cur[slot_base[p] as usize]);
            }
        }
        std::mem::swap(&mut cur, &mut next);
        if !any && !any_timed && !record_plies {
            break;
        }
    }
    // `next` holds layer 0 (or the layer every smaller T repeats).
    let layer0 = next;
    let mut fresh = vec![NONE; 2 * m.per_side()];
    let stride = rl + 1;
    let mut by_road = has_road.then(|| (stride, vec![NONE; 2 * m.per_side() * stride]));
    for (p, &id) in g.ids.iter().enumerate() {
        let id = id as usize;
        let sb = slot_base[p] as usize;
        // Every count at zero: slot 0 (on the road: its count at 0 (and in
        // H no return yet); off it: G's one state, H's "not been on it").
        fresh[id] = value(layer0[sb]);
        if let Some((_, br)) = by_road.as_mut() {
            for r in 0..stride {
                br[id * stride + r] = if !g.road[p] {
                    NONE
                } else if r < rl {
                    value(layer0[sb + r])
                } else if g.stuck[p] {
                    LOSS
                } else {
                    DRAW
                };
            }
        }
    }
    let by_plies = by_plies.map(|bp| {
        let stride = l + 1;
        let mut v = vec![NONE; 2 * m.per_side() * stride];
        for p in 0..n {
            let id = g.ids[p] as usize;
            v[id * stride..(id + 1) * stride].copy_from_slice(&bp[p * stride..(p + 1) * stride]);
        }
        (stride, v)
    });
    let layers = record.then(|| {
        recorded.sort_unstable_by_key(|&(slot, t, _)| (slot, std::cmp::Reverse(t)));
        let mut start = vec![0u32; base.len() + 1];
        for &(slot, _, _) in &recorded {
            start[slot as usize + 1] += 1;
        }
        for i in 0..base.len() {
            start[i + 1] += start[i];
        }
        Layers {
            slot_base,
            lim,
            base,
            start,
            changes: recorded.iter().map(|&(_, t, x)| (t, x)).collect(),
        }
    });
    (
        Solved {
            fresh,
            by_plies,
            by_road,
        },
        layers,
    )
}

/// A counted material's masks at every `T`: those of layer `L`, and where
/// they change as `T` falls.
struct Layers {
    slot_base: Vec<u32>,
    lim: Limits,
    base: Vec<u64>,
    /// `changes[start[slot]..start[slot + 1]]`: (T, masks from T down),
    /// by falling T.
    start: Vec<u32>,
    changes: Vec<(u8, u64)>,
}

impl Layers {
    /// The masks of position `p` in slot `s` at `T = t`.
    fn at(&self, p: usize, t: usize, s: usize) -> u64 {
        let slot = self.slot_base[p] as usize + s;
        let ch = &self.changes[self.start[slot] as usize..self.start[slot + 1] as usize];
        // The last change at or above t.
        match ch.iter().rposition(|&(ct, _)| ct as usize >= t) {
            Some(i) => ch[i].1,
            None => self.base[slot],
        }
    }
}

/// The limits of a counted material and how its states are laid out.
struct Limits {
    /// 7.2.7's limit (1 where it never holds).
    rl: usize,
    /// 7.2.5's count is a state of its own (there are men).
    has_k: bool,
    has_road: bool,
    game: Game,
    /// By T (and 7.2.7's count on the road): the 7.2.5 counts not drawn.
    off: Vec<u32>,
    on: Vec<Vec<u32>>,
}

impl Limits {
    /// States of a position, by whether its lone king stands on the road.
    /// G: on the road, its count r (slot r); off it, one. H (7.2.7's count
    /// as in G, but a second return to the road in a run of king moves is a
    /// draw): on the road, r and whether he has come back once in this run
    /// (slot r + rl * back); off it: not been on it in this run (0), been
    /// on it (1), come back once (2).
    fn slots(&self, on: bool) -> usize {
        match (self.has_road, on, self.game) {
            (false, _, _) => 1,
            (true, true, Game::G) => self.rl,
            (true, false, Game::G) => 1,
            (true, true, Game::H) => 2 * self.rl,
            (true, false, Game::H) => 3,
        }
    }

    /// The child's slot after a move from slot `s` (`None`: drawn by
    /// 7.2.7 or, in H, by a second return). `man`: a man moved (a new run
    /// of king moves in H).
    fn next_slot(&self, on: bool, s: usize, child_on: bool, man: bool) -> Option<usize> {
        let rl = self.rl;
        match (self.game, on, child_on) {
            (_, false, false) if !self.has_road => Some(0),
            (Game::G, true, true) => (s + 1 < rl).then_some(s + 1),
            (Game::G, _, _) => Some(0),
            (Game::H, true, true) => {
                let (r, after) = (s % rl, if man { 0 } else { s / rl });
                (r + 1 < rl).then_some(after * rl + r + 1)
            }
            (Game::H, true, false) => Some(match (man, s / rl, s % rl) {
                (true, _, _) => 0,
                (false, 0, r) => usize::from(r >= 2),
                (false, _, r) => 1 + usize::from(r >= 1),
            }),
            (Game::H, false, true) => match s {
                0 => Some(0),
                1 => Some(rl),
                _ => None,
            },
            (Game::H, false, false) => Some(if man { 0 } else { s }),
        }
    }

    /// The 7.2.5 counts not drawn at T = t in slot `s`.
    fn allowed(&self, t: usize, on: bool, s: usize) -> u32 {
        if on {
            self.on[t][s % self.rl]
        } else {
            self.off[t]
        }
    }
}

/// The masks of position `p` in slot `s` at `T = t`, from those at `t + 1`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn step(
    g: &Graph,
    solved: &SolvedMap,
    lim: &Limits,
    p: usize,
    s: usize,
    t: usize,
    next: &[u64],
    slot_base: &[u32],
) -> u64 {
    if g.stuck[p] {
        return LOST;
    }
    let on = g.road[p];
    let allowed = lim.allowed(t, on, s);
    if allowed == 0 {
        return 0;
    }
    let gi = lim.game as usize;
    let mut e = g.exit[gi][p];
    if g.special[gi][p] != u32::MAX {
        let sp = &g.specials[gi][g.special[gi][p] as usize];
        if let Some(road) = &sp.road {
            if on {
                e = e.max(road[s % lim.rl]);
            }
        }
        for &(cm, cid) in &sp.plies {
            let (stride, v) = solved[cm].by_plies.as_ref().expect("values by plies");
            assert!(t + 1 < *stride, "7.2.8's count carried past its limit");
            e = e.max(-v[cid as usize * stride + t + 1]);
        }
    }
    if e == WIN {
        return allowed as u64;
    }
    let mut w = 0u32;
    let mut l = if e == DRAW { 0 } else { u32::MAX };
    for &c in &g.succ[g.start[p] as usize..g.start[p + 1] as usize] {
        let king = c & KING != 0;
        let c = (c & !KING) as usize;
        let y = match lim.next_slot(on, s, g.road[c], !king) {
            Some(cs) => next[slot_base[c] as usize + cs],
            None if g.stuck[c] => LOST,
            None => 0,
        };
        let y = if !lim.has_k {
            y
        } else if king {
            // 7.2.5's count one more: the child's bit k + 1 is ours k.
            (y >> 1) & 0x7FFF_FFFF_7FFF_FFFF
        } else {
            // A man moved: the child's count is 0 whatever ours.
            (if y & 1 != 0 { 0xFFFF_FFFF } else { 0 }) | (if y >> 32 & 1 != 0 { LOST } else { 0 })
        };
        w |= (y >> 32) as u32;
        l &= y as u32;
    }
    (w & allowed) as u64 | ((l & allowed) as u64) << 32
}

/// The rule book's game, repetition and all, searched from a position
/// where `H` and `G` differ: the `G` winner plays his fastest wins first
/// (any win of `G` is tried, in that order), every reply of the loser is
/// followed with the positions of the current run of king moves, and a
/// third occurrence is a draw. A move out of the material counts only by
/// its value in `H`, which holds under the rule book (a capture or a
/// promotion begins a new run). The search proves the `G` value, or gives
/// up (`None`) past a budget of positions.
struct Replay<'a> {
    g: &'a Graph,
    layers: &'a Layers,
    /// Results where a run begins (no history to remember).
    memo: HashMap<(u32, u8, u8, u8), bool>,
    budget: u64,
}

impl Replay<'_> {
    /// `G`'s value for the side to move at (position, T, K, slot), the slot
    /// `None` when 7.2.7 has ended the game.
    fn value(&self, p: usize, t: usize, k: usize, s: Option<usize>) -> i8 {
        let x = match s {
            Some(s) => self.layers.at(p, t, s),
            None if self.g.stuck[p] => LOST,
            None => 0,
        };
        let k = if self.layers.lim.has_k { k } else { 0 };
        if x >> k & 1 != 0 {
            WIN
        } else if x >> (32 + k) & 1 != 0 {
            LOSS
        } else {
            DRAW
        }
    }

    /// The best move out of the material in `H` (`NONE`: none).
    fn exit(&self, p: usize, s: usize) -> i8 {
        let g = self.g;
        let mut e = g.exit[Game::H as usize][p];
        let sp = g.special[Game::H as usize][p];
        if sp != u32::MAX && g.road[p] {
            if let Some(road) = &g.specials[Game::H as usize][sp as usize].road {
                e = e.max(road[s]);
            }
        }
        e
    }

    /// The moves within the material: (child, T, K, slot, a king moved).
    fn moves(
        &self,
        p: usize,
        t: usize,
        k: usize,
        s: usize,
    ) -> Vec<(usize, usize, usize, Option<usize>, bool)> {
        let g = self.g;
        g.succ[g.start[p] as usize..g.start[p + 1] as usize]
            .iter()
            .map(|&c| {
                let king = c & KING != 0;
                let c = (c & !KING) as usize;
                let cs = self.layers.lim.next_slot(g.road[p], s, g.road[c], !king);
                (c, t + 1, if king { k + 1 } else { 0 }, cs, king)
            })
            .collect()
    }

    /// Whether the side to move, winning in `G`, wins with repetition.
    fn wins(
        &mut self,
        p: usize,
        t: usize,
        k: usize,
        s: usize,
        run: &mut Vec<usize>,
    ) -> Option<bool> {
        self.budget = self.budget.checked_sub(1)?;
        if self.exit(p, s) == WIN {
            return Some(true);
        }
        // The fastest wins of G first: lost for the child at the highest T.
        let mut kids: Vec<_> = self
            .moves(p, t, k, s)
            .into_iter()
            .filter(|&(c, t, k, cs, _)| self.value(c, t, k, cs) == LOSS)
            .map(|kid| {
                let (c, t, k, cs, _) = kid;
                let fastest = (t..self.layers.lim.off.len())
                    .rev()
                    .find(|&u| self.value(c, u, k, cs) == LOSS);
                (std::cmp::Reverse(fastest), kid)
            })
            .collect();
        kids.sort_by_key(|k| k.0);
        for (_, (c, t, k, cs, king)) in kids {
            let Some(cs) = cs else {
                // The child has no move: won.
                return Some(true);
            };
            let won = if king {
                if run.iter().filter(|&&q| q == c).count() >= 2 {
                    continue;
                }
                run.push(c);
                let r = self.loses(c, t, k, cs, run);
                run.pop();
                r?
            } else {
                self.loses(c, t, k, cs, &mut vec![c])?
            };
            if won {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether the side to move, losing in `G`, loses with repetition.
    fn loses(
        &mut self,
        p: usize,
        t: usize,
        k: usize,
        s: usize,
        run: &mut Vec<usize>,
    ) -> Option<bool> {
        self.budget = self.budget.checked_sub(1)?;
        if self.g.stuck[p] {
            return Some(true);
        }
        let key = (p as u32, t as u8, k as u8, s as u8);
        if run.len() == 1 {
            if let Some(&v) = self.memo.get(&key) {
                return Some(v);
            }
        }
        let mut lost = self.exit(p, s) <= LOSS;
        for (c, t, k, cs, king) in self.moves(p, t, k, s) {
            if !lost {
                break;
            }
            let cs = match cs {
                Some(cs) if self.value(c, t, k, Some(cs)) == WIN => cs,
                _ => {
                    lost = false;
                    break;
                }
            };
            lost = if king {
                if run.iter().filter(|&&q| q == c).count() >= 2 {
                    false
                } else {
                    run.push(c);
                    let r = self.wins(c, t, k, cs, run);
                    run.pop();
                    r?
                }
            } else {
                self.wins(c, t, k, cs, &mut vec![c])?
            };
        }
        if run.len() == 1 {
            self.memo.insert(key, lost);
        }
        Some(lost)
    }
}

/// What [`check`] found.
#[derive(Debug, Default)]
pub(crate) struct Report {
    /// Positions compared, by pieces on the board.
    pub positions: [usize; 6],
    /// Wins, draws, losses (for the side to move) among them.
    pub wdl: [usize; 3],
    /// Materials solved, and the tables' combinations met.
    pub materials: usize,
    pub combos: HashSet<Combo>,
    /// Positions where the table differs from the solver, and the first
    /// few, as `position (material): table X, solver Y`.
    pub mismatches: usize,
    pub first: Vec<String>,
    /// Positions where `H` differs from `G` and the search with repetition
    /// ([`Replay`]) proved `G`'s value, and those it could not (repetition
    /// not ruled out there).
    pub replayed: Vec<String>,
    pub open: Vec<String>,
}

impl Report {
    /// Assert that the tables and the solver agree everywhere, that the
    /// tables reported no problem, and that repetition was ruled out
    /// everywhere: by the argument, or by a search of the game with
    /// repetition from the few positions the argument leaves (printed).
    pub(crate) fn assert_agrees(&self, variant: Variant, tables: &Tables) {
        assert!(
            self.mismatches == 0,
            "{variant}: {} positions where the tables and the solver differ, such as:\n{}",
            self.mismatches,
            self.first.join("\n")
        );
        assert!(tables.take_errors().is_empty());
        for line in &self.replayed {
            eprintln!("{variant}: repetition ruled out by a search: {line}");
        }
        assert!(
            self.open.is_empty(),
            "{variant}: repetition not ruled out at {} positions, such as:\n{}",
            self.open.len(),
            self.open[..self.open.len().min(10)].join("\n")
        );
    }
}

/// Solve every position with up to `max` pieces of `variant` (both sides
/// with a piece) and compare each with `tables`.
pub(crate) fn check(variant: Variant, tables: &Tables, max: u32) -> Report {
    check_materials(variant, tables, Material::all(max))
}

/// Solve and compare `materials`, in that order: whatever a move of one
/// leads out to comes before it.
fn check_materials(variant: Variant, tables: &Tables, materials: Vec<Material>) -> Report {
    let mut report = Report::default();
    let mut solved = SolvedMap::new();
    // H's values of the materials where H can differ from G: those with
    // 7.2.7, and those with a move into one of them.
    let mut h_solved = SolvedMap::new();
    let name = |w: i8| match w {
        WIN => "win",
        DRAW => "draw",
        LOSS => "loss",
        _ => "none",
    };
    for m in materials {
        let g = graph(variant, m, tables, &solved, &h_solved);
        let free = g.sigs == [0; 4];
        // No rule's condition holds exactly where a side has no king.
        assert_eq!(free, m.0[1] == 0 || m.0[3] == 0, "{m:?}");
        let solve = |game| {
            if free {
                solve_free(m, &g, game)
            } else {
                solve_counted(m, &g, &solved, game)
            }
        };
        let s = solve(Game::G);
        report.materials += 1;
        for (p, &id) in g.ids.iter().enumerate() {
            let id = id as usize;
            let want = s.fresh[id];
            report.positions[m.pieces() as usize] += 1;
            report.wdl[(1 - want) as usize] += 1;
            if g.table[p] != want {
                report.mismatches += 1;
                if report.first.len() < 10 {
                    report.first.push(format!(
                        "{} ({}): table {}, solver {}",
                        m.text(id),
                        m.name(),
                        name(g.table[p]),
                        name(want)
                    ));
                }
            }
        }
        for side in [0, m.per_side()] {
            let id = (side..).find(|&id| m.decode(id).is_some()).unwrap();
            let pos = shashki::fen::parse_position(variant, &m.text(id)).unwrap();
            report.combos.insert(Combo::of(&pos).0);
        }
        if g.sigs[2] != 0 || g.into_h {
            let h = solve(Game::H);
            let differ: Vec<usize> = (0..g.ids.len())
                .filter(|&p| h.fresh[g.ids[p] as usize] != s.fresh[g.ids[p] as usize])
                .collect();
            // Where they differ, the game with repetition itself.
            let layers = (!differ.is_empty() && !free)
                .then(|| solve_counted_recorded(m, &g, &solved, Game::G, true).1)
                .flatten();
            for p in differ {
                let id = g.ids[p] as usize;
                let v = s.fresh[id];
                let proved = layers.as_ref().and_then(|layers| {
                    let mut replay = Replay {
                        g: &g,
                        layers,
                        memo: HashMap::new(),
                        budget: 10_000_000,
                    };
                    match v {
                        WIN => replay.wins(p, 0, 0, 0, &mut vec![p]),
                        LOSS => replay.loses(p, 0, 0, 0, &mut vec![p]),
                        _ => None,
                    }
                });
                let line = format!(
                    "{} ({}): {} ({} in H)",
                    m.text(id),
                    m.name(),
                    name(v),
                    name(h.fresh[id])
                );
                if proved == Some(true) {
                    report.replayed.push(line);
                } else {
                    report.open.push(line);
                }
            }
            h_solved.insert(m, h);
        }
        solved.insert(m, s);
    }
    report
}

/// Five-piece materials checked against the tables when `SHASHKI_EGDB5`
/// names a folder of them (with the materials their promotions lead to).
const FIVE: [&str; 5] = ["KKKK-K", "KKK-KK", "KKM-KM", "KKKK-M", "K-KKKM"];

/// The five-piece tables (when `SHASHKI_EGDB5` names a folder of them, as
/// in `egdb_search.rs`) agree with the solver on every position of a few
/// materials, [`FIVE`] and what their promotions lead to, for both
/// variants. The smaller materials' values, which captures lead to, are
/// the solver's own (every material up to four pieces is solved first, and
/// compared with the tables too), not the tables'.
#[test]
fn five_piece_tables_agree_with_the_solver_on_some_materials() {
    let Some(dir) = std::env::var_os("SHASHKI_EGDB5") else {
        eprintln!("skipped: SHASHKI_EGDB5 names no folder of five-piece tables");
        return;
    };
    let targets: Vec<Material> = FIVE.iter().map(|n| Material::parse(n)).collect();
    let mut materials = Material::all(4);
    let five = Material::with_promotions(&targets);
    materials.extend(&five);
    for variant in [Variant::Russian, Variant::Brazilian] {
        let dir = shashki::egdb::variant_dir(std::path::Path::new(&dir), variant);
        let tables = Tables::open(&dir, variant, 5).expect("open the tables");
        assert_eq!(tables.pieces(), 5);
        let started = std::time::Instant::now();
        let r = check_materials(variant, &tables, materials.clone());
        eprintln!(
            "{variant}: {} five-piece positions ({}) and {} of up to four pieces solved and compared in {:.1} s: {} won, {} drawn, {} lost for the side to move; {} differ from the tables",
            r.positions[5],
            five.iter().map(|m| m.name()).collect::<Vec<_>>().join(" "),
            r.positions[..5].iter().sum::<usize>(),
            started.elapsed().as_secs_f64(),
            r.wdl[0],
            r.wdl[1],
            r.wdl[2],
            r.mismatches
        );
        r.assert_agrees(variant, &tables);
        assert!(r.positions[5] > 0);
    }
}

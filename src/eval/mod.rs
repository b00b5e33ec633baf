//! Static evaluation.
//!
//! * Russian and Brazilian: centi-men (a man = 100) from the side to move's
//!   point of view: material, advancement, centre, back-rank guard, flank
//!   balance, runaway men, king mobility and the main road, plus the learned
//!   weights of the men in every 4x4 block of the board ([`patterns`], when
//!   the weights have any), then trading down when ahead and the drawn king
//!   endings.
//! * Adiyukh: hundredths of a point of the expected final score difference
//!   (side to move minus opponent). The current half-board count is the
//!   baseline; tower composition, towers that can still cross the middle,
//!   kings, mobility and running out of moves adjust it. A position where
//!   the side to move has no move is scored exactly (the game is over).
//!
//! Symmetry is built in: each side's terms are computed by the same code on
//! that side's own view of the board (Black's pieces are seen after turning
//! the board 180 degrees, which in the ghost layout is a bit reversal), so
//! a position and its colour-flipped mirror always get the same score.
//!
//! The evaluation never allocates; [`breakdown`] runs the same code and
//! records each term. Its parameters are [`weights::Weights`], one table
//! per variant.
//!
//! ```
//! use shashki::{eval, Position, Variant};
//! for v in Variant::ALL {
//!     assert_eq!(eval::evaluate(&Position::start(v)), 0);
//! }
//! ```

pub mod patterns;
pub mod weights;

use crate::board::{shift, Color, Geometry, Rays, MAX_BITS};
use crate::position::Position;
use crate::variant::Variant;
use std::borrow::Cow;
use weights::{param, Weights};

/// Static evaluation from the side to move's point of view, in centi-men for
/// russian/brazilian (a man = 100), and for the Adiyukh variants in hundredths
/// of a point of the expected final score difference (side to move minus
/// opponent), e.g. +1000 = expected to win by 10 checkers (17:7).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, Weights::for_variant(pos.variant()))
}

/// [`evaluate`] with the weights given explicitly.
#[inline]
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let white = if crate::board::has_popcnt() {
        white_score::<_, true>(pos, w, &mut NoRecord)
    } else {
        white_score::<_, false>(pos, w, &mut NoRecord)
    };
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// A breakdown for humans: each term as White's value minus Black's (and the
/// adjustments applied to the sum), then `("total", score from White's view)`.
pub fn breakdown(pos: &Position) -> Vec<(&'static str, i32)> {
    let mut out = Vec::with_capacity(16);
    let total = white_score::<_, false>(pos, Weights::for_variant(pos.variant()), &mut out);
    out.push(("total", total));
    out
}

/// Where the terms go: nowhere in the hot path, into a vector for
/// [`breakdown`], into per-parameter coefficients for [`features`].
trait Record {
    fn term(&mut self, name: &'static str, value: i32);
    /// `value` times the weight `param` was added to White's score
    /// (`sign` +1) or subtracted from it (-1).
    #[inline(always)]
    fn coef(&mut self, _sign: f64, _param: usize, _value: f64) {}
    /// The score so far was multiplied by `factor` (only the coefficients of
    /// `params`, or all of them when `None`).
    #[inline(always)]
    fn scale(&mut self, _params: Option<&[usize]>, _factor: f64) {}
    /// The score is now the term of `param` alone.
    #[inline(always)]
    fn keep_only(&mut self, _param: usize) {}
}

struct NoRecord;

impl Record for NoRecord {
    #[inline(always)]
    fn term(&mut self, _: &'static str, _: i32) {}
}

/// The coefficients of [`features`].
struct Coefs(Vec<f64>);

impl Record for Coefs {
    fn term(&mut self, _: &'static str, _: i32) {}

    fn coef(&mut self, sign: f64, param: usize, value: f64) {
        self.0[param] += sign * value;
    }

    fn scale(&mut self, params: Option<&[usize]>, factor: f64) {
        match params {
            Some(ps) => ps.iter().for_each(|&p| self.0[p] *= factor),
            None => self.0.iter_mut().for_each(|c| *c *= factor),
        }
    }

    fn keep_only(&mut self, param: usize) {
        for (i, c) in self.0.iter_mut().enumerate() {
            if i != param {
                *c = 0.0;
            }
        }
    }
}

/// The evaluation as a linear function of the weights near `w`: one
/// coefficient per parameter (in the order of [`Weights::names`]) such that
/// `sum(coef[i] * w'[i])` is the score from White's point of view for
/// weights `w'` close to `w` (exactly, up to the integer rounding of the
/// scaled terms, while `w'` keeps `w`'s `trade_down` and `drawish_scale`,
/// and the runaway terms keep their signs).
///
/// It runs the code of [`evaluate_with`], so the two cannot disagree. The
/// two scaling parameters (`trade_down`, `drawish_scale`) multiply other
/// terms; their coefficients are left at 0 and a linear fit keeps them
/// fixed. This is what the tuner (`tuning/`) fits.
///
/// Pattern weights, if `w` has any, are left out (the coefficients are
/// those of the hand-shaped terms alone).
pub fn features(pos: &Position, w: &Weights) -> Vec<f64> {
    let mut c = Coefs(vec![0.0; Weights::names().len()]);
    white_score::<_, false>(pos, &hand_shaped(w), &mut c);
    c.0
}

/// `w` without its pattern weights (borrowed when it has none).
fn hand_shaped(w: &Weights) -> Cow<'_, Weights> {
    match w.patterns {
        None => Cow::Borrowed(w),
        Some(_) => Cow::Owned(Weights {
            patterns: None,
            ..w.clone()
        }),
    }
}

/// What the pattern fit needs of a position: the evaluation is
/// `hand + scale * patterns` from White's side, where `hand` is the
/// hand-shaped evaluation of `w` without patterns, `scale` the factor of the
/// drawn king endings (1 elsewhere; 0 in a tower game that is over, scored
/// by its exact count), and `patterns` the score of the configurations
/// `indices` (the first [`patterns::Layout::regions`] entries) with
/// `pieces` on the board ([`patterns::Patterns::score`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternInputs {
    pub hand: i32,
    pub scale: f64,
    pub pieces: i32,
    pub indices: [u16; patterns::MAX_REGIONS],
}

/// The [`PatternInputs`] of `pos`.
pub fn pattern_inputs(pos: &Position, w: &Weights) -> PatternInputs {
    /// Follows the factor applied to the whole score.
    struct Scale(f64);
    impl Record for Scale {
        fn term(&mut self, _: &'static str, _: i32) {}
        fn scale(&mut self, params: Option<&[usize]>, factor: f64) {
            if params.is_none() {
                self.0 *= factor;
            }
        }
        // A tower game that is over: the exact count replaces every term,
        // the patterns too.
        fn keep_only(&mut self, _param: usize) {
            self.0 = 0.0;
        }
    }
    let mut scale = Scale(1.0);
    let hand = white_score::<_, false>(pos, &hand_shaped(w), &mut scale);
    let (white, black) = pattern_squares(pos);
    PatternInputs {
        hand,
        scale: scale.0,
        pieces: pos.occupied().count_ones() as i32,
        indices: patterns::Layout::of(pos.variant()).indices(white, black),
    }
}

/// What the patterns see: the men of each colour (kings are left to the
/// hand-shaped terms), or in the tower variants the towers by their top.
fn pattern_squares(pos: &Position) -> (u64, u64) {
    let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    if pos.variant().rules().towers {
        (white, black)
    } else {
        let kings = pos.kings();
        (white & !kings, black & !kings)
    }
}

impl Record for Vec<(&'static str, i32)> {
    fn term(&mut self, name: &'static str, value: i32) {
        self.push((name, value));
    }
}

#[inline(always)]
fn white_score<R: Record, const P: bool>(pos: &Position, w: &Weights, rec: &mut R) -> i32 {
    match pos.variant() {
        Variant::Russian | Variant::Brazilian => men_eval::<R, P>(pos, w, &T64, &T64_BLACK, rec),
        Variant::Adiyukh64 => tower_eval::<R, P>(pos, w, &T64, rec),
        Variant::Adiyukh80 => tower_eval::<R, P>(pos, w, &T80, rec),
    }
}

// ---------------------------------------------------------------------------
// Board tables, all from White's side (the "own view" of either colour).

/// Precomputed masks of one board shape.
struct Tables {
    /// Bits spanned by the layout (36 or 44): turning the board 180 degrees
    /// maps bit `b` to `bits - 1 - b`.
    bits: u32,
    /// Dark squares per rank (the north-west step).
    half: i32,
    board: u64,
    ranks: [u64; 8],
    rank_of: [u8; MAX_BITS],
    /// The squares a man could pass on its way to the crown: the forward
    /// triangle (every square ahead within the diagonals).
    cone: [u64; MAX_BITS],
    /// c3 e3 d4 f4 c5 e5 d6 f6 on 8x8.
    center: u64,
    /// The left half of the files (a-d on 8x8).
    left: u64,
    /// The long diagonal from a1.
    main_road: u64,
    /// c1 and e1.
    key_back: u64,
    rays: &'static Rays,
}

const fn tables(g: Geometry) -> Tables {
    let files = g.files();
    let mut t = Tables {
        bits: g.half as u32 * 8 + 4,
        half: g.half as i32,
        board: g.board_mask(),
        rays: g.rays(),
        ranks: [0; 8],
        rank_of: [0; MAX_BITS],
        cone: [0; MAX_BITS],
        center: 0,
        left: 0,
        main_road: 0,
        key_back: 0,
    };
    let mut r = 0u8;
    while r < 8 {
        t.ranks[r as usize] = g.rank_mask(r);
        let mut f = 0u8;
        while f < files {
            if let Some(sq) = g.square(f, r) {
                let bb = sq.bb();
                t.rank_of[sq.0 as usize] = r;
                if f >= 2 && f <= 5 && r >= 2 && r <= 5 {
                    t.center |= bb;
                }
                if f < files / 2 {
                    t.left |= bb;
                }
                if f == r {
                    t.main_road |= bb;
                }
                if r == 0 && (f == 2 || f == 4) {
                    t.key_back |= bb;
                }
                let mut cone = 0u64;
                let mut r2 = r + 1;
                while r2 < 8 {
                    let d = r2 - r;
                    let mut f2 = 0u8;
                    while f2 < files {
                        let near = if f2 > f { f2 - f <= d } else { f - f2 <= d };
                        if near {
                            if let Some(s2) = g.square(f2, r2) {
                                cone |= s2.bb();
                            }
                        }
                        f2 += 1;
                    }
                    r2 += 1;
                }
                t.cone[sq.0 as usize] = cone;
            }
            f += 1;
        }
        r += 1;
    }
    t
}

static T64: Tables = tables(Geometry::BOARD_64);
static T80: Tables = tables(Geometry::BOARD_80);
/// [`T64`] turned 180 degrees: Black's own view without turning the board.
static T64_BLACK: Tables = turned(&T64);

/// A bitboard turned 180 degrees on a layout of `bits` bits.
const fn turn(b: u64, bits: u32) -> u64 {
    b.reverse_bits() >> (64 - bits)
}

/// The tables of a board turned 180 degrees: Black's own view in the real
/// board's bits (squares mirrored, ranks counted from Black's side).
const fn turned(t: &Tables) -> Tables {
    let mut u = Tables {
        bits: t.bits,
        half: t.half,
        board: t.board,
        rays: t.rays,
        ranks: [0; 8],
        rank_of: [0; MAX_BITS],
        cone: [0; MAX_BITS],
        center: turn(t.center, t.bits),
        left: turn(t.left, t.bits),
        main_road: turn(t.main_road, t.bits),
        key_back: turn(t.key_back, t.bits),
    };
    let mut r = 0;
    while r < 8 {
        u.ranks[r] = turn(t.ranks[r], t.bits);
        r += 1;
    }
    let mut s = 0;
    while s < t.bits as usize {
        let m = t.bits as usize - 1 - s;
        u.rank_of[s] = t.rank_of[m];
        u.cone[s] = turn(t.cone[m], t.bits);
        s += 1;
    }
    u
}

/// The board turned 180 degrees: Black's own view.
#[inline(always)]
fn flip(b: u64, t: &Tables) -> u64 {
    b.reverse_bits() >> (64 - t.bits)
}

#[inline(always)]
fn pop<const P: bool>(b: u64) -> i32 {
    if P {
        // SAFETY: P is true only when `has_popcnt()` said yes (see
        // `evaluate_with`).
        unsafe { crate::board::popcount_hw(b) as i32 }
    } else {
        b.count_ones() as i32
    }
}

// ---------------------------------------------------------------------------
// Russian and Brazilian.

const MEN_TERMS: [&str; 8] = [
    "material",
    "advancement",
    "centre",
    "back rank guard",
    "balance",
    "runaway men",
    "king mobility",
    "main road",
];

/// Pieces on the board at the start (24): the scale of the phase terms.
const START_PIECES: i32 = 24;

/// One side's own view of the board (it moves north).
struct View {
    men: u64,
    kings: u64,
    /// Every enemy piece.
    opp: u64,
    opp_kings: u64,
    empty: u64,
}

/// One side's terms; `phase` is the number of pieces on the board; `sign` is
/// +1 for White, -1 for Black (for the recorder only).
#[inline(always)]
fn men_side<R: Record, const P: bool>(
    t: &Tables,
    w: &Weights,
    v: View,
    phase: i32,
    rec: &mut R,
    sign: f64,
) -> [i32; 8] {
    let View {
        men,
        kings,
        opp,
        opp_kings,
        empty,
    } = v;
    let material = w.man * pop::<P>(men) + w.king * pop::<P>(kings);
    rec.coef(sign, param::MAN, pop::<P>(men) as f64);
    rec.coef(sign, param::KING, pop::<P>(kings) as f64);

    let adv_w = [
        w.adv_rank2,
        w.adv_rank3,
        w.adv_rank4,
        w.adv_rank5,
        w.adv_rank6,
        w.adv_rank7,
    ];
    let mut advancement = 0;
    for (i, a) in adv_w.iter().enumerate() {
        advancement += a * pop::<P>(men & t.ranks[i + 1]);
        rec.coef(
            sign,
            param::ADV_RANK2 + i,
            pop::<P>(men & t.ranks[i + 1]) as f64,
        );
    }

    let centre = w.center * pop::<P>(men & t.center);
    rec.coef(sign, param::CENTER, pop::<P>(men & t.center) as f64);

    let back = pop::<P>(men & t.ranks[0]);
    let key_back = pop::<P>(men & t.key_back);
    let guard = (w.back_guard * back + w.back_guard_key * key_back) * phase / START_PIECES;
    let scale = phase as f64 / START_PIECES as f64;
    rec.coef(sign, param::BACK_GUARD, back as f64 * scale);
    rec.coef(sign, param::BACK_GUARD_KEY, key_back as f64 * scale);

    let flanks = (pop::<P>(men & t.left) - pop::<P>(men & !t.left)).abs();
    let balance = -w.balance * flanks;
    rec.coef(sign, param::BALANCE, -flanks as f64);

    let mut runaway = 0;
    if opp_kings == 0 {
        let mut m = men;
        while m != 0 {
            let s = m.trailing_zeros() as usize;
            m &= m - 1;
            if t.cone[s] & opp == 0 {
                let steps = 7 - t.rank_of[s] as i32;
                let r = w.runaway - w.runaway_step * (steps - 1);
                runaway += r.max(0);
                if r > 0 {
                    rec.coef(sign, param::RUNAWAY, 1.0);
                    rec.coef(sign, param::RUNAWAY_STEP, -(steps - 1) as f64);
                }
            }
        }
    }

    // Squares each king reaches (turning the board maps diagonals onto
    // diagonals, so the board's rays serve either view).
    let occupied = t.board & !empty;
    let mut reach = 0;
    let mut k = kings;
    while k != 0 {
        let sq = k.trailing_zeros() as usize;
        k &= k - 1;
        let mut squares = 0;
        for d in 0..4 {
            squares |= t.rays.scan(d, sq, occupied).1;
        }
        reach += pop::<P>(squares);
    }
    let king_mobility = w.king_mobility * reach;
    rec.coef(sign, param::KING_MOBILITY, reach as f64);

    let main_road = w.main_road * pop::<P>(kings & t.main_road);
    rec.coef(sign, param::MAIN_ROAD, pop::<P>(kings & t.main_road) as f64);

    [
        material,
        advancement,
        centre,
        guard,
        balance,
        runaway,
        king_mobility,
        main_road,
    ]
}

/// A known drawn king ending with `weak` the side behind: a lone king
/// against at most two pieces, or against three while it holds the main
/// road (FMJD-64 rules 7.2.7-7.2.8), or kings only with a lead of one king.
#[inline(always)]
fn drawish(strong_n: i32, strong_men: i32, weak_n: i32, weak_men: i32, weak_on_road: bool) -> bool {
    if weak_men != 0 || weak_n == 0 {
        return false;
    }
    if weak_n == 1 {
        return strong_n <= 2 || (strong_n == 3 && weak_on_road);
    }
    strong_men == 0 && strong_n <= weak_n + 1
}

fn men_eval<R: Record, const P: bool>(
    pos: &Position,
    w: &Weights,
    t: &Tables,
    t_black: &Tables,
    rec: &mut R,
) -> i32 {
    let occ = pos.occupied();
    let empty = t.board & !occ;
    let all_kings = pos.kings();
    let (wp, bp) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    let (wk, bk) = (wp & all_kings, bp & all_kings);
    let (wm, bm) = (wp & !all_kings, bp & !all_kings);
    let phase = pop::<P>(occ);

    let white = men_side::<R, P>(
        t,
        w,
        View {
            men: wm,
            kings: wk,
            opp: bp,
            opp_kings: bk,
            empty,
        },
        phase,
        rec,
        1.0,
    );
    // Black's terms on the turned tables: the same as on the turned board.
    let black = men_side::<R, P>(
        t_black,
        w,
        View {
            men: bm,
            kings: bk,
            opp: wp,
            opp_kings: wk,
            empty,
        },
        phase,
        rec,
        -1.0,
    );
    let mut score = 0;
    for i in 0..MEN_TERMS.len() {
        let d = white[i] - black[i];
        rec.term(MEN_TERMS[i], d);
        score += d;
    }
    if let Some(p) = &w.patterns {
        let d = p.score(wm, bm, phase);
        rec.term("patterns", d);
        score += d;
    }

    // Trading down when ahead: a share of the material lead, growing as
    // pieces come off.
    let lead = white[0] - black[0];
    let trade = lead * w.trade_down * (START_PIECES - phase) / (START_PIECES * 100);
    rec.term("trade down", trade);
    rec.scale(
        Some(&[param::MAN, param::KING]),
        1.0 + (w.trade_down * (START_PIECES - phase)) as f64 / (START_PIECES * 100) as f64,
    );
    score += trade;

    let (wn, bn) = (pop::<P>(wp), pop::<P>(bp));
    let (wmn, bmn) = (pop::<P>(wm), pop::<P>(bm));
    let draw = (lead >= 0 && drawish(wn, wmn, bn, bmn, bk & t.main_road != 0))
        || (lead <= 0 && drawish(bn, bmn, wn, wmn, wk & t.main_road != 0));
    if draw {
        let scaled = score * w.drawish_scale / 16;
        rec.term("drawish ending", scaled - score);
        rec.scale(None, w.drawish_scale as f64 / 16.0);
        score = scaled;
    }
    score
}

// ---------------------------------------------------------------------------
// Adiyukh.

const TOWER_TERMS: [&str; 9] = [
    "half-board count",
    "prisoners",
    "tower height",
    "fragile tops",
    "advancing towers",
    "blocked towers",
    "kings",
    "mobility",
    "no move soon",
];

/// One side's terms on its own view (`own` and `empty` already turned for
/// Black), and its number of quiet moves.
#[inline(always)]
fn tower_side<const BLACK: bool, R: Record, const P: bool>(
    pos: &Position,
    t: &Tables,
    w: &Weights,
    own: u64,
    empty: u64,
    rec: &mut R,
) -> ([i32; 9], i32) {
    let sign = if BLACK { -1.0 } else { 1.0 };
    let (nw, ne) = (t.half, t.half + 1);
    let men = own & !t.ranks[7];
    let mobility = pop::<P>(shift(men, nw) & empty) + pop::<P>(shift(men, ne) & empty);
    let free = men & (shift(empty, -nw) | shift(empty, -ne));
    let adv_w = [
        w.advance_rank1,
        w.advance_rank2,
        w.advance_rank3,
        w.advance_rank4,
    ];

    let (mut count, mut prisoners, mut extra, mut fragile) = (0, 0, 0, 0);
    let (mut advance, mut blocked, mut kings, mut king_h) = (0, 0, 0, 0);
    let mut b = own;
    while b != 0 {
        let s = b.trailing_zeros();
        b &= b - 1;
        let real = if BLACK { t.bits - 1 - s } else { s };
        let v = pos.towers[real as usize];
        let (a, o) = ((v & 15) as i32, (v >> 4) as i32);
        let h = a + o;
        let r = t.rank_of[s as usize] as usize;
        prisoners += o;
        extra += a - 1;
        if a == 1 {
            fragile += o;
        }
        if r >= 4 {
            count += h;
            if r == 7 {
                kings += 1;
                king_h += h;
            }
        } else {
            count -= h;
            if free & (1u64 << s) != 0 {
                advance += adv_w[r] * h;
                rec.coef(sign, param::ADVANCE_RANK1 + r, h as f64);
            } else {
                blocked += h;
            }
        }
    }
    let soon = match mobility {
        0 => w.no_moves,
        1 => w.one_move,
        _ => 0,
    };
    for (p, v) in [
        (param::HALF_COUNT, count),
        (param::PRISONER, prisoners),
        (param::OWN_EXTRA, extra),
        (param::FRAGILE, fragile),
        (param::BLOCKED, blocked),
        (param::KING_TOWER, kings),
        (param::KING_CHECKER, king_h),
        (param::MOBILITY, mobility),
        (param::NO_MOVES, (mobility == 0) as i32),
        (param::ONE_MOVE, (mobility == 1) as i32),
    ] {
        rec.coef(sign, p, v as f64);
    }
    (
        [
            w.half_count * count,
            w.prisoner * prisoners,
            w.own_extra * extra,
            w.fragile * fragile,
            advance,
            w.blocked * blocked,
            w.king_tower * kings + w.king_checker * king_h,
            w.mobility * mobility,
            soon,
        ],
        mobility,
    )
}

fn tower_eval<R: Record, const P: bool>(
    pos: &Position,
    w: &Weights,
    t: &Tables,
    rec: &mut R,
) -> i32 {
    let empty = t.board & !pos.occupied();
    let (white, wmob) = tower_side::<false, R, P>(pos, t, w, pos.pieces(Color::White), empty, rec);
    let (black, bmob) = tower_side::<true, R, P>(
        pos,
        t,
        w,
        flip(pos.pieces(Color::Black), t),
        flip(empty, t),
        rec,
    );
    let mut score = 0;
    for i in 0..TOWER_TERMS.len() {
        let d = white[i] - black[i];
        rec.term(TOWER_TERMS[i], d);
        score += d;
    }
    if let Some(p) = &w.patterns {
        let d = p.score(
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pop::<P>(pos.occupied()),
        );
        rec.term("patterns", d);
        score += d;
    }
    // The side to move with no move: the game is over, the count is final.
    let stuck = match pos.side_to_move() {
        Color::White => wmob == 0,
        Color::Black => bmob == 0,
    };
    if stuck && !crate::movegen::has_capture(pos) {
        let exact = white[0] - black[0];
        rec.term("game over (exact count)", exact - score);
        // Only the count is left: keep the half-count coefficient alone.
        rec.keep_only(param::HALF_COUNT);
        score = exact;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::squares;
    use crate::fen::parse_position;
    use crate::position::Piece;
    use rand::rngs::StdRng;
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};

    /// The position turned 180 degrees with the colours and the side to move
    /// swapped, built through position text.
    fn mirror(pos: &Position) -> Position {
        let g = pos.geometry();
        let mut text = String::new();
        text.push(pos.side_to_move().opposite().letter());
        for color in [Color::White, Color::Black] {
            text.push(':');
            text.push(color.letter());
            let mut entries = Vec::new();
            for sq in squares(pos.pieces(color.opposite())) {
                let (f, r) = g.file_rank(sq);
                let m = g.square_name(g.square(g.files() - 1 - f, 7 - r).unwrap());
                entries.push(match pos.piece_at(sq).unwrap() {
                    Piece::Man(_) => m,
                    Piece::King(_) => format!("K{m}"),
                    Piece::Tower(t) => format!("{m}-{}/{}", t.own, t.other),
                });
            }
            text.push_str(&entries.join(","));
        }
        parse_position(pos.variant(), &text).unwrap()
    }

    fn pos(v: Variant, text: &str) -> Position {
        parse_position(v, text).unwrap()
    }

    #[test]
    fn mirror_is_an_involution() {
        let mut rng = StdRng::seed_from_u64(3);
        for v in Variant::ALL {
            let mut p = Position::start(v);
            for _ in 0..30 {
                assert_eq!(mirror(&mirror(&p)), p);
                let m = mirror(&p);
                assert_eq!(m.checker_count(Color::White), p.checker_count(Color::Black));
                let (w, b) = p.half_board_score();
                assert_eq!(m.half_board_score(), (b, w));
                let moves = p.legal_moves();
                let Some(mv) = moves.choose(&mut rng) else {
                    break;
                };
                p = p.play(mv);
            }
        }
    }

    #[test]
    fn symmetric_on_random_positions() {
        let mut rng = StdRng::seed_from_u64(0x5ba5);
        for v in Variant::ALL {
            let mut checked = 0;
            for _ in 0..150 {
                let plies = rng.gen_range(0..120);
                walk(v, plies, &mut rng, |p| {
                    let a = evaluate(p);
                    let m = mirror(p);
                    assert_eq!(a, evaluate(&m), "{v}: {p} vs mirror {m}");
                    checked += 1;
                });
            }
            assert!(checked > 1000, "{v}: only {checked} positions");
        }
    }

    /// A random game of `v` from the start: `visit` sees each position
    /// before its move, for at most `plies` moves; the position reached.
    fn walk(
        v: Variant,
        plies: usize,
        rng: &mut StdRng,
        mut visit: impl FnMut(&Position),
    ) -> Position {
        let mut p = Position::start(v);
        for _ in 0..plies {
            visit(&p);
            let moves = p.legal_moves();
            let Some(mv) = moves.choose(rng) else {
                break;
            };
            p = p.play(mv);
        }
        p
    }

    /// Random pattern weights for `v`.
    fn random_patterns(v: Variant, seed: u64) -> Weights {
        use patterns::{Layout, Patterns};
        let mut rng = StdRng::seed_from_u64(seed);
        let w = (0..Layout::of(v).weight_count())
            .map(|_| rng.gen_range(-800..=800))
            .collect();
        Weights {
            patterns: Some(std::sync::Arc::new(Patterns::from_weights(v, w).unwrap())),
            ..Weights::for_variant(v).clone()
        }
    }

    #[test]
    fn patterns_are_colour_symmetric_on_random_positions() {
        let mut rng = StdRng::seed_from_u64(0x9a77);
        for v in Variant::ALL {
            let w = random_patterns(v, 11);
            let hand = Weights {
                patterns: None,
                ..w.clone()
            };
            let (mut checked, mut differ) = (0, 0);
            for _ in 0..150 {
                let plies = rng.gen_range(0..120);
                walk(v, plies, &mut rng, |p| {
                    let (a, m) = (evaluate_with(p, &w), mirror(p));
                    assert_eq!(a, evaluate_with(&m, &w), "{v}: {p} vs mirror {m}");
                    checked += 1;
                    // The patterns do change the score (the test could fail).
                    differ += (a != evaluate_with(p, &hand)) as usize;
                });
            }
            assert!(checked > 1000, "{v}: only {checked} positions");
            assert!(
                differ * 10 > checked * 9,
                "{v}: {differ} of {checked} changed"
            );
        }
    }

    #[test]
    fn pattern_inputs_reproduce_the_evaluation() {
        // hand + scale * patterns is the engine's score (up to rounding).
        let mut rng = StdRng::seed_from_u64(0x1b);
        for v in Variant::ALL {
            let w = random_patterns(v, 12);
            let p = w.patterns.as_ref().unwrap();
            let mut over = 0;
            for _ in 0..200 {
                let plies = rng.gen_range(0..150);
                let pos = walk(v, plies, &mut rng, |_| {});
                let inp = pattern_inputs(&pos, &w);
                let (wm, bm) = if v.rules().towers {
                    (pos.pieces(Color::White), pos.pieces(Color::Black))
                } else {
                    let kings = pos.kings();
                    (
                        pos.pieces(Color::White) & !kings,
                        pos.pieces(Color::Black) & !kings,
                    )
                };
                // A tower game that is over is scored by its count alone.
                if v.rules().towers && pos.legal_moves().is_empty() {
                    assert_eq!(inp.scale, 0.0, "{pos}");
                    over += 1;
                }
                let pat = p.score(wm, bm, inp.pieces);
                let want = inp.hand as f64 + inp.scale * pat as f64;
                let e = evaluate_with(&pos, &w);
                let white = if pos.side_to_move() == Color::White {
                    e
                } else {
                    -e
                };
                // Up to rounding: the engine truncates the scaled sum
                // once, `hand` was truncated on its own (each within 1).
                assert!(
                    (white as f64 - want).abs() < 2.0,
                    "{pos}: {white} vs {want}"
                );
                // And the indices are those of the patterns module.
                assert_eq!(inp.indices, patterns::Layout::of(v).indices(wm, bm));
            }
            if v.rules().towers {
                assert!(over > 0, "{v}: no finished game among the random ones");
            }
        }
    }

    #[test]
    fn start_positions_are_even() {
        for v in Variant::ALL {
            let p = Position::start(v);
            assert_eq!(evaluate(&p), 0, "{v}");
            let b = breakdown(&p);
            assert_eq!(b.last(), Some(&("total", 0)));
        }
    }

    #[test]
    fn breakdown_adds_up_to_the_evaluation() {
        let mut rng = StdRng::seed_from_u64(7);
        for v in Variant::ALL {
            let mut p = Position::start(v);
            for _ in 0..60 {
                let b = breakdown(&p);
                let (last, terms) = b.split_last().unwrap();
                assert_eq!(last.0, "total");
                assert_eq!(terms.iter().map(|t| t.1).sum::<i32>(), last.1, "{v} {p}");
                let stm = if p.side_to_move() == Color::White {
                    1
                } else {
                    -1
                };
                assert_eq!(evaluate(&p), stm * last.1);
                let moves = p.legal_moves();
                let Some(mv) = moves.choose(&mut rng) else {
                    break;
                };
                p = p.play(mv);
            }
        }
    }

    #[test]
    fn an_extra_man_is_clearly_positive() {
        for v in [Variant::Russian, Variant::Brazilian] {
            // Black's h8 missing, White to move.
            let w = pos(
                v,
                "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8",
            );
            assert!(evaluate(&w) >= 60, "{v}: {}", evaluate(&w));
            // White's a1 missing, Black to move.
            let b = pos(
                v,
                "B:Wc1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
            );
            assert!(evaluate(&b) >= 60, "{v}: {}", evaluate(&b));
            // In an ending too.
            let e = pos(v, "W:Wc3,e3:Bf6");
            assert!(evaluate(&e) >= 60, "{v}: {}", evaluate(&e));
            assert_eq!(evaluate(&mirror(&e)), evaluate(&e));
        }
    }

    #[test]
    fn a_king_is_worth_more_than_a_man() {
        for v in [Variant::Russian, Variant::Brazilian] {
            // Off the main road (the tuned weights count a king there less).
            let king = pos(v, "W:WKb4,e1,g1:Bb6,d8,h6");
            let man = pos(v, "W:Wb4,e1,g1:Bb6,d8,h6");
            assert!(evaluate(&king) > evaluate(&man) + 100, "{v}");
            // A king and a man against three men: still ahead (the king
            // off the main road, which the tuned weights count lower).
            let k2 = pos(v, "W:WKc1,a1:Bd6,f6,h8");
            assert!(evaluate(&k2) > 0, "{v}: {}", evaluate(&k2));
            let w = Weights::for_variant(v);
            assert!(w.king >= 2 * w.man && w.king <= 3 * w.man);
        }
    }

    #[test]
    fn drawn_king_endings_are_scaled_down() {
        let v = Variant::Russian;
        // Three kings against a lone king on the main road: a draw.
        let road = evaluate(&pos(v, "W:WKa3,Kc1,Ke1:BKd4"));
        // Off the main road: a win.
        let off = evaluate(&pos(v, "W:WKa3,Kc1,Ke1:BKd6"));
        assert!(off > 300, "{off}");
        assert!(road < off / 3, "{road} vs {off}");
        // Two kings against one: a draw.
        let two = evaluate(&pos(v, "W:WKa3,Kc1:BKd6"));
        assert!(two < 100, "{two}");
    }

    #[test]
    fn runaway_men_and_back_guard() {
        let v = Variant::Russian;
        // White's man on c5 runs free when nothing stands in its way (b6 does).
        let free = evaluate(&pos(v, "W:Wc5,g3,h2:Bf6,h6"));
        let held = evaluate(&pos(v, "W:Wc5,g3,h2:Bb6,h6"));
        assert!(free > held, "{free} {held}");
    }

    #[test]
    fn adiyukh_count_17_7_is_about_plus_ten_points() {
        let v = Variant::Adiyukh64;
        // White cannot move: the game is over at 17:7.
        let over = pos(v, "W:Wb8-4/2,d8-4/2,f8-4/1:Ba1-3,c1-2,e1-2");
        assert_eq!(over.half_board_score(), (17, 7));
        assert_eq!(evaluate(&over), 1000);
        // The same count with play left.
        let live = pos(v, "W:Wb8-4/2,d8-4/2,f6-4/1:Ba1-3,c1-2,e1-2");
        assert_eq!(live.half_board_score(), (17, 7));
        let e = evaluate(&live);
        assert!((800..=1250).contains(&e), "{e}");
        // And from Black's side, the other way round.
        let black = pos(v, "B:Wb8-4/2,d8-4/2,f6-4/1:Ba1-3,c1-2,e1-2");
        assert!(evaluate(&black) <= -800, "{}", evaluate(&black));
        assert_eq!(evaluate(&mirror(&live)), e);
    }

    #[test]
    fn adiyukh_80_baseline_dominates() {
        let v = Variant::Adiyukh80;
        // 18:12 with play left for both.
        let p = pos(v, "W:Wb6-5/1,d6-4/2,h6-3/3,a3:Bc3-5/1,e3-4/1");
        assert_eq!(p.half_board_score(), (18, 12));
        // The hand-shaped terms: the count dominates.
        let e = evaluate_with(&p, &hand_shaped(Weights::for_variant(v)));
        assert!((450..=800).contains(&e), "{e}");
        // The learned patterns adjust it but keep White clearly ahead.
        let e = evaluate(&p);
        assert!((200..=900).contains(&e), "{e}");
    }

    /// Random weights around `base`, keeping the two scaling parameters.
    fn jitter(base: &Weights, rng: &mut StdRng) -> Weights {
        let mut v = base.to_vec();
        for (i, x) in v.iter_mut().enumerate() {
            if i != param::TRADE_DOWN && i != param::DRAWISH_SCALE && *x != 0 {
                *x += rng.gen_range(-(x.abs() / 2 + 3)..=(x.abs() / 2 + 3));
            }
        }
        Weights::from_slice(&v).unwrap()
    }

    #[test]
    fn features_agree_with_the_evaluation() {
        let mut rng = StdRng::seed_from_u64(0xfea7);
        for v in Variant::ALL {
            let mut checked = 0;
            let mut max_err: f64 = 0.0;
            for _ in 0..60 {
                let w = jitter(Weights::for_variant(v), &mut rng);
                let mut p = Position::start(v);
                for _ in 0..rng.gen_range(0..150) {
                    let f = features(&p, &w);
                    let linear: f64 = f.iter().zip(w.to_vec()).map(|(c, x)| c * x as f64).sum();
                    let white = match p.side_to_move() {
                        Color::White => evaluate_with(&p, &w),
                        Color::Black => -evaluate_with(&p, &w),
                    };
                    let err = (linear - white as f64).abs();
                    // Integer rounding of the scaled terms: at most a few units.
                    assert!(err <= 4.0, "{v} {p}: linear {linear} vs eval {white}");
                    max_err = max_err.max(err);
                    checked += 1;
                    let moves = p.legal_moves();
                    let Some(mv) = moves.choose(&mut rng) else {
                        break;
                    };
                    p = p.play(mv);
                }
            }
            assert!(checked > 1000, "{v}: only {checked} positions");
            if v.rules().towers {
                // The tower evaluation is exactly linear.
                assert_eq!(max_err, 0.0, "{v}");
            }
        }
    }

    #[test]
    fn weights_round_trip() {
        for v in Variant::ALL {
            let w = Weights::for_variant(v);
            let vec = w.to_vec();
            assert_eq!(Weights::names().len(), vec.len());
            assert_eq!(
                Weights::from_slice(&vec).map(|b| b.to_vec()),
                Some(vec.clone())
            );
            assert_eq!(Weights::from_slice(&vec[1..]), None);
            let mut changed = vec.clone();
            changed[3] += 1;
            let w2 = Weights::from_slice(&changed).unwrap();
            assert_ne!(&w2, w);
            assert_eq!(w2.to_vec(), changed);
        }
        let names = Weights::names();
        let mut sorted = names.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
    }
}

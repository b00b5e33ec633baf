//! The move generator: one source for every variant, monomorphised per
//! variant through [`Rules`](crate::variant) so the rule flags cost nothing
//! in the hot loops.
//!
//! Captures are a depth-first walk over a scratch copy of the board:
//! * deferred removal (Turkish strike): jumped pieces are marked; they keep
//!   blocking and cannot be jumped again until the move ends;
//! * immediate removal (towers): the top checker of a jumped tower is taken at
//!   once and put back on the way out of the walk;
//! * a king (flying) may land on any empty square beyond the piece it jumps,
//!   but if some landing square lets the capture go on it must land on one of
//!   those; no jump goes straight back the way the last one came;
//! * a man that reaches its promotion rank mid-capture continues as a king
//!   where the variant crowns mid-capture.
//!
//! Captures are compulsory. Under the majority rule only the longest
//! sequences are kept. Moves with the same start, final square and resulting
//! position are kept once.
//!
//! Under deferred removal nothing leaves the board during a walk, so the
//! walks of men and kings (`man_walk`, `king_walk`) read the enemy pieces
//! that can be jumped in each direction once per capturer; the tower
//! variants walk with `man_jumps` and `king_jumps`. For perft the
//! generator also counts a position's moves without building them
//! ([`count_moves`]; a counting walk keeps only each capture's identity,
//! its captured squares, start, end and crowning) and hands moves to a
//! function as they are found instead of listing them.

use crate::board::{nearest, shift, Bitboard, Color, MAX_BITS};
use crate::moves::{Move, MoveList, MoveSink, MAX_JUMPS};
use crate::position::{Men, Position};
use crate::variant::{with_rules, Rules};
use smallvec::SmallVec;

/// Generate the legal moves of `pos` into `list` (cleared first), each
/// distinct move once.
pub fn generate(pos: &Position, list: &mut MoveList) {
    with_rules!(pos.variant, R => gen::<R, true, _>(pos, list))
}

impl Position {
    /// All legal moves (distinct moves only).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        generate(self, &mut list);
        list
    }
}

/// Generate every legal capture *path*, keeping moves that differ only in
/// the route taken (used to read move text that names a particular route).
pub fn generate_all_paths(pos: &Position, list: &mut MoveList) {
    with_rules!(pos.variant, R => gen::<R, false, _>(pos, list))
}

/// Number of distinct legal moves of `pos` (what perft counts one ply deep),
/// without building quiet moves.
pub fn count_moves(pos: &Position) -> usize {
    if crate::board::has_popcnt() {
        with_rules!(pos.variant, R => count::<R, true>(pos))
    } else {
        with_rules!(pos.variant, R => count::<R, false>(pos))
    }
}

/// True when the side to move must capture.
pub fn has_capture(pos: &Position) -> bool {
    with_rules!(pos.variant, R => can_capture::<R>(pos))
}

/// The number of squares of `b`: with the `popcnt` instruction when `P`
/// (which the caller sets only where [`crate::board::has_popcnt`] said
/// yes), `count_ones` otherwise (a dozen instructions on the x86-64
/// baseline).
#[inline(always)]
fn popcount<const P: bool>(b: Bitboard) -> u32 {
    if P {
        // SAFETY: P is true only when `has_popcnt()` said yes.
        unsafe { crate::board::popcount_hw(b) }
    } else {
        b.count_ones()
    }
}

#[inline(always)]
fn bit(b: Bitboard) -> u8 {
    b.trailing_zeros() as u8
}

/// Forward directions (indices into `Rules::STEPS`) of a colour.
#[inline(always)]
fn forward(color: Color) -> [usize; 2] {
    match color {
        Color::White => [0, 1],
        Color::Black => [2, 3],
    }
}

/// The side to move as a type, for perft: monomorphised per side, its
/// loops read the colour's directions and promotion rank as constants.
pub(crate) trait Side {
    const COLOR: Color;
    /// The side to move after this one.
    type Other: Side;
}

/// White to move.
pub(crate) struct WhiteToMove;
/// Black to move.
pub(crate) struct BlackToMove;

impl Side for WhiteToMove {
    const COLOR: Color = Color::White;
    type Other = BlackToMove;
}

impl Side for BlackToMove {
    const COLOR: Color = Color::Black;
    type Other = WhiteToMove;
}

/// `m` with its side to move, `S`, as a constant.
#[inline(always)]
fn with_side<S: Side>(m: Men) -> Men {
    debug_assert_eq!(m.side, S::COLOR);
    Men {
        side: S::COLOR,
        ..m
    }
}

/// What the capture walk produces: every route, distinct moves, only the
/// number of distinct moves, or (`VISIT`, men and kings under free choice
/// of capture) each distinct move handed to the sink as soon as it is found,
/// without its route.
const ALL_PATHS: u8 = 0;
const DISTINCT: u8 = 1;
const COUNT: u8 = 2;
const VISIT: u8 = 3;

/// Whether a walk in `mode` tells moves apart by their identity (captured
/// squares, start, end, crowning) instead of comparing whole moves: the
/// counting and visiting walks of men and kings, where each captured piece
/// is jumped once.
const fn keyed(mode: u8, towers: bool) -> bool {
    (mode == COUNT || mode == VISIT) && !towers
}

/// What every generation step starts from.
struct Board {
    me: Color,
    empty: Bitboard,
    /// The side to move's pieces (towers it tops).
    mine: Bitboard,
    opp: Bitboard,
    kings: Bitboard,
    men: Bitboard,
    /// `jumps[d]`: the men that can make a first jump in direction `d`.
    jumps: [Bitboard; 4],
}

#[inline(always)]
fn board<R: Rules>(pos: &Position) -> Board {
    board_of::<R>(&pos.men())
}

/// The [`Board`] of the pieces `m` (towers: of the colour bitboards; their
/// kings are positional).
#[inline(always)]
fn board_of<R: Rules>(m: &Men) -> Board {
    let me = m.side;
    let opp = m.pieces[me.opposite().index()];
    let mine = m.pieces[me.index()];
    let empty = R::BOARD & !(mine | opp);
    let kings = if R::TOWERS {
        mine & R::PROMO[me.index()]
    } else {
        mine & m.kings
    };
    let men = mine & !kings;
    let mut jumps = [0u64; 4];
    for (d, step) in R::STEPS.into_iter().enumerate() {
        jumps[d] = men & shift(opp & shift(empty, -step), -step);
    }
    Board {
        me,
        empty,
        mine,
        opp,
        kings,
        men,
        jumps,
    }
}

impl Board {
    /// Whether the side to move has a capture.
    #[inline(always)]
    fn must_capture<R: Rules>(&self) -> bool {
        self.jumps.iter().any(|&j| j != 0) || self.king_can_capture::<R>()
    }

    /// Whether some king can capture: along each ray, the first piece met is
    /// an enemy one with an empty square behind it.
    #[inline(always)]
    fn king_can_capture<R: Rules>(&self) -> bool {
        let occupied = R::BOARD & !self.empty;
        let mut k = self.kings;
        while k != 0 {
            let sq = k.trailing_zeros() as usize;
            k &= k - 1;
            for (d, step) in R::STEPS.into_iter().enumerate() {
                if R::RAYS.ray(d, sq) & self.opp == 0 {
                    continue;
                }
                let (first, _) = R::RAYS.scan(d, sq, occupied);
                if shift(first & self.opp, step) & self.empty != 0 {
                    return true;
                }
            }
        }
        false
    }
}

/// The empty squares a king on `sq` reaches in direction `d`, nearest
/// first, one at a time into `f`.
#[inline(always)]
fn each_nearest_first(d: usize, mut squares: Bitboard, mut f: impl FnMut(u8)) {
    while squares != 0 {
        let s = nearest(d, squares);
        squares &= !(1u64 << s);
        f(s as u8);
    }
}

/// Whether the side not to move would have a capture were it its turn: a
/// threat the static evaluation does not see.
pub(crate) fn threatened<R: Rules>(pos: &Position) -> bool {
    let mut m = pos.men();
    m.side = m.side.opposite();
    board_of::<R>(&m).must_capture::<R>()
}

pub(crate) fn gen<R: Rules, const DEDUP: bool, S: MoveSink>(pos: &Position, list: &mut S) {
    list.clear();
    let b = board::<R>(pos);
    if b.must_capture::<R>() {
        if DEDUP {
            captures::<R, DISTINCT, false, _>(&b, &pos.towers, list);
        } else {
            captures::<R, ALL_PATHS, false, _>(&b, &pos.towers, list);
        }
    } else {
        quiet_moves::<R, _>(&b, list);
    }
}

/// [`count_moves`] for a known variant; `P`: see [`popcount`].
pub(crate) fn count<R: Rules, const P: bool>(pos: &Position) -> usize {
    if !R::TOWERS {
        return match pos.side {
            Color::White => count_men::<R, P, WhiteToMove>(pos.men()),
            Color::Black => count_men::<R, P, BlackToMove>(pos.men()),
        };
    }
    let b = board::<R>(pos);
    if b.must_capture::<R>() {
        let mut list = MoveList::new();
        return captures::<R, COUNT, P, _>(&b, &pos.towers, &mut list);
    }
    count_quiet::<R, P>(&b)
}

/// [`count`] for men and kings, from the pieces alone (perft's last ply
/// builds no position). Never inlined: perft's loop stays small.
#[inline(never)]
pub(crate) fn count_men<R: Rules, const P: bool, S: Side>(m: Men) -> usize {
    debug_assert!(!R::TOWERS);
    let b = board_of::<R>(&with_side::<S>(m));
    if b.must_capture::<R>() {
        // The walk counts without a list, and reads no tower counts.
        return captures::<R, COUNT, P, _>(&b, &NO_TOWERS, &mut Discard);
    }
    count_quiet::<R, P>(&b)
}

/// [`count_men`] where it is quick: when the side to move has men only
/// and none can capture, the number of its moves; `None` otherwise. Small
/// enough to inline into perft's loop, which calls [`count_men`] for the
/// rest.
#[inline(always)]
pub(crate) fn count_men_quick<R: Rules, const P: bool, S: Side>(m: &Men) -> Option<usize> {
    let me = S::COLOR;
    debug_assert_eq!(m.side, me);
    let mine = m.pieces[me.index()];
    if mine & m.kings != 0 {
        return None;
    }
    let opp = m.pieces[me.opposite().index()];
    let empty = R::BOARD & !(mine | opp);
    let mut jumps = 0;
    for step in R::STEPS {
        jumps |= mine & shift(opp & shift(empty, -step), -step);
    }
    if jumps != 0 {
        return None;
    }
    let [f1, f2] = forward(me);
    Some(
        (popcount::<P>(shift(mine, R::STEPS[f1]) & empty)
            + popcount::<P>(shift(mine, R::STEPS[f2]) & empty)) as usize,
    )
}

/// Tower counts for the walks of men and kings, which never read them.
static NO_TOWERS: [u8; MAX_BITS] = [0; MAX_BITS];

/// The number of quiet moves (the side to move has no capture).
#[inline(always)]
fn count_quiet<R: Rules, const P: bool>(b: &Board) -> usize {
    let [f1, f2] = forward(b.me);
    let mut n = popcount::<P>(shift(b.men, R::STEPS[f1]) & b.empty)
        + popcount::<P>(shift(b.men, R::STEPS[f2]) & b.empty);
    if R::KING_QUIET {
        let occupied = R::BOARD & !b.empty;
        let mut k = b.kings;
        while k != 0 {
            let sq = k.trailing_zeros() as usize;
            k &= k - 1;
            for d in 0..4 {
                n += popcount::<P>(R::RAYS.scan(d, sq, occupied).1);
            }
        }
    }
    n as usize
}

/// What the quiescence search finds at a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Forcing {
    /// The side to move must capture (the captures are in the list when
    /// they were asked for).
    Captures,
    /// No capture, but some quiet move.
    Quiet,
    /// No move at all.
    NoMove,
}

/// Whether the side to move of `pos` must capture, has only quiet moves or
/// has no move; with `generate`, the captures go into `list` (cleared
/// first). One board setup serves all of it.
pub(crate) fn forcing<R: Rules, S: MoveSink>(
    pos: &Position,
    generate: bool,
    list: &mut S,
) -> Forcing {
    let b = board::<R>(pos);
    if b.must_capture::<R>() {
        if generate {
            list.clear();
            captures::<R, DISTINCT, false, _>(&b, &pos.towers, list);
        }
        return Forcing::Captures;
    }
    let [f1, f2] = forward(b.me);
    let mut targets = shift(b.men, R::STEPS[f1]) | shift(b.men, R::STEPS[f2]);
    if R::KING_QUIET {
        for step in R::STEPS {
            targets |= shift(b.kings, step);
        }
    }
    if targets & b.empty != 0 {
        Forcing::Quiet
    } else {
        Forcing::NoMove
    }
}

fn can_capture<R: Rules>(pos: &Position) -> bool {
    board::<R>(pos).must_capture::<R>()
}

fn quiet_moves<R: Rules, S: MoveSink>(b: &Board, list: &mut S) {
    each_quiet::<R>(b, |m| list.push(m));
}

/// Each quiet move (the side to move has no capture), into `f`, in the
/// order of the generated list: men forward, then kings ray by ray.
#[inline(always)]
fn each_quiet<R: Rules>(b: &Board, mut f: impl FnMut(Move)) {
    let (me, empty, kings, men) = (b.me, b.empty, b.kings, b.men);
    let promo = R::PROMO[me.index()];
    for d in forward(me) {
        let step = R::STEPS[d];
        let mut to = shift(men, step) & empty;
        while to != 0 {
            let t = bit(to);
            to &= to - 1;
            let from = (t as i32 - step) as u8;
            // In the tower variants the crown is positional: no flag.
            let promotes = !R::TOWERS && promo & (1u64 << t) != 0;
            f(Move::quiet(from, t, promotes));
        }
    }
    if R::KING_QUIET {
        let occupied = R::BOARD & !empty;
        let mut k = kings;
        while k != 0 {
            let from = bit(k);
            k &= k - 1;
            for d in 0..4 {
                let (_, reach) = R::RAYS.scan(d, from as usize, occupied);
                each_nearest_first(
                    d,
                    reach,
                    #[inline(always)]
                    |to| f(Move::quiet(from, to, false)),
                );
            }
        }
    }
}

/// Call `f` with each distinct legal move of `pos`, `S` to move (perft's
/// loop), in no particular order, as enough of a move for make: quiet moves
/// are made one at a time and never stored; the captures of men and kings
/// under free choice go to `f` as the walk finds them, without their route;
/// other captures are generated into a list first.
#[inline(always)]
pub(crate) fn for_each_move<R: Rules, S: Side>(pos: &Position, mut f: impl FnMut(&Move)) {
    let b = board_of::<R>(&with_side::<S>(pos.men()));
    if b.must_capture::<R>() {
        if !R::TOWERS && !R::MAJORITY {
            // Each capture is final when found: no list.
            captures::<R, VISIT, false, _>(&b, &NO_TOWERS, &mut Visit(f));
            return;
        }
        let mut list = MoveList::new();
        captures::<R, DISTINCT, false, _>(&b, &pos.towers, &mut list);
        for m in list.iter() {
            f(m);
        }
    } else {
        each_quiet::<R>(
            &b,
            #[inline(always)]
            |m| f(&m),
        );
    }
}

/// The sink of a walk that only counts (`COUNT` mode, men and kings): it
/// is never given a move.
struct Discard;

impl MoveSink for Discard {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        unreachable!("a counting walk stores no move");
    }
    #[inline(always)]
    fn clear(&mut self) {}
    #[inline(always)]
    fn moves(&self) -> &[Move] {
        &[]
    }
}

/// The sink of a visiting walk: each move goes to the function at once.
struct Visit<F: FnMut(&Move)>(F);

impl<F: FnMut(&Move)> MoveSink for Visit<F> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        (self.0)(&m);
    }
    #[inline(always)]
    fn clear(&mut self) {
        unreachable!("a visited move cannot be taken back (majority rule)");
    }
    #[inline(always)]
    fn moves(&self) -> &[Move] {
        &[]
    }
}

/// Generate the captures (the side to move has one); returns how many
/// distinct moves there are. In `COUNT` mode the men-and-kings variants
/// only count them and leave `list` empty; `VISIT` gives each to `list` as
/// it is found (see [`VISIT`]). `P`: see [`popcount`].
#[inline(always)]
fn captures<R: Rules, const MODE: u8, const P: bool, S: MoveSink>(
    b: &Board,
    towers: &[u8; MAX_BITS],
    list: &mut S,
) -> usize {
    let (me, kings, opp, empty, jumps) = (b.me, b.kings, b.opp, b.empty, b.jumps);
    let all_mine = b.mine;
    debug_assert!(MODE != VISIT || !(R::TOWERS || R::MAJORITY));
    // Fast path (deferred removal only): a man whose every first jump ends
    // the capture - no further jump from the landing square, no crowning
    // mid-capture - makes one single-jump move per jump, with no walk. From
    // the landing square a further jump can only go in a direction other
    // than back, over pieces and onto squares the first jump did not
    // change, so the test reads the board as it stands.
    let mut simple = [0u64; 4];
    let mut walkers = kings;
    if R::TOWERS {
        walkers |= jumps.iter().fold(0, |a, j| a | j);
    } else {
        let mut can_jump = [0u64; 4];
        for (e, step) in R::STEPS.into_iter().enumerate() {
            can_jump[e] = shift(opp & shift(empty, -step), -step);
        }
        for (d, (&movers, step)) in jumps.iter().zip(R::STEPS).enumerate() {
            let land = shift(movers, 2 * step);
            // A jump in direction 3-d from the landing square would go back
            // over the piece just jumped; any other direction counts.
            let mut goes_on = 0;
            for (e, cj) in can_jump.iter().enumerate() {
                if e != 3 - d {
                    goes_on |= land & cj;
                }
            }
            if R::PROMOTE_MID {
                goes_on |= land & R::PROMO[me.index()];
            }
            walkers |= shift(goes_on, -2 * step);
        }
        for d in 0..4 {
            simple[d] = jumps[d] & !walkers;
        }
    }

    if MODE == COUNT && !R::TOWERS && walkers == 0 {
        return simple.iter().map(|&b| popcount::<P>(b) as usize).sum();
    }
    let mut walk = Walk::<R, MODE, S> {
        list,
        keys: SmallVec::new(),
        me,
        from: 0,
        mine: 0,
        opp,
        captured: 0,
        victims: [0; 4],
        // Only the tower variants read these.
        towers: if R::TOWERS { *towers } else { [0; MAX_BITS] },
        path: [0; MAX_JUMPS],
        jumped: [0; MAX_JUMPS],
        n: 0,
        best: 0,
        start_king: false,
        _rules: std::marker::PhantomData,
    };
    if simple.iter().any(|&b| b != 0) {
        walk.best = 1;
        if MODE != COUNT {
            for (d, &movers) in simple.iter().enumerate() {
                let step = R::STEPS[d];
                let mut b = movers;
                while b != 0 {
                    let from = bit(b);
                    b &= b - 1;
                    let mid = (from as i32 + step) as u8;
                    let to = (from as i32 + 2 * step) as u8;
                    let mut mv = Move::quiet(from, to, R::PROMO[me.index()] & (1u64 << to) != 0);
                    mv.jumps = 1;
                    mv.captured = 1u64 << mid;
                    mv.path[0] = to;
                    mv.jumped[0] = mid;
                    walk.list.push(mv);
                }
            }
        }
    }
    while walkers != 0 {
        let from = bit(walkers);
        walkers &= walkers - 1;
        // The capturer's start square is empty during its move.
        walk.from = from;
        walk.mine = all_mine & !(1u64 << from);
        let king = kings & (1u64 << from) != 0;
        walk.start_king = king;
        if R::TOWERS {
            if king {
                walk.king_jumps(from, None);
            } else {
                walk.man_jumps(from, None);
            }
        } else {
            let empty = empty | 1u64 << from;
            for (d, step) in R::STEPS.into_iter().enumerate() {
                walk.victims[d] = opp & shift(empty, -step);
            }
            if king {
                walk.king_walk(from);
            } else {
                let targets = walk.man_targets(1u64 << from);
                walk.man_walk(from, targets);
            }
        }
    }
    if keyed(MODE, R::TOWERS) {
        // Under the majority rule a longer capture voids the single jumps.
        let simple_kept = if walk.best > 1 {
            0
        } else {
            simple.iter().map(|&b| popcount::<P>(b) as usize).sum()
        };
        simple_kept + walk.keys.len()
    } else {
        walk.list.moves().len()
    }
}

/// The state of one capture walk.
struct Walk<'a, R: Rules, const MODE: u8, S: MoveSink> {
    list: &'a mut S,
    /// Keyed walks ([`keyed`]): the identity of each distinct capture
    /// found, as (captured squares, from | to << 8 | crowned << 16).
    keys: SmallVec<[(Bitboard, u32); 32]>,
    me: Color,
    from: u8,
    /// Squares topped by the mover's colour, the capturer excluded.
    mine: Bitboard,
    /// Squares topped by the enemy (with deferred removal, jumped pieces too).
    opp: Bitboard,
    /// Deferred removal: the pieces jumped so far.
    captured: Bitboard,
    /// Deferred removal: per direction, the enemy pieces with an empty
    /// square behind them (the capturer's start square counts as empty).
    /// Nothing is removed during the walk, so these hold for all of it; a
    /// man may jump the ones beside it that are not yet `captured`.
    victims: [Bitboard; 4],
    /// Tower variants: scratch tower counts.
    towers: [u8; MAX_BITS],
    path: [u8; MAX_JUMPS],
    jumped: [u8; MAX_JUMPS],
    n: usize,
    /// Majority rule: the longest capture found so far.
    best: usize,
    start_king: bool,
    _rules: std::marker::PhantomData<R>,
}

/// What `take` changed, for `untake`.
#[derive(Clone, Copy)]
struct Taken {
    sq: u8,
    /// The tower's packed counts before the take.
    counts: u8,
}

impl<R: Rules, const MODE: u8, S: MoveSink> Walk<'_, R, MODE, S> {
    #[inline(always)]
    fn empty(&self) -> Bitboard {
        R::BOARD & !(self.mine | self.opp)
    }

    /// Enemy pieces that may be jumped now.
    #[inline(always)]
    fn jumpable(&self) -> Bitboard {
        self.opp & !self.captured
    }

    /// Jump the piece on `sq` (a single-bit board), landing on `land`.
    #[inline(always)]
    fn take(&mut self, sq: Bitboard, land: u8) -> Taken {
        let s = bit(sq);
        let mut t = Taken { sq: s, counts: 0 };
        if R::TOWERS {
            let v = self.towers[s as usize];
            t.counts = v;
            let (own, other) = (v & 15, v >> 4);
            if own > 1 {
                self.towers[s as usize] = v - 1;
            } else {
                // The top checker was the last enemy one: the tower now
                // belongs to the capturer's colour, or the square is empty.
                self.opp &= !sq;
                if other > 0 {
                    self.mine |= sq;
                }
                self.towers[s as usize] = other;
            }
        } else {
            self.captured |= sq;
        }
        // A keyed walk reads only the captured set.
        if !keyed(MODE, R::TOWERS) {
            self.path[self.n] = land;
            self.jumped[self.n] = s;
        }
        self.n += 1;
        t
    }

    #[inline(always)]
    fn untake(&mut self, t: Taken) {
        self.n -= 1;
        let sq = 1u64 << t.sq;
        if R::TOWERS {
            self.towers[t.sq as usize] = t.counts;
            self.opp |= sq;
            self.mine &= !sq;
        } else {
            self.captured &= !sq;
        }
    }

    /// The landing square of the last jump changes (a king choosing among
    /// several landing squares beyond the same piece).
    #[inline(always)]
    fn reland(&mut self, land: u8) {
        if !keyed(MODE, R::TOWERS) {
            self.path[self.n - 1] = land;
        }
    }

    /// Deferred removal: the pieces a man on `from` (a single-bit board)
    /// can jump now. After a jump, the way back is over a captured piece,
    /// so it needs no test.
    #[inline(always)]
    fn man_targets(&self, from: Bitboard) -> Bitboard {
        let mut targets = 0;
        for (d, step) in R::STEPS.into_iter().enumerate() {
            targets |= shift(from, step) & self.victims[d];
        }
        targets & !self.captured
    }

    /// Deferred removal: the captures of a man standing on `sq` that can
    /// jump the pieces `targets` ([`Walk::man_targets`], not empty). Each
    /// landing square from which no jump follows is recorded at once, with
    /// no call for it. Where the order of the moves matters (not in keyed
    /// walks), the jumps are tried in [`Walk::man_jumps`]'s order of
    /// directions: north-west and north-east are the targets above `sq`
    /// (higher bits), in that order, then south-west and south-east below.
    fn man_walk(&mut self, sq: u8, targets: Bitboard) {
        if keyed(MODE, R::TOWERS) {
            let mut rest = targets;
            while rest != 0 {
                let m = bit(rest);
                rest &= rest - 1;
                self.man_jump(sq, m);
            }
            return;
        }
        let above = targets & (u64::MAX << sq);
        for half in [above, targets & !above] {
            let mut rest = half;
            while rest != 0 {
                let m = bit(rest);
                rest &= rest - 1;
                self.man_jump(sq, m);
            }
        }
    }

    /// [`Walk::man_walk`]'s jump from `sq` over the piece on `m`.
    #[inline(always)]
    fn man_jump(&mut self, sq: u8, m: u8) {
        // The landing square is one step beyond, as far again.
        let l = 2 * m - sq;
        let land = 1u64 << l;
        let t = self.take(1u64 << m, l);
        let crowned = land & R::PROMO[self.me.index()] != 0;
        if crowned && R::PROMOTE_MID {
            if self.king_can_jump(l) {
                self.king_walk(l);
            } else {
                self.record(l, true);
            }
        } else {
            let next = self.man_targets(land);
            if next != 0 {
                self.man_walk(l, next);
            } else {
                self.record(l, crowned);
            }
        }
        self.untake(t);
    }

    /// Deferred removal: the first piece from `sq` in direction `d` if it
    /// may be jumped now (0 otherwise).
    #[inline(always)]
    fn king_victim(&self, d: usize, sq: u8, occupied: Bitboard) -> Bitboard {
        let (first, _) = R::RAYS.scan(d, sq as usize, occupied);
        first & self.victims[d] & !self.captured
    }

    /// Deferred removal: whether a king on `sq`, where a jump just landed,
    /// can jump again (straight back, the first piece is the captured one).
    #[inline(always)]
    fn king_can_jump(&self, sq: u8) -> bool {
        let occupied = self.mine | self.opp;
        (0..4).any(|e| self.king_victim(e, sq, occupied) != 0)
    }

    /// Deferred removal: the captures of a king standing on `sq` (the start
    /// of a walk, or [`Walk::king_can_jump`] said it can jump). The landing
    /// squares beyond a piece from which the capture goes on are found
    /// without a call each: ahead, the next piece is the same for all of
    /// them; sideways, two ray scans. Moves are found in
    /// [`Walk::king_jumps`]'s order.
    fn king_walk(&mut self, sq: u8) {
        // Nothing is removed before the move ends: the board stays as it is.
        let occupied = self.mine | self.opp;
        for d in 0..4 {
            // Straight back, the first piece is the one just captured.
            let victim = self.king_victim(d, sq, occupied);
            if victim == 0 {
                continue;
            }
            // The empty squares beyond the victim (at least one: it is in
            // `victims`), up to the next piece.
            let (next, land) = R::RAYS.scan(d, bit(victim) as usize, occupied);
            let t = self.take(victim, 0);
            let mut goes_on = if next & self.victims[d] & !self.captured != 0 {
                land
            } else {
                0
            };
            if goes_on == 0 {
                let mut rest = land;
                while rest != 0 {
                    let l = bit(rest);
                    rest &= rest - 1;
                    for e in [d ^ 1, d ^ 2] {
                        // The two directions across the diagonal of `d`.
                        if self.king_victim(e, l, occupied) != 0 {
                            goes_on |= 1u64 << l;
                            break;
                        }
                    }
                }
            }
            if goes_on == 0 {
                let mut stops = land;
                while stops != 0 {
                    let l = bit(stops);
                    stops &= stops - 1;
                    self.reland(l);
                    self.record(l, true);
                }
            } else {
                each_nearest_first(d, goes_on, |l| {
                    self.reland(l);
                    self.king_walk(l);
                });
            }
            self.untake(t);
        }
    }

    /// Tower variants: captures of a man standing on `sq`; `last` is the
    /// direction of the jump that brought it there. Returns whether any
    /// jump was possible.
    fn man_jumps(&mut self, sq: u8, last: Option<usize>) -> bool {
        let mut found = false;
        // Both are the same again after each take/untake pair below.
        let (jumpable, empty) = (self.jumpable(), self.empty());
        for d in 0..4 {
            if last == Some(3 - d) {
                continue;
            }
            let step = R::STEPS[d];
            let mid = shift(1u64 << sq, step) & jumpable;
            if mid == 0 {
                continue;
            }
            let land = shift(mid, step) & empty;
            if land == 0 {
                continue;
            }
            found = true;
            let l = bit(land);
            let t = self.take(mid, l);
            let crowned = land & R::PROMO[self.me.index()] != 0;
            if crowned && R::PROMOTE_MID {
                if !self.king_jumps(l, Some(d)) {
                    self.record(l, true);
                }
            } else if !self.man_jumps(l, Some(d)) {
                self.record(l, crowned);
            }
            self.untake(t);
        }
        found
    }

    /// Tower variants: captures of a king standing on `sq`. Returns whether
    /// any jump was possible.
    fn king_jumps(&mut self, sq: u8, last: Option<usize>) -> bool {
        let mut found = false;
        for d in 0..4 {
            if last == Some(3 - d) {
                continue;
            }
            // The first piece on the diagonal, if it can be jumped, and the
            // empty squares beyond it up to the next piece: the landing
            // squares (no take changes them).
            let occupied = self.mine | self.opp;
            let (first, _) = R::RAYS.scan(d, sq as usize, occupied);
            let victim = first & self.jumpable();
            if victim == 0 {
                continue;
            }
            let (_, land) = R::RAYS.scan(d, bit(victim) as usize, occupied);
            if land == 0 {
                continue;
            }
            found = true;
            let t = self.take(victim, 0);
            // Landing squares from which the capture cannot go on; recorded
            // only if no landing square lets it go on.
            let mut stops: Bitboard = 0;
            let mut goes_on = false;
            each_nearest_first(d, land, |l| {
                self.reland(l);
                if self.king_jumps(l, Some(d)) {
                    goes_on = true;
                } else {
                    stops |= 1u64 << l;
                }
            });
            if !goes_on {
                while stops != 0 {
                    let l = bit(stops);
                    stops &= stops - 1;
                    self.reland(l);
                    self.record(l, true);
                }
            }
            self.untake(t);
        }
        found
    }

    /// A capture ends on `to`; `is_king` tells whether the mover is a king
    /// there (used for the crowning flag of men-and-kings variants). A
    /// counting walk under free choice only keeps the move's identity, in
    /// line; the rest is [`Walk::record_move`].
    #[inline(always)]
    fn record(&mut self, to: u8, is_king: bool) {
        if MODE == COUNT && keyed(MODE, R::TOWERS) && !R::MAJORITY {
            let key = self.identity(to, is_king && !self.start_king);
            if !self.keys.contains(&key) {
                self.keys.push(key);
            }
            return;
        }
        self.record_move(to, is_king);
    }

    /// A keyed walk's identity of the capture ending on `to` (see
    /// [`Walk::keys`]); under deferred removal the captured set is the
    /// jumped squares.
    #[inline(always)]
    fn identity(&self, to: u8, promotes: bool) -> (Bitboard, u32) {
        (
            self.captured,
            self.from as u32 | (to as u32) << 8 | (promotes as u32) << 16,
        )
    }

    /// [`Walk::record`] but for counting walks under free choice.
    fn record_move(&mut self, to: u8, is_king: bool) {
        if R::MAJORITY {
            if self.n < self.best {
                return;
            }
            if self.n > self.best {
                self.best = self.n;
                self.list.clear();
                self.keys.clear();
            }
        }
        let promotes = !R::TOWERS && is_king && !self.start_king;
        if keyed(MODE, R::TOWERS) {
            let key = self.identity(to, promotes);
            if self.keys.contains(&key) {
                return;
            }
            self.keys.push(key);
            if MODE == VISIT {
                let mut mv = Move::quiet(self.from, to, promotes);
                mv.jumps = self.n as u8;
                mv.captured = self.captured;
                self.list.push(mv);
            }
            return;
        }
        let mut captured = 0u64;
        for &s in &self.jumped[..self.n] {
            captured |= 1u64 << s;
        }
        let mv = Move {
            from: self.from,
            to,
            jumps: self.n as u8,
            promotes,
            captured,
            path: self.path,
            jumped: self.jumped,
        };
        if MODE != ALL_PATHS && self.list.moves().iter().any(|m| m.same_result(&mv)) {
            return;
        }
        self.list.push(mv);
    }
}

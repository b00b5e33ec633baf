//! Building the tables of one pair of combinations (the same material with
//! either side to move): a retrograde analysis without the counting rules,
//! then the counting rules applied exactly (see the module documentation of
//! [`crate::egdb`] for why this is enough and where the exact solver runs).

use super::class::{Carry, Class};
use super::counted;
use super::file::Kind;
use super::index::{turn, Combo, Slots, NEXT};
use super::solve::Solver;
use super::value::{finished_value, flip, Finished, Plain, DRAW, LOSS, NONE, WIN};
use crate::game::DrawState;
use crate::variant::Variant;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Not yet known (the retrograde pass).
const UNKNOWN: u8 = 4;
/// Not yet known, and a move leaves the combination for a draw.
const UNKNOWN_DRAWN_EXIT: u8 = 5;

/// A built side of a pair.
pub(crate) struct BuiltSide {
    pub combo: Combo,
    /// The value of each index (the counters at zero).
    pub table: Vec<u8>,
    /// For each index whose value is a win or a loss, the plies to the end
    /// of the combination without the counting rules (0 elsewhere).
    pub plies: Vec<u8>,
    /// Lone-king combinations: the values by state.
    pub by_state: Option<Vec<u8>>,
}

/// Values of whole groups of lone-king combinations, by state, for the
/// promotions within a group.
pub(crate) type Carried = HashMap<Combo, Arc<Vec<u8>>>;

/// What the build of a pair is doing, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Between pairs.
    Idle,
    /// Files found on disk: read whole and checked (and lone-king pairs
    /// analysed again in memory).
    Checking,
    /// The first look at every state: its own moves.
    Looking,
    /// The retrograde passes from the decided states back.
    Retrograde,
    /// The exact solver on the wins the counting rules may deny.
    Solving,
    /// The files written.
    Writing,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Checking => "checking",
            Phase::Looking => "first look",
            Phase::Retrograde => "retrograde",
            Phase::Solving => "solving",
            Phase::Writing => "writing",
        }
    }

    const ALL: [Phase; 6] = [
        Phase::Idle,
        Phase::Checking,
        Phase::Looking,
        Phase::Retrograde,
        Phase::Solving,
        Phase::Writing,
    ];
}

/// How far a build has gone inside the pair it is on, for a display that
/// polls it from another thread ([`build_with_progress`]). The workers add
/// to relaxed atomic counters in batches of [`Progress::BATCH`] states, so
/// keeping count costs the build nothing measurable.
#[derive(Debug, Default)]
pub struct Progress {
    clock: Mutex<Clock>,
    phase: AtomicU8,
    /// The side being solved, and how many sides the pair has.
    side: AtomicU8,
    sides: AtomicU8,
    done: AtomicU64,
    total: AtomicU64,
}

/// The pair under way, when its build began (none while it is only
/// checked), and when the phase began.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    pair: Option<Combo>,
    build: Option<Instant>,
    phase: Option<Instant>,
}

/// What [`Progress::snapshot`] saw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapshot {
    /// The pair being built or checked (by the combination naming it).
    pub pair: Option<Combo>,
    /// Seconds since its build began, when it is being built.
    pub building: Option<f64>,
    pub phase: Phase,
    /// Seconds since the phase began.
    pub phase_secs: f64,
    /// States done and to do in this phase (the solver: in this side).
    pub done: u64,
    pub total: u64,
    /// The side being solved, of how many.
    pub side: usize,
    pub sides: usize,
    /// An estimate of how much of the pair's build is done, 0 to 1 (0 while
    /// it is only checked): the first look counts for half, the retrograde
    /// passes for 0.4 (their states done against all states: it jumps at
    /// the end, as the draws are never visited), the solver for the last
    /// 0.1.
    pub fraction: f64,
}

impl Progress {
    /// States a worker counts before it adds them to the shared count.
    pub const BATCH: u64 = 4096;

    fn clock(&self) -> std::sync::MutexGuard<'_, Clock> {
        self.clock.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn start_pair(&self, pair: Option<Combo>, phase: Phase) {
        *self.clock() = Clock {
            pair,
            ..Clock::default()
        };
        self.set_phase(phase, 0);
    }

    fn start_build(&self) {
        self.clock().build = Some(Instant::now());
    }

    fn set_phase(&self, phase: Phase, total: u64) {
        self.clock().phase = Some(Instant::now());
        self.done.store(0, Relaxed);
        self.total.store(total, Relaxed);
        self.phase.store(phase as u8, Relaxed);
    }

    fn set_side(&self, side: usize, sides: usize) {
        self.side.store(side as u8, Relaxed);
        self.sides.store(sides as u8, Relaxed);
    }

    fn add(&self, n: u64) {
        self.done.fetch_add(n, Relaxed);
    }

    /// A counter for one worker, adding to this one in batches.
    fn tally(&self) -> Tally<'_> {
        Tally {
            progress: self,
            n: 0,
        }
    }

    /// Where the build is now.
    pub fn snapshot(&self) -> Snapshot {
        let clock = *self.clock();
        let secs = |t: Option<Instant>| t.map(|t| t.elapsed().as_secs_f64());
        let building = secs(clock.build);
        let phase = Phase::ALL[self.phase.load(Relaxed) as usize];
        let (done, total) = (self.done.load(Relaxed), self.total.load(Relaxed));
        let (side, sides) = (
            self.side.load(Relaxed) as usize,
            self.sides.load(Relaxed).max(1) as usize,
        );
        let part = if total == 0 {
            0.0
        } else {
            (done as f64 / total as f64).min(1.0)
        };
        let fraction = match phase {
            _ if building.is_none() => 0.0,
            Phase::Idle | Phase::Checking => 0.0,
            Phase::Looking => 0.5 * part,
            Phase::Retrograde => 0.5 + 0.4 * part,
            Phase::Solving => 0.9 + 0.1 * (side as f64 + part) / sides as f64,
            Phase::Writing => 1.0,
        };
        Snapshot {
            pair: clock.pair,
            building,
            phase,
            phase_secs: secs(clock.phase).unwrap_or(0.0),
            done,
            total,
            side,
            sides,
            fraction,
        }
    }
}

impl Snapshot {
    /// Seconds left in the build of the pair: the solver at its own pace
    /// (the sides still to solve taken to be as long as this one), the
    /// rest by the fraction done. `None` while no pair is being built or
    /// nothing is counted yet.
    pub fn pair_left(&self) -> Option<f64> {
        let building = self.building?;
        match self.phase {
            Phase::Idle | Phase::Checking => None,
            Phase::Writing => Some(0.0),
            Phase::Solving if self.done > 0 => {
                let per_state = self.phase_secs / self.done as f64;
                let this = per_state * self.total.saturating_sub(self.done) as f64;
                let later = (self.sides - 1).saturating_sub(self.side) as f64;
                Some(this + later * per_state * self.total as f64)
            }
            _ if self.fraction > 0.0 => Some(building * (1.0 - self.fraction) / self.fraction),
            _ => None,
        }
    }
}

/// What a build has finished so far (the sum of its [`PairReport`]s).
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Positions of the pairs finished: built, or found whole and checked.
    pub done: u64,
    /// Positions, seconds, pairs and bytes of those built.
    pub built: u64,
    pub built_secs: f64,
    pub pairs: u64,
    pub bytes: u64,
    /// Pairs found whole on disk.
    pub skipped: u64,
}

impl Totals {
    pub fn add(&mut self, r: &PairReport) {
        self.done += r.positions;
        if r.skipped {
            self.skipped += 1;
        } else {
            self.pairs += 1;
            self.built += r.positions;
            self.built_secs += r.seconds;
            self.bytes += r.bytes;
        }
    }
}

/// One worker's count, added to the shared one every [`Progress::BATCH`]
/// states and when dropped.
struct Tally<'a> {
    progress: &'a Progress,
    n: u64,
}

impl Tally<'_> {
    #[inline]
    fn tick(&mut self) {
        self.n += 1;
        if self.n == Progress::BATCH {
            self.progress.add(self.n);
            self.n = 0;
        }
    }
}

impl Drop for Tally<'_> {
    fn drop(&mut self) {
        if self.n > 0 {
            self.progress.add(self.n);
        }
    }
}

/// What the counting rules do to a state's retrograde value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fate {
    Stands,
    Draw,
    Solve,
}

/// Build the pair of `combo` (and its swap): the final values of each side,
/// and, for lone-king combinations, the values by state.
pub(crate) fn build_pair(
    variant: Variant,
    combo: Combo,
    finished: &Finished,
    carried: &Carried,
    plains: &HashMap<Combo, Arc<Plain>>,
    progress: &Progress,
) -> (Arc<Plain>, Vec<BuiltSide>) {
    let plain = Arc::new(retrograde(variant, combo, finished, carried, progress));
    let n = combo.pieces();
    let sides = if plain.combos[0] == plain.combos[1] {
        1
    } else {
        2
    };
    let k_states = plain.carry.states();
    let mut plains = plains.clone();
    plains.insert(plain.combos[0], plain.clone());
    plains.insert(plain.combos[1], plain.clone());
    let mut out = Vec::new();
    let counted = std::sync::OnceLock::new();
    for s in 0..sides {
        let c = plain.combos[s];
        let class = Class::of(c);
        let king_only = c.men() == 0;
        let r726 = if n <= 5 { 60 } else { 120 };
        let value = &plain.value[s];
        let dist = &plain.dist[s];
        // What a state's retrograde value becomes under the counting rules:
        // it stands, it is a draw, or the exact solver decides.
        let fate = |st: usize| -> Fate {
            let v = value[st];
            if v != WIN && v != LOSS {
                return Fate::Stands;
            }
            let d = dist[st] as u32;
            match (class, plain.carry) {
                (Class::Free, _) | (_, Carry::R728) => Fate::Stands,
                _ if d <= 30 => Fate::Stands,
                _ if king_only || d > r726 => Fate::Draw,
                _ => Fate::Solve,
            }
        };
        // Exact values by state, the draws set at once; the states to solve
        // counted.
        let mut exact: Vec<u8> = value.clone();
        let mut to_solve = 0usize;
        for (st, e) in exact.iter_mut().enumerate() {
            match fate(st) {
                Fate::Stands => {}
                Fate::Draw => *e = DRAW,
                Fate::Solve => to_solve += 1,
            }
        }
        if std::env::var_os("SHASHKI_EGDB_DEBUG").is_some() {
            eprintln!(
                "{c}: {class:?} {:?}: {to_solve} states to solve",
                plain.carry
            );
        }
        if to_solve > 0 && plain.carry == Carry::None {
            // A counted pair with men (lone-king pairs carry a counter):
            // every position's plies to the conversion under 7.2.5, once
            // for both sides.
            let scores = counted.get_or_init(|| {
                progress.set_side(0, 1);
                progress.set_phase(Phase::Solving, combo.pair_size());
                counted::solve_pair(variant, plain.combos, finished, &|n| progress.add(n))
            });
            for (st, e) in exact.iter_mut().enumerate() {
                if fate(st) == Fate::Solve {
                    *e = counted::value_within(scores[s][st], r726);
                }
            }
            // Where no count can end the line (a draw, or a conversion
            // within 30 plies), both passes must agree: a bug here would
            // write wrong tables, so the build stops instead.
            for (st, &v) in value.iter().enumerate() {
                if fate(st) == Fate::Stands && v != NONE {
                    let within = counted::value_within(scores[s][st], 30);
                    assert_eq!(
                        within, v,
                        "{c} {st}: the pass over the men and the plain one"
                    );
                }
            }
        } else if to_solve > 0 {
            progress.set_side(s, sides);
            progress.set_phase(Phase::Solving, to_solve as u64);
            // One memo per worker: the positions share most of their lines.
            // The states are cut into runs with as many to solve each,
            // solved in place.
            let per_run = to_solve.div_ceil(2 * rayon::current_num_threads());
            let mut runs: Vec<(usize, &mut [u8])> = Vec::new();
            let (mut rest, mut start, mut n) = (&mut exact[..], 0, 0);
            for st in 0..value.len() {
                if fate(st) == Fate::Solve {
                    n += 1;
                    if n == per_run {
                        let (run, after) = rest.split_at_mut(st + 1 - start);
                        runs.push((start, run));
                        (rest, start, n) = (after, st + 1, 0);
                    }
                }
            }
            runs.push((start, rest));
            runs.into_par_iter().for_each(|(start, run)| {
                let mut solver = Solver::new(variant, finished, &plains);
                for (st, e) in (start..).zip(run.iter_mut()) {
                    if fate(st) != Fate::Solve {
                        continue;
                    }
                    let (i, k) = (st / k_states, st % k_states);
                    let slots = c.decode(i as u64).expect("a decided index is a position");
                    let pos = slots.position(variant);
                    let draws = if k >= 1 && plain.carry == Carry::R727 {
                        DrawState::with_r727(&pos, (k - 1) as u16)
                    } else {
                        DrawState::after(None, &pos)
                    };
                    *e = solver.solve(&pos, draws);
                    progress.add(1);
                }
                solver.report(c);
            });
        }
        // The values with the counters at zero, and the plies of the wins
        // and losses; without a carried counter a state is an index, and
        // the exact values are the table.
        let (table, plies, by_state) = if plain.carry == Carry::None {
            let plies = exact
                .iter()
                .zip(dist)
                .map(|(&v, &d)| if v == WIN || v == LOSS { d } else { 0 })
                .collect();
            (exact, plies, None)
        } else {
            let (table, plies): (Vec<u8>, Vec<u8>) = (0..c.size())
                .map(|i| match c.decode(i) {
                    None => (NONE, 0),
                    Some(slots) => {
                        let st = i as usize * k_states + plain.carry.fresh(&slots);
                        match exact[st] {
                            v @ (WIN | LOSS) => (v, dist[st]),
                            v => (v, 0),
                        }
                    }
                })
                .unzip();
            (table, plies, Some(exact))
        };
        out.push(BuiltSide {
            combo: c,
            table,
            plies,
            by_state,
        });
    }
    (plain, out)
}

/// The retrograde analysis of the pair of `combo` without the counting
/// rules (but with the counter the combination carries, see [`Carry`]):
/// moves that leave the combination take the finished tables' values; what
/// is not decided when nothing more follows is a draw.
fn retrograde(
    variant: Variant,
    combo: Combo,
    finished: &Finished,
    carried: &Carried,
    progress: &Progress,
) -> Plain {
    let combos = [combo, combo.swapped()];
    let sides = if combos[0] == combos[1] { 1 } else { 2 };
    let carry = Carry::of(combo);
    let ks = carry.states();
    let states: u64 = combos[..sides].iter().map(|c| c.size() * ks as u64).sum();
    progress.set_phase(Phase::Looking, states);
    // value, dist, children left
    let mut state: Vec<Vec<(u8, u8, u8)>> = (0..sides)
        .map(|s| {
            let c = combos[s];
            (0..c.size() * ks as u64)
                .into_par_iter()
                .map_init(
                    || progress.tally(),
                    |tally, st| {
                        tally.tick();
                        first_look(
                            variant,
                            c,
                            st / ks as u64,
                            (st % ks as u64) as usize,
                            carry,
                            finished,
                            carried,
                        )
                    },
                )
                .collect()
        })
        .collect();
    // The decided states, by plies to the end and side. The order within
    // a level changes nothing: a state is decided by the level of its
    // children alone.
    let mut levels: Vec<[Vec<u32>; 2]> = vec![Default::default(), Default::default()];
    for (s, st) in state.iter().enumerate() {
        for (i, &(v, d, _)) in st.iter().enumerate() {
            if v == WIN || v == LOSS {
                levels[d as usize][s].push(i as u32);
            }
        }
    }
    progress.set_phase(Phase::Retrograde, states);
    let mut tally = progress.tally();
    let mut d = 0;
    while d < levels.len() {
        let level = std::mem::take(&mut levels[d]);
        let mut next: [Vec<u32>; 2] = Default::default();
        for (s, st) in (0..2).flat_map(|s| level[s].iter().map(move |&st| (s, st))) {
            tally.tick();
            let (v, _, _) = state[s][st as usize];
            let (i, k) = (st as usize / ks, st as usize % ks);
            let q = combos[s]
                .decode(i as u64)
                .expect("a decided index is a position");
            let ps = if sides == 1 { 0 } else { 1 - s };
            predecessors(variant, &q, |p| {
                let j = combos[ps].index(&p) as usize;
                carry.prev(k, &p, &q, |pk| {
                    let e = &mut state[ps][j * ks + pk];
                    if e.0 != UNKNOWN && e.0 != UNKNOWN_DRAWN_EXIT {
                        return;
                    }
                    let step = (d + 1).min(255) as u8;
                    if v == LOSS {
                        *e = (WIN, step, 0);
                        next[ps].push((j * ks + pk) as u32);
                    } else {
                        e.2 -= 1;
                        if e.2 == 0 {
                            if e.0 == UNKNOWN_DRAWN_EXIT {
                                *e = (DRAW, 0, 0);
                            } else {
                                *e = (LOSS, step, 0);
                                next[ps].push((j * ks + pk) as u32);
                            }
                        }
                    }
                });
            });
        }
        if next.iter().any(|n| !n.is_empty()) {
            if levels.len() <= d + 1 {
                levels.resize(d + 2, Default::default());
            }
            for (l, n) in levels[d + 1].iter_mut().zip(next) {
                l.extend(n);
            }
        }
        d += 1;
    }
    drop(tally);
    let mut value = [Vec::new(), Vec::new()];
    let mut dist = [Vec::new(), Vec::new()];
    for s in 0..sides {
        value[s] = state[s]
            .iter()
            .map(|&(v, _, _)| if v >= UNKNOWN { DRAW } else { v })
            .collect();
        dist[s] = state[s].iter().map(|&(_, d, _)| d).collect();
    }
    if sides == 1 {
        value[1] = value[0].clone();
        dist[1] = dist[0].clone();
    }
    Plain {
        combos,
        carry,
        value,
        dist,
    }
}

/// What one state's own moves tell: (value, plies, moves within the
/// combination not yet decided).
fn first_look(
    variant: Variant,
    c: Combo,
    i: u64,
    k: usize,
    carry: Carry,
    finished: &Finished,
    carried: &Carried,
) -> (u8, u8, u8) {
    let Some(slots) = c.decode(i) else {
        return (NONE, 0, 0);
    };
    if !carry.valid(k, &slots) {
        return (NONE, 0, 0);
    }
    let pos = slots.position_unkeyed(variant);
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return (LOSS, 0, 0);
    }
    if carry.fired(k) {
        return (DRAW, 0, 0);
    }
    let mut inside = 0u8;
    let mut drawn_exit = false;
    for m in moves.iter() {
        if m.is_capture() || m.promotes() {
            let child = pos.play(m);
            let v = if m.promotes() && !m.is_capture() && carry != Carry::None {
                // Within the group the count runs on.
                let q = Slots::of(&child);
                let qc = q.combo();
                let ks = Carry::of(qc).states();
                let t = carried
                    .get(&qc)
                    .unwrap_or_else(|| panic!("the table {qc} is built before {c}"));
                t[qc.index(&q) as usize * ks + carry.next(k, &q)]
            } else {
                finished_value(finished, &child)
            };
            match flip(v) {
                WIN => return (WIN, 1, 0),
                DRAW => drawn_exit = true,
                _ => {}
            }
        } else {
            inside += 1;
        }
    }
    match (inside, drawn_exit) {
        (0, true) => (DRAW, 0, 0),
        (0, false) => (LOSS, 1, 0),
        (n, true) => (UNKNOWN_DRAWN_EXIT, 0, n),
        (n, false) => (UNKNOWN, 0, n),
    }
}

/// Call `f` with every position (seen from its side to move) that reaches
/// `q` by a move within the combination: a quiet move of one of `q`'s
/// "them" pieces, back where it came from, in a position where that side
/// had no capture.
pub(crate) fn predecessors(variant: Variant, q: &Slots, mut f: impl FnMut(Slots)) {
    let occ = q.occupied();
    let mut emit = |them_men: u32, them_kings: u32| {
        let p = Slots {
            us_men: turn(them_men),
            us_kings: turn(them_kings),
            them_men: turn(q.us_men),
            them_kings: turn(q.us_kings),
        };
        if !crate::movegen::has_capture(&p.position_unkeyed(variant)) {
            f(p);
        }
    };
    // Their men move down: each came from one step up, if it was free.
    let mut men = q.them_men;
    while men != 0 {
        let s = men.trailing_zeros() as usize;
        men &= men - 1;
        for dir in [0, 1] {
            let from = NEXT[s][dir];
            if from != 255 && occ & (1 << from) == 0 {
                emit(q.them_men & !(1 << s) | 1 << from, q.them_kings);
            }
        }
    }
    // Their kings slid over free squares.
    let mut kings = q.them_kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for (dir, &first) in NEXT[s].iter().enumerate() {
            let mut from = first;
            while from != 255 && occ & (1 << from) == 0 {
                emit(q.them_men, q.them_kings & !(1 << s) | 1 << from);
                from = NEXT[from as usize][dir];
            }
        }
    }
}

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub variant: Variant,
    /// Every combination with at most this many pieces.
    pub pieces: u32,
    pub dir: std::path::PathBuf,
    /// Only this combination (and its swap), the tables it needs being
    /// present ([`needed_before`]).
    pub only: Option<Combo>,
}

/// One finished pair.
#[derive(Clone, Debug)]
pub struct PairReport {
    pub combos: Vec<Combo>,
    pub positions: u64,
    /// Wins, draws, losses for the side to move, over both sides.
    pub wdl: [u64; 3],
    pub bytes: u64,
    pub seconds: f64,
    /// Found complete on disk and not built again.
    pub skipped: bool,
}

/// The pairs to build for `pieces`, smallest first, each by the
/// combination of the pair that names it.
pub fn build_order(pieces: u32) -> Vec<Combo> {
    let mut order = Vec::new();
    for n in 2..=pieces {
        let mut pairs: Vec<Combo> = Combo::all_with(n)
            .into_iter()
            .filter(|&c| c >= c.swapped())
            .collect();
        pairs.sort_by_key(|&c| (c.men(), std::cmp::Reverse(c)));
        order.extend(pairs);
    }
    order
}

/// Load a finished table from its file, checking it whole, and its table
/// of plies beside it.
fn load_finished(opts: &BuildOptions, c: Combo) -> Result<Vec<u8>, String> {
    let plies = opts.dir.join(Kind::Plies.file_name(c));
    super::file::TableFile::check_whole(&plies)?;
    super::file::TableFile::open_kind(&plies, Kind::Plies, opts.variant, c)?;
    let path = opts.dir.join(super::file::file_name(c));
    super::file::TableFile::check_whole(&path)?;
    super::file::TableFile::open(&path, opts.variant, c)?.all_values()
}

/// Build the tables `opts` asks for, calling `report` after each pair;
/// pairs whose files are there and whole are checked and skipped.
pub fn build(opts: &BuildOptions, report: &mut dyn FnMut(&PairReport)) -> Result<(), String> {
    build_with_progress(opts, &Progress::default(), report)
}

/// Whether the pair `p` must be in the folder before the pair `target` is
/// built: every pair with fewer pieces, and those of as many pieces with
/// fewer men (a promotion leads there). Pairs with as many pieces and men
/// as the target are built side by side (`--only` in a job array).
pub fn needed_before(p: Combo, target: Combo) -> bool {
    p.pieces() < target.pieces() || (p.pieces() == target.pieces() && p.men() < target.men())
}

/// [`build`], keeping `progress` up to date for a display on another
/// thread.
pub fn build_with_progress(
    opts: &BuildOptions,
    progress: &Progress,
    report: &mut dyn FnMut(&PairReport),
) -> Result<(), String> {
    if super::file::variant_code(opts.variant).is_none() {
        return Err(format!(
            "endgame tables: there are none for {}",
            opts.variant
        ));
    }
    // Never into a folder of another variant's tables: a build there
    // would replace them pair by pair.
    match super::file::folder_variant(&opts.dir) {
        Ok(Some((v, file))) if v != opts.variant => {
            return Err(format!(
            "endgame tables: '{}' holds {v} tables ({file}); build the {} ones into another folder",
            opts.dir.display(),
            opts.variant
        ))
        }
        Err(e) => return Err(format!("endgame tables: {e}")),
        _ => {}
    }
    std::fs::create_dir_all(&opts.dir).map_err(|e| format!("{}: {e}", opts.dir.display()))?;
    let max = match opts.only {
        Some(c) => c.pieces(),
        None => opts.pieces,
    };
    if !(2..=super::index::MAX_PIECES).contains(&max) {
        return Err(format!(
            "endgame tables: pieces must be from 2 to {}",
            super::index::MAX_PIECES
        ));
    }
    let target = opts.only.map(|c| c.max(c.swapped()));
    let mut finished: Finished = HashMap::new();
    let mut carried: Carried = HashMap::new();
    let mut plains: HashMap<Combo, Arc<Plain>> = HashMap::new();
    for pair in build_order(max) {
        if target.is_some_and(|t| t != pair && !needed_before(pair, t)) {
            continue;
        }
        progress.start_pair(Some(pair), Phase::Checking);
        let combos: Vec<Combo> = if pair == pair.swapped() {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        let is_target = target.map_or(true, |t| t == pair);
        let on_disk: Option<Vec<Vec<u8>>> = combos
            .iter()
            .map(|&c| load_finished(opts, c).ok())
            .collect();
        if let Some(values) = on_disk {
            // A lone-king pair found on disk is analysed again in memory
            // (it is small): the pairs after it in its group need its
            // values by state.
            if Carry::of(pair) != Carry::None {
                let (plain, tables) =
                    build_pair(opts.variant, pair, &finished, &carried, &plains, progress);
                progress.set_phase(Phase::Checking, 0);
                plains.insert(plain.combos[0], plain.clone());
                plains.insert(plain.combos[1], plain);
                for side in tables {
                    if let Some(b) = side.by_state {
                        carried.insert(side.combo, Arc::new(b));
                    }
                }
            }
            let mut wdl = [0u64; 3];
            let mut bytes = 0;
            for (c, v) in combos.iter().zip(values) {
                count(&v, &mut wdl);
                for kind in [Kind::Values, Kind::Plies] {
                    bytes += std::fs::metadata(opts.dir.join(kind.file_name(*c)))
                        .map(|m| m.len())
                        .unwrap_or(0);
                }
                finished.insert(*c, Arc::new(v));
            }
            progress.start_pair(None, Phase::Idle);
            if is_target {
                report(&PairReport {
                    positions: pair.pair_size(),
                    combos,
                    wdl,
                    bytes,
                    seconds: 0.0,
                    skipped: true,
                });
            }
            continue;
        }
        if !is_target {
            return Err(format!(
                "endgame tables: {} is needed first (build the smaller tables, or all with --pieces)",
                super::file::file_name(pair)
            ));
        }
        let start = std::time::Instant::now();
        progress.start_build();
        let (plain, tables) =
            build_pair(opts.variant, pair, &finished, &carried, &plains, progress);
        progress.set_phase(Phase::Writing, 0);
        if plain.carry != Carry::None {
            plains.insert(plain.combos[0], plain.clone());
            plains.insert(plain.combos[1], plain);
        }
        let mut wdl = [0u64; 3];
        let mut bytes = 0;
        for side in tables {
            let c = side.combo;
            if let Some(b) = side.by_state {
                carried.insert(c, Arc::new(b));
            }
            count(&side.table, &mut wdl);
            // The plies first: a table of values on disk means its pair is
            // whole.
            for (kind, data) in [(Kind::Plies, &side.plies), (Kind::Values, &side.table)] {
                bytes += super::file::write(
                    &opts.dir.join(kind.file_name(c)),
                    kind,
                    opts.variant,
                    c,
                    data,
                )
                .map_err(|e| format!("endgame tables: {e}"))?;
            }
            finished.insert(c, Arc::new(side.table));
        }
        progress.start_pair(None, Phase::Idle);
        report(&PairReport {
            positions: pair.pair_size(),
            combos,
            wdl,
            bytes,
            seconds: start.elapsed().as_secs_f64(),
            skipped: false,
        });
        if target.is_some() {
            break;
        }
    }
    Ok(())
}

fn count(values: &[u8], wdl: &mut [u64; 3]) {
    for &v in values {
        match v {
            WIN => wdl[0] += 1,
            DRAW => wdl[1] += 1,
            LOSS => wdl[2] += 1,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// The workers' counts reach the shared one (in batches, the rest when
    /// a worker ends), and the phases make the pair's fraction grow.
    #[test]
    fn progress_counts_and_estimates() {
        let p = Progress::default();
        let kkm_km: Combo = "KKM-KM".parse().unwrap();
        p.start_pair(Some(kkm_km), Phase::Checking);
        let s = p.snapshot();
        assert_eq!((s.pair, s.building, s.fraction), (Some(kkm_km), None, 0.0));
        p.start_build();
        p.set_phase(Phase::Looking, 10_000);
        let n: u64 = (0..10_000u64)
            .into_par_iter()
            .map_init(|| p.tally(), |t, _| t.tick())
            .count() as u64;
        assert_eq!(n, 10_000);
        let s = p.snapshot();
        assert_eq!((s.done, s.total, s.fraction), (10_000, 10_000, 0.5));
        assert!(s.building.is_some());
        p.set_phase(Phase::Retrograde, 10_000);
        {
            let mut t = p.tally();
            for _ in 0..Progress::BATCH + 5 {
                t.tick();
            }
            // A whole batch is counted while the worker runs.
            assert_eq!(p.snapshot().done, Progress::BATCH);
        }
        assert_eq!(p.snapshot().done, Progress::BATCH + 5);
        p.set_side(1, 2);
        p.set_phase(Phase::Solving, 100);
        p.add(50);
        let s = p.snapshot();
        assert!((s.fraction - 0.975).abs() < 1e-9, "{s:?}");
        // The solver at its own pace: 50 more states on this side, 0 after.
        let left = s.pair_left().unwrap();
        assert!((left - s.phase_secs).abs() < 1e-6, "{s:?}");
        p.start_pair(None, Phase::Idle);
        assert_eq!(p.snapshot().pair, None);
    }

    /// The pass over the men's placements ([`counted`]) gives what the
    /// exact solver gives, state by state, on the wins and losses longer
    /// than 30 plies of a counted pair with men. The smaller tables are
    /// made up so that such lines exist at four pieces: after a capture
    /// the side with more pieces wins, a promotion draws. (The real tables
    /// have none at four pieces; at five, `egdb build` writes the same
    /// bytes as with the exact solver: docs/endgame-tables.md.)
    #[test]
    fn the_pass_over_the_men_agrees_with_the_exact_solver() {
        let combo: Combo = "KM-KM".parse().unwrap();
        for variant in [Variant::Russian, Variant::Brazilian] {
            let mut finished: Finished = HashMap::new();
            for n in 2..=4 {
                for c in Combo::all_with(n) {
                    if n < 4 || c.men() < combo.men() {
                        let (us, them) = (c.us_men + c.us_kings, c.them_men + c.them_kings);
                        let v = match us.cmp(&them) {
                            _ if n == 4 => DRAW,
                            std::cmp::Ordering::Less => LOSS,
                            std::cmp::Ordering::Equal => DRAW,
                            std::cmp::Ordering::Greater => WIN,
                        };
                        finished.insert(c, Arc::new(vec![v; c.size() as usize]));
                    }
                }
            }
            let (plain, built) = build_pair(
                variant,
                combo,
                &finished,
                &HashMap::new(),
                &HashMap::new(),
                &Progress::default(),
            );
            let plains: HashMap<Combo, Arc<Plain>> = [(combo, plain)].into();
            let plain = &plains[&combo];
            let mut solver = Solver::new(variant, &finished, &plains);
            let mut compared = 0;
            for (i, &v) in built[0].table.iter().enumerate() {
                let (pv, d) = (plain.value[0][i], plain.dist[0][i]);
                if (pv == WIN || pv == LOSS) && d > 30 {
                    let pos = combo.decode(i as u64).unwrap().position(variant);
                    let exact = solver.solve(&pos, DrawState::after(None, &pos));
                    assert_eq!(v, exact, "{variant} {combo} {i}: plies {d}");
                    compared += 1;
                }
            }
            assert!(compared > 100, "{variant}: {compared} compared");
        }
    }

    /// The moves back from a position are exactly the quiet, non-crowning
    /// moves forward that lead to it (checked on random positions).
    #[test]
    fn predecessors_are_the_positions_whose_quiet_moves_lead_here() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for variant in [Variant::Russian, Variant::Brazilian] {
            for combo in Combo::all_with(3).into_iter().chain(Combo::all_with(4)) {
                let size = combo.size();
                for _ in 0..60 {
                    let Some(q) = combo.decode(rng.gen_range(0..size)) else {
                        continue;
                    };
                    let mut back = Vec::new();
                    predecessors(variant, &q, |p| back.push(p));
                    // Forward: every position of the swapped combination
                    // with one quiet move to q.
                    let pc = combo.swapped();
                    let mut forward = Vec::new();
                    for j in 0..pc.size() {
                        let Some(p) = pc.decode(j) else { continue };
                        let pos = p.position_unkeyed(variant);
                        for m in pos.legal_moves().iter() {
                            if !m.is_capture() && !m.promotes() && Slots::of(&pos.play(m)) == q {
                                forward.push(p);
                            }
                        }
                    }
                    let key = |s: &Slots| (s.us_men, s.us_kings, s.them_men, s.them_kings);
                    back.sort_by_key(key);
                    forward.sort_by_key(key);
                    assert_eq!(back, forward, "{variant} {combo} {q:?}");
                }
                if combo.pieces() == 4 {
                    break;
                }
            }
        }
    }
}

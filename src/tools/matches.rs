//! Engine-vs-engine matches: two external engines (UCI-like or Hub) play a
//! series of games from an opening set, each opening twice with colours
//! reversed. The runner keeps both Fischer clocks itself, forfeits an
//! engine that runs out of time, plays an illegal move, stops answering or
//! exits, and ends games by the rules of [`crate::game`] (no move, the draw
//! rules 7.2.3-7.2.8, the Adiyukh end and count) or at a ply cap.
//!
//! Game `i` (0-based) uses opening `i / 2` of the (seed-shuffled) set;
//! engine 1 plays White in even games and Black in odd ones. Several games
//! run at once with `concurrency` > 1, each worker with its own pair of
//! engine processes.
//!
//! The caller hears of every finished game and, about twice a second from
//! before the first game on, gets a tick for a progress display
//! ([`Event`]). When the [`MatchConfig::interrupt`] flag is set (Ctrl-C,
//! [`stop_on_ctrl_c`]), the games under way are abandoned, their engine
//! processes killed, and [`run`] returns the standing of the finished
//! games, marked interrupted.

use crate::game::{adiyukh_result, Game, GameResult, Outcome};
use crate::pdn::GameRecord;
use crate::protocol::Go;
use crate::tools::elo::{Sprt, SprtState, Tally};
use crate::tools::player::{EngineSpec, Failure, Player};
use crate::variant::{Scoring, Variant};
use crate::Color;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A Fischer time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `<base>+<inc>` in seconds, e.g. `10+0.1`, or `<base>` alone.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "time control '{s}': expected <base>+<inc> in seconds, each from 0 to 2592000 (30 days), e.g. 10+0.1"
            )
        };
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let secs = |t: &str| -> Result<u64, String> {
            let x: f64 = t.trim().parse().map_err(|_| bad())?;
            if !(0.0..=86_400.0 * 30.0).contains(&x) {
                return Err(bad());
            }
            Ok((x * 1000.0).round() as u64)
        };
        let tc = TimeControl {
            base_ms: secs(base)?,
            inc_ms: secs(inc)?,
        };
        if tc.base_ms == 0 {
            // The increment comes after a move: the first would have no time.
            return Err(format!("time control '{s}': the base time must be above 0"));
        }
        Ok(tc)
    }
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub variant: Variant,
    pub games: usize,
    pub tc: Option<TimeControl>,
    /// Depth limit of each engine's moves.
    pub depth: [Option<u32>; 2],
    /// Node limit of each engine's moves.
    pub nodes: [Option<u64>; 2],
    pub concurrency: usize,
    /// The openings (start position and moves each).
    pub openings: Vec<Game>,
    pub seed: u64,
    /// A game still running after this many plies ends there: a draw in
    /// Russian and Brazilian, the count in Adiyukh.
    pub max_plies: usize,
    /// Without a clock: the longest an engine may think about one move.
    pub move_timeout_ms: u64,
    /// Grace over the clock before a late move forfeits.
    pub time_margin_ms: u64,
    pub sprt: Option<Sprt>,
    /// The `Event` tag of the PDN.
    pub event: String,
    /// Set (by a signal handler, say) to stop the match: the games under
    /// way are abandoned and their engines killed.
    pub interrupt: Option<&'static AtomicBool>,
}

impl MatchConfig {
    fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

/// The flag set by Ctrl-C (SIGINT) once [`stop_on_ctrl_c`] is called.
static CTRL_C: AtomicBool = AtomicBool::new(false);

/// Make Ctrl-C (SIGINT) set a flag, for [`MatchConfig::interrupt`], instead
/// of ending the process: the runner then stops, kills its engines (which
/// sit in process groups of their own, so the terminal's SIGINT does not
/// reach them) and reports the games played. Where there are no signals,
/// the flag is never set.
pub fn stop_on_ctrl_c() -> Result<&'static AtomicBool, String> {
    #[cfg(unix)]
    {
        extern "C" fn on_sigint(_: libc::c_int) {
            // An atomic store is async-signal-safe.
            CTRL_C.store(true, Ordering::SeqCst);
        }
        // SAFETY: a zeroed sigaction is valid (no flags, empty mask); the
        // handler only stores to an atomic.
        let ok = unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) == 0
        };
        if !ok {
            return Err(format!(
                "cannot catch Ctrl-C: {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(&CTRL_C)
}

/// What [`run`] tells its caller, in the calling thread.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// Once before the first game, then about every [`TICK`] while no game
    /// ends: for a progress display.
    Tick,
    /// A game ended (the standing counts it).
    Game(&'a GameReport),
}

/// How often [`run`] ticks while no game ends.
pub const TICK: Duration = Duration::from_millis(500);

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Termination {
    /// By the rules (no move, a draw rule, the Adiyukh end).
    Rules(Outcome),
    /// The ply cap.
    PlyCap(usize),
    /// `loser` forfeited.
    Forfeit { loser: Color, why: Failure },
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// 0-based game number.
    pub index: usize,
    /// Which engine (0 or 1) played White.
    pub white: usize,
    pub result: GameResult,
    pub termination: Termination,
    /// Adiyukh: the final count (white, black), when the game ended on the
    /// board.
    pub count: Option<(u32, u32)>,
    pub record: GameRecord,
}

impl GameReport {
    /// The score of engine 1 (index 0): 1, 0.5 or 0.
    pub fn score_of_first(&self) -> f64 {
        let white_score = match self.result {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        };
        if self.white == 0 {
            white_score
        } else {
            1.0 - white_score
        }
    }

    /// Adiyukh: the points (checkers counted) of each engine.
    pub fn points(&self) -> Option<[u32; 2]> {
        self.count
            .map(|(w, b)| if self.white == 0 { [w, b] } else { [b, w] })
    }

    /// A short text of the termination, for PDN and the log.
    pub fn reason(&self) -> String {
        match &self.termination {
            Termination::Rules(o) => o.reason.describe().to_string(),
            Termination::PlyCap(n) => format!("adjudicated at the ply cap ({n} plies)"),
            Termination::Forfeit { loser, why } => format!("{loser:?} forfeits: {why}"),
        }
    }
}

/// The state of a match, passed to the caller after every game.
#[derive(Clone, Debug, Default)]
pub struct Standing {
    pub tally: Tally,
    pub played: usize,
    /// Adiyukh: points of each engine over the games counted on the board,
    /// and how many such games.
    pub points: [u64; 2],
    pub counted: usize,
    pub sprt: Option<SprtState>,
    /// Engine 1's score in each game of each opening pair (game `2k` and
    /// `2k+1` share opening `k`).
    pub pairs: std::collections::BTreeMap<usize, [Option<f64>; 2]>,
    /// Time since the games began (after the first engines' handshake).
    pub elapsed: Duration,
    /// The match was interrupted: the games under way were abandoned.
    pub interrupted: bool,
}

impl Standing {
    /// The mean score of engine 1 in every pair of which both games are
    /// over.
    pub fn pair_scores(&self) -> Vec<f64> {
        self.pairs
            .values()
            .filter_map(|p| Some((p[0]? + p[1]?) / 2.0))
            .collect()
    }
}

/// Run a match; `on_event` is called (in the calling thread) after every
/// game and for progress ticks ([`Event`]). Returns the final standing and
/// the engines' names.
pub fn run(
    config: &MatchConfig,
    on_event: &mut dyn FnMut(Event<'_>, &Standing, &[String; 2]),
) -> Result<(Standing, [String; 2]), String> {
    if config.openings.is_empty() {
        return Err("no openings".into());
    }
    if config.games == 0 {
        return Err("--games must be at least 1".into());
    }
    for k in 0..2 {
        if config.tc.is_none() && config.depth[k].is_none() && config.nodes[k].is_none() {
            return Err(format!(
                "engine {} has no limit: give --tc, --depth or --nodes",
                k + 1
            ));
        }
    }
    // Start one pair first: a command that cannot start is an error of the
    // whole match, before any game.
    let start = |k: usize| {
        Player::start(&config.engines[k], config.variant, config.interrupt)
            .map_err(|e| format!("engine {}: {e}", k + 1))
    };
    let names = match (start(0), start(1)) {
        (Ok(a), Ok(b)) => {
            let n = distinct_names([a.name(), b.name()], config);
            a.quit();
            b.quit();
            n
        }
        _ if config.interrupted() => {
            let name = |k: usize| {
                let e = &config.engines[k];
                e.name.clone().unwrap_or_else(|| e.command.clone())
            };
            let standing = Standing {
                interrupted: true,
                ..Standing::default()
            };
            return Ok((standing, [name(0), name(1)]));
        }
        (Err(e), _) | (_, Err(e)) => return Err(e),
    };
    let mut order: Vec<usize> = (0..config.openings.len()).collect();
    order.shuffle(&mut StdRng::seed_from_u64(config.seed));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<GameReport, String>>();
    let mut standing = Standing::default();
    let workers = config.concurrency.clamp(1, config.games);
    let started = Instant::now();
    on_event(Event::Tick, &standing, &names);
    let outcome = std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, stop, order, names) = (&next, &stop, &order, &names);
            scope.spawn(move || {
                let mut pair: [Option<Player>; 2] = [None, None];
                loop {
                    if stop.load(Ordering::SeqCst) || config.interrupted() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= config.games {
                        break;
                    }
                    let opening = &config.openings[order[(i / 2) % order.len()]];
                    let r = match play_game(config, i, opening, &mut pair, names) {
                        Ok(Some(report)) => Ok(report),
                        // Abandoned, or failed because of the interruption.
                        Ok(None) => break,
                        Err(_) if config.interrupted() => break,
                        Err(e) => Err(e),
                    };
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        break;
                    }
                }
                if config.interrupted() {
                    // Dropped: each engine's process group is killed now.
                    drop(pair);
                } else {
                    for p in pair.into_iter().flatten() {
                        p.quit();
                    }
                }
            });
        }
        drop(tx);
        loop {
            let r = match rx.recv_timeout(TICK) {
                Ok(r) => r,
                Err(RecvTimeoutError::Timeout) => {
                    standing.elapsed = started.elapsed();
                    on_event(Event::Tick, &standing, &names);
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let report = match r {
                Ok(r) => r,
                Err(e) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(e);
                }
            };
            standing.elapsed = started.elapsed();
            standing.played += 1;
            standing.tally.add(report.score_of_first());
            standing.pairs.entry(report.index / 2).or_insert([None; 2])[report.index % 2] =
                Some(report.score_of_first());
            if let Some(p) = report.points() {
                standing.points[0] += p[0] as u64;
                standing.points[1] += p[1] as u64;
                standing.counted += 1;
            }
            if let Some(s) = &config.sprt {
                // A decision stands: games still running when it was taken
                // are counted, but do not undo it.
                if standing.sprt.map_or(true, |st| st == SprtState::Continue) {
                    let state = s.state(&standing.tally);
                    standing.sprt = Some(state);
                    if state != SprtState::Continue {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            }
            on_event(Event::Game(&report), &standing, &names);
        }
        Ok(())
    });
    standing.elapsed = started.elapsed();
    // A Ctrl-C after the last game abandoned nothing.
    standing.interrupted = config.interrupted() && standing.played < config.games;
    outcome.map(|()| (standing, names))
}

/// Engine `k`'s depth and node limits as words: `["depth 8", "nodes 1000"]`.
fn limit_words(config: &MatchConfig, k: usize) -> Vec<String> {
    let mut l = Vec::new();
    if let Some(d) = config.depth[k] {
        l.push(format!("depth {d}"));
    }
    if let Some(n) = config.nodes[k] {
        l.push(format!("nodes {n}"));
    }
    l
}

/// Two engines of the same name (the same program twice) are told apart
/// by their limits, or else by their numbers.
fn distinct_names(names: [String; 2], config: &MatchConfig) -> [String; 2] {
    if names[0] != names[1] || config.engines.iter().any(|e| e.name.is_some()) {
        return names;
    }
    let limit = |k: usize| limit_words(config, k).join(" ");
    if limit(0) != limit(1) {
        [0, 1].map(|k| format!("{} {}", names[k], limit(k)))
    } else {
        [0, 1].map(|k| format!("{} #{}", names[k], k + 1))
    }
}

/// Play game `index` from `opening` with the worker's engines (started or
/// restarted as needed); `None` when the match is interrupted during it.
fn play_game(
    config: &MatchConfig,
    index: usize,
    opening: &Game,
    pair: &mut [Option<Player>; 2],
    names: &[String; 2],
) -> Result<Option<GameReport>, String> {
    for (k, slot) in pair.iter_mut().enumerate() {
        // An engine that died between games (or will not start a new one)
        // gets one fresh start; only a second failure ends the match.
        if let Some(p) = slot.as_mut() {
            if p.new_game().is_err() {
                *slot = None;
            }
        }
        if slot.is_none() {
            let failed = |e: String| format!("engine {} cannot be (re)started: {e}", k + 1);
            let mut p = Player::start(&config.engines[k], config.variant, config.interrupt)
                .map_err(failed)?;
            p.new_game().map_err(failed)?;
            *slot = Some(p);
        }
    }
    let white = index % 2;
    let mut game = Game::from_position(*opening.start());
    let mut comments: Vec<Option<String>> = Vec::new();
    for m in opening.moves() {
        game.play(m).map_err(|e| format!("opening: {e}"))?;
        comments.push(None);
    }
    if let Some(c) = comments.last_mut() {
        *c = Some("book".into());
    }
    // Both clocks in microseconds (an engine is sent whole milliseconds,
    // rounded down): every move is charged what it took, not a truncation.
    let mut clocks = config.tc.map(|tc| [tc.base_ms * 1000; 2]);
    let inc = config.tc.map_or(0, |tc| tc.inc_ms);
    let termination = loop {
        if config.interrupted() {
            return Ok(None);
        }
        if let Some(o) = game.outcome() {
            break Termination::Rules(o);
        }
        if game.moves().len() >= config.max_plies {
            break Termination::PlyCap(config.max_plies);
        }
        let side = game.position().side_to_move();
        let side_ix = side as usize;
        let engine = if side == Color::White {
            white
        } else {
            1 - white
        };
        let go = Go {
            depth: config.depth[engine],
            nodes: config.nodes[engine],
            ..clocks.map_or(Go::default(), |c| {
                Go::clock(c[0] / 1000, c[1] / 1000, inc, inc)
            })
        };
        let allowed = match clocks {
            Some(c) => Duration::from_micros(c[side_ix] + config.time_margin_ms * 1000),
            None => Duration::from_millis(config.move_timeout_ms),
        };
        let player = pair[engine].as_mut().expect("started");
        let reply = player.think(&game, &go, allowed);
        let reply = match (reply, clocks) {
            (Ok(r), Some(c)) if r.elapsed > allowed => {
                Err(Failure::OutOfTime(Duration::from_micros(c[side_ix])))
            }
            (Err(Failure::Timeout(_)), Some(c)) => {
                Err(Failure::OutOfTime(Duration::from_micros(c[side_ix])))
            }
            (other, _) => other,
        };
        match reply {
            Err(Failure::Interrupted) => return Ok(None),
            Ok(r) => {
                if let Some(c) = clocks.as_mut() {
                    let spent = r.elapsed.as_micros() as u64;
                    c[side_ix] = c[side_ix].saturating_sub(spent) + inc * 1000;
                }
                let mut note = Vec::new();
                if let Some(s) = &r.report.score {
                    note.push(match r.report.depth {
                        Some(d) => format!("{s}/{d}"),
                        None => s.clone(),
                    });
                }
                note.push(format!("{:.3}s", r.elapsed.as_secs_f64()));
                comments.push(Some(note.join(" ")));
                game.play(&r.mv)
                    .map_err(|e| format!("checked move refused: {e}"))?;
            }
            Err(why) => {
                // The engine is in an unknown state: a fresh process plays
                // its next game.
                pair[engine] = None;
                break Termination::Forfeit { loser: side, why };
            }
        }
    };
    let (result, count) = match &termination {
        Termination::Rules(o) => (o.result, o.score),
        Termination::PlyCap(_) => {
            if config.variant.rules().scoring == Scoring::HalfBoardCount {
                let (w, b) = game.position().half_board_score();
                (adiyukh_result(config.variant, w, b), Some((w, b)))
            } else {
                (GameResult::Draw, None)
            }
        }
        Termination::Forfeit { loser, .. } => (
            if *loser == Color::White {
                GameResult::BlackWins
            } else {
                GameResult::WhiteWins
            },
            None,
        ),
    };
    let mut report = GameReport {
        index,
        white,
        result,
        termination,
        count,
        record: GameRecord::new(game),
    };
    let reason = report.reason();
    let rec = &mut report.record;
    rec.set_tag("Event", &config.event);
    rec.set_tag("Site", "shashki match");
    rec.set_tag("Date", &today());
    rec.set_tag("Round", &(index + 1).to_string());
    rec.set_tag("White", &names[white]);
    rec.set_tag("Black", &names[1 - white]);
    if let Some(tc) = config.tc {
        rec.set_tag(
            "TimeControl",
            &format!(
                "{}+{}",
                tc.base_ms as f64 / 1000.0,
                tc.inc_ms as f64 / 1000.0
            ),
        );
    }
    for (tag, k) in [("WhiteLimit", white), ("BlackLimit", 1 - white)] {
        let l = limit_words(config, k);
        if !l.is_empty() {
            rec.set_tag(tag, &l.join(", "));
        }
    }
    rec.result = result.pdn().to_string();
    rec.set_tag("Termination", &reason);
    if let Some((w, b)) = count {
        rec.set_tag("Score", &format!("{w}:{b}"));
    }
    rec.comments = comments;
    rec.glyphs = vec![None; rec.comments.len()];
    Ok(Some(report))
}

/// Today's date as PDN writes it, `YYYY.MM.DD` (UTC).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The calendar date of a day number counted from 1970-01-01.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// The final table of a match.
pub fn summary(variant: Variant, standing: &Standing, names: &[String; 2]) -> String {
    let t = &standing.tally;
    let mut out = String::new();
    let width = names.iter().map(|n| n.len()).max().unwrap_or(6).max(6);
    out.push_str(&format!(
        "{:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>7}  elo (95% interval)\n",
        "engine", "games", "wins", "draws", "losses", "score"
    ));
    let flipped = Tally {
        wins: t.losses,
        draws: t.draws,
        losses: t.wins,
    };
    for (name, tally) in names.iter().zip([*t, flipped]) {
        let elo = match tally.elo() {
            Some(e) => format!(
                "{} [{}, {}]",
                fmt_elo(e.elo),
                fmt_elo(e.low),
                fmt_elo(e.high)
            ),
            None => "-".into(),
        };
        out.push_str(&format!(
            "{name:width$}  {:>5}  {:>5}  {:>5}  {:>6}  {:>6.1}%  {elo}\n",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
        ));
    }
    let pairs = standing.pair_scores();
    match crate::tools::elo::paired_elo(&pairs) {
        Some(e) => out.push_str(&format!(
            "{}: elo {} [{}, {}] by the {} complete opening pairs (pentanomial)\n",
            names[0],
            fmt_elo(e.elo),
            fmt_elo(e.low),
            fmt_elo(e.high),
            pairs.len()
        )),
        None => out.push_str(&format!(
            "{}: the interval by opening pairs needs at least {} complete pairs ({} so far)\n",
            names[0],
            crate::tools::elo::MIN_PAIRS,
            pairs.len()
        )),
    }
    if variant.rules().scoring == Scoring::HalfBoardCount && standing.counted > 0 {
        let n = standing.counted as f64;
        out.push_str(&format!(
            "mean points per game ({} games counted on the board): {} {:.2}, {} {:.2}\n",
            standing.counted,
            names[0],
            standing.points[0] as f64 / n,
            names[1],
            standing.points[1] as f64 / n
        ));
    }
    if let Some(s) = standing.sprt {
        out.push_str(&format!(
            "sprt: {}\n",
            match s {
                SprtState::AcceptH1 => "H1 accepted (engine 1 is stronger by at least elo1)",
                SprtState::AcceptH0 => "H0 accepted (engine 1 is not stronger by elo1)",
                SprtState::Continue => "undecided",
            }
        ));
    }
    out
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        // No "-0.0".
        format!("{:+.1}", e + 0.0)
    }
}

/// One line per finished game for the log.
pub fn game_line(r: &GameReport, s: &Standing, names: &[String; 2], total: usize) -> String {
    let mut line = format!(
        "game {}/{}: {} (W) - {} (B): {} ({})",
        r.index + 1,
        total,
        names[r.white],
        names[1 - r.white],
        r.record.result,
        r.reason()
    );
    if let Some((w, b)) = r.count {
        line.push_str(&format!(" count {w}:{b}"));
    }
    line.push_str(&format!(
        " | {}: +{} ={} -{} ({:.1}%)",
        names[0],
        s.tally.wins,
        s.tally.draws,
        s.tally.losses,
        100.0 * s.tally.score()
    ));
    line
}

/// A progress bar for a terminal: games done, the score, the time spent
/// and the estimated time to the end (at the pace of the games done so
/// far; `--:--` until the first game ends).
pub fn progress_bar(done: usize, total: usize, s: &Standing) -> String {
    use crate::tools::progress::{bar, clock_time, eta};
    format!(
        "{} {done}/{total}  +{} ={} -{}  {:.1}%  {} elapsed  ETA {}",
        bar(done as u64, total as u64, 30),
        s.tally.wins,
        s.tally.draws,
        s.tally.losses,
        100.0 * s.tally.score(),
        clock_time(s.elapsed.as_secs()),
        eta(s.elapsed.as_secs_f64(), done as f64, total as f64),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (10_000, 100));
        let tc: TimeControl = "0.5".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (500, 0));
        for bad in ["", "x+1", "10+", "-1+0", "0+0", "0+1", "1e99"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    /// A standing after `pairs` opening pairs that each split 1-1.
    fn split_pairs(pairs: usize) -> Standing {
        let mut s = Standing::default();
        for k in 0..pairs {
            s.tally.add(1.0);
            s.tally.add(0.0);
            s.pairs.insert(k, [Some(1.0), Some(0.0)]);
            s.played += 2;
        }
        s
    }

    #[test]
    fn few_pairs_give_no_pair_interval() {
        let names = ["a".to_string(), "b".to_string()];
        // Three pairs, each split: no spread at all, so no zero-width
        // interval; the table says more pairs are needed.
        let text = summary(Variant::Russian, &split_pairs(3), &names);
        assert!(
            text.contains(
                "a: the interval by opening pairs needs at least 10 complete pairs (3 so far)"
            ),
            "{text}"
        );
        assert!(
            !text.contains("pentanomial") && !text.contains("[+0.0, +0.0]"),
            "{text}"
        );
        // A pair of which one game is missing does not count.
        let mut s = split_pairs(9);
        s.pairs.insert(9, [Some(1.0), None]);
        let text = summary(Variant::Russian, &s, &names);
        assert!(text.contains("(9 so far)"), "{text}");
        s.pairs.insert(9, [Some(1.0), Some(1.0)]);
        let text = summary(Variant::Russian, &s, &names);
        assert!(
            text.contains("by the 10 complete opening pairs (pentanomial)"),
            "{text}"
        );
    }

    #[test]
    fn progress_bar_from_the_start_with_an_eta() {
        // Before any game ends: the bar, an empty score, no ETA yet.
        let s = Standing::default();
        let bar = progress_bar(0, 20, &s);
        assert!(
            bar.starts_with(&format!("[{}] 0/20", ".".repeat(30))),
            "{bar}"
        );
        assert!(bar.ends_with("0:00 elapsed  ETA --:--"), "{bar}");
        // 4 games of 20 in 50 s: 16 more at 12.5 s each, 200 s = 3:20.
        let mut s = split_pairs(2);
        s.elapsed = Duration::from_secs(50);
        let bar = progress_bar(4, 20, &s);
        assert!(
            bar.starts_with(&format!("[{}{}] 4/20", "#".repeat(6), ".".repeat(24))),
            "{bar}"
        );
        assert!(bar.ends_with("0:50 elapsed  ETA 3:20"), "{bar}");
        // Hours; and the ETA rounds up (7 s * 1/3 = 2.33 s -> 0:03).
        s.elapsed = Duration::from_secs(3 * 3600 + 62);
        assert!(progress_bar(4, 20, &s).contains("3:01:02 elapsed  ETA 12:04:08"));
        s.elapsed = Duration::from_secs(7);
        assert!(progress_bar(3, 4, &s).ends_with("ETA 0:03"));
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_819), (2027, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }
}

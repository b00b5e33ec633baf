//! What lives in the library between calls: the engine (its table, options
//! and threads), and the game as far as the library knows it, so that
//! repetitions and the counting draw rules 7.2.3-7.2.8 are seen.
//!
//! CheckerBoard sends only a board with each `getmove`; the history comes
//! from two places:
//!
//! * `set gamehist <position> <moves>`, sent before `getmove`: the position
//!   after the last irreversible move and the moves since (king moves
//!   without capture). When its last position is the board of the next
//!   `getmove`, it is that game's recent history.
//! * The game of the last `getmove`, its move included. When the board is
//!   one of its positions, or one legal move from one (the opponent's
//!   reply, or a reply after a takeback), the game continues from there;
//!   the history `set gamehist` sends is attached where its first position
//!   is found, so counts that began before the last irreversible move (the
//!   rules 7.2.6 and 7.2.8 go on counting when a man moves) are kept.
//!
//! With `CB_RESET_MOVES` set in `info` the library's own game is not used.
//! A client that plays on after the game has ended by the rules (a draw
//! rule it does not apply) gets what the Hub front end gives: the history
//! starts anew after the move that followed the end.

use crate::timing::TimeMode;
use shashki::engine::Engine;
use shashki::game::{Game, GameResult};
use shashki::input::quote;
use shashki::notation::hub::{self, MoveNumbers};
use shashki::search::{Info, Score, SearchResult};
use shashki::{fen, notation};
use shashki::{Color, Move, Position, Variant};
use std::os::raw::c_int;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Return values of `getmove`.
pub const CB_DRAW: c_int = 0;
pub const CB_WIN: c_int = 1;
pub const CB_LOSS: c_int = 2;
pub const CB_UNKNOWN: c_int = 3;

/// How often a running search is looked at for `playnow` and a new status
/// line.
const POLL: Duration = Duration::from_millis(1);

/// The engine state of the library.
pub struct Session {
    pub engine: Engine,
    /// The game of the last `getmove`, its move included.
    known: Option<History>,
    /// The game the last `set gamehist` described, for the next `getmove`.
    pending: Option<History>,
    /// The game the last `getmove` searched: its plies and its start.
    pub last_game: Option<(usize, String)>,
}

/// A move `getmove` played, or the end of the game it found.
pub struct Played {
    /// The position searched.
    pub before: Position,
    /// The move, `None` when the side to move has none.
    pub mv: Option<Move>,
    /// `CB_WIN`, `CB_DRAW`, `CB_LOSS` or `CB_UNKNOWN`, for the side that
    /// moved.
    pub result: c_int,
    /// The final status line.
    pub status: String,
}

/// The CheckerBoard game type of a variant: 25 Russian, 26 Brazilian.
pub fn gametype(v: Variant) -> c_int {
    match v {
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        _ => 0,
    }
}

/// The variant of a CheckerBoard game type.
pub fn variant_of_gametype(n: c_int) -> Option<Variant> {
    match n {
        25 => Some(Variant::Russian),
        26 => Some(Variant::Brazilian),
        _ => None,
    }
}

/// A game as the library knows it.
#[derive(Clone, Debug)]
struct History {
    game: Game,
    /// The game was started anew after its end by the rules: the client
    /// played on past a draw rule it does not apply (as the Hub front end
    /// does, the history then starts anew after the move that followed the
    /// end).
    anew: bool,
}

impl History {
    fn new(game: Game) -> History {
        History { game, anew: false }
    }

    /// The game followed by the legal move `mv`.
    fn extend(&mut self, mv: &Move) {
        if self.game.play(mv).is_err() {
            self.game = Game::from_position(self.game.position().play(mv));
            self.anew = true;
        }
    }

    /// The game up to its position `j`.
    fn truncated(&self, j: usize) -> History {
        let mut h = self.clone();
        while h.game.positions().len() > j + 1 {
            h.game.undo();
        }
        h
    }

    /// The history that leads to `target`, the board of the next move: up
    /// to the latest of its positions that is `target`, or from which one
    /// legal move leads there (the opponent's reply, or a reply after a
    /// takeback).
    fn continue_to(&self, target: &Position) -> Option<History> {
        let positions = self.game.positions();
        for j in (0..positions.len()).rev() {
            if positions[j] == *target {
                return Some(self.truncated(j));
            }
            if let Some(m) = move_to(&positions[j], target) {
                let mut h = self.truncated(j);
                h.extend(&m);
                return Some(h);
            }
        }
        None
    }

    /// The history that leads to `start`, the first position of a `set
    /// gamehist`, which follows an irreversible move: up to its first
    /// occurrence (later ones are repetitions, reached by the moves the
    /// history goes on with), else the latest position one legal move
    /// before it (the irreversible move).
    fn attach(&self, start: &Position) -> Option<History> {
        let positions = self.game.positions();
        if let Some(j) = positions.iter().position(|p| p == start) {
            return Some(self.truncated(j));
        }
        let (j, m) = (0..positions.len())
            .rev()
            .find_map(|j| move_to(&positions[j], start).map(|m| (j, m)))?;
        let mut h = self.truncated(j);
        h.extend(&m);
        Some(h)
    }
}

/// The legal move that leads from `p` to `target`, if one does.
fn move_to(p: &Position, target: &Position) -> Option<Move> {
    if p.side_to_move() == target.side_to_move() {
        return None;
    }
    p.legal_moves()
        .iter()
        .find(|m| p.play(m) == *target)
        .copied()
}

/// A status line of one completed iteration.
fn info_line(root: &Position, info: &Info) -> String {
    let score = match info.score {
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
        Score::Win(n) => format!("wins in {n}"),
        Score::Loss(n) => format!("loses in {n}"),
    };
    format!(
        "depth {}/{}  score {}  speed {:.2} Mnps  time {:.2}s  pv {}",
        info.depth,
        info.seldepth,
        score,
        info.nps as f64 / 1e6,
        info.time_ms as f64 / 1000.0,
        notation::line_texts(root, &info.pv).join(" ")
    )
}

/// Whether the square numbers of a position text are numbers (CheckerBoard
/// writes `W:W21,22:B1,K2`) rather than square names (pydraughts writes
/// `W:Wa1,c3:Bb8`).
fn numeric_position(text: &str) -> bool {
    text.split(':')
        .skip(1)
        .filter_map(|part| {
            part.trim_start_matches(['W', 'B', 'w', 'b', '"', ' '])
                .trim_start_matches(['K', 'k'])
                .chars()
                .next()
        })
        .next()
        .is_some_and(|c| c.is_ascii_digit())
}

impl Session {
    /// A session with the engine's defaults, playing Russian.
    pub fn new() -> Session {
        Session {
            engine: Engine::new(),
            known: None,
            pending: None,
            last_game: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.engine.options().variant
    }

    /// Play another variant; the game known so far is forgotten.
    pub fn set_variant(&mut self, v: Variant) -> Result<(), String> {
        if v != self.variant() {
            self.engine.set_variant(v)?;
            self.known = None;
            self.pending = None;
        }
        Ok(())
    }

    /// The position the library knows last: the end of its game, or the
    /// start position.
    pub fn current_position(&self) -> Position {
        self.known
            .as_ref()
            .map_or_else(|| Position::start(self.variant()), |h| *h.game.position())
    }

    /// `set gamehist <position> [<move> ...]`: remember the history for the
    /// next `getmove`. Returns a short acknowledgement.
    pub fn set_gamehist(&mut self, args: &[&str]) -> Result<String, String> {
        self.pending = None;
        let Some((&text, moves)) = args.split_first() else {
            return Err(
                "set gamehist needs a position, then the moves played since (if any)".into(),
            );
        };
        let variant = self.variant();
        let start = Game::from_text(variant, text)
            .map_err(|e| format!("set gamehist: bad position '{}': {e}", quote(text)))?;
        // CheckerBoard numbers moves as its position text (PDN order);
        // pydraughts writes square names in the position and numbers its
        // moves from a1. Each is tried whole, the likelier first.
        let (first, second) = if numeric_position(text) {
            (MoveNumbers::Pdn, MoveNumbers::A1)
        } else {
            (MoveNumbers::A1, MoveNumbers::Pdn)
        };
        let play = |numbers: MoveNumbers| -> Result<History, String> {
            let mut h = History::new(start.clone());
            for (i, m) in moves.iter().enumerate() {
                let mv = hub::parse_move(h.game.position(), m, numbers)
                    .map_err(|e| format!("set gamehist: move {} '{}': {e}", i + 1, quote(m)))?;
                h.extend(&mv);
            }
            Ok(h)
        };
        let history = play(first).or_else(|e| play(second).map_err(|_| e))?;
        let n = moves.len();
        self.pending = Some(history);
        Ok(format!(
            "gamehist: {n} move{} after {}",
            if n == 1 { "" } else { "s" },
            quote(text)
        ))
    }

    /// The game to search: the board with the history the library has for
    /// it, and a remark when the last `set gamehist` was not used.
    fn game_for(&mut self, board: &Position, reset: bool) -> (History, Option<&'static str>) {
        let pending = self.pending.take();
        let known = if reset { None } else { self.known.as_ref() };
        let continued = known.and_then(|k| k.continue_to(board));
        let mut remark = None;
        if let Some(h) = pending {
            if h.game.position() == board {
                // The library's own game began after the end of the game by
                // the rules, later than the client's history: it is the
                // history since that end. (The client's first position may
                // recur in it, in a repetition, so it is not attached there.)
                if let Some(c) = continued.as_ref().filter(|c| c.anew) {
                    return (c.clone(), None);
                }
                if let Some(mut g) = known.and_then(|k| k.attach(h.game.start())) {
                    for m in h.game.moves() {
                        g.extend(m);
                    }
                    return (g, None);
                }
                return (h, None);
            }
            remark = Some("the last gamehist does not end in this position: not used");
        }
        if let Some(c) = continued {
            return (c, remark);
        }
        (History::new(Game::from_position(*board)), remark)
    }

    /// Find and play a move on `board`. `playnow` is asked while the
    /// search runs (it stops it), `status` hears each new status line.
    pub fn getmove(
        &mut self,
        board: &Position,
        time: TimeMode,
        reset: bool,
        playnow: &dyn Fn() -> bool,
        status: &mut dyn FnMut(&str),
    ) -> Result<Played, String> {
        let (history, remark) = self.game_for(board, reset);
        if let Some(r) = remark {
            status(r);
        }
        let anew = history.anew;
        let game = history.game;
        self.last_game = Some((game.moves().len(), fen::position_text(game.start())));
        let before = *game.position();
        if before.legal_moves().is_empty() {
            let side = before.side_to_move();
            self.known = Some(History { game, anew });
            return Ok(Played {
                before,
                mv: None,
                result: CB_LOSS,
                status: format!("{side} has no legal move: the game is lost"),
            });
        }
        let over_already = game.outcome();
        let drawn_already = matches!(over_already, Some(o) if o.result == GameResult::Draw);
        self.engine.set_game(game.clone())?;
        let limits = time.limits();
        let (tx, rx) = mpsc::channel::<SearchResult>();
        let latest: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
        let last_line: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
        let (latest_in, last_in) = (latest.clone(), last_line.clone());
        let mut note = None;
        self.engine.go(
            limits,
            false,
            &mut |n| note = Some(n.to_string()),
            Box::new(move |info| {
                let line = info_line(&before, info);
                if let Ok(mut l) = last_in.lock() {
                    *l = Some(line.clone());
                }
                if let Ok(mut l) = latest_in.lock() {
                    *l = Some(line);
                }
            }),
            Box::new(move |_, result| {
                let _ = tx.send(result);
            }),
        )?;
        if let Some(n) = &note {
            status(n);
        }
        let mut stopped = false;
        let result = loop {
            match rx.recv_timeout(POLL) {
                Ok(r) => break Ok(r),
                Err(RecvTimeoutError::Timeout) => {
                    if !stopped && playnow() {
                        // Waits for the search, which sends its result.
                        self.engine.stop();
                        stopped = true;
                    }
                    if let Some(line) = latest.lock().ok().and_then(|mut l| l.take()) {
                        status(&line);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    break Err("the search ended without a result (an internal error)".to_string())
                }
            }
        };
        self.engine.wait();
        let result = result?;
        let Some(mv) = result.best else {
            return Err("the search found no move in a position with legal moves".into());
        };
        let mut history = History { game, anew };
        history.extend(&mv);
        let after = &history.game;
        let ended = after.outcome().or(over_already);
        let code = match after.outcome() {
            Some(o) => match (o.result, before.side_to_move()) {
                (GameResult::Draw, _) => CB_DRAW,
                (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => {
                    CB_WIN
                }
                _ => CB_LOSS,
            },
            // The rules drew the game before this move.
            None if drawn_already => CB_DRAW,
            None => match Score::from_internal(result.score) {
                Score::Win(_) => CB_WIN,
                Score::Loss(_) => CB_LOSS,
                Score::Cp(_) => CB_UNKNOWN,
            },
        };
        let text = notation::move_text(&before, &mv);
        let line = last_line.lock().ok().and_then(|mut l| l.take());
        let mut status_line = match line {
            Some(l) => format!("{text}  {l}"),
            None if before.legal_moves().len() == 1 => format!("{text}  (the only legal move)"),
            None => format!("{text}  (stopped before the first iteration)"),
        };
        if let Some(o) = ended {
            status_line = format!(
                "{text}  game over: {o}  {}",
                &status_line[text.len()..].trim_start()
            );
        }
        self.known = Some(history);
        Ok(Played {
            before,
            mv: Some(mv),
            result: code,
            status: status_line,
        })
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: Variant, moves: &[&str]) -> Game {
        let mut g = Game::new(variant);
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn numeric_positions_are_told_from_named_ones() {
        assert!(numeric_position("B:W21,22,23:B1,2,3"));
        assert!(numeric_position("W:WK12,K27,30:BK1"));
        assert!(!numeric_position("W:Wa1,c3:Bb8"));
        assert!(!numeric_position("W:WKa1:Bh8"));
        assert!(numeric_position("W:W:B1"));
    }

    #[test]
    fn the_history_continues_from_the_latest_matching_position() {
        let k = game(Variant::Russian, &["c3-d4", "f6-g5", "b2-c3"]);
        // The board after one more move: the known game and that move.
        let next = k.position().play(&k.position().legal_moves()[0]);
        let k = History::new(k);
        let g = k.continue_to(&next).unwrap().game;
        assert_eq!(g.moves().len(), 4);
        assert_eq!(g.position(), &next);
        // A takeback of two plies.
        let back = k.game.positions()[1];
        assert_eq!(k.continue_to(&back).unwrap().game.moves().len(), 1);
        // A position the game never came near.
        let far = shashki::fen::parse_position(Variant::Russian, "W:WKa1:BKh8").unwrap();
        assert!(k.continue_to(&far).is_none());
        assert!(k.attach(&far).is_none());
    }

    #[test]
    fn a_gamehist_attaches_where_its_start_first_occurs() {
        // Kings going back and forth: the start occurs again at ply 4.
        let mut k = History::new(Game::from_text(Variant::Russian, "W:WKa3:BKh8").unwrap());
        for m in ["a3-b4", "h8-g7", "b4-a3", "g7-h8"] {
            let mv = shashki::notation::parse_move(k.game.position(), m).unwrap();
            k.extend(&mv);
        }
        let start = k.game.positions()[0];
        assert_eq!(k.game.positions()[4], start);
        // A history sent from the start goes on from its first occurrence;
        // the board itself continues from its latest.
        assert_eq!(k.attach(&start).unwrap().game.moves().len(), 0);
        assert_eq!(k.continue_to(&start).unwrap().game.moves().len(), 4);
        assert!(!k.anew);
    }

    #[test]
    fn a_game_started_anew_is_not_attached_to_an_older_history() {
        // The library's game started anew (after the rules ended the game)
        // at `start`, and went once round a cycle of four plies; the client,
        // whose history began at the same position a cycle earlier, sends
        // its moves since then. The client's start recurs in the library's
        // game, but the library's game since its new start is the history:
        // attached there, the client's moves would repeat the position a
        // third time and start the game anew once more (one ply long).
        let text = "W:WKa3:BKh8";
        let cycle = ["a3-b4", "h8-g7", "b4-a3", "g7-h8"];
        let play = |h: &mut History, moves: &[&str]| {
            for m in moves {
                let mv = shashki::notation::parse_move(h.game.position(), m).unwrap();
                h.extend(&mv);
            }
        };
        let mut known = History::new(Game::from_text(Variant::Russian, text).unwrap());
        known.anew = true;
        play(&mut known, &cycle);
        let mut client = History::new(Game::from_text(Variant::Russian, text).unwrap());
        play(&mut client, &cycle);
        play(&mut client, &cycle);
        // The start a third time: the client plays on, its game anew.
        play(&mut client, &cycle[..1]);
        let board = *client.game.position();
        let mut s = Session::new();
        s.known = Some(known);
        s.pending = Some(client);
        let (h, remark) = s.game_for(&board, false);
        assert!(remark.is_none());
        // The library's game and the move from its end to the board.
        assert_eq!(h.game.moves().len(), 5);
        assert_eq!(shashki::fen::position_text(h.game.start()), text);
        assert_eq!(h.game.position(), &board);
    }

    #[test]
    fn a_game_past_its_end_starts_anew() {
        // Rule 7.2.8: two kings against a king, 5 moves; the sixth move
        // follows the end of the game.
        let mut h = History::new(Game::from_text(Variant::Russian, "W:WKa1,Kc1:BKh6").unwrap());
        let mut plies = 0;
        while !h.anew {
            let p = *h.game.position();
            // A move that captures nothing, repeats nothing and leaves the
            // opponent nothing to capture.
            let mv = p
                .legal_moves()
                .iter()
                .find(|m| {
                    let next = p.play(m);
                    !m.is_capture()
                        && !h.game.positions().contains(&next)
                        && next.legal_moves().iter().all(|r| !r.is_capture())
                })
                .copied()
                .unwrap();
            h.extend(&mv);
            plies += 1;
            assert!(plies <= 11);
        }
        assert_eq!(plies, 11);
        assert_eq!(h.game.moves().len(), 0);
    }
}

//! A game: a start position, the moves played and the position history;
//! repetition, the draw rules, the end of the game and its result.
//!
//! Russian and Brazilian (rules/russian.md, rules/brazilian.md): the side to
//! move with no piece or no move loses; draws by rules 7.2.3-7.2.8, counted
//! in plies as lidraughts counts them. Each rule keeps its own counter: the
//! plies played since its condition began to hold (with the same material,
//! where the rule says the balance must not change); the draw comes when a
//! counter reaches the rule's count and the side to move still has a move.
//!
//! | rule | condition | plies |
//! |---|---|---|
//! | 7.2.3 | the same position (and side to move) for the third time | - |
//! | 7.2.4 | three or more kings (only kings) against a lone king | 30 |
//! | 7.2.5 | only king moves, no man moved, no capture | 30 |
//! | 7.2.6 | both sides have kings, material unchanged, 4-5 pieces | 60 |
//! | 7.2.6 | the same with 6-7 pieces | 120 |
//! | 7.2.7 | three pieces with a king against a lone king on a1-h8 | 10 |
//! | 7.2.8 | two kings, king and man, or a king against a lone king | 10 |
//!
//! Adiyukh (rules/adiyukh.md): the game ends when the side to move has no
//! move, or when a position occurs for the third time with the same side to
//! move; it is counted as it stands.
//!
//! ```
//! use shashki::game::{Game, GameResult};
//! use shashki::Variant;
//! let mut game = Game::new(Variant::Russian);
//! game.play_text("c3-d4").unwrap();
//! assert!(game.outcome().is_none());
//! assert!(game.play_text("c3-d4").is_err()); // the position is kept
//! assert_eq!(game.moves().len(), 1);
//! ```

use crate::board::{squares, Bitboard, Color, Geometry};
use crate::fen::{parse_position, PositionError};
use crate::moves::Move;
use crate::notation::{parse_move, MoveError};
use crate::position::Position;
use crate::variant::{Scoring, Variant};
use std::fmt;

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result in draughts notation, two points a game: `2-0` (White
    /// wins), `1-1` (draw), `0-2` (Black wins). The one notation of results
    /// everywhere: PDN files, match logs, `d` and `shashki show`.
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
        }
    }

    fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The side to move has no pieces left.
    NoPieces,
    /// The side to move has pieces but no legal move.
    NoMoves,
    /// 7.2.3 (Russian/Brazilian) or the Adiyukh repetition rule: the same
    /// position for the third time with the same side to move.
    Repetition,
    /// 7.2.4: three or more kings did not take a lone king within 15 moves.
    ThreeKingsAgainstKing,
    /// 7.2.5: 15 moves of kings only, no man moved and no capture.
    KingMovesOnly,
    /// 7.2.6: an ending with kings on both sides, balance unchanged for 30
    /// moves (4-5 pieces) or 60 moves (6-7 pieces).
    BalanceUnchanged,
    /// 7.2.7: three pieces with a king against a lone king on the main road.
    LoneKingOnMainRoad,
    /// 7.2.8: two pieces with a king (or one king) against a lone king.
    TwoAgainstKing,
}

impl EndReason {
    /// A short description, e.g. for PDN's Termination tag.
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::NoPieces => "no pieces left",
            EndReason::NoMoves => "no legal move",
            EndReason::Repetition => "threefold repetition",
            EndReason::ThreeKingsAgainstKing => "rule 7.2.4: three kings against a king, 15 moves",
            EndReason::KingMovesOnly => "rule 7.2.5: 15 moves of kings only",
            EndReason::BalanceUnchanged => "rule 7.2.6: balance unchanged in a kings ending",
            EndReason::LoneKingOnMainRoad => "rule 7.2.7: lone king on the main road, 5 moves",
            EndReason::TwoAgainstKing => "rule 7.2.8: two pieces against a king, 5 moves",
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
    /// Adiyukh: the count `(white, black)` of the final position.
    pub score: Option<(u32, u32)>,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result.pdn(), self.reason.describe())?;
        if let Some((w, b)) = self.score {
            write!(f, " score {w}:{b}")?;
        }
        Ok(())
    }
}

/// The Adiyukh result of a count: 13 (64) or 16 (80) or more wins.
pub fn adiyukh_result(variant: Variant, white: u32, black: u32) -> GameResult {
    let half = variant.checkers_per_side();
    if white > half {
        GameResult::WhiteWins
    } else if black > half {
        GameResult::BlackWins
    } else {
        GameResult::Draw
    }
}

/// Draw-rule counters of one position: plies since each rule's condition
/// began to hold, with the signature that must stay the same.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct DrawState {
    king_moves: u16,
    r724: Counter,
    r726: Counter,
    r727: Counter,
    r728: Counter,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Counter {
    /// The condition's signature (0 = the condition does not hold).
    sig: u32,
    plies: u16,
}

impl Counter {
    fn next(self, sig: u32) -> Counter {
        match sig {
            0 => Counter::default(),
            s if s == self.sig => Counter {
                sig,
                plies: self.plies.saturating_add(1),
            },
            _ => Counter { sig, plies: 0 },
        }
    }
}

/// The main road, a1-h8.
fn main_road(g: Geometry) -> Bitboard {
    (0..8u8)
        .filter_map(|i| g.square(i, i))
        .fold(0, |m, s| m | s.bb())
}

/// Material of one side: (men, kings).
fn material(pos: &Position, c: Color) -> (u32, u32) {
    let own = pos.pieces(c);
    let kings = (own & pos.kings()).count_ones();
    (own.count_ones() - kings, kings)
}

impl DrawState {
    /// The signature of each rule's condition in `pos` (7.2.4, 7.2.6,
    /// 7.2.7, 7.2.8), 0 where it does not hold.
    fn signatures(pos: &Position) -> (u32, u32, u32, u32) {
        let (wm, wk) = material(pos, Color::White);
        let (bm, bk) = material(pos, Color::Black);
        let total = wm + wk + bm + bk;
        let road = main_road(pos.geometry());
        // A lone king of `weak` against a stronger side: the signature of
        // each lone-king rule, 0 when it does not apply.
        let lone = |weak: Color, (sm, sk): (u32, u32), (lm, lk): (u32, u32)| -> (u32, u32, u32) {
            if !(lm == 0 && lk == 1 && sk >= 1) {
                return (0, 0, 0);
            }
            let tag = 1 + weak.index() as u32 + 2 * total;
            let strong = sm + sk;
            let r728 = if strong <= 2 { tag } else { 0 };
            let r727 = if strong == 3 && pos.pieces(weak) & road != 0 {
                tag
            } else {
                0
            };
            let r724 = if strong >= 3 && sm == 0 { tag } else { 0 };
            (r724, r727, r728)
        };
        let (a, b) = (
            lone(Color::Black, (wm, wk), (bm, bk)),
            lone(Color::White, (bm, bk), (wm, wk)),
        );
        let (s724, s727, s728) = (a.0 | b.0, a.1 | b.1, a.2 | b.2);
        let s726 = if wk >= 1 && bk >= 1 && (4..=7).contains(&total) {
            1 + (wm | wk << 4 | bm << 8 | bk << 12)
        } else {
            0
        };
        (s724, s726, s727, s728)
    }

    /// Counters for a position reached by `mv` (or the first position).
    pub(crate) fn after(prev: Option<(&DrawState, &Position, &Move)>, pos: &Position) -> DrawState {
        let kings = pos.kings();
        if kings == 0 {
            // Every rule needs a king, and a king's quiet move leaves one on
            // the board: all counters are at rest.
            return DrawState::default();
        }
        let (white, black) = (pos.pieces(Color::White), pos.pieces(Color::Black));
        // A side reduced to one king (the lone-king rules), or kings on both
        // sides with 4 to 7 pieces (7.2.6): otherwise no rule's condition
        // holds and every signature is 0.
        let lone_king = |b: Bitboard| b != 0 && b & (b - 1) == 0 && b & kings != 0;
        let some_rule = lone_king(white)
            || lone_king(black)
            || (white & kings != 0
                && black & kings != 0
                && (4..=7).contains(&pos.occupied().count_ones()));
        let (s724, s726, s727, s728) = if some_rule {
            Self::signatures(pos)
        } else {
            (0, 0, 0, 0)
        };
        match prev {
            None => DrawState {
                king_moves: 0,
                r724: Counter::default().next(s724),
                r726: Counter::default().next(s726),
                r727: Counter::default().next(s727),
                r728: Counter::default().next(s728),
            },
            Some((state, before, mv)) => {
                let king_move = !mv.is_capture() && before.kings() & mv.from().bb() != 0;
                DrawState {
                    king_moves: if king_move {
                        state.king_moves.saturating_add(1)
                    } else {
                        0
                    },
                    r724: state.r724.next(s724),
                    r726: state.r726.next(s726),
                    r727: state.r727.next(s727),
                    r728: state.r728.next(s728),
                }
            }
        }
    }

    /// Whether a draw rule has come into force at `pos`, these counters'
    /// position (the search's test: the pieces are counted only when some
    /// counter runs).
    #[inline]
    pub(crate) fn in_force(&self, pos: &Position) -> bool {
        *self != DrawState::default() && self.draw(pos.occupied().count_ones()).is_some()
    }

    /// The counters of a game that starts at `pos`, except that rule
    /// 7.2.7's count (its condition holding at `pos`) stands at `plies`:
    /// the state after a promotion that kept a lone king's count running.
    pub(crate) fn with_r727(pos: &Position, plies: u16) -> DrawState {
        let mut d = DrawState::after(None, pos);
        if d.r727.sig != 0 {
            d.r727.plies = plies;
        }
        d
    }

    /// The plies of every count: king moves, 7.2.4, 7.2.6, 7.2.7, 7.2.8
    /// (0 where a rule's condition does not hold). With the position, which
    /// fixes every signature, they are the whole state.
    pub(crate) fn plies(&self) -> [u16; 5] {
        [
            self.king_moves,
            self.r724.plies,
            self.r726.plies,
            self.r727.plies,
            self.r728.plies,
        ]
    }

    /// The plies counted by 7.2.7 and 7.2.8, where their conditions hold.
    pub(crate) fn lone_king_counts(&self) -> (Option<u16>, Option<u16>) {
        let c = |x: Counter| (x.sig != 0).then_some(x.plies);
        (c(self.r727), c(self.r728))
    }

    /// Plies until the first running counter (or the count of king moves)
    /// reaches its limit: no draw rule that runs now can end the game
    /// sooner. Rules whose condition does not hold now are not counted,
    /// nor 7.2.7 unless `with_r727`.
    pub(crate) fn plies_left(&self, pieces: u32, with_r727: bool) -> u16 {
        let left = |c: Counter, limit: u16| {
            if c.sig != 0 {
                limit.saturating_sub(c.plies)
            } else {
                u16::MAX
            }
        };
        let r726_limit = if pieces <= 5 { 60 } else { 120 };
        (30u16.saturating_sub(self.king_moves))
            .min(left(self.r724, 30))
            .min(left(self.r726, r726_limit))
            .min(if with_r727 {
                left(self.r727, 10)
            } else {
                u16::MAX
            })
            .min(left(self.r728, 10))
    }

    /// The draw rule that has come into force, if any.
    pub(crate) fn draw(&self, pieces: u32) -> Option<EndReason> {
        // 7.2.6: 30 moves with 4-5 pieces, 60 with 6-7 (rules/russian.md,
        // as lidraughts counts them: 60 and 120 plies).
        let r726_limit = if pieces <= 5 { 60 } else { 120 };
        if self.r728.sig != 0 && self.r728.plies >= 10 {
            Some(EndReason::TwoAgainstKing)
        } else if self.r727.sig != 0 && self.r727.plies >= 10 {
            Some(EndReason::LoneKingOnMainRoad)
        } else if self.r724.sig != 0 && self.r724.plies >= 30 {
            Some(EndReason::ThreeKingsAgainstKing)
        } else if self.king_moves >= 30 {
            Some(EndReason::KingMovesOnly)
        } else if self.r726.sig != 0 && self.r726.plies >= r726_limit {
            Some(EndReason::BalanceUnchanged)
        } else {
            None
        }
    }
}

/// A game in progress or finished.
#[derive(Clone, Debug)]
pub struct Game {
    moves: Vec<Move>,
    /// `positions[i]` is the position after `i` moves.
    positions: Vec<Position>,
    draws: Vec<DrawState>,
}

/// Why a game could not be set up or a move not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    Position(PositionError),
    Move(MoveError),
    /// The game has already ended.
    Over(Outcome),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Position(e) => write!(f, "{e}"),
            GameError::Move(e) => write!(f, "{e}"),
            GameError::Over(o) => write!(f, "the game is over: {o}"),
        }
    }
}

impl std::error::Error for GameError {}

impl Game {
    /// A game from the start position of `variant`.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A game from any position.
    pub fn from_position(start: Position) -> Game {
        Game {
            moves: Vec::new(),
            positions: vec![start],
            draws: vec![DrawState::after(None, &start)],
        }
    }

    /// A game from position text.
    pub fn from_text(variant: Variant, text: &str) -> Result<Game, GameError> {
        parse_position(variant, text)
            .map(Game::from_position)
            .map_err(GameError::Position)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.start().variant()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game has at least one position")
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Play a legal move. Refused (and nothing changes) when the game is
    /// over or the move is not legal here.
    pub fn play(&mut self, mv: &Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let pos = *self.position();
        if !pos.legal_moves().iter().any(|m| m.same_result(mv)) {
            let text = crate::notation::move_text(&pos, mv);
            return Err(GameError::Move(MoveError::Illegal {
                text,
                legal: crate::notation::legal_move_texts(&pos),
            }));
        }
        self.push(pos, mv);
        Ok(())
    }

    /// Read move text and play it. On error nothing changes.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        if let Some(o) = self.outcome() {
            return Err(GameError::Over(o));
        }
        let pos = *self.position();
        let mv = parse_move(&pos, text).map_err(GameError::Move)?;
        self.push(pos, &mv);
        Ok(mv)
    }

    fn push(&mut self, pos: Position, mv: &Move) {
        let next = pos.play(mv);
        let state = DrawState::after(Some((self.draws.last().expect("state"), &pos, mv)), &next);
        self.moves.push(*mv);
        self.positions.push(next);
        self.draws.push(state);
    }

    /// The draw-rule counters of the current position (for the search).
    pub(crate) fn draw_state(&self) -> DrawState {
        *self.draws.last().expect("a game has at least one position")
    }

    /// Take back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.draws.pop();
        Some(mv)
    }

    /// How many times the current position has occurred (with the same
    /// side to move), counting this one.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        self.positions
            .iter()
            .filter(|p| p.key() == now.key() && *p == now)
            .count()
    }

    /// The end of the game, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let variant = pos.variant();
        let me = pos.side_to_move();
        let no_move = crate::movegen::count_moves(pos) == 0;
        if variant.rules().scoring == Scoring::HalfBoardCount {
            if no_move || self.repetitions() >= 3 {
                let (w, b) = pos.half_board_score();
                return Some(Outcome {
                    result: adiyukh_result(variant, w, b),
                    reason: if no_move {
                        if pos.pieces(me) == 0 {
                            EndReason::NoPieces
                        } else {
                            EndReason::NoMoves
                        }
                    } else {
                        EndReason::Repetition
                    },
                    score: Some((w, b)),
                });
            }
            return None;
        }
        if no_move {
            return Some(Outcome {
                result: GameResult::win_for(me.opposite()),
                reason: if pos.pieces(me) == 0 {
                    EndReason::NoPieces
                } else {
                    EndReason::NoMoves
                },
                score: None,
            });
        }
        let draw = if self.repetitions() >= 3 {
            Some(EndReason::Repetition)
        } else {
            let pieces = squares(pos.occupied()).count() as u32;
            self.draws.last().and_then(|d| d.draw(pieces))
        };
        draw.map(|reason| Outcome {
            result: GameResult::Draw,
            reason,
            score: None,
        })
    }
}

//! One game session: the variant, the start position, the line of moves
//! with a cursor on it (stepping through a game keeps the moves after the
//! cursor; a different move there replaces them), PDN tags of a loaded
//! game, and the board's orientation.
//!
//! Every change is all or nothing: a bad move, position text or PDN returns
//! a one-line error and leaves the session as it was.

use crate::entry::{self, Entry};
use shashki::game::Game;
use shashki::{fen, notation, pdn, Move, Position, Variant};

/// Longest position text or move text accepted from the page.
const MAX_TEXT: usize = 4096;

/// What playing a path or move text did.
#[derive(Debug)]
pub enum Played {
    /// The move was played (its text).
    Move(String),
    /// More squares are needed: the possible next squares and the moves the
    /// path can still become.
    Partial {
        next: Vec<String>,
        candidates: Vec<String>,
    },
}

/// A game being played or analysed.
#[derive(Clone, Debug)]
pub struct Session {
    start: Position,
    /// The moves of the line, from the start.
    line: Vec<Move>,
    /// The game up to the cursor (its moves are `line[..ply]`).
    game: Game,
    /// Tags of a loaded PDN game (kept for the export).
    tags: Vec<(String, String)>,
    /// The loaded game's result, while its line is unchanged.
    loaded_result: Option<String>,
    /// Black at the bottom of the picture.
    pub flip: bool,
}

impl Session {
    /// A new game from the start position of `variant`.
    pub fn new(variant: Variant) -> Session {
        Session::from_position(Position::start(variant))
    }

    fn from_position(start: Position) -> Session {
        Session {
            start,
            line: Vec::new(),
            game: Game::from_position(start),
            tags: Vec::new(),
            loaded_result: None,
            flip: false,
        }
    }

    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The game up to the cursor.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The cursor: the number of moves played to reach the current position.
    pub fn ply(&self) -> usize {
        self.game.moves().len()
    }

    /// The whole line as move texts.
    pub fn line_texts(&self) -> Vec<String> {
        notation::line_texts(&self.start, &self.line)
    }

    /// A new game (the same variant unless one is given); keeps the orientation.
    pub fn new_game(&mut self, variant: Option<Variant>) {
        let flip = self.flip;
        *self = Session::new(variant.unwrap_or(self.variant()));
        self.flip = flip;
    }

    /// Set up a position from position text.
    pub fn set_position(&mut self, variant: Option<Variant>, text: &str) -> Result<(), String> {
        let variant = variant.unwrap_or(self.variant());
        if text.len() > MAX_TEXT {
            return Err(format!(
                "position text of {} bytes is too long (limit {MAX_TEXT})",
                text.len()
            ));
        }
        let pos = fen::parse_position(variant, text.trim())
            .map_err(|e| format!("bad position text: {e}"))?;
        let flip = self.flip;
        *self = Session::from_position(pos);
        self.flip = flip;
        Ok(())
    }

    /// Load game `index` (from 0) of PDN text; the cursor goes to its end.
    pub fn load_pdn(&mut self, text: &str, index: usize) -> Result<(), String> {
        let games = pdn::read_games(text, self.variant());
        let n = games.len();
        let Some(game) = games.into_iter().nth(index) else {
            return Err(if n == 0 {
                "no game found in the PDN text".to_string()
            } else {
                format!("the PDN text has {n} games (numbered from 0); there is no game {index}")
            });
        };
        let rec = game.map_err(|e| format!("bad PDN: {e}"))?;
        let flip = self.flip;
        let mut s = Session::from_position(*rec.game.start());
        s.line = rec.game.moves().to_vec();
        s.game = rec.game.clone();
        s.tags = rec
            .tags
            .iter()
            .filter(|(n, _)| !["GameType", "Variant", "FEN", "Result"].contains(&n.as_str()))
            .cloned()
            .collect();
        s.loaded_result = Some(rec.result.clone());
        s.flip = flip;
        *self = s;
        Ok(())
    }

    /// The whole line as PDN text.
    pub fn pdn(&self) -> String {
        let mut game = Game::from_position(self.start);
        for mv in &self.line {
            if game.play(mv).is_err() {
                break;
            }
        }
        let result = match (game.outcome(), &self.loaded_result) {
            (Some(o), _) => pdn::result_token(Some(&o)),
            (None, Some(r)) => r.clone(),
            (None, None) => "*".to_string(),
        };
        let mut rec = pdn::GameRecord::new(game);
        rec.tags = self.tags.clone();
        if rec.tag("Event").is_none() {
            rec.set_tag("Event", "Shashki GUI");
        }
        rec.result = result;
        pdn::write_game(&rec)
    }

    /// Play a move given as text.
    pub fn play_text(&mut self, text: &str) -> Result<String, String> {
        if text.len() > MAX_TEXT {
            return Err("move text is too long".into());
        }
        let pos = *self.position();
        if let Some(o) = self.game.outcome() {
            return Err(format!("the game is over: {o}"));
        }
        let mv = notation::parse_move(&pos, text).map_err(|e| e.to_string())?;
        self.play(mv)
    }

    /// Play a path of squares, or say what may come next.
    pub fn play_path(&mut self, path: &[String]) -> Result<Played, String> {
        if let Some(o) = self.game.outcome() {
            return Err(format!("the game is over: {o}"));
        }
        match entry::enter(self.position(), path)? {
            Entry::Complete(mv) => self.play(mv).map(Played::Move),
            Entry::Partial { next, candidates } => Ok(Played::Partial { next, candidates }),
        }
    }

    /// Play a legal move at the cursor: the line goes on as it was when the
    /// move is the line's next one; otherwise the moves after the cursor
    /// are replaced.
    pub fn play(&mut self, mv: Move) -> Result<String, String> {
        let pos = *self.position();
        let text = notation::move_text(&pos, &mv);
        self.game.play(&mv).map_err(|e| e.to_string())?;
        let ply = self.game.moves().len() - 1;
        if self.line.get(ply).is_some_and(|m| m.same_result(&mv)) {
            return Ok(text);
        }
        self.line.truncate(ply);
        self.line.push(mv);
        self.loaded_result = None;
        Ok(text)
    }

    /// Take back `plies` moves: they leave the line.
    pub fn takeback(&mut self, plies: usize) -> Result<(), String> {
        if plies == 0 || plies > self.ply() {
            return Err(format!(
                "cannot take back {plies} moves: {} played",
                self.ply()
            ));
        }
        let ply = self.ply() - plies;
        self.goto(ply)?;
        self.line.truncate(ply);
        self.loaded_result = None;
        Ok(())
    }

    /// Move the cursor to `ply` (0 = the start) along the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.line.len() {
            return Err(format!(
                "no move {ply} in the line: it has {} moves",
                self.line.len()
            ));
        }
        let mut game = Game::from_position(self.start);
        for mv in &self.line[..ply] {
            game.play(mv).map_err(|e| e.to_string())?;
        }
        self.game = game;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_cursor_and_replacement() {
        let mut s = Session::new(Variant::Russian);
        for m in ["c3-d4", "f6-e5", "d4:f6"] {
            s.play_text(m).unwrap();
        }
        s.goto(1).unwrap();
        assert_eq!(s.line_texts().len(), 3);
        s.play_text("f6-e5").unwrap(); // the line's own move: kept
        assert_eq!(s.line_texts().len(), 3);
        s.goto(1).unwrap();
        s.play_text("b6-a5").unwrap(); // another: replaces the rest
        assert_eq!(s.line_texts(), ["c3-d4", "b6-a5"]);
        s.takeback(2).unwrap();
        assert_eq!(s.ply(), 0);
        assert!(s.takeback(1).is_err());
        assert!(s.goto(5).is_err());
    }

    #[test]
    fn errors_change_nothing() {
        let mut s = Session::new(Variant::Brazilian);
        s.play_text("c3-d4").unwrap();
        let before = (s.line_texts(), fen::position_text(s.position()));
        assert!(s.play_text("c3-d4").is_err());
        assert!(s.set_position(None, "W:Wz9:B").is_err());
        assert!(s.load_pdn("1. c3-c4 *", 0).is_err());
        assert!(s.play_path(&["a1".into(), "b2".into()]).is_err());
        assert_eq!(before, (s.line_texts(), fen::position_text(s.position())));
        assert_eq!(s.variant(), Variant::Brazilian);
    }
}

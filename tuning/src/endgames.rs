//! Endgame starting positions from games (`shashki-tune endgames`,
//! `tuning/endgame-openings.sh`): from each game of PDN files the first
//! quiet position with 6 to 8 pieces, kept when both sides have material
//! for a game and a fixed-depth search scores it near equality. The result
//! is an opening file (`shashki::tools::openings`): one `position |` line each.

use shashki::fen::position_text;
use shashki::game::Game;
use shashki::movegen::has_capture;
use shashki::pdn;
use shashki::search::Searcher;
use shashki::{Color, Position, Variant};
use std::collections::HashSet;

/// What [`extract`] keeps.
#[derive(Clone, Debug)]
pub struct EndgameConfig {
    pub variant: Variant,
    /// Pieces on the board, both sides together, inclusive.
    pub pieces: (u32, u32),
    /// Fewest pieces of each side.
    pub min_side: u32,
    /// Largest difference between the two sides' numbers of pieces.
    pub max_diff: u32,
    /// Depth of the balance check.
    pub depth: u32,
    /// Keep a position when the search scores it within this many
    /// centi-men of equality.
    pub max_score: i32,
}

/// Counts of what [`extract`] saw and dropped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EndgameStats {
    pub games: usize,
    /// Games of another variant or that do not load.
    pub skipped: usize,
    /// Games without a quiet position in the piece range.
    pub none: usize,
    /// First positions dropped for the material (too few pieces on a side,
    /// too large a difference, or kings only).
    pub material: usize,
    pub repeated: usize,
    /// Dropped by the balance check (or no legal move).
    pub unbalanced: usize,
    pub kept: usize,
}

/// One kept position and its score (centi-men, side to move).
#[derive(Clone, Debug)]
pub struct Endgame {
    pub position: Position,
    pub score: i32,
}

fn pieces(pos: &Position, c: Color) -> u32 {
    pos.pieces(c).count_ones()
}

/// The first position of `game` with `range` pieces whose side to move has
/// a move and no capture.
pub fn first_endgame(game: &Game, range: (u32, u32)) -> Option<Position> {
    game.positions()
        .iter()
        .find(|p| {
            let n = p.occupied().count_ones();
            (range.0..=range.1).contains(&n) && !has_capture(p) && !p.legal_moves().is_empty()
        })
        .copied()
}

/// Material that makes a game of it: at least `min_side` pieces a side, at
/// most `max_diff` more on one side, and a man on the board.
pub fn playable(pos: &Position, min_side: u32, max_diff: u32) -> bool {
    let (w, b) = (pieces(pos, Color::White), pieces(pos, Color::Black));
    w.min(b) >= min_side && w.abs_diff(b) <= max_diff && pos.occupied() & !pos.kings() != 0
}

/// The endgame positions of the games of `pdn_texts` (in order), and the
/// counts.
pub fn extract(cfg: &EndgameConfig, pdn_texts: &[String]) -> (Vec<Endgame>, EndgameStats) {
    let mut st = EndgameStats::default();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut searcher = Searcher::new(16, 1);
    for text in pdn_texts {
        for rec in pdn::read_games(text, cfg.variant) {
            st.games += 1;
            let Ok(rec) = rec else {
                st.skipped += 1;
                continue;
            };
            if rec.game.variant() != cfg.variant {
                st.skipped += 1;
                continue;
            }
            let Some(pos) = first_endgame(&rec.game, cfg.pieces) else {
                st.none += 1;
                continue;
            };
            if !playable(&pos, cfg.min_side, cfg.max_diff) {
                st.material += 1;
                continue;
            }
            if !seen.insert(pos.key()) {
                st.repeated += 1;
                continue;
            }
            // A fresh game: no history, as the match starts from the text.
            let game = Game::from_position(pos);
            // A forced line is played out first: the search scores a lone
            // move 0.
            let score = searcher.score_at_depth(&game, cfg.depth);
            if game.outcome().is_some() || score.abs() > cfg.max_score {
                st.unbalanced += 1;
                continue;
            }
            st.kept += 1;
            out.push(Endgame {
                position: pos,
                score,
            });
        }
    }
    (out, st)
}

/// The opening file: `header` lines as comments, then `position |` per
/// endgame.
pub fn to_text(header: &[String], endgames: &[Endgame]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {h}\n"));
    }
    for e in endgames {
        out.push_str(&position_text(&e.position));
        out.push_str(" |\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shashki::tools::openings;

    fn cfg() -> EndgameConfig {
        EndgameConfig {
            variant: Variant::Russian,
            pieces: (6, 8),
            min_side: 2,
            max_diff: 2,
            depth: 6,
            max_score: 60,
        }
    }

    #[test]
    fn the_first_quiet_position_in_range() {
        // Nine pieces; after c3-d4 Black must take; after e5:c3 (8 pieces)
        // White must take back (not quiet); after b2:d4, 4 against 3, quiet.
        let mut g = Game::from_text(Variant::Russian, "W:Wa1,c3,e3,g3,b2:Bb8,d8,e5,h8").unwrap();
        for m in ["c3-d4", "e5:c3", "b2:d4"] {
            g.play_text(m).unwrap();
        }
        let p = first_endgame(&g, (6, 8)).unwrap();
        assert_eq!(p.key(), g.positions()[3].key());
        assert!(first_endgame(&g, (2, 3)).is_none());
        assert!(playable(&p, 2, 2) && !playable(&p, 4, 2) && !playable(&p, 2, 0));
        let kings = Game::from_text(Variant::Russian, "W:WKa1,Kc1,Ke1:BKb8,Kd8,Kf8").unwrap();
        assert!(!playable(kings.position(), 2, 2));
    }

    #[test]
    fn extracts_balanced_positions_once_as_an_opening_file() {
        // The same game twice and one where White is far ahead.
        let even = Game::from_text(Variant::Russian, "W:Wa1,c1,c3,g3:Bb8,d8,f6,h6").unwrap();
        let ahead = Game::from_text(Variant::Russian, "W:WKa1,Kc1,e1,b2,c3:Bb8,h6").unwrap();
        let pdn_text: String = [&even, &even, &ahead]
            .iter()
            .map(|g| pdn::write_game(&pdn::GameRecord::new((*g).clone())))
            .collect::<Vec<_>>()
            .join("\n");
        let (found, st) = extract(&cfg(), &[pdn_text]);
        assert_eq!(st.games, 3);
        assert_eq!(st.repeated, 1);
        assert_eq!(st.material, 1, "{st:?}");
        assert_eq!(st.kept + st.unbalanced, 1, "{st:?}");
        let text = to_text(&["a header".into()], &found);
        assert!(text.starts_with("# a header\n"));
        if st.kept == 1 {
            assert!(found[0].score.abs() <= 60);
            let set = openings::parse(Variant::Russian, &text).unwrap();
            assert_eq!(set[0].position().key(), found[0].position.key());
            assert!(set[0].moves().is_empty());
        }
    }
}

//! Search scores for the positions of a data file, so that a fit can blend
//! the game results with what a deeper search thinks of each position.
//!
//! Each position is searched to a fixed depth, single-threaded, on a
//! cleared table, with the engine's built-in evaluation (or given weights).
//! The score depends on the position and the settings alone, so the output
//! is the same whatever the thread count, and shards can be rescored on
//! many machines. A position with one legal move is played on (up to
//! [`shashki::search::FORCED_MAX`] such moves) and the reply's score taken,
//! negated as the side changes: the search does not search a forced move.
//!
//! The output is a data file ([`crate::data`]) whose lines carry the score
//! between label and position: `<label> <score> <position>`, the score in
//! the evaluation's unit from White's point of view.

use crate::data::{DataSet, Sample};
use crate::play::HASH_MIB;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use shashki::eval::weights::Weights;
use shashki::fen::position_text;
use shashki::game::Game;
use shashki::search::Searcher;
use shashki::Color;

/// The score of `game`'s position from White's side, by a `depth` search
/// on `searcher` (its table cleared first; a forced line played out, see
/// [`Searcher::score_at_depth`]).
pub fn score_of(searcher: &mut Searcher, game: &Game, depth: u32) -> i32 {
    let s = searcher.score_at_depth(game, depth);
    match game.position().side_to_move() {
        Color::White => s,
        Color::Black => -s,
    }
}

/// `set` with every position scored by a `depth` search (with `weights`,
/// or the built-in ones), in the same order.
pub fn rescore(set: &DataSet, depth: u32, weights: Option<&Weights>, progress: bool) -> DataSet {
    let bar = if progress {
        let b = ProgressBar::new(set.samples.len() as u64);
        b.set_style(
            ProgressStyle::with_template(
                "rescore [{elapsed_precise}] {bar:40} {pos}/{len} positions (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let samples = set
        .samples
        .par_iter()
        .map_init(
            || {
                let mut s = Searcher::new(HASH_MIB, 1);
                s.set_weights(weights.cloned());
                s
            },
            |searcher, s| {
                let game = Game::from_position(s.pos);
                let score = score_of(searcher, &game, depth);
                bar.inc(1);
                let label = s.line.split_whitespace().next().unwrap_or("0");
                Sample {
                    label: s.label,
                    score: Some(score as f64),
                    pos: s.pos,
                    line: format!("{label} {score} {}", position_text(&s.pos)),
                }
            },
        )
        .collect();
    bar.finish_and_clear();
    DataSet {
        variant: set.variant,
        samples,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::DataSet;
    use shashki::Variant;

    #[test]
    fn scores_are_from_whites_side_and_reproducible() {
        // White a man up, either side to move; then a forced capture.
        let text = "variant russian\n\
                    1 W:Wa1,c1,e1,c3:Bh8,f8\n\
                    1 B:Wa1,c1,e1,c3:Bh8,f8\n\
                    0.5 W:Wa1,e1,c3:Bd4,h8\n";
        let set = DataSet::parse(text).unwrap();
        let a = rescore(&set, 4, None, false);
        let b = rescore(&set, 4, None, false);
        assert_eq!(a.to_text(""), b.to_text(""));
        let s: Vec<f64> = a.samples.iter().map(|s| s.score.unwrap()).collect();
        assert!(s[0] > 100.0 && s[1] > 100.0, "{s:?}");
        // c3:e5 is forced (the search alone scores a forced move 0); after
        // it White is two men up.
        assert!(s[2] > 100.0, "{s:?}");
        // The file reads back with the scores.
        let back = DataSet::parse(&a.to_text("x")).unwrap();
        assert_eq!(back, a);
        assert_eq!(back.variant, Variant::Russian);
    }
}

//! Playing games: random openings, fixed-depth moves, the end of a game.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use shashki::eval::weights::Weights;
use shashki::fen::{parse_position, position_text};
use shashki::game::{Game, GameResult};
use shashki::movegen::has_capture;
use shashki::search::{Limits, Searcher};
use shashki::{Color, Position, Variant};

/// Transposition table per searcher, MiB (games are short and shallow).
pub const HASH_MIB: usize = 4;

/// A well-mixed 64-bit hash (splitmix64's finaliser).
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The random generator of game `index` under `seed`: the same pair always
/// gives the same game, whatever machine or shard plays it.
pub fn game_rng(seed: u64, index: u64) -> StdRng {
    StdRng::seed_from_u64(mix(seed ^ mix(index)))
}

/// A game after `plies` uniformly random legal moves from the start (fewer
/// if the game ends first).
pub fn random_opening(variant: Variant, plies: usize, rng: &mut StdRng) -> Game {
    let mut game = Game::new(variant);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let Some(mv) = moves.choose(rng) else {
            break;
        };
        game.play(mv).expect("a legal move");
    }
    game
}

/// The same position with the other side to move (a null move).
pub fn pass(pos: &Position) -> Option<Position> {
    let text = position_text(pos);
    let swapped = match text.as_bytes().first() {
        Some(b'W') => format!("B{}", &text[1..]),
        Some(b'B') => format!("W{}", &text[1..]),
        _ => return None,
    };
    parse_position(pos.variant(), &swapped).ok()
}

/// Quiet: no capture for the side to move, nor for the other side after a
/// pass.
pub fn is_quiet(pos: &Position) -> bool {
    !has_capture(pos) && pass(pos).is_some_and(|p| !has_capture(&p))
}

/// How a game ended, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct End {
    /// 1, 0.5 or 0.
    pub score: f64,
    /// Adiyukh: the final count, White minus Black.
    pub count_diff: Option<f64>,
    /// The game reached the ply cap (adjudicated: a draw, or the count as
    /// it stands in Adiyukh).
    pub capped: bool,
}

/// The end of `game` if it is over, or (with `capped`) as it stands.
pub fn end_of(game: &Game, capped: bool) -> Option<End> {
    let towers = game.variant().rules().towers;
    let score_of = |r: GameResult| match r {
        GameResult::WhiteWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
    };
    if let Some(o) = game.outcome() {
        let count_diff = towers.then(|| {
            let (w, b) = o
                .score
                .unwrap_or_else(|| game.position().half_board_score());
            w as f64 - b as f64
        });
        return Some(End {
            score: score_of(o.result),
            count_diff,
            capped: false,
        });
    }
    if !capped {
        return None;
    }
    let (w, b) = game.position().half_board_score();
    let (score, count_diff) = if towers {
        let r = shashki::game::adiyukh_result(game.variant(), w, b);
        (score_of(r), Some(w as f64 - b as f64))
    } else {
        (0.5, None)
    };
    Some(End {
        score,
        count_diff,
        capped: true,
    })
}

/// Play `game` to its end (or `max_plies` plies in all) at a fixed depth,
/// White searching with `white` and Black with `black` (`None`: the
/// built-in weights). `visit` sees every position before its move is
/// searched, with its ply number.
pub fn play_out(
    game: &mut Game,
    depth: u32,
    max_plies: usize,
    white: Option<&Weights>,
    black: Option<&Weights>,
    visit: &mut dyn FnMut(&Position, usize),
) -> End {
    let mut searchers = [Searcher::new(HASH_MIB, 1), Searcher::new(HASH_MIB, 1)];
    searchers[0].set_weights(white.cloned());
    searchers[1].set_weights(black.cloned());
    let limits = Limits::depth(depth);
    loop {
        let ply = game.moves().len();
        if let Some(end) = end_of(game, ply >= max_plies) {
            return end;
        }
        let pos = *game.position();
        visit(&pos, ply);
        let s = &mut searchers[(pos.side_to_move() == Color::Black) as usize];
        let r = s.search(game, &limits, &mut |_| {});
        let Some(mv) = r.best else {
            // No move: the game is over; outcome() says so on the next turn.
            return end_of(game, true).expect("capped end");
        };
        game.play(&mv).expect("the search returns a legal move");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_swaps_the_side_only() {
        let p = Position::start(Variant::Russian);
        let q = pass(&p).unwrap();
        assert_eq!(q.side_to_move(), Color::Black);
        assert_eq!(q.occupied(), p.occupied());
        assert_eq!(pass(&q).unwrap(), p);
    }

    #[test]
    fn openings_are_reproducible() {
        for v in Variant::ALL {
            let a = random_opening(v, 8, &mut game_rng(5, 17));
            let b = random_opening(v, 8, &mut game_rng(5, 17));
            let c = random_opening(v, 8, &mut game_rng(5, 18));
            assert_eq!(a.moves(), b.moves());
            assert_ne!(a.moves(), c.moves(), "{v}");
        }
    }
}

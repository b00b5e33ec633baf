//! Random games: the incremental Zobrist key, the position text round trip,
//! the move text round trip and checker conservation after every move.
//!
//! 200 games per variant of up to 300 plies from the start, each move chosen
//! uniformly among the legal moves with a fixed-seed `StdRng`.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shashki::{fen, notation, Color, Position, Variant};

const GAMES: usize = 200;
const MAX_PLIES: usize = 300;

/// Checks on one position reached in a game.
fn check_position(pos: &Position, game: usize, ply: usize) {
    let at = || format!("{} game {game} ply {ply}: {pos}", pos.variant());
    assert_eq!(
        pos.key(),
        pos.compute_key(),
        "incremental key differs, {}",
        at()
    );
    let text = fen::position_text(pos);
    match fen::parse_position(pos.variant(), &text) {
        Ok(back) => assert_eq!(
            &back,
            pos,
            "position text {text:?} does not round-trip, {}",
            at()
        ),
        Err(e) => panic!("own position text {text:?} refused ({e}), {}", at()),
    }
    if let Some(numeric) = fen::position_text_numeric(pos) {
        let back = fen::parse_position(pos.variant(), &numeric)
            .unwrap_or_else(|e| panic!("numeric text {numeric:?} refused ({e}), {}", at()));
        assert_eq!(
            &back,
            pos,
            "numeric position text {numeric:?} does not round-trip, {}",
            at()
        );
    }
}

/// Every legal move's text reads back as that move, and the moves are
/// distinct. Problems are collected (the game goes on), not panicked on.
fn check_moves(pos: &Position, game: usize, ply: usize, failures: &mut Vec<String>) {
    let moves = pos.legal_moves();
    let at = || format!("{} game {game} ply {ply} in {pos}", pos.variant());
    for (i, m) in moves.iter().enumerate() {
        let text = notation::move_text(pos, m);
        match notation::parse_move(pos, &text) {
            Ok(back) if back == *m => {}
            Ok(back) => failures.push(format!(
                "{}: {text} reads back as {}",
                at(),
                notation::move_text(pos, &back)
            )),
            Err(e) => failures.push(format!("{}: own move text {text} refused: {e}", at())),
        }
        if moves[..i].iter().any(|other| other == m) {
            failures.push(format!("{}: {text} listed twice", at()));
        }
    }
}

fn random_games(variant: Variant, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let total = variant.checkers_per_side();
    let mut plies_played = 0usize;
    let mut failures = Vec::new();
    for game in 0..GAMES {
        let mut pos = Position::start(variant);
        check_position(&pos, game, 0);
        for ply in 1..=MAX_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            check_moves(&pos, game, ply, &mut failures);
            let mv = moves[rng.gen_range(0..moves.len())];
            let mover = pos.side_to_move();
            let before = [
                pos.checker_count(Color::White),
                pos.checker_count(Color::Black),
            ];
            let next = pos.play(&mv);
            let after = [
                next.checker_count(Color::White),
                next.checker_count(Color::Black),
            ];
            let text = notation::move_text(&pos, &mv);
            if variant.is_tower() {
                // Checkers change towers but never leave the board.
                assert_eq!(
                    after,
                    [total, total],
                    "{variant} game {game} ply {ply} {text}: checkers not conserved in {next}"
                );
                let (w, b) = next.half_board_score();
                assert_eq!(
                    w + b,
                    2 * total,
                    "{variant} game {game} ply {ply}: score {w}:{b}"
                );
            } else {
                // The mover keeps its pieces; the other side loses exactly
                // the pieces taken.
                let (me, them) = (mover.index(), mover.opposite().index());
                assert_eq!(
                    after[me], before[me],
                    "{variant} game {game} ply {ply} {text}"
                );
                assert_eq!(
                    after[them] as usize + mv.capture_count(),
                    before[them] as usize,
                    "{variant} game {game} ply {ply} {text}: pieces taken"
                );
            }
            assert_eq!(next.side_to_move(), mover.opposite());
            pos = next;
            plies_played += 1;
            check_position(&pos, game, ply);
        }
    }
    assert!(
        plies_played > GAMES * 10,
        "{variant}: only {plies_played} plies played"
    );
    assert!(
        failures.is_empty(),
        "{variant}: {} move text problem(s) in {plies_played} plies; the first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn random_games_russian() {
    random_games(Variant::Russian, 0x5255_5353);
}

#[test]
fn random_games_brazilian() {
    random_games(Variant::Brazilian, 0x4252_415A);
}

#[test]
fn random_games_adiyukh64() {
    random_games(Variant::Adiyukh64, 0x4144_3634);
}

#[test]
fn random_games_adiyukh80() {
    random_games(Variant::Adiyukh80, 0x4144_3830);
}

//! The game: the seed 001 example game replays to 17:7, and the end-of-game
//! and draw rules of rules/russian.md.

use shashki::game::{EndReason, Game, GameResult};
use shashki::{fen, Variant};

/// The moves of one notation of the example game: the full notation is the
/// uncommented lines; the short notation the comment line starting `# 1.`.
fn example_game(short: bool) -> Vec<String> {
    let text = crate::common::read_repo("engine-tests/testdata/adiyukh-example-game.txt");
    let lines: Vec<&str> = if short {
        text.lines()
            .filter_map(|l| l.strip_prefix("# 1.").map(|_| &l[2..]))
            .collect()
    } else {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .collect()
    };
    assert!(
        !lines.is_empty(),
        "no game text found in engine-tests/testdata/adiyukh-example-game.txt"
    );
    lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .filter(|t| !t.ends_with('.'))
        .map(str::to_string)
        .collect()
}

fn replay(short: bool) {
    let moves = example_game(short);
    assert_eq!(moves.len(), 29, "the example game has 29 half-moves");
    let mut game = Game::new(Variant::Adiyukh64);
    for (i, text) in moves.iter().enumerate() {
        let pos = *game.position();
        assert!(
            game.outcome().is_none(),
            "game ended early before half-move {}",
            i + 1
        );
        let mv = game.play_text(text).unwrap_or_else(|e| {
            panic!(
                "half-move {} '{text}' in {}: {e}",
                i + 1,
                fen::position_text(&pos)
            )
        });
        // A capture is played where, and only where, one is forced.
        let legal = pos.legal_moves();
        assert_eq!(
            mv.is_capture(),
            legal.iter().any(|m| m.is_capture()),
            "half-move {text}"
        );
        assert!(legal.contains(&mv));
    }
    let end = game.outcome().expect("the game is over after 15. d8:a5");
    assert_eq!(game.position().side_to_move(), shashki::Color::Black);
    assert!(game.position().legal_moves().is_empty());
    assert_eq!(end.score, Some((17, 7)));
    assert_eq!(end.result, GameResult::WhiteWins);
    // Black has no tower of its own left, so no move.
    assert!(matches!(
        end.reason,
        EndReason::NoMoves | EndReason::NoPieces
    ));
}

#[test]
fn adiyukh_example_game_full_notation_replays_to_17_7() {
    replay(false);
}

#[test]
fn adiyukh_example_game_short_notation_replays_to_17_7() {
    replay(true);
}

fn game_at(variant: Variant, text: &str) -> Game {
    Game::from_text(variant, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Find `plies` quiet moves from the game's position such that no position
/// repeats, no capture becomes possible and `keep` holds for every position
/// reached (a depth-first search over positions only); with
/// `max_king_run`, kings move first but never more than that many plies in
/// a row. Then play them, asserting the game goes on until the last one.
fn walk(
    game: &mut Game,
    plies: usize,
    keep: &dyn Fn(&shashki::Position) -> bool,
    max_king_run: Option<usize>,
) {
    fn search(
        path: &mut Vec<shashki::Position>,
        moves: &mut Vec<shashki::Move>,
        (plies, run, max_run): (usize, usize, Option<usize>),
        keep: &dyn Fn(&shashki::Position) -> bool,
        budget: &mut u32,
    ) -> bool {
        if moves.len() == plies {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let pos = *path.last().unwrap();
        let is_king = |m: &shashki::Move| pos.kings() & m.from().bb() != 0;
        let mut order: Vec<shashki::Move> = pos.legal_moves().iter().copied().collect();
        if max_run.is_some() {
            order.sort_by_key(|m| !is_king(m));
        }
        for m in order {
            let next = pos.play(&m);
            if m.is_capture()
                || (is_king(&m) && Some(run) == max_run)
                || shashki::movegen::has_capture(&next)
                || !keep(&next)
                || path.contains(&next)
            {
                continue;
            }
            path.push(next);
            moves.push(m);
            let run = if is_king(&m) { run + 1 } else { 0 };
            if search(path, moves, (plies, run, max_run), keep, budget) {
                return true;
            }
            path.pop();
            moves.pop();
        }
        false
    }
    let mut path = game.positions().to_vec();
    let mut moves = Vec::new();
    let mut budget = 200_000;
    assert!(
        search(
            &mut path,
            &mut moves,
            (plies, 0, max_king_run),
            keep,
            &mut budget
        ),
        "no quiet walk of {plies} plies from {}",
        game.position()
    );
    for (ply, m) in moves.iter().enumerate() {
        assert!(
            game.outcome().is_none(),
            "ended before ply {ply}: {:?}",
            game.outcome()
        );
        game.play(m).unwrap();
    }
}

/// [`walk`] with any moves in the generator's order.
fn quiet_walk(game: &mut Game, plies: usize, keep: impl Fn(&shashki::Position) -> bool) {
    walk(game, plies, &keep, None);
}

#[test]
fn no_pieces_and_no_moves_lose() {
    let g = game_at(Variant::Russian, "B:Wa1:B");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::NoPieces)
    );
    // A black man on a3 blocked by white men on b2 and... a3 moves to b2 only.
    let g = game_at(Variant::Russian, "B:Wb2,c1:Ba3");
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::WhiteWins, EndReason::NoMoves)
    );
}

#[test]
fn threefold_repetition_is_a_draw() {
    // Kings far apart, men on both sides: no other draw rule applies.
    let mut g = game_at(Variant::Russian, "W:WKh2,c1,e1,a3:BKa7,f8,d8,h6");
    for (i, m) in [
        "h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2",
    ]
    .iter()
    .enumerate()
    {
        g.play_text(m).unwrap_or_else(|e| panic!("{i}: {e}"));
        assert!(g.outcome().is_none(), "after {m}");
    }
    g.play_text("b8-a7").unwrap();
    assert_eq!(g.repetitions(), 3);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::Repetition)
    );
    assert!(g.play_text("h2-g1").is_err(), "no move after the end");
}

#[test]
fn rule_7_2_8_two_kings_against_king_after_10_plies() {
    let mut g = game_at(Variant::Russian, "W:WKa3,Kc1:BKh6");
    quiet_walk(&mut g, 10, |_| true);
    let o = g.outcome().expect("drawn after 10 plies");
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::TwoAgainstKing)
    );
}

#[test]
fn rule_7_2_7_lone_king_on_the_main_road_after_10_plies() {
    let road = |p: &shashki::Position| {
        let g = p.geometry();
        let b = p.pieces(shashki::Color::Black);
        ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
            .iter()
            .any(|s| b & g.parse_square(s).unwrap().bb() != 0)
    };
    let mut g = game_at(Variant::Brazilian, "W:WKa3,c1,e1:BKh8");
    quiet_walk(&mut g, 10, road);
    let o = g.outcome().expect("drawn after 10 plies");
    assert_eq!(o.reason, EndReason::LoneKingOnMainRoad);
}

#[test]
fn rule_7_2_4_three_kings_against_king_after_30_plies() {
    let off_road = |p: &shashki::Position| {
        let g = p.geometry();
        let b = p.pieces(shashki::Color::Black);
        !["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
            .iter()
            .any(|s| b & g.parse_square(s).unwrap().bb() != 0)
    };
    let mut g = game_at(Variant::Russian, "W:WKa3,Kc1,Ke1,Kg1:BKh2");
    quiet_walk(&mut g, 30, off_road);
    let o = g.outcome().expect("drawn after 30 plies");
    assert_eq!(o.reason, EndReason::ThreeKingsAgainstKing);
}

#[test]
fn rule_7_2_5_kings_only_after_30_plies() {
    // 8 pieces: 7.2.6 does not apply; men stay, only kings move.
    let only_kings_moved = |p: &shashki::Position| {
        let g = p.geometry();
        ["a3", "b2"]
            .iter()
            .all(|s| p.pieces(shashki::Color::White) & g.parse_square(s).unwrap().bb() != 0)
            && ["h6", "g7"]
                .iter()
                .all(|s| p.pieces(shashki::Color::Black) & g.parse_square(s).unwrap().bb() != 0)
    };
    let mut g = game_at(Variant::Russian, "W:WKc1,Ke1,a3,b2:BKb8,Kd8,h6,g7");
    quiet_walk(&mut g, 30, only_kings_moved);
    let o = g.outcome().expect("drawn after 30 plies");
    assert_eq!(o.reason, EndReason::KingMovesOnly);
}

/// Rank (1-8) of a square.
fn rank_of(pos: &shashki::Position, sq: shashki::Square) -> u8 {
    let g = pos.geometry();
    let name = g.square_name(sq);
    name[1..].parse().expect("a rank")
}

/// A [`walk`] for rule 7.2.6: `plies` quiet moves, no capture possible
/// anywhere, no position twice, and no man ever one step from promotion (so
/// the balance cannot change, and no move of any position on the way
/// crowns); a man moves at least once in every `max_king_run + 1` plies, so
/// rule 7.2.5 (30 plies of king moves only) never comes close.
fn balance_walk(game: &mut Game, plies: usize, max_king_run: usize) {
    let safe = |p: &shashki::Position| {
        let men = p.occupied() & !p.kings();
        shashki::board::squares(men).all(|sq| {
            let r = rank_of(p, sq);
            match p.piece_at(sq) {
                Some(shashki::Piece::Man(shashki::Color::White)) => r <= 6,
                _ => r >= 3,
            }
        })
    };
    assert!(safe(game.position()), "test bug: a man next to promotion");
    let start = game.moves().len();
    walk(game, plies, &safe, Some(max_king_run));
    // The run of king moves, checked again on the moves played.
    let mut king_run = 0;
    for (pos, m) in game.positions()[start..].iter().zip(&game.moves()[start..]) {
        king_run = if pos.kings() & m.from().bb() != 0 {
            king_run + 1
        } else {
            0
        };
        assert!(king_run <= max_king_run, "test bug: a run of {king_run}");
    }
}

/// Rule 7.2.6 as rules/russian.md counts it (lidraughts' plies): with both
/// sides having kings and the balance unchanged, 60 plies (30 moves) with 4
/// or 5 pieces, 120 plies (60 moves) with 6 or 7. Men move now and then, so
/// 7.2.5 (30 plies of king moves only) cannot fire; the game goes on through
/// ply `limit - 1` and ends at ply `limit`, exactly.
fn rule_7_2_6_ends_at(start: &str, pieces: u32, limit: usize) {
    let mut g = game_at(Variant::Russian, start);
    assert_eq!(g.position().occupied().count_ones(), pieces, "test bug");
    balance_walk(&mut g, limit - 1, 20);
    assert!(g.outcome().is_none(), "ended before ply {limit}");
    // One more quiet move (any will do: none captures or crowns).
    let pos = *g.position();
    let last = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|m| !g.positions().contains(&pos.play(m)))
        .expect("a move to a new position");
    g.play(&last).unwrap();
    assert_eq!(g.moves().len(), limit);
    let o = g.outcome().expect("drawn by 7.2.6");
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, EndReason::BalanceUnchanged),
        "after {limit} plies from {start}"
    );
}

#[test]
fn rule_7_2_6_five_pieces_ends_after_60_plies_with_men_moving() {
    // White king and man, Black king and two men.
    rule_7_2_6_ends_at("W:WKc1,e1:BKf8,h6,g7", 5, 60);
}

#[test]
fn rule_7_2_6_four_pieces_ends_after_60_plies() {
    rule_7_2_6_ends_at("W:WKc1,e1:BKf8,h6", 4, 60);
}

#[test]
fn rule_7_2_6_six_pieces_ends_after_120_plies() {
    rule_7_2_6_ends_at("W:WKc1,e1,a3:BKf8,h6,g7", 6, 120);
}

#[test]
fn rule_7_2_6_seven_pieces_ends_after_120_plies_with_men_moving() {
    // White king and two men, Black king and three men.
    rule_7_2_6_ends_at("W:WKc1,e1,a3:BKf8,h6,g7,b8", 7, 120);
}

/// The search keeps the same 7.2.6 count along its lines
/// (src/search/repetition.rs, the draw-rule counters it pushes per ply): one
/// ply before the draw, every move (none captures or crowns) reaches the
/// drawn position, so the value is exactly 0, though White is a king up; ten
/// plies before it, a depth-4 search does not reach the draw and sees the
/// extra king.
#[test]
fn search_draws_by_rule_7_2_6_at_ply_60_not_before() {
    use shashki::search::{Limits, Searcher};
    // White: two kings and a man; Black: a king and a man. 5 pieces: 60 plies.
    let start = "W:WKa1,Kc1,e1:BKh8,h6";
    let mut g = game_at(Variant::Russian, start);
    balance_walk(&mut g, 59, 20);
    let mut searcher = Searcher::new(16, 1);
    let mut value_at = |ply: usize| {
        let mut at = game_at(Variant::Russian, start);
        for m in &g.moves()[..ply] {
            at.play(m).unwrap();
        }
        assert_eq!(at.position(), &g.positions()[ply]);
        assert!(at.position().legal_moves().len() > 1, "not a forced move");
        searcher.clear();
        let r = searcher.search(&at, &Limits::depth(4), &mut |_| {});
        // From White's side.
        if at.position().side_to_move() == shashki::Color::White {
            r.score
        } else {
            -r.score
        }
    };
    assert_eq!(value_at(59), 0, "one ply before the draw");
    let before = value_at(50);
    assert!(before >= 100, "ten plies before the draw: {before}");
}

#[test]
fn adiyukh_blocked_side_is_counted_not_lost() {
    // Rule book case A15: no legal move; the count decides (8:12, no side
    // reaches 13, so a draw).
    let g = game_at(Variant::Adiyukh64, "W:Wb8-3/3,d8-2:Ba1-4/2,c1-2/2,e1-1/1");
    let o = g.outcome().expect("over");
    assert_eq!(o.score, Some((8, 12)));
    assert_eq!(o.reason, EndReason::NoMoves);
    assert_eq!(o.result, GameResult::Draw);
}

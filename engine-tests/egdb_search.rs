//! The search with endgame tables: what it plays and scores in positions
//! the tables cover, the protocols' options and reports, the command line's
//! `--egdb`, and damaged files. The tables (Russian, up to four pieces) are
//! built once into a scratch folder; their values are checked against an
//! independent solver in `egdb.rs`.

use crate::cli::shashki;
use crate::egdb::built;
use crate::process::Engine;
use shashki::egdb::{Combo, Tables, Wdl};
use shashki::game::Game;
use shashki::search::{Limits, Searcher, TB_BOUND, TB_WIN};
use shashki::{Position, Variant};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// Russian tables up to four pieces, built once for this test binary (see
/// [`built`]).
fn tables_dir() -> &'static Path {
    built(Variant::Russian)
}

fn tables() -> Arc<Tables> {
    Arc::new(Tables::open(tables_dir(), Variant::Russian, 4).expect("open the tables"))
}

/// Every `every`-th position of each four-piece combination (both sides
/// with a piece), with White to move.
fn four_piece_positions(every: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for c in Combo::all_with(4) {
        let mut i = 0;
        while i < c.size() {
            if let Some(slots) = c.decode(i) {
                let pos = slots.position(Variant::Russian);
                if !pos.legal_moves().is_empty() {
                    out.push(pos);
                }
            }
            i += every;
        }
    }
    out
}

/// In a won position the move played keeps the win (the opponent has no
/// move, or the table gives him a loss) and the score says won; in a lost
/// one the score says lost.
#[test]
fn search_keeps_table_wins_and_scores_by_the_tables() {
    let t = tables();
    let mut s = Searcher::new(4, 1);
    s.set_tables(Some(t.clone()), 4);
    let (mut wins, mut losses) = (0, 0);
    for pos in four_piece_positions(997) {
        let game = Game::from_position(pos);
        let value = t.probe(&pos).expect("a four-piece position is covered");
        s.clear();
        let r = s.search(&game, &Limits::depth(4), &mut |_| {});
        let text = shashki::fen::position_text(&pos);
        let best = r.best.expect("a legal move");
        match value {
            Wdl::Win => {
                let child = pos.play(&best);
                assert!(
                    child.legal_moves().is_empty() || t.probe(&child) == Some(Wdl::Loss),
                    "{text}: played {best:?}, which gives the win away"
                );
                if pos.legal_moves().len() > 1 {
                    assert!(r.score > 0, "{text}: won, scored {}", r.score);
                }
                wins += 1;
            }
            Wdl::Loss if pos.legal_moves().len() > 1 => {
                assert!(r.score < 0, "{text}: lost, scored {}", r.score);
                losses += 1;
            }
            _ => {}
        }
    }
    assert!(wins > 100 && losses > 20, "{wins} wins, {losses} losses");
}

/// A capture into a covered ending is scored by the table at once: a table
/// win is worth from `TB_BOUND` to `TB_WIN`, and without tables the same
/// search sees no such score.
#[test]
fn a_capture_into_a_won_ending_scores_a_table_win() {
    // White can offer the king on c3 (by a move elsewhere): Black must take
    // it (a5:d2), and White's e1 takes the black king back, which leaves
    // three kings against the king on h6, off the main road: a win the
    // tables know (rule 7.2.4 gives 15 moves, Petrov's triangle needs
    // fewer), far beyond the search's depth.
    let game = Game::from_text(Variant::Russian, "W:WKc3,Ke1,Kg1,Kh2:BKa5,Kh6").unwrap();
    let mut s = Searcher::new(4, 1);
    let without = s.search(&game, &Limits::depth(3), &mut |_| {});
    s.set_tables(Some(tables()), 4);
    s.clear();
    let mut hits = 0;
    let with = s.search(&game, &Limits::depth(3), &mut |i| hits = i.tbhits);
    assert!(hits > 0);
    assert!(
        (TB_BOUND..TB_WIN).contains(&with.score),
        "with tables: {}",
        with.score
    );
    assert!(without.score < TB_BOUND, "without: {}", without.score);
}

/// `EGDB Pieces` lowers what is probed: at 3, the four-piece positions are
/// not probed (so the table's win of three kings against one is not seen
/// at the root), at 0 none is.
#[test]
fn fewer_pieces_probe_less() {
    let game = Game::from_text(Variant::Russian, "W:WKb2,Ke1,Kg1:BKh2").unwrap();
    let mut s = Searcher::new(4, 1);
    let mut search = |pieces| {
        s.set_tables(Some(tables()), pieces);
        s.clear();
        let mut hits = 0;
        let r = s.search(&game, &Limits::depth(3), &mut |i| hits = i.tbhits);
        (hits, r.score)
    };
    let (none, three, four) = (search(0), search(3), search(4));
    assert_eq!(none.0, 0);
    assert!(four.0 > 0);
    assert!(
        (TB_BOUND..TB_WIN).contains(&four.1),
        "four pieces: {four:?}"
    );
    assert!(three.1 < TB_BOUND, "three pieces: {three:?}");
}

/// UCI: the options are listed, checked and kept on error; `d` prints the
/// table's value; `info` reports tbhits.
#[test]
fn uci_options_d_and_tbhits() {
    let dir = tables_dir();
    let base = dir.parent().unwrap().to_str().unwrap().to_string();
    let mut e = Engine::start();
    e.send("uci");
    let (_, lines) = e.expect("uciok", WAIT);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name EGDB Path type string default")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name EGDB Pieces type spin default 8 min 0 max 8"),
        "{lines:?}"
    );
    // The folder that holds a folder per variant, as the option says.
    e.send(&format!("setoption name EGDB Path value {base}"));
    e.send("setoption name EGDB Path value /no/such/folder");
    let (err, _) = e.expect("info string error", WAIT);
    assert!(
        err.contains("EGDB Path") && err.contains("/no/such/folder"),
        "{err}"
    );
    e.send("setoption name EGDB Pieces value 9");
    let (err, _) = e.expect("info string error", WAIT);
    assert!(
        err.contains("EGDB Pieces") && err.contains("0 to 8"),
        "{err}"
    );
    e.send("position fen W:WKb2,Ke1,Kg1:BKh2");
    e.send("d");
    e.send("isready");
    let (_, lines) = e.expect("readyok", WAIT);
    assert!(
        lines.iter().any(|l| l
            .strip_prefix("egdb win for the side to move, ")
            .and_then(|r| r.strip_suffix(" plies to the conversion"))
            .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n >= 1))),
        "{lines:?}"
    );
    e.send("go depth 6");
    let (best, lines) = e.expect("bestmove", WAIT);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let hits: u64 = last
        .split(" tbhits ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no tbhits in {last}"));
    assert!(hits > 0, "{last}");
    // The move played keeps the win.
    let mv = best.split_whitespace().nth(1).unwrap();
    let mut game = Game::from_text(Variant::Russian, "W:WKb2,Ke1,Kg1:BKh2").unwrap();
    game.play_text(mv).unwrap();
    assert_eq!(tables().probe(game.position()), Some(Wdl::Loss), "{best}");
    // Off: no egdb line, no hits.
    e.send("setoption name EGDB Path value <empty>");
    e.send("d");
    e.send("isready");
    let (_, lines) = e.expect("readyok", WAIT);
    assert!(!lines.iter().any(|l| l.starts_with("egdb")), "{lines:?}");
    e.send("go depth 4");
    let (_, lines) = e.expect("bestmove", WAIT);
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
    e.send("quit");
}

/// A damaged table: one error line naming the file before the search, and
/// the engine plays on without that table.
#[test]
fn a_damaged_table_is_reported_and_skipped() {
    let dir = std::env::temp_dir().join(format!(
        "shashki-egdb-search-damaged-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in std::fs::read_dir(tables_dir()).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
    }
    // The table of three kings to move against one king, cut short.
    let file = dir.join("KKK-K.egdb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", WAIT);
    e.send(&format!("setoption name EGDB Path value {}", dir.display()));
    e.send("position fen W:WKb2,Ke1,Kg1:BKh2");
    e.send("go depth 3");
    e.expect("bestmove", WAIT);
    // The damage is found during the first search and told before the next.
    e.send("go depth 3");
    let (err, _) = e.expect("info string", WAIT);
    assert!(
        err.contains("KKK-K.egdb") && err.contains("not probed"),
        "{err}"
    );
    let (best, _) = e.expect("bestmove", WAIT);
    assert!(best.split_whitespace().nth(1).is_some(), "{best}");
    e.send("quit");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Hub: the parameters are listed and checked.
#[test]
fn hub_params() {
    let mut e = Engine::start();
    e.send("hub");
    let (_, lines) = e.expect("wait", WAIT);
    assert!(
        lines.iter().any(|l| l.starts_with("param name=egdb-path ")),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "param name=egdb-pieces value=8 type=int min=0 max=8"),
        "{lines:?}"
    );
    e.send("set-param name=egdb-path value=/no/such/folder");
    let (err, _) = e.expect("error", WAIT);
    assert!(
        err.contains("egdb-path") && err.contains("not a folder"),
        "{err}"
    );
    e.send("set-param name=egdb-pieces value=-1");
    let (err, _) = e.expect("error", WAIT);
    assert!(err.contains("egdb-pieces"), "{err}");
    e.send(&format!(
        "set-param name=egdb-path value=\"{}\"",
        tables_dir().display()
    ));
    e.send("ping");
    let (_, lines) = e.expect("pong", WAIT);
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    e.send("quit");
}

/// The command line: `--egdb` names a folder (an error in one line when it
/// is none or holds no tables), `show` prints the value, `search` probes.
#[test]
fn command_line_egdb() {
    let dir = tables_dir().to_str().unwrap().to_string();
    let (code, _, err) = shashki(&["search", "--egdb", "/no/such/folder", "--depth", "2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--egdb /no/such/folder") && err.lines().count() == 1,
        "{err}"
    );
    let empty = std::env::temp_dir().join(format!("shashki-egdb-none-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = shashki(&["show", "--egdb", empty.to_str().unwrap()]);
    let _ = std::fs::remove_dir(&empty);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no complete set of russian tables"), "{err}");
    let (code, out, _) = shashki(&["show", "--egdb", &dir, "--fen", "B:WKb2,Ke1,Kg1:BKh2"]);
    assert_eq!(code, 0);
    assert!(out.contains("egdb loss for the side to move"), "{out}");
    let (code, out, _) = shashki(&[
        "search",
        "--egdb",
        &dir,
        "--fen",
        "W:WKb2,Ke1,Kg1:BKh2",
        "--depth",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(!out.contains(" tbhits 0 "), "{out}");
    let (code, out, _) = shashki(&[
        "search",
        "--egdb",
        "none",
        "--fen",
        "W:WKb2,Ke1,Kg1:BKh2",
        "--depth",
        "5",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains(" tbhits 0 "), "{out}");
}

/// Material as (pieces, men): what a conversion changes.
fn material(pos: &Position) -> (u32, u32) {
    let occupied = pos.occupied();
    (
        occupied.count_ones(),
        (occupied & !pos.kings()).count_ones(),
    )
}

/// A table win whose plies to the conversion (`d`) are fewer than the
/// counting rules allow is won in play: the engine, searching only 2
/// plies, against a defender who takes the table's longest resistance at
/// every move, converts within `d` plies (the counters running all the
/// while) and goes on to win the game under the rule book. Here three
/// kings against one (7.2.4's 15 moves, 7.2.7's main road) and wins
/// against men; with five-piece tables (`SHASHKI_EGDB5`), kings on both
/// sides. A search that ranks the table's wins by its evaluation alone
/// goes round in some of them until a counting rule or a repetition
/// draws.
#[test]
fn table_wins_are_converted_in_play() {
    let t = tables();
    converted_in_play(t, &["KKK-K", "KK-MM", "KM-MM", "KMM-M", "KK-KM"], 4, 211);
}

#[test]
fn table_wins_with_kings_on_both_sides_are_converted_in_play() {
    let Some(dir) = std::env::var_os("SHASHKI_EGDB5") else {
        eprintln!("skipped: SHASHKI_EGDB5 names no folder of five-piece tables");
        return;
    };
    let dir = shashki::egdb::variant_dir(Path::new(&dir), Variant::Russian);
    let t = Arc::new(Tables::open(&dir, Variant::Russian, 5).expect("open the tables"));
    assert_eq!(t.pieces(), 5);
    converted_in_play(
        t,
        &["KKK-KK", "KKK-KM", "KKM-KK", "KKM-KM", "KK-KKM"],
        5,
        7919,
    );
}

/// Play every `step`-th won position of `combos` with `d` from 8 to 29
/// plies out (see above), with tables of `pieces` pieces.
fn converted_in_play(t: Arc<Tables>, combos: &[&str], pieces: u32, step: u64) {
    let mut s = Searcher::new(4, 1);
    s.set_tables(Some(t.clone()), pieces);
    let (mut games, mut longest) = (0, 0);
    for c in combos {
        let c: Combo = c.parse().unwrap();
        let mut i = 0;
        while i < c.size() {
            let start = c.decode(i).map(|s| s.position(Variant::Russian));
            i += step;
            let Some(pos) = start else { continue };
            if t.probe(&pos) != Some(Wdl::Win) {
                continue;
            }
            let d = t.plies(&pos).expect("the build writes plies") as usize;
            assert!(d >= 1, "{}", shashki::fen::position_text(&pos));
            if !(8..30).contains(&d) {
                continue;
            }
            let winner = pos.side_to_move();
            let mut game = Game::from_position(pos);
            let at_start = material(&pos);
            let mut converted_at = None;
            for ply in 1..=300 {
                if game.outcome().is_some() {
                    break;
                }
                let here = *game.position();
                let m = if here.side_to_move() == winner {
                    s.clear();
                    s.search(&game, &Limits::depth(2), &mut |_| {})
                        .best
                        .expect("a move")
                } else {
                    // The longest resistance: a capture or promotion
                    // (converting) only when every move converts.
                    let moves = here.legal_moves();
                    *moves
                        .iter()
                        .max_by_key(|m| {
                            let child = here.play(m);
                            if material(&child) == material(&here) {
                                1 + t.plies(&child).unwrap_or(0) as u32
                            } else {
                                0
                            }
                        })
                        .expect("a move")
                };
                game.play(&m).unwrap();
                if converted_at.is_none() && material(game.position()) != at_start {
                    converted_at = Some(ply);
                }
            }
            let text = shashki::fen::position_text(&pos);
            let converted = converted_at.unwrap_or(usize::MAX);
            assert!(
                converted <= d,
                "{text}: converted at ply {converted}, the table says {d}"
            );
            let outcome = game
                .outcome()
                .unwrap_or_else(|| panic!("{text}: no end in 300 plies"));
            let won = match winner {
                shashki::Color::White => shashki::game::GameResult::WhiteWins,
                shashki::Color::Black => shashki::game::GameResult::BlackWins,
            };
            let moves = shashki::notation::line_texts(&pos, game.moves());
            assert_eq!(
                outcome.result,
                won,
                "{text}: {outcome}: {}",
                moves.join(" ")
            );
            games += 1;
            longest = longest.max(d);
        }
    }
    assert!(games >= 20, "only {games} long wins sampled");
    assert!(longest >= 20, "the longest sampled win: {longest} plies");
}

/// Four-piece positions, White to move with more than one legal move, where
/// a side has no king (no counting rule can end the game before the next
/// conversion, so the tables' values are exact all along), that the tables
/// call a win or a loss, with the plies to the conversion.
fn free_decided_positions(t: &Tables) -> Vec<(Position, Wdl, u8)> {
    four_piece_positions(1499)
        .into_iter()
        .filter(|p| {
            let kings = p.kings();
            p.legal_moves().len() > 1
                && (p.pieces(shashki::Color::White) & kings == 0
                    || p.pieces(shashki::Color::Black) & kings == 0)
        })
        .filter_map(|p| match t.probe(&p) {
            Some(w @ (Wdl::Win | Wdl::Loss)) => Some((p, w, t.plies(&p)?)),
            _ => None,
        })
        .collect()
}

/// The last `info depth` line of `lines`: its score's words (`cp 12`,
/// `win 3 tb`, ...) and its PV.
fn last_info(lines: &[String]) -> (Vec<String>, Vec<String>) {
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line in {lines:?}"));
    let (head, pv) = last.split_once(" pv ").unwrap_or((last, ""));
    let score = head
        .split(" score ")
        .nth(1)
        .and_then(|r| r.split(" nodes ").next())
        .unwrap_or_else(|| panic!("no score in {last}"));
    (
        score.split(' ').map(str::to_string).collect(),
        pv.split_whitespace().map(str::to_string).collect(),
    )
}

/// Plays `pv` from `pos` (each move must be legal in turn, the game not
/// over before it) and gives the ply at which the material first changes
/// (a capture or a promotion) or the game ends, if it does.
fn first_conversion(pos: &Position, pv: &[String]) -> Option<usize> {
    let text = shashki::fen::position_text(pos);
    let mut game = Game::from_position(*pos);
    let start = material(pos);
    let mut at = None;
    for (i, mv) in pv.iter().enumerate() {
        assert!(
            game.outcome().is_none(),
            "{text}: pv {pv:?} goes on after the game ended at ply {i}"
        );
        game.play_text(mv)
            .unwrap_or_else(|e| panic!("{text}: pv {pv:?}: move {} '{mv}': {e}", i + 1));
        if at.is_none() && (material(game.position()) != start || game.outcome().is_some()) {
            at = Some(i + 1);
        }
    }
    at
}

/// A win or loss the tables prove is reported as `score win <n> tb` (`loss`),
/// `n` the side to move's moves to the conversion (the table's plies to it,
/// halved, rounded up), not as a huge `cp`; the PV runs along the tables'
/// line: every move legal in turn, the first capture or promotion (or the
/// end of the game) exactly at the table's plies, and on past it where the
/// tables value the position there. UCI and `shashki search` alike.
#[test]
fn table_wins_are_scored_as_wins_and_their_line_goes_on_through_the_tables() {
    let t = tables();
    let base = tables_dir().parent().unwrap().to_str().unwrap().to_string();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", WAIT);
    e.send(&format!("setoption name EGDB Path value {base}"));
    let (mut wins, mut losses, mut beyond) = (0, 0, 0);
    let samples = free_decided_positions(&t);
    assert!(samples.len() >= 40, "only {} samples", samples.len());
    for (pos, wdl, d) in samples.iter().step_by(samples.len() / 40) {
        let text = shashki::fen::position_text(pos);
        e.send(&format!("position fen {text}"));
        e.send("go depth 3");
        let (_, lines) = e.expect("bestmove", WAIT);
        let (score, pv) = last_info(&lines);
        let kind = if *wdl == Wdl::Win { "win" } else { "loss" };
        let d = *d as usize;
        if score.len() == 2 && score[0] == kind && d == 1 {
            // The game ends at once: the search sees it, a win (loss) in
            // one move to the end of the game, not to a conversion.
            assert_eq!(score[1], "1", "{text}: pv {pv:?}");
            let mut game = Game::from_position(*pos);
            for mv in &pv {
                game.play_text(mv).unwrap();
            }
            assert!(game.outcome().is_some(), "{text}: pv {pv:?}");
            continue;
        }
        let n = d.div_ceil(2).to_string();
        assert_eq!(score, [kind, &n, "tb"], "{text}: {d} plies, pv {pv:?}");
        assert_eq!(
            first_conversion(pos, &pv),
            Some(d),
            "{text}: the table converts in {d} plies; pv {pv:?}"
        );
        // Past the conversion, where the game goes on and the tables call
        // it won or lost, so does the line.
        let mut game = Game::from_position(*pos);
        for mv in &pv[..d] {
            game.play_text(mv).unwrap();
        }
        let after = *game.position();
        if game.outcome().is_none() && matches!(t.probe(&after), Some(Wdl::Win | Wdl::Loss)) {
            assert!(
                pv.len() > d,
                "{text}: the line stops at the conversion: {pv:?}"
            );
            beyond += 1;
        }
        match wdl {
            Wdl::Win => wins += 1,
            _ => losses += 1,
        }
    }
    e.send("quit");
    assert!(
        wins >= 10 && losses >= 5 && beyond >= 5,
        "{wins} wins, {losses} losses, {beyond} going on past the conversion"
    );
    // `shashki search` prints the same lines.
    let (pos, _, d) = samples
        .iter()
        .find(|s| s.1 == Wdl::Win && s.2 >= 5)
        .unwrap();
    let text = shashki::fen::position_text(pos);
    let dir = tables_dir().to_str().unwrap();
    let (code, out, err) = shashki(&["search", "--egdb", dir, "--fen", &text, "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<String> = out.lines().map(str::to_string).collect();
    let (score, pv) = last_info(&lines);
    let n = (*d as u32).div_ceil(2).to_string();
    assert_eq!(score, ["win", &n, "tb"], "{out}");
    assert_eq!(first_conversion(pos, &pv), Some(*d as usize), "{out}");
}

/// Hub: a table win is a score a Hub GUI reads as a win (above 90 men: a
/// win in `p` plies is `(10000 - p) / 100`, here `p` the plies to the
/// conversion), and the PV runs on through the tables.
#[test]
fn hub_scores_table_wins_as_wins_with_their_line() {
    let t = tables();
    let samples = free_decided_positions(&t);
    let (pos, _, d) = samples
        .iter()
        .find(|s| s.1 == Wdl::Win && s.2 >= 5)
        .unwrap();
    let mut e = Engine::start();
    e.send("hub");
    e.expect("wait", WAIT);
    e.send(&format!(
        "set-param name=egdb-path value=\"{}\"",
        tables_dir().display()
    ));
    e.send("init");
    e.expect("ready", WAIT);
    e.send(&format!("pos pos=\"{}\"", shashki::fen::position_text(pos)));
    e.send("level depth=3");
    e.send("go think");
    let (_, lines) = e.expect("done", WAIT);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info "))
        .unwrap_or_else(|| panic!("no info in {lines:?}"));
    let value = |key: &str| {
        last.split(&format!(" {key}="))
            .nth(1)
            .map(|r| {
                if let Some(q) = r.strip_prefix('"') {
                    q.split('"').next().unwrap().to_string()
                } else {
                    r.split(' ').next().unwrap().to_string()
                }
            })
            .unwrap_or_else(|| panic!("no {key} in {last}"))
    };
    let plies = 2 * (*d as u32).div_ceil(2) - 1;
    assert_eq!(
        value("score"),
        format!("{}.{:02}", (10_000 - plies) / 100, (10_000 - plies) % 100),
        "{last}"
    );
    assert!(
        value("pv").split(' ').count() >= *d as usize,
        "{d} plies to the conversion: {last}"
    );
    e.send("quit");
}

/// A root whose every move the tables value exactly is decided after the
/// first plies: a `go movetime 2000` answers well before 2 s after a few
/// depths (not 110 of the same line), and `go infinite` stops iterating
/// but holds its `bestmove` until `stop`, as UCI requires.
#[test]
fn a_root_the_tables_decide_is_not_searched_again_and_again() {
    let t = tables();
    let samples = free_decided_positions(&t);
    let (pos, _, _) = samples
        .iter()
        .find(|s| s.1 == Wdl::Win && s.2 >= 5)
        .unwrap();
    let text = shashki::fen::position_text(pos);
    let base = tables_dir().parent().unwrap().to_str().unwrap().to_string();
    let mut e = Engine::start();
    e.send("uci");
    e.expect("uciok", WAIT);
    e.send(&format!("setoption name EGDB Path value {base}"));
    e.send(&format!("position fen {text}"));
    e.send("isready");
    e.expect("readyok", WAIT);
    let started = std::time::Instant::now();
    e.send("go movetime 2000");
    let (best, lines) = e.expect("bestmove", WAIT);
    let took = started.elapsed();
    let depths = lines.iter().filter(|l| l.starts_with("info depth")).count();
    assert!(took < Duration::from_millis(1500), "{text}: {took:?}");
    assert!(
        (1..=3).contains(&depths),
        "{text}: {depths} depths: {lines:?}"
    );
    // The move played keeps the win.
    let mut game = Game::from_position(*pos);
    game.play_text(best.split_whitespace().nth(1).unwrap())
        .unwrap();
    let child = *game.position();
    assert!(
        child.legal_moves().is_empty() || t.probe(&child) == Some(Wdl::Loss),
        "{text}: {best}"
    );
    e.send("go infinite");
    let mut early = Vec::new();
    while let Ok(l) = e.recv(Duration::from_millis(700)) {
        early.push(l);
    }
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{text}: bestmove before stop: {early:?}"
    );
    let depths = early.iter().filter(|l| l.starts_with("info depth")).count();
    assert!(
        (1..=3).contains(&depths),
        "{text}: {depths} depths: {early:?}"
    );
    e.send("stop");
    e.expect("bestmove", Duration::from_secs(2));
    e.send("quit");
}

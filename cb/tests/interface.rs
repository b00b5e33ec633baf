//! The interface functions called as CheckerBoard calls them: every
//! `enginecommand`, bad input of every kind (each answered clearly, and the
//! next call works), the board and `CBmove` of moves, the return values,
//! the history through `set gamehist`, and `playnow`.
//!
//! The library has one state per process, so these tests take turns.

use shashki::game::{Game, GameResult};
use shashki::notation::{self, hub};
use shashki::{fen, Position, Variant};
use shashki_cb::board::{self, Board8, CbMove, Coor, CB_BLACK, CB_KING, CB_MAN, CB_WHITE};
use shashki_cb::{enginecommand, getmove, islegal, CB_DRAW, CB_LOSS, CB_UNKNOWN, CB_WIN};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

static TURN: Mutex<()> = Mutex::new(());

fn turn() -> MutexGuard<'static, ()> {
    let turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    // Without endgame tables (a folder that does not exist), whatever a
    // user built in the default folder: set before the library's engine
    // is first made, and under the lock, so no other test reads it then.
    if std::env::var_os("SHASHKI_EGDB").is_none() {
        std::env::set_var(
            "SHASHKI_EGDB",
            std::env::temp_dir().join("shashki-tests-no-egdb"),
        );
    }
    turn
}

/// `enginecommand`: (return value, reply).
fn cmd(text: &str) -> (c_int, String) {
    let c = CString::new(text).unwrap();
    let mut reply = [0x55 as c_char; 1024];
    let r = unsafe { enginecommand(c.as_ptr(), reply.as_mut_ptr()) };
    let s = unsafe { CStr::from_ptr(reply.as_ptr()) };
    (r, s.to_string_lossy().into_owned())
}

fn ok(text: &str) -> String {
    let (r, reply) = cmd(text);
    assert_eq!(r, 1, "{text}: {reply}");
    reply
}

fn refused(text: &str) -> String {
    let (r, reply) = cmd(text);
    assert_eq!(r, 0, "{text}: {reply}");
    reply
}

struct Answer {
    code: c_int,
    board: Board8,
    mv: CbMove,
    status: String,
}

/// `getmove` on a board.
fn get(board: Board8, color: c_int, maxtime: f64, info: c_int, moreinfo: c_int) -> Answer {
    let mut b = board;
    let mut status = [0 as c_char; 1024];
    let playnow: c_int = 0;
    let mut mv = CbMove::default();
    let code = unsafe {
        getmove(
            &mut b,
            color,
            maxtime,
            status.as_mut_ptr(),
            &playnow,
            info,
            moreinfo,
            &mut mv,
        )
    };
    let status = unsafe { CStr::from_ptr(status.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    Answer {
        code,
        board: b,
        mv,
        status,
    }
}

fn color(pos: &Position) -> c_int {
    match pos.side_to_move() {
        shashki::Color::White => CB_WHITE,
        shashki::Color::Black => CB_BLACK,
    }
}

/// `getmove` on a position, exactly `ms` milliseconds.
fn get_pos(pos: &Position, ms: u64) -> Answer {
    get(board::board_of(pos), color(pos), ms as f64 / 1000.0, 2, 0)
}

fn pos(variant: Variant, text: &str) -> Position {
    fen::parse_position(variant, text).unwrap()
}

/// The move the answer played, checked against the board it returned.
fn played(before: &Position, a: &Answer) -> shashki::Move {
    assert!(
        a.code != CB_UNKNOWN || !a.status.starts_with("error"),
        "{}",
        a.status
    );
    let after = board::read_board(&a.board, 3 - color(before), before.variant())
        .unwrap_or_else(|e| panic!("the board returned: {e}"));
    let mv = before
        .legal_moves()
        .iter()
        .find(|m| before.play(m) == after)
        .copied()
        .unwrap_or_else(|| panic!("the board returned is no legal move of {before}"));
    assert_eq!(a.mv, board::cb_move(before, &mv));
    mv
}

#[test]
fn every_command_answers() {
    let _t = turn();
    assert!(ok("name").starts_with("Shashki "));
    assert!(ok("about").contains("Russian (game type 25) and Brazilian (26)"));
    assert_eq!(ok("help"), "");
    assert_eq!(ok("get protocolversion"), "2");
    assert_eq!(ok("set gametype 26"), "gametype 26 (brazilian)");
    assert_eq!(ok("get gametype"), "26");
    assert_eq!(ok("set gametype 25"), "gametype 25 (russian)");
    assert_eq!(ok("GET GAMETYPE"), "25");
    // lidraughts-bot's options.
    assert_eq!(
        ok("set variant brazilian"),
        "variant brazilian (gametype 26)"
    );
    assert_eq!(ok("get gametype"), "26");
    assert!(ok("set initial-time 60").starts_with("initial-time 60: noted"));
    assert_eq!(ok("set variant russian"), "variant russian (gametype 25)");
    assert_eq!(ok("set hashsize 8"), "hashsize 8 MiB");
    assert_eq!(ok("get hashsize"), "8");
    assert_eq!(ok("set hashsize 64"), "hashsize 64 MiB");
    assert_eq!(ok("set searchthreads 2"), "searchthreads 2");
    assert_eq!(ok("get searchthreads"), "2");
    assert_eq!(ok("set searchthreads 1"), "searchthreads 1");
    assert_eq!(ok("set moveoverhead 7"), "moveoverhead 7 ms");
    assert!(ok("get moveoverhead")
        .starts_with("7 ms per move charged, 21 ms kept in reserve (option 7 ms"));
    assert_eq!(ok("set moveoverhead 3"), "moveoverhead 3 ms");
    assert_eq!(ok("get book"), "1");
    assert_eq!(ok("set book 0"), "0 (no opening book)");
    assert_eq!(ok("get book"), "0");
    assert!(
        refused("set book 7").starts_with("book '7' is not 0 (off) or 1-3 (on); book stays off")
    );
    assert!(ok("set book 2").starts_with("2 (the book's move"));
    assert_eq!(ok("get book"), "1");
    assert_eq!(
        ok("get movelist W:W21-32:B1-12"),
        "movelist 7,0,5,5,22,17;0,5,5,23,18;0,5,5,24,19;0,5,5,21,17;0,5,5,22,18;0,5,5,23,19;0,5,5,24,20;"
    );
    // A capture: jumps, pieces, from, to, then landing, captured square
    // and piece per jump (c3:e5 over d4 is 22x15 over 18).
    assert_eq!(
        ok("get movelist W:W22:B18,1"),
        "movelist 1,1,5,5,22,15,15,18,6;"
    );
    assert_eq!(ok("get movelist B:W22:B"), "movelist 0");
    let eval = ok("staticevaluation W:W21-32:B1-12");
    assert!(eval.starts_with("+") || eval.starts_with("-"), "{eval}");
    assert!(
        eval.contains("for white (to move)") && eval.contains("total"),
        "{eval}"
    );
    assert!(ok("staticevaluation").contains("total"));
    assert!(ok("set gamehist W:W21-32:B1-12").starts_with("gamehist: 0 moves after"));
    assert!(ok("set gamehist W:WK29:BK1 29-25 1-5").starts_with("gamehist: 2 moves after"));
    assert!(ok("get gamehist").contains(" plies"));
    // CheckerBoard's options this engine has not: `?` alone, so that
    // CheckerBoard greys them out.
    for text in [
        "get dbpath",
        "set dbpath C:\\db",
        "get dbmbytes",
        "get allscores",
        "set solve 1",
        "get enable_wld",
    ] {
        assert_eq!(refused(text), "?", "{text}");
    }
}

#[test]
fn bad_commands_get_clear_replies_and_change_nothing() {
    let _t = turn();
    ok("set gametype 25");
    ok("set hashsize 16");
    for (text, want) in [
        ("frobnicate", "? unknown command 'frobnicate'; the commands are: name, about"),
        ("", "? empty command; the commands are:"),
        ("set gametype 21", "gametype '21' is not played: shashki plays 25 (Russian) and 26 (Brazilian); gametype stays 25"),
        ("set gametype x", "gametype 'x' is not played"),
        ("set variant italian", "variant 'italian' is not played"),
        ("set hashsize 100000", "hashsize '100000' is not a whole number from 1 to 65536; hashsize stays 16 MiB"),
        ("set hashsize 0", "hashsize '0' is not a whole number from 1 to 65536"),
        ("set hashsize -5", "hashsize '-5' is not a whole number"),
        ("set searchthreads 1000", "searchthreads '1000' is not a whole number from 1 to 256"),
        ("set moveoverhead 9999", "moveoverhead '9999' is not a whole number from 0 to 5000"),
        ("set hashsize", "set hashsize: needs one value"),
        ("get gametype 25", "get gametype: takes no value"),
        ("set initial-time soon", "initial-time 'soon' is not a number of seconds"),
        ("get movelist", "get movelist needs a position"),
        ("get movelist W:W21-32:B1-13", "get movelist: bad position"),
        ("staticevaluation X:Y", "staticevaluation: bad position"),
        ("set gamehist", "set gamehist needs a position"),
        ("set gamehist W:W21-32:B1-13", "set gamehist: bad position"),
        ("set gamehist W:W21-32:B1-12 24-19 24-19", "set gamehist: move 2 '24-19'"),
    ] {
        let reply = refused(text);
        assert!(reply.starts_with(want), "{text:?}: {reply}");
        assert!(reply.len() < 256, "{text:?}: a reply of {} bytes", reply.len());
    }
    // The list of commands fits whatever was sent.
    let reply = refused(&"nonsense ".repeat(25));
    assert!(
        reply.starts_with("? unknown command 'nonsense nonsense"),
        "{reply}"
    );
    assert!(reply.ends_with("get movelist, staticevaluation"), "{reply}");
    // Nothing changed.
    assert_eq!(ok("get gametype"), "25");
    assert_eq!(ok("get hashsize"), "16");
    // A command of more than 256 bytes: the first 256 are read.
    let long = format!("set gamehist W:W21-32:B1-12 {}", "x".repeat(400));
    assert!(refused(&long).starts_with("set gamehist: move 1 'xxxx"));
    // Bytes that are not UTF-8, a NUL-less buffer of exactly 256 bytes.
    let bytes: Vec<c_char> = (0..256)
        .map(|i| {
            if i % 2 == 0 {
                -1i8 as c_char
            } else {
                b'z' as c_char
            }
        })
        .collect();
    let mut reply = [0 as c_char; 1024];
    let r = unsafe { enginecommand(bytes.as_ptr(), reply.as_mut_ptr()) };
    let text = unsafe { CStr::from_ptr(reply.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    assert_eq!(r, 0);
    assert!(text.starts_with("? unknown command"), "{text}");
    // Null pointers: nothing to read, nothing written, no crash.
    assert_eq!(
        unsafe { enginecommand(std::ptr::null(), std::ptr::null_mut()) },
        0
    );
    assert_eq!(ok("set hashsize 64"), "hashsize 64 MiB");
}

/// (`debug-panic` exists in builds with debug assertions, as the test
/// profile's.)
#[cfg(debug_assertions)]
#[test]
fn a_panic_is_an_error_reply_and_the_state_is_made_anew() {
    let _t = turn();
    ok("set hashsize 8");
    let reply = refused("debug-panic");
    assert!(
        reply.starts_with("error: internal error (debug-panic: a panic on purpose"),
        "{reply}"
    );
    // The next call works, with a new state (the default table).
    assert_eq!(ok("get hashsize"), "64");
    let start = Position::start(Variant::Russian);
    let a = get_pos(&start, 10);
    played(&start, &a);
}

#[test]
fn bad_boards_are_refused_and_the_next_call_works() {
    let _t = turn();
    ok("set gametype 25");
    let start = Position::start(Variant::Russian);
    let good = board::board_of(&start);
    let mut thirteen = good;
    thirteen[1][3] = CB_WHITE | CB_MAN; // g5 (x 1, y 3): a 13th white man
    let mut promoted = good;
    promoted[1][5] = 0; // the white man of g3 ...
    promoted[0][0] = CB_WHITE | CB_MAN; // ... on h8, for Black's man
    let mut light = good;
    light[0][1] = CB_BLACK | CB_MAN;
    let mut code = good;
    code[3][3] = 7;
    for (board, color, want) in [
        (
            thirteen,
            CB_WHITE,
            "error: bad board: 13 white checkers, but the variant has only 12",
        ),
        (
            promoted,
            CB_WHITE,
            "error: bad board: a man on h8 stands on its own promotion rank",
        ),
        (
            light,
            CB_WHITE,
            "error: board[0][1] = 6: a piece on a light square",
        ),
        (code, CB_WHITE, "error: board[3][3] = 7 is not a piece code"),
        (
            good,
            3,
            "error: color 3 is neither CB_WHITE (1) nor CB_BLACK (2)",
        ),
    ] {
        let a = get(board, color, 0.01, 2, 0);
        assert_eq!(a.code, CB_UNKNOWN, "{want}");
        assert!(a.status.starts_with(want), "{}", a.status);
        assert_eq!(a.board, board, "the board is left as it was");
        assert_eq!(a.mv, CbMove::default());
    }
    let mut status = [0 as c_char; 1024];
    let code = unsafe {
        getmove(
            std::ptr::null_mut(),
            CB_WHITE,
            0.01,
            status.as_mut_ptr(),
            std::ptr::null(),
            0,
            0,
            std::ptr::null_mut(),
        )
    };
    assert_eq!(code, CB_UNKNOWN);
    let text = unsafe { CStr::from_ptr(status.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    assert_eq!(text, "error: the board pointer is null");
    // A side without a move has lost; the board stays.
    let stuck = pos(Variant::Russian, "B:Wg1:Bh2");
    let blocked = pos(Variant::Russian, "B:Wc3:B");
    for p in [stuck, blocked] {
        let a = get_pos(&p, 10);
        assert_eq!(a.code, CB_LOSS, "{}", a.status);
        assert_eq!(a.board, board::board_of(&p));
        assert!(a.status.contains("has no legal move"), "{}", a.status);
    }
    // And the next call plays.
    let a = get_pos(&start, 20);
    played(&start, &a);
    assert!(a.status.contains("depth"), "{}", a.status);
}

#[test]
fn board_and_cbmove_describe_the_move() {
    let _t = turn();
    // A man captures through the promotion rank: Russian crowns it on f8
    // and it goes on as a king; Brazilian keeps it a man.
    for (gametype, crowned) in [(25, true), (26, false)] {
        ok(&format!("set gametype {gametype}"));
        let variant = if gametype == 25 {
            Variant::Russian
        } else {
            Variant::Brazilian
        };
        let p = pos(variant, "W:Wd6,h2:Be7,g7,a7");
        let a = get_pos(&p, 20);
        let mv = played(&p, &a);
        assert_eq!(notation::move_text(&p, &mv), "d6:f8:h6");
        let c = |name: &str| board::coor(p.geometry().parse_square(name).unwrap());
        let m = a.mv;
        assert_eq!(m.jumps, 2);
        assert_eq!(m.oldpiece, CB_WHITE | CB_MAN);
        assert_eq!(
            m.newpiece,
            CB_WHITE | if crowned { CB_KING } else { CB_MAN }
        );
        assert_eq!((m.from, m.to), (c("d6"), c("h6")));
        assert_eq!(&m.path[..3], &[c("d6"), c("f8"), c("h6")]);
        assert_eq!(&m.del[..3], &[c("e7"), c("g7"), Coor { x: -1, y: 0 }]);
        assert_eq!(&m.delpiece[..2], &[CB_BLACK | CB_MAN, CB_BLACK | CB_MAN]);
        assert_eq!(a.board[c("h6").x as usize][c("h6").y as usize], m.newpiece);
        // islegal finds the same move from its square numbers.
        let mut lm = CbMove::default();
        let mut b = board::board_of(&p);
        assert_eq!(
            unsafe { islegal(&mut b, CB_WHITE, 11, 15, &mut lm) },
            0,
            "d6-e5 is no capture"
        );
        assert_eq!(unsafe { islegal(&mut b, CB_WHITE, 10, 12, &mut lm) }, 1);
        assert_eq!(lm, m);
        assert_eq!(
            unsafe { islegal(&mut b, 7, 10, 12, &mut lm) },
            0,
            "a bad colour"
        );
        assert_eq!(
            unsafe { islegal(std::ptr::null_mut(), CB_WHITE, 10, 12, &mut lm) },
            0
        );
    }
    // A quiet move and a king's capture that ends where it began.
    ok("set gametype 25");
    let p = pos(Variant::Russian, "W:WKc1,h2:Bb2,d2,b4,d4,h8");
    let a = get_pos(&p, 20);
    let mv = played(&p, &a);
    assert_eq!(mv.from(), mv.to());
    assert_eq!(a.mv.jumps, 4);
    assert_eq!(a.mv.from, a.mv.to);
    let start = Position::start(Variant::Russian);
    let a = get_pos(&start, 20);
    played(&start, &a);
    assert_eq!((a.mv.jumps, a.mv.oldpiece, a.mv.newpiece), (0, 5, 5));
    assert_eq!(a.mv.path[1], a.mv.to);
    assert_eq!(a.mv.del[0].x, -1);
}

#[test]
fn the_return_value_claims_wins_losses_and_rule_draws() {
    let _t = turn();
    ok("set gametype 25");
    // White to move wins at once: its capture takes Black's last piece.
    let win = pos(Variant::Russian, "W:Wc3,h2:Bd4");
    let a = get_pos(&win, 50);
    played(&win, &a);
    assert_eq!(a.code, CB_WIN, "{}", a.status);
    // Black to move loses whatever it does (in 3 moves); a single legal
    // move is played unsearched, so the position has two.
    let loss = pos(Variant::Russian, "B:WKd4,Ke3:Ba7,g7");
    let a = get_pos(&loss, 200);
    played(&loss, &a);
    assert_eq!(a.code, CB_LOSS, "{}", a.status);
    // Two kings against a king, nine plies played (the history sent as
    // CheckerBoard sends it): the draw of rule 7.2.8 after the tenth is
    // claimed only with the history.
    let (game, texts) = quiet_walk("W:WKe1,Kc1:BKh6", 9);
    let now = *game.position();
    let a = get(board::board_of(&now), color(&now), 0.02, 2 | 1, 0);
    assert_ne!(a.code, CB_DRAW, "{}", a.status);
    let start_text = fen::position_text_numeric(game.start()).unwrap();
    ok(&format!("set gamehist {start_text} {}", texts.join(" ")));
    let a = get(board::board_of(&now), color(&now), 0.02, 2 | 1, 0);
    let mv = played(&now, &a);
    let mut game = game;
    game.play(&mv).unwrap();
    assert_eq!(game.moves().len(), 10);
    assert_eq!(game.outcome().map(|o| o.result), Some(GameResult::Draw));
    assert_eq!(a.code, CB_DRAW, "{}", a.status);
    assert!(ok("get gamehist").starts_with("9 plies"));
}

/// A move of `p` that is no capture, leads to a position `seen` does not
/// hold and leaves the opponent no capture: the first such that moves a
/// man (`man`) or a king (`!man`), else the first such.
fn quiet_move(p: &Position, seen: &[Position], man: bool) -> Option<shashki::Move> {
    let fits = |m: &shashki::Move| {
        let next = p.play(m);
        !m.is_capture()
            && !seen.contains(&next)
            && next.legal_moves().iter().all(|r| !r.is_capture())
    };
    let is_man =
        |m: &shashki::Move| p.piece_at(m.from()) == Some(shashki::Piece::Man(p.side_to_move()));
    let moves = p.legal_moves();
    moves
        .iter()
        .filter(|m| fits(m))
        .find(|m| is_man(m) == man)
        .or_else(|| moves.iter().find(|m| fits(m)))
        .copied()
}

/// `plies` quiet moves from `start` that repeat no position, and their
/// texts as CheckerBoard numbers them.
fn quiet_walk(start: &str, plies: usize) -> (Game, Vec<String>) {
    let mut game = Game::from_text(Variant::Russian, start).unwrap();
    let mut texts = Vec::new();
    while game.moves().len() < plies {
        let p = *game.position();
        let mv = quiet_move(&p, game.positions(), false).expect("a quiet move");
        texts.push(hub::move_text(&p, &mv, hub::MoveNumbers::Pdn));
        game.play(&mv).unwrap();
    }
    (game, texts)
}

#[test]
fn the_history_is_kept_across_a_mans_move_as_pydraughts_sends_it() {
    let _t = turn();
    ok("set gametype 25");
    // King and man against a lone king: rule 7.2.8 counts 5 moves whether
    // or not the man moves, but pydraughts sends only the moves since the
    // last man's move. White (played here) moves its king first, then its
    // man whenever it can; the engine plays Black. The library joins pydraughts' history
    // to its own game, so it claims the draw after the tenth ply.
    let mut game = Game::from_text(Variant::Russian, "W:WKg1,e3:BKh8").unwrap();
    let mut last_irreversible = 0;
    let mut man_moved = false;
    while game.outcome().is_none() {
        let now = *game.position();
        if now.side_to_move() == shashki::Color::White {
            // A king's move first: the library sees the game from its start.
            let first = game.moves().is_empty();
            let mv = quiet_move(&now, game.positions(), !first).expect("a quiet move for White");
            assert!(
                !first
                    || now.piece_at(mv.from()) == Some(shashki::Piece::King(shashki::Color::White))
            );
            if now.piece_at(mv.from()) == Some(shashki::Piece::Man(shashki::Color::White)) {
                man_moved = true;
                last_irreversible = game.moves().len() + 1;
            }
            game.play(&mv).unwrap();
            continue;
        }
        let base = game.positions()[last_irreversible];
        let moves: Vec<String> = (last_irreversible..game.moves().len())
            .map(|i| hub::move_text(&game.positions()[i], &game.moves()[i], hub::MoveNumbers::A1))
            .collect();
        ok(&format!(
            "set gamehist {} {}",
            fen::position_text(&base),
            moves.join(" ")
        ));
        let a = get_pos(&now, 5);
        let mv = played(&now, &a);
        assert!(!mv.is_capture());
        game.play(&mv).unwrap();
        let drawn = game.outcome().is_some_and(|o| o.result == GameResult::Draw);
        assert_eq!(
            a.code == CB_DRAW,
            drawn,
            "ply {}: {} {}",
            game.moves().len(),
            a.code,
            a.status
        );
    }
    assert!(man_moved);
    assert_eq!(game.moves().len(), 10);
    assert_eq!(game.outcome().map(|o| o.result), Some(GameResult::Draw));
    assert!(ok("get gamehist").starts_with("9 plies"));
}

#[test]
fn playnow_stops_the_search_at_once() {
    let _t = turn();
    ok("set gametype 25");
    let start = Position::start(Variant::Russian);
    let flag = Arc::new(AtomicI32::new(0));
    let setter = flag.clone();
    let set_at = Arc::new(Mutex::new(None::<Instant>));
    let set_at_thread = set_at.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        *set_at_thread.lock().unwrap() = Some(Instant::now());
        setter.store(1, Ordering::SeqCst);
    });
    let mut b = board::board_of(&start);
    let mut status = [0 as c_char; 1024];
    let mut mv = CbMove::default();
    let begun = Instant::now();
    let code = unsafe {
        getmove(
            &mut b,
            CB_WHITE,
            60.0,
            status.as_mut_ptr(),
            flag.as_ptr(),
            2,
            0,
            &mut mv,
        )
    };
    let returned = Instant::now();
    t.join().unwrap();
    let set = set_at.lock().unwrap().expect("playnow was set");
    let latency = returned.duration_since(set);
    let status = unsafe { CStr::from_ptr(status.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    eprintln!("playnow: a 60 s search returned {latency:?} after playnow was set");
    assert!(returned.duration_since(begun) < Duration::from_secs(5));
    assert!(latency < Duration::from_millis(50), "{latency:?}");
    let a = Answer {
        code,
        board: b,
        mv,
        status,
    };
    played(&start, &a);
    assert!(a.status.contains("depth"), "{}", a.status);
    // playnow set before the call: a legal move at once.
    let flag = 1;
    let mut b = board::board_of(&start);
    let mut mv = CbMove::default();
    let begun = Instant::now();
    let mut status = [0 as c_char; 1024];
    unsafe {
        getmove(
            &mut b,
            CB_WHITE,
            60.0,
            status.as_mut_ptr(),
            &flag,
            0,
            0,
            &mut mv,
        )
    };
    assert!(
        begun.elapsed() < Duration::from_millis(200),
        "{:?}",
        begun.elapsed()
    );
    let a = Answer {
        code: 3,
        board: b,
        mv,
        status: String::new(),
    };
    played(&start, &a);
}

#[test]
fn the_status_line_shows_the_search_while_it_runs() {
    let _t = turn();
    ok("set gametype 25");
    let start = Position::start(Variant::Russian);
    let status = Arc::new(Mutex::new([0 as c_char; 1024]));
    let buffer = status.lock().unwrap().as_mut_ptr() as usize;
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let (seen_in, done) = (seen.clone(), Arc::new(AtomicI32::new(0)));
    let done_in = done.clone();
    // Another thread reads the buffer as CheckerBoard's timer does.
    let reader = std::thread::spawn(move || {
        while done_in.load(Ordering::SeqCst) == 0 {
            let s = unsafe { CStr::from_ptr(buffer as *const c_char) }
                .to_string_lossy()
                .into_owned();
            let mut v = seen_in.lock().unwrap();
            if v.last() != Some(&s) && !s.is_empty() {
                v.push(s);
            }
            drop(v);
            std::thread::sleep(Duration::from_millis(2));
        }
    });
    let mut b = board::board_of(&start);
    let mut mv = CbMove::default();
    let playnow = 0;
    unsafe {
        getmove(
            &mut b,
            CB_WHITE,
            0.3,
            buffer as *mut c_char,
            &playnow,
            2,
            0,
            &mut mv,
        )
    };
    done.store(1, Ordering::SeqCst);
    reader.join().unwrap();
    let seen = seen.lock().unwrap();
    let last = unsafe { CStr::from_ptr(buffer as *const c_char) }
        .to_string_lossy()
        .into_owned();
    let running: Vec<&String> = seen.iter().filter(|s| s.starts_with("depth ")).collect();
    assert!(running.len() >= 3, "{seen:?}");
    for s in &running {
        for word in ["depth ", "score ", "speed ", " Mnps", "pv "] {
            assert!(s.contains(word), "{s}");
        }
    }
    let text = notation::move_text(
        &start,
        &played(
            &start,
            &Answer {
                code: 3,
                board: b,
                mv,
                status: last.clone(),
            },
        ),
    );
    assert!(last.starts_with(&format!("{text}  depth ")), "{last}");
}

#[test]
fn commands_are_answered_while_a_search_runs() {
    let _t = turn();
    ok("set gametype 25");
    let flag = Arc::new(AtomicI32::new(0));
    let stop = flag.clone();
    let search = std::thread::spawn(move || {
        let start = Position::start(Variant::Russian);
        let mut b = board::board_of(&start);
        let mut status = [0 as c_char; 1024];
        let mut mv = CbMove::default();
        unsafe {
            getmove(
                &mut b,
                CB_WHITE,
                60.0,
                status.as_mut_ptr(),
                stop.as_ptr(),
                2,
                0,
                &mut mv,
            )
        };
        let a = Answer {
            code: 3,
            board: b,
            mv,
            status: String::new(),
        };
        played(&start, &a);
    });
    std::thread::sleep(Duration::from_millis(200));
    // What needs no engine state is answered at once ...
    assert_eq!(ok("get gametype"), "25");
    assert!(ok("name").starts_with("Shashki"));
    assert!(ok("get movelist W:W21-32:B1-12").starts_with("movelist 7,"));
    // ... the rest is refused as busy, without waiting for the search.
    let asked = Instant::now();
    let reply = refused("get hashsize");
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    assert!(reply.starts_with("busy: getmove is searching"), "{reply}");
    flag.store(1, Ordering::SeqCst);
    search.join().unwrap();
    assert!(ok("get hashsize").parse::<u32>().is_ok());
}

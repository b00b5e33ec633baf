//! Shashki as a CheckerBoard engine: a shared library (`libshashki_cb.so`,
//! `shashki_cb.dll`) exporting the CheckerBoard engine interface, the
//! interface of KestoG, Kallisto and the Kingsrow family, with the calling
//! convention CheckerBoard uses (`extern "system"`: `__stdcall` on 32-bit
//! Windows, the C convention elsewhere):
//!
//! * [`getmove`]: search the board and play a move on it;
//! * [`enginecommand`]: everything else (name, options, game type, history);
//! * [`islegal`]: whether a move the user enters is legal, for CheckerBoard
//!   (which knows only English checkers' rules by itself).
//!
//! The contract is written down in PROTOCOL.md, "CheckerBoard library".
//!
//! The engine state (transposition table, options, threads, the game so
//! far) lives in the library across calls, created on first use; one state
//! per loaded library, shared by every caller (two clients that load the
//! same file, as the two sides of an engine-against-itself game, share it).
//! The library never writes to standard output or standard error and never
//! aborts its host: a panic is caught at the interface and becomes an error
//! reply (the state is then made anew).
//!
//! Modules: [`board`] (CheckerBoard's board and move structures),
//! [`timing`] (`maxtime`, `info`, `moreinfo`), `session` (the state and the
//! game history), `command` (the `enginecommand` replies).

pub mod board;
mod command;
mod session;
pub mod timing;

use board::{Board8, CbMove};
use session::Session;
use shashki::Variant;
use std::os::raw::{c_char, c_int};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once, TryLockError};
use std::time::{Duration, Instant};

/// The return values of `getmove`: draw 0, win 1, loss 2, unknown 3.
pub use session::{CB_DRAW, CB_LOSS, CB_UNKNOWN, CB_WIN};

/// The size of `str` in `getmove` and of `reply` in `enginecommand`, as the
/// interface declares them.
pub const STR_SIZE: usize = 1024;
/// The size of the `command` argument of `enginecommand`.
pub const COMMAND_SIZE: usize = 256;
/// Replies are kept within this many bytes (with the final NUL), except
/// those of `about`, `staticevaluation` and `get movelist`: CheckerBoard
/// reads some replies into 256-byte buffers.
pub const SHORT_REPLY_SIZE: usize = 256;

/// How long `enginecommand` waits for the state while another call holds
/// it; a `getmove` that is searching holds it until it returns.
const COMMAND_WAIT: Duration = Duration::from_millis(20);

/// The engine state, made on first use.
static SESSION: Mutex<Option<Session>> = Mutex::new(None);
/// The game type played (25 or 26), readable while a search runs.
static GAMETYPE: AtomicI32 = AtomicI32::new(25);
/// The message of the last panic caught (the hook keeps it off stderr).
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());
static QUIET_PANICS: Once = Once::new();

/// Calls of the interface under way (their threads and the search threads
/// they start run the library's code).
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// A panic in the library is reported through the interface, never
/// printed: while an interface call runs, this hook only keeps the
/// message. Other panics (a Rust program that links the library and
/// panics itself) go to the hook there was before.
fn quiet_panics() {
    QUIET_PANICS.call_once(|| {
        let before = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if ACTIVE.load(Ordering::SeqCst) == 0 {
                return before(info);
            }
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                (*s).to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "a panic".to_string()
            };
            let place = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            if let Ok(mut last) = LAST_PANIC.lock() {
                *last = format!("{msg}{place}");
            }
        }));
    });
}

/// Counts an interface call for as long as it lives.
struct Active;

impl Active {
    fn enter() -> Active {
        ACTIVE.fetch_add(1, Ordering::SeqCst);
        Active
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Run `f`, turning a panic into an error naming it.
fn guarded<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    quiet_panics();
    let _active = Active::enter();
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|_| {
        let msg = LAST_PANIC.lock().map(|m| m.clone()).unwrap_or_default();
        format!("internal error ({msg}); the engine state is made anew")
    })
}

fn variant_now() -> Variant {
    session::variant_of_gametype(GAMETYPE.load(Ordering::SeqCst)).unwrap_or(Variant::Russian)
}

/// The state, made on first use.
fn state<'a>(guard: &'a mut MutexGuard<'static, Option<Session>>) -> &'a mut Session {
    let s = guard.get_or_insert_with(Session::new);
    GAMETYPE.store(session::gametype(s.variant()), Ordering::SeqCst);
    s
}

/// Take the lock, waiting at most `wait` (forever when `None`). A state
/// left poisoned by a panic is dropped (its search stopped): the next use
/// makes it anew.
fn lock(wait: Option<Duration>) -> Option<MutexGuard<'static, Option<Session>>> {
    let start = Instant::now();
    loop {
        match SESSION.try_lock() {
            Ok(g) => return Some(g),
            Err(TryLockError::Poisoned(p)) => {
                let mut g = p.into_inner();
                if let Some(mut old) = g.take() {
                    let _ = panic::catch_unwind(AssertUnwindSafe(|| old.engine.stop()));
                }
                SESSION.clear_poison();
                return Some(g);
            }
            Err(TryLockError::WouldBlock) => {
                if wait.is_some_and(|w| start.elapsed() >= w) {
                    return None;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// Read a NUL-terminated string of at most `cap` bytes (a string that
/// fills the whole buffer without a NUL ends there).
///
/// # Safety
/// `p` is null or points to `cap` readable bytes, or to a NUL before them.
unsafe fn read_cstr(p: *const c_char, cap: usize) -> String {
    if p.is_null() {
        return String::new();
    }
    let mut bytes = Vec::new();
    for i in 0..cap {
        let b = *p.add(i) as u8;
        if b == 0 {
            break;
        }
        bytes.push(b);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Write `s` as a NUL-terminated string into a buffer of `cap` bytes,
/// cut at a character boundary when it is longer.
///
/// # Safety
/// `p` is null or points to `cap` writable bytes.
unsafe fn write_cstr(p: *mut c_char, cap: usize, s: &str) {
    if p.is_null() || cap == 0 {
        return;
    }
    let mut n = s.len().min(cap - 1);
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    std::ptr::copy_nonoverlapping(s.as_ptr(), p as *mut u8, n);
    *p.add(n) = 0;
}

/// Get a move: search `board` (side to move `color`), play the move on it
/// and describe it in `*move`.
///
/// * `board`: `int[8][8]`, indexed `[x][y]`, `x = 7 - file`,
///   `y = 7 - rank`; codes 5 white man, 9 white king, 6 black man,
///   10 black king, 0 empty (see [`board`]). On return it holds the
///   position after the move.
/// * `color`: 1 (`CB_WHITE`) or 2 (`CB_BLACK`), the side to move.
/// * `maxtime`, `info`, `moreinfo`: the time of the move (see [`timing`]);
///   `info` bit 0 resets the history the library keeps.
/// * `str`: 1024 bytes, the status line, updated while the search runs
///   (depth, score, speed, best line) and at the end.
/// * `playnow`: read while searching; nonzero stops the search, which
///   plays its best move within a few milliseconds.
/// * `move`: the move played (`CBmove`).
///
/// Returns 1 (`CB_WIN`), 0 (`CB_DRAW`), 2 (`CB_LOSS`) or 3 (`CB_UNKNOWN`)
/// for the side that moved: a win or a loss the search proved, a draw by
/// the rules (repetition, 7.2.4-7.2.8), a loss when there is no legal move
/// (the board is then unchanged). On bad input the board is unchanged,
/// `str` starts with `error:` and the return value is 3.
///
/// # Safety
/// The pointers are null or valid as CheckerBoard's interface declares
/// them: `board` 64 `int`s, `str` 1024 bytes, `playnow` one `int`, `move`
/// one `CBmove`, for the duration of the call (`playnow` may be written by
/// another thread meanwhile).
#[no_mangle]
pub unsafe extern "system" fn getmove(
    board: *mut Board8,
    color: c_int,
    maxtime: f64,
    str: *mut c_char,
    playnow: *const c_int,
    info: c_int,
    moreinfo: c_int,
    r#move: *mut CbMove,
) -> c_int {
    // Raw pointers are not Send; the closures below run on this thread.
    let status_ptr = str as usize;
    let status = move |s: &str| unsafe { write_cstr(status_ptr as *mut c_char, STR_SIZE, s) };
    let outcome = guarded(|| -> Result<c_int, String> {
        if board.is_null() {
            return Err("the board pointer is null".into());
        }
        let mut guard = lock(None).expect("waits for ever");
        let s = state(&mut guard);
        let cells: Board8 = *board;
        let pos = board::read_board(&cells, color, s.variant())?;
        let (time, remark) = timing::decode(maxtime, info, moreinfo);
        if let Some(r) = &remark {
            status(r);
        }
        let playnow_ptr = playnow as usize;
        let playnow =
            move || playnow_ptr != 0 && std::ptr::read_volatile(playnow_ptr as *const c_int) != 0;
        let reset = info & timing::CB_RESET_MOVES != 0;
        let mut status_fn = |line: &str| status(line);
        let played = s.getmove(&pos, time, reset, &playnow, &mut status_fn)?;
        drop(guard);
        status(&played.status);
        if let Some(mv) = played.mv {
            let after = played.before.play(&mv);
            board::write_board(&mut *board, &after);
            if !r#move.is_null() {
                *r#move = board::cb_move(&played.before, &mv);
            }
        }
        Ok(played.result)
    });
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(e)) | Err(e) => {
            status(&format!("error: {e}"));
            if !r#move.is_null() {
                *r#move = CbMove::default();
            }
            CB_UNKNOWN
        }
    }
}

/// A command from the client and the engine's reply: see PROTOCOL.md for
/// every command. Returns 1 when the command was done, 0 when it was
/// refused or is not known (`reply` says why; `?` alone for a `get`/`set`
/// of an option this engine does not have, as CheckerBoard expects).
///
/// # Safety
/// `command` is null or a NUL-terminated string (at most 256 bytes are
/// read); `reply` is null or 1024 writable bytes. Most replies stay within
/// 256 bytes, as CheckerBoard reads some into buffers of that size.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    let text = read_cstr(command, COMMAND_SIZE);
    let outcome = guarded(|| -> (bool, String, usize) {
        let words: Vec<&str> = text.split_whitespace().collect();
        let long = matches!(
            words.first().map(|w| w.to_ascii_lowercase()).as_deref(),
            Some("about" | "staticevaluation")
        ) || (words.len() > 1
            && words[0].eq_ignore_ascii_case("get")
            && words[1].eq_ignore_ascii_case("movelist"));
        let cap = if long { STR_SIZE } else { SHORT_REPLY_SIZE };
        if let Some((ok, r)) = command::stateless(&words, variant_now()) {
            return (ok, r, cap);
        }
        let Some(mut guard) = lock(Some(COMMAND_WAIT)) else {
            return (
                false,
                "busy: getmove is searching; send the command when it has returned".into(),
                cap,
            );
        };
        let s = state(&mut guard);
        let (ok, r) = command::with_state(&words, s);
        GAMETYPE.store(session::gametype(s.variant()), Ordering::SeqCst);
        (ok, r, cap)
    });
    match outcome {
        Ok((ok, r, cap)) => {
            write_cstr(reply, cap, &r);
            c_int::from(ok)
        }
        Err(e) => {
            write_cstr(reply, SHORT_REPLY_SIZE, &format!("error: {e}"));
            0
        }
    }
}

/// Whether `color` may move from square `from` to square `to` (numbers 1
/// to 32, PDN order) on `board`; when it may, `*move` describes the move
/// (for a capture that can take different pieces between the same squares,
/// the first such capture). Returns 1 or 0.
///
/// # Safety
/// As [`getmove`]: `board` 64 `int`s, `move` one `CBmove`, or null.
#[no_mangle]
pub unsafe extern "system" fn islegal(
    board: *mut Board8,
    color: c_int,
    from: c_int,
    to: c_int,
    r#move: *mut CbMove,
) -> c_int {
    let outcome = guarded(|| -> c_int {
        if board.is_null() {
            return 0;
        }
        let Ok(pos) = board::read_board(&*board, color, variant_now()) else {
            return 0;
        };
        match board::moves_between(&pos, from, to).first() {
            Some(mv) => {
                if !r#move.is_null() {
                    *r#move = board::cb_move(&pos, mv);
                }
                1
            }
            None => 0,
        }
    });
    outcome.unwrap_or(0)
}

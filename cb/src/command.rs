//! `enginecommand`: the commands, their replies and return values.
//!
//! A command that is done returns 1; one that is refused or not known
//! returns 0. CheckerBoard's convention for an option the engine does not
//! have is the reply `?` and 0 (it greys the option out); every `get` or
//! `set` of a name this engine does not know gets exactly that. Any other
//! unknown command gets `? unknown command '...'` and the list of commands.
//! See PROTOCOL.md, "CheckerBoard library".

use crate::board;
use crate::session::{gametype, variant_of_gametype, Session};
use shashki::input::quote;
use shashki::options::{self, Options, Setting};
use shashki::{eval, fen, Position, Variant};

/// The reply and return value of a command.
pub type Reply = (bool, String);

/// The protocol version this library speaks (CheckerBoard's API 2).
pub const PROTOCOL_VERSION: &str = "2";

/// The commands, for the reply to an unknown one.
const COMMANDS: &str = "name, about, help, get protocolversion, \
get/set gametype|hashsize|searchthreads|moveoverhead|book|gamehist, get movelist, staticevaluation";

fn ok(s: impl Into<String>) -> Reply {
    (true, s.into())
}

fn refused(s: impl Into<String>) -> Reply {
    (false, s.into())
}

/// The name of the engine.
pub fn name() -> String {
    format!("Shashki {}", env!("CARGO_PKG_VERSION"))
}

fn about() -> String {
    format!(
        "{}\nA draughts engine for Russian (game type 25) and Brazilian (26) draughts.\n\
         Iterative deepening alpha-beta with a transposition table, Lazy SMP threads,\n\
         the FMJD-64 draw rules, and the project's tuned evaluation.\n\
         Commands: {COMMANDS}.\n\
         License: MIT or Apache-2.0. Documentation: PROTOCOL.md of the Shashki sources.",
        name()
    )
}

/// The variant of a name: our ids and lidraughts' (`russian`, `brazilian`).
fn variant_named(name: &str) -> Option<Variant> {
    match name.to_ascii_lowercase().as_str() {
        "russian" => Some(Variant::Russian),
        "brazilian" => Some(Variant::Brazilian),
        _ => None,
    }
}

/// A position given to a command: position text (numbers or square
/// names), the rest of the command joined.
fn position_arg(variant: Variant, args: &[&str]) -> Result<Position, String> {
    let text = args.join(" ");
    fen::parse_position(variant, text.trim_matches('"'))
        .map_err(|e| format!("bad position '{}': {e}", quote(&text)))
}

/// The static evaluation of a position, for people.
fn static_evaluation(pos: &Position) -> String {
    let value = eval::evaluate(pos);
    let side = pos.side_to_move();
    let mut s = format!(
        "{:+.2} for {side} (to move), in men\nWhite minus Black:",
        value as f64 / 100.0
    );
    for (term, v) in eval::breakdown(pos) {
        s.push_str(&format!("\n  {term} {:+.2}", v as f64 / 100.0));
    }
    s
}

/// `get`/`set` of an engine option by its CheckerBoard name (the option
/// table, [`shashki::options`], prints and reads it): `None` when `key`
/// is not one, and for `get moveoverhead`, which tells what is charged.
fn table_option(key: &[&str], words: &[&str], s: &mut Session, o: &Options) -> Option<Reply> {
    let opt = options::cb_option(key.get(1)?)?;
    match key {
        ["get", "moveoverhead"] => None,
        ["get", _] => Some(ok(opt.get(o))),
        ["set", _, _] => Some(match opt.set(words[2], o, |v| s.engine.set(v)) {
            Ok(reply) => ok(reply),
            Err(e) => refused(e),
        }),
        _ => None,
    }
}

/// Commands answered without the engine state, so also while `getmove`
/// runs: `None` when the command needs the state.
pub fn stateless(words: &[&str], variant: Variant) -> Option<Reply> {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let key: Vec<&str> = lower.iter().map(String::as_str).collect();
    Some(match key.as_slice() {
        ["name"] => ok(name()),
        ["about"] => ok(about()),
        // The name of an HTML help file: there is none (CheckerBoard then
        // says the engine has no help file); `about` lists the commands.
        ["help"] => ok(""),
        ["get", "protocolversion"] => ok(PROTOCOL_VERSION),
        ["get", "gametype"] => ok(gametype(variant).to_string()),
        ["get", "movelist", ..] if words.len() > 2 => match position_arg(variant, &words[2..]) {
            Ok(pos) => ok(board::movelist(&pos)),
            Err(e) => refused(format!("get movelist: {e}")),
        },
        ["staticevaluation", ..] if words.len() > 1 => match position_arg(variant, &words[1..]) {
            Ok(pos) => ok(static_evaluation(&pos)),
            Err(e) => refused(format!("staticevaluation: {e}")),
        },
        _ => return None,
    })
}

/// Commands that read or change the engine state.
pub fn with_state(words: &[&str], s: &mut Session) -> Reply {
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let key: Vec<&str> = lower.iter().map(String::as_str).collect();
    let opts = s.engine.options().clone();
    if let Some(reply) = table_option(&key, words, s, &opts) {
        return reply;
    }
    match key.as_slice() {
        [] => refused(format!("? empty command; the commands are: {COMMANDS}")),
        ["staticevaluation"] => ok(static_evaluation(&s.current_position())),
        ["set", "gametype", n] => match n.parse::<i32>().ok().and_then(variant_of_gametype) {
            Some(v) => match s.set_variant(v) {
                Ok(()) => ok(format!("gametype {} ({v})", gametype(v))),
                Err(e) => refused(format!("gametype stays {}: {e}", gametype(opts.variant))),
            },
            None => refused(format!(
                "gametype '{}' is not played: shashki plays 25 (Russian) and 26 (Brazilian); gametype stays {}",
                quote(words[2]),
                gametype(opts.variant)
            )),
        },
        // lidraughts-bot sets its variant and initial time as options.
        ["set", "variant", v] => match variant_named(v) {
            Some(v) => match s.set_variant(v) {
                Ok(()) => ok(format!("variant {v} (gametype {})", gametype(v))),
                Err(e) => refused(format!("variant stays {}: {e}", opts.variant)),
            },
            None => refused(format!(
                "variant '{}' is not played: shashki plays russian and brazilian; variant stays {}",
                quote(words[2]),
                opts.variant
            )),
        },
        ["set", "initial-time", t] => match t.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => ok(format!(
                "initial-time {t}: noted; the clock comes with every getmove"
            )),
            _ => refused(format!(
                "initial-time '{}' is not a number of seconds",
                quote(words[2])
            )),
        },
        ["get", "moveoverhead"] => {
            let o = s.engine.overhead();
            ok(format!(
                "{} ms per move charged, {} ms kept in reserve (option {} ms; more when measured from the clocks)",
                o.per_move_ms, o.reserve_ms, opts.move_overhead_ms
            ))
        }
        // CheckerBoard's 0 is no book; 1-3 ask for its best moves only or
        // for some variety: the book has one move a position, so all three
        // are that move (the `OwnBook` option).
        ["get", "book"] => ok(if opts.own_book { "1" } else { "0" }),
        ["set", "book", n] => match *n {
            "0" | "1" | "2" | "3" => {
                let on = *n != "0";
                match s.engine.set(Setting::OwnBook(on)) {
                    Ok(()) if on => ok(format!(
                        "{n} (the book's move in the positions after the shipped openings)"
                    )),
                    Ok(()) => ok("0 (no opening book)"),
                    Err(e) => refused(format!("book: {e}")),
                }
            }
            _ => refused(format!(
                "book '{}' is not 0 (off) or 1-3 (on); book stays {}",
                quote(words[2]),
                if opts.own_book { "on" } else { "off" }
            )),
        },
        ["set", "gamehist", ..] => match s.set_gamehist(&words[2..]) {
            Ok(r) => ok(r),
            Err(e) => refused(e),
        },
        [verb @ ("get" | "set"), name, ..]
            if ["gametype", "variant", "initial-time", "book"].contains(name)
                || options::cb_option(name).is_some() =>
        {
            refused(format!(
                "{verb} {name}: {}",
                if *verb == "get" {
                    "takes no value".to_string()
                } else {
                    "needs one value".to_string()
                }
            ))
        }
        ["get", "gamehist"] => match &s.last_game {
            Some((n, start)) => ok(format!(
                "{n} plies: the game the last getmove searched, from {start}"
            )),
            None => ok("0 plies: no getmove yet"),
        },
        // A panic on purpose, with the state locked, for the tests of the
        // interface's panic guard (debug builds only).
        #[cfg(debug_assertions)]
        ["debug-panic"] => panic!("debug-panic: a panic on purpose"),
        ["get", "movelist"] => refused("get movelist needs a position, e.g. get movelist W:W21-32:B1-12"),
        // An option of CheckerBoard's protocol this engine does not have:
        // CheckerBoard's own word for it.
        ["get" | "set", ..] => refused("?"),
        _ => refused(format!(
            "? unknown command '{}'; the commands are: {COMMANDS}",
            quote(&words.join(" "))
        )),
    }
}

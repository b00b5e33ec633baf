//! PDN (Portable Draughts Notation): reading and writing game files.
//!
//! A PDN file is a sequence of games; each game is a tag section
//! (`[Name "value"]` lines) followed by the movetext (move numbers, moves,
//! comments, glyphs, variations) and a result token.
//!
//! # Variant
//!
//! | variant | written tags | read from |
//! |---|---|---|
//! | `russian` | `[GameType "25"]` | `Variant` tag, else `GameType` 25 |
//! | `brazilian` | `[GameType "26"]` | `Variant` tag, else `GameType` 26 |
//! | `adiyukh-64` | `[GameType "50"]` and `[Variant "adiyukh-64"]` | `Variant` tag, else `GameType` 50 |
//! | `adiyukh-80` | `[GameType "51"]` and `[Variant "adiyukh-80"]` | `Variant` tag, else `GameType` 51 |
//!
//! PDN has no GameType number for Adiyukh; 50 and 51 are this project's
//! private numbers (outside the range the PDN standard assigns), and the
//! writer always adds the `Variant` tag, which the reader prefers. The reader
//! takes the variant from a `Variant` tag naming one of our ids (or
//! lidraughts' names `Russian`, `Brazilian`), then from `GameType` (the short
//! `25` or the long `25,W,8,8,A0,0`, where only the first number counts),
//! then from the caller's default.
//!
//! # Results
//!
//! Written: `2-0` (White wins), `0-2` (Black wins), `1-1` (draw), `*` (not
//! finished or unknown), as draughts PDN (and lidraughts, and pydraughts)
//! writes them. Read as well: `1-0`, `0-1`, `1/2-1/2` (stored as `2-0`,
//! `0-2`, `1-1`) and `0-0` (a double forfeit, stored as `0-0`). The result
//! token at the end of the movetext wins over the `Result` tag.
//!
//! # Moves
//!
//! Written in algebraic notation with the full route of a capture, the
//! landing square of every jump, joined by PDN's capture mark `x`
//! (`c3xe5xg3`; [`notation::move_text`] writes the same squares with `:`).
//! pydraughts 0.6.7 reads `x` but not `:`, so the PDN writer uses `x`. Move
//! numbers before White's moves (`1. c3-d4 f6-e5 2. ...`), and `1...` before
//! the first move when Black moves first. No `N...` is written after a
//! comment: pydraughts 0.6.7 would lose a move on a repeated move number.
//!
//! Read: algebraic or numeric squares (`22-18`, `22x15`), `x` or `:`, short
//! captures, everything [`notation::parse_move`] accepts; move numbers
//! `12.` and `12...` (their values are not checked; a number may be glued to
//! its move, `12.c3-d4`); comments `{...}` (over several lines) and `;` to
//! the end of the line; NAGs `$n` and glyphs (`!`, `?`, `!!`, `??`, `!?`,
//! `?!`) attached to the move or apart; variations `( ... )`, nested, which
//! are skipped; `%` escape lines; a byte-order mark, CRLF line ends.
//!
//! # Encoding
//!
//! Written in UTF-8. [`read_file`] and [`decode`] read a file's bytes as
//! UTF-8 when they are valid UTF-8, else as Windows-1251 (Russian game
//! collections), or in the [`Encoding`] the caller names (Latin-1 for old
//! CheckerBoard files). [`read_games`] takes the decoded text.
//!
//! # Games
//!
//! A game ends at its result token, or where a new tag section begins after
//! movetext. A game needs no tags. Text that has no tags, no result and not
//! one readable move (e.g. garbage after the last game) is not a game and is
//! dropped. A malformed game (a bad tag, a bad FEN, an illegal move, an
//! unclosed comment or variation) is an `Err` naming the game and the move;
//! the other games of the file still load. An unclosed comment runs to the
//! next line starting with `[`, where reading goes on.
//!
//! # FEN and other tags
//!
//! `FEN` is written when the game does not start from the variant's start
//! position (or when the record's tags already have one), as
//! [`fen::position_text`] writes it (towers `e5-2/1` in Adiyukh). It is read
//! with [`fen::parse_position`], so numeric squares work too. Tags are kept in
//! file order; the writer sets `GameType`, `Variant` (Adiyukh), `FEN` and
//! `Result` from the record, in place when present, appended otherwise, and
//! writes the other tags as they are. A `Termination` tag for the end reason
//! is the caller's to set (e.g. from [`EndReason::describe`]).
//!
//! Moves after the end of a game by this engine's rules (e.g. past a third
//! repetition) are refused like an illegal move.
//!
//! ```
//! use shashki::{game::Game, pdn, Variant};
//! let mut game = Game::new(Variant::Russian);
//! game.play_text("c3-d4").unwrap();
//! let mut rec = pdn::GameRecord::new(game);
//! rec.set_tag("White", "Ann");
//! let text = pdn::write_game(&rec);
//! assert!(text.contains("[GameType \"25\"]") && text.contains("1. c3-d4 *"));
//! let back = pdn::read_games(&text, Variant::Brazilian).remove(0).unwrap();
//! assert_eq!(back.game.moves(), rec.game.moves());
//! assert_eq!(back.tag("White"), Some("Ann"));
//! ```
//!
//! [`EndReason::describe`]: crate::game::EndReason::describe

use crate::fen;
use crate::game::{Game, Outcome};
use crate::notation;
use crate::position::Position;
use crate::variant::Variant;
use crate::Color;
use std::fmt;

/// One game as PDN holds it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Tags in file order, e.g. `("Event", "...")`, `("White", "...")`. The
    /// writer sets `GameType`, `Variant` (Adiyukh), `FEN` (non-standard start)
    /// and `Result` from the record.
    pub tags: Vec<(String, String)>,
    /// Start position and the moves (validated, legal).
    pub game: Game,
    /// The comment after each ply (`len == game.moves().len()`).
    pub comments: Vec<Option<String>>,
    /// The glyph or NAG after each ply (`?`, `!?`, `$3`, ...;
    /// `len == game.moves().len()`).
    pub glyphs: Vec<Option<String>>,
    /// The comment before the first move (game comment), if any.
    pub intro: Option<String>,
    /// The PDN result token: `2-0`, `0-2`, `1-1`, `0-0` or `*`.
    pub result: String,
}

impl GameRecord {
    /// A record of `game` with no tags or comments and result `*`.
    pub fn new(game: Game) -> GameRecord {
        let n = game.moves().len();
        GameRecord {
            tags: Vec::new(),
            game,
            comments: vec![None; n],
            glyphs: vec![None; n],
            intro: None,
            result: "*".to_string(),
        }
    }

    /// The value of the first tag called `name` (exact name).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Set tag `name` (in place when present, appended otherwise).
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }
}

/// The PDN result token of an outcome: `2-0`, `0-2`, `1-1`, or `*` for none.
pub fn result_token(outcome: Option<&Outcome>) -> String {
    outcome.map_or("*", |o| o.result.pdn()).to_string()
}

/// The GameType number this module writes for a variant.
pub fn game_type(variant: Variant) -> u32 {
    match variant {
        Variant::Russian => 25,
        Variant::Brazilian => 26,
        Variant::Adiyukh64 => 50,
        Variant::Adiyukh80 => 51,
    }
}

/// The variant named by the tags: `None` when neither a `Variant` tag naming
/// a known variant nor a `GameType` tag is present; `Some(Err)` with a
/// one-line reason when they name a game this engine does not play.
pub fn variant_of_tags(tags: &[(String, String)]) -> Option<Result<Variant, String>> {
    let find = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    let named = find("Variant");
    if let Some(v) = named.and_then(variant_by_name) {
        return Some(Ok(v));
    }
    if let Some(gt) = find("GameType") {
        let first = gt.split(',').next().unwrap_or("").trim();
        return Some(match first.parse::<u32>() {
            Ok(25) => Ok(Variant::Russian),
            Ok(26) => Ok(Variant::Brazilian),
            Ok(50) => Ok(Variant::Adiyukh64),
            Ok(51) => Ok(Variant::Adiyukh80),
            Ok(n) => Err(format!(
                "GameType {n} is not a variant this engine plays (25 russian, 26 brazilian, 50 adiyukh-64, 51 adiyukh-80)"
            )),
            Err(_) => Err(format!("malformed GameType '{}'", clip(gt))),
        });
    }
    named.map(|v| Err(format!("unknown Variant '{}'", clip(v))))
}

fn variant_by_name(name: &str) -> Option<Variant> {
    if let Ok(v) = name.parse::<Variant>() {
        return Some(v);
    }
    match name.to_ascii_lowercase().as_str() {
        "russian draughts" | "shashki" => Some(Variant::Russian),
        "brazilian draughts" => Some(Variant::Brazilian),
        "adiyukh" | "adiyukh64" | "adiyukh 64" => Some(Variant::Adiyukh64),
        "adiyukh80" | "adiyukh 80" => Some(Variant::Adiyukh80),
        _ => None,
    }
}

/// A short, one-line excerpt of user text for an error message.
fn clip(s: &str) -> String {
    let one: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if one.chars().count() > 40 {
        format!("{}...", one.chars().take(40).collect::<String>())
    } else {
        one
    }
}

// ---------------------------------------------------------------- writing

/// The PDN text of one game, ending with a blank line.
pub fn write_game(rec: &GameRecord) -> String {
    let game = &rec.game;
    let variant = game.variant();
    let mut tags = rec.tags.clone();
    let mut set = |name: &str, value: String| match tags.iter_mut().find(|(n, _)| n == name) {
        Some(t) => t.1 = value,
        None => tags.push((name.to_string(), value)),
    };
    set("GameType", game_type(variant).to_string());
    if variant.is_tower() {
        set("Variant", variant.id().to_string());
    }
    let standard = *game.start() == Position::start(variant);
    if !standard || rec.tag("FEN").is_some() {
        set("FEN", fen::position_text(game.start()));
    }
    set("Result", rec.result.clone());

    let mut out = String::new();
    for (name, value) in &tags {
        let name: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let name = if name.is_empty() { "Tag".into() } else { name };
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
    }
    out.push('\n');

    let mut line = Wrapper::default();
    if let Some(c) = &rec.intro {
        line.push(&mut out, &comment_text(c));
    }
    let black_first = game.start().side_to_move() == Color::Black;
    let positions = game.positions();
    for (i, mv) in game.moves().iter().enumerate() {
        let idx = i + black_first as usize;
        if idx % 2 == 0 {
            line.push(&mut out, &format!("{}.", idx / 2 + 1));
        } else if i == 0 {
            line.push(&mut out, "1...");
        }
        let mut text = notation::move_text(&positions[i], mv).replace(':', "x");
        let glyph = rec.glyphs.get(i).and_then(|g| g.as_deref());
        let mut nag = None;
        match glyph {
            Some(g) if !g.is_empty() && g.chars().all(|c| c == '!' || c == '?') => text.push_str(g),
            Some(g) if g.starts_with('$') && g[1..].chars().all(|c| c.is_ascii_digit()) => {
                nag = Some(g)
            }
            _ => {}
        }
        line.push(&mut out, &text);
        if let Some(n) = nag {
            line.push(&mut out, n);
        }
        if let Some(Some(c)) = rec.comments.get(i) {
            line.push(&mut out, &comment_text(c));
        }
    }
    line.push(
        &mut out,
        if rec.result.is_empty() {
            "*"
        } else {
            &rec.result
        },
    );
    out.push_str("\n\n");
    out
}

/// Tag value escaping: `\` and `"` get a backslash; line breaks become spaces.
fn escape_tag(v: &str) -> String {
    let mut s = String::new();
    for c in v.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c)
            }
            '\r' | '\n' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// A comment as written: `}` (which would end it) becomes `)`, line breaks
/// become spaces.
fn comment_text(c: &str) -> String {
    let body: String = c
        .chars()
        .map(|ch| match ch {
            '}' => ')',
            '\r' | '\n' => ' ',
            ch => ch,
        })
        .collect();
    format!("{{{}}}", body.trim())
}

/// Joins movetext tokens into lines of at most 80 columns where possible.
#[derive(Default)]
struct Wrapper {
    col: usize,
}

impl Wrapper {
    fn push(&mut self, out: &mut String, token: &str) {
        let len = token.chars().count();
        if self.col > 0 && self.col + 1 + len > 80 {
            out.push('\n');
            self.col = 0;
        }
        if self.col > 0 {
            out.push(' ');
            self.col += 1;
        }
        out.push_str(token);
        self.col += len;
    }
}

// ---------------------------------------------------------------- reading

/// Why a game of a PDN file could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct PdnError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The line of the file where the problem is, from 1.
    pub line: usize,
    /// What is wrong, naming the ply, the move number and the move text when
    /// a move is at fault.
    pub message: String,
    /// The players and event from the tags (`White - Black, Event`), empty
    /// when the game has none.
    pub label: String,
    /// Something of the game was PDN: a well-formed tag pair, or a legal
    /// move before the fault (see [`holds_pdn`]).
    pub recognised: bool,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if !self.label.is_empty() {
            write!(f, " ({})", self.label)?;
        }
        write!(f, ", line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PdnError {}

/// A lexical token of PDN text, with its line.
#[derive(Debug)]
enum Tok {
    Tag(String, String),
    BadTag(String),
    Comment(String),
    UnclosedComment,
    Open,
    Close,
    Nag(String),
    Word(String),
}

/// Split PDN text into tokens. Never panics.
fn tokenize(text: &str) -> Vec<(Tok, usize)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
            at_line_start = true;
            continue;
        }
        if at_line_start && c == '%' {
            // Escape line: skipped to its end.
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let start_line = line;
        match c {
            '[' => {
                let (tok, next) = read_tag(&chars, i);
                toks.push((tok, start_line));
                i = next;
            }
            '{' => {
                let mut j = i + 1;
                let mut body = String::new();
                let mut lines = 0;
                while j < chars.len() && chars[j] != '}' {
                    if chars[j] == '\n' {
                        lines += 1;
                    }
                    body.push(chars[j]);
                    j += 1;
                }
                if j < chars.len() {
                    toks.push((Tok::Comment(body.trim().to_string()), start_line));
                    line += lines;
                    i = j + 1;
                } else {
                    toks.push((Tok::UnclosedComment, start_line));
                    // Go on at the next line that starts a tag section.
                    let mut k = i + 1;
                    while k < chars.len() {
                        if chars[k] == '\n' {
                            if chars.get(k + 1) == Some(&'[') {
                                break;
                            }
                            line += 1;
                        }
                        k += 1;
                    }
                    i = k;
                }
            }
            ';' => {
                let mut j = i + 1;
                let mut body = String::new();
                while j < chars.len() && chars[j] != '\n' {
                    body.push(chars[j]);
                    j += 1;
                }
                toks.push((Tok::Comment(body.trim().to_string()), start_line));
                i = j;
            }
            '(' => {
                toks.push((Tok::Open, start_line));
                i += 1;
            }
            ')' => {
                toks.push((Tok::Close, start_line));
                i += 1;
            }
            '$' => {
                let mut j = i + 1;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let s: String = chars[i..j].iter().collect();
                toks.push((Tok::Nag(s), start_line));
                i = j;
            }
            _ => {
                let mut j = i;
                while j < chars.len()
                    && !chars[j].is_whitespace()
                    && !matches!(chars[j], '[' | ']' | '{' | '}' | '(' | ')' | ';' | '$')
                {
                    j += 1;
                }
                if j == i {
                    // A stray `]` or `}`.
                    toks.push((Tok::Word(c.to_string()), start_line));
                    j += 1;
                } else {
                    toks.push((Tok::Word(chars[i..j].iter().collect()), start_line));
                }
                i = j;
            }
        }
    }
    toks
}

/// Read a tag pair starting at `[`; returns the token and the index after it.
/// A bad tag ends at its line's end.
fn read_tag(chars: &[char], start: usize) -> (Tok, usize) {
    let line_end = chars[start..]
        .iter()
        .position(|&c| c == '\n')
        .map_or(chars.len(), |p| start + p);
    let bad = |why: &str| {
        let raw: String = chars[start..line_end].iter().collect();
        (
            Tok::BadTag(format!("bad tag '{}': {why}", clip(raw.trim()))),
            line_end,
        )
    };
    let mut i = start + 1;
    while i < line_end && chars[i].is_whitespace() {
        i += 1;
    }
    let name_start = i;
    while i < line_end && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    if i == name_start {
        return bad("no tag name");
    }
    let name: String = chars[name_start..i].iter().collect();
    while i < line_end && chars[i].is_whitespace() {
        i += 1;
    }
    if i >= line_end || chars[i] != '"' {
        return bad("the value must be in double quotes");
    }
    i += 1;
    let mut value = String::new();
    loop {
        if i >= line_end {
            return bad("the value's closing quote is missing");
        }
        match chars[i] {
            '\\' if i + 1 < line_end && matches!(chars[i + 1], '"' | '\\') => {
                value.push(chars[i + 1]);
                i += 2;
            }
            '"' => {
                i += 1;
                break;
            }
            c => {
                value.push(c);
                i += 1;
            }
        }
    }
    while i < line_end && chars[i].is_whitespace() {
        i += 1;
    }
    if i >= line_end || chars[i] != ']' {
        return bad("']' is missing");
    }
    (
        Tok::Tag(name, value.trim_end_matches('\r').to_string()),
        i + 1,
    )
}

/// The result tokens read, and what they are stored as.
fn result_of(word: &str) -> Option<&'static str> {
    match word {
        "2-0" | "1-0" => Some("2-0"),
        "0-2" | "0-1" => Some("0-2"),
        "1-1" | "1/2-1/2" | "½-½" => Some("1-1"),
        "0-0" => Some("0-0"),
        "*" => Some("*"),
        _ => None,
    }
}

fn is_glyph(s: &str) -> bool {
    !s.is_empty() && s.len() <= 3 && s.chars().all(|c| c == '!' || c == '?')
}

/// One game being read.
struct Builder {
    tags: Vec<(String, String)>,
    /// Line of the first token.
    line: usize,
    game: Option<Game>,
    comments: Vec<Option<String>>,
    glyphs: Vec<Option<String>>,
    intro: Option<String>,
    result: Option<String>,
    error: Option<(usize, String)>,
    /// Movetext was seen (a move, a move number, a result).
    movetext: bool,
    depth: usize,
    /// Line where the open variation started.
    open_line: usize,
}

impl Builder {
    fn new(line: usize) -> Builder {
        Builder {
            tags: Vec::new(),
            line,
            game: None,
            comments: Vec::new(),
            glyphs: Vec::new(),
            intro: None,
            result: None,
            error: None,
            movetext: false,
            depth: 0,
            open_line: 0,
        }
    }

    fn fail(&mut self, line: usize, message: String) {
        if self.error.is_none() {
            self.error = Some((line, message));
        }
    }

    /// Set up the game from the tags, once.
    fn setup(&mut self, default_variant: Variant, line: usize) {
        if self.game.is_some() || self.error.is_some() {
            return;
        }
        let variant = match variant_of_tags(&self.tags) {
            None => default_variant,
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                self.fail(line, e);
                return;
            }
        };
        let fen_tag = self
            .tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("FEN"))
            .map(|(_, v)| v.clone());
        match fen_tag {
            None => self.game = Some(Game::new(variant)),
            Some(text) => match fen::parse_position(variant, &text) {
                Ok(pos) => self.game = Some(Game::from_position(pos)),
                Err(e) => self.fail(
                    line,
                    format!("bad FEN tag '{}' for {variant}: {e}", clip(&text)),
                ),
            },
        }
    }

    fn ply_label(&self, text: &str) -> String {
        let game = self.game.as_ref().expect("set up");
        let ply = game.moves().len() + 1;
        let black_first = game.start().side_to_move() == Color::Black;
        let idx = ply - 1 + black_first as usize;
        let dots = if idx % 2 == 0 { "." } else { "..." };
        format!("ply {ply} (move {}{dots} {})", idx / 2 + 1, clip(text))
    }

    fn play(&mut self, default_variant: Variant, word: &str, line: usize) {
        self.movetext = true;
        self.setup(default_variant, line);
        if self.error.is_some() {
            return;
        }
        let trimmed = word.trim_end_matches(['!', '?']);
        let glyph = &word[trimmed.len()..];
        let label = self.ply_label(word);
        let game = self.game.as_mut().expect("set up");
        match game.play_text(trimmed) {
            Ok(_) => {
                self.comments.push(None);
                self.glyphs
                    .push((!glyph.is_empty()).then(|| glyph.to_string()));
            }
            Err(e) => self.fail(line, format!("{label}: {e}")),
        }
    }

    fn comment(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        let slot = match self.comments.last_mut() {
            Some(s) => s,
            None => &mut self.intro,
        };
        *slot = Some(match slot.take() {
            Some(old) => format!("{old} {text}"),
            None => text,
        });
    }

    fn label(&self) -> String {
        let get = |n: &str| {
            self.tags
                .iter()
                .find(|(t, _)| t == n)
                .map(|(_, v)| clip(v.trim()))
                .filter(|v| !v.is_empty() && v != "?")
        };
        let mut s = match (get("White"), get("Black")) {
            (Some(w), Some(b)) => format!("{w} - {b}"),
            (Some(w), None) => format!("{w} - ?"),
            (None, Some(b)) => format!("? - {b}"),
            (None, None) => String::new(),
        };
        if let Some(e) = get("Event") {
            if !s.is_empty() {
                s.push_str(", ");
            }
            s.push_str(&e);
        }
        s
    }

    /// Whether this is no game at all (garbage between or after games).
    fn is_garbage(&self) -> bool {
        self.tags.is_empty()
            && self.result.is_none()
            && self.game.as_ref().map_or(true, |g| g.moves().is_empty())
            && (self.error.is_some() || !self.movetext)
            && self.intro.is_none()
    }

    fn finish(
        mut self,
        number: usize,
        default_variant: Variant,
        end_line: usize,
    ) -> Result<GameRecord, PdnError> {
        if self.depth > 0 {
            let l = self.open_line;
            self.fail(l, "unclosed variation '('".to_string());
        }
        self.setup(default_variant, self.line);
        let label = self.label();
        let recognised =
            !self.tags.is_empty() || self.game.as_ref().is_some_and(|g| !g.moves().is_empty());
        if let Some((line, message)) = self.error {
            return Err(PdnError {
                game: number,
                line,
                message,
                label,
                recognised,
            });
        }
        let tag_result = self
            .tags
            .iter()
            .find(|(n, _)| n == "Result")
            .and_then(|(_, v)| result_of(v.trim()));
        let result = self
            .result
            .or(tag_result.map(str::to_string))
            .unwrap_or_else(|| "*".to_string());
        let game = match self.game {
            Some(g) => g,
            None => {
                return Err(PdnError {
                    game: number,
                    line: end_line,
                    message: "no game could be set up".into(),
                    label,
                    recognised,
                })
            }
        };
        Ok(GameRecord {
            tags: self.tags,
            game,
            comments: self.comments,
            glyphs: self.glyphs,
            intro: self.intro,
            result,
        })
    }
}

/// A text encoding of PDN files. Files are written in UTF-8; read, a file
/// that is not valid UTF-8 is taken to be Windows-1251 (the usual encoding
/// of Russian game collections) unless the caller names its encoding.
///
/// The decoders are tables written here, not a crate: Windows-1251 needs 64
/// code points for bytes 0x80-0xBF (0xC0-0xFF are А-я in order), Latin-1 32
/// (see [`Encoding::Latin1`]); a general encoding library would bring the
/// tables of dozens of encodings for these three, and only decoding is
/// needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (`utf-8`, `utf8`); invalid UTF-8 is an error.
    Utf8,
    /// Windows-1251 (`windows-1251`, `cp1251`): Cyrillic.
    Windows1251,
    /// Latin-1 (`iso-8859-1`, `latin1`, `windows-1252`, `cp1252`), read as
    /// the WHATWG Encoding Standard (and every browser) reads these labels:
    /// Windows-1252, whose bytes 0x80-0x9F are printable (`€`, `Š`, `„`, ...)
    /// where ISO-8859-1 has control codes no text uses.
    Latin1,
}

impl Encoding {
    /// The names accepted, for error messages and help.
    pub const NAMES: &'static str =
        "utf-8/utf8, windows-1251/cp1251, iso-8859-1/latin1/windows-1252/cp1252";

    /// The text of `bytes` in this encoding. Only UTF-8 can fail: every
    /// byte has a character in the other two.
    pub fn decode(self, bytes: &[u8]) -> Result<String, String> {
        match self {
            Encoding::Utf8 => match std::str::from_utf8(bytes) {
                Ok(s) => Ok(s.to_string()),
                Err(e) => {
                    let at = e.valid_up_to();
                    let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
                    Err(format!(
                        "not valid UTF-8 (line {line}, byte 0x{:02X})",
                        bytes[at]
                    ))
                }
            },
            Encoding::Windows1251 => Ok(bytes.iter().map(|&b| cp1251_char(b)).collect()),
            Encoding::Latin1 => Ok(bytes.iter().map(|&b| latin1_char(b)).collect()),
        }
    }
}

impl std::str::FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "utf-8" | "utf8" => Ok(Encoding::Utf8),
            "windows-1251" | "cp1251" => Ok(Encoding::Windows1251),
            "iso-8859-1" | "iso8859-1" | "latin1" | "latin-1" | "windows-1252" | "cp1252" => {
                Ok(Encoding::Latin1)
            }
            _ => Err(format!(
                "unknown encoding '{s}' (accepted: {})",
                Encoding::NAMES
            )),
        }
    }
}

/// Windows-1251 bytes 0x80-0xBF (0xC0-0xFF are U+0410-U+044F, А-я). Byte
/// 0x98, which has no character, stands for U+0098 (as WHATWG maps it).
const CP1251_80_BF: [u16; 64] = [
    // 0x80: Ђ Ѓ ‚ ѓ „ … † ‡ € ‰ Љ ‹ Њ Ќ Ћ Џ
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, //
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F, //
    // 0x90: ђ ‘ ’ “ ” • – — (none) ™ љ › њ ќ ћ џ
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
    0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, //
    // 0xA0: no-break space Ў ў Ј ¤ Ґ ¦ § Ё © Є « ¬ soft hyphen ® Ї
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, //
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407, //
    // 0xB0: ° ± І і ґ µ ¶ · ё № є » ј Ѕ ѕ ї
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, //
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457, //
];

/// Windows-1252 bytes 0x80-0x9F (the rest of Latin-1 is U+0000-U+00FF
/// itself). The five bytes without a character stand for themselves.
const CP1252_80_9F: [u16; 32] = [
    // 0x80: € (none) ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ (none) Ž (none)
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, //
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, //
    // 0x90: (none) ‘ ’ “ ” • – — ˜ ™ š › œ (none) ž Ÿ
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, //
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, //
];

fn cp1251_char(b: u8) -> char {
    let code = match b {
        0x00..=0x7F => u32::from(b),
        0x80..=0xBF => u32::from(CP1251_80_BF[usize::from(b - 0x80)]),
        0xC0..=0xFF => 0x0410 + u32::from(b - 0xC0),
    };
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

fn latin1_char(b: u8) -> char {
    let code = match b {
        0x80..=0x9F => u32::from(CP1252_80_9F[usize::from(b - 0x80)]),
        _ => u32::from(b),
    };
    char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The text of a PDN file's bytes: in `encoding` when given, else UTF-8
/// when they are valid UTF-8, else Windows-1251.
///
/// ```
/// use shashki::pdn::{decode, Encoding};
/// // "Иванов" in Windows-1251: not UTF-8, so read as Windows-1251.
/// let bytes = b"[White \"\xC8\xE2\xE0\xED\xEE\xE2\"]";
/// assert_eq!(decode(bytes, None).unwrap(), "[White \"Иванов\"]");
/// assert!(decode(bytes, Some(Encoding::Utf8)).is_err());
/// assert_eq!(decode(b"M\xFCller", Some(Encoding::Latin1)).unwrap(), "Müller");
/// ```
pub fn decode(bytes: &[u8], encoding: Option<Encoding>) -> Result<String, String> {
    match encoding {
        Some(e) => e.decode(bytes),
        None => Encoding::Utf8
            .decode(bytes)
            .or_else(|_| Encoding::Windows1251.decode(bytes)),
    }
}

/// Read a PDN file as [`decode`] does; errors name the file. A file with
/// a NUL byte is refused as not a PDN file (binary data: a program, an
/// archive, a picture), and so is UTF-16 text (by its byte-order mark),
/// before any decoding: no text file holds a NUL, and the single-byte
/// fallback would read any bytes as text.
pub fn read_file(path: &std::path::Path, encoding: Option<Encoding>) -> Result<String, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return Err(format!(
            "'{}' is UTF-16 text, which is not read: save it as UTF-8",
            path.display()
        ));
    }
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        return Err(format!(
            "'{}' is not a PDN file: it holds binary data (a NUL byte at byte {at})",
            path.display()
        ));
    }
    decode(&bytes, encoding).map_err(|e| {
        format!(
            "'{}' is {e}: is it windows-1251 or iso-8859-1?",
            path.display()
        )
    })
}

/// Whether `games` (as [`read_games`] found them) hold anything of PDN: a
/// game read whole, or a malformed one with a well-formed tag pair or a
/// legal move before its fault. Text of which this is false (a program, a
/// document, a list) is not a PDN file, and its "games" are no news to
/// report one by one.
pub fn holds_pdn(games: &[Result<GameRecord, PdnError>]) -> bool {
    games
        .iter()
        .any(|g| g.as_ref().map_or_else(|e| e.recognised, |_| true))
}

/// Read every game of a PDN file. Each game is `Ok` or an `Err` naming the
/// game and the move at fault; the other games still load. `default_variant`
/// applies to games whose tags name no variant. Never panics.
pub fn read_games(text: &str, default_variant: Variant) -> Vec<Result<GameRecord, PdnError>> {
    let mut out = Vec::new();
    let mut current: Option<Builder> = None;
    let mut last_line = 1;
    let close = |b: Builder, out: &mut Vec<Result<GameRecord, PdnError>>, line: usize| {
        if !b.is_garbage() {
            let n = out.len() + 1;
            out.push(b.finish(n, default_variant, line));
        }
    };
    for (tok, line) in tokenize(text) {
        last_line = line;
        // A tag after movetext starts the next game.
        if matches!(tok, Tok::Tag(..) | Tok::BadTag(_)) {
            if let Some(b) = current.take_if(|b| b.movetext) {
                close(b, &mut out, line);
            }
        }
        let b = current.get_or_insert_with(|| Builder::new(line));
        match tok {
            Tok::Tag(name, value) => b.tags.push((name, value)),
            Tok::BadTag(msg) => b.fail(line, msg),
            Tok::UnclosedComment => {
                b.fail(line, "unclosed comment '{'".into());
                if let Some(b) = current.take() {
                    close(b, &mut out, line);
                }
            }
            Tok::Comment(c) => {
                if b.depth == 0 {
                    b.comment(c)
                }
            }
            Tok::Open => {
                if b.depth == 0 {
                    b.open_line = line;
                }
                b.depth += 1;
            }
            Tok::Close => {
                if b.depth == 0 {
                    b.fail(line, "')' without a variation to close".into());
                } else {
                    b.depth -= 1;
                }
            }
            Tok::Nag(n) => {
                if b.depth == 0 {
                    if let Some(g) = b.glyphs.last_mut() {
                        *g = Some(n);
                    }
                }
            }
            Tok::Word(w) => {
                if b.depth > 0 {
                    continue;
                }
                if let Some(r) = result_of(&w) {
                    b.movetext = true;
                    b.result = Some(r.to_string());
                    if let Some(b) = current.take() {
                        close(b, &mut out, line);
                    }
                    continue;
                }
                let mut rest = w.as_str();
                // A move number, perhaps glued to its move: `12.`, `12...`, `12.c3-d4`.
                let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
                let dots = rest[digits..]
                    .chars()
                    .take_while(|&c| c == '.' || c == '…')
                    .count();
                if dots > 0 {
                    b.movetext = true;
                    let skip: usize = rest[digits..].chars().take(dots).map(char::len_utf8).sum();
                    rest = &rest[digits + skip..];
                    if rest.is_empty() {
                        continue;
                    }
                }
                if is_glyph(rest) {
                    if let Some(g) = b.glyphs.last_mut() {
                        *g = Some(rest.to_string());
                    }
                    continue;
                }
                b.play(default_variant, rest, line);
            }
        }
    }
    if let Some(b) = current.take() {
        close(b, &mut out, last_line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_variants() {
        assert_eq!(result_token(None), "*");
        let tags = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(
            variant_of_tags(&tags(&[("GameType", "26,W,8,8,A0,0")])),
            Some(Ok(Variant::Brazilian))
        );
        assert_eq!(
            variant_of_tags(&tags(&[("GameType", "25"), ("Variant", "adiyukh-80")])),
            Some(Ok(Variant::Adiyukh80))
        );
        assert_eq!(
            variant_of_tags(&tags(&[("Variant", "Russian")])),
            Some(Ok(Variant::Russian))
        );
        assert!(matches!(
            variant_of_tags(&tags(&[("GameType", "20")])),
            Some(Err(_))
        ));
        assert_eq!(variant_of_tags(&tags(&[("Event", "x")])), None);
    }

    #[test]
    fn reads_the_usual_furniture() {
        let text = "\u{feff}% escape line\r\n[Event \"a \\\"b\\\"\"]\r\n[GameType \"25\"]\r\n\r\n\
            {intro\r\n comment} 1.c3-d4?! {one} (1. a3-b4 (1. e3-f4) b6-a5) 1... f6-e5 $2 ; line\r\n\
            2. d4xf6 g7:e5 ! 1/2-1/2 trailing";
        let games = read_games(text, Variant::Brazilian);
        assert_eq!(games.len(), 1, "{games:?}");
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.tag("Event"), Some("a \"b\""));
        assert_eq!(g.game.moves().len(), 4);
        assert_eq!(g.glyphs[0].as_deref(), Some("?!"));
        assert_eq!(g.glyphs[1].as_deref(), Some("$2"));
        assert_eq!(g.glyphs[3].as_deref(), Some("!"));
        assert_eq!(g.comments[0].as_deref(), Some("one"));
        assert_eq!(g.comments[1].as_deref(), Some("line"));
        assert_eq!(g.result, "1-1");
        assert!(g.intro.as_deref().unwrap().starts_with("intro"));
    }
}

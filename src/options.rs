//! The engine's options, declared once. [`TABLE`] gives each its name, kind
//! and range or choices, its unit, its Hub and CheckerBoard names, and where
//! its value lives in [`Options`] (whose `Default` is the defaults column).
//!
//! The front ends print their lists from the table (UCI `option` lines,
//! Hub `param` lines, CheckerBoard `get` answers) and read every value
//! through it ([`uci_set`], [`HubParam::set`], [`CbOption::set`]), each in
//! its own words for what it refuses. What is read is a typed [`Setting`]
//! that [`crate::engine::Engine::set`] applies with a typed setter, so no
//! front end writes a number for another part to read again.
//!
//! The table imports only what its values are made of (`input`'s ranges and
//! quoting, `variant`, `egdb`'s default folder and most pieces); the engine
//! imports it, never the other way: the front ends hand the engine's `set`
//! to the table as the `apply` argument.

use crate::egdb;
use crate::input::{quote, Range};
use crate::variant::Variant;
use std::fmt;

/// `Hash`: the transposition table's size in MiB (also `--hash`).
pub const HASH_MIB: Range = Range::new(1, 65_536);
/// `Threads`: search threads (also `--threads`).
pub const THREADS: Range = Range::new(1, 256);
/// `MultiPV`: best lines reported (also `analyse --multipv`).
pub const MULTIPV: Range = Range::new(1, 50);
/// `Move Overhead`: milliseconds charged per move for the client.
pub const MOVE_OVERHEAD_MS: Range = Range::new(0, 5_000);
/// `EGDB Pieces`: the most pieces probed in the endgame tables.
pub const EGDB_PIECES: Range = Range::new(0, egdb::index::MAX_PIECES as u64);
/// The `Move Overhead` option's default: the 90th percentile of what a
/// move cost outside the engine, measured through pydraughts' Hub client
/// two games at a time on a 2-core machine (median 1 ms, 90% 2-3 ms, 99%
/// 6 ms, the most 8 ms; `engine-tests/pydraughts_clock.py --overhead 0`).
/// Rarer, slower moves are what the reserve is for, and a slower client
/// is learned within two moves (see `crate::clock`).
pub const DEFAULT_OVERHEAD_MS: u64 = 3;

/// The engine's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub variant: Variant,
    pub hash_mib: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    /// `OwnBook`: play the shipped book's moves in timed games.
    pub own_book: bool,
    pub move_overhead_ms: u64,
    /// Path of a weights file (`Weights` option); empty = built-in weights.
    pub weights_file: String,
    /// Path of a pattern weights file (given through the `Weights` option);
    /// empty = the built-in patterns.
    pub patterns_file: String,
    /// `Eval`: the pattern evaluation (where the variant has patterns) or
    /// the hand-shaped one alone.
    pub eval: EvalKind,
    /// Folder of the endgame tables (`EGDB Path`): it holds a folder per
    /// variant, or is the variant's folder; empty = none.
    pub egdb_path: String,
    /// The most pieces probed (`EGDB Pieces`).
    pub egdb_pieces: u32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::Russian,
            hash_mib: 64,
            threads: 1,
            multipv: 1,
            ponder: false,
            own_book: true,
            move_overhead_ms: DEFAULT_OVERHEAD_MS,
            weights_file: String::new(),
            patterns_file: String::new(),
            eval: EvalKind::Patterns,
            egdb_path: egdb::default_base()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
            egdb_pieces: egdb::index::MAX_PIECES,
        }
    }
}

/// Which evaluation the engine plays with (`Eval` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// Hand-shaped terms plus learned patterns (built in for every variant,
    /// or loaded).
    Patterns,
    /// The hand-shaped terms alone.
    Hand,
}

impl EvalKind {
    /// Both, in the order the option lists them.
    pub const ALL: [EvalKind; 2] = [EvalKind::Patterns, EvalKind::Hand];

    /// The option's value.
    pub const fn name(self) -> &'static str {
        match self {
            EvalKind::Patterns => "patterns",
            EvalKind::Hand => "hand",
        }
    }
}

/// A value read by the table, typed, for [`crate::engine::Engine::set`]
/// (each in its option's range: the table read it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    Variant(Variant),
    /// MiB.
    Hash(usize),
    Threads(usize),
    MultiPv(usize),
    Ponder(bool),
    OwnBook(bool),
    /// Milliseconds.
    MoveOverhead(u64),
    /// A weights or pattern weights file; empty = the built-in weights.
    Weights(String),
    Eval(EvalKind),
    /// Empty = no tables.
    EgdbPath(String),
    EgdbPieces(u32),
}

/// Why the engine did not take a setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A search is running. The protocol servers hold their commands until
    /// it ends, so they do not meet this; the engine's other changes are
    /// refused with the same words.
    Busy,
    /// The option's own reason, without the option's name: `cannot read
    /// 'w.txt': ...`, `'/x' is not a folder`, what the system said of a
    /// table size.
    Failed(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Busy => {
                f.write_str("a search is running; wait for its result or send stop first")
            }
            Refusal::Failed(why) => f.write_str(why),
        }
    }
}

impl From<Refusal> for String {
    fn from(r: Refusal) -> String {
        r.to_string()
    }
}

/// What kind of value an option takes (UCI's types), and where the value
/// lives in [`Options`]: `get` reads it, `set` makes the [`Setting`] of a
/// value read.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `range`.
    Spin {
        range: Range,
        get: fn(&Options) -> u64,
        set: fn(u64) -> Setting,
    },
    /// `true` or `false`, in any case.
    Check {
        get: fn(&Options) -> bool,
        set: fn(bool) -> Setting,
    },
    /// One of `choices`, in any case (`set` gets its index). `noun`: what
    /// the choices name, for the messages (`unknown variant 'x'`); without
    /// one, `value 'x' is not a or b`.
    Combo {
        choices: &'static [&'static str],
        noun: Option<&'static str>,
        get: fn(&Options) -> &'static str,
        set: fn(usize) -> Setting,
    },
    /// Text, without the spaces around it. `empty` is the word that stands
    /// for no text (a UCI GUI cannot send an empty value), read and printed
    /// so.
    Text {
        empty: &'static str,
        get: fn(&Options) -> String,
        set: fn(String) -> Setting,
    },
}

/// `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// How a Hub parameter writes its option's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// As the option does.
    Same,
    /// Scan's `tt-size`: the log2 of the table's 16-byte entries, so
    /// 1 MiB = 16 and each step doubles the size.
    Log2Entries,
}

/// log2 of the 16-byte entries in a MiB.
const ENTRIES_PER_MIB_LOG2: u32 = 16;

impl Scale {
    /// The option's `range` in this scale.
    fn range(self, range: Range) -> Range {
        Range::new(self.in_hub(range.min), self.in_hub(range.max))
    }

    /// A number of the option, as the parameter writes it.
    fn in_hub(self, n: u64) -> u64 {
        match self {
            Scale::Same => n,
            Scale::Log2Entries => (ENTRIES_PER_MIB_LOG2 + n.max(1).ilog2()) as u64,
        }
    }

    /// A number of the parameter (in its range), as the option has it.
    fn of_hub(self, n: u64) -> u64 {
        match self {
            Scale::Same => n,
            Scale::Log2Entries => 1 << n.saturating_sub(ENTRIES_PER_MIB_LOG2 as u64),
        }
    }
}

/// An option's Hub parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hub {
    pub name: &'static str,
    pub scale: Scale,
}

/// One option.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The UCI name (read in any case).
    pub name: &'static str,
    pub kind: Kind,
    /// The unit of a number, for CheckerBoard's replies (`MiB`, `ms`).
    pub unit: &'static str,
    /// The Hub parameter, where there is one.
    pub hub: Option<Hub>,
    /// The CheckerBoard `get`/`set` name, where there is one.
    pub cb: Option<&'static str>,
}

/// The variants' ids, in [`Variant::ALL`]'s order.
const VARIANTS: [&str; Variant::ALL.len()] = {
    let mut ids = [""; Variant::ALL.len()];
    let mut i = 0;
    while i < ids.len() {
        ids[i] = Variant::ALL[i].id();
        i += 1;
    }
    ids
};

/// The evaluations' names, in [`EvalKind::ALL`]'s order.
const EVALS: [&str; EvalKind::ALL.len()] = [EvalKind::ALL[0].name(), EvalKind::ALL[1].name()];

/// The options, in the order UCI lists them.
pub static TABLE: [Opt; 11] = [
    Opt::combo(
        "Variant",
        &VARIANTS,
        |o| o.variant.id(),
        |i| Setting::Variant(Variant::ALL[i]),
    )
    .noun("variant")
    .hub("variant"),
    Opt::spin(
        "Hash",
        HASH_MIB,
        |o| o.hash_mib as u64,
        |n| Setting::Hash(n as usize),
    )
    .unit("MiB")
    .hub_in("tt-size", Scale::Log2Entries)
    .cb("hashsize"),
    Opt::spin(
        "Threads",
        THREADS,
        |o| o.threads as u64,
        |n| Setting::Threads(n as usize),
    )
    .hub("threads")
    .cb("searchthreads"),
    Opt::spin(
        "MultiPV",
        MULTIPV,
        |o| o.multipv as u64,
        |n| Setting::MultiPv(n as usize),
    ),
    Opt::check("Ponder", |o| o.ponder, Setting::Ponder).hub("ponder"),
    Opt::check("OwnBook", |o| o.own_book, Setting::OwnBook).hub("book"),
    Opt::spin(
        "Move Overhead",
        MOVE_OVERHEAD_MS,
        |o| o.move_overhead_ms,
        Setting::MoveOverhead,
    )
    .unit("ms")
    .hub("move-overhead")
    .cb("moveoverhead"),
    // The value is not shown: a weights text and pattern weights may both
    // be loaded (`Options::weights_file`, `patterns_file`).
    Opt::text("Weights", "<builtin>", |_| String::new(), Setting::Weights).hub("weights"),
    Opt::combo(
        "Eval",
        &EVALS,
        |o| o.eval.name(),
        |i| Setting::Eval(EvalKind::ALL[i]),
    )
    .hub("eval"),
    Opt::text(
        "EGDB Path",
        "<empty>",
        |o| o.egdb_path.clone(),
        Setting::EgdbPath,
    )
    .hub("egdb-path"),
    Opt::spin(
        "EGDB Pieces",
        EGDB_PIECES,
        |o| o.egdb_pieces as u64,
        |n| Setting::EgdbPieces(n as u32),
    )
    .hub("egdb-pieces"),
];

/// The table's rows: an option of each kind, then what it has besides.
impl Opt {
    const fn new(name: &'static str, kind: Kind) -> Opt {
        Opt {
            name,
            kind,
            unit: "",
            hub: None,
            cb: None,
        }
    }

    const fn spin(
        name: &'static str,
        range: Range,
        get: fn(&Options) -> u64,
        set: fn(u64) -> Setting,
    ) -> Opt {
        Opt::new(name, Kind::Spin { range, get, set })
    }

    const fn check(name: &'static str, get: fn(&Options) -> bool, set: fn(bool) -> Setting) -> Opt {
        Opt::new(name, Kind::Check { get, set })
    }

    const fn combo(
        name: &'static str,
        choices: &'static [&'static str],
        get: fn(&Options) -> &'static str,
        set: fn(usize) -> Setting,
    ) -> Opt {
        let noun = None;
        Opt::new(
            name,
            Kind::Combo {
                choices,
                noun,
                get,
                set,
            },
        )
    }

    const fn text(
        name: &'static str,
        empty: &'static str,
        get: fn(&Options) -> String,
        set: fn(String) -> Setting,
    ) -> Opt {
        Opt::new(name, Kind::Text { empty, get, set })
    }

    /// What a combo's choices name.
    const fn noun(mut self, noun: &'static str) -> Opt {
        if let Kind::Combo {
            choices, get, set, ..
        } = self.kind
        {
            let noun = Some(noun);
            self.kind = Kind::Combo {
                choices,
                noun,
                get,
                set,
            };
        }
        self
    }

    const fn unit(mut self, unit: &'static str) -> Opt {
        self.unit = unit;
        self
    }

    /// The Hub parameter, in the option's scale.
    const fn hub(self, name: &'static str) -> Opt {
        self.hub_in(name, Scale::Same)
    }

    const fn hub_in(mut self, name: &'static str, scale: Scale) -> Opt {
        self.hub = Some(Hub { name, scale });
        self
    }

    const fn cb(mut self, name: &'static str) -> Opt {
        self.cb = Some(name);
        self
    }
}

impl Opt {
    /// The setting of `text`, or `None` when it is not a value of the
    /// option. A number is read by `number` (each front end has its rule),
    /// a word in any case, text without the spaces around it.
    fn read(&self, text: &str, number: impl FnOnce(Range) -> Option<u64>) -> Option<Setting> {
        match self.kind {
            Kind::Spin { range, set, .. } => number(range).map(set),
            Kind::Check { set, .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Some(set(true)),
                "false" => Some(set(false)),
                _ => None,
            },
            Kind::Combo { choices, set, .. } => {
                let word = text.trim();
                choices
                    .iter()
                    .position(|c| c.eq_ignore_ascii_case(word))
                    .map(set)
            }
            Kind::Text { empty, set, .. } => {
                let t = text.trim();
                Some(set(if t == empty {
                    String::new()
                } else {
                    t.to_string()
                }))
            }
        }
    }

    /// The value in `o` as text (numbers without their unit, no text as
    /// nothing).
    fn value(&self, o: &Options) -> String {
        match self.kind {
            Kind::Spin { get, .. } => get(o).to_string(),
            Kind::Check { get, .. } => get(o).to_string(),
            Kind::Combo { get, .. } => get(o).to_string(),
            Kind::Text { get, .. } => get(o),
        }
    }

    /// `value` with the option's unit: `64 MiB`.
    fn with_unit(&self, value: &str) -> String {
        if self.unit.is_empty() {
            value.to_string()
        } else {
            format!("{value} {}", self.unit)
        }
    }

    /// What a value must be: `a whole number from 1 to 256` (a number in
    /// `scale`), `true or false`, `patterns or hand`, `text`.
    fn wanted(&self, scale: Scale) -> String {
        match self.kind {
            Kind::Spin { range, .. } => scale.range(range).describe(),
            Kind::Check { .. } => "true or false".into(),
            Kind::Combo { choices, .. } => or_list(choices),
            Kind::Text { .. } => "text".into(),
        }
    }

    // UCI

    /// The UCI `option` line, with the value in `o` as its default.
    pub fn uci_line(&self, o: &Options) -> String {
        let name = self.name;
        match self.kind {
            Kind::Spin { range, get, .. } => format!(
                "option name {name} type spin default {} min {} max {}",
                get(o),
                range.min,
                range.max
            ),
            Kind::Check { get, .. } => format!("option name {name} type check default {}", get(o)),
            Kind::Combo { choices, get, .. } => {
                let vars: Vec<String> = choices.iter().map(|c| format!("var {c}")).collect();
                format!(
                    "option name {name} type combo default {} {}",
                    get(o),
                    vars.join(" ")
                )
            }
            Kind::Text { empty, get, .. } => {
                let v = get(o);
                let shown = if v.is_empty() { empty } else { &v };
                format!("option name {name} type string default {shown}")
            }
        }
    }

    /// UCI's refusal of `value` (as given; a number's message names the
    /// option as the user wrote it, `typed`).
    fn uci_bad(&self, typed: &str, value: &str) -> String {
        match self.kind {
            Kind::Spin { range, .. } => format!(
                "option {typed}: value '{value}' is not a number from {} to {}",
                range.min, range.max
            ),
            // As `Variant`'s own error (`crate::variant::UnknownVariant`).
            Kind::Combo {
                choices,
                noun: Some(noun),
                ..
            } => format!(
                "option {}: unknown {noun} '{value}' (expected one of: {})",
                self.name,
                choices.join(", ")
            ),
            _ => format!(
                "option {}: value '{value}' is not {}",
                self.name,
                self.wanted(Scale::Same)
            ),
        }
    }

    /// UCI's words for the engine's refusal.
    fn uci_refused(&self, r: &Refusal) -> String {
        match r {
            Refusal::Busy => r.to_string(),
            Refusal::Failed(why) => format!("option {}: {why}", self.name),
        }
    }
}

/// The UCI `option` lines, with the values in `o` as the defaults.
pub fn uci_lines(o: &Options) -> Vec<String> {
    TABLE.iter().map(|opt| opt.uci_line(o)).collect()
}

/// UCI `setoption name <name> value <value>`: the option named (in any
/// case) reads the value and `apply` takes the setting; the error is the
/// reply. A number is what Rust reads as one (a `+` first is taken, as it
/// always was here; the Hub and CheckerBoard take digits only).
pub fn uci_set(
    name: &str,
    value: &str,
    apply: impl FnOnce(Setting) -> Result<(), Refusal>,
) -> Result<(), String> {
    let name = name.trim();
    let opt = TABLE
        .iter()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("unknown option '{name}'"))?;
    let value = value.trim();
    let setting = opt
        .read(value, |range| {
            value.parse::<u64>().ok().filter(|&n| range.contains(n))
        })
        .ok_or_else(|| opt.uci_bad(name, value))?;
    apply(setting).map_err(|r| opt.uci_refused(&r))
}

/// An option as a Hub parameter.
#[derive(Clone, Copy, Debug)]
pub struct HubParam {
    opt: &'static Opt,
    hub: Hub,
}

/// The option whose Hub parameter is `name` (in any case).
pub fn hub_param(name: &str) -> Option<HubParam> {
    TABLE.iter().find_map(|opt| {
        opt.hub
            .filter(|h| h.name.eq_ignore_ascii_case(name))
            .map(|hub| HubParam { opt, hub })
    })
}

/// Every option's Hub parameter, in the table's order.
pub fn hub_params() -> impl Iterator<Item = HubParam> {
    TABLE
        .iter()
        .filter_map(|opt| opt.hub.map(|hub| HubParam { opt, hub }))
}

impl HubParam {
    pub fn name(&self) -> &'static str {
        self.hub.name
    }

    /// The `param` line with the value in `o`; `quote` writes a value as
    /// the Hub protocol does.
    pub fn line(&self, o: &Options, quote: impl Fn(&str) -> String) -> String {
        let name = self.hub.name;
        match self.opt.kind {
            Kind::Spin { range, get, .. } => {
                let r = self.hub.scale.range(range);
                format!(
                    "param name={name} value={} type=int min={} max={}",
                    self.hub.scale.in_hub(get(o)),
                    r.min,
                    r.max
                )
            }
            Kind::Check { get, .. } => format!("param name={name} value={} type=bool", get(o)),
            Kind::Combo { choices, get, .. } => format!(
                "param name={name} value={} type=enum values={}",
                quote(get(o)),
                quote(&choices.join(" "))
            ),
            Kind::Text { get, .. } => {
                format!("param name={name} value={} type=string", quote(&get(o)))
            }
        }
    }

    /// `set-param name=<name> value=<value>`: the parameter reads the value
    /// (a number: digits only, in the parameter's scale) and `apply` takes
    /// the setting; the error is the reply.
    pub fn set(
        &self,
        value: &str,
        apply: impl FnOnce(Setting) -> Result<(), Refusal>,
    ) -> Result<(), String> {
        let (name, scale) = (self.hub.name, self.hub.scale);
        let mut read = None;
        let setting = self
            .opt
            .read(value, |range| {
                read = scale.range(range).parse(value).ok();
                read.map(|n| scale.of_hub(n))
            })
            .ok_or_else(|| self.bad(value))?;
        apply(setting).map_err(|r| match (&r, read) {
            (Refusal::Busy, _) => r.to_string(),
            // The option's words are in its unit: say which value it was.
            (Refusal::Failed(_), Some(n)) if scale != Scale::Same => {
                format!("set-param {name} {n}: {}", self.opt.uci_refused(&r))
            }
            (Refusal::Failed(why), _) => format!("set-param {name}: {why}"),
        })
    }

    /// The Hub's refusal of `value`.
    fn bad(&self, value: &str) -> String {
        let name = self.hub.name;
        let wanted = self.opt.wanted(self.hub.scale);
        match self.opt.kind {
            Kind::Combo {
                choices,
                noun: Some(noun),
                ..
            } => format!(
                "set-param {name}: unknown {noun} '{}' (expected {})",
                quote(value),
                or_list(choices)
            ),
            Kind::Combo { noun: None, .. } => {
                format!("set-param {name}: value '{}' is not {wanted}", value.trim())
            }
            _ => format!("set-param {name}: '{}' is not {wanted}", quote(value)),
        }
    }
}

/// An option as CheckerBoard's `get`/`set` name it.
#[derive(Clone, Copy, Debug)]
pub struct CbOption {
    opt: &'static Opt,
    name: &'static str,
}

/// The option CheckerBoard calls `name` (in any case).
pub fn cb_option(name: &str) -> Option<CbOption> {
    TABLE.iter().find_map(|opt| {
        opt.cb
            .filter(|n| n.eq_ignore_ascii_case(name))
            .map(|name| CbOption { opt, name })
    })
}

impl CbOption {
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The answer to `get <name>`: the value in `o` (a number without its
    /// unit).
    pub fn get(&self, o: &Options) -> String {
        self.opt.value(o)
    }

    /// `set <name> <text>` with the options `o` in force: the option reads
    /// the text (a number: digits only) and `apply` takes the setting. The
    /// reply (`hashsize 16 MiB`), or the refusal, which names the value
    /// that stays.
    pub fn set(
        &self,
        text: &str,
        o: &Options,
        apply: impl FnOnce(Setting) -> Result<(), Refusal>,
    ) -> Result<String, String> {
        let name = self.name;
        let stays = format!("{name} stays {}", self.opt.with_unit(&self.opt.value(o)));
        let mut read = None;
        let setting = self
            .opt
            .read(text, |range| {
                read = range.parse(text).ok();
                read
            })
            .ok_or_else(|| {
                format!(
                    "{name} '{}' is not {}; {stays}",
                    quote(text),
                    self.opt.wanted(Scale::Same)
                )
            })?;
        apply(setting).map_err(|r| format!("{stays}: {}", self.opt.uci_refused(&r)))?;
        let shown = read.map_or_else(|| text.trim().to_string(), |n| n.to_string());
        Ok(format!("{name} {}", self.opt.with_unit(&shown)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Options as the tests print them: the defaults, with a folder named
    /// (the default folder comes from the environment).
    fn options() -> Options {
        Options {
            egdb_path: "/data/egdb".into(),
            ..Options::default()
        }
    }

    /// A Hub writer's quoting (`hub::value_text`'s rule, for the lines
    /// here): bare when a plain name, else in double quotes.
    fn hub_quote(v: &str) -> String {
        let plain = v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'));
        if !v.is_empty() && plain {
            v.to_string()
        } else {
            format!("\"{v}\"")
        }
    }

    /// Applies nothing, refuses nothing.
    fn take(_: Setting) -> Result<(), Refusal> {
        Ok(())
    }

    #[test]
    fn every_option_is_printed_in_each_of_its_forms() {
        let o = options();
        assert_eq!(
            uci_lines(&o),
            [
                "option name Variant type combo default russian var russian var brazilian var adiyukh-64 var adiyukh-80",
                "option name Hash type spin default 64 min 1 max 65536",
                "option name Threads type spin default 1 min 1 max 256",
                "option name MultiPV type spin default 1 min 1 max 50",
                "option name Ponder type check default false",
                "option name OwnBook type check default true",
                "option name Move Overhead type spin default 3 min 0 max 5000",
                "option name Weights type string default <builtin>",
                "option name Eval type combo default patterns var patterns var hand",
                "option name EGDB Path type string default /data/egdb",
                "option name EGDB Pieces type spin default 8 min 0 max 8",
            ]
        );
        let empty = Options {
            egdb_path: String::new(),
            ..options()
        };
        assert_eq!(
            TABLE[9].uci_line(&empty),
            "option name EGDB Path type string default <empty>"
        );
        let hub: Vec<String> = hub_params().map(|p| p.line(&o, hub_quote)).collect();
        assert_eq!(
            hub,
            [
                "param name=variant value=russian type=enum values=\"russian brazilian adiyukh-64 adiyukh-80\"",
                "param name=tt-size value=22 type=int min=16 max=32",
                "param name=threads value=1 type=int min=1 max=256",
                "param name=ponder value=false type=bool",
                "param name=book value=true type=bool",
                "param name=move-overhead value=3 type=int min=0 max=5000",
                "param name=weights value=\"\" type=string",
                "param name=eval value=patterns type=enum values=\"patterns hand\"",
                "param name=egdb-path value=/data/egdb type=string",
                "param name=egdb-pieces value=8 type=int min=0 max=8",
            ]
        );
        let cb: Vec<(&str, String)> = TABLE
            .iter()
            .filter_map(|opt| opt.cb)
            .map(|name| (name, cb_option(name).unwrap().get(&o)))
            .collect();
        assert_eq!(
            cb,
            [
                ("hashsize", "64".to_string()),
                ("searchthreads", "1".to_string()),
                ("moveoverhead", "3".to_string()),
            ]
        );
        // Every name once in each form.
        let uci: Vec<String> = TABLE.iter().map(|o| o.name.to_lowercase()).collect();
        let hub: Vec<&str> = hub_params().map(|p| p.name()).collect();
        for names in [uci.iter().map(String::as_str).collect(), hub] {
            let mut sorted = names.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), names.len(), "{names:?}");
        }
    }

    #[test]
    fn each_form_reads_a_value_into_its_typed_setting() {
        let read = |name: &str, value: &str| {
            let mut got = None;
            uci_set(name, value, |s| {
                got = Some(s);
                Ok(())
            })
            .map(|()| got.unwrap())
        };
        assert_eq!(read("hash", "16"), Ok(Setting::Hash(16)));
        assert_eq!(
            read("Variant", "Brazilian"),
            Ok(Setting::Variant(Variant::Brazilian))
        );
        assert_eq!(read("PONDER", "TRUE"), Ok(Setting::Ponder(true)));
        assert_eq!(read("Eval", "hand"), Ok(Setting::Eval(EvalKind::Hand)));
        assert_eq!(
            read("Weights", "<builtin>"),
            Ok(Setting::Weights(String::new()))
        );
        assert_eq!(
            read("EGDB Path", "<empty>"),
            Ok(Setting::EgdbPath(String::new()))
        );
        assert_eq!(read("EGDB Path", "/x"), Ok(Setting::EgdbPath("/x".into())));
        assert_eq!(read("move overhead", "0"), Ok(Setting::MoveOverhead(0)));
        // The Hub's tt-size is the log2 of 16-byte entries: 18 = 4 MiB.
        let mut got = None;
        hub_param("TT-Size")
            .unwrap()
            .set("18", |s| {
                got = Some(s);
                Ok(())
            })
            .unwrap();
        assert_eq!(got, Some(Setting::Hash(4)));
        let mut got = None;
        let reply = cb_option("SearchThreads")
            .unwrap()
            .set("2", &options(), |s| {
                got = Some(s);
                Ok(())
            });
        assert_eq!(reply.as_deref(), Ok("searchthreads 2"));
        assert_eq!(got, Some(Setting::Threads(2)));
        let reply = cb_option("hashsize").unwrap().set("16", &options(), take);
        assert_eq!(reply.as_deref(), Ok("hashsize 16 MiB"));
        let reply = cb_option("moveoverhead")
            .unwrap()
            .set("7", &options(), take);
        assert_eq!(reply.as_deref(), Ok("moveoverhead 7 ms"));
        assert!(hub_param("hash").is_none() && cb_option("Hash").is_none());
    }

    #[test]
    fn a_value_out_of_range_is_refused_by_the_table_in_each_forms_words() {
        let o = options();
        let never = |_: Setting| -> Result<(), Refusal> { panic!("a refused value is applied") };
        for (name, value, want) in [
            ("Hash", "0", "option Hash: value '0' is not a number from 1 to 65536"),
            ("hash", "lots", "option hash: value 'lots' is not a number from 1 to 65536"),
            ("Threads", "257", "option Threads: value '257' is not a number from 1 to 256"),
            ("MultiPV", "51", "option MultiPV: value '51' is not a number from 1 to 50"),
            (
                "Move Overhead",
                "5001",
                "option Move Overhead: value '5001' is not a number from 0 to 5000",
            ),
            ("EGDB Pieces", "9", "option EGDB Pieces: value '9' is not a number from 0 to 8"),
            ("Ponder", "maybe", "option Ponder: value 'maybe' is not true or false"),
            ("Eval", "neural", "option Eval: value 'neural' is not patterns or hand"),
            (
                "Variant",
                "chess",
                "option Variant: unknown variant 'chess' (expected one of: russian, brazilian, adiyukh-64, adiyukh-80)",
            ),
            ("Colour", "red", "unknown option 'Colour'"),
        ] {
            assert_eq!(uci_set(name, value, never), Err(want.to_string()), "{name}");
        }
        // The Variant message is the variant's own.
        let own = "chess".parse::<Variant>().unwrap_err().to_string();
        assert_eq!(
            uci_set("Variant", "chess", never),
            Err(format!("option Variant: {own}"))
        );
        for (name, value, want) in [
            ("threads", "0", "set-param threads: '0' is not a whole number from 1 to 256"),
            ("threads", "+2", "set-param threads: '+2' is not a whole number from 1 to 256"),
            ("tt-size", "15", "set-param tt-size: '15' is not a whole number from 16 to 32"),
            ("tt-size", "33", "set-param tt-size: '33' is not a whole number from 16 to 32"),
            (
                "move-overhead",
                "5001",
                "set-param move-overhead: '5001' is not a whole number from 0 to 5000",
            ),
            ("egdb-pieces", "-1", "set-param egdb-pieces: '-1' is not a whole number from 0 to 8"),
            ("ponder", "maybe", "set-param ponder: 'maybe' is not true or false"),
            ("eval", "neural", "set-param eval: value 'neural' is not patterns or hand"),
            (
                "variant",
                "chess",
                "set-param variant: unknown variant 'chess' (expected russian, brazilian, adiyukh-64 or adiyukh-80)",
            ),
        ] {
            let p = hub_param(name).unwrap();
            assert_eq!(p.set(value, never), Err(want.to_string()), "{name}");
        }
        for (name, value, want) in [
            (
                "hashsize",
                "100000",
                "hashsize '100000' is not a whole number from 1 to 65536; hashsize stays 64 MiB",
            ),
            (
                "searchthreads",
                "0",
                "searchthreads '0' is not a whole number from 1 to 256; searchthreads stays 1",
            ),
            (
                "moveoverhead",
                "9999",
                "moveoverhead '9999' is not a whole number from 0 to 5000; moveoverhead stays 3 ms",
            ),
        ] {
            let c = cb_option(name).unwrap();
            assert_eq!(c.set(value, &o, never), Err(want.to_string()), "{name}");
        }
        // UCI reads a number as Rust does; the Hub and CheckerBoard digits only.
        assert!(uci_set("Hash", "+5", take).is_ok());
        assert!(cb_option("hashsize").unwrap().set("+5", &o, take).is_err());
    }

    #[test]
    fn the_engines_refusals_in_each_forms_words() {
        let o = options();
        let fail = |_: Setting| -> Result<(), Refusal> { Err(Refusal::Failed("no memory".into())) };
        let busy = |_: Setting| -> Result<(), Refusal> { Err(Refusal::Busy) };
        assert_eq!(
            uci_set("hash", "2", fail),
            Err("option Hash: no memory".into())
        );
        assert_eq!(uci_set("Hash", "2", busy), Err(Refusal::Busy.to_string()));
        let tt = hub_param("tt-size").unwrap();
        assert_eq!(
            tt.set("18", fail),
            Err("set-param tt-size 18: option Hash: no memory".into())
        );
        let path = hub_param("egdb-path").unwrap();
        assert_eq!(
            path.set("/x", fail),
            Err("set-param egdb-path: no memory".into())
        );
        assert_eq!(path.set("/x", busy), Err(Refusal::Busy.to_string()));
        let hash = cb_option("hashsize").unwrap();
        assert_eq!(
            hash.set("2", &o, fail),
            Err("hashsize stays 64 MiB: option Hash: no memory".into())
        );
    }

    #[test]
    fn the_choices_are_the_variants_and_evaluations() {
        let ids: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        assert_eq!(VARIANTS.to_vec(), ids);
        assert_eq!(EVALS, ["patterns", "hand"]);
        assert_eq!(or_list(&["a"]), "a");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
        // tt-size 16..32 is 1 MiB .. 64 GiB, the Hash option's range.
        let s = Scale::Log2Entries;
        assert_eq!(s.range(HASH_MIB), Range::new(16, 32));
        assert_eq!((s.of_hub(16), s.of_hub(32)), (1, 65_536));
        assert_eq!((s.in_hub(64), s.in_hub(100)), (22, 22));
    }
}

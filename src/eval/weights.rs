//! The evaluation parameters, one [`Weights`] value per variant, as plain
//! integers so a tuner can read and rewrite them.
//!
//! One struct serves every variant. The men-and-kings terms (Russian,
//! Brazilian) are in centi-men (a man = 100); the tower terms (Adiyukh) are in
//! hundredths of a point of the final count. A variant leaves the other
//! family's fields at 0 and [`crate::eval`] never reads them.
//!
//! [`Weights::names`], [`Weights::to_vec`] and [`Weights::from_slice`] are
//! generated from the same field list, so they always agree. The built-in
//! values live in `weights/<variant>.txt` (the text of [`Weights::to_text`]),
//! compiled in and parsed once.
//!
//! ```
//! use shashki::{eval::weights::Weights, Variant};
//! let w = Weights::for_variant(Variant::Russian);
//! assert_eq!(Weights::names().len(), w.to_vec().len());
//! let back = Weights::from_slice(&w.to_vec()).unwrap();
//! assert_eq!(back.to_vec(), w.to_vec());
//! assert!(back.patterns.is_none()); // the integers only
//! ```

use crate::eval::patterns::Patterns;
use crate::variant::Variant;
use once_cell::sync::Lazy;
use std::sync::Arc;

macro_rules! weights {
    ($( $(#[doc = $doc:expr])+ $name:ident, )+) => {
        /// All evaluation parameters of one variant.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Weights {
            $( $(#[doc = $doc])+ pub $name: i32, )+
            /// Learned pattern weights (Russian, Brazilian), added to the
            /// hand-shaped terms; `None`: the hand-shaped evaluation alone.
            /// Not one of the integer parameters ([`Weights::names`]).
            pub patterns: Option<Arc<Patterns>>,
        }

        const NAMES: &[&str] = &[$(stringify!($name)),+];

        impl Weights {
            /// The field names, in the order of [`Weights::to_vec`].
            pub fn names() -> &'static [&'static str] {
                NAMES
            }

            /// The parameters as a vector, in the order of [`Weights::names`].
            pub fn to_vec(&self) -> Vec<i32> {
                vec![$(self.$name),+]
            }

            /// The inverse of [`Weights::to_vec`]; `None` if the length is wrong.
            pub fn from_slice(v: &[i32]) -> Option<Weights> {
                if v.len() != NAMES.len() {
                    return None;
                }
                let mut it = v.iter().copied();
                Some(Weights { $($name: it.next()?,)+ patterns: None })
            }
        }
    };
}

weights! {
    // ---- Russian / Brazilian (centi-men) ----
    /// A man (the unit: 100).
    man,
    /// A king.
    king,
    /// Bonus of a man on its 2nd rank (counted from its own side).
    adv_rank2,
    /// ... on its 3rd rank.
    adv_rank3,
    /// ... on its 4th rank.
    adv_rank4,
    /// ... on its 5th rank.
    adv_rank5,
    /// ... on its 6th rank.
    adv_rank6,
    /// ... on its 7th rank (one step from the crown).
    adv_rank7,
    /// A man in the centre, the squares c3-f6 (c3 e3 d4 f4 c5 e5 d6 f6).
    center,
    /// A man still on its back rank, with all 24 pieces on the board
    /// (scaled down linearly as pieces come off).
    back_guard,
    /// Extra for a back-rank man on the two key squares (c1, e1 for White;
    /// f8, d8 for Black), scaled like `back_guard`.
    back_guard_key,
    /// Penalty per man of difference between the a-d and e-h flanks.
    balance,
    /// A runaway man one step from the crown (no enemy piece in its forward
    /// cone, no enemy king).
    runaway,
    /// What a runaway loses per further step it needs.
    runaway_step,
    /// A king, per empty square it can slide to.
    king_mobility,
    /// A king on the main road a1-h8.
    main_road,
    /// Trading down when ahead: percent of the material lead added on an
    /// empty board (scaled linearly with the pieces that came off).
    trade_down,
    /// Drawn king endings (a lone king against two pieces, or against three
    /// while holding the main road; kings only with a lead under two): the
    /// score is multiplied by this / 16.
    drawish_scale,

    // ---- Adiyukh (hundredths of a point) ----
    /// A checker counted on the scoring half (difference of the two counts).
    half_count,
    /// An enemy checker held under one of my towers.
    prisoner,
    /// An own checker beyond the top one (a tower survives more captures).
    own_extra,
    /// Per prisoner in a tower topped by one own checker only (one capture
    /// turns it over).
    fragile,
    /// A checker in my tower on my 1st rank that has a free forward step.
    advance_rank1,
    /// ... on my 2nd rank.
    advance_rank2,
    /// ... on my 3rd rank.
    advance_rank3,
    /// ... on my 4th rank (one step from the opponent's half).
    advance_rank4,
    /// A checker in my tower on my own half with no free forward step.
    blocked,
    /// A king (a tower on its promotion rank).
    king_tower,
    /// Per checker in a king tower.
    king_checker,
    /// Per quiet move.
    mobility,
    /// A side with no quiet move.
    no_moves,
    /// A side with exactly one quiet move.
    one_move,
}

/// The index of each parameter in [`Weights::names`] / [`Weights::to_vec`],
/// checked at compile time.
pub mod param {
    use super::NAMES;

    const fn index(name: &str) -> usize {
        let mut i = 0;
        while i < NAMES.len() {
            let (a, b) = (NAMES[i].as_bytes(), name.as_bytes());
            if a.len() == b.len() {
                let mut j = 0;
                while j < a.len() && a[j] == b[j] {
                    j += 1;
                }
                if j == a.len() {
                    return i;
                }
            }
            i += 1;
        }
        panic!("no such parameter")
    }

    pub const MAN: usize = index("man");
    pub const KING: usize = index("king");
    /// `adv_rank2` .. `adv_rank7` follow in order.
    pub const ADV_RANK2: usize = index("adv_rank2");
    pub const CENTER: usize = index("center");
    pub const BACK_GUARD: usize = index("back_guard");
    pub const BACK_GUARD_KEY: usize = index("back_guard_key");
    pub const BALANCE: usize = index("balance");
    pub const RUNAWAY: usize = index("runaway");
    pub const RUNAWAY_STEP: usize = index("runaway_step");
    pub const KING_MOBILITY: usize = index("king_mobility");
    pub const MAIN_ROAD: usize = index("main_road");
    pub const TRADE_DOWN: usize = index("trade_down");
    pub const DRAWISH_SCALE: usize = index("drawish_scale");
    pub const HALF_COUNT: usize = index("half_count");
    pub const PRISONER: usize = index("prisoner");
    pub const OWN_EXTRA: usize = index("own_extra");
    pub const FRAGILE: usize = index("fragile");
    /// `advance_rank1` .. `advance_rank4` follow in order.
    pub const ADVANCE_RANK1: usize = index("advance_rank1");
    pub const BLOCKED: usize = index("blocked");
    pub const KING_TOWER: usize = index("king_tower");
    pub const KING_CHECKER: usize = index("king_checker");
    pub const MOBILITY: usize = index("mobility");
    pub const NO_MOVES: usize = index("no_moves");
    pub const ONE_MOVE: usize = index("one_move");

    const _: () = assert!(index("adv_rank7") == ADV_RANK2 + 5);
    const _: () = assert!(index("advance_rank4") == ADVANCE_RANK1 + 3);
}

/// The compiled-in weights files (`weights/<variant>.txt` in the repository,
/// the format of [`Weights::to_text`]), in the order of [`Variant::ALL`]. The
/// tuner (`tuning/`) writes files of this format; copying one over the
/// variant's file changes the engine's built-in weights at the next build.
const EMBEDDED: [(Variant, &str); 4] = [
    (Variant::Russian, include_str!("../../weights/russian.txt")),
    (
        Variant::Brazilian,
        include_str!("../../weights/brazilian.txt"),
    ),
    (
        Variant::Adiyukh64,
        include_str!("../../weights/adiyukh-64.txt"),
    ),
    (
        Variant::Adiyukh80,
        include_str!("../../weights/adiyukh-80.txt"),
    ),
];

/// The compiled-in pattern weights (`weights/<variant>-patterns.bin`, the
/// format of [`Patterns::to_bytes`]), every variant.
const EMBEDDED_PATTERNS: [(Variant, &[u8]); 4] = [
    (
        Variant::Russian,
        include_bytes!("../../weights/russian-patterns.bin"),
    ),
    (
        Variant::Brazilian,
        include_bytes!("../../weights/brazilian-patterns.bin"),
    ),
    (
        Variant::Adiyukh64,
        include_bytes!("../../weights/adiyukh-64-patterns.bin"),
    ),
    (
        Variant::Adiyukh80,
        include_bytes!("../../weights/adiyukh-80-patterns.bin"),
    ),
];

/// The embedded files, parsed once. Each must name its variant and give
/// every parameter (a unit test checks this, so a bad file fails the tests
/// rather than a game).
static BUILT_IN: Lazy<[Weights; 4]> = Lazy::new(|| {
    EMBEDDED.map(|(v, text)| {
        let mut w = match parse_text(text, None) {
            Ok((file_v, w)) if file_v == v => w,
            Ok((file_v, _)) => panic!("weights/{}.txt names the variant {file_v}", v.id()),
            Err(e) => panic!("weights/{}.txt: {e}", v.id()),
        };
        if let Some((_, bytes)) = EMBEDDED_PATTERNS.iter().find(|(pv, _)| *pv == v) {
            match Patterns::from_bytes(bytes, Some(v)) {
                Ok(p) => w.patterns = Some(Arc::new(p)),
                Err(e) => panic!("weights/{}-patterns.bin: {e}", v.id()),
            }
        }
        w
    })
});

impl Weights {
    /// The built-in weights of `v` (from `weights/<variant>.txt`, and the
    /// pattern weights of `weights/<variant>-patterns.bin` where there are
    /// any).
    #[inline]
    pub fn for_variant(v: Variant) -> &'static Weights {
        let i = match v {
            Variant::Russian => 0,
            Variant::Brazilian => 1,
            Variant::Adiyukh64 => 2,
            Variant::Adiyukh80 => 3,
        };
        &BUILT_IN[i]
    }
}

/// A weights file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsError(pub String);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightsError {}

impl Weights {
    /// The weights as a text file: a `variant <id>` line, then one
    /// `<name> <value>` line per parameter (`#` starts a comment).
    ///
    /// ```
    /// use shashki::{eval::weights::Weights, Variant};
    /// let w = Weights::for_variant(Variant::Adiyukh80);
    /// let text = w.to_text(Variant::Adiyukh80);
    /// let (v, back) = Weights::parse(&text).unwrap();
    /// assert_eq!((v, back.to_vec()), (Variant::Adiyukh80, w.to_vec()));
    /// assert!(back.patterns.is_none()); // the text holds the integers only
    /// ```
    pub fn to_text(&self, variant: Variant) -> String {
        let mut out = format!("variant {}\n", variant.id());
        for (name, value) in NAMES.iter().zip(self.to_vec()) {
            out.push_str(&format!("{name} {value}\n"));
        }
        out
    }

    /// Read the text of [`Weights::to_text`]: the hand-shaped parameters
    /// (the result has no pattern weights). Parameters the file leaves out
    /// keep the variant's built-in values; an unknown name, a repeated name,
    /// a missing `variant` line or a value that is not an integer is an
    /// error naming the line.
    pub fn parse(text: &str) -> Result<(Variant, Weights), WeightsError> {
        parse_text(text, Some(Weights::for_variant))
    }
}

/// Parse weights text; parameters left out take the values of `defaults`
/// (or, without it, are an error: the embedded files name everything).
fn parse_text(
    text: &str,
    defaults: Option<fn(Variant) -> &'static Weights>,
) -> Result<(Variant, Weights), WeightsError> {
    let err = |line: usize, msg: String| WeightsError(format!("weights line {line}: {msg}"));
    let mut variant = None;
    let mut values: Vec<Option<i32>> = vec![None; NAMES.len()];
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(err(
                i + 1,
                format!("expected '<name> <value>', found '{line}'"),
            ));
        };
        if name == "variant" {
            if variant.is_some() {
                return Err(err(i + 1, "a second 'variant' line".into()));
            }
            variant = Some(
                value
                    .parse::<Variant>()
                    .map_err(|e| err(i + 1, e.to_string()))?,
            );
            continue;
        }
        let Some(k) = NAMES.iter().position(|n| *n == name) else {
            return Err(err(i + 1, format!("unknown parameter '{name}'")));
        };
        if values[k].is_some() {
            return Err(err(i + 1, format!("'{name}' given twice")));
        }
        values[k] = Some(
            value
                .parse::<i32>()
                .map_err(|_| err(i + 1, format!("'{value}' is not an integer")))?,
        );
    }
    let variant =
        variant.ok_or_else(|| WeightsError("weights file has no 'variant <id>' line".into()))?;
    let mut v = match defaults {
        Some(d) => d(variant).to_vec(),
        None => vec![0; NAMES.len()],
    };
    for (k, (slot, value)) in v.iter_mut().zip(values).enumerate() {
        match value {
            Some(x) => *slot = x,
            None if defaults.is_none() => {
                return Err(WeightsError(format!(
                    "weights file leaves out '{}'",
                    NAMES[k]
                )))
            }
            None => {}
        }
    }
    let w = Weights::from_slice(&v).expect("same length");
    Ok((variant, w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_defaults() {
        for v in Variant::ALL {
            let w = Weights::for_variant(v);
            let (pv, pw) = Weights::parse(&w.to_text(v)).unwrap();
            assert_eq!((pv, pw.to_vec()), (v, w.to_vec()));
        }
        let (v, w) = Weights::parse("# tuned\nvariant brazilian\nman 90 # comment\n\n").unwrap();
        assert_eq!(v, Variant::Brazilian);
        assert_eq!(w.man, 90);
        assert_eq!(w.king, Weights::for_variant(Variant::Brazilian).king);
    }

    #[test]
    fn every_embedded_file_parses_and_names_its_variant() {
        for (v, text) in EMBEDDED {
            let (file_v, w) = parse_text(text, None).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(file_v, v);
            assert_eq!(Weights::for_variant(v).to_vec(), w.to_vec());
        }
        // Every variant has pattern weights built in, of its own variant.
        for v in Variant::ALL {
            let p = Weights::for_variant(v).patterns.as_ref().expect("patterns");
            assert_eq!(p.variant(), v);
        }
        let ids: Vec<Variant> = EMBEDDED.iter().map(|e| e.0).collect();
        assert_eq!(ids, Variant::ALL.to_vec());
        // Without defaults, a parameter left out is an error.
        let e = parse_text("variant russian\nman 100\n", None).unwrap_err();
        assert!(e.to_string().contains("leaves out 'king'"), "{e}");
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("man 100\n", "no 'variant <id>' line"),
            (
                "variant russian\nmann 3\n",
                "line 2: unknown parameter 'mann'",
            ),
            ("variant russian\nman x\n", "line 2: 'x' is not an integer"),
            (
                "variant russian\nman 1\nman 2\n",
                "line 3: 'man' given twice",
            ),
            ("variant checkers\n", "line 1:"),
            (
                "variant russian\nman 1 2\n",
                "line 2: expected '<name> <value>'",
            ),
            (
                "variant russian\nvariant russian\n",
                "line 2: a second 'variant' line",
            ),
        ];
        for (text, want) in cases {
            let e = Weights::parse(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }
}

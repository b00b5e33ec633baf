//! The four variants and the rule flags the one move generator reads.
//!
//! ```
//! use shashki::variant::{Variant, CaptureChoice};
//! let v: Variant = "brazilian".parse().unwrap();
//! assert_eq!(v.rules().capture_choice, CaptureChoice::Majority);
//! assert!("checkers".parse::<Variant>().is_err());
//! ```

use crate::board::Geometry;
use std::fmt;
use std::str::FromStr;

/// A game the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Russian draughts (also the Lithuanian and Ukrainian 64-square rules).
    Russian,
    /// International rules on the 8x8 board.
    Brazilian,
    /// Adiyukh tower draughts on 8x8.
    Adiyukh64,
    /// Adiyukh tower draughts on 8 ranks x 10 files.
    Adiyukh80,
}

/// Which captures may be chosen when several exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    /// Any capture (Russian, Adiyukh).
    Free,
    /// Only the sequences taking the most pieces (Brazilian).
    Majority,
}

/// When a man that reaches its promotion rank during a capture is crowned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// At once, continuing the capture as a king (Russian, Adiyukh).
    MidCapture,
    /// Only when the move ends there (Brazilian).
    EndOfMove,
}

/// What a capture does to the pieces it jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Removal {
    /// "Turkish strike": jumped pieces stay (and block) until the move ends,
    /// and cannot be jumped twice (Russian, Brazilian).
    Deferred,
    /// The top checker of the jumped tower goes under the capturer at once;
    /// the rest of the tower may be jumped again (Adiyukh).
    ImmediateTop,
}

/// How the end of the game is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// The side to move with no move loses.
    NoMoveLoses,
    /// The game ends when the side to move has no move; each side scores the
    /// checkers on the opponent's half.
    HalfBoardCount,
}

/// The rule flags of a variant, all in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleFlags {
    pub capture_choice: CaptureChoice,
    pub promotion: Promotion,
    pub removal: Removal,
    /// Pieces are towers `(owner, own, other)`; king status is positional.
    pub towers: bool,
    /// Kings may make quiet (non-capturing) moves.
    pub king_quiet_moves: bool,
    pub scoring: Scoring,
}

impl Variant {
    /// All variants, in a fixed order.
    pub const ALL: [Variant; 4] = [
        Variant::Russian,
        Variant::Brazilian,
        Variant::Adiyukh64,
        Variant::Adiyukh80,
    ];

    /// The identifier used on the command line and in protocols.
    pub const fn id(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::Brazilian => "brazilian",
            Variant::Adiyukh64 => "adiyukh-64",
            Variant::Adiyukh80 => "adiyukh-80",
        }
    }

    /// The board this variant is played on.
    pub const fn geometry(self) -> Geometry {
        match self {
            Variant::Adiyukh80 => Geometry::BOARD_80,
            _ => Geometry::BOARD_64,
        }
    }

    /// Checkers each side starts with (12 or 15).
    pub const fn checkers_per_side(self) -> u32 {
        self.geometry().half as u32 * 3
    }

    /// True for the tower variants.
    pub const fn is_tower(self) -> bool {
        self.rules().towers
    }

    /// The rule flags the generator and the game read.
    pub const fn rules(self) -> RuleFlags {
        match self {
            Variant::Russian => RuleFlags {
                capture_choice: CaptureChoice::Free,
                promotion: Promotion::MidCapture,
                removal: Removal::Deferred,
                towers: false,
                king_quiet_moves: true,
                scoring: Scoring::NoMoveLoses,
            },
            Variant::Brazilian => RuleFlags {
                capture_choice: CaptureChoice::Majority,
                promotion: Promotion::EndOfMove,
                removal: Removal::Deferred,
                towers: false,
                king_quiet_moves: true,
                scoring: Scoring::NoMoveLoses,
            },
            Variant::Adiyukh64 | Variant::Adiyukh80 => RuleFlags {
                capture_choice: CaptureChoice::Free,
                promotion: Promotion::MidCapture,
                removal: Removal::ImmediateTop,
                towers: true,
                king_quiet_moves: false,
                scoring: Scoring::HalfBoardCount,
            },
        }
    }

    /// The start position as position text.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Adiyukh80 => {
                "W:Wa1,c1,e1,g1,i1,b2,d2,f2,h2,j2,a3,c3,e3,g3,i3:Bb6,d6,f6,h6,j6,a7,c7,e7,g7,i7,b8,d8,f8,h8,j8"
            }
            _ => "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The text named no variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant '{}' (expected one of: russian, brazilian, adiyukh-64, adiyukh-80)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Variant::ALL
            .into_iter()
            .find(|v| v.id() == lower)
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

/// Compile-time view of a variant, so the generator is monomorphised once per
/// variant from a single source.
pub(crate) trait Rules {
    const VARIANT: Variant;
    const GEOMETRY: Geometry = Self::VARIANT.geometry();
    const FLAGS: RuleFlags = Self::VARIANT.rules();
    const MAJORITY: bool = matches!(Self::FLAGS.capture_choice, CaptureChoice::Majority);
    const PROMOTE_MID: bool = matches!(Self::FLAGS.promotion, Promotion::MidCapture);
    const TOWERS: bool = Self::FLAGS.towers;
    const KING_QUIET: bool = Self::FLAGS.king_quiet_moves;
    const BOARD: u64 = Self::GEOMETRY.board_mask();
    const PROMO: [u64; 2] = [
        Self::GEOMETRY.promotion_mask(crate::board::Color::White),
        Self::GEOMETRY.promotion_mask(crate::board::Color::Black),
    ];
    const RAYS: &'static crate::board::Rays = Self::GEOMETRY.rays();
    const STEPS: [i32; 4] = [
        Self::GEOMETRY.step(crate::board::Direction::NorthWest),
        Self::GEOMETRY.step(crate::board::Direction::NorthEast),
        Self::GEOMETRY.step(crate::board::Direction::SouthWest),
        Self::GEOMETRY.step(crate::board::Direction::SouthEast),
    ];
}

pub(crate) struct RussianRules;
pub(crate) struct BrazilianRules;
pub(crate) struct Adiyukh64Rules;
pub(crate) struct Adiyukh80Rules;

impl Rules for RussianRules {
    const VARIANT: Variant = Variant::Russian;
}
impl Rules for BrazilianRules {
    const VARIANT: Variant = Variant::Brazilian;
}
impl Rules for Adiyukh64Rules {
    const VARIANT: Variant = Variant::Adiyukh64;
}
impl Rules for Adiyukh80Rules {
    const VARIANT: Variant = Variant::Adiyukh80;
}

/// Run `$body` with `$R` naming the `Rules` type of a runtime variant:
/// `with_rules!(variant, R => generate::<R>(pos))`.
macro_rules! with_rules {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::variant::Variant::Russian => {
                type $R = $crate::variant::RussianRules;
                $body
            }
            $crate::variant::Variant::Brazilian => {
                type $R = $crate::variant::BrazilianRules;
                $body
            }
            $crate::variant::Variant::Adiyukh64 => {
                type $R = $crate::variant::Adiyukh64Rules;
                $body
            }
            $crate::variant::Variant::Adiyukh80 => {
                type $R = $crate::variant::Adiyukh80Rules;
                $body
            }
        }
    };
}
pub(crate) use with_rules;

//! The search's tunable parameters, in one place. Each is a constant of
//! the build. Built with the cargo feature `knobs` (for tuning only, never
//! for release), each is read once from the environment variable
//! `SHASHKI_K_<NAME>` where that is set, so that one binary plays every
//! setting of a screening match (`--engine1 "env SHASHKI_K_LMR_DIVISOR=1.3
//! shashki"`); see tuning/README.md. A value that does not parse is
//! reported on standard error and the built-in one kept.

/// Defines each knob as a function returning its value.
macro_rules! knobs {
    ($($(#[$doc:meta])* $name:ident: $t:ty = $value:expr;)*) => {
        $(
            $(#[$doc])*
            #[cfg(not(feature = "knobs"))]
            #[inline(always)]
            pub(super) fn $name() -> $t {
                $value
            }

            $(#[$doc])*
            #[cfg(feature = "knobs")]
            pub(super) fn $name() -> $t {
                static VALUE: once_cell::sync::Lazy<$t> =
                    once_cell::sync::Lazy::new(|| read(stringify!($name), $value));
                *VALUE
            }
        )*
    };
}

/// The environment's value of knob `name`, or `default`.
#[cfg(feature = "knobs")]
fn read<T: std::str::FromStr>(name: &str, default: T) -> T {
    let var = format!("SHASHKI_K_{}", name.to_uppercase());
    match std::env::var(&var) {
        Err(_) => default,
        Ok(text) => text.trim().parse().unwrap_or_else(|_| {
            eprintln!("{var}: not a value of this knob: {text:?}; the built-in value is kept");
            default
        }),
    }
}

knobs! {
    /// Deepest remaining depth at which reverse futility cuts.
    futility_depth: i32 = 4;
    /// Reverse futility's margin per ply (centi-men).
    futility_margin: i32 = 50;
    /// Where the side to move is improving, the margin is smaller by the
    /// margin of a ply divided by this.
    futility_improving_divisor: i32 = 2;
    /// ProbCut: the least depth it is tried at.
    probcut_depth: i32 = 5;
    /// ProbCut: the plies its shallow search is short of the full one.
    probcut_reduction: i32 = 4;
    /// ProbCut: its margin above beta (centi-men).
    probcut_margin: i32 = 80;
    /// Late move reductions (Russian, Brazilian): the plies are this plus
    /// the product of the logarithms of depth and move number divided by
    /// [`lmr_divisor`].
    lmr_base: f64 = 0.75;
    /// Late move reductions: what the product of the logarithms is divided
    /// by (1.5; it was 2.25, then 1.8, each step measured).
    lmr_divisor: f64 = 1.5;
    /// The first move (from 0, in search order) a late move reduction may
    /// reduce in Russian and Brazilian (Adiyukh: the fourth, as measured).
    lmr_first: usize = 3;
    /// The first aspiration window either side of the last score
    /// (centi-men; Adiyukh: hundredths of a point).
    aspiration_window: i32 = 40;
    /// What a window that failed is widened by, as a factor.
    aspiration_growth: i32 = 3;
    /// The soft time target grows by this factor when the best move changed
    /// in the last two iterations...
    time_best_changed: f64 = 1.6;
    /// ... and by this one when the score fell by more than 30.
    time_score_fell: f64 = 1.4;
    /// No new iteration is started once this share of the soft target is
    /// spent (the hard limit cuts one that runs long): 0.6 left time unused
    /// (0.9 against it at 1 s + 0.01 s: Elo +11.5, 1,000 games; at 2 s +
    /// 0.02 s: +7.6, 500).
    time_new_iteration: f64 = 0.9;
}

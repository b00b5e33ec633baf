//! The Shashki evaluation tuner: self-play data ([`gen`]), data files
//! ([`data`]), search scores for them ([`rescore`]), Texel-style fitting
//! ([`fit`]), the pattern fit ([`patterns`]), the loss plot ([`plot`]) and
//! tuned-against-baseline matches ([`compare`]), and endgame starting
//! positions from games for matches ([`endgames`]). The command line is
//! `shashki-tune` (`src/main.rs`); see `tuning/README.md`.

pub mod compare;
pub mod data;
pub mod endgames;
pub mod fit;
pub mod gen;
pub mod patterns;
pub mod play;
pub mod plot;
pub mod rescore;

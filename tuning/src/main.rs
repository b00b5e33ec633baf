//! `shashki-tune`: self-play data, merging, fitting and tuned-vs-baseline
//! matches. Errors print one line and exit with status 2.

use clap::Subcommand;
use shashki::eval::patterns::{is_patterns_file, Patterns};
use shashki::eval::weights::Weights;
use shashki::tools::cli::{real, whole, within};
use shashki::Variant;
use shashki::{input, options};
use shashki_tuning::compare::{compare, CompareConfig};
use shashki_tuning::data::DataSet;
use shashki_tuning::endgames::{self, EndgameConfig};
use shashki_tuning::fit::{fit, FitConfig, Target};
use shashki_tuning::gen::{generate, GenConfig};
use shashki_tuning::patterns::{default_l2, fit_patterns, PatternData, PatternFitConfig};
use shashki_tuning::plot::loss_svg;
use shashki_tuning::rescore::rescore;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Parser)]
#[command(name = "shashki-tune", about = "Tune the Shashki evaluation")]
struct Cli {
    /// Worker threads (default: all cores).
    #[arg(long, global = true, value_parser = within::<usize>(options::THREADS))]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    cmd: Cmd,
}

/// Ranges of numbers of this command line (those shared with the engine,
/// threads and depth, are in `shashki::input`): games (or pairs) of one
/// run, the first game's index, plies, epochs and the batch size.
const GAMES_MAX: u64 = 1_000_000_000;
const FIRST_MAX: u64 = u64::MAX / 2;
const PLIES_MAX: u64 = 100_000;
const EPOCHS_MAX: u64 = 1_000_000;
const BATCH_MAX: u64 = 1 << 30;

/// An inclusive range `A-B` (or one number).
#[derive(Clone, Copy, Debug)]
struct Range(usize, usize);

fn parse_range(s: &str) -> Result<Range, String> {
    let bad = || format!("'{s}' is not a number or a range like 4-8");
    match s.split_once('-') {
        Some((a, b)) => {
            let (a, b) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
            if a > b {
                return Err(bad());
            }
            Ok(Range(a, b))
        }
        None => s.parse().map(|a| Range(a, a)).map_err(|_| bad()),
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Play self-play games and record quiet positions with the result.
    Gen {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long)]
        variant: Variant,
        /// Number of games.
        #[arg(long, value_parser = whole::<u64>(1, GAMES_MAX))]
        games: u64,
        /// Seed: game I of seed S is the same on every machine.
        #[arg(long, default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Index of the first game (for shards of one seed).
        #[arg(long, default_value_t = 0, value_parser = whole::<u64>(0, FIRST_MAX))]
        first: u64,
        /// Search depth per move.
        #[arg(long, default_value_t = 4, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Random opening plies, e.g. 4-8.
        #[arg(long, default_value = "4-8", value_parser = parse_range)]
        opening_plies: Range,
        /// Record positions from this ply on.
        #[arg(long, default_value_t = 10, value_parser = whole::<usize>(0, PLIES_MAX))]
        skip_plies: usize,
        /// Adjudicate at this many plies.
        #[arg(long, default_value_t = 300, value_parser = whole::<usize>(1, PLIES_MAX))]
        max_plies: usize,
        /// Play with these weights (default: the built-in hand-shaped ones
        /// without patterns), e.g. a first round's fit for a second round:
        /// a weights text file, or a pattern weights file (with the built-in
        /// hand-shaped weights).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Output data file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Add a fixed-depth search's score to every position of a data file
    /// (for `fit-patterns --result`).
    Rescore {
        /// Search depth per position.
        #[arg(long, default_value_t = 10, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Search with these weights (default: the built-in ones): a weights
        /// text file, or a pattern weights file with the built-in
        /// hand-shaped weights.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Output data file, the input's lines with the score added.
        #[arg(long)]
        out: PathBuf,
        /// Data file (from gen or merge).
        input: PathBuf,
    },
    /// Concatenate data files of one variant, dropping repeated lines.
    Merge {
        /// Output data file.
        #[arg(long)]
        out: PathBuf,
        /// Data files to join, in this order.
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Fit the weights to a data file.
    Fit {
        /// Data file (from gen or merge).
        #[arg(long)]
        data: PathBuf,
        /// Start weights (default: the built-in ones of the data's variant).
        #[arg(long)]
        start: Option<PathBuf>,
        /// Output weights file.
        #[arg(long)]
        out: PathBuf,
        /// Loss plot (SVG).
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Most passes over the training positions.
        #[arg(long, default_value_t = 400, value_parser = whole::<usize>(0, EPOCHS_MAX))]
        epochs: usize,
        /// Stop after this many epochs without a better validation loss.
        #[arg(long, default_value_t = 25, value_parser = whole::<usize>(0, EPOCHS_MAX))]
        patience: usize,
        /// Adam's step size, in weight units (centi-men; Adiyukh: hundredths of a point).
        #[arg(long, default_value_t = 0.5, value_parser = real(|x| x > 0.0, "a number above 0"))]
        lr: f64,
        /// Positions per gradient step.
        #[arg(long, default_value_t = 512, value_parser = whole::<usize>(1, BATCH_MAX))]
        batch: usize,
        /// Share of positions held out for validation.
        #[arg(long, default_value_t = 0.1, value_parser = real(|x| (0.0..1.0).contains(&x), "a number from 0 to below 1"))]
        validation: f64,
        /// Seed of the shuffling and of the validation split.
        #[arg(long, default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
    },
    /// Fit the pattern weights of a variant to data files.
    FitPatterns {
        /// Variant of the data: russian, brazilian (fitted to the results),
        /// adiyukh-64 or adiyukh-80 (fitted to the final count difference).
        #[arg(long)]
        variant: Variant,
        /// Output pattern weights file (`weights/<variant>-patterns.bin`).
        #[arg(long)]
        out: PathBuf,
        /// Loss plot (SVG).
        #[arg(long)]
        plot: Option<PathBuf>,
        /// Most passes over the training positions.
        #[arg(long, default_value_t = 100, value_parser = whole::<usize>(0, EPOCHS_MAX))]
        epochs: usize,
        /// Stop after this many epochs without a better validation loss.
        #[arg(long, default_value_t = 4, value_parser = whole::<usize>(0, EPOCHS_MAX))]
        patience: usize,
        /// Adam's step size, in centi-men (hundredths of a point for Adiyukh).
        #[arg(long, default_value_t = 1.0, value_parser = real(|x| x > 0.0, "a number above 0"))]
        lr: f64,
        /// L2 penalty per squared centi-man (hundredth of a point); default
        /// 0.01 for russian and brazilian, 0.3 for the Adiyukh variants.
        #[arg(long, value_parser = real(|x| x >= 0.0, "a number from 0 up"))]
        l2: Option<f64>,
        /// Positions per gradient step.
        #[arg(long, default_value_t = 65536, value_parser = whole::<usize>(1, BATCH_MAX))]
        batch: usize,
        /// Share of positions held out for validation.
        #[arg(long, default_value_t = 0.1, value_parser = real(|x| (0.0..1.0).contains(&x), "a number from 0 to below 1"))]
        validation: f64,
        /// Seed of the shuffling.
        #[arg(long, default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Weight of the game's outcome in the labels, from 0 to 1; the rest
        /// goes to the prediction of the search's score, which the data
        /// must then have (`rescore`).
        #[arg(long, default_value_t = 1.0, value_parser = real(|x| (0.0..=1.0).contains(&x), "a number from 0 to 1"))]
        result: f64,
        /// Also fit the hand-shaped parameters (all but the man, the trade
        /// and the drawn-ending scale) beside the patterns, and write them
        /// to this weights text file (`weights/<variant>.txt`).
        #[arg(long)]
        hand_out: Option<PathBuf>,
        /// With --hand-out: the hand-shaped parameters to fit, by name,
        /// separated by commas (default: all of them).
        #[arg(long, value_delimiter = ',', requires = "hand_out")]
        hand_params: Vec<String>,
        /// Data files, or folders whose `*.data` files are all read.
        #[arg(required = true)]
        data: Vec<PathBuf>,
    },
    /// Play tuned against baseline weights at equal depth.
    Compare {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long)]
        variant: Variant,
        /// Tuned weights file.
        #[arg(long)]
        tuned: PathBuf,
        /// Baseline weights file (default: the hand-set weights,
        /// tuning/baseline/<variant>.txt, compiled in).
        #[arg(long)]
        baseline: Option<PathBuf>,
        /// Game pairs (each opening with both colours).
        #[arg(long, default_value_t = 100, value_parser = whole::<u64>(1, GAMES_MAX))]
        pairs: u64,
        /// Search depth per move, both sides.
        #[arg(long, default_value_t = 4, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1000, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Random opening plies, e.g. 4-8.
        #[arg(long, default_value = "4-8", value_parser = parse_range)]
        opening_plies: Range,
        /// Adjudicate at this many plies.
        #[arg(long, default_value_t = 300, value_parser = whole::<usize>(1, PLIES_MAX))]
        max_plies: usize,
    },
    /// Endgame starting positions from the games of PDN files: the first
    /// quiet position of each game in a piece range, kept when balanced.
    Endgames {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80 (games of another are skipped).
        #[arg(long)]
        variant: Variant,
        /// Pieces on the board, both sides together, e.g. 6-8.
        #[arg(long, default_value = "6-8", value_parser = parse_range)]
        pieces: Range,
        /// Fewest pieces of each side.
        #[arg(long, default_value_t = 2, value_parser = whole::<u32>(1, 40))]
        min_side: u32,
        /// Largest difference between the sides' numbers of pieces.
        #[arg(long, default_value_t = 2, value_parser = whole::<u32>(0, 40))]
        max_diff: u32,
        /// Depth of the balance check.
        #[arg(long, default_value_t = 12, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Keep a position scored within this many centi-men of equality.
        #[arg(long, default_value_t = 60, value_parser = whole::<i32>(0, 100_000))]
        max_score: i32,
        /// The command that made the games, for the file's header.
        #[arg(long)]
        made_by: Option<String>,
        /// Output opening file.
        #[arg(long)]
        out: PathBuf,
        /// PDN files of games.
        #[arg(required = true)]
        pdn: Vec<PathBuf>,
    },
}

/// The hand-set weights, the baseline of `compare`.
fn baseline(v: Variant) -> Result<Weights, String> {
    let text = match v {
        Variant::Russian => include_str!("../baseline/russian.txt"),
        Variant::Brazilian => include_str!("../baseline/brazilian.txt"),
        Variant::Adiyukh64 => include_str!("../baseline/adiyukh-64.txt"),
        Variant::Adiyukh80 => include_str!("../baseline/adiyukh-80.txt"),
    };
    Weights::parse(text)
        .map(|(_, w)| w)
        .map_err(|e| format!("baseline weights of {v}: {e}"))
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn read_weights(path: &Path, variant: Variant) -> Result<Weights, String> {
    let (v, w) = Weights::parse(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    if v != variant {
        return Err(format!("{}: weights of {v}, not {variant}", path.display()));
    }
    Ok(w)
}

/// Weights to play or search with: a weights text file, or a pattern
/// weights file (`fit-patterns`), which replaces the built-in patterns of
/// `variant` beside its built-in hand-shaped weights.
fn read_play_weights(path: &Path, variant: Variant) -> Result<Weights, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if !is_patterns_file(&bytes) {
        return read_weights(path, variant);
    }
    let p = Patterns::from_bytes(&bytes, Some(variant))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Weights {
        patterns: Some(Arc::new(p)),
        ..Weights::for_variant(variant).clone()
    })
}

fn read_data(path: &Path) -> Result<DataSet, String> {
    DataSet::parse(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))
}

fn run(cli: Cli) -> Result<(), String> {
    if let Some(n) = cli.threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| format!("thread pool: {e}"))?;
    }
    let progress = !cli.quiet;
    match cli.cmd {
        Cmd::Gen {
            variant,
            games,
            seed,
            first,
            depth,
            opening_plies,
            skip_plies,
            max_plies,
            weights,
            out,
        } => {
            let play_weights = match &weights {
                Some(p) => Some(read_play_weights(p, variant)?),
                None => None,
            };
            let cfg = GenConfig {
                variant,
                seed,
                first,
                games,
                depth,
                opening_plies: (opening_plies.0, opening_plies.1),
                skip_plies,
                max_plies,
                progress,
                weights: play_weights,
            };
            let start = std::time::Instant::now();
            let (set, st) = generate(&cfg);
            let mut comment = format!(
                "shashki-tune gen --variant {variant} --seed {seed} --first {first} --games {games} \
                 --depth {depth} --opening-plies {}-{} --skip-plies {skip_plies} --max-plies {max_plies}",
                opening_plies.0, opening_plies.1
            );
            if let Some(p) = &weights {
                comment.push_str(&format!(" --weights {}", p.display()));
            }
            write(&out, &set.to_text(&comment))?;
            println!(
                "{variant}: {} games (+{} ={} -{} for White, {} at the ply cap), {} positions -> {} ({:.1} s)",
                st.games,
                st.white_wins,
                st.draws,
                st.black_wins,
                st.capped,
                st.positions,
                out.display(),
                start.elapsed().as_secs_f64()
            );
        }
        Cmd::Rescore {
            depth,
            weights,
            out,
            input,
        } => {
            let set = read_data(&input)?;
            let w = match &weights {
                Some(p) => Some(read_play_weights(p, set.variant)?),
                None => None,
            };
            let start = std::time::Instant::now();
            let scored = rescore(&set, depth, w.as_ref(), progress);
            let mut comment: String = read(&input)?
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| format!("{}\n", l.trim_start_matches('#').trim()))
                .collect();
            comment.push_str(&format!(
                "shashki-tune rescore --depth {depth}{} {}",
                weights
                    .as_ref()
                    .map(|p| format!(" --weights {}", p.display()))
                    .unwrap_or_default(),
                input.display()
            ));
            write(&out, &scored.to_text(&comment))?;
            println!(
                "{}: {} positions scored at depth {depth} -> {} ({:.1} s)",
                set.variant,
                scored.samples.len(),
                out.display(),
                start.elapsed().as_secs_f64()
            );
        }
        Cmd::Merge { out, inputs } => {
            let sets = inputs
                .iter()
                .map(|p| read_data(p))
                .collect::<Result<Vec<_>, _>>()?;
            let total: usize = sets.iter().map(|s| s.samples.len()).sum();
            let merged = DataSet::merge(sets)?;
            let comment = format!("shashki-tune merge of {} files", inputs.len());
            write(&out, &merged.to_text(&comment))?;
            println!(
                "{}: {} positions ({} repeated lines dropped) -> {}",
                merged.variant,
                merged.samples.len(),
                total - merged.samples.len(),
                out.display()
            );
        }
        Cmd::Fit {
            data,
            start,
            out,
            plot,
            epochs,
            patience,
            lr,
            batch,
            validation,
            seed,
        } => {
            let set = read_data(&data)?;
            if set.samples.is_empty() {
                return Err(format!("{}: no positions", data.display()));
            }
            let v = set.variant;
            let start_w = match start {
                Some(p) => read_weights(&p, v)?,
                None => Weights::for_variant(v).clone(),
            };
            let cfg = FitConfig {
                max_epochs: epochs,
                patience,
                learning_rate: lr,
                batch,
                validation,
                seed,
            };
            let t0 = std::time::Instant::now();
            let r = fit(&set, &start_w, &cfg);
            let unit = match r.target {
                Target::Result { k } => format!("results vs sigmoid({k:.5} * eval)"),
                Target::CountDiff => "count difference vs eval/100, points^2".into(),
            };
            let summary = format!(
                "{v}: {} positions, MSE of {unit}\n\
                 before: train {:.6} validation {:.6}\n\
                 after:  train {:.6} validation {:.6} (epoch {} of {}, {:.1} s)",
                set.samples.len(),
                r.before.0,
                r.before.1,
                r.after.0,
                r.after.1,
                r.best_epoch,
                r.history.len() - 1,
                t0.elapsed().as_secs_f64()
            );
            println!("{summary}");
            let names = Weights::names();
            let (a, b) = (start_w.to_vec(), r.weights.to_vec());
            for i in 0..names.len() {
                if a[i] != b[i] {
                    println!("  {:<16} {:>5} -> {:>5}", names[i], a[i], b[i]);
                }
            }
            let mut text = String::new();
            for line in format!(
                "Tuned by shashki-tune fit from {}\n{summary}",
                data.display()
            )
            .lines()
            {
                text.push_str(&format!("# {line}\n"));
            }
            text.push_str(&r.weights.to_text(v));
            write(&out, &text)?;
            if let Some(p) = plot {
                let title = format!("{v}: loss per epoch ({} positions)", set.samples.len());
                write(&p, &loss_svg(&title, &r.history, r.best_epoch))?;
            }
        }
        Cmd::FitPatterns {
            variant,
            out,
            plot,
            epochs,
            patience,
            lr,
            l2,
            batch,
            validation,
            seed,
            result,
            hand_out,
            hand_params,
            data,
        } => {
            let mut files = Vec::new();
            for p in &data {
                if p.is_dir() {
                    let mut found: Vec<PathBuf> = std::fs::read_dir(p)
                        .map_err(|e| format!("cannot read {}: {e}", p.display()))?
                        .filter_map(|e| e.ok().map(|e| e.path()))
                        .filter(|f| f.extension().is_some_and(|x| x == "data"))
                        .collect();
                    found.sort();
                    if found.is_empty() {
                        return Err(format!("{}: no .data files", p.display()));
                    }
                    files.extend(found);
                } else {
                    files.push(p.clone());
                }
            }
            let t0 = std::time::Instant::now();
            let mut set = PatternData::new(variant);
            if hand_out.is_some() {
                set = set.with_hand(&hand_params)?;
            }
            for f in &files {
                set.read_file(f, validation)?;
            }
            let positions = set.train.len() + set.validation.len();
            if progress {
                eprintln!(
                    "{variant}: {positions} positions from {} files ({} for validation), read in {:.0} s",
                    files.len(),
                    set.validation.len(),
                    t0.elapsed().as_secs_f64()
                );
            }
            let cfg = PatternFitConfig {
                max_epochs: epochs,
                patience,
                learning_rate: lr,
                batch,
                l2: l2.unwrap_or(default_l2(variant)),
                seed,
                result,
            };
            let t1 = std::time::Instant::now();
            let r = fit_patterns(&set, &cfg, |epoch, (tr, va)| {
                if progress {
                    eprintln!("epoch {epoch}: train {tr:.6} validation {va:.6}");
                }
            })?;
            let (b, a) = (r.history[0], r.history[r.best_epoch]);
            let labels = if result < 1.0 {
                format!(
                    ", labels {result} x outcome + {} x the search's prediction",
                    1.0 - result
                )
            } else {
                String::new()
            };
            println!(
                "{variant}: {positions} positions, L2 {}{labels}, {}\n\
                 hand-shaped alone: train {:.6} validation {:.6}\n\
                 with patterns:     train {:.6} validation {:.6} (epoch {} of {}, {:.0} s)\n\
                 engine's own evaluation on {} validation positions: {:.6} -> {:.6}",
                cfg.l2,
                r.target.describe(),
                b.0,
                b.1,
                a.0,
                a.1,
                r.best_epoch,
                r.history.len() - 1,
                t1.elapsed().as_secs_f64(),
                set.check.len(),
                r.engine_before,
                r.engine_after
            );
            std::fs::write(&out, r.patterns.to_bytes())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            if let (Some(path), Some(w)) = (&hand_out, &r.hand) {
                let old = Weights::for_variant(variant).to_vec();
                let moved: Vec<String> = Weights::names()
                    .iter()
                    .zip(old.iter().zip(w.to_vec()))
                    .filter(|(_, (a, b))| *a != b)
                    .map(|(name, (a, b))| format!("{name} {a} -> {b}"))
                    .collect();
                println!("hand-shaped parameters: {}", moved.join(", "));
                let text = format!(
                    "# Fitted beside the patterns by shashki-tune fit-patterns --hand-out\n{}",
                    w.to_text(variant)
                );
                write(path, &text)?;
            }
            if let Some(p) = plot {
                let title = format!("{variant} patterns: loss per epoch ({positions} positions)");
                write(&p, &loss_svg(&title, &r.history, r.best_epoch))?;
            }
        }
        Cmd::Compare {
            variant,
            tuned,
            baseline: base_path,
            pairs,
            depth,
            seed,
            opening_plies,
            max_plies,
        } => {
            let t = read_weights(&tuned, variant)?;
            let b = match base_path {
                Some(p) => read_weights(&p, variant)?,
                None => baseline(variant)?,
            };
            let cfg = CompareConfig {
                variant,
                pairs,
                depth,
                seed,
                opening_plies: (opening_plies.0, opening_plies.1),
                max_plies,
                progress,
            };
            let t0 = std::time::Instant::now();
            let r = compare(&cfg, &t, &b);
            println!(
                "{variant} depth {depth}: {} ({:.0} s)",
                r.summary(),
                t0.elapsed().as_secs_f64()
            );
        }
        Cmd::Endgames {
            variant,
            pieces,
            min_side,
            max_diff,
            depth,
            max_score,
            made_by,
            out,
            pdn,
        } => {
            let texts = pdn.iter().map(|p| read(p)).collect::<Result<Vec<_>, _>>()?;
            let cfg = EndgameConfig {
                variant,
                pieces: (pieces.0 as u32, pieces.1 as u32),
                min_side,
                max_diff,
                depth,
                max_score,
            };
            let t0 = std::time::Instant::now();
            let (found, st) = endgames::extract(&cfg, &texts);
            if found.is_empty() {
                return Err(format!("{variant}: no position kept ({st:?})"));
            }
            let names: Vec<String> = pdn
                .iter()
                .map(|p| {
                    p.file_name()
                        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
                })
                .collect();
            let mut header = vec![
                format!(
                    "{variant} endgames: the first quiet position with {}-{} pieces of each self-play game \
                     (at least {min_side} a side, at most {max_diff} apart, a man on the board), \
                     kept when a depth-{depth} search scores it within {max_score} of equality",
                    pieces.0, pieces.1
                ),
                format!(
                    "{} positions from {} games ({} without such a position, {} for the material, \
                     {} repeated, {} unbalanced)",
                    st.kept, st.games, st.none, st.material, st.repeated, st.unbalanced
                ),
            ];
            if let Some(m) = made_by {
                header.push(format!("made by: {m}"));
            }
            header.push(format!(
                "shashki-tune endgames --variant {variant} --pieces {}-{} --min-side {min_side} \
                 --max-diff {max_diff} --depth {depth} --max-score {max_score} {}",
                pieces.0,
                pieces.1,
                names.join(" ")
            ));
            header
                .push("format: position text and '|' (no moves): see src/tools/openings.rs".into());
            write(&out, &endgames::to_text(&header, &found))?;
            println!(
                "{variant}: {} games, {} positions kept -> {} ({} skipped, {} without a position \
                 in range, {} for the material, {} repeated, {} unbalanced; {:.1} s)",
                st.games,
                st.kept,
                out.display(),
                st.skipped,
                st.none,
                st.material,
                st.repeated,
                st.unbalanced,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    // Argument errors: one line and a hint, status 2 (shashki::tools::cli).
    match run(shashki::tools::cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every option of every subcommand has a one-line description, and
    /// every `--variant` names the variants.
    #[test]
    fn every_option_is_described() {
        let cli = super::Cli::command();
        cli.clone().debug_assert();
        let missing = shashki::tools::cli::undescribed(&cli);
        assert!(missing.is_empty(), "{missing:#?}");
    }
}

//! The `shashki` command line: a thin shell over the library.

use clap::{Parser, Subcommand};
use shashki::game::Game;
use shashki::search::{Limits, Searcher};
use shashki::{fen, notation, perft, Position, Variant};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "shashki",
    version,
    about = "Draughts engine: russian, brazilian, adiyukh-64, adiyukh-80"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf positions DEPTH plies deep (distinct moves only). The last
    /// line printed is `nodes <N>`.
    Perft {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Position text (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long)]
        depth: u32,
        /// Print each root move with its count first.
        #[arg(long)]
        divide: bool,
        /// Worker threads (1 = serial).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Search a position and print the reports; the last line is
    /// `bestmove <move>`.
    Search {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Position text (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position before the search.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Search to this depth.
        #[arg(long, group = "limit")]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long, group = "limit")]
        movetime: Option<u64>,
        /// Search this many nodes.
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Fixed-depth searches over built-in positions of every variant; prints
    /// the total nodes (a signature of search and evaluation) and nodes/s.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = 9)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
    /// Show a position: diagram, position text, legal moves and status.
    Show {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        #[arg(long)]
        fen: Option<String>,
        /// Also draw the position as an SVG picture into this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
        }) => run_perft(variant, fen.as_deref(), depth, divide, threads),
        Some(Command::Show { variant, fen, svg }) => {
            run_show(variant, fen.as_deref(), svg.as_deref())
        }
        Some(Command::Search {
            variant,
            fen,
            moves,
            depth,
            movetime,
            nodes,
            threads,
            hash,
        }) => run_search(
            variant,
            fen.as_deref(),
            &moves,
            (depth, movetime, nodes),
            threads,
            hash,
        ),
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => run_bench(depth, threads, hash),
        None => {
            let out = shashki::uci::Out::new(Box::new(std::io::stdout()));
            let stdin = std::io::stdin();
            shashki::uci::Uci::new(out).run(&mut stdin.lock());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn load(variant: Variant, text: Option<&str>) -> Result<Position, String> {
    match text {
        None => Ok(Position::start(variant)),
        Some(t) => fen::parse_position(variant, t).map_err(|e| format!("bad position text: {e}")),
    }
}

fn run_perft(
    variant: Variant,
    text: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let pos = load(variant, text)?;
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let start = Instant::now();
    let nodes = pool.install(|| {
        if divide {
            let parts = perft::divide(&pos, depth, threads > 1);
            for (m, n) in &parts {
                println!("{} {}", notation::move_text(&pos, m), n);
            }
            if depth == 0 {
                1
            } else {
                parts.iter().map(|(_, n)| n).sum()
            }
        } else if threads > 1 {
            perft::perft_parallel(&pos, depth)
        } else {
            perft::perft(&pos, depth)
        }
    });
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} M leaves/s",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6
    );
    println!("nodes {nodes}");
    Ok(())
}

fn run_show(
    variant: Variant,
    text: Option<&str>,
    svg: Option<&std::path::Path>,
) -> Result<(), String> {
    let game = Game::from_position(load(variant, text)?);
    print!("{}", shashki::diagram::report(&game));
    if let Some(path) = svg {
        std::fs::write(path, shashki::svg::svg(game.position()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn run_search(
    variant: Variant,
    text: Option<&str>,
    moves: &[String],
    (depth, movetime, nodes): (Option<u32>, Option<u64>, Option<u64>),
    threads: usize,
    hash: usize,
) -> Result<(), String> {
    let mut game = Game::from_position(load(variant, text)?);
    for m in moves {
        game.play_text(m).map_err(|e| format!("move '{m}': {e}"))?;
    }
    if threads == 0 || hash == 0 {
        return Err("--threads and --hash must be at least 1".into());
    }
    let limits = Limits {
        depth,
        movetime_ms: movetime,
        nodes,
        ..Limits::default()
    };
    let limits = if depth.is_none() && movetime.is_none() && nodes.is_none() {
        Limits::depth(10)
    } else {
        limits
    };
    let pos = *game.position();
    let mut searcher = Searcher::new(hash, threads);
    let result = searcher.search(&game, &limits, &mut |info| {
        println!("{}", shashki::uci::info_line(&pos, info))
    });
    match result.best {
        Some(m) => println!("bestmove {}", notation::move_text(&pos, &m)),
        None => println!("bestmove (none)"),
    }
    Ok(())
}

/// Positions for `bench`: start positions and middlegames of every variant.
const BENCH: &[(Variant, &str)] = &[
    (Variant::Russian, "startpos"),
    (Variant::Russian, "W:Wb2,Kd2,a3,g3,Kf4:BKa5,b6,h6,g7,Kb8,f8"),
    (
        Variant::Russian,
        "W:Wa1,c1,e1,g1,b2,f2,h2,c3,e3,d4:Bb6,d6,h6,a7,c7,e7,g7,b8,d8,f8",
    ),
    (Variant::Brazilian, "startpos"),
    (
        Variant::Brazilian,
        "W:Wa1,c1,e1,c3,g3,d4:Bb6,f6,a7,c7,e7,g7,h8",
    ),
    (Variant::Adiyukh64, "startpos"),
    (
        Variant::Adiyukh64,
        "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1,e3,f2,g1,g3,h2:Bb8,c7,e5-2,e7,f8,g7,h6,h8",
    ),
    (Variant::Adiyukh80, "startpos"),
];

fn run_bench(depth: u32, threads: usize, hash: usize) -> Result<(), String> {
    let mut searcher = Searcher::new(hash.max(1), threads.max(1));
    let mut total = 0;
    let mut searching = std::time::Duration::ZERO;
    for (variant, text) in BENCH {
        let game = Game::from_position(load(*variant, Some(text))?);
        searcher.clear();
        let start = Instant::now();
        let r = searcher.search(&game, &Limits::depth(depth), &mut |_| {});
        searching += start.elapsed();
        let best = r.best.map_or("(none)".to_string(), |m| {
            notation::move_text(game.position(), &m)
        });
        println!(
            "{:<11} {:<72} nodes {:>10} bestmove {}",
            variant.id(),
            text,
            r.nodes,
            best
        );
        total += r.nodes;
    }
    println!("nodes {total}");
    println!(
        "nps {}",
        (total as f64 / searching.as_secs_f64().max(1e-9)) as u64
    );
    Ok(())
}

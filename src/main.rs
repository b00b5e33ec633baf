//! The `shashki` command line: a thin shell over the library.

use clap::{Parser, Subcommand};
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
    /// Show a position: diagram, position text, legal moves and status.
    Show {
        #[arg(long, default_value = "russian")]
        variant: Variant,
        #[arg(long)]
        fen: Option<String>,
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
        Some(Command::Show { variant, fen }) => run_show(variant, fen.as_deref()),
        None => {
            eprintln!("shashki: the engine protocol is not built yet; try `shashki perft --help` or `shashki show --help`");
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

fn run_show(variant: Variant, text: Option<&str>) -> Result<(), String> {
    let pos = load(variant, text)?;
    print!("{}", shashki::diagram::diagram(&pos));
    println!("variant {variant}");
    println!("fen {}", fen::position_text(&pos));
    if let Some(numeric) = fen::position_text_numeric(&pos) {
        println!("pdn {numeric}");
    }
    println!("side {}", pos.side_to_move());
    println!("moves {}", notation::legal_move_texts(&pos).join(" "));
    if variant.is_tower() {
        let (w, b) = pos.half_board_score();
        println!("count {w}:{b}");
    }
    match shashki::game::Game::from_position(pos).outcome() {
        Some(o) => println!("status {o}"),
        None => println!("status playing"),
    }
    Ok(())
}

//! The `shashki` command line: a thin shell over the library.

use clap::Subcommand;
use shashki::game::Game;
use shashki::search::{Limits, Searcher};
use shashki::tools::cli::{real, whole, within};
use shashki::{fen, notation, perft, Position, Variant};
use shashki::{input, options};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Parser)]
#[command(
    name = "shashki",
    version,
    about = "Draughts engine: russian, brazilian, adiyukh-64, adiyukh-80",
    after_help = "Without a command, shashki is the engine: it reads commands on standard \
input and answers on standard output in the UCI-like protocol, or in Scan's Hub protocol \
when the first line is `hub` (shashki uci, shashki hub: one protocol only). See PROTOCOL.md."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// Ranges of numbers only the command line reads (the others, shared
/// with the protocols, are in `shashki::input`).
///
/// Games of a match.
const GAMES_MAX: u64 = 1_000_000;
/// Games of a match played at once: each keeps about one core busy (its
/// two engines take turns), so the cap is the engine's thread cap.
const CONCURRENCY_MAX: u64 = options::THREADS.max;
/// Plies of a match game before it is ended.
const PLIES_MAX: u64 = 100_000;
/// Seconds an engine may think about a move without a clock (a year).
const MOVE_TIMEOUT_MAX: f64 = (input::TIME_MS.max / 1000) as f64;
/// Scores (centi-men, hundredths of a point): a won game is worth
/// `shashki::search::WIN`.
const SCORE_MAX: u64 = shashki::search::WIN as u64;

#[derive(Subcommand)]
enum Command {
    /// Endgame tables (Russian, Brazilian): build, verify, describe.
    #[command(subcommand)]
    Egdb(EgdbCommand),
    /// The engine in the UCI-like protocol on standard input and output
    /// (PROTOCOL.md); the same as no command, without the switch to Hub.
    Uci,
    /// The engine in Scan's Hub protocol on standard input and output
    /// (PROTOCOL.md, "Hub mode"); the GUI starts with `hub`, as always.
    Hub,
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
        #[arg(long, value_parser = whole::<u32>(0, input::DEPTH.max))]
        depth: u32,
        /// Print each root move with its count first.
        #[arg(long)]
        divide: bool,
        /// Worker threads (1 = serial).
        #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::THREADS))]
        threads: usize,
    },
    /// Search a position and print the reports; the last line is
    /// `bestmove <move>`. Limits combine as in the protocol: the first
    /// reached ends the search; without any, it searches to depth 10.
    Search {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Position text (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves played from the position before the search.
        #[arg(long, num_args = 1.., value_delimiter = ' ')]
        moves: Vec<String>,
        /// Search to this depth (default, when no limit is given: 10).
        #[arg(long, value_parser = within::<u32>(input::DEPTH))]
        depth: Option<u32>,
        /// Search at most this many milliseconds.
        #[arg(long, value_parser = within::<u64>(input::TIME_MS))]
        movetime: Option<u64>,
        /// Search at most this many nodes.
        #[arg(long, value_parser = within::<u64>(input::NODES))]
        nodes: Option<u64>,
        /// Best lines reported at each depth, best first, each starting
        /// with another move (the protocol's MultiPV option); bestmove is
        /// the first line's move.
        #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::MULTIPV))]
        multipv: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::THREADS))]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 64, value_parser = within::<usize>(options::HASH_MIB))]
        hash: usize,
        /// Folder of the endgame tables (a folder per variant, or one
        /// variant's); 'none': no tables. Default: $SHASHKI_EGDB, else
        /// $XDG_DATA_HOME/shashki/egdb (~/.local/share/shashki/egdb), when
        /// it holds tables.
        #[arg(long, value_name = "DIR")]
        egdb: Option<std::path::PathBuf>,
    },
    /// Fixed-depth searches over built-in positions of every variant; prints
    /// the total nodes (a signature of search and evaluation) and nodes/s.
    Bench {
        /// Depth of each search.
        #[arg(long, default_value_t = 9, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::THREADS))]
        threads: usize,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16, value_parser = within::<usize>(options::HASH_MIB))]
        hash: usize,
    },
    /// Play a match between two engines (UCI-like or Hub) and report the
    /// score, the Elo difference and, for Adiyukh, the mean points.
    Match(Box<MatchArgs>),
    /// Make an opening set: every (or N random) move sequence of PLIES
    /// plies kept when a fixed-depth search finds it balanced.
    Openings {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Plies of each opening.
        #[arg(long, default_value_t = 3, value_parser = whole::<usize>(1, shashki::tools::openings::MAX_PLIES as u64))]
        plies: usize,
        /// Pick N random sequences (seeded) instead of all of them.
        #[arg(long, value_parser = whole::<usize>(1, shashki::tools::openings::MAX_RANDOM as u64))]
        random: Option<usize>,
        /// Seed of the random sequences (with --random).
        #[arg(long, default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
        seed: u64,
        /// Depth of the balance check.
        #[arg(long, default_value_t = 10, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Keep openings scored within this many centi-men (Adiyukh:
        /// hundredths of a point) of equality.
        #[arg(long, default_value_t = 40, value_parser = whole::<i32>(0, SCORE_MAX))]
        max_score: i32,
    },
    /// Make an opening book: from every opening of a set, the first MOVES
    /// moves of either side, each chosen by a DEPTH search, against every
    /// reply (or the REPLIES best). Writes the book file
    /// (books/<variant>.txt) to standard output, or to --out as it grows.
    Book {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Opening file (default: the set shipped for the variant).
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Depth of each position's search.
        #[arg(long, default_value_t = 16, value_parser = within::<u32>(input::DEPTH))]
        depth: u32,
        /// Moves of the book's side after each opening.
        #[arg(long, default_value_t = 1, value_parser = whole::<usize>(1, shashki::tools::book::MAX_MOVES as u64))]
        moves: usize,
        /// After each book move but the last, follow only the other side's
        /// REPLIES best replies (0: every reply).
        #[arg(long, default_value_t = 0, value_parser = whole::<usize>(0, 50))]
        replies: usize,
        /// Depth of the MultiPV search that picks those replies.
        #[arg(long, default_value_t = 12, value_parser = within::<u32>(input::DEPTH))]
        reply_depth: u32,
        /// Write the book to FILE after every few searches (and go on from
        /// the book already there: a stopped build resumes).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// Searches at a time.
        #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::THREADS))]
        threads: usize,
    },
    /// Annotate every position of the games of a PDN file: value, best
    /// move and line, and the glyphs ?!, ?, ?? on moves that lose.
    Analyse(Box<AnalyseArgs>),
    /// Show a position: diagram, position text, legal moves and status.
    Show {
        /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Position text (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Also draw the position as an SVG picture into this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
        /// Folder of the endgame tables (a folder per variant, or one
        /// variant's); 'none': no tables. Default: $SHASHKI_EGDB, else
        /// $XDG_DATA_HOME/shashki/egdb (~/.local/share/shashki/egdb), when
        /// it holds tables.
        #[arg(long, value_name = "DIR")]
        egdb: Option<std::path::PathBuf>,
    },
}

/// Arguments of `shashki match`.
#[derive(clap::Args)]
struct MatchArgs {
    /// Command line of engine 1 (run by `sh -c`); default: this program.
    #[arg(long)]
    engine1: Option<String>,
    /// Command line of engine 2; default: this program.
    #[arg(long)]
    engine2: Option<String>,
    /// Name of engine 1 in tables and PDN (default: its own name).
    #[arg(long)]
    name1: Option<String>,
    /// Name of engine 2 in tables and PDN (default: its own name).
    #[arg(long)]
    name2: Option<String>,
    /// Protocol of engine 1: uci or hub.
    #[arg(long, default_value = "uci")]
    proto1: shashki::protocol::Protocol,
    /// Protocol of engine 2: uci or hub.
    #[arg(long, default_value = "uci")]
    proto2: shashki::protocol::Protocol,
    /// An option of engine 1, NAME=VALUE (repeatable), e.g. Hash=128.
    #[arg(long, value_name = "NAME=VALUE")]
    option1: Vec<String>,
    /// An option of engine 2, NAME=VALUE (repeatable).
    #[arg(long, value_name = "NAME=VALUE")]
    option2: Vec<String>,
    /// Variant: russian, brazilian, adiyukh-64 or adiyukh-80.
    #[arg(long, default_value = "russian")]
    variant: Variant,
    /// Number of games (each opening is played twice, colours reversed).
    #[arg(long, default_value_t = 2, value_parser = whole::<usize>(1, GAMES_MAX))]
    games: usize,
    /// Fischer clock: base+increment in seconds, e.g. 10+0.1.
    #[arg(long, allow_hyphen_values = true)]
    tc: Option<shashki::tools::matches::TimeControl>,
    /// Depth limit per move of both engines.
    #[arg(long, value_parser = within::<u32>(input::DEPTH))]
    depth: Option<u32>,
    /// Depth limit of engine 1 (overrides --depth).
    #[arg(long, value_parser = within::<u32>(input::DEPTH))]
    depth1: Option<u32>,
    /// Depth limit of engine 2 (overrides --depth).
    #[arg(long, value_parser = within::<u32>(input::DEPTH))]
    depth2: Option<u32>,
    /// Node limit per move of both engines.
    #[arg(long, value_parser = within::<u64>(input::NODES))]
    nodes: Option<u64>,
    /// Node limit of engine 1 (overrides --nodes).
    #[arg(long, value_parser = within::<u64>(input::NODES))]
    nodes1: Option<u64>,
    /// Node limit of engine 2 (overrides --nodes).
    #[arg(long, value_parser = within::<u64>(input::NODES))]
    nodes2: Option<u64>,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1, value_parser = whole::<usize>(1, CONCURRENCY_MAX))]
    concurrency: usize,
    /// Opening file (default: the set shipped for the variant).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Write every game to this PDN file.
    #[arg(long)]
    pdn_out: Option<std::path::PathBuf>,
    /// Seed of the opening order.
    #[arg(long, default_value_t = 1, value_parser = whole::<u64>(0, u64::MAX))]
    seed: u64,
    /// Stop when decided: elo0,elo1,alpha,beta (e.g. 0,10,0.05,0.05).
    #[arg(long)]
    sprt: Option<String>,
    /// End a game after this many plies (a draw; Adiyukh: the count).
    #[arg(long, default_value_t = 400, value_parser = whole::<usize>(1, PLIES_MAX))]
    max_plies: usize,
    /// Without a clock: seconds an engine may think about one move; one
    /// that has not moved by then forfeits the game and is restarted.
    #[arg(long, default_value_t = 60.0, value_parser = real(|s| s > 0.0 && s <= MOVE_TIMEOUT_MAX, "a number of seconds above 0 and at most 31536000"))]
    move_timeout: f64,
    /// Milliseconds of grace over the clock before a late move forfeits.
    #[arg(long, default_value_t = 0, value_parser = within::<u64>(input::TIME_MS))]
    time_margin: u64,
    /// Folder of the endgame tables both engines probe (their EGDB Path
    /// option, Hub: egdb-path); 'none': both without tables. Default:
    /// each engine's own default. --option1/--option2 may differ.
    #[arg(long, value_name = "DIR")]
    egdb: Option<std::path::PathBuf>,
}

/// Arguments of `shashki analyse`.
#[derive(clap::Args)]
struct AnalyseArgs {
    /// The PDN file.
    file: std::path::PathBuf,
    /// Variant of games whose tags do not name one: russian, brazilian,
    /// adiyukh-64 or adiyukh-80.
    #[arg(long, default_value = "russian")]
    variant: Variant,
    /// Text encoding of the file: utf-8, windows-1251 (cp1251) or
    /// iso-8859-1 (latin1). Default: UTF-8 if the file is valid UTF-8,
    /// else windows-1251.
    #[arg(long)]
    encoding: Option<String>,
    /// Search each position at most this many milliseconds.
    #[arg(long, value_parser = within::<u64>(input::TIME_MS))]
    movetime: Option<u64>,
    /// Search each position to this depth (default, when no limit is
    /// given: 10). With --movetime, the first limit reached ends a search.
    #[arg(long, value_parser = within::<u32>(input::DEPTH))]
    depth: Option<u32>,
    /// Best lines kept per position.
    #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::MULTIPV))]
    multipv: usize,
    /// Write JSON lines (one object per position) instead of PDN.
    #[arg(long)]
    json: bool,
    /// Output file (default: standard output).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Loss (centi-men; Adiyukh: hundredths of a point) marked ?!.
    #[arg(long, default_value_t = 50, value_parser = whole::<i32>(1, SCORE_MAX))]
    inaccuracy: i32,
    /// Loss marked ?.
    #[arg(long, default_value_t = 100, value_parser = whole::<i32>(1, SCORE_MAX))]
    mistake: i32,
    /// Loss marked ??.
    #[arg(long, default_value_t = 300, value_parser = whole::<i32>(1, SCORE_MAX))]
    blunder: i32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = within::<usize>(options::THREADS))]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = within::<usize>(options::HASH_MIB))]
    hash: usize,
    /// Folder of the endgame tables (a folder per variant, or one
    /// variant's); 'none': no tables. Default: $SHASHKI_EGDB, else
    /// $XDG_DATA_HOME/shashki/egdb (~/.local/share/shashki/egdb), when it
    /// holds tables.
    #[arg(long, value_name = "DIR")]
    egdb: Option<std::path::PathBuf>,
}

/// `shashki egdb ...`
#[derive(Subcommand)]
enum EgdbCommand {
    /// Build every combination with at most --pieces pieces, smallest first
    /// (files found whole are checked and kept; an interrupted build loses
    /// at most the combination it was on).
    Build {
        /// Variant: russian or brazilian (adiyukh-64 and adiyukh-80 have no tables).
        #[arg(long, default_value = "russian")]
        variant: Variant,
        /// Most pieces on the board.
        #[arg(long, default_value_t = 4, value_parser = whole::<u32>(2, shashki::egdb::index::MAX_PIECES as u64))]
        pieces: u32,
        /// Folder of the tables (default: <variant> in the default folder,
        /// $SHASHKI_EGDB, else $XDG_DATA_HOME/shashki/egdb or
        /// ~/.local/share/shashki/egdb). A folder of another variant's
        /// tables is refused.
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Build only this combination and its swap (e.g. KKM-K: the side
        /// to move's pieces first), the tables with fewer pieces and those
        /// of as many pieces with fewer men being in the folder.
        #[arg(long)]
        only: Option<shashki::egdb::Combo>,
        /// Worker threads.
        #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()), value_parser = within::<usize>(options::THREADS))]
        threads: usize,
    },
    /// Print the pairs of combinations with exactly --pieces pieces in
    /// build order, one a line, by the name `build --only` takes: the
    /// tasks of a job array. A pair needs every table with fewer pieces and
    /// the pairs of its piece count with fewer men, no other.
    List {
        /// Pieces on the board.
        #[arg(long, value_parser = whole::<u32>(2, shashki::egdb::index::MAX_PIECES as u64))]
        pieces: u32,
        /// Only the pairs with this many men (of both sides): one wave of
        /// tasks that can all run at once.
        #[arg(long)]
        men: Option<u32>,
        /// After each name, a tab and the positions of the pair (its index
        /// space, both sides to move).
        #[arg(long)]
        sizes: bool,
        /// Only the pairs whose files are not all in this folder (a
        /// resubmitted job array then does only what is left; a build
        /// writes a file under its final name only when it is whole).
        #[arg(long, value_name = "DIR")]
        missing: Option<std::path::PathBuf>,
    },
    /// Check every file of a folder: its checks, and that every win has a
    /// move to a loss and every loss only moves to wins.
    Verify {
        /// Variant: russian or brazilian (adiyukh-64 and adiyukh-80 have no
        /// tables), read from the files when not given (given, it must be
        /// theirs).
        #[arg(long)]
        variant: Option<Variant>,
        /// Folder of the tables, or one with a folder per variant (default:
        /// the default folder, $SHASHKI_EGDB, else
        /// $XDG_DATA_HOME/shashki/egdb or ~/.local/share/shashki/egdb).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Describe a folder: combinations, positions, sizes, wins, draws and
    /// losses.
    Info {
        /// Variant: russian or brazilian (adiyukh-64 and adiyukh-80 have no
        /// tables), read from the files when not given (given, it must be
        /// theirs).
        #[arg(long)]
        variant: Option<Variant>,
        /// Folder of the tables, or one with a folder per variant (default:
        /// the default folder, $SHASHKI_EGDB, else
        /// $XDG_DATA_HOME/shashki/egdb or ~/.local/share/shashki/egdb).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    // Argument errors: one line and a hint, status 2 (shashki::tools::cli).
    let cli: Cli = shashki::tools::cli::parse();
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
            threads,
        }) => run_perft(variant, fen.as_deref(), depth, divide, threads),
        Some(Command::Match(args)) => run_match(&args),
        Some(Command::Egdb(cmd)) => run_egdb(cmd),
        Some(Command::Analyse(args)) => run_analyse(&args),
        Some(Command::Openings {
            variant,
            plies,
            random,
            seed,
            depth,
            max_score,
        }) => {
            let opts = shashki::tools::openings::GenerateOptions {
                plies,
                random,
                seed,
                depth,
                max_score,
            };
            shashki::tools::openings::generate(variant, &opts).map(|text| print!("{text}"))
        }
        Some(Command::Book {
            variant,
            openings,
            depth,
            moves,
            replies,
            reply_depth,
            out,
            threads,
        }) => {
            let opts = shashki::tools::book::BuildOptions {
                depth,
                moves,
                threads,
                replies,
                reply_depth,
            };
            run_book(variant, openings.as_deref(), &opts, out.as_deref())
        }
        Some(Command::Show {
            variant,
            fen,
            svg,
            egdb,
        }) => run_show(variant, fen.as_deref(), svg.as_deref(), egdb.as_deref()),
        Some(Command::Search {
            variant,
            fen,
            moves,
            depth,
            movetime,
            nodes,
            multipv,
            threads,
            hash,
            egdb,
        }) => run_search(
            variant,
            fen.as_deref(),
            &moves,
            (depth, movetime, nodes, multipv),
            (threads, hash),
            egdb.as_deref(),
        ),
        Some(Command::Bench {
            depth,
            threads,
            hash,
        }) => run_bench(depth, threads, hash),
        None => {
            // UCI, or Hub when the first line is `hub`.
            shashki::uci::Uci::new(stdout()).run(std::io::stdin());
            Ok(())
        }
        Some(Command::Uci) => {
            shashki::uci::Uci::new(stdout()).run_uci(std::io::stdin());
            Ok(())
        }
        Some(Command::Hub) => {
            shashki::hub::Hub::new(stdout()).serve(std::io::stdin());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", shashki::input::escape(&e));
            ExitCode::from(2)
        }
    }
}

/// The engine's output: standard output, one flushed line at a time.
fn stdout() -> shashki::serve::Out {
    shashki::serve::Out::new(Box::new(std::io::stdout()))
}

fn load(variant: Variant, text: Option<&str>) -> Result<Position, String> {
    match text {
        None => Ok(Position::start(variant)),
        Some(t) => fen::parse_position(variant, t).map_err(|e| format!("bad position text: {e}")),
    }
}

/// The endgame tables of `--egdb` for `variant`: the folder named ('none':
/// none), or the default one when it exists and holds tables.
fn open_tables(
    arg: Option<&std::path::Path>,
    variant: Variant,
) -> Result<Option<std::sync::Arc<shashki::egdb::Tables>>, String> {
    let tables = match arg {
        Some(p) if p.as_os_str() == "none" => None,
        Some(p) => {
            if !p.is_dir() {
                return Err(format!("--egdb {}: not a folder", p.display()));
            }
            shashki::egdb::Tables::find(p, variant, true)
                .map_err(|e| format!("--egdb {}: {e}", p.display()))?
        }
        None => shashki::egdb::default_base()
            .and_then(|b| shashki::egdb::Tables::find(&b, variant, false).ok())
            .flatten(),
    };
    Ok(tables.map(std::sync::Arc::new))
}

/// A searcher for `--hash` MiB and `--threads` (both in range, checked by
/// the parser): a table the system refuses is an error, not a panic.
fn new_searcher(hash: usize, threads: usize) -> Result<Searcher, String> {
    Searcher::try_new(hash, threads).map_err(|e| format!("--hash {hash}: {e}"))
}

fn run_perft(
    variant: Variant,
    text: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let pos = load(variant, text)?;
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
    egdb: Option<&std::path::Path>,
) -> Result<(), String> {
    let game = Game::from_position(load(variant, text)?);
    print!("{}", shashki::diagram::report(&game));
    if let Some(t) = open_tables(egdb, variant)? {
        if let Some(v) = t.describe(&game, t.pieces()) {
            println!("egdb {v}");
        }
        for e in t.take_errors() {
            eprintln!("error: {e}");
        }
    }
    if let Some(path) = svg {
        std::fs::write(path, shashki::tools::svg::svg(game.position()))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn run_search(
    variant: Variant,
    text: Option<&str>,
    moves: &[String],
    (depth, movetime, nodes, multipv): (Option<u32>, Option<u64>, Option<u64>, usize),
    (threads, hash): (usize, usize),
    egdb: Option<&std::path::Path>,
) -> Result<(), String> {
    let mut game = Game::from_position(load(variant, text)?);
    for m in moves {
        game.play_text(m).map_err(|e| format!("move '{m}': {e}"))?;
    }
    // The limits combine (the first reached ends the search), as in `go`.
    let limits = Limits {
        depth: if (depth, movetime, nodes) == (None, None, None) {
            Some(10)
        } else {
            depth
        },
        movetime_ms: movetime,
        nodes,
        multipv,
        ..Limits::default()
    };
    let pos = *game.position();
    let mut searcher = new_searcher(hash, threads)?;
    let tables = open_tables(egdb, variant)?;
    searcher.set_tables(tables.clone(), shashki::egdb::index::MAX_PIECES);
    let result = searcher.search(&game, &limits, &mut |info| {
        println!("{}", shashki::protocol::Info::of_search(&pos, info))
    });
    for e in tables.iter().flat_map(|t| t.take_errors()) {
        eprintln!("error: {e}");
    }
    let best = shashki::protocol::BestMove {
        mv: result.best.map(|m| notation::move_text(&pos, &m)),
        ponder: None,
    };
    println!("{}", best.uci_line());
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
    let mut searcher = new_searcher(hash, threads)?;
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

fn parse_options(list: &[String], which: u32) -> Result<Vec<(String, String)>, String> {
    list.iter()
        .map(|o| match o.split_once('=') {
            Some((n, v)) if !n.trim().is_empty() => {
                Ok((n.trim().to_string(), v.trim().to_string()))
            }
            _ => Err(format!("--option{which} '{o}': expected NAME=VALUE")),
        })
        .collect()
}

fn run_match(a: &MatchArgs) -> Result<(), String> {
    use shashki::tools::matches::{self, MatchConfig};
    use shashki::tools::player::EngineSpec;
    use std::io::{IsTerminal, Write};
    let me = std::env::current_exe()
        .map_err(|e| format!("cannot find this program's path: {e}"))?
        .to_string_lossy()
        .into_owned();
    let quoted = format!("'{}'", me.replace('\'', r"'\''"));
    // --egdb: each engine's option for the tables' folder, before its own.
    let egdb = match &a.egdb {
        Some(p) if p.as_os_str() == "none" => Some(String::new()),
        Some(p) if !p.is_dir() => return Err(format!("--egdb {}: not a folder", p.display())),
        Some(p) => Some(p.to_string_lossy().into_owned()),
        None => None,
    };
    let spec = |cmd: &Option<String>, name: &Option<String>, proto, opts: &[String], k| {
        let mut options = Vec::new();
        if let Some(dir) = &egdb {
            options.push(match proto {
                shashki::protocol::Protocol::Hub => ("egdb-path".to_string(), dir.clone()),
                _ if dir.is_empty() => ("EGDB Path".to_string(), "<empty>".to_string()),
                _ => ("EGDB Path".to_string(), dir.clone()),
            });
        }
        options.extend(parse_options(opts, k)?);
        Ok::<EngineSpec, String>(EngineSpec {
            name: name.clone(),
            command: cmd.clone().unwrap_or_else(|| quoted.clone()),
            protocol: proto,
            options,
        })
    };
    let openings_text = match &a.openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?,
        None => shashki::tools::openings::builtin(a.variant).to_string(),
    };
    let openings = shashki::tools::openings::parse(a.variant, &openings_text)?;
    let sprt = a
        .sprt
        .as_deref()
        .map(shashki::tools::elo::Sprt::parse)
        .transpose()?;
    let config = MatchConfig {
        engines: [
            spec(&a.engine1, &a.name1, a.proto1, &a.option1, 1)?,
            spec(&a.engine2, &a.name2, a.proto2, &a.option2, 2)?,
        ],
        variant: a.variant,
        games: a.games,
        tc: a.tc,
        depth: [a.depth1.or(a.depth), a.depth2.or(a.depth)],
        nodes: [a.nodes1.or(a.nodes), a.nodes2.or(a.nodes)],
        concurrency: a.concurrency,
        openings,
        seed: a.seed,
        max_plies: a.max_plies,
        move_timeout_ms: (a.move_timeout * 1000.0) as u64,
        time_margin_ms: a.time_margin,
        sprt,
        event: format!("shashki match, {}", a.variant.id()),
        // Ctrl-C: the score so far, the PDN of the finished games, no
        // engine left running.
        interrupt: Some(matches::stop_on_ctrl_c()?),
    };
    let mut pdn = match &a.pdn_out {
        Some(p) => Some(
            std::fs::File::create(p).map_err(|e| format!("cannot write '{}': {e}", p.display()))?,
        ),
        None => None,
    };
    let tty = std::io::stderr().is_terminal();
    let mut write_error = None;
    let (standing, names) = matches::run(&config, &mut |event, standing, names| {
        let report = match event {
            matches::Event::Game(report) => report,
            matches::Event::Tick => {
                if tty {
                    let bar = matches::progress_bar(standing.played, config.games, standing);
                    eprint!("\r\x1b[K{bar}");
                }
                return;
            }
        };
        if tty {
            eprint!("\r\x1b[K");
        }
        // A closed output (`| head`) is not a reason to stop the match.
        let _ = writeln!(
            std::io::stdout(),
            "{}",
            matches::game_line(report, standing, names, config.games)
        );
        if tty {
            eprint!(
                "{}",
                matches::progress_bar(standing.played, config.games, standing)
            );
        }
        if let Some(f) = pdn.as_mut() {
            let text = shashki::pdn::write_game(&report.record);
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                write_error.get_or_insert(e.to_string());
            }
        }
    })?;
    if tty {
        eprintln!();
    }
    if standing.interrupted {
        let _ = writeln!(
            std::io::stdout(),
            "interrupted after {} of {} games (games under way abandoned); the score so far:",
            standing.played,
            config.games
        );
    }
    let _ = write!(
        std::io::stdout(),
        "{}",
        matches::summary(a.variant, &standing, &names)
    );
    if let Some(e) = write_error {
        return Err(format!("writing the PDN file: {e}"));
    }
    if standing.interrupted {
        // Every finished game is in the PDN file, flushed as it ended.
        drop(pdn);
        let _ = std::io::stdout().flush();
        std::process::exit(130);
    }
    Ok(())
}

fn run_analyse(a: &AnalyseArgs) -> Result<(), String> {
    use shashki::tools::analyse::{self, Thresholds};
    use std::io::Write;
    let encoding = (a.encoding.as_deref().map(str::parse).transpose())
        .map_err(|e| format!("--encoding: {e}"))?;
    let t = Thresholds {
        inaccuracy: a.inaccuracy,
        mistake: a.mistake,
        blunder: a.blunder,
    };
    if !(0 < t.inaccuracy && t.inaccuracy <= t.mistake && t.mistake <= t.blunder) {
        return Err("thresholds must satisfy 0 < --inaccuracy <= --mistake <= --blunder".into());
    }
    // Read first: a file that is not PDN is one line, before any output
    // file is made.
    let text = shashki::pdn::read_file(&a.file, encoding)?;
    let games = shashki::pdn::read_games(&text, a.variant);
    if !shashki::pdn::holds_pdn(&games) {
        let what = if text.trim().is_empty() {
            "it is empty"
        } else {
            "not one tag pair [Name \"value\"] or legal move in it"
        };
        return Err(format!("'{}' is not a PDN file: {what}", a.file.display()));
    }
    // The limits combine (the first reached ends a search), as in `go`.
    let limits = Limits {
        depth: a.depth.or(a.movetime.is_none().then_some(10)),
        movetime_ms: a.movetime,
        multipv: a.multipv,
        ..Limits::default()
    };
    let mut searcher = new_searcher(a.hash, a.threads)?;
    searcher.set_tables(
        open_tables(a.egdb.as_deref(), a.variant)?,
        shashki::egdb::index::MAX_PIECES,
    );
    let mut out: Box<dyn Write> = match &a.out {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write '{}': {e}", p.display()))?,
        )),
        None => Box::new(std::io::stdout()),
    };
    let total = games.len();
    let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let (mut done, mut bad) = (0, 0);
    for (i, g) in games.into_iter().enumerate() {
        let mut rec = match g {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {}", shashki::input::escape(&e.to_string()));
                bad += 1;
                continue;
            }
        };
        searcher.clear();
        let mut write_err = None;
        if a.json {
            if let Err(e) = writeln!(out, "{}", analyse::json_game_line(i + 1, &rec)) {
                write_err.get_or_insert(e);
            }
        }
        let plies = rec.game.moves().len();
        let reports = analyse::analyse(&rec, &mut searcher, &limits, &t, &mut |r| {
            if tty {
                eprint!("\rgame {}/{total}: ply {}/{plies}   ", i + 1, r.ply);
            }
            if a.json {
                if let Err(e) = writeln!(out, "{}", analyse::json_line(i + 1, r)) {
                    write_err.get_or_insert(e);
                }
            }
        });
        if tty {
            eprintln!();
        }
        if !a.json {
            analyse::annotate(&mut rec, &reports);
            if let Err(e) = out.write_all(shashki::pdn::write_game(&rec).as_bytes()) {
                write_err.get_or_insert(e);
            }
        }
        if let Some(e) = write_err.or_else(|| out.flush().err()) {
            return Err(format!("writing the output: {e}"));
        }
        done += 1;
    }
    if done == 0 {
        return Err(format!(
            "no game of '{}' could be read ({bad} malformed)",
            a.file.display()
        ));
    }
    Ok(())
}

fn run_egdb(cmd: EgdbCommand) -> Result<(), String> {
    use shashki::egdb::build::{build_with_progress, BuildOptions, Progress, Totals};
    use shashki::tools::egdb as info;
    use std::io::Write;

    match cmd {
        EgdbCommand::Build {
            variant,
            pieces,
            dir,
            only,
            threads,
        } => {
            let opts = BuildOptions {
                variant,
                pieces,
                dir: match dir {
                    Some(d) => d,
                    None => shashki::egdb::default_dir(variant)?,
                },
                only,
            };
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
            let start = Instant::now();
            let all: u64 = match only {
                Some(c) => c.pair_size(),
                None => shashki::egdb::build::build_order(pieces)
                    .iter()
                    .map(|c| c.pair_size())
                    .sum(),
            };
            // On a terminal, one line redrawn in place from another thread
            // every quarter second, from the build's progress counters;
            // otherwise a line per finished pair.
            let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
            let progress = Progress::default();
            let totals = std::sync::Mutex::new(Totals::default());
            let (stop, stopped) = std::sync::mpsc::channel::<()>();
            let result = std::thread::scope(|scope| {
                if tty {
                    let (progress, totals) = (&progress, &totals);
                    scope.spawn(move || {
                        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                            stopped.recv_timeout(std::time::Duration::from_millis(250))
                        {
                            let t = totals.lock().unwrap_or_else(|p| p.into_inner()).clone();
                            let line = info::progress_line(
                                &progress.snapshot(),
                                &t,
                                all,
                                start.elapsed().as_secs_f64(),
                            );
                            shashki::tools::progress::redraw(&line);
                        }
                    });
                }
                let result = pool.install(|| {
                    build_with_progress(&opts, &progress, &mut |r| {
                        let mut t = totals.lock().unwrap_or_else(|p| p.into_inner());
                        t.add(r);
                        if tty {
                            return;
                        }
                        let names: Vec<String> = r.combos.iter().map(|c| c.name()).collect();
                        let what = if r.skipped { "present, checked" } else { "built" };
                        // What is left, at the pace of what was built so far.
                        let eta = if t.built > 0 {
                            format!(", about {:.0} s left", (all - t.done) as f64 * t.built_secs / t.built as f64)
                        } else {
                            String::new()
                        };
                        eprintln!(
                            "{:<13} {what}: {} positions, +{} ={} -{}, {} bytes, {:.1} s ({} of {all} positions, {:.0} s{eta})",
                            names.join(" "),
                            r.positions,
                            r.wdl[0],
                            r.wdl[1],
                            r.wdl[2],
                            r.bytes,
                            r.seconds,
                            t.done,
                            start.elapsed().as_secs_f64()
                        );
                    })
                });
                drop(stop);
                result
            });
            if tty {
                shashki::tools::progress::clear();
                let t = totals.lock().unwrap_or_else(|p| p.into_inner());
                eprintln!(
                    "pairs: {} built ({} positions, {} bytes), {} found whole and checked, in {}",
                    t.pairs,
                    t.built,
                    t.bytes,
                    t.skipped,
                    shashki::tools::progress::clock_time(start.elapsed().as_secs())
                );
            }
            result?;
            println!("done: {}", opts.dir.display());
            Ok(())
        }
        EgdbCommand::List {
            pieces,
            men,
            sizes,
            missing,
        } => {
            use shashki::egdb::file::Kind;
            let whole = |dir: &std::path::Path, c: shashki::egdb::Combo| {
                [c, c.swapped()].into_iter().all(|c| {
                    [Kind::Values, Kind::Plies]
                        .into_iter()
                        .all(|k| dir.join(k.file_name(c)).is_file())
                })
            };
            if let Some(dir) = &missing {
                if !dir.is_dir() && dir.exists() {
                    return Err(format!("egdb list: '{}' is not a folder", dir.display()));
                }
            }
            let mut out = std::io::stdout().lock();
            for c in shashki::egdb::build::build_order(pieces) {
                if c.pieces() != pieces || men.is_some_and(|m| c.men() != m) {
                    continue;
                }
                if missing.as_deref().is_some_and(|d| whole(d, c)) {
                    continue;
                }
                let line = if sizes {
                    format!("{}\t{}", c.name(), c.pair_size())
                } else {
                    c.name()
                };
                // A closed output (`| head`) ends the list quietly.
                if writeln!(out, "{line}").is_err() {
                    break;
                }
            }
            Ok(())
        }
        EgdbCommand::Verify { variant, dir } => {
            let folders = info::folders(dir.as_deref(), variant)?;
            let (mut files, mut failures) = (0, 0);
            for (dir, variant) in &folders {
                let report = info::verify(dir, *variant)?;
                for line in &report.lines {
                    println!("{line}");
                }
                files += report.files;
                failures += report.failures;
                if report.failures == 0 {
                    println!(
                        "{} files of {variant} verified in {}",
                        report.files,
                        dir.display()
                    );
                }
            }
            if failures > 0 {
                return Err(format!("{failures} of {files} files failed"));
            }
            Ok(())
        }
        EgdbCommand::Info { variant, dir } => {
            let folders = info::folders(dir.as_deref(), variant)?;
            for (k, (dir, variant)) in folders.iter().enumerate() {
                if k > 0 {
                    println!();
                }
                println!("{variant} tables in {}", dir.display());
                for line in info::describe(dir, *variant)? {
                    println!("{line}");
                }
            }
            Ok(())
        }
    }
}

/// `shashki book`: the book of `variant` from an opening file (or the
/// shipped set), to standard output.
fn run_book(
    variant: Variant,
    openings: Option<&std::path::Path>,
    opts: &shashki::tools::book::BuildOptions,
    out: Option<&std::path::Path>,
) -> Result<(), String> {
    use shashki::book::Book;
    use shashki::tools::{book, openings as sets};
    let text = match openings {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?,
        None => sets::builtin(variant).to_string(),
    };
    let set = sets::parse(variant, &text)?;
    // A book already at --out: the build goes on from it.
    let start = match out {
        Some(path) if path.exists() => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read book '{}': {e}", path.display()))?;
            let b = Book::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            if b.variant() != Some(variant) {
                return Err(format!(
                    "{}: not a {variant} book; name another --out file",
                    path.display()
                ));
            }
            eprintln!(
                "book: going on from {} positions in {}",
                b.len(),
                path.display()
            );
            b
        }
        _ => Book::new(variant),
    };
    let source = match openings {
        Some(p) => format!(" --openings {}", p.display()),
        None => String::new(),
    };
    let (depth, moves) = (opts.depth, opts.moves);
    let follow = match opts.replies {
        0 => String::new(),
        n => format!(" --replies {n} --reply-depth {}", opts.reply_depth),
    };
    let text = |made: &Book| {
        let comment = format!(
            "{} opening book: {} positions, the first {moves} move(s) of either side after each opening, a depth-{depth} search each\nmade by: shashki book --variant {}{source} --depth {depth} --moves {moves}{follow}",
            variant.id(),
            made.len(),
            variant.id()
        );
        made.to_text(&comment)
    };
    let mut save = |made: &Book| match out {
        Some(path) => {
            // Whole or not at all: a stopped build leaves the last book.
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, text(made))
                .and_then(|()| std::fs::rename(&tmp, path))
                .map_err(|e| format!("cannot write book '{}': {e}", path.display()))
        }
        None => Ok(()),
    };
    // A folder that cannot take the book fails now, not after the first
    // searches.
    save(&start)?;
    let started = std::time::Instant::now();
    let made = book::build(
        variant,
        &set,
        opts,
        start,
        &mut |level, n| {
            eprintln!(
                "book: move {level}: {n} positions to search ({:.0} s so far)",
                started.elapsed().as_secs_f64()
            )
        },
        &|n| {
            if n % 100 == 0 {
                eprintln!(
                    "book: {n} searched ({:.0} s so far)",
                    started.elapsed().as_secs_f64()
                );
            }
        },
        &mut save,
    )?;
    if out.is_none() {
        print!("{}", text(&made));
    }
    Ok(())
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

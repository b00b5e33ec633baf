//! `shashki-gui`: the board in the browser. Serves the page on
//! 127.0.0.1 (by default) and drives the engine named on the command line.

use clap::Parser;
use shashki::protocol::process::Program;
use shashki::protocol::Protocol;
use shashki_gui::engine::EngineConfig;
use shashki_gui::{app, engine_beside, Config};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// A board in the browser: play and analyse against an engine.
#[derive(Parser, Debug)]
#[command(name = "shashki-gui", version)]
struct Args {
    /// The port to serve on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default is the loopback address: only
    /// this machine can reach the page. Another address opens the server,
    /// which runs engines for whoever reaches it, to the network.
    #[arg(long, default_value = "127.0.0.1")]
    listen: IpAddr,
    /// The engine's command line, run by `sh -c` (default: the `shashki`
    /// engine beside this program).
    #[arg(long)]
    engine: Option<String>,
    /// The engine's protocol: `uci` (the UCI-like protocol of PROTOCOL.md)
    /// or `hub` (Scan's Hub protocol; `shashki hub` speaks it).
    #[arg(long, default_value = "uci")]
    proto: String,
    /// Open the page in the system's browser.
    #[arg(long)]
    open: bool,
    /// The most sessions (browser tabs) at once.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1000))]
    max_sessions: u64,
    /// The most engine processes one session may start.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10000))]
    max_engine_starts: u32,
    /// Each engine's transposition table in MiB (its `Hash` option).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
}

fn fail(msg: &str) -> ! {
    eprintln!("error: {}", shashki::input::escape(msg));
    std::process::exit(2);
}

#[tokio::main]
async fn main() {
    let args = Args::parse();
    let protocol = args.proto.parse::<Protocol>().unwrap_or_else(|_| {
        fail(&format!(
            "--proto {}: unknown protocol (expected uci or hub)",
            shashki::input::quote(&args.proto)
        ))
    });
    let program = match args.engine {
        Some(cmd) if cmd.trim().is_empty() => fail("--engine: empty command line"),
        Some(cmd) => Program::Shell(cmd),
        None => {
            let exe = std::env::current_exe()
                .unwrap_or_else(|e| fail(&format!("cannot find this program's path: {e}")));
            Program::Path(engine_beside(&exe).unwrap_or_else(|e| fail(&e)))
        }
    };
    let config = Config {
        engine: EngineConfig {
            program,
            protocol,
            hash_mib: args.hash,
        },
        max_sessions: args.max_sessions as usize,
        max_engine_starts: args.max_engine_starts,
        idle: Duration::from_secs(300),
        grace: Duration::from_secs(60),
    };
    let addr = SocketAddr::new(args.listen, args.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .unwrap_or_else(|e| fail(&format!("cannot listen on {addr}: {e}")));
    let local = listener.local_addr().unwrap_or(addr);
    let url = if local.ip().is_unspecified() {
        format!("http://127.0.0.1:{}/", local.port())
    } else {
        format!("http://{local}/")
    };
    println!(
        "shashki-gui: serving {url} (engine: {}, protocol {})",
        config.engine.program.describe(),
        config.engine.protocol.id()
    );
    if !args.listen.is_loopback() {
        eprintln!(
            "warning: listening on {} lets other machines start engines here",
            args.listen
        );
    }
    if args.open {
        open_browser(&url);
    }
    let router = app(config, args.listen.is_loopback());
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    if let Err(e) = axum::serve(listener, router)
        .with_graceful_shutdown(shutdown)
        .await
    {
        fail(&format!("server: {e}"));
    }
}

/// Start the system's browser on `url` (failure is only a warning).
fn open_browser(url: &str) {
    let mut cmd = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else {
        std::process::Command::new("xdg-open")
    };
    if let Err(e) = cmd.arg(url).spawn() {
        eprintln!("warning: cannot open a browser ({e}); open {url} yourself");
    }
}

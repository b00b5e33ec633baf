//! What the GUI's test binaries share: the engine of this build, and a
//! server on a free loopback port.

use shashki_gui::{app, Config};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The `shashki` engine of this build: beside the test binary's folder, or
/// built now (`cargo test -p shashki-gui` alone does not build it).
pub fn engine_path() -> PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        // The engines the server starts inherit this: no endgame tables (a
        // folder that does not exist), whatever a user built in the
        // default folder.
        if std::env::var_os("SHASHKI_EGDB").is_none() {
            std::env::set_var(
                "SHASHKI_EGDB",
                std::env::temp_dir().join("shashki-tests-no-egdb"),
            );
        }
        let exe = std::env::current_exe().expect("test binary path");
        if let Ok(p) = shashki_gui::engine_beside(&exe) {
            return p;
        }
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = std::process::Command::new(cargo)
            .args([
                "build",
                "--profile",
                "test",
                "-p",
                "shashki",
                "--bin",
                "shashki",
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("run cargo build for the engine");
        assert!(status.success(), "cargo build -p shashki failed");
        shashki_gui::engine_beside(&exe).expect("the engine after building it")
    })
    .clone()
}

/// Serve on a free loopback port; the server lives as long as the runtime.
pub async fn serve(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(config, true);
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    addr
}

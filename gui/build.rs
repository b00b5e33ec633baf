//! Whether the browser test (tests/browser.rs) can run here: without
//! `chromium` and `chromedriver` on the PATH it is compiled as ignored, so
//! that `cargo test` shows `ignored, needs chromium and chromedriver ...`
//! in its result line and counts it under "ignored", instead of a pass.
//! With `SHASHKI_REQUIRE_BROWSER=1` (set by `.ci/run`) it is never ignored:
//! it runs, and fails when they are missing.
//!
//! The test looks for the programs again when it runs (`cargo test --
//! --ignored` runs it wherever they are found then).

use std::path::PathBuf;

/// Where the test looks for the programs: the PATH, then /usr/bin.
fn search_dirs() -> Vec<PathBuf> {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&paths)
        .chain([PathBuf::from("/usr/bin")])
        .filter(|d| d.is_absolute())
        .collect()
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(browser_test_ignored)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=SHASHKI_REQUIRE_BROWSER");
    println!("cargo::rerun-if-env-changed=PATH");
    let dirs = search_dirs();
    let mut missing = false;
    for name in ["chromium", "chromedriver"] {
        match dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()) {
            // Found: looked at again if it goes.
            Some(p) => println!("cargo::rerun-if-changed={}", p.display()),
            None => missing = true,
        }
    }
    if missing {
        // Looked at again when a program is installed into one of them.
        for d in dirs.iter().filter(|d| d.is_dir()) {
            println!("cargo::rerun-if-changed={}", d.display());
        }
    }
    let required = std::env::var("SHASHKI_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    if missing && !required {
        println!("cargo::rustc-cfg=browser_test_ignored");
    }
}

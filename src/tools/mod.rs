//! The tools: what sits above the engine and drives it, or reports on it,
//! for the command lines (`shashki`, `shashki-tune`) and the browser board.
//!
//! The engine layers (everything in the crate outside this folder) never
//! import from here; the tools import the engine. `shashki-tune` and `gui/`
//! take what they share with `shashki` from here.
//!
//! - [`egdb`]: `egdb info` and `egdb verify` on a folder of endgame tables.
//! - [`cli`]: what the command lines share: number parsers, one-line errors.
//! - [`player`]: an external engine over pipes (UCI or Hub), for matches.
//! - [`matches`](mod@matches): the match runner (engine against engine, clocks, forfeits).
//! - [`elo`]: match statistics: Elo and its interval, SPRT (also `shashki-tune compare`'s).
//! - [`progress`]: progress lines for a terminal (bar, elapsed, ETA), for matches and table builds.
//! - [`openings`]: opening files and the shipped sets.
//! - [`book`](mod@book): the maker of the opening books (`shashki book`).
//! - [`analyse`]: game analysis: values, best lines, glyphs.
//! - [`svg`]: a position as an SVG picture (`shashki show --svg`, the browser board).

pub mod analyse;
pub mod book;
pub mod cli;
pub mod egdb;
pub mod elo;
pub mod matches;
pub mod openings;
pub mod player;
pub mod progress;
pub mod svg;

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The `.rs` files under `dir`, in every subfolder.
    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                sources(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// The layers below the tools (every file of `src/` outside `tools/`,
    /// the binary's `main.rs` aside) never name `crate::tools` outside
    /// comments.
    #[test]
    fn the_engine_does_not_import_the_tools() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let mut checked = 0;
        for path in &files {
            let rel = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel.starts_with("tools/") || rel == "main.rs" {
                continue;
            }
            checked += 1;
            let text = std::fs::read_to_string(path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.trim_start();
                assert!(
                    code.starts_with("//") || !code.contains("crate::tools"),
                    "src/{rel}:{} imports the tools: {code}",
                    i + 1
                );
            }
        }
        assert!(checked > 20, "{checked} files checked");
    }
}

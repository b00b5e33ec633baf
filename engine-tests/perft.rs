//! Perft against the shared reference file and the series published in the
//! rule book.
//!
//! Every line of `testdata/perft.txt` is checked in the normal test run:
//! lines up to 50 million leaves serially with `perft::perft`, larger ones
//! with `perft::perft_parallel` (rayon).

use crate::common::{position, read_repo};
use shashki::{notation, perft, Position, Variant};

/// Lines with more leaves than this are counted on rayon's pool.
const PARALLEL_ABOVE: u64 = 50_000_000;

/// One line of `perft.txt`: `variant;name;position;depth;count`.
#[derive(Clone, Debug)]
struct PerftLine {
    line_no: usize,
    variant_text: String,
    variant: Variant,
    name: String,
    position: String,
    depth: u32,
    count: u64,
}

impl PerftLine {
    fn label(&self) -> String {
        format!(
            "perft.txt line {}: {} {} depth {}",
            self.line_no, self.variant_text, self.name, self.depth
        )
    }

    fn pos(&self) -> Position {
        position(self.variant, &self.position)
    }
}

fn perft_lines() -> Vec<PerftLine> {
    let text = read_repo("engine-tests/testdata/perft.txt");
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            5,
            "perft.txt line {}: expected 5 fields: {line}",
            i + 1
        );
        let variant = fields[0]
            .parse::<Variant>()
            .unwrap_or_else(|e| panic!("perft.txt line {}: {e}", i + 1));
        lines.push(PerftLine {
            line_no: i + 1,
            variant_text: fields[0].to_string(),
            variant,
            name: fields[1].to_string(),
            position: fields[2].to_string(),
            depth: fields[3]
                .parse()
                .unwrap_or_else(|e| panic!("perft.txt line {}: bad depth: {e}", i + 1)),
            count: fields[4]
                .parse()
                .unwrap_or_else(|e| panic!("perft.txt line {}: bad count: {e}", i + 1)),
        });
    }
    assert!(!lines.is_empty(), "perft.txt has no data lines");
    lines
}

/// Check `lines`, printing every line and collecting the failures.
fn check_lines(lines: &[PerftLine], parallel: bool) {
    let mut failures = Vec::new();
    for line in lines {
        let pos = match shashki::fen::parse_position(line.variant, &line.position) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: position refused: {e}", line.label()));
                continue;
            }
        };
        let start = std::time::Instant::now();
        let got = if parallel {
            perft::perft_parallel(&pos, line.depth)
        } else {
            perft::perft(&pos, line.depth)
        };
        let status = if got == line.count { "ok" } else { "FAIL" };
        println!(
            "{status} {} expected {} got {got} ({:.2} s)",
            line.label(),
            line.count,
            start.elapsed().as_secs_f64()
        );
        if got != line.count {
            failures.push(format!(
                "{}: expected {}, got {got}",
                line.label(),
                line.count
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} perft line(s) wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_file_small_lines_serial() {
    let lines: Vec<PerftLine> = perft_lines()
        .into_iter()
        .filter(|l| l.count <= PARALLEL_ABOVE)
        .collect();
    check_lines(&lines, false);
}

#[test]
fn perft_file_large_lines_parallel() {
    let lines: Vec<PerftLine> = perft_lines()
        .into_iter()
        .filter(|l| l.count > PARALLEL_ABOVE)
        .collect();
    check_lines(&lines, true);
}

#[test]
fn perft_file_covers_every_variant() {
    let lines = perft_lines();
    for v in Variant::ALL {
        assert!(
            lines.iter().any(|l| l.variant == v),
            "perft.txt has no line for {v}"
        );
    }
    // The depth-0 convention: one leaf, the position itself.
    for l in &lines {
        assert_eq!(perft::perft(&l.pos(), 0), 1, "{}: depth 0", l.label());
    }
}

#[test]
fn perft_parallel_equals_serial() {
    let lines = perft_lines();
    let small: Vec<&PerftLine> = lines
        .iter()
        .filter(|l| l.count >= 200 && l.count <= 300_000 && l.depth >= 4)
        .collect();
    assert!(small.len() >= 5, "too few small lines to compare");
    for l in small {
        let pos = l.pos();
        let serial = perft::perft(&pos, l.depth);
        let parallel = perft::perft_parallel(&pos, l.depth);
        assert_eq!(
            parallel,
            serial,
            "{}: perft_parallel {parallel} != perft {serial}",
            l.label()
        );
        assert_eq!(
            serial,
            l.count,
            "{}: expected {}, got {serial}",
            l.label(),
            l.count
        );
    }
    // Shallow depths take the serial path inside perft_parallel.
    for v in Variant::ALL {
        let pos = Position::start(v);
        for d in 0..=3 {
            assert_eq!(
                perft::perft_parallel(&pos, d),
                perft::perft(&pos, d),
                "{v} depth {d}"
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let lines = perft_lines();
    let chosen: Vec<&PerftLine> = lines
        .iter()
        .filter(|l| l.count <= 200_000 && l.depth >= 2)
        .collect();
    assert!(!chosen.is_empty());
    for l in chosen {
        let pos = l.pos();
        let legal = pos.legal_moves();
        for parallel in [false, true] {
            let parts = perft::divide(&pos, l.depth, parallel);
            let sum: u64 = parts.iter().map(|(_, n)| n).sum();
            assert_eq!(
                sum,
                l.count,
                "{}: divide(parallel={parallel}) sums to {sum}, expected {}",
                l.label(),
                l.count
            );
            // One entry per legal root move, each with its own subtree count.
            assert_eq!(
                parts.len(),
                legal.len(),
                "{}: divide lists {} moves",
                l.label(),
                parts.len()
            );
            for (m, n) in &parts {
                assert!(
                    legal.iter().any(|x| x == m),
                    "{}: divide lists a move that is not legal: {}",
                    l.label(),
                    notation::move_text(&pos, m)
                );
                assert_eq!(
                    *n,
                    perft::perft(&pos.play(m), l.depth - 1),
                    "{}: divide count of {}",
                    l.label(),
                    notation::move_text(&pos, m)
                );
            }
        }
    }
}

/// The published start-position series of rules/russian.md ("Perft from the
/// start position (distinct moves)"), depths 1-9.
const RUSSIAN_PUBLISHED: [u64; 9] = [7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586];

/// The published start-position series of rules/brazilian.md, depths 1-9.
const BRAZILIAN_PUBLISHED: [u64; 9] = [7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766];

/// rules/adiyukh.md, "Perft from the start", 64 squares: depths 1-7.
const ADIYUKH64_PUBLISHED: [u64; 7] = [7, 49, 302, 1469, 7482, 37908, 189912];

/// rules/adiyukh.md, "Perft from the start", 80 squares: depths 1-6.
const ADIYUKH80_PUBLISHED: [u64; 6] = [9, 81, 658, 4265, 27132, 168158];

/// All numbers of at least one digit in `text`, in order (commas inside a
/// number are not used by the rule book, so `7, 49` is two numbers).
fn numbers_in(text: &str) -> Vec<u64> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// The rule file must still print the series the test hard-codes (guards
/// against a silently edited rule book).
fn assert_rule_text_has_series(file: &str, after: &str, series: &[u64]) {
    let text = read_repo(file);
    let at = text
        .find(after)
        .unwrap_or_else(|| panic!("{file}: section {after:?} not found"));
    let nums = numbers_in(&text[at..]);
    assert!(
        nums.windows(series.len()).any(|w| w == series),
        "{file}: the series {series:?} is not printed after {after:?}"
    );
}

fn check_series(variant: Variant, series: &[u64], source: &str) {
    let pos = Position::start(variant);
    let mut failures = Vec::new();
    for (i, &expected) in series.iter().enumerate() {
        let depth = i as u32 + 1;
        let got = perft::perft(&pos, depth);
        if got != expected {
            failures.push(format!(
                "{variant} start depth {depth}: expected {expected} ({source}), got {got}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn russian_published_series() {
    assert_rule_text_has_series("docs/rules/russian.md", "## Perft", &RUSSIAN_PUBLISHED);
    check_series(
        Variant::Russian,
        &RUSSIAN_PUBLISHED,
        "docs/rules/russian.md",
    );
}

#[test]
fn brazilian_published_series() {
    assert_rule_text_has_series("docs/rules/brazilian.md", "## Perft", &BRAZILIAN_PUBLISHED);
    check_series(
        Variant::Brazilian,
        &BRAZILIAN_PUBLISHED,
        "docs/rules/brazilian.md",
    );
}

#[test]
fn adiyukh_published_series() {
    assert_rule_text_has_series(
        "docs/rules/adiyukh.md",
        "**Perft from the start**",
        &ADIYUKH64_PUBLISHED,
    );
    assert_rule_text_has_series(
        "docs/rules/adiyukh.md",
        "**Perft from the start**",
        &ADIYUKH80_PUBLISHED,
    );
    check_series(
        Variant::Adiyukh64,
        &ADIYUKH64_PUBLISHED,
        "rules/adiyukh.md, 64 squares",
    );
    check_series(
        Variant::Adiyukh80,
        &ADIYUKH80_PUBLISHED,
        "rules/adiyukh.md, 80 squares",
    );
}

/// Perft by plain generation: every move of every node is made, down to
/// depth 0 (no counting at the last ply, no shortcut of `perft::perft`).
fn plain_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|m| plain_perft(&pos.play(m), depth - 1))
        .sum()
}

/// The positions of `testdata/speed-suite.txt` (`variant;name;position;depth`),
/// as (name, position, depth).
fn speed_suite() -> Vec<(String, Position, u32)> {
    let text = read_repo("engine-tests/testdata/speed-suite.txt");
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            4,
            "speed-suite.txt line {}: expected 4 fields: {line}",
            i + 1
        );
        let variant = fields[0]
            .parse::<Variant>()
            .unwrap_or_else(|e| panic!("speed-suite.txt line {}: {e}", i + 1));
        let depth = fields[3]
            .parse()
            .unwrap_or_else(|e| panic!("speed-suite.txt line {}: bad depth: {e}", i + 1));
        out.push((fields[1].to_string(), position(variant, fields[2]), depth));
    }
    out
}

/// The speed suite has no reference counts: its perft (the benchmark's,
/// counting the last ply without making it) is checked against plain
/// generation at every depth up to one ply short of the benchmark's
/// (about a second in all).
#[test]
fn speed_suite_perft_equals_plain_generation() {
    let suite = speed_suite();
    assert_eq!(suite.len(), 13, "speed-suite.txt: KestoG's 13 positions");
    for (name, pos, suite_depth) in &suite {
        for depth in 1..*suite_depth {
            let fast = perft::perft(pos, depth);
            let plain = plain_perft(pos, depth);
            assert_eq!(fast, plain, "speed suite {name} depth {depth}");
        }
    }
}

//! The `shashki` command line through the built binary: bad input gives
//! one line on standard error and status 2, never a panic.

use std::process::Command;

/// Run `shashki` with `args`: (exit status, standard output, standard
/// error). A run longer than a minute is killed and fails the test (a
/// command line the engine should refuse may otherwise search for ever).
pub fn shashki(args: &[&str]) -> (i32, String, String) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = crate::common::shashki_command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shashki");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("shashki {args:?} still runs after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    (
        status.code().unwrap_or(-1),
        out.join().unwrap(),
        err.join().unwrap(),
    )
}

/// `args` must fail with status 2 and one line on standard error that
/// starts with `error: ` and contains every one of `needles` (an argument
/// error of the parser may add a second line, a hint where to read more).
#[track_caller]
fn refused(args: &[&str], needles: &[&str]) -> String {
    let (code, out, err) = shashki(args);
    assert_eq!(code, 2, "{args:?}: status {code}, stderr {err:?}");
    assert!(out.is_empty(), "{args:?}: stdout {out:?}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.len() == 1
            || (lines.len() == 2 && lines[1].starts_with("For more information, try 'shashki")),
        "{args:?}: {err:?}"
    );
    assert!(lines[0].starts_with("error: "), "{args:?}: {err:?}");
    for n in needles {
        assert!(lines[0].contains(n), "{args:?}: {err:?} lacks {n:?}");
    }
    lines[0].to_string()
}

/// User text echoed in an error is escaped: no control byte reaches the
/// terminal.
#[test]
fn control_bytes_in_arguments_come_back_escaped() {
    for args in [
        &["show", "--fen", "W:W\u{1b}[2Jc3:B"][..],
        &["search", "--moves", "c3-d4\u{7}", "--depth", "1"],
    ] {
        let err = refused(args, &["\\u{"]);
        assert!(!err.chars().any(char::is_control), "{args:?}: {err:?}");
    }
}

/// Every argument error of the parser is one line naming the problem (and
/// at most a hint), status 2; help and version print as usual, status 0.
#[test]
fn argument_errors_are_one_line() {
    let cases: &[(&[&str], &[&str])] = &[
        (&["serch"], &["unrecognized subcommand 'serch'", "'search'"]),
        (&["--bogus"], &["unexpected argument '--bogus'"]),
        (&["perft"], &["required", "--depth"]),
        (&["perft", "--variant", "russian"], &["required", "--depth"]),
        (&["search", "--fem", "x"], &["'--fem'", "'--fen'"]),
        (
            &["search", "--depth"],
            &["a value is required for '--depth"],
        ),
        (&["show", "--variant", "chess"], &["'chess'", "adiyukh-80"]),
        (&["search", "--threads", "x"], &["'x'", "--threads"]),
        (
            &["match", "--proto1", "xboard"],
            &["'xboard'", "uci or hub"],
        ),
        (&["analyse"], &["required", "<FILE>"]),
        (
            &["show", "--fen", "a", "--fen", "b"],
            &["--fen", "multiple times"],
        ),
    ];
    for (args, needles) in cases {
        refused(args, needles);
    }
    for args in [
        &["--help"][..],
        &["--version"],
        &["search", "--help"],
        &["help", "match"],
    ] {
        let (code, out, err) = shashki(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.lines().count() >= 1 && err.is_empty(),
            "{args:?}: {out:?} {err:?}"
        );
    }
}

/// A file any command can read (for `analyse`, which reads its file before
/// it makes its table): a PDN file, so that `analyse` goes on to make its
/// table (README.md was this file while it held PDN tag pairs and moves).
fn some_file() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-tests/data/lidraughts-russian.pdn"
    )
    .to_string()
}

/// `cmd` followed by `extra`.
fn with<'a>(cmd: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    cmd.iter().chain(extra).copied().collect()
}

/// A transposition table over the protocol's Hash maximum (65536 MiB) is
/// refused by every command that makes one, naming the option and the
/// size, before any work.
#[test]
fn hash_over_the_maximum_is_refused_naming_option_and_size() {
    let file = some_file();
    let commands: [&[&str]; 3] = [
        &["search", "--depth", "3"],
        &["bench", "--depth", "1"],
        &["analyse", &file],
    ];
    for cmd in commands {
        for size in ["100000000", "65537", "0", "-1"] {
            let args = with(cmd, &["--hash", size]);
            refused(&args, &["--hash", &format!("'{size}'"), "from 1 to 65536"]);
        }
    }
}

/// A table under the maximum that the system refuses (here: an address
/// space of 400 MB and a 2 GiB table) is an error naming the option and the
/// size, status 2; it was a panic, status 101.
#[cfg(target_os = "linux")]
#[test]
fn a_table_the_system_refuses_is_an_error_not_a_panic() {
    let file = some_file();
    let commands: [&[&str]; 3] = [
        &["search", "--depth", "1"],
        &["bench", "--depth", "1"],
        &["analyse", &file],
    ];
    for cmd in commands {
        let out = Command::new("sh")
            .env("SHASHKI_EGDB", crate::common::no_tables())
            .arg("-c")
            .arg("ulimit -v 400000 && exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_shashki"))
            .args(cmd)
            .args(["--hash", "2048"])
            .output()
            .expect("run sh");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {err}");
        assert_eq!(
            err.trim_end(),
            "error: --hash 2048: cannot allocate a 2048 MiB transposition table",
            "{cmd:?}"
        );
    }
}

/// Threads are capped as the protocol's Threads option is (256), and 0 is
/// refused, by every command; so is a match's concurrency.
#[test]
fn threads_are_capped_and_zero_refused_everywhere() {
    let file = some_file();
    let commands: [&[&str]; 4] = [
        &["perft", "--variant", "russian", "--depth", "5"],
        &["search", "--depth", "3"],
        &["bench", "--depth", "1"],
        &["analyse", &file],
    ];
    for n in ["0", "257", "100000", "-1"] {
        for cmd in commands {
            let args = with(cmd, &["--threads", n]);
            refused(&args, &["--threads", &format!("'{n}'"), "from 1 to 256"]);
        }
        let args = ["match", "--concurrency", n];
        refused(
            &args,
            &["--concurrency", &format!("'{n}'"), "from 1 to 256"],
        );
    }
}

/// One rule for numbers on the command line too: out of range (a negative
/// number included) is an error naming the range; the search depth is the
/// protocol's, 1 to 1000.
#[test]
fn numbers_out_of_range_name_the_range() {
    let file = some_file();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["search", "--depth", "1001"], "from 1 to 1000"),
        (vec!["search", "--depth", "100000"], "from 1 to 1000"),
        (vec!["search", "--depth", "-1"], "from 1 to 1000"),
        (vec!["search", "--depth", "0"], "from 1 to 1000"),
        (
            vec!["search", "--nodes", "-1"],
            "from 1 to 9223372036854775807",
        ),
        (vec!["search", "--movetime", "-1"], "from 0 to 31536000000"),
        (vec!["bench", "--depth", "0"], "from 1 to 1000"),
        (vec!["perft", "--depth", "-1"], "from 0 to 1000"),
        (vec!["match", "--games", "-2"], "from 1 to 1000000"),
        (vec!["match", "--games", "0"], "from 1 to 1000000"),
        (vec!["match", "--tc", "-1+0"], "each from 0 to 2592000"),
        (vec!["match", "--depth1", "-3"], "from 1 to 1000"),
        (
            vec!["match", "--nodes2", "0"],
            "from 1 to 9223372036854775807",
        ),
        (vec!["match", "--max-plies", "0"], "from 1 to 100000"),
        (vec!["match", "--move-timeout", "-1"], "seconds above 0"),
        (
            vec!["match", "--time-margin", "-1"],
            "from 0 to 31536000000",
        ),
        (
            vec!["match", "--seed", "-1"],
            "from 0 to 18446744073709551615",
        ),
        (vec!["analyse", &file, "--depth", "-1"], "from 1 to 1000"),
        (vec!["analyse", &file, "--multipv", "51"], "from 1 to 50"),
        (
            vec!["analyse", &file, "--inaccuracy", "-5"],
            "from 1 to 30000",
        ),
        (vec!["openings", "--plies", "30"], "from 1 to 20"),
        (vec!["openings", "--random", "0"], "from 1 to 100000"),
        (vec!["openings", "--max-score", "-1"], "from 0 to 30000"),
    ];
    for (args, range) in cases {
        let value = args.last().unwrap().to_string();
        refused(&args, &[&format!("'{value}'"), range]);
    }
}

/// The depth of the last `info` line of a search's output.
fn last_depth(out: &str) -> u32 {
    let info = out
        .lines()
        .rfind(|l| l.starts_with("info depth "))
        .unwrap_or_else(|| panic!("no info line in {out:?}"));
    info.split_whitespace().nth(2).unwrap().parse().unwrap()
}

/// `search` combines its limits as `go` does: the first reached ends the
/// search (it refused `--depth` with `--movetime`).
#[test]
fn search_limits_combine() {
    let start = std::time::Instant::now();
    let (code, out, err) = shashki(&["search", "--depth", "1000", "--movetime", "300"]);
    let took = start.elapsed();
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
    assert!(last_depth(&out) < 100, "{out}");
    assert!(took.as_secs() < 20, "the movetime ended it: {took:?}");
    // The depth is reached first: the search ends there, not at the time.
    let start = std::time::Instant::now();
    let (code, out, err) = shashki(&["search", "--depth", "4", "--movetime", "600000"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(last_depth(&out), 4, "{out}");
    assert!(start.elapsed().as_secs() < 60);
    // Nodes and depth: the node limit ends it before depth 30.
    let (code, out, err) = shashki(&["search", "--nodes", "2000", "--depth", "30"]);
    assert_eq!(code, 0, "{err}");
    assert!(last_depth(&out) < 30, "{out}");
    // No limit: depth 10, as the help says.
    let (code, out, err) = shashki(&["search"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(last_depth(&out), 10, "{out}");
}

/// `search --multipv N` reports N lines at every depth (it was refused as
/// an unknown option): numbered 1 to N, each starting with another root
/// move, best first, `bestmove` the first line's move; with more lines
/// asked than there are moves, one line per legal move; 0 is refused.
#[test]
fn search_reports_multipv_lines() {
    // (depth, multipv, score in centi-men, first move) of each info line.
    let lines = |out: &str| -> Vec<(u32, u32, i64, String)> {
        out.lines()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let after = |key: &str| w[w.iter().position(|x| *x == key).unwrap() + 1];
                let at = w.iter().position(|x| *x == "score").unwrap();
                assert_eq!(w[at + 1], "cp", "{l}");
                (
                    after("depth").parse().unwrap(),
                    after("multipv").parse().unwrap(),
                    w[at + 2].parse().unwrap(),
                    after("pv").to_string(),
                )
            })
            .collect()
    };
    let (code, out, err) = shashki(&["search", "--depth", "5", "--multipv", "3"]);
    assert_eq!(code, 0, "{err}");
    let info = lines(&out);
    for depth in 1..=5 {
        let at: Vec<_> = info.iter().filter(|l| l.0 == depth).collect();
        assert_eq!(
            at.iter().map(|l| l.1).collect::<Vec<_>>(),
            [1, 2, 3],
            "depth {depth}:\n{out}"
        );
        let firsts: std::collections::HashSet<_> = at.iter().map(|l| &l.3).collect();
        assert_eq!(firsts.len(), 3, "depth {depth}: three moves\n{out}");
        assert!(
            at.windows(2).all(|p| p[0].2 >= p[1].2),
            "depth {depth}: best first\n{out}"
        );
    }
    let best = &info.iter().rfind(|l| l.1 == 1).unwrap().3;
    assert_eq!(
        out.lines().last(),
        Some(format!("bestmove {best}").as_str())
    );

    // Ten lines asked of a position with seven moves: the seven.
    let (_, divide, _) = shashki(&["perft", "--depth", "1", "--divide"]);
    let mut legal: Vec<String> = divide
        .lines()
        .filter(|l| !l.starts_with("nodes"))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    legal.sort();
    assert_eq!(legal.len(), 7, "{divide}");
    let (code, out, err) = shashki(&["search", "--depth", "3", "--multipv", "10"]);
    assert_eq!(code, 0, "{err}");
    let mut firsts: Vec<String> = lines(&out)
        .into_iter()
        .filter(|l| l.0 == 3)
        .map(|l| l.3)
        .collect();
    firsts.sort();
    assert_eq!(firsts, legal, "{out}");

    refused(&["search", "--multipv", "0"], &["--multipv", "'0'"]);
}

/// `analyse` combines `--depth` and `--movetime` the same way.
#[test]
fn analyse_limits_combine() {
    let dir = std::env::temp_dir().join(format!("shashki-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.pdn");
    std::fs::write(&file, "[Event \"one\"]\n\n1. c3-d4 f6-g5 *\n").unwrap();
    let file = file.to_str().unwrap();
    let depths = |out: &str| -> Vec<u64> {
        out.lines()
            .filter(|l| l.starts_with("{\"type\":\"position\","))
            .map(|l| {
                let at = l.find("\"depth\":").expect("a depth") + 8;
                l[at..].split([',', '}']).next().unwrap().parse().unwrap()
            })
            .collect()
    };
    let (code, out, err) = shashki(&[
        "analyse",
        file,
        "--json",
        "--depth",
        "1000",
        "--movetime",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    let d = depths(&out);
    assert_eq!(d.len(), 3, "{out}");
    assert!(d.iter().all(|&d| d < 100), "{out}");
    let (code, out, err) = shashki(&[
        "analyse",
        file,
        "--json",
        "--depth",
        "3",
        "--movetime",
        "600000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(depths(&out), [3, 3, 3], "{out}");
}

/// `shashki uci` and `shashki hub` start the engine in that protocol (they
/// were unrecognized subcommands); `shashki uci` has no switch to Hub.
#[test]
fn uci_and_hub_subcommands_start_the_engine() {
    use crate::process::Engine;
    use std::time::Duration;
    let patience = Duration::from_secs(30);
    let mut e = Engine::start_with(&["uci"]);
    e.send("uci");
    let (_, id) = e.expect("uciok", patience);
    assert!(id[0].starts_with("id name shashki "), "{id:?}");
    e.send("position startpos moves c3-d4");
    e.send("go depth 3");
    let (best, _) = e.expect("bestmove ", patience);
    assert!(best.split_whitespace().count() >= 2, "{best}");
    e.send("hub");
    let (err, _) = e.expect("info string error: ", patience);
    assert!(err.contains("unknown command 'hub'"), "{err}");
    assert!(e.close().success());

    let mut h = Engine::start_with(&["hub"]);
    h.send("hub");
    let (_, id) = h.expect("wait", patience);
    assert!(id[0].starts_with("id name=shashki "), "{id:?}");
    h.send("init");
    h.expect("ready", patience);
    h.send("level depth=3");
    h.send("go think");
    let (done, _) = h.expect("done", patience);
    assert!(done.starts_with("done move="), "{done}");
    h.send("quit");
    let status = h.wait_exit(patience).expect("the engine ends after quit");
    assert!(status.success());
}

/// The help says what running without a command does; every option of
/// every subcommand, as printed by `--help`, has a description.
#[test]
fn help_describes_the_engine_and_every_option() {
    let (code, out, _) = shashki(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Without a command, shashki is the engine"),
        "{out}"
    );
    assert!(out.contains("standard input"), "{out}");
    for sub in ["uci", "hub"] {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(sub)),
            "{sub} in {out}"
        );
    }
    let subcommands = [
        "uci", "hub", "perft", "search", "bench", "match", "openings", "analyse", "show",
    ];
    for sub in subcommands {
        let (code, out, err) = shashki(&[sub, "--help"]);
        assert_eq!(code, 0, "{sub}: {err}");
        for line in out.lines() {
            let item = line.trim_start();
            if !line.starts_with("  ") || !(item.starts_with('-') || item.starts_with('<')) {
                continue;
            }
            // `--name <NAME>  Description [default: x]`: text after the
            // name and its value, other than the default.
            let text = item.split_once("  ").map_or("", |(_, rest)| rest);
            let text = text.split("[default:").next().unwrap().trim();
            assert!(!text.is_empty(), "{sub}: no description: {line:?}");
            if item.starts_with("--variant ") {
                for v in shashki::Variant::ALL {
                    assert!(text.contains(v.id()), "{sub}: {line:?} lacks {v}");
                }
            }
        }
    }
    let (_, out, _) = shashki(&["search", "--help"]);
    assert!(out.contains("depth 10"), "search's default limit: {out}");
}

/// Run the engine with `input` on its standard input; its standard output.
fn engine_with_input(input: &str) -> String {
    engine_with_args_and_input(&[], input)
}

/// Run `shashki <args>` with `input` on its standard input (then closed);
/// its standard output. It must exit with success.
pub fn engine_with_args_and_input(args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = crate::common::shashki_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().expect("the engine ends");
    assert!(out.status.success(), "{input:?}: {}", out.status);
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The text of a documentation file of the repository (`README.md`,
/// `docs/browser-board.md`, ...).
fn doc(path: &str) -> String {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The documentation pages: README.md, PROTOCOL.md, tuning/README.md and
/// every `docs/*.md` (not the rule book in `docs/rules/`), as (path, text).
fn doc_pages() -> Vec<(String, String)> {
    let top = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = vec![
        "README.md".to_string(),
        "PROTOCOL.md".to_string(),
        "tuning/README.md".to_string(),
    ];
    let mut pages: Vec<String> = std::fs::read_dir(top.join("docs"))
        .expect("docs/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    paths.extend(pages);
    paths.into_iter().map(|p| (p.clone(), doc(&p))).collect()
}

/// The examples of README.md and the docs pages that pipe commands into
/// the engine do what they say: a `go depth N` piped in reaches depth N and
/// ends with `bestmove`. The first example of the README is one of them
/// (it piped `quit` right after `go depth 10`, and `quit` stops a search:
/// depth 4, not 10).
#[test]
fn readme_examples_piped_into_the_engine_reach_their_depth() {
    let readme = doc("README.md");
    let first_block = readme
        .split("```sh")
        .nth(1)
        .expect("a first sh example")
        .split("```")
        .next()
        .unwrap();
    let pages = doc_pages();
    let piped: Vec<&str> = pages
        .iter()
        .flat_map(|(_, text)| text.lines())
        .filter(|l| l.starts_with("printf '") && l.contains("go depth "))
        .collect();
    assert!(
        piped.iter().any(|l| first_block.contains(l)),
        "the first example pipes a search into the engine:\n{first_block}"
    );
    for line in piped {
        let input = line["printf '".len()..]
            .split('\'')
            .next()
            .unwrap()
            .replace("\\n", "\n");
        let depth: u32 = input
            .split("go depth ")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .and_then(|d| d.parse().ok())
            .expect("a depth");
        let out = engine_with_input(&input);
        assert!(
            out.lines().last().unwrap_or("").starts_with("bestmove "),
            "{line}: {out}"
        );
        assert_eq!(last_depth(&out), depth, "{line}: {out}");
    }
}

/// `quit` during a search stops it at once (as PROTOCOL.md says): the
/// `bestmove` (Hub: `done`) of the depth reached is sent, and the engine
/// exits.
#[test]
fn quit_stops_a_running_search_and_sends_its_result() {
    let start = std::time::Instant::now();
    let out = engine_with_input("position startpos\ngo depth 60\nquit\n");
    assert!(
        out.lines().last().unwrap_or("").starts_with("bestmove "),
        "{out}"
    );
    assert!(last_depth(&out) < 60, "{out}");
    let out = engine_with_input("hub\nlevel depth=60\ngo think\nquit\n");
    assert!(
        out.lines().last().unwrap_or("").starts_with("done move="),
        "{out}"
    );
    assert!(start.elapsed().as_secs() < 30, "{:?}", start.elapsed());
}

/// The browser board's page (docs/browser-board.md) starts the GUI from
/// the release build it has just made (`--bin`: `-p shashki-gui` built the
/// workspace a second time, with the GUI's features alone), no page says
/// `-p shashki-gui`, and README says how long the tests take on a 2-core
/// machine.
#[test]
fn readme_starts_the_gui_from_the_release_build_and_gives_the_test_time() {
    let page = doc("docs/browser-board.md");
    let gui = page
        .split("```sh")
        .nth(1)
        .and_then(|r| r.split("```").next())
        .expect("a shell block in docs/browser-board.md");
    let build = gui
        .find("cargo build --release")
        .unwrap_or_else(|| panic!("no release build in {gui}"));
    let run = gui
        .find("cargo run --release --bin shashki-gui")
        .expect("the GUI run with --bin");
    assert!(build < run, "{gui}");
    for (path, text) in doc_pages() {
        assert!(
            !text.contains("cargo run --release -p shashki-gui"),
            "{path}: a second build"
        );
    }
    let readme = doc("README.md");
    let tests = readme
        .split("## Two commands")
        .nth(1)
        .and_then(|r| r.split("\n## ").next())
        .expect("a Two commands section");
    assert!(
        tests.contains("cargo test --locked\n"),
        "the test command .ci/run runs"
    );
    assert!(
        tests.contains("2-core") && tests.contains(" min "),
        "the test time on a 2-core machine"
    );
}

/// The anchor GitHub gives a heading: its text lower-cased, spaces as
/// `-`, punctuation (backticks, brackets, colons, dots) dropped.
fn heading_anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a Markdown text outside its code blocks (the fence lines
/// themselves left out).
fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fence = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            return false;
        }
        !fence
    })
}

/// The anchors of a Markdown text's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    prose_lines(text)
        .filter(|line| line.starts_with('#'))
        .map(|line| heading_anchor(line.trim_start_matches('#')))
        .collect()
}

/// The targets of a Markdown text's links and images, `[text](target)`,
/// outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        // Drop code spans: the odd pieces between backticks.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, piece)| piece)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find([')', ' ']).unwrap_or(rest.len());
            out.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    out
}

/// README.md is a front page of at most 250 lines, and every relative link
/// of README.md and the docs pages (PROTOCOL.md, tuning/README.md,
/// `docs/*.md`) names a file or folder of the repository, and its `#anchor`,
/// if any, a heading of that file.
#[test]
fn readme_is_short_and_the_docs_links_resolve() {
    let top = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = doc("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines, more than 250");
    let mut checked = 0;
    for (path, text) in doc_pages() {
        let dir = top.join(&path).parent().unwrap().to_path_buf();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((file, anchor)) => (file, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                top.join(&path)
            } else {
                dir.join(file)
            };
            let found = linked
                .canonicalize()
                .unwrap_or_else(|_| panic!("{path}: the link '{target}' names no file"));
            assert!(
                found.starts_with(top.canonicalize().unwrap()),
                "{path}: the link '{target}' leaves the repository"
            );
            if let Some(anchor) = anchor {
                let heads = anchors(&std::fs::read_to_string(&found).expect("a text file"));
                assert!(
                    heads.iter().any(|h| h == anchor),
                    "{path}: the link '{target}': no heading '{anchor}' in {}",
                    found.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked} links checked");
}

/// The repository stands on its own: no file of it reads or names the
/// shared folder beside it, or a path of the machine it was written on
/// (its rule book is `docs/rules/`, its test data `engine-tests/testdata/`).
#[test]
fn the_repository_names_nothing_outside_itself() {
    let top = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // Spelt in two parts, so that this file does not name them itself.
    let needles = [
        format!("{}{}", "..", "/shared"),
        format!("{}{}", "/wo", "rk/"),
    ];
    let mut files = 0;
    let mut stack = vec![top.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                let skipped = name.starts_with('.') || name.starts_with("target") || name == "out";
                if !skipped || name == ".ci" {
                    stack.push(path);
                }
                continue;
            }
            let kinds = ["rs", "sh", "py", "md", "toml", "js", "html"];
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !kinds.contains(&ext) && name != "run" {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            files += 1;
            for needle in &needles {
                assert!(
                    !text.contains(needle.as_str()),
                    "{} names '{needle}'",
                    path.strip_prefix(&top).unwrap_or(&path).display()
                );
            }
        }
    }
    assert!(files > 100, "{files} files read");
    for must in [
        "docs/rules/README.md",
        "docs/rules/russian.md",
        "engine-tests/testdata/perft.txt",
    ] {
        assert!(top.join(must).is_file(), "{must}");
    }
}

/// docs/layout.md names every source file of `src/` (by its path below
/// `src/`, in backquotes), so a file added or moved cannot go unlisted.
#[test]
fn the_layout_page_names_every_source_file() {
    fn sources(dir: &std::path::Path, below: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if path.is_dir() {
                sources(&path, &format!("{below}{name}/"), out);
            } else if name.ends_with(".rs") {
                out.push(format!("{below}{name}"));
            }
        }
    }
    let top = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let layout = doc("docs/layout.md");
    let mut files = Vec::new();
    sources(&top.join("src"), "", &mut files);
    assert!(files.len() > 40, "{} files under src/", files.len());
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !layout.contains(&format!("`{f}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/layout.md does not name {missing:?}"
    );
}

/// `shashki book --out FILE` writes the book to FILE (nothing to standard
/// output); run again, it goes on from that book and ends with the same
/// bytes; a FILE that holds another variant's book, or no book, is
/// refused in one line naming it.
#[test]
fn book_out_writes_resumes_and_refuses_another_variants_book() {
    let dir = std::env::temp_dir().join(format!("shashki-book-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "c3-d4\n").unwrap();
    let out = dir.join("book.txt");
    let o = openings.to_str().unwrap();
    let f = out.to_str().unwrap();
    let args = [
        "book",
        "--variant",
        "russian",
        "--openings",
        o,
        "--depth",
        "3",
        "--moves",
        "2",
        "--replies",
        "2",
        "--reply-depth",
        "2",
        "--out",
        f,
    ];
    let (code, stdout, err) = shashki(&args);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    let first = std::fs::read_to_string(&out).unwrap();
    let book = shashki::book::Book::parse(&first).unwrap();
    assert!(book.len() > 2, "{first}");
    assert!(first.contains("--replies 2 --reply-depth 2"), "{first}");
    // Again: every position is there already, nothing is searched.
    let (code, _, err) = shashki(&args);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("going on from {} positions", book.len())),
        "{err}"
    );
    let levels: Vec<&str> = err.lines().filter(|l| l.contains("to search")).collect();
    assert_eq!(levels.len(), 2, "{err}");
    assert!(levels.iter().all(|l| l.contains(": 0 positions")), "{err}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
    // Another variant's book, then a file that is no book.
    let mut brazilian = with(&args, &[]);
    brazilian[2] = "brazilian";
    refused(&brazilian, &["not a brazilian book", f]);
    std::fs::write(&out, "hello\n").unwrap();
    refused(&args, &[f, "line 1"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "hello\n");
    // A folder that is not there: refused before any search (the one line
    // `refused` allows leaves no room for a progress line).
    let nowhere = dir.join("no-such-folder").join("book.txt");
    let mut lost = with(&args, &[]);
    let n = nowhere.to_str().unwrap();
    *lost.last_mut().unwrap() = n;
    refused(&lost, &["cannot write book", n]);
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `shashki match` end to end: the built binary runs matches between
//! engine processes (itself, over UCI and Hub, and deliberately broken
//! engines), and the PDN it writes is read back and checked against the
//! rules.

use shashki::game::GameResult;
use shashki::pdn;
use shashki::Variant;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shashki() -> &'static str {
    env!("CARGO_BIN_EXE_shashki")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shashki-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run_match(args: &[&str]) -> (Output, String) {
    let out = crate::common::shashki_command()
        .arg("match")
        .args(args)
        .output()
        .expect("run shashki match");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, stdout)
}

fn broken(mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/broken/engine.sh");
    format!("sh '{}' {mode}", script.display())
}

/// The summary row of an engine: (games, wins, draws, losses).
fn row(stdout: &str, name: &str) -> (u32, u32, u32, u32) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(name) && l.contains('%') && !l.starts_with("game "))
        .unwrap_or_else(|| panic!("no summary row for {name:?} in:\n{stdout}"));
    let nums: Vec<u32> = line[name.len()..]
        .split_whitespace()
        .take(4)
        .map(|w| w.parse().unwrap_or_else(|_| panic!("bad row {line:?}")))
        .collect();
    (nums[0], nums[1], nums[2], nums[3])
}

/// Twenty games at depth limits: every game reaches a result by the rules,
/// each opening is played twice with colours reversed, the table adds up,
/// and the PDN holds the twenty games, each replaying to the position whose
/// outcome its Result and Termination tags state.
#[test]
fn twenty_game_match_writes_pdn_that_reads_back() {
    let pdn_path = scratch("twenty.pdn");
    let (out, stdout) = run_match(&[
        "--variant",
        "russian",
        "--games",
        "20",
        "--depth1",
        "4",
        "--depth2",
        "1",
        "--name1",
        "deep",
        "--name2",
        "shallow",
        "--concurrency",
        "2",
        "--seed",
        "7",
        "--pdn-out",
        pdn_path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("game ")).count(),
        20,
        "{stdout}"
    );
    let (games, w, d, l) = row(&stdout, "deep");
    assert_eq!((games, w + d + l), (20, 20));
    let (games2, w2, d2, l2) = row(&stdout, "shallow");
    assert_eq!(
        (games2, w2, d2, l2),
        (20, l, d, w),
        "the rows mirror each other"
    );
    // Depth 4 against depth 1 must not lose the match.
    assert!(w > l, "deep {w} wins, {l} losses:\n{stdout}");
    assert!(
        stdout.contains("by the 10 complete opening pairs (pentanomial)"),
        "{stdout}"
    );

    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let records: Vec<_> = pdn::read_games(&text, Variant::Russian)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(records.len(), 20);
    let mut rounds: Vec<usize> = Vec::new();
    let mut openings = std::collections::HashMap::new();
    for rec in &records {
        let round: usize = rec.tag("Round").unwrap().parse().unwrap();
        rounds.push(round);
        assert_eq!(rec.tag("GameType"), Some("25"));
        let white_is_deep = rec.tag("White") == Some("deep");
        assert_eq!(
            white_is_deep,
            round % 2 == 1,
            "round {round}: colours alternate"
        );
        // Openings are three plies: the pair of games shares them.
        let first3: Vec<_> = rec.game.moves()[..3].to_vec();
        openings
            .entry((round - 1) / 2)
            .or_insert_with(Vec::new)
            .push(first3);
        let outcome = rec.game.outcome().unwrap_or_else(|| {
            panic!(
                "round {round}: the game did not end by the rules ({:?})",
                rec.tag("Termination")
            )
        });
        let want = match outcome.result {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
        };
        assert_eq!(rec.result, want, "round {round}");
        assert_eq!(rec.tag("Termination"), Some(outcome.reason.describe()));
    }
    rounds.sort_unstable();
    assert_eq!(rounds, (1..=20).collect::<Vec<_>>());
    for (k, pair) in openings {
        assert_eq!(pair.len(), 2, "opening {k}");
        assert_eq!(pair[0], pair[1], "opening {k} played twice");
    }
    // pydraughts reads the file too and replays every game to the end.
    if let Some(python) = crate::common::pydraughts_or_skip("match PDN in pydraughts") {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/pdn_pydraughts.py");
        let out = Command::new(python)
            .env("SHASHKI_EGDB", crate::common::no_tables())
            .arg(script)
            .arg("read")
            .arg(&pdn_path)
            .output()
            .expect("run python");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{said}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let plies: Vec<usize> = said
            .lines()
            .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        let ours: Vec<usize> = records.iter().map(|r| r.game.moves().len()).collect();
        assert_eq!(plies, ours, "pydraughts replays every move of every game");
    }
}

/// Forfeits: an engine that plays an illegal move, never answers, exits,
/// writes nonsense or floods its output without a move loses each game,
/// and the PDN says why (for an exit, its status and its last lines on
/// standard error).
#[test]
fn broken_engines_forfeit_with_the_reason_recorded() {
    let cases = [
        ("illegal", "illegal move 'a1-h8'", None),
        (
            "refuses",
            "illegal move 'a1-h8' after the engine's error 'move 9 'c3-d4': the game is over'",
            None,
        ),
        ("silent", "no move within 0.400 s", None),
        ("crash", "the engine exited (exit status 3)", None),
        (
            "panics",
            "the engine exited (exit status 101; standard error: 'thread 'main' panicked at \
             src/search.rs:1:1: / index out of bounds')",
            None,
        ),
        ("garbage", "protocol error", None),
        ("flood", "no move within 0.400 s", None),
        ("silent", "out of time", Some("0.4+0")),
    ];
    for (mode, why, tc) in cases {
        let pdn_path = scratch(&format!("broken-{mode}.pdn"));
        let engine = broken(mode);
        let mut args = vec![
            "--variant",
            "brazilian",
            "--games",
            "2",
            "--engine2",
            engine.as_str(),
            "--name1",
            "good",
            "--move-timeout",
            "0.4",
            "--pdn-out",
            pdn_path.to_str().unwrap(),
        ];
        match tc {
            Some(tc) => args.extend(["--tc", tc]),
            None => args.extend(["--depth", "2"]),
        }
        let (out, stdout) = run_match(&args);
        assert!(out.status.success(), "{mode}: {stdout}");
        assert_eq!(row(&stdout, "good"), (2, 2, 0, 0), "{mode}:\n{stdout}");
        let text = std::fs::read_to_string(&pdn_path).unwrap();
        let recs: Vec<_> = pdn::read_games(&text, Variant::Brazilian)
            .into_iter()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(recs.len(), 2);
        for rec in recs {
            let term = rec.tag("Termination").unwrap();
            assert!(
                term.contains("forfeits") && term.contains(why),
                "{mode}: {term}"
            );
            let good_is_white = rec.tag("White") == Some("good");
            assert_eq!(
                rec.result,
                if good_is_white { "2-0" } else { "0-2" },
                "{mode}"
            );
        }
    }
}

/// An engine that crashes (is killed at its 10th move) or stops answering
/// (at its 10th move: its process lives on, silent) loses that game, the
/// reason in the PDN's Termination, and is restarted: the later games are
/// played out by the rules, the table adds up to the PDN's results, no
/// process of the broken engine is left, and the match takes seconds (the
/// hang costs the --move-timeout, 1 s). The engine breaks once in the match
/// (its `BROKEN_ONCE` file), so the games after the failure are the
/// restarted engine's.
#[test]
fn an_engine_that_dies_or_hangs_mid_game_loses_it_and_the_match_goes_on() {
    use std::time::{Duration, Instant};
    let cases = [
        ("dies", "forfeits: the engine exited (killed by SIGKILL)"),
        ("hangs", "forfeits: no move within 1.000 s"),
    ];
    for (mode, why) in cases {
        let pdn_path = scratch(&format!("{mode}-mid-game.pdn"));
        let once = scratch(&format!("{mode}-once"));
        let _ = std::fs::remove_file(&once);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/broken/engine.sh");
        // An environment setting in front of the command (run by `sh -c`).
        let engine = format!(
            "BROKEN_ONCE='{}' sh '{}' {mode} 10 '{}'",
            once.display(),
            script.display(),
            shashki()
        );
        let started = Instant::now();
        let (out, stdout) = run_match(&[
            "--variant",
            "russian",
            "--games",
            "4",
            "--depth",
            "2",
            "--move-timeout",
            "1",
            "--name1",
            "good",
            "--name2",
            "flaky",
            "--engine2",
            engine.as_str(),
            "--pdn-out",
            pdn_path.to_str().unwrap(),
        ]);
        let took = started.elapsed();
        assert!(
            out.status.success(),
            "{mode}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(took < Duration::from_secs(30), "{mode}: took {took:?}");
        assert!(once.exists(), "{mode}: the engine never broke:\n{stdout}");
        let text = std::fs::read_to_string(&pdn_path).unwrap();
        let recs: Vec<_> = pdn::read_games(&text, Variant::Russian)
            .into_iter()
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(recs.len(), 4, "{mode}: every game played:\n{stdout}");
        let forfeited: Vec<usize> = (0..4)
            .filter(|&i| recs[i].tag("Termination").unwrap().contains("forfeits"))
            .collect();
        assert_eq!(forfeited.len(), 1, "{mode}: one failure:\n{stdout}");
        let f = forfeited[0];
        assert!(f < 3, "{mode}: games were played after it:\n{stdout}");
        let rec = &recs[f];
        let term = rec.tag("Termination").unwrap();
        let flaky_is_white = rec.tag("White") == Some("flaky");
        let loser = if flaky_is_white { "White" } else { "Black" };
        assert_eq!(term, format!("{loser} {why}"), "{mode}");
        assert_eq!(rec.result, if flaky_is_white { "0-2" } else { "2-0" });
        // It failed at its 10th move: nine moves of its own after the book.
        let book = rec
            .comments
            .iter()
            .position(|c| c.as_deref() == Some("book"))
            .unwrap();
        let positions = rec.game.positions();
        let flaky_colour = if flaky_is_white {
            shashki::Color::White
        } else {
            shashki::Color::Black
        };
        let its_moves = (book + 1..rec.game.moves().len())
            .filter(|&i| positions[i].side_to_move() == flaky_colour)
            .count();
        assert_eq!(its_moves, 9, "{mode}: {text}");
        assert_eq!(positions.last().unwrap().side_to_move(), flaky_colour);
        // The games after it: the restarted engine played them to their end.
        for later in &recs[f + 1..] {
            let t = later.tag("Termination").unwrap();
            assert!(!t.contains("forfeits"), "{mode}: {t}");
            assert!(
                later.game.outcome().is_some() || t.contains("ply cap"),
                "{t}"
            );
        }
        // The table counts the PDN's results.
        let (mut w, mut d, mut l) = (0, 0, 0);
        for rec in &recs {
            let good_white = rec.tag("White") == Some("good");
            match (rec.result.as_str(), good_white) {
                ("1-1", _) => d += 1,
                ("2-0", true) | ("0-2", false) => w += 1,
                _ => l += 1,
            }
        }
        assert_eq!(row(&stdout, "good"), (4, w, d, l), "{mode}:\n{stdout}");
        assert!(w >= 1, "{mode}: the forfeit is a win of good");
        // Nothing of the broken engine outlives the match (its processes
        // carry the BROKEN_ONCE setting in their environment).
        #[cfg(target_os = "linux")]
        {
            let mark = format!("BROKEN_ONCE={}", once.display());
            let deadline = Instant::now() + Duration::from_secs(2);
            let mut left = processes_marked(&mark);
            while !left.is_empty() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
                left = processes_marked(&mark);
            }
            assert!(left.is_empty(), "{mode}: processes left: {left:?}");
        }
    }
}

/// Bad arguments are one-line errors with status 2, before any game.
#[test]
fn bad_match_arguments_are_clear_errors() {
    let cases: [(&[&str], &str); 9] = [
        (&["--games", "2"], "no limit"),
        (&["--depth", "2", "--tc", "1+x"], "time control '1+x'"),
        (&["--depth", "2", "--sprt", "0,10"], "--sprt"),
        (
            &["--depth", "2", "--option1", "Hash"],
            "--option1 'Hash': expected NAME=VALUE",
        ),
        (
            &["--depth", "2", "--engine2", "/nonexistent/engine"],
            "error: engine 2: program '/nonexistent/engine' not found",
        ),
        (
            &["--depth", "2", "--engine1", "/nonexistent"],
            "error: engine 1: program '/nonexistent' not found",
        ),
        (
            &["--depth", "2", "--engine1", "/etc/passwd --uci"],
            "error: engine 1: program '/etc/passwd' cannot be run: not an executable file",
        ),
        (
            &["--depth", "2", "--engine2", "/"],
            "error: engine 2: program '/' is a folder, not a program",
        ),
        (
            &["--depth", "2", "--engine2", "cd / && no-such-engine-here"],
            "error: engine 2: a program of 'cd / && no-such-engine-here' not found (sh: ",
        ),
    ];
    for (args, want) in cases {
        let (out, stdout) = run_match(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout} {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
        if want.starts_with("error: engine") {
            // An engine that cannot start: one line, before any game.
            assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
            assert!(stdout.is_empty(), "{args:?}: {stdout}");
        }
        assert!(!stdout.contains("game 1/"), "{args:?}");
    }
    // A refused option is an error too.
    let (out, _) = run_match(&["--depth", "2", "--option1", "Hash=lots"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("refused") && stderr.contains("Hash"),
        "{stderr}"
    );
}

/// Hub engines play too (the binary in Hub mode), and Adiyukh games end by
/// the count, with mean points reported.
#[test]
fn hub_engine_and_adiyukh_count() {
    let pdn_path = scratch("adiyukh.pdn");
    let (out, stdout) = run_match(&[
        "--variant",
        "adiyukh-64",
        "--games",
        "2",
        "--depth",
        "2",
        "--proto2",
        "hub",
        "--name1",
        "uci-side",
        "--name2",
        "hub-side",
        "--pdn-out",
        pdn_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("mean points per game"), "{stdout}");
    // One opening pair: no interval by pairs, a note instead.
    assert!(
        stdout.contains(
            "uci-side: the interval by opening pairs needs at least 10 complete pairs (1 so far)"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("pentanomial"), "{stdout}");
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    for rec in pdn::read_games(&text, Variant::Russian) {
        let rec = rec.unwrap();
        assert_eq!(
            rec.game.variant(),
            Variant::Adiyukh64,
            "the PDN names the variant"
        );
        let term = rec.tag("Termination").unwrap_or("");
        assert!(!term.contains("forfeits"), "{term}");
        if let Some(o) = rec.game.outcome() {
            let (w, b) = o.score.unwrap();
            assert_eq!(rec.tag("Score"), Some(format!("{w}:{b}").as_str()));
        }
    }
}

/// Issue 3's self-play check: depth 6 beats depth 2 clearly in every
/// variant (20 games each, 10 openings with colours reversed; searches are
/// deterministic at fixed depth, so the score is too).
#[test]
fn depth_6_beats_depth_2_in_every_variant() {
    for v in ["russian", "brazilian", "adiyukh-64", "adiyukh-80"] {
        let (out, stdout) = run_match(&[
            "--variant",
            v,
            "--games",
            "20",
            "--depth1",
            "6",
            "--depth2",
            "2",
            "--name1",
            "d6",
            "--name2",
            "d2",
            "--concurrency",
            "2",
        ]);
        assert!(out.status.success(), "{v}: {stdout}");
        let (games, w, d, l) = row(&stdout, "d6");
        let score = (w as f64 + d as f64 / 2.0) / games as f64;
        eprintln!(
            "{v}: depth 6 vs depth 2: +{w} ={d} -{l} ({:.0}%)",
            100.0 * score
        );
        assert!(
            score >= 0.75,
            "{v}: depth 6 scored only {:.0}%:\n{stdout}",
            100.0 * score
        );
    }
}

/// An SPRT stops the match as soon as it is decided: depth 6 against
/// depth 1 is far more than 50 Elo apart, so H1 is accepted well before
/// the 200 games asked for.
#[test]
fn sprt_stops_a_decided_match() {
    let (out, stdout) = run_match(&[
        "--variant",
        "brazilian",
        "--games",
        "200",
        "--depth1",
        "6",
        "--depth2",
        "1",
        "--name1",
        "strong",
        "--concurrency",
        "2",
        "--sprt",
        "0,50,0.05,0.05",
    ]);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("sprt: H1 accepted"), "{stdout}");
    let (games, ..) = row(&stdout, "strong");
    assert!(games < 200, "{games} games:\n{stdout}");
}

/// The runner reports progress from the start: a tick comes before the
/// first game ends (the progress bar shows `0/N` and no ETA yet), then
/// every game; the bar after the last game has its ETA.
#[test]
fn progress_ticks_come_before_the_first_game() {
    use shashki::protocol::Protocol;
    use shashki::tools::matches::{self, Event, MatchConfig};
    use shashki::tools::player::EngineSpec;
    let engine = |name: &str| EngineSpec {
        name: Some(name.into()),
        command: format!("'{}'", shashki()),
        protocol: Protocol::Uci,
        options: vec![],
    };
    let variant = Variant::Brazilian;
    let config = MatchConfig {
        engines: [engine("one"), engine("two")],
        variant,
        games: 2,
        tc: None,
        depth: [Some(2), Some(2)],
        nodes: [None, None],
        concurrency: 1,
        openings: shashki::tools::openings::parse(
            variant,
            shashki::tools::openings::builtin(variant),
        )
        .unwrap(),
        seed: 1,
        max_plies: 400,
        move_timeout_ms: 30_000,
        time_margin_ms: 0,
        sprt: None,
        event: "test".into(),
        interrupt: None,
    };
    let mut events = Vec::new();
    let (standing, _) = matches::run(&config, &mut |e, s, _| {
        let bar = matches::progress_bar(s.played, 2, s);
        events.push(match e {
            Event::Tick => format!("tick {bar}"),
            Event::Game(r) => format!("game {} {bar}", r.index + 1),
        });
    })
    .unwrap();
    assert_eq!(standing.played, 2);
    assert!(!standing.interrupted);
    assert!(
        events[0].starts_with("tick [")
            && events[0].contains("] 0/2 ")
            && events[0].ends_with("ETA --:--"),
        "{events:?}"
    );
    let games: Vec<&String> = events.iter().filter(|e| e.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{events:?}");
    assert!(
        games[1].contains("] 2/2 ") && games[1].ends_with("ETA 0:00"),
        "{events:?}"
    );
}

/// The processes (alive, not zombies) whose environment holds `mark`.
#[cfg(target_os = "linux")]
fn processes_marked(mark: &str) -> Vec<u32> {
    let needle = mark.as_bytes();
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let zombie = stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'));
            !zombie && env.windows(needle.len()).any(|w| w == needle)
        })
        .collect()
}

/// Ctrl-C (SIGINT) during a match: the score of the games finished so far
/// is printed (with the note that the pair interval needs more pairs), the
/// PDN holds exactly those games, the process exits with status 130, and
/// no engine process is left (they sit in process groups of their own,
/// which a terminal's Ctrl-C does not reach, so the runner must end them).
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_prints_the_score_keeps_the_pdn_and_ends_the_engines() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let mark = format!("SHASHKI_TEST_MARK=ctrl-c-{}", std::process::id());
    // Each engine is this program under `env`, which marks its environment;
    // the second is wrapped in a shell that sleeps after the engine ends (on
    // the end of its input, say): only killing the engine's whole process
    // group ends it all.
    let engine1 = format!("env {mark} '{}'", shashki());
    let engine2 = format!("env {mark} sh -c \"'{}'; sleep 60\"", shashki());
    let pdn_path = scratch("ctrl-c.pdn");
    let mut child = crate::common::shashki_command()
        .args([
            "match",
            "--variant",
            "russian",
            "--games",
            "200",
            "--depth",
            "4",
        ])
        .args(["--concurrency", "2", "--name1", "one", "--name2", "two"])
        .args(["--engine1", &engine1, "--engine2", &engine2])
        .arg("--pdn-out")
        .arg(&pdn_path)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start shashki match");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Wait for two finished games, then press Ctrl-C.
    let mut lines = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while lines
        .iter()
        .filter(|l: &&String| l.starts_with("game "))
        .count()
        < 2
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) => lines.push(l),
            Err(e) => {
                let _ = child.kill();
                panic!("no two games within 120 s ({e}): {lines:?}");
            }
        }
    }
    assert!(
        !processes_marked(&mark).is_empty(),
        "the engines run under the mark"
    );
    // SAFETY: kill(2) sends SIGINT to the match process, our child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the match did not end within 10 s of Ctrl-C: {lines:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    lines.extend(rx.iter());
    let stdout = lines.join("\n");
    assert_eq!(status.code(), Some(130), "{stdout}");
    let played = lines.iter().filter(|l| l.starts_with("game ")).count();
    assert!((2..200).contains(&played), "{stdout}");
    assert!(
        stdout.contains(&format!("interrupted after {played} of 200 games")),
        "{stdout}"
    );
    let (games, w, d, l) = row(&stdout, "one");
    assert_eq!(
        (games, w + d + l),
        (played as u32, played as u32),
        "{stdout}"
    );
    assert!(
        stdout.contains("the interval by opening pairs needs at least 10 complete pairs")
            || played >= 20,
        "{stdout}"
    );
    // The PDN holds the finished games, each complete, and nothing else.
    let text = std::fs::read_to_string(&pdn_path).unwrap();
    let records: Vec<_> = pdn::read_games(&text, Variant::Russian)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert_eq!(records.len(), played, "{text}");
    for rec in &records {
        assert_ne!(rec.result, "*", "an unfinished game in the PDN");
        assert!(rec.tag("Termination").is_some());
    }
    // No engine outlives the match (a killed process may take a moment to
    // go).
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut left = processes_marked(&mark);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
        left = processes_marked(&mark);
    }
    assert!(left.is_empty(), "engine processes left: {left:?}");
}

//! The command line: a small run end to end, and bad input giving one line
//! on standard error and exit status 2.

use std::path::PathBuf;
use std::process::Command;

fn tune(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_shashki-tune"))
        .arg("--quiet")
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shashki-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn gen_merge_fit_compare_end_to_end() {
    let (a, b, all, one, w, svg) = (
        temp("a.data"),
        temp("b.data"),
        temp("all.data"),
        temp("one.data"),
        temp("w.txt"),
        temp("loss.svg"),
    );
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let gen = |first: &str, games: &str, out: &PathBuf| {
        let (code, _, err) = tune(&[
            "gen",
            "--variant",
            "adiyukh-64",
            "--games",
            games,
            "--first",
            first,
            "--depth",
            "2",
            "--max-plies",
            "100",
            "--out",
            &s(out),
        ]);
        assert_eq!(code, 0, "{err}");
    };
    gen("0", "3", &a);
    gen("3", "3", &b);
    gen("0", "6", &one);
    let (code, _, err) = tune(&["merge", "--out", &s(&all), &s(&a), &s(&b)]);
    assert_eq!(code, 0, "{err}");
    let body = |p: &PathBuf| {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(body(&all), body(&one), "shards merge to one run");
    let (code, out, err) = tune(&[
        "fit",
        "--data",
        &s(&all),
        "--out",
        &s(&w),
        "--plot",
        &s(&svg),
        "--epochs",
        "5",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("before:") && out.contains("after:"), "{out}");
    let text = std::fs::read_to_string(&w).unwrap();
    assert!(shashki::eval::weights::Weights::parse(&text).is_ok());
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
    let (code, out, err) = tune(&[
        "compare",
        "--variant",
        "adiyukh-64",
        "--tuned",
        &s(&w),
        "--pairs",
        "1",
        "--depth",
        "1",
        "--max-plies",
        "60",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 games: tuned"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_status_2() {
    let bad_data = temp("bad.data");
    std::fs::write(&bad_data, "variant russian\n1 W:Wz9\n").unwrap();
    let bad_w = temp("bad.txt");
    std::fs::write(&bad_w, "variant russian\nman x\n").unwrap();
    let other_w = temp("other.txt");
    std::fs::write(&other_w, "variant brazilian\n").unwrap();
    let missing = temp("missing.data");
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "fit".into(),
                "--data".into(),
                s(&bad_data),
                "--out".into(),
                s(&temp("o")),
            ],
            "data line 2",
        ),
        (
            vec![
                "fit".into(),
                "--data".into(),
                s(&missing),
                "--out".into(),
                s(&temp("o")),
            ],
            "cannot read",
        ),
        (
            vec![
                "compare".into(),
                "--variant".into(),
                "russian".into(),
                "--tuned".into(),
                s(&bad_w),
            ],
            "weights line 2",
        ),
        (
            vec![
                "compare".into(),
                "--variant".into(),
                "russian".into(),
                "--tuned".into(),
                s(&other_w),
            ],
            "weights of brazilian, not russian",
        ),
        (
            vec!["merge".into(), "--out".into(), s(&temp("m")), s(&bad_data)],
            "data line 2",
        ),
    ];
    for (args, want) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = tune(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Argument errors of the parser are one line naming the problem and a
/// hint where to read more, status 2; help prints as usual, status 0.
#[test]
fn argument_errors_are_one_line_and_a_hint() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &[],
            &["'shashki-tune' needs a command: gen, rescore, merge, fit, fit-patterns, compare"],
        ),
        (&["gen"], &["required", "--variant", "--games", "--out"]),
        (
            &["gen", "--variant", "x", "--games", "1", "--out", "o"],
            &["'x'", "adiyukh-80"],
        ),
        (&["fit", "--data"], &["a value is required for '--data"]),
        (&["fitt"], &["unrecognized subcommand 'fitt'", "'fit'"]),
        (&["merge", "--out", "o"], &["required", "<INPUTS>"]),
    ];
    for (args, needles) in cases {
        let (code, _, err) = tune(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {err}");
        assert!(lines[0].starts_with("error: "), "{args:?}: {err}");
        assert!(
            lines[1].starts_with("For more information, try 'shashki-tune"),
            "{args:?}: {err}"
        );
        for n in *needles {
            assert!(lines[0].contains(n), "{args:?}: {err} lacks {n:?}");
        }
    }
    for args in [&["--help"][..], &["gen", "--help"]] {
        let (code, out, err) = tune(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(out.contains("Usage: shashki-tune"), "{args:?}: {out}");
    }
}

/// Threads are capped as the engine's (256) and 0 is refused; numbers out
/// of range (negative ones included) are errors naming the range.
#[test]
fn numbers_out_of_range_name_the_range() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["--threads", "0", "fit", "--data", "d", "--out", "o"],
            "from 1 to 256",
        ),
        (
            &["--threads", "257", "fit", "--data", "d", "--out", "o"],
            "from 1 to 256",
        ),
        (
            &["--threads", "-1", "fit", "--data", "d", "--out", "o"],
            "from 1 to 256",
        ),
        (
            &["gen", "--variant", "russian", "--games", "-1", "--out", "o"],
            "from 1 to 1000000000",
        ),
        (
            &[
                "gen",
                "--variant",
                "russian",
                "--games",
                "1",
                "--depth",
                "0",
                "--out",
                "o",
            ],
            "from 1 to 1000",
        ),
        (
            &["fit", "--data", "d", "--out", "o", "--lr", "-1"],
            "a number above 0",
        ),
        (
            &["fit", "--data", "d", "--out", "o", "--validation", "1"],
            "from 0 to below 1",
        ),
        (
            &["fit", "--data", "d", "--out", "o", "--batch", "0"],
            "from 1 to",
        ),
        (
            &[
                "compare",
                "--variant",
                "russian",
                "--tuned",
                "t",
                "--pairs",
                "0",
            ],
            "from 1 to 1000000000",
        ),
        (
            &[
                "compare",
                "--variant",
                "russian",
                "--tuned",
                "t",
                "--depth",
                "-4",
            ],
            "from 1 to 1000",
        ),
    ];
    for (args, range) in cases {
        let (code, _, err) = tune(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        let first = err.lines().next().unwrap_or("");
        assert!(first.starts_with("error: invalid value"), "{args:?}: {err}");
        assert!(first.contains(range), "{args:?}: {err} lacks {range:?}");
    }
}

/// `endgames` writes an opening file the match runner reads; with no
/// position kept it is an error.
#[test]
fn endgames_writes_an_opening_file() {
    use shashki::game::Game;
    use shashki::tools::openings;
    use shashki::{pdn, Variant};
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    let record = |text: &str, moves: &[&str]| {
        let mut g = Game::from_text(Variant::Russian, text).unwrap();
        for m in moves {
            g.play_text(m).unwrap();
        }
        pdn::write_game(&pdn::GameRecord::new(g))
    };
    // Ten pieces, then eight after an exchange: the first quiet position
    // in range is the one after e5:c3 b2:d4 (White d4 against Black's men).
    let games = [
        record(
            "W:Wa1,b2,c3,e3,g3:Bb8,d8,e5,f6,h8",
            &["c3-d4", "e5:c3", "b2:d4"],
        ),
        record("W:Wa1,c1,c3,g3:Bb8,d8,f6,h6", &[]),
    ]
    .join("\n");
    let (games_pdn, out) = (temp("games.pdn"), temp("endgames.txt"));
    std::fs::write(&games_pdn, games).unwrap();
    let (code, stdout, err) = tune(&[
        "endgames",
        "--variant",
        "russian",
        "--depth",
        "4",
        "--max-score",
        "10000",
        "--made-by",
        "a test",
        "--out",
        &s(&out),
        &s(&games_pdn),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("2 games, 2 positions kept"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("# made by: a test\n"), "{text}");
    let set = openings::parse(Variant::Russian, &text).unwrap();
    assert_eq!(set.len(), 2);
    for g in &set {
        assert!(g.moves().is_empty());
        assert!((6..=8).contains(&g.position().occupied().count_ones()));
    }
    let (code, _, err) = tune(&[
        "endgames",
        "--variant",
        "russian",
        "--pieces",
        "2-3",
        "--out",
        &s(&temp("none.txt")),
        &s(&games_pdn),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no position kept"), "{err}");
}

/// The validation figures of `fit-patterns`' report: (hand alone, with
/// patterns).
fn validation_losses(report: &str) -> (f64, f64) {
    let value = |prefix: &str| -> f64 {
        let line = report
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no '{prefix}' in {report}"));
        let after = line.split("validation ").nth(1).expect("validation");
        after.split_whitespace().next().unwrap().parse().unwrap()
    };
    (value("hand-shaped alone:"), value("with patterns:"))
}

#[test]
fn fit_patterns_lowers_the_validation_loss() {
    // A tiny data set of 400 games at depth 2, for a variant fitted to the
    // results (Russian) and one fitted to the final count on the 8x10 board.
    let s = |p: &PathBuf| p.to_str().unwrap().to_string();
    for v in ["adiyukh-80", "russian"] {
        let (data, bin, svg) = (
            temp(&format!("{v}.data")),
            temp(&format!("{v}-patterns.bin")),
            temp(&format!("{v}.svg")),
        );
        let (code, _, err) = tune(&[
            "gen",
            "--variant",
            v,
            "--games",
            "400",
            "--depth",
            "2",
            "--seed",
            "14",
            "--out",
            &s(&data),
        ]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = tune(&[
            "fit-patterns",
            "--variant",
            v,
            "--out",
            &s(&bin),
            "--plot",
            &s(&svg),
            "--batch",
            "1024",
            &s(&data),
        ]);
        assert_eq!(code, 0, "{err}");
        let (before, after) = validation_losses(&out);
        assert!(after < before * 0.99, "{v}: {before} -> {after}: {out}");
        let p = shashki::eval::patterns::Patterns::from_bytes(
            &std::fs::read(&bin).unwrap(),
            Some(v.parse().unwrap()),
        )
        .unwrap();
        assert!(p.weights().iter().any(|&w| w != 0));
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<polyline"));
    }
    // The same Russian data with depth-4 search scores, the labels half
    // outcome and half the search's prediction: the fit still learns.
    let data = temp("russian.data");
    let (scored, bin) = (temp("russian-scored.data"), temp("blend.bin"));
    let (code, out, err) = tune(&["rescore", "--depth", "4", "--out", &s(&scored), &s(&data)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("positions scored at depth 4"), "{out}");
    let text = std::fs::read_to_string(&scored).unwrap();
    assert!(
        text.contains("# shashki-tune rescore --depth 4"),
        "the command is kept"
    );
    let plain = std::fs::read_to_string(&data).unwrap();
    let count = |t: &str| t.lines().filter(|l| !l.starts_with('#')).count();
    assert_eq!(count(&text), count(&plain), "one line per position");
    let (bin_s, scored_s) = (s(&bin), s(&scored));
    let blended = [
        "fit-patterns",
        "--variant",
        "russian",
        "--result",
        "0.5",
        "--out",
        bin_s.as_str(),
        "--batch",
        "1024",
    ];
    let (code, out, err) = tune(&[&blended[..], &[scored_s.as_str()]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("labels 0.5 x outcome + 0.5 x the search's prediction"),
        "{out}"
    );
    // The validation loss is measured against the results, which these
    // labels only half follow, so its fall is smaller than the results-only
    // fit's: 0.8% with the search of 2026-12-04's games. A fit that learned
    // nothing would leave it where it was.
    let (before, after) = validation_losses(&out);
    assert!(
        after < before * 0.995,
        "blended: {before} -> {after}: {out}"
    );
    // The hand-shaped parameters fitted beside the patterns: a weights
    // text the engine reads, with the unit kept and the king moved or
    // not as the data says, and a loss no worse than the patterns' alone.
    let hand = temp("russian-hand.txt");
    let hand_s = s(&hand);
    let (code, out_hand, err) = tune(
        &[
            &blended[..],
            &[
                "--hand-out",
                hand_s.as_str(),
                "--hand-params",
                "king,runaway",
                scored_s.as_str(),
            ],
        ]
        .concat(),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out_hand.contains("hand-shaped parameters: "), "{out_hand}");
    let (v, w) =
        shashki::eval::weights::Weights::parse(&std::fs::read_to_string(&hand).unwrap()).unwrap();
    let built_in = shashki::eval::weights::Weights::for_variant(shashki::Variant::Russian);
    assert_eq!(v, shashki::Variant::Russian);
    assert_eq!(w.man, built_in.man);
    assert_eq!(w.main_road, built_in.main_road, "not asked for");
    assert!(validation_losses(&out_hand).1 <= validation_losses(&out).1 + 1e-4);
    let labels = temp("bad-label.data");
    std::fs::write(&labels, "variant adiyukh-64\n25 W:Wa1:Bh8\n").unwrap();
    // Bad input: one line, status 2.
    for (args, want) in [
        (
            vec![
                "fit-patterns",
                "--variant",
                "adiyukh-64",
                "--out",
                "x.bin",
                labels.to_str().unwrap(),
            ],
            "line 2: '25' is not a count difference from -24 to 24",
        ),
        (
            vec![
                "fit-patterns",
                "--variant",
                "brazilian",
                "--out",
                "x.bin",
                data.to_str().unwrap(),
            ],
            "data of russian, not brazilian",
        ),
        (
            vec![
                "fit-patterns",
                "--variant",
                "russian",
                "--out",
                "x.bin",
                "/nonexistent/p.data",
            ],
            "cannot read /nonexistent/p.data",
        ),
        (
            vec![
                "fit-patterns",
                "--variant",
                "russian",
                "--result",
                "0.5",
                "--out",
                "x.bin",
                data.to_str().unwrap(),
            ],
            "have none (make them with 'shashki-tune rescore')",
        ),
        (
            vec![
                "fit-patterns",
                "--variant",
                "russian",
                "--out",
                "x.bin",
                "--hand-out",
                "x.txt",
                "--hand-params",
                "man",
                data.to_str().unwrap(),
            ],
            "'man' is not a parameter a russian fit moves",
        ),
        (
            vec!["rescore", "--out", "x.data", "/nonexistent/p.data"],
            "cannot read /nonexistent/p.data",
        ),
    ] {
        let (code, _, err) = tune(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

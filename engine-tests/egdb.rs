//! Endgame tables against an independent solver.
//!
//! The tables up to four pieces are built for Russian and Brazilian once
//! for this test binary ([`built`], shared with `egdb_endings.rs` and
//! `egdb_search.rs`). Every position with two to four pieces (both sides
//! with a piece, either side to move: 12,817,672 a variant) is then valued
//! by the exact solver of `egdb_exact.rs`, written here from the rule book,
//! and must have the table's value. The solver uses nothing of the engine
//! but the move generator and the position parser: the counting rules
//! 7.2.4-7.2.8 are the tests' own reading of them (`counting.rs`), and the
//! solver is a backward induction over the counts of each material (see
//! `egdb_exact.rs`), not the tables' retrograde analysis. That repetition
//! (7.2.3) changes no value is argued there, and checked: by a second game
//! that draws wherever a repetition could come, and where that differs, by
//! a search of the game with repetition.
//!
//! The other tests here: damaged files, `--only` builds, `egdb list`.

use shashki::egdb::build::{build, BuildOptions};
use shashki::egdb::{Combo, Tables, Wdl};
use shashki::Variant;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A scratch folder of this process (removed first if it is there).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shashki-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The folder of the tables of `variant` (Russian or Brazilian) up to four
/// pieces, built on first use, once for this test binary, into
/// `<scratch>/<variant>` (the layout `--egdb` and `EGDB Path` take). The
/// folders are removed when the process exits.
pub(crate) fn built(variant: Variant) -> &'static Path {
    static RUSSIAN: OnceLock<PathBuf> = OnceLock::new();
    static BRAZILIAN: OnceLock<PathBuf> = OnceLock::new();
    let cell = match variant {
        Variant::Russian => &RUSSIAN,
        Variant::Brazilian => &BRAZILIAN,
        v => panic!("no tables for {v}"),
    };
    cell.get_or_init(|| {
        let base = scratch(&format!("tables-{}", variant.id()));
        remove_at_exit(&base);
        let dir = base.join(variant.id());
        let started = std::time::Instant::now();
        let opts = BuildOptions {
            variant,
            pieces: 4,
            dir: dir.clone(),
            only: None,
        };
        build(&opts, &mut |_| {}).expect("build the tables");
        eprintln!(
            "{variant}: tables up to 4 pieces built in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        dir
    })
}

/// Remove `dir` when the process exits (the test harness exits through
/// `exit`, which runs the handlers registered with `atexit`).
fn remove_at_exit(dir: &Path) {
    static DIRS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    #[cfg_attr(not(unix), allow(dead_code))]
    extern "C" fn remove_all() {
        if let Ok(dirs) = DIRS.lock() {
            for d in dirs.iter() {
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
    let mut dirs = DIRS.lock().unwrap_or_else(|p| p.into_inner());
    if dirs.is_empty() {
        #[cfg(unix)]
        // SAFETY: registers a plain function with no arguments.
        unsafe {
            libc::atexit(remove_all);
        }
    }
    dirs.push(dir.to_path_buf());
}

/// How many positions have `n` pieces, a piece on each side (men not on
/// their crowning rank), either side to move.
fn positions_with(n: u32) -> usize {
    let c = |n: u32, k: u32| -> usize {
        (0..k).fold(1, |a, i| a * (n - i) as usize) / (1..=k).fold(1, |a, i| a * i as usize)
    };
    let mut total = 0;
    for wm in 0..=n {
        for bm in 0..=n - wm {
            for wk in 0..=n - wm - bm {
                let bk = n - wm - bm - wk;
                if n < 2 || wm + wk == 0 || bm + bk == 0 {
                    continue;
                }
                // `a` white men on rank 1, `b` black men on rank 8, the
                // others on ranks 2-7 (24 squares); then the kings on any
                // square left.
                let mut men = 0;
                for a in 0..=wm.min(4) {
                    for b in 0..=bm.min(4) {
                        let (mw, mb) = (wm - a, bm - b);
                        if mw + mb <= 24 {
                            men += c(4, a) * c(4, b) * c(24, mw) * c(24 - mw, mb);
                        }
                    }
                }
                let free = 32 - wm - bm;
                total += 2 * men * c(free, wk) * c(free - wk, bk);
            }
        }
    }
    total
}

#[test]
fn russian_tables_up_to_four_pieces_agree_with_an_independent_solver() {
    tables_agree_with_an_independent_solver(Variant::Russian);
}

#[test]
fn brazilian_tables_up_to_four_pieces_agree_with_an_independent_solver() {
    tables_agree_with_an_independent_solver(Variant::Brazilian);
}

/// Every position up to four pieces has the table's value, and the four-piece
/// tables pass `egdb verify`.
fn tables_agree_with_an_independent_solver(variant: Variant) {
    let dir = built(variant);
    let tables = Tables::open(dir, variant, 4).unwrap();
    assert_eq!(tables.pieces(), 4);
    let started = std::time::Instant::now();
    let r = crate::egdb_exact::check(variant, &tables, 4);
    eprintln!(
        "{variant}: {} positions (by pieces {:?}) in {} materials solved and compared in {:.1} s: {} won, {} drawn, {} lost for the side to move; {} differ from the tables",
        r.positions.iter().sum::<usize>(),
        r.positions,
        r.materials,
        started.elapsed().as_secs_f64(),
        r.wdl[0],
        r.wdl[1],
        r.wdl[2],
        r.mismatches
    );
    r.assert_agrees(variant, &tables);
    // Every position with a piece on each side, each combination met.
    assert_eq!(
        r.positions,
        [0, 1, 2, 3, 4, 5].map(|n| if n <= 4 { positions_with(n) } else { 0 })
    );
    for c in (2..=4).flat_map(Combo::all_with) {
        assert!(
            r.combos.contains(&c),
            "{variant}: no position of {c} checked"
        );
    }
    // The four-piece tables: their values agree with their moves.
    let v = shashki::tools::egdb::verify(dir, variant).unwrap();
    assert_eq!((v.files, v.failures), (41, 0), "{:?}", v.lines);
}

/// Damaged, truncated, misnamed and other-variant files are one clear error
/// naming the file; the others keep answering.
#[test]
fn damaged_tables_are_refused_naming_the_file() {
    let dir = scratch("damage");
    let opts = BuildOptions {
        variant: Variant::Russian,
        pieces: 3,
        dir: dir.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).unwrap();
    let kk_k = dir.join("KK-K.egdb");
    let bytes = std::fs::read(&kk_k).unwrap();
    // A flipped byte in the data.
    let mut bad = bytes.clone();
    let at = bad.len() - 20;
    bad[at] ^= 0x40;
    std::fs::write(&kk_k, &bad).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    let pos = shashki::fen::parse_position(Variant::Russian, "W:WKa1,Kc1:BKh8").unwrap();
    assert_eq!(t.probe(&pos), None);
    let errors = t.take_errors();
    assert!(
        errors.len() == 1 && errors[0].contains("KK-K.egdb") && errors[0].contains("damaged"),
        "{errors:?}"
    );
    // The other tables still answer.
    let kv = shashki::fen::parse_position(Variant::Russian, "W:WKa1:BKh8").unwrap();
    assert!(t.probe(&kv).is_some());
    // Truncated.
    std::fs::write(&kk_k, &bytes[..bytes.len() / 2]).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.probe(&pos), None);
    let e = t.take_errors();
    assert!(
        e[0].contains("KK-K.egdb") && e[0].contains("truncated"),
        "{e:?}"
    );
    // Another variant's file, and a file of another combination.
    std::fs::copy(dir.join("KM-K.egdb"), &kk_k).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.probe(&pos), None);
    let e = t.take_errors();
    assert!(e[0].contains("holds KM-K, not KK-K"), "{e:?}");
    std::fs::write(&kk_k, &bytes).unwrap();
    // A folder of Russian tables holds no Brazilian ones, and a file names
    // its variant.
    let e = Tables::open(&dir, Variant::Brazilian, 3).err().unwrap();
    assert!(e.contains("holds russian tables, not brazilian"), "{e}");
    let kk_k_combo: Combo = "KK-K".parse().unwrap();
    let e = shashki::egdb::file::TableFile::open(&kk_k, Variant::Brazilian, kk_k_combo)
        .err()
        .unwrap();
    assert!(e.contains("a table of russian, not brazilian"), "{e}");
    // A build resumes: whole files are kept, a damaged one is built again.
    std::fs::write(&kk_k, &bad).unwrap();
    let mut rebuilt = Vec::new();
    build(&opts, &mut |r| {
        if !r.skipped {
            rebuilt.extend(r.combos.iter().map(|c: &Combo| c.name()));
        }
    })
    .unwrap();
    assert_eq!(rebuilt, ["KK-K", "K-KK"]);
    assert_eq!(std::fs::read(&kk_k).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The tables of plies beside the values: a damaged one is one error
/// naming it, while the values still answer; one of values in its place is
/// named as such; `egdb verify` fails on it; a build resumes by building
/// the pair again; and a folder without plies (built before there were
/// any) answers values and no plies, without an error.
#[test]
fn damaged_or_missing_plies_are_reported_and_rebuilt() {
    let dir = scratch("damage-plies");
    let opts = BuildOptions {
        variant: Variant::Russian,
        pieces: 3,
        dir: dir.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).unwrap();
    let verified = shashki::tools::egdb::verify(&dir, Variant::Russian).unwrap();
    assert_eq!(verified.failures, 0, "{:?}", verified.lines);
    let kk_k = dir.join("KK-K.plies");
    let bytes = std::fs::read(&kk_k).unwrap();
    // White to move wins at once: a ply to the conversion.
    let pos = shashki::fen::parse_position(Variant::Russian, "W:WKa1,Kc1:BKb2").unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), Some(1)));
    let mut bad = bytes.clone();
    let at = bad.len() - 20;
    bad[at] ^= 0x40;
    std::fs::write(&kk_k, &bad).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), None));
    let e = t.take_errors();
    assert!(
        e.len() == 1 && e[0].contains("KK-K.plies") && e[0].contains("damaged"),
        "{e:?}"
    );
    let verified = shashki::tools::egdb::verify(&dir, Variant::Russian).unwrap();
    assert!(
        verified.failures == 1
            && verified
                .lines
                .iter()
                .any(|l| l.starts_with("FAILED") && l.contains("KK-K.plies")),
        "{:?}",
        verified.lines
    );
    // A table of values where the plies should be.
    std::fs::copy(dir.join("KK-K.egdb"), &kk_k).unwrap();
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.plies(&pos), None);
    let e = t.take_errors();
    assert!(e[0].contains("a table of values, not of plies"), "{e:?}");
    // The build makes the pair again, and the same bytes.
    let mut rebuilt = Vec::new();
    build(&opts, &mut |r| {
        if !r.skipped {
            rebuilt.extend(r.combos.iter().map(|c: &Combo| c.name()));
        }
    })
    .unwrap();
    assert_eq!(rebuilt, ["KK-K", "K-KK"]);
    assert_eq!(std::fs::read(&kk_k).unwrap(), bytes);
    // No plies at all.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|x| x == "plies") {
            std::fs::remove_file(path).unwrap();
        }
    }
    let t = Tables::open(&dir, Variant::Russian, 3).unwrap();
    assert_eq!(t.pieces(), 3);
    assert_eq!((t.probe(&pos), t.plies(&pos)), (Some(Wdl::Win), None));
    assert!(t.take_errors().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--only` in a job array: with the smaller tables and the pairs of the
/// same piece count with fewer men in the folder, each pair of a wave (the
/// same men) builds on its own, in any order, into the very files a whole
/// build writes; a pair with fewer men missing is named.
#[test]
fn only_builds_each_pair_of_a_wave_alone() {
    use shashki::egdb::build::{build_order, needed_before};
    let variant = Variant::Russian;
    let whole = built(variant);
    let mut opts = BuildOptions {
        variant,
        pieces: 4,
        dir: whole.to_path_buf(),
        only: None,
    };
    let wave: Vec<Combo> = build_order(4)
        .into_iter()
        .filter(|c| c.pieces() == 4 && c.men() == 2)
        .collect();
    assert_eq!(wave.len(), 4, "{wave:?}");
    let names = |c: Combo| {
        let mut v = Vec::new();
        for ext in ["plies", "egdb"] {
            for x in [c, c.swapped()] {
                let name = format!("{x}.{ext}");
                if !v.contains(&name) {
                    v.push(name);
                }
            }
        }
        v
    };
    let part = scratch("only-part");
    std::fs::create_dir_all(&part).unwrap();
    for c in build_order(4) {
        if needed_before(c, wave[0]) {
            for f in names(c) {
                std::fs::copy(whole.join(&f), part.join(&f)).unwrap();
            }
        }
    }
    // Last first: no pair of the wave waits for another.
    opts.dir = part.clone();
    for &c in wave.iter().rev() {
        opts.only = Some(c);
        let mut built = Vec::new();
        build(&opts, &mut |r| built.push((r.combos.clone(), r.skipped))).unwrap();
        assert_eq!(built.len(), 1);
        assert!(!built[0].1, "{c} was there already");
        for f in names(c) {
            assert_eq!(
                std::fs::read(part.join(&f)).unwrap(),
                std::fs::read(whole.join(&f)).unwrap(),
                "{f}"
            );
        }
    }
    // The next wave without one pair of this one: refused, naming it.
    let next = build_order(4)
        .into_iter()
        .find(|c| c.pieces() == 4 && c.men() == 3)
        .unwrap();
    std::fs::remove_file(part.join(names(wave[0]).pop().unwrap())).unwrap();
    opts.only = Some(next);
    let e = build(&opts, &mut |_| {}).unwrap_err();
    assert!(
        e.contains(&format!("{}.egdb is needed first", wave[0])),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&part);
}

/// The lines `shashki ARGS` prints, the command having succeeded.
fn lines(args: &[&str]) -> Vec<String> {
    let (status, out, err) = crate::cli::shashki(args);
    assert_eq!(status, 0, "{args:?}: {err}");
    out.lines().map(str::to_string).collect()
}

/// `egdb list`: the pairs of one piece count in build order, by the names
/// `--only` takes, split into waves by men, with their sizes on demand.
#[test]
fn egdb_list_names_the_pairs_of_a_piece_count() {
    use shashki::egdb::build::build_order;
    for n in 2..=6u32 {
        let want: Vec<Combo> = build_order(n)
            .into_iter()
            .filter(|c| c.pieces() == n)
            .collect();
        let pieces = n.to_string();
        let names = lines(&["egdb", "list", "--pieces", &pieces]);
        let got: Vec<Combo> = names.iter().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got, want);
        // Each pair once: the combinations of n pieces, a pair for two.
        let all = Combo::all_with(n);
        let single = all.iter().filter(|c| **c == c.swapped()).count();
        assert_eq!(got.len(), (all.len() + single) / 2);
        let mut waves = Vec::new();
        for m in 0..=n {
            waves.extend(lines(&[
                "egdb",
                "list",
                "--pieces",
                &pieces,
                "--men",
                &m.to_string(),
            ]));
        }
        assert_eq!(waves, names);
        let sized = lines(&["egdb", "list", "--pieces", &pieces, "--sizes"]);
        let total: u64 = sized
            .iter()
            .map(|l| l.split('\t').nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, want.iter().map(|c| c.pair_size()).sum::<u64>());
    }
    assert_eq!(
        lines(&["egdb", "list", "--pieces", "3", "--men", "0"]),
        ["KK-K"]
    );
}

/// `egdb list --missing DIR`: only the pairs whose four files (values and
/// plies, both sides) are not all in DIR, so a resubmitted job array
/// builds only what is left.
#[test]
fn egdb_list_missing_leaves_out_the_pairs_already_built() {
    let dir = scratch("missing");
    let d = dir.to_str().unwrap();
    // Nothing there yet (the folder does not exist): every pair.
    assert_eq!(
        lines(&["egdb", "list", "--pieces", "3", "--missing", d]),
        lines(&["egdb", "list", "--pieces", "3"])
    );
    let opts = BuildOptions {
        variant: Variant::Russian,
        pieces: 3,
        dir: dir.clone(),
        only: None,
    };
    build(&opts, &mut |_| {}).expect("build the tables");
    assert!(lines(&["egdb", "list", "--pieces", "3", "--missing", d]).is_empty());
    assert!(lines(&["egdb", "list", "--pieces", "2", "--missing", d]).is_empty());
    assert_eq!(
        lines(&[
            "egdb",
            "list",
            "--pieces",
            "4",
            "--men",
            "1",
            "--missing",
            d
        ]),
        ["KKM-K", "KM-KK", "M-KKK"]
    );
    // One file of one side gone: that pair is listed again, in its wave.
    std::fs::remove_file(dir.join("M-KK.plies")).unwrap();
    assert_eq!(
        lines(&["egdb", "list", "--pieces", "3", "--missing", d]),
        ["M-KK"]
    );
    assert!(lines(&[
        "egdb",
        "list",
        "--pieces",
        "3",
        "--men",
        "2",
        "--missing",
        d
    ])
    .is_empty());
    // A file where the folder should be: a one-line error.
    let file = dir.join("K-K.egdb");
    let (status, _, err) = crate::cli::shashki(&[
        "egdb",
        "list",
        "--pieces",
        "3",
        "--missing",
        file.to_str().unwrap(),
    ]);
    assert_ne!(status, 0);
    assert!(err.contains("is not a folder"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

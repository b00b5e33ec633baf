//! Folders of endgame tables through the binary: a build never replaces
//! another variant's tables nor a whole table it did not build (issue 24,
//! item 4); `egdb info` and `egdb verify` read the variant from the files
//! (item 5); the default folder is the per-user data folder, the same for
//! `egdb build` and the engine, which says once what it found there
//! (item 6). Every child gets its own `XDG_DATA_HOME` and `HOME` (temporary
//! folders) and no `SHASHKI_EGDB` unless a test sets it: nothing here reads
//! or writes the real home folder.

use crate::egdb::scratch;
use crate::process::Engine;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// `shashki` with `args` in folder `cwd`, its environment that of a user
/// whose home is `home` (`XDG_DATA_HOME` as given, or unset), plus `env`.
pub(crate) fn command(
    args: &[&str],
    home: &Path,
    xdg: Option<&Path>,
    env: &[(&str, &str)],
) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shashki"));
    c.args(args)
        .env_remove("SHASHKI_EGDB")
        .env_remove("XDG_DATA_HOME")
        .env("HOME", home)
        .current_dir(home);
    if let Some(x) = xdg {
        c.env("XDG_DATA_HOME", x);
    }
    for (k, v) in env {
        c.env(k, v);
    }
    c
}

/// Run `command` to its end: (status, stdout, stderr).
pub(crate) fn run(mut command: Command) -> (i32, String, String) {
    let out = command.stdin(Stdio::null()).output().expect("run shashki");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `shashki egdb build [--variant V] --pieces N --dir D`, as [`command`]
/// makes it (no `XDG_DATA_HOME`).
pub(crate) fn build_command(
    home: &Path,
    variant: Option<&str>,
    pieces: &str,
    dir: &Path,
    env: &[(&str, &str)],
) -> Command {
    let dir = dir.to_str().unwrap();
    let mut args = vec!["egdb", "build"];
    if let Some(v) = variant {
        args.extend(["--variant", v]);
    }
    args.extend(["--pieces", pieces, "--dir", dir]);
    command(&args, home, None, env)
}

/// `shashki egdb build` of `variant` up to `pieces` into `dir`: must work.
fn build(home: &Path, variant: &str, pieces: &str, dir: &Path) {
    let (code, _, err) = run(build_command(home, Some(variant), pieces, dir, &[]));
    assert_eq!(code, 0, "{err}");
}

/// Every file of `dir` by name, with its bytes.
pub(crate) fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

/// The one line on standard error of a refused command.
#[track_caller]
fn one_error_line(code: i32, err: &str) -> String {
    assert_eq!(code, 2, "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    lines[0].to_string()
}

/// The error line that ends the output of a refused build, after the
/// lines of the pairs it found whole.
#[track_caller]
fn last_error_line(code: i32, err: &str) -> String {
    assert_eq!(code, 2, "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    errors[0].to_string()
}

/// Item 4: Brazilian tables built into a folder of Russian ones are
/// refused with one line naming the variant found, and the Russian files
/// stay as they were; a rebuild of a pair keeps the whole table of it that
/// is there (the same file, not a copy of it), and refuses one that
/// differs from what it builds.
#[test]
fn a_build_never_replaces_tables_it_did_not_build() {
    let home = scratch("folders-other-variant");
    let t = home.join("T");
    std::fs::create_dir_all(&home).unwrap();
    build(&home, "russian", "3", &t);
    let before = files(&t);
    assert_eq!(before.len(), 32, "{:?}", before.keys());
    let (code, out, err) = run(build_command(&home, Some("brazilian"), "3", &t, &[]));
    let line = one_error_line(code, &err);
    assert!(
        line.contains("holds russian tables") && line.contains(t.to_str().unwrap()),
        "{line}"
    );
    assert!(out.is_empty(), "{out}");
    assert_eq!(files(&t), before, "the Russian tables changed");

    // One side of a pair gone: the pair is built again, and the side that
    // is whole is kept as it is (its inode: a file written again through a
    // temporary file and a rename would be a new one).
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let inode = |f: &str| std::fs::metadata(t.join(f)).unwrap().ino();
        let kept = [inode("KK-K.egdb"), inode("KK-K.plies")];
        std::fs::remove_file(t.join("K-KK.egdb")).unwrap();
        build(&home, "russian", "3", &t);
        assert_eq!(files(&t), before);
        assert_eq!([inode("KK-K.egdb"), inode("KK-K.plies")], kept);
    }

    // A whole table of the pair that is not what the build makes (here:
    // every win made a draw, written by the library's own writer so that
    // its checks pass) is not replaced: one line naming it.
    use shashki::egdb::file::{write, Kind, TableFile};
    let kk_k: shashki::egdb::Combo = "KK-K".parse().unwrap();
    let path = t.join("KK-K.egdb");
    let values = TableFile::open(&path, shashki::Variant::Russian, kk_k)
        .unwrap()
        .all_values()
        .unwrap();
    let changed: Vec<u8> = values
        .iter()
        .map(|&v| if v == shashki::egdb::WIN { 0 } else { v })
        .collect();
    assert_ne!(changed, values);
    std::fs::remove_file(&path).unwrap();
    write(
        &path,
        Kind::Values,
        shashki::Variant::Russian,
        kk_k,
        &changed,
    )
    .unwrap();
    let theirs = std::fs::read(&path).unwrap();
    std::fs::remove_file(t.join("K-KK.egdb")).unwrap();
    let (code, _, err) = run(build_command(&home, None, "3", &t, &[]));
    let line = last_error_line(code, &err);
    assert!(
        line.contains("KK-K.egdb") && line.contains("a whole table that differs"),
        "{line}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), theirs);
    let _ = std::fs::remove_dir_all(&home);
}

/// Item 5: `egdb info` and `egdb verify` take the variant from the files:
/// Brazilian tables are described and verified without `--variant`; a
/// `--variant` that is not theirs is one line naming both; a folder with a
/// folder per variant is described variant by variant.
#[test]
fn info_and_verify_read_the_variant_from_the_files() {
    let home = scratch("folders-info");
    let base = home.join("B");
    let brazilian = base.join("brazilian");
    std::fs::create_dir_all(&home).unwrap();
    build(&home, "brazilian", "3", &brazilian);
    let dir = brazilian.to_str().unwrap();
    let (code, out, err) = run(command(&["egdb", "info", "--dir", dir], &home, None, &[]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!("brazilian tables in {dir}\n")),
        "{out}"
    );
    assert!(out.contains("3 pieces: 12 of 12 combinations"), "{out}");
    let (code, out, err) = run(command(&["egdb", "verify", "--dir", dir], &home, None, &[]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("16 files of brazilian verified in {dir}")),
        "{out}"
    );
    for cmd in ["info", "verify"] {
        let (code, out, err) = run(command(
            &["egdb", cmd, "--dir", dir, "--variant", "russian"],
            &home,
            None,
            &[],
        ));
        let line = one_error_line(code, &err);
        assert!(
            line.contains("--variant russian") && line.contains("holds brazilian tables"),
            "{cmd}: {line}"
        );
        assert!(out.is_empty(), "{cmd}: {out}");
        // The right one is accepted.
        let (code, _, err) = run(command(
            &["egdb", cmd, "--dir", dir, "--variant", "brazilian"],
            &home,
            None,
            &[],
        ));
        assert_eq!(code, 0, "{cmd}: {err}");
    }
    // The folder above, with Russian tables beside: both, each its own.
    build(&home, "russian", "2", &base.join("russian"));
    let (code, out, err) = run(command(
        &["egdb", "info", "--dir", base.to_str().unwrap()],
        &home,
        None,
        &[],
    ));
    assert_eq!(code, 0, "{err}");
    let r = base.join("russian");
    assert!(
        out.contains(&format!("russian tables in {}\n", r.display()))
            && out.contains(&format!("brazilian tables in {dir}\n"))
            && out.contains("2 pieces: 4 of 4 combinations"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&home);
}

/// The `info string` notes of a UCI search (`go depth 1`).
fn uci_notes(e: &mut Engine) -> Vec<String> {
    e.send("go depth 1");
    let (_, lines) = e.expect("bestmove", WAIT);
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Item 6: with no `--dir`, `egdb build` writes into
/// `$XDG_DATA_HOME/shashki/egdb/<variant>` (else
/// `$HOME/.local/share/shashki/egdb/<variant>`), and the engine's `EGDB
/// Path` defaults to that folder whatever folder it is started in
/// (`SHASHKI_EGDB` overrides both); before its first search it says once
/// what it found, in UCI and in Hub.
#[test]
fn the_default_folder_is_the_users_data_folder() {
    let home = scratch("folders-default");
    let xdg = home.join("xdg");
    std::fs::create_dir_all(&home).unwrap();
    // Tables in the working folder's egdb/russian (the old default) must
    // not be found.
    build(&home, "russian", "3", &home.join("egdb").join("russian"));
    let (code, out, err) = run(command(
        &["egdb", "build", "--pieces", "3"],
        &home,
        Some(&xdg),
        &[],
    ));
    assert_eq!(code, 0, "{err}");
    let base = xdg.join("shashki").join("egdb");
    let russian = base.join("russian");
    assert_eq!(out.trim(), format!("done: {}", russian.display()));
    let built = files(&russian);
    let values = built.keys().filter(|n| n.ends_with(".egdb")).count();
    assert_eq!(values, 16, "{:?}", built.keys());
    // Without XDG_DATA_HOME: under HOME.
    let (code, out, err) = run(command(
        &["egdb", "build", "--variant", "brazilian", "--pieces", "2"],
        &home,
        None,
        &[],
    ));
    assert_eq!(code, 0, "{err}");
    let under_home = home.join(".local/share/shashki/egdb/brazilian");
    assert_eq!(out.trim(), format!("done: {}", under_home.display()));
    // `egdb info` without a folder: the default one.
    let (code, out, err) = run(command(&["egdb", "info"], &home, Some(&xdg), &[]));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with(&format!("russian tables in {}\n", russian.display())),
        "{out}"
    );

    // The engine, started in another folder.
    let elsewhere = home.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut c = command(&[], &home, Some(&xdg), &[]);
    c.current_dir(&elsewhere);
    let mut e = Engine::spawn(c);
    e.send("uci");
    let (_, lines) = e.expect("uciok", WAIT);
    let want = format!(
        "option name EGDB Path type string default {}",
        base.display()
    );
    assert!(lines.contains(&want), "{lines:?}");
    let said = format!(
        "info string endgame tables: russian 3 pieces (16 files), brazilian none, from {}",
        base.display()
    );
    assert_eq!(uci_notes(&mut e), std::slice::from_ref(&said));
    // Once: not again for the next search, nor for another variant.
    assert_eq!(uci_notes(&mut e), Vec::<String>::new());
    e.send("setoption name Variant value brazilian");
    assert_eq!(uci_notes(&mut e), Vec::<String>::new());
    // Another folder: said again, for it.
    let brazilian_base = home.join(".local/share/shashki/egdb");
    e.send(&format!(
        "setoption name EGDB Path value {}",
        brazilian_base.display()
    ));
    assert_eq!(
        uci_notes(&mut e),
        [format!(
            "info string endgame tables: russian none, brazilian 2 pieces (4 files), from {}",
            brazilian_base.display()
        )]
    );
    e.send("quit");
    drop(e);

    // The working folder's tables, started there: still the default.
    let mut e = Engine::spawn(command(&[], &home, Some(&xdg), &[]));
    e.send("uci");
    e.expect("uciok", WAIT);
    assert_eq!(uci_notes(&mut e), [said]);
    e.send("quit");
    drop(e);

    // SHASHKI_EGDB overrides; a folder that does not exist is said so.
    let missing = home.join("no-tables");
    let mut e = Engine::spawn(command(
        &[],
        &home,
        Some(&xdg),
        &[("SHASHKI_EGDB", missing.to_str().unwrap())],
    ));
    e.send("uci");
    e.expect("uciok", WAIT);
    assert_eq!(
        uci_notes(&mut e),
        [format!(
            "info string endgame tables: russian none, brazilian none, from {} (no such folder)",
            missing.display()
        )]
    );
    e.send("quit");
    drop(e);

    // Hub: its informational line, once.
    let mut e = Engine::spawn(command(&[], &home, Some(&xdg), &[]));
    e.send("hub");
    e.expect("wait", WAIT);
    e.send("init");
    e.expect("ready", WAIT);
    e.send("pos");
    let hub_notes = |e: &mut Engine| -> Vec<String> {
        e.send("level depth=1");
        e.send("go think");
        let (_, lines) = e.expect("done", WAIT);
        lines
            .into_iter()
            .filter(|l| l.starts_with("info string="))
            .collect()
    };
    assert_eq!(
        hub_notes(&mut e),
        [format!(
            "info string=\"endgame tables: russian 3 pieces (16 files), brazilian none, from {}\"",
            base.display()
        )]
    );
    assert_eq!(hub_notes(&mut e), Vec::<String>::new());
    e.send("quit");
    drop(e);
    let _ = std::fs::remove_dir_all(&home);
}

//! Table builds that fail part-way, through the binary (issue 24, item
//! 12): killed with SIGKILL and started again, a build writes the very
//! bytes of an uninterrupted one; on a full disk it stops with one line,
//! every table it finished intact and no half-written file left, and
//! resumes once there is room. The full disk is a small tmpfs where this
//! machine lets the test mount one (as root on Linux), and everywhere the
//! writer's test hook `SHASHKI_EGDB_FAIL_AFTER_BYTES`, which makes it fail
//! as a full disk does after so many bytes.

use crate::egdb::{built, scratch};
use crate::egdb_folders::{build_command, files, run};
use shashki::Variant;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// An uninterrupted three-piece Russian build through the binary, its
/// files by name.
fn three_pieces(home: &Path) -> BTreeMap<String, Vec<u8>> {
    let dir = home.join("whole");
    let (code, _, err) = run(build_command(home, None, "3", &dir, &[]));
    assert_eq!(code, 0, "{err}");
    files(&dir)
}

/// The build into `dir` stopped on a full disk: status 2 and, after the
/// lines of the pairs it finished, one error line saying so; what is in
/// `dir` is a part of `whole`, byte for byte, with no temporary file.
#[track_caller]
fn stopped_on_a_full_disk(
    (code, out, err): (i32, String, String),
    dir: &Path,
    whole: &BTreeMap<String, Vec<u8>>,
) {
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    assert!(
        errors[0].contains("No space left on device")
            && errors[0].contains("the tables finished so far are kept")
            && errors[0].contains("run the build again to resume"),
        "{}",
        errors[0]
    );
    let left = files(dir);
    assert!(
        !left.is_empty() && left.len() < whole.len(),
        "{:?}",
        left.keys()
    );
    for (name, bytes) in &left {
        assert!(
            whole.get(name) == Some(bytes),
            "{name} is not what a whole build writes"
        );
    }
}

/// Resume the build into `dir` (no test hook): it ends, and `dir` holds
/// exactly the files of `whole`.
#[track_caller]
fn resumes_to(home: &Path, dir: &Path, whole: &BTreeMap<String, Vec<u8>>, pieces: &str) {
    let (code, _, err) = run(build_command(home, None, pieces, dir, &[]));
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("present, checked"), "nothing was kept: {err}");
    let got = files(dir);
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        whole.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in whole {
        assert!(&got[name] == bytes, "{name} differs from a whole build's");
    }
}

/// SIGKILL during a four-piece build (at the first temporary file seen
/// once four-piece tables are being written, or failing that after the
/// twentieth table), then the same command again: the files of an
/// uninterrupted build, byte for byte, and no temporary file left.
#[test]
fn a_killed_build_resumes_to_the_same_bytes() {
    let whole = files(built(Variant::Russian));
    let home = scratch("faults-kill");
    let dir = home.join("T");
    std::fs::create_dir_all(&home).unwrap();
    let mut child = build_command(&home, None, "4", &dir, &[])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let values = |names: &[String]| names.iter().filter(|n| n.ends_with(".egdb")).count();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let names: Vec<String> = std::fs::read_dir(&dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        let n = values(&names);
        let writing = n >= 16 && names.iter().any(|f| f.ends_with(".part"));
        if writing || n >= 20 {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the build ended before it could be killed"
        );
        assert!(Instant::now() < deadline, "no tables after 2 minutes");
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = files(&dir);
    eprintln!(
        "killed with {} files on disk{}",
        left.len(),
        if left.keys().any(|f| f.ends_with(".part")) {
            ", a temporary one among them"
        } else {
            ""
        }
    );
    assert!(left.len() < whole.len(), "the build was not interrupted");
    resumes_to(&home, &dir, &whole, "4");
    let _ = std::fs::remove_dir_all(&home);
}

/// A write that fails as on a full disk (the writer's test hook, after
/// 60,000 bytes of the 127,253 of three pieces): one line, the finished
/// tables intact, and the same command without the hook finishes the
/// build with the bytes of an uninterrupted one.
#[test]
fn a_build_on_a_full_disk_stops_and_resumes() {
    let home = scratch("faults-full-hook");
    std::fs::create_dir_all(&home).unwrap();
    let whole = three_pieces(&home);
    let dir = home.join("T");
    let result = run(build_command(
        &home,
        None,
        "3",
        &dir,
        &[("SHASHKI_EGDB_FAIL_AFTER_BYTES", "60000")],
    ));
    stopped_on_a_full_disk(result, &dir, &whole);
    resumes_to(&home, &dir, &whole, "3");
    let _ = std::fs::remove_dir_all(&home);
}

/// The same on a real full file system: a 64 KiB tmpfs (where mounting is
/// not permitted, the test says it is skipped), then the same tmpfs grown
/// to 1 MiB for the resumed build.
#[test]
fn a_build_on_a_full_tmpfs_stops_and_resumes() {
    let home = scratch("faults-full-tmpfs");
    std::fs::create_dir_all(&home).unwrap();
    let mnt = home.join("mnt");
    std::fs::create_dir_all(&mnt).unwrap();
    let mount = |args: &[&str]| {
        std::process::Command::new("mount")
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let m = mnt.to_str().unwrap();
    if !cfg!(target_os = "linux") || !mount(&["-t", "tmpfs", "-o", "size=64k", "tmpfs", m]) {
        eprintln!("skipped: cannot mount a tmpfs here (needs root on Linux); a_build_on_a_full_disk_stops_and_resumes covers it with the test hook");
        let _ = std::fs::remove_dir_all(&home);
        return;
    }
    /// Unmounted however the test ends.
    struct Mounted(std::path::PathBuf);
    impl Drop for Mounted {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
        }
    }
    let mounted = Mounted(mnt.clone());
    let whole = three_pieces(&home);
    let dir = mnt.join("T");
    let result = run(build_command(&home, None, "3", &dir, &[]));
    stopped_on_a_full_disk(result, &dir, &whole);
    assert!(
        mount(&["-o", "remount,size=1m", m]),
        "remount the tmpfs larger"
    );
    resumes_to(&home, &dir, &whole, "3");
    drop(mounted);
    let _ = std::fs::remove_dir_all(&home);
}

//! The `egdb` commands' own parts: `egdb info` and `egdb verify` on a folder
//! of tables, and the progress line of `egdb build`.

use crate::egdb::build::{needed_before, Phase, Snapshot, Totals};
use crate::egdb::file::{file_name, folder_variant, Kind, TableFile};
use crate::egdb::index::{Combo, MAX_PIECES};
use crate::egdb::value::{finished_value, flip, Finished};
use crate::egdb::{DRAW, LOSS, NONE, WIN};
use crate::tools::progress::{bar, clock_time};
use crate::variant::Variant;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The folders `egdb info` and `egdb verify` look at, each with the
/// variant its files' headers name: `dir` (the default folder when `None`)
/// when it holds tables, else those of its folders `russian` and
/// `brazilian` that do. A `variant` given picks one of these and must be
/// what the files say: one error line naming both when it is not.
pub fn folders(
    dir: Option<&Path>,
    variant: Option<Variant>,
) -> Result<Vec<(PathBuf, Variant)>, String> {
    let base = match dir {
        Some(d) => d.to_path_buf(),
        None => crate::egdb::default_base().ok_or(
            "no default folder for the endgame tables (neither SHASHKI_EGDB, XDG_DATA_HOME nor HOME is set): name one with --dir",
        )?,
    };
    if !base.is_dir() {
        return Err(format!("'{}' is not a folder", base.display()));
    }
    let check = |dir: &Path, found: Variant, file: &str| match variant {
        Some(w) if w != found => Err(format!(
            "--variant {w}, but '{}' holds {found} tables ({file})",
            dir.display()
        )),
        _ => Ok((dir.to_path_buf(), found)),
    };
    if let Some((v, file)) = folder_variant(&base)? {
        return Ok(vec![check(&base, v, &file)?]);
    }
    let mut out = Vec::new();
    let candidates = match variant {
        Some(v) => vec![v],
        None => vec![Variant::Russian, Variant::Brazilian],
    };
    for c in candidates {
        let sub = base.join(c.id());
        if let Some((v, file)) = folder_variant(&sub)? {
            out.push(check(&sub, v, &file)?);
        }
    }
    if out.is_empty() {
        return Err(match variant {
            Some(v) => format!("no {v} endgame tables in '{}'", base.display()),
            None => format!("no endgame tables in '{}'", base.display()),
        });
    }
    Ok(out)
}

/// The combinations whose files are in `dir`, by piece count.
fn present(dir: &Path) -> Vec<Combo> {
    (2..=MAX_PIECES)
        .flat_map(Combo::all_with)
        .filter(|&c| dir.join(file_name(c)).is_file())
        .collect()
}

/// One line per combination and per piece count: positions, bytes, wins,
/// draws, losses (for the side to move).
pub fn describe(dir: &Path, variant: Variant) -> Result<Vec<String>, String> {
    if !dir.is_dir() {
        return Err(format!("'{}' is not a folder", dir.display()));
    }
    let combos = present(dir);
    if combos.is_empty() {
        return Err(format!("no endgame tables in '{}'", dir.display()));
    }
    let mut lines = vec![format!(
        "{:<14} {:>12} {:>10} {:>12} {:>12} {:>12}",
        "combination", "positions", "bytes", "wins", "draws", "losses"
    )];
    let mut by_pieces = std::collections::BTreeMap::<u32, [u64; 7]>::new();
    for c in &combos {
        let t = TableFile::open(&dir.join(file_name(*c)), variant, *c)?;
        let mut n = [0u64; 4];
        for v in t.all_values()? {
            n[v as usize] += 1;
        }
        let bytes = t.file_size();
        lines.push(format!(
            "{:<14} {:>12} {:>10} {:>12} {:>12} {:>12}",
            c.name(),
            n[0] + n[1] + n[2],
            bytes,
            n[WIN as usize],
            n[DRAW as usize],
            n[LOSS as usize]
        ));
        let plies = std::fs::metadata(dir.join(Kind::Plies.file_name(*c))).map_or(0, |m| m.len());
        let e = by_pieces.entry(c.pieces()).or_default();
        e[6] += plies;
        e[0] += 1;
        e[1] += n[0] + n[1] + n[2];
        e[2] += bytes;
        e[3] += n[WIN as usize];
        e[4] += n[DRAW as usize];
        e[5] += n[LOSS as usize];
    }
    for (p, e) in by_pieces {
        let all = Combo::all_with(p).len();
        lines.push(format!(
            "{p} pieces: {} of {all} combinations, {} positions, {} bytes, +{} ={} -{}; plies: {} bytes",
            e[0], e[1], e[2], e[3], e[4], e[5], e[6]
        ));
    }
    Ok(lines)
}

/// What `verify` found.
pub struct Verified {
    pub files: usize,
    pub failures: usize,
    pub lines: Vec<String>,
}

/// Check every file in `dir`: its checks, and the values against each
/// other: a position that cannot move is lost, every win has a move to a
/// position lost for the other side, every loss only moves to positions
/// won for the other side (what the counting rules allow can only turn
/// those into draws, never the other way, so these hold whatever the
/// counters). The table of plies beside each (when there is one): plies
/// for exactly the wins and losses, none for a position that cannot move,
/// and one for exactly the wins with a move that wins at once (to a table
/// loss of another combination, or to a position without moves).
pub fn verify(dir: &Path, variant: Variant) -> Result<Verified, String> {
    let combos = present(dir);
    if combos.is_empty() {
        return Err(format!("no endgame tables in '{}'", dir.display()));
    }
    let mut finished = Finished::new();
    let mut all_plies = std::collections::HashMap::new();
    let mut lines = Vec::new();
    let mut failures = 0;
    for &c in &combos {
        let path = dir.join(file_name(c));
        let loaded = TableFile::check_whole(&path)
            .and_then(|_| TableFile::open(&path, variant, c))
            .and_then(|t| t.all_values());
        let plies_path = dir.join(Kind::Plies.file_name(c));
        let plies = plies_path.is_file().then(|| {
            TableFile::check_whole(&plies_path)
                .and_then(|_| TableFile::open_kind(&plies_path, Kind::Plies, variant, c))
                .and_then(|t| t.all_values())
        });
        match plies {
            Some(Ok(p)) => {
                all_plies.insert(c, p);
            }
            Some(Err(e)) => {
                failures += 1;
                lines.push(format!("FAILED {e}"));
            }
            None => {}
        }
        match loaded {
            Ok(v) => {
                finished.insert(c, Arc::new(v));
            }
            Err(e) => {
                failures += 1;
                lines.push(format!("FAILED {e}"));
            }
        }
    }
    for &c in &combos {
        let Some(values) = finished.get(&c) else {
            continue;
        };
        // Every table a move can lead to must be here to check against.
        // When every table the build needs before this one is here, and
        // this pair seen from the other side, none is missing; else each
        // position's moves tell.
        let all_there = (2..=c.pieces())
            .flat_map(Combo::all_with)
            .filter(|&x| needed_before(x, c) || x == c.swapped())
            .all(|x| finished.contains_key(&x));
        let needs_missing = if all_there {
            None
        } else {
            (0..c.size()).into_par_iter().find_any(|&i| {
                c.decode(i).is_some_and(|s| {
                    let pos = s.position_unkeyed(variant);
                    pos.legal_moves().iter().any(|m| {
                        let (cc, _) = Combo::of(&pos.play(m));
                        cc.us_men + cc.us_kings > 0 && !finished.contains_key(&cc)
                    })
                })
            })
        };
        if needs_missing.is_some() {
            lines.push(format!(
                "{c}: values checked by their files only (a table its moves lead to is missing)"
            ));
            continue;
        }
        let plies = all_plies.get(&c);
        let bad = (0..c.size()).into_par_iter().find_first(|&i| {
            let d = plies.map(|p| p[i as usize]);
            let Some(s) = c.decode(i) else {
                return values[i as usize] != NONE || d.is_some_and(|d| d != 0);
            };
            let v = values[i as usize];
            let pos = s.position_unkeyed(variant);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                return v != LOSS || d.is_some_and(|d| d != 0);
            }
            let results = moves
                .iter()
                .map(|m| flip(finished_value(&finished, &pos.play(m))));
            let at_once = || {
                moves.iter().any(|m| {
                    let child = pos.play(m);
                    child.legal_moves().is_empty()
                        || (Combo::of(&child).0 != c.swapped()
                            && flip(finished_value(&finished, &child)) == WIN)
                })
            };
            let plies_wrong = match (d, v) {
                (None, _) => false,
                (Some(d), WIN) => d == 0 || (d == 1) != at_once(),
                (Some(d), LOSS) => d == 0,
                (Some(d), _) => d != 0,
            };
            plies_wrong
                || match v {
                    WIN => !results.clone().any(|r| r == WIN),
                    LOSS => !results.clone().all(|r| r == LOSS),
                    DRAW => false,
                    _ => true,
                }
        });
        match bad {
            Some(i) => {
                failures += 1;
                let pos = c
                    .decode(i)
                    .map(|s| crate::fen::position_text(&s.position(variant)));
                lines.push(format!(
                    "FAILED {}: position {i} ({}) disagrees with its moves",
                    file_name(c),
                    pos.unwrap_or_default()
                ));
            }
            None => lines.push(format!("{}: ok", file_name(c))),
        }
    }
    Ok(Verified {
        files: combos.len(),
        failures,
        lines,
    })
}

/// A progress line for a terminal, such as
/// `[#########...........] 86.0M/151.4M  KKM-KM retrograde 62%  1:02  ETA 0:45`:
/// the positions done of `all` (the pair under way counted by its
/// estimated fraction), the pair and its phase (the solver: states solved
/// of this side's), the time since the start, and the time left: what the
/// pair under way still needs ([`Snapshot::pair_left`]) and the pairs after
/// it at the pace of those built so far (positions a second; found files
/// count for nothing).
pub fn progress_line(p: &Snapshot, t: &Totals, all: u64, elapsed: f64) -> String {
    let pair_size = p.pair.map_or(0, |c| c.pair_size());
    let in_pair = p.fraction * pair_size as f64;
    let done = t.done as f64 + in_pair;
    let count = |n: f64| {
        if all >= 10_000_000 {
            format!("{:.1}M", n / 1e6)
        } else {
            format!("{n:.0}")
        }
    };
    let what = match (p.pair, p.building) {
        (Some(c), None) => format!("{c} {}", Phase::Checking.name()),
        (Some(c), Some(_)) if p.phase == Phase::Solving => {
            format!("{c} {} {}/{}", p.phase.name(), p.done, p.total)
        }
        (Some(c), Some(_)) => format!("{c} {} {:.0}%", p.phase.name(), 100.0 * p.fraction),
        (None, _) => String::new(),
    };
    // Seconds a position, from the pairs built, else from this one.
    let pace = if t.built > 0 {
        Some(t.built_secs / t.built as f64)
    } else {
        p.building
            .filter(|_| in_pair > 0.0)
            .map(|secs| secs / in_pair)
    };
    let after = all.saturating_sub(t.done + pair_size) as f64;
    let left = match (p.building.map(|_| p.pair_left()), pace) {
        (Some(None), _) => None,
        (Some(Some(pair)), _) if after == 0.0 => Some(pair),
        (Some(Some(pair)), Some(pace)) => Some(pair + after * pace),
        (None, _) if after + pair_size as f64 == 0.0 => Some(0.0),
        (None, Some(pace)) => Some(after * pace),
        _ => None,
    };
    format!(
        "{} {}/{}  {what}  {}  ETA {}",
        bar(done as u64, all, 20),
        count(done),
        count(all as f64),
        clock_time(elapsed as u64),
        left.map_or("--:--".to_string(), |s| clock_time(s.ceil() as u64)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_lines() {
        let kkm_km: Combo = "KKM-KM".parse().unwrap();
        let mut p = Snapshot {
            pair: Some(kkm_km),
            building: Some(10.0),
            phase: Phase::Retrograde,
            phase_secs: 4.0,
            done: 1,
            total: 2,
            side: 0,
            sides: 2,
            fraction: 0.5,
        };
        let size = kkm_km.pair_size();
        // Half the pair in 10 s: 10 s more for it; 2 * size after it at the
        // 2 s a million of the pairs built: 4 * size / 1e6 s.
        let t = Totals {
            done: size,
            built: 1_000_000,
            built_secs: 2.0,
            pairs: 1,
            ..Totals::default()
        };
        let all = 4 * size;
        let line = progress_line(&p, &t, all, 75.0);
        let left = 10.0 + 2.0 * size as f64 * 2e-6;
        let want = format!(
            "[#######.............] 28.6M/76.4M  KKM-KM retrograde 50%  1:15  ETA {}",
            clock_time(left.ceil() as u64)
        );
        assert_eq!(line, want);
        p.phase = Phase::Solving;
        p.done = 10;
        p.total = 40;
        let line = progress_line(&p, &t, all, 75.0);
        assert!(
            line.contains("  KKM-KM solving 10/40  1:15  ETA "),
            "{line}"
        );
        // Checking a file found on disk: no fraction, nothing known yet.
        p.building = None;
        p.fraction = 0.0;
        let line = progress_line(&p, &Totals::default(), 1000, 3.0);
        assert_eq!(
            line,
            "[....................] 0/1000  KKM-KM checking  0:03  ETA --:--"
        );
    }
}

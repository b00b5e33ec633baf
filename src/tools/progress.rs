//! Progress lines for a terminal: a bar, elapsed time and an estimated
//! time to the end, redrawn in place. Shared by `shashki match` and
//! `shashki egdb build`.

use std::io::Write;

/// A bar `[####......]` of `width` cells, `done` of `total` filled (full
/// when the total is 0).
pub fn bar(done: u64, total: u64, width: usize) -> String {
    let filled = ((done as u128 * width as u128)
        .checked_div(total as u128)
        .unwrap_or(width as u128) as usize)
        .min(width);
    format!("[{}{}]", "#".repeat(filled), ".".repeat(width - filled))
}

/// The time left at the pace so far: `elapsed` seconds for `done` of
/// `total` (any unit), rounded up so that work still running never shows
/// 0:00; `--:--` until something is done.
pub fn eta(elapsed: f64, done: f64, total: f64) -> String {
    if done <= 0.0 {
        return "--:--".to_string();
    }
    let left = elapsed * (total - done).max(0.0) / done;
    clock_time(left.ceil() as u64)
}

/// Seconds as `m:ss`, or `h:mm:ss` from an hour on.
pub fn clock_time(secs: u64) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// Draw `line` over the current terminal line on standard error (carriage
/// return, erase to the end of the line), cut to the terminal's width so
/// that it never wraps and scrolls.
pub fn redraw(line: &str) {
    let line = match terminal_width() {
        Some(w) if line.chars().count() >= w => line.chars().take(w - 1).collect(),
        _ => line.to_string(),
    };
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "\r\x1b[K{line}");
    let _ = err.flush();
}

/// The columns of the terminal on standard error, when it is one.
fn terminal_width() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ fills the winsize it is given, nothing more.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut ws) } == 0;
        if ok && ws.ws_col > 1 {
            return Some(ws.ws_col as usize);
        }
    }
    None
}

/// Erase the progress line, leaving the cursor at its start.
pub fn clear() {
    redraw("");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_and_times() {
        assert_eq!(bar(0, 20, 10), format!("[{}]", ".".repeat(10)));
        assert_eq!(bar(5, 20, 8), "[##......]");
        assert_eq!(bar(25, 20, 4), "[####]");
        assert_eq!(bar(0, 0, 3), "[###]");
        // Far past what a u64 product holds.
        assert_eq!(bar(u64::MAX / 2 + 1, u64::MAX, 2), "[#.]");
        assert_eq!(eta(10.0, 0.0, 5.0), "--:--");
        assert_eq!(eta(50.0, 4.0, 20.0), "3:20");
        assert_eq!(eta(7.0, 3.0, 4.0), "0:03");
        assert_eq!(eta(7.0, 5.0, 4.0), "0:00");
        assert_eq!(clock_time(3 * 3600 + 62), "3:01:02");
        assert_eq!(clock_time(59), "0:59");
    }
}

//! Move entry square by square: each legal move as the squares a user
//! clicks (the start, then every landing square; a quiet move's start and
//! target), and what a partial path still allows.
//!
//! A path is played as soon as it has at least two squares and every legal
//! move it could still become has the same result (the rule book's move
//! identity, [`Move::same_result`]); until then the squares that may come
//! next are returned, so routes that share a beginning are told apart as
//! the user goes.

use shashki::{Move, Position, Square};

/// The squares of a move as clicked: the start, then the landing square of
/// every jump (a quiet move: the start and the target).
pub fn squares(mv: &Move) -> Vec<Square> {
    let mut out = vec![mv.from()];
    if mv.is_capture() {
        out.extend(mv.path());
    } else {
        out.push(mv.to());
    }
    out
}

/// The longest path a move can have: the start and one landing per jump.
const MAX_PATH: usize = shashki::moves::MAX_JUMPS + 1;

/// What a path of squares amounts to.
#[derive(Debug)]
pub enum Entry {
    /// One move: play it.
    Complete(Move),
    /// Several moves remain: the squares that may come next, and the moves
    /// (as text) the path can still become.
    Partial {
        next: Vec<String>,
        candidates: Vec<String>,
    },
}

/// Read a path of square names against the legal moves of `pos`. Errors are
/// one line and name the problem. Never panics.
pub fn enter(pos: &Position, path: &[String]) -> Result<Entry, String> {
    let g = pos.geometry();
    if path.is_empty() {
        return Err("empty path: give at least the start square".into());
    }
    if path.len() > MAX_PATH {
        return Err(format!(
            "a path of {} squares is longer than any move ({MAX_PATH} at most)",
            path.len()
        ));
    }
    let mut wanted = Vec::with_capacity(path.len());
    for name in path {
        let sq = g
            .parse_square(name.trim())
            .map_err(|e| format!("bad square in path: {e}"))?;
        wanted.push(sq);
    }
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Err("the side to move has no legal move".into());
    }
    let mut matching: Vec<(Move, Vec<Square>)> = Vec::new();
    for mv in legal.iter() {
        let sqs = squares(mv);
        if sqs.len() >= wanted.len() && sqs[..wanted.len()] == wanted[..] {
            matching.push((*mv, sqs));
        }
    }
    let names = |sqs: &[Square]| -> Vec<String> { sqs.iter().map(|&s| g.square_name(s)).collect() };
    if matching.is_empty() {
        let said = names(&wanted).join(", ");
        // Say how far the path was right.
        let mut ok = wanted.len() - 1;
        let mut nexts: Vec<String> = Vec::new();
        while ok > 0 {
            nexts = next_squares(legal.iter(), &wanted[..ok], &names);
            if !nexts.is_empty() {
                break;
            }
            ok -= 1;
        }
        if ok == 0 {
            let mut starts: Vec<String> = Vec::new();
            for mv in legal.iter() {
                let s = g.square_name(mv.from());
                if !starts.contains(&s) {
                    starts.push(s);
                }
            }
            let what = if legal.iter().any(|m| m.is_capture()) {
                "a capture is compulsory; pieces that can capture"
            } else {
                "pieces that can move"
            };
            return Err(format!(
                "no legal move starts on {}; {what}: {}",
                names(&wanted[..1])[0],
                starts.join(" ")
            ));
        }
        return Err(format!(
            "no legal move follows the path {said}: after {} it goes on to {}",
            names(&wanted[..ok]).join(", "),
            nexts.join(" or ")
        ));
    }
    let first = matching[0].0;
    if wanted.len() >= 2 && matching.iter().all(|(m, _)| m.same_result(&first)) {
        return Ok(Entry::Complete(first));
    }
    let mut candidates: Vec<String> = Vec::new();
    let mut distinct: Vec<Move> = Vec::new();
    for (m, _) in &matching {
        if !distinct.iter().any(|d| d.same_result(m)) {
            distinct.push(*m);
            candidates.push(shashki::notation::move_text(pos, m));
        }
    }
    let next = next_squares(matching.iter().map(|(m, _)| m), &wanted, &names);
    if next.is_empty() {
        // Every route is complete here and they differ: squares cannot tell
        // them apart (not expected under the rule book, but never guessed).
        return Err(format!(
            "the path {} matches {}; give the move as text",
            names(&wanted).join(", "),
            candidates.join(", ")
        ));
    }
    Ok(Entry::Partial { next, candidates })
}

/// The distinct squares that come after `prefix` in the routes of `moves`.
fn next_squares<'a>(
    moves: impl Iterator<Item = &'a Move>,
    prefix: &[Square],
    names: &dyn Fn(&[Square]) -> Vec<String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for mv in moves {
        let sqs = squares(mv);
        if sqs.len() > prefix.len() && sqs[..prefix.len()] == prefix[..] {
            let n = names(&sqs[prefix.len()..prefix.len() + 1]).remove(0);
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shashki::{fen, Variant};

    fn path(p: &[&str]) -> Vec<String> {
        p.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn quiet_move_needs_two_squares() {
        let pos = Position::start(Variant::Russian);
        match enter(&pos, &path(&["c3"])).unwrap() {
            Entry::Partial { next, .. } => {
                let mut n = next.clone();
                n.sort();
                assert_eq!(n, ["b4", "d4"]);
            }
            e => panic!("{e:?}"),
        }
        assert!(matches!(
            enter(&pos, &path(&["c3", "d4"])).unwrap(),
            Entry::Complete(_)
        ));
        let err = enter(&pos, &path(&["c3", "c5"])).unwrap_err();
        assert!(
            err.starts_with("no legal move follows the path c3, c5: after c3 it goes on to "),
            "{err}"
        );
        assert!(err.contains("b4") && err.contains("d4"), "{err}");
        let err = enter(&pos, &path(&["b2"])).unwrap_err();
        assert!(err.starts_with("no legal move starts on b2"), "{err}");
    }

    #[test]
    fn shared_prefix_is_resolved_square_by_square() {
        // c3 takes d4 to e5, then d6 (to c7) or f6 (to g7).
        let pos = fen::parse_position(Variant::Russian, "W:Wc3:Bd4,d6,f6").unwrap();
        let Entry::Partial { next, candidates } = enter(&pos, &path(&["c3", "e5"])).unwrap() else {
            panic!("not partial");
        };
        assert_eq!(next.len(), 2);
        assert!(next.contains(&"c7".to_string()) && next.contains(&"g7".to_string()));
        assert_eq!(candidates.len(), 2);
        let Entry::Complete(mv) = enter(&pos, &path(&["c3", "e5", "g7"])).unwrap() else {
            panic!("not complete");
        };
        assert_eq!(shashki::notation::move_text(&pos, &mv), "c3:e5:g7");
        let err = enter(&pos, &path(&["c3", "e5", "a3"])).unwrap_err();
        assert!(err.contains("after c3, e5 it goes on to"), "{err}");
    }

    #[test]
    fn junk_is_an_error() {
        let pos = Position::start(Variant::Russian);
        for bad in [vec![], path(&["zz"]), path(&["c3"; 40]), path(&["", "d4"])] {
            assert!(enter(&pos, &bad).is_err());
        }
    }
}

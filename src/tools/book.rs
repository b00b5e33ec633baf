//! The maker of the opening books ([`crate::book`], `shashki book`): from
//! every opening of a set, for either side as the book's side, the book's
//! first `moves` moves, each chosen by a fixed-depth search, against every
//! legal reply of the other side.
//!
//! The tree grows a level at a time: the positions where the book's side is
//! to move (a lone legal move is played on at once and not counted) are
//! searched, each on a cleared table with one thread (so a book is the same
//! on every machine), `threads` at a time; their moves, and every reply to
//! them, give the next level.

use crate::book::{Book, BookMove};
use crate::game::Game;
use crate::search::{Limits, Searcher};
use crate::variant::Variant;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How [`build`] searches.
#[derive(Clone, Copy, Debug)]
pub struct BuildOptions {
    /// Depth of each position's search.
    pub depth: u32,
    /// Moves of the book's side after each opening.
    pub moves: usize,
    /// Searches at a time.
    pub threads: usize,
}

/// Limits of [`build`]'s options: the tree grows about fiftyfold per move.
pub const MAX_MOVES: usize = 4;

/// The positions where the book's side is to move with a choice, reached
/// from `game` through every move of the other side, each with the book
/// moves it has left (the most over the ways it is reached).
fn book_nodes(game: &Game, book_side_moves: usize, out: &mut HashMap<u64, (Game, usize)>) {
    // (game, whether the book's side is to move, book moves left)
    let mut stack = vec![(game.clone(), true, book_side_moves)];
    while let Some((g, ours, left)) = stack.pop() {
        if g.outcome().is_some() {
            continue;
        }
        let moves = g.position().legal_moves();
        if ours {
            if left == 0 {
                continue;
            }
            if moves.len() > 1 {
                let e = out
                    .entry(g.position().key())
                    .or_insert_with(|| (g.clone(), left));
                e.1 = e.1.max(left);
                continue;
            }
        }
        for m in moves.iter() {
            let mut next = g.clone();
            if next.play(m).is_ok() {
                stack.push((next, !ours, left));
            }
        }
    }
}

/// [`book_nodes`] after each legal move of `game`'s side to move (the
/// side that is not the book's).
fn after_every_move(game: &Game, book_side_moves: usize, out: &mut HashMap<u64, (Game, usize)>) {
    for m in game.position().legal_moves().iter() {
        let mut next = game.clone();
        if next.play(m).is_ok() {
            book_nodes(&next, book_side_moves, out);
        }
    }
}

/// Make the book of `variant` from `openings` (games of that variant),
/// reporting each level's searches to `progress` (level, positions) and,
/// from the searching threads, each search done to `done` (the searches of
/// the level done so far).
pub fn build(
    variant: Variant,
    openings: &[Game],
    opts: &BuildOptions,
    progress: &mut dyn FnMut(usize, usize),
    done: &(dyn Fn(usize) + Sync),
) -> Result<Book, String> {
    if opts.moves == 0 || opts.moves > MAX_MOVES {
        return Err(format!("--moves must be from 1 to {MAX_MOVES}"));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    let mut book = Book::new(variant);
    // Each opening with the side to move as the book's side, and with the
    // other side (whose every move is a branch).
    let mut nodes = HashMap::new();
    for g in openings {
        if g.variant() != variant {
            return Err(format!("an opening of {} in a {variant} book", g.variant()));
        }
        book_nodes(g, opts.moves, &mut nodes);
        after_every_move(g, opts.moves, &mut nodes);
    }
    let mut level = 0;
    while !nodes.is_empty() {
        level += 1;
        let mut todo: Vec<(Game, usize)> = nodes
            .into_values()
            .filter(|(g, _)| book.probe(g.position()).is_none())
            .collect();
        // A fixed order, for the progress lines and the same work anywhere.
        todo.sort_by_key(|(g, _)| g.position().key());
        progress(level, todo.len());
        let depth = opts.depth;
        let count = AtomicUsize::new(0);
        let found: Vec<Option<BookMove>> = pool.install(|| {
            todo.par_iter()
                .map_init(
                    || Searcher::new(32, 1),
                    |s, (g, _)| {
                        s.clear();
                        let r = s.search(g, &Limits::depth(depth), &mut |_| {});
                        done(count.fetch_add(1, Ordering::Relaxed) + 1);
                        r.best.map(|mv| BookMove {
                            mv,
                            score: r.score,
                            depth: r.depth,
                        })
                    },
                )
                .collect()
        });
        nodes = HashMap::new();
        for ((g, left), entry) in todo.iter().zip(found) {
            let Some(entry) = entry else { continue };
            book.insert(g.position(), entry);
            let mut next = g.clone();
            next.play(&entry.mv).map_err(|e| e.to_string())?;
            // The other side to move: every reply, then the book's side.
            after_every_move(&next, left - 1, &mut nodes);
        }
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::openings;

    /// One opening, a book of one move a side: the book's side to move has
    /// its move; with the other side as the book's side, every reply of the
    /// side to move has the book's answer; no move beyond.
    #[test]
    fn a_book_answers_every_reply_and_stops_after_its_moves() {
        let set = openings::parse(Variant::Russian, "c3-d4 f6-g5 g3-h4").unwrap();
        let opts = BuildOptions {
            depth: 4,
            moves: 1,
            threads: 2,
        };
        let mut levels = Vec::new();
        let book = build(
            Variant::Russian,
            &set,
            &opts,
            &mut |l, n| levels.push((l, n)),
            &|_| {},
        )
        .unwrap();
        let start = &set[0];
        let pos = start.position();
        let ours = book.probe(pos).expect("the opening's side to move");
        assert!(pos.legal_moves().iter().any(|m| m.same_result(&ours.mv)));
        let replies = pos.legal_moves();
        let mut answered = 0;
        for m in replies.iter() {
            let after = pos.play(m);
            if after.legal_moves().len() > 1 {
                answered += 1;
                let b = book.probe(&after).expect("an answer to every reply");
                assert!(after.legal_moves().iter().any(|m| m.same_result(&b.mv)));
            }
        }
        // One level of searches (a position past a forced move may add to
        // it), nothing after the book's first move.
        assert!(book.len() > answered);
        assert_eq!(levels, vec![(1, book.len())]);
        // The same book from one thread.
        let one = BuildOptions { threads: 1, ..opts };
        let again = build(Variant::Russian, &set, &one, &mut |_, _| {}, &|_| {}).unwrap();
        assert_eq!(again.to_text(""), book.to_text(""));
    }

    #[test]
    fn bad_options_and_openings_are_refused() {
        let set = openings::parse(Variant::Russian, "c3-d4").unwrap();
        let opts = BuildOptions {
            depth: 2,
            moves: 0,
            threads: 1,
        };
        let e = build(Variant::Russian, &set, &opts, &mut |_, _| {}, &|_| {}).unwrap_err();
        assert!(e.contains("--moves"), "{e}");
        let opts = BuildOptions { moves: 1, ..opts };
        let e = build(Variant::Brazilian, &set, &opts, &mut |_, _| {}, &|_| {}).unwrap_err();
        assert!(e.contains("an opening of russian"), "{e}");
    }
}

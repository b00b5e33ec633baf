//! The maker of the opening books ([`crate::book`], `shashki book`): from
//! every opening of a set, for either side as the book's side, the book's
//! first `moves` moves, each chosen by a fixed-depth search, against every
//! legal reply of the other side (or, after the book's own moves, its
//! `replies` best).
//!
//! The tree grows a level at a time: the positions where the book's side is
//! to move (a lone legal move is played on at once and not counted) are
//! searched, each on a cleared table with one thread (so a book is the same
//! on every machine), `threads` at a time; their moves, and the replies to
//! them, give the next level. A build hands its book over after every few
//! searches, and starts from the book it is given: a build that was
//! stopped goes on where it was.
use crate::book::{Book, BookMove};
use crate::game::Game;
use crate::moves::Move;
use crate::search::{Limits, Searcher};
use crate::variant::Variant;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
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
    /// After each of the book's moves but its last, the other side's
    /// replies followed: its `replies` best by a MultiPV search of
    /// `reply_depth` (0: every reply). The replies to an opening's first
    /// move are always all followed.
    pub replies: usize,
    /// Depth of the search that picks those replies.
    pub reply_depth: u32,
}

/// Searches between two hand-overs of the book (see [`build`]).
const CHUNK: usize = 64;

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

/// [`book_nodes`] after each of `replies` played in `game` (moves of its
/// side to move, the side that is not the book's).
fn after_each(
    game: &Game,
    replies: &[Move],
    book_side_moves: usize,
    out: &mut HashMap<u64, (Game, usize)>,
) {
    for m in replies {
        let mut next = game.clone();
        if next.play(m).is_ok() {
            book_nodes(&next, book_side_moves, out);
        }
    }
}

/// Every legal move of `game`'s side to move.
fn every_move(game: &Game) -> Vec<Move> {
    game.position().legal_moves().iter().copied().collect()
}

/// The moves of `game`'s side to move to follow: its `n` best by a MultiPV
/// search of `depth` on a cleared table, or all of them (`n` 0, or no more
/// than `n`).
fn replies(s: &mut Searcher, game: &Game, n: usize, depth: u32) -> Vec<Move> {
    let all = every_move(game);
    if n == 0 || all.len() <= n {
        return all;
    }
    s.clear();
    let limits = Limits {
        multipv: n,
        ..Limits::depth(depth)
    };
    let mut best: Vec<Option<Move>> = vec![None; n];
    s.search(game, &limits, &mut |info| {
        let k = info.multipv.max(1) as usize - 1;
        if let (Some(slot), Some(m)) = (best.get_mut(k), info.pv.first()) {
            *slot = Some(*m);
        }
    });
    best.into_iter().flatten().collect()
}

/// Make the book of `variant` from `openings` (games of that variant),
/// starting from `book` (empty, or the book of a build that was stopped:
/// its moves are taken as found, not searched again), reporting each
/// level's searches to `progress` (level, positions to search) and, from
/// the searching threads, each search done to `done` (the searches of the
/// level done so far). The book is handed to `save` after every few
/// searches and at the end; an error from `save` stops the build.
pub fn build(
    variant: Variant,
    openings: &[Game],
    opts: &BuildOptions,
    mut book: Book,
    progress: &mut dyn FnMut(usize, usize),
    done: &(dyn Fn(usize) + Sync),
    save: &mut dyn FnMut(&Book) -> Result<(), String>,
) -> Result<Book, String> {
    if opts.moves == 0 || opts.moves > MAX_MOVES {
        return Err(format!("--moves must be from 1 to {MAX_MOVES}"));
    }
    if book.variant() != Some(variant) {
        return Err(format!(
            "a book of {variant} cannot go on from another variant's"
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", opts.threads))?;
    // Each opening with the side to move as the book's side, and with the
    // other side (whose every move is a branch).
    let mut nodes = HashMap::new();
    for g in openings {
        if g.variant() != variant {
            return Err(format!("an opening of {} in a {variant} book", g.variant()));
        }
        book_nodes(g, opts.moves, &mut nodes);
        after_each(g, &every_move(g), opts.moves, &mut nodes);
    }
    // Positions already followed in this build (one reached again deeper
    // has fewer moves left).
    let mut seen = HashSet::new();
    let mut level = 0;
    while !nodes.is_empty() {
        level += 1;
        let mut todo: Vec<(Game, usize)> = nodes
            .into_values()
            .filter(|(g, _)| seen.insert(g.position().key()))
            .collect();
        // A fixed order, for the progress lines and the same work anywhere.
        todo.sort_by_key(|(g, _)| g.position().key());
        let fresh = todo
            .iter()
            .filter(|(g, _)| book.probe(g.position()).is_none());
        progress(level, fresh.count());
        let count = AtomicUsize::new(0);
        nodes = HashMap::new();
        for chunk in todo.chunks(CHUNK) {
            let known = &book;
            // Each position's move (searched, or the book's), the position
            // after it and the replies to follow there.
            type Found = Result<Option<(BookMove, Game, Vec<Move>)>, String>;
            let found: Vec<Found> = pool.install(|| {
                chunk
                    .par_iter()
                    .map_init(
                        || Searcher::new(32, 1),
                        |s, (g, left)| {
                            let entry = match known.probe(g.position()) {
                                Some(e) => e,
                                None => {
                                    s.clear();
                                    let r = s.search(g, &Limits::depth(opts.depth), &mut |_| {});
                                    done(count.fetch_add(1, Ordering::Relaxed) + 1);
                                    let Some(mv) = r.best else { return Ok(None) };
                                    BookMove {
                                        mv,
                                        score: r.score,
                                        depth: r.depth,
                                    }
                                }
                            };
                            let mut next = g.clone();
                            next.play(&entry.mv).map_err(|e| e.to_string())?;
                            let follow = if *left > 1 {
                                replies(s, &next, opts.replies, opts.reply_depth)
                            } else {
                                Vec::new()
                            };
                            Ok(Some((entry, next, follow)))
                        },
                    )
                    .collect()
            });
            for ((g, left), f) in chunk.iter().zip(found) {
                let Some((entry, next, follow)) = f? else {
                    continue;
                };
                book.insert(g.position(), entry);
                // The other side to move: its replies, then the book's side.
                after_each(&next, &follow, left - 1, &mut nodes);
            }
            save(&book)?;
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
            replies: 0,
            reply_depth: 2,
        };
        let mut levels = Vec::new();
        let book = build(
            Variant::Russian,
            &set,
            &opts,
            Book::new(Variant::Russian),
            &mut |l, n| levels.push((l, n)),
            &|_| {},
            &mut |_| Ok(()),
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
        let again = quiet_build(&set, &one, Book::new(Variant::Russian)).unwrap();
        assert_eq!(again.to_text(""), book.to_text(""));
    }

    /// [`build`] of `start`'s variant, silent, each hand-over to `save`.
    fn build_saving(
        set: &[Game],
        opts: &BuildOptions,
        start: Book,
        save: &mut dyn FnMut(&Book) -> Result<(), String>,
    ) -> Result<Book, String> {
        let v = start.variant().unwrap();
        build(v, set, opts, start, &mut |_, _| {}, &|_| {}, save)
    }

    fn quiet_build(set: &[Game], opts: &BuildOptions, start: Book) -> Result<Book, String> {
        build_saving(set, opts, start, &mut |_| Ok(()))
    }

    /// Two moves a side, following two replies after the book's first
    /// move: the second move answers exactly the two replies a MultiPV
    /// search ranks best; a build stopped after its first hand-over and
    /// started again from that book ends with the same book, searching
    /// only what was missing; an error from the hand-over stops it.
    #[test]
    fn the_best_replies_are_followed_and_a_stopped_build_goes_on() {
        let set = openings::parse(Variant::Russian, "c3-d4").unwrap();
        let opts = BuildOptions {
            depth: 3,
            moves: 2,
            threads: 2,
            replies: 2,
            reply_depth: 3,
        };
        let mut saves = Vec::new();
        let whole = build_saving(&set, &opts, Book::new(Variant::Russian), &mut |b| {
            saves.push(b.clone());
            Ok(())
        })
        .unwrap();
        // The side to move's first move, then two replies, each answered.
        let start = set[0].position();
        let first = whole.probe(start).unwrap();
        let after = start.play(&first.mv);
        let mut s = Searcher::new(32, 1);
        let mut g = set[0].clone();
        g.play(&first.mv).unwrap();
        let best = replies(&mut s, &g, 2, 3);
        assert_eq!(best.len(), 2);
        for m in after.legal_moves().iter() {
            let p = after.play(m);
            if p.legal_moves().len() > 1 {
                let followed = best.iter().any(|b| b.same_result(m));
                assert_eq!(whole.probe(&p).is_some(), followed, "{m:?}");
            }
        }
        assert!(best.iter().any(|b| whole.probe(&after.play(b)).is_some()));
        // The hand-overs grow to the whole book.
        assert!(saves.len() >= 2, "{} hand-overs", saves.len());
        assert!(saves.windows(2).all(|w| w[0].len() <= w[1].len()));
        assert_eq!(saves.last().unwrap().to_text(""), whole.to_text(""));
        // Going on from the first hand-over: the same book, fewer searches.
        let part = saves[0].clone();
        assert!(part.len() < whole.len());
        let searched = AtomicUsize::new(0);
        let resumed = build(
            Variant::Russian,
            &set,
            &opts,
            part.clone(),
            &mut |_, _| {},
            &|_| {
                searched.fetch_add(1, Ordering::Relaxed);
            },
            &mut |_| Ok(()),
        )
        .unwrap();
        assert_eq!(resumed.to_text(""), whole.to_text(""));
        assert_eq!(searched.into_inner(), whole.len() - part.len());
        // A hand-over that fails stops the build with its error.
        let e = build_saving(&set, &opts, Book::new(Variant::Russian), &mut |_| {
            Err("disk full".to_string())
        })
        .unwrap_err();
        assert_eq!(e, "disk full");
    }

    #[test]
    fn bad_options_and_openings_are_refused() {
        let set = openings::parse(Variant::Russian, "c3-d4").unwrap();
        let opts = BuildOptions {
            depth: 2,
            moves: 0,
            threads: 1,
            replies: 0,
            reply_depth: 2,
        };
        let e = quiet_build(&set, &opts, Book::new(Variant::Russian)).unwrap_err();
        assert!(e.contains("--moves"), "{e}");
        let opts = BuildOptions { moves: 1, ..opts };
        let e = quiet_build(&set, &opts, Book::new(Variant::Brazilian)).unwrap_err();
        assert!(e.contains("an opening of russian"), "{e}");
        let e = build(
            Variant::Russian,
            &set,
            &opts,
            Book::new(Variant::Brazilian),
            &mut |_, _| {},
            &|_| {},
            &mut |_| Ok(()),
        )
        .unwrap_err();
        assert!(e.contains("another variant"), "{e}");
    }
}

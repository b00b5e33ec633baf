#!/usr/bin/env python3
"""Interoperability test: pydraughts' CheckerBoardEngine loads Shashki's
CheckerBoard library and plays whole games against it.

Usage: pydraughts_cb_games.py <path to libshashki_cb.so>

pydraughts 0.6.7 loads CheckerBoard engines with ctypes.windll (Windows
only). On other systems this script replaces it by ctypes.cdll and makes
os.add_dll_directory a no-op; nothing else of pydraughts is changed.

Russian and Brazilian games, each side its own CheckerBoardEngine (both
load the same file, so they share the library's engine state, as two
clients of one library do), with a fixed time per move and with an
incremental clock passed as lidraughts-bot passes it (the time left and the
increment). pydraughts is the referee: every move the engine plays must be
one of pydraughts' legal moves, read back through pydraughts' own decoding
of the board (and of the CBmove structure for a capture that returns to
its start square). pydraughts sends `set gamehist` before every move; after
each move the library must report that it searched the whole game since
its first move (`get gamehist`), or, once Shashki's rules have ended the
game and pydraughts plays on, since that end. The clock of each side is
kept here, as lidraughts keeps it: the time a move takes through
pydraughts is taken off, the increment added; no clock may fall more than
CLOCK_SLACK below zero, and the moves that leave one below zero are counted.
The library must write nothing to
standard output or standard error (both are redirected to a file that must
stay empty), and a panic inside it must come back as an error reply.

The last line printed is the verdict:
`pydraughts CheckerBoard interop OK: ...` or `... FAILED: ...`.
"""

import ctypes
import os
import random
import sys
import tempfile
import time

# The shim: CheckerBoard engines are Windows DLLs for pydraughts.
if not hasattr(ctypes, "windll"):
    ctypes.windll = ctypes.cdll
if not hasattr(os, "add_dll_directory"):
    os.add_dll_directory = lambda path: None

try:
    import draughts
    from draughts import Board
    from draughts.engine import CheckerBoardEngine, Limit
except ImportError as e:  # pragma: no cover - reported to the caller
    print(f"error: pydraughts is not installed: {e}", file=sys.stderr)
    sys.exit(2)

MAX_PLIES = 120
# A clock may show this much less than zero after a move, as in the Hub
# test (engine-tests/pydraughts_games.py): a loaded machine stalls a
# process now and then, whatever its engine does.
CLOCK_SLACK = 0.5
WHITE, BLACK = 2, 1
CB_RESULTS = {0: "draw", 1: "win", 2: "loss", 3: "unknown"}

# (variant, start position or None, limits, random opening plies, seed)
# limits: ("movetime", seconds) | ("clock", seconds per side, increment)
GAMES = [
    ("russian", None, ("movetime", 0.02), 2, 11),
    ("russian", None, ("clock", 2.0, 0.02), 2, 12),
    ("russian", "W:WKc1,a3,e3,g3,b2:BKf8,b6,d6,h6,g7", ("movetime", 0.01), 0, 13),
    ("brazilian", None, ("movetime", 0.02), 2, 14),
    ("brazilian", None, ("clock", 2.0, 0.02), 2, 15),
    ("brazilian", "B:WKc1,a3,e3,g3,b2:BKf8,b6,d6,h6,g7", ("clock", 2.0, 0.02), 0, 16),
]

# One move each, checked through pydraughts' decoding: a man's capture
# that ends on its start square (the board alone does not show the move,
# pydraughts reads the CBmove) and a capture through the promotion rank.
SINGLE_MOVES = [
    ("russian", "W:Wc1,h2:Bb2,d2,b4,d4,h8", ["c1xe3xc5xa3xc1", "c1xa3xc5xe3xc1"]),
    ("brazilian", "W:Wc1,h2:Bb2,d2,b4,d4,h8", ["c1xe3xc5xa3xc1", "c1xa3xc5xe3xc1"]),
    ("russian", "W:Wd6,h2:Be7,g7,a7", ["d6xf8xh6"]),
    ("brazilian", "W:Wd6,h2:Be7,g7,a7", ["d6xf8xh6"]),
]


class Failure(Exception):
    pass


def legal_key(move):
    return [list(step) for step in move.board_move]


def describe(limits):
    if limits[0] == "clock":
        return f"clock {limits[1]}s+{limits[2]}s"
    return f"{limits[1]}s per move"


def command(engine, text):
    reply, ok = engine.engine.enginecommand(text)
    return reply.decode(), ok


def new_engine(path, variant, hashsize):
    engine = CheckerBoardEngine(path)
    # As lidraughts-bot configures a CheckerBoard engine: its options, then
    # the variant and the initial time.
    for name, value in (("hashsize", hashsize), ("variant", variant), ("initial-time", 60)):
        reply, ok = command(engine, f"set {name} {value}")
        if not ok:
            raise Failure(f"set {name} {value} refused: {reply}")
    return engine


def play_game(path, number, variant, fen, limits, opening_plies, seed, stats):
    rng = random.Random(seed)
    board = Board(variant, fen) if fen else Board(variant)
    engines = {WHITE: new_engine(path, variant, 16), BLACK: new_engine(path, variant, 16)}
    clocks = {WHITE: 0.0, BLACK: 0.0}
    if limits[0] == "clock":
        clocks = {WHITE: limits[1], BLACK: limits[1]}
    plies = 0
    first_engine_ply = None
    results = {}
    trace = []
    while not board.is_over() and plies < MAX_PLIES:
        legal = board.legal_moves()
        if plies < opening_plies:
            board.push(rng.choice(legal))
            plies += 1
            continue
        if first_engine_ply is None:
            first_engine_ply = base = plies
            drawn_by_rules = False
        side = board.turn
        engine = engines[side]
        if limits[0] == "movetime":
            limit = Limit(movetime=limits[1])
        else:
            limit = Limit(time=round(clocks[side], 3), inc=limits[2])
        started = time.monotonic()
        try:
            result = engine.play(board, limit)
        except Exception as e:
            raise Failure(
                f"ply {plies + 1} in {board.fen}: the engine's move was not understood "
                f"({type(e).__name__}: {e}); status line: {engine.info!r}"
            ) from e
        spent = time.monotonic() - started
        move = result.move
        if move is None or legal_key(move) not in [legal_key(m) for m in legal]:
            raise Failure(
                f"ply {plies + 1} in {board.fen}: {move and move.pdn_move} is not legal; "
                f"legal: {' '.join(m.pdn_move for m in legal)}"
            )
        if result.info["result"] not in CB_RESULTS:
            raise Failure(f"ply {plies + 1}: getmove returned {result.info['result']}")
        said = CB_RESULTS[result.info["result"]]
        results[said] = results.get(said, 0) + 1
        if limits[0] == "clock":
            clocks[side] += limits[2] - spent
            stats["clock used"] += spent
            stats["clock least"] = min(stats["clock least"], clocks[side])
            if clocks[side] < -CLOCK_SLACK:
                raise Failure(f"ply {plies + 1}: the engine's clock fell to {clocks[side]:.3f}s")
            if clocks[side] < 0:
                stats["moves past the clock"] += 1
        else:
            stats["movetime moves"] += 1
            stats["movetime used"] += spent
            stats["movetime limit"] += limits[1]
            stats["movetime longest over limit"] = max(stats["movetime longest over limit"], spent - limits[1])
        if move.captures:
            stats["captures"] += 1
            if len(move.captures) > 1:
                stats["multi-captures"] += 1
        board.push(move)
        plies += 1
        # The library searched the whole game since its first move: the
        # history pydraughts sends and the library's own game, joined. A
        # game Shashki's rules have ended (getmove said draw) while
        # pydraughts plays on starts anew once a move is played after its
        # end.
        reply, ok = command(engine, "get gamehist")
        known = int(reply.split()[0])
        if ok and known == 0 and drawn_by_rules:
            base = plies - 1
            stats["histories restarted after a draw by the rules"] += 1
        trace.append(f"ply {plies} {move.pdn_move} getmove said {said} ({result.info['info'][:90]}), searched {reply[:9]}")
        if not ok or known != plies - 1 - base:
            raise Failure(
                f"ply {plies}: the library searched a game of {reply!r}, "
                f"expected {plies - 1 - base} plies; the last plies: " + "; ".join(trace[-6:])
            )
        drawn_by_rules = drawn_by_rules or said == "draw"
    if board.is_over():
        winner = board.winner()
        outcome = {WHITE: "2-0", BLACK: "0-2", 0: "1-1"}.get(winner, f"winner {winner}")
    else:
        outcome = f"cap ({MAX_PLIES} plies)"
    stats["plies"] += plies
    stats["engine plies"] += plies - (first_engine_ply or 0)
    clock_text = ""
    if limits[0] == "clock":
        clock_text = f", clocks left {clocks[WHITE]:.2f}s/{clocks[BLACK]:.2f}s"
    returned = ", ".join(f"{k} {v}" for k, v in sorted(results.items()))
    return f"{plies} plies, {outcome}{clock_text}; getmove returned {returned}"


def single_moves(path):
    lines = []
    for variant, fen, expected in SINGLE_MOVES:
        engine = new_engine(path, variant, 16)
        board = Board(variant, fen)
        legal = board.legal_moves()
        result = engine.play(board, Limit(movetime=0.05))
        if legal_key(result.move) not in [legal_key(m) for m in legal]:
            raise Failure(f"{variant} {fen}: {result.move.pdn_move} is not legal")
        # pydraughts numbers the steps from a1; compare square names.
        route = "x".join(square_name(s) for s in result.move.steps_move)
        if route not in expected:
            raise Failure(f"{variant} {fen}: played {route}, expected {' or '.join(expected)}")
        lines.append(f"{variant} {fen}: {result.move.pdn_move} ({route})")
    return lines


def square_name(number):
    # pydraughts' move numbers on 8x8 (0.6.7): 1 = a1, 2 = c1, ..., 32 = h8.
    n = int(number) - 1
    rank = n // 4
    file = 2 * (n % 4) + rank % 2
    return "abcdefgh"[file] + str(rank + 1)


def checks(path):
    engine = CheckerBoardEngine(path)
    name = engine.id.get("name", "")
    if not name.startswith("Shashki"):
        raise Failure(f"name: {name!r}")
    for text, want_ok, want in [
        ("get protocolversion", 1, "2"),
        ("set gametype 26", 1, "gametype 26 (brazilian)"),
        ("get gametype", 1, "26"),
        ("set gametype 21", 0, "gametype '21' is not played"),
        ("set gametype 25", 1, "gametype 25 (russian)"),
        ("frobnicate", 0, "? unknown command 'frobnicate'"),
        ("get dbpath", 0, "?"),
        ("set hashsize 100000", 0, "hashsize '100000' is not a whole number from 1 to 65536"),
        ("get hashsize", 1, "64"),
    ]:
        reply, ok = command(engine, text)
        if ok != want_ok or not reply.startswith(want):
            raise Failure(f"{text!r}: {ok} {reply!r}, expected {want_ok} {want!r}...")
    # A panic inside the library is an error reply; the next call works.
    # (Builds with debug assertions, as cargo test's, have the command.)
    reply, ok = command(engine, "debug-panic")
    if reply.startswith("? unknown command"):
        print("panic check skipped: the library was built without debug assertions")
    elif ok or not reply.startswith("error: internal error"):
        raise Failure(f"debug-panic: {ok} {reply!r}")
    reply, ok = command(engine, "get protocolversion")
    if not ok or reply != "2":
        raise Failure(f"after a panic: {ok} {reply!r}")


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    path = os.path.abspath(argv[1])
    if not os.path.isfile(path):
        print(f"error: {path} is not a file", file=sys.stderr)
        return 2
    # Whatever the library writes to file descriptors 1 and 2 lands in a
    # file that must stay empty; this script prints through a copy of 1.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    err = os.fdopen(os.dup(2), "w", buffering=1)
    captured = tempfile.TemporaryFile()
    os.dup2(captured.fileno(), 1)
    os.dup2(captured.fileno(), 2)
    sys.stdout, sys.stderr = out, err

    print(f"pydraughts {getattr(draughts, '__version__', '?')}; library {path}")
    started = time.monotonic()
    stats = {
        "plies": 0, "engine plies": 0, "captures": 0, "multi-captures": 0,
        "movetime moves": 0, "movetime used": 0.0, "movetime limit": 0.0,
        "movetime longest over limit": -1.0, "clock used": 0.0, "clock least": float("inf"),
        "histories restarted after a draw by the rules": 0, "moves past the clock": 0,
    }
    failed = 0
    try:
        checks(path)
        for line in single_moves(path):
            print(f"single move: {line}")
    except Failure as e:
        failed += 1
        print(f"FAIL {e}", file=sys.stderr)
    for number, (variant, fen, limits, opening, seed) in enumerate(GAMES, 1):
        game_start = time.monotonic()
        try:
            text = play_game(path, number, variant, fen, limits, opening, seed, stats)
        except Failure as e:
            failed += 1
            print(f"FAIL game {number} ({variant}, {describe(limits)}): {e}", file=sys.stderr)
            print(f"game {number}: {variant}, {describe(limits)}: FAILED")
            continue
        print(
            f"game {number}: {variant}, {describe(limits)}, from {fen or 'the start'}: "
            f"{text}, {time.monotonic() - game_start:.1f}s"
        )
    captured.seek(0)
    leaked = captured.read()
    captured.close()
    if leaked:
        failed += 1
        print(f"FAIL the library wrote to stdout/stderr: {leaked[:300]!r}", file=sys.stderr)
    moves = max(stats["movetime moves"], 1)
    print(
        f"{len(GAMES)} games, {stats['plies']} plies ({stats['engine plies']} by the engine, "
        f"{stats['captures']} engine captures, {stats['multi-captures']} of several pieces); "
        f"fixed time: {stats['movetime moves']} moves, {stats['movetime used']:.2f}s used of "
        f"{stats['movetime limit']:.2f}s, average {1000 * stats['movetime used'] / moves:.1f} ms, "
        f"longest {1000 * stats['movetime longest over limit']:+.1f} ms over the limit; "
        f"clocks: {stats['clock used']:.2f}s used, least clock left {stats['clock least']:.3f}s, "
        f"{stats['moves past the clock']} moves left a clock below zero; "
        f"histories restarted after a draw by Shashki's rules: "
        f"{stats['histories restarted after a draw by the rules']}; "
        f"{time.monotonic() - started:.1f}s"
    )
    if failed:
        print(f"pydraughts CheckerBoard interop FAILED: {failed} check(s) failed")
    else:
        print(f"pydraughts CheckerBoard interop OK: all {len(GAMES)} games and checks passed")
    out.close()
    err.close()
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

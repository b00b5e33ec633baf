#!/usr/bin/env python3
"""Interoperability test: pydraughts' HubEngine drives shashki in Hub mode.

Usage: pydraughts_games.py <path to the shashki binary>

Plays complete Russian and Brazilian games, shashki against itself (one
engine process per side), through pydraughts' own Hub client. pydraughts'
rules are the referee: every move the engine answers must be one of
pydraughts' legal moves, and so must every expected reply (ponder move) it
names. A game ends when pydraughts says it is over, or at a cap of plies,
which counts as a finished game. Any protocol surprise (a line pydraughts
does not expect, an `error` reply, an exception, a hang) fails the test.

Exit status 0 when every game passed, 1 otherwise (with a message on
stderr). The last line printed is the verdict,
`pydraughts interop OK: all 8 games passed` or
`pydraughts interop FAILED: <n> of 8 games failed`.

Needs pydraughts 0.6.7 (pip install pydraughts==0.6.7).
"""

import logging
import os
import random
import signal
import sys
import time

try:
    import draughts
    from draughts import Board
    from draughts.engine import HubEngine, Limit
except ImportError as e:  # pragma: no cover - reported to the caller
    print(f"error: pydraughts is not installed: {e}", file=sys.stderr)
    sys.exit(2)

MAX_PLIES = 150
# The whole run must end well within this many seconds.
WATCHDOG_SECONDS = 900
WHITE, BLACK = 2, 1

# (variant, start position or None, limits, random opening plies, seed)
# Limits: ("move-time", seconds) | ("depth", plies) | ("nodes", n) |
#         ("clock", seconds per side, increment)
GAMES = [
    ("russian", None, ("move-time", 0.05), 0, 1),
    ("russian", None, ("depth", 4), 2, 2),
    ("russian", None, ("clock", 3.0, 0.02), 2, 3),
    ("russian", "W:WKc1,a3,e3,g3,b2:BKf8,b6,d6,h6,g7", ("nodes", 3000), 0, 4),
    ("brazilian", None, ("move-time", 0.05), 0, 5),
    ("brazilian", None, ("depth", 4), 2, 6),
    ("brazilian", None, ("clock", 3.0, 0.02), 2, 7),
    ("brazilian", "B:WKc1,a3,e3,g3,b2:BKf8,b6,d6,h6,g7", ("nodes", 3000), 0, 8),
]


class Failure(Exception):
    pass


class WarningCatcher(logging.Handler):
    """Collects pydraughts' warnings ("Unexpected engine response ...")."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def describe(limits):
    kind = limits[0]
    if kind == "clock":
        return f"clock {limits[1]}s+{limits[2]}s"
    return f"{kind} {limits[1]}"


def start_engine(binary, variant):
    engine = HubEngine([binary])
    if variant not in engine.variants:
        raise Failure(f"the engine does not offer variant {variant} (it offers {sorted(engine.variants)})")
    for name in ("variant", "threads", "tt-size"):
        if name not in engine.options:
            raise Failure(f"the engine does not declare the parameter {name}")
    engine.configure({"variant": variant, "threads": 1, "tt-size": 18})
    engine.init()
    engine.ping()
    return engine


def close_engine(engine):
    try:
        engine.quit()
        engine.p.wait(timeout=5)
    except Exception:
        try:
            engine.kill_process()
        except Exception:
            pass
    for pipe in (engine.p.stdin, engine.p.stdout):
        try:
            pipe.close()
        except Exception:
            pass


def legal_key(move):
    return [list(step) for step in move.board_move]


def play_game(binary, number, variant, fen, limits, opening_plies, seed, catcher, stats):
    rng = random.Random(seed)
    board = Board(variant, fen) if fen else Board(variant)
    engines = {}
    clocks = {WHITE: 0.0, BLACK: 0.0}
    if limits[0] == "clock":
        clocks = {WHITE: limits[1], BLACK: limits[1]}
    plies = 0
    try:
        engines = {WHITE: start_engine(binary, variant), BLACK: start_engine(binary, variant)}
        while not board.is_over() and plies < MAX_PLIES:
            legal = board.legal_moves()
            if not legal:
                raise Failure(f"pydraughts has no legal move but the game is not over at {board.fen}")
            if plies < opening_plies:
                board.push(rng.choice(legal))
                plies += 1
                continue
            side = board.turn
            engine = engines[side]
            if limits[0] == "move-time":
                limit = Limit(movetime=limits[1])
            elif limits[0] == "depth":
                limit = Limit(depth=limits[1])
            elif limits[0] == "nodes":
                limit = Limit(nodes=limits[1])
            else:
                limit = Limit(time=round(clocks[side] + limits[2], 3), inc=limits[2])
            started = time.monotonic()
            try:
                result = engine.play(board, limit, ponder=False)
            except Exception as e:
                raise Failure(
                    f"ply {plies + 1} in {board.fen}: the engine's answer was not understood or not legal "
                    f"({type(e).__name__}: {e})"
                ) from e
            spent = time.monotonic() - started
            if limits[0] == "clock":
                clocks[side] += limits[2] - spent
                if clocks[side] < -0.5:
                    raise Failure(f"ply {plies + 1}: the engine overstepped its clock by {-clocks[side]:.2f}s")
            move = result.move
            if move is None:
                raise Failure(f"ply {plies + 1} in {board.fen}: no move")
            legal_keys = [legal_key(m) for m in legal]
            if legal_key(move) not in legal_keys:
                raise Failure(
                    f"ply {plies + 1} in {board.fen}: {move.hub_move} is not legal; "
                    f"legal: {' '.join(m.hub_move for m in legal)}"
                )
            if result.ponder is not None:
                after = board.copy()
                after.push(move)
                if legal_key(result.ponder) not in [legal_key(m) for m in after.legal_moves()]:
                    raise Failure(f"ply {plies + 1}: the ponder move {result.ponder.hub_move} is not legal")
            if move.captures:
                stats["captures"] += 1
                if len(move.captures) > 1:
                    stats["multi-captures"] += 1
            board.push(move)
            plies += 1
            if plies % 25 == 0:
                engine.ping()
            if catcher.messages:
                raise Failure(f"ply {plies}: unexpected engine output: {catcher.messages}")
        if board.is_over():
            winner = board.winner()
            outcome = {WHITE: "2-0", BLACK: "0-2", 0: "1-1"}.get(winner, f"winner {winner}")
        else:
            outcome = f"cap ({MAX_PLIES} plies)"
        return plies, outcome
    except Failure as e:
        raise Failure(f"game {number} ({variant}, {describe(limits)}): {e}") from None
    finally:
        for engine in engines.values():
            close_engine(engine)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary = argv[1]
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        print(f"error: {binary} is not an executable file", file=sys.stderr)
        return 2

    def watchdog(_signum, _frame):
        raise Failure(f"the games took more than {WATCHDOG_SECONDS}s (an engine hangs?)")

    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(WATCHDOG_SECONDS)
    catcher = WarningCatcher()
    logging.getLogger("pydraughts").addHandler(catcher)
    version = getattr(draughts, "__version__", "?")
    print(f"pydraughts {version}; engine {binary}")
    started = time.monotonic()
    passed = failed = total_plies = 0
    stats = {"captures": 0, "multi-captures": 0}
    for number, (variant, fen, limits, opening, seed) in enumerate(GAMES, 1):
        game_start = time.monotonic()
        try:
            plies, outcome = play_game(binary, number, variant, fen, limits, opening, seed, catcher, stats)
        except Failure as e:
            failed += 1
            print(f"FAIL {e}", file=sys.stderr)
            print(f"game {number}: {variant}, {describe(limits)}: FAILED")
            catcher.messages.clear()
            continue
        passed += 1
        total_plies += plies
        print(
            f"game {number}: {variant}, {describe(limits)}, from {fen or 'the start'}: "
            f"{plies} plies, {outcome}, {time.monotonic() - game_start:.1f}s"
        )
    signal.alarm(0)
    print(
        f"{len(GAMES)} games, {total_plies} plies ({stats['captures']} engine captures, "
        f"{stats['multi-captures']} of several pieces), {time.monotonic() - started:.1f}s"
    )
    if failed:
        print(f"pydraughts interop FAILED: {failed} of {len(GAMES)} games failed")
    else:
        print(f"pydraughts interop OK: all {passed} games passed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

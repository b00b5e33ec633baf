#!/usr/bin/env python3
"""Clock games refereed by pydraughts: does the engine ever lose on time?

Usage: pydraughts_clock.py <shashki binary> [--games N] [--tc BASE+INC]
           [--variant russian|brazilian] [--concurrency C] [--max-plies P]
           [--seed S] [--overhead MS]

Plays the engine against itself through pydraughts 0.6.7's own Hub client
(`HubEngine`), one engine process per side, as lidraughts-bot would drive
it. The referee keeps both Fischer clocks the way a server does: a side's
clock runs from the moment the referee asks for a move (pydraughts builds
and sends the position, the limits and `go think`) until it has the move
back; the increment is added after the move; a move that takes longer than
the clock held loses on time. pydraughts is given the clock as it stands
(`Limit(time=clock, inc=inc)`; it sends `time - inc`, and a Hub engine adds
the increment back).

Games start after 2-4 random plies (seeded) and end when pydraughts says
the game is over or at --max-plies (a draw). C games run at once, each in
a process of its own.

`--overhead MS` sets the engine's `move-overhead` parameter; with 0, every
overhead the engine measures is above the option and is reported, so the
summary shows what the client costs per move.

The last line is the verdict: `time losses: 0 of N games` (exit status 0),
or the count of games lost on time (exit status 1).
"""

import argparse
import multiprocessing
import random
import re
import sys
import time

try:
    import draughts
    from draughts import Board
    from draughts.engine import HubEngine, Limit
except ImportError as e:  # pragma: no cover - reported to the caller
    print(f"error: pydraughts is not installed: {e}", file=sys.stderr)
    sys.exit(2)

WHITE, BLACK = 2, 1


def start_engine(binary, variant, overhead):
    engine = HubEngine([binary])
    options = {"variant": variant, "threads": 1, "tt-size": 20}
    if overhead is not None:
        options["move-overhead"] = overhead
    engine.configure(options)
    engine.init()
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


def measured(note):
    m = re.search(r"about (\d+) ms per move", note or "")
    return int(m.group(1)) if m else None


def play_game(args):
    binary, number, variant, base, inc, max_plies, seed, overhead, covers = args
    rng = random.Random(seed * 100_003 + number)
    board = Board(variant)
    clocks = {WHITE: base, BLACK: base}
    engines = {}
    plies = 0
    out = {"number": number, "plies": 0, "loser_on_time": None, "result": "*",
           "moves": 0, "spent": 0.0, "min_clock": base, "overheads": [], "error": None}
    try:
        engines = {WHITE: start_engine(binary, variant, overhead),
                   BLACK: start_engine(binary, variant, overhead)}
        opening = rng.randint(2, 4)
        while not board.is_over() and plies < max_plies:
            if plies < opening:
                board.push(rng.choice(board.legal_moves()))
                plies += 1
                continue
            side = board.turn
            engine = engines[side]
            engine.info = {}
            if covers == "play":
                started = time.perf_counter()
                result = engine.play(board, Limit(time=round(clocks[side], 3), inc=inc), ponder=False)
                spent = time.perf_counter() - started
                move = result.move
            else:
                moves = " ".join(m.hub_move for m in board.move_stack)
                fen = board._game.initial_hub_fen
                started = time.perf_counter()
                text, _ = engine.go(fen, moves=moves, my_time=round(clocks[side], 3), inc=inc)
                spent = time.perf_counter() - started
                try:
                    move = draughts.Move(board.copy(), hub_move=text)
                except Exception:
                    move = None
            note = measured(engine.info.get("string"))
            if note is not None:
                out["overheads"].append(note)
            out["moves"] += 1
            out["spent"] += spent
            if spent > clocks[side]:
                out["loser_on_time"] = "white" if side == WHITE else "black"
                out["result"] = "0-2" if side == WHITE else "2-0"
                out["flag"] = f"ply {plies + 1}: {spent * 1000:.1f} ms with {clocks[side] * 1000:.1f} ms on the clock"
                break
            clocks[side] += inc - spent
            out["min_clock"] = min(out["min_clock"], clocks[side])
            legal = [[list(step) for step in m.board_move] for m in board.legal_moves()]
            if move is None or [list(step) for step in move.board_move] not in legal:
                out["error"] = f"ply {plies + 1}: no legal move from the engine"
                break
            board.push(move)
            plies += 1
        else:
            if board.is_over():
                w = board.winner()
                out["result"] = {WHITE: "2-0", BLACK: "0-2"}.get(w, "1-1")
            else:
                out["result"] = "1-1"
    except Exception as e:
        out["error"] = f"{type(e).__name__}: {e}"
    finally:
        for engine in engines.values():
            close_engine(engine)
    out["plies"] = plies
    return out


def main():
    p = argparse.ArgumentParser(description="Clock games refereed by pydraughts.")
    p.add_argument("binary")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--tc", default="0.5+0.005", help="base+increment in seconds")
    p.add_argument("--variant", default="russian", choices=["russian", "brazilian"])
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--max-plies", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--overhead", type=int, default=None, help="the engine's move-overhead (ms)")
    p.add_argument("--clock-covers", choices=["go", "play"], default="go",
                   help="go: the clock runs from sending the position to reading `done` (a server's view); "
                        "play: it also covers pydraughts' play(), which copies the board and parses the move")
    a = p.parse_args()
    base, _, inc = a.tc.partition("+")
    base, inc = float(base), float(inc or 0)
    jobs = [(a.binary, n, a.variant, base, inc, a.max_plies, a.seed, a.overhead, a.clock_covers)
            for n in range(1, a.games + 1)]
    started = time.monotonic()
    print(f"{a.games} games, {a.variant}, {base}s + {inc}s, {a.concurrency} at a time, "
          f"seed {a.seed}, move-overhead {a.overhead if a.overhead is not None else 'default'}, "
          f"the clock covers {a.clock_covers}()")
    losses = errors = moves = plies = 0
    spent = 0.0
    min_clock = base
    overheads = []
    results = {"2-0": 0, "1-1": 0, "0-2": 0, "*": 0}
    with multiprocessing.Pool(a.concurrency) as pool:
        for g in pool.imap_unordered(play_game, jobs):
            results[g["result"]] += 1
            moves += g["moves"]
            plies += g["plies"]
            spent += g["spent"]
            min_clock = min(min_clock, g["min_clock"])
            overheads += g["overheads"]
            line = (f"game {g['number']}: {g['plies']} plies, {g['result']}, "
                    f"least clock {g['min_clock'] * 1000:.0f} ms")
            if g["loser_on_time"]:
                losses += 1
                line += f", LOST ON TIME by {g['loser_on_time']} ({g['flag']})"
            if g["error"]:
                errors += 1
                line += f", ERROR {g['error']}"
            if g["overheads"]:
                line += f", measured overhead up to {max(g['overheads'])} ms"
            print(line, flush=True)
    print(f"{a.games} games in {time.monotonic() - started:.0f}s: +{results['2-0']} ={results['1-1']} "
          f"-{results['0-2']} (white's view), {plies} plies, {moves} engine moves, "
          f"{spent / max(moves, 1) * 1000:.1f} ms per move on the referee's clock, "
          f"least clock left {min_clock * 1000:.0f} ms")
    if overheads:
        s = sorted(overheads)
        q = lambda f: s[min(len(s) - 1, int(f * len(s)))]
        print(f"measured overhead reports: {len(s)}, median {q(0.5)} ms, 90% {q(0.9)} ms, "
              f"99% {q(0.99)} ms, max {s[-1]} ms")
    if errors:
        print(f"errors: {errors}")
    print(f"time losses: {losses} of {a.games} games")
    return 0 if losses == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

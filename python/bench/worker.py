"""One library's side of the benchmark (run by bench.py in that library's
own virtual environment; pydraughts and py-draughts both import as
`draughts`).

    worker.py generate GAMES SEED OUT     (shashki) random Russian games'
                                          positions, one FEN a line
    worker.py movegen LIB FENS [EVERY]    time legal_moves + push + pop of
                                          every move over the positions
                                          (every EVERY-th one); LIB is
                                          shashki, py-draughts or pydraughts
    worker.py search BENCH                (shashki) Engine.search over the
                                          positions of the binary's bench

Each timing command prints one JSON object.
"""

import json
import random
import sys
import time

MAX_PLIES = 300


def generate(games, seed, out):
    import shashki

    rng = random.Random(seed)
    fens = []
    for _ in range(games):
        board = shashki.Board("russian")
        while not board.is_game_over() and board.ply < MAX_PLIES:
            fens.append(board.fen)
            board.push(rng.choice(board.legal_moves()))
    with open(out, "w") as f:
        f.write("\n".join(fens) + "\n")
    print(json.dumps({"games": games, "positions": len(fens)}))


def boards_of(lib, fens):
    """Each library's board of each position (not timed), and its cheapest
    way to list the legal moves: the method itself, or py-draughts'
    property getter."""
    if lib == "shashki":
        import shashki

        return [shashki.Board("russian", f) for f in fens], shashki.Board.legal_moves, "shashki " + shashki.__version__
    import draughts

    version = getattr(draughts, "__version__", "?")
    if lib == "py-draughts":
        assert version == "1.10.1", version
        cls = draughts.RussianBoard
        return [cls.from_fen(f) for f in fens], cls.legal_moves.fget, "py-draughts " + version
    assert lib == "pydraughts"
    return [draughts.Board("russian", f) for f in fens], draughts.Board.legal_moves, "pydraughts 0.6.7"


def movegen(lib, path, every=1):
    fens = [line.strip() for line in open(path) if line.strip()][::every]
    boards, legal, name = boards_of(lib, fens)
    moves = sum(len(legal(b)) for b in boards)  # not timed
    start = time.perf_counter()
    for b in boards:
        for m in legal(b):
            b.push(m)
            b.pop()
    secs = time.perf_counter() - start
    print(json.dumps({"library": name, "positions": len(boards), "moves": moves, "seconds": secs}))


def search(path):
    import shashki

    runs = json.load(open(path))
    engines = {}
    out = []
    for variant, fen, depth, hash_mb in runs:
        engine = engines.get(variant)
        if engine is None:
            engine = engines[variant] = shashki.Engine(variant, threads=1, hash_mb=hash_mb, egdb=False)
        engine.clear()
        board = shashki.Board(variant, fen)
        start = time.perf_counter()
        r = engine.search(board, depth=depth)
        wall = time.perf_counter() - start
        # `seconds`: the search itself, as the binary's bench times it;
        # `wall`: the whole call from Python (thread, result objects).
        out.append({"nodes": r.nodes, "seconds": r.time, "wall": wall, "best": str(r.best) if r.best else None})
    print(json.dumps(out))


def main(argv):
    cmd = argv[1]
    if cmd == "generate":
        generate(int(argv[2]), int(argv[3]), argv[4])
    elif cmd == "movegen":
        movegen(argv[2], argv[3], int(argv[4]) if len(argv) > 4 else 1)
    elif cmd == "search":
        search(argv[2])
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)

"""PDN interoperability with pydraughts 0.6.7 (russian and brazilian only).

    python pdn_pydraughts.py write OUT.pdn   pydraughts plays random games and
                                             writes them with its PDNWriter;
                                             prints one line per game:
                                             "<variant> <plies> <final FEN>"
    python pdn_pydraughts.py read IN.pdn     reads IN.pdn with pydraughts'
                                             PDNReader, replays every move on a
                                             pydraughts board and prints the
                                             same line per game

Exits non-zero (with a message on stderr) on any failure.
"""
import random
import sys

from draughts import Board, Move
from draughts.PDN import PDNReader, PDNWriter


def line(variant, plies, board):
    return f"{variant} {plies} {board.fen}"


def write(path):
    rng = random.Random(20240605)
    with open(path, "w", encoding="utf8") as f:
        f.write("")
    # Some games from the start, some from a position with Black to move
    # (pydraughts writes "1... move" for those).
    starts = [
        ("russian", None),
        ("brazilian", None),
        ("russian", None),
        ("brazilian", None),
        ("russian", "B:Wa1,c1,e1,c3,e3,g3,d4:Bb6,d6,f6,a7,e7,g7,h8"),
        ("brazilian", "W:Wa1,c1,e1,g1,c3,e3,g3:Bb6,d6,f6,a7,c7,e7"),
    ]
    for n, (variant, fen) in enumerate(starts):
        board = Board(variant=variant, fen=fen) if fen else Board(variant=variant)
        plies = 0
        for _ in range(20 + 15 * n):
            moves = board.legal_moves()
            if not moves or board.is_over():
                break
            board.push(rng.choice(moves))
            plies += 1
        tags = {"Event": f"pydraughts game {n + 1}", "White": "py-white", "Black": "py-black"}
        PDNWriter(path, board=board, tags=tags, game_ending="*")
        print(line(variant, plies, board))


def read(path):
    with open(path, encoding="utf8") as f:
        text = f.read()
    reader = PDNReader(pdn_text=text)
    for n, game in enumerate(reader.games, 1):
        variant = game.variant
        if variant not in ("russian", "brazilian"):
            sys.exit(f"game {n}: pydraughts read variant {variant!r} (tags {game.tags})")
        fen = game.tags.get("FEN")
        board = Board(variant=variant, fen=fen) if fen else Board(variant=variant)
        moves = list(game.moves)
        # pydraughts 0.6.7 lists the first move twice when Black moves first.
        if fen and fen.startswith("B") and len(moves) >= 2 and moves[0] == moves[1]:
            moves = moves[1:]
        for i, text in enumerate(moves, 1):
            try:
                move = Move(board, pdn_move=text)
            except Exception as e:  # noqa: BLE001 - report any failure
                sys.exit(f"game {n}: ply {i} {text!r} refused by pydraughts: {e!r}")
            board.push(move)
        print(line(variant, len(moves), board))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("write", "read"):
        sys.exit(__doc__)
    (write if sys.argv[1] == "write" else read)(sys.argv[2])

"""Each side's worst moves in a game, found by the engine: a table, and
the critical position drawn as an SVG picture.

    python worst_moves.py [GAME.pdn] [DEPTH]

Default: the lidraughts sample game of the repository's test data.
"""

import pathlib
import sys

import shashki
from shashki import pdn

HERE = pathlib.Path(__file__).resolve().parent
path = sys.argv[1] if len(sys.argv) > 1 else HERE.parents[1] / "engine-tests/data/lidraughts-russian.pdn"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 12

game = pdn.read_file(path)[0]
engine = shashki.Engine(game.variant)
reports = engine.analyse(game, depth=depth)

black_first = game.start_fen.startswith("B")


def number(ply):
    """The move number as PDN writes it: 12. for White, 12... for Black."""
    index = ply + black_first
    return f"{index // 2 + 1}{'.' if index % 2 == 0 else '...'}"


def loss_text(loss):
    """A loss in men; a move that turns the game into a forced loss (the
    engine counts a win as 100 men) is "decisive"."""
    return "decisive" if loss >= 9000 else f"{loss / 100:.2f}"


h = game.headers
print(f"{h.get('White', '?')} - {h.get('Black', '?')}, {h.get('Event', '')} {game.result}: "
      f"{len(game)} plies, depth {depth}")
print(f"{'side':<6} {'move':<6} {'played':<8} {'best':<8} {'score':>6} {'loss':>9}  glyph")
for side in ("white", "black"):
    moves = [r for r in reports if r.turn == side and r.loss]
    for r in sorted(moves, key=lambda r: -r.loss)[:3]:
        print(f"{side:<6} {number(r.ply):<6} {r.played:<8} {r.best:<8} {str(r.lines[0].score):>6} "
              f"{loss_text(r.loss):>9}  {r.glyph or ''}")

critical = max((r for r in reports if r.loss is not None), key=lambda r: r.loss)
board = game.board(critical.ply)
out = pathlib.Path("critical.svg")
out.write_text(shashki.svg(board, flip=board.turn == "black"))
line = " ".join(str(m) for m in critical.lines[0].pv[:6])
print(f"\ncritical: {number(critical.ply)} {critical.played} (loss {loss_text(critical.loss)}); "
      f"best {critical.best} ({line} ...)")
print(f"position {board.fen} drawn in {out}")

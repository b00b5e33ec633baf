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


h = game.headers
print(f"{h.get('White', '?')} - {h.get('Black', '?')}, {h.get('Event', '')} {game.result}: "
      f"{len(game)} plies, depth {depth}")
print(f"{'side':<6} {'move':<6} {'played':<8} {'best':<8} {'loss':>6} {'value':>7}  glyph")
for side in ("white", "black"):
    moves = [r for r in reports if r.turn == side and r.loss]
    for r in sorted(moves, key=lambda r: -r.loss)[:3]:
        print(f"{side:<6} {number(r.ply):<6} {r.played:<8} {r.best:<8} {r.loss / 100:>6.2f} "
              f"{r.value / 100:>+7.2f}  {r.glyph or ''}")

critical = max((r for r in reports if r.loss is not None), key=lambda r: r.loss)
board = game.board(critical.ply)
out = pathlib.Path("critical.svg")
out.write_text(shashki.svg(board, flip=board.turn == "black"))
line = " ".join(str(m) for m in critical.lines[0].pv[:6])
print(f"\ncritical: {number(critical.ply)} {critical.played} lost {critical.loss / 100:.2f}; "
      f"best {critical.best} ({line} ...)")
print(f"position {board.fen} drawn in {out}")

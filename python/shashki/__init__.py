"""Russian, Brazilian and Adiyukh draughts: the rules, a strong engine, PDN
game files and endgame tables, in-process.

>>> import shashki
>>> board = shashki.Board("russian")
>>> [str(m) for m in board.legal_moves()][:3]
['a3-b4', 'c3-b4', 'c3-d4']
>>> board.push("c3-d4")
Move('c3-d4')
>>> board.turn
'black'

The names:

* ``Board``: a game under the rule book (moves, history, the draw rules,
  Adiyukh's count and towers, perft); ``Move``, ``Piece``, ``Outcome``.
* ``Engine``: the search (``search``, ``stop``, ``evaluate``, ``analyse``);
  ``SearchResult``, ``Info``, ``Line``, ``Score``, ``PositionReport``.
* ``shashki.pdn``: PDN files read and written; ``shashki.egdb``: endgame
  tables probed and built; ``svg(board)``: a picture of a position.
* The exceptions: ``ShashkiError`` and its subclasses.
"""

from ._errors import (
    ArgumentError,
    EgdbError,
    EngineError,
    FenError,
    GameOverError,
    MoveError,
    PdnError,
    ShashkiError,
)
from ._shashki import (
    VARIANTS,
    Board,
    Engine,
    Info,
    Line,
    Move,
    Outcome,
    Piece,
    PositionReport,
    Score,
    SearchResult,
    __version__,
    svg,
)
from . import egdb, pdn

__all__ = [
    "VARIANTS",
    "ArgumentError",
    "Board",
    "EgdbError",
    "Engine",
    "EngineError",
    "FenError",
    "GameOverError",
    "Info",
    "Line",
    "Move",
    "MoveError",
    "Outcome",
    "PdnError",
    "Piece",
    "PositionReport",
    "Score",
    "SearchResult",
    "ShashkiError",
    "__version__",
    "egdb",
    "pdn",
    "svg",
]

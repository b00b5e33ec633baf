"""Endgame tables (Russian and Brazilian): probed by board, built.

The folder is found as the command line finds it: ``folder=None`` means
``$SHASHKI_EGDB``, else ``$XDG_DATA_HOME/shashki/egdb`` (or
``~/.local/share/shashki/egdb``), when it holds tables; a folder holds one
folder per variant (``russian/``, ``brazilian/``) or one variant's tables.

>>> import shashki, tempfile
>>> folder = tempfile.mkdtemp()
>>> shashki.egdb.build(folder, "russian", pieces=3) > 0
True
>>> shashki.egdb.probe(shashki.Board("russian", "W:WKa1,Kc1:Bh8"), folder).wdl
'win'
"""

import os
from typing import Optional, Union

from ._shashki import Probe, _egdb_build, _egdb_pieces, _egdb_probe

__all__ = ["Probe", "build", "pieces", "probe"]

Folder = Union[None, bool, str, "os.PathLike[str]"]


def probe(board, folder: Folder = None) -> Optional[Probe]:
    """What the tables say of ``board``'s position: a ``Probe`` with
    ``wdl`` (``"win"``, ``"draw"`` or ``"loss"`` for the side to move, with
    every counting rule's count at zero), ``plies`` (to the conversion of a
    win or a loss) and ``text`` (the verdict with the board's own draw-rule
    counters). ``None`` when no table holds the position (too many pieces,
    Adiyukh, no tables). A named folder without tables raises
    ``EgdbError``; ``folder=False`` means no tables."""
    return _egdb_probe(board, folder)


def pieces(variant: str = "russian", folder: Folder = None) -> int:
    """The most pieces the tables of ``variant`` cover (0: none)."""
    return _egdb_pieces(variant, folder)


def build(
    folder: Union[str, "os.PathLike[str]"],
    variant: str = "russian",
    pieces: int = 4,
    threads: int = 1,
) -> int:
    """Build every table of ``variant`` with at most ``pieces`` pieces into
    ``folder/<variant>`` (as ``shashki egdb build`` does; tables already
    there are checked and kept) and return the positions built. Up to 4
    pieces takes seconds; 5 pieces minutes."""
    return _egdb_build(folder, variant, pieces, threads)

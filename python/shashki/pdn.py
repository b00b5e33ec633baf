"""PDN game files: read (UTF-8, else Windows-1251, as ``shashki analyse``
reads them) and written (UTF-8).

>>> from shashki import pdn
>>> games = pdn.read_string('[White "Ann"]\\n1. c3-d4 f6-g5 *')
>>> games[0].headers["White"], [str(m) for m in games[0].moves]
('Ann', ['c3-d4', 'f6-g5'])
>>> print(pdn.write(games), end="")  # doctest: +NORMALIZE_WHITESPACE
[White "Ann"]
[GameType "25"]
[Result "*"]
<BLANKLINE>
1. c3-d4 f6-g5 *

The variant of a game comes from its ``Variant`` tag, else its
``GameType`` (25 Russian, 26 Brazilian, 50 and 51 Adiyukh), else the
``variant`` argument. Moves may be algebraic or numeric; comments,
glyphs, NAGs are kept; variations are skipped.

A malformed game (a bad tag, an illegal move, an unclosed comment) raises
``PdnError`` naming the game, the line and the move, unless ``errors`` says
otherwise: ``"skip"`` leaves it out, ``"keep"`` puts the ``PdnError`` in its
place in the list. Text with nothing of PDN in it raises ``PdnError``
whatever ``errors`` says.
"""

import os
from typing import List, Optional, Union

from ._shashki import Game, _pdn_read_file, _pdn_read_string, _pdn_write

__all__ = ["Game", "read_file", "read_string", "write", "write_file"]


def read_file(
    path: Union[str, "os.PathLike[str]"],
    variant: str = "russian",
    encoding: Optional[str] = None,
    errors: str = "raise",
) -> List[Game]:
    """The games of the PDN file at ``path``.

    ``encoding``: ``None`` reads UTF-8 when the file is valid UTF-8, else
    Windows-1251; or ``"utf-8"``, ``"windows-1251"`` (``"cp1251"``),
    ``"iso-8859-1"`` (``"latin1"``). ``variant`` applies to games whose
    tags name none. ``errors``: ``"raise"``, ``"skip"`` or ``"keep"``.
    """
    return _pdn_read_file(path, variant, encoding, errors)


def read_string(
    text: Union[str, bytes, bytearray],
    variant: str = "russian",
    encoding: Optional[str] = None,
    errors: str = "raise",
) -> List[Game]:
    """The games of PDN ``text``: a ``str``, or the bytes of a file, decoded
    as ``read_file`` decodes them."""
    return _pdn_read_string(text, variant, encoding, errors)


def write(games: Union[Game, List[Game]]) -> str:
    """The PDN text of ``games`` (one game or a list), each ending with a
    blank line."""
    if isinstance(games, Game):
        games = [games]
    return _pdn_write(list(games))


def write_file(path: Union[str, "os.PathLike[str]"], games: Union[Game, List[Game]]) -> None:
    """Write ``games`` to the file at ``path`` in UTF-8."""
    text = write(games)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)

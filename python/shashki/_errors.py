"""The exceptions of the shashki package.

Every error the package raises for bad input, or for an operation it cannot
carry out, is a ``ShashkiError``; those about a bad value (position text,
move text, PDN, an argument) are ``ValueError`` too. Each carries the
library's one-line message, as the command line prints it.
"""


class ShashkiError(Exception):
    """The base of every shashki error."""


class FenError(ShashkiError, ValueError):
    """Position text that is not a position of the variant."""


class MoveError(ShashkiError, ValueError):
    """Move text that names no legal move (or several), or a move of
    another position."""


class GameOverError(MoveError):
    """A move refused because the game is over."""


class PdnError(ShashkiError, ValueError):
    """A malformed PDN game, or data that is not PDN.

    ``game`` (from 1) and ``line`` (from 1) locate a malformed game; both
    are ``None`` when the whole input is refused.
    """

    game = None
    """The malformed game's number in the file, from 1 (None: the input)."""
    line = None
    """The line of the fault, from 1 (None: the input)."""


class ArgumentError(ShashkiError, ValueError):
    """An argument outside its range or of the wrong kind (a variant name,
    a depth, a hash size, a weights file...)."""


class EgdbError(ShashkiError):
    """Endgame tables: a folder without tables of the variant, a damaged
    table file."""


class EngineError(ShashkiError):
    """The engine could not do what was asked: the system refused the
    table's memory or a thread, or a search callback started a search."""


# Shown (and pickled) as shashki.FenError etc., the names users import.
for _cls in (ShashkiError, FenError, MoveError, GameOverError, PdnError, ArgumentError, EgdbError, EngineError):
    _cls.__module__ = "shashki"
del _cls

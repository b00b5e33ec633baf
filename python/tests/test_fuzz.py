"""10,000 random bad strings each for position text, move text and PDN:
every one raises a ShashkiError with a one-line message, or is read as a
valid input; none raises anything else or crashes the interpreter."""

import random

import pytest

import shashki
from shashki import pdn

from conftest import repo_file

COUNT = 10_000
# Separators and squares, control and invisible characters, Cyrillic,
# emoji, a combining mark and a lone surrogate (which UTF-8 cannot carry).
ALPHABET = list("WBKwbk:,-/.0123456789abcdefghijxz ;\t\n\"[](){}%$!?*x") + [
    "\x00", "\x1b", "\u202e", "а", "ё", "€", "\ufeff", "\U0001f600", "\u0301", "\ud800",
]
FENS = [
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:WKa1,c3,e5:BKh8,b6",
    "W:W21,22,K23:B1,2,3",
    "W:Wa7-1/2,b2-2,c1,c3-1/1,d2,e1:Bb8,c7,e5-2,e7",
    "startpos",
]
MOVES = ["c3-d4", "c3:e5:g3", "22-18", "22x15x8", "cb4", "c:b4", "a3xb4", "h8:a1"]


def mutate(rng, text):
    """`text` with a few random edits, or random characters."""
    if rng.random() < 0.15:
        return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(0, 40)))
    chars = list(text)
    for _ in range(rng.randrange(1, 6)):
        op = rng.randrange(4)
        i = rng.randrange(len(chars) + 1)
        if op == 0 or not chars:
            chars.insert(i, rng.choice(ALPHABET))
        elif op == 1:
            del chars[min(i, len(chars) - 1)]
        elif op == 2:
            chars[min(i, len(chars) - 1)] = rng.choice(ALPHABET)
        else:
            j = rng.randrange(len(chars))
            chars[j:j] = chars[j : j + rng.randrange(1, 8)]
    if rng.random() < 0.02:
        chars *= rng.randrange(50, 500)
    return "".join(chars)


def check(error, counts):
    assert isinstance(error, shashki.ShashkiError)
    text = str(error)
    assert text and "\n" not in text and "\r" not in text, repr(text)
    counts["raised"] += 1


def test_bad_position_text():
    rng = random.Random(1)
    counts = {"raised": 0, "valid": 0}
    for _ in range(COUNT):
        variant = rng.choice(shashki.VARIANTS)
        text = mutate(rng, rng.choice(FENS))
        try:
            board = shashki.Board(variant, text)
        except shashki.FenError as e:
            check(e, counts)
            continue
        # Read as a valid position: its own text reads back the same.
        assert shashki.Board(variant, board.fen) == board
        board.legal_moves()
        counts["valid"] += 1
    assert counts["raised"] > COUNT * 0.8, counts


def test_bad_move_text():
    rng = random.Random(2)
    counts = {"raised": 0, "valid": 0}
    boards = [shashki.Board(v) for v in shashki.VARIANTS] + [
        shashki.Board("russian", "W:Wc3,e3:Bd4,f4,d6,Kh8"),
        shashki.Board("adiyukh-64", "W:Wh8:Be5-4,c5-2,d2-3/5,f2-3/6"),
        shashki.Board("russian", "B:Wa1:B"),
    ]
    for _ in range(COUNT):
        board = rng.choice(boards)
        text = mutate(rng, rng.choice(MOVES + [str(m) for m in board.legal_moves()]))
        try:
            move = board.parse_move(text)
        except shashki.MoveError as e:
            check(e, counts)
            with pytest.raises(shashki.MoveError):
                board.copy().push(text)
            continue
        assert move in board.legal_moves()
        counts["valid"] += 1
    assert counts["raised"] > COUNT * 0.7, counts


def test_bad_pdn():
    rng = random.Random(3)
    sources = [repo_file("engine-tests/data/" + n).read_text(encoding="utf-8", errors="replace") for n in (
        "lidraughts-russian.pdn", "lidraughts-brazilian-algebraic.pdn", "lidraughts-russian-from-position.pdn")]
    sources.append('[GameType "50"]\n1. c3-b4 b6-c5 2. b4-a5 a7-b6 *')
    counts = {"raised": 0, "valid": 0}
    for i in range(COUNT):
        text = mutate(rng, rng.choice(sources))
        data = text
        if i % 5 == 0:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(60))) if i % 10 == 0 else text.encode(
                rng.choice(["utf-8", "cp1251"]), errors="replace")
        try:
            games = pdn.read_string(data, variant=rng.choice(shashki.VARIANTS))
        except shashki.PdnError as e:
            check(e, counts)
            continue
        # Read as valid PDN: written and read again, the same games.
        again = pdn.read_string(pdn.write(games))
        assert [[str(m) for m in g.moves] for g in again] == [[str(m) for m in g.moves] for g in games]
        counts["valid"] += 1
    assert counts["raised"] > COUNT * 0.5, counts

"""Adiyukh: the test cases A1-A16 of docs/rules/adiyukh.md (positions read
from the rule book's table), the count, the example game of seed 001 and
the perft series the rule book prints."""

import re

import pytest

import shashki
from shashki import Board

from conftest import repo_file

RULES = repo_file("docs/rules/adiyukh.md").read_text()


def book_cases():
    """id -> (variant, position text) from the rule book's table: `W a3 b4;
    B b2 (W)` becomes `W:Wa3,b4:Bb2`; `same (B)` is the row above with
    Black to move; `80:` marks the 80-square board."""
    cases = {}
    previous = None
    for row in re.findall(r"^\| (A\d+) \| ([^|]+) \|", RULES, re.M):
        case, pos = row[0], row[1].strip()
        variant = "adiyukh-64"
        if pos.startswith("80:"):
            variant, pos = "adiyukh-80", pos[3:].strip()
        side = re.search(r"\((W|B)\)$", pos).group(1)
        body = pos[: pos.rindex("(")].strip()
        if body.startswith("start"):
            variant = "adiyukh-80" if "80" in body else "adiyukh-64"
            fen = Board(variant).fen
        elif body == "same":
            variant, fen = previous
            fen = side + fen[1:]
        else:
            sections = []
            for part in body.split(";"):
                colour, *squares = part.split()
                sections.append(colour + ",".join(squares))
            fen = ":".join([side] + sections)
        cases[case] = (variant, fen)
        previous = (variant, fen)
    assert sorted(cases, key=lambda c: int(c[1:])) == [f"A{i}" for i in range(1, 17)], cases
    return cases


CASES = book_cases()

# The complete move lists; those of rows whose cell is a plain list are
# checked against the table too.
MOVES = {
    "A1": "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4",
    "A2": "a3-b4 c3-b4 c3-d4 e3-d4 e3-f4 g3-f4 g3-h4 i3-h4 i3-j4",
    "A3": "b4-a5 b4-c5 c1-d2 g7-f8",
    "A4": "b2-a1 e7-d6 e7-f6 f2-e1 f4-e3 g3-h2",
    "A5": "d4:f6",
    "A6": "e5:g7",
    "A7": "h2:f4:d2 h2:f4:h6:f8",
    "A8": "h8:e5 f8:a3:c1:h6",
    "A9": "h6:f8:d6:a3 h8:f6:d8 h8:c3:a5",
    "A10": "d8:h4:e1:c3:e5:g7 d8:h4:e1:c3:e5:h8 d8:h4:e1:c3:e5:g3 d8:h4:e1:c3:e5:h2",
    "A11": "h8:d4:b6 h8:d4:a7 h8:d4:g1 "
    + " ".join(f"h8:c3:e1:g3:d6:b4:e1:g3:d6:b4:e1:g3:{end}" for end in ("d6", "c7", "b8")),
    "A12": "f8:a3:c1:f4:h2 f8:b4:d2:f4:h2 f8:b4:e1:h4",
    "A13": "d8:f6 d8:g5 d8:h4 d8:b6:d4 d8:b6:e3 d8:b6:f2 d8:b6:g1",
    "A14": "d4:b2",
    "A15": "",
    "A16": "j8:f4 j8:e3 j8:d2 j8:c1",
}


def board(case):
    variant, fen = CASES[case]
    return Board(variant, fen)


def tower(b, square):
    p = b.piece_at(square)
    return None if p is None else (p.color, p.own, p.other, p.king)


@pytest.mark.parametrize("case", sorted(MOVES, key=lambda c: int(c[1:])))
def test_complete_move_list(case):
    b = board(case)
    got = sorted(str(m) for m in b.legal_moves())
    assert len(got) == len(set(got))
    assert got == sorted(MOVES[case].split()), case
    row = re.search(rf"^\| {case} \|[^|]+\| ([^|]+) \|", RULES, re.M).group(1)
    listed = re.sub(r"\(.*?\)", "", row).split()
    if all(re.fullmatch(r"[a-j]\d(?:[-:][a-j]\d)+", t) for t in listed) and listed:
        assert sorted(listed) == got, f"{case}: the rule book lists {listed}"


def test_a5_only_the_top_checker_is_taken():
    b = board("A5")
    b.push("d4:f6")
    assert tower(b, "f6") == ("white", 2, 3, False)
    assert tower(b, "e5") == ("black", 1, 2, False)
    assert b.piece_at("d4") is None
    assert (b.checkers("white"), b.checkers("black")) == (4, 4)


def test_a6_recapture_and_crowning():
    b = board("A6")
    b.push("e5:g7")
    assert [str(m) for m in b.legal_moves()] == ["f6:h8"]
    b.push("f6:h8")
    assert tower(b, "h8") == ("white", 1, 4, True)
    assert tower(b, "g7") == ("white", 3, 0, False)


def test_a8_kings_demoted_off_the_rank():
    b = board("A8")
    b.push("h8:e5")
    assert tower(b, "e5") == ("white", 1, 1, False)
    b = board("A8")
    b.push("f8:a3:c1:h6")
    assert tower(b, "h6") == ("white", 1, 3, False)


def test_a9_three_capture_lines():
    for move, squares in [
        ("h6:f8:d6:a3", {"a3": ("white", 1, 3, False), "e7": ("white", 2, 0, False), "b4": ("black", 2, 0, False)}),
        ("h8:f6:d8", {"d8": ("white", 3, 3, True), "e7": ("white", 2, 0, False)}),
        ("h8:c3:a5", {"a5": ("white", 3, 3, False), "b4": ("black", 2, 0, False)}),
    ]:
        b = board("A9")
        b.push(move)
        for sq, want in squares.items():
            assert tower(b, sq) == want, (move, sq)


def test_a11_four_jumps_over_one_tower_and_the_count():
    b = board("A11")
    long = [m for m in b.legal_moves() if m.to_square == "b8" and len(m.jumped) == 12]
    assert len(long) == 1 and long[0].jumped.count("e5") == 4
    b.push(long[0])
    assert tower(b, "b8") == ("white", 1, 12, True)
    assert b.legal_moves() == [] and b.is_game_over()
    assert b.count() == (13, 11)
    o = b.outcome()
    # Every black checker is under a white top: Black owns no tower.
    assert (o.result, o.reason, o.score) == ("2-0", "no-pieces", (13, 11))


def test_a15_no_legal_move_ends_the_game_counted():
    b = board("A15")
    o = b.outcome()
    assert b.count() == (8, 12)
    # 12 of the 24 points is no win: the game is drawn (13 or more wins).
    assert (o.result, o.reason, o.score, o.winner) == ("1-1", "no-moves", (8, 12), None)


def test_a16_80_squares_king_demoted():
    for end in ["f4", "e3", "d2", "c1"]:
        b = board("A16")
        b.push(f"j8:{end}")
        assert tower(b, end) == ("white", 1, 1, False)


def test_the_count():
    # Each side scores every checker, of either colour, on the other
    # side's half (White ranks 5-8, Black ranks 1-4): at the start 12:12.
    assert Board("adiyukh-64").count() == (12, 12)
    assert Board("adiyukh-80").count() == (15, 15)
    b = Board("adiyukh-64", "W:Wa5,e5-2/1:Bd4-1/2,h8")
    assert b.count() == (5, 3)
    assert b.piece_at("h8").color == "black" and not b.piece_at("h8").king
    assert b.piece_at("e5").height == 3 and b.piece_at("e5").is_tower


def game_moves(line):
    return [t for t in line.split() if not t.endswith(".")]


def test_example_game_of_seed_001():
    full, short = [], []
    for line in repo_file("engine-tests/testdata/adiyukh-example-game.txt").read_text().splitlines():
        t = line.strip()
        if t.startswith("#"):
            if t[1:].strip().startswith("1. "):
                short = game_moves(t[1:])
        elif t:
            full += game_moves(t)
    assert len(full) == len(short) == 29
    ends = []
    for moves in (full, short):
        b = Board("adiyukh-64")
        for text in moves:
            m = b.push(text)
            if moves is full:
                assert m.from_square == text.split("-")[0].split(":")[0] and m.to_square == text[-2:]
        assert (b.checkers("white"), b.checkers("black")) == (12, 12)
        ends.append(b)
    b = ends[0]
    assert ends[1] == b and b.turn == "black" and b.legal_moves() == []
    o = b.outcome()
    assert (b.count(), o.score, o.result) == ((17, 7), (17, 7), "2-0")


def test_perft_series_of_the_rule_book():
    m = re.search(r"64: ([\d, ]+)\. 80: ([\d, ]+)\.", RULES.replace("\n", " "))
    for variant, series in (("adiyukh-64", m.group(1)), ("adiyukh-80", m.group(2))):
        counts = [int(x) for x in series.split(",")]
        b = Board(variant)
        assert [b.perft(d) for d in range(1, len(counts) + 1)] == counts, variant

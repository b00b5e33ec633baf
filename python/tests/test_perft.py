"""Every line of engine-tests/testdata/perft.txt, through Board.perft.

Lines of more than 50 million leaves are counted on two threads (as the
Rust test counts them on rayon's pool); the whole file takes about 25 s on
a two-core machine shared with other work, 17 s of it in the two depth-12
lines (544 and 512 million leaves).
"""

import pytest

import shashki

from conftest import repo_file


def perft_lines():
    lines = []
    for no, raw in enumerate(repo_file("engine-tests/testdata/perft.txt").read_text().splitlines(), 1):
        raw = raw.strip()
        if not raw or raw.startswith("#"):
            continue
        fields = [f.strip() for f in raw.split(";")]
        assert len(fields) == 5, f"perft.txt line {no}: {raw}"
        variant, name, fen, depth, count = fields
        lines.append(pytest.param(variant, fen, int(depth), int(count), id=f"line{no}-{variant}-{name}-d{depth}"))
    assert len(lines) > 100
    return lines


@pytest.mark.parametrize("variant, fen, depth, count", perft_lines())
def test_perft_line(variant, fen, depth, count):
    board = shashki.Board(variant, fen)
    threads = 2 if count > 50_000_000 else 1
    assert board.perft(depth, threads=threads) == count

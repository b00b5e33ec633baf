"""Move sets equal to pydraughts 0.6.7's on 2,000 positions of random games
each of Russian and Brazilian.

Both libraries play the same random games in step: at every position the
sets of legal moves must be equal, each move taken as the rule book
identifies it (start square, final square, captured squares, crowned or
not); the move chosen is played on both boards, and the positions must
then be equal. A game ends where either library says it is over, or after
120 plies.
"""

import random

import pytest

import shashki

from conftest import require

POSITIONS = 2000
MAX_PLIES = 120
FILES = "abcdefgh"
DARK = [f + str(r) for f in FILES for r in range(1, 9) if (FILES.index(f) + r) % 2 == 1]


def square_names(draughts, variant):
    """pydraughts' square numbers, by square name: found from the moves
    of a lone king on each square."""
    names = {}
    for sq in DARK:
        other = "a7" if sq in ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8") else "a1"
        if other == sq:
            other = "h2"
        board = draughts.Board(variant, f"W:WK{sq}:BK{other}")
        (start,) = {m.steps_move[0] for m in board.legal_moves()}
        names[start] = sq
    assert sorted(names) == list(range(1, 33))
    return names


def key_of_pydraughts(move, names, board):
    """A pydraughts move as the rule book identifies it, the crowning read
    from the position after it (pydraughts' own result)."""
    steps = move.steps_move
    start, end = names[steps[0]], names[steps[-1]]
    was_king = board.piece_at(start).king
    return (start, end, frozenset(names[c] for c in move.captures), was_king)


def key_of_shashki(move, board):
    return (move.from_square, move.to_square, frozenset(move.captured), board.piece_at(move.from_square).king)


@pytest.mark.parametrize("variant, seed", [("russian", 20260101), ("brazilian", 20260102)])
def test_move_sets_equal_pydraughts(variant, seed):
    draughts = require("draughts")
    assert getattr(draughts, "__version__", "0.6.7") == "0.6.7"
    names = square_names(draughts, variant)
    rng = random.Random(seed)
    checked = captures = kings = games = 0
    while checked < POSITIONS:
        games += 1
        ours = shashki.Board(variant)
        theirs = draughts.Board(variant)
        for _ in range(MAX_PLIES):
            if checked >= POSITIONS or ours.is_game_over() or theirs.is_over():
                break
            mine = ours.legal_moves()
            other = theirs.legal_moves()
            my_keys = {key_of_shashki(m, ours): m for m in mine}
            assert len(my_keys) == len(mine), f"{ours.fen}: two moves share a start, end and captures"
            # pydraughts may list the same move by two routes: one key.
            their_keys = {key_of_pydraughts(m, names, ours): m for m in other}
            # Crowning: a man's move that ends on its last rank, or (Russian)
            # passes it; the position after the move says which it was.
            # Only a man's move that touches the first or last rank can.
            promoted = {}
            for k, m in their_keys.items():
                promoted[k] = False
                if not k[3] and any(names[s][1] in "18" for s in m.steps_move[1:]):
                    theirs.push(m)
                    promoted[k] = shashki.Board(variant, theirs.fen).piece_at(k[1]).king
                    theirs.pop()
            assert set(my_keys) == set(their_keys), (
                f"{variant} {ours.fen}: only shashki {sorted(map(str, (my_keys[k] for k in set(my_keys) - set(their_keys))))}, "
                f"only pydraughts {sorted(m.pdn_move for k, m in their_keys.items() if k not in my_keys)}"
            )
            for k, m in my_keys.items():
                assert m.promotes == promoted[k], f"{ours.fen}: {m} crowns in one library only"
            checked += 1
            captures += any(m.is_capture for m in mine)
            kings += any(p.king for p in ours.pieces().values())
            k = rng.choice(sorted(my_keys, key=lambda k: str(my_keys[k])))
            ours.push(my_keys[k])
            theirs.push(their_keys[k])
            assert shashki.Board(variant, theirs.fen) == shashki.Board(variant, ours.fen), (
                f"after {my_keys[k]}: pydraughts {theirs.fen}, shashki {ours.fen}"
            )
    assert checked == POSITIONS
    # The walk met the cases that matter.
    assert captures > POSITIONS // 10 and kings > POSITIONS // 20, (captures, kings, games)

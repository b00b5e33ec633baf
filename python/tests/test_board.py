"""Board, Move, Piece, Outcome: the rules through the library's Game."""

import copy
import pickle

import pytest

import shashki
from shashki import Board

START = "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"


def texts(moves):
    return sorted(str(m) for m in moves)


def test_start_position_and_moves():
    b = Board()
    assert b.variant == "russian" and b.turn == "white" and b.fen == START
    assert texts(b.legal_moves()) == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    assert repr(b) == f"Board('russian', '{START}')"
    assert shashki.VARIANTS == ["russian", "brazilian", "adiyukh-64", "adiyukh-80"]
    for v in shashki.VARIANTS:
        assert Board(v).variant == v
        assert Board(v, "startpos") == Board(v)


def test_push_pop_move_stack():
    b = Board()
    m = b.push("c3-d4")
    assert str(m) == "c3-d4" and m.pdn == "22-18" and m.path == ["c3", "d4"]
    assert (m.from_square, m.to_square, m.is_capture, m.captured, m.promotes) == ("c3", "d4", False, [], False)
    assert b.turn == "black" and b.ply == 1
    reply = b.legal_moves()[0]
    assert b.push(reply) == reply
    assert [str(x) for x in b.move_stack] == ["c3-d4", str(reply)]
    assert b.peek() == reply
    assert b.pop() == reply and b.pop() == m
    assert b == Board() and b.peek() is None
    with pytest.raises(IndexError):
        b.pop()


def test_captures_numeric_and_parse():
    b = Board("russian", "W:Wc3:Bd4,d6,h8")
    (m,) = b.legal_moves()
    assert str(m) == "c3:e5:c7" and m.is_capture
    assert m.captured == ["d4", "d6"] and m.path == ["c3", "e5", "c7"]
    assert m.pdn == "22x15x6"
    for text in ["c3:e5:c7", "c3xe5xc7", "c3:c7", "22x15x6", "22x6"]:
        assert b.parse_move(text) == m, text
    b.push("22x6")
    assert b.fen == "B:Wc7:Bh8"


def test_promotion_mid_capture_russian_not_brazilian():
    # Russian: crowned on f8, the man goes on as a king; Brazilian: it goes
    # on as a man (and is not crowned, ending on h6).
    fen = "W:Wd6:Be7,g7"
    russian = Board("russian", fen).legal_moves()
    brazilian = Board("brazilian", fen).legal_moves()
    assert texts(russian) == ["d6:f8:h6"] and russian[0].promotes
    assert texts(brazilian) == ["d6:f8:h6"] and not brazilian[0].promotes
    (m,) = Board("brazilian", "W:Wd6:Be7,g5").legal_moves()
    assert str(m) == "d6:f8" and m.promotes


def test_moves_of_another_position_are_refused():
    b = Board()
    m = b.legal_moves()[0]
    b.push("c3-d4")
    with pytest.raises(shashki.MoveError, match="is not a legal move here; legal moves:"):
        b.push(m)
    assert b.ply == 1


def test_errors_are_library_messages():
    with pytest.raises(shashki.FenError) as e:
        Board("russian", "W:Wa1,a1")
    assert str(e.value) == "bad position text: square a1 is listed twice"
    assert isinstance(e.value, ValueError) and isinstance(e.value, shashki.ShashkiError)
    with pytest.raises(shashki.MoveError) as e:
        Board().push("c3-c4")
    assert str(e.value) == "c3-c4: light square 'c4'"
    with pytest.raises(shashki.ArgumentError, match="unknown variant"):
        Board("chess")
    with pytest.raises(shashki.ArgumentError):
        Board().piece_at("z9")
    with pytest.raises(shashki.ArgumentError):
        Board().push(42)


def test_copy_equality_hash_pickle():
    b = Board()
    b.push("c3-d4")
    c = b.copy()
    assert c == b and hash(c) == hash(b) and c is not b
    c.push(c.legal_moves()[0])
    assert c != b and b.ply == 1
    for other in (copy.copy(b), copy.deepcopy(b), pickle.loads(pickle.dumps(b))):
        assert other == b and other.move_stack == b.move_stack
    # Equal by position: the same position reached by other moves.
    x, y = Board(), Board()
    for m in ["c3-d4", "f6-g5", "g3-f4"]:
        x.push(m)
    for m in ["g3-f4", "f6-g5", "c3-d4"]:
        y.push(m)
    assert x == y and hash(x) == hash(y) and len({x, y}) == 1
    assert Board("russian") != Board("brazilian")
    assert len(set(Board().legal_moves())) == 7


def test_pieces_and_piece_at():
    b = Board("russian", "W:WKa1,c3:Bh8")
    assert b.piece_at("a1").king and b.piece_at(29).king  # a1 is PDN 29
    assert not b.piece_at("c3").king and b.piece_at("c3").color == "white"
    assert b.piece_at("e5") is None
    assert list(b.pieces()) == ["a1", "c3", "h8"]
    assert b.checkers("white") == 2 and b.checkers("black") == 1
    assert b.fen_numeric is not None and Board("russian", b.fen_numeric) == b


def test_outcome_no_pieces_and_no_moves():
    o = Board("russian", "B:Wa1:B").outcome()
    assert (o.result, o.winner, o.reason) == ("2-0", "white", "no-pieces")
    o = Board("russian", "B:Wb2,c1:Ba3").outcome()
    assert (o.result, o.reason, o.description) == ("2-0", "no-moves", "no legal move")
    assert Board().outcome() is None and not Board().is_game_over()


def test_threefold_repetition():
    b = Board("russian", "W:WKh2,c1,e1,a3:BKa7,f8,d8,h6")
    for m in ["h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2"]:
        b.push(m)
        assert not b.is_game_over()
    b.push("b8-a7")
    assert b.repetitions() == 3
    o = b.outcome()
    assert (o.result, o.reason, o.winner) == ("1-1", "repetition", None)
    with pytest.raises(shashki.GameOverError, match="the game is over: 1-1"):
        b.push("h2-g1")
    b.pop()
    assert not b.is_game_over()


def quiet_walk(board, plies, keep=lambda b: True, kings_first_max=None):
    """Play `plies` quiet moves such that no position repeats, no capture
    becomes possible and `keep(board)` holds after each (a depth-first
    search), checking that the game goes on until the last one."""
    seen = {board.fen}
    moves = []

    def search(run):
        if len(moves) == plies:
            return True
        order = board.legal_moves()
        is_king = lambda m: board.piece_at(m.from_square).king  # noqa: E731
        if kings_first_max is not None:
            order.sort(key=lambda m: not is_king(m))
        for m in order:
            king = is_king(m)
            if m.is_capture or (king and run == kings_first_max):
                continue
            board.push(m)
            if board.fen not in seen and keep(board) and not any(x.is_capture for x in board.legal_moves()):
                seen.add(board.fen)
                moves.append(m)
                if search(run + 1 if king else 0):
                    return True
                moves.pop()
                seen.discard(board.fen)
            board.pop()
        return False

    walked = board.copy()
    assert search(0), f"no quiet walk of {plies} plies"
    # Replay on a fresh copy, checking that the game lasts.
    for m in moves:
        assert not walked.is_game_over()
        walked.push(str(m))
    return walked


ROAD = {"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"}


def black_on_road(b):
    return any(p.color == "black" and sq in ROAD for sq, p in b.pieces().items())


@pytest.mark.parametrize(
    "variant, fen, plies, keep, reason",
    [
        ("russian", "W:WKa3,Kc1:BKh6", 10, None, "7.2.8"),
        ("brazilian", "W:WKa3,c1,e1:BKh8", 10, black_on_road, "7.2.7"),
        ("russian", "W:WKa3,Kc1,Ke1,Kg1:BKh2", 30, lambda b: not black_on_road(b), "7.2.4"),
        (
            "russian",
            "W:WKc1,Ke1,a3,b2:BKb8,Kd8,h6,g7",
            30,
            lambda b: all(b.piece_at(s) is not None and not b.piece_at(s).king for s in ("a3", "b2", "h6", "g7")),
            "7.2.5",
        ),
    ],
)
def test_draw_rules(variant, fen, plies, keep, reason):
    b = quiet_walk(Board(variant, fen), plies, keep or (lambda b: True))
    o = b.outcome()
    assert o is not None and (o.result, o.reason) == ("1-1", reason), o


def no_man_next_to_promotion(b):
    """No man one step from its promotion rank: no move can crown, so the
    balance of 7.2.6 cannot change."""
    for sq, p in b.pieces().items():
        rank = int(sq[1:])
        if not p.king and ((p.color == "white" and rank > 6) or (p.color == "black" and rank < 3)):
            return False
    return True


@pytest.mark.parametrize("fen, limit", [("W:WKc1,e1:BKf8,h6", 60), ("W:WKc1,e1,a3:BKf8,h6,g7", 120)])
def test_rule_7_2_6_balance_unchanged(fen, limit):
    # Men move at least once in every 21 plies (7.2.5 never comes close);
    # the game goes on through ply limit - 1 and ends at ply limit.
    b = quiet_walk(Board("russian", fen), limit - 1, no_man_next_to_promotion, kings_first_max=20)
    assert not b.is_game_over()
    seen = set()
    replay = Board("russian", fen)
    for m in b.move_stack:
        seen.add(replay.fen)
        replay.push(str(m))
    seen.add(replay.fen)
    for m in b.legal_moves():
        b.push(m)
        if b.fen not in seen:
            break
        b.pop()
    assert b.ply == limit
    o = b.outcome()
    assert o is not None and (o.result, o.reason) == ("1-1", "7.2.6"), o


def test_perft_small_and_threads():
    b = Board("brazilian")
    assert [b.perft(d) for d in range(6)] == [1, 7, 49, 302, 1469, 7473]
    assert b.perft(6, threads=2) == b.perft(6)
    with pytest.raises(shashki.ArgumentError):
        b.perft(3, threads=0)


def test_svg_and_diagram():
    b = Board()
    s = shashki.svg(b)
    assert s.startswith("<svg") and s.count('class="piece ') == 24
    assert b._repr_svg_() == s and b.svg() == s
    assert shashki.svg(b, flip=True) != s
    assert str(b).splitlines()[0].startswith("8 ")
    assert "tower" in Board("adiyukh-64", "W:Wd4-2/2:Be5-2/2").svg()


def test_the_last_move_pushed_counts_everywhere():
    # push keeps the last move aside until something needs the game; every
    # view of the board sees it.
    b = Board("russian", "W:Wc3:Bd4")
    m = b.push("c3:e5")
    assert b.fen == "B:We5:B" and b.turn == "black" and b.ply == 1 and b.peek() == m
    assert b.is_game_over() and b.outcome().result == "2-0"
    with pytest.raises(shashki.GameOverError):
        b.push("e5-d6")
    c = b.copy()
    assert c == b and pickle.loads(pickle.dumps(b)) == b and c.move_stack == [m]
    assert b.pop() == m and not b.is_game_over() and b.ply == 0
    again = b.push(b.legal_moves()[0])
    assert b.pop() is again and b.legal_moves()[0] == again
    # Text pushes too, and several in a row.
    b = Board()
    for text in ["c3-d4", "f6-g5", "d4-e5"]:
        b.push(text)
        assert b.fen == Board("russian", b.fen).fen
    assert [str(x) for x in b.move_stack] == ["c3-d4", "f6-g5", "d4-e5"]
    assert [str(b.pop()) for _ in range(3)] == ["d4-e5", "f6-g5", "c3-d4"]
    assert b == Board()

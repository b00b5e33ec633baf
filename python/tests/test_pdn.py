"""shashki.pdn: reading (UTF-8, else Windows-1251), writing, round trips."""

import pytest

import shashki
from shashki import pdn

from conftest import repo_file

DATA = "engine-tests/data/"


def same_game(a, b):
    assert a.variant == b.variant and a.start_fen == b.start_fen
    assert [str(m) for m in a.moves] == [str(m) for m in b.moves]
    assert a.result == b.result and list(a.comments) == list(b.comments) and list(a.glyphs) == list(b.glyphs)
    for name, value in a.headers.items():
        if name not in ("GameType", "Variant", "FEN", "Result"):
            assert b.headers[name] == value


@pytest.mark.parametrize(
    "name", ["lidraughts-russian.pdn", "lidraughts-russian-from-position.pdn", "lidraughts-brazilian-algebraic.pdn"]
)
def test_round_trip_of_the_test_files(name, tmp_path):
    games = pdn.read_file(repo_file(DATA + name))
    assert games
    out = tmp_path / "out.pdn"
    pdn.write_file(out, games)
    again = pdn.read_file(out)
    assert len(again) == len(games)
    for a, b in zip(games, again):
        same_game(a, b)
    # Written text is stable: writing what was read back gives the same.
    assert pdn.write(again) == pdn.write(games)


def test_windows_1251_file_is_read_as_the_command_line_reads_it(tmp_path):
    path = repo_file(DATA + "cp1251-russian.pdn")
    raw = path.read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    games = pdn.read_file(path)
    assert [g.headers["White"] for g in games] == ["Иванов, Пётр", "Ґонта, Євген"]
    assert games[0].comments[3] == "ничья по соглашению" and games[0].result == "1-1"
    # The same from the bytes, and named explicitly; Latin-1 reads other text.
    assert [g.headers["White"] for g in pdn.read_string(raw)] == ["Иванов, Пётр", "Ґонта, Євген"]
    assert pdn.read_string(raw, encoding="cp1251")[1].headers["Site"] == "Київ"
    assert pdn.read_string(raw, encoding="latin1")[0].headers["White"] != "Иванов, Пётр"
    with pytest.raises(shashki.PdnError, match="not valid UTF-8"):
        pdn.read_file(path, encoding="utf-8")
    # Round trip: written as UTF-8, read back the same.
    out = tmp_path / "utf8.pdn"
    pdn.write_file(out, games)
    assert out.read_bytes().decode("utf-8").count("Иванов") == 1
    for a, b in zip(games, pdn.read_file(out)):
        same_game(a, b)


def test_games_from_boards_and_back():
    board = shashki.Board()
    for m in ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]:
        board.push(m)
    game = pdn.Game(board, headers={"White": "Ann", "Black": "Bob"})
    game.comments[1] = "a gambit"
    game.glyphs[2] = "!"
    text = pdn.write(game)
    assert '[White "Ann"]' in text and "d4xf6!" in text and "{a gambit}" in text
    (back,) = pdn.read_string(text)
    same_game(game, back)
    assert back.board() == board
    b1 = back.board(1)
    assert b1.ply == 1 and str(b1.peek()) == "c3-d4"
    assert len(back) == 4 and back.result == "*"


def test_start_positions_black_to_move_and_adiyukh():
    board = shashki.Board("brazilian", "B:WKc1,a3:Bh6,g7")
    board.push(board.legal_moves()[0])
    text = pdn.write(pdn.Game(board))
    assert '[FEN "B:' in text and "1..." in text and '[GameType "26"]' in text
    (back,) = pdn.read_string(text, variant="russian")
    assert back.variant == "brazilian" and back.board() == board
    tower = shashki.Board("adiyukh-64", "W:Wd4-2/2:Be5-2/2")
    tower.push("d4:f6")
    (back,) = pdn.read_string(pdn.write(pdn.Game(tower)))
    assert back.variant == "adiyukh-64" and back.board() == tower


def test_malformed_games_raise_skip_or_keep():
    text = '[White "A"]\n1. c3-d4 *\n\n[White "B"]\n1. c3-c4 *\n\n[White "C"]\n1. g3-h4 *\n'
    with pytest.raises(shashki.PdnError) as e:
        pdn.read_string(text)
    assert str(e.value).startswith("game 2 (B - ?), line 5: ply 1 (move 1. c3-c4): c3-c4: light square")
    assert (e.value.game, e.value.line) == (2, 5) and isinstance(e.value, ValueError)
    assert [g.headers["White"] for g in pdn.read_string(text, errors="skip")] == ["A", "C"]
    kept = pdn.read_string(text, errors="keep")
    assert isinstance(kept[1], shashki.PdnError) and kept[2].headers["White"] == "C"
    for bad in ["", "   \n", "hello world", b"\x00\x01", b"\xff\xfeh\x00i\x00"]:
        with pytest.raises(shashki.PdnError):
            pdn.read_string(bad)
    with pytest.raises(shashki.PdnError, match="cannot read"):
        pdn.read_file("/nonexistent/file.pdn")
    with pytest.raises(shashki.ArgumentError):
        pdn.read_string(text, errors="ignore")
    with pytest.raises(shashki.ArgumentError):
        pdn.read_string(text, encoding="ebcdic")


def test_header_values_and_results():
    game = pdn.read_string('[Event "x"]\n1. c3-d4 1-0')[0]
    assert game.result == "2-0"
    game.result = "0-2"
    with pytest.raises(shashki.ArgumentError):
        game.result = "win"
    game.headers["Round"] = 3
    assert '[Round "3"]' in game.pdn()
    game.comments = [None, None]
    with pytest.raises(shashki.ArgumentError, match="comments: expected 1 entries"):
        game.pdn()

"""Engine: search and its limits, stop from another thread, the
interpreter's lock released, evaluation, analysis as `shashki analyse`
gives it, endgame tables."""

import json
import os
import signal
import subprocess
import threading
import time
import _thread

import pytest

import shashki
from shashki import Board, Engine

from conftest import repo_file, shashki_binary


@pytest.fixture(scope="module")
def engine():
    return Engine("russian", hash_mb=16)


def test_search_depth_result(engine):
    infos = []
    r = engine.search(Board(), depth=6, on_info=infos.append)
    assert r.best in Board().legal_moves() and r.depth == 6 and r.nodes > 0
    assert [i.depth for i in infos] == list(range(1, 7))
    assert r.pv[0] == r.best and r.score == infos[-1].score and r.score.kind == "cp"
    assert r.ponder == r.pv[1] and r.nps > 0 and r.time > 0 and not r.stopped
    assert len(r.lines) == 1 and r.lines[0].pv == r.pv
    # The moves of the line are moves of their positions.
    b = Board()
    for m in r.pv:
        b.push(m)


def test_limits_nodes_movetime_multipv(engine):
    r = engine.search(Board(), nodes=5000)
    assert r.best is not None and r.nodes < 50000
    start = time.monotonic()
    r = engine.search(Board(), movetime=0.2)
    assert time.monotonic() - start < 2.0
    r = engine.search(Board(), depth=5, multipv=3)
    assert len(r.lines) == 3 and len({str(line.pv[0]) for line in r.lines}) == 3
    assert r.lines[0].score.value >= r.lines[1].score.value >= r.lines[2].score.value
    for bad in [dict(depth=0), dict(nodes=0), dict(multipv=0), dict(movetime=-1.0), dict(movetime=float("nan"))]:
        with pytest.raises(shashki.ArgumentError):
            engine.search(Board(), **bad)
    with pytest.raises(shashki.ArgumentError, match="the engine plays russian, the board is brazilian"):
        engine.search(Board("brazilian"), depth=1)


def test_forced_move_and_no_move(engine):
    r = engine.search(Board("russian", "W:Wc3:Bd4,h8"))
    assert str(r.best) == "c3:e5" and r.score is None and r.depth == 0
    r = engine.search(Board("russian", "B:Wa1:B"))
    assert r.best is None and r.score.kind == "loss"


def test_a_man_up_scores_high():
    e = Engine("russian", hash_mb=8, egdb=False)
    r = e.search(Board("russian", "W:Wc3,e3:Bb6"), depth=12)
    assert r.score.value > 100


def test_stop_from_another_thread_returns_within_50_ms(engine):
    done = {}

    def search():
        done["result"] = engine.search(Board(), depth=1000)
        done["returned"] = time.perf_counter()

    t = threading.Thread(target=search)
    t.start()
    time.sleep(0.3)
    assert "result" not in done
    asked = time.perf_counter()
    engine.stop()
    t.join(5)
    took = done["returned"] - asked
    assert took < 0.05, f"the search returned {took * 1000:.1f} ms after stop()"
    r = done["result"]
    assert r.stopped and r.best in Board().legal_moves()


def test_other_python_threads_run_during_a_search(engine):
    count = [0]
    running = [True]

    def spin():
        while running[0]:
            count[0] += 1

    t = threading.Thread(target=spin)
    t.start()
    try:
        time.sleep(0.05)
        before = count[0]
        r = engine.search(Board(), movetime=0.5)
        during = count[0] - before
    finally:
        running[0] = False
        t.join()
    assert r.best is not None
    # With the lock held for the whole search the other thread would get
    # nothing done; released, it counts on (millions a second when idle).
    assert during > 50_000, f"the other thread counted {during} during a 0.5 s search"


def test_ctrl_c_stops_a_search(engine):
    # Python's own Ctrl-C handler, even where the test runner was started
    # with SIGINT ignored (a background job of a script), in which case
    # interrupt_main would do nothing; the movetime keeps a failure from
    # hanging the run.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        timer = threading.Timer(0.3, _thread.interrupt_main)
        timer.start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.search(Board(), depth=1000, movetime=20000)
        assert time.monotonic() - start < 2.0
    finally:
        signal.signal(signal.SIGINT, previous)
    # The engine works on.
    assert engine.search(Board(), depth=3).best is not None


def test_an_exception_in_on_info_ends_the_search(engine):
    def boom(info):
        if info.depth == 3:
            raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        engine.search(Board(), depth=30, on_info=boom)

    def nested(info):
        engine.search(Board(), depth=1)

    with pytest.raises(shashki.EngineError, match="callback cannot start a search"):
        engine.search(Board(), depth=3, on_info=nested)


def test_two_threads_share_an_engine(engine):
    results = []
    threads = [threading.Thread(target=lambda: results.append(engine.search(Board(), depth=5))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 3 and all(r.best is not None for r in results)


def test_evaluate_and_weights(tmp_path):
    e = Engine("russian", hash_mb=1)
    assert e.evaluate(Board()) == 0
    up = Board("russian", "W:Wa1,c1,c3:Bh8,f8")
    assert e.evaluate(up) > 50
    # A weights file (parameters left out keep their built-in values).
    w = tmp_path / "w.txt"
    w.write_text("variant russian\nman 200\n")
    heavy = Engine("russian", hash_mb=1, weights=w)
    assert heavy.weights == w and heavy.evaluate(up) > e.evaluate(up)
    assert Engine("russian", hash_mb=1, weights=repo_file("weights/russian.txt")).evaluate(up) == e.evaluate(up)
    bad = tmp_path / "bad.txt"
    bad.write_text("variant russian\nno_such_weight 3\n")
    with pytest.raises(shashki.ArgumentError, match="weights"):
        Engine("russian", weights=bad)
    with pytest.raises(shashki.ArgumentError, match="are for brazilian"):
        Engine("russian", weights=repo_file("weights/brazilian.txt"))
    with pytest.raises(shashki.ArgumentError):
        Engine("russian", hash_mb=0)
    with pytest.raises(shashki.ArgumentError):
        Engine("russian", threads=0)


def test_analyse_a_game():
    e = Engine("russian", hash_mb=16)
    board = Board("russian", "W:Wc3,h2:Be5,a7")
    board.push("c3-d4")  # gives a man away
    board.push("e5:c3")
    seen = []
    reports = e.analyse(board, depth=8, on_position=seen.append)
    assert len(reports) == len(seen) == 3
    first = reports[0]
    assert first.played == "c3-d4" and first.best != "c3-d4" and first.loss >= 100
    assert first.glyph in ("?", "??") and reports[1].loss == 0 and reports[2].played is None
    game = shashki.pdn.Game(board)
    game.annotate(reports)
    assert "best " in game.comments[0] and game.glyphs[0] == first.glyph


def test_analyse_gives_what_shashki_analyse_gives(tmp_path):
    binary = shashki_binary()
    if binary is None:
        if os.environ.get("SHASHKI_REQUIRE_BINARY"):
            pytest.fail("the shashki binary is required (SHASHKI_REQUIRE_BINARY is set)")
        pytest.skip("no target/release/shashki (set SHASHKI_BIN)")
    path = repo_file("engine-tests/data/lidraughts-russian.pdn")
    env = dict(os.environ, SHASHKI_EGDB=os.environ["SHASHKI_EGDB"])
    out = subprocess.run(
        [binary, "analyse", "--json", "--depth", "5", "--hash", "16", str(path)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout
    cli = [json.loads(line) for line in out.splitlines() if '"type":"position"' in line]
    (game,) = shashki.pdn.read_file(path)
    reports = Engine("russian", hash_mb=16).analyse(game, depth=5)
    mine = [dict(r.to_dict(), type="position", game=1) for r in reports]
    assert mine == cli
    # And the annotated PDN is the command's.
    pdn_out = subprocess.run(
        [binary, "analyse", "--depth", "5", "--hash", "16", str(path)],
        capture_output=True, text=True, env=env, check=True,
    ).stdout
    game.annotate(reports)
    assert game.pdn() == pdn_out


def test_endgame_tables(tmp_path):
    folder = tmp_path / "egdb"
    built = shashki.egdb.build(folder, "russian", pieces=3)
    assert built > 0 and (folder / "russian").is_dir()
    assert shashki.egdb.pieces("russian", folder) == 3
    assert shashki.egdb.pieces("russian") == 0  # the tests' SHASHKI_EGDB holds none
    win = Board("russian", "W:WKa1,Kc1:Bh8")
    p = shashki.egdb.probe(win, folder)
    assert p.wdl == "win" and p.plies > 0 and "win for the side to move" in p.text
    loss = Board("russian", "B:WKa1,Kc1:Bh8")
    assert shashki.egdb.probe(loss, folder).wdl == "loss"
    assert shashki.egdb.probe(Board(), folder) is None
    assert shashki.egdb.probe(win) is None and shashki.egdb.probe(win, False) is None
    assert shashki.egdb.probe(Board("adiyukh-64"), folder) is None
    with pytest.raises(shashki.EgdbError, match="not a folder"):
        shashki.egdb.probe(win, tmp_path / "missing")
    with pytest.raises(shashki.EgdbError, match="no complete set"):
        shashki.egdb.probe(win, tmp_path)
    e = Engine("russian", hash_mb=8, egdb=folder)
    assert e.egdb_pieces == 3
    r = e.search(win, depth=6)
    assert r.score.kind == "win" and r.tbhits > 0
    assert Engine("russian", hash_mb=1).egdb_pieces == 0
    os.environ["SHASHKI_EGDB"], saved = str(folder), os.environ["SHASHKI_EGDB"]
    try:
        assert Engine("russian", hash_mb=1).egdb_pieces == 3
        assert Engine("russian", hash_mb=1, egdb=False).egdb_pieces == 0
        assert shashki.egdb.probe(win).wdl == "win"
    finally:
        os.environ["SHASHKI_EGDB"] = saved

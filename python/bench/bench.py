#!/usr/bin/env python3
"""Speed of the shashki package against the Python draughts libraries, and
of Engine.search against the engine binary.

    python3 python/bench/bench.py [--games 1000] [--seed 1] [--every 10]
                                  [--rounds 3] [--binary target/release/shashki]
                                  [--work target/python-bench]

1. Makes three virtual environments under --work (kept for the next run):
   shashki (`pip install ./python`, as docs/python.md installs it),
   py-draughts 1.10.1 and pydraughts 0.6.7 (both import as `draughts`).
2. Plays --games random Russian games with shashki and keeps every
   position (one FEN a line, in --work/positions.txt).
3. Move generation: in each library's environment, legal_moves, then push
   and pop of every legal move, over the positions (boards built first, not
   timed). shashki and py-draughts over all of them; pydraughts, which
   takes tens of milliseconds a position, over every --every-th one, and
   shashki over the same subset for that ratio. Best of --rounds.
4. Search: the binary's `bench` (depth 9, hash 16, one thread) and
   Engine.search over the same positions with the same settings, --rounds
   times each, alternating; the node counts must be equal (the same
   search), and the best nodes/s of each side are compared.

Runs with any Python 3.10+ (the standard library only); needs network
access to PyPI the first time, and Rust to build shashki.
"""

import argparse
import json
import os
import pathlib
import re
import subprocess
import sys
import venv

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
WORKER = HERE / "worker.py"

LIBRARIES = {
    "shashki": [str(REPO / "python")],
    "py-draughts": ["py-draughts==1.10.1"],
    "pydraughts": ["pydraughts==0.6.7"],
}


def python_of(work, lib):
    """The interpreter of `lib`'s environment, made and filled if needed."""
    env = work / f"venv-{lib}"
    python = env / "bin" / "python"
    stamp = env / "installed.txt"
    want = " ".join(LIBRARIES[lib])
    if lib == "shashki" or not stamp.exists() or stamp.read_text() != want:
        if not python.exists():
            venv.create(env, with_pip=True)
        print(f"installing {want} into {env}", file=sys.stderr, flush=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
            + (["--force-reinstall", "--no-deps"] if lib == "shashki" and stamp.exists() else [])
            + LIBRARIES[lib],
            check=True,
        )
        stamp.write_text(want)
    return str(python)


def run(python, *args):
    out = subprocess.run([python, str(WORKER), *map(str, args)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def best(results):
    return min(results, key=lambda r: r["seconds"])


def binary_bench(binary, rounds_env):
    """The binary's bench: its positions, nodes per position, total nps."""
    out = subprocess.run(
        [binary, "bench", "--depth", "9", "--hash", "16", "--threads", "1"],
        check=True, capture_output=True, text=True, env=rounds_env,
    ).stdout
    rows = []
    for line in out.splitlines():
        m = re.match(r"^(\S+)\s+(.+?)\s+nodes\s+(\d+)\s+bestmove\s+(\S+)$", line)
        if m:
            rows.append((m.group(1), m.group(2), int(m.group(3)), m.group(4)))
    total = int(re.search(r"^nodes (\d+)$", out, re.M).group(1))
    nps = int(re.search(r"^nps (\d+)$", out, re.M).group(1))
    assert sum(r[2] for r in rows) == total, out
    return rows, total, nps


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=10, help="pydraughts times every N-th position")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--binary", default=str(REPO / "target" / "release" / "shashki"))
    ap.add_argument("--work", default=str(REPO / "target" / "python-bench"))
    a = ap.parse_args()
    work = pathlib.Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    pythons = {lib: python_of(work, lib) for lib in LIBRARIES}
    if not os.access(a.binary, os.X_OK):
        subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "shashki"], cwd=REPO, check=True)
    env = dict(os.environ, SHASHKI_EGDB=str(work / "no-egdb"))

    positions = work / "positions.txt"
    g = run(pythons["shashki"], "generate", a.games, a.seed, positions)
    print(f"{g['games']} random Russian games (seed {a.seed}): {g['positions']} positions")
    print(f"load: {os.getloadavg()[0]:.1f} (1-minute load average, {os.cpu_count()} cores)")

    print("\nmove generation: legal_moves + push + pop of every move, per position")
    full = {lib: best([run(pythons[lib], "movegen", lib, positions) for _ in range(a.rounds)])
            for lib in ("shashki", "py-draughts")}
    subset = {lib: best([run(pythons[lib], "movegen", lib, positions, a.every) for _ in range(a.rounds if lib == "shashki" else 1)])
              for lib in ("shashki", "pydraughts")}
    rows = [(full["shashki"], "all"), (full["py-draughts"], "all"), (subset["shashki"], f"every {a.every}th"),
            (subset["pydraughts"], f"every {a.every}th")]
    for r, which in rows:
        per = r["seconds"] / r["positions"] * 1e6
        print(f"  {r['library']:<18} {which:>11} {r['positions']:>7} positions {r['moves']:>8} moves "
              f"{r['seconds']:9.3f} s  {per:10.2f} us/position  {r['positions'] / r['seconds']:12.0f} positions/s")
    assert full["shashki"]["moves"] == full["py-draughts"]["moves"], "the libraries count other moves"
    x_pyd2 = full["py-draughts"]["seconds"] / full["shashki"]["seconds"]
    x_pyd = subset["pydraughts"]["seconds"] / subset["shashki"]["seconds"]
    print(f"  shashki is {x_pyd2:.1f}x py-draughts 1.10.1 (goal 20x) and {x_pyd:.0f}x pydraughts 0.6.7 (goal 500x)")
    if subset["shashki"]["moves"] != subset["pydraughts"]["moves"]:
        print(f"  (pydraughts lists {subset['pydraughts']['moves']} moves, shashki {subset['shashki']['moves']}: "
              "pydraughts lists a capture once per route)")

    print("\nsearch: the binary's bench against Engine.search, depth 9, hash 16, one thread")
    binary_runs, python_runs = [], []
    plan = None
    for _ in range(a.rounds):
        rows_b, total, nps = binary_bench(a.binary, env)
        binary_runs.append(nps)
        if plan is None:
            plan = [(v, "startpos" if t == "startpos" else t, 9, 16) for v, t, _, _ in rows_b]
            (work / "bench-positions.json").write_text(json.dumps(plan))
        res = json.loads(subprocess.run(
            [pythons["shashki"], str(WORKER), "search", str(work / "bench-positions.json")],
            check=True, capture_output=True, text=True, env=env).stdout)
        nodes = [r["nodes"] for r in res]
        assert nodes == [r[2] for r in rows_b], f"other node counts: {nodes} vs {[r[2] for r in rows_b]}"
        python_runs.append((sum(nodes) / sum(r["seconds"] for r in res), sum(nodes) / sum(r["wall"] for r in res)))
    b = max(binary_runs)
    p = max(r[0] for r in python_runs)
    w = max(r[1] for r in python_runs)
    print(f"  nodes {total} on both sides (the same search)")
    print(f"  binary bench      nps {b:>10.0f}   (runs: {', '.join(str(x) for x in binary_runs)})")
    print(f"  Engine.search     nps {p:>10.0f}   (runs: {', '.join(f'{r[0]:.0f}' for r in python_runs)})")
    print(f"  ... call to return nps {w:>6.0f}   (from Python's clock, thread start and result objects included)")
    print(f"  Engine.search reaches {100 * p / b:.1f}% of the binary's nodes/s (goal 95%); "
          f"{100 * w / b:.1f}% by Python's clock")
    print(f"load: {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How games with endgame tables went where the tables first had their say.

Replays every game of a match's PDN (`shashki match --pdn-out`) through the
engine's `d` with `EGDB Path` set, finds the first position the tables
cover (after the capture that brought the material down to their piece
count, so with every count at zero: the value is exact) and counts, per
(White, Black, table value for White, result for White), how many games
there were. A row like `('egdb5', 'none', 1, 0) 4` says: egdb5 as White
had a table win four times and drew.

    python3 tuning/egdb-conversions.py target/release/shashki games.pdn egdb/russian
"""
import re
import subprocess
import sys


def main():
    binary, pdn, tables = sys.argv[1], sys.argv[2], sys.argv[3]
    games = re.split(r"\n(?=\[Event )", open(pdn, encoding="utf-8").read())
    engine = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def until(prefix):
        out = []
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit("the engine ended")
            out.append(line.rstrip())
            if line.startswith(prefix):
                return out

    send("uci")
    until("uciok")
    send(f"setoption name EGDB Path value {tables}")
    counts = {}
    variant = None
    for game in games:
        tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', game))
        if "Result" not in tags or "\n\n" not in game:
            continue
        game_type = {"25": "russian", "26": "brazilian"}.get(tags.get("GameType", "25"))
        if game_type is None:
            continue
        if game_type != variant:
            variant = game_type
            send(f"setoption name Variant value {variant}")
        body = re.sub(r"\{[^}]*\}", " ", game.split("\n\n", 1)[1])
        moves = [t.replace("x", ":") for t in body.split()
                 if not re.match(r"^\d+\.", t) and t not in ("1-1", "2-0", "0-2", "*")]
        start = f"position fen {tags['FEN']}" if "FEN" in tags else "position startpos"
        for i in range(len(moves) + 1):
            send(start + (" moves " + " ".join(moves[:i]) if i else ""))
            send("d")
            send("isready")
            out = until("readyok")
            value = [line for line in out if line.startswith("egdb ")]
            if not value:
                continue
            side = [line for line in out if line.startswith("side ")][0].split()[1]
            v = {"win": 1, "draw": 0, "loss": -1}[value[0].split()[1]]
            if side.lower().startswith("b"):
                v = -v
            result = {"2-0": 1, "1-1": 0, "0-2": -1}[tags["Result"]]
            key = (tags["White"], tags["Black"], v, result)
            counts[key] = counts.get(key, 0) + 1
            break
    send("quit")
    for key, n in sorted(counts.items()):
        print(key, n)


if __name__ == "__main__":
    main()

"""The worked script of docs/python.md runs on the repository's sample game."""

import os
import subprocess
import sys

from conftest import REPO


def test_worst_moves_script(tmp_path):
    script = REPO / "python" / "examples" / "worst_moves.py"
    out = subprocess.run(
        [sys.executable, str(script), str(REPO / "engine-tests/data/lidraughts-russian.pdn"), "6"],
        cwd=tmp_path, capture_output=True, text=True, env=dict(os.environ), timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("sample_white - sample_black") and lines[1].split()[:4] == ["side", "move", "played", "best"]
    sides = [line.split()[0] for line in lines[2:] if line.startswith(("white ", "black "))]
    assert sides.count("white") == 3 and sides.count("black") == 3
    assert any(line.startswith("critical: ") for line in lines)
    assert (tmp_path / "critical.svg").read_text().startswith("<svg")
    # The script is the one the docs show.
    docs = (REPO / "docs" / "python.md").read_text()
    assert script.read_text().strip() in docs

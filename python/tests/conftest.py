"""Shared set-up of the package's tests.

Engines started here never see the user's endgame tables: SHASHKI_EGDB
names a folder that does not exist (the tests of the tables build their
own in a temporary folder).
"""

import os
import pathlib
import tempfile

os.environ["SHASHKI_EGDB"] = os.path.join(tempfile.gettempdir(), "shashki-tests-no-egdb")

import pytest  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]


def repo_file(relative):
    """A file of the repository, by its path from the top."""
    path = REPO / relative
    assert path.is_file(), f"{path} is missing"
    return path


def require(name):
    """Skip a test that needs `name` when it is not installed, or fail it
    when SHASHKI_REQUIRE_PYDRAUGHTS is set (CI)."""
    try:
        return __import__(name)
    except ImportError as e:
        if os.environ.get("SHASHKI_REQUIRE_PYDRAUGHTS"):
            pytest.fail(f"{name} is required (SHASHKI_REQUIRE_PYDRAUGHTS is set): {e}")
        pytest.skip(f"{name} is not installed")


def shashki_binary():
    """The engine binary of this repository's build, if there is one
    (SHASHKI_BIN, else target/release/shashki)."""
    path = os.environ.get("SHASHKI_BIN") or str(REPO / "target" / "release" / "shashki")
    return path if os.access(path, os.X_OK) else None

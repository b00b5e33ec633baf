"""The type stubs (shashki/_shashki.pyi) match the extension module, as
mypy's stubtest checks them (when mypy is installed: CI installs it)."""

import os
import subprocess
import sys

import pytest


def test_stubs_match_the_module(tmp_path):
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("SHASHKI_REQUIRE_MYPY"):
            pytest.fail("mypy is required (SHASHKI_REQUIRE_MYPY is set)")
        pytest.skip("mypy is not installed")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "--ignore-disjoint-bases", "shashki"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert out.returncode == 0, out.stdout + out.stderr

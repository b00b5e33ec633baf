"""docs/python.md's examples, run as a doctest from the repository's top."""

import doctest
import os

from conftest import REPO


def test_the_docs_examples(monkeypatch):
    monkeypatch.chdir(REPO)
    failures, tried = doctest.testfile(
        str(REPO / "docs" / "python.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        raise_on_error=False,
    )
    assert tried > 40 and failures == 0, f"{failures} of {tried} examples of docs/python.md failed (see above)"

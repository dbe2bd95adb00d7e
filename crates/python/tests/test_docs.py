"""docs/python.md's Python snippets run as written: each ```python block,
in the page's order, in one namespace (a later block may use what an
earlier one made, as a reader following the page would), from a
temporary folder."""

import pathlib
import re

import pytest

DOCS = pathlib.Path(__file__).resolve().parents[3] / "docs"


def blocks(page):
    return re.findall(r"^```python\n(.*?)^```", (DOCS / page).read_text(), re.S | re.M)


def test_python_md_has_snippets():
    assert len(blocks("python.md")) >= 8


def test_every_python_snippet_of_python_md_runs_in_order(tmp_path, monkeypatch, capsys):
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    for i, code in enumerate(blocks("python.md")):
        try:
            exec(compile(code, f"docs/python.md block {i}", "exec"), namespace)
        except Exception as e:  # the block and its first line, for the reader
            raise AssertionError(f"docs/python.md block {i} ({code.splitlines()[0]!r}) fails: {e!r}") from e
    # the evaluation example evaluated every deal it was given
    assert len(namespace["results"]) == 4096

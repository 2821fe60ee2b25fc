"""Requests in a file past LARGE_FILE_CHARS read a window (issue 19: the first completion in a
100,000-line file took ~30 s, a hover got no answer in 15 s): the imports above the cursor's
top-level block, then the block. Positions in answers are the file's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.lsp_latency import model_source
from mindscope_ls.checker import split_lines
from mindscope_ls.documents.position import At
from mindscope_ls.documents.window import LARGE_FILE_CHARS, window, windowed

from .rawlsp import RawClient

LINES = [
    "import a\n",
    "from b import (\n",
    "    c,\n",
    ")\n",
    "x = 1\n",
    "\n",
    "@d\n",
    "class K:\n",
    "    def f(self):\n",
    "        self.\n",
    "\n",
    "# a comment at the margin\n",
    "    # inside\n",
    "def g():\n",
    "    pass\n",
]


def test_the_window_is_the_imports_then_the_block_around_the_cursor() -> None:
    found = window(LINES, 9)
    assert found.source == "".join([*LINES[:4], *LINES[6:13]])  # comments do not end it
    assert found.source.splitlines()[found.line] == "        self."
    assert [found.file_line(i) for i in range(len(found.source.splitlines()))] == [
        0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12,
    ]  # fmt: skip


def test_only_a_file_past_the_limit_is_windowed() -> None:
    small = At("".join(LINES), 9, 13, None, "file:///s.py")
    assert windowed(small) == (small, None)
    padding = "# " + "x" * 97 + "\n"
    big_text = "".join(LINES[:4]) + padding * (LARGE_FILE_CHARS // 100) + "".join(LINES[4:])
    big = At(big_text, len(split_lines(big_text)) - 6, 13, None, "file:///b.py")
    inside, view = windowed(big)
    assert view is not None and len(inside.source) < 500
    assert view.file_line(inside.line) == big.line
    cell = At(big_text, big.line, 13, None, "nb", offset=3)  # a notebook's program: never
    assert windowed(cell) == (cell, None)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawClient]:
    raw = RawClient(tmp_path_factory.mktemp("large"))
    yield raw
    raw.stop()


def test_completion_and_hover_deep_in_a_large_file(client: RawClient, tmp_path: Path) -> None:
    text = model_source(60_000)
    assert len(text) > LARGE_FILE_CHARS
    lines = text.splitlines()
    construct = max(i for i, line in enumerate(lines) if line.startswith("    def construct("))
    uri = (tmp_path / "big.py").as_uri()
    client.open(uri, text)
    at = {"line": construct + 1, "character": 0}
    client.change(uri, 2, [{"range": {"start": at, "end": at}, "text": "        self.\n"}])
    answer = client.request(
        "textDocument/completion",
        {"textDocument": {"uri": uri}, "position": {"line": construct + 1, "character": 13}},
        timeout=120,
    )
    items = answer["result"]["items"] if isinstance(answer["result"], dict) else answer["result"]
    labels = {item["label"] for item in items}
    assert {"construct", "trainable_params"} <= labels, sorted(labels)[:20]
    # A hover on a MindSpore name above it, in the same block.
    target = next(i for i in range(construct, 0, -1) if "nn." in lines[i])
    column = lines[target].index("nn.") + 4
    name = re.search(r"nn\.(\w+)", lines[target])
    hover = client.request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": target, "character": column}},
        timeout=120,
    )
    found = hover["result"]
    assert name is not None and found is not None and name[1] in str(found["contents"]), hover
    if "range" in found:
        assert found["range"]["start"]["line"] == target
    client.close_document(uri)

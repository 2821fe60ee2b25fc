"""MindSpore snippets: offered where a statement starts, and, expanded with their defaults,
real programs that run with MindSpore (a Cell compiled in GRAPH_MODE, one training step, a
dataset batch)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.analysis.snippets import snippet_items

LABELS = {"mscell", "mstrain", "msdata"}
# ${1:default}, ${1}, $1: read here independently of the server's own expansion.
TABSTOP = re.compile(r"\$\{(\d+):([^{}$]*)\}|\$\{(\d+)\}|\$(\d+)")


def expand_defaults(body: str) -> str:
    """The text VS Code inserts when every placeholder keeps its default."""
    defaults: dict[str, str] = {}
    for match in TABSTOP.finditer(body):
        if match.group(1):
            known = defaults.setdefault(match.group(1), match.group(2))
            assert known == match.group(2), f"tabstop {match.group(1)}: two defaults"

    def default(match: re.Match[str]) -> str:
        if match.group(1):
            return match.group(2)
        return defaults.get(match.group(3) or match.group(4), "")

    text = TABSTOP.sub(default, body)
    assert "$" not in text and "\\" not in text, "snippet syntax this test does not read"
    return text


def _labels(source: str, line: int, column: Optional[int] = None) -> set[str]:
    text = source.split("\n")[line]
    return {
        item.label for item in snippet_items(source, line, len(text) if column is None else column)
    }


def test_offered_where_a_statement_starts() -> None:
    assert _labels("ms", 0) == LABELS
    assert _labels("import os\n\n", 2) == LABELS  # nothing typed yet
    assert _labels("def f():\n    x = 1\n    ms", 2) == LABELS
    assert _labels("x = [\n    1,\n]\nms", 3) == LABELS  # the bracket closed above
    # Filtered as VS Code filters the first request's items: the letters in order.
    assert _labels("msc", 0) == {"mscell"}
    assert _labels("forw", 0) == set()


def test_not_offered_inside_expressions_strings_or_after_a_dot() -> None:
    assert _labels("import mindspore as ms\nms.", 1) == set()
    assert _labels("x = ms", 0) == set()
    assert _labels("layers = [\n    ms", 1) == set()
    assert _labels("call(a,\n     ms", 1) == set()
    assert _labels('doc = """\nms', 1) == set()
    assert _labels("x = 1 + \\\n    ms", 1) == set()
    assert _labels("# ms", 0) == set()


def test_a_file_that_binds_nn_to_another_library_gets_no_nn_snippet() -> None:
    assert _labels("import torch.nn as nn\n\nms", 2) == {"msdata"}


def _edits(source: str, line: int) -> dict[str, list[tuple[int, int, str]]]:
    column = len(source.split("\n")[line])
    return {
        item.label: [
            (edit.range.start.line, edit.range.start.character, edit.new_text)
            for edit in item.additional_text_edits or []
        ]
        for item in snippet_items(source, line, column)
    }


def test_missing_imports_go_after_the_imports_or_the_docstring() -> None:
    source = '"""Models."""\nfrom mindspore import nn\nimport numpy as np\n\nms'
    edits = _edits(source, 4)
    assert edits["mscell"] == []  # nn is imported
    assert edits["msdata"] == [(3, 0, "import mindspore as ms\nimport mindspore.dataset as ds\n")]
    assert _edits('"""Models.\n\nMore."""\n\nx = 1\nms', 5)["mscell"] == [
        (3, 0, "from mindspore import nn\n")
    ]
    # Right below the imports (or on the first line) the snippet itself starts with them:
    # an edit on the cursor's line would overlap the completion's own.
    items = {item.label: item for item in snippet_items("import numpy as np\nms", 1, 2)}
    assert items["mscell"].additional_text_edits is None
    assert (items["mscell"].insert_text or "").startswith("from mindspore import nn\n\n\nclass ")


def test_each_expansion_is_the_documented_python() -> None:
    for item in snippet_items("ms", 0, 2):
        assert item.kind == types.CompletionItemKind.Snippet
        assert item.insert_text_format == types.InsertTextFormat.Snippet
        assert isinstance(item.documentation, types.MarkupContent)
        code = expand_defaults(item.insert_text or "")
        ast.parse(code)
        assert code.rstrip().endswith(item.documentation.value.split("```python\n")[1][:-4])


# label -> (the document, cursor at its end; code run after the expanded snippet)
RUNS = {
    "mscell": (
        "mscell",
        """
import numpy as np
import mindspore as ms

ms.set_context(mode=ms.GRAPH_MODE)
out = Net()(ms.Tensor(np.ones((2, 16), np.float32)))
assert out.shape == (2, 4), out.shape
print("OK", out.shape)
""",
    ),
    "mstrain": (
        "import numpy as np\n\nnet = nn.Dense(16, 4)\nmstrain",
        """
data = ms.Tensor(np.ones((2, 16), np.float32))
loss = train_step(data, ms.Tensor(np.array([0, 1], np.int32)))
assert np.isfinite(loss.asnumpy()).all(), loss
print("OK", loss)
""",
    ),
    "msdata": (
        '"""A data pipeline."""\n\nmsdata',
        """
data, label = next(dataset.create_tuple_iterator(output_numpy=True))
assert data.shape == (32, 16) and label.dtype == np.int32, (data.shape, label.dtype)
print("OK", label[:8])
""",
    ),
}


def _offset(text: str, position: types.Position) -> int:
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: position.line]) + position.character


def _accept(text: str, item: types.CompletionItem) -> str:
    """The document after VS Code accepts `item` at the end of `text` with the defaults."""
    word = re.search(r"\w*$", text)
    assert word is not None
    edits = [(word.start(), len(text), expand_defaults(item.insert_text or ""))]
    for edit in item.additional_text_edits or []:
        start, end = _offset(text, edit.range.start), _offset(text, edit.range.end)
        assert end <= word.start(), "an additional edit overlaps the completion"
        edits.append((start, end, edit.new_text))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(RUNS))
async def test_expanded_snippet_runs_with_mindspore(
    client: LanguageClient, tmp_path: Path, label: str
) -> None:
    document, driver = RUNS[label]
    path = tmp_path / f"{label}.py"
    opened = types.TextDocumentItem(
        uri=path.as_uri(), language_id="python", version=1, text=document
    )
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=opened))
    lines = document.split("\n")
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=len(lines) - 1, character=len(lines[-1])),
        )
    )
    assert isinstance(result, types.CompletionList)
    found = {item.label: item for item in result.items}
    assert LABELS & set(found) == {label}  # the whole label typed: only its snippet
    program = _accept(document, found[label]) + "\n" + driver
    path.write_text(program)
    # Run from a file: GRAPH_MODE compiles `construct` from its source.
    run = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert run.returncode == 0 and "OK" in run.stdout, f"{program}\n{run.stdout}\n{run.stderr}"

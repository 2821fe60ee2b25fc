"""Layer context ranking through the real server over stdio, with VS Code's recorded client
capabilities: after `nn.Conv2d` in a Cell's `__init__`, the layers that usually follow rank
first, and every name is still offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.catalogue.load import catalogue_for

HEAD = """\
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
"""


async def _ranked(client: LanguageClient, path: Path, text: str) -> list[types.CompletionItem]:
    """Items at the end of `text`, in the order VS Code shows them with nothing typed."""
    uri = path.as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    lines = text.split("\n")
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=len(lines) - 1, character=len(lines[-1])),
        )
    )
    assert isinstance(result, types.CompletionList)
    return sorted(result.items, key=lambda i: (i.sort_text or i.label, i.label))


def _nn_names() -> set[str]:
    cat = catalogue_for("2.10.0")
    assert cat is not None
    return set(cat.members("mindspore.nn") or {})


@pytest.mark.slow
async def test_layers_that_follow_conv2d_rank_first(client: LanguageClient, tmp_path: Path) -> None:
    text = HEAD + "        self.conv = nn.Conv2d(3, 16, 3)\n        self.next = nn."
    items = await _ranked(client, tmp_path / "model.py", text)
    top = [item.label for item in items[:4]]
    assert top[:2] == ["BatchNorm2d", "ReLU"], top
    assert "Dense" not in top
    assert {item.label for item in items} == _nn_names()  # re-ranked, nothing dropped
    first = items[0]
    assert first.label_details is not None
    assert first.label_details.description == "often after Conv2d"


@pytest.mark.slow
async def test_the_previous_layer_decides_inside_a_sequential_list(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = HEAD + "        self.f = nn.SequentialCell([nn.Conv2d(3, 16, 3), nn.BatchNorm2d(16), nn."
    top = [item.label for item in (await _ranked(client, tmp_path / "seq.py", text))[:6]]
    assert top[0] == "ReLU" and "MaxPool2d" in top, top


@pytest.mark.slow
async def test_outside_a_cell_init_the_order_stays_alphabetical(
    client: LanguageClient, tmp_path: Path
) -> None:
    construct = HEAD + (
        "        self.conv = nn.Conv2d(3, 16, 3)\n\n    def construct(self, x):\n        y = nn."
    )
    module = "from mindspore import nn\nconv = nn.Conv2d(3, 16, 3)\nnext_layer = nn."
    for index, text in enumerate((construct, module)):
        items = await _ranked(client, tmp_path / f"plain{index}.py", text)
        labels = [item.label for item in items]
        assert labels.index("BatchNorm2d") > labels.index("AdaptiveAvgPool1d")
        assert not any((item.sort_text or "").startswith("00!") for item in items)
        assert {item.label for item in items} == _nn_names()

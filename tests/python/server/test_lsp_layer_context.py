"""Layer context ranking through the real server over stdio, with VS Code's recorded client
capabilities: after `nn.Conv2d` in a Cell's `__init__`, the layers that usually follow rank
first, and every name is still offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.analysis.layerstats.rank import followers
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


TYPED = """\
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(64, 10)

    def construct(self, x):
        return self.head(x)
"""


def _type(client: LanguageClient, uri: str, version: int, at: types.Position, text: str) -> None:
    """Inserts `text` at `at` as VS Code sends a keystroke: an incremental change."""
    change = types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text=text)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change],
        )
    )


async def _top_at(
    client: LanguageClient, uri: str, at: types.Position
) -> list[types.CompletionItem]:
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    assert isinstance(result, types.CompletionList)
    return sorted(result.items, key=lambda i: (i.sort_text or i.label, i.label))


@pytest.mark.slow
async def test_typing_a_layer_list_over_lines_ranks_by_the_element_above(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A file that parsed, then a `SequentialCell([` typed line by line: its brackets stay open
    while each `nn.` is completed, and the element above decides the order."""
    uri = (tmp_path / "typed.py").as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=TYPED)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    # The file parses: the server knows its blocks before the typing breaks them.
    opening = (await _top_at(client, uri, types.Position(7, len("        self.head = nn."))))[0]
    assert opening.label_details is not None and opening.label_details.description == "often first"
    steps = [
        # (text typed at the end of line 7, the cursor after it, the layer that decides)
        (
            "\n        self.features = nn.SequentialCell([\n            nn.",
            (9, 15),
            "SequentialCell",
        ),
        ("Conv2d(3, 64, 3, pad_mode='same'),\n            nn.", (10, 15), "Conv2d"),
        ("BatchNorm2d(64),\n            nn.", (11, 15), "BatchNorm2d"),
    ]
    end = types.Position(7, len("        self.head = nn.Dense(64, 10)"))
    for version, (typed, (line, character), previous) in enumerate(steps, start=2):
        _type(client, uri, version, end, typed)
        end = types.Position(line, character)
        items = await _top_at(client, uri, end)
        assert {i.label for i in items} == _nn_names()
        first = items[0]
        assert first.label_details is not None
        assert first.label_details.description == f"often after {previous}"
        assert [i.label for i in items[:3]] == followers(previous)[:3]
    # The list closed, then an element inserted between the Conv2d and the BatchNorm2d.
    _type(client, uri, 5, end, "ReLU(),\n        ])")
    conv_line = "            nn.Conv2d(3, 64, 3, pad_mode='same'),"
    _type(client, uri, 6, types.Position(9, len(conv_line)), "\n            nn.")
    items = await _top_at(client, uri, types.Position(10, 15))
    assert [i.label for i in items[:2]] == ["BatchNorm2d", "ReLU"]
    assert {i.label for i in items} == _nn_names()


@pytest.mark.slow
@pytest.mark.parametrize(
    "body",
    [
        "        self.f = nn.SequentialCell(\n            nn.Conv2d(3, 64, 3),\n            nn.",
        "        self.f = nn.CellList([\n            nn.Conv2d(3, 64, 3),\n            nn.",
        "        layers = [\n            nn.Conv2d(3, 64, 3),\n            nn.",
        "        layers = []\n"
        "        layers.append(nn.Conv2d(3, 64, 3))\n"
        "        layers.append(nn.",
    ],
    ids=["SequentialCell(", "CellList([", "layers = [", "layers.append"],
)
async def test_each_layer_list_form_ranks_the_followers_of_conv2d(
    client: LanguageClient, tmp_path: Path, body: str
) -> None:
    items = await _ranked(client, tmp_path / "forms.py", HEAD + body)
    top = [item.label for item in items[:2]]
    assert top == ["BatchNorm2d", "ReLU"], top
    assert {item.label for item in items} == _nn_names()

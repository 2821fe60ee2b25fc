"""MindSpore-aware completion, hover and signature help through the real server over stdio,
with VS Code's recorded client capabilities."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Optional

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mindscope_ls.catalogue.load import catalogue_for

REPO = Path(__file__).resolve().parents[3]
CATALOGUE = catalogue_for("2.10.0")
assert CATALOGUE is not None


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=(REPO / "examples").as_uri(),
        initialization_options={"warmUp": False},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    return uri


def _end_of(text: str, marker: str) -> types.Position:
    """The position just after the first `marker` in `text`."""
    offset = text.index(marker) + len(marker)
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


async def _items(
    client: LanguageClient, tmp_path: Path, text: str, marker: str
) -> dict[str, types.CompletionItem]:
    uri = _open(client, tmp_path / "model.py", text)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=_end_of(text, marker)
        )
    )
    assert isinstance(result, types.CompletionList)
    return {item.label: item for item in result.items}


def _names(namespace: str) -> set[str]:
    assert CATALOGUE is not None
    return set(CATALOGUE.members(namespace) or {})


IMPORT_STYLES = [
    ("import mindspore as ms\nms.ops.", "ms.ops.", "mindspore.ops"),
    ("from mindspore import nn, ops\nops.", "\nops.", "mindspore.ops"),
    ("from mindspore import nn, ops\nnn.", "\nnn.", "mindspore.nn"),
    ("import mindspore.ops as P\nP.", "\nP.", "mindspore.ops"),
    ("from mindspore.ops import functional as F\nF.", "\nF.", "mindspore.ops.functional"),
    ("from mindspore.ops import operations as P\nP.", "\nP.", "mindspore.ops.operations"),
    ("import mindspore\nmindspore.mint.", "mindspore.mint.", "mindspore.mint"),
    ("from mindspore.ops import *\nh = matmul(a, b)\nh.", "\nh.", "mindspore.Tensor"),
    ("import mindspore.dataset as ds\nds.vision.", "ds.vision.", "mindspore.dataset.vision"),
    ("import mindspore as ms\nms.", "\nms.", "mindspore"),
]


@pytest.mark.parametrize(("text", "marker", "namespace"), IMPORT_STYLES)
async def test_each_import_style_offers_exactly_the_runtime_names(
    client: LanguageClient, tmp_path: Path, text: str, marker: str, namespace: str
) -> None:
    items = await _items(client, tmp_path, text, marker)
    # Both ways: every name the builder found on the live module, and nothing else.
    assert set(items) == _names(namespace)


async def test_star_import_resolves_to_the_object_mindspore_exposes(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = "from mindspore.ops import *\nfrom mindspore import nn\nmatmul(x, "
    uri = _open(client, tmp_path / "star.py", text)
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=_end_of(text, "x, ")
        )
    )
    assert help_ is not None and help_.signatures[0].label == "ops.matmul(input, other)"
    assert help_.active_parameter == 1


TENSOR_CASES = [
    "class Net(nn.Cell):\n    def construct(self, x):\n        x.",
    "class Net(nn.Cell):\n    def construct(self, x):\n        h = ops.matmul(x, x)\n        h.",
    "def f(x: ms.Tensor):\n    x.",
    "y = ms.Tensor([1.0])\ny.",
    "@ms.jit\ndef step(x):\n    x.",
    "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
    "        self.fc = nn.Dense(2, 2)\n\n"
    "    def construct(self, x):\n        y = self.fc(x)\n        y.",
    "def f(x: ms.Tensor):\n    y = x.sum()\n    y.",
    "def f(x: ms.Tensor):\n    y = (x + 1)[0]\n    y.",
]


@pytest.mark.parametrize("body", TENSOR_CASES)
async def test_tensor_methods_on_values_that_are_tensors(
    client: LanguageClient, tmp_path: Path, body: str
) -> None:
    text = f"import mindspore as ms\nfrom mindspore import nn, ops\n\n{body}\n"
    marker = body.rsplit("\n", 1)[-1]
    items = await _items(client, tmp_path, text, marker)
    assert set(items) == _names("mindspore.Tensor")
    assert items["sum"].kind == types.CompletionItemKind.Method


MODEL = """import mindspore as ms
from mindspore import nn, ops, Parameter


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.act = nn.ReLU()
        self.scale = Parameter(ms.Tensor([1.0]), name="scale")

    def helper(self, x):
        return x

    def construct(self, x):
        y = self.conv(x)
        self.
"""


async def test_self_lists_sub_cells_and_parameters_with_types(
    client: LanguageClient, tmp_path: Path
) -> None:
    items = await _items(client, tmp_path, MODEL, "(x)\n        self.")
    assert items["conv"].detail == "nn.Conv2d"
    assert items["act"].detail == "nn.ReLU"
    assert items["scale"].detail == "Parameter"
    assert items["helper"].kind == types.CompletionItemKind.Method
    assert "set_train" in items  # the Cell API comes after the file's own members
    ranked = sorted(items.values(), key=lambda i: i.sort_text or "")
    assert {i.label for i in ranked[:3]} == {"conv", "act", "scale"}


async def test_in_construct_graph_unusable_apis_rank_last_and_are_marked(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = "import mindspore as ms\nfrom mindspore import nn\n\nclass N(nn.Cell):\n"
    text += "    def construct(self, x):\n        ms.\n"
    items = await _items(client, tmp_path, text, "        ms.")
    assert items["set_seed"].label_details is not None
    assert items["set_seed"].label_details.description == "not in graph mode"
    assert (items["set_seed"].sort_text or "") > (items["Tensor"].sort_text or "")
    outside = await _items(client, tmp_path, "import mindspore as ms\nms.", "\nms.")
    assert outside["set_seed"].label_details is not None
    assert outside["set_seed"].label_details.description is None


async def test_deprecated_apis_are_tagged_and_ranked_last(
    client: LanguageClient, tmp_path: Path
) -> None:
    items = await _items(client, tmp_path, "from mindspore import ops\nops.", "\nops.")
    assert list(items["floor_div"].tags or []) == [types.CompletionItemTag.Deprecated]
    assert not items["floor_divide"].tags
    last = max(i.sort_text or "" for i in items.values() if not i.tags)
    assert (items["floor_div"].sort_text or "") > last


async def _hover(client: LanguageClient, uri: str, text: str, marker: str) -> str:
    at = _end_of(text, marker)
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=at.line, character=at.character - 1),
        )
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def test_hover_shows_the_real_signature_summary_graph_note_and_link(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = "from mindspore import ops\ny = ops.matmul(a, b)\nz = ops.floor_div(a, b)\n"
    uri = _open(client, tmp_path / "hover.py", text)
    value = await _hover(client, uri, text, "ops.matmul")
    assert "mindspore.ops.matmul(input, other)" in value
    assert "matrix product" in value and "Graph mode" in value
    assert (
        "https://www.mindspore.cn/docs/en/r2.10.0/api_python/ops/mindspore.ops.matmul.html" in value
    )
    deprecated = await _hover(client, uri, text, "ops.floor_div")
    assert "**Deprecated**" in deprecated and "mindspore.ops.floor_divide" in deprecated


async def test_signature_help_for_sub_cell_calls_and_keywords(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = MODEL.replace(
        "        self.\n", "        z = self.conv(y)\n        ops.matmul(y, other="
    )
    uri = _open(client, tmp_path / "sig.py", text)

    async def signature(marker: str) -> Optional[types.SignatureHelp]:
        return await client.text_document_signature_help_async(
            types.SignatureHelpParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=_end_of(text, marker),
            )
        )

    cell = await signature("self.conv(")
    assert cell is not None and cell.signatures[0].label == "nn.Conv2d.construct(x)"
    keyword = await signature("other=")
    assert keyword is not None and keyword.active_parameter == 1
    params = keyword.signatures[0].parameters or []
    doc = params[1].documentation
    assert isinstance(doc, types.MarkupContent) and "second input tensor" in doc.value


async def test_resolve_adds_the_documentation(client: LanguageClient, tmp_path: Path) -> None:
    items = await _items(client, tmp_path, "from mindspore import ops\nops.", "\nops.")
    resolved = await client.completion_item_resolve_async(items["matmul"])
    assert isinstance(resolved.documentation, types.MarkupContent)
    assert "matmul(input, other)" in resolved.documentation.value

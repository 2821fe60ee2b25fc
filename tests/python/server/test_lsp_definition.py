"""Go to definition through the real server over stdio, with VS Code's recorded client
capabilities: MindSpore names land in the installed MindSpore sources, others where jedi
says."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from mindscope_ls.analysis.definition import mindspore_root

SOURCE = """\
import mindspore as ms
from mindspore import nn, ops


def helper(x):
    return x


y = ops.matmul(ms.Tensor([[1.0]]), ms.Tensor([[2.0]]))
layer = nn.Conv2d(3, 16, 3)
z = helper(y)
w = unknown_name
"""


def _position(marker: str, inside: int = 1) -> types.Position:
    """A position `inside` characters into the first `marker` of SOURCE."""
    offset = SOURCE.index(marker) + inside
    line = SOURCE.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (SOURCE.rfind("\n", 0, offset) + 1))


async def _definition(
    client: LanguageClient, uri: str, position: types.Position
) -> list[types.Location]:
    found = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=position
        )
    )
    if found is None:
        return []
    assert isinstance(found, list)
    return [item for item in found if isinstance(item, types.Location)]


def _line_at(location: types.Location) -> tuple[Path, str]:
    path = Path(unquote(urlparse(location.uri).path))
    text = path.read_text(encoding="utf-8").split("\n")[location.range.start.line]
    return path, text[location.range.start.character :]


@pytest.mark.slow
async def test_mindspore_names_land_in_the_installed_sources(
    client: LanguageClient, tmp_path: Path
) -> None:
    root = mindspore_root()
    assert root is not None and "site-packages" in root.parts
    uri = (tmp_path / "model.py").as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SOURCE)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    cases = [
        ("ops.matmul", len("ops.ma"), "matmul", "def "),
        ("nn.Conv2d", len("nn.Con"), "Conv2d", "class "),
        ("ms.Tensor", len("ms.Te"), "Tensor", "class "),
    ]
    for marker, inside, name, keyword in cases:
        (location,) = await _definition(client, uri, _position(marker, inside))
        path, text = _line_at(location)
        assert root in path.parents, (marker, path)
        assert text.startswith(name), (marker, text)
        whole = path.read_text(encoding="utf-8").split("\n")[location.range.start.line]
        assert whole.lstrip().startswith(f"{keyword}{name}"), (marker, whole)


@pytest.mark.slow
async def test_other_names_go_where_jedi_says(client: LanguageClient, tmp_path: Path) -> None:
    uri = (tmp_path / "model.py").as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="python", version=1, text=SOURCE)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    (location,) = await _definition(client, uri, _position("helper(y)"))
    assert location.uri == uri and location.range.start == _position("helper(x)", 0)
    assert await _definition(client, uri, _position("unknown_name")) == []

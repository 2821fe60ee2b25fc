"""`mindscope/cellClasses` from the real server over stdio (pytest-lsp): the `nn.Cell`
subclasses the extension's CodeLens shows, found by the checker's class table, from the open
document or the file on disk, and an empty list (never an error) for anything else."""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_lsp
from pytest_lsp import LanguageClient

from mindscope_runtime.schemacheck import load_schema, validate

from ..diagnostics.lsp_session import CONFIG, initialize_params, open_document

SCHEMA = load_schema(Path(__file__).parents[3] / "schemas" / "cell-classes.schema.json")

MODELS = textwrap.dedent(
    """\
    import mindspore.nn as mnn
    from mindspore.nn import Cell as Base
    from blocks import Block


    class Plain:
        pass


    class Net(mnn.Cell):
        def construct(self, x):
            return x


    class Wrapped(Base):
        pass


    class Deeper(Net):
        pass


    class FromOtherFile(Block):
        pass


    def helper():
        class Inner(mnn.Cell):
            pass
        return Inner
    """
)


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    # On disk before the session: the workspace index has it when the request comes.
    (tmp_path / "blocks.py").write_text(
        "from mindspore import nn\n\nclass Block(nn.Cell):\n    pass\n", encoding="utf-8"
    )
    await lsp_client.initialize_session(initialize_params(tmp_path))
    yield
    await lsp_client.shutdown_session()


async def cell_classes(client: LanguageClient, params: Any) -> list[tuple[Any, ...]]:
    # pygls' custom requests are untyped; the answer comes back as namedtuples.
    result = await client.protocol.send_request_async("mindscope/cellClasses", params)  # type: ignore[no-untyped-call]
    cells = [(c.name, c.line, c.character, c.endLine, c.kind) for c in result.cells]
    keys = ("name", "line", "character", "endLine", "kind")
    problems = validate({"cells": [dict(zip(keys, c)) for c in cells]}, SCHEMA)
    assert problems == [], problems  # the shape of the contract
    return cells


async def test_the_cells_of_an_open_document(client: LanguageClient, tmp_path: Path) -> None:
    uri = (tmp_path / "models.py").as_uri()
    open_document(client, uri, MODELS)
    # The workspace index (blocks.py) is built in the background; until then the file is read
    # on its own.
    found = await cell_classes(client, {"textDocument": {"uri": uri}})
    for _ in range(300):
        if len(found) == 5:
            break
        await asyncio.sleep(0.1)
        found = await cell_classes(client, {"textDocument": {"uri": uri}})
    assert found == [
        ("Net", 9, 0, 11, "cell"),
        ("Wrapped", 14, 0, 15, "cell"),
        ("Deeper", 18, 0, 19, "cell"),
        ("FromOtherFile", 22, 0, 23, "cell"),  # its base is a Cell in blocks.py
        ("Inner", 27, 4, 28, "cell"),
    ]


async def test_a_file_not_open_is_read_from_disk(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "ondisk.py"
    path.write_text("from mindspore import nn\n\n\nclass OnDisk(nn.Cell):\n    pass\n")
    assert await cell_classes(client, {"textDocument": {"uri": path.as_uri()}}) == [
        ("OnDisk", 3, 0, 4, "cell")
    ]


async def test_broken_code_and_bad_params_give_an_empty_list(
    client: LanguageClient, tmp_path: Path
) -> None:
    broken = (tmp_path / "broken.py").as_uri()
    open_document(client, broken, "from mindspore import nn\nclass (nn.Cell:\n  ]\x00")
    assert await cell_classes(client, {"textDocument": {"uri": broken}}) == []
    missing = (tmp_path / "missing.py").as_uri()
    assert await cell_classes(client, {"textDocument": {"uri": missing}}) == []
    assert await cell_classes(client, {"textDocument": {}}) == []
    assert await cell_classes(client, {}) == []
    # Still answering after all that.
    fine = (tmp_path / "fine.py").as_uri()
    open_document(client, fine, "from mindspore import nn\nclass Net(nn.Cell):\n    pass\n")
    assert await cell_classes(client, {"textDocument": {"uri": fine}}) == [("Net", 1, 0, 2, "cell")]


async def test_a_notebook_cell_sees_the_cells_above(client: LanguageClient, tmp_path: Path) -> None:
    notebook = tmp_path / "nb.ipynb"
    first = f"vscode-notebook-cell://{notebook}#W0sZmlsZQ%3D%3D"
    second = f"vscode-notebook-cell://{notebook}#W1sZmlsZQ%3D%3D"
    open_document(client, first, "from mindspore import nn\nclass A(nn.Cell):\n    pass\n")
    open_document(client, second, "%time\nclass B(A):\n    pass\n")
    assert await cell_classes(client, {"textDocument": {"uri": second}}) == [("B", 1, 0, 2, "cell")]

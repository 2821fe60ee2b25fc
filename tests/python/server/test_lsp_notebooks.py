"""Notebooks synced as notebooks (LSP notebook document sync, as VS Code does when the server
asks for it): completion, hover and signature help in a cell see the other cells, and the
cells are still checked."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import attrs
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from ..diagnostics.lsp_session import wait_diagnostics
from .session import open_session

INIT: list[types.InitializeResult] = []
# pytest-lsp's recorded VS Code (1.65) predates notebook sync; the extension's
# vscode-languageclient 9 adds this, and pygls only offers the sync to clients that do.
CAPABILITIES = attrs.evolve(
    client_capabilities("visual-studio-code"),
    notebook_document=types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities(
            dynamic_registration=True, execution_summary_support=True
        )
    ),
)


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "mindscope_ls"]),
)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[None]:
    INIT[:] = [await open_session(lsp_client, tmp_path, CAPABILITIES)]
    yield
    await lsp_client.shutdown_session()


def _cell(notebook: Path, index: int) -> str:
    return f"vscode-notebook-cell://{notebook}#W{index}sZmlsZQ%3D%3D"


def _open_notebook(client: LanguageClient, notebook: Path, cells: list[str]) -> list[str]:
    uris = [_cell(notebook, i) for i in range(len(cells))]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook.as_uri(),
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=types.NotebookCellKind.Code, document=uri)
                    for uri in uris
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
                for uri, text in zip(uris, cells)
            ],
        )
    )
    return uris


def _end(text: str) -> types.Position:
    lines = text.split("\n")
    return types.Position(line=len(lines) - 1, character=len(lines[-1]))


async def _labels(client: LanguageClient, uri: str, at: types.Position) -> set[str]:
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=at)
    )
    items = result.items if isinstance(result, types.CompletionList) else result or []
    return {item.label for item in items}


async def test_the_server_asks_for_notebook_sync(client: LanguageClient) -> None:
    (init,) = INIT
    sync = init.capabilities.notebook_document_sync
    assert isinstance(sync, types.NotebookDocumentSyncOptions)
    notebooks = [getattr(f, "notebook", None) for f in sync.notebook_selector]
    assert "jupyter-notebook" in notebooks


async def test_a_cell_sees_the_imports_of_the_cells_above(
    client: LanguageClient, tmp_path: Path
) -> None:
    notebook = tmp_path / "explore.ipynb"
    cells = ["%matplotlib inline\nimport mindspore as ms\n", "x = 1\nms."]
    uris = _open_notebook(client, notebook, cells)
    labels = await _labels(client, uris[1], _end(cells[1]))
    assert {"Tensor", "ops", "nn"} <= labels


async def test_definitions_of_other_cells_complete_hover_and_help(
    client: LanguageClient, tmp_path: Path
) -> None:
    notebook = tmp_path / "model.ipynb"
    cells = [
        "from mindspore import nn",
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Dense(2, 2)\n\n    def construct(self, x):\n        return x\n",
        "# markdown would sit between",
        "net = Net()\nnet.",
    ]
    uris = _open_notebook(client, notebook, cells)
    assert "fc" in await _labels(client, uris[3], _end(cells[3]))
    assert "Conv2d" in await _labels(client, uris[1], types.Position(line=3, character=21))
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uris[1]),
            position=types.Position(line=3, character=21),
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "nn.Dense" in hover.contents.value
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=types.TextDocumentIdentifier(uri=uris[1]),
            position=types.Position(line=3, character=len("        self.fc = nn.Dense(")),
        )
    )
    assert help_ is not None and "in_channels" in help_.signatures[0].label


async def test_edits_and_new_cells_are_seen(client: LanguageClient, tmp_path: Path) -> None:
    notebook = tmp_path / "edit.ipynb"
    uris = _open_notebook(client, notebook, ["", "y = ops."])
    assert "matmul" not in await _labels(client, uris[1], _end("y = ops."))
    # the first cell gets an import typed into it
    client.notebook_document_did_change(
        _change(notebook, 2, text=(uris[0], "from mindspore import ops\n"))
    )
    assert "matmul" in await _labels(client, uris[1], _end("y = ops."))
    # a new cell above the last one binds `ms`
    new = _cell(notebook, 7)
    client.notebook_document_did_change(
        _change(notebook, 3, structure=(1, new, "import mindspore as ms\n"))
    )
    client.notebook_document_did_change(_change(notebook, 4, text=(uris[1], "y = ops.\nms.")))
    assert "Tensor" in await _labels(client, uris[1], types.Position(line=1, character=3))


def _change(notebook: Path, version: int, **what: Any) -> types.DidChangeNotebookDocumentParams:
    cells = types.NotebookDocumentCellChanges()
    if "text" in what:
        uri, text = what["text"]
        cells.text_content = [
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        ]
    if "structure" in what:
        at, uri, text = what["structure"]
        cells.structure = types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(
                start=at,
                delete_count=0,
                cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=uri)],
            ),
            did_open=[types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)],
        )
    return types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(
            uri=notebook.as_uri(), version=version
        ),
        change=types.NotebookDocumentChangeEvent(cells=cells),
    )


async def test_cells_synced_as_a_notebook_are_checked(
    client: LanguageClient, tmp_path: Path
) -> None:
    notebook = tmp_path / "checked.ipynb"
    cells = [
        "from mindspore import nn",
        "class Net(nn.Cell):\n    def construct(self, x):\n        try:\n            return x\n"
        "        except Exception:\n            return x\n",
    ]
    uris = _open_notebook(client, notebook, cells)
    found = await wait_diagnostics(client, uris[1], lambda d: len(d) > 0)
    assert [str(d.code) for d in found] == ["MS101"]
    assert found[0].range.start.line == 2  # the `try` in this cell


async def test_a_layer_list_typed_in_a_cell_ranks_by_the_layer_above(
    client: LanguageClient, tmp_path: Path
) -> None:
    """`nn` comes from the first cell; the half-typed list in the second leaves its class
    unparsable, and the layer above the cursor still decides the order."""
    notebook = tmp_path / "layers.ipynb"
    cells = [
        "%matplotlib inline\nimport mindspore.nn as nn",
        "class Net(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        "        self.features = nn.SequentialCell([\n            nn.Conv2d(3, 16, 3),\n"
        "            nn.",
    ]
    uris = _open_notebook(client, notebook, cells)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uris[1]), position=_end(cells[1])
        )
    )
    assert isinstance(result, types.CompletionList)
    shown = sorted(result.items, key=lambda i: (i.sort_text or i.label, i.label))
    assert [i.label for i in shown[:2]] == ["BatchNorm2d", "ReLU"]
    assert shown[0].label_details is not None
    assert shown[0].label_details.description == "often after Conv2d"


HEAD_CELL = "class Head(Block):\n    def construct(self, x):\n        del x\n        return 1\n"


async def test_a_cells_diagnostics_see_definitions_above_it_not_below(
    client: LanguageClient, tmp_path: Path
) -> None:
    """One notebook model for every feature: `Block`, defined (not imported) in an earlier
    cell, makes `Head` a Cell whose `del` fails to compile; a Block defined only in a later
    cell does not count, and an edit above re-checks the cells below."""
    above = tmp_path / "above.ipynb"
    block = "from mindspore import nn\n\nclass Block(nn.Cell):\n    pass\n"
    uris = _open_notebook(client, above, [block, HEAD_CELL])
    found = await wait_diagnostics(client, uris[1], lambda d: len(d) > 0)
    assert [str(d.code) for d in found] == ["MS102"]
    assert found[0].range.start.line == 2  # the `del` in this cell
    assert await wait_diagnostics(client, uris[0], lambda d: True) == []

    below = tmp_path / "below.ipynb"
    later = _open_notebook(client, below, ["from mindspore import nn", HEAD_CELL, block])
    await wait_diagnostics(client, later[2], lambda d: True)  # checked after the others
    assert await wait_diagnostics(client, later[1], lambda d: True) == []

    # Block stops being a Cell in the first cell: the second one is checked again.
    client.notebook_document_did_change(
        _change(above, 2, text=(uris[0], "class Block:\n    pass\n"))
    )
    assert await wait_diagnostics(client, uris[1], lambda d: len(d) == 0) == []


async def test_a_cell_does_not_complete_names_of_later_cells(
    client: LanguageClient, tmp_path: Path
) -> None:
    notebook = tmp_path / "order.ipynb"
    uris = _open_notebook(client, notebook, ["early_value = 1\nea", "early_later = 2"])
    labels = await _labels(client, uris[0], types.Position(line=1, character=2))
    assert "early_value" in labels and "early_later" not in labels

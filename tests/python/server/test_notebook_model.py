"""The one notebook model (documents/notebook.py), on a real pygls workspace: a cell's program
is the code cells up to it in notebook order, whichever feature asks."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import Workspace

from mindscope_ls.documents.notebook import (
    CELL_SCHEME,
    cell_view,
    later_cells,
    notebook_of,
    program,
)

NOTEBOOK = "/tmp/model.ipynb"


def _cell(index: int) -> str:
    return f"{CELL_SCHEME}://{NOTEBOOK}#W{index}sZmlsZQ%3D%3D"


def _workspace(cells: list[tuple[types.NotebookCellKind, str]]) -> Workspace:
    workspace = Workspace(None)
    uris = [_cell(i) for i in range(len(cells))]
    workspace.put_notebook_document(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=f"file://{NOTEBOOK}",
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=kind, document=uri)
                    for uri, (kind, _) in zip(uris, cells)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
                for uri, (_, text) in zip(uris, cells)
            ],
        )
    )
    return workspace


CODE, MARKUP = types.NotebookCellKind.Code, types.NotebookCellKind.Markup


def test_a_cell_sees_the_cells_above_it_and_not_those_below() -> None:
    workspace = _workspace(
        [
            (CODE, "%matplotlib inline\nfrom mindspore import nn"),
            (MARKUP, "# not code"),
            (CODE, "class Net(nn.Cell):\n    pass"),
            (CODE, "LATER = 1"),
        ]
    )
    view = cell_view(workspace, _cell(2))
    assert view is not None
    assert view.source == "\nfrom mindspore import nn\nclass Net(nn.Cell):\n    pass"
    assert view.offset == 2  # the cell's first line in the program
    assert "LATER" not in view.source and "not code" not in view.source
    assert view.key == f"file://{NOTEBOOK}"
    first = cell_view(workspace, _cell(0))
    assert first is not None and first.offset == 0 and "Net" not in first.source


def test_an_earlier_cell_that_does_not_parse_is_blank_lines_in_the_program() -> None:
    source, offset = program(["import mindspore as ms\nx = (", "y = ms.Tensor", "ok = 1"], 2)
    assert source == "\n\ny = ms.Tensor\nok = 1"  # the broken first cell keeps its two lines
    assert offset == 3
    # The cell itself is kept as typed, broken or not.
    source, offset = program(["import mindspore as ms", "y = ms."], 1)
    assert source == "import mindspore as ms\ny = ms." and offset == 1


def test_later_cells_and_notebook_of() -> None:
    workspace = _workspace([(CODE, "a = 1"), (MARKUP, "text"), (CODE, "b = a"), (CODE, "c = b")])
    assert later_cells(workspace, _cell(0)) == [_cell(2), _cell(3)]
    assert later_cells(workspace, _cell(3)) == []
    assert notebook_of(_cell(0)) == NOTEBOOK
    assert notebook_of(f"file://{NOTEBOOK}") is None
    assert cell_view(workspace, "file:///tmp/other.py") is None

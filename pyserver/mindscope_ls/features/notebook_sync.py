"""LSP notebook document sync: VS Code then sends a notebook's cells with the notebook (their
order included) instead of as loose documents. pygls keeps the cells as text documents;
this module schedules their checks (services/check_scheduler.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mindscope_ls.services.check_scheduler import CheckScheduler

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer

_PYTHON_CELLS = [types.NotebookCellLanguage(language="python")]
SYNC_OPTIONS = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(cells=_PYTHON_CELLS, notebook="jupyter-notebook"),
        types.NotebookDocumentFilterWithCells(cells=_PYTHON_CELLS, notebook="interactive"),
    ],
    save=False,
)


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def on_open(ls: MindScopeServer, params: types.DidOpenNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            checks.schedule(cell.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def on_change(ls: MindScopeServer, params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        if cells is None:
            return
        structure = cells.structure
        for closed in (structure.did_close or []) if structure else []:
            checks.forget(closed.uri)
        if structure is not None:
            # Cells came or went: the programs of the cells around them changed (debounced).
            notebook = ls.workspace.get_notebook_document(notebook_uri=params.notebook_document.uri)
            for cell in notebook.cells if notebook is not None else []:
                checks.schedule(cell.document)
        for text in cells.text_content or []:
            checks.schedule_changed(text.document.uri)  # and the cells below it

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def on_close(ls: MindScopeServer, params: types.DidCloseNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            checks.forget(cell.uri)

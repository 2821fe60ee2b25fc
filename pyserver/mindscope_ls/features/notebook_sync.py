"""LSP notebook document sync: VS Code then sends a notebook's cells with the notebook (their
order included) instead of as loose documents. pygls keeps the cells as text documents;
this module checks them as the diagnostics did when they arrived as loose documents."""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mindscope_ls.services.check_scheduler import DiagnosticsService

_PYTHON_CELLS = [types.NotebookCellLanguage(language="python")]
SYNC_OPTIONS = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(cells=_PYTHON_CELLS, notebook="jupyter-notebook"),
        types.NotebookDocumentFilterWithCells(cells=_PYTHON_CELLS, notebook="interactive"),
    ],
    save=False,
)


def register(server: LanguageServer, checks: DiagnosticsService) -> None:
    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def on_open(ls: LanguageServer, params: types.DidOpenNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            checks.schedule(cell.uri, 0)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def on_change(ls: LanguageServer, params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        if cells is None:
            return
        structure = cells.structure
        for closed in (structure.did_close or []) if structure else []:
            checks.forget(closed.uri)
        if structure is not None:
            # Cells came or went: another cell's imports may have too (checks are debounced).
            notebook = ls.workspace.get_notebook_document(notebook_uri=params.notebook_document.uri)
            for cell in notebook.cells if notebook is not None else []:
                checks.schedule(cell.document)
        for text in cells.text_content or []:
            checks.schedule(text.document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def on_close(ls: LanguageServer, params: types.DidCloseNotebookDocumentParams) -> None:
        for cell in params.cell_text_documents:
            checks.forget(cell.uri)

"""A notebook cell as part of its notebook: completion, hover and signature help in a cell see
the imports and definitions of the other cells, as the kernel that runs them does.

The notebook's code cells are joined, in order, into one program (IPython magics blanked, so
line numbers stay put); a request in a cell becomes a request at the cell's line in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional
from urllib.parse import unquote, urlsplit

import attrs
from lsprotocol import types
from pygls.workspace import Workspace

from mindscope_ls.checker.cellcontext import blank_magics

CELL_SCHEME = "vscode-notebook-cell"


@dataclass(frozen=True)
class CellView:
    source: str  # the notebook's code cells as one program
    offset: int  # the line of `source` where the cell starts
    key: str  # names the program for the parse cache: the notebook


def cell_view(workspace: Workspace, uri: str) -> Optional[CellView]:
    """The program around cell `uri`; None when `uri` is no notebook cell."""
    notebook = workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        key = notebook.uri
        cells = [c.document for c in notebook.cells if c.kind == types.NotebookCellKind.Code]
    else:
        # Cells synced as plain documents (a client without notebook sync): open order.
        key = _notebook_path(uri) or ""
        if not key:
            return None
        cells = [u for u in workspace.text_documents if _notebook_path(u) == key]
    mine = unquote(uri)
    texts: list[str] = []
    offset: Optional[int] = None
    lines = 0
    for cell in cells:
        if unquote(cell) == mine:
            offset = lines
        document = workspace.text_documents.get(unquote(cell))
        if document is None:
            continue
        text = blank_magics(document.source)
        texts.append(text)
        lines += text.count("\n") + 1
    if offset is None:
        return None
    return CellView("\n".join(texts), offset, key)


def _notebook_path(uri: str) -> Optional[str]:
    parts = urlsplit(uri)
    return parts.path if parts.scheme == CELL_SCHEME else None


def to_cell(items: list[types.CompletionItem], offset: int) -> list[types.CompletionItem]:
    """Items whose edits were computed on the notebook's program, with lines of the cell; an
    edit above the cell (an import a snippet adds) goes to the cell's first line."""
    out: list[types.CompletionItem] = []
    for item in items:
        if item.text_edit is None and not item.additional_text_edits:
            out.append(item)
            continue
        edits = [_edit_to_cell(edit, offset) for edit in item.additional_text_edits or []]
        text_edit = item.text_edit
        if isinstance(text_edit, types.TextEdit):
            text_edit = _edit_to_cell(text_edit, offset)
        elif isinstance(text_edit, types.InsertReplaceEdit):
            text_edit = attrs.evolve(
                text_edit,
                insert=_range_to_cell(text_edit.insert, offset),
                replace=_range_to_cell(text_edit.replace, offset),
            )
        out.append(attrs.evolve(item, text_edit=text_edit, additional_text_edits=edits or None))
    return out


def _edit_to_cell(edit: types.TextEdit, offset: int) -> types.TextEdit:
    return attrs.evolve(edit, range=_range_to_cell(edit.range, offset))


def _range_to_cell(at: types.Range, offset: int) -> types.Range:
    return types.Range(start=_position(at.start, offset), end=_position(at.end, offset))


def _position(at: types.Position, offset: int) -> types.Position:
    if at.line < offset:
        return types.Position(line=0, character=0)
    return types.Position(line=at.line - offset, character=at.character)

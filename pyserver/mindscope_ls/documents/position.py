"""Where a request is: its position in the program it belongs to (the document, or for a
notebook cell the cell's program, documents/notebook.py), in code points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mindscope_ls.documents.notebook import cell_view


@dataclass(frozen=True)
class At:
    """A request's position in the program it belongs to: the document, or for a notebook
    cell the notebook's cells joined (`offset`: the cell's first line in it)."""

    source: str
    line: int
    character: int  # code points (LSP counts UTF-16 units)
    path: Optional[str]
    doc: str  # names the program for the parse cache
    offset: int = 0


def request_at(ls: LanguageServer, uri: str, position: types.Position) -> At:
    document = ls.workspace.get_text_document(uri)
    at = document.position_codec.position_from_client_units(document.lines, position)
    view = cell_view(ls.workspace, uri)
    if view is None:
        return At(document.source, at.line, at.character, document.path, uri)
    line = at.line + view.offset
    return At(view.source, line, at.character, document.path, view.key, view.offset)

"""The one notebook model: a code cell is part of its notebook's program.

A cell's program is the notebook's code cells from the first one to that cell, in notebook
order, joined into one text (IPython magics blanked, so line numbers stay put), as the kernel
that runs them top to bottom sees it. Completion, hover, signature help, definition and the
diagnostics all read a cell through `cell_view`, so a cell sees the same program everywhere:
what earlier cells define and import, never what later cells do. An earlier cell that does not
parse on its own (being typed) is left out as blank lines: it would break the cells below.

Plain functions over pygls's workspace (imported for types only): the kernel imports this
module too, for `prepare` and `blank_magics`, in an interpreter that may have no pygls.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Optional
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from pygls.workspace import Workspace

CELL_SCHEME = "vscode-notebook-cell"
_MAGIC_LINE = re.compile(r"^\s*[%!]")
_CODE_CELL = 2  # lsprotocol's NotebookCellKind.Code, without importing lsprotocol


def notebook_of(uri: str) -> Optional[str]:
    """The path of the notebook a cell URI belongs to; None for any other document."""
    parts = urlsplit(uri)
    return parts.path if parts.scheme == CELL_SCHEME else None


def blank_magics(code: str) -> str:
    """IPython magics and shell escapes become empty lines, so line numbers stay put."""
    return "\n".join("" if _MAGIC_LINE.match(line) else line for line in code.split("\n"))


@lru_cache(maxsize=1024)
def _as_earlier_cell(source: str) -> str:
    """An earlier cell's text in its program: magics blanked; blank lines if it does not parse."""
    text = blank_magics(source)
    try:
        compile(text, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except (SyntaxError, ValueError):
        return "\n" * text.count("\n")
    return text


@dataclass(frozen=True)
class CellView:
    source: str  # the program: the code cells up to this one, joined
    offset: int  # the line of `source` where the cell starts
    key: str  # names the program for the parse cache: the notebook


def program(cells: list[str], index: int) -> tuple[str, int]:
    """The program of cell `index` of `cells` (code cells in notebook order) and the line it
    starts at."""
    texts = [_as_earlier_cell(cell) for cell in cells[:index]]
    texts.append(blank_magics(cells[index]))
    offset = sum(text.count("\n") + 1 for text in texts[:-1])
    return "\n".join(texts), offset


def notebook_cells(workspace: Workspace, uri: str) -> Optional[tuple[str, list[str]]]:
    """The notebook of cell `uri` (its key) and its code cells' URIs in notebook order; None
    when `uri` is no notebook cell."""
    notebook = workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        return notebook.uri, [c.document for c in notebook.cells if c.kind == _CODE_CELL]
    # Cells synced as plain documents (a client without notebook sync): open order.
    key = notebook_of(uri)
    if not key:
        return None
    return key, [u for u in workspace.text_documents if notebook_of(u) == key]


def cell_view(workspace: Workspace, uri: str) -> Optional[CellView]:
    """The program of cell `uri`; None when `uri` is no notebook cell."""
    found = notebook_cells(workspace, uri)
    if found is None:
        return None
    key, cells = found
    mine = unquote(uri)
    texts: list[str] = []
    for cell in cells:
        document = workspace.text_documents.get(unquote(cell))
        if document is not None:
            texts.append(document.source)
        if unquote(cell) == mine:
            if document is None:
                return None
            source, offset = program(texts, len(texts) - 1)
            return CellView(source, offset, key)
    return None


def later_cells(workspace: Workspace, uri: str) -> list[str]:
    """The code cells after cell `uri`: their programs include it."""
    found = notebook_cells(workspace, uri)
    if found is None:
        return []
    cells = found[1]  # as the client spells them: diagnostics are published under these
    keys = [unquote(c) for c in cells]
    mine = unquote(uri)
    return cells[keys.index(mine) + 1 :] if mine in keys else []


# The kernel checks a cell with the imports of the cells it ran before (kernel/cellsource.py).


@dataclass(frozen=True)
class Prepared:
    source: str
    offset: int


def imports_of(sources: Iterable[str]) -> list[str]:
    found: list[str] = []
    for source in sources:
        try:
            tree = ast.parse(blank_magics(source))
        except (SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                text = ast.unparse(node)
                if text not in found:
                    found.append(text)
    return found


def prepare(code: str, others: Iterable[str]) -> Prepared:
    """`code` with the imports of `others` in front; `offset` lines to take off findings."""
    header = imports_of(others)
    return Prepared("\n".join([*header, blank_magics(code)]), len(header))

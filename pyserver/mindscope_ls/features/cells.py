"""`mindscope/cellClasses`: the `nn.Cell` subclasses of a document, for the extension's
CodeLens. Params `{"textDocument": {"uri"}}`; result `{"cells": [{"name", "line",
"character", "endLine", "kind": "cell"}]}` (0-based). Answered from the open document (a
notebook cell: its program, documents/notebook.py) or the file on disk; broken code, an unknown
document or bad params give an empty list, never an error."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlsplit

from pygls.uris import to_fs_path

from mindscope_ls.analysis.cells import CellClass, cell_classes
from mindscope_ls.documents.notebook import cell_view
from mindscope_ls.documents.text import text_of
from mindscope_ls.services.check_scheduler import MAX_CHECKED_CHARS, CheckScheduler

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer

log = logging.getLogger(__name__)

CELL_CLASSES = "mindscope/cellClasses"


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    """Adds `mindscope/cellClasses`; `checks` lends its workspace index (base classes in other
    files)."""

    @server.feature(CELL_CLASSES)
    async def on_cell_classes(ls: MindScopeServer, params: Any) -> dict[str, Any]:
        uri = getattr(getattr(params, "textDocument", None), "uri", None)
        if not isinstance(uri, str):
            return to_json([])
        try:
            return to_json(await _find(ls, checks, uri))
        except Exception:  # a bug here must cost one CodeLens refresh, never the server
            log.exception("cellClasses of %s failed", uri)
            return to_json([])


async def _find(ls: MindScopeServer, checks: CheckScheduler, uri: str) -> list[CellClass]:
    view = cell_view(ls.workspace, uri)
    if view is not None:
        return await asyncio.to_thread(
            cell_classes, view.source, f"<cell {uri}>", None, view.offset
        )
    source = text_of(ls.workspace, uri)
    if not source or len(source) > MAX_CHECKED_CHARS:
        return []
    path: Optional[str] = to_fs_path(uri) if urlsplit(uri).scheme == "file" else None
    if path is None:  # untitled: nothing in the workspace index to share
        return await asyncio.to_thread(cell_classes, source, uri)
    return await asyncio.to_thread(
        checks.index.with_workspace, path, lambda ws: cell_classes(source, path, ws)
    )


def to_json(found: list[CellClass]) -> dict[str, Any]:
    return {
        "cells": [
            {
                "name": c.name,
                "line": c.line,
                "character": c.character,
                "endLine": c.end_line,
                "kind": "cell",
            }
            for c in found
        ]
    }

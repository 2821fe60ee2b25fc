"""`mindscope/fileMode`: the execution mode, syntax level and compiled functions of a file or a
notebook, for the status bar (contract: schemas/file-mode.schema.json). Thin: the analysis is
in analysis/filemode.py; this reads the documents the client synced and shapes the answer."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Optional
from urllib.parse import urlsplit

from pygls.uris import to_fs_path

from mindscope_ls.analysis.filemode import FileMode, Where, file_mode, notebook_mode
from mindscope_ls.documents.text import text_of
from mindscope_ls.services.check_scheduler import MAX_CHECKED_CHARS, CheckScheduler

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer

log = logging.getLogger(__name__)

FILE_MODE = "mindscope/fileMode"
VERSION = 1


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    """Adds `mindscope/fileMode`; `checks` lends its settings and its workspace index."""

    @server.feature(FILE_MODE)
    async def on_file_mode(ls: MindScopeServer, params: Any) -> Optional[dict[str, Any]]:
        uri = getattr(params, "uri", None)
        cells = getattr(params, "cells", None)
        if not isinstance(uri, str):
            return None
        level = checks.settings.syntax_level
        try:
            if isinstance(cells, list) and cells:
                uris = [c for c in cells if isinstance(c, str)]
                sources = [text_of(ls.workspace, c) for c in uris]
                result = await asyncio.to_thread(notebook_mode, sources, setting_level=level)
                return to_json(result, uris)
            source = text_of(ls.workspace, uri)
            if len(source) > MAX_CHECKED_CHARS:
                source = ""  # not analysed as it is typed, like the diagnostics
            path = to_fs_path(uri) if urlsplit(uri).scheme == "file" else None
            if path is None:  # untitled: nothing in the workspace index to share
                result = await asyncio.to_thread(file_mode, source, uri, setting_level=level)
            else:
                result = await asyncio.to_thread(
                    checks.index.with_workspace,
                    path,
                    lambda ws: file_mode(source, path, setting_level=level, workspace=ws),
                )
            return to_json(result, [uri])
        except Exception:  # a bug here must cost one status update, never the server
            log.exception("fileMode of %s failed", uri)
            return None


def _where(where: Optional[Where], uris: list[str]) -> Optional[dict[str, Any]]:
    if where is None or not 0 <= where.part < len(uris):
        return None
    return {"uri": uris[where.part], "line": max(where.line - 1, 0), "text": where.text}


def to_json(result: FileMode, uris: list[str]) -> dict[str, Any]:
    """The wire form: camelCase, 0-based lines, cell indexes turned back into URIs."""
    return {
        "version": VERSION,
        "mode": result.mode,
        "modeSource": result.mode_source,
        "modeChoices": list(result.mode_choices),
        "modeAt": _where(result.mode_at, uris),
        "modeSetCount": result.mode_set_count,
        "level": result.level,
        "levelSource": result.level_source,
        "levelAt": _where(result.level_at, uris),
        "compiledFunctions": result.compiled_count,
        "compiled": [
            {"name": c.name, "kind": c.kind, "uri": uris[c.part], "line": max(c.line - 1, 0)}
            for c in result.compiled
            if 0 <= c.part < len(uris)
        ],
        "parsed": result.parsed,
    }

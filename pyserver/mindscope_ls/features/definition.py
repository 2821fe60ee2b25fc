"""`textDocument/definition`: thin, the work is in analysis/definition.py."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from mindscope_ls.analysis.definition import definition
from mindscope_ls.analysis.sourcemodel import for_document
from mindscope_ls.documents.position import At, request_at

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer

log = logging.getLogger(__name__)


def register(server: MindScopeServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(
        ls: MindScopeServer, params: types.DefinitionParams
    ) -> Optional[list[types.Location]]:
        uri = params.text_document.uri
        try:
            # A notebook cell is analysed as part of its notebook's program.
            at = request_at(ls, uri, params.position)
            # jedi and large MindSpore files are parsed here: keep the server answering.
            found = await asyncio.to_thread(_definition, at, ls.folder_of(at.path))
        except Exception:  # user code can surprise the analysis: no answer, never a crash
            log.exception("definition failed")
            return None
        if at.doc != uri and at.path is not None:
            # In a notebook, jedi's lines count in the joined cells: only places outside it
            # (MindSpore's sources, other files) are given.
            inside = Path(at.path).as_uri()
            found = [location for location in found if location.uri != inside]
        return found or None


def _definition(at: At, root: Optional[str]) -> list[types.Location]:
    with for_document(at.doc):
        return definition(at.source, at.line, at.character, at.path, root)

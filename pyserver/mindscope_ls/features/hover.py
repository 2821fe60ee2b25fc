"""`textDocument/hover`: thin, the work is in analysis/hover.py."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from mindscope_ls.analysis.hover import hover
from mindscope_ls.analysis.sourcemodel import for_document
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.documents.position import At, request_at
from mindscope_ls.infra import trace

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def _hover(at: At) -> Optional[types.Hover]:
    cat = catalogue_for()
    if cat is None:
        return None
    with for_document(at.doc), trace.span("hover"):
        return hover(at.source, at.line, at.character, cat)


def register(server: MindScopeServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: MindScopeServer, params: types.HoverParams) -> Optional[types.Hover]:
        at = request_at(ls, params.text_document.uri, params.position)
        return await asyncio.to_thread(_hover, at)

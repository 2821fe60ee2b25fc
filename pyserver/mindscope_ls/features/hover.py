"""`textDocument/hover`: thin, the work is in analysis/hover.py."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Optional

import attrs
from lsprotocol import types

from mindscope_ls.analysis.hover import hover
from mindscope_ls.analysis.sourcemodel import for_document
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.documents.position import At, request_at
from mindscope_ls.documents.window import windowed
from mindscope_ls.features.completion import moved_range
from mindscope_ls.infra import trace

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def _hover(at: At) -> Optional[types.Hover]:
    cat = catalogue_for()
    if cat is None:
        return None
    at, view = windowed(at)  # a very large file: its imports and the block around
    with for_document(at.doc), trace.span("hover"):
        found = hover(at.source, at.line, at.character, cat)
    if found is None or found.range is None or view is None:
        return found
    line = view.file_line
    return attrs.evolve(
        found,
        range=moved_range(found.range, lambda p: types.Position(line(p.line), p.character)),
    )


def register(server: MindScopeServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: MindScopeServer, params: types.HoverParams) -> Optional[types.Hover]:
        at = request_at(ls, params.text_document.uri, params.position)
        return await asyncio.to_thread(_hover, at)

"""`textDocument/signatureHelp`: thin, the work is in analysis/hover.py (`signature_help`)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from mindscope_ls.analysis.hover import signature_help
from mindscope_ls.analysis.sourcemodel import for_document
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.documents.position import At, request_at
from mindscope_ls.documents.window import windowed

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def _signature_help(at: At) -> Optional[types.SignatureHelp]:
    cat = catalogue_for()
    if cat is None:
        return None
    at, _ = windowed(at)  # a very large file: its imports and the block around (no positions)
    with for_document(at.doc):
        return signature_help(at.source, at.line, at.character, cat)


def register(server: MindScopeServer) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        types.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
    )
    async def on_signature_help(
        ls: MindScopeServer, params: types.SignatureHelpParams
    ) -> Optional[types.SignatureHelp]:
        at = request_at(ls, params.text_document.uri, params.position)
        return await asyncio.to_thread(_signature_help, at)

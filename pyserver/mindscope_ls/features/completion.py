"""Completion, hover and signature help handlers: thin, the work is in plain modules."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Optional, Union

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from mindscope_ls.analysis.apiitems import namespace_json
from mindscope_ls.analysis.completion import answer
from mindscope_ls.analysis.hover import hover, resolve_item, signature_help
from mindscope_ls.analysis.sourcemodel import for_document
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.documents.notebook import cell_view, to_cell
from mindscope_ls.infra import trace
from mindscope_ls.infra.transport import Encoded, MindScopeProtocol


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


def _complete(at: At, root: Optional[str], encoded: bool) -> Union[Encoded, types.CompletionList]:
    with trace.span("completion"):
        return _completion(at, root, encoded)


def _completion(at: At, root: Optional[str], encoded: bool) -> Union[Encoded, types.CompletionList]:
    found = answer(at.source, at.line, at.character, at.path, root, doc=at.doc)
    if found.listing is not None and encoded:
        return Encoded(namespace_json(found.listing))
    items = to_cell(list(found.items), at.offset) if at.offset else list(found.items)
    return types.CompletionList(is_incomplete=False, items=items)


def _hover(at: At) -> Optional[types.Hover]:
    cat = catalogue_for()
    if cat is None:
        return None
    with for_document(at.doc), trace.span("hover"):
        return hover(at.source, at.line, at.character, cat)


def _signature_help(at: At) -> Optional[types.SignatureHelp]:
    cat = catalogue_for()
    if cat is None:
        return None
    with for_document(at.doc):
        return signature_help(at.source, at.line, at.character, cat)


def register(server: LanguageServer) -> None:
    """Adds the language features to `server` (a MindScopeServer, which has `root`)."""
    # Pre-encoded namespace listings need the protocol that sends them as they are.
    encoded = isinstance(server.protocol, MindScopeProtocol)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["."], resolve_provider=True),
    )
    async def on_completion(ls: Any, params: types.CompletionParams) -> Any:
        at = request_at(ls, params.text_document.uri, params.position)
        # jedi is synchronous: a worker thread keeps the server answering meanwhile.
        return await asyncio.to_thread(_complete, at, ls.root, encoded)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    def on_resolve(ls: Any, item: types.CompletionItem) -> types.CompletionItem:
        cat = catalogue_for() if item.data is not None else None
        return resolve_item(cat, item) if cat is not None else item

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: Any, params: types.HoverParams) -> Optional[types.Hover]:
        at = request_at(ls, params.text_document.uri, params.position)
        return await asyncio.to_thread(_hover, at)

    @server.feature(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        types.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
    )
    async def on_signature_help(
        ls: Any, params: types.SignatureHelpParams
    ) -> Optional[types.SignatureHelp]:
        at = request_at(ls, params.text_document.uri, params.position)
        return await asyncio.to_thread(_signature_help, at)

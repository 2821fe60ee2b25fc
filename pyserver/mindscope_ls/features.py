"""Completion, hover and signature help handlers: thin, the work is in plain modules."""

from __future__ import annotations

import asyncio
from typing import Any, Optional

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

from mindscope_ls.apiitems import namespace_json
from mindscope_ls.catalogue.load import catalogue_for
from mindscope_ls.completion import answer
from mindscope_ls.hover import entry_markdown, hover, signature_help


def _document(
    ls: LanguageServer, uri: str, position: types.Position
) -> tuple[TextDocument, ServerTextPosition]:
    document = ls.workspace.get_text_document(uri)
    # LSP counts UTF-16 units; the analysis counts code points.
    return document, document.position_codec.position_from_client_units(document.lines, position)


class Serialized:
    """A result already in JSON form: sent as is, not walked again by the converter."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.payload = payload


def _accept_serialized(server: LanguageServer) -> bool:
    """Teaches the server's converter to send `Serialized` as is; False if it cannot."""
    converter = getattr(server.protocol, "_converter", None)
    if converter is None or not hasattr(converter, "register_unstructure_hook"):
        return False
    converter.register_unstructure_hook(Serialized, lambda value: value.payload)
    return True


def register(server: LanguageServer) -> None:
    """Adds the language features to `server` (a MindScopeServer, which has `root`)."""
    serialized = _accept_serialized(server)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["."], resolve_provider=True),
    )
    async def on_completion(ls: Any, params: types.CompletionParams) -> Any:
        document, at = _document(ls, params.text_document.uri, params.position)
        # jedi is synchronous: a worker thread keeps the server answering meanwhile.
        found = await asyncio.to_thread(
            answer, document.source, at.line, at.character, document.path, ls.root
        )
        if found.listing is not None and serialized:
            return Serialized({"isIncomplete": False, "items": namespace_json(found.listing)})
        return types.CompletionList(is_incomplete=False, items=list(found.items))

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    def on_resolve(ls: Any, item: types.CompletionItem) -> types.CompletionItem:
        ident = item.data.get("ident") if isinstance(item.data, dict) else None
        cat = catalogue_for() if ident else None
        entry = cat.entry(ident) if cat and ident else None
        if cat is not None and entry is not None:
            item.documentation = types.MarkupContent(
                kind=types.MarkupKind.Markdown, value=entry_markdown(cat, entry)
            )
        return item

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: Any, params: types.HoverParams) -> Optional[types.Hover]:
        document, at = _document(ls, params.text_document.uri, params.position)
        cat = await asyncio.to_thread(catalogue_for)
        if cat is None:
            return None
        return await asyncio.to_thread(hover, document.source, at.line, at.character, cat)

    @server.feature(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        types.SignatureHelpOptions(trigger_characters=["(", ","], retrigger_characters=[","]),
    )
    async def on_signature_help(
        ls: Any, params: types.SignatureHelpParams
    ) -> Optional[types.SignatureHelp]:
        document, at = _document(ls, params.text_document.uri, params.position)
        cat = await asyncio.to_thread(catalogue_for)
        if cat is None:
            return None
        return await asyncio.to_thread(signature_help, document.source, at.line, at.character, cat)

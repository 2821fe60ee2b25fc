"""`mindscope/documentText`: the server's copy of an open document, which tests compare with
the editor's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcInvalidParams

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer

DOCUMENT_TEXT = "mindscope/documentText"


def register(server: MindScopeServer) -> None:
    @server.feature(DOCUMENT_TEXT)
    def on_document_text(ls: MindScopeServer, params: Any) -> dict[str, Any]:
        uri = getattr(getattr(params, "textDocument", None), "uri", None)
        document = ls.workspace.text_documents.get(uri) if isinstance(uri, str) else None
        if document is None:
            raise JsonRpcInvalidParams(f"not an open document: {uri}")
        return {"version": document.version, "text": document.source}

"""Graph-mode diagnostics and their quick fixes: documents are checked when opened, changed
(debounced) and cleared when closed (services/check_scheduler.py); quick fixes come from the
findings' fixes (analysis/diagnostics.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mindscope_ls.analysis.diagnostics import code_actions
from mindscope_ls.services.check_scheduler import CheckScheduler

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def on_open(ls: MindScopeServer, params: types.DidOpenTextDocumentParams) -> None:
        # After the usual quiet period: the first completion or hover of a freshly opened file
        # then runs alone instead of sharing the GIL with a whole-file check (~300 ms at 3,000
        # lines), and the squiggles follow a moment later.
        checks.schedule_changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def on_change(ls: MindScopeServer, params: types.DidChangeTextDocumentParams) -> None:
        checks.schedule_changed(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def on_close(ls: MindScopeServer, params: types.DidCloseTextDocumentParams) -> None:
        checks.forget(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def on_code_action(
        ls: MindScopeServer, params: types.CodeActionParams
    ) -> list[types.CodeAction]:
        document = ls.workspace.get_text_document(params.text_document.uri)
        lines = document.lines

        def to_client(r: types.Range) -> types.Range:
            # Fix ranges were stored in code points; the edit goes out in the client's units.
            return document.position_codec.range_to_client_units(lines, r)

        return code_actions(document.uri, lines, params.context.diagnostics, to_client)

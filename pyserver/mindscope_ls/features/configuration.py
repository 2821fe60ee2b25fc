"""`workspace/didChangeConfiguration`: new `mindscope.graphMode.*` settings apply to the open
documents at once; a bad value is named to the user (settings.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from mindscope_ls.services.check_scheduler import CheckScheduler
from mindscope_ls.settings import parse_graph_mode

if TYPE_CHECKING:
    from mindscope_ls.server import MindScopeServer


def register(server: MindScopeServer, checks: CheckScheduler) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def on_configuration(ls: MindScopeServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings.get("mindscope") if isinstance(params.settings, dict) else None
        if isinstance(settings, dict):
            problems: list[str] = []
            checks.settings = parse_graph_mode(settings.get("graphMode"), problems)
            ls.report_settings(problems)
            checks.recheck_open_documents()
